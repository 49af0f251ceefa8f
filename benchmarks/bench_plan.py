"""Benchmark robomaze's planners side by side with the peers a user would pick.

On widened mazes (an ``N x N`` maze, corridor 3, wall 1, so a
``4N+1``-square grid; by default N = 1000 and 2000, i.e. 4001 x 4001 and
8001 x 8001 grids) this times, in one run:

* the full wavefront field from the goal (``wavefront_field``, 4-connected,
  the public call including validation and C-space) against

  - a plain C BFS (``benchmarks/bfs_ref.c``, compiled here with
    ``gcc -O3 -march=native`` into a temporary directory; it reads the same
    free mask from a raw file and times itself, excluding I/O) -- target:
    the public call >= 0.9x the C speed;
  - ``scipy.sparse.csgraph.shortest_path(unweighted=True)`` including the
    construction of the CSR grid graph -- target: robomaze >= 10x faster;
  - ``skimage.graph.MCP`` (``find_costs`` from the goal, unit costs,
    4-connected) -- target: robomaze >= 10x faster;

  scipy and MCP run on grids up to ``--peer-max`` cells a side (default
  8001, i.e. all; the scipy graph of the 8001 grid takes the run to a peak
  of ~5.8 GB resident -- lower it on a small machine). All fields are
  checked equal.

* single-pair A* (4-connected) from the maze start to the goal: robomaze's
  public ``astar`` (validation, search, path and its footprint-clearance
  measures included) against ``pyastar2d.astar_path`` on the same grid
  (obstacles as ``inf`` weights, prepared outside the timing) -- target:
  at least as fast. Path lengths are checked equal.

* 8-connected A* and Dijkstra (no corner cutting) between ``--pairs``
  random free cells of a ``--astar-maze`` maze widened with one-cell
  corridors (1000: a 2001 x 2001 grid): the core engine
  (``robomaze._search.shortest_path``, search and cell path) and the public
  ``astar`` / ``dijkstra`` calls against a plain C++ A* of the same rules
  (``benchmarks/astar_ref.cpp``, compiled here with ``g++ -O3
  -march=native``; it times itself, parents and path included, file I/O
  excluded). Lengths and expansions are checked equal -- target: the public
  calls >= 0.9x the C++ speed.

* ``collision_free`` for footprints (``--fp-cases SPEC@MAZE ...``, 16 heading
  bins, 4-connected) against the point-robot ``astar`` between the maze
  start and goal of a MAZE x MAZE backtracker maze widened with corridor 7,
  wall 1 at 0.1 m (63, 125, 250: 505, 1001, 2001-square grids); by default
  ``rect:0.3x0.2`` at the three sizes and ``rect:0.5x0.3`` at 2001 -- target
  (issue 22): <= 8x the point A*. Lengths are reported, load averages too.

Times are the **median of ``--repeat`` interleaved runs** (contenders
alternate run by run, so both see the same background load), after JIT
warm-up. Every contender is single-threaded, so the ratios use *CPU time*
(``time.process_time`` here, the process CPU clock inside the C/C++
programs): on a shared, loaded machine wall time mostly measures the
neighbours. Wall times are recorded too.
Prints a table and writes ``benchmarks/results/plan.json``.

Usage::

    python benchmarks/bench_plan.py [--sizes 1000 2000] [--repeat 5]
        [--peer-max 8001] [--seed 1] [--astar-maze 1000] [--pairs 20]
        [--fp-cases rect:0.3x0.2@63 ...] [--fp-headings 16]
        [--skip wavefront astar8 footprint] [--out PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from robomaze import _search as core
from robomaze import widen
from robomaze.geometry import Footprint
from robomaze.plan import astar, collision_free, dijkstra, wavefront_field

HERE = Path(__file__).resolve().parent


def timed(fn):
    """``(wall s, cpu s, result)`` of one call; CPU = this process's user + system time."""
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return time.perf_counter() - t0, time.process_time() - c0, out


class Best:
    """Median wall and CPU time of the runs recorded so far (interleaved repetitions)."""

    def __init__(self):
        self.walls, self.cpus = [], []

    def add(self, wall, cpu):
        self.walls.append(wall)
        self.cpus.append(cpu)

    @property
    def wall(self):
        return float(np.median(self.walls)) if self.walls else float("inf")

    @property
    def cpu(self):
        return float(np.median(self.cpus)) if self.cpus else float("inf")


