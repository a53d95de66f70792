"""Numba kernels of batched Illimat: field sums and the exact-cover question behind a harvest's
and a stockpile's items (`card_envs.games.illimat.groups`, `moves.LegalMoves`).

Sums are bitmasks in uint64 (bit v: v can be made; every value asked is below 57). `covers`
answers `groups.coverable` exactly: the same search (largest required value first, each group
completed from the values below it, required items before optional ones of a value), walked
with an explicit stack, the answers to larger questions memoised in a hash table keyed by the
packed counts (`new_memo`).
The reference's greedy first try on large targets only finds covers faster; the answers are
the same.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from card_envs.numba_cache import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from card_envs.batch.illimat.kernels import FOOL_A, L_LOOSE, L_PILE, RANK_A
from card_envs.games.illimat.cards import NUM_CARDS

NUM_KINDS = 15  # counts index 0: Fools (1 or 14); v in 1..14: items worth exactly v
MULTIPLE_CODE = 100
U0, U1 = np.uint64(0), np.uint64(1)

# The memo and a walk's positions are open-addressing hash tables of packed counts (`_key`, four
# int64 words) in numpy arrays, written by hand: numba's typed dict hashes a tuple key through
# Python's tuple hash and allocates a dict for every walk, most of a harvest mask's time. A key's
# word 1 holds its target (at least 1) in bits 49-54, so it is never 0: word 1 == 0 marks an empty
# slot. The memo keeps its answer in word 1's bit 60.
# Both small enough to stay in a core's cache (2 MB and 512 KB): every question reads the memo at a
# random slot, and with 16 MB the reads went to memory (the items decisions' mask 4,800 -> 3,600
# cycles a row in random play; the memo's hits barely fewer).
MEMO_SLOTS = 1 << 16  # a power of two: a slot is the hash's low bits
MEMO_LIMIT = 25_000  # entries, then cleared (a cache, as the reference's); a table under 0.4 full
SEEN_SLOTS = 1 << 14
SEEN_LIMIT = SEEN_SLOTS // 2  # positions a walk remembers; beyond, it visits them again (slower, same answer)
# Questions of at most SMALL items are walked without the memo: their walks visit a few positions
# (at most 20 in 20,000 random questions of 10 items), fewer cycles than the memo's reads, which
# come from memory when a step's observations have pushed the memo out of the cache.
SMALL = 10
ANSWER = np.int64(1 << 60)
Memo = namedtuple("Memo", "table count seen seen_at stack counts left keys codes req later")


def new_memo() -> Memo:
    """An empty memo with its walk's scratch and `items_legal`'s (for one engine: the kernels are
    single-threaded): a walk allocates nothing (an allocation costs about as much as a short walk's
    arithmetic)."""
    return Memo(table=np.zeros((MEMO_SLOTS, 4), np.int64), count=np.zeros(1, np.int64),
                seen=np.zeros((SEEN_SLOTS, 4), np.int64), seen_at=np.zeros(SEEN_LIMIT, np.int64),
                stack=np.empty((64, 2, NUM_KINDS), np.int64), counts=np.zeros((3, NUM_KINDS), np.int64),
                left=np.zeros(NUM_KINDS + 1, np.int64), keys=np.empty(NUM_CARDS, np.int64),
                codes=np.empty(NUM_CARDS, np.int64), req=np.zeros(NUM_KINDS, np.int64),
                later=np.zeros(NUM_KINDS, np.int64))


# A loose card as shifts of the sums (a Fool 1 and 14, another card its rank twice) and its code.
LOW_A = np.array([1 if FOOL_A[c] else RANK_A[c] for c in range(NUM_CARDS)], np.uint64)
HIGH_A = np.array([14 if FOOL_A[c] else RANK_A[c] for c in range(NUM_CARDS)], np.uint64)
CODE_A = np.array([0 if FOOL_A[c] else RANK_A[c] for c in range(NUM_CARDS)], np.int64)


@njit(cache=True, inline="always")
def bit(v):
    return U1 << np.uint64(v)


@njit(cache=True, inline="always")
def has(bits, v):
    return (bits >> np.uint64(v)) & U1 != U0


@njit(cache=True, inline="always")
def harvest_bits(c):
    """HARVEST_VALUES[c] as a bitmask: a Fool 1 or 14."""
    return bit(1) | bit(14) if FOOL_A[c] else bit(RANK_A[c])


@njit(cache=True, inline="always")
def pair_bits(c, d):
    """PAIR_VALUES[c][d] as a bitmask: the totals of the two cards' harvest values."""
    out = U0
    for a in (1, 14) if FOOL_A[c] else (RANK_A[c], RANK_A[c]):
        for e in (1, 14) if FOOL_A[d] else (RANK_A[d], RANK_A[d]):
            out |= bit(a + e)
    return out


