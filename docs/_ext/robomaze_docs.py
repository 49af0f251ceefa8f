"""Sphinx extension: the API reference of every public module and the CLI reference.

Both are generated from the code when the build starts, so they cannot drift:

* ``api/``: one page per public module of ``robomaze`` (no part of its name
  starts with ``_``), each listing the module's docstring and the public
  names it defines (``__all__``), or re-exports from a private module;
  a name is documented once, where it is defined;
* ``cli.rst``: every ``robomaze`` sub-command's ``--help``, taken from the
  argparse parser the command itself builds (``robomaze.cli.build_parser``).

Generated files are written only when their text changed (incremental builds
stay incremental) and are ignored by git.
"""

from __future__ import annotations

import importlib
import inspect
import io
import pkgutil
from contextlib import redirect_stdout
from pathlib import Path

#: Modules skipped: ``__main__`` entry points run the command when imported.
SKIP = {"robomaze.__main__", "robomaze.cli.__main__"}


def public_modules() -> list[str]:
    """Every public module of robomaze, sorted (packages before their modules)."""
    import robomaze

    names = ["robomaze"]
    for info in pkgutil.walk_packages(robomaze.__path__, "robomaze."):
        if any(part.startswith("_") for part in info.name.split(".")) or info.name in SKIP:
            continue
        names.append(info.name)
    return sorted(names)


def _owner(obj, documented: set[str]) -> str | None:
    mod = getattr(obj, "__module__", None)
    return mod if mod in documented else None


def members(modname: str, documented: set[str]) -> list[tuple[str, str]]:
    """``(directive, name)`` of the names this module's page documents."""
    mod = importlib.import_module(modname)
    names = getattr(mod, "__all__", None)
    if names is None:
        names = [n for n, v in vars(mod).items() if not n.startswith("_")
                 and (inspect.isfunction(v) or inspect.isclass(v))
                 and getattr(v, "__module__", None) == modname]
    out = []
    for name in names:
        if not hasattr(mod, name):
            continue
        obj = getattr(mod, name)
        if inspect.ismodule(obj):
            continue
        owner = _owner(obj, documented)
        if (inspect.isclass(obj) or inspect.isfunction(obj) or callable(obj)) and \
                getattr(obj, "__module__", None) is not None:
            # documented where it is defined, when that module has a page
            if owner is not None and owner != modname:
                continue
            out.append(("autoclass" if inspect.isclass(obj) else "autofunction", name))
        elif _assigned_here(mod, name):   # data: only where the module assigns it
            out.append(("autodata", name))
    return out


def _assigned_here(mod, name: str) -> bool:
    import re

    try:
        source = inspect.getsource(mod)
    except (OSError, TypeError):
        return False
    return re.search(rf"^{re.escape(name)}\s*(:[^=]*)?=", source, re.M) is not None


def module_page(modname: str, documented: set[str]) -> str:
    title = f"``{modname}``"
    lines = [f".. _api-{modname}:", "", title, "=" * len(title), "",
             f".. automodule:: {modname}", ""]
    for directive, name in members(modname, documented):
        lines.append(f".. {directive}:: {modname}.{name}")
        if directive == "autoclass":
            lines.append("   :members:")
        if directive == "autodata":
            lines.append("   :no-value:")
        lines.append("")
    return "\n".join(lines)


def api_pages() -> dict[str, str]:
    mods = public_modules()
    documented = set(mods)
    pages = {f"api/{m}.rst": module_page(m, documented) for m in mods}
    toc = "\n".join(f"   {m}" for m in mods)
    pages["api/index.rst"] = (
        "API reference\n=============\n\n"
        "Every public module of robomaze (generated from the docstrings, numpydoc\n"
        "format; names starting with ``_`` are private). Each name is documented\n"
        "where it is defined; packages re-export the names of their modules.\n\n"
        f".. toctree::\n   :maxdepth: 1\n\n{toc}\n")
    return pages


def _help(parser) -> str:
    buf = io.StringIO()
    with redirect_stdout(buf):
        parser.print_help()
    return buf.getvalue()


def cli_page() -> str:
    import argparse

    from robomaze.cli import COMMANDS, SUMMARIES, build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    out = ["Command line reference", "======================", "",
           "Generated from the ``robomaze`` command's own argparse parsers",
           "(``robomaze.cli.build_parser``): what ``robomaze COMMAND --help`` prints.",
           "Bad input prints one line naming the parameter and exits with status 2.", "",
           "``robomaze``", "------------", "", ".. code-block:: text", ""]
    out += ["   " + x for x in _help(parser).splitlines()] + [""]
    for name in COMMANDS:
        title = f"``robomaze {name}``"
        out += [f".. _cli-{name}:", "", title, "-" * len(title), "",
                SUMMARIES.get(name, "") + ".", "", ".. code-block:: text", ""]
        out += ["   " + x if x.strip() else "" for x in _help(sub.choices[name]).splitlines()]
        out.append("")
    return "\n".join(out)


def _write(root: Path, rel: str, text: str) -> None:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    if not p.exists() or p.read_text(encoding="utf-8") != text:
        p.write_text(text, encoding="utf-8")


def generate(app) -> None:
    root = Path(app.srcdir)
    import os

    os.environ.setdefault("COLUMNS", "100")   # argparse wraps its help at this width
    for rel, text in api_pages().items():
        _write(root, rel, text)
    _write(root, "cli.rst", cli_page())
    from robomaze.registry.tables import methods_page

    _write(root, "methods.rst", methods_page())   # the option tables, from the specs


def setup(app):
    app.connect("builder-inited", generate)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
