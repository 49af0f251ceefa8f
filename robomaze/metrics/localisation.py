"""How well a robot knew where it was: trajectory and map errors, ambiguity, recovery.

Part of :mod:`robomaze.metrics` (the "Metric names" table there names every
row key). Trajectory and map errors as SLAM evaluations report them.

Both trajectories are in the map frame, so no alignment is applied (evo's
``evo_ape`` without ``--align``):

* :func:`ate_rmse` -- absolute trajectory error, the RMSE of the position
  differences (evo ``APE`` on the translation part);
* :func:`rpe_per_metre` -- relative pose error over 1 m of travelled true
  path: for each pose ``i`` the first later pose ``j`` at least ``delta``
  metres further along the true path, the translation of
  ``(T_i^-1 T_j)^-1 (E_i^-1 E_j)``, as an RMSE divided by ``delta``
  (evo ``evo_rpe --delta 1 --delta_unit m``, divided by the delta);
* :func:`lost_time` -- seconds during which the position error exceeds a
  threshold;
* :func:`map_iou` -- intersection over union of the built map's occupied
  cells with the true walls, and of its free cells with the true free
  space (unknown cells are in neither set);
* :func:`recovery_time` -- after a kidnapping (:mod:`robomaze.sim.kidnap`),
  the seconds until the estimate is back for good;
* :func:`localization_metrics` -- a run's table: the errors above, and for
  MCL its ambiguity (``loc_ambiguity``, ``loc_ambiguity_max``) and
  relocalisations, for a mapping localizer the map IoUs.

>>> import numpy as np
>>> truth = np.array([[0.0, 0, 0], [1.0, 0, 0], [2.0, 0, 0]])
>>> est = truth + [0.0, 0.3, 0.0]
>>> round(ate_rmse(truth, est), 6), round(rpe_per_metre(truth, est), 6)
(0.3, 0.0)
"""

from __future__ import annotations

import math

import numpy as np

from .._validate import check_float
from ..errors import ParameterError

__all__ = ["ate_rmse", "rpe_per_metre", "lost_time", "map_iou", "position_errors",
           "recovery_time", "RECOVERED_M", "RECOVERED_RAD", "RECOVERED_HOLD_S",
           "localization_metrics"]

#: Position and heading error under which the estimate counts as found again.
RECOVERED_M = 0.3
RECOVERED_RAD = 0.35
#: ... and for how long (simulated seconds) it must stay there.
RECOVERED_HOLD_S = 2.0


def _pair(truth, estimate) -> tuple[np.ndarray, np.ndarray]:
    t = np.asarray(truth, float)
    e = np.asarray(estimate, float)
    if t.ndim != 2 or t.shape[1] < 2 or t.shape != e.shape or len(t) == 0:
        raise ParameterError(f"truth and estimate must be matching non-empty (n, 2|3) arrays, "
                             f"got shapes {t.shape} and {e.shape}")
    return t, e


def position_errors(truth, estimate) -> np.ndarray:
    """Euclidean position error per row (m)."""
    t, e = _pair(truth, estimate)
    return np.hypot(e[:, 0] - t[:, 0], e[:, 1] - t[:, 1])


def ate_rmse(truth, estimate) -> float:
    """RMSE (m) of the position errors, no alignment."""
    d = position_errors(truth, estimate)
    return float(math.sqrt(float(np.mean(d * d))))


def _se2(p: np.ndarray) -> np.ndarray:
    c, s = np.cos(p[:, 2]), np.sin(p[:, 2])
    m = np.zeros((len(p), 3, 3))
    m[:, 0, 0], m[:, 0, 1], m[:, 0, 2] = c, -s, p[:, 0]
    m[:, 1, 0], m[:, 1, 1], m[:, 1, 2] = s, c, p[:, 1]
    m[:, 2, 2] = 1.0
    return m


def rpe_per_metre(truth, estimate, *, delta: float = 1.0) -> float:
    """Translational relative pose error per metre over ``delta`` m of true path (NaN if shorter)."""
    t, e = _pair(truth, estimate)
    delta = check_float("delta", delta, min_value=0.0, strict_min=True)
    if t.shape[1] < 3:
        raise ParameterError("rpe_per_metre needs (x, y, theta) poses")
    s = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(t[:, :2], axis=0).T))])
    j = np.searchsorted(s, s + delta - 1e-12, side="left")
    i = np.flatnonzero(j < len(t))
    if len(i) == 0:
        return math.nan
    j = j[i]
    T, E = _se2(t), _se2(e)
    dt = np.linalg.inv(T[i]) @ T[j]
    de = np.linalg.inv(E[i]) @ E[j]
    err = np.linalg.inv(dt) @ de
    d = np.hypot(err[:, 0, 2], err[:, 1, 2])
    return float(math.sqrt(float(np.mean(d * d))) / delta)


