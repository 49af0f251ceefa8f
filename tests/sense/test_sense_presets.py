"""Sensor presets are real sensors with ranges in metres, the same on every grid."""

import math

import numpy as np
import pytest

from robomaze import Maze, widen
from robomaze.errors import UnknownNameError
from robomaze.grid import OccupancyGrid
from robomaze.sense import SENSORS, make_sensor
from robomaze.sim.runner import default_sensor

# Published figures: TurtleBot3 LDS-01 (360 samples/rev, 120-3500 mm), RPLIDAR A2
# (0.15-12 m), and micromouse-class IR rangers (a few cm to ~30 cm).
DATASHEET = {"lidar": (360, 2 * math.pi, 0.12, 3.5), "lidar_long": (360, 2 * math.pi, 0.15, 12.0),
             "ir": (5, math.pi, 0.02, 0.3)}


@pytest.mark.parametrize("name", sorted(DATASHEET))
def test_presets_match_their_datasheets(name):
    s = make_sensor(name)
    assert (s.n_beams, s.fov, s.range_min, s.range_max) == DATASHEET[name]
    assert set(SENSORS) == set(DATASHEET)


@pytest.mark.parametrize("resolution", [0.01, 0.1, 1.0])
def test_default_sensor_is_not_sized_to_the_grid(resolution):
    g = widen(Maze.empty(3, 3), corridor=3, wall=1, resolution=resolution)
    for name in DATASHEET:
        assert default_sensor(name, g).describe() == make_sensor(name).describe()
    assert default_sensor("lidar", g, n_beams=36).n_beams == 36


def test_lidar_range_is_in_metres():
    # An empty 20 m x 20 m room (cells of 0.1 m): from (16.9, 10) the east wall is
    # 3.1 m away (a return), the other three are beyond 3.5 m (no return: +inf).
    g = OccupancyGrid(np.zeros((200, 200), bool), resolution=0.1)
    r = make_sensor("lidar", n_beams=4).scan(g, (16.9, 10.0, 0.0)).ranges   # W, S, E, N
    assert r[2] == pytest.approx(3.1) and np.isposinf(r[[0, 1, 3]]).all()
    r = make_sensor("lidar_long", n_beams=4).scan(g, (16.9, 10.0, 0.0)).ranges
    assert np.isposinf(r[0])                                  # 16.9 m: beyond 12 m
    assert r[1:].tolist() == pytest.approx([10.0, 3.1, 10.0])
    r = make_sensor("ir").scan(g, (19.8, 10.0, 0.0)).ranges                 # -90..90 deg
    assert r[2] == pytest.approx(0.2) and np.isposinf(r[[0, 4]]).all()


def test_unknown_preset_names_the_choices():
    with pytest.raises(UnknownNameError, match="lidar_long"):
        make_sensor("lidar_short")
