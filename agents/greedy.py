"""Greedy baseline for every game: the move that maximises the immediate score margin.

Strategy (one-step lookahead on one determinization): draw one determinization of the position
from the greedy seat's point of view (the `card_envs.agents.ismcts.SearchPolicy` hook: it never sees the
real hidden cards), apply each legal action to a copy, and value the result by the seat's
*score margin*: its team's current score (``state.scores()``, the game's own scoring rules as if
the game ended now) minus the best current score of any other team. The action with the highest
margin is played; ties are broken uniformly by the rng.

In two-sided games where a move changes only the mover's score (3 Piles), this is exactly the
move that maximises the seat's immediate score; where a move can also take points from the other
team (a capture in Piles), the margin counts that too. A move whose effect is a chance event (a
draw from the deck, a pass in Piles that gives away a random hand card) is valued on the one
sampled outcome. Moves that change no score (a draw, a discard) tie and are chosen at random.
"""

from __future__ import annotations

import numpy as np

from card_envs.agents.ismcts import Sampler, SearchPolicy, team_margins


class GreedyPolicy(SearchPolicy):
    name = "greedy"

    def __init__(self, game):
        self.game = game

    def search(self, sample: Sampler, seat: int, rng: np.random.Generator) -> int:
        state = sample(rng)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        best: list[int] = []
        best_value = -np.inf
        for action in legal:
            after = state.clone()
            after.apply(action)
            value = team_margins(self.game, after.scores())[seat]
            if value > best_value:
                best, best_value = [action], value
            elif value == best_value:
                best.append(action)
        return best[int(rng.integers(len(best)))] if len(best) > 1 else best[0]
