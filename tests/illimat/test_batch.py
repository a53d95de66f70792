"""Batched Illimat (card_envs.batch.illimat.engine) against the reference engine.

Both engines play the same uniformly random games side by side and must agree bit for bit at
every decision: the snapshot (`to_json`), the feature store, the acting seat, the mask, the
observation (every seat's, every few steps), the state vector, game ends, returns and lengths.
Games start from the reference's deals loaded into the batched engine, from the batched
engine's own deals (each finished game is redealt by the batched engine and played on from
`state(i)` in the reference), and from scripted positions of the rules tests (the Harmonic
Convergence, the Luminaries' claims), so that every decision and every optional rule occurs.
CARD_ENVS_BATCH_GAMES / 50 games per configuration (20 by default), a quarter of that with the
observation pieces on (the reference computes them in Python; tests/illimat/test_batch_pieces.py
and test_batch_threats.py compare them on hundreds of positions more);
`benchmarks/batch_differential.py --env illimat_v0` runs 10,000 per configuration."""

from __future__ import annotations

import os

import numpy as np
import pytest
import torch

from card_envs import batch
from card_envs.core.game import ArgumentError
from card_envs.core.registry import make_game
from card_envs.games.illimat.cards import DECISION_NAMES, NUM_DECISIONS
from tests.conftest import assert_illegal_actions_refused

pytestmark = pytest.mark.skipif(not batch.has_numba(), reason="numba not installed")

