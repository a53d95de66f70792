"""`act_batch` of Split the Hoard's scripted agent (agents/split_the_hoard.py): `act` compiled with numba.

The trainer asks the scripted agent for hundreds of decisions at a time (opponents, teacher labels,
cloning games); in Python each costs about a dozen position values (`_worth`), each a softmax over
the seats per Starting Title. The kernel below is `act` row by row over the batch: the observation
read as `_read` reads it, every decision kind answered by the same rule, and every value computed
with the same float64 operations in the same order (sums from the first term, `math.exp`, libm's
`pow` for ``**``, sorted orders and first-maximum ties as Python's), so that equal positions compare
equal and ties break alike (tests/test_split_the_hoard_act_batch.py checks it decision by decision
against `act`). The card list, Titles and the agent's parameters come in as tables
(`SplitTheHoardHeuristic._tables`); this module does not import the agent. Where `act` raises (no
legal card to choose, an ability with no effect), the kernel answers `ERROR` and `act` is run on
that row to raise its own error; in the few positions the rules never ask where `act` answers by
Python's negative indexing (a BUY_SLOT with other actions legal than the three Negotiate Cards),
the kernel answers `ERROR` too and `act_batch` raises RuntimeError. Without numba (it is in the
train and batch extras) `act` runs per row.
"""

from __future__ import annotations

import math
import weakref

import numpy as np

from card_envs.games.split_the_hoard.cards import HIDDEN_CRITERIA, STARTING_CRITERIA
from card_envs.games.split_the_hoard.effects import (
    BUY_SLOT, COMMIT_CARD, COMMIT_COINS, DEAL, EXTRA_COIN, FLIP, GIVE, NUM_DECISIONS, ORDER, PICK, PRIMITIVES,
    PRIORITY, REACT, RECOVER, SCRY, TAKE, TARGET, TURN)

ERROR = -2  # the kernel's answer where `act` raises (-1 is an answer `act` can give: GIVE with nothing to give)
KIND = {name: i for i, name in enumerate(PRIMITIVES)}  # effect primitive -> code (-1: no effect)
ROLES = ("effect", "refuse", "cancel_coin", "cancel_treasure", "class")
ROLE_OF_KIND = np.array([ROLES.index(p.role) for p in PRIMITIVES.values()], np.int64)
(GAIN_K, TAKE_COINS_K, TAKE_EACH_K, RECOVER_COINS_K, RECOVER_TREASURE_K, DRAW_TREASURE_K, PICK_TOP_K, PEEK_DECK_K,
 FLIP_COIN_K, EXTRA_DRAW_K, DISCOUNT_K, PRINTED_ONLY_K, STEAL_K, SWAP_K, EXTRA_ACTION_K, TAKE_DRAGON_K) = (
    KIND[k] for k in ("GAIN", "TAKE_COINS", "TAKE_EACH", "RECOVER_COINS", "RECOVER_TREASURE", "DRAW_TREASURE",
                      "PICK_TOP", "PEEK_DECK", "FLIP_COIN", "EXTRA_DRAW", "DISCOUNT", "PRINTED_ONLY", "STEAL", "SWAP",
                      "EXTRA_ACTION", "TAKE_DRAGON"))
REFUSE_ROLE, CANCEL_COIN_ROLE = ROLES.index("refuse"), ROLES.index("cancel_coin")
HIGH, LOW, RUN, BALANCE, MOST_COINS = (STARTING_CRITERIA.index(c) for c in (
    "highest_total_rank", "lowest_total_rank", "longest_run", "balance", "most_coins"))
K_OF, ALL_OF, DISTINCT, MAX_RANK, COINS_VS, COINS_AT_MOST, ICONS = range(len(HIDDEN_CRITERIA))
if tuple(HIDDEN_CRITERIA) != ("k_of", "all_of", "distinct_names", "max_rank", "coins_vs_treasures", "coins_at_most",
                              "icons"):
    raise ImportError("agents/split_the_hoard_batch.py numbers the hidden Title criteria in another order")

# The observation pieces the agent reads, in the order of `offsets`.
PIECES = ("decision", "classes", "coins", "treasures", "offers", "offer_coins", "hand", "hidden_title", "seen_held",
          "seen_deck", "deck_size", "coin_discard_size", "treasure_discard", "turn", "effect_card", "effect_take",
          "effect_give", "effect_slot", "effect_seats", "refused")
(O_DECISION, O_CLASSES, O_COINS, O_TREASURES, O_OFFERS, O_OFFER_COINS, O_HAND, O_TITLE, O_SEEN_HELD, O_SEEN_DECK,
 O_DECK, O_COIN_DISCARD, O_DISCARD, O_TURN, O_CARD, O_TAKE, O_GIVE, O_SLOT, O_SEATS, O_REFUSED) = range(len(PIECES))

# The agent's tables, passed to the kernel as one tuple (not as numba globals, which a cached
# compile would keep after the cards change), in this order:
TABLE_NAMES = ("ints", "floats", "copies", "fixed", "is_mod", "rank", "vp", "cond_kind", "cond_set", "title_kind",
               "title_min", "title_temp", "tie", "mod_values", "mod_order", "hidden_kind", "hidden_vp",
               "hidden_par", "hidden_names", "hidden_groups", "hidden_icons", "effects", "class_effects", "offsets")
(T_INTS, T_FLOATS, T_COPIES, T_FIXED, T_IS_MOD, T_RANK, T_VP, T_COND_KIND, T_COND_SET, T_TITLE_KIND, T_TITLE_MIN,
 T_TITLE_TEMP, T_TIE, T_MOD_VALUES, T_MOD_ORDER, T_HIDDEN_KIND, T_HIDDEN_VP, T_HIDDEN_PAR, T_HIDDEN_NAMES,
 T_HIDDEN_GROUPS, T_HIDDEN_ICONS, T_EFFECTS, T_CLASS_EFFECTS, T_OFFSETS) = range(len(TABLE_NAMES))
# entries of "ints"
(I_N, I_NN, I_TARGET0, I_SLOT0, I_DRAW2, I_YES, I_DONE, I_POWER, I_START_DECK, I_MAX_COPIES, I_NUM_CARDS,
 I_NUM_CLASSES, I_RANK_LOW, I_RANK_HIGH, I_MAX_PROTECT) = range(15)
# entries of "floats": the parameters, and the exponent 2.0 of `_progress` (data, so that the
# compiler cannot turn pow(x, 2.0) into x * x, which differs from Python's ``x ** 2`` in the last bit)
F_COIN_VALUE, F_DENIAL, F_MARGIN, F_PROTECT_SHARE, F_SVP, F_TWO = range(6)
# "hidden_par" columns: k (k_of, distinct_names, icons), min (max_rank), ratio and min_coins
# (coins_vs_treasures), n (coins_at_most), number of groups (all_of)
P_K, P_MIN, P_RATIO, P_MIN_COINS, P_N, P_GROUPS = range(6)
# "effects" / "class_effects" rows: (primitive code or -1, number of arguments, arg 1, arg 2)
# row scalars of a position (`_read`'s)
(S_DECK, S_COIN_DISCARD, S_TITLE, S_DISCOUNT, S_PRINTED, S_ACTOR, S_TARGET, S_CARD, S_TAKE, S_GIVE, S_SLOT,
 S_DECISION, NUM_S) = range(13)
