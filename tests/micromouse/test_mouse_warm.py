"""A cold ``robomaze mouse solve`` compiles its kernels in warm-up tasks
(robomaze.micromouse._warm) before its work, in pieces two processes share.

Each run is a fresh process with an empty numba cache that records numba's
``numba:compile`` events in the command's own process. Counts only, no timing.
"""

import json
import os
import subprocess
import sys

import robomaze

PROBE = r"""
import json, sys
from numba.core import event as ev
names = []
class Listener(ev.Listener):
    def on_start(self, event):
        f = getattr((event.data or {}).get("dispatcher"), "py_func", None)
        names.append(f"{getattr(f, '__module__', '?')}.{getattr(f, '__qualname__', '?')}")
    def on_end(self, event):
        return
ev.register("numba:compile", Listener())
from robomaze.cli import main, mouse
marks = []
real = mouse._warm
def warm(args, **kw):
    real(args, **kw)
    marks.append(len(names))
mouse._warm = warm
rc = main(sys.argv[2:])
with open(sys.argv[1], "w") as f:
    json.dump({"rc": rc, "names": names, "after_warm": marks}, f)
"""

ARGV = ["mouse", "solve", "pkg:micromouse/16MM2019CX.maze"]


def _run(tmp_path, cache, processes):
    root = os.path.dirname(os.path.dirname(os.path.abspath(robomaze.__file__)))
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / cache), ROBOMAZE_COMPILE_NOTICE="0",
               ROBOMAZE_WARM_PROCESSES=str(processes),
               PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("NUMBA_CACHE_LOCATOR_CLASSES", None)
    env.pop("NUMBA_DISABLE_JIT", None)
    out = tmp_path / "probe.json"
    proc = subprocess.run([sys.executable, "-c", PROBE, str(out), *ARGV], env=env,
                          cwd=tmp_path, capture_output=True, text=True, timeout=1200)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout, json.loads(out.read_text())


def test_the_warm_up_compiles_each_route_kernel_once_and_everything_the_command_calls(tmp_path):
    out1, one = _run(tmp_path, "one", 1)
    robomaze_kernels = [n for n in one["names"] if n.startswith("robomaze.")]
    for name in ("slalom_dial", "runs_dial", "prepare", "dial_entry", "flood_edges"):
        assert sum(n.endswith("." + name) for n in robomaze_kernels) == 1, (name, one["names"])
    # a kernel compiled for other types than the entry passes would show twice
    assert len(robomaze_kernels) == len(set(robomaze_kernels)), robomaze_kernels
    assert one["after_warm"] == [len(one["names"])], one["names"][one["after_warm"][0]:]
    out2, two = _run(tmp_path, "two", 2)
    assert two["after_warm"] == [len(two["names"])]
    if len(os.sched_getaffinity(0)) > 1:
        # the helper took a share: this process compiled only some of them
        assert 0 < sum(n.startswith("robomaze.") for n in two["names"]) < len(robomaze_kernels)
    out3, cached = _run(tmp_path, "two", 2)
    assert cached["names"] == []
    assert out1 == out2 == out3
    assert "best_possible_time" in out1
