"""``robomaze mapf``: the written plan passes the validator and a second checker
written here from the file format alone (no robomaze code reads the plan)."""

import re

import numpy as np
import pytest

from robomaze.cli import main
from robomaze.grid import OccupancyGrid
from robomaze.io.movingai import write_movingai
from robomaze.world import WorldSpec


def independent_check(map_text: str, scen_text: str, plan_text: str, agents: int):
    """Parse the three files by hand and check every MAPF rule; returns (soc, makespan)."""
    lines = map_text.splitlines()
    grid = lines[lines.index("map") + 1:]
    free = {(y, x) for y, row in enumerate(grid) for x, ch in enumerate(row) if ch in ".G"}
    rows = [ln.split("\t") for ln in scen_text.splitlines()[1:agents + 1]]
    starts = [(int(r[5]), int(r[4])) for r in rows]         # (y, x)
    goals = [(int(r[7]), int(r[6])) for r in rows]
    head, body = plan_text.split("solution=\n")
    header = dict(ln.split("=", 1) for ln in head.splitlines())
    steps = []
    for t, ln in enumerate(body.splitlines()):
        k, rest = ln.split(":", 1)
        assert int(k) == t
        steps.append([(int(y), int(x)) for x, y in re.findall(r"\((\d+),(\d+)\)", rest)])
    assert all(len(s) == agents for s in steps)
    assert steps[0] == starts and steps[-1] == goals
    for t, conf in enumerate(steps):
        assert len(set(conf)) == agents, f"two agents share a cell at {t}"
        assert all(c in free for c in conf)
        if t:
            prev = steps[t - 1]
            for i in range(agents):
                assert abs(conf[i][0] - prev[i][0]) + abs(conf[i][1] - prev[i][1]) <= 1
            moved = {(prev[i], conf[i]) for i in range(agents) if prev[i] != conf[i]}
            assert not any((b, a) in moved for a, b in moved), f"swap at {t}"
    costs = []
    for i in range(agents):
        last = max([t for t in range(len(steps)) if steps[t][i] != goals[i]], default=-1)
        costs.append(last + 1)
    assert int(header["soc"]) == sum(costs)
    assert int(header["makespan"]) == max(costs)
    return sum(costs), max(costs)


@pytest.fixture
def maze_files(tmp_path):
    grid = WorldSpec(generator="kruskal", rows=8, cols=8, corridor=2, seed=4).build().grid
    write_movingai(OccupancyGrid(grid.occupied), tmp_path / "m.map")
    assert main(["mapf", str(tmp_path / "m.map"), str(tmp_path / "m.scen"), "--new-scen",
                 "--agents", "100", "--seed", "1"]) == 0
    return tmp_path


@pytest.mark.parametrize("solver, agents", [("lacam", 100), ("cbs", 6), ("pibt", 60)])
def test_cli_plan_passes_both_checkers(maze_files, solver, agents, capsys):
    d = maze_files
    out = d / "plan.txt"
    rc = main(["mapf", str(d / "m.map"), str(d / "m.scen"), "--solver", solver,
               "--agents", str(agents), "-o", str(out)])
    assert rc == 0
    soc, mk = independent_check((d / "m.map").read_text(), (d / "m.scen").read_text(),
                                out.read_text(), agents)
    assert f"sum of costs {soc}" in capsys.readouterr().out
    assert main(["mapf", str(d / "m.map"), str(d / "m.scen"), "--agents", str(agents),
                 "--plan", str(out)]) == 0


def test_cli_rejects_tampered_plan_and_bad_input(maze_files, capsys):
    d = maze_files
    out = d / "plan.txt"
    assert main(["mapf", str(d / "m.map"), str(d / "m.scen"), "--agents", "20",
                 "-o", str(out)]) == 0
    text = out.read_text()
    soc = int(re.search(r"soc=(\d+)", text).group(1))
    (d / "bad.txt").write_text(text.replace(f"soc={soc}", f"soc={soc + 1}"))
    capsys.readouterr()
    assert main(["mapf", str(d / "m.map"), str(d / "m.scen"), "--agents", "20",
                 "--plan", str(d / "bad.txt")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "stated sum of costs" in err
    assert main(["mapf", str(d / "m.map"), str(d / "m.scen"), "--solver", "cbz"]) == 2
    assert "did you mean 'cbs'" in capsys.readouterr().err
    assert main(["mapf", str(d / "m.map"), str(d / "m.scen"), "--agents", "101"]) == 2
    assert "agents=101 but the file lists 100" in capsys.readouterr().err


def test_cli_gif(maze_files):
    d = maze_files
    from PIL import Image

    assert main(["mapf", str(d / "m.map"), str(d / "m.scen"), "--agents", "10",
                 "-o", str(d / "p.txt"), "--gif", str(d / "p.gif")]) == 0
    im = Image.open(d / "p.gif")
    assert im.n_frames > 2
    # agents are drawn in distinct colours: the first frame holds at least 10 of them
    colours = {c for _, c in Image.open(d / "p.gif").convert("RGB").getcolors(1 << 16)}
    assert len(colours) >= 12