GAMES = max(4, int(os.environ.get("CARD_ENVS_BATCH_GAMES", 1000)) // 50)
PIECES = ("harvest_features", "play_features", "threat_features")
CONFIGS = [{}, {"num_players": 3}, {"num_players": 4}, {"luminaries": False},
           {"num_players": 3, "stars_always": True}, {"harmonic_convergence": True, "num_players": 4},
           {"full_harvest": True}, {"full_harvest": True, "num_players": 4, "reward": "score"},
           {"target_score": 5, "rounds": 2, "reward": "score"},
           {"harvest_features": True, "play_features": True}, {"num_players": 3, "harvest_features": True},
           {"num_players": 4, "play_features": True, "full_harvest": True},
           {"harvest_features": True, "play_features": True, "threat_features": True},
           {"num_players": 3, "threat_features": True}]


def engine_class():
    from card_envs.batch.illimat.engine import IllimatBatch

    return IllimatBatch


def side_by_side(config: dict, states: list, rng: np.random.Generator, games: int, steps: int = 10**9,
                 prefix: tuple[int, ...] = ()) -> set[int]:
    """Play `states` on in both engines with the same random legal actions until `games` games
    ended (or `steps` steps), comparing everything at every decision; the decisions seen. Step k
    plays prefix[k] in every game where it is legal."""
    game = make_game("illimat_v0", **config)
    env = engine_class()(len(states), seed=int(rng.integers(2**31)), **config)
    out = env.load(states)
    asked = np.zeros(len(states), dtype=np.int64)
    seen: set[int] = set()
    finished = step = 0
    while finished < games and step < steps:
        store = env.state_tensors().numpy()
        for i, st in enumerate(states):
            # the batched engine keeps no last play (what the reference's render shows)
            assert env.to_json(i) == {**st.to_json(), "last_play": None}, f"game {i}, decision {asked[i]}"
            assert np.array_equal(store[i], st.features), f"feature store of game {i}, decision {asked[i]}"
            seen.add(st.decision)
        assert out.seat.tolist() == [st.current_player for st in states]
        masks = np.stack([st.legal_mask() for st in states]).astype(bool)
        assert np.array_equal(out.mask.numpy(), masks)
        assert np.array_equal(out.obs.numpy(), np.stack([st.observation(st.current_player) for st in states]))
        if step % 7 == 0:
            every = env.all_seat_observations().numpy()
            for seat in range(game.num_players):
                assert np.array_equal(every[:, seat], np.stack([st.observation(seat) for st in states]))
            assert np.array_equal(env.state_tensors().numpy(), np.stack([st.state_tensor() for st in states]))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        if step < len(prefix):
            actions[masks[:, prefix[step]]] = prefix[step]
        for st, a in zip(states, actions):
            st.apply(int(a))
        out = env.step(torch.as_tensor(actions))
        asked += 1
        step += 1
        ended = np.array([st.is_terminal() for st in states])
        assert out.done.numpy().tolist() == ended.tolist()
        assert out.length.numpy().tolist() == np.where(ended, asked, 0).tolist()
        want = np.zeros((len(states), game.num_players), dtype=np.float32)
        for i in np.flatnonzero(ended):
            want[i] = states[i].returns()
            states[i] = env.state(int(i))  # the batched deal, through the reference's validating loader
            finished += 1
        assert np.array_equal(out.reward.numpy(), want)
        asked[ended] = 0
    return seen


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_same_games_as_the_reference(config):
    game = make_game("illimat_v0", **config)
    rng = np.random.default_rng(5)
    games = GAMES // 4 if any(config.get(piece) for piece in PIECES) else GAMES
    side_by_side(config, [game.new_state(rng) for _ in range(8)], rng, games=games)


@pytest.mark.parametrize("config", [{}, {"num_players": 4, "harmonic_convergence": True}], ids=str)
def test_differential_check_with_forced_decisions_played(config):
    """`card_envs.batch.check.differential`, single-choice decisions played unasked in both."""
    from card_envs.batch.check import differential

    counts = differential("illimat_v0", config, games=GAMES, batch=16, seed=3, auto_forced=True,
                          engine=engine_class())
    assert counts["games"] >= GAMES


def rules_positions() -> list[tuple[dict, object]]:
    """Scripted positions of the rules tests, each a play (`CLEAR`) before a rare event: the
    Harmonic Convergence (2 and 3 players), its refusal without the flag, and a clearing that
    claims each face-up Luminary (the Rake owed first, the Union's partner asked)."""
    from tests.illimat import test_rules as R

    game3 = R.IllimatGame(num_players=3, harmonic_convergence=True)
    out = [({"harmonic_convergence": True}, R.three_up(R.CONVERGENCE)), ({}, R.three_up(R.GAME2)),
           ({"num_players": 3, "harmonic_convergence": True},
            R.position(game3, hands=[["2A", "3A"], ["5S", "2P", "3P", "6P"], ["7P", "8P", "9P"]], fields=R.THREE_UP,
                       harvest=[["KA"], ["9S"], ["9W"]], okus=[0, 0, 1], claimed=[[], ["Rake"], []],
                       scores=[1, 2, 3], round=1, current=1, deck=["7S", "8S", "2S", "10S", "JS"]))]
    for name in ("Changeling", "Forest Queen", "Children", "Rake", "Union", "River", "Maiden", "Newborn"):
        under = {"under": ["2W", "3W", "4W"]} if name == "Children" else {}
        fields = [{"loose": ["5P"], "luminary": (name, True), **under}, {"loose": ["6W", "7W"]},
                  {"loose": ["8W"], "luminary": ("Newborn" if name != "Newborn" else "River", False)},
                  {"loose": ["9W", "10S"]}]
        out.append(({}, R.position(hands=[["5S", "2P", "3P", "6P"], ["7P", "8P", "3S", "AS"]], fields=fields,
                                   harvest=[["9S"], ["2S", "4S"]], okus=[0, 1], scores=[3, 7], round=1)))
    return out


def clear_field_0() -> tuple[int, ...]:
    """Seat 0 harvests the lone 5P of field 0 with 5S, clearing it (`rules_positions`)."""
    from tests.illimat.test_rules import ACTIONS

    return tuple(ACTIONS[a] for a in ("card 5S", "field 0", "harvest", "card 5P", "done"))


def test_scripted_positions_play_on_as_in_the_reference():
    rng = np.random.default_rng(11)
    seen: set[int] = set()
    for config, state in rules_positions():
        seen |= side_by_side(config, [state.clone() for _ in range(4)], rng, games=2, prefix=clear_field_0())
    assert {DECISION_NAMES.index(d) for d in ("claim_give", "claim_take", "claim_season", "partner")} <= seen


def test_every_decision_occurs_and_the_convergence_happens():
    """The games above reach every decision; the Convergence happens from the scripted position."""
    rng = np.random.default_rng(2)
    config = {"num_players": 4, "harmonic_convergence": True, "full_harvest": True}
    game = make_game("illimat_v0", **config)
    seen = side_by_side(config, [game.new_state(rng) for _ in range(8)], rng, games=8)
    for config, state in rules_positions():
        seen |= side_by_side(config, [state.clone() for _ in range(2)], rng, games=1, steps=30, prefix=clear_field_0())
    assert seen >= set(range(NUM_DECISIONS)), sorted(DECISION_NAMES[d] for d in set(range(NUM_DECISIONS)) - seen)
    env = engine_class()(2, harmonic_convergence=True)
    env.load([rules_positions()[0][1]] * 2)
    for action in clear_field_0():
        env.step(torch.full((2,), action))
    assert env.s.converged.all() and env.to_json(0)["scores"] == [7, 3]


@pytest.mark.parametrize("config", [{}, {"num_players": 3, "harmonic_convergence": True},
                                    {"num_players": 4, "stars_always": True, "full_harvest": True}], ids=str)
def test_card_blocks_written_from_the_cards_places_are_the_store_gathered(config):
    """`observe` writes the pieces with a card axis from `loc` and the flags (`card_blocks`): on
    every seat of 256 games through 300 random decisions they equal the gather of the feature
    store (held to the reference's by the tests above) that they replace."""
    env = engine_class()(256, seed=4, **config)
    gathers = env.game._gathers
    rng = np.random.default_rng(6)
    out = env.reset(seed=4)
    for step in range(300):
        if step % 5 == 0:
            every, store = env.all_seat_observations().numpy(), env.state_tensors().numpy()
            for seat, gather in enumerate(gathers):
                assert np.array_equal(every[:, seat], store[:, gather]), (step, seat)
        keys = rng.random(out.mask.shape) * out.mask.numpy()
        out = env.step(torch.as_tensor(keys.argmax(1)))


def test_deals_are_valid_reference_positions_that_differ_by_seed():
    cls = engine_class()
    a, b = cls(6, seed=1), cls(6, seed=2)
    snaps = [a.to_json(i) for i in range(6)]
    for snap in snaps:
        make_game("illimat_v0").state_from_json(snap)
    assert len({s["chance_seed"] for s in snaps}) == 6
    assert snaps != [b.to_json(i) for i in range(6)]
    assert [cls(6, seed=1).to_json(i) for i in range(6)] == snaps


@pytest.mark.parametrize("auto_forced", [False, True])
def test_an_illegal_action_is_refused_and_changes_nothing(auto_forced):
    """The kernels do not check bounds (an illegal action would write into other games): the fused
    step checks every action against the mask it returned before applying any (`numba_checks.all_legal`),
    the forced decisions' path with `_check_actions`; a caller's edits to the returned mask tensor
    do not loosen either."""
    env = batch.make("illimat_v0", 8, seed=3, auto_forced=auto_forced)
    assert_illegal_actions_refused(env)


def test_the_engine_refuses_other_devices_and_what_the_reference_refuses():
    cls = engine_class()
    with pytest.raises(ValueError, match="runs on the CPU"):
        cls(2, device="meta")
    with pytest.raises(ArgumentError, match="num_players"):
        cls(2, num_players=5)
