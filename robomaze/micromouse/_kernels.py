"""Wall-knowledge states of the micromouse solvers (flat ``(n, 4)`` int8
arrays, sides N, E, S, W); their floods run in the core engine
(:func:`robomaze._search.flood_edges`)."""

from __future__ import annotations

UNKNOWN, OPEN, WALL = 0, 1, 2
