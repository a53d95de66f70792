"""Batched Split the Hoard's fused step (numba kernels): the actions checked and applied, then the
mask and the acting seats' observations, a block of games at a time, so that a block's rows are
still in the cache when the mask and the observation read them, while the next block's state rows
are asked from memory (`numba_prefetch`), as Dominion's and Illimat's steps do. The state goes to
the rules' helpers by reference (`numba_borrow.by_reference`): copied field by field, its ~50
arrays cost each call of a helper more than most helpers' work (the step 1.23x faster).
"""

from __future__ import annotations

from card_envs.numba_cache import njit

from card_envs.batch.numba_borrow import borrowed, by_reference
from card_envs.batch.numba_checks import all_legal
from card_envs.batch.numba_prefetch import prefetch_rows
from card_envs.batch.split_the_hoard.kernels import encode_scratch, mask_row, write_row
from card_envs.batch.split_the_hoard.play import apply_row

BLOCK = 16  # games per block: their state rows and observations fit in a core's cache


@njit(cache=True)
def step(s, t, o, actions, legal, mask, obs):
    """Every game plays actions[b], then its mask into mask[b] and its acting seat's observation
    into obs[b] (a finished game's: an all-zero mask; `refresh` redoes both once it is dealt).
    False, with nothing applied, unless every action is one the last mask `legal` allows."""
    if not all_legal(actions, legal):
        return False
    acc, touched = encode_scratch(t, obs.shape[1])
    s, t = by_reference(s), borrowed(t)  # s: ~50 arrays, passed to each helper as one pointer
    actions, mask, obs = borrowed((actions, mask, obs))
    B = actions.shape[0]
    for lo in range(0, B, BLOCK):
        hi = min(B, lo + BLOCK)
        prefetch_rows(s, hi, min(B, hi + BLOCK))  # the next block's state, while this one plays
        for b in range(lo, hi):
            apply_row(s, t, b, actions[b])
        for b in range(lo, hi):
            mask_row(s, t, b, mask[b])
        for b in range(lo, hi):
            write_row(s, t, o, b, s.cur[b], False, acc, touched, obs[b])
    return True


@njit(cache=True)
def refresh(s, t, o, rows, mask, obs):
    """The mask and acting seat's observation of the games in `rows` again (dealt since)."""
    acc, touched = encode_scratch(t, obs.shape[1])
    s, t = by_reference(s), borrowed(t)
    mask, obs = borrowed((mask, obs))
    for b in rows:
        mask_row(s, t, b, mask[b])
        write_row(s, t, o, b, s.cur[b], False, acc, touched, obs[b])