@njit(cache=True, inline="always")
def add_card_total(totals, c):
    """The totals bitmask once card c joins a full harvest (a Fool 1 or 14: `cards.full_totals`)."""
    if FOOL_A[c]:
        return (totals << U1) | (totals << np.uint64(14))
    return totals << np.uint64(RANK_A[c])


@njit(cache=True)
def full_totals(s, b, p):
    """The totals a full harvest of seat p's whole hand may take (each Fool 1 or 14), as a bitmask."""
    totals = U1
    for c in range(NUM_CARDS):
        if s.loc[b, c] == 2 + p:  # L_HAND + p
            totals = add_card_total(totals, c)
    return totals


@njit(cache=True, inline="always")
def field_cards(s, b, f):
    """Field f's loose cards and its stockpiles' key cards as bitmasks of cards 0..63 and of card
    64: one pass of independent compares, so that the sums below loop over these cards only."""
    loose, keys = L_LOOSE + f, L_PILE + f
    loose_low = keys_low = U0
    for c in range(64):
        where = s.loc[b, c]
        loose_low |= np.uint64(where == loose) << np.uint64(c)
        keys_low |= np.uint64((where == keys) & (s.pile_key[b, c] == c)) << np.uint64(c)
    where = s.loc[b, 64]
    return loose_low, np.uint64(where == loose), keys_low, np.uint64((where == keys) & (s.pile_key[b, 64] == 64))


@njit(cache=True, inline="always")
def cards_at(s, b, code):
    """The cards whose place (`loc`) is `code` as bitmasks of cards 0..63 and of card 64."""
    low = U0
    for c in range(64):
        low |= np.uint64(s.loc[b, c] == code) << np.uint64(c)
    return low, np.uint64(s.loc[b, 64] == code)


@njit(cache=True, inline="always")
def lowest(low, high):
    """(the lowest card of a pair of bitmasks from `field_cards` or `cards_at`, the pair without it)."""
    if low:
        return np.int64(trailing_zeros(low)), low & (low - U1), high
    return np.int64(64), low, U0


@njit(cache=True)
def field_sums(s, t, b, f):
    """(sums of non-empty sets of loose cards and single stockpiles, values of multiple
    stockpiles) of field f, as bitmasks (`LegalMoves._field_sums`). A set's sums do not depend on
    the order its items join in."""
    mask = t.sum_mask
    reach = multi = U0
    loose_low, loose_high, keys_low, keys_high = field_cards(s, b, f)
    while loose_low | loose_high:
        # A loose card's sums: a value v adds v to each sum and v alone; a Fool 1 or 14.
        c, loose_low, loose_high = lowest(loose_low, loose_high)
        low, high = LOW_A[c], HIGH_A[c]
        reach = (reach | (reach << low) | (reach << high) | (U1 << low) | (U1 << high)) & mask
    while keys_low | keys_high:
        c, keys_low, keys_high = lowest(keys_low, keys_high)
        v = np.uint64(s.pile_val[b, c])
        if s.pile_multi[b, c]:
            multi |= U1 << v
        else:
            reach |= ((reach << v) | (U1 << v)) & mask
    return reach, multi


# ----- the exact cover (groups.coverable) --------------------------------------------------------
@njit(cache=True)
def _key(target, req, opt):
    w0 = w1 = w2 = w3 = 0
    for i in range(8):
        w0 |= req[i] << (7 * i)
        w2 |= opt[i] << (7 * i)
    for i in range(8, NUM_KINDS):
        w1 |= req[i] << (7 * (i - 8))
        w3 |= opt[i] << (7 * (i - 8))
    return (w0, w1 | (target << 49), w2, w3)


