"""Batched Dominion's fused step (numba kernels): the actions applied, then the mask and the
acting seats' observations, a block of games at a time, so that a block's rows are still in the
cache when the mask and the observation read them (at B=4,096 the state and the observation,
30-48 MB, are far larger than the cache: the three passes one after another over all games were
a third slower). `S` as in `dominion_zones`; the other arrays as `dominion_kernels.mask` and
`encode` take them.
"""

from __future__ import annotations

from numba import njit

from card_envs.batch.dominion import kernels as K
from card_envs.batch.dominion.play import apply_one
from card_envs.batch.numba_borrow import borrowed

BLOCK = 256  # games per block: their rows and observations fit in a core's cache


@njit(cache=True)
def step(S, actions, max_turns, off, mask, obs):
    """Every game plays actions[b], then its mask into mask[b] and its acting seat's observation
    into obs[b]."""
    S = borrowed(S)
    actions, off, mask, obs = borrowed((actions, off, mask, obs))
    B = actions.shape[0]
    for lo in range(0, B, BLOCK):
        hi = min(B, lo + BLOCK)
        for b in range(lo, hi):
            apply_one(S, b, actions[b])
        observe_rows(S, max_turns, off, lo, hi, True, actions, mask, obs)


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
        obs[b, :] = 0.0
        K.encode_row(g, ps, counts, zones, dur, piles, plen, supply, trash, tasks, n, max_turns, off, b, g[b, K.G_CUR],
                     False, obs[b])
