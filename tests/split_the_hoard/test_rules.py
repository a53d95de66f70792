"""Split the Hoard rules: the rulebook's examples, each effect primitive, each Title criterion,
each class power and each end-of-game case of resolution 10, as scripted positions."""

from __future__ import annotations

import json

import numpy as np
import pytest

import card_envs
from card_envs.games.split_the_hoard import effects as E
from card_envs.games.split_the_hoard import scoring
from card_envs.games.split_the_hoard.game import SplitTheHoardGame
from card_envs.games.split_the_hoard.rules import CLAIM, NEGOTIATE, REVEAL
from tests.split_the_hoard.test_helpers import CS, Table, legal_names, names, play, tc


# ----- the card list ------------------------------------------------------------------------------
def test_the_open_edition_list_has_every_card_of_section_3():
    assert CS.num_cards == 103 and CS.num_names == 39
    assert CS.total_vp == 157
    assert sum(r.copies for r in CS.rows if r.effect) == 67
    assert len(CS.starting) == 5 and len(CS.hidden) == 15 and len(CS.classes) == 5
    fixed = [r for r in CS.rows if r.rank is not None and not r.modifier]
    assert sum(r.copies for r in fixed) == 58
    assert sum(r.copies for r in CS.rows if r.modifier) == 14
    counts = {}
    for r in fixed:
        counts[r.rank] = counts.get(r.rank, 0) + r.copies
    assert counts == {1: 11, 2: 10, 3: 8, 4: 6, 5: 8, 6: 5, 7: 5, 8: 2, 9: 2, 10: 1}


def _cards_data():
    return json.loads((CS_PATH).read_text())


CS_PATH = __import__("card_envs.games.split_the_hoard.cards", fromlist=["DEFAULT_CARDS"]).DEFAULT_CARDS


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d["hoard"][2].update(effect=["GAIN"]), r"hoard\[2\] 'Pearl'.effect: GAIN takes 1 argument"),
    (lambda d: d["hoard"][2].update(effect=["TELEPORT", 1]), r"hoard\[2\] 'Pearl'.effect: unknown effect primitive"),
    (lambda d: d["hoard"][0].update(copies=0), r"hoard\[0\] 'Healing Herbs'.copies"),
    (lambda d: d["hoard"][12].update(condition={"has_any": ["Lightsaber"]}), r"Plate Armour'.condition.has_any"),
    (lambda d: d["hoard"][4].update(phase="lunch"), r"hoard\[4\] 'Goblet'.phase"),
    (lambda d: d["hoard"][15].update(phase="claim"), r"'Holy Symbol'.effect: REFUSE cannot be used in phase 'claim'"),
    (lambda d: d["hidden_titles"][0]["criterion"].update(k="three"), r"hidden_titles\[0\] 'Smith'.criterion.k"),
    (lambda d: d["starting_titles"][0].update(tie_class="Bard"), r"starting_titles\[0\].tie_class"),
    (lambda d: d["hoard"].append(dict(d["hoard"][0])), r"hoard\[39\] 'Healing Herbs': duplicate name"),
])
def test_a_bad_cards_file_is_refused_naming_the_entry(tmp_path, mutate, message):
    data = _cards_data()
    mutate(data)
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=message):
        SplitTheHoardGame(cards=str(path))


def test_another_cards_file_is_a_data_change(tmp_path):
    """A new card whose effect is a known primitive is one data row."""
    data = _cards_data()
    data["hoard"].append({"name": "Golden Goose", "copies": 3, "rank": 2, "modifier": False, "vp": 2,
                        "condition": None, "phase": "claim", "effect": ["GAIN", 6]})
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(data))
    env = card_envs.make("split_the_hoard_v0", cards=str(path))
    env.reset(seed=0)
    game = env.unwrapped.game
    assert "Golden Goose" in game.cards.names and game.config["cards"] == str(path)
    assert game.cards.num_cards == 106 and game.num_actions == 40 + 11
    s = _claim_with(game, "Golden Goose")
    play(s, "Golden Goose")
    assert len(s.coins[0]) == 6
    with pytest.raises(ValueError, match="cannot read"):
        SplitTheHoardGame(cards=str(tmp_path / "missing.json"))
    data["hoard"][-1]["vp"] = 7  # an edited file is read again, not served from a cache
    path.write_text(json.dumps(data))
    assert SplitTheHoardGame(cards=str(path)).cards.rows[-1].vp == 7


def _claim_with(game, name):
    from card_envs.games.split_the_hoard.rules import SplitTheHoardState
    s = SplitTheHoardState(game)
    cs, n = game.cards, game.num_players
    c = cs.first_card[cs.name_index[name]]
    others = [x for x in range(cs.num_cards) if x != c]
    # round 0's Claim: the rest of the deal used for abilities (usable by now: not Reveal's), seat
    # 0's 4 starting Coins added to its Negotiate Cards (now in the Coin discard), the others' in
    # their Hauls
    s.treasure_discard = [x for x in others if cs.effect[cs.NAME[x]] is not None
                          and cs.phase[cs.NAME[x]] != "reveal"][:3 * n - 1]
    others = [x for x in others if x not in s.treasure_discard]
    s.coin_discard = others[:4]
    s.coins = [[]] + [others[4 * p:4 * p + 4] for p in range(1, n)]
    s.deck = others[4 * n:]
    s.add_treasure(0, c)
    s.title_deck = list(range(game.num_players, len(cs.hidden)))
    s.phase, s.stage, s.flipped = CLAIM, "window", True
    s._advance()
    return s


