"""Snapshots of 3 Piles and Piles describe only positions the rules can reach; determinize()
depends only on what the seat knows; the render shows the last move and the winner.

Each invariant is tested by mutating a snapshot of a real game so that it breaks that invariant
alone: the loader must refuse it with a ValueError naming the field.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from card_envs.core.cards import RANK, card_names, parse_card
from card_envs.games.piles.game import PilesGame
from card_envs.games.piles.rules import COLOUR, NEIGHBOURS
from card_envs.games.piles.rules import PASS as PILES_PASS
from card_envs.games.three_piles.game import ThreePilesGame
from card_envs.games.three_piles.rules import DRAW, PLACE

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


# ----- 3 Piles invariants ---------------------------------------------------------------------
THREE = ThreePilesGame()


def three(where) -> dict:
    """A snapshot of a 2-player random game satisfying `where`."""
    for seed in range(40):
        for data in snapshots(THREE, seed):
            if where(data):
                return data
    raise AssertionError("no such position in 40 random games")


def test_three_piles_hand_short_of_three_while_the_deck_lasts():
    data = three(lambda d: d["deck"] and d["phase"] == "choose")
    data["deck"].append(data["hands"][1].pop())
    refused(THREE, data, "hands[1]", "2 cards", "exactly 3")


def test_three_piles_place_phase_without_the_drawn_card():
    data = three(lambda d: d["deck"] and d["phase"] == "choose" and d["current_player"] == 0)
    data["phase"] = "place"
    data["last_move"] = None
    refused(THREE, data, "hands[0]", "3 cards", "exactly 4")


def test_three_piles_no_empty_stack_in_place_phase():
    """A draw needs a card in the deck, so every stack was full a moment ago."""
    data = three(lambda d: d["phase"] == "place")
    data["stacks"][0] = data["stacks"][1] + data["deck"][::-1] + data["stacks"][0]
    data["stacks"][1], data["deck"] = [], []
    refused(THREE, data, "stacks[1]", "empty")


def test_three_piles_passes_need_the_passers_hand_empty():
    """Else a loaded game ends with a full hand."""
    data = three(lambda d: not d["deck"] and d["phase"] == "choose" and d["consecutive_passes"] == 0
                 and d["hands"][1 - d["current_player"]])
    data["consecutive_passes"] = 1
    data["last_move"] = None
    seat = 1 - data["current_player"]
    refused(THREE, data, f"hands[{seat}]", "holds cards")


def test_three_piles_passes_need_no_stack_top_fitting_the_passers_piles():
    data = snapshots(THREE, 0)[-1]  # game over: every seat passed
    assert data["consecutive_passes"] == 2
    seat, pile = next((s, k) for s in (0, 1) for k in range(3) if len(data["piles"][s][k]) > 1)
    data["stacks"][0].append(data["piles"][seat][pile].pop())  # its highest card fits again
    refused(THREE, data, "consecutive_passes", "passed, but the top of stacks[0] fits its pile")


def test_three_piles_passes_only_in_the_choose_phase():
    data = three(lambda d: d["phase"] == "place" and not d["deck"])
    data["consecutive_passes"] = 1
    refused(THREE, data, "consecutive_passes", "phase 'choose'")


def test_three_piles_pile_repeats_no_rank():
    data = three(lambda d: d["piles"][0][0] and any(RANK[parse_card(c)] == RANK[parse_card(d["piles"][0][0][0])]
                                                      for c in d["deck"]))
    low = RANK[parse_card(data["piles"][0][0][0])]
    twin = next(c for c in data["deck"] if RANK[parse_card(c)] == low)
    data["deck"].remove(twin)
    data["piles"][0][0].insert(0, twin)
    refused(THREE, data, "piles[0][0]", "repeats a rank")


@pytest.mark.parametrize("change, words", [
    (lambda d: d["last_move"].update(seat=d["current_player"]), ["last_move.seat"]),
    (lambda d: d["last_move"].update(action="draw", card=None), ["last_move.action", "'draw'"]),
    (lambda d: d["last_move"].update(action="pass", card=None), ["last_move.action", "'pass'"]),
    (lambda d: d["last_move"].update(action="fly away"), ["last_move.action", "not an action"]),
    (lambda d: d["last_move"].update(card=d["hands"][0][0]), ["last_move.card"]),
    (lambda d: d["last_move"].pop("card"), ["last_move", "'card'"]),
], ids=["seat", "draw", "pass", "name", "card", "keys"])
def test_three_piles_last_move_must_have_led_here(change, words):
    data = three(lambda d: d["phase"] == "choose" and d["last_move"] and d["last_move"]["action"].startswith("take"))
    THREE.state_from_json(data)
    change(data)
    refused(THREE, data, *words)


def test_three_piles_unknown_format_and_keys():
    data = snapshots(THREE, 0)[0]
    refused(THREE, {**data, "format": 3}, "format", "[1, 2]")
    refused(THREE, {**data, "format": 1}, "unknown keys", "last_move")  # format 1 has no last move


# ----- Piles invariants -----------------------------------------------------------------------
PILES = PilesGame()


def piles(where, game=PILES) -> dict:
    for seed in range(40):
        for data in snapshots(game, seed):
            if where(data):
                return data
    raise AssertionError("no such position in 40 random games")


def test_piles_passed_card_goes_to_the_other_team_never_the_passers_own():
    """Seat 0 passed on the first turn: team 1 has its card; team 0 cannot (team 1 never moved)."""
    data = piles(lambda d: d["current_player"] == 1 and d["captured"][1] and d["hands"][0].__len__() == 9)
    PILES.state_from_json(data)
    data["captured"][0], data["captured"][1] = data["captured"][1], []
    data["last_move"] = None
    refused(PILES, data, "captured[0]", "team 1 has taken only 0 turns")


def test_piles_castle_pile_order_follows_the_capture_rule():
    """A card of the other colour on a top must have beaten its total value, at least the top's
    rank minus its number of neighbours."""
    def bad_when_reversed(d):
        return any(len(p) == 2 and COLOUR[parse_card(p[0])] != COLOUR[parse_card(p[1])]
                   and RANK[parse_card(p[0])] <= RANK[parse_card(p[1])] - len(NEIGHBOURS[pos])
                   for pos, p in enumerate(d["castle"]))
    data = piles(bad_when_reversed)
    pos = next(pos for pos, p in enumerate(data["castle"]) if len(p) == 2
               and COLOUR[parse_card(p[0])] != COLOUR[parse_card(p[1])]
               and RANK[parse_card(p[0])] <= RANK[parse_card(p[1])] - len(NEIGHBOURS[pos]))
    data["castle"][pos].reverse()
    data["last_move"] = None
    refused(PILES, data, f"castle[{pos}]", "total value")


def test_piles_colours_come_from_a_card_the_team_placed():
    """Only one card was placed, by seat 0: team 0 has its colour, never the other one."""
    data = piles(lambda d: d["current_player"] == 1 and sum(map(len, d["castle"])) == 13)
    data["team_colours"].reverse()
    refused(PILES, data, "team_colours", "no team placed a card of its own colour")


def test_piles_colours_fixed_exactly_when_a_card_was_placed():
    data = piles(lambda d: d["current_player"] == 1 and sum(map(len, d["castle"])) == 13)
    data["team_colours"] = [None, None]
    refused(PILES, data, "team_colours", "first card placed")


def test_piles_set_aside_only_with_two_players():
    data = snapshots(PILES, 0)[0]
    data["set_aside"], data["hands"][3] = data["hands"][3], []
    refused(PILES, data, "set_aside")


def test_piles_chance_seed_in_range():
    data = snapshots(PILES, 0)[0]
    refused(PILES, {**data, "chance_seed": 2**63}, "chance_seed")


@pytest.mark.parametrize("change, words", [
    (lambda d: d["last_move"].update(seat=d["current_player"]), ["last_move.seat"]),
    (lambda d: d["last_move"].update(card=d["castle"][0][0]), ["last_move"]),
    (lambda d: d["last_move"].update(action="pass"), ["last_move.card", "captured"]),
    (lambda d: d["last_move"].update(card=None), ["last_move.card"]),
], ids=["seat", "card", "pass", "no_card"])
def test_piles_last_move_must_have_led_here(change, words):
    data = piles(lambda d: d["last_move"] and d["last_move"]["action"] != "pass" and d["current_player"])
    PILES.state_from_json(data)
    change(data)
    refused(PILES, data, *words)


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


def test_three_piles_copy_for_a_waiting_seat_offers_the_copys_cards():
    """The regression: the copy kept the real mover's cached legal actions."""
    state = next(s for s in walk(THREE, 0) if s.phase == PLACE)
    state.legal_actions()  # fill the cache
    copy = state.determinize(1 - state.current_player, np.random.default_rng(0))
    assert copy.legal_actions() == THREE.state_from_json(copy.to_json()).legal_actions()
    for action in copy.legal_actions():
        copy.clone().apply(action)


