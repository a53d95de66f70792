"""Dominion tier 3: the six Allies split piles (every card), rotate (split-pile rule 7), Duration
cards, Voyage's extra turn, Lich's skipped turn, naming a card, Archer, Warlord's lock, Elder,
Favors and the five simple Allies, T3 and random kingdoms under the scripted bots, snapshots."""

from __future__ import annotations

import json

import numpy as np
import pytest

from card_envs.agents.dominion.bots import DominionHeuristic, TownsfolkFortsBM
from card_envs.core.game import ArgumentError
from card_envs.games.dominion import DominionGame
from card_envs.games.dominion.cards import (
    ALLIES, ALLIES_PILES, KINGDOM_PILES, NUM_CARDS, PILE_ID, PILE_NAMES, PILE_OF, pile_setup)
from tests.dominion.test_rules import (
    C, _fix, act, count, decision, deck, discard, fresh as _fresh, hand, legal_names, new, to_buy, top)

ALL6 = ["Augurs", "Clashes", "Forts", "Odysseys", "Townsfolk", "Wizards", "Moat", "Village", "Smithy", "Witch"]
NO_WIZ = ["Augurs", "Clashes", "Forts", "Odysseys", "Townsfolk", "Moat", "Village", "Smithy", "Witch", "Market"]


def fresh(kingdom=ALL6, n=2, ally="League of Bankers", **kw):
    if isinstance(kingdom, list) and "Wizards" not in kingdom:
        ally = None
    game, s = _fresh(kingdom, n, ally=ally, **kw)
    s.tasks = []
    s._legal = None
    return game, s


def play(s, name, *cards):
    """Seat 0 (its turn) holds `name` and `cards` and plays `name`."""
    hand(s, s.turn_player, name, *cards)
    act(s, f"card {name}")


def pile(s, name):
    """The pile's cards by name, top first."""
    names = list(C)
    return [names[c] for c in reversed(s.piles[PILE_ID[name]])]


def end_turn(s):
    """From any phase of the turn player's own steps, to the next turn."""
    while decision(s) in ("action", "treasure"):
        act(s, "done")
    assert decision(s) == "buy"
    act(s, "done")
    while decision(s) == "tent":
        act(s, "done")


def conserve(s):
    """Make the card counts whole again after a test placed cards by hand: missing cards go to the
    last seat's discard pile, extra ones leave their Supply pile (from its deepest copy)."""
    total = [0] * NUM_CARDS
    for p in s.supply:
        for c in pile_setup(p, s.n):
            total[c] += 1
    total[C["Copper"]] += 7 * s.n
    total[C["Estate"]] += 3 * s.n
    found = list(s.trash)
    for p in s.supply:
        for c in s.piles[p]:
            found[c] += 1
    for q in range(s.n):
        for c in range(NUM_CARDS):
            found[c] += s.owned[q][c]
    for c in range(NUM_CARDS):
        if found[c] < total[c]:
            s.discards[s.n - 1][:0] = [c] * (total[c] - found[c])
        for _ in range(found[c] - total[c]):
            s.piles[PILE_OF[c]].remove(c)
    in_play = [list(x) for x in s.in_play]
    _fix(s)
    s.in_play = in_play
    s._supply_obs, s._owned_obs = None, [None] * s.n


def roundtrip(game, s):
    conserve(s)
    data = json.loads(json.dumps(s.to_json()))
    assert game.state_from_json(data).to_json() == data
    return data


# ----- setup, Ally dealing, kingdoms ------------------------------------------------------------
def test_allies_piles_are_4_copies_of_4_cards_cheapest_on_top():
    game, s = new(ALL6, ally="Mountain Folk")
    orders = {"Augurs": ["Herb Gatherer", "Acolyte", "Sorceress", "Sibyl"],
              "Clashes": ["Battle Plan", "Archer", "Warlord", "Territory"],
              "Forts": ["Tent", "Garrison", "Hill Fort", "Stronghold"],
              "Odysseys": ["Old Map", "Voyage", "Sunken Treasure", "Distant Shore"],
              "Townsfolk": ["Town Crier", "Blacksmith", "Miller", "Elder"],
              "Wizards": ["Student", "Conjurer", "Sorcerer", "Lich"]}
    for name, cards in orders.items():
        assert pile(s, name) == [c for c in cards for _ in range(4)]
        for n in (3, 4):
            assert len(pile_setup(PILE_ID[name], n)) == 16
    assert set(ALLIES_PILES) <= set(KINGDOM_PILES)


