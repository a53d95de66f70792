"""Decisions per CPU second of a game's scripted agents, beside the game's own stepping.

    python benchmarks/policy_speed.py illimat_v0 --config '{"harvest_features": true}'
    python benchmarks/policy_speed.py dominion_v0 --policies heuristic bmu --games 128 --steps 40
    python benchmarks/policy_speed.py split_the_hoard_v0 --recorded obs.npy masks.npy --batch 62

The scripted agents are the bottleneck of training where they play the opponents and label the
learner's decisions (Illimat, Dominion, Split the Hoard). The games are played by the first
policy in every seat (`card_envs.vector.VectorGames`, ``--games`` at a time, ``--steps`` steps)
and their observations and masks recorded, timing the stepping (the reference: the engine's
rate, measured in the same run); then each policy answers every recorded decision in the same
batches, from a fresh instance (empty caches), ``--rounds`` times, the best round kept; a policy
with its own (compiled) ``act_batch`` is also timed answering row by row with its ``act``, the
speed-up beside it. CPU seconds of this process: the figure for one core, robust to other work on
the machine. ``--recorded`` answers saved decisions instead (the observations and masks of another
run, e.g. the trainer's collector, as two .npy files), ``--batch`` rows at a time.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

import card_envs
from card_envs.agents import make_policy, opponent_names
from card_envs.agents.policy import Policy
from card_envs.vector import VectorGames

clock = time.process_time


def record(game, policy_name: str, games: int, steps: int, seed: int) -> tuple[list, float]:
    """The decisions of `steps` steps of `games` games, and the CPU seconds spent stepping."""
    vector, policy, rng = VectorGames(game, games, seed=seed), make_policy(policy_name, game), np.random.default_rng(seed)
    batches, stepping = [], 0.0
    for _ in range(steps):
        start = clock()
        observations, masks, _ = vector.observe()
        stepping += clock() - start
        masks = masks.astype(np.int8)
        batches.append((observations.copy(), masks))
        actions = policy.act_batch(observations, masks, rng)
        start = clock()
        vector.step(actions)
        stepping += clock() - start
    return batches, stepping


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("env_id", choices=card_envs.list_envs())
    parser.add_argument("--config", type=json.loads, default={}, help="game config as JSON")
    parser.add_argument("--policies", nargs="+", help="policies to time (default: every scripted one; "
                                                      "the first also plays the recorded games)")
    parser.add_argument("--games", type=int, default=256, help="games stepped together (default 256)")
    parser.add_argument("--steps", type=int, default=40, help="steps recorded (default 40)")
    parser.add_argument("--rounds", type=int, default=3, help="timings per policy, the best kept (default 3)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--recorded", nargs=2, metavar=("OBSERVATIONS", "MASKS"),
                        help="answer these saved decisions (.npy files) instead of playing games")
    parser.add_argument("--batch", type=int, default=62, help="rows per call with --recorded (default 62)")
    args = parser.parse_args()
    game = card_envs.make_game(args.env_id, **args.config)
    scripted = [name for name in opponent_names(game) if name != "random"]
    names = args.policies or sorted(scripted, key=lambda name: name != "heuristic")  # the scripted agent plays
    if args.recorded:
        batches, stepping = recorded(game, *args.recorded, args.batch), None
        source = f"{args.recorded[0]}, {args.batch} at a time"
    else:
        batches, stepping = record(game, names[0], args.games, args.steps, args.seed)
        source = f"{names[0]}'s games"
    decisions = sum(len(masks) for _, masks in batches)
    print(f"{args.env_id} {args.config}: {decisions:,} decisions of {source}")
    if stepping:
        print(f"  {'engine (observe + step)':<24} {decisions / stepping:>10,.0f} decisions/s")
    for name in names:
        batched = best_time(game, name, batches, args)
        versus = f"  ({batched / stepping:.2f}x the engine's time)" if stepping else ""
        print(f"  {name:<24} {decisions / batched:>10,.0f} decisions/s  {batched / decisions * 1e6:.1f} us each{versus}")
        if type(make_policy(name, game)).act_batch is not Policy.act_batch:
            rows = best_time(game, name, batches, args, per_row=True)
            print(f"  {name + ' (act per row)':<24} {decisions / rows:>10,.0f} decisions/s  "
                  f"(act_batch {rows / batched:.1f}x faster)")


def recorded(game, observations: str, masks: str, batch: int) -> list:
    """Saved observations [rows, obs] and masks [rows, actions] of this game, in batches of ``batch`` rows."""
    obs, legal = np.load(observations), np.load(masks).astype(np.int8)
    if obs.ndim != 2 or legal.shape != (len(obs), game.num_actions):
        raise SystemExit(f"--recorded takes observations [rows, obs] and masks [rows, {game.num_actions}] "
                         f"of this game, not {obs.shape} and {legal.shape}")
    if batch < 1:
        raise SystemExit(f"--batch takes a positive number of rows, not {batch}")
    return [(obs[i:i + batch], legal[i:i + batch]) for i in range(0, len(obs), batch)]


def best_time(game, name: str, batches: list, args, per_row: bool = False) -> float:
    """The fewest CPU seconds of ``--rounds`` fresh instances answering every batch (row by row
    with `act`: `Policy.act_batch`)."""
    best = float("inf")
    for _ in range(args.rounds):
        policy, rng = make_policy(name, game), np.random.default_rng(args.seed)
        act_batch = (lambda o, m, r: Policy.act_batch(policy, o, m, r)) if per_row else policy.act_batch
        if not per_row:
            act_batch(*batches[0], rng)  # compiled code loaded (numba's cache) before the clock starts
        start = clock()
        for observations, masks in batches:
            act_batch(observations, masks, rng)
        best = min(best, clock() - start)
    return best


if __name__ == "__main__":
    main()
