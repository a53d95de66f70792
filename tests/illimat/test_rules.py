"""Illimat rules: every rule and example of shared/rules/illimat.md and of the stockpiling text
(shared/seeds/003_*.txt), as scripted scenarios built from JSON positions. Cards are named rank +
suit letter (A = Fool, J = Knight; P spring, S summer, A autumn, W winter, * stars)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import card_envs
from card_envs.core.game import IllegalActionError
from card_envs.games.illimat.cards import LUMINARIES, NUM_ACTIONS, SEASON_NAMES, cname, describe_action, season_of
from card_envs.games.illimat.game import IllimatGame

ACTIONS = {describe_action(a): a for a in range(NUM_ACTIONS)}
GAME2 = IllimatGame()


# ----- helpers --------------------------------------------------------------------------------
def position(game: IllimatGame = GAME2, *, hands, fields=(), summer=0, deck=(), rest="deck", harvest=(),
             secret=(), okus=None, okus_left=None, claimed=(), unused=None, discarded=None, current=0,
             known=(), decision="turn", turn=None, move=None, scores=None, round=0, converged=False):
    """A state from a few facts; every card not named goes to the bottom of the draw pile (or,
    with ``rest=seat``, to that seat's harvest pile), every Luminary not placed is unused.

    fields: up to 4 dicts with ``loose``, ``stockpiles`` [(value, kind, cards)], ``luminary``
    (name, face_up) and ``under`` (the Children's cards)."""
    n = game.num_players
    fields = list(fields) + [{}] * (4 - len(fields))
    fjson, used, placed = [], [], []
    for fd in fields:
        piles = [{"value": v, "kind": k, "cards": list(cs)} for v, k, cs in fd.get("stockpiles", ())]
        lum = fd.get("luminary")
        fjson.append({"loose": list(fd.get("loose", ())), "stockpiles": piles,
                      "luminary": None if lum is None else {"name": lum[0], "face_up": lum[1]},
                      "under_children": list(fd.get("under", ()))})
        used += fjson[-1]["loose"] + [c for p in piles for c in p["cards"]] + fjson[-1]["under_children"]
        placed += [lum[0]] if lum else []
    hands = [list(h) for h in hands] + [[] for _ in range(n - len(hands))]
    harvest = [list(h) for h in harvest] + [[] for _ in range(n - len(harvest))]
    secret = [list(h) for h in secret] + [[] for _ in range(n - len(secret))]
    claimed = [list(c) for c in claimed] + [[] for _ in range(n - len(claimed))]
    used += [c for h in hands for c in h] + [c for h in harvest for c in h] + list(deck)
    rest_cards = [cname(c) for c in range(game.deck_cards) if cname(c) not in used]
    deck = list(deck)
    if rest == "deck":
        deck += rest_cards
    else:
        harvest[rest] += rest_cards
    discarded = discarded or {"face_down": [], "face_up": []}
    placed += [x for c in claimed for x in c] + discarded["face_down"] + discarded["face_up"]
    if unused is None:
        unused = [x for x in LUMINARIES if x not in placed] if game.luminaries else []
    okus = okus or [0] * n
    rake_up = any(fd.get("luminary") == ("Rake", True) for fd in fields)
    data = {
        "game": "illimat", "format": 2, "num_players": n, "round": round, "scores": scores or [0] * n,
        "chance_seed": 7, "current_player": current, "decision": decision,
        "seasons": [SEASON_NAMES[season_of(f, summer)] for f in range(4)],
        "deck": deck, "hands": hands, "known_hand_cards": [list(k) for k in known] + [[]] * (n - len(known)),
        "fields": fjson, "luminaries_unused": list(unused), "luminaries_discarded": discarded,
        "okus_left": n - sum(okus) if okus_left is None else okus_left, "okus": okus, "claimed": claimed,
        "harvest": harvest, "secret": secret,
        "turn": turn or {"main_done": False, "rake_owed": rake_up and decision == "turn", "swap_used": False,
                         "cleared_field": None, "okus_taken": False},
        "move": {"card": None, "field": None, "action": None, "partner": None, "value": None,
                 "items": [], "claim_given": [], "claim_taken": [], "full_harvest": [], **(move or {})},
        "converged": converged,
    }
    return game.state_from_json(json.loads(json.dumps(data)))


def play(state, *names: str):
    for name in names:
        state.apply(ACTIONS[name])
    return state


def legal(state) -> set[str]:
    return {describe_action(a) for a in state.legal_actions()}


def snap(state) -> dict:
    return state.to_json()


def field(state, f: int) -> dict:
    return snap(state)["fields"][f]


def seasons(state) -> list[str]:
    return snap(state)["seasons"]


# ----- set-up ---------------------------------------------------------------------------------
@pytest.mark.parametrize("n, stars, cards, draw", [(2, False, 52, 33), (3, False, 52, 29), (4, False, 65, 38),
                                                    (2, True, 65, 46), (3, True, 65, 42)])
def test_deal(n, stars, cards, draw):
    for seed in range(5):
        state = IllimatGame(num_players=n, stars_always=stars).new_state(np.random.default_rng(seed))
        data = snap(state)
        assert len(data["deck"]) == draw
        assert [len(h) for h in data["hands"]] == [3] + [4] * (n - 1)  # seat 0 left of the dealer: 3
        assert all(len(f["loose"]) == 3 and not f["stockpiles"] for f in data["fields"])
        every = data["deck"] + [c for h in data["hands"] for c in h] + [c for f in data["fields"] for c in f["loose"]]
        assert len(every) == len(set(every)) == cards
        assert any(c.endswith("*") for c in every) == (cards == 65)
        assert data["okus_left"] == n and data["okus"] == [0] * n  # one okus per player
        assert all(f["luminary"] and not f["luminary"]["face_up"] for f in data["fields"])
        assert len(data["luminaries_unused"]) == 4
        assert data["seasons"] == ["summer", "autumn", "winter", "spring"]  # dealt face cards never rotate
        assert state.current_player == 0


def test_beginner_game_has_no_luminaries():
    data = snap(IllimatGame(luminaries=False).new_state(np.random.default_rng(0)))
    assert all(f["luminary"] is None for f in data["fields"]) and data["luminaries_unused"] == []


def test_first_player_draws_after_playing_and_play_passes_left():
    state = IllimatGame(num_players=3).new_state(np.random.default_rng(1))
    deck = len(state.deck)
    card = state.hands[0][0]
    play(state, f"card {cname(card)}", "field 0", "sow")  # field 0 is Summer: sowing is allowed
    assert len(state.hands[0]) == 4 and len(state.deck) == deck - 2
    assert state.current_player == 1


# ----- seasons --------------------------------------------------------------------------------
SEASON_FIELDS = [{"loose": ["4P", "5P"]}, {"loose": ["4A", "5A"]}, {"loose": ["4W", "5W"]},
                 {"loose": ["2P", "3S", "4S"]}]


@pytest.mark.parametrize("f, expected", [(0, {"sow", "harvest", "stockpile"}),  # Summer: anything goes
                                         (1, {"harvest", "stockpile"}),  # Autumn: no sow
                                         (2, {"sow", "stockpile"}),  # Winter: no harvest
                                         (3, {"sow", "harvest"})])  # Spring: no stockpile
def test_each_season_forbids_its_action(f, expected):
    state = position(hands=[["5S", "9P", "2A", "3W"], ["6P"]], fields=SEASON_FIELDS)
    assert seasons(state)[f] == ["summer", "autumn", "winter", "spring"][f]
    assert legal(play(state, "card 5S", f"field {f}")) == expected


def test_the_maiden_allows_harvesting_in_winter_wherever_she_sits():
    fields = [dict(fd) for fd in SEASON_FIELDS]
    fields[3]["luminary"] = ("Maiden", True)
    state = position(hands=[["5S", "9P", "2A", "3W"], ["6P"]], fields=fields)
    assert legal(play(state, "card 5S", "field 2")) == {"sow", "harvest", "stockpile"}


def test_sowing_into_a_fallow_field_and_an_autumn_field_only_when_something_else_works():
    state = position(hands=[["2S", "3S", "9P", "4W"], ["6P"]], fields=[{}, {"loose": ["KP"]}])
    play(state, "card 2S")
    assert "field 0" in legal(state) and "field 1" not in legal(state)  # Autumn K: no sow, no harvest
    play(state, "field 0")
    assert legal(state) == {"sow"}
    play(state, "sow")
    assert field(state, 0)["loose"] == ["2S"]


def test_a_face_card_turns_the_illimat_to_its_season_after_the_play():
    # King of Autumn harvests 10 + 3 in the Summer field, which then becomes Autumn.
    state = position(hands=[["KA", "2P", "3P", "4P"], ["6P"]], fields=[{"loose": ["10P", "3S"]}])
    play(state, "card KA", "field 0", "harvest", "card 10P", "card 3S", "done")
    assert seasons(state) == ["autumn", "winter", "spring", "summer"]  # Summer stays opposite Winter
    state = position(hands=[["QW", "2P", "3P", "4P"], ["6P"]])
    play(state, "card QW", "field 0", "sow")
    assert seasons(state)[0] == "winter" and seasons(state)[2] == "summer"
    state = position(hands=[["2P", "3P", "4P", "5P"], ["6P"]])  # not a face card: no rotation
    play(state, "card 2P", "field 0", "sow")
    assert seasons(state) == ["summer", "autumn", "winter", "spring"]


def test_a_stars_face_card_lets_the_player_choose_the_season_current_one_included():
    game = IllimatGame(num_players=4)
    state = position(game, hands=[["J*", "2P", "3P", "4P"], ["6P"], ["7P"], ["8P"]])
    play(state, "card J*", "field 3", "sow")
    assert legal(state) == {f"season {s}" for s in SEASON_NAMES} and state.current_player == 0
    play(state, "season winter")
    assert seasons(state)[3] == "winter" and seasons(state)[1] == "summer" and state.current_player == 1
    state = position(game, hands=[["Q*", "2P", "3P", "4P"], ["6P"], ["7P"], ["8P"]])
    play(state, "card Q*", "field 3", "sow", "season spring")  # field 3 is already Spring: allowed
    assert seasons(state) == ["summer", "autumn", "winter", "spring"]


def test_the_forest_queen_face_up_stops_all_rotation():
    game = IllimatGame(num_players=4)
    fq = {"luminary": ("Forest Queen", True)}
    state = position(game, hands=[["J*", "KW", "3P", "4P"], ["6P"], ["7P"], ["8P"]], fields=[fq])
    play(state, "card J*", "field 0", "sow")  # no season decision
    assert state.current_player == 1 and seasons(state) == ["summer", "autumn", "winter", "spring"]
    state = position(game, hands=[["KW", "3P", "4P", "5P"], ["6P"], ["7P"], ["8P"]], fields=[fq])
    play(state, "card KW", "field 0", "sow")
    assert seasons(state) == ["summer", "autumn", "winter", "spring"]


# ----- harvesting -----------------------------------------------------------------------------
def test_a_five_takes_a_five_two_plus_three_and_fool_plus_four_in_one_play():
    state = position(hands=[["5S", "9P", "9A", "9W"], ["6P"]],
                     fields=[{"loose": ["5P", "2W", "3A", "AP", "4S"]}])
    play(state, "card 5S", "field 0", "harvest")
    # items come in ascending card index: AP 0, 5P 4, 4S 16, 3A 28, 2W 40; a first pick is the lowest
    # card of the set taken, so the 4 (needing the Fool) and the 2 (needing the 3) cannot come first
    assert legal(state) == {"card AP", "card 5P", "card 3A"}
    play(state, "card AP")
    assert legal(state) == {"card 5P", "card 4S"}  # not done: the Fool needs the 4
    play(state, "card 5P")
    assert legal(state) == {"card 4S"}
    play(state, "card 4S")
    assert legal(state) == {"card 3A", "done"}  # taking every possible group is optional
    play(state, "card 3A")
    assert legal(state) == {"card 2W"}
    play(state, "card 2W", "done")
    assert sorted(snap(state)["harvest"][0]) == sorted(["5S", "5P", "2W", "3A", "AP", "4S"])
    assert snap(state)["okus"] == [1, 0] and len(field(state, 0)["loose"]) == 3  # cleared: okus, refill


def test_items_are_only_offered_when_the_harvest_can_still_be_completed():
    state = position(hands=[["6S", "9P", "9A", "9W"], ["6P"]], fields=[{"loose": ["2P", "4A", "5W", "3W"]}])
    play(state, "card 6S", "field 0", "harvest")
    assert legal(state) == {"card 2P"}  # 2+4 (the 4 comes after the 2); 5 and 3 make no 6 with anything
    play(state, "card 2P")
    assert legal(state) == {"card 4A"}  # "done" with the 2 alone would not be a group of 6


def test_a_fool_is_one_or_fourteen_chosen_for_the_whole_harvest():
    state = position(hands=[["AS", "9P", "9A", "9W"], ["6P"]], fields=[{"loose": ["AW", "KP", "3S"]}])
    play(state, "card AS", "field 0", "harvest")
    assert legal(state) == {"value 1", "value 14"}
    one = play(state.clone(), "value 1")
    assert legal(one) == {"card AW"}
    fourteen = play(state.clone(), "value 14")
    assert legal(fourteen) == {"card KP", "card AW"}  # K + Fool(1), or the Fool alone as 14
    play(fourteen, "card KP", "card AW", "done")
    assert sorted(snap(fourteen)["harvest"][0]) == ["AS", "AW", "KP"]


def test_a_single_stockpile_of_ten_plus_a_loose_four_harvested_by_a_fourteen():
    fields = [{"loose": ["4S"], "stockpiles": [(10, "single", ["6A", "4W"])]}]
    state = position(hands=[["AS", "KP", "9A", "9W"], ["6P"]], fields=fields)
    play(state, "card AS", "field 0", "harvest")
    assert legal(state) == {"value 14"}
    play(state, "value 14")
    assert legal(state) == {"card 4S"}  # 4S (16) before the stockpile, whose key (lowest card) is 6A (31)
    play(state, "card 4S")
    assert legal(state) == {"card 6A"}  # the stockpile, named by its key card
    play(state, "card 6A", "done")
    assert sorted(snap(state)["harvest"][0]) == sorted(["AS", "4S", "6A", "4W"])
    # a King (13) cannot: 10 + 4 = 14, and the stockpile cannot be split
    state = position(hands=[["KS", "2P", "9A", "9W"], ["6P"]], fields=fields)
    assert "harvest" not in legal(play(state, "card KS", "field 0"))


def test_a_multiple_stockpile_is_harvested_only_on_its_own_by_its_exact_value():
    fields = [{"loose": ["4W"], "stockpiles": [(10, "multiple", ["10P", "3S", "7A"])]}]
    state = position(hands=[["AS", "10W", "9A", "9P"], ["6P"]], fields=fields)
    # "you cannot use a Fool from your hand to harvest a four and a multiple stockpile of tens"
    assert "harvest" not in legal(play(state.clone(), "card AS", "field 0"))
    play(state, "card 10W", "field 0", "harvest")
    assert legal(state) == {"card 10P"}  # the stockpile (key 10P); the 4 makes no 10
    play(state, "card 10P", "done")
    assert sorted(snap(state)["harvest"][0]) == sorted(["10W", "10P", "3S", "7A"])
    assert field(state, 0)["loose"] == ["4W"]


# ----- stockpiling ----------------------------------------------------------------------------
def test_four_plus_two_plus_three_bundled_with_a_loose_nine_makes_a_multiple_stockpile():
    state = position(hands=[["4W", "9S", "2A", "KA"], ["6P"]], fields=[{"loose": ["2P", "3S", "9A"]}])
    assert legal(play(state.clone(), "card 4W", "field 0", "stockpile")) == {"value 9", "value 13"}  # 4 + 9 = K
    state = position(hands=[["4W", "9S", "2A", "3A"], ["6P"]], fields=[{"loose": ["2P", "3S", "9A"]}])
    play(state, "card 4W", "field 0", "stockpile")
    assert legal(state) == {"value 9"}  # the passive 9
    play(state, "value 9", "card 2P", "card 3S")
    assert legal(state) == {"card 9A", "done"}  # a single stockpile of 9, or bundle the loose 9
    play(state, "card 9A", "done")
    assert field(state, 0) == {"loose": [], "stockpiles": [{"value": 9, "kind": "multiple",
                                                          "cards": ["2P", "3S", "9A", "4W"]}],
                               "luminary": None, "under_children": []}
    assert "9S" in snap(state)["hands"][0]  # the passive card stays in hand
    assert state.current_player == 1  # the turn is over: no harvest of it in the same action


def test_a_stockpile_needs_a_passive_card_of_its_value():
    state = position(hands=[["5S", "2P", "3A", "KA"], ["6P"]], fields=[{"loose": ["4P"]}])
    assert "stockpile" not in legal(play(state, "card 5S", "field 0"))  # 9 needs a 9 in hand
    state = position(hands=[["5S", "9P"], ["6P"]], fields=[{"loose": ["4P"]}])
    assert "stockpile" in legal(play(state, "card 5S", "field 0"))
    state = position(hands=[["9S", "2P"], ["6P"]], fields=[{"loose": ["9P"]}])
    assert "stockpile" not in legal(play(state, "card 9S", "field 0"))  # the active card is not passive


def test_an_active_fool_counts_one_and_a_passive_fool_covers_fourteen():
    state = position(hands=[["AS", "6W", "KA", "2P"], ["6P"]], fields=[{"loose": ["5P"]}])
    play(state, "card AS", "field 0", "stockpile")
    assert legal(state) == {"value 6"}  # 1 + 5 = 6; the Fool as 14 would exceed 14
    state = position(hands=[["10S", "AW", "2A", "3A"], ["6P"]], fields=[{"loose": ["4P"]}])
    play(state, "card 10S", "field 0", "stockpile")
    assert legal(state) == {"value 14"}
    play(state, "value 14", "card 4P", "done")
    assert field(state, 0)["stockpiles"] == [{"value": 14, "kind": "single", "cards": ["4P", "10S"]}]


def test_raising_a_single_stockpile_and_turning_it_multiple():
    single10 = (10, "single", ["6A", "4W"])
    # 10 + active 3 = a single 13, holding a King
    state = position(hands=[["3S", "KA", "2A", "5A"], ["6P"]], fields=[{"stockpiles": [single10]}])
    play(state, "card 3S", "field 0", "stockpile", "value 13", "card 6A", "done")
    assert field(state, 0)["stockpiles"] == [{"value": 13, "kind": "single", "cards": ["3S", "6A", "4W"]}]
    # 10 + active 10 = a multiple stockpile of tens
    state = position(hands=[["10S", "10A", "2A", "5A"], ["6P"]], fields=[{"stockpiles": [single10]}])
    play(state, "card 10S", "field 0", "stockpile", "value 10", "card 6A", "done")
    assert field(state, 0)["stockpiles"] == [{"value": 10, "kind": "multiple", "cards": ["10S", "6A", "4W"]}]
    # tens x 2 + active 10 = tens x 3
    multiple = (10, "multiple", ["10P", "3S", "7A"])
    state = position(hands=[["10S", "10A", "2A", "5A"], ["6P"]], fields=[{"stockpiles": [multiple]}])
    play(state, "card 10S", "field 0", "stockpile", "value 10", "card 10P", "done")
    assert field(state, 0)["stockpiles"] == [{"value": 10, "kind": "multiple",
                                             "cards": ["10P", "3S", "10S", "7A"]}]


def test_a_multiple_stockpile_only_grows_by_sets_of_its_value():
    multiple = (10, "multiple", ["10P", "3S", "7A"])
    # a 4 cannot make it 14, even holding a Fool (14)
    state = position(hands=[["4S", "AW", "2A", "5A"], ["6P"]], fields=[{"stockpiles": [multiple]}])
    assert "stockpile" not in legal(play(state, "card 4S", "field 0"))
    # resolution 6: active 3 + a loose 7 is a new set of 10
    state = position(hands=[["3W", "10A", "2A", "5A"], ["6P"]],
                     fields=[{"loose": ["7S"], "stockpiles": [multiple]}])
    play(state, "card 3W", "field 0", "stockpile", "value 10")
    assert legal(state) == {"card 10P", "card 7S"}  # the stockpile (key 10P) and a new set 3 + 7
    play(state, "card 10P", "card 7S", "done")
    assert field(state, 0)["stockpiles"] == [{"value": 10, "kind": "multiple",
                                             "cards": ["10P", "3S", "7S", "7A", "3W"]}]


def test_no_stockpile_above_fourteen_even_with_the_union():
    union = {"luminary": ("Union", True), "loose": ["8A"]}
    state = position(hands=[["7P", "JS"], ["6P"]], fields=[union])
    assert legal(play(state, "card 7P", "field 0")) == {"sow"}  # 7 + 8 = 15: no passive can cover it
    state = position(hands=[["7P", "JS"], ["6P"]], fields=[{"luminary": ("Union", True), "loose": ["8A", "10W"]}])
    play(state, "card 7P", "field 0")
    assert legal(state) == {"sow", "harvest"}  # the Union's 7 + Knight = 18 harvests, never stockpiles
    state = position(hands=[["7P", "JS", "AW"], ["6P"]], fields=[{"luminary": ("Union", True),
                                                                  "loose": ["7A", "8W"]}])
    play(state, "card 7P", "field 0", "stockpile")
    assert legal(state) == {"value 14"}  # the passive Fool: 7 + 7; the Knight would need a 4
    play(state, "value 14")
    assert legal(state) == {"card 7A"}  # 7 + 8 = 15: never


# ----- clearing -------------------------------------------------------------------------------
def test_clearing_order_okus_then_refill_then_reveal_after_the_draw():
    state = position(hands=[["5S", "2P", "3P", "6P"], ["7P"]], deck=["7S", "8S", "9S", "10S"],
                     fields=[{"loose": ["5P"], "luminary": ("Maiden", False)}])
    play(state, "card 5S", "field 0", "harvest", "card 5P", "done")
    data = snap(state)
    assert "7S" in data["hands"][0]  # the draw-up comes first
    assert data["okus"] == [1, 0] and data["okus_left"] == 1
    assert data["fields"][0]["loose"] == ["8S", "9S", "10S"]  # refilled with 3
    assert data["fields"][0]["luminary"] == {"name": "Maiden", "face_up": True}  # then revealed
    assert state.current_player == 1


def test_a_second_clear_claims_the_face_up_luminary_with_an_okus_and_refills():
    state = position(hands=[["5S", "2P", "3P", "6P"], ["7P"]], deck=["7S", "8S", "9S", "10S"],
                     fields=[{"loose": ["5P"], "luminary": ("Maiden", True)}])
    play(state, "card 5S", "field 0", "harvest", "card 5P", "done")
    data = snap(state)
    assert data["claimed"] == [["Maiden"], []] and data["okus"] == [1, 0]  # both in one clear
    assert data["fields"][0] == {"loose": ["8S", "9S", "10S"], "stockpiles": [], "luminary": None,
                                 "under_children": []}


def test_no_okus_and_a_claim_leaves_the_field_fallow():
    state = position(hands=[["5S", "2P", "3P", "6P"], ["7P"]], okus=[1, 1],
                     fields=[{"loose": ["5P"], "luminary": ("Maiden", True)}])
    play(state, "card 5S", "field 0", "harvest", "card 5P", "done")
    data = snap(state)
    assert data["claimed"][0] == ["Maiden"] and data["okus"] == [1, 1]
    assert data["fields"][0]["loose"] == []  # fallow until someone sows
    state = position(hands=[["5S", "2P", "3P", "6P"], ["7P"]], okus=[1, 1], fields=[{"loose": ["5P"]}])
    play(state, "card 5S", "field 0", "harvest", "card 5P", "done")
    assert field(state, 0)["loose"] == []


def test_a_short_draw_pile_discards_the_face_down_luminary():
    state = position(hands=[["5S", "2P", "3P", "6P"], ["7P"]], deck=["7S", "8S", "9S"], rest=1,
                     fields=[{"loose": ["5P"], "luminary": ("River", False)}])
    play(state, "card 5S", "field 0", "harvest", "card 5P", "done")  # draws 7S: 2 left < 3
    data = snap(state)
    assert data["fields"][0]["loose"] == [] and data["fields"][0]["luminary"] is None
    assert data["luminaries_discarded"] == {"face_down": ["River"], "face_up": []}
    assert data["okus"] == [1, 0]


# ----- Luminaries -----------------------------------------------------------------------------
def test_changeling_swap_once_per_turn_before_or_after_the_play_without_rotation():
    fields = [{}, {"luminary": ("Changeling", True), "loose": ["KW", "2S"]}]
    state = position(hands=[["2P", "3P", "4P", "5P"], ["7P"]], fields=fields)
    assert legal(state) == {"card 2P", "card 3P", "card 4P", "card 5P", "changeling swap"}
    play(state, "changeling swap")
    assert legal(state) == {"card 2P", "card 3P", "card 4P", "card 5P"}
    play(state, "card 2P")
    assert legal(state) == {"card KW", "card 2S"}
    play(state, "card KW")
    data = snap(state)
    assert "KW" in data["hands"][0] and data["known_hand_cards"][0] == ["KW"]
    assert data["fields"][1]["loose"] == ["2P", "2S"] and data["seasons"][1] == "autumn"  # no rotation
    assert "changeling swap" not in legal(state)  # once per turn
    play(state, "card 3P", "field 0", "sow")
    assert state.current_player == 1
    # ... or after the play, before the draw-up
    state = position(hands=[["2P", "3P", "4P", "5P"], ["7P"]], fields=fields)
    play(state, "card 3P", "field 0", "sow")
    assert legal(state) == {"changeling swap", "done"} and len(state.hands[0]) == 3
    play(state, "changeling swap", "card 2P", "card 2S")
    assert state.current_player == 1 and "2S" in snap(state)["hands"][0]


def test_changeling_swap_excludes_stockpiles_and_the_swapped_card_is_public():
    fields = [{}, {"luminary": ("Changeling", True), "stockpiles": [(9, "single", ["4S", "5S"])]}]
    state = position(hands=[["2P", "3P", "4P", "5P"], ["7P"]], fields=fields)
    assert "changeling swap" not in legal(state)
    fields = [{}, {"luminary": ("Changeling", True), "loose": ["KW"]}]
    state = position(hands=[["2P", "3P", "4P", "5P"], ["7P", "8P", "9P", "10P"]], fields=fields)
    play(state, "changeling swap", "card 2P", "card KW")
    game = state.game
    view = game.observation_layout.views(state.observation(1))
    assert view["known_hands"][0][51] == 1 and view["unseen"][51] == 0  # KW (index 51) in seat 0's hand
    other = state.determinize(1, np.random.default_rng(0))
    assert "KW" in snap(other)["hands"][0]


def test_changeling_claim_swaps_up_to_two_hand_cards_with_loose_cards_anywhere():
    fields = [{"loose": ["5P"], "luminary": ("Changeling", True)}, {"loose": ["KW"]}, {"loose": ["QS", "9A"]}]
    state = position(hands=[["5S", "2P", "3P", "6P"], ["7P"]], okus=[1, 1], fields=fields, deck=["8W"])
    play(state, "card 5S", "field 0", "harvest", "card 5P", "done")  # draws 8W first
    assert snap(state)["claimed"][0] == ["Changeling"] and state.current_player == 0
    assert legal(state) == {"card 2P", "card 3P", "card 6P", "card 8W", "done"}
    play(state, "card 2P")
    assert legal(state) == {"card KW", "card QS", "card 9A"}
    play(state, "card KW")
    assert field(state, 1)["loose"] == ["2P"] and seasons(state)[1] == "autumn"  # no rotation
    assert legal(state) == {"card 3P", "card 6P", "card 8W", "done"}  # KW, just taken, cannot go back
    play(state, "card 3P")
    assert legal(state) == {"card QS", "card 9A"}  # 2P, just given, cannot be taken back
    play(state, "card QS")
    assert state.current_player == 1  # two swaps at most
    assert sorted(snap(state)["hands"][0]) == sorted(["KW", "QS", "6P", "8W"])


def test_river_reveal_gives_six_cards_and_her_claim_turns_frostbit_into_two_points():
    deck = ["7S", "8S", "9S", "10S", "JS", "QS", "KS"]
    state = position(hands=[["5S", "2P", "3P", "6P"], ["7P"]], deck=deck,
                     fields=[{"loose": ["5P"], "luminary": ("River", False)}])
    play(state, "card 5S", "field 0", "harvest", "card 5P", "done")
    assert field(state, 0)["loose"] == sorted(["8S", "9S", "10S", "JS", "QS", "KS"], key=lambda c: ACTIONS[f"card {c}"])
    # too few cards for her 3 extra cards: discarded (she was revealed)
    state = position(hands=[["5S", "2P", "3P", "6P"], ["7P"]], deck=["7S", "8S", "9S", "10S", "JS"], rest=1,
                     fields=[{"loose": ["5P"], "luminary": ("River", False)}])
    play(state, "card 5S", "field 0", "harvest", "card 5P", "done")
    assert field(state, 0)["loose"] == ["8S", "9S", "10S"] and field(state, 0)["luminary"] is None
    assert snap(state)["luminaries_discarded"]["face_up"] == ["River"]
    # claim: Frostbit gives +2 instead of -2
    state = position(hands=[["2P"], ["3P"]], harvest=[["2W", "3W"], ["4W"]], claimed=[["River"], []])
    points = state.round_points()
    assert points[0]["frostbit"] == 2 and points[1]["frostbit"] == 0


def test_children_reveal_hides_three_cards_and_the_claim_adds_them_secretly():
    deck = ["7S", "8S", "9S", "10S", "JS", "QS", "KS", "2A"]
    state = position(hands=[["5S", "2P", "3P", "6P"], ["7P", "8P", "9P", "10P"]], deck=deck,
                     fields=[{"loose": ["5P"], "luminary": ("Children", False)}])
    play(state, "card 5S", "field 0", "harvest", "card 5P", "done")
    data = snap(state)
    assert data["fields"][0]["loose"] == ["8S", "9S", "10S"]
    assert sorted(data["fields"][0]["under_children"]) == sorted(["JS", "QS", "KS"])
    game = state.game
    for seat in (0, 1):
        view = game.observation_layout.views(state.observation(seat))
        assert view["children_count"][0] == 1 and view["unseen"][[23, 24, 25]].all()  # nobody sees them
    # claim: the cards join the claimer's harvest pile, secret to the others
    fields = [{"loose": ["5P"], "luminary": ("Children", True), "under": ["JS", "QS", "KS"]}]
    state = position(hands=[["5S", "2P", "3P", "6P"], ["7P", "8P", "9P", "10P"]], okus=[1, 1], fields=fields)
    play(state, "card 5S", "field 0", "harvest", "card 5P", "done")
    data = snap(state)
    assert sorted(data["harvest"][0]) == sorted(["5S", "5P", "JS", "QS", "KS"])
    assert sorted(data["secret"][0]) == sorted(["JS", "QS", "KS"])
    own = game.observation_layout.views(state.observation(0))["harvested"][0]
    theirs = game.observation_layout.views(state.observation(1))["harvested"][1]
    assert round(own[0] * 65) == round(theirs[0] * 65) == 5  # the total is public
    assert round(own[1] * 13) == 4 and round(theirs[1] * 13) == 1  # Summer: only 5S is public
    assert state.round_points()[0]["bumper_crop"] == 4


def test_forest_queen_reveal_makes_her_field_summer_and_her_claim_turns_the_illimat():
    state = position(hands=[["5S", "2P", "3P", "6P"], ["7P"]], deck=["7S", "8S", "9S", "10S"],
                     fields=[{}, {}, {}, {"loose": ["5P"], "luminary": ("Forest Queen", False)}])
    play(state, "card 5S", "field 3", "harvest", "card 5P", "done")
    assert seasons(state)[3] == "summer" and field(state, 3)["luminary"]["face_up"]
    fields = [{}, {}, {}, {"loose": ["5P"], "luminary": ("Forest Queen", True)}]
    state = position(hands=[["5S", "2P", "3P", "6P"], ["7P"]], okus=[1, 1], fields=fields, summer=3)
    play(state, "card 5S", "field 3", "harvest", "card 5P", "done")
    assert state.current_player == 0 and legal(state) == {f"season {s}" for s in SEASON_NAMES}
    play(state, "season winter")
    assert seasons(state)[3] == "winter" and seasons(state)[1] == "summer" and state.current_player == 1


def test_rake_sow_each_turn_into_her_field_whatever_the_season():
    rake = {"luminary": ("Rake", True), "loose": ["2W"]}  # field 1: Autumn
    state = position(hands=[["2P", "3P", "4P", "KW"], ["7P", "8P"]], fields=[{}, rake])
    assert legal(state) == {"card 2P", "card 3P", "card 4P", "card KW", "rake sow"}
    play(state, "card 2P", "field 0", "sow")
    assert legal(state) == {"rake sow"}  # not done before the Rake sow
    play(state, "rake sow")
    assert legal(state) == {"card 3P", "card 4P", "card KW"}
    play(state, "card KW")  # a face card: the Rake's field takes Winter
    assert "KW" in field(state, 1)["loose"] and seasons(state)[1] == "winter"
    assert state.current_player == 1 and len(state.hands[0]) == 4
    # with one card, the Rake sow is the play
    state = position(hands=[["2P"], ["7P", "8P"]], fields=[{}, rake])
    assert legal(state) == {"rake sow"}
    play(state, "rake sow", "card 2P")
    assert state.current_player == 1 and "2P" in field(state, 1)["loose"]
    # a Union harvest may not use both cards when the Rake sow is owed with two cards
    fields = [{"luminary": ("Union", True), "loose": ["8A", "10W"]}, rake]
    state = position(hands=[["7P", "JS"], ["7S"]], fields=fields)
    assert legal(play(state, "card 7P", "field 0")) == {"sow"}


def test_rake_claim_takes_a_summer_card_from_every_other_player_non_fool_first():
    game = IllimatGame(num_players=3)
    fields = [{"loose": ["5P"], "luminary": ("Rake", True)}]
    state = position(game, hands=[["5S", "2P", "3P", "6P"], ["7P"], ["8P"]], okus=[1, 1, 1], fields=fields,
                     harvest=[[], ["AS", "9S", "4W"], ["2W"]])
    play(state, "rake sow", "card 2P", "card 5S", "field 0", "harvest")  # the Rake sow first
    assert legal(state) == {"card 5P"}  # 5 takes the loose 5 (the sown 2 stays)
    play(state, "card 5P", "done")
    data = snap(state)
    assert data["claimed"][0] == []  # the Rake's field still holds the sown 2: not cleared
    state = position(game, hands=[["5S", "2P", "3P", "6P"], ["7P"], ["8P"]], okus=[1, 1, 1], fields=fields,
                     harvest=[[], ["AS", "9S", "4W"], ["2W"]])
    play(state, "card 5S", "field 0", "harvest", "card 5P", "done")  # cleared before the Rake sow
    assert legal(state) == {"rake sow"}
    play(state, "rake sow", "card 2P")
    data = snap(state)
    assert data["claimed"][0] == ["Rake"]  # the harvest emptied the field: cleared at the end of the turn
    assert sorted(data["harvest"][0]) == sorted(["5S", "5P", "9S"])  # the 9 of Summer, not the Fool
    assert sorted(data["harvest"][1]) == sorted(["AS", "4W"]) and data["harvest"][2] == ["2W"]
    assert data["fields"][0]["loose"] == ["2P"]  # the sown card stays; no okus: no refill


def test_union_harvest_with_two_cards_and_two_face_cards_rotate_in_order():
    union = {"luminary": ("Union", True), "loose": ["8A", "10W"]}
    state = position(hands=[["7P", "JS", "2A", "4A"], ["7S"]], fields=[union])
    play(state, "card 7P", "field 0", "harvest")
    assert legal(state) == {"card JS"}  # 7 alone takes nothing; 7 + Knight = 18 takes 8 + 10
    play(state, "card JS", "card 8A", "card 10W", "done")
    data = snap(state)
    assert sorted(data["harvest"][0]) == sorted(["7P", "JS", "8A", "10W"])
    assert len(data["hands"][0]) == 4 and seasons(state)[0] == "summer"  # drew 2; Knight of Summer
    for first, second, season in (("QW", "KA", "autumn"), ("KA", "QW", "winter")):
        union = {"luminary": ("Union", True), "loose": ["KP", "QP"]}
        state = position(hands=[["QW", "KA", "2A", "3A"], ["7S"]], fields=[union])
        play(state, f"card {first}", "field 0", "harvest", f"card {second}", "card QP", "card KP", "done")
        assert seasons(state)[0] == season  # the last face card's rotation sticks


def test_union_with_a_fool_offers_every_total():
    union = {"luminary": ("Union", True), "loose": ["AP", "7A", "KW"]}
    state = position(hands=[["AS", "7W", "2A", "3A"], ["7S"]], fields=[union])
    play(state, "card AS", "field 0", "harvest", "card 7W")
    assert legal(state) == {"value 8", "value 21"}  # 1 + 7 (7A + AP as 1), 14 + 7 (7A + KW + AP as 1)


def test_newborn_reveals_the_opposite_luminary_with_its_cards():
    deck = ["7S", "8S", "9S", "10S", "JS", "QS", "KS"]
    fields = [{"loose": ["5P"], "luminary": ("Newborn", False)}, {}, {"loose": ["2W"], "luminary": ("Maiden", False)}]
    state = position(hands=[["5S", "2P", "3P", "6P"], ["7P"]], deck=deck, fields=fields)
    play(state, "card 5S", "field 0", "harvest", "card 5P", "done")
    data = snap(state)
    assert data["fields"][0]["luminary"] == {"name": "Newborn", "face_up": True}
    assert data["fields"][2]["luminary"] == {"name": "Maiden", "face_up": True}
    assert data["fields"][2]["loose"] == sorted(["2W", "JS", "QS", "KS"], key=lambda c: ACTIONS[f"card {c}"])
    # the opposite Luminary was claimed: the next unused one is dealt there and revealed
    fields = [{"loose": ["5P"], "luminary": ("Newborn", False)}, {}, {"loose": ["2W"]}]
    state = position(hands=[["5S", "2P", "3P", "6P"], ["7P"]], deck=deck + ["2S", "3S", "4S"], fields=fields,
                     claimed=[[], ["Maiden"]], unused=["River", "Rake", "Union", "Children", "Changeling",
                                                        "Forest Queen"])
    play(state, "card 5S", "field 0", "harvest", "card 5P", "done")
    data = snap(state)
    assert data["fields"][2]["luminary"] == {"name": "River", "face_up": True}
    assert len(data["fields"][2]["loose"]) == 1 + 6  # 3 cards and the River's 3 more
    # already face up: no effect
    fields = [{"loose": ["5P"], "luminary": ("Newborn", False)}, {}, {"loose": ["2W"], "luminary": ("Maiden", True)}]
    state = position(hands=[["5S", "2P", "3P", "6P"], ["7P"]], deck=deck, fields=fields)
    play(state, "card 5S", "field 0", "harvest", "card 5P", "done")
    assert field(state, 2)["loose"] == ["2W"]


def test_luminaries_are_never_items():
    state = position(hands=[["5S", "2P", "3P", "6P"], ["7P"]], fields=[{"loose": [], "luminary": ("Maiden", True)}])
    play(state, "card 5S")
    assert "field 0" in legal(state)
    assert legal(play(state, "field 0")) == {"sow"}


# ----- scoring --------------------------------------------------------------------------------
def points(state, key):
    return [p[key] for p in state.round_points()]


def test_scoring_categories():
    state = position(hands=[["2P"], ["3P"]], okus=[1, 1], claimed=[["Maiden"], []],
                     harvest=[["AS", "5S", "6S", "2W"], ["AP", "3W", "4W"]])
    assert points(state, "bumper_crop") == [4, 0] and points(state, "sunkissed") == [2, 0]
    assert points(state, "frostbit") == [0, -2] and points(state, "fools") == [1, 1]
    assert points(state, "luminaries") == [1, 0] and points(state, "okus") == [1, 1]
    assert points(state, "total") == [4 + 2 + 1 + 1 + 1, -2 + 1 + 1]


def test_bumper_crop_and_sunkissed_ties_go_to_the_most_luminaries_else_nobody():
    harvest = [["5S", "6P"], ["6S", "7P"]]
    state = position(hands=[["2P"], ["3P"]], harvest=harvest, claimed=[["Maiden"], []])
    assert points(state, "bumper_crop") == [4, 0] and points(state, "sunkissed") == [2, 0]
    state = position(hands=[["2P"], ["3P"]], harvest=harvest, claimed=[["Maiden"], ["River"]])
    assert points(state, "bumper_crop") == [0, 0] and points(state, "sunkissed") == [0, 0]
    game = IllimatGame(num_players=3)  # three tied, two with one Luminary: still nobody
    state = position(game, hands=[["2P"], ["3P"], ["4P"]], harvest=harvest + [["7S", "8P"]],
                     claimed=[["Maiden"], ["River"], []])
    assert points(state, "bumper_crop") == [0, 0, 0]


def test_frostbit_tie_penalises_the_unique_fewest_luminaries_else_nobody():
    harvest = [["5W"], ["6W"]]
    state = position(hands=[["2P"], ["3P"]], harvest=harvest, claimed=[["Maiden"], []])
    assert points(state, "frostbit") == [0, -2]
    state = position(hands=[["2P"], ["3P"]], harvest=harvest)
    assert points(state, "frostbit") == [0, 0]


def test_zero_counts_score_nobody():
    state = position(hands=[["2P"], ["3P"]], harvest=[["5P"], []])
    assert points(state, "sunkissed") == [0, 0] and points(state, "frostbit") == [0, 0]
    state = position(hands=[["2P"], ["3P"]])
    assert points(state, "bumper_crop") == [0, 0]


def test_beginner_game_breaks_ties_by_okus():
    game = IllimatGame(luminaries=False)
    harvest = [["5S", "6W"], ["6S", "7W"]]
    state = position(game, hands=[["2P"], ["3P"]], harvest=harvest, okus=[1, 0])
    assert points(state, "bumper_crop") == [4, 0] and points(state, "sunkissed") == [2, 0]
    assert points(state, "frostbit") == [0, -2]


def test_round_end_scores_and_a_new_round_is_dealt_with_the_dealer_passing_left():
    game = IllimatGame(num_players=3)
    state = position(game, hands=[["2P"], [], []], deck=[], rest=1, okus=[1, 0, 0],
                     harvest=[["AS"], [], []], current=0)
    expected = [p["total"] for p in state.round_points()]
    play(state, "card 2P", "field 0", "sow")
    data = snap(state)
    assert data["round"] == 1 and data["scores"] == expected
    assert state.current_player == 1 and [len(h) for h in data["hands"]] == [4, 3, 4]
    assert data["okus_left"] == 3 and data["claimed"] == [[], [], []] and len(data["luminaries_unused"]) == 4


def test_the_match_ends_at_the_target_score_or_after_the_last_round():
    state = position(hands=[["2P"], []], deck=[], rest=1, scores=[3, 15], round=1)
    play(state, "card 2P", "field 0", "sow")
    assert state.is_terminal() and state.scores()[1] >= 17  # seat 1 holds every harvested card
    assert state.returns().tolist() == [-1.0, 1.0]
    game = IllimatGame(rounds=1)
    state = position(game, hands=[["2P"], []], deck=[], rest=1)
    play(state, "card 2P", "field 0", "sow")
    assert state.is_terminal() and state.legal_actions() == [] and not state.legal_mask().any()
    state = position(hands=[["2P"], []], deck=[], rest=1, scores=[3, 3], round=1)
    play(state, "card 2P", "field 0", "sow")
    assert not state.is_terminal() and snap(state)["round"] == 2


def test_equal_match_scores_are_a_draw_and_score_rewards_are_normalised():
    state = position(IllimatGame(rounds=1, reward="score"), hands=[["2P"], []], deck=[], rest=1)
    play(state, "card 2P", "field 0", "sow")
    game = state.game
    diff = state.scores()[0] - state.scores()[1]
    np.testing.assert_allclose(state.returns(), [diff / (game.score_high - game.score_low),
                                                 -diff / (game.score_high - game.score_low)])
    state = position(IllimatGame(rounds=1), hands=[["2P"], []], deck=[], rest=1)
    state.match_scores = [5, 5]
    state.decision = 13
    assert state.returns().tolist() == [0.0, 0.0]


# ----- actions, snapshots, errors -------------------------------------------------------------
def test_action_names_and_illegal_actions():
    assert [describe_action(a) for a in (0, 17, 64, 65, 69, 70, 71, 72, 85, 99, 100, 104, 105, 106)] == [
        "card AP", "card 5S", "card K*", "field 0", "sow", "harvest", "stockpile", "value 1", "value 14",
        "value 28", "season spring", "done", "rake sow", "changeling swap"]
    state = position(hands=[["2P", "3P"], ["7P"]])
    with pytest.raises(IllegalActionError, match=r"action 104 \(done\) is illegal for seat 0 at the turn decision; "
                                                 r"legal: 1 \(card 2P\), 2 \(card 3P\)"):
        state.apply(ACTIONS["done"])
    with pytest.raises(IllegalActionError, match="not an integer"):
        state.apply(1.0)


def test_snapshots_round_trip_mid_move():
    state = position(hands=[["5S", "9P", "9A", "9W"], ["6P"]], fields=[{"loose": ["5P", "2W", "3A", "AP", "4S"]}])
    play(state, "card 5S", "field 0", "harvest", "card AP")
    copy = GAME2.state_from_json(json.loads(json.dumps(state.to_json())))
    assert copy.legal_actions() == state.legal_actions() and legal(copy) == {"card 5P", "card 4S"}
    np.testing.assert_array_equal(copy.state_tensor(), state.state_tensor())


@pytest.mark.parametrize("change, message", [
    (lambda d: d["hands"][0].append(d["deck"][0]), "exactly once"),
    (lambda d: d.update(seasons=["summer", "winter", "autumn", "spring"]), "not a position of the Illimat"),
    (lambda d: d["fields"][0]["stockpiles"].append({"value": 9, "kind": "single", "cards": [d["deck"].pop()]}),
     "at least 2"),
    (lambda d: d.update(okus_left=0), "okus"),
    (lambda d: d["fields"][0].update(luminary={"name": "Audience", "face_up": True}), "unknown Luminary"),
    (lambda d: d["move"].update(field=1), "does not fit the pending turn decision"),
    (lambda d: d.update(decision="items"), "needs with card, field, action, value"),
    (lambda d: d["turn"].update(rake_owed=True), "Rake is not face up"),
    (lambda d: d.update(format=0), "format"),
    (lambda d: d.update(extra=1), "unknown keys"),
])
def test_bad_snapshots_are_refused_clearly(change, message):
    data = json.loads(json.dumps(GAME2.new_state(np.random.default_rng(0)).to_json()))
    change(data)
    with pytest.raises(ValueError, match=message):
        GAME2.state_from_json(data)


def test_a_face_up_forest_queen_keeps_her_field_summer_in_a_snapshot():
    queen = [{"loose": ["5P"]}, {"loose": ["2W"], "luminary": ("Forest Queen", True)}, {"loose": ["3W"]},
             {"loose": ["4W"]}]
    state = position(hands=[["5S", "2P"], ["7P", "8P"]], fields=queen, summer=1)  # her field is Summer
    data = json.loads(json.dumps(state.to_json()))
    data["seasons"] = data["seasons"][1:] + data["seasons"][:1]  # the Illimat turned away from her
    with pytest.raises(ValueError, match=r"fields\[1\].luminary: the Forest Queen is face up, so her field is Summer"):
        GAME2.state_from_json(data)


def test_bad_arguments_are_refused():
    for bad in ({"num_players": 5}, {"luminaries": 1}, {"stars_always": "yes"}, {"target_score": 0},
                {"rounds": 0}, {"reward": "money"}):
        with pytest.raises(ValueError):
            IllimatGame(**bad)
    env = card_envs.make("illimat_v0", num_players=4, rounds=1)
    assert env.unwrapped.game.deck_cards == 65


# ----- optional rules: Harmonic Convergence (13) and the "Full Harvest" (15) --------------------
CONVERGENCE = IllimatGame(harmonic_convergence=True)
FULL = IllimatGame(full_harvest=True)
# fields 1..3 hold face-up Luminaries, field 0 (Summer) a face-down one over a lone 5P
THREE_UP = [{"loose": ["5P"], "luminary": ("Maiden", False)}, {"loose": ["2W"], "luminary": ("River", True)},
            {"loose": ["3W"], "luminary": ("Union", True)}, {"loose": ["4W"], "luminary": ("Newborn", True)}]


def three_up(game, **kw):
    """Seat 0 clears field 0 with 5S (drawing 7S, then 8S 2S 10S refill it and its Luminary
    turns face up: the 4th)."""
    args = dict(hands=[["5S", "2P", "3P", "6P"], ["7P", "8P"]], fields=THREE_UP, harvest=[["9S"], ["9W", "10W"]],
                okus=[0, 1], claimed=[["Rake"], []], scores=[3, 7], round=1, deck=["7S", "8S", "2S", "10S", "JS"])
    return position(game, **{**args, **kw})


def test_harmonic_convergence_moves_every_player_one_seat_left_leaving_everything_behind():
    state = play(three_up(CONVERGENCE), "card 5S", "field 0", "harvest", "card 5P", "done")
    data = snap(state)
    assert all(f["luminary"]["face_up"] for f in data["fields"]) and data["converged"]
    # seat 0 played, drew 7S and took the last okus; then player 0 moved into seat 1 and player 1
    # into seat 0: each owns what the seat on his left owned, scores included
    assert data["hands"] == [["7P", "8P"], ["2P", "3P", "6P", "7S"]]
    assert [sorted(h) for h in data["harvest"]] == [["10W", "9W"], ["5P", "5S", "9S"]]
    assert data["okus"] == [1, 1] and data["okus_left"] == 0
    assert data["claimed"] == [[], ["Rake"]] and data["scores"] == [7, 3]
    # turns follow the seats: seat 1 plays next, and player 0 now sits there
    assert state.current_player == 0 and data["decision"] == "turn"
    assert legal(state) == {"card 7P", "card 8P"}
    obs = CONVERGENCE.observation_layout.views(state.observation(0))
    assert obs["converged"].tolist() == [1.0] and obs["hand"][[ACTIONS["card 7P"], ACTIONS["card 8P"]]].all()
    assert CONVERGENCE.observation_size == GAME2.observation_size + 1


def test_harmonic_convergence_with_three_players_each_takes_the_seat_on_his_left_and_play_goes_on():
    game = IllimatGame(num_players=3, harmonic_convergence=True)
    state = position(game, hands=[["2A", "3A"], ["5S", "2P", "3P", "6P"], ["7P", "8P", "9P"]], fields=THREE_UP,
                     harvest=[["KA"], ["9S"], ["9W"]], okus=[0, 0, 1], claimed=[[], ["Rake"], []],
                     scores=[1, 2, 3], round=1, current=1, deck=["7S", "8S", "2S", "10S", "JS"])
    play(state, "card 5S", "field 0", "harvest", "card 5P", "done")
    data = snap(state)
    # new[p] = old[p + 1]: player 0 gets seat 1 (who played), 1 gets seat 2, 2 gets seat 0
    assert data["hands"] == [["2P", "3P", "6P", "7S"], ["7P", "8P", "9P"], ["2A", "3A"]]
    assert [sorted(h) for h in data["harvest"]] == [["5P", "5S", "9S"], ["9W"], ["KA"]]
    assert data["okus"] == [1, 1, 0] and data["claimed"] == [["Rake"], [], []] and data["scores"] == [2, 3, 1]
    # seat 2 is next: player 1 sits there now; then seat 0 (player 2), then seat 1 (player 0)
    assert state.current_player == 1
    play(state, "card 7P", "field 0", "sow")
    assert state.current_player == 2
    play(state, "card 2A", "field 0", "sow")
    assert state.current_player == 0


def test_harmonic_convergence_happens_only_the_first_time_and_only_with_the_flag():
    # flag off: nothing moves, seat 1 plays next
    state = play(three_up(GAME2), "card 5S", "field 0", "harvest", "card 5P", "done")
    data = snap(state)
    assert all(f["luminary"]["face_up"] for f in data["fields"]) and not data["converged"]
    assert data["hands"] == [["2P", "3P", "6P", "7S"], ["7P", "8P"]] and data["scores"] == [3, 7]
    assert state.current_player == 1
    assert "converged" not in GAME2.observation_layout.slices
    # it already happened (earlier in the match): 4 face up again changes nothing
    state = play(three_up(CONVERGENCE, converged=True), "card 5S", "field 0", "harvest", "card 5P", "done")
    data = snap(state)
    assert data["converged"] and data["hands"] == [["2P", "3P", "6P", "7S"], ["7P", "8P"]]
    assert data["scores"] == [3, 7] and state.current_player == 1
    # 3 face up is not enough
    fields = [dict(THREE_UP[0]), *THREE_UP[1:3], {"loose": ["4W"], "luminary": ("Newborn", False)}]
    state = play(three_up(CONVERGENCE, fields=fields), "card 5S", "field 0", "harvest", "card 5P", "done")
    assert not snap(state)["converged"] and state.current_player == 1


def test_harmonic_convergence_after_the_newborns_opposite_reveal_but_not_for_a_discarded_river():
    fields = [{"loose": ["5P"], "luminary": ("Newborn", False)}, {"loose": ["2W"], "luminary": ("River", True)},
              {"loose": ["3W"], "luminary": ("Maiden", False)}, {"loose": ["4W"], "luminary": ("Union", True)}]
    state = play(three_up(CONVERGENCE, fields=fields), "card 5S", "field 0", "harvest", "card 5P", "done")
    data = snap(state)
    assert data["fields"][2]["luminary"] == {"name": "Maiden", "face_up": True}
    assert data["converged"] and data["scores"] == [7, 3] and state.current_player == 0
    # the River turns face up but is discarded (no 3 more cards): never 4 face up at once
    fields = [{"loose": ["5P"], "luminary": ("River", False)}, {"loose": ["2W"], "luminary": ("Maiden", True)},
              *THREE_UP[2:]]
    state = three_up(CONVERGENCE, fields=fields, deck=["7S", "8S", "2S", "10S"], rest=1)
    play(state, "card 5S", "field 0", "harvest", "card 5P", "done")
    data = snap(state)
    assert data["luminaries_discarded"]["face_up"] == ["River"] and not data["converged"]


def test_after_a_harmonic_convergence_the_deal_keeps_passing_left_by_seat():
    game = IllimatGame(num_players=3, harmonic_convergence=True)
    for converged, first in ((False, 1), (True, 0)):
        state = position(game, hands=[["2P"], [], []], deck=[], rest=1, current=0, converged=converged)
        play(state, "card 2P", "field 0", "sow")
        data = snap(state)
        # round 1 starts with seat 1, held by player 0 after the convergence: he gets 3 cards
        assert data["round"] == 1 and state.current_player == first and data["converged"] == converged
        assert [len(h) for h in data["hands"]] == [3 if p == first else 4 for p in range(3)]


def test_harmonic_convergence_snapshots():
    state = play(three_up(CONVERGENCE), "card 5S", "field 0", "harvest", "card 5P", "done")
    data = json.loads(json.dumps(state.to_json()))
    assert data["format"] == 3 and data["converged"] is True
    copy = CONVERGENCE.state_from_json(data)
    np.testing.assert_array_equal(copy.state_tensor(), state.state_tensor())
    with pytest.raises(ValueError, match="converged must be true"):
        CONVERGENCE.state_from_json({**data, "converged": False})
    with pytest.raises(ValueError, match="without harmonic_convergence"):
        GAME2.state_from_json(data)
    env = card_envs.make("illimat_v0", harmonic_convergence=True)
    assert env.unwrapped.game.config["harmonic_convergence"] is True
    assert env.unwrapped.game.config["full_harvest"] is False


def test_format_1_snapshots_are_still_read():
    state = GAME2.new_state(np.random.default_rng(3))
    data = json.loads(json.dumps(state.to_json()))
    old = {k: v for k, v in data.items() if k not in ("converged", "last_play")}
    old["format"] = 1
    old["move"] = {k: v for k, v in data["move"].items() if k != "full_harvest"}
    copy = GAME2.state_from_json(old)
    assert copy.to_json() == data
    with pytest.raises(ValueError, match="unknown keys"):
        GAME2.state_from_json({**old, "converged": False})  # format 1 has no such key
    with pytest.raises(ValueError, match="format 4 is not supported"):
        GAME2.state_from_json({**data, "format": 4})


# the "Full Harvest": 9P 10P 8A KW AA in Summer field 0; the hand 2P JP KS AW totals 27 or 40
FULL_FIELDS = [{"loose": ["9P", "10P", "8A", "KW", "AA"]}, {"loose": ["5W"]}, {"loose": ["JW", "8W"]}]
FULL_HAND = ["2P", "JP", "KS", "AW"]


def test_a_full_harvest_plays_the_whole_hand_as_one_card_of_their_total():
    state = position(FULL, hands=[FULL_HAND, ["7P", "8P"]], fields=FULL_FIELDS)
    assert legal(state) == {"card 2P", "card JP", "card KS", "card AW", "harvest"}
    play(state, "harvest")
    assert snap(state)["decision"] == "field" and legal(state) == {"field 0"}  # Autumn 5W: no 27 or 40
    play(state, "field 0")
    assert snap(state)["decision"] == "items" and snap(state)["move"]["value"] is None
    # 27 = 9 + 10 + 8 = Fool(14) + 13, 40 = 9 + 10 + 8 + 13: taking 10P alone first cannot end well
    assert legal(state) == {"card 9P", "card AA"}
    play(state, "card 9P", "card 10P")
    assert legal(state) == {"card AA", "card 8A"}
    alone = play(state.clone(), "card 8A")
    assert legal(alone) == {"card KW", "done"}  # 9 + 10 + 8 = 27, or 40 with the King
    play(state, "card AA")
    assert legal(state) == {"card 8A"}  # two groups of 27: Fool(14) + King and 9 + 10 + 8
    play(state, "card 8A")
    assert legal(state) == {"card KW"}
    play(state, "card KW", "done")
    data = snap(state)
    assert sorted(data["harvest"][0]) == sorted(FULL_HAND + FULL_FIELDS[0]["loose"])
    assert data["hands"][0] == [] and data["fields"][0]["loose"] == []
    # face cards JP, KS, AW give spring, summer or winter: the player picks the one that sticks
    assert data["decision"] == "season" and data["move"]["full_harvest"] == FULL_HAND
    assert legal(state) == {"season spring", "season summer", "season winter"}
    copy = FULL.state_from_json(json.loads(json.dumps(state.to_json())))
    np.testing.assert_array_equal(copy.state_tensor(), state.state_tensor())
    play(state, "season winter")  # then the draw-up and the clearing: okus and refill
    data = snap(state)
    assert seasons(state)[0] == "winter" and len(data["hands"][0]) == 4 and state.current_player == 1
    assert len(data["fields"][0]["loose"]) == 3 and data["okus"] == [1, 0]


def test_a_full_harvest_only_with_the_flag_four_cards_no_rake_owed_and_a_harvestable_field():
    hands = [FULL_HAND, ["7P", "8P"]]
    assert "harvest" not in legal(position(hands=hands, fields=FULL_FIELDS))  # flag off
    assert "harvest" not in legal(position(FULL, hands=[FULL_HAND[:3], ["7P"]], fields=FULL_FIELDS))  # 3 cards
    fields = [FULL_FIELDS[0], {"loose": ["5W"], "luminary": ("Rake", True)}]
    state = position(FULL, hands=hands, fields=fields)
    assert snap(state)["turn"]["rake_owed"] and "harvest" not in legal(state)
    play(state, "rake sow", "card 2P")
    assert "harvest" not in legal(state)  # 3 cards left
    # Winter: no harvest, unless the Maiden is face up
    assert "harvest" not in legal(position(FULL, hands=hands, fields=FULL_FIELDS, summer=2))
    fields = [FULL_FIELDS[0], {"luminary": ("Maiden", True)}]
    state = position(FULL, hands=hands, fields=fields, summer=2)
    assert seasons(state)[0] == "winter" and "harvest" in legal(state)
    # nothing totals 27 or 40 anywhere
    assert "harvest" not in legal(position(FULL, hands=hands, fields=[{"loose": ["9P", "10P"]}]))



def test_a_full_harvest_takes_a_multiple_stockpile_only_by_its_exact_value_and_rotates_by_its_faces():
    # 2 + 3 + 4 + 5 = 14 takes a multiple stockpile of 14 (7 + 7, twice)
    fields = [{"stockpiles": [(14, "multiple", ["7P", "7S", "7A", "7W"])], "loose": ["6P"]}]
    state = position(FULL, hands=[["2S", "3S", "4S", "5S"], ["9W"]], fields=fields)
    play(state, "harvest", "field 0")
    assert legal(state) == {"card 7P"}  # the 6 is no group of 14
    play(state, "card 7P", "done")
    assert "7W" in snap(state)["harvest"][0] and seasons(state)[0] == "summer"  # no face card: no turn
    # one season among the face cards (two Autumn ones): no decision. 11 + 12 + 2 + 3 = 28 = 1 + 13 + 14
    state = position(FULL, hands=[["JA", "QA", "2S", "3S"], ["9W"]], fields=[{"loose": ["AP", "KP", "AW"]}])
    play(state, "harvest", "field 0", "card AP", "card KP", "card AW", "done")
    assert seasons(state)[0] == "autumn" and state.current_player == 1


def test_a_full_harvest_with_a_stars_face_card_offers_every_season_and_the_forest_queen_stops_it():
    game = IllimatGame(num_players=4, full_harvest=True)
    fields = [{"loose": ["8P", "10P", "8A", "10W"]}]  # 11 + 2 + 3 + 2 = 18, twice
    state = position(game, hands=[["J*", "2S", "3S", "2A"], ["9W"], ["9S"], ["9A"]], fields=fields)
    play(state, "harvest", "field 0", "card 8P", "card 10P", "card 8A", "card 10W", "done")
    assert legal(state) == {f"season {s}" for s in SEASON_NAMES}
    play(state, "season autumn")
    assert seasons(state)[0] == "autumn"
    fields = [{"loose": ["8P", "10P"]}, {"luminary": ("Forest Queen", True)}]
    state = position(game, hands=[["J*", "2S", "3S", "2A"], ["9W"], ["9S"], ["9A"]], fields=fields, summer=1)
    play(state, "harvest", "field 0", "card 8P", "card 10P", "done")
    assert state.current_player == 1 and seasons(state)[1] == "summer"


@pytest.mark.parametrize("change, message", [
    (lambda d: d["move"].update(full_harvest=["2P", "JP", "KS"]), "4 cards"),
    (lambda d: d["move"].update(full_harvest=["2P", "JP", "KS", "7P"]), "whole hand"),
    (lambda d: d["move"].update(card="2P"), "whole hand: move.card"),
    (lambda d: d.update(decision="value"), "only at its field, items or season decision"),
])
def test_bad_full_harvest_snapshots_are_refused_clearly(change, message):
    state = play(position(FULL, hands=[FULL_HAND, ["7P", "8P"]], fields=FULL_FIELDS), "harvest")
    data = json.loads(json.dumps(state.to_json()))
    assert data["move"]["full_harvest"] == FULL_HAND
    FULL.state_from_json(json.loads(json.dumps(data)))
    with pytest.raises(ValueError, match="without full_harvest"):
        GAME2.state_from_json(data)
    change(data)
    with pytest.raises(ValueError, match=message):
        FULL.state_from_json(data)


def test_a_changeling_claim_after_this_turns_swap_survives_a_snapshot():
    # (found by the convergence property test: the swap flag outlives her while her claim is pending)
    fields = [{"loose": ["9W"]}, {"luminary": ("Changeling", True), "loose": ["5P"]}]
    state = position(hands=[["2P", "2S", "7S", "8S"], ["7P"]], fields=fields)
    play(state, "changeling swap", "card 2P", "card 5P", "card 2S", "field 1", "harvest", "card 2P", "done")
    data = snap(state)
    assert data["decision"] == "claim_give" and data["turn"]["swap_used"] and data["claimed"][0] == ["Changeling"]
    copy = GAME2.state_from_json(json.loads(json.dumps(data)))
    assert copy.legal_actions() == state.legal_actions()
    np.testing.assert_array_equal(copy.state_tensor(), state.state_tensor())


# ----- render ---------------------------------------------------------------------------------
def test_render_names_the_last_play_the_card_legend_and_the_winner():
    state = position(hands=[["AS", "9P", "9A", "9W"], ["6P"]], fields=[{"loose": ["AW", "KP", "3S"]}])
    text = GAME2.render(state, None)
    assert "last play: none yet" in text
    assert "rank A = Fool" in text and "A autumn" in text  # the Fool and Autumn share the letter A
    play(state, "card AS", "field 0", "harvest", "value 14", "card KP", "card AW", "done")
    assert "last play: player_0 harvested KP AW from field 0 with AS" in GAME2.render(state, 1)
    state = position(hands=[["2S", "9P", "9A", "9W"], ["6P"]], fields=[{}, {}, {"loose": ["KP"]}])
    play(state, "card 2S", "field 2", "sow")  # field 1 is Autumn: no sowing there
    assert "last play: player_0 sowed 2S into field 2" in GAME2.render(state, None)
    over = position(hands=[[]], scores=[17, 10], decision="game_over", round=1)
    assert "winner player_0" in GAME2.render(over, None)
    tie = position(hands=[[]], scores=[12, 12], decision="game_over", round=GAME2.rounds)
    assert "tie between player_0, player_1" in GAME2.render(tie, None)


def test_luminary_texts_are_the_doc_pages_table():
    """``help <Luminary>`` in the terminal reads `cards.LUMINARY_TEXT`: the doc page's table, row by row."""
    import re

    import card_envs.games.illimat as illimat
    from card_envs.games.illimat.cards import LUMINARIES, LUMINARY_TEXT

    rows = re.findall(r"^\| ([A-Z][a-z]+(?: [A-Z][a-z]+)?) \| (.*?) \| (.*?) \| (.*?) \|$", illimat.__doc__, re.M)
    assert {name: tuple(cells) for name, *cells in rows if name in LUMINARIES} == LUMINARY_TEXT
    assert list(LUMINARY_TEXT) == list(LUMINARIES)
