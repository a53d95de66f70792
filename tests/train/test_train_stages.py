"""Recipes of stages (`card_envs.train.stages`): stage 2 starts from stage 1's final weights, the
options given reach every stage, and ``--resume`` goes on with the first unfinished stage."""

from __future__ import annotations

import json

import pytest
import torch

from card_envs.agents.neural import load_checkpoint
from card_envs.train import configs
from card_envs.train.ppo import Trainer, main

TINY = dict(total_steps=512, num_games=16, num_steps=16, hidden=(32,), eval_every=0, eval_deals=2,
            final_eval_deals=2, checkpoint_every=10**9, actors=0, engine="reference", opponent_share=0.5,
            snapshot_every=1)


@pytest.fixture
def two_stages(monkeypatch):
    """A test recipe of two stages on 3 Piles, the second against random alone; and the weights each
    stage's trainer started training with, by its run folder."""
    monkeypatch.setitem(configs.RECIPES, "three_piles_v0", {"two": (
        ("first", TINY), ("second", {**TINY, "opponents": ("random",), "opponent_share": 1.0}))})
    started = {}
    train = Trainer.train

    def spy(self, writer=None):
        started[self.args.run_name] = {k: v.clone() for k, v in self.network.state_dict().items()}
        return train(self, writer)

    monkeypatch.setattr(Trainer, "train", spy)
    return started


def command(tmp_path, *more: str) -> list[str]:
    return ["three_piles_v0", "--recipe", "two", "--runs-dir", str(tmp_path), "--run-name", "chain",
            "--no-progress", *more]


def test_stage_two_starts_from_stage_ones_final_weights_with_the_options_given(tmp_path, two_stages, capsys):
    assert main(command(tmp_path, "--seed", "5")) == 0
    out = capsys.readouterr().out
    assert "stage 1 of 2 (first)" in out and "stage 2 of 2 (second) of --recipe two: from stage 1's final" in out
    first, second = (tmp_path / "chain" / f"stage{k}" / "checkpoints" / "latest.pt" for k in ("1_first", "2_second"))
    stage_one = load_checkpoint(first)
    assert all(torch.equal(two_stages["stage2_second"][k], v) for k, v in stage_one["model"].items())
    assert not all(torch.equal(two_stages["stage1_first"][k], v) for k, v in stage_one["model"].items())
    stage_two = load_checkpoint(second)
    assert stage_two["args"]["init_from"] == str(first) and stage_two["args"]["opponents"] == ["random"]
    assert stage_one["args"]["seed"] == stage_two["args"]["seed"] == 5  # the options given reach every stage
    assert stage_one["step"] == stage_two["step"] == 512  # each its own budget
    manifest = json.loads((tmp_path / "chain" / "stages.json").read_text())
    assert manifest["finished"] == ["stage1_first", "stage2_second"] and manifest["options"]["seed"] == 5


def test_resume_after_stage_one_goes_on_with_stage_two(tmp_path, two_stages, monkeypatch, capsys):
    """Stage 2 stopped (as by Ctrl-C) before its first update: the command says how the chain goes
    on; the resume does not train stage 1 again and finishes stage 2 from its checkpoint."""
    train = Trainer.train

    def stopped_in_stage_two(self, writer=None):
        if self.args.run_name == "stage2_second":
            self.stop_requested = "SIGINT"
        return train(self, writer)

    monkeypatch.setattr(Trainer, "train", stopped_in_stage_two)
    assert main(command(tmp_path)) == 130
    assert f"resume with: python3 -m card_envs.train --resume --run-name chain --runs-dir {tmp_path}" in \
        capsys.readouterr().out
    second = tmp_path / "chain" / "stage2_second" / "checkpoints" / "latest.pt"
    assert load_checkpoint(second)["step"] == 0
    monkeypatch.setattr(Trainer, "train", train)
    two_stages.clear()
    train_spy = Trainer.train

    def not_stage_one(self, writer=None):
        assert self.args.run_name != "stage1_first", "stage 1 trained again"
        return train_spy(self, writer)

    monkeypatch.setattr(Trainer, "train", not_stage_one)
    assert main(["--resume", "--run-name", "chain", "--runs-dir", str(tmp_path), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "finished: " in out and "resuming from step 0" in out
    assert load_checkpoint(second)["step"] == 512


@pytest.mark.parametrize("more, message", [
    (["--opponents", "nope"], "unknown opponent 'nope'"),
    (["--max-minutes", "-1"], "--max-minutes must be >= 0"),
])
def test_a_bad_option_is_refused_before_any_stage_trains(tmp_path, two_stages, capsys, more, message):
    with pytest.raises(SystemExit) as exit_info:
        main(command(tmp_path, *more))
    assert exit_info.value.code == 2 and message in capsys.readouterr().err
    assert not (tmp_path / "chain").exists() and not two_stages


def test_a_run_folder_that_is_taken_is_refused(tmp_path, two_stages, capsys):
    (tmp_path / "chain").mkdir()
    (tmp_path / "chain" / "stages.json").write_text("{}")
    with pytest.raises(SystemExit) as exit_info:
        main(command(tmp_path))
    assert exit_info.value.code == 2 and "use --resume" in capsys.readouterr().err and not two_stages
