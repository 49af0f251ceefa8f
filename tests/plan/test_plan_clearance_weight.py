"""max_clearance's weight: a huge value is refused by name, the largest allowed
still finds the cheapest path (checked against scipy's Dijkstra)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import dijkstra

from robomaze import OccupancyGrid
from robomaze.cli import main
from robomaze.errors import ParameterError
from robomaze.plan.clearance_planner import MAX_WEIGHT, inflation_cost, max_clearance


def _room():
    occ = np.pad(np.zeros((5, 7), bool), 1, constant_values=True)
    occ[3, 3:6] = True  # a pillar, so the cheapest route is not obvious
    return OccupancyGrid(occ)


def _reference_cost(grid, cost, start, goal) -> float:
    """Cheapest 4-connected cost with scipy: a move costs the mean of its two cells."""
    free = ~grid.occupied
    rows, cols = grid.shape
    idx = np.arange(rows * cols).reshape(rows, cols)
    src, dst, w = [], [], []
    for dr, dc in ((0, 1), (1, 0)):
        a = free[: rows - dr, : cols - dc] & free[dr:, dc:]
        u, v = idx[: rows - dr, : cols - dc][a], idx[dr:, dc:][a]
        c = (cost.ravel()[u] + cost.ravel()[v]) / 2
        src += [u, v]
        dst += [v, u]
        w += [c, c]
    g = coo_matrix((np.concatenate(w), (np.concatenate(src), np.concatenate(dst))),
                   shape=(rows * cols,) * 2).tocsr()
    return float(dijkstra(g, indices=idx[start])[idx[goal]])


@pytest.mark.parametrize("weight", [50.0, 1e6, MAX_WEIGHT])
def test_large_weights_still_find_the_cheapest_path(weight):
    grid = _room()
    cost = inflation_cost(grid, weight=weight)
    assert np.isfinite(cost).all()
    path = max_clearance(grid, (1, 1), (5, 7), weight=weight)
    cells = path.cells
    got = sum((cost[tuple(a)] + cost[tuple(b)]) / 2 for a, b in zip(cells[:-1], cells[1:]))
    assert got == pytest.approx(_reference_cost(grid, cost, (1, 1), (5, 7)), rel=1e-12)


@pytest.mark.parametrize("weight", [1e308, float("inf"), float("nan"), -1.0, MAX_WEIGHT * 10])
def test_out_of_range_weight_is_refused_by_name(weight):
    with pytest.raises(ParameterError, match="weight"):
        max_clearance(_room(), (1, 1), (5, 7), weight=weight)


def test_cli_weight_1e308_is_a_clear_error_not_goal_unreachable(capsys):
    assert main(["plan", "kruskal", "4x4", "--seed", "1", "--method", "max_clearance",
                 "--option", "weight=1e308"]) == 2
    err = capsys.readouterr().err
    # the spec's declared range, in one line naming the option and the value
    assert "option weight=1e+308: expected a number in [0.0, 1000000000000.0]" in err
    assert "not reachable" not in err and err.count("\n") == 1
