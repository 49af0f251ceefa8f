"""Values a user typed on the command line that name world objects: footprints, points.

Parsed here once for every command (``plan``, ``simulate`` and the first-run
stage tasks of :mod:`robomaze.cli._stages`), so each spelling has one rule
and one error message.
"""

from __future__ import annotations

import math

from ..errors import ParameterError
from ..geometry import Footprint

__all__ = ["parse_footprint", "MAX_COORD"]


def parse_footprint(text: str | None) -> Footprint | None:
    """``disc:0.3``, ``rect:0.6x0.4[@rx,ry]`` or ``poly:x,y;x,y;...`` -> Footprint.

    >>> [round(v, 3) for v in parse_footprint("rect:0.6x0.4@0.1,0").geometry.bounds]
    [-0.4, -0.2, 0.2, 0.2]
    >>> parse_footprint("disc:0.3").radius
    0.3
    """
    if text is None or text.strip().lower() in ("", "none", "point"):
        return None
    try:
        return Footprint.from_spec(text)
    except ParameterError as exc:  # "footprint must be ..." -> "--footprint must be ..."
        msg = str(exc)
        raise ParameterError("--" + msg if msg.startswith("footprint")
                             else f"--footprint: {msg}") from None


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
