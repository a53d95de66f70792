"""Rules tests for 3 Piles: one test per rule / example of `shared/rules/three_piles.md`.

Positions are built from JSON snapshots (`state.to_json()` format). `snap()` takes only the cards
a test cares about and puts every other card into the deck (under the listed deck cards) or, with
`rest=<stack index>`, at the bottom of that center stack (used when the deck must be empty).
"""

from __future__ import annotations

import numpy as np
import pytest

from card_envs.core.cards import card_names, parse_card
from card_envs.core.game import IllegalActionError
from card_envs.games.three_piles.game import ThreePilesGame
from card_envs.games.three_piles.rules import DRAW, NUM_ACTIONS, PASS, play_to_pile, play_to_stack, take_action

ALL_CARDS = card_names(range(52))
CHOOSE, PLACE = 0, 1


# ----- helpers ------------------------------------------------------------------------------
def C(name: str) -> int:
    return parse_card(name)


def snap(n=2, hands=None, piles=None, stacks=None, deck=(), rest="deck", current=0, phase="choose",
         passes=0) -> dict:
    """A full snapshot. hands/piles: {seat: ...}; stacks: list of up to 3 lists (bottom -> top);
    deck: top card first. Unlisted cards go under the deck (rest="deck") or under stack `rest`.
    While the deck lasts, the hands of unlisted seats get 3 unlisted cards (a reachable position)."""
    listed, hands = hands or {}, [list((hands or {}).get(s, [])) for s in range(n)]
    piles = [[list(p) for p in (piles or {}).get(s, [[], [], []])] for s in range(n)]
    stacks = [list(s) for s in (stacks or [])] + [[] for _ in range(3 - len(stacks or []))]
    deck = list(deck)
    used = {c for h in hands for c in h} | {c for s in piles for p in s for c in p} | \
        {c for s in stacks for c in s} | set(deck)
    leftover = [c for c in ALL_CARDS if c not in used]
    if rest == "deck":
        for s in range(n):
            if s not in listed:
                hands[s], leftover = leftover[-3:], leftover[:-3]
        deck += leftover
    else:
        stacks[rest] = leftover + stacks[rest]
    return {"game": "three_piles", "format": 1, "num_players": n, "current_player": current,
            "phase": phase, "consecutive_passes": passes, "hands": hands, "piles": piles,
            "stacks": stacks, "deck": deck}


def make(n=2, reward="win", **kw):
    return ThreePilesGame(num_players=n, reward=reward).state_from_json(snap(n=n, **kw))


def names(cards) -> list[str]:
    return card_names(cards)


def stuck_piles(n):
    """Per seat 3 piles each spanning ranks <=4 .. >=8: a 5, 6 or 7 fits none of them."""
    lows, highs = ["4", "3", "2", "A"], ["8", "9", "10", "J"]
    return {s: [[lows[s] + suit, highs[s] + suit] for suit in "CDH"] for s in range(n)}


def stuck(n=2, **kw):
    """Deck empty, all hands empty, stack tops 5S 6S 7S fit no pile: every seat must pass."""
    kw.setdefault("piles", stuck_piles(n))
    return make(n=n, stacks=[["5S"], ["6S"], ["7S"]], rest=0, **kw)


# ----- components and deal --------------------------------------------------------------------
def test_two_players_by_default_and_three_or_four_as_variant():
    """'Two players by default; 3-4 players may be offered as a documented variant.'"""
    assert ThreePilesGame().num_players == 2
    for n in (3, 4):
        assert ThreePilesGame(num_players=n).num_players == n
    for bad in (1, 5):
        with pytest.raises(ValueError, match="num_players"):
            ThreePilesGame(num_players=bad)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_deal(n):
    """'Each player is dealt 3 cards ... Three cards are dealt face up as the 3 center stacks.
    The rest is the face-down deck. Each player owns 3 piles, empty at the start.'"""
    s = ThreePilesGame(num_players=n).new_state(np.random.default_rng(7))
    every = [c for h in s.hands for c in h] + [c for st in s.stacks for c in st] + s.deck
    assert sorted(every) == list(range(52))
    assert [len(h) for h in s.hands] == [3] * n
    assert [len(st) for st in s.stacks] == [1, 1, 1]
    assert len(s.deck) == 52 - 3 * n - 3
    assert s.piles == [[[], [], []] for _ in range(n)]
    assert (s.current_player, s.phase, s.is_terminal()) == (0, CHOOSE, False)


