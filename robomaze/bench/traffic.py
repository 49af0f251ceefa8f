"""The ``traffic`` run kind: sweeps of multi-robot worlds, their rows, report and reruns.

A traffic sweep is a TOML file with ``kind = "traffic"``; every list is an
axis and the sweep is their product::

    kind = "traffic"
    name = "traffic"
    seed = [0, 1, 2]

    [maze]                      # as in every sweep (generator + rows/cols, or file)
    generator = "kruskal"
    rows = 3
    cols = 3

    [widen]
    corridor = [12, 13, 16, 20]       # grid cells across a corridor
    wall = 2
    resolution = 0.05

    [robots]
    count = [1, 2, 4, 8]              # robots.count
    footprint = "disc:0.2"
    kinematics = "differential"       # differential | car | omni
    beams = 32

    [obstacles]
    count = [0, 2]                    # obstacles.count
    speed = [0.5]                     # obstacles.speed (m/s)
    behaviour = ["pedestrian"]        # obstacles.behaviour: waypoints | wander | pedestrian
    shape = "disc:0.25"

    [run]
    assignment = ["swap", "random", "one_goal"]
    agent = "follow_plan"
    dt = 0.1
    max_steps = 2000
    stall_time = 10.0

Rows go to ``DIR/traffic.jsonl`` (one JSON object a line: ``id``,
``kind = "traffic"``, the axes, the full :class:`~robomaze.traffic.TrafficSpec`
as ``spec``, ``outcome``, run ``metrics``, per-robot ``robots``, the CPU
``compute_s``); :func:`rerun_row` runs a row's spec again and
:func:`row_differences` lists what differs (nothing: the rows reproduce).
:func:`write_report` writes ``report.md`` and the figure that answers the
question: success and minimum inter-robot clearance against corridor
width, in metres and in robot widths, one line per robot count (success
with Wilson 95 % intervals, clearance as median and interquartile range
over the seeds and other axes).

>>> sweep = parse_traffic_sweep({"kind": "traffic", "seed": [0, 1],
...     "maze": {"generator": "kruskal", "rows": 1, "cols": 3},
...     "widen": {"corridor": [10, 14], "resolution": 0.1},
...     "robots": {"count": [1, 2], "footprint": "disc:0.2"}})
>>> len(sweep), sorted(sweep[0]["axes"])
(8, ['corridor', 'obstacles.behaviour', 'obstacles.count', 'obstacles.speed', 'robots.count', 'run.assignment', 'seed'])
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import os
import time
from pathlib import Path

import numpy as np

from ..errors import ParameterError, ScenarioError

__all__ = ["is_traffic_sweep", "load_traffic_sweep", "parse_traffic_sweep", "run_traffic_sweep",
           "run_row", "rerun_row", "row_differences", "read_rows", "write_report",
           "ROWS_FILE", "FIGURE"]

ROWS_FILE = "traffic.jsonl"
FIGURE = "traffic_corridor.png"
_SECTIONS = {"maze": {"generator", "rows", "cols", "braid", "placement", "file"},
             "widen": {"corridor", "wall", "resolution"},
             "robots": {"count", "footprint", "kinematics", "v_max", "beams", "sensor", "noise"},
             "obstacles": {"count", "speed", "behaviour", "shape"},
             "run": {"assignment", "agent", "dt", "max_steps", "stall_time", "orca"}}
#: Keys whose list values are sweep axes (``name`` in rows -> where it lives).
_AXES = {"seed": ("", "seed"), "corridor": ("widen", "corridor"),
         "robots.count": ("robots", "count"), "obstacles.count": ("obstacles", "count"),
         "obstacles.speed": ("obstacles", "speed"),
         "obstacles.behaviour": ("obstacles", "behaviour"),
         "run.assignment": ("run", "assignment")}


def is_traffic_sweep(path) -> bool:
    """Whether the TOML file at ``path`` declares ``kind = "traffic"`` (False if unreadable)."""
    from .. import _readfile

    # the guarded reader: a FIFO, a device or a bomb is refused, not read
    try:
        return _readfile.load_toml(path, ScenarioError).get("kind") == "traffic"
    except ScenarioError:
        return False


def load_traffic_sweep(path) -> list[dict]:
    """The rows-to-run of a traffic sweep file (see the module docstring)."""
    from ..data import PREFIX, resolve

    p = resolve(str(path)) if str(path).startswith(PREFIX) else Path(path)
    from .. import _readfile

    data = _readfile.load_toml(p, ScenarioError, expected="a UTF-8 TOML sweep file")
    return parse_traffic_sweep(data, source=str(path))


def _listed(v):
    return v if isinstance(v, list) else [v]


def parse_traffic_sweep(data: dict, *, source: str = "<sweep>") -> list[dict]:
    """Expand a traffic sweep table into rows ``{"id", "axes", "spec"}`` (specs as dicts)."""
    from ..traffic import ObstacleSpec, OrcaParams, RobotSpec, TrafficSpec
    from ..world import WorldSpec

    if data.get("kind") != "traffic":
        raise ScenarioError(f"{source}: kind must be \"traffic\", got {data.get('kind')!r}")
    for sec, table in data.items():
        if sec in ("kind", "name", "description", "seed"):
            continue
        if sec not in _SECTIONS:
            raise ScenarioError(f"{source}: unknown table [{sec}]; expected "
                                f"{', '.join(sorted(_SECTIONS))}")
        bad = sorted(set(table) - _SECTIONS[sec])
        if bad:
            raise ScenarioError(f"{source}: unknown key(s) {', '.join(f'{sec}.{b}' for b in bad)}; "
                                f"expected {', '.join(sorted(_SECTIONS[sec]))}")
    mz = data.get("maze", {})
    wd = data.get("widen", {})
    rb = data.get("robots", {})
    ob = data.get("obstacles", {})
    rn = data.get("run", {})
    axes = {
        "seed": _listed(data.get("seed", 0)),
        "corridor": _listed(wd.get("corridor", 10)),
        "robots.count": _listed(rb.get("count", 2)),
        "obstacles.count": _listed(ob.get("count", 0)),
        "obstacles.speed": _listed(ob.get("speed", 0.5)),
        "obstacles.behaviour": _listed(ob.get("behaviour", "pedestrian")),
        "run.assignment": _listed(rn.get("assignment", "swap")),
    }
    for k, v in axes.items():
        if not v:
            raise ScenarioError(f"{source}: {k} must be a non-empty list")
    rows = []
    names = list(axes)
    for combo in itertools.product(*axes.values()):
        a = dict(zip(names, combo))
        try:
            world = WorldSpec(generator=mz.get("generator"), rows=mz.get("rows"),
                              cols=mz.get("cols"), file=mz.get("file"),
                              braid=float(mz.get("braid", 0.0)),
                              placement=mz.get("placement", "corners"),
                              corridor=int(a["corridor"]), wall=int(wd.get("wall", 1)),
                              resolution=float(wd.get("resolution", 0.1)), seed=a["seed"],
                              base_dir="pkg:scenarios" if source.startswith("pkg:") else
                              str(Path(source).parent))
            robot = RobotSpec(footprint=rb.get("footprint", "disc:0.2"),
                              kinematics=rb.get("kinematics", "differential"),
                              v_max=float(rb.get("v_max", 0.5)), beams=rb.get("beams", 64),
                              sensor=rb.get("sensor", "lidar"), noise=rb.get("noise"))
            n_obs = int(a["obstacles.count"])
            obst = [ObstacleSpec(shape=ob.get("shape", "disc:0.25"))] if n_obs else []
            spec = TrafficSpec(world=world, robots=robot, count=int(a["robots.count"]),
                               assignment=a["run.assignment"], obstacles=obst,
                               obstacle_count=n_obs or None,
                               obstacle_speed=float(a["obstacles.speed"]) if n_obs else None,
                               obstacle_behaviour=a["obstacles.behaviour"] if n_obs else None,
                               agent=rn.get("agent", "follow_plan"),
                               orca=OrcaParams(**rn.get("orca", {})),
                               dt=float(rn.get("dt", 0.1)),
                               max_steps=int(rn.get("max_steps", 2000)),
                               stall_time=float(rn.get("stall_time", 10.0)))
        except (ParameterError, TypeError, ValueError) as e:
            raise ScenarioError(f"{source}: row {a}: {e}") from None
        d = spec.to_dict()
        rid = hashlib.sha256(json.dumps(d, sort_keys=True).encode()).hexdigest()[:12]
        rows.append({"id": rid, "axes": a, "spec": d})
    return rows


def run_row(row: dict) -> dict:
    """Run one sweep row; the stored row (metrics, per-robot metrics, outcome, CPU time)."""
    from ..traffic import run_traffic

    t0 = time.thread_time()
    try:
        res = run_traffic(row["spec"])
    except ParameterError as e:
        return {**row, "kind": "traffic", "world": _world(row), "status": "error",
                "outcome": "error",
                "error": str(e), "metrics": {}, "robots": [],
                "compute_s": time.thread_time() - t0}
    return {**row, "kind": "traffic", "world": _world(row), "status": "ok",
            "outcome": res.outcome,
            "metrics": res.metrics, "robots": res.robots,
            "width_m": row["spec"]["world"]["corridor"] * row["spec"]["world"]["resolution"],
            "robot_width_m": 2.0 * float(res.world.bodies.rc[: res.world.n_robots].max()),
            "compute_s": time.thread_time() - t0}


def _world(row: dict) -> dict | None:
    """The row's world, stored as every row kind stores it
    (:meth:`robomaze.world.WorldSpec.portable`); the spec keeps its own
    (the row id hashes the spec)."""
    from ..world import WorldSpec

    try:
        return WorldSpec.from_dict(row["spec"]["world"]).portable().to_dict()
    except (ParameterError, KeyError, TypeError, ValueError):
        return None


def _json(row: dict) -> str:
    return json.dumps(row, sort_keys=True, default=float)


def read_rows(directory) -> list[dict]:
    """The rows stored in ``DIR/traffic.jsonl`` (the last one of each id)."""
    p = Path(directory) / ROWS_FILE
    if not p.is_file():
        raise ParameterError(f"{str(directory)!r} holds no {ROWS_FILE} (not a traffic sweep)")
    rows = {}
    for n, line in enumerate(p.read_text().splitlines(), 1):
        if line.strip():
            try:
                r = json.loads(line)
            except json.JSONDecodeError as e:
                raise ParameterError(f"{p}:{n}: not a JSON row ({e.msg})") from None
            rows[r["id"]] = r
    return list(rows.values())


def run_traffic_sweep(rows: list[dict], out, *, workers: int | None = None,
                      progress: bool = True, meta: dict | None = None) -> list[dict]:
    """Run every row not yet in ``out/traffic.jsonl`` (resumable); returns all rows."""
    import sys
    from concurrent.futures import ProcessPoolExecutor

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    done = {r["id"] for r in read_rows(out)} if (out / ROWS_FILE).is_file() else set()
    todo = [r for r in rows if r["id"] not in done]
    n = workers or min(2, os.cpu_count() or 1)
    with open(out / "sweep.json", "w") as f:
        json.dump({**(meta or {}), "kind": "traffic", "rows": len(rows),
                   "loadavg": list(os.getloadavg())}, f, indent=1)
    # the slowest rows (most robots, narrowest corridors) first: the pool ends together
    todo.sort(key=lambda r: (-r["axes"]["robots.count"], r["axes"]["corridor"]))
    with open(out / ROWS_FILE, "a") as f:
        if n <= 1 or len(todo) <= 1:
            results = map(run_row, todo)
            for k, r in enumerate(results, 1):
                f.write(_json(r) + "\n")
                f.flush()
                if progress:
                    print(f"\r  {k}/{len(todo)}", end="", file=sys.stderr)
        else:
            with ProcessPoolExecutor(max_workers=n) as ex:
                for k, r in enumerate(ex.map(run_row, todo, chunksize=1), 1):
                    f.write(_json(r) + "\n")
                    f.flush()
                    if progress:
                        print(f"\r  {k}/{len(todo)}", end="", file=sys.stderr)
    if progress and todo:
        print(file=sys.stderr)
    return read_rows(out)


def find_row(directory, row_id: str) -> dict:
    """The stored row ``row_id`` (a unique prefix is enough)."""
    rows = [r for r in read_rows(directory) if r["id"].startswith(row_id)]
    if len(rows) != 1:
        raise ParameterError(f"row id {row_id!r}: {len(rows)} rows of {str(directory)!r} "
                             "match; expected exactly one")
    return rows[0]


def rerun_row(row: dict) -> dict:
    """Run a stored row's spec again."""
    return run_row({"id": row["id"], "axes": row["axes"], "spec": row["spec"]})


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


