"""Host an external mouse program speaking the mms text protocol.

The program (any language) is started with :mod:`subprocess` in its own
process group, headless. It writes one command per line to its stdout and
reads the answers from its stdin, as with the mms simulator:

=========================  =============================================
command                    answer
=========================  =============================================
``mazeWidth``              columns (int)
``mazeHeight``             rows (int)
``wallFront [k]``          ``true`` / ``false``; with ``k`` the wall in
``wallRight [k]``          front of (left/right of) the cell ``k`` cells
``wallLeft [k]``           ahead, ``true`` if a wall is met before it
``wallBack [k]``           (an extension some mms forks have)
``moveForward [n]``        ``ack``, or ``crash`` (the mouse does not move)
``turnLeft`` ``turnRight`` ``ack`` (also ``turnLeft90`` / ``turnRight90``)
``turnLeft45`` ...         ``ack``; a move while not on a 90-degree heading
                           is a ``crash`` (this world has no diagonals)
``wasReset``               ``false`` (there is no reset button headless)
``ackReset``               ``ack``; the mouse goes back to the start
``setWall x y d``          none (recorded, like the display commands
``clearWall x y d``        ``setColor x y c``, ``clearColor x y``,
                           ``clearAllColor``, ``setText x y text``,
                           ``clearText x y``, ``clearAllText``)
=========================  =============================================

Coordinates are micromouse ``(x, y)`` with ``(0, 0)`` south-west; the mouse
starts there facing north. ``d`` is one of ``n e s w``.

Unlike mms, an unknown or malformed command is a protocol error that ends
the run (``lenient=True`` ignores it, as mms does). The run also ends when the
program exits or closes its output, when it is silent longer than
``command_timeout`` seconds, when ``total_timeout`` is reached, and -- by
default -- once the mouse has searched (start -> goal -> start) and then
made one more run from the start to the goal (its fast run). At the end the
whole process group is killed; nothing is left behind.
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field

import numpy as np

from .._validate import check_float
from ..errors import ParameterError
from ..maze import Maze
from .result import MouseRun
from .world import DC, DR, MouseWorld

__all__ = ["host_mouse", "MAX_LINE"]

MAX_LINE = 4096
_NO_ANSWER = {"setWall", "clearWall", "setColor", "clearColor", "clearAllColor", "setText",
              "clearText", "clearAllText"}
_DIRS = {"n": 0, "e": 1, "s": 2, "w": 3}


class _Stop(Exception):
    def __init__(self, reason: str, failed: bool = True) -> None:
        super().__init__(reason)
        self.reason = reason
        self.failed = failed


@dataclass
class _Display:
    walls: dict = field(default_factory=dict)
    colors: dict = field(default_factory=dict)
    texts: dict = field(default_factory=dict)


class _Pipe:
    """Line I/O with deadlines on the child's pipes (never blocks forever)."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self.proc = proc
        self.out = proc.stdout.fileno()
        self.inp = proc.stdin.fileno()
        os.set_blocking(self.out, False)
        os.set_blocking(self.inp, False)
        self.buf = b""
        self.eof = False
        self.sel = selectors.DefaultSelector()
        self.sel.register(self.out, selectors.EVENT_READ)

    def readline(self, deadline: float, what: str) -> str | None:
        while True:
            nl = self.buf.find(b"\n")
            if nl >= 0:
                line, self.buf = self.buf[:nl], self.buf[nl + 1:]
                return line.decode("utf-8", "replace").rstrip("\r")
            if len(self.buf) > MAX_LINE:
                raise _Stop(f"protocol error: a line longer than {MAX_LINE} bytes")
            if self.eof:
                if self.buf:
                    line, self.buf = self.buf, b""
                    return line.decode("utf-8", "replace").rstrip("\r")
                return None
            left = deadline - time.monotonic()
            if left <= 0:
                raise _Stop(what)
            if self.sel.select(timeout=left):
                try:
                    chunk = os.read(self.out, 65536)
                except BlockingIOError:
                    continue
                if not chunk:
                    self.eof = True
                self.buf += chunk

    def write(self, text: str, deadline: float) -> None:
        data = text.encode()
        sel = selectors.DefaultSelector()
        sel.register(self.inp, selectors.EVENT_WRITE)
        try:
            while data:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise _Stop("mouse stopped reading its input (time limit while answering)")
                if not sel.select(timeout=left):
                    continue
                try:
                    n = os.write(self.inp, data)
                except BlockingIOError:
                    continue
                except (BrokenPipeError, OSError):
                    raise _Stop("mouse closed its input pipe") from None
                data = data[n:]
        finally:
            sel.close()

    def close(self) -> None:
        self.sel.close()


