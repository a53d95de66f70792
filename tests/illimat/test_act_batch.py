"""The compiled `act_batch` and `action_scores_batch` of Illimat's scripted agents (``heuristic``,
``lookahead``; agents/illimat/batch.py) against their `act` and `action_scores`, decision by
decision, every answer in the mask: on positions of random games (every configuration kind: 2-4
players, no Luminaries, the Stars, full harvests at each player count, Harmonic Convergence, the
observation pieces), of games that sow into the most crowded field (fields of 20+ items, as a young
learned policy makes them), of the agents' own games, and of the crowded snapshots (61 items in one
field, with the Union: a pair's search above 14). CARD_ENVS_AGENT_STEPS scales the positions (30 by
default; 300 checks about 40,000 decisions per agent)."""

from __future__ import annotations

import os

import numpy as np
import pytest

from card_envs import batch
from card_envs.agents.illimat.heuristic import IllimatHeuristic, IllimatLookahead
from card_envs.core.registry import make_game
from card_envs.games.illimat.cards import (
    AUTUMN, CLAIM_TAKE, DONE, NUM_ACTIONS, SEASON, SEASON0, SPRING, SUMMER, SWAP_TAKE, WINTER)
from card_envs.vector import VectorGames
from tests.illimat.test_batch_pieces import positions

pytestmark = pytest.mark.skipif(not batch.has_numba(), reason="numba not installed")

STEPS = int(os.environ.get("CARD_ENVS_AGENT_STEPS", 30))
AGENTS = (IllimatHeuristic, IllimatLookahead)
PIECES = {"harvest_features": True, "play_features": True, "threat_features": True}
CONFIGS = [{}, {"num_players": 3}, {"num_players": 4}, {"luminaries": False}, {"num_players": 3, "stars_always": True},
           {"num_players": 4, "full_harvest": True}, {"harmonic_convergence": True}, PIECES,
           {"full_harvest": True, "stars_always": True}, {"num_players": 3, "full_harvest": True, "luminaries": False},
           {"num_players": 4, "harmonic_convergence": True, "full_harvest": True}]


def rows(states) -> tuple[np.ndarray, np.ndarray]:
    """The mover's observation and mask at each reference position."""
    return (np.stack([s.observation(s.current_player) for s in states]),
            np.stack([s.legal_mask().astype(np.int8) for s in states]))


