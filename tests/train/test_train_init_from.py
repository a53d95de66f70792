"""``--init-from``: a new run that starts from a checkpoint's weights (fine-tuning)."""

from __future__ import annotations

import pytest
import torch

from card_envs.agents.neural import load_checkpoint
from card_envs.train.ppo import Trainer, main
from card_envs.train.ship import ship
from tests.train.test_train import tiny_args


def trained_checkpoint(tmp_path, **overrides):
    """A short run's final checkpoint and the weights it holds."""
    trainer = Trainer(tiny_args(tmp_path, run_name="source", total_steps=512, **overrides))
    trainer.train()
    path = trainer.run_dir / "checkpoints" / "latest.pt"
    return path, load_checkpoint(path)["model"]


def same_weights(network, model) -> bool:
    return all(torch.equal(value, model[name]) for name, value in network.state_dict().items())


def test_a_run_starts_from_the_checkpoints_weights_with_a_fresh_optimizer(tmp_path):
    path, model = trained_checkpoint(tmp_path)
    shipped = tmp_path / "shipped.pt"
    assert "optimizer" not in ship(path, shipped)  # weights only
    for source in (path, shipped):
        trainer = Trainer(tiny_args(tmp_path, run_name=f"from_{source.stem}", init_from=str(source), seed=7))
        assert same_weights(trainer.network, model)
        assert trainer.step == 0 and not trainer.optimizer.state


def test_a_run_from_a_checkpoint_does_not_clone(tmp_path, monkeypatch):
    path, model = trained_checkpoint(tmp_path)
    trainer = Trainer(tiny_args(tmp_path, run_name="fine", init_from=str(path), teacher="heuristic",
                                pretrain_games=20, total_steps=256))
    monkeypatch.setattr(trainer, "pretrain", lambda writer=None: pytest.fail("cloned over the given weights"))
    assert same_weights(trainer.network, model)
    trainer.train()
    assert trainer.step == 256


def test_a_resumed_fine_tuning_run_keeps_its_own_weights(tmp_path):
    path, _ = trained_checkpoint(tmp_path)
    argv = ["--run-name", "fine", "--runs-dir", str(tmp_path), "--init-from", str(path), "--num-games", "16",
            "--num-steps", "16", "--hidden", "32", "--eval-every", "0", "--final-eval-deals", "2",
            "--actors", "0", "--engine", "reference", "--no-progress"]
    assert main(argv + ["--total-steps", "256"]) == 0
    tuned = load_checkpoint(tmp_path / "fine" / "checkpoints" / "latest.pt")["model"]
    trainer = Trainer(tiny_args(tmp_path, run_name="fine", init_from=str(path)), load_checkpoint(
        tmp_path / "fine" / "checkpoints" / "latest.pt"))
    assert same_weights(trainer.network, tuned)
    path.unlink()  # the file it started from is not needed to go on
    resumed = ["--run-name", "fine", "--runs-dir", str(tmp_path), "--resume", "--total-steps", "512", "--no-progress"]
    assert main(resumed) == 0
    assert load_checkpoint(tmp_path / "fine" / "checkpoints" / "latest.pt")["step"] == 512


@pytest.mark.parametrize("argv, message", [
    (["--hidden", "64"], "hidden"),
    (["--init-from", "{missing}"], "no checkpoint at"),
])
def test_a_checkpoint_that_does_not_fit_is_refused_before_training(tmp_path, capsys, argv, message):
    path, _ = trained_checkpoint(tmp_path)
    argv = [a.format(missing=tmp_path / "missing.pt") for a in argv]
    given = ["--init-from", str(path), *argv] if "--init-from" not in argv else argv
    with pytest.raises(SystemExit) as exit_info:
        main(["--runs-dir", str(tmp_path), "--run-name", "bad", "--no-progress", *given])
    error = capsys.readouterr().err
    assert exit_info.value.code == 2 and message in error
    assert not (tmp_path / "bad" / "checkpoints").exists()


def test_another_games_checkpoint_is_refused(tmp_path, capsys):
    path, _ = trained_checkpoint(tmp_path)
    with pytest.raises(SystemExit) as exit_info:
        main(["piles_v0", "--runs-dir", str(tmp_path), "--run-name", "bad", "--init-from", str(path), "--no-progress"])
    assert exit_info.value.code == 2 and "not 'piles_v0'" in capsys.readouterr().err
