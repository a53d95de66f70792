"""Audit of the Castles pile, the six Allies split piles and the five Allies against
shared/rules/dominion_split_piles.md: scenario tests for card clauses and interactions the existing
Dominion tests (test_dominion_rules, test_dominion_allies, test_dominion_audit) leave open or pin
loosely. Each docstring quotes the rule sentence checked. Engine bugs are kept as strict xfails
naming what the engine does instead."""

from __future__ import annotations

import pytest

from card_envs.games.dominion.cards import PILE_ID
from tests.dominion.test_allies import end_turn, pile, play
from tests.dominion.test_allies import fresh as afresh
from tests.dominion.test_rules import (
    YW_KINGDOM, C, act, decision, deck, discard, hand, legal_names, to_buy, top)
from tests.dominion.test_rules import fresh as rfresh

# Castles and every Allies pile, with a trasher (Chapel), a gainer (Workshop) and Moat.
BIG = ["Castles", "Augurs", "Clashes", "Forts", "Odysseys", "Townsfolk", "Wizards", "Chapel", "Workshop", "Moat"]
CASTLES = PILE_ID["Castles"]
CASTLE_ROWS = [("Humble Castle", 3), ("Crumbling Castle", 4), ("Small Castle", 5), ("Haunted Castle", 6),
               ("Opulent Castle", 7), ("Sprawling Castle", 8), ("Grand Castle", 9), ("King's Castle", 10)]


def names(cards):
    inv = {v: k for k, v in C.items()}
    return sorted(inv[c] for c in cards)


def castles_top(s, name):
    """Take cards off the top of the Castles pile until `name` is on top."""
    while top(s, "Castles") != name:
        s.piles[CASTLES].pop()
    s._legal = None


# ===== Castles ======================================================================================
@pytest.mark.parametrize("name,cost", CASTLE_ROWS)
def test_each_castle_is_bought_at_its_own_cost(name, cost):
    """Castles table: Humble $3, Crumbling $4, Small $5, Haunted $6, Opulent $7, Sprawling $8, Grand $9,
    King's $10; "'Costing up to $X' is checked on each pile's top card at its own cost" (the pile's
    randomizer says $3)."""
    game, s = rfresh("T2")
    s.piles[CASTLES] = [C[name]]
    to_buy(s)
    s.coins = cost - 1
    s._legal = None
    assert "pile Castles" not in legal_names(s)
    s.coins = cost
    s._legal = None
    assert "pile Castles" in legal_names(s)
    act(s, "pile Castles")
    assert s.owned[0][C[name]] == 1 and s.coins == 0 and s.buys == 0 and s.piles[CASTLES] == []


@pytest.mark.parametrize("name,vp", [("Humble Castle", 1), ("Crumbling Castle", 1), ("Small Castle", 2),
                                     ("Haunted Castle", 2), ("Opulent Castle", 3), ("Sprawling Castle", 4),
                                     ("Grand Castle", 5), ("King's Castle", 2)])
def test_each_castle_alone_is_worth_its_vp(name, vp):
    """Castles table: Humble "Worth 1 VP per Castle you own", Crumbling 1 VP, Small 2 VP, Haunted 2 VP,
    Opulent 3 VP, Sprawling 4 VP, Grand 5 VP, King's "Worth 2 VP per Castle you own"."""
    game, s = rfresh("T2")
    discard(s, 0, name)
    assert s.score(0) == vp
    discard(s, 0, name, "Copper", "Curse")
    assert s.score(0) == vp - 1


def test_castle_types_decide_what_can_be_played_where():
    """Types: Humble "Treasure–Victory–Castle", Small and Opulent "Action–Victory–Castle", the other
    five "Victory–Castle" (playable only as their types allow)."""
    game, s = rfresh("T2")
    hand(s, 0, *[n for n, _ in CASTLE_ROWS])
    assert legal_names(s) == ["done", "play all treasures", "card Small Castle", "card Opulent Castle"]
    act(s, "done")
    assert legal_names(s) == ["done", "play all treasures", "card Humble Castle"]
    act(s, "card Humble Castle")
    assert s.coins == 1 and s.in_play[0] == [C["Humble Castle"]]


@pytest.mark.parametrize("n,size,after", [(2, 8, "Crumbling Castle"), (3, 12, "Humble Castle"),
                                          (4, 12, "Humble Castle")])
def test_castle_pile_by_player_count_decides_what_small_castle_gains_next(n, size, after):
    """"2 players (8 cards): Humble, Crumbling, Small, ... 3 or more players (12 cards): same order, with
    2 copies each of Humble, Small, Opulent and King's, each pair kept together." Small Castle: "Trash
    this or a Castle from hand; if you do, gain the top Castle." """
    game, s = rfresh("T2", n)
    assert len(s.piles[CASTLES]) == size
    hand(s, 0, "Small Castle")
    act(s, "card Small Castle")
    assert legal_names(s) == ["option 0"]  # the trash is not optional
    act(s, "option 0")
    assert s.trash[C["Small Castle"]] == 1 and s.in_play[0] == []
    assert s.discards[0] == [C["Humble Castle"]] and len(s.piles[CASTLES]) == size - 1
    assert top(s, "Castles") == after and decision(s) == "action" and s.actions == 0


def test_humble_and_kings_castle_count_castles_in_every_zone_and_stop_counting_trashed_ones():
    """Humble: "Worth 1 VP per Castle you own"; King's: "Worth 2 VP per Castle you own"; Score: "VP on
    all owned cards (every zone) plus VP tokens"."""
    game, s = rfresh("T2")
    s.piles[CASTLES] = [C["Grand Castle"]]
    hand(s, 0, "Small Castle", "Humble Castle")
    deck(s, 0, "King's Castle")
    discard(s, 0, "Crumbling Castle")
    # 4 Castles: Humble 4 + King's 8 + Crumbling 1 + Small 2
    assert s.score(0) == 15
    act(s, "card Small Castle")
    act(s, "card Humble Castle")  # trashed; Grand Castle gained: +1 VP token (Small Castle in play)
    assert s.owned[0][C["Humble Castle"]] == 0 and s.owned[0][C["Grand Castle"]] == 1 and s.vp[0] == 1
    # 4 Castles (Small, King's, Crumbling, Grand): King's 8 + 2 + 1 + 5, + 1 VP token
    assert s.score(0) == 17


def test_two_kings_castles_each_count_every_castle_in_three_players():
    """King's: "Worth 2 VP per Castle you own"; Humble: "Worth 1 VP per Castle you own" (3-4 players: "2 copies
    each of Humble, Small, Opulent and King's")."""
    game, s = rfresh("T2", 3)
    discard(s, 0, "King's Castle", "King's Castle", "Humble Castle", "Humble Castle")
    assert s.score(0) == 2 * (2 * 4) + 2 * 4


