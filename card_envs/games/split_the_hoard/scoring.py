"""End-of-game scoring of Split the Hoard: Starting Titles (with the exact rank solver), hidden
Titles, Treasure VP with conditions, and the final ranking (points, then Coins, then shared).

A Haul is read as `tc` (count per name index) and a Coin count; `cs` is the game's CardSet.
Ranks (rules file §2.11, §3.5): every fixed rank counts; modifiers are optional, attach only to a
fixed-rank Treasure (unattached ones count for nothing), may stack, and are chosen per Title.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product


def _fixed(tc, cs) -> list[int]:
    """The fixed ranks of a Haul, one per Treasure."""
    out = []
    for i, k in enumerate(tc):
        if k and cs.fixed[i]:
            out += [cs.rank[i]] * k
    return out


def _mods(tc, cs) -> list[int]:
    out = []
    for i, k in enumerate(tc):
        if k and cs.is_mod[i]:
            out += [cs.rank[i]] * k
    return out


def total_rank_high(tc, cs) -> int:
    """Archmage: all fixed ranks plus every positive modifier (attached to any fixed Treasure)."""
    fixed = _fixed(tc, cs)
    return sum(fixed) + sum(m for m in _mods(tc, cs) if m > 0) if fixed else 0


def total_rank_low(tc, cs) -> int:
    """Saint: all fixed ranks plus every negative modifier (attached to any fixed Treasure)."""
    fixed = _fixed(tc, cs)
    return sum(fixed) + sum(m for m in _mods(tc, cs) if m < 0) if fixed else 0


def max_rank(tc, cs) -> int | None:
    """Enchanter: the highest effective rank of one Treasure (all positives on the top card)."""
    fixed = _fixed(tc, cs)
    return max(fixed) + sum(m for m in _mods(tc, cs) if m > 0) if fixed else None


def longest_run(tc, cs) -> int:
    """Warlord: the most distinct Treasures whose effective ranks are consecutive integers, each
    modifier attached to at most one fixed-rank Treasure (exact)."""
    fixed = _fixed(tc, cs)
    if not fixed:
        return 0
    bases = tuple(sorted(set(fixed)))
    mods = _mods(tc, cs)
    if not mods:
        return _plain_run(bases)
    values = tuple(sorted(set(mods)))
    return _run_search(tuple((b, fixed.count(b)) for b in bases), values, tuple(mods.count(v) for v in values))


def _plain_run(values) -> int:
    best = run = 0
    prev = None
    for v in values:
        run = run + 1 if prev is not None and v == prev + 1 else 1
        best, prev = max(best, run), v
    return best


@lru_cache(maxsize=4096)
def _subsets(values: tuple, counts: tuple) -> dict[int, list[tuple]]:
    """Every sub-multiset of the modifiers (as used counts) by its sum."""
    out: dict[int, list[tuple]] = {}
    for used in product(*(range(c + 1) for c in counts)):
        out.setdefault(sum(u * v for u, v in zip(used, values)), []).append(used)
    return out


@lru_cache(maxsize=4096)
def _run_search(base_counts: tuple, values: tuple, mod_counts: tuple) -> int:
    """The longest run, trying start values in turn. A run is feasible or not as a whole, and
    dropping its last value keeps it feasible, so from each start only runs longer than the best
    so far are tried. In a run, a value some Treasure has as its fixed rank is taken by such a
    Treasure with no modifier (any run can be rearranged so: modifiers only move to a Treasure
    that keeps them); the other values (gaps) need a spare Treasure and modifiers."""
    counts = dict(base_counts)
    sums = _subsets(values, mod_counts)
    low, high = min(counts) + min(sums), max(counts) + max(sums)
    total = sum(counts.values())
    best = _plain_run(sorted(counts))
    for start in range(low, high + 1):
        length = best + 1
        while start + length - 1 <= high and length <= total and _fillable(start, length, counts, values, mod_counts):
            best, length = length, length + 1
    return best


def _fillable(start: int, length: int, counts: dict, values: tuple, mod_counts: tuple) -> bool:
    """Can the run start, ..., start + length - 1 be made (see `_run_search`)?"""
    run = range(start, start + length)
    gaps = [x for x in run if x not in counts]
    if len(gaps) > sum(mod_counts):  # a gap needs at least one modifier
        return False
    spares = tuple((b, k - (b in run)) for b, k in counts.items() if k - (b in run) > 0)
    if sum(k for _, k in spares) < len(gaps):
        return False
    return _fill_gaps(tuple(gaps), spares, values, mod_counts)


@lru_cache(maxsize=1 << 14)
def _fill_gaps(gaps: tuple, spares: tuple, values: tuple, mod_counts: tuple) -> bool:
    """Each gap from a distinct spare Treasure (base, copies) plus disjoint modifier sets."""
    if not gaps:
        return True
    gap = gaps[0]
    for i, (base, k) in enumerate(spares):
        rest = spares[:i] + ((base, k - 1),) * (k > 1) + spares[i + 1:]
        for used in _subsets(values, mod_counts).get(gap - base, ()):
            left = tuple(m - u for m, u in zip(mod_counts, used))
            if _fill_gaps(gaps[1:], rest, values, left):
                return True
    return False


# ----- Titles --------------------------------------------------------------------------------------
def starting_value(criterion: str, tc, coins: int, cs) -> tuple[int, bool]:
    """(value, True if higher is better) of a Starting Title's criterion."""
    if criterion == "highest_total_rank":
        return total_rank_high(tc, cs), True
    if criterion == "lowest_total_rank":
        return total_rank_low(tc, cs), False
    if criterion == "longest_run":
        return longest_run(tc, cs), True
    if criterion == "balance":
        return abs(sum(tc) - coins), False
    if criterion == "most_coins":
        return coins, True
    raise ValueError(f"unknown Starting Title criterion {criterion!r}")


