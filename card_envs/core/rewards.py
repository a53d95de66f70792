"""Terminal reward schemes shared by the games."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from card_envs.core.game import ArgumentError

REWARD_MODES = ("win", "score")


def check_reward_mode(reward: str) -> str:
    """`reward` itself, or an ArgumentError (a bad constructor argument) naming the modes."""
    if not isinstance(reward, str) or reward not in REWARD_MODES:
        raise ArgumentError(f"reward={reward!r} is not supported; use one of {REWARD_MODES}")
    return reward


def rank_returns(scores: Sequence[float] | np.ndarray) -> np.ndarray:
    """(players beaten - players beating you) / (n - 1): +1/-1/0 for two sides, zero-sum for n.
    The scores of one game ([n]) or of many ([..., n], as a batched engine's finished games)."""
    s = np.asarray(scores, dtype=np.float64)
    beaten = (s[..., :, None] > s[..., None, :]).sum(axis=-1)
    beating = (s[..., :, None] < s[..., None, :]).sum(axis=-1)
    return (beaten - beating) / (s.shape[-1] - 1)


def score_returns(scores: Sequence[float] | np.ndarray, max_score: float) -> np.ndarray:
    """(own score - mean of the others) / max_score: in [-1, 1] and zero-sum. One game ([n]) or
    many ([..., n])."""
    s = np.asarray(scores, dtype=np.float64)
    others_mean = (s.sum(axis=-1, keepdims=True) - s) / (s.shape[-1] - 1)
    return (s - others_mean) / max_score


def terminal_returns(scores: Sequence[float], reward: str, max_score: float) -> np.ndarray:
    return rank_returns(scores) if reward == "win" else score_returns(scores, max_score)
