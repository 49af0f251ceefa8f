"""The mms command table: one small handler per command, and the line pipe.

Each handler takes the hosted run's session, the command's arguments and
the raw line, updates the session and returns the answer line (or None for
commands mms does not answer). :data:`COMMANDS` maps a command name to its
handler and the number of arguments it takes.
"""

from __future__ import annotations

import os
import selectors
import time
from dataclasses import dataclass, field
from typing import Callable, NamedTuple

from ..metrics.micromouse import STAT_NAMES
from .mms import DX, DY

__all__ = ["COMMANDS", "Command", "Display", "Invalid", "Pipe", "Stop", "COLORS"]

#: mms's cell colour characters.
COLORS = frozenset("kbacgorwyBCAGRY")
_DIRS = "nesw"
_TEXT_MAX = 10


class Invalid(Exception):
    """A malformed command: a protocol error, or dropped unanswered when lenient (as mms)."""


class Stop(Exception):
    """Ends the hosted run (``failed=False`` for a normal end)."""

    def __init__(self, reason: str, failed: bool = True) -> None:
        super().__init__(reason)
        self.reason = reason
        self.failed = failed


@dataclass
class Display:
    """What the mouse drew: walls ``(x, y, d) -> set?``, colours, texts."""

    walls: dict = field(default_factory=dict)
    colors: dict = field(default_factory=dict)
    texts: dict = field(default_factory=dict)


class Command(NamedTuple):
    handler: Callable
    min_args: int
    max_args: int


class Pipe:
    """Line I/O with deadlines on the child's pipes (never blocks forever)."""

    def __init__(self, proc, max_line: int) -> None:
        self.proc = proc
        self.out = proc.stdout.fileno()
        self.inp = proc.stdin.fileno()
        self.max_line = max_line
        os.set_blocking(self.out, False)
        os.set_blocking(self.inp, False)
        self.buf = b""
        self.eof = False
        self.sel = selectors.DefaultSelector()
        self.sel.register(self.out, selectors.EVENT_READ)
        # The program's own exit ends its output even when a child of its
        # still holds the pipe open (a contained run reports it on a status fd).
        self.status = getattr(proc, "status_fd", None)
        if self.status is not None:
            self.sel.register(self.status, selectors.EVENT_READ)

    def _line(self) -> str | None:
        nl = self.buf.find(b"\n")
        if nl < 0:
            if not (self.eof and self.buf):
                return None
            nl = len(self.buf)
        line, self.buf = self.buf[:nl], self.buf[nl + 1:]
        return line.decode("utf-8", "replace").rstrip("\r")

    def readline(self, deadline: float, what: str) -> str | None:
        """The next line; None at end of output; Stop(``what``) past ``deadline``."""
        while True:
            line = self._line()
            if line is not None:
                return line
            if len(self.buf) > self.max_line:
                raise Stop(f"protocol error: a line longer than {self.max_line} bytes")
            if self.eof:
                return None
            left = deadline - time.monotonic()
            if left <= 0:
                raise Stop(what)
            ready = {key.fd for key, _ in self.sel.select(timeout=left)}
            if self.status in ready:
                self._status()
            if self.out in ready:
                try:
                    chunk = os.read(self.out, 65536)
                except BlockingIOError:
                    continue
                self.eof = not chunk
                self.buf += chunk

    def _status(self) -> None:
        """The program exited: what it wrote is all in the pipe; read it, then EOF."""
        self.proc.poll_status()
        if self.proc.exit_code is None and not self.proc.eof:
            return
        self.sel.unregister(self.status)
        self.status = None
        if self.proc.exit_code is None:
            # the reaper died without reporting an exit: the program (or someone)
            # killed it; the run is no longer contained, so it ends here (the
            # host's own net then ends what the reaper left)
            raise Stop("the mouse program's reaper was killed; run ended")
        while not self.eof:
            try:
                chunk = os.read(self.out, 65536)
            except BlockingIOError:
                break
            self.eof = not chunk
            self.buf += chunk
        self.eof = True

    def write(self, text: str, deadline: float) -> None:
        data = text.encode()
        sel = selectors.DefaultSelector()
        sel.register(self.inp, selectors.EVENT_WRITE)
        try:
            while data:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise Stop("mouse stopped reading its input (time limit while answering)")
                if not sel.select(timeout=left):
                    continue
                try:
                    n = os.write(self.inp, data)
                except BlockingIOError:
                    continue
                except OSError:
                    raise Stop("mouse closed its input pipe") from None
                data = data[n:]
        finally:
            sel.close()

    def close(self) -> None:
        self.sel.close()


def _bad(s, line: str, what: str):
    raise Invalid(f"{what} in {line!r}")


def _count(s, arg: str | None, line: str, default: int = 1) -> int | None:
    """An optional integer argument; None (lenient mms: treated as 0) if it is not one."""
    if arg is None:
        return default
    try:
        return int(arg)
    except ValueError:
        if s.lenient:
            return 0
        _bad(s, line, "an argument that is not an integer")


