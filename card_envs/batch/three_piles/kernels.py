"""3 Piles' CPU path: apply, mask, observe, the forced decisions, the deal and the returns as
numba kernels over `ThreePilesBatch`'s state tensors (why one core and shared tensors:
`card_envs.batch.cpu`)."""

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
from card_envs.batch.numba_stream import stream_fence, stream_row
from card_envs.batch.three_piles.engine import DECK, EMPTY_HI, EMPTY_LO, MAX_SCORE, ThreePilesBatch
from card_envs.games.three_piles.rules import FITS

BLOCK = 16  # games a block: the next block's state rows are asked from memory while one plays
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
    (loc, spos, stack_ord, stack_len, deck, deck_len, lo, hi, plen, diamonds, hsize, cur, phase, passes, rank, diamond,
     by52) = borrowed((
        loc, spos, stack_ord, stack_len, deck, deck_len, lo, hi, plen, diamonds, hsize, cur, phase, passes, rank,
        diamond, by52))
    for b in range(a.shape[0]):
        if act[b]:
            _tp_apply_row(b, a[b], n, loc, spos, stack_ord, stack_len, deck, deck_len, lo, hi, plen, diamonds,
                          hsize, cur, phase, passes, rank, diamond, by52)


@njit(cache=True, inline="always")
def _tp_mask_row(b, loc, stack_ord, stack_len, deck_len, lo, hi, cur, phase, rank, m):
    zero_row(m)
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
    (loc, stack_ord, stack_len, deck_len, lo, hi, cur, phase, rank, mask) = borrowed((
        loc, stack_ord, stack_len, deck_len, lo, hi, cur, phase, rank, mask))
    for b in range(mask.shape[0]):
        _tp_mask_row(b, loc, stack_ord, stack_len, deck_len, lo, hi, cur, phase, rank, mask[b])


@njit(cache=True)
def tp_play_forced(n, loc, spos, stack_ord, stack_len, deck, deck_len, lo, hi, plen, diamonds, hsize, cur,
                   phase, passes, rank, diamond, by52, mask, ended):
    """`BatchGame._play_forced` game by game: each plays its single-choice decisions until it has
    a real choice (its row of `mask`) or its game ends (`ended`; that row of `mask` is stale)."""
    (loc, spos, stack_ord, stack_len, deck, deck_len, lo, hi, plen, diamonds, hsize, cur, phase, passes, rank, diamond,
     by52, mask) = borrowed((
        loc, spos, stack_ord, stack_len, deck, deck_len, lo, hi, plen, diamonds, hsize, cur, phase, passes, rank,
        diamond, by52, mask))
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


@njit(cache=True, inline="always")
def _tp_observe_row(b, p, n, off, cards, loc, stack_ord, stack_len, deck_len, lo, hi, plen, diamonds, hsize, cur,
                    phase, passes, by52, by4, by35, by_n, fits, row):
    """Game b's observation by seat p into `row`."""
    o_hand, o_piles, o_fits, o_top, o_stack, o_unseen, o_sizes, o_deck, o_scores, o_move, o_phase, o_passes = off
    zero_row(row)
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
            copy_run(row, o_fits + (3 * rel + k) * 13, fits, (14 * low + high) * 13, 13)  # FITS[low, high]
            longest = max(longest, plen[b, pid])
            ace_kings += (low == 1) & (high == 13)
        row[o_sizes + rel] = by4[hsize[b, q]]
        row[o_scores + rel] = by35[longest + 3 * ace_kings + diamonds[b, q]]
    row[o_deck] = by52[deck_len[b]]
    to_move = cur[b] - p
    row[o_move + (to_move + n if to_move < 0 else to_move)] = 1
    row[o_phase + phase[b]] = 1
    row[o_passes] = by_n[passes[b]]


@njit(cache=True)
def tp_observe(n, off, seat, cards, loc, stack_ord, stack_len, deck_len, lo, hi, plen, diamonds, hsize, cur, phase,
               passes, by52, by4, by35, by_n, fits, obs):
    (off, cards, loc, stack_ord, stack_len, deck_len, lo, hi, plen, diamonds, hsize, cur, phase, passes, by52, by4,
     by35, by_n, fits, obs) = borrowed((
        off, cards, loc, stack_ord, stack_len, deck_len, lo, hi, plen, diamonds, hsize, cur, phase, passes, by52, by4,
        by35, by_n, fits, obs))
    for b in range(obs.shape[0]):
        _tp_observe_row(b, seat[b], n, off, cards, loc, stack_ord, stack_len, deck_len, lo, hi, plen, diamonds,
                        hsize, cur, phase, passes, by52, by4, by35, by_n, fits, obs[b])


