"""Audit of the Split the Hoard engine against the written rules (shared/rules/split_the_hoard.md and
the rulebook draft in shared/seeds/): each test sets up a concrete position and checks the exact
outcome the quoted rule sentence demands; the last part probes hidden information."""

from __future__ import annotations

import numpy as np
import pytest

import card_envs
from card_envs.games.split_the_hoard import effects as E
from card_envs.games.split_the_hoard import scoring
from card_envs.games.split_the_hoard.game import SplitTheHoardGame
from card_envs.games.split_the_hoard.rules import CLAIM, NEGOTIATE, REVEAL
from tests.split_the_hoard.test_helpers import CS, Table, checked, legal_names, names, play, tc


def card_of(s, pile, name):
    """The first card of `name` in `pile`."""
    i = s.game.cards.name_index[name]
    return next(c for c in pile if s.game.cards.NAME[c] == i)


def same_obs(a, b, p):
    return np.array_equal(a.observation(p), b.observation(p))


# ================================================================================================
# The card list (rules file 3.2, 3.3, 3.4), row by row
# ================================================================================================
# name: (copies, rank, modifier, vp, condition, phase, effect)
HOARD_3_2 = {
    "Healing Herbs": (5, 1, False, 0, None, "claim", ("RECOVER_TREASURE",)),
    "Bandages": (3, 1, False, 0, None, "reaction", ("CANCEL_COIN_THEFT",)),
    "Pearl": (3, 1, False, 1, None, "negotiate", ("GAIN", 2)),
    "Iron Ingot": (4, 2, False, 0, None, "claim", ("GAIN", 2)),
    "Goblet": (3, 2, False, 2, None, "none", None),
    "Wolf Pelt": (3, 2, False, 1, None, "none", None),
    "Whetstone": (3, 3, False, 1, None, "none", None),
    "Lute": (2, 3, False, 2, None, "negotiate", ("TAKE_EACH", 1)),
    "Ancient Scroll": (3, 3, False, 1, None, "claim", ("FLIP_COIN", 2)),
    "Prophecy": (3, 4, False, 2, None, "reveal", ("PEEK_DECK", 3)),
    "Potion of Healing": (3, 4, False, 1, None, "claim", ("DRAW_TREASURE", 1)),
    "Spellbook": (3, 5, False, 2, None, "reveal", ("EXTRA_DRAW",)),
    "Plate Armour": (2, 5, False, 4, ("has_any", ("Sword",)), "none", None),
    "Silver Dagger": (3, 5, False, 1, None, "none", None),
    "Griffon Feather": (2, 6, False, 2, None, "claim", ("TAKE_DRAGON",)),
    "Holy Symbol": (3, 6, False, 2, None, "negotiate-react", ("REFUSE",)),
    "Sword": (4, 7, False, 2, None, "none", None),
    "Unicorn Horn": (1, 7, False, 5, None, "none", None),
    "Crystal Ball": (2, 8, False, 2, None, "reveal", ("PEEK_DECK", 5)),
    "Dragon Scale": (2, 9, False, 3, None, "none", None),
    "Dragon's Crown": (1, 10, False, 6, ("won_starting_titles", 1), "none", None),
    "Enchantment": (3, 4, True, 1, None, "none", None),
    "Blessing": (2, 2, True, 1, None, "none", None),
    "Rune Stone": (3, 1, True, 0, None, "none", None),
    "Shield": (4, -2, True, 1, None, "reaction", ("CANCEL_TREASURE_THEFT",)),
    "Cursed Idol": (2, -3, True, 4, ("has_any", ("Holy Symbol", "Blessing")), "none", None),
    "Emerald": (4, None, False, 2, None, "claim", ("GAIN", 4)),
    "Ruby": (3, None, False, 3, None, "reveal", ("GAIN", 3)),
    "Diamond": (2, None, False, 5, None, "claim", ("GAIN", 5)),
    "Deal": (3, None, False, 0, None, "reaction", ("GAIN", 3)),
    "Lockpicks": (3, None, False, 0, None, "negotiate", ("TAKE_COINS", 2)),
    "Bribe": (2, None, False, 0, None, "negotiate", ("DISCOUNT", 2, 0)),
    "Boots of Speed": (1, None, False, 1, None, "negotiate", ("EXTRA_ACTION",)),
    "Mirror of Exchange": (2, None, False, 0, None, "claim", ("SWAP",)),
    "Grappling Hook": (2, None, False, 0, None, "claim", ("STEAL", 3)),
    "Bag of Holding": (2, None, False, 2, None, "claim", ("RECOVER_COINS", 3)),
    "Treasure Map": (3, None, False, 1, None, "reveal", ("PICK_TOP", 3)),
    "Dragon Egg": (2, None, False, 6, ("has_any", ("Wolf Pelt", "Dragon Scale")), "none", None),
    "Dragon Tooth": (2, None, False, 3, None, "none", None),
}


@pytest.mark.parametrize("name", list(HOARD_3_2))
def test_hoard_card_row_matches_section_3_2(name):
    """Rules file 3.2: "Hoard cards: 39 names, **103 cards** (printed VP total 157)" -- each row of the
    Fixed-rank, Rank-modifier and Unranked tables (copies, rank, VP, VP condition, phase, ability)."""
    copies, rank, modifier, vp, cond, phase, effect = HOARD_3_2[name]
    row = CS.rows[CS.name_index[name]]
    assert (row.copies, row.rank, row.modifier, row.vp, row.phase, row.effect) == (
        copies, rank, modifier, vp, phase, effect)
    assert row.condition == cond
    assert row.trigger == ("enter_haul" if name == "Deal" else None)


def test_the_card_list_holds_exactly_the_39_names_of_section_3_2_in_order():
    """Rules file 3.2: "Hoard cards: 39 names, **103 cards**" and Actions 0..38 are "a card name ... in
    ``cards.json`` order"."""
    assert list(CS.names) == list(HOARD_3_2)
    assert sum(v[0] for v in HOARD_3_2.values()) == 103


HIDDEN_3_3 = {  # name: (vp, criterion)
    "Smith": (15, {"type": "k_of", "k": 3, "names": ("Iron Ingot", "Whetstone", "Sword", "Shield", "Plate Armour",
                                                     "Silver Dagger", "Healing Herbs")}),
    "Healer": (15, {"type": "k_of", "k": 3, "names": ("Healing Herbs", "Bandages", "Potion of Healing",
                                                      "Unicorn Horn", "Blessing", "Holy Symbol")}),
    "Knight": (20, {"type": "all_of", "groups": (("Sword",), ("Shield",), ("Plate Armour", "Holy Symbol"))}),
    "Jeweller": (15, {"type": "k_of", "k": 3, "names": ("Pearl", "Emerald", "Ruby", "Diamond")}),
    "Scholar": (15, {"type": "k_of", "k": 3, "names": ("Ancient Scroll", "Prophecy", "Spellbook", "Crystal Ball",
                                                       "Treasure Map")}),
    "Beastmaster": (15, {"type": "k_of", "k": 3, "names": ("Wolf Pelt", "Griffon Feather", "Unicorn Horn",
                                                           "Dragon Egg", "Dragon Scale", "Dragon Tooth")}),
    "Dragonslayer": (20, {"type": "k_of", "k": 2, "names": ("Dragon Scale", "Dragon Tooth", "Dragon Egg",
                                                            "Dragon's Crown")}),
    "Thief": (15, {"type": "k_of", "k": 3, "names": ("Lockpicks", "Bribe", "Mirror of Exchange", "Grappling Hook",
                                                     "Silver Dagger")}),
    "Bard": (15, {"type": "all_of", "groups": (("Lute",), ("Goblet",))}),
    "Collector": (15, {"type": "distinct_names", "k": 8}),
    "Enchanter": (15, {"type": "max_rank", "min": 12}),
    "Miser": (15, {"type": "coins_vs_treasures", "ratio": 2, "min_coins": 6}),
    "Pauper": (10, {"type": "coins_at_most", "n": 3}),
    "Tactician": (10, {"type": "icons", "phases": ("negotiate", "negotiate-react"), "k": 3}),
    "Mystic": (10, {"type": "icons", "phases": ("reveal",), "k": 3}),
}


def test_hidden_titles_match_section_3_3():
    """Rules file 3.3: "**Hidden Titles** ... "k of {...}" = k **different** names." -- every name, VP
    and criterion of the table."""
    assert [t.name for t in CS.hidden] == list(HIDDEN_3_3)
    for t in CS.hidden:
        vp, crit = HIDDEN_3_3[t.name]
        assert (t.vp, t.criterion) == (vp, crit), t.name


