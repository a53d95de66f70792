"""Batched 3 Piles (card_envs.batch) against the reference engine, and the batched API.

The differential runs play CARD_ENVS_BATCH_GAMES games per configuration and backend (1,000 by
default, to keep the suite fast); `benchmarks/batch_differential.py` runs 10,000 and more."""

from __future__ import annotations

import os

import numpy as np
import pytest
import torch

from card_envs import batch
from card_envs.batch.check import differential
from card_envs.core.registry import make_game

GAMES = int(os.environ.get("CARD_ENVS_BATCH_GAMES", 1000))
CONFIGS = [{}, {"num_players": 3}, {"num_players": 4}, {"reward": "score"}]
BACKENDS = [pytest.param("numba", marks=pytest.mark.skipif(not batch.has_numba(), reason="numba not installed")),
            "torch"]
DEVICES = ["cpu", pytest.param("cuda", marks=pytest.mark.skipif(not torch.cuda.is_available(), reason="no GPU"))]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_same_games_as_the_reference(config, backend):
    counts = differential("three_piles_v0", config, games=GAMES, batch=256, backend=backend, seed=1)
    assert counts["games"] >= GAMES


@pytest.mark.parametrize("backend", BACKENDS)
def test_same_games_with_forced_decisions_played(backend):
    differential("three_piles_v0", {"num_players": 3}, games=GAMES // 4, batch=128, backend=backend,
                 seed=2, auto_forced=True)


@pytest.mark.parametrize("device", DEVICES)
def test_same_games_on_every_device(device):
    differential("three_piles_v0", {"num_players": 2}, games=GAMES // 4, batch=128, device=device,
                 backend="torch", seed=3)


@pytest.mark.parametrize("backend", BACKENDS)
def test_step_shapes_and_reproducible_seeds(backend):
    env = batch.make("three_piles_v0", 64, backend=backend, num_players=3)
    first = env.reset(seed=5)
    game = make_game("three_piles_v0", num_players=3)
    assert first.obs.shape == (64, game.observation_layout.size) and first.obs.dtype == torch.float32
    assert first.mask.shape == (64, game.num_actions) and first.mask.dtype == torch.bool
    assert first.reward.shape == (64, 3) and first.done.shape == (64,) and not first.done.any()
    assert not first.length.any() and env.all_seat_observations().shape == (64, 3, first.obs.shape[1])
    assert torch.equal(env.all_seat_observations()[:, 0], first.obs)  # seat 0 acts first
    assert (first.seat == 0).all()
    steps = [env.step(first.mask.to(torch.uint8).argmax(1))]
    again = batch.make("three_piles_v0", 64, backend=backend, num_players=3)
    assert torch.equal(again.reset(seed=5).obs, first.obs)
    assert torch.equal(again.step(first.mask.to(torch.uint8).argmax(1)).obs, steps[0].obs)
    assert not torch.equal(again.reset(seed=6).obs, first.obs)


@pytest.mark.parametrize("auto_forced", [False, True])
def test_backends_play_the_same_deals(auto_forced):
    backends = ["torch", "numba"] if batch.has_numba() else ["torch"]
    envs = [batch.make("three_piles_v0", 32, backend=b, seed=9, auto_forced=auto_forced) for b in backends]
    outs = [env.reset(seed=9) for env in envs]
    rng = np.random.default_rng(0)
    for _ in range(300):
        for a, b in zip(outs, outs[1:]):
            assert all(torch.equal(x, y) for x, y in zip(a, b))
        mask = outs[0].mask.numpy()
        actions = torch.as_tensor([rng.choice(np.flatnonzero(m)) for m in mask])
        outs = [env.step(actions) for env in envs]


def test_redealt_games_are_valid_reference_states():
    env = batch.make("three_piles_v0", 16, seed=0)
    game = make_game("three_piles_v0")
    for i in range(16):
        state = env.state(i)
        game.state_from_json(state.to_json())  # the reference snapshot validator accepts it
        assert len(state.deck) == 43 and all(len(h) == 3 for h in state.hands)


def test_bad_arguments():
    with pytest.raises(ValueError, match="no batched engine"):
        batch.make("high_card_v0", 4)
    with pytest.raises(ValueError, match="backend"):
        batch.make("three_piles_v0", 4, backend="jax")
    with pytest.raises(ValueError, match="num_players"):
        batch.make("three_piles_v0", 4, num_players=5)
    with pytest.raises(ValueError, match="CPU only"):
        batch.make("three_piles_v0", 4, device="cuda", backend="numba")
    env = batch.make("three_piles_v0", 2)
    with pytest.raises(ValueError, match="states for"):
        env.load([make_game("three_piles_v0").new_state(np.random.default_rng(0))])
    with pytest.raises(ValueError, match="num_players"):
        env.load([make_game("three_piles_v0", num_players=3).new_state(np.random.default_rng(0))] * 2)
