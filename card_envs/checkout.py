"""A source checkout's programs, found in that checkout.

The repo keeps ``agents/``, ``train/`` and ``evaluate/`` beside the package; an install puts them
inside it (``card_envs.agents``, ...: setup.py's mapping). In a checkout, `install` points those
three names at the checkout's own folders, ahead of any other finder. Without it, they would come
from whichever checkout an editable install was made from last (its finder maps them by absolute
path) while ``card_envs`` itself came from the current one: two clones would silently mix their
code. It also lets a checkout run with no install at all (``PYTHONPATH=.``).
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys
from pathlib import Path

PROGRAMS = ("agents", "train", "evaluate")


class CheckoutPrograms(importlib.abc.MetaPathFinder):
    """Finds ``card_envs.<program>`` in the checkout's ``<program>/`` folder (its submodules are
    then found through the package's ``__path__`` as usual)."""

    def __init__(self, root: Path):
        self.root = root

    def find_spec(self, name, path=None, target=None):
        package, _, program = name.partition(".")
        if package != "card_envs" or program not in PROGRAMS:
            return None
        folder = self.root / program
        return importlib.util.spec_from_file_location(name, folder / "__init__.py",
                                                      submodule_search_locations=[str(folder)])


def install(package_dir: Path) -> None:
    """Install the finder where `package_dir` (card_envs/) sits in a checkout, else do nothing
    (an installed package holds its programs itself)."""
    root = package_dir.parent
    if (package_dir / "agents").exists() or not (root / "setup.py").is_file():
        return
    if not all((root / program / "__init__.py").is_file() for program in PROGRAMS):
        return
    if not any(isinstance(finder, CheckoutPrograms) for finder in sys.meta_path):
        sys.meta_path.insert(0, CheckoutPrograms(root))
