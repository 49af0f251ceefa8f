"""Cold start and fixed cost of ``robomaze bench`` (issue 12: < 20 s compile, < 1.5 s fixed).

Three measurements, each in fresh processes of this checkout:

* ``--cold N``: the bench warm-up of the default sweep's kernels with an
  empty numba cache (a new ``NUMBA_CACHE_DIR`` each time), ``N`` times in
  one process (``ROBOMAZE_WARM_PROCESSES=1``) and ``N`` times with the
  default number of processes, interleaved (with ``--compare DIR``, also
  another checkout's warm-up, e.g. before this change); wall time, the
  compile summary line, and the load average before each run (the machine
  is shared).
* ``--first``: the whole first ``robomaze bench -o results`` (default
  sweep, 1440 runs) with an empty cache, then the same again cached.
* ``--fixed N``: the fixed cost of a cached invocation: a 1-run sweep
  (``robomaze bench tiny.toml -o DIR --no-report -q``), ``N`` times after
  one warming run.
* ``--reinstall``: a first ``robomaze plan prim 15x15`` with an empty
  cache from one copy of the package, then the same from a second copy at
  another path (a reinstall of the same version) sharing the cache: wall
  time and kernels compiled by each (issue 22: the second compiles nothing).

Medians are printed. Writes ``benchmarks/results/coldstart.json``.

Usage::

    python benchmarks/bench_coldstart.py [--cold 3] [--fixed 5] [--first] [--compare DIR] [--checkout DIR]
"""

from __future__ import annotations

import argparse
import json
import os
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
planner = "astar"
"""


def _env(**extra) -> dict:
    # cold means compiled from scratch, not seeded from a wheel's shipped kernels
    env = dict(os.environ, PYTHONPATH=str(ROOT), ROBOMAZE_SHIPPED_KERNELS="0", **extra)
    env.pop("ROBOMAZE_WARM_PROCESSES", None)
    env.update(extra)
    return env


def _load() -> float:
    return os.getloadavg()[0]


def _default_list() -> str:
    """The default sweep's ``ROBOMAZE_WARM`` list, as the runner makes it."""
    path = ROOT / "robomaze" / "data" / "samples" / "scenarios" / "default.toml"
    code = ("from robomaze.bench.scenario import load_sweep; "
            "from robomaze.bench.runner import _warm_list; "
            f"print(_warm_list(load_sweep({str(path)!r}).scenarios))")
    return subprocess.run([sys.executable, "-c", code], env=_env(), check=True,
                          capture_output=True, text=True).stdout.strip()


def cold(n: int, wanted: str, compare: str | None = None) -> dict:
    modes = [("one", ROOT, {"ROBOMAZE_WARM_PROCESSES": "1"}), ("default", ROOT, {})]
    if compare:  # another checkout (e.g. main before this change), its default
        modes.insert(0, ("compare", Path(compare).resolve(), {}))
    out: dict = {m: [] for m, _, _ in modes}
    code = ("import json, time; t = time.perf_counter(); import robomaze.bench._warm as w; "
            "print(json.dumps(dict(getattr(w, 'STATS', {}), wall=time.perf_counter() - t)))")
    for i in range(n):
        for mode, root, extra in modes:
            cache = tempfile.mkdtemp(prefix="rm-cold-")
            env = _env(NUMBA_CACHE_DIR=cache, ROBOMAZE_WARM=wanted, ROBOMAZE_COMPILE_NOTICE="1",
                       **extra)
            env["PYTHONPATH"] = str(root)
            one_thread_pools(env)  # as the runner starts its fork server, where this runs
            load = _load()
            # cwd: not a checkout (``python -c`` puts the working directory
            # before PYTHONPATH, so --compare would measure this one twice)
            proc = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                                  capture_output=True, text=True, cwd=cache)
            shutil.rmtree(cache, ignore_errors=True)
            row = json.loads(proc.stdout.strip().splitlines()[-1])
            row.pop("timeline", None)
            row["load"] = load
            row["notice"] = [ln for ln in proc.stderr.splitlines() if "compiled" in ln]
            out[mode].append(row)
            print(f"cold {mode:7s} #{i + 1}: {row['wall']:5.1f} s, load {load:.1f}: "
                  f"{' '.join(row['notice'])}", flush=True)
    for mode, _, _ in modes:
        out[f"{mode}_median"] = statistics.median(r["wall"] for r in out[mode])
    return out


