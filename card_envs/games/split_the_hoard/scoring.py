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
    modifier attached to at most one fixed-rank Treasure (exact: a memoised search)."""
    fixed = _fixed(tc, cs)
    if not fixed:
        return 0
    bases = tuple(sorted(set(fixed)))
    base_counts = tuple(fixed.count(b) for b in bases)
    mods = _mods(tc, cs)
    if not mods:
        return _plain_run(bases)
    values = tuple(sorted(set(mods)))
    return _run_search(bases, base_counts, values, tuple(mods.count(v) for v in values))


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
def _run_search(bases, base_counts, values, mod_counts) -> int:
    memo: dict = {}

    def extend(v: int, bc: tuple, mc: tuple) -> int:
        """The most consecutive values v, v+1, ... that the remaining Treasures can make."""
        key = (v, bc, mc)
        if key in memo:
            return memo[key]
        best, left = 0, sum(bc)
        for i, b in enumerate(bases):
            if not bc[i]:
                continue
            for used in _subsets(values, mc).get(v - b, ()):
                nbc = bc[:i] + (bc[i] - 1,) + bc[i + 1:]
                nmc = tuple(m - u for m, u in zip(mc, used))
                best = max(best, 1 + extend(v + 1, nbc, nmc))
                if best == left:
                    memo[key] = best
                    return best
        memo[key] = best
        return best

    sums = _subsets(values, mod_counts)
    starts = sorted({b + s for b in bases for s in sums})
    best = 0
    for v in starts:
        best = max(best, extend(v, base_counts, mod_counts))
    return best


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