def test_deal_depends_on_seed_only():
    """Same rng seed -> same deal; different seeds -> different deals."""
    g = ThreePilesGame()
    deal = lambda seed: g.new_state(np.random.default_rng(seed)).to_json()  # noqa: E731
    assert deal(3) == deal(3)
    assert len({str(deal(seed)) for seed in range(10)}) == 10


# ----- pile rule ----------------------------------------------------------------------------
def fits(pile: list[str], card: str) -> bool:
    """Whether `card` may be added to seat 0's pile 0 holding `pile`; checked both as a hand card
    and as a stack top (deck empty). Both ways must agree."""
    from_hand = make(hands={0: [card]}, piles={0: [pile, [], []]}, rest=1)
    from_stack = make(piles={0: [pile, [], []]}, stacks=[[card]], rest=1)
    a = play_to_pile(C(card), 0) in from_hand.legal_actions()
    b = take_action(0, 0) in from_stack.legal_actions()
    assert a == b
    return a


@pytest.mark.parametrize("rank", ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"])
def test_pile_rule_example_3_5_6(rank):
    """'Onto {3,5,6} only 2 or lower, or 7 or higher' (3, 4, 5 and 6 can't, 4 included)."""
    expected = rank in ("A", "2", "7", "8", "9", "10", "J", "Q", "K")
    assert fits(["3C", "5D", "6H"], rank + "S") == expected


def test_pile_rule_4_cannot_fill_the_gap():
    """'3, 4, 5, and 6 can't be added, despite the pile not containing a 4.'"""
    assert not fits(["3C", "5D", "6H"], "4S")
    assert not fits(["3C", "5D", "6H"], "4D")


@pytest.mark.parametrize("card", ["AS", "7D", "KH"])
def test_any_card_starts_an_empty_pile(card):
    """'A card may be added to an empty pile.'"""
    assert fits([], card)


def test_equal_rank_never_fits():
    """Strictly lower or strictly higher: a card of a rank already in the pile never fits."""
    assert not fits(["5H"], "5S")
    assert not fits(["AH", "KH"], "AS")
    assert not fits(["AH", "KH"], "KS")


def test_suits_do_not_matter():
    """Only ranks are compared: any suit may go below or above."""
    for card in ("4C", "4D", "4H", "4S", "6C", "6D", "6H", "6S"):
        assert fits(["5H"], card)


def test_pile_kept_in_rank_order():
    """Cards are added at either end of a pile, which stays ordered by rank."""
    s = make(hands={0: ["2S"]}, piles={0: [["3C", "6H", "5D"], [], []]}, rest=1)
    assert names(s.piles[0][0]) == ["3C", "5D", "6H"]
    s.apply(play_to_pile(C("2S"), 0))
    assert names(s.piles[0][0]) == ["2S", "3C", "5D", "6H"]


def test_pile_can_reach_13_cards_then_nothing_fits():
    """'A pile holds at most 13 cards, all ranks distinct.'"""
    twelve = ["2C", "3D", "4H", "5S", "6C", "7D", "8H", "9S", "10C", "JD", "QH", "KS"]
    s = make(hands={0: ["AD"], 1: ["QC"]}, piles={0: [twelve, [], []]}, rest=1)
    s.apply(play_to_pile(C("AD"), 0))
    assert len(s.piles[0][0]) == 13
    assert s.scores()[0] == 13 + 3 + 4  # longest 13, Ace and King, 4 Diamonds (3D 7D JD AD)
    for card in ALL_CARDS:
        if card not in twelve + ["AD"]:
            assert not fits(twelve + ["AD"], card)


# ----- a turn while the deck is not empty --------------------------------------------------
def deck_turn(**kw):
    """Seat 0: piles {3,5,6}, {}, {10,J}; stack tops 4C 8D JD; hand 2H 4H JH; deck top 9H."""
    kw.setdefault("hands", {0: ["2H", "4H", "JH"], 1: ["2S", "3S", "4S"]})
    return make(piles={0: [["3C", "5D", "6H"], [], ["10S", "JS"]]},
                stacks=[["2C", "4C"], ["8D"], ["JD"]], deck=["9H"], **kw)


def test_deck_turn_legal_actions_are_fitting_takes_and_draw():
    """Deck not empty: take a stack top that fits one of your piles, or draw. No hand play and
    no pass before drawing."""
    s = deck_turn()
    expected = {take_action(0, 1), take_action(0, 2),  # 4C: not into {3,5,6}
                take_action(1, 0), take_action(1, 1), take_action(1, 2),  # 8D fits everywhere
                take_action(2, 0), take_action(2, 1),  # JD: not onto {10,J}
                DRAW}
    assert set(s.legal_actions()) == expected
    assert len(s.legal_actions()) == len(expected)


def test_deck_turn_no_hand_play_or_pass_before_drawing():
    """'Draw the top card of the deck into your hand, then ...': hand cards are played only
    after a draw while the deck lasts, and passing is never allowed then."""
    s = deck_turn()
    for a in (play_to_pile(C("JH"), 1), play_to_stack(C("2H"), 0), PASS):
        assert a not in s.legal_actions()
        with pytest.raises(IllegalActionError):
            s.apply(a)


def test_pass_never_legal_while_deck_not_empty():
    """With no fitting stack top, the player draws rather than passes (or plays his hand)."""
    s = make(piles=stuck_piles(2), stacks=[["5S"], ["6S"], ["7S"]], deck=["QS"])
    assert len(s.hands[0]) == 3 and s.legal_actions() == [DRAW]


def test_take_moves_stack_top_to_pile_and_passes_turn():
    """'Take the top card of one center stack and add it to one of your piles.'"""
    s = deck_turn()
    deck = list(s.deck)
    s.apply(take_action(0, 1))
    assert names(s.piles[0][1]) == ["4C"]
    assert names(s.stacks[0]) == ["2C"]  # next card exposed, no refill
    assert s.deck == deck
    assert (s.current_player, s.phase) == (1, CHOOSE)


def test_take_refills_emptied_stack_from_deck_top():
    """'If that stack is now empty, turn the top card of the deck face up onto it.'"""
    s = deck_turn()
    size = len(s.deck)
    s.apply(take_action(1, 0))
    assert names(s.piles[0][0]) == ["3C", "5D", "6H", "8D"]
    assert names(s.stacks[1]) == ["9H"]
    assert len(s.deck) == size - 1 and C("9H") not in s.deck


def test_turn_passes_to_next_seat_with_wraparound():
    """Turns go to the next player, the last seat back to seat 0."""
    s = make(n=3, current=2, hands={2: ["2H", "3H", "4H"]}, stacks=[["AC"], ["AD"], ["AH"]])
    s.apply(take_action(0, 0))
    assert s.current_player == 0


def test_draw_puts_deck_top_in_hand_and_asks_same_player_to_place():
    """'Draw the top card of the deck into your hand': same player, phase place, 4 cards."""
    s = deck_turn()
    size = len(s.deck)
    s.apply(DRAW)
    assert (s.current_player, s.phase) == (0, PLACE)
    assert sorted(names(s.hands[0])) == sorted(["2H", "4H", "JH", "9H"])
    assert len(s.deck) == size - 1


def test_after_draw_legal_actions_are_exactly_hand_plays():
    """'... then either add one hand card to one of your piles (it must fit), or put one hand
    card face up on top of one center stack' (any stack). No take, draw or pass."""
    s = deck_turn()
    s.apply(DRAW)
    fitting = {"2H": [0, 1, 2], "4H": [1, 2], "JH": [0, 1], "9H": [0, 1, 2]}
    expected = set()
    for card, pile_ids in fitting.items():
        expected |= {play_to_pile(C(card), k) for k in pile_ids}
        expected |= {play_to_stack(C(card), st) for st in range(3)}
    assert set(s.legal_actions()) == expected
    assert len(s.legal_actions()) == len(expected)


def test_after_draw_card_must_fit_the_pile():
    """The placed card must fit: 4 cannot go onto {3,5,6}, J cannot go onto {10,J}."""
    s = deck_turn()
    s.apply(DRAW)
    for a in (play_to_pile(C("4H"), 0), play_to_pile(C("JH"), 2)):
        with pytest.raises(IllegalActionError):
            s.apply(a)
    assert s.phase == PLACE


def test_after_draw_place_on_pile_ends_turn_with_three_cards():
    """'Your hand stays at 3 cards while the deck lasts'; then the next player moves."""
    s = deck_turn()
    s.apply(DRAW)
    s.apply(play_to_pile(C("9H"), 2))
    assert names(s.piles[0][2]) == ["9H", "10S", "JS"]
    assert len(s.hands[0]) == 3 and C("9H") not in s.hands[0]
    assert (s.current_player, s.phase) == (1, CHOOSE)


def test_after_draw_place_on_top_of_a_stack():
    """'... or put one hand card face up on top of one center stack.'"""
    s = deck_turn()
    s.apply(DRAW)
    s.apply(play_to_stack(C("4H"), 1))
    assert names(s.stacks[1]) == ["8D", "4H"]
    assert sorted(names(s.hands[0])) == sorted(["2H", "JH", "9H"])
    assert (s.current_player, s.phase) == (1, CHOOSE)


# ----- a turn once the deck is empty -------------------------------------------------------
def test_empty_deck_no_draw_and_take_may_leave_stack_empty():
    """'Take the top card of a center stack onto one of your piles (the stack may become
    empty).' There is no draw."""
    s = make(hands={0: ["2H"]}, stacks=[["4C"], ["8D"]], rest=1)
    assert DRAW not in s.legal_actions()
    s.apply(take_action(0, 0))
    assert names(s.piles[0][0]) == ["4C"]
    assert s.stacks[0] == [] and s.deck == []


def test_empty_deck_hand_card_to_pile_or_any_stack():
    """'Add one hand card to one of your piles, or put one hand card on top of a center stack
    (an empty stack allowed).'"""
    s = make(hands={0: ["2H", "9H"]}, piles={0: [["3C", "5D", "6H"], ["AC", "KC"], ["10S"]]},
             stacks=[[], ["8D"]], rest=1)
    hand_plays = {play_to_pile(C("2H"), 0), play_to_pile(C("2H"), 2), play_to_pile(C("9H"), 0),
                  play_to_pile(C("9H"), 2)}
    hand_plays |= {play_to_stack(C(c), st) for c in ("2H", "9H") for st in range(3)}  # 0, 2 empty
    takes = {take_action(1, 0), take_action(1, 2)}  # 8D fits {3,5,6} and {10}, not {A,K}
    assert set(s.legal_actions()) == hand_plays | takes
    s.apply(play_to_stack(C("9H"), 0))
    assert names(s.stacks[0]) == ["9H"]
    assert names(s.hands[0]) == ["2H"]
    assert (s.current_player, s.phase) == (1, CHOOSE)


def test_pass_is_the_only_action_when_hand_empty_and_no_top_fits():
    """'If you can do neither (hand empty and no stack top fits any of your piles), you pass.'"""
    s = stuck()
    assert s.legal_actions() == [PASS]
    s.apply(PASS)
    assert s.current_player == 1 and not s.is_terminal()


def test_pass_not_legal_with_a_hand_card_that_fits_no_pile():
    """'Passing is only allowed then': a hand card that fits no pile can still go on a stack."""
    s = stuck(hands={0: ["6D"]})
    assert set(s.legal_actions()) == {play_to_stack(C("6D"), st) for st in range(3)}
    with pytest.raises(IllegalActionError):
        s.apply(PASS)


def test_pass_not_legal_when_a_stack_top_fits():
    """With an empty hand, a stack top that fits a pile must be taken rather than passing."""
    s = make(piles=stuck_piles(2), stacks=[["5S"], ["6S"], ["KS"]], rest=0)
    assert set(s.legal_actions()) == {take_action(2, k) for k in range(3)}
    with pytest.raises(IllegalActionError):
        s.apply(PASS)


def test_pass_not_legal_with_an_empty_pile_and_any_stack_top():
    """Any card fits an empty pile, so a player with an empty pile and a stack top can't pass."""
    piles = stuck_piles(2)
    piles[0][2] = []
    s = make(piles=piles, stacks=[["5S"], ["6S"], ["7S"]], rest=0)
    assert set(s.legal_actions()) == {take_action(st, 2) for st in range(3)}


def test_passed_player_plays_again_when_stack_tops_change():
    """'You may play again later if the stack tops change.'"""
    s = stuck(hands={1: ["AS"]})
    s.apply(PASS)
    s.apply(play_to_stack(C("AS"), 0))  # seat 1 puts an Ace on a stack: it fits seat 0's piles
    assert s.legal_actions() == [take_action(0, k) for k in range(3)]
    s.apply(take_action(0, 1))
    assert names(s.piles[0][1]) == ["AS", "4D", "8D"]
    assert names(s.stacks[0][-1:]) == ["5S"]


# ----- end of the game ----------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3])
def test_game_ends_exactly_after_n_consecutive_passes(n):
    """'The game ends when every player in turn has been forced to pass (n consecutive passes).'"""
    s = stuck(n=n)
    for seat in range(n - 1):
        assert s.current_player == seat and s.legal_actions() == [PASS]
        s.apply(PASS)
        assert not s.is_terminal()
    s.apply(PASS)
    assert s.is_terminal()
    assert s.legal_actions() == []
    with pytest.raises(IllegalActionError):
        s.apply(PASS)


@pytest.mark.parametrize("move", ["take", "to_pile", "to_stack"])
def test_any_non_pass_move_resets_consecutive_passes(move):
    """Passes must be consecutive: any other move resets the count."""
    actions = {"take": take_action(2, 0), "to_pile": play_to_pile(C("AS"), 0),
               "to_stack": play_to_stack(C("AS"), 1)}
    spans = [["4C", "KC"], ["4D", "KD"], ["4H", "KH"]]  # seat 0 passed: no top fits its piles
    s = make(current=1, passes=1, hands={1: ["AS"]}, piles={0: spans, 1: stuck_piles(2)[1]},
             stacks=[["5S"], ["6S"], ["QS"]], rest=0)
    s.apply(actions[move])
    assert s.to_json()["consecutive_passes"] == 0


def test_interrupted_passes_do_not_end_the_game():
    """Pass, move, pass is not 'every player in turn forced to pass': the game goes on."""
    s = stuck(hands={1: ["AS"]})
    s.apply(PASS)  # seat 0
    s.apply(play_to_pile(C("AS"), 0))  # seat 1 (its A goes under {3,9}; tops unchanged)
    s.apply(PASS)  # seat 0
    assert not s.is_terminal()
    s.apply(PASS)  # seat 1, now stuck too
    assert s.is_terminal()


# ----- scoring ------------------------------------------------------------------------------
def score(piles, hand=()):
    return make(piles={0: piles}, hands={0: list(hand)}, rest=0, stacks=[["5S"], ["6S"], ["7S"]]).scores()[0]


def test_score_longest_pile():
    """'The number of cards in his longest pile.'"""
    assert score([["2C", "3C", "4C", "5C"], ["9S"], []]) == 4
    assert score([["2C"], ["3C", "4H", "9H"], ["10C", "JC"]]) == 3
    assert score([[], [], []]) == 0


def test_score_three_points_per_pile_with_ace_and_king():
    """'3 points for each of his piles that contains both an Ace and a King.'"""
    assert score([["AC", "KC"], [], []]) == 2 + 3
    assert score([["AC", "KC"], ["AH", "5H", "KS"], []]) == 3 + 6
    assert score([["AC", "QC"], ["2H", "KH"], []]) == 2  # no pile holds both
    assert score([["AC"], ["KC"], []]) == 1  # Ace and King in different piles


def test_score_one_point_per_diamond_in_piles_only():
    """'1 point per Diamond in his piles': Diamonds in hand or on stacks do not count."""
    assert score([["2D", "3D"], ["9D"], ["4C"]]) == 2 + 3
    assert score([["2C"], [], []], hand=["4D", "5D", "6D"]) == 1


def test_score_maximum_35():
    """'13 from a 13-card pile, 9 from each pile having an Ace and a King, 13 from all Diamonds.'"""
    all_diamonds = [r + "D" for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]]
    assert score([all_diamonds, ["AC", "KC"], ["AH", "KH"]]) == 35


