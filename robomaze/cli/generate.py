"""``robomaze generate``: make a maze and save it (picture, maze file or grid file)."""

from __future__ import annotations

import argparse

import numpy as np

from .. import __version__
from ..io import extensions, spec_for_extension
from ..io.maze_json import write_maze_json
from ._args import add_command, out_extension, parse_options
from ._world import add_world_args, world_spec

#: Pictures, then every maze format of the registry, then the grid formats
#: whose extension no picture or maze format already takes.
PICTURES = (".png", ".svg", ".pdf")
MAZE_OUTPUTS = extensions("maze", writable=True)
GRID_OUTPUTS = tuple(e for e in extensions("grid", writable=True)
                     if e not in PICTURES + MAZE_OUTPUTS)
OUTPUTS = PICTURES + MAZE_OUTPUTS + GRID_OUTPUTS

EPILOG = f"""\
output (by the extension of -o):
  pictures ({' '.join(PICTURES)}): the widened occupancy grid, start green, goal blue
  mazes ({' '.join(MAZE_OUTPUTS)}): the Maze itself -- .maze/.txt micromouse text,
    .num mms, .json robomaze JSON (walls, start, goals, openings and how it
    was generated); robomaze.io.read_maze and `robomaze mouse` read them back
  grids ({' '.join(GRID_OUTPUTS)}): the widened occupancy grid (--corridor,
    --wall, --resolution) -- .map MovingAI, .yaml ROS map_server (+ a .pgm
    image beside it), .pgm image, .npy 2-D bool array (True = occupied)

examples:
  robomaze generate backtracker 20x30 --seed 1 -o maze.png
  robomaze generate kruskal 50x50 --braid 0.5 --placement centre -o maze.json
  robomaze generate wilson 10x10 --corridor 3 --wall 1 -o grid.npy
  robomaze generate backtracker 16x16 --seed 4 -o maze.txt
"""


def register(subparsers) -> None:
    p = add_command(subparsers, "generate", help="generate a maze and save it",
                    description="Generate a maze with a named algorithm (see `robomaze list "
                                "generators`) and save it; prints a one-line summary.",
                    epilog=EPILOG)
    add_world_args(p, source="algo_size", omit=("footprint", "sensor"))
    p.add_argument("--solution", action="store_true",
                   help="draw the shortest start-goal route on .png/.svg/.pdf output")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="generator-specific option, repeatable (e.g. selection=random "
                        "for growing_tree)")
    p.add_argument("-o", "--output", metavar="OUT", default=None,
                   help=f"output file: {' '.join(OUTPUTS)} (default: summary only)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    options = parse_options(args.option)
    spec = world_spec(args, options=options)   # size, placement and seed checked here, once
    ext = out_extension(args.output, OUTPUTS) if args.output else None
    maze = spec.build_maze()
    rows, cols, seed, placement = spec.rows, spec.cols, spec.seed, spec.placement
    if ext is not None:
        _save(maze, args, ext, spec)
    deg = maze.degrees()
    dead = int((deg == 1).sum())
    sol = maze.solution_length()
    print(f"{args.algorithm} {rows}x{cols} seed={seed} braid={args.braid:g} "
          f"placement={placement} dead_ends={dead} ({dead / deg.size:.1%}) "
          f"solution={'none' if sol is None else sol}"
          + (f" -> {args.output}" if args.output else ""))
    return 0


def _save(maze, args, ext: str, spec) -> None:
    if ext == ".json":
        provenance = {
            "algorithm": spec.generator, "rows": maze.rows, "cols": maze.cols,
            "seed": spec.seed, "braid": spec.braid, "placement": spec.placement,
            "options": spec.options,
            "widening": {"corridor": spec.corridor, "wall": spec.wall,
                         "resolution": spec.resolution},
            "robomaze": __version__,
        }
        write_maze_json(maze, args.output, provenance)
        return
    if ext in MAZE_OUTPUTS:
        spec_for_extension("maze", args.output).write(maze, args.output)
        return
    grid = spec.build(maze).grid
    if ext in GRID_OUTPUTS:
        spec_for_extension("grid", args.output).write(grid, args.output)
        return
    from ..viz import render

    path = None
    if args.solution:
        route = maze.solution()
        if route is not None:
            path = np.array([grid.maze_centre(c) for c in route])
    render(grid, args.output, path=path)
