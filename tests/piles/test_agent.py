"""The scripted Piles agent: legal play only, and clearly better than random."""

from __future__ import annotations

import pytest

import card_envs
from card_envs.agents import RandomPolicy, make_policy
from card_envs.agents.match import play_game, seat_rotated_results
from card_envs.agents.piles.heuristic import PilesHeuristic


@pytest.mark.parametrize("num_players", [4, 2])
def test_heuristic_plays_only_legal_moves(num_players):
    env = card_envs.make("piles_v0", num_players=num_players)  # raises on any illegal move
    game = env.unwrapped.game
    assert isinstance(make_policy("heuristic", game), PilesHeuristic)
    for seed in range(6):
        _, scores = play_game(env, [make_policy("heuristic", game)] * num_players, seed)
        assert len(scores) == num_players


@pytest.mark.parametrize("num_players", [4, 2])
def test_heuristic_beats_random_clearly(num_players):
    """A team of heuristics against a team of random players (seats rotated over each deal)."""
    game = card_envs.make_game("piles_v0", num_players=num_players)
    policies = [make_policy("heuristic", game), RandomPolicy()] * (num_players // 2)
    results = seat_rotated_results("piles_v0", policies, 48, num_players=num_players)
    assert (results[:, 0] > 0).mean() > 0.75  # measured: about 0.92 over 400 games
