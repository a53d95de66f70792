"""Tests every registered env gets for free: PettingZoo's suites, masks, hidden information,
snapshots, errors, termination and docs. Driven by `card_envs.spec(env_id).test_configs`."""

from __future__ import annotations

import importlib
import json
import re

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test, state_test
from pettingzoo.utils import average_total_reward, turn_based_aec_to_parallel
from pettingzoo.utils.wrappers import CaptureStdoutWrapper

import card_envs
from card_envs.core.game import ArgumentError, IllegalActionError
from tests.conftest import random_walk


def random_env_game(env, rng, steps):
    """Play up to `steps` random decisions in an AEC env; returns the actions played."""
    actions = []
    for _ in range(steps):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            break
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
        actions.append(action)
    return actions


# ----- PettingZoo's own suites ---------------------------------------------------------------
def test_api(env_case):
    env_id, config = env_case
    api_test(card_envs.make(env_id, **config), num_cycles=1000)


def test_seed(env_case):
    env_id, config = env_case
    seed_test(lambda: card_envs.make(env_id, **config), num_cycles=500)


def test_render(env_case):
    env_id, config = env_case
    render_test(lambda render_mode: card_envs.make(env_id, render_mode=render_mode, **config))


def test_pettingzoo_checkers_with_random_actions_pass_with_no_arguments(env_case):
    """state_test and average_total_reward send unmasked random actions: by default an illegal
    one ends the game with a penalty, as in PettingZoo's classic envs."""
    env_id, config = env_case
    with pytest.warns(UserWarning, match="is illegal"):
        state_test(card_envs.make(env_id, **config),
                   turn_based_aec_to_parallel(card_envs.make(env_id, **config)), num_cycles=20)
        average_total_reward(card_envs.make(env_id, **config), max_episodes=3, max_steps=300)


def test_metadata_is_per_env(env_case):
    env_id, config = env_case
    captured = CaptureStdoutWrapper(card_envs.make(env_id, render_mode="human", **config))
    assert "ansi" in captured.metadata["render_modes"]
    assert card_envs.make(env_id, **config).metadata["render_modes"] == ["ansi", "human"]
    assert card_envs.make(env_id, **config).metadata["name"] == env_id


def test_different_seeds_give_different_deals(env_case):
    env_id, config = env_case
    env = card_envs.make(env_id, **config)
    deals = set()
    for seed in range(20):
        env.reset(seed=seed)
        deals.add(env.state().tobytes())
    assert len(deals) == 20
    env.reset(seed=3)
    first = env.state()
    other = card_envs.make(env_id, **config)
    other.reset(seed=3)
    np.testing.assert_array_equal(first, other.state())


# ----- the raw engine over many random games -------------------------------------------------
@pytest.mark.parametrize("seed", range(3))
def test_mask_is_exactly_the_legal_set(env_case, seed):
    env_id, config = env_case
    game = card_envs.make_game(env_id, **config)
    rng = np.random.default_rng(seed)
    for state in random_walk(game, seed):
        mask = state.legal_mask()
        assert mask.dtype == np.int8 and mask.shape == (game.num_actions,)
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(state.legal_actions())
        if state.is_terminal():
            assert not mask.any()
            continue
        for action in state.legal_actions():  # every masked action is playable
            state.clone().apply(action)
        illegal = np.flatnonzero(mask == 0)
        before = json.dumps(state.to_json())
        for action in rng.choice(illegal, size=min(5, illegal.size), replace=False):
            with pytest.raises(IllegalActionError, match=rf"action {action}\b.*legal"):
                state.apply(int(action))
        assert json.dumps(state.to_json()) == before  # an illegal action changes nothing


@pytest.mark.parametrize("seed", range(3))
def test_incremental_features_match_a_rebuild(env_case, seed):
    """Observations are maintained incrementally; a state rebuilt from JSON must agree."""
    env_id, config = env_case
    game = card_envs.make_game(env_id, **config)
    for state in random_walk(game, seed):
        rebuilt = game.state_from_json(json.loads(json.dumps(state.to_json())))
        np.testing.assert_array_equal(rebuilt.state_tensor(), state.state_tensor())
        for seat in range(game.num_players):
            np.testing.assert_array_equal(rebuilt.observation(seat), state.observation(seat))
        assert rebuilt.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("seed", range(3))
