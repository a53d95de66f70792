"""Behaviour cloning before PPO (``--pretrain-games``): fit the network to the teacher's own games.

Kickstarting (``--teacher``) imitates the teacher on the learner's games inside PPO's loss; on
Illimat that taught far less than fitting the same network offline did (after 2.5M steps the
acting policy chose as the scripted agent in 56-60% of its decisions and won none of 400 games
against it; fitted on 1,000 of the agent's games, it agrees in 80% and wins 15%). So, before
the first rollout, the teacher plays ``games`` games against itself (every seat; forced
single-choice decisions played unasked, as in training), every decision with more than one legal
action is kept, and the network is fitted to them for ``epochs`` passes: the policy by masked
cross-entropy to the teacher's choices, the value head to the result each decision led to for the
seat that took it (discounted by ``gamma`` per own decision, as PPO's returns are), so that PPO
starts with a critic that already knows the game. The games are played on every core
(`teacher_games`: tasks of 32 games, each seeded apart, so the decisions do not depend on the
number of processes). Their observations are kept sparse, in float16 (`card_envs.train.demonstrations`),
and each minibatch is made dense as the fit reads it, the very values a dense float16 array held:
observations are 3-11% non-zero, and Illimat's default 5,000 games, kept dense, were 13.2 GB of a
14.1 GB peak, where sparse they are 0.87 GB and the run peaks at 2.4 GB (docs/results/illimat_v0.md).
Under a time limit (``until``: a run's ``--max-minutes``) every process stops its games then, keeping
those finished: fewer games than asked where they do not fit; the fit (``stop``) ends at a minibatch. A separate
privileged critic (``--critic state``) is fitted the same way on the full state each decision
was taken in: left at its random start, its advantages undid a Dominion clone within 2M steps
(0.045 against the teacher, where the same run with the shared-trunk critic stood at 0.475).

Soft labels (``--pretrain-temperature T``): the teacher's choice says which action won, not by how
much. A teacher that scores its actions (``action_scores``: Illimat's scripted agents) has each
decision's scores kept (``scored``), and the policy is fitted to softmax(score / T) of them
(`soft_targets`), so that its close calls read as close (docs/results/illimat_v0.md).

DAgger (``--dagger-rounds``, Ross et al. 2011) then corrects the clone where it goes its own way:
each round the clone (greedy, as it is evaluated) plays games against the opponents, the teacher
labels every decision the clone takes, and the network is refitted to all the decisions so far
(`student_games`, `clone` on the list of parts). A clone that agrees with its teacher in 94% of the
teacher's own decisions still reaches positions the teacher never does, where nothing taught it.

Written here rather than taken from a library: imitation libraries (e.g. ``imitation``) wrap
gymnasium envs and SB3 policies, not our AEC games' batched engines and our network.
"""

from __future__ import annotations

import math
import multiprocessing as mp
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
from tqdm import tqdm

import card_envs
from card_envs.agents import make_policy
from card_envs.agents.neural import ActorCritic, NeuralPolicy, network_from_checkpoint
from card_envs.evaluate.runner import available_cores, start_pool_worker
from card_envs.vector import VectorGames
from card_envs.train.acting import BatchGames, critic_inputs, critic_size
from card_envs.train.demonstrations import Demonstrations, Recorder, Rows, total_nonzeros
from card_envs.train.policy_terms import mask_offsets
from card_envs.train.sparse_linear import first_layer_for

LEARNING_RATE = 1e-3  # Adam's, for cloning: fitting fixed labels tolerates more than PPO's step
MINIBATCH = 256
HELD_OUT_BATCH = 4096  # held-out decisions scored at once
HELD_OUT = 0.05  # the share of decisions kept out of the fit, to report agreement on unseen ones
PARALLEL_GAMES = 64  # games stepped together while the teacher plays (it acts on all of them at once)
# Under a time limit: few, so that a task's games end one after another and a cut drops only those
# in play (a task's 32 games in step all end at about the same time: cut, it kept none). Scripted
# teachers play as fast either way, and the games are dealt from the same seeds, in another order.
TIMED_PARALLEL_GAMES = 4
GamesOn = Callable[[int, int], "VectorGames | BatchGames"]  # (num_games, seed) -> the games stepped together
TEACHER_CHUNK = 32  # games per task when the teacher's games are shared out between processes


