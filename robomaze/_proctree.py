"""The process tree, read from ``/proc``, and the Linux child-subreaper flag.

Shared by the benchmark workers (end everything a run left behind) and the
mms host (end every process a mouse started): both make themselves a *child
subreaper* so orphans are re-parented to them instead of init, then walk
parent links to find every descendant.
"""

from __future__ import annotations

import ctypes
import contextlib
import os
import signal
import time

__all__ = ["process_table", "descendants", "set_subreaper", "set_parent_death_signal",
           "end_all_below", "REAPER", "process_identity", "children_of", "adopted"]

#: This file, run as a script: the reaper a contained program runs under.
REAPER = os.path.abspath(__file__)

_PR_SET_CHILD_SUBREAPER = 36
_PR_GET_CHILD_SUBREAPER = 37
_PR_SET_PDEATHSIG = 1


def process_table() -> dict[int, tuple[int, str]] | None:
    """pid -> (parent pid, state letter) of every process, or None without ``/proc``."""
    try:
        names = os.listdir("/proc")
    except OSError:
        return None
    out = {}
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue  # it exited meanwhile
        # The command name may hold spaces and parentheses: split after the last ')'.
        fields = stat[stat.rfind(b")") + 2:].split()
        if len(fields) > 1:
            out[int(name)] = (int(fields[1]), fields[0].decode("ascii", "replace"))
    return out


def _stat_fields(pid: int) -> list[bytes] | None:
    """The fields of ``/proc/PID/stat`` after the command name (state first)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            stat = fh.read()
    except OSError:
        return None
    fields = stat[stat.rfind(b")") + 2:].split()
    return fields if len(fields) > 19 else None


def process_identity(pid: int) -> tuple[int, int] | None:
    """``(pid, start time in clock ticks)``: a process, not just a reusable pid
    (None once it is gone)."""
    fields = _stat_fields(pid)
    return None if fields is None else (pid, int(fields[19]))


def children_of(parent: int) -> set[tuple[int, int]]:
    """:func:`process_identity` of every child of ``parent`` (zombies included)."""
    table = process_table() or {}
    out = set()
    for pid, (ppid, _) in table.items():
        if ppid == parent:
            ident = process_identity(pid)
            if ident is not None:
                out.add(ident)
    return out


def adopted(parent: int, before: set[tuple[int, int]], *,
            keep: set[int] = frozenset()) -> set[int]:
    """Children ``parent`` (a subreaper) has inherited since ``before`` was taken.

    A child that is not in ``before`` (pid and start time), not in ``keep``
    and in another session than ``parent`` came from a contained program's
    tree: every process a program below a ``start_new_session`` reaper
    starts is in that reaper's session or a newer one (``setsid`` can only
    make new sessions), never in ``parent``'s, while children the parent's
    other threads start in its own session stay out. Zombies are included
    (they must be reaped).
    """
    mine = os.getsid(0)
    out = set()
    for pid, start in children_of(parent) - set(before):
        if pid in keep:
            continue
        fields = _stat_fields(pid)
        if fields is not None and int(fields[3]) != mine:   # field 3: the session id
            out.add(pid)
    return out


def descendants(root: int, table: dict[int, tuple[int, str]] | None = None, *,
                zombies: bool = False) -> list[int]:
    """Every descendant of ``root``, parents before children (zombies left out
    unless asked: they are already dead)."""
    table = process_table() if table is None else table
    if not table:
        return []
    children: dict[int, list[int]] = {}
    for pid, (ppid, state) in table.items():
        if zombies or state != "Z":
            children.setdefault(ppid, []).append(pid)
    out, todo = [], list(children.get(root, []))
    while todo:
        pid = todo.pop(0)
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


def set_subreaper(on: bool = True) -> bool | None:
    """Make this process a child subreaper or not (Linux ``prctl``).

    Returns the previous setting, or None where ``prctl`` is unavailable.
    """
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        flag = ctypes.c_int(0)
        if libc.prctl(_PR_GET_CHILD_SUBREAPER, ctypes.byref(flag), 0, 0, 0) != 0:
            return None
        if libc.prctl(_PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0) != 0:
            return None
        return bool(flag.value)
    except (OSError, AttributeError):
        return None


def set_parent_death_signal(sig: int) -> bool:
    """Ask the kernel to send ``sig`` to this process when its parent dies
    (Linux ``prctl(PR_SET_PDEATHSIG)``); False where that is unavailable."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def end_all_below(root: int, *, timeout: float = 5.0,
                  reaped: dict[int, int] | None = None) -> int:
    """Freeze, kill and reap every descendant of ``root`` (this process).

    Every descendant is stopped with SIGSTOP until a scan finds no new one
    (so none can fork away meanwhile), then all are killed and, being our
    children or adopted orphans (we are a subreaper), reaped. Returns how
    many were killed; ``reaped`` (if given) collects pid -> exit code.
    """
    seen: set[int] = set()
    for _ in range(200):
        new = set(descendants(root)) - seen
        if not new:
            break
        _signal_all(new, signal.SIGSTOP)
        seen |= new
    _signal_all(seen, signal.SIGKILL)
    _signal_all(seen, signal.SIGCONT)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            break                               # nothing left below us
        if pid and reaped is not None:
            reaped[pid] = os.waitstatus_to_exitcode(status)
        if pid == 0:
            left = set(descendants(root))
            _signal_all(left, signal.SIGKILL)   # one that slipped in between scans
            time.sleep(0.01)
    return len(seen)


