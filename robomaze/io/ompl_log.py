"""OMPL benchmark logs of a sweep's rows, for Planner Arena.

The layout is the one ``ompl::tools::Benchmark`` writes and OMPL's own
``ompl_benchmark_statistics.py`` (shipped in the ``ompl`` wheel as
``ompl/ompl_benchmark_statistics.py`` and the ``ompl_benchmark_statistics``
script) turns into the SQLite database Planner Arena reads. One log per
(widening level, footprint) experiment; every planner or agent is a
"planner" whose runs carry the properties in :data:`PROPERTIES`.

``status`` is an ``ENUM`` with OMPL's own codes and names
(:data:`STATUS_NAMES`, ``ompl::base::PlannerStatus``), declared in the
log's enum block as OMPL does, so Planner Arena shows "Exact solution"
rather than "Unknown status":

* a solved run: 6 (exact solution);
* a sampling planner that ran out of budget: 4 (timeout), or 5
  (approximate solution) when OMPL said so;
* a grid planner that proved there is no path, or an agent that found
  none: 9 (infeasible); the robot does not fit at the start / goal: 1 / 2
  (invalid start / goal);
* an agent stopped by the step or time limit, or a run that hit the
  sweep's time limit: 4 (timeout); a run stopped on a collision or whose
  path collides: 8 (abort); a run that raised: 7 (crash).

A run with ``solved = 0`` carries no length, ratio or clearance (empty
values, NULL in the database).

Anytime progress: a row may carry ``progress`` (what the OMPL planners
return as ``Path.stats["progress"]``: ``{"properties": ["time REAL", "best
cost REAL", "validity checks INTEGER"], "samples": [[t, cost, checks],
...]}``, a sample at every improvement of the best cost). A planner with
progress in any of its runs gets OMPL's progress block after its runs --
``N progress properties``, one ``name TYPE`` line each, ``M runs``, then
per run its samples as ``v1,v2,v3,;`` -- which ``ompl_benchmark_statistics.py``
loads into its ``progress`` table (primary key: run and time, so a run's
sample times are kept strictly increasing). :func:`read_progress` reads
the block back with the script's own parsing rules.
"""

from __future__ import annotations

import datetime as _dt
import math
import os
import socket
from collections import defaultdict
from pathlib import Path

from .._validate import safe_name

__all__ = ["write_ompl_logs", "ompl_status", "read_progress", "STATUS_NAMES", "PROPERTIES",
           "PROGRESS_PROPERTIES"]

#: ``ompl::base::PlannerStatus`` names by code (``PlannerStatus::asString``).
STATUS_NAMES = ("Unknown status", "Invalid start", "Invalid goal", "Unrecognized goal type",
                "Timeout", "Approximate solution", "Exact solution", "Crash", "Abort",
                "Infeasible")

# properties that describe a solution and are left empty when solved = 0
_SOLUTION_ONLY = {"solution length", "length ratio", "min clearance", "mean clearance",
                  "collisions", "time in danger", "best cost"}


def ompl_status(row: dict) -> int:
    """OMPL's ``PlannerStatus`` code for a result row (see the module docstring).

    >>> ompl_status({"status": "ok", "success": True, "metrics": {}})
    6
    >>> ompl_status({"status": "ok", "success": False, "reason": "no collision-free path: "
    ...              "ompl timeout", "metrics": {}})
    4
    >>> ompl_status({"status": "error", "success": False, "metrics": {}})
    7
    >>> ompl_status({"status": "ok", "success": False, "metrics": {},
    ...              "reason": "no collision-free path: corridor narrower than robot"})
    9
    """
    if row.get("status") == "error":
        return 7
    if row.get("status") in ("timeout", "infra_timeout") or row.get("outcome") == "budget":
        return 4
    if row.get("success"):
        return 6
    code = (row.get("metrics") or {}).get("ompl_status")
    if code is not None:
        return int(code)
    reason = str(row.get("reason") or "")
    for text, code in (("ompl approximate", 5), ("ompl timeout", 4), ("ompl ", 4),
                       ("start blocked", 1), ("does not fit at the start", 1),
                       ("goal blocked", 2), ("no collision-free path", 9),
                       ("step limit", 4), ("time limit", 4), ("stopped on a collision", 8),
                       ("collides", 8), ("did not reach", 4)):
        if text in reason:
            return code
    return 0


