"""Every batched engine refuses what the reference refuses, with the reference's kind of error and
nothing applied: non-integer or misshapen actions, a non-flag ``auto_forced``, a non-integer batch
size, an unknown argument."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import card_envs
from card_envs import batch
from card_envs.core.game import ArgumentError, IllegalActionError

pytestmark = pytest.mark.skipif(not batch.has_numba(), reason="the numba-only engines need numba")
B = 4


@pytest.fixture(params=batch.ENGINES)
def engine(request):
    return batch.make(request.param, batch_size=B, seed=3)


def _legal(step) -> torch.Tensor:
    return step.mask.to(torch.uint8).argmax(1)


@pytest.mark.parametrize("bad, words", [
    (lambda a: a.double() + 0.4, "must be integers"),
    (lambda a: a.float(), "must be integers"),
    (lambda a: a[:, None], f"shape ({B},)"),
    (lambda a: a[:2], f"shape ({B},)"),
    (lambda a: a.bool(), "must be integers"),
    (lambda a: [str(int(x)) for x in a], "must be integers"),
])
def test_bad_actions_are_refused_before_anything_is_applied(engine, bad, words):
    step = engine.observe()
    before = [engine.state(i).to_json() for i in range(B)]
    with pytest.raises(IllegalActionError, match=words.replace("(", r"\(").replace(")", r"\)")):
        engine.step(bad(_legal(step)))
    assert [engine.state(i).to_json() for i in range(B)] == before
    engine.step(_legal(step).numpy().astype(np.int32))  # integer types of any width still play


@pytest.mark.parametrize("env_id", batch.ENGINES)
def test_arguments_are_refused_as_the_reference_refuses_them(env_id):
    with pytest.raises(ArgumentError, match="auto_forced='no'"):
        batch.make(env_id, batch_size=B, auto_forced="no")
    with pytest.raises(ArgumentError, match="auto_forced='no'"):
        card_envs.make(env_id, auto_forced="no")
    with pytest.raises(ArgumentError, match="batch_size must be an integer"):
        batch.make(env_id, batch_size=2.5)
    with pytest.raises(ArgumentError, match="no_such_argument"):
        batch.make(env_id, batch_size=B, no_such_argument=1)

