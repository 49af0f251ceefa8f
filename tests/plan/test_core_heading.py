"""The core's (cell, heading bin) search against scipy Dijkstra on the explicit state graph."""

import math

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph

from robomaze import _search as core

MOVES = [(-1, 0), (0, 1), (1, 0), (0, -1), (-1, 1), (1, 1), (1, -1), (-1, -1)]


def state_graph(free_b, conn8, rot):
    """Edges of the HEADING rule written out state by state (states ``bin * N + cell``)."""
    nb, R, C = free_b.shape
    N = R * C
    a, b, w = [], [], []
    for k in range(nb):
        for r in range(R):
            for c in range(C):
                if not free_b[k, r, c]:
                    continue
                s = k * N + r * C + c
                for i, (dr, dc) in enumerate(MOVES[:8 if conn8 else 4]):
                    r2, c2 = r + dr, c + dc
                    if not (0 <= r2 < R and 0 <= c2 < C) or not free_b[k, r2, c2]:
                        continue
                    if i >= 4 and not (free_b[k, r, c2] and free_b[k, r2, c]):
                        continue                      # no corner cutting
                    a.append(s); b.append(k * N + r2 * C + c2); w.append(math.hypot(dr, dc))
                if nb > 1:
                    for k2 in {(k + 1) % nb, (k - 1) % nb} - {k}:
                        if free_b[k2, r, c]:
                            a.append(s); b.append(k2 * N + r * C + c); w.append(rot)
    return sp.csr_matrix((w, (a, b)), shape=(nb * N, nb * N))


def path_cost(states, N, C, rot):
    cost = 0.0
    for s, t in zip(states[:-1], states[1:]):
        (b1, c1), (b2, c2) = divmod(int(s), N), divmod(int(t), N)
        if b1 == b2:
            (r1, q1), (r2, q2) = divmod(c1, C), divmod(c2, C)
            assert max(abs(r1 - r2), abs(q1 - q2)) == 1
            cost += math.hypot(r1 - r2, q1 - q2)
        else:
            assert c1 == c2
            cost += rot
    return cost


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("conn8", [False, True])
@pytest.mark.parametrize("nb", [1, 2, 4, 18, 64, 65])   # 18: two 16-bin words a cell; 65: state search
def test_heading_path_cost_matches_scipy(seed, conn8, nb):
    rng = np.random.default_rng(seed)
    R, C = 9, 11
    free_b = rng.random((nb, R, C)) > 0.3
    rot = [0.0, 0.3, 1.7][seed % 3]
    G = state_graph(free_b, conn8, rot)
    N = R * C
    cells = np.flatnonzero(free_b.any(axis=0))
    s, g = int(cells[0]), int(cells[-1])
    starts = [k * N + s for k in range(nb) if free_b[k].flat[s]]
    dist = csgraph.dijkstra(G, indices=starts, min_only=True)
    for goal_bin in [-1, nb - 1]:
        want = dist[[k * N + g for k in range(nb)]] if goal_bin < 0 else dist[[goal_bin * N + g]]
        states, _ = core.heading_path(free_b, np.array(starts), g, goal_bin, conn8=conn8,
                                      rot_cost=rot)
        if not np.isfinite(want.min()):
            assert states.size == 0
            continue
        assert states[0] in starts and states[-1] % N == g
        assert goal_bin < 0 or states[-1] // N == goal_bin
        assert path_cost(states, N, C, rot) == pytest.approx(want.min(), abs=1e-9)


def test_planner_on_packed_bits_past_one_word():
    # 70 columns: the last 64-bit word of each packed row is partial
    from robomaze import OccupancyGrid
    from robomaze.errors import NoPathError
    from robomaze.geometry import Footprint
    from robomaze.plan import collision_free
    occ = np.ones((7, 70), bool)
    occ[2:5, 1:69] = False                      # a corridor 3 cells (0.3 m) wide
    g = OccupancyGrid(occ, resolution=0.1)
    p = collision_free(g, (3, 2), (3, 67), footprint=Footprint.rectangle(0.12, 0.08), headings=8)
    assert p.collision_free and p.length == pytest.approx(6.5)
    with pytest.raises(NoPathError, match="fits nowhere") as e:
        collision_free(g, (3, 2), (3, 67), footprint=Footprint.rectangle(0.4, 0.4), headings=8)
    assert e.value.reason == "corridor narrower than robot"
    with pytest.raises(NoPathError) as e:         # fits in the corridor but not at column 67
        occ2 = occ.copy()
        occ2[2, 60:] = True
        collision_free(OccupancyGrid(occ2, resolution=0.1), (3, 2), (3, 67),
                       footprint=Footprint.rectangle(0.12, 0.12), headings=8)
    assert e.value.reason == "goal blocked for footprint"


@pytest.mark.parametrize("nb", [1, 3, 8, 9, 16, 17, 33, 64])
@pytest.mark.parametrize("shape", [(1, 1), (3, 7), (4, 64), (5, 65), (3, 130)])
def test_unpack_cell_major_against_numpy(nb, shape):
    # the bit-transposing unpack against np.unpackbits and a per-cell sum of bin bits
    rows, cols = shape
    rng = np.random.default_rng(nb * 1000 + cols)
    words = (cols + 63) // 64
    blocked = rng.integers(0, 256, (nb, rows, words * 8), dtype=np.uint8).view("<u8")
    blocked = blocked.astype(np.uint64)
    free = np.unpackbits(blocked.astype("<u8").view(np.uint8), axis=2,
                         bitorder="little")[:, :, :cols] == 0          # (nb, rows, cols)
    nw = (nb + 15) // 16
    want = np.zeros((rows + 2, cols + 2, nw), np.uint16)
    for b in range(nb):
        want[1:-1, 1:-1, b // 16] |= free[b].astype(np.uint16) << np.uint16(b % 16)
    fm, hfree = core._unpack_cell_major(blocked, rows, cols)
    assert np.array_equal(fm, want.ravel())
    assert np.array_equal(hfree, free.any(axis=0).ravel().astype(np.uint8))
