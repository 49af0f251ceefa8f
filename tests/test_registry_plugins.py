"""Three plugins, each one module plus its spec (tests/plugins/): a planner,
an agent with a new non-range sensor, a file format. They pass the registry
contracts, join through entry points and appear in ``robomaze list --json``
with their typed options."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.sparse import csgraph, lil_matrix

from robomaze import Maze, widen
from robomaze.errors import ParameterError
from robomaze.geometry import Footprint
from robomaze.grid import OccupancyGrid
from robomaze.registry import AGENTS, FORMATS, PLANNERS, SENSORS, check_options

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def plugins():
    from tests.plugins import ascii_format, greedy_planner, whisker_agent

    yield greedy_planner, whisker_agent, ascii_format
    for reg, name in ((PLANNERS, "greedy"), (AGENTS, "bumper"), (SENSORS, "whiskers"),
                      (FORMATS, "ascii_grid")):
        if name in reg:
            reg.unregister(name)


# ------------------------------------------------------------------ the planner
def _bfs_length(free: np.ndarray, s, g) -> float:
    """Fewest 4-moves from s to g over ``free`` cells, by scipy's csgraph."""
    rows, cols = free.shape
    adj = lil_matrix((rows * cols, rows * cols))
    for r in range(rows):
        for c in range(cols):
            if not free[r, c]:
                continue
            for dr, dc in ((1, 0), (0, 1)):
                rr, cc = r + dr, c + dc
                if rr < rows and cc < cols and free[rr, cc]:
                    adj[r * cols + c, rr * cols + cc] = adj[rr * cols + cc, r * cols + c] = 1
    d = csgraph.shortest_path(adj.tocsr(), unweighted=True, indices=s[0] * cols + s[1])
    return float(d[g[0] * cols + g[1]])


def test_planner_plugin_passes_the_contract(plugins):
    from robomaze.testing import check_planner

    spec = PLANNERS.spec("greedy")
    assert check_planner(spec) == "planner greedy: 4 checks passed"
    assert check_planner(spec, tie_break="lifo") == "planner greedy: 4 checks passed"
    with pytest.raises(ParameterError, match="option tie_break='random': expected one of "
                                             "'fifo', 'lifo'"):
        check_planner(spec, tie_break="random")


def test_planner_plugin_is_never_shorter_than_the_shortest_path(plugins):
    from robomaze.generate import generate
    from robomaze.plan import plan

    for seed in range(5):
        g = widen(generate("kruskal", 5, 5, rng=seed, braid=0.5), corridor=1, wall=1)
        s, goal = g.start_goal()
        p = plan(g, s, goal, method="greedy")
        best = _bfs_length(~g.occupied, s, goal)
        # unit moves of one grid cell (resolution 1 m): at least the fewest moves
        assert p.collision_free and p.length == len(p.cells) - 1 >= best
        assert tuple(p.cells[0]) == tuple(s) and tuple(p.cells[-1]) == tuple(goal)


# ------------------------------------------------------------------ the sensor and the agent
def test_whiskers_read_contact_by_hand(plugins):
    from tests.plugins.whisker_agent import whiskers

    # a 5x5 room of 1 m cells walled on its border; the robot at the centre
    # of cell (1, 1) (world (1.5, 3.5), y up) facing +x
    occ = np.zeros((5, 5), bool)
    occ[0, :] = occ[-1, :] = occ[:, 0] = occ[:, -1] = True
    g = OccupancyGrid(occ, resolution=1.0)
    x, y = g.cell_to_world((1, 1))
    w = whiskers(n=4, length=0.7)   # feelers ahead, left, behind, right
    # the wall is 0.5 m behind (cell (1, 0)) and 0.5 m to the left (cell (0, 1))
    assert w.observe(g, (x, y, 0.0)).tolist() == [False, True, True, False]
    assert whiskers(n=4, length=0.4).observe(g, (x, y, 0.0)).tolist() == [False] * 4
    from robomaze.sense import is_sensor

    assert is_sensor(w) and w.describe() == {"type": "whiskers", "n": 4, "length": 0.7}


def test_agent_plugin_with_a_contact_sensor_passes_the_contract(plugins):
    from robomaze.sim import simulate
    from robomaze.testing import check_agent

    assert check_agent(AGENTS.spec("bumper"), sensor="whiskers") == \
        "agent bumper: 4 checks passed"
    g = widen(Maze.empty(2, 2), corridor=5, wall=1, resolution=0.1)
    # its spec needs a contact sensor: a lidar is refused in one line
    with pytest.raises(ParameterError, match="agent 'bumper' needs a contact sensor, got "
                                             "'lidar'"):
        simulate(g, footprint=Footprint.disc(0.1), agent="bumper", sensor="lidar", rng=0)
    # and explore, which reads distances, refuses the whiskers
    with pytest.raises(ParameterError, match="agent 'explore' needs a range sensor"):
        simulate(g, footprint=Footprint.disc(0.1), agent="explore", sensor="whiskers", rng=0)


