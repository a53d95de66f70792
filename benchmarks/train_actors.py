"""Trainer steps per second with 1, 2, ... actor processes (``--actors``), side by side.

    python benchmarks/train_actors.py illimat_v0                     # --actors 1 vs 2, its default config
    python benchmarks/train_actors.py dominion_v0 --actors 1 2 --steps 300000 --rounds 1
    python benchmarks/train_actors.py split_the_hoard_v0 --set pretrain_games=0

Runs `python -m card_envs.train`'s Trainer for ``--steps`` decisions with each ``--actors`` value, every other
argument the same (the game's defaults from train/configs.py, without periodic evaluations,
checkpoints or cloning unless ``--set`` asks), in interleaved rounds, and prints the trainer's SPS
and its steady rate after the first updates, with the load average (the best round of each is
kept). More actors pay where the games (rules, scripted opponents, a teacher's labels) and not the
learner's updates are the bottleneck.
"""

from __future__ import annotations

import argparse
import tempfile

import card_envs
from train_engines import load, parse_overrides, run  # the sibling script: one way to run and time a trainer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("env_id", choices=card_envs.list_envs())
    parser.add_argument("--actors", type=int, nargs="+", default=[1, 2], help="values to compare (default 1 2)")
    parser.add_argument("--steps", type=int, default=500_000, help="decisions per run (all seats)")
    parser.add_argument("--rounds", type=int, default=1, help="runs per value, interleaved; the best is kept")
    parser.add_argument("--set", nargs="*", default=[], metavar="FIELD=VALUE", help="Args fields for every run")
    args = parser.parse_args()
    overrides = parse_overrides(args.set)
    best: dict[int, tuple[float, float]] = {}
    print(f"{args.env_id}: {args.steps:,} steps per run, {args.rounds} round(s), overrides {overrides}")
    with tempfile.TemporaryDirectory() as runs_dir:
        for round_ in range(args.rounds):
            for actors in args.actors:
                before = load()
                sps, steady, _ = run(args.env_id, "auto", args.steps, {**overrides, "actors": actors}, runs_dir)
                print(f"  round {round_ + 1} actors {actors}  SPS {sps:>8,.0f}  steady {steady:>8,.0f}  "
                      f"(load average {before} -> {load()})", flush=True)
                old = best.get(actors, (0.0, 0.0))
                best[actors] = (max(old[0], sps), max(old[1], steady))
    first = args.actors[0]
    for actors, (sps, steady) in best.items():
        print(f"best: actors {actors}: {sps:,.0f} SPS ({steady:,.0f} steady), "
              f"{sps / best[first][0]:.2f}x actors {first} ({steady / best[first][1]:.2f}x steady)")


if __name__ == "__main__":
    main()
