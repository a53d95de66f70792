"""The numba kernel of Illimat's compiled scripted agents (agents/illimat/batch.py says what it
answers and how it stays equal to `act`): `decide_rows` reads each observation as
`IllimatHeuristic._read` does, lists `_plans` (``lookahead``: less `_threat`), and answers `act`,
and `action_scores` where asked."""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from card_envs.numba_cache import njit

from card_envs.batch.illimat import groups as G
from card_envs.batch.illimat.kernels import FACE_A, FOOL_A, RANK_A, RING_A, RING_POS_A, SUIT_A
from card_envs.batch.illimat.threats import CARD_WEIGHT_A, COMB_A, _best_of_hand, _groups_totalling, _harvest_table, \
    _plain, _sorted_distinct
from card_envs.batch.numba_borrow import by_reference
from card_envs.games.illimat.cards import (
    ACTION, AUTUMN, CARD0, CHANGELING, CLAIM_GIVE, CLAIM_SEASON, CLAIM_TAKE, DONE, FIELD, FIELD0, FOREST_QUEEN, HARVEST,
    ITEMS, MAIDEN, NUM_CARDS, NUM_FIELDS, NUM_LUMINARIES, PAIR_VALUES, PARTNER, RAKE_CARD, RAKE_SOW, SEASON, SEASON0,
    SOW, SPRING, STARS, STOCKPILE, SUMMER, SWAP, SWAP_GIVE, SWAP_TAKE, TURN, UNION, VALUE, VALUE0, WINTER)

ERROR = -1  # no answer by the rules: `act` raises there
SEASON_ORDER = (SUMMER, SPRING, AUTUMN, WINTER)  # heuristic.SEASON_ORDER: a season decision's first offered
# The observation pieces read, in the order of the offsets `offsets` gives
PIECES = ("hand", "loose", "stockpiled", "single_key", "multiple_key", "seasons", "luminary_up", "luminary_down",
          "okus_left", "unseen", "hand_sizes", "decision", "move_cards", "move_field", "move_action",
          "move_value", "move_items", "turn")
(A_HAND, A_LOOSE, A_STOCKPILED, A_SINGLE, A_MULTIPLE, A_SEASONS, A_LUM_UP, A_LUM_DOWN, A_OKUS, A_UNSEEN,
 A_HAND_SIZES, A_DECISION, A_MOVE_CARDS, A_MOVE_FIELD, A_MOVE_ACTION, A_MOVE_VALUE, A_MOVE_ITEMS,
 A_TURN) = range(len(PIECES))
NUM_DECISION_KINDS = 13
MAX_PLANS = 1024  # per row: 4 cards x 4 fields x (a sow, 2 harvests, 12 Union pairs, 3 stockpiles) at most
BIG_GROUPS = 2_100  # a Union pair's groups_totalling: 2,000 steps (a group at most each) + a multiple per item
UNION_GROUPS_BUDGET = 2_000  # groups.groups_totalling's default budget (heaviest_groups above 14)
CODE_A = np.array([0 if FOOL_A[c] else RANK_A[c] for c in range(NUM_CARDS)], np.int64)  # a loose card's code
PASSIVE_A = np.array([14 if FOOL_A[c] else RANK_A[c] for c in range(NUM_CARDS)], np.int64)
LAST_A = np.array([14 if FOOL_A[c] else RANK_A[c] for c in range(NUM_CARDS)], np.int64)  # HARVEST_VALUES[c][-1]
FIRST_A = np.array([1 if FOOL_A[c] else RANK_A[c] for c in range(NUM_CARDS)], np.int64)  # HARVEST_VALUES[c][0]
PAIRS_A = np.zeros((NUM_CARDS, NUM_CARDS, 4), np.int64)  # PAIR_VALUES[c][d], 0-padded (at most 3 values)
for _c in range(NUM_CARDS):
    for _d in range(NUM_CARDS):
        PAIRS_A[_c, _d, :len(PAIR_VALUES[_c][_d])] = PAIR_VALUES[_c][_d]


def offsets(layout) -> np.ndarray:
    """Where each piece `PIECES` names starts in ``layout``'s observation (int64)."""
    return np.array([layout.slices[name].start for name in PIECES], np.int64)


