"""Echoing user input in messages: whatever was given, a short and safe text."""

from __future__ import annotations

import difflib
import reprlib
from typing import Any, Iterable


def show(value: Any) -> str:
    """`value` as at most 80 characters: a huge list, string or integer is never echoed whole."""
    try:
        text = reprlib.repr(value)  # bounded depth and length
    except ValueError:  # an int too long to print (sys.get_int_max_str_digits), or a container of one
        text = f"<int of {value.bit_length()} bits>" if isinstance(value, int) else f"<{type(value).__name__}>"
    return text if len(text) <= 80 else text[:77] + "..."


def some(values: Iterable[Any], near: Any = None, most: int = 4) -> str:
    """A few of `values` for an error message, never all of a long list: ``'Smith', 'Healer',
    'Knight', 'Jeweller' ... and 11 more``. Those closest to the wrong name `near` come first, so a
    typo meets its correction."""
    values = list(values)
    if isinstance(near, str):
        close = difflib.get_close_matches(near, [v for v in values if isinstance(v, str)], n=most, cutoff=0.6)
        values = close + [v for v in values if v not in close]
    shown = ", ".join(show(v)[:30] for v in values[:most])
    return shown if len(values) <= most else f"{shown} ... and {len(values) - most} more"
