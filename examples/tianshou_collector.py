"""Tianshou 2.0: its PettingZooEnv over our AEC env, one masked random policy per seat, a Collector.
Replace MARLRandomDiscreteMaskedOffPolicyAlgorithm by e.g. DQN for the seats you train.

Caveat: Tianshou stores a step's reward vector on the transition of the seat that moved, so in
training the terminal reward of a seat that did not make the last move is lost for that seat
(the episode returns below still hold every seat's result).
"""

import os

import torch
from tianshou.algorithm import MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm
from tianshou.data import Collector
from tianshou.env import DummyVectorEnv, PettingZooEnv

import card_envs

torch.set_num_threads(1)  # Tianshou's batches are torch tensors: one thread, as the trainer (--threads 1)


def make():
    return PettingZooEnv(card_envs.make("three_piles_v0"))


env = make()
algorithm = MultiAgentOffPolicyAlgorithm(
    algorithms=[MARLRandomDiscreteMaskedOffPolicyAlgorithm(env.action_space) for _ in env.agents], env=env)
collector = Collector(algorithm, DummyVectorEnv([make] * 4))
stats = collector.collect(n_episode=4 if os.environ.get("CARD_ENVS_QUICK") else 100, reset_before_collect=True)
print(f"{stats.n_collected_episodes} games, {stats.n_collected_steps} decisions; "
      f"mean return per seat {stats.returns.mean(axis=0)}")