# A row's reading and plans. Fields' items in key order: keys, codes (a slot more for a sown card
# or a stockpile's active card), weights (likewise), their cards (cards[first_card : + n_cards]).
# ints: R_* below. Plans: score, the score less the threat (lookahead), card, field, action,
# partner, value, items (bit i: the field's item i), and the order they are read in.
Row = namedtuple("Row", (
    "hand keys codes weights n first_card n_cards cards seasons lum_field lum_up lum_down unseen ints "
    "p_score p_look p_card p_field p_action p_partner p_value p_mask order "
    "a_codes a_weights t_gain t_clear done gains probs picked chosen bonus is_open seasons_after").split())
R_NH, R_NU, R_NEXT, R_OKUS, R_TURN0, R_RAKE_OWED, R_PLANS, R_READY = range(8)  # Row.ints


def row_scratch() -> Row:
    i8, f8, b1, C, F, P = np.int64, np.float64, np.bool_, NUM_CARDS, NUM_FIELDS, MAX_PLANS
    return Row(np.empty(C, i8), np.empty((F, C + 1), i8), np.empty((F, C + 2), i8), np.empty((F, C + 2), f8),
               np.zeros(F, i8), np.empty((F, C + 1), i8), np.empty((F, C + 1), i8), np.empty((F, 2 * C + 2), i8),
               np.zeros(F, i8), np.empty(NUM_LUMINARIES, i8), np.zeros(F, b1), np.zeros(F, b1),
               np.empty(C, i8), np.zeros(8, i8),
               np.empty(P, f8), np.empty(P, f8), np.empty(P, i8), np.empty(P, i8), np.empty(P, i8), np.empty(P, i8),
               np.empty(P, i8), np.empty(P, np.uint64), np.empty(P, i8),
               np.empty(C + 2, i8), np.empty(C + 2, f8), np.zeros((F + 1, 15), f8), np.zeros((F + 1, 15), b1),
               np.zeros(F, b1), np.empty(C, f8), np.empty(C, f8), np.zeros(C, b1), np.zeros(C, b1), np.zeros(F, f8),
               np.zeros(F, b1), np.zeros(F, i8))


# Turns' plans, kept as Python's `_turns` keeps them: by the observation before its decision pieces
# and the turn flags (unchanged while a move is chosen over several decisions), in a direct-mapped
# table checked entry by entry, so that a turn's later decisions read its plans instead of listing
# them again. Plans already sorted; a turn with more than CACHED_PLANS plans is listed every time.
PlanCache = namedtuple("PlanCache", "keys filled count look card field action partner value mask")
CACHE_SLOTS = 1024
CACHED_PLANS = 256


def plan_cache(at: np.ndarray) -> PlanCache:
    """An empty cache for observations whose decision pieces start at at[A_DECISION]."""
    K, P, i8 = CACHE_SLOTS, CACHED_PLANS, np.int64
    return PlanCache(np.zeros((K, at[A_DECISION] + 3), np.float32), np.zeros(K, np.bool_), np.zeros(K, i8),
                     np.empty((K, P), np.float64), np.empty((K, P), i8), np.empty((K, P), i8), np.empty((K, P), i8),
                     np.empty((K, P), i8), np.empty((K, P), i8), np.empty((K, P), np.uint64))


def union_scratch():
    """threats.Scratch, for the tables and a Union pair's search."""
    from card_envs.batch.illimat.threats import _scratch as threat_scratch

    return threat_scratch()


def works() -> tuple:
    """The groups.Work of each field's searches and one for the tables and the Union pairs' searches
    (`BIG_GROUPS` groups of up to 28 items, within a Work's capacity). Separate tuples, each passed
    by reference: a tuple nested in a borrowed one keeps its arrays' reference counts."""
    assert BIG_GROUPS <= G.GROUPS_CAP and BIG_GROUPS * 28 <= G.GROUPS_CAP * (G.MAX_SINGLE + 1)
    return tuple(G.new_work() for _ in range(NUM_FIELDS + 1))


# ----- reading the observation (`_read`) ----------------------------------------------------------
@njit(cache=True)
def _value(x):
    """np.rint of an observation entry times a scale, as an int."""
    return int(np.rint(x))


@njit(cache=True)
def _cards_in(o, start, out):
    """The cards whose entries o[start + card] are non-zero, ascending, into out; their number."""
    k = 0
    for c in range(NUM_CARDS):
        if o[start + c] != 0:
            out[k] = c
            k += 1
    return k


