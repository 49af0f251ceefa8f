"""Outputs of the kernels issue 22's third compile round touched, pinned to the code before it.

The round (benchmarks/README.md, Issue 22, "Compile cost, round three")
made kernels that only other kernels call wrapper-free
(:mod:`robomaze._inner`), rewrote ``min``/``int`` in the ray casters as the
same selects, and moved the loops of :func:`robomaze._search.best_first`
and :func:`robomaze._search._bins.bin_search` to Python (the starts go in
inside the kernels). None of it may change a result: the digests below
were computed by the same calls on f4f75b2, the commit before the round,
and every planner, search, field, heading search (16 and 72 bins), batch
of landmark lengths and simulation (four agents, two sensors, scans
recorded) must reproduce them. Floats are rounded to 1e-6 before hashing.

The footprints' rasterisation and the simulator use numpy's and libm's
transcendental functions, whose last bits depend on the numpy and numba
builds and on the CPU's vector units (numpy takes other code paths with
AVX-512), and one flipped boundary cell changes a path: the digests are
compared where they were computed (:data:`PINNED_ON`) and skipped, with
the reason, elsewhere.
"""

from __future__ import annotations

import hashlib
import platform

import numba
import numpy as np
import pytest

from robomaze import _search as core
from robomaze.generate import generate
from robomaze.geometry import Footprint
from robomaze.grid import widen
from robomaze.plan import plan
from robomaze.sim import simulate

#: the environment the digests were computed in
PINNED_ON = {"numpy": "2.4.6", "numba": "0.68.1", "machine": "x86_64", "avx512f": True}


def _environment() -> dict:
    try:
        from numpy._core._multiarray_umath import __cpu_features__ as cpu
    except ImportError:                                   # numpy 1.x
        from numpy.core._multiarray_umath import __cpu_features__ as cpu
    return {"numpy": np.__version__, "numba": numba.__version__,
            "machine": platform.machine(), "avx512f": bool(cpu.get("AVX512F"))}


#: digests computed on f4f75b2 (before the round) by :func:`_outputs`
PINNED = {
    "1 disc:0.1 astar": "e9a6cb20736d686f",
    "1 disc:0.1 collision_free": "e9a6cb20736d686f",
    "1 disc:0.1 dijkstra": "546aaebb0b25bc4c",
    "1 disc:0.1 max_clearance": "5abbbc23618c094d",
    "1 disc:0.1 theta_star": "8a28e5f379ab0b6e",
    "1 disc:0.1 wavefront": "42eb028b4dd54a70",
    "1 field": "67b17620a6c6d4ef",
    "1 field4": "86770f5a19c298aa",
    "1 heading16": "96955dc5feb5ac2a",
    "1 heading72": "b5eb00c66748c294",
    "1 lengths": "b7be53f5506cff87",
    "1 rect:0.3x0.2 collision_free": "b8d67cba944530d8",
    "1 sim explore ir": "7159f973dc384307 max_steps",
    "1 sim explore lidar": "16adc1f01e73ff1f max_steps",
    "1 sim follow_plan ir": "4fcda37eaf24c3f7 max_steps",
    "1 sim follow_plan lidar": "c1e9089b02af5721 max_steps",
    "1 sim tremaux ir": "1cdf5602f89ce292 max_steps",
    "1 sim tremaux lidar": "b38019df737a806a max_steps",
    "1 sim wall_follow ir": "e43425d1d95a6ddd max_steps",
    "1 sim wall_follow lidar": "091eca5aeb042419 max_steps",
    "1 weighted False 0": "6847506890457a73",
    "1 weighted False 1": "3ee5b38b9e420086",
    "1 weighted False 2": "b3ae72cabe876c36",
    "1 weighted True 0": "bb98b846eebfaafd",
    "1 weighted True 1": "850d0ee7faf09e42",
    "1 weighted True 2": "6b81d4c5a00beef9",
    "2 disc:0.1 astar": "2d737b94d4aeabdb",
    "2 disc:0.1 collision_free": "2d737b94d4aeabdb",
    "2 disc:0.1 dijkstra": "0fdf6d4ca59a48f4",
    "2 disc:0.1 max_clearance": "41a03acbf0b975cc",
    "2 disc:0.1 theta_star": "68bebb63156b4594",
    "2 disc:0.1 wavefront": "7d94b28d88de5712",
    "2 field": "428edd73999e9ea8",
    "2 field4": "0f678d74781ab006",
    "2 heading16": "1ab5484647f10d0e",
    "2 heading72": "b0d80f4fc5d7f5e3",
    "2 lengths": "35d51d0656840473",
    "2 rect:0.3x0.2 collision_free": "a0ec8927a66fa4f6",
    "2 sim explore ir": "4a2c160dfd1b6ff6 max_steps",
    "2 sim explore lidar": "d11f4999dac9ea1c max_steps",
    "2 sim follow_plan ir": "24b13bade2f61ea5 max_steps",
    "2 sim follow_plan lidar": "8371f2388ff5afd7 max_steps",
    "2 sim tremaux ir": "498d03c1701749c6 max_steps",
    "2 sim tremaux lidar": "87b25e5a8e91cd6e max_steps",
    "2 sim wall_follow ir": "db5a7f65af9b3009 max_steps",
    "2 sim wall_follow lidar": "6efa7caad174b20d max_steps",
    "2 weighted False 0": "55f08fb7dc99a906",
    "2 weighted False 1": "eece241aa7a52d01",
    "2 weighted False 2": "2cb747a435fe9ca4",
    "2 weighted True 0": "e5b4fe87ffa1024b",
    "2 weighted True 1": "06a97f7a235c2305",
    "2 weighted True 2": "8b5a936b54109a7c",
}


