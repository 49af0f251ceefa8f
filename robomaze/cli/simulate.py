"""``robomaze simulate``: run an agent in a maze or grid, save the trajectory, print metrics."""

from __future__ import annotations

import argparse
import json
import math
import sys

import numpy as np

from ..errors import ParameterError
from ..sim.env import MAX_DT
from ._args import (add_command, nonneg_int, out_extension, parse_options, positive_float,
                    positive_int)
from ._world import add_world_args, build_world, robot_of, world_spec
from .render import color_arg

EPILOG = """\
input: a maze or grid file (.json .maze .num .txt .npy .map .yaml .png ...),
       or a generator and a size: ALGO ROWSxCOLS (with --seed)
footprint: disc:R | rect:LxW | rect:LxW@RX,RY | poly:X1,Y1;X2,Y2;...  (metres)
agents: wall_follow, follow_plan, explore, tremaux (options via --option KEY=VALUE,
        e.g. side=left for wall_follow, method=astar for follow_plan)
noise: none | gaussian:SIGMA | proportional:FRACTION | dropout:P | mixture[:KEY=V,...]
       joined with + (range noise of the sensor, robomaze.sense.noise)
odometry noise: none | gaussian:S | gaussian:SV,SW | drift:D | gaussian:S+drift:D
       (m/s, rad/s per step; what the agent believes, robomaze.sim.odometry)
localize: none (dead reckoning) | mcl (Monte Carlo localisation on the known map)
       | slam (log-odds map + scan matching); the agent then drives on the
       estimate, and the summary adds ate_rmse, rpe_per_m, lost_time (and
       map_iou_occupied/map_iou_free for slam); --tum PREFIX writes
       PREFIX-estimate.tum and PREFIX-truth.tum for evo (evo_ape tum
       PREFIX-truth.tum PREFIX-estimate.tum); --localize-image draws the
       truth beside the particle cloud (mcl) or the built map (slam);
       --json prints the summary as one JSON object instead of the line

The summary line reports: result, steps, simulated time, executed length,
optimality ratio, minimum/mean footprint clearance, collision events and, for
explorers, the fraction of the maze seen. -o writes the trajectory (.npz, see
robomaze.sim.trajectory); --image draws the run over the maze (refused steps
marked; .png .svg or .pdf), with --footprints N the robot's outline at every
N-th pose; --gif animates the run with the footprint and the sensor's beams
(hits orange-red, misses amber). Exit status: 0 when the goal was reached,
1 when not, 2 on errors.

examples:
  robomaze simulate kruskal 8x8 --seed 3 --corridor 5 --resolution 0.1 \\
      --footprint disc:0.15 --agent explore -o run.npz --image run.png
  robomaze simulate maze.json --agent wall_follow --sensor ir --option side=left
  robomaze simulate backtracker 5x5 --seed 2 --agent follow_plan --image run.pdf \
      --footprints 10 --gif run.gif
"""


def _time_step(text: str) -> float:
    """``--dt``: a finite step in (0, 1] s (a huge step would make the
    collision sub-stepping loop run for ever)."""
    try:
        dt = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, got {text!r}")
    if not (0.0 < dt <= MAX_DT):
        raise argparse.ArgumentTypeError(f"must be > 0 and <= {MAX_DT} s, got {text!r}")
    return dt