def test_starting_titles_and_classes_match_sections_3_3_and_3_4():
    """Rules file 3.3: "A tie goes to the listed class if it is in play" (Archmage->Wizard, Warlord->Warrior,
    Saint->Cleric, Nature's Balance->Druid, Wealthiest->Rogue; eligibility total >= 1, k >= 3, >= 3
    fixed-rank Treasures, >= 1 Treasure, >= 1 Coin) and 3.4's five class powers."""
    got = {t.name: (t.criterion, t.min, t.tie_class) for t in CS.starting}
    assert got == {"Archmage": ("highest_total_rank", 1, "Wizard"), "Warlord": ("longest_run", 3, "Warrior"),
                   "Saint": ("lowest_total_rank", 3, "Cleric"), "Nature's Balance": ("balance", 1, "Druid"),
                   "Wealthiest": ("most_coins", 1, "Rogue")}
    powers = {c.name: (c.power, c.phase, c.effect) for c in CS.classes}
    assert powers == {"Druid": ("Forage", "claim", ("FLIP_COIN", 2)),
                      "Warrior": ("Intimidate", "negotiate", ("PRINTED_ONLY",)),
                      "Cleric": ("Sanctuary", "negotiate-react", ("REFUSE",)),
                      "Rogue": ("Pickpocket", "draw2", ("TAKE_COINS", 1)),
                      "Wizard": ("Scry", "deal", ("SCRY", 1))}


# ================================================================================================
# Setup
# ================================================================================================
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_deals_a_hidden_title_a_class_and_four_coins_each(n):
    """Rules file F8: "Each player gets 1 of the other 15 as a hidden Title, a random class, and 4
    face-down cards as a starting Haul of Coins." Then the first Reveal deals 3 cards each."""
    game = SplitTheHoardGame(num_players=n)
    for seed in range(4):
        s = game.new_state(np.random.default_rng(seed))
        assert [len(c) for c in s.coins] == [4] * n
        assert all(not t for t in s.treasures)
        assert len(set(s.titles)) == n and sorted(s.titles + s.title_deck) == list(range(15))
        assert len(set(s.classes)) == n
        wizard = next((p for p in range(n) if CS.class_names[s.classes[p]] == "Wizard"), -1)
        assert s.phase == REVEAL and s.round == 0
        assert [len(h) for h in s.hand] == [3 + (p == wizard) for p in range(n)]
        assert len(s.deck) == 103 - 4 * n - 3 * n - (wizard >= 0)
        if wizard >= 0:  # the Wizard's Scry comes first
            assert s.decision == E.SCRY and s.current_player == wizard


# ================================================================================================
# Reveal
# ================================================================================================
def _round_start(t: Table):
    """A later round's start (round 0's Hauls would hold their 4 starting Coins): its deal to come."""
    t.s.round = 1
    s = t.build(dealt=False)
    s._start_round()
    s._advance()
    return checked(s)


def test_reveal_deals_three_each_in_seat_order_from_the_dragon_holder():
    """Rules file resolution 4: "(b) deal 3 each in seat order from the Dragon holder"; then "(d) secret
    commits", the Dragon holder first."""
    t = Table(dragon=1).deck("Goblet", "Sword", "Pearl", "Lute", "Ruby", "Bandages", "Whetstone", "Wolf Pelt",
                             "Rune Stone")
    s = _round_start(t)
    assert [names(s, h) for h in s.hand] == [["Rune Stone", "Whetstone", "Wolf Pelt"], ["Goblet", "Pearl", "Sword"],
                                             ["Bandages", "Lute", "Ruby"]]
    assert s.decision == E.COMMIT_CARD and s.current_player == 1 and legal_names(s) == ["Pearl", "Goblet", "Sword"]


def test_reveal_with_exactly_3n_cards_deals_and_the_wizard_does_not_scry():
    """Rules file 3.4, Wizard: "draw 4 in Reveal and put 1 on the bottom of the deck (only if the deck can
    supply it after everyone else has drawn)"; resolution 4a: the game ends only with "fewer than 3xN"."""
    t = Table(classes=("Wizard", "Druid", "Cleric"))
    s = t.build(rest="coin_discard")
    s.deck = s.coin_discard[:9]
    del s.coin_discard[:9]
    s._start_round()
    s._advance()
    assert not s.is_terminal() and [len(h) for h in s.hand] == [3, 3, 3] and not s.deck
    assert s.decision == E.COMMIT_CARD and not s.power_used[0]


def test_reveal_with_3n_plus_1_cards_lets_the_wizard_scry():
    """Rules file 3.4, Wizard: "draw 4 in Reveal and put 1 on the bottom of the deck (only if the deck can
    supply it after everyone else has drawn)"."""
    t = Table(classes=("Druid", "Wizard", "Cleric"))
    s = t.build(rest="coin_discard")
    s.deck = s.coin_discard[:10]
    del s.coin_discard[:10]
    s._start_round()
    s._advance()
    assert [len(h) for h in s.hand] == [3, 4, 3] and len(s.deck) == 0
    assert s.decision == E.SCRY and s.current_player == 1 and s.power_used[1]
    bottom = s.hand[1][0]
    play(s, CS.names[CS.NAME[bottom]])
    assert s.deck == [bottom] and len(s.hand[1]) == 3


def test_reveal_with_3n_minus_1_cards_ends_the_game_dealing_nothing():
    """Rules file resolution 4: "(a) if the deck holds fewer than 3xN cards, the game ends and nothing is
    dealt"."""
    t = Table()
    s = t.build(rest="coin_discard")
    s.deck = s.coin_discard[:8]
    del s.coin_discard[:8]
    deck = s.deck[:]
    s._start_round()
    s._advance()
    assert s.is_terminal() and s.deck == deck and not any(s.hand) and s.legal_actions() == []


def test_commit_places_a_card_on_each_negotiate_card_adds_coins_and_flips_at_negotiate():
    """Rulebook: "Players must place one Treasure face down on each of their Negotiate Cards ... Players may
    also add any number of Coins from their Haul to one or more of these Treasures"; resolution 3: "all
    are flipped when Negotiate starts"."""
    t = Table(dragon=2).coins(2, count=3)
    s = t.reveal_window({0: ("Goblet", "Sword", "Pearl"), 1: ("Lute", "Ruby", "Bandages"),
                         2: ("Whetstone", "Wolf Pelt", "Rune Stone")})
    assert s.decision == E.COMMIT_CARD and s.current_player == 2
    play(s, "Rune Stone", "Whetstone")  # card 1, card 2; Wolf Pelt goes on card 3 by itself
    assert s.decision == E.COMMIT_COINS and legal_names(s) == [
        "negotiate card 1 (1 coin)", "negotiate card 2 (2 coins)", "negotiate card 3 (3 coins)", "done"]
    play(s, "card3", "card3", "done")
    assert s.offered_names(2) == [CS.name_index[n] for n in ("Rune Stone", "Whetstone", "Wolf Pelt")]
    assert [len(a) for a in s.added[2]] == [0, 0, 2] and len(s.coins[2]) == 1
    assert s.current_player == 0 and s.decision == E.COMMIT_CARD  # clockwise; seat 0 has no Coins to add
    play(s, "Sword", "Pearl")
    assert s.current_player == 1 and s.decision == E.COMMIT_CARD and not s.flipped
    play(s, "Lute", "Ruby")
    assert s.phase == NEGOTIATE and s.flipped and s.decision == E.TURN and s.current_player == 2
    assert s.price(2, 2) == 5 and s.price(0, 0) == 1


def test_reveal_abilities_are_used_only_in_reveal():
    """Rulebook: "Any number of abilities may be activated, as long as the Treasure card specifies that it
    can be used during the current phase." Ruby (reveal), Emerald (claim), Pearl (negotiate)."""
    t = Table(powers="tiebreak_only").treasures(0, "Ruby", "Ruby", "Emerald", "Pearl")
    s = t.reveal_window({})
    assert s.decision == E.PRIORITY and s.current_player == 0 and legal_names(s) == ["Ruby", "done"]
    top3 = s.deck[-3:]
    play(s, "Ruby")
    assert sorted(s.coins[0]) == sorted(top3) and names(s, s.treasures[0]) == ["Emerald", "Pearl", "Ruby"]
    assert s.decision == E.PRIORITY and s.current_player == 0  # everybody else passed: the holder again
    play(s, "done")
    assert s.decision == E.COMMIT_CARD and names(s, s.treasures[0]) == ["Emerald", "Pearl", "Ruby"]
    s2 = Table(powers="tiebreak_only").treasures(0, "Ruby", "Emerald", "Pearl").claim_window()
    assert legal_names(s2) == ["Emerald", "done"]
    s3 = Table(powers="tiebreak_only").treasures(0, "Ruby", "Emerald", "Pearl").negotiate({1: ["Goblet", None, None]})
    assert s3.current_player == 0 and legal_names(s3) == ["Pearl", "draw 2 coins"]


def test_crystal_ball_peeks_at_five_and_reorders_them():
    """Rules file 3.2: Crystal Ball, reveal, `PEEK_DECK(5)`: "look at the top n and reorder them"."""
    s = Table().treasures(1, "Crystal Ball").deck("Goblet", "Sword", "Pearl", "Lute", "Ruby").reveal_window({})
    assert s.current_player == 1 and legal_names(s) == ["Crystal Ball", "done"]
    play(s, "Crystal Ball")
    assert s.decision == E.ORDER and legal_names(s) == ["Pearl", "Goblet", "Lute", "Sword", "Ruby"]
    play(s, "Ruby", "Lute", "Sword", "Pearl")  # four choices: the last card is placed alone
    assert s.game.cards.names_of(reversed(s.deck[-5:])) == ["Ruby", "Lute", "Sword", "Pearl", "Goblet"]
    assert all(s.known_by[c] == 0b010 for c in s.deck[-5:])
    assert s.decision == E.COMMIT_CARD and s.current_player == 0


