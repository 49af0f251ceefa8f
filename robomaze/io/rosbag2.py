"""ROS 2 bags (MCAP storage) of a simulated run, and maps read back from bags.

Written and read with the pure-Python ``rosbags`` library (no ROS install;
``pip install 'robomaze[ros]'``). A bag of a run holds, stamped with the
simulation time (seconds from the start, as ROS ``builtin_interfaces/Time``):

``/map`` (nav_msgs/OccupancyGrid)
    One message at time 0, QoS transient local (a late subscriber still gets it).
``/scan`` (sensor_msgs/LaserScan)
    One per row: what the robot's sensor returned (REP 117: ``+inf`` for no
    return), frame ``laser``.
``/odom`` (nav_msgs/Odometry)
    One per row: the *believed* pose and velocity (dead-reckoned with
    odometry noise), frame ``odom``, child ``base_link``.
``/ground_truth`` (nav_msgs/Odometry)
    One per row: the true pose, frame ``map`` (equal to ``/odom`` without
    odometry noise).
``/tf`` (tf2_msgs/TFMessage)
    One per row: ``map -> odom`` (the correction from belief to truth),
    ``odom -> base_link`` (the belief) and ``base_link -> laser`` (the mount).
``/plan`` (nav_msgs/Path)
    One at time 0: the agent's plan if it has one (``follow_plan``), else the
    route it drove, frame ``map``.
``/footprint`` (geometry_msgs/PolygonStamped)
    One per row: the robot's outline in ``base_link``.

A *row* is one recorded state of the run (the start and one per step), so
every per-row topic has ``steps + 1`` messages. A path ending in ``.mcap``
becomes that single MCAP file (what Foxglove opens, and what ``ros2 bag
play`` accepts); any other path becomes a ROS 2 bag folder
(``metadata.yaml`` beside the ``.mcap``).

:func:`read_bag_grid` reads the first ``nav_msgs/OccupancyGrid`` on ``/map``
of a bag (a single ``.mcap`` file or a bag folder) with its resolution and
origin, as :func:`robomaze.io.read_grid` does for ``.mcap`` files and bag
folders -- maps recorded on real robots come in. Bags from elsewhere are
read within the memory budget (:mod:`robomaze.io._bagguard`: chunk sizes
checked before decompressing, total decoded bytes bounded; no FIFO or
device in a bag folder), the map's cell count is checked against the cell
limit and the budget before the grid is built, and the origin's quaternion
must be finite and of non-zero length.
"""

from __future__ import annotations

import math
import os
import shutil
import tempfile
from pathlib import Path

import numpy as np

from ..errors import MazeFormatError, OptionalDependencyError, ParameterError
from ..grid import OccupancyGrid
from ._limits import check_memory, check_size

__all__ = ["TOPICS", "MCAP_MAGIC", "write_run_bag", "write_map_bag", "read_bag_grid",
           "looks_like_mcap", "is_bag_folder"]

TOPICS = {"/map": "nav_msgs/msg/OccupancyGrid", "/scan": "sensor_msgs/msg/LaserScan",
          "/odom": "nav_msgs/msg/Odometry", "/ground_truth": "nav_msgs/msg/Odometry",
          "/tf": "tf2_msgs/msg/TFMessage", "/plan": "nav_msgs/msg/Path",
          "/footprint": "geometry_msgs/msg/PolygonStamped"}
MCAP_MAGIC = b"\x89MCAP0\r\n"


def _rosbags():
    try:
        from rosbags.rosbag2 import Writer  # noqa: F401
        from rosbags.typesys import Stores, get_typestore
    except ImportError:
        raise OptionalDependencyError("ROS 2 bags need the rosbags library: "
                                      "pip install 'robomaze[ros]'") from None
    return get_typestore(Stores.ROS2_HUMBLE)


def looks_like_mcap(head: bytes) -> bool:
    """Whether a file starts with the MCAP magic bytes."""
    return head.startswith(MCAP_MAGIC)


def is_bag_folder(path) -> bool:
    """A ROS 2 bag folder: a directory holding ``metadata.yaml``."""
    p = Path(path)
    return p.is_dir() and (p / "metadata.yaml").is_file()