def _xy(s, args, line):
    try:
        x, y = int(args[0]), int(args[1])
    except ValueError:
        _bad(s, line, "bad coordinates")
    if not (0 <= x < s.maze.cols and 0 <= y < s.maze.rows):
        _bad(s, line, "coordinates outside the maze")
    return x, y


# -- queries --------------------------------------------------------------
def _width(s, args, line):
    return str(s.maze.cols)


def _height(s, args, line):
    return str(s.maze.rows)


def _wall(rel: int):
    def handler(s, args, line):
        k = _count(s, args[0] if args else None, line)
        # mms checks the first half cell before it counts, so k <= 0 asks
        # what k = 1 asks (Window::isWall)
        return "true" if s.mouse.wall(rel, max(k, 1)) else "false"
    return handler


def _get_stat(s, args, line):
    if args[0] not in STAT_NAMES:
        _bad(s, line, f"unknown stat (expected one of {', '.join(STAT_NAMES)})")
    return s.mouse.stats.get(args[0])


# -- motion ---------------------------------------------------------------
def _move(scale: int):
    def handler(s, args, line):
        n = _count(s, args[0] if args else None, line)
        m = s.mouse
        sx, sy, h = m.sx, m.sy, m.heading
        ok, driven = m.move(n * scale)
        if not ok:
            s.crashes += 1
        s.pipe.write("ack\n" if ok else "crash\n", s.deadline)
        entered, last = [], (sx // 2, sy // 2)
        for i in range(1, driven + 1):
            cell = ((sx + DX[h] * i) // 2, (sy + DY[h] * i) // 2)
            if cell != last:
                entered.append((m.rows - 1 - cell[1], cell[0]))
                last = cell
        if entered:
            s.log.append(("F", entered))
        for cell in entered:             # every cell passed counts: a run through a goal is seen
            s.arrive(cell)
        return None
    return handler


def _turn(eighths: int):
    def handler(s, args, line):
        s.mouse.turn(eighths)
        s.log.append(("T",))
        if abs(eighths) == 2:
            s.turns += 1
        else:
            s.turns45 += 1
        return "ack"
    return handler


def _was_reset(s, args, line):
    return "false"


def _ack_reset(s, args, line):
    s.mouse.reset()
    s.reset()
    return "ack"


# -- display --------------------------------------------------------------
def _set_wall(value: bool):
    def handler(s, args, line):
        x, y = _xy(s, args, line)
        if args[2].lower() not in _DIRS or len(args[2]) != 1:
            _bad(s, line, "bad direction (expected n, e, s or w)")
        s.display.walls[(x, y, args[2].lower())] = value
        return None
    return handler


def _set_color(s, args, line):
    x, y = _xy(s, args, line)
    if args[2] not in COLORS:
        _bad(s, line, f"bad colour (expected one of {''.join(sorted(COLORS))})")
    s.display.colors[(x, y)] = args[2]


def _clear_color(s, args, line):
    s.display.colors.pop(_xy(s, args, line), None)


def _clear_all_color(s, args, line):
    s.display.colors.clear()


def _set_text(s, args, line):
    x, y = _xy(s, args, line)
    # The text is the rest of the line after "setText X Y ", spaces and all.
    text = line.lstrip().split(" ", 3)[3] if line.lstrip().count(" ") >= 3 else ""
    text = "".join(c if " " <= c <= "~" else "?" for c in text)
    s.display.texts[(x, y)] = text[:_TEXT_MAX]


def _clear_text(s, args, line):
    s.display.texts.pop(_xy(s, args, line), None)


def _clear_all_text(s, args, line):
    s.display.texts.clear()


_WALLS = {"wallFront": 0, "wallFrontRight": 1, "wallRight": 2, "wallBackRight": 3,
          "wallBack": 4, "wallBackLeft": 5, "wallLeft": 6, "wallFrontLeft": 7}
_TURNS = {"turnLeft": -2, "turnLeft90": -2, "turnRight": 2, "turnRight90": 2,
          "turnLeft45": -1, "turnRight45": 1}

#: Command name -> (handler, fewest arguments, most arguments).
COMMANDS: dict[str, Command] = {
    "mazeWidth": Command(_width, 0, 0),
    "mazeHeight": Command(_height, 0, 0),
    **{name: Command(_wall(rel), 0, 1) for name, rel in _WALLS.items()},
    "moveForward": Command(_move(2), 0, 1),
    "moveForwardHalf": Command(_move(1), 0, 1),
    **{name: Command(_turn(e), 0, 0) for name, e in _TURNS.items()},
    "wasReset": Command(_was_reset, 0, 0),
    "ackReset": Command(_ack_reset, 0, 0),
    "getStat": Command(_get_stat, 1, 1),
    "setWall": Command(_set_wall(True), 3, 3),
    "clearWall": Command(_set_wall(False), 3, 3),
    "setColor": Command(_set_color, 3, 3),
    "clearColor": Command(_clear_color, 2, 2),
    "clearAllColor": Command(_clear_all_color, 0, 0),
    "setText": Command(_set_text, 2, 1 << 30),
    "clearText": Command(_clear_text, 2, 2),
    "clearAllText": Command(_clear_all_text, 0, 0),
}
