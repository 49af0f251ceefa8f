"""The first run after ``pip install``: shipped kernels against a compile from scratch.

A wheel build compiles robomaze's kernels into the package
(robomaze/_compile/shipped.py); a user's first run then copies them into
the empty user cache and loads them. This script measures that, as a user
meets it:

1. **build** a wheel of the checkout (a copy of its working tree, so no
   old ``build/`` folder leaks in) with ``pip wheel --no-deps``: the wall
   and process-tree CPU seconds, the load, the wheel's size and how much
   of it is kernels;
2. **install** it into a fresh virtualenv (``--system-site-packages`` for
   the dependencies, ``pip install --no-deps`` of the wheel) and check that
   ``robomaze`` imports from the venv, not from an editable checkout;
3. **time** the default sweep's warm-up and each command of
   ``benchmarks/bench_compile.py``'s list in the venv's Python, each with an
   empty user cache (fresh ``XDG_CACHE_HOME`` and ``NUMBA_CACHE_DIR``), in
   two modes interleaved: ``installed`` (the shipped kernels, what a user
   gets) and ``scratch`` (``ROBOMAZE_SHIPPED_KERNELS=0``: the compile from
   scratch of the same install). Each run is followed by a run on the
   cache it filled: ``wait`` = first-run wall minus cached wall, the wait a
   first run adds (``wait_cpu``: the same in process-tree CPU, the figure
   to read under load). Recorded: kernels compiled (numba's compile
   events), process-tree CPU, wall, load.

Writes ``benchmarks/results/install.json``.

Usage::

    python benchmarks/bench_install.py [--repeat 1] [--only plan] [--wheel FILE]
        [--no-isolation] [--no-commands] [--no-sweep] [--keep-wheel DIR]
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
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_compile  # noqa: E402  (the command list and its child script)

MODES = {"installed": {}, "scratch": {"ROBOMAZE_SHIPPED_KERNELS": "0"}}


def _cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def _load() -> float:
    return os.getloadavg()[0]


def _env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "ROBOMAZE_SHIPPED_KERNELS", "ROBOMAZE_WARM",
                        "ROBOMAZE_WARM_PROCESSES", "NUMBA_CACHE_LOCATOR_CLASSES",
                        "VIRTUAL_ENV")}
    env.update(ROBOMAZE_COMPILE_NOTICE="1", **extra)
    return env


def build(checkout: Path, out: Path, isolation: bool) -> dict:
    """``pip wheel`` of a copy of ``checkout``: seconds, CPU, load, the wheel and its size."""
    src = out / "src"
    shutil.copytree(checkout, src, ignore=shutil.ignore_patterns(
        ".git", "build", "dist", "*.egg-info", "__pycache__", "_kernels", "results",
        ".hypothesis", "docs"))
    cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(out / "dist"), str(src)]
    if not isolation:  # the environment's own setuptools (>= 77) and numba
        cmd.insert(4, "--no-build-isolation")
    load, cpu0, t = _load(), _cpu(), time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=_env(), cwd=out)
    wall, cpu = time.perf_counter() - t, _cpu() - cpu0
    if proc.returncode != 0:
        raise SystemExit(f"pip wheel failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    wheel = next((out / "dist").glob("robomaze-*.whl"))
    with zipfile.ZipFile(wheel) as z:
        kernels = [i for i in z.infolist() if "/_kernels/" in i.filename]
        n_files = len(z.infolist())
    notes = [ln for ln in proc.stderr.splitlines() if ln.startswith("robomaze:")]
    return {"command": " ".join(cmd[2:]), "wall": wall, "cpu": cpu, "load": load,
            "wheel": wheel.name, "bytes": wheel.stat().st_size, "files": n_files,
            "kernel_files": len(kernels),
            "kernel_bytes_compressed": sum(i.compress_size for i in kernels),
            "kernel_bytes": sum(i.file_size for i in kernels), "notes": notes}


def install(wheel: Path, out: Path) -> Path:
    """A fresh venv (system site-packages for the dependencies) with the wheel; its python."""
    venv = out / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)],
                   check=True, env=_env())
    py = venv / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "--no-deps", "-q", str(wheel)],
                   check=True, env=_env())
    where = subprocess.run([str(py), "-c", "import robomaze; print(robomaze.__file__)"],
                           check=True, capture_output=True, text=True, env=_env(),
                           cwd=out).stdout.strip()
    if not where.startswith(str(venv)):
        raise SystemExit(f"robomaze imports from {where}, not from the venv {venv}")
    return py


def _fresh(tmp: Path, mode: str) -> dict:
    home = Path(tempfile.mkdtemp(prefix="rm-user-", dir=tmp))
    return _env(XDG_CACHE_HOME=str(home / "xdg"), NUMBA_CACHE_DIR=str(home / "numba"),
                **MODES[mode]), home


def command(py: Path, label: str, spec: str, mode: str, tmp: Path) -> dict:
    """One command's first run and a second run on the cache it filled."""
    env, home = _fresh(tmp, mode)
    work = home / "work"
    work.mkdir()
    (work / "tiny.toml").write_text(bench_compile.TINY)
    argv = ["py", spec[3:]] if spec.startswith("py:") else spec.format(tmp=work).split()
    rec = home / "rec.json"
    load, cpu0, t = _load(), _cpu(), time.perf_counter()
    proc = subprocess.run([str(py), "-c", bench_compile._CHILD, str(rec), *argv], cwd=work,
                          env=env, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - t, _cpu() - cpu0
    cpu0, t = _cpu(), time.perf_counter()
    subprocess.run([str(py), "-c", bench_compile._CHILD, str(rec) + ".2", *argv], cwd=work,
                   env=env, capture_output=True)
    cached, cpu_cached = time.perf_counter() - t, _cpu() - cpu0
    try:
        got = json.loads(rec.read_text())
    except (OSError, ValueError):
        got = {"kernels": None, "rc": proc.returncode}
    shutil.rmtree(home, ignore_errors=True)
    row = {"label": label, "mode": mode, "kernels": got.get("kernels"), "cpu": cpu,
           "cpu_cached": cpu_cached, "wait_cpu": cpu - cpu_cached,
           "wall": wall, "wall_cached": cached, "wait": wall - cached, "load": load,
           "rc": got.get("rc", proc.returncode)}
    if row["rc"] not in (0, None):
        row["stderr"] = proc.stderr[-600:]
    return row


def sweep(py: Path, mode: str, tmp: Path, wanted: str) -> dict:
    """The default sweep's warm-up (as bench_compile.py --sweep runs it)."""
    env, home = _fresh(tmp, mode)
    env["ROBOMAZE_WARM"] = wanted
    code = ("import json, time; t = time.perf_counter(); import robomaze.bench._warm as w; "
            "print(json.dumps(dict(getattr(w, 'STATS', {}), wall=time.perf_counter() - t)))")
    load, cpu0 = _load(), _cpu()
    proc = subprocess.run([str(py), "-c", code], env=env, check=True, capture_output=True,
                          text=True, cwd=home)
    cpu = _cpu() - cpu0
    shutil.rmtree(home, ignore_errors=True)
    row = json.loads(proc.stdout.strip().splitlines()[-1])
    row.pop("timeline", None)
    return {"mode": mode, "wall": row["wall"], "cpu": cpu, "load": load,
            "kernels": row.get("compiled_here", 0) + row.get("compiled_helpers", 0),
            "processes": row.get("processes")}


def _default_list(py: Path) -> str:
    code = ("from robomaze.cli._first_runs import default_sweep_list; "
            "print(default_sweep_list())")
    return subprocess.run([str(py), "-c", code], env=_env(), check=True, capture_output=True,
                          text=True).stdout.strip()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--checkout", default=str(ROOT))
    ap.add_argument("--wheel", help="an already built wheel (skip the build)")
    ap.add_argument("--no-isolation", action="store_true",
                    help="pip wheel --no-build-isolation (default: pip's isolated build "
                         "environment, as `pip install .` builds)")
    ap.add_argument("--repeat", type=int, default=1, help="interleaved passes")
    ap.add_argument("--only", help="only commands whose label contains this text")
    ap.add_argument("--no-commands", action="store_true")
    ap.add_argument("--no-sweep", action="store_true")
    ap.add_argument("--keep-wheel", help="copy the built wheel to this folder (for --wheel)")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "install.json"))
    args = ap.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="rm-install-"))
    res: dict = {"cores": len(os.sched_getaffinity(0)), "checkout": args.checkout}
    try:
        if args.wheel:
            wheel = Path(args.wheel).resolve()
        else:
            res["build"] = b = build(Path(args.checkout).resolve(), tmp, not args.no_isolation)
            wheel = tmp / "dist" / b["wheel"]
            if args.keep_wheel:
                Path(args.keep_wheel).mkdir(parents=True, exist_ok=True)
                shutil.copy(wheel, args.keep_wheel)
            print(f"build: {b['wall']:.1f} s wall, {b['cpu']:.1f} s CPU (load {b['load']:.1f}); "
                  f"{b['wheel']} {b['bytes'] / 1e6:.1f} MB, kernels {b['kernel_files']} files "
                  f"{b['kernel_bytes'] / 1e6:.1f} MB ({b['kernel_bytes_compressed'] / 1e6:.1f} "
                  f"MB compressed)", flush=True)
            for note in b["notes"]:
                print("   ", note)
        py = install(wheel, tmp)
        cmds = [] if args.no_commands else [
            c for c in bench_compile.COMMANDS if not args.only or args.only in c[0]]
        wanted = None if args.no_sweep else _default_list(py)
        res["sweep"], res["commands"] = [], []
        for i in range(args.repeat):
            for mode in MODES:
                if wanted is not None:
                    row = sweep(py, mode, tmp, wanted)
                    res["sweep"].append(row)
                    print(f"#{i + 1} sweep warm-up {mode:9s} wall {row['wall']:5.2f} s CPU "
                          f"{row['cpu']:5.2f} s {row['kernels']:3d} kernels load "
                          f"{row['load']:.1f}", flush=True)
            for label, spec in cmds:
                for mode in MODES:
                    row = command(py, label, spec, mode, tmp)
                    res["commands"].append(row)
                    flag = "" if row["rc"] in (0, None) else f" rc={row['rc']}"
                    print(f"#{i + 1} {label:28s} {mode:9s} {row['kernels'] or 0:4d} kernels "
                          f"CPU {row['cpu']:5.2f} s (cached {row['cpu_cached']:4.2f} s) wall "
                          f"{row['wall']:5.2f} s (cached {row['wall_cached']:4.2f} s) wait "
                          f"{row['wait']:5.2f} s load {row['load']:.1f}{flag}", flush=True)
        print("\nmedians (first-run wait = wall - cached wall):")
        for mode in MODES:
            rows = [r for r in res["sweep"] if r["mode"] == mode]
            if rows:
                wall = statistics.median(r["wall"] for r in rows)
                print(f"  sweep warm-up {mode:9s} wall {wall:5.2f} s CPU "
                      f"{statistics.median(r['cpu'] for r in rows):5.2f} s")
        for label, _ in cmds:
            line = f"  {label:28s}"
            for mode in MODES:
                rows = [r for r in res["commands"] if r["label"] == label and r["mode"] == mode]
                line += (f"  {mode} wait {statistics.median(r['wait'] for r in rows):5.2f} s "
                         f"CPU {statistics.median(r['cpu'] for r in rows):5.2f} s "
                         f"(+{statistics.median(r['wait_cpu'] for r in rows):5.2f} s) "
                         f"k {statistics.median(r['kernels'] or 0 for r in rows):3.0f}")
            print(line)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
