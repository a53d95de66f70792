"""Rules tests for Piles: one test per rule / example of `shared/rules/piles.md` and of the
resolutions in the env docstring.

Positions are built from JSON snapshots (`state.to_json()` format) by `snap()`: a test names the
cards it cares about; the other seats' hands are filled with unused cards to the sizes the turn
order requires, and any card still unused goes to the captured cards (``rest="captured"``: team 1
first, as many as team 0's turns can have passed, then team 0), under a Castle pile in an order
the placement rules allow (``rest=<position>``) or, for end positions, into single-colour piles on
the positions left free (``rest="monochrome"``, worth nothing to anyone). Snapshots are checked
for reachability, so the fillers keep every position one the rules can reach.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import card_envs
from card_envs.core.cards import card_names, parse_card
from card_envs.core.game import IllegalActionError
from card_envs.games.piles.game import PilesGame
from card_envs.games.piles.rules import (
    BLACK, COLOUR, MAX_POINTS, NEIGHBOURS, NUM_ACTIONS, PASS, POINTS, RED, place_action)

ALL_CARDS = card_names(range(52))
# The Castle of most tests, row-major. Tops r1c1 (10H) has red neighbours 2D (r0c1), 3D (r1c0),
# 4H (r1c2) and a black one, 5C (r2c1): the source's example, total value 10 + 3 - 1 = 12.
CASTLE = ["KS", "2D", "QS",  "JS",
          "3D", "10H", "4H", "9C",
          "8C", "5C", "7S", "6S"]


def C(name: str) -> int:
    return parse_card(name)


def P(name: str) -> int:
    """'r1c2' -> position 6."""
    return int(name[1]) * 4 + int(name[3])


def snap(n=4, castle=CASTLE, hands=None, captured=((), ()), set_aside=(), colours=(None, None),
         current=0, size=None, seed=7, rest="captured") -> dict:
    castle = [[pile] if isinstance(pile, str) else list(pile) for pile in castle]
    hands = {s: list(h) for s, h in (hands or {}).items()}
    captured = [list(captured[0]), list(captured[1])]
    set_aside = list(set_aside)
    used = {c for p in castle for c in p} | {c for h in hands.values() for c in h} | \
        {c for t in captured for c in t} | set(set_aside)
    unused = [c for c in ALL_CARDS if c not in used]
    if size is None:
        size = len(hands[current]) if current in hands else 10
    for seat in range(n):
        if seat not in hands:
            need = size - 1 if seat < current else size
            hands[seat], unused = unused[:need], unused[need:]
    if unused and rest == "captured":
        # A team captures only the cards its opponents passed: no more than their turns.
        dealt = 10 if n == 4 or set_aside else 20
        turns0 = sum(dealt - len(hands[s]) for s in range(0, n, 2))
        room = max(0, turns0 - len(captured[1]) - sum(len(p) - 1 for p in castle))
        captured[1] += unused[:room]
        captured[0] += unused[room:]
    elif unused and rest == "monochrome":
        free = [p for p in range(12) if not castle[p]]
        reds = [c for c in unused if COLOUR[C(c)] == RED]
        blacks = [c for c in unused if COLOUR[C(c)] == BLACK]
        half = len(free) // 2
        for i, c in enumerate(reds):
            castle[free[i % half]].append(c)
        for i, c in enumerate(blacks):
            castle[free[half + i % (len(free) - half)]].append(c)
    elif unused:  # other colour than the top first, high to low, then the top's colour
        colour = COLOUR[C(castle[rest][0])]
        castle[rest] = sorted(unused, key=lambda c: (COLOUR[C(c)] == colour, -(C(c) % 13))) + castle[rest]
    return {"game": "piles", "format": 1, "num_players": n, "current_player": current,
            "hands": [hands[s] for s in range(n)], "castle": castle, "captured": captured,
            "set_aside": set_aside, "team_colours": list(colours), "chance_seed": seed}


def make(n=4, reward="win", **kw):
    return PilesGame(num_players=n, reward=reward).state_from_json(snap(n=n, **kw))


def names(cards) -> list[str]:
    return card_names(cards)


def can_place(state, card: str, pos: str) -> bool:
    return place_action(C(card), P(pos)) in state.legal_actions()


# ----- players, teams and deal ----------------------------------------------------------------
def test_four_players_in_two_teams_by_default_two_as_variant():
    """'Four players in two teams of two, partners opposite: seats 0 and 2 against 1 and 3.'"""
    assert PilesGame().num_players == 4
    assert PilesGame(num_players=2).num_players == 2
    for bad in (1, 3, 5, "4"):
        with pytest.raises(ValueError, match="num_players"):
            PilesGame(num_players=bad)
    s = make()
    assert s.scores()[0] == s.scores()[2] and s.scores()[1] == s.scores()[3]


@pytest.mark.parametrize("n", [4, 2])
def test_deal(n):
    """'Each player gets 10 cards ... The remaining 12 cards are dealt face up into the Castle,
    one card per position.' Two players: the 20 left are set aside face down."""
    s = PilesGame(num_players=n).new_state(np.random.default_rng(3))
    every = [c for h in s.hands for c in h] + [c for p in s.piles for c in p] + s.set_aside
    assert sorted(every) == list(range(52))
    assert [len(h) for h in s.hands] == [10] * n
    assert [len(p) for p in s.piles] == [1] * 12
    assert len(s.set_aside) == (20 if n == 2 else 0)
    assert s.captured == [[], []] and s.team_colours == [None, None]
    assert (s.current_player, s.turns_left, s.is_terminal()) == (0, 40, False)


