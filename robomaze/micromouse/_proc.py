"""Supervise a mouse program: find and end every process it started.

A mouse may fork, ``setsid``, double-fork, clear its environment and exit
before its children, so neither its process group nor its process tree is
enough. The program is therefore started under a *reaper*
(:data:`robomaze._proctree.REAPER`, a small stdlib-only Python process): the
reaper is a child subreaper (``prctl(PR_SET_CHILD_SUBREAPER)``), so every
process the program starts stays below it however it detaches, and it has
no other children -- *everything* below it is the run's. When the host asks
(SIGTERM), or when the host itself dies (``PR_SET_PDEATHSIG``), the reaper
freezes every descendant with SIGSTOP until no new one appears, kills and
reaps them all, then exits. The reaper reports the program's pid, the mode
it got and the program's exit code on a status pipe.

Fallback, named in :attr:`Contained.mode`: where the subreaper flag is
unavailable (``"group"``: not Linux) only the program's process group is
killed. The host itself stays a subreaper while the mouse runs and, after
the reaper, also ends any process carrying the run's token in its
environment, and every process it inherited during the run, token or not
(:func:`robomaze._proctree.adopted`): a second net for when the mouse
kills its reaper, whose orphans -- an environment-less double-forked
grandchild among them -- then come to the host. A reaper the mouse has
stopped (SIGSTOP) is woken once its descendants are frozen, so nothing
can stop it again.

The mouse's stderr is drained by a thread into a bounded spool: the first
and the last bytes are kept, the middle is dropped with a marker.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import threading
import time

from .._proctree import REAPER, adopted, children_of, descendants, process_table, set_subreaper
from ..errors import ParameterError

__all__ = ["set_subreaper", "mouse_processes", "end_processes", "StderrSpool",
           "TOKEN_VAR", "Contained", "start_contained"]

#: Environment variable carrying a run's token to the mouse and its children.
TOKEN_VAR = "ROBOMAZE_MOUSE_RUN"

# Reapers of the runs in progress in this process (runs may be hosted from
# several threads): one run's net must not take another run's reaper for an
# inherited orphan.
_REAPERS: set[int] = set()
_REAPERS_LOCK = threading.Lock()


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


def mouse_processes(root: int, token: str, also=()) -> set[int] | None:
    """Live processes of a mouse run: ``root``'s descendants and token carriers.

    A process whose environment holds ``TOKEN_VAR=token`` (unique to the run)
    belongs to it wherever it was re-parented; so do all its descendants,
    and those of the pids in ``also`` (orphans the host inherited, which are
    returned even as zombies: they must be reaped). Returns None without
    ``/proc``.
    """
    table = _table()
    if table is None:
        return None
    tag = f"{TOKEN_VAR}={token}".encode()
    found = {root} if root in table else set()
    found |= {p for p in table if p != root and p != os.getpid() and _has_token(p, tag)}
    found |= set(also) - {os.getpid()}
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


def _inherited(proc, before) -> set[int]:
    """Orphans the host inherited since ``before`` (its children then), other
    runs' reapers left out; none without a ``before``."""
    if before is None:
        return set()
    with _REAPERS_LOCK:                  # no other run's reaper is half-registered
        return adopted(os.getpid(), before, keep=_REAPERS - {proc.pid})


def end_processes(proc: subprocess.Popen, token: str, *, grace: float = 0.3,
                  before: set | None = None) -> None:
    """End the mouse ``proc`` and every process it started; reap what is ours.

    ``before`` (the host's children, :func:`robomaze._proctree.children_of`,
    when the run started) makes every child the host inherited since then
    part of the run, token or not.
    """
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
        live = mouse_processes(proc.pid, token, _inherited(proc, before))
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
        left = mouse_processes(proc.pid, token, _inherited(proc, before)) or set()
        left.discard(os.getpid())
        if proc.returncode is not None and not left or time.monotonic() > deadline:
            break
        _signal(left, signal.SIGKILL)
        _reap(left - {proc.pid})             # a late orphan, dead by now
    _reap(seen - {proc.pid})