def test_castles_pile_counts_once_for_the_three_pile_ending_only_when_all_gone():
    """"A split pile counts as one pile and is empty only when every card in it is gone." "The game ends at the
    end of a turn in which ... any 3 Supply piles are empty." """
    game, s = rfresh("T2")
    s.piles[PILE_ID["Village"]] = []
    s.piles[PILE_ID["Smithy"]] = []
    s.piles[CASTLES] = [C["King's Castle"], C["Grand Castle"]]
    hand(s, 0, "Gold", "Gold", "Gold")
    to_buy(s)
    act(s, "pile Castles")
    assert s.empty_piles() == 2
    act(s, "done")
    assert not s.is_terminal() and s.turn_player == 1
    hand(s, 1, "Gold", "Gold", "Gold", "Gold")
    to_buy(s)
    act(s, "pile Castles")
    assert s.empty_piles() == 3 and not s.is_terminal()
    act(s, "done")
    assert s.is_terminal() and s.scores() == [5, 2] and s.vp == [0, 0]


def test_crumbling_castle_bought_exact_zones_and_score():
    """Crumbling: "1 VP. When gained or trashed: +1 VP tok and gain a Silver." "Bought cards are gained
    to the discard pile." """
    game, s = rfresh("T2")
    castles_top(s, "Crumbling Castle")
    hand(s, 0, "Gold", "Copper")
    to_buy(s)
    silver = len(s.piles[PILE_ID["Silver"]])
    act(s, "pile Castles")
    assert s.discards[0] == [C["Crumbling Castle"], C["Silver"]] and s.vp[0] == 1
    assert len(s.piles[PILE_ID["Silver"]]) == silver - 1 and top(s, "Castles") == "Small Castle"
    assert s.score(0) == 2 and s.coins == 0 and decision(s) == "buy" and legal_names(s) == ["done"]


def test_acolyte_trashing_crumbling_castle_gives_gold_silver_and_a_vp_token():
    """Acolyte: "May trash an Action or Victory card from hand to gain a Gold". Crumbling: "When gained or
    trashed: +1 VP tok and gain a Silver." """
    game, s = afresh(BIG)
    play(s, "Acolyte", "Crumbling Castle", "Copper")
    assert legal_names(s) == ["done", "card Crumbling Castle"]
    act(s, "card Crumbling Castle")
    assert s.trash[C["Crumbling Castle"]] == 1 and s.vp[0] == 1
    assert names(s.discards[0]) == ["Gold", "Silver"]
    assert decision(s) == "acolyte_self" and legal_names(s) == ["done", "option 0"]
    act(s, "done")
    assert s.in_play[0] == [C["Acolyte"]] and s.score(0) == 1 and decision(s) == "action"


def test_small_castle_may_trash_a_small_castle_from_hand_but_not_a_non_castle():
    """Small Castle: "Trash this or a Castle from hand; if you do, gain the top Castle." """
    game, s = rfresh("T2")
    hand(s, 0, "Small Castle", "Small Castle", "Humble Castle", "Haunted Castle", "Estate", "Copper")
    act(s, "card Small Castle")
    assert sorted(legal_names(s)) == ["card Haunted Castle", "card Humble Castle", "card Small Castle", "option 0"]
    act(s, "card Small Castle")
    assert s.trash[C["Small Castle"]] == 1 and s.in_play[0] == [C["Small Castle"]]
    assert s.hands[0][C["Small Castle"]] == 0 and s.discards[0] == [C["Humble Castle"]]


def test_small_castle_with_the_castles_gone_still_trashes_and_gains_nothing():
    """Small Castle: "Trash this or a Castle from hand; if you do, gain the top Castle" (none left)."""
    game, s = rfresh("T2")
    s.piles[CASTLES] = []
    hand(s, 0, "Small Castle", "Humble Castle")
    act(s, "card Small Castle")
    act(s, "card Humble Castle")
    assert s.trash[C["Humble Castle"]] == 1 and s.discards[0] == [] and s.in_play[0] == [C["Small Castle"]]
    assert s.score(0) == 2 and decision(s) == "action"


def test_haunted_castle_gained_outside_its_owners_turn_does_nothing():
    """Haunted Castle: "When gained in your turn: gain a Gold; each other player with 5+ cards in hand puts
    2 onto their deck." (seat 1 gains it during seat 0's turn)."""
    game, s = rfresh("T2")
    s.piles[CASTLES] = [C["Haunted Castle"]]
    hand(s, 0, "Copper", "Copper", "Copper", "Estate", "Estate")
    s.gain(1, CASTLES)
    s._run()
    assert s.discards[1] == [C["Haunted Castle"]] and s.owned[1][C["Gold"]] == 0
    assert s.tasks == [] and s.hsize[0] == 5 and decision(s) == "action" and s.current_player == 0


def test_haunted_castle_is_not_an_attack_so_moat_does_not_help():
    """Haunted Castle: "each other player with 5+ cards in hand puts 2 onto their deck" — it is a
    Victory–Castle, not an Attack, so Moat ("when someone else plays an Attack") is not asked."""
    game, s = rfresh("T2")
    s.piles[CASTLES] = [C["Haunted Castle"]]
    hand(s, 0, "Gold", "Gold")
    hand(s, 1, "Moat", "Copper", "Copper", "Copper", "Estate")
    to_buy(s)
    act(s, "pile Castles")
    assert decision(s) == "haunted" and s.current_player == 1
    assert legal_names(s) == ["card Copper", "card Estate", "card Moat"]  # two picks, no "done"
    act(s, "card Moat")
    act(s, "card Estate")
    assert s.decks[1] == [C["Moat"], C["Estate"]] and s.hsize[1] == 3
    assert s.discards[0] == [C["Haunted Castle"], C["Gold"]] and decision(s) == "buy" and s.current_player == 0


def test_opulent_castle_discards_castles_as_victory_cards():
    """Opulent: "Discard any number of Victory cards from hand for +$2 each." (Humble, Small and Opulent
    Castles are Victory cards; Curse is not.)"""
    game, s = rfresh("T2")
    hand(s, 0, "Opulent Castle", "Humble Castle", "Small Castle", "Opulent Castle", "Copper", "Curse")
    act(s, "card Opulent Castle")
    assert legal_names(s) == ["done", "card Humble Castle", "card Small Castle", "card Opulent Castle"]
    for name in ("Humble Castle", "Small Castle", "Opulent Castle"):
        act(s, f"card {name}")
    assert s.coins == 6 and s.actions == 0 and legal_names(s) == ["done"]
    act(s, "done")
    assert s.discards[0] == [C["Humble Castle"], C["Small Castle"], C["Opulent Castle"]]
    assert s.hands[0][C["Copper"]] == 1 and s.hands[0][C["Curse"]] == 1 and decision(s) == "action"