def register(subparsers) -> None:
    p = add_command(subparsers, "simulate", help="simulate a robot agent in a maze or grid",
                    description="Simulate a robot with a footprint and a range sensor driven "
                                "by a registered agent; print one summary line of metrics.",
                    epilog=EPILOG)
    add_world_args(p, corridor=5, resolution=None, maze_resolution=0.1,
                   footprint="disc:0.15")
    p.add_argument("--noise", default="none", metavar="SPEC",
                   help="sensor range noise, e.g. gaussian:0.01 (default none)")
    p.add_argument("--odometry-noise", default="none", metavar="SPEC",
                   help="odometry noise, e.g. gaussian:0.02+drift:0.01 (default none)")
    p.add_argument("--localize", default="none", choices=("none", "mcl", "slam"),
                   help="how the agent knows its pose: none (odometry), mcl or slam "
                        "(default none)")
    p.add_argument("--kidnap", default=None, metavar="T,DX,DY",
                   help="carry the robot by DX,DY metres unseen at simulated time T seconds "
                        "(the kidnapped-robot test; with --localize the summary adds "
                        "kidnap_recovery_s)")
    p.add_argument("--tum", default=None, metavar="PREFIX",
                   help="with --localize mcl|slam: write PREFIX-estimate.tum and "
                        "PREFIX-truth.tum (TUM trajectory format)")
    p.add_argument("--localize-image", default=None, metavar="OUT.png",
                   help="with --localize mcl|slam: draw the truth beside the particle cloud "
                        "(mcl) or the built map (slam); .png, .svg or .pdf")
    p.add_argument("--json", action="store_true",
                   help="print the run's summary and metrics as one JSON object")
    p.add_argument("--agent", default="explore", help="agent name (default explore)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="agent option (repeatable)")
    p.add_argument("--start", default=None, metavar="R,C|X,Y", help="default: the maze's start")
    p.add_argument("--goal", default=None, metavar="R,C|X,Y", help="default: the maze's goal")
    p.add_argument("--max-steps", type=positive_int, default=20_000, metavar="N")
    p.add_argument("--dt", type=_time_step, default=0.05,
                   help="time step in seconds, 0 < DT <= 1 (default 0.05)")
    p.add_argument("--scans", action="store_true", help="store the scans in the trajectory")
    p.add_argument("-o", "--output", default=None, metavar="OUT.npz",
                   help="write the trajectory here")
    p.add_argument("--image", default=None, metavar="OUT.png",
                   help="draw the run over the maze (.png, .svg or .pdf)")
    p.add_argument("--footprints", type=nonneg_int, default=0, metavar="N",
                   help="with --image: draw the footprint at every N-th pose (0 = none)")
    p.add_argument("--gif", default=None, metavar="OUT.gif",
                   help="animate the run (footprint, trail and sensor beams) as a GIF")
    p.add_argument("--gif-every", type=positive_int, default=None, metavar="K",
                   help="poses per GIF frame (default: at most 100 frames)")
    p.add_argument("--fps", type=positive_float, default=10.0,
                   help="frames per second of --gif (default 10)")
    p.add_argument("--start-color", type=color_arg, default=None, metavar="COLOUR",
                   help="colour of the start marker in --image/--gif (default green)")
    p.add_argument("--bag", default=None, metavar="OUT.mcap",
                   help="write the run as a ROS 2 bag: OUT.mcap (one MCAP file) or a bag "
                        "folder; /map /scan /odom /ground_truth /tf /plan /footprint "
                        "(needs robomaze[ros])")
    p.add_argument("--metres", action="store_true",
                   help="--image axes in metres in the ROS map frame")
    p.set_defaults(func=run)


def _fmt(v, unit: str = "", digits: int = 3) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a"
    return f"{v:.{digits}f}{unit}"


def summary(result) -> str:
    """The one-line metric summary printed by the command."""
    m = result.metrics
    parts = [
        f"{result.reason}",
        f"steps={m['steps']}",
        f"time={_fmt(result.trajectory.t[-1], 's', 2)}",
        f"length={_fmt(m['length'], 'm')}",
        f"optimality={_fmt(m['optimality_ratio'], '', 3)}",
        f"min_clearance={_fmt(m['min_clearance'], 'm')}",
        f"mean_clearance={_fmt(m['mean_clearance'], 'm')}",
        f"collisions={m['collisions']}",
    ]
    if "fraction_seen" in m:
        parts.append(f"seen={_fmt(m['fraction_seen'], '', 3)}")
    if "odometry_error" in m:
        parts.append(f"odometry_error={_fmt(m['odometry_error'], 'm')}")
    for key, unit in (("ate_rmse", "m"), ("rpe_per_m", ""), ("lost_time", "s"),
                      ("kidnap_recovery_s", "s"), ("loc_ambiguity", ""),
                      ("map_iou_occupied", ""), ("map_iou_free", "")):
        if key in m:
            parts.append(f"{key}={_fmt(m[key], unit)}")
    return " ".join(parts)


def _checked(args) -> dict:
    """Refuse an unknown agent or sensor, or an option the agent does not take."""
    from ..registry import check_name, check_options

    check_name("agent", args.agent)
    if isinstance(args.sensor, str):
        check_name("sensor", args.sensor)
    try:
        return check_options("agent", args.agent, parse_options(args.option))
    except ParameterError as exc:
        raise ParameterError(f"--option: {exc}") from None


def run(args: argparse.Namespace) -> int:
    from ..maze import Maze
    from ..sim import simulate
    from ..world import stage_rng
    from ._parse import _parse_point

    if args.output is not None:
        out_extension(args.output, (".npz",), "-o/--output")
    if args.image is not None:
        out_extension(args.image, (".png", ".svg", ".pdf"), "--image")
    if args.gif is not None:
        out_extension(args.gif, (".gif",), "--gif")
    if args.bag is not None:
        from pathlib import Path

        if Path(args.bag).is_dir() or (Path(args.bag).exists() and not args.bag.endswith(".mcap")):
            raise ParameterError(f"--bag: {args.bag!r} exists; give a new path")
    if args.tum is not None and args.localize == "none":
        raise ParameterError("--tum needs an estimate to write: use --localize mcl or slam")
    if args.localize_image is not None:
        if args.localize == "none":
            raise ParameterError("--localize-image needs a localizer: use --localize mcl or slam")
        out_extension(args.localize_image, (".png", ".svg", ".pdf"), "--localize-image")
    noise, odometry_noise = _noise_args(args)
    spec = world_spec(args)                # the world's options, checked and the seed drawn
    footprint = robot_of(spec)
    if footprint is None:
        raise ParameterError("--footprint must describe a robot shape, e.g. disc:0.15")
    options = parse_options(args.option)
    from ..sim.kidnap import parse_kidnap

    try:
        kidnap = parse_kidnap(args.kidnap)
    except ParameterError as exc:
        raise ParameterError(f"--kidnap: {exc}") from None
    _checked(args)                         # before the maze is built or anything compiles
    seed = spec.seed
    source = None
    if spec.generator is None:
        source = spec.build_source()
        if isinstance(source, Maze):
            _prepare(args, options, None)
    else:
        _prepare(args, options, spec.generator)
    grid = build_world(args, spec, source).grid
    observed: list = []
    result = simulate(grid, footprint=footprint, agent=args.agent, sensor=args.sensor,
                      start=_parse_point(args.start, "--start"),
                      goal=_parse_point(args.goal, "--goal"), max_steps=args.max_steps,
                      dt=args.dt, rng=stage_rng(seed, "method"),
                      record_scans=args.scans or args.gif is not None,
                      noise=noise, odometry_noise=odometry_noise, localize=args.localize,
                      observer=None if args.bag is None else observed.append, kidnap=kidnap,
                      **options)
    if args.bag is not None:
        _write_bag(args.bag, grid, result, footprint, observed, args.sensor)
    if args.output is not None:
        result.trajectory.save(args.output)
    if args.image is not None:
        _draw(grid, result, args.image, footprint=footprint, every=args.footprints,
              start_color=args.start_color, metres=args.metres)
    if args.gif is not None:
        from ..sim.runner import default_sensor
        from ..viz.robot import animate_run

        sensor = default_sensor(args.sensor, grid) if isinstance(args.sensor, str) else None
        animate_run(grid, result.trajectory, footprint, args.gif, sensor=sensor,
                    every=args.gif_every, fps=args.fps, start_color=args.start_color)
    if args.localize_image is not None:
        from ..viz.localize import localization_figure

        localization_figure(grid, result, args.localize_image)
    tums = []
    if args.tum is not None:
        from ..localize import write_tum

        t = result.trajectory.t
        tums = [f"{args.tum}-estimate.tum", f"{args.tum}-truth.tum"]
        for path, poses in zip(tums, (result.estimate, result.trajectory.poses)):
            try:
                write_tum(path, t, poses)
            except OSError as exc:
                raise ParameterError(f"--tum: cannot write {path}: {exc.strerror}") from None
    outs = [o for o in (args.output, args.image, args.gif, args.bag, args.localize_image,
                        *tums) if o]
    if args.seed is None:   # said once the run and its outputs worked: an error is one line
        print(f"robomaze simulate: seed {seed}", file=sys.stderr)
    if args.json:
        print(json_summary(result, outputs=outs, seed=seed))
    else:
        print(summary(result) + (f" -> {', '.join(outs)}" if outs else ""))
    return 0 if result.success else 1


def _write_bag(path, grid, result, footprint, observed, sensor_name) -> None:
    """The run as a ROS 2 bag: the observations the agent got, its plan if it has one."""
    import numpy as np

    from ..io.rosbag2 import write_run_bag
    from ..sim.runner import default_sensor

    plan = getattr(result.agent, "path", None)
    write_run_bag(path, grid, result.trajectory, footprint=footprint,
                  scans=[o["scan"] for o in observed],
                  odometry=np.array([o["odom"] for o in observed]),
                  plan_points=getattr(plan, "points", None),
                  mount=default_sensor(sensor_name, grid).mount)


def _plain(v):
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        return float(v) if math.isfinite(v) else None
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple, np.ndarray)):
        return [_plain(x) for x in v]
    return v if v is None or isinstance(v, str) else str(v)


