"""``robomaze traffic``, the traffic sweep kind (rows, report, rerun), pictures and bags."""

import json
import math

import numpy as np
import pytest

from robomaze.bench import traffic as T
from robomaze.cli import main
from robomaze.errors import ScenarioError
from robomaze.traffic import ObstacleSpec, RobotSpec, TrafficSpec, run_traffic
from robomaze.world import WorldSpec

SWEEP = """
kind = "traffic"
seed = [0, 1]
[maze]
generator = "kruskal"
rows = 1
cols = 3
[widen]
corridor = [9, 14]
resolution = 0.1
[robots]
count = [1, 2]
footprint = "disc:0.2"
beams = 16
[run]
max_steps = 400
stall_time = 5.0
"""


def test_cli_traffic_prints_metrics_and_one_line_errors(capsys, tmp_path):
    rc = main(["traffic", "kruskal", "1x3", "--corridor", "14", "--resolution", "0.1",
               "--robots", "2", "--footprint", "disc:0.2", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and out["outcome"] == "success" and out["arrived"] == 2
    assert len(out["robots_detail"]) == 2
    assert main(["traffic", "kruskal", "1x3", "--footprint", "blob:1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "blob:1" in err
    bad = tmp_path / "bad.toml"
    bad.write_text("robots = 3\n[world]\nseed = 1\n")
    assert main(["traffic", "--spec", str(bad)]) == 2
    assert "maze source" in capsys.readouterr().err


def test_traffic_sweep_rows_report_and_rerun(tmp_path, capsys):
    f = tmp_path / "t.toml"
    f.write_text(SWEEP)
    assert T.is_traffic_sweep(f)
    out = tmp_path / "res"
    assert main(["bench", str(f), "-o", str(out), "--workers", "1", "--quiet"]) == 0
    rows = T.read_rows(out)
    assert len(rows) == 8 and all(r["status"] == "ok" for r in rows)
    # 0.9 m corridors are narrower than two 0.4 m robots plus margins? no: 2.25 widths
    by = {(r["axes"]["robots.count"], r["axes"]["corridor"]): r for r in rows}
    assert by[(1, 14)]["outcome"] == "success"
    assert math.isinf(by[(1, 14)]["metrics"]["clearance_robot"])
    assert (out / T.FIGURE).is_file() and (out / "report.md").is_file()
    rep = (out / "report.md").read_text()
    assert "robot widths" in rep and T.FIGURE in rep
    table = T.corridor_table(rows)
    assert {t["robots"] for t in table} == {1, 2}
    assert all(0.0 <= t["success_lo"] <= t["success"] <= t["success_hi"] <= 1.0 for t in table)
    capsys.readouterr()
    rid = rows[3]["id"]
    assert main(["bench", "rerun", str(out), rid]) == 0
    assert "identical" in capsys.readouterr().out
    # a changed stored metric is found
    stored = T.find_row(out, rid)
    stored["metrics"]["steps"] += 1
    assert T.row_differences(stored, T.rerun_row(stored))


def test_traffic_sweep_errors_name_the_key():
    with pytest.raises(ScenarioError, match="robots.colour"):
        T.parse_traffic_sweep({"kind": "traffic", "maze": {"generator": "kruskal", "rows": 1,
                                                           "cols": 2},
                               "robots": {"colour": "red"}})
    with pytest.raises(ScenarioError, match="kinematics"):
        T.parse_traffic_sweep({"kind": "traffic", "maze": {"generator": "kruskal", "rows": 1,
                                                           "cols": 2},
                               "robots": {"kinematics": "tank"}})


def test_shipped_traffic_sweep_parses():
    rows = T.load_traffic_sweep("pkg:scenarios/traffic.toml")
    counts = {r["axes"]["robots.count"] for r in rows}
    assert counts == {1, 2, 4, 8} and len({r["id"] for r in rows}) == len(rows)


@pytest.fixture(scope="module")
def recorded():
    spec = TrafficSpec(world=WorldSpec(generator="kruskal", rows=2, cols=2, corridor=12,
                                       resolution=0.1, seed=1),
                       robots=RobotSpec(footprint="disc:0.15", beams=24), count=3,
                       assignment="random",
                       obstacles=[ObstacleSpec(shape="rect:0.4x0.2", behaviour="wander"),
                                  ObstacleSpec(shape="disc:0.2")], max_steps=40)
    return run_traffic(spec, record=True, record_scans=True)


def test_png_and_gif(recorded, tmp_path):
    from PIL import Image

    from robomaze.viz.traffic import animate_traffic, draw_traffic, frame_rgb

    draw_traffic(recorded, tmp_path / "r.png")
    im = Image.open(tmp_path / "r.png")
    assert im.size[0] > 300
    animate_traffic(recorded, tmp_path / "r.gif", every=5)
    gif = Image.open(tmp_path / "r.gif")
    assert gif.n_frames == len(range(0, 41, 5))
    img = frame_rgb(recorded.world)
    assert img.ndim == 3 and img.shape[2] == 3 and img.std() > 0


def test_bag_has_namespaced_robots_one_tf_tree_each_and_markers(recorded, tmp_path):
    pytest.importorskip("rosbags")

    from robomaze.io.rosbag2_traffic import write_traffic_bag

    p = write_traffic_bag(tmp_path / "t.mcap", recorded)
    from rosbags.highlevel import AnyReader

    with AnyReader([p]) as r:
        topics = {c.topic: c for c in r.connections}
        assert {"/robot_0/scan", "/robot_2/odom", "/tf", "/obstacles", "/map"} <= set(topics)
        counts = {t: 0 for t in topics}
        tfs = []
        markers = []
        for conn, _, raw in r.messages():
            counts[conn.topic] += 1
            if conn.topic == "/tf" and len(tfs) < 1:
                tfs.append(r.deserialize(raw, conn.msgtype))
            if conn.topic == "/obstacles" and len(markers) < 1:
                markers.append(r.deserialize(raw, conn.msgtype))
            if conn.topic == "/robot_1/scan":
                scan = r.deserialize(raw, conn.msgtype)
    rows = len(recorded.poses)
    assert counts["/robot_1/scan"] == rows and counts["/tf"] == rows and counts["/map"] == 1
    frames = {(t.header.frame_id, t.child_frame_id) for t in tfs[0].transforms}
    for i in range(3):
        assert ("map", f"robot_{i}/odom") in frames
        assert (f"robot_{i}/odom", f"robot_{i}/base_link") in frames
        assert (f"robot_{i}/base_link", f"robot_{i}/laser") in frames
    assert len(markers[0].markers) == 2 and {m.type for m in markers[0].markers} == {3, 4}
    last = recorded.scans[-1, 1].astype(np.float32)
    assert np.array_equal(np.asarray(scan.ranges), last)
