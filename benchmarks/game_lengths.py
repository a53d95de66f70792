"""Decisions per game under random play: the figures the doc pages quote ("random play took ...").

    python benchmarks/game_lengths.py split_the_hoard_v0 [--seeds 200] [--config '{"num_players": 4}']

For each seed s in 0..seeds-1: ``env.reset(seed=s)`` (the env's defaults, ``auto_forced=True``
included, so single-answer decisions are not counted), then every action drawn uniformly from the
mask with ``np.random.default_rng(s)``, counting the agents' steps until the game ends. Prints the
minimum, the 5th percentile, the median, the 95th percentile and the maximum.
"""

from __future__ import annotations

import argparse
import json

import numpy as np

import card_envs


def game_length(env, seed: int) -> int:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    for _ in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return steps


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("env_id", choices=card_envs.list_envs())
    parser.add_argument("--seeds", type=int, default=200, help="games, seeded 0..seeds-1 (default 200)")
    parser.add_argument("--config", type=json.loads, default={}, help="env arguments as a JSON object")
    args = parser.parse_args(argv)
    env = card_envs.make(args.env_id, **args.config)
    lengths = np.array([game_length(env, s) for s in range(args.seeds)])
    p5, median, p95 = np.percentile(lengths, [5, 50, 95])
    print(f"{args.env_id} {args.config or ''} over seeds 0..{args.seeds - 1}: min {lengths.min()}, 5% {p5:.0f}, "
          f"median {median:.0f}, 95% {p95:.0f}, max {lengths.max()} decisions")


if __name__ == "__main__":
    main()
