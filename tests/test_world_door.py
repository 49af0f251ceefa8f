"""The world at the door (issue 32 item 1): every command declares the world's
options through one function, builds its world through one spec, and a walk
record, a play URL and a bench row of the same world name one WorldSpec."""

from __future__ import annotations

import ast
import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import robomaze
from robomaze.cli._world import WORLD_OPTIONS
from robomaze.errors import ParameterError
from robomaze.world import WorldSpec, parse_footprint, seed_of

ROOT = Path(robomaze.__file__).parents[1]
PKG = ROOT / "robomaze"

# the world's options each command takes, and its defaults where they differ
DEFAULTS = {
    "generate": {"corridor": 1, "wall": 1, "resolution": 1.0, "seed": None},
    "plan": {"corridor": 3, "wall": 1, "resolution": None, "footprint": None},
    "simulate": {"corridor": 5, "wall": 1, "resolution": None, "footprint": "disc:0.15",
                 "sensor": "lidar"},
    "render": {"corridor": None, "wall": None},
    "play": {"corridor": None, "wall": None, "resolution": 1.0, "footprint": None},
    "stats": {"seed": None, "braid": 0.0, "placement": "corners"},
}


def parser_for(command: str):
    """The sub-command's own parser (its module's ``register``)."""
    import argparse
    import importlib

    sub = argparse.ArgumentParser().add_subparsers()
    importlib.import_module(f"robomaze.cli.{command}").register(sub)
    return sub.choices[command]


def _option(parser, flag):
    return [a for a in parser._actions if flag in a.option_strings]


@pytest.mark.parametrize("command", sorted(DEFAULTS))
def test_each_command_keeps_its_world_defaults(command):
    p = parser_for(command)
    for key, want in DEFAULTS[command].items():
        (action,) = _option(p, "--" + key)
        assert action.default == want, (command, key)


WORLD_FLAGS = ("--corridor", "--wall", "--resolution", "--seed", "--footprint", "--braid",
               "--placement")


def _declarations(monkeypatch) -> dict[str, set[str]]:
    """Every command's parser built, each world flag mapped to the functions
    (``module:function``) whose ``add_argument`` call declared it."""
    import argparse

    import robomaze.cli as cli

    seen: dict[str, set[str]] = {f: set() for f in WORLD_FLAGS}
    real = argparse._ActionsContainer.add_argument

    def add_argument(self, *names, **kw):
        for flag in set(names) & set(WORLD_FLAGS):
            code = sys._getframe(1).f_code
            seen[flag].add(f"{Path(code.co_filename).stem}:{code.co_name}")
        return real(self, *names, **kw)

    monkeypatch.setattr(argparse._ActionsContainer, "add_argument", add_argument)
    monkeypatch.setattr(cli, "_ONLY", None)   # every command's own parser, not a summary
    cli.build_parser()
    return seen


def test_world_flags_are_declared_once(monkeypatch):
    """Among every command's parser (traffic and mapf included), ``--corridor``,
    ``--wall``, ``--resolution``, ``--seed``, ``--footprint``, ``--braid`` and
    ``--placement`` are declared by one function: add_world_args."""
    seen = _declarations(monkeypatch)
    for flag in WORLD_FLAGS:
        assert seen[flag] == {"_world:add_world_args"}, (flag, seen[flag])


def test_the_scan_sees_a_command_that_declares_its_own(monkeypatch):
    """The scan above can fail: a command declaring ``--seed`` itself is found."""
    import robomaze.cli.mapf as mapf

    real = mapf.register

    def register(subparsers):
        real(subparsers)
        subparsers.choices["mapf"].add_argument("--corridor", type=int)

    monkeypatch.setattr(mapf, "register", register)
    seen = _declarations(monkeypatch)
    assert seen["--corridor"] == {"_world:add_world_args", "test_world_door:register"}


@pytest.mark.parametrize("command, flag, want", [
    ("traffic", "--seed", 0), ("traffic", "--corridor", 10), ("traffic", "--wall", 1),
    ("traffic", "--resolution", 0.1), ("traffic", "--footprint", "disc:0.2"),
    ("traffic", "--braid", 0.0), ("mapf", "--seed", 0)])
def test_traffic_and_mapf_keep_their_defaults(command, flag, want):
    (action,) = _option(parser_for(command), flag)
    assert action.default == want


