"""The single-agent gymnasium env: registration, checker, opponents, masks, MaskablePPO."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import card_envs
from card_envs.agents import make_policy
from card_envs.gym import SingleAgentEnv

GYM_IDS = [card_envs.spec(env_id).gym_id for env_id in card_envs.list_envs()]


@pytest.mark.parametrize("gym_id", GYM_IDS)
def test_every_game_is_registered_and_passes_the_gymnasium_checker(gym_id):
    with pytest.warns(UserWarning):  # the checker's random actions are illegal: penalized, with a warning
        check_env(gymnasium.make(gym_id).unwrapped, skip_render_check=True)
        check_env(gymnasium.make(gym_id, mask_in_observation=True).unwrapped, skip_render_check=True)
    env = gymnasium.make(gym_id)
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    assert info["action_mask"].shape == (env.action_space.n,)


def play_episode(env, seed):
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace, reward, terminated = [obs], 0.0, False
    while not terminated:
        mask = env.unwrapped.action_masks()
        assert mask.any() and (mask == info["action_mask"].astype(bool)).all()
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert not truncated
        trace.append(obs)
    return trace, reward, info


def test_episodes_are_reproducible_and_end_with_the_learners_reward():
    game = card_envs.make_game("three_piles_v0")
    env = gymnasium.make("card_envs/ThreePiles-v0", opponents=make_policy("heuristic", game))
    first, reward, info = play_episode(env, 4)
    again, reward_again, _ = play_episode(env, 4)
    assert len(first) == len(again) and all((a == b).all() for a, b in zip(first, again))
    assert reward == reward_again
    scores, seat = info["scores"], env.unwrapped.learner_seat
    assert reward == np.sign(scores[seat] - scores[1 - seat])
    assert not env.unwrapped.action_masks().any()


def test_the_learner_sits_in_every_seat_and_only_at_its_own_turns():
    env = SingleAgentEnv("three_piles_v0", num_players=3)
    seats = set()
    for seed in range(12):
        env.reset(seed=seed)
        seats.add(env.learner_seat)
        assert env.state.current_player == env.learner_seat
    assert seats == {0, 1, 2}
    fixed = SingleAgentEnv("three_piles_v0", learner_seat=1)
    fixed.reset(seed=0)
    assert fixed.learner_seat == 1 and fixed.state.current_player == 1


def test_bad_arguments_are_refused_clearly():
    with pytest.raises(ValueError, match="learner_seat"):
        SingleAgentEnv("three_piles_v0", learner_seat=5)
    with pytest.raises(ValueError, match="only name accepted here is 'random'"):
        SingleAgentEnv("three_piles_v0", opponents="heuristic")
    with pytest.raises(ValueError, match="list of 2 such policies"):
        SingleAgentEnv("three_piles_v0", num_players=3, opponents=[make_policy("random", None)])
    for bad in ({"illegal_reward": float("nan")}, {"illegal_action": "ignore"}, {"auto_forced": "yes"},
                {"mask_in_observation": 1}, {"learner_seat": True}, {"render_mode": "human"}):
        with pytest.raises(ValueError, match="not supported|use"):
            SingleAgentEnv("three_piles_v0", **bad)
    env = SingleAgentEnv("three_piles_v0", illegal_action="raise")
    env.reset(seed=0)
    illegal = int(np.flatnonzero(env.action_masks() == 0)[0])
    with pytest.raises(ValueError, match="is illegal"):
        env.step(illegal)
    penalized = SingleAgentEnv("three_piles_v0")  # the default
    penalized.reset(seed=0)
    with pytest.warns(UserWarning, match=rf"action {illegal} .*is illegal.*legal"):
        _, reward, terminated, _, info = penalized.step(illegal)
    assert (reward, terminated) == (-1.0, True) and not info["action_mask"].any()


def test_library_probes_get_a_type_error_and_metadata_is_per_env():
    """TorchRL's GymEnv and SB3's make_vec_env retry without an argument only on a TypeError."""
    with pytest.raises(TypeError, match="got an unexpected keyword argument 'frameskip'; its arguments are"):
        gymnasium.make("card_envs/ThreePiles-v0", frameskip=4)
    with pytest.raises(TypeError, match="render_mode='rgb_array' is not supported"), warnings.catch_warnings():
        warnings.simplefilter("error")  # the TypeError alone: gymnasium does not warn first
        gymnasium.make("card_envs/ThreePiles-v0", render_mode="rgb_array")
    first, second = SingleAgentEnv("three_piles_v0"), SingleAgentEnv("piles_v0")
    first.metadata["render_modes"].append("rgb_array")
    assert second.metadata["render_modes"] == ["ansi"] and second.metadata["render_fps"] > 0


def test_sb3_make_vec_env_and_checker_work_with_no_arguments():
    env_util = pytest.importorskip("stable_baselines3.common.env_util")
    env_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # SB3's render_mode probe is refused without a warning
        vec = env_util.make_vec_env("card_envs/ThreePiles-v0", n_envs=2, seed=0)  # with render_mode="rgb_array"
    assert vec.reset().shape == (2, vec.observation_space.shape[0])
    with pytest.warns(UserWarning):
        env_checker.check_env(gymnasium.make("card_envs/Illimat-v0").unwrapped)


def test_mask_in_observation_gives_the_mask_with_the_vector():
    env = SingleAgentEnv("illimat_v0", mask_in_observation=True)
    obs, info = env.reset(seed=2)
    assert env.observation_space.contains(obs)
    np.testing.assert_array_equal(obs["action_mask"], info["action_mask"])
    np.testing.assert_array_equal(obs["observation"], env.state.observation(env.learner_seat))


def test_maskable_ppo_trains_on_it_unmodified():
    sb3_contrib = pytest.importorskip("sb3_contrib", reason="the bench extra installs sb3-contrib")
    env = gymnasium.make("card_envs/ThreePiles-v0")
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0)
    model.learn(128)
    obs, info = env.reset(seed=1)
    action, _ = model.predict(obs, action_masks=info["action_mask"].astype(bool))
    assert info["action_mask"][action] == 1
