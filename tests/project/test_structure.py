"""The package's shape: layers that import downwards only, one room per game at every level (no
shared module names a game), no import circles, no oversized files, and the programs imported by
their installed names.

Imports are read statically (ast), every import statement of a file counted, those inside
functions too: a lazy import hides a circle from the interpreter, not from the design (a game's
rules must not import its render or snapshot code; the Game class wires them in).
"""

from __future__ import annotations

import ast
import re
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Folder -> the package it installs as (setup.py maps the programs into card_envs).
PACKAGES = {"card_envs": "card_envs", "agents": "card_envs.agents", "train": "card_envs.train",
            "evaluate": "card_envs.evaluate"}
MAX_LINES = 700  # a module past this splits by concern (DESIGN.md, "A game package")
# Layers, lowest first (DESIGN.md, "Layers"): a module imports from its own layer or lower ones.
LAYERS = (("core", ("card_envs.core",)), ("rules", ("card_envs.games",)), ("adapters", ("card_envs",)),
          ("batch", ("card_envs.batch",)), ("agents", ("card_envs.agents",)),
          ("programs", ("card_envs.train", "card_envs.evaluate")))
# Folders that hold a package per game; only shared machinery sits at their top.
ROOMS = ("card_envs/batch", "agents", "tests")
# Shared modules that may name games, and why: the tables that list every game. Anywhere else a
# game's name is a piece of that game outside its room (a `game.name == ...` branch): a sixth game
# would have to edit the shared module. Games speak through the Game's hooks instead.
NAMING_GAMES = {
    "card_envs/__init__.py": "the registrations: register(EnvSpec(...)) per env",
    "card_envs/batch/__init__.py": "ENGINES, NUMBA_ONLY and _engines(): the batched engines per env",
    "agents/__init__.py": "SCRIPTED and NAMED: each game's scripted agents",
    "train/configs.py": "DEFAULTS and RECIPES: each game's training recipes",
    "evaluate/benchmark/protocol.py": "GAMES and ANCHORS: the benchmark protocol's setting, panel and anchors per env",
    "train/options.py": "the CLI's default env id (python -m card_envs.train with no env)",
    "agents/play.py": "the CLI's default env id (python -m card_envs.agents.play with no env)",
}