@njit(cache=True)
def _read(o, at, x):
    C = NUM_CARDS
    x.ints[R_NH] = _cards_in(o, at[A_HAND], x.hand)
    values = np.empty(C, np.int64)
    for f in range(NUM_FIELDS):
        base = f * C
        for d in range(C):
            values[d] = _value(o[at[A_STOCKPILED] + base + d] * 14)
        n, m = 0, 0
        for c in range(C):
            if o[at[A_LOOSE] + base + c] != 0:
                x.keys[f, n], x.codes[f, n] = c, CODE_A[c]
                x.first_card[f, n], x.n_cards[f, n] = m, 1
                x.cards[f, m] = c
                m += 1
                x.weights[f, n] = 0.0 + CARD_WEIGHT_A[c]
                n += 1
                continue
            multiple = o[at[A_MULTIPLE] + base + c] != 0
            if not (multiple or o[at[A_SINGLE] + base + c] != 0):
                continue
            # `_read`: the keys of equal (value, kind) share that value's cards, split evenly
            value = values[c]
            index, keys = 0, 0
            for k in range(C):
                if o[at[A_MULTIPLE if multiple else A_SINGLE] + base + k] != 0 and values[k] == value:
                    index += k < c
                    keys += 1
            x.keys[f, n], x.codes[f, n] = c, value + (G.MULTIPLE_CODE if multiple else 0)
            x.first_card[f, n] = m
            weight, seen = 0.0, 0
            for d in range(C):
                if values[d] == value:
                    if seen % keys == index:
                        x.cards[f, m] = d
                        m += 1
                        weight += CARD_WEIGHT_A[d]
                    seen += 1
            x.n_cards[f, n] = m - x.first_card[f, n]
            x.weights[f, n] = weight
            n += 1
        x.n[f] = n
        best = 0
        for s in range(4):
            if o[at[A_SEASONS] + f * 4 + s] > o[at[A_SEASONS] + f * 4 + best]:
                best = s
        x.seasons[f] = best
        up = False
        for L in range(NUM_LUMINARIES):
            up = up or o[at[A_LUM_UP] + f * NUM_LUMINARIES + L] != 0
        x.lum_up[f] = up
        x.lum_down[f] = o[at[A_LUM_DOWN] + f] != 0
    for L in range(NUM_LUMINARIES):
        x.lum_field[L] = -1
        for f in range(NUM_FIELDS):
            if o[at[A_LUM_UP] + f * NUM_LUMINARIES + L] != 0:
                x.lum_field[L] = f
                break
    x.ints[R_NU] = _cards_in(o, at[A_UNSEEN], x.unseen)
    x.ints[R_NEXT] = _value(o[at[A_HAND_SIZES] + 1] * 4)
    x.ints[R_OKUS] = o[at[A_OKUS]] > 0
    x.ints[R_TURN0] = o[at[A_TURN]] != 0
    x.ints[R_RAKE_OWED] = o[at[A_TURN] + 1] != 0
    for f in range(NUM_FIELDS):
        x.bonus[f] = 2.5 * x.ints[R_OKUS] + 1.5 * x.lum_up[f] + 0.5 * x.lum_down[f]  # `_clear_bonus`
    x.ints[R_PLANS] = -1  # not listed yet


# ----- the plans (`_plans`, `IllimatLookahead._plans`) ---------------------------------------------
@njit(cache=True)
def _full(n):
    return ~G.U0 if n == 64 else G.bit(n) - G.U1


@njit(cache=True)
def _steal_chance(x, value):
    u, h = x.ints[R_NU], x.ints[R_NEXT]
    m = 0
    for k in range(u):
        c = x.unseen[k]
        m += FIRST_A[c] == value or LAST_A[c] == value
    if h <= 0 or m == 0 or u == 0:
        return 0.0
    h = min(h, u)
    return 1.0 - np.float64(COMB_A[u - m, h]) / np.float64(COMB_A[u, h])


@njit(cache=True)
def _union_groups(target, f, x, xu, tw):
    """groups.heaviest_groups above 14 (a Union pair's value): groups_totalling, then the packing."""
    n = x.n[f]
    codes = x.codes[f]
    _plain(codes, n, xu)
    k = _groups_totalling(target, codes, n, UNION_GROUPS_BUDGET, xu, tw)
    if k == 0:
        return 0.0, G.U0
    k = _sorted_distinct(tw.groups, k)
    return G.heaviest_packing(k, x.weights[f], G.U0, n, G.PACKING_BUDGET, tw)


