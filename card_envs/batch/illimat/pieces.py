"""Numba kernels of batched Illimat: the optional observation pieces ``harvest_features``
(`card_envs.games.illimat.harvest_features`) and ``play_features``
(`card_envs.games.illimat.play_features`), bit for bit as the reference computes them.

`harvest_pieces(s, t, seat, memo, out)` writes out[b] = `harvest_features(state, seat[b],
HARVEST_VALUES, board)` (float32[632]), `play_pieces(s, t, seat, memo, out)` writes out[b] =
`play_features(state, seat[b], unseen, board)` (float32[2904]), `unseen` being the cards of
seat[b]'s ``unseen`` row of the feature store, and `both_pieces(s, t, seat, memo, h_out, p_out)`
writes both, searching each field's groups once for the two. The reference caches its field
tables (lru_cache) for speed only; these kernels compute every field from scratch, with the group
searches of `card_envs.batch.illimat.groups` and the exact cover of `cover.covers` (memo: the
engine's `cover.new_memo()`). Every target they search is at most 14 (a card's harvest value, a
stockpile's value from another hand card), so `groups.groups_totalling` (larger targets) is not
needed. About 36 us of one core per observation for both pieces on positions of random games,
0.4 ms where a policy that prefers sowing crowds the fields (the budgeted searches run out).

Groups are bitmasks in uint64 (`groups`), enough for every field but one: 65 items, every card
loose in one field (reachable only as a loaded snapshot, with every hand empty). That field's
items are known, all 65 cards in card order, so its harvest table is a constant
(`FULL_FIELD_TAKEN`, `FULL_FIELD_CLEARS`: the reference's `field_table` of it, checked by the
tests), and with every hand empty `play_features` has nothing to describe.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from card_envs.numba_cache import njit

from card_envs.batch.illimat import groups as G
from card_envs.batch.illimat.cover import NUM_KINDS, covers, field_items, field_sums
from card_envs.batch.illimat.kernels import FOOL_A, L_HAND, L_LOOSE, L_PILE, RANK_A, SUIT_A, season, unseen
from card_envs.batch.illimat.play import harvest_allowed
from card_envs.batch.numba_borrow import by_reference, keep_alive
from card_envs.games.illimat.cards import AUTUMN, NO_LUMINARY, NUM_CARDS, NUM_FIELDS, SPRING, SUMMER, WINTER
from card_envs.games.illimat.harvest_features import SIZE as HARVEST_SIZE
from card_envs.games.illimat.play_features import CARD_WEIGHT, PLAY_ROWS, SCALE
from card_envs.games.illimat.play_features import SIZE as PLAY_SIZE

MAX_VALUE = 14  # the values a single card harvests
CARDS_SCALE = np.float32(8)
CARDS_AT, CLEARS_AT = 0, NUM_FIELDS * MAX_VALUE  # harvest_features' flat offsets
HAND_AT = 2 * NUM_FIELDS * MAX_VALUE
HAND_CLEARS_AT = HAND_AT + NUM_FIELDS * NUM_CARDS
ROWS = len(PLAY_ROWS)
R_SOW, R_CLEARS, R_STOCK, R_RISK = (PLAY_ROWS.index(r) for r in ("sow", "harvest_clears", "stockpile_cards",
                                                                 "stockpile_risk"))
MOVE_AT = ROWS * NUM_FIELDS * NUM_CARDS
CARD_WEIGHT_A = np.array(CARD_WEIGHT, np.float64)
SCALE_A = SCALE.astype(np.float32)
PASSIVE_A = np.array([14 if RANK_A[c] == 1 else RANK_A[c] for c in range(NUM_CARDS)], np.int64)
ACTIVE_A = RANK_A.copy()  # an active (stockpiled) Fool counts 1
# harvest_features' table (cards taken, field emptied, per value 1..14) of the field holding all 65
# cards loose: `field_table(tuple((code, 1) for each card), reachable)` of the reference
FULL_FIELD_TAKEN = np.array([0, 5, 9, 15, 19, 25, 25, 31, 37, 40, 42, 48, 53, 65, 56], np.int64)
FULL_FIELD_CLEARS = np.arange(MAX_VALUE + 1) == 13
assert HARVEST_SIZE == HAND_CLEARS_AT + NUM_FIELDS * NUM_CARDS and PLAY_SIZE == MOVE_AT + ROWS * NUM_FIELDS


Field = namedtuple("Field", "keys codes cards weight summer winter fools plain nothing count_weight hand")


@njit(cache=True)
def _scratch():
    """The per-field arrays the kernels fill (`_field`): allocated once per kernel call."""
    i8 = np.int64
    return Field(np.empty(NUM_CARDS, i8), np.empty(NUM_CARDS, i8), np.empty(NUM_CARDS, i8),
                 np.empty(NUM_CARDS + 1, np.float64), np.empty(NUM_CARDS, i8), np.empty(NUM_CARDS, i8),
                 np.empty(NUM_CARDS, i8), np.zeros(NUM_KINDS, i8), np.zeros(NUM_KINDS, i8),
                 np.empty(NUM_CARDS + 1, np.float64), np.empty(NUM_CARDS, i8))


@njit(cache=True)
def _field(s, b, f, x):
    """Field f's items in key order (codes as `groups` reads them) and, per item, its cards and
    what the pieces read of them: its cards as weights (`harvest_features`), the sum of their
    CARD_WEIGHTs in card order as the reference's sum (`play_features`), its Summer, Winter cards
    and Fools; the value counts of the plain items; the number of items."""
    n = field_items(s, b, f, x.keys, x.codes)
    at = np.full(NUM_CARDS, -1, np.int64)
    x.plain[:] = 0
    for i in range(n):
        at[x.keys[i]] = i
        x.cards[i], x.weight[i], x.summer[i], x.winter[i], x.fools[i] = 0, 0.0, 0, 0, 0
        if x.codes[i] < G.MULTIPLE_CODE:
            x.plain[x.codes[i]] += 1
    for c in range(NUM_CARDS):  # a loose card is its own key; a stockpile's cards, ascending
        where = s.loc[b, c]
        if where == L_LOOSE + f:
            i = at[c]
        elif where == L_PILE + f:
            i = at[s.pile_key[b, c]]
        else:
            continue
        x.cards[i] += 1
        x.weight[i] += CARD_WEIGHT_A[c]
        x.summer[i] += SUIT_A[c] == SUMMER
        x.winter[i] += SUIT_A[c] == WINTER
        x.fools[i] += FOOL_A[c]
    for i in range(n):
        x.count_weight[i] = x.cards[i]
    return n


@njit(cache=True)
def _hand(s, b, p, hand):
    h = 0
    for c in range(NUM_CARDS):
        if s.loc[b, c] == L_HAND + p:
            hand[h] = c
            h += 1
    return h


@njit(cache=True)
def _harvest_field(s, t, b, f, n, x, h, w, memo, out):
    """harvest_features' entries of field f (`field_table` and the hand rows); out zeroed."""
    reach, multi = field_sums(s, t, b, f)
    reachable = reach | multi
    total = 0
    for i in range(n):
        total += x.cards[i]
    taken = np.zeros(MAX_VALUE + 1, np.int64)
    empties = np.zeros(MAX_VALUE + 1, np.bool_)
    for v in range(1, MAX_VALUE + 1):
        if not (reachable >> np.uint64(v)) & G.U1:
            continue
        clears = n > 0
        for i in range(n):
            if x.codes[i] >= G.MULTIPLE_CODE and x.codes[i] - G.MULTIPLE_CODE != v:
                clears = False
        if n > G.MAX_BITS:  # every card loose here
            taken[v], clears = FULL_FIELD_TAKEN[v], FULL_FIELD_CLEARS[v]
        elif clears and covers(v, x.plain, x.nothing, memo):
            taken[v] = total
        else:
            clears = False
            gain, _ = G.heaviest_groups(v, n, x.count_weight, 0, w)
            taken[v] = max(0, int(gain))
        empties[v] = clears
        out[CARDS_AT + f * MAX_VALUE + v - 1] = np.float32(taken[v]) / CARDS_SCALE
        out[CLEARS_AT + f * MAX_VALUE + v - 1] = 1.0 if clears else 0.0
    if not harvest_allowed(s, b, f):
        return
    for k in range(h):
        c = x.hand[k]
        if FOOL_A[c]:
            most, clear = max(taken[1], taken[14]), empties[1] or empties[14]
        else:
            most, clear = taken[RANK_A[c]], empties[RANK_A[c]]
        out[HAND_AT + f * NUM_CARDS + c] = np.float32(most) / CARDS_SCALE
        out[HAND_CLEARS_AT + f * NUM_CARDS + c] = 1.0 if clear else 0.0


