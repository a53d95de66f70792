"""The learner's first layer on sparse observations (`card_envs.train.sparse_linear`): the same
products and gradients as ``F.linear``, from the non-zero entries alone."""

from __future__ import annotations

import pytest
import torch
from torch.nn import functional as F

from card_envs.train.sparse_linear import SPARSE_BELOW, first_layer_for, sparse_linear, transposed, worth_it


def sparse_rows(rows: int, columns: int, share: float, seed: int) -> torch.Tensor:
    generator = torch.Generator().manual_seed(seed)
    x = torch.randn(rows, columns, generator=generator)
    return x * (torch.rand(rows, columns, generator=generator) < share)


@pytest.mark.parametrize("rows, columns, share", [(64, 300, 0.05), (7, 40, 0.5), (5, 30, 0.0), (1, 1, 1.0)])
def test_sparse_linear_gives_linears_products_and_gradients(rows, columns, share):
    x = sparse_rows(rows, columns, share, seed=rows)
    x[0] = 0.0  # an all-zero row: the bias alone
    layer = torch.nn.Linear(columns, 16)
    grad_out = torch.randn(rows, 16)
    grads = []
    for linear in (F.linear, sparse_linear):
        layer.zero_grad()
        out = linear(x, layer.weight, layer.bias)
        out.backward(grad_out)
        grads.append((out.detach(), layer.weight.grad.clone(), layer.bias.grad.clone()))
    for dense, sparse in zip(*grads):
        torch.testing.assert_close(sparse, dense, rtol=1e-5, atol=1e-5)
    unused = (x == 0).all(0)  # a column that is zero in every row gets exactly no gradient
    assert (grads[1][1][:, unused] == 0).all()


def test_sparse_linear_refuses_an_input_that_needs_a_gradient():
    layer = torch.nn.Linear(4, 2)
    with pytest.raises(ValueError, match="x must not need a gradient"):
        sparse_linear(torch.ones(3, 4, requires_grad=True), layer.weight, layer.bias)


def test_worth_it_below_the_share_of_non_zero_entries_in_float32_only():
    assert worth_it(sparse_rows(100, 500, SPARSE_BELOW / 4, seed=0))
    assert not worth_it(sparse_rows(100, 500, SPARSE_BELOW * 4, seed=0))
    assert not worth_it(sparse_rows(100, 500, SPARSE_BELOW / 4, seed=0).to(torch.bfloat16))
    assert not worth_it(torch.zeros(0, 5))


def test_the_product_follows_the_weight_through_fused_adam_steps():
    """The learner's optimizer (Adam, fused) changes the weight in place without bumping its
    version: each call must read the weight as it is now (a copy kept by version went stale, and
    PPO diverged on it)."""
    x = sparse_rows(6, 20, 0.3, seed=4)
    layer = torch.nn.Linear(20, 5)
    optimizer = torch.optim.Adam(layer.parameters(), lr=0.1, fused=True)
    for _ in range(3):
        sparse_linear(x, layer.weight, layer.bias).square().sum().backward()
        optimizer.step()
        optimizer.zero_grad()
        with torch.no_grad():
            torch.testing.assert_close(sparse_linear(x, layer.weight, layer.bias),
                                       F.linear(x, layer.weight, layer.bias))


def test_a_weight_transposed_once_serves_the_calls_while_it_is_unchanged():
    """An actor transposes its first layer's weight once a rollout (`transposed`) and passes it;
    where the sparse product is not worth it, `first_layer_for` gives None (the dense product)."""
    x = sparse_rows(6, 20, 0.02, seed=6)
    layer = torch.nn.Linear(20, 5)
    with torch.no_grad():
        first_layer = first_layer_for(x, transposed(layer.weight))
        torch.testing.assert_close(first_layer(x, layer.weight, layer.bias), F.linear(x, layer.weight, layer.bias))
    assert first_layer_for(sparse_rows(6, 20, SPARSE_BELOW * 4, seed=6), transposed(layer.weight)) is None
