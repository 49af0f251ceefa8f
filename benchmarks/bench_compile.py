"""First-run compile cost of every ``robomaze`` command (issue 22: <= 5 s each).

Each command of :data:`COMMANDS` runs once in a fresh process of this
checkout with an empty numba cache (a new ``NUMBA_CACHE_DIR``). The child
counts numba's ``numba:compile`` events (one per kernel specialisation
compiled, nested ones included: what ``robomaze: compiled N kernel(s)``
says) and sums the thread CPU seconds of the outermost compiles: the
compile CPU, the primary figure on a shared machine. Also recorded: the
process tree's CPU and wall seconds and the load average before the run,
and the wall seconds of the same command run again on the cache it filled:
``compile wall`` (first-run wall minus cached wall) is what a first run
makes a user wait, the figure the issue's "<= 5 s of compile" is about on
an idle machine. The compile CPU counts the command's own process only;
kernels a command's stage helper (``robomaze.cli._stages``) compiled are in
the kernel count (the summary line) and in the process tree's CPU.
``--one`` also runs each command with ``ROBOMAZE_WARM_PROCESSES=1``.
Commands that compile in other processes (``bench``) are counted by the
compile summary line they print; their compile CPU is not measured (the
fork server's CPU is not in the process tree's figure either).

``--sweep N`` also runs the default sweep's warm-up cold, as
``benchmarks/bench_coldstart.py --cold`` does: ``N`` times in one process
and ``N`` times with the default number of processes, interleaved.

``--repeat N`` runs the whole list ``N`` times, interleaved (command after
command, then again), and prints medians. ``--kernels`` prints each
command's compiled kernels (name and exclusive compile CPU).

Writes ``benchmarks/results/compile.json``.

Usage::

    python benchmarks/bench_compile.py [--repeat 1] [--sweep 0] [--only plan] [--kernels]
        [--compare DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from robomaze._threads import one_thread_pools

ROOT = Path(__file__).resolve().parents[1]

TINY = """name = "tiny"
seed = 1
[maze]
generator = "kruskal"
rows = 3
cols = 3
[widen]
corridor = 3
resolution = 0.1
[robot]
footprint = "disc:0.04"
[run]
planner = ["astar", "wavefront"]
"""

GYM = ("import gymnasium as gym, robomaze; env = gym.make('robomaze/Maze-v0'); "
       "env.reset(seed=1); [env.step(env.action_space.sample()) for _ in range(5)]")

#: (label, argv after ``robomaze``, or ``py:CODE``). ``{tmp}`` is a scratch folder.
COMMANDS: list[tuple[str, str]] = [
    ("generate prim", "generate prim 10x10 --seed 1"),
    ("generate kruskal", "generate kruskal 10x10 --seed 1"),
    ("generate kruskal tiled", "generate kruskal 250x250 --seed 1"),  # above 40,000 cells
    ("generate backtracker", "generate backtracker 10x10 --seed 1"),
    ("generate wilson", "generate wilson 10x10 --seed 1"),
    ("generate aldous_broder", "generate aldous_broder 10x10 --seed 1"),
    ("generate prim_frontier", "generate prim_frontier 10x10 --seed 1"),
    ("generate hunt_and_kill", "generate hunt_and_kill 10x10 --seed 1"),
    ("generate growing_tree", "generate growing_tree 10x10 --seed 1"),
    ("generate sidewinder", "generate sidewinder 10x10 --seed 1"),
    ("generate binary_tree", "generate binary_tree 10x10 --seed 1"),
    ("generate division", "generate division 10x10 --seed 1"),
    ("generate eller", "generate eller 10x10 --seed 1"),
    ("generate wall_adder", "generate wall_adder 10x10 --seed 1"),
    ("generate scheme_dfs", "generate scheme_dfs 10x10 --seed 1"),
    ("generate mst", "generate mst 10x10 --seed 1"),
    ("generate -o grid.npy",
     "generate wilson 10x10 --seed 3 --corridor 3 --wall 1 -o {tmp}/grid.npy"),
    ("stats", "stats kruskal 20x20 --seed 3"),
    ("render png", "render pkg:micromouse/tiny-4x4.txt -o {tmp}/m.png --corridor 3"),
    ("plan prim (astar)", "plan prim 15x15 --seed 1"),
    ("plan astar disc", "plan kruskal 10x10 --seed 1 --method astar --footprint disc:0.1"),
    ("plan dijkstra", "plan kruskal 10x10 --seed 1 --method dijkstra"),
    ("plan wavefront", "plan kruskal 10x10 --seed 1 --method wavefront"),
    ("plan theta_star", "plan kruskal 10x10 --seed 1 --method theta_star"),
    ("plan max_clearance", "plan kruskal 10x10 --seed 1 --method max_clearance "
                           "--footprint disc:0.15"),
    ("plan collision_free rect", "plan kruskal 6x6 --seed 1 --method collision_free "
                                 "--footprint rect:0.3x0.2"),
    ("plan classic tremaux", "plan kruskal 10x10 --seed 1 --method tremaux"),
    ("plan classic wall_follower", "plan kruskal 10x10 --seed 1 --method wall_follower"),
    ("plan dead_end_filling", "plan kruskal 10x10 --seed 1 --method dead_end_filling"),
    ("simulate prim (follow_plan)", "simulate prim 10x10 --seed 1"),
    ("simulate explore", "simulate kruskal 10x10 --seed 1 --agent explore"),
    ("simulate wall_follow", "simulate kruskal 10x10 --seed 1 --agent wall_follow"),
    ("simulate tremaux", "simulate kruskal 10x10 --seed 1 --agent tremaux"),
    ("simulate car_pursuit", "simulate kruskal 6x6 --seed 1 --agent car_pursuit "
                             "--option turning_radius=0.2"),
    ("simulate localize mcl", "simulate kruskal 6x6 --seed 1 --localize mcl"),
    ("mouse solve", "mouse solve pkg:micromouse/16MM2019CX.maze"),
    ("mouse route", "mouse route pkg:micromouse/16MM2019CX.maze"),
    ("movingai batch", "movingai pkg:movingai/maze512-1-0.map.scen --limit 50 --quiet"),
    ("score", "score pkg:walks/sample-walk.jsonl"),
    ("replay png", "replay pkg:walks/sample-walk.jsonl -o {tmp}/walk.png"),
    ("bench tiny sweep", "bench {tmp}/tiny.toml -o {tmp}/out --no-report -q"),
    ("gym env step", "py:" + GYM),
]

_CHILD = r"""
import json, sys, time
from numba.core import event as ev
out, argv = sys.argv[1], sys.argv[2:]
depth = [0]; rec = {"kernels": 0, "compile_cpu": 0.0, "list": {}}
stack = []
class L(ev.Listener):
    def on_start(self, event):
        rec["kernels"] += 1
        disp = (event.data or {}).get("dispatcher")
        f = getattr(disp, "py_func", None)
        stack.append([f"{getattr(f, '__module__', '?')}.{getattr(f, '__qualname__', '?')}",
                      time.thread_time(), 0.0])
    def on_end(self, event):
        name, t0, child = stack.pop()
        tot = time.thread_time() - t0
        if stack:
            stack[-1][2] += tot
        else:
            rec["compile_cpu"] += tot
        k = rec["list"].setdefault(name, [0, 0.0])
        k[0] += 1
        k[1] += tot - child