# ----- the rulebook's examples ---------------------------------------------------------------------
def test_emerald_gains_four_coins():
    t = Table().treasures(0, "Emerald")
    s = t.claim_window()
    assert s.decision == E.PRIORITY and s.current_player == 0
    discarded = len(s.treasure_discard)
    play(s, "Emerald")
    assert len(s.coins[0]) == 4 and names(s, s.treasure_discard[discarded:]) == ["Emerald"]
    assert s.is_terminal() is False


def test_emerald_gains_only_three_when_three_cards_remain_and_the_game_ends_after_claim():
    t = Table(powers="tiebreak_only").treasures(0, "Emerald").deck("Goblet", "Sword", "Pearl")
    s = t.claim_window(rest="coin_discard")
    play(s, "Emerald")
    assert names(s, s.coins[0]) == ["Goblet", "Pearl", "Sword"] and not s.deck
    assert s.end_flag and s.is_terminal()  # nobody has a Claim ability left: the phase ends, so does the game


def test_shield_bought_for_four_printed_three_plus_one_added_coin():
    t = Table().coins(0, count=5).coins(1, count=2)
    s = t.negotiate({1: [None, None, "Shield"]}, added={(1, 2): 1})
    assert s.decision == E.TURN and s.current_player == 0
    assert s.price(1, 2) == 4
    discard_before = len(s.coin_discard)
    play(s, "+1", "card3")
    assert names(s, s.treasures[0]) == ["Shield"]
    assert len(s.coins[0]) == 1 and len(s.coins[1]) == 2 + 4
    assert len(s.coin_discard) == discard_before + 1  # the added Coin, to the Coin pile (resolution 5)
    assert s.offer[1][2] == -1 and s.current_player == 1  # the Druid's turn is over


def test_prophecy_is_rank_4_8_with_enchantment_2_with_shield():
    assert scoring.total_rank_high(tc("Prophecy"), CS) == 4
    assert scoring.total_rank_high(tc("Prophecy", "Enchantment"), CS) == 8
    assert scoring.total_rank_low(tc("Prophecy", "Shield"), CS) == 2
    assert scoring.total_rank_high(tc("Prophecy", "Shield"), CS) == 4  # modifiers are optional
    assert scoring.total_rank_low(tc("Prophecy", "Enchantment"), CS) == 4
    assert scoring.max_rank(tc("Prophecy", "Enchantment", "Shield"), CS) == 8
    assert scoring.total_rank_high(tc("Enchantment"), CS) == 0  # a modifier alone attaches to nothing


def test_healing_herbs_counts_for_both_smith_and_healer():
    haul = tc("Healing Herbs", "Iron Ingot", "Whetstone", "Bandages", "Potion of Healing")
    smith, healer = (CS.hidden[CS.title_index[t]] for t in ("Smith", "Healer"))
    assert scoring.hidden_met(smith.criterion, haul, 0, CS) and scoring.hidden_met(healer.criterion, haul, 0, CS)
    without = tc("Iron Ingot", "Whetstone", "Bandages", "Potion of Healing")
    assert not scoring.hidden_met(smith.criterion, without, 0, CS)
    assert not scoring.hidden_met(healer.criterion, without, 0, CS)


def test_deal_triggers_when_bought_into_a_haul():
    t = Table().coins(0, count=3)
    s = t.negotiate({1: ["Deal", None, None]})
    discarded = len(s.treasure_discard)
    play(s, "+1", "card1")
    assert s.decision == E.DEAL and s.current_player == 0
    play(s, "yes")
    assert names(s, s.treasure_discard[discarded:]) == ["Deal"] and len(s.coins[0]) == 3 - 1 + 3
    assert s.current_player == 1 and s.decision == E.TURN


def test_deal_triggers_on_a_claim_refill_and_may_be_kept():
    t = Table().deck("Deal", "Goblet", "Sword")
    s = t.build()
    s.phase, s.flipped = NEGOTIATE, True
    s._start_claim()  # every Negotiate Card is empty: all three players refill
    s._advance()
    assert s.decision == E.DEAL and s.current_player == 0
    play(s, "done")
    assert "Deal" in names(s, s.treasures[0])


def test_deal_triggers_when_a_coin_is_flipped_face_up():
    t = Table(classes=("Druid", "Warrior", "Cleric")).coins(0, "Deal")
    s = t.claim_window()
    play(s, "power", "Deal")  # Forage looks at the Coin and turns it face up
    assert s.decision == E.DEAL and s.current_player == 0


