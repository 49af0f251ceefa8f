"""collision_free for non-round footprints against a plain-Python (cell, bin) Dijkstra.

The reference builds the heading C-space with shapely alone (a cell is
blocked in a bin when an occupied square, or the outside of the grid, at
its offset meets the bin's swept region -- no packing, no dilation) and
runs Dijkstra with heapq over ``(cell, bin)`` states: translations to the
4 or 8 neighbours in the same bin (end cells free in the bin; diagonally
also the two cells beside the move), rotations to the neighbouring bins
where both are free, costs ``hypot(dr, dc)`` and ``rotation_cost``. The
planner's paths must cost exactly the reference optimum and be legal moves
of that graph, including on grids that force rotations.
"""

import heapq
import math

import numpy as np
import pytest
from shapely.geometry import box

from robomaze import Maze, OccupancyGrid, widen
from robomaze.errors import NoPathError
from robomaze.generate import generate
from robomaze.geometry import Footprint, bin_geometry, heading_bin, heading_bins
from robomaze.plan import collision_free

MOVES = [(-1, 0), (0, 1), (1, 0), (0, -1), (-1, 1), (1, 1), (1, -1), (-1, -1)]
L_SHAPE = [(-0.2, -0.1), (0.25, -0.1), (0.25, 0.2), (0.1, 0.2), (0.1, 0.05), (-0.2, 0.05)]


def reference_free(grid, fp, nb):
    """``(nb, rows, cols)`` free states, by shapely tests of each offset square."""
    res = grid.resolution
    R, C = grid.shape
    step = 2 * math.pi / nb
    free = np.zeros((nb, R, C), bool)
    for b, theta in enumerate(heading_bins(nb)):
        geom, reach = bin_geometry(fp, theta - step / 2, theta + step / 2)
        h = int(math.ceil(reach / res)) + 1
        offs = [(dr, dc) for dr in range(-h, h + 1) for dc in range(-h, h + 1)
                if geom.intersects(box(dc * res - res / 2, -dr * res - res / 2,
                                       dc * res + res / 2, -dr * res + res / 2))]
        occ = np.pad(grid.occupied, h, constant_values=True)    # the outside is occupied
        for r in range(R):
            for c in range(C):
                free[b, r, c] = not any(occ[r + dr + h, c + dc + h] for dr, dc in offs)
    return free


def reference_cost(free, s, g, sbins, gbin, conn, rot):
    """Dijkstra over (cell, bin): the optimal cost in cells, inf if none."""
    nb, R, C = free.shape
    dist = {}
    heap = [(0.0, s[0], s[1], b) for b in sbins]
    while heap:
        d, r, c, b = heapq.heappop(heap)
        if (r, c, b) in dist:
            continue
        dist[(r, c, b)] = d
        if (r, c) == tuple(g) and (gbin < 0 or b == gbin):
            return d
        for i, (dr, dc) in enumerate(MOVES[:conn]):
            r2, c2 = r + dr, c + dc
            if not (0 <= r2 < R and 0 <= c2 < C) or not free[b, r2, c2]:
                continue
            if i >= 4 and not (free[b, r, c2] and free[b, r2, c]):
                continue
            heapq.heappush(heap, (d + math.hypot(dr, dc), r2, c2, b))
        if nb > 1:
            for b2 in {(b + 1) % nb, (b - 1) % nb} - {b}:
                if free[b2, r, c]:
                    heapq.heappush(heap, (d + rot, r, c, b2))
    return math.inf


def path_cost(free, path, nb, conn, rot):
    """Cost (cells) of a planner path, checking every state and move against ``free``."""
    bins = heading_bin(path.headings, nb)
    cells = path.cells
    cost = 0.0
    for i, ((r, c), b) in enumerate(zip(cells, bins)):
        assert free[b, r, c], f"state {i} {(r, c, b)} is blocked"
        if i == 0:
            continue
        (r0, c0), b0 = cells[i - 1], bins[i - 1]
        if (r0, c0) == (r, c):
            assert (b - b0) % nb in (1, nb - 1), f"rotation {b0} -> {b} at {(r, c)}"
            cost += rot
            continue
        assert b == b0, f"translation {i} changes the bin"
        dr, dc = r - r0, c - c0
        k = MOVES.index((dr, dc))
        assert k < conn
        if k >= 4:
            assert free[b, r0, c] and free[b, r, c0], f"diagonal {i} cuts a corner"
        cost += math.hypot(dr, dc)
    return cost


