"""robomaze.traffic side by side with IR-SIM (ir-sim 2.12, ORCA through pyrvo): an open room.

The same scene in both: a 20 m x 20 m walled room, 32 holonomic disc robots
(radius 0.2 m, 1 m/s) on a circle of radius 8 m, each bound for the
antipode, ORCA (neighbour distance 3 m, 10 neighbours, horizons 2 s / 1 s,
safety margin 0.04 m), a 64-beam 5 m lidar on every robot, step 0.1 s.
Each simulator runs ``--steps`` steps (or until every robot is done) per
repetition; CPU time (``time.process_time``), the two interleaved, median
of ``--reps``; arrivals and collisions are counted by each simulator's own
rules. ``/proc/loadavg`` is printed before and after.

Run::

    python benchmarks/bench_traffic_irsim.py --steps 60 --reps 5
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


def _irsim_yaml(path: Path) -> None:
    lines = ["world:", f"  height: {ROOM}", f"  width: {ROOM}", "  step_time: 0.1",
             "  sample_time: 0.1", "  offset: [0, 0]", "  collision_mode: 'stop'",
             "  control_mode: 'auto'", "", "robot:"]
    for i in range(N):
        a = 2 * math.pi * i / N
        x, y = ROOM / 2 + RING * math.cos(a), ROOM / 2 + RING * math.sin(a)
        gx, gy = ROOM / 2 - RING * math.cos(a), ROOM / 2 - RING * math.sin(a)
        lines += [f"  - kinematics: {{name: 'omni'}}",
                  f"    shape: {{name: 'circle', radius: {R}}}",
                  f"    state: [{x:.9f}, {y:.9f}, 0]", f"    goal: [{gx:.9f}, {gy:.9f}, 0]",
                  "    vel_max: [1, 1]", "    vel_min: [-1, -1]",
                  "    group_behavior: {name: 'orca', neighborDist: 3.0, maxNeighbors: 10, "
                  "timeHorizon: 2.0, timeHorizonObst: 1.0, safe_radius: 0.04}",
                  "    sensors:", "      - name: 'lidar2d'", "        range_min: 0",
                  "        range_max: 5", "        angle_range: 6.283185307",
                  "        number: 64"]
    path.write_text("\n".join(lines) + "\n")


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=60)
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp())
    y = tmp / "room.yaml"
    _irsim_yaml(y)
    run_robomaze(3)                      # compile
    print(f"loadavg before: {open('/proc/loadavg').read().strip()}")
    rows = {"robomaze": [], "ir-sim": []}
    for _ in range(args.reps):
        rows["robomaze"].append(run_robomaze(args.steps))
        rows["ir-sim"].append(run_irsim(y, args.steps))
    print(f"loadavg after:  {open('/proc/loadavg').read().strip()}")
    med = {}
    for name, rs in rows.items():
        sps = statistics.median(r["steps"] / r["cpu"] for r in rs)
        med[name] = sps
        last = rs[-1]
        print(f"  {name:8s} {sps:9.1f} steps/s (median of {len(rs)}, CPU)   after "
              f"{last['steps']} steps: arrived {last['arrived']}/{N}, collided "
              f"{last['collided']}/{N}")
    print(f"  robomaze / ir-sim: {med['robomaze'] / med['ir-sim']:.0f}x")


if __name__ == "__main__":
    main()
