"""Supervise a mouse program: find and end every process it started.

A mouse may fork, ``setsid`` and double-fork, so its process group is not
enough. On Linux the host is a *child subreaper*
(``prctl(PR_SET_CHILD_SUBREAPER)``) while the mouse runs: orphaned
descendants of the mouse are re-parented to the host instead of init (and
reaped by it), so walking ``/proc`` parent links from the mouse finds every
one of them; a process that carries the run's token in its environment is
the run's wherever it went. They are frozen with
SIGSTOP until no new one appears (so none can fork away meanwhile), then
killed and reaped. Where ``/proc`` is missing the process group is killed.

The mouse's stderr is drained by a thread into a bounded spool: the first
and the last bytes are kept, the middle is dropped with a marker.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time

from .._proctree import process_table, set_subreaper

__all__ = ["set_subreaper", "mouse_processes", "end_processes", "StderrSpool",
           "TOKEN_VAR"]

#: Environment variable carrying a run's token to the mouse and its children.
TOKEN_VAR = "ROBOMAZE_MOUSE_RUN"


def _table() -> dict[int, int] | None:
    """pid -> parent pid of every live (non-zombie) process, or None without /proc."""
    table = process_table()
    if table is None:
        return None
    return {pid: ppid for pid, (ppid, state) in table.items() if state != "Z"}


def _has_token(pid: int, token: bytes) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as fh:
            return token in fh.read().split(b"\0")
    except OSError:
        return False


def mouse_processes(root: int, token: str) -> set[int] | None:
    """Live processes of a mouse run: ``root``'s descendants and token carriers.

    A process whose environment holds ``TOKEN_VAR=token`` (unique to the run)
    belongs to it wherever it was re-parented; so do all its descendants.
    Returns None without ``/proc``.
    """
    table = _table()
    if table is None:
        return None
    tag = f"{TOKEN_VAR}={token}".encode()
    found = {root} if root in table else set()
    found |= {p for p in table if p != root and p != os.getpid() and _has_token(p, tag)}
    children: dict[int, list[int]] = {}
    for p, pp in table.items():
        children.setdefault(pp, []).append(p)
    todo = list(found)
    while todo:
        for c in children.get(todo.pop(), ()):
            if c not in found:
                found.add(c)
                todo.append(c)
    return found


def _signal(pids, sig) -> None:
    for p in pids:
        try:
            os.kill(p, sig)
        except (ProcessLookupError, PermissionError):
            pass


def _reap(pids) -> None:
    """Collect the exit status of adopted orphans (our children now)."""
    for p in pids:
        try:
            os.waitpid(p, os.WNOHANG)
        except ChildProcessError:
            pass


def end_processes(proc: subprocess.Popen, token: str, *, grace: float = 0.3) -> None:
    """End the mouse ``proc`` and every process it started; reap what is ours."""
    try:
        os.killpg(proc.pid, signal.SIGTERM)      # a polite word to the group first
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        pass
    seen: set[int] = set()
    for _ in range(50):
        live = mouse_processes(proc.pid, token)
        if live is None:                         # no /proc: the group is all we know
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            break
        live -= {os.getpid()}
        new = live - seen
        if not new:
            break
        _signal(new, signal.SIGSTOP)             # freeze: no more forks from them
        seen |= new
    _signal(seen, signal.SIGKILL)
    _signal(seen, signal.SIGCONT)
    deadline = time.monotonic() + 5.0
    while True:
        try:
            proc.wait(timeout=0.05)
        except subprocess.TimeoutExpired:
            pass
        _reap(seen - {proc.pid})
        left = mouse_processes(proc.pid, token) or set()
        left.discard(os.getpid())
        if proc.returncode is not None and not left or time.monotonic() > deadline:
            break
        _signal(left, signal.SIGKILL)
    _reap(seen - {proc.pid})


class StderrSpool:
    """Drain a pipe in a thread, keeping the first ``head`` and last ``tail`` bytes.

    >>> r, w = os.pipe()
    >>> spool = StderrSpool(r, head=4, tail=4)
    >>> _ = os.write(w, b"0123456789abcdef"); os.close(w)
    >>> spool.text()
    '0123\\n[... 8 bytes of stderr dropped ...]\\ncdef'
    """

    def __init__(self, fd: int, *, head: int = 16384, tail: int = 49152) -> None:
        self.fd, self.head_max, self.tail_max = fd, head, tail
        self.head = bytearray()
        self.tail = bytearray()
        self.dropped = 0
        self.thread = threading.Thread(target=self._drain, name="mouse-stderr", daemon=True)
        self.thread.start()

    def _drain(self) -> None:
        try:
            while True:
                chunk = os.read(self.fd, 65536)
                if not chunk:
                    break
                room = self.head_max - len(self.head)
                if room > 0:
                    self.head += chunk[:room]
                    chunk = chunk[room:]
                self.tail += chunk
                extra = len(self.tail) - self.tail_max
                if extra > 0:
                    del self.tail[:extra]
                    self.dropped += extra
        except OSError:
            pass
        finally:
            os.close(self.fd)

    def text(self, timeout: float = 2.0) -> str:
        """Everything kept, with a marker where bytes were dropped."""
        self.thread.join(timeout)
        mid = f"\n[... {self.dropped} bytes of stderr dropped ...]\n" if self.dropped else ""
        return (self.head.decode("utf-8", "replace") + mid
                + self.tail.decode("utf-8", "replace"))