def test_the_simulator_records_a_non_range_sensor(plugins):
    from robomaze.sim import simulate
    from robomaze.generate import generate

    g = widen(generate("kruskal", 3, 3, rng=2), corridor=4, wall=1, resolution=0.1)
    seen = []
    r = simulate(g, footprint=Footprint.disc(0.1), agent="bumper", sensor="whiskers",
                 rng=1, max_steps=600, record_scans=True, observer=seen.append)
    touches = np.array([o["scan"] for o in seen])
    assert touches.dtype == bool and touches.shape == (len(seen), 8)
    assert touches.any()                 # in a maze the feelers meet walls
    assert r.trajectory.scans.shape == (len(r.trajectory), 8)
    assert np.array_equal(r.trajectory.scans.astype(bool), touches[1:len(r.trajectory) + 1]) \
        or np.array_equal(r.trajectory.scans.astype(bool), touches[:len(r.trajectory)])


# ------------------------------------------------------------------ the format
def test_format_plugin_reads_what_it_writes_and_checks_its_options(plugins, tmp_path):
    from robomaze.io import read, read_grid, sniff, write_grid

    g = widen(Maze.empty(2, 3), corridor=2, wall=1)
    path = tmp_path / "room.agrid"
    write_grid(g, path)
    assert sniff(path).name == "ascii_grid"
    back = read_grid(path, resolution=0.25)
    assert np.array_equal(back.occupied, g.occupied) and back.resolution == 0.25
    other = tmp_path / "room.txt"        # content, not extension, picks the reader
    magic, body = path.read_text().split("\n", 1)
    other.write_text(magic + "\n" + body.replace("#", "X"))
    assert np.array_equal(read(other, kind="grid", wall="X").occupied, g.occupied)
    with pytest.raises(ParameterError, match="format 'ascii_grid' option wall='Z': expected "
                                             "one of '#', 'X', '@'"):
        read(other, kind="grid", wall="Z")
    with pytest.raises(ParameterError, match="takes no option 'wal'; did you mean 'wall'"):
        check_options("format", "ascii_grid", {"wal": "X"})


# ------------------------------------------------------------------ entry points and list --json
def _dist(tmp_path: Path) -> Path:
    """A fake installed distribution whose entry points name the three specs."""
    info = tmp_path / "robomaze_test_plugins-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: robomaze-test-plugins\n"
                                   "Version: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[robomaze.planners]\ngreedy = tests.plugins.greedy_planner:SPEC\n\n"
        "[robomaze.sensors]\nwhiskers = tests.plugins.whisker_agent:SENSOR_SPEC\n\n"
        "[robomaze.agents]\nbumper = tests.plugins.whisker_agent:AGENT_SPEC\n\n"
        "[robomaze.formats]\nascii_grid = tests.plugins.ascii_format:SPEC\n")
    return tmp_path


def _list_json(env_extra: dict) -> dict:
    env = dict(os.environ, **env_extra)
    out = subprocess.run([sys.executable, "-m", "robomaze", "list", "--json"], env=env,
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_entry_point_plugins_appear_in_list_json(tmp_path):
    site = _dist(tmp_path)
    data = _list_json({"PYTHONPATH": os.pathsep.join([str(site), str(ROOT)])})
    by = {k: {e["name"]: e for e in v} for k, v in data.items()}
    greedy = by["planners"]["greedy"]
    assert greedy["entry"] == "tests.plugins.greedy_planner:greedy"
    assert greedy["options"] == [
        {"name": "tie_break", "type": "str", "default": "fifo", "nullable": False,
         "doc": "order of cells equally near the goal", "choices": ["fifo", "lifo"]},
        {"name": "weight", "type": "float", "default": 1.0, "nullable": False,
         "doc": "scale of the distance to the goal", "low": 0.0}]
    assert by["agents"]["bumper"]["needs"] == ["sensor:contact"]
    assert [o["name"] for o in by["agents"]["bumper"]["options"]] == ["speed", "turn", "escape"]
    assert by["sensors"]["whiskers"]["flags"] == ["contact"]
    assert by["sensors"]["whiskers"]["options"][0]["type"] == "int"
    fmt = by["formats"]["ascii_grid"]
    assert fmt["entry"] == "tests.plugins.ascii_format:read_ascii_grid"
    assert [(o["name"], o["type"]) for o in fmt["options"]] == [("resolution", "float"),
                                                                ("wall", "str")]


def test_env_plugins_appear_in_list_json():
    data = _list_json({"PYTHONPATH": str(ROOT),
                       "ROBOMAZE_PLUGINS": os.pathsep.join(["tests.plugins.greedy_planner",
                                                            "tests.plugins.ascii_format"])})
    assert "greedy" in {e["name"] for e in data["planners"]}
    assert "ascii_grid" in {e["name"] for e in data["formats"]}
    assert "bumper" not in {e["name"] for e in data["agents"]}
