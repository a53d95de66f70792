"""`benchmarks/batch_differential.py`'s selection: `--config` runs that configuration of the one
`--env` (listed in the script or not) and nothing else, and is refused without one `--env`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "batch_differential.py"


def _run(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *argv], capture_output=True, text=True, timeout=600,
                          cwd=SCRIPT.parents[1])


def test_config_without_one_env_is_refused():
    for env in ([], ["--env", "three_piles_v0", "piles_v0"]):
        result = _run(*env, "--config", '{"num_players": 3}')
        assert result.returncode == 2
        assert "--config needs one --env: the game it configures" in result.stderr
        assert result.stdout == ""


def test_config_runs_that_configuration_only_even_when_not_listed():
    config = {"num_players": 3, "reward": "score"}  # not in the script's list
    result = _run("--env", "three_piles_v0", "--config", json.dumps(config), "--games", "8", "--batch", "8")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines and all(line.startswith("three_piles_v0") and str(config) in line and "identical" in line
                         for line in lines), result.stdout
    assert {line.split()[line.split().index("cpu") + 1] for line in lines} <= {"torch", "numba"}
