"""Agents behind one `Policy` interface: random, scripted per game (and later search, neural)."""

from __future__ import annotations

import importlib

from agents.policy import Policy, RandomPolicy
from card_envs.core.game import Game

__all__ = ["Policy", "RandomPolicy", "make_policy", "policy_names"]

# game name -> "module:Class" of its scripted agent, constructed with the Game.
SCRIPTED = {"three_piles": "agents.three_piles:ThreePilesHeuristic", "piles": "agents.piles:PilesHeuristic",
            "illimat": "agents.illimat:IllimatHeuristic"}


def policy_names(game: Game) -> list[str]:
    return ["random"] + (["heuristic"] if game.name in SCRIPTED else [])


def make_policy(name: str, game: Game) -> Policy:
    """A baseline by name: ``random`` or ``heuristic`` (the game's scripted agent)."""
    if name == "random":
        return RandomPolicy()
    if name == "heuristic" and game.name in SCRIPTED:
        module, cls = SCRIPTED[game.name].split(":")
        return getattr(importlib.import_module(module), cls)(game)
    raise ValueError(f"unknown policy {name!r} for {game.name}; available: {policy_names(game)}")
