"""Nothing a person made is replaced without being asked: recordings of two games into one folder
keep both, a second evaluation into the same --out is refused (``--overwrite`` replaces it), the
default --out is a new folder each run, and ``--reveal-all`` reaches the replay pages."""

from __future__ import annotations

import json

import pytest

from card_envs.evaluate.__main__ import main

FAST = ["--deals", "1", "--no-plots", "--no-progress", "--workers", "1"]


def test_two_games_recorded_into_one_folder_keep_both(tmp_path):
    for env_id in ("three_piles_v0", "piles_v0"):
        assert main([env_id, "heuristic", "random", "--record", str(tmp_path / "games"),
                     "--out", str(tmp_path / env_id), *FAST]) == 0
    for env_id in ("three_piles_v0", "piles_v0"):
        replays = sorted((tmp_path / "games" / env_id / "heuristic_vs_random").glob("deal*.json"))
        assert replays and all(json.loads(path.read_text())["env_id"] == env_id for path in replays)


def test_a_second_evaluation_into_the_same_folder_is_refused_unless_asked(tmp_path, capsys):
    argv = ["three_piles_v0", "heuristic", "random", "--out", str(tmp_path / "out"), *FAST]
    assert main(argv) == 0
    first = (tmp_path / "out" / "results.json").read_text()
    with pytest.raises(SystemExit) as exit_info:
        main(argv + ["--seed", "7"])
    assert exit_info.value.code == 2
    assert "holds the report of an earlier evaluation" in capsys.readouterr().err
    assert (tmp_path / "out" / "results.json").read_text() == first  # untouched
    assert main(argv + ["--seed", "7", "--overwrite"]) == 0
    assert json.loads((tmp_path / "out" / "results.json").read_text())["meta"]["seed"] == 7


def test_replays_of_an_earlier_run_are_not_replaced_unless_asked(tmp_path, capsys):
    argv = ["three_piles_v0", "heuristic", "random", "--record", str(tmp_path / "games"), *FAST]
    assert main(argv + ["--out", str(tmp_path / "a")]) == 0
    with pytest.raises(SystemExit):
        main(argv + ["--out", str(tmp_path / "b")])
    assert "holds replays of an earlier run" in capsys.readouterr().err
    assert main(argv + ["--out", str(tmp_path / "c"), "--overwrite"]) == 0


def test_the_default_out_is_a_new_folder_each_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for _ in range(2):
        assert main(["three_piles_v0", "heuristic", "random", *FAST]) == 0
    reports = sorted((tmp_path / "runs" / "evaluate" / "three_piles_v0").glob("*/results.json"))
    assert len(reports) == 2


def test_reveal_all_adds_the_everything_view_to_the_pages(tmp_path):
    assert main(["three_piles_v0", "heuristic", "random", "--record", str(tmp_path / "games"), "--html",
                 "--reveal-all", "--out", str(tmp_path / "out"), *FAST]) == 0
    page = next((tmp_path / "games" / "three_piles_v0" / "heuristic_vs_random").glob("*.html")).read_text()
    plain = tmp_path / "plain"
    assert main(["three_piles_v0", "heuristic", "random", "--record", str(plain), "--html",
                 "--out", str(tmp_path / "out2"), *FAST]) == 0
    plain_page = next((plain / "three_piles_v0" / "heuristic_vs_random").glob("*.html")).read_text()
    assert "everything" in page.lower() and "everything" not in plain_page.lower()