@njit(cache=True)
def _add(x, score, c, f, action, partner, value, mask):
    j = x.ints[R_PLANS]
    x.p_score[j], x.p_card[j], x.p_field[j], x.p_action[j] = score, c, f, action
    x.p_partner[j], x.p_value[j], x.p_mask[j] = partner, value, mask
    x.ints[R_PLANS] = j + 1


@njit(cache=True)
def _harvests(x, xu, ws, c, f, union_field):
    n = x.n[f]
    nh = x.ints[R_NH]
    pairs = f == union_field and not (x.ints[R_RAKE_OWED] and nh < 3)
    for o in range(-1, nh):
        partner = -1 if o < 0 else x.hand[o]
        if partner == c or (partner >= 0 and not pairs):
            continue
        for t in range(4 if partner >= 0 else 2):
            if partner < 0:
                v = FIRST_A[c] if t == 0 else LAST_A[c]
                if t == 1 and v == FIRST_A[c]:
                    break
            else:
                v = PAIRS_A[c, partner, t]
                if v == 0:
                    break
            if v <= 14:
                gain, mask = G.heaviest_groups(v, n, x.weights[f], 0, ws[f])
            else:
                gain, mask = _union_groups(v, f, x, xu, ws[NUM_FIELDS])
            if mask == G.U0:
                continue
            played = CARD_WEIGHT_A[c] + (CARD_WEIGHT_A[partner] if partner >= 0 else 0.0)
            score = gain + played + (x.bonus[f] if mask == _full(n) else 0.0)
            _add(x, score, c, f, HARVEST, partner, v, mask)


@njit(cache=True)
def _stockpiles(x, ws, c, f):
    n = x.n[f]
    values = np.zeros(15, np.bool_)
    for o in range(x.ints[R_NH]):
        d = x.hand[o]
        if d != c:
            values[PASSIVE_A[d]] = True
    active = G.bit(n)
    for T in range(15):
        if not values[T]:
            continue
        x.weights[f, n] = CARD_WEIGHT_A[c]
        gain, mask = G.heaviest_groups(T, n, x.weights[f], RANK_A[c], ws[f])
        if mask & ~active == G.U0:
            continue
        score = 0.7 * gain * (1.0 - _steal_chance(x, T)) - 0.3
        _add(x, score, c, f, STOCKPILE, -1, T, mask & ~active)


@njit(cache=True)
def _list_plans(x, xu, ws, lookahead):
    x.ints[R_PLANS] = 0
    maiden = x.lum_field[MAIDEN] >= 0
    union_field = x.lum_field[UNION]
    for f in range(NUM_FIELDS):
        G.fill_work(ws[f], x.codes[f], x.n[f])
    for o in range(x.ints[R_NH]):
        c = x.hand[o]
        for f in range(NUM_FIELDS):
            season, n = x.seasons[f], x.n[f]
            if season != AUTUMN:
                _add(x, -0.5 * CARD_WEIGHT_A[c] - 0.01 * RANK_A[c], c, f, SOW, -1, 0, G.U0)
            if (season != WINTER or maiden) and n:
                _harvests(x, xu, ws, c, f, union_field)
            if season != SPRING and n:
                _stockpiles(x, ws, c, f)
    P = x.ints[R_PLANS]
    order = np.argsort(-x.p_score[:P], kind="mergesort")  # Python's sort: stable
    if lookahead:
        x.done[:] = False
        for j in range(P):
            x.p_look[j] = x.p_score[j] - _threat(x, xu, ws, j)
        order = order[np.argsort(-x.p_look[order], kind="mergesort")]
    else:
        x.p_look[:P] = x.p_score[:P]
    x.order[:P] = order