def test_piles_copies_redraw_the_hidden_chance_seed():
    state = snapshots(PILES, 0)[5]
    a = PILES.state_from_json(state)
    b = PILES.state_from_json({**state, "chance_seed": state["chance_seed"] ^ 12345})
    for seat in range(4):
        copy_a = a.determinize(seat, np.random.default_rng(1)).to_json()
        assert copy_a == b.determinize(seat, np.random.default_rng(1)).to_json()
        assert copy_a["chance_seed"] != state["chance_seed"]


# ----- render ---------------------------------------------------------------------------------
def test_three_piles_render_shows_the_last_move_but_never_the_drawn_card():
    state = next(s for s in walk(THREE, 2) if s.phase == PLACE)
    drawn = set(state.hands[state.current_player])
    other = 1 - state.current_player
    text = THREE.render(state, other)
    assert f"last move: player_{state.current_player} drew a card" in text
    assert not any(name in text.split("\n")[1] for name in card_names(drawn))
    *_, final = walk(THREE, 2)
    scores = final.scores()
    text = THREE.render(final, None)
    best = [s for s in range(2) if scores[s] == max(scores)]
    assert ("draw" if len(best) == 2 else f"player_{best[0]} wins") in text.split("\n")[0]
    assert "last move: player_" in text and "passed" in text


def test_piles_render_shows_the_last_move_and_the_winning_team():
    state = next(s for s in walk(PILES, 3) if s.last_move and s.last_move[1] == PILES_PASS)
    seat, _, card = state.last_move
    assert f"player_{seat} passed; player_{(seat + 1) % 4} took {card_names([card])[0]}" in PILES.render(state, 0)
    *_, final = walk(PILES, 3)
    a, b = final.team_points()
    first = PILES.render(final, None).split("\n")[0]
    assert ("draw" if a == b else f"team {int(b > a)} (") in first
