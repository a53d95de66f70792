"""The OpenSpiel binding (card_envs.openspiel): every env in every configuration as a pyspiel game.

- OpenSpiel's own checks (``pyspiel.random_sim_test``) on every configuration of the option matrix
  of tests/agents/test_scripted_every_config.py (full product or pairwise), one random game each;
- for random positions of the registry's test configurations, the OpenSpiel state, the AEC env
  (``auto_forced=False``, so it asks every decision) and the rules engine agree on the player to
  move, the legal actions and mask, every seat's observation and information-state tensors, the
  returns; states round-trip through ``serialize`` / ``deserialize_state`` (our JSON snapshots);
- hidden information: a seat's information-state and observation strings and tensors are the
  same in every twin position that differs only in what the seat cannot know
  (tests/envs/test_hidden_information.py's twins), and another seat's secret moves never show;
- shimmy's OpenSpielCompatibilityV0 around our games passes PettingZoo's api_test;
- the ``openspiel:<bot>`` players act legally, from determinizations only.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import card_envs  # noqa: E402
from card_envs.openspiel import OpenSpielGame, load_game, short_name  # noqa: E402
from card_envs.openspiel.game import NONE_TEXT, SEED, defaults, moves_text, player_counts  # noqa: E402
from tests.agents.test_scripted_every_config import CASES, case_id, cards_file, resolve  # noqa: E402,F401
from tests.conftest import ENV_CASES, Guard, random_walk  # noqa: E402
from tests.conftest import case_id as env_case_id  # noqa: E402
from tests.envs.test_envs import sampled_positions  # noqa: E402
from tests.envs.test_hidden_information import twins  # noqa: E402


def os_game(env_id: str, config: dict, seed: int = 0) -> OpenSpielGame:
    """The game through ``pyspiel.load_game`` by name and parameters where OpenSpiel can type them
    (None as the empty text), else (a kingdom given as a list) from the engine's configuration."""
    if any(isinstance(v, (list, tuple)) for v in config.values()):
        return OpenSpielGame.of(card_envs.make_game(env_id, **config), rng_seed=seed)
    params = {k: NONE_TEXT if v is None else v for k, v in config.items()}
    game = load_game(env_id, **params, **{SEED: seed})
    assert isinstance(game, OpenSpielGame) and game.engine.config == card_envs.make_game(env_id, **config).config
    return game


# ----- OpenSpiel's own checks, every configuration -------------------------------------------
# Options that only bound a game's length, set short here so that every configuration of the
# matrix (every value and pair of the others) costs little: full-length games of the default
# configurations are played in test_state_env_and_engine_agree.
SHORT = {"dominion_v0": {"max_turns": 3}, "illimat_v0": {"rounds": 1, "target_score": 5}}


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_every_configuration_passes_random_sim_test(case, cards_file):
    env_id, config = case
    config = {**resolve(config, cards_file), **SHORT.get(env_id, {})}
    game = os_game(env_id, config)
    engine = game.engine
    assert (game.num_players(), game.num_distinct_actions(), game.max_game_length()) == (
        engine.num_players, engine.num_actions, engine.max_game_length)
    assert game.observation_tensor_size() == game.information_state_tensor_size() == engine.observation_size
    assert pyspiel.Game.information_state_tensor_size(game) == engine.observation_size  # pyspiel's own count
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (*engine.reward_range, 0.0)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_parameters_are_the_env_arguments_and_refusals_name_them():
    for env_id in card_envs.list_envs():
        game_type = pyspiel.load_game(short_name(env_id)).get_type()
        assert set(game_type.parameter_specification) == set(defaults(env_id)) | {SEED}
        assert (game_type.min_num_players, game_type.max_num_players) == (
            min(player_counts(env_id)), max(player_counts(env_id)))
        assert game_type.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    three = pyspiel.load_game("card_envs_three_piles(num_players=3,reward=score)")
    assert three.engine.config == {"num_players": 3, "reward": "score"} and three.num_players() == 3
    with pytest.raises(Exception, match="num_players"):
        pyspiel.load_game("card_envs_piles(num_players=3)")  # 2 or 4: the Game's own ArgumentError
    with pytest.raises(Exception, match="rng_seed"):
        pyspiel.load_game("card_envs_piles(rng_seed=-5)")


