"""Illimat's group search (`card_envs.games.illimat.groups`): the value-count search against a
brute force over item subsets, and the legal items of crowded fields (up to every card of the
deck in one field), which a search over item subsets could not decide in reasonable time."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import card_envs
from card_envs.agents import make_policy
from card_envs.games.illimat.groups import (MULTIPLE_CODE, NUM_KINDS, coverable, groups_totalling, groups_totalling_each,
                                             heaviest_groups, heaviest_packing, plain_groups_by_total,
                                             searched_packing)
from card_envs.games.illimat.cards import CARD0, DONE, FIELD0, HARVEST, ITEMS, STOCKPILE, VALUE0, cname
from tests.illimat.test_properties import partitions

COUNTS = st.lists(st.integers(0, 2), min_size=NUM_KINDS, max_size=NUM_KINDS)


def brute_coverable(target: int, required: list[int], optional: list[int]) -> bool:
    """Some subset of the optional items joins the required ones in groups of `target`."""
    def items(counts):  # (possible values, is a multiple stockpile) per item
        return [((1, 14) if v == 0 else (v,), False) for v in range(NUM_KINDS) for _ in range(counts[v])]
    must, may = items(required), items(optional)
    return any(partitions(must + [may[i] for i in extra], target)
               for k in range(len(may) + 1) for extra in combinations(range(len(may)), k))


def kinds(**counts) -> list[int]:
    """Value counts from keywords: fool=2, v7=1, ..."""
    out = [0] * NUM_KINDS
    for name, k in counts.items():
        out[0 if name == "fool" else int(name[1:])] = k
    return out


@settings(max_examples=400, deadline=None)
@given(target=st.integers(1, 30), required=COUNTS, optional=COUNTS)
@example(target=14, required=kinds(fool=1), optional=kinds())  # a Fool alone as 14
@example(target=15, required=kinds(fool=2), optional=kinds())  # 14 + 1
@example(target=28, required=kinds(fool=2), optional=kinds())  # two Fools as 14 each (the Union)
@example(target=14, required=kinds(v13=1), optional=kinds(fool=1))  # an optional Fool as 1
@example(target=14, required=kinds(v7=1, v3=1), optional=kinds(v7=1, v4=1))  # no: the 3 needs 11
@example(target=12, required=kinds(v5=2, v2=1), optional=kinds(v7=1, v10=1))  # 5+7, 2+10: the 5s apart
def test_coverable_agrees_with_a_brute_force_over_subsets(target, required, optional):
    while sum(required) > 6:  # the brute force is exponential: keep it small
        required[required.index(max(required))] -= 1
    while sum(optional) > 4:
        optional[optional.index(max(optional))] -= 1
    assert coverable(target, tuple(required), tuple(optional)) == brute_coverable(target, required, optional)


def crowded(hand: list[str], union: bool = False, full_harvest: bool = False):
    """Every card but the mover's hand loose in field 0 (Summer), as 61 items."""
    game = card_envs.make_game("illimat_v0", num_players=4, full_harvest=full_harvest)
    data = game.new_state(np.random.default_rng(0)).to_json()
    luminaries = ["Maiden", "Changeling", "River", "Children", "Forest Queen", "Rake", "Union", "Newborn"]
    data.update(deck=[], hands=[hand, [], [], []], seasons=["summer", "autumn", "winter", "spring"],
                luminaries_unused=[x for x in luminaries if not (union and x == "Union")],
                fields=[{"loose": [cname(c) for c in range(game.deck_cards) if cname(c) not in hand],
                         "stockpiles": [], "luminary": {"name": "Union", "face_up": True} if union else None,
                         "under_children": []}]
                + [{"loose": [], "stockpiles": [], "luminary": None, "under_children": []}] * 3)
    return game.state_from_json(data)


def card(name: str) -> int:
    return CARD0 + next(c for c in range(65) if cname(c) == name)


MOVES = [
    (["AP", "2S", "3S", "4S"], False, False, [card("AP"), FIELD0, HARVEST, VALUE0 + 14]),
    (["AP", "AS", "2S", "3S"], True, False, [card("AP"), FIELD0, HARVEST, card("AS"), VALUE0 + 28]),
    (["KP", "AS", "2S", "3S"], False, False, [card("KP"), FIELD0, STOCKPILE, VALUE0 + 14]),
    (["KP", "QS", "JA", "10W"], False, True, [HARVEST, FIELD0]),
]


