"""Baselines behind the Policy interface: greedy, ISMCTS, the search hook, and make_policy."""

from __future__ import annotations

import numpy as np
import pytest

import card_envs
from card_envs.agents import SearchPolicy, baseline_names, make_policy, parse_spec, policy_names
from card_envs.agents.greedy import GreedyPolicy
from card_envs.agents.ismcts import ISMCTS, team_margins
from card_envs.agents.match import play_game, rotated_match
from card_envs.agents.neural import ActorCritic, CHECKPOINT_FORMAT, NeuralPolicy, save_checkpoint
from card_envs.agents.policy import RandomPolicy
from card_envs.core.cards import card_names
from tests.conftest import Guard, random_walk

GAMES = ["three_piles_v0", "piles_v0"]


def _positions(game, seeds=range(3), every=5):
    """Mid-game positions (seat to move has a real choice) from seeded random games."""
    out = []
    for seed in seeds:
        for i, state in enumerate(random_walk(game, seed)):
            if i % every == 0 and not state.is_terminal() and len(state.legal_actions()) > 1:
                out.append(state.clone())
    return out


# ----- greedy ---------------------------------------------------------------------------------
def test_greedy_takes_the_move_with_the_best_immediate_score_on_a_hand_built_state():
    game = card_envs.make_game("three_piles_v0")
    used = {"hands": [["6H", "7H", "8H"], ["6S", "7S", "8S"]],
            "piles": [[["2C", "3C", "4C"], [], []], [[], [], []]],
            "stacks": [["5D"], ["KH"], ["9S"]]}
    taken = {c for h in used["hands"] for c in h} | {c for s in used["piles"] for p in s for c in p} \
        | {c for s in used["stacks"] for c in s}
    deck = [c for c in card_names(range(52)) if c not in taken]
    state = game.state_from_json({"game": "three_piles", "format": 1, "num_players": 2, "current_player": 0,
                                  "phase": "choose", "consecutive_passes": 0, "deck": deck, **used})
    # 5D onto 2-3-4: longest pile 3 -> 4 and a Diamond (+2); KH onto it: +1; anything else: +1 or 0.
    for seed in range(5):
        assert GreedyPolicy(game).act_state(state, 0, np.random.default_rng(seed)) == 0  # take stack 0 -> pile 0


@pytest.mark.parametrize("env_id", GAMES)
def test_greedy_choice_maximises_the_score_margin_after_the_move(env_id):
    game = card_envs.make_game(env_id)
    checked = 0
    for state in _positions(game):
        seat = state.current_player
        margins = {}
        for action in state.legal_actions():
            after = state.clone()
            after.apply(action)
            margins[action] = team_margins(game, after.scores())[seat]
        best = max(margins.values())
        if best <= team_margins(game, state.scores())[seat]:
            continue  # no move gains: a tie among many (chance moves included), nothing to check
        action = GreedyPolicy(game).act_state(state, seat, np.random.default_rng(0))
        assert margins[action] == best
        checked += 1
    assert checked >= 5


# ----- the search hook: no hidden information -------------------------------------------------
@pytest.mark.parametrize("env_id", GAMES)
@pytest.mark.parametrize("spec", ["greedy", "ismcts:iterations=12"])
def test_search_reads_the_state_only_through_determinize(env_id, spec):
    game = card_envs.make_game(env_id)
    policy = make_policy(spec, game)
    for state in _positions(game, seeds=[1], every=9)[:4]:
        seat = state.current_player
        guard = Guard(state, seat)
        action = policy.act_state(guard, seat, np.random.default_rng(0))
        assert action in state.legal_actions() and guard.determinizations >= 1


@pytest.mark.parametrize("env_id", GAMES)
def test_greedy_action_is_unchanged_when_hidden_cards_are_resampled(env_id):
    game = card_envs.make_game(env_id)
    for state in _positions(game, seeds=[2], every=3):
        seat = state.current_player
        resampled = state.determinize(seat, np.random.default_rng(99))  # other hands, deck, chance
        np.testing.assert_array_equal(resampled.observation(seat), state.observation(seat))
        choices = [GreedyPolicy(game).act_state(s, seat, np.random.default_rng(7)) for s in (state, resampled)]
        assert choices[0] == choices[1]


def test_search_policies_refuse_the_observation_interface():
    game = card_envs.make_game("three_piles_v0")
    for spec in ("greedy", "ismcts"):
        policy = make_policy(spec, game)
        assert isinstance(policy, SearchPolicy) and policy.needs_state
        with pytest.raises(TypeError, match="act_state"):
            policy.act(np.zeros(game.observation_size), np.ones(game.num_actions, dtype=np.int8),
                       np.random.default_rng())