def test_observation_is_unchanged_by_resampling_hidden_cards(env_case, seed):
    """Everything a seat cannot see is resampled by determinize(); its view must not move, for
    every seat, to move or not."""
    env_id, config = env_case
    game = card_envs.make_game(env_id, **config)
    rng = np.random.default_rng(seed)
    changed = checked = 0
    for state in random_walk(game, seed):
        for seat in range(game.num_players):
            other = state.determinize(seat, rng)
            np.testing.assert_array_equal(other.observation(seat), state.observation(seat))
            assert game.render(other, seat) == game.render(state, seat)
            assert game.render(other, None) == game.render(state, None)
            if seat == state.current_player:
                assert other.legal_actions() == state.legal_actions()
            checked += 1
            changed += other.to_json() != state.to_json()
    assert changed > checked // 2, "determinize() should resample hidden cards in most positions"


def sampled_positions(game, seed: int, count: int = 8) -> list:
    """`count` positions of one random game, drawn uniformly (reservoir sampling), and its end."""
    rng = np.random.default_rng(seed + 1000)
    kept, state = [], None
    for step, state in enumerate(random_walk(game, seed)):
        if len(kept) < count:
            kept.append(state.clone())
        elif (slot := rng.integers(step + 1)) < count:
            kept[slot] = state.clone()
    return kept + [state.clone()]


@pytest.mark.parametrize("seed", range(2))
def test_determinized_copies_are_whole_positions(env_case, seed):
    """A copy for any seat is a position of its own: a snapshot loader accepts it, its legal
    actions are those of its own cards (no cache left over from the real position), each of them
    plays, and the copy plays on to the end."""
    env_id, config = env_case
    game = card_envs.make_game(env_id, **config)
    rng = np.random.default_rng(seed)
    for state in sampled_positions(game, seed):
        state.legal_actions()  # warm any cache, as a search policy asking for its moves would
        for seat in range(game.num_players):
            copy = state.determinize(seat, rng)
            rebuilt = game.state_from_json(json.loads(json.dumps(copy.to_json())))
            assert copy.legal_actions() == rebuilt.legal_actions()
            np.testing.assert_array_equal(copy.legal_mask(), rebuilt.legal_mask())
            for action in copy.legal_actions():
                copy.clone().apply(action)
            for _ in range(game.max_game_length + 1):
                if copy.is_terminal():
                    break
                legal = copy.legal_actions()
                copy.apply(legal[rng.integers(len(legal))])
            assert copy.is_terminal()


@pytest.mark.parametrize("seed", range(2))
def test_determinize_depends_only_on_what_the_seat_knows(env_case, seed):
    """Two positions that differ only in what seat p cannot see give the same copy for the same
    rng: a search policy holding the rng learns nothing about the real hidden cards."""
    env_id, config = env_case
    game = card_envs.make_game(env_id, **config)
    rng = np.random.default_rng(seed)
    differed = 0
    for step, state in enumerate(random_walk(game, seed)):
        if step % 2:
            continue
        for seat in range(game.num_players):
            twin = state.determinize(seat, rng)  # the same for `seat`, hidden cards resampled
            differed += twin.to_json() != state.to_json()
            draw = int(rng.integers(2**32))
            mine = state.determinize(seat, np.random.default_rng(draw)).to_json()
            theirs = twin.determinize(seat, np.random.default_rng(draw)).to_json()
            assert mine == theirs, f"seat {seat}: determinize() depends on hidden information"
    assert differed, "the twins never differed: the test checked nothing"


def test_observations_stay_in_their_space(env_case):
    env_id, config = env_case
    game = card_envs.make_game(env_id, **config)
    high = game.observation_layout.high()
    state_high = game.state_layout.high()
    for state in random_walk(game, 11):
        tensor = state.state_tensor()
        assert tensor.dtype == np.float32 and np.all(tensor >= 0) and np.all(tensor <= state_high)
        for seat in range(game.num_players):
            obs = state.observation(seat)
            assert obs.dtype == np.float32 and obs.shape == (game.observation_size,)
            assert np.all(obs >= 0) and np.all(obs <= high)


