"""Evaluation during training: the greedy policy against the game's fixed baselines.

`evaluate_policy` plays the matches (seat-rotated, the same seeds every time, so that points on
the curve compare) and rates the policy by Bradley-Terry against the baselines.

`EvalProcess` runs it beside training in a low-priority child process: the learner hands over a
copy of the weights and the step, keeps training, and logs the result at that step when it comes
back. Periodic evaluation used to pause the learner (15-20% of throughput on 3 Piles, more on
Illimat, whose scripted agent is slow); at niceness 10 the evaluator mostly takes the cycles the
learner and the actor leave idle. Only one evaluation is in flight: one that falls due meanwhile
is played when the evaluator is free, with the weights of that moment.

`evaluate_checkpoint` measures the same for the run's saved final checkpoint, in one process per
core (``python -m card_envs.evaluate``'s runner): once training ends nothing else needs the cores, and the
final evaluation is the longest (on Illimat, 17 minutes in one process). Given a time limit
(``until``: a run on ``--max-minutes``), it stops between chunks of deals and rates the policy on
the deals played (``games_vs_<baseline>`` says how many games).

Every evaluation plays `evaluation_game`: the training game, except that a setting that trains on
part of the deals is evaluated on the part held out (`card_envs.train.configs.evaluation_config`).

`Evaluations` is the trainer's side (`card_envs.train.ppo.Trainer` is one): when the periodic
evaluations fall due and go to the evaluator, the final one, and how their results are logged.
"""

from __future__ import annotations

import os
import queue
import signal
import sys
import threading
import time
from functools import cached_property

import numpy as np
import torch
import torch.multiprocessing as mp

import card_envs
from card_envs.agents import make_policy, policy_names
from card_envs.agents.match import rotated_match, wilson_interval, win_draw_loss
from card_envs.agents.neural import ActorCritic, NeuralPolicy
from card_envs.evaluate.ratings import bradley_terry
from card_envs.evaluate.players import Player
from card_envs.evaluate.runner import available_cores, distinct_rotations, play_pairings, seating_pattern
from card_envs.train.acting import make_network, start_ignoring_stop_signals
from card_envs.train.configs import evaluation_config
from card_envs.train.timeplan import seconds_text

Results = dict[tuple[str, str], tuple[int, int, int]]  # (first, second) -> first's wins, draws, losses

NICENESS = 10  # the evaluator yields the CPU to the learner and the actor
# Deals per task of the final evaluation: few, so that a time limit stops it near there (it waits
# for the first chunk of every pairing: on Illimat, 5 deals are 30 games, about 5 s on 2 cores).
FINAL_CHUNK = 5
STOP = signal.SIGUSR1  # the learner's own stop signal (SIGTERM may come to the whole group)


def evaluation_game(env_id: str, config: dict):
    """The game the trainer's evaluations play: the training game's, except that a setting that
    trains on part of the deals deals the part held out (`card_envs.train.configs.evaluation_config`:
    Dominion's random kingdoms are evaluated on the held-out tenth)."""
    return card_envs.make_game(env_id, **evaluation_config(env_id, config))


def evaluate_policy(game, network: ActorCritic, deals: int, baseline_results: Results | None = None
                    ) -> tuple[dict[str, float], Results]:
    """Win rates (with Wilson 95% intervals), draw rates and mean rewards of the greedy policy
    (in every seat of its team) against each baseline, and its Elo; also the baselines' own
    match (played when not given, once per run: it does not change)."""
    me = NeuralPolicy(network, greedy=True)
    rewards = {name: team_match(game, me, make_policy(name, game), deals, seed=10_000) for name in policy_names(game)}
    if baseline_results is None:
        names = list(rewards)
        baseline_results = {
            (first, second): win_draw_loss(team_match(game, make_policy(first, game), make_policy(second, game),
                                                      deals, seed=20_000))
            for i, first in enumerate(names) for second in names[i + 1:]}
    return summarize(rewards, baseline_results), baseline_results


