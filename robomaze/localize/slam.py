"""Mapping in an unknown maze: a log-odds grid corrected by correlative scan matching.

:class:`ScanMatchingSLAM` knows only the map *frame* (size, resolution,
origin) and the start pose. Each step:

1. *predict* -- the last estimate moved by the odometry step since the
   previous call;
2. *match* -- :func:`robomaze.localize._kernels.match_scan` searches a
   window of ``lin_window`` metres and ``ang_window`` radians around the
   prediction (steps ``lin_step``, ``ang_step``) for the pose whose beam
   end points (``max_beams`` of the scan) lie closest to the walls of the
   map built so far, scored on that map's distance field
   (:func:`~robomaze.localize.field.likelihood_field`) with a Gaussian of
   ``sigma``; with fewer than ``min_beams`` usable beams or no wall yet
   the prediction stands;
3. *map* -- the whole scan is added at the matched pose with
   :func:`robomaze.sense.mark_scan`: each cell's log-odds is
   ``l_occ * hits - l_free * passes`` (a cell is occupied when positive,
   free when negative, unknown at 0), and the distance field is rebuilt
   when the set of occupied cells changed.

Because every scan is matched against the map before it is added, the
odometry's drift does not tear the map: the error stays at the scale of
the matcher's resolution instead of growing with the distance travelled.

>>> from robomaze import Maze, widen
>>> from robomaze.sense import lidar
>>> g = widen(Maze.empty(1, 3), corridor=5, wall=1, resolution=0.1)
>>> s = lidar(n_beams=90)
>>> slam = ScanMatchingSLAM(g.frame, s, (0.35, 0.35, 0.0))
>>> pose = slam.update((0.35, 0.35, 0.0), s.readings(g, (0.35, 0.35, 0.0)))
>>> pose = slam.update((0.45, 0.35, 0.0), s.readings(g, (0.40, 0.35, 0.0)))  # odometry 5 cm long
>>> abs(pose[0] - 0.40) < 0.02      # the scan, not the odometry, says where it is
True
"""

from __future__ import annotations

import numpy as np

from .._validate import check_float, check_int
from ..errors import ParameterError
from ..grid import Frame
from ..sense import mark_scan
from . import _kernels
from .field import likelihood_field
from .mcl import beam_subset
from .pose import compose, relative

__all__ = ["ScanMatchingSLAM"]


class ScanMatchingSLAM:
    """Log-odds mapping with correlative scan matching (see the module docstring).

    Parameters
    ----------
    frame : Frame
        The map frame (the built map has its shape).
    sensor : RangeSensor
    start : (x, y, theta)
        The known start pose (the map's anchor).
    max_beams, min_beams : int
        Beams used for matching; fewer usable ones skip the match.
    l_occ, l_free : float
        Log-odds added per hit and removed per pass.
    sigma : float
        Width (m) of the matching score's Gaussian.
    lin_window, lin_step, ang_window, ang_step : float
        The search window and its steps (m, m, rad, rad).
    prior : float
        Score removed per squared step away from the prediction.
    field_factor : int
        Supersampling of the map's distance field.
    """

    def __init__(self, frame: Frame, sensor, start, *, max_beams: int = 60, min_beams: int = 6,
                 l_occ: float = 0.85, l_free: float = 0.4, sigma: float = 0.05,
                 lin_window: float = 0.075, lin_step: float = 0.0125, ang_window: float = 0.06,
                 ang_step: float = 0.01, prior: float = 0.002, field_factor: int = 4) -> None:
        if not isinstance(frame, Frame):
            raise ParameterError(f"frame must be a Frame, got {type(frame).__name__}")
        self.frame = frame
        self.sensor = sensor
        self.min_beams = check_int("min_beams", min_beams, min_value=1)
        self.l_occ = check_float("l_occ", l_occ, min_value=0.0, strict_min=True)
        self.l_free = check_float("l_free", l_free, min_value=0.0, strict_min=True)
        self.sigma = check_float("sigma", sigma, min_value=0.0, strict_min=True)
        self.lin_window = check_float("lin_window", lin_window, min_value=0.0)
        self.lin_step = check_float("lin_step", lin_step, min_value=0.0, strict_min=True)
        self.ang_window = check_float("ang_window", ang_window, min_value=0.0)
        self.ang_step = check_float("ang_step", ang_step, min_value=0.0, strict_min=True)
        self.prior = check_float("prior", prior, min_value=0.0)
        self.field_factor = check_int("field_factor", field_factor, min_value=1)
        self._beams = beam_subset(sensor, check_int("max_beams", max_beams, min_value=1))
        rows, cols = frame.shape
        self.hits = np.zeros(rows * cols, np.int32)
        self.passes = np.zeros(rows * cols, np.int32)
        self._n_occ = 0
        self._field = None
        self.matches = 0
        self.estimate = tuple(float(v) for v in start[:3])
        self._odom = None

    @property
    def log_odds(self) -> np.ndarray:
        """``(rows, cols)`` log-odds of occupancy."""
        return (self.l_occ * self.hits - self.l_free * self.passes).reshape(self.frame.shape)

    @property
    def occupied(self) -> np.ndarray:
        return self.log_odds > 0

    @property
    def free(self) -> np.ndarray:
        return self.log_odds < 0

    def update(self, odom, ranges) -> tuple[float, float, float]:
        """Feed one step's odometry pose and scan ranges; returns the pose estimate."""
        odom = (float(odom[0]), float(odom[1]), float(odom[2]))
        ranges = np.asarray(ranges, float)
        if self._odom is not None:
            pred = compose(self.estimate, relative(self._odom, odom))
            self.estimate = self._match(pred, ranges)
        self._odom = odom
        mark_scan(self.frame, self.sensor, self.estimate, ranges, self.passes, self.hits)
        n_occ = int(np.count_nonzero(self.l_occ * self.hits > self.l_free * self.passes))
        if n_occ != self._n_occ:
            self._n_occ = n_occ
            self._field = None
            if n_occ:
                f = likelihood_field(self.occupied, self.frame, factor=self.field_factor,
                                     max_dist=1.0)
                d2 = 2.0 * self.sigma * self.sigma
                self._field = (np.exp(-(f.values * f.values) / d2), *f.kernel_args[1:5],
                               float(np.exp(-f.max_dist ** 2 / d2)))
        return self.estimate

    def _match(self, pred, ranges):
        if self._field is None:
            return pred
        idx, mount, cos_b, sin_b = self._beams
        r = np.ascontiguousarray(ranges[idx])
        s = self.sensor
        x, y, th, score, used = _kernels.match_scan(
            *self._field, pred[0], pred[1], pred[2], mount, cos_b, sin_b, r,
            s.range_min, s.range_max, self.lin_window, self.lin_step,
            self.ang_window, self.ang_step, self.prior)
        if used < self.min_beams:
            return pred
        self.matches += 1
        return (float(x), float(y), float(th))
