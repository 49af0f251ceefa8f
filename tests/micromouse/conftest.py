"""After every micromouse test no process started by the test is left alive.

The test process becomes a child subreaper (Linux ``prctl``), so even a
mouse's daemonised grandchild (setsid + double fork) is re-parented to it
and shows up among its descendants, read from ``/proc``.
"""

import ctypes
import os
import time

import pytest

PR_SET_CHILD_SUBREAPER = 36


def _descendants(root: int) -> dict[int, str]:
    """pid -> state letter of every process below ``root``."""
    parent, state = {}, {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2:].split()
        parent[int(name)] = int(fields[1])
        state[int(name)] = fields[0].decode()
    below, todo = set(), [root]
    while todo:
        p = todo.pop()
        for c, pp in parent.items():
            if pp == p and c not in below:
                below.add(c)
                todo.append(c)
    return {p: state[p] for p in below}


@pytest.fixture(scope="session", autouse=True)
def _subreaper():
    libc = ctypes.CDLL(None, use_errno=True)
    assert libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    yield


@pytest.fixture(autouse=True)
def no_process_left(_subreaper):
    me = os.getpid()
    before = set(_descendants(me))
    yield
    deadline = time.monotonic() + 5.0
    while True:
        alive = {}
        for pid, st in _descendants(me).items():
            if pid in before:
                continue
            if st == "Z":                 # dead; collect it if it was left to us
                try:
                    os.waitpid(pid, os.WNOHANG)
                except ChildProcessError:
                    pass
                continue
            alive[pid] = st
        if not alive or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    for pid in alive:                     # don't let one leak poison the next tests
        try:
            os.kill(pid, 9)
        except ProcessLookupError:
            pass
    assert not alive, f"processes left alive by the test: {sorted(alive)}"
