"""One world spec, one seed rule: a description of a world, and the world it builds.

Every front end of robomaze -- the CLI, a benchmark sweep, the Gymnasium
env, walk records and the play game -- builds its world through
:class:`WorldSpec`, so one seed names one maze everywhere: the maze of a
sweep row with ``seed = 3`` is the maze of ``robomaze generate kruskal 20x20
--seed 3``.

The seed rule
-------------
A world has one integer ``seed``. Each stage that draws random numbers gets
its own generator, derived from that seed and nothing else:

========  ==============================================================
stage     generator
========  ==============================================================
maze      ``numpy.random.default_rng(seed)``: the generator, then braiding,
          then the start/goal placement, in that order, from one stream
method    ``numpy.random.default_rng(SeedSequence(seed, spawn_key=(1,)))``:
          the planner's or agent's own draws (sensor noise, odometry noise,
          sampling planners' seeds), independent of the maze stream
========  ==============================================================

(``SeedSequence(seed, spawn_key=(1,))`` is ``SeedSequence(seed).spawn(2)[1]``.)

Examples
--------
>>> spec = WorldSpec(generator="kruskal", rows=4, cols=5, corridor=3, seed=3)
>>> world = spec.build()
>>> world.grid.shape, world.start, world.goal
((17, 21), (2, 2), (14, 18))
>>> from robomaze.generate import generate
>>> generate("kruskal", 4, 5, rng=3) == world.maze   # the CLI's maze of --seed 3
True
>>> WorldSpec.from_dict(spec.to_dict()) == spec
True
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

from .errors import ParameterError

__all__ = ["WorldSpec", "World", "stage_rng", "STAGES"]

#: The random stages of a world, in the order of their spawn keys.
STAGES = ("maze", "method")


def stage_rng(seed: int | None, stage: str) -> np.random.Generator:
    """The random generator of one stage of the world named by ``seed``.

    >>> a = stage_rng(7, "method").integers(1 << 30)
    >>> b = np.random.default_rng(np.random.SeedSequence(7).spawn(2)[1]).integers(1 << 30)
    >>> bool(a == b)
    True
    """
    if stage == "maze":
        return np.random.default_rng(seed)
    if stage == "method":
        return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(1,)))
    raise ParameterError(f"stage must be one of {', '.join(STAGES)}, got {stage!r}")


def _cell(name: str, v) -> tuple[int, int] | None:
    if v is None:
        return None
    try:
        r, c = v
        if isinstance(r, bool) or isinstance(c, bool) or int(r) != r or int(c) != c:
            raise ValueError
        return int(r), int(c)
    except (TypeError, ValueError):
        raise ParameterError(f"world {name} must be a [row, col] pair of integers, "
                             f"got {v!r}") from None


@dataclass(frozen=True)
class WorldSpec:
    """Everything that decides a world: maze source, widening, end points, robot, seed.

    Exactly one source: ``generator`` (with ``rows`` and ``cols``), ``file``
    (a maze file: micromouse, JSON, text...) or ``grid`` (an occupancy grid
    file: ROS map, MovingAI map, image, ``.npy``). Files may be ``pkg:``
    samples or paths relative to ``base_dir``. ``start``/``goal`` are maze
    cells for mazes and grid cells for grids. ``footprint`` is a spec string
    (``disc:0.15``) or None for a point robot.
    """

    generator: str | None = None
    rows: int | None = None
    cols: int | None = None
    file: str | None = None
    grid: str | None = None
    braid: float = 0.0
    placement: str = "corners"
    options: dict = field(default_factory=dict)
    start: tuple | None = None
    goal: tuple | None = None
    corridor: int = 1
    wall: int = 1
    resolution: float = 1.0
    footprint: str | None = None
    seed: int | None = None
    base_dir: str = "."

    def __post_init__(self):
        sources = [k for k in ("generator", "file", "grid") if getattr(self, k)]
        if len(sources) != 1:
            raise ParameterError("a world needs exactly one maze source (generator, file or "
                                 f"grid), got {', '.join(sources) or 'none'}")
        if self.generator and not (isinstance(self.rows, int) and isinstance(self.cols, int)
                                   and self.rows >= 1 and self.cols >= 1):
            raise ParameterError(f"a generated world needs rows and cols >= 1, got "
                                 f"{self.rows!r}x{self.cols!r}")
        object.__setattr__(self, "start", _cell("start", self.start))
        object.__setattr__(self, "goal", _cell("goal", self.goal))
        object.__setattr__(self, "options", dict(self.options or {}))
        if self.seed is not None and (isinstance(self.seed, bool) or not isinstance(
                self.seed, (int, np.integer)) or self.seed < 0):
            raise ParameterError(f"world seed must be an integer >= 0 or None, got {self.seed!r}")
        if not (isinstance(self.resolution, (int, float)) and math.isfinite(self.resolution)
                and self.resolution > 0):
            raise ParameterError(f"world resolution must be a number > 0, got {self.resolution!r}")

    # ------------------------------------------------------------ dicts
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; :meth:`from_dict` gives back an equal spec."""
        d = asdict(self)
        for k in ("start", "goal"):
            d[k] = list(d[k]) if d[k] is not None else None
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "WorldSpec":
        """The spec of a :meth:`to_dict` dict (unknown keys are refused)."""
        if not isinstance(d, dict):
            raise ParameterError(f"a world spec must be a table, got {type(d).__name__}")
        names = {f.name for f in fields(cls)}
        bad = sorted(set(d) - names)
        if bad:
            raise ParameterError(f"unknown world spec key(s) {', '.join(bad)}; expected "
                                 f"{', '.join(sorted(names))}")
        return cls(**d)

    @classmethod
    def from_scenario(cls, scenario) -> "WorldSpec":
        """The world of a benchmark :class:`robomaze.bench.Scenario`."""
        spec = scenario.spec
        mz, wd = spec["maze"], spec["widen"]
        fp = spec["robot"].get("footprint")
        if isinstance(fp, dict):
            from .geometry import Footprint

            fp = Footprint.from_spec(fp).to_spec()
        return cls(generator=mz.get("generator") or None, rows=mz.get("rows"),
                   cols=mz.get("cols"), file=mz.get("file") or None,
                   grid=mz.get("grid") or None, braid=float(mz.get("braid") or 0.0),
                   placement=mz.get("placement") or "corners",
                   options=dict(mz.get("options") or {}), start=mz.get("start"),
                   goal=mz.get("goal"), corridor=int(wd["corridor"]), wall=int(wd["wall"]),
                   resolution=float(wd["resolution"]), footprint=fp, seed=spec["seed"],
                   base_dir=scenario.base_dir)

    # ------------------------------------------------------------ build
    def resolve(self, name: str) -> Path:
        """A file named by the spec: a ``pkg:`` sample or a path under ``base_dir``."""
        from .data import PREFIX, SAMPLES_DIR, resolve

        if name.startswith(PREFIX):
            return resolve(name)
        p = Path(name).expanduser()
        base = self.base_dir
        if base.startswith(PREFIX):  # a package folder, as portable rows store it
            base = str(SAMPLES_DIR / base[len(PREFIX):])
        return p if p.is_absolute() else Path(base) / p

    def build_maze(self):
        """The cell-level maze (None for a grid source), end points applied."""
        if self.grid:
            return None
        if self.file:
            from .io import read_maze

            maze = read_maze(self.resolve(self.file))
        else:
            from .generate import generate

            maze = generate(self.generator, self.rows, self.cols,
                            rng=stage_rng(self.seed, "maze"), braid=self.braid,
                            placement=self.placement, **self.options)
        if self.start is not None or self.goal is not None:
            maze = maze.replace(start=self.start or maze.start,
                                goals=(self.goal,) if self.goal else maze.goals)
        return maze

    def build(self) -> "World":
        """The world: maze, widened grid, start and goal grid cells, footprint."""
        from .geometry import Footprint
        from .grid import widen

        maze = self.build_maze()
        if maze is None:
            from .io import read_grid

            grid = read_grid(self.resolve(self.grid))
            if self.start is None or self.goal is None:
                raise ParameterError("a world on a grid file needs start and goal grid cells")
            start, goal = self.start, self.goal
        else:
            grid = widen(maze, corridor=self.corridor, wall=self.wall,
                         resolution=self.resolution)
            s, g = grid.start_goal()
            start, goal = (int(s[0]), int(s[1])), (int(g[0]), int(g[1]))
        footprint = Footprint.from_spec(self.footprint) if self.footprint else None
        return World(self, maze, grid, start, goal, footprint)

    # ------------------------------------------------------------ CLI
    def cli_source(self) -> list[str]:
        """The CLI words that build this world (source, seed, widening, footprint)."""
        import shlex

        if self.generator:
            words = [self.generator, f"{self.rows}x{self.cols}", "--seed", str(self.seed)]
            if self.braid:
                words += ["--braid", repr(float(self.braid))]
            if self.placement != "corners":
                words += ["--placement", str(self.placement)]
            if self.options:
                raise ParameterError("generator options have no CLI form in plan/simulate")
        else:
            words = [str(self.resolve(self.file or self.grid))]
        if not self.grid:
            words += ["--corridor", str(self.corridor), "--wall", str(self.wall),
                      "--resolution", repr(float(self.resolution))]
        if self.footprint:
            words += ["--footprint", self.footprint]
        return [shlex.quote(w) for w in words]


@dataclass(frozen=True, eq=False)
class World:
    """A built world: ``maze`` (None on grid files), ``grid``, ``start``/``goal``
    grid cells and ``footprint`` (None for a point robot)."""

    spec: WorldSpec
    maze: Any
    grid: Any
    start: tuple[int, int]
    goal: tuple[int, int]
    footprint: Any

    def rng(self, stage: str = "method") -> np.random.Generator:
        """A fresh generator of one stage (see the module's seed rule)."""
        return stage_rng(self.spec.seed, stage)
