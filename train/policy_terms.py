"""The policy's terms of the PPO loss, fused: the log-probabilities of chosen actions and the
entropy of masked logits, forward and backward in a few whole-array passes.

Written by hand because, on a CPU, autograd's version of these few lines (mask, log-softmax,
softmax, product, sum, gather, and the backward of each) took about 2 ms of every 3 Piles
minibatch, a third of the PPO update: each step is a pass over the [batch, actions] array with
its own allocation, and a bool mask runs a slow scalar loop (in the forward and again in the
backward). This takes 0.7 ms. torch.compile would fuse them too, but it needs a C++ toolchain
and minutes of compiling per run.
"""

from __future__ import annotations

import torch

from card_envs.agents.neural import MASKED_LOGIT


def mask_offsets(masks: torch.Tensor) -> torch.Tensor:
    """float32 offsets to add to logits: 0 for a legal action (True in the bool ``masks``),
    `MASKED_LOGIT` for an illegal one (adding them is five times faster than a masked fill)."""
    return masks.to(torch.float32).sub_(1.0).mul_(-MASKED_LOGIT)


class _PolicyTerms(torch.autograd.Function):
    @staticmethod
    def forward(ctx, logits: torch.Tensor, offsets: torch.Tensor, chosen: torch.Tensor):
        z = torch.add(logits, offsets)  # float32
        log_p = z.log_softmax(-1)
        p = z.softmax(-1)  # illegal actions: exactly 0 (exp of log_p is ten times slower on them)
        entropy = -torch.bmm(p.unsqueeze(1), log_p.unsqueeze(2)).view(-1)  # sum of p log p per row
        ctx.save_for_backward(p, log_p, entropy, chosen)
        ctx.dtype = logits.dtype
        return log_p.gather(1, chosen), entropy

    @staticmethod
    def backward(ctx, grad_picked: torch.Tensor | None, grad_entropy: torch.Tensor | None):
        p, log_p, entropy, chosen = ctx.saved_tensors
        if grad_picked is None:
            grad_picked = torch.zeros(chosen.shape, dtype=p.dtype)
        # d log p_c / dz = onehot(c) - p;  d entropy / dz = -p (log p + entropy). Illegal actions
        # get exactly 0: p is 0 there and log p finite.
        if grad_entropy is None:
            grad = torch.zeros_like(p)
        else:
            grad = (log_p + entropy[:, None]).mul_(grad_entropy[:, None])
        grad.add_(grad_picked.sum(1, keepdim=True)).mul_(p).neg_()
        grad.scatter_add_(1, chosen, grad_picked)
        return grad.to(ctx.dtype), None, None


def policy_terms(logits: torch.Tensor, offsets: torch.Tensor,
                 chosen: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(log-probabilities [B, K] of the actions ``chosen`` [B, K], entropy [B]) of the policy
    given by raw ``logits`` [B, A] (any float dtype) and the `mask_offsets` of its legal
    actions, in float32; differentiable in ``logits``. The same numbers as masking the logits
    with `MASKED_LOGIT`, ``log_softmax`` and ``-(softmax * log_softmax).sum(-1)``, and the same
    gradients (tested against autograd)."""
    return _PolicyTerms.apply(logits, offsets, chosen)