@njit(cache=True)
def _subset_sums(req, opt, top):
    """Bits 0..top of the totals that sub-multisets of req + opt take (Fools 1 or 14)."""
    keep = (U1 << np.uint64(top + 1)) - U1
    sums = U1
    for v in range(1, NUM_KINDS):
        for _ in range(req[v] + opt[v]):
            grown = (sums | (sums << np.uint64(v))) & keep
            if grown == sums:
                break
            sums = grown
    for _ in range(req[0] + opt[0]):
        grown = (sums | (sums << U1) | (sums << np.uint64(14))) & keep
        if grown == sums:
            break
        sums = grown
    return sums


@njit(cache=True)
def _rotate(x, r, width, full):
    if r == 0:
        return x
    return ((x << np.uint64(r)) | (x >> np.uint64(width - r))) & full


@njit(cache=True)
def _residues(opt, target):
    """Bitmask of the remainders modulo `target` of the totals sub-multisets of opt take."""
    full = (U1 << np.uint64(target)) - U1
    res = U1
    for v in range(0, NUM_KINDS):
        for _ in range(opt[v]):
            if v == 0:
                grown = res | _rotate(res, 1 % target, target, full) | _rotate(res, 14 % target, target, full)
            else:
                grown = res | _rotate(res, v % target, target, full)
            if grown == res:
                break
            res = grown
    return res


@njit(cache=True)
def _plausible(target, req, opt):
    """groups._plausible: two necessary conditions, cheap next to the search they prune."""
    for v in range(target + 1, NUM_KINDS):
        if req[v]:
            return False
    fixed = req[0]
    for v in range(1, NUM_KINDS):
        fixed += v * req[v]
    residues = _residues(opt, target)
    ok = False
    for base in range(fixed, fixed + 13 * req[0] + 1, 13):
        if has(residues, (-base) % target):
            ok = True
            break
    if not ok:
        return False
    reach = _subset_sums(req, opt, target)
    if req[0] and not (has(reach, target - 1) or target >= 14 and has(reach, target - 14)):
        return False
    for v in range(1, NUM_KINDS):
        if req[v] and not has(reach, target - v):
            return False
    return True


@njit(cache=True)
def _take(r, o, kind, m):
    """Take m items of `kind`, required ones first (an optional item in a group can always trade
    places with a required one left outside)."""
    from_required = min(m, r[kind])
    r[kind] -= from_required
    o[kind] -= m - from_required


@njit(cache=True)
def _push(stack, top, r, o):
    if top == stack.shape[0]:
        grown = np.empty((2 * top, 2, NUM_KINDS), np.int64)
        grown[:top] = stack[:top]
        stack = grown
    for k in range(NUM_KINDS):  # numba's slice assignment checks for overlap first: ~15% of a walk
        stack[top, 0, k], stack[top, 1, k] = r[k], o[k]
    return stack, top + 1


