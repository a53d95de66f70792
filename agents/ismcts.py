"""Search baselines: the `SearchPolicy` hook, and information-set Monte Carlo tree search.

## The hook: how a search policy gets a position without seeing hidden cards

A `Policy` decides from ``(observation, action_mask)``; a search needs game states to simulate.
`SearchPolicy` declares ``needs_state = True``, which tells a match runner (`card_envs.agents.match`'s
``play_game`` and ``rotated_match``) to call

    policy.act_state(state, seat, rng)

with the true state instead of ``act``. `act_state` is the only entry point and is not meant to
be overridden: it never hands ``state`` to the search. It passes `search` a *sampler* instead,
``sample(rng) -> State``, which returns ``state.determinize(seat, rng)``: a fresh copy in which
everything hidden from ``seat`` (the other hands, the deck order, future chance draws) is
resampled consistently with what ``seat`` has seen. So every State a search ever looks at is a
determinization: its hidden part is a random draw, independent of the real hidden cards, and the
game's own hidden-information tests check that ``determinize(seat)`` keeps exactly what ``seat``
can see (``observation(seat)`` unchanged). The seat's legal actions are the same in every
determinization, since they depend only on its own hand and public cards. A subclass implements
``search(sample, seat, rng)``; the tests check that a search touches the true state only through
``determinize(seat, ·)``, and that greedy's choice does not change when the other seats' hidden
cards are resampled.

``act(observation, action_mask, rng)`` raises a TypeError that says how to run a search policy:
a generic search cannot rebuild a state from an observation vector.

## ISMCTS

Single-observer information-set MCTS (SO-ISMCTS, Cowling, Powley & Whitehouse 2012, "Information
Set Monte Carlo Tree Search", IEEE TCIAIG 4(2)). One tree is grown from the searcher's point of
view; its nodes are action histories (every action in these games is public). Each iteration:

1. samples a determinization of the root (a new one every iteration);
2. selects down the tree among the children whose actions are legal in that determinization,
   by UCB1 with availability counts (``mean + c * sqrt(ln(available) / visits)``, where
   *available* counts the iterations in which the action was legal: the subset-armed bandit of
   the paper), each node's mean taken from the point of view of the seat that chose it;
3. expands one untried legal action;
4. plays a uniformly random rollout to the end of the game (or ``rollout_depth`` decisions, then
   values the position by ranking the current scores as if the game ended there);
5. backs the terminal returns up: each node adds ``returns[seat that chose it]``, so the
   searching seat maximises its own (its team's: teammates share returns) reward and every
   opponent node its own.

The move played is the most visited root child (ties: higher mean, then the rng). Rollouts use a
``random.Random`` seeded from the caller's numpy generator (cheaper per draw than numpy's; never
the global ``random``), so a search is reproducible from ``rng``. Cost is dominated by the rules
engine: about 10 µs per rollout decision and ~50 µs per determinization on one core.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import numpy as np

from card_envs.agents.policy import StatePolicy
from card_envs.core.game import State

Sampler = Callable[[np.random.Generator], State]


class SearchPolicy(StatePolicy):
    """Base of baselines that search over determinized states (see the module docstring).

    Subclasses implement `search`; match runners call `act_state` (``needs_state = True``)."""

    name = "search"
    needs = "the game state to search over"

    def act_state(self, state: State, seat: int, rng: np.random.Generator) -> int:
        """The action of ``seat`` (to move in ``state``): `search` over determinizations only."""
        if state.is_terminal() or state.current_player != seat:
            raise ValueError(f"{self.name}: seat {seat} is not to move in this state")

        def sample(sample_rng: np.random.Generator) -> State:
            return state.determinize(seat, sample_rng)

        return int(self.search(sample, seat, rng))

    def search(self, sample: Sampler, seat: int, rng: np.random.Generator) -> int:
        """Choose ``seat``'s action; ``sample(rng)`` is the only way to get a State."""
        raise NotImplementedError



def team_margins(game, scores) -> list[float]:
    """For every seat: its team's score minus the best score of any other team."""
    n = game.num_players
    teams = [game.team_of(s) for s in range(n)]
    best: dict[int, float] = {}
    for seat in range(n):
        best[teams[seat]] = max(best.get(teams[seat], -math.inf), scores[seat])
    out = []
    for seat in range(n):
        others = [v for t, v in best.items() if t != teams[seat]]
        out.append(best[teams[seat]] - max(others) if others else 0.0)
    return out


