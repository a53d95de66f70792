"""Illimat's optional observation pieces (``play_features=True``): what harvesting, stockpiling or
sowing each hand card in each field would do. Hand-worked positions (the rulebook's five among
them), and along random games the engine's own legality: a play described exists exactly when the
engine would allow it."""

from __future__ import annotations


import numpy as np
import pytest

from card_envs.games.illimat.play_features import PLAY_ROWS, ROW, SCALE
from card_envs.games.illimat.cards import AUTUMN, CARD0, FIELD0, HARVEST_VALUES, NUM_FIELDS, SPRING
from card_envs.games.illimat.game import IllimatGame
from tests.conftest import calls_made, random_walk
from tests.illimat.test_harvest_features import card
from tests.illimat.test_rules import position

GAME = IllimatGame(harvest_features=True, play_features=True)


def plays(state, seat: int = 0) -> np.ndarray:
    """The ``plays`` piece unscaled: [row, field, card]."""
    return GAME.observation_layout.views(state.observation(seat))["plays"] * SCALE[:, None, None]


HARVEST = ("harvest_cards", "harvest_summer", "harvest_winter", "harvest_fools")


def row(p: np.ndarray, f: int, name: str) -> dict[str, float]:
    """Every row of card `name` in field f, by row name."""
    return {r: float(round(p[ROW[r], f, card(name)], 6)) for r in PLAY_ROWS}


# ----- hand-worked positions (summer=0: fields read Summer, Autumn, Winter, Spring) -------------
def test_the_rulebook_five_takes_every_card_clears_the_field_and_wins_an_okus():
    state = position(GAME, hands=[["5S", "9P", "9A", "KW"], ["6P"]],
                     fields=[{"loose": ["5P", "2W", "3A", "AP", "4S"]}])
    p = plays(state)
    # 5 = 5 = 2 + 3 = Fool(1) + 4: all five cards, one Summer (4S), one Winter (2W), one Fool (AP)
    five = row(p, 0, "5S")
    assert tuple(five[r] for r in HARVEST) == (5, 1, 1, 1)
    assert five["harvest_clears"] == five["clear_okus"] == 1 and five["clear_luminary"] == five["clear_reveal"] == 0
    # 9: one group at most (the five total 15); the heaviest is 5 + 3 + Fool(1) (the Fool's point)
    nine = row(p, 0, "9P")
    assert tuple(nine[r] for r in HARVEST) == (3, 0, 0, 1)
    assert nine["harvest_clears"] == 0
    # Stockpiling the 5 for 9 (a 9 in hand): 5S + 4S and 5P + 3A + Fool(1), every card but the 2W.
    # Two 9s of the 52 cards are unseen (9S, 9W) among 52 - 4 in hand - 5 on the board = 43.
    assert five["stockpile_cards"] == 5 and five["stockpile_risk"] == pytest.approx(2 / 43, rel=1e-4)
    assert five["sow"] == 1


def test_the_heaviest_harvest_takes_the_summer_card_before_the_winter_one():
    # 9 = 4W + 5W or 4W + 5S (the 4 only once): the Summer 5 is worth more at the scoring
    state = position(GAME, hands=[["9P", "2A", "2P", "KW"], ["6P"]], fields=[{"loose": ["4W", "5W", "5S"]}])
    nine = row(plays(state), 0, "9P")
    assert (nine["harvest_cards"], nine["harvest_summer"], nine["harvest_winter"]) == (2, 1, 1)


def test_seasons_decide_which_plays_exist():
    # the same cards in every field: Summer, Autumn (no sowing), Winter (no harvest), Spring (no stockpile)
    state = position(GAME, hands=[["3P", "7S", "KA", "QS"], ["6P"]],
                     fields=[{"loose": ["4P"]}, {"loose": ["4A"]}, {"loose": ["4W"]}, {"loose": ["4S"]}])
    p = plays(state)
    sow = [row(p, f, "3P")["sow"] for f in range(NUM_FIELDS)]
    assert sow == [1, 0, 1, 1]
    # 3 + 4 = 7 with the 7 kept in hand: a stockpile wherever the season allows one
    stockpile = [row(p, f, "3P")["stockpile_cards"] for f in range(NUM_FIELDS)]
    assert stockpile == [2, 2, 2, 0]
    # nothing in the hand harvests a 4 (nor makes 4 with another item)
    assert not p[ROW["harvest_cards"]].any()


@pytest.mark.parametrize("maiden", [False, True])
def test_no_harvest_in_winter_unless_the_maiden_is_face_up(maiden):
    fields = [{}, {}, {"loose": ["5P"], **({"luminary": ("Maiden", True)} if maiden else {})}]
    state = position(GAME, hands=[["5S", "9P", "9A", "9W"], ["6P"]], fields=fields)
    five = row(plays(state), 2, "5S")
    assert five["harvest_cards"] == (1 if maiden else 0) and five["harvest_clears"] == (1 if maiden else 0)
    assert five["clear_luminary"] == (1 if maiden else 0) and five["clear_reveal"] == 0


