"""Mends from issue 46's audit of the command lines and the envs' inputs: checkpoint fields outside
the weights' hash are validated before a network is built, a huge action gets the documented
illegal-action handling with a short message, --run-name stays inside --runs-dir, refused commands
leave no folder, and a missing optional dependency is named with its extra at start-up."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pytest
import torch

import card_envs
import card_envs.evaluate.__main__ as evaluate_cli
from card_envs.agents import neural
from card_envs.agents.neural import NeuralPolicy, load_checkpoint, save_checkpoint
from card_envs.core.game import IllegalActionError
from card_envs.train.ppo import Args, Trainer, main as train_main, start
from tests.train.test_train import tiny_args
from tests.train.test_train_hardening import TINY, small_checkpoint

ROOT = Path(__file__).resolve().parents[2]


# ----- 1. checkpoint fields outside the hash ----------------------------------------------------
@pytest.mark.parametrize("field, value, message", [
    ("hidden", [-5], "its hidden is [-5], expected a list of positive ints"),
    ("hidden", "ab", "its hidden is 'ab', expected a list of positive ints"),
    ("hidden", [8.0], "its hidden is [8.0]"),
    ("observation_size", -1, "its observation_size is -1, expected a positive int"),
    ("observation_size", True, "its observation_size is True, expected a positive int"),
    ("num_actions", 10**9, "its num_actions is 1000000000, but three_piles_v0 with its game_config "
                           "{'num_players': 2, 'reward': 'win'} has 323"),
    ("observation_size", 817, "its observation_size is 817, but three_piles_v0"),
    ("critic_size", 0, "its critic_size is 0, expected absent, None or a positive int"),
    ("entity_heads", "yes", "its entity_heads is 'yes', expected absent, None, True or False"),
    ("game_config", {"num_players": 9}, "its game_config {'num_players': 9} is refused by three_piles_v0"),
    ("game_config", ["x"], "its game_config ['x'] is refused by three_piles_v0: not a dict of arguments"),
])
def test_fields_outside_the_hash_are_refused_naming_the_field(tmp_path, field, value, message):
    checkpoint = small_checkpoint()
    checkpoint[field] = value
    save_checkpoint(tmp_path / "c.pt", checkpoint)  # the hash covers the weights only: it matches
    with pytest.raises(ValueError, match="c.pt is not a valid card_envs checkpoint") as error:
        load_checkpoint(tmp_path / "c.pt")
    assert message in str(error.value) and len(str(error.value)) < 400


def test_a_width_that_does_not_fit_the_weights_is_refused_before_the_network_is_built(tmp_path, monkeypatch):
    """[10**9]: a valid width, not the weights' [8]; built, its first layer alone would take 3 TB."""

    class OnlyShapes(neural.ActorCritic):  # fails at once, rather than allocating, should that regress
        def __init__(self, *args, **kwargs):
            assert torch.get_default_device().type == "meta", "a network built before its sizes were checked"
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(neural, "ActorCritic", OnlyShapes)
    checkpoint = small_checkpoint()
    checkpoint["hidden"] = [10**9]
    save_checkpoint(tmp_path / "c.pt", checkpoint)
    with pytest.raises(ValueError, match=r"weights do not fit its network \(hidden \[1000000000\]\): .*"
                                         r"wrong shape \['trunk.0.weight'"):
        NeuralPolicy.from_checkpoint(tmp_path / "c.pt")


def test_non_finite_weights_are_refused_without_a_hash(tmp_path):
    checkpoint = {"format": 1, **small_checkpoint()}
    checkpoint["model"]["policy_head.bias"][2] = float("nan")
    torch.save(checkpoint, tmp_path / "old.pt")  # as an old file: no model_sha256 to check
    with pytest.raises(ValueError, match=r"old\.pt holds non-finite weights \(NaN or infinite\) in "
                                         r"policy_head\.bias; refusing to load it"):
        NeuralPolicy.from_checkpoint(tmp_path / "old.pt")


def _bad_checkpoint(path: Path) -> Path:
    checkpoint = small_checkpoint()
    checkpoint["num_actions"] = 10**9
    save_checkpoint(path, checkpoint)
    return path