def test_deal_depends_on_the_seed_only():
    g = PilesGame()
    deal = lambda seed: g.new_state(np.random.default_rng(seed)).to_json()  # noqa: E731
    assert deal(5) == deal(5)
    assert len({json.dumps(deal(seed)) for seed in range(10)}) == 10


def test_seat_0_opens_and_play_goes_in_seat_order():
    s = make()
    for expected in [0, 1, 2, 3, 0, 1]:
        assert s.current_player == expected
        s.apply(PASS)


# ----- values ---------------------------------------------------------------------------------
def test_card_points_and_colours():
    """'Ace 9, King 4, Queen 3, Jack 2, every other card 1 (each colour holds 54 points).'
    Hearts and diamonds are red, clubs and spades black."""
    assert [POINTS[C(r + "S")] for r in ("A", "K", "Q", "J", "10", "2")] == [9, 4, 3, 2, 1, 1]
    assert sum(POINTS[c] for c in range(52) if COLOUR[c] == RED) == MAX_POINTS == 54
    assert sum(POINTS[c] for c in range(52) if COLOUR[c] == BLACK) == 54
    assert [COLOUR[C(x)] for x in ("2C", "2D", "2H", "2S")] == [BLACK, RED, RED, BLACK]


@pytest.mark.parametrize("pos, expected", [
    ("r0c0", ["r0c1", "r1c0"]), ("r0c3", ["r0c2", "r1c3"]), ("r2c0", ["r1c0", "r2c1"]),
    ("r2c3", ["r1c3", "r2c2"]),  # corners: 2
    ("r0c1", ["r0c0", "r0c2", "r1c1"]), ("r1c0", ["r0c0", "r1c1", "r2c0"]),
    ("r1c3", ["r0c3", "r1c2", "r2c3"]), ("r2c2", ["r1c2", "r2c1", "r2c3"]),  # edges: 3
    ("r1c1", ["r0c1", "r1c0", "r1c2", "r2c1"]), ("r1c2", ["r0c2", "r1c1", "r1c3", "r2c2"]),  # middle: 4
])
def test_neighbours_are_the_orthogonally_adjacent_positions(pos, expected):
    """'The orthogonally adjacent positions in the 4x3 grid (2, 3 or 4).'"""
    assert sorted(NEIGHBOURS[P(pos)]) == sorted(P(q) for q in expected)


def test_neighbour_counts_over_the_grid():
    counts = [len(NEIGHBOURS[p]) for p in range(12)]
    assert counts == [2, 3, 3, 2,
                      3, 4, 4, 3,
                      2, 3, 3, 2]


def test_seed_example_red_10_with_3_red_and_1_black_neighbours_is_worth_12():
    """'A red 10 with 3 red and 1 black neighbours has total value 12.'"""
    s = make()
    assert s.values[P("r1c1")] == 12
    view = s.game.observation_layout.views(s.observation(0))
    assert view["top_value"][P("r1c1")] == pytest.approx((12 + 3) / 20)


def test_total_values_of_the_whole_castle():
    """Intrinsic value +1 per neighbouring top of the same colour, -1 per other colour."""
    s = make()
    # KS: 2D(-) 3D(-) -> 11; 2D: KS(-) QS(-) 10H(+) -> 1; QS: 2D(-) JS(+) 4H(-) -> 11;
    # JS: QS(+) 9C(+) -> 13; 3D: KS(-) 10H(+) 8C(-) -> 2; 10H: 12; 4H: QS(-) 10H(+) 9C(-) 7S(-) -> 2;
    # 9C: JS(+) 4H(-) 6S(+) -> 10; 8C: 3D(-) 5C(+) -> 8; 5C: 10H(-) 8C(+) 7S(+) -> 6;
    # 7S: 4H(-) 5C(+) 6S(+) -> 8; 6S: 9C(+) 7S(+) -> 8
    assert s.values == [11, 1, 11, 13, 2, 12, 2, 10, 8, 6, 8, 8]


