"""The world at the door: every command's world options, declared once, built once.

:func:`add_world_args` declares the options that decide a world -- the
source (a generator and a size, or a maze/grid file or ``pkg:`` sample),
``--seed``, ``--braid``, ``--placement``, ``--corridor``, ``--wall``,
``--resolution``, ``--footprint`` and ``--sensor`` -- with one type, one help
text and one default each. A command that needs another default says so in
its call (``corridor=3``), so each keeps what its users know; one that takes
only some of them names the ones it omits.

:func:`world_spec` turns the parsed options into a
:class:`robomaze.world.WorldSpec` (the seed normalised here, once) and
:func:`build_world` builds it. Nothing below re-parses a size, a seed or a
footprint: the spec and the :class:`~robomaze.world.World` carry them.

============  =======================================  ============================
option        default                                   commands that override it
============  =======================================  ============================
--seed        None (a fresh seed, printed)             
--braid       0
--placement   corners
--corridor    1                                         plan 3, simulate 5;
                                                        render, play: None (no widening)
--wall        1                                         render, play: None
--resolution  1 m per cell                              plan: None (1 for a maze, a grid
                                                        file keeps its own), simulate:
                                                        None (0.1 for a maze)
--footprint   None (a point robot)                      simulate disc:0.15
--sensor      lidar
============  =======================================  ============================

``traffic`` (seed 0, corridor 10, resolution 0.1, footprint disc:0.2; no
--placement, --sensor) and ``mapf`` (--seed 0 only) declare theirs here too.
"""

from __future__ import annotations

import argparse
import os

from .._validate import check_fraction
from ..errors import ParameterError
from ..grid import OccupancyGrid
from ..maze import Maze
from ..world import PLACEMENTS, World, WorldSpec, load_file, seed_of, widen_maze
from ._args import fraction as _fraction
from ._args import nonneg_int as _nonneg_int
from ._args import parse_size
from ._args import positive_float as _positive_float
from ._args import positive_int as _positive_int

__all__ = ["WORLD_OPTIONS", "add_world_args", "world_spec", "build_world", "robot_of", "widened",
           "parse_placement", "parse_seed", "check_maze_args", "build_maze", "load", "load_maze",
           "load_grid", "PLACEMENTS"]

#: The world's options and their one default each (see the module table).
WORLD_OPTIONS = {"seed": None, "braid": 0.0, "placement": "corners", "corridor": 1, "wall": 1,
                 "resolution": 1.0, "footprint": None, "sensor": "lidar"}


def parse_placement(text: str) -> str:
    """One of corners, sides, centre, contest, delphi (``center`` accepted).

    >>> parse_placement("center")
    'centre'
    """
    value = str(text).strip().lower()
    value = {"center": "centre", "corner": "corners", "side": "sides"}.get(value, value)
    if value not in PLACEMENTS:
        raise ParameterError(
            f"--placement must be one of {', '.join(PLACEMENTS)}, got {text!r}")
    return value


# ------------------------------------------------------------------ declaring
#: Forms of the source positionals: "words" (SOURCE..., a file or ALGO
#: ROWSxCOLS: plan, simulate), "algo_size" (ALGO SIZE: generate),
#: "source_size" (SOURCE [SIZE]: play, stats), "file" (IN: render).
SOURCE_FORMS = ("words", "algo_size", "source_size", "file")


def _default_text(v) -> str:
    return "none" if v is None else (f"{v:g}" if isinstance(v, float) else str(v))


