"""Traffic worlds: corridor swaps and deadlocks, contacts without tunnelling, sensing, seeds."""

import math

import numpy as np
import pytest
import shapely
from shapely import affinity
from shapely.geometry import LineString, Point, box

from robomaze.errors import ParameterError
from robomaze.sense.raycast import scan_rows
from robomaze.traffic import (ObstacleSpec, OrcaParams, RobotSpec, TrafficSpec, build,
                              run_traffic)
from robomaze.traffic import _step
from robomaze.world import WorldSpec

ROBOT_WIDTH = 0.6  # two 0.3 m discs
DANGER = 0.05      # metres: the pedestrian test's danger threshold


def corridor(mult, *, k=24, cols=4):
    """A straight corridor ``mult`` robot widths wide (k cells across)."""
    return WorldSpec(generator="kruskal", rows=1, cols=cols, corridor=k,
                     resolution=mult * ROBOT_WIDTH / k, seed=0)


@pytest.mark.parametrize("mult", [2.05, 2.1, 2.25, 2.5, 3.0, 4.0, 6.0])
def test_two_robots_swap_ends_of_a_corridor_two_robot_widths_wide_or_more(mult):
    spec = TrafficSpec(world=corridor(mult), robots=RobotSpec(footprint="disc:0.3"), count=2,
                       max_steps=2000)
    r = run_traffic(spec)
    assert r.outcome == "success"
    assert r.metrics["arrived"] == 2 and r.metrics["collisions"] == 0
    assert r.metrics["clearance_robot"] > 0 and r.metrics["clearance_wall"] > 0
    assert r.metrics["makespan"] > 0


@pytest.mark.parametrize("mult", [1.2, 1.6, 1.9, 2.0])
def test_narrower_corridors_end_as_a_deadlock_not_a_timeout(mult):
    # 2.0 exactly: passing would need both robots to touch a wall and each
    # other, and touching is a collision -- ORCA stops them instead
    spec = TrafficSpec(world=corridor(mult), robots=RobotSpec(footprint="disc:0.3"), count=2,
                       max_steps=5000, stall_time=8.0)
    r = run_traffic(spec)
    assert r.outcome == "deadlock"
    assert r.metrics["stall"] in ("deadlock", "livelock")
    assert r.metrics["steps"] < 1000           # found long before the budget
    assert r.metrics["arrived"] == 0 and r.metrics["collisions"] == 0


def test_pedestrian_passing_keeps_clearance_above_danger_where_it_succeeds():
    seen = 0
    for mult in (1.5, 2.0, 2.5, 3.0, 4.0, 6.0):
        ws = corridor(mult, k=20)
        w0 = build(TrafficSpec(world=ws, robots=RobotSpec(footprint="disc:0.3"), count=1))
        s, g = w0.start[0], w0.goal[0]
        ped = ObstacleSpec(shape="disc:0.25", behaviour="pedestrian", speed=0.8,
                           start=tuple(g), waypoints=[tuple(s)])
        r = run_traffic(TrafficSpec(world=ws, robots=RobotSpec(footprint="disc:0.3"), count=1,
                                    obstacles=[ped], max_steps=1500))
        if r.outcome == "success":
            seen += 1
            assert r.metrics["clearance_obstacle"] > DANGER, mult
            assert r.metrics["collisions"] == 0
    assert seen >= 3  # the wide corridors succeed


def test_no_tunnelling_through_a_thin_wall_at_any_step_length():
    # a wall one cell (5 cm) thick between two rooms; 20 m/s for a whole second
    for dt in (0.01, 0.5, 1.0):
        spec = TrafficSpec(world=WorldSpec(generator="kruskal", rows=1, cols=2, corridor=20,
                                           wall=1, resolution=0.05, seed=0),
                           robots=RobotSpec(footprint="disc:0.2", kinematics="omni",
                                            v_max=20.0, a_max=1e6),
                           count=1, orca=OrcaParams(enabled=False), dt=dt, max_steps=10)
        w = build(spec)
        w.pose[0] = (0.5, 0.55, 0.0)
        for _ in range(3):
            w.step(mode=_step.COMMAND, command=[[0.0, 20.0, 0.0]])   # north, into the wall
        top = w.grid.height - 0.05
        assert w.pose[0, 1] + 0.2 <= top + 1e-9
        assert w.hits[0, _step.HIT_WALL] == 1            # one contact, counted once
        assert w.clear_wall[0] >= 0.0


def test_robots_meeting_at_speed_stop_at_contact_without_overlap():
    for dt in (0.05, 1.0):
        spec = TrafficSpec(world=corridor(6.0), count=2, dt=dt, orca=OrcaParams(enabled=False),
                           robots=RobotSpec(footprint="disc:0.3", kinematics="omni", v_max=10.0,
                                            a_max=1e6))
        w = build(spec)
        y = w.pose[0, 1]
        w.pose[0] = (1.0, y, 0.0)
        w.pose[1] = (3.0, y, 0.0)
        for _ in range(3):
            w.step(mode=_step.COMMAND, command=[[10.0, 0, 0], [-10.0, 0, 0]])
        gap = abs(w.pose[1, 0] - w.pose[0, 0]) - 0.6
        assert -1e-12 <= gap <= 1e-6
        assert w.hits[:, _step.HIT_ROBOT].tolist() == [1, 1]


