"""Does Dominion's scripted agent leave a margin in its endgame buys that search finds?
A research probe; its findings are on docs/results/dominion_v0.md.

    python experiments/dominion_search_probe.py --deals 50 --seed 5000    # about 5 minutes, one core

A flat Monte Carlo buyer plays the scripted agent's moves, except at its buy decisions once
`--from-provinces` or fewer Provinces are left. There it tries each sensible legal buy (and
buying nothing) in `--rollouts` determinizations (`card_envs.agents.ismcts.SearchPolicy`: it never sees the
hidden cards), the same ones for every buy (common random numbers), plays every seat on with the
scripted agent to the end, and buys what won most. It plays each deal in both seatings against
the scripted agent (kingdom T1-A), as `dominion_challengers.py` does.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import card_envs  # noqa: E402
from card_envs.agents.dominion.bots import DominionHeuristic  # noqa: E402
from card_envs.agents.ismcts import SearchPolicy  # noqa: E402
from card_envs.agents.match import rotated_match, wilson_interval, win_draw_loss  # noqa: E402
from card_envs.games.dominion.cards import PILE_ID  # noqa: E402
from card_envs.games.dominion.effects import DECISIONS, DONE, PILE0  # noqa: E402

CANDIDATES = ("Province", "Duchy", "Estate", "Gold", "Silver", "Smithy", "Market", "Laboratory", "Militia")


class RolloutBuyer(SearchPolicy):
    """The scripted agent, with flat Monte Carlo over its endgame buys (module docstring)."""

    name = "rollout_buyer"

    def __init__(self, game, rollouts: int = 16, from_provinces: int = 4):
        self.bot = DominionHeuristic(game)  # acts from the observation alone: it plays every seat of the rollouts too
        self.layout, self.rollouts, self.from_provinces = game.observation_layout, rollouts, from_provinces
        self.searched = 0

    def search(self, sample, seat, rng):
        state = sample(rng)
        obs, mask = state.observation(seat), state.legal_mask()
        v = self.layout.views(obs)
        provinces = int(np.rint(v["pile_size"][PILE_ID["Province"]] * 10))
        if DECISIONS[int(np.argmax(v["decision"]))] != "buy" or provinces > self.from_provinces:
            return self.bot.act(obs, mask, rng)
        options = [DONE] + [PILE0 + PILE_ID[n] for n in CANDIDATES if mask[PILE0 + PILE_ID[n]]]
        if len(options) == 1:
            return self.bot.act(obs, mask, rng)
        self.searched += 1
        totals = np.zeros(len(options))
        for _ in range(self.rollouts):
            seed = int(rng.integers(2**62))
            for i, action in enumerate(options):
                rollout = sample(np.random.default_rng(seed))
                rollout.apply(action)
                while not rollout.is_terminal():
                    p = rollout.current_player
                    rollout.apply(self.bot.act(rollout.observation(p), rollout.legal_mask(), rng))
                totals[i] += rollout.returns()[seat]
        return options[int(np.argmax(totals))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=50, help="deals, each in both seatings")
    parser.add_argument("--seed", type=int, default=5000, help="deal d is dealt from seed + d")
    parser.add_argument("--rollouts", type=int, default=16, help="determinizations per buy considered")
    parser.add_argument("--from-provinces", type=int, default=4,
                        help="search the buys once this many Provinces or fewer are left")
    args = parser.parse_args()
    game = card_envs.make_game("dominion_v0", kingdom="T1-A")
    buyer = RolloutBuyer(game, args.rollouts, args.from_provinces)
    start = time.time()
    rewards = rotated_match(game, [buyer, DominionHeuristic(game)], args.deals, seed=args.seed)
    wins, draws, losses = win_draw_loss(rewards[:, 0])
    low, high = wilson_interval(wins, len(rewards))
    print(f"{args.rollouts} rollouts from {args.from_provinces} Provinces left: {wins} W {draws} D {losses} L, "
          f"win rate {wins / len(rewards):.3f} [{low:.3f}, {high:.3f}] ({buyer.searched} searched buys, "
          f"{time.time() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