def test_an_ally_and_favors_only_with_a_liaison():
    game, s = new("T3", ally="Cave Dwellers")
    assert ALLIES[s.ally] == "Cave Dwellers" and s.favors == [1, 1]
    game, s = new(NO_WIZ)
    assert s.ally == -1 and s.favors == [0, 0]
    drawn = {DominionGame(kingdom="T3").new_state(np.random.default_rng(k)).ally for k in range(30)}
    assert drawn == set(range(5))  # a seeded random Ally when none is asked for
    with pytest.raises(ArgumentError, match="needs a Liaison"):
        DominionGame(kingdom=NO_WIZ, ally="Mountain Folk")
    with pytest.raises(ArgumentError, match="the Allies are"):
        DominionGame(kingdom="T3", ally="Importer")
    game = DominionGame(kingdom="random", ally="Peaceful Cult")
    for k in range(40):
        st = game.new_state(np.random.default_rng(k))
        assert st.ally == (3 if PILE_ID["Wizards"] in st.kingdom or st.bane == PILE_ID["Wizards"] else -1)


def test_t3_preset_and_random_kingdoms_draw_the_allies_piles():
    game, s = new("T3")
    assert sorted(PILE_NAMES[p] for p in s.kingdom) == sorted(
        ["Townsfolk", "Forts", "Odysseys", "Clashes", "Wizards", "Moat", "Village", "Smithy", "Market", "Witch"])
    seen = set()
    game = DominionGame(kingdom="random")
    for k in range(40):
        seen |= set(game.new_state(np.random.default_rng(k)).kingdom)
    assert set(ALLIES_PILES) <= seen


# ----- rotate (split-pile rule 7) ------------------------------------------------------------------
def test_rotate_own_pile_moves_the_top_run_and_declining_keeps_it():
    game, s = fresh()
    play(s, "Town Crier")
    act(s, "option 0")  # +$2
    assert decision(s) == "rotate" and legal_names(s) == ["done", "option 0"]
    act(s, "option 0")
    assert pile(s, "Townsfolk")[:4] == ["Blacksmith"] * 4 and pile(s, "Townsfolk")[-4:] == ["Town Crier"] * 4
    game, s = fresh()
    s.actions = 2
    play(s, "Tent")
    act(s, "done")
    assert pile(s, "Forts")[0] == "Tent" and s.coins == 2


def test_rotate_moves_a_run_of_identical_cards_after_some_were_taken():
    game, s = fresh()
    s.piles[PILE_ID["Townsfolk"]].pop()  # 3 Town Criers left on top
    s.rotate_pile(PILE_ID["Townsfolk"])
    assert pile(s, "Townsfolk") == ["Blacksmith"] * 4 + ["Miller"] * 4 + ["Elder"] * 4 + ["Town Crier"] * 3


def test_rotating_a_one_name_pile_changes_nothing():
    game, s = fresh()
    before = list(s.piles[PILE_ID["Village"]])
    play(s, "Battle Plan")
    act(s, "done")  # no Attack revealed
    assert decision(s) == "rotate_any" and "pile Village" in legal_names(s) and "pile Copper" in legal_names(s)
    act(s, "pile Village")
    assert s.piles[PILE_ID["Village"]] == before


def test_battle_plan_rotates_an_empires_pile():
    kingdom = ["Clashes", "Encampment/Plunder", "Moat", "Village", "Smithy", "Witch", "Market", "Cellar", "Chapel",
               "Festival"]
    game, s = fresh(kingdom)
    play(s, "Battle Plan")
    act(s, "done")
    act(s, "pile Encampment/Plunder")
    assert pile(s, "Encampment/Plunder") == ["Plunder"] * 5 + ["Encampment"] * 5
    data = roundtrip(game, s)  # a rotated pile is a reachable order
    assert data["supply"]["Encampment/Plunder"] == [["Plunder", 5], ["Encampment", 5]]


def test_battle_plan_rotates_castles_moving_a_pair_together():
    kingdom = ["Clashes", "Castles", "Moat", "Village", "Smithy", "Witch", "Market", "Cellar", "Chapel", "Festival"]
    game, s = fresh(kingdom, n=3)
    assert pile(s, "Castles")[:3] == ["Humble Castle", "Humble Castle", "Crumbling Castle"]
    play(s, "Battle Plan")
    act(s, "done")
    act(s, "pile Castles")
    assert pile(s, "Castles")[0] == "Crumbling Castle" and pile(s, "Castles")[-2:] == ["Humble Castle"] * 2
    roundtrip(game, s)


