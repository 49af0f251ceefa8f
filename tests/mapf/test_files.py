"""Plan files and .scen files read back what was written; bad files are one-line errors."""

import numpy as np
import pytest

from robomaze.errors import MazeFormatError, ParameterError
from robomaze.io.movingai import write_movingai
from robomaze.grid import OccupancyGrid
from robomaze.mapf import (Plan, format_plan, maze_instance, parse_plan, read_mapf,
                           random_instance, write_mapf)
from robomaze.mapf.scen import octile_lengths


def test_plan_round_trip_and_header():
    p = Plan(np.array([[[0, 0], [2, 1]], [[0, 1], [2, 1]], [[1, 1], [2, 1]]]))
    text = format_plan(p, map_file="m.map", solver="cbs")
    assert "soc=2" in text and "makespan=2" in text
    assert "0:(0,0),(1,2)," in text          # (x, y) = (col, row)
    pf = parse_plan(text)
    assert pf.plan.cells.tolist() == p.cells.tolist()
    assert pf.stated("soc") == 2 and pf.header["solver"] == "cbs"


@pytest.mark.parametrize("text, match", [
    ("agents=1\n", "no 'solution=' line"),
    ("solution=\n0:(0,0),\n2:(0,1),\n", "step 2 out of order"),
    ("solution=\n0:(0,0),(1,1),\n1:(0,1),\n", "1 agents on this step; expected 2"),
    ("solution=\n0:(0,x),\n", "expected '\\(x,y\\),' pairs"),
    ("garbage\nsolution=\n0:(0,0),\n", "not a 'key=value' header line"),
])
def test_bad_plan_files(text, match):
    with pytest.raises(MazeFormatError, match=match):
        parse_plan(text, path="p.txt")


def test_scen_round_trip(tmp_path):
    inst = maze_instance(30, rows=6, cols=6, corridor=2, seed=5, bucket="even")
    write_movingai(OccupancyGrid(inst.occupied), tmp_path / "m.map")
    write_mapf(inst, tmp_path / "m.scen", map_name="m.map")
    back = read_mapf(tmp_path / "m.map", tmp_path / "m.scen")
    assert (back.starts == inst.starts).all() and (back.goals == inst.goals).all()
    first = read_mapf(tmp_path / "m.map", tmp_path / "m.scen", agents=7)
    assert first.n_agents == 7 and (first.goals == inst.goals[:7]).all()
    with pytest.raises(MazeFormatError, match="agents=31 but the file lists 30"):
        read_mapf(tmp_path / "m.map", tmp_path / "m.scen", agents=31)


def test_octile_lengths_hand_computed():
    occ = np.zeros((3, 3), bool)
    occ[1, 1] = True
    # around the post: no corner cutting, so (0,0)->(2,2) is 2 + 2 steps... or one diagonal
    # each side: (0,0)->(0,1)->(1,2)? (0,1)->(1,2) cuts (1,1): refused -> 4 straight steps
    d = octile_lengths(occ, [(0, 0), (0, 0)], [(2, 2), (0, 2)])
    assert d.tolist() == [4.0, 2.0]
    d = octile_lengths(np.zeros((3, 3), bool), [(0, 0)], [(2, 2)])
    assert abs(d[0] - 2 * np.sqrt(2)) < 1e-12


def test_generation_is_seeded_and_even_spreads_buckets():
    a = maze_instance(40, rows=8, cols=8, corridor=2, seed=2, bucket="even")
    b = maze_instance(40, rows=8, cols=8, corridor=2, seed=2, bucket="even")
    c = maze_instance(40, rows=8, cols=8, corridor=2, seed=3, bucket="even")
    assert (a.starts == b.starts).all() and (a.goals == b.goals).all()
    assert not ((a.starts == c.starts).all() and (a.goals == c.goals).all())
    d = a.distances()[np.arange(40), a.start_ids()]
    counts = np.bincount(d // 4)
    # even: no bucket holds much more than its share (random draws favour the middle)
    assert counts.max() - counts[counts > 0].min() <= 3
    # random bucket: starts distinct, goals distinct
    r = random_instance(np.zeros((6, 6), bool), 36, seed=1)
    assert len({tuple(s) for s in r.starts}) == 36 and len({tuple(g) for g in r.goals}) == 36
    with pytest.raises(ParameterError, match="agents must be at most 36"):
        random_instance(np.zeros((6, 6), bool), 37, seed=1)


def test_bodies_generated_disjoint():
    inst = maze_instance(6, rows=4, cols=4, corridor=4, wall=1, seed=1, size=2)
    s = inst.starts
    d = np.abs(s[:, None] - s[None]).max(axis=2)
    np.fill_diagonal(d, 99)
    assert d.min() >= 2
