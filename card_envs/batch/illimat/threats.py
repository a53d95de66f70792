"""Numba kernel of batched Illimat: the optional observation piece ``threat_features``
(`card_envs.games.illimat.threat_features`), bit for bit as the reference computes it.

`threat_pieces(s, t, seat, memo, out)` writes out[b] = `threat_features(state, seat[b], unseen,
board)` (float32[SIZE]), `unseen` being the cards of seat[b]'s ``unseen`` row of the feature
store. For each card of the seat's hand and each field, the boards its sow, its best harvest and
its best stockpile leave there (`_boards_after`: the sown card and a stockpile made appended after
the field's items, as the reference appends them), each field's `harvest_table` (the reference's
smaller budgets: groups of each value by `groups_totalling_each` where its tree has at most 400
nodes, else by the budgeted `groups_totalling`, packed by `heaviest_packing` with 600 nodes), the
next player's best harvest per card value over the fields open after the play, and its expectation
over his hand (`best_of_hand`), the gains sorted from the largest and summed left to right, each
product rounded, as the reference sums them.

The reference caches its tables (lru_cache) for speed only; the kernel computes every table from
scratch, but once per observation: the board before the play (`best_harvests`' heaviest groups of
each value, the stockpiles' searches) once per field, and the tables of boards that repeat (a sown
card of the same value and weight, the harvest of the same items) once. Returns the number of
observations refused: a field whose items (one more once a card is sown) would need a 65th bit
(`groups.MAX_BITS`), which cannot happen (the seat holds a card, and some card is unseen, or its
threats are all 0: a field holds at most 63 items then); kept as a guard, its row is then left as
far as written, and the caller should raise.
"""

from __future__ import annotations

from collections import namedtuple
from math import comb

import numpy as np
from card_envs.numba_cache import njit

from card_envs.batch.illimat import groups as G
from card_envs.batch.illimat.cover import field_items
from card_envs.batch.illimat.kernels import (
    FACE_A, FOOL_A, L_HAND, L_LOOSE, L_PILE, RANK_A, RING_A, RING_POS_A, SUIT_A, face_up_field, unseen)
from card_envs.batch.numba_borrow import by_reference, keep_alive
from card_envs.games.illimat.cards import (
    AUTUMN, FOREST_QUEEN, MAIDEN, NO_LUMINARY, NUM_CARDS, NUM_FIELDS, SPRING, STARS, SUMMER, WINTER)
from card_envs.games.illimat.play_features import CARD_WEIGHT
from card_envs.games.illimat.threat_features import SCALE, SIZE, THREAT_ROWS

MAX_VALUE = 14  # the values a single card harvests
ROWS = len(THREAT_ROWS)
SOW_ROW, HARVEST_ROW, STOCKPILE_ROW = range(ROWS)
MOVE_AT = ROWS * NUM_FIELDS * NUM_CARDS
TABLE_GROUPS_BUDGET = 400  # harvest_table's groups_totalling(_each) budget
TABLE_PACKING_BUDGET = 600  # and its heaviest_packing's
CAP = 512  # groups a table's value can have: at most 400 found (a step each) + one per multiple stockpile
VALUE_BITS = (1 << (MAX_VALUE + 1)) - 1
CARD_WEIGHT_A = np.array(CARD_WEIGHT, np.float64)
CODE_A = np.array([0 if FOOL_A[c] else RANK_A[c] for c in range(NUM_CARDS)], np.int64)  # a sown card's code
PASSIVE_A = np.array([14 if RANK_A[c] == 1 else RANK_A[c] for c in range(NUM_CARDS)], np.int64)
ACTIVE_A = RANK_A.copy()  # an active (stockpiled) Fool counts 1
FIRST_A = np.array([1 if FOOL_A[c] else RANK_A[c] for c in range(NUM_CARDS)], np.int64)  # a Fool: 1 or 14
LAST_A = np.array([MAX_VALUE if FOOL_A[c] else RANK_A[c] for c in range(NUM_CARDS)], np.int64)
# math.comb(n, k) for n, k <= 65: every value fits int64 (the largest, comb(65, 32), is 3.6e18)
COMB_A = np.array([[comb(n, k) for k in range(NUM_CARDS + 1)] for n in range(NUM_CARDS + 1)], np.int64)
SCALE_F = float(SCALE)
assert SIZE == MOVE_AT + ROWS * NUM_FIELDS

