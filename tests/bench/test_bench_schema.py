"""The results schema: docs/results.md is generated from the table in code, every
column load() returns is in it, Parquet carries its types (no null column, integer
counts, poses readable by pyarrow + numpy alone), and no output holds a machine path."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")

from robomaze.bench import export, load, load_sweep, read_rows, run_sweep, write_report  # noqa: E402
from robomaze.bench.schema import (COLUMN_BY_NAME, COLUMNS, PATTERNS, RENAMED,  # noqa: E402
                                   results_markdown)
from robomaze.bench.store import row_poses  # noqa: E402
from robomaze.cli import main  # noqa: E402
from robomaze.data import SAMPLES_DIR  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]

# every run kind: planners (one of them OMPL), an agent with and without a
# localizer, and a mouse, on one small contest maze
SWEEP = """
name = "kinds"
seed = 1
[maze]
file = ["tiny.txt"]
[widen]
corridor = 3
resolution = 0.1
[robot]
footprint = "disc:0.05"
localize = ["none", "mcl"]
odometry_noise = ["none", "gaussian:0.02+drift:0.01"]
[run]
planner = ["astar", "ompl:rrt_connect"]
agent = ["follow_plan"]
mouse = ["floodfill"]
max_steps = 400
time_limit = 120.0
[run.options."ompl:rrt_connect"]
max_checks = 20000
"""


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    d = tmp_path_factory.mktemp("kinds")
    (d / "tiny.txt").write_bytes((SAMPLES_DIR / "micromouse" / "tiny-4x4.txt").read_bytes())
    (d / "kinds.toml").write_text(SWEEP)
    run_sweep(load_sweep(d / "kinds.toml").scenarios, d / "out", workers=1, progress=False)
    return d / "out"


def _documented(name: str) -> bool:
    return name in COLUMN_BY_NAME or any(name.startswith(p.name[:-1]) for p in PATTERNS)


def test_the_sweep_shared_its_references_through_the_listed_cache(out):
    from robomaze.bench.files import Manifest
    from robomaze.bench.refcache import cache_files

    cached = cache_files(out)
    assert any(c.endswith(".npz") for c in cached)        # the disc's visibility graph
    assert set(cached) <= Manifest.load(out).files         # robomaze's files, listed


def test_results_md_is_the_generated_text():
    assert (ROOT / "docs" / "results.md").read_text(encoding="utf-8") == results_markdown()


def test_every_column_load_returns_is_documented(out):
    rows = read_rows(out)
    assert {r["kind"] for r in rows} == {"plan", "simulate", "mouse"}
    assert any(r.get("localize") for r in rows)
    df = load(out, keep_empty=True)
    undocumented = [c for c in df.columns if not _documented(c)]
    assert undocumented == []
    text = results_markdown()
    for c in COLUMNS:
        assert f"| `{c.name}` |" in text
    # every metric and timing a stored row holds reaches a named column
    for r in rows:
        for name in (r.get("metrics") or {}):
            assert f"metrics.{name}" in RENAMED or name == "success" or f"extra_{name}" in df


def test_columns_are_filled_by_the_kinds_the_schema_names(out):
    df = load(out)
    for c in COLUMNS:
        if c.name not in df:
            continue
        filled = set(df.loc[df[c.name].notna(), "kind"])
        assert filled <= set(c.kinds), (c.name, filled, c.kinds)
    # a kind alone: only the columns that kind fills
    mice = load(out, kind="mouse")
    assert set(mice["kind"]) == {"mouse"} and "min_clearance" not in mice
    assert "cells_explored" in mice and "cells_explored" not in load(out, kind="plan")


def test_counts_are_integers_and_poses_match_the_stored_rows(out):
    df = load(out)
    for c in COLUMNS:
        if c.type == "int" and c.name in df:
            assert str(df[c.name].dtype) == "Int64", c.name
    rows = {r["id"]: r for r in read_rows(out)}
    moved = df[df["pose_x"].notna()]
    assert len(moved) > 0
    for _, rec in moved.iterrows():
        p = row_poses(rows[rec["id"]])
        assert np.array_equal(np.column_stack([rec.pose_x, rec.pose_y, rec.pose_heading]), p)


def test_parquet_declares_every_type_and_reads_without_robomaze(out, tmp_path):
    import pyarrow.parquet as pq

    path = export(out, tmp_path / "runs.parquet")
    schema = pq.read_schema(path)
    assert [f.name for f in schema if pa.types.is_null(f.type)] == []
    for c in COLUMNS:
        if c.name in schema.names and c.type == "int":
            assert schema.field(c.name).type == pa.int64(), c.name
    # a researcher's script: pyarrow and numpy, robomaze not importable
    script = f"""
