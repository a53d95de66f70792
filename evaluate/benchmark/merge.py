"""``--merge DIR ...``: one whole report from the runs of earlier reports, playing no game.

Runs are trained and played in pieces (the sweep, `card_envs.evaluate.benchmark.sweep`, plays each
training run of each game as a partial report of its own, session after session); merging them
gives the algorithm's report, its aggregate, profile and files as if one command had played every
run. Where the reports are found: a DIR holding a ``results.json`` is that report; any other DIR
holds every ``results.json`` in the folders below it (found recursively). The runs of each game
are concatenated in this order: the DIRs as given, each DIR's reports in natural path order
(``seed2`` before ``seed10``), each report's runs in its own order. Refused, naming what differs:
reports of different protocols, a report played with ``--deals`` beside one that was not or with
other ``--deals`` (``--deals`` reports merge with each other alone, and the result says it is not
the protocol's), a folder without reports, and runs that do not end with the same number per game.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

REPORT = "results.json"


def natural(path: Path) -> list:
    """Sort key: digit runs compare as numbers (``seed2`` < ``seed10``)."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", path.as_posix())]


def report_files(folders: list[str]) -> list[Path]:
    """The reports to merge, in the order their runs are taken (module docstring)."""
    files = []
    for folder in map(Path, folders):
        if (folder / REPORT).is_file():
            files.append(folder / REPORT)
        elif folder.is_dir():
            found = sorted(folder.rglob(REPORT), key=natural)
            if not found:
                raise ValueError(f"--merge: no benchmark report ({REPORT}) in or below {folder}")
            files += found
        else:
            raise ValueError(f"--merge: {folder} is not a folder")
    return files


def load(path: Path) -> dict[str, Any]:
    try:
        report = json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ValueError(f"--merge: {path} is not JSON: {error}") from None
    if not isinstance(report, dict) or not {"runs", "games", "protocol", "meta"} <= set(report):
        raise ValueError(f"--merge: {path} is not a benchmark report (it lacks runs, games, protocol or meta)")
    return report


def check_alike(reports: list[tuple[Path, dict[str, Any]]]) -> None:
    """One protocol (version and data) and one deal budget for all (ValueError naming the odd one)."""
    first_path, first = reports[0]
    for path, report in reports[1:]:
        if report["protocol"] != first["protocol"]:
            raise ValueError(f"--merge: {path} follows protocol {report['protocol'].get('version')!r} and "
                             f"{first_path} {first['protocol'].get('version')!r}"
                             + (" with other data (panel, deals or anchors)"
                                if report["protocol"].get("version") == first["protocol"].get("version") else "")
                             + ": their scores do not merge")
        deals, first_deals = report["meta"].get("deals"), first["meta"].get("deals")
        if deals != first_deals:
            def told(n):
                return "the protocol's deals" if n is None else f"--deals {n} (not the protocol's)"

            raise ValueError(f"--merge: {path} was played with {told(deals)} and {first_path} with {told(first_deals)}; "
                             "reports made with --deals merge only with each other, at the same --deals")


def merged_runs(reports: list[tuple[Path, dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    """env id -> its runs' results, concatenated (module docstring), in the protocol's order of
    games; ValueError naming each game's count unless every game has the same number."""
    games = list(reports[0][1]["protocol"]["games"])
    runs: dict[str, list[dict[str, Any]]] = {env_id: [] for env_id in games}
    for path, report in reports:
        for run in report["runs"]:
            for env_id, result in run["games"].items():
                if env_id not in runs:
                    raise ValueError(f"--merge: {path} has runs of {env_id!r}, not a game of its protocol")
                runs[env_id].append(result)
    counts = {env_id: len(results) for env_id, results in runs.items()}
    if len(set(counts.values())) > 1 or not min(counts.values()):
        raise ValueError("--merge: every game of the protocol needs the same number of runs (at least one), found "
                         + ", ".join(f"{env_id}: {n}" for env_id, n in counts.items())
                         + f" in {len(reports)} report(s)")
    return runs


def gather(folders: list[str]) -> tuple[dict[str, Any], dict[str, list[dict[str, Any]]], dict[str, Any]]:
    """(the reports' protocol, env id -> its runs' results, what the merged report's meta takes
    from them: deals, CPU seconds, the files merged); ValueError on anything refused."""
    reports = [(path, load(path)) for path in report_files(folders)]
    check_alike(reports)
    runs = merged_runs(reports)
    protocol, deals = reports[0][1]["protocol"], reports[0][1]["meta"].get("deals")
    cpu_s = sum(result.get("cpu_s", 0.0) for results in runs.values() for result in results)
    return protocol, runs, {"deals": deals, "cpu_s": cpu_s, "merged_from": [str(path) for path, _ in reports]}
