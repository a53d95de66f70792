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
number of processes) and their observations kept in float16 (half the memory). Under a time
limit (``until``: a run's ``--max-minutes``) every process stops its games then, keeping those
finished: fewer games than asked where they do not fit; the fit (``stop``) ends at a minibatch. A separate
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
from card_envs.train.acting import critic_inputs, critic_size
from card_envs.train.policy_terms import mask_offsets

LEARNING_RATE = 1e-3  # Adam's, for cloning: fitting fixed labels tolerates more than PPO's step
MINIBATCH = 256
HELD_OUT_BATCH = 4096  # held-out decisions scored at once
HELD_OUT = 0.05  # the share of decisions kept out of the fit, to report agreement on unseen ones
PARALLEL_GAMES = 64  # games stepped together while the teacher plays (it acts on all of them at once)
# Under a time limit: few, so that a task's games end one after another and a cut drops only those
# in play (a task's 32 games in step all end at about the same time: cut, it kept none). Scripted
# teachers play as fast either way, and the games are dealt from the same seeds, in another order.
TIMED_PARALLEL_GAMES = 4
TEACHER_CHUNK = 32  # games per task when the teacher's games are shared out between processes
# Observations are kept in float16: half the memory, so twice the games fit (Illimat's 5,808 floats
# a decision made 2,500 games 13.6 GB in float32). Their entries are counts, flags and fractions;
# float16's three significant digits lose nothing a network fitted to them could use.
OBSERVATION_DTYPE = np.float16
SCORE_DTYPE = np.float16  # the teacher's action scores (`scored`): differences of a few card weights


@dataclass
class Demonstrations:
    """The teacher's decisions: what it saw, could do and did, and where that led."""

    observations: np.ndarray  # [D, obs] OBSERVATION_DTYPE
    masks: np.ndarray  # [D, A] bool
    actions: np.ndarray  # [D] int64, the teacher's choice
    returns: np.ndarray  # [D] float32, the deciding seat's result, discounted per own later decision
    critic_inputs: np.ndarray | None = None  # [D, C] float32, the privileged critic's (card_envs.train.acting.critic_inputs)
    scores: np.ndarray | None = None  # [D, A] float16, the teacher's score of each action (-inf: none), `soft_targets`
    games: int = 0  # the finished games the decisions come from (0 for a selection of rows)

    def __len__(self) -> int:
        return len(self.actions)

    @classmethod
    def empty(cls, rows: int, observation_size: int, num_actions: int, critic_size: int | None,
              scored: bool = False) -> "Demonstrations":
        """Uninitialised arrays for `rows` decisions (np.empty: pages are committed as written)."""
        return cls(np.empty((rows, observation_size), OBSERVATION_DTYPE), np.empty((rows, num_actions), bool),
                   np.empty(rows, np.int64), np.empty(rows, np.float32),
                   None if critic_size is None else np.empty((rows, critic_size), np.float32),
                   np.empty((rows, num_actions), SCORE_DTYPE) if scored else None)

    def select(self, which: np.ndarray) -> "Demonstrations":
        """The decisions ``which`` selects (a copy)."""
        return Demonstrations(*(None if array is None else array[which] for array in self._arrays()))

    @classmethod
    def concatenate(cls, parts: Iterable["Demonstrations"], rows: int, sizes: tuple[int, int, int | None, bool]
                    ) -> "Demonstrations":
        """``parts`` (``rows`` decisions in all, of ``sizes`` as `empty` takes them) in order, in one
        set of arrays. Given as an iterator that lets go of each part once it is yielded, the peak
        stays near one copy (np.empty's pages are only committed as they are written)."""
        out, start = cls.empty(rows, *sizes), 0
        for part in parts:
            out.games += part.games
            end = start + len(part)
            for whole, piece in zip(out._arrays(), part._arrays()):
                if whole is not None:
                    whole[start:end] = piece
            start = end
        return out

    def _arrays(self) -> tuple:
        return self.observations, self.masks, self.actions, self.returns, self.critic_inputs, self.scores


def never() -> bool:
    return False


def play_teacher(game, teacher, games: int, seed: int, gamma: float = 1.0, progress: bool = False,
                 stop: Callable[[], bool] = never, privileged: bool = False, scored: bool = False,
                 parallel: int = PARALLEL_GAMES) -> Demonstrations:
    """``games`` games of ``teacher`` in every seat; the decisions with a choice, in the order
    they were taken. ``privileged`` keeps each decision's critic inputs too (the full state and
    the seat); ``scored``, the teacher's score of each action (`teacher_scores`). ``stop()`` true
    ends it early with the games finished so far (Ctrl-C, a time limit); ``parallel`` games are
    stepped together."""
    with tqdm(total=games, desc="teacher games", unit="game", disable=not progress) as bar:
        return _record_games(game, teacher, games, seed, gamma, stop, privileged, scored, bar=bar,
                             parallel=parallel)[0]


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
                 parallel: int = PARALLEL_GAMES) -> tuple[Demonstrations, StudentRecord]:
    """``games`` games of ``student`` against ``opponent`` in every other seat, the student's seat
    moving round the table from one game to the next in each slot; the student's decisions with a
    choice, each labelled with the choice ``teacher`` makes there (DAgger), and how it did."""
    return _record_games(game, teacher, games, seed, gamma, stop, privileged, scored, student, opponent,
                         parallel=parallel)


