"""Run a function right after a module is imported, without importing it.

robomaze must stay cheap to import (no gymnasium, no numba for ``--version``),
yet it has to act on those libraries when a program imports them: register
its gymnasium env, point numba's cache at a content-keyed folder. A one-shot
finder at the front of ``sys.meta_path`` wraps the module's loader so the
callback runs right after the module's own code; a failing callback never
fails the import.
"""

from __future__ import annotations

import contextlib
import importlib.abc
import importlib.util
import sys
from typing import Callable

__all__ = ["after_import"]


class _After(importlib.abc.MetaPathFinder):
    def __init__(self, name: str, callback: Callable[[object], None]) -> None:
        self.name = name
        self.callbacks = [callback]

    def find_spec(self, fullname, path, target=None):
        if fullname != self.name:
            return None
        with contextlib.suppress(ValueError):  # already removed by a nested import
            sys.meta_path.remove(self)  # one shot, and no recursion below
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        run, callbacks = spec.loader.exec_module, self.callbacks

        def exec_module(module):
            run(module)
            for callback in callbacks:  # in the order they were asked for
                # the library's import must not fail because of robomaze
                with contextlib.suppress(Exception):
                    callback(module)

        spec.loader.exec_module = exec_module
        return spec


def after_import(name: str, callback: Callable[[object], None]) -> None:
    """Call ``callback(module)`` now if ``name`` is imported, else right after it is.

    A blocked import (``sys.modules[name] is None``) calls nothing.

    >>> import sys
    >>> seen = []
    >>> after_import("json", lambda m: seen.append(m.__name__))
    >>> "json" in sys.modules and seen == ["json"] or "json" not in sys.modules
    True
    """
    if name in sys.modules:
        module = sys.modules[name]
        if module is not None:
            with contextlib.suppress(Exception):  # as after a later import: never fail it
                callback(module)
        return
    for f in sys.meta_path:
        if isinstance(f, _After) and f.name == name:
            if callback not in f.callbacks:
                f.callbacks.append(callback)
            return
    sys.meta_path.insert(0, _After(name, callback))
