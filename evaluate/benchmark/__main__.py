"""The benchmark: ``python -m card_envs.evaluate.benchmark --policy ENV_ID=SPEC ... [--out DIR]``.

Plays the protocol ``card_envs-bench-v1`` (`card_envs.evaluate.benchmark.protocol`): one policy
per game per run against the game's opponent panel, then reports per game the raw result and the
normalized score (0 = random, 1 = the strongest scripted agent) and across games rliable's IQM and
optimality gap with stratified bootstrap intervals and its performance profile. Several runs
(seeds of a training recipe) are the normal input: give every game one ``--policy`` per run, in
the same order. A SPEC is any player of ``python -m card_envs.evaluate``: a checkpoint file, a
shipped checkpoint (``shipped:<env_id>``), a MaskablePPO model (``sb3:<path>.zip``), ``heuristic``...
Policies of some of the games make a partial report (those games' tables, no aggregate);
``--merge`` builds the whole report from the runs of earlier reports.

    python -m card_envs.evaluate.benchmark --name shipped --policy three_piles_v0=shipped:three_piles_v0 \\
        --policy piles_v0=shipped:piles_v0 --policy split_the_hoard_v0=shipped:split_the_hoard_v0 \\
        --policy illimat_v0=shipped:illimat_v0 --policy dominion_v0=shipped:dominion_v0 --workers 2
    python -m card_envs.evaluate.benchmark --anchors --workers 2     # remeasure the normalization anchors
    python -m card_envs.evaluate.benchmark --merge docs/benchmark_runs/ppo/*_v0 --name ppo --out runs/benchmark/ppo
    python -m card_envs.evaluate.benchmark --compare runs/benchmark/ppo runs/benchmark/maskable --out both

Writes results.json, results.md and performance_profile.png (``--compare``: comparison.md and the
profiles of all) to ``--out`` (by default a new folder under ``runs/benchmark/``); a folder holding
an earlier report is refused unless ``--overwrite``. The protocol, the normalization and how to
cite the score: docs/benchmark.md.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path

from card_envs.agents.shipped import is_checkpoint
from card_envs.core.extras import require
from card_envs.evaluate.__main__ import new_folder, stop_on_signals
from card_envs.agents.sb3 import PREFIX as SB3
from card_envs.evaluate.benchmark import merge, play
from card_envs.evaluate.benchmark.protocol import GAMES, VERSION, protocol
from card_envs.evaluate.benchmark.report import anchors_markdown, build, load_reports, write, write_comparison
from card_envs.evaluate.report import check_writable, write_text
from card_envs.evaluate.runner import available_cores

PROG = "python -m card_envs.evaluate.benchmark"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.replace("``", ""),
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--policy", action="append", default=[], metavar="ENV_ID=SPEC",
                        help=f"one run's policy for one game (repeat: every game of the protocol, {', '.join(GAMES)}, "
                             "the same number of times, once per run; some of the games only: a partial report, "
                             "without aggregate, for --merge)")
    parser.add_argument("--name", default="policy", help="the algorithm's name in the report and the plot")
    parser.add_argument("--anchors", action="store_true",
                        help="measure the normalization anchors (random and every scripted agent against each "
                             "panel) instead; paste the printed table into protocol.py for a new protocol version")
    parser.add_argument("--compare", nargs="+", metavar="DIR",
                        help="put earlier benchmark reports (their --out folders) side by side: a table and every "
                             "algorithm's performance profile in one plot, written to --out; no game is played")
    parser.add_argument("--merge", nargs="+", metavar="DIR",
                        help="build one whole report (aggregate, profile) from the runs of earlier reports, to --out: "
                             "a DIR holding results.json is that report, any other DIR every results.json below it "
                             "(recursively); each game's runs concatenated in the order of the DIRs, then of the "
                             "reports' paths (natural order); one protocol, no mixing of --deals budgets, the same "
                             "number of runs for every game in the end; no game is played")
    parser.add_argument("--deals", type=int, default=None,
                        help="deals per opponent instead of the protocol's (a quick check: such a report is "
                             "marked as not the protocol's)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (results do not depend on it)")
    parser.add_argument("--reps", type=int, default=50_000, help="bootstrap resamples of the intervals")
    parser.add_argument("--bootstrap-seed", type=int, default=0, help="seed of the bootstrap resampling")
    parser.add_argument("--out", default=None, help="output folder (default: a new one under runs/benchmark/)")
    parser.add_argument("--overwrite", action="store_true", help="replace the report of an earlier run in --out")
    parser.add_argument("--no-plots", action="store_true", help="skip the performance-profile plot")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")
    return parser


def parse_args(argv: list[str] | None) -> tuple[argparse.ArgumentParser, argparse.Namespace]:
    parser = build_parser()
    args = parser.parse_args(argv)
    for name in ("workers", "reps"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1, got {getattr(args, name)}")
    if args.bootstrap_seed < 0:
        parser.error(f"--bootstrap-seed must be >= 0, got {args.bootstrap_seed}")
    if args.deals is not None and args.deals < 1:
        parser.error(f"--deals must be at least 1, got {args.deals}")
    if sum(map(bool, (args.anchors, args.policy, args.compare, args.merge))) > 1:
        parser.error("--policy, --anchors, --compare and --merge are different jobs: give one of them")
    if not (args.anchors or args.policy or args.compare or args.merge):
        parser.error("give one --policy ENV_ID=SPEC per game per run (or --anchors, --compare DIR ... or --merge DIR ...)")
    if args.merge and args.deals is not None:
        parser.error("--merge plays no game: --deals is the merged reports' own")
    args.workers = min(args.workers, available_cores())
    return parser, args


def main(argv: list[str] | None = None) -> int:
    parser, args = parse_args(argv)
    require(PROG, "benchmark", "rliable", *([] if args.no_plots else ["matplotlib"]))
    specs = [text.partition("=")[2] for text in args.policy]
    if any(is_checkpoint(spec) for spec in specs):
        require(PROG, "train", "torch")
    if any(spec.startswith(SB3) for spec in specs):
        require(PROG, "benchmark", "sb3_contrib", "torch")
    out = Path(args.out) if args.out else new_folder(Path("runs") / "benchmark")
    report_file = out / ("anchors.json" if args.anchors else "comparison.md" if args.compare else "results.json")
    command = f"{PROG} " + " ".join(shlex.quote(a) for a in (sys.argv[1:] if argv is None else argv))
    try:  # everything that can be refused is refused before any game is played
        check_writable(out)
        if report_file.exists() and not args.overwrite:
            raise ValueError(f"{out} holds the report of an earlier benchmark: choose another --out, or pass "
                             "--overwrite to replace it")
        if args.compare:
            reports = load_reports(args.compare)
        elif args.merge:
            recorded, games, taken = merge.gather(args.merge)
        elif not args.anchors:
            runs = play.parse_policies(args.policy)
            players = {env_id: play.players_of(env_id, given) for env_id, given in runs.items()}
            play.check_anchors(runs)
    except (ValueError, OSError) as error:
        parser.error(str(error))
    if args.compare:
        files = write_comparison(reports, args.compare, out, command, plots=not args.no_plots)
        print((out / "comparison.md").read_text())
        print(f"wrote {', '.join(str(f) for f in files)}", file=sys.stderr)
        return 0
    start = time.perf_counter()
    progress = not args.no_progress
    if args.anchors:
        anchors = play.measure_anchors(args.deals, args.workers, progress)
        meta = {"protocol_version": VERSION, "command": command, "deals": args.deals,
                "wall_s": time.perf_counter() - start}
        write_text(report_file, json.dumps({"meta": meta, "anchors": anchors}, indent=1) + "\n")
        write_text(out / "anchors.md", anchors_markdown(anchors, meta))
        print(anchors_markdown(anchors, meta))
        print("ANCHORS = " + json.dumps(anchors, indent=4))
        print(f"wrote {report_file}, {out / 'anchors.md'}", file=sys.stderr)
        return 0
    if args.merge:
        meta = {"name": args.name, "command": command, **taken}
    else:
        recorded, games = protocol(), {}
        for env_id, mine in players.items():
            games[env_id] = [play.with_normalized(env_id, result)
                             for result in play.play_game(env_id, mine, args.deals, args.workers, progress)]
        meta = {"name": args.name, "command": command, "deals": args.deals, "workers": args.workers,
                "wall_s": time.perf_counter() - start,
                "cpu_s": sum(run["cpu_s"] for results in games.values() for run in results)}
    print(f"bootstrap intervals ({args.reps:,} resamples)...", file=sys.stderr)
    report = build(meta, recorded, games, args.reps, args.bootstrap_seed)
    files = write(report, out, plots=not args.no_plots)
    stats = report["aggregate"]
    if report["partial"]:
        print(f"{args.name}: a partial report ({', '.join(report['games'])}): " + ", ".join(
            f"{env_id} {_mean(m)}" for env_id, m in zip(report["games"], stats["game_means"])))
    else:
        print(f"{args.name}: " + ", ".join(f"{label} {stats[key]['point']:.3f} [{stats[key]['ci95'][0]:.3f}, "
                                           f"{stats[key]['ci95'][1]:.3f}]"
                                           for key, label in (("iqm", "IQM"), ("optimality_gap", "optimality gap"))))
    print(f"wrote {', '.join(str(f) for f in files)}", file=sys.stderr)
    return 0


def _mean(game_mean: dict) -> str:
    return f"{game_mean['mean']:.3f} [{game_mean['ci95'][0]:.3f}, {game_mean['ci95'][1]:.3f}]"


if __name__ == "__main__":
    stop_on_signals()
    sys.exit(main())
