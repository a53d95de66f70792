"""Batched Illimat's fused step (numba kernels): the actions applied, then the mask and the acting
seats' observations, a block of games at a time, so that a block's rows are still in the cache
when the mask and the observation read them (at B=4,096 the observations are 23-26 MB, far
larger than a core's cache), as Dominion's `step` does; the next block's state rows are asked from
memory while a block plays (`numba_prefetch`). The observation pieces, when asked, are written
afterwards (`IllimatBatch._observe_pieces`).
"""

from __future__ import annotations

from card_envs.numba_cache import njit

from card_envs.batch.illimat.kernels import observe_row
from card_envs.batch.illimat.play import apply_one, legal_row
from card_envs.batch.numba_borrow import borrowed, by_reference
from card_envs.batch.numba_checks import all_legal
from card_envs.batch.numba_prefetch import prefetch_rows

BLOCK = 16  # games per block: their state rows and observations fit in a core's cache


@njit(cache=True)
def step(s, t, memo, actions, legal, mask, obs):
    """Every game plays actions[b], then its mask into mask[b] and its acting seat's observation
    into obs[b] (a finished game's: an all-zero mask; `refresh` redoes both once it is dealt).
    False, with nothing applied, unless every action is one the last mask `legal` allows (the
    kernels do not check their arrays' bounds: an illegal action would write into other games)."""
    if not all_legal(actions, legal):
        return False
    s, t, memo = by_reference(s), by_reference(t), by_reference(memo)
    mask, obs = borrowed((mask, obs))  # each row's view of them is then not reference-counted
    B = actions.shape[0]
    for lo in range(0, B, BLOCK):
        hi = min(B, lo + BLOCK)
        prefetch_rows(s, hi, min(B, hi + BLOCK))  # the next block's state, while this one plays
        for b in range(lo, hi):
            apply_one(s, t, b, actions[b])
        for b in range(lo, hi):
            legal_row(s, t, b, memo, mask[b])
        for b in range(lo, hi):
            observe_row(s, t, b, s.cur[b], obs[b])
    return True


@njit(cache=True)
def refresh(s, t, memo, rows, mask, obs):
    """The mask and acting seat's observation of the games in `rows` again (dealt since)."""
    s, t, memo = by_reference(s), by_reference(t), by_reference(memo)
    mask, obs = borrowed((mask, obs))
    for b in rows:
        legal_row(s, t, b, memo, mask[b])
        observe_row(s, t, b, s.cur[b], obs[b])