def test_wizard_scry_card_goes_to_the_bottom_and_the_rest_is_committed():
    """Rules file 3.4 Wizard: "draw 4 in Reveal and put 1 on the bottom of the deck"."""
    t = Table(classes=("Wizard", "Druid", "Cleric")).deck("Sword", "Goblet", "Pearl", "Lute")
    s = _round_start(t)
    play(s, "Sword")
    assert names(s, s.deck[:1]) == ["Sword"] and names(s, s.hand[0]) == ["Goblet", "Lute", "Pearl"]
    assert s.decision == E.COMMIT_CARD and s.current_player == 0 and legal_names(s) == ["Pearl", "Goblet", "Lute"]


# ================================================================================================
# Negotiate
# ================================================================================================
def test_negotiate_turns_go_clockwise_from_the_dragon_holder_and_draw_two_takes_the_top_two():
    """Rulebook: "In the negotiate phase players each take one turn, starting with the player holding the
    First Player Card and proceed clockwise." Action 1: "Take two cards from the Hoard Deck and place them
    face down in their Haul as Coins"."""
    t = Table(dragon=2, powers="tiebreak_only").deck("Goblet", "Sword", "Pearl", "Lute", "Ruby", "Bandages")
    s = t.negotiate({0: ["Wolf Pelt", None, None], 1: ["Whetstone", None, None], 2: ["Rune Stone", None, None]})
    order = []
    for want in (["Goblet", "Sword"], ["Lute", "Pearl"], ["Bandages", "Ruby"]):
        p = s.current_player
        order.append(p)
        assert s.decision == E.TURN and legal_names(s) == ["draw 2 coins"]  # no Coins: nothing to buy
        play(s, "draw2")
        assert names(s, s.coins[p]) == want
    assert order == [2, 0, 1]
    # Claim: the unsold Treasures went home, nobody had a Claim ability, the Dragon Card passed on
    assert s.phase == REVEAL and s.round == 1 and s.dragon == 0
    assert [names(s, s.treasures[p]) for p in range(3)] == [["Wolf Pelt"], ["Whetstone"], ["Rune Stone"]]


def test_only_treasures_the_buyer_can_pay_in_full_are_offered():
    """Rulebook: "The cost of the Treasure is equal to the number of Coins shown on the Negotiate Card the
    Treasure is on (1, 2 or 3), plus any additional Coins placed on that Treasure card." Resolution 9:
    "pay in full"."""
    t = Table(powers="tiebreak_only").coins(0, count=2)
    s = t.negotiate({1: ["Goblet", "Sword", "Pearl"], 2: [None, None, "Lute"]}, added={(1, 0): 1})
    assert [s.price(1, k) for k in range(3)] == [2, 2, 3] and s.price(2, 2) == 3
    assert legal_names(s) == ["player +1", "draw 2 coins"]  # seat 2's Lute costs 3
    play(s, "+1")
    assert s.decision == E.BUY_SLOT and legal_names(s) == ["negotiate card 1 (1 coin)", "negotiate card 2 (2 coins)"]
    play(s, "card1")
    assert names(s, s.treasures[0]) == ["Goblet"] and len(s.coins[0]) == 0 and len(s.coins[1]) == 2


def test_a_treasure_with_price_zero_can_be_bought_without_coins():
    """Rules file 3.1: "`DISCOUNT(n,min)`: this turn's purchase costs n less (never below min)" -- Bribe is
    DISCOUNT(2,0): the 1-Coin card costs 0."""
    s = Table().treasures(0, "Bribe").negotiate({1: ["Goblet", "Sword", None]})
    assert legal_names(s) == ["Bribe", "draw 2 coins"]
    play(s, "Bribe")
    assert legal_names(s) == ["player +1", "draw 2 coins"]
    play(s, "+1")
    assert legal_names(s) == ["negotiate card 1 (1 coin)", "negotiate card 2 (2 coins)"]
    play(s, "card2")
    assert names(s, s.treasures[0]) == ["Sword"] and len(s.coins[1]) == 0 and s.current_player == 1


def test_bribe_discount_is_spent_by_one_purchase_and_boots_give_a_second_at_full_price():
    """Rules file 3.1: "`DISCOUNT(n,min)`: this turn's purchase costs n less" and "`EXTRA_ACTION`: take one
    more Negotiate action"."""
    t = Table(powers="tiebreak_only").treasures(0, "Bribe", "Boots of Speed").coins(0, count=3)
    s = t.negotiate({1: [None, "Goblet", "Sword"]})
    play(s, "Bribe", "Boots of Speed", "+1", "card3")
    assert len(s.coins[0]) == 2 and len(s.coins[1]) == 1 and s.current_player == 0 and s.discount == 0
    assert s.price(1, 1) == 2
    play(s, "+1", "card2")
    assert len(s.coins[0]) == 0 and len(s.coins[1]) == 3
    assert names(s, s.treasures[0]) == ["Goblet", "Sword"] and s.current_player == 1


def test_pearl_gains_two_on_its_owners_turn_before_the_action():
    """Rules file 3.2: Pearl, negotiate, `GAIN(2)`; resolution 8: "Negotiate-icon abilities without a
    trigger work only on your own turn, before your action"."""
    t = Table(powers="tiebreak_only").treasures(1, "Pearl").deck("Sword", "Goblet", "Lute", "Ruby")
    s = t.negotiate({2: ["Wolf Pelt", None, None]})
    assert s.current_player == 0 and legal_names(s) == ["draw 2 coins"]  # seat 1's Pearl is not seat 0's
    play(s, "draw2")
    assert s.current_player == 1 and legal_names(s) == ["Pearl", "draw 2 coins"]
    play(s, "Pearl")
    assert names(s, s.coins[1]) == ["Lute", "Ruby"] and s.current_player == 1 and legal_names(s) == [
        "player +1", "draw 2 coins"]
    play(s, "+1", "card1")
    assert names(s, s.treasures[1]) == ["Wolf Pelt"] and s.current_player == 2
    assert "Pearl" in names(s, s.treasure_discard)


def test_lockpicks_is_cancelled_by_bandages():
    """Rules file 3.1: "`CANCEL_COIN_THEFT` / `CANCEL_TREASURE_THEFT`: cancel an opponent's effect that takes
    your Coins / takes or swaps your Treasure" (Bandages vs Lockpicks' TAKE_COINS)."""
    t = Table().treasures(0, "Lockpicks").treasures(1, "Bandages", "Shield").coins(1, count=3)
    s = t.negotiate({2: ["Goblet", None, None]})
    play(s, "Lockpicks", "+1")
    assert s.decision == E.REACT and s.current_player == 1 and legal_names(s) == ["Bandages", "done"]
    play(s, "Bandages")
    assert len(s.coins[1]) == 3 and len(s.coins[0]) == 0
    assert names(s, s.treasures[1]) == ["Shield"] and s.current_player == 0 and s.decision == E.TURN


def test_lockpicks_takes_two_when_not_cancelled():
    """Rules file 3.1: "`TAKE_COINS(p,n)` ...: move up to n Coins from player p ... into your Haul"."""
    t = Table().treasures(0, "Lockpicks").treasures(1, "Bandages").coins(1, count=3)
    s = t.negotiate({2: ["Goblet", None, None]})
    play(s, "Lockpicks", "+1", "done")
    assert len(s.coins[1]) == 1 and len(s.coins[0]) == 2 and names(s, s.treasures[1]) == ["Bandages"]


def test_shield_and_bandages_cannot_refuse_a_negotiation():
    """Rulebook: "The negotiation cannot be refused, unless an ability specifically gives the right to do
    so." Only REFUSE (Holy Symbol, Sanctuary) does; Shield and Bandages cancel theft, and a purchase is none."""
    t = Table(classes=("Druid", "Warrior", "Rogue")).coins(0, count=3).treasures(1, "Shield", "Bandages")
    s = t.negotiate({1: [None, None, "Sword"]})
    play(s, "+1", "card3")
    assert names(s, s.treasures[0]) == ["Sword"] and len(s.coins[1]) == 3
    assert s.decision == E.TURN and s.current_player == 1


def test_after_a_refusal_the_buyer_may_take_the_other_action():
    """Rules file 3.1: "`REFUSE`: cancel a negotiation aimed at your Treasure; the buyer takes another action
    (not that Treasure)"."""
    t = Table(powers="tiebreak_only").coins(0, count=3).treasures(1, "Holy Symbol").deck("Goblet", "Pearl")
    s = t.negotiate({1: ["Sword", None, None]})
    play(s, "+1", "card1", "Holy Symbol")
    assert s.current_player == 0 and legal_names(s) == ["draw 2 coins"]  # the only Treasure was refused
    play(s, "draw2")
    assert names(s, s.treasures[0]) == [] and len(s.coins[0]) == 5 and s.current_player == 1
    assert s.offered_names(1)[0] == CS.name_index["Sword"] and "Holy Symbol" in names(s, s.treasure_discard)


