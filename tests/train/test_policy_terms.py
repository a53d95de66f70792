"""The learner's fused policy terms (`card_envs.train.policy_terms`): the same log-probabilities, entropy
and gradients as autograd through the masked log-softmax they replace, and a first minibatch
whose importance ratios are exactly 1."""

from __future__ import annotations

import pytest
import torch

from card_envs.agents.neural import MASKED_LOGIT
from card_envs.train.acting import Rollout
from card_envs.train.configs import DEFAULTS
from card_envs.train.policy_terms import mask_offsets, policy_terms
from card_envs.train.ppo import Args, Trainer


def _case(dtype: torch.dtype, k: int, seed: int = 0):
    generator = torch.Generator().manual_seed(seed)
    logits = (3 * torch.randn(64, 37, generator=generator)).to(dtype)
    masks = torch.rand(64, 37, generator=generator) < 0.3
    masks[:, 5] = True  # every row has a legal action
    chosen = torch.stack([torch.multinomial(m.float(), k, replacement=True, generator=generator) for m in masks])
    return logits, masks, chosen


def _by_autograd(logits, masks, chosen):
    z = logits.float().masked_fill(~masks, MASKED_LOGIT)
    log_p = z.log_softmax(-1)
    return log_p.gather(1, chosen), -(z.softmax(-1) * log_p).sum(-1)


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
@pytest.mark.parametrize("k", [1, 2])
def test_the_same_values_and_gradients_as_autograd(dtype, k):
    logits, masks, chosen = _case(dtype, k)
    weights = torch.randn(64, k), torch.randn(64)
    theirs = logits.clone().requires_grad_()
    picked, entropy = _by_autograd(theirs, masks, chosen)
    ((picked * weights[0]).sum() + (entropy * weights[1]).sum()).backward()
    ours = logits.clone().requires_grad_()
    our_picked, our_entropy = policy_terms(ours, mask_offsets(masks), chosen)
    ((our_picked * weights[0]).sum() + (our_entropy * weights[1]).sum()).backward()
    assert our_picked.dtype == our_entropy.dtype == torch.float32 and ours.grad.dtype == dtype
    assert torch.equal(our_picked, picked)
    assert torch.allclose(our_entropy, entropy, atol=1e-5)
    tolerance = 1e-5 if dtype == torch.float32 else 2e-2  # the gradient rounded to bfloat16
    assert torch.allclose(ours.grad.float(), theirs.grad.float(), atol=tolerance)
    assert (ours.grad[~masks] == 0).all()  # illegal actions learn nothing


def test_one_term_alone_has_its_own_gradient():
    logits, masks, chosen = _case(torch.float32, 1, seed=1)
    for use in (0, 1):
        theirs = logits.clone().requires_grad_()
        _by_autograd(theirs, masks, chosen)[use].sum().backward()
        ours = logits.clone().requires_grad_()
        policy_terms(ours, mask_offsets(masks), chosen)[use].sum().backward()
        assert torch.allclose(ours.grad, theirs.grad, atol=1e-5)


def test_mask_offsets():
    masks = torch.tensor([[True, False], [False, True]])
    assert torch.equal(mask_offsets(masks), torch.tensor([[0.0, MASKED_LOGIT], [MASKED_LOGIT, 0.0]]))


@pytest.mark.parametrize("compute_dtype", ["float32", "bfloat16"])
def test_the_first_minibatch_recomputes_the_actors_log_probabilities_exactly(tmp_path, compute_dtype):
    """Before any step, the learner's log-probabilities are the actor's, bit for bit: PPO's
    first importance ratios are exactly 1 (the approximate KL exactly 0)."""
    args = Args(**{**DEFAULTS["three_piles_v0"], "compute_dtype": compute_dtype, "num_games": 64, "num_steps": 8,
                   "update_epochs": 1, "num_minibatches": 1, "actors": 0, "engine": "reference",
                   "runs_dir": str(tmp_path), "run_name": "t", "progress": False})
    trainer = Trainer(args)
    trainer.start_actor()
    try:
        rollout, _ = trainer.actor.next_rollout()
    finally:
        trainer.stop_actor()
    assert isinstance(rollout, Rollout) and rollout.learner.sum() > 100
    assert trainer.learn(rollout)["approx_kl"] == 0.0


def test_after_an_update_the_learner_still_recomputes_the_actors_log_probabilities():
    """Illimat's learner (entity heads, a sparse observation: the first layer from its non-zero
    entries, `sparse_linear`) must read the weights its last step left, as the actor does: the
    next rollout's first ratios are 1 again. A copy of the first layer's weight kept by its version
    went stale under fused Adam (which does not bump it), and PPO diverged."""
    args = Args(env_id="illimat_v0", env_config={}, hidden=(32, 32), entity_heads=True, num_games=16, num_steps=8,
                update_epochs=1, num_minibatches=1, learning_rate=0.05, actors=0, engine="reference",
                opponent_share=0.0, runs_dir="unused", run_name="t", progress=False)
    trainer = Trainer(args)
    trainer.start_actor()
    try:
        first, _ = trainer.actor.next_rollout()
        assert trainer.learn(first)["approx_kl"] == 0.0
        trainer.update += 1
        trainer._publish()
        second, _ = trainer.actor.next_rollout()
    finally:
        trainer.stop_actor()
    kl = trainer.learn(second)["approx_kl"]
    assert abs(kl) < 1e-6, kl
