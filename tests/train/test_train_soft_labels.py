"""Soft labels for cloning (``--pretrain-temperature``, train/pretrain.py): the teacher's score of
each action is kept beside its choice, without changing the games, and a fit to softmax(score / T)
shares the target between the teacher's close calls where a fit to its choice does not."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import card_envs
from card_envs.agents import make_policy
from card_envs.agents.neural import ActorCritic
from card_envs.train.ppo import Trainer, main
from card_envs.train.pretrain import Demonstrations, clone, play_student, play_teacher, soft_targets, teacher_games
from tests.train.test_train import tiny_args

ILLIMAT_PIECES = {"harvest_features": True, "play_features": True, "threat_features": True}


@pytest.fixture(scope="module")
def illimat():
    game = card_envs.make_game("illimat_v0", **ILLIMAT_PIECES)
    return game, make_policy("lookahead", game)


def test_scored_games_are_the_same_games_with_the_teachers_scores_beside(illimat):
    game, bot = illimat
    plain = play_teacher(game, bot, games=3, seed=5)
    scored = play_teacher(game, bot, games=3, seed=5, scored=True)
    assert plain.scores is None and scored.scores.dtype == np.float16
    for a, b in zip(plain._arrays()[:4], scored._arrays()[:4]):
        assert np.array_equal(a, b)  # the same decisions, choices and results
    rows = np.arange(len(scored))
    scores = scored.scores.astype(np.float32)
    scored_actions = np.isfinite(scores)
    assert not (scored_actions & ~scored.masks).any()  # only legal actions are scored
    assert scored_actions[rows, scored.actions].all() and (scores[rows, scored.actions] == scores.max(1)).all()
    assert (scored_actions.sum(1) > 1).mean() > 0.5  # most of the bot's decisions weigh several actions


def test_a_students_decisions_carry_the_teachers_scores_too(illimat):
    game, bot = illimat
    demos, record = play_student(game, make_policy("heuristic", game), bot, make_policy("random", game),
                                 games=2, seed=1, scored=True)
    assert len(demos) == record.decisions > 0 and demos.scores.shape == demos.masks.shape
    rows = np.arange(len(demos))
    assert np.isfinite(demos.scores[rows, demos.actions].astype(np.float32)).all()


def test_scored_games_are_the_same_whatever_the_number_of_processes():
    one = teacher_games("illimat_v0", ILLIMAT_PIECES, "lookahead", 2, seed=3, scored=True)
    two = teacher_games("illimat_v0", ILLIMAT_PIECES, "lookahead", 2, seed=3, workers=2, scored=True)
    assert one.scores is not None and np.array_equal(one.scores, two.scores)
    assert np.array_equal(one.actions, two.actions)


@pytest.mark.parametrize("workers", [1, 2])
def test_scored_games_of_a_teacher_without_scores_are_refused_before_any_game(workers):
    with pytest.raises(ValueError, match="'heuristic' gives none"):
        teacher_games("three_piles_v0", {}, "heuristic", 64, seed=0, workers=workers, scored=True)


def test_soft_targets_share_close_calls_and_give_nothing_to_unscored_actions():
    scores = torch.tensor([[1.0, 1.0, -np.inf], [2.0, 0.0, -np.inf]], dtype=torch.float16)
    cold, warm = soft_targets(scores, 0.01), soft_targets(scores, 100.0)
    assert torch.allclose(cold, torch.tensor([[0.5, 0.5, 0.0], [1.0, 0.0, 0.0]]))
    assert torch.allclose(warm[1], torch.tensor([0.5, 0.5, 0.0]), atol=0.01)
    assert torch.allclose(soft_targets(scores, 1.0)[1, 0], torch.sigmoid(torch.tensor(2.0)))


def _tie(rows: int) -> Demonstrations:
    """One position over and over: actions 0 and 1 score the same, 2 is legal but unscored, 3 is
    illegal; the teacher always chose 0."""
    masks = np.tile([True, True, True, False], (rows, 1))
    scores = np.tile(np.array([0.0, 0.0, -np.inf, -np.inf], np.float16), (rows, 1))
    return Demonstrations(np.ones((rows, 2), np.float16), masks, np.zeros(rows, np.int64), np.zeros(rows, np.float32),
                          None, scores)


def _fitted_choice(temperature: float) -> torch.Tensor:
    """The probabilities of actions 0-2 after fitting `_tie` at ``temperature``."""
    torch.manual_seed(0)
    network = ActorCritic(2, 4, (8,))
    clone(network, _tie(8000), epochs=16, seed=0, temperature=temperature)
    with torch.no_grad():
        logits, _ = network(torch.ones(1, 2), torch.tensor([[True, True, True, False]]))
    return logits.softmax(1)[0, :3]


def test_a_soft_fit_shares_a_tie_where_a_hard_fit_takes_the_teachers_choice():
    hard, soft = _fitted_choice(0.0), _fitted_choice(0.5)
    assert hard[0] > 0.9, hard
    assert torch.allclose(soft, torch.tensor([0.5, 0.5, 0.0]), atol=0.05), soft


def test_a_soft_fit_needs_the_scores():
    demos = _tie(10)
    demos.scores = None
    with pytest.raises(ValueError, match="scored=True"):
        clone(ActorCritic(2, 4, (8,)), demos, epochs=1, seed=0, temperature=0.3)


def test_the_trainer_fits_the_scores_of_its_teacher_and_of_dagger_rounds(tmp_path, monkeypatch):
    fits = []
    real_clone = clone
    monkeypatch.setattr("card_envs.train.ppo.clone", lambda network, parts, *a: fits.append(
        (len(parts), all(part.scores is not None for part in parts), a[-1])) or real_clone(network, parts, *a))
    args = tiny_args(tmp_path, env_id="illimat_v0", env_config=ILLIMAT_PIECES, teacher="lookahead", teacher_coef=0.0,
                     pretrain_games=2, pretrain_epochs=1, pretrain_temperature=0.3, dagger_rounds=1,
                     dagger_games=2, dagger_epochs=1, opponents=("heuristic",))
    trainer = Trainer(args)
    before = {k: v.clone() for k, v in trainer.network.state_dict().items()}
    trainer.pretrain(None)
    assert fits == [(1, True, 0.3), (2, True, 0.3)]  # the teacher's games, then with the clone's
    assert any((before[k] != v).any() for k, v in trainer.network.state_dict().items())


@pytest.mark.parametrize("argv, message", [
    (["--pretrain-temperature", "0.3"], "--pretrain-temperature sets cloning's target: it needs --pretrain-games"),
    (["--teacher", "heuristic", "--pretrain-games", "4", "--pretrain-temperature", "0.3"],
     "'heuristic' gives none (it has no action_scores method"),
    (["--teacher", "heuristic", "--pretrain-games", "4", "--pretrain-temperature", "-1"],
     "--pretrain-temperature must be >= 0, got -1.0"),
])
def test_soft_labels_the_run_cannot_have_are_refused(tmp_path, capsys, argv, message):
    with pytest.raises(SystemExit) as exit_info:
        main(["three_piles_v0", *argv, "--runs-dir", str(tmp_path), "--no-progress"])
    assert exit_info.value.code == 2 and message in capsys.readouterr().err
