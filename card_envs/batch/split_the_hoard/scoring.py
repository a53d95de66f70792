"""Numba kernel of batched Split the Hoard's end-of-game scoring and returns: the reference's
`scoring.score_game` (Starting Titles, hidden Titles, Treasure VP) and `SplitTheHoardState.returns`
(ranked by VP, then Coins; or score returns), for one finished game b of the state `s`
(`kernels.Hoard`) with the scoring tables `ScoreTables`.

Warlord's longest run with modifiers is the reference's exact search (`scoring._run_search`):
the same candidate runs, each tested by assigning every gap a spare Treasure and a disjoint set
of modifiers, depth first. Feasibility does not depend on the order of the search, so the value
is the reference's.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from card_envs.numba_cache import njit

from card_envs.batch.numba_borrow import borrowed
from card_envs.games.split_the_hoard.cards import STARTING_CRITERIA

HIDDEN_KINDS = ("k_of", "all_of", "distinct_names", "max_rank", "coins_vs_treasures", "coins_at_most", "icons")
H_K_OF, H_ALL_OF, H_DISTINCT, H_MAX_RANK, H_COINS_VS, H_COINS_AT_MOST, H_ICONS = range(len(HIDDEN_KINDS))
HIDDEN_INT = {"k_of": "k", "distinct_names": "k", "max_rank": "min", "coins_vs_treasures": "min_coins",
              "coins_at_most": "n", "icons": "k"}  # each kind's integer argument
C_HIGH, C_LOW, C_RUN, C_BALANCE, C_COINS = range(len(STARTING_CRITERIA))
assert STARTING_CRITERIA == ("highest_total_rank", "lowest_total_rank", "longest_run", "balance", "most_coins")
NO_CONDITION, HAS_ANY, WON_STARTING = -1, 0, 1

ScoreTables = namedtuple("ScoreTables", (
    "n fixed is_mod rank vp cond_kind cond_arg cond_names scrit smin stie hkind hint hratio hnames hgroups "
    "hngroups hvp starting_vp score_reward max_score").split())


def score_tables(game) -> ScoreTables:
    """The scoring rules of `game` (a SplitTheHoardGame) as the kernel reads them: per name
    (`fixed`, `is_mod`, `rank`, `vp` and the Treasure VP condition), per Starting Title (its
    criterion, minimum and tie class) and per hidden Title (its criterion kind, its integer and
    ratio arguments, the names it counts or the name groups it needs, its VP)."""
    cs = game.cards
    nn, T = cs.num_names, len(cs.hidden)
    cond_kind, cond_arg = np.full(nn, NO_CONDITION, np.int8), np.zeros(nn, np.int64)
    cond_names = np.zeros((nn, nn), np.bool_)
    for i, cond in enumerate(cs.condition):
        if cond is not None and cond[0] == "has_any":
            cond_kind[i], cond_names[i, list(cond[1])] = HAS_ANY, True
        elif cond is not None:
            cond_kind[i], cond_arg[i] = WON_STARTING, cond[1]
    groups = max((len(t.criterion.get("groups", ())) for t in cs.hidden), default=0)
    hkind, hint, hratio = np.zeros(T, np.int8), np.zeros(T, np.int64), np.zeros(T, np.float64)
    hnames, hgroups = np.zeros((T, nn), np.int64), np.zeros((T, max(groups, 1), nn), np.bool_)
    hngroups = np.zeros(T, np.int64)
    for j, title in enumerate(cs.hidden):
        c, kind = title.criterion, title.criterion["type"]
        hkind[j] = HIDDEN_KINDS.index(kind)
        hint[j] = c[HIDDEN_INT[kind]] if kind in HIDDEN_INT else 0
        if kind == "k_of":
            for name in c["names"]:  # a name listed twice counts twice, as the reference's sum does
                hnames[j, cs.name_index[name]] += 1
        elif kind == "icons":
            hnames[j] = [phase in c["phases"] for phase in cs.phase]
        elif kind == "coins_vs_treasures":
            hratio[j] = c["ratio"]
        elif kind == "all_of":
            hngroups[j] = len(c["groups"])
            for g, group in enumerate(c["groups"]):
                hgroups[j, g, [cs.name_index[name] for name in group]] = True
    return ScoreTables(
        n=game.num_players, fixed=np.array(cs.fixed, np.bool_), is_mod=np.array(cs.is_mod, np.bool_),
        rank=np.array(cs.rank, np.int64), vp=np.array(cs.vp, np.int64), cond_kind=cond_kind, cond_arg=cond_arg,
        cond_names=cond_names, scrit=np.array([STARTING_CRITERIA.index(t.criterion) for t in cs.starting], np.int8),
        smin=np.array([t.min for t in cs.starting], np.int64),
        stie=np.array([cs.class_index[t.tie_class] for t in cs.starting], np.int64),
        hkind=hkind, hint=hint, hratio=hratio, hnames=hnames, hgroups=hgroups, hngroups=hngroups,
        hvp=np.array([t.vp for t in cs.hidden], np.int64), starting_vp=game.starting_title_vp,
        score_reward=game.reward == "score", max_score=float(game.max_score))


# ----- Warlord's longest run (scoring.longest_run) ----------------------------------------------
@njit(cache=True, inline="always")
def _next_choice(used, left, choice, g) -> None:
    """The next sub-multiset of the modifiers left for gap g (an odometer over `used[g]`, each
    value at most `left[v]` copies); after the last one, the empty set on the next spare."""
    v = 0
    while v < used.shape[1] and used[g, v] == left[v]:
        used[g, v] = 0
        v += 1
    if v == used.shape[1]:
        choice[g] += 1
    else:
        used[g, v] += 1


@njit(cache=True)
def _fill_gaps(gaps, bases, spare, values, left) -> bool:
    """scoring._fill_gaps: each gap from a distinct spare Treasure (`spare[i]` copies of rank
    bases[i]) plus disjoint modifier sets (`left[v]` copies of values[v]). A depth-first search
    with an explicit stack (gap g tries spare choice[g] with the modifiers used[g]): numba cannot
    load a recursive function from its cache."""
    ng, m = gaps.shape[0], values.shape[0]
    if ng == 0:
        return True
    choice, used = np.zeros(ng, np.int64), np.zeros((ng, m), np.int64)
    g = 0
    while g >= 0:
        found = False
        while choice[g] < bases.shape[0]:
            i = choice[g]
            if spare[i] > 0:
                total = 0
                for v in range(m):
                    total += used[g, v] * values[v]
                if total == gaps[g] - bases[i]:
                    found = True
                    break
                _next_choice(used, left, choice, g)
            else:
                choice[g] += 1
        if found:  # take it, then the next gap
            spare[choice[g]] -= 1
            for v in range(m):
                left[v] -= used[g, v]
            if g == ng - 1:
                return True
            g += 1
            choice[g] = 0
            used[g] = 0
        else:  # back to the previous gap: give its choice back, try its next one
            g -= 1
            if g >= 0:
                spare[choice[g]] += 1
                for v in range(m):
                    left[v] += used[g, v]
                _next_choice(used, left, choice, g)
    return False


@njit(cache=True)
def _fillable(start, length, bases, counts, values, mod_counts) -> bool:
    """scoring._fillable: can the run start, ..., start + length - 1 be made?"""
    gaps = np.empty(length, np.int64)
    ngaps = 0
    for x in range(start, start + length):
        if not (bases == x).any():
            gaps[ngaps] = x
            ngaps += 1
    if ngaps > mod_counts.sum():  # a gap needs at least one modifier
        return False
    spare = counts.copy()
    for i in range(bases.shape[0]):
        if start <= bases[i] < start + length:
            spare[i] -= 1
    if spare.sum() < ngaps:
        return False
    return _fill_gaps(gaps[:ngaps], bases, spare, values, mod_counts.copy())


@njit(cache=True)
def _distinct(tc, t, mods):
    """(the distinct ranks of the fixed-rank Treasures (`mods`: of the modifiers), ascending; the
    count of each) in the Haul `tc`."""
    nn = tc.shape[0]
    found = np.empty(nn, np.int64)
    counts = np.zeros(nn, np.int64)
    k = 0
    for i in range(nn):
        if tc[i] > 0 and (t.is_mod[i] if mods else t.fixed[i]):
            j = 0
            while j < k and found[j] != t.rank[i]:
                j += 1
            if j == k:
                found[k] = t.rank[i]
                k += 1
            counts[j] += tc[i]
    order = np.argsort(found[:k])
    return found[:k][order], counts[:k][order]


@njit(cache=True)
def longest_run(tc, t) -> int:
    """scoring.longest_run of the Haul `tc` (Treasures per name)."""
    bases, counts = _distinct(tc, t, False)
    if bases.shape[0] == 0:
        return 0
    best = run = 1
    for i in range(1, bases.shape[0]):
        run = run + 1 if bases[i] == bases[i - 1] + 1 else 1
        best = max(best, run)
    values, mod_counts = _distinct(tc, t, True)
    if values.shape[0] == 0:
        return best
    low, high = bases[0], bases[-1]  # plus the smallest and the largest sum of modifiers
    for v in range(values.shape[0]):
        if values[v] < 0:
            low += values[v] * mod_counts[v]
        else:
            high += values[v] * mod_counts[v]
    total = counts.sum()
    for start in range(low, high + 1):
        length = best + 1
        while start + length - 1 <= high and length <= total and _fillable(start, length, bases, counts, values,
                                                                               mod_counts):
            best, length = length, length + 1
    return best


# ----- the Titles and the returns (scoring.score_game, rules.returns) ---------------------------
@njit(cache=True)
def _starting_key(crit, tc, coins, t, run):
    """(eligible for the Starting Title's minimum aside, value with higher better) of a Haul, as
    scoring.starting_value (negated where lower is better) and the measure its minimum reads."""
    fixed, high, low = 0, 0, 0
    for i in range(tc.shape[0]):
        if tc[i] > 0 and t.fixed[i]:
            fixed += tc[i]
            high += tc[i] * t.rank[i]
    low = high
    for i in range(tc.shape[0]):
        if tc[i] > 0 and t.is_mod[i]:
            if t.rank[i] > 0:
                high += tc[i] * t.rank[i]
            else:
                low += tc[i] * t.rank[i]
    if fixed == 0:
        high = low = 0
    if crit == C_HIGH:
        return high, high
    if crit == C_LOW:
        return fixed, -low
    if crit == C_RUN:
        return run, run
    if crit == C_BALANCE:
        return tc.sum(), -abs(tc.sum() - coins)
    return coins, coins


@njit(cache=True)
def _hidden_met(j, tc, coins, t) -> bool:
    kind, arg = t.hkind[j], t.hint[j]
    if kind == H_K_OF or kind == H_ICONS:
        count = 0
        for i in range(tc.shape[0]):
            if tc[i] > 0:
                count += t.hnames[j, i] * (1 if kind == H_K_OF else tc[i])
        return count >= arg
    if kind == H_ALL_OF:
        for g in range(t.hngroups[j]):
            if not (t.hgroups[j, g] & (tc > 0)).any():
                return False
        return True
    if kind == H_DISTINCT:
        return (tc > 0).sum() >= arg
    if kind == H_MAX_RANK:
        top, has = 0, False
        for i in range(tc.shape[0]):
            if tc[i] > 0 and t.fixed[i]:
                top, has = max(top, t.rank[i]) if has else t.rank[i], True
        for i in range(tc.shape[0]):
            if tc[i] > 0 and t.is_mod[i] and t.rank[i] > 0:
                top += tc[i] * t.rank[i]
        return has and top >= arg
    if kind == H_COINS_VS:
        return coins >= t.hratio[j] * tc.sum() and coins >= arg
    return coins <= arg  # coins_at_most


@njit(cache=True)
def _treasure_vp(tc, won, t) -> int:
    total = 0
    for i in range(tc.shape[0]):
        if tc[i] == 0 or t.vp[i] == 0:
            continue
        if t.cond_kind[i] == HAS_ANY and not (t.cond_names[i] & (tc > 0)).any():
            continue
        if t.cond_kind[i] == WON_STARTING and won < t.cond_arg[i]:
            continue
        total += tc[i] * t.vp[i]
    return total


@njit(cache=True)
def game_returns(tcount, coins, classes, titles, t, out) -> None:
    """out[p] = the returns of seat p of a finished game: the Hauls `tcount[p]` (Treasures per
    name) and `coins[p]`, `classes[p]`, `titles[p]` (hidden Title)."""
    n = t.n
    tcs = tcount.astype(np.int64)
    run = np.zeros(n, np.int64)
    for p in range(n):
        run[p] = longest_run(tcs[p], t)
    won = np.zeros(n, np.int64)
    for j in range(t.scrit.shape[0]):  # scoring.award_starting
        best, count, winner, tie_winner = 0, 0, -1, -1
        for p in range(n):
            measure, value = _starting_key(t.scrit[j], tcs[p], coins[p], t, run[p])
            if measure < t.smin[j]:
                continue
            if count == 0 or value > best:
                best, count, winner, tie_winner = value, 0, p, -1
            if value == best:
                count += 1
                if tie_winner < 0 and classes[p] == t.stie[j]:
                    tie_winner = p
        if count == 1:
            won[winner] += 1
        elif count > 1 and tie_winner >= 0:
            won[tie_winner] += 1
    score = np.empty(n, np.float64)
    for p in range(n):
        h = titles[p]
        total = t.starting_vp * won[p] + (t.hvp[h] if _hidden_met(h, tcs[p], coins[p], t) else 0)
        total += _treasure_vp(tcs[p], won[p], t)
        score[p] = total if t.score_reward else total * 1000 + coins[p]
    if t.score_reward:  # core.rewards.score_returns
        others = (score.sum() - score) / (n - 1)
        for p in range(n):
            out[p] = (score[p] - others[p]) / t.max_score
    else:  # core.rewards.rank_returns
        for p in range(n):
            beaten = beating = 0
            for q in range(n):
                beaten += score[p] > score[q]
                beating += score[p] < score[q]
            out[p] = (beaten - beating) / (n - 1)


@njit(cache=True)
def returns(tcount, coins_len, classes, titles, t, rows, out) -> None:
    """out[j] = the returns of finished game rows[j]."""
    t = borrowed(t)
    for j in range(rows.shape[0]):
        b = rows[j]
        game_returns(tcount[b], coins_len[b], classes[b], titles[b], t, out[j])
