"""``robomaze traffic``: several robots and moving obstacles in one maze, run and measured."""

from __future__ import annotations

import argparse
import json
import math

from ..errors import ParameterError
from ._args import add_command, nonneg_int, parse_size
from ._world import add_world_args, parse_seed

EPILOG = """\
examples:
  robomaze traffic kruskal 1x4 --corridor 25 --resolution 0.05 --robots 2 --footprint disc:0.3
  robomaze traffic kruskal 6x6 --braid 0.4 --corridor 16 --resolution 0.1 --robots 8 \\
      --assign random --obstacles 3 --obstacle-behaviour pedestrian --png run.png --gif run.gif
  robomaze traffic --spec my_traffic.toml --json
  robomaze traffic kruskal 4x4 --corridor 12 --resolution 0.1 --robots 4 --bag run.mcap
"""


def _positive(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number > 0, got {text!r}") from None
    if not (math.isfinite(v) and v > 0):
        raise argparse.ArgumentTypeError(f"expected a number > 0, got {text!r}")
    return v


def _count(text: str) -> int:
    v = nonneg_int(text)
    if v < 1:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {text!r}")
    return v


def spec_of_words(words: list[str]):
    """The spec ``robomaze traffic WORDS`` builds (its own parser and builder):
    ``bench show`` prints flags only when they give back a row's spec."""
    parser = argparse.ArgumentParser(prog="robomaze")
    register(parser.add_subparsers())
    return build_spec(parser.parse_args(["traffic", *words]))


def register(subparsers) -> None:
    from ..traffic.spec import AGENT_CHOICES, ASSIGNMENTS, BEHAVIOURS, KINEMATICS

    p = add_command(subparsers, "traffic",
                    help="run several robots and moving obstacles in one maze",
                    description="Run robots (ORCA-avoiding plan followers by default) and moving "
                                "obstacles in a widened maze until every robot arrives, they "
                                "deadlock, or the step budget ends; print the run's metrics.",
                    epilog=EPILOG)
    p.add_argument("source", metavar="ALGO", nargs="?", default=None,
                   help="maze generator (or a maze file with no SIZE)")
    p.add_argument("size", metavar="SIZE", nargs="?", default=None, help="ROWSxCOLS")
    p.add_argument("--spec", metavar="TOML", default=None,
                   help="a TOML file holding one traffic spec (the [traffic] table of a sweep "
                        "row); replaces the options below")
    # the world's options (--seed, --braid, --corridor, --wall, --resolution,
    # --footprint: every robot's shape), declared once for every command
    add_world_args(p, source=None, omit=("placement", "sensor"), seed=0, corridor=10,
                   resolution=0.1, footprint="disc:0.2")
    p.add_argument("--robots", type=_count, default=2, metavar="N")
    p.add_argument("--kinematics", default="differential", metavar="|".join(KINEMATICS))
    p.add_argument("--v-max", type=_positive, default=0.5, metavar="M/S")
    p.add_argument("--beams", type=_count, default=64, metavar="N")
    p.add_argument("--assign", default="swap", metavar="|".join(ASSIGNMENTS[:3]))
    p.add_argument("--obstacles", type=nonneg_int, default=0, metavar="N")
    p.add_argument("--obstacle-behaviour", default="pedestrian", metavar="|".join(BEHAVIOURS))
    p.add_argument("--obstacle-speed", type=_positive, default=0.5, metavar="M/S")
    p.add_argument("--obstacle-shape", default="disc:0.25", metavar="SPEC")
    p.add_argument("--agent", default="follow_plan", metavar="|".join(AGENT_CHOICES))
    p.add_argument("--no-orca", action="store_true", help="drive without ORCA")
    p.add_argument("--dt", type=_positive, default=0.1, metavar="S")
    p.add_argument("--max-steps", type=_count, default=3000, metavar="N")
    p.add_argument("--stall-time", type=_positive, default=10.0, metavar="S")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--png", metavar="FILE", default=None, help="draw the run")
    p.add_argument("--gif", metavar="FILE", default=None, help="animate the run")
    p.add_argument("--bag", metavar="PATH", default=None,
                   help="ROS 2 bag of the run (.mcap file or bag folder; extra 'ros')")
    p.set_defaults(func=run)


def build_spec(args: argparse.Namespace):
    """The :class:`~robomaze.traffic.TrafficSpec` the arguments describe."""
    from ..traffic import ObstacleSpec, OrcaParams, RobotSpec, TrafficSpec
    from ..world import WorldSpec

    if args.spec is not None:
        if args.source is not None:
            raise ParameterError("give either --spec or ALGO SIZE, not both")
        import tomllib

        try:
            with open(args.spec, "rb") as f:
                data = tomllib.load(f)
        except OSError as e:
            raise ParameterError(f"--spec {args.spec!r}: {e.strerror}") from None
        except tomllib.TOMLDecodeError as e:
            raise ParameterError(f"--spec {args.spec!r}: {e}") from None
        return TrafficSpec.from_dict(data.get("traffic", data))
    if args.source is None:
        raise ParameterError("give ALGO SIZE (a generated maze), a maze file, or --spec FILE")
    if args.size is not None:
        rows, cols = parse_size(args.size, "SIZE")
        world = WorldSpec(generator=args.source, rows=rows, cols=cols, braid=args.braid,
                          corridor=args.corridor, wall=args.wall,
                          resolution=args.resolution, seed=parse_seed(args.seed))
    else:
        world = WorldSpec(file=args.source, corridor=args.corridor, wall=args.wall,
                          resolution=args.resolution, seed=parse_seed(args.seed))
    robot = RobotSpec(footprint=args.footprint, kinematics=args.kinematics, v_max=args.v_max,
                      beams=args.beams)
    obst = [ObstacleSpec(shape=args.obstacle_shape, behaviour=args.obstacle_behaviour,
                         speed=args.obstacle_speed)] if args.obstacles else []
    return TrafficSpec(world=world, robots=robot, count=args.robots, assignment=args.assign,
                       obstacles=obst, obstacle_count=args.obstacles or None, agent=args.agent,
                       orca=OrcaParams(enabled=not args.no_orca), dt=args.dt,
                       max_steps=args.max_steps, stall_time=args.stall_time)


def run(args: argparse.Namespace) -> int:
    from ..traffic import run_traffic

    spec = build_spec(args)
    want = bool(args.png or args.gif or args.bag)
    res = run_traffic(spec, record=want, record_scans=bool(args.bag))
    if args.png:
        from ..viz.traffic import draw_traffic

        draw_traffic(res, args.png)
    if args.gif:
        from ..viz.traffic import animate_traffic

        animate_traffic(res, args.gif, every=max(1, len(res.poses) // 150))
    if args.bag:
        from ..io.rosbag2_traffic import write_traffic_bag

        write_traffic_bag(args.bag, res)
    out = {"outcome": res.outcome, **res.metrics, "robots_detail": res.robots}
    if args.json:
        print(json.dumps(out, default=float, allow_nan=True))
        return 0
    m = res.metrics
    print(f"outcome      {res.outcome}" + (f" ({m['stall']})" if m["stall"] != "none" else ""))
    print(f"arrived      {m['arrived']}/{m['robots']}   makespan {m['makespan']:.2f} s   "
          f"sum of costs {m['sum_of_costs']:.2f} s   throughput {m['throughput']:.2f}/min")
    print(f"collisions   {m['collisions']} (robot {m['collisions_robot']}, obstacle "
          f"{m['collisions_obstacle']}, wall {m['collisions_wall']})")
    print(f"clearance    walls {m['clearance_wall']:.3f} m   robots {m['clearance_robot']:.3f} m"
          f"   obstacles {m['clearance_obstacle']:.3f} m   min TTC {m['ttc_min']:.2f} s")
    print(f"steps        {m['steps']} ({m['sim_time']:.1f} s simulated)")
    return 0
