"""Hardening of training: divergence stops the run, arguments are checked up front, checkpoints
carry a hash and are refused when altered, and a resumed run's TensorBoard log does not overlap."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
import torch

import card_envs
from card_envs.agents.neural import (ActorCritic, NeuralPolicy, load_checkpoint, save_checkpoint,
                           weights_digest)
from card_envs.train.ppo import Trainer, TrainingDiverged, main, start
from tests.train.test_train import tiny_args

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "agents" / "checkpoints" / "three_piles_v0.pt"
TINY = ["--num-games", "16", "--num-steps", "16", "--hidden", "32", "--eval-every", "0", "--eval-deals", "2",
        "--final-eval-deals", "2", "--actors", "0", "--no-progress"]


def small_checkpoint(**extra) -> dict:
    game = card_envs.make_game("three_piles_v0")
    net = ActorCritic(game.observation_size, game.num_actions, (8,))
    return {"env_id": "three_piles_v0", "game_config": game.config, "observation_size": game.observation_size,
            "num_actions": game.num_actions, "hidden": [8], "model": net.state_dict(), "step": 0, "seed": 0,
            **extra}


# ----- 1. divergence --------------------------------------------------------------------------
@pytest.mark.parametrize("poison", ["loss", "weights"])
def test_a_diverging_run_stops_naming_the_step_and_the_last_good_checkpoint(tmp_path, monkeypatch, poison):
    learn = Trainer.learn

    def poisoned(self, rollout):
        # a bias: every forward pass reads it (the first layer skips the weights of all-zero inputs)
        nan_weight = lambda: self.network.trunk[0].bias.data.__setitem__(0, float("nan"))  # noqa: E731
        if self.step == 512 and poison == "loss":  # the next forward pass gives a NaN loss
            nan_weight()
        losses = learn(self, rollout)
        if self.step == 512 and poison == "weights":  # a finite loss, but the step broke a weight
            nan_weight()
        return losses

    monkeypatch.setattr(Trainer, "learn", poisoned)
    trainer = start(tiny_args(tmp_path, total_steps=4096, checkpoint_every=512), set())
    folder = tmp_path / "t" / "checkpoints"
    with pytest.raises(TrainingDiverged, match=rf"at step 768 .*non-finite {poison}.*last good checkpoint: "
                                               rf"{folder / 'step_000000000512.pt'}"):
        trainer.train()
    assert sorted(p.name for p in folder.iterdir()) == ["latest.pt", "step_000000000512.pt"]
    latest = load_checkpoint(folder / "latest.pt")
    assert latest["step"] == 512 and all(t.isfinite().all() for t in latest["model"].values())


def test_an_absurd_learning_rate_ends_the_command_with_one_line_and_no_checkpoint(tmp_path, capsys):
    code = main(TINY + ["--runs-dir", str(tmp_path), "--run-name", "d", "--total-steps", "2048",
                        "--checkpoint-every", "256", "--learning-rate", "1e30"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1 and len(err) == 1
    assert err[0].startswith("error: training diverged at step 256 (update 1): non-finite loss")
    assert "last good checkpoint: none" in err[0]
    assert not (tmp_path / "d" / "checkpoints").exists()


def test_non_finite_tensors_are_never_saved(tmp_path):
    checkpoint = small_checkpoint()
    checkpoint["model"]["policy_head.bias"][3] = float("inf")
    with pytest.raises(ValueError, match=r"non-finite values in model\.policy_head\.bias"):
        save_checkpoint(tmp_path / "c.pt", checkpoint)
    pool = small_checkpoint(opponent_pool=[{"w": torch.tensor([0.0, float("nan")])}])
    with pytest.raises(ValueError, match=r"opponent_pool\[0\]\.w"):
        save_checkpoint(tmp_path / "c.pt", pool)
    assert list(tmp_path.iterdir()) == []


# ----- 2. arguments ---------------------------------------------------------------------------
@pytest.mark.parametrize("argv, message", [
    (["--clip-coef", "-0.2"], "--clip-coef must be > 0, got -0.2"),
    (["--learning-rate=-3e-4"], "--learning-rate must be > 0"),
    (["--learning-rate", "nan"], "--learning-rate must be a finite number, got nan"),
    (["--max-minutes", "inf"], "--max-minutes must be a finite number, got inf"),
    (["--ent-coef=-inf"], "--ent-coef must be a finite number"),
    (["--vf-coef", "-1"], "--vf-coef must be >= 0"),
    (["--max-grad-norm", "0"], "--max-grad-norm must be > 0"),
    (["--gamma", "1.5"], "--gamma must be in [0, 1], got 1.5"),
    (["--gae-lambda", "-0.1"], "--gae-lambda must be in [0, 1]"),
    (["--num-minibatches", "0"], "--num-minibatches must be at least 1"),
    (["--num-steps", "-4"], "--num-steps must be at least 1"),
    (["--seed", "-1"], "--seed must be >= 0"),
    (["--opponents", "smart"], "unknown opponent 'smart'; --opponents takes ['random', 'heuristic']"),
    (["--opponents", "heuristic", "ismcts"], "unknown opponent 'ismcts'"),  # search policies can't batch
    (["--opponents", "nowhere.pt"], "no checkpoint file at 'nowhere.pt'"),
    (["--env-config", '{"illegal_reward": NaN}'], "argument --env-config: NaN is not a number"),
])
def test_nonsensical_arguments_are_usage_errors(tmp_path, capsys, argv, message):
    runs = tmp_path / "runs"
    with pytest.raises(SystemExit) as exit_info:  # a tiny run, should the argument be accepted
        main(TINY + ["--total-steps", "256", "--runs-dir", str(runs)] + argv)
    err = capsys.readouterr().err.strip().splitlines()
    assert exit_info.value.code == 2 and len(err) == 2 and err[0].startswith("usage: python -m card_envs.train")
    assert err[1].startswith("python -m card_envs.train: error: ") and message in err[1]
    assert not runs.exists()  # refused before anything was created


def test_an_unwritable_runs_dir_is_refused_before_training(tmp_path, capsys):
    (tmp_path / "file").write_text("not a folder")
    with pytest.raises(SystemExit) as exit_info:
        main(TINY + ["--total-steps", "256", "--runs-dir", str(tmp_path / "file"), "--run-name", "r"])
    assert exit_info.value.code == 2
    assert f"cannot write to {tmp_path / 'file' / 'r'}: Not a directory" in capsys.readouterr().err


def test_the_command_exits_2_without_a_traceback(tmp_path):
    argv = TINY + ["--total-steps", "256", "--runs-dir", str(tmp_path), "--clip-coef", "-1"]
    done = subprocess.run([sys.executable, "-m", "card_envs.train", *argv], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1] == "python -m card_envs.train: error: --clip-coef must be > 0, got -1.0"


# ----- 3. checkpoints -------------------------------------------------------------------------
def test_checkpoints_carry_the_hash_of_their_weights(tmp_path):
    path = Trainer(tiny_args(tmp_path)).save()
    checkpoint = load_checkpoint(path)
    assert checkpoint["model_sha256"] == weights_digest(checkpoint["model"])
    assert len(checkpoint["model_sha256"]) == 64
    # Canonical: key order does not matter, every byte of every tensor does.
    model = checkpoint["model"]
    assert weights_digest(dict(reversed(model.items()))) == checkpoint["model_sha256"]
    model["value_head.bias"] = model["value_head.bias"].clone()
    model["value_head.bias"].view(torch.int32)[0] ^= 1  # one bit of one float
    assert weights_digest(model) != checkpoint["model_sha256"]


def test_altered_weights_are_refused(tmp_path):
    save_checkpoint(tmp_path / "c.pt", small_checkpoint())
    checkpoint = torch.load(tmp_path / "c.pt", weights_only=True)
    checkpoint["model"]["policy_head.bias"][0] += 1.0  # an edit that keeps the stored hash
    torch.save(checkpoint, tmp_path / "edited.pt")
    with pytest.raises(ValueError, match=r"edited\.pt is corrupted or was altered: its weights do not match"):
        NeuralPolicy.from_checkpoint(tmp_path / "edited.pt")


def _data_offset(path: Path, record: str) -> int:
    """Where the bytes of a stored (uncompressed) zip record begin, from its local header."""
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo(record)
    with open(path, "rb") as f:
        f.seek(info.header_offset)
        header = f.read(30)
    name_length, extra_length = struct.unpack("<HH", header[26:30])
    return info.header_offset + 30 + name_length + extra_length


def test_a_corrupted_file_is_refused_although_torch_loads_it(tmp_path):
    path = tmp_path / "c.pt"
    save_checkpoint(path, small_checkpoint())
    with zipfile.ZipFile(path) as archive:
        biggest = max((i for i in archive.infolist() if "/data/" in i.filename), key=lambda i: i.file_size)
    data = bytearray(path.read_bytes())
    data[_data_offset(path, biggest.filename) + biggest.file_size // 2] ^= 0x10  # one flipped bit
    path.write_bytes(bytes(data))
    torch.load(path, weights_only=True)  # torch itself does not notice
    with pytest.raises(ValueError, match="corrupted or was altered"):
        load_checkpoint(path)


def test_an_old_checkpoint_without_a_hash_loads(tmp_path):
    checkpoint = {"format": 1, **small_checkpoint()}
    torch.save(checkpoint, tmp_path / "old.pt")  # as written before this change: no model_sha256
    policy = NeuralPolicy.from_checkpoint(tmp_path / "old.pt", "three_piles_v0")
    assert "model_sha256" not in load_checkpoint(tmp_path / "old.pt")
    assert policy.network.policy_head.out_features == checkpoint["num_actions"]


def test_the_shipped_checkpoint_has_a_matching_hash():
    checkpoint = load_checkpoint(SHIPPED, "three_piles_v0")
    assert checkpoint["model_sha256"] == weights_digest(checkpoint["model"])


def test_missing_keys_are_named(tmp_path):
    checkpoint = small_checkpoint()
    del checkpoint["hidden"], checkpoint["num_actions"]
    save_checkpoint(tmp_path / "a.pt", checkpoint)
    with pytest.raises(ValueError, match=r"a\.pt is not a complete card_envs checkpoint: it lacks the "
                                         r"key\(s\) \['num_actions', 'hidden'\]"):
        load_checkpoint(tmp_path / "a.pt")
    checkpoint = small_checkpoint()
    del checkpoint["model"]["policy_head.bias"]
    save_checkpoint(tmp_path / "b.pt", checkpoint)
    with pytest.raises(ValueError, match=r"missing \['policy_head\.bias'\]"):
        NeuralPolicy.from_checkpoint(tmp_path / "b.pt")


def test_resuming_from_a_weights_only_checkpoint_names_what_is_missing(tmp_path, capsys):
    save_checkpoint(tmp_path / "w" / "checkpoints" / "latest.pt", small_checkpoint(args={}))
    with pytest.raises(SystemExit) as exit_info:
        main(["--resume", "--run-name", "w", "--runs-dir", str(tmp_path), "--no-progress"])
    assert exit_info.value.code == 2
    assert "lacks the training state ['optimizer', 'update', 'rng', 'torch_rng', 'opponent_pool']" in \
        capsys.readouterr().err


class Payload:
    """Stands for anything a pickle may carry besides tensors and plain data."""


def test_a_file_that_is_not_weights_only_is_refused_without_suggesting_weights_only_false(tmp_path):
    torch.save({"format": 1, "env_id": "three_piles_v0", "payload": Payload()}, tmp_path / "objects.pt")
    (tmp_path / "junk.pt").write_bytes(b"not a checkpoint")
    messages = []
    for name in ("objects.pt", "junk.pt"):
        with pytest.raises(ValueError, match="is not a readable card_envs checkpoint") as error:
            load_checkpoint(tmp_path / name)
        messages.append(str(error.value))
    assert "a Python object (tests.train.test_train_hardening.Payload)" in messages[0]
    for message in messages:
        assert "weights_only" not in message and "\n" not in message


def test_leftover_temporary_files_of_that_checkpoint_are_removed_on_the_next_write(tmp_path):
    mine, other = tmp_path / ".c.pt.3f9a2b.tmp", tmp_path / ".d.pt.77aa01.tmp"
    mine.write_bytes(b"half a file from a killed write")
    other.write_bytes(b"another checkpoint's")
    save_checkpoint(tmp_path / "c.pt", small_checkpoint())
    assert sorted(p.name for p in tmp_path.iterdir()) == [".d.pt.77aa01.tmp", "c.pt"]


def test_checkpoints_are_created_with_the_users_umask(tmp_path):
    old = os.umask(0o027)
    try:
        save_checkpoint(tmp_path / "c.pt", small_checkpoint())
    finally:
        os.umask(old)
    assert (tmp_path / "c.pt").stat().st_mode & 0o777 == 0o640  # mkstemp would give 0o600


# ----- 5. TensorBoard logs of a resumed run -------------------------------------------------------
def test_a_resumed_runs_log_drops_what_the_killed_run_logged_after_its_checkpoint(tmp_path):
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    argv = TINY + ["--runs-dir", str(tmp_path), "--run-name", "k", "--total-steps", "1024"]
    assert main(argv + ["--checkpoint-every", "512"]) == 0  # logs steps 256, 512, 768, 1024
    # As if it had been killed after logging step 1024 but before its checkpoint: the last one is 512.
    folder = tmp_path / "k" / "checkpoints"
    shutil.copy(folder / "step_000000000512.pt", folder / "latest.pt")
    (folder / "step_000000001024.pt").unlink()
    time.sleep(1.0)  # event files are named by the second: the resumed run's sorts after the killed run's
    resumed_at = time.time()
    assert main(["--resume", "--run-name", "k", "--runs-dir", str(tmp_path), "--no-progress"]) == 0
    events = EventAccumulator(str(tmp_path / "k"), size_guidance={"scalars": 0}).Reload()
    sps = events.Scalars("charts/SPS")
    assert [e.step for e in sps] == [256, 512, 768, 1024]  # no step twice
    assert all(e.wall_time < resumed_at for e in sps[:2]) and all(e.wall_time >= resumed_at for e in sps[2:])
    assert [e.step for e in events.Scalars("eval/win_rate_vs_random")] == [1024]


def test_env_config_is_merged_into_the_games_default():
    """Illimat's recipe needs its harvest and play features: asking for 3 players keeps them; a key
    given wins."""
    from card_envs.train.ppo import parse_args

    assert parse_args(["illimat_v0", "--env-config", '{"num_players": 3}'])[0].env_config == {
        "harvest_features": True, "play_features": True, "threat_features": True, "num_players": 3}
    assert parse_args(["illimat_v0", "--env-config", '{"harvest_features": false}'])[0].env_config == {
        "harvest_features": False, "play_features": True, "threat_features": True}
    assert parse_args(["three_piles_v0", "--env-config", '{"num_players": 3}'])[0].env_config == {"num_players": 3}