def own_games(game, agent, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Positions of 16 games the compiled agent plays in every seat (every other decision recorded)."""
    vector, rng = VectorGames(game, 16, seed=seed, auto_forced=False), np.random.default_rng(seed)
    observations, masks = [], []
    for step in range(STEPS * 8):
        observation, mask, _ = vector.observe()
        if step % 2:
            observations.append(observation.copy())
            masks.append(mask.astype(np.int8))
        vector.step(agent.act_batch(observation, mask, rng))
    return np.concatenate(observations), np.concatenate(masks)


def check(agent, observations, masks) -> None:
    rng = np.random.default_rng(0)
    actions = agent.act_batch(observations, masks, rng)
    chosen, scores = agent.action_scores_batch(observations, masks, rng)
    for i, (o, m) in enumerate(zip(observations, masks)):
        assert m[actions[i]], f"row {i}: {actions[i]} is not in the mask {np.flatnonzero(m).tolist()}"
        expected = agent.act(o, m, rng)
        assert actions[i] == expected, f"row {i}: act_batch {actions[i]}, act {expected}"
        action, expected_scores = agent.action_scores(o, m, rng)
        assert chosen[i] == action
        np.testing.assert_array_equal(scores[i], expected_scores, err_msg=f"row {i}")


@pytest.mark.parametrize("config", CONFIGS, ids=str)
@pytest.mark.parametrize("cls", AGENTS, ids=lambda c: c.name)
def test_random_positions(cls, config):
    game = make_game("illimat_v0", **config)
    observations, masks = rows(positions(config, games=max(1, STEPS // 10), seed=5, every=3))
    assert len(observations) > 300
    check(cls(game), observations, masks)


@pytest.mark.parametrize("config", [{}, {"num_players": 4}], ids=str)
@pytest.mark.parametrize("cls", AGENTS, ids=lambda c: c.name)
def test_crowded_fields(cls, config):
    states = positions(config, games=max(1, STEPS // 15), seed=3, every=2, sow=0.97)
    assert max(len(s.items(f)) for s in states for f in range(4)) >= 20
    check(cls(make_game("illimat_v0", **config)), *rows(states))


@pytest.mark.parametrize("config", [{}, {"num_players": 3}, PIECES], ids=str)
@pytest.mark.parametrize("cls", AGENTS, ids=lambda c: c.name)
def test_own_games(cls, config):
    game = make_game("illimat_v0", **config)
    agent = cls(game)
    check(agent, *own_games(game, agent, seed=11))


@pytest.mark.parametrize("hand, union", [(["AP", "2S", "3S", "4S"], False), (["AP", "AS", "2S", "3S"], True),
                                         (["KP", "AS", "2S", "3S"], False)])
@pytest.mark.parametrize("cls", AGENTS, ids=lambda c: c.name)
def test_crowded_snapshots(cls, hand, union):
    """61 items in field 0; with the Union face up there, a Fool pair's values reach 28 (the
    bounded search above 14)."""
    from tests.illimat.test_groups import crowded

    state = crowded(hand, union)
    check(cls(state.game), *rows([state]))


@pytest.mark.parametrize("cls", AGENTS, ids=lambda c: c.name)
def test_where_act_raises_act_batch_raises_alike(cls):
    """A claim or swap whose legal actions hold a non-card (never asked by the rules): `act` fails
    on it, and so does `act_batch`, with `act`'s own error."""
    game = make_game("illimat_v0")
    agent = cls(game)
    observation = np.zeros(game.observation_size, np.float32)
    decision = agent.layout.slices["decision"].start
    mask = np.zeros(NUM_ACTIONS, np.int8)
    mask[[3, DONE]] = 1
    for kind in (SWAP_TAKE, CLAIM_TAKE):
        observation[decision + kind] = 1.0
        with pytest.raises(IndexError):
            agent.act(observation, mask, np.random.default_rng(0))
        with pytest.raises(IndexError):
            agent.act_batch(observation[None], mask[None], np.random.default_rng(0))
        observation[decision + kind] = 0.0


@pytest.mark.parametrize("num_players", [2, 4])
@pytest.mark.parametrize("cls", AGENTS, ids=lambda c: c.name)
def test_a_full_harvests_season_is_one_its_face_cards_give(cls, num_players):
    """After a full harvest whose face cards give different seasons the decision offers only
    theirs (the player orders them, the last sticks): the agents pick Summer where it is offered,
    else the first of Spring, Autumn, Winter offered (issue 78: they answered Summer regardless)."""
    config = {"num_players": num_players, "full_harvest": True}
    states = [s for s in positions(config, games=4, seed=7, every=1) if s.m_full and s.decision == SEASON]
    observations, masks = rows(states)
    assert len(states) >= 3 and not masks[:, SEASON0 + SUMMER].all()  # some without Summer
    agent = cls(make_game("illimat_v0", **config))
    order = [SEASON0 + s for s in (SUMMER, SPRING, AUTUMN, WINTER)]
    expected = [next(a for a in order if m[a]) for m in masks]
    rng = np.random.default_rng(0)
    assert [agent.act(o, m, rng) for o, m in zip(observations, masks)] == expected
    assert agent.act_batch(observations, masks, rng).tolist() == expected


def test_bad_batches_are_refused():
    game = make_game("illimat_v0")
    agent = IllimatLookahead(game)
    rng = np.random.default_rng(0)
    observations, masks = rows(positions({}, games=1, seed=1, every=50))
    with pytest.raises(ValueError, match="observations"):
        agent.act_batch(observations[:, :-1], masks, rng)
    with pytest.raises(ValueError, match="observations"):
        agent.act_batch(observations, masks[:, :-1], rng)
    empty = masks.copy()
    empty[0] = 0
    with pytest.raises(ValueError, match="no legal action"):
        agent.act_batch(observations, empty, rng)
