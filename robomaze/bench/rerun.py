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

__all__ = ["find_row", "row_scenario", "rerun", "rerun_row", "show_row", "row_differences",
           "row_plugins", "missing_plugins", "check_plugins", "RERUN_REL_TOL"]

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
    # the world the row names must be the world re-created (rows before the
    # world was stored have none to check)
    if stored.get("world") is not None and stored["world"] != new.get("world"):
        out.append(("world", "(stored world)", "(a different world)"))
    return out


def row_plugins(row: dict) -> list[str]:
    """The plugins a row's scenario names (its sweep's ``plugins = [...]``)."""
    spec = row.get("scenario")
    names = spec.get("plugins") if isinstance(spec, dict) else None
    return [str(n) for n in names] if isinstance(names, list) else []


def missing_plugins(row: dict, given=()) -> list[str]:
    """The plugins ``row`` names that the user did not pass again.

    A results folder is data: robomaze never imports the code it names. A
    plugin counts as given when ``given`` (``--plugins``) or
    ``$ROBOMAZE_PLUGINS`` lists the same module, or a ``.py`` file of the
    same name.

    >>> row = {"scenario": {"plugins": ["mine.py", "pkg.planners"]}}
    >>> missing_plugins(row, ["../elsewhere/mine.py"])
    ['pkg.planners']
    """
    from pathlib import PurePath

    from .plugins import env_plugins

    have = [str(g) for g in given] + env_plugins()
    names = {PurePath(g).name if g.endswith(".py") else g for g in have}
    return [n for n in row_plugins(row)
            if (PurePath(n).name if n.endswith(".py") else n) not in names]


def plugins_message(missing, rows: int = 1) -> str:
    """One line: which plugins are missing and how to pass them.

    >>> plugins_message(["hang.py"], 2)
    '2 row(s) name plugin(s) hang.py; robomaze imports no code a results folder names: pass them again (--plugins hang.py, or $ROBOMAZE_PLUGINS) to re-run them'
    """
    names = sorted(set(missing))
    flags = " ".join(f"--plugins {shlex.quote(n)}" for n in names)
    return (f"{rows} row(s) name plugin(s) {', '.join(names)}; robomaze imports no code a "
            f"results folder names: pass them again ({flags}, or $ROBOMAZE_PLUGINS) to re-run "
            "them")


def check_plugins(row: dict, given=()) -> None:
    """Refuse (one line) to re-run a row whose plugins the user did not pass again."""
    missing = missing_plugins(row, given)
    if missing:
        raise ParameterError(f"rerun {row.get('id')}: " + plugins_message(missing))


def rerun(row: dict, *, plugins=(), reference: float | None = None,
          wall_limit: float | None = None):
    """Re-run a row in a fresh, warmed process (:func:`robomaze.bench.reexec.reexec`).

    ``reference`` is the run time the CPU budget scales from (default: the
    row's own); ``plugins`` the ones the user passed again (see
    :func:`check_plugins`, called first). Returns the
    :class:`~robomaze.bench.reexec.Reexec`.
    """
    from .reexec import budget, reexec, reference_time

    check_plugins(row, plugins)
    d = row_scenario(row).to_dict()
    ref = reference if reference is not None else reference_time(row)
    cpu, wall = budget(ref, float(d["spec"]["run"]["time_limit"]))
    if wall_limit is not None:
        wall = float(wall_limit)
    return reexec(d, plugins=plugins, cpu_budget=cpu, wall_limit=wall)


def rerun_row(row: dict, *, plugins=(), time_limit: float | None = None) -> dict:
    """Run a row's scenario again (warm, in a fresh process) and return the new row.

    A re-run the safety net stopped (:func:`rerun`) is an ``infra_timeout``
    row whose ``reason`` says whether it hung or the machine starved it;
    ``time_limit`` replaces the re-run's wall limit. Plugins the row names
    are imported only when given again in ``plugins``.
    """
    from .run import failed_row

    r = rerun(row, plugins=plugins, wall_limit=time_limit)
    if r.row is not None:
        return r.row
    out = failed_row(row_scenario(row), "infra_timeout",
                     f"re-run stopped ({r.verdict}): {r.why}", elapsed=r.wall_s)
    out["scenario"] = row["scenario"]
    return out


def show_row(row: dict) -> str:
    """The CLI command and the Python lines that re-create a row
    (:func:`robomaze.bench.recreate.show_row`)."""
    from .recreate import show_row as show

    return show(row)


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