def test_traffic_and_mapf_take_only_their_world_options():
    assert not _option(parser_for("traffic"), "--placement")
    assert not _option(parser_for("traffic"), "--sensor")
    for flag in ("--corridor", "--wall", "--resolution", "--footprint", "--braid", "--sensor"):
        assert not _option(parser_for("mapf"), flag), flag


def _calls(path: Path, name: str) -> list[int]:
    tree = ast.parse(path.read_text())
    return [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Call)
            and ((isinstance(n.func, ast.Name) and n.func.id == name)
                 or (isinstance(n.func, ast.Attribute) and n.func.attr == name))]


# Everything else -- the warm-up code, the web game, records, the contract kits
# of robomaze.testing -- widens through world.widen_maze or WorldSpec.build().
_WIDEN_ALLOWED = {"world.py", "grid.py"}


def test_only_the_world_module_widens():
    found = []
    for path in PKG.rglob("*.py"):
        rel = path.relative_to(PKG).as_posix()
        if rel not in _WIDEN_ALLOWED and _calls(path, "widen"):
            found.append(rel)
    assert found == []


def test_footprint_strings_are_parsed_by_one_function():
    """Outside geometry, only the world's parse_footprint turns a footprint
    string into a shape (tables are converted, not parsed)."""
    callers = []
    for path in PKG.rglob("*.py"):
        rel = path.relative_to(PKG).as_posix()
        if rel.startswith("geometry/"):
            continue
        if "parse_footprint" in path.read_text() and rel not in ("world.py",):
            tree = ast.parse(path.read_text())
            defs = [n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
            if "parse_footprint" in defs:
                callers.append(rel)
    assert callers == []
    assert parse_footprint("disc:0.2").radius == 0.2
    with pytest.raises(ParameterError, match=r"^--footprint .*radius"):
        parse_footprint("disc:-1", "--footprint")


def test_the_seed_rule_is_one_function():
    assert seed_of(7) == 7
    with pytest.raises(ParameterError, match="--seed must be an integer >= 0, got -1"):
        seed_of(-1, "--seed")
    fresh = {seed_of(None) for _ in range(20)}
    assert len(fresh) > 1 and all(0 <= s < 2 ** 32 for s in fresh)


def test_world_spec_of_the_words_bench_show_prints():
    """The CLI words of a spec (what ``bench show`` prints) parsed by any
    world command give back the spec."""
    spec = WorldSpec(generator="wilson", rows=6, cols=7, seed=5, braid=0.5,
                     placement="centre", corridor=3, wall=2, resolution=0.25,
                     footprint="disc:0.2")
    from robomaze.cli._world import world_spec

    words = [w.strip("'") for w in spec.cli_source()]
    for command in ("plan", "simulate", "play"):
        args = parser_for(command).parse_args(words)
        assert world_spec(args) == spec, command


def test_a_record_a_play_url_and_a_bench_row_name_one_world(tmp_path):
    from robomaze.traverse.record import read_record
    from robomaze.web import PlaySession
    from robomaze.web.worlds import check_page_spec

    want = WorldSpec(generator="kruskal", rows=5, cols=6, seed=3, braid=0.5,
                     placement="centre", corridor=3, wall=1)
    # the play URL's spec, checked as the server checks a page's query
    page = check_page_spec({"gen": "kruskal", "size": "5x6", "seed": 3, "braid": 0.5,
                            "placement": "centre", "corridor": 3, "wall": 1}, None, ["kruskal"])
    session = PlaySession(lambda i: None, tmp_path / "walks", spec=page)
    url_world = session.state()["world"]
    # a walk on that maze: record written by the session, read back
    grid = session.world
    session.act("E", 0.5)
    session.new_walk(advance=False)
    rec = read_record(sorted((tmp_path / "walks").glob("*.jsonl"))[0])
    # a bench row of the same world (a row always has a robot; a walker has none)
    from dataclasses import replace

    from robomaze.bench.scenario import parse_sweep

    sweep = parse_sweep({"seed": 3, "maze": {"generator": "kruskal", "rows": 5, "cols": 6,
                                             "braid": 0.5, "placement": "centre"},
                         "widen": {"corridor": 3, "wall": 1, "resolution": 1.0},
                         "robot": {"footprint": "disc:0.1"}, "run": {"planner": ["astar"]}})
    (sc,) = list(sweep.scenarios)
    from robomaze.bench.run import run_scenario

    row = run_scenario(sc)   # the row as a sweep stores it: its world is stored, not derived
    assert row["status"] == "ok" and row["world"] == WorldSpec.from_scenario(sc).to_dict()
    assert row["world"]["footprint"] == "disc:0.1"
    row_world = replace(WorldSpec.from_dict(row["world"]), footprint=None).to_dict()
    assert url_world == rec.world_spec.to_dict() == row_world == want.to_dict()
    # and each builds the maze the play server showed
    assert np.array_equal(WorldSpec.from_dict(row_world).build().grid.occupied, grid.occupied)


def _serve(walks: Path, *args: str):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "robomaze", "play", *args, "--web", "--port", "0",
         "--record-dir", str(walks)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    for line in proc.stdout:
        if line.startswith("serving "):
            return proc, line.split()[1]
    proc.kill()
    pytest.fail("play --web did not print its URL: " + proc.stderr.read())


def test_a_braided_play_url_recreates_its_maze_in_a_fresh_server(tmp_path):
    """``robomaze play --braid 0.5 ...``: the page spec the server hands out
    (what the page puts in its URL) re-creates the same maze in a server
    started on another maze, and names the same WorldSpec."""
    sys.path.insert(0, str(ROOT / "tests" / "web"))
    from web_helpers import get_json

    a, url_a = _serve(tmp_path / "a", "wilson", "9x8", "--seed", "4", "--braid", "0.5",
                      "--placement", "centre", "--corridor", "2", "--wall", "1")
    try:
        _, state_a = get_json(url_a + "api/state")
    finally:
        a.terminate()
        a.wait(10)
    spec = state_a["spec"]
    assert spec["braid"] == 0.5 and spec["placement"] == "centre" and spec["corridor"] == 2
    b, url_b = _serve(tmp_path / "b", "backtracker", "5x5", "--seed", "1")
    try:
        _, state_b = get_json(url_b + "api/state")
        assert state_b["picture"]["walls"] != state_a["picture"]["walls"]
        status, state_b = get_json(url_b + "api/new", {"next": True, **spec})
        assert status == 200, state_b
    finally:
        b.terminate()
        b.wait(10)
    assert state_b["picture"]["walls"] == state_a["picture"]["walls"]
    assert state_b["world"] == state_a["world"]
    # the CLI's own maze of those words, built independently of the server
    ws = WorldSpec(generator="wilson", rows=9, cols=8, seed=4, braid=0.5, placement="centre",
                   corridor=2, wall=1)
    assert state_a["world"] == ws.to_dict()
    walls = np.array([[ch == "#" for ch in row] for row in state_a["picture"]["walls"]])
    assert np.array_equal(walls, ws.build().grid.occupied)


# ---------------------------------------------------------------- files through the door
_READERS = {"read_maze", "read_grid", "read_movingai", "read_micromouse", "read"}


@pytest.mark.parametrize("rel", ["cli/mouse.py", "cli/movingai.py", "cli/mapf.py",
                                 "bench/movingai.py"])
def test_mouse_movingai_and_mapf_read_their_world_files_through_the_world(rel):
    """``mouse`` (its MAZE), ``movingai`` and ``mapf --new-scen`` (their .map)
    read the file by :func:`robomaze.world.load_file`, no reader of their own."""
    path = PKG / rel
    called = {name for name in _READERS if _calls(path, name)}
    assert called == set()
    runner = PKG / ("bench/movingai.py" if rel == "cli/movingai.py" else rel)
    assert _calls(runner, "load_file")


def test_load_file_of_one_kind(tmp_path):
    from robomaze.errors import MazeFormatError
    from robomaze.io import read_grid, read_maze
    from robomaze.world import load_file

    text = (tmp_path / "m.txt")
    # a 2x2 micromouse text whose wall between the two top cells is unknown ('.')
    text.write_text("o---o---o\n|   .   |\no   o   o\n| S     |\no---o---o\n")
    for unknown in ("wall", "open"):
        got = load_file(text, kind="maze", unknown=unknown)
        assert got == read_maze(text, unknown=unknown), unknown
    assert load_file(text, kind="maze", unknown="wall") != load_file(text, kind="maze",
                                                                      unknown="open")
    movingai = ROOT / "robomaze" / "data" / "samples" / "movingai" / "maze512-1-0.map"
    assert np.array_equal(load_file(movingai, kind="grid").occupied,
                          read_grid(movingai).occupied)
    with pytest.raises(MazeFormatError, match="expected a maze file"):
        load_file(movingai, kind="maze")
    with pytest.raises(ParameterError, match="does not exist"):
        load_file(tmp_path / "none.maze", kind="maze")


def test_mouse_reads_its_maze_through_the_world(capsys):
    from robomaze.cli import main

    tiny = ROOT / "robomaze" / "data" / "samples" / "micromouse" / "tiny-4x4.txt"
    assert main(["mouse", "route", str(tiny), "--json"]) == 0
    route = json.loads(capsys.readouterr().out)
    # the route of the maze io.read_maze reads (the reader the command used before)
    from robomaze.io import read_maze
    from robomaze.micromouse import fastest_route

    want = json.loads(json.dumps(fastest_route(read_maze(tiny)).to_json()))
    assert route == want and len(route["cells"]) > 1
    movingai = ROOT / "robomaze" / "data" / "samples" / "movingai" / "maze512-1-0.map"
    assert main(["mouse", "route", str(movingai)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "expected a maze file" in err


# ---------------------------------------------------------------- a footprint checked at the door
def test_must_be_a_footprint_is_said_in_one_function():
    """The check (and its message) lives in geometry.check_footprint; planners,
    geometry and metrics below the doors do not check again."""
    sites = []
    for path in PKG.rglob("*.py"):
        text = path.read_text()
        if "must be a Footprint" in text or "must be a robomaze Footprint" in text:
            sites.append(path.relative_to(PKG).as_posix())
    assert sorted(sites) == ["geometry/footprint.py"]
    from robomaze.geometry import Footprint, check_footprint

    fp = Footprint.disc(0.1)
    assert check_footprint(fp) is fp and check_footprint(None) is None
    with pytest.raises(ParameterError, match="^footprint must be a Footprint, got NoneType$"):
        check_footprint(None, optional=False)


@pytest.mark.parametrize("door", ["plan", "make_path", "simulate", "gym"])
def test_each_door_refuses_a_footprint_string_in_one_line(door):
    from robomaze import Maze
    from robomaze.world import widen_maze

    g = widen_maze(Maze.empty(1, 2), corridor=3, wall=1, resolution=0.1)
    s, t = g.start_goal()
    if door == "plan":
        from robomaze.plan import plan

        call = lambda: plan(g, s, t, method="astar", footprint="disc:0.1")  # noqa: E731
        want = "footprint must be a Footprint or None, got str"
    elif door == "make_path":
        from robomaze.plan import make_path

        call = lambda: make_path(g, [s, t], footprint="disc:0.1")  # noqa: E731
        want = "footprint must be a Footprint or None, got str"
    elif door == "simulate":
        from robomaze.sim import simulate

        call = lambda: simulate(g, footprint="disc:0.1", agent="follow_plan")  # noqa: E731
        want = "footprint must be a Footprint, got str"
    else:
        from robomaze.envs.gym_env import build_robot

        call = lambda: build_robot("disc:0.1", "lidar", None)  # noqa: E731
        want = "footprint must be a Footprint or a disc radius in metres, got str"
    with pytest.raises(ParameterError) as info:
        call()
    assert str(info.value) == want


def test_traffic_reads_shapes_through_the_world_door():
    """Traffic robots and obstacles read their shape strings with the world's
    parse_footprint (errors name the field), once: a point robot is refused."""
    from robomaze.errors import ParameterError
    from robomaze.traffic.spec import ObstacleSpec, RobotSpec

    r = RobotSpec(footprint="rect:0.4x0.2")
    assert r.footprint == "rect:0.4x0.2" and r.shape is r.shape
    assert r.shape.geometry.bounds == pytest.approx((-0.2, -0.1, 0.2, 0.1))
    assert ObstacleSpec(shape={"shape": "disc", "radius": 0.3}).body.radius == 0.3
    with pytest.raises(ParameterError, match=r"^robot footprint .*disc:-1"):
        RobotSpec(footprint="disc:-1")
    with pytest.raises(ParameterError, match="robot footprint must be a shape.*'point'"):
        RobotSpec(footprint="point")
    with pytest.raises(ParameterError, match="^obstacle shape"):
        ObstacleSpec(shape="blob:1")
    # specs stay plain records: their fields are all they hold (rows and the
    # printed commands serialise vars(spec))
    assert set(vars(r)) == {f.name for f in dataclasses.fields(RobotSpec)}
    json.dumps(vars(ObstacleSpec(shape="rect:0.3x0.2")))
