"""Gymnasium vector envs: several games at once from the single-agent view, random legal moves.

Caveat: under autoreset a finished game's last info holds an all-zero mask (no action is legal
once it is over); the next step() only resets that env and ignores its action, so send any
action for such rows (here 0).
"""

import os

import gymnasium
import numpy as np

import card_envs  # noqa: F401  (registers card_envs/...-v0 with gymnasium)

steps = 50 if os.environ.get("CARD_ENVS_QUICK") else 2000
envs = gymnasium.make_vec("card_envs/ThreePiles-v0", num_envs=4, vectorization_mode="sync")
obs, info = envs.reset(seed=0)
rng = np.random.default_rng(0)
finished, wins = 0, 0
for _ in range(steps):
    masks = info["action_mask"].astype(bool)
    noise = np.where(masks, rng.random(masks.shape), -1.0)  # uniform over legal actions...
    actions = np.where(masks.any(axis=1), noise.argmax(axis=1), 0)  # ...any action after the end
    obs, rewards, terminated, truncated, info = envs.step(actions)
    finished += int(terminated.sum())
    wins += int((rewards[terminated] > 0).sum())
print(f"{finished} games finished, the learner seat won {wins} against random opponents")
envs.close()
