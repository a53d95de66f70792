"""The ``lookahead`` Illimat bot: the scripted agent, wary of the next player's best harvest."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

import card_envs
from card_envs.agents import make_policy, named_bots
from card_envs.agents.illimat.heuristic import IllimatHeuristic, IllimatLookahead, expected_best, harvest_table
from card_envs.agents.match import rotated_match, win_draw_loss
from card_envs.games.illimat.groups import MULTIPLE_CODE
from card_envs.games.illimat.cards import FIELD0, HARVEST, SOW, STOCKPILE, TURN, WINTER
from card_envs.games.illimat.game import IllimatGame
from tests.illimat.test_properties import play_game
from tests.illimat.test_rules import ACTIONS, position

GAME = IllimatGame()


def card(name: str) -> int:
    return ACTIONS[f"card {name}"]  # a card's action is its index


def test_lookahead_is_a_named_illimat_bot():
    assert named_bots(GAME) == ["lookahead"]
    assert isinstance(make_policy("lookahead", GAME), IllimatLookahead)


@pytest.mark.parametrize("gains, hand", [([3.0, 1.0, 0.0, 2.0, 0.5], 2), ([1.0, 0.0, 0.0], 1), ([2.0, 4.0], 5),
                                         ([0.0, 0.0, 0.0], 2), ([1.5, 2.5, 0.5, 3.5, 0.0, 1.0], 3)])
def test_expected_best_is_the_mean_best_over_every_hand(gains, hand):
    hands = list(combinations(gains, min(hand, len(gains))))
    assert expected_best(gains, hand) == pytest.approx(np.mean([max(h + (0.0,)) for h in hands]))


def test_expected_best_of_no_hand_is_zero():
    assert expected_best([3.0, 2.0], 0) == 0.0 and expected_best([], 3) == 0.0


def test_harvest_table_takes_the_heaviest_disjoint_groups():
    # loose 3, 4 and 7 (weights 1, 1, 2) and a multiple stockpile of 7 (weight 3)
    table = harvest_table(((3, 1.0), (4, 1.0), (7, 2.0), (7 + MULTIPLE_CODE, 3.0)))
    assert table[7] == (7.0, True)  # 3 + 4, the 7 and the multiple stockpile: the whole field
    assert table[3] == (1.0, False) and table[4] == (1.0, False)
    assert table[10] == (3.0, False)  # 3 + 7
    assert table[1] == (0.0, False) and table[0] == (0.0, False)


def _read(state, agent):
    return agent._read(state.observation(state.current_player))


def test_board_after_sow_harvest_stockpile_and_a_face_card_turning_the_illimat():
    state = position(hands=[["3W", "9S", "KW", "6P"], ["8P", "7A", "4A", "QW"]],
                     fields=[{"loose": ["5S", "4P"]}, {}, {}, {"loose": ["2P"]}])
    agent = IllimatLookahead(GAME)
    s = _read(state, agent)
    c = card
    fields, seasons = agent._board_after(s, (c("3W"), 0, SOW, -1, 0, ()))
    assert sorted(item[0] for item in fields[0]) == sorted([c("5S"), c("4P"), c("3W")])
    assert seasons == s["seasons"] and s["fields"][0] != fields[0]  # the agent's own reading is not changed
    fields, _ = agent._board_after(s, (c("9S"), 0, HARVEST, -1, 9, (c("4P"), c("5S"))))
    assert fields[0] == [] and fields[3] == s["fields"][3]
    fields, _ = agent._board_after(s, (c("3W"), 0, STOCKPILE, -1, 9, (c("5S"),)))
    assert [(item[1], sorted(item[2])) for item in fields[0]] == [(4, [c("4P")]),
                                                                  (9, sorted([c("5S"), c("3W")]))]
    _, seasons = agent._board_after(s, (c("KW"), 3, SOW, -1, 0, ()))
    assert seasons[3] == WINTER and seasons != s["seasons"]


def _choose(agent, state) -> tuple[int, int]:
    """The card and the field ``agent`` plays from this turn's first decision."""
    card = agent.act(state.observation(state.current_player), state.legal_mask(), np.random.default_rng(0))
    state.apply(card)
    field = agent.act(state.observation(state.current_player), state.legal_mask(), np.random.default_rng(0))
    return card, field - FIELD0


def test_lookahead_sows_what_keeps_the_next_player_from_emptying_the_field():
    # Summer, Autumn, Winter, Spring fields; only field 0 holds a card (the 5 of Summer), and
    # nothing can be harvested or stockpiled. The scripted agent sows its cheapest card, the Winter
    # 3, on the 5: any 8 then takes both and empties the field (a point for the okus). The
    # lookahead sows the Winter 10 there instead: no card makes 15, so a 5 takes the 5 alone and
    # the field cannot be emptied (sown into Winter, nobody harvests it, but the 5 stays open).
    def start():
        return position(hands=[["3W", "9W", "10W", "6P"], ["8P", "7A", "4A", "QW"]], fields=[{"loose": ["5S"]}])
    heuristic, lookahead = IllimatHeuristic(GAME), IllimatLookahead(GAME)
    assert _choose(heuristic, start()) == (card("3W"), 0)
    assert _choose(lookahead, start()) == (card("10W"), 0)
    s = lookahead._read(start().observation(0))
    threat = {(c, f): lookahead._threat(s, *lookahead._board_after(s, (card(c), f, SOW, -1, 0, ())))
              for c, f in (("3W", 0), ("10W", 0), ("3W", 2))}
    assert threat["10W", 0] < threat["3W", 2] < threat["3W", 0]
    assert start().season(2) == WINTER


@pytest.mark.parametrize("n", [2, 3, 4])
def test_lookahead_plays_only_legal_moves(n):
    env = card_envs.make("illimat_v0", num_players=n, auto_forced=False)  # raises on an illegal move
    game = env.unwrapped.game
    _, scores = play_game(env, [make_policy("lookahead", game)] * n, 0)
    assert max(scores) >= 17


def test_lookahead_beats_the_scripted_agent():
    """Seeded: the same 120 games every run (0.63 of 600 in the docstring's measurement)."""
    rewards = rotated_match(GAME, [make_policy("lookahead", GAME), make_policy("heuristic", GAME)], 60, seed=1000)
    wins, _, losses = win_draw_loss(rewards[:, 0])
    assert wins > 0.55 * len(rewards) and wins > losses


@pytest.mark.parametrize("name", ["heuristic", "lookahead"])
def test_action_scores_rank_the_plans_with_the_agents_choice_first(name):
    # Over whole games: the choice is `act`'s, and it holds the best score; only legal actions
    # are scored; the card to play is usually a real ranking (several cards scored).
    game = card_envs.make_game("illimat_v0", harvest_features=True, play_features=True, threat_features=True)
    agent, rng, ranked, turns = make_policy(name, game), np.random.default_rng(0), 0, 0
    for seed in range(3):
        state = game.new_state(np.random.default_rng(seed))
        while not state.is_terminal():
            observation, mask = state.observation(state.current_player), state.legal_mask().astype(np.int8)
            chosen, scores = agent.action_scores(observation, mask, rng)
            assert chosen == agent.act(observation, mask, rng)
            assert scores[chosen] == scores.max() > -np.inf
            assert not np.isfinite(scores[mask == 0]).any()
            if observation[agent.layout.slices["decision"]].argmax() == TURN and mask.sum() > 1:  # the card to play
                turns += 1
                ranked += int(np.isfinite(scores).sum() > 1)
            state.apply(chosen)
    assert turns > 20 and ranked > 0.5 * turns, (ranked, turns)
