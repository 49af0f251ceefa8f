"""Issue 22's measurements: start-up, the wavefront against native BFS and the
memory-bandwidth floor, jump point search against plain and native A*.

All in one process, contenders interleaved repetition by repetition (median
of ``--repeat``), process CPU time for the ratios (the machine is shared),
``os.getloadavg()`` recorded before each section. Native references are
compiled here twice, with ``-O3 -march=native`` and with ``-O2``, and both
ratios are written down.

* ``startup``: ``robomaze --version`` and ``robomaze --help`` in fresh
  processes (wall and child CPU time), and whether numba was imported.
* ``wavefront``: on ``N x N`` backtracker mazes widened with corridor 3,
  wall 1 (``4N+1`` grids; default N = 1000, 2000), plus corridor 1 and 9
  at about 4001^2 (``--corridors``, which also takes braided mazes): the
  public ``wavefront_field`` (on these mazes the closed form of
  ``robomaze._search._blockwave``; the row records which path ran), the
  scalar kernel
  (``robomaze._search.bfs_field``), the bit-parallel experiment
  (``benchmarks/bitwave.py``) and the C BFS (``bfs_ref.c``); fields checked
  equal. The *floor* is the field's unavoidable traffic (the uint8 mask
  read once, the int32 labels written once) at the bandwidth measured here
  by a numpy copy of a 256 MiB array, once before and once after the row's
  repetitions (the lower is used: a busier machine moves it); *floor_cpu*
  is the same traffic at the copy's bandwidth by CPU time (the higher of
  the two readings), which a loaded machine does not pull down by taking
  the core away mid-copy: the stricter floor. *floor_bfs_cpu* is the
  floor as issue 22 counted it ("about 1.2 GB of traffic" at 8001^2): the
  compulsory traffic of the textbook queue BFS it measured (``bfs_ref.c``:
  the mask read, the int32 field initialised, then read and written back
  once a cell, each free cell's int32 written to the queue and read back:
  13 B a cell + 8 B a free cell, 1.18 GB at 8001^2, corridor 3) at the
  copy's CPU-time bandwidth. The closed form moves less than that (it
  never initialises the field nor keeps a queue), so the strict *floor*
  above is the one it is held to first. *fresh* is a
  new int32 array of the grid's size written once (``np.empty`` + ``fill``).
  It runs first in every repetition: on a VM that hands freed memory back to
  the host after a few idle seconds (free page reporting), the first touch
  of such memory costs far more than its traffic (here 260-370 ms for 256
  MiB against 15 ms when the guest still holds the pages), and each
  contender would pay it or not depending on what ran before it. After
  *fresh*, every contender finds the pages in the guest. The *cold* figures
  (one call each after 4 s idle) show what a first call pays on such a VM.
  *fresh_warm* is a second *fresh* right after it (the guest holds the
  pages: what a new array costs when the VM has not taken them back) and
  *reuse* the same fill into an array allocated once: *fresh_warm* minus
  *reuse* is what the kernel charges for a new array's pages (faults and
  zeroing), which every implementation returning a new field pays; hence
  the second ratio, public / *fresh_warm*. On the closed form's rows the two
  phases are also timed apart (``phase_walk``: ``_walk`` over the maze's
  cells; ``phase_write``: ``_write`` into a reused array).
* ``jps``: 8-connected octile A* between ``--pairs`` random free cells of
  kruskal mazes widened with corridor 1, 3 and 9 (about 4001^2 grids): the
  engine's plain A* (``shortest_path``), jump point search
  (``jump_point_path``), the public ``astar`` (JPS, ``Path`` included) and
  the C++ A* (``astar_ref.cpp``, which walks the path back); lengths
  checked equal.

Usage::

    python benchmarks/bench_speed.py [--repeat 5] [--sizes 1000 2000] [--pairs 10]
        [--corridors 1:2000 9:400 (CORRIDOR:N[:BRAID])] [--skip startup wavefront jps]
        [--out benchmarks/results/speed.json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from bench_plan import Best, c_bfs, cpp_astar, make_maze, timed  # noqa: E402
from bitwave import bit_field  # noqa: E402

from robomaze import _search as core  # noqa: E402
from robomaze._search import _blockwave  # noqa: E402
from robomaze import widen  # noqa: E402
from robomaze.generate import generate  # noqa: E402
from robomaze.plan import astar, wavefront_field  # noqa: E402
from robomaze.plan.wavefront import _point_field  # noqa: E402

FLAGS = {"O3native": ["-O3", "-march=native"], "O2": ["-O2"]}


def load() -> float:
    return round(os.getloadavg()[0], 2)


def startup(repeat: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    probe = ("import sys, runpy; sys.argv = ['robomaze', {flag!r}]\n"
             "try:\n    runpy.run_module('robomaze', run_name='__main__')\n"
             "except SystemExit:\n    pass\n"
             "sys.stderr.write('numba' + str('numba' in sys.modules))")
    out = {"load": load()}
    for flag in ("--version", "--help"):
        walls, cpus, numba = [], [], []
        for _ in range(repeat):
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            p = subprocess.run([sys.executable, "-c", probe.format(flag=flag)], env=env,
                               capture_output=True, text=True, check=True)
            walls.append(time.perf_counter() - t0)
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
            numba.append(p.stderr.strip().endswith("True"))
        out[flag] = {"wall_s": float(np.median(walls)), "cpu_s": float(np.median(cpus)),
                     "imports_numba": any(numba)}
    # the interpreter alone, for scale
    walls = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        walls.append(time.perf_counter() - t0)
    out["python_alone_wall_s"] = float(np.median(walls))
    return out


def bandwidth() -> tuple[float, float]:
    """Bytes per second of a numpy copy of 256 MiB (read + write counted): by wall and CPU time.

    The wall figure is the one the floor has always used; on a loaded
    machine a copy can lose the core mid-way and read low, so the CPU-time
    figure (the clock the contenders are timed with) is recorded too: the
    higher bandwidth, the stricter floor.
    """
    a = np.ones(32 * 2**20, np.float64)
    b = np.empty_like(a)
    walls, cpus = [], []
    for _ in range(5):
        t0, c0 = time.perf_counter(), time.process_time()
        np.copyto(b, a)
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return 2 * a.nbytes / min(walls), 2 * a.nbytes / max(min(cpus), 1e-9)


def build(compiler: str, src: Path, exe: Path, flags) -> Path:
    subprocess.run([compiler, *flags, "-o", str(exe), str(src)], check=True)
    return exe


def wavefront(cases, repeat: int, tmp: Path, gcc: str) -> list[dict]:
    """``cases``: ``(maze size N, corridor, braid)``, wall 1."""
    exes = {k: build(gcc, HERE / "bfs_ref.c", tmp / f"bfs_{k}", f) for k, f in FLAGS.items()}
    small = widen(make_maze(8, 0), corridor=3, wall=1)
    wavefront_field(small, small.start_goal()[1])
    bit_field(np.ones(64, np.uint8), 8, 8, 0)  # compile the experiment
    rows = []
    for n, corridor, braid in cases:
        maze = generate("backtracker", n, n, rng=1, braid=braid) if braid else make_maze(n, 1)
        grid = widen(maze, corridor=corridor, wall=1)
        goal = grid.start_goal()[1]
        f8 = np.ascontiguousarray(grid.free, np.uint8).ravel()
        gi = goal[0] * grid.cols + goal[1]
        raw = tmp / "grid.raw"
        f8.tofile(raw)
        row = {"maze": n, "corridor": corridor, "braid": braid, "grid": f"{grid.rows}x{grid.cols}",
               "public_path": _point_field(grid, goal, False)[2], "load_before": load()}
        bws = [bandwidth()]
        time.sleep(4)
        row["public_cold_cpu_s"] = timed(lambda: wavefront_field(grid, goal))[1]
        time.sleep(4)
        row["fresh_cold_cpu_s"] = timed(lambda: np.empty(f8.size, np.int32).fill(-1))[1]
        t = {k: Best() for k in ("fresh", "fresh_warm", "reuse", "public", "scalar", "bitwave",
                                 *exes)}
        reuse = np.empty(f8.size, np.int32)
        reuse.fill(-1)
        walls = _blockwave._walls(grid, goal)
        phases = row["public_path"] == "maze" and walls is not None
        if phases:
            t.update(phase_walk=Best(), phase_write=Best())
            form = np.empty(walls[0].size, np.int64)
            occ = grid.occupied.view(np.uint8).ravel()
        for _ in range(repeat):
            w, c, _ = timed(lambda: np.empty(f8.size, np.int32).fill(-1))
            t["fresh"].add(w, c)
            w, c, _ = timed(lambda: np.empty(f8.size, np.int32).fill(-1))
            t["fresh_warm"].add(w, c)
            w, c, _ = timed(lambda: reuse.fill(-1))
            t["reuse"].add(w, c)
            if phases:
                w, c, _ = timed(lambda: _blockwave._walk(*walls, form))
                t["phase_walk"].add(w, c)
                w, c, _ = timed(lambda: _blockwave._write(occ, *walls, form, reuse))
                t["phase_write"].add(w, c)
            w, c, field = timed(lambda: wavefront_field(grid, goal))
            t["public"].add(w, c)
            w, c, _ = timed(lambda: core.bfs_field(f8, grid.rows, grid.cols, gi, False))
            t["scalar"].add(w, c)
            w, c, bits = timed(lambda: bit_field(f8, grid.rows, grid.cols, gi))
            t["bitwave"].add(w, c)
            for k, exe in exes.items():
                w, c, reached, total, maxd = c_bfs(exe, raw, grid.shape, goal)
                t[k].add(w, c)
        bws.append(bandwidth())
        raw.unlink()
        reach = field >= 0
        scalar = core.bfs_field(f8, grid.rows, grid.cols, gi, False)[0]
        assert np.array_equal(field, scalar) and field.dtype == np.int32, "public field differs"
        assert np.array_equal(bits[0], field), "bit-parallel field differs"
        assert reached == int(reach.sum()) and total == int(field[reach].sum(dtype=np.int64)) \
            and maxd == int(field.max()), "C BFS and robomaze fields differ"
        bw = min(b[0] for b in bws)
        floor = (f8.nbytes + 4 * f8.size) / bw
        bw_cpu = max(b[1] for b in bws)  # the strict floor: the faster reading
        floor_cpu = (f8.nbytes + 4 * f8.size) / bw_cpu
        bfs_bytes = f8.nbytes + 12 * f8.size + 8 * int(np.count_nonzero(f8))
        floor_bfs_cpu = bfs_bytes / bw_cpu
        row.update({f"{k}_cpu_s": v.cpu for k, v in t.items()})
        row.update({f"{k}_wall_s": v.wall for k, v in t.items()})
        row.update(bandwidth_GBps=bw / 1e9, bandwidth_GBps_runs=[b[0] / 1e9 for b in bws],
                   floor_s=floor, load_after=load(),
                   bandwidth_cpu_GBps=bw_cpu / 1e9,
                   bandwidth_cpu_GBps_runs=[b[1] / 1e9 for b in bws], floor_cpu_s=floor_cpu,
                   public_cpu_over_floor_cpu=t["public"].cpu / floor_cpu,
                   bfs_traffic_GB=bfs_bytes / 1e9, floor_bfs_cpu_s=floor_bfs_cpu,
                   public_cpu_over_floor_bfs_cpu=t["public"].cpu / floor_bfs_cpu,
                   c_O3native_cpu_over_floor_bfs_cpu=t["O3native"].cpu / floor_bfs_cpu,
                   public_vs_c_O3native=t["O3native"].cpu / t["public"].cpu,
                   public_vs_c_O2=t["O2"].cpu / t["public"].cpu,
                   bitwave_vs_scalar=t["scalar"].cpu / t["bitwave"].cpu,
                   public_over_floor=t["public"].wall / floor,
                   public_cpu_over_floor=t["public"].cpu / floor,
                   public_cpu_over_fresh=t["public"].cpu / t["fresh"].cpu,
                   public_cpu_over_fresh_warm=t["public"].cpu / t["fresh_warm"].cpu,
                   fresh_warm_cpu_over_floor=t["fresh_warm"].cpu / floor,
                   fresh_warm_cpu_over_floor_cpu=t["fresh_warm"].cpu / floor_cpu)
        if phases:
            assert np.array_equal(reuse.reshape(grid.shape), field), "phase write differs"
            row.update(walk_ns_per_maze_cell=t["phase_walk"].cpu / walls[0].size * 1e9,
                       write_cpu_over_floor=t["phase_write"].cpu / floor,
                       write_cpu_over_floor_cpu=t["phase_write"].cpu / floor_cpu)
        rows.append(row)
        print(json.dumps(row), file=sys.stderr)
    return rows


def jps(npairs: int, repeat: int, tmp: Path, gxx: str) -> list[dict]:
    exes = {k: build(gxx, HERE / "astar_ref.cpp", tmp / f"astar_{k}", f)
            for k, f in FLAGS.items()}
    small = widen(generate("kruskal", 6, 6, rng=0), corridor=3, wall=1)
    s0, g0 = small.start_goal()
    astar(small, s0, g0, connectivity=8)
    rows = []
    for corridor in (1, 3, 9):
        n = 4000 // (corridor + 1)
        grid = widen(generate("kruskal", n, n, rng=1), corridor=corridor, wall=1)
        free = grid.free
        rng = np.random.default_rng(corridor)
        pairs = rng.choice(np.flatnonzero(free), (npairs, 2))
        raw, ptxt = tmp / "g8.raw", tmp / "pairs.txt"
        np.ascontiguousarray(free, dtype=np.uint8).ravel().tofile(raw)
        np.savetxt(ptxt, pairs, fmt="%d")
        cols = grid.cols
        cells = [(tuple(divmod(int(a), cols)), tuple(divmod(int(b), cols))) for a, b in pairs]
        row = {"corridor": corridor, "grid": f"{grid.rows}x{grid.cols}", "pairs": npairs,
               "load_before": load()}
        t = {k: Best() for k in ("astar_engine", "jps_engine", "public", *exes)}
        for _ in range(repeat):
            w, c, plain = timed(lambda: [core.shortest_path(grid, int(a), int(b), conn8=True,
                                                            hmode=2) for a, b in pairs])
            t["astar_engine"].add(w, c)
            w, c, jumps = timed(lambda: [core.jump_point_path(grid, int(a), int(b))
                                         for a, b in pairs])
            t["jps_engine"].add(w, c)
            w, c, paths = timed(lambda: [astar(grid, s, g, connectivity=8) for s, g in cells])
            t["public"].add(w, c)
            for k, exe in exes.items():
                w, c, lens, exps, ncells = cpp_astar(exe, raw, grid.shape, ptxt, "astar")
                t[k].add(w, c)
        raw.unlink()
        assert np.allclose([p.length / grid.resolution for p in paths], lens, rtol=1e-12), \
            "lengths differ"
        row.update({f"{k}_cpu_s": v.cpu for k, v in t.items()})
        row.update(astar_expanded=int(sum(e for _, e in plain)),
                   jps_expanded=int(sum(e for _, e in jumps)), load_after=load(),
                   public_vs_cpp_O3native=t["O3native"].cpu / t["public"].cpu,
                   public_vs_cpp_O2=t["O2"].cpu / t["public"].cpu,
                   jps_vs_astar_engine=t["astar_engine"].cpu / t["jps_engine"].cpu)
        rows.append(row)
        print(json.dumps(row), file=sys.stderr)
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--sizes", type=int, nargs="*", default=[1000, 2000])
    ap.add_argument("--pairs", type=int, default=10)
    ap.add_argument("--corridors", nargs="*", default=["1:2000", "9:400"],
                    help="extra wavefront rows CORRIDOR:N[:BRAID] (backtracker N x N, wall 1)")
    ap.add_argument("--skip", nargs="*", default=[])
    ap.add_argument("--out", default=str(HERE / "results" / "speed.json"))
    args = ap.parse_args(argv)
    gcc = shutil.which("gcc") or "cc"
    gxx = shutil.which("g++") or "c++"
    out = {"platform": platform.platform(), "python": platform.python_version(),
           "cpus": os.cpu_count(), "repeat": args.repeat}
    with tempfile.TemporaryDirectory() as td:
        tmp = Path(td)
        if "startup" not in args.skip:
            out["startup"] = startup(args.repeat)
            print(json.dumps(out["startup"]), file=sys.stderr)
        if "jps" not in args.skip:
            out["jps"] = jps(args.pairs, args.repeat, tmp, gxx)
        if "wavefront" not in args.skip:
            cases = [(n, 3, 0.0) for n in args.sizes]
            for spec in args.corridors:
                k, n, *braid = spec.split(":")
                cases.append((int(n), int(k), float(braid[0]) if braid else 0.0))
            out["wavefront"] = wavefront(cases, args.repeat, tmp, gcc)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
