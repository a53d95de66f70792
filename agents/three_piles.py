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

from agents.policy import Policy
from card_envs.core.cards import ACE, DIAMONDS, KING, RANK, SUIT
from card_envs.games.three_piles.rules import (
    DRAW, EMPTY_HI, EMPTY_LO, NUM_DESTINATIONS, NUM_PILES, PASS, PLAY_BASE, ThreePilesGame)


def _bounds(piles: np.ndarray) -> list[list[tuple[int, int, int]]]:
    """(lowest rank, highest rank, cards) of every pile of the observation's `piles` [seat, pile, card]."""
    sizes = piles.sum(axis=-1).astype(int)
    has_rank = piles.reshape(piles.shape[:-1] + (4, 13)).any(axis=-2)  # [seat, pile, rank - 1]
    lows = has_rank.argmax(axis=-1) + 1
    highs = 13 - has_rank[..., ::-1].argmax(axis=-1)
    return [[(int(lo), int(hi), int(n)) if n else (EMPTY_LO, EMPTY_HI, 0)
             for lo, hi, n in zip(*seat)] for seat in zip(lows, highs, sizes)]


def _batch_bounds(piles: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`_bounds` for a batch: (lows, highs, sizes), each [B, seat, pile], empty piles at
    (EMPTY_LO, EMPTY_HI, 0)."""
    sizes = piles.sum(axis=-1).astype(np.int64)
    has_rank = piles.reshape(piles.shape[:-1] + (4, 13)).any(axis=-2)
    empty = sizes == 0
    lows = np.where(empty, EMPTY_LO, has_rank.argmax(axis=-1) + 1)
    highs = np.where(empty, EMPTY_HI, 13 - has_rank[..., ::-1].argmax(axis=-1))
    return lows, highs, sizes


_RANKS, _DIAMOND = np.array(RANK[:52]), np.array(SUIT[:52]) == DIAMONDS


def _pile_values(cards: np.ndarray, lo: np.ndarray, hi: np.ndarray, size: np.ndarray, longest: np.ndarray
                 ) -> np.ndarray:
    """`_pile_value` elementwise over broadcast arrays (cards >= 0), in the same float
    operations in the same order, so that ties break alike."""
    r = _RANKS[cards]
    gain = _DIAMOND[cards].astype(np.float64) + np.maximum(0, size + 1 - longest)
    ace_king = (r == ACE) | (r == KING)
    both = ((r == ACE) | (lo == ACE)) & ((r == KING) | (hi == KING))
    gain = np.where(ace_king, gain + np.where(both, 3.0, 0.5), gain)
    wasted = np.where(size == 0, 0, np.where(r < lo, lo - r - 1, r - hi - 1))
    value = gain + 0.3 - 0.4 * wasted
    return np.where((size > 0) & (lo <= r) & (r <= hi), -np.inf, value)


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
        view = self.layout.views(np.asarray(observations))
        legal = np.asarray(action_masks) != 0
        if not legal.any(axis=-1).all():
            raise ValueError("an action_mask row has no legal action")
        rows = np.arange(len(legal))[:, None]
        lows, highs, sizes = _batch_bounds(view["piles"][:, :2])  # [B, seat (me, next), pile]
        longest = sizes.max(axis=-1)  # [B, seat]
        top_rows = view["stack_top"]
        tops = np.where(top_rows.any(axis=-1), top_rows.argmax(axis=-1), -1)  # [B, stack]

        def values(cards, seat):  # cards [B, K] on each of `seat`'s piles: [B, K, pile]
            return _pile_values(np.maximum(cards, 0)[..., None], lows[:, None, seat], highs[:, None, seat],
                                sizes[:, None, seat], longest[:, seat, None, None])

        # The cards that can be played, ascending: [B, H] (H = the largest such hand), so that
        # values are computed for a few cards per row instead of all 52.
        play_legal = legal[:, PLAY_BASE:PASS].reshape(len(legal), -1, NUM_DESTINATIONS)  # [B, card, dest]
        playable = play_legal.any(axis=-1)
        hand = np.argsort(~playable, axis=1, kind="stable")[:, :max(1, playable.sum(axis=1).max())]
        play_ok = play_legal[rows, hand] & playable[rows, hand][..., None]  # [B, H, dest]

        # Takes (stack, pile), then plays onto own piles (card, pile), in ascending action order:
        # the first maximum is the one `act` keeps (it replaces only on a strictly larger value).
        takes = np.where(legal[:, :DRAW], values(tops, 0).reshape(len(legal), -1), -np.inf)
        plays = values(hand, 0)  # [B, H, pile]
        candidates = np.concatenate([takes, np.where(play_ok[..., :NUM_PILES], plays, -np.inf)
                                     .reshape(len(legal), -1)], axis=1)
        best = candidates.argmax(axis=1)
        best_value = candidates[rows[:, 0], best]
        play_actions = PLAY_BASE + hand[..., None] * NUM_DESTINATIONS + np.arange(NUM_DESTINATIONS)  # [B, H, dest]
        best_action = np.where(best < DRAW, best, play_actions[..., :NUM_PILES].reshape(len(legal), -1)[
            rows[:, 0], np.maximum(best - DRAW, 0)])

        # Discards (card, stack), scored as `_discard` does.
        keep = np.maximum(plays.max(axis=-1), -2.0)  # [B, H]
        theirs = values(hand, 1).max(axis=-1)  # [B, H]
        covered = np.where(tops >= 0, values(tops, 1).max(axis=-1), 0.0)  # [B, stack]
        scores = (-keep - theirs)[:, :, None] + 0.5 * np.maximum(covered, -2.0)[:, None, :]
        scores = np.where(play_ok[..., NUM_PILES:], scores, -np.inf).reshape(len(legal), -1)
        discard_action = play_actions[..., NUM_PILES:].reshape(len(legal), -1)[rows[:, 0], scores.argmax(axis=1)]

        keep_best = (best_value > -np.inf) & ((best_value >= self.discard_threshold) | ~playable.any(axis=1))
        action = np.where(keep_best, best_action, discard_action)
        action = np.where(legal[:, DRAW] & (best_value < self.draw_threshold), DRAW, action)
        trivial = (legal.sum(axis=1) == 1) | legal[:, PASS]
        return np.where(trivial, legal.argmax(axis=1), action).astype(np.int64)

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