def test_the_doc_page_lists_every_game_and_its_parameters():
    import card_envs.openspiel as binding

    assert binding.parameters_table() in binding.__doc__, "paste parameters_table() into the docstring"


def test_a_seed_reproduces_the_deals_and_games_differ():
    games = [load_game("three_piles_v0", rng_seed=7) for _ in range(2)]
    first, again = ([str(game.new_initial_state()) for _ in range(2)] for game in games)
    assert first == again and first[0] != first[1]


def test_serialize_game_and_state_needs_a_game_rng_python_games_lack():
    """pyspiel's Python bridge gives no Game::GetRNGState, which serialize_game_and_state asks of
    every sampled-stochastic game (so random_sim_test runs with serialize=False): the day it
    works, this fails and the tests should turn serialization on."""
    game = load_game("three_piles_v0", rng_seed=1)
    with pytest.raises(pyspiel.SpielError, match="GetRNGState"):
        pyspiel.serialize_game_and_state(game, game.new_initial_state())


# ----- OpenSpiel state == env == engine ------------------------------------------------------
def assert_agree(state, engine, env, step: int, tensors: bool) -> None:
    n = engine.game.num_players
    if engine.is_terminal():
        assert state.is_terminal() and state.current_player() == pyspiel.PlayerId.TERMINAL
        returns = np.array(state.returns())
        np.testing.assert_array_equal(returns, engine.returns())
        np.testing.assert_array_equal(returns, [env.rewards[a] for a in env.possible_agents])
        assert abs(returns.sum()) < 1e-9  # zero-sum, as the GameType says
        return
    seat = engine.current_player
    assert state.current_player() == seat and env.agent_selection == f"player_{seat}", step
    assert state.legal_actions() == sorted(engine.legal_actions()), step
    mask = env.observe(env.agent_selection)["action_mask"]
    np.testing.assert_array_equal(state.legal_actions_mask(seat), mask)
    np.testing.assert_array_equal(mask, engine.legal_mask())
    assert state.returns() == [0.0] * n
    if tensors:
        for p in range(n):
            mine = np.array(state.observation_tensor(p), dtype=np.float32)
            np.testing.assert_array_equal(mine, engine.observation(p))
            np.testing.assert_array_equal(mine, env.observe(f"player_{p}")["observation"])
            np.testing.assert_array_equal(np.array(state.information_state_tensor(p), dtype=np.float32), mine)
            through_cpp = pyspiel.State.information_state_tensor(state, p)  # pyspiel's own path, the observer
            np.testing.assert_array_equal(np.array(through_cpp, dtype=np.float32), mine)


def assert_round_trip(game, state) -> None:
    back = game.deserialize_state(state.serialize())
    assert str(back) == str(state) and back.history() == state.history()
    assert back.snapshot() == json.loads(json.dumps(state.snapshot()))
    for p in range(game.num_players()):
        assert back.information_state_string(p) == state.information_state_string(p)


@pytest.mark.parametrize("seed", [0])
@pytest.mark.parametrize("env_case", ENV_CASES, ids=[env_case_id(c) for c in ENV_CASES])
def test_state_env_and_engine_agree(env_case, seed):
    env_id, config = env_case
    game = os_game(env_id, config, seed)
    env = card_envs.raw_env(env_id, auto_forced=False, illegal_action="raise", **config)
    env.reset(seed=seed)
    snapshot = env.snapshot()["state"]
    engine = game.engine.state_from_json(snapshot)
    state = game.new_initial_state(snapshot)
    rng = np.random.default_rng(seed)
    step = 0
    while True:
        assert_agree(state, engine, env, step, tensors=step % 5 == 0 or engine.is_terminal())
        if step & (step - 1) == 0:
            assert_round_trip(game, state)
        if engine.is_terminal():
            break
        action = state.legal_actions()[rng.integers(len(state.legal_actions()))]
        assert state.action_to_string(action) == engine.game.action_to_string(action)
        state.apply_action(action)
        engine.apply(action)
        env.step(action)
        step += 1
    assert step == len(state.history()) <= game.max_game_length()


# ----- hidden information --------------------------------------------------------------------
def views(game, state, p) -> dict:
    return {"information state string": state.information_state_string(p),
            "information state tensor": state.information_state_tensor(p),
            "observation string": state.observation_string(p), "observation tensor": state.observation_tensor(p)}


