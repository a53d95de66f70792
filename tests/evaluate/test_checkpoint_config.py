"""A checkpoint plays with the observation options it was trained on, whatever the match's game
observes (`Game.observation_options`): evaluate, card_envs.agents.play --opponent and the gym view, with the
same decisions as in a match of its own config; a network that the match's rules cannot feed is
refused in one line."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import card_envs
from card_envs.agents import make_policy
from card_envs.agents.human import HumanGame
from card_envs.agents.match import rotated_match
from card_envs.agents.neural import ActorCritic, NeuralPolicy, OwnObservationPolicy, save_checkpoint
from card_envs.gym import SingleAgentEnv

ROOT = Path(__file__).resolve().parents[2]
CHECKPOINT = str(ROOT / "agents" / "checkpoints" / "illimat_v0.pt")
TRAINED = NeuralPolicy.from_checkpoint(CHECKPOINT).checkpoint_info["game_config"]


def test_the_shipped_checkpoint_needs_observation_options_the_default_game_lacks():
    """What the rest of this file relies on: the default game observes less than the checkpoint."""
    default = card_envs.make_game("illimat_v0")
    assert any(TRAINED[k] != default.config[k] for k in default.observation_options)
    assert {k: v for k, v in TRAINED.items() if k not in default.observation_options} == \
        {k: v for k, v in default.config.items() if k not in default.observation_options}


def test_evaluate_without_config_plays_the_checkpoint(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "card_envs.evaluate", "illimat_v0", CHECKPOINT, "heuristic", "--deals", "2",
                           "--no-progress", "--out", str(tmp_path / "out")], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    own = {k: v for k, v in TRAINED.items() if k in card_envs.make_game("illimat_v0").observation_options and v}
    named = next(line for line in done.stdout.splitlines() if line.startswith("Observing with the options"))
    assert "agents/illimat_v0" in named and all(f'"{k}": true' in named for k in own)


def test_a_state_observed_through_another_config_is_that_configs_observation():
    default, own = card_envs.make_game("illimat_v0"), card_envs.make_game("illimat_v0", **TRAINED)
    state, rng = default.new_state(np.random.default_rng(3)), np.random.default_rng(4)
    for _ in range(30):
        same = own.state_from_json(state.to_json())
        for seat in range(default.num_players):
            assert np.array_equal(own.observe(state, seat), same.observation(seat))
        assert np.array_equal(default.observe(state, 0), state.observation(0))
        state.apply(int(rng.choice(state.legal_actions())))


def test_the_checkpoint_decides_as_under_its_own_config():
    """Same deals, same seeds: every action of the match under the default config equals the
    match played under the checkpoint's own config (where it reads the match's observation)."""
    runs = []
    for config in ({}, TRAINED):
        game = card_envs.make_game("illimat_v0", **config)
        policy = make_policy(CHECKPOINT, game)
        assert isinstance(policy, OwnObservationPolicy) == (config == {})
        chosen: dict[int, list[int]] = {}
        results = rotated_match(game, [policy, make_policy("heuristic", game)], 2, seed=7,
                                on_game=lambda row, actions: chosen.__setitem__(row, actions))
        runs.append((results.tolist(), chosen))
    assert runs[0] == runs[1]


def test_the_gym_view_plays_the_checkpoint_as_opponent():
    game = card_envs.make_game("illimat_v0")
    env = SingleAgentEnv("illimat_v0", opponents=make_policy(CHECKPOINT, game), learner_seat=0)
    observation, info = env.reset(seed=1)
    rng, done, steps = np.random.default_rng(2), False, 0
    while not done:
        assert observation.shape == (game.observation_size,)
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        observation, _, done, _, info = env.step(action)
        steps += 1
    assert steps > 1 and env.state.is_terminal()


def test_agents_play_takes_the_checkpoint_as_opponent(tmp_path):
    out = io.StringIO()
    session = HumanGame("illimat_v0", {}, 0, CHECKPOINT, 5, tmp_path / "s.json",
                        stdin=io.StringIO("1\n" * 5000), stdout=out)
    assert session.run() == 0
    assert "Game over." in out.getvalue() and "illimat_v0.pt): " in out.getvalue()


def test_a_checkpoint_the_match_rules_cannot_feed_is_refused_in_one_line(tmp_path):
    options = {k: TRAINED[k] for k in card_envs.make_game("illimat_v0").observation_options}
    three = card_envs.make_game("illimat_v0", num_players=3, **options)
    net = ActorCritic(three.observation_size, three.num_actions, (8,))
    path = tmp_path / "three.pt"
    save_checkpoint(path, {"env_id": "illimat_v0", "game_config": three.config, "hidden": [8], "step": 0,
                           "observation_size": three.observation_size, "num_actions": three.num_actions,
                           "model": net.state_dict(), "seed": 0})
    with pytest.raises(ValueError) as refused:
        make_policy(str(path), card_envs.make_game("illimat_v0"))
    message = str(refused.value)
    assert "\n" not in message and "'num_players': 3" in message and "'num_players': 2" in message




def test_training_refuses_the_checkpoint_as_opponent_on_other_observation_options():
    """The pool acts from the learner's observations: there the two truly conflict."""
    from card_envs.train.ppo import Args

    with pytest.raises(ValueError, match="was trained with other observation options") as refused:
        Args(env_id="illimat_v0", env_config={}, opponents=(CHECKPOINT,)).validate()
    assert "\n" not in str(refused.value)
    Args(env_id="illimat_v0", env_config=dict(TRAINED), opponents=(CHECKPOINT,)).validate()
