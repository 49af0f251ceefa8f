"""``robomaze list``: the names in robomaze's registries, with one-line
descriptions, or (``--json``) every spec with its typed options."""

from __future__ import annotations

import argparse
import json

from .. import registry as _registry
from ..errors import ParameterError
from ._args import add_command

#: What ``robomaze list`` can show: KIND -> the registry's kind in
#: :data:`robomaze.registry.REGISTRIES`.
REGISTRIES = {
    "generators": "generator",
    "planners": "planner",
    "agents": "agent",
    "sensors": "sensor",
    "mouse_solvers": "mouse",
    "mapf_solvers": "mapf",
    "formats": "format",
    "mouse_profiles": "profile",
}


def register(subparsers) -> None:
    p = add_command(subparsers, "list", help="list generators, planners, agents and the other "
                                             "registries",
                    description="List the registered names with the first line of each "
                                "one's documentation; with --json, every entry's spec: its "
                                "typed options (type, default, range, description), "
                                "capabilities and entry point. Plugins join through entry "
                                "points and $ROBOMAZE_PLUGINS.",
                    epilog="examples:\n  robomaze list\n  robomaze list generators\n"
                           "  robomaze list planners --json\n")
    p.add_argument("kind", nargs="?", default="all", metavar="KIND",
                   help=f"{', '.join(REGISTRIES)} or all (default all)")
    p.add_argument("--json", action="store_true",
                   help="print the specs as JSON: {KIND: [spec, ...]}")
    p.set_defaults(func=run)


def summary(spec) -> str:
    """The one-line description of a registry entry's spec.

    >>> from robomaze.registry import Spec
    >>> summary(Spec("planner", "p", "math:sqrt", "Walk at random;\\nscan when stuck."))
    'Walk at random; scan when stuck.'
    """
    return " ".join(str(spec.description).split())


def registry(kind: str):
    """The registry of ``kind`` (a key of :data:`REGISTRIES`), or None when
    its package is not available."""
    reg = _registry.get(REGISTRIES[kind])
    try:
        len(reg)   # imports the package that declares the specs
    except ImportError:
        return None
    return reg


def run(args: argparse.Namespace) -> int:
    kind = str(args.kind).lower()
    if kind != "all" and kind not in REGISTRIES:
        raise ParameterError(
            f"KIND must be one of {', '.join([*REGISTRIES, 'all'])}, got {args.kind!r}")
    from ..bench.plugins import env_plugins, import_plugins

    if env_plugins():   # the plugins a sweep's workers import ($ROBOMAZE_PLUGINS) list too
        try:
            import_plugins([])
        except Exception as exc:
            raise ParameterError(f"$ROBOMAZE_PLUGINS: could not import: {exc}") from None
    kinds = list(REGISTRIES) if kind == "all" else [kind]
    if getattr(args, "json", False):
        out = {}
        for k in kinds:
            reg = registry(k)
            out[k] = None if reg is None else reg.to_list()
        print(json.dumps(out, indent=1))
        return 0
    for i, k in enumerate(kinds):
        if i:
            print()
        print(f"{k}:")
        reg = registry(k)
        if reg is None:
            print("  (not available)")
            continue
        if not len(reg):
            print("  (none registered)")
            continue
        width = max(len(str(name)) for name in reg)
        for name in sorted(reg):
            text = summary(reg.spec(name))
            print(f"  {name:<{width}}  {text}".rstrip())
    return 0
