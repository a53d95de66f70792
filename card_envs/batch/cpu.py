"""The CPU path of the batched engines: the hot three (`_apply`, `_mask`, `_observe`) as numba
kernels over the same state tensors, one compiled loop over the games on one core; for 3 Piles
also the forced decisions (`_play_forced`: each game plays its own to the end in one call,
instead of a whole-batch pass per forced decision), the deal and the returns.

One core, not ``prange``: numba's OpenMP pool and torch's are two runtimes whose idle threads
spin against each other, which made a step several times slower beside torch (a trainer's
actor, or any load on a small machine); one engine per process scales instead. A serial loop
also keeps per-game scratch out of the loop.

On a CPU a step of the torch engine is some fifty whole-batch tensor operations, each a pass
over memory; these kernels visit each game once. Loads, `state(i)` and the deals'
shuffles stay the torch code: the state tensors are shared (the kernels see them as numpy
views), so both paths play the same games, and the differential tests run both. Requires numba
(the ``batch`` or ``train`` extra).
"""

from __future__ import annotations

import numpy as np
import torch
from numba import njit

from card_envs.batch.piles import PilesBatch
from card_envs.batch.three_piles import DECK, EMPTY_HI, EMPTY_LO, MAX_SCORE, ThreePilesBatch


def _np(engine, names: str) -> tuple[np.ndarray, ...]:
    """Numpy views of the engine's state tensors (no copies: the kernels write the state). The
    numba engines update their tensors in place only, so the views are taken once."""
    return tuple(getattr(engine, name).numpy() for name in names.split())


@njit(cache=True)
def single_legal(mask, forced, action):
    """forced[b]: row b has exactly one legal action; action[b]: its first legal action (0 if none)."""
    for b in range(mask.shape[0]):
        row, first, count = mask[b], 0, 0
        for a in range(row.shape[0]):
            if row[a]:
                if count == 0:
                    first = a
                count += 1
                if count == 2:
                    break
        forced[b], action[b] = count == 1, first


