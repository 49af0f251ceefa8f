"""ROS 2 bags (MCAP) of a traffic run: every robot namespaced, obstacles as markers.

The multi-robot companion of :mod:`robomaze.io.rosbag2` (same messages,
same stamps: simulation seconds). Topics:

``/map`` (nav_msgs/OccupancyGrid)
    Once at time 0, transient local.
``/robot_N/scan`` (sensor_msgs/LaserScan)
    Robot ``N``'s readings each row (REP 117), frame ``robot_N/laser``.
``/robot_N/odom`` (nav_msgs/Odometry)
    Robot ``N``'s pose and velocity each row, frame ``robot_N/odom``, child
    ``robot_N/base_link`` (ideal odometry: the odom frame is the map frame).
``/tf`` (tf2_msgs/TFMessage)
    Each row, one tree per robot: ``map -> robot_N/odom -> robot_N/base_link
    -> robot_N/laser``.
``/obstacles`` (visualization_msgs/MarkerArray)
    Each row, one marker per moving obstacle in ``map`` (a cylinder for a
    disc, a line strip of the outline otherwise), id = obstacle index.

A path ending in ``.mcap`` becomes one MCAP file, any other path a bag folder.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import numpy as np

from ..errors import ParameterError
from .rosbag2 import _latched_qos, _Msgs, _rosbags

__all__ = ["write_traffic_bag", "traffic_topics"]


def traffic_topics(n_robots: int) -> dict[str, str]:
    """Topic -> message type of a bag of ``n_robots`` robots.

    >>> sorted(traffic_topics(1))
    ['/map', '/obstacles', '/robot_0/odom', '/robot_0/scan', '/tf']
    """
    t = {"/map": "nav_msgs/msg/OccupancyGrid", "/tf": "tf2_msgs/msg/TFMessage",
         "/obstacles": "visualization_msgs/msg/MarkerArray"}
    for i in range(n_robots):
        t[f"/robot_{i}/scan"] = "sensor_msgs/msg/LaserScan"
        t[f"/robot_{i}/odom"] = "nav_msgs/msg/Odometry"
    return t


def _marker(m: _Msgs, t: float, k: int, fp, pose):
    T = m.T
    col = T["std_msgs/msg/ColorRGBA"](r=0.85, g=0.37, b=0.0, a=0.9)
    vec = T["geometry_msgs/msg/Vector3"]
    pt = T["geometry_msgs/msg/Point"]
    Marker = T["visualization_msgs/msg/Marker"]
    dur = T["builtin_interfaces/msg/Duration"](sec=0, nanosec=0)
    common = dict(header=m.header(t, "map"), ns="obstacles", id=int(k), action=0,
                  pose=m.pose(*pose), color=col, lifetime=dur, frame_locked=False,
                  colors=[], texture_resource="",
                  texture=T["sensor_msgs/msg/CompressedImage"](header=m.header(t, "map"),
                                                               format="", data=np.zeros(0, np.uint8)),
                  uv_coordinates=[], text="", mesh_resource="",
                  mesh_file=T["visualization_msgs/msg/MeshFile"](filename="",
                                                                  data=np.zeros(0, np.uint8)),
                  mesh_use_embedded_materials=False)
    if fp.kind == "disc":
        d = 2.0 * fp.radius
        return Marker(type=3, scale=vec(x=d, y=d, z=0.5), points=[], **common)
    xy = np.asarray(fp.geometry.exterior.coords)
    return Marker(type=4, scale=vec(x=0.03, y=0.0, z=0.0),
                  points=[pt(x=float(x), y=float(y), z=0.0) for x, y in xy], **common)


def write_traffic_bag(path, result) -> Path:
    """Write a recorded :class:`robomaze.traffic.TrafficResult` (``record_scans=True``) as a bag."""
    from rosbags.rosbag2 import StoragePlugin, Writer

    if result.poses is None or result.scans is None:
        raise ParameterError("a traffic bag needs a run recorded with record=True and "
                             "record_scans=True")
    w = result.world
    ts = _rosbags()
    m = _Msgs(ts)
    T = m.T
    topics = traffic_topics(w.n_robots)
    dt = w.spec.dt
    nr = w.n_robots
    poses = result.poses

    def messages():
        yield "/map", 0.0, m.grid(w.grid)
        for k in range(len(poses)):
            t = k * dt
            tf = []
            for i in range(nr):
                x, y, th = poses[k, i]
                if k:
                    d = poses[k, i, :2] - poses[k - 1, i, :2]
                    v = float(np.hypot(*d)) / dt
                    om = float(np.angle(np.exp(1j * (poses[k, i, 2] - poses[k - 1, i, 2])))) / dt
                else:
                    v = om = 0.0
                ns = f"robot_{i}"
                s = w.sensors[i]
                yield f"/{ns}/scan", t, _scan(m, t, s, result.scans[k, i], f"{ns}/laser")
                od = m.odometry(t, f"{ns}/odom", (x, y, th), v, om)
                od.child_frame_id = f"{ns}/base_link"
                yield f"/{ns}/odom", t, od
                tf.append(m.transform(t, "map", f"{ns}/odom", 0.0, 0.0, 0.0))
                tf.append(m.transform(t, f"{ns}/odom", f"{ns}/base_link", x, y, th))
                mx, my, mth = s.mount
                tf.append(m.transform(t, f"{ns}/base_link", f"{ns}/laser", mx, my, mth))
            yield "/tf", t, T["tf2_msgs/msg/TFMessage"](transforms=tf)
            marks = [_marker(m, t, j, w.bodies.footprints[nr + j], poses[k, nr + j])
                     for j in range(w.n_obstacles)]
            yield "/obstacles", t, T["visualization_msgs/msg/MarkerArray"](markers=marks)

    out = Path(path)
    single = out.suffix.lower() == ".mcap"
    if out.exists():
        raise ParameterError(f"bag: {str(out)!r} exists; give a new path")
    tmp = Path(tempfile.mkdtemp(prefix=".bag-", dir=out.parent if out.parent.exists() else None))
    try:
        folder = tmp / (out.stem if single else out.name)
        conns = {}
        with Writer(folder, version=9, storage_plugin=StoragePlugin.MCAP) as wr:
            for topic, t, msg in messages():
                if topic not in conns:
                    conns[topic] = wr.add_connection(
                        topic, topics[topic], typestore=ts,
                        offered_qos_profiles=_latched_qos() if topic == "/map" else ())
                wr.write(conns[topic], int(round(t * 1e9)), ts.serialize_cdr(msg, topics[topic]))
        if single:
            (mcap,) = list(folder.glob("*.mcap"))
            os.replace(mcap, out)
        else:
            os.replace(folder, out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return out


def _scan(m: _Msgs, t: float, sensor, ranges, frame: str):
    return m.T["sensor_msgs/msg/LaserScan"](
        header=m.header(t, frame), angle_min=float(sensor.angle_min),
        angle_max=float(sensor.angle_max), angle_increment=float(sensor.angle_increment),
        time_increment=0.0, scan_time=0.0, range_min=float(sensor.range_min),
        range_max=float(sensor.range_max), ranges=np.asarray(ranges, np.float32),
        intensities=np.zeros(0, np.float32))