def test_total_value_can_drop_below_one():
    """An Ace between unlike neighbours: 1 - 4 = -3 (our resolution: no floor)."""
    castle = list(CASTLE)
    castle[P("r1c1")], castle[P("r0c1")], castle[P("r1c0")], castle[P("r1c2")] = "AH", "2S", "3S", "4S"
    castle[P("r0c0")], castle[P("r1c3")] = "KD", "9D"
    s = make(castle=castle)
    assert s.values[P("r1c1")] == 1 - 4


# ----- a turn ---------------------------------------------------------------------------------
def test_same_colour_placement_is_always_allowed():
    """'Place a card from your hand on a pile whose top card has the same colour (always
    allowed)': a red 2 on the red 10 worth 12, a black Ace on the black King worth 11."""
    s = make(hands={0: ["2H", "AC", "KH", "6D", "7D", "8D", "9D", "10D", "JD", "QD"]})
    for card, pos in [("2H", "r1c1"), ("2H", "r0c1"), ("AC", "r0c0"), ("AC", "r0c3"), ("AC", "r2c3")]:
        assert can_place(s, card, pos)
    assert {p for p in range(12) if place_action(C("2H"), p) in s.legal_actions()} == \
        {P(x) for x in ("r0c1", "r1c0", "r1c1", "r1c2")}


@pytest.mark.parametrize("card, legal", [("JS", False), ("QS", False), ("KS", True)])
def test_capture_needs_intrinsic_value_strictly_greater_than_total_value(card, legal):
    """'If the card's intrinsic value is strictly greater than that top card's total value':
    the red 10 worth 12 falls to a black King (13) only; an equal Queen may not capture."""
    hand = [card, "2H", "3H", "5H", "6H", "7H", "8H", "9H", "JH", "QH"]
    s = make(hands={0: hand}, castle=[c if c != card else "KH" for c in CASTLE])
    assert can_place(s, card, "r1c1") == legal
    if not legal:
        before = s.to_json()
        with pytest.raises(IllegalActionError):
            s.apply(place_action(C(card), P("r1c1")))
        assert s.to_json() == before


def test_capture_boundary_at_a_low_value():
    """The red 2D is worth 1: a black Ace (1) may not capture it, a black 2 may."""
    castle = [c if c not in ("AC", "2C") else "KD" for c in CASTLE]
    s = make(castle=castle, hands={0: ["AC", "2C", "AD", "3H", "5H", "6H", "7H", "8H", "9H", "JH"]})
    assert s.values[P("r0c1")] == 1
    assert not can_place(s, "AC", "r0c1")
    assert can_place(s, "2C", "r0c1")


def test_capture_changes_control_and_the_neighbours_values():
    """'The pile changes control.' The new top counts for its neighbours with its own colour."""
    s = make(hands={0: ["KC", "2H", "3H", "5H", "6H", "7H", "8H", "9H", "JH", "QH"]})
    s.apply(place_action(C("KC"), P("r1c1")))
    assert names(s.piles[P("r1c1")]) == ["10H", "KC"]
    assert s.top_colour[P("r1c1")] == BLACK
    # KC: 2D(-) 3D(-) 4H(-) 5C(+) -> 13 - 2 = 11; its red neighbours lose 2, 5C gains 2.
    assert s.values[P("r1c1")] == 11
    assert [s.values[P(x)] for x in ("r0c1", "r1c0", "r1c2", "r2c1")] == [1 - 2, 2 - 2, 2 - 2, 6 + 2]
    assert s.values[P("r0c0")] == 11  # not a neighbour: unchanged


def test_placement_moves_the_card_from_hand_to_the_top_face_up():
    s = make(hands={0: ["2H", "3H", "5H", "6H", "7H", "8H", "9H", "JH", "QH", "KH"]})
    others_before = [s.observation(q) for q in (1, 2, 3)]
    s.apply(place_action(C("2H"), P("r1c1")))
    assert C("2H") not in s.hands[0] and len(s.hands[0]) == 9
    assert names(s.piles[P("r1c1")]) == ["10H", "2H"]
    assert s.values[P("r1c1")] == 2 + 3 - 1
    for q, before in zip((1, 2, 3), others_before):
        view = s.game.observation_layout.views(s.observation(q))
        assert view["top"][P("r1c1"), C("2H")] == 1 and view["unseen"][C("2H")] == 0
        assert not np.array_equal(before, s.observation(q))