def test_cleric_sanctuary_is_once_a_round():
    """Rules file 3.4: "(once per round, only with `class_powers = full`)" -- Cleric: "*Sanctuary*: `REFUSE`
    one negotiation aimed at you"."""
    t = Table(classes=("Druid", "Cleric", "Warrior")).coins(0, count=2).coins(2, count=2)
    s = t.negotiate({0: ["Pearl", None, None], 1: ["Sword", "Goblet", None], 2: ["Lute", None, None]})
    play(s, "+1", "card1", "power", "+1", "card2")
    assert s.power_used[1] and s.current_player == 1 and names(s, s.treasures[0]) == ["Goblet"]
    play(s, "draw2")
    assert s.current_player == 2 and legal_names(s) == ["player +1", "player +2", "draw 2 coins", "class power"]
    play(s, "+2", "card1")  # seat 1 is two seats clockwise of seat 2; no second Sanctuary this round
    assert names(s, s.treasures[2]) == ["Lute", "Sword"] and len(s.coins[2]) == 1 and len(s.coins[1]) == 2 + 2 + 1
    assert s.round == 1 and len(s.treasures[1]) == 3  # seat 1 sold both its Treasures: it refilled 3


def test_warrior_intimidate_is_once_a_round():
    """Rules file 3.4: "(once per round ...)" -- Warrior: "*Intimidate*: your purchase this turn is
    `PRINTED_ONLY`"."""
    t = Table(classes=("Warrior", "Druid", "Cleric")).treasures(0, "Boots of Speed").coins(0, count=4)
    s = t.negotiate({1: ["Goblet", None, "Sword"]}, added={(1, 0): 4, (1, 2): 2})
    assert legal_names(s) == ["Boots of Speed", "draw 2 coins", "class power"]  # 5 and 5 Coins: too dear
    play(s, "power")
    assert s.price(1, 0) == 1 and s.price(1, 2) == 3
    play(s, "Boots of Speed", "+1", "card3")
    assert len(s.coins[0]) == 1 and len(s.coins[1]) == 3 and s.current_player == 0
    assert s.price(1, 0) == 5 and legal_names(s) == ["draw 2 coins"]  # Intimidate spent, not offered again


def test_rogue_may_decline_pickpocket():
    """Rules file 3.4, Rogue: "when you take the draw-2 action, also `TAKE_COINS(p,1)`" -- optional (the
    env's ``done``)."""
    t = Table(classes=("Rogue", "Druid", "Cleric")).coins(1, count=2)
    s = t.negotiate({1: ["Sword", None, None]})
    play(s, "draw2")
    assert s.decision == E.TARGET and s.current_player == 0
    play(s, "done")
    assert len(s.coins[0]) == 2 and len(s.coins[1]) == 2 and s.current_player == 1


def test_a_declined_pickpocket_is_not_spent():
    """Rules file 3.4: class powers are "once per round"; Rogue: "*Pickpocket*: when you take the draw-2
    action, also `TAKE_COINS(p,1)`". Declining it is not using it: a second draw-2 (Boots of Speed) in the
    same round may still pickpocket, and ``powers_used`` ("1 where the seat used its class power this
    round") stays 0."""
    t = Table(classes=("Rogue", "Druid", "Cleric")).treasures(0, "Boots of Speed").coins(1, count=2)
    s = t.negotiate({1: ["Sword", None, None]})
    play(s, "Boots of Speed", "draw2", "done")
    assert s.current_player == 0 and s.decision == E.TURN
    view = s.game.observation_layout.views(s.observation(1))
    assert view["powers_used"][2] == 0  # seat 0 is +2 of seat 1
    play(s, "draw2")
    assert s.decision == E.TARGET and s.current_player == 0
    play(s, "+1")
    assert len(s.coins[0]) == 5 and len(s.coins[1]) == 1
    assert s.power_used[0]  # taken: spent for the round


def test_a_deal_returned_unsold_in_claim_triggers_for_its_owner():
    """Rulebook: "the 'Deal' card ability is triggered when a player adds the Treasure to their Haul"; Claim:
    "players must move any remaining Treasures from their Negotiate Cards into their Haul"."""
    t = Table(powers="tiebreak_only").deck("Goblet", "Sword", "Pearl")
    s = t.negotiate({0: ["Wolf Pelt", None, None], 1: ["Deal", None, None], 2: ["Rune Stone", None, None]})
    discarded = len(s.treasure_discard)  # earlier rounds' cards
    play(s, "draw2", "draw2")
    deck = len(s.deck)
    play(s, "draw2")
    assert s.phase == CLAIM and s.decision == E.DEAL and s.current_player == 1
    top3 = s.deck[-3:]
    play(s, "yes")
    assert sorted(s.coins[1][2:]) == sorted(top3) and len(s.coins[1]) == 5
    assert s.round == 1 and len(s.deck) == deck - 2 - 3 - 9  # then the next round dealt 9
    assert names(s, s.treasures[1]) == [] and names(s, s.treasure_discard[discarded:]) == ["Deal"]


# ================================================================================================
# Claim
# ================================================================================================
def _to_claim(t: Table, offers: dict, added: dict | None = None, rest: str = "deck"):
    """Negotiate is over: the given Treasures are still on the Negotiate Cards; Claim begins."""
    s = t.commit(offers, added).build(rest)
    s.phase, s.flipped = NEGOTIATE, True
    s._start_claim()
    s._advance()
    return s


def test_claim_returns_unsold_treasures_discards_added_coins_to_the_coin_pile_and_refills():
    """Rules file F11: "Claim: added Coins are discarded and unsold Treasures go to their owners' Hauls. A
    player with all Negotiate Cards empty draws 3 face up as Treasures."; resolution 5: added Coins go
    "always [to] the **Coin discard pile**"."""
    t = Table(powers="tiebreak_only").deck("Ruby", "Bandages", "Whetstone")
    s = t.s
    added = [t.card("Diamond"), t.card("Diamond")]
    s.added[0][1] = added
    s.offer[0] = [t.card("Goblet"), t.card("Sword"), t.card("Pearl")]
    s.offer[1][2] = t.card("Lute")
    s = t.build()
    s.phase, s.flipped = NEGOTIATE, True
    coin_discard, treasure_discard = s.coin_discard[:], s.treasure_discard[:]  # the setup's and the deal's
    s._start_claim()
    assert s.coin_discard == coin_discard + added and s.treasure_discard == treasure_discard
    assert names(s, s.treasures[0]) == ["Goblet", "Pearl", "Sword"] and names(s, s.treasures[1]) == ["Lute"]
    assert s.refill == [2]
    s._advance()
    assert names(s, s.treasures[2]) == ["Bandages", "Ruby", "Whetstone"]  # face up, from the top
    assert s.round == 1 and s.dragon == 1 and s.coins == [[], [], []]


def test_claim_refills_go_in_order_from_the_dragon_holder():
    """Rules file 3.5: "Claim: discard added Coins -> unsold Treasures to Hauls (Deal triggers, seat order) ->
    refills"; the engine's documented order is from the Dragon Card holder."""
    t = Table(dragon=2, powers="tiebreak_only").deck("Goblet", "Sword", "Pearl", "Lute", "Ruby", "Bandages")
    s = _to_claim(t, {1: ["Wolf Pelt", None, None]})
    assert names(s, s.treasures[2]) == ["Goblet", "Pearl", "Sword"]
    assert names(s, s.treasures[0]) == ["Bandages", "Lute", "Ruby"]
    assert names(s, s.treasures[1]) == ["Wolf Pelt"]


def test_diamond_gains_five_in_claim():
    """Rules file 3.2: Diamond, claim, `GAIN(5)`; resolution 6: ""Gain N Coins" = draw N face down from the
    Hoard Deck"."""
    s = Table(powers="tiebreak_only").treasures(1, "Diamond").claim_window()
    top5, discarded = s.deck[-5:], len(s.treasure_discard)
    assert s.current_player == 1 and legal_names(s) == ["Diamond", "done"]
    play(s, "Diamond")
    assert sorted(s.coins[1]) == sorted(top5) and names(s, s.treasure_discard[discarded:]) == ["Diamond"]
    assert s.phase == REVEAL and s.round == 1


def test_griffon_feather_keeps_the_dragon_card_with_its_holder():
    """Rules file 3.1: "`TAKE_DRAGON`: you get the Dragon Card at round end" -- even when you hold it now
    (otherwise it would pass clockwise)."""
    s = Table(dragon=0, powers="tiebreak_only").treasures(0, "Griffon Feather").claim_window()
    play(s, "Griffon Feather")
    assert s.dragon == 0 and s.round == 1 and s.phase == REVEAL


