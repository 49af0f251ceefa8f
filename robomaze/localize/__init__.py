"""Localisation: where the robot believes it is, from odometry and its range scans.

``LOCALIZERS`` maps a name to a factory ``factory(grid, sensor, start, *,
rng, **options)`` returning an object with ``update(odom, ranges) ->
(x, y, theta)`` (called once per simulator step with the odometry pose
and the scan) and ``estimate``:

* ``mcl`` -- :class:`~robomaze.localize.mcl.MCL`, adaptive Monte Carlo
  localisation on the known map (``grid``);
* ``slam`` -- :class:`~robomaze.localize.slam.ScanMatchingSLAM`, a log-odds
  occupancy map built from the scans and correlative scan matching
  against it (uses only ``grid.frame``, never the walls).

``none`` (dead reckoning: the odometry is the estimate) is not an entry:
:func:`robomaze.sim.simulate` then runs exactly as without this package.
Errors of a run are measured by :mod:`robomaze.metrics.localisation` and
written for ``evo`` by :mod:`robomaze.localize.tum`.
"""

from __future__ import annotations

from ..registry import Registry
from ..errors import unknown_name
# the errors are metrics (robomaze.metrics.localisation); kept here as before
from ..metrics.localisation import ate_rmse, lost_time, map_iou, rpe_per_metre
from .mcl import MCL
from .slam import ScanMatchingSLAM
from .tum import read_tum, write_tum

__all__ = ["LOCALIZERS", "LOCALIZE_CHOICES", "MCL", "ScanMatchingSLAM", "make_localizer",
           "ate_rmse", "rpe_per_metre", "lost_time", "map_iou", "write_tum", "read_tum"]


def _mcl(grid, sensor, start, *, rng=None, **options) -> MCL:
    return MCL(grid, sensor, start, rng=rng, **options)


def _slam(grid, sensor, start, *, rng=None, **options) -> ScanMatchingSLAM:
    return ScanMatchingSLAM(grid.frame, sensor, start, **options)


LOCALIZERS: Registry = Registry("localizer", None, {"mcl": _mcl, "slam": _slam})

#: The values of the ``localize`` option (sweep axis, CLI flag, gym option).
LOCALIZE_CHOICES = ("none", "mcl", "slam")


def make_localizer(name: str, grid, sensor, start, *, rng=None, **options):
    """The localizer ``name`` of :data:`LOCALIZERS` for a run starting at ``start``."""
    if name not in LOCALIZERS:
        raise unknown_name("localizer", name, LOCALIZERS)
    return LOCALIZERS[name](grid, sensor, start, rng=rng, **options)
