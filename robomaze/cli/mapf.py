"""``robomaze mapf MAP SCEN``: plan many agents together and write the plan file."""

from __future__ import annotations

import json
import sys
import time

from ._args import add_command, positive_float, positive_int
from ._world import WORLD_OPTIONS, add_world_args

EPILOG = """\
MAP is a MovingAI .map file, SCEN a MovingAI .scen file (one agent per line;
the first --agents lines are planned). The plan file lists every agent's
(x, y) per time step (the mapf-visualizer / LaCAM layout) with the sum of
costs and makespan in its header; it is checked by robomaze's validator
before it is written.

solvers: prioritized, cbs, ecbs (--w), pibt, lacam, lacam_star (anytime)

examples:
  robomaze mapf maze.map maze.scen --solver lacam --agents 100 -o plan.txt
  robomaze mapf maze.map maze.scen --solver cbs --agents 10 --max-work 500000
  robomaze mapf maze.map new.scen --new-scen --agents 50 --bucket even --seed 3
  robomaze mapf maze.map maze.scen --plan plan.txt --gif plan.gif
  robomaze mapf maze.map maze.scen --agents 20 --execute --step-time 0.5

--execute drives every agent as a holonomic disc robot (radius 0.3 of its body
side) in robomaze's traffic simulator with the reactive layer (ORCA) off: the
plan's timing held if no robot arrived at a planned cell more than a quarter
step late and no robot touched another or a wall.
"""


