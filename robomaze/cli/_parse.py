"""Values a user typed on the command line that name world objects: footprints, points.

Parsed here once for every command (``plan``, ``simulate`` and the first-run
stage tasks of :mod:`robomaze.cli._stages`), so each spelling has one rule
and one error message; a footprint through :func:`robomaze.world.parse_footprint`.
"""

from __future__ import annotations

import functools
import math

from ..errors import ParameterError
from ..world import parse_footprint as _world_footprint

__all__ = ["parse_footprint", "MAX_COORD"]


#: ``--footprint``'s reading: :func:`robomaze.world.parse_footprint`, the one place a
#: footprint string is read, its errors naming the flag.
parse_footprint = functools.partial(_world_footprint, name="--footprint")


#: Largest world coordinate accepted on the command line (m).
MAX_COORD = 1e9


def _parse_point(text: str | None, name: str):
    if text is None:
        return None
    parts = [p.strip() for p in text.split(",")]
    try:
        if len(parts) == 2 and all(p.lstrip("-").isdigit() for p in parts):
            return int(parts[0]), int(parts[1])
        xy = (float(parts[0]), float(parts[1])) if len(parts) == 2 else None
    except ValueError:
        xy = None
    if xy is not None:
        if not all(math.isfinite(v) and abs(v) <= MAX_COORD for v in xy):
            raise ParameterError(f"{name} must be finite coordinates within +-{MAX_COORD:g} m, "
                                 f"got {text!r}")
        return xy
    raise ParameterError(f"{name} must be ROW,COL (integers) or X,Y (metres), got {text!r}")
