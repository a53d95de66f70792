"""The README's commands are the ones CI runs, and its usage example works."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def readme_commands() -> list[str]:
    block = re.search(r"## Set up and run.*?```bash\n(.*?)```", README, re.S).group(1)
    return [line for line in block.splitlines() if line and not line.startswith("#")]


def test_readme_has_two_commands_and_ci_runs_the_test_one():
    main, tests = readme_commands()
    assert main.endswith("python3 -m train") and "pytest" in tests
    assert tests in (ROOT / ".ci" / "run").read_text().splitlines()


def test_readme_usage_example_runs(capsys):
    code = re.search(r"## Usage\n\n```python\n(.*?)```", README, re.S).group(1)
    exec(compile(code, "README usage", "exec"), {})
    assert "game over" in capsys.readouterr().out
