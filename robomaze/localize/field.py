"""The likelihood field: distance from any point of the map to the nearest wall.

Nav2 AMCL reads the distance of a beam's end point to the nearest occupied
cell from a field at the map's resolution. A maze wall's *surface* lies
half a cell from the centre of the free cell next to it, so that lookup is
off by up to half a cell; here the map is supersampled ``factor`` times
before :func:`robomaze.grid.clearance_field` (the exact distance from a
sample's centre to the nearest occupied square), so the error is at most
half a sample. Distances are capped at ``max_dist`` (Nav2's
``laser_likelihood_max_dist``).

Nav2's field is 0 everywhere inside a wall, so a beam whose end point
went *through* the surface into the wall scores as well as one ending on
it: in a maze, whose walls are a cell thick, an estimate may slide up to a
wall's thickness towards the wall a beam hits at no cost. With
``inside="depth"`` a sample inside a wall holds its distance to the
nearest free sample instead -- the distance to the wall's surface from
either side -- and :attr:`LikelihoodField.inside` marks those samples (a
reading clipped at the sensor's minimum range ends in the wall on
purpose: :meth:`LikelihoodField.beam_table` with ``inside_zero=True``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validate import check_float, check_int
from ..errors import ParameterError
from ..grid import Frame, clearance_field

__all__ = ["LikelihoodField", "likelihood_field"]

#: Samples above which the supersampling factor is lowered (memory bound).
MAX_SAMPLES = 16_000_000


@dataclass(frozen=True, eq=False)
class LikelihoodField:
    """Distances (m) to the nearest wall on a sample grid over a map frame.

    ``values[r, c]`` covers the square of side ``sres`` whose north-west
    corner is ``(c * sres, (rows * factor - r) * sres)`` in the map frame;
    :attr:`kernel_args` is what the kernels of :mod:`robomaze.localize._kernels`
    take.
    """

    values: np.ndarray
    frame: Frame
    factor: int
    max_dist: float
    #: Samples inside walls when the field holds their depth (``inside="depth"``), else None.
    inside: np.ndarray | None = None

    @property
    def sres(self) -> float:
        return self.frame.resolution / self.factor

    @property
    def kernel_args(self) -> tuple:
        """``(field, sres, ox, oy, yaw, far)``."""
        ox, oy, yaw = self.frame.origin
        return (self.values, self.sres, float(ox), float(oy), float(yaw), self.max_dist)

    def beam_table(self, *, z_hit: float, z_rand: float, sigma: float,
                   range_max: float, inside_zero: bool = False) -> tuple[np.ndarray, float]:
        """``(table, far)``: each sample's ``pz^3`` for the likelihood-field model, and off the map.

        ``pz = z_hit exp(-z^2 / 2 sigma^2) + z_rand / range_max`` with ``z``
        the sample's distance (``max_dist`` off the map); with
        ``inside_zero`` samples inside walls count as distance 0.

        >>> from robomaze import Maze, widen
        >>> g = widen(Maze.empty(1, 1), corridor=3, wall=1, resolution=0.1)
        >>> t, far = likelihood_field(g.occupied, g.frame).beam_table(
        ...     z_hit=0.5, z_rand=0.5, sigma=0.1, range_max=1.0)
        >>> float(t.max()), far          # (0.5 + 0.5)^3 on a wall; 0.5^3 far away
        (1.0, 0.125)
        """
        def pz3(z):
            return (z_hit * np.exp(-(z * z) / (2.0 * sigma * sigma)) + z_rand / range_max) ** 3

        z = self.values
        if inside_zero and self.inside is not None:
            z = np.where(self.inside, 0.0, z)
        table = np.ascontiguousarray(pz3(z))
        table.setflags(write=False)
        return table, float(pz3(self.max_dist))

    def at(self, points) -> np.ndarray:
        """Distances at world points ``(n, 2)`` (``max_dist`` off the map).

        Each point reads the value at the centre of the sample holding it
        (here samples of 2.5 cm, walls at x = 0.1 and 0.4).

        >>> from robomaze import Maze, widen
        >>> g = widen(Maze.empty(1, 1), corridor=3, wall=1, resolution=0.1)
        >>> f = likelihood_field(g.occupied, g.frame, factor=4)
        >>> f.at([[0.24, 0.25], [0.09, 0.25], [0.11, 0.25], [0.5, 0.25]]).round(4).tolist()
        [0.1375, 0.0, 0.0125, 2.0]
        """
        p = np.asarray(points, float).reshape(-1, 2)
        lx, ly = self.frame.local(p[:, 0], p[:, 1])
        nr, nc = self.values.shape
        c = np.floor(np.asarray(lx) / self.sres).astype(np.int64)
        r = nr - 1 - np.floor(np.asarray(ly) / self.sres).astype(np.int64)
        ok = (r >= 0) & (r < nr) & (c >= 0) & (c < nc)
        out = np.full(len(p), self.max_dist)
        out[ok] = self.values[r[ok], c[ok]]
        return out


def likelihood_field(occupied, frame: Frame, *, factor: int = 4,
                     max_dist: float = 2.0, inside: str = "zero") -> LikelihoodField:
    """The :class:`LikelihoodField` of an occupancy array in ``frame``.

    Parameters
    ----------
    occupied : ndarray of bool, shape ``frame.shape``
        True where blocked. The outside of the map is not a wall (a beam
        ending there reads ``max_dist``, as in Nav2).
    frame : Frame
    factor : int
        Samples per cell side (lowered for huge maps so at most
        16 million samples are stored).
    max_dist : float
        Cap of the distances, metres.
    inside : {"zero", "depth"}
        What a sample inside a wall holds: 0 (Nav2), or its distance to
        the nearest free sample (see the module docstring).

    Raises
    ------
    ParameterError
        For a shape that is not the frame's, a factor below 1 or a
        non-positive ``max_dist``.
    """
    occ = np.asarray(occupied, dtype=bool)
    if occ.shape != tuple(frame.shape):
        raise ParameterError(f"occupied must have the frame's shape {tuple(frame.shape)}, "
                             f"got {occ.shape}")
    factor = check_int("factor", factor, min_value=1)
    max_dist = check_float("max_dist", max_dist, min_value=0.0, strict_min=True)
    if inside not in ("zero", "depth"):
        raise ParameterError(f"inside must be 'zero' or 'depth', got {inside!r}")
    while factor > 1 and occ.size * factor * factor > MAX_SAMPLES:
        factor -= 1
    big = np.repeat(np.repeat(occ, factor, axis=0), factor, axis=1) if factor > 1 else occ
    if big.any():
        d = clearance_field(big, outside_occupied=False) * (frame.resolution / factor)
        d = np.minimum(d, max_dist)
    else:
        d = np.full(big.shape, max_dist)
    mask = None
    if inside == "depth" and big.any() and not big.all():
        depth = clearance_field(~big, outside_occupied=False) * (frame.resolution / factor)
        d = np.where(big, np.minimum(depth, max_dist), d)
        mask = np.ascontiguousarray(big)
        mask.setflags(write=False)
    d = np.ascontiguousarray(d, dtype=np.float64)
    d.setflags(write=False)
    return LikelihoodField(d, frame, factor, float(max_dist), mask)
