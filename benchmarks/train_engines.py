"""Trainer steps per second with each engine: the batched engine (card_envs.batch) vs the reference.

    python benchmarks/train_engines.py                      # three_piles_v0, its default config
    python benchmarks/train_engines.py piles_v0 --steps 1000000 --rounds 1
    python benchmarks/train_engines.py --set num_games=512   # any Args field, for both engines

Runs `python -m card_envs.train`'s Trainer for ``--steps`` decisions with ``--engine reference`` and with
``--engine batch``, every other argument the same (the game's defaults from train/configs.py,
without periodic evaluations, checkpoints or cloning), in interleaved rounds, and prints SPS side
by side: the trainer's own figure (``charts/SPS``: all seats' decisions over the training loop's
wall time, the actor's start and ``--compile``'s compiling included) and the steady rate after
the first updates. The machine is shared: the load average is printed with each run, and the best
round of each engine is kept.
"""

from __future__ import annotations

import argparse
import ast
import os
import tempfile
import time

import card_envs
from card_envs.train.configs import DEFAULTS, without_cloning
from card_envs.train.ppo import Args, start


class SpsLog:
    """Stands in for the TensorBoard writer: keeps (wall time, step) at each logged update."""

    def __init__(self):
        self.points: list[tuple[float, int]] = []
        self.sps = 0.0

    def add_scalar(self, name: str, value: float, step: int) -> None:
        if name == "charts/SPS":
            self.points.append((time.perf_counter(), step))
            self.sps = value

    def flush(self) -> None:
        pass

    def steady(self, skip: int) -> float:
        """Decisions per second between the end of update ``skip`` and the last update."""
        (t0, s0), (t1, s1) = self.points[min(skip, len(self.points) - 2)], self.points[-1]
        return (s1 - s0) / (t1 - t0)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def run(env_id: str, engine: str, steps: int, overrides: dict, runs_dir: str) -> tuple[float, float, Args]:
    values = {**without_cloning(DEFAULTS.get(env_id, {})), "env_id": env_id, "engine": engine, "total_steps": steps,
              "max_minutes": 0.0, "eval_every": 0, "final_eval_deals": 1, "checkpoint_every": 10**12,
              "progress": False, "runs_dir": runs_dir, "run_name": f"{engine}_{time.time_ns()}", **overrides}
    trainer = start(Args(**values), set())
    log = SpsLog()
    trainer.train(log)
    return log.sps, log.steady(skip=3), trainer.args


def parse_overrides(items: list[str]) -> dict:
    """``--set FIELD=VALUE ...``: each value as a Python literal where it is one, else as text."""
    overrides = {}
    for item in items:
        name, _, text = item.partition("=")
        try:
            overrides[name] = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            overrides[name] = text
    return overrides


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("env_id", nargs="?", default="three_piles_v0", choices=card_envs.list_envs())
    parser.add_argument("--steps", type=int, default=4_000_000,
                        help="decisions per run (all seats): enough for the compiling of --compile (seconds, "
                             "counted in SPS) to weigh as little as in a real run")
    parser.add_argument("--rounds", type=int, default=2, help="runs per engine, interleaved; the best is kept")
    parser.add_argument("--set", nargs="*", default=[], metavar="FIELD=VALUE",
                        help="Args fields for both engines, e.g. num_games=512 actors=0 hidden=(64,)")
    args = parser.parse_args()
    from card_envs.batch import ENGINES

    if args.env_id not in ENGINES:
        parser.error(f"{args.env_id} has no batched engine to compare (there are: {', '.join(ENGINES)})")
    overrides = parse_overrides(args.set)
    best: dict[str, tuple[float, float]] = {}
    print(f"{args.env_id}: {args.steps:,} steps per run, {args.rounds} round(s), overrides {overrides or 'none'}")
    with tempfile.TemporaryDirectory() as runs_dir:
        for round_ in range(args.rounds):
            for engine in ("reference", "batch"):
                before = load()
                sps, steady, used = run(args.env_id, engine, args.steps, overrides, runs_dir)
                print(f"  round {round_ + 1} {engine:9}  SPS {sps:>8,.0f}  steady {steady:>8,.0f}  "
                      f"(load average {before} -> {load()}; num_games {used.num_games}, actors {used.actors})",
                      flush=True)
                old = best.get(engine, (0.0, 0.0))
                best[engine] = (max(old[0], sps), max(old[1], steady))
    (ref, ref_steady), (bat, bat_steady) = best["reference"], best["batch"]
    print(f"best: reference {ref:,.0f} SPS ({ref_steady:,.0f} steady), batch {bat:,.0f} SPS "
          f"({bat_steady:,.0f} steady): batch / reference = {bat / ref:.2f}x ({bat_steady / ref_steady:.2f}x steady)")


if __name__ == "__main__":
    main()