# ---------------------------------------------------------------- messages
class _Msgs:
    def __init__(self, ts):
        self.ts = ts
        self.T = ts.types

    def stamp(self, t: float):
        ns = int(round(float(t) * 1e9))
        return self.T["builtin_interfaces/msg/Time"](sec=ns // 1_000_000_000,
                                                      nanosec=ns % 1_000_000_000)

    def header(self, t: float, frame: str):
        return self.T["std_msgs/msg/Header"](stamp=self.stamp(t), frame_id=frame)

    def quat(self, yaw: float):
        return self.T["geometry_msgs/msg/Quaternion"](x=0.0, y=0.0, z=math.sin(yaw / 2),
                                                       w=math.cos(yaw / 2))

    def pose(self, x: float, y: float, yaw: float):
        return self.T["geometry_msgs/msg/Pose"](
            position=self.T["geometry_msgs/msg/Point"](x=float(x), y=float(y), z=0.0),
            orientation=self.quat(float(yaw)))

    def transform(self, t, parent, child, x, y, yaw):
        T = self.T
        return T["geometry_msgs/msg/TransformStamped"](
            header=self.header(t, parent), child_frame_id=child,
            transform=T["geometry_msgs/msg/Transform"](
                translation=T["geometry_msgs/msg/Vector3"](x=float(x), y=float(y), z=0.0),
                rotation=self.quat(float(yaw))))

    def odometry(self, t, frame, pose, v=0.0, w=0.0):
        T = self.T
        vec = T["geometry_msgs/msg/Vector3"]
        return T["nav_msgs/msg/Odometry"](
            header=self.header(t, frame), child_frame_id="base_link",
            pose=T["geometry_msgs/msg/PoseWithCovariance"](pose=self.pose(*pose),
                                                             covariance=np.zeros(36)),
            twist=T["geometry_msgs/msg/TwistWithCovariance"](
                twist=T["geometry_msgs/msg/Twist"](linear=vec(x=float(v), y=0.0, z=0.0),
                                                   angular=vec(x=0.0, y=0.0, z=float(w))),
                covariance=np.zeros(36)))

    def grid(self, grid: OccupancyGrid):
        from .rosdata import to_ros_data

        T = self.T
        rows, cols = grid.shape
        ox, oy, yaw = (float(v) for v in grid.origin)
        info = T["nav_msgs/msg/MapMetaData"](
            map_load_time=self.stamp(0.0), resolution=float(grid.resolution), width=int(cols),
            height=int(rows), origin=self.pose(ox, oy, yaw))
        return T["nav_msgs/msg/OccupancyGrid"](header=self.header(0.0, "map"), info=info,
                                               data=np.asarray(to_ros_data(grid), np.int8))

    def path(self, t, points):
        T = self.T
        pts = np.asarray(points, float).reshape(-1, 2)
        seg = np.diff(pts, axis=0)
        yaw = np.r_[np.arctan2(seg[:, 1], seg[:, 0]), 0.0] if len(pts) > 1 else np.zeros(len(pts))
        if len(pts) > 1:
            yaw[-1] = yaw[-2]
        poses = [T["geometry_msgs/msg/PoseStamped"](header=self.header(t, "map"),
                                                    pose=self.pose(x, y, a))
                 for (x, y), a in zip(pts, yaw)]
        return T["nav_msgs/msg/Path"](header=self.header(t, "map"), poses=poses)

    def polygon(self, t, xy):
        T = self.T
        p32 = T["geometry_msgs/msg/Point32"]
        return T["geometry_msgs/msg/PolygonStamped"](
            header=self.header(t, "base_link"),
            polygon=T["geometry_msgs/msg/Polygon"](points=[p32(x=float(x), y=float(y), z=0.0)
                                                           for x, y in xy]))

    def scan(self, t, scan):
        return self.T["sensor_msgs/msg/LaserScan"](
            header=self.header(t, "laser"), angle_min=float(scan.angle_min),
            angle_max=float(scan.angle_max), angle_increment=float(scan.angle_increment),
            time_increment=float(scan.time_increment), scan_time=float(scan.scan_time),
            range_min=float(scan.range_min), range_max=float(scan.range_max),
            ranges=np.asarray(scan.ranges, np.float32),
            intensities=np.asarray(scan.intensities, np.float32))


def _latched_qos():
    from rosbags.rosbag2.metadata import (Qos, QosDurability, QosHistory, QosLiveliness,
                                          QosReliability, QosTime)

    zero = QosTime(sec=0, nsec=0)
    return [Qos(history=QosHistory.KEEP_LAST, depth=1, reliability=QosReliability.RELIABLE,
                durability=QosDurability.TRANSIENT_LOCAL, deadline=zero, lifespan=zero,
                liveliness=QosLiveliness.AUTOMATIC, liveliness_lease_duration=zero,
                avoid_ros_namespace_conventions=False)]


