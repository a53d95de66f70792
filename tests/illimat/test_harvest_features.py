"""Illimat's optional observation pieces (``harvest_features=True``): what a harvest of each value
takes in each field, checked against hand-worked positions and against a brute force over every
split of a field's items written from the rules text (not from the engine's group search)."""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, product

import numpy as np
import pytest

from card_envs.games.illimat.harvest_features import field_table
from card_envs.games.illimat.game import IllimatGame
from tests.conftest import calls_made, random_walk
from tests.illimat.test_properties import values
from tests.illimat.test_rules import position

GAME = IllimatGame(harvest_features=True)


def pieces(state, seat: int = 0) -> dict:
    return GAME.observation_layout.views(state.observation(seat))


def card(name: str) -> int:
    return "PSAW*".index(name[-1]) * 13 + ({"A": 1, "J": 11, "Q": 12, "K": 13}.get(name[:-1]) or int(name[:-1])) - 1


# ----- a brute force from the rules text --------------------------------------------------------
def item_values(item: dict) -> tuple[tuple[int, ...], int, bool]:
    """(the values the item may count as, its cards, whether it is a multiple stockpile)."""
    if "loose" in item:
        return values(item["loose"]), 1, False
    return (item["value"],), len(item["cards"]), item["kind"] == "multiple"


def oracle(items: list[dict], v: int) -> tuple[int, bool]:
    """(most cards one harvest of value v takes, whether it can take every item): every set of
    items that splits into groups each totalling v (a multiple stockpile only on its own)."""
    described = [item_values(it) for it in items]
    n = len(items)

    def is_group(members: tuple[int, ...]) -> bool:
        if len(members) > 1 and any(described[i][2] for i in members):
            return False
        return v in {sum(vs) for vs in product(*(described[i][0] for i in members))}

    @lru_cache(maxsize=None)
    def splits(chosen: frozenset) -> bool:
        if not chosen:
            return True
        first = min(chosen)
        rest = sorted(chosen - {first})
        return any(is_group((first, *others)) and splits(chosen - {first, *others})
                   for k in range(len(rest) + 1) for others in combinations(rest, k))

    best = max((sum(described[i][1] for i in subset) for k in range(1, n + 1)
                for subset in combinations(range(n), k) if splits(frozenset(subset))), default=0)
    return best, n > 0 and splits(frozenset(range(n)))


def field_items(state, f: int) -> list[dict]:
    data = state.to_json()["fields"][f]
    return [{"loose": c} for c in data["loose"]] + list(data["stockpiles"])


# ----- hand-worked positions ------------------------------------------------------------------
def test_the_rulebook_five_takes_every_card_and_clears_the_field():
    # A 5 takes a 5, 2+3 and Fool(1)+4 in one play (the rules' example): 5 cards, the field empties.
    state = position(GAME, hands=[["5S", "9P", "9A", "KW"], ["6P"]],
                     fields=[{"loose": ["5P", "2W", "3A", "AP", "4S"]}])
    v = pieces(state)
    assert v["harvest_cards"][0, 5 - 1] * 8 == 5 and v["harvest_clears"][0, 5 - 1] == 1
    assert v["hand_harvest"][0, card("5S")] * 8 == 5 and v["hand_clears"][0, card("5S")] == 1
    # 9: 5+4 or 4+3+2 or 5+3+Fool, never two groups at once (27 > 15 left): 3 cards at most
    assert v["harvest_cards"][0, 9 - 1] * 8 == 3 and v["harvest_clears"][0, 9 - 1] == 0
    assert v["hand_harvest"][0, card("9P")] * 8 == 3
    # 13: 5+4+3+Fool(1) or 5+4+2+... (the five cards total 15, so one group at most): 4 cards
    assert v["harvest_cards"][0, 13 - 1] * 8 == 4 and v["hand_harvest"][0, card("KW")] * 8 == 4
    # the other fields are empty, and cards not in the hand have no entry
    assert not v["harvest_cards"][1:].any() and not v["hand_harvest"][1:].any()
    assert v["hand_harvest"][0, card("5P")] == 0


def test_stockpiles_count_their_cards_and_a_multiple_one_goes_only_whole():
    state = position(GAME, hands=[["KS", "10P", "3A", "5P"], ["6P"]],
                     fields=[{"loose": ["4S"], "stockpiles": [(10, "single", ["4A", "6W"]),
                                                               (5, "multiple", ["2P", "3S", "5W"])]}])
    v = pieces(state)
    # 14 = single stockpile 10 + loose 4: 3 cards; the multiple stockpile of 5 stays
    assert v["harvest_cards"][0, 14 - 1] * 8 == 3 and v["harvest_clears"][0, 14 - 1] == 0
    # 5: only the multiple stockpile (3 cards), by exactly its value
    assert v["harvest_cards"][0, 5 - 1] * 8 == 3
    assert v["harvest_cards"][0, 10 - 1] * 8 == 2 and v["hand_harvest"][0, card("10P")] * 8 == 2
    assert v["harvest_cards"][0, 9 - 1] == 0  # 4 + 5 would split the multiple stockpile
    assert v["hand_harvest"][0, card("3A")] == 0


