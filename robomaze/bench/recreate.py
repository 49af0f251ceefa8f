"""The command and the Python lines that re-create a row, generated from its spec.

A row stores its canonical scenario spec (:mod:`robomaze.bench.scenario`):
the world (maze source, widening, footprint, seed -- one
:class:`robomaze.world.WorldSpec`) and the method (planner, agent or mouse,
with its sensor, noise, localizer, budgets and options). :data:`CLI_KEYS`
says, for every key of that spec and every run kind, how it reaches the
``robomaze`` command: a flag, the world's own words
(:meth:`WorldSpec.cli_source`), or why the command does not need it (a
key the kind ignores, the wall-clock safety net). A key that is not listed
is refused -- :func:`row_command` raises and :func:`show_row` says which
key has no command -- so an option added to sweeps cannot be silently
left out of the re-creation (tests/bench/test_bench_show.py runs the command
of one row of every kind of every shipped sweep and compares the row).
"""

from __future__ import annotations

import shlex
from pathlib import Path

from ..errors import ParameterError

__all__ = ["CLI_KEYS", "row_command", "row_python", "show_row"]

#: The world's keys: :meth:`robomaze.world.WorldSpec.cli_source` (and
#: ``--start``/``--goal``) writes them.
WORLD = "world"


def _ignored(why: str) -> tuple[str, str]:
    return ("ignored", why)


_SAFETY = _ignored("the wall-clock safety net: it decides no result")
_WORLD_KEYS = {("", "seed"): WORLD, ("maze", "generator"): WORLD, ("maze", "rows"): WORLD,
               ("maze", "cols"): WORLD, ("maze", "braid"): WORLD, ("maze", "placement"): WORLD,
               ("maze", "file"): WORLD, ("maze", "grid"): WORLD, ("maze", "start"): WORLD,
               ("maze", "goal"): WORLD, ("maze", "options"): WORLD,
               ("widen", "corridor"): WORLD, ("widen", "wall"): WORLD,
               ("widen", "resolution"): WORLD, ("robot", "footprint"): WORLD}

#: kind -> (section, key) -> flag, :data:`WORLD` or ``("ignored", why)``.
CLI_KEYS: dict[str, dict[tuple[str, str], object]] = {
    "plan": {**_WORLD_KEYS,
             ("robot", "sensor"): _ignored("planners sense nothing"),
             ("run", "planner"): "--method", ("run", "agent"): _ignored("agents only"),
             ("run", "mouse"): _ignored("mice only"),
             ("run", "connectivity"): "--connectivity",
             ("run", "max_steps"): _ignored("agents only"), ("run", "dt"): _ignored("agents only"),
             ("run", "time_limit"): _SAFETY, ("run", "options"): "--option"},
    "simulate": {**_WORLD_KEYS,
                 ("robot", "sensor"): "--sensor", ("robot", "noise"): "--noise",
                 ("robot", "odometry_noise"): "--odometry-noise",
                 ("robot", "localize"): "--localize",
                 ("run", "agent"): "--agent", ("run", "planner"): _ignored("planners only"),
                 ("run", "mouse"): _ignored("mice only"),
                 ("run", "connectivity"): _ignored("grid planners only"),
                 ("run", "max_steps"): "--max-steps", ("run", "dt"): "--dt",
                 ("run", "time_limit"): _SAFETY, ("run", "bags"): "--bag",
                 ("run", "options"): "--option"},
    "mouse": {("", "seed"): WORLD, ("maze", "generator"): WORLD, ("maze", "rows"): WORLD,
              ("maze", "cols"): WORLD, ("maze", "braid"): WORLD, ("maze", "placement"): WORLD,
              ("maze", "file"): WORLD, ("maze", "grid"): WORLD, ("maze", "start"): WORLD,
              ("maze", "goal"): WORLD, ("maze", "options"): WORLD,
              ("widen", "corridor"): _ignored("a mouse drives maze cells"),
              ("widen", "wall"): _ignored("a mouse drives maze cells"),
              ("widen", "resolution"): _ignored("a mouse drives maze cells"),
              ("robot", "footprint"): _ignored("a mouse drives maze cells"),
              ("robot", "sensor"): _ignored("a mouse senses its cell's walls"),
              ("run", "mouse"): "--method", ("run", "profile"): "--profile",
              ("run", "planner"): _ignored("planners only"),
              ("run", "agent"): _ignored("agents only"),
              ("run", "connectivity"): _ignored("grid planners only"),
              ("run", "max_steps"): _ignored("agents only"), ("run", "dt"): _ignored("agents only"),
              ("run", "time_limit"): _SAFETY, ("run", "options"): "--option"},
    # many agents on one map: the widened maze as a MovingAI .map, the
    # instance as a .scen (same seed rule), then the solver (robomaze.bench.mapf)
    "mapf": {**_WORLD_KEYS,
             ("maze", "start"): _ignored("the instance draws every agent's start and goal"),
             ("maze", "goal"): _ignored("the instance draws every agent's start and goal"),
             ("robot", "footprint"): "--size",
             ("robot", "sensor"): _ignored("MAPF agents sense nothing"),
             ("run", "mapf"): "--solver", ("run", "agents"): "--agents",
             ("run", "bucket"): "--bucket", ("run", "max_work"): "--max-work",
             ("run", "options"): "--w",
             ("run", "planner"): _ignored("planners only"), ("run", "agent"): _ignored("agents only"),
             ("run", "connectivity"): _ignored("MAPF moves on the 4-connected grid"),
             ("run", "max_steps"): _ignored("agents only"), ("run", "dt"): _ignored("agents only"),
             ("run", "time_limit"): _SAFETY},
}