def row_differences(stored: dict, new: dict) -> list[str]:
    """The deterministic fields (outcome, metrics, per-robot metrics) that differ."""
    new = json.loads(_json(new))
    out = []
    for k in ("outcome", "status"):
        if stored.get(k) != new.get(k):
            out.append(f"{k}: {stored.get(k)!r} -> {new.get(k)!r}")
    for k in sorted(set(stored.get("metrics", {})) | set(new.get("metrics", {}))):
        a, b = stored["metrics"].get(k), new["metrics"].get(k)
        if not _same(a, b):
            out.append(f"metrics.{k}: {a!r} -> {b!r}")
    if not _same(stored.get("robots"), new.get("robots")):
        out.append("robots: per-robot metrics differ")
    if stored.get("world") is not None and stored["world"] != new.get("world"):
        out.append("world: the stored world is not the world re-created")
    return out


# ------------------------------------------------------------------ report
def _groups(rows):
    from collections import defaultdict

    g = defaultdict(list)
    for r in rows:
        if r.get("status") == "ok":
            g[(r["axes"]["robots.count"], r["width_m"])].append(r)
    return g


def corridor_table(rows: list[dict]) -> list[dict]:
    """Per (robot count, corridor width): runs, success rate with Wilson 95 %, clearance stats.

    Success of a run: every robot arrived. Clearance: the run's minimum
    inter-robot clearance (median and quartiles over the runs; runs of one
    robot have none).
    """
    from .stats import wilson

    out = []
    for (count, width), rs in sorted(_groups(rows).items()):
        ok = sum(r["outcome"] == "success" for r in rs)
        lo, hi = wilson(ok, len(rs))
        cl = np.array([r["metrics"]["clearance_robot"] for r in rs], float)
        cl = cl[np.isfinite(cl)]
        q = np.percentile(cl, [25, 50, 75]) if len(cl) else [math.nan] * 3
        out.append({"robots": count, "width_m": width,
                    "width_robots": width / rs[0]["robot_width_m"], "runs": len(rs),
                    "success": ok / len(rs), "success_lo": lo, "success_hi": hi,
                    "clearance_q1": float(q[0]), "clearance_median": float(q[1]),
                    "clearance_q3": float(q[2]),
                    "deadlocks": sum(r["outcome"] == "deadlock" for r in rs),
                    "collisions": sum(r["metrics"]["collisions"] for r in rs)})
    return out


