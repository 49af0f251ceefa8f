"""numba's cache saves are serialised between processes; compiles are counted and told once.

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

from robomaze._compile import cache as _jit_cache
from robomaze._compile import events


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


def test_compiles_are_counted_and_the_notice_prints_once(capsys, monkeypatch):
    monkeypatch.setenv("ROBOMAZE_COMPILE_NOTICE", "1")
    monkeypatch.setitem(events._P, "first", None)
    monkeypatch.setitem(events._P, "silent", True)
    assert events.listen(notice=True)
    before = events.compiled()

    @njit
    def twice(x):
        return 2 * x

    assert twice(np.int64(3)) == 6
    assert twice(2.5) == 5.0  # a second specialisation: a second compile
    assert twice(np.int64(4)) == 8  # already compiled: nothing more
    assert events.compiled() - before == 2
    err = capsys.readouterr().err
    assert err.count("robomaze: compiling numba kernels") == 1 and "twice" in err
    events.summary()
    assert "robomaze: compiled" in capsys.readouterr().err
    events.listen(notice=False)


def test_a_library_call_prints_no_notice(tmp_path):
    import subprocess
    import sys

    code = ("import robomaze, numba\n"
            "@numba.njit\n"
            "def f(x):\n"
            "    return x + 1\n"
            "from robomaze._compile import method_clock\n"
            "with method_clock() as c:\n"
            "    f(1)\n"
            "print(c.compile_s > 0)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300, env=dict(os.environ, ROBOMAZE_COMPILE_NOTICE="1"))
    assert out.stdout.strip() == "True" and out.stderr == ""


def test_a_command_set_up_before_numba_is_imported_does_not_deadlock():
    # listen() imports numba, whose import hook (robomaze's cache locator) listens
    # too: the bench server sets up before anything imports numba
    import subprocess
    import sys

    code = ("import sys, robomaze\n"
            "from robomaze import _compile\n"
            "assert 'numba' not in sys.modules\n"
            "_compile.install()\n"
            "print('numba' in sys.modules)\n"
            "import numba\n"
            "from robomaze._compile import events\n"
            "print(_compile.compiled(), events._P['installed'], events._P['silent'])\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=600, env=dict(os.environ, ROBOMAZE_COMPILE_NOTICE="1"))
    assert out.returncode == 0, out.stderr[-2000:]
    # install() no longer imports numba (a command may never need it); the
    # listener, with the command's notice on, is in place once numba is imported
    assert out.stdout.split() == ["False", "0", "True", "False"]
