"""`card_envs.numba_cache`: card_envs' kernels are cached once per user and version, in the user's
cache, shared by every copy of the same source (a clone, an editable install, a wheel), recompiled
when a module a kernel imports changes, and ``NUMBA_CACHE_DIR`` still wins.

Each case runs fresh Python processes on copies of the source tree (``PYTHONPATH``), with
``XDG_CACHE_HOME`` (where the user cache lies on Linux) in a temporary folder; the kernels compiled
are the 3 Piles heuristic's (a few seconds)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numba")
pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="XDG_CACHE_HOME places the user cache on Linux")
ROOT = Path(__file__).resolve().parents[2]
SOURCE = ("card_envs", "agents", "train", "evaluate")

WARM = """
import json, sys
from card_envs.agents.warm import warm_up
warmed = warm_up("three_piles_v0", engine=False, quiet=True)
print(json.dumps({"compiled": warmed.compiled, "module": sys.modules["card_envs"].__file__}))
"""

LOCATORS = """
import json, pkgutil, importlib
import card_envs, card_envs.agents, card_envs.batch
from card_envs.agents import make_policy, opponent_names
from numba.core.dispatcher import Dispatcher
for root in (card_envs.batch, card_envs.agents):
    for info in pkgutil.walk_packages(root.__path__, root.__name__ + "."):
        importlib.import_module(info.name)
for env_id in card_envs.list_envs():  # the agents that build their kernels when first made
    game = card_envs.make_game(env_id)
    for spec in opponent_names(game):
        make_policy(spec, game)
import sys
found = {}
for name, module in list(sys.modules.items()):
    if name.startswith("card_envs."):
        for value in vars(module).values():
            if isinstance(value, Dispatcher) and value._cache is not None and hasattr(value._cache, "_impl"):
                found[f"{value.py_func.__module__}.{value.py_func.__qualname__}"] = type(value._cache._impl.locator).__name__
print(json.dumps(found))
"""


def copy_source(to: Path) -> Path:
    junk = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in SOURCE:
        shutil.copytree(ROOT / name, to / name, ignore=junk)
    return to


def run(code: str, source: Path, cache_home: Path, **extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(PYTHONPATH=str(source), XDG_CACHE_HOME=str(cache_home), **extra)
    done = subprocess.run([sys.executable, "-c", code], cwd=source, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def numba_files(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.nbi"))


def test_two_copies_of_the_source_share_one_user_cache_and_a_changed_import_recompiles(tmp_path):
    cache_home = tmp_path / "cache"
    first = copy_source(tmp_path / "clone")
    second = copy_source(tmp_path / "wheel")
    compiled = run(WARM, first, cache_home)
    assert compiled["module"].startswith(str(first)) and compiled["compiled"] > 0
    assert numba_files(cache_home / "card_envs"), "nothing cached under the user cache"
    assert not list(first.rglob("*.nbi")), "a kernel was cached beside its source"
    loaded = run(WARM, second, cache_home)
    assert loaded["module"].startswith(str(second)) and loaded["compiled"] == 0  # the other copy's kernels
    # A module the heuristic's kernels import (their card encoding) changes: they compile again.
    layout = second / "card_envs" / "core" / "layout.py"
    layout.write_text(layout.read_text() + "\n# changed\n")
    assert run(WARM, second, cache_home)["compiled"] > 0


def test_numba_cache_dir_still_wins(tmp_path):
    cache_home, numba_dir = tmp_path / "cache", tmp_path / "numba"
    source = copy_source(tmp_path / "clone")
    assert run(WARM, source, cache_home, NUMBA_CACHE_DIR=str(numba_dir))["compiled"] > 0
    assert numba_files(numba_dir) and not numba_files(cache_home)


def test_every_cached_kernel_of_card_envs_uses_the_user_cache(tmp_path):
    """Every ``cache=True`` dispatcher in card_envs' batched engines and agents takes ``njit`` from
    `card_envs.numba_cache` (one imported from numba directly would fall back to ``__pycache__``)."""
    found = run(LOCATORS, ROOT, tmp_path / "cache")
    assert len(found) > 100, sorted(found)
    elsewhere = {name: locator for name, locator in found.items() if locator != "_CardEnvsLocator"}
    assert not elsewhere, elsewhere