def test_battle_plan_reveals_an_attack_for_a_card():
    game, s = fresh()
    deck(s, 0, "Gold", "Silver")
    play(s, "Battle Plan", "Archer")
    assert legal_names(s) == ["done", "card Archer"]
    act(s, "card Archer")
    assert s.hands[0][C["Gold"]] == 1 and s.hands[0][C["Silver"]] == 1 and s.known[0][C["Archer"]] == 1
    assert s.actions == 1


# ----- Augurs --------------------------------------------------------------------------------------
def test_herb_gatherer_discards_the_deck_and_plays_a_treasure_from_it():
    game, s = fresh()
    deck(s, 0, "Gold", "Estate", "Copper")
    play(s, "Herb Gatherer")
    assert s.decks[0] == [] and s.buys == 2 and decision(s) == "herb_gatherer"
    assert legal_names(s) == ["done", "card Copper", "card Gold"]
    act(s, "card Gold")
    assert s.coins == 3 and C["Gold"] in s.in_play[0] and count(s, 0, "Gold", "discard") == 0
    assert decision(s) == "rotate"
    act(s, "option 0")
    assert pile(s, "Augurs")[0] == "Acolyte"
    roundtrip(game, s)  # a Treasure in play in the Action phase, from Herb Gatherer


def test_acolyte_trashes_for_gold_then_itself_for_an_augur():
    game, s = fresh()
    play(s, "Acolyte", "Estate", "Copper")
    assert legal_names(s) == ["done", "card Estate"]
    act(s, "card Estate")
    assert count(s, 0, "Gold", "discard") == 1 and s.trash[C["Estate"]] == 1
    assert decision(s) == "acolyte_self"
    act(s, "option 0")
    assert s.trash[C["Acolyte"]] == 1 and count(s, 0, "Herb Gatherer", "discard") == 1


def test_sorceress_names_a_card_and_curses_on_a_match():
    game, s = fresh()
    deck(s, 0, "Silver", "Gold")
    play(s, "Sorceress")
    act(s, "done")  # no Moat
    assert decision(s) == "sorceress" and "card Lich" in legal_names(s) and "card Plunder" not in legal_names(s)
    act(s, "card Silver")
    assert s.hands[0][C["Silver"]] == 1 and s.known[0][C["Silver"]] == 1 and s.owned[1][C["Curse"]] == 1
    assert s.actions == 1
    play(s, "Sorceress")
    act(s, "done")
    act(s, "card Copper")
    assert s.hands[0][C["Gold"]] == 1 and s.owned[1][C["Curse"]] == 1  # wrong name: no Curse


def test_sibyl_puts_a_card_on_top_and_one_on_the_bottom():
    game, s = fresh()
    deck(s, 0, "Copper", "Copper", "Copper", "Copper", "Gold", "Silver")
    play(s, "Sibyl", "Estate", "Curse")
    assert s.hsize[0] == 6 and s.actions == 1
    act(s, "card Estate")
    assert decision(s) == "sibyl_bottom"
    act(s, "card Curse")
    assert s.decks[0][-1] == C["Estate"] and s.decks[0][0] == C["Curse"]
    assert s.deck_known[0][-1] == 1 and s.deck_known[0][0] == 1  # known to the owner only


# ----- Clashes ------------------------------------------------------------------------------------
def test_archer_victim_hides_one_card_and_the_attacker_picks_the_discard():
    game, s = fresh(n=3)
    hand(s, 1, "Gold", "Copper", "Copper", "Estate", "Silver")
    hand(s, 2, "Copper", "Copper", "Copper", "Copper")  # 4 cards: unaffected
    play(s, "Archer")
    act(s, "done")
    act(s, "done")
    assert s.coins == 2 and decision(s) == "archer_hide" and s.current_player == 1
    act(s, "card Gold")
    assert s.known[1] == [x - (c == C["Gold"]) for c, x in enumerate(s.hands[1])]
    assert decision(s) == "archer_pick" and s.current_player == 0
    assert legal_names(s) == ["card Copper", "card Silver", "card Estate"]
    obs = s.observation(0)
    views = game.observation_layout.views(obs)
    assert views["decision_seat"][1] == 1.0  # the victim, relative to the attacker
    act(s, "card Silver")
    assert s.hands[1][C["Silver"]] == 0 and s.discards[1][-1] == C["Silver"] and s.hands[1][C["Gold"]] == 1
    assert decision(s) == "action"


