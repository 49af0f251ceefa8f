"""The ``robomaze`` command: a thin argparse front-end over the library.

Each sub-command lives in its own module in this package and exposes
``register(subparsers)``, which adds its parser and sets ``func`` (a callable
taking the parsed namespace and returning an exit code). Adding a command is
one new module and one line in :data:`COMMANDS`.

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

from .. import _jit_cache, _jit_notice
from .._validate import limit_cells
from ..errors import ParameterError, RobomazeError
from ..io._common import limit_memory, parse_bytes
from ._argv import rewrite, value_options

__all__ = ["main", "build_parser", "COMMANDS"]

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
    "data",
]


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

    parser = argparse.ArgumentParser(
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

    def error(message: str):
        # one line, like every other robomaze error (argparse would print usage first)
        print(f"robomaze: error: {message} (see 'robomaze --help')", file=sys.stderr)
        raise SystemExit(2)

    parser.error = error  # type: ignore[method-assign]
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module = importlib.import_module(f"{__name__}.{name.replace('-', '_')}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``robomaze`` console script; returns the exit code."""
    parser = build_parser()
    try:
        words = rewrite(sys.argv[1:] if argv is None else argv, value_options(parser))
    except RobomazeError as exc:
        print(f"robomaze: error: {exc}", file=sys.stderr)
        return 2
    args = parser.parse_args(words)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    _jit_notice.install()
    _jit_cache.install()  # several robomaze commands may compile into one cache at once
    try:
        memory = (limit_memory(args.max_memory) if args.max_memory is not None
                  else contextlib.nullcontext())
        with limit_cells(args.max_cells), memory:
            return int(args.func(args) or 0)
    except RobomazeError as exc:
        print(f"robomaze {args.command}: error: {exc}", file=sys.stderr)
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
        print(f"robomaze {args.command}: error: {exc}", file=sys.stderr)
        return 2
    finally:
        _jit_notice.summary()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