#: (name, type, value of a row) of every run property.
PROPERTIES = (
    ("time", "REAL", lambda r: r.get("timings", {}).get("compute_s")),
    ("solved", "BOOLEAN", lambda r: int(bool(r.get("success")))),
    ("status", "ENUM", ompl_status),
    ("solution length", "REAL", lambda r: r["metrics"].get("length_m")),
    ("length ratio", "REAL", lambda r: r["metrics"].get("length_ratio")),
    ("min clearance", "REAL", lambda r: r["metrics"].get("min_clearance")),
    ("mean clearance", "REAL", lambda r: r["metrics"].get("mean_clearance")),
    ("collisions", "INTEGER", lambda r: r["metrics"].get("collisions")),
    ("time in danger", "REAL", lambda r: r["metrics"].get("danger_fraction")),
    ("time to first solution", "REAL", lambda r: r["metrics"].get("first_solution_s")),
    ("validity checks", "INTEGER", lambda r: r["metrics"].get("validity_checks")),
    # reproducible (work, not time): same seed and budget, same values
    ("validity checks to first solution", "INTEGER",
     lambda r: r["metrics"].get("first_solution_checks")),
    ("best cost", "REAL", lambda r: r["metrics"].get("best_cost")),
    ("seed", "INTEGER", lambda r: r.get("seed")),
)


#: (name, type) of each progress column (``robomaze.plan.sampling.PROGRESS_PROPERTIES``).
PROGRESS_PROPERTIES = (("time", "REAL"), ("best cost", "REAL"), ("validity checks", "INTEGER"))


def _progress_samples(r: dict) -> list[list]:
    """A row's progress samples with strictly increasing times (the last of equal times)."""
    prog = r.get("progress")
    samples = prog.get("samples", []) if isinstance(prog, dict) else (prog or [])
    out: list[list] = []
    for s in samples:
        if len(s) != len(PROGRESS_PROPERTIES) or s[0] is None:
            continue
        if out and float(s[0]) <= float(out[-1][0]):
            if float(s[0]) == float(out[-1][0]):
                out[-1] = list(s)
            continue
        out.append(list(s))
    return out


def _progress_line(r: dict) -> str:
    """One run's samples: ``t,cost,checks,;`` per sample (OMPL's layout)."""
    return "".join("".join(f"{_value(v)}," for v in s) + ";" for s in _progress_samples(r))


def read_progress(path: str | os.PathLike) -> dict[str, list[list[list[str]]]]:
    """Progress samples per planner of a log, parsed as ``ompl_benchmark_statistics.py`` does.

    Returns planner name -> one list per run of samples, each sample the
    list of its value strings. Lines are split exactly as the script
    splits them (runs on ``"; "``, samples on ``";"``, values on ``","``,
    dropping the piece after the last separator).

    >>> import tempfile, pathlib
    >>> rows = [{"id": "a", "kind": "plan", "method": "ompl:rrtstar", "corridor": 5,
    ...          "wall": 1, "resolution": 0.1, "footprint": "disc:0.1", "seed": 1,
    ...          "success": True, "metrics": {}, "timings": {"compute_s": 0.2},
    ...          "scenario": {"run": {"time_limit": 60.0}},
    ...          "progress": {"samples": [[0.01, 2.5, 300], [0.05, 2.25, 1200]]}}]
    >>> log = write_ompl_logs(rows, tempfile.mkdtemp())["corridor5_disc-0.1"]
    >>> read_progress(log)
    {'plan_ompl:rrtstar': [[['0.01', '2.5', '300'], ['0.05', '2.25', '1200']]]}
    """
    lines = Path(path).read_text(encoding="utf-8").split("\n")
    out: dict[str, list] = {}
    i = next(k for k, ln in enumerate(lines) if ln.split()[-1:] == ["planners"]) + 1
    for _ in range(int(lines[i - 1].split()[0])):
        name = lines[i]
        i += 1
        i += 1 + int(lines[i].split()[0])             # common properties
        i += 1 + int(lines[i].split()[0])             # run property names
        nruns = int(lines[i].split()[0])
        i += 1 + nruns
        if lines[i].strip() == ".":
            i += 1
            continue
        i += 1 + int(lines[i].split()[0])             # progress property names
        nprog = int(lines[i].split()[0])
        i += 1
        out[name] = [[sample.split(",")[:-1] for sample in lines[i + j].split(";")[:-1]]
                     for j in range(nprog)]
        i += nprog + 1                                # the samples and "."
    return out