def test_score_updates_as_cards_are_added():
    s = make(hands={0: ["KD"]}, piles={0: [["AC", "5C"], [], []]}, rest=0, stacks=[["5S"], ["6S"], ["7S"]])
    assert s.scores() == [2, 0]
    s.apply(play_to_pile(C("KD"), 0))
    assert s.scores() == [3 + 3 + 1, 0]


# ----- rewards ------------------------------------------------------------------------------
SIX = [["AC", "KC"], ["2D", "QC"], ["3C", "JC"]]  # 2 + 3 + 1 = 6 (shorter longest pile)
FIVE_B = [["2H", "3H", "4H", "6H", "8H"], ["4C", "9C"], ["5C", "10C"]]  # 5
# Game over: the one stack top, 7S, fits no pile above (each spans rank 7), and every hand is empty.
OVER = dict(stacks=[["7S"]], rest=0)


def test_returns_zero_before_the_end():
    s = stuck()
    assert not s.is_terminal()
    assert s.returns().tolist() == [0.0, 0.0]


def test_highest_total_wins():
    """'Highest total wins' (totals compared, not the longest pile): +1 / -1."""
    s = make(piles={0: SIX, 1: FIVE_B}, passes=2, **OVER)
    assert s.is_terminal() and s.scores() == [6, 5]
    assert s.returns().tolist() == [1.0, -1.0]
    s = make(piles={0: FIVE_B, 1: SIX}, passes=2, **OVER)
    assert s.returns().tolist() == [-1.0, 1.0]


