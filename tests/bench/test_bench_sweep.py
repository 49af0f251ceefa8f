"""A small sweep end to end: rows, report numbers, figures, OMPL logs."""

from __future__ import annotations

import csv
import math

import numpy as np
import pytest

from robomaze.bench import load_sweep, read_rows, run_sweep, write_report

SWEEP = """
name = "small"
seed = [1, 2]
[maze]
generator = "kruskal"
rows = 4
cols = 4
[widen]
corridor = [1, 3]
resolution = 0.1
[robot]
# the large disc (0.6 m across) cannot pass a 0.1 or 0.3 m corridor
footprint = ["disc:0.04", "disc:0.3"]
[run]
planner = ["astar", "wavefront"]
time_limit = 30.0
"""


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    d = tmp_path_factory.mktemp("sweep")
    (d / "small.toml").write_text(SWEEP)
    sweep = load_sweep(d / "small.toml")
    result = run_sweep(sweep.scenarios, d / "out", workers=2, progress=False)
    written = write_report(d / "out")
    return sweep, result, read_rows(d / "out"), written, d / "out"


def test_every_scenario_has_exactly_one_row(swept):
    sweep, result, rows, _, out = swept
    assert result.ran == len(sweep.scenarios) == 16 and result.failed == 0
    assert sorted(r["id"] for r in rows) == sorted(s.id for s in sweep.scenarios)
    lines = (out / "results.jsonl").read_text().splitlines()
    assert len(lines) == 16
    row = rows[0]
    for key in ("scenario", "metrics", "timings", "provenance", "status", "success"):
        assert key in row
    assert {"robomaze", "git_commit", "python", "numpy", "seed"} <= set(row["provenance"])


def test_paths_agree_with_an_independent_shortest_path(swept):
    """Successful 4-connected lengths equal a BFS on the same C-space."""
    from scipy.sparse import csgraph, lil_matrix

    from robomaze.bench.run import build_footprint, build_grid
    from robomaze.bench.scenario import Scenario

    _, _, rows, _, _ = swept
    row = next(r for r in rows if r["success"] and r["corridor"] == 3 and r["footprint"] == "disc:0.04")
    sc = Scenario.from_dict({"id": row["id"], "spec": row["scenario"]})
    grid, start, goal = build_grid(sc)
    r = build_footprint(sc.spec["robot"]["footprint"]).radius
    free = grid.clearance() > r  # disc fits: centre clearance exceeds its radius
    idx = -np.ones(grid.shape, int)
    idx[free] = np.arange(free.sum())
    adj = lil_matrix((free.sum(), free.sum()))
    for dr, dc in ((0, 1), (1, 0)):
        a = free[: grid.rows - dr, : grid.cols - dc] & free[dr:, dc:]
        for i, j in zip(*np.nonzero(a)):
            adj[idx[i, j], idx[i + dr, j + dc]] = 1
    d = csgraph.shortest_path(adj.tocsr(), directed=False, indices=idx[start])[idx[goal]]
    assert math.isclose(row["metrics"]["length_m"], d * grid.resolution, rel_tol=1e-9)
    m = row["metrics"]
    assert math.isclose(m["length_ratio"], m["length_m"] / m["optimal_length_m"], rel_tol=1e-12)
    # the any-angle reference is never longer than a 4-connected shortest path
    assert m["optimal_length_m"] <= m["length_m"] + 1e-9


def test_too_wide_footprint_is_a_result_shown_in_the_report(swept):
    _, _, rows, written, _ = swept
    wide = [r for r in rows if r["footprint"] == "disc:0.3"]
    assert wide and all(r["status"] == "ok" and not r["success"] for r in wide)
    assert all(r["reason"].startswith("no collision-free path") for r in wide)
    md = written["report"].read_text()
    assert "## No collision-free path" in md
    assert "| disc:0.3 | 1 | none always succeeded |" in md
    # 2 planners x 2 seeds per widening level, none found a path; the small disc always did
    assert "| disc:0.3 | 4/4 | 4/4 |" in md and "| disc:0.04 | 0/4 | 0/4 |" in md


