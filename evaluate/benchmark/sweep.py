"""Two algorithms at a fixed budget, trained and benchmarked run by run, resumable
(docs/benchmark.md, "Two algorithms at a fixed budget"):

    python -m card_envs.evaluate.benchmark.sweep ppo --minutes 10 --seeds 1 2 3 --out docs/benchmark_runs/ppo
    python -m card_envs.evaluate.benchmark.sweep maskable_ppo --minutes 10 --seeds 1 2 3 --out docs/benchmark_runs/maskable_ppo

For each game (``--games``; default every game of the protocol) and seed whose report is not in
``<out>/<env_id>/seed<S>/`` yet, it trains (a subprocess, the command below), then plays the
protocol for that game and that run alone (a partial report of `card_envs.evaluate.benchmark`) into
that folder, beside ``train.json``: the exact command, steps, training wall seconds, steps/s, the
machine (cores, CPU model, load average at the start and the end of training), the date and the
commit. Runs already there are skipped, and said so: a sweep cut short (the end of a session)
goes on where it stopped when run again; a run trained but not yet played is played from its model
where the model is still there, trained again where it is not. Models go to ``--runs-dir``
(``<runs-dir>/<algo>/<env_id>/seed<S>/``), never to ``--out``, which keeps only small files to commit.
Once every game of the protocol has the same number of runs in ``<out>``, it merges them
(``--merge``, every ``<out>/<env_id>``) into the algorithm's report: ``<out>/results.json``,
``results.md`` and ``performance_profile.png``.

The algorithms, each for ``--minutes`` of training wall time, the same for every game:

- ``ppo``: ``python -m card_envs.train <env_id> --recipe reward_only`` (train/configs.py: the game's
  default recipe learning from the result alone: no cloning, no teacher). The trainer's
  ``--max-minutes`` bounds its whole run and gives training 90% of it (``1 - FINAL_EVAL_SHARE``,
  train/timeplan.py), the rest to its final evaluation, so the sweep asks for ``minutes / 0.9``:
  training (and the learning rate's decay to 0) gets exactly the budget, and the final
  evaluation, which the benchmark does not need, is made its smallest (``FINAL_CHUNK`` deals
  against each baseline: seconds). This keeps the trainer as a user runs it, with no option of its
  own for the benchmark. Periodic evaluations are off (``--eval-every 0``): nothing beside
  training takes the cores. The numba kernels compile before the clock starts (on a fresh machine).
- ``maskable_ppo``: ``python -m card_envs.train.sb3 <env_id> --minutes M`` (sb3-contrib's
  MaskablePPO with the library's defaults on the gymnasium view against the scripted agent).

``--deals N`` plays N deals per opponent instead of the protocol's: a quick check (the tests), not
comparable with the protocol's reports, and never merged with them.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from card_envs.agents.sb3 import PREFIX as SB3
from card_envs.evaluate.benchmark.__main__ import main as benchmark
from card_envs.evaluate.benchmark.protocol import GAMES
from card_envs.evaluate.report import write_text
from card_envs.evaluate.runner import available_cores

PROG = "python -m card_envs.evaluate.benchmark.sweep"
RECORD = "train.json"


@dataclass(frozen=True)
class Algorithm:
    name: str  # the report's name
    command: Callable[[str, int, float, Path], list[str]]  # (env id, seed, minutes, model folder) -> argv
    model: Callable[[Path], Path]  # model folder -> the file the benchmark plays
    spec: Callable[[Path], str]  # that file -> its player spec
    trained: Callable[[Path], tuple[int, float]]  # model folder -> (steps, training wall seconds)
    steps_counted: str


def ppo_command(env_id: str, seed: int, minutes: float, folder: Path) -> list[str]:
    from card_envs.train.evaluating import FINAL_CHUNK
    from card_envs.train.timeplan import FINAL_EVAL_SHARE

    return [sys.executable, "-m", "card_envs.train", env_id, "--recipe", "reward_only", "--seed", str(seed),
            "--max-minutes", repr(minutes / (1 - FINAL_EVAL_SHARE)), "--eval-every", "0",
            "--final-eval-deals", str(FINAL_CHUNK), "--runs-dir", str(folder.parent), "--run-name", folder.name]


def ppo_trained(folder: Path) -> tuple[int, float]:
    from card_envs.agents.neural import load_checkpoint

    checkpoint = load_checkpoint(folder / "checkpoints" / "latest.pt")
    return int(checkpoint["step"]), float(checkpoint["trained_seconds"])


def sb3_command(env_id: str, seed: int, minutes: float, folder: Path) -> list[str]:
    return [sys.executable, "-m", "card_envs.train.sb3", env_id, "--minutes", repr(minutes), "--seed", str(seed),
            "--out", str(folder)]


def sb3_trained(folder: Path) -> tuple[int, float]:
    info = json.loads((folder / "model.json").read_text())
    return int(info["steps"]), float(info["wall_s"])


ALGORITHMS = {
    "ppo": Algorithm("PPO (card_envs, reward only)", ppo_command, lambda f: f / "checkpoints" / "latest.pt", str,
                     ppo_trained, "decisions of every seat (the learner's, its self-play copies' and the opponents')"),
    "maskable_ppo": Algorithm("MaskablePPO (sb3-contrib)", sb3_command, lambda f: f / "model.zip",
                              lambda path: f"{SB3}{path}", sb3_trained, "the learner's decisions"),
}


# ----- what train.json records --------------------------------------------------------------------
def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.partition(":")[2].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def load_average() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def commit() -> dict[str, object] | None:
    """The checkout's commit and whether files differ from it (None outside a git checkout)."""
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
        status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                                text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return {"hash": head, "uncommitted_changes": bool(status.strip())}