# ----- effect primitives ---------------------------------------------------------------------------
def test_gain_draws_face_down_coins():
    s = Table().treasures(0, "Iron Ingot").claim_window()
    top = s.deck[-2:]
    play(s, "Iron Ingot")
    assert sorted(s.coins[0]) == sorted(top)


def test_take_coins_moves_up_to_n_coins_from_the_chosen_player():
    s = Table().treasures(0, "Lockpicks").coins(1, count=5).coins(2, count=1).negotiate({1: ["Goblet", None, None]})
    play(s, "Lockpicks", "+2")  # seat 2 holds only one Coin
    assert len(s.coins[0]) == 1 and len(s.coins[2]) == 0
    assert s.decision == E.TURN and s.current_player == 0  # the ability came before the action


def test_take_each_takes_from_every_other_player():
    s = Table().treasures(0, "Lute").coins(1, count=3).coins(2, count=2).negotiate({1: ["Goblet", None, None]})
    play(s, "Lute")
    assert len(s.coins[0]) == 2 and len(s.coins[1]) == 2 and len(s.coins[2]) == 1


def test_cancel_coin_theft_bandages_stops_a_take():
    s = Table().treasures(0, "Lute").treasures(2, "Bandages").coins(1, count=3).coins(2, count=2) \
        .negotiate({1: ["Goblet", None, None]})
    play(s, "Lute")
    assert s.decision == E.REACT and s.current_player == 2
    assert legal_names(s) == ["Bandages", "done"]
    play(s, "Bandages")
    assert len(s.coins[2]) == 2 and len(s.coins[0]) == 1 and "Bandages" in names(s, s.treasure_discard)
    assert s.current_player == 0 and s.decision == E.TURN


def test_recover_coins_takes_from_the_coin_discard_pile():
    t = Table().treasures(0, "Bag of Holding")
    for p in range(3):
        t.coins(p, count=4)  # the starting Coins in the Hauls: the Coin discard is the test's
    s = t.build()
    assert s.coin_discard == []
    s.coin_discard = [s.deck.pop(0) for _ in range(4)]
    top3 = s.coin_discard[-3:]
    s.phase, s.stage, s.flipped = CLAIM, "window", True
    s._advance()
    play(s, "Bag of Holding")
    assert sorted(s.coins[0][4:]) == sorted(top3) and len(s.coin_discard) == 1


def test_recover_treasure_takes_any_other_treasure_from_the_pile():
    # round 0's other dealt cards back in the other Hauls (unsold), so the discard is the test's
    t = Table().treasures(0, "Healing Herbs").discard("Pearl", "Healing Herbs")  # abilities used
    for p in (1, 2):
        t.treasures(p, "Goblet", "Wolf Pelt", "Whetstone")
    s = t.claim_window()
    assert names(s, s.treasure_discard) == ["Healing Herbs", "Pearl"]
    play(s, "Healing Herbs")
    assert s.decision == E.RECOVER and legal_names(s) == ["Pearl"]  # never a Healing Herbs
    play(s, "Pearl")
    assert names(s, s.treasures[0]) == ["Pearl"]


def test_draw_treasure_draws_face_up():
    s = Table().treasures(0, "Potion of Healing").deck("Goblet").claim_window()
    play(s, "Potion of Healing")
    assert names(s, s.treasures[0]) == ["Goblet"]


def test_pick_top_takes_one_and_returns_the_rest_in_any_order():
    s = Table().treasures(0, "Treasure Map").deck("Goblet", "Sword", "Pearl").reveal_window({})
    play(s, "Treasure Map")
    assert s.decision == E.PICK
    assert sorted(legal_names(s)) == ["Goblet", "Pearl", "Sword"]
    play(s, "Sword")
    assert names(s, s.treasures[0]) == ["Sword"]
    assert s.decision == E.ORDER
    play(s, "Pearl")  # Pearl on top, Goblet under it
    assert names(s, s.deck[-1:]) == ["Pearl"] and names(s, s.deck[-2:-1]) == ["Goblet"]
    assert all(s.known_by[c] == 1 for c in s.deck[-2:])


def test_peek_deck_reorders_the_top_cards_and_only_the_peeker_knows_them():
    s = Table().treasures(0, "Prophecy").deck("Goblet", "Sword", "Pearl").reveal_window({})
    play(s, "Prophecy")
    assert s.decision == E.ORDER and sorted(legal_names(s)) == ["Goblet", "Pearl", "Sword"]
    play(s, "Pearl", "Goblet")
    assert s.game.cards.names_of(reversed(s.deck[-3:])) == ["Pearl", "Goblet", "Sword"]
    view = s.game.encoder.observation_layout.views(s.observation(0))
    assert view["deck_top"][0][CS.name_index["Pearl"]] == 1
    assert not s.game.encoder.observation_layout.views(s.observation(1))["deck_top"].any()


