"""The results schema: one table of every column :func:`robomaze.bench.load` returns.

Each :class:`Column` says where the value comes from in a stored row
(``DIR/results.jsonl``), its unit, its type, which run kinds fill it and
what it means. :func:`robomaze.bench.load` builds its table from
:data:`COLUMNS` (names, dtypes, which columns exist),
:func:`robomaze.bench.export` declares the Parquet file's Arrow types from it
(no ``null``-typed column), and ``docs/results.md`` is generated from it
(:func:`results_markdown`; a test checks the file equals the text).

Names are plain ``snake_case`` (no dots: no quoting in SQL) and say what
they hold, with the unit as a suffix where there is one (``wall_cells``,
``length_m``, ``method_cpu_s``). :data:`RENAMED` maps the names of
robomaze 0.1.0's table (``wall``, ``metrics.length_m``, ...) to these.

>>> COLUMN_BY_NAME["wall_cells"].source, COLUMN_BY_NAME["wall_cells"].type
(('wall',), 'int')
>>> RENAMED["metrics.collisions"], RENAMED["timings.cpu_s"]
('collisions', 'process_cpu_s')
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Column", "COLUMNS", "COLUMN_BY_NAME", "PATTERNS", "RENAMED", "TYPES",
           "column_doc", "results_markdown", "arrow_type"]

#: Column types: how each is held in pandas and in Arrow (Parquet).
TYPES = {
    "str": ("string", "string"),
    "int": ("Int64", "int64"),
    "float": ("float64", "float64"),
    "bool": ("boolean", "bool"),
    "list<float>": ("object", "list<float64>"),
    "json": ("string", "string"),
}

_KINDS = ("plan", "simulate", "mouse")


@dataclass(frozen=True)
class Column:
    """One column of the results table.

    ``source`` is the path of the value in a stored row (``("metrics",
    "length_m")``); ``kinds`` the run kinds that fill it (others hold
    missing values); ``type`` a key of :data:`TYPES`.
    """

    name: str
    source: tuple
    type: str
    unit: str
    kinds: tuple
    meaning: str


def _c(name, source, type_, unit, kinds, meaning) -> Column:
    src = tuple(source.split(".")) if isinstance(source, str) else tuple(source)
    ks = _KINDS if kinds == "all" else tuple(kinds.split(","))
    return Column(name, src, type_, unit, ks, meaning)


_P, _S, _M, _PS, _ALL = "plan", "simulate", "mouse", "plan,simulate", "all"

#: Every column of the results table, in the table's order.
COLUMNS: tuple[Column, ...] = (
    # ---- what ran
    _c("id", "id", "str", "", _ALL, "content id of the run: a hash of its canonical spec; "
       "`robomaze bench show DIR ID` re-creates it"),
    _c("sweep", "sweep", "str", "", _ALL, "name of the sweep file the run came from (its stem)"),
    _c("kind", "kind", "str", "", _ALL, "run kind: `plan` (grid planner), `simulate` (robot "
       "agent) or `mouse` (cell-level micromouse solver)"),
    _c("method", "method", "str", "", _ALL, "planner, agent or mouse solver name"),
    _c("generator", "generator", "str", "", _ALL, "maze generator, or the maze/grid file's name"),
    _c("corridor_cells", "corridor", "int", "grid cells", _ALL,
       "corridor width k of the widening (every maze cell a k x k block; 1 for mouse runs)"),
    _c("wall_cells", "wall", "int", "grid cells", _ALL,
       "wall thickness t of the widening (every wall a band t grid cells thick)"),
    _c("resolution_m", "resolution", "float", "m", _ALL, "grid cell size (metres per grid cell)"),
    _c("footprint", "footprint", "str", "", _ALL, "robot footprint spec (`disc:R`, "
       "`rect:LxW`, `poly:...`; metres)"),
    _c("seed", "seed", "int", "", _ALL, "the world's seed (maze stage and method stage, "
       "robomaze.world.stage_rng)"),
    _c("noise", "noise", "str", "", _ALL, "range sensor noise spec (`none` when noise-free)"),
    _c("odometry_noise", "odometry_noise", "str", "", _ALL,
       "odometry noise spec (`none` when noise-free)"),
    _c("localize", "localize", "str", "", _ALL, "localizer of the agent: `mcl`, `slam` or "
       "`none`"),
    # ---- verdict
    _c("status", "status", "str", "", _ALL, "whether the machinery worked: `ok`, `error`, "
       "`infra_timeout`"),
    _c("outcome", "outcome", "str", "", _ALL, "how the method ended: `success`, `no_path`, "
       "`gave_up`, `budget`, `collided`, `infra_timeout`, `error` (robomaze.bench.run.OUTCOMES)"),
    _c("success", "success", "bool", "", _ALL, "the method reached the goal (mice: their own "
       "success, e.g. flood fill reached, proved and returned)"),
    _c("reason", "reason", "str", "", _ALL, "why a run did not succeed (empty when it did)"),
    _c("error", "error", "str", "", _ALL, "the exception of a run that raised (innermost "
       "frames)"),
    # ---- path and safety
    _c("length_m", "metrics.length_m", "float", "m", _ALL, "executed length (mice: the fast "
       "run in metres)"),
    _c("length_cells", "metrics.length_cells", "float", "maze cells", _PS,
       "`length_m` in maze cells (divided by resolution x (k + t))"),
    _c("optimal_length_m", "metrics.optimal_length_m", "float", "m", _ALL,
       "shortest collision-free length between the run's ends (the reference of the ratio)"),
    _c("length_ratio", "metrics.length_ratio", "float", "", _ALL,
       "`length_m / optimal_length_m` of a successful run (>= 1 for disc references)"),
    _c("optimal_reference", "metrics.optimal_reference", "str", "", _PS,
       "which shortest length the ratio divides by: `visibility` (exact, point and disc) or "
       "`theta_star`"),
    _c("walk_length_m", "metrics.walk_length_m", "float", "m", _P,
       "length of the planner's own cell walk (Path.walk_length)"),
    _c("min_clearance", "metrics.min_clearance", "float", "m", _PS,
       "footprint clearance, minimum over the motion (every quarter cell or every step)"),
    _c("mean_clearance", "metrics.mean_clearance", "float", "m", _PS,
       "footprint clearance, mean over the motion"),
    _c("centre_min_clearance", "metrics.centre_min_clearance", "float", "m", _PS,
       "clearance of the reference point alone, minimum"),
    _c("centre_mean_clearance", "metrics.centre_mean_clearance", "float", "m", _PS,
       "clearance of the reference point alone, mean"),
    _c("arc_clearance_min", "metrics.arc_clearance_min", "float", "m", _PS,
       "footprint clearance on a 1 cm arc resampling, minimum"),
    _c("arc_clearance_mean", "metrics.arc_clearance_mean", "float", "m", _PS,
       "footprint clearance on a 1 cm arc resampling, mean"),
    _c("arc_clearance_median", "metrics.arc_clearance_median", "float", "m", _PS,
       "footprint clearance on a 1 cm arc resampling, median"),
    _c("arc_clearance_max", "metrics.arc_clearance_max", "float", "m", _PS,
       "footprint clearance on a 1 cm arc resampling, maximum"),
    _c("collisions", "metrics.collisions", "int", "count", _ALL,
       "collision count: entries into contact (mice: moves into walls)"),
    _c("time_in_collision", "metrics.time_in_collision", "float", "s", _S,
       "simulated time spent in contact"),
    _c("danger_fraction", "metrics.danger_fraction", "float", "", _PS,
       "fraction of the motion closer to a wall than the danger threshold (\"time in "
       "danger\")"),
    _c("smoothness", "metrics.smoothness", "float", "rad/m", _PS,
       "summed absolute heading change per metre"),
    _c("curvature_max", "metrics.curvature_max", "float", "1/m", _PS, "curvature, maximum"),
    _c("curvature_mean", "metrics.curvature_mean", "float", "1/m", _PS, "curvature, mean"),
    _c("cusps", "metrics.cusps", "int", "count", _PS, "direction reversals (forward/backward)"),
    _c("turns", "metrics.turns", "int", "count", _P, "turns of the planned path (Path.turns)"),
    _c("expanded", "metrics.expanded", "int", "count", _P,
       "nodes the planner expanded (OMPL: validity checks)"),
    _c("steps", "metrics.steps", "int", "count", _PS,
       "simulation steps (agents); key poses (planners)"),
    _c("time_to_goal", "metrics.time_to_goal", "float", "s", _S,
       "simulated time until the goal was reached"),
    _c("fraction_seen", "metrics.fraction_seen", "float", "", _S,
       "fraction of the free cells the sensor saw (explorers)"),
    # ---- noisy agents and localizers
    _c("odometry_error", "metrics.odometry_error", "float", "m", _S,
       "distance between the final believed and true positions"),
    _c("ate_rmse", "metrics.ate_rmse", "float", "m", _S,
       "absolute trajectory error: RMSE of estimated vs true positions (localizer runs)"),
    _c("rpe_per_m", "metrics.rpe_per_m", "float", "", _S,
       "relative pose error: translation RMSE over 1 m of true path, per metre"),
    _c("lost_time", "metrics.lost_time", "float", "s", _S,
       "seconds with a position error over 0.15 m"),
    _c("map_iou_occupied", "metrics.map_iou_occupied", "float", "", _S,
       "IoU of the built map's occupied cells with the true walls (slam)"),
    _c("map_iou_free", "metrics.map_iou_free", "float", "", _S,
       "IoU of the built map's free cells with the true free space (slam)"),
    # ---- anytime planners (OMPL)
    _c("first_solution_s", "metrics.first_solution_s", "float", "s", _P,
       "OMPL: seconds to the first exact solution (the final cost is `length_m`)"),
    _c("first_solution_checks", "metrics.first_solution_checks", "int", "count", _P,
       "OMPL: validity checks spent when the first solution was found"),
    _c("best_cost", "metrics.best_cost", "float", "m", _P, "OMPL: best path cost found"),
    _c("validity_checks", "metrics.validity_checks", "int", "count", _P,
       "OMPL: validity checks of the solve"),
    _c("simplify_checks", "metrics.simplify_checks", "int", "count", _P,
       "OMPL: validity checks of path simplification"),
    _c("budget_checks", "metrics.budget_checks", "int", "count", _P,
       "OMPL: the check budget (`max_checks`)"),
    _c("exact_checks", "metrics.exact_checks", "int", "count", _P,
       "OMPL: checks answered by the exact clearance test"),
    _c("ompl_seed", "metrics.ompl_seed", "int", "", _P, "OMPL: the seed its RNG ran with"),
    _c("ompl_status", "metrics.ompl_status", "int", "", _P,
       "OMPL: the planner status code of the solve"),
    _c("stopped_by", "metrics.stopped_by", "str", "", _P,
       "OMPL: what ended the solve (`checks`, `time`, `solved`...)"),
    _c("progress", "progress", "json", "", _P,
       "OMPL: the anytime curve (time, best cost, checks samples) as JSON text"),
    # ---- micromouse
    _c("reached_goal", "metrics.reached_goal", "bool", "", _M, "the mouse reached the goal"),
    _c("proven", "metrics.proven", "bool", "", _M, "the mouse proved its route best"),
    _c("returned", "metrics.returned", "bool", "", _M, "the mouse drove back to the start"),
    _c("cells_explored", "metrics.cells_explored", "int", "count", _M,
       "distinct cells visited in the search"),
    _c("search_moves", "metrics.search_moves", "int", "count", _M, "cells driven in the search"),
    _c("search_turns", "metrics.search_turns", "int", "count", _M,
       "90-degree turns in the search"),
    _c("moves_to_goal", "metrics.moves_to_goal", "int", "count", _M,
       "cells driven until the goal was first reached"),
    _c("crashes", "metrics.crashes", "int", "count", _M, "moves into walls"),
    _c("search_time", "metrics.search_time", "float", "s", _M,
       "search run time estimate (the mouse stops to turn)"),
    _c("search_time_profile", "metrics.search_time_profile", "float", "s", _M,
       "the search walk driven under the mouse profile"),
    _c("search_distance_m", "metrics.search_distance_m", "float", "m", _M,
       "length of the search walk"),
    _c("route_length", "metrics.route_length", "int", "maze cells", _M,
       "the fast run the solver reports, in cells"),
    _c("route_turns", "metrics.route_turns", "int", "count", _M, "turns of that fast run"),
    _c("fast_run_time", "metrics.fast_run_time", "float", "s", _M,
       "time-optimal route on the walls the mouse learned, no diagonals"),
    _c("fast_run_time_diagonal", "metrics.fast_run_time_diagonal", "float", "s", _M,
       "the same with diagonals"),
    _c("shortest_route_length", "metrics.shortest_route_length", "int", "maze cells", _M,
       "shortest route of the true maze"),
    _c("shortest_route_turns", "metrics.shortest_route_turns", "int", "count", _M,
       "turns of the shortest route (fewest among the shortest)"),
    _c("shortest_route_time", "metrics.shortest_route_time", "float", "s", _M,
       "the shortest route driven as fast as the profile allows, no diagonals"),
    _c("shortest_route_time_diagonal", "metrics.shortest_route_time_diagonal", "float", "s", _M,
       "the same with diagonals"),
    _c("fastest_route_length", "metrics.fastest_route_length", "int", "maze cells", _M,
       "the time-optimal route of the true maze, no diagonals"),
    _c("fastest_route_turns", "metrics.fastest_route_turns", "int", "count", _M,
       "turns of the time-optimal route"),
    _c("fastest_route_time", "metrics.fastest_route_time", "float", "s", _M,
       "time of the time-optimal route, no diagonals"),
    _c("fastest_route_time_diagonal", "metrics.fastest_route_time_diagonal", "float", "s", _M,
       "time of the time-optimal route with diagonals"),
    _c("fast_run_ratio", "metrics.fast_run_ratio", "float", "", _M,
       "`fast_run_time / fastest_route_time` (>= 1)"),
    _c("fast_run_ratio_diagonal", "metrics.fast_run_ratio_diagonal", "float", "", _M,
       "the same with diagonals"),
    _c("contest_score", "metrics.contest_score", "float", "s", _M,
       "`fast_run_time + search_time / 30 + 10 crashes` (lower is better)"),
    _c("mms_score", "metrics.mms_score", "float", "", _M,
       "the mms simulator's score of the command log (lower is better)"),
    # ---- the continuous path
    _c("pose_x", "poses.x", "list<float>", "m", _ALL,
       "x of every pose of the continuous path (planners: key poses; agents: every step; "
       "mice: the poses of their moves)"),
    _c("pose_y", "poses.y", "list<float>", "m", _ALL, "y of every pose (same length as `pose_x`)"),
    _c("pose_heading", "poses.heading", "list<float>", "rad", _ALL,
       "heading of every pose, counter-clockwise from east"),
    _c("bag", "bag", "str", "", _S, "the run's ROS 2 bag, relative to the results directory "
       "(`run.bags = true`)"),
    # ---- timings (measured, never compared)
    _c("setup_wall_s", "timings.setup_s", "float", "s", _ALL,
       "wall-clock time to build the maze, grid and footprint"),
    _c("reference_wall_s", "timings.optimal_s", "float", "s", _ALL,
       "wall-clock time of the optimal reference (shared cache: near 0 after the first run)"),
    _c("method_wall_s", "timings.method_s", "float", "s", _ALL,
       "wall-clock time of the planner/agent/mouse and its metrics"),
    _c("method_cpu_s", "timings.compute_s", "float", "s", _ALL,
       "thread CPU time of the method alone, numba compilation excluded"),
    _c("compile_s", "timings.compile_s", "float", "s", _ALL,
       "numba compilation inside the method (0 when the cache was warm)"),
    _c("total_wall_s", "timings.total_s", "float", "s", _ALL, "wall-clock time of the whole run"),
    _c("process_cpu_s", "timings.cpu_s", "float", "s", _ALL,
       "process CPU time of the method and its metrics"),
    # ---- provenance
    _c("robomaze_version", "provenance.robomaze", "str", "", _ALL, "robomaze version"),
    _c("git_commit", "provenance.git_commit", "str", "", _ALL,
       "git commit of a checkout (`-dirty` when changed), empty for an installed package"),
    _c("python_version", "provenance.python", "str", "", _ALL, "Python version"),
    _c("numpy_version", "provenance.numpy", "str", "", _ALL, "NumPy version"),
)

#: Columns named by a pattern: ``*`` stands for the rest of the name.
PATTERNS: tuple[Column, ...] = (
    Column("scenario_*", ("scenario",), "str|int|float|bool", "", _KINDS,
           "the run's canonical spec flattened with `_` (`scenario_widen_resolution`, "
           "`scenario_run_options_max_checks`); lists as JSON text"),
    Column("extra_*", ("metrics",), "str|int|float|bool", "", ("plan", "simulate"),
           "a figure a plugin planner or agent reports that robomaze does not define "
           "(its `Path.stats`)"),
)

COLUMN_BY_NAME = {c.name: c for c in COLUMNS}

#: robomaze 0.1.0's column names -> these (``df.rename(columns=RENAMED)``).
RENAMED = {**{".".join(c.source): c.name for c in COLUMNS
              if c.source[0] in ("metrics", "timings") and ".".join(c.source) != c.name},
           **{c.source[0]: c.name for c in COLUMNS
              if len(c.source) == 1 and c.source[0] != c.name}}


def arrow_type(column: Column):
    """The pyarrow type of ``column`` (pyarrow imported here)."""
    import pyarrow as pa

    return {"str": pa.string(), "json": pa.string(), "int": pa.int64(), "float": pa.float64(),
            "bool": pa.bool_(), "list<float>": pa.list_(pa.float64())}[column.type]


def column_doc(column: Column) -> str:
    """One Markdown table row of ``column``."""
    kinds = "all" if set(column.kinds) == set(_KINDS) else ", ".join(column.kinds)
    source = ".".join(column.source)
    return (f"| `{column.name}` | {column.unit or '-'} | {column.type} | {kinds} | "
            f"{column.meaning} | `{source}` |")


def results_markdown() -> str:
    """The text of ``docs/results.md`` (generated: edit :data:`COLUMNS`, not the file).

    >>> text = results_markdown()
    >>> "| `wall_cells` | grid cells | int | all |" in text
    True
    """
    head = "| column | unit | type | kinds | meaning | stored row field |\n|---|---|---|---|---|---|"
    rows = "\n".join(column_doc(c) for c in COLUMNS)
    patterns = "\n".join(column_doc(c) for c in PATTERNS)
    renamed = "\n".join(f"| `{old}` | `{new}` |" for old, new in sorted(RENAMED.items()))
    return f"""# Results schema

