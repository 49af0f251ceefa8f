"""``robomaze plan``: plan a path on a maze or grid and print its summary."""

from __future__ import annotations

import argparse
import math
import sys

from ..errors import ParameterError, RobomazeError
from ..maze import Maze
from ..world import WorldSpec
from ._parse import MAX_COORD, _parse_point, parse_footprint  # noqa: F401 -- public here too
from ._args import add_command, nonneg_int, out_extension, parse_options
from ._world import add_world_args, build_world, check_maze_args, robot_of, world_spec

EPILOG = """\
input: a maze or grid file (.json .maze .num .txt .npy .map .yaml .png ...),
       or a generator and a size: ALGO ROWSxCOLS (with --seed)
footprint: disc:R | rect:LxW | rect:LxW@RX,RY (reference point from the centre)
           | poly:X1,Y1;X2,Y2;X3,Y3...   (metres, robot frame, heading 0 = east)

examples:
  robomaze plan kruskal 20x20 --seed 3 --corridor 5 --resolution 0.1 --method max_clearance \\
      --footprint disc:0.15 -o path.png
  robomaze plan maze.json --method collision_free --footprint rect:0.6x0.25 --corridor 7 \\
      --resolution 0.1
  robomaze plan room.yaml --start 1,1 --goal 8,10 --method theta_star
"""


def register(subparsers) -> None:
    p = add_command(subparsers, "plan", help="plan a path on a maze or grid",
                    description="Plan a path with one of the registered planners and print "
                                "one summary line (length, clearance, safety, effort).",
                    epilog=EPILOG)
    add_world_args(p, omit=("sensor",), corridor=3, resolution=None, maze_resolution=1.0)
    p.add_argument("--method", default="astar", help="planner name (default astar)")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object (full-precision length, metrics, times) "
                        "instead of the summary line")
    p.add_argument("--connectivity", type=int, default=4, choices=(4, 8))
    p.add_argument("--start", default=None, metavar="R,C|X,Y", help="default: the maze's start")
    p.add_argument("--goal", default=None, metavar="R,C|X,Y", help="default: the maze's goal")
    p.add_argument("--smooth", action="store_true", help="shortcut the result by line of sight")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="planner option, e.g. weight=5 or fewest_bends=1 (repeatable)")
    p.add_argument("-o", "--output", default=None, metavar="OUT",
                   help="draw the grid and path to this .png/.svg/.pdf")
    p.add_argument("--footprints", type=nonneg_int, default=0, metavar="N",
                   help="with -o: draw the robot's footprint at every N-th pose of the "
                        "path (0 = none; needs --footprint)")
    p.add_argument("--metres", action="store_true",
                   help="with -o: axes in metres in the ROS map frame")
    p.set_defaults(func=run)


def _world(args, spec: WorldSpec, before=None):
    """The command's world; ``before(generator)`` runs once the source is known,
    before a maze is generated or widened (generator None for a file)."""
    source = spec.build_source() if spec.generator is None else None
    if before is not None and (spec.generator is not None or isinstance(source, Maze)):
        before(spec.generator)
    return build_world(args, spec, source)


def _prepare(args, options: dict, generator: str | None) -> None:
    """The generator's, planner's and path figures' kernels on two cores
    (:mod:`robomaze.cli._stages`), for a maze widened as the command widens."""
    if args.method.startswith("ompl:"):
        return  # nothing to compile, and a planner that runs for its budget
    from ._stages import prepare

    if generator is not None:
        check_maze_args(generator, args.braid, args.placement)
    tasks = ["plan", "measure", "cspace", "heuristic"] + (["generate"] if generator else [])
    prepare({"tasks": tasks,
             "generator": generator, "braid": args.braid, "placement": args.placement,
             "method": args.method, "footprint": args.footprint,
             "connectivity": args.connectivity, "options": options,
             "rng": _takes_rng(args.method), "smooth": args.smooth, "corridor": args.corridor,
             "wall": args.wall, "resolution": 1.0 if args.resolution is None else args.resolution})


def run(args: argparse.Namespace) -> int:
    if args.output is not None:
        out_extension(args.output, (".png", ".svg", ".pdf"))
    spec = world_spec(args)                # the world's options, checked and the seed drawn
    fresh = spec.generator is not None and args.seed is None
    try:
        code = _run(args, spec)
    except RobomazeError as exc:
        if fresh:   # an error is one line: the drawn seed goes in it, not on a line before
            exc.args = (f"{exc} (seed {spec.seed})",)
        raise
    return code


def _run(args: argparse.Namespace, spec: WorldSpec) -> int:
    from ..plan import plan, smooth
    from ..world import stage_rng

    fresh = spec.generator is not None and args.seed is None
    footprint = robot_of(spec)
    # typed by the planner's spec, before the maze is built or anything compiles
    options = _checked(args.method, parse_options(args.option))
    seed = spec.seed
    world = _world(args, spec, before=lambda generator: _prepare(args, options, generator))
    grid = world.grid
    if "rng" not in options and _takes_rng(args.method):
        options["rng"] = stage_rng(seed, "method")  # the seed rule of robomaze.world
    path = plan(grid, _parse_point(args.start, "--start"), _parse_point(args.goal, "--goal"),
                method=args.method, footprint=footprint, connectivity=args.connectivity,
                **options)
    if args.smooth:
        path = smooth(path, grid, footprint)
    if args.output is not None:
        from ..viz import render

        fig = render(grid, None, path=path, title=path.method, metres=args.metres)
        if args.footprints:
            from ..viz.robot import draw_footprints, path_poses

            if footprint is None:
                raise ParameterError("--footprints needs --footprint (the robot's shape)")
            draw_footprints(fig.axes[0], grid, footprint, path_poses(path), every=args.footprints)
        from ..viz.render import save_figure

        save_figure(fig, args.output)
    if fresh:   # said once the plan and its outputs worked
        print(f"robomaze plan: seed {spec.seed}", file=sys.stderr)
    if args.json:
        import json

        from .. import metrics as M

        # the sweep's clearances (robomaze.metrics: the whole path, sampled)
        pm = M.path_metrics(path, grid, footprint=footprint, reference=False)
        print(json.dumps({"method": path.method, "seed": seed, "length_m": float(path.length),
                          "min_clearance": _finite(pm["min_clearance"]),
                          "mean_clearance": _finite(pm["mean_clearance"]),
                          "length_cells": float(path.length_cells), "turns": int(path.turns),
                          "expanded": int(path.expanded),
                          "collision_free": bool(path.collision_free),
                          "min_clearance_key_poses": _finite(path.min_clearance_key_poses),
                          "time_s": float(path.time), "compile_s": float(path.compile_time),
                          "output": args.output}))
        return 0
    print(path.summary() + (f" -> {args.output}" if args.output else ""))
    if path.compile_time > 0:
        print(f"compile: {path.compile_time:.1f} s of numba compiling on first use "
              "(cached for later runs; not part of the time above)")
    return 0


def _finite(v) -> float | None:
    v = float(v)
    return v if math.isfinite(v) else None


def _takes_rng(method: str) -> bool:
    from ..registry import PLANNERS

    return method in PLANNERS and PLANNERS.spec(method).takes_rng


def _checked(method: str, options: dict) -> dict:
    """Refuse an unknown planner or an option it does not take, in one line."""
    from ..registry import check_name, check_options

    check_name("planner", method)
    try:   # typed values (simplify=0 -> False, none -> None): the spec casts them
        return check_options("planner", method, options, keep=("rng",))  # plan() takes rng
    except ParameterError as exc:
        raise ParameterError(f"--option: {exc}") from None
