"""Maze generators, braiding and start/goal placement.

Every generator is a function ``(rows, cols, *, rng=None, **options) ->
Maze`` returning a perfect maze, registered by name in :data:`GENERATORS`;
:func:`generate` is the front-end that validates, generates, braids and
places start and goal. Hot loops are numba kernels in the private
``_*kernels.py`` modules.

================  ===========================================  ==========
name              algorithm                                    dead ends*
================  ===========================================  ==========
backtracker       iterative randomized depth-first search      10%
hunt_and_kill     random walk + row-major hunt                 9%
growing_tree      active-cell list, newest/mixed/random        10/20/27%
prim              Prim on i.i.d. random edge weights           30.6%
prim_frontier     frontier-cell Prim (In/Frontier labels)      35.7%
kruskal           random edge order, tiled, union-find         30.6%
mst               kruskal's keys and tiles, scipy MST          30.6%
aldous_broder     random walk, first-entrance edges (uniform)  29.4%
wilson            loop-erased random walks (uniform)           29.4%
eller             row by row with set labels                   29.6%
sidewinder        eastward runs closed northward               27.7%
binary_tree       each cell opens north or west                25%
division          recursive division                           27%
wall_adder        walls grown from posts to the boundary       31.5%
scheme_dfs        DFS from (0, 0), rotated direction lists     10%
================  ===========================================  ==========

\\* mean over 30 seeds of 100x100 mazes (sd 0.002-0.003 per maze).

Examples
--------
>>> from robomaze.generate import generate
>>> m = generate("wilson", 8, 12, rng=7, braid=0.5, placement="sides")
>>> m.shape, m.is_perfect(), m.is_connected()
((8, 12), False, True)
"""

from __future__ import annotations

from typing import Callable

from .._seed import as_rng
from .._validate import check_choice, check_fraction
from ..registry import GENERATORS
from ..errors import ParameterError, unknown_name
from ..maze import Maze, check_shape
from .braiding import braid
from .braiding import braid as _braid_maze  # generate() has a `braid` parameter
from .placement import PLACEMENTS, centre_cells, place
from .rows import binary_tree, eller, sidewinder
from .scheme import scheme_dfs
from .search import backtracker, growing_tree, hunt_and_kill
from .trees import kruskal, mst, prim, prim_frontier
from .walks import aldous_broder, wilson
from .walls import division, wall_adder

__all__ = [
    "GENERATORS", "generate", "register", "unregister", "braid", "place", "PLACEMENTS", "centre_cells",
    "backtracker", "prim", "prim_frontier", "kruskal", "aldous_broder", "wilson",
    "hunt_and_kill", "growing_tree", "eller", "sidewinder", "binary_tree",
    "division", "mst", "wall_adder", "scheme_dfs",
]

#: Generator name -> function ``(rows, cols, *, rng=None, **options) -> Maze``:
#: :data:`robomaze.registry.GENERATORS`, specs in ``generate/_specs.py``
#: (entry points in the group ``robomaze.generators`` join on the first lookup).
from . import _specs  # noqa: E402,F401  (declares the built-in generators)


def register(name: str, fn: Callable[..., Maze] | None = None, *, replace: bool = False):
    """Register a generator ``fn(rows, cols, *, rng=None, **options) -> Maze`` (or decorate)."""
    return GENERATORS.register(name, fn, replace=replace)


def unregister(name: str) -> Callable[..., Maze]:
    """Remove the generator registered as ``name`` and return it."""
    return GENERATORS.unregister(name)


def generator_options(name: str) -> tuple[str, ...]:
    """The options a registered generator's spec declares.

    >>> generator_options("growing_tree")
    ('selection', 'mix')
    """
    return tuple(GENERATORS.spec(name).option_names)


def generate(name: str, rows: int, cols: int, *, rng=None, braid: float = 0.0,
             placement: str = "corners", **options) -> Maze:
    """Generate a maze by generator name, then braid it and place start/goal.

    Parameters
    ----------
    name : str
        A key of :data:`GENERATORS`.
    rows, cols : int
        Maze size in cells (>= 1 each).
    rng : numpy.random.Generator, int or None
        Source of randomness for generation, braiding and placement; the
        same seed gives the same maze.
    braid : float
        Fraction of dead ends to remove (0 keeps the maze perfect, 1 leaves
        no dead ends); see :func:`robomaze.generate.braid`.
    placement : {"corners", "sides", "centre", "contest", "delphi"}
        Start/goal placement; see :func:`robomaze.generate.place`.
    **options
        Generator-specific options, e.g. ``selection`` and ``mix`` for
        ``growing_tree``.

    Returns
    -------
    Maze

    Raises
    ------
    UnknownNameError
        If ``name`` is not a registered generator (the message lists them).
    ParameterError
        If the size, ``braid``, ``placement`` or an option is invalid.

    Examples
    --------
    >>> m = generate("kruskal", 5, 6, rng=3)
    >>> m.is_perfect(), m.start, m.goals, m.openings
    (True, (0, 0), ((4, 5),), ((0, 0, 'W'), (4, 5, 'E')))
    >>> generate("nope", 5, 5)
    Traceback (most recent call last):
    ...
    robomaze.errors.UnknownNameError: unknown generator 'nope'; expected one of: ...
    """
    if name not in GENERATORS:
        raise unknown_name("generator", name, GENERATORS)
    rows, cols = check_shape(rows, cols)
    fraction = check_fraction("braid", braid)
    check_choice("placement", "centre" if placement == "center" else placement, PLACEMENTS)
    valid = generator_options(name) if options else ()
    for key in options:
        if key not in valid:
            raise ParameterError(
                f"generator {name!r} has no option {key!r}; expected "
                + (f"one of: {', '.join(valid)}" if valid else "no options"))
    gen = as_rng(rng)
    maze = GENERATORS[name](rows, cols, rng=gen, **options)
    if fraction > 0:
        maze = _braid_maze(maze, fraction, rng=gen)
    return place(maze, placement, rng=gen)
