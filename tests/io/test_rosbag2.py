"""ROS 2 bags of a run, read back with rosbags and with the mcap package; maps
read from bags (a single .mcap and a bag folder) keep resolution and origin."""

import math
from collections import Counter

import numpy as np
import pytest

pytest.importorskip("rosbags")
mcap_reader = pytest.importorskip("mcap.reader")

from rosbags.rosbag2 import Reader  # noqa: E402
from rosbags.typesys import Stores, get_typestore  # noqa: E402

from robomaze import Maze, OccupancyGrid, widen  # noqa: E402
from robomaze.cli import main  # noqa: E402
from robomaze.errors import MazeFormatError  # noqa: E402
from robomaze.generate import generate  # noqa: E402
from robomaze.geometry import Footprint  # noqa: E402
from robomaze.io import read_grid, write_grid  # noqa: E402
from robomaze.io.rosbag2 import TOPICS, write_run_bag  # noqa: E402
from robomaze.sim import simulate  # noqa: E402

TS = get_typestore(Stores.ROS2_HUMBLE)
PER_ROW = ("/scan", "/odom", "/ground_truth", "/tf", "/footprint")


def read_all(path):
    out = {}
    with Reader(path) as r:
        for conn, stamp, raw in r.messages():
            out.setdefault(conn.topic, []).append((stamp, TS.deserialize_cdr(raw, conn.msgtype)))
        types = {c.topic: c.msgtype for c in r.connections}
    return out, types


def yaw(q):
    return math.atan2(2 * (q.w * q.z + q.x * q.y), 1 - 2 * (q.y * q.y + q.z * q.z))


@pytest.fixture(scope="module")
def cli_bag(tmp_path_factory):
    d = tmp_path_factory.mktemp("bag")
    rc = main(["simulate", "kruskal", "6x6", "--seed", "1", "--corridor", "5", "--footprint",
               "disc:0.15", "--agent", "explore", "--bag", str(d / "run.mcap"), "-o",
               str(d / "run.npz")])
    assert rc == 0
    from robomaze.sim import Trajectory

    return d / "run.mcap", Trajectory.load(d / "run.npz")


def test_cli_bag_has_the_seven_topics_one_message_per_row(cli_bag):
    path, traj = cli_bag
    msgs, types = read_all(path)
    assert types == TOPICS
    rows = traj.steps + 1
    assert {t: len(m) for t, m in msgs.items()} == {**{t: rows for t in PER_ROW},
                                                    "/map": 1, "/plan": 1}
    # the mcap package, independently: the same channels, counts and CDR encoding
    with open(path, "rb") as fh:
        summary = mcap_reader.make_reader(fh).get_summary()
    counts = {ch.topic: summary.statistics.channel_message_counts[cid]
              for cid, ch in summary.channels.items()}
    assert counts == {t: len(m) for t, m in msgs.items()}
    assert {ch.message_encoding for ch in summary.channels.values()} == {"cdr"}
    assert {summary.schemas[ch.schema_id].name for ch in summary.channels.values()} == set(TOPICS.values())
    qos = [ch.metadata["offered_qos_profiles"] for ch in summary.channels.values() if ch.topic == "/map"]
    assert "transient_local" in qos[0]


def test_bag_content_is_the_run_in_simulation_time(cli_bag):
    path, traj = cli_bag
    msgs, _ = read_all(path)
    gt = msgs["/ground_truth"]
    stamps = np.array([s for s, _ in gt]) / 1e9
    assert np.allclose(stamps, traj.t, atol=1e-9)
    xyz = np.array([[m.pose.pose.position.x, m.pose.pose.position.y, yaw(m.pose.pose.orientation)]
                    for _, m in gt])
    assert np.allclose(xyz[:, :2], traj.poses[:, :2], atol=1e-9)
    assert np.allclose(np.cos(xyz[:, 2] - traj.poses[:, 2]), 1.0)
    # map: the widened maze the run was in, its resolution and the bottom row first
    g = widen(generate("kruskal", 6, 6, rng=1), corridor=5, wall=1, resolution=0.1)
    m = msgs["/map"][0][1]
    assert (m.info.width, m.info.height) == (g.shape[1], g.shape[0])
    assert m.info.resolution == pytest.approx(0.1)
    assert np.array_equal(np.asarray(m.data).reshape(g.shape)[::-1] == 100, g.occupied)
    # scans: REP 117 ranges within limits or +inf, in the laser frame
    s = msgs["/scan"][5][1]
    r = np.asarray(s.ranges)
    assert s.header.frame_id == "laser"
    assert np.all((np.isinf(r) & (r > 0)) | ((r >= s.range_min) & (r <= s.range_max)))
    fp = msgs["/footprint"][0][1]
    radii = [math.hypot(p.x, p.y) for p in fp.polygon.points]
    assert min(radii) > 0.149 and max(radii) <= 0.1501


