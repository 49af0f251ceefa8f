"""``robomaze mouse``: micromouse mode.

* ``robomaze mouse solve MAZE [--method floodfill]`` runs a built-in solver;
* ``robomaze mouse run MAZE -- COMMAND...`` hosts an external mouse program
  speaking the mms text protocol over stdin/stdout;
* ``robomaze mouse route MAZE [--diagonals] [--profile NAME|FILE] [--json]``
  prints the time-optimal route of the maze with every wall known
  (:func:`robomaze.micromouse.fastest_route`).

Both print the community's figures (cells explored, search moves and turns,
best route length and turns, run-time estimates, score) and can render the
maze with the explored cells and the best route.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys

from ..errors import ParameterError


def _add_common(p) -> None:
    p.add_argument("maze", help="maze file (micromouse text, .num or JSON)")
    p.add_argument("--unknown", choices=("wall", "open", "error"), default="wall",
                   help="how '.' (unknown) walls of a text maze are read (default wall)")
    p.add_argument("--render", default=None, metavar="OUT",
                   help="draw the maze, explored cells and best route to OUT (.png/.svg)")
    p.add_argument("--json", dest="json_out", default=None, metavar="OUT",
                   help="write the figures as JSON")
    # the classic search-time estimate (search_time); fast runs use --profile
    p.add_argument("--cell-size", type=float, default=0.18,
                   help="search-time estimate: cell size in m (0.18)")
    p.add_argument("--max-speed", type=float, default=3.0,
                   help="search-time estimate: m/s (3.0)")
    p.add_argument("--acceleration", type=float, default=6.0,
                   help="search-time estimate: m/s^2 (6.0)")
    p.add_argument("--turn-speed", type=float, default=0.7,
                   help="search-time estimate: m/s through turns (0.7)")
    p.add_argument("--turn-time", type=float, default=0.25,
                   help="search-time estimate: s per 90-degree turn (0.25)")
    p.add_argument("--diagonals", action="store_true",
                   help="flood fill's fast run (and time proof) may use diagonals")
    p.add_argument("--profile", default="kerikun", metavar="NAME|FILE",
                   help="mouse profile of the time-optimal fast run: a preset (kerikun, "
                        "simple) or a TOML file (default kerikun)")


def register(subparsers) -> None:
    p = subparsers.add_parser("mouse", help="micromouse mode: built-in solvers, host mms mice",
                              description=__doc__.split("\n\n")[1] if __doc__ else None)
    sub = p.add_subparsers(dest="mouse_command", metavar="ACTION")
    s = sub.add_parser("solve", help="run a built-in mouse solver (flood fill by default)")
    _add_common(s)
    s.add_argument("--method", default="floodfill",
                   help="floodfill, floodfill_time (explore until the time-optimal route "
                        "is proven), left_wall, right_wall or tremaux")
    s.add_argument("--no-prove", action="store_true",
                   help="flood fill: stop exploring at the goal (no proof of the best route)")
    s.add_argument("--prove-time", action="store_true",
                   help="flood fill: explore until the time-optimal route under --profile "
                        "(with --diagonals: with diagonals) is proven, instead of the "
                        "shortest one")
    s.add_argument("--goal", choices=("file", "mms"), default="file",
                   help="goal cells: the maze file's own (default) or mms's rule, the "
                        "maze's centre; the output's goal_rule says which was used")
    s.set_defaults(func=solve_cmd)
    q = sub.add_parser("route", help="the time-optimal route of a maze (slalom turns, "
                                     "optionally diagonals)",
                       description="Print the time-optimal route from the start to a goal "
                                   "cell of MAZE with every wall known: an exact Dijkstra on "
                                   "the slalom graph under the mouse profile.")
    q.add_argument("maze", help="maze file (micromouse text, .num or JSON)")
    q.add_argument("--unknown", choices=("wall", "open", "error"), default="wall",
                   help="how '.' (unknown) walls of a text maze are read (default wall)")
    q.add_argument("--diagonals", action="store_true",
                   help="allow diagonal moves (F45, F135, V90, diagonal straights)")
    q.add_argument("--profile", default="kerikun", metavar="NAME|FILE",
                   help="a preset (kerikun, simple) or a profile TOML file (default kerikun)")
    q.add_argument("--goal", choices=("file", "mms"), default="file",
                   help="goal cells: the maze file's own (default) or the maze's centre")
    q.add_argument("--json", dest="json_out", action="store_true",
                   help="print one JSON object (cost_ms, route, cells, ...)")
    q.set_defaults(func=route_cmd)
    r = sub.add_parser("run", help="host an external mouse program (mms protocol)",
                       description="Run COMMAND (after --) as a mouse speaking today's mms "
                                   "text protocol. The mouse starts in micromouse (0, 0), "
                                   "the south-west cell, facing north; the goal is mms's "
                                   "(the maze centre) unless --goal file. A program that "
                                   "crashes fails the run; it and every process it started "
                                   "are ended at the end (also on SIGTERM/SIGHUP). Exit "
                                   "status 1 if the run fails.")
    _add_common(r)
    r.add_argument("--command-timeout", type=float, default=5.0,
                   help="longest silence between commands, s (5)")
    r.add_argument("--total-timeout", type=float, default=120.0, help="run time limit, s (120)")
    r.add_argument("--lenient", action="store_true",
                   help="ignore unknown commands as mms does (default: protocol error)")
    r.add_argument("--stop-after", choices=("fast_run", "search", "exit"), default="fast_run")
    r.add_argument("--goal", choices=("mms", "file"), default="mms",
                   help="goal cells: mms's rule, the maze's centre (default), or the maze "
                        "file's own goal cells; the output's goal_rule says which was used")
    r.add_argument("--stderr-limit", type=int, default=65536, metavar="BYTES",
                   help="bytes of the mouse's stderr kept; the middle of a longer one is "
                        "dropped with a marker (65536)")
    r.add_argument("program", nargs=argparse.REMAINDER,
                   help="-- COMMAND [ARGS...] (after a literal --)")
    r.set_defaults(func=run_cmd, _run_parser=r)
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])


def _maze(args):
    """MAZE through the world's one reading rule (:func:`robomaze.world.load_file`):
    maze formats only, ``--unknown`` walls as asked."""
    from ..world import load_file

    return load_file(args.maze, kind="maze", unknown=args.unknown)


def _profile(args):
    from ..micromouse import MotionProfile
    return MotionProfile(cell_size=args.cell_size, max_speed=args.max_speed,
                         acceleration=args.acceleration, turn_speed=args.turn_speed,
                         turn_time=args.turn_time, diagonals=args.diagonals)


def _report(maze, run, args) -> int:
    from ..errors import NoPathError
    from ..micromouse import fastest_route
    prof = _profile(args)
    s = run.summary(prof, mouse_profile=args.profile)
    # The run's own start and goals (a hosted run may use mms's centre rule).
    if run.start is not None and run.goals:
        maze = maze.replace(start=run.start, goals=list(run.goals))
    s["reference_route_length"] = maze.solution_length()
    # The best possible fast runs: the time-optimal routes of the true maze.
    for key, diag in (("best_possible_time", False), ("best_possible_time_diagonal", True)):
        try:
            s[key] = fastest_route(maze, diagonals=diag, profile=args.profile).cost_ms / 1000
        except NoPathError:
            s[key] = None
    s.pop("display", None)
    width = max(len(k) for k in s)
    for k, v in s.items():
        if k in ("stderr", "mms_stats") or v is None and k not in ("route_length",):
            continue
        if isinstance(v, float):
            v = f"{v:.3f}"
        print(f"{k:<{width}}  {v}")
    if args.render:
        from ..viz.micromouse import render_micromouse
        render_micromouse(maze, run=run, out=args.render, title=f"{run.method}")
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as fh:
            json.dump({k: v for k, v in s.items()}, fh, indent=2, default=str)
    return 0 if run.success else 1


def _warm(args, *, flood: bool) -> None:
    """Compile the command's kernels (or load them) before its work, on two
    cores when the cache lacks them (:func:`robomaze.micromouse.warm_up`):
    the best-possible times' route search, and flood fill's if ``flood``."""
    from ..micromouse import warm_up

    warm_up(args.profile, flood=flood)


def solve_cmd(args) -> int:
    from ..micromouse import floodfill, get_profile, solve
    get_profile(args.profile)             # a bad profile fails before the run
    maze = _maze(args)
    _warm(args, flood=args.method in ("floodfill", "floodfill_time"))
    if args.goal == "mms":
        from ..micromouse.mms import mms_centre
        maze = maze.replace(goals=list(mms_centre(*maze.shape)))
    if args.method in ("floodfill", "floodfill_time"):
        prove = "time" if args.prove_time or args.method == "floodfill_time" \
            else not args.no_prove
        run = floodfill(maze, prove=prove, profile=args.profile, diagonals=args.diagonals)
        run = dataclasses.replace(run, method=args.method)
    else:
        run = solve(maze, method=args.method)
    run = dataclasses.replace(run, goal_rule=args.goal)
    if not run.success:
        print(f"robomaze mouse: {run.method} failed: {run.reason}", file=sys.stderr)
    return _report(maze, run, args)


def route_cmd(args) -> int:
    from ..micromouse import fastest_route
    maze = _maze(args)
    if args.goal == "mms":
        from ..micromouse.mms import mms_centre
        maze = maze.replace(goals=list(mms_centre(*maze.shape)))
    # one search: the plain-Python Dial search beats importing numba to run it
    r = fastest_route(maze, diagonals=args.diagonals, profile=args.profile, jit=False)
    if args.json_out:
        print(json.dumps(r.to_json()))
        return 0
    print(f"profile   {r.profile} ({r.model}, {'diagonals' if r.diagonals else 'no diagonals'})")
    print(f"time      {r.cost_ms / 1000:.3f} s ({r.cost_ms:g} ms)")
    print(f"cells     {len(r.cells)} crossed, {len(r.cells) - 1} moves")
    print(f"route     {' '.join(r.route)}")
    return 0


def run_cmd(args) -> int:
    from ..micromouse.host import host_mouse
    program = list(args.program)
    if "--" in program:
        # argparse.REMAINDER also swallows our own options typed between MAZE
        # and "--": parse those again, keep what follows "--" as the command.
        cut = program.index("--")
        options, program = program[:cut], program[cut + 1:]
        if options:
            args._run_parser.parse_args([*options, args.maze], namespace=args)
    if not program:
        raise ParameterError("no mouse program given; expected: robomaze mouse run MAZE -- "
                             "COMMAND [ARGS...]")
    from ..micromouse import get_profile
    get_profile(args.profile)             # a bad profile fails before the mouse runs
    maze = _maze(args)
    _warm(args, flood=False)              # before the mouse's process and its threads
    run = host_mouse(maze, program, command_timeout=args.command_timeout,
                     total_timeout=args.total_timeout, lenient=args.lenient,
                     stop_after=args.stop_after, goal=args.goal,
                     stderr_limit=args.stderr_limit)
    if not run.success:
        print(f"robomaze mouse: the mouse failed: {run.reason}", file=sys.stderr)
        tail = run.extra.get("stderr", "").strip()
        if tail:
            print("mouse stderr (tail):\n" + tail[-800:], file=sys.stderr)
    return _report(maze, run, args)
