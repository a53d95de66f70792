import sys

from card_envs.core.extras import require

require("python -m card_envs.train", "train", "torch", "tensorboard")  # before card_envs.train.ppo, which imports torch

from card_envs.train.ppo import main  # noqa: E402

if __name__ == "__main__":  # the actor process re-imports this module (multiprocessing "spawn")
    sys.exit(main())
