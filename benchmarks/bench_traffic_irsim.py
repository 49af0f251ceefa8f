"""robomaze.traffic side by side with IR-SIM (ir-sim 2.12, ORCA through pyrvo): a room and a maze.

``--scene room``: a 20 m x 20 m walled room, 32 holonomic disc robots
(radius 0.2 m, 1 m/s) on a circle of radius 8 m, each bound for the
antipode, ORCA (neighbour distance 3 m, 10 neighbours, horizons 2 s / 1 s,
safety margin 0.04 m), a 64-beam lidar (robomaze's preset: 0.12-3.5 m) on
every robot, goal tolerance 0.1 m, step 0.1 s. In both the ORCA preferred
velocity is turned 0.05 rad clockwise (robomaze's ``OrcaParams.bias``,
given to IR-SIM's pyrvo by :func:`_bias_irsim`), which breaks the
circle's symmetry the same way; IR-SIM runs its own ORCA behaviour (one
robot group).

``--scene maze``: the same robots, ORCA and lidars in an 8 x 8 braid maze
widened to 2 m corridors (0.1 m cells), random start/goal pairs
(:func:`maze_spec`). IR-SIM gets the same grid as its obstacle map (an
image) and the same starts and goals; its ORCA behaviour has no walls and
no routes, so its robots are stepped with velocities from pyrvo given the
maze's walls and robomaze's follower's preferred velocities on the same
goal fields (:func:`run_irsim_maze`); IR-SIM moves them, checks
collisions and casts the lidars.

Each simulator runs ``--steps`` steps (or until every robot is done) per
repetition; CPU time (``time.process_time``), the two interleaved, median
of ``--reps``; arrivals and collisions are counted by each simulator's own
rules. ``/proc/loadavg`` is printed before and after.

Run::

    python benchmarks/bench_traffic_irsim.py --scene room --steps 400 --reps 5
    python benchmarks/bench_traffic_irsim.py --scene maze --steps 300 --reps 5
"""

from __future__ import annotations

import argparse
import math
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

N, R, RING, ROOM = 32, 0.2, 8.0, 20.0
#: robomaze's lidar preset: range_min, range_max (m)
LIDAR = (0.12, 3.5)


def _circle() -> tuple[list, list]:
    """Starts and goals (room coordinates) of the 32 robots: a circle, each to its antipode."""
    starts, goals = [], []
    for i in range(N):
        a = 2 * math.pi * i / N
        starts.append((ROOM / 2 + RING * math.cos(a), ROOM / 2 + RING * math.sin(a)))
        goals.append((ROOM / 2 - RING * math.cos(a), ROOM / 2 - RING * math.sin(a)))
    return starts, goals


def _irsim_yaml(path: Path, starts, goals, *, width=ROOM, height=ROOM, obstacle_map=None,
                offset=(0.0, 0.0), orca: bool = True) -> None:
    # one robot group of N members: IR-SIM runs ORCA within a group (a list of
    # N one-robot entries is N groups of one, each avoiding nobody)
    lines = ["world:", f"  height: {height}", f"  width: {width}", "  step_time: 0.1",
             "  sample_time: 0.1", f"  offset: [{offset[0]!r}, {offset[1]!r}]",
             "  collision_mode: 'stop'",
             "  control_mode: 'auto'"]
    if obstacle_map is not None:
        lines += [f"  obstacle_map: '{obstacle_map}'", "  mdownsample: 1"]
    state = ", ".join(f"[{x:.9f}, {y:.9f}, 0]" for x, y in starts)
    goal = ", ".join(f"[{x:.9f}, {y:.9f}, 0]" for x, y in goals)
    lines += ["", "robot:", f"  - number: {len(starts)}", "    distribution: {name: 'manual'}",
              "    kinematics: {name: 'omni'}", f"    shape: {{name: 'circle', radius: {R}}}",
              f"    state: [{state}]", f"    goal: [{goal}]",
              "    vel_max: [1, 1]", "    vel_min: [-1, -1]"]
    if orca:
        lines += ["    group_behavior: {name: 'orca', neighborDist: 3.0, maxNeighbors: 10, "
                  "timeHorizon: 2.0, timeHorizonObst: 1.0, safe_radius: 0.04}"]
    lines += [
              "    goal_threshold: 0.1",
              "    sensors:", "      - name: 'lidar2d'", f"        range_min: {LIDAR[0]}",
              f"        range_max: {LIDAR[1]}", "        angle_range: 6.283185307",
              "        number: 64"]
    path.write_text("\n".join(lines) + "\n")


def _bias_irsim(bias: float) -> None:
    """Turn IR-SIM's ORCA preferred velocities ``bias`` rad clockwise, as robomaze's follower.

    Without it the perfectly symmetric circle stops dead in the middle (ORCA
    brakes exact head-on meetings without a sideways part); robomaze's plan
    follower turns its preferred velocity by ``OrcaParams.bias`` for this
    reason, so the same scene gives IR-SIM's pyrvo the same turn.
    """
    from irsim.lib.behavior import group_behavior_methods as gbm

    cls = gbm.OrcaGroupBehavior
    plain = getattr(cls, "_robomaze_plain_pref", cls._pref_velocity)
    cb, sb = math.cos(bias), math.sin(bias)

    def pref(self, member):
        vx, vy = plain(self, member)
        return [cb * vx + sb * vy, -sb * vx + cb * vy]

    cls._robomaze_plain_pref = plain
    cls._pref_velocity = pref


