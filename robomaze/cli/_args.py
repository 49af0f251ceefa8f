"""The command line's arguments: sub-command parsers and the small textual forms users type.

One-line usage errors (:func:`add_command`), sizes (``20x30``), pixel sizes,
``KEY=VALUE`` options, output extensions and the argparse ``type`` functions
of counts, fractions and lengths. The world's options (source, seed,
widening, footprint) are declared and built in :mod:`robomaze.cli._world`.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ..errors import ParameterError
from ..maze import check_shape

__all__ = [
    "add_command", "parse_size", "parse_pixel_size", "parse_options", "positive_int",
    "positive_float", "nonneg_int", "fraction", "out_extension", "MAX_PIXELS", "MAX_PIXELS_SIDE",
]

_SIZE_RE = re.compile(r"^\s*(\d+)\s*[xX\u00d7]\s*(\d+)\s*$")


# ------------------------------------------------------------------ parsers
def add_command(subparsers, name: str, *, help: str, description: str | None = None,
                epilog: str | None = None) -> argparse.ArgumentParser:
    """Add a sub-command parser whose usage errors are ONE line, like ours.

    argparse would print the whole usage block before its message; a user
    typing a bad option gets ``robomaze <name>: error: ...`` and exit 2
    instead, the same shape as every other robomaze error.
    """
    parser = subparsers.add_parser(
        name, help=help, description=description or help, epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter)

    def error(message: str):
        print(f"robomaze {name}: error: {message}", file=sys.stderr)
        raise SystemExit(2)

    parser.error = error  # type: ignore[method-assign]

    # Unknown options would otherwise travel back to the top-level parser,
    # which prints its whole usage block; report them here, in one line.
    parse_known = parser.parse_known_args

    def parse_known_args(args=None, namespace=None):
        namespace, extras = parse_known(args, namespace)
        if extras:
            error(f"unrecognized arguments: {' '.join(extras)}")
        return namespace, extras

    parser.parse_known_args = parse_known_args  # type: ignore[method-assign]
    return parser


def parse_size(text: str, name: str = "size") -> tuple[int, int]:
    """``"ROWSxCOLS"`` -> ``(rows, cols)``; a single ``"N"`` means ``N x N``.

    >>> parse_size("20x30"), parse_size("7")
    ((20, 30), (7, 7))
    >>> parse_size("20by30")
    Traceback (most recent call last):
    ...
    robomaze.errors.ParameterError: size must be ROWSxCOLS like 20x30, got '20by30'
    """
    text = str(text)
    m = _SIZE_RE.match(text)
    if m:
        rows, cols = int(m.group(1)), int(m.group(2))
    elif text.strip().isdigit():
        rows = cols = int(text)
    else:
        raise ParameterError(f"{name} must be ROWSxCOLS like 20x30, got {text!r}")
    try:
        return check_shape(rows, cols)
    except ParameterError as exc:
        raise ParameterError(f"{name} {text!r}: {exc}") from None


#: Largest picture the CLI draws: 16384 pixels a side, 64 megapixels in all
#: (an RGBA canvas of 256 MB).
MAX_PIXELS_SIDE = 16384
MAX_PIXELS = 64_000_000


def parse_pixel_size(text: str) -> tuple[int, int]:
    """``"800x600"`` -> ``(width, height)`` in pixels.

    >>> parse_pixel_size("800x600")
    (800, 600)
    """
    m = _SIZE_RE.match(str(text))
    if not m:
        raise ParameterError(f"--size must be WIDTHxHEIGHT in pixels like 800x600, got {text!r}")
    w, h = int(m.group(1)), int(m.group(2))
    if not (1 <= w <= MAX_PIXELS_SIDE and 1 <= h <= MAX_PIXELS_SIDE) or w * h > MAX_PIXELS:
        raise ParameterError(
            f"--size must be between 1x1 and {MAX_PIXELS_SIDE}x{MAX_PIXELS_SIDE} pixels with at "
            f"most {MAX_PIXELS:,d} pixels in all, got {text!r}")
    return w, h


def parse_options(items: Sequence[str]) -> dict:
    """``["selection=random", "mix=0.5"]`` -> ``{"selection": "random", "mix": 0.5}``.

    Values that read as int or float become numbers.

    >>> parse_options(["selection=random", "mix=0.5", "n=3"])
    {'selection': 'random', 'mix': 0.5, 'n': 3}
    """
    out: dict[str, Any] = {}
    for item in items or ():
        key, sep, value = str(item).partition("=")
        key = key.strip()
        if not sep or not key.isidentifier():
            raise ParameterError(f"--option must be KEY=VALUE, got {item!r}")
        for convert in (int, float):
            try:
                out[key] = convert(value)
                break
            except ValueError:
                continue
        else:
            out[key] = value
    return out


def positive_int(text: str) -> int:
    """An argparse ``type`` for widths and pixel counts (integer >= 1)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer >= 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be an integer >= 1, got {value}")
    return value


def fraction(text: str) -> float:
    """An argparse ``type`` for a number in [0, 1]."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number in [0, 1], got {text!r}") from None
    if not (0.0 <= value <= 1.0):
        raise argparse.ArgumentTypeError(f"must be a number in [0, 1], got {text!r}")
    return value


def nonneg_int(text: str) -> int:
    """An argparse ``type`` for a seed."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer >= 0, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be an integer >= 0, got {value}")
    return value


def positive_float(text: str) -> float:
    """An argparse ``type`` for a resolution in metres."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number > 0, got {text!r}") from None
    if not (value > 0 and np.isfinite(value)):
        raise argparse.ArgumentTypeError(f"must be a finite number > 0, got {text!r}")
    return value


def out_extension(out, allowed: Sequence[str], name: str = "-o/--output") -> str:
    """Lower-case extension of ``out``, which must be one of ``allowed``."""
    ext = Path(os.fspath(out)).suffix.lower()
    if ext not in allowed:
        raise ParameterError(
            f"{name} must end in one of {', '.join(allowed)}, got {os.fspath(out)!r}")
    return ext
