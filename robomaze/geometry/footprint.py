"""Robot footprints: a disc, a rectangle or any polygon, in the robot frame.

The robot frame has its origin at the robot's *reference point* (the point
a planner moves from cell centre to cell centre) and heading 0 facing +x
(east); angles are counter-clockwise, in radians, as in ROS.

Rasterization is *conservative and filled*: the kernel marks every grid
cell whose closed square intersects the closed footprint, so a footprint
that merely touches a cell counts as covering it (touching is a collision
everywhere in robomaze).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import shapely
from shapely import affinity
from shapely.geometry import Point, Polygon, box

from .._validate import check_float
from ..errors import ParameterError

__all__ = ["Footprint", "CONTACT_TOL"]

#: Segments per quarter circle of a disc's polygon approximation (``.geometry``).
_QUAD_SEGS = 32


#: Distances (metres) within this of zero count as contact. Clearances are
#: computed in floating point (e.g. ``1.5 * 0.1`` is ``0.15000000000000002``),
#: so a robot exactly touching a wall must not come out a hair clear of it.
CONTACT_TOL = 1e-9


@dataclass(frozen=True, eq=False)
class Footprint:
    """The shape of a robot about its reference point.

    Build one with :meth:`disc`, :meth:`rectangle` or :meth:`polygon`.

    Attributes
    ----------
    kind : str
        ``"disc"``, ``"rectangle"`` or ``"polygon"``.
    geometry : shapely.geometry.Polygon
        The shape in the robot frame (reference point at the origin, heading
        0 = facing +x). For a disc this is a 128-gon inscribed in the circle;
        every distance and rasterization of a disc uses the exact circle.
    radius : float or None
        The disc radius (discs only).

    Examples
    --------
    >>> fp = Footprint.rectangle(0.6, 0.4, ref=(0.1, 0.0))
    >>> fp.kind, round(fp.inscribed_radius, 3), round(fp.circumscribed_radius, 3)
    ('rectangle', 0.2, 0.447)
    >>> Footprint.disc(0.35).rasterize(0.2, 0.0).astype(int)
    array([[0, 1, 1, 1, 0],
           [1, 1, 1, 1, 1],
           [1, 1, 1, 1, 1],
           [1, 1, 1, 1, 1],
           [0, 1, 1, 1, 0]])
    """

    kind: str
    geometry: Polygon
    radius: float | None = None

    # ------------------------------------------------------------ builders
    @classmethod
    def disc(cls, radius: float) -> "Footprint":
        """A disc of ``radius`` metres centred on the reference point."""
        r = check_float("radius", radius, min_value=0.0, strict_min=True)
        return cls("disc", Point(0.0, 0.0).buffer(r, quad_segs=_QUAD_SEGS), r)

    @classmethod
    def rectangle(cls, length: float, width: float, *,
                  ref: Sequence[float] = (0.0, 0.0)) -> "Footprint":
        """A ``length`` (along the heading) x ``width`` rectangle.

        ``ref`` is the reference point in the rectangle's own frame measured
        from its centre (``(0.1, 0)`` puts the reference point 0.1 m ahead of
        the centre, e.g. on the axle of a car-like robot).
        """
        L = check_float("length", length, min_value=0.0, strict_min=True)
        W = check_float("width", width, min_value=0.0, strict_min=True)
        rx, ry = _pair("ref", ref)
        geom = box(-L / 2 - rx, -W / 2 - ry, L / 2 - rx, W / 2 - ry)
        return cls("rectangle", shapely.normalize(geom))

    @classmethod
    def polygon(cls, coords) -> "Footprint":
        """Any simple polygon given by its vertices (robot frame, metres).

        ``coords`` is a sequence of ``(x, y)`` pairs or a shapely Polygon.

        Raises
        ------
        ParameterError
            If the polygon has fewer than 3 vertices, non-finite coordinates,
            self-intersects or has no area.
        """
        if isinstance(coords, Polygon):
            geom = coords
        else:
            try:
                pts = np.asarray(coords, dtype=float)
            except (TypeError, ValueError):
                raise ParameterError(
                    f"polygon coords must be a sequence of (x, y) pairs, got {coords!r}") from None
            if pts.ndim != 2 or pts.shape[1] != 2 or pts.shape[0] < 3:
                raise ParameterError(
                    f"polygon needs at least 3 (x, y) vertices, got array of shape {pts.shape}")
            if not np.isfinite(pts).all():
                raise ParameterError("polygon coordinates must be finite numbers")
            geom = Polygon(pts)
        if geom.is_empty or not geom.is_valid or geom.area <= 0.0:
            why = shapely.is_valid_reason(geom) if not geom.is_empty else "empty"
            raise ParameterError(
                f"polygon footprint is not a valid polygon with area ({why}); "
                f"expected a simple, non-self-intersecting ring")
        return cls("polygon", shapely.normalize(geom))

    # ------------------------------------------------------------ measures
    @property
    def inscribed_radius(self) -> float:
        """Largest disc about the reference point inside the footprint (0 if outside)."""
        if self.kind == "disc":
            return float(self.radius)
        origin = Point(0.0, 0.0)
        if not self.geometry.covers(origin):
            return 0.0
        return float(self.geometry.exterior.distance(origin))

    @property
    def circumscribed_radius(self) -> float:
        """Smallest disc about the reference point holding the footprint."""
        if self.kind == "disc":
            return float(self.radius)
        xy = np.asarray(self.geometry.exterior.coords)
        return float(np.hypot(xy[:, 0], xy[:, 1]).max())

    @property
    def vertices(self) -> np.ndarray:
        """``(m, 2)`` polygon vertices in the robot frame (no repeated closing vertex)."""
        return np.asarray(self.geometry.exterior.coords)[:-1].copy()

    # ------------------------------------------------------------ placement
    def at(self, x: float, y: float, theta: float = 0.0):
        """The footprint placed at world pose ``(x, y, theta)`` (shapely geometry)."""
        if self.kind == "disc":
            return Point(float(x), float(y)).buffer(self.radius, quad_segs=_QUAD_SEGS)
        g = affinity.rotate(self.geometry, float(theta), origin=(0.0, 0.0), use_radians=True)
        return affinity.translate(g, float(x), float(y))

    def rasterize(self, resolution: float, theta: float = 0.0) -> np.ndarray:
        """Cells covered by the footprint at heading ``theta`` (grid frame).

        Returns a ``(2h+1, 2h+1)`` bool kernel centred on the reference
        cell; entry ``[h + dr, h + dc]`` is True when the closed square of
        the cell ``dr`` rows south and ``dc`` columns east of the reference
        cell intersects the footprint placed at that cell's centre.
        """
        res = check_float("resolution", resolution, min_value=0.0, strict_min=True)
        if self.kind == "disc":
            h = int(math.floor((self.radius + CONTACT_TOL) / res + 0.5))
            d = np.maximum(np.abs(np.arange(-h, h + 1)) - 0.5, 0.0) * res
            return np.hypot(d[:, None], d[None, :]) <= self.radius + CONTACT_TOL
        g = affinity.rotate(self.geometry, float(theta), origin=(0.0, 0.0), use_radians=True)
        return _raster_geometry(g, res, self.circumscribed_radius)


def _raster_geometry(geom, res: float, reach: float) -> np.ndarray:
    """Kernel of cells whose closed square intersects ``geom`` (robot frame)."""
    h = int(math.floor(reach / res + 0.5)) + 1
    off = np.arange(-h, h + 1)
    dr, dc = np.meshgrid(off, off, indexing="ij")
    # row offsets grow south, i.e. towards -y
    cx, cy = dc * res, -dr * res
    boxes = shapely.box(cx - res / 2, cy - res / 2, cx + res / 2, cy + res / 2)
    shapely.prepare(geom)
    k = shapely.intersects(geom, boxes)
    # trim empty outer rings so kernels stay small and centred
    while k.shape[0] > 1 and not (k[0].any() or k[-1].any() or k[:, 0].any() or k[:, -1].any()):
        k = k[1:-1, 1:-1]
    return np.ascontiguousarray(k)


def _pair(name: str, value) -> tuple[float, float]:
    try:
        a, b = value
    except (TypeError, ValueError):
        raise ParameterError(f"{name} must be an (x, y) pair, got {value!r}") from None
    if not all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in (a, b)):
        raise ParameterError(f"{name} must hold two numbers, got {value!r}")
    if not (math.isfinite(a) and math.isfinite(b)):
        raise ParameterError(f"{name} must be finite, got {value!r}")
    return float(a), float(b)