def run_irsim(yaml_path: Path, steps: int) -> dict:
    import irsim

    env = irsim.make(str(yaml_path), display=False, log_level="ERROR")
    t0 = time.process_time()
    k = 0
    for k in range(1, steps + 1):
        env.step()
        if env.done():
            break
    cpu = time.process_time() - t0
    rs = env.robot_list
    out = {"steps": k, "cpu": cpu, "arrived": sum(bool(r.arrive) for r in rs),
           "collided": sum(bool(r.collision) for r in rs)}
    env.end(0) if hasattr(env, "end") else None
    return out


def run_robomaze(steps: int) -> dict:
    from robomaze.traffic import OrcaParams, RobotSpec, TrafficSpec, build
    from robomaze.world import WorldSpec

    res = 0.2
    k = int(round(ROOM / res)) - 2          # the room inside walls one cell thick
    robots = []
    for i in range(N):
        a = 2 * math.pi * i / N
        c = (k / 2 + 1) * res
        robots.append(RobotSpec(footprint=f"disc:{R}", kinematics="omni", v_max=1.0,
                                a_max=1e3, beams=64, sensor="lidar",
                                start=(c + RING * math.cos(a), c + RING * math.sin(a)),
                                goal=(c - RING * math.cos(a), c - RING * math.sin(a))))
    spec = TrafficSpec(world=WorldSpec(generator="kruskal", rows=1, cols=1, corridor=k,
                                       wall=1, resolution=res, seed=0),
                       robots=robots, assignment="explicit",
                       orca=OrcaParams(neighbor_dist=3.0, max_neighbors=10, time_horizon=2.0,
                                       time_horizon_obst=1.0, margin=0.04),
                       dt=0.1, max_steps=steps, goal_radius=0.1, lookahead=2.0)
    w = build(spec)
    t0 = time.process_time()
    k = 0
    for k in range(1, steps + 1):
        w.step(sense=True)
        if bool(w.at_goal.all()):
            break
    cpu = time.process_time() - t0
    return {"steps": k, "cpu": cpu, "arrived": int(np.sum(~np.isnan(w.arrival))),
            "collided": int(np.sum(w.hits.sum(axis=1) > 0))}


def maze_spec(steps: int):
    """The widened-maze scene: an 8 x 8 braid maze with 2 m corridors, 32 robots, random pairs."""
    from robomaze.traffic import OrcaParams, RobotSpec, TrafficSpec
    from robomaze.world import WorldSpec

    return TrafficSpec(world=WorldSpec(generator="kruskal", rows=8, cols=8, braid=1.0,
                                       corridor=20, wall=1, resolution=0.1, seed=0),
                       robots=RobotSpec(footprint=f"disc:{R}", kinematics="omni", v_max=1.0,
                                        a_max=1e3, beams=64, sensor="lidar"),
                       count=N, assignment="random",
                       orca=OrcaParams(neighbor_dist=3.0, max_neighbors=10, time_horizon=2.0,
                                       time_horizon_obst=1.0, margin=0.04),
                       dt=0.1, max_steps=steps, goal_radius=0.1, lookahead=0.5)


def _maze_map(grid, path: Path) -> None:
    # IR-SIM reads an image black = occupied, its first row the north edge (as ours)
    from PIL import Image

    Image.fromarray(np.where(grid.occupied, 0, 255).astype(np.uint8), mode="L").save(path)


def _follower_prefs(w, pos: np.ndarray) -> np.ndarray:
    """robomaze's plan follower's preferred velocities (``_step.robot_twists``, FOLLOW) at ``pos``."""
    from robomaze.traffic import _step

    sp = w.spec
    rows, cols, res, ox, oy = w._gargs()
    look = w._lookahead_cells()
    cb, sb = math.cos(sp.orca.bias), math.sin(sp.orca.bias)
    out = np.zeros((len(pos), 2))
    for i, (x, y) in enumerate(pos):
        v_max = w.kin[i, 1]
        tx, ty, val = _step.follow_target(w.fields[w.field_id[i]], rows, cols, res, ox, oy,
                                          float(x), float(y), look)
        gx, gy = w.goal[i, 0] - x, w.goal[i, 1] - y
        gd = math.hypot(gx, gy)
        if gd <= look * res or not val < math.inf:
            tx, ty = w.goal[i]
        d = math.hypot(tx - x, ty - y)
        if d > 1e-12:
            spd = min(v_max, gd / max(sp.orca.time_horizon * 0.5, sp.dt)) \
                if gd <= look * res else v_max
            ex, ey = (tx - x) / d, (ty - y) / d
            out[i] = (cb * ex + sb * ey) * spd, (-sb * ex + cb * ey) * spd
    return out


