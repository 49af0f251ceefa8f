"""The process tree, read from ``/proc``, and the Linux child-subreaper flag.

Shared by the benchmark workers (end everything a run left behind) and the
mms host (end every process a mouse started): both make themselves a *child
subreaper* so orphans are re-parented to them instead of init, then walk
parent links to find every descendant.
"""

from __future__ import annotations

import ctypes
import os

__all__ = ["process_table", "descendants", "set_subreaper"]

_PR_SET_CHILD_SUBREAPER = 36
_PR_GET_CHILD_SUBREAPER = 37


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
