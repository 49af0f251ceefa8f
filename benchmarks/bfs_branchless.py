"""Issue 22 experiment: a branch-free scalar BFS against the engine's wave.

The engine's ``bfs_field`` tests each neighbour (``if dist[nb] == -2``) and
pushes it; here every neighbour is written back (the new label when it was
unlabelled, its own value otherwise) and appended to the queue, and the tail
moves by the comparison's 0/1 (``tail += ok``): no branch on the grid. Same
padded labels (free -2, blocked and border -1), so the fields are compared
cell for cell.

Grids: uniform random obstacles (density 0, 0.2, 0.35) at 1001^2 and
4001^2, MovingAI maze512-1-0, braided backtracker mazes widened with
corridor 1, 3, 9 to about 4001^2 (cycles: the closed form does not apply),
and 40x40 rooms with doors. Process CPU, median of ``--repeat``, the two
kernels interleaved.

Usage::

    python benchmarks/bfs_branchless.py [--repeat 5] [--out benchmarks/results/bfs_branchless.json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

from robomaze import _search as core  # noqa: E402
from robomaze import widen  # noqa: E402
from robomaze.generate import generate  # noqa: E402
from robomaze.io import read_grid  # noqa: E402


@njit(cache=True)
def branchless_field(mask, rows, cols, goal):
    """4-connected step counts from flat ``goal`` over ``mask`` (nonzero = blocked), padded."""
    pc = cols + 2
    npd = (rows + 2) * pc
    dist = np.empty(npd, np.int32)
    dist[:pc] = -1
    dist[npd - pc:] = -1
    nfree = 0
    for r in range(rows):
        src = r * cols
        dst = (r + 1) * pc + 1
        dist[dst - 1] = -1
        dist[dst + cols] = -1
        for c in range(cols):
            f = np.int32(mask[src + c] == 0)
            dist[dst + c] = -1 - f
            nfree += f
    queue = np.empty(nfree + 4, np.int32)
    g = (goal // cols + 1) * pc + goal % cols + 1
    dist[g] = 0
    queue[0] = g
    head = 0
    tail = 1
    while head < tail:
        cur = queue[head]
        head += 1
        d = dist[cur] + 1
        for nb in (cur - pc, cur + 1, cur + pc, cur - 1):
            old = dist[nb]
            ok = old == -2
            dist[nb] = d if ok else old
            queue[tail] = nb
            tail += ok
    if tail < nfree:
        for i in range(pc, npd - pc):
            if dist[i] == -2:
                dist[i] = -1
    return dist.reshape(rows + 2, pc)[1:-1, 1:-1]


def cases():
    rng = np.random.default_rng(1)
    for n in (1001, 4001):
        for p in (0.0, 0.2, 0.35):
            occ = rng.random((n, n)) < p
            occ[n // 2, n // 2] = False
            yield f"random {n}^2 density {p}", occ, (n // 2, n // 2)
    g = read_grid(ROOT / "tests" / "data" / "movingai" / "maze512-1-0.map")
    yield "MovingAI maze512-1-0", g.occupied, tuple(int(v) for v in np.argwhere(~g.occupied)[0])
    for k in (1, 3, 9):
        g = widen(generate("backtracker", 4000 // (k + 1), 4000 // (k + 1), rng=1, braid=0.5),
                  corridor=k, wall=1)
        yield f"braided backtracker, corridor {k}, {g.rows}^2", g.occupied, g.start_goal()[1]
    n = 4001
    occ = np.zeros((n, n), bool)
    occ[::40, :] = True
    occ[:, ::40] = True
    for i in range(0, n, 40):
        occ[i, 20::40] = False
        occ[20::40, i] = False
    yield "rooms 40x40 with doors, 4001^2", occ, (21, 21)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--out", default=str(HERE / "results" / "bfs_branchless.json"))
    args = ap.parse_args(argv)
    rows_out = []
    for name, occ, goal in cases():
        rows, cols = occ.shape
        m = np.ascontiguousarray(occ).view(np.uint8).ravel()
        gi = goal[0] * cols + goal[1]
        ref = core.bfs_field(m, rows, cols, gi, False, occupied=True)[0]
        assert np.array_equal(branchless_field(m, rows, cols, gi), ref), name
        eng, bl = [], []
        load = os.getloadavg()[0]
        for _ in range(args.repeat):
            c0 = time.process_time()
            core.bfs_field(m, rows, cols, gi, False, occupied=True)
            c1 = time.process_time()
            branchless_field(m, rows, cols, gi)
            c2 = time.process_time()
            eng.append(c1 - c0)
            bl.append(c2 - c1)
        row = {"grid": name, "engine_cpu_s": float(np.median(eng)),
               "branchless_cpu_s": float(np.median(bl)), "load": round(load, 2)}
        row["branchless_speedup"] = row["engine_cpu_s"] / row["branchless_cpu_s"]
        rows_out.append(row)
        print(json.dumps(row), file=sys.stderr)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(rows_out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