def check_scored_teacher(teacher, name: str) -> None:
    """ValueError unless ``teacher`` (the policy ``name`` makes) scores its actions (`teacher_scores`)."""
    if not callable(getattr(teacher, "action_scores", None)):
        raise ValueError(f"soft labels (--pretrain-temperature above 0) need the teacher's score of each action, "
                         f"and {name!r} gives none (it has no action_scores method; Illimat's heuristic and "
                         f"lookahead have one): use --pretrain-temperature 0 or such a teacher")


def teacher_scores(teacher, observations: np.ndarray, masks: np.ndarray, rng: np.random.Generator
                   ) -> tuple[np.ndarray, np.ndarray]:
    """The teacher's choices (as ``act_batch`` makes them, drawing on ``rng`` alike) and its
    float32 [rows, A] score of each legal action (-inf: unscored), from its ``action_scores``."""
    chosen, scores = zip(*(teacher.action_scores(o, m, rng) for o, m in zip(observations, masks)))
    return np.array(chosen, np.int64), np.stack(scores)


def _record_games(game, teacher, games: int, seed: int, gamma: float, stop: Callable[[], bool], privileged: bool,
                  scored: bool = False, student=None, opponent=None, bar: tqdm | None = None,
                  parallel: int = PARALLEL_GAMES) -> tuple[Demonstrations, StudentRecord]:
    """`play_teacher` (no ``student``: the teacher in every seat, each of its decisions kept) and
    `play_student` (the student's decisions alone, each labelled with the teacher's choice)."""
    rng = np.random.default_rng(seed)
    vector = VectorGames(game, min(games, parallel), seed=int(rng.integers(2**63)))
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
                  privileged: bool = False, scored: bool = False, until: float = math.inf) -> Demonstrations:
    """`play_teacher` by tasks of `TEACHER_CHUNK` games, task k seeded by (seed, k), played by
    ``workers`` processes (``teacher`` is a policy spec, as ``--teacher`` takes it): the same
    demonstrations whatever the number of workers, in task order (``games`` says how many games
    they hold). ``stop()`` true keeps the tasks finished so far (and, in one process, the games
    finished in the task in progress); at ``until`` (a `time.time`), every process stops its task
    in progress, keeping the games it finished."""
    setup = _Setup(env_id, env_config, teacher, gamma, privileged, scored, until=until)
    parts = _play_tasks(setup, _tasks(games, seed), workers, progress, stop, "teacher games")
    return _joined(setup, parts)


