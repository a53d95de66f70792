"""docs/envs/<env_id>.md: each game's doc page, generated from its package docstring by
``python -m card_envs.docpages``, is current, renders as markdown, and the check catches a
docstring edited without regenerating and a missing page."""

from __future__ import annotations

import importlib

import pytest

from card_envs import list_envs
from card_envs.docpages import PAGES, game_package, main, markdown_problems, page, source_file, stale_pages

ENVS = list_envs()


@pytest.mark.parametrize("env_id", ENVS)
def test_each_env_has_its_generated_page(env_id):
    path = PAGES / f"{env_id}.md"
    assert path.is_file(), f"{path} is missing: python -m card_envs.docpages"
    assert path.read_text(encoding="utf-8") == page(env_id), (
        f"{path} is out of date with its docstring: python -m card_envs.docpages")


def test_the_pages_folder_holds_only_current_pages_of_registered_envs():
    stale = stale_pages()
    assert not stale, "\n".join(stale + ["regenerate with: python -m card_envs.docpages"])


@pytest.mark.parametrize("env_id", ENVS)
def test_each_page_renders_as_markdown(env_id):
    assert markdown_problems(page(env_id)) == []


@pytest.fixture
def pages(tmp_path, capsys):
    """A folder of freshly generated pages, checked current."""
    assert main(["--dir", str(tmp_path)]) == 0
    assert sorted(p.stem for p in tmp_path.glob("*.md")) == ENVS
    assert main(["--check", "--dir", str(tmp_path)]) == 0
    capsys.readouterr()
    return tmp_path


@pytest.mark.parametrize("env_id", ENVS)
def test_a_docstring_changed_without_regenerating_is_reported(env_id, pages, monkeypatch, capsys):
    package = game_package(env_id)
    monkeypatch.setattr(package, "__doc__", package.__doc__ + "\nA sentence added to the docstring.\n")
    stale = stale_pages(pages)
    assert len(stale) == 1 and f"{env_id}.md: out of date with {source_file(env_id)}" in stale[0], stale
    assert main(["--check", "--dir", str(pages)]) == 1
    assert f"{env_id}.md: out of date" in capsys.readouterr().err
    assert main(["--dir", str(pages)]) == 0  # regenerated: current again, with the sentence
    assert main(["--check", "--dir", str(pages)]) == 0
    assert "A sentence added to the docstring." in (pages / f"{env_id}.md").read_text()


def test_a_missing_or_foreign_page_is_reported(pages, capsys):
    (pages / "piles_v0.md").unlink()
    (pages / "poker_v0.md").write_text("a page of no registered env\n")
    assert [line.split(": ", 1)[1].split(" (")[0] for line in stale_pages(pages)] == [
        "missing", "no registered env 'poker_v0'"]
    assert main(["--check", "--dir", str(pages)]) == 1
    err = capsys.readouterr().err
    assert "piles_v0.md: missing" in err and "poker_v0.md: no registered env" in err


def test_the_page_carries_title_picture_and_the_games_numbers(monkeypatch):
    """The docstring's first line is the title; without one the env id is. The numbers are the Game's."""
    package = importlib.import_module("card_envs.games.three_piles")
    monkeypatch.setattr(package, "__doc__", "Three Piles\n\nBody text.\n")
    lines = page("three_piles_v0").splitlines()
    assert lines[0].startswith("<!-- generated from card_envs/games/three_piles/__init__.py by "
                               "`python -m card_envs.docpages`")
    assert lines[2] == "# Three Piles" and lines[-1] == "Body text."
    assert "![Three Piles: a position on the replay page's board](../replays/three_piles_v0.png)" in lines
    facts = next(line for line in lines if line.startswith("**Default configuration**"))
    assert "2 players, 323 actions, observation of 816 entries" in facts
    monkeypatch.setattr(package, "__doc__", "- a list, not a title\n- second item\n")
    lines = page("three_piles_v0").splitlines()
    assert lines[2] == "# three_piles_v0" and lines[-2:] == ["- a list, not a title", "- second item"]


def test_pipes_inside_code_in_a_table_are_escaped(monkeypatch):
    """GFM splits a table's cells on every unescaped pipe, inside code spans too."""
    package = importlib.import_module("card_envs.games.piles")
    monkeypatch.setattr(package, "__doc__", "Piles\n\n| a | b |\n|---|---|\n| ``x|y`` | `p|q` |\n\n``x|y`` in text\n")
    text = page("piles_v0")
    assert "| ``x\\|y`` | `p\\|q` |" in text and "\n``x|y`` in text" in text
    assert markdown_problems(text) == []


def test_markdown_problems_finds_what_renders_otherwise():
    text = "\n".join([
        "A paragraph whose wrapped line",  # 1
        "- 1 starts a list;",  # 2: wrong
        "",
        "- a real list",
        "- of two items",
        "",
        "Title",
        "=====",  # 8: an RST heading
        "",
        "a value",
        "> 3",  # 11: a quote
        "",
        "| a | b |",
        "| 1 | 2 |",  # 14: no delimiter row
        "",
        "| a | b |",
        "|---|---|",
        "| 1 | 2 | 3 |",  # 18: one cell too many
        "text under it",  # 19: joins the table
        "",
        "text above",
        "| a |",  # 22: a table touching text
        "|---|",
        "",
        "```",
        "- inside a fence is code",
    ])
    problems = markdown_problems(text)
    assert [p.split(":")[0] for p in problems] == [
        "line 2", "line 8", "line 11", "line 14", "line 18", "line 19", "line 22", "a code fence (```) is never closed"]
    rewrapped = text.replace("- 1 starts", "1 starts").replace("> 3", "3")
    assert markdown_problems(rewrapped) == [p for p in problems if not p.startswith(("line 2:", "line 11:"))]
