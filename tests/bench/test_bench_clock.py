"""One clock on every row: compute_s is the method's CPU time (compiles
excluded) on every outcome, and mouse rows tell the truth (outcome, route,
poses)."""

import json
import math
import time

import numpy as np
import pytest

from robomaze.bench.micromouse import trace_poses
from robomaze.bench.run import OUTCOMES, run_scenario
from robomaze.bench.runner import execute
from robomaze.bench.scenario import load_sweep, parse_sweep
from robomaze.bench.store import row_poses
from robomaze.data import SAMPLES_DIR
from robomaze.errors import NoPathError
from robomaze.plan import PLANNERS


def _sleepy_no_path(grid, start, goal, *, footprint=None, connectivity=4, **options):
    time.sleep(0.3)            # wall time that is not the method's CPU time
    raise NoPathError("none here", reason="walled off")


def _sleepy_error(grid, start, goal, *, footprint=None, connectivity=4, **options):
    time.sleep(0.3)
    raise ValueError("a bug in the planner")


@pytest.fixture
def planners():
    PLANNERS["sleepy_no_path"] = _sleepy_no_path
    PLANNERS["sleepy_error"] = _sleepy_error
    try:
        yield
    finally:
        del PLANNERS["sleepy_no_path"], PLANNERS["sleepy_error"]


def _scenario(planner):
    sweep = parse_sweep({"name": "clock", "seed": 1,
                         "maze": {"generator": "kruskal", "rows": 3, "cols": 3},
                         "widen": {"corridor": 3, "resolution": 0.1},
                         "robot": {"footprint": "disc:0.04"},
                         "run": {"planner": [planner]}}, source="clock.toml")
    return sweep.scenarios[0]


def test_a_no_path_row_times_the_method_s_cpu_not_the_wall(planners):
    row = run_scenario(_scenario("sleepy_no_path"))
    t = row["timings"]
    assert row["outcome"] == "no_path" and not row["success"]
    assert t["method_s"] >= 0.3                      # the wall clock saw the sleep
    assert t["compute_s"] <= t["cpu_s"]              # never above the process's CPU time
    # a thread's CPU time fits in its wall time minus its sleep, under any load:
    # the sleep is not charged to the method
    assert t["compute_s"] <= t["method_s"] - 0.3 + 1e-4


def test_an_error_row_keeps_the_method_s_cpu_time(planners):
    row = execute(_scenario("sleepy_error").to_dict(), soft_timeout=False)
    t = row["timings"]
    assert row["status"] == "error" and row["outcome"] == "error"
    assert "a bug in the planner" in row["error"]
    assert {"compute_s", "compile_s", "cpu_s", "total_s"} <= set(t)
    assert t["compute_s"] <= t["cpu_s"] and t["compute_s"] <= t["total_s"] - 0.3 + 1e-4


def test_mouse_rows_tell_the_truth():
    sweep = load_sweep(SAMPLES_DIR / "scenarios" / "micromouse.toml")
    picked = [sc for sc in sweep.scenarios if sc.kind == "mouse"
              and sc.spec["maze"]["file"].endswith("16MM2016CX.maze")
              and (sc.spec["run"].get("profile") or "kerikun") == "kerikun"
              and sc.method in ("left_wall", "tremaux")]
    assert len(picked) == 2
    for sc in picked:
        row = run_scenario(sc)
        assert row["outcome"] in OUTCOMES
        assert (row["outcome"] == "success") == row["success"]
        t = row["timings"]
        assert 0.0 <= t["compute_s"] <= t["cpu_s"]
        poses = row_poses(row)
        assert poses is not None and poses.shape[1] == 3
        # the first pose is the start cell's centre (16 rows of 0.18 m cells)
        r, c = sc.spec["maze"]["start"] or (15, 0)
        assert poses[0, 0] == pytest.approx((c + 0.5) * 0.18)
        assert poses[0, 1] == pytest.approx((16 - r - 0.5) * 0.18)
        # consecutive poses are one cell apart (a move) or the same cell
        steps = np.hypot(*np.diff(poses[:, :2], axis=0).T)
        assert np.all(np.isclose(steps, 0.18) | np.isclose(steps, 0.0))
        if row["success"]:
            route = row["route"]
            assert len(route) - 1 == row["metrics"]["route_length"]
        else:
            assert row["outcome"] == "gave_up" and row["route"] is None
    assert {run_scenario(sc)["outcome"] for sc in picked} == {"gave_up", "success"}


