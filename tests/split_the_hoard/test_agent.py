"""The scripted Split the Hoard agent: legal play at every size and in every decision, acting on
the observation alone, buying and pricing toward its hidden Title, sensible abilities, and
clearly better than random."""

from __future__ import annotations

import numpy as np
import pytest

import card_envs
from card_envs.agents import RandomPolicy, make_policy
from card_envs.agents.match import play_game, rotated_match, wilson_interval
from card_envs.agents.split_the_hoard.heuristic import SplitTheHoardHeuristic
from card_envs.games.split_the_hoard.effects import DECISION_NAMES, NUM_DECISIONS
from tests.split_the_hoard.test_helpers import Table

NO_WINDOW_POWERS = ("Warrior", "Cleric", "Rogue")  # no class power in the Reveal or Claim windows


def heuristic_answers(s, seat: int = 0, limit: int = 10) -> list[str]:
    """Let the heuristic answer every decision of `seat` in a row; the answers, by name."""
    g = s.game
    policy = SplitTheHoardHeuristic(g)
    out = []
    while s.current_player == seat and not s.is_terminal() and len(out) < limit:
        a = policy.act(s.observation(seat), s.legal_mask(), np.random.default_rng(0))
        out.append(g.action_to_string(a))
        s.apply(a)
    return out


@pytest.mark.parametrize("config", [{"num_players": 2}, {"num_players": 3}, {"num_players": 5},
                                    {"num_players": 3, "class_powers": "tiebreak_only"}])
def test_heuristic_plays_full_games_legally(config):
    env = card_envs.make("split_the_hoard_v0", illegal_action="raise", **config)
    game = env.unwrapped.game
    policy = make_policy("heuristic", game)
    assert isinstance(policy, SplitTheHoardHeuristic)
    for seed in range(2):
        rewards, scores = play_game(env, [policy] * game.num_players, seed)
        assert len(scores) == game.num_players and sum(rewards.values()) == pytest.approx(0)


def test_heuristic_answers_every_decision_kind_legally_and_deterministically():
    game = card_envs.make_game("split_the_hoard_v0", num_players=4)
    policy = SplitTheHoardHeuristic(game)
    asked = set()
    for seed in range(8):
        s = game.new_state(np.random.default_rng(seed))
        while not s.is_terminal():
            mask = s.legal_mask()
            obs = s.observation(s.current_player)
            a = policy.act(obs, mask, np.random.default_rng(seed))
            assert mask[a], (DECISION_NAMES[s.decision], game.action_to_string(a))
            assert policy.act(obs, mask, np.random.default_rng(seed + 1)) == a  # the same answer again
            if mask.sum() > 1:
                asked.add(s.decision)
            s.apply(a)
    assert asked == set(range(NUM_DECISIONS)), sorted(DECISION_NAMES[d] for d in set(range(NUM_DECISIONS)) - asked)


def test_heuristic_acts_on_what_the_seat_can_see_only():
    """A copy of the position with everything hidden from the seat resampled (deck order, Coin
    faces, the others' hands, commits and hidden Titles) gets the same answer."""
    game = card_envs.make_game("split_the_hoard_v0")
    policy = SplitTheHoardHeuristic(game)
    rng = np.random.default_rng(5)
    compared = differed = 0
    for seed in range(3):
        s = game.new_state(np.random.default_rng(seed))
        while not s.is_terminal():
            p, mask = s.current_player, s.legal_mask()
            a = policy.act(s.observation(p), mask, rng)
            if mask.sum() > 1:
                twin = s.determinize(p, rng)
                differed += twin.deck != s.deck or twin.titles != s.titles
                np.testing.assert_array_equal(twin.observation(p), s.observation(p))
                assert policy.act(twin.observation(p), twin.legal_mask(), rng) == a
                compared += 1
            s.apply(a)
    assert compared > 100 and differed > 0.9 * compared


@pytest.mark.parametrize("title, expected", [("Bard", "player +1"), ("Beastmaster", "player +2"),
                                             ("Smith", "player +1")])
def test_heuristic_buys_toward_its_hidden_title(title, expected):
    """Goblet (Bard with the Lute) and Wolf Pelt (Beastmaster with Tooth and Feather) lie on two
    alike sellers' Negotiate Card 1; without either Title the Goblet (2 VP, not 1) is better."""
    t = Table(titles=(title, "Healer", "Scholar")).treasures(0, "Lute", "Dragon Tooth", "Griffon Feather")
    for seat in range(3):
        t.coins(seat, count=4)
    s = t.negotiate({1: ("Goblet", "Sword", "Bribe"), 2: ("Wolf Pelt", "Sword", "Bribe")})
    assert heuristic_answers(s)[:2] == [expected, "negotiate card 1 (1 coin)"]


@pytest.mark.parametrize("title, dearest", [("Bard", "Goblet"), ("Beastmaster", "Wolf Pelt")])
def test_heuristic_prices_the_card_it_values_most_highest(title, dearest):
    t = Table(classes=NO_WINDOW_POWERS, titles=(title, "Healer", "Scholar"))
    t.treasures(0, "Lute", "Dragon Tooth", "Griffon Feather")
    for seat in range(3):
        t.coins(seat, count=4)
    s = t.reveal_window({0: ("Goblet", "Wolf Pelt", "Bandages")})
    heuristic_answers(s)
    assert s.game.cards.names_of(s.offer[0])[0] == "Bandages"  # worth least: Negotiate Card 1
    assert s.game.cards.names_of(s.offer[0])[2] == dearest


def test_heuristic_uses_abilities_when_they_pay_only():
    t = Table(classes=NO_WINDOW_POWERS).treasures(0, "Healing Herbs", "Sword").coins(0, count=3)
    t.s.treasure_discard += [t.card("Holy Symbol"), t.card("Bandages")]  # used (only abilities lie there)
    assert heuristic_answers(t.claim_window()) == ["Healing Herbs", "Holy Symbol"]  # a rank 1 for a rank 6
    for peek in ("Crystal Ball", "Prophecy"):  # a look at the deck is not worth a rank-8 / 4 Treasure
        t = Table(classes=NO_WINDOW_POWERS).treasures(0, peek, "Sword").coins(0, count=3)
        assert heuristic_answers(t.reveal_window({}))[0] == "done"


def test_heuristic_beats_random_clearly():
    """One heuristic against two random players, every deal in every seating: it wins (ranks
    first) far more often than the third of the games a random player would."""
    game = card_envs.make_game("split_the_hoard_v0")
    results = rotated_match(game, [make_policy("heuristic", game), RandomPolicy(), RandomPolicy()], 20, seed=7)
    wins = int((results[:, 0] > 0).sum())
    assert wilson_interval(wins, len(results))[0] > 0.5  # measured: 0.946 [0.930, 0.958] over 1,002 games
