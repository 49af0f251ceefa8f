"""The build's step: compile robomaze's kernels into the package being built.

A wheel build (``pip install .``, ``pip wheel .``; ``setup.py``'s
``build_py``) runs ``python -m robomaze._compile.shipped <build>/robomaze``,
which calls :func:`build`: it compiles the kernels of the default sweep's
warm-up (``robomaze warmup --default-sweep``, what the README's first
command runs; ``ROBOMAZE_BUILD_KERNELS=all``: every kernel a command's
first run or a warm-up task compiles, ``robomaze warmup --first-runs``), in
robomaze's own parallel warm-up, into an empty numba cache, in a new
process that imports the built package, then copies that cache into the
package as ``robomaze/_kernels/<numba-ver-pyXY>/<module>-<key>/`` -- the
layout of the user's cache (:mod:`.cache`) -- with a manifest naming the
versions and platform it was made with. At run time :mod:`.seeding` copies
a module's folder into the user's cache when that lacks it; what keeps a
stale or foreign kernel from ever running is listed there.

Why the default is the sweep's kernels and not all of them: all cost the
build minutes of CPU (every method, mouse and localiser), which a user who
runs one command pays for nothing, and every first run compiles its own
kernels in at most a few seconds anyway (benchmarks/README.md, "Round 10,
merged"); the default sweep compiles 70-80 kernels, the one warm-up long
enough to be worth moving into the build.

``ROBOMAZE_BUILD_KERNELS`` picks what the build compiles: ``sweep`` (or
``1``) the default sweep's kernels, ``all`` every first run's, ``0`` none;
unset, a wheel build compiles the sweep's and an editable install nothing
(the tree changes all the time, and the user cache is content-keyed anyway).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Sequence

from .cache import module_folder_name
from .seeding import FOLDER, MANIFEST, SHIPPED_ENV, runtime, shipped_root

__all__ = ["BUILD_ENV", "COMMANDS", "DEFAULT_COMMAND", "build", "build_tier", "build_wanted",
           "main"]

#: What the build compiles: ``sweep`` (``1``), ``all`` or ``0`` (default: sweep, editable none).
BUILD_ENV = "ROBOMAZE_BUILD_KERNELS"
#: What the build runs (after ``python``) for each tier of :data:`BUILD_ENV`.
COMMANDS = {
    "sweep": ("-m", "robomaze", "warmup", "--default-sweep", "--json"),
    "all": ("-m", "robomaze", "warmup", "--first-runs", "--json"),
}
#: The default tier's command.
DEFAULT_COMMAND = COMMANDS["sweep"]
_ON = ("1", "true", "yes", "on", "sweep")
_OFF = ("0", "false", "no", "off")


def build_tier(editable: bool) -> str | None:
    """What a build compiles: ``"sweep"``, ``"all"`` or None (nothing), from
    ``ROBOMAZE_BUILD_KERNELS``; unset, ``"sweep"`` for a wheel and None for an
    editable install.

    >>> import os
    >>> saved = os.environ.pop(BUILD_ENV, None)
    >>> build_tier(editable=False), build_tier(editable=True)
    ('sweep', None)
    >>> os.environ[BUILD_ENV] = "all"
    >>> build_tier(editable=True)
    'all'
    >>> os.environ[BUILD_ENV] = "some"
    >>> build_tier(editable=False)
    Traceback (most recent call last):
    ...
    ValueError: ROBOMAZE_BUILD_KERNELS='some': expected sweep (or 1), all, or 0
    >>> _ = os.environ.pop(BUILD_ENV)
    >>> if saved is not None:
    ...     os.environ[BUILD_ENV] = saved
    """
    text = os.environ.get(BUILD_ENV, "").strip().lower()
    if not text:
        return None if editable else "sweep"
    if text in _ON:
        return "sweep"
    if text == "all":
        return "all"
    if text in _OFF:
        return None
    raise ValueError(f"{BUILD_ENV}={text!r}: expected sweep (or 1), all, or 0")


def build_wanted(editable: bool) -> bool:
    """Whether a build compiles any kernels (:func:`build_tier` is not None).

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
    return build_tier(editable) is not None


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


def build(package_dir: str, command: Sequence[str] | None = None, *,
          timeout: float = 3600.0) -> bool:
    """Compile the kernels ``command`` reaches into ``<package_dir>/_kernels``.

    ``command`` defaults to the tier ``ROBOMAZE_BUILD_KERNELS`` names
    (:data:`COMMANDS`; the sweep's when it names none).

    ``package_dir`` is the built package (``build/lib/robomaze``): the
    compile runs in a new ``python`` process that imports it
    (``PYTHONPATH``), with an empty numba cache and seeding off, so the
    keys are those of the files that get installed. A previous build's
    kernels are removed first. Never raises: when the compile fails (no
    compiler backend, an import error) it prints one warning line, ships
    nothing and returns False.
    """
    if command is None:
        try:
            command = COMMANDS[build_tier(editable=False) or "sweep"]
        except ValueError as exc:
            _warn(str(exc))
            return False
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
            _warn("the compile step made no kernels of these sources"
                  + (f" ({dropped} folders of other sources)" if dropped else ""))
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
