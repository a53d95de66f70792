"""Declarative registry of games, in the style of gymnasium's: id -> "module:Class" + defaults."""

from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass, field
from typing import Any

from card_envs.core.game import ArgumentError, Game


@dataclass(frozen=True)
class EnvSpec:
    id: str  # "three_piles_v0"
    entry_point: str  # "card_envs.games.three_piles:ThreePilesGame"
    kwargs: dict[str, Any] = field(default_factory=dict)
    gym_id: str = ""  # "card_envs/ThreePiles-v0" for the single-agent gymnasium env
    # Configurations the shared test suite runs (api, seed, mask, hidden information, snapshots).
    test_configs: tuple[dict[str, Any], ...] = ({},)


_REGISTRY: dict[str, EnvSpec] = {}


def register(spec: EnvSpec) -> None:
    if spec.id in _REGISTRY:
        raise ValueError(f"env id {spec.id!r} is already registered")
    _REGISTRY[spec.id] = spec


def list_envs() -> list[str]:
    return sorted(_REGISTRY)


def spec(env_id: str) -> EnvSpec:
    if env_id not in _REGISTRY:
        raise ValueError(f"unknown env id {env_id!r}; registered: {', '.join(list_envs())}")
    return _REGISTRY[env_id]


def game_class(env_id: str) -> type[Game]:
    module_name, class_name = spec(env_id).entry_point.split(":")
    return getattr(importlib.import_module(module_name), class_name)


def make_game(env_id: str, **config: Any) -> Game:
    """The rules engine for `env_id` with `config` over the registered defaults."""
    cls = game_class(env_id)
    if f"{cls.name}_v{cls.version}" != env_id:
        raise RuntimeError(f"{env_id} is registered to {cls.__name__}, which is {cls.name}_v{cls.version}")
    accepted = [p for p in inspect.signature(cls).parameters]
    unknown = sorted(set(config) - set(accepted))
    if unknown:  # Python's own wording: libraries' probes (TorchRL's frameskip) retry on its text
        got = ", ".join(f"an unexpected keyword argument {name!r}" for name in unknown)
        raise ArgumentError(f"{env_id} got {got}; its arguments are {accepted}")
    return cls(**{**spec(env_id).kwargs, **config})