@njit(cache=True)
def _push_completions(stack, top, r, o, need, m, left):
    """Push every way to take items totalling `need` from the values <= min(need, 14) and the
    Fools (`groups._completions`), as the counts left; m and left are scratch (left[k]: what the
    values <= k must still make, m[k]: how many of value k are taken). An odometer over the
    values, largest first, in place of the reference's recursive generator."""
    if need == 0:
        return _push(stack, top, r, o)
    first = min(need, NUM_KINDS - 1)
    k = first
    left[k] = need
    m[k] = min(r[k] + o[k], need // k)
    while True:
        rest = left[k] - m[k] * k
        if rest > 0 and k > 1:  # the smaller values come next
            k -= 1
            left[k] = rest
            m[k] = min(r[k] + o[k], rest // k)
            continue
        for as14 in range(rest // 14 + 1):  # rest == 0: one way, no Fool
            used = as14 + rest - 14 * as14
            if used <= r[0] + o[0]:
                stack, top = _push(stack, top, r, o)  # then the items taken from the copy pushed
                for j in range(k, first + 1):
                    _take(stack[top - 1, 0], stack[top - 1, 1], j, m[j])
                _take(stack[top - 1, 0], stack[top - 1, 1], 0, used)
        while True:  # the next choice: one item fewer of the smallest value still choosing
            m[k] -= 1
            if m[k] >= 0:
                break
            k += 1
            if k > first:
                return stack, top


@njit(cache=True, inline="always")
def _slot(table, key):
    """The slot of `table` holding `key`, or the empty one where it goes (linear probing)."""
    k0, k1, k2, k3 = key
    h = np.uint64(k0) * np.uint64(0x9E3779B97F4A7C15)
    h = (h ^ (h >> np.uint64(29)) ^ np.uint64(k1)) * np.uint64(0xBF58476D1CE4E5B9)
    h = (h ^ (h >> np.uint64(29)) ^ np.uint64(k2)) * np.uint64(0x94D049BB133111EB)
    h = (h ^ (h >> np.uint64(29)) ^ np.uint64(k3)) * np.uint64(0x9E3779B97F4A7C15)
    last = table.shape[0] - 1
    i = np.int64((h >> np.uint64(32)) & np.uint64(last))
    while True:
        w1 = table[i, 1]
        if w1 == 0 or (w1 & ~ANSWER) == k1 and table[i, 0] == k0 and table[i, 2] == k2 and table[i, 3] == k3:
            return i
        i = (i + 1) & last


@njit(cache=True, inline="always")
def _put(table, i, key, word1):
    table[i, 0], table[i, 1], table[i, 2], table[i, 3] = key[0], word1, key[2], key[3]


@njit(cache=True)
def _remember(memo, key, found):
    """memo[key] = found, the memo cleared first when full."""
    if memo.count[0] >= MEMO_LIMIT:
        memo.table[:, 1] = 0
        memo.count[0] = 0
    i = _slot(memo.table, key)
    if memo.table[i, 1] == 0:
        memo.count[0] += 1
    _put(memo.table, i, key, key[1] | (ANSWER if found else 0))


@njit(cache=True, inline="always")
def _obvious(target, req):
    """1 where the required items alone make one group of `target` (some of their Fools as 14),
    0 where one of them is worth more than `target` (it fits no group), else -1: the walk's
    answers, without its hashing (in random play a quarter and a fifth of the items decisions' questions)."""
    plain = 0
    for v in range(1, NUM_KINDS):
        if req[v] and v > target:
            return 0
        plain += v * req[v]
    for as14 in range(req[0] + 1):
        if plain + req[0] + 13 * as14 == target:
            return 1
    return -1


@njit(cache=True, inline="always")
def _items(req, opt):
    n = 0
    for v in range(NUM_KINDS):
        n += req[v] + opt[v]
    return n


@njit(cache=True)
def covers(target, req, opt, memo):
    """groups.coverable: can every required item, plus any optional ones, be split into groups
    each totalling `target`? (req, opt: int64[15] value counts of plain items; memo: `new_memo()`.)

    The reference's search as a depth-first walk (`_walk`). Two questions in five of a harvest's
    items are answered before any search (`_obvious`), two more fail `_plausible`; a question of
    at most `SMALL` items is walked without the memo, a larger one's answer is remembered."""
    obvious = _obvious(target, req)
    if obvious >= 0:
        return obvious == 1
    if not _plausible(target, req, opt):  # the walk's first position would fail it: no memo read
        return False
    if _items(req, opt) <= SMALL:
        return _walk(target, req, opt, memo, False)
    start = _key(target, req, opt)
    i = _slot(memo.table, start)
    if memo.table[i, 1] != 0:
        return memo.table[i, 1] & ANSWER != 0
    found = _walk(target, req, opt, memo, True)
    _remember(memo, start, found)
    return found


@njit(cache=True)
def _walk(target, req, opt, memo, remember):
    """The search from the position (req, opt), which passed `_plausible`, with an explicit stack
    (numba's cache cannot reload a recursive function): each position removes one group holding
    the largest required value; the answer is whether some walk removes every required item.
    With `remember`, a position seen twice is walked once, and the positions of a walk that failed
    are remembered as failing (the memo)."""
    seen = memo.seen
    stack, top = _push(memo.stack, 0, req, opt)
    r, o, m, left = memo.counts[0], memo.counts[1], memo.counts[2], memo.left
    walked = 0  # the positions in `seen`, their slots in memo.seen_at
    found, first = False, True
    # The start passed `_plausible` and the caller looked it up; it cannot come back (a position
    # has fewer required items than the one it came from), so its checks are not repeated.
    while top > 0 and not found:
        top -= 1
        for k in range(NUM_KINDS):  # as in `_push`
            r[k], o[k] = stack[top, 0, k], stack[top, 1, k]
        if remember and not first:
            key = _key(target, r, o)
            j = _slot(seen, key)
            if seen[j, 1] != 0:
                continue
            i = _slot(memo.table, key)
            if memo.table[i, 1] != 0:
                found = memo.table[i, 1] & ANSWER != 0
                continue
            if walked < SEEN_LIMIT:
                _put(seen, j, key, key[1])
                memo.seen_at[walked] = j
                walked += 1
        kind = 0  # the largest required value first: it has the fewest ways to be completed
        for v in range(NUM_KINDS - 1, 0, -1):
            if r[v]:
                kind = v
                break
        if not r[kind]:
            found = True
        elif kind <= target and (first or _plausible(target, r, o)):
            r[kind] -= 1
            if kind != 0:
                stack, top = _push_completions(stack, top, r, o, target - kind, m, left)
            else:
                stack, top = _push_completions(stack, top, r, o, target - 1, m, left)
                if target >= 14:
                    stack, top = _push_completions(stack, top, r, o, target - 14, m, left)
        first = False
    for n in range(walked):
        j = memo.seen_at[n]
        if not found:
            _remember(memo, (seen[j, 0], seen[j, 1], seen[j, 2], seen[j, 3]), False)
        seen[j, 1] = 0
    return found


# ----- a field's items (IllimatState.items) ------------------------------------------------------
@njit(cache=True)
def field_items(s, b, f, keys, codes):
    """The items of field f in key order into keys, codes (`groups` codes); their number."""
    loose_low, loose_high, keys_low, keys_high = field_cards(s, b, f)
    low, high = loose_low | keys_low, loose_high | keys_high
    k = 0
    while low | high:
        c, low, high = lowest(low, high)
        keys[k] = c
        if s.loc[b, c] == L_LOOSE + f:
            codes[k] = CODE_A[c]
        else:
            codes[k] = s.pile_val[b, c] + (MULTIPLE_CODE if s.pile_multi[b, c] else 0)
        k += 1
    return k


@njit(cache=True)
def _fits(targets, req, multiples, multiple_value, opt, memo):
    """Some target that every multiple stockpile taken equals (multiple_value: their common
    value, -1 when they differ) and that the plain items can cover (moves._fits)."""
    for target in range(1, 57):
        if targets >> np.uint64(target) == U0:  # no target left (most harvests have one)
            break
        if has(targets, target) and (multiples == 0 or multiple_value == target) and covers(target, req, opt, memo):
            return True
    return False


@njit(cache=True)
def items_legal(s, t, b, active, targets, memo, row):
    """The items offered next and DONE into the bool row (moves._items_legal): each keeps the
    move completable, i.e. the items chosen, the new one and the active card can still be split
    into groups of one target with items offered later."""
    keys, codes, req, later = memo.keys, memo.codes, memo.req, memo.later
    count = field_items(s, b, s.m_field[b], keys, codes)
    req[:] = 0
    later[:] = 0
    multiples, multiple_value, last = 0, 0, -1
    for j in range(s.m_items_len[b]):
        key = s.m_items[b, j]
        for i in range(count):
            if keys[i] == key:
                last = max(last, i)
                code = codes[i]
                if code >= MULTIPLE_CODE:
                    value = code - MULTIPLE_CODE
                    multiple_value = value if multiples == 0 or multiple_value == value else -1
                    multiples += 1
                else:
                    req[code] += 1
    if active:
        req[active] += 1
    for i in range(count - 1, last, -1):  # later: the plain items after item i
        code = codes[i]
        if code >= MULTIPLE_CODE:
            value = code - MULTIPLE_CODE
            mv = value if multiples == 0 or multiple_value == value else -1
            ok = _fits(targets, req, multiples + 1, mv, later, memo)
        else:
            req[code] += 1
            ok = _fits(targets, req, multiples, multiple_value, later, memo)
            req[code] -= 1
            later[code] += 1
        if ok:
            row[keys[i]] = True
    if s.m_items_len[b]:
        later[:] = 0
        if _fits(targets, req, multiples, multiple_value, later, memo):
            return True
    return False


@njit(cache=True)
def one_group_has(codes_req, value):
    """`value in groups.one_group_totals(codes)` for the plain codes counted in codes_req."""
    totals = U1
    for v in range(1, NUM_KINDS):
        for _ in range(codes_req[v]):
            totals = totals << np.uint64(v)
    for _ in range(codes_req[0]):
        totals = (totals << U1) | (totals << np.uint64(14))
    return has(totals, value)