def test_an_obstacle_blocks_a_robot_exactly_at_the_polygon():
    spec = TrafficSpec(world=corridor(6.0), count=1, orca=OrcaParams(enabled=False), dt=1.0,
                       robots=RobotSpec(footprint="rect:0.4x0.2", kinematics="omni",
                                        v_max=5.0, a_max=1e6),
                       obstacles=[ObstacleSpec(shape="poly:0,0;0.5,0.3;0,0.6", speed=0.0,
                                               behaviour="waypoints", start=(3.0, 1.5))])
    w = build(spec)
    w.pose[0] = (1.0, 1.7, 0.0)
    w.pose[1, 2] = 0.0
    w.step(mode=_step.COMMAND, command=[[5.0, 0, 0]])
    robot = affinity.translate(Footprint_geom(w, 0), *w.pose[0, :2])
    obst = affinity.translate(Footprint_geom(w, 1), *w.pose[1, :2])
    assert robot.distance(obst) <= 1e-6 and not robot.intersection(obst).area > 1e-9
    assert w.hits[0, _step.HIT_OBSTACLE] == 1


def Footprint_geom(w, i):
    fp = w.bodies.footprints[i]
    return affinity.rotate(fp.geometry, w.pose[i, 2], origin=(0, 0), use_radians=True)


def _world_geometry(w, skip):
    res, rows, cols, ox, oy, _ = w.grid.frame.kernel_args
    squares = [box(ox + c * res, oy + (rows - 1 - r) * res, ox + (c + 1) * res,
                   oy + (rows - r) * res) for r, c in zip(*np.nonzero(w.grid.occupied))]
    # outside the grid counts as occupied (the maze's openings lead there)
    outside = box(ox - 50, oy - 50, ox + cols * res + 50, oy + rows * res + 50).difference(
        box(ox, oy, ox + cols * res, oy + rows * res))
    bodies = [outside]
    for j in range(len(w.pose)):
        if j == skip:
            continue
        fp = w.bodies.footprints[j]
        g = Point(0, 0).buffer(fp.radius, 256) if fp.kind == "disc" else fp.geometry
        g = affinity.rotate(g, w.pose[j, 2], origin=(0, 0), use_radians=True)
        bodies.append(affinity.translate(g, *w.pose[j, :2]))
    return shapely.union_all(squares + bodies)


def test_range_sensors_see_other_robots_and_obstacles_exactly():
    spec = TrafficSpec(world=WorldSpec(generator="kruskal", rows=2, cols=2, braid=1.0,
                                       corridor=20, resolution=0.1, seed=2),
                       robots=RobotSpec(footprint="disc:0.2", beams=90), count=4,
                       assignment="random",
                       obstacles=[ObstacleSpec(shape="rect:0.5x0.3", behaviour="wander"),
                                  ObstacleSpec(shape="poly:0,0;0.4,0;0.4,0.4;0.2,0.1;0,0.4",
                                               behaviour="pedestrian")])
    w = build(spec)
    for _ in range(5):
        w.step()
    exact = w.exact_scan()
    s = w.sensors[0]
    seen_bodies = 0
    for i in range(w.n_robots):
        geom = _world_geometry(w, i)
        walls_only = w.sensors[i].cast_many(w.grid, w.pose[i])[0]
        x, y, th = w.pose[i]
        for b, ang in enumerate(s.angles):
            dx, dy = math.cos(th + ang), math.sin(th + ang)
            ray = LineString([(x, y), (x + s.range_max * dx, y + s.range_max * dy)])
            hit = ray.intersection(geom)
            ref = s.range_max if hit.is_empty else min(Point(x, y).distance(hit), s.range_max)
            assert exact[i, b] == pytest.approx(ref, abs=1e-4)
            seen_bodies += exact[i, b] < walls_only[b] - 1e-9
    assert seen_bodies > 0


@pytest.mark.parametrize("fov, beams", [(2 * math.pi, 64), (math.radians(300), 41),
                                         (math.radians(90), 7)])