<!-- Generated from robomaze/bench/schema.py (COLUMNS) by
     `python -m robomaze.bench.schema > docs/results.md`; a test checks this file
     equals the generated text. Edit the table in code, not here. -->

A sweep writes one JSON line per run to `DIR/results.jsonl`. For analysis,
`robomaze.bench.load(DIR)` returns them as one pandas row per run, and
`robomaze bench export DIR -o runs.parquet` (or `.csv`) writes the same
table. Both follow the table below:

- **names** are plain `snake_case` (no dots, no quoting in SQL), with the unit
  as a suffix where there is one;
- **types**: `int` columns are integers (pandas `Int64`, Arrow `int64`; a run
  that has no value holds a missing value, not NaN), `float` columns
  `float64`, `bool` columns `boolean`, text `string`; every Parquet column has
  a declared Arrow type (never `null`);
- **kinds**: the run kinds that fill a column (`plan`, `simulate`, `mouse`);
  `load()` drops the columns no run of the table fills (`load(DIR,
  kind="mouse")` keeps a kind's rows and the columns that kind fills);
- **poses** are three list columns of float64 (`pose_x`, `pose_y`,
  `pose_heading`): `numpy.asarray(df.pose_x[0])` in pandas, a
  `list<double>` in Parquet (`pyarrow.parquet.read_table(...)["pose_x"]`),
  space-separated numbers in CSV (`numpy.array(cell.split(), float)`);
- **no machine paths**: the sweep's folder (`base_dir`) and the grid-cell
  path behind the example pictures are not exported.

## Columns

{head}
{rows}

## Columns named by a pattern

{head}
{patterns}

## Renamed columns

robomaze 0.1.0 named the columns after the stored row (`wall`,
`metrics.length_m`, `timings.cpu_s`, `scenario.widen.corridor`). Old results
directories load unchanged (the stored rows did not change); code written
against the old names can rename with
`df.rename(columns=robomaze.bench.schema.RENAMED)` on an old table, or
use the new names below (`scenario.a.b` became `scenario_a_b`).

| 0.1.0 column | column |
|---|---|
{renamed}
"""


if __name__ == "__main__":  # python -m robomaze.bench.schema > docs/results.md
    import sys

    sys.stdout.write(results_markdown())
