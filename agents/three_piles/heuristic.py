"""Scripted 3 Piles agent.

Strategy (one-step evaluation, from the observation only):

- Every way of putting a card on one of its own piles is valued as: immediate score gain (longest
  pile, Ace+King pile, Diamond) + 0.5 for an Ace or King that a pile still lacks (it keeps the
  +3 in reach) + 0.3 for progress - 0.4 per rank the move makes unreachable for that pile (a 9 on
  a pile topped by 6 wastes 7 and 8).
- Choose phase: take the best stack top if its value reaches ``draw_threshold``; otherwise draw
  (a draw always allows a placement, and does not show the opponent a new stack top).
- Place phase (after a draw) and the deck-empty phase: play the best card onto a pile if its
  value is at least ``discard_threshold``; otherwise discard the hand card worth least to itself
  onto a stack, preferring the card that helps the next player least and covering the stack top
  that would help the next player most.
- Pass only when it is the only legal action.

`act_batch` makes the same decisions for a batch of observations in array operations (the
trainer's opponent pool asks for thousands at once; per observation it is the slowest part of
a batched-engine rollout); a test checks it against `act` decision by decision.
"""

from __future__ import annotations

import numpy as np

from card_envs.agents.policy import Policy
from card_envs.core.cards import ACE, DIAMONDS, KING, RANK, SUIT
from card_envs.games.three_piles.game import ThreePilesGame
from card_envs.games.three_piles.rules import (
    DRAW, EMPTY_HI, EMPTY_LO, NUM_DESTINATIONS, NUM_PILES, PASS, PLAY_BASE)


def _bounds(piles: np.ndarray) -> list[list[tuple[int, int, int]]]:
    """(lowest rank, highest rank, cards) of every pile of the observation's `piles` [seat, pile, card]."""
    sizes = piles.sum(axis=-1).astype(int)
    has_rank = piles.reshape(piles.shape[:-1] + (4, 13)).any(axis=-2)  # [seat, pile, rank - 1]
    lows = has_rank.argmax(axis=-1) + 1
    highs = 13 - has_rank[..., ::-1].argmax(axis=-1)
    return [[(int(lo), int(hi), int(n)) if n else (EMPTY_LO, EMPTY_HI, 0)
             for lo, hi, n in zip(*seat)] for seat in zip(lows, highs, sizes)]


def _pile_value(card: int, bounds: tuple[int, int, int], longest: int) -> float:
    """Value of adding `card` to a pile with these `_bounds`; -inf if it can't go there."""
    lo, hi, size = bounds
    r = RANK[card]
    if size and lo <= r <= hi:
        return -np.inf
    gain = float(SUIT[card] == DIAMONDS)
    gain += max(0, size + 1 - longest)
    if r in (ACE, KING):
        has_ace_after = r == ACE or lo == ACE
        has_king_after = r == KING or hi == KING
        gain += 3.0 if (has_ace_after and has_king_after) else 0.5
    wasted = 0 if not size else (lo - r - 1 if r < lo else r - hi - 1)
    return gain + 0.3 - 0.4 * wasted


class ThreePilesHeuristic(Policy):
    name = "heuristic"

    def __init__(self, game: ThreePilesGame, draw_threshold: float = 0.8, discard_threshold: float = 0.0):
        self.layout = game.observation_layout
        self.draw_threshold = draw_threshold
        self.discard_threshold = discard_threshold

    def act(self, observation, action_mask, rng) -> int:
        view = self.layout.views(observation)
        legal = np.flatnonzero(action_mask)
        if legal.size == 1 or PASS in legal:
            return int(legal[0])
        # Bounds of each pile, computed once: every candidate card is valued against them.
        mine, theirs = _bounds(view["piles"][:2])
        longest = max(size for _, _, size in mine)
        top_rows = view["stack_top"]
        tops = np.where(top_rows.any(axis=1), top_rows.argmax(axis=1), -1).tolist()

        best_action, best_value = None, -np.inf
        for a in legal[legal < DRAW]:  # takes
            stack, pile = divmod(int(a), NUM_PILES)
            value = _pile_value(tops[stack], mine[pile], longest)
            if value > best_value:
                best_action, best_value = int(a), value
        plays = legal[(legal >= PLAY_BASE) & (legal < PASS)]
        for a in plays:
            card, dest = divmod(int(a) - PLAY_BASE, NUM_DESTINATIONS)
            if dest < NUM_PILES:
                value = _pile_value(card, mine[dest], longest)
                if value > best_value:
                    best_action, best_value = int(a), value
        if DRAW in legal and best_value < self.draw_threshold:
            return DRAW
        if best_action is not None and (best_value >= self.discard_threshold or plays.size == 0):
            return best_action
        return self._discard(plays, mine, theirs, tops, longest)

    def act_batch(self, observations, action_masks, rng) -> np.ndarray:
        legal = np.asarray(action_masks) != 0
        if not legal.any(axis=-1).all():
            raise ValueError("an action_mask row has no legal action")
        observations = np.ascontiguousarray(observations, dtype=np.float32)
        if _decide_batch is None:  # without numba: `act` per row (same decisions, slower)
            return np.array([self.act(o, m, rng) for o, m in zip(observations, legal)], dtype=np.int64)
        actions = np.empty(len(legal), dtype=np.int64)
        _decide_batch(observations, np.ascontiguousarray(legal), self.layout.slices["piles"].start,
                      self.layout.slices["stack_top"].start, self.draw_threshold, self.discard_threshold, actions)
        return actions

    def _discard(self, plays, mine, theirs, tops, longest) -> int:
        """Put on a stack the card least useful to us and to the next player."""
        their_longest = max(size for _, _, size in theirs)

        def their_value(card: int) -> float:
            return max(_pile_value(card, row, their_longest) for row in theirs)

        best, best_score = None, -np.inf
        for a in plays:
            card, dest = divmod(int(a) - PLAY_BASE, NUM_DESTINATIONS)
            if dest < NUM_PILES:
                continue
            top = tops[dest - NUM_PILES]
            keep = max(_pile_value(card, row, longest) for row in mine)
            covered = their_value(top) if top >= 0 else 0.0
            score = -max(keep, -2.0) - their_value(card) + 0.5 * max(covered, -2.0)
            if score > best_score:
                best, best_score = int(a), score
        return best


