"""``--compile``: the learner's PPO loss through torch.compile computes what the uncompiled loss
does, and a machine where compiling fails trains uncompiled after one warning."""

from __future__ import annotations

import copy

import pytest
import torch

from tests.train.test_train import tiny_args
from card_envs.train import loss as loss_module
from card_envs.train.loss import compiled
from card_envs.train.ppo import Trainer


def _trainer(tmp_path, **overrides) -> Trainer:
    return Trainer(tiny_args(tmp_path, num_games=32, hidden=(32, 32), update_epochs=2, num_minibatches=2, **overrides))


def _rollouts(trainer: Trainer, count: int):
    trainer.start_actor()
    try:
        return [copy.deepcopy(trainer.actor.next_rollout()[0]) for _ in range(count)]
    finally:
        trainer.stop_actor()


@pytest.mark.parametrize("overrides", [{}, {"teacher": "heuristic", "teacher_coef": 0.5}])
def test_a_compiled_update_trains_the_weights_the_uncompiled_one_does(tmp_path, overrides):
    """Same seed, same rollouts (of varying sizes: the minibatch dimension is dynamic): the losses
    and the weights after three updates agree to float32 rounding, with and without the
    teacher's cross-entropy term."""
    eager = _trainer(tmp_path, **overrides)
    fast = _trainer(tmp_path, compile=True, **overrides)
    rollouts = _rollouts(eager, 3)
    assert len({int(r.learner.sum()) for r in rollouts}) > 1  # the minibatches differ in size
    for rollout in rollouts:
        expected, got = eager.learn(rollout), fast.learn(rollout)
        assert expected.keys() == got.keys()
        for name in expected:
            assert got[name] == pytest.approx(expected[name], rel=1e-3, abs=1e-5), name
    for (name, a), b in zip(eager.network.state_dict().items(), fast.network.state_dict().values()):
        assert torch.allclose(a, b, atol=1e-5), name


def test_where_compiling_fails_the_loss_runs_uncompiled_after_one_warning(monkeypatch):
    calls = []

    def failing_compile(function, **kwargs):
        def call(*args, **kw):
            calls.append("compiled")
            raise torch._dynamo.exc.BackendCompilerFailed(
                function, RuntimeError("InvalidCxxCompiler: No working C++ compiler found"), None)
        return call

    monkeypatch.setattr(loss_module.torch, "compile", failing_compile)
    double = compiled(lambda x: 2 * x)
    with pytest.warns(RuntimeWarning, match="--compile: torch.compile failed .RuntimeError: InvalidCxxCompiler.*"
                                            "uncompiled"):
        assert double(torch.tensor(3.0)) == 6.0
    assert double(torch.tensor(4.0)) == 8.0  # no second try, no second warning
    assert calls == ["compiled"]


def test_an_error_of_the_loss_itself_is_raised_as_it_is_and_not_taken_for_a_compiler_failure(recwarn):
    double = compiled(lambda x: x @ x)
    with pytest.raises(Exception, match="size|shape") as raised:
        double(torch.zeros(2, 3))
    assert not isinstance(raised.value, torch._dynamo.exc.BackendCompilerFailed)
    assert not [w for w in recwarn if "--compile" in str(w.message)]
