"""3 Piles snapshots admit only reachable positions (each invariant broken alone by mutating a real
game's snapshot, refused naming the field); copies and the render hide what they must.
The checks every loader shares: tests/envs/test_snapshot_validation.py."""

from __future__ import annotations

import numpy as np
import pytest

from card_envs.core.cards import RANK, card_names, parse_card
from card_envs.games.three_piles.game import ThreePilesGame
from card_envs.games.three_piles.rules import PLACE
from tests.envs.test_snapshot_validation import refused, snapshots, walk

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


def test_three_piles_copy_for_a_waiting_seat_offers_the_copys_cards():
    """The regression: the copy kept the real mover's cached legal actions."""
    state = next(s for s in walk(THREE, 0) if s.phase == PLACE)
    state.legal_actions()  # fill the cache
    copy = state.determinize(1 - state.current_player, np.random.default_rng(0))
    assert copy.legal_actions() == THREE.state_from_json(copy.to_json()).legal_actions()
    for action in copy.legal_actions():
        copy.clone().apply(action)




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
