"""numba's cache saves are serialised between processes (robomaze._jit_cache).

numba replaces each cache file atomically but updates a function's index by
read-modify-write; robomaze compiles in several processes at once on a cold
start, so a save must wait while another process holds the folder's lock.
"""

import fcntl
import os
import threading

import numpy as np
from numba import njit
from numba.core.caching import IndexDataCacheFile

from robomaze import _jit_cache, _jit_notice


def test_a_save_waits_for_the_folders_lock(tmp_path):
    assert _jit_cache.install()
    cache = IndexDataCacheFile(str(tmp_path), "f-1.py311", ("stamp", 1))
    fd = os.open(tmp_path / _jit_cache.LOCK_NAME, os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)  # another process saving, as far as the lock knows
    saver = threading.Thread(target=cache.save, args=(("sig", "magic"), b"data"))
    saver.start()
    saver.join(0.3)
    assert saver.is_alive() and not (tmp_path / "f-1.py311.nbi").exists()
    os.close(fd)  # releases the lock
    saver.join(30)
    assert not saver.is_alive()
    assert cache.load(("sig", "magic")) == b"data"


def test_two_specialisations_saved_at_once_both_stay_in_the_index(tmp_path):
    _jit_cache.install()
    entries = [(("sig", i), f"data{i}".encode()) for i in range(8)]
    threads = [threading.Thread(target=IndexDataCacheFile(str(tmp_path), "g-1.py311",
                                                          ("stamp", 1)).save, args=e)
               for e in entries]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    reader = IndexDataCacheFile(str(tmp_path), "g-1.py311", ("stamp", 1))
    assert [reader.load(k) for k, _ in entries] == [d for _, d in entries]


def test_on_next_compile_fires_once_at_a_cache_miss():
    assert _jit_notice.install() is not None
    calls = []
    _jit_notice.on_next_compile(lambda: calls.append(1))

    @njit
    def twice(x):
        return 2 * x

    assert twice(np.int64(3)) == 6
    assert twice(2.5) == 5.0  # a second compile: the hook is spent
    assert calls == [1]
    _jit_notice.on_next_compile(None)
