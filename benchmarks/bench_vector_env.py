"""Batched vector env vs N single envs: robot-steps per second with a 36-beam lidar.

Run: ``python benchmarks/bench_vector_env.py [--reps R] [--maze N]``; prints a
table and writes ``benchmarks/results/vector_env.json``.

Side by side on the same maze, robot and action sequence:

* ``MazeVectorEnv(N)``: one numba call steps all N robots (kinematic
  limits, exact-arc integration, exact collision check of the footprint
  along the motion, 36-beam lidar cast, observation, next-step autoreset);
* ``SyncVectorEnv`` of N ``MazeEnv``: gymnasium's own vectoriser looping
  over N single envs (each a Python ``SimEnv.step`` plus its scan).

The world: an ``--maze``-square backtracker maze (seed 0) widened with
corridor 3 and wall 1 at 0.1 m per cell; a disc robot of radius 0.1 m with the
``lidar`` preset cut to 36 beams (0.12-3.5 m); dt 0.1 s; 200-step episodes.
Actions are uniform random in ``[-1, 1]^2`` with the speed folded forward
(the same array for both envs), so robots roam, bump and get reset.

Each repetition times every (env, N) pair once, in interleaved order, after
a warm-up; the table holds the median over repetitions of the robot-steps
per second by wall clock and by the process's CPU time (``time.process_time``:
the throughput of the one core the process ran on, which stays meaningful
when other jobs share the machine).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from pathlib import Path

import numpy as np
from gymnasium.vector import SyncVectorEnv

from robomaze.envs.gym_env import MazeEnv
from robomaze.envs.gym_vector import MazeVectorEnv

NS = (1, 64, 1024)


def env_kwargs(maze: int) -> dict:
    return dict(generator="backtracker", size=maze, corridor=3, wall=1, resolution=0.1,
                maze_seed=0, footprint=0.1, sensor="lidar", sensor_options={"n_beams": 36},
                dt=0.1, max_steps=200)


def actions(n: int, steps: int, seed: int = 0) -> np.ndarray:
    a = np.random.default_rng(seed).uniform(-1, 1, (steps, n, 2)).astype(np.float32)
    a[..., 0] = np.abs(a[..., 0])
    return a


def time_env(env, acts: np.ndarray) -> tuple[float, float]:
    """Robot-steps/s (wall, cpu) of stepping ``env`` through ``acts``."""
    env.reset(seed=0)
    w0, c0 = time.perf_counter(), time.process_time()
    for a in acts:
        env.step(a)
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    n = acts.shape[0] * acts.shape[1]
    return n / wall, n / max(cpu, 1e-9)


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--maze", type=int, default=16, help="maze side in cells (default 16)")
    args = p.parse_args(argv)
    kw = env_kwargs(args.maze)
    # Steps per timing: ~50k robot-steps for the batch, fewer for the slow loop.
    plan = {n: (max(50_000 // n, 50), max(5_000 // n, 5)) for n in NS}
    envs = {}
    for n in NS:
        envs[("vector", n)] = (MazeVectorEnv(n, **kw), actions(n, plan[n][0]))
        envs[("sync", n)] = (SyncVectorEnv([lambda: MazeEnv(**kw) for _ in range(n)]),
                             actions(n, plan[n][1]))
    for env, acts in envs.values():                       # warm-up (JIT, caches)
        time_env(env, acts[:3])
    runs = {key: [] for key in envs}
    for _ in range(args.reps):
        for key, (env, acts) in envs.items():
            runs[key].append(time_env(env, acts))
    rows = []
    for n in NS:
        vw = statistics.median(r[0] for r in runs[("vector", n)])
        vc = statistics.median(r[1] for r in runs[("vector", n)])
        sw = statistics.median(r[0] for r in runs[("sync", n)])
        sc = statistics.median(r[1] for r in runs[("sync", n)])
        rows.append({"n": n, "vector_wall": vw, "vector_cpu": vc, "sync_wall": sw,
                     "sync_cpu": sc, "speedup_cpu": vc / sc, "speedup_wall": vw / sw})
    print(f"maze {args.maze}x{args.maze} (corridor 3, wall 1, 0.1 m), disc 0.1 m, 36-beam lidar,"
          f" median of {args.reps} interleaved reps")
    print("| N | MazeVectorEnv (cpu) | SyncVectorEnv of MazeEnv (cpu) | ratio | "
          "MazeVectorEnv (wall) | SyncVectorEnv (wall) |")
    print("|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['n']} | {r['vector_cpu']:,.0f} | {r['sync_cpu']:,.0f} | "
              f"{r['speedup_cpu']:.1f}x | {r['vector_wall']:,.0f} | {r['sync_wall']:,.0f} |")
    result = {"maze": args.maze, "reps": args.reps, "rows": rows,
              "python": platform.python_version(), "platform": platform.platform()}
    out = Path(__file__).resolve().parent / "results" / "vector_env.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    return result


if __name__ == "__main__":
    main()