def test_a_fool_in_hand_reads_the_better_of_one_and_fourteen():
    state = position(GAME, hands=[["AS", "9P", "9A", "9W"], ["6P"]], fields=[{"loose": ["AW", "KP", "3S"]}])
    v = pieces(state)
    assert v["harvest_cards"][0, 1 - 1] * 8 == 1  # the Fool as 1
    assert v["harvest_cards"][0, 14 - 1] * 8 == 2  # K + Fool(1), or the Fool as 14
    assert v["hand_harvest"][0, card("AS")] * 8 == 2 and v["hand_clears"][0, card("AS")] == 0


@pytest.mark.parametrize("maiden", [False, True])
def test_no_harvest_in_winter_unless_the_maiden_is_face_up(maiden):
    # summer=0: fields read Summer, Autumn, Winter, Spring; the same cards lie in field 2 (Winter)
    fields = [{}, {}, {"loose": ["5P"], **({"luminary": ("Maiden", True)} if maiden else {})}]
    state = position(GAME, hands=[["5S", "9P", "9A", "9W"], ["6P"]], fields=fields)
    v = pieces(state)
    assert v["harvest_cards"][2, 5 - 1] * 8 == 1  # the field's table ignores the season
    assert v["hand_harvest"][2, card("5S")] * 8 == (1 if maiden else 0)
    assert v["hand_clears"][2, card("5S")] == (1 if maiden else 0)


def test_only_the_observers_own_hand_is_read():
    state = position(GAME, hands=[["5S", "9P", "9A", "9W"], ["5A", "2P"]], fields=[{"loose": ["5P"]}])
    mine, theirs = pieces(state, 0), pieces(state, 1)
    assert mine["hand_harvest"][0, card("5S")] > 0 and mine["hand_harvest"][0, card("5A")] == 0
    assert theirs["hand_harvest"][0, card("5A")] > 0 and theirs["hand_harvest"][0, card("5S")] == 0
    np.testing.assert_array_equal(mine["harvest_cards"], theirs["harvest_cards"])


def test_the_default_observation_is_unchanged():
    plain = IllimatGame()
    assert GAME.observation_layout.size == plain.observation_layout.size + 2 * 4 * 14 + 2 * 4 * 65
    state = position(GAME, hands=[["5S", "9P", "9A", "9W"], ["6P"]], fields=[{"loose": ["5P"]}])
    twin = plain.state_from_json(state.to_json())
    np.testing.assert_array_equal(state.observation(0)[:plain.observation_layout.size], twin.observation(0))


# ----- against the brute force ----------------------------------------------------------------
@pytest.mark.parametrize("seed", range(4))
def test_every_value_of_every_field_matches_the_brute_force(seed):
    checked = 0
    game = IllimatGame(harvest_features=True, rounds=1)
    for step, state in enumerate(random_walk(game, seed)):
        if step % 7:
            continue
        v = game.observation_layout.views(state.observation(state.current_player))
        for f in range(4):
            items = field_items(state, f)
            if len(items) > 8:  # the brute force is exponential
                continue
            for value in range(1, 15):
                cards, clears = oracle(items, value)
                assert (v["harvest_cards"][f, value - 1] * 8, v["harvest_clears"][f, value - 1]) == (cards, clears), \
                    (items, value)
                checked += 1
    assert checked > 200


def test_a_crowded_field_is_answered_quickly():
    # 34 loose cards in one field (a young policy that only sows reaches such fields): the search
    # is bounded, and emptying is decided exactly.
    names = [f"{r}{s}" for s in "PSAW" for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9"]][:34]
    state = position(GAME, hands=[["KS"], ["KP"]], fields=[{"loose": names}])
    items = tuple((code, 1) for _, code, _ in state.items(0))
    sums, multiples = state._field_sums(0)
    (taken, clears), calls = calls_made(field_table, items, sums | multiples)
    assert calls < 5_000_000  # about 0.8M today; an unbounded search makes many times more
    assert all(0 < t <= 34 for t in taken)
    assert taken[1 - 1] == 4 and not clears[1 - 1]  # value 1: the four Fools, one group each
    assert taken[2 - 1] >= 4 + 2  # the four 2s and Fool pairs at least