def make_maze(n: int, seed: int):
    from robomaze.generate import generate

    return generate("backtracker", n, n, rng=seed)


def grid_graph(free: np.ndarray):
    import scipy.sparse as sp

    R, C = free.shape
    idx = np.arange(R * C, dtype=np.int64).reshape(R, C)
    e = free[:, :-1] & free[:, 1:]
    s = free[:-1, :] & free[1:, :]
    a = np.concatenate([idx[:, :-1][e], idx[:-1, :][s]])
    b = np.concatenate([idx[:, 1:][e], idx[1:, :][s]])
    w = np.ones(a.size, np.int8)
    return sp.csr_matrix((w, (a, b)), shape=(R * C, R * C))


def scipy_field(free, goal):
    from scipy.sparse import csgraph

    d = csgraph.shortest_path(grid_graph(free), unweighted=True, directed=False,
                              indices=goal[0] * free.shape[1] + goal[1])
    return d


def mcp_field(free, goal):
    from skimage.graph import MCP

    costs = np.where(free, 1.0, -1.0)       # negative = impassable
    m = MCP(costs, fully_connected=False)
    cum, _ = m.find_costs([goal])
    return cum


def c_bfs(exe: Path, raw: Path, shape, goal):
    """One run of the C reference: ``(wall, cpu, reached, sum, max)``."""
    out = subprocess.run([str(exe), str(raw), str(shape[0]), str(shape[1]),
                          str(goal[0] * shape[1] + goal[1]), "1"],
                         check=True, capture_output=True, text=True).stdout.split()
    return float(out[0]), float(out[1]), int(out[2]), int(out[3]), int(out[4])


def cpp_astar(exe: Path, raw: Path, shape, pairs_txt: Path, mode: str):
    """One run of the C++ reference: ``(wall, cpu, lengths, expanded, cells)``."""
    out = subprocess.run([str(exe), str(raw), str(shape[0]), str(shape[1]), str(pairs_txt), mode],
                         check=True, capture_output=True, text=True).stdout.splitlines()
    rows = [line.split() for line in out[:-1]]
    wall, cpu = map(float, out[-1].split())
    return (wall, cpu, [float(r[0]) for r in rows], [int(r[1]) for r in rows],
            [int(r[2]) for r in rows])


def bench_astar8(gxx: str, tmp: Path, n: int, npairs: int, repeat: int, seed: int) -> dict:
    """8-connected A* / Dijkstra: core engine and public calls vs the C++ reference."""
    exe = tmp / "astar_ref"
    subprocess.run([gxx, "-O3", "-march=native", "-o", str(exe), str(HERE / "astar_ref.cpp")],
                   check=True)
    grid = widen(make_maze(n, seed), corridor=1, wall=1)
    free = grid.free
    rng = np.random.default_rng(seed)
    pairs = rng.choice(np.flatnonzero(free), (npairs, 2))
    raw, ptxt = tmp / "g8.raw", tmp / "pairs.txt"
    np.ascontiguousarray(free, dtype=np.uint8).ravel().tofile(raw)
    np.savetxt(ptxt, pairs, fmt="%d")
    cols = grid.cols
    cells = [(tuple(divmod(int(a), cols)), tuple(divmod(int(b), cols))) for a, b in pairs]
    row = {"grid": f"{grid.rows}x{grid.cols}", "pairs": npairs}
    for mode, hmode, public in (("astar", 2, astar), ("dijkstra", 0, dijkstra)):
        eng, pub, ref = Best(), Best(), Best()
        for _ in range(repeat):
            w, c, res = timed(lambda: [core.shortest_path(free, int(a), int(b), conn8=True,
                                                          hmode=hmode) for a, b in pairs])
            eng.add(w, c)
            w, c, paths = timed(lambda: [public(grid, s, g, connectivity=8) for s, g in cells])
            pub.add(w, c)
            w, c, lens, exps, ncells = cpp_astar(exe, raw, grid.shape, ptxt, mode)
            ref.add(w, c)
        assert [e for _, e in res] == exps, f"{mode}: C++ and engine expansions differ"
        assert [len(p) for p, _ in res] == ncells, f"{mode}: C++ and engine paths differ"
        assert np.allclose([p.length for p in paths], lens), f"{mode}: lengths differ"
        row.update({f"{mode}_engine_cpu_s": eng.cpu, f"{mode}_public_cpu_s": pub.cpu,
                    f"{mode}_cpp_cpu_s": ref.cpu, f"{mode}_engine_wall_s": eng.wall,
                    f"{mode}_cpp_wall_s": ref.wall,
                    f"{mode}_expanded": int(sum(exps)),
                    f"{mode}_engine_vs_cpp": ref.cpu / eng.cpu,
                    f"{mode}_public_vs_cpp": ref.cpu / pub.cpu})
    return row


