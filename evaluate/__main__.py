"""Evaluate agents: ``python -m card_envs.evaluate <env_id> <player> <player> ... [options]``.

A player is ``random``, ``greedy``, ``heuristic``, a game's named scripted bot (``agents.NAMED``,
e.g. Dominion's ``bmu``, ``smithy_bm``, ``witch_bm``), ``ismcts`` / ``ismcts:iterations=200``
(options: iterations, exploration, rollout_depth), a checkpoint file (``.pt``), a shipped checkpoint
(``shipped:<env_id>``, e.g. ``shipped:illimat_v0``), or a checkpoint folder (``runs/<run>/checkpoints``:
every ``step_*.pt`` in it, for a rating curve over training steps).

    python -m card_envs.evaluate three_piles_v0 heuristic random                      # head-to-head
    python -m card_envs.evaluate illimat_v0 shipped:illimat_v0 heuristic lookahead    # the shipped checkpoint
    python -m card_envs.evaluate piles_v0 random greedy heuristic ismcts --deals 200  # round-robin
    python -m card_envs.evaluate three_piles_v0 --gauntlet runs/mine/checkpoints/latest.pt   # vs every baseline
    python -m card_envs.evaluate three_piles_v0 runs/mine/checkpoints heuristic greedy       # rating vs step
    python -m card_envs.evaluate three_piles_v0 --exploit runs/mine/checkpoints/latest.pt --minutes 10
    python -m card_envs.evaluate three_piles_v0 --exploit runs/mine/checkpoints/latest.pt --exploit-steps 30000000

Two players: head-to-head; more: round-robin (every pair; two checkpoints of the same folder are
not paired); ``--gauntlet P``: P (a file, a shipped checkpoint or a folder) against each listed
player, or every baseline when none is listed; ``--exploit P``: train ``--attempts`` agents against P alone
(P plays every other team's seats, frozen), sharing ``--minutes`` (or ``--exploit-steps``), then
play each against P, random and the scripted agent, and their starting weights against P: the
strongest exploiter's win rate, among those that beat random and did not end below their start,
measures how exploitable P is (`card_envs.evaluate.exploit`); P may also be a
scripted agent (``--exploit heuristic``), the same measure for comparison. Each deal is played
in every distinct seating on the same seeds (see `card_envs.evaluate.runner`). Writes results.json,
results.md and PNG plots to ``--out`` (by default a new folder under ``runs/evaluate/<env_id>/``); a report
or replays of an earlier run are never replaced unless ``--overwrite`` says so.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import shlex
import signal
import sys
import time
from itertools import combinations
from pathlib import Path

import card_envs
from card_envs.agents import baseline_names, named_bots_text, opponent_names, policy_names
from card_envs.agents.shipped import SHIPPED, is_checkpoint, shipped_names
from card_envs.agents.warm import COMPILE_PAYS_AT, warm_up, worth_compiling
from card_envs.core.extras import require
from card_envs.evaluate.exploit import (ATTEMPTS, CHECK_DEALS, STARTS, attempt_budget, check_opponents,
                                        exploiter_args, start_of, start_player, summarise, train_exploiters,
                                        warnings)
from card_envs.evaluate.players import Player, expand_all
from card_envs.evaluate.report import build_report, check_writable, markdown, write_all
from card_envs.evaluate.runner import (
    SEATINGS, available_cores, distinct_rotations, play_pairings, replay_folder, seating_pattern)


class _Formatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
    pass


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m card_envs.evaluate", description=__doc__.replace("``", ""), formatter_class=_Formatter,
        usage="%(prog)s env_id [player ...] [--gauntlet CHECKPOINT] [--option VALUE ...]  (--help lists them)",
        epilog="Players: random, greedy, heuristic, ismcts[:iterations=N,exploration=C,rollout_depth=D], "
               f"a game's named scripted bots ({named_bots_text()}), a checkpoint .pt file, a shipped checkpoint "
               f"({', '.join(SHIPPED + name for name in shipped_names())}), or a checkpoint folder.")
    parser.add_argument("env_id", choices=card_envs.list_envs(), help="registered env id")
    parser.add_argument("players", nargs="*", help="two or more players (with --gauntlet: its opponents)")
    parser.add_argument("--gauntlet", metavar="CHECKPOINT",
                        help="play this checkpoint (file, shipped:<env_id> or folder) against each listed "
                             "player, or against every baseline (random, greedy, heuristic, the game's named "
                             "bots, ismcts: an ismcts game costs about 1 CPU s on 3 Piles, 15 on Split the "
                             "Hoard, 50 on Dominion, 90 on Illimat; list the opponents to leave it out)")
    parser.add_argument("--exploit", metavar="CHECKPOINT",
                        help="train --attempts best-response agents against this checkpoint (a file or "
                             "shipped:<env_id>; or a scripted agent: random, heuristic, a named bot, for "
                             "comparison), then play each against it")
    parser.add_argument("--minutes", type=float, default=None,
                        help="--exploit: training time of all the exploiters together, shared evenly by the "
                             "--attempts, one after another (10 when neither budget is given); time-bounded, "
                             "so runs of the same --seed differ")
    parser.add_argument("--exploit-steps", type=int, default=None,
                        help="--exploit: instead of --minutes, training steps of all the exploiters together, "
                             "shared evenly: the same --seed then gives the same exploiters and report on the "
                             "same machine")
    parser.add_argument("--exploit-start", choices=STARTS, default=None,
                        help="--exploit: the exploiters start from the target's weights (fine-tuned against it: "
                             "a best response never starts below parity), from a fresh network, or from the "
                             "game's shipped checkpoint (a scripted target's strongest start); default: "
                             "target for a checkpoint, fresh for a scripted agent (it has no weights)")
    parser.add_argument("--attempts", type=int, default=ATTEMPTS,
                        help="--exploit: exploiters trained; the strongest that beats random is the result")
    parser.add_argument("--exploit-actors", type=int, default=None,
                        help="--exploit: actor processes of each exploiter's training (default: the game's "
                             "recipe's); more where the target, not the learner, costs the time (Dominion's "
                             "best_bot plays a round-robin of the bots on every new kingdom, about 0.3 s a game)")
    parser.add_argument("--check-deals", type=int, default=CHECK_DEALS,
                        help="--exploit: deals of each exploiter's sanity check against random and the scripted agent")
    parser.add_argument("--deals", type=int, default=200, help="deals per pairing (each in every seating)")
    parser.add_argument("--seed", type=int, default=0, help="deal d is dealt from seed + d")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (results do not depend on it)")
    parser.add_argument("--chunk-deals", type=int, default=10,
                        help="deals per task; results depend on it (and on --seed), not on --workers")
    parser.add_argument("--seating", choices=SEATINGS, default="field",
                        help="games of 3+ players without teams: field = one A against B in every other seat "
                             "(as the trainer evaluates), alternate = A, B, A, ... (A also meets itself); "
                             "two-player and team games seat the same either way")
    parser.add_argument("--config", default="{}", help='game arguments as JSON, e.g. \'{"num_players": 2}\'')
    parser.add_argument("--out", default=None,
                        help="output folder (default: a new one under runs/evaluate/<env_id>/, named by the time)")
    parser.add_argument("--record", metavar="DIR",
                        help="save every game as a JSON replay (card_envs.replay) in DIR/<env_id>/<a>_vs_<b>/")
    parser.add_argument("--html", action="store_true",
                        help="with --record: also write each replay as a self-contained HTML page beside it "
                             "(card_envs.replay.html; ~0.2-2 s per game)")
    parser.add_argument("--reveal-all", action="store_true",
                        help="with --html: the pages also offer an \"everything\" view (every hidden card shown)")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace the report in --out and the replays in --record DIR of an earlier run "
                             "(refused without it)")
    parser.add_argument("--compiled", choices=("auto", "yes", "no"), default="auto",
                        help="the scripted agents' numba kernels (the same decisions as their Python act): auto "
                             f"compiles them (a cold cache: seconds to minutes, once per version) for {COMPILE_PAYS_AT:,} "
                             "games or more, and plays smaller evaluations in Python")
    parser.add_argument("--no-plots", action="store_true", help="skip the PNG plots")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    return parser


def parse_args(argv: list[str] | None, parser: argparse.ArgumentParser | None = None) -> argparse.Namespace:
    parser = parser or build_parser()
    args = parser.parse_intermixed_args(argv)  # players may come after options
    for name in ("deals", "workers", "chunk_deals", "attempts", "check_deals", "exploit_actors"):
        if getattr(args, name) is not None and getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.seed < 0:
        parser.error("--seed must be >= 0")
    try:
        args.config = json.loads(args.config)
    except json.JSONDecodeError as error:
        parser.error(f"--config is not valid JSON: {error}")
    if not isinstance(args.config, dict):
        parser.error("--config must be a JSON object, e.g. '{\"num_players\": 2}'")
    if args.html and not args.record:
        parser.error("--html writes pages beside the replays: give --record DIR too")
    if args.reveal_all and not args.html:
        parser.error("--reveal-all adds a view to the replay pages: give --record DIR --html too")
    if args.exploit is not None and (args.gauntlet is not None or args.players):
        parser.error("--exploit TARGET takes no players and no --gauntlet")
    if args.minutes is not None and not 0 < args.minutes < float("inf"):
        parser.error(f"--minutes must be a positive number, got {args.minutes}")
    if args.exploit_steps is not None and args.minutes is not None:
        parser.error("--minutes and --exploit-steps are two budgets for the same training: give one")
    if args.exploit_steps is not None and args.exploit_steps < args.attempts:
        parser.error(f"--exploit-steps must be at least --attempts ({args.attempts}), got {args.exploit_steps}")
    if args.exploit_steps is None and args.minutes is None:
        args.minutes = 10.0
    if args.gauntlet is None and args.exploit is None and len(args.players) < 2:
        parser.error("give at least two players (or --gauntlet CHECKPOINT, or --exploit CHECKPOINT)")
    cores = available_cores()
    if args.workers > cores:  # more processes than cores only adds switching
        print(f"note: --workers {args.workers} capped at the {cores} available core(s)", file=sys.stderr)
        args.workers = cores
    return args


def plan(args: argparse.Namespace, game) -> tuple[str, list[Player], list[tuple[Player, Player]]]:
    """(mode, players, pairings) from the arguments; ValueError on a bad player."""
    if args.exploit is not None:
        target = expand_all([args.exploit], game)
        if len(target) != 1 or not (target[0].spec.endswith(".pt") or target[0].spec in opponent_names(game)):
            raise ValueError(f"--exploit wants one checkpoint file or a scripted agent of {opponent_names(game)} "
                             f"(the trainer's pool plays it in batches: no search policies), got {args.exploit!r}")
        return "exploit", target, []  # the exploiter joins once it is trained
    if args.gauntlet is not None:
        challengers = expand_all([args.gauntlet], game)
        if not any(p.spec.endswith(".pt") for p in challengers):
            raise ValueError(f"--gauntlet wants a checkpoint file or folder, got {args.gauntlet!r}")
        opponents = expand_all(args.players or baseline_names(game), game)
        clash = {p.label for p in challengers} & {p.label for p in opponents}
        if clash:
            raise ValueError(f"{sorted(clash)} is both the gauntlet checkpoint and an opponent")
        return "gauntlet", challengers + opponents, [(c, o) for c in challengers for o in opponents]
    players = expand_all(args.players, game)
    pairs = [(a, b) for a, b in combinations(players, 2) if a.group is None or a.group != b.group]
    if not pairs:
        raise ValueError("nothing to play: checkpoints of one folder are not paired with each other; add opponents")
    mode = "head-to-head" if len(args.players) == 2 else "round-robin"
    return mode, players, pairs


def require_extras(args: argparse.Namespace, program: str) -> None:
    """Exit 2 naming the extra to install where a module this evaluation needs is missing: the
    ratings (and plots) need the eval extra, checkpoints and exploiters torch (the train extra)."""
    require(program, "eval", "openskill", *([] if args.no_plots else ["matplotlib"]))
    specs = [s for s in (*args.players, args.gauntlet, args.exploit) if s is not None]
    if args.exploit is not None:
        require(program, "train", "torch", "tensorboard")
    elif any(is_checkpoint(s) or Path(s).is_dir() for s in specs):
        require(program, "train", "torch")


def check_exploiter(args: argparse.Namespace, config: dict, target: str, out: Path, start: str) -> None:
    """ValueError where the exploiters' training would refuse its arguments (--exploit-actors, the
    game's config), now rather than after a first exploiter has trained."""
    budget = attempt_budget(args.attempts, args.minutes, args.exploit_steps)
    try:
        exploiter_args(args.env_id, config, target, out, "exploiter_1", args.seed, budget, start, False,
                       args.exploit_actors)
    except ValueError as error:
        raise ValueError(f"--exploit: the exploiters' training refuses its arguments: {error}") from None


