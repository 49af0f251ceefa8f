"""What each piece of the compile layer earns (issue 32 item 4, issue 40 item 4).

Runs the slowest first runs -- ``plan`` (collision_free with a rectangle),
``simulate --agent explore``, ``mouse solve`` -- and the default sweep's
warm-up, each cold (a fresh ``NUMBA_CACHE_DIR``), for several *variants*:
checkouts (or copies of one with a piece switched off) and process counts,
interleaved (variant after variant for each command, then the next
repetition). Recorded per run: the CPU of the whole process tree (helpers
included), the command's own process CPU (``self``: the rest is its
helpers'), the wall time and the load average before it.

On a shared machine the wall time says little; the CPU times say what an
idle machine would wait: in one process about the whole CPU, with a helper
on a second core about the larger of the two shares (``self`` and
``tree - self``), plus the cached run's fixed cost (about a second).

``--tasks`` measures the compile work alone, with less noise: the stage
tasks of a command (:mod:`robomaze.cli._stages`: its simulator, agent,
metrics, planner ...) run one after another in one fresh process with an
empty cache, and the thread CPU of the outermost ``numba:compile`` events
is summed (no interpreter start-up, no imports, no helper). This is how a
piece that changes how kernels compile (``inner`` kernels, a rewritten
kernel) is weighed: its difference is tenths of a second, below the noise
of a whole command at load 20.

Variants are ``NAME=DIR`` or ``NAME=DIR:PROCESSES`` (``ROBOMAZE_WARM_PROCESSES``,
1 = compile in the command's own process). Writes
``benchmarks/results/compile_layer.json`` and prints medians.

Usage::

    python benchmarks/bench_compile_layer.py --variant before=/tmp/base \\
        --variant before1=/tmp/base:1 --variant now=. --repeat 3 [--sweep]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_compile  # noqa: E402

COMMANDS = [
    ("plan collision_free rect", "plan kruskal 6x6 --seed 1 --method collision_free "
                                 "--footprint rect:0.3x0.2"),
    ("plan max_clearance", "plan kruskal 10x10 --seed 1 --method max_clearance "
                           "--footprint disc:0.15"),
    ("simulate explore", "simulate kruskal 10x10 --seed 1 --agent explore"),
    ("mouse solve", "mouse solve pkg:micromouse/16MM2019CX.maze"),
]

_SWEEP = ("import json, resource, time; t = time.perf_counter(); import robomaze.bench._warm as w; "
          "ru = resource.getrusage(resource.RUSAGE_SELF); "
          "print(json.dumps(dict(getattr(w, 'STATS', {}), wall=time.perf_counter() - t, "
          "self=ru.ru_utime + ru.ru_stime)))")

#: (label, the stage spec :func:`robomaze.cli._stages.prepare` gets) for ``--tasks``
TASK_SPECS = [
    ("tasks explore", {"tasks": ["env", "agent", "metrics", "simulate"], "agent": "explore",
                       "sensor": "lidar", "footprint": "disc:0.15", "dt": 0.05, "corridor": 5,
                       "wall": 1, "resolution": 0.1, "options": {}}),
    ("tasks collision_free rect", {"tasks": ["plan", "measure", "cspace"], "method": "collision_free",
                                   "footprint": "rect:0.3x0.2", "corridor": 3, "wall": 1,
                                   "resolution": 0.1, "options": {}}),
]

_TASKS = r"""
import json, sys, time
from numba.core import event as ev
rec = {"kernels": 0, "compile_cpu": 0.0}
depth = [0, 0.0]
class L(ev.Listener):
    def on_start(self, event):
        rec["kernels"] += 1
        depth[0] += 1
        if depth[0] == 1:
            depth[1] = time.thread_time()
    def on_end(self, event):
        depth[0] -= 1
        if depth[0] == 0:
            rec["compile_cpu"] += time.thread_time() - depth[1]
ev.register("numba:compile", L())
from robomaze.cli import _stages
spec = json.loads(sys.argv[2])
t = time.thread_time()
for task in spec["tasks"]:
    _stages.TASKS[task](spec)
rec["task_cpu"] = time.thread_time() - t
with open(sys.argv[1], "w") as f:
    json.dump(rec, f)
"""

_CMD = r"""
import json, resource, sys
from robomaze.cli import main
try:
    rc = main(sys.argv[2:])
except SystemExit as e:
    rc = e.code if isinstance(e.code, int) else 1
ru = resource.getrusage(resource.RUSAGE_SELF)
with open(sys.argv[1], "w") as f:
    json.dump({"rc": rc, "self": ru.ru_utime + ru.ru_stime}, f)
