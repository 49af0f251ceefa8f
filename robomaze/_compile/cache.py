"""Where numba keeps robomaze's compiled kernels, and keeping it safe to share.

:func:`install_locator` keys the cache by *content*: robomaze's kernels are
cached in the user's cache directory (``~/.cache/robomaze``;
``$NUMBA_CACHE_DIR/robomaze`` when that is set), one folder per numba and
Python version and per source file and hash (:func:`cache_folder`), so a
reinstall of the same sources (a new virtualenv, a CI runner) finds the
kernels an earlier install compiled, where numba's default (``__pycache__``
or a hash of the file's *path*) starts cold. The hash covers the file and
every package file it imports (:func:`dependencies`): numba links a
callee's machine code into its caller, and its own cache watches one file.
A folder that cannot be written falls back to numba's own locations.
numba's index of each kernel carries the folder's name as its source stamp
(:func:`content_stamp`), not the file's modification time, so an index is
valid wherever the same sources are; a wheel build ships such folders, and
the first time numba looks in a user folder that lacks them they are
copied in (:mod:`.seeding`; the build: :mod:`.shipped`).

:func:`install` serialises saves: numba replaces each cache file atomically
but updates a function's index (``.nbi``) by read, modify, write, so two
processes compiling at once (the parallel warm-up, bench workers) could
lose an entry or name the other's machine code. Each save holds an
exclusive ``fcntl.flock`` on one lock file per folder; loads need none.

Examples
--------
>>> from robomaze._compile import cache
>>> cache.install() in (True, False)   # False where fcntl or the hook is missing
True
>>> cache.install() == cache.install()   # idempotent
True
"""

from __future__ import annotations

import functools
import os
import re
import sys

# the package folder, the folders' lock and stamp are defined with the seeding,
# which needs them and must not import this module (no cycles)
from .seeding import LOCK_NAME, PACKAGE_DIR, content_stamp, folder_lock, seed
from .tiers import stamp

__all__ = ["install", "install_locator", "cache_folder", "cache_root", "dependencies",
           "LOCK_NAME", "content_stamp", "folder_lock", "module_folder_name", "version_name"]

_INSTALLED: bool | None = None


def install() -> bool:
    """Serialise numba cache saves across processes (idempotent).

    Returns whether the lock is in place: False on platforms without
    ``fcntl`` or a numba without ``IndexDataCacheFile.save`` (the cache then
    works as numba ships it).
    """
    global _INSTALLED
    if _INSTALLED is not None:
        return _INSTALLED
    try:
        import fcntl

        from numba.core.caching import IndexDataCacheFile
    except ImportError:  # pragma: no cover - Windows, or a numba that moved the class
        _INSTALLED = False
        return False
    save = getattr(IndexDataCacheFile, "save", None)
    if save is None or getattr(save, "_robomaze_locked", False):  # pragma: no cover
        _INSTALLED = save is not None
        return _INSTALLED

    @functools.wraps(save)
    def locked_save(self, key, data):
        with folder_lock(self._cache_path):
            return save(self, key, data)

    locked_save._robomaze_locked = True
    IndexDataCacheFile.save = locked_save
    _INSTALLED = True
    return True


# ------------------------------------------------------------------ where the cache lives
def cache_root() -> str:
    """The folder robomaze's numba caches go in (honours ``NUMBA_CACHE_DIR``).

    >>> cache_root().rstrip("/").endswith("robomaze")
    True
    """
    from numba.core import config

    if config.CACHE_DIR:
        return os.path.join(config.CACHE_DIR, "robomaze")
    from numba.misc.appdirs import AppDirs

    return AppDirs(appname="robomaze", appauthor=False).user_cache_dir


@functools.lru_cache(maxsize=None)
def _content_hash(path: str, mtime: float, size: int) -> str:
    # keyed by mtime and size too: an edited file is hashed again
    import hashlib  # here: a command that decorates no kernel (mouse route) needs none

    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:20]


_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+(\.+[\w.]*|robomaze(?:\.[\w.]+)?)[ \t]+import"
                     r"[ \t]+(\([^)]*\)|[^\n#]+)|import[ \t]+(robomaze(?:\.[\w.]+)?))", re.M)


