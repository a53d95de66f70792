"""Playing the pairings: fair seatings, fixed chunks of deals, worker processes, replays.

Fairness. Every pairing (A, B) plays every deal in every distinct seating, on the same deal
seeds (``seed + d``) for every pairing:

- seats are filled by team (``seating``): with ``"field"`` (the default, as the trainer evaluates
  and as an exploiter trains) A holds every seat of seat 0's team and B every other seat; with
  ``"alternate"`` the teams, in order of first appearance, alternate A, B. The two agree on
  two-player games (``[A, B]``) and on Piles with four players (teams {0, 2} and {1, 3}:
  ``[A, B, A, B]``, a player holds both seats of a team); an n-player game without teams gets
  ``[A, B, B, ...]`` (one A against a field of B) or ``[A, B, A, ...]`` (A in half the seats,
  where it also plays against itself);
- the seating is rotated by every seat shift that gives a *distinct* seating (``[A, B]``: 2,
  ``[A, B, A, B]``: 2, since shifts 2 and 3 repeat 0 and 1; ``[A, B, B]``: 3), which
  `card_envs.agents.match.rotated_match` plays with the same deal for each shift;
- a player's reward in a game is the mean of its seats' rewards, i.e. its team's reward; in
  n-player games these are the games' rank returns ``(players beaten - players beating you) /
  (n - 1)`` per seat; A wins a game when its reward exceeds B's, draws when they are equal.

Reproducibility. Deals are cut into chunks of ``chunk_deals`` (a fixed size, not derived from
the number of workers); chunk c of a pairing is one ``rotated_match`` call whose policies' rng is
seeded from ``(seed, c)``. A chunk's result therefore depends only on the seed, the chunk and
the players, never on which process ran it or when, and results are merged in deal order: 1 and
N workers give identical results, and the same seed list gives the same results.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import re
import signal
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

import card_envs
from card_envs.agents import make_policy
from card_envs.agents.match import rotated_match
from card_envs.agents.policy import RowByRow
from card_envs.agents.warm import compiled_agents, warm_up, worth_compiling
from card_envs.core.game import Game
from card_envs.evaluate.players import Player


SEATINGS = ("field", "alternate")


def available_cores() -> int:
    """Cores this process may run on (its affinity mask where the OS has one)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def seating_pattern(game: Game, seating: str = "field") -> list[int]:
    """For every seat, 0 (player A) or 1 (player B): A holds seat 0's team and B every other
    seat ("field"), or the teams in order of appearance alternate A, B ("alternate")."""
    if seating not in SEATINGS:
        raise ValueError(f"unknown seating {seating!r}; accepted: {', '.join(SEATINGS)}")
    if seating == "field":
        return [0 if game.team_of(seat) == game.team_of(0) else 1 for seat in range(game.num_players)]
    order: list[int] = []
    for seat in range(game.num_players):
        if game.team_of(seat) not in order:
            order.append(game.team_of(seat))
    return [order.index(game.team_of(seat)) % 2 for seat in range(game.num_players)]


def distinct_rotations(pattern: list[int]) -> list[int]:
    """Seat shifts r whose seatings (seat (k + r) % n gets ``pattern[k]``) are all different."""
    n, seen, shifts = len(pattern), set(), []
    for r in range(n):
        seating = tuple(pattern[(s - r) % n] for s in range(n))
        if seating not in seen:
            seen.add(seating)
            shifts.append(r)
    return shifts


@dataclass
class PairResult:
    """All games of one pairing, in deal order (game ``d * len(rotations) + i``: deal d, shift i)."""

    a: Player
    b: Player
    reward_a: np.ndarray  # mean reward of A's seats per game
    reward_b: np.ndarray
    rotations: list[int]
    cpu_s: float  # process CPU time of the chunks, summed over workers

    @property
    def outcomes(self) -> np.ndarray:
        """+1 A won, 0 draw, -1 B won."""
        return np.sign(self.reward_a - self.reward_b)


@dataclass
class Task:
    pair: int
    chunk: int
    spec_a: str
    spec_b: str
    labels: tuple[str, str]
    deals: list[int]  # global deal indices
    policy_seed: int
    result: dict[str, Any] = field(default_factory=dict)


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._@=-]+", "_", text)


def replay_folder(record: str | Path, env_id: str, labels: tuple[str, str]) -> Path:
    """Where --record DIR puts a pairing's replays: ``DIR/<env_id>/<a>_vs_<b>/``, so that games
    recorded into one folder never replace each other's."""
    return Path(record) / env_id / f"{slug(labels[0])}_vs_{slug(labels[1])}"


