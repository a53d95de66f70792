"""card_envs.batch.numpy_random against numpy itself, bit for bit: seeding, raw draws, the
permutations Dominion's shuffles make (and the generator state each leaves behind, which pins the
number of rejected draws), and the reference engine's own shuffles in play. This is the guard for
numpy upgrades: `Generator` promises no stream compatibility."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.random.bit_generator import _coerce_to_uint32_array

from card_envs.batch import numpy_random as nr
from card_envs.core.registry import make_game
from card_envs.games.dominion.rules import DominionState

BIG = [2**32 - 1, 2**32, 2**62 - 1, 2**63, 2**64 - 1]


def as_state(gen: np.ndarray) -> dict:
    """A generator array in the form of ``PCG64.state``."""
    hi_lo = [int(x) for x in gen]
    return {"bit_generator": "PCG64", "state": {"state": hi_lo[0] << 64 | hi_lo[1], "inc": hi_lo[2] << 64 | hi_lo[3]},
            "has_uint32": hi_lo[4], "uinteger": hi_lo[5]}


def triples(count: int, seed: int) -> list[tuple[int, int, int]]:
    """(seed, k, n): seeds drawn as Dominion draws them, small ones, 0 and the 64-bit edges;
    k up to a few hundred (and a few past 2**32); n up to 120."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(count):
        kind = i % 5
        s = (int(rng.integers(2**62)), int(rng.integers(1000)), 0, BIG[i % len(BIG)], int(rng.integers(2**32)))[kind]
        k = int(rng.integers(400)) if i % 47 else BIG[i % len(BIG)]  # 47: every kind of seed
        out.append((s, k, int(rng.integers(121))))
    return out


def arg(x: int) -> int | np.uint64:
    """x as a kernel argument: numba passes a Python int as int64, so 2**63 and above go as uint64."""
    return np.uint64(x) if x >= 2**63 else x


@pytest.mark.parametrize("entropy", [0, 1, 2**32 - 1, 2**32, 2**64 - 1, 2**100 + 7, [], [0], [5, 0], [0, 0, 0],
                                     [2**62 - 1, 3], [7, 2**40, 0, 9, 2**33, 1]], ids=str)
def test_entropy_words_and_seeding_match_numpy(entropy):
    words = nr.entropy_words(entropy)
    assert np.array_equal(words, _coerce_to_uint32_array(entropy))
    if len(words):  # numpy refuses an empty entropy
        assert as_state(nr.new_generator(entropy)) == np.random.PCG64(entropy).state


@pytest.mark.parametrize("bad", [-1, [3, -2], [1.5], [True], "7"], ids=str)
def test_entropy_words_refuse_what_is_not_a_non_negative_int(bad):
    with pytest.raises(ValueError, match="give non-negative ints"):
        nr.entropy_words(bad)


def test_seed_pair_matches_default_rng_of_the_pair():
    gen = np.zeros(nr.GEN_SIZE, dtype=np.uint64)
    for s, k, _ in triples(1000, seed=1):
        nr.seed_pair(arg(s), arg(k), gen)
        assert as_state(gen) == np.random.PCG64([s, k]).state, (s, k)


def test_raw_draws_match_numpy_interleaved():
    """next_uint64 and next_uint32 (with its kept half) against the bit generator's own C calls."""
    rng = np.random.default_rng(2)
    for s, k, _ in triples(50, seed=3):
        gen, bits = nr.new_generator([s, k]), np.random.PCG64([s, k])
        ctypes = bits.ctypes
        for wide in rng.integers(2, size=40):
            if wide:
                assert nr.next_uint64(gen) == ctypes.next_uint64(ctypes.state)
            else:
                assert nr.next_uint32(gen) == ctypes.next_uint32(ctypes.state)
        assert as_state(gen) == bits.state


def test_permutations_match_numpy_and_leave_the_same_state():
    """Dominion's call, default_rng([seed, k]).permutation(n), over thousands of triples; the
    state after it (raw draws used, kept half) equal too, so every rejection was reproduced."""
    gen, out = np.zeros(nr.GEN_SIZE, dtype=np.uint64), np.empty(121, dtype=np.int64)
    for s, k, n in triples(3000, seed=4):
        rng = np.random.default_rng([s, k])
        nr.seed_pair(arg(s), arg(k), gen)
        nr.permutation(gen, n, out)
        assert np.array_equal(out[:n], rng.permutation(n)), (s, k, n)
        assert as_state(gen) == rng.bit_generator.state, (s, k, n)


def draws_used(seed: int, k: int, n: int) -> int:
    """How many 32-bit draws permutation(n) took after seeding with [seed, k]."""
    gen, fresh = nr.new_generator([seed, k]), nr.new_generator([seed, k])
    nr.permutation(gen, n, np.empty(n, dtype=np.int64))
    for used in range(100 * n + 1):
        if np.array_equal(gen, fresh):
            return used
        nr.next_uint32(fresh)
    raise AssertionError("the permutation's state is not a few draws on from the seeded one")


@pytest.mark.parametrize("seed, k, n, used", [(2, 0, 3, 2), (0, 0, 3, 4), (18, 0, 3, 5), (2**61 + 12345, 0, 65, 86),
                                              (1, 7, 120, 149)])
def test_rejected_draws_are_redrawn_as_numpy_does(seed, k, n, used):
    """random_interval rejects a masked draw above i and draws again: all but the first case
    reject (more than n - 1 draws used; the first draw of (18, 0, 3) three times), and match
    numpy."""
    assert draws_used(seed, k, n) == used
    out = np.empty(n, dtype=np.int64)
    nr.permutation(nr.new_generator([seed, k]), n, out)
    assert np.array_equal(out, np.random.default_rng([seed, k]).permutation(n))


def test_shuffle_pair_shuffles_values_as_indexing_by_the_permutation():
    rng = np.random.default_rng(5)
    gen = np.zeros(nr.GEN_SIZE, dtype=np.uint64)
    for s, k, n in triples(300, seed=6):
        cards = np.sort(rng.integers(30, size=n))
        expected = cards[np.random.default_rng([s, k]).permutation(n)]
        nr.shuffle_pair(arg(s), arg(k), cards, n, gen)
        assert np.array_equal(cards, expected)


def test_shuffle_refuses_n_of_2_to_the_32():
    with pytest.raises(ValueError, match="below 2\\*\\*32"):
        nr.shuffle(nr.new_generator(1), np.arange(4), 2**32)


@pytest.mark.parametrize("num_players", [2, 4])
def test_dominion_shuffles_in_play(monkeypatch, num_players):
    """Every shuffle of reference games (the deal's included), remade from (seed, k, the sorted
    discard pile)."""
    original, seen = DominionState._shuffle, []

    def recording(state, p):
        cards, k, below = sorted(state.discards[p]), state.shuffles, len(state.decks[p])
        original(state, p)
        seen.append((state.seed, k, cards, state.decks[p][:len(state.decks[p]) - below]))

    monkeypatch.setattr(DominionState, "_shuffle", recording)
    game, rng = make_game("dominion_v0", num_players=num_players, kingdom="random"), np.random.default_rng(7)
    for _ in range(3):
        state = game.new_state(rng)
        for _ in range(300):
            if state.is_terminal():
                break
            state.apply(int(rng.choice(state.legal_actions())))
    assert len(seen) > 50
    gen = np.zeros(nr.GEN_SIZE, dtype=np.uint64)
    for seed, k, cards, shuffled in seen:
        x = np.array(cards, dtype=np.int64)
        nr.shuffle_pair(seed, k, x, len(x), gen)
        assert x.tolist() == shuffled, (seed, k)
