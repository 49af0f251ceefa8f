"""Outputs of the kernels issue 22's fourth compile round touched, pinned to the code before it.

The round (benchmarks/README.md, Issue 22, "Simulate's compile cost and
the two-process split, round four") merged the simulator's pose and motion
collision kernels, the sensors' one-pose and batch ray casters and the
mark-scan march into one kernel each, wrote ``min``/``max``/``int`` as the
same selects, and moved the arrays the agents' and the localiser's kernels
made into their callers. None of it may change a result: the digests below
were computed by the same calls on b0eac15, the commit before the round,
over the exact bytes (no rounding). They cover what
``tests/test_pinned_outputs.py`` does not: rectangle and polygon
footprints (the separating-axis test), noisy sensors and odometry (the
batch caster), MCL and scan-matching SLAM, every metric with the coverage
one (``fraction_seen``: the batch caster and the mark-scan march), the
batched gym environment and the collision flags of random poses and
motions.

Like the digests of ``tests/test_pinned_outputs.py`` they depend on libm's
and numpy's last bits, so they are compared where they were computed
(:data:`PINNED_ON`) and skipped, with the reason, elsewhere.
"""

from __future__ import annotations

import hashlib
import math
import platform

import numba
import numpy as np
import pytest

from robomaze.generate import generate
from robomaze.geometry import Footprint
from robomaze.grid import widen
from robomaze.metrics import fraction_seen, trajectory_metrics
from robomaze.sense import lidar, mark_scan
from robomaze.sim import Collider, GoalRegion, simulate

#: the environment the digests were computed in
PINNED_ON = {"numpy": "2.4.6", "numba": "0.68.1", "machine": "x86_64", "avx512f": True}


def _environment() -> dict:
    try:
        from numpy._core._multiarray_umath import __cpu_features__ as cpu
    except ImportError:                                   # numpy 1.x
        from numpy.core._multiarray_umath import __cpu_features__ as cpu
    return {"numpy": np.__version__, "numba": numba.__version__,
            "machine": platform.machine(), "avx512f": bool(cpu.get("AVX512F"))}


#: digests computed on b0eac15 (before the round) by :func:`_outputs`
PINNED = {
    "1 car_pursuit rect": "aef4cbfa36ad6015 goal",
    "1 explore disc mcl": "c1c5c49a401f1ec2 max_steps",
    "1 explore rect noisy": "e66eff0c2113aaa6 max_steps",
    "1 follow_plan arrow": "a137b03efd05239c max_steps",
    "1 wall_follow rect slam": "da8531916098f684 max_steps",
    "2 car_pursuit rect": "cb0356433f6de15c no_path",
    "2 explore disc mcl": "71f13c5233ac310c max_steps",
    "2 explore rect noisy": "4ff0589b15611beb max_steps",
    "2 follow_plan arrow": "a137b03efd05239c max_steps",
    "2 wall_follow rect slam": "e7051a937cf4a5e2 max_steps",
    "cast_many": "664ac84e2ca5fda9",
    "collider disc:0.07": "e6f4e51df0fda5ea",
    "collider poly:0.1,0;-0.07,0.08;-0.02,0;-0.07,-0.08": "ae927f9b6e479b74",
    "collider rect:0.2x0.14": "af78d5ae32322419",
    "fraction_seen": "fc6986bca557ac3b",
    "mark_scan": "a7c773d55f82adab",
    "metrics with fraction_seen": "a426e03fe3ead2db",
    "readings": "970d8026175f65a0",
    "vector env": "6f021e7b9a7340f2",
}


def _digest(*arrays) -> str:
    m = hashlib.sha256()
    for a in arrays:
        a = np.ascontiguousarray(a)
        m.update(str(a.dtype).encode() + str(a.shape).encode() + a.tobytes())
    return m.hexdigest()[:16]


def _run(r) -> str:
    tr = r.trajectory
    parts = [tr.t, tr.poses, tr.commands, tr.collisions]
    if tr.scans is not None:
        parts.append(tr.scans)
    if r.estimate is not None:
        parts.append(r.estimate)
    parts.append(np.array([float(v) for k, v in sorted(r.metrics.items()) if k != "reason"]))
    return _digest(*parts) + " " + r.reason