def starting_eligible(criterion: str, minimum: int, tc, coins: int, cs) -> bool:
    """The eligibility minimums of rules file §3.3."""
    if criterion == "highest_total_rank":
        return total_rank_high(tc, cs) >= minimum
    if criterion == "lowest_total_rank":
        return len(_fixed(tc, cs)) >= minimum
    if criterion == "longest_run":
        return longest_run(tc, cs) >= minimum
    if criterion == "balance":
        return sum(tc) >= minimum
    return coins >= minimum  # most_coins


def award_starting(title, tcs, coins, classes, cs) -> int:
    """The seat winning a Starting Title, or -1 (nobody eligible; or a tie the listed class does
    not win: it wins a tie only when its player is among the tied)."""
    scored = []
    for p, tc in enumerate(tcs):
        if starting_eligible(title.criterion, title.min, tc, coins[p], cs):
            value, high = starting_value(title.criterion, tc, coins[p], cs)
            scored.append((value if high else -value, p))
    if not scored:
        return -1
    best = max(v for v, _ in scored)
    tied = [p for v, p in scored if v == best]
    if len(tied) == 1:
        return tied[0]
    tie_class = cs.class_index[title.tie_class]
    winners = [p for p in tied if classes[p] == tie_class]
    return winners[0] if winners else -1


def hidden_met(criterion: dict, tc, coins: int, cs) -> bool:
    kind = criterion["type"]
    idx = cs.name_index
    if kind == "k_of":
        return sum(1 for n in criterion["names"] if tc[idx[n]]) >= criterion["k"]
    if kind == "all_of":
        return all(any(tc[idx[n]] for n in group) for group in criterion["groups"])
    if kind == "distinct_names":
        return sum(1 for k in tc if k) >= criterion["k"]
    if kind == "max_rank":
        top = max_rank(tc, cs)
        return top is not None and top >= criterion["min"]
    if kind == "coins_vs_treasures":
        return coins >= criterion["ratio"] * sum(tc) and coins >= criterion["min_coins"]
    if kind == "coins_at_most":
        return coins <= criterion["n"]
    if kind == "icons":
        return sum(k for i, k in enumerate(tc) if k and cs.phase[i] in criterion["phases"]) >= criterion["k"]
    raise ValueError(f"unknown hidden Title criterion {kind!r}")


def treasure_vp(tc, won_starting: int, cs) -> int:
    """VP of the Treasures whose condition holds, checked against the whole Haul (§2.12)."""
    total = 0
    for i, k in enumerate(tc):
        if not k or not cs.vp[i]:
            continue
        cond = cs.condition[i]
        if cond is not None:
            kind, arg = cond
            ok = any(tc[j] for j in arg) if kind == "has_any" else won_starting >= arg
            if not ok:
                continue
        total += k * cs.vp[i]
    return total


def score_game(tcs, coins, classes, titles, cs, starting_vp: int) -> list[dict]:
    """Each seat's breakdown: starting (Title names won), hidden (name, met), treasure VP, total."""
    n = len(tcs)
    won: list[list[str]] = [[] for _ in range(n)]
    for title in cs.starting:
        p = award_starting(title, tcs, coins, classes, cs)
        if p >= 0:
            won[p].append(title.name)
    out = []
    for p in range(n):
        hidden = cs.hidden[titles[p]]
        met = hidden_met(hidden.criterion, tcs[p], coins[p], cs)
        tvp = treasure_vp(tcs[p], len(won[p]), cs)
        total = starting_vp * len(won[p]) + (hidden.vp if met else 0) + tvp
        out.append({"starting": won[p], "hidden": hidden.name, "hidden_met": met, "treasure_vp": tvp,
                    "coins": coins[p], "total": total})
    return out
