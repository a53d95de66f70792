"""Random-play properties of 3 Piles, checked at every step of many seeded games."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from card_envs.core.cards import ACE, DIAMONDS, KING, RANK, SUIT
from card_envs.games.three_piles.game import ThreePilesGame
from card_envs.games.three_piles.rules import DRAW, PASS, PLACE, play_to_pile, play_to_stack, take_action
from tests.conftest import random_walk

SEEDS = st.integers(0, 2**32 - 1)
PLAYERS = st.sampled_from([2, 3, 4])


def fits(card: int, pile: list[int]) -> bool:
    ranks = [RANK[c] for c in pile]
    return not ranks or RANK[card] < min(ranks) or RANK[card] > max(ranks)


def oracle_legal(state) -> set[int]:
    """The legal moves straight from the rules text, written independently of the engine."""
    if state.is_terminal():
        return set()
    p = state.current_player
    piles, hand = state.piles[p], state.hands[p]
    hand_plays = {play_to_pile(c, k) for c in hand for k in range(3) if fits(c, piles[k])} | \
        {play_to_stack(c, s) for c in hand for s in range(3)}
    if state.phase == PLACE:
        return hand_plays
    takes = {take_action(s, k) for s in range(3) if state.stacks[s] for k in range(3)
             if fits(state.stacks[s][-1], piles[k])}
    if state.deck:
        return takes | {DRAW}
    return (takes | hand_plays) or {PASS}


def oracle_score(piles: list[list[int]]) -> int:
    longest = max(len(p) for p in piles)
    ace_king = sum(3 for p in piles if {ACE, KING} <= {RANK[c] for c in p})
    diamonds = sum(SUIT[c] == DIAMONDS for p in piles for c in p)
    return longest + ace_king + diamonds


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, n=PLAYERS)
def test_every_step_obeys_the_rules(seed, n):
    game = ThreePilesGame(num_players=n)
    steps = 0
    for steps, state in enumerate(random_walk(game, seed)):
        # All 52 cards accounted for, each exactly once.
        cards = [c for h in state.hands for c in h] + [c for s in state.piles for p in s for c in p] + \
            [c for s in state.stacks for c in s] + state.deck
        assert sorted(cards) == list(range(52))
        # Piles keep the order rule: strictly increasing, distinct ranks.
        for seat_piles in state.piles:
            for pile in seat_piles:
                ranks = [RANK[c] for c in pile]
                assert ranks == sorted(set(ranks))
        # Legal moves and scores agree with an independent reading of the rules.
        assert set(state.legal_actions()) == oracle_legal(state)
        scores = state.scores()
        assert scores == [oracle_score(p) for p in state.piles]
        assert all(0 <= s <= 35 for s in scores)
        # Hands stay at 3 while the deck lasts (4 between a draw and its placement).
        if state.deck and not state.is_terminal():
            expected = 4 if state.phase == PLACE else 3
            assert len(state.hands[state.current_player]) == expected
            assert all(state.stacks), "stacks are refilled while the deck lasts"
    assert state.is_terminal() and steps <= game.max_game_length
    assert not state.deck and state.passes == n
    assert all(not oracle_legal_for(state, seat) for seat in range(n)), "the game ended with a playable move"


def oracle_legal_for(state, seat: int) -> bool:
    """Could `seat` do anything but pass in this (deck-empty) position?"""
    tops = [s[-1] for s in state.stacks if s]
    return bool(state.hands[seat]) or any(fits(t, p) for t in tops for p in state.piles[seat])


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, n=PLAYERS)
def test_returns_follow_the_scores(seed, n):
    for reward in ("win", "score"):
        game = ThreePilesGame(num_players=n, reward=reward)
        *_, final = random_walk(game, seed)
        scores, returns = final.scores(), final.returns()
        for i in range(n):
            if reward == "win":
                beaten = sum(scores[i] > s for s in scores)
                beating = sum(scores[i] < s for s in scores)
                assert returns[i] == (beaten - beating) / (n - 1)
            else:
                others = (sum(scores) - scores[i]) / (n - 1)
                assert np.isclose(returns[i], (scores[i] - others) / 35)


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, n=PLAYERS, moves=st.integers(0, 60))
def test_observation_changes_when_own_hand_changes(seed, n, moves):
    """Swapping one of seat p's hand cards with a deck card changes p's view and nobody else's."""
    game = ThreePilesGame(num_players=n)
    state = None
    for i, state in enumerate(random_walk(game, seed)):
        if i == moves:
            break
    p = state.current_player
    if not state.deck or not state.hands[p] or state.is_terminal():
        return
    data = state.to_json()
    hand_card, deck_card = data["hands"][p][0], data["deck"][-1]
    data["hands"][p][0], data["deck"][-1] = deck_card, hand_card
    swapped = game.state_from_json(data)
    assert not np.array_equal(swapped.observation(p), state.observation(p))
    for q in range(n):
        if q != p:
            np.testing.assert_array_equal(swapped.observation(q), state.observation(q))


def test_observation_views_show_the_position():
    game = ThreePilesGame()
    state = game.new_state(np.random.default_rng(4))
    view = game.observation_layout.views(state.observation(1))
    assert set(np.flatnonzero(view["hand"])) == set(state.hands[1])
    assert [int(np.flatnonzero(row)[0]) for row in view["stack_top"]] == [s[-1] for s in state.stacks]
    unseen = set(state.deck) | set(state.hands[0])
    assert set(np.flatnonzero(view["unseen"])) == unseen
    assert view["to_move"].tolist() == [0, 1]  # seat 0 moves: relative seat 1 for the observer
    assert view["phase"].tolist() == [1, 0]
