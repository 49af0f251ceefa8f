"""Digests of the walkers', ray caster's, simulator's and generators' outputs, to compare checkouts.

Issue 40, round 12 (r12-walkers): the kernels were reshaped to compile
less; every output must stay byte-identical. Run in each checkout and
compare the printed digests::

    PYTHONPATH=/tmp/base python benchmarks/check_walker_outputs.py [gen classic sense sim]
    PYTHONPATH=. python benchmarks/check_walker_outputs.py

* ``gen``: 12 generators x 25 seeds x 6 sizes (1x1 to 40x40), east walls;
* ``classic``: every classic solver with 1-6 option sets on 18 grids
  (widened backtracker/kruskal/wilson mazes of corridor 1-3, random 0-45%
  obstacles, a room with a block and a wall), 3-4 start/goal pairs each,
  point and disc robot: cells, ``expanded``, info, or the error's text;
  ``fill_sight``: ``fill_dead_ends`` and the sight rays on 300 random grids;
* ``sense``: ``cast_rays`` (40 grids x 3,000 rays, a quarter from grid
  vertices, a quarter on grid lines, a third along the 8 compass
  directions), ``origin_blocked``, ``scan_rows`` (exact and finished),
  ``mark_scan``;
* ``sim``: 5 agents x 2 sensors x 4 seeds, 600 steps.
"""
import hashlib, pickle, sys, os
import numpy as np
from robomaze.plan import plan
from robomaze.maze import Maze
from robomaze.world import widen_maze
from robomaze.grid import OccupancyGrid
from robomaze.generate import generate
from robomaze.errors import RobomazeError

def digest(obj):
    return hashlib.sha256(pickle.dumps(obj, protocol=4)).hexdigest()[:16]

def summary(x):
    if isinstance(x, np.ndarray):
        return ("nd", x.dtype.str, x.shape, x.tobytes())
    if isinstance(x, (list, tuple)):
        return tuple(summary(v) for v in x)
    if isinstance(x, dict):
        return tuple(sorted((k, summary(v)) for k, v in x.items()))
    if isinstance(x, (int, float, str, bool, type(None), np.integer, np.floating)):
        return x
    d = getattr(x, "__dict__", None)
    if d is None and hasattr(x, "__slots__"):
        d = {k: getattr(x, k) for k in x.__slots__ if hasattr(x, k)}
    if d is not None:
        return (type(x).__name__, tuple(sorted((k, summary(v)) for k, v in d.items()
                                                if not k.startswith("_") and not callable(v))))
    return repr(x)

want = set(sys.argv[1:]) or {"gen", "classic", "sense", "sim"}
out = {}

if "gen" in want:
    rec = []
    for name in ["backtracker", "wilson", "kruskal", "sidewinder", "binary_tree", "division",
                 "hunt_and_kill", "prim", "eller", "aldous_broder", "growing_tree", "mst"]:
        for seed in range(25):
            for (r, c) in [(1, 1), (1, 7), (6, 1), (5, 5), (17, 23), (40, 40)]:
                try:
                    m = generate(name, r, c, rng=seed)
                    rec.append((name, seed, r, c, m.east.tobytes() if hasattr(m, "east") else summary(m)))
                except RobomazeError as e:
                    rec.append((name, seed, r, c, str(e)))
    out["gen"] = digest(rec)

def grids():
    gs = []
    rng = np.random.default_rng(7)
    for gen in ["backtracker", "kruskal", "wilson"]:
        for corr in (1, 2, 3):
            m = generate(gen, 7, 9, rng=int(rng.integers(1 << 30)))
            gs.append(widen_maze(m, corridor=corr, wall=1, resolution=0.1))
    for p in (0.0, 0.1, 0.3, 0.45):
        for k in range(2):
            occ = rng.random((23, 31)) < p
            gs.append(OccupancyGrid(occ, resolution=0.1))
    occ = np.zeros((25, 25), bool); occ[10:14, 10:14] = True; occ[3, :20] = True
    gs.append(OccupancyGrid(occ, resolution=0.1))
    return gs

