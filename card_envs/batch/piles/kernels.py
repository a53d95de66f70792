"""Piles' CPU path: apply, mask and observe as numba kernels over `PilesBatch`'s state tensors
(why one core and shared tensors: `card_envs.batch.cpu`)."""

from __future__ import annotations

import numpy as np
import torch
from card_envs.numba_cache import njit

from card_envs.batch.base import reusable
from card_envs.batch.cpu import forced_decisions, piece_offsets, state_views
from card_envs.batch.numba_borrow import borrowed
from card_envs.batch.numba_checks import all_legal
from card_envs.batch.numba_copy import copy_run, zero_row
from card_envs.batch.numba_prefetch import prefetch_rows
from card_envs.batch.piles.engine import PilesBatch
from card_envs.games.piles.rules import NEIGHBOURS

BLOCK = 16  # games a block: the next block's state rows are asked from memory while one plays
PILES_STATE = "loc height tops plen words hsize cur turns passes colour0 second"


@njit(cache=True, inline="always")
def _lemire(word, n):
    """`base.lemire` for one game."""
    low, high = word & 0xFFFFFFFF, (word >> 32) & 0xFFFFFFFF
    m = low * n
    if (m & 0xFFFFFFFF) < (0x100000000 - n) % n:
        m = high * n
    return m >> 32


@njit(cache=True, inline="always")
def _piles_apply_row(b, x, n, loc, height, tops, plen, words, hsize, cur, turns, passes, colour0, second, colour, by52):
    p = cur[b]
    if x == 624:  # pass: the next seat's team takes the i-th card of p's hand
        i = _lemire(words[b, passes[b]], hsize[b, p])
        for c in range(52):
            if loc[b, c] == p:
                if i == 0:
                    loc[b, c] = 16 + (p + 1) % n % 2
                    break
                i -= 1
        passes[b] += 1
    else:
        c, q = x // 12, x % 12
        loc[b, c] = 4 + q
        height[b, c] = by52[plen[b, q] + 1]
        plen[b, q] += 1
        tops[b, q] = c
        if colour0[b] < 0:  # the first placement fixes the colours
            colour0[b] = colour[c] if p % 2 == 0 else 1 - colour[c]
    hsize[b, p] -= 1
    turns[b] += 1
    cur[b] = (p + 1) % n
    if n == 2 and turns[b] == 20 and not second[b]:  # deal the set-aside cards
        for c in range(52):
            if loc[b, c] >= 18:
                loc[b, c] -= 18
        hsize[b, 0] = hsize[b, 1] = 10
        second[b] = True


@njit(cache=True)
def piles_apply(n, a, act, loc, height, tops, plen, words, hsize, cur, turns, passes, colour0, second, colour, by52):
    (loc, height, tops, plen, words, hsize, cur, turns, passes, colour0, second, colour, by52) = borrowed((
        loc, height, tops, plen, words, hsize, cur, turns, passes, colour0, second, colour, by52))
    for b in range(a.shape[0]):
        if act[b]:
            _piles_apply_row(b, a[b], n, loc, height, tops, plen, words, hsize, cur, turns, passes, colour0, second,
                             colour, by52)


@njit(cache=True, inline="always")
def _piles_values(b, tops, colour, rank, neighbours, top_colour, value):
    for q in range(12):
        top_colour[q] = colour[tops[b, q]]
    for q in range(12):
        v = rank[tops[b, q]]
        for j in range(4):
            near = neighbours[q, j]
            if near >= 0:
                v += 1 if top_colour[near] == top_colour[q] else -1
        value[q] = v


@njit(cache=True, inline="always")
def _piles_mask_row(b, loc, cur, colour, rank, top_colour, value, m):
    """Game b's mask into `m`, its tops' colours and values given."""
    zero_row(m)
    p = cur[b]
    for c in range(52):
        if loc[b, c] == p:
            card_colour, card_rank = colour[c], rank[c]
            for q in range(12):  # a store without a branch: the loop vectorises
                m[12 * c + q] = (card_colour == top_colour[q]) | (card_rank > value[q])
    m[624] = True


@njit(cache=True)
def piles_mask(loc, tops, cur, colour, rank, neighbours, work, mask):
    (loc, tops, cur, colour, rank, neighbours, work, mask) = borrowed((
        loc, tops, cur, colour, rank, neighbours, work, mask))
    top_colour, value = work[:12], work[12:24]  # scratch, per game
    for b in range(mask.shape[0]):
        _piles_values(b, tops, colour, rank, neighbours, top_colour, value)
        _piles_mask_row(b, loc, cur, colour, rank, top_colour, value, mask[b])


