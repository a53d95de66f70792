"""Batched Dominion's fused step (numba kernels): the actions applied, then the mask and the
acting seats' observations, a block of games at a time, so that a block's rows are still in the
cache when the mask and the observation read them (at B=4,096 the state and the observation,
30-48 MB, are far larger than the cache: the three passes one after another over all games were
a third slower). `S` as in `dominion_zones`; the other arrays as `dominion_kernels.mask` and
`encode` take them.
"""

from __future__ import annotations

from card_envs.numba_cache import njit

from card_envs.batch.dominion import kernels as K
from card_envs.batch.dominion.play import apply_one
from card_envs.batch.numba_borrow import borrowed
from card_envs.batch.numba_checks import all_legal
from card_envs.batch.numba_copy import zero_row
from card_envs.batch.numba_prefetch import prefetch_rows

BLOCK = 16  # games per block: their state rows and observations fit in a core's cache


@njit(cache=True)
def step(S, actions, legal, max_turns, off, mask, obs):
    """Every game plays actions[b], then its mask into mask[b] and its acting seat's observation
    into obs[b]. False, with nothing applied, unless every action is one the last mask `legal`
    allows (the kernels do not check their arrays' bounds)."""
    if not all_legal(actions, legal):
        return False
    S = borrowed(S)
    actions, off, mask, obs = borrowed((actions, off, mask, obs))
    rows = (S[0], S[1], S[2], S[3], S[4], S[5], S[6], S[7], S[8], S[9])  # the arrays with a row per game
    B = actions.shape[0]
    for lo in range(0, B, BLOCK):
        hi = min(B, lo + BLOCK)
        prefetch_rows(rows, hi, min(B, hi + BLOCK))  # the next block's state, while this one plays
        for b in range(lo, hi):
            apply_one(S, b, actions[b])
        observe_rows(S, max_turns, off, lo, hi, True, actions, mask, obs)
    return True


@njit(cache=True)
def refresh(S, max_turns, off, rows, mask, obs):
    """The mask and acting seat's observation of the games in `rows` again (dealt since)."""
    S = borrowed(S)
    off, rows, mask, obs = borrowed((off, rows, mask, obs))
    observe_rows(S, max_turns, off, 0, rows.shape[0], False, rows, mask, obs)


@njit(cache=True, inline="always")
def observe_rows(S, max_turns, off, lo, hi, direct, rows, mask, obs):
    """Games lo..hi-1 (direct) or rows[lo..hi-1]; their rows are written whole."""
    g, ps, counts, zones, dur, piles, plen, supply, trash, tasks = S[0], S[1], S[2], S[3], S[4], S[5], S[6], S[7], \
        S[8], S[9]
    n = ps.shape[1]
    for i in range(lo, hi):
        b = i if direct else rows[i]
        mask[b, :] = False
        K.answers(g, ps, counts, zones, dur, piles, plen, supply, trash, tasks, n, b, mask[b])
    for i in range(lo, hi):
        b = i if direct else rows[i]
        zero_row(obs[b])
        K.encode_row(g, ps, counts, zones, dur, piles, plen, supply, trash, tasks, n, max_turns, off, b, g[b, K.G_CUR],
                     False, obs[b])