def test_flip_coin_looks_at_two_coins_and_may_turn_one_face_up():
    s = Table().treasures(0, "Ancient Scroll").coins(0, "Sword", "Goblet", "Pearl").claim_window()
    play(s, "Ancient Scroll")
    assert s.decision == E.FLIP
    assert sorted(legal_names(s)) == ["Goblet", "Sword", "done"]  # the two oldest
    play(s, "Sword")
    assert names(s, s.treasures[0]) == ["Sword"] and names(s, s.coins[0]) == ["Goblet", "Pearl"]
    goblet = s.coins[0][0]
    assert s.known_by[goblet] == 1  # still known to its owner only


def test_extra_draw_draws_one_more_and_puts_one_into_the_haul_as_a_coin():
    s = Table().treasures(0, "Spellbook").deck("Sword").reveal_window({0: ("Goblet", "Pearl", "Lute")})
    play(s, "Spellbook")
    assert s.decision == E.EXTRA_COIN and sorted(legal_names(s)) == ["Goblet", "Lute", "Pearl", "Sword"]
    play(s, "Goblet")
    assert names(s, s.coins[0]) == ["Goblet"] and names(s, s.hand[0]) == ["Lute", "Pearl", "Sword"]


def test_discount_lowers_this_turns_purchase_never_below_its_minimum():
    s = Table().treasures(0, "Bribe").coins(0, count=1).negotiate({1: [None, None, "Sword"]})
    assert legal_names(s) == ["Bribe", "draw 2 coins"]  # 3 Coins needed, 1 held
    play(s, "Bribe")
    assert s.price(1, 2) == 1
    play(s, "+1", "card3")
    assert names(s, s.treasures[0]) == ["Sword"] and s.discount == 0
    s2 = Table().treasures(0, "Bribe").negotiate({1: ["Sword", None, None]})
    play(s2, "Bribe")
    assert s2.price(1, 0) == 0  # 1 - 2 but never below 0: free


def test_printed_only_ignores_added_coins_and_the_warrior_intimidates():
    s = Table(classes=("Warrior", "Druid", "Cleric")).coins(0, count=3).negotiate({1: [None, None, "Sword"]},
                                                                                  added={(1, 2): 4})
    assert "+1" not in legal_names(s) and "class power" in legal_names(s)
    play(s, "power")
    assert s.price(1, 2) == 3
    before = len(s.coin_discard)
    play(s, "+1", "card3")
    assert len(s.coins[1]) == 3 and len(s.coin_discard) == before + 4  # added Coins still discarded


def test_refuse_holy_symbol_cancels_a_negotiation_and_the_buyer_acts_again():
    s = Table().coins(0, count=5).treasures(1, "Holy Symbol").negotiate({1: ["Sword", "Goblet", None]})
    play(s, "+1", "card1")
    assert s.decision == E.REACT and s.current_player == 1 and legal_names(s) == ["Holy Symbol", "done"]
    play(s, "Holy Symbol")
    assert s.decision == E.TURN and s.current_player == 0 and s.refused == [(1, 0)]
    play(s, "+1")
    assert legal_names(s) == ["negotiate card 2 (2 coins)"]  # not that Treasure again
    play(s, "card2")
    assert names(s, s.treasures[0]) == ["Goblet"]


def test_cancel_treasure_theft_shield_stops_a_steal():
    s = Table().treasures(0, "Grappling Hook").coins(0, count=3).treasures(1, "Sword", "Shield").claim_window()
    play(s, "Grappling Hook", "+1", "Sword")
    assert s.decision == E.REACT and s.current_player == 1 and legal_names(s) == ["Shield", "done"]
    play(s, "Shield")
    assert names(s, s.treasures[1]) == ["Sword"] and len(s.coins[0]) == 3


def test_steal_pays_and_takes_any_treasure():
    s = Table().treasures(0, "Grappling Hook").coins(0, count=4).treasures(2, "Dragon Scale").claim_window()
    play(s, "Grappling Hook")
    assert legal_names(s) == ["player +2"]  # only players with a Treasure
    play(s, "+2", "Dragon Scale")
    assert names(s, s.treasures[0]) == ["Dragon Scale"] and len(s.coins[0]) == 1 and len(s.coins[2]) == 3


def test_steal_needs_its_coins():
    s = Table().treasures(0, "Grappling Hook", "Emerald").coins(0, count=2).treasures(2, "Sword").claim_window()
    assert "Grappling Hook" not in legal_names(s)


def test_swap_exchanges_treasures():
    s = Table().treasures(0, "Mirror of Exchange", "Goblet").treasures(1, "Unicorn Horn").claim_window()
    play(s, "Mirror of Exchange")
    assert s.decision == E.GIVE and legal_names(s) == ["Goblet"]
    play(s, "Goblet", "+1", "Unicorn Horn")
    assert names(s, s.treasures[0]) == ["Unicorn Horn"] and names(s, s.treasures[1]) == ["Goblet"]


def test_swap_is_not_offered_without_another_treasure_to_give():
    s = Table().treasures(0, "Mirror of Exchange", "Iron Ingot").treasures(1, "Sword").claim_window()
    assert "Mirror of Exchange" in legal_names(s)
    s = Table(powers="tiebreak_only").treasures(0, "Mirror of Exchange").treasures(1, "Sword").claim_window()
    assert s.phase == REVEAL  # the Mirror alone has nothing to give: nobody was asked


