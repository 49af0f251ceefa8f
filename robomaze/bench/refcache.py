"""Expensive references shared between a sweep's workers: a content-keyed cache.

The optimal reference of a run (:func:`robomaze.metrics.shortest_length`)
depends only on the grid, the footprint and the two ends; its costly part,
a disc's visibility graph (:mod:`robomaze.geometry.visibility`), only on the
grid and the radius -- one per (maze, footprint, widening), shared by every
planner and agent run on it. Each worker of a sweep used to build it again
(about 6 CPU-seconds for a widened 16x16 contest maze); with this cache the
first worker that needs a graph builds it and writes it to
``DIR/cache/references/KEY.npz``, and every other run loads it in
milliseconds.

- **content-keyed**: ``KEY`` is a SHA-256 of everything the value depends on
  (the grid's cells, the radius, the chord count and a format version), so
  a stale entry cannot be found by a different question;
- **built once**: a builder holds ``fcntl.flock`` on ``KEY.lock`` while it
  computes; a second worker wanting the same key waits for it and then
  loads (a killed builder releases the lock with its process);
- **the results directory's rules** (:mod:`robomaze.bench.files`): files are
  reached through :func:`~robomaze.bench.files.target` (no link, nothing
  outside the directory) and written atomically by
  :func:`~robomaze.bench.files.replace_file`; the sweep lists them in the
  manifest when it ends (:func:`cache_files`). A damaged entry is rebuilt.

Runs find the cache through :data:`REFERENCE_CACHE_ENV`, which the local
sweep runner sets for its workers (dask workers may not share the folder:
they compute as before).

>>> import tempfile, numpy as np
>>> from pathlib import Path
>>> d = Path(tempfile.mkdtemp())
>>> store = ArrayStore(d)
>>> calls = []
>>> def build():
...     calls.append(1)
...     return {"x": np.arange(3.0)}
>>> store.get_or_build("k" * 64, build)["x"].tolist(), store.get_or_build("k" * 64, build)["x"].tolist()
([0.0, 1.0, 2.0], [0.0, 1.0, 2.0])
>>> len(calls), cache_files(d)
(1, ['cache/references/kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk.lock', 'cache/references/kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk.npz'])
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import io
import os
import re
import zipfile
from pathlib import Path
from typing import Callable, Iterator

import numpy as np

from ..errors import ResultsDirError

__all__ = ["ArrayStore", "REFERENCE_CACHE_ENV", "CACHE_FOLDER", "cache_files", "sweep_cache",
           "spread_by_reference"]

#: Environment variable naming the results directory whose cache the runs use.
REFERENCE_CACHE_ENV = "ROBOMAZE_REFERENCE_CACHE"

#: Folder of the cache inside a results directory.
CACHE_FOLDER = "cache/references"

_KEY = re.compile(r"^[0-9a-z]{16,128}$")


class ArrayStore:
    """Named arrays by content key in ``DIR/cache/references`` (see the module)."""

    def __init__(self, directory: str | os.PathLike) -> None:
        self.directory = Path(directory)

    def _path(self, key: str, suffix: str) -> Path:
        from .files import target

        if not _KEY.match(key):
            raise ValueError(f"cache key must be 16-128 lowercase letters or digits, got {key!r}")
        return target(self.directory, f"{CACHE_FOLDER}/{key}{suffix}")

    def load(self, key: str) -> dict[str, np.ndarray] | None:
        """The arrays stored under ``key``, or None (absent or unreadable)."""
        from .files import read_regular

        path = self._path(key, ".npz")
        if not path.exists():
            return None
        try:
            data = read_regular(path, OSError)
            with np.load(io.BytesIO(data), allow_pickle=False) as z:
                return {name: z[name] for name in z.files}
        except (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError):
            return None   # damaged (a disk full mid-write of someone else's copy): rebuild

    def save(self, key: str, arrays: dict[str, np.ndarray]) -> None:
        """Store ``arrays`` under ``key`` (atomic: readers see all or nothing)."""
        from .files import replace_file

        buf = io.BytesIO()
        np.savez(buf, **arrays)
        replace_file(self._path(key, ".npz"), buf.getvalue())

    @contextlib.contextmanager
    def _locked(self, key: str) -> Iterator[None]:
        path = self._path(key, ".lock")
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise ResultsDirError(f"{path}: is a symbolic link; remove it") from None
            raise ResultsDirError(f"{path}: cannot open the cache lock: {exc.strerror}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)   # blocks while another worker builds this key
            yield
        finally:
            os.close(fd)

    def get_or_build(self, key: str,
                     build: Callable[[], dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
        """The arrays under ``key``; the first caller builds and stores them."""
        found = self.load(key)
        if found is not None:
            return found
        with self._locked(key):
            found = self.load(key)   # built by the worker we waited for
            if found is not None:
                return found
            arrays = build()
            self.save(key, arrays)
            return arrays


def cache_files(directory: str | os.PathLike) -> list[str]:
    """The cache's files in ``directory`` as manifest entries (relative paths)."""
    folder = Path(directory) / CACHE_FOLDER
    if not folder.is_dir() or folder.is_symlink():
        return []
    return sorted(f"{CACHE_FOLDER}/{p.name}" for p in folder.iterdir()
                  if p.is_file() and not p.is_symlink() and not p.name.startswith(".tmp-")
                  and p.suffix in (".npz", ".lock"))


@contextlib.contextmanager
def sweep_cache() -> Iterator[ArrayStore | None]:
    """While open, disc references (visibility graphs) go through the cache of
    the results directory named by :data:`REFERENCE_CACHE_ENV` (nothing when
    it is unset)."""
    directory = os.environ.get(REFERENCE_CACHE_ENV)
    if not directory:
        yield None
        return
    from ..geometry.visibility import graph_store

    store = ArrayStore(directory)
    with graph_store(store):
        yield store


def reference_group(scenario) -> str:
    """What a run's reference depends on: its maze, widening and footprint
    (a mouse run needs none: its own id)."""
    import json

    spec = scenario.spec
    if scenario.kind == "mouse":
        return "mouse:" + scenario.id
    return json.dumps([spec["maze"], spec["widen"], spec["robot"]["footprint"]], sort_keys=True)


def spread_by_reference(scenarios: list) -> list:
    """The runs reordered so that the first run of every reference group comes
    first (round robin over the groups, each group's runs in their order).

    Workers then build different references side by side and the later runs
    of a group find theirs in the cache, instead of a second worker waiting
    for the first one's build of the same reference.

    >>> from types import SimpleNamespace as S
    >>> def run(maze, i):
    ...     return S(kind="plan", id=str(i), spec={"maze": maze, "widen": 1, "robot": {"footprint": 0}})
    >>> [r.id for r in spread_by_reference([run("a", 1), run("a", 2), run("b", 3), run("b", 4)])]
    ['1', '3', '2', '4']
    """
    groups: dict[str, list] = {}
    for sc in scenarios:
        groups.setdefault(reference_group(sc), []).append(sc)
    queues = list(groups.values())
    out: list = []
    depth = 0
    while len(out) < len(scenarios):
        out.extend(q[depth] for q in queues if depth < len(q))
        depth += 1
    return out