def test_warlord_stays_draws_next_turn_and_locks_copies_in_play():
    game, s = fresh()
    s.actions = 3
    play(s, "Warlord")
    act(s, "done")  # no Moat
    assert s.durations[0] == [[C["Warlord"], 0]] and s.actions == 3
    end_turn(s)
    assert s.in_play[0] == [C["Warlord"]] and s.turn_player == 1
    # seat 1 with two Villages in play cannot play a third from hand; other cards are free
    s.in_play[1] = [C["Village"], C["Village"]]
    hand(s, 1, "Village", "Smithy")
    assert legal_names(s) == ["done", "play all treasures", "card Smithy"]
    s.in_play[1] = []
    hand(s, 1)
    hand(s, 0)
    discard(s, 0)
    deck(s, 0, "Gold", "Gold", "Silver")
    end_turn(s)
    assert s.hands[0][C["Gold"]] == 2 and s.durations[0] == [] and s.in_play[0] == [C["Warlord"]]
    end_turn(s)
    assert s.in_play[0] == [] and s.owned[0][C["Warlord"]] == 1  # discarded at that turn's Clean-up


def test_moat_blocks_warlords_lock():
    game, s = fresh()
    hand(s, 1, "Moat")
    play(s, "Warlord")
    act(s, "card Moat")
    assert s.durations[0] == [[C["Warlord"], 2]]
    end_turn(s)
    s.in_play[1] = [C["Village"], C["Village"]]
    hand(s, 1, "Village")
    assert "card Village" in legal_names(s)


def test_territory_vp_per_victory_name_and_gold_per_empty_pile():
    game, s = fresh()
    hand(s, 0, "Territory", "Estate", "Estate", "Duchy", "Stronghold")
    assert s.score(0) == 1 + 1 + 3 + 2 + 4  # Estate x2, Duchy, Stronghold 2 VP, Territory: 4 names
    s.piles[PILE_ID["Village"]] = []
    s.piles[PILE_ID["Moat"]] = []
    s.piles[PILE_ID["Clashes"]] = [C["Territory"]]
    to_buy(s)
    s.coins = 6
    act(s, "pile Clashes")
    assert count(s, 0, "Gold", "discard") == 3  # Village, Moat and now Clashes are empty


# ----- Forts --------------------------------------------------------------------------------------
def test_tent_gives_2_and_may_go_onto_the_deck_when_discarded_from_play():
    game, s = fresh()
    play(s, "Tent")
    act(s, "done")
    assert s.coins == 2
    to_buy(s)
    act(s, "done")
    assert decision(s) == "tent" and legal_names(s) == ["done", "card Tent"]
    act(s, "card Tent")
    assert s.turn_player == 1 and s.hands[0][C["Tent"]] == 1  # drawn again: it was on top


def test_garrison_tokens_per_gain_then_cards_next_turn():
    game, s = fresh()
    deck(s, 0, *["Copper"] * 10)
    play(s, "Garrison")
    assert s.coins == 2 and s.durations[0] == [[C["Garrison"], 0]]
    to_buy(s)
    s.coins, s.buys = 6, 2
    act(s, "pile Silver")
    act(s, "pile Silver")
    assert s.durations[0] == [[C["Garrison"], 2]]
    act(s, "done")
    assert s.in_play[0] == [C["Garrison"]]
    size = s.hsize[0]
    end_turn(s)
    assert s.turn_player == 0 and s.hsize[0] == size + 2 and s.durations[0] == []


def test_garrison_without_tokens_is_discarded():
    game, s = fresh()
    play(s, "Garrison")
    end_turn(s)
    assert s.in_play[0] == [] and s.durations[0] == []


def test_hill_fort_gains_up_to_4_then_to_hand_or_card_and_action():
    game, s = fresh()
    play(s, "Hill Fort")
    assert "pile Smithy" in legal_names(s) and "pile Gold" not in legal_names(s)
    act(s, "pile Smithy")
    assert decision(s) == "mode" and legal_names(s) == ["option 0", "option 1"]
    act(s, "option 0")
    assert s.hands[0][C["Smithy"]] == 1 and s.known[0][C["Smithy"]] == 1
    game, s = fresh()
    deck(s, 0, "Gold")
    play(s, "Hill Fort")
    act(s, "pile Silver")
    act(s, "option 1")
    assert s.hands[0][C["Gold"]] == 1 and s.actions == 1 and count(s, 0, "Silver", "discard") == 1


def test_stronghold_3_now_or_3_cards_next_turn():
    game, s = fresh()
    play(s, "Stronghold")
    act(s, "option 0")
    assert s.coins == 3 and s.durations[0] == []
    game, s = fresh()
    deck(s, 0, *["Copper"] * 10)
    play(s, "Stronghold")
    act(s, "option 1")
    assert s.durations[0] == [[C["Stronghold"], 0]]
    end_turn(s)
    assert s.in_play[0] == [C["Stronghold"]] and s.hsize[0] == 5
    end_turn(s)
    assert s.turn_player == 0 and s.hsize[0] == 8 and s.durations[0] == []
    assert s.score(0) == 2  # Stronghold is worth 2 VP (the fresh position owns nothing else green)


