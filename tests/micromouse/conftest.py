"""After every micromouse test no process started by the test is left alive.

The test process is a child subreaper (Linux ``prctl``) while each test
runs, so even a mouse's daemonised grandchild (setsid + double fork) is
re-parented to it and shows up among its descendants, read from ``/proc``.
"""

import ctypes
import os
import time

import pytest

PR_SET_CHILD_SUBREAPER = 36
PR_GET_CHILD_SUBREAPER = 37


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


def _subreaper(on: bool) -> bool:
    """Set this process's child-subreaper flag; return the previous one."""
    libc = ctypes.CDLL(None, use_errno=True)
    flag = ctypes.c_int(0)
    assert libc.prctl(PR_GET_CHILD_SUBREAPER, ctypes.byref(flag), 0, 0, 0) == 0
    assert libc.prctl(PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0) == 0
    return bool(flag.value)


def _alive_below(me: int, before: set) -> dict:
    """Live new descendants; dead ones left to us are reaped on the way."""
    alive = {}
    for pid, st in _descendants(me).items():
        if pid in before:
            continue
        if st == "Z":
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pass
            continue
        alive[pid] = st
    return alive


@pytest.fixture(autouse=True)
def no_process_left():
    # A subreaper for the test's duration only (tests elsewhere keep init).
    was = _subreaper(True)
    me = os.getpid()
    before = set(_descendants(me))
    try:
        yield
        deadline = time.monotonic() + 5.0
        alive = _alive_below(me, before)
        while alive and time.monotonic() < deadline:
            time.sleep(0.05)
            alive = _alive_below(me, before)
        for pid in alive:                 # don't let one leak poison the next tests
            try:
                os.kill(pid, 9)
            except ProcessLookupError:
                pass
        time.sleep(0.05 if alive else 0)
        _alive_below(me, before)          # reap what was just killed
    finally:
        _subreaper(was)
    assert not alive, f"processes left alive by the test: {sorted(alive)}"
