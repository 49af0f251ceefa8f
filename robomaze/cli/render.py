"""``robomaze render``: draw a saved maze or grid to PNG/SVG."""

from __future__ import annotations

import argparse
import sys

import numpy as np

from ..grid import OccupancyGrid, widen
from ..maze import Maze
from ._common import add_command, load, out_extension, parse_pixel_size, positive_int

EPILOG = """\
input: .json maze, .npy grid, .txt 0/1 matrix (or any format robomaze.io reads)
output: .png or .svg; with --bitmap a .png with one pixel per grid cell

examples:
  robomaze render maze.json -o maze.png --solution
  robomaze render maze.json -o grid.svg --corridor 3 --wall 1 --size 800x600
  robomaze render grid.npy -o grid.png --cell-px 4
  robomaze render maze.json -o matrix.png --bitmap
"""


def _plain_text(text: str) -> str:
    r"""A title drawn literally: matplotlib would parse ``$...$`` as math and
    fail at save time on a stray ``$`` or ``^``.

    >>> print(_plain_text("cost $x^$"))
    cost \$x^\$
    """
    return text.replace("$", r"\$")


def register(subparsers) -> None:
    p = add_command(subparsers, "render", help="draw a maze or grid file to PNG/SVG",
                    description="Draw a maze (as wall lines) or an occupancy grid (as an "
                                "image) with start and goal marked.",
                    epilog=EPILOG)
    p.add_argument("input", metavar="IN", help="maze or grid file")
    p.add_argument("-o", "--output", metavar="OUT", required=True, help=".png or .svg file")
    size = p.add_mutually_exclusive_group()
    size.add_argument("--cell-px", type=positive_int, default=None, metavar="N",
                      help="pixels per cell (default: fit the longer side to ~1000 px)")
    size.add_argument("--size", default=None, metavar="WxH",
                      help="image size in pixels, drawing fitted inside, e.g. 800x600")
    p.add_argument("--solution", action="store_true",
                   help="overlay the shortest route from start to goal (mazes only)")
    p.add_argument("--corridor", type=positive_int, default=None, metavar="K",
                   help="widen a maze input with this corridor width before drawing")
    p.add_argument("--wall", type=positive_int, default=None, metavar="T",
                   help="widen a maze input with this wall thickness before drawing")
    p.add_argument("--title", default=None, type=_plain_text,
                   help="title above the picture (plain text: $ is printed as is)")
    p.add_argument("--bitmap", action="store_true",
                   help="write a 1:1 PNG (one pixel per grid cell, black = occupied)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..viz import export_bitmap, render

    if args.bitmap:
        out_extension(args.output, (".png",), "-o/--output (with --bitmap)")
    else:
        out_extension(args.output, (".png", ".svg"))
    size = parse_pixel_size(args.size) if args.size is not None else None
    obj = load(args.input)
    widening = args.corridor is not None or args.wall is not None
    if isinstance(obj, Maze) and (widening or args.bitmap):
        obj = widen(obj, corridor=args.corridor or 1, wall=args.wall or 1)
    elif widening:
        print("robomaze render: note: --corridor/--wall ignored, the input is already a grid",
              file=sys.stderr)
    if args.bitmap:
        export_bitmap(obj, args.output)
        print(f"{args.input}: {obj.rows}x{obj.cols} grid -> {args.output} (1 pixel per cell)")
        return 0
    path = _solution(obj, args.input) if args.solution else None
    fig = render(obj, args.output, path=path, cell_px=args.cell_px, size=size,
                 title=args.title)
    w, h = (int(round(v)) for v in fig.get_size_inches() * fig.dpi)
    kind = "maze" if isinstance(obj, Maze) else "grid"
    print(f"{args.input}: {obj.rows}x{obj.cols} {kind} -> {args.output} ({w}x{h} px)")
    return 0


def _solution(obj, name):
    from ..errors import ParameterError

    maze = obj if isinstance(obj, Maze) else obj.maze
    if maze is None or (isinstance(obj, OccupancyGrid) and obj.widening is None):
        raise ParameterError(
            f"--solution needs a maze (start and goal), but {name!r} holds a bare grid")
    route = maze.solution()
    if route is None:
        print("robomaze render: note: the goal is unreachable from the start; "
              "no solution drawn", file=sys.stderr)
        return None
    if isinstance(obj, Maze):
        return np.array(route)
    return np.array([obj.maze_centre(c) for c in route])
