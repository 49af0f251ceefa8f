"""MovingAI MAPF scenarios: one ``.map`` and a ``.scen`` listing one agent per line.

The MAPF benchmark (Stern et al., SoCS 2019) reuses MovingAI's scenario
layout: line ``k`` is agent ``k``'s bucket, map name, map size, start,
goal and optimal single-agent length (8-connected, as in every MovingAI
scenario; robomaze's agents move 4-connected, and the solvers do not use
the column). The first ``n`` lines are the ``n``-agent instance. Reading
and writing go through :mod:`robomaze.io.movingai`.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from ..errors import MazeFormatError
from ..io.movingai import ScenProblem, read_movingai, read_scen, write_scen
from .instance import Instance

__all__ = ["read_mapf", "write_mapf", "octile_lengths"]


def read_mapf(map_path, scen_path, *, agents: int | None = None, size: int = 1) -> Instance:
    """The instance of the first ``agents`` lines of ``scen_path`` on ``map_path``.

    Every line must name the map's size and lie on free cells.
    """
    grid = read_movingai(map_path)
    problems = read_scen(scen_path)
    if not problems:
        raise MazeFormatError("no agents; expected at least one scenario line", path=scen_path,
                              line=1)
    if agents is not None:
        if not isinstance(agents, int) or agents < 1 or agents > len(problems):
            raise MazeFormatError(f"agents={agents!r} but the file lists {len(problems)} "
                                  f"agents; expected 1..{len(problems)}", path=scen_path)
        problems = problems[:agents]
    h, w = grid.shape
    for k, p in enumerate(problems):
        if (p.width, p.height) != (w, h):
            raise MazeFormatError(f"agent {k} names a {p.width}x{p.height} map; expected the "
                                  f"map's {w}x{h}", path=scen_path, line=k + 2, column=1)
    starts = [p.start for p in problems]
    goals = [p.goal for p in problems]
    for k in range(len(problems)):
        for what, (r, c) in (("start", starts[k]), ("goal", goals[k])):
            if grid.occupied[r, c]:
                raise MazeFormatError(f"agent {k}'s {what} (x={c}, y={r}) is a blocked cell; "
                                      "expected a free cell", path=scen_path, line=k + 2,
                                      column=1)
    return Instance(grid.occupied, starts, goals, size=size, name=Path(map_path).name)


def octile_lengths(occupied: np.ndarray, starts, goals) -> np.ndarray:
    """8-connected shortest lengths (diagonal sqrt(2), no corner cutting), the
    scenario files' last column; ``inf`` where unreachable."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import dijkstra

    occ = np.asarray(occupied, bool)
    h, w = occ.shape
    free = ~occ
    rows, cols, vals = [], [], []
    idx = np.arange(h * w).reshape(h, w)
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        r0, r1 = 0, h - dr
        c0, c1 = max(0, -dc), w - max(0, dc)
        a = free[r0:r1, c0:c1] & free[r0 + dr:r1 + dr, c0 + dc:c1 + dc]
        if dr and dc:   # no corner cutting: both orthogonal cells free
            a &= free[r0 + dr:r1 + dr, c0:c1] & free[r0:r1, c0 + dc:c1 + dc]
        src = idx[r0:r1, c0:c1][a]
        dst = idx[r0 + dr:r1 + dr, c0 + dc:c1 + dc][a]
        rows += [src, dst]
        cols += [dst, src]
        vals += [np.full(2 * len(src), math.sqrt(2.0) if dr and dc else 1.0)]
    g = coo_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                   shape=(h * w, h * w)).tocsr()
    s = np.asarray(starts, np.int64)
    t = np.asarray(goals, np.int64)
    src = s[:, 0] * w + s[:, 1]
    uniq, inv = np.unique(src, return_inverse=True)
    d = dijkstra(g, indices=uniq)
    return d[inv, t[:, 0] * w + t[:, 1]]


def write_mapf(inst: Instance, scen_path, *, map_name: str | None = None,
               buckets=None) -> None:
    """Write the instance's agents as a ``.scen`` file (bucket: 8-connected
    length // 4 unless ``buckets`` are given)."""
    h, w = inst.shape
    lengths = octile_lengths(inst.occupied, inst.starts, inst.goals)
    name = map_name or inst.name
    probs = []
    for k in range(inst.n_agents):
        ln = float(lengths[k])
        b = int(buckets[k]) if buckets is not None else int(ln // 4) if math.isfinite(ln) else 0
        probs.append(ScenProblem(b, name, w, h, tuple(int(x) for x in inst.starts[k]),
                                 tuple(int(x) for x in inst.goals[k]),
                                 ln if math.isfinite(ln) else 0.0))
    write_scen(probs, scen_path)
