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

What one reading is -- its shape, type and bounds, which a learning
environment turns into an observation space -- is :func:`reading_space`: a
sensor may say it with a ``reading_space()`` method returning a
:class:`ReadingSpace`; a range sensor's is its ``n_beams`` finite ranges in
``[0, range_max]``; for any other sensor it is read off one observation
(a boolean array reads as 0/1 switches, numbers as unbounded).

>>> from robomaze.sense import lidar
>>> isinstance(lidar(n_beams=4), Sensor)
True
>>> isinstance(object(), Sensor)
False
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np

from ..errors import ParameterError

__all__ = ["Sensor", "is_sensor", "ReadingSpace", "reading_space"]


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


@dataclass(frozen=True)
class ReadingSpace:
    """What one reading of a sensor is: ``shape``, numpy ``dtype`` name, bounds.

    ``dtype`` ``"bool"`` is a set of switches (``low`` 0, ``high`` 1).
    """

    shape: tuple
    dtype: str
    low: float = -math.inf
    high: float = math.inf


def reading_space(sensor, grid, pose) -> ReadingSpace:
    """The :class:`ReadingSpace` of ``sensor`` (see the module notes).

    ``grid`` and ``pose`` are where a sensor that does not declare its
    reading is observed once to read it off.

    >>> from robomaze import OccupancyGrid
    >>> from robomaze.sense import lidar
    >>> reading_space(lidar(n_beams=4), None, None)
    ReadingSpace(shape=(4,), dtype='float32', low=0.0, high=3.5)
    >>> class Compass:
    ...     def observe(self, grid, pose, *, rng=None, time=0.0): return np.array([pose[2]])
    ...     def describe(self): return {"type": "compass"}
    >>> reading_space(Compass(), OccupancyGrid(np.zeros((2, 2))), (1.0, 1.0, 0.5))
    ReadingSpace(shape=(1,), dtype='float64', low=-inf, high=inf)
    """
    declared = getattr(sensor, "reading_space", None)
    if callable(declared):
        space = declared()
        if not isinstance(space, ReadingSpace):
            raise ParameterError(f"{type(sensor).__name__}.reading_space() must return a "
                                 f"ReadingSpace, got {type(space).__name__}")
        return space
    reading = np.asarray(sensor.observe(grid, pose))
    if reading.dtype == bool:
        return ReadingSpace(reading.shape, "bool", 0.0, 1.0)
    if reading.dtype.kind not in "iuf":
        raise ParameterError(
            f"sensor {type(sensor).__name__} reads {reading.dtype} values, not numbers or "
            f"switches: give it a reading_space() method returning a ReadingSpace")
    return ReadingSpace(reading.shape, reading.dtype.name)
