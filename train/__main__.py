import sys

from train.ppo import main

if __name__ == "__main__":  # the actor process re-imports this module (multiprocessing "spawn")
    sys.exit(main())
