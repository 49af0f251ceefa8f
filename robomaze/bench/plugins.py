"""Plugins: user modules imported before a run, in every worker process.

A plugin is any importable module (or a ``.py`` file) that registers extra
entries in robomaze's registries when imported: a spec, e.g.
``robomaze.registry.PLANNERS.register(Spec("planner", "mine", "my_mod:mine",
options=...))`` (docs/extending.md), or, as before specs existed, a bare
function, ``robomaze.plan.PLANNERS["mine"] = my_planner``, whose options are
read from its signature. Because workers are separate
processes, registering in the parent is not enough: a sweep names its
plugins (``plugins = [...]`` in the sweep file, resolved against the sweep
file's folder) and the environment variable ``ROBOMAZE_PLUGINS``
(``os.pathsep``-separated) adds more; each worker imports them all before
its first run.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import sys
from pathlib import Path
from typing import Iterable

__all__ = ["import_plugins", "env_plugins", "ENV_VAR"]

ENV_VAR = "ROBOMAZE_PLUGINS"
_loaded: dict[str, object] = {}


def env_plugins() -> list[str]:
    """Plugin names listed in ``$ROBOMAZE_PLUGINS``."""
    return [p for p in os.environ.get(ENV_VAR, "").split(os.pathsep) if p.strip()]


def import_plugins(names: Iterable[str], base_dir: str | os.PathLike = ".") -> list[object]:
    """Import each plugin once (per process) and return the modules.

    ``names`` entries ending in ``.py`` are files, relative to ``base_dir``;
    others are module names, importable from ``sys.path`` or ``base_dir``.
    ``$ROBOMAZE_PLUGINS`` entries are imported first (relative to the
    current directory).

    >>> import_plugins([]) == [] or True
    True
    """
    mods = []
    for name in env_plugins():
        mods.append(_import_one(name, Path.cwd()))
    for name in names:
        mods.append(_import_one(name, Path(base_dir)))
    return mods


def _import_one(name: str, base: Path) -> object:
    if name.endswith(".py"):
        path = Path(name)
        if not path.is_absolute():
            path = base / path
        path = path.resolve()
        key = str(path)
        if key in _loaded:
            return _loaded[key]
        if not path.is_file():
            raise ImportError(f"plugin file {name!r} not found (looked at {path})")
        modname = f"robomaze_plugin_{path.stem}_{hashlib.sha1(key.encode()).hexdigest()[:8]}"
        spec = importlib.util.spec_from_file_location(modname, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[modname] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[modname]
            raise
        _loaded[key] = module
        return module
    if name in _loaded:
        return _loaded[name]
    added = str(base.resolve())
    sys.path.insert(0, added)
    try:
        module = importlib.import_module(name)
    finally:
        try:
            sys.path.remove(added)
        except ValueError:
            pass
    _loaded[name] = module
    return module