def test_extra_action_gives_a_second_negotiate_action():
    s = Table().treasures(0, "Boots of Speed").coins(0, count=3).negotiate({1: ["Sword", "Goblet", None]})
    play(s, "Boots of Speed", "+1", "card1")
    assert s.current_player == 0 and s.decision == E.TURN
    play(s, "+1", "card2")
    assert names(s, s.treasures[0]) == ["Goblet", "Sword"] and s.current_player == 1


def test_take_dragon_gets_the_dragon_card_at_round_end():
    s = Table(dragon=0).treasures(2, "Griffon Feather").claim_window()
    assert s.current_player == 2
    play(s, "Griffon Feather")
    assert s.dragon == 2 and s.phase == REVEAL  # the next round starts with seat 2 first


def test_the_dragon_card_passes_clockwise_otherwise():
    s = Table(dragon=1).claim_window()
    assert s.dragon == 2 and s.phase == REVEAL and s.round == 1


# ----- priority loops -----------------------------------------------------------------------------
def test_priority_loop_goes_from_the_dragon_holder_until_all_pass_in_a_row():
    s = Table(dragon=1).treasures(0, "Iron Ingot").treasures(1, "Iron Ingot", "Emerald").treasures(2, "Diamond") \
        .claim_window()
    order = []
    while s.phase == CLAIM:
        order.append(s.current_player)
        legal = s.legal_actions()
        play(s, legal[0] if legal[0] != s.game.DONE else "done")
    assert order[:3] == [1, 2, 0]
    assert order[3] == 1  # the holder may use a second ability


# ----- secret commits ------------------------------------------------------------------------------
def test_commits_are_secret_until_the_flip():
    s = Table().reveal_window({0: ("Goblet", "Sword", "Pearl"), 1: ("Lute", "Ruby", "Bandages")})
    s.coins[0] += [s.deck.pop(0) for _ in range(2)]
    assert s.decision == E.COMMIT_CARD and s.current_player == 0
    play(s, "Sword", "Goblet")
    assert s.decision == E.COMMIT_COINS
    play(s, "card1", "card1")  # no Coin left: the commit ends without a "done"
    assert names(s, s.added[0][0]) and len(s.added[0][0]) == 2
    layout = s.game.encoder.observation_layout
    other = layout.views(s.observation(1))
    assert other["offered"][2].tolist() == [1, 1, 1] and not other["offers"][2].any()  # seat 0 is +2 for seat 1
    mine = layout.views(s.observation(0))
    assert mine["offers"][0][0][CS.name_index["Sword"]] == 1 and mine["offer_coins"][0][0] > 0
    play(s, "Lute", "Ruby")
    while s.phase == REVEAL:
        play(s, s.legal_actions()[0])
    assert s.phase == NEGOTIATE and s.flipped
    assert layout.views(s.observation(1))["offers"][2][0][CS.name_index["Sword"]] == 1


# ----- class powers --------------------------------------------------------------------------------
def test_druid_forage_flips_a_coin_in_claim_once_per_round():
    s = Table(classes=("Druid", "Warrior", "Cleric")).coins(0, "Sword", "Goblet").claim_window()
    assert legal_names(s) == ["class power", "done"]
    play(s, "power", "Goblet")
    assert names(s, s.treasures[0]) == ["Goblet"]
    assert s.round == 1  # once a round: nothing left to use, the Claim phase ended


def test_cleric_sanctuary_refuses_one_negotiation_a_round():
    s = Table(classes=("Druid", "Cleric", "Warrior")).coins(0, count=4).negotiate({1: ["Sword", "Goblet", None]})
    play(s, "+1", "card1")
    assert s.decision == E.REACT and sorted(legal_names(s)) == ["class power", "done"]
    play(s, "power")
    play(s, "+1", "card2")
    assert names(s, s.treasures[0]) == ["Goblet"] and s.power_used[1]


def test_rogue_pickpocket_takes_a_coin_with_the_draw_two_action():
    s = Table(classes=("Rogue", "Druid", "Cleric")).coins(2, count=2).negotiate({1: ["Sword", None, None]})
    play(s, "draw2")
    assert s.decision == E.TARGET and sorted(legal_names(s)) == ["done", "player +1", "player +2"]
    play(s, "+2")
    assert len(s.coins[0]) == 3 and len(s.coins[2]) == 1


def test_rogue_pickpocket_is_cancelled_by_bandages():
    s = Table(classes=("Rogue", "Druid", "Cleric")).coins(2, count=2).treasures(2, "Bandages") \
        .negotiate({1: ["Sword", None, None]})
    play(s, "draw2", "+2", "Bandages")
    assert len(s.coins[0]) == 2 and len(s.coins[2]) == 2


