"""``robomaze list``: the names in robomaze's registries, with one-line descriptions."""

from __future__ import annotations

import argparse
import importlib
import inspect

from ..errors import ParameterError
from ._args import add_command

#: What ``robomaze list`` can show: kind -> (module, registry attribute).
REGISTRIES = {
    "generators": ("robomaze.generate", "GENERATORS"),
    "planners": ("robomaze.plan", "PLANNERS"),
    "agents": ("robomaze.sim", "AGENTS"),
}


def register(subparsers) -> None:
    p = add_command(subparsers, "list", help="list generators, planners and agents",
                    description="List the registered names with the first line of each "
                                "one's documentation.",
                    epilog="examples:\n  robomaze list\n  robomaze list generators\n")
    p.add_argument("kind", nargs="?", default="all", metavar="KIND",
                   help="generators, planners, agents or all (default all)")
    p.set_defaults(func=run)


def summary(obj) -> str:
    """Summary sentence of a registry entry's documentation (function or spec).

    >>> def f():
    ...     '''Walk at random;
    ...     scan when stuck.
    ...
    ...     Details.
    ...     '''
    >>> summary(f)
    'Walk at random; scan when stuck.'
    """
    for attr in ("description", "summary"):
        text = getattr(obj, attr, None)
        if isinstance(text, str) and text.strip():
            return text.strip().splitlines()[0]
    target = obj
    for attr in ("fn", "func", "function", "cls", "factory"):
        if callable(getattr(obj, attr, None)):
            target = getattr(obj, attr)
            break
    doc = (inspect.getdoc(target) or "").strip()
    # the summary may wrap over several lines; it ends at the first blank line
    return " ".join(doc.split("\n\n")[0].split())


def registry(kind: str) -> dict | None:
    """The registry dict for ``kind``, or None when its package is not available."""
    module, attr = REGISTRIES[kind]
    try:
        mod = importlib.import_module(module)
    except ImportError:
        return None
    reg = getattr(mod, attr, None)
    return reg if isinstance(reg, dict) else None


def run(args: argparse.Namespace) -> int:
    kind = str(args.kind).lower()
    if kind != "all" and kind not in REGISTRIES:
        raise ParameterError(
            f"KIND must be one of {', '.join([*REGISTRIES, 'all'])}, got {args.kind!r}")
    kinds = list(REGISTRIES) if kind == "all" else [kind]
    for i, k in enumerate(kinds):
        if i:
            print()
        print(f"{k}:")
        reg = registry(k)
        if reg is None:
            print("  (not available)")
            continue
        if not reg:
            print("  (none registered)")
            continue
        width = max(len(str(name)) for name in reg)
        for name in sorted(reg):
            text = summary(reg[name])
            print(f"  {name:<{width}}  {text}".rstrip())
    return 0
