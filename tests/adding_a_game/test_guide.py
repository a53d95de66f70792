"""docs/adding_a_game.md, proven on a toy sixth game: High Card (`tests.adding_a_game.toy_game`).

`register` takes the guide's registration steps, in a child process only: a registered env is
process-wide, and every test that walks ``card_envs.list_envs()`` would meet it. The child
registers High Card, then runs under pytest the toy's checks (`tests.adding_a_game.toy_checks`:
PettingZoo's api_test and seed_test, gymnasium's checker, snapshots, the evaluation and training
programs, the batched engine's differential test) and the shared suites every game gets
(``tests/envs/test_envs.py``, the snapshot fuzz, the replay page's boards, for ``high_card_v0``);
nothing of it outlives the child.

In this process: every ```python block of the guide is code of the toy or of its tests, word for
word; the toy's pieces keep the layer rule; its doc page has the shape of the others.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import card_envs
from card_envs.agents import SCRIPTED
from card_envs.docpages import markdown_problems
from card_envs.train.configs import DEFAULTS
from tests import adding_a_game as package  # the toy's "game package": its docstring is the doc page
from tests.adding_a_game.toy_game import HighCardGame

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
GUIDE = ROOT / "docs" / "adding_a_game.md"
SOURCES = sorted(HERE.glob("*.py"))  # the toy's pieces and its tests
CHILD_SECONDS = 240


def register() -> None:
    """Make High Card known to card_envs.make, gymnasium, the shared tests, make_policy and the trainer."""
    card_envs.register(card_envs.EnvSpec(
        "high_card_v0", "tests.adding_a_game.toy_game:HighCardGame", gym_id="card_envs/HighCard-v0",
        test_configs=({}, {"reward": "score"})))
    SCRIPTED["high_card"] = "tests.adding_a_game.toy_agent:HighCardHeuristic"
    DEFAULTS["high_card_v0"] = {"total_steps": 512, "num_games": 16, "num_steps": 16, "hidden": (32,),
                                "opponents": ("heuristic", "random"), "opponent_share": 0.5,
                                "eval_every": 0, "final_eval_deals": 4, "actors": 0}


def python_blocks(text: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```$", text, flags=re.S | re.M)


def test_every_python_block_of_the_guide_is_the_toys_code():
    text = GUIDE.read_text(encoding="utf-8")
    assert markdown_problems(text) == []
    blocks = python_blocks(text)
    sources = "\n".join(path.read_text(encoding="utf-8") for path in SOURCES)
    assert len(blocks) >= 8, "the guide shows each step with the toy's code"
    missing = [block for block in blocks if block not in sources]
    assert not missing, ("these ```python blocks of docs/adding_a_game.md are not (any more) verbatim in "
                         f"{', '.join(p.name for p in SOURCES)}:\n\n" + "\n---\n".join(missing))


def imported_modules(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def test_the_toys_pieces_keep_the_layer_rule():
    """Rules engines import nothing from batch/agents/train/evaluate (nor RL libraries); batched
    engines nothing from agents/train; agents nothing from train/evaluate."""
    forbidden = {
        "toy_game.py": ("card_envs.batch", "card_envs.agents", "card_envs.train", "card_envs.evaluate",
                        "card_envs.aec", "card_envs.gym", "pettingzoo", "gymnasium", "torch",
                        "tests.adding_a_game.toy_"),
        "toy_batch.py": ("card_envs.agents", "card_envs.train", "card_envs.evaluate", "tests.adding_a_game.toy_agent"),
        "toy_agent.py": ("card_envs.train", "card_envs.evaluate", "card_envs.batch", "tests.adding_a_game.toy_batch"),
    }
    for name, prefixes in forbidden.items():
        bad = [m for m in imported_modules(HERE / name) if m.startswith(prefixes)]
        assert not bad, f"{name} imports {bad}, above its layer (docs/adding_a_game.md, Where each piece goes)"


def test_the_doc_page_has_the_shape_of_the_others():
    doc = package.__doc__  # tests/adding_a_game/__init__.py, as card_envs/games/<game>/__init__.py
    assert doc.startswith("High Card (``high_card_v0``)\n\n")  # the title the page generator takes
    assert HighCardGame().observation_layout.markdown() in doc and "Discrete(10)" in doc
    assert markdown_problems(doc) == []


def test_the_toy_game_passes_everything_in_a_process_that_registered_it(tmp_path):
    """The toy's checks and the shared suites, in a child that registered High Card (`register`)."""
    child = ("import sys, pytest; from tests.adding_a_game.test_guide import register; register(); "
             "sys.exit(pytest.main(sys.argv[1:]))")
    command = [sys.executable, "-c", child, "-o", "addopts=", "-v", "-p", "no:cacheprovider",
               f"--basetemp={tmp_path / 'child'}", "tests/adding_a_game/toy_checks.py", "tests/envs/test_envs.py",
               "tests/envs/test_snapshot_fuzz.py::test_mutated_snapshots_are_refused_or_play_to_the_end[high_card_v0]",
               "tests/envs/test_boards.py", "tests/envs/test_replay_html.py::test_boards_hide_what_the_render_hides",
               "tests/envs/test_replay_html.py::test_each_view_holds_what_that_viewer_sees_and_nothing_more",
               "-k", "toy_checks or high_card"]
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"}  # no xdist workers: they would not register
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    began = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=CHILD_SECONDS)
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"the child's pytest failed (exit {done.returncode}):\n{output[-8000:]}"
    passed = re.findall(r"^(tests/\S+)::(\w+)\S* PASSED", output, flags=re.M)
    checks = re.findall(r"^def (test_\w+)", (HERE / "toy_checks.py").read_text(encoding="utf-8"), flags=re.M)
    assert set(checks) <= {name for path, name in passed if path.endswith("toy_checks.py")}, output[-3000:]
    assert sum(path.endswith("test_envs.py") for path, _ in passed) >= 50, output[-3000:]
    boards = {name for path, name in passed if "board" in path or "replay" in path}
    assert len(boards) == 3, f"the replay page's board suites: {boards}\n{output[-3000:]}"
    print(f"child: {len(passed)} passed in {time.perf_counter() - began:.1f} s")
