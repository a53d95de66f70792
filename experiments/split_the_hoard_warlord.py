"""Split the Hoard's Warlord solver (the longest run of ranks) on crowded Hauls: the slowest call.
A research probe; its findings are on docs/results/split_the_hoard_v0.md.

    python experiments/split_the_hoard_warlord.py [--hauls 400] [--seed 0]

Hauls of 10-22 fixed-rank Treasures and 3-8 modifiers (more than a game usually gives a seat),
each solved cold (caches cleared), in CPU seconds of this process; a whole game's scoring of a
3-player table at its end is timed beside it for reference.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

import card_envs
from card_envs.games.split_the_hoard import scoring

clock = time.process_time


def crowded_hauls(cs, count: int, seed: int) -> list[tuple[int, ...]]:
    rng = random.Random(seed)
    fixed = [i for i in range(cs.num_names) if cs.fixed[i]]
    mods = [i for i in range(cs.num_names) if cs.is_mod[i]]
    hauls = []
    for _ in range(count):
        tc = [0] * cs.num_names
        for i in rng.sample(fixed, min(len(fixed), rng.randint(10, 22))):
            tc[i] += 1
        for _ in range(rng.randint(3, 8)):
            tc[rng.choice(mods)] += 1
        hauls.append(tuple(tc))
    return hauls


def clear_caches() -> None:
    for cached in (scoring._run_search, scoring._subsets, scoring._fill_gaps):
        cached.cache_clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hauls", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = card_envs.make_game("split_the_hoard_v0")
    cs = game.cards
    times = []
    for tc in crowded_hauls(cs, args.hauls, args.seed):
        clear_caches()
        t = clock()
        scoring.longest_run(tc, cs)
        times.append(clock() - t)
    times.sort()
    print(f"Warlord on {args.hauls} crowded Hauls: median {times[len(times) // 2] * 1e3:.2f} ms, "
          f"slowest {times[-1] * 1e3:.2f} ms")
    rng = np.random.default_rng(args.seed)
    state = game.new_state(rng)
    while not state.is_terminal():
        state.apply(int(rng.choice(state.legal_actions())))
    clear_caches()
    t = clock()
    state.scores()
    print(f"reference: scoring one finished random 3-player game {(clock() - t) * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
