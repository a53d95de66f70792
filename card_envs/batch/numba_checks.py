"""`all_legal`, for the batched engines' fused steps: the actions checked inside the kernel that
applies them, instead of a numpy pass over the mask before it (the kernels do not check their
arrays' bounds: an illegal action would write into other games' rows)."""

from __future__ import annotations

from card_envs.numba_cache import njit


@njit(cache=True)
def all_legal(actions, legal):
    """Every game's action is one its mask `legal` allows."""
    for b in range(actions.shape[0]):
        a = actions[b]
        if a < 0 or a >= legal.shape[1] or not legal[b, a]:
            return False
    return True