def _recompute(rows, corridor, footprint, method):
    g = [r for r in rows if (r["corridor"], r["footprint"], r["method"]) == (corridor, footprint, method)]
    ok = [r for r in g if r["success"]]
    times = sorted(r["timings"]["compute_s"] for r in g)
    return {
        "runs": len(g), "successes": len(ok), "success_rate": len(ok) / len(g),
        "length_m": sum(r["metrics"]["length_m"] for r in ok) / len(ok) if ok else None,
        "min_clearance": min(r["metrics"]["min_clearance"] for r in ok) if ok else None,
        "mean_clearance": (sum(r["metrics"]["mean_clearance"] for r in ok) / len(ok)) if ok else None,
        "compute_median_s": (times[len(times) // 2] + times[(len(times) - 1) // 2]) / 2,
    }


def test_report_numbers_equal_those_recomputed_from_rows(swept):
    _, _, rows, written, out = swept
    with open(written["summary"], newline="") as fh:
        table = list(csv.DictReader(fh))
    assert len(table) == 2 * 2 * 2  # corridor x footprint x method
    md = written["report"].read_text()
    for line in table:
        want = _recompute(rows, int(line["corridor"]), line["footprint"], line["method"])
        for key, value in want.items():
            if value is None:
                assert line[key] == "", key
            else:
                assert math.isclose(float(line[key]), value, rel_tol=1e-12), key
        if want["length_m"] is not None:
            cells = [line["method"], line["corridor"], str(want["runs"])]
            expect = f"| {' | '.join(cells)} | {want['success_rate']:.4g} |"
            assert expect in md
            assert f"| {want['length_m']:.4g} |" in md


def test_at_a_glance_names_the_shortest_and_safest(swept):
    _, _, rows, written, _ = swept
    md = written["report"].read_text()
    for k in (1, 3):
        group = [r for r in rows if r["corridor"] == k and r["footprint"] == "disc:0.04"]
        ratio = {m: sum(r["metrics"]["length_ratio"] for r in group if r["method"] == m) / 2
                 for m in ("astar", "wavefront")}
        safest = {m: min(r["metrics"]["min_clearance"] for r in group if r["method"] == m)
                  for m in ("astar", "wavefront")}
        short = min(sorted(ratio), key=ratio.get)
        safe = max(sorted(safest), key=safest.get)
        assert (f"| disc:0.04 | {k} | {short} | {ratio[short]:.4g} | {safe} | "
                f"{safest[safe]:.4g} |") in md


def test_report_files_exist(swept):
    _, _, rows, written, out = swept
    assert (out / "report.md").stat().st_size > 0
    for name in ("length_vs_widening", "clearance_vs_widening", "success_vs_widening"):
        p = out / "figures" / f"{name}.png"
        assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for method in ("astar", "wavefront"):
        for k in (1, 3):
            assert (out / "examples" / f"{method}_corridor{k}.png").is_file()
    assert "## Example runs" in (out / "report.md").read_text()


def _parse_ompl(text):
    """Independent reader of the OMPL benchmark log layout (enough to check ours)."""
    lines = iter(text.splitlines())
    assert next(lines).split()[1] == "version"
    assert next(lines).startswith("Experiment ")
    n_props = int(next(lines).split()[0])
    props = {}
    for _ in range(n_props):
        left, value = next(lines).split(" = ")
        props[left.split()[0]] = value
    assert next(lines).startswith("Running on ")
    assert next(lines).startswith("Starting at ")
    for _ in range(2):  # setup and cpu info blocks
        assert next(lines) == "<<<|"
        while next(lines) != "|>>>":
            pass
    header = [next(lines) for _ in range(6)]
    assert header[0].endswith("is the random seed") and header[5] == "1 enum type"
    assert next(lines).startswith("status|Unknown status|")
    planners = {}
    for _ in range(int(next(lines).split()[0])):
        name = next(lines)
        assert next(lines) == "0 common properties"
        names = ["_".join(next(lines).split()[:-1]) for _ in range(int(next(lines).split()[0]))]
        runs = []
        for _ in range(int(next(lines).split()[0])):
            values = next(lines).split("; ")[:-1]
            assert len(values) == len(names)
            runs.append(dict(zip(names, values)))
        assert next(lines) == "."
        planners[name] = runs
    return props, planners


def test_ompl_log_has_widening_as_experiment_property(swept):
    _, _, rows, written, out = swept
    logs = sorted((out / "ompl").glob("*.log"))
    assert len(logs) == 4  # corridor x footprint
    props, planners = _parse_ompl((out / "ompl" / "corridor3_disc-0.04.log").read_text())
    assert props["corridor"] == "3" and props["footprint"] == "disc:0.04"
    assert set(planners) == {"plan_astar", "plan_wavefront"}
    got = sorted(float(r["solution_length"]) for r in planners["plan_astar"])
    want = sorted(r["metrics"]["length_m"] for r in rows
                  if (r["corridor"], r["footprint"], r["method"]) == (3, "disc:0.04", "astar"))
    assert got == pytest.approx(want, rel=1e-12)


def test_trajectories_are_stored_as_fractional_grid_cells():
    from robomaze import Maze, widen
    from robomaze.bench.run import _fractional_cells

    g = widen(Maze.empty(2, 3), corridor=3, resolution=0.1, origin=(1.0, 2.0, 0.0))
    cells = np.array([[1, 1], [4, 6], [2, 3]])
    assert np.allclose(_fractional_cells(g, g.cells_to_world(cells)), cells)
    mid = (g.cells_to_world([[1, 1]])[0] + g.cells_to_world([[1, 2]])[0]) / 2
    assert np.allclose(_fractional_cells(g, mid[None]), [[1, 1.5]])