ev.register("numba:compile", L())
rc = 0
try:
    if argv[0] == "py":
        exec(argv[1], {"__name__": "__main__"})
    else:
        from robomaze.cli import main
        rc = main(argv)
except SystemExit as e:
    rc = e.code if isinstance(e.code, int) else 1
rec["rc"] = rc
with open(out, "w") as f:
    json.dump(rec, f)
"""


def _env(root: Path | None = None, **extra) -> dict:
    # ROBOMAZE_SHIPPED_KERNELS=0: cold means compiled from scratch, never the kernels a
    # wheel build shipped (benchmarks/bench_install.py measures those)
    env = dict(os.environ, PYTHONPATH=str(root or ROOT), ROBOMAZE_COMPILE_NOTICE="1",
               ROBOMAZE_SHIPPED_KERNELS="0", **extra)
    env.pop("ROBOMAZE_WARM_PROCESSES", None)
    env.update(extra)
    return env


def _load() -> float:
    return os.getloadavg()[0]


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def run_one(label: str, spec: str, root: Path | None = None, processes: int | None = None
            ) -> dict:
    """One command, cold: kernels, compile CPU, process-tree CPU and wall, load;
    then again with the cache it filled: ``wall_cached``, and ``compile_wall``
    (the wait a first run adds: ``wall - wall_cached``).

    ``processes``: ``ROBOMAZE_WARM_PROCESSES`` for the command (None: the
    default, one per core up to two for a command's stages)."""
    tmp = tempfile.mkdtemp(prefix="rm-compile-")
    cache = os.path.join(tmp, "cache")
    Path(tmp, "tiny.toml").write_text(TINY)
    out = os.path.join(tmp, "rec.json")
    if spec.startswith("py:"):
        argv = ["py", spec[3:]]
    else:
        argv = spec.format(tmp=tmp).split()
    extra = {} if processes is None else {"ROBOMAZE_WARM_PROCESSES": str(processes)}
    load = _load()
    cpu0 = _children_cpu()
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", _CHILD, out, *argv], cwd=tmp,
                          env=_env(root, NUMBA_CACHE_DIR=cache, **extra), capture_output=True,
                          text=True)
    wall = time.perf_counter() - t
    cpu = _children_cpu() - cpu0
    try:
        rec = json.loads(Path(out).read_text())
    except (OSError, ValueError):
        rec = {"kernels": None, "compile_cpu": None, "list": {}, "rc": proc.returncode}
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", _CHILD, out + ".2", *argv], cwd=tmp,
                   env=_env(root, NUMBA_CACHE_DIR=cache, **extra), capture_output=True)
    wall_cached = time.perf_counter() - t
    shutil.rmtree(tmp, ignore_errors=True)
    notice = [ln for ln in proc.stderr.splitlines() if "compiled" in ln and "kernel" in ln]
    m = re.search(r"compiled (\d+) kernel", notice[-1]) if notice else None
    # bench/warmup compile in other processes: their summary line counts them all
    if m and (rec["kernels"] is None or int(m.group(1)) > rec["kernels"]):
        rec["kernels_total"] = int(m.group(1))
    row = {"label": label, "command": spec, "kernels": rec["kernels"],
           "kernels_total": rec.get("kernels_total", rec["kernels"]),
           "compile_cpu": rec["compile_cpu"], "cpu": cpu, "wall": wall, "load": load,
           "wall_cached": wall_cached, "compile_wall": wall - wall_cached,
           "rc": rec.get("rc", proc.returncode), "list": rec.get("list", {})}
    if row["rc"] not in (0, None):
        row["stderr"] = proc.stderr[-600:]
    return row


