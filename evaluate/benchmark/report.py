"""The benchmark's report: results.json (the protocol, every run's raw result and normalized score
per game, the aggregate), results.md and the performance-profile plot, written atomically."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from card_envs.evaluate.benchmark.scores import aggregate, game_means, profile_plot
from card_envs.evaluate.report import write_text

PROFILE = "performance_profile.png"


def build(meta: dict[str, Any], protocol: dict[str, Any], games: dict[str, list[dict[str, Any]]],
          reps: int, seed: int) -> dict[str, Any]:
    """The report of one algorithm: ``games`` maps env id -> its runs' results (`play.with_normalized`),
    in the protocol's order. A report of some of the protocol's games is partial (``"partial": true``):
    its ``aggregate`` holds each game's mean over runs alone, no IQM, optimality gap or profile
    (`card_envs.evaluate.benchmark.merge` builds the whole report from partial ones)."""
    env_ids = list(games)
    runs = len(next(iter(games.values())))
    matrix = np.array([[games[env_id][k]["normalized"] for env_id in env_ids] for k in range(runs)])
    partial = set(env_ids) != set(protocol["games"])
    stats = game_means(matrix, reps=reps, seed=seed) if partial else aggregate(matrix, reps=reps, seed=seed)
    return {"protocol_version": protocol["version"], "partial": partial, "meta": meta, "protocol": protocol,
            "games": env_ids,
            "runs": [{"run": k, "games": {env_id: games[env_id][k] for env_id in env_ids}} for k in range(runs)],
            "score_matrix": matrix.tolist(), "aggregate": stats}


def write(report: dict[str, Any], out: Path, plots: bool = True) -> list[Path]:
    """results.json, results.md and (``plots``, a whole report) the performance profile in ``out``."""
    names = []
    if plots and not report["partial"]:
        profile_plot({report["meta"]["name"]: np.array(report["score_matrix"])}, out / PROFILE,
                     seed=report["aggregate"]["seed"])
        names.append(PROFILE)
    else:
        (out / PROFILE).unlink(missing_ok=True)  # an earlier report's plot would pass for this one's
    report["meta"]["files"] = ["results.json", "results.md"] + names
    write_text(out / "results.json", json.dumps(report, indent=1) + "\n")
    write_text(out / "results.md", markdown(report))
    return [out / name for name in report["meta"]["files"]]


def _interval(value: float, interval: list[float]) -> str:
    return f"{value:.3f} [{interval[0]:.3f}, {interval[1]:.3f}]"


def _played(meta: dict[str, Any]) -> str:
    """How the report's games were played: by this command, or by the reports it merges."""
    if "merged_from" in meta:
        return (f"merged from {len(meta['merged_from'])} report(s) (`--merge`; listed in results.json), whose play "
                f"took CPU {meta['cpu_s']:.0f} s.")
    return (f"{meta['workers']} worker(s); wall time {meta['wall_s']:.0f} s, CPU {meta['cpu_s']:.0f} s "
            "of play.")


def markdown(report: dict[str, Any]) -> str:
    meta, stats, protocol = report["meta"], report["aggregate"], report["protocol"]
    runs = stats["runs"]
    budget = ("the protocol's deals" if meta["deals"] is None else
              f"**{meta['deals']} deal(s) per opponent: not the protocol's, so not comparable with its reports**")
    lines = [f"# Benchmark {report['protocol_version']}: {meta['name']}", "", f"`{meta['command']}`", "",
             f"{runs} run(s) per game, {budget}; deal d dealt from seed {protocol['eval_seed']} + d, each in every "
             f"distinct seating; {_played(meta)}", ""]
    if report.get("partial"):
        lines += [f"**Partial report**: {len(report['games'])} of the protocol's {len(protocol['games'])} games, so "
                  "no aggregate over the games (IQM, optimality gap) and no performance profile; "
                  "`python -m card_envs.evaluate.benchmark --merge` builds them from reports that together cover "
                  "every game."]
    else:
        lines += ["## Aggregate over the games", "",
                  "Normalized score: 0 = the uniform-random agent's result against the game's panel, 1 = the "
                  "strongest scripted agent's. Interquartile mean (IQM) and optimality gap (mean shortfall "
                  "below 1) with rliable's stratified bootstrap 95% intervals over the runs of each game "
                  f"({stats['reps']:,} resamples, seed {stats['seed']}), and with the games resampled too.", "",
                  "| metric | point | 95% interval (runs) | 95% interval (runs and games) |", "|---|---:|---|---|"]
        for name, label in (("iqm", "IQM"), ("optimality_gap", "optimality gap")):
            s = stats[name]
            lines.append(f"| {label} | {s['point']:.3f} | [{s['ci95'][0]:.3f}, {s['ci95'][1]:.3f}] | "
                         f"[{s['ci95_games_too'][0]:.3f}, {s['ci95_games_too'][1]:.3f}] |")
    if runs == 1:
        lines += ["", "One run per game: the intervals over runs have zero width (they measure run-to-run "
                  "spread); each run's own sampling interval is in the table below."]
    lines += ["", "## Per game", "",
              "Raw result = the policy's score rate (wins + draws / 2 per game) averaged over the panel; normalized "
              "with the protocol's anchors (random's raw result, the strongest scripted agent's). Each run's "
              "interval is the games' sampling error (95%); the mean's is the bootstrap over runs.", "",
              "| game | panel | anchors (low, high) | mean normalized [95%] | run: policy, raw [95%], normalized [95%] |",
              "|---|---|---|---|---|"]
    for g, env_id in enumerate(report["games"]):
        game = protocol["games"][env_id]
        anchors = game["anchors"]
        mean = stats["game_means"][g]
        cells = "<br>".join(f"{k}: `{run['games'][env_id]['spec']}`, {_interval(run['games'][env_id]['raw'], run['games'][env_id]['raw_ci95'])}, "
                            f"{_interval(run['games'][env_id]['normalized'], run['games'][env_id]['normalized_ci95'])}"
                            for k, run in enumerate(report["runs"]))
        lines.append(f"| {env_id} | {', '.join(game['panel'])} | {anchors['low']:.3f}, {anchors['high']:.3f} "
                     f"({anchors['high_agent']}) | {_interval(mean['mean'], mean['ci95'])} | {cells} |")
    lines += ["", "## Score rate against each opponent", "", "| game | run | " + "opponent: score rate (W-D-L) |",
              "|---|---:|---|"]
    for env_id in report["games"]:
        for k, run in enumerate(report["runs"]):
            parts = [f"{name} {o['score_rate']:.3f} ({o['wins']}-{o['draws']}-{o['losses']})"
                     for name, o in run["games"][env_id]["per_opponent"].items()]
            lines.append(f"| {env_id} | {k} | {'; '.join(parts)} |")
    if PROFILE in meta.get("files", []):
        lines += ["", "## Performance profile", "", f"![performance profile]({PROFILE})"]
    return "\n".join(lines) + "\n"