# ----- Odysseys -----------------------------------------------------------------------------------
def test_old_map_discards_then_draws_and_may_rotate():
    game, s = fresh()
    deck(s, 0, "Silver", "Gold")
    play(s, "Old Map", "Estate")
    assert s.hands[0][C["Silver"]] == 1 and decision(s) == "old_map"
    act(s, "card Estate")
    assert s.hands[0][C["Gold"]] == 1 and s.discards[0] == [C["Estate"]] and decision(s) == "rotate"
    act(s, "option 0")
    assert pile(s, "Odysseys")[0] == "Voyage"


def test_sunken_treasure_gains_an_action_not_in_play():
    game, s = fresh()
    s.in_play[0] = [C["Village"]]
    hand(s, 0, "Sunken Treasure")
    act(s, "done")
    act(s, "card Sunken Treasure")
    names = legal_names(s)
    assert s.coins == 0 and "pile Village" not in names and "pile Smithy" in names and "pile Witch" in names
    assert "pile Gold" not in names and "pile Clashes" in names  # Battle Plan on top: an Action
    act(s, "pile Witch")
    assert count(s, 0, "Witch", "discard") == 1


def test_distant_shore_draws_and_gains_an_estate():
    game, s = fresh()
    deck(s, 0, "Gold", "Gold")
    play(s, "Distant Shore")
    assert s.hands[0][C["Gold"]] == 2 and s.actions == 1 and count(s, 0, "Estate", "discard") == 1
    assert s.score(0) == 2 + 1


def test_voyage_extra_turn_with_three_plays_from_hand():
    game, s = fresh()
    s.prev_turn = 1
    play(s, "Voyage")
    assert s.durations[0] == [[C["Voyage"], 0]]
    end_turn(s)
    assert s.turn_player == 0 and s.extra_turn and s.plays_left == 3 and s.turns == [1, 0]
    assert s.in_play[0] == [C["Voyage"]]
    hand(s, 0, "Village", "Village", "Village", "Copper", "Copper")
    act(s, "card Village")
    act(s, "card Village")
    act(s, "card Village")
    assert legal_names(s) == ["done", "play all treasures"] and s.plays_left == 0
    act(s, "done")
    assert legal_names(s) == ["done", "play all treasures"]  # no Treasure either
    act(s, "play all treasures")
    assert decision(s) == "buy" and s.coins == 0 and s.hands[0][C["Copper"]] == 2
    roundtrip(game, s)
    act(s, "done")
    assert s.turn_player == 1 and not s.extra_turn and s.turns == [1, 0] and s.in_play[0] == []


def test_voyage_fails_in_an_extra_turn_after_own_turn_and_twice_in_one_turn():
    game, s = fresh()
    s.prev_turn = 1
    s.actions = 2
    play(s, "Voyage")
    play(s, "Voyage")
    assert s.durations[0] == [[C["Voyage"], 0]]  # the second fails (no more than 2 turns in a row)
    end_turn(s)
    assert s.extra_turn
    play(s, "Voyage")
    assert s.durations[0] == []  # the previous turn was his own
    end_turn(s)
    assert s.turn_player == 1


# ----- Townsfolk ----------------------------------------------------------------------------------
def test_town_crier_options():
    for option, check in ((0, lambda s: s.coins == 2), (1, lambda s: count(s, 0, "Silver", "discard") == 1),
                          (2, lambda s: s.hsize[0] == 1 and s.actions == 1)):
        game, s = fresh()
        deck(s, 0, "Gold")
        play(s, "Town Crier")
        act(s, f"option {option}")
        assert check(s)


def test_blacksmith_options():
    game, s = fresh()
    deck(s, 0, *["Copper"] * 8)
    play(s, "Blacksmith", "Estate")
    act(s, "option 0")
    assert s.hsize[0] == 6
    game, s = fresh()
    deck(s, 0, *["Copper"] * 8)
    play(s, "Blacksmith")
    act(s, "option 1")
    assert s.hsize[0] == 2
    game, s = fresh()
    deck(s, 0, *["Copper"] * 8)
    play(s, "Blacksmith")
    act(s, "option 2")
    assert s.hsize[0] == 1 and s.actions == 1


