"""Shared fixtures: every registered env and its test configurations, random-play walks, and a
state guard for players that may use only what their seat knows."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

import card_envs

ENV_CASES = [(env_id, config) for env_id in card_envs.list_envs() for config in card_envs.spec(env_id).test_configs]


def case_id(case) -> str:
    env_id, config = case
    return env_id + "".join(f"-{k}={v}" for k, v in config.items())


@pytest.fixture(params=ENV_CASES, ids=[case_id(c) for c in ENV_CASES])
def env_case(request):
    return request.param


def random_walk(game, seed: int):
    """Yield every state of one uniformly random game on the raw engine (terminal state last)."""
    rng = np.random.default_rng(seed)
    state = game.new_state(rng)
    yield state
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
        yield state


class Guard:
    """A state wrapper that allows a player (a search, an OpenSpiel bot) only what a seat may use:
    whose turn it is, whether the game is over, and determinizations for that seat. Anything else
    fails the test."""

    def __init__(self, state, seat):
        self._state, self._seat, self.determinizations = state, seat, 0

    @property
    def current_player(self):
        return self._state.current_player

    def is_terminal(self):
        return self._state.is_terminal()

    def determinize(self, player, rng):
        assert player == self._seat, "determinized for another seat"
        self.determinizations += 1
        return self._state.determinize(player, rng)

    def __getattr__(self, name):
        raise AssertionError(f"the player read state.{name} directly")


def calls_made(fn, *args):
    """(fn(*args), how many Python and C function calls it made): a measure of work that, unlike
    a stopwatch, does not depend on the machine or its load. Caches warmed earlier lower it."""
    import sys

    calls = 0

    def count(frame, event, arg):
        nonlocal calls
        calls += event in ("call", "c_call")

    sys.setprofile(count)
    try:
        result = fn(*args)
    finally:
        sys.setprofile(None)
    return result, calls


def assert_illegal_actions_refused(env) -> None:
    """A batched engine of 8 games that checks its actions: each illegal one (not in the mask,
    negative, past the last action; also one the caller made legal in the returned mask tensor)
    raises ValueError naming it and its game, and changes no game; the legal ones then play."""
    import torch

    out = env.observe()
    before = [env.to_json(i) for i in range(8)]
    actions = out.mask.to(torch.uint8).argmax(1)
    for bad_row, bad_action in ((5, int((~out.mask[5]).nonzero()[0, 0])), (2, -1), (7, env.num_actions)):
        wrong = actions.clone()
        wrong[bad_row] = bad_action
        with pytest.raises(ValueError, match=rf"illegal actions \[{bad_action}\] in games \[{bad_row}\]"):
            env.step(wrong)
    illegal = int((~out.mask[5]).nonzero()[0, 0])
    out.mask[5] = True
    with pytest.raises(ValueError, match="illegal actions"):
        env.step(torch.where(torch.arange(8) == 5, illegal, actions))
    assert [env.to_json(i) for i in range(8)] == before
    env.step(actions)  # the legal ones still play
    assert [env.to_json(i) for i in range(8)] != before


# Each of these files compiles numba kernels (minutes with a cold cache, as in CI's clean clone).
# Under xdist's default scheduling, neighbouring tests go to different workers, which then compile
# the same kernels at once; one group per file keeps a file on one worker (`--dist loadgroup`).
NUMBA_COMPILING = ("dominion/test_batch.py", "split_the_hoard/test_batch.py", "three_piles/test_batch.py",
                   "piles/test_batch.py", "dominion/test_act_batch.py", "split_the_hoard/test_act_batch.py",
                   "envs/test_numpy_random.py", "illimat/test_batch.py", "illimat/test_batch_pieces.py",
                   "illimat/test_act_batch.py")
TESTS = Path(__file__).resolve().parent


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook, which reads the groups
def pytest_collection_modifyitems(config, items):
    for item in items:
        name = item.path.relative_to(TESTS).as_posix()
        if name in NUMBA_COMPILING:
            item.add_marker(pytest.mark.xdist_group(name))


def pytest_configure(config):
    """One torch thread per xdist worker (there is one worker per core). Torch's default, a thread
    per core in every worker, oversubscribes the cores: its threads then spin-wait on each other,
    and a small op (a softmax of 16 rows) took 7 ms instead of 3 us."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        try:
            import torch
        except ImportError:  # the bare install's tests do not need it
            return
        torch.set_num_threads(1)