#: Default footprint cases: ``SPEC@MAZE`` -- a backtracker maze of MAZE x MAZE cells (seed
#: ``--seed``) widened with corridor 7, wall 1 at 0.1 m, so a (8 MAZE + 1)-square grid:
#: 63 -> 505, 125 -> 1001, 250 -> 2001. The 0.5 x 0.3 row is the earlier README case.
FP_CASES = ["rect:0.3x0.2@63", "rect:0.3x0.2@125", "rect:0.3x0.2@250", "rect:0.5x0.3@250"]


def _fp_case(text: str):
    spec, _, n = text.rpartition("@")
    if not spec or not n.isdigit():
        raise SystemExit(f"--fp-cases: expected SPEC@MAZE (e.g. rect:0.3x0.2@63), got {text!r}")
    Footprint.from_spec(spec)                  # a bad spec fails here, before any timing
    return spec, int(n)


def bench_footprint(cases, repeat: int, seed: int, headings: int = 16) -> list:
    """Footprint ``collision_free`` vs point A* on the same grids and endpoints, interleaved.

    ``cases``: ``(footprint spec, maze size)``; every repetition runs every
    case, point A* then the footprint, so all see the same background load.
    A fresh ``Footprint`` each run: nothing cached per footprint carries over.
    """
    grids = {}
    for _, n in cases:
        if n not in grids:
            g = widen(make_maze(n, seed), corridor=7, wall=1, resolution=0.1)
            grids[n] = (g, *g.start_goal())
    small = widen(make_maze(4, 0), corridor=7, wall=1, resolution=0.1)
    s0, g0 = small.start_goal()
    for spec, _ in cases:                               # JIT warm-up
        collision_free(small, s0, g0, footprint=Footprint.from_spec(spec), headings=headings)
    astar(small, s0, g0)
    load0 = os.getloadavg()
    pts = [Best() for _ in cases]
    fps = [Best() for _ in cases]
    last = [None] * len(cases)
    for _ in range(repeat):
        for i, (spec, n) in enumerate(cases):
            grid, start, goal = grids[n]
            w, c, p = timed(lambda: astar(grid, start, goal))
            pts[i].add(w, c)
            w, c, q = timed(lambda: collision_free(grid, start, goal, headings=headings,
                                                   footprint=Footprint.from_spec(spec)))
            fps[i].add(w, c)
            last[i] = (p, q)
    load1 = os.getloadavg()
    rows = []
    for i, (spec, n) in enumerate(cases):
        grid = grids[n][0]
        p, q = last[i]
        assert q.collision_free
        rows.append({"footprint": spec, "headings": headings, "maze": n,
                     "grid": f"{grid.rows}x{grid.cols}", "point_astar_cpu_s": pts[i].cpu,
                     "rect_cpu_s": fps[i].cpu, "rect_over_point": fps[i].cpu / pts[i].cpu,
                     "point_astar_wall_s": pts[i].wall, "rect_wall_s": fps[i].wall,
                     "point_length_m": p.length, "rect_length_m": q.length,
                     "point_expanded": p.expanded, "rect_expanded": q.expanded,
                     "load_before": load0, "load_after": load1})
    return rows


