"""``--max-minutes`` bounds the whole run: cloning stops at its share of the limit with the games
played so far fitted, a stop signal during cloning leaves a checkpoint that says it is unfitted
(and --resume clones), and the final evaluation stops between chunks. The clocks here are faked
or already past: nothing is timed."""

from __future__ import annotations

import math
import signal
import types

import numpy as np
import pytest

import card_envs
from card_envs.agents import make_policy
from card_envs.agents.neural import ActorCritic, NeuralPolicy, load_checkpoint
from card_envs.evaluate.players import Player
from card_envs.evaluate.runner import play_pairings
from tests.train.test_train import tiny_args
from card_envs.train import pretrain
from card_envs.train.evaluating import FINAL_CHUNK, evaluate_checkpoint, games_per_deal
from card_envs.train.ppo import CLONING_SHARE, FINAL_EVAL_SHARE, TEACHER_GAMES_SHARE, Args, TimePlan, Trainer, main, start
from card_envs.train.pretrain import TEACHER_CHUNK, _Games, clone, play_teacher


@pytest.fixture
def one_process(monkeypatch):
    """The teacher's games played here, where a patched clock reaches them."""
    monkeypatch.setattr("card_envs.train.ppo.workers_for", lambda games: 1)


def finishing(monkeypatch, after_task) -> list:
    """Calls ``after_task(finished)`` as each teacher task ends; the list of finished tasks."""
    finished, play = [], _Games.play

    def play_and_count(self, task, stop=pretrain.never):
        part = play(self, task, stop)
        finished.append(task)
        after_task(finished)
        return part

    monkeypatch.setattr(_Games, "play", play_and_count)
    return finished


def agreement(network: ActorCritic, game, demos) -> float:
    chosen = NeuralPolicy(network, greedy=True).act_batch(demos.observations.toarray().astype(np.float32), demos.masks,
                                                           np.random.default_rng(0))
    return float(np.mean(chosen == demos.actions))


def test_the_time_plan_shares_the_limit_and_goes_on_with_a_resumed_runs_clock():
    plan = TimePlan.of(10, 0.0, now=100.0)
    training = 600 * (1 - FINAL_EVAL_SHARE)
    assert plan.training == 100 + training and plan.final_eval_seconds == 600 * FINAL_EVAL_SHARE
    assert plan.cloning == 100 + CLONING_SHARE * training
    assert plan.teacher_games == pytest.approx(100 + TEACHER_GAMES_SHARE * CLONING_SHARE * training)
    assert TimePlan.of(10, 60.0, now=100.0).training == 100 + training - 60
    assert set(vars(TimePlan.of(0, 0.0, now=100.0)).values()) == {math.inf}


def test_cloning_stops_at_its_deadline_with_the_games_played_fitted(tmp_path, monkeypatch, one_process, capsys):
    """The clock passes the teacher games' deadline once the first task of games has ended: the
    run fits those games, trains, and leaves a checkpoint that chooses as the teacher."""
    args = tiny_args(tmp_path, teacher="heuristic", teacher_coef=0.0, pretrain_games=10 * TEACHER_CHUNK,
                     pretrain_epochs=4, max_minutes=60.0, total_steps=2 * 256)
    clock = types.SimpleNamespace(time=__import__("time").time)
    monkeypatch.setattr(pretrain, "time", clock)  # the clock the teacher's games read
    hour_later = clock.time
    finished = finishing(monkeypatch, lambda done: setattr(clock, "time", lambda: hour_later() + 3600))
    trainer = Trainer(args)
    untrained = {k: v.clone() for k, v in trainer.network.state_dict().items()}
    trainer.train()
    assert len(finished) == 1  # no task began after the deadline
    out = capsys.readouterr().out
    assert f"{TEACHER_CHUNK} of the {10 * TEACHER_CHUNK:,} asked" in out and "held-out agreement" in out
    saved = load_checkpoint(tmp_path / "t" / "checkpoints" / "latest.pt")
    assert saved["cloned"] and saved["step"] == 2 * 256
    game = card_envs.make_game("three_piles_v0")
    fresh = play_teacher(game, make_policy("heuristic", game), 8, seed=99)  # decisions it never saw
    blank = ActorCritic(game.observation_size, game.num_actions, (32,))
    blank.load_state_dict(untrained)
    loaded = NeuralPolicy.from_checkpoint(tmp_path / "t" / "checkpoints" / "latest.pt", "three_piles_v0").network
    assert agreement(loaded, game, fresh) > agreement(blank, game, fresh) + 0.2


def test_a_stop_during_cloning_saves_unfitted_weights_so_marked_and_resume_clones(tmp_path, monkeypatch,
                                                                                  one_process):
    args = tiny_args(tmp_path, teacher="heuristic", teacher_coef=0.0, pretrain_games=3 * TEACHER_CHUNK,
                     pretrain_epochs=2, total_steps=256)
    trainer = Trainer(args)
    finished = finishing(monkeypatch, lambda done: setattr(trainer, "stop_requested", "SIGINT"))
    untrained = {k: v.clone() for k, v in trainer.network.state_dict().items()}
    assert trainer.train() == {} and len(finished) == 1
    saved = load_checkpoint(tmp_path / "t" / "checkpoints" / "latest.pt")
    assert not saved["cloned"] and saved["step"] == 0 and saved["trained_seconds"] == 0.0
    assert all((saved["model"][k] == v).all() for k, v in untrained.items())  # unfitted, as it says
    resumed = start(Args(run_name="t", runs_dir=str(tmp_path), resume=True), {"run_name", "resume"})
    assert not resumed.cloned
    resumed.stop_requested = None
    resumed.train()
    assert len(finished) == 1 + 3  # cloned again, every task
    final = load_checkpoint(tmp_path / "t" / "checkpoints" / "latest.pt")
    assert final["cloned"] and final["step"] == 256