@pytest.mark.parametrize("option,duchy,estates", [("option 1", 3, 2), ("option 0", 0, 8)])
def test_sprawling_castle_gains_what_is_left(option, duchy, estates):
    """Sprawling: "4 VP. When gained: gain a Duchy or 3 Estates." (both options are offered; with 2
    Estates left you gain 2; with the Duchies gone, nothing.)"""
    game, s = rfresh("T2")
    s.piles[CASTLES] = [C["Sprawling Castle"]]
    s.piles[PILE_ID["Estate"]] = [C["Estate"]] * 2
    s.piles[PILE_ID["Duchy"]] = [] if option == "option 0" else [C["Duchy"]] * 3
    hand(s, 0, "Gold", "Gold", "Silver")
    to_buy(s)
    act(s, "pile Castles")
    assert decision(s) == "sprawling" and legal_names(s) == ["option 0", "option 1"]
    act(s, option)
    gained = 2 if option == "option 1" else 0
    assert s.owned[0][C["Estate"]] == gained and s.owned[0][C["Duchy"]] == 0
    assert s.piles[PILE_ID["Estate"]] == [C["Estate"]] * (2 - gained) and s.score(0) == 4 + gained
    assert decision(s) == "buy"


def test_grand_castle_does_not_count_a_small_castle_trashed_from_play():
    """Grand: "On gain: reveal hand; +1 VP tok per Victory card in hand or in play". Small Castle: "Trash
    this ... gain the top Castle" (the trashed Small Castle is no longer in play)."""
    game, s = rfresh("T2")
    s.piles[CASTLES] = [C["Grand Castle"]]
    hand(s, 0, "Small Castle", "Estate", "Duchy", "Copper")
    act(s, "card Small Castle")
    act(s, "option 0")
    assert s.vp[0] == 2 and s.owned[0][C["Grand Castle"]] == 1 and s.in_play[0] == []
    assert s.known[0][C["Estate"]] == 1 and s.known[0][C["Duchy"]] == 1 and s.known[0][C["Copper"]] == 1


def test_grand_castle_counts_a_humble_castle_played_but_not_another_players_stronghold():
    """Grand: "+1 VP tok per Victory card in hand or in play (androminion counts other players' in-play
    ones too)"; the engine counts the gainer's own cards in play (documented resolution)."""
    game, s = afresh(BIG)
    s.in_play[1] = [C["Stronghold"]]  # seat 1's Stronghold waits for his next turn
    s.durations[1] = [[C["Stronghold"], 0]]
    s.piles[CASTLES] = [C["Grand Castle"]]
    hand(s, 0, "Humble Castle", "Gold", "Gold", "Gold", "Estate")
    to_buy(s)
    assert s.coins == 10
    act(s, "pile Castles")
    assert s.vp[0] == 2  # Estate in hand, Humble Castle in play; seat 1's Stronghold not counted


def test_every_castle_is_a_bane_when_castles_is_the_bane_pile():
    """Rule 6: ""Cards from that pile" (Bane, Training bonus) covers every card in the split pile."
    Rule 5: the Bane choice uses the randomizer's cost (Castles: $3)."""
    game, s = rfresh(YW_KINGDOM, bane="Castles")
    hand(s, 0, "Young Witch", "Copper", "Copper")
    deck(s, 0, "Copper", "Copper")
    hand(s, 1, "King's Castle", "Copper")
    act(s, "card Young Witch")
    act(s, "done")
    act(s, "card Copper")
    act(s, "card Copper")
    assert decision(s) == "bane" and s.current_player == 1
    assert legal_names(s) == ["done", "card King's Castle"]
    act(s, "card King's Castle")
    assert s.owned[1][C["Curse"]] == 0 and s.known[1][C["King's Castle"]] == 1


def test_sunken_treasure_gains_an_action_castle_by_the_top_cards_types():
    """Sunken Treasure: "Gain an Action card whose name matches none of your cards in play." Rule 5:
    "effects on a card use its own [types]" (Small Castle is an Action; Humble Castle, Territory are not)."""
    game, s = afresh(BIG)
    s.piles[PILE_ID["Clashes"]] = [C["Territory"]]
    s.piles[PILE_ID["Forts"]] = [C["Stronghold"]]
    hand(s, 0, "Sunken Treasure")
    act(s, "done")
    act(s, "card Sunken Treasure")
    piles = {x[5:] for x in legal_names(s)}
    assert "Castles" not in piles and "Clashes" not in piles and "Forts" in piles and "Workshop" in piles
    castles_top(s, "Small Castle")
    assert "pile Castles" in legal_names(s)
    act(s, "pile Castles")
    assert s.discards[0] == [C["Small Castle"]] and s.coins == 0 and decision(s) == "treasure"


def test_hill_fort_gains_crumbling_castle_into_hand_after_its_trigger():
    """Hill Fort: "Gain a card costing up to $4; choose: put it into hand, or +1 Card +1 Action."
    Crumbling ($4): "When gained ...: +1 VP tok and gain a Silver." Small Castle ($5) does not qualify."""
    game, s = afresh(BIG)
    castles_top(s, "Small Castle")
    play(s, "Hill Fort")
    assert "pile Castles" not in legal_names(s)
    s.piles[CASTLES].append(C["Crumbling Castle"])
    s._legal = None
    act(s, "pile Castles")
    assert s.vp[0] == 1 and decision(s) == "mode" and legal_names(s) == ["option 0", "option 1"]
    act(s, "option 0")
    assert s.hands[0][C["Crumbling Castle"]] == 1 and s.discards[0] == [C["Silver"]] and s.actions == 0


def test_student_trashing_humble_castle_counts_it_as_a_treasure():
    """Student: "Trash a card from hand; if a Treasure, +1 Favor and put Student onto your deck." (Humble
    Castle is a Treasure–Victory–Castle.)"""
    game, s = afresh(BIG)
    play(s, "Student", "Humble Castle", "King's Castle")
    act(s, "done")  # no rotate
    assert legal_names(s) == ["card Humble Castle", "card King's Castle"]
    act(s, "card Humble Castle")
    assert s.favors == [2, 1] and s.decks[0] == [C["Student"]] and s.in_play[0] == []
    assert s.score(0) == 2  # King's Castle: 2 VP per Castle, 1 Castle left


