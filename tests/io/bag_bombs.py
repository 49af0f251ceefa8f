"""Hostile MCAP bags built byte by byte (issue 35): decompression bombs and
maps that ask for more than their file holds.

An MCAP file here is: magic, a Header record (profile ``ros2``), a Schema and
a Channel record for ``/map`` (``nav_msgs/msg/OccupancyGrid``), one Chunk
record holding one Message record, DataEnd, a Footer without summary, magic
(https://mcap.dev/spec). The message is the CDR of a real OccupancyGrid
whose ``data`` sequence is declared ``n`` bytes long and filled with zeros,
streamed through the compressor so nothing of its size is ever in memory.
Also used by ``benchmarks/fuzz_inputs.py``.
"""

from __future__ import annotations

import struct

import numpy as np

MAGIC = b"\x89MCAP0\r\n"
TOPIC = "/map"
MSGTYPE = "nav_msgs/msg/OccupancyGrid"


def _str(s: str) -> bytes:
    b = s.encode()
    return struct.pack("<I", len(b)) + b


def _record(op: int, body: bytes) -> bytes:
    return bytes([op]) + struct.pack("<Q", len(body)) + body


def map_cdr_prefix(width: int, height: int, *, quat=(0.0, 0.0, 0.0, 1.0),
                   resolution: float = 0.05) -> bytes:
    """The CDR of a /map message up to (not including) its data length."""
    from rosbags.typesys import Stores, get_typestore

    ts = get_typestore(Stores.ROS2_HUMBLE)
    T = ts.types
    t0 = T["builtin_interfaces/msg/Time"](sec=0, nanosec=0)
    pose = T["geometry_msgs/msg/Pose"](
        position=T["geometry_msgs/msg/Point"](x=0.0, y=0.0, z=0.0),
        orientation=T["geometry_msgs/msg/Quaternion"](x=quat[0], y=quat[1], z=quat[2],
                                                       w=quat[3]))
    info = T["nav_msgs/msg/MapMetaData"](map_load_time=t0, resolution=resolution,
                                         width=width, height=height, origin=pose)
    msg = T[MSGTYPE](header=T["std_msgs/msg/Header"](stamp=t0, frame_id="map"), info=info,
                     data=np.zeros(4, np.int8))
    cdr = bytes(ts.serialize_cdr(msg, MSGTYPE))
    assert cdr[-8:-4] == struct.pack("<I", 4)
    return cdr[:-8]


def _zeros(n: int, piece: int = 1 << 22):
    block = bytes(piece)
    while n > 0:
        yield block if n >= piece else bytes(n)
        n -= piece


def _compress(compression: str, parts) -> bytes:
    if compression == "zstd":
        import zstandard

        c = zstandard.ZstdCompressor(level=3).compressobj()
        return b"".join(c.compress(p) for p in parts) + c.flush()
    if compression == "lz4":
        import lz4.frame

        c = lz4.frame.LZ4FrameCompressor()
        return c.begin() + b"".join(c.compress(p) for p in parts) + c.flush()
    return b"".join(parts)


def bag_bytes(n: int, *, width: int | None = None, height: int = 1,
              compression: str = "zstd", declared: int | None = None, quat=(0.0, 0.0, 0.0, 1.0),
              resolution: float = 0.05) -> bytes:
    """An MCAP bag whose one /map message holds ``n`` zero cells.

    ``width`` x ``height`` is the map's declared size (default ``n`` x 1);
    ``declared`` the chunk's declared uncompressed size (default the true one:
    a liar says less).
    """
    width = n if width is None else width
    prefix = map_cdr_prefix(width, height, quat=quat, resolution=resolution)
    payload_len = len(prefix) + 4 + n
    msg_head = struct.pack("<HIQQ", 1, 0, 0, 0)                  # channel, seq, log, publish
    rec_head = bytes([0x05]) + struct.pack("<Q", len(msg_head) + payload_len) + msg_head
    uncompressed = len(rec_head) + payload_len
    parts = [rec_head + prefix + struct.pack("<I", n), *_zeros(n)]
    data = _compress(compression, parts)
    size = uncompressed if declared is None else declared
    chunk = (struct.pack("<QQQI", 0, 0, size, 0) + _str(compression if compression != "none"
                                                         else "")
             + struct.pack("<Q", len(data)) + data)
    out = [MAGIC, _record(0x01, _str("ros2") + _str("robomaze-test")),
           _record(0x03, struct.pack("<H", 1) + _str(MSGTYPE) + _str("") + _str("")),
           _record(0x04, struct.pack("<HH", 1, 1) + _str(TOPIC) + _str("cdr")
                   + struct.pack("<I", 0)),
           _record(0x06, chunk),
           _record(0x0F, struct.pack("<I", 0)),
           _record(0x02, struct.pack("<QQI", 0, 0, 0)), MAGIC]
    return b"".join(out)
