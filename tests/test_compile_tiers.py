"""Optimisation tiers (robomaze._compile.tiers): the kernels declared cold, and only
them, are optimised at the cold level; results are the same; the cache follows.

Each check runs in fresh processes (a kernel compiles once per process):
with the tiers (``ROBOMAZE_OPT_TIERS`` unset) and without (``=0``), each
with its own empty ``NUMBA_CACHE_DIR``.
"""

import json
import os
import subprocess
import sys
import tempfile
import textwrap

import pytest

from robomaze._compile import cache, tiers

# a numba kernel declared cold here and an identical one not declared, and
# robomaze's declared kernels (classic walkers, a path's figures, key poses)
# beside undeclared ones (an engine search, the wave field); every library
# finalised reports its tier
_RUN = textwrap.dedent('''
    import json, sys
    import numpy as np
    import robomaze
    import numba
    from numba.core import codegen
    from robomaze._compile import tiers

    tiers.COLD["__main__"] = {"cold_sum": "cold"}
    seen = {}
    finalize = codegen.CPUCodeLibrary._finalize_final_module

    def keep(self):
        seen.setdefault(self.name, set()).add(
            (getattr(self, "_robomaze_opt", None), getattr(self, "_robomaze_codegen", None)))
        return finalize(self)

    codegen.CPUCodeLibrary._finalize_final_module = keep

    from numba import njit

    # the same body twice (numba names a library by its function's name)
    @njit
    def cold_sum(a, b):
        s = 0.0
        acc = np.int64(0)
        for i in range(a.size):
            s += a[i] * 1.1 + np.sqrt(a[i]) / (1.0 + b[i])
            acc = (acc * 31 + np.int64(b[i] * 7)) % 1000003
        return s, acc

    @njit
    def hot_sum(a, b):
        s = 0.0
        acc = np.int64(0)
        for i in range(a.size):
            s += a[i] * 1.1 + np.sqrt(a[i]) / (1.0 + b[i])
            acc = (acc * 31 + np.int64(b[i] * 7)) % 1000003
        return s, acc

    rng = np.random.default_rng(3)
    a, b = rng.random(500), rng.random(500)
    res = {"cold_sum": list(cold_sum(a, b)), "hot_sum": list(hot_sum(a, b))}

    from robomaze import widen
    from robomaze.generate import generate
    from robomaze.geometry import Footprint
    from robomaze.plan import plan

    for seed, corridor in ((1, 1), (2, 3)):
        grid = widen(generate("backtracker", 7, 7, rng=seed), corridor=corridor)
        start, goal = grid.start_goal()
        for method in ("tremaux", "wall_follower", "pledge", "dfs_backtracking",
                       "dead_end_filling", "random_mouse", "astar"):
            opts = {"rng": 0} if method in ("random_mouse", "dfs_backtracking") else {}
            for fp in (None, Footprint.rectangle(0.4, 0.2)):
                try:
                    p = plan(grid, start, goal, method=method, footprint=fp, **opts)
                    got = [np.asarray(p.cells).tolist(), p.length, p.collision_free,
                           p.min_clearance_key_poses]
                except Exception as e:
                    got = type(e).__name__
                res[f"{seed}-{method}-{fp}"] = got
    libs = {k: sorted(v, key=str) for k, v in seen.items()}
    print(json.dumps({"res": res, "libs": {k: [str(x) for x in v] for k, v in libs.items()},
                      "installed": tiers.install(), "stats": tiers.stats()}, default=str))
''')


