"""Every registered game in the RL libraries, used as each library's docs show, with nothing of
ours in between beyond what docs/libraries.md names.

One test per library and game: SB3's check_env and make_vec_env, TorchRL's check_env_specs on both
views and through GymEnv by id, Tianshou's Collector, RLlib's env checker and one PPO iteration
(one local Ray instance for the module). Gymnasium's check_env and PettingZoo's state_test on every game live in tests/envs/test_gym.py and
tests/envs/test_envs.py. A library that is not installed skips its tests (the ``test`` extra installs them
all). The examples/ scripts run here too, with short settings, so they cannot rot.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import warnings
from pathlib import Path

import gymnasium
import pytest

import card_envs

ENV_IDS = card_envs.list_envs()
ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))


def gym_id(env_id: str) -> str:
    return card_envs.spec(env_id).gym_id


class no_illegal_actions(warnings.catch_warnings):
    """Masked play must never send an illegal action: our penalty warning becomes an error."""

    def __enter__(self):
        result = super().__enter__()
        warnings.filterwarnings("error", message=r".*is illegal")
        return result


# ----- Stable-Baselines3 ---------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_sb3_check_env(env_id):
    env_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    with pytest.warns(UserWarning):  # the checker's random actions are illegal: penalized, with a warning
        env_checker.check_env(gymnasium.make(gym_id(env_id)).unwrapped)
        env_checker.check_env(gymnasium.make(gym_id(env_id), mask_in_observation=True).unwrapped)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_sb3_make_vec_env_probe_is_silent(env_id):
    """make_vec_env asks every env for render_mode="rgb_array" and retries without it on our
    TypeError; gymnasium must not warn before the retry (one warning per env)."""
    env_util = pytest.importorskip("stable_baselines3.common.env_util")
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        vec = env_util.make_vec_env(gym_id(env_id), n_envs=2, seed=0)
        assert vec.reset().shape == (2, *vec.observation_space.shape)


# ----- TorchRL -------------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_torchrl_pettingzoo_wrapper(env_id):
    pytest.importorskip("torchrl")
    from torchrl.envs.libs.pettingzoo import PettingZooWrapper
    from torchrl.envs.utils import check_env_specs

    env = PettingZooWrapper(card_envs.make(env_id), use_mask=True)
    check_env_specs(env, seed=0)
    with no_illegal_actions():  # random actions drawn from the masked action spec
        rollout = env.rollout(50)
    assert rollout.batch_size[0] > 0


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_torchrl_gym_wrapper_with_action_mask(env_id):
    pytest.importorskip("torchrl")
    from torchrl.envs import ActionMask, TransformedEnv
    from torchrl.envs.libs.gym import GymWrapper
    from torchrl.envs.utils import check_env_specs

    env = TransformedEnv(GymWrapper(gymnasium.make(gym_id(env_id), mask_in_observation=True)), ActionMask())
    check_env_specs(env, seed=0)
    with no_illegal_actions():
        rollout = env.rollout(50)
    assert rollout.batch_size[0] > 0


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_torchrl_gym_env_by_id(env_id):
    """TorchRL's GymEnv(gym_id) passes frameskip and retries without it only on Python's own
    "unexpected keyword argument 'frameskip'" wording; no warning but our illegal-action penalty
    (check_env_specs sends unmasked random actions), and masked play with ActionMask."""
    pytest.importorskip("torchrl")
    from torchrl.envs import ActionMask, TransformedEnv
    from torchrl.envs.libs.gym import GymEnv
    from torchrl.envs.utils import check_env_specs

    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        warnings.filterwarnings("ignore", message=r".*is illegal")
        check_env_specs(GymEnv(gym_id(env_id)), seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)  # an illegal action too: the mask must hold
        env = TransformedEnv(GymEnv(gym_id(env_id), mask_in_observation=True, categorical_action_encoding=True),
                             ActionMask())
        check_env_specs(env, seed=0)
        rollout = env.rollout(50)
    assert rollout.batch_size[0] > 0


# ----- Tianshou ------------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_tianshou_collector(env_id):
    pytest.importorskip("tianshou")
    from tianshou.algorithm import MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm
    from tianshou.data import Collector
    from tianshou.env import DummyVectorEnv, PettingZooEnv

    def make():
        return PettingZooEnv(card_envs.make(env_id))

    env = make()
    algorithm = MultiAgentOffPolicyAlgorithm(
        algorithms=[MARLRandomDiscreteMaskedOffPolicyAlgorithm(env.action_space) for _ in env.agents], env=env)
    collector = Collector(algorithm, DummyVectorEnv([make, make]))
    with no_illegal_actions(), warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Sequence has shape")  # Tianshou's stats of vector returns
        stats = collector.collect(n_episode=2, reset_before_collect=True)
    assert stats.n_collected_episodes == 2
    # the episode returns hold every seat's terminal reward (the sum over seats of a two-sided game is 0)
    assert stats.returns.shape == (2, len(env.agents))


# ----- Ray RLlib -----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def ray_local():
    ray = pytest.importorskip("ray")
    pytest.importorskip("ray.rllib")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    yield ray
    ray.shutdown()


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_rllib_env_checker_and_one_ppo_iteration(env_id, ray_local):
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments
    from ray.tune.registry import register_env

    from card_envs.train.rllib import RLlibObservations

    def make(config):
        return PettingZooEnv(RLlibObservations(card_envs.make(env_id)))

    with warnings.catch_warnings():  # RLlib's checker sends an unmasked random action: often penalized
        warnings.filterwarnings("ignore", message=r".*is illegal")
        check_multiagent_environments(make({}))
    register_env(f"interop/{env_id}", make)
    config = (PPOConfig()
              .environment(f"interop/{env_id}", disable_env_checking=True)
              .env_runners(num_env_runners=0)
              .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, episode, **kw: "shared")
              .rl_module(rl_module_spec=RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                                                     model_config={"fcnet_hiddens": [32]}))
              .training(train_batch_size_per_learner=128, minibatch_size=64, num_epochs=1)
              .debugging(seed=0))
    algo = config.build_algo()
    try:
        with no_illegal_actions():
            result = algo.train()
    finally:
        algo.stop()
    assert result["env_runners"]["num_env_steps_sampled_lifetime"] >= 128


def test_rllib_trainer_with_scripted_opponents_exports_a_checkpoint_evaluate_takes(ray_local, tmp_path):
    """python -m card_envs.train.rllib: one iteration with an env runner (Ray places it), self-play and the
    scripted agent; its export loads in NeuralPolicy with RLlib's logits, and evaluate plays it."""
    import torch

    from card_envs.agents.neural import NeuralPolicy
    from card_envs.train import rllib

    out = tmp_path / "run"
    assert rllib.main(["three_piles_v0", "--iterations", "1", "--num-env-runners", "1", "--num-envs-per-env-runner",
                       "2", "--train-batch-size", "256", "--minibatch-size", "128", "--num-epochs", "1",
                       "--hidden", "32", "32", "--out", str(out)]) == 0  # joins the module's Ray instance
    exported = out / "checkpoints" / "latest.pt"
    policy = NeuralPolicy.from_checkpoint(exported, "three_piles_v0")
    assert (out / "rllib").is_dir() and policy.checkpoint_info["step"] >= 256

    # RLlib's checkpoint, exported again by the separate command, gives the same weights
    again = tmp_path / "again.pt"
    subprocess.run([sys.executable, "-m", "card_envs.train.rllib_export", str(out / "rllib"), str(again)], check=True,
                   cwd=ROOT, capture_output=True, text=True)
    theirs = NeuralPolicy.from_checkpoint(again).network.state_dict()
    assert all(torch.equal(value, theirs[name]) for name, value in policy.network.state_dict().items())

    # the exported network's logits are the RLlib module's, on the legal actions
    from ray.rllib.core.rl_module.rl_module import RLModule

    module = RLModule.from_checkpoint(out / "rllib" / "learner_group" / "learner" / "rl_module" / rllib.LEARNER)
    env = card_envs.make("three_piles_v0")
    env.reset(seed=3)
    obs = env.observe(env.agent_selection)
    mask = obs["action_mask"] != 0
    with torch.no_grad():
        theirs = module.forward_inference({"obs": {
            "observations": torch.as_tensor(obs["observation"][None]),
            "action_mask": torch.as_tensor(mask[None], dtype=torch.float32)}})["action_dist_inputs"][0]
        ours, _ = policy.network(torch.as_tensor(obs["observation"][None]), torch.as_tensor(mask[None]))
    torch.testing.assert_close(ours[0][mask], theirs[mask])

    done = subprocess.run([sys.executable, "-m", "card_envs.evaluate", "three_piles_v0", str(exported), "random", "--deals", "4",
                           "--out", str(tmp_path / "evaluate")], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.skipif(shutil.which("timeout") is None, reason="needs coreutils' timeout")
def test_rllib_trainer_stopped_by_timeout_saves_and_resumes(tmp_path):
    """`timeout` sends SIGTERM to the trainer and then to its process group (Ray's GCS and raylet
    included): the trainer saves what it trained, says how to resume, and the resume continues."""
    pytest.importorskip("ray.rllib")
    tiny = ["--num-env-runners", "0", "--num-envs-per-env-runner", "1", "--train-batch-size", "64",
            "--minibatch-size", "64", "--num-epochs", "1", "--hidden", "16", "--out", str(tmp_path / "run")]
    process = subprocess.Popen(["timeout", "--preserve-status", "600", sys.executable, "-m", "card_envs.train.rllib",
                                "three_piles_v0", *tiny], cwd=ROOT, text=True, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    for line in process.stdout:  # a first iteration, then the signal
        if line.startswith("iter 1 "):
            break
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=300)
    assert process.returncode == 128 + signal.SIGTERM, err[-3000:]
    assert "Traceback" not in err and "Failed to connect to GCS" not in err, err[-3000:]
    step = int(re.search(r"SIGTERM: stopped at step ([\d,]+)", out).group(1).replace(",", ""))
    assert step > 0 and f"resume with: python3 -m card_envs.train.rllib three_piles_v0 --out {tmp_path / 'run'} --resume" in out
    from card_envs.agents.neural import load_checkpoint

    assert load_checkpoint(tmp_path / "run" / "checkpoints" / "latest.pt")["step"] == step
    resumed = subprocess.run([sys.executable, "-m", "card_envs.train.rllib", "three_piles_v0", *tiny, "--resume",
                              "--iterations", "1", "--hidden", "32"], cwd=ROOT, capture_output=True, text=True,
                             timeout=300)
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    assert f"resuming from step {step:,}; kept the run's own --hidden" in resumed.stdout
    assert load_checkpoint(tmp_path / "run" / "checkpoints" / "latest.pt")["step"] > step


def test_rllib_trainer_refuses_bad_arguments(capsys):
    pytest.importorskip("ray.rllib")
    from card_envs.train import rllib

    for argv, message in ((["three_piles_v0", "--opponents", "nobody"], "--opponents"),
                          (["three_piles_v0", "--opponent-share", "2"], "--opponent-share"),
                          (["three_piles_v0", "--config", '{"num_players": 9}'], "--config"),
                          (["three_piles_v0", "--num-env-runners", "-1"], "--num-env-runners"),
                          (["three_piles_v0", "--iterations", "0"], "--iterations"),
                          (["three_piles_v0", "--max-minutes", "-1"], "--max-minutes")):
        with pytest.raises(SystemExit) as exit_info:
            rllib.parse_args(argv)
        assert exit_info.value.code == 2 and message in capsys.readouterr().err


# ----- the examples --------------------------------------------------------------------------
def test_every_library_has_an_example():
    names = {path.stem for path in EXAMPLES}
    assert {"torchrl_pettingzoo", "tianshou_collector", "rllib_ppo", "sb3_maskable_ppo", "gymnasium_vector"} <= names


@pytest.mark.parametrize("script", EXAMPLES, ids=lambda path: path.stem)
def test_example_runs(script):
    needs = {"torchrl": "torchrl", "tianshou": "tianshou", "rllib": "ray.rllib", "sb3": "sb3_contrib"}
    for prefix, module in needs.items():
        if script.stem.startswith(prefix):
            pytest.importorskip(module)
    done = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "CARD_ENVS_QUICK": "1"})
    assert done.returncode == 0, f"{script.name} failed:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    assert "is illegal" not in done.stderr  # every example plays masked actions only