def test_wizard_scry_draws_four_and_puts_one_on_the_bottom():
    t = Table(classes=("Wizard", "Druid", "Cleric")).deck("Sword", "Goblet", "Pearl", "Lute")
    t.s.round = 1  # a later round's start (round 0's Hauls would hold their 4 starting Coins)
    s = t.build(dealt=False)
    s._start_round()
    s._advance()
    assert s.decision == E.SCRY and s.current_player == 0 and len(s.hand[0]) == 4
    assert sorted(legal_names(s)) == ["Goblet", "Lute", "Pearl", "Sword"]
    play(s, "Lute")
    assert names(s, s.deck[:1]) == ["Lute"] and s.known_by[s.deck[0]] == 1 and len(s.hand[0]) == 3


def test_tiebreak_only_offers_no_class_power():
    t = Table(classes=("Wizard", "Druid", "Cleric"), powers="tiebreak_only").coins(1, count=2)
    s = t.build()
    s._start_round()
    s._advance()
    assert len(s.hand[0]) == 3 and s.decision != E.SCRY
    s = Table(classes=("Druid", "Warrior", "Cleric"), powers="tiebreak_only").coins(0, count=2).claim_window()
    assert s.phase == REVEAL  # nobody had anything to use in Claim


# ----- Titles ---------------------------------------------------------------------------------------
def _award(title: str, hauls, coins, classes=(0, 1, 2)):
    t = next(x for x in CS.starting if x.name == title)
    return scoring.award_starting(t, [tc(*h) for h in hauls], list(coins), list(classes), CS)


WIZARD, DRUID, CLERIC, ROGUE, WARRIOR = (CS.class_index[c] for c in ("Wizard", "Druid", "Cleric", "Rogue", "Warrior"))


def test_archmage_highest_total_rank_with_positive_modifiers():
    assert _award("Archmage", [("Sword",), ("Prophecy", "Enchantment"), ()], (0, 0, 0)) == 1
    assert _award("Archmage", [("Sword",), ("Sword",), ()], (0, 0, 0), (WIZARD, DRUID, CLERIC)) == 0
    assert _award("Archmage", [("Sword",), ("Sword",), ()], (0, 0, 0), (ROGUE, DRUID, CLERIC)) == -1
    assert _award("Archmage", [(), ("Enchantment",), ()], (0, 0, 0)) == -1  # nobody eligible


def test_saint_lowest_total_rank_needs_three_fixed_ranks():
    three = ("Pearl", "Goblet", "Prophecy")  # 7, or 5 with a Shield
    assert _award("Saint", [three, three + ("Shield",), ("Pearl", "Pearl")], (0, 0, 0)) == 1
    assert _award("Saint", [three, three, ()], (0, 0, 0), (CLERIC, DRUID, ROGUE)) == 0
    assert _award("Saint", [("Pearl", "Pearl"), (), ()], (0, 0, 0)) == -1


def test_warlord_longest_run_uses_modifiers_exactly():
    assert scoring.longest_run(tc("Pearl", "Goblet", "Whetstone"), CS) == 3
    assert scoring.longest_run(tc("Pearl", "Goblet", "Silver Dagger"), CS) == 2
    # 1, 2, 5-2=3 (Shield attached to the Dagger): a run of 3
    assert scoring.longest_run(tc("Pearl", "Goblet", "Silver Dagger", "Shield"), CS) == 3
    # 1, 2, 3 and Sword 7 - 3 = 4 with the Cursed Idol, Prophecy 4 + 1 = 5 with the Rune Stone: 1..5
    haul = tc("Pearl", "Goblet", "Whetstone", "Sword", "Cursed Idol", "Prophecy", "Rune Stone")
    assert scoring.longest_run(haul, CS) == 5
    assert scoring.longest_run(tc("Sword", "Sword", "Sword"), CS) == 1  # distinct ranks only
    assert _award("Warlord", [("Pearl", "Goblet", "Whetstone"), ("Pearl", "Goblet"), ()], (0, 0, 0)) == 0
    assert _award("Warlord", [("Pearl", "Goblet"), (), ()], (0, 0, 0)) == -1  # a run of 3 at least
    assert _award("Warlord", [("Pearl", "Goblet", "Whetstone")] * 2 + [()], (0, 0, 0), (DRUID, WARRIOR, CLERIC)) == 1


def test_natures_balance_smallest_gap_between_treasures_and_coins():
    assert _award("Nature's Balance", [("Sword",), ("Sword", "Goblet"), ()], (5, 2, 0)) == 1
    assert _award("Nature's Balance", [("Sword",), ("Sword",), ()], (1, 1, 9), (WIZARD, DRUID, CLERIC)) == 1
    assert _award("Nature's Balance", [(), (), ()], (1, 1, 9)) == -1


def test_wealthiest_most_coins():
    assert _award("Wealthiest", [(), (), ()], (3, 7, 2)) == 1
    assert _award("Wealthiest", [(), (), ()], (7, 7, 2), (ROGUE, DRUID, CLERIC)) == 0
    assert _award("Wealthiest", [(), (), ()], (7, 7, 2), (WIZARD, DRUID, ROGUE)) == -1  # Rogue not tied
    assert _award("Wealthiest", [(), (), ()], (0, 0, 0)) == -1


