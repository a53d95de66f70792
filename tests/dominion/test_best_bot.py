"""`best_bot` (agents/dominion/best.py): it reads a game's whole setup from an observation, its
round-robin scores every pair in every seating the right way round and the same way every time,
and it plays exactly as the bot that round-robin picks, one row at a time or compiled."""

from __future__ import annotations

import numpy as np
import pytest

import card_envs
from card_envs.agents import make_policy
from card_envs.agents.dominion.best import CANDIDATES, BestBot, Kingdom, kingdom_of, round_robin, seatings
from card_envs.agents.dominion.bots import WitchBM

RANDOM = card_envs.make_game("dominion_v0", kingdom="random")


def observation(state, seat=0):
    return np.asarray(state.observation(seat), np.float32)


def random_kingdoms(count, want):
    """Deals of random kingdoms until `count` have a pile of `want` (a name or None: any)."""
    rng, found = np.random.default_rng(3), []
    while len(found) < count:
        state = RANDOM.new_state(rng)
        k = kingdom_of(RANDOM.observation_layout, observation(state))
        if want is None or want in k.piles:
            found.append((state, k))
    return found


@pytest.mark.parametrize("want", [None, "Young Witch", "Wizards"])
def test_the_kingdom_read_from_an_observation_rebuilds_the_same_setup(want):
    """With Young Witch the Bane and with Wizards (a Liaison) the Ally are part of it."""
    for state, k in random_kingdoms(3, want):
        assert len(k.piles) == 10
        assert (k.bane is not None) == ("Young Witch" in k.piles)
        assert (k.ally is not None) == ("Wizards" in k.piles or k.bane == "Wizards")
        again = card_envs.make_game("dominion_v0", **k.config()).new_state(np.random.default_rng(0))
        for seat in range(2):  # every seat reads the same setup, at the start and later
            assert kingdom_of(RANDOM.observation_layout, observation(again, seat)) == k
        assert observation(again)[RANDOM.observation_layout.slices["supply_in"]].tolist() == \
            observation(state)[RANDOM.observation_layout.slices["supply_in"]].tolist()


@pytest.mark.parametrize("n", [2, 3, 4])
def test_seatings_put_each_pair_in_every_seat_both_ways(n):
    rows = seatings(n)
    assert len(rows) == 15 * (2 if n == 2 else 2 * n) and len(set(rows)) == len(rows)
    for a in range(len(CANDIDATES)):
        for b in range(a + 1, len(CANDIDATES)):
            for lone, rest in ((a, b), (b, a)):
                for seat in range(n):
                    assert tuple(lone if s == seat else rest for s in range(n)) in rows


def test_the_round_robin_is_repeatable_and_witch_wins_where_witch_is():
    """Witch-BM's cursing beats every money bot by far (0.84 over Smithy-BM on T1-B, the
    game's doc page): a round-robin that scored the wrong seat would rank it last."""
    game = card_envs.make_game("dominion_v0", kingdom="T1-B")
    k = kingdom_of(game.observation_layout, observation(game.new_state(np.random.default_rng(0))))
    assert "Witch" in k.piles
    rates = round_robin(game, k, games=4)
    assert rates.shape == (len(CANDIDATES),) and ((0 <= rates) & (rates <= 1)).all()
    assert CANDIDATES[int(np.argmax(rates))] is WitchBM and rates.max() > 0.75
    assert np.array_equal(round_robin(game, k, games=4), rates)


def test_it_plays_as_the_bot_it_picked_row_by_row_and_compiled():
    game = card_envs.make_game("dominion_v0", kingdom="T1-B")
    bot = make_policy("best_bot", game)
    assert type(bot) is BestBot
    bot.games = 4
    rng = np.random.default_rng(1)
    state = game.new_state(rng)
    observations, masks = [], []
    while not state.is_terminal() and len(observations) < 300:
        obs, mask = observation(state, state.current_player), np.asarray(state.legal_mask(), bool)
        observations.append(obs)
        masks.append(mask)
        state.apply(int(rng.choice(np.flatnonzero(mask))))
    picked = bot.pick(observations[0])
    assert picked is WitchBM and list(bot.rates) == [Kingdom(*kingdom_of(game.observation_layout, observations[0]))]
    twin = WitchBM(game)
    expected = [twin.act(o, m, rng) for o, m in zip(observations, masks)]
    assert [bot.act(o, m, rng) for o, m in zip(observations, masks)] == expected
    assert bot.act_batch(np.array(observations), np.array(masks), rng).tolist() == expected
    assert len(bot.rates) == 1  # the kingdom's round-robin was played once