def _value(v) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return str(int(v))
    if isinstance(v, float):
        return repr(v) if math.isfinite(v) else ""
    return str(v)


def _run_line(r: dict) -> str:
    solved = bool(r.get("success"))
    vals = ("" if (name in _SOLUTION_ONLY and not solved) else _value(f(r))
            for name, _, f in PROPERTIES)
    return "".join(f"{v}; " for v in vals)


def write_ompl_logs(rows: list[dict], out: str | os.PathLike) -> dict[str, Path]:
    """Write one OMPL benchmark log per (corridor, footprint) experiment into ``out``.

    Experiment properties carry the widening level (``corridor``, ``wall``,
    ``resolution``) and the footprint. Returns the paths written by name.
    """
    out = Path(out)
    groups: dict[tuple, list] = defaultdict(list)
    for r in rows:
        groups[(r["corridor"], r["footprint"])].append(r)
    written = {}
    if groups:
        out.mkdir(parents=True, exist_ok=True)
    from .. import __version__

    host = socket.gethostname() or "localhost"
    for (corridor, footprint), g in sorted(groups.items()):
        first = g[0]
        by_method: dict[str, list] = defaultdict(list)
        for r in sorted(g, key=lambda r: r["id"]):
            by_method[f"{r['kind']}_{r['method']}"].append(r)
        safe_fp = footprint.replace(":", "-").replace(",", "_").replace(";", "_").replace("@", "_")
        name = safe_name(f"corridor{corridor}_{safe_fp}")  # data never walks out of out/
        lines = [f"robomaze version {__version__}",
                 f"Experiment robomaze_{name}",
                 "4 experiment properties",
                 f"corridor INTEGER = {corridor}",
                 f"wall INTEGER = {first['wall']}",
                 f"resolution REAL = {first['resolution']!r}",
                 f"footprint TEXT = {footprint}",
                 f"Running on {host}",
                 f"Starting at {_dt.datetime.now().strftime('%Y-%m-%d %H:%M:%S')}",
                 "<<<|",
                 f"robomaze sweep {first.get('sweep', '')}: widening corridor={corridor} "
                 f"wall={first['wall']}, footprint {footprint}",
                 "|>>>",
                 "<<<|",
                 f"{first.get('provenance', {}).get('platform', '')}",
                 "|>>>",
                 f"{min(int(r.get('seed') or 0) for r in g)} is the random seed",
                 f"{max(float(r['scenario']['run']['time_limit']) for r in g)!r} seconds per run",
                 "0 MB per run",
                 f"{max(len(v) for v in by_method.values())} runs per planner",
                 f"{sum(float(r.get('timings', {}).get('total_s') or 0) for r in g)!r} "
                 "seconds spent to collect the data",
                 "1 enum type",
                 "status|" + "|".join(STATUS_NAMES),
                 f"{len(by_method)} planners"]
        for method, runs in sorted(by_method.items()):
            lines.append(method)
            # the planner's declared parameters (row "params", as OMPL's
            # Benchmark writes planner.params()): one "name = value" line each
            common = next((r["params"] for r in runs if isinstance(r.get("params"), dict)), {})
            lines.append(f"{len(common)} common properties")
            lines.extend(f"{k} = {_value(v)}" for k, v in sorted(common.items()))
            lines.append(f"{len(PROPERTIES)} properties for each run")
            lines.extend(f"{n} {t}" for n, t, _ in PROPERTIES)
            lines.append(f"{len(runs)} runs")
            lines.extend(_run_line(r) for r in runs)
            if any(_progress_samples(r) for r in runs):
                lines.append(f"{len(PROGRESS_PROPERTIES)} progress properties")
                lines.extend(f"{n} {t}" for n, t in PROGRESS_PROPERTIES)
                lines.append(f"{len(runs)} runs")
                lines.extend(_progress_line(r) for r in runs)
            lines.append(".")
        p = out / f"{name}.log"
        p.write_text("\n".join(lines) + "\n", encoding="utf-8")
        written[name] = p
    return written