"""


def command_once(spec: str, root: Path, processes: int | None) -> dict:
    """One command, cold: process-tree CPU, its own CPU, wall, load, the summary line."""
    tmp = tempfile.mkdtemp(prefix="rm-layer-")
    extra = {} if processes is None else {"ROBOMAZE_WARM_PROCESSES": str(processes)}
    env = bench_compile._env(root, NUMBA_CACHE_DIR=os.path.join(tmp, "cache"), **extra)
    out = os.path.join(tmp, "rec.json")
    load = os.getloadavg()[0]
    cpu0 = bench_compile._children_cpu()
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", _CMD, out, *spec.split()], cwd=tmp, env=env,
                          capture_output=True, text=True)
    wall = time.perf_counter() - t
    cpu = bench_compile._children_cpu() - cpu0
    try:
        rec = json.loads(Path(out).read_text())
    except (OSError, ValueError):
        rec = {"rc": proc.returncode, "self": None}
    shutil.rmtree(tmp, ignore_errors=True)
    m = re.search(r"compiled (\d+) kernel", proc.stderr)
    return {"cpu": cpu, "self": rec["self"], "wall": wall, "load": load, "rc": rec["rc"],
            "kernels": int(m.group(1)) if m else 0,
            **({"stderr": proc.stderr[-400:]} if rec["rc"] not in (0, None) else {})}


def tasks_once(spec: dict, root: Path) -> dict:
    """A command's stage tasks in one fresh process, cold: compile CPU, kernels."""
    tmp = tempfile.mkdtemp(prefix="rm-layer-")
    env = bench_compile._env(root, NUMBA_CACHE_DIR=os.path.join(tmp, "cache"))
    out = os.path.join(tmp, "rec.json")
    load = os.getloadavg()[0]
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", _TASKS, out, json.dumps(spec)], cwd=tmp,
                          env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t
    try:
        rec = json.loads(Path(out).read_text())
    except (OSError, ValueError):
        rec = {"kernels": 0, "compile_cpu": None, "task_cpu": None, "rc": proc.returncode,
               "stderr": proc.stderr[-400:]}
    shutil.rmtree(tmp, ignore_errors=True)
    return {"cpu": rec["task_cpu"], "self": rec["compile_cpu"], "wall": wall, "load": load,
            "kernels": rec["kernels"], **({"rc": rec["rc"], "stderr": rec["stderr"]}
                                          if "rc" in rec else {})}


def _variant(text: str) -> tuple[str, Path, int | None]:
    name, _, rest = text.partition("=")
    root, _, procs = rest.rpartition(":") if rest.rpartition(":")[2].isdigit() else (rest, "", "")
    return name, Path(root).resolve(), int(procs) if procs else None


def sweep_once(root: Path, processes: int | None) -> dict:
    """The default sweep's warm-up, cold: wall, process-tree CPU, load."""
    sys.path.insert(0, str(HERE))
    import bench_coldstart

    cache = tempfile.mkdtemp(prefix="rm-layer-")
    extra = {} if processes is None else {"ROBOMAZE_WARM_PROCESSES": str(processes)}
    env = bench_compile._env(root, NUMBA_CACHE_DIR=cache,
                             ROBOMAZE_WARM=bench_coldstart._default_list(), **extra)
    load = os.getloadavg()[0]
    cpu0 = bench_compile._children_cpu()
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", _SWEEP], env=env, capture_output=True,
                          text=True, cwd=cache)
    wall = time.perf_counter() - t
    cpu = bench_compile._children_cpu() - cpu0
    shutil.rmtree(cache, ignore_errors=True)
    try:
        stats = json.loads(proc.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        stats = {"error": proc.stderr[-400:]}
    return {"wall": wall, "cpu": cpu, "load": load, "self": stats.get("self"),
            "kernels": stats.get("compiled_here", 0) + stats.get("compiled_helpers", 0),
            "processes": stats.get("processes")}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", action="append", required=True, help="NAME=DIR[:PROCESSES]")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", help="only commands whose label matches this regular expression")
    ap.add_argument("--sweep", action="store_true", help="also the default sweep's warm-up")
    ap.add_argument("--no-commands", action="store_true")
    ap.add_argument("--tasks", action="store_true",
                    help="also the stage tasks of explore and collision_free in one process "
                         "(CPU = the tasks' thread CPU; self = their compile CPU)")
    ap.add_argument("--out", default=str(HERE / "results" / "compile_layer.json"))
    args = ap.parse_args(argv)
    variants = [_variant(v) for v in args.variant]
    cmds = [] if args.no_commands else [c for c in COMMANDS
                                        if not args.only or re.search(args.only, c[0])]
    if args.tasks:
        cmds += [(label, spec) for label, spec in TASK_SPECS
                 if not args.only or re.search(args.only, label)]
    if args.sweep:
        cmds.append(("sweep warm-up", None))
    res: dict = {"cores": len(os.sched_getaffinity(0)),
                 "variants": {n: f"{r}:{p}" for n, r, p in variants}, "rows": {}}
    for i in range(args.repeat):
        for label, spec in cmds:
            for name, root, procs in variants:
                row = (sweep_once(root, procs) if spec is None
                       else tasks_once(spec, root) if isinstance(spec, dict)
                       else command_once(spec, root, procs))
                res["rows"].setdefault(label, {}).setdefault(name, []).append(row)
                own = "" if row["self"] is None else f"  self {row['self']:6.2f} s"
                print(f"#{i + 1} {label:26s} {name:10s} CPU {row['cpu'] or 0:6.2f} s{own}  wall "
                      f"{row['wall']:6.2f} s  kernels {row['kernels']}  load {row['load']:.1f}"
                      + (f"  rc={row['rc']}" if row.get("rc") not in (0, None) else ""),
                      flush=True)
                Path(args.out).parent.mkdir(parents=True, exist_ok=True)
                Path(args.out).write_text(json.dumps(res, indent=1))  # after every run
    print("\nmedians (CPU = process tree; self = the command's own process)")
    for label, by in res["rows"].items():
        for name, rows in by.items():
            med = {k: statistics.median(r[k] or 0.0 for r in rows)
                   for k in ("cpu", "self", "wall")}
            loads = [r["load"] for r in rows]
            print(f"{label:26s} {name:10s} CPU {med['cpu']:6.2f}  self {med['self']:6.2f}  "
                  f"wall {med['wall']:6.2f}  load {min(loads):.1f}-{max(loads):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
