"""python -m card_envs.train as a tool: Ctrl-C or SIGTERM keeps the work and says how to resume; --help
shows the defaults the named game will use."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import card_envs
from card_envs.agents.neural import load_checkpoint
from tests.train.test_train import ROOT, children_of
from card_envs.train.configs import DEFAULTS
from card_envs.train.ppo import Args, build_parser

TINY = ["--num-games", "16", "--num-steps", "16", "--hidden", "32", "--eval-every", "0", "--eval-deals", "2",
        "--final-eval-deals", "2", "--checkpoint-every", "100000000", "--no-progress"]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads child processes from /proc")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("to_group", [False, True], ids=["to the learner", "to its process group"])
def test_a_signal_saves_a_checkpoint_says_how_to_resume_and_leaves_no_process(tmp_path, signum, to_group):
    """To the learner (kill), or to the whole process group as a terminal's Ctrl-C, `timeout` or
    a job scheduler send it: the children ignore it and the learner stops them."""
    command = [sys.executable, "-m", "card_envs.train", "--run-name", "stopped", "--runs-dir", str(tmp_path), *TINY]
    # --eval-every: an evaluator process runs beside the actor, and must go too; --checkpoint-every:
    # a checkpoint at every update, so the signal comes after the first update (the actor's start
    # takes seconds on a slow machine) and may fall while one is being written
    process = subprocess.Popen(command + ["--total-steps", "100000000", "--eval-every", "256",
                                          "--checkpoint-every", "256"], cwd=ROOT, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=to_group)
    deadline = time.time() + 90
    while not list((tmp_path / "stopped" / "checkpoints").glob("step_*.pt")) and time.time() < deadline:
        time.sleep(0.1)
    time.sleep(1)  # a few updates in
    while len(actors := children_of(process.pid)) < 2 and time.time() < deadline + 30:
        time.sleep(0.2)
    assert len(actors) >= 2, "the default run plays in a second process and evaluates in a third"
    if to_group:
        os.killpg(process.pid, signum)
    else:
        process.send_signal(signum)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 128 + signum, err
    assert "Traceback" not in err and "Traceback" not in out
    assert "leaked" not in err, err  # no process killed with a semaphore in hand
    name = signal.Signals(signum).name
    assert f"{name}: stopped at step" in out
    assert f"resume with: python3 -m card_envs.train --resume --run-name stopped --runs-dir {tmp_path}" in out
    deadline = time.time() + 10  # the actor (and multiprocessing's resource tracker) exit with it
    while any(Path(f"/proc/{pid}").exists() for pid in actors) and time.time() < deadline:
        time.sleep(0.2)
    assert not [pid for pid in actors if Path(f"/proc/{pid}").exists()]
    stopped_at = load_checkpoint(tmp_path / "stopped" / "checkpoints" / "latest.pt")["step"]
    assert stopped_at > 0 and f"stopped at step {stopped_at:,}" in out
    resumed = subprocess.run([sys.executable, "-m", "card_envs.train", "--resume", "--run-name", "stopped", "--runs-dir",
                              str(tmp_path), "--total-steps", str(stopped_at + 512), "--no-progress",
                              "--learning-rate", "0.1"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert f"resuming from step {stopped_at:,}; kept the run's own --learning-rate" in resumed.stdout
    assert load_checkpoint(tmp_path / "stopped" / "checkpoints" / "latest.pt")["step"] == stopped_at + 512


def _run_until_checkpoint(tmp_path, extra: list[str]) -> subprocess.Popen:
    command = [sys.executable, "-m", "card_envs.train", "--run-name", "stopped", "--runs-dir", str(tmp_path), *TINY, *extra]
    process = subprocess.Popen(command, cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.time() + 90
    while not (tmp_path / "stopped" / "checkpoints" / "latest.pt").exists() and time.time() < deadline:
        time.sleep(0.1)
    time.sleep(1)
    return process


def test_a_signal_sent_twice_at_once_is_one_stop(tmp_path):
    """`timeout` signals the learner and then its process group: the learner gets the signal twice
    within microseconds, which must not kill it before it saves."""
    process = _run_until_checkpoint(tmp_path, ["--total-steps", "100000000", "--checkpoint-every", "256"])
    process.send_signal(signal.SIGTERM)
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 128 + signal.SIGTERM, err
    assert "Traceback" not in err and "SIGTERM: stopped at step" in out


def test_a_signal_during_the_final_evaluation_keeps_the_trained_checkpoint(tmp_path):
    """The trained weights are saved before the final evaluation; a stop signal then interrupts the
    evaluation at once, with no traceback, and says where the checkpoint is."""
    process = _run_until_checkpoint(tmp_path, ["--total-steps", "256", "--final-eval-deals", "1000000"])
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 128 + signal.SIGINT, err
    assert "Traceback" not in err and "SIGINT: final evaluation interrupted" in out
    assert load_checkpoint(tmp_path / "stopped" / "checkpoints" / "latest.pt")["step"] == 256


def test_help_shows_the_named_games_defaults():
    tuned = DEFAULTS["three_piles_v0"]
    text = " ".join(build_parser("three_piles_v0").format_help().split())  # argparse wraps lines
    assert f"(default {tuned['total_steps']!r})" in text and f"(default {tuned['max_minutes']!r})" in text
    shown = subprocess.run([sys.executable, "-m", "card_envs.train", "three_piles_v0", "--help"], cwd=ROOT,
                           capture_output=True, text=True, timeout=60).stdout
    assert f"(default {tuned['total_steps']!r})" in " ".join(shown.split())
    for env_id in card_envs.list_envs():  # each game's own time limit and widths, or the generic ones
        help_text = " ".join(build_parser(env_id).format_help().split())
        for name in ("max_minutes", "hidden", "env_config"):
            expected = DEFAULTS.get(env_id, {}).get(name, getattr(Args(), name))
            assert f"(default {expected!r})" in help_text, (env_id, name)


def test_help_opens_with_the_trainers_own_first_line():
    """The options live in `card_envs.train.options`; --help still says what `card_envs.train.ppo` is."""
    from card_envs.train import ppo

    assert build_parser().description == ppo.__doc__.splitlines()[0]
