"""Command-line words rewritten before argparse sees them.

Two things argparse cannot do on its own:

- ``--start -2,-0.5``: a value that starts with ``-`` and is not a plain
  negative number is taken for an option, so world coordinates west or
  south of the origin could not be typed. A comma list of numbers after an
  option that takes a value is joined to it (``--start=-2,-0.5``).
- ``pkg:NAME`` names a sample shipped in the package
  (:mod:`robomaze.data`); it becomes that file's path wherever it appears,
  alone or as ``--option=pkg:NAME``.
"""

from __future__ import annotations

import argparse
import re
from typing import Iterable, Sequence

from ..data import PREFIX, resolve

__all__ = ["rewrite", "value_options"]

_NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
# a list that starts with a minus: argparse would take it for an option
_NEG_LIST = re.compile(rf"^-(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?(?:,{_NUM})*$")


def value_options(parser: argparse.ArgumentParser) -> set[str]:
    """Every option string, in any sub-command, that takes a value."""
    found: set[str] = set()
    stack = [parser]
    while stack:
        p = stack.pop()
        for action in p._actions:  # argparse keeps no public list of actions
            if isinstance(action, argparse._SubParsersAction):
                stack.extend(action.choices.values())
            elif action.option_strings and action.nargs != 0:
                found.update(action.option_strings)
    return found


def _pkg(word: str) -> str:
    if word.startswith(PREFIX):
        return str(resolve(word))
    if word.startswith("-") and "=" in word:
        opt, value = word.split("=", 1)
        if value.startswith(PREFIX):
            return f"{opt}={resolve(value)}"
    return word


def rewrite(argv: Sequence[str], options: Iterable[str]) -> list[str]:
    """``argv`` with ``pkg:`` names resolved and negative lists joined to their option.

    Words after a bare ``--`` (a mouse program's own command line) are left alone.

    >>> rewrite(["simulate", "--start", "-2,-0.5", "--goal", "1,2"], {"--start", "--goal"})
    ['simulate', '--start=-2,-0.5', '--goal', '1,2']
    >>> rewrite(["x", "--quiet", "-2,3"], {"--start"})
    ['x', '--quiet', '-2,3']
    >>> rewrite(["mouse", "run", "m.txt", "--", "prog", "pkg:nothing"], set())[-1]
    'pkg:nothing'
    """
    options = set(options)
    out: list[str] = []
    words = list(argv)
    i = 0
    while i < len(words):
        w = words[i]
        if w == "--":
            out.extend(words[i:])
            break
        nxt = words[i + 1] if i + 1 < len(words) else None
        if w in options and nxt is not None and _NEG_LIST.match(nxt):
            out.append(f"{w}={nxt}")
            i += 2
            continue
        out.append(_pkg(w))
        i += 1
    return out