Scratch = namedtuple("Scratch", (
    "hand unseen keys codes weights item_of n now_gain field_gain harvest_gain harvest_mask "
    "a_codes a_weights t_gain t_clear start fill bucket m_plain sums_t sums_m stack_j stack_r stack_m suffix plain_i plain_c "
    "taken probs best sow_seen sow_gain").split())


@njit(cache=True)
def _scratch():
    i8, f8, u8 = np.int64, np.float64, np.uint64
    F, V, C = NUM_FIELDS, MAX_VALUE + 1, NUM_CARDS
    stack = 3 * (C + 2)
    return Scratch(np.empty(C, i8), np.empty(C, i8), np.empty((F, C), i8), np.empty((F, C + 1), i8),
                   np.empty((F, C + 1), f8), np.empty((F, C), i8), np.zeros(F, i8), np.zeros((F, V), f8),
                   np.zeros(V, f8), np.zeros((F, V), f8), np.zeros((F, V), u8),
                   np.empty(C + 1, i8), np.empty(C + 1, f8), np.zeros(V, f8), np.zeros(V, np.bool_),
                   np.zeros(V + 1, i8), np.zeros(V, i8), np.empty(CAP, u8), np.zeros(1, i8),
                   np.empty(CAP, i8), np.empty(CAP, u8),
                   np.empty(stack, i8), np.empty(stack, i8), np.empty(stack, u8), np.empty(C + 2, i8),
                   np.empty(C + 1, i8), np.empty(C + 1, i8),
                   np.empty(C, f8), np.empty(C, f8), np.empty(V, f8), np.zeros((C, V), np.bool_),
                   np.zeros((C, V), f8))


@njit(cache=True)
def _read_field(s, b, f, x):
    """Field f's items in key order into x.keys[f], x.codes[f] and their weights x.weights[f] (the
    sum of the cards' CARD_WEIGHTs in card order, as the reference sums a stockpile's sorted
    cards); x.item_of[f, card]: the item holding each of its cards (-1: none). Its items' number."""
    n = field_items(s, b, f, x.keys[f], x.codes[f])
    x.item_of[f, :] = -1
    for i in range(n):
        x.weights[f, i] = 0.0
        x.item_of[f, x.keys[f, i]] = i
    for c in range(NUM_CARDS):
        where = s.loc[b, c]
        if where == L_PILE + f:
            x.item_of[f, c] = x.item_of[f, s.pile_key[b, c]]
        elif where != L_LOOSE + f:
            continue
        x.weights[f, x.item_of[f, c]] += CARD_WEIGHT_A[c]
    x.n[f] = n
    return n


@njit(cache=True)
def _reachable(codes, n):
    """threat_features.reachable: bit v (<= 14) set when some plain items total v (a Fool 1 or 14)
    or a multiple stockpile is worth v."""
    sums = 1
    multiple = 0
    for i in range(n):
        code = codes[i]
        if code >= G.MULTIPLE_CODE:
            v = code - G.MULTIPLE_CODE
            if v <= MAX_VALUE:
                multiple |= 1 << v
        elif code == 0:
            sums = (sums | (sums << 1) | (sums << 14)) & VALUE_BITS
        else:
            sums = (sums | (sums << code)) & VALUE_BITS
    return (sums & ~1 | multiple) & VALUE_BITS


@njit(cache=True)
def _tree_nodes(codes, n, budget):
    """groups_totalling_each's test: the nodes of its tree, or budget + 1 once past the budget."""
    nodes = width = 1
    for i in range(n):
        if codes[i] < G.MULTIPLE_CODE:
            width *= 3 if codes[i] == 0 else 2
            nodes += width
            if nodes > budget:
                return budget + 1
    return nodes


