"""Which kernels each process of a cold warm-up compiles, and for which task.

The default sweep's warm-up (or a command's stage tasks) runs cold, in a
fresh process with an empty ``NUMBA_CACHE_DIR``, with a ``numba:compile``
listener installed before robomaze is imported, so the warm-up's forks
inherit it. Every compile event (one per kernel specialisation, numba's
own overloads included) is written by the process that ran it: its pid,
the kernel (module and name), the argument types, its thread-CPU seconds
(inclusive and exclusive of nested compiles) and its wall interval; every
warm-up task the process ran is written with its interval too. The report:

* per process, the kernels and the compile CPU (outermost events);
* **kernels compiled in more than one process** (same kernel, same
  argument types): work a split of the tasks paid twice, and the task each
  process was running when it compiled them;
* per task and process, the compile CPU;
* the kernels with most exclusive compile CPU, and those compiled with
  more than one signature (``--specialisations``).

Usage::

    python benchmarks/bench_compile_events.py [--checkout DIR] [--processes N]
        [--command "simulate kruskal 10x10 --seed 1 --agent explore"] [--top 40]
        [--detail] [--specialisations] [--json OUT]

Without ``--command`` it runs the default sweep's warm-up (the
``ROBOMAZE_WARM`` list of ``bench_coldstart._default_list()``), as
``bench_compile.py --sweep`` does, or the list ``--warm`` gives (the
``bench tiny sweep`` command's is ``generate:kruskal,plan:astar,plan:wavefront,shape:disc``).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from robomaze._threads import one_thread_pools

ROOT = Path(__file__).resolve().parents[1]

_CHILD = r"""
import json, os, sys, time
from numba.core import event as ev
folder, what, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
stack = []

def _write(rec):
    with open(os.path.join(folder, f"ev.{os.getpid()}.jsonl"), "a") as f:
        f.write(json.dumps(rec) + "\n")

class L(ev.Listener):
    def on_start(self, event):
        data = event.data or {}
        f = getattr(data.get("dispatcher"), "py_func", None)
        name = f"{getattr(f, '__module__', '?')}.{getattr(f, '__qualname__', '?')}"
        stack.append([name, str(data.get("args")), time.thread_time(), time.time(), 0.0])
    def on_end(self, event):
        name, sig, c0, w0, child = stack.pop()
        tot = time.thread_time() - c0
        if stack:
            stack[-1][4] += tot
        _write({"k": "ev", "name": name, "sig": sig, "cpu": tot, "self": tot - child,
                "t0": w0, "t1": time.time(), "depth": len(stack)})

ev.register("numba:compile", L())

def _traced(label, fn):
    def run(*a, **kw):
        t0 = time.time()
        try:
            return fn(*a, **kw)
        finally:
            _write({"k": "task", "task": label(*a), "t0": t0, "t1": time.time()})
    return run

t_start = time.time()
if what == "sweep":
    import robomaze.bench._warmup as W
    W._run = _traced(lambda task, ctx, metrics: task + (" +metrics" if metrics else ""), W._run)
    import robomaze.bench._warm as w
    stats = dict(w.STATS)
else:
    from robomaze.cli import _stages
    for key, fn in list(_stages.TASKS.items()):
        _stages.TASKS[key] = _traced(lambda spec, key=key: key, fn)
    _orig = _stages.prepare
    stats = {}
    def prepare(spec):
        _orig(spec)
        stats.update(_stages.STATS)
        # the command's own work after the stages
        _write({"k": "task", "task": "(stages done)", "t0": time.time(), "t1": time.time()})
    _stages.prepare = prepare
    from robomaze.cli import main
    try:
        main(argv)
    except SystemExit as exc:   # the command's exit status goes in the record
        stats["exit"] = exc.code
stats.pop("timeline", None)
_write({"k": "end", "t0": t_start, "t1": time.time(), "stats": stats, "main": True})
"""


def run(checkout: Path, command: str | None, processes: int | None,
        warm: str | None = None) -> tuple[list, float]:
    """Run cold once; returns the records of every process and the wall seconds."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_coldstart

    bench_coldstart.ROOT = checkout
    folder = tempfile.mkdtemp(prefix="rm-events-")
    cache = os.path.join(folder, "cache")
    os.mkdir(cache)
    env = dict(os.environ, PYTHONPATH=str(checkout), NUMBA_CACHE_DIR=cache,
               ROBOMAZE_COMPILE_NOTICE="1", ROBOMAZE_SHIPPED_KERNELS="0")  # from scratch
    env.pop("ROBOMAZE_WARM_PROCESSES", None)
    if processes:
        env["ROBOMAZE_WARM_PROCESSES"] = str(processes)
    if command is None:
        env["ROBOMAZE_WARM"] = warm or bench_coldstart._default_list()
        one_thread_pools(env)  # as the runner starts its fork server, where this runs
        argv = ["sweep"]
    else:
        argv = ["cmd", *command.split()]
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", _CHILD, folder, *argv], env=env, cwd=cache,
                   check=False, capture_output=True, text=True)
    wall = time.perf_counter() - t
    recs = []
    for name in os.listdir(folder):
        if name.startswith("ev."):
            pid = int(name.split(".")[1])
            with open(os.path.join(folder, name)) as f:
                for line in f:
                    rec = json.loads(line)
                    rec["pid"] = pid
                    recs.append(rec)
    shutil.rmtree(folder, ignore_errors=True)
    return recs, wall