def module_files(root: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every .py file of the packages (a package is its __init__)."""
    modules = {}
    for folder, package in PACKAGES.items():
        for path in sorted((root / folder).rglob("*.py")):
            parts = path.relative_to(root / folder).with_suffix("").parts
            parts = parts[:-1] if parts[-1] == "__init__" else parts
            modules[".".join((package, *parts))] = path
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


def layer(module: str) -> int:
    """The index in LAYERS of the layer `module` belongs to (its longest matching prefix)."""
    best, depth = 0, -1
    for i, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and prefix.count(".") > depth:
                best, depth = i, prefix.count(".")
    return best


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    return [f"{a} ({LAYERS[layer(a)][0]}) imports {b} ({LAYERS[layer(b)][0]})"
            for a in sorted(graph) for b in sorted(graph[a]) if layer(b) > layer(a)]


def games(root: Path) -> list[str]:
    return sorted(p.parent.name for p in (root / "card_envs" / "games").glob("*/__init__.py"))


def misplaced(root: Path) -> list[str]:
    """Pieces of one game outside its room: a module or test at the top of batch/, agents/ or
    tests/ named after a game or importing one game's rules, or a test named after another game
    than the folder it sits in."""
    names, found = games(root), []
    for room in ROOMS:
        for path in sorted((root / room).glob("*.py")):
            stem = path.stem.removeprefix("test_")
            named = [g for g in names if stem == g or stem.startswith(g + "_") or stem.endswith("_" + g)]
            text = path.read_text()
            reads = [g for g in names if re.search(rf"card_envs\.games\.{g}\b|card_envs\.games import {g}\b", text)]
            if path.name.startswith("test_") and room == "tests":
                found.append(f"{path.relative_to(root)}: a test outside a folder (tests/<game>/ or a shared one)")
            elif named or (reads and room != "tests"):
                found.append(f"{path.relative_to(root)}: {(named or reads)[0]}'s piece outside {room}/{(named or reads)[0]}/")
    for path in sorted((root / "tests").glob("*/test_*.py")):
        other = [g for g in names if g != path.parent.name and re.match(rf"test_({g})(_|$)", path.stem)
                 and not any(path.parent.name == h and h.startswith(g) for h in names)]
        if other:
            found.append(f"{path.relative_to(root)}: {other[0]}'s test outside tests/{other[0]}/")
    return found


def _docstrings(tree: ast.AST) -> set[int]:
    return {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body
            and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}


def _names_game(text: str, game: str) -> bool:
    """``text`` (a string constant) is the game's name or env id, holds it quoted (JavaScript's
    ``data.game === "illimat"``) or names one of its modules."""
    name = rf"{game}(_v\d+)?"
    return bool(re.fullmatch(name, text.strip()) or re.search(rf"[\"']{name}[\"']", text)
                or re.search(rf"card_envs\.(games|batch|agents)\.{game}\b", text))


def _compares_game_name(node: ast.AST) -> bool:
    """``game.name == "..."`` (``state.game.name != "..."``): a branch on which game this is."""
    if not isinstance(node, ast.Compare) or not all(isinstance(op, (ast.Eq, ast.NotEq)) for op in node.ops):
        return False
    sides = [node.left, *node.comparators]
    return any(isinstance(side, ast.Constant) and isinstance(side.value, str) for side in sides) and any(
        isinstance(side, ast.Attribute) and side.attr == "name"
        and (isinstance(side.value, ast.Name) and side.value.id == "game"
             or isinstance(side.value, ast.Attribute) and side.value.attr == "game") for side in sides)


# JavaScript in a string: a comparison with the page's game (``data.game === "..."``).
_JS_GAME_TEST = re.compile(r"\bgame\s*[!=]==?\s*[\"']")


def named_games(root: Path) -> list[str]:
    """Shared modules (outside card_envs/games/<game>/, card_envs/batch/<game>/, agents/<game>/ and
    NAMING_GAMES) that name a game: a string (docstrings aside) that is its name or env id, holds it
    quoted or names its modules; a ``game.name ==`` comparison; an import of its modules."""
    names, found = games(root), []
    modules = module_files(root)
    for module, path in sorted(modules.items()):
        rel = path.relative_to(root).as_posix()
        parts = rel.split("/")
        inside = [p for p in parts[:-1] if p in names]
        if inside or rel in NAMING_GAMES:
            continue
        tree = ast.parse(path.read_text(), str(path))
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                hit = [g for g in names if _names_game(node.value, g)]
                if hit:
                    found.append(f"{rel}:{node.lineno}: names {hit[0]} in a string")
                elif _JS_GAME_TEST.search(node.value):
                    found.append(f"{rel}:{node.lineno}: a script compares the game's name")
            elif _compares_game_name(node):
                found.append(f"{rel}:{node.lineno}: compares game.name")
        for imported in sorted(imports_of(module, path, modules)):
            hit = [g for g in names if re.match(rf"card_envs\.(games|batch|agents)\.{g}(\.|$)", imported)]
            if hit:
                found.append(f"{rel}: imports {imported}")
    return found


def long_files(root: Path) -> list[str]:
    out = []
    for folder in PACKAGES:
        for path in sorted((root / folder).rglob("*.py")):
            lines = len(path.read_text().splitlines())
            if lines > MAX_LINES:
                out.append(f"{path.relative_to(root)}: {lines} lines")
    return out


def checkout_only_imports(root: Path) -> list[str]:
    """Imports of the programs by their folder names (``import agents``, ``from train.ppo ...``):
    they resolve only in a checkout's root, never in an installed wheel."""
    found = []
    for path in sorted(root.rglob("*.py")):
        if any(part.startswith(".") or part in ("build", "runs") for part in path.relative_to(root).parts):
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module] if isinstance(node, ast.ImportFrom) and not node.level and node.module else [])
            found += [f"{path.relative_to(root)}:{node.lineno}: {name} (use card_envs.{name})"
                      for name in names if name.split(".")[0] in PACKAGES and name.split(".")[0] != "card_envs"]
    return found


def test_no_import_circles():
    found = cycles(import_graph(ROOT))
    assert not found, "import circles (a module imports the next, the last imports the first):\n" + "\n".join(
        " -> ".join(c) for c in found)


def test_layers_import_downwards_only():
    found = upward_imports(import_graph(ROOT))
    assert not found, "imports from a higher layer (DESIGN.md, Layers):\n" + "\n".join(found)


def test_each_games_pieces_sit_in_its_own_package():
    found = misplaced(ROOT)
    assert not found, "one room per game (card_envs/batch/<game>/, agents/<game>/, tests/<game>/):\n" + "\n".join(found)


def test_no_shared_module_names_a_game():
    found = named_games(ROOT)
    assert not found, ("a game's pieces outside its room (move them into card_envs/games/<game>/ behind a hook "
                       "of card_envs.core.game.Game, or list a registry in NAMING_GAMES with why):\n"
                       + "\n".join(found))


def test_no_module_passes_700_lines():
    assert not long_files(ROOT), f"modules above {MAX_LINES} lines (split them by concern): {long_files(ROOT)}"


def test_the_programs_are_imported_by_their_installed_names():
    found = checkout_only_imports(ROOT)
    assert not found, "imports that work only in a checkout:\n" + "\n".join(found)


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    for folder in PACKAGES:
        (tmp_path / folder).mkdir(exist_ok=True)
    return tmp_path


