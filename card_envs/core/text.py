"""Echoing user input in messages: whatever was given, a short and safe text."""

from __future__ import annotations

import reprlib
from typing import Any


def show(value: Any) -> str:
    """`value` as at most 80 characters: a huge list, string or integer is never echoed whole."""
    try:
        text = reprlib.repr(value)  # bounded depth and length
    except ValueError:  # an int too long to print (sys.get_int_max_str_digits), or a container of one
        text = f"<int of {value.bit_length()} bits>" if isinstance(value, int) else f"<{type(value).__name__}>"
    return text if len(text) <= 80 else text[:77] + "..."