def test_claim_abilities_are_not_offered_in_negotiate():
    """Rulebook: "Players may then activate any abilities from Treasures in their Haul" (Claim); rules file
    resolution 8: Negotiate-icon abilities on your own turn -- a Claim icon is not one."""
    s = Table(powers="tiebreak_only").treasures(0, "Emerald", "Iron Ingot", "Griffon Feather", "Lockpicks") \
        .negotiate({1: ["Goblet", None, None]})
    assert legal_names(s) == ["Lockpicks", "draw 2 coins"]


# ================================================================================================
# End of the game (resolution 10)
# ================================================================================================
def test_negotiate_draw_two_with_one_card_left_completes_pickpocket_then_ends():
    """Rules file resolution 10: "*Negotiate:* the current action completes as far as it can; Treasures on
    Negotiate Cards are discarded and their added Coins go back to the owners."; rulebook: "If the Hoard
    Deck runs out during the negotiate phase, players must discard all Treasures still on their Class
    Cards"."""
    t = Table(classes=("Rogue", "Druid", "Cleric")).coins(1, count=2).deck("Goblet")
    s = t.negotiate({1: ["Sword", None, None], 2: [None, "Lute", None]}, added={(2, 1): 2}, rest="coin_discard")
    discarded = len(s.treasure_discard)  # a short deck: a late round, earlier rounds' cards discarded
    play(s, "draw2")
    assert names(s, s.coins[0]) == ["Goblet"] and s.end_flag and not s.is_terminal()
    assert s.decision == E.TARGET and s.current_player == 0
    play(s, "+1")
    assert s.is_terminal() and len(s.coins[0]) == 2 and len(s.coins[1]) == 1 and len(s.coins[2]) == 2
    assert names(s, s.treasure_discard[discarded:]) == ["Lute", "Sword"]
    assert all(c == -1 for row in s.offer for c in row) and s.legal_actions() == []


def test_an_own_turn_ability_that_comes_up_short_ends_the_game_before_the_action():
    """Rules file resolution 10: "set a flag when a draw comes up short and finish the current atomic
    effect"; the engine's documented choice: "an own-turn ability that empties the deck ends the game
    before the action"."""
    t = Table().treasures(0, "Pearl").coins(0, count=3).deck("Goblet")
    s = t.negotiate({1: ["Sword", None, None]}, rest="coin_discard")
    discarded = len(s.treasure_discard)
    play(s, "Pearl")
    assert s.is_terminal() and len(s.coins[0]) == 4 and names(s, s.treasure_discard[discarded:]) == ["Pearl", "Sword"]


def test_spellbook_on_an_empty_deck_ends_the_game_in_reveal_and_discards_the_dealt_cards():
    """Rulebook: "If there are not enough cards in the Hoard Deck to draw ... the game ends immediately. Any
    cards already drawn in this phase are discarded." Resolution 10: "*Reveal:* end now and discard this
    phase's dealt cards"."""
    t = Table().treasures(0, "Spellbook", "Goblet")
    s = t.reveal_window({0: ("Sword", "Pearl", "Lute"), 1: ("Ruby", "Deal", "Bandages"),
                         2: ("Whetstone", "Wolf Pelt", "Rune Stone")}, rest="coin_discard")
    assert not s.deck
    discarded = len(s.treasure_discard)
    play(s, "Spellbook")
    assert s.is_terminal() and not any(s.hand)
    assert names(s, s.treasure_discard[discarded:]) == sorted(["Spellbook", "Sword", "Pearl", "Lute", "Ruby", "Deal", "Bandages",
                                                   "Whetstone", "Wolf Pelt", "Rune Stone"])
    assert names(s, s.treasures[0]) == ["Goblet"]


def test_treasure_map_on_an_empty_deck_ends_the_game_but_a_peek_does_not():
    """Rules file 3.5 doc: "trying to draw ends the game there (resolution 10)"; resolution 10: "An empty deck
    ends nothing until a draw is attempted." PICK_TOP takes a card (a draw); PEEK_DECK only looks."""
    s = Table().treasures(0, "Prophecy").reveal_window({}, rest="coin_discard")
    play(s, "Prophecy")
    assert not s.is_terminal() and not s.end_flag and s.decision == E.COMMIT_CARD
    s = Table().treasures(0, "Treasure Map").reveal_window({}, rest="coin_discard")
    play(s, "Treasure Map")
    assert s.is_terminal() and names(s, s.treasures[0]) == []


def test_claim_plays_out_its_abilities_after_a_short_draw_then_the_game_ends():
    """Rules file resolution 10: "*Claim:* finish the phase (any number of Claim abilities), then end";
    rulebook: "they must complete as much as possible, then end the game"."""
    t = Table(powers="tiebreak_only").treasures(0, "Diamond").treasures(1, "Ancient Scroll")
    t.coins(1, "Wolf Pelt", "Whetstone").deck("Goblet", "Sword")
    s = t.claim_window(rest="coin_discard")
    last_round = s.round  # a short deck: a late round
    play(s, "Diamond")
    assert names(s, s.coins[0]) == ["Goblet", "Sword"] and s.end_flag and not s.is_terminal()
    assert s.decision == E.PRIORITY and s.current_player == 1 and legal_names(s) == ["Ancient Scroll", "done"]
    play(s, "Ancient Scroll")
    assert s.decision == E.FLIP and legal_names(s) == ["Wolf Pelt", "Whetstone", "done"]
    play(s, "Wolf Pelt")
    assert s.is_terminal() and names(s, s.treasures[1]) == ["Wolf Pelt"] and names(s, s.coins[1]) == ["Whetstone"]
    assert s.round == last_round  # no new round


# ================================================================================================
# Scoring
# ================================================================================================
def _final(t: Table, coins=()):
    """End the game on the built position (the deck goes to the discard piles so nothing is dealt)."""
    s = t.build(rest="treasure_discard")
    for p, k in enumerate(coins):
        s.coins[p] = [s.treasure_discard.pop() for _ in range(k)]
    s._end_game()
    return s


def _worked_example(**game):
    t = Table(classes=("Wizard", "Cleric", "Warrior"), titles=("Dragonslayer", "Healer", "Bard"))
    if game:
        t.game = SplitTheHoardGame(num_players=3, **game)
        t.s.game = t.game
    t.treasures(0, "Dragon's Crown", "Dragon Scale", "Sword", "Plate Armour")
    t.treasures(1, "Pearl", "Healing Herbs", "Bandages", "Shield", "Blessing")
    t.treasures(2, "Goblet", "Whetstone", "Prophecy", "Dragon Egg")
    return _final(t, coins=(2, 5, 9))


def test_a_full_final_scoring():
    """Rulebook: "Players sum the points they've scored between the starting titles, hidden titles, and
    Treasure cards they have." Seat 0: Archmage (10+9+7+5=31) 30, Dragonslayer 20, Treasures 6+3+2+4=15 (the
    Crown: a Starting Title won; Plate Armour: a Sword) = 65. Seat 1: Saint (1+1+1-2=1) and Nature's
    Balance (|5-5|=0) 60, Healer (Herbs, Bandages, Blessing) 15, Treasures 1+1+1=3 = 78. Seat 2: Warlord
    (2,3,4) and Wealthiest (9 Coins) 60, Bard unmet, Treasures 2+1+2 (the Dragon Egg has no Wolf Pelt or
    Dragon Scale) = 65."""
    s = _worked_example()
    board = s.scoring()
    assert [sorted(b["starting"]) for b in board] == [["Archmage"], ["Nature's Balance", "Saint"],
                                                      ["Warlord", "Wealthiest"]]
    assert [b["hidden_met"] for b in board] == [True, True, False]
    assert [b["treasure_vp"] for b in board] == [15, 3, 5]
    assert s.scores() == [65, 78, 65]


def test_a_points_tie_goes_to_most_coins_in_the_rank_reward():
    """Rulebook: "In the event of a tie, the player with the most Coins in their Haul is the winner." Seats 0
    and 2 both have 65; seat 2 has 9 Coins to seat 0's 2; ``reward="win"``: "(players you outrank - players
    who outrank you) / (n - 1)"."""
    s = _worked_example()
    np.testing.assert_allclose(s.returns(), [-1.0, 1.0, 0.0])


def test_the_score_reward_is_own_vp_minus_the_mean_of_the_others_over_max_score():
    """Env doc: "``reward="score"``: ``(own VP - mean of the others) / max_score``, ``max_score = 5 *
    starting_title_vp + 20 + 157``"."""
    s = _worked_example(reward="score")
    assert s.game.max_score == 5 * 30 + 20 + 157
    np.testing.assert_allclose(s.returns(), [(65 - 71.5) / 327, (78 - 65) / 327, (65 - 71.5) / 327])


def test_starting_title_vp_is_a_parameter():
    """Rules file resolution 16: "The "30" on Starting Titles is read as **30 VP each**; make it a
    parameter."""
    s = _worked_example(starting_title_vp=7)
    assert s.scores() == [7 + 20 + 15, 14 + 15 + 3, 14 + 5]