@njit(cache=True)
def _plans_of(o, at, x, xu, ws, lookahead, cache):
    """The turn's plans in x (listed by `_list_plans`, or read from ``cache``)."""
    if x.ints[R_PLANS] >= 0:
        return
    start, turn = at[A_DECISION], at[A_TURN]
    h = np.uint64(14695981039346656037)  # FNV-1a over the key's float32 bits
    bits = o.view(np.uint32)
    for i in range(start):
        h = (h ^ np.uint64(bits[i])) * np.uint64(1099511628211)
    for i in range(3):
        h = (h ^ np.uint64(bits[turn + i])) * np.uint64(1099511628211)
    slot = h % np.uint64(cache.filled.shape[0])
    key = cache.keys[slot]
    same = cache.filled[slot]
    for i in range(start):
        if not same:
            break
        same = key[i] == o[i]
    for i in range(3):
        same = same and key[start + i] == o[turn + i]
    if same:
        P = cache.count[slot]
        for k in range(P):
            x.p_look[k], x.p_card[k], x.p_field[k] = cache.look[slot, k], cache.card[slot, k], cache.field[slot, k]
            x.p_action[k], x.p_partner[k] = cache.action[slot, k], cache.partner[slot, k]
            x.p_value[k], x.p_mask[k], x.order[k] = cache.value[slot, k], cache.mask[slot, k], k
        x.ints[R_PLANS] = P
        return
    _list_plans(x, xu, ws, lookahead)
    P = x.ints[R_PLANS]
    cache.filled[slot] = P <= cache.look.shape[1]
    if not cache.filled[slot]:
        return
    key[:start] = o[:start]
    key[start:] = o[turn:turn + 3]
    cache.count[slot] = P
    for k in range(P):
        j = x.order[k]
        cache.look[slot, k], cache.card[slot, k], cache.field[slot, k] = x.p_look[j], x.p_card[j], x.p_field[j]
        cache.action[slot, k], cache.partner[slot, k] = x.p_action[j], x.p_partner[j]
        cache.value[slot, k], cache.mask[slot, k] = x.p_value[j], x.p_mask[j]


# ----- lookahead's threat (`_board_after`, `_threat`) ---------------------------------------------
@njit(cache=True)
def _table(x, xu, ws, g, codes, weights, n):
    _harvest_table(codes, weights, n, xu, ws[NUM_FIELDS])
    x.t_gain[g, :] = xu.t_gain
    x.t_clear[g, :] = xu.t_clear


@njit(cache=True)
def _after(x, j):
    """The plan's field once played, into x.a_codes, x.a_weights: its items left, then a sown card or
    the stockpile made (valued as a single one). Their number."""
    c, f, action, mask = x.p_card[j], x.p_field[j], x.p_action[j], x.p_mask[j]
    k = 0
    made = 0.0
    for i in range(x.n[f]):
        if action != SOW and mask >> np.uint64(i) & G.U1:
            if action == STOCKPILE:
                for e in range(x.first_card[f, i], x.first_card[f, i] + x.n_cards[f, i]):
                    made += CARD_WEIGHT_A[x.cards[f, e]]
            continue
        x.a_codes[k], x.a_weights[k] = x.codes[f, i], x.weights[f, i]
        k += 1
    if action == SOW:
        x.a_codes[k], x.a_weights[k] = CODE_A[c], 0.0 + CARD_WEIGHT_A[c]
        k += 1
    elif action == STOCKPILE:
        x.a_codes[k], x.a_weights[k] = x.p_value[j], made + CARD_WEIGHT_A[c]
        k += 1
    return k


@njit(cache=True)
def _threat(x, xu, ws, j):
    """The next player's expected best harvest once plan j is played (`IllimatLookahead._threat`)."""
    u, h = x.ints[R_NU], x.ints[R_NEXT]
    if u == 0 or h <= 0:
        return 0.0  # every chance is 0: the expectation is 0.0 exactly
    c, f, partner = x.p_card[j], x.p_field[j], x.p_partner[j]
    n_after = _after(x, j)
    face = partner if partner >= 0 and FACE_A[partner] else (c if FACE_A[c] else -1)
    turned = face >= 0 and x.lum_field[FOREST_QUEEN] < 0
    summer = 0
    if turned:
        season = SUMMER if SUIT_A[face] == STARS else SUIT_A[face]
        summer = (f - RING_POS_A[season]) % 4
    maiden = x.lum_field[MAIDEN] >= 0
    for g in range(NUM_FIELDS):
        season = RING_A[(g - summer) % 4] if turned else x.seasons[g]
        has = n_after > 0 if g == f else x.n[g] > 0
        x.is_open[g] = has and (season != WINTER or maiden)
        if x.is_open[g] and g != f and not x.done[g]:
            _table(x, xu, ws, g, x.codes[g], x.weights[g], x.n[g])
            x.done[g] = True
    if x.is_open[f]:
        _table(x, xu, ws, NUM_FIELDS, x.a_codes, x.a_weights, n_after)
    gains = x.gains
    for k in range(u):
        d = x.unseen[k]
        best = 0.0
        found = False
        for g in range(NUM_FIELDS):
            if not x.is_open[g]:
                continue
            t = NUM_FIELDS if g == f else g
            for v in (FIRST_A[d], LAST_A[d]):
                gain = x.t_gain[t, v]
                if gain > 0:
                    value = gain + CARD_WEIGHT_A[d] + (x.bonus[g] if x.t_clear[t, v] else 0.0)
                    if not found or value > best:
                        best, found = value, True
        best = max(best, 0.0)
        i = k  # insertion, largest first
        while i > 0 and gains[i - 1] < best:
            gains[i] = gains[i - 1]
            i -= 1
        gains[i] = best
    _best_of_hand(u, h, x.probs)
    total = 0.0
    for k in range(u):
        total += gains[k] * x.probs[k]
    return total