def test_trace_poses_face_the_move_into_each_cell():
    p = trace_poses([(2, 0), (1, 0), (1, 1), (1, 0)], 3, 1.0)
    assert p[:, :2].tolist() == [[0.5, 0.5], [0.5, 1.5], [1.5, 1.5], [0.5, 1.5]]
    assert np.allclose(p[:, 2], [math.pi / 2, math.pi / 2, 0.0, math.pi])
    assert trace_poses([], 3, 1.0) is None


def test_a_no_path_carries_the_planner_s_own_clock(planners):
    """plan() times "no path" like a path: the planner alone, on the method clock."""
    from robomaze.plan import plan

    sc = _scenario("sleepy_no_path")
    from robomaze.bench.run import build_grid

    grid, start, goal = build_grid(sc)
    with pytest.raises(NoPathError) as info:
        plan(grid, start, goal, method="sleepy_no_path")
    cpu, compile_s = info.value.method_time
    assert compile_s == 0.0 and 0.0 <= cpu < 0.3      # the sleep is not CPU time


def _burn(seconds: float) -> None:
    t0 = time.thread_time()
    while time.thread_time() - t0 < seconds:
        pass


def test_time_under_numba_s_compiler_lock_is_not_the_method_s():
    """A kernel loaded from the disk cache on a signature's first call runs
    under numba's compiler lock and fires no compile event: the clock takes
    it out like a compile, so a warm and a cold cache time a method alike."""
    from numba.core import event as ev

    from robomaze._compile import cpu_now, method_clock

    with method_clock() as clock:
        a = cpu_now()
        ev.start_event("numba:compiler_lock")
        _burn(0.05)                                    # "loading" under the lock
        ev.end_event("numba:compiler_lock")
        b = cpu_now()
    assert clock.cpu_s < 0.025 and b - a < 0.025       # 0.05 s of CPU taken out
    assert clock.compile_s == 0.0                      # a load is not a compile
    with method_clock() as plain:
        _burn(0.05)
    assert plain.cpu_s >= 0.05                         # and work outside it counts


def test_a_real_cache_load_is_taken_out(tmp_path):
    """End to end with numba: a cached kernel's first call in a fresh process
    (no compile event, a load under the compiler lock) is not method time."""
    import subprocess
    import sys
    import textwrap

    (tmp_path / "kern.py").write_text(textwrap.dedent("""
        from numba import njit

        @njit(cache=True)
        def f(n):
            s = 0.0
            for i in range(n):
                s += i ** 0.5
            return s
    """))
    probe = textwrap.dedent("""
        import sys, time, json
        from numba.core import event as ev
        from robomaze._compile import method_clock
        seen = {"compile": 0, "lock": 0, "lock_cpu": 0.0}
        class L(ev.Listener):
            def __init__(self, k): self.k = k
            def on_start(self, e):
                seen[self.k] += 1
                if self.k == "lock" and seen.get("depth", 0) == 0: seen["t0"] = time.thread_time()
                if self.k == "lock": seen["depth"] = seen.get("depth", 0) + 1
            def on_end(self, e):
                if self.k == "lock":
                    seen["depth"] -= 1
                    if seen["depth"] == 0: seen["lock_cpu"] += time.thread_time() - seen["t0"]
        import kern
        ev.register("numba:compile", L("compile")); ev.register("numba:compiler_lock", L("lock"))
        c0 = time.thread_time()
        with method_clock() as c:
            kern.f(10)
        total = time.thread_time() - c0
        print(json.dumps({"compile": seen["compile"], "lock": seen["lock"],
                          "lock_cpu": seen["lock_cpu"], "total": total, "cpu_s": c.cpu_s}))
    """)
    env = {**__import__("os").environ, "PYTHONPATH": f"{tmp_path}:{_repo_root()}"}
    env.pop("NUMBA_CACHE_DIR", None)     # the cache beside kern.py, in tmp_path
    first = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env,
                           capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout)["compile"] >= 1              # compiled and cached
    again = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env,
                           capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    got = json.loads(again.stdout)
    assert got["compile"] == 0 and got["lock"] >= 1              # loaded from the cache
    assert got["lock_cpu"] > 0.0
    # the clock took the load out: what is left is the block minus the load
    assert got["cpu_s"] <= got["total"] - got["lock_cpu"] + 1e-4


def _repo_root() -> str:
    from pathlib import Path

    import robomaze

    return str(Path(robomaze.__file__).resolve().parents[1])
