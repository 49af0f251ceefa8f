"""numba's start-up BLAS check without importing all of ``scipy.linalg``.

When numba sets its CPU target up (a process's first compile or first
kernel loaded from the cache), it imports ``numba.np.arraymath``, whose
import asks ``numba.np.linalg.ensure_blas()`` whether a BLAS is there
(``_HAVE_BLAS``: ``np.dot`` and ``np.vdot`` of floats then call it). That
check imports ``scipy.linalg.cython_blas``, and so the whole of
``scipy.linalg`` (and, through SciPy's array-API layer, ``numpy.f2py``):
0.25-0.3 s of every robomaze process that compiles or loads a kernel, on
the serial head of the bench warm-up before its helper forks (issue 40,
round 14, benchmarks/README.md), and in every command, which touches no
BLAS.

:func:`install` answers that one question by locating ``scipy.linalg``
(``importlib.util.find_spec``: the ``scipy`` package is imported, nothing
below it) and puts numba's own ``ensure_blas`` back as soon as
``numba.np.arraymath`` is imported. Every BLAS or LAPACK use numba compiles
still calls numba's ``ensure_blas`` / ``ensure_lapack`` first, which import
``scipy.linalg`` and check its integer width as before; only the moment of
that import moves. SciPy is one of robomaze's requirements, so the answer
(``_HAVE_BLAS`` true) is the one numba's check gives.

Installed when numba is imported (:func:`robomaze._compile.cache.install_locator`),
before its target is set up, on the numba releases
:data:`robomaze._compile.pipeline_trims.VERIFIED` names;
``ROBOMAZE_DEFER_BLAS=0`` leaves numba's check as it ships.

>>> import numba.np.arraymath as arraymath, numba.np.linalg as linalg
>>> arraymath._HAVE_BLAS, arraymath.ensure_blas is linalg.ensure_blas
(True, True)
"""

from __future__ import annotations

import importlib.util
import os
import sys

__all__ = ["ENV", "answered", "install"]

#: Set to ``0`` to let numba import ``scipy.linalg`` when it sets its target up.
ENV = "ROBOMAZE_DEFER_BLAS"

_STATE: dict = {}


def answered() -> bool:
    """Whether this process's ``_HAVE_BLAS`` was answered by the probe."""
    return bool(_STATE.get("answered"))


def _probe() -> None:
    # the question numba's import-time check asks: is SciPy's BLAS there?
    _STATE["answered"] = True
    if importlib.util.find_spec("scipy.linalg") is None:
        raise ImportError("scipy 0.16+ is required for linear algebra")  # numba's words


def _swap(linalg) -> None:
    if "numba.np.arraymath" in sys.modules or "original" in _STATE:
        return  # its check has run already: nothing to answer
    _STATE["original"] = linalg.ensure_blas
    linalg.ensure_blas = _probe


def _restore(arraymath) -> None:
    original = _STATE.get("original")
    if original is None:
        return
    linalg = sys.modules.get("numba.np.linalg")
    if linalg is not None and linalg.ensure_blas is _probe:
        linalg.ensure_blas = original
    if getattr(arraymath, "ensure_blas", None) is _probe:
        arraymath.ensure_blas = original


def install() -> bool:
    """Answer numba's start-up BLAS check with a probe (once; needs numba imported).

    Returns whether the probe will answer it: False when ``ROBOMAZE_DEFER_BLAS``
    is ``0``, numba's release is not the one checked, or numba has set its
    target up already (its check ran).
    """
    if os.environ.get(ENV, "1") == "0" or "numba.np.arraymath" in sys.modules:
        return False
    import llvmlite
    import numba

    from .._import_hook import after_import
    from .pipeline_trims import verified

    if not verified(numba.__version__, llvmlite.__version__):  # pragma: no cover
        return False
    after_import("numba.np.linalg", _swap)
    after_import("numba.np.arraymath", _restore)
    return True