# ----- one run -------------------------------------------------------------------------------------
def train(algo: str, env_id: str, seed: int, minutes: float, folder: Path, progress: bool) -> dict[str, object]:
    """Train one run in a subprocess (a folder left by one cut short is removed first: it starts
    anew) and return its record."""
    algorithm = ALGORITHMS[algo]
    command = algorithm.command(env_id, seed, minutes, folder) + ([] if progress else ["--no-progress"])
    if folder.exists():
        print(f"  removing {folder}: a run cut short before it was recorded", flush=True)
        shutil.rmtree(folder)
    shown = shlex.join(["python3", *command[1:]])
    print(f"  training: {shown}", flush=True)
    # the commit the run trained with: read before it starts (the checkout may move on during it)
    date, load_start, began = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), load_average(), time.perf_counter()
    code = commit()
    returned = subprocess.run(command).returncode
    if returned:
        raise RuntimeError(f"training {env_id} seed {seed} failed (exit code {returned}): {shown}")
    steps, wall_s = algorithm.trained(folder)
    return {"algorithm": algo, "env_id": env_id, "seed": seed, "minutes": minutes, "command": shown,
            "model": str(algorithm.model(folder)), "steps": steps, "steps_counted": algorithm.steps_counted,
            "train_wall_s": round(wall_s, 2), "steps_per_s": round(steps / wall_s, 1) if wall_s else None,
            "process_wall_s": round(time.perf_counter() - began, 2),
            "machine": {"cores": os.cpu_count(), "cores_available": available_cores(), "cpu_model": cpu_model(),
                        "load_average_start": load_start, "load_average_end": load_average()},
            "date": date, "commit": code, "python": platform.python_version()}


def earlier_record(result: Path, minutes: float) -> dict[str, object] | None:
    """The run's train.json where its model is still there to play; ValueError where it was
    trained with another budget."""
    path = result / RECORD
    if not path.is_file():
        return None
    record = json.loads(path.read_text())
    if record["minutes"] != minutes:
        raise ValueError(f"{result} holds a run of {record['minutes']} minutes, not {minutes}: use another --out")
    return record if Path(record["model"]).is_file() else None


def run_one(args: argparse.Namespace, env_id: str, seed: int) -> str:
    """Train and play one (game, seed), or skip it where its report is there; what was done."""
    result = args.out / env_id / f"seed{seed}"
    if (result / "results.json").is_file():
        record = json.loads((result / RECORD).read_text()) if (result / RECORD).is_file() else {}
        if record.get("minutes", args.minutes) != args.minutes:
            raise ValueError(f"{result} holds a run of {record['minutes']} minutes, not {args.minutes}: "
                             "use another --out")
        return "done before: skipped"
    record = earlier_record(result, args.minutes)
    if record is None:
        folder = args.runs_dir / args.algo / env_id / f"seed{seed}"
        record = train(args.algo, env_id, seed, args.minutes, folder, not args.no_progress)
        write_text(result / RECORD, json.dumps(record, indent=1) + "\n")
        print(f"  trained {record['steps']:,} steps in {record['train_wall_s']:.0f} s "
              f"({record['steps_per_s']:,.0f} steps/s); load average {record['machine']['load_average_start']} "
              f"-> {record['machine']['load_average_end']}", flush=True)
    else:
        print(f"  trained before ({RECORD}): playing {record['model']}", flush=True)
    spec = ALGORITHMS[args.algo].spec(Path(record["model"]))
    argv = ["--policy", f"{env_id}={spec}", "--name", f"{args.name}, {env_id}, seed {seed}", "--out", str(result),
            "--workers", str(args.workers), "--reps", str(args.reps)]
    argv += (["--deals", str(args.deals)] if args.deals else []) + (["--no-progress"] if args.no_progress else [])
    benchmark(argv)
    return "trained and played"