def test_act_state_refuses_a_seat_that_is_not_to_move():
    game = card_envs.make_game("three_piles_v0")
    state = game.new_state(np.random.default_rng(0))
    with pytest.raises(ValueError, match="not to move"):
        GreedyPolicy(game).act_state(state, 1, np.random.default_rng(0))


# ----- ISMCTS ---------------------------------------------------------------------------------
def test_ismcts_beats_random_on_three_piles():
    game = card_envs.make_game("three_piles_v0")
    rewards = rotated_match(game, [ISMCTS(game, iterations=20), RandomPolicy()], 6, seed=40)[:, 0]
    assert len(rewards) == 12 and (rewards > 0).sum() >= 10


def test_ismcts_is_reproducible_from_the_rng_and_plays_team_games():
    game = card_envs.make_game("piles_v0")
    state = _positions(game, seeds=[3])[2]
    policy = ISMCTS(game, iterations=30, rollout_depth=10)
    seat = state.current_player
    assert policy.act_state(state, seat, np.random.default_rng(5)) == policy.act_state(state, seat, np.random.default_rng(5))
    with pytest.raises(ValueError, match="iterations"):
        ISMCTS(game, iterations=0)


def test_search_policies_play_through_the_aec_env():
    env = card_envs.make("piles_v0")
    game = env.unwrapped.game
    greedy = make_policy("greedy", game)
    rewards, scores = play_game(env, [greedy, RandomPolicy(), greedy, RandomPolicy()], seed=4)
    assert len(scores) == 4 and rewards["player_0"] == rewards["player_2"] == -rewards["player_1"]


# ----- make_policy ----------------------------------------------------------------------------
def test_make_policy_names_and_options():
    game = card_envs.make_game("three_piles_v0")
    assert baseline_names(game) == ["random", "greedy", "heuristic", "ismcts"]
    assert policy_names(game) == ["random", "heuristic"]  # the batched ones (training's evaluation)
    assert parse_spec("ismcts:iterations=200, exploration=1.5") == ("ismcts", {"iterations": "200", "exploration": "1.5"})
    policy = make_policy("ismcts:iterations=200,exploration=1.5,rollout_depth=none", game)
    assert (policy.iterations, policy.exploration, policy.rollout_depth) == (200, 1.5, None)
    assert isinstance(make_policy("greedy", game), GreedyPolicy)


@pytest.mark.parametrize("spec, message", [
    ("smart", r"unknown policy 'smart'.*available: \['random', 'heuristic'\].*'greedy', 'ismcts'.*\.pt"),
    ("ismcts:depth=3", r"unknown option\(s\) \['depth'\] for policy 'ismcts'; accepted options: "
                       r"iterations, exploration, rollout_depth"),
    ("ismcts:iterations=many", r"iterations='many' of policy 'ismcts:iterations=many' must be int"),
    ("ismcts:iterations", r"bad option 'iterations'.*key=value"),
    ("ismcts:iterations=0", r"iterations=0 must be an integer >= 1"),
    ("greedy:x=1", r"unknown option\(s\) \['x'\] for policy 'greedy'; accepted options: none"),
    ("random:x=1", r"policy 'random' takes no options"),
    ("missing.pt", r"no checkpoint file at 'missing.pt'"),
])
def test_make_policy_errors_name_what_is_accepted(spec, message):
    with pytest.raises(ValueError, match=message):
        make_policy(spec, card_envs.make_game("three_piles_v0"))


def _checkpoint(path, env_id, **config):
    game = card_envs.make_game(env_id, **config)
    net = ActorCritic(game.observation_size, game.num_actions, (8,))
    save_checkpoint(path, {"env_id": env_id, "game_config": game.config, "observation_size": game.observation_size,
                           "num_actions": game.num_actions, "hidden": [8], "model": net.state_dict(),
                           "args": {}, "step": 0, "update": 0, "seed": 0})
    assert CHECKPOINT_FORMAT == 1


def test_make_policy_loads_a_checkpoint_checked_against_the_game(tmp_path):
    _checkpoint(tmp_path / "a.pt", "three_piles_v0")
    assert isinstance(make_policy(str(tmp_path / "a.pt"), card_envs.make_game("three_piles_v0")), NeuralPolicy)
    with pytest.raises(ValueError, match="trained on 'three_piles_v0', not 'piles_v0'"):
        make_policy(str(tmp_path / "a.pt"), card_envs.make_game("piles_v0"))
    two, three = (card_envs.make_game("three_piles_v0", num_players=n).observation_size for n in (2, 3))
    with pytest.raises(ValueError, match=f"observation {two}.*has observation {three}"):
        make_policy(str(tmp_path / "a.pt"), card_envs.make_game("three_piles_v0", num_players=3))
