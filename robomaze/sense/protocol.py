"""What the simulator asks of any sensor: the sensor protocol.

A sensor is any object with

* ``observe(grid, pose, *, rng=None, time=0.0)`` -> its reading of the
  world from a robot at pose ``(x, y, theta)`` (a
  :class:`~robomaze.sense.LaserScan` for a :class:`~robomaze.sense.RangeSensor`,
  a boolean array for a contact sensor, a heading for a compass, ...);
* ``describe()`` -> a JSON-friendly dict of its parameters (trajectory
  headers).

Range sensors are one kind: the simulator scans them in one numba call per
step, and the agents that read distances (``needs=("sensor:range",)`` in
their spec) ask for one. Every other sensor is called through ``observe``;
its readings reach the agent in ``obs["scans"]`` (and ``obs["scan"]`` when
it is the robot's first sensor). A sensor's spec in
:data:`robomaze.registry.SENSORS` carries the flag ``"range"`` when it
measures distances.

>>> from robomaze.sense import lidar
>>> isinstance(lidar(n_beams=4), Sensor)
True
>>> isinstance(object(), Sensor)
False
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

__all__ = ["Sensor", "is_sensor"]


@runtime_checkable
class Sensor(Protocol):
    """Anything the simulator can mount on a robot."""

    def observe(self, grid, pose, *, rng=None, time: float = 0.0) -> Any:
        """The reading from a robot at world ``pose = (x, y, theta)``."""

    def describe(self) -> dict:
        """JSON-friendly parameters, for trajectory headers."""


def is_sensor(obj: Any) -> bool:
    """Whether ``obj`` meets the sensor protocol."""
    return isinstance(obj, Sensor)
