"""The trainer's evaluations deal what training held out (`card_envs.train.configs.evaluation_config`):
a Dominion run on "random_train" kingdoms is evaluated, periodically and at the end, on the
held-out "random_test" ones, as its results page says; every other setting is evaluated as trained."""

from __future__ import annotations

import numpy as np

import card_envs
import card_envs.train.evaluating as evaluating
from card_envs.games.dominion.rules import held_out
from card_envs.train.configs import DEFAULTS, evaluation_config
from card_envs.train.ppo import Trainer
from tests.train.test_train import tiny_args


def test_the_held_in_kingdoms_are_evaluated_on_the_held_out_ones():
    config = {"num_players": 2, "kingdom": "random_train", "max_turns": 60}
    assert evaluation_config("dominion_v0", config) == {**config, "kingdom": "random_test"}
    assert config["kingdom"] == "random_train", "the training config is not changed in place"
    assert evaluation_config("dominion_v0", DEFAULTS["dominion_v0"]["env_config"]) == {"kingdom": "random_test"}
    for kingdom in ("T1-A", "random", "random_test", ["Smithy"] * 10):  # nothing held out: played as trained
        assert evaluation_config("dominion_v0", {"kingdom": kingdom}) == {"kingdom": kingdom}
    assert evaluation_config("three_piles_v0", {"kingdom": "random_train"}) == {"kingdom": "random_train"}


def test_the_evaluation_game_deals_held_out_kingdoms_only():
    game = evaluating.evaluation_game("dominion_v0", {"kingdom": "random_train"})
    trained = card_envs.make_game("dominion_v0", kingdom="random_train")
    for seed in range(20):
        assert held_out(game.new_state(np.random.default_rng(seed)).kingdom)
        assert not held_out(trained.new_state(np.random.default_rng(seed)).kingdom)


def test_a_random_train_run_evaluates_on_held_out_kingdoms(tmp_path, monkeypatch):
    periodic, final = [], []
    real_match, real_pairings = evaluating.rotated_match, evaluating.play_pairings
    monkeypatch.setattr(evaluating, "rotated_match",
                        lambda game, *a, **k: periodic.append(game.config) or real_match(game, *a, **k))
    monkeypatch.setattr(evaluating, "play_pairings",
                        lambda env_id, config, *a, **k: final.append(config) or real_pairings(env_id, config, *a, **k))
    args = tiny_args(tmp_path, env_id="dominion_v0", env_config={"kingdom": "random_train", "max_turns": 8},
                     total_steps=16 * 16 * 2, eval_every=16 * 16, eval_process=False, eval_deals=1,
                     final_eval_deals=1)
    trainer = Trainer(args)
    assert trainer.game.config["kingdom"] == "random_train"
    trainer.train(None)
    assert periodic and final, "both kinds of evaluation ran"
    assert {config["kingdom"] for config in periodic + final} == {"random_test"}
    assert all(config["max_turns"] == 8 for config in periodic + final), "the other settings as trained"
    assert "win_rate_vs_heuristic" in trainer.last_eval