def test_miller_keeps_one_of_four_and_discards_the_rest():
    game, s = fresh()
    deck(s, 0, "Copper", "Gold", "Estate", "Silver", "Province")
    play(s, "Miller")
    assert legal_names(s) == ["card Copper", "card Silver", "card Gold", "card Estate"]
    obs = game.observation_layout.views(s.observation(0))
    assert obs["looking"][C["Gold"]] == pytest.approx(0.1) and obs["looking"].sum() == pytest.approx(0.4)
    assert game.observation_layout.views(s.observation(1))["looking"].sum() == 0  # only his
    act(s, "card Gold")
    assert s.hands[0][C["Gold"]] == 1 and s.known[0][C["Gold"]] == 0 and s.actions == 1
    assert sorted(s.discards[0]) == sorted([C["Copper"], C["Estate"], C["Silver"]]) and s.decks[0] == [C["Province"]]


def test_elder_plays_an_action_with_one_extra_different_choice():
    game, s = fresh()
    deck(s, 0, "Gold")
    play(s, "Elder", "Town Crier")
    assert s.coins == 2 and legal_names(s) == ["done", "card Town Crier"]
    act(s, "card Town Crier")
    act(s, "option 0")
    assert decision(s) == "mode" and legal_names(s) == ["done", "option 1", "option 2"]
    assert game.observation_layout.views(s.observation(0))["decision_picked"][0] == 1.0
    act(s, "option 2")
    assert s.coins == 4 and s.hands[0][C["Gold"]] == 1 and s.actions == 1
    assert decision(s) == "rotate"
    act(s, "done")
    # a choice of a card not played by Elder gets a single pick
    play(s, "Town Crier")
    act(s, "option 0")
    assert decision(s) == "rotate"


# ----- Wizards ------------------------------------------------------------------------------------
def test_student_trashes_a_treasure_for_a_favor_and_goes_onto_the_deck():
    game, s = fresh()
    play(s, "Student", "Copper", "Estate")
    assert decision(s) == "rotate"
    act(s, "done")
    act(s, "card Copper")
    assert s.favors[0] == 2 and s.decks[0][-1] == C["Student"] and s.deck_known[0][-1] == 2
    assert C["Student"] not in s.in_play[0]
    game, s = fresh()
    play(s, "Student", "Estate")
    act(s, "done")
    act(s, "card Estate")
    assert s.trash[C["Estate"]] == 1 and s.favors[0] == 1 and s.in_play[0] == [C["Student"]]


def test_conjurer_gains_up_to_4_and_returns_to_hand_next_turn():
    game, s = fresh()
    play(s, "Conjurer")
    assert "pile Gold" not in legal_names(s)
    act(s, "pile Silver")
    end_turn(s)
    assert s.in_play[0] == [C["Conjurer"]] and s.durations[0] == [[C["Conjurer"], 0]]
    end_turn(s)
    assert s.hands[0][C["Conjurer"]] == 1 and s.known[0][C["Conjurer"]] == 1 and s.in_play[0] == []


def test_sorcerer_victims_name_a_card_and_gain_a_curse_when_wrong():
    game, s = fresh(n=3)
    deck(s, 1, "Gold")
    deck(s, 2, "Silver")
    play(s, "Sorcerer")
    act(s, "done")
    act(s, "done")
    assert decision(s) == "sorcerer" and s.current_player == 1
    act(s, "card Gold")
    assert s.current_player == 2
    act(s, "card Copper")
    assert s.owned[1][C["Curse"]] == 0 and s.owned[2][C["Curse"]] == 1
    assert s.deck_known[1][-1] == 2 and s.decks[1][-1] == C["Gold"]  # revealed, left on top


def test_lich_skips_the_next_turn_which_counts_for_the_tie_break():
    game, s = fresh()
    deck(s, 0, *["Copper"] * 6)
    play(s, "Lich")
    assert s.hsize[0] == 6 and s.actions == 2 and s.skips[0] == 1
    end_turn(s)
    assert s.turn_player == 1
    end_turn(s)
    assert s.turn_player == 1 and s.turns == [2, 1] and s.skips[0] == 0  # seat 0's turn was skipped
    roundtrip(game, s)


