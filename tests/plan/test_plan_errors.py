"""Bad input gives one clear error each; start/goal as cells or world points."""

import numpy as np
import pytest

from robomaze import Maze, OccupancyGrid, widen
from robomaze.errors import NoPathError, ParameterError, UnknownNameError
from robomaze.geometry import Footprint
from robomaze.plan import PLANNERS, make_path, plan, wavefront_field

MINE = ["wavefront", "dijkstra", "astar", "collision_free", "max_clearance", "theta_star"]


@pytest.fixture
def grid():
    occ = np.zeros((6, 8), bool)
    occ[2, 3] = True
    return OccupancyGrid(occ, resolution=0.5, origin=(10.0, 20.0, 0.0))


@pytest.mark.parametrize("method", MINE)
def test_start_outside_grid(grid, method):
    with pytest.raises(ParameterError, match=r"start cell \(6, 0\) is outside the 6x8 grid"):
        plan(grid, (6, 0), (0, 0), method=method)


@pytest.mark.parametrize("method", MINE)
def test_goal_on_obstacle(grid, method):
    with pytest.raises(ParameterError, match=r"goal cell \(2, 3\) is on an occupied cell"):
        plan(grid, (0, 0), (2, 3), method=method)


@pytest.mark.parametrize("method", MINE)
def test_goal_blocked_for_footprint(grid, method):
    with pytest.raises(NoPathError) as e:
        plan(grid, (4, 6), (2, 4), method=method, footprint=Footprint.disc(0.4))
    assert e.value.reason == "goal blocked for footprint"


def test_goal_blocked_for_polygon_footprint(grid):
    with pytest.raises(NoPathError) as e:
        plan(grid, (3, 6), (0, 0), method="collision_free",
             footprint=Footprint.rectangle(0.8, 0.6))
    assert e.value.reason == "goal blocked for footprint"


def test_unknown_method_lists_valid_names(grid):
    with pytest.raises(UnknownNameError) as e:
        plan(grid, (0, 0), (5, 7), method="teleport")
    msg = str(e.value)
    assert "teleport" in msg
    for name in MINE:
        assert name in msg


def test_registry_has_every_planner():
    assert set(MINE) <= set(PLANNERS)


@pytest.mark.parametrize("bad", [(1,), "ab", (1, None), (np.nan, 2.0), (True, 1)])
def test_malformed_endpoints(grid, bad):
    with pytest.raises(ParameterError, match="start"):
        plan(grid, bad, (0, 0), method="astar")


def test_bad_connectivity(grid):
    with pytest.raises(ParameterError, match="connectivity must be 4 or 8, got 6"):
        plan(grid, (0, 0), (5, 7), method="astar", connectivity=6)


def test_world_points_map_to_cells(grid):
    # world (10.25, 22.75) is the centre of cell (0, 0); origin (10, 20), 6 rows of 0.5 m
    p = plan(grid, (10.25, 22.75), (13.9, 20.1), method="astar")
    assert tuple(p.cells[0]) == (0, 0) and tuple(p.cells[-1]) == (5, 7)
    assert np.allclose(p.points[0], (10.25, 22.75))
    with pytest.raises(ParameterError, match="outside"):
        plan(grid, (9.0, 22.0), (0, 0), method="astar")


def test_unreachable_goal_reason():
    occ = np.zeros((3, 5), bool)
    occ[:, 2] = True
    g = OccupancyGrid(occ)
    for method in MINE:
        with pytest.raises(NoPathError) as e:
            plan(g, (0, 0), (0, 4), method=method)
        assert e.value.reason == "goal unreachable"
    assert (wavefront_field(g, (0, 4))[:, :2] == -1).all()


def test_default_endpoints_from_maze():
    g = widen(Maze.empty(3, 3), corridor=3, wall=1)
    p = plan(g, None, None, method="astar")
    assert (tuple(p.cells[0]), tuple(p.cells[-1])) == g.start_goal()
    with pytest.raises(ParameterError, match="required"):
        plan(OccupancyGrid(np.zeros((2, 2), bool)), None, (0, 0), method="astar")


def test_make_path_validates(grid):
    with pytest.raises(ParameterError, match="inside"):
        make_path(grid, [(0, 0), (9, 9)])
    with pytest.raises(ParameterError, match=r"\(n, 2\)"):
        make_path(grid, [1, 2, 3])
    p = make_path(grid, [(1, 2), (1, 3), (1, 4)], walk=[(1, 2), (1, 3), (1, 2), (1, 3), (1, 4)])
    assert p.walk_length == pytest.approx(4 * 0.5) and p.length == pytest.approx(1.0)
    assert not make_path(grid, [(1, 2), (2, 3), (3, 4)]).collision_free   # (2, 3) is occupied
    assert not make_path(grid, [(1, 2), (2, 4)]).collision_free           # cuts its corner
