"""Trajectories: what the simulator actually executed, with one file format.

Row semantics
-------------
A trajectory of ``n`` rows has ``n - 1`` steps. Row 0 is the state after
``reset`` (``t = 0``, zero command, no collision). Row ``i >= 1`` is the
state after step ``i``: ``commands[i]`` is the action the agent sent for
that step (before the kinematic limits; ``(v, omega)`` or ``(vx, vy,
omega)`` for holonomic robots), ``collisions[i]`` is True when that step
was refused because the footprint would have touched a wall (the pose then
equals the previous one), and ``scans[i]`` (optional) are the first
sensor's readings taken at ``poses[i]``.

File format (``.npz``)
----------------------
A NumPy ``.npz`` archive (written with ``numpy.savez_compressed``, read
with ``allow_pickle=False``) holding

* ``header`` -- a 0-d unicode array with a JSON object:
  ``{"format": "robomaze.trajectory", "version": 1, "n": <rows>,
  "meta": {...}}``; ``meta`` is free-form JSON (the simulator stores dt,
  kinematics, footprint, sensor, agent, seed, start and goal there);
* ``t`` float64 ``(n,)``, ``poses`` float64 ``(n, 3)`` (x, y, theta in
  metres/radians, world frame), ``commands`` float64 ``(n, k)``,
  ``collisions`` bool ``(n,)``;
* optionally ``scans`` float64 ``(n, m)``.

Anything else (wrong format name, newer version, missing array, mismatched
lengths) raises :class:`robomaze.errors.RecordFormatError` naming the file.

>>> import numpy as np, tempfile, os
>>> tr = Trajectory(np.array([0.0, 0.1]), np.array([[0, 0, 0], [0.05, 0, 0]]),
...                 np.array([[0, 0], [0.5, 0]]), np.array([False, False]), meta={"dt": 0.1})
>>> path = os.path.join(tempfile.mkdtemp(), "run.npz")
>>> tr.save(path)
>>> back = Trajectory.load(path)
>>> back.length, back.meta["dt"], len(back)
(0.05, 0.1, 2)
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Iterator

import numpy as np

from ..errors import MazeFormatError, ParameterError, RecordFormatError
from ..io import read_npz, write_npz

__all__ = ["Trajectory", "FORMAT", "VERSION"]

FORMAT = "robomaze.trajectory"
VERSION = 1


def _ro(a, dtype, ndim, name):
    a = np.array(a, dtype=dtype, copy=True)
    if a.ndim != ndim:
        raise ParameterError(f"trajectory {name} must be {ndim}-D, got shape {a.shape}")
    a.setflags(write=False)
    return a


@dataclass(frozen=True, eq=False)
class Trajectory:
    """Timed poses, commands, collision flags and (optionally) scans of one run."""

    t: np.ndarray
    poses: np.ndarray
    commands: np.ndarray
    collisions: np.ndarray
    scans: np.ndarray | None = None
    meta: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "t", _ro(self.t, float, 1, "t"))
        object.__setattr__(self, "poses", _ro(self.poses, float, 2, "poses"))
        object.__setattr__(self, "commands", _ro(self.commands, float, 2, "commands"))
        object.__setattr__(self, "collisions", _ro(self.collisions, bool, 1, "collisions"))
        if self.scans is not None:
            object.__setattr__(self, "scans", _ro(self.scans, float, 2, "scans"))
        n = len(self.t)
        if n < 1:
            raise ParameterError("a trajectory needs at least one row (the start state)")
        lens = {"poses": len(self.poses), "commands": len(self.commands),
                "collisions": len(self.collisions)}
        if self.scans is not None:
            lens["scans"] = len(self.scans)
        bad = {k: v for k, v in lens.items() if v != n}
        if bad or self.poses.shape[1] != 3:
            raise ParameterError(
                f"trajectory arrays must all have {n} rows and poses 3 columns, got {lens} "
                f"and poses shape {self.poses.shape}")
        object.__setattr__(self, "meta", dict(self.meta))

    def __len__(self) -> int:
        return len(self.t)

    @property
    def steps(self) -> int:
        """Number of steps (rows minus the start row)."""
        return len(self.t) - 1

    @property
    def points(self) -> np.ndarray:
        """``(n, 2)`` world positions."""
        return self.poses[:, :2]

    @property
    def length(self) -> float:
        """Executed path length in metres (sum of straight moves between rows)."""
        d = np.diff(self.poses[:, :2], axis=0)
        return float(np.hypot(d[:, 0], d[:, 1]).sum())

    def states(self) -> Iterator[tuple]:
        """Play the run back: ``(t, pose, command, collision, scan_or_None)`` per row."""
        for i in range(len(self.t)):
            yield (float(self.t[i]), self.poses[i], self.commands[i], bool(self.collisions[i]),
                   None if self.scans is None else self.scans[i])

    # ------------------------------------------------------------------ file format
    def save(self, path) -> None:
        """Write the ``.npz`` file described in the module docstring."""
        header = {"format": FORMAT, "version": VERSION, "n": len(self.t), "meta": self.meta}
        try:
            text = json.dumps(header, allow_nan=True)
        except TypeError as exc:
            raise ParameterError(f"trajectory meta must be JSON-serialisable: {exc}") from None
        arrays = {"header": np.array(text), "t": self.t, "poses": self.poses,
                  "commands": self.commands, "collisions": self.collisions}
        if self.scans is not None:
            arrays["scans"] = self.scans
        write_npz(path, arrays)

    @classmethod
    def load(cls, path) -> "Trajectory":
        """Read a file written by :meth:`save`."""
        where = os.fspath(path)
        try:
            data = read_npz(path)   # regular file, sizes checked before reading any array
        except MazeFormatError as exc:
            raise RecordFormatError(f"{exc} (expected a robomaze trajectory .npz file)") from None
        if "header" not in data:
            raise RecordFormatError(f"{where}: missing 'header' entry")
        try:
            header = json.loads(str(data["header"]))
        except json.JSONDecodeError as exc:
            raise RecordFormatError(f"{where}: header is not JSON: {exc.msg} at "
                                    f"column {exc.colno}") from None
        except RecursionError:
            raise RecordFormatError(f"{where}: header JSON is nested too deeply") from None
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise RecordFormatError(f"{where}: header format must be {FORMAT!r}")
        if not isinstance(header.get("version"), int) or header["version"] > VERSION:
            raise RecordFormatError(
                f"{where}: unsupported trajectory version {header.get('version')!r} "
                f"(this robomaze reads up to {VERSION})")
        for key in ("t", "poses", "commands", "collisions"):
            if key not in data:
                raise RecordFormatError(f"{where}: missing array {key!r}")
        try:
            tr = cls(data["t"], data["poses"], data["commands"], data["collisions"],
                     data.get("scans"), meta=header.get("meta") or {})
        except ParameterError as exc:
            raise RecordFormatError(f"{where}: {exc}") from None
        if len(tr) != header.get("n"):
            raise RecordFormatError(f"{where}: header says {header.get('n')} rows, arrays hold {len(tr)}")
        return tr