@njit(cache=True)
def _put(out, r, f, c, value):
    """plays[r, f, c] = value, scaled (float32, as the reference's `plays /= SCALE`)."""
    out[(r * NUM_FIELDS + f) * NUM_CARDS + c] = np.float32(value) / SCALE_A[r]


@njit(cache=True)
def _play_field(s, t, b, p, f, n, x, h, w, out):
    """play_features' rows of field f (`field_plays`, scaled); out zeroed, h > 0 hand cards."""
    sn = season(s, b, f)
    for k in range(h):
        _put(out, R_SOW, f, x.hand[k], 1.0 if sn != AUTUMN else 0.0)
    if n == 0:
        return
    if harvest_allowed(s, b, f):
        reach, multi = field_sums(s, t, b, f)
        reachable = reach | multi
        full = ~G.U0 if n == 64 else G.bit(n) - G.U1
        lum = s.lum[b, f] != NO_LUMINARY
        up, down = lum and s.lum_up[b, f], lum and not s.lum_up[b, f]
        okus = s.okus_left[b] > 0
        gains = np.zeros(MAX_VALUE + 1, np.float64)
        masks = np.zeros(MAX_VALUE + 1, np.uint64)
        for v in range(1, MAX_VALUE + 1):
            if (reachable >> np.uint64(v)) & G.U1:
                gains[v], masks[v] = G.heaviest_groups(v, n, x.weight, 0, w)
        for k in range(h):
            c = x.hand[k]
            v = 0  # the heaviest of the card's values (the first of equals, as max)
            if FOOL_A[c]:
                if masks[1]:
                    v = 1
                if masks[14] and (v == 0 or gains[14] > gains[1]):
                    v = 14
            elif masks[RANK_A[c]]:
                v = RANK_A[c]
            if v == 0:
                continue
            mask = masks[v]
            n_cards = n_summer = n_winter = n_fools = 0
            for i in range(n):
                if (mask >> np.uint64(i)) & G.U1:
                    n_cards += x.cards[i]
                    n_summer += x.summer[i]
                    n_winter += x.winter[i]
                    n_fools += x.fools[i]
            clears = mask == full
            _put(out, 0, f, c, n_cards)
            _put(out, 1, f, c, n_summer)
            _put(out, 2, f, c, n_winter)
            _put(out, 3, f, c, n_fools)
            _put(out, R_CLEARS, f, c, 1.0 if clears else 0.0)
            _put(out, R_CLEARS + 1, f, c, 1.0 if clears and okus else 0.0)
            _put(out, R_CLEARS + 2, f, c, 1.0 if clears and up else 0.0)
            _put(out, R_CLEARS + 3, f, c, 1.0 if clears and down else 0.0)
    if sn == SPRING:
        return
    hidden = 0
    for c in range(NUM_CARDS):
        hidden += unseen(s, b, p, c)
    active_bit = G.bit(n)  # n <= 63 here: a stockpile's value comes from a second hand card
    for k in range(h):
        c = x.hand[k]
        values = 0  # bit T: another hand card's passive value
        for k2 in range(h):
            if k2 != k:
                values |= 1 << PASSIVE_A[x.hand[k2]]
        if values == 0:
            continue
        x.weight[n] = CARD_WEIGHT_A[c]
        best_gain, best_cards, best_T = 0.0, 0, 0
        for T in range(1, MAX_VALUE + 1):
            if not (values >> T) & 1:
                continue
            gain, mask = G.heaviest_groups(T, n, x.weight, ACTIVE_A[c], w)
            if mask & ~active_bit and gain > best_gain:
                n_cards = 1
                for i in range(n):
                    if (mask >> np.uint64(i)) & G.U1:
                        n_cards += x.cards[i]
                best_gain, best_cards, best_T = gain, n_cards, T
        if best_cards:
            _put(out, R_STOCK, f, c, best_cards)
            stealers = 0
            for y in range(NUM_CARDS):
                if unseen(s, b, p, y) and (
                        RANK_A[y] == best_T or FOOL_A[y] and (best_T == 1 or best_T == 14)):
                    stealers += 1
            _put(out, R_RISK, f, c, stealers / max(1, hidden))