def test_lich_trashed_must_gain_crumbling_castle_from_the_trash_which_triggers():
    """Lich: "When trashed, it goes to your discard pile instead and you must gain a cheaper card from the
    trash." Crumbling: "When gained ...: +1 VP tok and gain a Silver." """
    game, s = afresh(BIG)
    s.trash[C["Crumbling Castle"]] = 1
    s.trash[C["Gold"]] = 1
    play(s, "Chapel", "Lich")
    act(s, "card Lich")
    act(s, "done")
    assert decision(s) == "lich" and legal_names(s) == ["card Crumbling Castle"]  # must; Gold is not cheaper
    act(s, "card Crumbling Castle")
    assert names(s.discards[0]) == ["Crumbling Castle", "Lich", "Silver"] and s.vp[0] == 1
    assert s.trash[C["Crumbling Castle"]] == 0 and s.trash[C["Lich"]] == 0 and s.trash[C["Gold"]] == 1


def test_lich_trashed_with_nothing_cheaper_in_the_trash_gains_nothing():
    """Lich: "you must gain a cheaper card from the trash" (nothing to gain when none is cheaper)."""
    game, s = afresh(BIG)
    s.trash[C["Gold"]] = 1
    play(s, "Chapel", "Lich")
    act(s, "card Lich")
    act(s, "done")
    assert decision(s) == "action" and s.discards[0] == [C["Lich"]] and s.trash[C["Gold"]] == 1
    assert s.owned[0][C["Gold"]] == 0


def test_territory_counts_castle_names():
    """Territory: "Worth 1 VP per distinct Victory card name among your cards." """
    game, s = afresh(BIG)
    hand(s, 0, "Territory", "Humble Castle", "King's Castle", "Estate", "Estate", "Curse")
    # Territory: 4 names (Territory, Humble, King's, Estate); Humble 2; King's 4; Estates 2; Curse -1
    assert s.score(0) == 4 + 2 + 4 + 2 - 1
    hand(s, 0, "Territory", "Territory", "Humble Castle")
    assert s.score(0) == 2 * 2 + 1


def test_battle_plan_rotates_castles_whose_top_is_gone_and_skips_empty_piles():
    """Rule 7: "Battle Plan rotates any Supply pile (Empires piles, Castles ...)"; "move the top card and all
    identical cards directly under it to the bottom" (Humble bought: Crumbling is the top)."""
    game, s = afresh(BIG)
    castles_top(s, "Crumbling Castle")
    s.piles[PILE_ID["Moat"]] = []
    play(s, "Battle Plan")
    act(s, "done")  # no Attack
    assert decision(s) == "rotate_any" and "pile Moat" not in legal_names(s) and "pile Castles" in legal_names(s)
    act(s, "pile Castles")
    assert pile(s, "Castles") == ["Small Castle", "Haunted Castle", "Opulent Castle", "Sprawling Castle",
                                  "Grand Castle", "King's Castle", "Crumbling Castle"]


def test_rotated_castles_order_is_public_to_every_seat():
    """Rule 2: "The whole pile's order is public." Rule 7: rotate moves the top run to the bottom (seen by
    all: the Supply block of each seat's observation)."""
    game, s = afresh(BIG)
    play(s, "Battle Plan")
    act(s, "done")
    act(s, "pile Castles")
    for seat in (0, 1):
        v = game.observation_layout.views(s.observation(seat))
        assert v["supply_top"][C["Crumbling Castle"]] == 1 and v["supply_top"][C["Humble Castle"]] == 0
        assert v["supply_depth"][C["Crumbling Castle"]] == pytest.approx(1 / 13)
        assert v["supply_depth"][C["Humble Castle"]] == pytest.approx(8 / 13)


def test_battle_plan_rotating_an_empires_pile_whose_top_half_is_gone_changes_nothing():
    """Rule 7: "Rotating a one-name pile changes nothing" (Encampment/Plunder with only Plunders left)."""
    kingdom = ["Clashes", "Encampment/Plunder", "Moat", "Village", "Smithy", "Witch", "Market", "Cellar", "Chapel",
               "Festival"]
    game, s = afresh(kingdom)
    s.piles[PILE_ID["Encampment/Plunder"]] = [C["Plunder"]] * 5
    play(s, "Battle Plan")
    act(s, "done")
    act(s, "pile Encampment/Plunder")
    assert s.piles[PILE_ID["Encampment/Plunder"]] == [C["Plunder"]] * 5 and decision(s) == "action"


# ===== Augurs =======================================================================================
def test_herb_gatherer_treasure_from_the_discard_does_not_count_against_voyage():
    """Voyage: "at most 3 cards (Treasures included) may be played from hand"; Herb Gatherer: "you may play a
    Treasure from it" (the discard pile, not the hand: documented)."""
    game, s = afresh(BIG)
    s.prev_turn = 1
    play(s, "Voyage")
    end_turn(s)
    assert s.extra_turn and s.plays_left == 3
    hand(s, 0, "Herb Gatherer")
    discard(s, 0, "Gold", "Estate")
    deck(s, 0, "Humble Castle")
    act(s, "card Herb Gatherer")
    assert s.plays_left == 2 and s.buys == 2 and s.decks[0] == []
    assert legal_names(s) == ["done", "card Gold", "card Humble Castle"]
    act(s, "card Gold")
    assert s.plays_left == 2 and s.coins == 3 and decision(s) == "rotate"
    act(s, "done")
    assert pile(s, "Augurs")[0] == "Herb Gatherer"


def test_acolyte_trashing_itself_gains_whatever_augur_is_on_top():
    """Acolyte: "may trash itself to gain an Augur" (the top card of the Augurs, here a rotated-up Sibyl);
    both trashes are optional."""
    game, s = afresh(BIG)
    for _ in range(3):
        s.rotate_pile(PILE_ID["Augurs"])
    assert top(s, "Augurs") == "Sibyl"
    play(s, "Acolyte", "Estate")
    act(s, "done")
    assert decision(s) == "acolyte_self" and legal_names(s) == ["done", "option 0"]
    act(s, "option 0")
    assert s.trash[C["Acolyte"]] == 1 and s.discards[0] == [C["Sibyl"]] and s.hands[0][C["Estate"]] == 1
    assert s.owned[0][C["Gold"]] == 0 and len(s.piles[PILE_ID["Augurs"]]) == 15


