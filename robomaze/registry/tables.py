"""The documentation's option tables, read from the specs.

:func:`methods_page` is the reStructuredText page ``docs/methods.rst`` (the
docs build writes it, as it writes the CLI reference from the parsers): one
section per registry, one table per method with options.

>>> from robomaze.registry import Option, Spec
>>> print(option_table(Spec("planner", "p", "m:f", "P.", options=(
...     Option("weight", float, 1.0, "heuristic weight", low=1.0),))))
.. list-table::
   :header-rows: 1
   :widths: 20 10 12 58
<BLANKLINE>
   * - option
     - type
     - default
     - description
   * - ``weight``
     - float
     - ``1.0``
     - heuristic weight (a number >= 1.0)
"""

from __future__ import annotations

import re

from .spec import ANY, Spec

__all__ = ["option_table", "methods_page", "TITLES"]

#: Registry kind -> section title, in page order.
TITLES = {"planner": "Planners", "generator": "Maze generators", "agent": "Agents",
          "sensor": "Sensors", "mouse": "Micromouse solvers", "mapf": "MAPF solvers",
          "format": "File formats", "profile": "Mouse profiles"}


def _cell(text: str) -> str:
    # roles (:class:`X`) become literals: the page does not resolve them
    text = re.sub(r":[a-z]+:`~?([^`]+)`", r"``\1``", str(text))
    return " ".join(text.split()) or " "


def option_table(spec: Spec) -> str:
    """An RST list-table of ``spec``'s options (name, type, default, what it
    accepts); empty when it has none."""
    if not spec.options:
        return ""
    out = [".. list-table::", "   :header-rows: 1", "   :widths: 20 10 12 58", "",
           "   * - option", "     - type", "     - default", "     - description"]
    for o in spec.options:
        d = o.to_dict()
        accepts = "" if o.type is ANY else f" ({o.expected})"
        out += [f"   * - ``{o.name}``", f"     - {d['type']}", f"     - ``{d['default']!r}``",
                f"     - {_cell(o.doc + accepts)}"]
    return "\n".join(out)


def methods_page() -> str:
    """The page of every registry's methods and their typed options."""
    from . import get

    out = ["Methods and their options", "=========================", "",
           "Generated from the specs of :mod:`robomaze.registry` (what ``robomaze list",
           "--json`` prints): each method's typed options, their defaults and what they",
           "accept. ``--option KEY=VALUE`` on the command line and a sweep's",
           "``[run.options.NAME]`` are checked against them.", ""]
    for kind, title in TITLES.items():
        out += [title, "-" * len(title), ""]
        try:
            specs = sorted(get(kind).specs(), key=lambda s: s.name)
        except ImportError:
            out += ["(not available in this installation)", ""]
            continue
        for spec in specs:
            head = f"``{spec.name}``"
            out += [head, "^" * len(head), "", _cell(spec.description), ""]
            facts = []
            if spec.takes_rng:
                facts.append("seeded by the runner")
            if spec.flags:
                facts.append("flags: " + ", ".join(sorted(spec.flags)))
            if spec.needs:
                facts.append("needs: " + ", ".join(spec.needs))
            if spec.open_options or spec.hands_to:
                facts.append("passes further options on" + (f" to its ``{spec.hands_to}``"
                                                            if spec.hands_to else ""))
            if facts:
                out += ["; ".join(facts).capitalize() + ".", ""]
            table = option_table(spec)
            if table:
                out += [table, ""]
    return "\n".join(out)
