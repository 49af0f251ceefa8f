"""The first run on a machine says that it compiles (issue: 20-40 s of silence).

A fresh ``NUMBA_CACHE_DIR`` is an empty cache: the command must print the
notice and the summary line on stderr, and a second run with the same cache
(kernels load from disk, numba fires no compile event) must print neither.
"""

import os
import subprocess
import sys


def _run(tmp_path, cache, *words):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), ROBOMAZE_COMPILE_NOTICE="1")
    return subprocess.run([sys.executable, "-m", "robomaze", *words], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)


def test_cold_cache_prints_notice_then_warm_cache_is_quiet(tmp_path):
    cache = tmp_path / "numba-cache"
    cold = _run(tmp_path, cache, "generate", "sidewinder", "4x4", "--seed", "1", "-o", "m.json")
    assert cold.returncode == 0, cold.stderr
    lines = cold.stderr.splitlines()
    assert lines[0].startswith("robomaze: compiling numba kernels on first use (generate.")
    assert any(line.startswith("robomaze: compiled ") for line in lines)
    warm = _run(tmp_path, cache, "generate", "sidewinder", "4x4", "--seed", "1", "-o", "m2.json")
    assert warm.returncode == 0, warm.stderr
    assert "compil" not in warm.stderr
    assert (tmp_path / "m.json").read_bytes() == (tmp_path / "m2.json").read_bytes()


def test_notice_can_be_silenced(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "c"), ROBOMAZE_COMPILE_NOTICE="0")
    proc = subprocess.run([sys.executable, "-m", "robomaze", "generate", "sidewinder", "3x3",
                           "-o", "m.json"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=600, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0 and "compil" not in proc.stderr
