"""PPO's loss on one minibatch, as one function of tensors, so that ``--compile`` can hand it
whole to torch.compile (forward and backward fused into a few kernels)."""

from __future__ import annotations

import warnings
from typing import Callable

import torch

from card_envs.agents.neural import ActorCritic
from card_envs.train.acting import autocast
from card_envs.train.policy_terms import policy_terms
from card_envs.train.sparse_linear import sparse_linear


def minibatch_loss(network: ActorCritic, observations: torch.Tensor, critic_inputs: torch.Tensor | None,
                   offsets: torch.Tensor, chosen: torch.Tensor, old_log_probs: torch.Tensor,
                   advantages: torch.Tensor, targets: torch.Tensor, teacher_coef: torch.Tensor, clip_coef: float,
                   ent_coef: float, vf_coef: float, compute_dtype: str,
                   columns: torch.Tensor | None = None,
                   sparse: bool = False) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
    """The loss to minimise and its terms (detached): the clipped policy term on advantages
    normalised within the minibatch, the value term, the entropy bonus and, where ``chosen`` has
    a second column (the teacher's choices), the kickstarting cross-entropy weighted by
    ``teacher_coef`` (a tensor, so that its decay never recompiles the compiled version).
    ``columns``: the observation's active columns, which ``observations`` hold alone (`ActorCritic.heads`);
    ``sparse``: the first layer multiplies the observations' non-zero entries alone (`sparse_linear`)."""
    with autocast(compute_dtype):
        # The legal actions alone get entity scores (`ActorCritic.heads`): the others are masked.
        logits, values = network.heads(observations, critic_inputs, columns, legal=offsets.eq(0),
                                       first_layer=sparse_linear if sparse else None)
    values = values.float()  # the losses in float32
    # The chosen actions' log-probabilities (and the teacher's) and the entropy, masked, in
    # float32, in one fused step (torch.distributions adds overhead here).
    log_probs, entropies = policy_terms(logits, offsets, chosen)
    log_ratio = log_probs[:, 0] - old_log_probs
    ratio = log_ratio.exp()
    adv = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    policy_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - clip_coef, 1 + clip_coef)).mean()
    value_loss = 0.5 * (values - targets).square().mean()
    entropy = entropies.mean()
    loss = policy_loss - ent_coef * entropy + vf_coef * value_loss
    imitation = torch.zeros(())
    if chosen.shape[1] > 1:  # kickstarting: cross-entropy to the teacher's choices
        imitation = -log_probs[:, 1].mean()
        loss = loss + teacher_coef * imitation
    with torch.no_grad():
        terms = {"policy_loss": policy_loss, "value_loss": value_loss, "entropy": entropy, "imitation": imitation,
                 "approx_kl": ((ratio - 1) - log_ratio).mean(),
                 "clipfrac": ((ratio - 1).abs() > clip_coef).float().mean()}
    return loss, {name: value.detach() for name, value in terms.items()}


def compiled(function: Callable) -> Callable:
    """``function`` compiled by torch.compile (the batch dimension dynamic: minibatch sizes vary
    from rollout to rollout), or ``function`` itself, after one warning, where compiling fails
    (inductor needs a C++ compiler). Compiling happens at the first call and fails before
    computing anything, so the fallback simply makes that call again uncompiled."""
    fast = torch.compile(function, dynamic=True)
    chosen: list[Callable] = []  # the version that worked, once known

    def call(*args, **kwargs):
        if chosen:
            return chosen[0](*args, **kwargs)
        try:
            result = fast(*args, **kwargs)
            chosen.append(fast)
        except torch._dynamo.exc.BackendCompilerFailed as error:  # the compiler, not the loss (its errors pass)
            cause = getattr(error, "inner_exception", None) or error
            reason = (str(cause).strip().splitlines() or [""])[0]
            warnings.warn(f"--compile: torch.compile failed ({type(cause).__name__}: {reason}); "
                          "training goes on uncompiled", RuntimeWarning, stacklevel=2)
            chosen.append(function)
            result = function(*args, **kwargs)
        return result

    return call
