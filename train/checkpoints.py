"""A run's checkpoints: what `card_envs.train.ppo.Trainer` saves and restores (`Checkpoints`, a
part of it), and the arguments of a resumed run (`resumed_args`). The format is
`card_envs.agents.neural`'s: written atomically, with the sha256 of the weights.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import torch

from card_envs.agents.neural import load_checkpoint, network_from_checkpoint, save_checkpoint
from card_envs.evaluate.report import check_writable
from card_envs.train.options import RESUMABLE, Args, resolve_auto


class Checkpoints:
    """The Trainer's saving and restoring (its ``args``, ``game``, ``network``, ``optimizer``,
    ``step``, ``update``, ``rng``, ``pool_states`` and the rest of its state)."""

    def network_spec(self) -> dict[str, Any]:
        """The network as `card_envs.agents.neural.network_from_checkpoint` rebuilds it (in another process)."""
        return {"env_id": self.args.env_id, "game_config": self.game.config,
                "observation_size": self.game.observation_size, "num_actions": self.game.num_actions,
                "hidden": list(self.args.hidden), "critic_size": self.network.critic_size,
                "entity_heads": self.args.entity_heads, "model": self.network.state_dict()}

    def checkpoint(self) -> dict[str, Any]:
        return {**self.network_spec(), "optimizer": self.optimizer.state_dict(), "args": self.args.to_json(),
                "step": self.step, "update": self.update, "seed": self.args.seed,
                "trained_seconds": self.trained_seconds, "cloned": self.cloned,
                "rng": json.dumps(self.rng.bit_generator.state), "torch_rng": torch.get_rng_state(),
                "opponent_pool": self.pool_states, "eval": self.last_eval}

    def save(self) -> Path:
        folder = self.run_dir / "checkpoints"
        path = folder / f"step_{self.step:012d}.pt"
        state = self.checkpoint()
        save_checkpoint(path, state)
        save_checkpoint(folder / "latest.pt", state)
        self.last_checkpoint = path
        return path

    def _load_weights(self, checkpoint: dict[str, Any], where: str = "checkpoint") -> None:
        """The checkpoint's weights into this run's network, refused (ValueError) where its shape differs."""
        expected = (self.game.observation_size, self.game.num_actions, list(self.args.hidden), self.network.critic_size,
                    self.args.entity_heads)
        found = (checkpoint["observation_size"], checkpoint["num_actions"], list(checkpoint["hidden"]),
                 checkpoint.get("critic_size"), bool(checkpoint.get("entity_heads")))
        if found != expected:
            raise ValueError(f"{where} network (obs, actions, hidden, critic, entity heads) = {found}, "
                             f"this run needs {expected} (its game config {checkpoint['game_config']}, this "
                             f"run's {self.game.config}: match them with --env-config, --hidden, --critic, "
                             "--entity-heads)")
        self.network.load_state_dict(network_from_checkpoint(checkpoint).state_dict())

    def _restore(self, checkpoint: dict[str, Any]) -> None:
        self._load_weights(checkpoint)
        self.optimizer.load_state_dict(checkpoint["optimizer"])
        self.step, self.update = checkpoint["step"], checkpoint["update"]
        self.trained_seconds = checkpoint.get("trained_seconds", 0.0)  # older checkpoints: the clock restarts
        self.cloned = checkpoint.get("cloned", self.update > 0 or not self.args.pretrain_games)
        self.rng.bit_generator.state = json.loads(checkpoint["rng"])
        torch.set_rng_state(checkpoint["torch_rng"])
        self.pool_states = list(checkpoint["opponent_pool"])
        self.last_eval = checkpoint.get("eval", {})


def resumed_args(args: Args, given: set[str]) -> tuple[Args, dict[str, Any]]:
    """The arguments and the checkpoint of ``--resume`` (``runs/<run_name>/checkpoints/latest.pt``):
    the saved arguments, but for those given that a resume may change (`RESUMABLE`)."""
    if not args.run_name:
        raise ValueError("--resume needs --run-name (the folder under --runs-dir to continue)")
    path = Path(args.runs_dir) / args.run_name / "checkpoints" / "latest.pt"
    if not path.is_file():
        raise ValueError(f"--resume: run {args.run_name!r} has no checkpoint to resume from (it stopped before "
                         "its first): start it again without --resume" if path.parent.parent.is_dir() else
                         f"--resume: there is no run {args.run_name!r} in {args.runs_dir}")
    checkpoint = load_checkpoint(path)
    missing = [k for k in ("args", "optimizer", "step", "update", "rng", "torch_rng", "opponent_pool")
               if k not in checkpoint]
    if missing:
        raise ValueError(f"cannot resume from {path}: it lacks the training state {missing} (weights only?)")
    saved = {"engine": "reference", **checkpoint["args"]}  # runs from before --engine: as they were
    if "env_id" in given and args.env_id != saved["env_id"]:
        raise ValueError(f"{path} was trained on {saved['env_id']!r}, not {args.env_id!r}")
    load_checkpoint(path, args.env_id if "env_id" in given else saved["env_id"])
    # The saved arguments win, except what may change on a resume.
    overrides = {k: getattr(args, k) for k in RESUMABLE if k in given}
    resumed = Args(**{**{k: tuple(v) if isinstance(v, list) else v for k, v in saved.items()},
                      **overrides, "resume": True, "runs_dir": args.runs_dir, "run_name": args.run_name})
    resumed.validate()
    resolve_auto(resumed)
    check_writable(path.parent)
    return resumed, checkpoint

