"""Behaviour cloning before PPO (``--pretrain-games``, train/pretrain.py): the teacher's games are
recorded faithfully, fitting them makes the network choose as the teacher, and the trainer does
it once, before its first update, on the run's clock."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

import card_envs
from card_envs import batch
from card_envs.agents import make_policy
from card_envs.agents.neural import ActorCritic
from card_envs.train.acting import critic_size
from card_envs.train.ppo import Trainer, main
from card_envs.train.demonstrations import Recorder, discounted_results
from card_envs.train.pretrain import TEACHER_CHUNK, Demonstrations, _Games, clone, play_teacher, teacher_games
from tests.train.test_train import tiny_args


@pytest.fixture(scope="module")
def three_piles():
    game = card_envs.make_game("three_piles_v0")
    return game, make_policy("heuristic", game)


def test_the_teachers_games_are_recorded_with_its_choices_and_results(three_piles):
    game, teacher = three_piles
    demos = play_teacher(game, teacher, games=12, seed=3)
    assert len(demos) > 12 * 10 and demos.observations.shape == (len(demos), game.observation_size)
    assert (demos.masks.sum(1) > 1).all()  # forced single-choice decisions are not kept
    assert demos.masks[np.arange(len(demos)), demos.actions].all()
    # The 3 Piles agent is deterministic: the recorded choice is what it answers to the recorded view.
    again = teacher.act_batch(demos.observations.toarray(), demos.masks.astype(np.int8), np.random.default_rng(0))
    assert (again == demos.actions).all()
    assert set(np.unique(demos.returns)) <= {-1.0, 0.0, 1.0} and (demos.returns != 0).any()


def test_the_same_seed_records_the_same_games(three_piles):
    game, teacher = three_piles
    a, b = (play_teacher(game, teacher, games=5, seed=9) for _ in range(2))
    assert len(a) == len(b) and np.array_equal(a.observations.toarray(), b.observations.toarray())
    assert (a.actions == b.actions).all()
    c = play_teacher(game, teacher, games=5, seed=10)
    assert len(c) != len(a) or not np.array_equal(c.observations.toarray(), a.observations.toarray())


def test_the_teachers_games_are_the_same_whatever_the_number_of_processes():
    games = 2 * TEACHER_CHUNK + 5  # two full tasks and a short one
    one = teacher_games("three_piles_v0", {}, "heuristic", games, seed=4, privileged=True)
    two = teacher_games("three_piles_v0", {}, "heuristic", games, seed=4, workers=2, privileged=True)
    assert len(one) > games * 10
    for a, b in zip(one._arrays(), two._arrays()):  # the sparse arrays made dense (np.asarray)
        assert (a is None and b is None) or (a.dtype == b.dtype and np.array_equal(a, b))
    assert one.critic_inputs is not None and one.scores is None  # only what was asked for is kept
    # Task by task, in order: the last task's games are play_teacher's with that task's seed.
    game = card_envs.make_game("three_piles_v0")
    last_seed = int(np.random.SeedSequence([4, 2]).generate_state(1)[0])
    last = play_teacher(game, make_policy("heuristic", game), 5, last_seed)
    assert np.array_equal(one.observations.toarray()[-len(last):], last.observations.toarray())
    assert np.array_equal(one.actions[-len(last):], last.actions)


@pytest.mark.skipif(not batch.has_numba(), reason="numba not installed")
@pytest.mark.parametrize("env_id, config", [("three_piles_v0", {}), ("illimat_v0", {"threat_features": True})])
def test_the_teachers_games_on_the_batched_engine_are_recorded_alike(env_id, config):
    """``engine="batch"`` (the trainer's with the batched engine) plays the teacher's games there:
    each recorded decision is the teacher's answer to the recorded view, with its scores where kept,
    the same whatever the number of processes."""
    games = TEACHER_CHUNK + 3
    scored = env_id == "illimat_v0"
    one = teacher_games(env_id, config, "heuristic", games, seed=4, scored=scored, engine="batch")
    two = teacher_games(env_id, config, "heuristic", games, seed=4, workers=2, scored=scored, engine="batch")
    assert one.games == games and len(one) > games * 10
    for a, b in zip(one._arrays(), two._arrays()):
        assert (a is None and b is None) or (a.dtype == b.dtype and np.array_equal(a, b))
    game = card_envs.make_game(env_id, **config)
    teacher = make_policy("heuristic", game)
    observations, masks = one.observations.toarray().astype(np.float32), one.masks.astype(np.int8)
    if scored:
        chosen, scores = teacher.action_scores_batch(observations, masks, np.random.default_rng(0))
        np.testing.assert_array_equal(one.scores, scores.astype(one.scores.dtype))
    else:
        chosen = teacher.act_batch(observations, masks, np.random.default_rng(0))
    assert (chosen == one.actions).all()


def test_the_teachers_games_stop_when_asked_keeping_the_finished_tasks(monkeypatch):
    finished, play = [], _Games.play

    def play_and_count(self, task, stop):
        part = play(self, task, stop)
        finished.append(task)
        return part

    monkeypatch.setattr(_Games, "play", play_and_count)  # asked to stop once the first task is done
    kept = teacher_games("three_piles_v0", {}, "heuristic", 3 * TEACHER_CHUNK, seed=4, stop=lambda: bool(finished))
    assert len(finished) == 1
    whole = teacher_games("three_piles_v0", {}, "heuristic", TEACHER_CHUNK, seed=4)
    assert np.array_equal(kept.actions, whole.actions) and len(kept) > 0
    two = teacher_games("three_piles_v0", {}, "heuristic", 3 * TEACHER_CHUNK, seed=4, workers=2, stop=lambda: True)
    assert len(two) == 0 and two.observations.shape[1] == whole.observations.shape[1]


def test_a_stopped_pool_of_teachers_leaves_no_process_or_lock_behind():
    # In a process of its own: the resource tracker speaks when the interpreter ends.
    script = (
        "import multiprocessing, time\n"
        "from card_envs.train.pretrain import teacher_games\n"
        "if __name__ == '__main__':\n"
        "    began = time.time()\n"
        "    demos = teacher_games('three_piles_v0', {}, 'heuristic', 5000, 1, workers=2,\n"
        "                          stop=lambda: time.time() - began > 5)\n"
        "    print(multiprocessing.active_children())\n")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                         cwd=Path(__file__).resolve().parents[2])
    assert run.returncode == 0 and run.stdout.split() == ["[]"], run
    assert "leaked" not in run.stderr, run.stderr


def test_observations_are_kept_sparse_in_half_precision_which_loses_nothing_at_their_scale():
    # Illimat with every piece: the largest observation; its entries are counts, flags and
    # fractions, which float16 keeps to within a thousandth of their size, and 3% of them are not 0.
    game = card_envs.make_game("illimat_v0", harvest_features=True, play_features=True, threat_features=True)
    demos = play_teacher(game, make_policy("heuristic", game), games=1, seed=0)
    assert demos.observations.dtype == np.float16 and demos.observations.shape == (len(demos), 5808)
    assert demos.observations.nbytes < 2 * 5808 * len(demos) / 10  # a tenth of dense float16's memory, at most
    rng, state, views = np.random.default_rng(0), game.new_state(np.random.default_rng(0)), []
    while not state.is_terminal():
        views.append(state.observation(state.current_player))
        state.apply(int(rng.choice(np.flatnonzero(state.legal_mask()))))
    views = np.array(views)
    rounded = views.astype(np.float16).astype(np.float32)
    assert (np.abs(rounded - views) <= 1e-3 * np.maximum(1.0, np.abs(views))).all()


def test_returns_are_discounted_per_later_decision_of_the_same_seat():
    # Seats decide 0, 1, 0, 0, 1; seat 0 ends with +1, seat 1 with -1.
    assert discounted_results([0, 1, 0, 0, 1], np.array([1.0, -1.0]), gamma=0.5).tolist() == [0.25, -0.5, 0.5, 1.0, -1.0]


def test_privileged_demonstrations_keep_the_full_state_and_the_deciding_seat(three_piles):
    game, teacher = three_piles
    plain = play_teacher(game, teacher, games=4, seed=2)
    full = play_teacher(game, teacher, games=4, seed=2, privileged=True)
    assert plain.critic_inputs is None and (full.actions == plain.actions).all()  # the same games
    assert full.critic_inputs.shape == (len(full), critic_size(game, "state"))
    assert full.critic_inputs.dtype == np.float32
    seat_one_hot = full.critic_inputs.toarray()[:, -game.num_players:]
    assert (seat_one_hot.sum(1) == 1).all() and len(np.unique(seat_one_hot.argmax(1))) == game.num_players
    # The state part shows both seats' hands, which no observation does.
    assert not np.array_equal(full.critic_inputs.toarray()[:, :game.observation_size], full.observations.toarray())


def test_a_separate_critic_is_fitted_to_the_results_and_needs_its_inputs(three_piles):
    game, teacher = three_piles
    demos = play_teacher(game, teacher, games=200, seed=1, privileged=True)
    torch.manual_seed(0)
    network = ActorCritic(game.observation_size, game.num_actions, (64,), critic_size(game, "state"))
    critic_before = {k: v.clone() for k, v in network.critic.state_dict().items()}
    history = clone(network, demos, epochs=4, seed=0)
    assert history[-1]["value_loss"] < history[0]["value_loss"] and history[-1]["value_loss"] < 0.4, history
    assert any((critic_before[k] != v).any() for k, v in network.critic.state_dict().items())
    assert history[-1]["held_out_agreement"] > 0.4  # the policy is fitted as without a critic
    without = Demonstrations(demos.observations, demos.masks, demos.actions, demos.returns)
    with pytest.raises(ValueError, match="separate critic"):
        clone(network, without, epochs=1, seed=0)


def test_the_recorder_keeps_finished_games_in_order_and_lets_go_of_each_step_once_copied():
    recorder = Recorder(games_per_step=2, observation_size=3, num_actions=2, critic_size=4)
    for step in range(3):  # game A (rows 0, 2, 4) in slot 0, game B (rows 1, 3, 5) in slot 1
        actions = np.array([10 * step, 10 * step + 1])
        first = recorder.add(np.repeat(actions[:, None], 3, 1).astype(np.float32), np.eye(2, dtype=bool),
                             actions, np.full((2, 4), step, np.float32))
        assert first == 2 * step
    assert len(recorder.steps) == 3
    recorder.keep([0, 2, 4], [0, 1, 0], np.array([1.0, -1.0]), gamma=0.5)  # game A ends; B is dropped
    out = recorder.demonstrations()
    assert not recorder.steps and not recorder.kept  # each step released once copied
    assert out.actions.tolist() == [0, 10, 20] and out.observations.toarray()[:, 2].tolist() == [0, 10, 20]
    assert out.masks.tolist() == [[True, False]] * 3 and out.returns.tolist() == [0.5, -1.0, 1.0]
    assert out.critic_inputs.toarray()[:, 0].tolist() == [0, 1, 2]
    empty = Recorder(2, 3, 2, None).demonstrations()
    assert len(empty) == 0 and empty.critic_inputs is None


def test_recording_holds_a_fraction_of_the_decisions_dense_size():
    # Illimat's observations are large (2,112 floats with the harvest pieces) and mostly zeros:
    # 40 games are about 35 MB of decisions kept dense in float16, 3 MB sparse.
    game = card_envs.make_game("illimat_v0", harvest_features=True)
    play_teacher(game, make_policy("heuristic", game), games=40, seed=1)  # what 40 games in play hold, then free
    before = _resident_bytes()
    demos = play_teacher(game, make_policy("heuristic", game), games=40, seed=0)
    data = demos.observations.nbytes + demos.masks.nbytes
    dense = 2 * demos.observations.shape[0] * demos.observations.shape[1] + demos.masks.nbytes
    assert data < dense / 5
    assert _resident_bytes() - before < 1.5 * data + 30e6, (before, _resident_bytes(), data, dense)


def _resident_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_cloning_makes_the_network_choose_as_the_teacher(three_piles):
    game, teacher = three_piles
    demos = play_teacher(game, teacher, games=300, seed=1)
    torch.manual_seed(0)
    network = ActorCritic(game.observation_size, game.num_actions, (64,))
    history = clone(network, demos, epochs=6, seed=0)
    assert len(history) == 6
    # A random legal choice agrees with the agent about a fifth of the time on 3 Piles.
    assert history[-1]["held_out_agreement"] > 0.45, history
    assert history[-1]["imitation"] < history[0]["imitation"] and history[-1]["value_loss"] < history[0]["value_loss"]


def test_cloning_fits_on_every_core_and_gives_the_threads_back(three_piles):
    game, teacher = three_piles
    demos = play_teacher(game, teacher, games=3, seed=0)
    network = ActorCritic(game.observation_size, game.num_actions, (16,))
    threads, heads = [], network.heads
    network.heads = lambda *inputs, **options: (threads.append(torch.get_num_threads()), heads(*inputs, **options))[1]
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        clone(network, demos, epochs=1, seed=0)
        assert torch.get_num_threads() == 1
    finally:
        torch.set_num_threads(before)
    assert threads and set(threads) == {len(os.sched_getaffinity(0))}


def test_cloning_stops_when_asked_and_on_no_data(three_piles):
    game, teacher = three_piles
    network = ActorCritic(game.observation_size, game.num_actions, (16,))
    demos = play_teacher(game, teacher, games=3, seed=0)
    assert len(clone(network, demos, epochs=5, seed=0, stop=lambda: True)) == 0
    empty = Demonstrations(np.zeros((0, game.observation_size), np.float32), np.zeros((0, game.num_actions), bool),
                           np.zeros(0, np.int64), np.zeros(0, np.float32))
    assert clone(network, empty, epochs=5, seed=0) == []


def test_the_trainer_clones_once_before_its_first_update_on_the_runs_clock(tmp_path, monkeypatch, capsys):
    args = tiny_args(tmp_path, teacher="heuristic", teacher_coef=0.0, pretrain_games=20, pretrain_epochs=2,
                     total_steps=4 * 256)
    trainer = Trainer(args)
    events: list[str] = []
    real_pretrain, real_learn = trainer.pretrain, trainer.learn
    monkeypatch.setattr(trainer, "pretrain", lambda writer=None: (events.append("pretrain"), real_pretrain(writer)))
    monkeypatch.setattr(trainer, "learn", lambda rollout: (events.append("learn"), real_learn(rollout))[1])
    before = {k: v.clone() for k, v in trainer.network.state_dict().items()}
    trainer.pretrain(None)
    assert any((before[k] != v).any() for k, v in trainer.network.state_dict().items())
    assert trainer.trained_seconds > 0
    assert not args.progress and "held-out agreement" in capsys.readouterr().out  # the summary, even without bars
    events.clear()
    trainer.update, trainer.cloned = 0, False
    trainer.train()
    assert events[0] == "pretrain" and events.count("pretrain") == 1 and events[1:] == ["learn"] * 4


def test_the_trainer_clones_a_separate_critic_too(tmp_path):
    args = tiny_args(tmp_path, teacher="heuristic", teacher_coef=0.0, pretrain_games=20, pretrain_epochs=2,
                     critic="state")
    trainer = Trainer(args)
    before = {k: v.clone() for k, v in trainer.network.critic.state_dict().items()}
    trainer.pretrain(None)
    assert any((before[k] != v).any() for k, v in trainer.network.critic.state_dict().items())


def test_a_resumed_run_does_not_clone_again(tmp_path, monkeypatch):
    args = tiny_args(tmp_path, teacher="heuristic", pretrain_games=20, total_steps=4 * 256)
    trainer = Trainer(args)
    trainer.update, trainer.step = 2, 2 * 256  # as restored from a checkpoint at update 2
    monkeypatch.setattr(trainer, "pretrain", lambda writer=None: pytest.fail("cloned again on a resume"))
    trainer.train()


def test_pretraining_without_a_teacher_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--pretrain-games", "10", "--runs-dir", str(tmp_path), "--no-progress"])
    assert exit_info.value.code == 2 and "--pretrain-games clones the teacher's games: it needs --teacher" in \
        capsys.readouterr().err
