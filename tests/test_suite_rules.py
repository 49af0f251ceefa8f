"""The suite's own rules: no verdict from a digest of floats or from the wall clock.

A test must pass on any supported CPU and under any load (issue 39). So:

* a digest may be asserted on only through ``tests/_pins.int_digest``,
  which refuses floating-point arrays, or in the modules listed in
  :data:`DIGESTS_OF_INTEGERS` (each hashes integer or boolean arrays from
  our own integer kernels: the maze generators' wall matrices);
* no assertion may put an upper bound on a time read from a clock
  (``time.time``, ``perf_counter``, ``monotonic``, ``process_time``): a
  loaded machine is slower, never faster, so a lower bound ("the runs did
  sleep") cannot flip, an upper bound can.

The scan is on the syntax tree; the last tests check that it catches what
it is meant to catch.
"""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

from _pins import assert_matches, int_digest

TESTS = Path(__file__).parent

#: modules that hash integer arrays of integer kernels directly (why: the
#: maze generators promise the same bytes on any machine)
DIGESTS_OF_INTEGERS = {"_pins.py", "generate/test_gen_reproducible.py",
                       "generate/test_gen_pinned.py",
                       # an archive's manifest holds each member's SHA-256: the
                       # test hashes the bytes it read back, on this machine,
                       # and compares the two (no stored digest of any output)
                       "bench/test_bench_archive.py"}
CLOCKS = {"time", "perf_counter", "monotonic", "process_time", "perf_counter_ns",
          "monotonic_ns", "time_ns"}


def _test_files():
    return sorted(p for p in TESTS.rglob("*.py") if "mice" not in p.parts)


def hashing_calls(tree: ast.AST) -> list[int]:
    """Lines that call hashlib or a ``.hexdigest()``."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Attribute) and (
                    f.attr == "hexdigest"
                    or (isinstance(f.value, ast.Name) and f.value.id == "hashlib")):
                lines.append(node.lineno)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names]
            mod = getattr(node, "module", None)
            if "hashlib" in names or mod == "hashlib":
                lines.append(node.lineno)
    return lines


def _is_clock_call(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in CLOCKS and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "time")


def _mentions(node: ast.AST, names: set[str]) -> bool:
    return any(_is_clock_call(n) or (isinstance(n, ast.Name) and n.id in names)
               for n in ast.walk(node))


def clock_upper_bounds(tree: ast.AST) -> list[int]:
    """Lines of assertions that bound a clock reading (or a name assigned one) from above."""
    lines = []
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
            continue
        timed = set()
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign) and _mentions(node.value, set()):
                timed |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        for node in ast.walk(fn):
            if not isinstance(node, ast.Assert):
                continue
            for cmp in ast.walk(node.test):
                if not isinstance(cmp, ast.Compare):
                    continue
                left, ops, rights = cmp.left, cmp.ops, cmp.comparators
                for op, right in zip(ops, rights):
                    upper = ((isinstance(op, (ast.Lt, ast.LtE)) and _mentions(left, timed))
                             or (isinstance(op, (ast.Gt, ast.GtE))
                                 and _mentions(right, timed)))
                    if upper:
                        lines.append(node.lineno)
                    left = right
    return sorted(set(lines))


def test_no_test_asserts_on_a_digest_of_floats():
    found = []
    for path in _test_files():
        rel = path.relative_to(TESTS).as_posix()
        if rel in DIGESTS_OF_INTEGERS:
            continue
        found += [f"{rel}:{n}" for n in hashing_calls(ast.parse(path.read_text()))]
    assert not found, ("digests outside tests/_pins.int_digest (floats differ in their last "
                       f"bits between CPUs; store numbers and compare within a tolerance): {found}")


def test_no_test_bounds_the_wall_clock_from_above():
    found = []
    for path in _test_files():
        found += [f"{path.relative_to(TESTS).as_posix()}:{n}"
                  for n in clock_upper_bounds(ast.parse(path.read_text()))]
    assert not found, f"assertions whose verdict depends on the machine's load: {found}"


def test_the_scan_catches_what_it_is_meant_to():
    bad = ast.parse("import time\n"
                    "def test_x():\n"
                    "    t0 = time.perf_counter()\n"
                    "    run()\n"
                    "    elapsed = time.perf_counter() - t0\n"
                    "    assert elapsed < 2.0\n"
                    "    assert 5 > time.monotonic() - t0\n")
    assert clock_upper_bounds(bad) == [6, 7]
    ok = ast.parse("import time\n"
                   "def test_y():\n"
                   "    t0 = time.monotonic()\n"
                   "    run()\n"
                   "    assert time.monotonic() - t0 >= 1.2\n")
    assert clock_upper_bounds(ok) == []
    assert hashing_calls(ast.parse("import hashlib\nh = hashlib.sha256(b'')\n")) == [1, 2]
    assert hashing_calls(ast.parse("d = m.hexdigest()\n")) == [1]


def test_int_digest_refuses_floats_and_tells_integers_apart():
    assert int_digest(np.arange(5)) == int_digest(np.arange(5))
    assert int_digest(np.arange(5)) != int_digest(np.arange(1, 6))
    assert int_digest(np.arange(5, dtype=np.int32)) != int_digest(np.arange(5, dtype=np.int64))
    with pytest.raises(TypeError, match="not bit-identical"):
        int_digest(np.zeros(3))


def test_assert_matches_holds_tolerance_and_flip_share():
    want = {"x": np.linspace(0, 1, 200), "reason": np.array("goal"), "n": np.arange(200)}
    got = {"x": want["x"] + 1e-12, "reason": np.array("goal"), "n": np.arange(200)}
    assert_matches("k", got, want, rtol=1e-9, atol=1e-9)
    with pytest.raises(AssertionError, match="x: 1 of 200"):
        assert_matches("k", dict(got, x=np.where(np.arange(200) == 7, 5.0, got["x"])), want)
    flipped = dict(got, x=np.where(np.arange(200) == 7, 5.0, got["x"]))
    assert_matches("k", flipped, want, flip_share=0.01)       # 1 of 200 allowed (2)
    with pytest.raises(AssertionError, match="reason"):
        assert_matches("k", dict(got, reason=np.array("max_steps")), want)
    with pytest.raises(AssertionError, match="n: 1 of 200"):
        assert_matches("k", dict(got, n=np.where(np.arange(200) == 3, -1, got["n"])), want)