@njit(cache=True)
def _each_sums(codes, n, x):
    """groups_totalling_each's pass: (total, mask) of every group of plain items totalling at most
    14, the empty one first, into x.sums_t, x.sums_m; their number (at most the tree's nodes)."""
    st, sm = x.sums_t, x.sums_m
    st[0], sm[0] = 0, G.U0
    m = 1
    for i in range(n):
        code = codes[i]
        if code >= G.MULTIPLE_CODE:
            continue
        end = m
        for e in range(end):
            for w in range(2 if code == 0 else 1):
                value = (1 if w == 0 else 14) if code == 0 else code
                if st[e] + value <= MAX_VALUE:
                    st[m], sm[m] = st[e] + value, sm[e] | G.bit(i)
                    m += 1
    return m


@njit(cache=True)
def _plain(codes, n, x):
    """groups_totalling's plain items (x.plain_i, x.plain_c; their number in x.m_plain[0]) and
    x.suffix[j], the most the plain items from j on can add: the same for every target."""
    m = 0
    for i in range(n):
        if codes[i] < G.MULTIPLE_CODE:
            x.plain_i[m], x.plain_c[m] = i, codes[i]
            m += 1
    x.m_plain[0] = m
    x.suffix[m] = 0
    for j in range(m - 1, -1, -1):
        x.suffix[j] = x.suffix[j + 1] + (14 if x.plain_c[j] == 0 else x.plain_c[j])


@njit(cache=True)
def _groups_totalling(target, codes, n, budget, x, tw):
    """groups.groups_totalling(target, codes[:n], 0, budget) into tw.groups (unsorted, repeats
    kept: the caller sorts them); their number; `_plain(codes, n, x)` first. Its recursion walked
    with an explicit stack, in its order, so that the budget stops it at the same call."""
    groups = tw.groups
    k = 0
    for i in range(n):
        if codes[i] >= G.MULTIPLE_CODE and codes[i] - G.MULTIPLE_CODE == target:
            groups[k] = G.bit(i)
            k += 1
    if x.m_plain[0] == 0:
        return k
    suffix = x.suffix
    sj, sr, sm = x.stack_j, x.stack_r, x.stack_m
    sj[0], sr[0], sm[0] = 0, target, G.U0
    top = 1
    steps = budget
    while top > 0:
        top -= 1
        j, remaining, mask = sj[top], sr[top], sm[top]
        steps -= 1
        if steps < 0:
            break  # every later call returns at once
        if remaining == 0:
            groups[k] = mask
            k += 1
            continue
        if suffix[j] < remaining:
            continue
        code = x.plain_c[j]
        with_it = mask | G.bit(x.plain_i[j])
        # the calls in reverse order: skip it, (a Fool as 14), take it
        sj[top], sr[top], sm[top] = j + 1, remaining, mask
        top += 1
        if code == 0:
            if remaining >= 14:
                sj[top], sr[top], sm[top] = j + 1, remaining - 14, with_it
                top += 1
            sj[top], sr[top], sm[top] = j + 1, remaining - 1, with_it
            top += 1
        elif code <= remaining:
            sj[top], sr[top], sm[top] = j + 1, remaining - code, with_it
            top += 1
    return k


@njit(cache=True)
def _sorted_distinct(groups, k):
    G._sort(groups, 0, k)
    m = 0
    for j in range(k):
        if j == 0 or groups[j] != groups[j - 1]:
            groups[m] = groups[j]
            m += 1
    return m


@njit(cache=True)
def _harvest_table(codes, weights, n, x, tw):
    """threat_features.harvest_table of the items codes[:n] (weights[:n]): per value v, the weight
    of the heaviest harvest of v into x.t_gain[v] and whether it empties the field into
    x.t_clear[v] ((0.0, False) where none)."""
    x.t_gain[:] = 0.0
    x.t_clear[:] = False
    if n == 0:
        return
    full = ~G.U0 if n == 64 else G.bit(n) - G.U1
    each = _tree_nodes(codes, n, TABLE_GROUPS_BUDGET) <= TABLE_GROUPS_BUDGET
    start = x.start
    if each:  # the groups by total (a counting sort of the pass's groups, the empty one left out)
        m = _each_sums(codes, n, x)
        start[:] = 0
        for e in range(1, m):
            start[x.sums_t[e] + 1] += 1
        for v in range(MAX_VALUE + 1):
            start[v + 1] += start[v]
        fill = x.fill
        fill[:] = start[:MAX_VALUE + 1]
        for e in range(1, m):
            x.bucket[fill[x.sums_t[e]]] = x.sums_m[e]
            fill[x.sums_t[e]] += 1
    else:
        _plain(codes, n, x)
    for v in range(1, MAX_VALUE + 1):
        if each:
            k = 0
            for e in range(start[v], start[v + 1]):
                tw.groups[k] = x.bucket[e]
                k += 1
            for i in range(n):
                if codes[i] == G.MULTIPLE_CODE + v:
                    tw.groups[k] = G.bit(i)
                    k += 1
        else:
            k = _groups_totalling(v, codes, n, TABLE_GROUPS_BUDGET, x, tw)
        if k == 0:
            continue
        if k == 1:  # heaviest_packing's answer for one group (the weights are positive)
            mask = tw.groups[0]
            gain = G.group_weight(mask, weights, n)
        else:
            k = _sorted_distinct(tw.groups, k)
            gain, mask = G.heaviest_packing(k, weights, G.U0, n, TABLE_PACKING_BUDGET, tw)
        if mask:
            x.t_gain[v] = gain
            x.t_clear[v] = mask == full


