"""The learner's first layer on sparse observations (`card_envs.train.sparse_linear`): the same
products and gradients as ``F.linear``, from the non-zero entries alone."""

from __future__ import annotations

import pytest
import torch
from torch.nn import functional as F

from card_envs.train.sparse_linear import SPARSE_BELOW, sparse_linear, worth_it


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


def test_a_changed_weight_is_read_again():
    """The weight's transposed copy is kept between calls while the weight is unchanged: an
    in-place change (an optimizer step, load_state_dict) must be seen by the next call."""
    x = sparse_rows(6, 20, 0.3, seed=4)
    layer = torch.nn.Linear(20, 5)
    with torch.no_grad():
        before = sparse_linear(x, layer.weight, layer.bias)
        layer.weight.mul_(2.0)
        torch.testing.assert_close(sparse_linear(x, layer.weight, layer.bias), F.linear(x, layer.weight, layer.bias))
        layer.load_state_dict({"weight": torch.zeros(5, 20), "bias": layer.bias})
        torch.testing.assert_close(sparse_linear(x, layer.weight, layer.bias), layer.bias.expand(6, 5))
    assert not torch.equal(before, layer.bias.expand(6, 5))


def test_a_weight_gone_takes_its_copy_with_it():
    from card_envs.train import sparse_linear as module

    layer = torch.nn.Linear(8, 3)
    sparse_linear(sparse_rows(2, 8, 0.5, seed=5), layer.weight, layer.bias)
    key = id(layer.weight)
    assert key in module._TRANSPOSED
    del layer
    assert key not in module._TRANSPOSED
