"""Host an external mouse program speaking today's mms text protocol.

The program (any language) is started with :mod:`subprocess` in its own
session, headless. It writes one command per line to its stdout and reads
the answers from its stdin, as with the mms simulator (see
:mod:`robomaze.micromouse.mms` for the half-cell world behind the answers):

====================================  ==========================================
command                               answer
====================================  ==========================================
``mazeWidth`` / ``mazeHeight``        columns / rows
``wallFront [k]``, ``wallRight``,     ``true`` / ``false``: a wall within ``k``
``wallLeft``, ``wallBack``,           half cells (default 1, the mouse's own
``wallFrontLeft``,                    cell) straight ahead, right, left, back,
``wallFrontRight``,                   or 45 / 135 degrees off the heading
``wallBackLeft``, ``wallBackRight``
``moveForward [n]``                   ``ack`` after ``n`` cells, or ``crash``
``moveForwardHalf [n]``               the same in half cells
``turnLeft`` ``turnRight``            ``ack`` (also ``turnLeft90``,
                                      ``turnRight90``, ``turnLeft45``,
                                      ``turnRight45``)
``wasReset``                          ``false`` (no reset button headless)
``ackReset``                          ``ack``; back to the start, 15-point
                                      penalty on the next run
``getStat NAME``                      the stat (``-1`` while it has no value);
                                      names in :data:`~.mms.STAT_NAMES`
``setWall x y d``, ``clearWall``,     none (recorded in ``extra["display"]``)
``setColor x y c``, ``clearColor``,
``clearAllColor``,
``setText x y text``, ``clearText``,
``clearAllText``
====================================  ==========================================

Coordinates are micromouse ``(x, y)`` with ``(0, 0)`` south-west; the mouse
always starts there facing north, as in mms, whatever start cell the maze
file names (``extra["file_start"]`` keeps it). ``d`` is one of ``n e s w``.
The goal is mms's, the centre cells of the maze (``goal="mms"``), or the
maze file's own goal cells (``goal="file"``); ``MouseRun.goal_rule`` says
which.

Unlike mms, an unknown or malformed command is a protocol error that ends
the run (``lenient=True`` ignores it, as mms does). The run also ends when
the program exits or closes its output, when it is silent longer than
``command_timeout`` seconds, when ``total_timeout`` is reached, and -- by
default -- once the mouse has searched (start -> goal -> start) and then
made one more run from the start to the goal (its fast run).

A program that exits with a non-zero status or dies of a signal has failed
the run, whatever it reached before (``reached_goal`` still says what it
reached). At the end the program and every process it started -- also ones
that left its session, cleared its environment or outlived its parent --
are ended: the program runs under a subreaper that nothing it starts can
leave (see :mod:`robomaze.micromouse._proc`);
SIGTERM or SIGHUP to the host does the same before the host stops.
"""

from __future__ import annotations

import os
import signal
import threading
import time
import uuid
from dataclasses import dataclass, field

import numpy as np

from .._threads import user_environ
from .._validate import check_float, check_int
from ..errors import ParameterError
from ..maze import Maze
from ._proc import StderrSpool, set_subreaper, start_contained
from ._protocol import COMMANDS, Display, Invalid, Pipe, Stop
from .mms import MmsMouse, mms_centre
from .result import MouseRun

__all__ = ["host_mouse", "MAX_LINE", "GOAL_RULES"]

MAX_LINE = 4096
#: Goal rules: mms's centre cells, or the maze file's own goal cells.
GOAL_RULES = ("mms", "file")