def test_every_turn_removes_exactly_one_card_from_the_movers_hand():
    s = make()
    for _ in range(12):
        p, before = s.current_player, len(s.hands[s.current_player])
        s.apply(s.legal_actions()[len(s.legal_actions()) // 2])
        assert len(s.hands[p]) == before - 1


def test_legal_actions_are_exactly_the_placements_by_the_rules_plus_pass():
    s = make(hands={0: ["KS", "2H", "3H", "5H", "6H", "7H", "8H", "9H", "JH", "QH"]},
             castle=[c if c != "KS" else "KH" for c in CASTLE])
    expected = {PASS}
    for card in s.hands[0]:
        for p in range(12):
            if COLOUR[card] == s.top_colour[p] or card % 13 + 1 > s.values[p]:
                expected.add(place_action(card, p))
    assert set(s.legal_actions()) == expected and len(s.legal_actions()) == len(expected)
    assert s.legal_actions() == sorted(expected)


# ----- passing --------------------------------------------------------------------------------
def test_pass_is_always_allowed_even_with_legal_placements():
    """Rules file: 'Pass (always allowed; forced when 1 and 2 are impossible).'"""
    s = make()
    assert PASS in s.legal_actions() and len(s.legal_actions()) > 1


def test_pass_is_forced_when_no_placement_is_legal():
    """All tops red and worth more than every (black) hand card: only a pass."""
    castle = ["KH", "QH", "JH", "10H", "KD", "QD", "JD", "10D", "9H", "9D", "8H", "8D"]
    s = make(castle=castle, hands={0: ["2C", "3C", "4C", "5C", "6C", "7C", "2S", "3S", "4S", "5S"]})
    assert s.legal_actions() == [PASS]


@pytest.mark.parametrize("n, seat, taker_team", [(4, 0, 1), (4, 1, 0), (4, 2, 1), (4, 3, 0), (2, 0, 1), (2, 1, 0)])
def test_pass_gives_a_random_hand_card_to_the_left_opponents_team(n, seat, taker_team):
    """'The opponent on your left takes one of your hand cards at random; it is shown to all and
    added to his team's captured cards.' Left = the next seat."""
    s = make(n=n, current=seat)
    hand = list(s.hands[seat])
    captured_before = [list(t) for t in s.captured]
    s.apply(PASS)
    (taken,) = set(hand) - set(s.hands[seat])
    assert len(s.hands[seat]) == len(hand) - 1
    assert s.captured[taker_team] == captured_before[taker_team] + [taken]
    assert s.captured[1 - taker_team] == captured_before[1 - taker_team]
    for q in range(n):  # shown to all
        view = s.game.observation_layout.views(s.observation(q))
        own_team = q % 2 == taker_team
        assert view["captured"][0 if own_team else 1, taken] == 1
        assert view["unseen"][taken] == 0 and view["hand"][taken] == 0


def test_pass_draw_is_reproducible_and_uniform_over_the_hand():
    """The random pick comes from the state's chance seed: the same snapshot takes the same
    card; over many seeds every hand card is taken about equally often."""
    def taken(seed):
        s = make(seed=seed)
        before = set(s.hands[0])
        s.apply(PASS)
        return (before - set(s.hands[0])).pop()
    assert taken(11) == taken(11)
    counts = np.bincount([taken(seed) for seed in range(1000)], minlength=52)
    hand = make().hands[0]
    assert set(np.flatnonzero(counts)) == set(hand)
    assert counts[hand].min() > 60  # ~100 each


def test_pass_draws_are_reproduced_by_env_reset_seed():
    """reset(seed) reproduces a game that passes, chance events included."""
    def play(seed):
        env = card_envs.make("piles_v0")
        env.reset(seed=seed)
        for _ in range(6):
            env.step(PASS)
        return env.unwrapped.snapshot()
    assert play(4) == play(4)
    assert play(4)["state"]["captured"] != play(5)["state"]["captured"]


def test_successive_passes_draw_independently():
    """Each pass draws afresh: the hand slots taken by two passes in a row vary together."""
    slots = set()
    for seed in range(60):
        s = make(seed=seed)
        hands = [list(h) for h in s.hands]
        s.apply(PASS)
        s.apply(PASS)
        slots.add((hands[0].index(s.captured[1][-1]), hands[1].index(s.captured[0][-1])))
    assert len(slots) > 30  # of 100 possible pairs


# ----- team colours ---------------------------------------------------------------------------
@pytest.mark.parametrize("seat, card, pos, colours", [
    (0, "2H", "r1c1", ["red", "black"]),
    (0, "AC", "r0c0", ["black", "red"]),
    (1, "2H", "r1c1", ["black", "red"]),
    (1, "AC", "r0c0", ["red", "black"]),
])
def test_first_card_placed_fixes_the_colours_for_the_placers_team(seat, card, pos, colours):
    """'The colour of the first card placed on the Castle fixes the colours: the team of the
    player who placed it takes that colour.' Seat 1 places first after seat 0 passed."""
    hand = [card] + [c for c in ["3H", "5H", "6H", "7H", "8H", "9H", "JH", "QH", "KH", "2S"] if c != card][:9]
    s = make(hands={seat: hand}, current=seat)
    assert s.to_json()["team_colours"] == [None, None]
    s.apply(place_action(C(card), P(pos)))
    assert s.to_json()["team_colours"] == colours
    for q in range(4):
        view = s.game.observation_layout.views(s.observation(q))
        own = colours[q % 2]
        assert view["team_colour"].tolist() == ([[1, 0], [0, 1]] if own == "red" else [[0, 1], [1, 0]])


def test_passes_before_any_placement_leave_the_colours_open():
    """'Before a card has been placed, passes still happen as above.'"""
    s = make()
    for _ in range(5):
        s.apply(PASS)
    assert s.team_colours == [None, None]
    assert len(s.captured[0]) + len(s.captured[1]) == 5
    view = s.game.observation_layout.views(s.observation(0))
    assert not view["team_colour"].any() and not view["scores"].any()
    card = s.hands[s.current_player][0]
    s.apply(place_action(card, next(p for p in range(12) if s.top_colour[p] == COLOUR[card])))
    assert s.team_colours == [1 - COLOUR[card], COLOUR[card]]  # seat 1 placed it


def test_later_placements_do_not_change_the_colours():
    s = make(hands={0: ["2H", "AC", "2C", "3C", "4C", "6C", "7C", "10C", "JC", "QC"]})
    s.apply(place_action(C("2H"), P("r1c1")))
    for _ in range(8):
        black = [a for a in s.legal_actions() if a != PASS and COLOUR[a // 12] == BLACK]
        s.apply(black[0] if black else PASS)
    assert s.team_colours == [RED, BLACK]


def test_colours_do_not_restrict_placements():
    """Rules 1 and 2 hold for every player: a Red may place a black card on a black pile."""
    s = make(colours=("red", "black"), rest=P("r2c3"), size=5,
             hands={0: ["2C", "3H", "5H", "6H", "7H"]})
    assert can_place(s, "2C", "r0c0")


# ----- end and scoring ------------------------------------------------------------------------
def test_ten_turns_each_then_the_game_ends():
    """'The game ends when all hands are empty (10 turns each).'"""
    s = make()
    turns = [0] * 4
    while not s.is_terminal():
        turns[s.current_player] += 1
        s.apply(s.legal_actions()[0])
    assert turns == [10] * 4
    assert s.hands == [[], [], [], []] and s.legal_actions() == []
    with pytest.raises(IllegalActionError, match="none \\(game over\\)"):
        s.apply(PASS)


def test_two_player_second_deal():
    """'When both hands are empty, deal the 20 (10 each) and play on; the game ends when both
    hands are empty again.' Dealt alternately, seat 0 first; seat 0 moves first again."""
    rest = [c for c in ALL_CARDS if c not in CASTLE and c not in ("2H", "AC")]
    set_aside, captured = rest[:20], rest[20:]
    s = make(n=2, hands={0: ["2H"], 1: ["AC"]}, set_aside=set_aside, captured=(captured[:9], captured[9:]))
    assert s.turns_left == 22
    view = s.game.observation_layout.views(s.observation(0))
    assert view["second_deal"][0] == 0
    s.apply(place_action(C("2H"), P("r1c1")))
    assert not s.is_terminal() and s.hands[0] == []
    s.apply(place_action(C("AC"), P("r0c0")))
    assert not s.is_terminal() and s.current_player == 0 and s.set_aside == []
    assert names(s.hands[0]) == names(sorted(C(c) for c in set_aside[0::2]))
    assert names(s.hands[1]) == names(sorted(C(c) for c in set_aside[1::2]))
    for q in (0, 1):
        view = s.game.observation_layout.views(s.observation(q))
        assert view["second_deal"][0] == 1 and view["hand_sizes"].tolist() == [1, 1]
        assert set(np.flatnonzero(view["hand"])) == set(s.hands[q])
        assert set(np.flatnonzero(view["unseen"])) == set(s.hands[1 - q])
    turns = [0, 0]
    while not s.is_terminal():
        turns[s.current_player] += 1
        s.apply(PASS)
    assert turns == [10, 10]


def test_two_player_game_lasts_20_turns_each():
    s = PilesGame(num_players=2).new_state(np.random.default_rng(0))
    turns = [0, 0]
    while not s.is_terminal():
        turns[s.current_player] += 1
        s.apply(s.legal_actions()[-2] if len(s.legal_actions()) > 1 else PASS)
    assert turns == [20, 20]


# End position: team 0 red, team 1 black. Castle: r0c0 holds AC QS under a red top (Reds take
# 9 + 3), r0c1 holds AH JD under a black top (Blacks take 9 + 2); the other piles hold one colour
# only. Captured after passes: team 0 has AS (9 for the Reds) and 2H (red: worth nothing to
# them), team 1 has KD (4 for the Blacks) and 3C (nothing). Reds 21, Blacks 15.
END_CASTLE = [["AC", "QS", "KH"], ["AH", "JD", "9S"]] + [[] for _ in range(10)]
END_CAPTURED = (["AS", "2H"], ["KD", "3C"])


def end(colours=("red", "black"), reward="win", n=4):
    return make(n=n, castle=END_CASTLE, captured=END_CAPTURED, colours=colours, size=0, rest="monochrome",
                reward=reward)


def test_final_scoring_on_a_hand_built_end_position():
    """'Each team takes the piles topped by its colour; every card of the other colour inside
    them is captured. Cards taken after a pass are added to the capturing team's cards; only those
    of the other colour score.'"""
    s = end()
    assert s.is_terminal()
    assert s.team_points() == [9 + 3 + 9, 9 + 2 + 4]
    assert s.scores() == [21, 15, 21, 15]
    view = s.game.observation_layout.views(s.observation(1))
    assert view["scores"].tolist() == pytest.approx([15 / 54, 21 / 54])


def test_final_scoring_with_the_colours_swapped():
    """Team 0 black: it takes r0c1 (AH JD: 11) and its captured red 2H (1); team 1 red takes
    r0c0 (AC QS: 12) and its captured black 3C (1)."""
    s = end(colours=("black", "red"))
    assert s.team_points() == [9 + 2 + 1, 9 + 3 + 1]


def test_win_rewards_are_shared_by_teammates():
    """'The team with more points wins; equal points draw. Teammates share the reward.'"""
    assert end().returns().tolist() == [1.0, -1.0, 1.0, -1.0]
    assert end(colours=("black", "red")).returns().tolist() == [-1.0, 1.0, -1.0, 1.0]


def test_score_rewards_are_the_team_difference_over_54():
    assert end(reward="score").returns() == pytest.approx([6 / 54, -6 / 54, 6 / 54, -6 / 54])


def test_two_player_rewards():
    s = end(n=2)
    assert s.scores() == [21, 15] and s.returns().tolist() == [1.0, -1.0]


def test_equal_points_draw():
    castle = [["AC", "5H"], ["AH", "9S"]] + [[] for _ in range(10)]
    s = make(castle=castle, captured=(["KS"], ["KD"]), colours=("red", "black"), size=0, rest="monochrome")
    assert s.team_points() == [13, 13]
    assert s.returns().tolist() == [0.0] * 4


def test_no_card_ever_placed_means_no_colours_nothing_scores_and_a_draw():
    """Our resolution: without a placement no team has a colour, so nothing scores."""
    s = make(size=0)  # every hand card was taken after a pass
    assert s.is_terminal() and s.team_colours == [None, None]
    assert s.scores() == [0, 0, 0, 0] and s.returns().tolist() == [0.0] * 4
    assert make(size=0, reward="score").returns().tolist() == [0.0] * 4


@pytest.mark.parametrize("card, team1_points", [("KS", 9), ("KH", 0)])
def test_cards_taken_before_the_colours_are_fixed_score_against_the_final_colour(card, team1_points):
    """Our resolution: seat 0 passes its last card AH to team 1 before any placement; seat 1 then
    places the first card. Black (KS): team 1 is black and scores the red Ace; red (KH): it is
    worth nothing to team 1."""
    castle = ["2C", "2D", "2H", "2S", "3C", "3D", "3H", "3S", "4C", "4D", "4H", "4S"]
    others = ["5D", "6D"] if card == "KS" else ["5C", "6C"]  # not of the card's colour
    hands = {0: ["AH"], 1: [card], 2: others[:1], 3: others[1:]}
    # 36 earlier passes, 18 by each team; team 1's catch is of its own colour, worth nothing.
    taken = [c for c in ALL_CARDS if c not in castle + ["AH", card] + others]
    own = [c for c in taken if COLOUR[C(c)] == COLOUR[C(card)]][:18]
    s = make(castle=castle, hands=hands, captured=([c for c in taken if c not in own], own))
    s.apply(PASS)
    assert s.captured[1] == [C(c) for c in own] + [C("AH")]
    target = next(p for p in range(12) if COLOUR[s.tops[p]] == COLOUR[C(card)])
    s.apply(place_action(C(card), target))
    assert s.team_colours[1] == COLOUR[C(card)]
    assert s.team_points()[1] == team1_points  # the placed pile holds one colour: worth nothing


def test_points_never_count_own_colour_cards():
    """Only cards of the other colour score: a red pile under a red top is worth nothing."""
    castle = [["AH", "KH", "QD"], ["AS", "KC"]] + [[] for _ in range(10)]
    s = make(castle=castle, colours=("red", "black"), size=0, rest="monochrome")
    assert s.team_points() == [0, 0]


# ----- information ----------------------------------------------------------------------------
def test_observation_hides_partner_and_opponent_hands_and_the_set_aside_cards():
    """'Private: your own hand. Hidden from everyone: the cards set aside.' Swapping cards
    between the other hands (partner included) leaves seat 0's view unchanged."""
    a = make(hands={0: ALL_CARDS[12:22], 1: ALL_CARDS[22:32], 2: ALL_CARDS[32:42], 3: ALL_CARDS[42:52]},
             castle=ALL_CARDS[:12])
    b = make(hands={0: ALL_CARDS[12:22], 1: ALL_CARDS[32:42], 2: ALL_CARDS[42:52], 3: ALL_CARDS[22:32]},
             castle=ALL_CARDS[:12])
    assert np.array_equal(a.observation(0), b.observation(0))
    for seat in (1, 2, 3):
        assert not np.array_equal(a.observation(seat), b.observation(seat))
    two_a = make(n=2, hands={0: ALL_CARDS[12:22], 1: ALL_CARDS[22:32]}, set_aside=ALL_CARDS[32:52],
                 castle=ALL_CARDS[:12])
    two_b = make(n=2, hands={0: ALL_CARDS[12:22], 1: ALL_CARDS[42:52]}, set_aside=ALL_CARDS[22:42],
                 castle=ALL_CARDS[:12])
    assert np.array_equal(two_a.observation(0), two_b.observation(0))
    assert not np.array_equal(two_a.state_tensor(), two_b.state_tensor())


def test_observation_shows_every_pile_in_order():
    """'Public: every card on the Castle, in order, for every pile.'"""
    castle = list(CASTLE)
    a = make(castle=[["2H", "3H", "10H"] if c == "10H" else c for c in castle], colours=("red", "black"),
             size=9, current=0, rest=P("r2c3"))
    b = make(castle=[["3H", "2H", "10H"] if c == "10H" else c for c in castle], colours=("red", "black"),
             size=9, current=0, rest=P("r2c3"))
    assert not np.array_equal(a.observation(1), b.observation(1))
    view = a.game.observation_layout.views(a.observation(1))
    assert view["pile_cards"][P("r1c1"), [C("2H"), C("3H"), C("10H")]] * 52 == pytest.approx([1, 2, 3])


def test_observation_is_relative_to_the_observer():
    s = make(current=1, size=10)
    view = s.game.observation_layout.views(s.observation(3))
    assert view["to_move"].tolist() == [0, 0, 1, 0]  # relative seats of seat 3: 3, 0, 1, 2
    assert view["hand_sizes"].tolist() == pytest.approx([1.0, 0.9, 1.0, 1.0])  # seats 3, 0, 1, 2
    assert view["team"].tolist() == [0, 1]


def test_render_shows_the_castle_grid_and_only_the_viewers_hand():
    s = make(hands={0: ["2H", "3H", "5H", "6H", "7H", "8H", "9H", "JH", "QH", "KH"]})
    g = s.game
    text = g.render(s, 0)
    assert "10H=12/1" in text and "KS=11/1" in text and "colour not fixed" in text
    assert "2H 3H 5H" in text and "10 hidden" in text
    assert "2H" not in g.render(s, None) and "2H" in g.render(s, -1)
    assert "2H 3H" not in g.render(s, 1)


# ----- illegal actions and action names -------------------------------------------------------
def test_illegal_action_raises_with_a_helpful_message_and_keeps_the_state():
    s = make(hands={0: ["JC", "2H", "3H", "5H", "6H", "7H", "8H", "9H", "JH", "QH"]})
    before = s.to_json()
    action = place_action(C("JC"), P("r1c1"))
    with pytest.raises(IllegalActionError) as err:
        s.apply(action)
    assert f"action {action} (place JC on r1c1) is illegal" in str(err.value)
    assert "legal: " in str(err.value) and "pass" in str(err.value)
    with pytest.raises(IllegalActionError, match="place 4C on r0c0"):
        s.apply(place_action(C("4C"), 0))  # not in the hand
    assert s.to_json() == before


@pytest.mark.parametrize("bad", [-1, NUM_ACTIONS, 10**6, "pass", None, 1.5, [3], True])
def test_out_of_range_and_non_integer_actions_raise(bad):
    s = make()
    before = s.to_json()
    with pytest.raises(ValueError):
        s.apply(bad)
    assert s.to_json() == before


def test_numpy_int_actions_are_accepted():
    s = make()
    s.apply(np.int64(PASS))
    assert s.current_player == 1


def test_action_table():
    g = PilesGame()
    assert NUM_ACTIONS == 625 and PASS == 624
    assert place_action(C("10D"), P("r1c2")) == 12 * 22 + 6
    assert g.action_to_string(place_action(C("10D"), P("r1c2"))) == "place 10D on r1c2"
    assert g.action_to_string(0) == "place AC on r0c0"
    assert g.action_to_string(PASS) == "pass"
    with pytest.raises(ValueError):
        g.action_to_string(NUM_ACTIONS)


# ----- snapshots ------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [4, 2])
def test_snapshot_round_trip_through_a_whole_game(n):
    game = PilesGame(num_players=n)
    rng = np.random.default_rng(n)
    s = game.new_state(rng)
    while True:
        data = json.loads(json.dumps(s.to_json()))
        back = game.state_from_json(data)
        assert back.to_json() == data and back.legal_actions() == s.legal_actions()
        if s.is_terminal():
            break
        action = PASS if rng.random() < 0.2 else int(rng.choice(s.legal_actions()))
        s.apply(action)
        back.apply(action)  # the pass draw continues identically from the snapshot
        assert back.to_json() == s.to_json()


def _dup(d):
    d["hands"][0][0] = d["castle"][0][0]


def _wrong_game(d):
    d["game"] = "hearts"


def _bad_colours(d):
    d["team_colours"] = ["red", "red"]


def _colours_without_placement(d):
    d["team_colours"] = ["red", "black"]


def _sizes(d):
    d["hands"][2].append(d["hands"][3].pop())


def _empty_pile(d):
    d["captured"][1] += d["castle"][5]
    d["castle"][5] = []


def _set_aside_in_4p(d):
    d["set_aside"] = d["hands"][3][:]
    d["hands"][3] = []


def _seed(d):
    d["chance_seed"] = -1


def _current(d):
    d["current_player"] = 4


@pytest.mark.parametrize("corrupt, words", [
    (_dup, ["KS", "exactly once"]),
    (_wrong_game, ["hearts", "piles"]),
    (_bad_colours, ["team_colours", "red"]),
    (_colours_without_placement, ["no card was placed", "first card placed"]),
    (_sizes, ["hand sizes", "current_player=0"]),
    (_empty_pile, ["at least one card", "r1c1"]),
    (_set_aside_in_4p, ["set_aside", "with 4 players"]),
    (_seed, ["chance_seed"]),
    (_current, ["current_player: 4", "0..3"]),
], ids=["duplicate", "game", "colours", "colours_early", "sizes", "empty_pile", "set_aside", "seed", "current"])
def test_bad_snapshots_raise_helpful_value_errors(corrupt, words):
    data = snap()
    PilesGame().state_from_json(data)  # valid before the corruption
    corrupt(data)
    with pytest.raises(ValueError) as err:
        PilesGame().state_from_json(data)
    for word in words:
        assert word in str(err.value)


def test_two_player_snapshot_checks_the_set_aside_size():
    data = snap(n=2, set_aside=ALL_CARDS[32:52], castle=ALL_CARDS[:12])
    PilesGame(num_players=2).state_from_json(data)
    data["captured"][0] = data["set_aside"][:5]
    data["set_aside"] = data["set_aside"][5:]
    with pytest.raises(ValueError, match="set_aside: holds 15 cards; with 2 players it holds 0 or 20"):
        PilesGame(num_players=2).state_from_json(data)
