"""The network's first layer on a sparse observation: ``F.linear(x, weight, bias)``
that multiplies only the non-zero entries of ``x``.

Written by hand (numba) because an observation that covers every card of the game is mostly zeros
(Illimat's, with its three sets of pieces: about 150 non-zero entries of 5,808), a dense product
spends nearly all of its work on them, and torch's CPU sparse products were slower than the dense
one here (a 2,048-row minibatch of 5,808 inputs into 256 units, forward and backward on one
thread of a busy machine: dense 485 ms, ``torch.sparse.mm`` on CSR 673, ``embedding_bag`` with
per-entry weights 698; these kernels 80 ms where dense took 292 on a quiet one). The weight's
gradient is only where a column is non-zero somewhere, exact zeros elsewhere; the products agree
with the dense ones up to float rounding (the sums run in another order). The learner, its actors
and cloning's fit use it (`first_layer_for`, `worth_it`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
import torch
from card_envs.numba_cache import njit

# Below this share of non-zero entries the sparse product is clearly faster than the dense one
# (2,048 x 5,808 into 256 units: at 2.7% non-zero 80 ms against 292, at 8% 160 against 295, at 12%
# 189 against 250, at 20% slower: 343 against 280).
SPARSE_BELOW = 0.08


def worth_it(observations: torch.Tensor) -> bool:
    """Whether `sparse_linear` is faster than the dense product on ``observations`` (float32 [B, N])."""
    return observations.dtype == torch.float32 and observations.numel() > 0 and (
        int(torch.count_nonzero(observations)) < SPARSE_BELOW * observations.numel())


@njit(cache=True)
def _to_rows(x):
    """(row offsets [B + 1], columns, values) of the non-zero entries of x [B, N], row by row."""
    starts = np.zeros(x.shape[0] + 1, np.int64)
    for r in range(x.shape[0]):
        count = 0
        for c in range(x.shape[1]):
            count += x[r, c] != 0
        starts[r + 1] = starts[r] + count
    columns = np.empty(starts[-1], np.int64)
    values = np.empty(starts[-1], x.dtype)
    k = 0
    for r in range(x.shape[0]):
        for c in range(x.shape[1]):
            if x[r, c] != 0:
                columns[k], values[k] = c, x[r, c]
                k += 1
    return starts, columns, values


@njit(cache=True)
def _forward(starts, columns, values, weight_t, bias, out):
    """out[r] = bias + sum over row r's entries of value * weight_t[column]."""
    for r in range(out.shape[0]):
        out[r, :] = bias
        for k in range(starts[r], starts[r + 1]):
            c, v = columns[k], values[k]
            for h in range(out.shape[1]):
                out[r, h] += v * weight_t[c, h]


@njit(cache=True)
def _weight_grad(starts, columns, values, grad_out, grad_t):
    """grad_t[column] += value * grad_out[r] for every entry (grad_t: the weight's gradient, transposed)."""
    for r in range(grad_out.shape[0]):
        for k in range(starts[r], starts[r + 1]):
            c, v = columns[k], values[k]
            for h in range(grad_out.shape[1]):
                grad_t[c, h] += v * grad_out[r, h]


def transposed(weight: torch.Tensor) -> np.ndarray:
    """weight.T, contiguous: what the kernels read. A caller whose weight stays unchanged over many
    calls (an actor's over a rollout) makes it once and passes it (`first_layer_for`), skipping a
    1.5M-entry copy per call. Not kept by the weight's version: a fused Adam step changes the
    weight without bumping it."""
    return weight.detach().t().contiguous().numpy()


class _SparseLinear(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor,
                weight_t: np.ndarray | None) -> torch.Tensor:
        rows = _to_rows(x.detach().contiguous().numpy())
        out = np.empty((x.shape[0], weight.shape[0]), np.float32)
        _forward(*rows, transposed(weight) if weight_t is None else weight_t, bias.detach().numpy(), out)
        ctx.rows, ctx.in_features = rows, weight.shape[1]
        return torch.from_numpy(out)

    @staticmethod
    def backward(ctx, grad_out: torch.Tensor):
        grad_out = grad_out.contiguous()
        grad_t = np.zeros((ctx.in_features, grad_out.shape[1]), np.float32)
        _weight_grad(*ctx.rows, grad_out.numpy(), grad_t)
        return None, torch.from_numpy(grad_t).t(), grad_out.sum(0), None


def sparse_linear(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor,
                  weight_t: np.ndarray | None = None) -> torch.Tensor:
    """``F.linear(x, weight, bias)`` for a float32 ``x`` [B, N] that needs no gradient (an
    observation), computed from its non-zero entries alone; differentiable in weight and bias.
    ``weight_t``: `transposed(weight)` made earlier, the weight unchanged since (else made now)."""
    if x.requires_grad:
        raise ValueError("sparse_linear: x must not need a gradient (it is an observation)")
    return _SparseLinear.apply(x, weight, bias, weight_t)


def first_layer_for(observations: torch.Tensor, weight_t: np.ndarray | None = None) -> Callable | None:
    """`sparse_linear` where it is faster than the dense product on ``observations``, else None:
    what `ActorCritic.heads` takes as ``first_layer``; with ``weight_t``, the first layer's weight
    transposed while it does not change (`transposed`)."""
    if not worth_it(observations):
        return None
    return sparse_linear if weight_t is None else functools.partial(sparse_linear, weight_t=weight_t)