def report(recs: list, wall: float, top: int, specs: bool, detail: bool = False) -> dict:
    main = next((r["pid"] for r in recs if r["k"] == "end"), None)
    pids = sorted({r["pid"] for r in recs}, key=lambda p: (p != main, p))
    tag = {p: ("main" if p == main else f"helper{i}") for i, p in enumerate(pids)}
    evs = [r for r in recs if r["k"] == "ev"]
    tasks = [r for r in recs if r["k"] == "task"]

    def task_of(e):
        best = None
        for t in tasks:
            if t["pid"] == e["pid"] and t["t0"] <= e["t0"] <= t["t1"]:
                if best is None or t["t0"] > best["t0"]:   # the innermost
                    best = t
        return best["task"] if best else "(outside tasks)"

    t0 = min(r["t0"] for r in recs)
    print(f"wall {wall:.1f} s; processes {len(pids)}")
    out: dict = {"wall": wall, "processes": {}}
    for p in pids:
        mine = [e for e in evs if e["pid"] == p]
        cpu = sum(e["cpu"] for e in mine if e["depth"] == 0)
        last = max((e["t1"] for e in mine), default=t0)
        print(f"  {tag[p]:8s} pid {p}: {len(mine):4d} kernels, compile CPU {cpu:6.2f} s, "
              f"last compile ends at {last - t0:5.1f} s")
        out["processes"][tag[p]] = {"kernels": len(mine), "compile_cpu": cpu}
    print("\ntasks (process, start-end s, compile CPU of outermost events inside):")
    for t in sorted(tasks, key=lambda t: t["t0"]):
        inside = [e for e in evs if e["pid"] == t["pid"] and e["depth"] == 0
                  and t["t0"] <= e["t0"] <= t["t1"]]
        print(f"  {tag[t['pid']]:8s} {t['t0'] - t0:6.1f}-{t['t1'] - t0:6.1f}  "
              f"{sum(e['cpu'] for e in inside):6.2f} s {len(inside):3d} top-level  {t['task']}")
        if detail:
            for e in inside:
                nested = sum(1 for x in evs if x["pid"] == e["pid"] and x["depth"] > 0
                             and e["t0"] <= x["t0"] <= e["t1"])
                print(f"{'':30s}{e['cpu']:6.2f} s  {e['name']} (+{nested} nested)")
    outside = [e for e in evs if e["depth"] == 0 and task_of(e) == "(outside tasks)"]
    if outside:
        print("outside the tasks (the command's own work after its stages):")
        for e in outside:
            print(f"  {tag[e['pid']]:8s} {e['t0'] - t0:6.1f}  {e['cpu']:6.2f} s  {e['name']}")
    by_key = collections.defaultdict(list)
    for e in evs:
        by_key[(e["name"], e["sig"])].append(e)
    dup = {k: v for k, v in by_key.items() if len({e["pid"] for e in v}) > 1}
    dup_cpu = sum(min(e["self"] for e in v) for v in dup.values())
    print(f"\ncompiled in more than one process: {len(dup)} specialisations, "
          f"~{dup_cpu:.2f} s exclusive CPU each time")
    for (name, sig), v in sorted(dup.items(), key=lambda kv: -max(e["self"] for e in kv[1])):
        where = ", ".join(f"{tag[e['pid']]}@{task_of(e)} {e['self']:.2f}s" for e in v)
        print(f"  {name} {sig[:90]}\n      {where}")
    out["duplicates"] = [{"name": k[0], "sig": k[1], "where": [[tag[e["pid"]], task_of(e),
                                                                 e["self"]] for e in v]}
                         for k, v in dup.items()]
    per_name = collections.defaultdict(lambda: [0, 0.0, set()])
    for e in evs:
        row = per_name[e["name"]]
        row[0] += 1
        row[1] += e["self"]
        row[2].add(e["sig"])
    print(f"\nkernels by exclusive compile CPU (top {top}): seconds, events, signatures")
    for name, (n, s, sigs) in sorted(per_name.items(), key=lambda kv: -kv[1][1])[:top]:
        print(f"  {s:6.2f} s {n:3d}x {len(sigs):2d} sig  {name}")
    if specs:
        print("\nkernels with more than one signature:")
        for name, (n, s, sigs) in sorted(per_name.items(), key=lambda kv: -kv[1][1]):
            if len(sigs) > 1:
                print(f"  {name} ({s:.2f} s)")
                for sig in sorted(sigs):
                    cpu = sum(e["self"] for e in evs if e["name"] == name and e["sig"] == sig)
                    print(f"      {cpu:5.2f} s  {sig[:240]}")
    out["kernels"] = {k: [v[0], v[1], sorted(v[2])] for k, v in per_name.items()}
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--checkout", default=str(ROOT))
    ap.add_argument("--command", help="a robomaze command line (default: the sweep's warm-up)")
    ap.add_argument("--processes", type=int, help="ROBOMAZE_WARM_PROCESSES")
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("--specialisations", action="store_true")
    ap.add_argument("--detail", action="store_true",
                    help="each task's outermost kernels with their inclusive compile CPU")
    ap.add_argument("--warm", help="a ROBOMAZE_WARM list for the warm-up (default: the default "
                    "sweep's; e.g. bench_compile.py's tiny sweep: "
                    "generate:kruskal,plan:astar,plan:wavefront,shape:disc)")
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    print(f"load {os.getloadavg()[0]:.1f}")
    recs, wall = run(Path(args.checkout).resolve(), args.command, args.processes, args.warm)
    out = report(recs, wall, args.top, args.specialisations, args.detail)
    print(f"load {os.getloadavg()[0]:.1f}")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