def test_noisy_odometry_goes_on_odom_and_tf_closes_to_the_truth(tmp_path):
    g = widen(Maze.empty(2, 2), corridor=5, wall=1, resolution=0.1)
    fp = Footprint.disc(0.1)
    seen = []
    res = simulate(g, footprint=fp, agent="follow_plan", rng=3, max_steps=300,
                   odometry_noise="gaussian:0.02+drift:0.01", observer=seen.append)
    assert len(seen) == len(res.trajectory)
    write_run_bag(tmp_path / "noisy", g, res.trajectory, footprint=fp,
                  scans=[o["scan"] for o in seen], odometry=np.array([o["odom"] for o in seen]),
                  plan_points=res.agent.path.points)
    assert (tmp_path / "noisy" / "metadata.yaml").is_file()     # a bag folder
    msgs, _ = read_all(tmp_path / "noisy")
    odo = np.array([[m.pose.pose.position.x, m.pose.pose.position.y] for _, m in msgs["/odom"]])
    believed = np.array([o["odom"][:2] for o in seen])
    assert np.allclose(odo, believed)
    assert np.abs(odo - res.trajectory.poses[:, :2]).max() > 1e-3      # noise shows
    # map -> odom composed with odom -> base_link is the true pose
    for (_, tf), true in zip(msgs["/tf"][::25], res.trajectory.poses[::25]):
        a, b = tf.transforms[0].transform, tf.transforms[1].transform
        ya, yb = yaw(a.rotation), yaw(b.rotation)
        x = a.translation.x + math.cos(ya) * b.translation.x - math.sin(ya) * b.translation.y
        y = a.translation.y + math.sin(ya) * b.translation.x + math.cos(ya) * b.translation.y
        assert (x, y) == pytest.approx((true[0], true[1]), abs=1e-9)
    plan = msgs["/plan"][0][1]
    assert len(plan.poses) == len(res.agent.path.points)


@pytest.mark.parametrize("name", ["map.mcap", "mapbag"])
def test_read_grid_reads_the_first_map_of_a_bag(tmp_path, name):
    occ = np.zeros((7, 9), bool)
    occ[2, 3:6] = True
    occ[0, 0] = True
    g = OccupancyGrid(occ, resolution=0.05, origin=(-1.25, 2.5, 0.3))
    if name.endswith(".mcap"):
        write_grid(g, tmp_path / name)
    else:
        from robomaze.io.rosbag2 import write_map_bag

        write_map_bag(g, tmp_path / name)
    h = read_grid(tmp_path / name)
    assert np.array_equal(h.occupied, occ)
    assert h.resolution == 0.05
    assert h.origin == pytest.approx((-1.25, 2.5, 0.3))


def test_a_bag_without_map_is_one_clear_error(cli_bag, tmp_path):
    from robomaze.io.rosbag2 import _write

    _write(tmp_path / "nomap.mcap", [("/plan", 0.0, TS.types["nav_msgs/msg/Path"](
        header=TS.types["std_msgs/msg/Header"](
            stamp=TS.types["builtin_interfaces/msg/Time"](sec=0, nanosec=0), frame_id="map"),
        poses=[]))])
    with pytest.raises(MazeFormatError, match=r"no /map topic.*/plan"):
        read_grid(tmp_path / "nomap.mcap")
    assert main(["simulate", "kruskal", "3x3", "--seed", "1", "--bag", str(tmp_path)]) == 2


def test_a_sweep_with_bags_writes_one_bag_per_agent_run(tmp_path):
    """`run.bags = true`: DIR/bags/ID.mcap for every agent row (listed in the
    manifest, named in the row), none for planners; the ids are those of the
    same sweep without bags (a bag decides no result)."""
    import json

    from robomaze.bench import load_sweep, read_rows, run_sweep

    text = ('seed = 1\n[maze]\ngenerator = "kruskal"\nrows = 3\ncols = 3\n'
            '[widen]\ncorridor = 5\nresolution = 0.1\n[robot]\nfootprint = "disc:0.1"\n'
            '[run]\nagent = ["wall_follow"]\nplanner = ["astar"]\nmax_steps = 300\n'
            'bags = {}\n')
    (tmp_path / "b.toml").write_text(text.format("true"))
    (tmp_path / "n.toml").write_text(text.format("false"))
    with_bags = load_sweep(tmp_path / "b.toml").scenarios
    assert {s.id for s in with_bags} == {s.id for s in load_sweep(tmp_path / "n.toml").scenarios}
    out = tmp_path / "out"
    run_sweep(with_bags, out, workers=1, progress=False)
    rows = {r["kind"]: r for r in read_rows(out)}
    assert "bag" not in rows["plan"]
    agent = rows["simulate"]
    assert agent["bag"] == f"bags/{agent['id']}.mcap"
    messages, types = read_all(out / agent["bag"])
    assert set(messages) == set(TOPICS)
    assert all(len(messages[t]) == agent["metrics"]["steps"] + 1 for t in PER_ROW)
    assert agent["bag"] in json.dumps(json.loads((out / ".robomaze-results.json").read_text()))
    assert not list((out / "bags").glob(".tmp-*"))