def test_equal_totals_draw():
    """'Equal totals draw': reward 0 for both."""
    s = make(piles={0: FIVE_B, 1: [["2D", "8S"], ["3D", "9S"], ["6S", "10D"]]}, passes=2, **OVER)
    assert s.scores() == [5, 5]
    assert s.returns().tolist() == [0.0, 0.0]


def test_returns_after_played_out_ending():
    s = stuck(piles={0: [["4C", "8C"], ["4D", "8D"], ["4H", "8H"]],
                     1: [["3C", "9C"], ["3S", "9S"], ["3H", "9H"]]})
    s.apply(PASS)
    s.apply(PASS)
    assert s.scores() == [2 + 2, 2]  # seat 0 holds 4D and 8D
    assert s.returns().tolist() == [1.0, -1.0]


def test_score_reward_mode():
    """reward='score': (own score - mean of the others' scores) / 35."""
    s = make(reward="score", piles={0: SIX, 1: FIVE_B}, passes=2, **OVER)
    assert s.returns() == pytest.approx([1 / 35, -1 / 35])
    s = make(n=3, reward="score", piles={0: SIX, 1: FIVE_B, 2: [["7C"], ["7H"], ["6S", "8S"]]}, passes=3, **OVER)
    assert s.scores() == [6, 5, 2]
    assert s.returns() == pytest.approx([(6 - 3.5) / 35, (5 - 4) / 35, (2 - 5.5) / 35])