class _Context:
    """What a worker keeps between tasks: the game and each policy, built once; the numba kernels of
    the scripted agents in ``warm`` loaded (`warm_up`) before any task's CPU time is counted, and
    the other compiled agents deciding row by row in Python (`RowByRow`)."""

    def __init__(self, env_id: str, config: dict[str, Any], seed: int, record: str | None, threads_one: bool,
                 record_html: bool = False, seating: str = "field", warm: tuple[str, ...] = (),
                 reveal_all: bool = False):
        self.env_id, self.config, self.seed, self.record = env_id, config, seed, record
        self.record_html, self.reveal_all = record_html, reveal_all
        self.game = card_envs.make_game(env_id, **config)
        self.warm = warm
        self.pattern = seating_pattern(self.game, seating)
        self.rotations = distinct_rotations(self.pattern)
        self.policies: dict[str, Any] = {}
        if threads_one:  # neural policies: one thread, so results never depend on thread splits
            import torch

            torch.set_num_threads(1)
        warm_up(env_id, config, engine=False, agents=warm, quiet=True)  # the parent compiled them: loaded here

    def policy(self, spec: str):
        if spec not in self.policies:
            policy = make_policy(spec, self.game)
            uncompiled = spec not in self.warm and spec in compiled_agents(self.game)
            self.policies[spec] = RowByRow(policy) if uncompiled else policy
        return self.policies[spec]

    def run(self, task: Task) -> Task:
        start = time.process_time()
        game, rotations = self.game, self.rotations
        pair = (self.policy(task.spec_a), self.policy(task.spec_b))
        seating = [pair[who] for who in self.pattern]
        deal_seeds = [self.seed + d for d in task.deals]
        chosen: dict[int, list[int]] = {}
        rewards = rotated_match(game, seating, len(task.deals), seed=task.policy_seed, rotations=rotations,
                                deal_seeds=deal_seeds, parallel=64,
                                on_game=(lambda row, actions: chosen.__setitem__(row, list(actions)))
                                if self.record else None)
        a_cols = [k for k, who in enumerate(self.pattern) if who == 0]
        b_cols = [k for k, who in enumerate(self.pattern) if who == 1]
        if self.record:
            self._save_replays(task, rewards, chosen)
        task.result = {"reward_a": rewards[:, a_cols].mean(axis=1), "reward_b": rewards[:, b_cols].mean(axis=1),
                       "cpu_s": time.process_time() - start}
        return task

    def _save_replays(self, task: Task, rewards: np.ndarray, chosen: dict[int, list[int]]) -> None:
        from card_envs.replay import record_game, save_replay

        n, rotations = self.game.num_players, self.rotations
        folder = replay_folder(self.record, self.env_id, task.labels)
        for row, actions in sorted(chosen.items()):
            local, i = divmod(row, len(rotations))
            deal, shift = task.deals[local], rotations[i]
            initial = self.game.new_state(np.random.default_rng(self.seed + deal))
            players = [task.labels[self.pattern[(s - shift) % n]] for s in range(n)]
            replay = record_game(self.game, self.env_id, initial, actions, players,
                                 {"deal": deal, "deal_seed": self.seed + deal, "seat_shift": shift})
            if not np.array_equal(replay.returns, np.roll(rewards[row], shift)):
                raise RuntimeError(f"replay of deal {deal} shift {shift} does not reproduce the game")
            path = folder / f"deal{deal:06d}_shift{shift}.json"
            save_replay(path, replay)
            if self.record_html:
                from card_envs.replay import write_replay_html

                write_replay_html(replay, path.with_suffix(".html"), reveal_all=self.reveal_all)


_WORKER: _Context | None = None


def _init_worker(*args) -> None:
    global _WORKER
    start_pool_worker()
    _WORKER = _Context(*args)


def start_pool_worker() -> None:
    """What a pool's worker process does first (here and in `card_envs.train.pretrain`): ignore a
    terminal's Ctrl-C (the parent stops the pool), end with its parent, and give tqdm a thread
    lock: its default is a multiprocessing one, which a worker ended by `Pool.terminate` leaves
    for the resource tracker to warn about ("leaked semaphore objects") when the parent exits."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _exit_with_parent()
    tqdm.set_lock(threading.RLock())


def _exit_with_parent() -> None:
    """End this worker as soon as the process that started it ends. A parent killed outright
    (SIGKILL, or SIGTERM in a program that installs no handler) cannot terminate its pool, whose
    workers would otherwise play their chunks (minutes of ISMCTS games) to nobody. The thread
    waits on the parent's sentinel: no polling."""
    parent = mp.parent_process()

    def watch() -> None:
        parent.join()
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="exit-with-parent").start()


def _run_task(task: Task) -> Task:
    return _WORKER.run(task)


