"""numba's start-up BLAS check answered without importing scipy.linalg (issue 40, round 14)."""

import os
import subprocess
import sys

import pytest

from robomaze._compile import blas_probe

# set numba's CPU target up as a first compile or cache load does, then
# report what it imported and what numba concluded
SETUP = ("import sys, robomaze.geometry; from numba.core.registry import cpu_target; "
         "cpu_target.typing_context.refresh(); cpu_target.target_context.refresh(); "
         "import numba.np.arraymath as A, numba.np.linalg as L; "
         "from robomaze._compile import blas_probe; "
         "print('scipy.linalg' in sys.modules, A._HAVE_BLAS, "
         "A.ensure_blas is L.ensure_blas, L.ensure_blas.__module__, blas_probe.answered()); ")


def _run(code, **env):
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=300, env=dict(os.environ, **env))
    return out.stdout.split()


def test_setting_numbas_target_up_imports_no_scipy_linalg_and_finds_the_blas():
    assert _run(SETUP) == ["False", "True", "True", "numba.np.linalg", "True"]


def test_numbas_own_check_runs_when_turned_off():
    assert _run(SETUP, ROBOMAZE_DEFER_BLAS="0") == ["True", "True", "True", "numba.np.linalg",
                                                    "False"]


def test_a_kernel_that_calls_blas_imports_it_and_gives_numpys_answer(tmp_path):
    code = SETUP + (
        "import numpy as np, numba; a = np.arange(12.0).reshape(3, 4); b = np.arange(8.0)"
        ".reshape(4, 2); f = numba.njit(lambda x, y: np.dot(x, y)); "
        "print(np.array_equal(f(a, b), a @ b), 'scipy.linalg' in sys.modules)")
    out = _run(code, NUMBA_CACHE_DIR=str(tmp_path))
    assert out[:5] == ["False", "True", "True", "numba.np.linalg", "True"]
    assert out[5:] == ["True", "True"]


def test_the_probe_says_what_numba_says_without_scipy(monkeypatch):
    import importlib.util

    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "scipy.linalg" else object())
    with pytest.raises(ImportError, match="scipy 0.16\\+ is required for linear algebra"):
        blas_probe._probe()


def test_nothing_is_swapped_once_numbas_check_has_run(monkeypatch):
    import numba.np.arraymath  # noqa: F401  (the check has run in this process)
    import numba.np.linalg as linalg

    before = linalg.ensure_blas
    monkeypatch.setattr(blas_probe, "_STATE", {})
    blas_probe._swap(linalg)
    assert linalg.ensure_blas is before and blas_probe._STATE == {}
    assert blas_probe.install() is False
