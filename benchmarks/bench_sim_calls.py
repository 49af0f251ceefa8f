"""Per-call run time of the simulator's, sensors' and coverage metric's kernels, before/after.

Run: ``python benchmarks/bench_sim_calls.py [--reps 3] [--compare DIR]``;
prints a table and writes ``benchmarks/results/sim_calls.json``.

Each repetition runs the measurement in a fresh process of this checkout
(and, with ``--compare``, of another checkout such as an export of the
commit before a change, ``git archive REV | tar -x -C DIR``, right before
it), warm cache, and records process CPU time (``time.process_time``, the
best of a few passes inside the process); the table holds the medians over
repetitions and the load average. Measured:

* ``RangeSensor.cast_many``: 2,000 random free poses x 360 beams on a
  2001x2001 widened maze (a 500x500 backtracker maze, corridor 3, wall 1);
* ``RangeSensor.readings``: one pose, 36 beams, per call;
* ``Collider.collides`` and ``Collider.motion_collides`` of a disc (0.15 m)
  and a 0.3x0.2 m rectangle at 20,000 random poses / small random motions on
  a 1201x1201 maze (200x200 backtracker, corridor 5), per call;
* ``SimEnv.step`` replaying 3,000 fixed commands with a 36-beam lidar, per step;
* ``mark_scan`` of a 36-beam scan, per call; ``fraction_seen`` of 2,000 poses.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r'''
import json, math, time
import numpy as np
from robomaze.generate import generate
from robomaze.grid import widen
from robomaze.geometry import Footprint
from robomaze.metrics import fraction_seen
from robomaze.sense import lidar, mark_scan
from robomaze.sim import Collider, Kinematics, Robot, SimEnv

def best(f, n=5):
    b = math.inf
    for _ in range(n):
        t = time.process_time(); f(); b = min(b, time.process_time() - t)
    return b

out = {}
grid = widen(generate("backtracker", 500, 500, rng=0), corridor=3, wall=1, resolution=0.1)
rng = np.random.default_rng(0)
free = np.argwhere(~grid.occupied)
pick = free[rng.choice(len(free), 2000)]
poses = np.column_stack([grid.frame.cells_to_world(pick), rng.uniform(-math.pi, math.pi, 2000)])
s = lidar(n_beams=360, range_max=1000.0)
s.cast_many(grid, poses[:2])
out["cast_many 2000x360 (ms)"] = best(lambda: s.cast_many(grid, poses), 3) * 1e3
s36 = lidar(n_beams=36)
s36.readings(grid, poses[0])
out["readings 36 beams (us)"] = best(lambda: [s36.readings(grid, p) for p in poses]) / 2000 * 1e6
g2 = widen(generate("backtracker", 200, 200, rng=0), corridor=5, wall=1, resolution=0.1)
for name, fp in (("disc", Footprint.disc(0.15)), ("rect", Footprint.rectangle(0.3, 0.2))):
    col = Collider(g2, fp)
    fr = np.argwhere(~g2.occupied)
    pk = fr[rng.choice(len(fr), 20000)]
    pp = np.column_stack([g2.frame.cells_to_world(pk), rng.uniform(-math.pi, math.pi, 20000)])
    col.check(pp[:2])
    out[f"collides {name} (us)"] = best(lambda: col.check(pp)) / 20000 * 1e6
    ends = pp + np.column_stack([rng.normal(0, 0.02, (20000, 2)), rng.normal(0, 0.2, 20000)])
    pl, el = pp.tolist(), ends.tolist()
    out[f"motion_collides {name} (us)"] = best(
        lambda: [col.motion_collides(a, b) for a, b in zip(pl, el)]) / 20000 * 1e6
    cmds = [(0.3, 1.5 * math.sin(i / 15.0)) for i in range(3000)]
    env = SimEnv(g2, Robot(fp, Kinematics(), sensors=[lidar(n_beams=36, range_max=10.0)]),
                 max_steps=len(cmds) + 1)
    def run():
        env.reset(seed=0)
        for c in cmds:
            env.step(c)
    run()
    out[f"SimEnv.step {name} (us)"] = best(run, 3) / len(cmds) * 1e6
ex = s36.cast_many(g2, pp[:500])
fc = np.zeros(g2.rows * g2.cols, np.int32)
hc = np.zeros(g2.rows * g2.cols, np.int32)
mark_scan(g2.frame, s36, pp[0], ex[0], fc, hc)
out["mark_scan 36 beams (us)"] = best(
    lambda: [mark_scan(g2.frame, s36, p, r, fc, hc) for p, r in zip(pp[:500], ex)]) / 500 * 1e6
fraction_seen(pp[:10], g2, s36)
out["fraction_seen 2000 poses (ms)"] = best(lambda: fraction_seen(pp[:2000], g2, s36), 3) * 1e3
print(json.dumps(out))
'''


def _run(root: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(root))
    proc = subprocess.run([sys.executable, "-c", CHILD], env=env, cwd=root, check=True,
                          capture_output=True, text=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--compare", help="another checkout, run right before this one")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "sim_calls.json"))
    args = ap.parse_args(argv)
    roots = [("this", ROOT)]
    if args.compare:
        roots.insert(0, ("compare", Path(args.compare).resolve()))
    for _, root in roots:
        _run(root)  # fill the cache: the repetitions measure run time only
    res: dict = {"loads": [], **{name: [] for name, _ in roots}}
    for _ in range(args.reps):
        for name, root in roots:
            res["loads"].append(os.getloadavg()[0])
            res[name].append(_run(root))
    keys = list(res["this"][0])
    print(f"medians of {args.reps} interleaved runs, load {min(res['loads']):.1f}-"
          f"{max(res['loads']):.1f}")
    print("| what | " + " | ".join(n for n, _ in roots)
          + (" | this / compare |" if args.compare else " |"))
    print("|---|" + "---:|" * (len(roots) + bool(args.compare)))
    for k in keys:
        med = [statistics.median(r[k] for r in res[n]) for n, _ in roots]
        ratio = f" | {med[1] / med[0]:.2f}" if args.compare else ""
        print(f"| {k} | " + " | ".join(f"{m:.3f}" for m in med) + ratio + " |")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