# ----- following a plan (`consistent_plans`, `_next_action`) ---------------------------------------
@njit(cache=True)
def _move(o, at, x):
    """The move chosen so far: x.chosen, x.picked; (number of chosen cards, field, action, value)."""
    chosen = 0
    for c in range(NUM_CARDS):
        x.chosen[c] = o[at[A_MOVE_CARDS] + c] != 0
        chosen += x.chosen[c]
        x.picked[c] = o[at[A_MOVE_ITEMS] + c] != 0
    field = _first_max(o, at[A_MOVE_FIELD], NUM_FIELDS, True)
    action = _first_max(o, at[A_MOVE_ACTION], 3, True)
    return chosen, field, SOW + action if action >= 0 else -1, _value(o[at[A_MOVE_VALUE]] * 28)


@njit(cache=True)
def _first_max(o, start, size, none_if_zero):
    """argmax of o[start:start + size]; -1 where ``none_if_zero`` and every entry is 0."""
    best = 0
    anything = False
    for i in range(size):
        anything = anything or o[start + i] != 0
        if o[start + i] > o[start + best]:
            best = i
    return -1 if none_if_zero and not anything else best


@njit(cache=True)
def _consistent(x, j, chosen, field, action, value):
    c, f, partner = x.p_card[j], x.p_field[j], x.p_partner[j]
    if chosen and not x.chosen[c]:
        return False
    if partner >= 0 and chosen == 2 and not x.chosen[partner]:
        return False
    if field >= 0 and f != field or action >= 0 and x.p_action[j] != action or value and x.p_value[j] != value:
        return False
    for i in range(x.n[f]):
        if x.picked[x.keys[f, i]] and not (x.p_mask[j] >> np.uint64(i)) & G.U1:
            return False
    return True


@njit(cache=True)
def _next_action(x, decision, j):
    c, f = x.p_card[j], x.p_field[j]
    if decision == TURN:
        return CARD0 + c
    if decision == FIELD:
        return FIELD0 + f
    if decision == ACTION:
        return x.p_action[j]
    if decision == PARTNER:
        return x.p_partner[j] if x.p_partner[j] >= 0 else DONE
    if decision == VALUE:
        return VALUE0 + x.p_value[j]
    if decision == ITEMS:
        for i in range(x.n[f]):
            if (x.p_mask[j] >> np.uint64(i)) & G.U1 and not x.picked[x.keys[f, i]]:
                return x.keys[f, i]
        return DONE
    return -1


# ----- acting (`act`, `action_scores`) -------------------------------------------------------------
@njit(cache=True)
def _follow_plans(o, legal, at, x, xu, ws, lookahead, cache, decision, out):
    """The next action of the best plan consistent with the move chosen so far (-1 where there is
    none or that action is not legal). With ``out`` not empty (`action_scores`), each consistent
    plan's next legal action is given the plan's score, the best plan's where several lead to it."""
    chosen, field, action, value = _move(o, at, x)
    _plans_of(o, at, x, xu, ws, lookahead, cache)
    best = -2
    for k in range(x.ints[R_PLANS]):
        j = x.order[k]
        if _consistent(x, j, chosen, field, action, value):
            a = _next_action(x, decision, j)
            is_legal = 0 <= a < legal.shape[0] and legal[a]
            if best == -2:
                best = a if is_legal else -1
            if out.shape[0] == 0:
                break
            if is_legal and out[a] == -np.inf:
                out[a] = np.float32(x.p_look[j])
    return max(best, -1)