def test_sorceress_moat_blocks_one_victim_and_the_other_gets_the_curse():
    """Sorceress: "if it matches, each other player gains a Curse"; Moat: "makes that Attack skip you"."""
    game, s = afresh(BIG, n=3)
    hand(s, 1, "Moat")
    deck(s, 0, "Gold")
    play(s, "Sorceress")
    act(s, "card Moat")
    act(s, "done")
    act(s, "card Gold")
    assert s.hands[0][C["Gold"]] == 1 and s.owned[1][C["Curse"]] == 0 and s.owned[2][C["Curse"]] == 1
    assert s.actions == 1 and decision(s) == "action"


def test_sorceress_with_nothing_to_reveal_gives_no_curse():
    """Sorceress: "put your top card into hand; if it matches, each other player gains a Curse"
    (documented: nothing to reveal gives no Curse)."""
    game, s = afresh(BIG)
    play(s, "Sorceress")
    act(s, "done")
    act(s, "card Copper")
    assert s.owned[1][C["Curse"]] == 0 and s.hsize[0] == 0 and s.actions == 1


# ===== Clashes ======================================================================================
def test_archer_skips_a_victim_who_reveals_moat():
    """Archer: "Each other player with 5+ cards hides one card ... they discard the revealed card you
    choose." Moat: "makes that Attack skip you"."""
    game, s = afresh(BIG, n=3)
    hand(s, 1, "Moat", "Copper", "Copper", "Copper", "Copper")
    hand(s, 2, "Copper", "Copper", "Copper", "Copper", "Estate")
    play(s, "Archer")
    act(s, "card Moat")
    act(s, "done")
    assert decision(s) == "archer_hide" and s.current_player == 2
    act(s, "card Estate")
    assert decision(s) == "archer_pick" and s.current_player == 0 and legal_names(s) == ["card Copper"]
    act(s, "card Copper")
    assert s.hsize[1] == 5 and s.hsize[2] == 4 and s.hands[2][C["Estate"]] == 1 and s.discards[2] == [C["Copper"]]
    assert s.coins == 2 and decision(s) == "action"


def test_warlord_lock_needs_two_copies_in_play_and_also_binds_elder():
    """Warlord: "others can't play an Action from hand of which they have 2+ copies in play" (one copy is
    fine; documented: the lock covers Elder's play from hand)."""
    game, s = afresh(BIG)
    play(s, "Warlord")
    act(s, "done")
    end_turn(s)
    s.in_play[1] = [C["Village"]]
    hand(s, 1, "Village", "Elder")
    assert legal_names(s) == ["done", "play all treasures", "card Village", "card Elder"]
    s.in_play[1] = [C["Village"], C["Village"]]
    hand(s, 1, "Village", "Elder")
    assert legal_names(s) == ["done", "play all treasures", "card Elder"]
    act(s, "card Elder")
    assert decision(s) == "elder" and legal_names(s) == ["done"] and s.coins == 2


def test_territory_gain_counts_only_wholly_empty_piles():
    """Territory: "On gain: a Gold per empty Supply pile." "A split pile ... is empty only when every card
    in it is gone." """
    game, s = afresh(BIG)
    s.piles[PILE_ID["Workshop"]] = []
    s.piles[PILE_ID["Augurs"]] = [C["Sibyl"]]
    s.piles[CASTLES] = [C["King's Castle"]]
    s.piles[PILE_ID["Clashes"]] = [C["Territory"]]
    to_buy(s)
    s.coins = 6
    act(s, "pile Clashes")
    assert names(s.discards[0]) == ["Gold", "Gold", "Territory"]  # Workshop and Clashes


def test_sunken_treasure_cannot_gain_the_name_of_a_waiting_duration_in_play():
    """Sunken Treasure: "Gain an Action card whose name matches none of your cards in play." Duration: "stays
    in play until the Clean-up of the last turn it does something"."""
    game, s = afresh(BIG)
    play(s, "Warlord")
    act(s, "done")
    end_turn(s)
    end_turn(s)
    assert s.turn_player == 0 and s.in_play[0] == [C["Warlord"]]
    s.rotate_pile(PILE_ID["Clashes"])
    s.rotate_pile(PILE_ID["Clashes"])
    assert top(s, "Clashes") == "Warlord"
    hand(s, 0, "Sunken Treasure")
    act(s, "done")
    act(s, "card Sunken Treasure")
    assert "pile Clashes" not in legal_names(s) and "pile Workshop" in legal_names(s)


# ===== Forts ========================================================================================
def test_two_tents_both_go_onto_the_deck_and_are_drawn():
    """Tent: "+$2. May rotate Forts. When discarded from play, may go onto your deck instead." """
    game, s = afresh(BIG)
    s.actions = 2
    play(s, "Tent", "Tent")
    act(s, "done")
    act(s, "card Tent")
    act(s, "done")
    assert s.coins == 4
    to_buy(s)
    act(s, "done")
    assert decision(s) == "tent" and legal_names(s) == ["done", "card Tent"]
    act(s, "card Tent")
    assert decision(s) == "tent" and legal_names(s) == ["done", "card Tent"]
    act(s, "card Tent")
    assert s.turn_player == 1 and s.hands[0][C["Tent"]] == 2 and s.hsize[0] == 2 and s.discards[0] == []


def test_garrison_counts_on_gain_chains_but_not_gains_before_it_was_played():
    """Garrison: "Each card gained this turn adds a token here; next turn, +1 Card per token." (documented:
    gains after it is played). Crumbling: "When gained ...: gain a Silver"."""
    game, s = afresh(BIG)
    castles_top(s, "Crumbling Castle")
    s.actions = 2
    deck(s, 0, *["Copper"] * 12)
    play(s, "Workshop", "Garrison", "Gold")
    act(s, "pile Silver")
    act(s, "card Garrison")
    assert s.durations[0] == [[C["Garrison"], 0]]
    to_buy(s)
    assert s.coins == 5
    act(s, "pile Castles")
    assert s.durations[0] == [[C["Garrison"], 2]]
    end_turn(s)
    end_turn(s)
    assert s.turn_player == 0 and s.hsize[0] == 7 and s.durations[0] == [] and s.in_play[0] == [C["Garrison"]]


def test_elder_lets_hill_fort_take_the_card_into_hand_and_draw():
    """Elder: ""choose" abilities let you pick one extra, different option." Hill Fort: "choose: put it into
    hand, or +1 Card +1 Action." """
    game, s = afresh(BIG)
    deck(s, 0, "Gold")
    play(s, "Elder", "Hill Fort")
    act(s, "card Hill Fort")
    act(s, "pile Silver")
    assert legal_names(s) == ["option 0", "option 1"]
    act(s, "option 0")
    assert legal_names(s) == ["done", "option 1"]
    act(s, "option 1")
    assert s.hands[0][C["Silver"]] == 1 and s.hands[0][C["Gold"]] == 1 and s.actions == 1 and s.coins == 2
    assert s.discards[0] == [] and decision(s) == "action"


