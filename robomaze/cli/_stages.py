"""A command's first run: what to run so that its kernels compile before its work.

``robomaze plan kruskal 15x15 --method collision_free --footprint rect:0.3x0.2``
compiles the generator's kernels, then the planner's, then the path
figures'. Before its real work such a command calls :func:`prepare` with a
*spec* (generator, planner or agent, footprint, widening, options), which
runs the spec's :data:`TASKS` -- the generator on a 5x5 maze, the planner
on a fixed 3x3 maze widened as the command widens, the path figures on a
two-cell path, a 30-step simulation ... -- with the command's own argument
types, through :func:`robomaze._compile.warm`: on two cores when the cache
lacks their kernels, in milliseconds when it holds them.

A task that fails (a footprint that fits nowhere in the little maze) has
compiled what it reached, and the command compiles anything left itself;
results never depend on it (the tests run commands both ways).
"""

from __future__ import annotations

from typing import Callable

from .. import _compile

#: Two cores is what the first-run targets name; more would only split hairs.
MAX_PROCESSES = 2

#: What :func:`prepare` did last in this process (tests and benchmarks read it):
#: :func:`robomaze._compile.warm`'s figures.
STATS: dict = {}


def warm_maze():
    """The fixed 3x3 perfect maze (turns both ways, openings west and east) the
    tasks run on: building it runs no generator.

    >>> warm_maze().is_perfect()
    True
    """
    from ..maze import Maze

    return Maze.from_edges(3, 3, [0, 1, 2, 5, 4, 3, 4, 7], [1, 2, 5, 4, 3, 6, 7, 8],
                           openings=[(0, 0, "W"), (2, 2, "E")])


def _tiny_grid(spec: dict):
    """:func:`warm_maze`, widened as the command widens."""
    from ..world import widen_maze

    return widen_maze(warm_maze(), corridor=spec.get("corridor", 3),
                      wall=spec.get("wall", 1), resolution=spec.get("resolution", 1.0))


def _footprint(spec: dict):
    from ._parse import parse_footprint

    return parse_footprint(spec.get("footprint"))


def _task_generate(spec: dict) -> None:
    from ..generate import generate

    generate(spec["generator"], 5, 5, rng=0, braid=spec.get("braid", 0.0),
             placement=spec.get("placement", "corners"), **spec.get("generator_options", {}))


def _cspace_apart(spec: dict) -> bool:
    """Whether the footprint's configuration space (its dilation kernels) is a
    task of its own, ``"cspace"``, apart from the planner's search: for
    ``collision_free`` with a shape that is not a disc (nor a point), unsmoothed.

    Planned whole, the task compiled the dilation (``dilate_bits``, 1.0 s)
    and then the binned search (4.3 s) in one process while the helper, done
    with the path figures, idled: 5.3 s on the command's side against 2.9 s
    (round 8b, benchmarks/README.md).

    >>> _cspace_apart({"method": "collision_free", "footprint": "rect:0.3x0.2"})
    True
    >>> _cspace_apart({"method": "collision_free", "footprint": "disc:0.1"})
    False
    >>> _cspace_apart({"method": "astar", "footprint": "rect:0.3x0.2"})
    False
    """
    if spec.get("method") != "collision_free" or spec.get("smooth"):
        return False
    fp = _footprint(spec)
    return fp is not None and fp.kind != "disc"


#: Up to this many heading bins ``collision_free`` runs the bin search
#: (``robomaze._search._bins``), above it the state search.
_BIN_SEARCH_MAX = 64


def _headings(spec: dict) -> int:
    return int(spec.get("options", {}).get("headings", 16))


def _task_cspace(spec: dict) -> None:
    """The footprint's heading-binned configuration space (its dilation kernels),
    unpacked into the bin search's layout (its unpacking kernel). Run only
    where :func:`_applies`."""
    from .. import _search
    from ..geometry import cspace_bits

    grid = _tiny_grid(spec)
    bits = cspace_bits(grid, _footprint(spec), headings=_headings(spec))
    _search._unpack_cell_major(bits, *grid.shape)


def _task_heuristic(spec: dict) -> None:
    """The bin search's heuristic (the 4-connected wave field, or the 8-connected
    engine's distances) over a point robot's free cells. Run only where
    :func:`_applies`."""
    from .. import _search

    grid = _tiny_grid(spec)
    (gr, gc) = grid.start_goal()[1]
    _search._bin_heuristic(_bin_masks(spec, grid)[1], *grid.shape, gr * grid.shape[1] + gc,
                           spec.get("connectivity", 4) == 8)


