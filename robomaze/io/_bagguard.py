"""Reading a ROS 2 bag within the memory budget: no bomb, no FIFO.

A 77 KB MCAP file may hold a zstd or lz4 chunk that decompresses to
gigabytes, and ``rosbags`` decompresses every chunk (and a bag folder's
``compression_mode: file`` storage files, and ``message`` mode payloads)
without a limit. While :func:`decode_budget` is active:

* an MCAP chunk's *declared* uncompressed size (its record says it before
  the compressed bytes) is checked against the budget left **before** it is
  decompressed -- :data:`BYTES_PER_DECODED_BYTE` bytes of peak memory per
  decoded byte (the chunk, its record copies, the message, the map);
* no decompressor returns more than the declared size plus one byte (a
  chunk that lies about its size is an error, never a bomb);
* every decoded byte of the read (chunks, message payloads, file-mode
  storage files, which ``rosbags`` decompresses to a temporary folder) is
  counted, and the total is bounded by the budget.

The decompressors are ``rosbags``' own, wrapped (its module tables are
pointed at the wrappers once, on first use); outside :func:`decode_budget`
they behave as before except for the declared-size bound.

:func:`check_bag_files` refuses a bag path or folder holding anything but
regular files within the size limit (a FIFO, or a symbolic link to one,
would block ``rosbags``' ``open`` for ever; ``/dev/zero`` would never end).
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import stat
from pathlib import Path
from typing import Iterator

from .._readfile import stat_problem
from ._reading import fail
from ._limits import check_memory, format_bytes, memory_budget

__all__ = ["decode_budget", "check_bag_files", "BYTES_PER_DECODED_BYTE", "install"]

#: Peak bytes allocated per decoded byte of a chunk: the decoded chunk, the
#: copy of each record ``rosbags`` makes, the deserialized message's arrays
#: and the map built from them.
BYTES_PER_DECODED_BYTE = 5


class _Budget:
    def __init__(self, path, limit: int) -> None:
        self.path, self.limit, self.used = path, limit, 0

    def take(self, what: str, nbytes: int) -> None:
        """Refuse ``nbytes`` more decoded bytes past the budget, before decoding."""
        check_memory(f"{what} of {nbytes} bytes (after {format_bytes(self.used)} already "
                     "decoded)", (self.used + nbytes) * BYTES_PER_DECODED_BYTE, self.path)
        self.used += nbytes

    def left(self) -> int:
        return max(0, self.limit // BYTES_PER_DECODED_BYTE - self.used)


_ACTIVE: contextvars.ContextVar[_Budget | None] = contextvars.ContextVar(
    "robomaze_bag_decode_budget", default=None)


@contextlib.contextmanager
def decode_budget(path) -> Iterator[None]:
    """Within the block, everything ``rosbags`` decompresses counts against
    :func:`robomaze.io.memory_budget` (refused with a one-line
    :class:`~robomaze.errors.MazeFormatError` naming ``path``)."""
    install()
    token = _ACTIVE.set(_Budget(path, memory_budget()))
    try:
        yield
    finally:
        _ACTIVE.reset(token)


def _bounded(decompressor_factory, data, max_out: int) -> bytes:
    """Decompress concatenated frames of ``data``, stopping past ``max_out`` bytes."""
    out, total = [], 0
    view = bytes(data)
    while view:
        d = decompressor_factory()
        piece = d.decompress(view, max_length=max_out + 1 - total)
        out.append(piece)
        total += len(piece)
        if total > max_out:
            break                               # more than allowed: the caller refuses
        if not d.eof:
            if d.needs_input:
                raise ValueError("truncated compressed frame")
            break
        view = d.unused_data
    return b"".join(out)


def _chunk_decompressor(name: str, factory):
    """A ``rosbags`` MCAP decompressor ``(data, size) -> bytes`` bounded by
    the declared ``size`` and, in :func:`decode_budget`, by the budget."""
    def decompress(data, size):
        budget = _ACTIVE.get()
        if budget is not None:
            budget.take(f"a {name or 'stored'} MCAP chunk", int(size))
        if factory is None:
            return data
        return _bounded(factory, data, int(size))
    return decompress


class _BoundedZstd:
    """``rosbags.rosbag2.reader``'s ``zstd`` module, counting what it decodes
    (``message`` compression mode payloads and ``file`` mode storage files)."""

    def __init__(self, zstd) -> None:
        self._zstd = zstd

    def __getattr__(self, name):
        return getattr(self._zstd, name)

    def decompress(self, data, *args, **kwargs):
        budget = _ACTIVE.get()
        if budget is None:
            return self._zstd.decompress(data, *args, **kwargs)
        out = _bounded(self._zstd.ZstdDecompressor, data, budget.left())
        budget.take("a zstd-compressed message", len(out))
        return out

    def open(self, file, mode="rb", *args, **kwargs):
        f = self._zstd.open(file, mode, *args, **kwargs)
        budget = _ACTIVE.get()
        return f if budget is None or "r" not in mode else _CountingReader(f, budget)


class _CountingReader:
    """A decompressing file whose reads count against the budget."""

    def __init__(self, f, budget: _Budget) -> None:
        self._f, self._budget = f, budget

    def read(self, n=-1):
        left = self._budget.left()
        data = self._f.read(left + 1 if n is None or n < 0 else min(n, left + 1))
        self._budget.take("a zstd-compressed bag file", len(data))
        return data

    def readinto(self, b):
        data = self.read(len(b))
        b[:len(data)] = data
        return len(data)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._f.close()

    def close(self) -> None:
        self._f.close()


_INSTALLED = False


def install() -> None:
    """Point ``rosbags``' decompressors at the bounded ones (once)."""
    global _INSTALLED
    if _INSTALLED:
        return
    from lz4.frame import LZ4FrameDecompressor
    from rosbags.rosbag2 import reader, storage_mcap

    storage_mcap.DECOMPRESSORS.update({
        "": _chunk_decompressor("", None),
        "lz4": _chunk_decompressor("lz4", LZ4FrameDecompressor),
        "zstd": _chunk_decompressor("zstd", storage_mcap.zstd.ZstdDecompressor),
    })
    if not isinstance(reader.zstd, _BoundedZstd):
        reader.zstd = _BoundedZstd(reader.zstd)
    _INSTALLED = True