# ----- act_batch: `act` compiled over a batch -------------------------------------------------
# The trainer's opponent pool asks for a hundred decisions at a time; numpy over the batch took
# a fifth of a batched-engine rollout in sixty small array operations. This is `act` row by row
# in numba: the same float operations in the same order, so ties break alike (a test checks it
# decision by decision against `act`).
def _row_value(card: int, lo: int, hi: int, size: int, longest: int) -> float:
    """`_pile_value` on plain numbers."""
    r = card % 13 + 1
    if size and lo <= r <= hi:
        return -np.inf
    gain = 1.0 if card // 13 == DIAMONDS else 0.0
    gain += max(0, size + 1 - longest)
    if r == ACE or r == KING:
        gain += 3.0 if ((r == ACE or lo == ACE) and (r == KING or hi == KING)) else 0.5
    wasted = 0 if not size else (lo - r - 1 if r < lo else r - hi - 1)
    return gain + 0.3 - 0.4 * wasted


def _row_bounds(obs, start: int, lo, hi, size) -> None:
    """`_bounds` of the three piles whose card planes begin at ``obs[start]``."""
    for pile in range(NUM_PILES):
        lo[pile], hi[pile], size[pile] = EMPTY_LO, EMPTY_HI, 0
        for card in range(52):
            if obs[start + pile * 52 + card] != 0:
                r = card % 13 + 1
                lo[pile], hi[pile], size[pile] = min(lo[pile], r), max(hi[pile], r), size[pile] + 1


def _best_value(card: int, lo, hi, size, longest: int) -> float:
    best = -np.inf
    for p in range(NUM_PILES):
        best = max(best, _row_value(card, lo[p], hi[p], size[p], longest))
    return best


def _decide_row(obs, legal, piles: int, stack_top: int, draw_threshold: float, discard_threshold: float,
                bounds, tops) -> int:
    """`act` on one row; ``bounds`` [2, 3, pile] and ``tops`` [stack] are scratch space."""
    first, count = -1, 0
    for a in range(legal.shape[0]):
        if legal[a]:
            count += 1
            if first < 0:
                first = a
    if count == 1 or legal[PASS]:
        return first
    (lo, hi, size), (their_lo, their_hi, their_size) = bounds[0], bounds[1]
    _row_bounds(obs, piles, lo, hi, size)
    _row_bounds(obs, piles + NUM_PILES * 52, their_lo, their_hi, their_size)
    longest, their_longest = size.max(), their_size.max()
    tops[:] = -1
    for stack in range(tops.shape[0]):
        for card in range(52):
            if obs[stack_top + stack * 52 + card] != 0:
                tops[stack] = card
                break
    best_action, best_value, plays = -1, -np.inf, False
    for a in range(DRAW):  # takes
        if legal[a]:
            value = _row_value(tops[a // NUM_PILES], lo[a % NUM_PILES], hi[a % NUM_PILES], size[a % NUM_PILES], longest)
            if value > best_value:
                best_action, best_value = a, value
    for a in range(PLAY_BASE, PASS):
        if legal[a]:
            plays = True
            card, dest = divmod(a - PLAY_BASE, NUM_DESTINATIONS)
            if dest < NUM_PILES:
                value = _row_value(card, lo[dest], hi[dest], size[dest], longest)
                if value > best_value:
                    best_action, best_value = a, value
    if legal[DRAW] and best_value < draw_threshold:
        return DRAW
    if best_action >= 0 and (best_value >= discard_threshold or not plays):
        return best_action
    best_score = -np.inf  # `_discard`
    for a in range(PLAY_BASE, PASS):
        card, dest = divmod(a - PLAY_BASE, NUM_DESTINATIONS)
        if legal[a] and dest >= NUM_PILES:
            top = tops[dest - NUM_PILES]
            keep = _best_value(card, lo, hi, size, longest)
            covered = _best_value(top, their_lo, their_hi, their_size, their_longest) if top >= 0 else 0.0
            score = -max(keep, -2.0) - _best_value(card, their_lo, their_hi, their_size, their_longest) \
                + 0.5 * max(covered, -2.0)
            if score > best_score:
                best_action, best_score = a, score
    return best_action


def _decide_all(observations, legal, piles, stack_top, draw_threshold, discard_threshold, actions) -> None:
    bounds, tops = np.empty((2, 3, NUM_PILES), np.int64), np.empty(NUM_DESTINATIONS - NUM_PILES, np.int64)
    for b in range(observations.shape[0]):
        actions[b] = _decide_row(observations[b], legal[b], piles, stack_top, draw_threshold, discard_threshold,
                                 bounds, tops)


try:
    from card_envs.numba_cache import njit
except ImportError:  # numba is in the train and batch extras; a bare install plays `act` per row
    _decide_batch = None
else:
    _row_value, _row_bounds, _best_value, _decide_row = (
        njit(cache=True)(f) for f in (_row_value, _row_bounds, _best_value, _decide_row))
    _decide_batch = njit(cache=True)(_decide_all)
