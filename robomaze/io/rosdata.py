"""ROS ``nav_msgs/OccupancyGrid`` data (int8: -1 unknown, 0..100 occupancy).

A ROS message stores its cells row-major starting at the cell at
``info.origin`` -- the **bottom** (south) row first -- with values ``-1``
(unknown) or an occupancy probability ``0..100`` in percent. robomaze's
grid has row 0 north, so the rows are flipped.

The rule for a boolean grid
---------------------------
* ``0 <= value < occupied`` is free, ``occupied <= value <= 100`` is
  occupied; ``occupied`` defaults to 65 (map_server's default
  ``occupied_thresh`` 0.65 in percent), so the 0 / 100 a trinary map
  publishes read as free / occupied whatever the threshold;
* ``-1`` (unknown) reads as ``unknown="occupied"`` (the default: a robot
  must not plan through space nobody has seen) or ``"free"``;
* any other value (-128..-2, 101..127) is an error naming its index.

>>> import numpy as np
>>> g = from_ros_data([0, 100, -1, 0], width=2, height=2, resolution=0.5)
>>> g.occupied.astype(int).tolist()    # top row is the message's second row
[[1, 0], [0, 1]]
>>> to_ros_data(g).tolist()
[0, 100, 100, 0]
"""

from __future__ import annotations

import numpy as np

from .._validate import check_cells, check_int
from ..errors import ParameterError
from ..grid import OccupancyGrid

__all__ = ["from_ros_data", "to_ros_data", "UNKNOWN_CHOICES"]

UNKNOWN_CHOICES = ("occupied", "free")


def from_ros_data(data, width: int, height: int, *, resolution: float = 1.0,
                  origin=(0.0, 0.0, 0.0), unknown: str = "occupied",
                  occupied: int = 65) -> OccupancyGrid:
    """A grid from ROS OccupancyGrid ``data`` (see the module notes for the rule).

    Parameters
    ----------
    data : sequence of int
        ``width * height`` values in -1..100, bottom row first (ROS order).
    width, height : int
        ``info.width`` / ``info.height`` in cells.
    resolution : float
        ``info.resolution`` in metres per cell.
    origin : (x, y, yaw)
        The pose of the grid's lower-left corner (``info.origin``, with the
        quaternion turned into a yaw).
    unknown : {"occupied", "free"}
        How ``-1`` cells are read.
    occupied : int
        Values from this one up to 100 are occupied (1..100).

    Raises
    ------
    ParameterError
        Wrong length, a value outside -1..100, a bad option.
    """
    width = check_int("width", width, min_value=1)
    height = check_int("height", height, min_value=1)
    check_cells(f"a {width}x{height} ROS grid", width * height, "width*height")
    if unknown not in UNKNOWN_CHOICES:
        raise ParameterError(f"unknown must be one of {', '.join(UNKNOWN_CHOICES)}, "
                             f"got {unknown!r}")
    occupied = check_int("occupied", occupied, min_value=1, max_value=100)
    try:
        a = np.asarray(data)
    except (TypeError, ValueError, OverflowError):
        raise ParameterError("data must be a sequence of integers in -1..100") from None
    if a.ndim != 1 or a.size != width * height:
        raise ParameterError(f"data must hold width*height = {width * height} values in one "
                             f"sequence, got shape {a.shape}")
    if a.dtype.kind not in "iu":
        raise ParameterError(f"data must hold integers (ROS int8), got dtype {a.dtype}")
    bad = np.flatnonzero((a < -1) | (a > 100))
    if bad.size:
        i = int(bad[0])
        raise ParameterError(f"data[{i}] is {int(a[i])}; expected -1 (unknown) or an "
                             "occupancy 0..100")
    rows = a.reshape(height, width)[::-1]
    occ = rows >= occupied
    if unknown == "occupied":
        occ |= rows == -1
    return OccupancyGrid(occ, resolution=resolution, origin=origin)


def to_ros_data(grid: OccupancyGrid, unknown=None) -> np.ndarray:
    """ROS int8 data of a grid: 100 occupied, 0 free, -1 where ``unknown``;
    bottom row first."""
    if not isinstance(grid, OccupancyGrid):
        raise ParameterError(f"grid must be an OccupancyGrid, got {type(grid).__name__}")
    out = np.where(grid.occupied, 100, 0).astype(np.int8)
    if unknown is not None:
        unk = np.asarray(unknown, dtype=bool)
        if unk.shape != grid.shape:
            raise ParameterError(f"unknown must have the grid's shape {grid.shape}, "
                                 f"got {unk.shape}")
        out[unk] = -1
    return out[::-1].ravel().copy()
