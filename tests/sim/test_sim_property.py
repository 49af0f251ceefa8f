"""Property: a robot too wide for the corridors never ends up inside or beyond a wall."""

import math

import numpy as np
import shapely
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import Point
from shapely.ops import unary_union

from robomaze.geometry import Footprint
from robomaze.grid import OccupancyGrid
from robomaze.sim import Collider, Kinematics, Robot, SimEnv

RES = 0.1


def layout():
    occ = np.ones((24, 24), bool)
    occ[1:13, 1:13] = False                 # a 1.2 m room
    occ[14:23, 14:16] = False               # narrow 0.2 m corridors beyond thin walls
    occ[14:16, 1:23] = False
    occ[1:13, 14:16] = False
    occ[5:7, 13] = False                    # 0.2 m gaps out of the room
    occ[13, 5:7] = False
    return OccupancyGrid(occ, resolution=RES)


GRID = layout()
ROOM = shapely.box(0.1, 2.4 - 1.3, 1.3, 2.4 - 0.1)    # world extent of the room
OBST = unary_union(
    [shapely.box(c * RES, (23 - r) * RES, (c + 1) * RES, (24 - r) * RES)
     for r, c in zip(*np.nonzero(GRID.occupied))]
    + [shapely.box(-5, -5, 7.4, 7.4).difference(shapely.box(0, 0, 2.4, 2.4))])
FOOTPRINTS = [Footprint.disc(0.25), Footprint.rectangle(0.6, 0.3, ref=(0.1, 0.0)),
              Footprint.polygon([(0.35, 0.0), (-0.2, 0.3), (-0.05, 0.0), (-0.2, -0.3)])]


def touches(fp, pose):
    x, y, th = pose
    if fp.kind == "disc":
        return Point(x, y).distance(OBST) <= fp.radius
    return fp.at(x, y, th).intersects(OBST)


@settings(deadline=None, max_examples=30)
@given(which=st.integers(0, 2), x=st.floats(0.2, 1.2), y=st.floats(1.2, 2.2),
       th=st.floats(-math.pi, math.pi),
       commands=st.lists(st.tuples(st.floats(-3.0, 3.0), st.floats(-6.0, 6.0)),
                         min_size=1, max_size=40),
       dt=st.sampled_from([0.05, 0.2, 0.5]))
def test_too_wide_robot_never_passes_through_a_wall(which, x, y, th, commands, dt):
    fp = FOOTPRINTS[which]
    assume(not touches(fp, (x, y, th)))
    kin = Kinematics(v_max=2.0, omega_max=5.0, a_max=20.0, alpha_max=50.0)
    env = SimEnv(GRID, Robot(fp, kin), start=(x, y, th), goal=(2.25, 0.25), dt=dt,
                 max_steps=len(commands))
    env.reset()
    for cmd in commands:
        env.step(cmd)
    tr = env.trajectory()
    for i in range(1, len(tr)):
        pose = tuple(tr.poses[i])
        if tr.collisions[i]:
            assert pose == tuple(tr.poses[i - 1])      # refused: stayed put
        else:
            assert not touches(fp, pose)
        assert ROOM.contains(Point(pose[0], pose[1]))  # never beyond the room's walls


def test_the_robot_cannot_fit_through_the_gaps():
    # Sanity of the property's premise: no pose in a gap is free for any footprint.
    for fp in FOOTPRINTS:
        col = Collider(GRID, fp)
        for th in np.linspace(-math.pi, math.pi, 16):
            assert col.collides(1.35, 2.4 - 0.6, th)   # centre of the east gap
            assert col.collides(0.6, 2.4 - 1.35, th)   # centre of the south gap
