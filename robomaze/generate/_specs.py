"""The generators' declarations: one :class:`~robomaze.registry.Spec` each.

Every generator is ``fn(rows, cols, *, rng=None, **options) -> Maze``; its
warm-up is one small maze (``generate(name, 5, 5, rng=0)``).

>>> from robomaze.registry import GENERATORS
>>> [o.name for o in GENERATORS.spec("growing_tree").options]
['selection', 'mix']
"""

from __future__ import annotations

from ..registry import GENERATORS, Option, Spec, Warmup

__all__ = ["SPECS"]


def _gen(name: str, module: str, description: str, *options: Option, cost: float = 1.0) -> Spec:
    # compile seconds with an empty cache (benchmarks/README.md, issue 40 round 12);
    # a generator waits for no other task
    return Spec("generator", name, f"robomaze.generate.{module}:{name}", description,
                options=options, takes_rng=True, warmup=Warmup(cost=cost))


SPECS = [
    _gen("backtracker", "search",
         "Recursive backtracker: a randomized depth-first search, run iteratively.", cost=0.4),
    _gen("prim", "trees", 'Randomized Prim on random edge weights ("true" Prim).'),
    _gen("prim_frontier", "trees", "Frontier-cell Prim with In / Frontier labels."),
    # up to 40,000 cells one kernel; the default sweep's three
    _gen("kruskal", "trees", "Kruskal: open walls in increasing random weight unless that "
         "would close a loop.", cost=0.2),
    _gen("aldous_broder", "walks", "Uniform spanning tree by the Aldous-Broder random walk."),
    _gen("wilson", "walks", "Uniform spanning tree by Wilson's loop-erased random walks.",
         cost=0.3),
    _gen("hunt_and_kill", "search", "Hunt-and-kill: random walk into unvisited cells; when "
         "stuck, scan (hunt) for the first unvisited cell next to the maze and attach it."),
    _gen("growing_tree", "search",
         "Growing tree: keep a list of active cells, extend from a chosen one.",
         Option("selection", str, "newest", "which active cell to extend",
                choices=("newest", "random", "mixed")),
         Option("mix", float, 0.5, 'probability of "newest" under selection="mixed"',
                low=0.0, high=1.0)),
    _gen("eller", "rows", "Eller's algorithm: one row at a time, cells labelled by set."),
    _gen("sidewinder", "rows",
         "Sidewinder: runs of eastward passages, each closed by one passage north."),
    _gen("binary_tree", "rows", "Binary tree: every cell opens north or west, chosen at random."),
    _gen("division", "walls", "Recursive division: split each chamber by a wall with one gap."),
    _gen("mst", "trees", "Minimum spanning tree of random edge weights, solved by scipy."),
    _gen("wall_adder", "walls",
         'The wall adder ("Anderson" construction), grown from wall posts.'),
    _gen("scheme_dfs", "scheme", "Depth-first carving exactly as the Scheme program does it."),
]

GENERATORS.declare(*SPECS)
