"""The build's one extra step: compile robomaze's numba kernels into the package.

Everything else is in pyproject.toml. After setuptools has copied the
package into the build folder, ``build_py`` runs
``python -m robomaze._compile.shipped <build>/robomaze``, which compiles
the default sweep's kernels (``ROBOMAZE_BUILD_KERNELS=all``: every kernel a
command's first run or a warm-up task compiles), for this machine, into
``robomaze/_kernels/`` (robomaze/_compile/shipped.py;
README, "Install"). A failed compile prints one warning line and the build
goes on: the kernels then compile on first use, as before.

An editable install (``pip install -e .``) compiles nothing unless
``ROBOMAZE_BUILD_KERNELS=1`` (the kernels then go in the source tree's
``robomaze/_kernels/``); ``ROBOMAZE_BUILD_KERNELS=0`` skips the step in a
wheel build too. A wheel built with the step on is tagged for this
interpreter and platform, like any wheel with compiled code (also when the
compile failed: the tag is set before the build runs).
"""

import os
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py as _build_py

try:
    from setuptools.command.bdist_wheel import bdist_wheel as _bdist_wheel
except ImportError:  # setuptools < 70.1: the wheel package's, if any
    try:
        from wheel.bdist_wheel import bdist_wheel as _bdist_wheel
    except ImportError:
        _bdist_wheel = None

HERE = os.path.dirname(os.path.abspath(__file__))
ENV = "ROBOMAZE_BUILD_KERNELS"


def _wanted(editable: bool) -> bool:
    # the same rule as robomaze._compile.shipped.build_wanted (not imported:
    # the build must not depend on importing the package it builds)
    text = os.environ.get(ENV, "").strip().lower()
    if text in ("1", "true", "yes", "on", "sweep", "all"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    return not editable


def _warn(why: str) -> None:
    print(f"robomaze: WARNING: {why}; kernels will compile on first use", file=sys.stderr,
          flush=True)


def compile_kernels(package_dir: str) -> bool:
    """Run the compile step on ``package_dir`` (a built ``robomaze`` folder); never raises."""
    # the built package first, then whatever the build environment put on the path
    package_dir = os.path.abspath(package_dir)  # build_lib is relative to this folder
    site = os.path.dirname(package_dir)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (site, os.environ.get("PYTHONPATH", "")) if p))
    try:
        rc = subprocess.run([sys.executable, "-m", "robomaze._compile.shipped", package_dir],
                            env=env, cwd=site).returncode
    except OSError as exc:
        _warn(f"the kernel compile step did not start ({exc})")
        return False
    if rc != 0:  # the step warns itself on a failed compile; this is its own failure
        _warn(f"the kernel compile step exited with {rc}")
        return False
    return True


class build_py(_build_py):
    def run(self):
        super().run()
        editable = bool(getattr(self, "editable_mode", False))
        if not _wanted(editable):
            return
        # an editable install runs the source tree: its kernels go there
        target = os.path.join(HERE if editable else self.build_lib, "robomaze")
        compile_kernels(target)


CMDCLASS = {"build_py": build_py}

if _bdist_wheel is not None:
    class bdist_wheel(_bdist_wheel):
        def finalize_options(self):
            super().finalize_options()
            if _wanted(False):
                self.root_is_pure = False  # machine code for this interpreter and CPU

    CMDCLASS["bdist_wheel"] = bdist_wheel


if __name__ == "__main__":  # setuptools runs it so; tests import compile_kernels
    setup(cmdclass=CMDCLASS)