HIDDEN_CASES = {
    "Smith": (("Iron Ingot", "Sword", "Shield"), ("Iron Ingot", "Iron Ingot", "Sword"), 0),
    "Healer": (("Bandages", "Blessing", "Holy Symbol"), ("Bandages", "Blessing"), 0),
    "Knight": (("Sword", "Shield", "Holy Symbol"), ("Sword", "Shield"), 0),
    "Jeweller": (("Pearl", "Emerald", "Diamond"), ("Pearl", "Pearl", "Emerald"), 0),
    "Scholar": (("Prophecy", "Spellbook", "Treasure Map"), ("Prophecy", "Spellbook"), 0),
    "Beastmaster": (("Wolf Pelt", "Unicorn Horn", "Dragon Tooth"), ("Wolf Pelt", "Wolf Pelt", "Dragon Tooth"), 0),
    "Dragonslayer": (("Dragon Scale", "Dragon's Crown"), ("Dragon Scale", "Dragon Scale"), 0),
    "Thief": (("Lockpicks", "Bribe", "Silver Dagger"), ("Lockpicks", "Bribe"), 0),
    "Bard": (("Lute", "Goblet"), ("Lute", "Lute"), 0),
    "Collector": (("Pearl", "Goblet", "Lute", "Sword", "Ruby", "Deal", "Bribe", "Shield"),
                  ("Pearl", "Goblet", "Lute", "Sword", "Ruby", "Deal", "Bribe", "Bribe"), 0),
    "Enchanter": (("Sword", "Enchantment", "Rune Stone"), ("Sword", "Enchantment", "Shield"), 0),
    "Tactician": (("Pearl", "Lockpicks", "Holy Symbol"), ("Pearl", "Lockpicks", "Emerald"), 0),
    "Mystic": (("Ruby", "Ruby", "Prophecy"), ("Ruby", "Prophecy"), 0),
}


@pytest.mark.parametrize("title", sorted(HIDDEN_CASES))
def test_hidden_title_criterion(title):
    met, unmet, coins = HIDDEN_CASES[title]
    crit = CS.hidden[CS.title_index[title]].criterion
    assert scoring.hidden_met(crit, tc(*met), coins, CS)
    assert not scoring.hidden_met(crit, tc(*unmet), coins, CS)


def test_hidden_titles_miser_and_pauper_count_coins():
    miser = CS.hidden[CS.title_index["Miser"]].criterion
    assert scoring.hidden_met(miser, tc("Sword", "Goblet"), 6, CS)
    assert not scoring.hidden_met(miser, tc("Sword", "Goblet", "Pearl", "Lute"), 7, CS)
    assert not scoring.hidden_met(miser, tc(), 5, CS)
    pauper = CS.hidden[CS.title_index["Pauper"]].criterion
    assert scoring.hidden_met(pauper, tc(), 3, CS) and not scoring.hidden_met(pauper, tc(), 4, CS)


def test_treasure_vp_conditions_are_checked_against_the_whole_haul():
    assert scoring.treasure_vp(tc("Plate Armour"), 0, CS) == 0
    assert scoring.treasure_vp(tc("Plate Armour", "Sword"), 0, CS) == 4 + 2
    assert scoring.treasure_vp(tc("Cursed Idol", "Blessing"), 0, CS) == 4 + 1
    assert scoring.treasure_vp(tc("Dragon Egg", "Wolf Pelt"), 0, CS) == 6 + 1
    assert scoring.treasure_vp(tc("Dragon's Crown"), 0, CS) == 0
    assert scoring.treasure_vp(tc("Dragon's Crown"), 1, CS) == 6


def test_final_scores_and_ties_go_to_most_coins_then_shared():
    t = Table(titles=("Pauper", "Miser", "Bard"))
    s = t.treasures(0, "Goblet").treasures(1, "Goblet").build()
    s._end_game()
    board = s.scoring()
    assert board[0]["hidden_met"] and board[1]["hidden_met"] is False
    assert s.scores() == [b["total"] for b in board]
    returns = s.returns()
    assert abs(returns.sum()) < 1e-9


def test_rank_returns_break_ties_by_coins():
    t = Table(n=2, titles=("Bard", "Knight"), classes=("Druid", "Warrior"), vp=0)
    s = t.treasures(0, "Goblet").treasures(1, "Goblet").coins(0, count=2).coins(1, count=2).build()
    s.deck, s.coin_discard = [], s.deck
    s._end_game()
    assert s.scores()[0] == s.scores()[1]
    np.testing.assert_array_equal(s.returns(), [0.0, 0.0])  # same VP, same Coins: shared
    s.coins[0].append(s.coin_discard.pop())
    s._scores = None
    np.testing.assert_array_equal(s.returns(), [1.0, -1.0])


# ----- end of the game (resolution 10) -------------------------------------------------------------
def test_game_ends_at_reveal_when_the_deck_cannot_deal():
    t = Table().deck("Goblet", "Sword")
    s = t.build(rest="coin_discard")
    s._start_round()
    s._advance()
    assert s.is_terminal() and len(s.deck) == 2 and not any(s.hand)