def _one_error_line(err: str, program: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 2 and lines[0].startswith(f"usage: {program}"), err
    assert lines[1].startswith(f"{program}: error: ")
    return lines[1]


def test_evaluate_refuses_bad_checkpoint_fields_in_one_line(tmp_path):
    bad = _bad_checkpoint(tmp_path / "bad.pt")
    done = subprocess.run([sys.executable, "-m", "card_envs.evaluate", "three_piles_v0", "random", str(bad), "--out",
                           str(tmp_path / "out"), "--no-progress"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "its num_actions is 1000000000" in _one_error_line(done.stderr, "python -m card_envs.evaluate")
    assert not (tmp_path / "out").exists()


def test_train_refuses_a_bad_checkpoint_opponent_in_one_line(tmp_path, capsys):
    bad = _bad_checkpoint(tmp_path / "bad.pt")
    with pytest.raises(SystemExit) as exit_info:
        train_main(TINY + ["--runs-dir", str(tmp_path / "runs"), "--opponents", str(bad)])
    assert exit_info.value.code == 2
    assert "its num_actions is 1000000000" in _one_error_line(capsys.readouterr().err, "python -m card_envs.train")
    assert not (tmp_path / "runs").exists()


# ----- 2. huge actions ------------------------------------------------------------------------
HUGE = [10**5000, -(10**5000), np.array(10**5000, dtype=object), [0] * 100_000]


@pytest.mark.parametrize("env_id", card_envs.list_envs())
def test_a_huge_action_is_penalized_with_a_short_warning(env_id):
    env = card_envs.make(env_id)
    for action in HUGE:
        env.reset(seed=0)
        agent = env.agent_selection
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            env.step(action)
        assert len(caught) == 1 and len(str(caught[0].message)) < 300
        assert "is not an integer in 0.." in str(caught[0].message)
        assert env.terminations[agent] and env.rewards[agent] == -1.0
        assert len(env.infos[agent]["illegal_action"]) < 150


def test_a_huge_action_raises_a_short_illegal_action_error_leaving_the_state_unchanged():
    env = card_envs.make("three_piles_v0", illegal_action="raise")
    env.reset(seed=0)
    before = env.unwrapped.snapshot()
    for action in HUGE:
        with pytest.raises(IllegalActionError, match=r"^player_0: action .{1,80} is not an integer in 0\.\.322$"):
            env.step(action)
    assert env.unwrapped.snapshot() == before
    with pytest.raises(IllegalActionError, match=r"action <int of 16610 bits> is not"):
        env.step(10**5000)


@pytest.mark.parametrize("mode", ["penalize", "raise"])
def test_the_gymnasium_env_handles_a_huge_action(mode):
    env = gymnasium.make("card_envs/ThreePiles-v0", illegal_action=mode).unwrapped  # no passive checker
    env.reset(seed=0)
    if mode == "raise":
        with pytest.raises(IllegalActionError, match=r"^action <int of 16610 bits> is not an integer in 0\.\.322$"):
            env.step(10**5000)
        return
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _, reward, terminated, _, _ = env.step(10**5000)
    assert terminated and reward == -1.0
    assert len(caught) == 1 and str(caught[0].message).startswith("learner: action <int of 16610 bits> is not")


# ----- 3. run folders -------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["../x", "a/b", "<absolute>", ".", ".."])
def test_a_run_name_that_leaves_the_runs_dir_is_refused(tmp_path, capsys, name):
    runs = tmp_path / "runs"
    name = str(tmp_path / "x") if name == "<absolute>" else name
    for resume in ([], ["--resume"]):
        with pytest.raises(SystemExit) as exit_info:
            train_main(TINY + ["--total-steps", "256", "--runs-dir", str(runs), "--run-name", name] + resume)
        assert exit_info.value.code == 2
        line = _one_error_line(capsys.readouterr().err, "python -m card_envs.train")
        assert line.endswith(f"--run-name must be one folder name inside --runs-dir (no path separator, "
                             f"not . or ..), got {name!r}")
    assert sorted(tmp_path.iterdir()) == []


def test_a_refused_init_from_leaves_no_run_folder(tmp_path, capsys):
    save_checkpoint(tmp_path / "w.pt", small_checkpoint())  # hidden [8]; the run asks for [32]
    with pytest.raises(SystemExit) as exit_info:
        train_main(TINY + ["--runs-dir", str(tmp_path / "runs"), "--run-name", "r", "--init-from",
                           str(tmp_path / "w.pt")])
    assert exit_info.value.code == 2
    assert "this run needs (816, 323, [32], None, False)" in capsys.readouterr().err
    assert not (tmp_path / "runs").exists()


def test_evaluate_refused_on_its_second_folder_leaves_the_first_uncreated(tmp_path, capsys):
    (tmp_path / "file").write_text("not a folder")
    with pytest.raises(SystemExit) as exit_info:
        evaluate_cli.main(["three_piles_v0", "random", "heuristic", "--out", str(tmp_path / "out" / "deep"),
                           "--record", str(tmp_path / "file" / "sub"), "--no-progress"])
    assert exit_info.value.code == 2
    assert _one_error_line(capsys.readouterr().err, "python -m card_envs.evaluate").endswith("Not a directory")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_resume_before_the_first_checkpoint_says_to_start_without_it(tmp_path, capsys):
    (tmp_path / "killed" / "checkpoints").mkdir(parents=True)  # its log, and a write cut short
    (tmp_path / "killed" / "events.out.tfevents.1").write_bytes(b"")
    (tmp_path / "killed" / "checkpoints" / ".step_000000000256.pt.3f9a2b.tmp").write_bytes(b"")
    for name, message in (("killed", "--resume: run 'killed' has no checkpoint to resume from (it stopped before "
                                     "its first): start it again without --resume"),
                          ("never", f"--resume: there is no run 'never' in {tmp_path}")):
        with pytest.raises(SystemExit) as exit_info:
            train_main(["--resume", "--run-name", name, "--runs-dir", str(tmp_path)])
        assert exit_info.value.code == 2
        assert _one_error_line(capsys.readouterr().err, "python -m card_envs.train").endswith(message)
    trainer = start(tiny_args(tmp_path, run_name="killed"), set())  # as it says: accepted without --resume
    assert trainer.run_dir == tmp_path / "killed"


def test_a_resumed_copy_of_a_run_writes_into_its_own_folder(tmp_path):
    Trainer(tiny_args(tmp_path, run_name="a")).save()
    (tmp_path / "a").rename(tmp_path / "b")
    resumed = start(Args(run_name="b", runs_dir=str(tmp_path), resume=True, progress=False), set())
    assert resumed.run_dir == tmp_path / "b" and resumed.args.run_name == "b"
    assert resumed.save().parent == tmp_path / "b" / "checkpoints"
    assert not (tmp_path / "a").exists()


# ----- 4. optional dependencies ---------------------------------------------------------------
def _run_without(module: str, entry: str, argv: list[str], cwd: Path) -> subprocess.CompletedProcess:
    """``python -m entry argv`` in a Python where ``module`` cannot be imported (as if not installed)."""
    code = (f"import runpy, sys; sys.modules[{module!r}] = None; sys.argv = {[entry] + argv!r}; "
            f"runpy.run_module({entry!r}, run_name='__main__', alter_sys=True)")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=120,
                          env=env)


@pytest.mark.parametrize("module, entry, argv, extra", [
    ("openskill", "card_envs.evaluate", ["three_piles_v0", "random", "heuristic", "--deals", "2", "--no-progress"], "eval"),
    ("matplotlib", "card_envs.evaluate", ["three_piles_v0", "random", "heuristic", "--deals", "2", "--no-progress"], "eval"),
    ("torch", "card_envs.evaluate", ["three_piles_v0", "random", str(ROOT / "agents" / "checkpoints" / "three_piles_v0.pt"),
                           "--no-plots", "--no-progress"], "train"),
    ("torch", "card_envs.evaluate", ["three_piles_v0", "--exploit", "heuristic", "--no-progress"], "train"),
    ("torch", "card_envs.train", TINY + ["--total-steps", "256"], "train"),
    ("tensorboard", "card_envs.train", TINY + ["--total-steps", "256"], "train"),
    ("ray", "card_envs.train.rllib", ["three_piles_v0", "--max-minutes", "0.1"], "rllib"),
])
def test_a_missing_extra_is_named_at_start_up(tmp_path, module, entry, argv, extra):
    done = _run_without(module, entry, argv, tmp_path)
    program = f"python -m {entry}"
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert done.stderr.splitlines() == [
        f"{program}: error: {module} is not installed; it comes with the {extra!r} extra: "
        f'pip install -e ".[{extra}]" -c constraints.txt']
    assert list(tmp_path.iterdir()) == []  # nothing played, trained or written


def test_evaluate_without_plots_needs_no_matplotlib(tmp_path):
    done = _run_without("matplotlib", "card_envs.evaluate", ["three_piles_v0", "random", "heuristic", "--deals", "1",
                                                   "--no-progress", "--no-plots", "--out", "out"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["results.json", "results.md"]