@pytest.mark.parametrize("third, expected", [
    ([["7C"], ["7H"], ["6S", "8S"]], [1.0, 0.0, -1.0]),  # 6 > 5 > 2
    ([["5S", "6S", "8S", "9S", "10S"], ["7C"], ["7H"]], [1.0, -0.5, -0.5]),  # 6 > 5 = 5
    ([["4S", "5S", "6S", "8S", "9S", "10S"], ["7C"], ["7H"]], [0.5, -1.0, 0.5]),  # 6 = 6 > 5
])
def test_three_player_rank_rewards(third, expected):
    """n players: (players beaten - players beating you) / (n - 1)."""
    s = make(n=3, piles={0: SIX, 1: FIVE_B, 2: third}, passes=3, **OVER)
    assert s.is_terminal()
    assert s.returns().tolist() == expected


# ----- information --------------------------------------------------------------------------
def test_observation_hides_other_hands_and_deck_order():
    """Private: each hand; hidden from everyone: deck order. Swapping seat 1's hand with deck
    cards or reordering the deck leaves seat 0's observation unchanged."""
    a = make(hands={0: ["2H", "4H", "JH"], 1: ["2S", "3S", "4S"]}, stacks=[["4C"], ["8D"], ["JD"]],
             deck=["9H", "9S"])
    b = make(hands={0: ["2H", "4H", "JH"], 1: ["9H", "3S", "QD"]}, stacks=[["4C"], ["8D"], ["JD"]],
             deck=["9S", "2S"])
    assert np.array_equal(a.observation(0), b.observation(0))
    assert not np.array_equal(a.observation(1), b.observation(1))