def _run(on: bool, cache_dir: str | None = None) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir or tmp, ROBOMAZE_SHIPPED_KERNELS="0")
        env.pop(tiers.ENV, None)
        if not on:
            env[tiers.ENV] = "0"
        out = subprocess.run([sys.executable, "-c", _RUN], env=env, capture_output=True,
                             text=True, check=True, cwd=tmp, restore_signals=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def both():
    return _run(True), _run(False)


def test_only_declared_kernels_are_cold(both):
    on, _ = both
    assert on["installed"] is True
    cold = {name for name, levels in on["libs"].items() if levels != ["(None, None)"]}
    # the cold one here, and robomaze's walkers and figures the plans compiled
    assert "cold_sum" in cold and "hot_sum" not in cold
    assert {"walker", "shapes_clearance"} <= cold and "fill_dead_ends" not in cold
    declared = {n: tiers.TIERS[t] for names in tiers.COLD.values() for n, t in names.items()}
    declared["cold_sum"] = tiers.TIERS["cold"]
    assert cold <= set(declared), cold - set(declared)
    for name in cold:  # each at its own tier's levels
        assert on["libs"][name] == [str(declared[name])], (name, on["libs"][name])
    # the hot kernels the same plans compiled stay at numba's levels
    for hot in ("hot_sum", "_astar4"):
        assert on["libs"][hot] == ["(None, None)"], (hot, on["libs"][hot])
    assert on["stats"]["cold_libraries"] == sum(
        1 for levels in on["libs"].values() for lv in levels if lv != "(None, None)")


def test_env_switch_turns_tiers_off(both):
    _, off = both
    assert off["installed"] is False
    assert off["stats"]["cold_libraries"] == 0
    assert all(levels == ["(None, None)"] for levels in off["libs"].values())


def test_results_equal_with_and_without_tiers(both):
    on, off = both
    assert on["res"]["cold_sum"] == on["res"]["hot_sum"]
    assert on["res"] == off["res"]
    # the plans ran (not every one an error)
    assert sum(isinstance(v, list) for v in on["res"].values()) >= 20


_CACHED = textwrap.dedent('''
    import json, sys
    import numpy as np
    import robomaze
    from robomaze._compile import tiers
    # no shipped kernel is "cold" (O0 machine code) since round 11's merge:
    # declare the walker so, as a kernel owner would (before anything imports it)
    name = "robomaze.plan.classic._kernels"
    tiers.COLD[name] = dict(tiers.COLD[name], walker="cold")
    from robomaze import _compile, widen
    from robomaze.generate import generate
    from robomaze.plan import plan

    _compile.install()
    before = _compile.compiled()
    grid = widen(generate("kruskal", 6, 6, rng=4), corridor=1)
    s, g = grid.start_goal()
    p = plan(grid, s, g, method="tremaux")
    print(json.dumps({"cells": np.asarray(p.cells).tolist(), "clear": p.min_clearance_key_poses,
                      "compiled": _compile.compiled() - before,
                      "tiered": tiers.stats()["cold_libraries"]}))
''')


def test_cold_kernels_cache_and_load():
    # a cold kernel's machine code is saved and a second process loads it
    # (the object the cold target machine made is what the cache keeps)
    with tempfile.TemporaryDirectory() as tmp:
        # the cache in a folder of its own: numba's ``robomaze`` folder in the
        # working directory would shadow the package (``python -c`` puts it first)
        env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(tmp, "cache"),
                   ROBOMAZE_SHIPPED_KERNELS="0", ROBOMAZE_COMPILE_NOTICE="0")
        env.pop(tiers.ENV, None)
        runs = [json.loads(subprocess.run(
            [sys.executable, "-c", _CACHED], env=env, capture_output=True, text=True, check=True,
            cwd=tmp, restore_signals=True).stdout.strip().splitlines()[-1]) for _ in range(2)]
    assert runs[0]["compiled"] > 0 and runs[0]["tiered"] > 0
    assert runs[1]["compiled"] == 0 and runs[1]["tiered"] == 0
    assert runs[0]["cells"] == runs[1]["cells"] and runs[0]["clear"] == runs[1]["clear"]


def test_tier_is_part_of_the_cache_key(monkeypatch):
    classic = os.path.join(cache.PACKAGE_DIR, "plan", "classic", "_kernels.py")
    other = os.path.join(cache.PACKAGE_DIR, "_search", "_octile.py")
    assert tiers.stamp("robomaze.plan.classic._kernels")
    assert not any(tiers.stamp(m) for m in ("robomaze._search._octile",))
    monkeypatch.delenv(tiers.ENV, raising=False)
    with_tiers = cache.module_folder_name(classic), cache.module_folder_name(other)
    monkeypatch.setenv(tiers.ENV, "0")
    without = cache.module_folder_name(classic), cache.module_folder_name(other)
    assert with_tiers[0] != without[0]       # a declared module compiles again
    assert with_tiers[1] == without[1]       # one with nothing declared keeps its folder
    # and a module that links a declared kernel in (the figures' Python side) follows it
    monkeypatch.delenv(tiers.ENV, raising=False)
    clearance = os.path.join(cache.PACKAGE_DIR, "geometry", "clearance.py")
    a = cache.module_folder_name(clearance)
    monkeypatch.setenv(tiers.ENV, "0")
    assert cache.module_folder_name(clearance) != a


def test_stamp_and_tier_of():
    assert tiers.tier_of("robomaze.plan.classic._kernels", "walker") == tiers.TIERS["cool"]
    assert tiers.tier_of("robomaze.geometry._kernels", "shapes_clearance") == tiers.TIERS["cool"]
    assert tiers.tier_of("robomaze.plan.classic._kernels", "no_such") is None
    assert tiers.tier_of("robomaze._search._engine", "_expand") is None
    lv = tiers.TIERS["cool"]
    assert tiers.stamp("robomaze.metrics.keyposes") == f"_centre_points={lv[0]}/{lv[1]}"


def test_every_declared_kernel_exists():
    """A renamed or merged kernel must not leave a declaration that applies to nothing."""
    import importlib

    from numba.core.registry import CPUDispatcher

    for module, names in tiers.COLD.items():
        mod = importlib.import_module(module)
        for name in names:
            kernel = getattr(mod, name, None)
            assert isinstance(kernel, CPUDispatcher), f"{module}.{name} is not a numba kernel"
