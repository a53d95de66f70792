"""Our self-play PPO trainer vs sb3-contrib's MaskablePPO, same game, same wall time.

    pip install -e ".[bench]" -c constraints.txt
    python benchmarks/train_vs_maskable_ppo.py [--minutes 5] [--eval-deals 500]

Both run in this process, one after the other, with one torch thread each. Ours trains by
self-play with its default three_piles_v0 configuration (no learning-rate decay, as the run is
cut by time). MaskablePPO trains on the single-agent gymnasium env against the scripted agent
(the opponent it is evaluated against: its most favourable setting) with its default
hyperparameters. Printed: steps per second (ours counts every seat's decisions; MaskablePPO's
learner decisions, the opponents' are played inside its env.step) and each agent's win rate
against the scripted agent over seat-rotated paired games, with the Wilson 95% interval.
"""

from __future__ import annotations

import argparse
import tempfile
import time

import gymnasium
import numpy as np
import torch

import card_envs
from card_envs.agents import make_policy
from card_envs.agents.match import rotated_match, wilson_interval, win_draw_loss
from card_envs.agents.neural import NeuralPolicy
from card_envs.agents.policy import Policy
from card_envs.train.ppo import parse_args, start

ENV_ID = "three_piles_v0"


class MaskablePPOPolicy(Policy):
    """A trained MaskablePPO model behind our Policy interface (deterministic actions)."""

    name = "maskable_ppo"

    def __init__(self, model):
        self.model = model

    def act(self, observation, action_mask, rng) -> int:
        return int(self.act_batch(observation[None], action_mask[None], rng)[0])

    def act_batch(self, observations, action_masks, rng) -> np.ndarray:
        actions, _ = self.model.predict(observations, action_masks=action_masks.astype(bool), deterministic=True)
        return np.asarray(actions, dtype=np.int64)


def train_ours(minutes: float) -> tuple[Policy, float]:
    with tempfile.TemporaryDirectory() as runs:
        args, given = parse_args([ENV_ID, "--total-steps", str(10**10), "--max-minutes", str(minutes),
                                  "--no-anneal-lr", "--eval-every", "0", "--eval-deals", "1", "--final-eval-deals", "1",
                                  "--runs-dir", runs, "--run-name", "bench", "--no-progress"])
        trainer = start(args, given)
        began = time.perf_counter()
        trainer.train()
        return NeuralPolicy(trainer.network), trainer.step / (time.perf_counter() - began)


def train_maskable_ppo(minutes: float, game) -> tuple[Policy, float]:
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    class StopAfter(BaseCallback):
        def _on_step(self) -> bool:
            return time.perf_counter() < deadline

    env = gymnasium.make("card_envs/ThreePiles-v0", opponents=make_policy("heuristic", game))
    model = MaskablePPO("MlpPolicy", env, seed=0, verbose=0)
    began = time.perf_counter()
    deadline = began + 60 * minutes
    model.learn(total_timesteps=10**10, callback=StopAfter())
    return MaskablePPOPolicy(model), model.num_timesteps / (time.perf_counter() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=5.0, help="training wall time for each")
    parser.add_argument("--eval-deals", type=int, default=500, help="deals vs the scripted agent (x2 seatings)")
    args = parser.parse_args()
    torch.set_num_threads(1)
    game = card_envs.make_game(ENV_ID)
    heuristic = make_policy("heuristic", game)
    for name, train in (("ours (self-play PPO)", lambda: train_ours(args.minutes)),
                        ("sb3-contrib MaskablePPO", lambda: train_maskable_ppo(args.minutes, game))):
        policy, sps = train()
        rewards = rotated_match(game, [policy, heuristic], args.eval_deals, seed=20_000)[:, 0]
        wins, draws, losses = win_draw_loss(rewards)
        low, high = wilson_interval(wins, len(rewards))
        print(f"{name:26} {sps:>8,.0f} steps/s   vs heuristic: win {wins / len(rewards):.3f} "
              f"[{low:.3f}, {high:.3f}]  draw {draws / len(rewards):.3f}  ({len(rewards)} games, "
              f"{args.minutes:g} min of training)")


if __name__ == "__main__":
    main()
