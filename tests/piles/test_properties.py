"""Random-play properties of Piles, checked at every step of many seeded games against oracles
written from the rules text (card names and grid coordinates), not from the engine's tables."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from card_envs.core.cards import RANK_NAMES, card_name
from card_envs.games.piles.game import PilesGame
from card_envs.games.piles.rules import PASS

SEEDS = st.integers(0, 2**32 - 1)
PLAYERS = st.sampled_from([4, 2])
PASS_RATES = st.sampled_from([0.0, 0.1, 0.5])  # random play rarely passes by itself


def rank(card: int) -> int:
    return RANK_NAMES.index(card_name(card)[:-1]) + 1


def red(card: int) -> bool:
    return card_name(card)[-1] in "DH"


def points(card: int) -> int:
    return {"A": 9, "K": 4, "Q": 3, "J": 2}.get(card_name(card)[:-1], 1)


def oracle_value(piles: list[list[int]], pos: int) -> int:
    row, col = divmod(pos, 4)
    top = piles[pos][-1]
    value = rank(top)
    for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
        if 0 <= r < 3 and 0 <= c < 4:
            value += 1 if red(piles[4 * r + c][-1]) == red(top) else -1
    return value


def oracle_legal(state) -> set[int]:
    if not any(state.hands) and not state.set_aside:
        return set()
    legal = {PASS}
    for card in state.hands[state.current_player]:
        for pos, pile in enumerate(state.piles):
            if red(card) == red(pile[-1]) or rank(card) > oracle_value(state.piles, pos):
                legal.add(12 * card + pos)
    return legal


def oracle_points(state) -> list[int]:
    colours = state.to_json()["team_colours"]
    if colours == [None, None]:
        return [0, 0]
    result = []
    for team, colour in enumerate(colours):
        mine = colour == "red"
        held = [c for pile in state.piles if red(pile[-1]) == mine for c in pile] + state.captured[team]
        result.append(sum(points(c) for c in held if red(c) != mine))
    return result


def walk(game, seed: int, pass_rate: float):
    """Every state of one random game (terminal last); passes are played with `pass_rate`."""
    rng = np.random.default_rng(seed)
    state = game.new_state(rng)
    yield state
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(PASS if rng.random() < pass_rate else legal[rng.integers(len(legal))])
        yield state


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, n=PLAYERS, pass_rate=PASS_RATES)
def test_every_step_obeys_the_rules(seed, n, pass_rate):
    game = PilesGame(num_players=n)
    turns = [0] * n
    for state in walk(game, seed, pass_rate):
        # All 52 cards accounted for, each exactly once; every pile keeps its cards.
        cards = [c for h in state.hands for c in h] + [c for p in state.piles for c in p] + \
            [c for t in state.captured for c in t] + state.set_aside
        assert sorted(cards) == list(range(52))
        assert all(state.piles) and len(state.piles) == 12
        # Mask, values and points agree with the oracles; points stay within 0..54.
        assert set(state.legal_actions()) == oracle_legal(state)
        mask = state.legal_mask()
        assert set(np.flatnonzero(mask)) == oracle_legal(state)
        assert state.values == [oracle_value(state.piles, p) for p in range(12)]
        team_points = state.team_points()
        assert team_points == oracle_points(state)
        assert all(0 <= x <= 54 for x in team_points)
        assert state.scores() == [team_points[seat % 2] for seat in range(n)]
        # Colours are fixed exactly when a card has been placed.
        placed = any(len(p) > 1 for p in state.piles)
        assert (state.team_colours[0] is not None) == placed
        if not state.is_terminal():
            turns[state.current_player] += 1
    assert turns == [40 // n] * n  # 10 turns each with 4 players, 20 with 2
    assert not any(state.hands) and not state.set_aside


@settings(max_examples=30, deadline=None)
@given(seed=SEEDS, n=PLAYERS, pass_rate=PASS_RATES)
def test_returns_follow_the_team_points(seed, n, pass_rate):
    for reward in ("win", "score"):
        game = PilesGame(num_players=n, reward=reward)
        *_, final = walk(game, seed, pass_rate)
        a, b = oracle_points(final)
        returns = final.returns()
        expected = np.sign(a - b) if reward == "win" else (a - b) / 54
        np.testing.assert_allclose(returns, [expected if seat % 2 == 0 else -expected for seat in range(n)])
        assert returns.sum() == 0


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, n=PLAYERS, pass_rate=PASS_RATES, moves=st.integers(0, 39))
def test_a_seats_observation_ignores_the_hidden_cards(seed, n, pass_rate, moves):
    """Resampling the other hands (partner included) and the set-aside cards never changes a
    seat's observation; a hand swap shows in exactly the seats whose hand changed."""
    game = PilesGame(num_players=n)
    rng = np.random.default_rng(seed)
    state = None
    for i, state in enumerate(walk(game, seed, pass_rate)):
        if i == moves:
            break
    for seat in range(n):
        for _ in range(3):
            other = state.determinize(seat, rng)
            np.testing.assert_array_equal(other.observation(seat), state.observation(seat))
            assert other.hands[seat] == state.hands[seat]
    data = state.to_json()
    a, b = 1, 2  # with 4 players: an opponent and the partner of seat 0; swap one card each
    if n == 4 and data["hands"][a] and data["hands"][b]:
        data["hands"][a][0], data["hands"][b][0] = data["hands"][b][0], data["hands"][a][0]
        swapped = game.state_from_json(data)
        for seat in range(n):
            same = np.array_equal(swapped.observation(seat), state.observation(seat))
            assert same == (seat not in (a, b))
    if n == 2 and state.set_aside and state.hands[1]:
        data = state.to_json()
        data["hands"][1][0], data["set_aside"][0] = data["set_aside"][0], data["hands"][1][0]
        np.testing.assert_array_equal(game.state_from_json(data).observation(0), state.observation(0))


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, n=PLAYERS, pass_rate=PASS_RATES, moves=st.integers(0, 39))
def test_observation_shows_the_public_position(seed, n, pass_rate, moves):
    game = PilesGame(num_players=n)
    state = None
    for i, state in enumerate(walk(game, seed, pass_rate)):
        if i == moves:
            break
    for seat in range(n):
        view = game.observation_layout.views(state.observation(seat))
        assert set(np.flatnonzero(view["hand"])) == set(state.hands[seat])
        assert view["top"].argmax(axis=1).tolist() == [p[-1] for p in state.piles]
        for pos, pile in enumerate(state.piles):
            assert (view["pile_cards"][pos, pile] * 52).round().tolist() == list(range(1, len(pile) + 1))
            assert view["pile_cards"][pos].astype(bool).sum() == len(pile)
        own = seat % 2
        for relative, team in ((0, own), (1, 1 - own)):
            assert set(np.flatnonzero(view["captured"][relative])) == set(state.captured[team])
        hidden = {c for q in range(n) if q != seat for c in state.hands[q]} | set(state.set_aside)
        assert set(np.flatnonzero(view["unseen"])) == hidden
        order = [(seat + k) % n for k in range(n)]
        assert (view["hand_sizes"] * 10).round().tolist() == [len(state.hands[q]) for q in order]
        assert view["turns_left"][0] * 40 == state.turns_left


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, n=PLAYERS, moves=st.integers(0, 39))
def test_a_pass_takes_one_hand_card_reproducibly(seed, n, moves):
    game = PilesGame(num_players=n)
    state = None
    for i, state in enumerate(walk(game, seed, 0.2)):
        if i == moves:
            break
    if state.is_terminal():
        return
    p = state.current_player
    first, second = state.clone(), state.clone()
    first.apply(PASS)
    second.apply(PASS)
    assert first.to_json() == second.to_json()
    (taken,) = set(state.hands[p]) - set(first.hands[p])
    assert first.captured[(p + 1) % n % 2] == state.captured[(p + 1) % n % 2] + [taken]
