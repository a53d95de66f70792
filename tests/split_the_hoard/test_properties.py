"""Split the Hoard over many seeded random games: card conservation, masks, termination, no dead
ends, scores consistent with the scoring rules, hidden information and determinize."""

from __future__ import annotations

import json

import numpy as np
import pytest

import card_envs
from card_envs.games.split_the_hoard import scoring
from card_envs.games.split_the_hoard.effects import OVER
from card_envs.games.split_the_hoard.rules import CLAIM, NEGOTIATE, REVEAL, SLOTS
from tests.conftest import random_walk

CONFIGS = [{"num_players": n} for n in (2, 3, 4, 5)] + [{"num_players": 3, "class_powers": "tiebreak_only"}]


def places(s) -> list[int]:
    n = s.game.num_players
    cards = s.deck + s.coin_discard + s.treasure_discard
    for p in range(n):
        cards += s.coins[p] + s.treasures[p] + s.hand[p]
        cards += [c for c in s.offer[p] if c >= 0] + [c for pile in s.added[p] for c in pile]
    return cards


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_random_games_keep_every_invariant(config):
    game = card_envs.make_game("split_the_hoard_v0", **config)
    n = game.num_players
    for seed in range(25):
        decisions = 0
        for s in random_walk(game, 1000 + seed):
            assert sorted(places(s)) == list(range(game.cards.num_cards))  # every card exactly once
            tc = [[0] * game.cards.num_names for _ in range(n)]
            for p in range(n):
                for c in s.treasures[p]:
                    tc[p][game.cards.NAME[c]] += 1
            assert tc == s.tcount
            legal = s.legal_actions()
            assert sorted(np.flatnonzero(s.legal_mask()).tolist()) == sorted(legal)
            if s.is_terminal():
                assert not legal and s.decision == OVER
                break
            assert legal, "a live position with no legal answer"  # no dead end
            hands = [len(h) for h in s.hand]
            if s.phase == REVEAL:
                assert not s.flipped and all(k in (0, 1, 2, 3, 4) for k in hands)
            else:
                assert not any(hands)
            if s.phase == CLAIM:
                assert all(c < 0 for p in range(n) for c in s.offer[p])
            if s.phase == NEGOTIATE:
                assert s.flipped
            decisions += 1
            assert decisions <= game.max_game_length
        board = s.scoring()
        # the totals add up from their parts, with the Starting Titles given once at most
        won = [t for b in board for t in b["starting"]]
        assert len(won) == len(set(won)) <= 5
        for b in board:
            hidden = game.cards.hidden[game.cards.title_index[b["hidden"]]]
            assert b["total"] == (game.starting_title_vp * len(b["starting"]) + (hidden.vp if b["hidden_met"] else 0)
                                  + b["treasure_vp"])
        np.testing.assert_allclose(s.returns().sum(), 0, atol=1e-9)
        assert s.scores() == [b["total"] for b in board]


def test_random_games_are_reproducible_and_end_well_within_the_bound():
    game = card_envs.make_game("split_the_hoard_v0", num_players=2)
    lengths = []
    for seed in range(30):
        walk = [json.dumps(s.to_json()) for s in random_walk(game, seed)]
        again = [json.dumps(s.to_json()) for s in random_walk(game, seed)]
        assert walk == again
        lengths.append(len(walk))
    assert max(lengths) < game.max_game_length // 5


def test_starting_titles_follow_the_eligibility_minimums_in_real_games():
    game = card_envs.make_game("split_the_hoard_v0", num_players=4)
    cs = game.cards
    for seed in range(20):
        s = list(random_walk(game, seed))[-1]
        coins = [len(c) for c in s.coins]
        for title in cs.starting:
            p = scoring.award_starting(title, s.tcount, coins, s.classes, cs)
            if p >= 0:
                assert scoring.starting_eligible(title.criterion, title.min, s.tcount[p], coins[p], cs)
                assert title.name in s.scoring()[p]["starting"]


def test_warlord_solver_matches_brute_force_on_small_hauls():
    """The memoised search against trying every attachment of every modifier."""
    from itertools import product

    cs = card_envs.make_game("split_the_hoard_v0").cards
    fixed = [i for i in range(cs.num_names) if cs.fixed[i]]
    mods = [i for i in range(cs.num_names) if cs.is_mod[i]]
    rng = np.random.default_rng(0)
    for _ in range(300):
        haul = list(rng.choice(fixed, size=int(rng.integers(1, 6)))) + list(rng.choice(mods, size=int(rng.integers(0, 4))))
        tc = [0] * cs.num_names
        for i in haul:
            tc[i] += 1
        ranks = [cs.rank[i] for i in haul if cs.fixed[i]]
        mod_values = [cs.rank[i] for i in haul if cs.is_mod[i]]
        best = 0
        for attach in product(range(len(ranks) + 1), repeat=len(mod_values)):  # len(ranks): unattached
            eff = ranks[:]
            for m, target in zip(mod_values, attach):
                if target < len(ranks):
                    eff[target] += m
            values = sorted(set(eff))
            run = longest = 1
            for a, b in zip(values, values[1:]):
                run = run + 1 if b == a + 1 else 1
                longest = max(longest, run)
            best = max(best, longest)
        assert scoring.longest_run(tc, cs) == best, haul


def test_determinize_keeps_what_the_seat_saw_and_resamples_the_rest():
    game = card_envs.make_game("split_the_hoard_v0", num_players=3)
    rng = np.random.default_rng(7)
    seen_positions = 0
    for seed in range(10):
        for s in random_walk(game, seed):
            for p in range(3):
                copy = s.determinize(p, rng)
                bit = 1 << p
                for i, c in enumerate(s.deck):
                    if s.known_by[c] & bit:
                        seen_positions += 1
                        assert copy.deck[i] == c
                assert copy.titles[p] == s.titles[p] and copy.hand[p] == s.hand[p]
                assert copy.treasures == s.treasures and copy.offer[p] == s.offer[p]
    assert seen_positions  # peeks happened


def test_an_observation_changes_when_something_the_seat_can_see_changes():
    game = card_envs.make_game("split_the_hoard_v0")
    s = game.new_state(np.random.default_rng(3))
    before = s.observation(1)
    s.coins[0].append(s.deck.pop())
    assert not np.array_equal(before, s.observation(1))
    before = s.observation(1)
    s.deck.insert(0, s.coins[0].pop())
    c = s.deck.pop()
    s.add_treasure(2, c)
    assert not np.array_equal(before, s.observation(1))


def test_coin_faces_are_hidden_from_their_owner():
    game = card_envs.make_game("split_the_hoard_v0")
    s = game.new_state(np.random.default_rng(4))
    twin = s.clone()
    twin.coins[0][0], twin.deck[0] = twin.deck[0], twin.coins[0][0]
    if not (s.known_by[s.coins[0][0]] or s.known_by[s.deck[0]]):
        np.testing.assert_array_equal(s.observation(0), twin.observation(0))
        assert not np.array_equal(s.state_tensor(), twin.state_tensor())


def test_offers_are_public_once_flipped_and_slots_hold_three_before():
    game = card_envs.make_game("split_the_hoard_v0", num_players=4)
    for s in random_walk(game, 5):
        if s.phase == NEGOTIATE:
            for p in range(4):
                assert sum(c >= 0 for c in s.offer[p]) <= SLOTS
            views = game.observation_layout.views(s.observation(1))
            for q in range(4):
                r = (q - 1) % 4
                for k in range(SLOTS):
                    c = s.offer[q][k]
                    assert views["offers"][r][k].any() == (c >= 0)
            break