def _forced(engine, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """`BatchGame._forced` in one pass over the mask."""
    forced = np.empty(engine.batch_size, dtype=np.bool_)
    action = np.empty(engine.batch_size, dtype=np.int64)
    single_legal(mask.numpy(), forced, action)
    return torch.from_numpy(forced), torch.from_numpy(action)


def _offsets(layout) -> np.ndarray:
    return np.array([sl.start for sl in layout.slices.values()], dtype=np.int64)


# ----- 3 Piles --------------------------------------------------------------------------------
TP_STATE = "loc spos stack_ord stack_len deck deck_len lo hi plen diamonds hsize cur phase passes"


@njit(cache=True, inline="always")
def _tp_to_pile(b, p, k, c, loc, lo, hi, plen, diamonds, rank, diamond):
    loc[b, c] = 4 + 3 * p + k
    pid, r = 3 * p + k, rank[c]
    lo[b, pid] = min(lo[b, pid], r)
    hi[b, pid] = max(hi[b, pid], r)
    plen[b, pid] += 1
    diamonds[b, p] += diamond[c]


@njit(cache=True, inline="always")
def _tp_apply_row(b, x, n, loc, spos, stack_ord, stack_len, deck, deck_len, lo, hi, plen, diamonds, hsize, cur,
                  phase, passes, rank, diamond, by52):
    p = cur[b]
    if x == 9:  # draw, then place
        deck_len[b] -= 1
        c = deck[b, deck_len[b]]
        loc[b, c] = p
        hsize[b, p] += 1
        phase[b] = 1
        return
    if x == 322:
        passes[b] += 1
    else:
        passes[b] = 0
        if x < 9:  # take the top of stack s onto pile k
            s, k = x // 3, x % 3
            size = stack_len[b, s] - 1
            stack_len[b, s] = size
            _tp_to_pile(b, p, k, stack_ord[b, 52 * s + size], loc, lo, hi, plen, diamonds, rank, diamond)
            if size == 0 and deck_len[b] > 0:  # refill from the deck
                deck_len[b] -= 1
                c = deck[b, deck_len[b]]
                loc[b, c], spos[b, c], stack_ord[b, 52 * s], stack_len[b, s] = 16 + s, by52[1], c, 1
        else:  # play hand card c to destination d
            c, d = (x - 10) // 6, (x - 10) % 6
            hsize[b, p] -= 1
            if d < 3:
                _tp_to_pile(b, p, d, c, loc, lo, hi, plen, diamonds, rank, diamond)
            else:
                s = d - 3
                size = stack_len[b, s]
                loc[b, c], spos[b, c], stack_len[b, s] = 16 + s, by52[size + 1], size + 1
                stack_ord[b, 52 * s + size] = c
    cur[b] = (p + 1) % n
    phase[b] = 0


@njit(cache=True)
def tp_apply(n, a, act, loc, spos, stack_ord, stack_len, deck, deck_len, lo, hi, plen, diamonds, hsize, cur,
             phase, passes, rank, diamond, by52):
    for b in range(a.shape[0]):
        if act[b]:
            _tp_apply_row(b, a[b], n, loc, spos, stack_ord, stack_len, deck, deck_len, lo, hi, plen, diamonds,
                          hsize, cur, phase, passes, rank, diamond, by52)


@njit(cache=True, inline="always")
def _tp_mask_row(b, loc, stack_ord, stack_len, deck_len, lo, hi, cur, phase, rank, m):
    m[:] = False
    p, choose, deck_empty = cur[b], phase[b] == 0, deck_len[b] == 0
    legal = False
    if choose:
        for s in range(3):
            if stack_len[b, s] > 0:
                r = rank[stack_ord[b, 52 * s + stack_len[b, s] - 1]]
                for k in range(3):
                    if r < lo[b, 3 * p + k] or r > hi[b, 3 * p + k]:
                        m[3 * s + k] = legal = True
        if not deck_empty:
            m[9] = True
            return
    for c in range(52):
        if loc[b, c] == p:
            r, base = rank[c], 10 + 6 * c
            for k in range(3):
                if r < lo[b, 3 * p + k] or r > hi[b, 3 * p + k]:
                    m[base + k] = True
            m[base + 3] = m[base + 4] = m[base + 5] = legal = True
    if choose and not legal:
        m[322] = True


@njit(cache=True)
def tp_mask(loc, stack_ord, stack_len, deck_len, lo, hi, cur, phase, rank, mask):
    for b in range(mask.shape[0]):
        _tp_mask_row(b, loc, stack_ord, stack_len, deck_len, lo, hi, cur, phase, rank, mask[b])


@njit(cache=True)
def tp_play_forced(n, loc, spos, stack_ord, stack_len, deck, deck_len, lo, hi, plen, diamonds, hsize, cur,
                   phase, passes, rank, diamond, by52, mask, ended):
    """`BatchGame._play_forced` game by game: each plays its single-choice decisions until it has
    a real choice (its row of `mask`) or its game ends (`ended`; that row of `mask` is stale)."""
    for b in range(mask.shape[0]):
        ended[b] = False
        m = mask[b]
        while True:
            _tp_mask_row(b, loc, stack_ord, stack_len, deck_len, lo, hi, cur, phase, rank, m)
            first, count = 0, 0
            for a in range(m.shape[0]):
                if m[a]:
                    first, count = (a if count == 0 else first), count + 1
                    if count == 2:
                        break
            if count != 1:
                break
            _tp_apply_row(b, first, n, loc, spos, stack_ord, stack_len, deck, deck_len, lo, hi, plen, diamonds,
                          hsize, cur, phase, passes, rank, diamond, by52)
            if passes[b] >= n:  # `_terminal`
                ended[b] = True
                break


@njit(cache=True)
def tp_deal(rows, perm, first, n, deal_code, loc, spos, stack_ord, stack_len, deck, deck_len, lo, hi, plen,
            diamonds, hsize, cur, phase, passes, by52):
    """`ThreePilesBatch._deal` game by game: row i of the shuffled decks `perm` deals game rows[i]."""
    for i in range(rows.shape[0]):
        b, order = rows[i], perm[i]
        loc[b, :] = DECK
        for j in range(order.shape[0]):
            loc[b, order[j]] = deal_code[j]
        spos[b, :], stack_ord[b, :], deck[b, :] = 0, 0, 0
        for s in range(3):  # order[first + 2 - s] lies on stack s
            top = order[first + 2 - s]
            spos[b, top], stack_ord[b, 52 * s], stack_len[b, s] = by52[1], top, 1
        stack_len[b, 3] = 0
        deck[b, :first] = order[:first]
        deck_len[b] = first
        lo[b, :], hi[b, :], plen[b, :], diamonds[b, :] = EMPTY_LO, EMPTY_HI, 0, 0
        hsize[b, :n], hsize[b, n:] = 3, 0
        cur[b] = phase[b] = passes[b] = 0


@njit(cache=True)
def tp_returns(rows, n, win, max_score, lo, hi, plen, diamonds, out):
    """`ThreePilesBatch._returns` game by game, in float64 as the torch code computes them."""
    score = np.empty(n)
    for i in range(rows.shape[0]):
        b = rows[i]
        for q in range(n):  # longest pile + 3 per Ace-King pile + diamonds
            longest, ace_kings = 0, 0
            for k in range(3):
                longest = max(longest, plen[b, 3 * q + k])
                ace_kings += (lo[b, 3 * q + k] == 1) & (hi[b, 3 * q + k] == 13)
            score[q] = longest + 3 * ace_kings + diamonds[b, q]
        total = score.sum()
        for q in range(n):
            if win:  # (seats beaten - seats beating it) / (n - 1)
                net = 0
                for r in range(n):
                    net += (score[q] > score[r]) - (score[q] < score[r])
                out[i, q] = net / (n - 1)
            else:
                out[i, q] = (score[q] - (total - score[q]) / (n - 1)) / max_score


def tp_card_offsets(n: int, layout) -> np.ndarray:
    """int64[n, 20]: [observer, loc code] -> where in the observer's row a card with that code is
    marked (plus the card's index): one table lookup per card instead of a branch per code."""
    v = layout.slices
    table = np.empty((n, 20), dtype=np.int64)
    for p in range(n):
        for code in range(20):
            if code < 4:  # a hand: the observer's own, or unseen
                table[p, code] = v["hand"].start if code == p else v["unseen"].start
            elif code < 16:  # pile k of seat q (code 4 + 3 q + k), at q's seat relative to p
                q, k = divmod(code - 4, 3)
                table[p, code] = v["piles"].start + 52 * (3 * ((q - p) % n) + k)
            elif code < 19:  # a stack: the card's position there
                table[p, code] = v["stack_cards"].start + 52 * (code - 16)
            else:  # the deck
                table[p, code] = v["unseen"].start
    return table


@njit(cache=True)
def tp_observe(n, off, seat, cards, loc, stack_ord, stack_len, deck_len, lo, hi, plen, diamonds, hsize, cur, phase,
               passes, by52, by4, by35, by_n, obs):
    o_hand, o_piles, o_fits, o_top, o_stack, o_unseen, o_sizes, o_deck, o_scores, o_move, o_phase, o_passes = off
    for b in range(obs.shape[0]):
        row = obs[b]
        row[:] = 0
        p = seat[b]  # the observer
        where = cards[p]
        for c in range(52):  # a stack card's 1 is overwritten by its position just below
            row[where[loc[b, c]] + c] = 1
        for s in range(3):
            size, first = stack_len[b, s], 52 * s
            for i in range(size):  # position i from the bottom: spos = (i + 1) / 52
                row[o_stack + first + stack_ord[b, first + i]] = by52[i + 1]
            if size > 0:
                row[o_top + first + stack_ord[b, first + size - 1]] = 1
        for rel in range(n):
            q = p + rel
            if q >= n:
                q -= n
            longest, ace_kings = 0, 0
            for k in range(3):
                pid = 3 * q + k
                low, high = lo[b, pid], hi[b, pid]
                fits = o_fits + (3 * rel + k) * 13 - 1  # rank r at fits + r
                for r in range(1, min(low, 14)):  # below the pile
                    row[fits + r] = 1
                for r in range(max(high + 1, 1), 14):  # above it
                    row[fits + r] = 1
                longest = max(longest, plen[b, pid])
                ace_kings += (low == 1) & (high == 13)
            row[o_sizes + rel] = by4[hsize[b, q]]
            row[o_scores + rel] = by35[longest + 3 * ace_kings + diamonds[b, q]]
        row[o_deck] = by52[deck_len[b]]
        to_move = cur[b] - p
        row[o_move + (to_move + n if to_move < 0 else to_move)] = 1
        row[o_phase + phase[b]] = 1
        row[o_passes] = by_n[passes[b]]


class ThreePilesNumba(ThreePilesBatch):
    backend = "numba"
    _forced = _forced

    def _allocate(self) -> None:
        super()._allocate()
        layout = self.game.observation_layout
        self._apply_args = _np(self, TP_STATE + " rank diamond by52")
        self._deal_args = _np(self, "deal_code " + TP_STATE + " by52")
        self._returns_args = _np(self, "lo hi plen diamonds")
        self._mask_args = _np(self, "loc stack_ord stack_len deck_len lo hi cur phase rank")
        self._observe_args = (tp_card_offsets(self.num_players, layout),
                              *_np(self, "loc stack_ord stack_len deck_len lo hi plen diamonds hsize cur phase "
                                         "passes by52 by4 by35 by_n"))
        self._offsets = _offsets(layout)

    def _deal(self, rows: torch.Tensor) -> None:
        tp_deal(rows.numpy(), self._shuffle(len(rows)).numpy(), self.deck_size0, self.num_players, *self._deal_args)

    def _returns(self, rows: torch.Tensor) -> torch.Tensor:
        out = np.empty((len(rows), self.num_players), dtype=np.float32)
        tp_returns(rows.numpy(), self.num_players, self.game.reward == "win", MAX_SCORE, *self._returns_args, out)
        return torch.from_numpy(out)

    def _apply(self, a: torch.Tensor, act: torch.Tensor) -> None:
        tp_apply(self.num_players, a.numpy(), act.numpy(), *self._apply_args)

    def _mask(self) -> torch.Tensor:
        mask = np.empty((self.batch_size, self.num_actions), dtype=np.bool_)
        tp_mask(*self._mask_args, mask)
        return torch.from_numpy(mask)

    def _play_forced(self) -> tuple[torch.Tensor, torch.Tensor]:
        mask = np.empty((self.batch_size, self.num_actions), dtype=np.bool_)
        ended = np.empty(self.batch_size, dtype=np.bool_)
        tp_play_forced(self.num_players, *self._apply_args, mask, ended)
        return torch.from_numpy(mask), torch.from_numpy(ended)

    def _observe(self, seat: torch.Tensor | None = None) -> torch.Tensor:
        obs = np.empty((self.batch_size, self.observation_size), dtype=np.float32)
        seat = self.cur if seat is None else seat
        tp_observe(self.num_players, self._offsets, seat.numpy(), *self._observe_args, obs)
        return torch.from_numpy(obs)


# ----- Piles ----------------------------------------------------------------------------------
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
    _forced = _forced

    def _allocate(self) -> None:
        super()._allocate()
        from card_envs.games.piles.rules import NEIGHBOURS
        self.neighbours = np.array([list(q) + [-1] * (4 - len(q)) for q in NEIGHBOURS], dtype=np.int64)
        self._apply_args = _np(self, PILES_STATE + " colour by52")
        self._mask_args = (*_np(self, "loc tops cur colour rank"), self.neighbours)
        self._offsets = _offsets(self.game.observation_layout)
        self._observe_args = (*_np(self, "loc height tops turns hsize cur colour0 second colour rank points"),
                              self.neighbours, *_np(self, "by10 by20 by40 by54"))

    def _apply(self, a: torch.Tensor, act: torch.Tensor) -> None:
        piles_apply(self.num_players, a.numpy(), act.numpy(), *self._apply_args)

    def _mask(self) -> torch.Tensor:
        mask = np.empty((self.batch_size, self.num_actions), dtype=np.bool_)
        piles_mask(*self._mask_args, mask)
        return torch.from_numpy(mask)

    def _observe(self, seat: torch.Tensor | None = None) -> torch.Tensor:
        obs = np.empty((self.batch_size, self.observation_size), dtype=np.float32)
        seat = self.cur if seat is None else seat
        piles_observe(self.num_players, self._offsets, seat.numpy(), *self._observe_args, obs)
        return torch.from_numpy(obs)
