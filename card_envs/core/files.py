"""Atomic file writes for everything the project saves (checkpoints, reports, plots, replays).

Written by hand because the standard library's ``tempfile.mkstemp`` creates files with mode
0600 and nothing cleans up after a killed writer.
"""

from __future__ import annotations

import glob
import os
import uuid
from pathlib import Path
from typing import Callable


def atomic_write(path: str | Path, write: Callable[[str], None]) -> None:
    """``write(temporary path)`` beside ``path``, fsync, then rename over ``path``.

    A reader never sees a half-written file. The file gets the usual mode (0o666 less the
    umask), and temporary files of ``path`` left by a killed write are removed first.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    for stale in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
        stale.unlink(missing_ok=True)
    tmp = path.parent / f".{path.name}.{uuid.uuid4().hex[:12]}.tmp"
    try:
        write(str(tmp))
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