def check_bag_files(path) -> None:
    """Refuse a bag (an ``.mcap`` file or a bag folder) with anything but
    regular files within the size limit; a symbolic link is judged by its
    target (a link to a FIFO is a FIFO)."""
    p = Path(path)
    try:
        st = os.stat(p)
    except OSError as exc:
        raise fail(f"cannot read it: {exc.strerror}", p) from None
    if not stat.S_ISDIR(st.st_mode):
        problem = stat_problem(st)
        if problem is not None:
            raise fail(problem, p)
        return
    try:
        entries = sorted(os.scandir(p), key=lambda e: e.name)
    except OSError as exc:
        raise fail(f"cannot list the bag folder: {exc.strerror}", p) from None
    for entry in entries[:10_000]:
        try:
            est = os.stat(entry.path)
        except OSError as exc:           # a dangling link: rosbags would fail on it too
            if entry.name == "metadata.yaml" or entry.name.endswith((".mcap", ".db3")):
                raise fail(f"cannot read it: {exc.strerror}", entry.path) from None
            continue
        if stat.S_ISDIR(est.st_mode):
            continue                      # rosbags reads no sub-folder
        problem = stat_problem(est)
        if problem is not None:
            raise fail(f"in the bag folder: {problem}", entry.path)
    if len(entries) > 10_000:
        raise fail(f"a bag folder of {len(entries)} entries; expected a ROS 2 bag "
                   "(metadata.yaml and its storage files)", p)