if "classic" in want:
    from robomaze.geometry import Footprint
    rec = []
    solvers = {"wall_follower": [{}, {"hand": "left"}, {"heading": "E"}, {"heading": "S", "hand": "left"},
                                 {"sight": False}, {"route": "loop_erased"}],
               "pledge": [{}, {"hand": "left"}, {"direction": "W"}, {"sight": False}, {"route": "loop_erased"}],
               "tremaux": [{}, {"hand": "left"}, {"sight": False}, {"route": "loop_erased"}],
               "dfs_backtracking": [{"rng": 0}, {"rng": 3, "sight": False}, {"rng": 5, "route": "loop_erased"}],
               "random_mouse": [{"rng": 0}, {"rng": 1, "max_steps": 500}, {"rng": 2, "sight": False}],
               "dead_end_filling": [{}]}
    for gi, g in enumerate(grids()):
        rng = np.random.default_rng(gi)
        try:
            pairs = [g.start_goal()]
        except RobomazeError:
            pairs = []
        fr = np.argwhere(~np.asarray(g.occupied, bool))
        for _ in range(3):
            a = fr[rng.integers(len(fr))]; b = fr[rng.integers(len(fr))]
            pairs.append(((int(a[0]), int(a[1])), (int(b[0]), int(b[1]))))
        for (s, t) in pairs:
            for fp in (None, Footprint.disc(0.1)):
                for name, opts in solvers.items():
                    for o in opts:
                        try:
                            p = plan(g, s, t, method=name, footprint=fp, **o)
                            rec.append((gi, s, t, name, o.items().__repr__(), summary(np.asarray(p.cells)),
                                        getattr(p, "expanded", None), summary(getattr(p, "info", None))))
                        except RobomazeError as e:
                            rec.append((gi, s, t, name, repr(o), type(e).__name__, str(e)))
    out["classic"] = digest(rec)
    out["classic_n"] = len(rec); out["classic_err"] = sum(1 for x in rec if len(x) == 7)
    from robomaze.plan.classic import _kernels as K
    from robomaze.plan.classic.filling import _removable_table
    rec = []
    rng = np.random.default_rng(3)
    tab = _removable_table()
    for k in range(300):
        rows, cols = int(rng.integers(1, 30)), int(rng.integers(1, 30))
        free = (rng.random(rows * cols) < rng.random()).astype(np.uint8)
        a, b = int(rng.integers(rows * cols)), int(rng.integers(rows * cols))
        n = K.fill_dead_ends(free, rows, cols, a, b, tab, np.zeros(rows * cols, np.uint8),
                             np.empty(rows * cols, np.int64))
        rec.append((n, free.tobytes()))
        vis = np.full(rows * cols, -1, np.int8); vis[b] = 8
        K.sight_rays(free, rows, cols, b, vis)
        rec.append(vis.tobytes())
    out["fill_sight"] = digest(rec)

if "sense" in want:
    from robomaze.sense import _kernels as S
    rec = []
    rng = np.random.default_rng(11)
    for k in range(40):
        rows, cols = int(rng.integers(2, 40)), int(rng.integers(2, 40))
        occ = (rng.random(rows * cols) < 0.3).astype(np.uint8)
        n = 3000
        o = rng.random((n, 2)) * [cols, rows]
        o[: n // 4] = np.floor(o[: n // 4])
        o[n // 4: n // 2, 0] = np.floor(o[n // 4: n // 2, 0])
        ang = rng.random(n) * 2 * np.pi
        ang[: n // 3] = np.round(ang[: n // 3] / (np.pi / 4)) * (np.pi / 4)
        dirs = np.stack([np.cos(ang), np.sin(ang)], 1)
        out_ = np.empty(n)
        S.cast_rays(occ, rows, cols, o, dirs, 50.0, out_)
        rec.append(out_.tobytes())
        rec.append(bytes(S.origin_blocked(occ, rows, cols, o[i, 0], o[i, 1]) for i in range(200)))
        poses = np.column_stack([rng.random(50) * cols * 0.1, rng.random(50) * rows * 0.1, rng.random(50) * 6.3])
        beams = np.linspace(-np.pi, np.pi, 37)
        for fin in (False, True):
            sc = np.empty((50, 37))
            S.scan_rows(occ, rows, cols, 0.1, 0.0, 0.0, 0.0, poses, np.array([0.01, 0.0, 0.1]),
                        np.cos(beams), np.sin(beams), 0.02, 1.5, fin, sc)
            rec.append(sc.tobytes())
        mf = np.zeros(rows * cols, np.int32); mh = np.zeros(rows * cols, np.int32)
        for i in range(50):
            rr = sc[i] + rng.normal(0, 0.01, 37)
            S.mark_scan(rows, cols, 0.1, 0.0, 0.0, 0.0, poses[i, 0], poses[i, 1], poses[i, 2], beams,
                        rr, 1.5, mf, mh)
        rec.append((mf.tobytes(), mh.tobytes()))
    out["sense"] = digest(rec)

if "sim" in want:
    from robomaze.sim import simulate
    from robomaze.geometry import Footprint
    rec = []
    for seed in range(4):
        m = generate("backtracker", 5, 6, rng=seed)
        g = widen_maze(m, corridor=3, wall=1, resolution=0.1)
        for agent in ["wall_follow", "tremaux", "explore", "follow_plan", "car_pursuit"]:
            for sensor in ("lidar", "ir"):
                try:
                    r = simulate(g, footprint=Footprint.disc(0.04), agent=agent, sensor=sensor,
                                 max_steps=600, rng=seed)
                    rec.append((seed, agent, sensor, summary(getattr(r, "trajectory", None)),
                                str(getattr(r, "status", None)), summary(getattr(r, "metrics", None))))
                except RobomazeError as e:
                    rec.append((seed, agent, sensor, str(e)))
    out["sim"] = digest(rec)

print(out)
