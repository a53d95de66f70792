"""Where card_envs' numba kernels are cached: one folder per user and version, for every install.

Every compiled kernel of card_envs takes ``njit`` from here instead of from numba::

    from card_envs.numba_cache import njit

    @njit(cache=True)
    def kernel(...): ...

It is numba's own ``njit``; importing this module first adds a cache locator (numba's extension
point for where ``cache=True`` keeps compiled code) that puts card_envs' kernels under
`cache_root()`, e.g. ``~/.cache/card_envs/0.1.0-numba0.68.1/``. Why not numba's default: it keeps
a kernel in ``__pycache__`` beside its source file, so a clone, an editable install and a wheel of
the same version each compiled every kernel again (minutes per game); here they share one cache.

A kernel's entry is keyed by its module's name and a stamp of the source of that module and of
every card_envs module it imports, directly or not (numba's own stamp is the one file's content: a
kernel whose callee in another module changed would load the old callee's code, a risk that grows
once two checkouts share the cache). ``NUMBA_CACHE_DIR``, where set, still wins (numba's own
locator, the folder it names); where the user cache folder cannot be written, numba's default.

Compiling says so: the first compile of card_envs' kernels in a process prints one line to stderr
(``card_envs: compiling numba kernels (card_envs.batch.three_piles) ...``), unless a caller that
says it itself (`card_envs.agents.warm.warm_up`) runs it inside `announced_elsewhere`.
Loading from the cache says nothing (numba fires no compile event for it).
"""

from __future__ import annotations

import ast
import hashlib
import sys
from contextlib import contextmanager
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from numba import njit  # noqa: F401 - re-exported: kernels import it from here, after the locator is installed
from numba.core import caching, config, event
from numba.misc.appdirs import AppDirs

PACKAGE = "card_envs"

__all__ = ["announced_elsewhere", "cache_location", "cache_root", "njit", "source_stamp"]


@lru_cache(maxsize=None)  # asked by each kernel as it is decorated (about 400): the metadata read once
def cache_root() -> Path:
    """The folder of this card_envs version's kernels in the user's cache (``NUMBA_CACHE_DIR``, where
    set, is used instead)."""
    import numba

    try:
        version = metadata.version(PACKAGE)
    except metadata.PackageNotFoundError:  # imported from a source tree on sys.path, not installed
        version = "source"
    user_cache = AppDirs(appname=PACKAGE, appauthor=False).user_cache_dir
    return Path(user_cache) / f"{version}-numba{numba.__version__}"


def cache_location() -> str:
    """Where card_envs' kernels are cached, in words: ``NUMBA_CACHE_DIR`` where set, else `cache_root()`."""
    if config.CACHE_DIR:
        return f"{config.CACHE_DIR} (NUMBA_CACHE_DIR)"
    return f"{cache_root()} (NUMBA_CACHE_DIR moves it)"


@lru_cache(maxsize=None)
def source_stamp(module: str) -> str:
    """A hash of the source of ``module`` and of every card_envs module it imports, directly or
    through others (imports at a module's top level, resolved among the modules already imported)."""
    seen: dict[str, bytes] = {}
    todo = [module]
    while todo:
        name = todo.pop()
        path = _source_file(name)
        if name in seen or path is None:
            continue
        seen[name] = path.read_bytes()
        todo.extend(_imported(name, seen[name]))
    digest = hashlib.sha256()
    for name in sorted(seen):
        digest.update(name.encode() + b"\0" + hashlib.sha256(seen[name]).digest())
    return digest.hexdigest()


def _source_file(name: str) -> Path | None:
    loaded = sys.modules.get(name)
    path = getattr(loaded, "__file__", None)
    return Path(path) if path and path.endswith(".py") else None


def _imported(name: str, source: bytes) -> set[str]:
    """The card_envs modules that module ``name`` imports at its top level (``from a import b`` may
    import the module ``a.b`` or a name of ``a``: both are tried)."""
    package = name if _source_file(name).name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _top_level(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {module for module in found if module == PACKAGE or module.startswith(PACKAGE + ".")}


def _top_level(tree: ast.Module):
    """The statements run on import: the module's, and those inside its top-level if/try blocks."""
    todo = list(tree.body)
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, (ast.If, ast.Try)):
            todo.extend(node.body + node.orelse + getattr(node, "finalbody", []) +
                        [statement for handler in getattr(node, "handlers", []) for statement in handler.body])


class _CardEnvsLocator(caching._CacheLocator):
    """numba's cache locator for card_envs' kernels: `cache_root()`/<module>/, `source_stamp`."""

    def __init__(self, py_func, py_file):
        self._module = py_func.__module__
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = str(cache_root() / self._module)

    def get_cache_path(self) -> str:
        return self._cache_path

    def get_source_stamp(self) -> str:
        return source_stamp(self._module)

    def get_disambiguator(self) -> str:
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func, py_file):
        module = getattr(py_func, "__module__", "") or ""
        if config.CACHE_DIR or not module.startswith(PACKAGE + ".") or _source_file(module) is None:
            return None  # NUMBA_CACHE_DIR set, another package's function, or no source file: numba's locators
        locator = cls(py_func, py_file)
        try:
            locator.ensure_cache_path()
        except OSError:  # the user cache folder cannot be written: numba's default, beside the source
            return None
        return locator


_LOCATORS = (getattr(caching, "CacheImpl", None) or caching._CacheImpl)._locator_classes  # numba < 0.61: _CacheImpl
if _CardEnvsLocator not in _LOCATORS:
    _LOCATORS.insert(0, _CardEnvsLocator)


_announced = False  # compiling was said in this process
_elsewhere = 0  # callers inside `announced_elsewhere`


@contextmanager
def announced_elsewhere():
    """Compiles inside this block are announced by the caller, not by this module's line."""
    global _elsewhere
    _elsewhere += 1
    try:
        yield
    finally:
        _elsewhere -= 1


class _Announcer(event.Listener):
    """Says, once per process, that card_envs' kernels are being compiled."""

    def on_start(self, ev) -> None:
        global _announced
        module = getattr(getattr(ev.data.get("dispatcher"), "py_func", None), "__module__", None) or ""
        if _announced or _elsewhere or not module.startswith(PACKAGE + "."):
            return
        _announced = True
        print(f"card_envs: compiling numba kernels ({module.rpartition('.')[0]}), once per version (then cached "
              f"in {cache_location()}): seconds to minutes ...", file=sys.stderr, flush=True)

    def on_end(self, ev) -> None:
        pass


event.register("numba:compile", _Announcer())