def test_observation_shows_own_hand_and_full_stacks():
    """Public: the full contents of the center stacks; private: your own hand."""
    base = dict(hands={0: ["2H", "4H", "JH"]}, deck=["9H"])
    a = make(stacks=[["2C", "4C"], ["8D"], ["JD"]], **base)
    b = make(stacks=[["3C", "4C"], ["8D"], ["JD"]], **base)  # only a card under a top differs
    assert not np.array_equal(a.observation(1), b.observation(1))
    c = make(hands={0: ["2H", "4H", "QH"]}, stacks=[["2C", "4C"], ["8D"], ["JD"]], deck=["9H"])
    assert not np.array_equal(a.observation(0), c.observation(0))
    assert np.array_equal(a.observation(1), c.observation(1))  # JH/QH both unseen by seat 1


def test_render_shows_only_the_viewers_hand():
    s = make(hands={0: ["2H", "4H", "JH"], 1: ["2S", "3S", "QD"]}, stacks=[["4C"], ["8D"], ["JD"]])
    g = s.game
    assert "2H 4H JH" in g.render(s, 0) and "QD" not in g.render(s, 0)
    assert "QD" in g.render(s, 1) and "JH" not in g.render(s, 1)
    assert "JH" not in g.render(s, None) and "QD" not in g.render(s, None)


