"""The fork server warms up only what the sweep runs (cached fixed cost)."""

import os
import subprocess
import sys

from robomaze.bench.runner import WARM_ENV, _warm_list
from robomaze.bench.scenario import parse_sweep

SWEEP = {
    "name": "w", "seed": 1,
    "maze": {"generator": "kruskal", "rows": 3, "cols": 3},
    "widen": {"corridor": 3, "resolution": 0.1},
    "robot": {"footprint": ["disc:0.04", "rect:0.1x0.06"], "sensor": "ir"},
    "run": {"planner": ["astar"], "agent": ["explore"]},
}


def test_warm_list_names_the_sweeps_methods_shapes_and_sensor():
    sweep = parse_sweep(SWEEP, source="w.toml")
    assert _warm_list(sweep.scenarios) == (
        "plan:astar,sensor:ir,shape:disc,shape:rectangle,simulate:explore")


def test_warm_module_reads_the_list_and_warms_only_those():
    code = ("import robomaze.bench._warm as w; p, a, s, n = w._wanted(); "
            "print(sorted(p), sorted(a), sorted(s), sorted(n))")
    env = dict(os.environ, **{WARM_ENV: "plan:astar,simulate:explore,shape:disc,sensor:ir"})
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=600, check=True).stdout
    assert out.strip() == "['astar'] ['explore'] ['disc'] ['ir']"


def _server_compiles(tmp_path, name, **extra):
    import re

    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / name), ROBOMAZE_COMPILE_NOTICE="1",
               **{WARM_ENV: "plan:astar,plan:wall_follower,simulate:wall_follow,"
                            "sensor:ir,shape:disc"}, **extra)
    err = subprocess.run([sys.executable, "-c", "import robomaze.bench._warm"], env=env,
                         timeout=600, check=True, capture_output=True, text=True).stderr
    return int(re.search(r"compiled (\d+) kernel", err).group(1))


def test_a_cold_warm_up_shares_its_compiles_with_a_helper(tmp_path):
    """With a cold cache a helper process compiles the agents' and classic
    solvers' kernels into the disk cache, and the server loads them from there
    instead of compiling them itself."""
    alone = _server_compiles(tmp_path, "alone", ROBOMAZE_WARM_CHILD="1")  # no helper
    shared = _server_compiles(tmp_path, "shared")
    assert 0 < shared < alone
