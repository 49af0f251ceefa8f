"""The mazes a page may name: a generator, a size, a seed and the world's options.

A page names its maze in its URL (``?gen=wilson&size=20x30&seed=5&braid=0.5
&placement=centre&corridor=3&wall=1``), so the link re-creates the maze in
any server, whatever options that server was started with. The one
description of the world behind it is :class:`robomaze.world.WorldSpec`:
:func:`world_spec` turns a page spec into one, :func:`build_page_world`
builds it.

A request never reaches the file system: the generator must be a
registered one (or the name the server was started with), never a path, so
no answer tells which files exist. Every value is checked before anything
is built, each with a one-line error naming the key.

Seeds live in ``0 .. SEED_LIMIT - 1``; "next maze" after the last seed
wraps to 0 (:func:`next_seed`), the one rule for every server.
"""

from __future__ import annotations

import math
from typing import Iterable

from .._validate import check_int
from ..errors import ParameterError
from ..world import WorldSpec

__all__ = ["PAGE_KEYS", "SEED_LIMIT", "MAX_SIDE", "MAX_WIDEN", "MAX_SQUARES", "check_page_spec",
           "world_spec", "build_page_world", "next_seed"]

#: Keys of a page spec (``corridor`` 0 or None: walk cell by cell, not widened).
PAGE_KEYS = ("gen", "size", "seed", "braid", "placement", "corridor", "wall")
#: Seeds are ``0 .. SEED_LIMIT - 1`` (a numpy SeedSequence takes any; a URL must stay short).
SEED_LIMIT = 2 ** 63
#: Largest maze side a page may ask for (cells).
MAX_SIDE = 200
#: Largest corridor or wall width (grid cells) a page may ask for.
MAX_WIDEN = 8
#: Largest side of the picture the page draws (squares), widening included.
MAX_SQUARES = 1001
_PLACEMENTS = ("corners", "sides", "centre", "contest", "delphi")


def _short(value) -> str:
    """A request value in an error message: never more than 40 characters of it."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def next_seed(seed: int) -> int:
    """The seed of "next maze": ``seed + 1``, wrapping to 0 after the last.

    >>> next_seed(5), next_seed(SEED_LIMIT - 1)
    (6, 0)
    """
    return (int(seed) + 1) % SEED_LIMIT


def check_page_spec(given: dict, current: dict | None, generators: Iterable[str]) -> dict:
    """The page spec ``given`` (keys :data:`PAGE_KEYS`, None = keep ``current``'s), checked.

    ``generators`` are the names a page may use: the registered generators and
    the one the server was started with. ``size`` is ``"RxC"`` or ``[r, c]``.

    >>> cur = {"gen": "kruskal", "size": [5, 5], "seed": 1, "braid": 0.0,
    ...        "placement": "corners", "corridor": None, "wall": None}
    >>> check_page_spec({"size": "6x7", "corridor": 2}, cur, ["kruskal"])["size"]
    [6, 7]
    >>> check_page_spec({"gen": "/etc/passwd"}, cur, ["kruskal"])
    Traceback (most recent call last):
    ...
    robomaze.errors.ParameterError: gen must be one of kruskal, got '/etc/passwd'
    """
    bad = sorted(set(given) - set(PAGE_KEYS))
    if bad:
        raise ParameterError(f"unknown maze keys {bad}; expected {', '.join(PAGE_KEYS)}")
    cur = dict(current or {})
    out = {k: (cur.get(k) if given.get(k) is None else given[k]) for k in PAGE_KEYS}
    names = sorted(set(generators))
    gen = out["gen"]
    # a name, never a path: nothing here may touch the file system
    if not isinstance(gen, str) or gen not in names:
        shown = ", ".join(names) if len(names) <= 30 else ", ".join(names[:30]) + ", ..."
        raise ParameterError(f"gen must be one of {shown}, got {_short(gen)}")
    size = out["size"]
    if isinstance(size, str):
        parts = size.lower().split("x")
        if len(size) > 12 or len(parts) != 2 or not all(p.isdigit() for p in parts):
            raise ParameterError(f"size must be ROWSxCOLS like 20x30, got {_short(size)}")
        size = [int(p) for p in parts]
    if not (isinstance(size, (list, tuple)) and len(size) == 2):
        raise ParameterError(f"size must be ROWSxCOLS like 20x30, got {_short(size)}")
    rows = check_int("rows", size[0], min_value=2, max_value=MAX_SIDE)
    cols = check_int("cols", size[1], min_value=2, max_value=MAX_SIDE)
    seed = out["seed"] if out["seed"] is not None else 0
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise ParameterError(f"seed must be an integer in 0..{SEED_LIMIT - 1}, got {_short(seed)}")
    braid = out["braid"] if out["braid"] is not None else 0.0
    if isinstance(braid, bool) or not isinstance(braid, (int, float)) or \
            not (math.isfinite(braid) and 0.0 <= braid <= 1.0):
        raise ParameterError(f"braid must be a number in [0, 1], got {_short(braid)}")
    placement = out["placement"] if out["placement"] is not None else "corners"
    if placement not in _PLACEMENTS:
        raise ParameterError(f"placement must be one of {', '.join(_PLACEMENTS)}, "
                             f"got {_short(placement)}")
    corridor, wall = out["corridor"], out["wall"]
    if corridor in (None, 0):
        corridor = wall = None
    else:
        corridor = check_int("corridor", corridor, min_value=0, max_value=MAX_WIDEN)
        wall = 1 if wall in (None, 0) else check_int("wall", wall, min_value=1,
                                                      max_value=MAX_WIDEN)
        side = max(rows, cols) * (corridor + wall) + wall
        if side > MAX_SQUARES:
            raise ParameterError(f"corridor {corridor} and wall {wall} make a {side}-square "
                                 f"side on a {rows}x{cols} maze; at most {MAX_SQUARES}")
    return {"gen": gen, "size": [rows, cols], "seed": int(seed), "braid": float(braid),
            "placement": placement, "corridor": corridor, "wall": wall}


def world_spec(page: dict) -> WorldSpec:
    """The :class:`WorldSpec` of a checked page spec (the one description of the world).

    >>> s = world_spec({"gen": "kruskal", "size": [4, 5], "seed": 2, "braid": 0.0,
    ...                 "placement": "corners", "corridor": 3, "wall": 1})
    >>> (s.generator, s.rows, s.cols, s.seed, s.corridor, s.wall)
    ('kruskal', 4, 5, 2, 3, 1)
    """
    return WorldSpec.from_dict({"generator": page["gen"], "rows": page["size"][0],
                                "cols": page["size"][1], "seed": page["seed"],
                                "braid": page["braid"], "placement": page["placement"],
                                "corridor": page["corridor"] or 1, "wall": page["wall"] or 1})


def build_page_world(page: dict):
    """``(world, source)``: the Maze (or widened grid) of a checked page spec and
    its generator reference for the record -- the maze of ``robomaze generate
    GEN RxC --seed S --braid B --placement P``."""
    spec = world_spec(page)
    try:
        maze = spec.build_maze()
    except TypeError as exc:
        raise ParameterError(f"generator {page['gen']!r} cannot build this maze: {exc}") from None
    source = {"generator": page["gen"], "size": list(page["size"]), "seed": page["seed"],
              "braid": page["braid"], "placement": page["placement"]}
    if page["corridor"]:
        source.update(corridor=page["corridor"], wall=page["wall"])
        return spec.build(maze).grid, source
    return maze, source