U_UNC, U_NOW = range(2)
# Scratch levels of holdings and Coins (`_copy`, `_dup`), one per depth of the decision's calls
# that keeps a changed position while it calls on: the deciders' candidates, `_after_card`'s and
# `_after_coins`', the draw 2's, an ability's position after its discard, its candidates, and
# `_best_action`'s
L_TOP, L_AFTER, L_DRAW, L_BASE, L_INNER, L_BEST = range(6)
CACHE = 1 << 16  # rows of a policy's cache of criterion values by ranked holdings (direct-mapped)
GOLDEN = -0x61C8864680B583EB  # 2 ** 64 / golden ratio, as an int64
COUNTS_PER_WORD = 16  # ranked counts packed into one int64 of a cache key, 4 bits each
# Each policy's row states (`_row_state`), kept between calls with the tables they were made for:
# the cache of criterion values serves every later call; a list, so that a call made while
# another runs (a thread) takes a fresh state
_STATES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def act_batch(policy, observations, action_masks, rng, tables) -> np.ndarray:
    """`policy.act` on every row of ``observations`` [B, obs] and ``action_masks`` [B, actions]
    (``tables``: `TABLE_NAMES`; None: `act` per row)."""
    legal = np.asarray(action_masks) != 0
    observations = np.ascontiguousarray(observations, dtype=np.float32)
    width, actions_width = policy.layout.size, policy.game.num_actions
    if observations.shape != (len(legal), width) or legal.shape != (len(legal), actions_width):
        raise ValueError(f"{policy.name}.act_batch takes observations [rows, {width}] and action masks "
                         f"[rows, {actions_width}] of this game, not {observations.shape} and {legal.shape}")
    if not legal.any(axis=-1).all():
        raise ValueError("an action_mask row has no legal action")
    if _decide_batch is None or tables is None:
        return np.array([policy.act(o, m, rng) for o, m in zip(observations, legal)], dtype=np.int64)
    actions = np.empty(len(legal), dtype=np.int64)
    held = _STATES.get(policy)
    if held is None or held[0] is not tables:
        held = _STATES[policy] = (tables, [])
    state = held[1].pop() if held[1] else _row_state(tables)
    _decide_batch(observations, np.ascontiguousarray(legal), tables, state, actions)
    held[1].append(state)
    for i in np.flatnonzero(actions == ERROR):  # no answer by the rules: `act` raises its error here
        policy.act(observations[i], legal[i], rng)
        raise RuntimeError(f"row {i}: the compiled rules found no answer where {policy.name}.act found one")
    return actions


# ----- reading the observation (`_read`) --------------------------------------------------------
def _count(obs, i: int, scale: int) -> int:
    """np.rint(obs * scale) as an int (a count piece)."""
    return int(np.rint(obs[i] * np.float32(scale)))


def _first_max(obs, start: int, size: int) -> int:
    """np.argmax of ``obs[start:start + size]``."""
    best = 0
    for i in range(1, size):
        if obs[start + i] > obs[start + best]:
            best = i
    return best


def _any(obs, start: int, size: int) -> bool:
    for i in range(size):
        if obs[start + i] != 0:
            return True
    return False