@pytest.mark.parametrize("seed", range(20))
def test_games_end_within_max_length_with_valid_returns(env_case, seed):
    env_id, config = env_case
    game = card_envs.make_game(env_id, **config)
    decisions = -1
    for decisions, state in enumerate(random_walk(game, seed)):
        assert decisions <= game.max_game_length
        if not state.is_terminal():
            assert not state.returns().any()
    returns = state.returns()
    low, high = game.reward_range
    assert returns.shape == (game.num_players,)
    assert np.all(returns >= low) and np.all(returns <= high)
    assert abs(returns.sum()) < 1e-9  # zero-sum


def test_clone_is_independent(env_case):
    env_id, config = env_case
    game = card_envs.make_game(env_id, **config)
    state = game.new_state(np.random.default_rng(0))
    before = json.dumps(state.to_json())
    copy = state.clone()
    while not copy.is_terminal():
        copy.apply(copy.legal_actions()[0])
    assert json.dumps(state.to_json()) == before
    assert state.legal_actions() != [] and not state.is_terminal()


# ----- the env: hidden information, snapshots, errors ----------------------------------------
def test_env_views_of_a_seat_ignore_the_others_hidden_cards(env_case):
    """observe(), and an ansi render for a seat, are the same in a position where all that seat
    cannot see was resampled: no field reveals another hand or the deck."""
    env_id, config = env_case
    rng = np.random.default_rng(5)
    env = card_envs.make(env_id, render_mode="ansi", **config)
    env.reset(seed=5)
    for _ in range(8):
        random_env_game(env, rng, 7)
        if all(env.terminations.values()):
            break
        snapshot = env.unwrapped.snapshot()
        state = env.unwrapped.game.state_from_json(snapshot["state"])
        for seat, agent in enumerate(env.possible_agents):
            twin = card_envs.make(env_id, render_mode="ansi", render_seat=seat, **config)
            twin.reset(options={"state": {**snapshot, "state": state.determinize(seat, rng).to_json()}})
            mine = card_envs.make(env_id, render_mode="ansi", render_seat=seat, **config)
            mine.reset(options={"state": snapshot})
            for key in ("observation", "action_mask"):
                np.testing.assert_array_equal(twin.observe(agent)[key], mine.observe(agent)[key])
            assert twin.render() == mine.render()


def test_snapshot_round_trip_continues_identically(env_case):
    env_id, config = env_case
    rng = np.random.default_rng(1)
    env = card_envs.make(env_id, **config)
    env.reset(seed=1)
    random_env_game(env, rng, 15)
    snapshot = json.loads(json.dumps(env.unwrapped.snapshot()))  # JSON-compatible
    copy = card_envs.make(env_id, **config)
    copy.reset(options={"state": snapshot})
    assert copy.unwrapped.snapshot() == env.unwrapped.snapshot()
    for a, b in zip(env.agent_iter(), copy.agent_iter()):
        assert a == b
        last_a, last_b = env.last(), copy.last()
        for key in ("observation", "action_mask"):
            np.testing.assert_array_equal(last_a[0][key], last_b[0][key])
        assert last_a[1:] == last_b[1:]
        for agent in env.agents:
            np.testing.assert_array_equal(env.observe(agent)["observation"], copy.observe(agent)["observation"])
        if last_a[2] or last_a[3]:
            env.step(None)
            copy.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(last_a[0]["action_mask"])))
        env.step(action)
        copy.step(action)
    assert not env.agents and not copy.agents