# ----- illegal actions ----------------------------------------------------------------------
def test_illegal_action_raises_with_helpful_message_and_keeps_state():
    s = deck_turn()
    before = s.to_json()
    with pytest.raises(IllegalActionError) as err:
        s.apply(take_action(0, 0))  # 4C onto {3,5,6}
    msg = str(err.value)
    assert isinstance(err.value, ValueError)
    assert str(take_action(0, 0)) in msg and "take stack 0 top -> pile 0" in msg
    assert "draw" in msg and "take stack 1 top -> pile 0" in msg  # lists legal actions
    assert s.to_json() == before
    assert s.legal_actions() == deck_turn().legal_actions()


@pytest.mark.parametrize("bad", [-1, NUM_ACTIONS, 10**6, "draw", None, 1.5, [9]])
def test_out_of_range_and_non_int_actions_raise(bad):
    s = deck_turn()
    before = s.to_json()
    with pytest.raises(ValueError):
        s.apply(bad)
    assert s.to_json() == before


def test_numpy_int_actions_are_accepted():
    s = deck_turn()
    s.apply(np.int64(DRAW))
    assert s.phase == PLACE


@pytest.mark.parametrize("kind", [float, np.float64, bool])
def test_non_integer_actions_are_refused_leaving_the_state_unchanged(kind):
    """Only integers are actions: 10.0 or True equal a legal index but are refused, not guessed."""
    s = deck_turn()
    s.apply(DRAW)
    action = 1 if kind is bool else play_to_pile(C("9H"), 2)
    before = s.to_json()
    with pytest.raises(ValueError, match="not an integer"):
        s.apply(kind(action))
    assert s.to_json() == before


