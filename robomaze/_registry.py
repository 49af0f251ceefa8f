"""Registries of algorithms by name: planners, generators, agents.

A :class:`Registry` is a ``dict`` of name -> callable (so code that reads
``PLANNERS[name]`` or ``name in PLANNERS`` keeps working) with

* :meth:`~Registry.register` / :meth:`~Registry.unregister` (``register``
  also works as a decorator and refuses to replace an entry silently);
* entries from installed packages' entry points (group
  ``robomaze.planners``, ``robomaze.generators`` or ``robomaze.agents``),
  loaded on the first lookup, not at import;
* :meth:`~Registry.lookup`, whose error for an unknown name lists the
  valid names and suggests close ones.

>>> reg = Registry("widget", group=None, entries={"alpha": len})
>>> @reg.register("beta")
... def beta(x):
...     return x
>>> sorted(reg), reg.lookup("beta")(3)
(['alpha', 'beta'], 3)
>>> reg.lookup("btea")
Traceback (most recent call last):
...
robomaze.errors.UnknownNameError: unknown widget 'btea'; expected one of: alpha, beta (did you mean 'beta'?)
>>> reg.unregister("beta") is beta, "beta" in reg
(True, False)
"""

from __future__ import annotations

import warnings
from importlib.metadata import entry_points
from typing import Callable

from .errors import ParameterError, unknown_name

__all__ = ["Registry"]


class Registry(dict):
    """A name -> callable registry that also loads entry points lazily.

    Parameters
    ----------
    kind : str
        What an entry is ("planner"), for messages.
    group : str or None
        Entry-point group read on the first lookup (None: none).
    entries : dict, optional
        The built-in entries.
    """

    def __init__(self, kind: str, group: str | None, entries: dict | None = None) -> None:
        super().__init__(entries or {})
        self.kind = kind
        self.group = group
        self._plugins_loaded = group is None

    # ------------------------------------------------------------ plugins
    def _load_plugins(self) -> None:
        if self._plugins_loaded:
            return
        self._plugins_loaded = True
        for ep in entry_points(group=self.group):
            if dict.__contains__(self, ep.name):
                continue   # a built-in or an explicit register() wins
            try:
                obj = ep.load()
            except Exception as exc:  # a broken plugin must not break robomaze
                warnings.warn(f"robomaze: entry point {ep.name!r} = {ep.value!r} in group "
                              f"{self.group!r} failed to load ({type(exc).__name__}: {exc}); "
                              f"skipped", RuntimeWarning, stacklevel=3)
                continue
            dict.__setitem__(self, ep.name, obj)

    # dict reads go through the plugin loader
    def __getitem__(self, name):
        self._load_plugins()
        return dict.__getitem__(self, name)

    def __contains__(self, name) -> bool:
        self._load_plugins()
        return dict.__contains__(self, name)

    def __iter__(self):
        self._load_plugins()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._load_plugins()
        return dict.__len__(self)

    def keys(self):
        self._load_plugins()
        return dict.keys(self)

    def values(self):
        self._load_plugins()
        return dict.values(self)

    def items(self):
        self._load_plugins()
        return dict.items(self)

    def get(self, name, default=None):
        self._load_plugins()
        return dict.get(self, name, default)

    def __repr__(self) -> str:
        return f"Registry({self.kind!r}, {sorted(self)!r})"

    # ------------------------------------------------------------ API
    def lookup(self, name: str) -> Callable:
        """The entry registered as ``name``.

        Raises
        ------
        UnknownNameError
            Listing the valid names and the closest matches.
        """
        self._load_plugins()
        if not isinstance(name, str) or not dict.__contains__(self, name):
            raise unknown_name(self.kind, name, dict.keys(self))
        return dict.__getitem__(self, name)

    def register(self, name: str, fn: Callable | None = None, *, replace: bool = False):
        """Register ``fn`` as ``name``; without ``fn``, a decorator.

        Raises
        ------
        ParameterError
            ``name`` is not a non-empty string, ``fn`` is not callable, or
            the name is taken and ``replace`` is False.
        """
        if not isinstance(name, str) or not name.strip():
            raise ParameterError(f"{self.kind} name must be a non-empty string, got {name!r}")
        if fn is None:
            def deco(f):
                self.register(name, f, replace=replace)
                return f
            return deco
        if not callable(fn):
            raise ParameterError(f"{self.kind} {name!r} must be callable, got {type(fn).__name__}")
        self._load_plugins()
        if dict.__contains__(self, name) and not replace and dict.__getitem__(self, name) is not fn:
            raise ParameterError(f"{self.kind} {name!r} is already registered "
                                 f"({dict.__getitem__(self, name)!r}); pass replace=True")
        dict.__setitem__(self, name, fn)
        return fn

    def unregister(self, name: str) -> Callable:
        """Remove ``name`` and return what was registered.

        Raises
        ------
        UnknownNameError
            ``name`` is not registered.
        """
        fn = self.lookup(name)
        dict.__delitem__(self, name)
        return fn
