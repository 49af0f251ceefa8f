"""Compile CPU of the default sweep's warm-up in one process, and numba's LLVM steps inside it.

Each run is a fresh process with an empty ``NUMBA_CACHE_DIR``
(``ROBOMAZE_SHIPPED_KERNELS=0``, ``ROBOMAZE_WARM_PROCESSES=1``, the default
sweep's ``ROBOMAZE_WARM`` list) that imports ``robomaze.bench._warm``; it
reports its process CPU and the thread CPU of numba's three LLVM steps
(wrapped before anything compiles): ``fn`` the per-function passes
(``CPUCodeLibrary._optimize_functions``), ``mod`` the module passes
(``_optimize_final_module``), ``mc`` machine code
(``JITCodeLibrary._finalize_specific``), and the libraries compiled at a
tier (:mod:`robomaze._compile.tiers`). Variants, interleaved per repetition:

* ``compare``: the checkout ``--compare`` gives (e.g. main: ``git archive
  main | tar -x -C DIR``);
* ``this``: this checkout (``--checkout``);
* ``off``: this checkout with ``ROBOMAZE_OPT_TIERS=0``.

Medians of the repetitions, with the load average at each start.

Usage::

    python benchmarks/bench_compile_tiers.py [--compare DIR] [--repeat 3] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

_CHILD = r"""
import json, resource, time
import robomaze  # its import hooks: the tiers install when numba is imported
import numba
from numba.core import codegen
try:
    from robomaze._compile import tiers
    cold = lambda: tiers.stats()["cold_libraries"]
except ImportError:  # a checkout without tiers
    cold = lambda: 0
acc = {"fn": 0.0, "mod": 0.0, "mc": 0.0}

def wrap(cls, name, key):
    orig = getattr(cls, name)
    def timed(self, *a):
        t = time.thread_time()
        try:
            return orig(self, *a)
        finally:
            acc[key] += time.thread_time() - t
    setattr(cls, name, timed)

wrap(codegen.CPUCodeLibrary, "_optimize_functions", "fn")
wrap(codegen.CPUCodeLibrary, "_optimize_final_module", "mod")
wrap(codegen.JITCodeLibrary, "_finalize_specific", "mc")
t = time.perf_counter()
import robomaze.bench._warm as w
ru = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps(dict(cpu=ru.ru_utime + ru.ru_stime, wall=time.perf_counter() - t, cold=cold(),
                      kernels=w.STATS.get("compiled_here"), **acc)))
"""


def _load() -> float:
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def run(root: Path, extra: dict, wanted: str) -> dict:
    with tempfile.TemporaryDirectory(prefix="rm-tiers-") as cache:
        env = dict(os.environ, PYTHONPATH=str(root), NUMBA_CACHE_DIR=cache,
                   ROBOMAZE_SHIPPED_KERNELS="0", ROBOMAZE_WARM_PROCESSES="1",
                   ROBOMAZE_WARM=wanted, ROBOMAZE_COMPILE_NOTICE="0", **extra)
        if "ROBOMAZE_OPT_TIERS" not in extra:
            env.pop("ROBOMAZE_OPT_TIERS", None)
        load = _load()
        # cwd: not a checkout (``python -c`` puts the working directory first)
        out = subprocess.run([sys.executable, "-c", _CHILD], env=env, cwd=cache, check=True,
                             capture_output=True, text=True, restore_signals=True)
    rec = json.loads(out.stdout.strip().splitlines()[-1])
    rec["load"] = load
    rec["llvm"] = rec["fn"] + rec["mod"] + rec["mc"]
    return rec


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--checkout", default=str(ROOT))
    ap.add_argument("--compare", help="another checkout, e.g. main's")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json")
    args = ap.parse_args()
    from bench_coldstart import _default_list

    wanted = _default_list()
    modes = [("this", Path(args.checkout), {}), ("off", Path(args.checkout),
                                                 {"ROBOMAZE_OPT_TIERS": "0"})]
    if args.compare:
        modes.insert(0, ("compare", Path(args.compare).resolve(), {}))
    res: dict = {m: [] for m, _, _ in modes}
    for i in range(args.repeat):
        for mode, root, extra in modes:
            rec = run(root, extra, wanted)
            res[mode].append(rec)
            print(f"{i + 1} {mode:8s} cpu {rec['cpu']:6.2f}  llvm {rec['llvm']:5.2f} (fn "
                  f"{rec['fn']:.2f} mod {rec['mod']:.2f} mc {rec['mc']:.2f})  tiered "
                  f"{rec['cold']:3d}  kernels {rec['kernels']}  load {rec['load']:.1f}",
                  flush=True)
    print("medians:")
    for mode, recs in res.items():
        med = {k: statistics.median(r[k] for r in recs) for k in ("cpu", "llvm", "fn", "mod", "mc")}
        print(f"  {mode:8s} cpu {med['cpu']:6.2f}  llvm {med['llvm']:5.2f} (fn {med['fn']:.2f} "
              f"mod {med['mod']:.2f} mc {med['mc']:.2f})")
    if args.json:
        Path(args.json).write_text(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