def register(subparsers) -> None:
    p = add_command(subparsers, "mapf", help="plan many agents together (multi-agent path finding)",
                    description="Multi-agent path finding on a MovingAI map: read the agents "
                                "of a .scen file, plan them with a MAPF solver, validate and "
                                "write the plan, optionally animate it.", epilog=EPILOG)
    p.add_argument("map", metavar="MAP", help="MovingAI .map file")
    p.add_argument("scen", metavar="SCEN", help="MovingAI .scen file")
    p.add_argument("--solver", default="lacam", help="MAPF solver (default lacam)")
    p.add_argument("--agents", type=positive_int, default=None,
                   help="plan the first N agents (default: all)")
    p.add_argument("-o", "--output", default=None, metavar="PLAN", help="write the plan here")
    p.add_argument("--max-work", type=positive_int, default=None, metavar="N",
                   help="work budget (low-level expansions / PIBT calls)")
    p.add_argument("--w", type=float, default=None, help="suboptimality bound of ecbs")
    # --seed (the solver's and --new-scen's draws) is the world's option, declared once
    add_world_args(p, source=None, seed=0, omit=tuple(k for k in WORLD_OPTIONS if k != "seed"))
    p.add_argument("--size", type=positive_int, default=1,
                   help="agent body side in grid cells (bodies conflict by overlap)")
    p.add_argument("--new-scen", action="store_true",
                   help="generate --agents agents on MAP (--bucket, --seed) and write SCEN "
                        "instead of reading it")
    p.add_argument("--bucket", default="random", help="random or even (with --new-scen)")
    p.add_argument("--plan", default=None, metavar="FILE",
                   help="check (and with --gif animate) this plan file instead of solving")
    p.add_argument("--gif", default=None, metavar="OUT.gif",
                   help="animate the plan, one colour per agent")
    p.add_argument("--execute", action="store_true",
                   help="run the plan in the traffic simulator (disc robots, ORCA off, each "
                        "tracking its own schedule) and report whether its timing held: "
                        "per-agent lateness and contacts")
    p.add_argument("--step-time", type=positive_float, default=1.0, metavar="S",
                   help="seconds per plan step with --execute (default 1; one cell per step)")
    p.add_argument("--json", dest="json_out", default=None, help="write the result summary")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..errors import ParameterError
    from ..mapf import SOLVERS, read_mapf, read_plan, solve, validate_plan, write_mapf, \
        write_plan
    from ..mapf.generate import random_instance

    if args.new_scen:
        from ..world import load_file

        if args.agents is None:
            raise ParameterError("--new-scen needs --agents N")
        grid = load_file(args.map, kind="grid")   # the world's one reading rule
        from pathlib import Path

        inst = random_instance(grid.occupied, args.agents, seed=args.seed, bucket=args.bucket,
                               size=args.size, name=Path(args.map).name)
        write_mapf(inst, args.scen, map_name=Path(args.map).name)
        print(f"wrote {args.scen}: {inst.n_agents} agents ({args.bucket}, seed {args.seed})")
        if args.output is None and args.gif is None and not args.execute:
            return 0
    inst = read_mapf(args.map, args.scen, agents=args.agents, size=args.size)
    if args.plan is not None:
        pf = read_plan(args.plan)
        validate_plan(inst, pf.plan, soc=pf.stated("soc"), makespan=pf.stated("makespan"))
        print(f"{args.plan}: valid plan of {inst.n_agents} agents, sum of costs "
              f"{pf.plan.soc}, makespan {pf.plan.makespan}")
        plan = pf.plan
        s = {"plan": args.plan, "agents": inst.n_agents, "soc": pf.plan.soc,
             "makespan": pf.plan.makespan}
    else:
        SOLVERS.lookup(args.solver)
        opts = {}
        if args.w is not None:
            if args.solver != "ecbs":
                raise ParameterError(f"--w is the bound of ecbs; solver is {args.solver!r}")
            opts["w"] = args.w
        c0 = time.process_time()
        res = solve(inst, args.solver, max_work=args.max_work, seed=args.seed, **opts)
        cpu = time.process_time() - c0
        s = res.summary()
        s["cpu_s"] = cpu
        s["agents"] = inst.n_agents
        s["lower_bound_sum_of_paths"] = inst.lower_bound()
        if not res.success:
            print(f"{args.solver}: no plan for {inst.n_agents} agents ({res.outcome}: "
                  f"{res.reason}); {res.expansions} expansions, {res.nodes} nodes",
                  file=sys.stderr)
            if args.json_out:
                _dump(args.json_out, s)
            return 1
        plan = res.plan
        bound = f", bound w={res.bound:g}" if res.bound not in (None, 1.0) else \
            (", optimal" if res.bound == 1.0 else "")
        print(f"{args.solver}: {inst.n_agents} agents, sum of costs {res.soc} (lower bound "
              f"{res.lower_bound}{bound}), makespan {res.makespan}, {res.expansions} "
              f"expansions, {res.nodes} nodes, {cpu:.3f} s CPU")
        if args.output:
            write_plan(plan, args.output, map_file=inst.name, solver=args.solver,
                       starts=inst.starts, goals=inst.goals,
                       extra={"size": inst.size} if inst.size > 1 else None)
            print(f"wrote {args.output}")
    if args.execute:
        s["execute"] = _execute(inst, plan, args.step_time)
    if args.json_out:
        _dump(args.json_out, s)
    if args.gif:
        from ..viz.mapf import save_plan_gif

        n = save_plan_gif(inst.occupied, plan.cells, args.gif, size=inst.size,
                          goals=inst.goals)
        print(f"wrote {args.gif} ({n} frames)")
    return 0


def _dump(path, s) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(s, fh, indent=2)


def _execute(inst, plan, step_time: float) -> dict:
    """The plan run in the traffic simulator; one line on whether its timing held."""
    import numpy as np

    from ..traffic.mapf_exec import execute_plan

    ex = execute_plan(inst, plan, step_time=step_time)
    s = ex.summary()
    late = ex.lateness
    worst = int(np.argmax(late)) if len(late) else 0
    verdict = "held" if ex.held else "did NOT hold"
    print(f"executed in the traffic simulator (ORCA off, {step_time:g} s per step): timing "
          f"{verdict}; max lateness {s['max_lateness_steps']:.2f} steps (agent {worst}), "
          f"{s['late_agents']} late agents, {s['collisions']} agents in contact "
          f"({s['robot_contacts']} robot, {s['wall_contacts']} wall contact steps), closest "
          f"robots {s['min_robot_clearance_m']:.3f} m apart")
    s["lateness_s"] = [float(x) for x in late]
    # JSON has no infinity: a robot that never reached a planned cell is null
    return {k: ([None if x == float("inf") else x for x in v] if isinstance(v, list)
                else None if v == float("inf") else v) for k, v in s.items()}
