"""A built traffic world: every body's arrays and state, stepped by one compiled call.

:func:`build` turns a :class:`~robomaze.traffic.TrafficSpec` into a
:class:`TrafficWorld`; :meth:`TrafficWorld.step` moves every robot and
obstacle by ``dt`` (controllers, ORCA, obstacle behaviours, the exact
continuous collision stop: :mod:`robomaze.traffic._step`) and
:meth:`TrafficWorld.scan` casts every robot's beams (walls, other robots,
obstacles) with the robots' noise models.

>>> from robomaze.world import WorldSpec
>>> from robomaze.traffic import TrafficSpec, RobotSpec, build
>>> spec = TrafficSpec(world=WorldSpec(generator="kruskal", rows=1, cols=4, corridor=10,
...                    resolution=0.1, seed=0), robots=RobotSpec(footprint="disc:0.2"), count=2)
>>> w = build(spec)
>>> w.n_robots, w.pose.shape, w.scan().shape
(2, (2, 3), (2, 64))
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely

from .._search import distance_field
from ..errors import ParameterError
from ..geometry import Footprint
from ..sense.noise import parse_noise
from ..sense.sensor import make_sensor
from ..geometry.validity import Collider
from . import _step
from ._cast import free_rects
from ._geom import scratch
from .assign import random_slots, route_waypoints, slots_near
from .spec import TrafficSpec, child_rng
from .walls import obstacle_arrays, wall_rings

__all__ = ["TrafficWorld", "build", "Bodies", "PREF", "COMMAND", "distances_to_go"]

#: Step modes of :meth:`TrafficWorld.step`: robots drive toward preferred
#: velocities through ORCA (``PREF``) or take commands as given (``COMMAND``).
PREF, COMMAND = _step.PREF, _step.COMMAND
#: Remaining path distance of every robot to its goal (the envs' rewards).
distances_to_go = _step.distances_to_go

#: extra ORCA radius (m) of moving obstacles: they do not avoid back, so robots keep
#: this much more room from them than from each other
_OBSTACLE_BERTH = 0.05
_MODEL = {"differential": _step.DIFF, "car": _step.CAR, "omni": _step.OMNI}
_BEHAVIOUR = {"waypoints": _step.WAYPOINTS, "wander": _step.WANDER,
              "pedestrian": _step.PEDESTRIAN}
#: Social force parameters (Helbing & Molnar 1995; Helbing, Farkas & Vicsek 2000's
#: magnitudes): relaxation time 0.5 s, body repulsion A = 2 m/s^2 over B = 0.3 m,
#: wall repulsion A = 5 m/s^2 over B = 0.1 m.
SOCIAL_FORCE = (0.5, 2.0, 0.3, 5.0, 0.1)


def _pieces(fp: Footprint) -> list[np.ndarray]:
    geom = shapely.geometry.polygon.orient(fp.geometry, sign=1.0)
    if geom.convex_hull.area - geom.area <= 1e-12 * max(geom.area, 1e-300):
        return [np.asarray(geom.exterior.coords)[:-1]]
    tris = shapely.constrained_delaunay_triangles(geom)
    return [np.asarray(shapely.geometry.polygon.orient(t, sign=1.0).exterior.coords)[:-1]
            for t in tris.geoms]


@dataclass(frozen=True, eq=False)
class Bodies:
    """The shape arrays of every body (see :mod:`robomaze.traffic._geom`)."""

    kind: np.ndarray
    radius: np.ndarray
    rc: np.ndarray
    pstart: np.ndarray
    pcount: np.ndarray
    vstart: np.ndarray
    vcount: np.ndarray
    vx: np.ndarray
    vy: np.ndarray
    footprints: tuple

    @classmethod
    def of(cls, footprints) -> "Bodies":
        kind, radius, rc, ps, pc, vs, vc, vx, vy = [], [], [], [], [], [], [], [], []
        for fp in footprints:
            rc.append(fp.circumscribed_radius)
            if fp.kind == "disc":
                kind.append(0)
                radius.append(fp.radius)
                ps.append(len(vs))
                pc.append(0)
                continue
            kind.append(1)
            radius.append(0.0)
            pieces = _pieces(fp)
            ps.append(len(vs))
            pc.append(len(pieces))
            for p in pieces:
                vs.append(len(vx))
                vc.append(len(p))
                vx.extend(p[:, 0])
                vy.extend(p[:, 1])
        i64 = lambda a: np.array(a, np.int64)  # noqa: E731
        return cls(np.array(kind, np.int64), np.array(radius, float), np.array(rc, float),
                   i64(ps), i64(pc), i64(vs), i64(vc), np.array(vx + [0.0], float),
                   np.array(vy + [0.0], float), tuple(footprints))

    @property
    def args(self) -> tuple:
        return (self.kind, self.radius, self.pstart, self.pcount, self.vstart, self.vcount,
                self.vx, self.vy)

    @property
    def max_piece(self) -> int:
        return int(self.vcount.max()) if len(self.vcount) else 4


class TrafficWorld:
    """Robots and moving obstacles in one grid (built by :func:`build`).

    Attributes of state (all numpy arrays, bodies ``0..n_robots-1`` the
    robots): ``pose (n, 3)``, ``twist (n, 3)`` (body-frame ``vx, vy,
    omega``), ``vel (n, 2)`` (world velocity), ``time`` (s), ``hits
    (n_robots, 3)`` contacts by kind (robot, obstacle, wall).
    """

    def __init__(self, spec: TrafficSpec) -> None:
        self.spec = spec
        self.world = spec.world.build()
        grid = self.grid = self.world.grid
        res, rows, cols, ox, oy, yaw = grid.frame.kernel_args
        if yaw != 0.0:
            raise ParameterError(f"traffic worlds need an unrotated grid (origin yaw 0), got {yaw}")
        self.robots = spec.robot_list()
        self.obstacles = spec.obstacle_list()
        nr, no = len(self.robots), len(self.obstacles)
        self.n_robots, self.n_obstacles = nr, no
        fps = [r.shape for r in self.robots] + [o.body for o in self.obstacles]
        self.bodies = Bodies.of(fps)
        rc = self.bodies.rc
        self._place(spec, grid, rc)
        # ---- robots' kinematics and ORCA
        self.kin = np.array([[_MODEL[r.kinematics], r.v_max,
                              0.0 if r.kinematics == "car" else -r.v_max / 2, r.omega_max,
                              r.a_max, r.alpha_max, r.turning_radius] for r in self.robots],
                            float).reshape(nr, 7)
        # moving obstacles (pedestrians) do not avoid back: a wider berth
        self.orca_radius = np.concatenate([rc[:nr] + spec.orca.margin,
                                           rc[nr:] + _OBSTACLE_BERTH])
        self.reactive = np.array([True] * nr + [False] * no, np.bool_)
        self.orca_on = np.full(nr, spec.orca.enabled, np.bool_)
        rings = wall_rings(grid)
        self.wall_rings = rings
        self._obst = obstacle_arrays(rings)
        # ---- goal fields: metres along the maze, through cells the robot's disc clears
        self.fields = np.empty((nr, rows * cols))
        cache = {}
        clear = grid.clearance()
        for i, r in enumerate(self.robots):
            key = (tuple(self.goal[i]), round(float(rc[i]), 12))
            if key not in cache:
                free = clear > rc[i] + 0.5 * res   # room for the turns of non-holonomic robots
                g = grid.world_to_cell(self.goal[i])
                if not (0 <= g[0] < rows and 0 <= g[1] < cols) or not free[g]:
                    raise ParameterError(f"robot {i}: goal {tuple(self.goal[i])} is not a place "
                                         f"its footprint fits")
                cache[key] = distance_field(free, [g[0] * cols + g[1]]).ravel()
            self.fields[i] = cache[key]
        self.field_id = np.arange(nr, dtype=np.int64)
        gr = spec.goal_radius
        self.goal_radius = np.array([gr if gr is not None else max(0.5 * rc[i], res)
                                     for i in range(nr)])
        # ---- walls for the swept check (every body)
        cols_ = [Collider(grid, fp) for fp in fps]
        args = [c.kernel_args() for c in cols_]
        self._wall_args = args[0][:9] if args else None
        self.w_r_in = np.array([a[9] for a in args])
        self.w_r_out = np.array([a[10] for a in args])
        self.w_disc = np.array([a[11] for a in args])
        px = [np.asarray(a[12], float) for a in args]
        py = [np.asarray(a[13], float) for a in args]
        self.wstart = np.cumsum([0] + [len(p) for p in px])[:-1].astype(np.int64)
        self.wcount = np.array([len(p) for p in px], np.int64)
        self.wpx = np.concatenate(px) if px else np.zeros(1)
        self.wpy = np.concatenate(py) if py else np.zeros(1)
        st = [np.asarray(a[14], np.int64) for a in args]
        ct = [np.asarray(a[15], np.int64) for a in args]
        edges = np.cumsum([0] + [len(s) for s in st])
        self.wpr = np.stack([edges[:-1], edges[1:]], axis=1).astype(np.int64)
        self.wps = np.concatenate(st) if st else np.zeros(0, np.int64)
        self.wpc = np.concatenate(ct) if ct else np.zeros(0, np.int64)
        big = max([len(a[16]) for a in args] + [4])
        self._pa, self._pb = np.empty(big), np.empty(big)
        self.step_len = np.array([c.step_length for c in cols_])
        self.wall_check = np.ones(nr + no, np.bool_)
        # ---- obstacles' behaviours
        self.behaviour = np.array([_BEHAVIOUR[o.behaviour] for o in self.obstacles], np.int64)
        self.speed = np.array([o.speed for o in self.obstacles], float)
        self.ped = np.zeros((no, 7))
        self.ped[:, :5] = SOCIAL_FORCE
        self._obst_rngs = [child_rng(spec.world.seed, 2 + k) for k in range(no)]
        for k in range(no):
            self.ped[k, 5] = self._obst_rngs[k].uniform(-math.pi, math.pi)
        # ---- sensors: one beam count per world
        sens = []
        for r in self.robots:
            opts = {"n_beams": r.beams} if r.beams is not None else {}
            if r.noise:
                opts["noise"] = parse_noise(r.noise)
            sens.append(make_sensor(r.sensor, **opts))
        nb = {s.n_beams for s in sens}
        if len(nb) > 1:
            raise ParameterError(f"every robot of a traffic world needs the same beam count, "
                                 f"got {sorted(nb)}")
        self.sensors = sens
        # robots with the same sensor model share its row (one caster call for them all)
        keys: dict = {}
        self.sensor_id = np.array([keys.setdefault((r.sensor, r.beams), len(keys))
                                   for r in self.robots], np.int64)
        first = {}
        for i, k in enumerate(self.sensor_id):
            first.setdefault(int(k), i)
        ka = [sens[first[k]].kernel_args for k in sorted(first)]
        self._mounts = np.array([k[0] for k in ka], float).reshape(len(ka), 3)
        self._cos_b = np.array([k[1] for k in ka], float).reshape(len(ka), -1)
        self._sin_b = np.array([k[2] for k in ka], float).reshape(len(ka), -1)
        self._rmin = np.array([k[3] for k in ka], float)
        self._rmax = np.array([k[4] for k in ka], float)
        self._noise_rng = child_rng(spec.world.seed, 1)
        self._scratch = scratch(self.bodies.max_piece)
        self._rects = free_rects(grid.flat_occupancy(), rows, cols)
        self.reset_state()

    # ------------------------------------------------------------ placement
    def _place(self, spec: TrafficSpec, grid, rc) -> None:
        nr, no = self.n_robots, self.n_obstacles
        rng = child_rng(spec.world.seed, 0)
        taken: list = []
        rmax = float(rc[:nr].max())
        s_cell, g_cell = (self.world.start, self.world.goal)
        if spec.assignment == "explicit":
            starts = np.array([r.start for r in self.robots], float)
            goals = np.array([r.goal for r in self.robots], float)
            taken.extend(starts)
        elif spec.assignment == "swap":
            na = (nr + 1) // 2
            a = slots_near(grid, s_cell, na, radius=rmax, taken=taken)
            b = slots_near(grid, g_cell, nr - na, radius=rmax, taken=taken) if nr > na else \
                np.zeros((0, 2))
            # the mirror slots as goals: a's k-th slot goes to b's k-th, and back
            ga = slots_near(grid, g_cell, na, radius=rmax)
            gb = slots_near(grid, s_cell, nr - na, radius=rmax) if nr > na else np.zeros((0, 2))
            starts = np.empty((nr, 2))
            goals = np.empty((nr, 2))
            starts[0::2], goals[0::2] = a, ga
            starts[1::2], goals[1::2] = b, gb
        elif spec.assignment == "random":
            starts = random_slots(grid, nr, radius=rmax, rng=rng, taken=taken)
            goals = random_slots(grid, nr, radius=rmax, rng=rng, taken=[])
        else:  # one_goal
            goals = slots_near(grid, g_cell, nr, radius=rmax)
            goal_cells = {tuple(grid.world_to_cell(p)) for p in goals}
            taken.extend(goals)
            starts = random_slots(grid, nr, radius=rmax, rng=rng, taken=taken)
            del goal_cells
        self.start = starts
        self.goal = goals
        # obstacles: given starts / waypoints, else a random patrol route
        opose = np.zeros((no, 3))
        wps, wst, wcn = [], [], []
        for k, o in enumerate(self.obstacles):
            r = float(rc[nr + k])
            if o.start is not None:
                p = np.array(o.start, float)
                taken.append(p)
            else:
                p = random_slots(grid, 1, radius=r, rng=rng, taken=taken,
                                 spacing=r + max(r, rmax))[0]
            if o.waypoints is not None:
                route = np.array(o.waypoints, float)
            elif o.behaviour == "wander":
                route = np.zeros((0, 2))
            else:
                far = random_slots(grid, 1, radius=r, rng=rng, taken=[])[0]
                route = route_waypoints(grid, p, far, radius=r)
            opose[k, :2] = p
            wst.append(sum(len(w) for w in wps))
            wcn.append(len(route))
            wps.append(route)
        self.wp = np.concatenate(wps) if wps else np.zeros((0, 2))
        self.wp = np.ascontiguousarray(self.wp.reshape(-1, 2))
        self.wp_start = np.array(wst, np.int64)
        self.wp_count = np.array(wcn, np.int64)
        self._opose0 = opose

    def reset_state(self) -> None:
        """Every body back at its start, at rest; counters and minima cleared."""
        nr, n = self.n_robots, self.n_robots + self.n_obstacles
        self.pose = np.zeros((n, 3))
        self.pose[:nr, :2] = self.start
        # robots face their first step towards the goal
        for i in range(nr):
            tx, ty, _ = _step.follow_target(self.fields[i], *self._gargs(), self.start[i, 0],
                                            self.start[i, 1], self._lookahead_cells())
            self.pose[i, 2] = math.atan2(ty - self.start[i, 1], tx - self.start[i, 0])
        self.pose[nr:] = self._opose0
        self.twist = np.zeros((n, 3))
        self.vel = np.zeros((n, 2))
        self.wp_next = np.zeros(self.n_obstacles, np.int64)
        self.time = 0.0
        self.steps = 0
        self.hits = np.zeros((nr, 3), np.int64)
        self.contact = np.zeros((n, n + 1), np.bool_)
        self.frac = np.ones(n)
        self.progress = np.full(nr, np.inf)
        self.pref = np.zeros((n, 2))
        self.new_vel = np.zeros((n, 2))
        self.command = np.zeros((nr, 3))
        self.pref_in = np.zeros((nr, 2))
        self.mode = np.full(nr, _step.FOLLOW, np.int64)
        self.length = np.zeros(nr)
        self.clear_wall = np.full(nr, np.inf)
        self.clear_robot = np.full(nr, np.inf)
        self.clear_obst = np.full(nr, np.inf)
        self.ttc = np.full(nr, np.inf)
        self.arrival = np.full(nr, np.nan)
        self._exact = np.empty((nr, self._cos_b.shape[1]))
        self._exact_fresh = False
        self.measure()

    # ------------------------------------------------------------ helpers
    def _gargs(self):
        res, rows, cols, ox, oy, _ = self.grid.frame.kernel_args
        return rows, cols, res, ox, oy

    def _lookahead_cells(self) -> int:
        return max(1, int(round(self.spec.lookahead / self.grid.resolution)))

    @property
    def at_goal(self) -> np.ndarray:
        """Whether each robot's reference point is within its goal radius now."""
        d = np.hypot(*(self.pose[:self.n_robots, :2] - self.goal).T)
        return d <= self.goal_radius

    # ------------------------------------------------------------ the step
    def step(self, *, mode=None, command=None, pref=None, measure: bool = True,
             sense: bool = False) -> None:
        """Advance every body by ``dt`` in one compiled pass (plus the obstacles' draws).

        ``mode`` (per robot: ``_step.FOLLOW``/``PREF``/``COMMAND``),
        ``command`` ``(n_robots, 3)`` body commands (``v, vy, omega``) and
        ``pref`` ``(n_robots, 2)`` preferred world velocities override the
        compiled follower for the robots that use them. ``measure``: update
        the safety minima; ``sense``: cast every robot's scan in the same call
        (:meth:`exact_scan` then returns it without casting again).
        """
        sp = self.spec
        if mode is not None:
            self.mode[:] = mode
        if command is not None:
            self.command[:] = command
        if pref is not None:
            self.pref_in[:] = pref
        rows, cols, res, ox, oy = self._gargs()
        nr = self.n_robots
        o = sp.orca
        b = self.bodies
        noise = np.array([g.standard_normal() for g in self._obst_rngs])
        sa, sb_, sc, sd = self._scratch
        _step.advance(self.pose, self.twist, self.vel, sp.dt, nr, self.mode, self.command,
                      self.pref_in, self.fields, self.field_id, self._lookahead_cells(),
                      self.goal, self.goal_radius, self.kin, self.orca_on, self.orca_radius,
                      self.reactive, o.neighbor_dist, o.max_neighbors, o.time_horizon,
                      o.time_horizon_obst, *self._obst, o.bias, self.progress, self.pref,
                      self.new_vel, self.behaviour, self.speed, self.wp, self.wp_start,
                      self.wp_count, self.wp_next, noise, self.ped, self.grid.flat_occupancy(),
                      self.grid.flat_clearance(), rows, cols, res, ox, oy, b.rc, *b.args,
                      self._wall_args, self.wall_check, self.w_r_in, self.w_r_out, self.w_disc,
                      self.wpx, self.wpy, self.wps, self.wpc, self.wpr, self.wstart, self.wcount,
                      self._pa, self._pb, self.step_len, self.contact, self.hits, self.frac,
                      self.length, self.clear_wall, self.clear_robot, self.clear_obst, self.ttc,
                      measure, sense, self.sensor_id, self._mounts, self._cos_b, self._sin_b,
                      self._rmin, self._rmax, self._rects, self._exact, sa, sb_, sc, sd)
        self._exact_fresh = bool(sense)
        self.time += sp.dt
        self.steps += 1
        arrived = self.at_goal & np.isnan(self.arrival)
        self.arrival[arrived] = self.time

    def measure(self) -> None:
        """Lower the running safety minima (clearances, time to collision) at the current state."""
        rows, cols, res, ox, oy = self._gargs()
        sa, sb, sc, sd = self._scratch
        _step.measure_world(self.pose, self.vel, self.n_robots, self.grid.flat_occupancy(),
                            self.grid.flat_clearance(), rows, cols, res, ox, oy, self.bodies.rc, *self.bodies.args, sa, sb,
                            sc, sd, self.clear_wall, self.clear_robot, self.clear_obst, self.ttc)

    def exact_scan(self) -> np.ndarray:
        """Noise-free exact ranges ``(n_robots, n_beams)`` (``range_max``: no return)."""
        if self._exact_fresh:
            return self._exact.copy()
        rows, cols, res, ox, oy = self._gargs()
        out = self._exact
        sa, sb, _, _ = self._scratch
        _step.sense_world(self.pose, self.n_robots, self.sensor_id, self._mounts, self._cos_b,
                          self._sin_b, self._rmin, self._rmax, self.grid.flat_occupancy(),
                          self.grid.flat_clearance(), self._rects, rows, cols, res, ox, oy, 0.0,
                          self.bodies.rc, *self.bodies.args, sa, sb, out)
        self._exact_fresh = True
        return out.copy()

    def scan(self) -> np.ndarray:
        """Every robot's finished readings (noise, REP 117), ``(n_robots, n_beams)``."""
        exact = self.exact_scan()
        if all(s.noise is None for s in self.sensors):
            # REP 117 without noise, all robots at once (as RangeSensor.finish)
            rmin = self._rmin[self.sensor_id][:, None]
            rmax = self._rmax[self.sensor_id][:, None]
            out = np.maximum(exact, rmin)
            out[exact >= rmax] = np.inf
            return out
        return np.stack([s.finish(exact[i], self._noise_rng)
                         for i, s in enumerate(self.sensors)])

    def odometry(self) -> np.ndarray:
        """``(n_robots, 5)``: ``x, y, theta, v, omega`` of every robot (ideal odometry)."""
        nr = self.n_robots
        return np.concatenate([self.pose[:nr], self.twist[:nr, :1], self.twist[:nr, 2:]],
                              axis=1)


def build(spec: TrafficSpec | dict) -> TrafficWorld:
    """The :class:`TrafficWorld` of a spec (or of its ``to_dict`` dict)."""
    if isinstance(spec, dict):
        spec = TrafficSpec.from_dict(spec)
    if not isinstance(spec, TrafficSpec):
        raise ParameterError(f"build() takes a TrafficSpec, got {type(spec).__name__}")
    return TrafficWorld(spec)
