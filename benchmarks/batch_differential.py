"""The long differential run: batched engines vs the reference, every configuration and backend.

    python benchmarks/batch_differential.py [--games 10000] [--device cuda] [--auto-forced]
    python benchmarks/batch_differential.py --env split_the_hoard_v0 [--config '{"num_players": 5}']
    python benchmarks/batch_differential.py --env dominion_v0 --config '{"kingdom": "T2", "num_players": 4}' \
        --games 5000 --seed 12

Each configuration plays at least `--games` random games in both engines, comparing seats,
observations, masks, game ends and returns at every step (`card_envs.batch.check`); the test
suite runs the same check with fewer games. Prints one line per run and fails on a difference.
Split the Hoard (3 players by default), Dominion (T1-A, 2 players by default) and Illimat have
the numba backend only. A Dominion configuration's 10,000 random games take about 11 minutes on one core:
split one into runs of fewer games with different `--seed`s (each run deals its own games).
"""

from __future__ import annotations

import argparse
import json
import time

from card_envs.batch import NUMBA_ONLY, has_numba
from card_envs.batch.check import differential

CONFIGS = [("three_piles_v0", {}), ("three_piles_v0", {"num_players": 3}), ("three_piles_v0", {"num_players": 4}),
           ("three_piles_v0", {"reward": "score"}), ("piles_v0", {}), ("piles_v0", {"num_players": 2}),
           ("piles_v0", {"reward": "score"}),
           ("split_the_hoard_v0", {"num_players": 2}), ("split_the_hoard_v0", {}),
           ("split_the_hoard_v0", {"num_players": 4}), ("split_the_hoard_v0", {"num_players": 5}),
           ("split_the_hoard_v0", {"class_powers": "tiebreak_only", "reward": "score"}),
           ("dominion_v0", {}), ("dominion_v0", {"kingdom": "T1-B", "num_players": 3}),
           ("dominion_v0", {"kingdom": "T2", "num_players": 4}), ("dominion_v0", {"kingdom": "T3"}),
           ("dominion_v0", {"kingdom": "T3", "num_players": 4}),
           ("dominion_v0", {"kingdom": "random", "num_players": 3}),
           ("dominion_v0", {"kingdom": "random", "num_players": 4, "reward": "score"}),
           ("dominion_v0", {"kingdom": ["Augurs", "Wizards", "Castles", "Sauna/Avanto", "Odysseys", "Forts",
                                        "Clashes", "Townsfolk", "Village", "Market"],
                            "ally": "Mountain Folk", "num_players": 3}),
           ("illimat_v0", {}), ("illimat_v0", {"num_players": 3}), ("illimat_v0", {"num_players": 4}),
           ("illimat_v0", {"luminaries": False}), ("illimat_v0", {"num_players": 3, "stars_always": True}),
           ("illimat_v0", {"harmonic_convergence": True, "num_players": 4}), ("illimat_v0", {"full_harvest": True}),
           ("illimat_v0", {"target_score": 5, "rounds": 2, "reward": "score"})]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--auto-forced", action="store_true")
    parser.add_argument("--env", nargs="+", default=[], metavar="ENV_ID", help="only these envs' configurations")
    parser.add_argument("--config", type=json.loads, default=None,
                        help="only this configuration of the one --env (JSON keyword arguments of the env)")
    parser.add_argument("--seed", type=int, default=11, help="seeds the reference deals and the actions")
    args = parser.parse_args()
    unknown = set(args.env) - {env_id for env_id, _ in CONFIGS}
    if unknown:
        parser.error(f"--env {', '.join(sorted(unknown))}: no configuration here; there are "
                     f"{', '.join(dict.fromkeys(env_id for env_id, _ in CONFIGS))}")
    if args.config is not None and len(args.env) != 1:
        parser.error("--config needs one --env: the game it configures")
    # --config: that configuration of the one --env, listed here or not
    configs = [(args.env[0], args.config)] if args.config is not None else CONFIGS
    backends = ["torch", "numba"] if args.device == "cpu" and has_numba() else ["torch"]
    for backend in backends:
        for env_id, config in configs:
            if args.env and env_id not in args.env:
                continue
            if env_id in NUMBA_ONLY and backend != "numba":
                continue
            start = time.perf_counter()
            counts = differential(env_id, config, args.games, args.batch, args.device, seed=args.seed,
                                  backend=backend, auto_forced=args.auto_forced)
            print(f"{env_id:15} {str(config or ''):22} {args.device} {backend:6} seed {args.seed} "
                  f"{'auto_forced ' if args.auto_forced else ''}{counts['games']:>7,} games "
                  f"{counts['decisions']:>10,} decisions identical  ({time.perf_counter() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
