"""Occupancy grids as NumPy ``.npy`` arrays (2-D bool or 0/1 integers)."""

from __future__ import annotations

import io as _io
from pathlib import Path

import numpy as np

from ..grid import OccupancyGrid
from ._common import PathLike, fail, read_bytes

__all__ = ["read_npy", "write_npy", "is_npy"]


def is_npy(data: bytes) -> bool:
    return data[:6] == b"\x93NUMPY"


def read_npy(path: PathLike, *, resolution: float = 1.0) -> OccupancyGrid:
    """Read a 2-D bool or 0/1 integer array (True / 1 = occupied); no pickles."""
    data = read_bytes(path)
    if not is_npy(data):
        raise fail(f"starts with {data[:6]!r}; expected the .npy magic '\\x93NUMPY'",
                   path, 1, 1)
    try:
        a = np.load(_io.BytesIO(data), allow_pickle=False)
    except (ValueError, OSError, EOFError) as exc:
        raise fail(f"cannot load array: {exc}; expected a complete .npy file "
                   "(truncated file?)", path, 1, 1) from None
    if a.ndim != 2 or 0 in a.shape:
        raise fail(f"array has shape {a.shape}; expected a non-empty 2-D grid", path, 1, 1)
    if a.dtype != bool:
        if a.dtype.kind not in "iu" or not np.isin(a, (0, 1)).all():
            raise fail(f"array of {a.dtype} with values outside 0/1; expected bool or 0/1",
                       path, 1, 1)
    return OccupancyGrid(a.astype(bool), resolution=resolution)


def write_npy(grid: OccupancyGrid, path: PathLike) -> None:
    """Save the boolean ``occupied`` array."""
    with open(Path(path), "wb") as fh:
        np.save(fh, np.asarray(grid.occupied, bool), allow_pickle=False)
