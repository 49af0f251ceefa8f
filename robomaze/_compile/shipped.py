"""Kernels compiled when the package is built, shipped inside it, copied into the cache.

A wheel build (``pip install .``, ``pip wheel .``) runs :func:`build`: it
compiles every kernel a command's first run or a warm-up task compiles
(``robomaze warmup --first-runs``, in robomaze's own parallel warm-up) into
an empty numba cache, then copies that cache into the built package as
``robomaze/_kernels/<numba-ver-pyXY>/<module>-<key>/``: the layout of the
user's cache (:mod:`.cache`), with a :data:`MANIFEST` naming the versions
and platform it was made with.

At run time, when numba first looks for a module's kernels
(``ContentKeyedLocator.from_function``), :func:`seed` copies the shipped
files of that module's folder into the user's cache folder if that lacks
them, and numba loads them from there as from any cache. Nothing is loaded
from the package folder itself, which may be read-only.

A shipped kernel runs only where it was made for:

* the folder's name is the same content key as the user's folder: the
  hash of the module's file and of every package file it imports, so an
  edited source (or a changed callee) has another folder, never seeded;
* numba's index carries that key as its source stamp
  (:func:`robomaze._compile.cache.content_stamp`) and numba's version, and
  numba drops an index whose version or stamp differs;
* the numba and Python versions are in the path, and the :data:`MANIFEST`
  must match the running llvmlite, NumPy, platform and machine;
* numba keys every entry of an index by ``codegen.magic_tuple()`` (the
  LLVM target triple, the host CPU's name and its feature flags,
  ``numba.core.caching.Cache._index_key``): on another CPU every entry
  misses, numba compiles as without a shipped folder, and adds its own
  entry beside the foreign ones. It never runs machine code built for
  another CPU.

``ROBOMAZE_SHIPPED_KERNELS=0`` turns the seeding off (the benchmarks that
measure a compile from scratch set it); ``ROBOMAZE_BUILD_KERNELS`` forces
the build's compile on (``1``) or off (``0``), editable installs included.

Examples
--------
>>> import os, tempfile
>>> src, dst = tempfile.mkdtemp(), tempfile.mkdtemp()
>>> for name in ("f-3.py311.nbi", "f-3.py311.1.nbc", "g-9.py311.nbi"):
...     open(os.path.join(src, name), "w").close()
>>> sorted(copy_groups(src, dst, lambda path: False))
['f-3.py311', 'g-9.py311']
>>> sorted(os.listdir(dst))
['f-3.py311.1.nbc', 'f-3.py311.nbi', 'g-9.py311.nbi']
>>> copy_groups(src, dst, lambda path: True)   # the user's own indexes stay
[]
"""

from __future__ import annotations

import functools
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Callable, Sequence

from .cache import PACKAGE_DIR, content_stamp, folder_lock, module_folder_name

__all__ = ["SHIPPED_ENV", "BUILD_ENV", "FOLDER", "MANIFEST", "enabled", "shipped_root",
           "runtime", "compatible", "seed", "copy_groups", "build", "build_wanted",
           "DEFAULT_COMMAND"]

#: ``0`` turns the seeding of shipped kernels off (a compile from scratch).
SHIPPED_ENV = "ROBOMAZE_SHIPPED_KERNELS"
#: ``1`` or ``0`` forces the build's compile on or off (default: on, except editable).
BUILD_ENV = "ROBOMAZE_BUILD_KERNELS"
#: The folder, inside the package, the build's kernels go in.
FOLDER = "_kernels"
#: The file, in each version folder, that names what the kernels were made with.
MANIFEST = "manifest.json"
#: A file in a user's cache folder once it has been seeded (one stat on later runs).
MARKER = "robomaze-seeded"
#: What the build runs (after ``python``) to compile the kernels it ships.
DEFAULT_COMMAND = ("-m", "robomaze", "warmup", "--first-runs", "--json")


def enabled() -> bool:
    """Whether shipped kernels are copied into the user's cache (``ROBOMAZE_SHIPPED_KERNELS``).

    >>> import os
    >>> os.environ.get(SHIPPED_ENV, "") == "0" or enabled()
    True
    """
    return os.environ.get(SHIPPED_ENV, "").strip() != "0"


def shipped_root(package_dir: str = PACKAGE_DIR) -> str:
    """The folder shipped kernels are in (``<package>/_kernels``).

    >>> shipped_root("/site/robomaze")
    '/site/robomaze/_kernels'
    """
    return os.path.join(package_dir, FOLDER)


def runtime() -> dict:
    """What compiled kernels depend on beyond the numba and Python versions in the path.

    >>> sorted(runtime())
    ['llvmlite', 'machine', 'numba', 'numpy', 'platform', 'python']
    """
    import llvmlite
    import numba
    import numpy

    return {"numba": numba.__version__, "llvmlite": llvmlite.__version__,
            "numpy": numpy.__version__, "python": "%d.%d" % sys.version_info[:2],
            "platform": sys.platform, "machine": platform.machine()}


