"""3 Piles' CPU path: apply, mask, observe, the forced decisions, the deal and the returns as
numba kernels over `ThreePilesBatch`'s state tensors (why one core and shared tensors:
`card_envs.batch.cpu`)."""

from __future__ import annotations

import numpy as np
import torch
from numba import njit

from card_envs.batch.cpu import forced_decisions, piece_offsets, state_views
from card_envs.batch.three_piles.engine import DECK, EMPTY_HI, EMPTY_LO, MAX_SCORE, ThreePilesBatch

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
    _forced = forced_decisions

    def _allocate(self) -> None:
        super()._allocate()
        layout = self.game.observation_layout
        self._apply_args = state_views(self, TP_STATE + " rank diamond by52")
        self._deal_args = state_views(self, "deal_code " + TP_STATE + " by52")
        self._returns_args = state_views(self, "lo hi plen diamonds")
        self._mask_args = state_views(self, "loc stack_ord stack_len deck_len lo hi cur phase rank")
        self._observe_args = (tp_card_offsets(self.num_players, layout),
                              *state_views(self, "loc stack_ord stack_len deck_len lo hi plen diamonds hsize cur phase "
                                         "passes by52 by4 by35 by_n"))
        self._offsets = piece_offsets(layout)

    def _deal(self, rows: torch.Tensor) -> None:
        tp_deal(rows.numpy(), self._shuffle(len(rows)).numpy(), self.deck_size0, self.num_players, *self._deal_args)

    def _returns(self, rows: torch.Tensor) -> torch.Tensor:
        out = np.empty((len(rows), self.num_players), dtype=np.float32)
        tp_returns(rows.numpy(), self.num_players, self.game.reward == "win", MAX_SCORE, *self._returns_args, out)
        return torch.from_numpy(out)

    def _apply(self, a: torch.Tensor, act: torch.Tensor) -> None:
        """The actions, checked first (`_check_actions`: the kernels do not check their arrays'
        bounds; an illegal action would write into other games or past the arrays)."""
        a, act = a.numpy(), act.numpy()
        self._check_actions(a, act)
        tp_apply(self.num_players, a, act, *self._apply_args)

    def _mask(self) -> torch.Tensor:
        """The legal mask (a copy of it is kept to check the next actions with)."""
        mask = np.empty((self.batch_size, self.num_actions), dtype=np.bool_)
        tp_mask(*self._mask_args, mask)
        self._legal = mask
        return torch.from_numpy(mask.copy())

    def _play_forced(self) -> tuple[torch.Tensor, torch.Tensor]:
        mask = np.empty((self.batch_size, self.num_actions), dtype=np.bool_)
        ended = np.empty(self.batch_size, dtype=np.bool_)
        tp_play_forced(self.num_players, *self._apply_args, mask, ended)
        self._legal = mask
        return torch.from_numpy(mask.copy()), torch.from_numpy(ended)

    def _observe(self, seat: torch.Tensor | None = None) -> torch.Tensor:
        obs = np.empty((self.batch_size, self.observation_size), dtype=np.float32)
        seat = self.cur if seat is None else seat
        tp_observe(self.num_players, self._offsets, seat.numpy(), *self._observe_args, obs)
        return torch.from_numpy(obs)
