"""``robomaze render``: draw a saved maze or grid to PNG/SVG/PDF, or animate a MAPF plan on it."""

from __future__ import annotations

import argparse
import sys

import numpy as np

from ..grid import OccupancyGrid
from ..maze import Maze
from ..world import load_file
from ._args import add_command, out_extension, parse_pixel_size, positive_int
from ._world import add_world_args, build_world, widened

EPILOG = """\
input: .json maze, .npy grid, .txt 0/1 matrix (or any format robomaze.io reads)
output: .png, .svg or .pdf; with --bitmap a .png with one pixel per grid cell;
with --mapf-plan a .gif

--mapf-plan animates a multi-agent plan file (robomaze mapf -o, or any plan
in the mapf-visualizer / LaCAM layout) on the map: one colour per agent, its
goal outlined in the same colour (the GIF writer of robomaze mapf --gif).
Agents are bodies of --mapf-size cells (default: the plan's size= header, else
1). A plan that breaks the MAPF rules is still drawn, with a note naming the
first problem.

--graph draws the maze's cell graph over it (cells as nodes, junctions and
dead ends larger, passages as edges). Grids with a resolution or origin of
their own (e.g. a ROS map) are drawn with axes in metres in the map frame
(x red, y green at the world origin); --metres/--cells force either.

examples:
  robomaze render maze.json -o maze.png --solution
  robomaze render maze.json -o grid.svg --corridor 3 --wall 1 --size 800x600
  robomaze render grid.npy -o grid.png --cell-px 4
  robomaze render maze.json -o matrix.png --bitmap
  robomaze render maze.json -o graph.pdf --graph --start-color red
  robomaze render room.yaml -o room.png --metres
  robomaze render room.yaml -o room-ros1.png --ros-rules ros1
  robomaze render maze.map --mapf-plan plan.txt -o plan.gif --fps 6
"""


def _plain_text(text: str) -> str:
    r"""A title drawn literally: matplotlib would parse ``$...$`` as math and
    fail at save time on a stray ``$`` or ``^``.

    >>> print(_plain_text("cost $x^$"))
    cost \$x^\$
    """
    return text.replace("$", r"\$")


def register(subparsers) -> None:
    p = add_command(subparsers, "render", help="draw a maze or grid file to PNG/SVG/PDF",
                    description="Draw a maze (as wall lines) or an occupancy grid (as an "
                                "image) with start and goal marked.",
                    epilog=EPILOG)
    add_world_args(p, source="file", corridor=None, wall=None,
                   omit=("seed", "braid", "placement", "resolution", "footprint", "sensor"))
    p.add_argument("-o", "--output", metavar="OUT", required=True, help=".png, .svg or .pdf file (.gif with --mapf-plan)")
    size = p.add_mutually_exclusive_group()
    size.add_argument("--cell-px", type=positive_int, default=None, metavar="N",
                      help="pixels per cell (default: fit the longer side to ~1000 px)")
    size.add_argument("--size", default=None, metavar="WxH",
                      help="image size in pixels, drawing fitted inside, e.g. 800x600")
    p.add_argument("--solution", action="store_true",
                   help="overlay the shortest route from start to goal (mazes only)")
    p.add_argument("--title", default=None, type=_plain_text,
                   help="title above the picture (plain text: $ is printed as is)")
    p.add_argument("--bitmap", action="store_true",
                   help="write a 1:1 PNG (one pixel per grid cell, black = occupied)")
    p.add_argument("--graph", action="store_true",
                   help="draw the cell graph over the maze (cells as nodes, passages as edges)")
    p.add_argument("--start-color", type=color_arg, default=None, metavar="COLOUR",
                   help="colour of the start marker (default green; the paper uses red)")
    p.add_argument("--ros-rules", choices=("nav2", "ros1"), default=None,
                   help="read a ROS map YAML by Nav2's map_io pixel rules (the default) or "
                        "ROS 1 map_server's")
    p.add_argument("--mapf-plan", default=None, metavar="PLAN",
                   help="animate this multi-agent plan file on the map (GIF, one colour per "
                        "agent)")
    p.add_argument("--mapf-size", type=positive_int, default=None, metavar="K",
                   help="agent body side in cells for --mapf-plan (default: the plan's "
                        "size= header, else 1)")
    p.add_argument("--fps", type=positive_int, default=8,
                   help="frames per second of the --mapf-plan GIF (default 8)")
    units = p.add_mutually_exclusive_group()
    units.add_argument("--metres", dest="metres", action="store_true", default=None,
                       help="axes in metres in the ROS map frame (grids; the default for "
                            "grids with their own resolution or origin)")
    units.add_argument("--cells", dest="metres", action="store_false",
                       help="no axes, cells only (the default for mazes)")
    p.set_defaults(func=run)


