"""Piles snapshots admit only reachable positions (each invariant broken alone by mutating a real
game's snapshot, refused naming the field); copies and the render hide what they must.
The checks every loader shares: tests/envs/test_snapshot_validation.py."""

from __future__ import annotations

import numpy as np
import pytest

from card_envs.core.cards import RANK, card_names, parse_card
from card_envs.games.piles.game import PilesGame
from card_envs.games.piles.rules import COLOUR, NEIGHBOURS, PASS as PILES_PASS
from tests.envs.test_snapshot_validation import refused, snapshots, walk

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


def test_piles_copies_redraw_the_hidden_chance_seed():
    state = snapshots(PILES, 0)[5]
    a = PILES.state_from_json(state)
    b = PILES.state_from_json({**state, "chance_seed": state["chance_seed"] ^ 12345})
    for seat in range(4):
        copy_a = a.determinize(seat, np.random.default_rng(1)).to_json()
        assert copy_a == b.determinize(seat, np.random.default_rng(1)).to_json()
        assert copy_a["chance_seed"] != state["chance_seed"]


# ----- render ---------------------------------------------------------------------------------


def test_piles_render_shows_the_last_move_and_the_winning_team():
    state = next(s for s in walk(PILES, 3) if s.last_move and s.last_move[1] == PILES_PASS)
    seat, _, card = state.last_move
    assert f"player_{seat} passed; player_{(seat + 1) % 4} took {card_names([card])[0]}" in PILES.render(state, 0)
    *_, final = walk(PILES, 3)
    a, b = final.team_points()
    first = PILES.render(final, None).split("\n")[0]
    assert ("draw" if a == b else f"team {int(b > a)} (") in first
