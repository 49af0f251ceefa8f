"""Seeded ORCA scenes and a bare ORCA loop: what robomaze's ORCA is checked against.

A :class:`OrcaScene` is disc agents with starts and goals in an open room
or a widened maze (walls as RVO2 obstacles, :mod:`robomaze.traffic.walls`),
the agents moving exactly as RVO2's do (``position += velocity * dt``
after everyone's new velocity). :func:`run_orca` runs one with robomaze's
kernel (``backend="robomaze"``) or with ``pyrvo`` (``"pyrvo"``), the same
preferred velocities each step: towards the goal along the maze (the goal
field) at ``max_speed``, slowing within a metre, turned 0.05 rad to the
right (symmetry breaking, as the robots' plan follower does).

>>> s = orca_scene(0)
>>> s.kind, s.starts.shape
('open', (4, 2))
>>> r = run_orca(s)
>>> r["arrived"], r["collisions"]
(4, 0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._search import distance_field
from ..errors import OptionalDependencyError, ParameterError
from . import _step
from ._orca import orca_step
from .walls import obstacle_arrays, wall_rings

__all__ = ["OrcaScene", "orca_scene", "run_orca", "SCENES", "orca_params"]

#: The 20 scenes: (kind, agents), seeds 0..19.
SCENES = [("open", n) for n in (4, 8, 12, 16, 20, 24, 28, 32, 32, 32)] + \
         [("maze", n) for n in (4, 8, 12, 16, 20, 24, 28, 32, 32, 32)]


@dataclass(frozen=True, eq=False)
class OrcaScene:
    """Disc agents (``radius``, ``max_speed``) from ``starts`` to ``goals`` in ``grid``."""

    kind: str
    grid: object
    starts: np.ndarray
    goals: np.ndarray
    radius: float = 0.2
    max_speed: float = 1.0
    #: ORCA's radius (RVO2's ``radius``): the body's plus a safety margin, as
    #: robots use theirs (collisions are counted with ``radius``)
    orca_radius: float = 0.24
    dt: float = 0.1
    seed: int = 0


def orca_params() -> dict:
    """RVO2's parameters of every scene (``set_agent_defaults`` order)."""
    return {"neighbor_dist": 3.0, "max_neighbors": 10, "time_horizon": 2.0,
            "time_horizon_obst": 1.0}


def orca_scene(index: int) -> OrcaScene:
    """Scene ``index`` of :data:`SCENES` (seeded by its index).

    ``open``: a 20 m x 20 m walled room, agents on a circle of radius 8 m
    (jittered) each going to the antipode. ``maze``: a 4 x 4 braid maze
    (Kruskal, 40 % of dead ends opened), corridors 2 m wide, walls 0.2 m,
    random distinct start and goal cells' centres.
    """
    from ..grid import OccupancyGrid
    from ..world import WorldSpec

    if not 0 <= index < len(SCENES):
        raise ParameterError(f"scene index must be in 0..{len(SCENES) - 1}, got {index}")
    kind, n = SCENES[index]
    rng = np.random.default_rng(index)
    if kind == "open":
        occ = np.zeros((100, 100), bool)
        occ[0, :] = occ[-1, :] = occ[:, 0] = occ[:, -1] = True
        grid = OccupancyGrid(occ, resolution=0.2)
        ang = np.linspace(0, 2 * np.pi, n, endpoint=False) + rng.uniform(-0.05, 0.05, n)
        starts = 10.0 + 8.0 * np.c_[np.cos(ang), np.sin(ang)]
        goals = 10.0 + 8.0 * np.c_[np.cos(ang + np.pi), np.sin(ang + np.pi)]
        return OrcaScene(kind, grid, starts, goals, seed=index)
    grid = WorldSpec(generator="kruskal", rows=4, cols=4, braid=0.4, corridor=10, wall=1,
                     resolution=0.2, seed=index).build().grid
    k, t = 10, 1
    cells = [(r, c) for r in range(4) for c in range(4)]
    pick = rng.permutation(len(cells))
    # up to 2 agents per cell, 0.5 m either side of the centre
    pts = []
    for q in pick:
        r, c = cells[q]
        cy, cx = grid.cell_to_world((t + r * (k + t) + k / 2 - 0.5, t + c * (k + t) + k / 2 - 0.5))
        pts += [(cx - 0.5, cy), (cx + 0.5, cy)]
    pts = np.array(pts)[: 2 * n]
    starts, goals = pts[:n], pts[n:2 * n] if len(pts) >= 2 * n else pts[::-1][:n]
    return OrcaScene(kind, grid, starts, goals, seed=index)