# ===== Odysseys =====================================================================================
def test_old_map_rotates_odysseys_after_the_old_maps_are_gone():
    """Old Map: "May rotate Odysseys." Rule 7: "move the top card and all identical cards directly under it
    to the bottom" (the top is now the Voyages)."""
    game, s = afresh(BIG)
    for _ in range(4):
        s.piles[PILE_ID["Odysseys"]].pop()
    deck(s, 0, "Silver", "Gold")
    play(s, "Old Map", "Estate")
    act(s, "card Estate")
    act(s, "option 0")
    assert pile(s, "Odysseys") == ["Sunken Treasure"] * 4 + ["Distant Shore"] * 4 + ["Voyage"] * 4


def test_voyage_extra_turn_play_all_stops_after_three_treasures():
    """Voyage: "take an extra turn after this one in which at most 3 cards (Treasures included) may be
    played from hand." """
    game, s = afresh(BIG)
    s.prev_turn = 1
    play(s, "Voyage")
    end_turn(s)
    hand(s, 0, *["Copper"] * 5)
    act(s, "done")
    act(s, "play all treasures")
    assert decision(s) == "buy" and s.coins == 3 and s.hands[0][C["Copper"]] == 2 and s.plays_left == 0


def test_voyage_limit_counts_elder_and_the_card_it_plays():
    """Voyage: "at most 3 cards ... may be played from hand" (documented: Elder's play from hand counts)."""
    game, s = afresh(BIG)
    s.prev_turn = 1
    play(s, "Voyage")
    end_turn(s)
    hand(s, 0, "Elder", "Village", "Smithy", "Copper")
    act(s, "card Elder")
    assert s.plays_left == 2 and legal_names(s) == ["done", "card Village", "card Smithy"]
    act(s, "card Village")
    assert s.plays_left == 1 and s.actions == 2
    act(s, "card Smithy")
    assert s.plays_left == 0 and legal_names(s) == ["done", "play all treasures"]
    act(s, "done")
    assert legal_names(s) == ["done", "play all treasures"] and s.hands[0][C["Copper"]] == 1


def test_voyage_fails_in_the_second_of_two_turns_caused_by_a_lich_skip():
    """Voyage: "If the previous turn wasn't yours"; "a player never gets more than 2 turns in a row"
    (documented: a turn skipped by Lich is not a previous turn)."""
    game, s = afresh(BIG)
    deck(s, 0, *["Copper"] * 12)
    play(s, "Lich")
    end_turn(s)
    end_turn(s)
    assert s.turn_player == 1 and s.prev_turn == 1 and s.turns == [2, 1]
    play(s, "Voyage")
    assert s.durations[1] == []
    end_turn(s)
    assert s.turn_player == 0 and not s.extra_turn and s.turns == [2, 2]


def test_lich_played_with_voyage_skips_the_extra_turn():
    """Lich: "Skip your next turn." Voyage: "take an extra turn after this one" (documented: the skipped
    turn is the extra turn, which is lost; its Voyage is discarded)."""
    game, s = afresh(BIG)
    s.prev_turn = 1
    deck(s, 0, *["Copper"] * 20)
    hand(s, 0, "Voyage", "Lich")
    act(s, "card Voyage")
    act(s, "card Lich")
    assert s.durations[0] == [[C["Voyage"], 0]] and s.skips[0] == 1 and s.actions == 2
    end_turn(s)
    assert s.turn_player == 1 and not s.extra_turn and s.skips[0] == 0
    assert s.in_play[0] == [] and C["Voyage"] in s.discards[0] and s.durations[0] == []
    assert s.turns == [1, 0]
    end_turn(s)
    assert s.turn_player == 0 and s.turns == [1, 1] and s.plays_left == -1


def test_warlord_played_with_voyage_fires_at_the_extra_turn():
    """Duration: "its effects fire at the start of your next turn" (the Voyage extra turn is that turn)."""
    game, s = afresh(BIG)
    s.prev_turn = 1
    deck(s, 0, *["Copper"] * 20)
    hand(s, 0, "Voyage", "Warlord")
    act(s, "card Voyage")
    act(s, "card Warlord")
    act(s, "done")
    end_turn(s)
    assert s.extra_turn and s.hsize[0] == 7 and s.durations[0] == []
    assert names(s.in_play[0]) == ["Voyage", "Warlord"]
    end_turn(s)
    assert s.turn_player == 1 and s.in_play[0] == []


def test_distant_shore_with_no_estates_left_gains_nothing():
    """Distant Shore: "+2 Cards, +1 Action. Gain an Estate. Worth 2 VP." """
    game, s = afresh(BIG)
    s.piles[PILE_ID["Estate"]] = []
    deck(s, 0, "Gold", "Silver", "Copper")
    play(s, "Distant Shore")
    assert s.hands[0][C["Gold"]] == 1 and s.hands[0][C["Silver"]] == 1 and s.hsize[0] == 2 and s.actions == 1
    assert s.discards[0] == [] and s.owned[0][C["Estate"]] == 0 and s.score(0) == 2


# ===== Townsfolk ====================================================================================
def test_town_crier_with_its_pile_empty_is_not_asked_to_rotate():
    """Town Crier: "May rotate Townsfolk." (an empty pile cannot be rotated)."""
    game, s = afresh(BIG)
    s.piles[PILE_ID["Townsfolk"]] = []
    play(s, "Town Crier")
    act(s, "option 0")
    assert decision(s) == "action" and s.coins == 2


def test_town_crier_rotating_a_one_name_townsfolk_pile_changes_nothing():
    """Rule 7: "Rotating a one-name pile changes nothing" (only Elders left)."""
    game, s = afresh(BIG)
    s.piles[PILE_ID["Townsfolk"]] = [C["Elder"]] * 3
    play(s, "Town Crier")
    act(s, "option 0")
    assert decision(s) == "rotate" and legal_names(s) == ["done", "option 0"]
    act(s, "option 0")
    assert s.piles[PILE_ID["Townsfolk"]] == [C["Elder"]] * 3


def test_blacksmith_draw_to_six_with_seven_in_hand_draws_nothing():
    """Blacksmith: "Choose one: draw to 6 cards in hand; +2 Cards; +1 Card +1 Action." """
    game, s = afresh(BIG)
    deck(s, 0, "Gold", "Gold")
    play(s, "Blacksmith", *["Copper"] * 7)
    act(s, "option 0")
    assert s.hsize[0] == 7 and s.hands[0][C["Gold"]] == 0 and s.actions == 0


