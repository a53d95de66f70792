"""Reading an observation and valuing a position in Split the Hoard's compiled `act_batch`
(agents/split_the_hoard/batch.py): `_read` and `_worth` of agents/split_the_hoard/heuristic.py, with the
same float64 operations in the same order (that module's docstring says why), and the cache of
criterion values by ranked holdings that `_worth` reads."""

from __future__ import annotations

import math

import numpy as np

from card_envs.agents.split_the_hoard.layout import (
    ALL_OF, BALANCE, COINS_VS, COUNTS_PER_WORD, DISTINCT, F_COIN_VALUE, F_SVP, F_TWO, GOLDEN, HIGH, ICONS,
    I_MAX_COPIES, I_N, I_NN, I_NUM_CARDS, I_NUM_CLASSES, I_RANK_HIGH, I_RANK_LOW, I_START_DECK, K_OF, MAX_RANK,
    MOST_COINS, O_CARD, O_CLASSES, O_COINS, O_COIN_DISCARD, O_DECISION, O_DECK, O_DISCARD, O_GIVE, O_HAND, O_OFFERS,
    O_OFFER_COINS, O_REFUSED, O_SEATS, O_SEEN_DECK, O_SEEN_HELD, O_SLOT, O_TAKE, O_TITLE, O_TREASURES, O_TURN,
    P_GROUPS, P_K, P_MIN, P_MIN_COINS, P_N, P_RATIO, RUN, S_ACTOR, S_CARD, S_COIN_DISCARD, S_DECISION, S_DECK,
    S_DISCOUNT, S_GIVE, S_PRINTED, S_SLOT, S_TAKE, S_TARGET, S_TITLE, T_COND_KIND, T_COND_SET, T_COPIES, T_FIXED,
    T_FLOATS, T_HIDDEN_GROUPS, T_HIDDEN_ICONS, T_HIDDEN_KIND, T_HIDDEN_NAMES, T_HIDDEN_PAR, T_HIDDEN_VP, T_INTS,
    T_IS_MOD, T_MOD_ORDER, T_MOD_VALUES, T_OFFSETS, T_RANK, T_TIE, T_TITLE_KIND, T_TITLE_MIN, T_TITLE_TEMP, T_VP,
    U_NOW, U_UNC)
from card_envs.games.split_the_hoard.effects import NUM_DECISIONS


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


def _read(obs, tb, st) -> None:
    """`_read` of one observation into the row state ``st`` (`row_state`)."""
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
    the table tuple costs more than the search); scratch in ``work`` (`run_scratch` long)."""
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


# The small helpers are inlined; `_read`, `_run_estimate` and `_worth` are called (compiled once).
INLINED = ("_count", "_first_max", "_any", "_run_from", "_criterion", "_treasure_vp", "_max_rank", "_has_fixed",
           "_progress", "_seat_feats")
CALLED = ("_read", "_run_estimate", "_worth")
try:
    from card_envs.numba_cache import njit
except ImportError:  # numba is in the train and batch extras; without it `act` runs per row
    pass
else:  # without numba's runtime: see agents/split_the_hoard/batch.py
    for _name in INLINED + CALLED:
        globals()[_name] = njit(cache=True, _nrt=False, inline="always" if _name in INLINED else "never")(
            globals()[_name])