def evaluate_checkpoint(env_id: str, config: dict, checkpoint: str, deals: int, baseline_results: Results | None,
                        workers: int, progress: bool = False, until: float | None = None
                        ) -> tuple[dict[str, float], Results]:
    """`evaluate_policy` for a saved checkpoint, played by ``python -m card_envs.evaluate``'s runner in
    ``workers`` processes (the end of a run: nothing else needs the cores then; on Illimat one
    process took 17 minutes). Deals are chunked by `FINAL_CHUNK`, so the results do not depend
    on ``workers``. Past ``until`` (a `time.perf_counter` time) no more chunks are waited for:
    the results are those of the first chunks that every pairing finished (at least one)."""
    names = policy_names(card_envs.make_game(env_id, **config))
    pairs = [(Player("policy", checkpoint), Player(name, name)) for name in names]
    if baseline_results is None:
        pairs += [(Player(first, first), Player(second, second))
                  for i, first in enumerate(names) for second in names[i + 1:]]
    # compile_agents: the trainer compiled its scripted agents as it started (loaded from the cache here)
    played = play_pairings(env_id, config, pairs, deals, seed=10_000, workers=workers, chunk_deals=FINAL_CHUNK,
                           progress=progress, until=until, compile_agents=True)
    rewards = {result.b.label: result.reward_a for result in played[:len(names)]}
    if baseline_results is None:
        baseline_results = {(r.a.label, r.b.label): win_draw_loss(r.reward_a) for r in played[len(names):]}
    return summarize(rewards, baseline_results), baseline_results


def summarize(rewards: dict[str, np.ndarray], baseline_results: Results) -> dict[str, float]:
    """Per baseline, from the policy's rewards against it: its win, draw and mean reward rates, the
    win rate's Wilson 95% interval, the games they count; and the policy's Elo among the baselines."""
    results, scores = {}, {}
    for name, reward in rewards.items():
        wins, draws, losses = scores[name] = win_draw_loss(reward)
        low, high = wilson_interval(wins, len(reward))
        results.update({f"win_rate_vs_{name}": wins / len(reward), f"draw_rate_vs_{name}": draws / len(reward),
                        f"win_rate_vs_{name}_ci_low": low, f"win_rate_vs_{name}_ci_high": high,
                        f"mean_reward_vs_{name}": float(reward.mean()), f"games_vs_{name}": len(reward)})
    elo = elo_ratings({("policy", name): wdl for name, wdl in scores.items()} | baseline_results)
    results.update({"elo": elo["policy"][0], "elo_ci_low": elo["policy"][1], "elo_ci_high": elo["policy"][2]})
    return results


def games_per_deal(game) -> int:
    """How many games `team_match` plays per deal: one per distinct seating."""
    return len(distinct_rotations(seating_pattern(game, "field")))


def team_match(game, policy, other, deals: int, seed: int) -> np.ndarray:
    """Rewards of `policy`, which holds every seat of seat 0's team (both partners in Piles),
    `other` every other seat; each deal in every distinct seating."""
    pattern = seating_pattern(game, "field")  # as `python -m card_envs.evaluate` seats A against B
    seating = [(policy, other)[who] for who in pattern]
    return rotated_match(game, seating, deals, seed=seed, rotations=distinct_rotations(pattern))[:, 0]


def elo_ratings(results: Results) -> dict[str, tuple[float, float, float]]:
    """Bradley-Terry ratings in Elo (rating, 95% low, high) from (first, second) -> first's
    wins/draws/losses, with random anchored at 0 and one virtual draw per pair, so that a 100%
    score against random stays finite."""
    players = sorted({name for pair in results for name in pair}, key=lambda name: name != "random")
    wins = np.zeros((len(players), len(players)))
    for (first, second), (won, drawn, lost) in results.items():
        i, j = players.index(first), players.index(second)
        wins[i, j] += won + drawn / 2
        wins[j, i] += lost + drawn / 2
    fit = bradley_terry(wins, prior=1.0, anchor=0)
    return {name: (float(fit["elo"][k]), float(fit["low"][k]), float(fit["high"][k]))
            for k, name in enumerate(players)}