@functools.lru_cache(maxsize=None)
def compatible(version_dir: str) -> bool:
    """Whether the kernels of ``version_dir`` were built with what runs here
    (its :data:`MANIFEST` equals :func:`runtime`; no manifest: no)."""
    try:
        with open(os.path.join(version_dir, MANIFEST), encoding="utf-8") as f:
            made = json.load(f).get("runtime")
    except (OSError, ValueError, AttributeError):
        return False
    return made == runtime()


def _index_valid(path: str, stamp: str) -> bool:
    """Whether numba would use the index at ``path``: this numba's version and ``stamp``."""
    import pickle

    import numba

    try:
        with open(path, "rb") as f:
            if pickle.load(f) != numba.__version__:
                return False
            return pickle.loads(f.read())[0] == stamp
    except Exception:  # unreadable, truncated, a type numba no longer has: not valid
        return False


def _copy_atomic(src: str, dst: str) -> None:
    # a reader sees the old file or the whole new one; copyfile gives the
    # copy the user's own permissions, not the (maybe read-only) package's
    tmp = f"{dst}.tmp.robomaze.{os.getpid()}"
    try:
        shutil.copyfile(src, tmp)
        os.replace(tmp, dst)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def copy_groups(src: str, dst: str, keep: Callable[[str], bool]) -> list[str]:
    """Copy each function's index (``<stem>.nbi``) and data (``<stem>.<n>.nbc``)
    from ``src`` to ``dst``, except where ``keep(dst index path)`` says the one
    there stays. Data first, the index last: an index never names a missing
    file. Returns the stems copied."""
    names = sorted(os.listdir(src))
    copied = []
    for name in names:
        if not name.endswith(".nbi"):
            continue
        stem = name[:-4]
        target = os.path.join(dst, name)
        if os.path.exists(target) and keep(target):
            continue
        for data in names:
            if data.startswith(stem + ".") and data.endswith(".nbc"):
                _copy_atomic(os.path.join(src, data), os.path.join(dst, data))
        _copy_atomic(os.path.join(src, name), target)
        copied.append(stem)
    return copied


_SEEDED: set[str] = set()


def seed(folder: str, package_dir: str = PACKAGE_DIR) -> int:
    """Copy the shipped kernels of a user cache folder's module into it if it lacks them.

    ``folder`` is ``<cache root>/<numba-ver-pyXY>/<module>-<key>``; the
    shipped folder of the same two names, if any and :func:`compatible`,
    is copied function by function: a function whose index is already in
    ``folder`` and valid (this numba, this content stamp) keeps it. Done
    once per folder and process; a marker file makes later processes skip
    it with one ``stat``. Two processes seeding at once take turns (the
    folder's lock). Never raises. Returns the number of functions copied.
    """
    if folder in _SEEDED:
        return 0
    _SEEDED.add(folder)
    try:
        if not enabled():
            return 0
        version_dir = os.path.join(shipped_root(package_dir),
                                   os.path.basename(os.path.dirname(folder)))
        src = os.path.join(version_dir, os.path.basename(folder))
        if not os.path.isdir(src) or os.path.exists(os.path.join(folder, MARKER)):
            return 0
        if not compatible(version_dir):
            return 0
        stamp = content_stamp(folder)
        with folder_lock(folder):
            if os.path.exists(os.path.join(folder, MARKER)):
                return 0  # another process seeded it while this one waited
            copied = copy_groups(src, folder, lambda path: _index_valid(path, stamp))
            with open(os.path.join(folder, MARKER), "w") as f:
                f.write(f"{len(copied)} function(s) from {src}\n")
        return len(copied)
    except Exception:  # an optimisation only: numba compiles what is missing
        return 0


# ------------------------------------------------------------------ the build's side
def build_wanted(editable: bool) -> bool:
    """Whether a build compiles the kernels: ``ROBOMAZE_BUILD_KERNELS`` if set
    (``1``/``0``), else yes for a wheel and no for an editable install.

    >>> import os
    >>> saved = os.environ.pop(BUILD_ENV, None)
    >>> build_wanted(editable=False), build_wanted(editable=True)
    (True, False)
    >>> os.environ[BUILD_ENV] = "1"
    >>> build_wanted(editable=True)
    True
    >>> _ = os.environ.pop(BUILD_ENV)
    >>> if saved is not None:
    ...     os.environ[BUILD_ENV] = saved
    """
    text = os.environ.get(BUILD_ENV, "").strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    return not editable


def _warn(message: str) -> None:
    print(f"robomaze: WARNING: {message}; kernels will compile on first use", file=sys.stderr,
          flush=True)