def first() -> dict:
    cache = tempfile.mkdtemp(prefix="rm-first-")
    work = tempfile.mkdtemp(prefix="rm-first-out-")
    out = {}
    try:
        for label in ("cold", "cached"):
            load = _load()
            t = time.perf_counter()
            subprocess.run([sys.executable, "-m", "robomaze", "bench", "-o",
                            os.path.join(work, label), "-q"], cwd=work, check=True,
                           env=_env(NUMBA_CACHE_DIR=cache), capture_output=True)
            out[label] = {"wall": time.perf_counter() - t, "load": load}
            print(f"first bench, {label}: {out[label]['wall']:.1f} s (load {load:.1f})",
                  flush=True)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)
    return out


def fixed(n: int) -> dict:
    work = tempfile.mkdtemp(prefix="rm-fixed-")
    try:
        Path(work, "tiny.toml").write_text(TINY)
        times = []
        for i in range(n + 1):
            out = os.path.join(work, f"o{i}")
            load = _load()
            t = time.perf_counter()
            subprocess.run([sys.executable, "-m", "robomaze", "bench", "tiny.toml", "-o", out,
                            "--no-report", "-q"], cwd=work, check=True, env=_env(),
                           capture_output=True)
            if i:  # the first run may compile
                times.append({"wall": time.perf_counter() - t, "load": load})
        med = statistics.median(r["wall"] for r in times)
        each = ", ".join(f"{r['wall']:.2f}" for r in times)
        print(f"fixed cost: median {med:.2f} s over {n} runs ({each})", flush=True)
        return {"runs": times, "median": med}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def reinstall() -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="rm-reinstall-"))
    out = {}
    try:
        for site in ("site-a", "site-b"):
            shutil.copytree(ROOT / "robomaze", tmp / site / "robomaze",
                            ignore=shutil.ignore_patterns("__pycache__"))
        for site in ("site-a", "site-b"):
            env = _env(NUMBA_CACHE_DIR=str(tmp / "cache"), ROBOMAZE_COMPILE_NOTICE="1")
            env["PYTHONPATH"] = str(tmp / site)
            load = _load()
            t = time.perf_counter()
            proc = subprocess.run([sys.executable, "-m", "robomaze", "plan", "prim", "15x15",
                                   "--seed", "1"], cwd=tmp / site, env=env, check=True,
                                  capture_output=True, text=True)
            notice = [ln for ln in proc.stderr.splitlines() if "compiled" in ln]
            out[site] = {"wall": time.perf_counter() - t, "load": load, "notice": notice}
            print(f"reinstall {site}: {out[site]['wall']:.1f} s (load {load:.1f}) "
                  f"{' '.join(notice) or 'nothing compiled'}", flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return out


def main(argv=None) -> int:
    global ROOT
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cold", type=int, default=3, help="cold warm-ups per mode (0: skip)")
    ap.add_argument("--fixed", type=int, default=5, help="cached 1-run sweeps (0: skip)")
    ap.add_argument("--first", action="store_true", help="also the whole first default bench")
    ap.add_argument("--reinstall", action="store_true",
                    help="also a first command from a fresh copy, then from a second copy")
    ap.add_argument("--compare", help="also the cold warm-up of this checkout, interleaved "
                    "(e.g. an export of the commit before: git archive REV | tar -x -C DIR)")
    ap.add_argument("--checkout", default=str(ROOT),
                    help="the robomaze checkout to measure (default: this one)")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "coldstart.json"))
    args = ap.parse_args(argv)
    ROOT = Path(args.checkout).resolve()
    res: dict = {"cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                 else os.cpu_count()}
    if args.cold:
        res["cold"] = cold(args.cold, _default_list(), args.compare)
        print("cold warm-up median: " + ", ".join(
            f"{k[:-7]} {v:.1f} s" for k, v in res["cold"].items() if k.endswith("_median")))
    if args.first:
        res["first"] = first()
    if args.reinstall:
        res["reinstall"] = reinstall()
    if args.fixed:
        res["fixed"] = fixed(args.fixed)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