def test_game_ends_in_reveal_when_an_ability_draw_comes_up_short_and_dealt_cards_are_discarded():
    t = Table().treasures(0, "Ruby").deck("Goblet")
    s = t.reveal_window({0: ("Sword", "Pearl", "Lute")}, rest="coin_discard")
    play(s, "Ruby")
    assert s.is_terminal() and names(s, s.coins[0]) == ["Goblet"]
    assert {"Sword", "Pearl", "Lute"} <= set(names(s, s.treasure_discard))


def test_game_ends_in_negotiate_with_treasures_discarded_and_added_coins_returned():
    t = Table().treasures(2, "Goblet").coins(1, count=1).deck("Pearl")
    s = t.negotiate({1: ["Sword", None, None], 2: [None, "Lute", None]}, added={(2, 1): 2}, rest="coin_discard")
    assert len(s.deck) == 1  # one card left
    play(s, "draw2")
    assert s.is_terminal()
    assert len(s.coins[0]) == 1 and len(s.coins[2]) == 2
    assert {"Sword", "Lute"} <= set(names(s, s.treasure_discard))


def test_game_ends_after_claim_when_a_refill_comes_up_short_and_claim_abilities_still_play():
    t = Table().treasures(1, "Emerald").deck("Goblet", "Sword")
    s = t.build(rest="coin_discard")
    s.phase, s.flipped = NEGOTIATE, True
    s.offer[0] = [-1, -1, -1]
    for p in (1, 2):  # seats 1 and 2 kept a Treasure: only seat 0 refills
        s.offer[p][0] = s.coin_discard.pop()
    s._start_claim()
    s._advance()
    assert s.end_flag and not s.is_terminal() and s.current_player == 1 and s.decision == E.PRIORITY
    play(s, "Emerald")  # the deck is empty: the Emerald gains nothing
    assert s.is_terminal() and len(s.treasures[0]) == 2


def test_an_empty_deck_ends_nothing_until_a_draw_is_attempted():
    t = Table().treasures(0, "Iron Ingot").treasures(1, "Goblet")
    s = t.build(rest="coin_discard")
    s.phase, s.stage, s.flipped = CLAIM, "window", True
    s._advance()
    assert not s.deck and not s.end_flag and not s.is_terminal()
    play(s, "done")
    assert s.is_terminal()  # the next Reveal cannot deal


def test_snapshot_refuses_bad_positions_naming_the_field():
    s = Table().treasures(0, "Emerald").claim_window()
    good = json.loads(json.dumps(s.to_json()))
    game = s.game
    for change, field in [
        (lambda d: d["treasures"][0].append("Emerald"), "treasures"),
        (lambda d: d["deck"].pop(), "cards"),
        (lambda d: d.update(decision="turn"), "decision"),
        (lambda d: d.update(dragon=7), "dragon"),
        (lambda d: d["hands"][1].append(d["deck"].pop()), "hands"),
        (lambda d: d.update(current_player=2), "current_player"),
        (lambda d: d.update(effect={"kind": "order", "actor": 0, "stage": "order", "source": None, "m": 1, "i": 0}),
         "effect|decision|current_player"),
    ]:
        bad = json.loads(json.dumps(good))
        change(bad)
        with pytest.raises(ValueError, match=field) as refused:
            game.state_from_json(bad)
        assert len(str(refused.value)) < 300


def _shown(s, piece: str) -> list[str]:
    """The Treasure names (or Negotiate Cards) a piece of the mover's observation shows."""
    view = s.game.observation_layout.views(s.observation(s.current_player))[piece]
    if piece == "effect_slot":
        return [f"card{k + 1}" for k in np.flatnonzero(view)]
    return [s.game.cards.names[x] for x in np.flatnonzero(view)]


def test_the_target_of_a_steal_a_swap_or_a_negotiation_sees_what_is_at_stake():
    s = Table().treasures(0, "Grappling Hook").coins(0, count=3).treasures(1, "Sword", "Shield").claim_window()
    play(s, "Grappling Hook", "+1", "Sword")  # Shield's owner reacts: Grappling Hook takes the Sword
    assert (_shown(s, "effect_card"), _shown(s, "effect_take"), _shown(s, "effect_give")) == (
        ["Grappling Hook"], ["Sword"], [])
    s = Table().treasures(0, "Mirror of Exchange", "Goblet").treasures(1, "Unicorn Horn", "Shield").claim_window()
    play(s, "Mirror of Exchange", "Goblet", "+1", "Unicorn Horn")
    assert s.decision == E.REACT and s.current_player == 1
    assert (_shown(s, "effect_take"), _shown(s, "effect_give")) == (["Unicorn Horn"], ["Goblet"])
    s = Table().coins(0, count=5).treasures(1, "Holy Symbol").negotiate({1: ["Sword", "Sword", None]})
    play(s, "+1", "card2")  # two Swords on sale: the second Negotiate Card's is asked for
    assert s.decision == E.REACT and (_shown(s, "effect_card"), _shown(s, "effect_slot")) == (["Sword"], ["card2"])
