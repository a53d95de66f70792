"""Snapshots of 3 Piles and Piles describe only positions the rules can reach; determinize()
depends only on what the seat knows. The checks every snapshot loader shares, on both games;
each game's own invariants and render are in tests/three_piles/test_snapshots.py and
tests/piles/test_snapshots.py, with these helpers.

Each invariant is tested by mutating a snapshot of a real game so that it breaks that invariant
alone: the loader must refuse it with a ValueError naming the field.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from card_envs.core.cards import card_names, parse_card
from card_envs.games.piles.game import PilesGame
from card_envs.games.piles.rules import PASS as PILES_PASS
from card_envs.games.three_piles.game import ThreePilesGame

GAMES = [ThreePilesGame(num_players=n) for n in (2, 3, 4)] + [PilesGame(num_players=n) for n in (4, 2)]
IDS = ["three_piles-2", "three_piles-3", "three_piles-4", "piles-4", "piles-2"]


def walk(game, seed: int):
    """Every state of one random game (terminal last); Piles passes a third of the time."""
    rng = np.random.default_rng(seed)
    state = game.new_state(rng)
    yield state
    while not state.is_terminal():
        legal = state.legal_actions()
        pass_now = isinstance(game, PilesGame) and rng.random() < 0.3
        state.apply(PILES_PASS if pass_now else legal[rng.integers(len(legal))])
        yield state


def snapshots(game, seed: int, where=lambda state: True) -> list[dict]:
    return [json.loads(json.dumps(s.to_json())) for s in walk(game, seed) if where(s)]


def refused(game, data: dict, *words: str) -> str:
    with pytest.raises(ValueError) as err:
        game.state_from_json(data)
    message = str(err.value)
    assert len(message) < 400, message
    for word in words:
        assert word in message, message
    return message


# ----- every reachable position loads ---------------------------------------------------------
@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_snapshots_of_random_games_load_and_round_trip(game):
    for seed in range(6):
        for data in snapshots(game, seed):
            state = game.state_from_json(data)
            assert state.to_json() == data
            old = {k: v for k, v in data.items() if k != "last_move"}  # format 1: no last move
            old_state = game.state_from_json({**old, "format": 1})
            assert old_state.last_move is None and old_state.legal_actions() == state.legal_actions()
            np.testing.assert_array_equal(old_state.state_tensor(), state.state_tensor())


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_hands_are_listed_in_card_order_and_load_in_any_order(game):
    for data in snapshots(game, 1)[::5]:
        assert all(h == card_names(sorted(map(parse_card, h))) for h in data["hands"])
        shuffled = {**data, "hands": [h[::-1] for h in data["hands"]]}
        assert game.state_from_json(shuffled).to_json() == data


# ----- fields of the wrong type or shape, and hostile input -----------------------------------
def deep(levels=100_000):
    value: list = []
    for _ in range(levels):
        value = [value]
    return value


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_every_field_refuses_wrong_types_deep_nesting_and_huge_values_briefly(game):
    data = snapshots(game, 0)[3]
    game.state_from_json(data)
    hostile = [deep(), "x" * 1_000_000, 10**5000, True, 1.0, None, {"a": 1}, [None] * 10**5]
    for field in data:
        for value in hostile:
            if field == "last_move" and value is None:
                continue  # null: no last move known, always fine
            message = refused(game, {**data, field: value})
            assert field in message or "snapshot" in message, (field, message)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@pytest.mark.parametrize("field, value", [("format", 1.0), ("format", True), ("num_players", "2"),
                                          ("current_player", True), ("current_player", "0")])
def test_numbers_must_be_plain_integers(game, field, value):
    data = snapshots(game, 0)[0]
    refused(game, {**data, field: value}, field)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_a_card_in_a_hand_must_be_a_card_name(game):
    data = snapshots(game, 0)[0]
    data["hands"][1][0] = 5
    refused(game, data, "hands[1][0]", "card name")


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_each_card_exactly_once_naming_where(game):
    data = snapshots(game, 0)[0]
    data["hands"][0][0] = data["hands"][1][0]
    refused(game, data, "hands[1]", "also in hands[0]", "exactly once")



# ----- determinize ----------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_determinize_depends_only_on_what_the_seat_knows(game):
    """Two positions that differ only in what seat p cannot see give the same copy for the same
    rng seed; the copy plays on from its own cards."""
    for seed in range(3):
        for i, state in enumerate(walk(game, seed)):
            if i % 4:
                continue
            for seat in range(game.num_players):
                twin = state.determinize(seat, np.random.default_rng(99))
                mine = state.determinize(seat, np.random.default_rng(seed + i))
                theirs = twin.determinize(seat, np.random.default_rng(seed + i))
                assert mine.to_json() == theirs.to_json()
                rebuilt = game.state_from_json(mine.to_json())
                assert mine.legal_actions() == rebuilt.legal_actions()
                for action in mine.legal_actions():
                    mine.clone().apply(action)

