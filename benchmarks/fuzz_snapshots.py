"""The snapshot fuzz of `tests/envs/test_snapshot_fuzz.py`, longer: every registered game and test
configuration, COUNT mutated snapshots each.

    python benchmarks/fuzz_snapshots.py --count 20000 [--seed 0] [ENV_ID ...]
"""

from __future__ import annotations

import argparse
import sys
import time

from tqdm import tqdm

import card_envs
from card_envs.core.snapshot_fuzz import fuzz

CHUNK = 500  # mutations per fuzz() call: one progress-bar step


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("env_ids", nargs="*", metavar="ENV_ID", help="default: every registered env")
    parser.add_argument("--count", type=int, default=20_000, help="mutated snapshots per configuration")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    failed = 0
    for env_id in args.env_ids or card_envs.list_envs():
        for config in card_envs.spec(env_id).test_configs:
            game = card_envs.make_game(env_id, **config)
            refused = accepted = 0
            failures: list[str] = []
            start = time.process_time()
            for chunk in tqdm(range(0, args.count, CHUNK), desc=f"{env_id} {config}", leave=False):
                report = fuzz(game, seed=args.seed * 1_000_003 + chunk, count=min(CHUNK, args.count - chunk))
                refused += report.outcomes["refused"]
                accepted += report.outcomes["accepted"]
                failures += report.failures
            seconds = time.process_time() - start
            print(f"{env_id} {config}: {args.count} mutated snapshots, {refused} refused, {accepted} accepted "
                  f"(played out), {len(failures)} failures ({seconds:.0f} CPU s)")
            for failure in failures[:5]:
                print("   ", failure)
            failed += len(failures)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
