"""Outputs of the kernels issue 22's third compile round touched, pinned to the code before it.

The round (benchmarks/README.md, Issue 22, "Compile cost, round three")
made kernels that only other kernels call wrapper-free
(:mod:`robomaze._compile.kernels`), rewrote ``min``/``int`` in the ray casters as the
same selects, and moved the loops of :func:`robomaze._search.best_first`
and :func:`robomaze._search._bins.bin_search` to Python (the starts go in
inside the kernels). None of it may change a result: the references were
computed by the same calls on f4f75b2, the commit before the round, and
every planner, search, field, heading search (16 and 72 bins), batch of
landmark lengths and simulation (four agents, two sensors, scans
recorded) must reproduce them.

They are compared by kind (``tests/_pins.py``), so the verdict holds on
any supported CPU: the integer results of the grid searches (cells,
expansion counts, heading states) exactly, through :func:`int_digest`;
floating-point results (path points and lengths, octile fields, the
simulations' poses and scans) within a tolerance against
``tests/data/pins/pinned_outputs.npz``. The disc footprint's clearance
test uses only square roots (correctly rounded everywhere); the
rectangle's rasterisation and the simulator use sines and cosines, whose
last bits depend on the numpy build and the CPU's vector units, so a
rectangle path and a trajectory may flip a rare boundary element.
"""

from __future__ import annotations

import numpy as np
import pytest

from _pins import REGEN, assert_matches, int_digest, load_reference, save_reference
from robomaze import _search as core
from robomaze.generate import generate
from robomaze.geometry import Footprint
from robomaze.grid import widen
from robomaze.plan import plan
from robomaze.sim import simulate

#: integer results of the grid searches, computed on f4f75b2 (before the round)
PINNED = {
    "1 disc:0.1 astar": "f2d44d1698f36a7f",
    "1 disc:0.1 collision_free": "f2d44d1698f36a7f",
    "1 disc:0.1 dijkstra": "7d8d3dc131ebeca0",
    "1 disc:0.1 max_clearance": "0bca463d15703f50",
    "1 disc:0.1 theta_star": "c5f6f0e39fa618d2",
    "1 disc:0.1 wavefront": "0c4a6aa60bce9675",
    "1 field4": "3dce89736a755fa9",
    "1 heading16": "96955dc5feb5ac2a",
    "1 heading72": "b5eb00c66748c294",
    "1 weighted False 0": "6847506890457a73",
    "1 weighted False 1": "3ee5b38b9e420086",
    "1 weighted False 2": "b3ae72cabe876c36",
    "1 weighted True 0": "bb98b846eebfaafd",
    "1 weighted True 1": "850d0ee7faf09e42",
    "1 weighted True 2": "6b81d4c5a00beef9",
    "2 disc:0.1 astar": "e00bb599e966b2ef",
    "2 disc:0.1 collision_free": "e00bb599e966b2ef",
    "2 disc:0.1 dijkstra": "257805853918440f",
    "2 disc:0.1 max_clearance": "2baee9f9e99ec6cd",
    "2 disc:0.1 theta_star": "5e11ef7d9c9ae89e",
    "2 disc:0.1 wavefront": "56c366586c10026b",
    "2 field4": "e4e1f1cedba814a8",
    "2 heading16": "1ab5484647f10d0e",
    "2 heading72": "b0d80f4fc5d7f5e3",
    "2 weighted False 0": "55f08fb7dc99a906",
    "2 weighted False 1": "eece241aa7a52d01",
    "2 weighted False 2": "2cb747a435fe9ca4",
    "2 weighted True 0": "e5b4fe87ffa1024b",
    "2 weighted True 1": "06a97f7a235c2305",
    "2 weighted True 2": "8b5a936b54109a7c",
}


