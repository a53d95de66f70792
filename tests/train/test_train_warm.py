"""The --max-minutes clock starts once the numba kernels are compiled: a slow warm-up (faked here,
longer than the whole limit) leaves the run its full training time, and the plan line says how
long compiling took and that the clock started after it."""

from __future__ import annotations

import time

from card_envs.agents.warm import Warmup
from card_envs.train.ppo import Trainer, training_seconds
from tests.train.test_train import tiny_args

COMPILING_S = 4.0  # longer than the run's whole limit below


def test_the_max_minutes_clock_starts_after_compiling(tmp_path, monkeypatch, capsys):
    ended = []

    def slow_warm_up(args):
        time.sleep(COMPILING_S)  # as a cold numba cache compiles
        ended.append(time.perf_counter())
        return Warmup(args.env_id, COMPILING_S, compiled=12)

    monkeypatch.setattr("card_envs.train.ppo.warm_up", slow_warm_up)
    args = tiny_args(tmp_path, max_minutes=0.05, total_steps=10**9)  # 3 s: 2.7 s of training
    trainer = Trainer(args)
    trainer.train()
    assert trainer.began >= ended[0]  # the clock started after the warm-up
    assert trainer.update >= 1  # had compiling counted, the limit would have passed before the first update
    assert trainer.trained_seconds >= 0.8 * training_seconds(args.max_minutes)  # the whole training time
    assert trainer.trained_seconds < training_seconds(args.max_minutes) + 2.0  # and no more
    out = capsys.readouterr().out
    assert f"--max-minutes 0.05 (its clock started after {COMPILING_S:.1f} s of compiling): training until 3 s" in out
