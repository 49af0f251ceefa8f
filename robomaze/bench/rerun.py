"""Re-create a result row: the command that re-runs it, and the re-run itself.

A row stores its whole scenario, so it can be re-run anywhere:
:func:`show_row` gives the CLI command and the Python lines that re-create
it (the world through :class:`robomaze.world.WorldSpec`, the one seed rule),
and :func:`rerun_row` runs it again in this process and lists every
deterministic field that differs.
"""

from __future__ import annotations

import shlex
from ..errors import ParameterError, RecordFormatError
from .run import DETERMINISTIC_METRICS, local_base_dir
from .scenario import Scenario

__all__ = ["find_row", "row_scenario", "rerun_row", "show_row", "row_differences",
           "RERUN_REL_TOL"]

#: Relative tolerance of a re-run's floats: the same code and seed give the
#: same bits on one machine; other CPUs may round the last digits differently.
RERUN_REL_TOL = 1e-9


def find_row(directory, row_id: str) -> dict:
    """The row ``row_id`` of a results directory (or ``.jsonl`` file)."""
    from .compare import load_rows

    rows = {r["id"]: r for r in load_rows(directory, "results")}
    if row_id not in rows:
        close = sorted(i for i in rows if i.startswith(row_id[:4]))[:5]
        raise ParameterError(f"no row {row_id!r} in {directory}"
                             + (f"; rows starting alike: {', '.join(close)}" if close else ""))
    return rows[row_id]


def row_scenario(row: dict) -> Scenario:
    """The scenario a row was run from (its files resolved on this machine)."""
    spec = row.get("scenario")
    if not isinstance(spec, dict):
        raise RecordFormatError(f"row {row.get('id')!r} stores no scenario; it cannot be re-run")
    return Scenario(spec=spec, id=row["id"], base_dir=local_base_dir(row.get("base_dir") or "."),
                    sweep=str(row.get("sweep") or ""))


def row_differences(stored: dict, new: dict, *, rel_tol: float = RERUN_REL_TOL) -> list:
    """``(field, stored, new)`` for every deterministic field that differs."""
    from .compare import _same

    out = []
    for key in ("status", "outcome", "success"):
        if key in stored and stored.get(key) != new.get(key):
            out.append((key, stored.get(key), new.get(key)))
    ma, mb = stored.get("metrics") or {}, new.get("metrics") or {}
    for key in DETERMINISTIC_METRICS:
        if (key in ma or key in mb) and not _same(ma.get(key), mb.get(key), rel_tol, 1e-12):
            out.append((f"metrics.{key}", ma.get(key), mb.get(key)))
    if stored.get("poses") is not None and stored.get("poses") != new.get("poses"):
        out.append(("poses", "(stored path)", "(a different path)"))
    return out


def rerun_row(row: dict, *, safety_net: bool = True, time_limit: float | None = None) -> dict:
    """Run a row's scenario again in this process and return the new row.

    ``safety_net`` keeps the wall-clock safety net (an ``infra_timeout`` row
    when it fires) as in a sweep; ``time_limit`` replaces the row's own
    limit (seconds; it is not part of the run's id, and decides no result).
    """
    from .runner import execute

    d = row_scenario(row).to_dict()
    if time_limit is not None:
        d["spec"]["run"]["time_limit"] = float(time_limit)
    return execute(d, soft_timeout=safety_net)


def show_row(row: dict) -> str:
    """The CLI command and the Python lines that re-create a row."""
    from ..world import WorldSpec

    sc = row_scenario(row)
    spec = sc.spec
    world = WorldSpec.from_scenario(sc)
    run = spec["run"]
    lines = [f"# row {row['id']}: {row.get('kind')} {row.get('method')} "
             f"(outcome {row.get('outcome', row.get('status'))})"]
    cmd = None
    if sc.kind == "plan" and not world.options:
        cmd = ["robomaze", "plan", *world.cli_source(), "--method", shlex.quote(run["planner"]),
               "--connectivity", str(run["connectivity"])]
        if world.grid:
            cmd += ["--start", "{},{}".format(*world.start), "--goal", "{},{}".format(*world.goal)]
        for k, v in sorted(run["options"].items()):
            cmd += ["--option", shlex.quote(f"{k}={v}")]
        cmd += ["--json"]
    elif sc.kind == "simulate" and not world.options:
        cmd = ["robomaze", "simulate", *world.cli_source(), "--agent", shlex.quote(run["agent"]),
               "--sensor", shlex.quote(str(spec["robot"]["sensor"])),
               "--max-steps", str(run["max_steps"]), "--dt", repr(float(run["dt"]))]
        if world.grid or world.start or world.goal:
            w = world.build()
            cmd += ["--start", "{},{}".format(*w.start), "--goal", "{},{}".format(*w.goal)]
        for flag, key in (("--noise", "noise"), ("--odometry-noise", "odometry_noise")):
            if spec["robot"].get(key):
                cmd += [flag, shlex.quote(str(spec["robot"][key]))]
        for k, v in sorted(run["options"].items()):
            cmd += ["--option", shlex.quote(f"{k}={v}")]
        cmd += ["--json"]
    if cmd:
        lines += ["", "# shell", " ".join(cmd)]
    wd = dict(world.to_dict(), base_dir=row.get("base_dir") or world.base_dir)
    lines += ["", "# Python", "from robomaze.world import WorldSpec",
              f"world = WorldSpec.from_dict({wd!r}).build()"]
    if sc.kind == "simulate":
        opts = "".join(f", {k}={v!r}" for k, v in sorted(run["options"].items()))
        where = (", start=world.start, goal=world.goal"
                 if world.grid or world.start or world.goal else "")
        lines += ["from robomaze.sim import simulate",
                  f"result = simulate(world.grid, footprint=world.footprint, "
                  f"agent={run['agent']!r}, sensor={spec['robot']['sensor']!r}, "
                  f"max_steps={run['max_steps']}, dt={float(run['dt'])!r}, "
                  f"rng=world.rng('method'), noise={spec['robot'].get('noise')!r}, "
                  f"odometry_noise={spec['robot'].get('odometry_noise')!r}{where}{opts})",
                  "print(repr(result.metrics['length']))"]
    if sc.kind == "plan":
        opts = ", ".join(f"{k}={v!r}" for k, v in sorted(run["options"].items()))
        if "rng" not in run["options"] and _takes_rng(run["planner"]):
            opts = ", ".join(filter(None, [opts, "rng=world.rng('method')"]))
        lines += ["from robomaze.plan import plan",
                  f"path = plan(world.grid, world.start, world.goal, method={run['planner']!r}, "
                  f"footprint=world.footprint, connectivity={run['connectivity']}"
                  + (f", {opts}" if opts else "") + ")",
                  "print(repr(path.length))"]
    lines += ["# or the whole row, checked field by field:",
              f"# robomaze bench rerun DIR {row['id']}"]
    length = (row.get("metrics") or {}).get("length_m")
    if length is not None:
        lines += ["", f"# stored length_m: {length!r}"]
    return "\n".join(lines)


def _takes_rng(planner: str) -> bool:
    from .run import _accepts
    from ..plan import PLANNERS

    fn = PLANNERS.get(planner)
    return fn is not None and _accepts(fn, "rng")


def describe_differences(diffs: list) -> str:
    """One line per differing field."""
    return "\n".join(f"  {k:28} stored {_fmt(a):>22}  re-run {_fmt(b):>22}" for k, a, b in diffs)


def _fmt(v) -> str:
    return f"{v!r}" if isinstance(v, float) else str(v)