def add_world_args(p: argparse.ArgumentParser, *, source: str = "words",
                   omit: tuple[str, ...] = (), maze_resolution: float = 1.0,
                   **defaults) -> None:
    """Declare the world's options on ``p`` (see the module table).

    Parameters
    ----------
    source : {"words", "algo_size", "source_size", "file"} or None
        The shape of the source positionals; ``None`` declares none (a command
        with positionals of its own: ``traffic``'s optional ``ALGO [SIZE]``,
        ``mapf``'s map files), its ``--braid``/``--placement`` declared
        unless omitted.
    omit : tuple of str
        World options this command does not take (keys of :data:`WORLD_OPTIONS`).
    maze_resolution : float
        With ``resolution=None``: the metres per cell a maze is widened with
        (a grid file keeps its own unless ``--resolution`` is given).
    **defaults
        This command's defaults where they differ from :data:`WORLD_OPTIONS`.

    >>> p = argparse.ArgumentParser()
    >>> add_world_args(p, omit=("sensor",), corridor=3)
    >>> a = p.parse_args(["kruskal", "4x5", "--seed", "2"])
    >>> world_spec(a).to_dict()["corridor"], world_spec(a).seed
    (3, 2)
    """
    bad = sorted(set(defaults) - set(WORLD_OPTIONS)) + sorted(set(omit) - set(WORLD_OPTIONS))
    if bad or (source is not None and source not in SOURCE_FORMS):
        raise ValueError(f"unknown world option(s) {bad} or source form {source!r}")
    d = {**WORLD_OPTIONS, **defaults}
    if source == "words":
        p.add_argument("source", nargs="+", metavar="SOURCE",
                       help="a maze/grid file, or ALGO ROWSxCOLS to generate a maze")
    elif source == "algo_size":
        p.add_argument("algorithm", metavar="ALGO", help="generator name, e.g. backtracker")
        p.add_argument("size", metavar="SIZE", help="ROWSxCOLS in maze cells, e.g. 20x30")
    elif source == "source_size":
        p.add_argument("source", metavar="SOURCE",
                       help="generator name, or a maze/grid file")
        p.add_argument("size", metavar="SIZE", nargs="?", default=None,
                       help="ROWSxCOLS in maze cells when SOURCE is a generator")
    elif source == "file":
        p.add_argument("input", metavar="IN", help="maze or grid file")
    p.set_defaults(world_source=source, world_maze_resolution=maze_resolution,
                   world_omit=tuple(omit))
    generated = source != "file"
    if "seed" not in omit:
        p.add_argument("--seed", type=_nonneg_int, default=d["seed"],
                       help="seed of the maze (and of the run's own draws); default "
                            + ("a fresh one, printed" if d["seed"] is None else str(d["seed"])))
    if "braid" not in omit and generated:
        p.add_argument("--braid", type=_fraction, default=d["braid"], metavar="F",
                       help="with a generator: fraction of dead ends to remove, 0..1 "
                            f"(default {_default_text(d['braid'])})")
    if "placement" not in omit and generated:
        p.add_argument("--placement", default=d["placement"], metavar="|".join(PLACEMENTS),
                       help=f"with a generator: where start and goal go "
                            f"(default {d['placement']})")
    if "corridor" not in omit:
        p.add_argument("--corridor", type=_positive_int, default=d["corridor"], metavar="K",
                       help="free grid cells across a corridor when widening a maze "
                            + ("(default: not widened)" if d["corridor"] is None
                               else f"(default {d['corridor']})"))
    if "wall" not in omit:
        p.add_argument("--wall", type=_positive_int, default=d["wall"], metavar="T",
                       help="grid cells across a wall when widening a maze "
                            + ("(default: not widened)" if d["wall"] is None
                               else f"(default {d['wall']})"))
    if "resolution" not in omit:
        p.add_argument("--resolution", type=_positive_float, default=d["resolution"],
                       metavar="M", help="metres per grid cell (default "
                       + (f"{maze_resolution:g} for mazes; a grid file keeps its own)"
                          if d["resolution"] is None else f"{d['resolution']:g})"))
    if "footprint" not in omit:
        p.add_argument("--footprint", default=d["footprint"], metavar="SPEC",
                       help="robot shape: disc:R, rect:LxW[@RX,RY], poly:X,Y;X,Y;... "
                            f"(default {d['footprint'] or 'point'})")
    if "sensor" not in omit:
        p.add_argument("--sensor", default=d["sensor"],
                       help="sensor preset: lidar (0.12-3.5 m), lidar_long (0.15-12 m) or "
                            f"ir (0.02-0.3 m); default {d['sensor']}")


# ------------------------------------------------------------------ building
def _source(args) -> tuple[str | None, str | None]:
    """``(generator, size)`` or ``(file, None)`` of the parsed positionals."""
    from pathlib import Path

    form = args.world_source
    if form == "algo_size":
        return args.algorithm, args.size
    if form == "file":
        return None, None
    if form == "words":
        src = args.source
        if len(src) == 1:
            return None, None
        if len(src) == 2:
            return src[0], src[1]
        raise ParameterError(f"SOURCE must be one file or ALGO ROWSxCOLS, got {' '.join(src)!r}")
    # source_size: a file, or a generator name followed by SIZE
    if Path(args.source).is_file() or str(args.source).startswith("pkg:"):
        if args.size is not None:
            raise ParameterError(f"SIZE {args.size!r} given with the file {args.source!r}; "
                                 f"SIZE is only for generator names")
        return None, None
    if args.size is None:
        raise ParameterError(f"SOURCE {args.source!r} is not a file, so it must be a "
                             f"generator name followed by SIZE (e.g. backtracker 10x10)")
    return args.source, args.size


def _file(args) -> str:
    form = args.world_source
    return args.input if form == "file" else (args.source[0] if form == "words"
                                              else args.source)