def new_folder(base: Path) -> Path:
    """A folder of this run's own under `base`, named by the time (``-2``, ``-3`` where taken): a run
    with the default --out never replaces an earlier run's report."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    out, n = base / stamp, 1
    while out.exists():
        n += 1
        out = base / f"{stamp}-{n}"
    return out


def refuse_to_overwrite(out: Path, record: str | None, env_id: str, pairs: list[tuple[Player, Player]]) -> None:
    """ValueError where this run would replace an earlier run's report or replays (--overwrite allows it)."""
    if (out / "results.json").exists():
        raise ValueError(f"{out} holds the report of an earlier evaluation: choose another --out, or pass "
                         "--overwrite to replace it")
    for a, b in pairs if record else ():
        folder = replay_folder(record, env_id, (a.label, b.label))
        if any(folder.glob("deal*")):
            raise ValueError(f"{folder} holds replays of an earlier run: choose another --record folder, or pass "
                             "--overwrite to replace them")


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parse_args(argv, parser)
    require_extras(args, parser.prog)
    out = Path(args.out) if args.out else new_folder(Path("runs") / "evaluate" / args.env_id)
    try:  # everything that can be refused is refused here, before any game is played
        game = card_envs.make_game(args.env_id, **args.config)
        mode, players, pairs = plan(args, game)
        for folder in [out] + ([Path(args.record)] if args.record else []):
            check_writable(folder)
        if not args.overwrite:
            refuse_to_overwrite(out, args.record, args.env_id, pairs)
        exploit_start = start_of(players[0].spec, args.exploit_start) if mode == "exploit" else None
        if mode == "exploit":
            check_exploiter(args, game.config, players[0].spec, out, exploit_start)
        earlier = sorted(out.glob("exploiter*/checkpoints")) if mode == "exploit" else []
        if earlier:
            raise ValueError(f"{earlier[0].parent} holds an earlier exploiter: choose another --out")
    except (ValueError, OSError) as error:
        parser.error(str(error))  # usage, one line of error, exit code 2
    if mode == "exploit":
        target = players[0]
        exploiters, trained = train_exploiters(args.env_id, game.config, target.spec, out, args.seed, args.attempts,
                                               args.minutes, args.exploit_steps, exploit_start,
                                               progress=not args.no_progress, actors=args.exploit_actors)
        # Their starting weights play the target too: an exploiter that ends below them failed.
        first = start_player(args.env_id, target.spec, exploit_start)
        starts = [first] if first is not None else []
        players, pairs = exploiters + starts + players, [(e, target) for e in exploiters + starts]
    pattern = seating_pattern(game, args.seating)
    seatings = len(distinct_rotations(pattern))
    print(f"{args.env_id} {mode}: {len(players)} players, {len(pairs)} pairings x {args.deals} deals x "
          f"{seatings} seatings = {len(pairs) * args.deals * seatings} games, {args.workers} worker(s)",
          file=sys.stderr)
    # numba's kernels compiled (a cold cache), where they pay, before the clocks: the wall time and
    # each game's CPU time
    choice = {"auto": None, "yes": True, "no": False}[args.compiled]
    compiled = worth_compiling(len(pairs) * args.deals * seatings, choice)
    warm_up(args.env_id, game.config, engine=False, agents=[player.spec for player in players] if compiled else False)
    start = time.perf_counter()
    results = play_pairings(args.env_id, game.config, pairs, args.deals, args.seed, args.workers,
                            args.chunk_deals, args.record, progress=not args.no_progress, record_html=args.html,
                            reveal_all=args.reveal_all,
                            seating=args.seating, compile_agents=compiled)
    if mode == "exploit":  # each exploiter's sanity check (not recorded)
        checks = check_opponents(target, policy_names(game))
        results += play_pairings(args.env_id, game.config, [(e, c) for e in exploiters for c in checks],
                                 args.check_deals, args.seed, args.workers, args.chunk_deals, None,
                                 progress=not args.no_progress, seating=args.seating)
        players += checks
        summary = summarise(target, exploiters, trained, results, policy_names(game), first)
    wall = time.perf_counter() - start
    command = "python -m card_envs.evaluate " + " ".join(shlex.quote(a) for a in (sys.argv[1:] if argv is None else argv))
    meta = {"env_id": args.env_id, "config": game.config, "mode": mode, "deals": args.deals, "seed": args.seed,
            "seating_pattern": "".join("AB"[k] for k in pattern), "seatings_per_deal": seatings,
            "chunk_deals": args.chunk_deals, "workers": args.workers, "wall_s": wall, "command": command,
            "record": args.record, "compiled_agents": compiled}
    if mode == "exploit":
        meta.update(exploit_minutes=args.minutes, exploit_steps=args.exploit_steps, exploit_start=exploit_start,
                    attempts=args.attempts, check_deals=args.check_deals, exploit_actors=args.exploit_actors,
                    exploit=summary)
    report = build_report(meta, players, results)
    files = write_all(report, out, make_plots=not args.no_plots)
    print(markdown(report))
    print(f"wrote {', '.join(str(f) for f in files)}", file=sys.stderr)
    if mode == "exploit":
        for line in warnings(summary):
            print(line, file=sys.stderr)
        return 0 if summary["best"] is not None else 1
    return 0


def stop_on_signals() -> None:
    """Ctrl-C or SIGTERM (kill, timeout, a job scheduler) ends the run at once, with one line. The
    worker pool's processes are killed, not terminated through the pool: a worker that the same
    signal reached (timeout and a terminal signal the whole group) may die holding the pool's queue
    lock, and the pool's own clean-up would then wait for that lock for ever. Left running, the
    workers would play their chunks (minutes of ISMCTS games) to nobody."""

    def stop(signum, frame) -> None:
        for child in mp.active_children():
            child.kill()
        sys.stdout.flush()
        print(f"\n{signal.Signals(signum).name}: evaluation stopped (the report is written only at the end)",
              file=sys.stderr, flush=True)
        os._exit(128 + signum)

    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, stop)


if __name__ == "__main__":
    stop_on_signals()
    sys.exit(main())
