"""Outputs of the kernels issue 22's fourth compile round touched, pinned to the code before it.

The round (benchmarks/README.md, Issue 22, "Simulate's compile cost and
the two-process split, round four") merged the simulator's pose and motion
collision kernels, the sensors' one-pose and batch ray casters and the
mark-scan march into one kernel each, wrote ``min``/``max``/``int`` as the
same selects, and moved the arrays the agents' and the localiser's kernels
made into their callers. None of it may change a result: the references
in ``tests/data/pins/pinned_round4.npz`` were computed by the same calls on
b0eac15, the commit before the round. They cover what
``tests/test_pinned_outputs.py`` does not: rectangle and polygon
footprints (the separating-axis test), noisy sensors and odometry (the
batch caster), MCL and scan-matching SLAM, every metric with the coverage
one (``fraction_seen``: the batch caster and the mark-scan march), the
batched gym environment and the collision flags of random poses and
motions.

Every output here passes through sines and cosines, whose last bits
depend on the numpy build and the CPU's vector units, so they are compared
within a tolerance (``tests/_pins.py``), not by digest. The localising runs
(MCL, SLAM) resample particles: one weight that differs in its last bit
picks another particle and the run goes its own way, so on any CPU they are
held to their outcome and to what can be recomputed independently (the
trajectory error from the estimate and the true poses, the estimate staying
near the truth).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from _pins import REGEN, assert_matches, load_reference, save_reference
from robomaze.generate import generate
from robomaze.geometry import Footprint
from robomaze.grid import widen
from robomaze.metrics import fraction_seen, trajectory_metrics
from robomaze.sense import lidar, mark_scan
from robomaze.sim import Collider, GoalRegion, simulate

#: runs whose particles make them chaotic across CPUs (see the module docstring)
LOCALISING = ("explore disc mcl", "wall_follow rect slam")


def _metrics(m: dict) -> np.ndarray:
    return np.array([float(v) for k, v in sorted(m.items()) if k != "reason"])


def _run(r) -> dict:
    tr = r.trajectory
    out = {"reason": np.array(r.reason), "t": tr.t, "poses": tr.poses,
           "commands": tr.commands, "collisions": tr.collisions, "metrics": _metrics(r.metrics)}
    if tr.scans is not None:
        seen = np.isfinite(tr.scans)
        out["scan_seen"] = seen.sum(axis=1)
        out["scan_mean"] = np.where(seen, tr.scans, 0.0).sum(axis=1) / np.maximum(seen.sum(1), 1)
    if r.estimate is not None:
        out["estimate"] = r.estimate
    return out


def _outputs() -> tuple[dict, dict]:
    """(pinned fields, the localising runs' results) of every call of the round."""
    out, localising = {}, {}
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
        # the planner's wall-clock safety net off: its verdict would depend on the load
        ("car_pursuit rect", dict(footprint=rect, agent="car_pursuit", turning_radius=0.2,
                                  time_limit=None)),
    ):
        for seed in (1, 2):
            r = simulate(grid, max_steps=250, rng=seed, record_scans=True, **kw)
            if name in LOCALISING:
                localising[f"{seed} {name}"] = r
                out[f"{seed} {name}"] = {"reason": np.array(r.reason)}
            else:
                out[f"{seed} {name}"] = _run(r)
            if name == "explore rect noisy" and seed == 1:
                m = trajectory_metrics(r.trajectory, grid, footprint=rect,
                                       goal=GoalRegion.for_grid(grid), sensor=lidar())
                out["metrics with fraction_seen"] = {"metrics": _metrics(m)}
    rng = np.random.default_rng(5)
    lo, hi = np.array([0.0, 0.0]), np.array([grid.width, grid.height])
    poses = np.column_stack([rng.uniform(lo, hi, (800, 2)), rng.uniform(-math.pi, math.pi, 800)])
    ends = poses + np.column_stack([rng.normal(0, 0.06, (800, 2)), rng.normal(0, 0.8, 800)])
    for fp in (rect, arrow, Footprint.disc(0.07)):
        col = Collider(grid, fp)
        out[f"collider {fp.to_spec()}"] = {
            "flags": col.check(poses),
            "moves": np.array([col.motion_collides(p, q) for p, q in zip(poses, ends)]),
            "kind": np.array([col.fast, col.exact])}
    s = lidar(n_beams=90)
    exact = s.cast_many(grid, poses)
    out["cast_many"] = {"ranges": exact[:200]}         # every beam: tests/sense vs shapely
    out["readings"] = {"ranges": np.array([s.readings(grid, p) for p in poses[:50]])}
    free, hit = np.zeros(grid.rows * grid.cols, np.int32), np.zeros(grid.rows * grid.cols,
                                                                     np.int32)
    noisy = exact * (1 + rng.normal(0, 0.02, exact.shape))
    noisy[rng.random(exact.shape) < 0.05] = np.nan
    for p, r in zip(poses[:200], noisy[:200]):
        mark_scan(grid.frame, s, p, r, free, hit)
    out["mark_scan"] = {"free": free, "hit": hit}
    out["fraction_seen"] = {"fraction": np.array([fraction_seen(poses[:100], grid, s)])}
    import gymnasium as gym  # noqa: F401 -- the vector env needs the gym extra
    from robomaze.envs.gym_vector import MazeVectorEnv

    env = MazeVectorEnv(4, grid=grid, footprint=rect)
    obs, _ = env.reset(seed=7)
    acts = np.random.default_rng(8).uniform(-1, 1, (60, 4, 2))
    rows = []
    for a in acts:
        o, rew, term, trunc, _ = env.step(a)
        rows.append(np.concatenate([np.ravel(v) for v in o.values()] + [rew, term, trunc]))
    out["vector env"] = {"rows": np.array(rows, float)}
    return out, localising


@pytest.fixture(scope="module")
def outputs():
    out, localising = _outputs()
    if REGEN:
        save_reference("pinned_round4", out)
    return out, localising, load_reference("pinned_round4")


def test_outputs_match_the_ones_before_the_round(outputs):
    # every element hinges on a trigonometric boundary case at most once:
    # a flipped collision flag or grazing beam is allowed, one in a hundred
    out, _, ref = outputs
    assert set(out) == set(ref)
    for key in sorted(ref):
        assert_matches(key, out[key], ref[key], rtol=1e-7, atol=1e-7, flip_share=0.01)


@pytest.mark.parametrize("key", [f"{s} {n}" for n in LOCALISING for s in (1, 2)])
def test_localising_runs_keep_their_outcome_and_track_the_truth(outputs, key):
    _, localising, ref = outputs
    r = localising[key]
    assert r.reason == str(ref[key]["reason"])
    truth, est = r.trajectory.poses[:, :2], r.estimate[:, :2]
    err = np.hypot(*(est - truth).T)
    # the trajectory error recomputed from its definition, not by the library
    assert r.metrics["ate_rmse"] == pytest.approx(math.sqrt(np.mean(err ** 2)), rel=1e-9)
    assert err.max() < 0.25                           # 2.5 cells: localised throughout
    assert r.metrics["collisions"] == int(np.sum(np.diff(r.trajectory.collisions.astype(int))
                                             == 1) + r.trajectory.collisions[0])


def test_the_references_cover_runs_not_errors(outputs):
    _, _, ref = outputs
    assert len(ref) == 19
    assert {str(ref[k]["reason"]) for k in ref if "reason" in ref[k]} <= {
        "goal", "max_steps", "no_path"}
