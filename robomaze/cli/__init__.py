"""The ``robomaze`` command: a thin argparse front-end over the library.

Each sub-command lives in its own module in this package and exposes
``register(subparsers)``, which adds its parser and sets ``func`` (a callable
taking the parsed namespace and returning an exit code). Adding a command is
one new module, one line in :data:`COMMANDS` and its one-line summary in
:data:`SUMMARIES`.

Only the sub-command being run is imported: ``robomaze --version``,
``robomaze --help`` and every command's parser stay free of numba, scipy
and matplotlib until a command needs them (the summaries are what
``--help`` lists; a test checks they match the commands' own).

Any :class:`robomaze.errors.RobomazeError` becomes one line on stderr and
exit status 2; nothing a user types produces a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
from typing import Sequence

from .. import _compile
from .._validate import limit_cells
from ..errors import ParameterError, RobomazeError
from ..io import limit_memory, parse_bytes
from ._argv import rewrite, value_options

__all__ = ["main", "build_parser", "parser_for", "command_of", "COMMANDS", "SUMMARIES"]

#: Sub-command modules, in the order ``--help`` lists them.
COMMANDS = [
    "generate",
    "render",
    "stats",
    "list",
    "bench",
    "play",
    "replay",
    "score",
    "movingai",
    "mouse",
    "plan",
    "simulate",
    "traffic",
    "data",
    "warmup",
    "mapf",
    "completion",
]

#: One line per sub-command, as ``robomaze --help`` lists it (the same text
#: the command's own parser is given), so the top-level help imports nothing.
SUMMARIES = {
    "generate": "generate a maze and save it",
    "render": "draw a maze or grid file to PNG/SVG/PDF",
    "stats": "print maze statistics",
    "list": "list generators, planners, agents and the other registries",
    "bench": "benchmark planners and agents over a sweep",
    "play": "walk a maze interactively and record it",
    "replay": "animate or export a traversal record",
    "score": "deviation of a traversal from the optimal route",
    "movingai": "run a MovingAI .scen file with 8-connected A* and compare lengths",
    "mouse": "micromouse mode: built-in solvers, host mms mice",
    "plan": "plan a path on a maze or grid",
    "simulate": "simulate a robot agent in a maze or grid",
    "traffic": "run several robots and moving obstacles in one maze",
    "data": "list, locate and copy the packaged sample data",
    "warmup": "compile every numba kernel once (CI images, first use)",
    "mapf": "plan many agents together (multi-agent path finding)",
    "completion": "print a shell completion script (bash, zsh)",
}


#: Default cell limit of the command line (2**26 = 67,108,864 cells, about
#: 0.5 GB for a float64 field): a typo like ``--size 30000x30000`` is refused
#: at once instead of allocating gigabytes.
CLI_MAX_CELLS = 2 ** 26


def _cells(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number of cells, got {text!r}")
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {n}")
    return n


def _memory(text: str) -> int:
    try:
        return parse_bytes(text)
    except ParameterError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every registered sub-command."""
    from .. import __version__

    parser = _OneLineParser(
        prog="robomaze",
        description="Robot path planning on mazes: generate, widen, plan, simulate, benchmark.",
    )
    parser.add_argument("--version", action="version", version=f"robomaze {__version__}")
    parser.add_argument("--max-cells", type=_cells, default=CLI_MAX_CELLS, metavar="N",
                        help="refuse mazes and grids of more than N cells before allocating "
                             f"them (default {CLI_MAX_CELLS:,d}: a 4000x4000 maze widened "
                             "with corridor 1, wall 1)")
    parser.add_argument("--max-memory", type=_memory, default=None, metavar="SIZE",
                        help="refuse to read, write or draw anything needing more than SIZE "
                             "bytes (e.g. 2G, 512M; default: ROBOMAZE_MAX_MEMORY or a quarter "
                             "of physical memory)")

    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    wanted = set(COMMANDS if _ONLY is None else _ONLY)
    for name in COMMANDS:
        if name in wanted or name not in SUMMARIES:  # (no summary: ask the command itself)
            module = importlib.import_module(f"{__name__}.{name.replace('-', '_')}")
            module.register(sub)
        else:
            sub.add_parser(name, help=SUMMARIES[name])
    return parser


class _OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, like every other robomaze
    error (argparse prints its usage block first). ``add_subparsers`` makes
    parsers of the parser's own class, so nested commands (``mouse sim``)
    inherit it."""

    def error(self, message: str):
        message = " ".join(str(message).split())
        print(f"{self.prog}: error: {message} (see '{self.prog} --help')", file=sys.stderr)
        raise SystemExit(2)


def one_line(text) -> str:
    """An error message on one line (a library's message may span several).

    >>> one_line("bad YAML:" + chr(10) + "  line 3" + chr(10) + "  ^")
    'bad YAML: line 3 ^'
    """
    return " ".join(str(text).split())


#: Set by :func:`parser_for` while it builds: the sub-commands to import.
_ONLY: set | None = None


def parser_for(only) -> argparse.ArgumentParser:
    """:func:`build_parser` importing only the sub-commands in ``only``.

    The others get a bare parser with their summary, enough for ``--help``
    and for argparse's list of valid commands.
    """
    global _ONLY
    _ONLY = set(only)
    try:
        return build_parser()
    finally:
        _ONLY = None


def command_of(argv: Sequence[str], takes_value=("--max-cells",)) -> str | None:
    """The sub-command word of a command line (None for none, e.g. ``--help``).

    ``takes_value``: the top-level options followed by a separate value.

    >>> command_of(["--max-cells", "100", "plan", "prim", "5x5"])
    'plan'
    >>> command_of(["--version"]) is None
    True
    """
    skip = set(takes_value)
    words = tuple(argv)  # (not list(): the `list` sub-command module shadows it here)
    i = 0
    while i < len(words):
        w = words[i]
        if w in skip:
            i += 2
            continue
        if not w.startswith("-"):
            return w
        i += 1
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``robomaze`` console script; returns the exit code."""
    argv = sys.argv[1:] if argv is None else argv
    top = {o for a in parser_for(())._actions if a.option_strings and a.nargs != 0
           for o in a.option_strings}
    parser = parser_for([c for c in [command_of(argv, top)] if c in COMMANDS])
    try:
        words = rewrite(argv, value_options(parser))
    except RobomazeError as exc:
        print(f"robomaze: error: {one_line(exc)}", file=sys.stderr)
        return 2
    args = parser.parse_args(words)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    _compile.install()
    try:
        memory = (limit_memory(args.max_memory) if args.max_memory is not None
                  else contextlib.nullcontext())
        with limit_cells(args.max_cells), memory:
            return int(args.func(args) or 0)
    except RobomazeError as exc:
        print(f"robomaze {args.command}: error: {one_line(exc)}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader went away (e.g. `robomaze list | head`): not an error of ours
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0
    except KeyboardInterrupt:
        print(f"robomaze {args.command}: interrupted", file=sys.stderr)
        return 130
    except (OSError) as exc:
        print(f"robomaze {args.command}: error: {one_line(exc)}", file=sys.stderr)
        return 2
    finally:
        _compile.summary()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
