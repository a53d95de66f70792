"""Stable-Baselines3 (sb3-contrib's MaskablePPO) on the single-agent view, unmodified: it reads the
mask from env.action_masks(). Opponents are our scripted agent; then a few evaluation games."""

import os
import time

import gymnasium
import torch
from sb3_contrib import MaskablePPO

import card_envs
from card_envs.agents import make_policy

quick = bool(os.environ.get("CARD_ENVS_QUICK"))
# One torch thread, as `python -m card_envs.train` uses (its --threads): small networks gain nothing
# from more, and torch's default (a thread per core) spins against the env and anything else on the
# cores. On a busy 2-core machine this script took 241 s for its first 10,240 steps that way, 122 s in all with one.
torch.set_num_threads(1)
game = card_envs.make_game("three_piles_v0")
env = gymnasium.make("card_envs/ThreePiles-v0", opponents=make_policy("heuristic", game))
model = MaskablePPO("MlpPolicy", env, n_steps=64 if quick else 512, batch_size=64, seed=0, verbose=0)
total, start = 128 if quick else 50_000, time.monotonic()
while model.num_timesteps < total:  # in chunks, to say how far it is
    model.learn(min(10_000, total - model.num_timesteps), reset_num_timesteps=False)
    print(f"trained {model.num_timesteps:,} of {total:,} steps in {time.monotonic() - start:.0f} s", flush=True)

results = []
for seed in range(5 if quick else 200):
    obs, info = env.reset(seed=seed)
    terminated = False
    while not terminated:
        action, _ = model.predict(obs, action_masks=env.unwrapped.action_masks(), deterministic=True)
        obs, reward, terminated, truncated, info = env.step(int(action))
    results.append(reward)
print(f"win rate against the scripted agent: {sum(r > 0 for r in results) / len(results):.2f} over {len(results)} games")
