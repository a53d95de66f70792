"""Numba kernels of batched Illimat: the bounded group searches of the optional observation pieces
(`card_envs.games.illimat.groups`: `plain_groups_by_total`, `heaviest_groups`,
`heaviest_packing`, `searched_packing`), answering bit for bit what the reference answers.

Groups are bitmasks over a field's items in uint64 (bit i: item i in key order; bit n: the
active card of a stockpile). That holds every field the pieces ask about but one: a field's items
number at most 65 (every card loose in it), the active card comes with a hand of two cards or more
(a stockpile's value is another hand card's), so a search with the active card has at most 63
items (bits 0..63) and one without at most 65; only a field of 65 items (all 65 cards loose in
one field, hands and draw pile empty: a snapshot no deal reaches, since the other fields' first
nine cards never join it) needs bit 64, and the callers refuse that one (`MAX_BITS`).

The searches are the reference's, walked the same way so that their budgets stop them at the same
place: the breadth-first growth of groups (which groups a crowded field yields depends on it), the
depth-first packing with an explicit stack of frames (numba's cache cannot reload a recursive
function) visiting the same nodes in the same order, and the float64 sums added in the
reference's order (a group's weight over its items in ascending order; the disjoint fast path's
groups by their lowest item).
"""

from __future__ import annotations

import numpy as np
from numba import njit

MULTIPLE_CODE = 100
MAX_SINGLE = 14  # the totals plain_groups_by_total lists: 0..14
GROUPS_BUDGET = 20_000  # plain_groups_by_total's default budget
PACKING_BUDGET = 3_000  # heaviest_packing's default budget
MAX_BITS = 64  # items (+ the active card) a group bitmask holds
U0, U1 = np.uint64(0), np.uint64(1)


@njit(cache=True)
def bit(i):
    return U1 << np.uint64(i)


@njit(cache=True)
def plain_groups_by_total(codes, n, most, budget):
    """groups.plain_groups_by_total(codes[:n], most, budget): (masks, start), the groups of total
    t ascending in masks[start[t]:start[t + 1]] (t = 0: the empty group)."""
    least = np.empty(n, np.int64)
    index = np.empty(n, np.int64)
    m = 0
    for i in range(n):
        if codes[i] < MULTIPLE_CODE:
            least[m] = max(codes[i], 1)  # a Fool as 1
            index[m] = i
            m += 1
    order = np.argsort(least[:m], kind="mergesort")  # by (least, i): i ascends already
    p_least = least[:m][order]
    p_index = index[:m][order]
    cap = budget + 2 * m + 2  # a level may overrun the budget by one entry's growth (2 per item)
    f_total = np.empty(cap, np.int64)
    f_mask = np.empty(cap, np.uint64)
    f_start = np.empty(cap, np.int64)
    g_total = np.empty(cap, np.int64)
    g_mask = np.empty(cap, np.uint64)
    g_start = np.empty(cap, np.int64)
    all_total = np.empty(cap + 1, np.int64)  # every group found, in the order found
    all_mask = np.empty(cap + 1, np.uint64)
    all_total[0], all_mask[0] = 0, U0
    found = 1
    f_total[0], f_mask[0], f_start[0] = 0, U0, 0
    frontier = 1
    while frontier > 0 and budget > 0:
        grown = 0
        for e in range(frontier):
            if grown >= budget:
                break
            total, mask = f_total[e], f_mask[e]
            for k in range(f_start[e], m):
                lv, i = p_least[k], p_index[k]
                if total + lv > most:
                    break  # ascending: no later item fits either
                for w in range(2 if codes[i] == 0 else 1):
                    value = lv if w == 0 else 14
                    if total + value <= most:
                        g = mask | bit(i)
                        all_total[found], all_mask[found] = total + value, g
                        found += 1
                        g_total[grown], g_mask[grown], g_start[grown] = total + value, g, k + 1
                        grown += 1
        budget -= grown
        f_total, g_total = g_total, f_total
        f_mask, g_mask = g_mask, f_mask
        f_start, g_start = g_start, f_start
        frontier = grown
    # per total, sorted and without repeats (the reference's sets)
    start = np.zeros(most + 2, np.int64)
    for j in range(found):
        start[all_total[j] + 1] += 1
    for t in range(most + 1):
        start[t + 1] += start[t]
    fill = start[:most + 1].copy()
    masks = np.empty(found, np.uint64)
    for j in range(found):
        t = all_total[j]
        masks[fill[t]] = all_mask[j]
        fill[t] += 1
    out = np.empty(found, np.uint64)
    out_start = np.zeros(most + 2, np.int64)
    k = 0
    for t in range(most + 1):
        out_start[t] = k
        seg = np.sort(masks[start[t]:start[t + 1]])
        for j in range(seg.shape[0]):
            if j == 0 or seg[j] != seg[j - 1]:
                out[k] = seg[j]
                k += 1
    out_start[most + 1] = k
    return out[:k], out_start


