"""``robomaze render MAP --mapf-plan PLAN -o OUT.gif``: a MAPF plan animated on its map."""

import numpy as np
import pytest
from PIL import Image

from robomaze.cli import main
from robomaze.grid import OccupancyGrid
from robomaze.io.movingai import write_movingai
from robomaze.mapf import maze_instance, solve, write_plan

CELL = 12


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("render_mapf")
    inst = maze_instance(12, rows=5, cols=5, corridor=2, seed=3)
    res = solve(inst, "lacam")
    write_movingai(OccupancyGrid(inst.occupied), d / "m.map")
    write_plan(res.plan, d / "plan.txt", map_file="m.map", solver="lacam",
               starts=inst.starts, goals=inst.goals)
    return d, inst, res.plan


def _frame(path, k):
    im = Image.open(path)
    im.seek(k)
    return np.asarray(im.convert("RGB")).astype(int)


def test_render_animates_every_agent_in_its_own_colour(files, capsys):
    d, inst, plan = files
    out = d / "anim.gif"
    assert main(["render", str(d / "m.map"), "--mapf-plan", str(d / "plan.txt"), "-o", str(out),
                 "--cell-px", str(CELL)]) == 0
    assert "12 agents" in capsys.readouterr().out
    im = Image.open(out)
    steps = plan.trimmed().steps
    assert im.n_frames == 2 * steps + 1            # two frames per step, the last once
    assert im.size == (inst.shape[1] * CELL, inst.shape[0] * CELL)
    first, last = _frame(out, 0), _frame(out, im.n_frames - 1)
    for fr, cells in ((first, inst.starts), (last, inst.goals)):
        centre = [tuple(fr[r * CELL + CELL // 2, c * CELL + CELL // 2]) for r, c in cells]
        assert len(set(centre)) == inst.n_agents, "one colour per agent"
        wall = tuple(fr[np.argwhere(inst.occupied)[0][0] * CELL + 1,
                        np.argwhere(inst.occupied)[0][1] * CELL + 1])
        floor = tuple(fr[np.argwhere(~inst.occupied)[0][0] * CELL + 1,
                         np.argwhere(~inst.occupied)[0][1] * CELL + 1])
        assert wall not in centre and (245, 245, 245) not in centre
        assert sum(wall) < sum(floor)
    # an agent keeps its colour from start to goal
    c0 = [tuple(first[r * CELL + CELL // 2, c * CELL + CELL // 2]) for r, c in inst.starts]
    c1 = [tuple(last[r * CELL + CELL // 2, c * CELL + CELL // 2]) for r, c in inst.goals]
    assert c0 == c1


def test_render_notes_a_broken_plan_and_refuses_bad_input(files, tmp_path, capsys):
    d, inst, plan = files
    text = (d / "plan.txt").read_text()
    head, body = text.split("solution=\n")
    lines = body.splitlines()
    # agent 1 put on agent 0's cell at step 0: a vertex conflict, still drawn
    first = lines[0].split(":")[1].split("),")
    first[1] = first[0]
    lines[0] = "0:" + "),".join(first)
    (tmp_path / "bad.txt").write_text(head + "solution=\n" + "\n".join(lines) + "\n")
    out = tmp_path / "bad.gif"
    assert main(["render", str(d / "m.map"), "--mapf-plan", str(tmp_path / "bad.txt"),
                 "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "breaks the MAPF rules" in err and out.exists()
    # off the map: one line naming the plan file, exit 2
    far = text.replace("solution=\n0:(", "solution=\n0:(99")
    (tmp_path / "far.txt").write_text(far)
    assert main(["render", str(d / "m.map"), "--mapf-plan", str(tmp_path / "far.txt"),
                 "-o", str(tmp_path / "x.gif")]) == 2
    err = capsys.readouterr().err.strip()
    assert "far.txt" in err and "outside" in err and len(err.splitlines()) == 1
    assert main(["render", str(d / "m.map"), "--mapf-plan", str(d / "plan.txt"),
                 "-o", str(tmp_path / "x.png")]) == 2
    assert ".gif" in capsys.readouterr().err
    assert main(["render", str(d / "m.map"), "--mapf-plan", str(d / "plan.txt"),
                 "-o", str(tmp_path / "x.gif"), "--solution"]) == 2
    assert main(["render", str(d / "m.map"), "--mapf-size", "2", "-o",
                 str(tmp_path / "x.png")]) == 2


def test_render_draws_bodies_from_the_plan_header(tmp_path, capsys):
    from robomaze.mapf import Instance

    occ = np.zeros((6, 6), bool)
    inst = Instance(occ, [(0, 0), (4, 4)], [(4, 0), (0, 4)], size=2)
    res = solve(inst, "cbs")
    write_movingai(OccupancyGrid(occ), tmp_path / "o.map")
    write_plan(res.plan, tmp_path / "p.txt", extra={"size": 2}, goals=inst.goals)
    out = tmp_path / "b.gif"
    assert main(["render", str(tmp_path / "o.map"), "--mapf-plan", str(tmp_path / "p.txt"),
                 "-o", str(out), "--cell-px", "10"]) == 0
    fr = _frame(out, 0)
    # a 2x2 body covers the centre of its 2x2 cells (the point where four cells meet)
    r, c = inst.starts[0]
    assert tuple(fr[r * 10 + 10, c * 10 + 10]) != tuple(fr[3 * 10 + 5, 0 * 10 + 5])
    assert tuple(fr[r * 10 + 10, c * 10 + 10]) != (245, 245, 245)
    # read as point agents (--mapf-size 1) the same spot is floor
    out1 = tmp_path / "p1.gif"
    assert main(["render", str(tmp_path / "o.map"), "--mapf-plan", str(tmp_path / "p.txt"),
                 "-o", str(out1), "--cell-px", "10", "--mapf-size", "1"]) == 0
    assert tuple(_frame(out1, 0)[r * 10 + 10, c * 10 + 10]) == (245, 245, 245)
