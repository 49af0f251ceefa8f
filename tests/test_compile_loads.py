"""Cached kernels load without numba's context refresh (issue 40, round 16).

Each case runs in fresh processes: the first compiles a small kernel module
into an empty cache, the second loads it. The refresh is observed by the
number of function templates numba's typing context holds (a refresh
installs them: 1,125 on numba 0.68) and by pipeline_trims' count of full
refreshes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

MODULE = textwrap.dedent("""
    import numpy as np
    from numba import njit

    @njit(cache=True)
    def total(a):
        s = 0.0
        for x in a:
            s += x * x
        return s
""")

PROBE = textwrap.dedent("""
    import json, sys
    import robomaze  # installs robomaze's numba set-up when numba is imported
    import numpy as np
    import kmod
    from numba.core.registry import cpu_target
    from robomaze._compile import pipeline_trims
    a = np.arange(5.0)
    out = {"value": kmod.total(a),
           "templates": len(cpu_target.typing_context._functions),
           "refreshes": pipeline_trims.stats()["refresh_full"],
           "cached": [int(v) for v in kmod.total.stats.cache_hits.values()]}
    if sys.argv[1] == "compile-after":
        # a new kernel that calls the loaded one: numba's compiler refreshes first
        from numba import njit

        @njit
        def twice(a):
            return 2.0 * kmod.total(a)

        out["twice"] = twice(a)
        out["templates_after"] = len(cpu_target.typing_context._functions)
        out["refreshes_after"] = pipeline_trims.stats()["refresh_full"]
    print(json.dumps(out))
""")


def _run(tmp_path, mode: str, **env) -> dict:
    (tmp_path / "kmod.py").write_text(MODULE)
    full = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), **env)
    full["PYTHONPATH"] = str(tmp_path) + os.pathsep + full.get("PYTHONPATH", "")
    proc = subprocess.run([sys.executable, "-c", PROBE, mode], env=full, cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.fixture
def cached(tmp_path):
    first = _run(tmp_path, "plain")
    assert first["cached"] == [] and first["value"] == 30.0   # compiled: 0+1+4+9+16
    assert first["refreshes"] >= 1
    return tmp_path


def test_a_cached_kernel_loads_without_a_refresh_and_gives_the_same_result(cached):
    loaded = _run(cached, "plain")
    assert loaded["cached"] == [1]              # from the cache, not compiled
    assert loaded["value"] == 30.0
    assert loaded["refreshes"] == 0
    # numba's own load refreshes: its typing registries fill (thousands of templates)
    numba_load = _run(cached, "plain", ROBOMAZE_PIPELINE_TRIMS="0")
    assert numba_load["cached"] == [1] and numba_load["value"] == 30.0
    assert numba_load["templates"] > loaded["templates"] + 500


def test_a_compile_after_a_lazy_load_gets_the_full_refresh(cached):
    out = _run(cached, "compile-after")
    assert out["cached"] == [1] and out["refreshes"] == 0
    assert out["twice"] == 60.0
    assert out["refreshes_after"] >= 1
    assert out["templates_after"] > out["templates"] + 500