def play_pairings(env_id: str, config: dict[str, Any], pairs: list[tuple[Player, Player]], deals: int,
                  seed: int = 0, workers: int = 1, chunk_deals: int = 10, record: str | None = None,
                  progress: bool = True, record_html: bool = False, seating: str = "field",
                  until: float | None = None, reveal_all: bool = False, compile_agents: bool | None = None
                  ) -> list[PairResult]:
    """Play ``deals`` deals of every pairing in every distinct seating (see the module docstring).

    ``record``: a folder for a JSON replay of every game (`replay_folder`); ``record_html``: an HTML
    page beside each, with the "everything" view where ``reveal_all``;
    ``seating``: "field" or "alternate" (the module docstring); ``until``: a `time.perf_counter`
    time after which no more chunks are waited for: the results then hold the first chunks that
    every pairing finished (the same deals for all; the first chunk always), fewer deals than asked;
    ``compile_agents``: the scripted agents play their compiled ``act_batch`` (True) or their Python
    ``act`` (False; the same decisions), or as `worth_compiling` finds for the games to play (None)."""
    if deals < 1 or chunk_deals < 1 or workers < 1:
        raise ValueError("deals, chunk_deals and workers must be at least 1")
    game = card_envs.make_game(env_id, **config)
    rotations = distinct_rotations(seating_pattern(game, seating))
    tasks = []
    for c, start in enumerate(range(0, deals, chunk_deals)):  # chunk by chunk: `until` stops between
        policy_seed = int(np.random.SeedSequence([seed, c]).generate_state(1)[0])
        for p, (a, b) in enumerate(pairs):
            tasks.append(Task(p, c, a.spec, b.spec, (a.label, b.label),
                              list(range(start, min(start + chunk_deals, deals))), policy_seed))
    threads_one = any(player.spec.endswith(".pt") for pair in pairs for player in pair)
    # The scripted agents' kernels compiled here, once, saying so (not by every worker at once, nor
    # in a task's CPU time); each worker then loads them from numba's cache before its first task.
    games = deals * len(pairs) * len(rotations)
    warm = tuple(sorted({player.spec for pair in pairs for player in pair})) \
        if worth_compiling(games, compile_agents) else ()
    warm_up(env_id, config, engine=False, agents=warm)
    args = (env_id, config, seed, record, threads_one, record_html, seating, warm, reveal_all)
    done: list[Task] = []
    total = sum(len(t.deals) for t in tasks) * len(rotations)
    with tqdm(total=total, desc="games", unit="game", disable=None if progress else True, smoothing=0.05) as bar:
        if workers == 1:
            saved = _torch_threads() if threads_one else None
            try:
                context = _Context(*args)
                for task in tasks:
                    if _out_of_time(until, done, len(pairs)):
                        break
                    done.append(context.run(task))
                    bar.update(len(task.deals) * len(rotations))
            finally:
                if saved is not None:
                    _torch_threads(saved)
        else:
            with mp.get_context("spawn").Pool(workers, initializer=_init_worker, initargs=args) as pool:
                finished = pool.imap_unordered(_run_task, tasks)
                while len(done) < len(tasks) and not _out_of_time(until, done, len(pairs)):
                    try:  # woken at `until`, not only when a chunk ends
                        # (until may be inf: a run without --max-minutes; a lock wait cannot take inf)
                        task = finished.next(timeout=None if until in (None, float("inf"))
                                             else max(0.1, until - time.perf_counter()))
                    except mp.TimeoutError:
                        continue
                    done.append(task)
                    bar.update(len(task.deals) * len(rotations))
                if len(done) == len(tasks):
                    pool.close()  # let the workers exit on their own (terminate() on the way out is for errors)
                    pool.join()
    done = _whole_chunks(done, len(pairs))
    results = []
    for p, (a, b) in enumerate(pairs):
        mine = [t for t in done if t.pair == p]
        results.append(PairResult(
            a, b, np.concatenate([t.result["reward_a"] for t in mine]),
            np.concatenate([t.result["reward_b"] for t in mine]), rotations,
            float(sum(t.result["cpu_s"] for t in mine))))
    return results


def _out_of_time(until: float | None, done: list[Task], pairs: int) -> bool:
    """Past ``until``, with the first chunk of every pairing played."""
    return until is not None and time.perf_counter() >= until and sum(t.chunk == 0 for t in done) == pairs


def _whole_chunks(done: list[Task], pairs: int) -> list[Task]:
    """``done`` in (pair, chunk) order, up to the first chunk some pairing lacks."""
    chunks = 0
    while sum(t.chunk == chunks for t in done) == pairs:
        chunks += 1
    return sorted((t for t in done if t.chunk < chunks), key=lambda t: (t.pair, t.chunk))


def _torch_threads(value: int | None = None) -> int:
    """torch's intra-op thread count (set to ``value`` when given)."""
    import torch

    if value is not None:
        torch.set_num_threads(value)
    return torch.get_num_threads()