@njit(cache=True, inline="always")
def _piles_observe_row(b, p, n, off, loc, height, tops, turns, hsize, cur, colour0, second, colour, points, by10, by20,
                       by40, by54, top_colour, value, team_points, row):
    """Game b's observation by seat p into `row`, its tops' colours and values given."""
    (o_hand, o_team, o_colour, o_top, o_pile, o_value, o_captured, o_unseen, o_sizes, o_turns, o_scores, o_move,
     o_second) = off
    zero_row(row)
    c0 = colour0[b]  # team 0's colour
    team = p % 2
    team_points[:] = 0
    for c in range(52):
        code = loc[b, c]
        if code < 4:
            row[(o_hand if code == p else o_unseen) + c] = 1
            continue
        if code >= 18:  # set aside
            row[o_unseen + c] = 1
            continue
        if code < 16:  # on the Castle: held by the team of its pile's top colour
            row[o_pile + (code - 4) * 52 + c] = height[b, c]
            holder_colour = top_colour[code - 4]
            holder = 0 if holder_colour == c0 else 1
        else:  # captured
            holder = code - 16
            row[o_captured + (0 if holder == team else 1) * 52 + c] = 1
            holder_colour = c0 if holder == 0 else 1 - c0
        if colour[c] != holder_colour:
            team_points[holder] += points[c]
    row[o_team + team] = 1
    if c0 >= 0:
        own = c0 if team == 0 else 1 - c0
        row[o_colour + own] = 1
        row[o_colour + 2 + 1 - own] = 1
        row[o_scores] = by54[team_points[team]]
        row[o_scores + 1] = by54[team_points[1 - team]]
    else:
        row[o_scores] = row[o_scores + 1] = by54[0]
    for q in range(12):
        row[o_top + 52 * q + tops[b, q]] = 1
        row[o_value + q] = by20[value[q] + 3]
    for rel in range(n):
        row[o_sizes + rel] = by10[hsize[b, (p + rel) % n]]
    row[o_turns] = by40[40 - turns[b]]
    row[o_move + (cur[b] - p) % n] = 1
    row[o_second] = second[b]


@njit(cache=True)
def piles_observe(n, off, seat, loc, height, tops, turns, hsize, cur, colour0, second, colour, rank, points,
                  neighbours, by10, by20, by40, by54, work, obs):
    (off, loc, height, tops, turns, hsize, cur, colour0, second, colour, rank, points, neighbours, by10, by20, by40,
     by54, work, obs) = borrowed((
        off, loc, height, tops, turns, hsize, cur, colour0, second, colour, rank, points, neighbours, by10, by20,
        by40, by54, work, obs))
    top_colour, value, team_points = work[:12], work[12:24], work[24:]  # scratch, per game
    for b in range(obs.shape[0]):
        _piles_values(b, tops, colour, rank, neighbours, top_colour, value)
        _piles_observe_row(b, seat[b], n, off, loc, height, tops, turns, hsize, cur, colour0, second, colour, points,
                           by10, by20, by40, by54, top_colour, value, team_points, obs[b])


@njit(cache=True, inline="always")
def _piles_rows_after(b, n, off, loc, height, tops, turns, hsize, cur, colour0, second, colour, rank, points,
                      neighbours, by10, by20, by40, by54, top_colour, value, team_points, legal, mask, obs):
    """Game b's mask (into mask[b] and legal[b]) and its acting seat's observation (obs[b])."""
    _piles_values(b, tops, colour, rank, neighbours, top_colour, value)
    m = mask[b]
    _piles_mask_row(b, loc, cur, colour, rank, top_colour, value, m)
    copy_run(legal[b], 0, m, 0, m.shape[0])
    _piles_observe_row(b, cur[b], n, off, loc, height, tops, turns, hsize, cur, colour0, second, colour, points,
                       by10, by20, by40, by54, top_colour, value, team_points, obs[b])


@njit(cache=True)
def piles_step(n, a, legal, mask, obs, off, loc, height, tops, plen, words, hsize, cur, turns, passes,
               colour0, second, colour, by52, rank, points, neighbours, by10, by20, by40, by54, work):
    """Every game plays a[b], then its mask into mask[b] and legal[b] (the engine's own copy) and
    its acting seat's observation into obs[b], one game at a time: its state is read from memory
    once for the three. False, with nothing applied, unless every action is one `legal` allows (the
    kernels do not check their arrays' bounds). A game that ended gets a stale mask and
    observation, redone by `piles_refresh` once it is dealt."""
    if not all_legal(a, legal):
        return False
    (legal, mask, obs, off, loc, height, tops, plen, words, hsize, cur, turns, passes, colour0, second, colour,
     by52, rank, points, neighbours, by10, by20, by40, by54, work) = borrowed((
        legal, mask, obs, off, loc, height, tops, plen, words, hsize, cur, turns, passes, colour0, second,
        colour, by52, rank, points, neighbours, by10, by20, by40, by54, work))  # no reference counts in the helpers
    top_colour, value, team_points = work[:12], work[12:24], work[24:]  # scratch, per game
    B = a.shape[0]
    for start in range(0, B, BLOCK):
        end = min(B, start + BLOCK)
        # The next block's state rows (but the pass draws', read at one place), asked from memory
        # meanwhile: the observations written since a game's last step pushed them out.
        prefetch_rows((loc, height, tops, plen, hsize, cur, turns, passes, colour0, second), end, min(B, end + BLOCK))
        for b in range(start, end):
            _piles_apply_row(b, a[b], n, loc, height, tops, plen, words, hsize, cur, turns, passes, colour0, second,
                             colour, by52)
            _piles_rows_after(b, n, off, loc, height, tops, turns, hsize, cur, colour0, second, colour, rank, points,
                              neighbours, by10, by20, by40, by54, top_colour, value, team_points, legal, mask, obs)
    return True


