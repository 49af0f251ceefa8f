"""Scenarios as data: TOML sweep files, their validation and expansion.

A *scenario* describes one benchmark run completely (maze source, widening,
footprint, sensor, planner or agent with options, seed, limits). A *sweep*
file has the same layout but any axis may hold a list; the sweep is the
product of all its axes. The method axis is special: the lists under
``run.planner``, ``run.agent`` and ``run.mouse`` are *joined* (each planner,
agent and mouse once), because a run uses a planner, a simulated agent or a
cell-level micromouse solver, never two of them.

Layout of a sweep file (every key optional but ``maze`` source and method)::

    name = "default"                   # sweep metadata, not an axis
    description = "..."
    plugins = ["my_planners"]          # modules (or .py files beside the
                                       # sweep) imported before any run;
                                       # they may register planners/agents
    seed = [1, 2, 3]                   # maze and method seed

    [maze]
    generator = ["prim", "kruskal"]    # or: file = "x.maze" (read_maze),
    rows = 8                           #     grid = "x.map" (read_grid,
    cols = 8                           #     then start/goal grid cells)
    braid = 0.0
    placement = "corners"              # corners | sides | centre | contest | delphi

    [widen]
    corridor = [1, 3, 5]               # free grid cells across a corridor
    wall = 1                           # grid cells across a wall
    resolution = 0.1                   # metres per grid cell

    [robot]
    footprint = ["disc:0.1", {shape = "rectangle", length = 0.4, width = 0.2}]
    sensor = "lidar"                   # sensor preset used by agents
    noise = ["none", "gaussian:0.01"]  # range noise of the sensor (agents
                                       # only; robomaze.sense.noise specs)
    odometry_noise = "drift:0.01"      # odometry the agent sees (agents
                                       # only; robomaze.sim.odometry specs)
    localize = ["none", "mcl", "slam"] # how the agent knows its pose (agents
                                       # only; robomaze.localize)
    kidnap = ["none", "20,2,0"]        # carry the robot unseen at T s by DX,DY m
                                       # (agents only; robomaze.sim.kidnap)

    [run]
    planner = ["astar", "wavefront"]
    agent = ["wall_follow"]
    mouse = ["floodfill"]              # micromouse solvers on the maze's
                                       # cells (robomaze.micromouse.SOLVERS;
                                       # no widening, no robot: see
                                       # robomaze.bench.micromouse)
    profile = ["kerikun", "simple"]    # mouse profiles of the mice's fast runs
                                       # (preset names or TOML files; mice only)
    connectivity = 4
    max_steps = 4000                   # simulation step limit
    dt = 0.1                           # simulation time step (s)
    bags = false                       # true: each agent run also as a ROS 2
                                       # bag, DIR/bags/ID.mcap (robomaze[ros])
    time_limit = 600.0                 # wall-clock safety net per run (s):
                                       # never a result; a run it stops is
                                       # an infra_timeout row

    [run.options.max_clearance]        # options passed to one method
    weight = 2.0

Keys that only some runs use are left out of the others' canonical specs,
so the product does not repeat identical runs (repeats share one id):
``robot.noise``, ``robot.odometry_noise``, ``robot.localize`` and ``robot.kidnap`` exist only
in agent runs (and only when not ``"none"``, so sweeps without noise or a
localizer keep their ids), and a
mouse run has the default ``[widen]``, ``run.connectivity``, ``max_steps``
and ``dt`` and no footprint.

Validation happens before any run: every error names the file, the key path,
the bad value and what was expected.

Examples
--------
>>> sweep = parse_sweep({"maze": {"generator": "prim", "rows": 3, "cols": 3},
...                      "widen": {"corridor": [1, 3]},
...                      "robot": {"footprint": "disc:0.2"},
...                      "run": {"planner": ["astar", "wavefront"]}},
...                     check_names=False)
>>> len(sweep.scenarios), sweep.scenarios[0].method
(4, 'astar')
>>> sweep.scenarios[0].spec["widen"]
{'corridor': 1, 'wall': 1, 'resolution': 1.0}
>>> len({sc.id for sc in sweep.scenarios})
4
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import json
import math
import numbers
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .. import _readfile
from ..errors import ScenarioError

__all__ = ["Scenario", "Sweep", "load_sweep", "parse_sweep", "scenario_id",
           "footprint_label", "DEFAULTS", "MAX_RUNS"]

#: Every key a scenario may hold, with its default (None = unset).
DEFAULTS: dict[str, Any] = {
    "seed": 0,
    "plugins": [],
    "maze": {"generator": None, "rows": 8, "cols": 8, "braid": 0.0,
             "placement": "corners", "options": {}, "file": None, "grid": None,
             "start": None, "goal": None},
    "widen": {"corridor": 1, "wall": 1, "resolution": 1.0},
    "robot": {"footprint": None, "sensor": "lidar"},
    "run": {"planner": None, "agent": None, "connectivity": 4, "max_steps": 4000,
            "dt": 0.1, "time_limit": 600.0, "options": {}},
}
_META = ("name", "description")
#: Most runs a sweep may expand to unless told otherwise (``--max-runs``): the
#: default sweep has 1,440; 100,000 runs of a second each take a day on 2 cores.
MAX_RUNS = 100_000
#: Longest ``run.time_limit`` (s): a week. Larger values overflow the timers
#: (``1e300``) and are typos, not benchmarks.
MAX_TIME_LIMIT = 7 * 24 * 3600.0
#: Longest simulation step (s), as :data:`robomaze.sim.env.MAX_DT`.
MAX_DT = 1.0
#: Parameters the runner passes to every planner itself (not options).
_RUNNER_ARGS = ("grid", "start", "goal", "footprint", "connectivity")
_PLACEMENTS = ("corners", "sides", "centre", "contest", "delphi")  # robomaze.generate.placement


# ----------------------------------------------------------------- checkers
class _Bad(Exception):
    """Internal: a value failed a check; ``expected`` says what was wanted."""

    def __init__(self, expected: str) -> None:
        super().__init__(expected)
        self.expected = expected


def _is_int(v) -> bool:
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def _is_num(v) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


def _int(lo: int | None = None) -> Callable[[Any], int]:
    def check(v):
        if not _is_int(v) or (lo is not None and v < lo):
            raise _Bad(f"an integer >= {lo}" if lo is not None else "an integer")
        return int(v)
    return check


def _number_in(lo: float | None = None, hi: float | None = None, strict: bool = False):
    def check(v):
        what = "a number"
        if lo is not None:
            what += f" {'>' if strict else '>='} {lo:g}"
        if hi is not None:
            what += f" {'and ' if lo is not None else ''}<= {hi:g}"
        if not _is_num(v) or not math.isfinite(v):
            raise _Bad(what)
        if lo is not None and (v <= lo if strict else v < lo):
            raise _Bad(what)
        if hi is not None and v > hi:
            raise _Bad(what)
        return float(v)
    return check


def _str(v):
    if not isinstance(v, str) or not v:
        raise _Bad("a non-empty string")
    return v


def _choice(*choices):
    def check(v):
        if v not in choices:
            raise _Bad("one of " + ", ".join(map(repr, choices)))
        return v
    return check


def _cell(v):
    if (not isinstance(v, list) or len(v) != 2 or not all(_is_int(x) and x >= 0 for x in v)):
        raise _Bad("a [row, col] pair of integers >= 0")
    return [int(v[0]), int(v[1])]


def _table(v):
    if not isinstance(v, dict):
        raise _Bad("a table")
    return v


def footprint_label(fp: dict) -> str:
    """The spec string of a canonical footprint table (reads back exactly).

    The label is :meth:`robomaze.geometry.Footprint.to_spec`, so
    ``Footprint.from_spec(label)`` rebuilds the footprint of the run.

    >>> footprint_label({"shape": "disc", "radius": 0.1})
    'disc:0.1'
    >>> footprint_label({"shape": "rectangle", "length": 0.4, "width": 0.2, "ref": [0.0, 0.0]})
    'rect:0.4x0.2'
    """
    from ..geometry import Footprint

    return Footprint.from_spec(fp).to_spec()


def _noise(v):
    """Canonical range-noise spec (None for ``"none"``)."""
    from ..errors import ParameterError
    from ..sense.noise import NOISE_FORMS, noise_spec, parse_noise

    if not isinstance(v, str):
        raise _Bad(f"a noise spec string ({NOISE_FORMS})")
    try:
        model = parse_noise(v)
    except ParameterError as exc:
        raise _Bad(f"a valid noise spec ({exc})") from None
    return None if model is None else noise_spec(model)


def _odometry_noise(v):
    """Canonical odometry-noise spec (None for ``"none"`` or all zeros)."""
    from ..errors import ParameterError
    from ..sim.odometry import ODOMETRY_FORMS, parse_odometry_noise

    if not isinstance(v, str):
        raise _Bad(f"an odometry noise spec string ({ODOMETRY_FORMS})")
    try:
        model = parse_odometry_noise(v)
    except ParameterError as exc:
        raise _Bad(f"a valid odometry noise spec ({exc})") from None
    return None if model is None else model.to_spec()


def _bag_flag(v):
    """``run.bags``: True writes each agent run as a ROS 2 bag (None: off, left out)."""
    if not isinstance(v, bool):
        raise _Bad("true or false")
    return True if v else None


def _kidnap(v):
    """Canonical ``"T,DX,DY"`` of a kidnapping (None for ``"none"``; :mod:`robomaze.sim.kidnap`)."""
    from ..errors import ParameterError
    from ..sim.kidnap import kidnap_spec

    if not isinstance(v, str):
        raise _Bad("a kidnapping 'T,DX,DY' (seconds, metres, metres) or 'none'")
    try:
        return kidnap_spec(v)
    except ParameterError as exc:
        raise _Bad(f"a kidnapping 'T,DX,DY' or 'none' ({exc})") from None


def _localize(v):
    """Canonical localizer name (None for ``"none"``: dead reckoning)."""
    from ..localize import LOCALIZE_CHOICES

    if v not in LOCALIZE_CHOICES:
        raise _Bad("one of " + ", ".join(repr(c) for c in LOCALIZE_CHOICES))
    return None if v == "none" else v


def _footprint(v) -> dict:
    """Canonical footprint table from a spec string or a table (one parser:
    :meth:`robomaze.geometry.Footprint.from_spec`)."""
    from ..errors import ParameterError
    from ..geometry import Footprint
    from ..geometry.footprint import SPEC_FORMS

    if not isinstance(v, (str, dict)):
        raise _Bad(f"a footprint spec ({SPEC_FORMS}) or a footprint table")
    try:
        return Footprint.from_spec(v).to_table()
    except ParameterError as exc:
        shape = v.get("shape") if isinstance(v, dict) else {
            "disc": "disc", "rect": "rectangle", "rectangle": "rectangle", "poly": "polygon",
            "polygon": "polygon"}.get(v.partition(":")[0].strip().lower())
        if shape in ("disc", "rectangle") and ("must be >" in str(exc) or "number" in str(exc)):
            raise _Bad(f"a {shape} footprint whose sizes are numbers > 0 ({exc})") from None
        raise _Bad(f"a valid footprint ({exc})") from None


# key -> (checker, value is itself a list (so a sweep is a list of lists))
_SPEC: dict[str, dict[str, tuple[Callable, bool]]] = {
    "": {"seed": (_int(0), False)},
    "maze": {"generator": (_str, False), "rows": (_int(1), False), "cols": (_int(1), False),
             "braid": (_number_in(0.0, 1.0), False), "placement": (_choice(*_PLACEMENTS), False),
             "file": (_str, False), "grid": (_str, False),
             "start": (_cell, True), "goal": (_cell, True)},
    "widen": {"corridor": (_int(1), False), "wall": (_int(1), False),
              "resolution": (_number_in(0.0, strict=True), False)},
    "robot": {"footprint": (_footprint, False), "sensor": (_str, False),
              "noise": (_noise, False), "odometry_noise": (_odometry_noise, False),
              "localize": (_localize, False), "kidnap": (_kidnap, False)},
    "run": {"planner": (_str, False), "agent": (_str, False), "mouse": (_str, False),
            "profile": (_str, False),
            "connectivity": (_choice(4, 8), False), "max_steps": (_int(1), False),
            "dt": (_number_in(0.0, MAX_DT, strict=True), False),
            "time_limit": (_number_in(0.0, MAX_TIME_LIMIT, strict=True), False),
            "bags": (_bag_flag, False),
            # the mapf run kind (robomaze.bench.mapf)
            "mapf": (_str, False), "agents": (_int(1), False),
            "bucket": (_choice("random", "even"), False), "max_work": (_int(1), False)},
}
_OPAQUE = {"maze": ("options",), "run": ("options",)}  # tables passed through as-is
#: Keys left out of a canonical spec when unset (newer keys: ids stay stable).
_OPTIONAL = {("robot", "noise"), ("robot", "odometry_noise"), ("robot", "localize"),
             ("robot", "kidnap"),
             ("run", "bags")}
#: The method lists joined into the method axis, in order.
_METHOD_KEYS = ("planner", "agent", "mouse", "mapf")
#: Keys only mapf runs use (left out of the other runs' specs).
_MAPF_KEYS = ("agents", "bucket", "max_work")


# ------------------------------------------------------------------ classes
@dataclass(frozen=True)
class Scenario:
    """One fully described run.

    ``spec`` is the canonical nested dict (every key present, defaults
    filled); ``id`` a stable short hash of it; ``base_dir`` the folder that
    relative file names and plugin files are resolved against (not part of
    the id, so ids agree across machines).
    """

    spec: dict
    id: str
    base_dir: str = "."
    sweep: str = ""

    @property
    def kind(self) -> str:
        """``"plan"`` for a grid planner, ``"simulate"`` for an agent, ``"mouse"``
        for a cell-level micromouse solver."""
        if self.spec["run"].get("mouse"):
            return "mouse"
        if self.spec["run"].get("mapf"):
            return "mapf"
        return "plan" if self.spec["run"]["planner"] else "simulate"

    @property
    def method(self) -> str:
        """The planner or agent name."""
        run = self.spec["run"]
        return run["planner"] or run["agent"] or run.get("mouse") or run.get("mapf")

    @property
    def footprint(self) -> str:
        """Text label of the footprint (``disc:0.1``, ``rect:0.4x0.2``...; ``mouse``
        for a micromouse solver, which moves cell to cell)."""
        fp = self.spec["robot"]["footprint"]
        return "mouse" if fp is None else footprint_label(fp)

    @property
    def time_limit(self) -> float:
        return float(self.spec["run"]["time_limit"])

    def to_dict(self) -> dict:
        """JSON-ready form (``Scenario.from_dict`` inverts it)."""
        return {"id": self.id, "spec": copy.deepcopy(self.spec),
                "base_dir": self.base_dir, "sweep": self.sweep}

    @classmethod
    def from_dict(cls, d: dict) -> "Scenario":
        return cls(spec=d["spec"], id=d["id"], base_dir=d.get("base_dir", "."),
                   sweep=d.get("sweep", ""))


@dataclass(frozen=True)
class Sweep:
    """A loaded sweep: its metadata and expanded scenarios (in file order)."""

    name: str
    description: str
    source: str
    scenarios: list[Scenario] = field(default_factory=list)


def scenario_id(spec: dict) -> str:
    """Stable 12-hex-digit id of a canonical scenario dict.

    The wall-clock safety net ``run.time_limit`` is not part of the id: it
    decides no result, so changing it keeps the runs (and resumes them).

    >>> scenario_id({"a": 1, "b": [1, 2]}) == scenario_id({"b": [1, 2], "a": 1})
    True
    >>> scenario_id({"run": {"dt": 0.1, "time_limit": 5}}) == scenario_id({"run": {"dt": 0.1}})
    True
    """
    run = spec.get("run") if isinstance(spec, dict) else None
    if isinstance(run, dict) and ("time_limit" in run or "bags" in run):
        # neither decides a result: the safety net, and whether a bag is written
        spec = dict(spec, run={k: v for k, v in run.items() if k not in ("time_limit", "bags")})
    text = json.dumps(spec, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


# ------------------------------------------------------------------ parsing
def load_sweep(path: str | Path, *, check_names: bool = True,
               max_runs: int | None = None) -> Sweep:
    """Read, validate and expand a TOML sweep (or single scenario) file.

    Raises
    ------
    ScenarioError
        Naming the file, the key path, the bad value and what was expected.
    """
    path = Path(path)
    data = _read_toml(path)
    return parse_sweep(data, source=str(path), base_dir=str(path.resolve().parent),
                       check_names=check_names, max_runs=max_runs)


#: Deepest nesting of arrays and tables a sweep file may have (a real one has 4).
MAX_DEPTH = _readfile.MAX_DEPTH


def _read_toml(path: Path) -> dict:
    """The TOML table of a sweep file, read by the one guarded reader
    (:func:`robomaze._readfile.load_toml`): a regular file (a FIFO or a
    device is refused before open) within the size limit, UTF-8, nested at
    most :data:`MAX_DEPTH` deep."""
    from .files import file_problem

    if file_problem(path) == "no such file":
        raise ScenarioError(f"{path}: no such sweep file")
    return _readfile.load_toml(path, ScenarioError, expected="a UTF-8 TOML sweep file",
                               max_depth=MAX_DEPTH)


_depth = _readfile.nesting_depth


def parse_sweep(data: dict, *, source: str = "<sweep>", base_dir: str = ".",
                check_names: bool = True, max_runs: int | None = None) -> Sweep:
    """Validate and expand a sweep given as a dict (what ``tomllib`` returns).

    ``max_runs`` (default :data:`MAX_RUNS`) bounds the number of runs, counted
    as the product of the axis lengths before anything is expanded.
    """
    def fail(key: str, value, expected: str):
        raise ScenarioError(f"{source}: {key}: expected {expected}, got {value!r}")

    if not isinstance(data, dict):
        fail("<top>", data, "a table")
    for k in data:
        if k not in _SPEC and k not in _SPEC[""] and k not in _META and k != "plugins":
            fail(k, data[k], "one of the keys "
                 + ", ".join(sorted([*_SPEC[""], *_META, "plugins", *(s for s in _SPEC if s)])))
    for k in _META:
        if k in data and not isinstance(data[k], str):
            fail(k, data[k], "a string")
    plugins = data.get("plugins", [])
    if not isinstance(plugins, list) or not all(isinstance(p, str) and p for p in plugins):
        fail("plugins", plugins, "a list of module names or .py file paths")

    # axes: list of (section, key, [values...]) in a fixed order
    axes: list[tuple[str, str, list]] = []
    for section, keys in _SPEC.items():
        table = data if section == "" else data.get(section, {})
        if section and not isinstance(table, dict):
            fail(section, table, "a table")
        if section:
            allowed = set(keys) | set(_OPAQUE.get(section, ()))
            for k in table:
                if k not in allowed:
                    fail(f"{section}.{k}", table[k], "one of the keys "
                         + ", ".join(sorted(allowed)) + f" in [{section}]")
        for key, (check, listy) in keys.items():
            if table.get(key) is None:  # absent (TOML has no null)
                continue
            path = f"{section}.{key}" if section else key
            raw = table[key]
            is_axis = isinstance(raw, list) and (not listy or (raw and isinstance(raw[0], list)))
            values = raw if is_axis else [raw]
            if is_axis and not values:
                fail(path, raw, "a non-empty list")
            out = []
            for i, v in enumerate(values):
                try:
                    out.append(check(v))
                except _Bad as exc:
                    fail(f"{path}[{i}]" if is_axis else path, v, exc.expected)
            axes.append((section, key, out))
        for key in _OPAQUE.get(section, ()):
            if key in table and not isinstance(table[key], dict):
                fail(f"{section}.{key}", table[key], "a table")

    by_key = {(s, k): v for s, k, v in axes}
    maze_src = [k for k in ("generator", "file", "grid") if ("maze", k) in by_key]
    if len(maze_src) != 1:
        fail("maze", data.get("maze", {}), "exactly one of maze.generator, maze.file, maze.grid")
    if maze_src == ["grid"] and not (("maze", "start") in by_key and ("maze", "goal") in by_key):
        fail("maze", data.get("maze", {}), "maze.start and maze.goal (grid cells) with maze.grid")
    methods = [(k, m) for k in _METHOD_KEYS for m in by_key.get(("run", k), [])]
    if not methods:
        fail("run", data.get("run", {}), "run.planner and/or run.agent (or run.mouse)")
    if ("robot", "footprint") not in by_key and any(k not in ("mouse", "mapf")
                                                    for k, _ in methods):
        fail("robot.footprint", None, 'a footprint such as "disc:0.1"')
    if maze_src == ["grid"] and any(k == "mouse" for k, _ in methods):
        fail("run.mouse", by_key[("run", "mouse")], "a maze (maze.generator or maze.file): "
             "a micromouse solver runs on maze cells, not on a grid file")
    opts = data.get("run", {}).get("options", {})
    for name, o in opts.items():
        if not isinstance(o, dict):
            fail(f"run.options.{name}", o, "a table of options for that method")

    # counted before anything is expanded: a typo'd sweep of 10**9 runs is refused
    # at once instead of growing in memory
    sizes = {f"{s_}.{k}" if s_ else k: len(v) for s_, k, v in axes
             if (s_, k) not in (("run", "planner"), ("run", "agent"))}
    sizes["methods"] = len(methods)
    count = math.prod(sizes.values())
    limit = MAX_RUNS if max_runs is None else max_runs
    if count > limit:
        lengths = " x ".join(f"{n} {k}" for k, n in sizes.items() if n > 1 or k == "methods")
        raise ScenarioError(
            f"{source}: the sweep has {count:,d} runs (the product of its axis lengths: "
            f"{lengths}), more than the limit of "
            f"{limit:,d}; expected at most {limit:,d} runs (split the sweep, or raise the "
            "limit with --max-runs)")

    sweep_plugins = list(plugins)
    if check_names:
        _check_names(source, base_dir, sweep_plugins, by_key, methods, opts)
        _check_runs(source, by_key, methods, opts)
        _check_files(source, base_dir, by_key)

    axes = [(s, k, v) for s, k, v in axes if not (s == "run" and k in _METHOD_KEYS)]
    scenarios = []
    for combo in itertools.product(*(v for _, _, v in axes), methods):
        spec = copy.deepcopy(DEFAULTS)
        spec["plugins"] = sweep_plugins
        spec["maze"]["options"] = copy.deepcopy(data.get("maze", {}).get("options", {}))
        for (section, key, _), value in zip(axes, combo[:-1]):
            if value is None and (section, key) in _OPTIONAL:
                continue
            if section:
                spec[section][key] = copy.deepcopy(value)
            else:
                spec[key] = value
        mkind, mname = combo[-1]
        spec["run"][mkind] = mname
        _only_what_the_method_uses(spec, mkind)
        spec["run"]["options"] = copy.deepcopy(opts.get(mname, {}))
        try:
            json.dumps(spec, allow_nan=False)
        except (TypeError, ValueError) as exc:  # e.g. TOML datetimes in options
            raise ScenarioError(f"{source}: options must be plain TOML values: {exc}") from None
        scenarios.append(Scenario(spec=spec, id=scenario_id(spec), base_dir=base_dir,
                                  sweep=source))
    # identical combinations (e.g. a repeated list entry) would share one id
    seen: dict[str, Scenario] = {}
    for sc in scenarios:
        seen.setdefault(sc.id, sc)
    return Sweep(name=str(data.get("name", Path(source).stem)),
                 description=str(data.get("description", "")), source=source,
                 scenarios=list(seen.values()))


def _only_what_the_method_uses(spec: dict, mkind: str) -> None:
    """Drop the keys a method ignores (see the module notes), in place."""
    if mkind != "agent":
        for section, key in _OPTIONAL:
            spec[section].pop(key, None)
    if mkind != "mouse":
        spec["run"].pop("profile", None)
    if mkind != "mapf":
        for key in _MAPF_KEYS:
            spec["run"].pop(key, None)
    if mkind == "mouse":
        spec["widen"] = copy.deepcopy(DEFAULTS["widen"])
        spec["robot"] = {"footprint": None, "sensor": DEFAULTS["robot"]["sensor"]}
        for key in ("connectivity", "max_steps", "dt"):
            spec["run"][key] = DEFAULTS["run"][key]


def _check_names(source, base_dir, plugins, by_key, methods, opts) -> None:
    """Unknown generator / planner / agent names fail before any run."""
    from .plugins import import_plugins

    try:
        import_plugins(plugins, base_dir)
    except Exception as exc:  # a plugin that fails to import is the user's error
        raise ScenarioError(f"{source}: plugins: could not import: {exc}") from None

    def known(kind: str):
        from .. import registry

        reg = registry.get(kind)
        len(reg)   # its provider imports here: an ImportError if the package is missing
        return reg

    checks = [("maze.generator", "generator", by_key.get(("maze", "generator"), []))]
    checks.append(("run.planner", "planner", [m for k, m in methods if k == "planner"]))
    checks.append(("run.agent", "agent", [m for k, m in methods if k == "agent"]))
    checks.append(("run.mouse", "mouse", [m for k, m in methods if k == "mouse"]))
    checks.append(("run.mapf", "mapf", [m for k, m in methods if k == "mapf"]))
    if any(k == "agent" for k, _ in methods):  # only agents carry sensors
        checks.append(("robot.sensor", "sensor", by_key.get(("robot", "sensor"), ["lidar"])))
    for path, kind, names in checks:
        if not names:
            continue
        try:
            reg = known(kind)
        except ImportError as exc:
            raise ScenarioError(f"{source}: {path}: {kind}s are not available "
                                f"in this installation ({exc})") from None
        for name in names:
            if name not in reg:
                raise ScenarioError(
                    f"{source}: {path}: unknown {kind} {name!r}; expected one of: "
                    f"{', '.join(sorted(reg))}")
    for name in opts:
        if name not in {m for _, m in methods}:
            raise ScenarioError(
                f"{source}: run.options.{name}: options for a method the sweep does not "
                f"run; expected one of: {', '.join(sorted({m for _, m in methods}))}")
    for name in by_key.get(("run", "profile"), []):
        # mouse profiles: a preset name or a TOML file relative to the sweep
        from ..errors import RobomazeError
        from ..micromouse import PROFILES, get_profile
        is_file = name.endswith(".toml") or os.sep in name
        path = os.path.join(base_dir, name) if is_file and name not in PROFILES else name
        try:
            get_profile(path)
        except RobomazeError as exc:
            raise ScenarioError(f"{source}: run.profile: {exc}") from None


def _check_runs(source, by_key, methods, opts) -> None:
    """What would otherwise fail run by run: options a method does not take,
    footprints that are no valid shape, mazes too large once widened."""
    from .._validate import check_cells
    from ..errors import RobomazeError
    from ..registry import check_options

    for kind, name in methods:
        options = opts.get(name)
        if not options:
            continue
        try:
            check_options(kind, name, options)
        except RobomazeError as exc:
            where = f"run.options.{name}" + (f".{exc.option}" if hasattr(exc, "option") else "")
            raise ScenarioError(f"{source}: {where}: {exc}") from None
    from .run import build_footprint

    for i, fp in enumerate(by_key.get(("robot", "footprint"), [])):
        try:
            build_footprint(fp)
        except (RobomazeError, ValueError) as exc:
            raise ScenarioError(f"{source}: robot.footprint: {footprint_label(fp)!r} is not a "
                                f"valid robot shape: {exc}") from None
    if ("maze", "generator") in by_key:
        dims = [by_key.get(("maze", k), [DEFAULTS["maze"][k]]) for k in ("rows", "cols")]
        wid = [by_key.get(("widen", k), [DEFAULTS["widen"][k]]) for k in ("corridor", "wall")]
        rows, cols, k, t = max(dims[0]), max(dims[1]), max(wid[0]), max(wid[1])
        gr, gc = rows * (k + t) + t, cols * (k + t) + t  # as robomaze.grid.widen builds it
        try:
            check_cells(f"a {rows}x{cols} maze", rows * cols, "maze.rows*maze.cols")
            check_cells(f"widening a {rows}x{cols} maze with corridor={k}, wall={t} gives a "
                        f"{gr}x{gc} grid, which", gr * gc, "grid rows*cols")
        except RobomazeError as exc:
            raise ScenarioError(f"{source}: maze/widen: {exc}") from None


def _check_files(source, base_dir, by_key) -> None:
    """Every maze and grid file of the sweep is read once, before any run: a
    bad file is refused up front with its parse error, not stored in every row."""
    from ..errors import RobomazeError
    from ..io import read_grid, read_maze
    from .files import file_problem
    from .run import _resolve

    for key, reader in (("file", read_maze), ("grid", read_grid)):
        for name in by_key.get(("maze", key), []):
            path = _resolve(name, base_dir)
            problem = file_problem(path)
            if problem is not None:
                raise ScenarioError(f"{source}: maze.{key}: {problem} {str(path)!r}"
                                    if problem == "no such file" else
                                    f"{source}: maze.{key}: {str(path)!r} {problem}")
            try:
                reader(path)
            except (RobomazeError, OSError) as exc:
                raise ScenarioError(f"{source}: maze.{key}: {name!r}: {exc}") from None