def _kill_group(proc: subprocess.Popen) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            proc.wait(timeout=0.5)
            if sig == signal.SIGTERM:
                # The leader is gone; its children may not be.
                continue
        except subprocess.TimeoutExpired:
            continue
    try:
        proc.wait(timeout=2.0)
    except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL cannot be ignored
        pass


def host_mouse(maze: Maze, command, *, command_timeout: float = 5.0,
               total_timeout: float = 60.0, lenient: bool = False,
               stop_after: str = "fast_run", cwd=None, env=None) -> MouseRun:
    """Run an external mouse program in ``maze`` and report what it did.

    Parameters
    ----------
    maze : Maze
        The true maze (goals are its goal cells).
    command : sequence of str
        The program and its arguments (no shell).
    command_timeout : float
        Longest silence (seconds) allowed between two commands.
    total_timeout : float
        Wall-clock limit for the whole run.
    lenient : bool
        Ignore unknown commands (mms behaviour) instead of failing.
    stop_after : {"fast_run", "search", "exit"}
        End the run after the first start -> goal run that follows the
        search (default), after the search (back at the start), or only when
        the program exits.

    Returns
    -------
    MouseRun
        ``method="external"``; ``route`` is the fast run's cells; ``extra``
        holds ``commands``, ``exit_code``, ``elapsed``, ``stderr`` (tail),
        ``ended_by``, ``fast_run_moves``, ``fast_run_turns``, ``display``.
        ``success`` means the goal was reached and nothing failed.
    """
    if not isinstance(maze, Maze):
        raise ParameterError(f"maze must be a Maze, got {type(maze).__name__}")
    cmd = [str(c) for c in command]
    if not cmd:
        raise ParameterError("command must name a program to run, got an empty list")
    command_timeout = check_float("command_timeout", command_timeout, min_value=0.0,
                                  strict_min=True)
    total_timeout = check_float("total_timeout", total_timeout, min_value=0.0,
                                strict_min=True)
    if stop_after not in ("fast_run", "search", "exit"):
        raise ParameterError(
            f"stop_after must be 'fast_run', 'search' or 'exit', got {stop_after!r}")
    world = MouseWorld(maze)
    rows = maze.rows
    goals = set(maze.goals)
    display = _Display()
    eighth = 0                                  # extra 45-degree offset (0 or 1)
    state = {"phase": "search", "moves_to_goal": None, "search_moves": None,
             "search_turns": None, "fast_start": None, "route": None}
    commands = 0
    start_t = time.monotonic()
    total_deadline = start_t + total_timeout
    err = tempfile.TemporaryFile()
    try:
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=err, cwd=cwd, env=env, start_new_session=True)
    except OSError as exc:
        err.close()
        raise ParameterError(f"cannot start mouse program {cmd[0]!r}: {exc}") from None
    pipe = _Pipe(proc)
    reason, failed, ended_by = "", False, ""

    def arrive(index: int, moves: int) -> None:
        """Bookkeeping when the mouse enters trace[index] after ``moves`` cells."""
        cell = world.trace[index]
        if state["phase"] == "search":
            if state["moves_to_goal"] is None and cell in goals:
                state["moves_to_goal"] = moves
            if state["moves_to_goal"] is not None and cell == maze.start:
                state["phase"] = "fast"
                state["search_moves"] = moves
                state["search_turns"] = world.turns
                state["fast_start"] = (index, moves, world.turns)
                if stop_after == "search":
                    raise _Stop("search complete", failed=False)
        elif state["phase"] == "fast":
            if cell == maze.start:
                state["fast_start"] = (index, moves, world.turns)
            elif cell in goals:
                i0, m0, t0 = state["fast_start"]
                state["route"] = list(world.trace[i0:index + 1])
                state["fast"] = (moves - m0, world.turns - t0)
                state["phase"] = "done"
                if stop_after == "fast_run":
                    raise _Stop("fast run complete", failed=False)

    def look(side_rel: int, k: int) -> bool:
        r, c = world.cell
        h = world.heading
        for _ in range(k):
            if world.walls[r, c, h]:
                return True
            r, c = r + DR[h], c + DC[h]
        return bool(world.walls[r, c, (h + side_rel) % 4])

    def xy(args, n, line):
        try:
            x, y = int(args[0]), int(args[1])
        except (ValueError, IndexError):
            raise _Stop(f"protocol error: bad coordinates in {line!r}") from None
        if len(args) < n or not (0 <= x < maze.cols and 0 <= y < rows):
            raise _Stop(f"protocol error: bad arguments in {line!r}")
        return x, y

    try:
        while True:
            deadline = min(time.monotonic() + command_timeout, total_deadline)
            what = ("total time limit reached" if deadline == total_deadline else
                    f"mouse silent for more than {command_timeout:g} s (command time limit)")
            line = pipe.readline(deadline, what)
            if line is None:
                raise _Stop("mouse exited", failed=False)
            if time.monotonic() > total_deadline:
                raise _Stop("total time limit reached")
            words = line.split()
            if not words:
                if lenient:
                    continue
                raise _Stop("protocol error: empty line")
            name, args = words[0], words[1:]
            commands += 1
            answer = None
            if name == "mazeWidth" and not args:
                answer = str(maze.cols)
            elif name == "mazeHeight" and not args:
                answer = str(rows)
            elif name in ("wallFront", "wallRight", "wallLeft", "wallBack") and len(args) <= 1:
                try:
                    k = int(args[0]) if args else 0
                except ValueError:
                    k = -1
                if k < 0:
                    raise _Stop(f"protocol error: bad argument in {line!r}")
                rel = {"wallFront": 0, "wallRight": 1, "wallBack": 2, "wallLeft": 3}[name]
                answer = "true" if look(rel, k) else "false"
            elif name == "moveForward" and len(args) <= 1:
                try:
                    n = int(args[0]) if args else 1
                except ValueError:
                    n = 0
                if n < 1:
                    raise _Stop(f"protocol error: bad distance in {line!r}")
                if eighth:
                    world.crashes += 1
                    answer = "crash"
                else:
                    before, moves0 = len(world.trace), world.moves
                    answer = "ack" if world.move_forward(n) else "crash"
                    if answer == "ack":
                        pipe.write("ack\n", deadline)
                        answer = None
                        # Every cell passed counts, so a run through a goal is seen.
                        for i in range(before, len(world.trace)):
                            arrive(i, moves0 + i - before + 1)
            elif name in ("turnLeft", "turnLeft90", "turnRight", "turnRight90") and not args:
                (world.turn_left if "Left" in name else world.turn_right)()
                answer = "ack"
            elif name in ("turnLeft45", "turnRight45") and not args:
                step = -1 if "Left" in name else 1
                total = world.heading * 2 + eighth + step
                world.heading, eighth = (total // 2) % 4, total % 2
                world.log.append(("T",))        # mms counts every turn command
                state["turns45"] = state.get("turns45", 0) + 1
                answer = "ack"
            elif name == "wasReset" and not args:
                answer = "false"
            elif name == "ackReset" and not args:
                world.reset()
                eighth = 0
                answer = "ack"
            elif name in _NO_ANSWER:
                if name in ("setWall", "clearWall"):
                    x, y = xy(args, 3, line)
                    if len(args) != 3 or args[2].lower() not in _DIRS:
                        raise _Stop(f"protocol error: bad direction in {line!r}")
                    display.walls[(x, y, args[2].lower())] = name == "setWall"
                elif name == "setColor":
                    x, y = xy(args, 3, line)
                    if len(args) != 3 or len(args[2]) != 1:
                        raise _Stop(f"protocol error: bad colour in {line!r}")
                    display.colors[(x, y)] = args[2]
                elif name == "clearColor":
                    display.colors.pop(xy(args, 2, line), None)
                elif name == "setText":
                    x, y = xy(args, 2, line)
                    display.texts[(x, y)] = " ".join(args[2:])[:10]
                elif name == "clearText":
                    display.texts.pop(xy(args, 2, line), None)
                elif name == "clearAllColor":
                    display.colors.clear()
                else:
                    display.texts.clear()
            else:
                if lenient:
                    continue
                shown = line if len(line) <= 60 else line[:57] + "..."
                raise _Stop(f"protocol error: unknown command {shown!r} "
                            f"(command {commands})")
            if answer is not None:
                pipe.write(answer + "\n", deadline)
            if name == "ackReset" and state["phase"] == "fast":
                state["fast_start"] = (len(world.trace) - 1, world.moves, world.turns)
    except _Stop as stop:
        reason, failed = stop.reason, stop.failed
        ended_by = stop.reason
    finally:
        pipe.close()
        try:
            proc.stdin.close()
        except OSError:
            pass
        _kill_group(proc)
        err.seek(0, os.SEEK_END)
        size = err.tell()
        err.seek(max(0, size - 2000))
        stderr_tail = err.read().decode("utf-8", "replace")
        err.close()
        try:
            proc.stdout.close()
        except OSError:
            pass
    elapsed = time.monotonic() - start_t
    exit_code = proc.returncode
    reached = state["moves_to_goal"] is not None
    if not failed and ended_by == "mouse exited" and exit_code not in (0, None) and \
            exit_code > 0:  # negative: we killed it after it closed its output
        failed = True
        reason = f"mouse program crashed (exit status {exit_code})"
    if not failed and not reached:
        failed = True
        reason = f"{ended_by}: the mouse never reached the goal" if ended_by else \
            "the mouse never reached the goal"
    fast = state.get("fast")
    extra = {
        "commands": commands, "exit_code": exit_code, "elapsed": elapsed,
        "stderr": stderr_tail, "ended_by": ended_by,
        "fast_run_moves": fast[0] if fast else None,
        "fast_run_turns": fast[1] if fast else None,
        "turns45": state.get("turns45", 0),
        "display": display,
    }
    search_moves = state["search_moves"] if state["search_moves"] is not None else world.moves
    search_turns = state["search_turns"] if state["search_turns"] is not None else world.turns
    trace_end = state["fast_start"][0] + 1 if state["fast_start"] else len(world.trace)
    explored = np.zeros(maze.shape, bool)
    for cell in world.trace[:trace_end]:
        explored[cell] = True
    return MouseRun(method="external", success=not failed, reason="" if not failed else reason,
                    reached_goal=reached, proven=False,
                    returned=state["search_moves"] is not None,
                    moves=search_moves, turns=search_turns, crashes=world.crashes,
                    moves_to_goal=state["moves_to_goal"], explored=explored,
                    trace=list(world.trace[:trace_end]), known=None,
                    route=state["route"], extra=extra, log=list(world.log),
                    start=maze.start, goals=tuple(maze.goals))
