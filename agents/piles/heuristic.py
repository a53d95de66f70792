"""Scripted Piles agent.

Strategy (one-step evaluation, from the observation only). A position is worth, to the team of
colour ``own`` (the other colour ``opp``), the sum over the 12 piles of:

- a pile topped by ``own``: the ``opp`` points in it (what we would score) minus the whole pile's
  points times the chance that the next player, an opponent, holds an ``opp`` card above its
  total value (he would capture it: the points we lose plus the ``own`` points he gains);
- a pile topped by ``opp``: minus the ``own`` points in it (what they would score) plus
  ``capture_weight`` times the whole pile's points times the chance that we can capture it later
  (0.5 if our remaining hand can, else the chance that the partner's hand can).

The chance that a hand of ``h`` unseen cards holds one of ``m`` useful cards among ``u`` unseen is
``1 - C(u - m, h) / C(u, h)``. Every legal placement is scored by the worth of the position it
leads to (before the colours are fixed, ``own`` is the colour of the card placed, as the first
placement fixes it); the best one is played. So it captures the most valuable pile it can, covers
piles holding Aces with high cards of its colour, lowers the tops of the opponents' piles with
cheap cards of their colour, and avoids leaving rich piles open to the next opponent. A pass
costs the expected points of the card the opponent takes (our colour's cards score for him); it is
played only when it costs less than every placement, e.g. forced, or with a hand of cards worth
nothing to him and nothing useful to place.
"""

from __future__ import annotations

import numpy as np

from card_envs.agents.policy import Policy
from card_envs.games.piles.game import PilesGame
from card_envs.games.piles.rules import (
    COLOUR, NEIGHBOURS, NUM_POSITIONS, PASS, POINTS, RANK, VALUE_HIGH, VALUE_LOW)

VALUES = range(VALUE_LOW, VALUE_HIGH + 1)


def _holds_one(unseen: int, useful: int, hand: int) -> float:
    """Chance that `hand` cards drawn from `unseen` include one of `useful` of them."""
    if hand <= 0 or useful <= 0:
        return 0.0
    miss = 1.0
    for i in range(min(hand, unseen)):
        miss *= max(unseen - useful - i, 0) / (unseen - i)
    return 1.0 - miss


class PilesHeuristic(Policy):
    name = "heuristic"

    def __init__(self, game: PilesGame, capture_weight: float = 0.5):
        self.layout = game.observation_layout
        self.num_players = game.num_players
        self.capture_weight = capture_weight

    def act(self, observation, action_mask, rng) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 1:
            return int(legal[0])
        view = self.layout.views(observation)
        hand = np.flatnonzero(view["hand"]).tolist()
        tops = view["top"].argmax(axis=1).tolist()
        values = np.rint(view["top_value"] * (VALUE_HIGH - VALUE_LOW) + VALUE_LOW).astype(int).tolist()
        points = [[0, 0] for _ in range(NUM_POSITIONS)]  # per pile: red points, black points
        for pos, card in zip(*np.nonzero(view["pile_cards"])):
            points[pos][COLOUR[card]] += POINTS[card]
        fixed = view["team_colour"][0]
        own_colour = int(fixed.argmax()) if fixed.any() else None
        unseen = np.flatnonzero(view["unseen"]).tolist()
        sizes = np.rint(view["hand_sizes"] * 10).astype(int).tolist()
        partner = sizes[2] if self.num_players == 4 else 0
        # threat[c][v]: chance the next player holds a card of colour c with rank > v; help[c][v]:
        # the same for the partner.
        threat, help_ = [], []
        for colour in (0, 1):
            above = [sum(1 for c in unseen if COLOUR[c] == colour and RANK[c] > v) for v in VALUES]
            threat.append([_holds_one(len(unseen), m, sizes[1]) for m in above])
            help_.append([_holds_one(len(unseen), m, partner) for m in above])

        def worth(tops_after, values_after, points_after, own, rest) -> float:
            opp = 1 - own
            total = 0.0
            for pos in range(NUM_POSITIONS):
                pts, v = points_after[pos], values_after[pos] - VALUE_LOW
                swing = pts[0] + pts[1]
                if COLOUR[tops_after[pos]] == own:
                    total += pts[opp] - swing * threat[opp][v]
                else:
                    ours = 0.5 if any(COLOUR[c] == own and RANK[c] > values_after[pos] for c in rest) \
                        else help_[own][v]
                    total += -pts[own] + self.capture_weight * swing * ours
            return total

        before = {}  # worth of the current position, per colour we would hold
        best_action, best_value = PASS, self._pass_cost(hand, own_colour)
        for action in legal.tolist():
            if action == PASS:
                continue
            card, pos = divmod(action, NUM_POSITIONS)
            tops_after, values_after = _after(tops, values, card, pos)
            points_after = [p if i != pos else p[:] for i, p in enumerate(points)]
            points_after[pos][COLOUR[card]] += POINTS[card]
            own = COLOUR[card] if own_colour is None else own_colour
            rest = [c for c in hand if c != card]
            if own not in before:
                before[own] = worth(tops, values, points, own, hand)
            value = worth(tops_after, values_after, points_after, own, rest) - before[own]
            if value > best_value:
                best_action, best_value = action, value
        return best_action

    @staticmethod
    def _pass_cost(hand: list[int], own: int | None) -> float:
        """Minus the expected points the opponent scores with the card he takes."""
        if own is None:
            return -sum(POINTS[c] for c in hand) / len(hand) / 2
        return -sum(POINTS[c] for c in hand if COLOUR[c] == own) / len(hand)


def _after(tops: list[int], values: list[int], card: int, pos: int) -> tuple[list[int], list[int]]:
    """Top cards and total values after placing `card` on `pos` (see the engine's `_place`)."""
    tops_after, values_after = tops[:], values[:]
    old = tops[pos]
    tops_after[pos] = card
    bonus = values[pos] - RANK[old]
    same = COLOUR[card] == COLOUR[old]
    values_after[pos] = RANK[card] + (bonus if same else -bonus)
    if not same:
        for q in NEIGHBOURS[pos]:
            values_after[q] += 2 if COLOUR[tops[q]] == COLOUR[card] else -2
    return tops_after, values_after