_CB, _SB = math.cos(0.05), math.sin(0.05)


class _Pref:
    """Preferred velocities towards the goals along the maze (shared by both backends)."""

    def __init__(self, scene: OrcaScene) -> None:
        g = scene.grid
        clear = g.clearance()
        free = clear > scene.radius
        self.fields = []
        for p in scene.goals:
            r, c = g.world_to_cell(p)
            self.fields.append(distance_field(free, [r * g.cols + c]).ravel())
        self.scene = scene
        res, rows, cols, ox, oy, _ = g.frame.kernel_args
        self.gargs = (rows, cols, res, ox, oy)

    def __call__(self, pos: np.ndarray) -> np.ndarray:
        s = self.scene
        pos = np.asarray(pos, float)    # float64 arithmetic whatever the state's type
        out = np.zeros_like(pos)
        for i, p in enumerate(pos):
            gd = float(np.hypot(*(s.goals[i] - p)))
            if s.kind == "open" or gd < 1.0:
                tx, ty = s.goals[i]
            else:
                tx, ty, _ = _step.follow_target(self.fields[i], *self.gargs, float(p[0]),
                                                float(p[1]), 5)
            d = math.hypot(tx - p[0], ty - p[1])
            if d > 1e-9:
                sp = s.max_speed if gd >= 1.0 else s.max_speed * gd
                ex, ey = (tx - p[0]) / d, (ty - p[1]) / d
                # keep right (as the robots' follower): perfect symmetry stalls ORCA
                out[i] = (_CB * ex + _SB * ey) * sp, (-_SB * ex + _CB * ey) * sp
        return out