def test_elder_blacksmith_options_are_carried_out_in_the_cards_order():
    """Elder: ""choose" abilities let you pick one extra, different option." (documented: the options chosen
    are carried out in the card's order: draw to 6 first, then +2 Cards.)"""
    game, s = afresh(BIG)
    deck(s, 0, *["Copper"] * 10)
    play(s, "Elder", "Blacksmith")
    act(s, "card Blacksmith")
    act(s, "option 1")
    act(s, "option 0")
    assert s.hsize[0] == 8 and len(s.decks[0]) == 2 and s.coins == 2 and s.actions == 0


def test_elder_does_not_extend_sprawling_castles_choice():
    """Elder: "This turn, "choose" abilities let you pick one extra, different option." (documented: only the
    Action card Elder plays; Sprawling Castle's "gain a Duchy or 3 Estates" stays a single choice)."""
    game, s = afresh(BIG)
    s.piles[CASTLES] = [C["Sprawling Castle"]]
    hand(s, 0, "Elder", "Gold", "Gold")
    act(s, "card Elder")
    act(s, "done")
    to_buy(s)
    assert s.coins == 8
    act(s, "pile Castles")
    assert legal_names(s) == ["option 0", "option 1"]
    act(s, "option 0")
    assert decision(s) == "buy" and s.owned[0][C["Duchy"]] == 1 and s.owned[0][C["Estate"]] == 0


def test_miller_shuffles_the_discard_under_a_short_deck():
    """Miller: "Look at your top 4; put one into hand, discard the rest." "An empty deck is replaced by
    shuffling the discard pile." """
    game, s = afresh(BIG)
    deck(s, 0, "Gold", "Silver")
    discard(s, 0, "Estate", "Estate")
    play(s, "Miller")
    assert legal_names(s) == ["card Silver", "card Gold", "card Estate"]
    act(s, "card Gold")
    assert s.hands[0][C["Gold"]] == 1 and s.hsize[0] == 1 and s.decks[0] == []
    assert names(s.discards[0]) == ["Estate", "Estate", "Silver"] and s.actions == 1


# ===== Wizards ======================================================================================
def test_student_rotates_wizards_after_the_students_are_gone():
    """Student: "May rotate Wizards." Rule 7: "move the top card and all identical cards directly under it to
    the bottom" (Conjurers on top)."""
    game, s = afresh(BIG)
    for _ in range(4):
        s.piles[PILE_ID["Wizards"]].pop()
    play(s, "Student", "Estate")
    act(s, "option 0")
    assert pile(s, "Wizards") == ["Sorcerer"] * 4 + ["Lich"] * 4 + ["Conjurer"] * 4
    act(s, "card Estate")
    assert s.favors[0] == 1 and s.in_play[0] == [C["Student"]] and s.actions == 1


def test_student_with_an_empty_hand_trashes_nothing():
    """Student: "+1 Action. ... Trash a card from hand; if a Treasure, +1 Favor and put Student onto your
    deck." """
    game, s = afresh(BIG)
    play(s, "Student")
    act(s, "done")
    assert decision(s) == "action" and s.in_play[0] == [C["Student"]] and s.favors[0] == 1 and s.actions == 1


def test_sorcerer_skips_a_moat_victim_and_curses_one_with_nothing_to_reveal():
    """Sorcerer: "Each other player names a card, then reveals their top card; if wrong, they gain a Curse."
    (documented: a victim who cannot reveal gains a Curse.)"""
    game, s = afresh(BIG, n=3)
    hand(s, 1, "Moat")
    deck(s, 0, "Silver")
    play(s, "Sorcerer")
    act(s, "card Moat")
    act(s, "done")
    assert decision(s) == "sorcerer" and s.current_player == 2
    act(s, "card Copper")
    assert s.owned[1][C["Curse"]] == 0 and s.owned[2][C["Curse"]] == 1
    assert s.hands[0][C["Silver"]] == 1 and s.actions == 1 and s.current_player == 0


def test_conjurer_waits_through_a_turn_skipped_by_lich():
    """Lich: "Skip your next turn." Conjurer: "Next turn, return Conjurer to your hand." "A skipped turn
    (Lich) has no phases." """
    game, s = afresh(BIG)
    deck(s, 0, *["Copper"] * 20)
    play(s, "Lich")
    hand(s, 0, "Conjurer")
    act(s, "card Conjurer")
    act(s, "pile Silver")
    end_turn(s)
    end_turn(s)
    assert s.turn_player == 1 and s.in_play[0] == [C["Conjurer"]] and s.durations[0] == [[C["Conjurer"], 0]]
    end_turn(s)
    assert s.turn_player == 0 and s.hands[0][C["Conjurer"]] == 1 and s.in_play[0] == [] and s.hsize[0] == 6


def test_lich_skip_in_three_players_passes_to_the_next_seat():
    """Lich: "Skip your next turn." Ties: "a turn skipped by Lich does [count]"."""
    game, s = afresh(BIG, n=3)
    deck(s, 0, *["Copper"] * 12)
    play(s, "Lich")
    end_turn(s)
    end_turn(s)
    end_turn(s)
    assert s.turn_player == 1 and s.turns == [2, 1, 1] and s.prev_turn == 2 and s.skips == [0, 0, 0]


def test_two_liches_skip_two_turns():
    """Lich: "Skip your next turn." (documented: each Lich played skips one turn)."""
    game, s = afresh(BIG)
    deck(s, 0, *["Copper"] * 20)
    hand(s, 0, "Lich", "Lich")
    act(s, "card Lich")
    act(s, "card Lich")
    assert s.skips[0] == 2 and s.actions == 3
    for _ in range(3):
        end_turn(s)
        assert s.turn_player == 1
    end_turn(s)
    assert s.turn_player == 0 and s.turns == [3, 3] and s.skips[0] == 0


# ===== Allies =======================================================================================
def test_mountain_folk_is_one_spend_per_turn_even_with_ten_favors():
    """"each trigger allows one spend unless the Ally says "repeat as desired"". Mountain Folk: "at the start
    of your turn, spend 5 Favors for +3 Cards"."""
    game, s = afresh(BIG, ally="Mountain Folk")
    s.favors[0] = 10
    deck(s, 0, *["Silver"] * 8)
    s._start_turn(0)
    s._run()
    act(s, "option 0")
    assert decision(s) == "action" and s.favors[0] == 5 and s.hsize[0] == 3