def test_a_joint_victory_shares_the_place():
    """Rulebook: "If two players have the same number of points and Coins, it is a joint victory." Three
    players: two tie on points and Coins above the third."""
    t = Table(classes=("Druid", "Warrior", "Cleric"), titles=("Bard", "Pauper", "Miser"), vp=0)
    t.treasures(0, "Goblet").treasures(1, "Goblet")
    s = _final(t, coins=(5, 5, 0))
    assert s.scores() == [2, 2, 0]  # Pauper and Miser unmet (5 Coins; 0 Coins)
    np.testing.assert_allclose(s.returns(), [0.5, 0.5, -1.0])


def test_dragons_crown_scores_only_with_a_starting_title_won():
    """Rules file 3.2: Dragon's Crown, VP 6, "you won >= 1 Starting Title"; resolution 12: "VP conditions ...
    may refer to Titles won (Titles are scored first)"."""
    t = Table(classes=("Druid", "Warrior", "Cleric"), titles=("Bard", "Pauper", "Miser"))
    t.treasures(0, "Dragon's Crown").treasures(1, "Unicorn Horn", "Pearl", "Goblet")
    s = _final(t, coins=(4, 4, 4))
    board = s.scoring()
    # Archmage: 10 each, no Wizard in play -> nobody; Wealthiest: 4 Coins each, no Rogue -> nobody
    assert sorted(board[1]["starting"]) == ["Nature's Balance", "Saint"] and board[0]["starting"] == []
    assert board[0]["treasure_vp"] == 0
    t = Table(classes=("Druid", "Warrior", "Cleric"), titles=("Bard", "Pauper", "Miser"))
    t.treasures(0, "Dragon's Crown").treasures(1, "Unicorn Horn")
    s = _final(t, coins=(4, 4, 4))
    # Archmage 10 to 7; Nature's Balance |1-4| tied with seat 1, the Druid (seat 0) wins the tie
    assert s.scoring()[0]["starting"] == ["Archmage", "Nature's Balance"] and s.scoring()[0]["treasure_vp"] == 6


@pytest.mark.parametrize("haul, vp", [
    (("Cursed Idol",), 0), (("Cursed Idol", "Holy Symbol"), 4 + 2), (("Cursed Idol", "Blessing"), 4 + 1),
    (("Dragon Egg",), 0), (("Dragon Egg", "Dragon Scale"), 6 + 3), (("Dragon Egg", "Wolf Pelt"), 6 + 1),
    (("Plate Armour",), 0), (("Plate Armour", "Plate Armour", "Sword"), 4 + 4 + 2),
    (("Dragon Egg", "Dragon Egg", "Cursed Idol"), 0),
])
def test_treasure_vp_conditions(haul, vp):
    """Rules file F14: "(3) Treasures whose VP condition fails are discarded, after checking whether another
    card's condition needs them." (3.2: Plate Armour "you have a Sword", Cursed Idol "you have a Holy Symbol
    or Blessing", Dragon Egg "you have a Wolf Pelt or Dragon Scale")."""
    assert scoring.treasure_vp(tc(*haul), 0, CS) == vp


def test_one_haul_may_win_several_starting_titles_with_the_same_treasures():
    """Rulebook: "Each Treasure may be used to meet the criteria of multiple Titles." Seat 0's Pearl, Goblet
    and Whetstone make the only total Rank (Archmage), the only three fixed ranks (Saint) and the only run
    of 3 (Warlord)."""
    t = Table(classes=("Druid", "Warrior", "Cleric"), titles=("Bard", "Pauper", "Miser"))
    t.treasures(0, "Pearl", "Goblet", "Whetstone").treasures(1, "Emerald")
    s = _final(t, coins=(0, 1, 4))
    assert sorted(s.scoring()[0]["starting"]) == ["Archmage", "Saint", "Warlord"]
    assert s.scoring()[1]["starting"] == ["Nature's Balance"] and s.scoring()[2]["starting"] == ["Wealthiest"]
    # seat 0: 3 Titles + Goblet 2 + Whetstone 1 + Pearl 1 + Pauper (0 Coins <= 3) 0 (Bard is seat 0's)
    assert s.scores()[0] == 90 + 4


def test_saint_counts_negative_ranks_and_the_lowest_wins():
    """Rules file resolution 11: "Ranks <= 0 are allowed."; 3.3 Saint: "Lowest total Rank. All fixed ranks
    must count; modifiers are optional (e.g. Shield)"."""
    haul = tc("Pearl", "Bandages", "Healing Herbs", "Cursed Idol", "Shield", "Enchantment")
    assert scoring.total_rank_low(haul, CS) == 3 - 3 - 2
    assert _award("Saint", [("Healing Herbs",) * 3, ("Pearl", "Bandages", "Healing Herbs", "Cursed Idol", "Shield"),
                            ("Pearl", "Pearl", "Pearl", "Shield")], (0, 0, 0)) == 1


def _award(title, hauls, coins, classes=(0, 1, 2)):
    t = next(x for x in CS.starting if x.name == title)
    return scoring.award_starting(t, [tc(*h) for h in hauls], list(coins), list(classes), CS)


def test_unattached_modifiers_count_for_nothing():
    """Rules file resolution 11: "Modifiers attach only to fixed-rank Treasures. Unattached ones count for
    nothing." Modifiers and unranked Treasures alone make no Archmage total, no Saint and no run."""
    hauls = [("Enchantment", "Blessing", "Emerald"), ("Rune Stone", "Rune Stone", "Shield"), ()]
    assert _award("Archmage", hauls, (0, 0, 0)) == -1
    assert _award("Warlord", hauls, (0, 0, 0)) == -1
    # Sword 7 alone: one Treasure, so a run of 1 however the modifiers attach
    assert scoring.longest_run(tc("Sword", "Rune Stone", "Blessing"), CS) == 1


@pytest.mark.parametrize("haul, met", [
    (("Dragon's Crown", "Blessing"), True), (("Dragon's Crown", "Rune Stone"), False),
    (("Dragon Scale", "Sword", "Blessing", "Rune Stone"), True), (("Sword", "Sword", "Enchantment"), False),
    (("Enchantment", "Enchantment", "Enchantment"), False),
])
def test_enchanter_needs_one_treasure_of_effective_rank_12(haul, met):
    """Rules file 3.3: Enchanter, "One Treasure with effective rank >= 12"; F13: "modifiers (+/-) are optional,
    must attach to another Treasure, and may stack"."""
    crit = CS.hidden[CS.title_index["Enchanter"]].criterion
    assert scoring.hidden_met(crit, tc(*haul), 0, CS) is met


@pytest.mark.parametrize("title, haul, coins, met", [
    ("Knight", ("Sword", "Shield", "Plate Armour"), 0, True),
    ("Knight", ("Sword", "Plate Armour", "Holy Symbol"), 0, False),
    ("Miser", ("Sword", "Goblet", "Pearl"), 6, True), ("Miser", ("Sword", "Goblet", "Pearl"), 5, False),
    ("Pauper", ("Sword",) * 3, 0, True),
    ("Tactician", ("Pearl", "Pearl", "Pearl"), 0, True), ("Tactician", ("Pearl", "Pearl", "Emerald"), 0, False),
    ("Mystic", ("Crystal Ball", "Treasure Map", "Spellbook"), 0, True),
    ("Collector", ("Pearl", "Goblet", "Lute", "Sword", "Ruby", "Deal", "Bribe"), 0, False),
    ("Jeweller", ("Pearl", "Ruby", "Diamond"), 0, True), ("Jeweller", ("Emerald", "Emerald", "Diamond"), 0, False),
])
def test_more_hidden_title_criteria(title, haul, coins, met):
    """Rules file 3.3: "Knight ... Sword **and** Shield **and** (Plate Armour or Holy Symbol)", "Miser ...
    Coins >= 2 x Treasures, and >= 6 Coins", "Pauper ... <= 3 Coins", "Tactician ... >= 3 Treasures with a
    negotiate or negotiate-react icon" (copies count, env doc), "Collector ... >= 8 different names",
    "k of {...}" = k different names."""
    crit = CS.hidden[CS.title_index[title]].criterion
    assert scoring.hidden_met(crit, tc(*haul), coins, CS) is met


def test_an_unmet_hidden_title_scores_nothing_and_a_met_one_its_vp():
    """Rules file F14: "(2) Unmet hidden Titles are dropped."; 3.3: Dragonslayer 20, Pauper 10."""
    t = Table(classes=("Druid", "Warrior", "Cleric"), titles=("Dragonslayer", "Pauper", "Miser"), vp=0)
    t.treasures(0, "Dragon Tooth").treasures(1, "Dragon Tooth", "Dragon Scale")
    s = _final(t, coins=(0, 4, 3))
    board = s.scoring()
    assert [b["hidden_met"] for b in board] == [False, False, False]
    assert s.scores() == [3, 3 + 3, 0]
    t = Table(classes=("Druid", "Warrior", "Cleric"), titles=("Pauper", "Dragonslayer", "Miser"), vp=0)
    t.treasures(0, "Dragon Tooth").treasures(1, "Dragon Tooth", "Dragon Scale")
    s = _final(t, coins=(0, 4, 3))
    assert s.scores() == [3 + 10, 6 + 20, 0]