def world_spec(args: argparse.Namespace, *, seed: int | None = None, walk: int = 0,
               options: dict | None = None) -> WorldSpec:
    """The :class:`WorldSpec` the parsed options name.

    ``seed`` is the command's seed when it has drawn one already (else
    ``--seed``, or a fresh one); ``walk`` counts the mazes of a session (the
    maze ``walk`` is drawn with ``seed + walk``); ``options`` are the
    generator's own. Unset widening (``None``) builds with 1 (the cell
    maze's own matrix); a grid file keeps its resolution.
    """
    generator, size = _source(args)
    kw = {}
    omit = getattr(args, "world_omit", ())
    res = getattr(args, "resolution", None)
    kw["resolution"] = float(args.world_maze_resolution if res is None else res)
    kw["corridor"] = getattr(args, "corridor", None) or 1
    kw["wall"] = getattr(args, "wall", None) or 1
    if "footprint" not in omit:
        kw["footprint"] = args.footprint
    if generator is not None:
        rows, cols = parse_size(size, "SIZE" if args.world_source != "words" else "size")
        if seed is None:
            seed = seed_of(getattr(args, "seed", None), "--seed")
        return WorldSpec(generator=generator, rows=rows, cols=cols, seed=int(seed) + walk,
                         braid=getattr(args, "braid", 0.0),
                         placement=parse_placement(getattr(args, "placement", "corners")),
                         options=dict(options or {}), **kw)
    # a file's maze draws nothing, but the run's own draws follow the seed too
    s = seed_of(getattr(args, "seed", None), "--seed") if seed is None else seed
    return WorldSpec(file=_file(args), seed=s, **kw)


def robot_of(spec: WorldSpec):
    """The spec's footprint (None: a point robot), its error naming ``--footprint``."""
    try:
        return spec.robot
    except ParameterError as exc:
        msg = str(exc)
        raise ParameterError("--" + msg if msg.startswith("footprint")
                             else f"--footprint: {msg}") from None


def widened(args: argparse.Namespace) -> bool:
    """Whether the command widens a maze: its ``--corridor``/``--wall`` given, or
    defaults that widen (plan, simulate, generate's grids)."""
    return getattr(args, "corridor", None) is not None or getattr(args, "wall", None) is not None


def build_world(args: argparse.Namespace, spec: WorldSpec | None = None, source=None) -> World:
    """The world of ``spec`` (default :func:`world_spec` of ``args``), with the
    command's own rules for a grid file: ``--resolution`` given replaces the
    file's; ``--footprint`` errors name the flag."""
    spec = world_spec(args) if spec is None else spec
    robot_of(spec)
    world = spec.build(source)
    if world.maze is None and getattr(args, "resolution", None) is not None:
        from dataclasses import replace

        world = replace(world, grid=world.grid.replace(resolution=args.resolution))
    return world


# ------------------------------------------------------------------ seeds and generated mazes
def parse_seed(value) -> int:
    """A seed given on the command line, or a fresh one when None
    (:func:`robomaze.world.seed_of`, the one seed rule)."""
    return seed_of(value, "--seed")


def check_maze_args(algorithm: str, braid: float = 0.0, placement: str = "corners") -> None:
    """Refuse an unknown generator, braid or placement in one line, before
    anything is built or compiled (a command's stage tasks compile first)."""
    from ..registry import check_name

    check_fraction("--braid", braid)
    parse_placement(placement)
    check_name("generator", algorithm)


def build_maze(algorithm: str, rows: int, cols: int, *, seed: int, braid: float = 0.0,
               placement: str = "corners", **options) -> Maze:
    """Generate a maze through :class:`robomaze.world.WorldSpec` (the one seed
    rule: the maze of ``--seed S`` is the maze of a sweep row with seed S)."""
    braid = check_fraction("--braid", braid)
    placement = parse_placement(placement)
    try:
        return WorldSpec(generator=algorithm, rows=rows, cols=cols, seed=seed, braid=braid,
                         placement=placement, options=options).build_maze()
    except TypeError as exc:  # an --option the generator does not take
        raise ParameterError(f"generator {algorithm!r} rejected the options "
                             f"{sorted(options)}: {exc}") from None


# ------------------------------------------------------------------ loading (the world module's rules)
def load(path) -> Maze | OccupancyGrid:
    """Load a maze or a grid, recognised from the content
    (:func:`robomaze.world.load_file`, the world's one reading rule)."""
    return load_file(path)


def load_maze(path) -> Maze:
    """Like :func:`load` but the file must hold a maze (not a bare grid)."""
    obj = load(path)
    if isinstance(obj, OccupancyGrid):
        if obj.maze is not None:
            return obj.maze
        raise ParameterError(f"{os.fspath(path)!r} holds an occupancy grid, not a maze; "
                             "expected a maze file (.json, .txt 2r+1 matrix, ...)")
    return obj


def load_grid(path, *, corridor: int = 1, wall: int = 1) -> OccupancyGrid:
    """Like :func:`load`; a maze is widened with ``corridor``/``wall``."""
    obj = load(path)
    if isinstance(obj, Maze):
        return widen_maze(obj, corridor=corridor, wall=wall)
    return obj