@njit(cache=True)
def piles_refresh(rows, n, off, loc, height, tops, turns, hsize, cur, colour0, second, colour, rank, points, neighbours,
                  by10, by20, by40, by54, work, legal, mask, obs):
    """The mask and acting seat's observation of the games in `rows` again (dealt since)."""
    (off, loc, height, tops, turns, hsize, cur, colour0, second, colour, rank, points, neighbours, by10, by20, by40,
     by54, work, legal, mask, obs) = borrowed((
        off, loc, height, tops, turns, hsize, cur, colour0, second, colour, rank, points, neighbours, by10, by20,
        by40, by54, work, legal, mask, obs))
    top_colour, value, team_points = work[:12], work[12:24], work[24:]  # scratch, per game
    for b in rows:
        _piles_rows_after(b, n, off, loc, height, tops, turns, hsize, cur, colour0, second, colour, rank, points,
                          neighbours, by10, by20, by40, by54, top_colour, value, team_points, legal, mask, obs)


class PilesNumba(PilesBatch):
    """The numba CPU path. A step of every game (``auto_forced`` off) is one fused kernel,
    `piles_step`: the actions checked, then apply, mask and observation game by game; the step's
    mask and observations are then handed out by `_mask` and `_observe` (`_ready`), and the games
    dealt since are redone (`piles_refresh`). The arrays it returns come from pools of those
    nothing holds any more (`reusable`): fresh memory costs a zeroing of every page."""
    backend = "numba"
    _forced = forced_decisions

    def _allocate(self) -> None:
        super()._allocate()
        self._ready: tuple[np.ndarray, np.ndarray] | None = None
        self._legal = np.zeros((self.batch_size, self.num_actions), dtype=np.bool_)  # own copy of the mask
        self._mask_pool: list[np.ndarray] = []
        self.neighbours = np.array([list(q) + [-1] * (4 - len(q)) for q in NEIGHBOURS], dtype=np.int64)
        work = np.empty(26, dtype=np.int64)  # the kernels' scratch: tops' colours and values, team points
        self._apply_args = state_views(self, PILES_STATE + " colour by52")
        self._mask_args = (*state_views(self, "loc tops cur colour rank"), self.neighbours, work)
        self._offsets = piece_offsets(self.game.observation_layout)
        self._observe_args = (*state_views(self, "loc height tops turns hsize cur colour0 second colour rank points"),
                              self.neighbours, *state_views(self, "by10 by20 by40 by54"), work)
        self._step_args = (self._offsets, *self._apply_args, *state_views(self, "rank points"), self.neighbours,
                           *state_views(self, "by10 by20 by40 by54"), work)

    def _deal(self, rows: torch.Tensor) -> None:
        super()._deal(rows)
        if self._ready is not None:  # the step's mask and observations, those of the new games again
            piles_refresh(rows.numpy(), self.num_players, self._offsets, *self._observe_args, self._legal,
                          *self._ready)

    def _load(self, states, rows: torch.Tensor) -> None:
        self._ready = None
        super()._load(states, rows)

    def _apply(self, actions: torch.Tensor, active: torch.Tensor) -> None:
        self._fused_apply(actions, active, lambda a, on: piles_apply(self.num_players, a, on, *self._apply_args),
                          lambda a, mask, obs: piles_step(self.num_players, a, self._legal, mask, obs,
                                                          *self._step_args))

    def _step_mask(self) -> np.ndarray:  # pooled: see `reusable`
        return reusable(self._mask_pool, (self.batch_size, self.num_actions), np.bool_)

    def _mask(self) -> torch.Tensor:
        """The legal mask (the engine keeps its own copy, `_legal`, to check the next actions with)."""
        if self._ready is not None:
            return torch.from_numpy(self._ready[0])
        mask = self._step_mask()
        piles_mask(*self._mask_args, mask)
        np.copyto(self._legal, mask)
        return torch.from_numpy(mask)

    def _observe(self, seat: torch.Tensor | None = None) -> torch.Tensor:
        if seat is None and self._ready is not None:  # the step's, once
            obs, self._ready = self._ready[1], None
            return torch.from_numpy(obs)
        obs = self._step_observations() if seat is None else np.empty((self.batch_size, self.observation_size),
                                                                      dtype=np.float32)
        seat = self.cur if seat is None else seat
        piles_observe(self.num_players, self._offsets, seat.numpy(), *self._observe_args, obs)
        return torch.from_numpy(obs)