@njit(cache=True)
def group_weight(g, weights, n_bits):
    """groups._weight: the items' weights summed in ascending order."""
    total = 0.0
    for i in range(n_bits):
        if (g >> np.uint64(i)) & U1:
            total += weights[i]
    return total


@njit(cache=True)
def heaviest_groups(target, codes, n, weights, active, by_total, by_start):
    """groups.heaviest_groups for a target of at most 14 (every target the pieces ask): the
    heaviest union of disjoint groups totalling `target` among the items codes[:n] (weights[:n]),
    plus the active card (weights[n], bit n) when `active` > 0, which must then be in it:
    (weight, mask), (0.0, 0) when there is no group. by_total, by_start: the field's
    `plain_groups_by_total`."""
    size = by_start[target + 1] - by_start[target]
    with_active = active > 0 and active <= target
    if with_active:
        size += by_start[target - active + 1] - by_start[target - active]
    for i in range(n):
        if codes[i] == MULTIPLE_CODE + target:
            size += 1
    groups = np.empty(size, np.uint64)
    k = 0
    for i in range(n):
        if codes[i] == MULTIPLE_CODE + target:  # whole, alone
            groups[k] = bit(i)
            k += 1
    for j in range(by_start[target], by_start[target + 1]):
        groups[k] = by_total[j]
        k += 1
    n_active = 0
    if with_active:
        for j in range(by_start[target - active], by_start[target - active + 1]):
            groups[k] = by_total[j] | bit(n)
            k += 1
            n_active += 1
    if (n_active == 0) if active > 0 else (k == 0):
        return 0.0, U0
    groups.sort()
    n_bits = n + (1 if active > 0 else 0)
    return heaviest_packing(groups, weights, bit(n) if active > 0 else U0, n_bits, PACKING_BUDGET)


@njit(cache=True)
def heaviest_packing(groups, weights, required, n_bits, budget):
    """groups.heaviest_packing of the groups (ascending, distinct): (weight, mask), (-1e9, 0)
    when no union was found."""
    union = U0
    disjoint = True
    for g in groups:
        if union & g:
            disjoint = False
            break
        union |= g
    if disjoint and union & required == required and n_bits < budget:
        low = np.min(weights[:n_bits]) if n_bits > 0 else 0.0
        if low >= 0.0:
            lowest = np.empty(groups.shape[0], np.uint64)
            for j in range(groups.shape[0]):
                lowest[j] = groups[j] & (~groups[j] + U1)  # g & -g
            total = 0.0
            for j in np.argsort(lowest):
                total += group_weight(groups[j], weights, n_bits)
            return total, union
    return searched_packing(groups, weights, required, n_bits, budget)


@njit(cache=True)
def searched_packing(groups, weights, required, n_bits, budget):
    """groups.searched_packing: bit by bit, each group holding the lowest bit not yet covered, or
    none where that bit is not required; the first `budget` nodes of the reference's recursion,
    in its order."""
    G = groups.shape[0]
    gw = np.empty(G, np.float64)
    count = np.zeros(n_bits + 1, np.int64)
    for j in range(G):
        gw[j] = group_weight(groups[j], weights, n_bits)
        for i in range(n_bits):
            if (groups[j] >> np.uint64(i)) & U1:
                count[i + 1] += 1
    for i in range(n_bits):
        count[i + 1] += count[i]
    by_bit = np.empty(count[n_bits], np.int64)  # per bit, the groups holding it, ascending
    fill = count[:n_bits].copy()
    for j in range(G):
        for i in range(n_bits):
            if (groups[j] >> np.uint64(i)) & U1:
                by_bit[fill[i]] = j
                fill[i] += 1
    best, best_mask = -1e9, U0
    # frames of the recursion: its bit (past the covered ones), used, total, the next group
    # to try (count[bit + 1] - count[bit] + 1 once the groups are done: the skip tried)
    f_bit = np.empty(n_bits + 2, np.int64)
    f_used = np.empty(n_bits + 2, np.uint64)
    f_total = np.empty(n_bits + 2, np.float64)
    f_next = np.empty(n_bits + 2, np.int64)
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