@njit(cache=True)
def _row(s, t, b, p, memo, x, w, harvest, play, h_out, p_out):
    """Seat p's pieces of game b (those asked) into h_out, p_out."""
    if harvest:
        h_out[:] = 0
    if play:
        p_out[:] = 0
    h = _hand(s, b, p, x.hand)
    play = play and h > 0
    for f in range(NUM_FIELDS):
        n = _field(s, b, f, x)
        # the field's groups, searched once for both pieces (the reference's cache); none for the
        # field of all 65 cards, whose harvest table is known and where no hand holds a card
        G.fill_work(w, x.codes, n if n <= G.MAX_BITS else 0)
        if harvest:
            _harvest_field(s, t, b, f, n, x, h, w, memo, h_out)
        if play and n <= G.MAX_BITS:  # (always: 65 items leave no hand card)
            _play_field(s, t, b, p, f, n, x, h, w, p_out)
    if play:
        m = s.m_card[b]
        if s.cur[b] == p and m >= 0 and s.loc[b, m] == L_HAND + p:
            for r in range(ROWS):
                for f in range(NUM_FIELDS):
                    p_out[MOVE_AT + r * NUM_FIELDS + f] = p_out[(r * NUM_FIELDS + f) * NUM_CARDS + m]


@njit(cache=True)
def pieces_rows(s, t, seat, memo, harvest, play, h_out, p_out):
    """The pieces asked (harvest, play) of each row's seat into h_out[b], p_out[b]; a seat of -1
    skips its row (`recall`: its pieces are kept). Each field's groups are searched once for both."""
    s, t, memo = by_reference(s), by_reference(t), by_reference(memo)
    scratch, work = _scratch(), G.new_work()
    x, w = by_reference(scratch), by_reference(work)
    for b in range(h_out.shape[0]):
        if seat[b] >= 0:
            _row(s, t, b, seat[b], memo, x, w, harvest, play, h_out[b], p_out[b])
    keep_alive(scratch)
    keep_alive(work)


def harvest_pieces(s, t, seat, memo, out):
    """out[b] = `harvest_features(state b, seat[b], HARVEST_VALUES, board)`."""
    pieces_rows(s, t, seat, memo, True, False, out, out)


def play_pieces(s, t, seat, memo, out):
    """out[b] = `play_features(state b, seat[b], unseen, board)`."""
    pieces_rows(s, t, seat, memo, False, True, out, out)


def both_pieces(s, t, seat, memo, h_out, p_out):
    """`harvest_pieces` and `play_pieces` at once, each field's groups searched once for both."""
    pieces_rows(s, t, seat, memo, True, True, h_out, p_out)