@pytest.mark.parametrize("env_case", ENV_CASES, ids=[env_case_id(c) for c in ENV_CASES])
def test_a_seat_sees_nothing_it_cannot_know(env_case):
    env_id, config = env_case
    game = os_game(env_id, config)
    rng = np.random.default_rng(1)
    differed = 0
    for engine in sampled_positions(game.engine, 1, count=3):
        moves = [(0, 1, False), (1, 2, True)]  # a history the twins share: secret moves show as "?"
        state = game.wrap(engine, moves)
        for p in range(game.num_players()):
            mine = views(game, state, p)
            for twin, _ in twins(game.engine, engine, p, rng):
                if twin.to_json() == engine.to_json():
                    continue
                differed += 1
                assert views(game, game.wrap(twin, moves), p) == mine, f"{env_id} {config} seat {p}"
            resampled = state.resample_from_infostate(p, np.random.default_rng(p).random)
            assert views(game, resampled, p) == mine
    assert differed > 5


def test_another_seats_secret_moves_never_show():
    """Split the Hoard commits cards face down: a seat's strings are the same whatever another seat
    committed, and name its own commits."""
    game = load_game("split_the_hoard_v0", num_players=3, rng_seed=2)
    state = game.new_initial_state()
    rng = np.random.default_rng(2)
    while not state.is_terminal() and len(state.history()) < 400:
        state.apply_action(rng.choice(state.legal_actions()))
    moves = state.position.moves
    secret = [i for i, (_, _, hidden) in enumerate(moves) if hidden]
    assert secret, "no secret move in 400 decisions: the check below would be empty"
    for p in range(game.num_players()):
        other = [(seat, action + 1 if hidden and seat != p else action, hidden) for seat, action, hidden in moves]
        changed = state.clone()
        changed.position.moves = other
        assert changed.information_state_string(p) == state.information_state_string(p)
        own = [i for i in secret if moves[i][0] == p]
        shown = moves_text(moves, p).split()
        assert all(shown[i] == f"{p}:{moves[i][1]}" for i in own)
        assert all(shown[i].endswith(":?") for i in secret if moves[i][0] != p)


# ----- the PettingZoo round trip -------------------------------------------------------------
@pytest.mark.parametrize("env_id", card_envs.list_envs())
def test_shimmy_round_trip_passes_the_pettingzoo_api_test(env_id):
    from pettingzoo.test import api_test
    from shimmy import OpenSpielCompatibilityV0

    config = {"num_players": max(player_counts(env_id)), SEED: 0}
    env = OpenSpielCompatibilityV0(game_name=short_name(env_id), config=config)
    api_test(env, num_cycles=40)
    assert len(env.possible_agents) == config["num_players"]


# ----- OpenSpiel's bots as players -----------------------------------------------------------
@pytest.mark.parametrize("spec", ["openspiel:ismcts:simulations=12", "openspiel:mcts:simulations=6,determinizations=2"])
@pytest.mark.parametrize("env_id", ["three_piles_v0", "split_the_hoard_v0"])
def test_openspiel_bots_act_legally_from_determinizations_only(env_id, spec):
    from card_envs.agents import make_policy

    game = card_envs.make_game(env_id)
    policy = make_policy(spec, game)
    asked = 0
    for i, state in enumerate(random_walk(game, 3)):
        if state.is_terminal() or asked == 3:
            break
        if i % 4 == 0 and len(state.legal_actions()) > 1:
            guard = Guard(state, state.current_player)
            action = policy.act_state(guard, state.current_player, np.random.default_rng(i))
            assert action in state.legal_actions() and guard.determinizations >= 1
            asked += 1
    assert asked == 3


def test_openspiel_specs_are_checked():
    from card_envs.agents import make_policy

    game = card_envs.make_game("three_piles_v0")
    for spec, words in [("openspiel:alphazero", "unknown OpenSpiel bot"), ("openspiel:ismcts:sims=3", "sims"),
                        ("openspiel:mcts:simulations=0", "at least 1"), ("openspiel:mcts:uct_c=x", "float")]:
        with pytest.raises(ValueError, match=words):
            make_policy(spec, game)
