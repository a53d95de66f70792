"""The games' doc pages, ``docs/envs/<env_id>.md``, generated from each game package's docstring.

A game's doc page is the docstring of ``card_envs/games/<game>/__init__.py``, written in markdown
(``##`` sections, pipe tables, fenced code; RST-style double backticks render as code spans).
A page adds a title (the docstring's first line), the screenshot of a position on the replay
page's board (``docs/replays/<env_id>.png``, written by the browser tests) and the default
configuration's players, actions and observation size, read from the Game.

    python -m card_envs.docpages            # write every page whose text changed
    python -m card_envs.docpages --check    # list the missing or out-of-date pages, exit 1 if any
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import re
import sys
from pathlib import Path
from types import ModuleType

from card_envs.core.files import atomic_write
from card_envs.core.registry import game_class, list_envs, make_game

ROOT = Path(__file__).resolve().parent.parent
PAGES = ROOT / "docs" / "envs"
COMMAND = "python -m card_envs.docpages"

_FENCE = re.compile(r"\s{0,3}(```|~~~)")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
# A wrapped line that starts a list, a quote or (under text) a setext heading breaks its paragraph
# (only "1." or "1)" start an ordered list there). An ATX heading (## ...) is meant as one.
_BREAKS_PARAGRAPH = re.compile(r"\s{0,3}([-+*](\s|$)|1[.)](\s|$)|>|=+\s*$|-+\s*$)")
_LIST_ITEM = re.compile(r"\s{0,3}([-+*]|\d{1,9}[.)])(\s|$)")
_DELIMITER_ROW = re.compile(r"\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")


def game_package(env_id: str) -> ModuleType:
    """The package ``card_envs.games.<game>`` of the env's Game class: its docstring is the page."""
    module = game_class(env_id).__module__
    parts = module.split(".")
    if parts[:2] != ["card_envs", "games"] or len(parts) < 3:
        raise ValueError(f"{env_id}: its Game class lives in {module}, outside card_envs.games.<game>, "
                         "whose package docstring is the doc page")
    return importlib.import_module(".".join(parts[:3]))


def source_file(env_id: str) -> str:
    """``card_envs/games/<game>/__init__.py``: the file a page is generated from."""
    return Path(game_package(env_id).__file__).resolve().relative_to(ROOT).as_posix()


def _shown(path: Path) -> str:
    """`path` relative to the repository where it lies inside it."""
    path = path.resolve()
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)


def page(env_id: str) -> str:
    """The markdown of the env's doc page."""
    package = game_package(env_id)
    if not (package.__doc__ or "").strip():
        raise ValueError(f"{source_file(env_id)} has no docstring: it is {env_id}'s doc page")
    title, body = _split_title(inspect.cleandoc(package.__doc__), env_id)
    game = make_game(env_id)
    name = title.lstrip("#").strip()
    return "\n".join([
        f"<!-- generated from {source_file(env_id)} by `{COMMAND}`; edit the docstring, not this file -->",
        "",
        f"# {name}",
        "",
        f"![{_plain(name)}: a position on the replay page's board](../replays/{env_id}.png)",
        "",
        f"*A position of a recorded game on the replay page's board (`python -m card_envs.replay view`), "
        "as `player_0` sees it.*",
        "",
        f"**Default configuration** (`card_envs.make_game(\"{env_id}\")`): {game.num_players} players, "
        f"{game.num_actions} actions, observation of {game.observation_layout.size} entries.",
        "",
        _markdown(body).strip("\n"),
        "",
    ])


def _split_title(doc: str, env_id: str) -> tuple[str, str]:
    """(title, body): the first line is the title when a blank line follows it and it starts no
    block of its own (list, table, code); else the env id is."""
    first, _, rest = doc.partition("\n")
    if (not rest or rest.startswith("\n")) and not re.match(r"\s*([-+*|>]|\d+[.)]|```|~~~)", first):
        return first, rest
    return env_id, doc


def _plain(text: str) -> str:
    """`text` without code-span backticks, for an image's alt text."""
    return _CODE_SPAN.sub(lambda m: m.group(2).strip(), text)


def _markdown(doc: str) -> str:
    """The docstring as GitHub-flavoured markdown. It is markdown already, but for pipes inside
    code spans of table rows: GFM splits cells on them, so they are escaped."""
    out, fenced = [], False
    for line in doc.split("\n"):
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and line.lstrip().startswith("|"):
            line = _CODE_SPAN.sub(lambda m: re.sub(r"(?<!\\)\|", r"\\|", m.group(0)), line)
        out.append(line)
    return "\n".join(out)


