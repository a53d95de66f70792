"""Make a run's checkpoint fit to ship: the weights and what describes them, without the training
state (optimizer, random generators, opponent pool), as `agents/checkpoints/<env_id>.pt` are.

    python -m card_envs.train.ship runs/<run>/checkpoints/latest.pt agents/checkpoints/piles_v0.pt

The weights are bit-identical and keep their sha256; the file is written atomically.
"""

from __future__ import annotations

import argparse
import sys

from card_envs.agents.neural import load_checkpoint, save_checkpoint

TRAINING_STATE = ("optimizer", "rng", "torch_rng", "opponent_pool")


def ship(source: str, target: str) -> dict:
    """Write `source` without its training state to `target`; returns what was written."""
    checkpoint = load_checkpoint(source)
    shipped = {k: v for k, v in checkpoint.items() if k not in TRAINING_STATE + ("format", "model_sha256")}
    save_checkpoint(target, shipped)
    return load_checkpoint(target)  # and check it reads back, its hash matching


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m card_envs.train.ship", description=__doc__.splitlines()[0])
    parser.add_argument("checkpoint", help="a training checkpoint (.pt)")
    parser.add_argument("out", help="the weights-only file to write")
    args = parser.parse_args(argv)
    try:
        written = ship(args.checkpoint, args.out)
    except (ValueError, FileNotFoundError, OSError) as error:
        parser.error(str(error))
    print(f"wrote {args.out}: {written['env_id']} step {written.get('step', 0):,}, sha256 {written['model_sha256'][:12]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
