"""Harvest and stockpile groups: which items of a field can be split into groups of one value.

An item of a field is a loose card or a stockpile. Its *code*: a loose card's rank (0 for a Fool,
worth 1 or 14), a single stockpile's value, or ``MULTIPLE_CODE + value`` for a multiple stockpile
(only ever a group on its own, of exactly its value).

The engine asks one question many times: can a set of *required* items (those chosen so far, the
active card of a stockpile) be split into groups each totalling the target, using any of some
*optional* items (those still to be offered) as well? Items of one value are interchangeable, so
the question is asked of value counts, not of item subsets: `coverable` searches multisets,
largest required value first, memoised on the counts. That keeps it fast on any reachable field,
up to all 65 cards in one field, where a search over item subsets is exponential in the field's
size (a 34-item field once took minutes).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterator

MULTIPLE_CODE = 100
MAX_SINGLE = 14  # the most a single card harvests (a Fool as 14): the totals plain_groups_by_total lists
FOOL_KIND = 0  # counts index 0: Fools (1 or 14); index v in 1..14: items worth exactly v
NUM_KINDS = 15
Counts = tuple[int, ...]

_MEMO: dict[tuple, bool] = {}
_MEMO_LIMIT = 200_000  # entries; cleared when full (a cache, not a record)


def counts_of(codes) -> Counts | None:
    """Value counts of plain item codes; None when a code is a multiple stockpile."""
    counts = [0] * NUM_KINDS
    for code in codes:
        if code >= MULTIPLE_CODE:
            return None
        counts[code] += 1
    return tuple(counts)


def coverable(target: int, required: Counts, optional: Counts) -> bool:
    """Can every required item, plus any optional ones, be split into groups each totalling
    `target`? Both arguments are value counts of plain items (multiple stockpiles are the
    caller's: alone, each is a group exactly when its value is the target)."""
    return _covers(target, required, optional, greedy_first=True)


def _covers(target: int, required: Counts, optional: Counts, greedy_first: bool = False) -> bool:
    """`coverable`, memoised. Groups of more than 14 hold many items, and the search can take long
    to find one of the many covers there usually are: at the top, a greedy packing tries first
    (inside the search it would cost more than a node)."""
    key = (target, required, optional)
    hit = _MEMO.get(key)
    if hit is None:
        hit = _plausible(target, required, optional) and (
            greedy_first and target > 14 and _packs_greedily(target, required, optional)
            or _search(target, required, optional))
        if len(_MEMO) >= _MEMO_LIMIT:
            _MEMO.clear()
        _MEMO[key] = hit
    return hit


def _search(target: int, required: Counts, optional: Counts) -> bool:
    # The largest required value first: it has the fewest ways to be completed.
    kind = next((v for v in range(NUM_KINDS - 1, 0, -1) if required[v]), FOOL_KIND)
    if not required[kind]:
        return True
    if kind > target:
        return False
    rest = list(required)
    rest[kind] -= 1
    rest = tuple(rest)
    values = (kind,) if kind != FOOL_KIND else ((1, 14) if target >= 14 else (1,))
    for value in values:
        for r, o in _completions(target - value, rest, optional, min(target - value, NUM_KINDS - 1)):
            if _covers(target, r, o):
                return True
    return False


@lru_cache(maxsize=1 << 16)
def subset_sums(counts: Counts) -> int:
    """Bitmask of the totals that sub-multisets of `counts` can take (bit t: total t; bit 0, the
    empty one, always set)."""
    sums = 1
    for value in range(1, NUM_KINDS):
        for _ in range(counts[value]):
            sums |= sums << value
    for _ in range(counts[FOOL_KIND]):
        sums |= (sums << 1) | (sums << 14)
    return sums


@lru_cache(maxsize=1 << 16)
def _residues(counts: Counts, target: int) -> int:
    """Bitmask of the remainders modulo `target` of the totals sub-multisets of `counts` take."""
    sums, low, folded = subset_sums(counts), (1 << target) - 1, 0
    while sums:
        folded |= sums & low
        sums >>= target
    return folded


def _plausible(target: int, required: Counts, optional: Counts) -> bool:
    """Two necessary conditions, cheap next to the search they prune (which must otherwise try
    every way of packing the required items before it can say no): the required items plus some
    optional ones total a multiple of the target, and every required value can be completed to
    the target by the other items."""
    if any(required[target + 1:]):  # an item worth more than the target fits in no group
        return False
    fixed = sum(v * required[v] for v in range(1, NUM_KINDS)) + required[FOOL_KIND]
    residues = _residues(optional, target)
    if not any(residues >> (-base % target) & 1 for base in range(fixed, fixed + 13 * required[FOOL_KIND] + 1, 13)):
        return False
    # an item may complete itself here: a weaker, still necessary test
    reach = subset_sums(tuple(r + o for r, o in zip(required, optional)))
    if required[FOOL_KIND] and not (reach >> (target - 1) & 1 or target >= 14 and reach >> (target - 14) & 1):
        return False
    return all(reach >> (target - v) & 1 for v in range(1, NUM_KINDS) if required[v])


def _packs_greedily(target: int, required: Counts, optional: Counts) -> bool:
    """A quick try at a cover (True when found, False when unsure): each way of valuing the
    required Fools, optional items added to make the total a multiple of the target, then the
    items, largest first, each into the open group it fills best. The exact search proves the
    rest; on crowded fields it needs long to find the covers this finds at once."""
    fools = required[FOOL_KIND]
    base = [v for v in range(NUM_KINDS - 1, 0, -1) for _ in range(required[v])]
    extra = subset_sums(optional)
    for as14 in range(fools + 1 if target >= 14 else 1):
        items = base + [14] * as14 + [1] * (fools - as14)
        total = sum(items)
        gaps = [gap for gap in range(-total % target, extra.bit_length(), target) if extra >> gap & 1]
        for gap in gaps[:3]:  # the smallest few: a quick try
            items_with = sorted(items + _subset_totalling(optional, gap), reverse=True)
            groups = (total + gap) // target
            if (_fits_in(items_with, groups, target, True) or _fits_in(items_with, groups, target, False)
                    or _fills_one_by_one(items_with, target)):
                return True
    return False


def _subset_totalling(counts: Counts, total: int) -> list[int]:
    """Values of some sub-multiset of `counts` totalling `total` (known reachable), large first."""
    values = [v for v in range(NUM_KINDS - 1, 0, -1) for _ in range(counts[v])] + [0] * counts[FOOL_KIND]
    after = [1] * (len(values) + 1)  # after[i]: the totals the items from i on can make
    for i in range(len(values) - 1, -1, -1):
        v = values[i]
        after[i] = after[i + 1] | (after[i + 1] << 1 | after[i + 1] << 14 if v == 0 else after[i + 1] << v)
    picked = []
    for i, v in enumerate(values):  # keep an item when the rest can still make up the remainder
        if total == 0:
            break
        for value in ((14, 1) if v == 0 else (v,)):
            if value <= total and after[i + 1] >> (total - value) & 1:
                picked.append(value)
                total -= value
                break
    return picked


def _fills_one_by_one(items: list[int], target: int) -> bool:
    """Items (largest first, totalling a multiple of `target`) as groups made one at a time: the
    largest item left and, from the largest down, the others that can still complete it."""
    items = items[:]
    while items:
        need = target - items.pop(0)
        after = [1] * (len(items) + 1)  # after[i]: the totals the items from i on can make
        for i in range(len(items) - 1, -1, -1):
            after[i] = after[i + 1] | after[i + 1] << items[i]
        if need < 0 or not after[0] >> need & 1:
            return False
        keep = []
        for i, v in enumerate(items):
            if need and v <= need and after[i + 1] >> (need - v) & 1:
                need -= v
            else:
                keep.append(v)
        items = keep
    return True


def _fits_in(items: list[int], groups: int, target: int, fullest: bool) -> bool:
    """Items (largest first) into `groups` groups of `target`, each into the fullest (or the
    emptiest) group with room for it."""
    room = [target] * groups
    for v in items:
        best = -1
        for g, r in enumerate(room):
            if v <= r and (best < 0 or (r < room[best]) == fullest and r != room[best]):
                best = g
        if best < 0:
            return False
        room[best] -= v
    return True


def _completions(need: int, required: Counts, optional: Counts, kind: int) -> Iterator[tuple[Counts, Counts]]:
    """Every way to take items totalling `need` from the fixed values <= `kind` and the Fools,
    as the counts left. Required items are taken before optional ones of the same value: an
    optional item in a group can always trade places with a required one left outside."""
    if need == 0:
        yield required, optional
        return
    if kind == FOOL_KIND:
        have = required[0] + optional[0]
        for as14 in range(need // 14 + 1):
            used = as14 + need - 14 * as14
            if used <= have:
                yield _take(required, optional, 0, used)
        return
    most = min(required[kind] + optional[kind], need // kind)
    for m in range(most, -1, -1):
        r, o = _take(required, optional, kind, m) if m else (required, optional)
        yield from _completions(need - m * kind, r, o, kind - 1)


def _take(required: Counts, optional: Counts, kind: int, m: int) -> tuple[Counts, Counts]:
    from_required = min(m, required[kind])
    r, o = list(required), list(optional)
    r[kind] -= from_required
    o[kind] -= m - from_required
    return tuple(r), tuple(o)


def one_group_totals(codes) -> set[int]:
    """The totals that plain items may take together (each Fool 1 or 14)."""
    totals = {0}
    for code in codes:
        totals = {t + v for t in totals for v in ((1, 14) if code == 0 else (code,))}
    return totals


def groups_totalling(target: int, codes: tuple[int, ...], active: int, budget: int = 2_000) -> list[list[int]]:
    """Groups (bitmasks over the items, plus bit len(codes) for the active card when `active` > 0)
    whose values total `target`, listed per bit: the groups holding that bit. Exponential in the
    field's size, so for policies only: the search stops after `budget` steps with the groups
    found so far (on a crowded field, some of them)."""
    values = list(codes) + ([active] if active else [])
    found: list[int] = []
    plain = []
    for i, code in enumerate(values):
        if code >= MULTIPLE_CODE:
            if code - MULTIPLE_CODE == target:
                found.append(1 << i)
        else:
            plain.append((i, code))
    suffix = [0] * (len(plain) + 1)  # the most the plain items from j on can add
    for j in range(len(plain) - 1, -1, -1):
        suffix[j] = suffix[j + 1] + (14 if plain[j][1] == 0 else plain[j][1])
    steps = [budget]

    def rec(j: int, remaining: int, mask: int) -> None:
        steps[0] -= 1
        if steps[0] < 0:
            return
        if remaining == 0:
            found.append(mask)
            return
        if suffix[j] < remaining:
            return
        i, code = plain[j]
        bit = 1 << i
        if code == 0:
            rec(j + 1, remaining - 1, mask | bit)
            if remaining >= 14:
                rec(j + 1, remaining - 14, mask | bit)
        elif code <= remaining:
            rec(j + 1, remaining - code, mask | bit)
        rec(j + 1, remaining, mask)

    if plain:
        rec(0, target, 0)
    groups = sorted(set(found))
    return [[g for g in groups if g >> b & 1] for b in range(len(values))]


def groups_totalling_each(codes: tuple[int, ...], budget: int) -> list[list[list[int]]] | None:
    """`groups_totalling(v, codes, 0, budget)` for every v = 0..14 at once (index v; v = 0: no
    groups), where each of those searches is whole: its tree (per plain item a branch to take it or
    not, a Fool two ways to take it) has at most `budget` nodes, so the budget cannot cut it and
    every group is found. None otherwise: the caller runs the bounded searches, whose partial
    answers depend on their order. One pass over the field's subsets instead of 14 searches."""
    plain = [(i, code) for i, code in enumerate(codes) if code < MULTIPLE_CODE]
    nodes = width = 1
    for _, code in plain:
        width *= 3 if code == 0 else 2
        nodes += width
    if nodes > budget:
        return None
    sums = [(0, 0)]  # (total, mask) of every group of plain items totalling at most 14
    for i, code in plain:
        sums += [(total + value, mask | 1 << i) for total, mask in sums
                 for value in ((1, 14) if code == 0 else (code,)) if total + value <= MAX_SINGLE]
    groups: list[set[int]] = [set() for _ in range(MAX_SINGLE + 1)]
    for total, mask in sums[1:]:
        groups[total].add(mask)
    for i, code in enumerate(codes):
        if MULTIPLE_CODE < code <= MULTIPLE_CODE + MAX_SINGLE:
            groups[code - MULTIPLE_CODE].add(1 << i)
    return [by_bit(sorted(gs), len(codes)) if gs else [] for gs in groups]


def by_bit(groups: list[int], n_bits: int) -> list[list[int]]:
    """Per bit b < `n_bits`, the groups (in their order) holding b, as `groups_totalling` lists them."""
    out: list[list[int]] = [[] for _ in range(n_bits)]
    for g in groups:
        rest = g
        while rest:
            low = rest & -rest
            out[low.bit_length() - 1].append(g)
            rest ^= low
    return out


# Small caches: a larger one (16k fields, 65k answers) made the training games 15% slower, its live
# entries lengthening every garbage collection, for few more hits.
@lru_cache(maxsize=1 << 12)
def plain_groups_by_total(codes: tuple[int, ...], most: int = MAX_SINGLE, budget: int = 20_000
                          ) -> tuple[tuple[int, ...], ...]:
    """Per total t = 0..`most`: the groups (bitmasks over the items) of plain items totalling t,
    each Fool 1 or 14, ascending (t = 0: the empty group). One search answers what
    `groups_totalling` answers one target at a time, for the callers that ask every value of the
    same field. Groups are grown one item at a time, all of one size before the next, so on a
    crowded field (where `budget` groups stop it) every smaller group is found first. Cached: a
    field changes only when a turn plays into it."""
    plain = sorted((max(code, 1), i) for i, code in enumerate(codes) if code < MULTIPLE_CODE)  # a Fool as 1
    found: list[set[int]] = [set() for _ in range(most + 1)]
    found[0].add(0)
    frontier = [(0, 0, 0)]  # (total, mask, the next item of `plain` that may join)
    while frontier and budget > 0:
        grown = []
        for total, mask, start in frontier:
            if len(grown) >= budget:
                break
            for k in range(start, len(plain)):
                least, i = plain[k]
                if total + least > most:
                    break  # ascending: no later item fits either
                for value in ((1, 14) if codes[i] == 0 else (least,)):
                    if total + value <= most:
                        found[total + value].add(mask | 1 << i)
                        grown.append((total + value, mask | 1 << i, k + 1))
        budget -= len(grown)
        frontier = grown
    return tuple(tuple(sorted(groups)) for groups in found)


def heaviest_packing(groups_by_bit: list[list[int]], weights, required: int, n_bits: int,
                     budget: int = 3_000) -> tuple[float, int]:
    """The heaviest union of disjoint groups (bitmasks, as `groups_totalling` lists them) that
    covers every bit of `required`: (its weight, its mask), or (-1e9, 0) when none was found.
    Exponential like `groups_totalling`, so bounded the same way: after `budget` nodes it answers
    with the best union found so far (on ordinary fields the search ends long before)."""
    groups = {g for gs in groups_by_bit for g in gs}
    union = 0
    for g in groups:
        if union & g:
            break
        union |= g
    else:  # disjoint groups: the search's first answer, all of them, is the heaviest if no weight is negative
        if union & required == required and min(weights, default=0.0) >= 0 and n_bits < budget:
            # Summed in the order the search first meets them. It may meet the same union again in
            # another order and keep that sum when rounding makes it larger, by the last bit of a
            # float64: a difference the float32 observations do not see.
            total = 0.0
            for g in sorted(groups, key=lambda g: g & -g):
                total += _weight(g, weights)
            return total, union
    return searched_packing(groups_by_bit, weights, required, n_bits, budget)


def _weight(group: int, weights) -> float:
    return sum(weights[i] for i in range(group.bit_length()) if group >> i & 1)


def searched_packing(groups_by_bit: list[list[int]], weights, required: int, n_bits: int,
                     budget: int) -> tuple[float, int]:
    """`heaviest_packing` by its bounded search alone: bit by bit, each group holding the lowest
    bit not yet covered, or none where that bit is not required."""
    nodes = [budget]
    best = [-1e9, 0]
    group_weight = {g: _weight(g, weights) for gs in groups_by_bit for g in gs}

    def rec(bit: int, used: int, total: float) -> None:
        nodes[0] -= 1
        if nodes[0] < 0:
            return
        while bit < n_bits and used >> bit & 1:
            bit += 1
        if bit >= n_bits:
            if used & required == required and total > best[0]:
                best[0], best[1] = total, used
            return
        for g in groups_by_bit[bit]:
            if not g & used:
                rec(bit + 1, used | g, total + group_weight[g])
        if not required >> bit & 1:
            rec(bit + 1, used, total)

    rec(0, 0, 0.0)
    return best[0], best[1]


@lru_cache(maxsize=1 << 13)
def heaviest_groups(target: int, codes: tuple[int, ...], weights: tuple[float, ...], active: int) -> tuple[float, int]:
    """The heaviest union of disjoint groups totalling `target` among a field's items (`codes`,
    `weights`), plus the active card (weight last, bit len(codes)) when `active` > 0, which must
    then be in it: (weight, mask), mask 0 when there is none. One search of the field's groups
    serves every target up to 14 (`plain_groups_by_total`); a larger one (a Union pair's sum, asked
    rarely) is searched on its own. Cached: policies ask it for every card of a hand, and a field
    changes only when a turn plays into it."""
    n = len(codes)
    if target > MAX_SINGLE:
        by_bit = groups_totalling(target, codes, active)
    else:
        by_total = plain_groups_by_total(codes)
        groups = [1 << i for i, code in enumerate(codes) if code == MULTIPLE_CODE + target]  # whole, alone
        groups += by_total[target]  # (target > 0: no empty group)
        if active and active <= target:
            groups += [g | 1 << n for g in by_total[target - active]]
        groups.sort()
        by_bit = [[g for g in groups if g >> b & 1] for b in range(n + bool(active))]
    if not (by_bit[n] if active else any(by_bit)):
        return 0.0, 0
    return heaviest_packing(by_bit, list(weights), 1 << n if active else 0, n + bool(active))
