"""Optional dependencies (pyproject's extras), checked when a command starts: a missing one is
named with the line that installs it, rather than found as a ModuleNotFoundError after minutes
of work (``python -m card_envs.evaluate`` used to play every game before it needed openskill)."""

from __future__ import annotations

import importlib.util
import sys


def missing(*modules: str) -> str | None:
    """The first of ``modules`` that cannot be imported (it is not installed), or None."""
    for name in modules:
        try:
            if importlib.util.find_spec(name) is None:
                return name
        except (ImportError, ValueError):  # a parent package missing, or a module without a spec
            return name
    return None


def require(program: str, extra: str, *modules: str) -> None:
    """Exit with code 2 and one line naming the missing module and the extra that installs it,
    where one of ``modules`` is missing."""
    name = missing(*modules)
    if name is not None:
        print(f"{program}: error: {name} is not installed; it comes with the {extra!r} extra: "
              f'pip install -e ".[{extra}]" -c constraints.txt', file=sys.stderr)
        raise SystemExit(2)
