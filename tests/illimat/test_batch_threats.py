"""Batched Illimat's optional observation piece ``threat_features`` (card_envs.batch.illimat.threats)
against the reference's `threat_features`, bit for bit, for every seat of positions from uniformly
random games (2, 3, 4 players, the Stars always, full harvests), from games whose policy prefers
sowing (fields of 20 items and more, where the budgeted searches stop early), and from the
crowded snapshots of the groups tests (61 items in one field)."""

from __future__ import annotations

import time

import numpy as np
import pytest

from card_envs import batch
from card_envs.games.illimat.cards import NUM_FIELDS
from card_envs.games.illimat.threat_features import SIZE, threat_features
from tests.illimat.test_batch_pieces import positions

pytestmark = pytest.mark.skipif(not batch.has_numba(), reason="numba not installed")

CONFIGS = [{}, {"num_players": 3}, {"num_players": 4}, {"num_players": 3, "stars_always": True},
           {"full_harvest": True}, {"full_harvest": True, "num_players": 4}]


def reference(state, seat: int) -> np.ndarray:
    """The piece as `Encoding.observation` builds it."""
    board = tuple(tuple((code, tuple(pile[3]) if pile else (key,)) for key, code, pile in state.items(f))
                  for f in range(NUM_FIELDS))
    unseen_row = state.game.state_layout.views(state.features)["unseen"][seat]
    return threat_features(state, seat, tuple(np.flatnonzero(unseen_row).tolist()), board)


def batched(config: dict, states: list) -> tuple[object, list[np.ndarray]]:
    """Every seat's piece of `states` from the kernel: (engine, [threats] per seat)."""
    from card_envs.batch.illimat import threats
    from card_envs.batch.illimat.engine import IllimatBatch

    env = IllimatBatch(len(states), **config)
    env.load(states)
    out = []
    for seat in range(env.num_players):
        seats = np.full(len(states), seat, np.int64)
        o = np.full((len(states), SIZE), np.nan, np.float32)
        assert threats.threat_pieces(env.s, env.t, seats, env.memo, o) == 0
        out.append(o)
    return env, out


def compare(config: dict, states: list) -> int:
    _, out = batched(config, states)
    nonzero = 0
    for i, state in enumerate(states):
        for seat in range(state.game.num_players):
            want = reference(state, seat)
            assert np.array_equal(out[seat][i].view(np.uint32), want.view(np.uint32)), (
                config, i, seat, np.flatnonzero(out[seat][i] != want)[:10])
            nonzero += bool(want.any())
    assert nonzero > len(states) // 2  # the piece is not trivially zero
    return len(states)


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_random_positions(config):
    states = positions(config, games=6, seed=17, every=6)
    assert compare(config, states) > 150


@pytest.mark.parametrize("config", [{}, {"num_players": 4}, {"num_players": 3, "full_harvest": True}], ids=str)
def test_crowded_fields_from_sowing(config):
    states = positions(config, games=3, seed=5, every=6, sow=0.97)
    items = max(len(st.items(f)) for st in states for f in range(NUM_FIELDS))
    assert items >= 20
    assert compare(config, states) > 150


@pytest.mark.parametrize("hand, union, full", [(["AP", "2S", "3S", "4S"], False, False),
                                               (["KP", "AS", "2S", "3S"], False, True),
                                               (["AP", "AS", "2S", "3S"], True, False)])
def test_crowded_snapshots(hand, union, full):
    from tests.illimat.test_groups import crowded

    states = [crowded(hand, union, full)]
    _, out = batched({"num_players": 4, "full_harvest": full}, states)
    for seat in range(4):
        want = reference(states[0], seat)
        assert np.array_equal(out[seat][0].view(np.uint32), want.view(np.uint32)), seat


def test_speed():
    """Kernel time per observation on random positions: printed, loosely bounded."""
    from card_envs.batch.illimat import threats

    config = {"num_players": 3}
    states = positions(config, games=4, seed=5, every=2)
    env, _ = batched(config, states)
    seats = np.asarray([st.current_player for st in states], np.int64)
    out = np.zeros((len(states), SIZE), np.float32)
    start = time.perf_counter()
    for _ in range(5):
        threats.threat_pieces(env.s, env.t, seats, env.memo, out)
    per = (time.perf_counter() - start) / (5 * len(states))
    print(f"\n{per * 1e6:.1f} us per observation (threat_features), {len(states)} positions")
    assert per < 5e-3
