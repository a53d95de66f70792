"""Compiling an env's numba kernels before they are needed: `warm_up`, and the command

    python -m card_envs.agents.warm [env_id ...]      # every env by default


The batched engines (`card_envs.batch`) and the scripted agents' ``act_batch`` (3 Piles, Split the
Hoard, Dominion, Illimat) are numba kernels compiled with ``cache=True``: their first use compiles
them (seconds for 3 Piles, a minute or two for the others) and numba keeps the result in the user's
cache, one folder per card_envs version shared by every clone, editable install and wheel of it
(`card_envs.numba_cache`; ``NUMBA_CACHE_DIR`` moves it); every later process loads them from there
in a second or two.

`warm_up(env_id)` plays one short batch of games (each game to its end at least once) with the
env's batched engine and its scripted agents, so every kernel they use is compiled, or loaded from
the cache, now. The trainer calls it before its ``--max-minutes`` clock starts and the evaluator
before its clocks (a report's CPU time per game), so compiling eats neither. Whether it compiles
is known without timing anything: numba announces each compilation (its ``numba:compile`` event;
loading from the cache is not one), so `warm_up` says "compiling" as the first one starts, and how
long it took at the end; a warm cache prints nothing.

The command warms every env named (all by default) ahead of time, e.g. in a container's build
step: each env's batched engine with and without ``auto_forced``, and its scripted agents.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, TextIO

import numpy as np

import card_envs
from card_envs.agents import make_policy, opponent_names

# A scripted agent's Python `act` plays a game in 3-60 ms (2 cores, 2026-12-06) where its kernels take
# 2 s (3 Piles) to a few minutes (Split the Hoard, Illimat) to compile on a cold cache: below this
# many games an evaluation is done in Python before a compile would be.
COMPILE_PAYS_AT = 2_000
GAMES = 8  # games of the warm-up batch
MAX_STEPS = 20_000  # a warm-up batch stops here even if some game has not ended (none comes close)

_done: set[tuple[str, str, str]] = set()  # (env_id, config, part) warmed in this process


@dataclass(frozen=True)
class Warmup:
    """What `warm_up` did: ``compiled`` functions numba compiled (0: all loaded from the cache, or
    warmed before in this process) in ``seconds`` (the whole warm-up), their cache folders."""

    env_id: str
    seconds: float
    compiled: int
    cache: tuple[str, ...] = ()

    def text(self) -> str:
        """One line for a log: how long compiling took and where it is kept."""
        if not self.compiled:
            return f"{self.env_id}: numba kernels ready in {self.seconds:.1f} s (from the cache: nothing compiled)"
        return (f"{self.env_id}: compiled {self.compiled} numba functions in {self.seconds:.1f} s, once: "
                f"cached in {', '.join(self.cache) or cache_location()}; later runs load them in a second or two")


def has_numba() -> bool:
    return importlib.util.find_spec("numba") is not None


def cache_location() -> str:
    """Where numba keeps card_envs' compiled kernels: ``NUMBA_CACHE_DIR`` where set, else this
    version's folder in the user's cache (`card_envs.numba_cache`)."""
    from card_envs.numba_cache import cache_location

    return cache_location()


def worth_compiling(games: int, choice: bool | None = None) -> bool:
    """Whether ``games`` games of an evaluation should play the scripted agents' compiled
    ``act_batch`` (compiling its kernels where the cache lacks them) rather than their Python `act`
    row by row (`card_envs.agents.policy.RowByRow`; the same decisions): at `COMPILE_PAYS_AT` games
    and more, where numba is installed. ``choice`` True or False overrides the rule."""
    if choice is not None:
        return choice and has_numba()
    return has_numba() and games >= COMPILE_PAYS_AT


def compiled_agents(game) -> list[str]:
    """The specs of ``game``'s scripted agents whose ``act_batch`` is a numba kernel (``heuristic``,
    named bots): those whose package holds a numba dispatcher once the agent is built."""
    if not has_numba():
        return []
    return [spec for spec in opponent_names(game) if spec != "random" and _compiled(game, spec)]


_kinds: dict[tuple[str, str], bool] = {}  # (game name, spec) -> compiled, found once per process


def _compiled(game, spec: str) -> bool:
    if (game.name, spec) not in _kinds:
        from numba.core.dispatcher import Dispatcher

        package = type(make_policy(spec, game)).__module__.rpartition(".")[0]
        modules = [m for name, m in list(sys.modules.items()) if name.startswith(package + ".")]
        _kinds[game.name, spec] = any(isinstance(value, Dispatcher) for module in modules
                                      for value in vars(module).values())
    return _kinds[game.name, spec]


def warm_up(env_id: str, config: dict[str, Any] | None = None, *, engine: bool = True,
            agents: bool | Iterable[str] = True, auto_forced: Iterable[bool] = (False, True),
            out: TextIO | None = None, quiet: bool = False) -> Warmup:
    """Compile (or load from numba's cache) the kernels ``env_id`` uses, before any clock starts.

    engine: the batched engine's (where the env has one and numba is installed), played with
        ``auto_forced`` set to each value given (the trainer plays with True only);
    agents: the scripted agents' ``act_batch``: True for all of the env's that are compiled
        (`compiled_agents`), False for none, or their specs (others are skipped); they play the
        engine's games where it is warmed, else the reference engine's;
    out: where "compiling ..." is said as the first compilation starts, and the time it took at the
        end (nothing when nothing is compiled): sys.stderr by default; quiet: say nothing.

    Each part is warmed once per process (a second call returns at once)."""
    began = time.perf_counter()
    if not has_numba():
        return Warmup(env_id, 0.0, 0)
    from numba.core import event

    config = dict(config or {})
    out = None if quiet else out or sys.stderr
    game = card_envs.make_game(env_id, **config)
    compiled = compiled_agents(game) if agents is not False else []
    specs = compiled if agents is True else [spec for spec in agents or () if spec in compiled]
    key = json.dumps(game.config, sort_keys=True, default=str)  # with its defaults: one key per configuration
    batched = engine and _has_engine(env_id, config)
    what = [name for name, used in (("batched engine", batched), ("scripted agents", specs)) if used]
    if not what:
        return Warmup(env_id, time.perf_counter() - began, 0)
    from card_envs.numba_cache import announced_elsewhere

    aside = _AgentsAside(env_id, config, specs) if batched and specs and _cores() >= 2 else None
    compiles = _compiles(env_id, " and ".join(what), out, aside)
    with event.install_listener("numba:compile", compiles), announced_elsewhere():
        if batched:
            for forced in auto_forced:
                part = (env_id, key, f"engine:{forced}")
                if part not in _done:
                    played = [] if aside else specs  # the agents compile aside, or play here on the engine
                    _play_engine(env_id, config, game, played, forced)
                    _done.add(part)
                    _done.update((env_id, key, f"agent:{spec}") for spec in played)
            compiles.count += aside.wait() if aside else 0  # then the agents load from the cache
        todo = [spec for spec in specs if (env_id, key, f"agent:{spec}") not in _done]
        if todo:
            _play_reference(game, todo)
            _done.update((env_id, key, f"agent:{spec}") for spec in todo)
    warmed = Warmup(env_id, time.perf_counter() - began, compiles.count,
                    _cache_folders(compiles.folders) if compiles.count else ())
    if compiles.count and out is not None:
        print(warmed.text(), file=out, flush=True)
    return warmed


class _AgentsAside:
    """The scripted agents' kernels compiled in a second process (``python -m card_envs.agents.warm
    --agents ...``) while this one compiles the batched engine's: numba compiles on one thread, so on
    two cores a cold cache takes about half the time. Started at the first compile (a warm cache
    starts nothing); where it fails, this process compiles the agents itself afterwards."""

    def __init__(self, env_id: str, config: dict[str, Any], specs: list[str]):
        self.command = [sys.executable, "-m", "card_envs.agents.warm", env_id, "--config", json.dumps(config),
                        "--agents", *specs, "--report"]
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        if self.process is None:
            path = os.pathsep.join(entry for entry in sys.path if entry)  # the card_envs this process imported
            self.process = subprocess.Popen(self.command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                            text=True, env={**os.environ, "PYTHONPATH": path})

    def wait(self) -> int:
        """The functions compiled there (0 where it did not start or failed)."""
        if self.process is None:
            return 0
        report, _ = self.process.communicate()
        if self.process.returncode:
            return 0
        return int(json.loads(report.strip().splitlines()[-1])["compiled"])


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _compiles(env_id: str, what: str, out: TextIO | None, aside: _AgentsAside | None = None):
    """A numba event listener that counts compilations and says "compiling" at the first (and starts
    ``aside`` then)."""
    from numba.core import event

    class Compiles(event.Listener):
        count = 0
        folders: set[str] = set()

        def on_start(self, ev) -> None:
            if not self.count and out is not None:
                print(f"{env_id}: compiling the numba kernels of its {what}, once per version (then cached in "
                      f"{cache_location()}): seconds to minutes ...", file=out, flush=True)
            if not self.count and aside is not None:
                aside.start()
            self.count += 1
            cache = getattr(ev.data.get("dispatcher"), "_cache", None)  # numba's own: where it writes this kernel
            if getattr(cache, "_cache_path", None):
                self.folders = self.folders | {cache._cache_path}

        def on_end(self, ev) -> None:
            pass

    return Compiles()


def _cache_folders(folders: set[str]) -> tuple[str, ...]:
    """The cache folders written: ``NUMBA_CACHE_DIR`` or the user cache's folder of this version
    alone where they lie under it; others (numba's default, ``__pycache__`` beside a kernel where
    the user cache cannot be written) relative to the working directory where they lie under it."""
    from numba.core import config

    from card_envs.numba_cache import cache_root

    if config.CACHE_DIR:
        return (str(config.CACHE_DIR),)
    root = cache_root()
    shown = sorted({str(root)} if any(Path(folder).is_relative_to(root) for folder in folders) else set())
    for folder in sorted(folder for folder in folders if not Path(folder).is_relative_to(root)):
        path = Path(folder)
        shown.append(str(path.relative_to(Path.cwd())) if path.is_relative_to(Path.cwd()) else folder)
    return tuple(shown)


def _has_engine(env_id: str, config: dict[str, Any] | None = None) -> bool:
    from card_envs import batch  # imports torch: only where the env has a batched engine to warm

    return env_id in batch.ENGINES and not batch.unbatched(env_id, config or {})


def _actions(policies: list, t: int, observations: np.ndarray, masks: np.ndarray, rng) -> np.ndarray:
    """One legal action per row: row i by policy (i + t) % len(policies) (every policy meets every
    row's positions), or uniformly at random without policies."""
    if not policies:
        noise = np.where(masks, rng.random(masks.shape), -1.0)
        return noise.argmax(axis=1).astype(np.int64)
    actions = np.empty(len(masks), dtype=np.int64)
    rows = np.arange(len(masks))
    for k, policy in enumerate(policies):
        mine = rows[(rows + t) % len(policies) == k]
        if mine.size:  # as the trainer's opponent pool asks them
            actions[mine] = policy.act_batch(observations[mine], masks[mine].astype(np.int8), rng)
    return actions


def _play_engine(env_id: str, config: dict[str, Any], game, specs: list[str], auto_forced: bool) -> None:
    """Every game of a batch on the batched engine to its end (deals, returns), the agents acting;
    then the observation of every seat and the state tensors (the trainer's bootstrap and critic)."""
    import torch

    from card_envs import batch

    env = batch.make(env_id, GAMES, seed=0, auto_forced=auto_forced, backend="numba", **config)
    policies = [make_policy(spec, game) for spec in specs]
    rng = np.random.default_rng(0)
    step, ended = env.observe(), np.zeros(GAMES, dtype=bool)
    for t in range(MAX_STEPS):
        actions = _actions(policies, t, step.obs.numpy(), step.mask.numpy(), rng)
        step = env.step(torch.from_numpy(actions))
        ended |= step.done.numpy()
        if ended.all():
            break
    env.all_seat_observations()
    env.state_tensors()


def _play_reference(game, specs: list[str]) -> None:
    """Every game of a batch on the reference engine to its end, the agents acting (an evaluation
    plays them so)."""
    from card_envs.vector import VectorGames

    games = VectorGames(game, GAMES, seed=0)
    policies = [make_policy(spec, game) for spec in specs]
    rng = np.random.default_rng(0)
    ended = np.zeros(GAMES, dtype=bool)
    for t in range(MAX_STEPS):
        observations, masks, _ = games.observe()
        done, _, _ = games.step(_actions(policies, t, observations, masks, rng))
        ended |= done
        if ended.all():
            break


def main(argv: list[str] | None = None) -> int:
    """``python -m card_envs.agents.warm [env_id ...]``: `warm_up` every env named, all by default."""
    envs = card_envs.list_envs()
    parser = argparse.ArgumentParser(prog="python -m card_envs.agents.warm",
                                     description="Compile the numba kernels of card_envs ahead of time (once per "
                                                 "version: numba caches them in the user cache).")
    parser.add_argument("env_ids", nargs="*", metavar="env_id",
                        help=f"envs to compile (default: all): {', '.join(envs)}")
    parser.add_argument("--config", type=json.loads, default={}, help="the game's arguments as JSON (default: {})")
    parser.add_argument("--agents", nargs="+", metavar="SPEC",
                        help="only these scripted agents' kernels, on the rules engine (not the batched engine's)")
    parser.add_argument("--report", action="store_true",
                        help="say nothing but one JSON line per env: {\"env_id\", \"compiled\", \"seconds\"}")
    args = parser.parse_args(argv)
    unknown = [env_id for env_id in args.env_ids if env_id not in envs]
    if unknown:
        parser.error(f"unknown env id(s) {', '.join(unknown)}; registered: {', '.join(envs)}")
    if not has_numba():
        print("numba is not installed (the train and batch extras): nothing to compile", file=sys.stderr)
        return 0
    for env_id in args.env_ids or envs:
        # says what it compiles, and how long it took
        warmed = warm_up(env_id, args.config, engine=args.agents is None, agents=args.agents or True,
                         quiet=args.report)
        if args.report:
            print(json.dumps({"env_id": env_id, "compiled": warmed.compiled, "seconds": warmed.seconds}), flush=True)
            continue
        if warmed.compiled:
            continue
        if _has_engine(env_id) or compiled_agents(card_envs.make_game(env_id)):
            print(f"{env_id}: already compiled (loaded from {cache_location()} in {warmed.seconds:.1f} s)",
                  file=sys.stderr)
        else:
            print(f"{env_id}: no numba kernels (no batched engine, no compiled scripted agent)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
