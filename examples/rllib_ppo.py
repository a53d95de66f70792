"""Ray RLlib: multi-agent PPO with RLlib's action-masking module, self-play plus the scripted agent
as a fixed policy (card_envs.train.rllib.build_config), then the learner exported to our checkpoint format
and played against random. The command-line version is `python -m card_envs.train.rllib three_piles_v0`.

The env is RLlib's PettingZooEnv over card_envs.make(...) behind card_envs.train.rllib.RLlibObservations,
which only renames the "observation" key to the "observations" RLlib's masking module reads.
"""

import os
import tempfile

import ray
import torch

import card_envs
from card_envs.agents import make_policy
from card_envs.agents.match import seat_rotated_results
from card_envs.train.rllib import build_config, save_and_export

quick = bool(os.environ.get("CARD_ENVS_QUICK"))
# One torch thread, as the trainer (--threads 1), for RLlib's learner, which runs in this process;
# Ray gives its env runners OMP_NUM_THREADS=1 (one CPU each) itself.
torch.set_num_threads(1)
ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)  # or ray.init(address="auto")
config = build_config("three_piles_v0", opponents=["heuristic"], opponent_share=0.5, hidden=(64, 64),
                      num_env_runners=1, train_batch_size=256 if quick else 4000,
                      minibatch_size=128 if quick else 512, num_epochs=1 if quick else 4)
algo = config.build_algo()
for iteration in range(1 if quick else 10):
    result = algo.train()
    returns = result["env_runners"].get("module_episode_returns_mean", {})  # per module, NaN before one ends
    print(f"iteration {iteration}: mean return " + ", ".join(f"{name} {float(v):.3f}" for name, v in returns.items()))

with tempfile.TemporaryDirectory() as folder:
    exported = save_and_export(algo, folder, "three_piles_v0")  # RLlib's checkpoint + ours (.pt)
    game = card_envs.make_game("three_piles_v0")
    rewards = seat_rotated_results("three_piles_v0", [make_policy(str(exported), game), make_policy("random", game)],
                                   num_games=4 if quick else 200)
    print(f"exported learner vs random: win rate {(rewards[:, 0] > 0).mean():.2f} over {len(rewards)} games")
algo.stop()
ray.shutdown()
