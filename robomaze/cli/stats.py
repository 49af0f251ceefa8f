"""``robomaze stats``: statistics of a maze file or of a freshly generated maze."""

from __future__ import annotations

import argparse
import json

from ..grid import OccupancyGrid
from ._args import add_command
from ._world import load
from ._world import add_world_args, world_spec

EPILOG = """\
examples:
  robomaze stats maze.json
  robomaze stats kruskal 100x100 --seed 3
  robomaze stats prim 50x50 --seed 1 --braid 0.5 --json
"""


def register(subparsers) -> None:
    p = add_command(subparsers, "stats", help="print maze statistics",
                    description="Print statistics (dead ends, junctions, loops, solution "
                                "length, ...) of a maze file (IN) or of a maze generated "
                                "on the spot (ALGO SIZE).",
                    epilog=EPILOG)
    add_world_args(p, source="source_size",
                   omit=("corridor", "wall", "resolution", "footprint", "sensor"))
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def grid_stats(grid: OccupancyGrid) -> dict:
    """The statistics shown for a bare occupancy grid."""
    n, _ = grid.free_components()
    occ = int(grid.occupied.sum())
    return {"rows": grid.rows, "cols": grid.cols, "cells": grid.occupied.size,
            "occupied": occ, "occupied_fraction": occ / grid.occupied.size,
            "free_components": n, "resolution": grid.resolution}


def collect(args: argparse.Namespace) -> dict:
    if args.size is not None:
        spec = world_spec(args)
        maze = spec.build_maze()
        return {"algorithm": args.source, "seed": spec.seed, "braid": args.braid,
                **maze.stats()}
    obj = load(args.source)
    if isinstance(obj, OccupancyGrid):
        if obj.maze is not None:
            return {"file": args.source, **obj.maze.stats()}
        return {"file": args.source, **grid_stats(obj)}
    return {"file": args.source, **obj.stats()}


def _fmt(value) -> str:
    if isinstance(value, float):
        return f"{value:.4f}".rstrip("0").rstrip(".") if value != int(value) else f"{value:g}"
    if value is None:
        return "none"
    return str(value)


def run(args: argparse.Namespace) -> int:
    stats = collect(args)
    if args.json:
        print(json.dumps(stats))
        return 0
    width = max(len(k) for k in stats)
    for key, value in stats.items():
        print(f"{key:<{width}}  {_fmt(value)}")
    return 0
