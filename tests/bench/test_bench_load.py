"""A results directory as a DataFrame, exported to Parquet and CSV, and the
self-contained report.html with the statistics section."""

import csv
import json
import re

import pytest

pd = pytest.importorskip("pandas")

from robomaze.bench import export, load, load_sweep, read_rows, run_sweep, write_report  # noqa: E402
from robomaze.cli import main  # noqa: E402

SWEEP = """
name = "tiny"
seed = [1, 2, 3]
[maze]
generator = "kruskal"
rows = 3
cols = 3
[widen]
corridor = [3, 5]
resolution = 0.1
[robot]
footprint = ["disc:0.04", "rect:0.2x0.1"]
[run]
planner = ["astar", "theta_star", "wall_follower"]
agent = ["follow_plan"]
max_steps = 600
time_limit = 60.0
"""

NEW = ("curvature_max", "curvature_mean", "cusps", "arc_clearance_min", "arc_clearance_mean",
       "arc_clearance_median", "arc_clearance_max", "smoothness", "optimal_reference")


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    d = tmp_path_factory.mktemp("tiny")
    (d / "tiny.toml").write_text(SWEEP)
    run_sweep(load_sweep(d / "tiny.toml").scenarios, d / "out", workers=1, progress=False)
    write_report(d / "out", examples=False)
    return d / "out"


def test_load_is_one_row_per_run_named_and_typed_by_the_schema(out):
    rows = read_rows(out)
    df = load(out)
    assert len(df) == len(rows) == 48
    for name in NEW:
        assert name in df
    assert "process_cpu_s" in df and "wall_cells" in df and "corridor_cells" in df
    assert "scenario_widen_corridor" in df and "path" not in df and "base_dir" not in df
    assert not any("." in c for c in df.columns)
    # no OMPL planner ran: its columns are dropped, and every column has a value somewhere
    assert "first_solution_s" not in df and all(df[c].notna().any() for c in df.columns)
    assert "first_solution_s" in load(out, keep_empty=True)
    by_id = {r["id"]: r for r in rows}
    for _, rec in df.iterrows():
        r = by_id[rec["id"]]
        v = r["metrics"].get("length_ratio")
        assert pd.isna(rec["length_ratio"]) if v is None else rec["length_ratio"] == v
        assert rec["wall_cells"] == r["wall"] and rec["collisions"] == r["metrics"]["collisions"]
    for count in ("collisions", "steps", "cusps", "turns", "expanded", "seed", "wall_cells"):
        assert str(df[count].dtype) == "Int64", count
    assert pd.api.types.is_float_dtype(df["arc_clearance_min"])
    # which reference each row used: exact for the disc, theta_star for the rectangle
    refs = df.groupby("footprint")["optimal_reference"].unique()
    assert list(refs["disc:0.04"]) == ["visibility"] and list(refs["rect:0.2x0.1"]) == ["theta_star"]
    disc = df[(df.footprint == "disc:0.04") & df["length_ratio"].notna()]
    assert len(disc) > 0 and disc["length_ratio"].min() >= 1 - 1e-6


def test_load_of_one_kind_keeps_its_rows_and_its_columns(out):
    plans = load(out, kind="plan")
    assert set(plans["kind"]) == {"plan"} and len(plans) == 36
    assert "time_to_goal" not in plans and "time_to_goal" in load(out)
    with pytest.raises(Exception, match="kind must be one of"):
        load(out, kind="robot")


def test_export_round_trips_through_parquet_and_csv(out, tmp_path):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    df = load(out)
    path = export(out, tmp_path / "runs.parquet")
    table = pq.read_table(path)
    assert not [f.name for f in table.schema if pa.types.is_null(f.type)]
    assert table.schema.field("collisions").type == pa.int64()
    assert table.schema.field("pose_x").type == pa.list_(pa.float64())
    back = pd.read_parquet(path)
    assert list(back.columns) == list(df.columns) and len(back) == len(df)
    pd.testing.assert_series_equal(back["length_m"], df["length_m"])
    assert main(["bench", "export", str(out), "-o", str(tmp_path / "runs.csv")]) == 0
    csv = pd.read_csv(tmp_path / "runs.csv")
    assert csv["cusps"].tolist() == pytest.approx(df["cusps"].astype(float).tolist(), nan_ok=True)
    # CSV poses: space-separated numbers numpy reads back exactly
    import numpy as np

    i = int(np.flatnonzero(df["pose_x"].notna())[0])
    assert np.array_equal(np.array(csv["pose_x"][i].split(), float), df["pose_x"][i])


def test_export_refuses_an_unknown_suffix_and_a_missing_output(out, tmp_path, capsys):
    assert main(["bench", "export", str(out), "-o", str(tmp_path / "runs.xlsx")]) == 2
    assert "parquet or .csv" in capsys.readouterr().err
    assert main(["bench", "export", str(out)]) == 2


def test_report_html_is_self_contained_and_sortable(out):
    page = (out / "report.html").read_text()
    md = (out / "report.md").read_text()
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    imgs = re.findall(r'<img [^>]*src="([^"]+)"', page)
    assert imgs and all(s.startswith("data:image/png;base64,") for s in imgs)
    assert len(imgs) == len(re.findall(r"!\[[^\]]*\]\(", md))
    tables = [x for x in md.splitlines() if re.fullmatch(r"\|(---\|)+", x.strip())]
    assert page.count("<thead>") >= len(tables) > 0 and "addEventListener('click'" in page
    assert "## Statistics" in md and re.search(r'<h2 id="statistics[^"]*">Statistics', page)


def test_stats_csv_lists_every_paired_test(out):
    lines = (out / "stats.csv").read_text().splitlines()
    assert lines[0].startswith("kind,footprint,setting,scope,metric,a,b,n")
    # 3 planners -> 3 pairs, 2 metrics, 2 footprints (rectangle pairs need 2 shared
    # successes), pooled and per corridor width (issue 39: per-width families)
    scopes = {line.split(",")[3] for line in lines[1:]}
    assert "all widths" in scopes and len(lines) - 1 >= 2
    width = len(lines[0].split(","))
    assert all(len(next(csv.reader([line]))) == width for line in lines[1:])
    assert json.loads(json.dumps(lines))  # plain text
