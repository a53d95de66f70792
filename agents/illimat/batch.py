"""`act_batch` and `action_scores_batch` of Illimat's scripted agents (agents/illimat/heuristic.py:
``heuristic`` and ``lookahead``): `act` and `action_scores` compiled with numba.

The trainer asks the scripted agents for thousands of decisions at a time (opponents, the teacher's
labels, cloning's games), and in Python each turn's plans cost a dozen group searches, and a
harvest table per plan for ``lookahead``. The kernel (agents/illimat/kernel.py) is `act` row by
row: the observation read as `_read` reads it (a field's items in key order, equal stockpiles'
cards split as `_read` splits them), the same plans listed in the same order with the same float64
scores (sums in the same order, `math.comb` ratios as exact integers divided once), sorted stably
as Python sorts them, and the same move taken; `action_scores` from the same plans. The group
searches are the batched engine's (card_envs/batch/illimat/groups.py, threats.py), proven bit for
bit against the reference's by its tests. A turn's plans are kept as Python keeps them, by the
observation before its decision pieces and the turn flags (`kernel.plan_cache`, per agent).

Where `act` raises (no hand card to give, a claim with a non-card legal action), the kernel answers
`ERROR` and `act` runs on that row to raise its own error. Without numba (the train and batch
extras have it) both run `act` per row. tests/illimat/test_act_batch.py checks every decision
against `act` and `action_scores`.
"""

from __future__ import annotations

import numpy as np

from card_envs.games.illimat.cards import NUM_ACTIONS

try:
    from card_envs.agents.illimat import kernel
except ImportError:  # numba is in the train and batch extras; a bare install plays `act` per row
    kernel = None

_SCRATCH: list = []  # (row scratch, the tables' and Union pairs' scratch, the searches' works), made once per process


def act_batch(policy, observations, action_masks, rng, lookahead: bool, scored: bool = False):
    """`policy.act` on every row of ``observations`` [B, obs] and ``action_masks`` [B, actions];
    with ``scored``, (actions, float32 [B, actions] scores) as `policy.action_scores` gives them."""
    legal = np.ascontiguousarray(np.asarray(action_masks) != 0)
    observations = np.ascontiguousarray(observations, dtype=np.float32)
    width = policy.layout.size
    if observations.shape != (len(legal), width) or legal.shape != (len(legal), NUM_ACTIONS):
        raise ValueError(f"{policy.name}.act_batch takes observations [rows, {width}] and action masks "
                         f"[rows, {NUM_ACTIONS}] of this game, not {observations.shape} and {legal.shape}")
    if not legal.any(axis=-1).all():
        raise ValueError("an action_mask row has no legal action")
    if kernel is None:
        rows = [policy.action_scores(o, m, rng) if scored else (policy.act(o, m, rng), None)
                for o, m in zip(observations, legal)]
        actions = np.array([a for a, _ in rows], np.int64)
        return (actions, np.stack([s for _, s in rows]).astype(np.float32)) if scored else actions
    if not _SCRATCH:
        _SCRATCH.extend((kernel.row_scratch(), kernel.union_scratch(), kernel.works()))
    if "_compiled" not in policy.__dict__:  # the observation's offsets and the agent's turns' plans
        at = kernel.offsets(policy.layout)
        policy._compiled = (at, kernel.plan_cache(at))
    at, cache = policy._compiled
    actions = np.empty(len(legal), np.int64)
    scores = np.full((len(legal) if scored else 0, NUM_ACTIONS), -np.inf, np.float32)
    kernel.decide_rows(observations, legal, at, lookahead, scored, *_SCRATCH, cache, actions, scores)
    for i in np.flatnonzero(actions == kernel.ERROR):  # no answer by the rules: `act` raises its error here
        policy.act(observations[i], legal[i], rng)
        raise RuntimeError(f"row {i}: the compiled agent found no answer where {policy.name}.act found one")
    return (actions, scores) if scored else actions
