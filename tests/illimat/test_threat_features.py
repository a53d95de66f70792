"""Illimat's optional observation pieces (``threat_features=True``): the next player's expected best
harvest after each main play. Hand-worked positions, the order statistic against brute force, and
along games the ``lookahead`` bot's own threat for the same boards."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from card_envs.agents.illimat.heuristic import IllimatHeuristic, IllimatLookahead
from card_envs.games.illimat.cards import CARD0, FIELD0, HARVEST, NUM_FIELDS, SOW, STOCKPILE
from card_envs.games.illimat.game import IllimatGame
from card_envs.games.illimat.threat_features import (
    HARVEST_ROW, SCALE, SOW_ROW, STOCKPILE_ROW, THREAT_ROWS, best_of_hand, reachable)
from tests.conftest import calls_made
from tests.illimat.test_harvest_features import card
from tests.illimat.test_play_features import crowded_field
from tests.illimat.test_rules import position

GAME = IllimatGame(harvest_features=True, play_features=True, threat_features=True)


def threats(state, seat: int = 0) -> np.ndarray:
    """The ``threats`` piece unscaled: [row, field, card]."""
    return GAME.observation_layout.views(state.observation(seat))["threats"] * SCALE


# ----- hand-worked positions (summer=0: fields read Summer, Autumn, Winter, Spring) -------------
# The next player holds one card, so his expected best harvest is the mean over the cards unseen
# by seat 0: 52 - 4 in hand - 1 on the board = 47. Weights: 1 a card, +0.6 Summer, -0.8 Winter,
# +1.5 a Fool; emptying a field adds 2.5 while okus are left.
UNSEEN = 47


def simple_position():
    return position(GAME, hands=[["5S", "9P", "9A", "KW"], ["6P"]], fields=[{"loose": ["5P"]}])


def test_sowing_a_card_that_makes_a_sum_hands_the_next_player_that_sum():
    t = threats(simple_position())
    # sow 9P beside 5P (Summer): 5 takes 5P (1), 9 takes 9P (1), 14 takes both and empties the
    # field (2 + 2.5). Unseen: 5A, 5W; 9S, 9W; the four Fools (14).
    expected = (1 + 1) + (1 + 0.2) + (1 + 1.6) + (1 + 0.2) + 4 * 4.5 + (2.5 + 3.1 + 2.5 + 1.7)
    assert t[SOW_ROW, 0, card("9P")] == pytest.approx(expected / UNSEEN, rel=1e-5)
    # the same card sown in Spring's empty field: 5 empties field 0 (1 + 2.5), 9 empties field 3
    expected = (3.5 + 1) + (3.5 + 0.2) + (3.5 + 1.6) + (3.5 + 0.2)
    assert t[SOW_ROW, 3, card("9P")] == pytest.approx(expected / UNSEEN, rel=1e-5)


def test_a_face_card_turns_the_illimat_before_the_next_player_harvests():
    t = threats(simple_position())
    # KW sown in field 0 makes it Winter: nothing can be harvested anywhere
    assert t[SOW_ROW, 0, card("KW")] == 0
    # sown in field 3, it makes field 3 Winter and field 0 Spring: only 5P can be taken (and empties it)
    assert t[SOW_ROW, 3, card("KW")] == pytest.approx(((3.5 + 1) + (3.5 + 0.2)) / UNSEEN, rel=1e-5)


def test_the_maiden_opens_winter_and_the_forest_queen_keeps_the_illimat_still():
    # KW sown in field 0 makes it Winter; the face-up Maiden (field 2) still lets the next player
    # harvest there: 5 takes 5P, 13 takes KW, neither empties the field
    maiden = position(GAME, hands=[["5S", "9P", "9A", "KW"], ["6P"]],
                      fields=[{"loose": ["5P"]}, {}, {"luminary": ("Maiden", True)}])
    expected = (1 + 1) + (1 + 0.2) + (0.2 + 1) + (0.2 + 1.6) + (0.2 + 1)  # 5A, 5W; KP, KS, KA
    assert threats(maiden)[SOW_ROW, 0, card("KW")] == pytest.approx(expected / UNSEEN, rel=1e-5)
    # with the Forest Queen face up (in field 0, the Summer field) nothing turns: KW sown in
    # Spring's field 3 can be taken there (0.2 + 2.5 for emptying it) and 5P in Summer's field 0,
    # emptying it claims the Queen (1 + 2.5 + 1.5)
    queen = position(GAME, hands=[["5S", "9P", "9A", "KW"], ["6P"]],
                     fields=[{"loose": ["5P"], "luminary": ("Forest Queen", True)}])
    expected = (5 + 1) + (5 + 0.2) + (2.7 + 1) + (2.7 + 1.6) + (2.7 + 1)
    assert threats(queen)[SOW_ROW, 3, card("KW")] == pytest.approx(expected / UNSEEN, rel=1e-5)


def test_a_harvest_that_empties_the_only_field_leaves_nothing():
    t = threats(simple_position())
    assert t[HARVEST_ROW, 0, card("5S")] == 0 and t[SOW_ROW, 0, card("5S")] > 0
    # no harvest or stockpile of 9P exists in field 0 (no 9; 5 + 9 makes 14, not a held value)
    assert t[HARVEST_ROW, 0, card("9P")] == 0 and t[STOCKPILE_ROW, 0, card("9P")] == 0
    # Autumn: no sowing; the empty fields: no harvest, no stockpile
    assert not t[:, 1].any() and not t[HARVEST_ROW:, 2:].any()


def test_a_stockpile_is_a_single_item_of_its_value():
    # 4S stockpiled with 5P for 9 (a 9 in hand): the field holds one 9-stockpile (5P + 4S, 2.6),
    # which only a 9 harvests, emptying the field
    state = position(GAME, hands=[["4S", "9P", "9A", "KW"], ["6P"]], fields=[{"loose": ["5P"]}])
    t = threats(state)
    assert t[STOCKPILE_ROW, 0, card("4S")] == pytest.approx(((5.1 + 1.6) + (5.1 + 0.2)) / UNSEEN, rel=1e-5)


def test_only_the_observers_own_hand_is_described_and_move_threats_follow_the_chosen_card():
    state = position(GAME, hands=[["5S", "9P", "9A", "KW"], ["5A", "2P"]], fields=[{"loose": ["5P"]}])
    mine, theirs = threats(state, 0), threats(state, 1)
    held = np.zeros(65, dtype=bool)
    held[[card(x) for x in ("5S", "9P", "9A", "KW")]] = True
    assert mine[:, :, held].any() and not mine[:, :, ~held].any()
    assert theirs[SOW_ROW, 0, card("5A")] > 0 and not theirs[:, :, held].any()
    assert not GAME.observation_layout.views(state.observation(0))["move_threats"].any()
    state.apply(CARD0 + card("9P"))
    views = [GAME.observation_layout.views(state.observation(seat)) for seat in (0, 1)]
    np.testing.assert_allclose(views[0]["move_threats"] * SCALE, mine[:, :, card("9P")], rtol=1e-6)
    assert not views[1]["move_threats"].any()
    fields = GAME.action_entities[1]  # the field actions read move_plays and move_threats
    assert fields.first_action == FIELD0 and fields.pieces == ("move_plays", "move_threats")
    assert "threats" in GAME.action_entities[0].pieces


def test_the_pieces_are_optional_and_checked():
    plays = IllimatGame(harvest_features=True, play_features=True)
    assert GAME.observation_layout.size == plays.observation_layout.size + len(THREAT_ROWS) * NUM_FIELDS * 66
    state = simple_position()
    twin = plays.state_from_json(state.to_json())
    np.testing.assert_array_equal(state.observation(0)[:plays.observation_layout.size], twin.observation(0))
    alone = IllimatGame(threat_features=True)  # without the play pieces: the field entities read the threats
    assert [e.pieces for e in alone.action_entities[1:]] == [("move_threats",)]
    assert GAME.config["threat_features"] is True and IllimatGame(**GAME.config).config == GAME.config
    with pytest.raises(ValueError, match="threat_features=1 must be True or False"):
        IllimatGame(threat_features=1)


# ----- the pieces' arithmetic ------------------------------------------------------------------
@pytest.mark.parametrize("unseen,hand", [(6, 1), (6, 2), (7, 3), (5, 5), (4, 6), (5, 0)])
def test_the_chance_that_each_ranked_card_is_the_best_of_a_hand_matches_brute_force(unseen, hand):
    counts = np.zeros(unseen)
    draws = list(itertools.combinations(range(unseen), min(hand, unseen))) if hand else []
    for drawn in draws:
        counts[min(drawn)] += 1  # rank 0 is the largest: the best of a hand is its smallest rank
    expected = counts / max(1, len(draws))
    np.testing.assert_allclose(best_of_hand(unseen, hand), expected, rtol=1e-12)


def test_reachable_sums_match_the_engines():
    state = position(GAME, hands=[["5S"], ["6P"]],
                     fields=[{"loose": ["AP", "3S", "4A"], "stockpiles": [(9, "single", ["5W", "4W"]),
                                                                          (7, "multiple", ["7A", "7W"])]}])
    items = tuple((code, ()) for _, code, _ in state.items(0))
    sums, multiples = state._field_sums(0)
    assert reachable(items) == (sums | multiples) & 0x7FFF


# ----- the lookahead bot's threat, along its own games -----------------------------------------
@pytest.mark.parametrize("seed", range(2))
def test_the_sow_and_harvest_rows_are_the_lookahead_bots_threat(seed):
    """For every sow and every best harvest of every hand card at the start of a turn, the row is
    what `IllimatLookahead._threat` gives for the board that play leaves."""
    game = IllimatGame(harvest_features=True, play_features=True, threat_features=True, rounds=1)
    bot, rng = IllimatLookahead(game), np.random.default_rng(seed)
    state, checked = game.new_state(rng), 0
    while not state.is_terminal():
        obs, mask = state.observation(state.current_player), state.legal_mask()
        view = game.observation_layout.views(obs)
        if view["decision"].argmax() == 0 and not view["turn"][0]:
            s = bot._read(obs)
            heaviest = {}
            for score, plan in IllimatHeuristic._plans(bot, s):
                c, f, action, partner, _, keys = plan
                if action == STOCKPILE or partner >= 0:
                    continue  # the rows' stockpile is the heaviest, the bot's the safest
                if action == HARVEST and len(keys) == len(s["fields"][f]):
                    score -= bot._clear_bonus(s, f)  # the rows rank harvests by weight alone
                if score > heaviest.get((c, f, action), (-1e9,))[0]:
                    heaviest[(c, f, action)] = (score, plan)
            for (c, f, action), (_, plan) in heaviest.items():
                row = SOW_ROW if action == SOW else HARVEST_ROW
                expected = bot._threat(s, *bot._board_after(s, plan))
                assert view["threats"][row, f, c] * SCALE == pytest.approx(expected, abs=1e-4), plan
                checked += 1
        state.apply(int(bot.act(obs, mask, rng)))
    assert checked > 200


def test_a_crowded_field_is_answered_quickly():
    state = crowded_field(GAME)
    t, calls = calls_made(threats, state)
    assert calls < 12_000_000  # 0.15-2.4M today (caches); an unbounded search makes many times more
    assert t[SOW_ROW, 0, card("10S")] > 0