def _module_file(dotted: list[str], root: str = PACKAGE_DIR) -> str | None:
    """The file of package module ``robomaze.<dotted>`` (a package's ``__init__.py``)
    in the package folder ``root``."""
    base = os.path.join(root, *dotted)
    for path in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.isfile(path):
            return path
    return None


@functools.lru_cache(maxsize=None)
def _imports(path: str, mtime: float, size: int, root: str = PACKAGE_DIR) -> tuple[str, ...]:
    """The package files ``path`` imports (modules, packages, submodules named in a
    ``from . import x``), read from its text: what a kernel there can call."""
    here = os.path.relpath(path, root).split(os.sep)[:-1]  # the module's package
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    out = set()
    for m in _IMPORT.finditer(text):
        source, names, plain = m.groups()
        if plain is not None:
            dotted = plain.split(".")[1:]
        elif source.startswith("."):
            dots = len(source) - len(source.lstrip("."))
            dotted = (here[:len(here) - dots + 1] if dots > 1 else list(here)) + \
                [p for p in source.lstrip(".").split(".") if p]
        else:
            dotted = source.split(".")[1:]
        found = _module_file(dotted, root)
        if found is not None:
            out.add(found)
        if names is not None:
            for name in names.strip("()").replace("\n", " ").split(","):
                sub = _module_file(dotted + [name.split(" as ")[0].strip()], root)
                if sub is not None:
                    out.add(sub)
    out.discard(path)
    return tuple(sorted(out))


def _stat_key(path: str) -> tuple[str, float, int]:
    st = os.stat(path)
    return path, st.st_mtime, st.st_size


def dependencies(py_file: str, root: str = PACKAGE_DIR) -> list[str]:
    """Every package file ``py_file`` imports, directly or through others
    (``root``: the package folder it is in, this one by default).

    A kernel's machine code holds its callees' (numba links them in) and the
    constants it reads from their modules, so its cache must change when any
    of them does: :func:`cache_folder` hashes them all.

    >>> import os
    >>> from robomaze._compile import cache
    >>> deps = cache.dependencies(os.path.join(cache.PACKAGE_DIR, "generate",
    ...                                    "_tree_kernels.py"))
    >>> rel = {os.path.relpath(p, cache.PACKAGE_DIR) for p in deps}
    >>> {"generate/_kernels.py", "generate/_mst_kernels.py"} <= rel   # its callees' modules
    True
    >>> "cli/plan.py" in rel
    False
    """
    seen: set[str] = set()
    todo = [os.path.abspath(py_file)]
    while todo:
        path = todo.pop()
        for dep in _imports(*_stat_key(path), root):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    seen.discard(os.path.abspath(py_file))
    return sorted(seen)


def _source_key(path: str, root: str = PACKAGE_DIR) -> str:
    """A hash of the file and of every package file it imports (their paths and contents,
    and the optimisation tiers declared for their kernels: :mod:`.tiers`)."""
    import hashlib

    h = hashlib.sha256()
    for p in [path, *dependencies(path, root)]:
        rel = os.path.relpath(p, root)
        h.update(rel.encode())
        h.update(_content_hash(*_stat_key(p)).encode())
        # a kernel's tier is part of its declaration: a caller links its code in
        tier = stamp("robomaze." + os.path.splitext(rel)[0].replace(os.sep, ".")
                     .removesuffix(".__init__"))
        if tier:
            h.update(tier.encode())
    return h.hexdigest()[:20]


def version_name() -> str:
    """The folder of one numba and Python version's kernels: ``numba-<ver>-py<XY>``.

    >>> version_name().startswith("numba-")
    True
    """
    import numba

    return f"numba-{numba.__version__}-py{sys.version_info[0]}{sys.version_info[1]}"