def _bin_masks(spec: dict, grid):
    """A point robot's masks in the bin search's layout, made by numpy: ``(fm, hfree)``
    as :func:`robomaze._search._unpack_cell_major` makes them (the same types)."""
    import numpy as np

    n = _headings(spec)
    words = np.array([(1 << min(16, n - 16 * k)) - 1 for k in range((n + 15) >> 4)], np.uint16)
    padded = np.pad(np.asarray(grid.free, bool), 1).reshape(-1, 1)
    fm = np.ascontiguousarray((padded * words).astype(np.uint16).reshape(-1))
    return fm, np.ascontiguousarray(grid.free, np.uint8).reshape(-1)


def _binned_search(spec: dict, grid) -> None:
    """``collision_free``'s search over (cell, heading bin) states, with the
    kernels' argument types of a real plan, on a point robot's masks made by
    numpy and a zero heuristic: neither the dilation nor the unpacking of its
    bits (``cspace``) nor the heuristic's field (``heuristic``) compiled here.

    As one task (search, unpacking and field: 3.8-5.4 s of compile) it was
    the command's whole share while the helper's three were 4.5 s (round 10,
    benchmarks/README.md).
    """
    import numpy as np

    from .. import _search

    n = _headings(spec)
    rows, cols = grid.shape
    conn8 = spec.get("connectivity", 4) == 8
    (sr, sc), (gr, gc) = grid.start_goal()
    if n > _BIN_SEARCH_MAX:
        # the state search (its own field inside): on the point robot's blocked
        # bits, packed by numpy as cspace_bits packs them
        packed = np.packbits(np.ascontiguousarray(grid.occupied), axis=1, bitorder="little")
        buf = np.zeros((rows, (cols + 63) // 64 * 8), np.uint8)
        buf[:, :packed.shape[1]] = packed
        blocked = np.ascontiguousarray(np.broadcast_to(buf.view("<u8").astype(np.uint64),
                                                       (n, rows, buf.shape[1] // 8)))
        _search.heading_path_packed(blocked, cols, np.arange(n, dtype=np.int64) * (rows * cols)
                                    + sr * cols + sc, gr * cols + gc, -1, conn8=conn8,
                                    rot_cost=0.1)
        return
    fm, hfree = _bin_masks(spec, grid)
    npad = (rows + 2) * (cols + 2)
    # a zero heuristic is consistent: the search is exact, only slower (a tiny maze)
    h = np.zeros(npad) if conn8 else np.zeros(npad, np.int32)
    pstart = (sr + 1) * (cols + 2) + sc + 1
    pgoal = (gr + 1) * (cols + 2) + gc + 1
    _search._bin_path(fm, hfree, h, rows, cols, n, np.arange(n, dtype=np.int64) + pstart * n,
                      pgoal, -1, conn8, 0.1)


def _task_plan(spec: dict) -> None:
    from ..plan import plan, smooth
    from ..world import stage_rng

    grid = _tiny_grid(spec)
    if _cspace_apart(spec):
        _binned_search(spec, grid)
        return
    options = dict(spec.get("options", {}))
    if spec.get("rng"):
        options["rng"] = stage_rng(0, "method")
    fp = _footprint(spec)
    path = plan(grid, None, None, method=spec["method"], footprint=fp,
                connectivity=spec.get("connectivity", 4), **options)
    if spec.get("smooth"):
        smooth(path, grid, fp).summary()  # a smoothed path's figures are measured off-grid


#: Planners whose paths have segments longer than a cell: their figures
#: measure those exactly (the swept disc's clearance), which a path of
#: neighbouring cells never reaches.
_ANY_ANGLE = frozenset({"theta_star"})


def _task_measure(spec: dict) -> None:
    """The figures a command prints of a path (read lazily, so not by the plan task)."""
    from ..plan import make_path

    grid = _tiny_grid(spec)
    (r, c), _ = grid.start_goal()
    fp = _footprint(spec)
    make_path(grid, [(r, c), (r, c + 1)], footprint=fp).summary()
    if spec.get("method") in _ANY_ANGLE:
        # two cells east along the fixed maze's first row (open at any widening):
        # the segment's exact clearance, 1.6 s of compile the command's own
        # process paid after its stages while the helper idled
        make_path(grid, [(r, c), (r, c + 2)], footprint=fp).summary()


def _sensor(spec: dict, grid):
    from ..sense.noise import parse_noise
    from ..sim.runner import default_sensor

    noise = parse_noise(spec.get("noise"))
    return default_sensor(spec.get("sensor", "lidar"), grid,
                          **({} if noise is None else {"noise": noise}))


def _task_env(spec: dict) -> None:
    """The simulator's kernels: sensor scans, collision checks of poses and motions."""
    from ..sim.env import SimEnv
    from ..sim.kinematics import Kinematics
    from ..sim.odometry import parse_odometry_noise
    from ..sim.robot import Robot

    grid = _tiny_grid(spec)
    env = SimEnv(grid, Robot(_footprint(spec), Kinematics(), sensors=(_sensor(spec, grid),)),
                 dt=spec.get("dt", 0.05), max_steps=30,
                 record_scans=spec.get("record_scans", False),
                 odometry_noise=parse_odometry_noise(spec.get("odometry_noise")))
    env.reset(seed=0)
    for _ in range(3):
        env.step((0.2, 0.1))
    env.trajectory()


#: Validity checks a sampling planner may spend inside a stage task: its kernels
#: compile on the first check, and on the little maze a Dubins car finds no
#: exact path, so the whole budget (100,000 checks, 1.25 s of CPU for
#: ``car_pursuit``, twice: the agent's task and the 30-step run) went on a plan
#: nobody reads -- in every run, cached ones too.
STAGE_CHECKS = 2000


def _agent_options(spec: dict) -> dict:
    """The command's agent options, with a sampling planner's budget capped at
    :data:`STAGE_CHECKS` (for agents that declare ``max_checks``).

    >>> _agent_options({"agent": "car_pursuit", "options": {"turning_radius": 0.2}})
    {'turning_radius': 0.2, 'max_checks': 2000}
    >>> _agent_options({"agent": "explore", "options": {}})
    {}
    """
    from ..sim import AGENTS

    options = dict(spec.get("options", {}))
    if any(o.name == "max_checks" for o in AGENTS.spec(spec["agent"]).options):
        options["max_checks"] = min(int(options.get("max_checks", STAGE_CHECKS)), STAGE_CHECKS)
    return options


def _task_agent(spec: dict) -> None:
    """The agent's own kernels (its map, its plans), fed made-up scans: none of the simulator's."""
    import numpy as np

    from ..sim import AGENTS
    from ..sim.agents.base import AgentContext
    from ..sim.env import GoalRegion, default_start
    from ..sim.kinematics import Kinematics

    grid = _tiny_grid(spec)
    sensor = _sensor(spec, grid)
    factory = AGENTS[spec["agent"]]
    start = default_start(grid)
    ctx = AgentContext(footprint=_footprint(spec), kinematics=Kinematics(), sensor=sensor,
                       dt=spec.get("dt", 0.05), start=start, goal=GoalRegion.for_grid(grid),
                       shape=grid.shape, resolution=grid.resolution, origin=grid.origin,
                       widening=grid.widening,
                       grid=grid if AGENTS.spec(spec["agent"]).flag("uses_map") else None,
                       rng=np.random.default_rng(0))
    controller = factory(ctx, **_agent_options(spec))
    scan = sensor.wrap(np.full(sensor.n_beams, 0.5 * sensor.range_max), 0.0)
    for i in range(3):
        controller({"scan": scan, "scans": (scan,), "odom": np.array([*start, 0.0, 0.0]),
                    "time": 0.05 * i})


def _task_simulate(spec: dict) -> None:
    """A 30-step run: what the other tasks did not reach (e.g. localisation)."""
    from ..sense.noise import parse_noise
    from ..sim import simulate
    from ..sim.odometry import parse_odometry_noise

    simulate(_tiny_grid(spec), footprint=_footprint(spec), agent=spec["agent"],
             sensor=spec.get("sensor", "lidar"), max_steps=30, dt=spec.get("dt", 0.05), rng=0,
             record_scans=spec.get("record_scans", False),
             noise=parse_noise(spec.get("noise")),
             odometry_noise=parse_odometry_noise(spec.get("odometry_noise")),
             localize=spec.get("localize", "none"), **_agent_options(spec))


def _task_metrics(spec: dict) -> None:
    """The run metrics (computed at the end of a simulation) of a two-pose run."""
    import numpy as np

    from ..metrics import trajectory_metrics
    from ..sim.env import GoalRegion
    from ..sim.trajectory import Trajectory

    grid = _tiny_grid(spec)
    (r, c), _ = grid.start_goal()
    poses = np.array([[*grid.cell_to_world((r, c)), 0.0], [*grid.cell_to_world((r, c + 1)), 0.0]])
    traj = Trajectory(t=np.array([0.0, 0.05]), poses=poses, commands=np.zeros((2, 2)),
                      collisions=np.zeros(2, bool))
    # reference=False: the optimal length (a visibility graph: shapely and scipy,
    # no kernel) would only import scipy in a helper, 0.45 s of its share
    trajectory_metrics(traj, grid, footprint=_footprint(spec), goal=GoalRegion.for_grid(grid),
                       reference=False)


def _task_clearance(spec: dict) -> None:
    """The grid's clearance field, which the simulator (its collision field) and
    the map-reading agents both compile: one task, so that only one process does."""
    _tiny_grid(spec).clearance()


#: Task name -> function of the spec. In a spec's list the command takes the
#: first task, a helper the next, and so on; ``spec["needs"]`` names the
#: tasks one waits for (those that compile kernels it would compile too).
TASKS: dict[str, Callable[[dict], None]] = {
    "generate": _task_generate,
    "plan": _task_plan,
    "cspace": _task_cspace,
    "heuristic": _task_heuristic,
    "measure": _task_measure,
    "simulate": _task_simulate,
    "metrics": _task_metrics,
    "env": _task_env,
    "agent": _task_agent,
    "clearance": _task_clearance,
}


def _ordered(tasks: list[str]) -> list[str]:
    """``tasks`` with the generator last: it shares no kernel with the other
    tasks (they run on a fixed maze) and, with the small-grid kernels, is among
    the shortest (0.2-0.9 s of compile), so whichever process is done first
    takes it -- as second task it lengthened the helper's share, the longer
    one of ``simulate --agent explore`` (round 7, benchmarks/README.md).

    >>> _ordered(["env", "agent", "metrics", "generate", "simulate"])
    ['env', 'agent', 'metrics', 'simulate', 'generate']
    """
    return [t for t in tasks if t != "generate"] + [t for t in tasks if t == "generate"]


def _shared_clearance(tasks: list[str], needs: dict) -> tuple[list[str], dict]:
    """With both the simulator's and the agent's tasks, the clearance kernel they
    share goes first, as a task of its own that both wait for, and the agent's
    task before the simulator's.

    Started side by side, both compiled it (0.4 s each, and numba's 2-D
    ``np.empty`` twice); the helper starts on a task that waits for nothing
    (the run metrics') while the command compiles the clearance. The command,
    done first (the clearance is the shorter task, and the helper starts
    later), then takes the agent's task, the longest one of a mapping agent
    (explore: its map, its distance field and its descent, 1.8 s of compile
    against the simulator's 1.4 s), and the helper the simulator's after the
    metrics': 2.2 s against 2.1-2.2 s, where the other way round was 1.9 s
    against 2.5 s (round 8, benchmarks/README.md).

    >>> _shared_clearance(["env", "agent", "metrics", "simulate"], {})[0]
    ['clearance', 'agent', 'env', 'metrics', 'simulate']
    >>> _shared_clearance(["plan", "measure"], {})
    (['plan', 'measure'], {})
    """
    if not ("env" in tasks and "agent" in tasks):
        return tasks, needs
    needs = dict(needs)
    for t in ("env", "agent"):
        needs[t] = (*needs.get(t, ()), "clearance")
    rest = [t for t in tasks if t not in ("env", "agent")]
    return ["clearance", "agent", "env"] + rest, needs


#: Kernel files each task always caches: while all of a spec's are cached no
#: helper is forked (a warm start costs milliseconds). None for the generator:
#: which files hold its kernels depends on the generator and the size.
PROBES = {"plan": ("metrics/keyposes.py",), "cspace": ("geometry/_kernels.py",),
          "heuristic": ("_search/__init__.py",),
          "measure": ("geometry/_kernels.py",), "env": ("geometry/_collide_kernels.py",),
          "agent": ("sense/_kernels.py",), "simulate": ("geometry/_collide_kernels.py",),
          "metrics": ("geometry/_kernels.py",)}


def _applies(task: str, spec: dict) -> bool:
    """Whether ``task`` compiles anything for ``spec``: the heading search's
    configuration space and heuristic only for the shapes searched apart.

    A task listed but doing nothing kept its probe file uncached in a fresh
    cache, so every warm ``plan`` of a disc (astar, the default) forked a
    helper and set numba's compiler up for nothing (issue 40, round 16).

    >>> _applies("cspace", {"method": "astar", "footprint": "disc:0.1"})
    False
    >>> _applies("heuristic", {"method": "collision_free", "footprint": "rect:0.3x0.2"})
    True
    >>> _applies("plan", {"method": "astar"})
    True
    """
    if task == "cspace":
        return _cspace_apart(spec)
    if task == "heuristic":
        return _cspace_apart(spec) and _headings(spec) <= _BIN_SEARCH_MAX
    return True


def prepare(spec: dict) -> None:
    """Compile (or load from the cache) the kernels of ``spec["tasks"]``, on
    two cores when the cache lacks them. Never raises; see the module docstring."""
    STATS.clear()
    tasks = _ordered([t for t in spec.get("tasks", ()) if t in TASKS and _applies(t, spec)])
    if not tasks:
        return
    needs = {k: tuple(v) for k, v in spec.get("needs", {}).items()}
    tasks, needs = _shared_clearance(tasks, needs)
    STATS.update(_compile.warm(tasks, lambda task: TASKS[task](spec),
                               needs=lambda task: needs.get(task, ()),
                               probes=[f for t in tasks for f in PROBES.get(t, ())],
                               cap=MAX_PROCESSES))
