"""Hardening of python -m card_envs.evaluate: workers capped at the cores, output folders checked before any
game, bad players as usage errors, and report files written with the user's umask."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import card_envs

import card_envs.evaluate.__main__ as cli
from card_envs.agents.neural import save_checkpoint
from card_envs.core.files import atomic_write
from card_envs.evaluate.report import save_figure, write_text
from tests.agents.test_baselines import _checkpoint

BASE = ["three_piles_v0", "random", "heuristic", "--deals", "2", "--no-progress", "--no-plots"]


def test_workers_are_capped_at_the_available_cores(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(cli, "available_cores", lambda: 1)
    assert cli.main(BASE + ["--workers", "8", "--out", str(tmp_path)]) == 0
    assert "note: --workers 8 capped at the 1 available core(s)" in capsys.readouterr().err
    assert json.loads((tmp_path / "results.json").read_text())["meta"]["workers"] == 1


def test_available_cores_follows_the_affinity_mask():
    expected = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert cli.available_cores() == expected


@pytest.mark.parametrize("option", ["--out", "--record"])
def test_unwritable_output_folders_are_refused_before_any_game(tmp_path, monkeypatch, capsys, option):
    (tmp_path / "file").write_text("not a folder")
    monkeypatch.setattr(cli, "play_pairings", lambda *a, **k: pytest.fail("a game was played"))
    argv = BASE + ["--out", str(tmp_path / "out")] + [option, str(tmp_path / "file" / "sub")]
    with pytest.raises(SystemExit) as exit_info:
        cli.main(argv)
    err = capsys.readouterr().err.strip().splitlines()
    assert exit_info.value.code == 2 and "Traceback" not in "\n".join(err)
    assert err[-1] == f"python -m card_envs.evaluate: error: cannot write to {tmp_path / 'file' / 'sub'}: Not a directory"


def _incomplete(path):
    _checkpoint(path, "three_piles_v0")
    import torch

    checkpoint = torch.load(path, weights_only=True)
    del checkpoint["observation_size"]
    save_checkpoint(path, checkpoint)


@pytest.mark.parametrize("make, spec, message", [
    (_incomplete, "a.pt", "lacks the key(s) ['observation_size']"),
    (lambda path: path.write_bytes(b"\x00" * 64), "a.pt", "is not a readable card_envs checkpoint"),
    (None, "ismcts:exploration=inf", "exploration='inf' of policy 'ismcts:exploration=inf' must be a finite number"),
    (None, "ismcts:iterations=2.5", "must be int"),
])
def test_bad_players_are_one_line_usage_errors(tmp_path, capsys, make, spec, message):
    if make is not None:
        make(tmp_path / spec)
        spec = str(tmp_path / spec)
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["three_piles_v0", "random", spec, "--out", str(tmp_path / "out"), "--no-progress"])
    err = capsys.readouterr().err.strip().splitlines()
    assert exit_info.value.code == 2 and len(err) == 2 and err[0].startswith("usage: python -m card_envs.evaluate")
    assert err[1].startswith("python -m card_envs.evaluate: error: ") and message in err[1]


def test_reports_and_plots_are_created_with_the_users_umask(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from card_envs.replay import record_game, save_replay

    game = card_envs.make_game("three_piles_v0")
    state = game.new_state(np.random.default_rng(0))
    decisions, walk = [], state.clone()
    while not walk.is_terminal():  # record_game plays the forced decisions itself
        legal = walk.legal_actions()
        if len(legal) > 1:
            decisions.append(legal[0])
        walk.apply(legal[0])
    replay = record_game(game, "three_piles_v0", state, decisions)
    old = os.umask(0o027)
    try:
        write_text(tmp_path / "results.md", "# hi\n")
        save_figure(plt.figure(), tmp_path / "plot.png")
        save_replay(tmp_path / "game.json", replay)
    finally:
        os.umask(old)
    for name in ("results.md", "plot.png", "game.json"):
        assert (tmp_path / name).stat().st_mode & 0o777 == 0o640  # mkstemp would give 0o600


def test_leftover_temporary_files_of_a_report_are_removed_on_the_next_write(tmp_path):
    (tmp_path / ".results.json.a1b2c3.json.tmp").write_text("{half")  # the old naming
    (tmp_path / ".results.json.d4e5f6.tmp").write_text("{half")
    (tmp_path / ".results.md.0a0b0c.tmp").write_text("# half")  # another file's: kept
    atomic_write(tmp_path / "results.json", lambda tmp: open(tmp, "w").write("{}"))
    assert sorted(p.name for p in tmp_path.iterdir()) == [".results.md.0a0b0c.tmp", "results.json"]


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _started_workers(pid: int) -> list[int]:
    """The child processes of ``pid`` once its 2 pool workers (and the resource tracker) run."""
    from tests.train.test_train import children_of

    deadline = time.monotonic() + 60
    while len(children_of(pid)) < 3 and time.monotonic() < deadline:
        time.sleep(0.2)
    children = children_of(pid)
    assert len(children) >= 2, "the workers did not start"
    return children


def _all_end(pids: list[int], within: float = 10.0) -> bool:
    deadline = time.monotonic() + within
    while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    return not any(_alive(pid) for pid in pids)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads child processes from /proc")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("to_group", [False, True], ids=["to evaluate", "to its process group"])
def test_a_stop_signal_ends_the_evaluation_and_its_workers(tmp_path, signum, to_group):
    """Ctrl-C or SIGTERM, to `python -m card_envs.evaluate` alone (kill) or to its whole process group (a
    terminal, `timeout`): it ends at once with one line, and its workers with it, instead of
    leaving them playing their chunks or waiting for ever on a lock a dying worker held."""
    from tests.train.test_train import ROOT

    process = subprocess.Popen([sys.executable, "-m", "card_envs.evaluate", "illimat_v0", "heuristic", "random", "--deals", "2000",
                                "--workers", "2", "--no-progress", "--no-plots", "--out", str(tmp_path / "out")],
                               cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                               start_new_session=to_group)
    try:
        children = _started_workers(process.pid)
        time.sleep(2.0)  # the workers are playing
        if to_group:
            os.killpg(process.pid, signum)
        else:
            process.send_signal(signum)
        process.wait(timeout=30)
    finally:
        process.kill()
    err = process.stderr.read()
    assert process.returncode == 128 + signum and "Traceback" not in err
    assert f"{signal.Signals(signum).name}: evaluation stopped" in err
    assert _all_end(children)


# Chunks of 1,000 deals: a worker would play its chunk for minutes after its caller died.
LIBRARY_CALLER = """
from card_envs.evaluate.players import expand
from card_envs.evaluate.runner import play_pairings
heuristic, random = expand("heuristic")[0], expand("random")[0]
play_pairings("illimat_v0", {}, [(heuristic, random)], deals=2000, chunk_deals=1000, workers=2, progress=False)
"""


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads child processes from /proc")
def test_the_workers_end_with_a_library_caller_killed_outright(tmp_path):
    """A program that calls `play_pairings` and is killed by a signal it does not handle cannot
    terminate its pool: the workers notice their parent is gone and end at once, instead of
    playing their chunks to nobody."""
    from tests.train.test_train import ROOT

    process = subprocess.Popen([sys.executable, "-c", LIBRARY_CALLER], cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        children = _started_workers(process.pid)
        time.sleep(2.0)  # the workers are playing their first chunks
        process.send_signal(signal.SIGTERM)  # no handler: the caller dies at once
        process.wait(timeout=30)
    finally:
        process.kill()
    assert process.returncode == -signal.SIGTERM
    assert _all_end(children)