def check(grid, s, g, fp, *, nb=16, conn=4, rot=None, start_heading=None, goal_heading=None):
    """Plan, and compare with the reference; returns the optimal cost and the path."""
    rot_m = 0.1 * grid.resolution if rot is None else rot
    rot_cells = rot_m / grid.resolution
    free = reference_free(grid, fp, nb)
    sbins = [b for b in range(nb) if free[b, s[0], s[1]]]
    if start_heading is not None:
        sbins = [b for b in sbins if b == int(heading_bin(start_heading, nb))]
    gbin = -1 if goal_heading is None else int(heading_bin(goal_heading, nb))
    want = reference_cost(free, s, g, sbins, gbin, conn, rot_cells)
    try:
        p = collision_free(grid, s, g, footprint=fp, connectivity=conn, headings=nb,
                           rotation_cost=rot, start_heading=start_heading,
                           goal_heading=goal_heading)
    except NoPathError:
        assert want == math.inf
        return want, None
    assert want < math.inf
    assert tuple(p.cells[0]) == tuple(s) and tuple(p.cells[-1]) == tuple(g)
    assert gbin < 0 or heading_bin(p.headings[-1], nb) == gbin
    assert path_cost(free, p, nb, conn, rot_cells) == pytest.approx(want, abs=1e-9)
    assert p.collision_free
    return want, p


def rotations(path, nb):
    b = heading_bin(path.headings, nb)
    return int(np.count_nonzero(np.diff(b)))


def test_tight_corner_forces_rotations():
    # an L corridor three cells wide: the 3.6 m bar only gets round the corner by turning
    g = widen(Maze.from_edges(2, 2, [0, 1, 3], [1, 3, 2]), corridor=3, wall=1)
    fp = Footprint.rectangle(3.6, 0.4)
    for nb in (16, 32):
        for rot in (0.1, 2.0):
            _, p = check(g, (2, 4), (6, 4), fp, nb=nb, rot=rot)
            assert p is not None and rotations(p, nb) >= nb // 4      # a quarter turn at least
    assert check(g, (2, 4), (6, 4), fp, nb=8)[1] is None    # 45-degree bins sweep too wide


@pytest.mark.parametrize("conn", [4, 8])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_rectangle_on_widened_mazes(seed, conn):
    grid = widen(generate("backtracker", 3, 3, rng=seed), corridor=5, wall=1, resolution=0.1)
    s, g = grid.start_goal()
    for fp in (Footprint.rectangle(0.3, 0.2), Footprint.rectangle(0.42, 0.12)):
        check(grid, s, g, fp, conn=conn)


@pytest.mark.parametrize("corridor", [3, 4])
def test_long_rectangle_in_narrow_corridors(corridor):
    # fits along a corridor only near its own axis: every corner is a turn on the spot
    grid = widen(generate("kruskal", 3, 3, rng=4), corridor=corridor, wall=1, resolution=0.1)
    s, g = grid.start_goal()
    fp = Footprint.rectangle(0.1 * corridor + 0.05, 0.08)
    want, p = check(grid, s, g, fp, nb=16)
    if p is not None:
        assert rotations(p, 16) > 0


@pytest.mark.parametrize("seed", range(4))
def test_offset_and_l_shapes_on_random_grids(seed):
    rng = np.random.default_rng(seed)
    occ = rng.random((14, 16)) < 0.12
    occ[1:4, 1:4] = occ[-4:-1, -4:-1] = False
    grid = OccupancyGrid(occ, resolution=0.1)
    fps = [Footprint.rectangle(0.25, 0.1, ref=(0.06, 0.0)), Footprint.polygon(L_SHAPE)]
    for conn in (4, 8):
        check(grid, (2, 2), (11, 13), fps[seed % 2], nb=8, conn=conn)


@pytest.mark.parametrize("rot", [0.0, 0.003, 0.05])
def test_rotation_costs(rot):
    grid = widen(generate("backtracker", 3, 3, rng=5), corridor=4, wall=1, resolution=0.1)
    s, g = grid.start_goal()
    check(grid, s, g, Footprint.rectangle(0.38, 0.1), rot=rot)


def test_start_and_goal_headings():
    grid = widen(generate("backtracker", 3, 3, rng=6), corridor=5, wall=1, resolution=0.1)
    s, g = grid.start_goal()
    fp = Footprint.rectangle(0.3, 0.2)
    base, _ = check(grid, s, g, fp)
    want, p = check(grid, s, g, fp, start_heading=0.0, goal_heading=math.pi / 2)
    assert want >= base
    assert heading_bin(p.headings[0], 16) == 0 and heading_bin(p.headings[-1], 16) == 4


def test_more_than_64_bins_keeps_the_state_search():
    g = widen(Maze.from_edges(2, 2, [0, 1, 3], [1, 3, 2]), corridor=3, wall=1)
    check(g, (2, 4), (6, 4), Footprint.rectangle(3.6, 0.4), nb=72)
