"""The trainer's acting side: the action sampler, the opponent pool's stacked snapshots, and
which rows of a rollout the learner's network plays."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import card_envs
from card_envs.agents.neural import MASKED_LOGIT, ActorCritic, sample
from card_envs.train.acting import Collector, OpponentPool, Rollout, StackedPolicies
from card_envs.train.configs import DEFAULTS
from card_envs.train.ppo import Args


def test_sample_follows_the_softmax_and_never_draws_a_masked_action():
    generator = torch.Generator().manual_seed(0)
    logits = torch.tensor([[0.0, 1.0, 2.0, 0.5], [3.0, 0.0, 0.0, 0.0]])
    masks = torch.tensor([[True, False, True, True], [False, True, False, True]])
    masked = logits.masked_fill(~masks, MASKED_LOGIT)
    draws = 40_000
    counts = torch.zeros_like(logits)
    for _ in range(draws // 1000):
        batch = masked.repeat(1000, 1)
        actions = sample(batch, torch.rand((len(batch), 1), generator=generator)).view(1000, 2)
        for row in range(2):
            counts[row] += torch.bincount(actions[:, row], minlength=4)
    assert (counts[~masks] == 0).all()
    expected = masked.softmax(-1)
    assert torch.allclose(counts / draws, expected, atol=0.01), (counts / draws, expected)


def test_sample_edges_of_the_unit_interval_stay_on_legal_actions():
    masked = torch.tensor([[MASKED_LOGIT, 0.0, 0.0, MASKED_LOGIT]] * 3)
    # 0 takes the first legal action; a uniform that rounds up to the total takes the last legal one.
    uniforms = torch.tensor([[0.0], [0.5], [1.0]])
    assert sample(masked, uniforms).tolist() == [1, 2, 2]


def test_stacked_snapshots_give_each_network_its_own_logits():
    torch.manual_seed(0)
    networks = [ActorCritic(20, 7, (16, 8)) for _ in range(3)]
    rng = np.random.default_rng(0)
    which = np.array([2, 0, 2, 1, 2, 0, 2])  # uneven groups: padding must not leak
    observations = rng.random((len(which), 20), dtype=np.float32)
    masks = rng.random((len(which), 7)) < 0.6
    masks[:, 0] = True
    logits = StackedPolicies(networks).logits(which, observations, masks)
    for row, k in enumerate(which):
        with torch.no_grad():
            expected, _ = networks[k](torch.from_numpy(observations[row:row + 1]), torch.from_numpy(masks[row:row + 1]))
        assert torch.allclose(logits[row], expected[0], atol=1e-5)
    bf16 = StackedPolicies(networks, torch.bfloat16).logits(which, observations, masks)
    assert bf16.dtype == torch.float32 and torch.allclose(bf16[torch.from_numpy(masks)],
                                                          logits[torch.from_numpy(masks)], atol=0.05)


def test_pool_acts_for_scripted_agents_and_snapshots_on_their_own_rows():
    game = card_envs.make_game("three_piles_v0")
    pool = OpponentPool(game, ("heuristic", "random"), size=2,
                        blank=ActorCritic(game.observation_size, game.num_actions, (16,)))
    # Snapshots that all but surely play their lowest (first) or highest (second) legal action.
    for preference in (0.0, -1.0, 1.0):  # the first is dropped: the pool keeps 2
        network = ActorCritic(game.observation_size, game.num_actions, (16,))
        with torch.no_grad():
            network.policy_head.weight.zero_()
            network.policy_head.bias.copy_(preference * 100 * torch.arange(game.num_actions))
        pool.add_snapshot(network.state_dict())
    assert len(pool) == 4
    games = card_envs.vector.VectorGames(game, 64, seed=3)
    observations, masks, _ = games.observe()
    members = np.arange(64) % 4
    actions = pool.act(members, observations, masks, np.random.default_rng(0))
    assert masks[np.arange(64), actions].all()
    heuristic = pool.scripted[0].act_batch(observations[members == 0], masks[members == 0].astype(np.int8), None)
    assert (actions[members == 0] == heuristic).all()
    legal = [np.flatnonzero(m) for m in masks]
    assert all(actions[i] == legal[i].min() for i in np.flatnonzero(members == 2))
    assert all(actions[i] == legal[i].max() for i in np.flatnonzero(members == 3))
    assert any(legal[i].min() != legal[i].max() for i in np.flatnonzero(members >= 2))


@pytest.mark.parametrize("engine", ["reference", "batch"])
def test_the_network_plays_only_the_learners_rows(engine):
    game = card_envs.make_game("three_piles_v0")
    args = Args(**{**DEFAULTS["three_piles_v0"], "engine": engine, "num_games": 32, "num_steps": 16,
                   "hidden": (16,), "compute_dtype": "float32"})  # the check below is in float32
    collector = Collector(game, args, seed=4, pool_states=[])
    rollout = Rollout.empty(args.num_steps, args.num_games, game)
    collector.collect(rollout)
    learner = rollout.learner
    assert learner.any() and (~learner).any()
    assert (rollout.log_probs[~learner] == 0).all() and (rollout.values[~learner] == 0).all()
    assert (rollout.log_probs[learner] < 0).any() and (rollout.values[learner] != 0).all()
    # The stored log-probability is the network's for the action taken.
    with torch.no_grad():
        logits, values = collector.network(torch.from_numpy(rollout.observations[learner]),
                                           torch.from_numpy(rollout.masks[learner]))
    taken = logits.log_softmax(-1).gather(1, torch.from_numpy(rollout.actions[learner])[:, None])[:, 0]
    assert torch.allclose(taken, torch.from_numpy(rollout.log_probs[learner]), atol=1e-5)
    assert torch.allclose(values, torch.from_numpy(rollout.values[learner]), atol=1e-5)
    assert rollout.masks[np.arange(args.num_steps)[:, None], np.arange(args.num_games), rollout.actions].all()


def test_the_acting_copy_in_bfloat16_computes_what_the_learners_autocast_does():
    """The collector acts with a bfloat16 copy of the weights; the learner recomputes the same
    decisions under autocast: both must give the same logits and values, bit for bit, or PPO's
    first importance ratios would not be 1."""
    game = card_envs.make_game("three_piles_v0")
    args = Args(**{**DEFAULTS["three_piles_v0"], "compute_dtype": "bfloat16", "num_games": 64, "num_steps": 4})
    collector = Collector(game, args, seed=5, pool_states=[])
    trained = ActorCritic(game.observation_size, game.num_actions, tuple(args.hidden))
    for parameter in trained.parameters():  # weights that bfloat16 must round
        parameter.data.normal_(0.0, 0.05, generator=torch.Generator().manual_seed(parameter.numel()))
    collector.use_weights(trained.state_dict(), teaching=False)
    assert next(collector.acting.parameters()).dtype == torch.bfloat16
    rollout = Rollout.empty(args.num_steps, args.num_games, game)
    collector.collect(rollout)
    learner = rollout.learner
    with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16):
        logits, values = trained(torch.from_numpy(rollout.observations[learner]), torch.from_numpy(rollout.masks[learner]))
    taken = logits.float().log_softmax(-1).gather(1, torch.from_numpy(rollout.actions[learner])[:, None])[:, 0]
    assert torch.equal(taken, torch.from_numpy(rollout.log_probs[learner]))
    assert torch.equal(values.float(), torch.from_numpy(rollout.values[learner]))
