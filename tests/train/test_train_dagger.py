"""DAgger after cloning (``--dagger-rounds``, train/pretrain.py): the clone plays, the teacher labels
each of the clone's decisions, and the network is refitted to every part so far."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import card_envs
from card_envs.agents import make_policy
from card_envs.agents.neural import ActorCritic, NeuralPolicy
from card_envs.train.ppo import Trainer, main
import card_envs.train.pretrain
from card_envs.train.demonstrations import Rows, SparseRows
from card_envs.train.pretrain import (TEACHER_CHUNK, Demonstrations, _split, clone, play_student, play_teacher,
                                      student_games)
from tests.train.test_train import tiny_args


@pytest.fixture(scope="module")
def three_piles():
    game = card_envs.make_game("three_piles_v0")
    torch.manual_seed(0)
    network = ActorCritic(game.observation_size, game.num_actions, (16,))
    return game, network, make_policy("heuristic", game)


class Asked:
    """A policy that keeps every observation it was asked about."""

    def __init__(self, policy):
        self.policy, self.seen = policy, []

    def act_batch(self, observations, masks, rng):
        self.seen.extend(row.astype(np.float16).tobytes() for row in observations)
        return self.policy.act_batch(observations, masks, rng)


def test_the_students_decisions_are_kept_with_the_teachers_labels(three_piles):
    game, network, teacher = three_piles
    student = Asked(NeuralPolicy(network))
    demos, record = play_student(game, student, teacher, make_policy("random", game), games=10, seed=3)
    assert len(record.results) == 10 and record.decisions == len(demos) > 10 * 5
    # Only the student's decisions are kept (the opponent's are not), each with a real choice.
    assert {row.tobytes() for row in demos.observations.toarray()} <= set(student.seen)
    assert (demos.masks.sum(1) > 1).all() and demos.masks[np.arange(len(demos)), demos.actions].all()
    # The label is the teacher's choice (deterministic on 3 Piles); the agreement is the student's with it.
    views, masks, rng = demos.observations.astype(np.float32), demos.masks.astype(np.int8), np.random.default_rng(0)
    assert (teacher.act_batch(views, masks, rng) == demos.actions).all()
    chosen = NeuralPolicy(network).act_batch(views, masks, rng)
    assert record.agreed == int((chosen == demos.actions).sum()) and 0 < record.agreement < 1
    assert set(np.unique(demos.returns)) <= {-1.0, 0.0, 1.0}


def test_the_students_results_are_those_of_its_own_seat_whichever_it_takes(three_piles):
    game, _, teacher = three_piles
    random = make_policy("random", game)
    _, strong = play_student(game, teacher, teacher, random, games=40, seed=1)
    _, weak = play_student(game, random, teacher, teacher, games=40, seed=1)
    assert strong.win_rate > 0.7 and weak.win_rate < 0.3, (strong.win_rate, weak.win_rate)
    assert strong.agreement == 1.0  # the teacher labelling itself


def test_the_students_games_are_the_same_whatever_the_number_of_processes(three_piles):
    game, network, _ = three_piles
    spec = {"env_id": "three_piles_v0", "game_config": game.config, "observation_size": game.observation_size,
            "num_actions": game.num_actions, "hidden": [16], "critic_size": None, "entity_heads": False,
            "model": network.state_dict()}
    games, opponents = TEACHER_CHUNK + 6, ("heuristic", "random")
    one, record_one = student_games("three_piles_v0", {}, "heuristic", spec, opponents, games, seed=5)
    two, record_two = student_games("three_piles_v0", {}, "heuristic", spec, opponents, games, seed=5, workers=2)
    for a, b in zip(one._arrays(), two._arrays()):  # the sparse arrays made dense (np.asarray)
        assert (a is None and b is None) or np.array_equal(a, b)
    assert record_one == record_two and len(record_one.results) == games
    # Task k plays against opponents[k % 2]: the second (short) task against random.
    seed = int(np.random.SeedSequence([5, 1]).generate_state(1)[0])
    last, last_record = play_student(game, NeuralPolicy(network), make_policy("heuristic", game),
                                     make_policy("random", game), 6, seed)
    assert np.array_equal(one.observations.toarray()[-len(last):], last.observations.toarray())
    assert record_one.results[-6:] == last_record.results


def test_parts_are_read_as_one_array_without_joining_them():
    rng = np.random.default_rng(0)
    parts = [(rng.random((n, 3)) * (rng.random((n, 3)) < 0.5)).astype(np.float16) for n in (5, 1, 7)]
    index = torch.from_numpy(rng.permutation(13)[:9])
    for kept in (parts, [SparseRows.from_dense(part) for part in parts]):  # dense arrays or sparse
        assert np.array_equal(Rows(kept)[index].numpy(), np.concatenate(parts)[index.numpy()])
        assert np.array_equal(Rows(kept[:1])[torch.tensor([4, 0])].numpy(), parts[0][[4, 0]])
        assert Rows(kept)[index].dtype == torch.float16
    assert Rows([None, None])[index] is None


def test_each_part_keeps_its_held_out_decisions_when_parts_are_added():
    parts = [_demos(400), _demos(100)]
    held_one, fit_one = _split(parts[:1], torch.Generator().manual_seed(7))
    held_two, fit_two = _split(parts, torch.Generator().manual_seed(7))
    assert torch.equal(held_two[:len(held_one)], held_one) and len(held_two) == 20 + 5
    assert (held_two[len(held_one):] >= 400).all()  # the new part's own, from its rows
    assert sorted(torch.cat([held_two, fit_two]).tolist()) == list(range(500))
    assert sorted(torch.cat([held_one, fit_one]).tolist()) == list(range(400))


def _demos(rows: int) -> Demonstrations:
    return Demonstrations(np.zeros((rows, 2), np.float16), np.ones((rows, 3), bool), np.zeros(rows, np.int64),
                          np.zeros(rows, np.float32))


def test_fitting_parts_makes_the_network_choose_as_the_teacher_on_each(three_piles):
    game, _, teacher = three_piles
    torch.manual_seed(1)
    network = ActorCritic(game.observation_size, game.num_actions, (64,))
    first = play_teacher(game, teacher, games=150, seed=1)
    second, _ = play_student(game, NeuralPolicy(network), teacher, make_policy("random", game), games=150, seed=2)
    history = clone(network, [first, second], epochs=5, seed=0)
    assert history[-1]["held_out_agreement"] > 0.45 and history[-1]["imitation"] < history[0]["imitation"]
    views = second.observations.toarray().astype(np.float32)
    chosen = NeuralPolicy(network).act_batch(views, second.masks, np.random.default_rng(0))
    assert (chosen == second.actions).mean() > 0.45  # the labels of the student's own positions are learned


def test_the_trainer_refits_after_each_round_on_all_parts_so_far(tmp_path, monkeypatch, capsys):
    args = tiny_args(tmp_path, teacher="heuristic", teacher_coef=0.0, pretrain_games=20, pretrain_epochs=1,
                     dagger_rounds=2, dagger_games=8, dagger_epochs=1)
    trainer = Trainer(args)
    fitted = []

    def recording_clone(network, parts, *rest):
        fitted.append([len(part) for part in parts])
        return card_envs.train.pretrain.clone(network, parts, *rest)

    monkeypatch.setattr("card_envs.train.ppo.clone", recording_clone)
    trainer.pretrain(None)
    assert [len(sizes) for sizes in fitted] == [1, 2, 3]
    assert fitted[1][0] == fitted[2][0] and fitted[1][1] == fitted[2][1]  # the parts are kept, not redrawn
    out = capsys.readouterr().out
    assert "DAgger round 1: the clone won" in out and "DAgger round 2" in out and "against heuristic" in out
    assert trainer.trained_seconds > 0


def test_dagger_without_cloning_first_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--dagger-rounds", "2", "--teacher", "heuristic", "--runs-dir", str(tmp_path), "--no-progress"])
    assert exit_info.value.code == 2 and "--dagger-rounds corrects a clone: it needs --pretrain-games" in \
        capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main(["--dagger-games", "0", "--runs-dir", str(tmp_path), "--no-progress"])
    assert "--dagger-games must be at least 1, got 0" in capsys.readouterr().err
