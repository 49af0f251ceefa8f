"""What a first command compiles must not grow silently (issue 22: first run in seconds).

``robomaze plan prim 5x5`` runs in a fresh process with an empty numba cache
and numba's ``numba:compile`` events are recorded: one event per kernel
specialisation compiled. The robomaze kernels and their number of
specialisations must be exactly :data:`PLAN_PRIM_5X5`. A kernel compiled
twice for the same job (a literal argument, int32 beside int64, a readonly
or a layout variant) or a kernel the command never needs shows up here as a
changed count, not as a few more seconds nobody notices. If a change means
to compile something else, update the list in the same commit and say why
(``benchmarks/bench_compile.py --only plan --kernels`` prints the costs).

No timing is asserted: counts and names only.
"""

import json
import os
import subprocess
import sys

import pytest

import robomaze

#: robomaze kernel -> specialisations compiled by ``robomaze plan prim 5x5 --seed 1``.
PLAN_PRIM_5X5 = {
    # the path is read inside _astar4 (its _descend_g was a kernel of its own until round 11)
    "robomaze._search._engine._astar4": 1,
    # a 5x5 prim takes the small path: one self-contained kernel (was 15)
    "robomaze.generate._prim_small._prim_heap": 1,
    "robomaze.geometry._kernels.cell_clearance": 1,
    "robomaze.metrics.keyposes._centre_points": 1,
}

PROBE = r"""
import json, sys
from numba.core import event as ev
seen = []
class Listener(ev.Listener):
    def on_start(self, event):
        data = event.data or {}
        f = getattr(data.get("dispatcher"), "py_func", None)
        seen.append([f"{getattr(f, '__module__', '?')}.{getattr(f, '__qualname__', '?')}",
                     str(data.get("args"))])
    def on_end(self, event):
        return  # only starts are counted
ev.register("numba:compile", Listener())
from robomaze.cli import main
rc = main(sys.argv[2:])
with open(sys.argv[1], "w") as f:
    json.dump({"rc": rc, "compiled": seen}, f)
"""


def _compiled(tmp_path, *argv, cache=None):
    root = os.path.dirname(os.path.dirname(os.path.abspath(robomaze.__file__)))
    # one process: helpers (robomaze.cli._stages) would compile part of the list elsewhere
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache or tmp_path / "cache"), ROBOMAZE_COMPILE_NOTICE="0",
               ROBOMAZE_WARM_PROCESSES="1",
               PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("NUMBA_CACHE_LOCATOR_CLASSES", None)
    env.pop("NUMBA_DISABLE_JIT", None)
    out = tmp_path / "compiled.json"
    subprocess.run([sys.executable, "-c", PROBE, str(out), *argv], env=env, cwd=tmp_path,
                   check=True, capture_output=True, text=True, timeout=1200)
    return json.loads(out.read_text())


@pytest.fixture(scope="module")
def cold_prim(tmp_path_factory):
    """One cold ``plan prim 5x5`` (its empty cache is then filled): both tests
    below need the same cold run, which compiles for seconds."""
    folder = tmp_path_factory.mktemp("prim")
    return folder / "cache", _compiled(folder, "plan", "prim", "5x5", "--seed", "1")


def test_plan_prim_compiles_a_fixed_list_of_kernels_once_each(cold_prim):
    _, rec = cold_prim
    assert rec["rc"] == 0
    ours = [(name, args) for name, args in rec["compiled"] if name.startswith("robomaze.")]
    counts: dict = {}
    for name, _ in ours:
        counts[name] = counts.get(name, 0) + 1
    extra = {k: v for k, v in counts.items() if PLAN_PRIM_5X5.get(k) != v}
    missing = {k: v for k, v in PLAN_PRIM_5X5.items() if k not in counts}
    assert counts == PLAN_PRIM_5X5, f"changed or new: {extra}; no longer compiled: {missing}"
    # a literal argument type is how a kernel gets a second, useless specialisation
    literal = [(name, args) for name, args in ours if "Literal[" in args]
    assert literal == []


def test_a_second_run_compiles_nothing(cold_prim, tmp_path):
    cache, first = cold_prim
    second = _compiled(tmp_path, "plan", "prim", "5x5", "--seed", "1", cache=cache)
    assert len(first["compiled"]) > 0
    assert second["compiled"] == []
