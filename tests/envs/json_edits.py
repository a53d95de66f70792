"""Editing one value deep inside a JSON snapshot, for the tests that feed loaders wrong values."""

from __future__ import annotations

import copy
from typing import Any


def replaced(data: Any, path: tuple, value: Any) -> Any:
    """A deep copy of `data` with the value at `path` (keys and indices) replaced by `value`."""
    if not path:
        return value
    out = copy.deepcopy(data)
    inner = out
    for key in path[:-1]:
        inner = inner[key]
    inner[path[-1]] = value
    return out