def test_mountain_folk_is_not_asked_in_a_turn_skipped_by_lich():
    """"A skipped turn (Lich) has no phases." Mountain Folk: "at the start of your turn"."""
    game, s = afresh(BIG, ally="Mountain Folk")
    deck(s, 0, *["Copper"] * 20)
    play(s, "Lich")
    s.favors[0] = 5
    end_turn(s)
    end_turn(s)
    assert s.turn_player == 1 and decision(s) == "action" and s.favors[0] == 5
    end_turn(s)
    assert s.turn_player == 0 and decision(s) == "mountain_folk"


def test_band_of_nomads_triggers_for_crumbling_castle_and_its_silver():
    """Band of Nomads: "when you gain a card costing $3 or more, spend 1 Favor for +1 Card, +1 Action or +1
    Buy"; "each trigger allows one spend". Crumbling ($4): "gain a Silver" ($3)."""
    game, s = afresh(BIG, ally="Band of Nomads")
    s.favors[0] = 2
    castles_top(s, "Crumbling Castle")
    hand(s, 0, "Gold", "Copper")
    to_buy(s)
    act(s, "pile Castles")
    assert decision(s) == "band_of_nomads" and s.tasks[-1]["card"] == C["Crumbling Castle"]
    act(s, "option 2")
    assert decision(s) == "band_of_nomads" and s.tasks[-1]["card"] == C["Silver"] and s.vp[0] == 1
    act(s, "option 2")
    assert s.favors[0] == 0 and s.buys == 2 and decision(s) == "buy"


def test_peaceful_cult_trashing_crumbling_castle_triggers_it():
    """Peaceful Cult: "spend any number of Favors to trash that many cards from hand." Crumbling: "When ...
    trashed: +1 VP tok and gain a Silver." """
    game, s = afresh(BIG, ally="Peaceful Cult")
    hand(s, 0, "Crumbling Castle", "Copper")
    act(s, "done")
    assert decision(s) == "peaceful_cult"
    act(s, "card Crumbling Castle")
    assert s.favors[0] == 0 and s.vp[0] == 1 and s.discards[0] == [C["Silver"]] and decision(s) == "treasure"


def test_cave_dwellers_is_not_asked_with_an_empty_hand():
    """Cave Dwellers: "at the start of your turn, spend 1 Favor to discard a card then draw one" (documented:
    asked only with a Favor and a card in hand)."""
    game, s = afresh(BIG, ally="Cave Dwellers")
    s._start_turn(0)
    s._run()
    assert decision(s) == "action" and s.favors[0] == 1


def test_allies_pile_as_bane_makes_every_card_of_it_a_bane():
    """Rule 5: the Bane choice uses "the randomizer's cost" (Townsfolk $2); rule 6: "covers every card in the
    split pile" (Elder, $5, is a Bane)."""
    game, s = rfresh(YW_KINGDOM, bane="Townsfolk")
    assert s.ally == -1
    hand(s, 0, "Young Witch")
    hand(s, 1, "Elder", "Copper")
    act(s, "card Young Witch")
    act(s, "done")
    assert decision(s) == "bane" and legal_names(s) == ["done", "card Elder"]
    act(s, "card Elder")
    assert s.owned[1][C["Curse"]] == 0 and s.known[1][C["Elder"]] == 1 and s.current_player == 0


def test_tier3_counters_are_public_to_the_other_seat():
    """Env docstring: "Favors, skips, Duration cards waiting (with Garrison tokens and Warlord's lock), the Ally
    and Voyage's extra turn are public." Voyage: "take an extra turn after this one"."""
    game, s = afresh(BIG, ally="League of Bankers")
    s.prev_turn = 1
    hand(s, 0, "Voyage", "Garrison")
    act(s, "card Voyage")
    act(s, "card Garrison")
    to_buy(s)
    s.coins = 3
    act(s, "pile Silver")
    v = game.observation_layout.views(s.observation(1))  # seat 0 is relative seat 1
    assert v["durations"][1][C["Voyage"]] == pytest.approx(0.1)
    assert v["durations"][1][C["Garrison"]] == pytest.approx(0.1)
    assert v["garrison_tokens"][1] == pytest.approx(0.1) and v["durations"][0].sum() == 0
    assert v["favors"].tolist() == pytest.approx([0.1, 0.1]) and v["ally"].tolist() == [0, 1, 0, 0, 0]
    assert v["extra_turn"].tolist() == [0, 0, 1]
    end_turn(s)
    v = game.observation_layout.views(s.observation(1))
    assert s.extra_turn and v["extra_turn"].tolist() == [1, 1, 0]
    deck(s, 0, *["Copper"] * 8)
    play(s, "Lich")
    v = game.observation_layout.views(s.observation(1))
    assert v["skips"].tolist() == [0, 1] and v["extra_turn"][1] == pytest.approx(2 / 3)


def test_lich_going_to_the_discard_is_not_a_gain_but_the_cheaper_card_is():
    """Lich: "When trashed, it goes to your discard pile instead and you must gain a cheaper card from the
    trash." Garrison: "Each card gained this turn adds a token here" (only the cheaper card is gained)."""
    game, s = afresh(BIG, ally="Band of Nomads")
    s.trash[C["Silver"]] = 1
    s.actions = 2
    play(s, "Garrison", "Chapel", "Lich")
    act(s, "card Chapel")
    act(s, "card Lich")
    act(s, "done")
    assert decision(s) == "lich" and s.durations[0] == [[C["Garrison"], 0]]  # Lich back: no token, no Favor ask
    act(s, "card Silver")
    assert s.durations[0] == [[C["Garrison"], 1]] and decision(s) == "band_of_nomads"
    act(s, "done")
    assert s.discards[0] == [C["Lich"], C["Silver"]] and s.favors[0] == 1 and decision(s) == "action"


def test_voyage_extra_turn_then_an_opponents_skipped_turn_gives_three_turns_in_a_row():
    """"under the 2023 errata, a player never gets more than 2 turns in a row, so extra Voyages in one turn
    fail"; Lich: "Skip your next turn." The engine applies the 2-in-a-row limit to extra turns only: a Voyage
    extra turn followed by the opponent's skipped turn gives 3 turns in a row (as the official Lich FAQ
    allows; the literal sentence is ambiguous, see the report)."""
    game, s = afresh(BIG)
    end_turn(s)
    deck(s, 1, *["Copper"] * 10)
    play(s, "Lich")
    end_turn(s)
    assert s.turn_player == 0 and s.prev_turn == 1
    play(s, "Voyage")
    assert s.durations[0] == [[C["Voyage"], 0]]
    end_turn(s)
    assert s.turn_player == 0 and s.extra_turn and s.turns == [2, 1]
    end_turn(s)
    assert s.turn_player == 0 and not s.extra_turn and s.turns == [2, 2] and s.skips == [0, 0]
