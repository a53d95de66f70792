"""Illimat's legal actions on crowded fields: the slowest call found, on worst cases built by hand.
A research probe; its findings are on docs/results/illimat_v0.md.

    python experiments/illimat_crowded_fields.py [--paths 20] [--games 30]

Positions: every card of the 65-card deck but the mover's hand loose in one field (harvests of
value 14 with a Fool and of 28 with the Union and two Fools), the same field with half its cards
in single stockpiles, a stockpile built from it, and a full harvest (the `full_harvest` variant).
Each is walked through its item choices along the first, the last and random legal items; every
``legal_actions()`` is timed cold (the group search's caches cleared first) and warm, in CPU
seconds of this process (robust to other work on the machine). Then games
where every seat sows into field 0 whenever it may (the policy that once built a 34-item field),
timing every call, and the scripted agent's decisions on the crowded positions.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from tqdm import tqdm

import card_envs
from card_envs.agents import make_policy
from card_envs.games.illimat import groups
from card_envs.games.illimat.cards import CARD0, DONE, FIELD0, HARVEST, ITEMS, STOCKPILE, VALUE0, cname

clock = time.process_time  # CPU time of this process: robust to other work on the machine


def crowded(hand: list[str], union: bool, piles: bool, full_harvest: bool = False):
    """Every card not in the mover's hand loose in field 0 (Summer); others' hands empty."""
    game = card_envs.make_game("illimat_v0", num_players=4, full_harvest=full_harvest)
    data = game.new_state(np.random.default_rng(0)).to_json()
    rest = [cname(c) for c in range(game.deck_cards) if cname(c) not in hand]
    loose, stockpiles = rest, []
    if piles:  # pairs of cards into single stockpiles of their total (at most 14)
        loose, pair = [], []
        for c in rest:
            pair.append(c)
            if len(pair) == 2:
                ranks = [1 if x[0] == "A" else {"J": 11, "Q": 12, "K": 13}.get(x[:-1], 0) or int(x[:-1]) for x in pair]
                if sum(ranks) <= 14 and len(stockpiles) < 20:
                    stockpiles.append({"value": sum(ranks), "kind": "single", "cards": pair})
                else:
                    loose += pair
                pair = []
        loose += pair
    lum = {"name": "Union", "face_up": True} if union else None
    data.update(deck=[], hands=[hand, [], [], []], seasons=["summer", "autumn", "winter", "spring"],
                luminaries_unused=[x for x in ("Newborn", "Changeling", "Children", "Maiden", "River", "Rake",
                                               "Forest Queen", "Union") if not (union and x == "Union")],
                fields=[{"loose": loose, "stockpiles": stockpiles, "luminary": lum, "under_children": []}]
                + [{"loose": [], "stockpiles": [], "luminary": None, "under_children": []} for _ in range(3)])
    return game.state_from_json(data)


def timed_legal(state, cold: bool) -> float:
    state._legal = None
    if cold:
        groups._MEMO.clear()
        groups._sums.cache_clear()
        groups._residues.cache_clear()
    t = clock()
    state.legal_actions()
    return clock() - t


def walk(state, prefix: list[int], rule: str, rng) -> tuple[float, float, int]:
    """Play `prefix`, then pick items by `rule` until DONE; (slowest cold, slowest warm, calls)."""
    s = state.clone()
    for a in prefix:
        s.apply(a)
    worst_cold = worst_warm = 0.0
    calls = 0
    while s.decision == ITEMS:
        worst_cold = max(worst_cold, timed_legal(s, cold=True))
        worst_warm = max(worst_warm, timed_legal(s, cold=False))
        calls += 1
        legal = s.legal_actions()
        items = [a for a in legal if a != DONE]
        if not items:
            s.apply(DONE)
            break
        s.apply(items[0] if rule == "first" else items[-1] if rule == "last" else int(rng.choice(items)))
    return worst_cold, worst_warm, calls


def card(name: str) -> int:
    return CARD0 + next(c for c in range(65) if cname(c) == name)


SCENARIOS = [
    # (name, hand, union, piles, full harvest, the move up to the items)
    ("61 loose, Fool as 14", ["AP", "2S", "3S", "4S"], False, False, False,
     [card("AP"), FIELD0, HARVEST, VALUE0 + 14]),
    ("61 loose, Union: two Fools as 28", ["AP", "AS", "2S", "3S"], True, False, False,
     [card("AP"), FIELD0, HARVEST, card("AS"), VALUE0 + 28]),
    ("61 loose, Union: 13 + 12 = 25", ["KP", "QS", "2S", "3S"], True, False, False,
     [card("KP"), FIELD0, HARVEST, card("QS")]),  # one value: not asked
    ("stockpiles and loose, Fool as 14", ["AP", "2S", "3S", "4S"], False, True, False,
     [card("AP"), FIELD0, HARVEST, VALUE0 + 14]),
    ("stockpile of 14 from a 13", ["KP", "AS", "2S", "3S"], False, False, False,
     [card("KP"), FIELD0, STOCKPILE, VALUE0 + 14]),
    ("full harvest of four Fools", ["AP", "AS", "AA", "AW"], False, False, True, [HARVEST, FIELD0]),
    ("full harvest of K Q J 10", ["KP", "QS", "JA", "10W"], False, False, True, [HARVEST, FIELD0]),
]


def crowded_positions(paths: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    print(f"{'position':38} {'items':>5} {'calls':>6} {'slowest cold':>13} {'slowest warm':>13}")
    for name, hand, union, piles, full, prefix in SCENARIOS:
        state = crowded(hand, union, piles, full)
        size = len(state.loose[0]) + len(state.piles[0])
        results = [walk(state, prefix, rule, rng) for rule in ["first", "last"] + ["random"] * paths]
        cold = max(r[0] for r in results)
        warm = max(r[1] for r in results)
        calls = sum(r[2] for r in results)
        print(f"{name:38} {size:5d} {calls:6d} {cold * 1e3:10.2f} ms {warm * 1e3:10.2f} ms")


def sowing_games(games: int, seed: int) -> None:
    """Every seat sows into field 0 when it may, else plays at random; the slowest call timed."""
    env = card_envs.make("illimat_v0", num_players=4)
    game = env.unwrapped.game
    rng = np.random.default_rng(seed)
    worst, calls, biggest = 0.0, 0, 0
    for g in tqdm(range(games), desc="sowing into field 0", leave=False):
        state = game.new_state(np.random.default_rng(seed + g))
        while not state.is_terminal():
            worst = max(worst, timed_legal(state, cold=True))
            calls += 1
            biggest = max(biggest, len(state.loose[0]) + len(state.piles[0]))
            legal = state.legal_actions()
            preferred = [a for a in (FIELD0, 69) if a in legal]  # field 0, then sow
            state.apply(preferred[0] if preferred else int(rng.choice(legal)))
    print(f"sowing into field 0: {games} games, {calls} calls, largest field {biggest} items, "
          f"slowest cold call {worst * 1e3:.2f} ms")


def agent_on_crowded(seed: int) -> None:
    """The scripted agent's slowest decision through each crowded position's move."""
    worst = 0.0
    for _, hand, union, piles, full, _ in SCENARIOS:
        state = crowded(hand, union, piles, full)
        game = state.game
        agent = make_policy("heuristic", game)
        rng = np.random.default_rng(seed)
        for _ in range(12):
            if state.is_terminal():
                break
            obs, mask = state.observation(state.current_player), state.legal_mask()
            t = clock()
            action = agent.act(obs, mask, rng)
            worst = max(worst, clock() - t)
            state.apply(int(action))
    print(f"scripted agent on the crowded positions: slowest decision {worst * 1e3:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--paths", type=int, default=20, help="random item paths per position")
    parser.add_argument("--games", type=int, default=30, help="games of sowing into field 0")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    crowded_positions(args.paths, args.seed)
    sowing_games(args.games, args.seed)
    agent_on_crowded(args.seed)


if __name__ == "__main__":
    main()
