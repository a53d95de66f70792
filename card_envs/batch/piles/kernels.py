"""Piles' CPU path: apply, mask and observe as numba kernels over `PilesBatch`'s state tensors
(why one core and shared tensors: `card_envs.batch.cpu`)."""

from __future__ import annotations

import numpy as np
import torch
from numba import njit

from card_envs.batch.cpu import forced_decisions, piece_offsets, state_views
from card_envs.batch.piles.engine import PilesBatch
from card_envs.games.piles.rules import NEIGHBOURS

PILES_STATE = "loc height tops plen words hsize cur turns passes colour0 second"


@njit(cache=True, inline="always")
def _lemire(word, n):
    """`base.lemire` for one game."""
    low, high = word & 0xFFFFFFFF, (word >> 32) & 0xFFFFFFFF
    m = low * n
    if (m & 0xFFFFFFFF) < (0x100000000 - n) % n:
        m = high * n
    return m >> 32


@njit(cache=True)
def piles_apply(n, a, act, loc, height, tops, plen, words, hsize, cur, turns, passes, colour0, second, colour, by52):
    for b in range(a.shape[0]):
        if not act[b]:
            continue
        x, p = a[b], cur[b]
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


@njit(cache=True)
def piles_mask(loc, tops, cur, colour, rank, neighbours, mask):
    top_colour, value = np.empty(12, np.int64), np.empty(12, np.int64)  # scratch, per game
    for b in range(mask.shape[0]):
        m = mask[b]
        m[:] = False
        _piles_values(b, tops, colour, rank, neighbours, top_colour, value)
        p = cur[b]
        for c in range(52):
            if loc[b, c] == p:
                for q in range(12):
                    if colour[c] == top_colour[q] or rank[c] > value[q]:
                        m[12 * c + q] = True
        m[624] = True


@njit(cache=True)
def piles_observe(n, off, seat, loc, height, tops, turns, hsize, cur, colour0, second, colour, rank, points,
                  neighbours, by10, by20, by40, by54, obs):
    (o_hand, o_team, o_colour, o_top, o_pile, o_value, o_captured, o_unseen, o_sizes, o_turns, o_scores, o_move,
     o_second) = off
    top_colour, value = np.empty(12, np.int64), np.empty(12, np.int64)  # scratch, per game
    team_points = np.empty(2, np.int64)
    for b in range(obs.shape[0]):
        row = obs[b]
        row[:] = 0
        _piles_values(b, tops, colour, rank, neighbours, top_colour, value)
        p, c0 = seat[b], colour0[b]  # the observer, team 0's colour
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


class PilesNumba(PilesBatch):
    backend = "numba"
    _forced = forced_decisions

    def _allocate(self) -> None:
        super()._allocate()
        self.neighbours = np.array([list(q) + [-1] * (4 - len(q)) for q in NEIGHBOURS], dtype=np.int64)
        self._apply_args = state_views(self, PILES_STATE + " colour by52")
        self._mask_args = (*state_views(self, "loc tops cur colour rank"), self.neighbours)
        self._offsets = piece_offsets(self.game.observation_layout)
        self._observe_args = (*state_views(self, "loc height tops turns hsize cur colour0 second colour rank points"),
                              self.neighbours, *state_views(self, "by10 by20 by40 by54"))

    def _apply(self, a: torch.Tensor, act: torch.Tensor) -> None:
        """The actions, checked first (`_check_actions`: the kernels do not check their arrays'
        bounds; an illegal action would write into other games or past the arrays)."""
        a, act = a.numpy(), act.numpy()
        self._check_actions(a, act)
        piles_apply(self.num_players, a, act, *self._apply_args)

    def _mask(self) -> torch.Tensor:
        """The legal mask (a copy of it is kept to check the next actions with)."""
        mask = np.empty((self.batch_size, self.num_actions), dtype=np.bool_)
        piles_mask(*self._mask_args, mask)
        self._legal = mask
        return torch.from_numpy(mask.copy())

    def _observe(self, seat: torch.Tensor | None = None) -> torch.Tensor:
        obs = np.empty((self.batch_size, self.observation_size), dtype=np.float32)
        seat = self.cur if seat is None else seat
        piles_observe(self.num_players, self._offsets, seat.numpy(), *self._observe_args, obs)
        return torch.from_numpy(obs)