# ================================================================================================
# Hidden information
# ================================================================================================
def _reveal_commit_position():
    t = Table().coins(0, "Sword", "Goblet").coins(1, "Lute", "Ruby").coins(2, "Pearl")
    s = t.reveal_window({0: ("Whetstone", "Wolf Pelt", "Rune Stone"), 1: ("Bandages", "Deal", "Emerald"),
                         2: ("Iron Ingot", "Potion of Healing", "Silver Dagger")})
    assert s.decision == E.COMMIT_CARD and s.current_player == 0
    return s


def _negotiate_position():
    t = Table().coins(0, "Sword", "Goblet").coins(1, "Lute", "Ruby").coins(2, "Pearl").treasures(2, "Emerald")
    s = t.negotiate({0: ["Whetstone", "Wolf Pelt", "Rune Stone"], 1: ["Bandages", "Deal", None]}, added={(1, 1): 1})
    assert s.decision == E.TURN and s.current_player == 0
    return s


def _swap_title(s):
    s.titles[1], s.title_deck[0] = s.title_deck[0], s.titles[1]
    s.title_deck.sort()


def _swap_hand_card(s):
    s.hand[1][0], s.deck[0] = s.deck[0], s.hand[1][0]  # the bottom card: nobody has seen it


def _permute_deck(s):
    s.deck.reverse()


def _swap_coin_faces(s):
    s.coins[1][0], s.coins[2][0] = s.coins[2][0], s.coins[1][0]  # each Haul keeps its count
    s.coins[0][1], s.deck[0] = s.deck[0], s.coins[0][1]


def _swap_added_coin(s):
    s.added[1][1][0], s.deck[0] = s.deck[0], s.added[1][1][0]


def _swap_coin_discard(s):
    i = next(i for i, c in enumerate(s.deck) if CS.NAME[c] != CS.NAME[s.coin_discard[0]])
    s.coin_discard[0], s.deck[i] = s.deck[i], s.coin_discard[0]


def _with_coin_discard(s):
    s.coin_discard.append(s.deck.pop(0))
    return s


HIDDEN = [
    ("another seat's hidden Title", _reveal_commit_position, _swap_title, {1}),
    ("another seat's hidden Title (Negotiate)", _negotiate_position, _swap_title, {1}),
    ("a card in another seat's Reveal hand", _reveal_commit_position, _swap_hand_card, {1}),
    ("the deck order", _reveal_commit_position, _permute_deck, set()),
    ("the deck order (Negotiate)", _negotiate_position, _permute_deck, set()),
    ("Coin faces, the owner's too", _reveal_commit_position, _swap_coin_faces, set()),
    ("Coin faces (Negotiate)", _negotiate_position, _swap_coin_faces, set()),
    ("a Coin added to a Negotiate Card", _negotiate_position, _swap_added_coin, set()),
    ("the Coin discard pile", lambda: _with_coin_discard(_negotiate_position()), _swap_coin_discard, set()),
]


@pytest.mark.parametrize("what, position, change, seers", HIDDEN, ids=[h[0] for h in HIDDEN])
def test_hidden_information_does_not_reach_the_observation(what, position, change, seers):
    """Rules file 3.5: "**Hidden:** Coin faces, others' hidden Titles, Title deck, deck order, Coin pile,
    unflipped commits."; rulebook: "Players cannot flip a Coin card and look at the Treasure face unless an
    ability specifically gives them the right to do so." and setup 3: the hidden Title is "secret from the
    other players". Two positions differing only in `what`: only the seats in `seers` may tell them apart."""
    a = position()
    b = a.clone()
    change(b)
    checked(b)
    assert not np.array_equal(a.state_tensor(), b.state_tensor())  # the positions really differ
    for p in range(3):
        assert same_obs(a, b, p) is (p not in seers), p
    np.testing.assert_array_equal(a.legal_mask(), b.legal_mask())  # the mover (seat 0) sees no difference


def _committed(placement, coins):
    s = Table().coins(0, count=3).reveal_window({0: ("Goblet", "Sword", "Pearl"), 1: ("Lute", "Ruby", "Bandages")})
    play(s, *placement, *coins)
    if s.decision == E.COMMIT_COINS:
        play(s, "done")
    assert s.decision == E.COMMIT_CARD and s.current_player == 1
    return s


def test_unflipped_commits_and_their_added_coins_are_hidden_until_the_flip():
    """Rules file resolution 3: "Each player, in seat order, submits a placement (which Treasure goes on 1/2/3,
    plus added Coins per card) hidden from the others; all are flipped when Negotiate starts." Seat 0 commits
    two ways with the same number of Coins added."""
    a = _committed(("Sword", "Goblet"), ("card1", "card1", "card3"))
    b = _committed(("Pearl", "Sword"), ("card2", "card3"))
    assert len(a.coins[0]) == 0 and len(b.coins[0]) == 1
    b = _committed(("Pearl", "Sword"), ("card2", "card3", "card3"))
    assert same_obs(a, b, 1) and same_obs(a, b, 2) and not same_obs(a, b, 0)
    np.testing.assert_array_equal(a.legal_mask(), b.legal_mask())
    for s in (a, b):  # both flip: the placements become public
        play(s, "Lute", "Ruby")
        while s.phase == REVEAL:
            play(s, s.legal_actions()[0])
    assert not same_obs(a, b, 1)


def _set_known(s, c, seats):
    s.known_by[c] = seats
    if seats:
        s.seen.add(c)


def test_a_peeked_deck_card_is_known_only_to_the_peeker():
    """Rules file 3.5: "deck order" is hidden; the env doc: "What a seat has seen (PEEK_DECK ...) stays known to
    it ... Nobody else learns anything." Seat 0 peeked the top card; it differs between the positions."""
    s = Table().treasures(0, "Prophecy").deck("Goblet", "Sword", "Pearl").reveal_window({})
    play(s, "Prophecy", "Goblet", "Sword")
    assert s.decision == E.COMMIT_CARD
    b = s.clone()
    top, deep = len(b.deck) - 1, 0
    b.deck[top], b.deck[deep] = b.deck[deep], b.deck[top]
    b.known_by[b.deck[top]], b.known_by[b.deck[deep]] = b.known_by[b.deck[deep]], b.known_by[b.deck[top]]
    b.seen = {c for c in range(CS.num_cards) if b.known_by[c]}
    checked(b)
    assert not same_obs(s, b, 0) and same_obs(s, b, 1) and same_obs(s, b, 2)


def test_the_order_a_peeker_chooses_is_hidden_from_the_others():
    """Rules file 3.1: "`PEEK_DECK(n)`: look at the top n and reorder them" -- only the peeker knows the order."""
    a = Table().treasures(0, "Prophecy").deck("Goblet", "Sword", "Pearl").reveal_window({})
    b = a.clone()
    play(a, "Prophecy", "Goblet", "Sword")
    play(b, "Prophecy", "Pearl", "Goblet")
    assert not same_obs(a, b, 0) and same_obs(a, b, 1) and same_obs(a, b, 2)


def test_the_coins_a_druid_looks_at_are_hidden_from_the_others():
    """Rules file 3.1: "`FLIP_COIN(k)`: look at k of your own Coins"; the env doc: "Nobody else learns
    anything." Two positions whose Druid looks at different Coins, at the flip decision."""
    a = Table(classes=("Druid", "Warrior", "Cleric")).coins(0, "Sword", "Goblet", "Pearl").claim_window()
    b = a.clone()
    i = next(i for i, c in enumerate(b.deck) if CS.names[CS.NAME[c]] == "Unicorn Horn")
    b.coins[0][0], b.deck[i] = b.deck[i], b.coins[0][0]
    checked(b)
    play(a, "power")
    play(b, "power")
    assert a.decision == E.FLIP and legal_names(a) != legal_names(b)
    assert not same_obs(a, b, 0) and same_obs(a, b, 1) and same_obs(a, b, 2)
    play(a, "done")
    play(b, "done")
    assert same_obs(a, b, 1) and same_obs(a, b, 2)


def test_the_card_the_wizard_scries_to_the_bottom_is_hidden_from_the_others():
    """Rules file 3.4: Wizard "put 1 on the bottom of the deck"; 3.5: "deck order" is hidden."""
    t = Table(classes=("Wizard", "Druid", "Cleric")).deck("Sword", "Goblet", "Pearl", "Lute")
    a = _round_start(t)
    b = a.clone()
    play(a, "Sword")
    play(b, "Lute")
    assert not same_obs(a, b, 0) and same_obs(a, b, 1) and same_obs(a, b, 2)


