"""``--executor dask``: the same runs on a dask.distributed LocalCluster."""

from __future__ import annotations

import pytest

from robomaze.bench import compare_rows, load_sweep, read_rows, run_sweep

distributed = pytest.importorskip("dask.distributed")


def test_dask_local_cluster_gives_the_same_rows(tmp_path):
    p = tmp_path / "d.toml"
    p.write_text("""
seed = [1, 2]
[maze]
generator = "kruskal"
rows = 3
cols = 3
[widen]
corridor = [1, 3]
resolution = 0.1
[robot]
footprint = "disc:0.04"
[run]
planner = ["astar", "random_mouse"]
""")
    scenarios = load_sweep(p).scenarios
    run_sweep(scenarios, tmp_path / "local", workers=1, progress=False)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        result = run_sweep(scenarios, tmp_path / "dask", executor="dask", scheduler=client,
                           progress=False)
    assert result.ran == len(scenarios) == 8 and result.failed == 0
    local, remote = read_rows(tmp_path / "local"), read_rows(tmp_path / "dask")
    assert sorted(r["id"] for r in remote) == sorted(s.id for s in scenarios)
    assert compare_rows(local, remote).ok


def test_dask_run_past_its_limit_is_a_timeout_row(tmp_path):
    from pathlib import Path

    plugin = (Path(__file__).resolve().parent / "bench_plugin_planners.py").as_posix()
    p = tmp_path / "h.toml"
    p.write_text(f"""
plugins = ["{plugin}"]
[maze]
generator = "kruskal"
rows = 3
cols = 3
[widen]
corridor = 3
resolution = 0.1
[robot]
footprint = "disc:0.04"
[run]
planner = ["astar", "test_hang", "test_explode"]
time_limit = 0.5
""")
    scenarios = load_sweep(p).scenarios
    with distributed.LocalCluster(n_workers=1, threads_per_worker=3, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        result = run_sweep(scenarios, tmp_path / "out", executor="dask", scheduler=client,
                           progress=False)
    rows = {r["method"]: r for r in read_rows(tmp_path / "out")}
    assert result.ran == 3 and result.failed == 2
    assert rows["astar"]["status"] == "ok" and rows["astar"]["success"]
    assert rows["test_hang"]["status"] == "infra_timeout" and "dask worker" in rows["test_hang"]["reason"]
    assert rows["test_explode"]["status"] == "error"