class Contained:
    """A mouse program running under the reaper.

    ``proc`` is the reaper (its stdin/stdout are the program's), ``pid`` the
    program's own pid, ``mode`` ``"subreaper"`` or ``"group"`` (the fallback).
    """

    def __init__(self, proc: subprocess.Popen, status_fd: int, token: str,
                 before: set | None = None) -> None:
        self.proc, self.status_fd, self.token = proc, status_fd, token
        self.before = before
        self.buf, self.eof = b"", False
        self.pid: int | None = None
        self.mode = ""
        self.exit_code: int | None = None

    @property
    def stdin(self):
        return self.proc.stdin

    @property
    def stdout(self):
        return self.proc.stdout

    def _read(self, timeout: float) -> list[str]:
        """Status lines that arrive within ``timeout`` seconds (at least one
        if any arrives in time; none at end of file)."""
        deadline = time.monotonic() + timeout
        while not self.eof and b"\n" not in self.buf:
            wait = max(0.0, deadline - time.monotonic())
            if not select.select([self.status_fd], [], [], wait)[0]:
                break
            chunk = os.read(self.status_fd, 4096)
            self.eof = not chunk
            self.buf += chunk
        *lines, self.buf = self.buf.split(b"\n")
        out = [line.decode("utf-8", "replace") for line in lines]
        for line in out:
            if line.startswith("X "):
                self.exit_code = int(line[2:])
        return out

    def poll_status(self) -> None:
        """Take the status lines already written (never blocks)."""
        self._read(0.0)

    def wait_exit(self, timeout: float) -> int | None:
        """The program's exit code, waiting up to ``timeout`` s for it to exit."""
        deadline = time.monotonic() + timeout
        while self.exit_code is None and not self.eof:
            wait = deadline - time.monotonic()
            if wait <= 0:
                break
            self._read(wait)
        return self.exit_code

    def _freeze(self) -> None:
        """SIGSTOP everything below the reaper until no new process appears:
        nothing there can fork, or stop or kill the reaper, any more."""
        seen: set[int] = set()
        for _ in range(50):
            new = set(descendants(self.proc.pid)) - seen
            if not new:
                break
            _signal(new, signal.SIGSTOP)
            seen |= new

    def end(self, *, timeout: float = 5.0) -> None:
        """End the program and every process it started; reap the reaper.

        The reaper's tree is frozen first, then the reaper is told to end it
        (SIGTERM, and SIGCONT should the program have stopped it); a reaper
        that does not finish in ``timeout`` s is killed, and everything it
        leaves comes to the host's own net (:func:`end_processes`), which
        also ends what the host inherited if the program killed its reaper.
        """
        if self.proc.poll() is None:
            self._freeze()
            for sig in (signal.SIGTERM, signal.SIGCONT):
                try:
                    self.proc.send_signal(sig)
                except ProcessLookupError:  # the reaper already exited
                    pass
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()                # its orphans come to us: the net below
                self.proc.wait()
        while not self.eof:
            self._read(1.0)
        os.close(self.status_fd)
        try:
            end_processes(self.proc, self.token, grace=0.0, before=self.before)
        finally:
            with _REAPERS_LOCK:
                _REAPERS.discard(self.proc.pid)


def start_contained(cmd: list[str], *, cwd, env: dict, token: str, stderr: int,
                    timeout: float = 60.0) -> Contained:
    """Start ``cmd`` under the reaper with pipes for stdin/stdout, ``stderr``
    as its stderr and ``TOKEN_VAR=token`` in its environment.

    Raises ParameterError if the program cannot be started.
    """
    env = dict(env)
    env[TOKEN_VAR] = token
    status_r, status_w = os.pipe()
    before = children_of(os.getpid())
    try:
        with _REAPERS_LOCK:         # started and registered at once (see _inherited)
            proc = subprocess.Popen(
                [sys.executable, "-I", "-S", REAPER, str(os.getpid()), str(status_w), "--",
                 *cmd],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, cwd=cwd,
                env=env, start_new_session=True, pass_fds=(status_w,))
            _REAPERS.add(proc.pid)
    except OSError as exc:
        os.close(status_r)
        raise ParameterError(f"cannot start mouse program {cmd[0]!r}: {exc}") from None
    finally:
        os.close(status_w)
    run = Contained(proc, status_r, token, before)
    first = run._read(timeout)
    if first and first[0].startswith("S "):
        _, pid, run.mode = first[0].split()
        run.pid = int(pid)
        return run
    run.end()
    why = first[0][2:] if first and first[0].startswith("E ") else "its reaper did not start"
    raise ParameterError(f"cannot start mouse program {cmd[0]!r}: {why}")


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
