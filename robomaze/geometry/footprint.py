"""Robot footprints: a disc, a rectangle or any polygon, in the robot frame.

The robot frame has its origin at the robot's *reference point* (the point
a planner moves from cell centre to cell centre) and heading 0 facing +x
(east); angles are counter-clockwise, in radians, as in ROS.

Rasterization is *conservative and filled*: the kernel marks every grid
cell whose closed square intersects the closed footprint, so a footprint
that merely touches a cell counts as covering it (touching is a collision
everywhere in robomaze).

Spec strings and tables
-----------------------
One spelling of a footprint serves the CLI (``--footprint``), sweep files
(``[robot] footprint``) and report labels, and it reads back exactly
(:meth:`Footprint.from_spec` / :meth:`Footprint.to_spec` /
:meth:`Footprint.to_table`); sizes are metres in the robot frame:

==============================  ==============================================
``disc:R``                      ``{shape = "disc", radius = R}``
``rect:LxW``                    ``{shape = "rectangle", length = L, width = W}``
``rect:LxW@RX,RY``              the same with ``ref = [RX, RY]`` (reference
                                point measured from the rectangle's centre)
``poly:X1,Y1;X2,Y2;X3,Y3...``   ``{shape = "polygon", coords = [[X1, Y1], ...]}``
==============================  ==============================================

Numbers are written in their shortest exact decimal form (``repr``, with a
trailing ``.0`` dropped), so ``from_spec(fp.to_spec())`` rebuilds the same
numbers bit for bit.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
import shapely
from shapely import affinity
from shapely.geometry import Point, Polygon, box

from .._validate import check_float
from ..errors import ParameterError

__all__ = ["Footprint", "CONTACT_TOL", "SPEC_FORMS", "MAX_FOOTPRINT_M", "check_footprint"]

#: The accepted spellings, for error messages and help texts.
SPEC_FORMS = "disc:R, rect:LxW, rect:LxW@RX,RY or poly:X1,Y1;X2,Y2;X3,Y3..."

#: Segments per quarter circle of a disc's polygon approximation (``.geometry``).
_QUAD_SEGS = 32
#: Largest size of a footprint (radius, side, coordinate) in metres: 1000 km.
MAX_FOOTPRINT_M = 1e6


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
    #: The numbers the footprint was built from (for :meth:`to_spec`):
    #: ``(length, width, rx, ry)`` of a rectangle, the vertices of a polygon.
    params: tuple = field(default=(), repr=False, compare=False)

    # ------------------------------------------------------------ builders
    # (every size is at most MAX_FOOTPRINT_M: shapely's buffers and areas
    # overflow, with warnings on stderr, long before 1e308)
    @classmethod
    def disc(cls, radius: float) -> "Footprint":
        """A disc of ``radius`` metres centred on the reference point."""
        r = check_float("radius", radius, min_value=0.0, strict_min=True,
                        max_value=MAX_FOOTPRINT_M)
        return cls("disc", Point(0.0, 0.0).buffer(r, quad_segs=_QUAD_SEGS), r)

    @classmethod
    def rectangle(cls, length: float, width: float, *,
                  ref: Sequence[float] = (0.0, 0.0)) -> "Footprint":
        """A ``length`` (along the heading) x ``width`` rectangle.

        ``ref`` is the reference point in the rectangle's own frame measured
        from its centre (``(0.1, 0)`` puts the reference point 0.1 m ahead of
        the centre, e.g. on the axle of a car-like robot).
        """
        L = check_float("length", length, min_value=0.0, strict_min=True,
                        max_value=MAX_FOOTPRINT_M)
        W = check_float("width", width, min_value=0.0, strict_min=True,
                        max_value=MAX_FOOTPRINT_M)
        rx, ry = _pair("ref", ref)
        if max(abs(rx), abs(ry)) > MAX_FOOTPRINT_M:
            raise ParameterError(f"ref must lie within {MAX_FOOTPRINT_M:g} m of the centre, "
                                 f"got {ref!r}")
        geom = box(-L / 2 - rx, -W / 2 - ry, L / 2 - rx, W / 2 - ry)
        return cls("rectangle", shapely.normalize(geom), params=(L, W, rx, ry))

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
        pts = None
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
            if np.abs(pts).max() > MAX_FOOTPRINT_M:
                raise ParameterError(f"polygon coordinates must be within "
                                     f"{MAX_FOOTPRINT_M:g} m of the reference point")
            geom = Polygon(pts)
        if geom.is_empty or not geom.is_valid or geom.area <= 0.0:
            why = shapely.is_valid_reason(geom) if not geom.is_empty else "empty"
            raise ParameterError(
                f"polygon footprint is not a valid polygon with area ({why}); "
                f"expected a simple, non-self-intersecting ring")
        if pts is None:
            pts = np.asarray(geom.exterior.coords)[:-1]
        verts = tuple((float(x), float(y)) for x, y in pts)
        return cls("polygon", shapely.normalize(geom), params=verts)

    # ------------------------------------------------------------ specs
    @classmethod
    def from_spec(cls, spec: "str | dict | Footprint") -> "Footprint":
        """A footprint from its spec string or table (see the module notes).

        Parameters
        ----------
        spec : str, dict or Footprint
            ``"disc:0.1"``, ``"rect:0.4x0.2@0.1,0"``, ``"poly:0,0;1,0;0,1"``,
            or a table such as ``{"shape": "disc", "radius": 0.1}``. A
            Footprint is returned as is.

        Raises
        ------
        ParameterError
            Naming the spec, what is wrong with it and the accepted forms.

        Examples
        --------
        >>> Footprint.from_spec("rect:0.6x0.4@0.1,0").to_spec()
        'rect:0.6x0.4@0.1,0'
        >>> Footprint.from_spec({"shape": "disc", "radius": 0.25}).to_spec()
        'disc:0.25'
        >>> Footprint.from_spec("poly:0,0;1,0;0,1").to_table()
        {'shape': 'polygon', 'coords': [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]}
        """
        if isinstance(spec, Footprint):
            return spec
        if isinstance(spec, str):
            return _from_text(cls, spec)
        if isinstance(spec, dict):
            return _from_table(cls, spec)
        raise ParameterError(f"footprint must be a spec string ({SPEC_FORMS}) or a table, "
                             f"got {spec!r}")

    def to_spec(self) -> str:
        """The spec string (``disc:R``, ``rect:LxW[@RX,RY]``, ``poly:...``) that rebuilds this footprint.

        >>> Footprint.rectangle(0.4, 0.2).to_spec(), Footprint.disc(1e-05).to_spec()
        ('rect:0.4x0.2', 'disc:1e-05')
        """
        if self.kind == "disc":
            return f"disc:{_num_text(self.radius)}"
        if self.kind == "rectangle":
            L, W, rx, ry = self._rect_params()
            ref = "" if rx == 0.0 and ry == 0.0 else f"@{_num_text(rx)},{_num_text(ry)}"
            return f"rect:{_num_text(L)}x{_num_text(W)}{ref}"
        return "poly:" + ";".join(f"{_num_text(x)},{_num_text(y)}"
                                  for x, y in self._poly_params())

    def to_table(self) -> dict:
        """The canonical TOML/JSON table of this footprint (what sweep files store).

        >>> Footprint.rectangle(0.4, 0.2).to_table()
        {'shape': 'rectangle', 'length': 0.4, 'width': 0.2, 'ref': [0.0, 0.0]}
        """
        if self.kind == "disc":
            return {"shape": "disc", "radius": float(self.radius)}
        if self.kind == "rectangle":
            L, W, rx, ry = self._rect_params()
            return {"shape": "rectangle", "length": L, "width": W, "ref": [rx, ry]}
        return {"shape": "polygon", "coords": [[x, y] for x, y in self._poly_params()]}

    def _rect_params(self) -> tuple:
        if self.params:
            return tuple(float(v) for v in self.params)
        minx, miny, maxx, maxy = self.geometry.bounds  # built without params: recover
        return (maxx - minx, maxy - miny, -(minx + maxx) / 2, -(miny + maxy) / 2)

    def _poly_params(self) -> tuple:
        return self.params if self.params else tuple(map(tuple, self.vertices.tolist()))

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


def check_footprint(footprint, name: str = "footprint", *, optional: bool = True,
                    radius: bool = False) -> "Footprint | None":
    """A footprint argument checked at a front end's door: the one check.

    The doors -- :func:`robomaze.plan.plan`, :func:`robomaze.plan.make_path`,
    the simulator's :class:`~robomaze.sim.Robot`, the Gymnasium env -- call
    this once; the planners, geometry and metrics below them take what it
    let through and check nothing again. A footprint *string* is read by
    :func:`robomaze.world.parse_footprint` (the world's door), never here.

    Parameters
    ----------
    footprint : Footprint, None or float
    name : str
        The argument's name in the message.
    optional : bool
        None (a point robot) is allowed.
    radius : bool
        A number is a disc radius in metres.

    >>> check_footprint(None) is None
    True
    >>> check_footprint(0.2, radius=True).radius
    0.2
    >>> check_footprint("disc:0.1")
    Traceback (most recent call last):
    ...
    robomaze.errors.ParameterError: footprint must be a Footprint or None, got str
    """
    if radius and isinstance(footprint, numbers.Real) and not isinstance(footprint, bool):
        return Footprint.disc(float(footprint))
    if isinstance(footprint, Footprint) or (optional and footprint is None):
        return footprint
    want = " or ".join(["a Footprint"] + (["a disc radius in metres"] if radius else [])
                       + (["None"] if optional else []))
    raise ParameterError(f"{name} must be {want}, got {type(footprint).__name__}")


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


def _num_text(v: float) -> str:
    """Shortest exact decimal text of ``v`` (``1.0`` -> ``'1'``, ``0.1`` -> ``'0.1'``)."""
    text = repr(float(v))
    return text[:-2] if text.endswith(".0") else text


def _number(text: str) -> float:
    v = float(text)  # ValueError on junk, caught by the caller
    if not math.isfinite(v):
        raise ValueError(text)
    return v


def _from_text(cls, text: str) -> Footprint:
    kind, sep, body = text.strip().partition(":")
    kind = kind.strip().lower()
    try:
        if sep and kind == "disc":
            return cls.disc(_number(body))
        if sep and kind in ("rect", "rectangle"):
            dims, at, ref = body.partition("@")
            parts = dims.lower().split("x")
            if len(parts) != 2:
                raise ValueError(dims)
            length, width = (_number(v) for v in parts)
            r = ref.split(",")
            if at and len(r) != 2:
                raise ValueError(ref)
            rx, ry = (_number(v) for v in r) if at else (0.0, 0.0)
            return cls.rectangle(length, width, ref=(rx, ry))
        if sep and kind in ("poly", "polygon"):
            pts = []
            for p in body.split(";"):
                xy = p.split(",")
                if len(xy) != 2:
                    raise ValueError(p)
                pts.append(tuple(_number(v) for v in xy))
            return cls.polygon(pts)
    except ParameterError as exc:
        raise ParameterError(f"footprint {text!r}: {exc}") from None
    except ValueError:
        pass
    raise ParameterError(f"footprint must be {SPEC_FORMS} (metres), got {text!r}")


_TABLE_KEYS = {"disc": ("radius",), "rectangle": ("length", "width", "ref"),
               "polygon": ("coords",)}


def _from_table(cls, table: dict[str, Any]) -> Footprint:
    shape = table.get("shape")
    if shape not in _TABLE_KEYS:
        raise ParameterError(f"footprint table needs shape = 'disc', 'rectangle' or "
                             f"'polygon', got {table!r}")
    unknown = set(table) - {"shape", *_TABLE_KEYS[shape]}
    if unknown:
        raise ParameterError(f"a {shape} footprint takes only the keys shape, "
                             f"{', '.join(_TABLE_KEYS[shape])} (unknown: "
                             f"{', '.join(sorted(map(str, unknown)))}), got {table!r}")
    missing = [k for k in _TABLE_KEYS[shape] if k != "ref" and k not in table]
    if missing:
        raise ParameterError(f"a {shape} footprint needs {', '.join(missing)}, got {table!r}")

    def real(name, v):
        if not isinstance(v, numbers.Real) or isinstance(v, bool):
            raise ParameterError(f"footprint {name} must be a number, got {v!r}")
        return float(v)

    if shape == "disc":
        return cls.disc(real("radius", table["radius"]))
    if shape == "rectangle":
        ref = table.get("ref", (0.0, 0.0))
        return cls.rectangle(real("length", table["length"]), real("width", table["width"]),
                             ref=tuple(ref) if isinstance(ref, (list, tuple)) else ref)
    coords = table["coords"]
    if not isinstance(coords, (list, tuple)) or not all(
            isinstance(p, (list, tuple)) and len(p) == 2 for p in coords):
        raise ParameterError(f"footprint coords must be [[x, y], ...], got {coords!r}")
    return cls.polygon([(real("coords", x), real("coords", y)) for x, y in coords])


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