def test_bad_snapshots_are_refused_clearly(env_case):
    env_id, config = env_case
    env = card_envs.make(env_id, **config)
    env.reset(seed=0)
    good = env.unwrapped.snapshot()
    with pytest.raises(ValueError, match="snapshot is a dict"):
        env.reset(options={"state": [1, 2]})
    with pytest.raises(ValueError, match="is for 'nope_v0'"):
        env.reset(options={"state": {**good, "env_id": "nope_v0"}})
    with pytest.raises(ValueError, match="config"):
        env.reset(options={"state": {**good, "config": {**good["config"], "extra": 1}}})
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    for key in ("env_id", "config", "state"):  # short messages, never a RecursionError
        with pytest.raises(ValueError) as refused:
            env.reset(options={"state": {**good, key: deep}})
        assert len(str(refused.value)) < 600  # as the fuzz: it names the field, never echoes the input
    broken = json.loads(json.dumps(good))
    broken["state"].pop(next(iter(broken["state"])))
    with pytest.raises(ValueError):
        env.reset(options={"state": broken})
    env.reset(options={"state": good})  # still usable afterwards
    assert env.unwrapped.snapshot() == good


def test_illegal_action_raises_naming_it_and_the_legal_ones(env_case):
    env_id, config = env_case
    env = card_envs.make(env_id, illegal_action="raise", **config)
    env.reset(seed=2)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = env.unwrapped.snapshot()
    with pytest.raises(ValueError, match=rf"{env.agent_selection}: action {illegal} \(.*\) is illegal.*legal: \d"):
        env.step(illegal)
    for bad in (-1, env.unwrapped.game.num_actions, "draw", 2.5, None, np.array(1.0), np.array(True), np.array([0])):
        with pytest.raises(ValueError, match=r"not an integer in 0\.\."):
            env.step(bad)
    assert env.unwrapped.snapshot() == before


def test_a_0d_integer_array_or_tensor_is_an_action(env_case):
    """What `Discrete.contains` accepts, and what `policy(obs).argmax()` returns in numpy or torch."""
    import torch

    env_id, config = env_case
    for make_action in (np.array, np.int16, torch.tensor):
        env = card_envs.make(env_id, illegal_action="raise", **config)
        env.reset(seed=2)
        legal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
        assert env.action_space(env.agent_selection).contains(np.array(legal))
        expected = card_envs.make(env_id, **config)
        expected.reset(seed=2)
        expected.step(legal)
        env.step(make_action(legal))
        assert env.unwrapped.snapshot() == expected.unwrapped.snapshot()


def test_illegal_action_penalize_ends_the_game(env_case):
    """PettingZoo classic's convention, and the default: the offender is penalized, with a warning."""
    env_id, config = env_case
    env = card_envs.make(env_id, illegal_reward=-2.5, **config)
    env.reset(seed=2)
    offender = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(offender)["action_mask"] == 0)[0])
    with pytest.warns(UserWarning, match=rf"{offender}: action {illegal} .*is illegal.*legal: \d"):
        env.step(illegal)
    assert all(env.terminations.values())
    assert env._cumulative_rewards[offender] == -2.5
    assert all(env._cumulative_rewards[a] == 0 for a in env.agents if a != offender)
    assert "illegal" in env.infos[offender]["illegal_action"]
    for agent in env.agent_iter():
        env.step(None)
    assert not env.agents


def test_make_refuses_bad_arguments(env_case):
    env_id, config = env_case
    with pytest.raises(ValueError, match="unknown env id 'nope_v9'.*registered: "):
        card_envs.make("nope_v9")
    with pytest.raises(TypeError, match="got an unexpected keyword argument 'colour'; its arguments are"):
        card_envs.make(env_id, colour="red")
    for bad in ({"render_mode": "rgb_array"}, {"illegal_action": "ignore"}, {"render_seat": 9},
                {"render_seat": True}, {"render_seat": 0.0}, {"num_players": 99}, {"reward": "money"},
                {"illegal_reward": float("nan")}, {"illegal_reward": float("-inf")}, {"illegal_reward": "-1"},
                {"illegal_reward": True}, {"auto_forced": "no"}, {"auto_forced": 1}, {"auto_forced": None}):
        with pytest.raises(ArgumentError, match="not supported|must be"):
            card_envs.make(env_id, **{**config, **bad})


