"""``noalloc`` / ``NOALLOC`` (robomaze._compile.kernels): kernels compiled
without numba's reference counting, and the clear error when one allocates."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from numba import njit

from robomaze._compile.kernels import NOALLOC, AllocatesWithoutNRT, inner, noalloc


def _prefix_sums_ref(a):
    out, s = [], 0
    for v in a:
        s += v
        out.append(s)
    return out


def test_noalloc_kernel_computes_like_python_and_lowers_no_refcounts():
    @noalloc(cache=False)
    def prefix_sums(a, out):
        s = 0
        for i in range(a.size):
            s += a[i]
            out[i] = s
        return out[1:].size          # a view of an argument is no allocation

    a = np.random.default_rng(4).integers(-50, 50, 40)
    out = np.zeros_like(a)
    assert prefix_sums(a, out) == 39
    assert out.tolist() == _prefix_sums_ref(a.tolist())
    llvm = next(iter(prefix_sums.inspect_llvm().values()))
    assert "NRT_incref" not in llvm and "NRT_decref" not in llvm

    @njit(cache=False)
    def same_with_nrt(a, out):
        s = 0
        for i in range(a.size):
            s += a[i]
            out[i] = s
        return out[1:].size

    same_with_nrt(a, out)
    # the flag is what removed them: the same code with NRT lowers reference counts
    assert "NRT_decref" in next(iter(same_with_nrt.inspect_llvm().values()))


def test_noalloc_kernel_making_an_array_names_itself_and_the_line():
    @noalloc(cache=False)
    def makes_array(n):
        a = np.empty(n)
        a[0] = 1.0
        return a[0]

    with pytest.raises(AllocatesWithoutNRT) as info:
        makes_array(3)
    msg = str(info.value)
    assert msg.startswith("makes_array is compiled without reference counting")
    assert "let the caller allocate" in msg
    assert f"test_compile_noalloc.py:{makes_array.py_func.__code__.co_firstlineno + 2}" in msg
    assert "\n" not in msg


def test_noalloc_kernel_returning_an_array_or_making_a_list_fails_clearly():
    @noalloc(cache=False)
    def doubled(a):
        return 2 * a

    @noalloc(cache=False)
    def listed(n):
        xs = [n, n + 1]
        return xs[0]

    with pytest.raises(AllocatesWithoutNRT, match=r"^doubled is compiled without reference"):
        doubled(np.ones(3))
    with pytest.raises(AllocatesWithoutNRT, match=r"^listed is compiled without reference"):
        listed(2)


def test_inner_noalloc_kernel_that_allocates_is_named_in_its_callers_error():
    assert NOALLOC["_nrt"] is False
    @inner(cache=False, _nrt=False)         # inner(**NOALLOC) without a cache file
    def _scratch(n):
        b = np.zeros(n)
        return b.sum()

    @njit(cache=False)
    def caller(n):
        return _scratch(n)

    with pytest.raises(Exception) as info:
        caller(4)
    assert "_scratch is compiled without reference counting" in str(info.value)

    @inner(cache=False, _nrt=False)
    def _ok(a):
        return a[0] + a[-1]

    @njit(cache=False)
    def caller_ok(a):
        return _ok(a)

    assert caller_ok(np.arange(5)) == 4


def test_other_compile_errors_are_left_as_numba_raises_them():
    @noalloc(cache=False)
    def bad(a):
        return a.no_such_attribute

    with pytest.raises(Exception) as info:
        bad(np.ones(2))
    assert not isinstance(info.value, AllocatesWithoutNRT)
    assert "no_such_attribute" in str(info.value)


def test_noalloc_kernel_is_cached_and_reloaded(tmp_path):
    (tmp_path / "nakernel.py").write_text(textwrap.dedent("""
        from robomaze._compile.kernels import noalloc

        @noalloc
        def bump(a):
            for i in range(a.size):
                a[i] += 1
    """))
    script = textwrap.dedent("""
        import numpy as np, nakernel
        a = np.zeros(3, np.int64)
        nakernel.bump(a)
        s = nakernel.bump.stats
        print(a.tolist(), sum(s.cache_hits.values()), sum(s.cache_misses.values()))
    """)
    env = dict(os.environ, PYTHONPATH=f"{tmp_path}:" + ":".join(sys.path),
               NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    outs = [subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True,
                           text=True, check=True, restore_signals=True).stdout.strip()
            for _ in range(2)]
    assert outs == ["[1, 1, 1] 0 1", "[1, 1, 1] 1 0"]


def test_noalloc_kernel_raising_with_run_time_values_fails_clearly_constant_message_is_fine():
    @noalloc(cache=False)
    def checked(a, i):
        if i >= a.size:
            raise IndexError("index past the end")
        return a[i]

    @noalloc(cache=False)
    def checked_value(a, i):
        if i >= a.size:
            raise IndexError(i)
        return a[i]

    assert checked(np.arange(3), 2) == 2
    with pytest.raises(IndexError, match="index past the end"):
        checked(np.arange(3), 3)
    with pytest.raises(AllocatesWithoutNRT, match="exception raised with run-time values"):
        checked_value(np.arange(3), 0)