@njit(cache=True, inline="always")
def _tp_rows_after(b, n, off, cards, loc, stack_ord, stack_len, deck_len, lo, hi, plen, diamonds, hsize, cur, phase,
                   passes, rank, by52, by4, by35, by_n, fits, legal, mask, scratch, obs):
    """Game b's mask (into mask[b] and legal[b]) and its acting seat's observation (obs[b])."""
    m = mask[b]
    _tp_mask_row(b, loc, stack_ord, stack_len, deck_len, lo, hi, cur, phase, rank, m)
    copy_run(legal[b], 0, m, 0, m.shape[0])
    _tp_observe_row(b, cur[b], n, off, cards, loc, stack_ord, stack_len, deck_len, lo, hi, plen, diamonds, hsize,
                    cur, phase, passes, by52, by4, by35, by_n, fits, scratch)
    stream_row(obs[b], scratch)


@njit(cache=True)
def tp_step(n, a, legal, mask, scratch, obs, off, cards, loc, spos, stack_ord, stack_len, deck, deck_len, lo, hi, plen,
            diamonds, hsize, cur, phase, passes, rank, diamond, by52, by4, by35, by_n, fits):
    """Every game plays a[b], then its mask into mask[b] and legal[b] (the engine's own copy) and
    its acting seat's observation into obs[b], one game at a time: its state is read from memory
    once for the three. False, with nothing applied, unless every action is one `legal` allows
    (the kernels do not check their arrays' bounds). A game that ended gets a stale mask and
    observation, redone by `tp_refresh` once it is dealt."""
    if not all_legal(a, legal):
        return False
    # The arrays without their reference counts: numba would count every array at every helper.
    (legal, mask, scratch, obs, off, cards, loc, spos, stack_ord, stack_len, deck, deck_len, lo, hi, plen, diamonds,
     hsize, cur, phase, passes, rank, diamond, by52, by4, by35, by_n, fits) = borrowed((
        legal, mask, scratch, obs, off, cards, loc, spos, stack_ord, stack_len, deck, deck_len, lo, hi, plen,
        diamonds, hsize, cur, phase, passes, rank, diamond, by52, by4, by35, by_n, fits))
    B = a.shape[0]
    for start in range(0, B, BLOCK):
        end = min(B, start + BLOCK)
        # The next block's state rows (but the long stack and deck rows, read at a few places), asked
        # from memory meanwhile: the observations written since a game's last step pushed them out.
        prefetch_rows((loc, spos, stack_len, deck_len, lo, hi, plen, diamonds, hsize, cur, phase, passes), end,
                      min(B, end + BLOCK))
        for b in range(start, end):
            _tp_apply_row(b, a[b], n, loc, spos, stack_ord, stack_len, deck, deck_len, lo, hi, plen, diamonds, hsize,
                          cur, phase, passes, rank, diamond, by52)
            _tp_rows_after(b, n, off, cards, loc, stack_ord, stack_len, deck_len, lo, hi, plen, diamonds, hsize, cur,
                           phase, passes, rank, by52, by4, by35, by_n, fits, legal, mask, scratch, obs)
    stream_fence()
    return True


@njit(cache=True)
def tp_refresh(rows, n, off, cards, loc, stack_ord, stack_len, deck_len, lo, hi, plen, diamonds, hsize, cur, phase,
               passes, rank, by52, by4, by35, by_n, fits, legal, mask, scratch, obs):
    """The mask and acting seat's observation of the games in `rows` again (dealt since)."""
    (off, cards, loc, stack_ord, stack_len, deck_len, lo, hi, plen, diamonds, hsize, cur, phase, passes, rank, by52,
     by4, by35, by_n, fits, legal, mask, scratch, obs) = borrowed((
        off, cards, loc, stack_ord, stack_len, deck_len, lo, hi, plen, diamonds, hsize, cur, phase, passes, rank,
        by52, by4, by35, by_n, fits, legal, mask, scratch, obs))
    for b in rows:
        _tp_rows_after(b, n, off, cards, loc, stack_ord, stack_len, deck_len, lo, hi, plen, diamonds, hsize, cur,
                       phase, passes, rank, by52, by4, by35, by_n, fits, legal, mask, scratch, obs)
    stream_fence()


