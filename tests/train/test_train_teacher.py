"""Kickstarting (``--teacher``): the scripted agent labels the learner's decisions, the learner
imitates them with a weight that decays to 0 at ``--teacher-until``, and then labelling stops."""

from __future__ import annotations

import numpy as np
import pytest

import card_envs
from card_envs.agents import make_policy
from card_envs.train.acting import Collector, Rollout
from card_envs.train.ppo import Trainer, main, start
from tests.train.test_train import tiny_args


def collect(tmp_path, teaching: bool, **overrides) -> tuple[Rollout, Collector]:
    args = tiny_args(tmp_path, teacher="heuristic", opponents=("random",), **overrides)
    game = card_envs.make_game(args.env_id)
    collector = Collector(game, args, seed=5, pool_states=[])
    collector.load_weights(collector.network.state_dict(), 1, teaching=teaching)
    rollout = Rollout.empty(args.num_steps, args.num_games, game)
    collector.collect(rollout)
    return rollout, collector


def test_the_teacher_labels_exactly_the_learners_decisions_with_its_own_choices(tmp_path):
    rollout, collector = collect(tmp_path, teaching=True, opponent_share=0.5)
    labelled = rollout.teacher_actions >= 0
    assert (labelled == rollout.learner).all() and (~rollout.learner).any()
    teacher = make_policy("heuristic", collector.game)
    expected = teacher.act_batch(rollout.observations[labelled], rollout.masks[labelled].astype(np.int8),
                                 np.random.default_rng(0))
    assert (rollout.teacher_actions[labelled] == expected).all()  # the 3 Piles agent is deterministic
    assert rollout.masks[labelled, rollout.teacher_actions[labelled]].all()


def test_no_labels_once_teaching_has_stopped(tmp_path):
    rollout, _ = collect(tmp_path, teaching=False)
    assert (rollout.teacher_actions == -1).all()


def test_imitation_raises_agreement_with_the_teacher(tmp_path):
    """Without the imitation term the acting policy agrees with the teacher about as often as a
    random legal choice does (~0.2 on 3 Piles); with it, it must climb well above that."""
    args = tiny_args(tmp_path, teacher="heuristic", teacher_coef=3.0, teacher_until=1.0, total_steps=40_960,
                     num_games=64, num_steps=32, hidden=(64,), learning_rate=3e-3, opponent_share=0.0)
    trainer = start(args, set())
    trainer.start_actor()
    agreement = []
    try:
        for _ in range(20):
            rollout, _ = trainer.actor.next_rollout()
            agreement.append(trainer.learn(rollout)["teacher_agreement"])
            trainer.update += 1
            trainer.actor.publish(trainer.network.state_dict(), trainer.update, teaching=True)
    finally:
        trainer.stop_actor()
    assert np.mean(agreement[:2]) < 0.3 and np.mean(agreement[-3:]) > np.mean(agreement[:2]) + 0.15, agreement


@pytest.mark.parametrize("actors", [0, 1])
def test_the_weight_decays_to_zero_and_labelling_stops(tmp_path, actors):
    args = tiny_args(tmp_path, teacher="heuristic", teacher_coef=2.0, teacher_until=0.5, total_steps=16 * 256,
                     actors=actors)
    trainer = Trainer(args)
    seen: list[tuple[float, bool]] = []
    learn = trainer.learn

    def spy(rollout):
        seen.append((trainer.teacher_coef, bool((rollout.teacher_actions >= 0).any())))
        return learn(rollout)

    trainer.learn = spy
    trainer.train()
    coefs = [c for c, _ in seen]
    assert coefs[0] == 2.0 and coefs == sorted(coefs, reverse=True) and coefs[-1] == 0.0
    assert len(seen) == 16 and coefs[4] == pytest.approx(2.0 * (1 - 4 / 16 / 0.5))
    # Labels stop with the weight: the actor plays at most one rollout ahead of the weights.
    first_zero = coefs.index(0.0)
    assert all(labelled for _, labelled in seen[:first_zero])
    assert not any(labelled for _, labelled in seen[first_zero + 2:])


def test_an_unknown_teacher_is_refused_with_the_accepted_names(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--teacher", "ismcts", "--runs-dir", str(tmp_path), "--no-progress"])
    error = capsys.readouterr().err
    assert exit_info.value.code == 2 and "unknown teacher 'ismcts'; --teacher takes" in error and "heuristic" in error


@pytest.mark.parametrize("actors", [0, 1])
def test_a_run_resumed_after_its_teaching_ended_labels_nothing(tmp_path, actors):
    """The actor starts with the teacher's state at the run's progress: a run resumed past
    ``--teacher-until`` must not have its first rollouts labelled (the scripted agent's labels
    cost its search, and nothing would learn from them)."""
    args = tiny_args(tmp_path, teacher="heuristic", teacher_coef=2.0, teacher_until=0.5, total_steps=16 * 256,
                     actors=actors)
    trainer = Trainer(args)
    trainer.update, trainer.step = 10, 10 * 256  # as restored from a checkpoint saved at update 10 of 16
    labelled: list[bool] = []
    learn = trainer.learn

    def spy(rollout):
        labelled.append(bool((rollout.teacher_actions >= 0).any()))
        return learn(rollout)

    trainer.learn = spy
    trainer.train()
    assert trainer.teacher_coef == 0.0 and labelled == [False] * 6