# Each game's own arguments, refused like the shared ones: one kind of error (ArgumentError, a
# TypeError and a ValueError) for every bad constructor argument.
GAME_BAD_ARGUMENTS = [
    ("three_piles_v0", {"num_players": 5}, "num_players=5 is not supported"),
    ("three_piles_v0", {"num_players": 2.0}, "num_players=2.0 is not supported"),
    ("piles_v0", {"num_players": 3}, "num_players=3 is not supported"),
    ("illimat_v0", {"num_players": True}, "num_players=True is not supported"),
    ("illimat_v0", {"stars_always": 1}, "stars_always=1 must be True or False"),
    ("illimat_v0", {"luminaries": "yes"}, "luminaries='yes' must be True or False"),
    ("illimat_v0", {"target_score": 0}, "target_score=0 must be an integer in 1..100"),
    ("illimat_v0", {"rounds": 101}, "rounds=101 must be an integer in 1..100"),
    ("dominion_v0", {"reward": "rank"}, "reward='rank' is not supported; use one of"),
    ("dominion_v0", {"reward": ["win"]}, "reward=['win'] is not supported"),
    ("dominion_v0", {"kingdom": "T9"}, "kingdom='T9' is not supported"),
    ("split_the_hoard_v0", {"cards": "/nonexistent/cards.json"}, "cannot read the cards file"),
    ("split_the_hoard_v0", {"class_powers": "none"}, "class_powers='none' is not supported"),
]


@pytest.mark.parametrize("env_id, bad, message", GAME_BAD_ARGUMENTS)
def test_every_bad_game_argument_is_an_argument_error(env_id, bad, message):
    for make in (card_envs.make, card_envs.make_game):
        with pytest.raises(ArgumentError, match=re.escape(message)):
            make(env_id, **bad)


def test_numpy_numbers_are_accepted_as_arguments():
    assert card_envs.make_game("three_piles_v0", num_players=np.int64(3)).config["num_players"] == 3
    config = card_envs.make_game("illimat_v0", num_players=np.int64(3), stars_always=np.bool_(True)).config
    assert config["num_players"] == 3 and config["stars_always"] is True
    assert json.dumps(config)  # plain Python values: a snapshot's config stays JSON


def test_an_invalid_cards_file_is_a_bad_argument(tmp_path):
    path = tmp_path / "cards.json"
    path.write_text("{not json")
    with pytest.raises(ArgumentError, match="cards file cards.json: not valid JSON"):
        card_envs.make("split_the_hoard_v0", cards=str(path))


def test_calls_before_reset_are_refused(env_case):
    env_id, config = env_case
    env = card_envs.make(env_id, **config)
    with pytest.raises(AttributeError):
        env.agent_selection
    with pytest.raises(Exception, match="reset"):
        env.step(0)


# ----- documentation -------------------------------------------------------------------------
def test_docstring_observation_table_matches_the_layout(env_case):
    env_id, config = env_case
    if config:
        pytest.skip("the doc page shows the default configuration")
    game = card_envs.make_game(env_id)
    doc = importlib.import_module(type(game).__module__.rsplit(".", 1)[0]).__doc__
    assert game.observation_layout.markdown() in doc
    assert f"Discrete({game.num_actions})" in doc
    for section in ("## Description", "## Agents", "## Actions", "## Observation", "## Rewards",
                    "## Episode end", "## Arguments", "## Where we resolved the rulebook", "## Version history"):
        assert section in doc


def test_every_action_has_a_distinct_name(env_case):
    env_id, config = env_case
    game = card_envs.make_game(env_id, **config)
    names = [game.action_to_string(a) for a in range(game.num_actions)]
    assert all(names) and len(set(names)) == len(names)
    with pytest.raises(ValueError):
        game.action_to_string(game.num_actions)
    with pytest.raises(ValueError, match=r"action <int of 16610 bits> is not in"):  # echoed short, not digit-limited
        game.action_to_string(10**5000)


def test_agent_iter_insists_on_a_step_per_agent(env_case):
    env_id, config = env_case
    env = card_envs.make(env_id, **config)
    env.reset(seed=0)
    agents = iter(env.agent_iter())
    next(agents)
    with pytest.raises(AssertionError, match="need to call step"):
        next(agents)
    agents = iter(env.agent_iter())
    next(agents)
    env.reset(seed=1)  # a reset also counts
    next(agents)