class _HostSignal(BaseException):
    """SIGTERM / SIGHUP reached the host while a mouse was running."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@dataclass
class Session:
    """Everything one hosted run knows; the command handlers update it."""

    maze: Maze
    mouse: MmsMouse
    goals: set
    start: tuple
    stop_after: str
    lenient: bool
    pipe: Pipe | None = None
    display: Display = field(default_factory=Display)
    deadline: float = 0.0             # for answers written by the handlers
    phase: str = "search"
    trace: list = field(default_factory=list)
    log: list = field(default_factory=list)
    moves: int = 0
    turns: int = 0
    turns45: int = 0
    crashes: int = 0
    commands: int = 0
    moves_to_goal: int | None = None
    search: tuple | None = None       # (moves, turns) when back at the start
    fast_start: tuple | None = None   # (trace index, moves, turns)
    fast: tuple | None = None         # (moves, turns) of the fast run
    route: list | None = None

    def arrive(self, cell: tuple) -> None:
        """Bookkeeping when the mouse enters ``cell`` (robomaze row, col)."""
        self.trace.append(cell)
        self.moves += 1
        index = len(self.trace) - 1
        if self.phase == "search":
            if self.moves_to_goal is None and cell in self.goals:
                self.moves_to_goal = self.moves
            if self.moves_to_goal is not None and cell == self.start:
                self.phase = "fast"
                self.search = (self.moves, self.turns)
                self.fast_start = (index, self.moves, self.turns)
                if self.stop_after == "search":
                    raise Stop("search complete", failed=False)
        elif self.phase == "fast":
            if cell == self.start:
                self.fast_start = (index, self.moves, self.turns)
            elif cell in self.goals:
                i0, m0, t0 = self.fast_start
                self.route = list(self.trace[i0:index + 1])
                self.fast = (self.moves - m0, self.turns - t0)
                self.phase = "done"
                if self.stop_after == "fast_run":
                    raise Stop("fast run complete", failed=False)

    def reset(self) -> None:
        self.trace.append(self.start)
        self.log.append(("R",))
        if self.phase == "fast":
            self.fast_start = (len(self.trace) - 1, self.moves, self.turns)


def _check(maze, command, command_timeout, total_timeout, stop_after, goal, stderr_limit):
    if not isinstance(maze, Maze):
        raise ParameterError(f"maze must be a Maze, got {type(maze).__name__}")
    cmd = [str(c) for c in command]
    if not cmd:
        raise ParameterError("command must name a program to run, got an empty list")
    check_float("command_timeout", command_timeout, min_value=0.0, strict_min=True)
    check_float("total_timeout", total_timeout, min_value=0.0, strict_min=True)
    check_int("stderr_limit", stderr_limit, min_value=64)
    if stop_after not in ("fast_run", "search", "exit"):
        raise ParameterError(
            f"stop_after must be 'fast_run', 'search' or 'exit', got {stop_after!r}")
    if goal not in GOAL_RULES:
        raise ParameterError(f"goal must be 'mms' (the maze centre) or 'file' (the maze "
                             f"file's goal cells), got {goal!r}")
    if goal == "file" and not maze.goals:
        raise ParameterError("goal='file' but the maze has no goal cells; use goal='mms'")
    return cmd


def _start(cmd, cwd, env, token):
    err_r, err_w = os.pipe()
    try:
        run = start_contained(cmd, cwd=cwd, env=user_environ() if env is None else env,
                              token=token, stderr=err_w)
    except BaseException:
        os.close(err_r)
        raise
    finally:
        os.close(err_w)
    return run, err_r


def _serve(s: Session, command_timeout: float, total_deadline: float) -> None:
    """Answer commands until a Stop is raised."""
    while True:
        deadline = min(time.monotonic() + command_timeout, total_deadline)
        what = ("total time limit reached" if deadline == total_deadline else
                f"mouse silent for more than {command_timeout:g} s (command time limit)")
        line = s.pipe.readline(deadline, what)
        if line is None:
            raise Stop("mouse exited", failed=False)
        if time.monotonic() > total_deadline:
            raise Stop("total time limit reached")
        words = line.split()
        if not words:
            if s.lenient:
                continue
            raise Stop("protocol error: empty line")
        s.commands += 1
        spec = COMMANDS.get(words[0])
        if spec is None or not spec.min_args <= len(words) - 1 <= spec.max_args:
            if s.lenient:
                continue
            shown = line if len(line) <= 60 else line[:57] + "..."
            what = "unknown command" if spec is None else "wrong number of arguments in"
            raise Stop(f"protocol error: {what} {shown!r} (command {s.commands})")
        s.deadline = deadline
        try:
            answer = spec.handler(s, words[1:], line)
        except Invalid as exc:
            if s.lenient:                 # mms drops it, unanswered
                continue
            raise Stop(f"protocol error: {exc} (command {s.commands})") from None
        if answer is not None:
            s.pipe.write(answer + "\n", deadline)


def _signals(on: bool, old: dict, state: dict) -> None:
    """Install (``on``) or restore the SIGTERM / SIGHUP / SIGINT handlers of the main thread."""
    if threading.current_thread() is not threading.main_thread():
        return
    if not on:
        for sig, handler in old.items():
            signal.signal(sig, handler)
        return

    def handler(signum, frame):
        if state.get("signal") is None:
            state["signal"] = signum
            # Not while the program starts (it would be lost) or during cleanup.
            if not state.get("defer") and not state.get("cleanup"):
                raise _HostSignal(signum)

    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        old[sig] = signal.signal(sig, handler)


def _exit_text(code: int) -> str:
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"


def _outcome(s: Session, ended_by: str, failed: bool, own_exit: int | None) -> tuple:
    """The one rule: a program that crashed failed, whatever it reached before."""
    reached = s.moves_to_goal is not None
    reason = ended_by if failed else ""
    if own_exit not in (None, 0):
        crash = f"mouse program crashed ({_exit_text(own_exit)})"
        crash += " after reaching the goal" if reached else ""
        reason = crash if not failed else f"{reason}; {crash}"
        failed = True
    if not failed and not reached:
        failed = True
        reason = f"{ended_by}: the mouse never reached the goal" if ended_by else \
            "the mouse never reached the goal"
    return failed, reason


def _result(s: Session, failed, reason, extra, goal_rule) -> MouseRun:
    search_moves, search_turns = s.search if s.search else (s.moves, s.turns)
    trace_end = s.fast_start[0] + 1 if s.fast_start else len(s.trace)
    trace = list(s.trace[:trace_end])
    explored = np.zeros(s.maze.shape, bool)
    for cell in trace:
        explored[cell] = True
    stats = s.mouse.stats.values()
    extra.update({
        "commands": s.commands, "fast_run_moves": s.fast[0] if s.fast else None,
        "fast_run_turns": s.fast[1] if s.fast else None, "turns45": s.turns45,
        "display": s.display, "mms_stats": stats, "mms_score": stats["score"],
        "mms_best_run_turns": stats["best-run-turns"],
        "mms_best_run_effective_distance": stats["best-run-effective-distance"],
    })
    return MouseRun(method="external", success=not failed, reason=reason,
                    reached_goal=s.moves_to_goal is not None, proven=False,
                    returned=s.search is not None, moves=search_moves, turns=search_turns,
                    crashes=s.crashes, moves_to_goal=s.moves_to_goal, explored=explored,
                    trace=trace, known=None, route=s.route, extra=extra, log=list(s.log),
                    start=s.start, goals=tuple(sorted(s.goals)), goal_rule=goal_rule)


def host_mouse(maze: Maze, command, *, command_timeout: float = 5.0,
               total_timeout: float = 60.0, lenient: bool = False,
               stop_after: str = "fast_run", goal: str = "mms", cwd=None, env=None,
               stderr_limit: int = 65536) -> MouseRun:
    """Run an external mouse program in ``maze`` and report what it did.

    Parameters
    ----------
    maze : Maze
        The true maze.
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
    goal : {"mms", "file"}
        mms's goal, the maze's centre cells (default), or the file's goals.
    stderr_limit : int
        Bytes of the program's stderr kept (its first quarter and last three
        quarters; the middle is dropped with a marker).

    Returns
    -------
    MouseRun
        ``method="external"``; ``route`` is the fast run's cells;
        ``goal_rule`` the goal rule used; ``extra`` holds ``commands``,
        ``exit_code``, ``elapsed``, ``stderr``, ``ended_by``,
        ``fast_run_moves``, ``fast_run_turns``, ``display``, ``mms_stats``
        (every ``getStat`` value at the end) and ``file_start``.
        ``success`` means the goal was reached and nothing failed.

    Examples
    --------
    >>> import sys
    >>> prog = "for c in ('moveForward', 'turnRight', 'moveForward'): print(c); input()"
    >>> run = host_mouse(Maze.empty(3, 3), [sys.executable, "-u", "-c", prog],
    ...                  stop_after="exit")
    >>> run.success, run.goal_rule, run.trace, run.extra["exit_code"]
    (True, 'mms', [(2, 0), (1, 0), (1, 1)], 0)
    """
    cmd = _check(maze, command, command_timeout, total_timeout, stop_after, goal,
                 stderr_limit)
    goals = set(mms_centre(*maze.shape)) if goal == "mms" else set(maze.goals)
    s = Session(maze=maze, mouse=MmsMouse(maze, goals), goals=goals,
                start=(maze.rows - 1, 0), stop_after=stop_after, lenient=lenient)
    s.trace.append(s.start)
    start_t = time.monotonic()
    ended_by, failed, own_exit, proc, spool = _drive(s, cmd, cwd, env, command_timeout,
                                                     start_t + total_timeout, stderr_limit)
    failed, reason = _outcome(s, ended_by, failed, own_exit)
    extra = {"exit_code": proc.exit_code if proc else None,
             "elapsed": time.monotonic() - start_t, "stderr": spool.text() if spool else "",
             "ended_by": ended_by, "file_start": maze.start}
    return _result(s, failed, reason, extra, goal)


def _drive(s: Session, cmd, cwd, env, command_timeout, total_deadline, stderr_limit):
    """Start the program, serve it, end it and all its processes.

    Returns ``(ended_by, failed, own_exit, proc, spool)``; a SIGTERM / SIGHUP
    that stopped the run is raised again once everything is cleaned up.
    """
    token = uuid.uuid4().hex
    old, state = {}, {}
    _signals(True, old, state)
    was_reaper = set_subreaper(True)
    ended_by, failed, own_exit, spool, proc = "", False, None, None, None
    try:
        state["defer"] = True
        proc, err_fd = _start(cmd, cwd, env, token)
        head = stderr_limit // 4
        spool = StderrSpool(err_fd, head=head, tail=stderr_limit - head)
        s.pipe = Pipe(proc, MAX_LINE)
        state["defer"] = False
        if state.get("signal") is not None:
            raise _HostSignal(state["signal"])
        _serve(s, command_timeout, total_deadline)
    except Stop as stop:
        ended_by, failed = stop.reason, stop.failed
    except _HostSignal as sig:
        ended_by, failed = f"host received {signal.Signals(sig.signum).name}", True
    finally:
        state["cleanup"] = True
        if proc is not None:
            own_exit = _finish(s, proc, token, ended_by)
        if was_reaper is False:
            set_subreaper(False)
        _signals(False, old, state)
    if state.get("signal") is not None:
        signal.raise_signal(state["signal"])  # the old handler decides (default: stop)
    return ended_by, failed, own_exit, proc, spool


def _finish(s: Session, proc, token: str, ended_by: str) -> int | None:
    """End the program and its processes; its own exit status, if it exited itself."""
    if s.pipe is not None:
        s.pipe.close()
    try:
        proc.stdin.close()
    except OSError:
        pass
    # It closed its output: let it finish; else only take an exit already reported.
    own_exit = proc.wait_exit(1.0 if ended_by == "mouse exited" else 0.05)
    proc.end()
    try:
        proc.stdout.close()
    except OSError:
        pass
    return own_exit