class ThreePilesNumba(ThreePilesBatch):
    """The numba CPU path. A step of every game (``auto_forced`` off) is one fused kernel,
    `tp_step`: the actions checked, then apply, mask and observation game by game; the step's
    mask and observations are then handed out by `_mask` and `_observe` (`_ready`), and the games
    dealt since are redone (`tp_refresh`). The arrays it returns come from pools of those nothing
    holds any more (`reusable`): fresh memory costs a zeroing of every page."""
    backend = "numba"
    _forced = forced_decisions

    def _allocate(self) -> None:
        super()._allocate()
        layout = self.game.observation_layout
        self.fits_table = torch.from_numpy(FITS.reshape(-1).copy())  # FITS[lo, hi] at (14 lo + hi) * 13
        self._ready: tuple[np.ndarray, np.ndarray] | None = None
        self._legal = np.zeros((self.batch_size, self.num_actions), dtype=np.bool_)  # own copy of the mask
        self._mask_pool: list[np.ndarray] = []
        self._scratch = np.empty(self.observation_size, dtype=np.float32)  # a row built here is streamed out
        self._apply_args = state_views(self, TP_STATE + " rank diamond by52")
        self._deal_args = state_views(self, "deal_code " + TP_STATE + " by52")
        self._returns_args = state_views(self, "lo hi plen diamonds")
        self._mask_args = state_views(self, "loc stack_ord stack_len deck_len lo hi cur phase rank")
        self._offsets = piece_offsets(layout)
        self._observe_args = (tp_card_offsets(self.num_players, layout),
                              *state_views(self, "loc stack_ord stack_len deck_len lo hi plen diamonds hsize cur phase "
                                         "passes by52 by4 by35 by_n fits_table"))
        self._refresh_args = (self._offsets, self._observe_args[0],
                              *state_views(self, "loc stack_ord stack_len deck_len lo hi plen diamonds hsize cur "
                                         "phase passes rank by52 by4 by35 by_n fits_table"))
        self._step_args = (self._offsets, self._observe_args[0], *self._apply_args,
                           *state_views(self, "by4 by35 by_n fits_table"))

    def _deal(self, rows: torch.Tensor) -> None:
        tp_deal(rows.numpy(), self._shuffle(len(rows)).numpy(), self.deck_size0, self.num_players, *self._deal_args)
        if self._ready is not None:  # the step's mask and observations, those of the new games again
            tp_refresh(rows.numpy(), self.num_players, *self._refresh_args, self._legal, self._ready[0], self._scratch,
                       self._ready[1])

    def _load(self, states, rows: torch.Tensor) -> None:
        self._ready = None
        super()._load(states, rows)

    def _returns(self, rows: torch.Tensor) -> torch.Tensor:
        out = np.empty((len(rows), self.num_players), dtype=np.float32)
        tp_returns(rows.numpy(), self.num_players, self.game.reward == "win", MAX_SCORE, *self._returns_args, out)
        return torch.from_numpy(out)

    def _apply(self, actions: torch.Tensor, active: torch.Tensor) -> None:
        self._fused_apply(actions, active, lambda a, on: tp_apply(self.num_players, a, on, *self._apply_args),
                          lambda a, mask, obs: tp_step(self.num_players, a, self._legal, mask, self._scratch, obs,
                                                       *self._step_args))

    def _step_mask(self) -> np.ndarray:  # pooled: see `reusable`
        return reusable(self._mask_pool, (self.batch_size, self.num_actions), np.bool_)

    def _mask(self) -> torch.Tensor:
        """The legal mask (the engine keeps its own copy, `_legal`, to check the next actions with)."""
        if self._ready is not None:
            return torch.from_numpy(self._ready[0])
        mask = self._step_mask()
        tp_mask(*self._mask_args, mask)
        np.copyto(self._legal, mask)
        return torch.from_numpy(mask)

    def _play_forced(self) -> tuple[torch.Tensor, torch.Tensor]:
        mask = self._step_mask()
        ended = np.empty(self.batch_size, dtype=np.bool_)
        tp_play_forced(self.num_players, *self._apply_args, mask, ended)
        np.copyto(self._legal, mask)
        return torch.from_numpy(mask), torch.from_numpy(ended)

    def _observe(self, seat: torch.Tensor | None = None) -> torch.Tensor:
        if seat is None and self._ready is not None:  # the step's, once
            obs, self._ready = self._ready[1], None
            return torch.from_numpy(obs)
        obs = self._step_observations() if seat is None else np.empty((self.batch_size, self.observation_size),
                                                                      dtype=np.float32)
        seat = self.cur if seat is None else seat
        tp_observe(self.num_players, self._offsets, seat.numpy(), *self._observe_args, obs)
        return torch.from_numpy(obs)