def test_emptying_a_field_with_a_face_down_luminary_reveals_it_and_no_okus_is_left():
    state = position(GAME, hands=[["5S", "9P", "9A", "9W"], ["6P"]], okus_left=0, okus=[1, 1],
                     fields=[{"loose": ["5P"], "luminary": ("River", False)}])
    five = row(plays(state), 0, "5S")
    assert (five["harvest_clears"], five["clear_okus"], five["clear_luminary"], five["clear_reveal"]) == (1, 0, 0, 1)


def test_only_the_observers_own_hand_is_described():
    state = position(GAME, hands=[["5S", "9P", "9A", "9W"], ["5A", "2P"]], fields=[{"loose": ["5P"]}])
    mine, theirs = plays(state, 0), plays(state, 1)
    assert row(mine, 0, "5S")["harvest_cards"] == 1 and not mine[:, :, card("5A")].any()
    assert row(theirs, 0, "5A")["harvest_cards"] == 1 and not theirs[:, :, card("5S")].any()


def test_move_plays_describe_the_chosen_card_to_its_player_only():
    state = position(GAME, hands=[["5S", "9P", "9A", "9W"], ["5A", "2P"]],
                     fields=[{"loose": ["5P"]}, {"loose": ["4A"]}])
    assert not GAME.observation_layout.views(state.observation(0))["move_plays"].any()  # no card chosen yet
    mine = plays(state, 0)
    state.apply(CARD0 + card("5S"))
    views = [GAME.observation_layout.views(state.observation(seat)) for seat in (0, 1)]
    np.testing.assert_allclose(views[0]["move_plays"] * SCALE[:, None], mine[:, :, card("5S")], rtol=1e-6)
    assert not views[1]["move_plays"].any()
    # the field actions are entities reading exactly that piece
    fields = GAME.action_entities[1]
    assert fields.first_action == FIELD0 and fields.count == NUM_FIELDS
    obs = state.observation(0)
    np.testing.assert_array_equal(obs[fields.index(GAME.observation_layout)], views[0]["move_plays"].T)


def test_the_default_observation_and_entities_are_unchanged():
    plain = IllimatGame(harvest_features=True)
    assert GAME.observation_layout.size == plain.observation_layout.size + len(PLAY_ROWS) * NUM_FIELDS * 66
    assert len(plain.action_entities) == 1 and len(GAME.action_entities) == 2
    state = position(GAME, hands=[["5S", "9P", "9A", "9W"], ["6P"]], fields=[{"loose": ["5P"]}])
    twin = plain.state_from_json(state.to_json())
    np.testing.assert_array_equal(state.observation(0)[:plain.observation_layout.size], twin.observation(0))
    assert GAME.config["play_features"] is True and IllimatGame(**GAME.config).config == GAME.config
    with pytest.raises(ValueError, match="play_features='yes' must be True or False"):
        IllimatGame(play_features="yes")


# ----- against the engine's legality, along random games ---------------------------------------
@pytest.mark.parametrize("seed", range(3))
def test_each_play_described_exists_exactly_when_the_engine_allows_it(seed):
    game = IllimatGame(harvest_features=True, play_features=True, rounds=1)
    checked = 0
    for step, state in enumerate(random_walk(game, seed)):
        if state.is_terminal() or step % 3:
            continue
        p = state.current_player
        v = game.observation_layout.views(state.observation(p))
        for f in range(NUM_FIELDS):
            season = state.season(f)
            sums, multiples = state._field_sums(f)
            for c in state.hands[p]:
                assert v["plays"][ROW["sow"], f, c] == (season != AUTUMN)
                harvests = state._harvest_allowed(f) and any((sums | multiples) >> x & 1 for x in HARVEST_VALUES[c])
                assert (v["plays"][ROW["harvest_cards"], f, c] > 0) == harvests, (f, c)
                if v["plays"][ROW["harvest_clears"], f, c]:
                    assert v["hand_clears"][f, c] == 1
                assert v["plays"][ROW["harvest_cards"], f, c] <= v["hand_harvest"][f, c] + 1e-6
                stockpiles = season != SPRING and bool(state._stockpile_values(c, f))
                assert (v["plays"][ROW["stockpile_cards"], f, c] > 0) == stockpiles, (f, c)
                checked += 1
        held = np.zeros(65, dtype=bool)
        held[state.hands[p]] = True
        assert not v["plays"][:, :, ~held].any()  # only the hand's cards are described
    assert checked > 300


def crowded_field(game: IllimatGame):
    """34 loose cards in one field: a young policy that only sows reaches such fields."""
    names = [f"{r}{s}" for s in "PSAW" for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9"]][:34]
    return position(game, hands=[["10S", "JS", "QS", "KS"], ["10P"]], fields=[{"loose": names}])


def test_a_crowded_field_is_described_quickly():
    # the search is bounded, so the cards taken are a lower bound there; emptying it is decided exactly
    state = crowded_field(GAME)
    p, calls = calls_made(plays, state)
    assert calls < 12_000_000  # about 2.4M today; an unbounded search makes many times more
    assert 20 <= row(p, 0, "10S")["harvest_cards"] <= 34 and row(p, 0, "10S")["harvest_clears"] == 0
