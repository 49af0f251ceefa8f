"""Traffic stepping speed: robot-steps per CPU second of robomaze.traffic.

Measures, for 64 robots with 64-beam lidars in an 8 x 8 braid maze (and the
same at other sizes with --robots/--beams):

* ``core``: :meth:`TrafficWorld.step` with commands (every robot's kinematics,
  the exact contact stops, and every scan) -- one compiled call;
* ``env``: ``MultiMazeEnv.step`` (the PettingZoo ParallelEnv: the core step
  plus observation dicts, rewards);
* ``orca``: the core step with the compiled plan follower and ORCA, safety
  metrics on, no scans;
* ``orca+scan``: ``orca`` with every scan too (the robots crossing the maze);
* ``noscan``: ``core`` without the scans (``sense=False``): ``core`` minus
  ``noscan`` is what the 4096 beams cost.

Every repetition of every variant starts from the same state: the world
of seed 1 at its start poses (``reset_state``; the env's ``reset()``
without a seed, which does the same). Before round six the variants
stepped a world no repetition reset (``env.reset(seed=1)`` builds a new
world, the one ``core`` held stayed behind), so ``core`` went on from
wherever ``orca`` had left the robots -- jammed in corridors and pressed
against each other, every step a round of contact times: that was the
unexplained ``core`` figure slower than ``env``.

CPU time (``time.process_time``), the variants interleaved, median of
``--reps`` repetitions of ``--steps`` steps each; ``/proc/loadavg`` is
printed before and after. Run::

    python benchmarks/bench_traffic.py --resolution 0.1
    python benchmarks/bench_traffic.py --resolution 0.2
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--robots", type=int, default=64)
    ap.add_argument("--beams", type=int, default=64)
    ap.add_argument("--resolution", type=float, default=0.1)
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args()

    from robomaze.traffic import RobotSpec, TrafficSpec, _step
    from robomaze.envs.multi_maze import MultiMazeEnv
    from robomaze.world import WorldSpec

    k = int(round(1.5 / args.resolution))
    spec = TrafficSpec(world=WorldSpec(generator="kruskal", rows=8, cols=8, braid=0.3,
                                       corridor=k, wall=1, resolution=args.resolution, seed=0),
                       robots=RobotSpec(footprint="disc:0.15", beams=args.beams),
                       count=args.robots, assignment="random", max_steps=10 ** 9)
    env = MultiMazeEnv(spec)
    env.reset(seed=1)
    w = env.world       # reset() without a seed keeps this world (reset_state)
    rng = np.random.default_rng(0)
    turn = rng.uniform(-1, 1, args.robots)
    acts = {a: np.array([0.3, turn[i]], np.float32) for i, a in enumerate(env.agents)}
    cmd = np.zeros((args.robots, 3))
    cmd[:, 0] = 0.3
    cmd[:, 2] = turn

    def core():
        w.step(mode=_step.COMMAND, command=cmd, measure=False, sense=True)

    def env_step():
        env.step(acts)

    def orca():
        w.step(mode=_step.FOLLOW, measure=True, sense=False)

    def orca_scan():
        w.step(mode=_step.FOLLOW, measure=True, sense=True)

    def noscan():
        w.step(mode=_step.COMMAND, command=cmd, measure=False, sense=False)

    variants = {"core": core, "env": env_step, "orca": orca, "orca+scan": orca_scan,
                "noscan": noscan}
    for f in variants.values():        # compile and warm up
        f()
    times = {k_: [] for k_ in variants}
    print(f"loadavg before: {open('/proc/loadavg').read().strip()}")
    for _ in range(args.reps):
        for name, f in variants.items():
            env.reset()
            assert env.world is w
            t0 = time.process_time()
            for _ in range(args.steps):
                f()
            times[name].append(time.process_time() - t0)
    print(f"loadavg after:  {open('/proc/loadavg').read().strip()}")
    print(f"{args.robots} robots x {args.beams} beams, grid {w.grid.shape} at "
          f"{args.resolution} m, {args.steps} steps x {args.reps} reps (median CPU time), "
          f"pid {os.getpid()}")
    for name, ts in times.items():
        med = statistics.median(ts)
        print(f"  {name:9s} {med / args.steps * 1e6:8.0f} us/step  "
              f"{args.robots * args.steps / med:10,.0f} robot-steps/s")


if __name__ == "__main__":
    main()
