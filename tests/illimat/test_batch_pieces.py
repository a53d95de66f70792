"""Batched Illimat's optional observation pieces (card_envs.batch.illimat.pieces) against the
reference's `harvest_features` and `play_features`, bit for bit, for every seat of positions from
uniformly random games (2, 3, 4 players, the Stars always, full harvests), from games whose
policy prefers sowing (fields of 15 to 30 items and more, where the budgeted searches stop early),
and from the crowded snapshots of the groups tests (61 items in one field)."""

from __future__ import annotations

import time

import numpy as np
import pytest

from card_envs import batch
from card_envs.core.registry import make_game
from card_envs.games.illimat.cards import FIELD0, HARVEST_VALUES, NUM_FIELDS, SOW
from card_envs.games.illimat.harvest_features import harvest_features
from card_envs.games.illimat.play_features import play_features

pytestmark = pytest.mark.skipif(not batch.has_numba(), reason="numba not installed")

CONFIGS = [{}, {"num_players": 3}, {"num_players": 4}, {"num_players": 3, "stars_always": True},
           {"full_harvest": True}, {"full_harvest": True, "num_players": 4}]


def positions(config: dict, games: int, seed: int, every: int, sow: float = 0.0) -> list:
    """Non-final positions of random games, every `every`-th decision; with probability `sow` a
    decision that may sow does, into the most crowded field it may choose (the fields then grow)."""
    game = make_game("illimat_v0", **config)
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(games):
        state = game.new_state(rng)
        step = 0
        while not state.is_terminal():
            if step % every == 0:
                out.append(state.clone())
            legal = state.legal_actions()
            fields = [a for a in legal if FIELD0 <= a < FIELD0 + NUM_FIELDS]
            if SOW in legal and rng.random() < sow:
                action = SOW
            elif fields and rng.random() < sow:
                action = max(fields, key=lambda a: len(state.items(a - FIELD0)))
            else:
                action = legal[rng.integers(len(legal))]
            state.apply(action)
            step += 1
    return out


def reference(state, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """The two pieces as `Encoding.observation` builds them."""
    board = tuple(tuple((code, tuple(pile[3]) if pile else (key,)) for key, code, pile in state.items(f))
                  for f in range(NUM_FIELDS))
    unseen_row = state.game.state_layout.views(state.features)["unseen"][seat]
    unseen = tuple(np.flatnonzero(unseen_row).tolist())
    return (harvest_features(state, seat, HARVEST_VALUES, board), play_features(state, seat, unseen, board))


def batched(config: dict, states: list) -> tuple[object, list[np.ndarray], list[np.ndarray]]:
    """Every seat's two pieces of `states` from the kernels: (engine, [harvest], [play]) per seat."""
    from card_envs.batch.illimat import pieces
    from card_envs.batch.illimat.engine import IllimatBatch

    env = IllimatBatch(len(states), **config)
    env.load(states)
    harvest, play = [], []
    for seat in range(env.num_players):
        seats = np.full(len(states), seat, np.int64)
        h = np.full((len(states), pieces.HARVEST_SIZE), np.nan, np.float32)
        p = np.full((len(states), pieces.PLAY_SIZE), np.nan, np.float32)
        pieces.harvest_pieces(env.s, env.t, seats, env.memo, h)
        pieces.play_pieces(env.s, env.t, seats, env.memo, p)
        h2, p2 = np.full_like(h, np.nan), np.full_like(p, np.nan)
        pieces.both_pieces(env.s, env.t, seats, env.memo, h2, p2)
        assert np.array_equal(h2, h) and np.array_equal(p2, p)
        harvest.append(h)
        play.append(p)
    return env, harvest, play


def compare(config: dict, states: list) -> int:
    _, harvest, play = batched(config, states)
    for i, state in enumerate(states):
        for seat in range(state.game.num_players):
            h, p = reference(state, seat)
            assert np.array_equal(harvest[seat][i].view(np.uint32), h.view(np.uint32)), (config, i, seat)
            assert np.array_equal(play[seat][i].view(np.uint32), p.view(np.uint32)), (config, i, seat)
    return len(states)


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_random_positions(config):
    states = positions(config, games=6, seed=11, every=6)
    assert compare(config, states) > 150


@pytest.mark.parametrize("config", [{}, {"num_players": 4}], ids=str)
def test_crowded_fields_from_sowing(config):
    states = positions(config, games=3, seed=3, every=6, sow=0.97)
    items = max(len(st.items(f)) for st in states for f in range(NUM_FIELDS))
    assert items >= 20
    assert compare(config, states) > 150


@pytest.mark.parametrize("hand, union, full", [(["AP", "2S", "3S", "4S"], False, False),
                                               (["KP", "AS", "2S", "3S"], False, True),
                                               (["AP", "AS", "2S", "3S"], True, False)])
def test_crowded_snapshots(hand, union, full):
    from tests.illimat.test_groups import crowded

    states = [crowded(hand, union, full)]
    compare({"num_players": 4, "full_harvest": full}, states)


def test_every_card_in_one_field():
    """65 items (every card loose in field 0, every hand empty, a season to choose): the one field
    whose groups would need a 65th bit; its harvest table is the kernels' constant."""
    from card_envs.games.illimat.cards import cname
    from tests.illimat.test_rules import position

    config = {"num_players": 4}
    game = make_game("illimat_v0", **config)
    state = position(game, hands=[[], [], [], []], fields=[{"loose": [cname(c) for c in range(65)]}],
                     decision="season", move={"field": 0})
    assert len(state.items(0)) == 65
    compare(config, [state])


def test_speed():
    """Kernel time (CPU) per observation, both pieces at once, on random positions: printed, loosely bounded."""
    from card_envs.batch.illimat import pieces

    config = {"num_players": 3}
    states = positions(config, games=4, seed=5, every=2)
    env, _, _ = batched(config, states)
    seats = np.asarray([st.current_player for st in states], np.int64)
    h = np.zeros((len(states), pieces.HARVEST_SIZE), np.float32)
    p = np.zeros((len(states), pieces.PLAY_SIZE), np.float32)
    start = time.process_time()
    for _ in range(5):
        pieces.both_pieces(env.s, env.t, seats, env.memo, h, p)
    per = (time.process_time() - start) / (5 * len(states))
    print(f"\n{per * 1e6:.1f} us per observation (both pieces), {len(states)} positions")
    assert per < 2e-3
