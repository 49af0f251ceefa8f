"""Issue 40: the MovingAI lengths batch against scipy on maze512-like maps of every corridor width.

MovingAI's maze512-W sets are 512x512 perfect mazes made by HOG2's
``MakeMaze(map, W)``: walls are one-cell lines every ``W + 1`` cells (rows
and columns 0, W+1, 2(W+1), ...), so the ``W x W`` corridor cells start at
1 and the pattern is cut wherever 512 ends it (a partial last band:
corridor cells 1 wide at W = 2, 4, 16, 7 at W = 8, 16 at W = 32); a
growing tree (the newest cell nine times in ten) carves a passage of W
cells through a wall line. Only maze512-1-0 is packaged here (and no other
MovingAI map can be fetched), so the other widths are **stand-ins of that
shape** (``hog2_maze``: the same construction, numpy seed W), plus the
round-5 stand-ins (``widen`` with wall W, padded to 512) as a second wall
width. Random maps are MovingAI's random512-P shape (uniform obstacles, P
= 10, 20, 30, 40 %); rooms: 31x31 rooms, one door in every wall, and a
room512-32 stand-in of HOG2's ``BuildRandomRoomMap`` shape (walls every 32
cells, 80 % of wall segments with 4 random holes).

Each map: ``--problems`` start/goal pairs drawn (``numpy`` seed 40) from the
largest 8-connected component; the batch is
``robomaze._search.path_lengths`` (what ``run_scenarios(method="batch")``
calls), scipy is ``csgraph.dijkstra`` per problem with ``limit`` = the
optimum (the graph built outside the timing), as in ``bench_io.py``. The
component is 8-connected by scipy.ndimage (corner cutting allowed), so a
few pairs of a random map have no path under the no-corner-cutting rule:
the batch's NaN must then be scipy's inf. Every length is checked equal to
scipy's first; then, interleaved, ``--repeat`` times: the whole batch
(``path_lengths``: preparing the map and every pair), the preparation
alone (``_batch.prepare``), the pairs alone on a prepared map, and scipy;
process CPU time, medians; ``os.getloadavg()`` on every row. The ratio is
the whole batch's (preparation included).

Usage::

    python benchmarks/bench_movingai_widths.py [--problems 100] [--repeat 3] [--maps ...]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np
from scipy.ndimage import label
from scipy.sparse import csgraph

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "plan"))

from robomaze import widen  # noqa: E402
from robomaze._search import path_lengths  # noqa: E402
from robomaze._search._batch import prepare  # noqa: E402
from robomaze.generate import generate  # noqa: E402
from robomaze.io import read_grid  # noqa: E402
from test_core_batch import graph8  # noqa: E402

MAI = ROOT / "robomaze" / "data" / "samples" / "movingai"


def maze_map(w: int) -> np.ndarray:
    """Free mask of the round-5 stand-in: corridor and wall ``w`` (``widen``), padded to 512."""
    if w == 1:
        return read_grid(MAI / "maze512-1-0.map").free.copy()
    cells = 512 // (2 * w)
    occ = widen(generate("backtracker", cells, cells, rng=w), corridor=w, wall=w).occupied
    out = np.zeros((512, 512), bool)
    h, c = min(512, occ.shape[0]), min(512, occ.shape[1])
    out[:h, :c] = ~occ[:h, :c]
    return out


def hog2_maze(w: int, size: int = 512, seed: int | None = None) -> np.ndarray:
    """Free mask of a maze512-W stand-in of HOG2's ``MakeMaze`` shape (one-cell walls).

    Wall lines at every multiple of ``w + 1``; maze cell ``(x, y)`` (column,
    row) covers ``[x (w+1) + 1, x (w+1) + w]`` cut at ``size``; a growing
    tree from the middle cell extends its newest cell nine times in ten
    (else one biased to the newer end), trying one random direction and
    the ones after it in the order N, S, E, W, and carves the ``w`` cells
    of the wall line between the two cells.
    """
    box = w + 1
    rng = np.random.default_rng(w if seed is None else seed)
    occ = np.zeros((size, size), bool)
    occ[::box, :] = True
    occ[:, ::box] = True
    n = (size - 2) // box + 1
    seen = np.zeros((n, n), bool)
    x0 = y0 = min(size // (2 * box), n - 1)
    todo = [(x0, y0)]
    seen[y0, x0] = True
    steps = ((0, -1), (0, 1), (1, 0), (-1, 0))          # N, S, E, W
    while todo:
        m = len(todo)
        val = m - 1 if rng.integers(10) != 1 else (int(rng.integers(max(1, 3 * m // 2))) + m // 2) % m
        x, y = todo[val]
        for d in range(int(rng.integers(4)), 4):
            nx, ny = x + steps[d][0], y + steps[d][1]
            if 0 <= nx < n and 0 <= ny < n and not seen[ny, nx]:
                if d == 0:
                    occ[y * box, x * box + 1:x * box + box] = False
                elif d == 1:
                    occ[(y + 1) * box, x * box + 1:x * box + box] = False
                elif d == 2:
                    occ[y * box + 1:y * box + box, (x + 1) * box] = False
                else:
                    occ[y * box + 1:y * box + box, x * box] = False
                seen[ny, nx] = True
                todo.append((nx, ny))
                break
        if all(not (0 <= x + dx < n and 0 <= y + dy < n) or seen[y + dy, x + dx]
               for dx, dy in steps):
            todo[val] = todo[-1]
            todo.pop()
    return ~occ


def hog2_rooms(room: int = 32, size: int = 512, seed: int = 32) -> np.ndarray:
    """Free mask of a room512 stand-in of HOG2's ``BuildRandomRoomMap`` shape (80 % openings)."""
    rng = np.random.default_rng(seed)
    occ = np.zeros((size, size), bool)
    holes = max(room // 8, 1)
    for x in range(0, size, room):
        occ[x, :] = True
        for y in range(0, size, room):
            if rng.integers(100) < 80:
                occ[x, np.minimum(y + 1 + rng.integers(room - 1, size=holes), size - 1)] = False
    for x in range(0, size, room):
        occ[:, x] = True
        for y in range(0, size, room):
            if rng.integers(100) < 80:
                occ[np.minimum(y + 1 + rng.integers(room - 1, size=holes), size - 1), x] = False
    return ~occ


def random_map(p: int) -> np.ndarray:
    return np.random.default_rng(p).random((512, 512)) >= p / 100


def rooms_map() -> np.ndarray:
    occ = np.zeros((512, 512), bool)
    occ[::32, :] = occ[:, ::32] = True
    occ[16::32, ::32] = occ[::32, 16::32] = False
    return ~occ


def pairs(free: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    lab, _ = label(free, structure=np.ones((3, 3)))
    big = np.argmax(np.bincount(lab.ravel())[1:]) + 1
    cells = np.flatnonzero(lab.ravel() == big)
    rng = np.random.default_rng(40)
    return rng.choice(cells, n), rng.choice(cells, n)


def row(name: str, free: np.ndarray, n: int, repeat: int) -> dict:
    s, t = pairs(free, n)
    g = graph8(free)
    ours = path_lengths(free, s, t)

    def scipy_run():
        out = np.empty(n)
        for k in range(n):
            lim = ours[k] + 1e-6 if np.isfinite(ours[k]) else np.inf
            out[k] = csgraph.dijkstra(g, indices=int(s[k]), limit=lim)[t[k]]
        return out

    ref = scipy_run()
    ours_inf = np.where(np.isnan(ours), np.inf, ours)        # the batch's NaN: unreachable
    if not (np.array_equal(np.isinf(ours_inf), np.isinf(ref))
            and np.allclose(ours_inf[np.isfinite(ref)], ref[np.isfinite(ref)], rtol=1e-9,
                            atol=1e-9)):
        raise SystemExit(f"{name}: {int((~np.isclose(ours, ref)).sum())} lengths differ from scipy")
    route = prepare(free, starts=s, nqueries=n).route
    tw, tp, tq, ts = [], [], [], []
    for _ in range(repeat):
        c0 = time.process_time()
        path_lengths(free, s, t)
        tw.append(time.process_time() - c0)
        c0 = time.process_time()
        b = prepare(free, starts=s, nqueries=n)
        tp.append(time.process_time() - c0)
        c0 = time.process_time()
        b.lengths(s, t)
        tq.append(time.process_time() - c0)
        c0 = time.process_time()
        scipy_run()
        ts.append(time.process_time() - c0)
    w, p, q, sc = (float(np.median(x)) for x in (tw, tp, tq, ts))
    return {"map": name, "route": route, "problems": n, "prep_cpu_s": p, "pairs_cpu_s": q,
            "batch_cpu_s": w, "scipy_cpu_s": sc, "batch_vs_scipy": sc / w,
            "pairs_vs_scipy": sc / q, "agree": n, "unreachable": int(np.isinf(ref).sum()),
            "met": sc / w >= 10.0, "load": round(os.getloadavg()[0], 2)}


def markdown(rows) -> str:
    out = ["| map | route | problems | prep CPU (ms) | pairs CPU (ms) | whole batch CPU (ms) "
           "| scipy CPU (s) | whole batch vs scipy | pairs alone vs scipy | agree | >= 10x | load |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|"]
    for r in rows:
        out.append(f"| {r['map']} | {r['route']} | {r['problems']} | {1e3 * r['prep_cpu_s']:.1f} | "
                   f"{1e3 * r['pairs_cpu_s']:.1f} | {1e3 * r['batch_cpu_s']:.1f} | "
                   f"{r['scipy_cpu_s']:.3f} | **{r['batch_vs_scipy']:.1f}x** | "
                   f"{r['pairs_vs_scipy']:.1f}x | {r['agree']}/{r['problems']} | "
                   f"{'met' if r['met'] else 'NOT met'} | {r['load']} |")
    return "\n".join(out)


MAPS = {"maze1": ("maze512-1-0 (packaged)", lambda: maze_map(1))}
MAPS.update({f"maze{w}": (f"maze512-{w} stand-in (HOG2 shape, wall 1)", lambda w=w: hog2_maze(w))
             for w in (2, 4, 8, 16, 32)})
MAPS.update({f"wall{w}": (f"maze512-{w} stand-in (wall {w}, round 5)", lambda w=w: maze_map(w))
             for w in (2, 4, 8, 16, 32)})
MAPS.update({f"random{p}": (f"random512-{p}", lambda p=p: random_map(p)) for p in (10, 20, 30, 40)})
MAPS["rooms"] = ("rooms 31x31, a door per wall (512^2)", rooms_map)
MAPS["room32"] = ("room512-32 stand-in (HOG2 shape)", hog2_rooms)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--problems", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--maps", nargs="+", default=None, help="subset of: " + " ".join(MAPS))
    ap.add_argument("--out", default=str(HERE / "results" / "bench_movingai_widths.json"))
    args = ap.parse_args(argv)
    keys = args.maps or list(MAPS)
    for k in keys:
        if k not in MAPS:
            raise SystemExit(f"--maps: unknown map {k!r}; expected one of {', '.join(MAPS)}")
    for warm in (maze_map(1), hog2_maze(4, 64), random_map(30)[:64, :64]):   # JIT warm-up
        path_lengths(warm, *pairs(warm, 40))
    rows = []
    for k in keys:
        name, make = MAPS[k]
        r = row(name, make(), args.problems, args.repeat)
        rows.append(r)
        print(f"{name:44s} {r['route']:6s} prep {1e3 * r['prep_cpu_s']:7.1f} ms  pairs "
              f"{1e3 * r['pairs_cpu_s']:7.1f} ms  whole {1e3 * r['batch_cpu_s']:7.1f} ms  "
              f"scipy {r['scipy_cpu_s']:.3f} s  x{r['batch_vs_scipy']:.1f}  load {r['load']}",
              flush=True)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(rows, indent=1) + "\n")
    print(markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