def _outputs() -> dict:
    out = {}
    grid = widen(generate("kruskal", 5, 6, rng=3, braid=0.3), corridor=5, resolution=0.1)
    rect = Footprint.from_spec("rect:0.2x0.14")
    arrow = Footprint.polygon([(0.1, 0.0), (-0.07, 0.08), (-0.02, 0.0), (-0.07, -0.08)])
    for name, kw in (
        ("explore rect noisy", dict(footprint=rect, agent="explore", noise="gaussian:0.01",
                                    odometry_noise="gaussian:0.02")),
        ("follow_plan arrow", dict(footprint=arrow, agent="follow_plan")),
        ("explore disc mcl", dict(footprint=Footprint.disc(0.05), agent="explore",
                                  localize="mcl", odometry_noise="gaussian:0.02")),
        ("wall_follow rect slam", dict(footprint=rect, agent="wall_follow", localize="slam",
                                       odometry_noise="gaussian:0.02")),
        ("car_pursuit rect", dict(footprint=rect, agent="car_pursuit", turning_radius=0.2)),
    ):
        for seed in (1, 2):
            try:
                r = simulate(grid, max_steps=250, rng=seed, record_scans=True, **kw)
                out[f"{seed} {name}"] = _run(r)
            except Exception as e:
                out[f"{seed} {name}"] = type(e).__name__
            if name == "explore rect noisy" and seed == 1:
                tr = r.trajectory
                m = trajectory_metrics(tr, grid, footprint=rect,
                                       goal=GoalRegion.for_grid(grid), sensor=lidar())
                out["metrics with fraction_seen"] = _digest(
                    np.array([float(v) for k, v in sorted(m.items()) if k != "reason"]))
    rng = np.random.default_rng(5)
    lo, hi = np.array([0.0, 0.0]), np.array([grid.width, grid.height])
    poses = np.column_stack([rng.uniform(lo, hi, (800, 2)), rng.uniform(-math.pi, math.pi, 800)])
    ends = poses + np.column_stack([rng.normal(0, 0.06, (800, 2)), rng.normal(0, 0.8, 800)])
    for fp in (rect, arrow, Footprint.disc(0.07)):
        col = Collider(grid, fp)
        flags = col.check(poses)
        moves = [col.motion_collides(p, q) for p, q in zip(poses, ends)]
        out[f"collider {fp.to_spec()}"] = _digest(flags, np.array(moves),
                                                  np.array([col.fast, col.exact]))
    s = lidar(n_beams=90)
    exact = s.cast_many(grid, poses)
    one = np.array([s.readings(grid, p) for p in poses[:50]])
    out["cast_many"] = _digest(exact)
    out["readings"] = _digest(one)
    free, hit = np.zeros(grid.rows * grid.cols, np.int32), np.zeros(grid.rows * grid.cols,
                                                                     np.int32)
    noisy = exact * (1 + rng.normal(0, 0.02, exact.shape))
    noisy[rng.random(exact.shape) < 0.05] = np.nan
    for p, r in zip(poses[:200], noisy[:200]):
        mark_scan(grid.frame, s, p, r, free, hit)
    out["mark_scan"] = _digest(free, hit)
    out["fraction_seen"] = _digest(np.array([fraction_seen(poses[:100], grid, s)]))
    import gymnasium as gym  # noqa: F401 -- the vector env needs the gym extra
    from robomaze.sim.gym_vector import MazeVectorEnv

    env = MazeVectorEnv(4, grid=grid, footprint=rect)
    obs, _ = env.reset(seed=7)
    acts = np.random.default_rng(8).uniform(-1, 1, (60, 4, 2))
    rows = []
    for a in acts:
        o, rew, term, trunc, _ = env.step(a)
        rows.append(np.concatenate([np.ravel(v) for v in o.values()] + [rew, term, trunc]))
    out["vector env"] = _digest(np.array(rows, float))
    return out


@pytest.fixture(scope="module")
def outputs():
    env = _environment()
    if env != PINNED_ON:
        pytest.skip(f"digests pinned on {PINNED_ON}, this is {env}")
    return _outputs()


@pytest.mark.parametrize("key", sorted(PINNED))
def test_output_is_the_one_before_the_round(outputs, key):
    assert outputs[key] == PINNED[key]


def test_the_digests_cover_runs_not_errors():
    # the calls must have run, or the pins would compare error names
    assert not [k for k, v in PINNED.items() if "Error" in v]
    assert len(PINNED) == 19