def _signal_all(pids, sig) -> None:
    for pid in pids:
        # already gone, or no longer ours (its pid reused): nothing to signal
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, sig)


class _Stop(BaseException):
    """The reaper was told to end the run."""


def _reaper(argv: list[str]) -> int:
    """Run ``argv[3:]`` (after ``--``) as a contained program.

    Used as ``python -I -S _proctree.py HOST_PID STATUS_FD -- COMMAND...`` by
    the mms host (:mod:`robomaze.micromouse._proc`): this process is a child
    subreaper, so everything the program starts -- double-forked, ``setsid``,
    with an empty environment, outliving its parent -- stays below it. On
    SIGTERM/SIGHUP/SIGINT, or when the host dies (``PR_SET_PDEATHSIG``), it
    freezes, kills and reaps all of them, then exits. It writes to
    ``STATUS_FD``: ``S PID MODE`` once the program started (``MODE`` is
    ``subreaper``, or ``group`` where only its process group can be ended),
    ``E MESSAGE`` if it could not start, ``X CODE`` when the program exited
    (``-N`` for signal N).
    """
    host, status_fd, cmd = int(argv[0]), int(argv[1]), argv[3:]

    def report(text: str) -> None:
        try:
            os.write(status_fd, (text + "\n").encode("utf-8", "replace"))
        except OSError:
            pass                                # the host is gone; carry on ending

    stopping = []

    def on_signal(signum, frame):
        if not stopping:
            stopping.append(signum)
            raise _Stop

    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, on_signal)
    mode = "subreaper" if set_subreaper(True) is not None else "group"
    set_parent_death_signal(signal.SIGTERM)
    me, mouse = os.getpid(), None
    try:
        if os.getppid() != host:                # the host died before PDEATHSIG was set
            raise _Stop
        import subprocess
        try:
            mouse = subprocess.Popen(cmd, start_new_session=True)
        except (OSError, ValueError) as exc:
            report(f"E {exc}")
            return 127
        # Let go of the program's pipes: it alone holds them, so the host sees
        # it close its input or output.
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.close(null)
        report(f"S {mouse.pid} {mode}")
        while True:
            try:
                pid, status = os.waitpid(-1, 0)
            except ChildProcessError:
                stopping.append(0)               # no _Stop from here on: nothing to end
                return 0                         # the program and all its processes ended
            if pid == mouse.pid:
                report(f"X {os.waitstatus_to_exitcode(status)}")
    except _Stop:  # a signal or the host's death: fall through to ending everything
        pass
    stopping.append(0)                          # further signals: no more _Stop
    if mode == "group" or process_table() is None:
        if mouse is not None:
            _signal_all([-mouse.pid], signal.SIGKILL)
    reaped: dict[int, int] = {}
    end_all_below(me, reaped=reaped)
    if mouse is not None and mouse.pid in reaped:
        report(f"X {reaped[mouse.pid]}")
    return 0


if __name__ == "__main__":
    import sys
    code = _reaper(sys.argv[1:])
    # Nothing is left below us: a late SIGTERM from the host must not kill us
    # during interpreter shutdown (which restores the default handlers).
    for _sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(_sig, signal.SIG_IGN)
    sys.exit(code)
