"""Batched games and matches: VectorGames, rotated_match, win/draw/loss and Wilson intervals."""

from __future__ import annotations

import numpy as np
import pytest

import card_envs
from card_envs.agents import make_policy
from card_envs.agents.match import rotated_match, seat_rotated_results, wilson_interval, win_draw_loss
from card_envs.agents.policy import RandomPolicy
from card_envs.vector import VectorGames


def test_vector_games_match_single_games_step_for_step():
    game = card_envs.make_game("three_piles_v0")
    seeds = [11, 12, 13]
    games = VectorGames(game, 3, deal_seed=lambda i: seeds[i])
    singles = [game.new_state(np.random.default_rng(s)) for s in seeds]
    rng = np.random.default_rng(0)
    for _ in range(30):
        observations, masks, seats = games.observe()
        for i, state in enumerate(singles):
            while len(state.legal_actions()) == 1:  # the vector plays forced decisions itself
                state.apply(state.legal_actions()[0])
            assert seats[i] == state.current_player
            np.testing.assert_array_equal(observations[i], state.observation(state.current_player))
            np.testing.assert_array_equal(masks[i], state.legal_mask() == 1)
        actions = [int(rng.choice(np.flatnonzero(m))) for m in masks]
        done, _, _ = games.step(actions)
        assert not done.any()
        for state, action in zip(singles, actions):
            state.apply(action)


def test_finished_games_report_returns_and_restart():
    game = card_envs.make_game("three_piles_v0")
    games = VectorGames(game, 4, seed=5)
    rng = np.random.default_rng(1)
    finished = 0
    while finished < 6:
        _, masks, _ = games.observe()
        done, returns, lengths = games.step(RandomPolicy().act_batch(None, masks, rng))
        for i in np.flatnonzero(done):
            finished += 1
            assert returns[i].sum() == 0 and set(returns[i]) <= {-1.0, 0.0, 1.0}
            assert 0 < lengths[i] <= game.max_game_length
            assert games.lengths[i] == 0 and games.masks[i].any()
    assert games.all_seat_observations().shape == (4, 2, game.observation_size)


def test_rotated_match_plays_every_deal_in_every_seating_and_is_reproducible():
    game = card_envs.make_game("three_piles_v0")
    heuristic = make_policy("heuristic", game)
    first = rotated_match(game, [heuristic, heuristic], 40, seed=3, parallel=16)
    again = rotated_match(game, [heuristic, heuristic], 40, seed=3, parallel=7)
    np.testing.assert_array_equal(first, again)  # the batch size does not change results
    # The same deterministic agent on both sides: a deal's two seatings mirror each other.
    np.testing.assert_array_equal(first[0::2, 0], first[1::2, 1])
    # And the batched runner agrees with playing through the AEC env, game by game.
    np.testing.assert_array_equal(first, seat_rotated_results("three_piles_v0", [heuristic, heuristic], 80, seed=3))


def test_rotated_match_refuses_the_wrong_number_of_policies():
    game = card_envs.make_game("three_piles_v0", num_players=3)
    with pytest.raises(ValueError, match="seats 3 players, got 2"):
        rotated_match(game, [RandomPolicy(), RandomPolicy()], 2)


def test_win_draw_loss_counts():
    assert win_draw_loss(np.array([1.0, -1.0, 0.0, 0.5, 1.0])) == (3, 1, 1)


@pytest.mark.parametrize("successes, trials, low, high", [
    # Hand-computed: centre = (p + z²/2n) / (1 + z²/n), half = z·sqrt(p(1-p)/n + z²/4n²) / (1 + z²/n).
    (8, 10, 0.4901624, 0.9433178),
    (50, 100, 0.4038315, 0.5961685),
    (0, 20, 0.0, 0.1611252),
    (20, 20, 0.8388748, 1.0),
])
def test_wilson_interval_against_hand_computed_values(successes, trials, low, high):
    assert wilson_interval(successes, trials) == pytest.approx((low, high), abs=1e-6)


def test_wilson_interval_without_trials_is_uninformative():
    assert wilson_interval(0, 0) == (0.0, 1.0)
