"""Batched Piles (card_envs.batch) against the reference engine, pass draws included.

The differential runs play CARD_ENVS_BATCH_GAMES games per configuration and backend (1,000 by
default, to keep the suite fast); `benchmarks/batch_differential.py` runs 10,000 and more."""

from __future__ import annotations

import os

import numpy as np
import pytest
import torch

from card_envs import batch
from card_envs.batch.base import lemire
from card_envs.batch.check import differential
from card_envs.core.registry import make_game

GAMES = int(os.environ.get("CARD_ENVS_BATCH_GAMES", 1000))
CONFIGS = [{}, {"num_players": 2}, {"reward": "score"}]
BACKENDS = [pytest.param("numba", marks=pytest.mark.skipif(not batch.has_numba(), reason="numba not installed")),
            "torch"]
DEVICES = ["cpu", pytest.param("cuda", marks=pytest.mark.skipif(not torch.cuda.is_available(), reason="no GPU"))]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_same_games_as_the_reference(config, backend):
    counts = differential("piles_v0", config, games=GAMES, batch=256, backend=backend, seed=1)
    assert counts["games"] >= GAMES


@pytest.mark.parametrize("backend", BACKENDS)
def test_same_games_with_forced_decisions_played(backend):
    differential("piles_v0", {"num_players": 2}, games=GAMES // 4, batch=128, backend=backend, seed=2,
                 auto_forced=True)


@pytest.mark.parametrize("device", DEVICES)
def test_same_games_on_every_device(device):
    differential("piles_v0", {}, games=GAMES // 4, batch=128, device=device, backend="torch", seed=3)


def test_lemire_is_numpys_integers():
    """The pass draw: numpy's Generator.integers(n) from the generator's first 64-bit output,
    including numpy's redraw on rejection (forced here with crafted words)."""
    words, sizes, want = [], [], []
    for seed in range(2000):
        n = 1 + seed % 20
        words.append(int(np.random.default_rng((seed, 7)).bit_generator.random_raw()))
        sizes.append(n)
        want.append(int(np.random.default_rng((seed, 7)).integers(n)))
    got = lemire(torch.tensor(np.array(words, dtype=np.uint64).view(np.int64)), torch.tensor(sizes))
    assert got.tolist() == want
    # Low word 0 is rejected for n = 3 ((2**32 - 3) % 3 = 1 > 0): the high word decides.
    high = 0x60000000  # 3 * high >> 32 = 1, while the low word alone would give 0
    assert lemire(torch.tensor([high << 32]), torch.tensor([3])).tolist() == [1]
    assert lemire(torch.tensor([(high << 32) + 5]), torch.tensor([3])).tolist() == [0]  # accepted
    if batch.has_numba():
        from card_envs.batch.piles.kernels import _lemire

        assert _lemire(high << 32, 3) == 1 and _lemire((high << 32) + 5, 3) == 0
        assert [_lemire(w, n) for w, n in zip(np.array(words, dtype=np.uint64).view(np.int64), sizes)] == want


@pytest.mark.parametrize("backend", BACKENDS)
def test_step_shapes_and_episode_length(backend):
    env = batch.make("piles_v0", 32, backend=backend, num_players=2, reward="score")
    out = env.reset(seed=4)
    game = make_game("piles_v0", num_players=2)
    assert out.obs.shape == (32, game.observation_layout.size) and out.mask.shape == (32, 625)
    for step in range(40):  # every Piles game lasts exactly 40 decisions
        assert not out.done.any()
        assert out.mask[:, 624].all()  # a pass is always legal
        out = env.step(torch.full((32,), 624))
    assert out.done.all() and (out.length == 40).all()
    assert torch.allclose(out.reward.sum(1), torch.zeros(32))  # zero-sum
    assert env.all_seat_observations().shape == (32, 2, game.observation_layout.size)


def test_redealt_games_are_valid_reference_states():
    for n in (2, 4):
        env = batch.make("piles_v0", 16, seed=0, num_players=n)
        game = make_game("piles_v0", num_players=n)
        for i in range(16):
            state = env.state(i)
            game.state_from_json(state.to_json())  # the reference snapshot validator accepts it
            assert all(len(h) == 10 for h in state.hands) and len(state.set_aside) == (20 if n == 2 else 0)
