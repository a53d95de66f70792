"""Agents: the Policy interface, random and scripted baselines, the match runner and demo CLI."""

from __future__ import annotations

import numpy as np
import pytest

import card_envs
from card_envs.agents import RandomPolicy, make_policy
from card_envs.agents.three_piles import heuristic as three_piles_agent
from card_envs.agents.match import play_game, seat_rotated_results
from card_envs.agents.play import main as play_main


def test_random_policy_picks_uniformly_among_legal_actions():
    rng = np.random.default_rng(0)
    mask = np.zeros(10, dtype=np.int8)
    mask[[2, 5, 7]] = 1
    picks = [RandomPolicy().act(np.zeros(3), mask, rng) for _ in range(3000)]
    counts = np.bincount(picks, minlength=10)
    assert set(np.flatnonzero(counts)) == {2, 5, 7}
    assert counts[[2, 5, 7]].min() > 900  # ~1000 each
    batch = RandomPolicy().act_batch(np.zeros((3000, 3)), np.tile(mask, (3000, 1)), rng)
    assert set(batch.tolist()) == {2, 5, 7} and np.bincount(batch)[[2, 5, 7]].min() > 900


def test_random_policy_refuses_an_empty_mask():
    with pytest.raises(ValueError, match="no legal action"):
        RandomPolicy().act(np.zeros(3), np.zeros(4, dtype=np.int8), np.random.default_rng())
    with pytest.raises(ValueError, match="no legal action"):
        RandomPolicy().act_batch(np.zeros((2, 3)), np.zeros((2, 4), dtype=np.int8), np.random.default_rng())


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_heuristic_plays_only_legal_moves(num_players):
    env = card_envs.make("three_piles_v0", num_players=num_players)  # raises on any illegal move
    game = env.unwrapped.game
    for seed in range(10):
        rewards, scores = play_game(env, [make_policy("heuristic", game)] * num_players, seed)
        assert len(scores) == num_players


@pytest.mark.parametrize("num_players", [2, 3])
def test_three_piles_heuristic_act_batch_decides_as_act(num_players, monkeypatch):
    """The batched scripted agent (compiled with numba) against the per-observation one, decision
    by decision, in games where either it or random moves (positions the scripted agent alone
    never reaches); and without numba (`act` per row) on a slice of them."""
    assert three_piles_agent._decide_batch is not None, "numba is in the test extra"
    env = card_envs.make("three_piles_v0", num_players=num_players)
    heuristic = make_policy("heuristic", env.unwrapped.game)
    rng = np.random.default_rng(num_players)
    observations, masks = [], []
    for seed in range(60):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            observations.append(observation["observation"])
            masks.append(observation["action_mask"])
            mover = heuristic if rng.random() < 0.5 else RandomPolicy()
            env.step(mover.act(observations[-1], masks[-1], rng))
    observations, masks = np.array(observations), np.array(masks)
    expected = [heuristic.act(o, m, rng) for o, m in zip(observations, masks)]
    batch = heuristic.act_batch(observations, masks, rng)
    assert len(expected) > 2000
    assert (batch == expected).all(), np.flatnonzero(batch != expected)[:10]
    assert set(expected) & {0, 9, 322} and max(expected) > 9  # takes, draws, passes and plays all occur
    monkeypatch.setattr(three_piles_agent, "_decide_batch", None)
    fallback = heuristic.act_batch(observations[:300], masks[:300], rng)
    assert fallback.dtype == np.int64 and (fallback == batch[:300]).all()


def test_heuristic_beats_random_clearly():
    game = card_envs.make_game("three_piles_v0")
    results = seat_rotated_results("three_piles_v0", [make_policy("heuristic", game), RandomPolicy()], 100)
    assert (results[:, 0] > 0).mean() > 0.9  # a random agent in its place wins about half


def test_seat_rotation_plays_each_deal_in_both_seatings():
    """With identical policies every deal is played twice, mirrored: the results cancel out."""
    game = card_envs.make_game("three_piles_v0")
    heuristic = make_policy("heuristic", game)
    results = seat_rotated_results("three_piles_v0", [heuristic, heuristic], 20)
    np.testing.assert_array_equal(results[0::2, 0], -results[1::2, 0])


def test_unknown_policy_is_refused():
    with pytest.raises(ValueError, match="unknown policy 'smart'.*available: \\['random', 'heuristic'\\]"):
        make_policy("smart", card_envs.make_game("three_piles_v0"))


def test_demo_cli_prints_a_game_and_win_rates(capsys):
    assert play_main(["three_piles_v0", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "game over" in out and "player_0 (heuristic): score" in out
    assert play_main(["--games", "6"]) == 0
    assert "over 6 games" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        play_main(["--players", "heuristic", "genius"])
