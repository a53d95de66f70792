"""``--max-minutes``: how a run's time limit is shared out between cloning, PPO and the final
evaluation (`TimePlan`), for `card_envs.train.ppo.Trainer`.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

# Under --max-minutes: the final evaluation's share of the limit (training, cloning included, has the
# rest); cloning's share of the training time at most; the teacher's games' share of cloning's time
# (the fit has the rest: Illimat's recipe spent 14.6 minutes on the games and 7.4 on the fit).
# Illimat's hour (cloning 22 of 54 minutes, a final evaluation of 2) fits within these shares.
FINAL_EVAL_SHARE = 0.1
CLONING_SHARE = 0.5
TEACHER_GAMES_SHARE = 2 / 3


def training_seconds(max_minutes: float) -> float:
    """The training time (cloning and PPO) of a run on ``--max-minutes`` (0: no limit, inf)."""
    return 60 * max_minutes * (1 - FINAL_EVAL_SHARE) if max_minutes else math.inf


@dataclass(frozen=True)
class TimePlan:
    """When each part of a run ends, in `time.perf_counter` seconds (inf: no time limit), from
    ``--max-minutes`` and the training time already spent (a resumed run's)."""

    teacher_games: float
    cloning: float
    training: float
    final_eval_seconds: float  # from the final evaluation's start

    @classmethod
    def of(cls, max_minutes: float, trained_seconds: float, now: float) -> "TimePlan":
        budget = training_seconds(max_minutes)
        cloning = now + CLONING_SHARE * budget - trained_seconds
        return cls(now + TEACHER_GAMES_SHARE * (cloning - now), cloning, now + budget - trained_seconds,
                   60 * max_minutes * FINAL_EVAL_SHARE if max_minutes else math.inf)

    @staticmethod
    def wall(at: float) -> float:
        """``at`` as a `time.time` (what another process can compare with)."""
        return time.time() + (at - time.perf_counter())


def seconds_text(seconds: float) -> str:
    """A duration as the run's messages print it: seconds below two minutes, else minutes."""
    return f"{max(0.0, seconds):.0f} s" if seconds < 120 else f"{seconds / 60:.1f} min"