def lost_time(truth, estimate, dt: float, *, threshold: float = 0.15) -> float:
    """Seconds (``dt`` per row after the first) whose position error exceeds ``threshold`` m."""
    d = position_errors(truth, estimate)
    check_float("threshold", threshold, min_value=0.0)
    return float(np.count_nonzero(d[1:] > threshold) * dt)


def map_iou(occupied, free, truth_occupied) -> tuple[float, float]:
    """``(IoU of occupied cells, IoU of free cells)`` of a built map against the true grid.

    >>> t = np.array([[True, False, False]])
    >>> map_iou(np.array([[True, True, False]]), np.array([[False, False, True]]), t)
    (0.5, 0.5)
    """
    occ, fr, tr = (np.asarray(a, bool) for a in (occupied, free, truth_occupied))
    if not (occ.shape == fr.shape == tr.shape):
        raise ParameterError(f"map arrays must share a shape, got {occ.shape}, {fr.shape}, "
                             f"{tr.shape}")

    def iou(a, b):
        union = np.count_nonzero(a | b)
        return float(np.count_nonzero(a & b) / union) if union else math.nan

    return iou(occ, tr), iou(fr, ~tr)


def recovery_time(truth: np.ndarray, estimate: np.ndarray, dt: float, t_kidnap: float) -> float:
    """Seconds from ``t_kidnap`` until the estimate is within the recovery bounds for good.

    "For good": within ``RECOVERED_M`` and ``RECOVERED_RAD`` of the truth at
    every row of at least ``RECOVERED_HOLD_S`` seconds (or to the end of the
    run, when less remains); NaN when that never happens.

    >>> t = np.zeros((100, 3)); e = t.copy(); e[:50, 0] = 1.0
    >>> recovery_time(t, e, 0.1, 2.0)
    3.0
    """
    truth = np.asarray(truth, float)
    est = np.asarray(estimate, float)
    n = min(len(truth), len(est))
    err = np.hypot(truth[:n, 0] - est[:n, 0], truth[:n, 1] - est[:n, 1])
    dth = np.abs(np.remainder(truth[:n, 2] - est[:n, 2] + math.pi, 2 * math.pi) - math.pi)
    ok = (err <= RECOVERED_M) & (dth <= RECOVERED_RAD)
    first = int(math.ceil(t_kidnap / dt - 1e-9))
    hold = max(1, int(round(RECOVERED_HOLD_S / dt)))
    bad = np.flatnonzero(~ok[first:]) + first
    # candidate starts: the kidnap row, and each row after a bad one
    for start in np.r_[first, bad + 1]:
        if start >= n:
            break
        end = min(n, start + hold)
        if ok[start:end].all():
            return float(start * dt - t_kidnap) if start * dt >= t_kidnap else 0.0
    return math.nan


def localization_metrics(traj, estimate: np.ndarray, grid, localizer) -> dict:
    """``ate_rmse``, ``rpe_per_m``, ``lost_time``; for MCL its ambiguity and relocalisations;
    for a mapping localizer the map IoUs (``traj``: the run's
    :class:`~robomaze.sim.Trajectory`, ``estimate`` the localizer's pose per row).

    ``loc_ambiguity``: the particle weight outside the estimate's cluster,
    averaged over the last quarter of the filter's updates (0: one mode;
    near 1: the estimate holds little of the cloud, e.g. a symmetric room's
    rotated copies); ``loc_ambiguity_max`` its largest value after the
    first 10 updates; ``relocalizations``: global relocalisations.
    """
    truth = traj.poses
    dt = float(traj.meta.get("dt", 0.0))
    out = {"ate_rmse": ate_rmse(truth, estimate), "rpe_per_m": rpe_per_metre(truth, estimate),
           "lost_time": lost_time(truth, estimate, dt)}
    hist = getattr(localizer, "ambiguity_history", None)
    if hist is not None:
        h = np.asarray(hist, float)
        out["loc_ambiguity"] = float(h[-max(1, len(h) // 4):].mean()) if len(h) else 0.0
        out["loc_ambiguity_max"] = float(h[10:].max()) if len(h) > 10 else (
            float(h.max()) if len(h) else 0.0)
        out["relocalizations"] = int(getattr(localizer, "relocalizations", 0))
    if hasattr(localizer, "occupied") and hasattr(localizer, "free"):
        occ, free = map_iou(localizer.occupied, localizer.free, grid.occupied)
        out["map_iou_occupied"], out["map_iou_free"] = occ, free
    return out