def corridor_figure(rows: list[dict], path) -> Path:
    """Success and minimum inter-robot clearance against corridor width, one line per count."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..viz.traffic import COLOURS

    table = corridor_table(rows)
    counts = sorted({t["robots"] for t in table})
    fig, (a1, a2) = plt.subplots(2, 1, figsize=(6.4, 6.6), sharex=True)
    widths = [t["width_m"] for t in table]
    # lines side by side (dodged by a fraction of the axis) so intervals stay readable
    span = (max(widths) - min(widths)) if table else 1.0
    for k, n in enumerate(counts):
        ts = [t for t in table if t["robots"] == n]
        x = np.array([t["width_m"] for t in ts]) + (k - (len(counts) - 1) / 2) * 0.008 * span
        c = COLOURS[k % len(COLOURS)]
        s = np.array([t["success"] for t in ts])
        err = np.array([[t["success"] - t["success_lo"] for t in ts],
                        [t["success_hi"] - t["success"] for t in ts]])
        a1.errorbar(x, s, yerr=err, fmt="-o", color=c, capsize=2, ms=4, elinewidth=0.8,
                    label=f"{n} robot{'s' if n > 1 else ''}")
        med = np.array([t["clearance_median"] for t in ts])
        if np.isfinite(med).any():
            q1 = np.array([t["clearance_q1"] for t in ts])
            q3 = np.array([t["clearance_q3"] for t in ts])
            a2.plot(x, med, "-o", color=c, ms=4, label=f"{n} robots")
            a2.fill_between(x, q1, q3, color=c, alpha=0.15, lw=0)
    a1.set_ylabel("success (all robots arrived)")
    a1.set_ylim(-0.05, 1.05)
    a1.legend(fontsize=8, loc="lower right")
    a1.grid(alpha=0.3)
    a2.set_ylabel("min inter-robot clearance (m)")
    a2.set_xlabel("corridor width (m)")
    a2.grid(alpha=0.3)
    if table:
        rw = [r["robot_width_m"] for r in rows if r.get("status") == "ok"][0]
        sec = a1.secondary_xaxis("top", functions=(lambda w: w / rw, lambda k: k * rw))
        sec.set_xlabel(f"corridor width (robot widths, {rw:g} m)")
    a1.set_title("success: Wilson 95 % intervals; clearance: median and IQR over runs",
                 fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return Path(path)


def write_report(directory) -> Path:
    """``DIR/report.md`` and ``DIR/traffic_corridor.png`` of a traffic sweep's rows."""
    d = Path(directory)
    rows = read_rows(d)
    corridor_figure(rows, d / FIGURE)
    table = corridor_table(rows)
    lines = ["# Traffic sweep", "",
             f"{len(rows)} rows; outcomes: "
             + ", ".join(f"{o} {sum(r['outcome'] == o for r in rows)}"
                         for o in ("success", "deadlock", "budget", "error")), "",
             f"![success and clearance against corridor width]({FIGURE})", "",
             "| robots | width (m) | width (robot widths) | runs | success | 95 % interval "
             "| min clearance median (m) | IQR | deadlocks | collisions |",
             "|---:|---:|---:|---:|---:|---|---:|---|---:|---:|"]
    for t in table:
        lines.append(f"| {t['robots']} | {t['width_m']:.3f} | {t['width_robots']:.2f} | "
                     f"{t['runs']} | {t['success']:.2f} | [{t['success_lo']:.2f}, "
                     f"{t['success_hi']:.2f}] | {t['clearance_median']:.3f} | "
                     f"[{t['clearance_q1']:.3f}, {t['clearance_q3']:.3f}] | {t['deadlocks']} | "
                     f"{t['collisions']} |")
    p = d / "report.md"
    p.write_text("\n".join(lines) + "\n")
    return p