def _version(dist: str) -> str:
    from importlib.metadata import version

    return version(dist)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 2000])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--peer-max", type=int, default=8001)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--astar-maze", type=int, default=1000)
    ap.add_argument("--pairs", type=int, default=20)
    ap.add_argument("--fp-cases", nargs="+", default=FP_CASES, metavar="SPEC@MAZE",
                    help="footprint cases (default: %(default)s)")
    ap.add_argument("--fp-headings", type=int, default=16)
    ap.add_argument("--skip", nargs="*", default=[],
                    choices=["wavefront", "astar8", "footprint"])
    ap.add_argument("--out", default=str(HERE / "results" / "plan.json"))
    args = ap.parse_args(argv)

    gcc, gxx = shutil.which("gcc"), shutil.which("g++")
    if gcc is None or gxx is None:
        print("gcc/g++ not found: the C/C++ references cannot be built", file=sys.stderr)
        return 1
    try:
        import pyastar2d
    except ImportError:
        pyastar2d = None
        print("pyastar2d not installed (pip install pyastar2d): A* comparison skipped",
              file=sys.stderr)

    try:
        import skimage  # noqa: F401
        have_mcp = True
    except ImportError:
        have_mcp = False
        print("scikit-image not installed: MCP comparison skipped", file=sys.stderr)

    # JIT warm-up on a small grid so no timing includes compilation
    small = widen(make_maze(8, 0), corridor=3, wall=1)
    s0, g0 = small.start_goal()
    wavefront_field(small, g0)
    astar(small, s0, g0)

    rows_out = []
    extra = {}
    with tempfile.TemporaryDirectory() as td:
        tmp = Path(td)
        if "astar8" not in args.skip:
            extra["astar8"] = bench_astar8(gxx, tmp, args.astar_maze, args.pairs, args.repeat,
                                           args.seed)
            print(json.dumps(extra["astar8"]), file=sys.stderr)
        if "footprint" not in args.skip:
            extra["footprint"] = bench_footprint([_fp_case(t) for t in args.fp_cases],
                                                 args.repeat, args.seed, args.fp_headings)
            for r in extra["footprint"]:
                print(json.dumps(r), file=sys.stderr)
        exe = tmp / "bfs_ref"
        subprocess.run([gcc, "-O3", "-march=native", "-o", str(exe), str(HERE / "bfs_ref.c")],
                       check=True)
        for n in ([] if "wavefront" in args.skip else args.sizes):
            t0 = time.perf_counter()
            maze = make_maze(n, args.seed)
            grid = widen(maze, corridor=3, wall=1)
            t_build = time.perf_counter() - t0
            start, goal = grid.start_goal()
            free = grid.free
            side = grid.rows
            row = {"maze": n, "grid": f"{grid.rows}x{grid.cols}", "free_cells": int(free.sum()),
                   "t_build_s": t_build}

            # robomaze and C alternate, so both see the same background load
            f8 = np.ascontiguousarray(free, dtype=np.uint8).ravel()
            gi = goal[0] * grid.cols + goal[1]
            raw = tmp / "grid.raw"
            f8.tofile(raw)
            ours, kern, cref = Best(), Best(), Best()
            for _ in range(args.repeat):
                w, c, field = timed(lambda: wavefront_field(grid, goal))
                ours.add(w, c)
                w, c, _ = timed(lambda: core.bfs_field(f8, grid.rows, grid.cols, gi, False))
                kern.add(w, c)
                w, c, reached, total, maxd = c_bfs(exe, raw, grid.shape, goal)
                cref.add(w, c)
            raw.unlink()
            reach = field >= 0
            assert reached == int(reach.sum()) and total == int(field[reach].sum(dtype=np.int64)) \
                and maxd == int(field.max()), "C BFS and robomaze fields differ"
            row.update(wavefront_wall_s=ours.wall, wavefront_cpu_s=ours.cpu,
                       kernel_wall_s=kern.wall, kernel_cpu_s=kern.cpu,
                       c_bfs_wall_s=cref.wall, c_bfs_cpu_s=cref.cpu,
                       speed_vs_c=cref.cpu / ours.cpu)

            row["border_free_cells"] = int(free[0].sum() + free[-1].sum() + free[:, 0].sum()
                                           + free[:, -1].sum())
            if side <= args.peer_max:
                w, c, d = timed(lambda: scipy_field(free, goal))
                ref = np.where(np.isinf(d), -1, d).reshape(grid.shape)
                assert np.array_equal(ref[free], field[free]), "scipy field differs"
                row.update(scipy_wall_s=w, scipy_cpu_s=c, ratio_scipy=c / ours.cpu)
                del d, ref
                if have_mcp:
                    w, c, cum = timed(lambda: mcp_field(free, goal))
                    ok = np.isfinite(cum) & free
                    # MCP counts the cost of the start cell too
                    assert np.array_equal(cum[ok].astype(np.int64) - 1, field[ok]), \
                        "MCP field differs"
                    row.update(mcp_wall_s=w, mcp_cpu_s=c, ratio_mcp=c / ours.cpu)
                    del cum
            del field

            ours = Best()
            py = Best()
            w32 = np.where(free, np.float32(1.0), np.float32(np.inf)).astype(np.float32)
            for _ in range(args.repeat):
                w, c, p = timed(lambda: astar(grid, start, goal))
                ours.add(w, c)
                if pyastar2d is not None:
                    w, c, q = timed(lambda: pyastar2d.astar_path(w32, start, goal,
                                                                 allow_diagonal=False))
                    py.add(w, c)
                    assert q is not None and len(q) - 1 == int(round(p.length)), \
                        "pyastar2d and robomaze A* lengths differ"
                    del q
            row.update(astar_wall_s=ours.wall, astar_cpu_s=ours.cpu, astar_length=p.length,
                       astar_expanded=p.expanded)
            if pyastar2d is not None:
                row.update(pyastar2d_wall_s=py.wall, pyastar2d_cpu_s=py.cpu,
                           ratio_pyastar2d=py.cpu / ours.cpu)
            w32 = p = None  # free the big arrays before the next grid
            rows_out.append(row)
            print(json.dumps({k: (round(v, 4) if isinstance(v, float) else v)
                              for k, v in row.items()}), file=sys.stderr)

    if "astar8" in extra:
        r = extra["astar8"]
        print(f"8-connected, {r['grid']}, {r['pairs']} pairs, CPU s (median): "
              f"A* engine {r['astar_engine_cpu_s']:.3f} public {r['astar_public_cpu_s']:.3f} "
              f"C++ {r['astar_cpp_cpu_s']:.3f} -> {r['astar_engine_vs_cpp']:.2f}x; "
              f"Dijkstra engine {r['dijkstra_engine_cpu_s']:.3f} public "
              f"{r['dijkstra_public_cpu_s']:.3f} C++ {r['dijkstra_cpp_cpu_s']:.3f} -> "
              f"{r['dijkstra_engine_vs_cpp']:.2f}x")
    for r in extra.get("footprint", []):
        print(f"collision_free {r['footprint']} ({r['headings']} bins), {r['grid']}: "
              f"{r['rect_cpu_s']:.4f} s vs point A* {r['point_astar_cpu_s']:.4f} s -> "
              f"{r['rect_over_point']:.2f}x (lengths {r['point_length_m']:.1f} / "
              f"{r['rect_length_m']:.1f} m; load {r['load_before'][0]:.1f}-"
              f"{r['load_after'][0]:.1f})")
    print("CPU seconds (median of runs); x = peer time / robomaze time")
    hdr = (f"{'grid':>11} {'ours':>7} {'kernel':>7} {'C':>7} {'vs C':>5} {'scipy':>7} "
           f"{'x':>5} {'MCP':>7} {'x':>5} | {'A*':>6} {'pyastar':>7} {'x':>5}")
    print(hdr)
    for r in rows_out:
        def f(k, fmt="7.3f"):
            return format(r[k], fmt) if k in r else format("-", ">" + fmt.split(".")[0])
        print(f"{r['grid']:>11} {f('wavefront_cpu_s')} {f('kernel_cpu_s')} {f('c_bfs_cpu_s')} "
              f"{f('speed_vs_c', '5.2f')} {f('scipy_cpu_s')} {f('ratio_scipy', '5.1f')} "
              f"{f('mcp_cpu_s')} {f('ratio_mcp', '5.1f')} | {f('astar_cpu_s', '6.3f')} "
              f"{f('pyastar2d_cpu_s', '7.3f')} {f('ratio_pyastar2d', '5.2f')}")

    meta = {"python": sys.version.split()[0], "platform": platform.platform(),
            "cpu_count": os.cpu_count(), "numpy": np.__version__,
            "gcc": subprocess.run([gcc, "--version"], capture_output=True,
                                  text=True).stdout.splitlines()[0],
            "repeat": args.repeat, "seed": args.seed, "generator": "backtracker",
            "corridor": 3, "wall": 1, "peer_max": args.peer_max,
            "pyastar2d": _version("pyastar2d") if pyastar2d else None}
    try:
        import scipy
        meta.update(scipy=scipy.__version__)
        import skimage
        meta.update(skimage=skimage.__version__)
    except ImportError:
        pass
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"meta": meta, "results": rows_out, **extra}, indent=2) + "\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