def student_games(env_id: str, env_config: dict[str, Any], teacher: str, student: dict[str, Any],
                  opponents: Sequence[str], games: int, seed: int, gamma: float = 1.0, workers: int = 1,
                  progress: bool = False, stop: Callable[[], bool] = never, privileged: bool = False,
                  scored: bool = False, until: float = math.inf) -> tuple[Demonstrations, StudentRecord]:
    """`play_student` by tasks, as `teacher_games`: ``student`` is the network as
    `card_envs.agents.neural.network_from_checkpoint` takes it, playing greedily; task k plays against
    ``opponents[k % len(opponents)]`` and is seeded by ``seed`` (give each round its own) and k."""
    setup = _Setup(env_id, env_config, teacher, gamma, privileged, scored, student, tuple(opponents), until)
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

    def out_of_time(self) -> bool:
        return time.time() >= self.until


def _play_tasks(setup: _Setup, tasks: list[tuple[int, int, int]], workers: int, progress: bool,
                stop: Callable[[], bool], desc: str) -> list:
    """Each task's result, in task order: played here (``workers`` 1) or by a pool of processes."""
    if setup.scored:  # here, before a pool's workers would each fail to start
        check_scored_teacher(make_policy(setup.teacher, card_envs.make_game(setup.env_id, **setup.env_config)),
                             setup.teacher)
    parts = []
    with tqdm(total=sum(task[0] for task in tasks), desc=desc, unit="game", disable=not progress) as bar:
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
    return Demonstrations.concatenate(_drain(parts), sum(len(part) for part in parts), sizes)


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
                                privileged=setup.privileged, scored=setup.scored, parallel=parallel)
        return play_student(self.game, self.student, self.teacher, self.opponents[index % len(self.opponents)],
                            games, seed, setup.gamma, stop=stop, privileged=setup.privileged, scored=setup.scored,
                            parallel=parallel)


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


def discounted_results(seats: Sequence[int], result: np.ndarray, gamma: float) -> np.ndarray:
    """Per decision of one game (taken by ``seats``, in order), its seat's final result
    discounted by ``gamma`` for each later decision of that same seat."""
    later: dict[int, int] = {}  # seat -> its decisions after this one
    returns = np.empty(len(seats), dtype=np.float32)
    for k in reversed(range(len(seats))):
        returns[k] = float(result[seats[k]]) * gamma ** later.get(seats[k], 0)
        later[seats[k]] = later.get(seats[k], 0) + 1
    return returns


CHUNK_BYTES = 1 << 26  # 64 MB: above glibc's largest mmap threshold (32 MB), so a freed chunk leaves the process


