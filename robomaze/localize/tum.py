"""TUM trajectory files: ``timestamp tx ty tz qx qy qz qw`` per line.

The format of the TUM RGB-D benchmark, read by ``evo`` (``evo_ape tum
truth.tum estimate.tum``). Planar poses get ``tz = 0`` and the quaternion
of a rotation by ``theta`` about ``z``: ``(0, 0, sin(theta/2), cos(theta/2))``.
Numbers are written with 17 significant digits so a reader gets the same
float64 values back.

>>> import io, numpy as np
>>> buf = io.StringIO()
>>> write_tum(buf, [0.0, 0.5], np.array([[1.0, 2.0, 0.0], [1.5, 2.0, np.pi / 2]]))
>>> print(buf.getvalue().splitlines()[1])
0.5 1.5 2 0 0 0 0.70710678118654746 0.70710678118654757
"""

from __future__ import annotations

import numpy as np

from ..errors import ParameterError

__all__ = ["write_tum", "read_tum"]


def _tum_number(v: float) -> str:
    text = f"{float(v):.17g}"
    return text


def write_tum(out, t, poses) -> None:
    """Write timestamps ``t`` ``(n,)`` and planar ``poses`` ``(n, 3)`` to a path or text stream."""
    t = np.asarray(t, float).reshape(-1)
    p = np.asarray(poses, float)
    if p.ndim != 2 or p.shape[1] != 3 or len(p) != len(t):
        raise ParameterError(f"poses must be (n, 3) with n = len(t) = {len(t)}, got {p.shape}")
    lines = [" ".join(_tum_number(v) for v in (ti, x, y, 0.0, 0.0, 0.0, np.sin(th / 2), np.cos(th / 2)))
             for ti, (x, y, th) in zip(t, p)]
    text = "\n".join(lines) + "\n"
    if hasattr(out, "write"):
        out.write(text)
    else:
        with open(out, "w", encoding="utf-8") as fh:
            fh.write(text)


def read_tum(path) -> tuple[np.ndarray, np.ndarray]:
    """``(t, poses)`` of a planar TUM file (the yaw from the quaternion)."""
    rows = []
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.split()
            try:
                vals = [float(v) for v in parts]
            except ValueError:
                vals = []
            if len(vals) != 8:
                raise ParameterError(f"{path}:{lineno}: expected 8 numbers "
                                     f"(timestamp tx ty tz qx qy qz qw), got {line.strip()!r}")
            rows.append(vals)
    a = np.array(rows, float).reshape(-1, 8)
    yaw = 2.0 * np.arctan2(a[:, 6], a[:, 7])
    yaw = (yaw + np.pi) % (2 * np.pi) - np.pi
    return a[:, 0], np.column_stack([a[:, 1], a[:, 2], yaw])
