"""robomaze's ORCA against pyrvo (RVO2) on the 20 seeded scenes of robomaze.traffic.scenes.

Two checks. Step by step: at every state of a pyrvo run, robomaze's kernel
is given the same positions, velocities and preferred velocities and must
give RVO2's new velocities (RVO2 computes in float32, robomaze in float64:
the same numbers to 1e-6 but where a float32 rounding tips a branch of the
linear programs). Closed loop: each backend runs the scene on its own; the
arrival counts must be equal and neither may collide.
"""

import math

import numpy as np
import pytest

pyrvo = pytest.importorskip("pyrvo")

from robomaze.traffic._orca import orca_step  # noqa: E402
from robomaze.traffic.scenes import SCENES, _Pref, orca_params, orca_scene, run_orca  # noqa: E402
from robomaze.traffic.walls import obstacle_arrays, wall_rings  # noqa: E402


def _obstacles(scene):
    rings = wall_rings(scene.grid) if scene.kind == "maze" else []
    if rings:
        return obstacle_arrays(rings)
    return tuple(np.zeros(0, d) for d in (float, float, np.int64, np.int64, float, float,
                                          np.bool_))


def _step_errors(index, steps=120):
    s = orca_scene(index)
    n = len(s.starts)
    p = orca_params()
    tr = run_orca(s, backend="pyrvo", trace=True, max_steps=steps)
    obst = _obstacles(s)
    pref_of = _Pref(s)
    errs = []
    for k in range(len(tr["positions"])):
        pos = tr["positions"][k]
        vel = tr["velocities"][k - 1] if k else np.zeros((n, 2))
        # pyrvo stored the preferred velocity in float32
        pref = pref_of(pos).astype(np.float32).astype(float)
        out = np.empty((n, 2))
        orca_step(pos, vel, pref, np.full(n, float(np.float32(s.orca_radius))),
                  np.full(n, s.max_speed), np.ones(n, np.bool_), np.ones(n, np.bool_),
                  p["neighbor_dist"], p["max_neighbors"], p["time_horizon"],
                  p["time_horizon_obst"], float(np.float32(s.dt)), *obst, out)
        errs.append(np.abs(out - tr["velocities"][k]).max(axis=1))
    return np.concatenate(errs)


def test_every_step_matches_pyrvo_velocities_on_the_20_scenes():
    assert len(SCENES) == 20
    assert {k for k, _ in SCENES} == {"open", "maze"}
    assert min(n for _, n in SCENES) == 4 and max(n for _, n in SCENES) == 32
    all_errs = []
    for i in range(len(SCENES)):
        e = _step_errors(i)
        all_errs.append(e)
        # per scene: nearly every agent-step to 1e-6 (float32 roundings only)
        assert np.mean(e < 1e-6) >= 0.95, (i, np.mean(e < 1e-6))
    e = np.concatenate(all_errs)
    assert np.median(e) < 1e-7
    assert np.mean(e < 1e-6) >= 0.98
    assert np.mean(e < 1e-3) >= 0.999     # the rest: a float32 rounding tipped a branch
    assert e.max() < 0.1


def test_closed_loop_same_arrivals_and_no_collisions_on_the_20_scenes():
    rel = []
    for i in range(len(SCENES)):
        s = orca_scene(i)
        a = run_orca(s, backend="robomaze")
        b = run_orca(s, backend="pyrvo")
        assert a["collisions"] == 0 and b["collisions"] == 0, i
        assert a["arrived"] == b["arrived"], i
        assert a["arrived"] >= 0.85 * len(s.starts)
        if not (math.isnan(a["makespan"]) or math.isnan(b["makespan"])):
            rel.append(abs(a["makespan"] - b["makespan"]) / b["makespan"])
        else:
            assert math.isnan(a["makespan"]) and math.isnan(b["makespan"]), i
    rel = np.array(rel)
    # float32 vs float64 trajectories part in crowded mazes (chaos, not bias):
    # most makespans agree within 1 %, their median well within it
    assert np.median(rel) <= 0.01
    assert np.mean(rel <= 0.01) >= 0.6
