"""Snapshot fuzzing: mutate real snapshots and check that a loader either refuses each one with a
ValueError or accepts a position that plays on to the end without any other exception.

Used by the CI test (`tests/envs/test_snapshot_fuzz.py`, seeded and short) and by the longer run in
`benchmarks/fuzz_snapshots.py`. Written here rather than with hypothesis: the mutations must
follow the structure of a real snapshot (move a card between two piles, duplicate one, change a
counter by one), which a generic strategy rarely hits.
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from card_envs.core.game import Game, State

DEEP = 100_000  # nesting depth of the "deeply nested" mutation: far past Python's recursion limit
DEEP_CHANGE = f"a list nested {DEEP} deep"
ODD_VALUES = (None, True, False, -1, 0, 1, 2, 99, 10**12, -(10**12), 2.5, float("nan"), "", "x", "AS", [], {}, [[]])


@dataclass
class FuzzReport:
    outcomes: Counter = field(default_factory=Counter)  # "refused" / "accepted"
    failures: list[str] = field(default_factory=list)  # what broke, with the mutation and seed

    @property
    def total(self) -> int:
        return sum(self.outcomes.values())


def _nodes(data: Any, path: tuple = ()) -> list[tuple[tuple, Any]]:
    """Every (path, value) in a JSON-like tree, the root included."""
    found, stack = [], [(path, data)]
    while stack:
        path, value = stack.pop()
        found.append((path, value))
        if isinstance(value, dict):
            stack.extend((path + (key,), item) for key, item in value.items())
        elif isinstance(value, list):
            stack.extend((path + (i,), item) for i, item in enumerate(value))
    return found


def _deep_list() -> list:
    nested: list = []
    for _ in range(DEEP):
        nested = [nested]
    return nested


def _set(root: Any, path: tuple, value: Any) -> None:
    parent = root
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value


def mutate(data: dict[str, Any], rng: np.random.Generator) -> str:
    """Change one thing in `data`, in place; returns a short description of the change."""
    nodes = [(p, v) for p, v in _nodes(data) if p]
    lists = [(p, v) for p, v in nodes if isinstance(v, list)]
    dicts = [(p, v) for p, v in _nodes(data) if isinstance(v, dict)]
    leaves = [(p, v) for p, v in nodes if not isinstance(v, (list, dict))]
    kind = rng.choice(["replace", "bump", "delete_key", "add_key", "drop_item", "duplicate_item",
                       "swap_items", "move_item", "copy_leaf", "deep"])
    if kind == "bump" and leaves:
        ints = [(p, v) for p, v in leaves if isinstance(v, int) and not isinstance(v, bool)]
        if ints:
            path, value = ints[rng.integers(len(ints))]
            delta = int(rng.choice([-2, -1, 1, 2]))
            _set(data, path, value + delta)
            return f"{_name(path)} {value} -> {value + delta}"
    if kind == "delete_key" and dicts:
        path, value = dicts[rng.integers(len(dicts))]
        if value:
            key = list(value)[rng.integers(len(value))]
            del value[key]
            return f"deleted {_name(path + (key,))}"
    if kind == "add_key" and dicts:
        path, value = dicts[rng.integers(len(dicts))]
        value["fuzz_extra"] = 1
        return f"added {_name(path + ('fuzz_extra',))}"
    non_empty = [(p, v) for p, v in lists if v]
    if kind == "drop_item" and non_empty:
        path, value = non_empty[rng.integers(len(non_empty))]
        i = int(rng.integers(len(value)))
        value.pop(i)
        return f"dropped {_name(path)}[{i}]"
    if kind == "duplicate_item" and non_empty:
        path, value = non_empty[rng.integers(len(non_empty))]
        i = int(rng.integers(len(value)))
        value.insert(int(rng.integers(len(value) + 1)), copy.deepcopy(value[i]))
        return f"duplicated {_name(path)}[{i}]"
    if kind == "swap_items" and non_empty:
        path, value = non_empty[rng.integers(len(non_empty))]
        i, j = rng.integers(len(value), size=2)
        value[i], value[j] = value[j], value[i]
        return f"swapped {_name(path)}[{i}] and [{j}]"
    if kind == "move_item" and non_empty and lists:
        (source, items), (target, into) = non_empty[rng.integers(len(non_empty))], lists[rng.integers(len(lists))]
        if items is not into:
            into.append(items.pop(int(rng.integers(len(items)))))
            return f"moved an item of {_name(source)} to {_name(target)}"
    if kind == "copy_leaf" and len(leaves) > 1:
        (path, value), (_, other) = (leaves[i] for i in rng.choice(len(leaves), 2, replace=False))
        _set(data, path, copy.deepcopy(other))
        return f"{_name(path)} {_short(value)} -> {_short(other)}"
    if kind == "deep" and nodes:
        path, _ = nodes[rng.integers(len(nodes))]
        _set(data, path, _deep_list())
        return f"{_name(path)} -> {DEEP_CHANGE}"
    path, value = nodes[rng.integers(len(nodes))]
    new = ODD_VALUES[rng.integers(len(ODD_VALUES))]
    _set(data, path, copy.deepcopy(new))
    return f"{_name(path)} {_short(value)} -> {_short(new)}"


def _name(path: tuple) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".") or "<root>"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def sample_snapshots(game: Game, rng: np.random.Generator, count: int) -> list[dict[str, Any]]:
    """Snapshots of positions from uniformly random games, terminal ones included."""
    snapshots = []
    while len(snapshots) < count:
        state = game.new_state(rng)
        walk = [state.to_json()]
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])
            walk.append(state.to_json())
        picks = rng.choice(len(walk), size=min(len(walk), 8), replace=False)
        snapshots.extend(walk[i] for i in sorted(picks))
    return snapshots[:count]


def play_out(game: Game, state: State, rng: np.random.Generator) -> None:
    """Exercise an accepted state as an env would, to the end; raises on anything wrong."""
    for _ in range(game.max_game_length + 1):
        for seat in range(game.num_players):
            state.observation(seat)
            game.render(state, seat)
        state.state_tensor()
        state.to_json()
        legal = state.legal_actions()
        if sorted(np.flatnonzero(state.legal_mask()).tolist()) != sorted(legal):
            raise AssertionError("legal_mask() differs from legal_actions()")
        if state.is_terminal():
            if legal:
                raise AssertionError("a terminal state offers actions")
            state.returns()
            return
        if not legal:
            raise AssertionError("a live state offers no action")
        state.apply(legal[rng.integers(len(legal))])
    raise AssertionError(f"no end within max_game_length={game.max_game_length} decisions")


def fuzz(game: Game, seed: int, count: int, mutations_per_snapshot: int = 3) -> FuzzReport:
    """Load `count` mutated snapshots of `game` (1 to `mutations_per_snapshot` changes each)."""
    rng = np.random.default_rng(seed)
    report = FuzzReport()
    pool = sample_snapshots(game, rng, max(8, count // 10))
    for i in range(count):
        data, changes = copy.deepcopy(pool[rng.integers(len(pool))]), []
        for _ in range(int(rng.integers(1, mutations_per_snapshot + 1))):
            changes.append(mutate(data, rng))
            if changes[-1].endswith(DEEP_CHANGE):
                break  # nothing else to learn from mutating inside 100,000 levels
        try:
            state = game.state_from_json(data)
        except ValueError as error:
            if len(str(error)) > 600:
                report.failures.append(f"#{i} {changes}: the error echoes too much ({len(str(error))} chars)")
            report.outcomes["refused"] += 1
            continue
        except Exception as error:  # noqa: BLE001 - anything but a ValueError is what we look for
            report.failures.append(f"#{i} {changes}: load raised {type(error).__name__}: {_short(str(error))}")
            continue
        report.outcomes["accepted"] += 1
        try:
            play_out(game, state, rng)
        except Exception as error:  # noqa: BLE001
            report.failures.append(f"#{i} {changes}: accepted, then {type(error).__name__}: {_short(str(error))}")
    return report
