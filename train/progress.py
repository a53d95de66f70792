"""What a training run tells the person watching it: a bar on a terminal, plain lines elsewhere.

On a terminal the run has a tqdm bar, and its events (an evaluation, a checkpoint) are lines of
their own above it (`tqdm.write`). Where stdout is not a terminal (a log file, a cluster job) a bar
would be one line joined by carriage returns, so the run prints a plain progress line every
`PLAIN_INTERVAL` seconds instead (tqdm's own convention: `disable=None` turns the bar off there),
and the events as lines between them. ``--no-progress`` drops the bar and the periodic lines; the
events are still printed. The rate shown is the recent one (`RecentRate`), not the average since a
start that included the first rollout and the compile.
"""

from __future__ import annotations

import sys
import time
from collections import deque
from typing import TextIO

from tqdm import tqdm

PLAIN_INTERVAL = 30.0  # seconds between plain progress lines when stdout is not a terminal
RATE_WINDOW = 30.0  # seconds of history behind the recent rate


class RecentRate:
    """Steps per second over about the last `window` seconds (at least the last two points)."""

    def __init__(self, step: int, window: float = RATE_WINDOW, clock=time.perf_counter):
        self.window, self.clock = window, clock
        self.points: deque[tuple[float, int]] = deque([(clock(), step)])

    def add(self, step: int) -> float:
        now = self.clock()
        self.points.append((now, step))
        while len(self.points) > 2 and now - self.points[1][0] >= self.window:
            self.points.popleft()  # keep one point at or before the window's start
        (t0, s0), (t1, s1) = self.points[0], self.points[-1]
        return (s1 - s0) / (t1 - t0) if t1 > t0 else 0.0


class TrainingProgress:
    """The run's bar (a terminal) or plain periodic lines (anything else), and its event lines.

    `total`, `initial`: in steps, or in seconds of training with ``seconds=True`` (--max-minutes)."""

    def __init__(self, total: int, initial: int, seconds: bool, enabled: bool, stream: TextIO | None = None,
                 interval: float = PLAIN_INTERVAL, clock=time.perf_counter):
        self.stream = stream or sys.stdout
        self.total, self.n, self.seconds = total, min(initial, total), seconds
        self.interval, self.clock = interval, clock
        terminal = bool(getattr(self.stream, "isatty", lambda: False)())
        self.plain = enabled and not terminal
        self.bar = None
        if enabled and terminal:
            self.bar = tqdm(total=total, initial=self.n, desc="training", file=self.stream, dynamic_ncols=True,
                            **({"bar_format": "{desc}: {percentage:3.0f}%|{bar}| {n}/{total} s "
                                              "[{elapsed}<{remaining}{postfix}]"} if seconds else {"unit": "step"}))
        self.last_line = clock()

    def advance(self, n: int, postfix: str) -> None:
        """The run reached `n` (steps or seconds); `postfix`: its steps, rate and last evaluation."""
        self.n = min(n, self.total)
        if self.bar is not None:
            self.bar.update(self.n - self.bar.n)
            self.bar.set_postfix_str(postfix)
        elif self.plain and self.clock() - self.last_line >= self.interval:
            self.line(f"training {self._done()} | {postfix}")
            self.last_line = self.clock()

    def line(self, text: str) -> None:
        """An event, as a line of its own (above the bar on a terminal)."""
        if self.bar is not None:
            self.bar.write(text, file=self.stream)
        else:
            print(text, file=self.stream, flush=True)

    def close(self, postfix: str | None = None) -> None:
        if self.bar is not None:
            if postfix is not None:
                self.bar.set_postfix_str(postfix)
            self.bar.close()
        elif self.plain and postfix is not None:
            self.line(f"training {self._done()} | {postfix}")

    def _done(self) -> str:
        percent = 100.0 * self.n / self.total if self.total else 100.0
        unit = " s" if self.seconds else " steps"
        return f"{percent:3.0f}% ({self.n:,}/{self.total:,}{unit})"
