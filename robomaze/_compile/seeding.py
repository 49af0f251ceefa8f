"""Shipped kernels copied into the user's cache the first time numba looks there.

A wheel build compiles robomaze's kernels into the package
(``robomaze/_kernels/<numba-ver-pyXY>/<module>-<key>/``, :mod:`.shipped`).
When numba first looks for a module's kernels
(``ContentKeyedLocator.from_function``, :mod:`.cache`), :func:`seed` copies
the shipped files of that module's folder into the user's cache folder if
that lacks them, and numba loads them from there as from any cache.
Nothing is loaded from the package folder itself, which may be read-only.

A shipped kernel runs only where it was made for:

* the folder's name is the same content key as the user's folder: the
  hash of the module's file and of every package file it imports, so an
  edited source (or a changed callee) has another folder, never seeded;
* numba's index carries that name as its source stamp (:func:`content_stamp`)
  and numba's version, and numba drops an index whose version or stamp
  differs;
* the numba and Python versions are in the path, and the :data:`MANIFEST`
  must match the running llvmlite, NumPy, platform and machine;
* numba keys every entry of an index by ``codegen.magic_tuple()`` (the
  LLVM target triple, the host CPU's name and its feature flags,
  ``numba.core.caching.Cache._index_key``): on another CPU every entry
  misses, numba compiles as without a shipped folder, and adds its own
  entry beside the foreign ones. It never runs machine code built for
  another CPU.

``ROBOMAZE_SHIPPED_KERNELS=0`` turns the seeding off (the benchmarks that
measure a compile from scratch, and the test suite, set it).

Examples
--------
>>> import os, tempfile
>>> src, dst = tempfile.mkdtemp(), tempfile.mkdtemp()
>>> for name in ("f-3.py311.nbi", "f-3.py311.1.nbc", "g-9.py311.nbi"):
...     open(os.path.join(src, name), "w").close()
>>> sorted(copy_groups(src, dst, lambda path: False))
['f-3.py311', 'g-9.py311']
>>> sorted(os.listdir(dst))
['f-3.py311.1.nbc', 'f-3.py311.nbi', 'g-9.py311.nbi']
>>> copy_groups(src, dst, lambda path: True)   # the user's own indexes stay
[]
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import shutil
import sys
from typing import Callable

__all__ = ["SHIPPED_ENV", "FOLDER", "MANIFEST", "MARKER", "PACKAGE_DIR", "LOCK_NAME",
           "folder_lock", "content_stamp", "enabled", "shipped_root", "runtime",
           "compatible", "copy_groups", "seed"]

#: ``0`` turns the seeding of shipped kernels off (a compile from scratch).
SHIPPED_ENV = "ROBOMAZE_SHIPPED_KERNELS"
#: The folder, inside the package, the build's kernels go in.
FOLDER = "_kernels"
#: The file, in each version folder, that names what the kernels were made with.
MANIFEST = "manifest.json"
#: A file in a user's cache folder once it has been seeded (one stat on later runs).
MARKER = "robomaze-seeded"
#: The robomaze package folder: kernels defined below it use the content-keyed cache.
PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: The lock file numba's cache folders get (empty; only locked).
LOCK_NAME = "robomaze-cache.lock"


@contextlib.contextmanager
def folder_lock(folder: str):
    """Hold the exclusive ``flock`` of a cache folder (its :data:`LOCK_NAME` file).

    numba's index saves (:func:`robomaze._compile.cache.install`) and the
    seeding of shipped kernels (:func:`seed`) take it. Without ``fcntl``, or in a folder that cannot
    be written, it holds nothing: each file is still replaced whole.

    >>> import tempfile
    >>> with folder_lock(tempfile.mkdtemp()):
    ...     pass
    """
    try:
        import fcntl

        fd = os.open(os.path.join(folder, LOCK_NAME), os.O_RDWR | os.O_CREAT, 0o666)
    except (ImportError, OSError):  # read-only or vanished folder: numba reports its own error
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def content_stamp(folder: str) -> str:
    """The source stamp numba's index of a kernel in ``folder`` carries.

    numba keeps a stamp of the source in each index (``.nbi``) and drops the
    index when the running file's stamp differs: the file's mtime and size
    in older releases (any installed copy then differs), a hash of the one
    file in newer ones such as 0.68 (blind to a changed callee). robomaze's
    stamp is the folder's name, the module and the hash of its file and of
    every package file it imports: equal wherever the same sources are, so an
    index made by the build (:mod:`.shipped`) or by another install is
    valid, and never equal for other sources.

    >>> content_stamp("/x/numba-0.61.0-py311/plan._kernels-0123456789abcdef0123")
    'robomaze-content:plan._kernels-0123456789abcdef0123'
    """
    return "robomaze-content:" + os.path.basename(os.path.normpath(folder))


def enabled() -> bool:
    """Whether shipped kernels are copied into the user's cache (``ROBOMAZE_SHIPPED_KERNELS``).

    >>> import os
    >>> os.environ.get(SHIPPED_ENV, "") == "0" or enabled()
    True
    """
    return os.environ.get(SHIPPED_ENV, "").strip() != "0"


def shipped_root(package_dir: str = PACKAGE_DIR) -> str:
    """The folder shipped kernels are in (``<package>/_kernels``).

    >>> shipped_root("/site/robomaze")
    '/site/robomaze/_kernels'
    """
    return os.path.join(package_dir, FOLDER)


def runtime() -> dict:
    """What compiled kernels depend on beyond the numba and Python versions in the path.

    >>> sorted(runtime())
    ['llvmlite', 'machine', 'numba', 'numpy', 'platform', 'python']
    """
    import platform

    import llvmlite
    import numba
    import numpy

    return {"numba": numba.__version__, "llvmlite": llvmlite.__version__,
            "numpy": numpy.__version__, "python": "%d.%d" % sys.version_info[:2],
            "platform": sys.platform, "machine": platform.machine()}


@functools.lru_cache(maxsize=None)
def compatible(version_dir: str) -> bool:
    """Whether the kernels of ``version_dir`` were built with what runs here
    (its :data:`MANIFEST` equals :func:`runtime`; no manifest: no)."""
    try:
        with open(os.path.join(version_dir, MANIFEST), encoding="utf-8") as f:
            made = json.load(f).get("runtime")
    except (OSError, ValueError, AttributeError):
        return False
    return made == runtime()


def _index_valid(path: str, stamp: str) -> bool:
    """Whether numba would use the index at ``path``: this numba's version and ``stamp``."""
    import pickle

    import numba

    try:
        with open(path, "rb") as f:
            if pickle.load(f) != numba.__version__:
                return False
            return pickle.loads(f.read())[0] == stamp
    except Exception:  # unreadable, truncated, a type numba no longer has: not valid
        return False