@njit(cache=True)
def _act(o, legal, at, x, xu, ws, lookahead, cache, decision):
    first, count = -1, 0
    for a in range(legal.shape[0]):
        if legal[a]:
            count += 1
            if first < 0:
                first = a
    if count == 1:
        return first
    nh = x.ints[R_NH]
    if decision == SEASON or decision == CLAIM_SEASON:
        for season in SEASON_ORDER:
            if legal[SEASON0 + season]:
                return SEASON0 + season
        return first
    if decision == CLAIM_GIVE:
        return DONE
    if decision == RAKE_CARD or decision == SWAP_GIVE:
        return _least_hand_card(x, True)
    if decision == SWAP_TAKE or decision == CLAIM_TAKE:
        best = -1
        for a in range(legal.shape[0]):
            if legal[a]:
                if a >= NUM_CARDS:
                    return ERROR
                if best < 0 or CARD_WEIGHT_A[a] > CARD_WEIGHT_A[best]:
                    best = a
        return best
    if decision == TURN:
        if x.ints[R_TURN0]:
            return RAKE_SOW if legal[RAKE_SOW] else DONE
        if legal[SWAP]:
            g = x.lum_field[CHANGELING]
            if g < 0 or nh == 0:
                return ERROR
            best_loose = -9.0
            for i in range(x.n[g]):
                if x.n_cards[g, i] == 1 and x.cards[g, x.first_card[g, i]] == x.keys[g, i]:
                    best_loose = max(best_loose, CARD_WEIGHT_A[x.keys[g, i]])
            worst = _least_hand_card(x, False)
            if best_loose - CARD_WEIGHT_A[worst] >= 1.5:
                return SWAP
        if first >= NUM_CARDS:  # no card to play
            return RAKE_SOW if legal[RAKE_SOW] else first
    a = _follow_plans(o, legal, at, x, xu, ws, lookahead, cache, decision, np.empty(0, np.float32))
    if a >= 0:
        return a
    return DONE if legal[DONE] and decision == ITEMS else first


@njit(cache=True)
def _least_hand_card(x, by_rank):
    """min(hand, key=(weight, RANK, c)) (by_rank) or min by weight alone (its first); ERROR when
    the hand is empty."""
    best = ERROR
    for o in range(x.ints[R_NH]):
        c = x.hand[o]
        if best < 0 or CARD_WEIGHT_A[c] < CARD_WEIGHT_A[best] or (
                by_rank and CARD_WEIGHT_A[c] == CARD_WEIGHT_A[best] and RANK_A[c] < RANK_A[best]):
            best = c
    return best


@njit(cache=True)
def _scores(o, legal, at, x, xu, ws, lookahead, cache, decision, chosen_action, out):
    """`action_scores`' scores into out (float32, -inf to start with)."""
    if decision <= ITEMS:  # PLANNED: turn, field, action, partner, value, items
        _follow_plans(o, legal, at, x, xu, ws, lookahead, cache, decision, out)
    if out[chosen_action] == -np.inf or out[chosen_action] < out.max():
        out[:] = -np.inf
        out[chosen_action] = 0.0


@njit(cache=True)
def decide_rows(observations, legal, at, lookahead, scored, x, xu, works, cache, actions, scores):
    """`act` (and with ``scored``, `action_scores`) of every row into actions (and scores); ``cache``:
    `plan_cache`, kept between calls (the agent's own: its plans are its kind's). The scratch and
    the cache are passed on by reference (`numba_borrow.by_reference`: the row's scratch alone is
    35 arrays, copied at each call otherwise)."""
    x, xu, cache = by_reference(x), by_reference(xu), by_reference(cache)
    # the four fields' searches and the tables' (a pointer each: see `union_scratch`)
    ws = (by_reference(works[0]), by_reference(works[1]), by_reference(works[2]), by_reference(works[3]),
          by_reference(works[4]))
    for r in range(observations.shape[0]):
        o = observations[r]
        _read(o, at, x)
        decision = _first_max(o, at[A_DECISION], NUM_DECISION_KINDS, False)
        a = _act(o, legal[r], at, x, xu, ws, lookahead, cache, decision)
        actions[r] = a
        if scored and a != ERROR:
            _scores(o, legal[r], at, x, xu, ws, lookahead, cache, decision, a, scores[r])