class EvalProcess:
    """Evaluations in a child process, one at a time: `submit` hands over weights, `poll` returns
    the finished (step, results) pairs."""

    def __init__(self, args):
        context = mp.get_context("spawn")  # a fresh interpreter, as the actor's
        self.jobs, self.done = context.Queue(), context.Queue()
        self.busy = False
        self.process = context.Process(target=_evaluator_main, daemon=True, name="card_envs-evaluator",
                                       args=(args, self.jobs, self.done))
        start_ignoring_stop_signals(self.process)  # the learner decides when it stops

    def submit(self, step: int, weights: dict[str, torch.Tensor]) -> bool:
        """Start evaluating these weights; False (and nothing started) while one is in flight."""
        if self.busy:
            return False
        # As numpy arrays: pickled by value (torch would pass tensors through shared memory).
        self.jobs.put((step, {k: v.detach().numpy().copy() for k, v in weights.items()}))
        self.busy = True
        return True

    def poll(self, wait: bool = False) -> list[tuple[int, dict[str, float], Results]]:
        """The finished evaluation, if any (waiting for the one in flight with ``wait``)."""
        if not self.busy:
            return []
        while True:
            try:
                step, results, baselines = self.done.get(timeout=1.0 if wait else 0.0)
                break
            except queue.Empty:
                if not self.process.is_alive():
                    raise RuntimeError(f"the evaluator process died (exit code {self.process.exitcode})") from None
                if not wait:
                    return []
        if isinstance(results, BaseException):
            raise RuntimeError("the evaluator process failed") from results
        self.busy = False
        return [(step, results, baselines)]

    def close(self) -> None:
        """Stop at once (`STOP`: the child unwinds); an evaluation in flight is dropped
        (`poll(wait=True)` first to keep it)."""
        if self.process.is_alive():
            os.kill(self.process.pid, STOP)
            self.process.join(timeout=10)
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=10)


def _exit_on_stop(signum, frame) -> None:
    sys.exit(0)


def _redeliver_stop(unraisable) -> None:
    """A `STOP` that lands inside a C callback (numba compiling through llvmlite calls back into
    Python) raises its SystemExit where it cannot propagate: Python prints it with a traceback as
    "ignored" and carries on. Send the signal again a moment later instead, from a thread (sent
    now, it would be handled inside this hook, still in the callback): by then the callback has
    returned. Anything else goes to the default hook."""
    if isinstance(unraisable.exc_value, SystemExit):
        threading.Timer(0.05, os.kill, (os.getpid(), STOP)).start()
    else:
        sys.__unraisablehook__(unraisable)


def install_stop_handler() -> None:
    """On `STOP` (from `close`), unwind: killed outright, the child leaves a semaphore behind and
    the resource tracker warns of it when the run ends."""
    signal.signal(STOP, _exit_on_stop)
    sys.unraisablehook = _redeliver_stop


def _evaluator_main(args, jobs, done) -> None:
    os.nice(NICENESS)
    install_stop_handler()
    torch.set_num_threads(1)
    import card_envs

    network = make_network(card_envs.make_game(args.env_id, **args.env_config), args)  # as the actors build it
    game = evaluation_game(args.env_id, args.env_config)
    learner, baselines = mp.parent_process(), None
    while learner.is_alive():
        try:
            step, weights = jobs.get(timeout=1.0)
        except queue.Empty:
            continue
        try:
            network.load_state_dict({k: torch.from_numpy(v) for k, v in weights.items()})
            results, baselines = evaluate_policy(game, network, args.eval_deals, baselines)
        except Exception as error:  # report it to the learner rather than die silently
            done.put((step, RuntimeError(f"{type(error).__name__}: {error}"), None))
            raise
        done.put((step, results, baselines))