import sys
sys.modules["robomaze"] = None
import numpy as np, pyarrow.parquet as pq
t = pq.read_table({str(path)!r})
xs = t.column("pose_x").to_pylist(); ys = t.column("pose_y").to_pylist()
ids = t.column("id").to_pylist(); kinds = t.column("kind").to_pylist()
out = {{}}
for i, x, y, k in zip(ids, xs, ys, kinds):
    if x is not None:
        x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
        out[i] = float(np.hypot(np.diff(x), np.diff(y)).sum())
print(__import__("json").dumps(out))
"""
    env = dict(os.environ, PYTHONPATH="")
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env=env, cwd=tmp_path, timeout=120)
    assert res.returncode == 0, res.stderr
    lengths = json.loads(res.stdout)
    rows = {r["id"]: r for r in read_rows(out)}
    assert lengths
    for rid, length in lengths.items():
        p = row_poses(rows[rid])   # the independent decoder: zlib'd float64
        assert length == pytest.approx(float(np.hypot(*np.diff(p[:, :2], axis=0).T).sum()))
    # planned paths: the polyline through the key poses is the path's length
    plans = [r for r in rows.values() if r["kind"] == "plan" and r["success"]
             and r["method"] == "astar"]
    assert plans and all(lengths[r["id"]] == pytest.approx(r["metrics"]["length_m"], rel=1e-9)
                         for r in plans)


def test_no_output_holds_a_machine_path(out, tmp_path):
    sweep_dir = str(out.parent)
    d = tmp_path / "rep"
    import shutil

    shutil.copytree(out, d)
    write_report(d, examples=False)
    export(d, tmp_path / "runs.csv")
    export(d, tmp_path / "runs.parquet")
    texts = {p.name: p.read_bytes() for p in d.rglob("*") if p.is_file()
             and p.suffix in (".md", ".html", ".csv", ".json", ".log")}
    texts["runs.csv"] = (tmp_path / "runs.csv").read_bytes()
    texts["runs.parquet"] = (tmp_path / "runs.parquet").read_bytes()
    for name, data in texts.items():
        for path in {sweep_dir, str(tmp_path), sys.prefix, str(SAMPLES_DIR)}:
            assert path.encode() not in data, (name, path)


def test_report_html_has_contents_and_links_its_data_files(out, tmp_path):
    import shutil

    d = tmp_path / "rep"
    shutil.copytree(out, d)
    write_report(d, examples=False)
    page = (d / "report.html").read_text()
    nav = page[page.index('<nav class="toc"'):page.index("</nav>")]
    anchors = re.findall(r'href="#([^"]+)"', nav)
    assert len(anchors) >= 3 and all(f'id="{a}"' in page for a in anchors)
    for name in ("summary.csv", "stats.csv", "results.jsonl", "report.md"):
        assert f'href="{name}"' in nav and (d / name).is_file()
    assert page.count('<div class="tablewrap">') == page.count("<table>")


def test_old_column_names_map_to_the_new_ones():
    assert RENAMED["wall"] == "wall_cells" and RENAMED["corridor"] == "corridor_cells"
    assert RENAMED["metrics.length_ratio"] == "length_ratio"
    assert RENAMED["timings.compute_s"] == "method_cpu_s"
    assert set(RENAMED.values()) <= set(COLUMN_BY_NAME)


def test_simulate_json_prints_the_seed_it_ran(capsys):
    args = ["simulate", "kruskal", "3x3", "--corridor", "3", "--footprint", "disc:0.1",
            "--agent", "follow_plan", "--json"]
    main(args + ["--seed", "5"])
    assert json.loads(capsys.readouterr().out)["seed"] == 5
    main(args)
    cap = capsys.readouterr()
    seed = json.loads(cap.out)["seed"]
    assert isinstance(seed, int) and f"seed {seed}" in cap.err
    main(args + ["--seed", str(seed)])   # the printed seed re-creates the run
    again = json.loads(capsys.readouterr().out)
    assert again["seed"] == seed
