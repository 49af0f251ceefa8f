"""A maze and its cell graph in one picture: cells as nodes, passages as edges.

>>> from robomaze import Maze
>>> nodes, edges = cell_graph(Maze.from_edges(1, 3, [0, 1], [1, 2]))
>>> nodes.tolist(), edges.tolist()
([[0, 0], [0, 1], [0, 2]], [[[0, 0], [0, 1]], [[0, 1], [0, 2]]])
"""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.collections import LineCollection

from ..errors import ParameterError
from ..grid import OccupancyGrid
from ..maze import Maze
from .draw import _lattice_shape, _pt, px_per_cell

__all__ = ["cell_graph", "draw_cell_graph", "NODE_COLOR", "EDGE_COLOR", "JUNCTION_COLOR"]

#: Colour of the nodes of degree 2 (corridor cells).
NODE_COLOR = "#2a7f62"
#: Colour of the nodes of any other degree (junctions, dead ends).
JUNCTION_COLOR = "#d2691e"
#: Colour of the edges (passages).
EDGE_COLOR = "#2a7f62"


def cell_graph(maze: Maze) -> tuple[np.ndarray, np.ndarray]:
    """Nodes ``(n, 2)`` (every cell, row-major) and edges ``(m, 2, 2)`` (one per
    open passage between two cells, east passages first) of a maze."""
    if not isinstance(maze, Maze):
        raise ParameterError(f"maze must be a robomaze Maze, got {type(maze).__name__}")
    rows, cols = maze.shape
    rr, cc = np.mgrid[0:rows, 0:cols]
    nodes = np.stack([rr.ravel(), cc.ravel()], axis=1)
    er, ec = np.nonzero(~maze.east[:, :-1])
    sr, sc = np.nonzero(~maze.south[:-1, :])
    east = np.stack([np.stack([er, ec], 1), np.stack([er, ec + 1], 1)], axis=1)
    south = np.stack([np.stack([sr, sc], 1), np.stack([sr + 1, sc], 1)], axis=1)
    return nodes, np.concatenate([east, south]).reshape(-1, 2, 2)


def draw_cell_graph(ax, obj: Maze | OccupancyGrid, *, node_color: str = NODE_COLOR,
                    junction_color: str = JUNCTION_COLOR, edge_color: str = EDGE_COLOR,
                    zorder: float = 3.5) -> tuple[Any, Any]:
    """Draw the cell graph of a maze (or of the maze behind a widened grid) over it.

    Nodes sit at cell centres (block centres on a widened grid); nodes whose
    degree is not 2 (junctions, dead ends) are drawn larger in
    ``junction_color``. Returns the edge LineCollection and the node scatter.
    """
    if isinstance(obj, Maze):
        maze, to_xy = obj, (lambda cells: np.asarray(cells, float)[..., ::-1])
    elif isinstance(obj, OccupancyGrid) and obj.widening is not None and obj.maze is not None:
        w = obj.widening
        maze = obj.maze

        def to_xy(cells):
            c = np.asarray(cells, float)
            off = w.wall + (w.corridor - 1) / 2.0
            return (c * w.pitch + off)[..., ::-1]
    else:
        raise ParameterError("the cell graph needs a maze (or a grid widened from one); "
                             "this grid has no maze cells")
    rows, cols = _lattice_shape(obj)
    px = px_per_cell(ax, *maze.shape) if isinstance(obj, Maze) else \
        px_per_cell(ax, rows, cols) * obj.widening.pitch
    nodes, edges = cell_graph(maze)
    deg = np.zeros(maze.shape, int)
    for (a, b) in edges:
        deg[tuple(a)] += 1
        deg[tuple(b)] += 1
    lines = LineCollection(to_xy(edges), colors=edge_color, zorder=zorder,
                           linewidths=_pt(ax, max(1.0, 0.08 * px)))
    ax.add_collection(lines, autolim=False)
    special = deg[nodes[:, 0], nodes[:, 1]] != 2
    size = np.where(special, max(3.0, 0.3 * px), max(2.0, 0.18 * px))
    xy = to_xy(nodes)
    dots = ax.scatter(xy[:, 0], xy[:, 1], s=_pt(ax, 1.0) ** 2 * size ** 2,
                      c=[junction_color if s else node_color for s in special],
                      zorder=zorder + 0.1, linewidths=0)
    return lines, dots