@njit(cache=True)
def _gains(x, bonus, out):
    """threat_features.field_gains from the table just computed: gain (+ bonus where it empties
    the field), 0 where none."""
    for v in range(MAX_VALUE + 1):
        gain = x.t_gain[v]
        out[v] = (gain + bonus if x.t_clear[v] else gain) if gain > 0 else 0.0


@njit(cache=True)
def _best_of_hand(unseen, hand, out):
    """threat_features.best_of_hand(unseen, hand) into out[:unseen]: the same float64 divisions."""
    hand = min(hand, unseen)
    for k in range(unseen):
        out[k] = 0.0 if hand <= 0 else np.float64(COMB_A[unseen - k - 1, hand - 1]) / np.float64(
            COMB_A[unseen, hand])


@njit(cache=True)
def _expected(x, f, open_after, after_gains, u, probs):
    """The next player's expected best harvest once a play in field f leaves it `after_gains`:
    per unseen card, its heaviest harvest over the open fields (+ its own weight), sorted from
    the largest, each times its chance and summed left to right (the reference's order)."""
    best = x.best
    for v in range(MAX_VALUE + 1):
        most = 0.0
        for g in range(NUM_FIELDS):
            if open_after[g]:
                gain = after_gains[v] if g == f else x.now_gain[g, v]
                if gain > most:
                    most = gain
        best[v] = most
    taken = x.taken
    for k in range(u):
        c = x.unseen[k]
        gain = max(best[FIRST_A[c]], best[LAST_A[c]])
        gain = gain + CARD_WEIGHT_A[c] if gain > 0 else 0.0
        i = k  # insertion, largest first
        while i > 0 and taken[i - 1] < gain:
            taken[i] = taken[i - 1]
            i -= 1
        taken[i] = gain
    total = 0.0
    for k in range(u):
        total += taken[k] * probs[k]
    return total


@njit(cache=True)
def _open(x, f, n_after, maiden, summer, out):
    """Per field g, whether the next player may harvest there after the play: it holds items (field
    f: n_after of them) and its season (the Illimat's Summer field `summer`) is not Winter, or the
    Maiden is face up."""
    for g in range(NUM_FIELDS):
        has = n_after > 0 if g == f else x.n[g] > 0
        out[g] = has and (RING_A[(g - summer) % 4] != WINTER or maiden)


@njit(cache=True)
def _need(x, tw, f, open_after, now_done, bonus):
    """The tables of the fields other than f open after a play (`field_gains` of the board as it
    is), computed once per observation."""
    for g in range(NUM_FIELDS):
        if g != f and open_after[g] and not now_done[g]:
            _harvest_table(x.codes[g], x.weights[g], x.n[g], x, tw)
            _gains(x, bonus[g], x.now_gain[g])
            now_done[g] = True


@njit(cache=True)
def _put(out, r, f, c, value):
    out[(r * NUM_FIELDS + f) * NUM_CARDS + c] = np.float32(value / SCALE_F)