def module_folder_name(py_file: str, root: str = PACKAGE_DIR) -> str | None:
    """``<module>-<key>``: the name of ``py_file``'s kernel folder, for the package
    folder ``root`` (None for a file outside it).

    >>> import os
    >>> from robomaze._compile import cache
    >>> name = cache.module_folder_name(os.path.join(cache.PACKAGE_DIR, "_grid_kernels.py"))
    >>> name.startswith("_grid_kernels-") and len(name) == len("_grid_kernels-") + 20
    True
    """
    path = os.path.abspath(py_file)
    rel = os.path.relpath(path, root)
    if rel.startswith(os.pardir) or not os.path.isfile(path):
        return None
    name = os.path.splitext(rel)[0].replace(os.sep, ".")
    return f"{name}-{_source_key(path, root)}"


def cache_folder(py_file: str) -> str | None:
    """The cache folder of the kernels defined in ``py_file`` (None outside robomaze).

    It depends on the file's path *inside* the package and on the content of
    the file and of every package file it imports (:func:`dependencies`: a
    changed callee in another module must not leave a stale caller), never
    on where the package is installed.

    >>> import os
    >>> from robomaze._compile import cache
    >>> folder = cache.cache_folder(os.path.join(cache.PACKAGE_DIR, "plan", "_kernels.py"))
    >>> os.path.basename(folder).startswith("plan._kernels-")
    True
    >>> cache.cache_folder(os.__file__) is None
    True
    """
    name = module_folder_name(py_file)
    if name is None:
        return None
    return os.path.join(cache_root(), version_name(), name)


#: ``(file, id of the module's globals) -> (those globals, folder name)``: the
#: content key of a module's kernel folder, computed once per execution of
#: the module (its kernels are decorated one after the other; hashing the
#: file and all it imports for each was ~0.06 s of every process start
#: that imports robomaze's kernels, issue 40 round 14). The globals are held
#: so that their id names this execution only.
_FOLDER_NAMES: dict = {}


def _module_cache_folder(py_func, py_file: str) -> str | None:
    """:func:`cache_folder` of ``py_file`` for a kernel defined in it, the
    content key computed once per execution of its module (a module run
    again, as a benchmark reloading a source does, is keyed again).

    The key describes the sources as the module's execution read them,
    which is the code its kernels hold.
    """
    scope = getattr(py_func, "__globals__", None)
    if not isinstance(scope, dict):
        return cache_folder(py_file)
    key = (os.path.abspath(py_file), id(scope))
    hit = _FOLDER_NAMES.get(key)
    if hit is None or hit[0] is not scope:
        hit = _FOLDER_NAMES[key] = (scope, module_folder_name(py_file))
    name = hit[1]
    return None if name is None else os.path.join(cache_root(), version_name(), name)


def _locator_class():
    from numba.core.caching import _CacheLocator, _SourceFileBackedLocatorMixin

    class ContentKeyedLocator(_SourceFileBackedLocatorMixin, _CacheLocator):
        """numba cache locator for robomaze's own kernels (see the module docstring)."""

        def __init__(self, py_func, py_file, folder):
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            self._cache_path = folder

        def get_cache_path(self):
            return self._cache_path

        def get_source_stamp(self):
            # the folder's content key, not the file's mtime: see content_stamp
            return content_stamp(self._cache_path)

        @classmethod
        def from_function(cls, py_func, py_file):
            try:
                folder = _module_cache_folder(py_func, py_file)
            except OSError:
                return None
            if folder is None:
                return None
            self = cls(py_func, py_file, folder)
            try:
                self.ensure_cache_path()
            except OSError:  # not writable: numba's own locators take over
                return None
            seed(folder)  # the kernels the build compiled, when the folder lacks them
            return self

    return ContentKeyedLocator


_LOCATOR_INSTALLED = False


def _add_locator() -> None:
    global _LOCATOR_INSTALLED
    if _LOCATOR_INSTALLED:
        return
    from numba.core.caching import CacheImpl

    classes = CacheImpl._locator_classes
    if not any(getattr(c, "__name__", "") == "ContentKeyedLocator" for c in classes):
        classes.insert(0, _locator_class())  # before numba's: ours only answers for robomaze
    _complete_loaded_environments()
    _plain_error_text()
    from .events import listen

    listen()  # the GC hold while compiling, for library users too
    _LOCATOR_INSTALLED = True