def test_the_card_a_spellbook_puts_into_the_haul_as_a_coin_is_hidden_from_the_others():
    """Rules file 3.1: "`EXTRA_DRAW`: in Reveal, draw 1 more card, then put 1 drawn card into your Haul as a
    Coin" -- a Coin's face is hidden."""
    a = Table().treasures(0, "Spellbook").deck("Sword").reveal_window({0: ("Goblet", "Pearl", "Lute")})
    b = a.clone()
    play(a, "Spellbook", "Goblet")
    play(b, "Spellbook", "Sword")
    assert not same_obs(a, b, 0) and same_obs(a, b, 1) and same_obs(a, b, 2)


def test_only_the_mover_gets_an_action_mask_and_scores_wait_for_the_end():
    """Rules file 3.5: hidden are "others' hidden Titles" and unflipped commits -- the mover's mask names his
    dealt cards (commit) and looked-at Coins (flip), and a score includes the hidden Title: neither may reach
    another seat before the end."""
    env = card_envs.make("split_the_hoard_v0", num_players=3, auto_forced=False)
    env.reset(seed=11)
    rng = np.random.default_rng(0)
    steps = 0
    for agent in env.agent_iter():
        obs_, _, term, trunc, info = env.last()
        if term or trunc:
            assert "scores" in info
            env.step(None)
            continue
        assert info == {}
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        legal = np.flatnonzero(obs_["action_mask"])
        env.step(int(rng.choice(legal)))
        steps += 1
    assert steps > 50


def test_determinize_depends_only_on_what_the_seat_knows():
    """Rules file 3.5 (Hidden: "others' hidden Titles, Title deck, deck order, Coin pile, unflipped commits");
    the env doc: determinize's "copy depends only on what `player` knows and on `rng`"."""
    a = _reveal_commit_position()
    b = a.clone()
    _swap_title(b)
    _swap_hand_card(b)
    _swap_coin_faces(b)
    assert a.to_json() != b.to_json()
    for p in (0, 2):
        twins = [x.determinize(p, np.random.default_rng(5)).to_json() for x in (a, b)]
        assert twins[0] == twins[1]


def test_render_for_a_seat_does_not_show_where_another_seat_committed_a_card_it_knows():
    """Rules file resolution 3: the placement "(which Treasure goes on 1/2/3, plus added Coins per card)" is
    "hidden from the others"; env doc: "the others see only that the Negotiate Cards are filled and how many
    Coins left the Haul ... not which Treasure or how many Coins went on each card, until the flip". Seat 1
    knows seat 0's Sword (it peeked it on the deck); the observation hides its placement -- the text view
    for seat 1 (``render_seat=1``) must too."""
    s = Table().coins(0, count=2).reveal_window({0: ("Goblet", "Sword", "Pearl")})
    _set_known(s, card_of(s, s.hand[0], "Sword"), 0b010)
    checked(s)
    a, b = s.clone(), s.clone()
    play(a, "Sword", "Goblet", "card1", "card1")
    play(b, "Goblet", "Sword", "card2", "card2")
    assert same_obs(a, b, 1)  # the observation is right
    assert s.game.render(a, 1) == s.game.render(b, 1)


# ================================================================================================
# More abilities
# ================================================================================================
def test_a_treasure_on_a_negotiate_card_cannot_be_used():
    """Rulebook: "Treasures cannot be discarded whilst on a player's Negotiate Cards." (F10: "A Treasure on a
    Negotiate Card cannot be used.") -- a Holy Symbol for sale cannot refuse, a Bandages for sale cannot
    cancel a theft."""
    t = Table(powers="tiebreak_only").coins(0, count=2).coins(1, count=2).treasures(0, "Lockpicks")
    s = t.negotiate({1: ["Sword", "Holy Symbol", "Bandages"]})
    play(s, "Lockpicks", "+1")  # no reaction asked
    assert len(s.coins[0]) == 4 and len(s.coins[1]) == 0
    play(s, "+1", "card1")
    assert names(s, s.treasures[0]) == ["Sword"] and s.decision == E.TURN and s.current_player == 1


def test_shield_cancels_a_swap():
    """Rules file 3.1: "`CANCEL_TREASURE_THEFT`: cancel an opponent's effect that takes or swaps your
    Treasure" (Shield vs Mirror of Exchange)."""
    s = Table(powers="tiebreak_only").treasures(0, "Mirror of Exchange", "Goblet") \
        .treasures(1, "Unicorn Horn", "Shield").claim_window()
    discarded = len(s.treasure_discard)
    play(s, "Mirror of Exchange", "Goblet", "+1", "Unicorn Horn")
    assert s.decision == E.REACT and s.current_player == 1 and legal_names(s) == ["Shield", "done"]
    play(s, "Shield")
    assert names(s, s.treasures[0]) == ["Goblet"] and names(s, s.treasures[1]) == ["Unicorn Horn"]
    assert names(s, s.treasure_discard[discarded:]) == ["Mirror of Exchange", "Shield"]


def test_lute_takes_up_to_one_coin_from_each_other_player():
    """Rules file 3.1: "`TAKE_COINS(p,n)` / `TAKE_EACH(n)`: move up to n Coins from player p (or from each
    other player) into your Haul"."""
    s = Table(n=4, powers="tiebreak_only").treasures(1, "Lute").coins(0, count=2).coins(3, count=1) \
        .negotiate({0: ["Goblet", None, None]})
    play(s, "draw2")
    assert s.current_player == 1
    play(s, "Lute")
    assert [len(c) for c in s.coins] == [2 + 2 - 1, 2, 0, 0]


def test_bag_of_holding_recovers_up_to_three_coins():
    """Rules file 3.1: "`RECOVER_COINS(n)`: take up to n cards from the Coin discard pile as Coins"."""
    t = Table(powers="tiebreak_only").treasures(0, "Bag of Holding")
    for p in range(3):
        t.coins(p, count=4)  # the starting Coins in the Hauls: the Coin discard is the test's
    s = t.build()
    assert s.coin_discard == []
    s.coin_discard = [s.deck.pop(0)]
    s.phase, s.stage, s.flipped = CLAIM, "window", True
    s._advance()
    pile = s.coin_discard[:]
    play(s, "Bag of Holding")
    assert s.coins[0][4:] == pile and s.coin_discard == []


def test_tiebreak_only_classes_still_break_starting_title_ties():
    """Rules file resolution 15: "Offer `class_powers: tiebreak_only | full`" -- "tiebreak_only": classes only
    break Starting Title ties (F14: "a tie is settled by a Class-card ability")."""
    t = Table(classes=("Druid", "Rogue", "Cleric"), titles=("Bard", "Knight", "Thief"), powers="tiebreak_only")
    s = _final(t, coins=(5, 5, 1))
    assert s.scoring()[1]["starting"] == ["Wealthiest"] and s.scoring()[0]["starting"] == []


def test_a_steal_cancelled_by_shield_costs_its_actor_nothing():
    """Rules file 3.1: "`STEAL(n)`: pay n Coins to take a Treasure"; "`CANCEL_TREASURE_THEFT`: cancel an
    opponent's effect that takes or swaps your Treasure". The env doc's resolution: a STEAL cancelled by
    Shield costs its actor nothing (the Coins are paid only for a Treasure taken)."""
    s = Table(powers="tiebreak_only").treasures(0, "Grappling Hook").coins(0, count=3) \
        .treasures(1, "Unicorn Horn", "Shield").claim_window()
    discarded = len(s.treasure_discard)
    play(s, "Grappling Hook", "+1", "Unicorn Horn")
    assert s.decision == E.REACT and s.current_player == 1 and legal_names(s) == ["Shield", "done"]
    play(s, "Shield")
    assert len(s.coins[0]) == 3 and len(s.coins[1]) == 0
    assert names(s, s.treasures[1]) == ["Unicorn Horn"] and names(s, s.treasures[0]) == []
    assert names(s, s.treasure_discard[discarded:]) == ["Grappling Hook", "Shield"]


def test_the_last_griffon_feather_used_takes_the_dragon_card():
    """Rules file 3.1: "`TAKE_DRAGON`: you get the Dragon Card at round end". Two Feathers in one Claim
    phase (the env doc's resolution): the last one used holds the Dragon Card when it passes."""
    s = Table(dragon=0, powers="tiebreak_only").treasures(1, "Griffon Feather") \
        .treasures(2, "Griffon Feather").claim_window()
    assert s.current_player == 1
    play(s, "Griffon Feather")
    assert s.current_player == 2 and s.phase == CLAIM
    play(s, "Griffon Feather")
    assert s.dragon == 2 and s.round == 1 and s.phase == REVEAL



def test_prophecy_on_a_short_deck_looks_at_what_is_there_and_does_not_end_the_game():
    """PEEK_DECK(3) with 2 cards left looks at those 2 (the doc page): a look is no short draw."""
    s = Table().treasures(1, "Prophecy").deck("Goblet", "Sword").reveal_window({}, rest="coin_discard")
    play(s, "Prophecy")
    assert s.decision == E.ORDER and sorted(legal_names(s)) == ["Goblet", "Sword"]
    play(s, "Sword")
    assert not s.is_terminal() and not s.end_flag and s.decision == E.COMMIT_CARD
    assert s.game.cards.names_of(reversed(s.deck)) == ["Sword", "Goblet"]
