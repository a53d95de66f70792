import sys

from card_envs.core.extras import require

require("python -m train", "train", "torch", "tensorboard")  # before train.ppo, which imports torch

from train.ppo import main  # noqa: E402

if __name__ == "__main__":  # the actor process re-imports this module (multiprocessing "spawn")
    sys.exit(main())