@pytest.mark.parametrize("hand, union, full, prefix", MOVES)
def test_crowded_fields_offer_only_items_that_complete(hand, union, full, prefix):
    """On a field of 61 items, every item offered keeps the move completable: random item choices
    always reach a legal DONE, which takes exactly the items chosen (and the played cards)."""
    rng = np.random.default_rng(7)
    for _ in range(4):
        state = crowded(hand, union, full)
        for a in prefix:
            state.apply(a)
        chosen = []
        while True:
            legal = state.legal_actions()
            assert legal, "a dead end among the items"
            items = [a for a in legal if a != DONE]
            if not items or (DONE in legal and rng.random() < 0.15):
                break
            chosen.append(int(rng.choice(items)))
            state.apply(chosen[-1])
        assert DONE in legal and chosen
        left = set(state.loose[0]) - set(chosen)
        state.apply(DONE)
        assert state.decision != ITEMS
        assert set(state.loose[0]) == left  # harvested, or built into the new stockpile


def test_the_scripted_agent_acts_on_a_crowded_field():
    state = crowded(["AP", "2S", "3S", "4S"])
    agent = make_policy("heuristic", state.game)
    rng = np.random.default_rng(0)
    for _ in range(8):
        if state.is_terminal():
            break
        action = agent.act(state.observation(state.current_player), state.legal_mask(), rng)
        assert state.legal_mask()[action]
        state.apply(int(action))


FIELD_CODES = st.lists(st.one_of(st.integers(0, 14), st.integers(2, 14).map(lambda v: MULTIPLE_CODE + v)), max_size=8)


@settings(max_examples=300, deadline=None)
@given(FIELD_CODES)
def test_groups_by_total_are_every_subset_of_plain_items_of_that_total(codes):
    by_total = plain_groups_by_total(tuple(codes))
    plain = [i for i, code in enumerate(codes) if code < MULTIPLE_CODE]
    for total in range(15):
        expected = set()
        for k in range(len(plain) + 1):
            for subset in combinations(plain, k):
                sums = {0}
                for i in subset:
                    sums = {t + v for t in sums for v in ((1, 14) if codes[i] == 0 else (codes[i],))}
                if total in sums:
                    expected.add(sum(1 << i for i in subset))
        assert by_total[total] == tuple(sorted(expected))


@settings(max_examples=300, deadline=None)
@given(FIELD_CODES, st.integers(1, 28), st.sampled_from([0, 0, 1, 5, 13]))
def test_the_cached_search_answers_as_the_search_per_target(codes, target, active):
    codes = tuple(codes)
    weights = tuple(float(1 + i % 3) for i in range(len(codes) + bool(active)))
    n = len(codes)
    by_bit = groups_totalling(target, codes, active)
    expected = (0.0, 0)
    if by_bit[n] if active else any(by_bit):
        gain, mask = heaviest_packing(by_bit, list(weights), 1 << n if active else 0, n + bool(active))
        expected = (gain, mask)
    assert heaviest_groups(target, codes, weights, active) == expected


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.integers(0, 14), st.integers(2, 14).map(lambda v: MULTIPLE_CODE + v)), max_size=10),
       st.sampled_from([100, 400, 2_000]))
def test_every_target_at_once_answers_as_one_search_per_target(codes, budget):
    """Where no search could be cut by its budget, the one pass lists the same groups, in the same
    order, as `groups_totalling` for each target (so the observation pieces built on it are the
    same bit for bit); where one could, it declines."""
    codes = tuple(codes)
    each = groups_totalling_each(codes, budget)
    plain = [code for code in codes if code < MULTIPLE_CODE]
    tree = sum(int(np.prod([3 if code == 0 else 2 for code in plain[:depth]])) for depth in range(len(plain) + 1))
    assert (each is None) == (tree > budget)
    if each is not None:
        for target in range(1, 15):
            searched = groups_totalling(target, codes, 0, budget)
            assert (each[target] or [[] for _ in codes]) == searched


@settings(max_examples=500, deadline=None)
@given(st.integers(1, 9).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.integers(1, (1 << n) - 1), max_size=6),
    st.lists(st.one_of(st.sampled_from([0.0, 0.2, 1.6, 1.7, -1.0]), st.floats(0.01, 3.0)), min_size=n, max_size=n),
    st.integers(0, (1 << n) - 1), st.sampled_from([3, 8, 600]))), st.booleans())
def test_packing_answers_as_its_search(case, disjoint):
    """Disjoint groups take a shortcut (all of them, summed in the order the search first meets
    them): the mask is the search's, and the weight too, up to the rounding of another order."""
    n, groups, weights, required, budget = case
    if disjoint:  # each group keeps the bits no earlier one took
        taken, kept = 0, []
        for g in groups:
            if g & ~taken:
                kept.append(g & ~taken)
                taken |= g
        groups = kept
    if required & 1:  # half the cases: required bits that some group covers
        required &= groups[0] if groups else 0
    listed = sorted(set(groups))
    by_bit = [[g for g in listed if g >> b & 1] for b in range(n)]
    weight, mask = heaviest_packing(by_bit, weights, required, n, budget)
    searched_weight, searched_mask = searched_packing(by_bit, weights, required, n, budget)
    assert mask == searched_mask and weight == pytest.approx(searched_weight, rel=1e-14, abs=1e-14)