def test_lich_trashed_goes_to_the_discard_and_gains_a_cheaper_card_from_the_trash():
    kingdom = ["Wizards", "Chapel", "Moat", "Village", "Smithy", "Witch", "Market", "Cellar", "Festival", "Clashes"]
    game, s = fresh(kingdom)
    s.trash[C["Gold"]] = 1
    s.piles[PILE_ID["Gold"]].pop()
    s.trash[C["Duchy"]] = 1
    s.piles[PILE_ID["Duchy"]].pop()
    s.trash[C["Province"]] = 1
    s.piles[PILE_ID["Province"]].pop()
    play(s, "Chapel", "Lich")
    act(s, "card Lich")
    act(s, "done")
    assert decision(s) == "lich" and legal_names(s) == ["card Duchy"]  # cheaper than $6: not Gold, Province
    act(s, "card Duchy")
    assert s.discards[0][-1] == C["Duchy"] and C["Lich"] in s.discards[0] and s.trash[C["Lich"]] == 0
    assert s.owned[0][C["Lich"]] == 1 and s.trash[C["Duchy"]] == 0 and s.owned[0][C["Duchy"]] == 1


# ----- Allies --------------------------------------------------------------------------------------
def test_mountain_folk_spends_5_favors_for_3_cards_at_turn_start():
    game, s = fresh(ally="Mountain Folk")
    s.favors[0] = 6
    deck(s, 0, *["Silver"] * 8)
    s._start_turn(0)
    s._run()
    assert decision(s) == "mountain_folk" and legal_names(s) == ["done", "option 0"]
    act(s, "option 0")
    assert s.hsize[0] == 3 and s.favors[0] == 1


def test_league_of_bankers_gives_1_per_4_favors_at_buy_phase():
    game, s = fresh(ally="League of Bankers")
    s.favors[0] = 9
    act(s, "done")
    assert s.coins == 2 and s.favors[0] == 9


def test_band_of_nomads_spends_a_favor_on_a_3_plus_gain():
    game, s = fresh(ally="Band of Nomads")
    s.favors[0] = 2
    to_buy(s)
    s.coins = 3
    act(s, "pile Copper")
    assert decision(s) == "buy"  # $0: no trigger
    s.buys = 2
    act(s, "pile Silver")
    assert decision(s) == "band_of_nomads"
    act(s, "option 2")
    assert s.buys == 2 and s.favors[0] == 1


def test_peaceful_cult_trashes_one_card_per_favor():
    game, s = fresh(ally="Peaceful Cult")
    s.favors[0] = 2
    hand(s, 0, "Estate", "Estate", "Estate", "Copper")
    act(s, "done")
    assert decision(s) == "peaceful_cult"
    act(s, "card Estate")
    act(s, "card Estate")
    assert s.trash[C["Estate"]] == 2 and s.favors[0] == 0 and decision(s) == "treasure"


def test_cave_dwellers_discards_and_draws_per_favor_repeatedly():
    game, s = fresh(ally="Cave Dwellers")
    s.favors[0] = 2
    hand(s, 0, "Estate", "Curse")
    deck(s, 0, "Gold", "Silver")
    s._start_turn(0)
    s._run()
    act(s, "card Estate")
    assert decision(s) == "cave_dwellers" and s.hands[0][C["Gold"]] == 1
    act(s, "card Curse")
    assert s.hands[0][C["Silver"]] == 1 and s.favors[0] == 0 and decision(s) == "action"


# ----- snapshots -------------------------------------------------------------------------------------
def test_snapshot_format_2_keeps_tier3_state_and_refuses_bad_fields():
    game, s = fresh()
    play(s, "Garrison")
    to_buy(s)
    s.coins = 3
    act(s, "pile Silver")
    data = roundtrip(game, s)
    assert data["format"] == 2 and data["players"][0]["durations"] == [["Garrison", 1]]
    assert data["ally"] == "League of Bankers" and data["players"][0]["favors"] == 1

    def refused(change, match):
        bad = json.loads(json.dumps(data))
        change(bad)
        with pytest.raises(ValueError, match=match):
            game.state_from_json(bad)

    refused(lambda d: d.update(ally=None), "exactly one Ally")
    refused(lambda d: d.update(ally="Importer"), "ally:")
    refused(lambda d: d["players"][0].update(durations=[["Smithy", 0]]), "not a Duration card")
    refused(lambda d: d["players"][0].update(durations=[["Warlord", 0]]), "not in play")
    refused(lambda d: d["players"][0].update(durations=[["Garrison", 1], ["Garrison", 0]]), "not in play")
    refused(lambda d: d["players"][1].update(durations=[["Conjurer", 0]]), "exactly its Duration")
    refused(lambda d: d["players"][0].update(skips=1), "skips")
    refused(lambda d: d["players"][0].update(favors=-1), "favors")
    refused(lambda d: d.update(plays_left=2), "plays_left")
    refused(lambda d: d.update(extra_turn=True), "plays_left")
    refused(lambda d: d.update(previous_turn=5), "previous_turn")
    refused(lambda d: d["supply"].update(Forts=[["Garrison", 4], ["Tent", 4], ["Hill Fort", 4], ["Stronghold", 4]]),
            "setup order")
    refused(lambda d: d["supply"].update(Forts=[["Hill Fort", 4], ["Tent", 2], ["Stronghold", 4], ["Garrison", 4],
                                                 ["Tent", 2]]), "setup order")
    ok = json.loads(json.dumps(data))  # a rotated pile is reachable
    ok["supply"]["Forts"] = [["Hill Fort", 4], ["Stronghold", 4], ["Tent", 4], ["Garrison", 3]]
    assert game.state_from_json(ok).to_json() == ok
    no_wiz = DominionGame(kingdom=NO_WIZ)
    d2 = json.loads(json.dumps(no_wiz.new_state(np.random.default_rng(0)).to_json()))
    d2["players"][0]["favors"] = 1
    with pytest.raises(ValueError, match="Favors are used only"):
        no_wiz.state_from_json(d2)
    old = json.loads(json.dumps(no_wiz.new_state(np.random.default_rng(0)).to_json()))
    for k in ("ally", "previous_turn", "extra_turn", "plays_left"):
        del old[k]
    for pl in old["players"]:
        for k in ("favors", "skips", "durations"):
            del pl[k]
    old["format"] = 1
    assert no_wiz.state_from_json(old).to_json()["format"] == 2  # format 1 still loads