def color_arg(text: str) -> str:
    """An argparse ``type`` for a matplotlib colour (name or #rrggbb)."""
    from ..viz.draw import is_colour

    if not is_colour(text):
        raise argparse.ArgumentTypeError(f"must be a colour name or #rrggbb, got {text!r}")
    return text


def wants_metres(obj, choice: bool | None) -> bool:
    """``--metres``/``--cells``, or by default metres for a grid with a
    resolution or origin of its own (not the 1 m per cell at 0 of a bare grid).

    >>> import numpy as np
    >>> wants_metres(OccupancyGrid(np.zeros((2, 2), bool), resolution=0.05), None)
    True
    >>> wants_metres(OccupancyGrid(np.zeros((2, 2), bool)), None)
    False
    """
    if choice is not None:
        if choice and not isinstance(obj, OccupancyGrid):
            from ..errors import ParameterError

            raise ParameterError("--metres needs a grid (a maze has no resolution); "
                                 "add --corridor/--wall to widen it")
        return choice
    return isinstance(obj, OccupancyGrid) and (obj.resolution != 1.0
                                               or any(obj.origin))


def run(args: argparse.Namespace) -> int:
    from ..viz import export_bitmap, render

    if args.mapf_plan is not None:
        return _animate_plan(args)
    if args.mapf_size is not None:
        from ..errors import ParameterError

        raise ParameterError("--mapf-size applies to --mapf-plan; no plan given")
    if args.bitmap:
        out_extension(args.output, (".png",), "-o/--output (with --bitmap)")
    else:
        out_extension(args.output, (".png", ".svg", ".pdf"))
    size = parse_pixel_size(args.size) if args.size is not None else None
    obj = _load(args.input, args.ros_rules)
    widening = widened(args)
    if isinstance(obj, Maze) and (widening or args.bitmap):
        obj = build_world(args, source=obj).grid    # --corridor/--wall, 1 when not given
    elif widening:
        print("robomaze render: note: --corridor/--wall ignored, the input is already a grid",
              file=sys.stderr)
    if args.bitmap:
        export_bitmap(obj, args.output)
        print(f"{args.input}: {obj.rows}x{obj.cols} grid -> {args.output} (1 pixel per cell)")
        return 0
    path = _solution(obj, args.input) if args.solution else None
    extra = {} if args.start_color is None else {"start_color": args.start_color}
    fig = render(obj, args.output, path=path, cell_px=args.cell_px, size=size,
                 title=args.title, graph=args.graph, metres=wants_metres(obj, args.metres),
                 **extra)
    w, h = (int(round(v)) for v in fig.get_size_inches() * fig.dpi)
    kind = "maze" if isinstance(obj, Maze) else "grid"
    print(f"{args.input}: {obj.rows}x{obj.cols} {kind} -> {args.output} ({w}x{h} px)")
    return 0


def _load(path, rules: str | None):
    """The input, a ROS map read by ``rules`` when given."""
    if rules is None:
        return load_file(path)
    from ..errors import ParameterError
    from ..io import read_rosmap_grid, sniff

    if sniff(path).name != "rosmap":
        raise ParameterError(f"--ros-rules applies to ROS map YAML files, but {path!r} is "
                             "not one")
    return read_rosmap_grid(path, rules=rules)


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


def _animate_plan(args) -> int:
    """``--mapf-plan``: the plan drawn over the map as a GIF (robomaze mapf's --gif)."""
    from ..errors import ParameterError
    from ..mapf import read_plan
    from ..viz.mapf import plan_on_grid

    out_extension(args.output, (".gif",), "-o/--output (with --mapf-plan)")
    for flag, used in (("--solution", args.solution), ("--graph", args.graph),
                       ("--bitmap", args.bitmap), ("--size", args.size is not None),
                       ("--title", args.title is not None)):
        if used:
            raise ParameterError(f"{flag} does not apply to --mapf-plan (a GIF of the agents)")
    obj = _load(args.input, args.ros_rules)
    if isinstance(obj, Maze):
        obj = build_world(args, source=obj).grid    # --corridor/--wall, 1 when not given
    pf = read_plan(args.mapf_plan)
    frames, problems = plan_on_grid(obj.occupied, pf, args.output, size=args.mapf_size,
                                    cell_px=args.cell_px or 0, fps=args.fps,
                                    path=args.mapf_plan)
    if problems:
        print(f"robomaze render: note: the plan breaks the MAPF rules ({len(problems)} "
              f"problems; first: {problems[0]})", file=sys.stderr)
    n, steps = pf.plan.n_agents, pf.plan.steps
    print(f"{args.mapf_plan}: {n} agents, {steps} steps on the {obj.rows}x{obj.cols} grid "
          f"{args.input} -> {args.output} ({frames} frames)")
    return 0
