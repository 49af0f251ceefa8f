"""Are the public ``robomaze._search`` calls' outputs the same bytes in two checkouts?

Issue 40, round 12 (r12-search): the check behind "same results" for a
branch that changes how the search kernels are written. Each checkout runs
in its own process (``PYTHONPATH`` = the checkout) over the same grids:
``bench_peers.py``'s 15 grid kinds at 41^2 and 101^2 and 12 random grids
(3x3 to 60x45, 10-45% blocked), a few seeded start/goal pairs each, and
hashes every output (sha-256 of the values' bytes, dtype and shape):
``shortest_path`` (4- and 8-connected; Dijkstra, Manhattan, octile and
Euclidean heuristics; with and without a cost grid), ``any_angle_path``,
``bfs_field`` (free and occupied masks, 4- and 8-connected),
``distance_field``, ``bfs_path``, ``jump_point_path``, ``path_lengths`` and
``heading_path`` (1, 2, 3, 8, 16, 17, 40, 64 and 70 bins; both
connectivities; any and a fixed goal bin). Prints the number of outputs,
how many differ (with the first few keys) and exits 1 if any does.

Usage::

    python benchmarks/check_search_outputs.py --compare DIR [--checkout DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_CHILD = r'''
import hashlib, json, sys
import numpy as np
sys.path.insert(0, sys.argv[1] + "/benchmarks")
from bench_peers import KINDS, make
from robomaze.grid import OccupancyGrid
from robomaze import _search as core

out = {}
def put(key, *arrs):
    h = hashlib.sha256()
    for a in arrs:
        a = np.ascontiguousarray(np.asarray(a))
        h.update(str((a.dtype.str, a.shape)).encode())
        h.update(a.tobytes())
    out[key] = h.hexdigest()

def grids():
    for kind in KINDS:
        for n in (41, 101):
            g, goal = make(kind, n)
            yield f"{kind}@{n}", np.asarray(g.occupied, bool), tuple(goal)
    rng = np.random.default_rng(12)
    for i in range(12):
        r, c = int(rng.integers(3, 61)), int(rng.integers(3, 46))
        occ = rng.random((r, c)) < (0.10, 0.30, 0.45)[i % 3]
        free = np.argwhere(~occ)
        if len(free) == 0:
            occ[0, 0] = False
            free = np.argwhere(~occ)
        goal = tuple(int(v) for v in free[int(rng.integers(len(free)))])
        yield f"random{i}@{r}x{c}", occ, goal

for name, occ, goal in grids():
    rows, cols = occ.shape
    free = ~occ
    cells = np.flatnonzero(free)
    rng = np.random.default_rng(len(name) * 7919 + rows * cols)
    g = goal[0] * cols + goal[1]
    pairs = [(int(cells[int(rng.integers(len(cells)))]), g)]
    pairs += [(int(cells[int(rng.integers(len(cells)))]), int(cells[int(rng.integers(len(cells)))]))
              for _ in range(2)]
    cost = 1.0 + rng.random((rows, cols)) * 3.0
    m8 = free.astype(np.uint8).ravel()
    for conn8 in (False, True):
        put(f"{name} bfs_field free conn8={conn8}", *core.bfs_field(m8, rows, cols, g, conn8))
        put(f"{name} bfs_field occ conn8={conn8}",
            *core.bfs_field(occ.astype(np.uint8).ravel(), rows, cols, g, conn8, occupied=True))
        put(f"{name} distance_field conn8={conn8}", core.distance_field(free, [g], conn8=conn8))
    for i, (s, t) in enumerate(pairs):
        for conn8 in (False, True):
            for hmode in (0, 1, 2, 3):
                if hmode == 3 and not conn8:
                    continue
                put(f"{name} {i} shortest_path conn8={conn8} h={hmode}",
                    *core.shortest_path(free, s, t, conn8=conn8, hmode=hmode))
                if hmode in (0, 2):
                    put(f"{name} {i} shortest_path cost conn8={conn8} h={hmode}",
                        *core.shortest_path(free, s, t, conn8=conn8, cost=cost, hmode=hmode))
            put(f"{name} {i} any_angle_path conn8={conn8}",
                *core.any_angle_path(free, s, t, conn8=conn8))
        put(f"{name} {i} bfs_path", core.bfs_path(m8, rows, cols, s, t))
        put(f"{name} {i} jump_point_path", *core.jump_point_path(free, s, t))
    put(f"{name} path_lengths",
        core.path_lengths(free, [p[0] for p in pairs], [p[1] for p in pairs]))
    if rows * cols > 101 * 101 // 2 and not name.startswith("random"):
        nb_list = (1, 8, 16, 70) if rows > 50 else (1, 2, 3, 8, 16, 17, 40, 64, 70)
    else:
        nb_list = (1, 2, 3, 8, 16, 17, 40, 64, 70)
    for nbins in nb_list:
        # a bin's free cells: the grid's, thinned by a seeded pattern per bin
        fb = free[None] & (rng.random((nbins, rows, cols)) > 0.04 + 0.1 * (np.arange(nbins) % 3)[:, None, None])
        s = pairs[0][0]
        t = pairs[0][1]
        fb[:, s // cols, s % cols] = True
        fb[:, t // cols, t % cols] = True
        starts = [b * rows * cols + s for b in range(0, nbins, 3)]
        for conn8 in (False, True):
            for gb in (-1, nbins // 2):
                put(f"{name} heading nbins={nbins} conn8={conn8} goal_bin={gb}",
                    *core.heading_path(fb, starts, t, gb, conn8=conn8, rot_cost=0.3))
json.dump(out, sys.stdout)
'''


def _digests(checkout: str) -> dict:
    env = dict(os.environ, PYTHONPATH=checkout)
    r = subprocess.run([sys.executable, "-c", _CHILD, checkout], env=env, capture_output=True,
                       text=True, cwd=checkout)
    if r.returncode:
        raise SystemExit(r.stderr[-3000:])
    return json.loads(r.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--compare", required=True, help="the other checkout (e.g. main)")
    ap.add_argument("--checkout", default=str(ROOT))
    a = ap.parse_args(argv)
    base, mine = _digests(a.compare), _digests(a.checkout)
    diff = sorted(k for k in set(base) | set(mine) if base.get(k) != mine.get(k))
    print(f"{len(mine)} outputs; {len(diff)} differ")
    for k in diff[:20]:
        print("  differs:", k)
    return 1 if diff else 0


if __name__ == "__main__":
    raise SystemExit(main())