def test_crowded_scans_equal_shapely_rays_in_every_field_of_view(fov, beams):
    # 24 robots and two obstacles, beams of a full circle and of fields of view
    # past and short of a half turn (a bearing beyond 180 degrees must still be
    # found): every beam's range against shapely's ray-vs-geometry intersection
    spec = TrafficSpec(world=WorldSpec(generator="kruskal", rows=3, cols=3, braid=1.0,
                                       corridor=20, resolution=0.1, seed=5),
                       robots=RobotSpec(footprint="disc:0.15", beams=beams), count=20,
                       assignment="random",
                       obstacles=[ObstacleSpec(shape="rect:0.5x0.3", behaviour="wander"),
                                  ObstacleSpec(shape="poly:0,0;0.4,0;0.4,0.4;0.2,0.1;0,0.4",
                                               behaviour="pedestrian")])
    w = build(spec)
    full = fov >= 2 * math.pi
    ang = (np.linspace(-math.pi, math.pi, beams, endpoint=False) if full
           else np.linspace(-fov / 2, fov / 2, beams))
    w._cos_b, w._sin_b = np.cos(ang)[None], np.sin(ang)[None]
    w._exact = np.empty((w.n_robots, beams))
    for _ in range(8):
        w.step()
    exact = w.exact_scan()
    rmax = float(w._rmax[0])
    for i in range(w.n_robots):
        geom = _world_geometry(w, i)
        x, y, th = w.pose[i]
        for b, a in enumerate(ang):
            dx, dy = math.cos(th + a), math.sin(th + a)
            hit = LineString([(x, y), (x + rmax * dx, y + rmax * dy)]).intersection(geom)
            ref = rmax if hit.is_empty else min(Point(x, y).distance(hit), rmax)
            assert exact[i, b] == pytest.approx(ref, abs=1e-4), (i, b)
    # bodies, not only walls, show on some beams (the walls-only cast is longer there)
    res_, rows, cols, ox, oy, yaw = w.grid.frame.kernel_args
    walls = np.empty_like(exact)
    scan_rows(w.grid.flat_occupancy(), rows, cols, res_, ox, oy, yaw, w.pose[:w.n_robots],
              w._mounts[0], np.cos(ang), np.sin(ang), 0.0, rmax, False, walls)
    assert np.all(exact <= walls + 1e-9)
    assert np.sum(exact < walls - 1e-6) >= 3


def test_same_seed_same_bytes_and_seeds_differ():
    def run(seed):
        spec = TrafficSpec(world=WorldSpec(generator="kruskal", rows=3, cols=3, corridor=12,
                                           resolution=0.1, seed=seed),
                           robots=RobotSpec(footprint="disc:0.15", noise="gaussian:0.01"),
                           count=4, assignment="random", obstacle_count=3,
                           obstacle_behaviour="wander", max_steps=60)
        r = run_traffic(spec, record=True, record_scans=True)
        return r.poses.tobytes() + np.nan_to_num(r.scans).tobytes()

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_spec_round_trip_and_one_line_errors():
    spec = TrafficSpec(world=corridor(3.0), robots=[RobotSpec(footprint="rect:0.4x0.2",
                                                              kinematics="car")],
                       count=3, assignment="one_goal",
                       obstacles=[ObstacleSpec(waypoints=[(1, 1), (2, 1)])])
    assert TrafficSpec.from_dict(spec.to_dict()) == spec
    with pytest.raises(ParameterError, match="kinematics"):
        RobotSpec(kinematics="tank")
    with pytest.raises(ParameterError, match="unknown traffic spec key"):
        TrafficSpec.from_dict({**spec.to_dict(), "robtos": 3})
    with pytest.raises(ParameterError, match="obstacles.behaviour"):
        TrafficSpec(world=corridor(3.0), obstacle_behaviour="fly")
    with pytest.raises(ParameterError, match="room for only"):
        build(TrafficSpec(world=corridor(2.5, cols=2), robots=RobotSpec(footprint="disc:0.3"),
                          count=40))


@pytest.mark.parametrize("rule", ["swap", "random", "one_goal"])
def test_assignment_rules_place_bodies_without_overlap(rule):
    spec = TrafficSpec(world=WorldSpec(generator="kruskal", rows=4, cols=4, corridor=10,
                                       resolution=0.1, seed=1),
                       robots=RobotSpec(footprint="disc:0.2"), count=6, assignment=rule,
                       obstacle_count=2)
    w = build(spec)
    p = w.pose[:, :2]
    d = np.hypot(*(p[:, None] - p[None]).transpose(2, 0, 1)) + np.eye(len(p)) * 9
    assert d.min() > 0.2 + 0.25   # robots 0.2 m, obstacles 0.25 m
    assert np.all(w.clear_wall > 0)
    if rule == "swap":
        # half start near the maze's start end, and the others go there
        assert np.allclose(sorted(map(tuple, w.start[0::2])), sorted(map(tuple, w.goal[1::2])))
    if rule == "one_goal":
        assert len({tuple(g) for g in w.goal}) == 6     # one goal area, six places in it


def test_car_and_python_agents_drive_too():
    spec = TrafficSpec(world=corridor(4.0, cols=3), count=2, max_steps=1500,
                       robots=RobotSpec(footprint="disc:0.3", kinematics="car",
                                        turning_radius=0.3))
    r = run_traffic(spec)
    assert r.outcome in ("success", "deadlock")
    assert r.metrics["collisions_robot"] == 0
    spec = TrafficSpec(world=corridor(6.0, cols=3), count=2, max_steps=2500, agent="explore",
                       robots=RobotSpec(footprint="disc:0.2"))
    r = run_traffic(spec)
    assert r.metrics["arrived"] >= 1
    assert r.metrics["collisions_robot"] == 0
