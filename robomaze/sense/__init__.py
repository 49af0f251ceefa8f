"""Sensing (any sensor meets :mod:`robomaze.sense.protocol`); range sensing: exact DDA ray casting, range sensors, LaserScan, noise models.

``SENSORS`` maps preset names (``"ir"``, ``"lidar"``, ``"lidar_long"``) to factories
(real sensors, ranges in metres).

>>> import numpy as np
>>> from robomaze import Maze, widen
>>> g = widen(Maze.empty(1, 1), corridor=3, wall=1)
>>> lidar(n_beams=4).scan(g, (2.5, 2.5, 0.0)).ranges   # west, south, east, north
array([1.5, 1.5, 1.5, 1.5])
"""

from .noise import BeamModel, Compose, Dropout, Gaussian, Proportional, compose
from .sensor import SENSORS, LaserScan, RangeSensor, ir, lidar, lidar_long, make_sensor
from .raycast import cast_rays, mark_scan, scan_into, scan_rows
from .protocol import ReadingSpace, Sensor, is_sensor, reading_space
from . import _specs  # noqa: F401,E402  (declares the presets in SENSORS)

__all__ = ["RangeSensor", "LaserScan", "ir", "lidar", "lidar_long", "SENSORS", "make_sensor",
           "Sensor", "is_sensor", "ReadingSpace", "reading_space",
           "cast_rays", "mark_scan", "scan_into", "scan_rows",
           "Gaussian", "Proportional", "Dropout", "BeamModel", "Compose", "compose"]
