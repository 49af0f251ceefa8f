"""``robomaze generate``: make a maze and save it (picture, maze file or grid file)."""

from __future__ import annotations

import argparse

import numpy as np

from .. import __version__
from ..grid import widen
from ..io import extensions, spec_for_extension
from ..io.maze_json import write_maze_json
from ._common import (PLACEMENTS, add_command, build_maze, fraction, nonneg_int, out_extension,
                      parse_options, parse_placement, parse_seed, parse_size, positive_float,
                      positive_int)

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
    p.add_argument("algorithm", metavar="ALGO", help="generator name, e.g. backtracker")
    p.add_argument("size", metavar="SIZE", help="ROWSxCOLS in maze cells, e.g. 20x30")
    p.add_argument("--seed", type=nonneg_int, default=None,
                   help="random seed (default: a fresh one, printed in the summary)")
    p.add_argument("--braid", type=fraction, default=0.0, metavar="F",
                   help="fraction of dead ends to remove, 0..1 (default 0: perfect maze)")
    p.add_argument("--placement", default="corners", metavar="|".join(PLACEMENTS),
                   help="where start and goal go (default corners)")
    p.add_argument("--corridor", type=positive_int, default=1, metavar="K",
                   help="free grid cells across a corridor when widening (default 1)")
    p.add_argument("--wall", type=positive_int, default=1, metavar="T",
                   help="grid cells across a wall when widening (default 1)")
    p.add_argument("--resolution", type=positive_float, default=1.0, metavar="R",
                   help="metres per grid cell, recorded in the .json provenance (default 1)")
    p.add_argument("--solution", action="store_true",
                   help="draw the shortest start-goal route on .png/.svg/.pdf output")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="generator-specific option, repeatable (e.g. selection=random "
                        "for growing_tree)")
    p.add_argument("-o", "--output", metavar="OUT", default=None,
                   help=f"output file: {' '.join(OUTPUTS)} (default: summary only)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rows, cols = parse_size(args.size, "SIZE")
    placement = parse_placement(args.placement)
    ext = out_extension(args.output, OUTPUTS) if args.output else None
    seed = parse_seed(args.seed)
    options = parse_options(args.option)
    maze = build_maze(args.algorithm, rows, cols, seed=seed, braid=args.braid,
                      placement=placement, **options)
    if ext is not None:
        _save(maze, args, ext, seed, placement, options)
    deg = maze.degrees()
    dead = int((deg == 1).sum())
    sol = maze.solution_length()
    print(f"{args.algorithm} {rows}x{cols} seed={seed} braid={args.braid:g} "
          f"placement={placement} dead_ends={dead} ({dead / deg.size:.1%}) "
          f"solution={'none' if sol is None else sol}"
          + (f" -> {args.output}" if args.output else ""))
    return 0


def _save(maze, args, ext: str, seed: int, placement: str, options: dict) -> None:
    if ext == ".json":
        provenance = {
            "algorithm": args.algorithm, "rows": maze.rows, "cols": maze.cols, "seed": seed,
            "braid": args.braid, "placement": placement, "options": options,
            "widening": {"corridor": args.corridor, "wall": args.wall,
                         "resolution": args.resolution},
            "robomaze": __version__,
        }
        write_maze_json(maze, args.output, provenance)
        return
    if ext in MAZE_OUTPUTS:
        spec_for_extension("maze", args.output).write(maze, args.output)
        return
    grid = widen(maze, corridor=args.corridor, wall=args.wall, resolution=args.resolution)
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