def anchors_markdown(anchors: dict[str, dict[str, Any]], meta: dict[str, Any]) -> str:
    lines = [f"# Anchors of {meta['protocol_version']}", "", f"`{meta['command']}`", "",
             "Raw result (score rate averaged over the panel) of random and of each scripted agent; the "
             f"strongest sets 1. Wall time {meta['wall_s']:.0f} s.", "",
             "| game | random (0) | strongest (1) | every scripted agent |", "|---|---:|---|---|"]
    for env_id, a in anchors.items():
        every = ", ".join(f"{name} {raw:.3f}" for name, raw in a["candidates"].items())
        lines.append(f"| {env_id} | {a['low']:.3f} | {a['high']:.3f} ({a['high_agent']}) | {every} |")
    return "\n".join(lines) + "\n"


# ----- several algorithms side by side (--compare) -------------------------------------------------
def load_reports(folders: list[str]) -> list[dict[str, Any]]:
    """The results.json of each folder: one protocol version, the same games, distinct names
    (ValueError naming what differs)."""
    reports = []
    for folder in folders:
        path = Path(folder) / "results.json"
        if not path.is_file():
            raise ValueError(f"--compare: no benchmark report at {path}")
        report = json.loads(path.read_text())
        if "score_matrix" not in report:
            raise ValueError(f"--compare: {path} is not a benchmark report (no score_matrix)")
        if report.get("partial"):
            raise ValueError(f"--compare: {path} is a partial report (games {', '.join(report['games'])}): build the "
                             "whole one with --merge first")
        reports.append(report)
    versions = {r["protocol_version"] for r in reports}
    if len(versions) > 1:
        raise ValueError(f"--compare: the reports follow different protocols ({', '.join(sorted(versions))}): "
                         "their scores do not compare")
    if len({tuple(r["games"]) for r in reports}) > 1:
        raise ValueError("--compare: the reports cover different games")
    names = [r["meta"]["name"] for r in reports]
    if len(set(names)) < len(names):
        raise ValueError(f"--compare: two reports share a name ({names}); run them with distinct --name")
    return reports


def comparison_markdown(reports: list[dict[str, Any]], folders: list[str], command: str, plots: bool) -> str:
    """Each report's per-game means and aggregates, one row per algorithm (their own intervals)."""
    games = reports[0]["games"]
    lines = [f"# Benchmark {reports[0]['protocol_version']}: {', '.join(r['meta']['name'] for r in reports)}", "",
             f"`{command}`", "", "Normalized scores (0 = random, 1 = the strongest scripted agent): each game's mean "
             "over runs and the IQM and optimality gap, with rliable's stratified bootstrap 95% intervals over runs "
             "(each report's own).", "",
             "| algorithm | runs | " + " | ".join(games) + " | IQM [95%] | optimality gap [95%] | report |",
             "|---|---:|" + "---|" * len(games) + "---|---|---|"]
    for report, folder in zip(reports, folders):
        stats = report["aggregate"]
        means = [_interval(m["mean"], m["ci95"]) for m in stats["game_means"]]
        budget = "" if report["meta"]["deals"] is None else f" ({report['meta']['deals']} deal(s) per opponent: not the protocol's)"
        lines.append(f"| {report['meta']['name']}{budget} | {stats['runs']} | " + " | ".join(means) + " | "
                     f"{_interval(stats['iqm']['point'], stats['iqm']['ci95'])} | "
                     f"{_interval(stats['optimality_gap']['point'], stats['optimality_gap']['ci95'])} | "
                     f"`{folder}` |")
    if plots:
        lines += ["", f"![performance profiles]({PROFILE})"]
    return "\n".join(lines) + "\n"


def write_comparison(reports: list[dict[str, Any]], folders: list[str], out: Path, command: str,
                     plots: bool = True) -> list[Path]:
    """comparison.md and (``plots``) every algorithm's performance profile in one plot."""
    files = [out / "comparison.md"]
    if plots:
        profile_plot({r["meta"]["name"]: np.array(r["score_matrix"]) for r in reports}, out / PROFILE)
        files.append(out / PROFILE)
    write_text(out / "comparison.md", comparison_markdown(reports, folders, command, plots))
    return files