class Evaluations:
    """The Trainer's evaluations (`card_envs.train.ppo.Trainer`, of which this is a part): the
    periodic ones, played by its ``evaluator`` (an `EvalProcess`) or in the learner, and the final
    one, logged under ``eval/`` and kept in ``last_eval``."""

    @cached_property
    def eval_game(self):
        """The game evaluations play (`evaluation_game`): held-out deals where training holds some out."""
        return evaluation_game(self.args.env_id, self.game.config)

    def evaluate(self, deals: int) -> dict[str, float]:
        """Greedy policy vs each baseline over the same seed list every time (comparable curves);
        the baselines' own match, for the Elo, is played once per run."""
        results, self.baseline_results = evaluate_policy(self.eval_game, self.network, deals, self.baseline_results)
        self.network.train()
        return results

    def stop_evaluator(self) -> None:
        if self.evaluator is not None:
            self.evaluator.close()
            self.evaluator = None

    def _periodic_eval(self, writer) -> None:
        """Log what the evaluator finished; start a due evaluation (in the learner without one)."""
        if self.evaluator is None:
            if self.eval_due:
                self._log_eval(writer)
                self.eval_due = False
            return
        self._log_finished(writer, self.evaluator.poll())
        if self.eval_due and self.evaluator.submit(self.step, self.network.state_dict()):
            self.eval_due = False

    def _finish_periodic_evals(self, writer, out_of_time: bool) -> None:
        """Log the periodic evaluation in flight and stop the evaluator. Where the run ended on
        --max-minutes, one not yet finished is dropped instead: the final evaluation supersedes it
        and needs the time left (on Illimat a starved one held the end of an hour's run 14 minutes)."""
        if self.evaluator is None:
            return
        self._log_finished(writer, self.evaluator.poll(wait=not out_of_time))
        if self.evaluator.busy:
            print("--max-minutes reached: the periodic evaluation in flight is dropped; the final one follows")
        self.stop_evaluator()

    def _log_finished(self, writer, finished) -> None:
        for step, results, baselines in finished:
            self.baseline_results = baselines  # the final evaluation's Elo reuses their match
            self._write_eval(writer, results, step)

    def _final_eval(self, writer) -> None:
        """`card_envs.evaluate` of the saved checkpoint over ``final_eval_deals``, in one process per core
        when it is longer than a chunk (a pool takes seconds to start); on --max-minutes, within
        its share (`TimePlan`), over fewer deals where they do not fit."""
        deals, began = self.args.final_eval_deals, time.perf_counter()
        workers = available_cores() if deals > FINAL_CHUNK else 1
        results, self.baseline_results = evaluate_checkpoint(
            self.args.env_id, self.eval_game.config, str(self.last_checkpoint), deals, self.baseline_results, workers,
            progress=self.args.progress, until=began + self.plan.final_eval_seconds)
        self.final_deals = results[f"games_vs_{policy_names(self.eval_game)[0]}"] // games_per_deal(self.eval_game)
        if self.final_deals < deals:
            print(f"--max-minutes: the final evaluation stopped at its share of it "
                  f"({seconds_text(self.plan.final_eval_seconds)}): {self.final_deals:,} of the {deals:,} deals asked")
        self._write_eval(writer, results, self.step)

    def _log_eval(self, writer, deals: int | None = None) -> None:
        self._write_eval(writer, self.evaluate(deals or self.args.eval_deals), self.step)

    def _write_eval(self, writer, results: dict[str, float], step: int) -> None:
        self.last_eval = results
        if writer is not None:
            for name, value in results.items():
                writer.add_scalar(f"eval/{name}", value, step)
            writer.flush()
        if results:
            self.say(f"evaluation at step {step:,}: {self._eval_text()}")

    def _eval_text(self) -> str:
        """The last evaluation in a few words: each win rate with its interval, and the Elo."""
        parts = []
        for name in policy_names(self.eval_game):
            if f"win_rate_vs_{name}" in self.last_eval:
                low, high = (self.last_eval[f"win_rate_vs_{name}_ci_{s}"] for s in ("low", "high"))
                parts.append(f"vs {name} {self.last_eval[f'win_rate_vs_{name}']:.3f} [{low:.2f}, {high:.2f}]")
        if "elo" in self.last_eval:
            parts.append(f"Elo {self.last_eval['elo']:.0f}")
        return " | ".join(parts)

    def _postfix(self, sps: float) -> str:
        text = f"{self.step:,} steps | SPS {sps:,.0f}" if self.args.max_minutes else f"SPS {sps:,.0f}"
        evaluation = self._eval_text()
        return f"{text} | {evaluation}" if evaluation else text
