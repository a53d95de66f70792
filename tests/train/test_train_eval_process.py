"""Periodic evaluation beside training (`card_envs.train.evaluating.EvalProcess`): the same results as in
the learner, logged at the step whose weights were played, and never pausing the learner."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import torch

from tests.train.test_train import tiny_args
from card_envs.train.evaluating import FINAL_CHUNK, NICENESS, EvalProcess, evaluate_checkpoint, evaluate_policy
from card_envs.train.ppo import Trainer


class Writer:
    """The part of SummaryWriter the trainer uses, recording the scalars."""

    def __init__(self):
        self.scalars: dict[str, list[tuple[int, float]]] = {}

    def add_scalar(self, tag, value, step):
        self.scalars.setdefault(tag, []).append((step, value))

    def flush(self):
        pass


def test_the_process_gives_what_the_learner_would_and_runs_at_low_priority(tmp_path):
    trainer = Trainer(tiny_args(tmp_path, eval_deals=6))
    evaluator = EvalProcess(trainer.args)
    try:
        assert evaluator.submit(123, trainer.network.state_dict())
        assert not evaluator.submit(456, trainer.network.state_dict()), "one evaluation at a time"
        [(step, results, baselines)] = evaluator.poll(wait=True)
        stat = f"/proc/{evaluator.process.pid}/stat"  # field 19: the niceness, set once it started
        nice = int(open(stat).read().rsplit(")", 1)[1].split()[16]) if os.path.exists(stat) else None
        assert evaluator.poll() == [] and not evaluator.busy
        with torch.no_grad():  # a different network afterwards: the process kept its own copy
            for p in trainer.network.parameters():
                p.add_(1.0)
        assert evaluator.submit(7, trainer.network.state_dict())
        [(second_step, _, second_baselines)] = evaluator.poll(wait=True)
    finally:
        evaluator.close()
    assert not evaluator.process.is_alive()
    assert step == 123 and second_step == 7
    assert baselines == second_baselines and list(baselines) == [("random", "heuristic")]
    with torch.no_grad():
        for p in trainer.network.parameters():
            p.sub_(1.0)
    expected, expected_baselines = evaluate_policy(trainer.game, trainer.network, 6)
    assert results == expected and baselines == expected_baselines
    if nice is not None:
        assert nice == os.nice(0) + NICENESS


@pytest.mark.parametrize("eval_process", [True, False])
def test_training_logs_periodic_evaluations_at_their_steps(tmp_path, eval_process):
    args = tiny_args(tmp_path, total_steps=16 * 16 * 6, eval_every=16 * 16 * 2, eval_process=eval_process)
    trainer = Trainer(args)
    calls = []
    evaluate = trainer.evaluate
    trainer.evaluate = lambda deals: calls.append(deals) or evaluate(deals)
    writer = Writer()
    trainer.train(writer)
    steps = [step for step, _ in writer.scalars["eval/win_rate_vs_random"]]
    final = 16 * 16 * 6
    assert steps[-1] == final and all(step % (16 * 16) == 0 for step in steps)
    assert steps == sorted(steps) and len(steps) >= 2, steps
    # the final evaluation plays the saved checkpoint (`evaluate_checkpoint`), not the live network
    assert calls == ([] if eval_process else [args.eval_deals] * 3)
    assert trainer.evaluator is None  # stopped with training
    assert trainer.baseline_results is not None and "elo" in trainer.last_eval


class StarvedEvaluator:
    """An evaluator whose evaluations never finish (as Illimat's, at low priority beside two actors)."""

    def __init__(self, args):
        self.busy, self.waited, self.closed = False, False, False

    def submit(self, step, weights):
        self.busy = True
        return True

    def poll(self, wait=False):
        self.waited |= wait
        self.busy &= not wait  # waited for, it would finish at last
        return []

    def close(self):
        self.closed = True


@pytest.mark.parametrize("max_minutes, waited", [(0.02, False), (0, True)])
def test_a_periodic_evaluation_in_flight_is_dropped_when_the_time_limit_ends_the_run(
        tmp_path, monkeypatch, capsys, max_minutes, waited):
    evaluators = []
    monkeypatch.setattr("card_envs.train.ppo.EvalProcess", lambda args: evaluators.append(StarvedEvaluator(args)) or evaluators[-1])
    args = tiny_args(tmp_path, total_steps=10**9 if max_minutes else 16 * 16 * 4, max_minutes=max_minutes,
                     eval_every=16 * 16)
    trainer = Trainer(args)
    trainer.train(Writer())
    [evaluator] = evaluators
    assert evaluator.closed and evaluator.waited == waited and trainer.evaluator is None
    assert ("the periodic evaluation in flight is dropped" in capsys.readouterr().out) != waited
    assert "win_rate_vs_random" in trainer.last_eval  # the final evaluation, either way


def test_the_policy_holds_every_seat_of_its_team():
    """Piles: the evaluated policy plays both partners, in both team seatings; other games: seat
    0 only, in every rotation (as before)."""
    import card_envs
    from card_envs.agents import make_policy
    from card_envs.agents.match import rotated_match
    from card_envs.train.evaluating import games_per_deal, team_match

    game = card_envs.make_game("piles_v0")
    mine, other = make_policy("heuristic", game), make_policy("random", game)
    expected = rotated_match(game, [mine, other, mine, other], 10, seed=5, rotations=[0, 1])[:, 0]
    assert (team_match(game, mine, other, 10, seed=5) == expected).all() and len(expected) == 20
    assert games_per_deal(game) == 2  # what the trainer's final summary counts
    game = card_envs.make_game("three_piles_v0", num_players=3)
    mine, other = make_policy("heuristic", game), make_policy("random", game)
    expected = rotated_match(game, [mine, other, other], 10, seed=5)[:, 0]
    assert (team_match(game, mine, other, 10, seed=5) == expected).all() and len(expected) == 30
    assert games_per_deal(game) == 3


STOPPED_IN_A_CALLBACK = """
import ctypes, os, sys, time
from card_envs.train import evaluating
{install}

def inside():  # the signal is handled in here, inside a C callback (as numba's compiler calls back)
    os.kill(os.getpid(), evaluating.STOP)
    start = time.time()
    while time.time() - start < 0.5:
        pass

ctypes.CFUNCTYPE(None)(inside)()
time.sleep(5)
print("still running")
"""


@pytest.mark.parametrize("fixed", [False, True])
def test_a_stop_inside_a_c_callback_still_stops_the_evaluator_quietly(fixed):
    """The evaluator's SystemExit on STOP cannot leave a C callback: Python prints it as ignored,
    with a traceback, and goes on (seen when the signal hit numba compiling). The handler sends
    the signal again so that it is handled outside; the plain handler shows the failure."""
    install = ("evaluating.install_stop_handler()" if fixed else
               "import signal; signal.signal(evaluating.STOP, evaluating._exit_on_stop)")
    run = subprocess.run([sys.executable, "-c", STOPPED_IN_A_CALLBACK.format(install=install)],
                         capture_output=True, text=True, timeout=60)
    stopped_quietly = run.returncode == 0 and "still running" not in run.stdout and "Traceback" not in run.stderr
    assert stopped_quietly == fixed, (run.returncode, run.stdout, run.stderr)


def test_the_final_evaluation_of_a_checkpoint_does_not_depend_on_the_workers(tmp_path):
    """The end of a run evaluates its saved checkpoint with `python -m card_envs.evaluate`'s runner, in one
    process per core: the same numbers from 1 or 2 processes, the same measures as the periodic
    evaluations."""
    trainer = Trainer(tiny_args(tmp_path))
    path = str(trainer.save())
    deals = 2 * FINAL_CHUNK + 1  # three chunks per pairing, the last one short
    one, baselines = evaluate_checkpoint("three_piles_v0", trainer.game.config, path, deals, None, workers=1)
    two, same = evaluate_checkpoint("three_piles_v0", trainer.game.config, path, deals, None, workers=2)
    assert one == two and baselines == same and list(baselines) == [("random", "heuristic")]
    periodic, _ = evaluate_policy(trainer.game, trainer.network, 4, baselines)
    assert one.keys() == periodic.keys()
    assert sum(baselines[("random", "heuristic")]) == 2 * deals  # 2 seatings per deal
