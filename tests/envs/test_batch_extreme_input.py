"""No input from Python crashes a batched engine: `step` with actions at the extremes (huge,
negative, each integer dtype's limits) and `load` of states whose fields hold them are refused
with a ValueError, and the games play on as if never asked.

A crash is a segmentation fault, which no `pytest.raises` survives: each engine and backend is
probed in a subprocess (this module run with python -m), which prints each probe before it runs it,
so a crash names the probe that caused it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from card_envs import batch
from tests.envs.json_edits import replaced

ROOT = Path(__file__).resolve().parents[2]

B, ROW = 4, 1  # the games of each engine; the row that gets the extreme action
INT64, INT32 = np.iinfo(np.int64), np.iinfo(np.int32)
EXTREMES = (2**40, -1, INT64.min, INT64.max, INT32.min, INT32.max, 2**64)  # 2**64: past every dtype
ACTIONS = [(2**40, np.int64), (-1, np.int64), (INT64.min, np.int64), (INT64.max, np.int64),
           (INT32.min, np.int32), (INT32.max, np.int32), (np.iinfo(np.int16).min, np.int16),
           (np.iinfo(np.int8).max, np.int8), (np.iinfo(np.uint8).max, np.uint8)]
CASES = [(env_id, backend) for env_id in batch.ENGINES
         for backend in (("numba",) if env_id in batch.NUMBA_ONLY else ("numba", "torch"))]

pytestmark = pytest.mark.skipif(not batch.has_numba(), reason="the numba-only engines need numba")


@pytest.mark.parametrize("env_id, backend", CASES, ids=[f"{e}-{b}" for e, b in CASES])
def test_extreme_input_is_refused_without_a_crash(env_id, backend):
    run = subprocess.run([sys.executable, "-m", "tests.envs.test_batch_extreme_input", env_id, backend],
                         cwd=ROOT, capture_output=True, text=True, timeout=900)
    last = (run.stdout.strip().splitlines() or ["(nothing)"])[-1]
    assert run.returncode == 0, (f"exit {run.returncode} during: {last}\n{run.stderr[-3000:]}")
    assert last == "all probes passed"


# ----- the probes, run in the subprocess ---------------------------------------------------------
def _say(what: str) -> None:
    print(what, flush=True)


def _legal(mask: torch.Tensor) -> np.ndarray:
    return mask.to(torch.uint8).argmax(1).numpy()


def _snapshots(env) -> list:
    return [env.state(i).to_json() for i in range(B)]


def _plays_on_as_if_never_asked(env, twin) -> None:
    """The next legal step gives what it gives in an engine that was never asked."""
    actions = _legal(env.observe().mask)
    assert np.array_equal(actions, _legal(twin.observe().mask))
    for got, want in zip(env.step(actions), twin.step(actions)):
        assert torch.equal(got, want)


def probe_actions(env, twin) -> None:
    """Each extreme action, in row ROW of legal ones, is refused naming it, its game and the range."""
    before, top = _snapshots(env), env.num_actions - 1
    for value, dtype in ACTIONS:
        shown = int(np.array(value).astype(dtype).astype(np.int64))  # as the engine reads it
        if 0 <= shown <= top:
            continue  # a small dtype's limit can be a real action
        for form in ("numpy", "torch", "list"):
            _say(f"step: action {value} ({np.dtype(dtype).name}, as {form}) in game {ROW}")
            actions = _legal(env.observe().mask).astype(dtype)
            actions[ROW] = value
            given = {"numpy": actions, "torch": torch.from_numpy(actions), "list": actions.tolist()}[form]
            with pytest.raises(ValueError) as refused:
                env.step(given)
            words = str(refused.value)
            assert f"[{shown}]" in words and f"games [{ROW}]" in words and f"0..{top}" in words, words
            assert _snapshots(env) == before
    for value in (2**63, 2**64, -2**63 - 1):  # no int64 holds them
        _say(f"step: action {value} (a Python int) in game {ROW}")
        actions = _legal(env.observe().mask).tolist()
        actions[ROW] = value
        with pytest.raises(ValueError):
            env.step(actions)
        assert _snapshots(env) == before
    _say("step: every game's action out of range")
    with pytest.raises(ValueError, match=rf"games \[0, 1, 2, 3\]"):
        env.step(np.full(B, 2**40))
    assert _snapshots(env) == before


def _leaves(data, path=()):
    """The paths of the scalars of a JSON document (the first two items of each list)."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _leaves(value, path + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data[:2]):
            yield from _leaves(value, path + (i,))
    elif path and path[0] not in ("game", "format"):
        yield path


def _loads(env, state, before) -> bool:
    """Whether `load` took the state into row 2; a refusal is a ValueError that changed no game."""
    try:
        env.load([state], [2])
    except ValueError as error:
        assert "load: state" in str(error), error
        assert _snapshots(env) == before
        return False
    return True


def _resync(env, twin, good) -> None:
    """Row 2 back to the snapshot `good` in both engines (after a load, its hidden chance may differ)."""
    for engine in (env, twin):
        engine.load([env.game.state_from_json(good)], [2])


def probe_snapshots(env, twin) -> None:
    """Every scalar of a snapshot set to each extreme: the reference's loader refuses it (ValueError),
    or `load` takes the state it gives, or refuses it (ValueError); nothing crashes."""
    good = env.state(2).to_json()
    before, loaded = _snapshots(env), False
    for path in _leaves(good):
        for value in EXTREMES:
            _say(f"load: snapshot with {'.'.join(map(str, path))} = {value}")
            try:
                state = env.game.state_from_json(replaced(good, path, value))
            except ValueError:
                continue
            loaded |= _loads(env, state, before)
    if loaded:
        _resync(env, twin, good)


def _direct_states(env) -> list:
    """(what, a state whose fields were set to an extreme value) for the engines whose `load`
    reads a state's fields (3 Piles, Piles): a state built or edited in Python skips the loader."""
    out = []
    for value in EXTREMES:
        for field in ("current_player", "phase", "passes", "chance_seed", "team_colours"):
            state = env.state(2)
            if hasattr(state, field):
                setattr(state, field, [value, None] if field == "team_colours" else value)
                out.append((f"{field} = {value}", state))
        for field in ("hands", "piles", "stacks", "deck", "captured"):
            state = env.state(2)
            cards = getattr(state, field, None)
            while isinstance(cards, list) and cards and isinstance(cards[0], list):
                cards = max(cards, key=len)
            if cards:
                cards[0] = value
                out.append((f"{field}: a card {value}", state))
    return out


def probe_direct_states(env, twin) -> None:
    good, before, loaded = env.state(2).to_json(), _snapshots(env), False
    for what, state in _direct_states(env):
        _say(f"load: a state with {what}")
        loaded |= _loads(env, state, before)
    if loaded:
        _resync(env, twin, good)


def probe(env_id: str, backend: str) -> None:
    env, twin = (batch.make(env_id, batch_size=B, seed=3, backend=backend) for _ in range(2))
    probe_actions(env, twin)
    _plays_on_as_if_never_asked(env, twin)
    probe_snapshots(env, twin)
    _plays_on_as_if_never_asked(env, twin)
    if env_id in ("three_piles_v0", "piles_v0"):
        probe_direct_states(env, twin)
        _plays_on_as_if_never_asked(env, twin)
    _say("all probes passed")


if __name__ == "__main__":
    probe(*sys.argv[1:3])