def test_the_command_says_that_a_stop_during_cloning_left_unfitted_weights(tmp_path, monkeypatch, one_process, capsys):
    finishing(monkeypatch, lambda done: signal.raise_signal(signal.SIGINT))  # Ctrl-C after the first task
    code = main(["three_piles_v0", "--run-name", "c", "--runs-dir", str(tmp_path), "--teacher", "heuristic",
                 "--pretrain-games", str(3 * TEACHER_CHUNK), "--hidden", "16", "--num-games", "16", "--num-steps", "16",
                 "--actors", "0", "--engine", "reference", "--no-compile", "--eval-every", "0", "--no-progress"])
    assert code == 128 + signal.SIGINT
    assert ("SIGINT: stopped at step 0 during cloning (the checkpoint's weights are unfitted; the resumed run "
            "clones)") in capsys.readouterr().out
    assert not load_checkpoint(tmp_path / "c" / "checkpoints" / "latest.pt")["cloned"]


def test_a_run_cloned_but_stopped_before_its_first_update_does_not_clone_again(tmp_path, monkeypatch, one_process):
    args = tiny_args(tmp_path, teacher="heuristic", teacher_coef=0.0, pretrain_games=TEACHER_CHUNK,
                     pretrain_epochs=1, total_steps=256)
    trainer = Trainer(args)
    real_pretrain = trainer.pretrain

    def pretrain_then_stop(writer=None):
        real_pretrain(writer)
        trainer.stop_requested = "SIGTERM"  # after cloning, before the first update

    monkeypatch.setattr(trainer, "pretrain", pretrain_then_stop)
    trainer.train()
    saved = load_checkpoint(tmp_path / "t" / "checkpoints" / "latest.pt")
    assert saved["cloned"] and saved["update"] == 0
    resumed = start(Args(run_name="t", runs_dir=str(tmp_path), resume=True), {"run_name", "resume"})
    monkeypatch.setattr(resumed, "pretrain", lambda writer=None: pytest.fail("cloned again"))
    resumed.train()


def test_the_fit_stops_at_a_minibatch_and_reports_the_ones_fitted():
    game = card_envs.make_game("three_piles_v0")
    demos = play_teacher(game, make_policy("heuristic", game), 20, seed=0)
    assert len(demos) > 3 * pretrain.MINIBATCH and demos.games == 20
    asked = []
    history = clone(ActorCritic(game.observation_size, game.num_actions, (16,)), demos, epochs=5, seed=0,
                    stop=lambda: asked.append(1) or len(asked) > 2)
    # asked at the epoch's start, after its first and second minibatches (stop), and at the next epoch's start
    assert len(history) == 1 and len(asked) == 4
    assert np.isfinite(history[0]["imitation"]) and 0 <= history[0]["held_out_agreement"] <= 1


def test_the_final_evaluation_past_its_time_keeps_the_first_chunk_of_every_pairing(tmp_path):
    trainer = Trainer(tiny_args(tmp_path))
    path = str(trainer.save())
    config = trainer.game.config
    cut, _ = evaluate_checkpoint("three_piles_v0", config, path, 3 * FINAL_CHUNK, None, workers=1, until=0.0)
    first, _ = evaluate_checkpoint("three_piles_v0", config, path, FINAL_CHUNK, None, workers=1)
    assert cut == first and cut["games_vs_random"] == FINAL_CHUNK * games_per_deal(trainer.game)
    pairs = [(Player("random", "random"), Player("heuristic", "heuristic"))] * 3
    pooled = play_pairings("three_piles_v0", config, pairs, 4 * FINAL_CHUNK, seed=1, workers=2,
                           chunk_deals=FINAL_CHUNK, progress=False, until=0.0)
    deals = {len(result.reward_a) // len(result.rotations) for result in pooled}
    # Every pairing keeps the same whole chunks, the first at least. How many more depends on the
    # workers' timing: queued chunks that finish before every pairing's first one are kept (a worker
    # slow to start its first task let all four finish in CI). The cut itself is checked above.
    assert len(deals) == 1 and deals.pop() in (FINAL_CHUNK, 2 * FINAL_CHUNK, 3 * FINAL_CHUNK, 4 * FINAL_CHUNK)


def test_a_cut_final_evaluation_is_said_and_counts_its_games(tmp_path, monkeypatch, capsys):
    args = tiny_args(tmp_path, final_eval_deals=3 * FINAL_CHUNK, max_minutes=60.0, total_steps=256)
    trainer = Trainer(args)
    monkeypatch.setattr(TimePlan, "of", classmethod(lambda cls, *a, **k: cls(math.inf, math.inf, math.inf, 0.0)))
    # One worker, in this process (`Evaluations._final_eval` looks the cores up): exactly the first chunk.
    monkeypatch.setattr("card_envs.train.evaluating.available_cores", lambda: 1)
    result = trainer.train()
    assert trainer.final_deals == FINAL_CHUNK
    assert result["games_vs_heuristic"] == FINAL_CHUNK * games_per_deal(trainer.game)
    assert f"{FINAL_CHUNK:,} of the {3 * FINAL_CHUNK:,} deals asked" in capsys.readouterr().out