def _rank_of_margins(margins: list[float]) -> list[float]:
    """The win-mode value of a non-terminal position: +1 ahead, -1 behind, 0 level."""
    return [1.0 if m > 0 else -1.0 if m < 0 else 0.0 for m in margins]


class _Node:
    __slots__ = ("children", "visits", "total", "available", "seat")

    def __init__(self, seat: int):
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0  # sum of returns of `seat`, the seat whose action led here
        self.available = 1  # selections at the parent in which this action was legal (+1 at creation)
        self.seat = seat


class ISMCTS(SearchPolicy):
    """Single-observer information-set MCTS with random rollouts (see the module docstring).

    Args:
        game: the rules engine configuration (for teams and scores).
        iterations: determinize-select-expand-rollout-backpropagate cycles per decision.
        exploration: the UCB1 constant ``c`` (returns lie in [-1, 1]).
        rollout_depth: rollout decisions before a non-terminal leaf is valued by the current
            score ranking; None (default) plays every rollout to the end.
    """

    name = "ismcts"

    def __init__(self, game, iterations: int = 200, exploration: float = 0.7, rollout_depth: int | None = None):
        if not isinstance(iterations, int) or iterations < 1:
            raise ValueError(f"iterations={iterations!r} must be an integer >= 1")
        if not exploration >= 0:
            raise ValueError(f"exploration={exploration!r} must be >= 0")
        if rollout_depth is not None and (not isinstance(rollout_depth, int) or rollout_depth < 0):
            raise ValueError(f"rollout_depth={rollout_depth!r} must be None or an integer >= 0")
        self.game, self.iterations, self.exploration = game, iterations, float(exploration)
        self.rollout_depth = rollout_depth
        self.name = f"ismcts:iterations={iterations}"

    def search(self, sample: Sampler, seat: int, rng: np.random.Generator) -> int:
        fast = random.Random(int(rng.integers(2**63)))  # rollout and tie-break draws
        root = _Node(seat)
        c = self.exploration
        log = math.log
        sqrt = math.sqrt
        first_legal: list[int] | None = None
        for _ in range(self.iterations):
            state = sample(rng)
            node, path = root, [root]
            # Selection among the children legal here; expansion of one untried legal action.
            while not state.is_terminal():
                legal = state.legal_actions()
                if first_legal is None:
                    first_legal = list(legal)
                children = node.children
                untried = [a for a in legal if a not in children]
                if untried:
                    action = untried[fast.randrange(len(untried))] if len(untried) > 1 else untried[0]
                    child = children[action] = _Node(state.current_player)
                    state.apply(action)
                    path.append(child)
                    break
                best, best_score = legal[0], -math.inf
                for a in legal:
                    child = children[a]
                    child.available += 1
                    score = child.total / child.visits + c * sqrt(log(child.available) / child.visits)
                    if score > best_score:
                        best, best_score = a, score
                state.apply(best)
                node = children[best]
                path.append(node)
            values = self._rollout(state, fast)
            for n in path[1:]:
                n.visits += 1
                n.total += values[n.seat]
        if first_legal is None:
            raise ValueError("ismcts: the sampled state is terminal")
        return self._choose(root, first_legal, fast)

    def _rollout(self, state: State, fast: random.Random) -> list[float]:
        depth = self.rollout_depth
        steps = 0
        uniform = fast.random  # int(uniform() * n): a uniform index, several times cheaper than randrange
        while not state.is_terminal():
            if depth is not None and steps >= depth:
                return _rank_of_margins(team_margins(self.game, state.scores()))
            legal = state.legal_actions()
            state.apply(legal[int(uniform() * len(legal))])
            steps += 1
        return state.returns().tolist()

    @staticmethod
    def _choose(root: _Node, legal: list[int], fast: random.Random) -> int:
        best: list[int] = []
        best_key = None
        for a in legal:
            child = root.children.get(a)
            key = (0, -math.inf) if child is None else (child.visits, child.total / child.visits)
            if best_key is None or key > best_key:
                best, best_key = [a], key
            elif key == best_key:
                best.append(a)
        return best[fast.randrange(len(best))]