def never() -> bool:
    return False


def play_teacher(game, teacher, games: int, seed: int, gamma: float = 1.0, progress: bool = False,
                 stop: Callable[[], bool] = never, privileged: bool = False, scored: bool = False,
                 parallel: int = PARALLEL_GAMES, games_on: GamesOn | None = None) -> Demonstrations:
    """``games`` games of ``teacher`` in every seat; the decisions with a choice, in the order
    they were taken. ``privileged`` keeps each decision's critic inputs too (the full state and
    the seat); ``scored``, the teacher's score of each action (`teacher_scores`). ``stop()`` true
    ends it early with the games finished so far (Ctrl-C, a time limit); ``parallel`` games are
    stepped together, by ``games_on(num_games, seed)`` (`VectorGames` of ``game`` by default)."""
    with tqdm(total=games, desc="teacher games", unit="game", disable=None if progress else True) as bar:
        return _record_games(game, teacher, games, seed, gamma, stop, privileged, scored, bar=bar,
                             parallel=parallel, games_on=games_on)[0]


@dataclass
class StudentRecord:
    """How the student did in its games (`play_student`)."""

    results: list[float]  # per game, the student's result
    agreed: int  # its decisions where it chose as the teacher
    decisions: int

    @property
    def win_rate(self) -> float:
        return float(np.mean(np.asarray(self.results) > 0)) if self.results else float("nan")

    @property
    def agreement(self) -> float:
        return self.agreed / self.decisions if self.decisions else float("nan")

    @classmethod
    def merge(cls, records: Iterable["StudentRecord"]) -> "StudentRecord":
        records = list(records)
        return cls([r for record in records for r in record.results], sum(r.agreed for r in records),
                   sum(r.decisions for r in records))


def play_student(game, student, teacher, opponent, games: int, seed: int, gamma: float = 1.0,
                 stop: Callable[[], bool] = never, privileged: bool = False, scored: bool = False,
                 parallel: int = PARALLEL_GAMES, games_on: GamesOn | None = None
                 ) -> tuple[Demonstrations, StudentRecord]:
    """``games`` games of ``student`` against ``opponent`` in every other seat, the student's seat
    moving round the table from one game to the next in each slot; the student's decisions with a
    choice, each labelled with the choice ``teacher`` makes there (DAgger), and how it did."""
    return _record_games(game, teacher, games, seed, gamma, stop, privileged, scored, student, opponent,
                         parallel=parallel, games_on=games_on)


def check_scored_teacher(teacher, name: str) -> None:
    """ValueError unless ``teacher`` (the policy ``name`` makes) scores its actions (`teacher_scores`)."""
    if not callable(getattr(teacher, "action_scores", None)):
        raise ValueError(f"soft labels (--pretrain-temperature above 0) need the teacher's score of each action, "
                         f"and {name!r} gives none (it has no action_scores method; Illimat's heuristic and "
                         f"lookahead have one): use --pretrain-temperature 0 or such a teacher")


def teacher_scores(teacher, observations: np.ndarray, masks: np.ndarray, rng: np.random.Generator
                   ) -> tuple[np.ndarray, np.ndarray]:
    """The teacher's choices (as ``act_batch`` makes them, drawing on ``rng`` alike) and its
    float32 [rows, A] score of each legal action (-inf: unscored), from its ``action_scores``
    (``action_scores_batch`` where it has one: Illimat's, compiled)."""
    if callable(getattr(teacher, "action_scores_batch", None)):
        chosen, scores = teacher.action_scores_batch(observations, masks, rng)
        return np.asarray(chosen, np.int64), np.asarray(scores, np.float32)
    chosen, scores = zip(*(teacher.action_scores(o, m, rng) for o, m in zip(observations, masks)))
    return np.array(chosen, np.int64), np.stack(scores)


