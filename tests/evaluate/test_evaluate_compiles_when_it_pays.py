"""A small evaluation plays the scripted agents' Python ``act`` and compiles nothing; ``--compiled yes``
compiles their kernels and plays the same games to the same results (`card_envs.agents.warm.worth_compiling`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from card_envs.agents.warm import COMPILE_PAYS_AT, worth_compiling

ROOT = Path(__file__).resolve().parents[2]


def evaluate(tmp_path: Path, name: str, *extra: str) -> tuple[dict, str]:
    cache = tmp_path / f"numba_{name}"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT)}
    out = tmp_path / name
    done = subprocess.run([sys.executable, "-m", "card_envs.evaluate", "three_piles_v0", "heuristic", "random",
                           "--deals", "3", "--no-plots", "--no-progress", "--out", str(out), *extra],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert bool(list(cache.rglob("*.nbi"))) == ("compiling" in done.stderr), done.stderr
    return json.loads((out / "results.json").read_text()), done.stderr


def test_a_small_evaluation_compiles_nothing_and_plays_as_the_compiled_agents(tmp_path):
    pytest.importorskip("numba")
    small, said = evaluate(tmp_path, "auto")
    assert "compiling" not in said and small["meta"]["compiled_agents"] is False
    compiled, said = evaluate(tmp_path, "yes", "--compiled", "yes")
    assert "compiling the numba kernels" in said and compiled["meta"]["compiled_agents"] is True
    assert [p["per_game"] for p in small["pairings"]] == [p["per_game"] for p in compiled["pairings"]]


def test_the_rule():
    assert not worth_compiling(COMPILE_PAYS_AT - 1) and not worth_compiling(4)
    assert worth_compiling(COMPILE_PAYS_AT) == worth_compiling(10**6)  # True where numba is installed
    assert not worth_compiling(10**6, choice=False) and not worth_compiling(1, choice=False)
    assert worth_compiling(1, choice=True) == worth_compiling(10**6)