def _digest(*arrays) -> str:
    m = hashlib.sha256()
    for a in arrays:
        a = np.ascontiguousarray(a)
        if a.dtype.kind == "f":
            a = np.round(a, 6) + 0.0               # + 0.0: -0.0 and 0.0 hash alike
        m.update(str(a.dtype).encode() + str(a.shape).encode() + a.tobytes())
    return m.hexdigest()[:16]


def _outputs() -> dict:
    out = {}
    for seed, braid in ((1, 0.0), (2, 0.5)):
        grid = widen(generate("kruskal", 6, 7, rng=seed, braid=braid), corridor=5,
                     resolution=0.1)
        rows, cols = grid.occupied.shape
        free = ~grid.occupied
        s, t = (3, 3), (rows - 4, cols - 4)        # the first and the last block centre
        src, dst = 3 * cols + 3, rows * cols - 3 * cols - 4
        for fp, methods in (("rect:0.3x0.2", ("collision_free",)),
                            ("disc:0.1", ("collision_free", "astar", "dijkstra", "theta_star",
                                          "max_clearance", "wavefront"))):
            for method in methods:
                try:
                    p = plan(grid, s, t, method=method, footprint=Footprint.from_spec(fp))
                    out[f"{seed} {fp} {method}"] = _digest(
                        p.cells, p.points, [p.length, p.expanded, p.min_clearance_key_poses])
                except Exception as e:
                    out[f"{seed} {fp} {method}"] = type(e).__name__
        out[f"{seed} field"] = _digest(core.distance_field(free, [src]))
        out[f"{seed} field4"] = _digest(core.distance_field(free, [src], conn8=False))
        cost = 1.0 + (np.arange(rows * cols) % 7).reshape(rows, cols) / 3.0
        for conn8 in (True, False):
            for hm in (0, 1, 2):
                cells, exp = core.shortest_path(free, src, dst, conn8=conn8, cost=cost, hmode=hm)
                out[f"{seed} weighted {conn8} {hm}"] = _digest(cells, [exp])
        rng = np.random.default_rng(seed)
        idx = np.flatnonzero(free.ravel())
        out[f"{seed} lengths"] = _digest(core.path_lengths(free, rng.choice(idx, 30),
                                                           rng.choice(idx, 30)))
        # 72 bins: the state search (best_first's HEADING rule); 16: the bin search
        fb = np.repeat(free[None], 72, axis=0)
        fb[::3, 2:5, :] = False
        st, exp = core.heading_path(fb, [src], dst, -1, conn8=True, rot_cost=0.3)
        out[f"{seed} heading72"] = _digest(st, [exp])
        st, exp = core.heading_path(fb[:16], [src], dst, -1, conn8=False, rot_cost=0.3)
        out[f"{seed} heading16"] = _digest(st, [exp])
        for agent in ("follow_plan", "explore", "wall_follow", "tremaux"):
            for sensor in ("lidar", "ir"):
                r = simulate(grid, footprint=Footprint.disc(0.04), agent=agent, sensor=sensor,
                             max_steps=300, rng=seed, record_scans=True)
                tr = r.trajectory
                out[f"{seed} sim {agent} {sensor}"] = (
                    _digest(tr.t, tr.poses, tr.commands, tr.collisions, tr.scans) + " " + r.reason)
    return out


@pytest.fixture(scope="module")
def outputs():
    env = _environment()
    if env != PINNED_ON:
        pytest.skip(f"digests pinned on {PINNED_ON}, this is {env}")
    return _outputs()


@pytest.mark.parametrize("key", sorted(PINNED))
def test_output_is_the_one_before_the_round(outputs, key):
    assert outputs[key] == PINNED[key]


def test_the_digests_cover_paths_not_errors():
    # the calls must have found paths, or the pins would compare error names
    assert not [k for k, v in PINNED.items() if "Error" in v]
    assert len(PINNED) == 52
