"""What a training run prints where stdout is not a terminal (a log file, a cluster job): its
evaluations and checkpoints as lines of their own, plain periodic progress lines, no bar."""

from __future__ import annotations

import io

from card_envs.train.ppo import main
from card_envs.train.progress import RecentRate, TrainingProgress

SMALL = ["--num-games", "16", "--num-steps", "16", "--hidden", "32", "--eval-deals", "2",
         "--final-eval-deals", "2", "--actors", "0", "--no-eval-process", "--engine", "reference", "--no-compile"]


def test_a_run_logged_to_a_file_has_a_line_per_evaluation_and_checkpoint(tmp_path, capsys):
    # 1,024 steps of 256 an update: periodic evaluations at 512 and 1,024 (in the learner: none is
    # dropped for a busy evaluator), then the final one.
    assert main(["--run-name", "log", "--runs-dir", str(tmp_path), "--total-steps", "1024", "--eval-every", "512",
                 "--checkpoint-every", "512", *SMALL]) == 0
    out = capsys.readouterr().out
    assert "\r" not in out  # no bar redrawn in place: each line is a line
    evaluations = [line for line in out.splitlines() if line.startswith("evaluation at step")]
    assert [line.split(":")[0] for line in evaluations] == [
        "evaluation at step 512", "evaluation at step 1,024", "evaluation at step 1,024"]  # the last is the final one
    assert all("vs random" in line for line in evaluations)
    checkpoints = [line for line in out.splitlines() if line.startswith("checkpoint at step")]
    assert [line.split(":")[0] for line in checkpoints] == ["checkpoint at step 512", "checkpoint at step 1,024"]


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_plain_progress_lines_come_every_interval_and_not_as_a_bar():
    clock, stream = Clock(), io.StringIO()  # a StringIO is no terminal
    progress = TrainingProgress(1000, 0, seconds=False, enabled=True, stream=stream, interval=30, clock=clock)
    for step in range(100, 1001, 100):
        clock.now += 10
        progress.advance(step, f"SPS {step}")
    progress.line("evaluation at step 1,000: vs random 0.900 [0.80, 0.95]")
    progress.close("SPS 10")
    lines = stream.getvalue().splitlines()
    assert lines == ["training  30% (300/1,000 steps) | SPS 300", "training  60% (600/1,000 steps) | SPS 600",
                     "training  90% (900/1,000 steps) | SPS 900",
                     "evaluation at step 1,000: vs random 0.900 [0.80, 0.95]",
                     "training 100% (1,000/1,000 steps) | SPS 10"]


def test_no_progress_keeps_the_events_and_drops_the_periodic_lines():
    clock, stream = Clock(), io.StringIO()
    progress = TrainingProgress(1000, 0, seconds=False, enabled=False, stream=stream, interval=30, clock=clock)
    clock.now += 100
    progress.advance(500, "SPS 5")
    progress.line("checkpoint at step 500: x.pt")
    progress.close("SPS 5")
    assert stream.getvalue().splitlines() == ["checkpoint at step 500: x.pt"]


def test_the_rate_shown_is_the_recent_one():
    clock = Clock()
    rate = RecentRate(0, window=30, clock=clock)
    clock.now = 60.0  # a slow first update (a compile, the first rollout): 1,000 steps in 60 s
    assert rate.add(1000) == 1000 / 60
    for _ in range(10):  # then 1,000 steps a second
        clock.now += 5
        last = rate.add(int(1000 + 1000 * (clock.now - 60)))
    assert last == 1000.0  # the slow start has left the window