def run_irsim_maze(yaml_path: Path, steps: int, w) -> dict:
    """IR-SIM stepping the maze's robots with pyrvo's ORCA velocities along robomaze's routes.

    IR-SIM's ORCA behaviour steers straight at the goal and gives pyrvo no
    walls; here pyrvo gets the maze's walls (RVO2 obstacle rings, as
    robomaze's ORCA) and robomaze's follower's preferred velocities (the
    same goal fields, lookahead, slow-down and bias), and IR-SIM moves the
    robots, checks collisions and casts the lidars. The robomaze world ``w``
    lends only its routes; everything here counts as IR-SIM's time.
    """
    import irsim
    import pyrvo
    from robomaze.traffic.walls import wall_rings

    o = w.spec.orca
    env = irsim.make(str(yaml_path), display=False, log_level="ERROR")
    t0 = time.process_time()
    sim = pyrvo.RVOSimulator()
    sim.set_time_step(w.spec.dt)
    sim.set_agent_defaults(o.neighbor_dist, o.max_neighbors, o.time_horizon,
                           o.time_horizon_obst, R + o.margin, 1.0)
    rs = env.robot_list
    for r in rs:
        sim.add_agent(tuple(float(v) for v in r.state[:2, 0]))
    for ring in wall_rings(w.grid):
        sim.add_obstacle([(float(x), float(y)) for x, y in ring])
    sim.process_obstacles()
    k = 0
    for k in range(1, steps + 1):
        pos = np.array([r.state[:2, 0] for r in rs])
        pref = _follower_prefs(w, pos)
        for i in range(len(rs)):
            sim.set_agent_position(i, (float(pos[i, 0]), float(pos[i, 1])))
            sim.set_agent_pref_velocity(i, (float(pref[i, 0]), float(pref[i, 1])))
        sim.do_step()
        acts = [np.c_[list(sim.get_agent_velocity(i).to_tuple())] for i in range(len(rs))]
        env.step(acts, action_id=list(range(len(rs))))
        if env.done():
            break
    cpu = time.process_time() - t0
    out = {"steps": k, "cpu": cpu, "arrived": sum(bool(r.arrive) for r in rs),
           "collided": sum(bool(r.collision) for r in rs)}
    env.end(0) if hasattr(env, "end") else None
    return out


def run_robomaze_maze(steps: int) -> dict:
    from robomaze.traffic import build

    w = build(maze_spec(steps))
    t0 = time.process_time()
    k = 0
    for k in range(1, steps + 1):
        w.step(sense=True)
        if bool(w.at_goal.all()):
            break
    cpu = time.process_time() - t0
    return {"steps": k, "cpu": cpu, "arrived": int(np.sum(~np.isnan(w.arrival))),
            "collided": int(np.sum(w.hits.sum(axis=1) > 0))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--scene", choices=["room", "maze", "both"], default="both")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp())
    from robomaze.traffic import OrcaParams, build

    runs = {}
    if args.scene in ("room", "both"):
        y = tmp / "room.yaml"
        _irsim_yaml(y, *_circle())
        _bias_irsim(OrcaParams().bias)
        run_robomaze(3)                      # compile
        runs["room"] = (lambda: run_robomaze(args.steps), lambda: run_irsim(y, args.steps))
    if args.scene in ("maze", "both"):
        w = build(maze_spec(args.steps))
        res, rows, cols, ox, oy, _ = w.grid.frame.kernel_args
        png = tmp / "maze.png"
        _maze_map(w.grid, png)
        ym = tmp / "maze.yaml"
        _irsim_yaml(ym, [tuple(p) for p in w.start], [tuple(p) for p in w.goal],
                    width=cols * res, height=rows * res, obstacle_map=str(png),
                    offset=(float(ox), float(oy)), orca=False)
        run_robomaze_maze(3)
        runs["maze"] = (lambda: run_robomaze_maze(args.steps),
                        lambda: run_irsim_maze(ym, args.steps, w))
    print(f"loadavg before: {open('/proc/loadavg').read().strip()}")
    rows_ = {(sc, who): [] for sc in runs for who in ("robomaze", "ir-sim")}
    for _ in range(args.reps):
        for sc, (ours, theirs) in runs.items():
            rows_[sc, "robomaze"].append(ours())
            rows_[sc, "ir-sim"].append(theirs())
    print(f"loadavg after:  {open('/proc/loadavg').read().strip()}")
    for sc in runs:
        med = {}
        for who in ("robomaze", "ir-sim"):
            rs = rows_[sc, who]
            med[who] = statistics.median(r["steps"] / r["cpu"] for r in rs)
            outs = sorted({(r["steps"], r["arrived"], r["collided"]) for r in rs})
            print(f"  {sc} {who:8s} {med[who]:9.1f} steps/s (median of {len(rs)}, CPU)   "
                  "(steps, arrived, collided) over the repetitions: "
                  + ", ".join(f"({a}, {b}/{N}, {c}/{N})" for a, b, c in outs))
        print(f"  {sc} robomaze / ir-sim: {med['robomaze'] / med['ir-sim']:.0f}x")


if __name__ == "__main__":
    main()