def _record_games(game, teacher, games: int, seed: int, gamma: float, stop: Callable[[], bool], privileged: bool,
                  scored: bool = False, student=None, opponent=None, bar: tqdm | None = None,
                  parallel: int = PARALLEL_GAMES, games_on: GamesOn | None = None
                  ) -> tuple[Demonstrations, StudentRecord]:
    """`play_teacher` (no ``student``: the teacher in every seat, each of its decisions kept) and
    `play_student` (the student's decisions alone, each labelled with the teacher's choice)."""
    rng = np.random.default_rng(seed)
    games_on = games_on or (lambda num_games, seed: VectorGames(game, num_games, seed=seed))
    vector = games_on(min(games, parallel), int(rng.integers(2**63)))
    n = vector.num_games
    recorder = Recorder(n, game.observation_size, game.num_actions, critic_size(game, "state") if privileged else None,
                        scored)
    student_seats = np.arange(n) % game.num_players
    open_rows: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # (row, seat) per kept decision
    open_agreed = np.zeros(n, np.int64)
    record = StudentRecord([], 0, 0)
    while len(record.results) < games and not stop():
        observations, masks, seats = vector.observe()
        kept = np.ones(n, bool) if student is None else seats == student_seats
        chosen = student.act_batch(observations[kept], masks[kept], rng) if student is not None and kept.any() else None
        labels = np.empty(n, np.int64)
        scores = np.full((n, game.num_actions), -np.inf, np.float32) if scored else None
        if kept.any() and scored:
            labels[kept], scores[kept] = teacher_scores(teacher, observations[kept], masks[kept].astype(np.int8), rng)
        elif kept.any():
            labels[kept] = teacher.act_batch(observations[kept], masks[kept].astype(np.int8), rng)
        if not kept.all():
            labels[~kept] = opponent.act_batch(observations[~kept], masks[~kept].astype(np.int8), rng)
        actions = labels.copy()
        if chosen is not None:
            actions[kept] = chosen
        full = critic_inputs(vector.state_tensors(), seats, game.num_players) if privileged else None
        # VectorGames plays forced decisions unasked: every decision it shows has a choice.
        rows = recorder.add(observations, masks, labels, full, scores)
        for i in np.flatnonzero(kept):
            open_rows[i].append((rows + i, int(seats[i])))
        open_agreed += kept & (actions == labels)
        done, returns, _ = vector.step(actions)
        for i in np.flatnonzero(done):
            if len(record.results) < games:  # games still in play when the count is reached are dropped
                recorder.keep([row for row, _ in open_rows[i]], [seat for _, seat in open_rows[i]], returns[i], gamma)
                record.results.append(float(returns[i][student_seats[i]]))
                record.agreed += int(open_agreed[i])
                record.decisions += len(open_rows[i])
                if bar is not None:
                    bar.update()
            open_rows[i], open_agreed[i] = [], 0
            student_seats[i] = (student_seats[i] + 1) % game.num_players
    demos = recorder.demonstrations()
    demos.games = len(record.results)
    return demos, record


def teacher_games(env_id: str, env_config: dict[str, Any], teacher: str, games: int, seed: int,
                  gamma: float = 1.0, workers: int = 1, progress: bool = False, stop: Callable[[], bool] = never,
                  privileged: bool = False, scored: bool = False, until: float = math.inf,
                  engine: str = "reference") -> Demonstrations:
    """`play_teacher` by tasks of `TEACHER_CHUNK` games, task k seeded by (seed, k), played by
    ``workers`` processes (``teacher`` is a policy spec, as ``--teacher`` takes it): the same
    demonstrations whatever the number of workers, in task order (``games`` says how many games
    they hold). ``stop()`` true keeps the tasks finished so far (and, in one process, the games
    finished in the task in progress); at ``until`` (a `time.time`), every process stops its task
    in progress, keeping the games it finished. ``engine`` "batch" plays them on the game's batched
    engine (the same rules and observations; other deals)."""
    setup = _Setup(env_id, env_config, teacher, gamma, privileged, scored, until=until, engine=engine)
    parts = _play_tasks(setup, _tasks(games, seed), workers, progress, stop, "teacher games")
    return _joined(setup, parts)


