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

__all__ = ["WorldSpec", "World", "stage_rng", "STAGES", "seed_of", "parse_footprint",
           "load_file", "widen_maze", "PLACEMENTS"]

#: Where a generated maze puts its start and goal.
PLACEMENTS = ("corners", "sides", "centre", "contest", "delphi")

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


def seed_of(value, name: str = "seed") -> int:
    """The seed rule at the door: ``value`` checked, or a fresh seed when None.

    A fresh seed is drawn from the OS entropy (never global random state) and
    returned, so a front end can print it and the world can be re-created.
    Every front end normalises its seed here, once; below, a seed is an int.

    >>> seed_of(3)
    3
    >>> 0 <= seed_of(None) < 2 ** 32
    True
    >>> seed_of(-1, "--seed")
    Traceback (most recent call last):
    ...
    robomaze.errors.ParameterError: --seed must be an integer >= 0, got -1
    """
    if value is None:
        return int(np.random.SeedSequence().entropy % (2 ** 32))
    from ._validate import check_int

    return check_int(name, value, min_value=0)


def parse_footprint(text, name: str = "footprint"):
    """A robot's shape from its spec string: the one place a footprint string is read.

    ``disc:R``, ``rect:LxW[@RX,RY]`` or ``poly:X,Y;X,Y;...`` (metres) give a
    :class:`robomaze.geometry.Footprint` (through
    :meth:`~robomaze.geometry.Footprint.from_spec`); None, ``""``, ``none``
    and ``point`` give None (a point robot). Errors name ``name``.

    >>> [round(v, 3) for v in parse_footprint("rect:0.6x0.4@0.1,0").geometry.bounds]
    [-0.4, -0.2, 0.2, 0.2]
    >>> parse_footprint("disc:0.3").radius
    0.3
    >>> parse_footprint("point") is None
    True
    >>> parse_footprint("disc:-1", "--footprint")
    Traceback (most recent call last):
    ...
    robomaze.errors.ParameterError: --footprint ...
    """
    from .geometry import Footprint

    if text is None or (isinstance(text, str) and text.strip().lower() in ("", "none", "point")):
        return None
    try:
        return Footprint.from_spec(text)
    except ParameterError as exc:  # "footprint must be ..." -> "--footprint must be ..."
        msg = str(exc)
        if name == "footprint":
            raise
        raise ParameterError(name + msg[len("footprint"):] if msg.startswith("footprint")
                             else f"{name}: {msg}") from None


def load_file(path, *, kind: str | None = None, **options):
    """A maze or a grid from a file, its format recognised from the content.

    A maze format that recognises the file gives a Maze (what
    :func:`robomaze.io.read_maze` reads); otherwise a grid. A 0/1 text matrix
    that is exactly the ``2r+1`` wall matrix of a maze (what ``--corridor 1
    --wall 1`` widening gives) is that Maze; any other matrix is a grid.

    ``kind`` ``"maze"`` or ``"grid"`` recognises only that kind's formats (a
    micromouse command reads mazes, the MovingAI runner grids; a file of the
    other kind is refused naming the formats expected); ``options`` go to
    the format's reader where it takes them (``unknown`` walls of a
    micromouse text, ``strict``).
    """
    import os

    from .io import sniff
    from .maze import Maze

    p = Path(os.fspath(path))
    if not p.is_file():
        raise ParameterError(f"input file {str(p)!r} does not exist or is not a file")
    spec = sniff(p, kind)
    obj = spec.read_file(p, **options)
    if spec.name == "matrix" and kind is None:
        occ = obj.occupied
        try:
            maze = Maze.from_matrix(occ.astype(np.uint8))
        except ParameterError:
            return obj
        # a widened grid (k > 1) can pass as a matrix of a finer maze but its
        # free posts would turn into walls; only an exact 2r+1 matrix is a maze
        if np.array_equal(maze.to_matrix().astype(bool), occ):
            return maze
    return obj


