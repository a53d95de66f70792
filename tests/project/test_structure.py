"""The package's shape: no import circles between its modules, no oversized files.

Imports are read statically (ast), every import statement of a file counted, those inside
functions too: a lazy import hides a circle from the interpreter, not from the design (a game's
rules must not import its render or snapshot code; the Game class wires them in).
"""

from __future__ import annotations

import ast
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("card_envs", "agents", "train", "evaluate")
MAX_LINES = 800  # a file past this splits by concern (DESIGN.md, "A game package")


def module_files(root: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every .py file of the packages (a package is its __init__)."""
    modules = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def _known(name: str, modules: dict[str, Path]) -> str | None:
    """`name` or its nearest enclosing module that is one of ours (None for outside modules)."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(module: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """Our modules that `module` imports anywhere in its file. ``from pkg import name`` counts as
    importing ``pkg.name`` where that is a module, else ``pkg``."""
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(_known(alias.name, modules) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the module's package, one level up per extra dot
                package = module.split(".") if is_package else module.split(".")[:-1]
                package = package[:len(package) - (node.level - 1)]
                base = ".".join(package + ([node.module] if node.module else []))
            for alias in node.names:
                found.add(_known(f"{base}.{alias.name}", modules) or _known(base, modules))
    found.discard(None)
    found.discard(module)
    return found


def import_graph(root: Path) -> dict[str, set[str]]:
    modules = module_files(root)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle per strongly connected component of more than one module, as a path that starts
    and ends at the component's first module (alphabetically)."""
    index, low, stack, on_stack, components = {}, {}, [], set(), []

    def visit(v: str) -> None:  # Tarjan; the graph is small, recursion is fine
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(set(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return [_circle(min(c), c, graph) for c in components]


def _circle(start: str, component: set[str], graph: dict[str, set[str]]) -> list[str]:
    """The shortest path from `start` back to itself inside `component` (breadth first)."""
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        v = queue.popleft()
        for w in sorted(graph[v] & component):
            if w == start:
                path = [v]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return path[::-1] + [start]
            if w not in came_from:
                came_from[w] = v
                queue.append(w)
    raise AssertionError(f"{start} is in a component but on no circle")


def long_files(root: Path) -> list[str]:
    out = []
    for path in sorted((root / "card_envs").rglob("*.py")):
        lines = len(path.read_text().splitlines())
        if lines > MAX_LINES:
            out.append(f"{path.relative_to(root)}: {lines} lines")
    return out


def test_no_import_circles():
    found = cycles(import_graph(ROOT))
    assert not found, "import circles (a module imports the next, the last imports the first):\n" + "\n".join(
        " -> ".join(c) for c in found)


def test_no_file_in_card_envs_passes_800_lines():
    assert not long_files(ROOT), f"files above {MAX_LINES} lines (split them by concern): {long_files(ROOT)}"


def test_the_walk_sees_lazy_and_relative_imports(tmp_path):
    """The checks themselves: a circle closed only by a function-level import is found, relative
    and ``from pkg import module`` forms count, and an unrelated import does not."""
    pkg = tmp_path / "card_envs" / "games" / "g"
    pkg.mkdir(parents=True)
    for package in PACKAGES[1:]:
        (tmp_path / package).mkdir()
    (tmp_path / "card_envs" / "__init__.py").write_text("")
    (tmp_path / "card_envs" / "games" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("from .game import G\n")
    (pkg / "rules.py").write_text("import numpy\n\ndef f():\n    from card_envs.games.g import render\n")
    (pkg / "render.py").write_text("from . import rules\n")
    (pkg / "game.py").write_text("from card_envs.games.g import render, rules\n")
    graph = import_graph(tmp_path)
    assert graph["card_envs.games.g.game"] == {"card_envs.games.g.render", "card_envs.games.g.rules"}
    assert cycles(graph) == [["card_envs.games.g.render", "card_envs.games.g.rules", "card_envs.games.g.render"]]
    (pkg / "rules.py").write_text("import numpy\n")
    assert cycles(import_graph(tmp_path)) == []
    (pkg / "rules.py").write_text("x = 1\n" * (MAX_LINES + 1))
    assert long_files(tmp_path) == [f"card_envs/games/g/rules.py: {MAX_LINES + 1} lines"]
