"""The sensor presets' declarations: one :class:`~robomaze.registry.Spec` each.

A sensor factory ``factory(*, rng=None, **options)`` returns an object
meeting the sensor protocol (:mod:`robomaze.sense.protocol`); the flag
``"range"`` marks the ones that measure distances (:class:`RangeSensor`).

>>> from robomaze.registry import SENSORS
>>> SENSORS.spec("lidar").flag("range"), SENSORS.spec("lidar").option("n_beams").default
(True, 360)
"""

from __future__ import annotations

from ..registry import ANY, SENSORS, Option, Spec

__all__ = ["SPECS"]

_NOISE = Option("noise", ANY, None, "range noise model (robomaze.sense.noise)")
_MOUNT = Option("mount", ANY, (0.0, 0.0, 0.0), "(x, y, yaw) of the sensor on the robot")


def _range(name: str, description: str, rmin: float, rmax: float, beams: bool) -> Spec:
    opts = ((Option("n_beams", int, 360, "beams over the field of view", low=1),) if beams
            else ())
    opts += (Option("range_max", float, rmax, "longest range measured (m)", low=0.0),
             Option("range_min", float, rmin, "shortest range measured (m)", low=0.0),
             _NOISE, _MOUNT)
    return Spec("sensor", name, f"robomaze.sense.sensor:{name}", description, options=opts,
                takes_rng=True, flags=frozenset({"range"}))


SPECS = [
    _range("ir", "Micromouse-style IR: 5 beams at -90, -45, 0, 45 and 90 degrees, 0.02-0.3 m.",
           0.02, 0.3, beams=False),
    _range("lidar", "A full-circle planar lidar like the TurtleBot3's LDS-01: 360 beams, "
           "0.12-3.5 m.", 0.12, 3.5, beams=True),
    _range("lidar_long", "A long-range full-circle lidar like an RPLIDAR A2: 360 beams, "
           "0.15-12 m.", 0.15, 12.0, beams=True),
]

SENSORS.declare(*SPECS)
