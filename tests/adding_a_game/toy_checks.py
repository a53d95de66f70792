"""The toy sixth game through every program, run by `tests.adding_a_game.test_guide` in a child
process that registered it first (`register`): pytest collects this file there only, by name.

Everything goes through public entry points: card_envs.make and gymnasium.make, snapshots,
``python -m card_envs.evaluate``'s and ``python -m card_envs.train``'s ``main``, and
`card_envs.batch.check.differential`.
"""

from __future__ import annotations

import json
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import card_envs
from card_envs.agents import make_policy
from card_envs.batch.check import differential
from tests.adding_a_game.toy_batch import HighCardBatch

ENV_ID, GYM_ID = "high_card_v0", "card_envs/HighCard-v0"

if ENV_ID not in card_envs.list_envs():
    pytest.skip("run by tests/adding_a_game/test_guide.py, in a process that registered the toy game",
                allow_module_level=True)


def test_registered_everywhere():
    assert ENV_ID in card_envs.list_envs() and GYM_ID in gymnasium.registry
    game = card_envs.make_game(ENV_ID)
    assert type(make_policy("heuristic", game)).__name__ == "HighCardHeuristic"


def test_pettingzoo_api_and_seed():
    api_test(card_envs.make(ENV_ID), num_cycles=200)
    seed_test(lambda: card_envs.make(ENV_ID), num_cycles=200)


def test_gymnasium_checker():
    with warnings.catch_warnings():  # every warning fails the test, but the illegal random actions' penalty
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message="learner: action .* is illegal")
        check_env(gymnasium.make(GYM_ID).unwrapped, skip_render_check=True)
        check_env(gymnasium.make(GYM_ID, mask_in_observation=True).unwrapped, skip_render_check=True)
    env = gymnasium.make(GYM_ID, opponents=make_policy("heuristic", card_envs.make_game(ENV_ID)))
    observation, info = env.reset(seed=0)
    assert env.observation_space.contains(observation) and info["action_mask"].any()


def test_snapshot_round_trip_and_refusal():
    env = card_envs.make(ENV_ID)
    env.reset(seed=3)
    env.step(int(np.flatnonzero(env.observe("player_0")["action_mask"])[0]))  # player_0 leads a card
    snapshot = json.loads(json.dumps(env.unwrapped.snapshot()))  # plain JSON both ways
    again = card_envs.make(ENV_ID)
    again.reset(options={"state": snapshot})
    assert again.unwrapped.snapshot() == snapshot

    unreachable = json.loads(json.dumps(snapshot))
    unreachable["state"]["undealt"].append(unreachable["state"]["hands"][1].pop())  # player_1 holds 2
    with pytest.raises(ValueError, match=r"^hands\[1\]: 2 cards, but seat 1 holds 3 here"):
        again.reset(options={"state": unreachable})


def test_the_evaluation_program(tmp_path):
    from card_envs.evaluate.__main__ import main

    out = tmp_path / "evaluate"
    assert main([ENV_ID, "heuristic", "random", "--deals", "50", "--out", str(out), "--no-plots",
                 "--no-progress"]) == 0
    pairing = json.loads((out / "results.json").read_text())["pairings"][0]
    assert (pairing["a"], pairing["b"], pairing["games"]) == ("heuristic", "random", 100)
    assert pairing["wins"] > pairing["losses"]  # the scripted agent beats random (61% in 2,000 games)


def test_the_training_program(tmp_path):
    from card_envs.agents.neural import load_checkpoint
    from card_envs.train.ppo import main

    assert main([ENV_ID, "--run-name", "toy", "--runs-dir", str(tmp_path), "--no-progress"]) == 0
    checkpoint = load_checkpoint(tmp_path / "toy" / "checkpoints" / "latest.pt", ENV_ID)
    assert checkpoint["args"]["total_steps"] == 512  # the recipe, DEFAULTS["high_card_v0"]


@pytest.mark.parametrize("config, auto_forced", [({}, False), ({"reward": "score"}, True)])
def test_the_batched_engine_plays_as_the_rules_engine(config, auto_forced):
    counts = differential(ENV_ID, config, games=300, batch=64, auto_forced=auto_forced, engine=HighCardBatch)
    assert counts["games"] >= 300