def test_the_walk_sees_lazy_and_relative_imports(tmp_path):
    """The checks themselves: a circle closed only by a function-level import is found, relative
    and ``from pkg import module`` forms count, and an unrelated import does not."""
    g = "card_envs/games/g/"
    root = _tree(tmp_path, {"card_envs/__init__.py": "", "card_envs/games/__init__.py": "",
                            g + "__init__.py": "from .game import G\n",
                            g + "rules.py": "import numpy\n\ndef f():\n    from card_envs.games.g import render\n",
                            g + "render.py": "from . import rules\n",
                            g + "game.py": "from card_envs.games.g import render, rules\n"})
    graph = import_graph(root)
    assert graph["card_envs.games.g.game"] == {"card_envs.games.g.render", "card_envs.games.g.rules"}
    assert cycles(graph) == [["card_envs.games.g.render", "card_envs.games.g.rules", "card_envs.games.g.render"]]
    (root / g / "rules.py").write_text("import numpy\n")
    assert cycles(import_graph(root)) == []
    (root / g / "rules.py").write_text("x = 1\n" * (MAX_LINES + 1))
    assert long_files(root) == [f"card_envs/games/g/rules.py: {MAX_LINES + 1} lines"]


def test_the_checks_find_upward_imports_misplaced_pieces_and_checkout_imports(tmp_path):
    root = _tree(tmp_path, {"card_envs/__init__.py": "", "card_envs/games/__init__.py": "",
                            "card_envs/games/g/__init__.py": "", "card_envs/games/g/rules.py": "",
                            "card_envs/batch/__init__.py": "", "card_envs/batch/base.py": "",
                            "card_envs/batch/g/__init__.py": "", "agents/__init__.py": "",
                            "train/__init__.py": "", "train/ppo.py": "from card_envs.agents import x\n",
                            "tests/g/test_rules.py": "", "tests/envs/test_envs.py": ""})
    assert upward_imports(import_graph(root)) == []
    assert misplaced(root) == [] and checkout_only_imports(root) == []
    (root / "card_envs/games/g/rules.py").write_text("from card_envs.batch import base\n")
    (root / "card_envs/batch/base.py").write_text("def f():\n    from card_envs.train import ppo\n")
    assert upward_imports(import_graph(root)) == [
        "card_envs.batch.base (batch) imports card_envs.train.ppo (programs)",
        "card_envs.games.g.rules (rules) imports card_envs.batch.base (batch)"]
    (root / "card_envs/batch/g_kernels.py").write_text("")
    (root / "agents/greedy.py").write_text("from card_envs.games.g.rules import X\n")
    (root / "tests/test_loose.py").write_text("")
    (root / "tests/envs/test_g_rules.py").write_text("")
    assert misplaced(root) == ["card_envs/batch/g_kernels.py: g's piece outside card_envs/batch/g/",
                               "agents/greedy.py: g's piece outside agents/g/",
                               "tests/test_loose.py: a test outside a folder (tests/<game>/ or a shared one)",
                               "tests/envs/test_g_rules.py: g's test outside tests/g/"]
    (root / "examples.py").write_text("from train.ppo import main\nimport agents\n")
    assert checkout_only_imports(root) == ["examples.py:1: train.ppo (use card_envs.train.ppo)",
                                           "examples.py:2: agents (use card_envs.agents)"]


def test_the_check_finds_a_game_named_outside_its_room(tmp_path):
    """A shared module branching on a game's name, naming its env id or modules, or a page script
    comparing the game, is found; the same inside the game's room, a docstring, a registry listed
    in NAMING_GAMES or a comparison with data (a snapshot's "game" field) are not."""
    root = _tree(tmp_path, {"card_envs/__init__.py": 'register("g_v0")\n', "card_envs/games/__init__.py": "",
                            "card_envs/games/g/__init__.py": "", "card_envs/games/g/board.py": 'NAME = "g"\n',
                            "card_envs/log.py": '"""Words for g, g_v0."""\n\ndef f(game, data):\n'
                                                '    return data["game"] != game.name\n',
                            "agents/__init__.py": 'SCRIPTED = {"g": "card_envs.agents.g.heuristic:H"}\n'})
    assert named_games(root) == []
    (root / "card_envs/log.py").write_text(
        'def f(game, state):\n    if game.name == "g":\n        from card_envs.games.g import board\n'
        '    return state.game.name != "other"\n\n'
        'JS = "if (data.game === \\"h\\") draw();"\nDEFAULT = "g_v0"\nMODULE = "card_envs.games.g.render"\n')
    assert sorted(named_games(root)) == sorted([
        "card_envs/log.py:2: compares game.name", "card_envs/log.py:2: names g in a string",
        "card_envs/log.py:4: compares game.name", "card_envs/log.py:6: a script compares the game's name",
        "card_envs/log.py:7: names g in a string", "card_envs/log.py:8: names g in a string",
        "card_envs/log.py: imports card_envs.games.g.board"])