def _write(path: str | os.PathLike, messages) -> Path:
    """Write ``(topic, t, message)`` triples (topics in :data:`TOPICS`) as a bag."""
    from rosbags.rosbag2 import StoragePlugin, Writer

    ts = _rosbags()
    out = Path(path)
    single = out.suffix.lower() == ".mcap"
    if out.exists() and (out.is_dir() or not single):
        raise ParameterError(f"bag: {str(out)!r} exists; give a new path")
    tmp = Path(tempfile.mkdtemp(prefix=".bag-", dir=out.parent if out.parent.exists() else None))
    try:
        folder = tmp / (out.stem if single else out.name)
        conns = {}
        with Writer(folder, version=9, storage_plugin=StoragePlugin.MCAP) as w:
            for topic, t, msg in messages:
                if topic not in conns:
                    conns[topic] = w.add_connection(
                        topic, TOPICS[topic], typestore=ts,
                        offered_qos_profiles=_latched_qos() if topic == "/map" else ())
                w.write(conns[topic], int(round(t * 1e9)),
                        ts.serialize_cdr(msg, TOPICS[topic]))
        if single:
            (mcap,) = list(folder.glob("*.mcap"))
            os.replace(mcap, out)
        else:
            os.replace(folder, out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return out


def _compose(a, b):
    """Pose ``a`` followed by ``b`` (2-D rigid motions as (x, y, yaw))."""
    c, s = math.cos(a[2]), math.sin(a[2])
    return (a[0] + c * b[0] - s * b[1], a[1] + s * b[0] + c * b[1], a[2] + b[2])


def _inverse(a):
    c, s = math.cos(a[2]), math.sin(a[2])
    return (-(c * a[0] + s * a[1]), s * a[0] - c * a[1], -a[2])


def write_run_bag(path: str | os.PathLike, grid: OccupancyGrid, trajectory, *, footprint,
                  scans, odometry=None, plan_points=None, mount=(0.0, 0.0, 0.0)) -> Path:
    """Write a run as a ROS 2 bag (see the module docstring for the topics).

    Parameters
    ----------
    path : path-like
        ``*.mcap`` for one MCAP file, anything else for a bag folder; must not exist.
    grid : OccupancyGrid
    trajectory : robomaze.sim.Trajectory
        The true poses (``/ground_truth`` and the tf tree's ``map -> base_link``).
    footprint : robomaze.geometry.Footprint
    scans : sequence of robomaze.sense.LaserScan
        One per trajectory row (what the robot's sensor returned).
    odometry : array_like, shape (rows, 5), optional
        ``x, y, theta, v, omega`` believed at each row (``obs["odom"]``);
        default the true poses and the commands' velocities.
    plan_points : array_like, shape (n, 2), optional
        The agent's plan in world metres; default the driven route.
    mount : (x, y, theta)
        The sensor's pose on the robot (``base_link -> laser``).
    """
    ts = _rosbags()
    M = _Msgs(ts)
    t = np.asarray(trajectory.t, float)
    poses = np.asarray(trajectory.poses, float)
    n = len(t)
    if len(scans) != n:
        raise ParameterError(f"scans: expected one per trajectory row ({n}), got {len(scans)}")
    if odometry is None:
        cmd = np.asarray(trajectory.commands, float)
        odometry = np.column_stack([poses, cmd[:, 0], cmd[:, -1]])
    odo = np.asarray(odometry, float)
    if odo.shape != (n, 5):
        raise ParameterError(f"odometry: expected shape ({n}, 5), got {odo.shape}")
    outline = np.asarray(footprint.geometry.simplify(1e-3).exterior.coords)[:-1]
    route = poses[:, :2] if plan_points is None else np.asarray(plan_points, float)

    def messages():
        yield "/map", 0.0, M.grid(grid)
        yield "/plan", 0.0, M.path(0.0, route)
        for i in range(n):
            ti, true, belief = float(t[i]), tuple(poses[i]), tuple(odo[i, :3])
            correction = _compose(true, _inverse(belief))
            yield "/tf", ti, ts.types["tf2_msgs/msg/TFMessage"](transforms=[
                M.transform(ti, "map", "odom", *correction),
                M.transform(ti, "odom", "base_link", *belief),
                M.transform(ti, "base_link", "laser", *mount)])
            yield "/odom", ti, M.odometry(ti, "odom", belief, odo[i, 3], odo[i, 4])
            yield "/ground_truth", ti, M.odometry(ti, "map", true)
            yield "/scan", ti, M.scan(ti, scans[i])
            yield "/footprint", ti, M.polygon(ti, outline)

    return _write(path, messages())


def write_map_bag(grid: OccupancyGrid, path: str | os.PathLike) -> None:
    """A bag holding only ``/map`` (what :func:`robomaze.io.write_grid` writes for ``.mcap``)."""
    _rosbags()
    _write(path, [("/map", 0.0, _Msgs(_rosbags()).grid(grid))])


def read_bag_grid(path: str | os.PathLike, *, unknown: str = "occupied",
                  topic: str = "/map") -> OccupancyGrid:
    """The first ``nav_msgs/OccupancyGrid`` on ``topic`` of a bag (``.mcap`` or bag folder).

    >>> import tempfile, pathlib
    >>> g = OccupancyGrid(np.eye(3, dtype=bool), resolution=0.05, origin=(1.0, -2.0, 0.0))
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "map.mcap"
    >>> write_map_bag(g, p)
    >>> h = read_bag_grid(p)
    >>> h.occupied.astype(int).tolist(), h.resolution, h.origin
    ([[1, 0, 0], [0, 1, 0], [0, 0, 1]], 0.05, (1.0, -2.0, 0.0))
    """
    from rosbags.rosbag2 import Reader

    from ._bagguard import check_bag_files, decode_budget
    from .rosdata import from_ros_data

    ts = _rosbags()
    p = Path(path)
    check_bag_files(p)          # no FIFO, device or link to one: rosbags would block on it
    if p.is_dir():
        _check_metadata(p)
    try:
        with decode_budget(p), Reader(p) as r:
            conns = [c for c in r.connections if c.topic == topic]
            if not conns:
                names = sorted({c.topic for c in r.connections})
                shown = ", ".join(_short(n) for n in names[:20]) or "none"
                raise MazeFormatError(f"{p}: no {_short(topic)} topic in this bag (topics: "
                                      f"{shown}{', ...' if len(names) > 20 else ''})")
            if conns[0].msgtype != TOPICS["/map"]:
                raise MazeFormatError(f"{p}: {_short(topic)} holds {_short(conns[0].msgtype)}, "
                                      f"expected {TOPICS['/map']}")
            for conn, _, raw in r.messages(connections=conns):
                msg = ts.deserialize_cdr(raw, conn.msgtype)
                break
            else:
                raise MazeFormatError(f"{p}: {_short(topic)} has no message")
    except MazeFormatError:
        raise
    except RecursionError:
        raise MazeFormatError(f"{p}: not a readable ROS 2 bag (nested too deeply)") from None
    except Exception as exc:   # rosbags' own errors: a damaged or foreign file
        # (their YAML errors span lines: one line, like every robomaze error)
        why = _short(" ".join(f"{type(exc).__name__}: {exc}".split()), 300)
        raise MazeFormatError(f"{p}: not a readable ROS 2 bag ({why})") from None
    info = msg.info
    width, height = int(info.width), int(info.height)
    # the cell limit and the memory budget before the map is built (the int8
    # data, the flipped rows, the boolean grid and its copy)
    check_size(f"a {width}x{height} /map", width * height, p)
    check_memory(f"a {width}x{height} /map", width * height * _MAP_BYTES_PER_CELL, p)
    yaw = _yaw(p, info.origin.orientation)
    # the message's float32 resolution, as the decimal it was written from (0.1, not 0.10000000149)
    res = float(str(np.float32(info.resolution)))
    return from_ros_data(np.asarray(msg.data), width, height, resolution=res,
                         origin=(float(info.origin.position.x), float(info.origin.position.y), yaw),
                         unknown=unknown)


#: Peak bytes per cell of building a grid from a /map message.
_MAP_BYTES_PER_CELL = 4
#: Largest metadata.yaml of a bag folder read (a real one is a few KB).
MAX_METADATA_BYTES = 1 << 20


def _short(text: str, n: int = 80) -> str:
    """``text`` on one line, at most ``n`` characters (a bag's names are not ours)."""
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[:n - 3] + "..."


def _check_metadata(folder: Path) -> None:
    """The folder's metadata.yaml through the guarded reader (size, UTF-8)
    before rosbags parses it."""
    from .._readfile import read_guarded_text

    read_guarded_text(folder / "metadata.yaml", MazeFormatError,
                      expected="a ROS 2 bag's metadata.yaml", limit=MAX_METADATA_BYTES)


def _yaw(path, q) -> float:
    """The yaw of the map origin's quaternion, which must be finite and not zero."""
    xyzw = [float(q.x), float(q.y), float(q.z), float(q.w)]
    norm = math.sqrt(sum(v * v for v in xyzw)) if all(map(math.isfinite, xyzw)) else math.nan
    if not math.isfinite(norm) or norm < 1e-9:
        shown = ", ".join(f"{v:g}" for v in xyzw)
        raise MazeFormatError(f"{path}: /map origin orientation ({shown}) is not a rotation; "
                              "expected a finite quaternion (x, y, z, w) of non-zero length")
    x, y, z, w = (v / norm for v in xyzw)
    return math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z))
