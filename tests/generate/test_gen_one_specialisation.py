"""Every generator kernel compiles once (issue 22: first run in seconds).

A kernel typed once with a literal argument and once with a variable, or
with int32 beside int64, compiles twice on a cold start: Aldous-Broder's
block helpers did, because numba typed the omitted ``fine`` / ``coarse``
defaults as two different literals. In a fresh process with an empty
numba cache (a kernel loaded from the cache brings its callees' code along
and compiles none of them, so only a cold start shows them) every
registered generator runs at a small and a large size (kruskal's and mst's
large-grid kernels included) and no kernel of ``robomaze.generate`` may
end up with more than one signature. No timing is asserted.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import robomaze

PROBE = r"""
import json, sys
from numba.core.registry import CPUDispatcher
from robomaze import generate as G
from robomaze.generate import (_aldous_broder_small, _kernels, _mst_kernels, _mst_small,
                               _prim_kernels, _prim_small, _scheme_kernels, _tree_kernels,
                               _walk_kernels, _wilson_small)
for name in G.GENERATORS:
    for size in (5, 210):
        G.generate(name, size, size + 1, rng=1)
G.generate("wilson", 9, 9, rng=1, braid=0.5)
out = {}
for mod in (_aldous_broder_small, _kernels, _mst_kernels, _mst_small, _prim_kernels, _prim_small,
            _scheme_kernels, _tree_kernels, _walk_kernels, _wilson_small):
    for attr, obj in vars(mod).items():
        if isinstance(obj, CPUDispatcher) and obj.py_func.__module__ == mod.__name__:
            out[f"{mod.__name__}.{attr}"] = [str(s) for s in obj.signatures]
json.dump(out, open(sys.argv[1], "w"))
"""


def test_every_generator_kernel_has_one_signature(tmp_path):
    root = os.path.dirname(os.path.dirname(os.path.abspath(robomaze.__file__)))
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), ROBOMAZE_COMPILE_NOTICE="0",
               PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("NUMBA_DISABLE_JIT", None)
    env.pop("NUMBA_CACHE_LOCATOR_CLASSES", None)
    out = tmp_path / "sigs.json"
    subprocess.run([sys.executable, "-c", PROBE, str(out)], env=env, cwd=tmp_path, check=True,
                   capture_output=True, text=True, timeout=1200)
    sigs = json.loads(out.read_text())
    # the probe reached the kernels of every family, large paths included
    for name in ("_walk_kernels._wilson_walks", "_walk_kernels._aldous_broder_walk",
                 "_mst_kernels._tile", "_mst_kernels._global_kruskal",
                 "_mst_small._kruskal_picks", "_tree_kernels._eller", "_kernels.braid",
                 "_prim_small._prim_heap", "_prim_kernels.prim",
                 "_wilson_small._wilson_steps", "_kernels._backtrack", "_kernels._hunt_and_kill",
                 "_aldous_broder_small._walk_steps"):
        assert len(sigs[f"robomaze.generate.{name}"]) == 1, name
    many = {k: v for k, v in sigs.items() if len(v) > 1}
    assert many == {}, json.dumps(many, indent=1)