class Recorder:
    """The teacher's decisions written as they are taken into chunks of about 64 MB, each step's
    decisions (one per game) in one chunk; a game's rows are kept, with their returns, when it
    ends. Why chunks: per-game arrays, freed once copied into the whole, stayed in the process's
    heap (300 Illimat games held 2.2 times their data); a large chunk goes back to the system
    when freed, so copying out the kept rows chunk by chunk peaks near one copy."""

    def __init__(self, games_per_step: int, observation_size: int, num_actions: int, critic_size: int | None,
                 scored: bool = False):
        row_bytes = (np.dtype(OBSERVATION_DTYPE).itemsize * observation_size + 4 * (critic_size or 0) + num_actions + 12
                     + np.dtype(SCORE_DTYPE).itemsize * num_actions * scored)
        self.step_rows = games_per_step
        self.chunk_rows = max(1, CHUNK_BYTES // (row_bytes * games_per_step)) * games_per_step
        self.sizes = (observation_size, num_actions, critic_size, scored)
        self.chunks: list[Demonstrations] = []
        self.kept: list[np.ndarray] = []  # per chunk: rows of finished games
        self.rows = 0

    def add(self, observations: np.ndarray, masks: np.ndarray, actions: np.ndarray,
            full: np.ndarray | None, scores: np.ndarray | None = None) -> int:
        """Record one step's decisions (one per game); the first one's row (game i's is that + i)."""
        at = self.rows % self.chunk_rows
        if at == 0:
            self.chunks.append(Demonstrations.empty(self.chunk_rows, *self.sizes))
            self.kept.append(np.zeros(self.chunk_rows, bool))
        chunk, rows = self.chunks[-1], slice(at, at + self.step_rows)
        chunk.observations[rows], chunk.masks[rows], chunk.actions[rows] = observations, masks, actions
        if full is not None:
            chunk.critic_inputs[rows] = full
        if scores is not None:
            chunk.scores[rows] = scores
        first, self.rows = self.rows, self.rows + self.step_rows
        return first

    def keep(self, rows: Sequence[int], seats: Sequence[int], result: np.ndarray, gamma: float) -> None:
        """A finished game: its rows (in order) are kept, with `discounted_results`."""
        for row, value in zip(rows, discounted_results(seats, result, gamma)):
            chunk, at = divmod(row, self.chunk_rows)
            self.chunks[chunk].returns[at] = value
            self.kept[chunk][at] = True

    def demonstrations(self) -> Demonstrations:
        """The kept rows in one set of arrays, each chunk freed as soon as it is copied."""
        rows = int(sum(kept.sum() for kept in self.kept))
        return Demonstrations.concatenate(self._kept_rows(), rows, self.sizes)

    def _kept_rows(self) -> Iterator[Demonstrations]:
        while self.chunks:
            chunk, kept = self.chunks.pop(0), self.kept.pop(0)
            yield chunk.select(kept)


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
        _Rows([getattr(part, name) for part in parts])
        for name in ("observations", "actions", "masks", "returns", "critic_inputs", "scores"))
    optimizer = torch.optim.Adam(network.parameters(), lr=LEARNING_RATE)
    history = []
    network.train()
    for _ in tqdm(range(epochs), desc="cloning", unit="epoch", disable=not progress):
        if stop() or not len(fit):
            break
        policy_sum = value_sum = 0.0
        fitted = 0
        for batch in fit[torch.randperm(len(fit), generator=generator)].split(MINIBATCH):
            if fitted and stop():
                break
            logits, values = network.heads(x[batch].float(), full[batch])
            target = soft_targets(scores[batch], temperature) if temperature > 0 else y[batch]
            policy_loss = torch.nn.functional.cross_entropy(logits + mask_offsets(masks[batch]), target)
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
                chosen = torch.cat([(network.heads(x[part].float())[0] + mask_offsets(masks[part])).argmax(1)
                                    for part in held.split(HELD_OUT_BATCH)])
            agreement = float((chosen == y[held]).float().mean())
        history.append({"imitation": policy_sum / fitted, "value_loss": value_sum / fitted,
                        "held_out_agreement": agreement})
    return history


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


class _Rows:
    """Rows of several parts' arrays read as one array (``rows[index]``, a tensor of those rows)
    without concatenating them: DAgger adds parts to a set that may not fit in memory twice
    (Illimat's 5,000 cloned games are 13 GB). Parts without the array (None) read as None."""

    def __init__(self, arrays: list[np.ndarray | None]):
        self.arrays = None if arrays[0] is None else [torch.from_numpy(array) for array in arrays]
        self.starts = torch.tensor(np.cumsum([0] + [len(array) for array in arrays[:-1]])) if self.arrays else None

    def __getitem__(self, index: torch.Tensor) -> torch.Tensor | None:
        if self.arrays is None:
            return None
        if len(self.arrays) == 1:
            return self.arrays[0][index]
        part = torch.searchsorted(self.starts, index, right=True) - 1
        out = torch.empty((len(index), *self.arrays[0].shape[1:]), dtype=self.arrays[0].dtype)
        for p in part.unique().tolist():
            which = part == p
            out[which] = self.arrays[p][index[which] - self.starts[p]]
        return out
