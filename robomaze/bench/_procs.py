"""The processes of a benchmark run: find and end everything a run left behind.

A local worker makes itself a *child subreaper* (Linux ``prctl``), so a
run's orphans (a double-forked or ``setsid`` child, a multiprocessing fork
server and resource tracker) are re-parented to it instead of init; after
each run it ends all its descendants, and the parent ends a killed worker's
whole tree the same way. Without this, a planner's long-lived child
outlives the sweep holding its stdout (a pipe to ``tail`` never closes).
"""

from __future__ import annotations

import os
import signal
import time

from .._proctree import descendants, set_subreaper

__all__ = ["become_subreaper", "descendants", "kill_tree", "has_children"]

def become_subreaper() -> None:
    """Orphans of a run (a double-forked or ``setsid`` child) are re-parented
    to this worker instead of init, so :func:`kill_tree` finds them (not
    Linux: descendants are still found while their parents live)."""
    set_subreaper(True)


def kill_tree(root: int, *, include_root: bool, reap: bool) -> bool:
    """SIGKILL ``root``'s descendants (and ``root``); repeat while new ones appear.

    ``reap`` collects exited children with ``waitpid(-1)``: only in a worker,
    whose children are all its runs' (in the sweep's own process it would
    steal the exit status of the caller's other children).
    """
    found = False
    for _ in range(10):
        pids = descendants(root)
        if include_root:
            pids = [root, *pids]
            include_root = False
        if not pids:
            return found
        found = True
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        if reap:
            _reap(0.5)
        else:
            time.sleep(0.05)
    return found


def _reap(timeout: float) -> None:
    """Collect exited children (re-parented orphans included) for up to ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            if time.monotonic() > deadline:
                return
            time.sleep(0.01)


def has_children() -> bool:
    """Whether this worker has any child, alive or not: a cheap test before the
    ``/proc`` scan (as a subreaper, no child means no descendant at all)."""
    try:
        os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        return False
    return True
