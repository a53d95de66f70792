"""python -m card_envs.train.ship: a run's checkpoint without its training state, as shipped checkpoints are."""

from __future__ import annotations

import pytest
import torch

from card_envs.agents.neural import NeuralPolicy, load_checkpoint
from tests.train.test_train import tiny_args
from card_envs.train import ship
from card_envs.train.ppo import Trainer


def test_ship_keeps_the_weights_and_drops_the_training_state(tmp_path, capsys):
    trainer = Trainer(tiny_args(tmp_path, total_steps=256))
    trainer.train()
    source = tmp_path / "t" / "checkpoints" / "latest.pt"
    target = tmp_path / "shipped" / "three_piles_v0.pt"
    assert ship.main([str(source), str(target)]) == 0
    assert "three_piles_v0 step 256" in capsys.readouterr().out
    trained, shipped = load_checkpoint(source), load_checkpoint(target)
    assert not set(ship.TRAINING_STATE) & set(shipped)
    assert set(trained) - set(shipped) == set(ship.TRAINING_STATE)
    assert shipped["model_sha256"] == trained["model_sha256"]
    assert all(torch.equal(shipped["model"][k], v) for k, v in trained["model"].items())
    NeuralPolicy.from_checkpoint(target, "three_piles_v0")  # a player, as the shipped ones


def test_ship_refuses_what_is_not_a_checkpoint(tmp_path, capsys):
    (tmp_path / "junk.pt").write_bytes(b"not a checkpoint")
    for source in ("nowhere.pt", str(tmp_path / "junk.pt")):
        with pytest.raises(SystemExit) as exit_info:
            ship.main([source, str(tmp_path / "out.pt")])
        assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "no checkpoint at nowhere.pt" in err and "not a readable card_envs checkpoint" in err
    assert not (tmp_path / "out.pt").exists()