def _same_const(a, b) -> bool:
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    try:
        return bool(a == b)
    except (TypeError, ValueError):  # arrays and the like: not provably equal
        return False


def _complete_loaded_environments() -> None:
    """Let a cached kernel's own environment extend the one its callers brought in.

    numba keeps one live ``Environment`` (the Python constants compiled code
    reads at run time) per mangled name and, when it loads a cached kernel,
    reuses a live one of the same name as it is (``_rebuild_env``). A kernel
    loaded first as the callee of another cached kernel (``new_state`` inside
    ``prim``) brings an environment holding only its body's constants; when
    the same specialisation is later called from Python, its wrapper's
    constants (the dtype it boxes the returned array with) come after those,
    so it read past the end: "In 'NRT_adapt_ndarray_to_python', 'descr' is
    NULL". When the live constants are a prefix of the loaded ones, the
    missing ones are appended (the indexes compiled code reads stay valid);
    anything else is left to numba.
    """
    try:
        from numba.core import environment as nenv
    except ImportError:  # pragma: no cover - a numba that moved the module
        return
    rebuild = getattr(nenv, "_rebuild_env", None)
    lookup = getattr(nenv, "lookup_environment", None)
    if rebuild is None or lookup is None or getattr(rebuild, "_robomaze_complete", False):
        return

    @functools.wraps(rebuild)
    def rebuild_env(modname, consts, env_name):
        env = lookup(env_name)
        if env is not None:
            have = env.consts
            if len(have) < len(consts) and all(_same_const(a, b) for a, b in zip(have, consts)):
                have.extend(consts[len(have):])
            return env
        return rebuild(modname, consts, env_name)

    rebuild_env._robomaze_complete = True
    nenv._rebuild_env = rebuild_env


def _plain_error_text() -> None:
    """Format numba's typing errors as plain text when no colours were asked for.

    numba's type inference tries overloads until one types, and formats a
    message for every one that fails (about 15,000 while a ``plan`` command
    compiles). Where colorama is installed, each message runs colorama's
    ``init()`` (wrapping the standard streams) even under the default
    ``no_color`` scheme: 5-6% of a cold command's compile CPU
    (benchmarks/README.md). With markup that returns the text as it is,
    messages read the same without the escape codes; a user who set
    ``NUMBA_COLOR_SCHEME`` keeps numba's colours.
    """
    try:
        from numba.core import config, errors
    except ImportError:  # pragma: no cover - numba is a dependency
        return
    if getattr(config, "COLOR_SCHEME", None) != "no_color" or not hasattr(errors, "ColorShell"):
        return
    # numba's modules keep the instance they got at import: change it in place
    scheme = errors.termcolor()
    if hasattr(scheme, "_markup"):
        scheme._markup = _plain_markup


def _plain_markup(msg, color=None, style=None):
    return msg


def install_locator() -> None:
    """Cache robomaze's kernels by content (now if numba is imported, else when it is).

    Must run before any robomaze kernel module is imported (numba picks a
    function's cache folder when it decorates it): ``import robomaze`` calls
    it, without importing numba.
    """
    if os.environ.get("NUMBA_CACHE_LOCATOR_CLASSES"):
        return  # the user chose numba's locators explicitly
    from .._import_hook import after_import

    # a numba that moved its caching classes keeps its own cache (errors are ignored)
    after_import("numba", lambda module: _add_locator())
    # and types kernels with its builtin signatures memoised (:mod:`.typing_memo`)
    after_import("numba", lambda module: _typing_memo())
    # and compiles without three repeated Python costs (:mod:`.pipeline_trims`)
    after_import("numba", lambda module: _pipeline_trims())
    # and optimises the kernels declared cold at a cheaper level (:mod:`.tiers`)
    after_import("numba", lambda module: _tiers())
    # and saves robomaze's kernels without their annotated source
    after_import("numba", lambda module: _lean_annotations())
    # and loads cached kernels without setting numba's compiler up
    after_import("numba", lambda module: _loads_without_refresh())
    # and sets its target up without importing scipy.linalg (:mod:`.blas_probe`)
    after_import("numba", lambda module: _blas_probe())


