"""The shared reference cache: a disc's visibility graph is built once per key and
loaded by every later run (another process included), lengths unchanged; the sweep
order puts each reference group's first run early."""

import multiprocessing
from pathlib import Path

import numpy as np
import pytest

from robomaze.bench.refcache import ArrayStore, cache_files, spread_by_reference
from robomaze.geometry import visibility as V
from robomaze.generate import generate
from robomaze.grid import widen


def _grid():
    return np.ascontiguousarray(widen(generate("kruskal", 4, 4, rng=3), corridor=4).occupied)


def _centre(r, c):
    """(x, y) in cell units of maze cell (r, c)'s block centre (corridor 4, wall 1)."""
    return (1 + 5 * c + 2 + 0.5, 1 + 5 * r + 2 + 0.5)


class _Counting(ArrayStore):
    def __init__(self, d):
        super().__init__(d)
        self.built = 0

    def get_or_build(self, key, build):
        def counted():
            self.built += 1
            return build()
        return super().get_or_build(key, counted)


def _length(occ, store, start, goal):
    V._graphs.cache_clear()   # the per-process cache would hide the store
    if store is None:
        return V.visibility_length(occ, 0.6, start, goal)
    with V.graph_store(store):
        return V.visibility_length(occ, 0.6, start, goal)


def test_a_graph_is_built_once_and_gives_the_same_lengths(tmp_path):
    occ = _grid()
    ends = [(_centre(0, 0), _centre(3, 3)), (_centre(1, 2), _centre(3, 0)),
            (_centre(2, 2), _centre(0, 3))]
    plain = [_length(occ, None, s, g) for s, g in ends]
    assert all(np.isfinite(plain)) and plain[0] >= np.hypot(15, 15)   # at least the straight line
    first, second = _Counting(tmp_path), _Counting(tmp_path)
    assert [_length(occ, first, s, g) for s, g in ends] == plain
    assert [_length(occ, second, s, g) for s, g in ends] == plain
    assert first.built == 1 and second.built == 0   # one build; later runs load it
    assert [p.split(".")[-1] for p in cache_files(tmp_path)] == ["lock", "npz"]


def _worker(args):
    d, start, goal = args
    occ = _grid()
    store = _Counting(Path(d))
    length = _length(occ, store, start, goal)
    return length, store.built


def test_processes_at_once_build_one_graph(tmp_path):
    occ = _grid()
    s, g = _centre(0, 0), _centre(3, 3)
    with multiprocessing.get_context("spawn").Pool(3) as pool:
        out = pool.map(_worker, [(str(tmp_path), s, g)] * 3)
    assert sum(built for _, built in out) == 1
    plain = _length(occ, None, s, g)
    assert np.isfinite(plain) and {length for length, _ in out} == {plain}


def test_a_damaged_entry_is_rebuilt(tmp_path):
    occ = _grid()
    store = _Counting(tmp_path)
    _length(occ, store, _centre(0, 0), _centre(1, 1))
    npz = next((tmp_path / "cache" / "references").glob("*.npz"))
    npz.write_bytes(b"not a zip")
    assert store.load(npz.stem) is None
    _length(occ, store, _centre(0, 0), _centre(1, 1))
    assert store.built == 2 and store.load(npz.stem) is not None


def test_keys_are_checked(tmp_path):
    with pytest.raises(ValueError, match="cache key"):
        ArrayStore(tmp_path).load("../../etc/passwd")


def test_spread_puts_every_groups_first_run_first():
    from types import SimpleNamespace as S

    runs = [S(kind="plan", id=f"{m}{i}", spec={"maze": m, "widen": 1, "robot": {"footprint": 0}})
            for m in "abc" for i in range(3)]
    runs.append(S(kind="mouse", id="mouse", spec={}))
    order = [r.id for r in spread_by_reference(runs)]
    assert order[:4] == ["a0", "b0", "c0", "mouse"] and sorted(order) == sorted(r.id for r in runs)
    # each group keeps its own order
    for m in "abc":
        assert [x for x in order if x[0] == m] == [f"{m}0", f"{m}1", f"{m}2"]