def widen_maze(maze, *, corridor: int = 1, wall: int = 1, resolution: float = 1.0,
               origin=(0.0, 0.0, 0.0)):
    """A given maze (inline walls of a record, a page's maze) widened as a world widens it.

    The one door to :func:`robomaze.grid.widen` above the grid module: a
    :class:`WorldSpec` builds its grid here, and so does every front end that
    holds a maze already rather than a spec of one.

    >>> from robomaze.maze import Maze
    >>> widen_maze(Maze.empty(1, 2), corridor=3, wall=1).shape
    (5, 9)
    """
    from .grid import widen

    return widen(maze, corridor=corridor, wall=wall, resolution=resolution, origin=origin)


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
    (a maze file: micromouse, JSON, text...; or any grid file, recognised by
    content, as the command line takes it) or ``grid`` (an occupancy grid
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

    def portable(self) -> "WorldSpec":
        """This spec as results store it: the same world, named the same on any machine.

        A generated world reads no file, so it names no folder (``base_dir``
        ``"."``: its dict equals the same world's in a walk record or a play
        URL); a file world's folder inside the package becomes ``pkg:...``.

        >>> spec = WorldSpec(generator="kruskal", rows=2, cols=3, seed=1, base_dir="/tmp/x")
        >>> spec.portable().base_dir
        '.'
        """
        from dataclasses import replace

        from .data import PREFIX, SAMPLES_DIR

        if self.generator:
            return replace(self, base_dir=".")
        if self.base_dir.startswith(PREFIX):
            return self
        try:
            rel = Path(self.base_dir).resolve().relative_to(SAMPLES_DIR.resolve())
        except (ValueError, OSError):
            return self
        return replace(self, base_dir=PREFIX + rel.as_posix())

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
        if isinstance(fp, dict):   # a table is converted, not parsed
            from .geometry import Footprint

            fp = Footprint.from_spec(fp).to_spec()
        return cls(generator=mz.get("generator") or None, rows=mz.get("rows"),
                   cols=mz.get("cols"), file=mz.get("file") or None,
                   grid=mz.get("grid") or None, braid=float(mz.get("braid") or 0.0),
                   placement=mz.get("placement") or "corners",
                   options=dict(mz.get("options") or {}), start=mz.get("start"),
                   goal=mz.get("goal"), corridor=int(wd["corridor"]), wall=int(wd["wall"]),
                   resolution=float(wd["resolution"]), footprint=fp, seed=spec["seed"],
                   # a generated world reads no file: its dict names no folder, so a
                   # row's world equals the same world built by the CLI or a record
                   base_dir="." if mz.get("generator") else scenario.base_dir)

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

    def build_source(self):
        """The world's source object: the cell-level maze (end points applied),
        or the occupancy grid of a grid source (a ``grid`` file, or a ``file``
        that holds a grid rather than a maze)."""
        if self.grid:
            from .io import read_grid

            return read_grid(self.resolve(self.grid))
        if self.file:
            obj = load_file(self.resolve(self.file))
            from .maze import Maze

            if not isinstance(obj, Maze):
                return obj
            maze = obj
        else:
            from .generate import generate

            try:
                maze = generate(self.generator, self.rows, self.cols,
                                rng=stage_rng(self.seed, "maze"), braid=self.braid,
                                placement=self.placement, **self.options)
            except TypeError as exc:  # an option the generator does not take
                raise ParameterError(f"generator {self.generator!r} rejected the options "
                                     f"{sorted(self.options)}: {exc}") from None
        if self.start is not None or self.goal is not None:
            maze = maze.replace(start=self.start or maze.start,
                                goals=(self.goal,) if self.goal else maze.goals)
        return maze

    def build_maze(self):
        """The cell-level maze (None for a grid source), end points applied."""
        from .maze import Maze

        obj = self.build_source()
        return obj if isinstance(obj, Maze) else None

    @property
    def robot(self):
        """The footprint (None for a point robot), parsed once per spec."""
        try:
            return self.__dict__["_robot"]
        except KeyError:
            fp = parse_footprint(self.footprint)
            self.__dict__["_robot"] = fp   # a cache, not a field: equality ignores it
            return fp

    def build(self, source=None) -> "World":
        """The world: maze, widened grid, start and goal grid cells, footprint.

        ``source`` is this spec's :meth:`build_source`, when the caller has it
        already (a front end that shows the cell maze too). A ``grid`` source
        needs ``start`` and ``goal``; a ``file`` that holds a grid without
        them gives a world whose ``start``/``goal`` are None (the caller's
        end points decide, as on the command line).
        """
        from .maze import Maze

        obj = self.build_source() if source is None else source
        if isinstance(obj, Maze):
            maze = obj
            grid = widen_maze(maze, corridor=self.corridor, wall=self.wall,
                         resolution=self.resolution)
            s, g = grid.start_goal()
            start, goal = (int(s[0]), int(s[1])), (int(g[0]), int(g[1]))
        else:
            maze, grid = None, obj
            if self.grid and (self.start is None or self.goal is None):
                raise ParameterError("a world on a grid file needs start and goal grid cells")
            start, goal = self.start, self.goal
        return World(self, maze, grid, start, goal, self.robot)

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
