"""Numba kernels of batched Illimat: the bounded group searches of the optional observation pieces
(`card_envs.games.illimat.groups`: `plain_groups_by_total`, `heaviest_groups`,
`heaviest_packing`, `searched_packing`), answering bit for bit what the reference answers.

Groups are bitmasks over a field's items in uint64 (bit i: item i in key order; bit n: the
active card of a stockpile). That holds every field the pieces search: a field's items number at
most 65 (every card loose in it), the active card comes with a hand of two cards or more (a
stockpile's value is another hand card's), so a search with the active card has at most 63 items
(bits 0..63) and one without at most 65. Only a field of 65 items would need bit 64: all 65 cards
loose in one field, every hand and the draw pile empty (a loaded snapshot: no deal reaches it,
the other fields' first nine cards never join it), whose items are known, so the pieces use its
table as a constant and search none of it (`pieces.FULL_FIELD_TAKEN`).

The searches are the reference's, walked the same way so that their budgets stop them at the same
place: the breadth-first growth of groups (which groups a crowded field yields depends on it), the
depth-first packing with an explicit stack of frames (numba's cache cannot reload a recursive
function) visiting the same nodes in the same order, and the float64 sums added in the
reference's order (a group's weight over its items in ascending order; the disjoint fast path's
groups by their lowest item).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from card_envs.numba_cache import njit

MULTIPLE_CODE = 100
MAX_SINGLE = 14  # the totals plain_groups_by_total lists: 0..14
GROUPS_BUDGET = 20_000  # plain_groups_by_total's default budget
PACKING_BUDGET = 3_000  # heaviest_packing's default budget
MAX_BITS = 64  # items (+ the active card) a group bitmask holds
U0, U1 = np.uint64(0), np.uint64(1)


DE_BRUIJN = np.uint64(0x03F79D71B4CB0A89)
_LOW = np.zeros(64, np.int64)  # bit index of a lowest set bit, by its de Bruijn product's top 6 bits
for _i in range(64):
    _LOW[((1 << _i) * 0x03F79D71B4CB0A89 & (2**64 - 1)) >> 58] = _i


@njit(cache=True)
def bit(i):
    return U1 << np.uint64(i)


@njit(cache=True)
def low_index(x):
    """The index of the lowest set bit of x (x != 0)."""
    return _LOW[((x & (~x + U1)) * DE_BRUIJN) >> np.uint64(58)]


@njit(cache=True)
def _sort(a, lo, hi):
    """a[lo:hi] ascending, in place: by insertion when short (numba's sort costs more there)."""
    if hi - lo > 32:
        a[lo:hi].sort()
        return
    for j in range(lo + 1, hi):
        x = a[j]
        i = j - 1
        while i >= lo and a[i] > x:
            a[i + 1] = a[i]
            i -= 1
        a[i + 1] = x


@njit(cache=True)
def _plain_groups_by_total(n, most, budget, w):
    """groups.plain_groups_by_total(w.codes[:n], most, budget) into w: the groups of total t
    ascending in w.by_total[w.by_start[t]:w.by_start[t + 1]] (t = 0: the empty group)."""
    codes = w.codes
    p_least, p_index = w.p_least, w.p_index  # the plain items sorted by (value, a Fool as 1; index)
    m = 0
    for v in range(1, MAX_SINGLE + 1):
        for i in range(n):
            if codes[i] < MULTIPLE_CODE and max(codes[i], 1) == v:
                p_least[m] = v
                p_index[m] = i
                m += 1
    # every group found, in the order found: level by level, each level's groups the frontier of
    # the next (the reference's `grown`)
    all_total, all_mask, all_start = w.all_total, w.all_mask, w.all_start
    all_total[0], all_mask[0], all_start[0] = 0, U0, 0
    found = 1
    level, level_end = 0, 1  # the frontier: all_*[level:level_end]
    while level_end > level and budget > 0:
        grown = 0
        for e in range(level, level_end):
            if grown >= budget:
                break
            total, mask = all_total[e], all_mask[e]
            for k in range(all_start[e], m):
                lv, i = p_least[k], p_index[k]
                if total + lv > most:
                    break  # ascending: no later item fits either
                for v in range(2 if codes[i] == 0 else 1):
                    value = lv if v == 0 else 14
                    if total + value <= most:
                        all_total[found], all_mask[found], all_start[found] = total + value, mask | bit(i), k + 1
                        found += 1
                        grown += 1
        budget -= grown
        level, level_end = level_end, found
    # per total, sorted and without repeats (the reference's sets)
    start = w.count  # scratch here (BITS_CAP + 1 >= most + 2): where each total's groups start among all found
    start[:most + 2] = 0
    for j in range(found):
        start[all_total[j] + 1] += 1
    for t in range(most + 1):
        start[t + 1] += start[t]
    fill = all_start  # scratch now: where the next group of each total goes
    fill[:most + 1] = start[:most + 1]
    out = w.by_total
    for j in range(found):
        t = all_total[j]
        out[fill[t]] = all_mask[j]
        fill[t] += 1
    out_start = w.by_start
    k = 0
    for t in range(most + 1):
        out_start[t] = k
        _sort(out, start[t], start[t + 1])
        for j in range(start[t], start[t + 1]):
            if j == start[t] or out[j] != out[j - 1]:
                out[k] = out[j]
                k += 1
    out_start[most + 1] = k


@njit(cache=True)
def group_weight(g, weights, n_bits):
    """groups._weight: the items' weights summed in ascending order."""
    total = 0.0
    while g:
        total += weights[low_index(g)]
        g &= g - U1
    return total


# One field's searches: its item codes and `plain_groups_by_total` (by_total, by_start), and
# scratch arrays, sized for any field (`new_work`) and filled field after field (`fill_work`): a
# kernel allocates one per call instead of some twenty arrays per field. The kernels pass it
# `by_reference` (numba_borrow): a dozen arrays reference-counted and copied at each of the many
# small calls cost more than the searches themselves on ordinary fields.
Work = namedtuple("Work", "codes by_total by_start groups gw count by_bit lowest f_bit f_used f_total f_next "
                          "p_least p_index all_total all_mask all_start holders clash f_free f_left f_skip")
# The groups plain_groups_by_total finds: each level stops growing once the budget is spent, after
# the group being grown, which adds one group per plain item (two for a Fool) at most.
FOUND_CAP = GROUPS_BUDGET + 2 * (MAX_BITS + 2)
GROUPS_CAP = 2 * FOUND_CAP + MAX_BITS + 2  # heaviest_groups': the target's, the active card's, the stockpiles
BITS_CAP = MAX_BITS + 3  # a field's items (65 at most) and the active card


@njit(cache=True)
def new_work():
    """An empty Work, for `fill_work`."""
    i8, u8, f8 = np.int64, np.uint64, np.float64
    return Work(np.empty(BITS_CAP, i8), np.empty(FOUND_CAP, u8), np.empty(MAX_SINGLE + 2, i8),
                np.empty(GROUPS_CAP, u8), np.empty(GROUPS_CAP, f8), np.empty(BITS_CAP + 1, i8),
                np.empty(GROUPS_CAP * (MAX_SINGLE + 1), i8), np.empty(BITS_CAP, i8), np.empty(BITS_CAP, i8),
                np.empty(BITS_CAP, u8), np.empty(BITS_CAP, f8), np.empty(BITS_CAP, i8),
                np.empty(BITS_CAP, i8), np.empty(BITS_CAP, i8), np.empty(FOUND_CAP, i8), np.empty(FOUND_CAP, u8),
                np.empty(FOUND_CAP, i8), np.empty(BITS_CAP, u8), np.empty(64, u8), np.empty(BITS_CAP, u8),
                np.empty(BITS_CAP, u8), np.empty(BITS_CAP, np.bool_))


@njit(cache=True)
def fill_work(w, codes, n):
    """w (`new_work`) for the searches of the field whose items are codes[:n]: its codes and its
    groups (`plain_groups_by_total`)."""
    w.codes[:n] = codes[:n]
    _plain_groups_by_total(n, MAX_SINGLE, GROUPS_BUDGET, w)


@njit(cache=True)
def heaviest_groups(target, n, weights, active, w):
    """groups.heaviest_groups for a target of at most 14 (every target the pieces ask): the
    heaviest union of disjoint groups totalling `target` among the n items of the field of `w`
    (`work`; weights[:n]), plus the active card (weights[n], bit n) when `active` > 0, which must
    then be in it: (weight, mask), (0.0, 0) when there is no group."""
    codes, by_total, by_start, groups = w.codes, w.by_total, w.by_start, w.groups
    k = 0
    for i in range(n):
        if codes[i] == MULTIPLE_CODE + target:  # whole, alone
            groups[k] = bit(i)
            k += 1
    for j in range(by_start[target], by_start[target + 1]):
        groups[k] = by_total[j]
        k += 1
    n_active = 0
    if active > 0 and active <= target:
        for j in range(by_start[target - active], by_start[target - active + 1]):
            groups[k] = by_total[j] | bit(n)
            k += 1
            n_active += 1
    if (n_active == 0) if active > 0 else (k == 0):
        return 0.0, U0
    _sort(groups, 0, k)
    n_bits = n + (1 if active > 0 else 0)
    return heaviest_packing(k, weights, bit(n) if active > 0 else U0, n_bits, PACKING_BUDGET, w)


@njit(cache=True)
def heaviest_packing(G, weights, required, n_bits, budget, w):
    """groups.heaviest_packing of the groups w.groups[:G] (ascending, distinct): (weight, mask),
    (-1e9, 0) when no union was found."""
    groups = w.groups
    union = U0
    disjoint = True
    for j in range(G):
        if union & groups[j]:
            disjoint = False
            break
        union |= groups[j]
    if disjoint and union & required == required and n_bits < budget:
        low = 0.0
        for i in range(n_bits):
            low = weights[i] if i == 0 else min(low, weights[i])
        if low >= 0.0:
            # summed by their lowest bits (distinct: the groups are disjoint)
            at = w.lowest
            at[:n_bits] = -1
            for j in range(G):
                at[low_index(groups[j])] = j
            total = 0.0
            for i in range(n_bits):
                if at[i] >= 0:
                    total += group_weight(groups[at[i]], weights, n_bits)
            return total, union
    return searched_packing(G, weights, required, n_bits, budget, w)


@njit(cache=True)
def searched_packing(G, weights, required, n_bits, budget, w):
    """groups.searched_packing of the groups w.groups[:G]: bit by bit, each group holding the
    lowest bit not yet covered, or none where that bit is not required; the first `budget` nodes
    of the reference's recursion, in its order. Up to 64 groups (every table and nearly every
    search), the groups are bits too: per bit the groups holding it, per group those it clashes
    with, and per frame the groups still free, so a node finds its next group in one step."""
    if G > 64:
        return _searched_packing_listed(G, weights, required, n_bits, budget, w)
    groups, gw, holders, clash = w.groups, w.gw, w.holders, w.clash
    holders[:n_bits] = U0
    for j in range(G):
        g = groups[j]
        gw[j] = group_weight(g, weights, n_bits)
        while g:
            holders[low_index(g)] |= bit(j)
            g &= g - U1
    for j in range(G):  # the groups sharing an item with group j, itself among them
        c = U0
        g = groups[j]
        while g:
            c |= holders[low_index(g)]
            g &= g - U1
        clash[j] = c
    best, best_mask = -1e9, U0
    # frames of the recursion: its bit (past the covered ones), used, total, the groups disjoint
    # from used, those of them holding the bit not yet tried (ascending), whether the skip was tried
    f_bit, f_used, f_total, f_free, f_left, f_skip = w.f_bit, w.f_used, w.f_total, w.f_free, w.f_left, w.f_skip
    depth = 0
    nodes = budget
    # the call rec(0, 0, 0.0)
    c_bit, c_used, c_total, c_free = 0, U0, 0.0, ~U0 if G == 64 else bit(G) - U1
    call = True
    while True:
        if call:
            call = False
            nodes -= 1
            if nodes < 0:
                break  # every later call returns at once
            while c_bit < n_bits and (c_used >> np.uint64(c_bit)) & U1:
                c_bit += 1
            if c_bit >= n_bits:
                if c_used & required == required and c_total > best:
                    best, best_mask = c_total, c_used
            else:
                f_bit[depth], f_used[depth], f_total[depth], f_free[depth] = c_bit, c_used, c_total, c_free
                f_left[depth] = holders[c_bit] & c_free
                f_skip[depth] = False
                depth += 1
        if depth == 0:
            break
        d = depth - 1
        left = f_left[d]
        if left:
            j = low_index(left)
            f_left[d] = left & (left - U1)
            c_bit, c_used, c_total, c_free = f_bit[d] + 1, f_used[d] | groups[j], f_total[d] + gw[j], f_free[d] & ~clash[j]
            call = True
            continue
        if not f_skip[d]:
            f_skip[d] = True
            if not (required >> np.uint64(f_bit[d])) & U1:
                c_bit, c_used, c_total, c_free = f_bit[d] + 1, f_used[d], f_total[d], f_free[d]
                call = True
                continue
        depth -= 1
    return best, best_mask


@njit(cache=True)
def _searched_packing_listed(G, weights, required, n_bits, budget, w):
    """`searched_packing` of any number of groups, each bit's groups listed (by_bit)."""
    groups, gw, count, by_bit = w.groups, w.gw, w.count, w.by_bit
    count[:n_bits + 1] = 0
    for j in range(G):
        gw[j] = group_weight(groups[j], weights, n_bits)
        g = groups[j]
        while g:
            count[low_index(g) + 1] += 1
            g &= g - U1
    for i in range(n_bits):
        count[i + 1] += count[i]
    fill = w.lowest  # per bit, the groups holding it, ascending, into by_bit
    fill[:n_bits] = count[:n_bits]
    for j in range(G):
        g = groups[j]
        while g:
            i = low_index(g)
            by_bit[fill[i]] = j
            fill[i] += 1
            g &= g - U1
    best, best_mask = -1e9, U0
    # frames of the recursion: its bit (past the covered ones), used, total, the next group
    # to try (count[bit + 1] + 1 once the groups are done and the skip tried)
    f_bit, f_used, f_total, f_next = w.f_bit, w.f_used, w.f_total, w.f_next
    depth = 0
    nodes = budget
    # the call rec(0, 0, 0.0)
    c_bit, c_used, c_total = 0, U0, 0.0
    call = True
    while True:
        if call:
            call = False
            nodes -= 1
            if nodes < 0:
                break  # every later call returns at once
            while c_bit < n_bits and (c_used >> np.uint64(c_bit)) & U1:
                c_bit += 1
            if c_bit >= n_bits:
                if c_used & required == required and c_total > best:
                    best, best_mask = c_total, c_used
            else:
                f_bit[depth], f_used[depth], f_total[depth], f_next[depth] = c_bit, c_used, c_total, count[c_bit]
                depth += 1
        if depth == 0:
            break
        d = depth - 1
        b, used = f_bit[d], f_used[d]
        j = f_next[d]
        end = count[b + 1]
        while j < end and groups[by_bit[j]] & used:
            j += 1
        if j < end:
            g = by_bit[j]
            f_next[d] = j + 1
            c_bit, c_used, c_total = b + 1, used | groups[g], f_total[d] + gw[g]
            call = True
            continue
        if j == end:
            f_next[d] = end + 1
            if not (required >> np.uint64(b)) & U1:
                c_bit, c_used, c_total = b + 1, used, f_total[d]
                call = True
                continue
        depth -= 1
    return best, best_mask
