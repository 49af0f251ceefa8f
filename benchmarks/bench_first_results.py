"""Time to first results (issue 39): a cold ``robomaze bench -o results`` up to its
report, and the micromouse sweep, each phase timed, wall and CPU time.

Every run is a fresh process tree of this checkout (``PYTHONPATH``), with:

* ``--cold N``: the default sweep ``robomaze bench -o DIR`` with an empty numba
  cache (a new ``NUMBA_CACHE_DIR``): compile, 1,440 runs and the report;
* ``--mm N``: ``robomaze bench pkg:scenarios/micromouse.toml -o DIR`` with the
  numba cache warm (the kernels this checkout compiled before), report included;
* ``--compare DIR``: the same measurements of another checkout (e.g. the commit
  before: ``git worktree add /tmp/old COMMIT``), interleaved with this one's.

Phases come from the command's own stderr lines, stamped as they arrive:
``warm-up`` (start to the progress bar's first line: workers start, kernels
compile), ``runs`` (to the "N ran" line), ``report`` (to the end). CPU time is
the whole process tree's (a cgroup v1 ``cpuacct`` group when this runs as root
with one, else the children's ``getrusage``, which misses the fork server's
workers). The load average is read before and after every run: the machine
is shared, so compare CPU times, and wall times only at the same load.

Writes ``benchmarks/results/first_results.json`` and prints one line per run
and the medians.

Usage::

    python benchmarks/bench_first_results.py [--cold 1] [--mm 1] [--compare DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CGROUP = Path("/sys/fs/cgroup/cpuacct")


def _load() -> str:
    return Path("/proc/loadavg").read_text().split()[0]


class _CpuGroup:
    """CPU time of a process tree: a cpuacct cgroup, or getrusage of children."""

    def __init__(self) -> None:
        self.path = None
        if CGROUP.is_dir() and os.access(CGROUP, os.W_OK):
            p = CGROUP / f"robomaze-bench-{os.getpid()}-{time.monotonic_ns()}"
            try:
                p.mkdir()
                self.path = p
            except OSError:
                self.path = None
        self.ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)

    def preexec(self):
        if self.path is None:
            return None
        tasks = self.path / "tasks"
        return lambda: tasks.write_text(str(os.getpid()))

    def seconds(self) -> tuple[float, str]:
        if self.path is not None:
            return int((self.path / "cpuacct.usage").read_text()) / 1e9, "cgroup"
        ru = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (ru.ru_utime + ru.ru_stime - self.ru0.ru_utime - self.ru0.ru_stime,
                "rusage (misses the workers)")

    def close(self) -> None:
        if self.path is not None:
            try:
                self.path.rmdir()
            except OSError:
                pass


def run(checkout: Path, args: list[str], *, cold: bool) -> dict:
    work = Path(tempfile.mkdtemp(prefix="robomaze-first-"))
    env = dict(os.environ, PYTHONPATH=str(checkout))
    env.pop("ROBOMAZE_PLUGINS", None)
    if cold:
        env["NUMBA_CACHE_DIR"] = str(work / "numba-cache")
    group = _CpuGroup()
    load0 = _load()
    stamps: dict[str, float] = {}
    t0 = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "robomaze", "bench", *args,
                             "-o", str(work / "out")], cwd=work, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=group.preexec())
    lines: list[str] = []

    cpu_at: dict[str, float] = {}

    def read_err():
        for raw in proc.stderr:
            for line in raw.replace("\r", "\n").splitlines():
                now = time.monotonic() - t0
                lines.append(f"{now:7.1f} {line}")
                if line.startswith("bench [") and "bar" not in stamps:
                    stamps["bar"] = now
                    cpu_at["bar"] = group.seconds()[0]
                if " ran, " in line:
                    stamps["runs"] = now
                    cpu_at["runs"] = group.seconds()[0]
                if "compiled" in line and "kernel" in line:
                    stamps.setdefault("compiled", now)

    reader = threading.Thread(target=read_err)
    reader.start()
    out = proc.stdout.read()
    proc.wait()
    reader.join()
    wall = time.monotonic() - t0
    cpu, how = group.seconds()
    group.close()
    report = (work / "out" / "report.md").is_file()
    shutil.rmtree(work, ignore_errors=True)
    warm = stamps.get("bar", float("nan"))
    runs = stamps.get("runs", float("nan"))
    return {"checkout": str(checkout), "args": args, "cold": cold, "exit": proc.returncode,
            "wall_s": round(wall, 1), "cpu_s": round(cpu, 1), "cpu_source": how,
            "warmup_s": round(warm, 1), "runs_s": round(runs - warm, 1),
            "report_s": round(wall - runs, 1), "report_md": report,
            "cpu_warmup_s": round(cpu_at.get("bar", float("nan")), 1),
            "cpu_runs_s": round(cpu_at.get("runs", float("nan")) - cpu_at.get("bar", float("nan")), 1),
            "cpu_report_s": round(cpu - cpu_at.get("runs", float("nan")), 1),
            "load_before": load0, "load_after": _load(), "stdout": out[-400:],
            "stderr_tail": lines[-6:]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cold", type=int, default=1, help="cold default sweeps per checkout")
    ap.add_argument("--mm", type=int, default=1, help="micromouse sweeps per checkout")
    ap.add_argument("--compare", type=Path, default=None, help="another checkout to interleave")
    ap.add_argument("--json", type=Path, default=ROOT / "benchmarks" / "results" / "first_results.json",
                    help="where to write the runs (default benchmarks/results/first_results.json)")
    args = ap.parse_args()
    checkouts = [ROOT] + ([args.compare.resolve()] if args.compare else [])
    results = []
    jobs = ([("cold default", [], True)] * args.cold
            + [("micromouse", ["pkg:scenarios/micromouse.toml"], False)] * args.mm)
    for name, cmd, cold in jobs:
        for co in checkouts:   # interleaved: the same load for both
            r = run(co, cmd, cold=cold)
            r["what"] = name
            results.append(r)
            print(f"{name:13} {co.name:12} wall {r['wall_s']:6.1f} s  (warm-up {r['warmup_s']}, "
                  f"runs {r['runs_s']}, report {r['report_s']})  cpu {r['cpu_s']} s "
                  f"({r['cpu_warmup_s']} + {r['cpu_runs_s']} + {r['cpu_report_s']})  "
                  f"load {r['load_before']} -> {r['load_after']}  exit {r['exit']}", flush=True)
    for name in dict.fromkeys(r["what"] for r in results):
        for co in checkouts:
            sel = [r for r in results if r["what"] == name and r["checkout"] == str(co)]
            if sel:
                print(f"median {name:13} {co.name:12} wall "
                      f"{statistics.median(r['wall_s'] for r in sel):.1f} s  cpu "
                      f"{statistics.median(r['cpu_s'] for r in sel):.1f} s  (n={len(sel)})")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