def _outputs() -> tuple[dict, dict]:
    """(integer digests, floating-point fields) of every pinned call."""
    ints, floats = {}, {}
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
                key = f"{seed} {fp} {method}"
                p = plan(grid, s, t, method=method, footprint=Footprint.from_spec(fp))
                figures = np.array([p.length, p.min_clearance_key_poses])
                if fp.startswith("disc"):
                    ints[key] = int_digest(p.cells, np.array([p.expanded]))
                    floats[key] = {"points": p.points, "figures": figures}
                else:                              # rasterised at headings: sines, cosines
                    floats[key] = {"cells": p.cells, "points": p.points, "figures": figures,
                                   "expanded": np.array([p.expanded])}
        floats[f"{seed} field"] = {"field": core.distance_field(free, [src])}
        # unit steps: a 4-connected field is integers (unreached: -1)
        f4 = np.asarray(core.distance_field(free, [src], conn8=False))
        assert np.array_equal(f4[np.isfinite(f4)], np.round(f4[np.isfinite(f4)]))
        ints[f"{seed} field4"] = int_digest(np.where(np.isfinite(f4), f4, -1).astype(np.int64))
        cost = 1.0 + (np.arange(rows * cols) % 7).reshape(rows, cols) / 3.0
        for conn8 in (True, False):
            for hm in (0, 1, 2):
                cells, exp = core.shortest_path(free, src, dst, conn8=conn8, cost=cost, hmode=hm)
                ints[f"{seed} weighted {conn8} {hm}"] = int_digest(cells, np.array([exp]))
        rng = np.random.default_rng(seed)
        idx = np.flatnonzero(free.ravel())
        floats[f"{seed} lengths"] = {"lengths": core.path_lengths(free, rng.choice(idx, 30),
                                                                  rng.choice(idx, 30))}
        # 72 bins: the state search (best_first's HEADING rule); 16: the bin search
        fb = np.repeat(free[None], 72, axis=0)
        fb[::3, 2:5, :] = False
        st, exp = core.heading_path(fb, [src], dst, -1, conn8=True, rot_cost=0.3)
        ints[f"{seed} heading72"] = int_digest(st, np.array([exp]))
        st, exp = core.heading_path(fb[:16], [src], dst, -1, conn8=False, rot_cost=0.3)
        ints[f"{seed} heading16"] = int_digest(st, np.array([exp]))
        for agent in ("follow_plan", "explore", "wall_follow", "tremaux"):
            for sensor in ("lidar", "ir"):
                r = simulate(grid, footprint=Footprint.disc(0.04), agent=agent, sensor=sensor,
                             max_steps=300, rng=seed, record_scans=True)
                tr = r.trajectory
                seen = np.isfinite(tr.scans)
                floats[f"{seed} sim {agent} {sensor}"] = {
                    "reason": np.array(r.reason), "t": tr.t, "poses": tr.poses,
                    "commands": tr.commands, "collisions": tr.collisions,
                    # per-step summaries keep the file small; each beam is checked
                    # against shapely in tests/sense
                    "scan_seen": seen.sum(axis=1),
                    "scan_mean": np.where(seen, tr.scans, 0.0).sum(axis=1)
                    / np.maximum(seen.sum(axis=1), 1),
                    "scan_min": np.where(seen, tr.scans, np.inf).min(axis=1)}
    return ints, floats


@pytest.fixture(scope="module")
def outputs():
    ints, floats = _outputs()
    if REGEN:
        save_reference("pinned_outputs", floats)
    return ints, floats, load_reference("pinned_outputs")


@pytest.mark.parametrize("key", sorted(PINNED))
def test_integer_results_are_the_ones_before_the_round(outputs, key):
    assert outputs[0][key] == PINNED[key]


#: tolerance per kind: arithmetic-only outputs tight and complete; outputs that
#: pass through sines and cosines with a little room for one boundary flip
TOLERANCE = {"arith": dict(rtol=1e-12, atol=1e-12),
             "trig": dict(rtol=1e-7, atol=1e-7, flip_share=0.01)}


def _kind(key: str) -> str:
    return "trig" if ("rect" in key or " sim " in key) else "arith"


def test_floating_point_results_match_the_reference(outputs):
    _, floats, ref = outputs
    assert set(floats) == set(ref)
    for key in sorted(ref):
        assert_matches(key, floats[key], ref[key], **TOLERANCE[_kind(key)])


def test_the_pins_cover_paths_not_errors(outputs):
    # the calls must have found paths and run their simulations
    ints, floats, ref = outputs
    assert len(PINNED) == 30 and set(PINNED) == set(ints)
    assert len(ref) == 34
    reasons = {str(ref[k]["reason"]) for k in ref if " sim " in k}
    assert reasons == {"max_steps"}
    assert all(ref[k]["figures"][0] > 0 for k in ref if "figures" in ref[k])