def sweep(n: int, compare: Path | None = None) -> dict:
    """The default sweep's warm-up, cold, as ``bench_coldstart.py --cold`` runs it
    (with ``compare``, that checkout's too, interleaved)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_coldstart

    bench_coldstart.ROOT = ROOT
    wanted = bench_coldstart._default_list()
    modes = [("one", ROOT, {"ROBOMAZE_WARM_PROCESSES": "1"}), ("default", ROOT, {})]
    if compare:
        modes = [("compare_one", compare, {"ROBOMAZE_WARM_PROCESSES": "1"}), modes[0],
                 ("compare_default", compare, {}), modes[1]]
    code = ("import json, time; t = time.perf_counter(); import robomaze.bench._warm as w; "
            "print(json.dumps(dict(getattr(w, 'STATS', {}), wall=time.perf_counter() - t)))")
    res: dict = {m: [] for m, _, _ in modes}
    for i in range(n):
        for mode, root, extra in modes:
            cache = tempfile.mkdtemp(prefix="rm-cold-")
            env = _env(root, NUMBA_CACHE_DIR=cache, ROBOMAZE_WARM=wanted, **extra)
            one_thread_pools(env)  # as the runner starts its fork server, where this runs
            load = _load()
            cpu0 = _children_cpu()
            # cwd: the cache folder, not a checkout (``python -c`` puts the
            # working directory before PYTHONPATH on sys.path)
            proc = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                                  capture_output=True, text=True, cwd=cache)
            cpu = _children_cpu() - cpu0
            shutil.rmtree(cache, ignore_errors=True)
            row = json.loads(proc.stdout.strip().splitlines()[-1])
            row.pop("timeline", None)
            row.update(load=load, cpu=cpu,
                       kernels=row.get("compiled_here", 0) + row.get("compiled_helpers", 0))
            res[mode].append(row)
            print(f"sweep warm-up {mode:15s} #{i + 1}: wall {row['wall']:5.1f} s, CPU "
                  f"{cpu:5.1f} s, {row['kernels']} kernels, {row.get('processes')} "
                  f"process(es), load {load:.1f}", flush=True)
    for mode, _, _ in modes:
        for key in ("wall", "cpu"):
            res[f"{mode}_{key}_median"] = statistics.median(r[key] for r in res[mode])
    return res


def main(argv=None) -> int:
    global ROOT
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=1, help="interleaved passes over the list")
    ap.add_argument("--sweep", type=int, default=0,
                    help="cold default-sweep warm-ups per mode (0: skip)")
    ap.add_argument("--only", help="only commands whose label contains this text")
    ap.add_argument("--kernels", action="store_true", help="list each command's kernels")
    ap.add_argument("--checkout", default=str(ROOT), help="the checkout to measure")
    ap.add_argument("--compare", help="also this checkout (e.g. the commit before: git archive "
                    "REV | tar -x -C DIR), each command right before this one's run")
    ap.add_argument("--one", action="store_true",
                    help="also each command with ROBOMAZE_WARM_PROCESSES=1 (its stages "
                         "compiled in its own process), right before its default run")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "compile.json"))
    args = ap.parse_args(argv)
    ROOT = Path(args.checkout).resolve()
    compare = Path(args.compare).resolve() if args.compare else None
    cmds = [c for c in COMMANDS if not args.only or args.only in c[0]]
    res: dict = {"cores": len(os.sched_getaffinity(0)), "checkout": str(ROOT),
                 "compare": str(compare) if compare else None,
                 "commands": {label: [] for label, _ in cmds},
                 "compare_commands": {label: [] for label, _ in cmds},
                 "one_commands": {label: [] for label, _ in cmds}}
    roots = [("compare_commands", compare, "before ", None),
             ("one_commands", ROOT if args.one else None, "1 proc ", 1),
             ("commands", ROOT, "", None)]
    for i in range(args.repeat):
        for label, spec in cmds:
            for key, root, tag, nproc in roots:
                if root is None:
                    continue
                row = run_one(label, spec, root, nproc)
                res[key][label].append(row)
                flag = "" if row["rc"] in (0, None) else f"  rc={row['rc']}"
                print(f"#{i + 1} {tag + label:35s} {row['kernels_total'] or 0:4d} kernels  "
                      f"compile CPU {row['compile_cpu'] or 0:5.2f} s  CPU {row['cpu']:5.2f} s  wall "
                      f"{row['wall']:5.2f} s  cached {row['wall_cached']:4.2f} s  load "
                      f"{row['load']:4.1f}{flag}", flush=True)
                if args.kernels:
                    for name, (n, s) in sorted(row["list"].items(), key=lambda kv: -kv[1][1]):
                        print(f"      {s:6.2f} s {n:3d}x {name}")
    for key, root, tag, _ in roots:
        if root is None:
            continue
        print(f"\n{tag or 'this checkout'} ({root}), medians:")
        print(f"{'command':28s} {'kernels':>7s} {'compile CPU (s)':>15s} {'CPU (s)':>8s} "
              f"{'wall (s)':>8s} {'compile wall':>12s} {'load':>9s}")
        for label, rows in res[key].items():
            med = {k: statistics.median(r[k] or 0 for r in rows)
                   for k in ("kernels_total", "compile_cpu", "cpu", "wall", "compile_wall")}
            loads = [r["load"] for r in rows]
            print(f"{label:28s} {med['kernels_total']:7.0f} {med['compile_cpu']:15.2f} "
                  f"{med['cpu']:8.2f} {med['wall']:8.2f} {med['compile_wall']:12.2f} "
                  f"{min(loads):4.1f}-{max(loads):<4.1f}")
    if args.sweep:
        res["sweep"] = sweep(args.sweep, compare)
        s = res["sweep"]
        print(f"default-sweep warm-up medians: one process wall {s['one_wall_median']:.1f} s "
              f"CPU {s['one_cpu_median']:.1f} s; default wall {s['default_wall_median']:.1f} s "
              f"CPU {s['default_cpu_median']:.1f} s")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