def merge_if_complete(args: argparse.Namespace) -> bool:
    """The algorithm's report from every run in ``--out``, once every game has the same number."""
    counts = {env_id: len(list((args.out / env_id).rglob("results.json"))) if (args.out / env_id).is_dir() else 0
              for env_id in GAMES}
    if len(set(counts.values())) > 1 or not min(counts.values()):
        print("not merged yet (every game of the protocol needs the same number of runs): "
              + ", ".join(f"{env_id} {n}" for env_id, n in counts.items()), flush=True)
        return False
    benchmark(["--merge", *(str(args.out / env_id) for env_id in GAMES), "--name", args.name, "--out", str(args.out),
               "--overwrite", "--reps", str(args.reps)])
    return True


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0].replace("``", ""),
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("algo", choices=list(ALGORITHMS), help="the algorithm: our PPO, or sb3-contrib's MaskablePPO")
    parser.add_argument("--minutes", type=float, default=10.0, help="training wall time of every run")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3], help="one run per seed and game")
    parser.add_argument("--games", nargs="+", choices=list(GAMES), default=list(GAMES), help="the games to run")
    parser.add_argument("--out", type=Path, default=None, help="the runs' reports (default docs/benchmark_runs/<algo>)")
    parser.add_argument("--runs-dir", type=Path, default=Path("runs") / "benchmark_sweep",
                        help="where the models go (<runs-dir>/<algo>/<env_id>/seed<S>/)")
    parser.add_argument("--name", default=None, help="the algorithm's name in its report (default: its own, and "
                                                     "the minutes)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes of the benchmark's play")
    parser.add_argument("--deals", type=int, default=None, help="a quick check: deals per opponent instead of the "
                                                                "protocol's (not comparable)")
    parser.add_argument("--reps", type=int, default=50_000, help="bootstrap resamples of the intervals")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")
    args = parser.parse_args(argv)
    if not (args.minutes > 0 and args.minutes < float("inf")):
        parser.error(f"--minutes must be a positive number, got {args.minutes}")
    for name in ("workers", "reps", "deals"):
        if getattr(args, name) is not None and getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1, got {getattr(args, name)}")
    if min(args.seeds) < 0 or len(set(args.seeds)) < len(args.seeds):
        parser.error(f"--seeds must be distinct numbers >= 0, got {args.seeds}")
    args.out = args.out or Path("docs") / "benchmark_runs" / args.algo
    args.name = args.name or f"{ALGORITHMS[args.algo].name}, {args.minutes:g} min"
    if args.out.resolve() in args.runs_dir.resolve().parents or args.out.resolve() == args.runs_dir.resolve():
        parser.error(f"--runs-dir {args.runs_dir} lies in --out {args.out}: the models must not go there")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    todo = [(env_id, seed) for env_id in GAMES if env_id in args.games for seed in args.seeds]
    began = time.perf_counter()
    print(f"{args.name}: {len(todo)} run(s) ({len(args.games)} game(s) x {len(args.seeds)} seed(s)) -> {args.out}; "
          f"models in {args.runs_dir / args.algo}" + (f"; --deals {args.deals}: a quick check, not the protocol's"
                                                       if args.deals else ""), flush=True)
    try:
        for k, (env_id, seed) in enumerate(todo, 1):
            print(f"[{k}/{len(todo)}] {env_id} seed {seed} ({(time.perf_counter() - began) / 60:.0f} min so far)",
                  flush=True)
            print(f"  {run_one(args, env_id, seed)}", flush=True)
    except (ValueError, RuntimeError) as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 1
    merge_if_complete(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
