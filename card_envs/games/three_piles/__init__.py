"""placeholder"""
from card_envs.games.three_piles.rules import ThreePilesGame, ThreePilesState

__all__ = ["ThreePilesGame", "ThreePilesState"]