@njit(cache=True)
def _row(s, t, b, p, x, w, tw, out):
    """Seat p's piece of game b into out; 1 if refused, else 0."""
    out[:] = 0
    h = 0
    for c in range(NUM_CARDS):
        if s.loc[b, c] == L_HAND + p:
            x.hand[h] = c
            h += 1
    if h == 0:
        return 0
    u = 0
    for c in range(NUM_CARDS):
        if unseen(s, b, p, c):
            x.unseen[u] = c
            u += 1
    if u == 0:
        return 0  # no unseen card: every threat is 0
    for f in range(NUM_FIELDS):
        # a hand card and an unseen card: at most 63 items, 64 once a card is sown (never refused)
        if _read_field(s, b, f, x) + 1 > G.MAX_BITS:
            return 1
    q = (p + 1) % t.n
    next_hand = 0
    for c in range(NUM_CARDS):
        if s.loc[b, c] == L_HAND + q:
            next_hand += 1
    probs = x.probs
    _best_of_hand(u, next_hand, probs)
    maiden = face_up_field(s, b, MAIDEN) >= 0
    queen = face_up_field(s, b, FOREST_QUEEN) >= 0
    summer = s.summer[b]
    okus = s.okus_left[b] > 0
    bonus = np.empty(NUM_FIELDS, np.float64)
    for f in range(NUM_FIELDS):
        lum = s.lum[b, f] != NO_LUMINARY
        up = lum and s.lum_up[b, f]
        down = lum and not s.lum_up[b, f]
        bonus[f] = (2.5 if okus else 0.0) + (1.5 if up else 0.0) + (0.5 if down else 0.0)
    # The tables are computed where a play's expectation reads them: a field's own (`now_gain`)
    # once some play leaves it open, a play's board where that field is open after it.
    now_done = np.zeros(NUM_FIELDS, np.bool_)
    open_after = np.zeros(NUM_FIELDS, np.bool_)
    a_codes, a_weights = x.a_codes, x.a_weights
    for f in range(NUM_FIELDS):
        n = x.n[f]
        codes, weights = x.codes[f], x.weights[f]
        sn = RING_A[(f - summer) % 4]
        # the board before the play: best_harvests' searches (budgets of play_features)
        G.fill_work(w, codes, n)
        can_harvest = n > 0 and (sn != WINTER or maiden)
        if can_harvest:
            reach = _reachable(codes, n)
            for v in range(1, MAX_VALUE + 1):
                x.harvest_mask[f, v] = G.U0
                if (reach >> v) & 1:
                    x.harvest_gain[f, v], x.harvest_mask[f, v] = G.heaviest_groups(v, n, weights, 0, w)
        x.sow_seen[:, 0] = False  # per card: its sown board's gains computed (sow_gain[card])
        harvest_done = np.zeros(MAX_VALUE + 1, np.bool_)
        harvest_gains = np.zeros((MAX_VALUE + 1, MAX_VALUE + 1), np.float64)
        for k in range(h):
            c = x.hand[k]
            turned = summer
            if FACE_A[c] and not queen:  # the Illimat turns: a Stars card to Summer
                to = SUMMER if SUIT_A[c] == STARS else SUIT_A[c]
                turned = (f - RING_POS_A[to]) % 4
            # sow
            if sn != AUTUMN:
                _open(x, f, n + 1, maiden, turned, open_after)
                slot = c
                if open_after[f]:
                    code = CODE_A[c]
                    slot = -1  # a card of the same code and weight sown before: the same board
                    for d in range(k):
                        e = x.hand[d]
                        if CODE_A[e] == code and CARD_WEIGHT_A[e] == CARD_WEIGHT_A[c] and x.sow_seen[e, 0]:
                            slot = e
                            break
                    if slot < 0:
                        a_codes[:n] = codes[:n]
                        a_weights[:n] = weights[:n]
                        a_codes[n], a_weights[n] = code, CARD_WEIGHT_A[c]
                        _harvest_table(a_codes, a_weights, n + 1, x, tw)
                        _gains(x, bonus[f], x.sow_gain[c])
                        x.sow_seen[c, 0] = True
                        slot = c
                _need(x, tw, f, open_after, now_done, bonus)
                _put(out, SOW_ROW, f, c, _expected(x, f, open_after, x.sow_gain[slot], u, probs))
            if n == 0:
                continue
            # the best harvest (play_features' heaviest_harvest of the card's values)
            if can_harvest:
                v = 0
                if FOOL_A[c]:
                    if x.harvest_mask[f, 1]:
                        v = 1
                    if x.harvest_mask[f, 14] and (v == 0 or x.harvest_gain[f, 14] > x.harvest_gain[f, 1]):
                        v = 14
                elif x.harvest_mask[f, RANK_A[c]]:
                    v = RANK_A[c]
                if v > 0:
                    mask = x.harvest_mask[f, v]
                    m = 0
                    for i in range(n):
                        if not (mask >> np.uint64(i)) & G.U1:
                            a_codes[m], a_weights[m] = codes[i], weights[i]
                            m += 1
                    _open(x, f, m, maiden, turned, open_after)
                    if open_after[f] and not harvest_done[v]:
                        _harvest_table(a_codes, a_weights, m, x, tw)
                        _gains(x, bonus[f], harvest_gains[v])
                        harvest_done[v] = True
                    _need(x, tw, f, open_after, now_done, bonus)
                    _put(out, HARVEST_ROW, f, c, _expected(x, f, open_after, harvest_gains[v], u, probs))
            # the best stockpile (play_features' best_stockpile), valued as a single stockpile
            if sn != SPRING:
                values = 0
                for k2 in range(h):
                    if k2 != k:
                        values |= 1 << PASSIVE_A[x.hand[k2]]
                if values == 0:
                    continue
                weights[n] = CARD_WEIGHT_A[c]
                active_bit = G.bit(n)
                best_gain, best_T, best_mask = 0.0, 0, G.U0
                for T in range(1, MAX_VALUE + 1):
                    if not (values >> T) & 1:
                        continue
                    gain, mask = G.heaviest_groups(T, n, weights, ACTIVE_A[c], w)
                    if mask & ~active_bit and gain > best_gain:
                        best_gain, best_T, best_mask = gain, T, mask & ~active_bit
                if best_T == 0:
                    continue
                _open(x, f, 1, maiden, turned, open_after)  # it holds the stockpile at least
                if open_after[f]:
                    m = 0
                    pile = 0.0  # its cards' weights: the taken items' cards in item order, then c
                    for i in range(n):
                        if (best_mask >> np.uint64(i)) & G.U1:
                            for y in range(NUM_CARDS):
                                if x.item_of[f, y] == i:
                                    pile += CARD_WEIGHT_A[y]
                        else:
                            a_codes[m], a_weights[m] = codes[i], weights[i]
                            m += 1
                    pile += CARD_WEIGHT_A[c]
                    a_codes[m], a_weights[m] = best_T, pile
                    _harvest_table(a_codes, a_weights, m + 1, x, tw)
                    _gains(x, bonus[f], x.field_gain)
                _need(x, tw, f, open_after, now_done, bonus)
                _put(out, STOCKPILE_ROW, f, c, _expected(x, f, open_after, x.field_gain, u, probs))
    mc = s.m_card[b]
    if s.cur[b] == p and mc >= 0 and s.loc[b, mc] == L_HAND + p:
        for r in range(ROWS):
            for f in range(NUM_FIELDS):
                out[MOVE_AT + r * NUM_FIELDS + f] = out[(r * NUM_FIELDS + f) * NUM_CARDS + mc]
    return 0


@njit(cache=True)
def threat_pieces(s, t, seat, memo, out):
    """out[b] = `threat_features(state b, seat[b], unseen, board)`; the observations refused
    (memo: unused, the signature of the other pieces' kernels)."""
    s, t = by_reference(s), by_reference(t)
    # the tables' packings' scratch (tw) apart from the boards' searches (w), not nested in the
    # Scratch: a tuple nested in a borrowed one keeps its arrays' reference counts, which numba
    # would then count at every packing (a third of the piece's time)
    scratch, work, table_work = _scratch(), G.new_work(), G.new_work()
    x, w, tw = by_reference(scratch), by_reference(work), by_reference(table_work)
    refused = 0
    for b in range(out.shape[0]):
        if seat[b] < 0:  # a row to skip (`recall`: its pieces are kept)
            continue
        refused += _row(s, t, b, seat[b], x, w, tw, out[b])
    keep_alive(scratch)
    keep_alive(work)
    keep_alive(table_work)
    return refused
