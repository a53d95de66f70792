"""Models trained by sb3-contrib's MaskablePPO as players: ``sb3:<path>.zip``.

``python -m card_envs.train.sb3`` writes ``model.zip`` (sb3's own format: ``MaskablePPO.load``
reads it) and beside it ``model.json``, its sidecar: the env id and game arguments it was trained
on, its seed, steps, network (``net_arch``) and the library versions. ``make_policy("sb3:<path>.zip",
game)`` builds `MaskablePolicy` from the two:

- The weights only: the zip's ``policy.pth`` through sb3's ``load_from_zip_file(load_data=False)``,
  which reads tensors with ``torch.load(weights_only=True)``, into a ``MaskableActorCriticPolicy``
  built for the game's spaces. ``MaskablePPO.load`` would also unpickle the zip's ``data`` entry
  (cloudpickle), which can run code, and a checkpoint must never be able to.
- A model of another game is refused, naming both; so is one whose network does not fit.
- It plays the most probable legal action (argmax of the masked distribution, sb3's
  ``deterministic=True``), as a checkpoint's `card_envs.agents.neural.NeuralPolicy` does by
  default; ``greedy=False`` samples from it with the caller's generator instead.
- ``act_batch`` is one forward pass for the whole batch, masks applied: the benchmark plays
  hundreds of games at once.
- Where the match's game has other observation options than the model's (Illimat's pieces), it
  reads each position through its own game (`card_envs.agents.policy.OwnObservationPolicy`).

Needs sb3-contrib (the ``benchmark`` extra); ValueError saying so where it is missing. torch and
sb3 are imported only when a model is loaded: programs read `PREFIX` from here without them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from card_envs.agents.policy import Policy, observing, observing_game
from card_envs.core.extras import missing
from card_envs.core.game import Game

PREFIX = "sb3:"
SIDECAR_FORMAT = 1
SIDECAR_KEYS = ("env_id", "env_config", "net_arch", "observation_size", "num_actions")


def sidecar_path(model: str | Path) -> Path:
    """``model.zip`` -> ``model.json``, the sidecar written beside it."""
    return Path(model).with_suffix(".json")


def read_sidecar(model: Path) -> dict[str, Any]:
    """The model's sidecar; ValueError where it is missing or lacks a field it must have."""
    path = sidecar_path(model)
    if not path.is_file():
        raise ValueError(f"{model} has no sidecar {path.name} beside it: sb3: players are the models that "
                         "python -m card_envs.train.sb3 writes (model.zip and model.json)")
    try:
        info = json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ValueError(f"{path} is not JSON: {error}") from None
    lacking = [key for key in SIDECAR_KEYS if not isinstance(info, dict) or key not in info]
    if lacking or info.get("format") != SIDECAR_FORMAT:
        raise ValueError(f"{path} is not a card_envs.train.sb3 sidecar of format {SIDECAR_FORMAT} "
                         f"(lacking {lacking or 'nothing'}, format {info.get('format') if isinstance(info, dict) else None})")
    return info


def spaces_of(game: Game):
    """The gymnasium view's spaces (`card_envs.gym.SingleAgentEnv`): what the model was built for."""
    from gymnasium import spaces

    return (spaces.Box(0.0, game.observation_layout.high(), dtype=np.float32), spaces.Discrete(game.num_actions))


def network(game: Game, net_arch: Any):
    """An untrained ``MaskableActorCriticPolicy`` (sb3's MlpPolicy) for ``game``'s spaces."""
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    return MaskableActorCriticPolicy(*spaces_of(game), lr_schedule=lambda _: 0.0, net_arch=net_arch)


class MaskablePolicy(Policy):
    """A MaskablePPO model's policy network behind the `Policy` interface.

    Args:
        net: its ``MaskableActorCriticPolicy``.
        greedy: the most probable legal action (default), or one sampled from the masked distribution.
    """

    name = "sb3"

    def __init__(self, net, greedy: bool = True):
        self.net, self.greedy = net, greedy
        net.set_training_mode(False)

    def act(self, observation, action_mask, rng) -> int:
        return int(self.act_batch(observation[None], action_mask[None], rng)[0])

    def act_batch(self, observations, action_masks, rng) -> np.ndarray:
        import torch

        from card_envs.agents.neural import sample

        masks = np.asarray(action_masks) != 0
        if not masks.any(axis=-1).all():
            raise ValueError("an action_mask row has no legal action")
        with torch.inference_mode():
            distribution = self.net.get_distribution(torch.as_tensor(observations, dtype=torch.float32),
                                                     action_masks=masks)
            if self.greedy:
                return distribution.get_actions(deterministic=True).numpy()
            logits = distribution.distribution.logits  # masked: illegal actions have probability 0
            return sample(logits, torch.from_numpy(rng.random((len(logits), 1)))).numpy()


def load(spec: str, game: Game, greedy: bool = True) -> Policy:
    """The ``sb3:<path>.zip`` model's policy for ``game`` (see the module docstring); ValueError
    naming what does not fit."""
    if missing("sb3_contrib"):
        raise ValueError(f"{spec}: sb3: players need sb3-contrib, which comes with the 'benchmark' extra: "
                         'pip install -e ".[benchmark]" -c constraints.txt')
    path = Path(spec.removeprefix(PREFIX))
    if not path.is_file():
        raise ValueError(f"no MaskablePPO model at {str(path)!r} (sb3:<path>.zip, as python -m card_envs.train.sb3 "
                         "writes it)")
    info = read_sidecar(path)
    env_id = f"{game.name}_v{game.version}"
    if info["env_id"] != env_id:
        raise ValueError(f"{path} was trained on {info['env_id']!r}, not {env_id!r}; use a model of {env_id!r}")
    own = observing_game(game, info["env_config"])
    if (info["observation_size"], info["num_actions"]) != (own.observation_size, own.num_actions):
        raise ValueError(f"{path} was trained with game config {info['env_config']} (observation "
                         f"{info['observation_size']}, actions {info['num_actions']}); this game {game.config}, "
                         f"observed with the model's options, has observation {own.observation_size}, actions "
                         f"{own.num_actions}")
    from stable_baselines3.common.save_util import load_from_zip_file

    try:
        _, params, _ = load_from_zip_file(path, load_data=False, device="cpu")
    except Exception as error:  # not a zip, or a zip without sb3's files
        raise ValueError(f"{path} is not a readable sb3 model: {str(error).splitlines()[0] if str(error) else error!r}"
                         ) from None
    if "policy" not in params:
        raise ValueError(f"{path} is not an sb3 model: it holds no policy.pth")
    net = network(own, info["net_arch"])
    try:
        net.load_state_dict(params["policy"])
    except RuntimeError as error:
        raise ValueError(f"{path}'s weights do not fit a MaskablePPO MlpPolicy with net_arch {info['net_arch']} "
                         f"for {env_id}: {' '.join(str(error).split())[:300]}") from None
    policy = MaskablePolicy(net, greedy)
    policy.name = f"sb3:{path.name}"
    policy.checkpoint_info = {k: info.get(k) for k in ("env_id", "env_config", "steps", "seed")}
    return observing(policy, game, own)