def json_summary(result, outputs=(), seed: int | None = None) -> str:
    """The run as one JSON object: reason, success, seed, time, metrics (NaN as null).

    ``seed`` is the one seed the command ran (given or drawn: ``--seed``
    re-creates the run); the trajectory's own record of it otherwise.
    """
    meta = result.trajectory.meta
    doc = {"reason": result.reason, "success": bool(result.success),
           "agent": meta.get("agent"), "seed": meta.get("seed") if seed is None else int(seed),
           "localize": meta.get("localize", "none"),
           "odometry_noise": meta.get("odometry_noise"),
           "time": float(result.trajectory.t[-1]), "metrics": result.metrics,
           "outputs": list(outputs)}
    return json.dumps(_plain(doc), sort_keys=False)


def _prepare(args, options: dict, generator: str | None) -> None:
    """The generator's, simulator's, agent's and metrics' kernels on two cores
    (:mod:`robomaze.cli._stages`), for a maze widened as the command widens."""
    from ._world import check_maze_args
    from ._stages import prepare

    if generator is not None:
        check_maze_args(generator, args.braid, args.placement)
    prepare({"tasks": ["env", "agent", "metrics"] + (["generate"] if generator else [])
             + ["simulate"], "needs": {"simulate": ["env", "agent", "metrics"]},
             "generator": generator, "braid": args.braid, "placement": args.placement,
             "agent": args.agent, "sensor": args.sensor, "footprint": args.footprint,
             "dt": args.dt, "record_scans": args.scans or args.gif is not None,
             "noise": args.noise, "odometry_noise": args.odometry_noise,
             "localize": args.localize, "options": options, "corridor": args.corridor,
             "wall": args.wall, "resolution": 0.1 if args.resolution is None else args.resolution})


