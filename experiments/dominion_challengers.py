"""Can a simple buy-rule bot beat Dominion's scripted agent? Variants of Smithy-BM against it.
A research probe; its findings are on docs/results/dominion_v0.md.

    python experiments/dominion_challengers.py                   # kingdom T1-A, 1,000 deals
    python experiments/dominion_challengers.py --deals 200 --only market endgame

The learning bar of issue 15 asks a checkpoint to beat the scripted agent (`heuristic`: Smithy-BM
on the default kingdom T1-A) with a Wilson-95% lower bound above 0.55 on wins. This measures how
far simple strategies get: each variant changes one rule of Smithy-BM (the Province threshold,
a $5 card bought in place of Silver, a Militia, the Smithy ratio, not taking a gain that ends
the game in a loss, a cheap split-pile card bought in place of Silver early: a Catapult, which
trashes Curse, Copper, Estate, then Silver, Encampments or Settlers; or a $2 card bought with $2,
where Smithy-BM buys nothing: Patrician or Settlers), or two or three rules (Laboratories at $5 and
a Militia; a Market, the endgame rule and Patricians); the `engine` variants build a
Village/Smithy deck instead (`Engine`). Each plays every deal in both seatings against the
heuristic (deal d from ``seed + d``, as ``python -m card_envs.evaluate`` deals). Parity here is the
heuristic's own win rate against itself (about 0.47: draws count as no win).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import card_envs  # noqa: E402
from card_envs.agents.dominion.bots import (  # noqa: E402
    ACTION_ORDER, BigSmithy, DominionBot, DominionHeuristic, SmithyBM, money_rules)
from card_envs.agents.match import rotated_match, wilson_interval, win_draw_loss  # noqa: E402
from card_envs.games.dominion.cards import CARD_ID, PILE_ID, PLUS_ACTIONS  # noqa: E402
from card_envs.games.dominion.effects import CARD0, DECISIONS, DONE, PILE0  # noqa: E402

VP = {"Province": 6, "Duchy": 3, "Estate": 1}


class Challenger(SmithyBM):
    """Smithy-BM with one rule changed (class attributes)."""

    province_money = 15  # buy Provinces once the deck's money exceeds this
    five = None  # a $5 card bought before Silver while more than 4 Provinces are left
    militia = 0  # Militias to own
    smithy_per_treasures = 11
    no_losing_end = False  # skip a gain that ends the game while behind
    cheap = None  # (pile, card, count): own `count` of that card, bought before Silver while 6+ Provinces are left
    two = None  # a $2 pile, bought when nothing above is affordable while 4+ Provinces are left
    CATAPULT_TRASH = ("Curse", "Copper", "Estate", "Silver")  # the shared bots' rule would trash Victory cards first

    def priorities(self, f):
        out = money_rules(f, self.province_money)
        if f["owned"][CARD_ID["Smithy"]] < f["treasures"] / self.smithy_per_treasures:
            out.append("Smithy")
        if self.five and f["provinces"] > 4:
            out.append(self.five)
        if f["owned"][CARD_ID["Militia"]] < self.militia:
            out.append("Militia")
        if self.cheap and f["owned"][CARD_ID[self.cheap[1]]] < self.cheap[2] and f["provinces"] > 5:
            out.append(self.cheap[0])
        out.append("Silver")
        if self.two and f["provinces"] > 3:
            out.append(self.two)
        return out

    def act(self, observation, action_mask, rng) -> int:
        v = self.layout.views(observation)
        kind = DECISIONS[int(np.argmax(v["decision"]))]
        if kind == "action" and action_mask[CARD0 + CARD_ID["Smithy"]] and not any(
                action_mask[CARD0 + c] for c in ACTION_ORDER if PLUS_ACTIONS[c] > 0):
            return CARD0 + CARD_ID["Smithy"]  # the last Action on the draw, not on a Militia or Catapult
        if kind == "catapult":
            for name in self.CATAPULT_TRASH:
                if action_mask[CARD0 + CARD_ID[name]]:
                    return CARD0 + CARD_ID[name]
        if not self.no_losing_end or kind != "buy":
            return super().act(observation, action_mask, rng)
        me, other = np.rint(v["score"][:2] * 100 - 50)
        sizes = np.rint(v["pile_size"] * 10)
        empty = int(((sizes == 0) & (v["supply_in"] > 0)).sum())
        for name in self.priorities(self._facts(observation)):
            pile = PILE_ID[name]
            if not action_mask[PILE0 + pile]:
                continue
            ends = sizes[pile] == 1 and (name == "Province" or empty >= 2)
            if ends and me + VP.get(name, 0) <= other:
                continue
            return PILE0 + pile
        return DONE


class Engine(DominionBot):
    """A Village/Smithy engine: Smithies and Militias (terminals) matched by Villages, Laboratories
    and a Market at $5, Gold at $6-7; Provinces once it is built (its Smithies bought, 22 cards, or
    6 Provinces left). In the Action phase: cantrips first, then Villages, then Smithy (its draw
    may bring a Village), then Militia."""

    smithies, villages, labs, markets, militia, duchy_from = 3, 4, 3, 1, 1, 4
    TERMINALS, VILLAGES = ("Smithy", "Militia"), ("Village", "Bustling Village", "Encampment")
    CANTRIPS = ("Laboratory", "Market", "Settlers", "Patrician", "Emporium", "Cellar")

    def priorities(self, f):
        own = {name: f["owned"][CARD_ID[name]] for name in (*self.TERMINALS, *self.VILLAGES, "Laboratory", "Market")}
        terminals, villages = sum(own[n] for n in self.TERMINALS), sum(own[n] for n in self.VILLAGES)
        built = own["Smithy"] >= self.smithies or f["cards"] >= 22 or f["provinces"] <= 6
        out = ["Province"] if built or f["money"] > 18 else []
        out += ["Duchy"] if f["provinces"] <= self.duchy_from else []
        out += ["Estate"] if f["provinces"] <= 2 else []
        out += ["Market"] if own["Market"] < self.markets and f["provinces"] > 3 else []
        out += ["Gold"]
        out += ["Laboratory"] if own["Laboratory"] < self.labs and f["provinces"] > 4 else []
        out += ["Duchy"] if f["provinces"] <= 6 else []
        out += ["Militia"] if own["Militia"] < self.militia else []
        out += ["Village"] if terminals > villages and villages < self.villages else []
        out += ["Smithy"] if own["Smithy"] < self.smithies and terminals <= villages + 1 else []
        return out + ["Silver"]

    def act(self, observation, action_mask, rng) -> int:
        v = self.layout.views(observation)
        if DECISIONS[int(np.argmax(v["decision"]))] != "action":
            return super().act(observation, action_mask, rng)
        for name in (*self.CANTRIPS, *self.VILLAGES, *self.TERMINALS):
            if action_mask[CARD0 + CARD_ID[name]]:
                return CARD0 + CARD_ID[name]
        return DONE


def variant(name: str, base: type = Challenger, **rules) -> type:
    return type(name, (base,), rules)


VARIANTS = {
    "smithy_bm": variant("smithy_bm"),
    "province_at_13": variant("province_at_13", province_money=13),
    "province_at_16": variant("province_at_16", province_money=16),
    "market": variant("market", five="Market"),
    "laboratory": variant("laboratory", five="Laboratory"),
    "militia": variant("militia", militia=1),
    "smithy_per_8": variant("smithy_per_8", smithy_per_treasures=8),
    "endgame": variant("endgame", no_losing_end=True),
    "market_endgame": variant("market_endgame", five="Market", no_losing_end=True),
    "catapult": variant("catapult", cheap=("Catapult/Rocks", "Catapult", 1)),
    "encampments": variant("encampments", cheap=("Encampment/Plunder", "Encampment", 3)),
    "settlers": variant("settlers", cheap=("Settlers/Bustling Village", "Settlers", 1)),
    "patrician_at_2": variant("patrician_at_2", two="Patrician/Emporium"),
    "settlers_at_2": variant("settlers_at_2", two="Settlers/Bustling Village"),
    "market_endgame_patrician": variant("market_endgame_patrician", five="Market", no_losing_end=True,
                                        two="Patrician/Emporium"),
    "big_smithy": BigSmithy,
    "laboratory_militia": variant("laboratory_militia", five="Laboratory", militia=1),
    "engine": Engine,
    "engine_2_militias": variant("engine_2_militias", Engine, militia=2),
    "engine_no_militia": variant("engine_no_militia", Engine, militia=0),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000, help="deals per variant, each in both seatings")
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--kingdom", default="T1-A")
    parser.add_argument("--only", nargs="*", choices=list(VARIANTS), help="these variants only")
    args = parser.parse_args(argv)
    game = card_envs.make_game("dominion_v0", kingdom=args.kingdom)
    print(f"dominion_v0 {args.kingdom}: {args.deals} deals from seed {args.seed}, each in both seatings, "
          "against the heuristic")
    print("| variant | W | D | L | win rate [Wilson 95%] |\n|---|---:|---:|---:|---|")
    for name in args.only or VARIANTS:
        rewards = rotated_match(game, [VARIANTS[name](game), DominionHeuristic(game)], args.deals, seed=args.seed)
        wins, draws, losses = win_draw_loss(rewards[:, 0])
        low, high = wilson_interval(wins, len(rewards))
        print(f"| {name} | {wins} | {draws} | {losses} | {wins / len(rewards):.3f} [{low:.3f}, {high:.3f}] |",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