def student_games(env_id: str, env_config: dict[str, Any], teacher: str, student: dict[str, Any],
                  opponents: Sequence[str], games: int, seed: int, gamma: float = 1.0, workers: int = 1,
                  progress: bool = False, stop: Callable[[], bool] = never, privileged: bool = False,
                  scored: bool = False, until: float = math.inf, engine: str = "reference"
                  ) -> tuple[Demonstrations, StudentRecord]:
    """`play_student` by tasks, as `teacher_games`: ``student`` is the network as
    `card_envs.agents.neural.network_from_checkpoint` takes it, playing greedily; task k plays against
    ``opponents[k % len(opponents)]`` and is seeded by ``seed`` (give each round its own) and k."""
    setup = _Setup(env_id, env_config, teacher, gamma, privileged, scored, student, tuple(opponents), until, engine)
    parts = _play_tasks(setup, _tasks(games, seed), workers, progress, stop, "student games")
    return _joined(setup, [demos for demos, _ in parts]), StudentRecord.merge(record for _, record in parts)


def workers_for(games: int) -> int:
    """Processes to play ``games`` games on before training: every core (nothing else runs before
    the first rollout), but no more than there are tasks."""
    return min(available_cores(), -(-games // TEACHER_CHUNK))


def _tasks(games: int, seed: int) -> list[tuple[int, int, int]]:
    """(games, seed, index) of each task: `TEACHER_CHUNK` games, task k seeded by (seed, k)."""
    return [(min(TEACHER_CHUNK, games - start), int(np.random.SeedSequence([seed, k]).generate_state(1)[0]), k)
            for k, start in enumerate(range(0, games, TEACHER_CHUNK))]


@dataclass(frozen=True)
class _Setup:
    """What every task of one call shares: the game, the teacher and, for DAgger, the student."""

    env_id: str
    env_config: dict[str, Any]
    teacher: str
    gamma: float
    privileged: bool
    scored: bool
    student: dict[str, Any] | None = None
    opponents: tuple[str, ...] = ()
    until: float = math.inf  # a time.time() at which every process ends its games (a time limit)
    engine: str = "reference"  # the games' engine: "reference" or "batch" (`acting.game_engine`)

    def out_of_time(self) -> bool:
        return time.time() >= self.until


def _play_tasks(setup: _Setup, tasks: list[tuple[int, int, int]], workers: int, progress: bool,
                stop: Callable[[], bool], desc: str) -> list:
    """Each task's result, in task order: played here (``workers`` 1) or by a pool of processes."""
    if setup.scored:  # here, before a pool's workers would each fail to start
        check_scored_teacher(make_policy(setup.teacher, card_envs.make_game(setup.env_id, **setup.env_config)),
                             setup.teacher)
    parts = []
    with tqdm(total=sum(task[0] for task in tasks), desc=desc, unit="game", disable=None if progress else True) as bar:
        if workers == 1:
            context = _Games(setup)
            for task in tasks:
                if stop() or setup.out_of_time():
                    break
                parts.append(context.play(task, stop))
                bar.update(_games_in(parts[-1]))
        else:
            with mp.get_context("spawn").Pool(workers, initializer=_init_worker, initargs=(setup,)) as pool:
                results = pool.imap(_play_task, tasks)
                for task in tasks:
                    part = _next_unless_stopped(results, stop)
                    if part is None:
                        break  # leaving the block terminates the tasks in progress
                    parts.append(part)  # past `until`, the tasks not yet begun come back at once, empty
                    bar.update(_games_in(part))
    return parts


def _games_in(part) -> int:
    """The games of a task's result: `Demonstrations`, or DAgger's (demonstrations, record)."""
    return part.games if isinstance(part, Demonstrations) else part[0].games


def _joined(setup: _Setup, parts: list[Demonstrations]) -> Demonstrations:
    game = card_envs.make_game(setup.env_id, **setup.env_config)
    sizes = (game.observation_size, game.num_actions, critic_size(game, "state") if setup.privileged else None,
             setup.scored)
    return Demonstrations.concatenate(_drain(parts), sum(len(part) for part in parts), sizes,
                                      total_nonzeros(part.nonzeros() for part in parts))


def _drain(items: list) -> Iterator:
    """``items`` in order, each dropped from the list as it is yielded."""
    while items:
        yield items.pop(0)


class _Games:
    """A process's game and policies, for the tasks of `teacher_games` and `student_games`."""

    def __init__(self, setup: _Setup):
        self.setup = setup
        self.game = card_envs.make_game(setup.env_id, **setup.env_config)
        self.teacher = make_policy(setup.teacher, self.game)
        self.student = None if setup.student is None else NeuralPolicy(network_from_checkpoint(setup.student))
        self.opponents = [make_policy(name, self.game) for name in setup.opponents]

    def play(self, task: tuple[int, int, int], stop: Callable[[], bool] = never):
        games, seed, index = task
        setup = self.setup
        stop = _either(stop, setup.out_of_time)
        parallel = PARALLEL_GAMES if math.isinf(setup.until) else TIMED_PARALLEL_GAMES
        if self.student is None:
            return play_teacher(self.game, self.teacher, games, seed, setup.gamma, stop=stop,
                                privileged=setup.privileged, scored=setup.scored, parallel=parallel,
                                games_on=self._games_on)
        return play_student(self.game, self.student, self.teacher, self.opponents[index % len(self.opponents)],
                            games, seed, setup.gamma, stop=stop, privileged=setup.privileged, scored=setup.scored,
                            parallel=parallel, games_on=self._games_on)

    def _games_on(self, num_games: int, seed: int):
        if self.setup.engine == "batch":
            return BatchGames(self.setup.env_id, self.setup.env_config, num_games, seed)
        return VectorGames(self.game, num_games, seed=seed)


_WORKER_GAMES: _Games | None = None


def _init_worker(setup: _Setup) -> None:
    global _WORKER_GAMES
    start_pool_worker()
    torch.set_num_threads(1)
    _WORKER_GAMES = _Games(setup)


def _either(first: Callable[[], bool], second: Callable[[], bool]) -> Callable[[], bool]:
    return lambda: first() or second()


def _next_unless_stopped(results, stop: Callable[[], bool]):
    """The next finished task, or None once ``stop()`` is true (checked every second: a signal
    that killed a worker would otherwise leave us waiting for its task forever)."""
    while not stop():
        try:
            return results.next(timeout=1.0)
        except mp.TimeoutError:
            pass
    return None


def _play_task(task: tuple[int, int, int]):
    return _WORKER_GAMES.play(task)


def clone(network: ActorCritic, demos: Demonstrations | Sequence[Demonstrations], epochs: int, seed: int,
          vf_coef: float = 0.5, progress: bool = False, stop: Callable[[], bool] = never, temperature: float = 0.0
          ) -> list[dict[str, float]]:
    """Fit ``network`` to ``demos`` (one set, or a list of parts fitted as one) for ``epochs``
    passes; per epoch, the mean losses on the fitted decisions and the share of the held-out ones
    where the greedy policy chose as the teacher. The policy's target is the teacher's choice, or
    with ``temperature`` above 0 its scores' `soft_targets` (which the demonstrations must keep:
    ``scored``). Each part's held-out decisions are drawn from ``seed`` in turn, so a part keeps
    them when later parts are added (DAgger's refits). A separate critic (``--critic state``) is
    fitted on the demonstrations' critic inputs, which it needs. ``stop()`` true (Ctrl-C, a time
    limit) ends it at the next minibatch, the epoch in progress counted over those fitted."""
    parts = [demos] if isinstance(demos, Demonstrations) else list(demos)
    if network.critic is not None and any(part.critic_inputs is None for part in parts):
        raise ValueError("the network has a separate critic: play_teacher(..., privileged=True) keeps its inputs")
    if temperature > 0 and any(part.scores is None for part in parts):
        raise ValueError("soft targets (temperature > 0) need the teacher's scores: play_teacher(..., scored=True)")
    with all_cores():
        return _fit(network, parts, epochs, seed, vf_coef, progress, stop, temperature)


def soft_targets(scores: torch.Tensor, temperature: float) -> torch.Tensor:
    """softmax(scores / temperature) per row: the teacher's close calls shared between their
    actions, its clear ones near one-hot; unscored actions (-inf) get 0. Why: the clone of
    Illimat's bot missed its close calls, and fitted to these it won more (docs/results/illimat_v0.md)."""
    return torch.softmax(scores.float() / temperature, dim=1)


@contextmanager
def all_cores():
    """Torch on every core this process may use, then back to its thread count: nothing else
    runs while cloning (the actors start after it), and the fit is about 2x faster on 2 cores."""
    before = torch.get_num_threads()
    torch.set_num_threads(max(before, available_cores()))
    try:
        yield
    finally:
        torch.set_num_threads(before)


def _fit(network: ActorCritic, parts: list[Demonstrations], epochs: int, seed: int, vf_coef: float,
         progress: bool, stop: Callable[[], bool], temperature: float) -> list[dict[str, float]]:
    generator = torch.Generator().manual_seed(seed)
    held, fit = _split(parts, generator)
    x, y, masks, targets, full, scores = (
        Rows([getattr(part, name) for part in parts])
        for name in ("observations", "actions", "masks", "returns", "critic_inputs", "scores"))
    optimizer = torch.optim.Adam(network.parameters(), lr=LEARNING_RATE)
    history = []
    network.train()
    for _ in tqdm(range(epochs), desc="cloning", unit="epoch", disable=None if progress else True):
        if stop() or not len(fit):
            break
        policy_sum = value_sum = 0.0
        fitted = 0
        for batch in fit[torch.randperm(len(fit), generator=generator)].split(MINIBATCH):
            if fitted and stop():
                break
            observations, legal = x[batch].float(), masks[batch]
            logits, values = network.heads(observations, full[batch], legal=legal,
                                           first_layer=first_layer_for(observations))
            target = soft_targets(scores[batch], temperature) if temperature > 0 else y[batch]
            policy_loss = torch.nn.functional.cross_entropy(logits + mask_offsets(legal), target)
            loss = policy_loss
            if values is not None:
                value_loss = 0.5 * (values - targets[batch]).square().mean()
                loss = loss + vf_coef * value_loss
                value_sum += value_loss.item() * len(batch)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            policy_sum += policy_loss.item() * len(batch)
            fitted += len(batch)
        agreement = float("nan")
        if len(held):
            with torch.no_grad():  # in parts: entity heads hold [rows, entities, width] at once
                chosen = torch.cat([_held_out_choices(network, x[part].float(), masks[part])
                                    for part in held.split(HELD_OUT_BATCH)])
            agreement = float((chosen == y[held]).float().mean())
        history.append({"imitation": policy_sum / fitted, "value_loss": value_sum / fitted,
                        "held_out_agreement": agreement})
    return history


def _held_out_choices(network: ActorCritic, observations: torch.Tensor, legal: torch.Tensor) -> torch.Tensor:
    """The network's most likely legal action for each row."""
    return (network.heads(observations, legal=legal)[0] + mask_offsets(legal)).argmax(1)


def _split(parts: list[Demonstrations], generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """(held-out, fitted) row numbers of ``parts`` read as one: `HELD_OUT` of each part, drawn part
    by part, so that a part's held-out rows do not change when parts are added after it."""
    held, fit, start = [], [], 0
    for part in parts:
        order = torch.randperm(len(part), generator=generator) + start
        held.append(order[:int(len(part) * HELD_OUT)])
        fit.append(order[len(held[-1]):])
        start += len(part)
    return torch.cat(held), torch.cat(fit)