def _clean_env(cache_dir: str, site: str) -> dict:
    env = dict(os.environ)
    for key in ("NUMBA_CACHE_LOCATOR_CLASSES", "NUMBA_DISABLE_JIT", "NUMBA_CPU_NAME",
                "NUMBA_CPU_FEATURES", "NUMBA_OPT", "NUMBA_DEBUGINFO", "NUMBA_BOUNDSCHECK",
                "ROBOMAZE_WARM", "ROBOMAZE_WARM_PROCESSES"):
        # kernels for this machine, as a user's run compiles them
        env.pop(key, None)
    # the built package first (a build environment's own path entries after it)
    path = [site] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep)
                     if p and os.path.abspath(p) != os.path.abspath(site)]
    env.update(NUMBA_CACHE_DIR=cache_dir, PYTHONPATH=os.pathsep.join(path), MPLBACKEND="Agg",
               ROBOMAZE_COMPILE_NOTICE="0", **{SHIPPED_ENV: "0"})
    return env


def _ship(made: str, package_dir: str) -> tuple[int, int]:
    """Copy the kernel folders of ``made`` (a cache root) whose names are the
    keys of ``package_dir``'s files into its :data:`FOLDER`. Returns
    (folders kept, folders dropped)."""
    version = max(os.listdir(made)) if os.path.isdir(made) else None
    if version is None:
        return 0, 0
    out = os.path.join(shipped_root(package_dir), version)
    kept = dropped = 0
    for name in sorted(os.listdir(os.path.join(made, version))):
        folder = os.path.join(made, version, name)
        module, _, _ = name.rpartition("-")
        py = os.path.join(package_dir, *module.split("."))
        py = py + ".py" if os.path.isfile(py + ".py") else os.path.join(py, "__init__.py")
        files = [n for n in os.listdir(folder) if n.endswith((".nbi", ".nbc"))
                 and ".tmp." not in n]
        if not any(n.endswith(".nbi") for n in files):
            continue
        if module_folder_name(py, package_dir) != name:
            dropped += 1  # compiled from other sources than these: never shipped
            continue
        os.makedirs(os.path.join(out, name), exist_ok=True)
        for n in files:
            shutil.copyfile(os.path.join(folder, n), os.path.join(out, name, n))
        kept += 1
    return kept, dropped


def build(package_dir: str, command: Sequence[str] = DEFAULT_COMMAND, *,
          timeout: float = 3600.0) -> bool:
    """Compile the kernels ``command`` reaches into ``<package_dir>/_kernels``.

    ``package_dir`` is the built package (``build/lib/robomaze``): the
    compile runs in a new ``python`` process that imports it
    (``PYTHONPATH``), with an empty numba cache and seeding off, so the
    keys are those of the files that get installed. A previous build's
    kernels are removed first. Never raises: when the compile fails (no
    compiler backend, an import error) it prints one warning line, ships
    nothing and returns False.
    """
    package_dir = os.path.abspath(package_dir)
    root = shipped_root(package_dir)
    shutil.rmtree(root, ignore_errors=True)
    tmp = tempfile.mkdtemp(prefix="robomaze-build-kernels-")
    t0 = time.perf_counter()
    try:
        cache_dir = os.path.join(tmp, "cache")
        try:
            proc = subprocess.run([sys.executable, *command], cwd=tmp, timeout=timeout,
                                  env=_clean_env(cache_dir, os.path.dirname(package_dir)),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        except (OSError, subprocess.TimeoutExpired) as exc:
            _warn(f"compiling the kernels failed ({type(exc).__name__}: {exc})")
            return False
        if proc.returncode != 0:
            last = (proc.stderr.strip().splitlines() or ["no message"])[-1]
            _warn(f"compiling the kernels failed (exit {proc.returncode}: {last})")
            return False
        try:
            kept, dropped = _ship(os.path.join(cache_dir, "robomaze"), package_dir)
            if kept:
                version = os.listdir(root)[0]
                with open(os.path.join(root, version, MANIFEST), "w", encoding="utf-8") as f:
                    json.dump({"runtime": runtime(),
                               "folders": kept, "seconds": round(time.perf_counter() - t0, 1),
                               "command": list(command)}, f, indent=1)
        except (OSError, ValueError) as exc:
            shutil.rmtree(root, ignore_errors=True)
            _warn(f"copying the compiled kernels failed ({exc})")
            return False
        if not kept:
            _warn("the compile step made no kernels")
            return False
        print(f"robomaze: {kept} kernel folders compiled into {root} in "
              f"{time.perf_counter() - t0:.0f} s"
              + (f" ({dropped} from other sources dropped)" if dropped else ""),
              file=sys.stderr, flush=True)
        return True
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m robomaze._compile.shipped PACKAGE_DIR``: :func:`build` (the build hook's step).

    Always exits 0: a failed compile is a warning, the build goes on.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m robomaze._compile.shipped PACKAGE_DIR", file=sys.stderr)
        return 2
    build(args[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
