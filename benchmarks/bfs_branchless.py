"""Issue 22: the branch-free scalar BFS against the engine's wave, and the dispatch.

The engine's :func:`robomaze._search.wave` tests each neighbour (``if
dist[nb] == -2``) and pushes it; ``_wave4_branchless`` writes every
neighbour back (the new label when it was unlabelled, its own value
otherwise) and appends it to the queue, the tail moving by the comparison's
0/1 (``tail += ok``): no branch on the grid. Both start from the same padded
labels (``_labels``). ``bfs_field`` (what ``wavefront_field`` falls back to)
runs the branch-free loop when fewer than half of 4096 sampled free cells
have four free neighbours (``_open_share``); the row records the share and
the dispatched call's time. Fields are checked identical.

Grids: uniform random obstacles (density 0, 0.2, 0.35) at 1001^2 and
4001^2, MovingAI maze512-1-0, braided backtracker mazes widened with
corridor 1, 3, 9 to about 4001^2 (cycles: the closed form does not apply),
and 40x40 rooms with doors. Process CPU, median of ``--repeat``, the three
calls interleaved.

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

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

from robomaze import _search as core  # noqa: E402
from robomaze import widen  # noqa: E402
from robomaze._search import _labels, _open_share, _wave4_branchless  # noqa: E402
from robomaze._search._engine import WAVE_GRID, _to_pad, wave  # noqa: E402
from robomaze.generate import generate  # noqa: E402
from robomaze.io import read_grid  # noqa: E402


def engine(m, rows, cols, gi):
    dist, nfree = _labels(m, rows, cols, True)
    wave(WAVE_GRID, np.empty(0, np.uint8), np.empty((0, 4), np.int8), cols, False,
         np.array([_to_pad(gi, cols)], np.int32), np.int64(-1), False, dist,
         np.empty(max(nfree, 1), np.int32), np.empty(0, np.int32))
    return dist


def branchless(m, rows, cols, gi):
    dist, nfree = _labels(m, rows, cols, True)
    _wave4_branchless(dist, cols, _to_pad(gi, cols), nfree)
    return dist


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
        a, b = engine(m, rows, cols, gi), branchless(m, rows, cols, gi)
        field = core.bfs_field(m, rows, cols, gi, False, occupied=True)[0]
        assert np.array_equal(a, b), name
        assert np.array_equal(field, np.where(a == -2, -1, a).reshape(rows + 2, cols + 2)[1:-1, 1:-1])
        t = {"engine": [], "branchless": [], "bfs_field": []}
        load = os.getloadavg()[0]
        for _ in range(args.repeat):
            for key, fn in (("engine", lambda: engine(m, rows, cols, gi)),
                            ("branchless", lambda: branchless(m, rows, cols, gi)),
                            ("bfs_field", lambda: core.bfs_field(m, rows, cols, gi, False,
                                                                 occupied=True))):
                c0 = time.process_time()
                fn()
                t[key].append(time.process_time() - c0)
        row = {"grid": name, "open_share": _open_share(_labels(m, rows, cols, True)[0], rows, cols),
               "load": round(load, 2)}
        row.update({f"{k}_cpu_s": float(np.median(v)) for k, v in t.items()})
        row["branchless_speedup"] = row["engine_cpu_s"] / row["branchless_cpu_s"]
        row["bfs_field_speedup"] = row["engine_cpu_s"] / row["bfs_field_cpu_s"]
        rows_out.append(row)
        print(json.dumps(row), file=sys.stderr)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(rows_out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
