"""The CPU path of the batched engines, shared machinery (each game's kernels live in its package,
`card_envs.batch.<game>.kernels`): the hot three (`_apply`, `_mask`, `_observe`) as numba
kernels over the same state tensors, one compiled loop over the games on one core; for 3 Piles
also the forced decisions (`_play_forced`: each game plays its own to the end in one call,
instead of a whole-batch pass per forced decision), the deal and the returns.

One core, not ``prange``: numba's OpenMP pool and torch's are two runtimes whose idle threads
spin against each other, which made a step several times slower beside torch (a trainer's
actor, or any load on a small machine); one engine per process scales instead. A serial loop
also keeps per-game scratch out of the loop.

On a CPU a step of the torch engine is some fifty whole-batch tensor operations, each a pass
over memory; these kernels visit each game once. Loads, `state(i)` and the deals'
shuffles stay the torch code: the state tensors are shared (the kernels see them as numpy
views), so both paths play the same games, and the differential tests run both. Requires numba
(the ``batch`` or ``train`` extra).
"""

from __future__ import annotations

import numpy as np
import torch
from card_envs.numba_cache import njit



def state_views(engine, names: str) -> tuple[np.ndarray, ...]:
    """Numpy views of the engine's state tensors (no copies: the kernels write the state). The
    numba engines update their tensors in place only, so the views are taken once."""
    return tuple(getattr(engine, name).numpy() for name in names.split())


@njit(cache=True)
def single_legal(mask, forced, action):
    """forced[b]: row b has exactly one legal action; action[b]: its first legal action (0 if none)."""
    for b in range(mask.shape[0]):
        row, first, count = mask[b], 0, 0
        for a in range(row.shape[0]):
            if row[a]:
                if count == 0:
                    first = a
                count += 1
                if count == 2:
                    break
        forced[b], action[b] = count == 1, first


def forced_decisions(engine, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """`BatchGame._forced` in one pass over the mask."""
    forced = np.empty(engine.batch_size, dtype=np.bool_)
    action = np.empty(engine.batch_size, dtype=np.int64)
    single_legal(mask.numpy(), forced, action)
    return torch.from_numpy(forced), torch.from_numpy(action)


def piece_offsets(layout) -> np.ndarray:
    return np.array([sl.start for sl in layout.slices.values()], dtype=np.int64)