def _copy_atomic(src: str, dst: str) -> None:
    # a reader sees the old file or the whole new one; copyfile gives the
    # copy the user's own permissions, not the (maybe read-only) package's
    tmp = f"{dst}.tmp.robomaze.{os.getpid()}"
    try:
        shutil.copyfile(src, tmp)
        os.replace(tmp, dst)
    except BaseException:
        # gone already, or not ours to remove: the copy's error is the one to raise
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def copy_groups(src: str, dst: str, keep: Callable[[str], bool]) -> list[str]:
    """Copy each function's index (``<stem>.nbi``) and data (``<stem>.<n>.nbc``)
    from ``src`` to ``dst``, except where ``keep(dst index path)`` says the one
    there stays. Data first, the index last: an index never names a missing
    file. Returns the stems copied."""
    names = sorted(os.listdir(src))
    copied = []
    for name in names:
        if not name.endswith(".nbi"):
            continue
        stem = name[:-4]
        target = os.path.join(dst, name)
        if os.path.exists(target) and keep(target):
            continue
        for data in names:
            if data.startswith(stem + ".") and data.endswith(".nbc"):
                _copy_atomic(os.path.join(src, data), os.path.join(dst, data))
        _copy_atomic(os.path.join(src, name), target)
        copied.append(stem)
    return copied


_SEEDED: set[str] = set()


def seed(folder: str, package_dir: str = PACKAGE_DIR) -> int:
    """Copy the shipped kernels of a user cache folder's module into it if it lacks them.

    ``folder`` is ``<cache root>/<numba-ver-pyXY>/<module>-<key>``; the
    shipped folder of the same two names, if any and :func:`compatible`,
    is copied function by function: a function whose index is already in
    ``folder`` and valid (this numba, this content stamp) keeps it. Done
    once per folder and process; a marker file makes later processes skip
    it with one ``stat``. Two processes seeding at once take turns (the
    folder's lock). Never raises. Returns the number of functions copied.
    """
    if folder in _SEEDED:
        return 0
    _SEEDED.add(folder)
    try:
        if not enabled():
            return 0
        version_dir = os.path.join(shipped_root(package_dir),
                                   os.path.basename(os.path.dirname(folder)))
        src = os.path.join(version_dir, os.path.basename(folder))
        if not os.path.isdir(src) or os.path.exists(os.path.join(folder, MARKER)):
            return 0
        if not compatible(version_dir):
            return 0
        stamp = content_stamp(folder)
        os.makedirs(folder, exist_ok=True)
        with folder_lock(folder):
            if os.path.exists(os.path.join(folder, MARKER)):
                return 0  # another process seeded it while this one waited
            copied = copy_groups(src, folder, lambda path: _index_valid(path, stamp))
            with open(os.path.join(folder, MARKER), "w") as f:
                f.write(f"{len(copied)} function(s) from {src}\n")
        return len(copied)
    except Exception:  # an optimisation only: numba compiles what is missing
        return 0