def _row_state(tb) -> tuple:
    """Room for one position as `_read` sees it (filled row by row): (hold, haul, coins, offers,
    added, refused, discard, pool, scalars S_*, floats U_*, temps, tie, classes, and each seat's
    `_haul_feats`: criterion values and Treasure VP, to value positions where a seat's holdings
    have not changed), then scratch: `_run_estimate`'s, and `_worth`'s values, VP, softmax inputs
    and exponentials; last the ranked names and each one's bin of the cache key (its rank among
    the fixed ranks, else its modifier value after them), the cache of criterion values
    (`_seat_feats`: a row per slot, of a used flag, the packed key and the values), and room for
    the counts by bin and the packed key; then scratch for positions (by level `L_*`), for an
    ability's pool values, copies and their order, and for `_turn`'s values of plain actions."""
    ints, n, nn, titles = tb[T_INTS], tb[T_INTS][I_N], tb[T_INTS][I_NN], tb[T_TITLE_KIND].size
    ranked = np.flatnonzero((tb[T_FIXED] != 0) | (tb[T_IS_MOD] != 0))
    size = max(ints[I_RANK_HIGH] - ints[I_RANK_LOW] + 1, 1)
    bins = np.array([tb[T_RANK][x] - ints[I_RANK_LOW] if tb[T_FIXED][x] else
                     size + np.flatnonzero(tb[T_MOD_VALUES] == tb[T_RANK][x])[0] for x in ranked], np.int64)
    num_bins = size + tb[T_MOD_VALUES].size
    words = max(1, -(-num_bins // COUNTS_PER_WORD))
    return (np.zeros((n, nn), np.int64), np.zeros((n, nn), np.int64), np.zeros(n, np.int64),
            np.zeros((n, 3), np.int64), np.zeros((n, 3), np.int64), np.zeros((n, 3), np.bool_), np.zeros(nn, np.int64),
            np.zeros(nn, np.int64), np.zeros(NUM_S, np.int64), np.zeros(2), np.zeros(titles), np.zeros((n, titles)),
            np.zeros(n, np.int64), np.zeros((n, titles), np.int64), np.zeros(n), np.zeros(_run_scratch(tb), np.int64),
            np.zeros((n, titles), np.int64), np.zeros(n), np.zeros(n), np.zeros(n),
            ranked.astype(np.int64), bins, np.zeros((CACHE, 1 + words + titles), np.int64), np.zeros(num_bins, np.int64),
            np.zeros(words, np.int64), np.zeros((L_BEST + 1, n, nn), np.int64), np.zeros((L_BEST + 1, n), np.int64),
            np.zeros(nn), np.zeros(nn, np.int64), np.zeros(nn, np.int64), np.zeros(n), np.zeros(n, np.bool_))


def _read(obs, tb, st) -> None:
    """`_read` of one observation into `_row_state` ``st``."""
    ints, at = tb[T_INTS], tb[T_OFFSETS]
    n, nn, mc, nc, nclass = ints[I_N], ints[I_NN], ints[I_MAX_COPIES], ints[I_NUM_CARDS], ints[I_NUM_CLASSES]
    hold, haul, coins, offers, added, refused, discard, pool, s, u, temps, tie, classes, values, tvp = st[:15]
    for q in range(n):
        coins[q] = _count(obs, at[O_COINS] + q, nc)
        for x in range(nn):
            haul[q, x] = hold[q, x] = _count(obs, at[O_TREASURES] + q * nn + x, mc)
        for k in range(3):
            start = at[O_OFFERS] + (q * 3 + k) * nn
            offers[q, k] = _first_max(obs, start, nn) if _any(obs, start, nn) else -1
            if offers[q, k] >= 0:
                hold[q, offers[q, k]] += 1
            added[q, k] = _count(obs, at[O_OFFER_COINS] + q * 3 + k, nc)
            refused[q, k] = obs[at[O_REFUSED] + q * 3 + k] > 0
    copies = tb[T_COPIES]
    for x in range(nn):
        discard[x] = _count(obs, at[O_DISCARD] + x, mc)
        seen = _count(obs, at[O_SEEN_DECK] + x, mc)
        held = 0
        for q in range(n):
            seen += _count(obs, at[O_SEEN_HELD] + q * nn + x, mc)
            held += hold[q, x]
        pool[x] = max(copies[x] - held - _count(obs, at[O_HAND] + x, mc) - discard[x] - seen, 0)
    s[S_DECK] = int(np.rint(np.float64(obs[at[O_DECK]]) * nc))
    s[S_COIN_DISCARD] = int(np.rint(np.float64(obs[at[O_COIN_DISCARD]]) * nc))
    s[S_TITLE] = _first_max(obs, at[O_TITLE], tb[T_HIDDEN_KIND].size)
    s[S_DISCOUNT] = int(np.rint(np.float64(obs[at[O_TURN] + 1]) * 6))
    s[S_PRINTED] = 1 if obs[at[O_TURN] + 2] > 0 else 0
    s[S_ACTOR] = _first_max(obs, at[O_SEATS], n)
    s[S_TARGET] = _first_max(obs, at[O_SEATS] + n, n)
    s[S_CARD] = _first_max(obs, at[O_CARD], nn) if _any(obs, at[O_CARD], nn) else -1
    s[S_TAKE] = _first_max(obs, at[O_TAKE], nn)
    s[S_GIVE] = _first_max(obs, at[O_GIVE], nn) if _any(obs, at[O_GIVE], nn) else -1
    s[S_SLOT] = _first_max(obs, at[O_SLOT], 3)
    s[S_DECISION] = _first_max(obs, at[O_DECISION], NUM_DECISIONS)
    u[U_UNC] = 0.35 + 0.65 * min(1.0, s[S_DECK] / ints[I_START_DECK])
    for t in range(temps.size):
        temps[t] = tb[T_TITLE_TEMP][t] * u[U_UNC]
    for q in range(n):
        classes[q] = _first_max(obs, at[O_CLASSES] + q * nclass, nclass)
        for t in range(temps.size):
            tie[q, t] = tb[T_TIE][classes[q], t]
        _seat_feats(tb, st, hold[q], values[q], tvp, q)
    u[U_NOW] = _worth(tb, st, hold, coins)


# ----- valuing a position (`_worth`) ------------------------------------------------------------
def _run_from(v: int, w, left: int, unused: int, lenient: bool, low: int, high: int, values, order) -> int:
    """`_run_from` on scratch ``w``: at offset ``left`` the counts by rank (from the lowest fixed
    rank), at ``unused`` the unused modifiers by distinct value (ascending, as the sorted list
    `_run_from` keeps)."""
    d = values.size
    start = v
    while True:
        if low <= v <= high and w[left + v - low] != 0:
            w[left + v - low] -= 1
            v += 1
            continue
        found, pick_from, first, second = False, 0, -1, -1
        mask = 0
        for j in range(d):
            if w[unused + j] > 0:
                mask |= 1 << j
        for j in order[mask]:  # one modifier, by size (ties in the set's order, as Python's sorted)
            if j < 0:
                break
            r = v - values[j]
            if low <= r <= high and w[left + r - low] != 0 and (r < v or w[left + r - low] > 1 or lenient):
                found, pick_from, first = True, r, j
                break
        if not found:  # combinations(unused, 2) of the sorted list: its first pair of each two values
            for a in range(d):  # (the repeats of a pair test the same shift)
                for b in range(a, d):
                    if w[unused + a] <= 0 or w[unused + b] <= (1 if b == a else 0):
                        continue
                    r = v - values[a] - values[b]
                    if low <= r <= high and w[left + r - low] != 0 and (r < v or w[left + r - low] > 1 or lenient):
                        found, pick_from, first, second = True, r, a, b
                        break
                if found:
                    break
        if not found:
            return v - start
        w[left + pick_from - low] -= 1
        w[unused + first] -= 1
        if second >= 0:
            w[unused + second] -= 1
        v += 1


def _run_estimate(tc, fixed, is_mod, rank, values, order, low: int, high: int, work) -> int:
    """`_run_estimate`: the greedy run from every start (in increasing order), strict then lenient
    (lenient only where a negative modifier is held: without one, no shift lands above the rank
    sought, and both passes are the same); the best. Tables passed one by one (a call that passes
    the table tuple costs more than the search); scratch in ``work`` (`_run_scratch` long)."""
    nn, d, size = tc.size, values.size, max(high - low + 1, 1)
    keys, negative = 0, False
    for i in range(nn):
        if tc[i] != 0 and fixed[i]:
            keys += 1
    if keys == 0:
        return 0
    shift_low = min(0, values[0]) if d else 0
    shift_high = max(0, values[d - 1]) if d else 0
    width = size + shift_high - shift_low  # starts: a base plus no or one modifier
    bases, keyed, left, mods, unused = 0, size, 2 * size, 3 * size, 3 * size + d
    starts, w = 3 * size + 2 * d, work
    w[:starts + width] = 0
    for i in range(nn):
        if tc[i] != 0 and fixed[i]:
            w[bases + rank[i] - low] += tc[i]
            w[keyed + rank[i] - low] = 1
        elif tc[i] > 0 and is_mod[i]:
            for j in range(d):
                if values[j] == rank[i]:
                    w[mods + j] += tc[i]
    bound = 0  # each step of a run takes one held Treasure: with no negative count, at most their number
    for b in range(size):
        if w[keyed + b]:
            negative |= w[bases + b] < 0
            bound += w[bases + b]
            w[starts + b - shift_low] = 1
            for j in range(d):
                if w[mods + j] > 0:
                    w[starts + b + values[j] - shift_low] = 1
    passes = 1
    for j in range(d):
        if w[mods + j] > 0 and values[j] < 0:
            passes = 2
    best = 0
    for k in range(width):
        if w[starts + k]:
            for strictness in range(passes):
                lenient = strictness == 1
                for b in range(size):
                    w[left + b] = w[bases + b]
                for j in range(d):
                    w[unused + j] = w[mods + j]
                best = max(best, _run_from(k + low + shift_low, w, left, unused, lenient, low, high, values, order))
            if best >= bound and not negative:
                return best
    return best


def _run_scratch(tb) -> int:
    """The length of `_run_estimate`'s scratch: counts, flags, left and starts by rank, held and
    unused modifiers by value."""
    values, ints = tb[T_MOD_VALUES], tb[T_INTS]
    size = max(ints[I_RANK_HIGH] - ints[I_RANK_LOW] + 1, 1)
    shifts = (max(0, values[-1]) - min(0, values[0])) if values.size else 0
    return 3 * size + 2 * values.size + size + shifts


def _criterion(kind: int, minimum: int, tc, fixed, is_mod, rank, mod_values, mod_order, low: int, high: int,
               work) -> int:
    """`_criterion` of a Starting Title that does not count Coins (those are `_worth`'s): its
    criterion value (higher is better), marked down below its minimum."""
    if kind == RUN:
        run = _run_estimate(tc, fixed, is_mod, rank, mod_values, mod_order, low, high, work)
        return run - (run < minimum)
    ranks, held, raw, extra = 0, 0, 0, 0
    for i in range(tc.size):
        if fixed[i]:
            raw += tc[i]
            if tc[i] > 0:
                ranks += rank[i] * tc[i]
                held += tc[i]
        elif is_mod[i] and tc[i] > 0 and (rank[i] > 0 if kind == HIGH else rank[i] < 0):
            extra += rank[i] * tc[i]
    total = ranks + extra if held else 0
    if kind == HIGH:
        return total - (not total >= minimum)
    return -total - 3 * max(0, minimum - raw)  # LOW: each missing fixed-rank Treasure will add ranks


def _treasure_vp(tc, vp, cond_kind, cond_set) -> float:
    tvp = 0.0
    for i in range(tc.size):
        if tc[i] != 0 and vp[i] != 0:
            ok = cond_kind[i] == 0
            if cond_kind[i] == 1:
                for j in range(tc.size):
                    if cond_set[i, j] and tc[j] != 0:
                        ok = True
                        break
            tvp += tc[i] * vp[i] * (1.0 if ok else 0.34)
    return tvp


def _max_rank(tc, fixed, is_mod, rank) -> int:
    """scoring.max_rank, 0 for None (`_has_fixed` tells them apart)."""
    top, found, plus = 0, False, 0
    for i in range(tc.size):
        if tc[i] > 0 and fixed[i]:
            if not found or rank[i] > top:
                top = rank[i]
            found = True
        elif tc[i] > 0 and is_mod[i] and rank[i] > 0:
            plus += rank[i] * tc[i]
    return top + plus if found else 0


def _has_fixed(tc, fixed) -> bool:
    for i in range(tc.size):
        if tc[i] > 0 and fixed[i]:
            return True
    return False


def _progress(kind: int, par, names, groups, icons, fixed, is_mod, rank, scale: float, two: float, tc,
              coins: int) -> float:
    """`_progress`: the expected share of the own hidden Title's VP (``scale``: 0.5 times the uncertainty)."""
    if kind == K_OF or kind == DISTINCT or kind == ICONS:
        count = 0
        for x in range(tc.size):
            if kind == DISTINCT and tc[x] != 0:
                count += 1
            elif kind == ICONS and tc[x] != 0 and icons[x]:
                count += tc[x]
        for x in names:
            if kind == K_OF and x >= 0 and tc[x] != 0:
                count += 1
        if count >= par[P_K]:
            return 1.0
        ratio = count / par[P_K]
    elif kind == ALL_OF:
        count = 0
        for g in range(par[P_GROUPS]):
            for x in groups[g]:
                if x >= 0 and tc[x] != 0:
                    count += 1
                    break
        if count == par[P_GROUPS]:
            return 1.0
        ratio = count / par[P_GROUPS]
    elif kind == MAX_RANK:
        top = _max_rank(tc, fixed, is_mod, rank)
        if _has_fixed(tc, fixed) and top >= par[P_MIN]:
            return 1.0
        ratio = max(0, top) / par[P_MIN]
    elif kind == COINS_VS:
        total = tc.sum()
        if coins >= par[P_RATIO] * total and coins >= par[P_MIN_COINS]:
            return 1.0
        ratio = min(1.0, coins / max(1, par[P_MIN_COINS], par[P_RATIO] * total))
    else:  # COINS_AT_MOST
        if coins <= par[P_N]:
            return 1.0
        ratio = (par[P_N] + 1) / (coins + 1)
    return scale * math.pow(min(1.0, ratio), two)


def _seat_feats(tb, st, tc, values, tvp, p: int) -> None:
    """`_haul_feats` of one seat's holdings: the criterion values that do not count Coins (into
    ``values``; the Coin criteria are left for `_worth`) and its Treasure VP (into ``tvp[p]``).
    Those criterion values are functions of the counts by fixed rank and by modifier value while
    no count is negative: they are cached by them (as `_haul_feats` caches by Haul), packed 4 bits
    each (holdings with a negative count or a bin above 15 are not cached), one entry per slot of
    a hash of them; a slot's row fits a cache line in the default game."""
    ranked, bins, cache, counts, key = st[20], st[21], st[22], st[23], st[24]
    words, packable, hashed = key.size, True, 0
    counts[:] = 0
    for j in range(ranked.size):
        k = tc[ranked[j]]
        packable = packable and k >= 0
        counts[bins[j]] += k
    for w in range(words):
        word = 0
        for j in range(w * COUNTS_PER_WORD, min(counts.size, (w + 1) * COUNTS_PER_WORD)):
            packable = packable and counts[j] < 16
            word = word << 4 | (counts[j] & 15)
        key[w] = word
        hashed = (hashed ^ word) * GOLDEN  # wraps around: Fibonacci hashing, the slot from the high bits
    row = cache[(hashed >> 40) & (cache.shape[0] - 1)]
    hit = packable and row[0] == 1
    for w in range(words):
        hit = hit and row[1 + w] == key[w]
    if hit:
        for t in range(values.size):
            values[t] = row[1 + words + t]
    else:
        kinds, minimum, ints = tb[T_TITLE_KIND], tb[T_TITLE_MIN], tb[T_INTS]
        fixed, is_mod, rank = tb[T_FIXED], tb[T_IS_MOD], tb[T_RANK]
        mod_values, mod_order = tb[T_MOD_VALUES], tb[T_MOD_ORDER]
        low, high = ints[I_RANK_LOW], ints[I_RANK_HIGH]
        for t in range(values.size):
            kind = kinds[t]
            values[t] = 0 if kind == BALANCE or kind == MOST_COINS else _criterion(
                kind, minimum[t], tc, fixed, is_mod, rank, mod_values, mod_order, low, high, st[15])
        if packable:
            row[0] = 1
            for w in range(words):
                row[1 + w] = key[w]
            for t in range(values.size):
                row[1 + words + t] = values[t]
    tvp[p] = _treasure_vp(tc, tb[T_VP], tb[T_COND_KIND], tb[T_COND_SET])


def _worth(tb, st, hold, coins) -> float:
    """`_worth` (J): own estimated VP minus half the others' mean and half their best. Seats whose
    holdings are those of the position read reuse its `_haul_feats`."""
    n, nn = hold.shape
    kinds, minimum, floats = tb[T_TITLE_KIND], tb[T_TITLE_MIN], tb[T_FLOATS]
    unc, temps, tie, svp, coin_value = st[9][U_UNC], st[10], st[11], floats[F_SVP], floats[F_COIN_VALUE]
    base, base_values, base_tvp = st[0], st[13], st[14]
    num_titles = kinds.size
    values, vp, xs, es = st[16], st[17], st[18], st[19]
    fixed, is_mod = tb[T_FIXED], tb[T_IS_MOD]
    for p in range(n):
        same, same_ranks = True, True  # the seat's holdings as read; or differing in unranked names only
        for x in range(nn):
            if hold[p, x] != base[p, x]:
                same = False
                if fixed[x] or is_mod[x]:
                    same_ranks = False
                    break
        if same_ranks:  # the Title criteria that do not count Coins read ranked names only
            for t in range(num_titles):
                values[p, t] = base_values[p, t]
            vp[p] = base_tvp[p] if same else _treasure_vp(hold[p], tb[T_VP], tb[T_COND_KIND], tb[T_COND_SET])
        else:
            _seat_feats(tb, st, hold[p], values[p], vp, p)
        total = 0
        for x in range(nn):
            total += hold[p, x]
        for t in range(num_titles):  # the Coin criteria (`_criterion`'s)
            if kinds[t] == BALANCE:
                values[p, t] = -abs(total - coins[p]) - (not total >= minimum[t])
            elif kinds[t] == MOST_COINS:
                values[p, t] = coins[p] - (not coins[p] >= minimum[t])
        vp[p] = vp[p] + coin_value * unc * coins[p]
    for t in range(num_titles):
        for p in range(n):
            xs[p] = (values[p, t] + tie[p, t]) / temps[t]
        top = xs[0]
        for p in range(1, n):
            top = max(top, xs[p])
        total_e = 0.0
        for p in range(n):
            es[p] = math.exp(xs[p] - top)
            total_e += es[p]
        for p in range(n):
            vp[p] += svp * es[p] / total_e
    h = st[8][S_TITLE]
    vp[0] += tb[T_HIDDEN_VP][h] * _progress(
        tb[T_HIDDEN_KIND][h], tb[T_HIDDEN_PAR][h], tb[T_HIDDEN_NAMES][h], tb[T_HIDDEN_GROUPS][h],
        tb[T_HIDDEN_ICONS][h], tb[T_FIXED], tb[T_IS_MOD], tb[T_RANK], 0.5 * unc, floats[F_TWO], hold[0], coins[0])
    others, best = 0.0, vp[1]
    for p in range(1, n):
        others += vp[p]
        best = max(best, vp[p])
    return vp[0] - 0.5 * others / (n - 1) - 0.5 * best


# ----- positions after changes (`_apply`, `_after`) -----------------------------------------------
def _move_coins(coins, src: int, dst: int, k: int) -> None:
    """One Coin move of `_apply`: from a seat (or -1: the deck) to a seat (or -1: a discard pile)."""
    if src >= 0:
        k = min(k, coins[src])
        coins[src] -= k
    if dst >= 0:
        coins[dst] += k


def _dup(st, level: int, hold, coins):
    """(hold, coins) copied into scratch level ``level`` (the kernel allocates nothing per candidate)."""
    h, c = st[25][level], st[26][level]
    for p in range(hold.shape[0]):
        c[p] = coins[p]
        for x in range(hold.shape[1]):
            h[p, x] = hold[p, x]
    return h, c


def _dup_coins(st, level: int, coins):
    c = st[26][level]
    for p in range(coins.size):
        c[p] = coins[p]
    return c


def _copy(st, level: int):
    """The position's holdings and Coins, copied into scratch level ``level``."""
    return _dup(st, level, st[0], st[2])


def _after_card(tb, st, p: int, x: int, d: int) -> float:
    """J after one card move (seat p gains d of name x)."""
    hold, coins = _copy(st, L_AFTER)
    hold[p, x] += d
    return _worth(tb, st, hold, coins)


def _after_coins(tb, st, src: int, dst: int, k: int) -> float:
    hold, coins = _copy(st, L_AFTER)
    _move_coins(coins, src, dst, k)
    return _worth(tb, st, hold, coins)


# ----- abilities (`_ability`, `_outcomes`, `_steal`, `_swap`) -------------------------------------
def _base(st, src: int):
    """Holdings and Coins after discarding Treasure `src` (-1: a class power)."""
    hold, coins = _copy(st, L_BASE)
    if src >= 0:
        hold[0, src] -= 1
    return hold, coins


def _expected_max(values, copies, order, m: int, draws: int) -> float:
    """`_expected_max` of the first m (value, copies) pairs, sorted as Python sorts the tuples
    (``order``: room for their order)."""
    total = 0
    for i in range(m):
        total += copies[i]
    if total == 0 or draws <= 0:
        return 0.0
    for i in range(m):
        order[i] = i
    for i in range(1, m):  # insertion sort by (value, copies): stable, and the pairs' order
        j = i
        while j > 0 and (values[order[j - 1]] > values[order[j]] or (
                values[order[j - 1]] == values[order[j]] and copies[order[j - 1]] > copies[order[j]])):
            order[j - 1], order[j] = order[j], order[j - 1]
            j -= 1
    out, cum, prev = 0.0, 0, 0.0
    for i in order[:m]:
        cum += copies[i]
        now = math.pow(cum / total, float(draws))
        out += values[i] * (now - prev)
        prev = now
    return out


def _pool_values(tb, st, hold, coins, values, copies) -> int:
    """`_pool_values` on top of (hold, coins): J after also gaining each unseen name; their number."""
    pool, m = st[7], 0
    for x in range(pool.size):
        if pool[x]:
            hold[0, x] += 1
            values[m] = _worth(tb, st, hold, coins)
            hold[0, x] -= 1
            copies[m] = pool[x]
            m += 1
    return m


def _steal(tb, st, src: int, pay: int, only: int):
    """`_steal`: the best (J, seat, name) of paying `pay` Coins to a seat (every other seat, or
    `only`) and taking one of its Haul Treasures."""
    n, haul = tb[T_INTS][I_N], st[1]
    best, seat, name = -math.inf, -1, -1
    hold, coins = _base(st, src)
    for q in range(1 if only < 0 else only, n if only < 0 else only + 1):
        for x in range(haul.shape[1]):
            if haul[q, x] != 0:
                h, c = _dup(st, L_INNER, hold, coins)
                h[0, x] += 1
                h[q, x] -= 1
                _move_coins(c, 0, q, pay)
                value = _worth(tb, st, h, c)
                if value > best:
                    best, seat, name = value, q, x
    return best, seat, name


def _swap(tb, st, src: int, only: int):
    """`_swap`: the best (J, give name, seat, take name) of a SWAP."""
    n, haul, nn = tb[T_INTS][I_N], st[1], tb[T_INTS][I_NN]
    best, give_best, seat, take = -math.inf, -1, -1, -1
    hold, coins = _base(st, src)
    for give in range(nn):
        if haul[0, give] - (give == src) == 0:
            continue
        for q in range(1 if only < 0 else only, n if only < 0 else only + 1):
            for x in range(nn):
                if haul[q, x] != 0:
                    h = _dup(st, L_INNER, hold, coins)[0]
                    h[0, give] -= 1
                    h[q, give] += 1
                    h[0, x] += 1
                    h[q, x] -= 1
                    value = _worth(tb, st, h, coins)
                    if value > best:
                        best, give_best, seat, take = value, give, q, x
    return best, give_best, seat, take


def _ability(tb, st, kind: int, a1: int, src: int) -> float:
    """`_ability`: estimated J after using an effect (discarding Treasure `src`; -1: a class power)."""
    n, s, pool = tb[T_INTS][I_N], st[8], st[7]
    hold, coins = _base(st, src)
    if kind == GAIN_K or kind == RECOVER_COINS_K:
        _move_coins(coins, -1, 0, min(a1, s[S_DECK] if kind == GAIN_K else s[S_COIN_DISCARD]))
        return _worth(tb, st, hold, coins)
    if kind == TAKE_COINS_K:
        best = -math.inf
        for q in range(1, n):
            c = _dup_coins(st, L_INNER, coins)
            _move_coins(c, q, 0, a1)
            best = max(best, _worth(tb, st, hold, c))
        return best
    if kind == TAKE_EACH_K:
        for q in range(1, n):
            _move_coins(coins, q, 0, a1)
        return _worth(tb, st, hold, coins)
    if kind == RECOVER_TREASURE_K:
        best = -math.inf
        for x in range(pool.size):
            if st[6][x] != 0 and x != src:
                hold[0, x] += 1
                best = max(best, _worth(tb, st, hold, coins))
                hold[0, x] -= 1
        return best
    values, copies, order = st[27], st[28], st[29]
    if kind == PICK_TOP_K:
        return _expected_max(values, copies, order, _pool_values(tb, st, hold, coins, values, copies), a1)
    if kind == DRAW_TREASURE_K:
        m = _pool_values(tb, st, hold, coins, values, copies)
        base = _worth(tb, st, hold, coins)
        weighted, count = 0.0, 0
        for i in range(m):
            weighted += values[i] * copies[i]
            count += copies[i]
        return base + a1 * (weighted / max(1, count) - base)
    if kind == FLIP_COIN_K:
        if st[2][0] == 0:
            return -math.inf
        keep = _worth(tb, st, hold, coins)
        _move_coins(coins, 0, -1, 1)
        m = _pool_values(tb, st, hold, coins, values, copies)
        for i in range(m):
            values[i] = max(values[i], keep)
        return _expected_max(values, copies, order, m, a1)
    if kind == EXTRA_DRAW_K:
        _move_coins(coins, -1, 0, 1)
        return _worth(tb, st, hold, coins) + 0.3
    if kind == STEAL_K:
        return _steal(tb, st, src, a1, -1)[0]
    if kind == SWAP_K:
        return _swap(tb, st, src, -1)[0]
    if kind == PEEK_DECK_K or kind == TAKE_DRAGON_K:
        return _worth(tb, st, hold, coins) + 0.2
    return -math.inf  # turn effects are valued by the turn plan; reactions are not abilities


def _has_outcomes(kind: int) -> bool:
    return kind in (GAIN_K, RECOVER_COINS_K, TAKE_COINS_K, TAKE_EACH_K, RECOVER_TREASURE_K)


# ----- negotiating (`_price`, `_buys`, `_best_action`, `_turn`) ----------------------------------
def _price(st, q: int, k: int, printed: bool, discount: int) -> int:
    full = k + 1 + (0 if printed else st[4][q, k])
    return max(0, full - discount)


def _best_action(tb, st, hold, coins, printed: bool, discount: int) -> float:
    """`_best_action` after the changes made to (hold, coins): the draw 2 or the best purchase."""
    n, offers, refused = tb[T_INTS][I_N], st[3], st[5]
    c = _dup_coins(st, L_BEST, coins)
    _move_coins(c, -1, 0, min(2, st[8][S_DECK]))
    best = _worth(tb, st, hold, c)
    for q in range(1, n):
        for k in range(3):
            x = offers[q, k]
            price = _price(st, q, k, printed, discount)
            if x >= 0 and not refused[q, k] and price <= coins[0]:
                h, c = _dup(st, L_BEST, hold, coins)
                h[0, x] += 1
                h[q, x] -= 1
                _move_coins(c, 0, q, price)
                best = max(best, _worth(tb, st, h, c))
    return best


def _outcome_best_action(tb, st, kind: int, a1: int, src: int) -> float:
    """`_turn_ability` of an effect with sure outcomes: the best action after the best outcome;
    NaN where `_outcomes` lists none (`max` of nothing raises in `act`)."""
    n, s = tb[T_INTS][I_N], st[8]
    printed, discount = s[S_PRINTED] != 0, s[S_DISCOUNT]
    hold, coins = _base(st, src)
    if kind == GAIN_K or kind == RECOVER_COINS_K:
        _move_coins(coins, -1, 0, min(a1, s[S_DECK] if kind == GAIN_K else s[S_COIN_DISCARD]))
        return _best_action(tb, st, hold, coins, printed, discount)
    if kind == TAKE_EACH_K:
        for q in range(1, n):
            _move_coins(coins, q, 0, a1)
        return _best_action(tb, st, hold, coins, printed, discount)
    best, found = -math.inf, False
    if kind == TAKE_COINS_K:
        for q in range(1, n):
            c = _dup_coins(st, L_INNER, coins)
            _move_coins(c, q, 0, a1)
            best, found = max(best, _best_action(tb, st, hold, c, printed, discount)), True
    else:  # RECOVER_TREASURE
        for x in range(st[6].size):
            if st[6][x] != 0 and x != src:
                hold[0, x] += 1
                best, found = max(best, _best_action(tb, st, hold, coins, printed, discount)), True
                hold[0, x] -= 1
    return best if found else math.nan


def _turn_ability(tb, st, kind: int, a1: int, src: int, best: float) -> float:
    """`_turn_ability`: J after an own-turn ability and the best action after it; NaN where `act` raises."""
    s, now = st[8], st[9][U_NOW]
    printed, discount = s[S_PRINTED] != 0, s[S_DISCOUNT]
    if kind < 0:
        return math.nan
    if kind == DISCOUNT_K:
        hold, coins = _base(st, src)
        return _best_action(tb, st, hold, coins, printed, discount + a1)
    if kind == PRINTED_ONLY_K:
        hold, coins = _base(st, src)
        return _best_action(tb, st, hold, coins, True, discount)
    if kind == EXTRA_ACTION_K:
        hold, coins = _base(st, src)
        return _best_action(tb, st, hold, coins, printed, discount) + _draw(tb, st, st[0], st[2]) - now
    if _has_outcomes(kind):
        return _outcome_best_action(tb, st, kind, a1, src)
    return _ability(tb, st, kind, a1, src) + best - now


def _draw(tb, st, hold, coins) -> float:
    """J after the draw 2 (from the given holdings and Coins)."""
    c = _dup_coins(st, L_DRAW, coins)
    _move_coins(c, -1, 0, min(2, st[8][S_DECK]))
    return _worth(tb, st, hold, c)


def _power(tb, st, seat: int):
    """The effect row of a seat's class power."""
    return tb[T_CLASS_EFFECTS][st[12][seat]]


def _effect_row(tb, st, card: int):
    """A Treasure's effect row (a negative index counts from the end, as Python's), or the own class power's."""
    return tb[T_EFFECTS][card] if card >= 0 else _power(tb, st, 0)


def _turn(tb, st, legal) -> int:
    """`_turn`: the action worth most; an own-turn ability first when it is worth `ability_margin` more."""
    ints, s = tb[T_INTS], st[8]
    n, nn, target0, draw2, power = ints[I_N], ints[I_NN], ints[I_TARGET0], ints[I_DRAW2], ints[I_POWER]
    offers, refused = st[3], st[5]
    printed, discount = s[S_PRINTED] != 0, s[S_DISCOUNT]
    hold, coins = st[0], st[2]  # read only
    plain, has = st[30], st[31]  # [0]: the draw 2; [q]: the best purchase from seat q
    plain[:] = -math.inf
    has[:] = False
    plain[0], has[0] = _draw(tb, st, hold, coins), True
    for q in range(1, n):
        for k in range(3):
            x = offers[q, k]
            price = _price(st, q, k, printed, discount)
            if x >= 0 and not refused[q, k] and price <= coins[0]:
                h, c = _dup(st, L_TOP, hold, coins)
                h[0, x] += 1
                h[q, x] -= 1
                _move_coins(c, 0, q, price)
                plain[q], has[q] = max(_worth(tb, st, h, c), plain[q]), True
    best = plain[0]
    for q in range(1, n):
        if has[q]:
            best = max(best, plain[q])
    value, action = -math.inf, -1
    effects = tb[T_EFFECTS]
    for a in range(nn + 1):  # the legal names, then the class power (the highest action)
        if a == nn and not legal[power] or a < nn and not legal[a]:
            continue
        row = effects[a] if a < nn else _power(tb, st, 0)
        v = _turn_ability(tb, st, row[0], row[2], a if a < nn else -1, best)
        if v != v:
            return ERROR
        if action < 0 or v > value:
            value, action = v, a if a < nn else power
    if action >= 0 and value > best + tb[T_FLOATS][F_MARGIN]:
        return action
    value, action = -math.inf, -1
    for q in range(n):  # the draw 2 is the highest of these actions: ties go to a purchase
        a = draw2 if q == 0 else target0 + q - 1
        if has[q] and legal[a] and (action < 0 or plain[q] > value or (plain[q] == value and a < action)):
            value, action = plain[q], a
    return action if action >= 0 else ERROR


def _buy_slot(tb, st, legal) -> int:
    """`_buy_slot`: the Negotiate Card of the seat bought from worth most."""
    ints, s = tb[T_INTS], st[8]
    slot0, q = ints[I_SLOT0], s[S_TARGET]
    for a in range(slot0):
        if legal[a]:
            return ERROR  # `act` would read Negotiate Card a - SLOT0 (Python's negative index): not modelled
    value, action = -math.inf, -1
    for k in range(legal.size - slot0):
        a = slot0 + k
        if legal[a]:
            if k >= 3 or q >= ints[I_N]:
                return ERROR
            x = st[3][q, k]
            if x < 0:  # `act` moves the Treasure of name -1: the last name (Python's index)
                x += ints[I_NN]
            h, c = _copy(st, L_TOP)
            h[0, x] += 1
            h[q, x] -= 1
            _move_coins(c, 0, q, _price(st, q, k, s[S_PRINTED] != 0, s[S_DISCOUNT]))
            v = _worth(tb, st, h, c)
            if action < 0 or v > value:
                value, action = v, a
    return action if action >= 0 else ERROR


def _least_desirable(tb, st, legal) -> int:
    """`_least_desirable` of the legal names: its value kept plus `denial` times its value to the
    seat it helps most, lowest (ties: the lowest name)."""
    n, nn, now, denial = tb[T_INTS][I_N], tb[T_INTS][I_NN], st[9][U_NOW], tb[T_FLOATS][F_DENIAL]
    value, action = -math.inf, -1
    for x in range(nn):
        if legal[x]:
            mine = _after_card(tb, st, 0, x, 1) - now
            theirs = now - _after_card(tb, st, 1, x, 1)
            for q in range(2, n):
                theirs = max(theirs, now - _after_card(tb, st, q, x, 1))
            v = -(mine + denial * theirs)
            if action < 0 or v > value:
                value, action = v, x
    return action if action >= 0 else ERROR


def _commit_coins(tb, st, legal) -> int:
    """`_commit_coins`: a Coin on the card it would lose most by selling, when protecting it is cheap."""
    ints, floats, now = tb[T_INTS], tb[T_FLOATS], st[9][U_NOW]
    n, slot0, coins, offers, added = ints[I_N], ints[I_SLOT0], st[2], st[3], st[4]
    richest = coins[1]
    for q in range(2, n):
        richest = max(richest, coins[q])
    best_loss, action = 0.0, ints[I_DONE]
    for k in range(3):
        x = offers[0, k]
        if x < 0 or not legal[slot0 + k]:
            continue
        price = k + 1 + added[0, k]
        sold = math.inf
        for q in range(1, n):
            h, c = _copy(st, L_TOP)
            h[0, x] -= 1
            h[q, x] += 1
            _move_coins(c, q, 0, price)
            sold = min(sold, _worth(tb, st, h, c))
        loss = now - sold
        need = richest + 1 - price
        if loss > best_loss and 0 < need <= min(ints[I_MAX_PROTECT], coins[0]):
            cost = now - _after_coins(tb, st, 0, -1, need)
            if cost < floats[F_PROTECT_SHARE] * loss:
                best_loss, action = loss, slot0 + k
    return action


def _react(tb, st, legal) -> int:
    """`_react`: cancel (or refuse) only when what the effect would cost outweighs what the reaction spends."""
    ints, s, now = tb[T_INTS], st[8], st[9][U_NOW]
    nn, done, power = ints[I_NN], ints[I_DONE], ints[I_POWER]
    actor, card = s[S_ACTOR], s[S_CARD]
    role = -1
    for a in range(legal.size):
        if legal[a] and a != done:
            if a == power:
                kind = _power(tb, st, 0)[0]
            elif a < nn:
                kind = tb[T_EFFECTS][a, 0]
            else:
                return ERROR  # `act` indexes the effects with an action that is no name
            if kind < 0:
                return ERROR
            role = ROLE_OF_KIND[kind]
            break
    if role < 0:
        return ERROR  # no reaction to choose: `act`'s next() finds none
    h, c = _copy(st, L_TOP)
    if role == REFUSE_ROLE:  # a negotiation for one of our Treasures: it would sell at its price
        x = card if card >= 0 else card + nn
        h[0, x] -= 1
        h[actor, x] += 1
        _move_coins(c, actor, 0, _price(st, 0, s[S_SLOT], s[S_PRINTED] != 0, s[S_DISCOUNT]))
    elif role == CANCEL_COIN_ROLE:  # a Coin theft
        row = tb[T_EFFECTS][card] if card >= 0 else _power(tb, st, actor)
        if row[1] < 1:
            return ERROR
        _move_coins(c, 0, actor, row[2])
    else:  # a STEAL or SWAP: the Treasure taken, and the one given or the Coins paid
        taken = s[S_TAKE]
        h[0, taken] -= 1
        h[actor, taken] += 1
        if s[S_GIVE] >= 0:
            h[0, s[S_GIVE]] += 1
            h[actor, s[S_GIVE]] -= 1
        else:
            row = tb[T_EFFECTS][card] if card >= 0 else _power(tb, st, actor)
            if row[1] < 1:
                return ERROR
            _move_coins(c, actor, 0, row[2])
    accept = _worth(tb, st, h, c)
    value, action = -math.inf, -1
    for a in range(legal.size):
        if legal[a] and a != done:
            v = _after_card(tb, st, 0, a, -1) if a < nn else now
            if action < 0 or v > value:
                value, action = v, a
    return action if value > accept + tb[T_FLOATS][F_MARGIN] else done


def _priority(tb, st, legal) -> int:
    """`_priority`: the ability that gains most, if it gains `ability_margin`; else pass."""
    ints, now = tb[T_INTS], st[9][U_NOW]
    nn, done, power = ints[I_NN], ints[I_DONE], ints[I_POWER]
    value, action = -math.inf, -1
    for a in range(legal.size):
        if legal[a] and a != done:
            if a >= nn and a != power:
                return ERROR  # `act` indexes the effects with an action that is no name
            row = _power(tb, st, 0) if a == power else tb[T_EFFECTS][a]
            if row[0] < 0:
                return ERROR
            v = _ability(tb, st, row[0], row[2], -1 if a == power else a)
            if action < 0 or v > value:
                value, action = v, a
    if action < 0:
        return ERROR
    return action if value > now + tb[T_FLOATS][F_MARGIN] else done


def _target(tb, st, legal) -> int:
    """`_target`: the seat that makes STEAL, SWAP or TAKE_COINS worth most (Pickpocket may decline)."""
    ints, now = tb[T_INTS], st[9][U_NOW]
    n, target0, slot0, done = ints[I_N], ints[I_TARGET0], ints[I_SLOT0], ints[I_DONE]
    row = _effect_row(tb, st, st[8][S_CARD])
    value, seat = -math.inf, -1
    for a in range(target0, slot0):
        if legal[a]:
            q = a - target0 + 1
            if q >= n:
                return ERROR
            if row[0] == STEAL_K:
                v = _steal(tb, st, -1, row[2], q)[0]
            elif row[0] == SWAP_K:
                v = _swap(tb, st, -1, q)[0]
            else:
                if row[1] < 1:
                    return ERROR
                v = _after_coins(tb, st, q, 0, row[2])
            if seat < 0 or v > value:
                value, seat = v, q
    if seat < 0:
        return ERROR
    if row[0] != STEAL_K and row[0] != SWAP_K and legal[done] and value <= now:
        return done
    return target0 + seat - 1


def _take_give(tb, st, decision: int) -> int:
    """`_take_give`: SWAP's give, then STEAL's / SWAP's take, by the best plan for the chosen seat."""
    if decision == GIVE:
        return _swap(tb, st, -1, -1)[1]
    row, q = _effect_row(tb, st, st[8][S_CARD]), st[8][S_TARGET]
    if row[0] == STEAL_K:
        return _steal(tb, st, -1, row[2], q)[2]
    return _swap(tb, st, -1, q)[3]


def _best_card(tb, st, legal, coin: bool) -> int:
    """The legal name worth most gained (RECOVER, PICK, ORDER), or gained for a Coin (FLIP)."""
    nn, value, action = tb[T_INTS][I_NN], -math.inf, -1
    for x in range(nn):
        if legal[x]:
            h, c = _copy(st, L_TOP)
            h[0, x] += 1
            if coin:
                _move_coins(c, 0, -1, 1)
            v = _worth(tb, st, h, c)
            if action < 0 or v > value:
                value, action = v, x
    if action < 0:
        return ERROR
    if coin and not value > st[9][U_NOW]:
        return tb[T_INTS][I_DONE]
    return action


def _decide_row(obs, legal, tb, st) -> int:
    """`act` on one row; `ERROR` where `act` raises."""
    count, only = 0, -1
    for a in range(legal.size):
        if legal[a]:
            count, only = count + 1, a
    if count == 1:
        return only
    _read(obs, tb, st)
    ints, s = tb[T_INTS], st[8]
    decision = s[S_DECISION]
    if decision == COMMIT_CARD or decision == EXTRA_COIN or decision == SCRY:
        return _least_desirable(tb, st, legal)
    if decision == COMMIT_COINS:
        return _commit_coins(tb, st, legal)
    if decision == TURN:
        return _turn(tb, st, legal)
    if decision == BUY_SLOT:
        return _buy_slot(tb, st, legal)
    if decision == PRIORITY:
        return _priority(tb, st, legal)
    if decision == DEAL:
        card = _first_max(obs, tb[T_OFFSETS][O_CARD], ints[I_NN])
        row = tb[T_EFFECTS][card]
        if row[0] < 0:
            return ERROR
        return ints[I_YES] if _ability(tb, st, row[0], row[2], card) > st[9][U_NOW] else ints[I_DONE]
    if decision == REACT:
        return _react(tb, st, legal)
    if decision == TARGET:
        return _target(tb, st, legal)
    if decision == TAKE or decision == GIVE:
        return _take_give(tb, st, decision)
    if decision == RECOVER or decision == PICK or decision == ORDER:
        return _best_card(tb, st, legal, False)
    if decision == FLIP:
        return _best_card(tb, st, legal, True)
    return ERROR


def _decide_all(observations, legal, tb, st, actions) -> None:
    for b in range(observations.shape[0]):
        actions[b] = _decide_row(observations[b], legal[b], tb, st)


# The small helpers are inlined: a call that passes the table and state tuples (dozens of arrays)
# costs more than most of them.
INLINED = ("_count", "_first_max", "_any", "_run_from", "_criterion", "_treasure_vp", "_max_rank", "_has_fixed",
           "_progress", "_seat_feats", "_move_coins", "_dup", "_dup_coins", "_copy", "_base", "_price", "_power",
           "_effect_row", "_has_outcomes")
CALLED = ("_read", "_run_estimate", "_worth", "_after_card", "_after_coins", "_expected_max", "_pool_values", "_steal",
          "_swap", "_ability", "_best_action", "_outcome_best_action", "_turn_ability", "_draw", "_turn", "_buy_slot",
          "_least_desirable", "_commit_coins", "_react", "_priority", "_target", "_take_give", "_best_card",
          "_decide_row")
try:
    from numba import njit
except ImportError:  # numba is in the train and batch extras; a bare install plays `act` per row
    _decide_batch = None
else:
    # Compiled without numba's runtime (``_nrt=False``): the kernel allocates nothing (its scratch is
    # the row state, which `act_batch` holds for the call), so no array needs a reference count,
    # and the increments and decrements at every call and view (most of them of the tables'
    # and state's arrays) would cost about 40% of its time.
    for _name in INLINED + CALLED:
        globals()[_name] = njit(cache=True, _nrt=False, inline="always" if _name in INLINED else "never")(
            globals()[_name])
    _decide_batch = njit(cache=True, _nrt=False)(_decide_all)