def test_snapshot_refuses_bad_tier3_tasks():
    game, s = fresh()
    play(s, "Town Crier")
    data = roundtrip(game, s)
    bad = json.loads(json.dumps(data))
    bad["tasks"][-1]["hi"] = 3
    with pytest.raises(ValueError, match="one choice"):
        game.state_from_json(bad)
    bad = json.loads(json.dumps(data))
    bad["tasks"][0]["x"] = PILE_ID["Forts"]
    with pytest.raises(ValueError, match="own pile"):
        game.state_from_json(bad)


# ----- hidden information ----------------------------------------------------------------------------
@pytest.mark.parametrize("setup", ["archer", "miller", "sibyl"])
def test_determinize_keeps_what_each_seat_sees(setup):
    game, s = fresh(n=3)
    for q in range(3):
        discard(s, q, "Copper", "Estate", "Silver", "Gold", "Copper")
        deck(s, q, "Copper", "Silver", "Estate", "Duchy", "Gold", "Copper", "Copper")
    if setup == "archer":
        hand(s, 1, "Gold", "Copper", "Copper", "Estate", "Silver")
        play(s, "Archer")
        act(s, "done")
        act(s, "done")
        act(s, "card Gold")
    elif setup == "miller":
        play(s, "Miller")
    else:
        play(s, "Sibyl", "Estate", "Curse")
        act(s, "card Estate")
        act(s, "card Curse")
    rng = np.random.default_rng(3)
    for q in range(3):
        for _ in range(5):
            d = s.determinize(q, rng)
            np.testing.assert_array_equal(d.observation(q), s.observation(q))
            assert d.legal_actions() == s.legal_actions() or d.current_player != q


# ----- whole games --------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 4])
def test_t3_games_under_the_scripted_bots_end_before_the_cap(n):
    game = DominionGame(num_players=n, kingdom="T3")
    for seed in range(3):
        rng = np.random.default_rng(seed)
        s = game.new_state(rng)
        bots = [TownsfolkFortsBM(game) if (q + seed) % 2 else DominionHeuristic(game) for q in range(n)]
        while not s.is_terminal():
            s.apply(bots[s.current_player].act(s.observation(s.current_player), s.legal_mask(), rng))
        assert max(s.turns) < game.max_turns


def test_twenty_random_kingdoms_play_to_an_ending_under_the_scripted_bots():
    game = DominionGame(num_players=2, kingdom="random")
    piles = set()
    for seed in range(20):
        rng = np.random.default_rng(1000 + seed)
        s = game.new_state(rng)
        piles |= set(s.kingdom)
        bots = [DominionHeuristic(game), TownsfolkFortsBM(game)][::1 if seed % 2 else -1]
        steps = 0
        while not s.is_terminal():
            mask = s.legal_mask()
            a = bots[s.current_player].act(s.observation(s.current_player), mask, rng)
            assert mask[a]
            s.apply(a)
            steps += 1
            if steps % 50 == 0:
                roundtrip(game, s)
        assert max(s.turns) < game.max_turns and (not s.piles[PILE_ID["Province"]] or s.empty_piles() >= 3)
    assert len(piles & set(ALLIES_PILES)) >= 5