#: A mouse's options as ``robomaze mouse solve`` flags: option -> value -> flag.
_MOUSE_OPTIONS = {"prove": {False: ["--no-prove"], "time": ["--prove-time"], True: []},
                  "diagonals": {True: ["--diagonals"], False: []}}


def _spec_keys(spec: dict):
    for section, value in spec.items():
        if section == "plugins":
            continue
        if isinstance(value, dict):
            for key in value:
                yield section, key
        else:
            yield "", section


def check_keys(kind: str, spec: dict) -> None:
    """Refuse a spec key :data:`CLI_KEYS` does not list for ``kind`` (one line)."""
    table = CLI_KEYS.get(kind)
    if table is None:
        raise ParameterError(f"run kind {kind!r} has no command form; expected one of "
                             f"{', '.join(CLI_KEYS)}")
    for section, key in _spec_keys(spec):
        if (section, key) not in table:
            name = f"{section}.{key}" if section else key
            raise ParameterError(f"spec key {name} of a {kind} row has no command form "
                                 "(robomaze.bench.recreate.CLI_KEYS)")


def _value_word(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def row_command(row: dict) -> list[list[str]]:
    """The shell commands (lists of quoted words) that re-create ``row``.

    A mouse on a generated maze is two commands (the maze, then the mouse);
    every other row is one. Raises :class:`ParameterError` when a key of the
    row's spec has no command form.
    """
    from ..world import WorldSpec
    from .rerun import row_scenario

    sc = row_scenario(row)
    spec, kind = sc.spec, sc.kind
    check_keys(kind, spec)
    world = WorldSpec.from_scenario(sc)
    run, robot = spec["run"], spec["robot"]
    table = CLI_KEYS[kind]
    if kind == "mouse":
        return _mouse_commands(row, sc, world)
    if kind == "mapf":
        return _mapf_commands(row, sc, world)
    cmd = ["robomaze", kind, *world.cli_source()]
    if world.grid or world.start or world.goal:
        w = world.build()
        cmd += ["--start", "{},{}".format(*w.start), "--goal", "{},{}".format(*w.goal)]
    for (section, key), how in table.items():
        if how == WORLD or isinstance(how, tuple):
            continue
        value = (robot if section == "robot" else run).get(key)
        if key == "options":
            for k, v in sorted((value or {}).items()):
                cmd += ["--option", shlex.quote(f"{k}={_value_word(v)}")]
        elif key == "bags":
            if value:
                cmd += ["--bag", shlex.quote(f"{row['id']}.mcap")]
        elif key in ("noise", "odometry_noise", "localize"):
            if value:
                cmd += [how, shlex.quote(str(value))]
        elif key == "dt":
            cmd += [how, repr(float(value))]
        elif value is not None:
            cmd += [how, shlex.quote(str(value))]
    return [cmd + ["--json"]]


def _mouse_commands(row, sc, world) -> list[list[str]]:
    run = sc.spec["run"]
    cmds = []
    if world.generator:
        maze_file = f"maze-{row['id']}.json"
        gen = ["robomaze", "generate", world.generator, f"{world.rows}x{world.cols}",
               "--seed", str(world.seed)]
        if world.braid:
            gen += ["--braid", repr(float(world.braid))]
        if world.placement != "corners":
            gen += ["--placement", str(world.placement)]
        if world.options:
            raise ParameterError("maze.options: generator options have no command form")
        cmds.append([shlex.quote(w) for w in gen] + ["-o", shlex.quote(maze_file)])
    else:
        if sc.spec["maze"]["start"] or sc.spec["maze"]["goal"]:
            raise ParameterError("maze.start/maze.goal of a mouse row have no command form")
        maze_file = str(world.resolve(world.file or world.grid))
    cmd = ["robomaze", "mouse", "solve", shlex.quote(maze_file), "--method",
           shlex.quote(run["mouse"])]
    profile = run.get("profile") or "kerikun"
    cmd += ["--profile", shlex.quote(_profile_path(profile, sc.base_dir))]
    for k, v in sorted((run.get("options") or {}).items()):
        flags = _MOUSE_OPTIONS.get(k, {}).get(v if isinstance(v, (bool, str)) else None)
        if flags is None:
            raise ParameterError(f"run.options.{k} = {v!r} of a mouse row has no command form")
        cmd += flags
    return cmds + [cmd]


def _mapf_commands(row, sc, world) -> list[list[str]]:
    """The map, the instance and the solver of a MAPF row (three commands)."""
    from .mapf import DEFAULT_WORK, _body, method_seed

    spec, run = sc.spec, sc.spec["run"]
    if world.grid:
        map_file = str(world.resolve(world.grid))
        cmds = []
    elif world.generator:
        map_file = f"mapf-{row['id']}.map"
        gen = ["robomaze", "generate", world.generator, f"{world.rows}x{world.cols}",
               "--seed", str(world.seed), "--corridor", str(world.corridor),
               "--wall", str(world.wall), "--resolution", repr(float(world.resolution))]
        if world.braid:
            gen += ["--braid", repr(float(world.braid))]
        if world.placement != "corners":
            gen += ["--placement", str(world.placement)]
        for k, v in sorted((world.options or {}).items()):
            gen += ["--option", f"{k}={_value_word(v)}"]
        cmds = [[shlex.quote(w) for w in gen] + ["-o", shlex.quote(map_file)]]
    else:
        raise ParameterError("maze.file of a mapf row has no command form (robomaze mapf "
                             "reads MovingAI .map files; give the sweep maze.grid)")
    scen = f"mapf-{row['id']}.scen"
    agents, body = str(int(run.get("agents") or 10)), str(_body(spec))
    cmds.append(["robomaze", "mapf", shlex.quote(map_file), shlex.quote(scen), "--new-scen",
                 "--agents", agents, "--bucket", shlex.quote(run.get("bucket") or "random"),
                 "--seed", str(spec["seed"]), "--size", body])
    opts = dict(run.get("options") or {})
    work = int(opts.pop("max_work", None) or run.get("max_work") or DEFAULT_WORK)
    cmd = ["robomaze", "mapf", shlex.quote(map_file), shlex.quote(scen), "--solver",
           shlex.quote(run["mapf"]), "--agents", agents, "--max-work", str(work),
           "--seed", str(method_seed(spec["seed"])), "--size", body]
    for k, v in sorted(opts.items()):
        if k != "w" or run["mapf"] != "ecbs":
            raise ParameterError(f"run.options.{k} = {v!r} of a mapf row has no command form "
                                 "(robomaze mapf takes --w for ecbs)")
        cmd += ["--w", repr(float(v))]
    return cmds + [cmd + ["--json", shlex.quote(f"mapf-{row['id']}.json")]]


def _profile_path(name: str, base_dir: str) -> str:
    import os

    from ..micromouse import PROFILES

    if name not in PROFILES and (name.endswith(".toml") or os.sep in name):
        return str(Path(base_dir) / name)
    return name


def row_python(row: dict) -> list[str]:
    """Python lines that re-create ``row`` through the sweep's own runner, from
    its stored spec (every key, so nothing can be left out), and print what
    a row compares."""
    from .rerun import row_scenario

    sc = row_scenario(row)
    d = {"spec": sc.spec, "id": sc.id, "base_dir": sc.base_dir, "sweep": sc.sweep}
    lines = ["from robomaze.bench.run import run_scenario"]
    if sc.spec.get("plugins"):
        lines.append("# run_scenario imports the row's plugins: run this only if you trust them")
    shown = ("'soc'", "'makespan'") if sc.kind == "mapf" else ("'length_m'", "'min_clearance'")
    lines += [f"row = run_scenario({d!r})",
              "print(row['outcome'], " + ", ".join(f"row['metrics'].get({k})" for k in shown)
              + ")"]
    return lines


def _world_python(row: dict) -> list[str]:
    """The world alone, and the method called directly (planner and agent rows)."""
    from ..world import WorldSpec
    from .rerun import _takes_rng, row_scenario

    sc = row_scenario(row)
    spec, run = sc.spec, sc.spec["run"]
    world = WorldSpec.from_scenario(sc)
    wd = dict(world.to_dict(), base_dir=row.get("base_dir") or world.base_dir)
    lines = ["from robomaze.world import WorldSpec",
             f"world = WorldSpec.from_dict({wd!r}).build()"]
    if sc.kind == "simulate":
        robot = spec["robot"]
        opts = "".join(f", {k}={v!r}" for k, v in sorted(run["options"].items()))
        where = (", start=world.start, goal=world.goal"
                 if world.grid or world.start or world.goal else "")
        lines += ["from robomaze.sim import simulate",
                  f"result = simulate(world.grid, footprint=world.footprint, "
                  f"agent={run['agent']!r}, sensor={robot['sensor']!r}, "
                  f"max_steps={run['max_steps']}, dt={float(run['dt'])!r}, "
                  f"rng=world.rng('method'), noise={robot.get('noise')!r}, "
                  f"odometry_noise={robot.get('odometry_noise')!r}, "
                  f"localize={robot.get('localize') or 'none'!r}{where}{opts})",
                  "print(result.success, repr(result.metrics['length']))"]
    elif sc.kind == "plan":
        opts = ", ".join(f"{k}={v!r}" for k, v in sorted(run["options"].items()))
        if "rng" not in run["options"] and _takes_rng(run["planner"]):
            opts = ", ".join(filter(None, [opts, "rng=world.rng('method')"]))
        lines += ["from robomaze.plan import plan",
                  f"path = plan(world.grid, world.start, world.goal, method={run['planner']!r}, "
                  f"footprint=world.footprint, connectivity={run['connectivity']}"
                  + (f", {opts}" if opts else "") + ")",
                  "print(repr(path.length))"]
    elif sc.kind == "mouse":
        opts = "".join(f", {k}={v!r}" for k, v in sorted(run["options"].items()))
        prof = _profile_path(run.get("profile") or "kerikun", sc.base_dir)
        if run["mouse"] in ("floodfill", "floodfill_time") and "profile" not in run["options"]:
            opts += f", profile=get_profile({prof!r})"
        lines += ["from robomaze.micromouse import get_profile, solve",
                  f"run = solve(world.maze, method={run['mouse']!r}{opts})",
                  "print(run.success, run.route_length)"]
    elif sc.kind == "mapf":
        from .mapf import DEFAULT_WORK, _body, method_seed

        # the agents plan on the bare widened grid (a body is cells, not a footprint)
        lines[1] = f"world = WorldSpec.from_dict({dict(wd, footprint=None)!r}).build()"
        opts = dict(run.get("options") or {})
        work = int(opts.pop("max_work", None) or run.get("max_work") or DEFAULT_WORK)
        kw = "".join(f", {k}={v!r}" for k, v in sorted(opts.items()))
        lines += ["from robomaze.mapf import SOLVERS, random_instance",
                  f"inst = random_instance(world.grid.occupied, {int(run.get('agents') or 10)}, "
                  f"seed={spec['seed']}, bucket={run.get('bucket') or 'random'!r}, "
                  f"size={_body(spec)})",
                  f"res = SOLVERS.lookup({run['mapf']!r})(inst, max_work={work}, "
                  f"seed={method_seed(spec['seed'])}{kw})",
                  "print(res.outcome, res.soc, res.makespan)"]
    return lines


def show_row(row: dict) -> str:
    """The CLI command and the Python lines that re-create a row."""
    lines = [f"# row {row['id']}: {row.get('kind')} {row.get('method')} "
             f"(outcome {row.get('outcome', row.get('status'))})"]
    plugins = (row.get("scenario") or {}).get("plugins") or []
    try:
        cmds = row_command(row)
    except ParameterError as exc:
        lines += ["", f"# no command re-creates this row: {exc}"]
    else:
        lines += ["", "# shell"]
        if plugins:
            lines.append(f"# (needs the sweep's plugins {', '.join(plugins)}: the commands "
                         "do not import plugins; use the Python lines or bench rerun "
                         "--plugins)")
        lines += [" ".join(c) for c in cmds]
    lines += ["", "# Python: the row itself, through the sweep's runner", *row_python(row)]
    lines += ["", "# Python: the world and the method, step by step", *_world_python(row)]
    lines += ["# or the whole row, checked field by field:",
              f"# robomaze bench rerun DIR {row['id']}"
              + "".join(f" --plugins {shlex.quote(p)}" for p in plugins)]
    m = row.get("metrics") or {}
    stored = {k: m.get(k) for k in ("length_m", "min_clearance", "route_length", "soc", "makespan")
              if m.get(k) is not None}
    if stored:
        lines += ["", "# stored: " + ", ".join(f"{k} {v!r}" for k, v in stored.items())]
    return "\n".join(lines)
