"""The shipped checkpoints, by name: ``shipped:<env_id>`` (e.g. ``shipped:illimat_v0``).

One trained checkpoint per game travels with the package, ``card_envs/agents/checkpoints/<env_id>.pt``
(the repo's ``agents/checkpoints/``). Every program that takes a checkpoint path also takes
``shipped:<env_id>`` from any folder (``make_policy``, ``python -m card_envs.evaluate`` players,
``--gauntlet`` and ``--exploit``, ``python -m card_envs.agents.play --opponent``, the trainer's
``--init-from``): `checkpoint_path` turns the name into the file, found with `importlib.resources`,
so it resolves the same in a checkout (an editable install) and in an installed wheel. Plain paths
pass through unchanged. No torch here: ``--help`` and the extras check read it.
"""

from __future__ import annotations

import atexit
import contextlib
from importlib import resources
from pathlib import Path

__all__ = ["SHIPPED", "checkpoint_path", "is_checkpoint", "shipped_names"]

SHIPPED = "shipped:"  # the prefix of a shipped checkpoint's name
_FOLDER = "checkpoints"  # inside the package card_envs.agents
_extracted = contextlib.ExitStack()  # files copied out of a zipped install, removed at exit
atexit.register(_extracted.close)


def _folder():
    return resources.files("card_envs.agents").joinpath(_FOLDER)


def shipped_names() -> list[str]:
    """The env ids with a shipped checkpoint, sorted: ``shipped:<id>`` loads each."""
    folder = _folder()
    if not folder.is_dir():
        return []
    return sorted(f.name[:-len(".pt")] for f in folder.iterdir() if f.name.endswith(".pt") and f.is_file())


def is_checkpoint(spec: str | Path) -> bool:
    """Whether a policy spec names a checkpoint: a path ending in ``.pt`` or ``shipped:<env_id>``."""
    return str(spec).endswith(".pt") or str(spec).startswith(SHIPPED)


def checkpoint_path(spec: str | Path) -> Path:
    """The file of a checkpoint spec: ``shipped:<env_id>`` -> the shipped checkpoint of that env;
    anything else -> ``Path(spec)``, unchanged and unchecked (the caller says what is missing).
    ValueError, listing the shipped names, for a ``shipped:`` name that is not one of them."""
    if not isinstance(spec, str) or not spec.startswith(SHIPPED):
        return Path(spec)
    name = spec[len(SHIPPED):]
    names = shipped_names()
    if name not in names:
        listed = ", ".join(SHIPPED + n for n in names) or "none (the package holds no checkpoints folder)"
        raise ValueError(f"unknown shipped checkpoint {spec!r}; shipped checkpoints: {listed}")
    resource = _folder().joinpath(f"{name}.pt")
    if isinstance(resource, Path):  # installed as files (a wheel, a checkout): the file itself
        return resource
    return _extracted.enter_context(resources.as_file(resource))  # a zipped install: a temporary copy
