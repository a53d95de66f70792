"""Export an RLlib checkpoint written by ``python -m card_envs.train.rllib`` to our checkpoint format.

    python -m card_envs.train.rllib_export runs/rllib_three_piles_v0/rllib exported.pt
    python -m card_envs.evaluate three_piles_v0 exported.pt heuristic random

The learner is RLlib's PPO module built with ReLU, one shared trunk and single-layer heads
(`card_envs.train.rllib.build_config`): the same network as our `card_envs.agents.neural.ActorCritic`, so the
weights map 1:1, by name:

| RLlib module weight | ActorCritic weight |
|---|---|
| ``encoder.encoder.net.mlp.<i>.*`` | ``trunk.<i>.*`` |
| ``pi.net.mlp.0.*`` | ``policy_head.*`` |
| ``vf.net.mlp.0.*`` | ``value_head.*`` |

(RLlib's heads also hold a ``log_std_clip_param_const``, unused with a ``Discrete`` action space:
dropped). The hidden widths are read from the weights; the env id and game arguments from the
``card_envs.json`` that ``card_envs.train.rllib`` writes into each RLlib checkpoint. RLlib masks with
``logits + max(log(mask), FLOAT_MIN)`` and we with a fill of ``-1e9``: the logits of legal
actions, and so every greedy or sampled choice, are the same.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

LEARNER = "learner"  # the trained module's id in card_envs.train.rllib's MultiRLModule
METADATA = "card_envs.json"  # written by card_envs.train.rllib beside RLlib's own checkpoint files
_PREFIXES = (("encoder.encoder.net.mlp.", "trunk."), ("pi.net.mlp.0.", "policy_head."),
             ("vf.net.mlp.0.", "value_head."))


def export_weights(rllib_state: dict) -> dict:
    """Our ``ActorCritic`` state_dict from RLlib's PPO module state (names mapped 1:1)."""
    import torch

    out = {}
    for name, value in rllib_state.items():
        if name.endswith("log_std_clip_param_const"):
            continue
        for prefix, ours in _PREFIXES:
            if name.startswith(prefix):
                out[ours + name[len(prefix):]] = torch.as_tensor(np.asarray(value), dtype=torch.float32).clone()
                break
        else:
            raise ValueError(f"RLlib module weight {name!r} has no counterpart in card_envs.agents.neural.ActorCritic: "
                             "was the module built by card_envs.train.rllib (ReLU, one shared trunk, no head layers)?")
    return out


def hidden_widths(weights: dict) -> list[int]:
    """The trunk's layer widths, from its Linear weights (trunk.0, trunk.2, ...)."""
    layers = sorted(int(name.split(".")[1]) for name in weights if name.startswith("trunk.") and name.endswith(".weight"))
    return [int(weights[f"trunk.{i}.weight"].shape[0]) for i in layers]


def export_checkpoint(rllib_checkpoint: str | Path, out: str | Path) -> Path:
    """Write the learner module of a ``card_envs.train.rllib`` checkpoint as a `NeuralPolicy` checkpoint."""
    from ray.rllib.core.rl_module.rl_module import RLModule

    from card_envs.agents.neural import network_from_checkpoint, save_checkpoint
    import card_envs

    rllib_checkpoint = Path(rllib_checkpoint).resolve()
    metadata_path = rllib_checkpoint / METADATA
    if not metadata_path.is_file():
        raise ValueError(f"{rllib_checkpoint} is not a checkpoint written by card_envs.train.rllib: it has no {METADATA}")
    metadata = json.loads(metadata_path.read_text())
    module_path = rllib_checkpoint / "learner_group" / "learner" / "rl_module" / LEARNER
    if not module_path.is_dir():
        raise ValueError(f"{rllib_checkpoint} holds no {LEARNER!r} module (looked for {module_path})")
    module = RLModule.from_checkpoint(module_path)
    weights = export_weights(module.get_state())
    game = card_envs.make_game(metadata["env_id"], **metadata.get("game_config", {}))
    checkpoint = {"env_id": metadata["env_id"], "game_config": dict(metadata.get("game_config", {})),
                  "observation_size": game.observation_size, "num_actions": game.num_actions,
                  "hidden": hidden_widths(weights), "critic_size": None, "model": weights,
                  "args": {"trainer": "ray.rllib PPO (card_envs.train.rllib)", **metadata.get("args", {})},
                  "step": int(metadata.get("step", 0)), "update": 0, "seed": metadata.get("seed")}
    network_from_checkpoint(checkpoint)  # refuses weights that do not fit the network, before writing
    save_checkpoint(out, checkpoint)
    return Path(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m card_envs.train.rllib_export", description=__doc__.split("\n\n")[0])
    parser.add_argument("rllib_checkpoint", type=Path, help="an RLlib checkpoint folder written by card_envs.train.rllib")
    parser.add_argument("out", type=Path, help="the .pt file to write")
    args = parser.parse_args(argv)
    try:
        path = export_checkpoint(args.rllib_checkpoint, args.out)
    except (ValueError, FileNotFoundError) as error:
        parser.error(str(error))
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
