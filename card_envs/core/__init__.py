"""Core: the Game/State contract, registry, observation layouts, cards, reward schemes."""

from card_envs.core.game import Game, IllegalActionError, State
from card_envs.core.layout import Layout, Piece

__all__ = ["Game", "IllegalActionError", "Layout", "Piece", "State"]