def _noise_args(args):
    """``--noise`` and ``--odometry-noise`` parsed before any work (one-line errors)."""
    from ..sense.noise import parse_noise
    from ..sim.odometry import parse_odometry_noise

    out = []
    for flag, text, parse in (("--noise", args.noise, parse_noise),
                              ("--odometry-noise", args.odometry_noise, parse_odometry_noise)):
        try:
            out.append(parse(text))
        except ParameterError as exc:
            raise ParameterError(f"{flag}: {exc}") from None
    return tuple(out)


def _draw(grid, result, out, *, footprint=None, every: int = 0, start_color=None,
          metres: bool = False) -> None:
    from ..viz import render
    from ..viz.draw import draw_path
    from ..viz.render import save_figure

    tr = result.trajectory
    hits = grid.world_to_cells(tr.poses[tr.collisions, :2])
    extra = {} if start_color is None else {"start_color": start_color}
    fig = render(grid, None, title=f"{result.trajectory.meta.get('agent', '')}: {result.reason}",
                 marks={"collisions": hits} if len(hits) else None, metres=metres, **extra)
    draw_path(fig.axes[0], grid, tr.poses[:, :2], world=True, label="trajectory")
    if every:
        from ..viz.robot import draw_footprints

        draw_footprints(fig.axes[0], grid, footprint, tr.poses, every=every)
    save_figure(fig, out)