def markdown_problems(text: str) -> list[str]:
    """Lines of a page that markdown renders otherwise than the docstring reads: a line that starts
    a list, quote or heading inside a paragraph (a wrapped ``- 1``, ``> 3``, ``---``), a table that
    touches text above or below it, lacks its delimiter row or has a row of another width, and an
    unclosed code fence."""
    problems, fenced, previous, block, header, row = [], False, "", "", 0, 0
    for number, line in enumerate(text.split("\n"), 1):
        if _FENCE.match(line):
            fenced, previous, row = not fenced, "", 0
            continue
        if fenced:
            continue
        if line.lstrip().startswith("|"):
            row += 1
            header = _cells(line) if row == 1 else header
            problem = _table_problem(line, row, header, previous)
        elif row and line.strip():
            row, problem = 0, "text right after a table joins it as a row (leave a blank line)"
        else:
            row, block = 0, block if previous.strip() else line
            problem = None
            if previous.strip() and not _LIST_ITEM.match(block) and _BREAKS_PARAGRAPH.match(line):
                problem = (f"{line.strip()!r} makes its paragraph a list, quote or heading "
                           "(rewrap the paragraph; a heading is a ## line)")
        if problem:
            problems.append(f"line {number}: {problem}")
        previous = line
    if fenced:
        problems.append("a code fence (```) is never closed")
    return problems


def _cells(row: str) -> int:
    """The cells of a table row (an escaped pipe splits none)."""
    return len(re.split(r"(?<!\\)\|", row.strip().strip("|")))


def _table_problem(line: str, row: int, header: int, previous: str) -> str | None:
    """What is wrong with the table row `line`, number `row` of its table (1: the header)."""
    if row == 1:
        return "a table right after text (leave a blank line above it)" if previous.strip() else None
    if row == 2:
        return None if _DELIMITER_ROW.match(line) else "a table's second line must be its delimiter row (|---|)"
    cells = _cells(line)
    return None if cells == header else f"a table row of {cells} cells under a header of {header}"


def stale_pages(folder: Path = PAGES) -> list[str]:
    """One line per page of `folder` that is missing, differs from `page()`, or has no env."""
    out = []
    for env_id in list_envs():
        path = folder / f"{env_id}.md"
        if not path.is_file():
            out.append(f"{_shown(path)}: missing (generated from {source_file(env_id)})")
        elif path.read_text(encoding="utf-8") != page(env_id):
            out.append(f"{_shown(path)}: out of date with {source_file(env_id)}")
    for path in sorted(folder.glob("*.md")):
        if path.stem not in list_envs():
            out.append(f"{_shown(path)}: no registered env {path.stem!r} (registered: {', '.join(list_envs())})")
    return out


def write_pages(folder: Path = PAGES) -> list[Path]:
    """Write every env's page whose text changed (atomically); the paths written."""
    written = []
    for env_id in list_envs():
        path, text = folder / f"{env_id}.md", page(env_id)
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            atomic_write(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))
            written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description=(
        "Write docs/envs/<env_id>.md for every registered env from its game package's docstring "
        "(card_envs/games/<game>/__init__.py)."))
    parser.add_argument("--check", action="store_true",
                        help="write nothing: list the pages that are missing, out of date or of no "
                             "registered env, and exit 1 if any")
    parser.add_argument("--dir", type=Path, default=PAGES, help=f"the pages' folder (default: {_shown(PAGES)})")
    args = parser.parse_args(argv)
    for env_id in list_envs():
        for problem in markdown_problems(page(env_id)):
            print(f"warning: {env_id} page, {problem}", file=sys.stderr)
    if args.check:
        stale = stale_pages(args.dir)
        for line in stale:
            print(line, file=sys.stderr)
        if stale:
            print(f"regenerate with: {COMMAND}", file=sys.stderr)
            return 1
        print(f"the {len(list_envs())} pages in {_shown(args.dir)} are current")
        return 0
    written = write_pages(args.dir)
    print(f"wrote {len(written)} of the {len(list_envs())} pages in {_shown(args.dir)}"
          + "".join(f"\n  {path.name}" for path in written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
