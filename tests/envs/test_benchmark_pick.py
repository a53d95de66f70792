"""`benchmarks/throughput.py`'s random legal actions for the batched engines: every pick is legal,
and every legal action is picked (the compiled pick draws as the raw loop does)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
import torch

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "throughput.py"


def _script():
    spec = importlib.util.spec_from_file_location("throughput", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("kind", ["numba", "torch"])
def test_every_pick_is_legal_and_every_legal_action_is_picked(kind):
    pytest.importorskip("numba")
    throughput = _script()
    rng = np.random.default_rng(0)
    mask = torch.from_numpy(rng.random((64, 40)) < 0.2)
    mask[:, 7] = True  # no row without a legal action; row 0 has one alone
    mask[0] = False
    mask[0, 7] = True
    pick = throughput.numba_pick(64) if kind == "numba" else throughput.torch_pick(64, 40, "cpu")
    seen = torch.zeros_like(mask)
    for i in range(400):
        actions = pick(mask, i).clone()
        assert mask[torch.arange(64), actions].all()
        seen[torch.arange(64), actions] = True
    assert torch.equal(seen, mask)