def run_orca(scene: OrcaScene, *, backend: str = "robomaze", max_steps: int = 1500,
             goal_tol: float = 0.1, trace: bool = False, float32: bool = False) -> dict:
    """Run ``scene`` with one ORCA ``backend``; counts, makespan and (``trace``) velocities.

    ``float32`` runs robomaze's kernel in float32 on float32 states, RVO2's
    own arithmetic: the run is then pyrvo's, step for step.

    Returns ``arrived`` (agents within ``goal_tol`` at the end), ``makespan``
    (first step after which every agent stays within ``goal_tol``, seconds;
    NaN if never), ``collisions`` (agent pairs and agent-wall pairs whose
    discs overlapped at some step, touching counted), ``min_gap`` and with
    ``trace`` the ``(steps, n, 2)`` positions and velocities.
    """
    n = len(scene.starts)
    p = orca_params()
    rings = wall_rings(scene.grid) if scene.kind == "maze" else []
    pref_of = _Pref(scene)
    F = np.float32 if float32 else np.float64
    pos = scene.starts.astype(F)
    vel = np.zeros((n, 2), F)
    if backend == "pyrvo":
        try:
            import pyrvo
        except ImportError as e:
            raise OptionalDependencyError("the pyrvo backend needs pyrvo "
                                          "(pip install 'robomaze[traffic]')") from e
        sim = pyrvo.RVOSimulator()
        sim.set_time_step(scene.dt)
        sim.set_agent_defaults(p["neighbor_dist"], p["max_neighbors"], p["time_horizon"],
                               p["time_horizon_obst"], scene.orca_radius, scene.max_speed)
        for q in pos:
            sim.add_agent((float(q[0]), float(q[1])))
        for ring in rings:
            sim.add_obstacle([(float(x), float(y)) for x, y in ring])
        if rings:
            sim.process_obstacles()
    elif backend != "robomaze":
        raise ParameterError(f"backend must be robomaze or pyrvo, got {backend!r}")
    obst = obstacle_arrays(rings, F)
    radius = np.full(n, scene.orca_radius, F)
    speed = np.full(n, scene.max_speed, F)
    orca_args = tuple(F(p[k]) if k != "max_neighbors" else p[k] for k in
                      ("neighbor_dist", "max_neighbors", "time_horizon", "time_horizon_obst"))
    dt = F(scene.dt)
    yes = np.ones(n, np.bool_)
    occ = scene.grid.flat_occupancy()
    clear_w = _wall_gap_fn(scene)
    ps, vs = [], []
    collided: set = set()
    min_gap = math.inf
    makespan = math.nan
    for step in range(max_steps):
        if backend == "pyrvo":
            pos = np.array([sim.get_agent_position(i).to_tuple() for i in range(n)])
            vel = np.array([sim.get_agent_velocity(i).to_tuple() for i in range(n)])
        pref = pref_of(pos)
        if backend == "pyrvo":
            for i in range(n):
                sim.set_agent_pref_velocity(i, (float(pref[i, 0]), float(pref[i, 1])))
            sim.do_step()
            new = np.array([sim.get_agent_velocity(i).to_tuple() for i in range(n)])
            npos = np.array([sim.get_agent_position(i).to_tuple() for i in range(n)])
        else:
            new = np.empty((n, 2), F)
            pref = pref.astype(F)
            orca_step(pos, vel, pref, radius, speed, yes, yes, *orca_args, dt, *obst, new)
            npos = pos + new * dt
        if trace:
            ps.append(pos.copy())
            vs.append(new.copy())
        pos, vel = npos, new
        d = np.hypot(*(pos[:, None, :] - pos[None, :, :]).transpose(2, 0, 1))
        np.fill_diagonal(d, np.inf)
        gap = d - 2 * scene.radius
        min_gap = min(min_gap, float(gap.min()) if n > 1 else math.inf)
        for i, j in zip(*np.nonzero(np.triu(gap <= 0.0))):
            collided.add((int(i), int(j)))
        wg = clear_w(pos) - scene.radius
        min_gap = min(min_gap, float(wg.min()))
        for i in np.flatnonzero(wg <= 0.0):
            collided.add((int(i), -1))
        at = np.hypot(*(pos - scene.goals).T) <= goal_tol
        if at.all():
            makespan = (step + 1) * scene.dt
            break
    del occ
    out = {"arrived": int((np.hypot(*(pos - scene.goals).T) <= goal_tol).sum()),
           "makespan": makespan, "collisions": len(collided), "min_gap": min_gap,
           "steps": step + 1}
    if trace:
        out["positions"] = np.array(ps)
        out["velocities"] = np.array(vs)
    return out


def _wall_gap_fn(scene: OrcaScene):
    """Exact distance from points to the nearest occupied square of the scene's grid."""
    g = scene.grid
    res, rows, cols, ox, oy, _ = g.frame.kernel_args
    r, c = np.nonzero(g.occupied)
    x0 = ox + c * res
    y0 = oy + (rows - 1 - r) * res

    def gap(pos: np.ndarray) -> np.ndarray:
        dx = np.maximum(np.maximum(x0[None] - pos[:, :1], 0.0), pos[:, :1] - (x0[None] + res))
        dy = np.maximum(np.maximum(y0[None] - pos[:, 1:], 0.0), pos[:, 1:] - (y0[None] + res))
        return np.hypot(dx, dy).min(axis=1)

    return gap
