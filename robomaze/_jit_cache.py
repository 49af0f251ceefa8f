"""Make numba's on-disk cache safe for several processes compiling at once.

numba writes every cache file atomically (a temporary file, then
``os.replace``), but it updates a function's index file (``.nbi``: which
data file ``.N.nbc`` holds which specialisation) by read, modify, write,
without a lock. Two processes saving specialisations of one function at the
same moment can therefore lose an index entry (recompiled next time) or, if
both pick the same free data-file number, leave the index naming the other
process's machine code for a signature. robomaze compiles in several
processes at once on a cold start (the bench warm-up's helpers, bench
workers), so :func:`install` holds an exclusive ``fcntl.flock`` on one lock
file per cache folder around each save. Loading needs no lock: it reads
whole files that are only ever replaced atomically.

Examples
--------
>>> from robomaze import _jit_cache
>>> _jit_cache.install() in (True, False)   # False where fcntl or the hook is missing
True
>>> _jit_cache.install() == _jit_cache.install()   # idempotent
True
"""

from __future__ import annotations

import functools
import os

__all__ = ["install", "LOCK_NAME"]

#: The lock file numba's cache folders get (empty; only locked).
LOCK_NAME = "robomaze-cache.lock"

_INSTALLED: bool | None = None


def install() -> bool:
    """Serialise numba cache saves across processes (idempotent).

    Returns whether the lock is in place: False on platforms without
    ``fcntl`` or a numba without ``IndexDataCacheFile.save`` (the cache then
    works as numba ships it).
    """
    global _INSTALLED
    if _INSTALLED is not None:
        return _INSTALLED
    try:
        import fcntl

        from numba.core.caching import IndexDataCacheFile
    except ImportError:  # pragma: no cover - Windows, or a numba that moved the class
        _INSTALLED = False
        return False
    save = getattr(IndexDataCacheFile, "save", None)
    if save is None or getattr(save, "_robomaze_locked", False):  # pragma: no cover
        _INSTALLED = save is not None
        return _INSTALLED

    @functools.wraps(save)
    def locked_save(self, key, data):
        try:
            fd = os.open(os.path.join(self._cache_path, LOCK_NAME), os.O_RDWR | os.O_CREAT, 0o666)
        except OSError:  # read-only or vanished folder: numba reports its own error
            return save(self, key, data)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            return save(self, key, data)
        finally:
            os.close(fd)  # closing releases the lock

    locked_save._robomaze_locked = True
    IndexDataCacheFile.save = locked_save
    _INSTALLED = True
    return True
