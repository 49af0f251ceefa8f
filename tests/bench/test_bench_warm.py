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
