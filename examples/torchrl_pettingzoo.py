"""TorchRL: the AEC env through PettingZooWrapper (one group per seat, with the mask) and the
single-agent view through GymWrapper + the ActionMask transform; a masked policy collects data.

Caveat: the PettingZoo view is turn-based (only the seat to move acts; the others' masks are all
zeros), so give a group's action only where its mask has a legal entry.
"""

import os

import gymnasium
import torch
from tensordict.nn import TensorDictModule, TensorDictSequential
from torchrl.collectors import Collector
from torchrl.envs import ActionMask, TransformedEnv
from torchrl.envs.libs.gym import GymWrapper
from torchrl.envs.libs.pettingzoo import PettingZooWrapper
from torchrl.envs.utils import check_env_specs
from torchrl.modules import MaskedCategorical, ProbabilisticActor

import card_envs

quick = bool(os.environ.get("CARD_ENVS_QUICK"))
torch.set_num_threads(1)  # as the trainer (--threads 1): a thread per core, the default, is slower on busy cores

# Multi-agent: the AEC env as TorchRL sees it; a rollout of random legal actions.
marl = PettingZooWrapper(card_envs.make("three_piles_v0"), use_mask=True)
check_env_specs(marl)
print("groups:", list(marl.group_map), "rollout:", marl.rollout(20).batch_size)

# Single agent: a masked policy (logits from an MLP; MaskedCategorical reads the mask as bool).
env = TransformedEnv(GymWrapper(gymnasium.make("card_envs/ThreePiles-v0", mask_in_observation=True),
                                categorical_action_encoding=True), ActionMask())  # integer actions
check_env_specs(env)
obs_size, num_actions = env.observation_spec["observation"].shape[-1], env.action_spec.space.n
net = torch.nn.Sequential(torch.nn.Linear(obs_size, 64), torch.nn.ReLU(), torch.nn.Linear(64, num_actions))
logits = TensorDictSequential(TensorDictModule(net, in_keys=["observation"], out_keys=["logits"]),
                              TensorDictModule(torch.Tensor.bool, in_keys=["action_mask"], out_keys=["legal"]))  # int8
actor = ProbabilisticActor(logits, in_keys={"logits": "logits", "mask": "legal"}, distribution_class=MaskedCategorical,
                           return_log_prob=True)
collector = Collector(env, actor, auto_register_policy_transforms=False, frames_per_batch=64 if quick else 1024, total_frames=128 if quick else 8192)
for batch in collector:
    done = batch["next", "done"]
    print(f"{batch.numel()} frames, {int(done.sum())} games ended, mean final reward "
          f"{batch['next', 'reward'][done].mean().item() if done.any() else float('nan'):.2f}")
collector.shutdown()
