"""A registry: name -> :class:`~robomaze.registry.spec.Spec`, read as name -> entry.

Reading ``REG[name]`` returns the loaded entry (the planner function, the
agent factory, the format), so code that calls ``PLANNERS[name](...)``
needs no spec; :meth:`Registry.spec` returns the declaration. The
built-in specs are registered by the package that owns them (its
*provider*, imported by name on the first lookup, so this module imports
nothing above it), and installed packages add theirs through entry points
(group ``robomaze.planners`` and so on), loaded on the first lookup too.
An entry point may name a :class:`Spec` (the way to declare options and
capabilities) or, as before specs existed, a bare callable (its options
are then read from its signature).

>>> from robomaze.registry.spec import Spec
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
>>> _ = reg.register(Spec("widget", "gamma", "math:sqrt", "square root"))
>>> reg["gamma"](9.0), reg.spec("gamma").description
(3.0, 'square root')
>>> reg.unregister("beta") is beta, "beta" in reg
(True, False)
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import MutableMapping
from typing import Any, Callable, Iterator

from ..errors import ParameterError, unknown_name
from .spec import Spec, spec_from_callable

__all__ = ["Registry"]


class Registry(MutableMapping):
    """Name -> spec, read as name -> loaded entry; plugins join lazily.

    Parameters
    ----------
    kind : str
        What an entry is (``"planner"``), for messages and specs.
    group : str or None
        Entry-point group read on the first lookup (None: none).
    entries : dict, optional
        Built-in entries: specs or objects (objects get a spec read from
        their signature).
    provider : str, optional
        Module that registers the built-in specs, imported on the first
        lookup (``"robomaze.plan"``).
    runner_args : tuple of str
        Parameters the runner passes itself (never options), for specs
        read from a bare callable's signature.
    """

    def __init__(self, kind: str, group: str | None, entries: dict | None = None, *,
                 provider: str | None = None, runner_args: tuple = ()) -> None:
        self.kind = kind
        self.group = group
        self.provider = provider
        self.runner_args = tuple(runner_args)
        self._specs: dict[str, Spec] = {}
        #: ``convert(name, obj) -> Spec`` for entries that are neither a Spec
        #: nor a bare callable (a FormatSpec); set by the owning package.
        self.convert: Callable[[str, Any], Spec] | None = None
        self._plugins_loaded = group is None
        self._providing = provider is None
        for name, obj in (entries or {}).items():
            self._put(name, obj, replace=False)

    # ------------------------------------------------------------ loading
    def _provide(self) -> None:
        """Import the provider module (the built-ins), once."""
        if not self._providing:
            self._providing = True
            try:
                importlib.import_module(self.provider)
            except ImportError:
                self._providing = False   # an optional package: listed as not available
                raise

    def _ready(self) -> None:
        self._provide()
        if not self._plugins_loaded:
            self._plugins_loaded = True
            # imported here: reading installed distributions' metadata costs
            # ~0.05 s of CPU, which a command naming a built-in never needs
            from importlib.metadata import entry_points

            for ep in entry_points(group=self.group):
                if ep.name in self._specs:
                    continue   # a built-in or an explicit register() wins
                try:
                    obj = ep.load()
                    self._put(ep.name, obj, replace=False)
                except Exception as exc:  # a broken plugin must not break robomaze
                    warnings.warn(f"robomaze: entry point {ep.name!r} = {ep.value!r} in group "
                                  f"{self.group!r} failed to load ({type(exc).__name__}: {exc}); "
                                  f"skipped", RuntimeWarning, stacklevel=4)

    def _find(self, name: object) -> Spec | None:
        """The spec of ``name``, reading plugins only when no built-in or
        registered entry has it: one that has wins over a plugin anyway."""
        self._provide()
        if isinstance(name, str) and name in self._specs:
            return self._specs[name]
        self._ready()
        return self._specs.get(name) if isinstance(name, str) else None

    def iter_specs(self) -> Iterator[Spec]:
        """Every spec in registration order, lazily: the built-ins and
        registered entries first, the plugins' read only if the caller goes
        on past those (a format sniffed by a built-in reads none).

        >>> from robomaze.io.formats import FORMATS
        >>> next(FORMATS.iter_specs()).name
        'micromouse'
        """
        self._provide()
        first = dict(self._specs)
        yield from first.values()
        if not self._plugins_loaded:
            self._ready()
            yield from [s for name, s in self._specs.items() if name not in first]

    def _as_spec(self, name: str, obj: Any) -> Spec:
        if isinstance(obj, Spec):
            if obj.name != name:
                raise ParameterError(f"{self.kind} spec {obj.name!r} registered as {name!r}: "
                                     f"the names must agree")
            return obj
        if self.convert is not None:
            return self.convert(name, obj)
        return spec_from_callable(self.kind, name, obj, runner_args=self.runner_args)

    def _put(self, name: str, obj: Any, *, replace: bool) -> Spec:
        if not isinstance(name, str) or not name.strip():
            raise ParameterError(f"{self.kind} name must be a non-empty string, got {name!r}")
        if not isinstance(obj, Spec) and not callable(obj) and not self._objects_ok(obj):
            raise ParameterError(f"{self.kind} {name!r} must be callable, got {type(obj).__name__}")
        old = self._specs.get(name)
        if old is not None and not isinstance(obj, Spec) and old.loaded and old.load() is obj:
            # the entry it already holds, given back (a monkeypatch undone,
            # ``PLANNERS.update(saved)``): keep its declared options and flags
            return old
        spec = self._as_spec(name, obj)
        if old is not None and not replace and not _same(old, spec):
            raise ParameterError(f"{self.kind} {name!r} is already registered "
                                 f"({old.entry!r}); pass replace=True")
        self._specs[name] = spec
        return spec

    def _objects_ok(self, obj: Any) -> bool:
        """Registries of data (formats, profiles) hold objects, not callables."""
        return getattr(self, "holds_objects", False)

    # ------------------------------------------------------------ mapping
    def __getitem__(self, name: str) -> Any:
        spec = self._find(name)
        if spec is None:
            raise KeyError(name)
        return spec.load()

    def __setitem__(self, name: str, obj: Any) -> None:
        self._ready()
        self._put(name, obj, replace=True)

    def __delitem__(self, name: str) -> None:
        self._ready()
        del self._specs[name]

    def __iter__(self) -> Iterator[str]:
        self._ready()
        return iter(list(self._specs))

    def __len__(self) -> int:
        self._ready()
        return len(self._specs)

    def __contains__(self, name: object) -> bool:
        return self._find(name) is not None

    def __repr__(self) -> str:
        return f"Registry({self.kind!r}, {sorted(self)!r})"

    # ------------------------------------------------------------ API
    def spec(self, name: str) -> Spec:
        """The :class:`Spec` registered as ``name``.

        Raises
        ------
        UnknownNameError
            Listing the valid names and the closest matches.
        """
        spec = self._find(name)
        if spec is None:
            raise unknown_name(self.kind, name, self._specs.keys())
        return spec

    def specs(self) -> list[Spec]:
        """Every spec, in registration order."""
        self._ready()
        return list(self._specs.values())

    def lookup(self, name: str) -> Any:
        """The entry registered as ``name``, loaded (UnknownNameError if none)."""
        return self.spec(name).load()

    def check(self, name: str, options: dict, *, keep: tuple = ()) -> dict:
        """``name`` registered and ``options`` checked and cast by its spec."""
        return self.spec(name).check(options, keep=keep)

    def register(self, name: str | Spec, fn: Any = None, *, replace: bool = False):
        """Register a :class:`Spec`, or ``fn`` as ``name``; ``register(name)``
        alone is a decorator.

        Raises
        ------
        ParameterError
            ``name`` is not a non-empty string, ``fn`` is not callable, or
            the name is taken and ``replace`` is False.
        """
        if isinstance(name, Spec):
            self._ready()
            return self._put(name.name, name, replace=replace)
        if not isinstance(name, str) or not name.strip():
            raise ParameterError(f"{self.kind} name must be a non-empty string, got {name!r}")
        if fn is None:
            def deco(f):
                self.register(name, f, replace=replace)
                return f
            return deco
        self._ready()
        self._put(name, fn, replace=replace)
        return fn

    def unregister(self, name: str) -> Any:
        """Remove ``name`` and return its loaded entry (UnknownNameError if none)."""
        obj = self.lookup(name)
        del self._specs[name]
        return obj

    def declare(self, *specs: Spec, replace: bool = False) -> None:
        """Add the built-in ``specs`` (what a provider module calls): unlike
        :meth:`register` it loads no plugin first, so a plugin never takes a
        built-in's name (and a plugin importing the provider finds it whole)."""
        for spec in specs:
            self._put(spec.name, spec, replace=replace)

    def declared(self) -> list[Spec]:
        """The specs declared so far, loading neither the provider nor plugins
        (for a provider checking its own declarations while it imports)."""
        return list(self._specs.values())

    def to_list(self) -> list[dict]:
        """Every spec as a dict (``robomaze list --json``)."""
        return [s.to_dict() for s in self.specs()]


def _same(a: Spec, b: Spec) -> bool:
    """Registering the same thing twice is no clash (a module imported twice)."""
    if a == b:
        return True
    if a.loaded and b.loaded:
        return a.load() is b.load()
    return a.entry == b.entry


class ObjectRegistry(Registry):
    """A registry whose entries are data (formats, mouse profiles), not callables."""

    holds_objects = True