# ----- snapshots ----------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4])
def test_snapshot_round_trip_through_a_whole_game(n):
    game = ThreePilesGame(num_players=n)
    rng = np.random.default_rng(n)
    s = game.new_state(rng)
    while True:
        data = s.to_json()
        back = game.state_from_json(data)
        assert back.to_json() == data
        assert back.legal_actions() == s.legal_actions()
        assert back.scores() == s.scores() and back.is_terminal() == s.is_terminal()
        if s.is_terminal():
            break
        s.apply(int(rng.choice(s.legal_actions())))


def test_snapshot_deck_lists_top_card_first():
    s = make(stacks=[["4C"], ["8D"], ["JD"]], deck=["9H", "2S"])
    assert s.deck[-1] == C("9H") and s.deck[-2] == C("2S")
    assert s.to_json()["deck"][:2] == ["9H", "2S"]


def _dup(d):
    d["hands"][0] = ["AS"]
    d["deck"].append("AS")
    d["deck"].remove("2C")


def _missing(d):
    d["deck"].remove("QH")


def _wrong_game(d):
    d["game"] = "hearts"


def _wrong_players(d):
    d["num_players"] = 3


def _bad_phase(d):
    d["phase"] = "draw"


def _repeated_rank(d):
    d["piles"][0][0] = ["5H", "5S"]
    d["deck"] = [c for c in d["deck"] if c not in ("5H", "5S")]


def _empty_stack(d):
    d["deck"] = d["stacks"][1] + d["deck"]
    d["stacks"][1] = []


@pytest.mark.parametrize("corrupt, words", [
    (_dup, ["AS", "exactly once"]),
    (_missing, ["QH", "exactly once"]),
    (_wrong_game, ["hearts", "three_piles"]),
    (_wrong_players, ["num_players", "3"]),
    (_bad_phase, ["draw", "choose", "place"]),
    (_repeated_rank, ["5H", "5S"]),
    (_empty_stack, ["empty", "deck"]),
], ids=["duplicate", "missing", "game", "num_players", "phase", "pile_rank", "empty_stack"])
def test_bad_snapshots_raise_helpful_value_error(corrupt, words):
    data = snap(stacks=[["4C"], ["8D"], ["JD"]])
    ThreePilesGame().state_from_json(data)  # valid before the corruption
    corrupt(data)
    with pytest.raises(ValueError) as err:
        ThreePilesGame().state_from_json(data)
    for word in words:
        assert word in str(err.value)


# ----- action names -------------------------------------------------------------------------
def test_action_to_string():
    g = ThreePilesGame()
    assert g.action_to_string(take_action(1, 2)) == "take stack 1 top -> pile 2"
    assert g.action_to_string(DRAW) == "draw"
    assert g.action_to_string(PASS) == "pass"
    assert g.action_to_string(play_to_pile(C("10D"), 0)) == "play 10D -> pile 0"
    assert g.action_to_string(play_to_stack(C("KH"), 2)) == "play KH -> stack 2"
    with pytest.raises(ValueError):
        g.action_to_string(NUM_ACTIONS)


def test_action_ids_are_distinct():
    ids = [take_action(s, k) for s in range(3) for k in range(3)] + [DRAW, PASS]
    ids += [f(c, d) for c in range(52) for f in (play_to_pile, play_to_stack) for d in range(3)]
    assert len(set(ids)) == len(ids) == NUM_ACTIONS
    assert sorted(ids) == list(range(NUM_ACTIONS))