#: Set to ``1`` (before compiling) to keep numba's annotated source of each
#: robomaze kernel in its cache entry, for ``inspect_types()`` on a cached kernel.
ANNOTATIONS_ENV = "ROBOMAZE_CACHE_ANNOTATIONS"
#: What a cached robomaze kernel's ``inspect_types()`` shows instead.
NO_ANNOTATIONS = ("robomaze: this kernel's annotated source is not kept in its cache entry; "
                  f"set {ANNOTATIONS_ENV}=1 and clear the cache to keep it")


def _lean_annotations() -> bool:
    """Save robomaze's kernels without numba's annotated source.

    numba renders each compiled kernel's source annotated with the type of
    every variable (``str(type_annotation)``) into its cache entry, where
    only ``inspect_types()`` of a kernel loaded from the cache reads it:
    0.21 s of the 0.38 s of cache saves in the default sweep's one-process
    warm-up (issue 40, round 13, benchmarks/README.md). A kernel compiled
    in this process keeps its annotation; other packages' kernels are
    saved as numba saves them. Returns whether it is installed.
    """
    from numba.core import compiler

    cls = getattr(compiler, "CompileResult", None)
    reduce = getattr(cls, "_reduce", None)
    if reduce is None or not hasattr(cls, "_replace"):  # pragma: no cover - another numba
        return False
    if getattr(reduce, "_robomaze_lean", False):
        return True

    def _reduce(self):
        if (not isinstance(self.type_annotation, str)
                and os.environ.get(ANNOTATIONS_ENV, "").strip() != "1"
                and str(getattr(self.fndesc, "modname", "")).startswith("robomaze.")):
            self = self._replace(type_annotation=NO_ANNOTATIONS)
        return reduce(self)

    _reduce._robomaze_lean = True
    _reduce.__wrapped__ = reduce
    cls._reduce = _reduce
    return True


def _loads_without_refresh() -> bool:
    """Load cached kernels without refreshing numba's contexts first.

    numba's ``Cache.load_overload`` refreshes the target context before it
    reads a cached kernel: the first time in a process that imports ~40 of
    numba's implementation modules and installs its typing and lowering
    registries (1,125 function templates), 0.6-0.8 s of CPU, about a quarter of a
    ``robomaze generate 16x16`` or ``plan`` command whose kernels are all
    cached (issue 40, round 16, benchmarks/README.md). Loading needs none of
    it: the entry's machine code is linked by numba's code generator and
    calls only numba's runtime (NRT), which is initialised here as the
    refresh would; the arguments' types come from ``typeof``, not from the
    registries. A kernel that does compile gets the full refresh from
    numba's compiler, which refreshes both contexts itself before typing.
    Every cache's loads are affected, robomaze's and other packages'.
    Returns whether it is installed (numba 0.68 only, with the trims:
    :data:`.pipeline_trims.ENV` ``=0`` leaves numba's loads as they ship).
    """
    import llvmlite
    import numba
    from numba.core import caching

    from .pipeline_trims import ENV, verified

    cache_cls = getattr(caching, "Cache", None)
    numba_load = getattr(cache_cls, "load_overload", None)
    if (numba_load is None or not verified(numba.__version__, llvmlite.__version__)
            or os.environ.get(ENV, "1") == "0"
            or not hasattr(cache_cls, "_load_overload")):  # pragma: no cover - another numba
        return False
    if getattr(numba_load, "_robomaze_lazy", False):
        return True

    def load_overload(self, sig, target_context):
        """Load and recreate the cached object for the given signature,
        using the *target_context* (numba's runtime initialised, no refresh)."""
        from numba.core.runtime import rtsys

        rtsys.initialize(target_context)  # a no-op once initialised
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)

    load_overload._robomaze_lazy = True
    load_overload.__wrapped__ = numba_load
    cache_cls.load_overload = load_overload
    return True


def _typing_memo() -> None:
    from . import typing_memo

    typing_memo.install()


def _pipeline_trims() -> None:
    from . import pipeline_trims

    pipeline_trims.install()


def _blas_probe() -> None:
    from . import blas_probe

    blas_probe.install()


def _tiers() -> None:
    from . import tiers

    tiers.install()
