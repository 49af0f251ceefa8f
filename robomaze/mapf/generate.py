"""Seeded MAPF instances on any robomaze maze or grid, in MovingAI's two buckets.

``random``: starts and goals drawn uniformly from the reference cells of the
largest connected region (bodies of different agents disjoint at the start
and at the goal). ``even``: as MovingAI's *even* scenarios, agents spread
evenly over distance buckets of 4 steps -- agent ``k`` gets a start-goal
pair whose shortest path lies in bucket ``k mod B`` (``B``: the buckets the
region holds) -- so short and long trips are equally common.

The draws come from the world's *maze* stage generator
(:func:`robomaze.world.stage_rng`): one seed, one instance.

>>> from robomaze.world import WorldSpec
>>> world = WorldSpec(generator="kruskal", rows=5, cols=5, corridor=2, seed=1).build()
>>> a = random_instance(world.grid.occupied, 6, seed=1)
>>> b = random_instance(world.grid.occupied, 6, seed=1)
>>> a.n_agents, bool((a.starts == b.starts).all() and (a.goals == b.goals).all())
(6, True)
"""

from __future__ import annotations

import numpy as np

from ..errors import ParameterError
from .instance import Instance

__all__ = ["random_instance", "maze_instance", "BUCKETS", "BUCKET_WIDTH"]

BUCKETS = ("random", "even")
#: Steps per distance bucket of ``even`` instances (MovingAI uses 4).
BUCKET_WIDTH = 4


def _region(inst: Instance) -> np.ndarray:
    """Vertex ids of the largest connected region of reference cells."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    nbr, deg = inst.graph()
    nv = nbr.shape[0]
    rows = np.repeat(np.arange(nv), 4)
    cols = nbr.ravel()
    ok = cols >= 0
    g = coo_matrix((np.ones(ok.sum()), (rows[ok], cols[ok])), shape=(nv, nv))
    _, lab = connected_components(g, directed=False)
    valid = inst.valid.ravel()
    if not valid.any():
        raise ParameterError("the grid has no free cell for an agent's body")
    counts = np.bincount(lab[valid])
    big = np.argmax(counts)
    return np.flatnonzero(valid & (lab == big))


def _bfs(nbr, deg, src: int) -> np.ndarray:
    from ._kernels import goal_distances

    return goal_distances(nbr, deg, np.array([src], np.int32))[0]


def random_instance(occupied, n: int, *, seed: int | None, bucket: str = "random",
                    size: int = 1, name: str = "map") -> Instance:
    """``n`` agents on the grid ``occupied`` (True = blocked); see the module docstring."""
    from ..world import stage_rng

    if bucket not in BUCKETS:
        raise ParameterError(f"bucket must be one of {', '.join(BUCKETS)}, got {bucket!r}")
    if not isinstance(n, (int, np.integer)) or n < 1:
        raise ParameterError(f"agents must be an integer >= 1, got {n!r}")
    occ = np.asarray(occupied, bool)
    base = Instance(occ, np.zeros((0, 2), int), np.zeros((0, 2), int), size=size, name=name)
    region = _region(base)
    w = occ.shape[1]
    cap = len(region) // (size * size)
    if n > cap:
        raise ParameterError(f"agents must be at most {cap} for this grid (its largest "
                             f"region has {len(region)} cells for bodies of {size}x{size}), "
                             f"got {n}")
    rng = stage_rng(seed, "maze")
    nbr, deg = base.graph()
    taken_s = np.zeros(occ.shape, bool)
    taken_g = np.zeros(occ.shape, bool)

    # taken_*: reference cells a new body may not use (it would overlap a placed one)
    def free_for(taken, v):
        return not taken.flat[int(v)]

    def take(taken, v):
        r, c = divmod(int(v), w)
        taken[max(0, r - size + 1):r + size, max(0, c - size + 1):c + size] = True

    starts, goals = [], []
    nb = 0
    if bucket == "even":
        # buckets the region can hold: from a few sample sources' eccentricities
        probe = rng.choice(region, size=min(8, len(region)), replace=False)
        far = max(int(_bfs(nbr, deg, int(s)).max()) for s in probe)
        nb = max(1, far // BUCKET_WIDTH + 1)
    tries = 0
    misses = 0
    while len(starts) < n:
        tries += 1
        if tries > 200 * n + 1000:
            raise ParameterError(f"could not place {n} agents without overlapping bodies "
                                 f"after {tries} draws; expected fewer agents")
        s = int(rng.choice(region))
        if not free_for(taken_s, s):
            continue
        if bucket == "random":
            g = int(rng.choice(region))
        else:
            # the goal: a free cell in this agent's distance bucket, or the nearest
            # bucket that still has one (a central start, or a crowded grid)
            want = len(starts) % nb
            d = _bfs(nbr, deg, s)
            avail = region[(d[region] >= 0) & ~taken_g.ravel()[region]]
            if not len(avail):
                continue
            have = d[avail] // BUCKET_WIDTH
            if not (have == want).any():
                misses += 1
                if misses < 20:      # another start may reach this bucket
                    continue
                want = int(have[np.argmin(np.abs(have - want))])
            g = int(rng.choice(avail[have == want]))
        if not free_for(taken_g, g):
            continue
        take(taken_s, s)
        take(taken_g, g)
        misses = 0
        starts.append(divmod(s, w))
        goals.append(divmod(g, w))
    return Instance(occ, starts, goals, size=size, name=name)


def maze_instance(n: int, *, rows: int, cols: int, corridor: int = 2, wall: int = 1,
                  generator: str = "kruskal", braid: float = 0.0, seed: int | None = 0,
                  bucket: str = "random", size: int = 1) -> Instance:
    """``n`` agents on a generated maze widened with ``corridor``/``wall``
    (the world of ``WorldSpec(generator, rows, cols, corridor, wall, seed)``).

    >>> inst = maze_instance(20, rows=10, cols=10, corridor=2, seed=3)
    >>> inst.shape, inst.n_agents
    ((31, 31), 20)
    """
    from ..world import WorldSpec

    world = WorldSpec(generator=generator, rows=rows, cols=cols, corridor=corridor, wall=wall,
                      braid=braid, seed=seed).build()
    name = f"{generator}-{rows}x{cols}-k{corridor}-t{wall}-s{seed}"
    return random_instance(world.grid.occupied, n, seed=seed, bucket=bucket, size=size,
                           name=name)
