"""`bench show` re-creates every row kind of every shipped sweep: the printed
command gives the row's outcome, length and clearances; the printed Python too."""

import contextlib
import io
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from robomaze.bench.recreate import CLI_KEYS, check_keys, row_command
from robomaze.bench.rerun import show_row
from robomaze.bench.run import run_scenario
from robomaze.bench.scenario import load_sweep
from robomaze.bench.traffic import is_traffic_sweep
from robomaze.data import SAMPLES_DIR
from robomaze.errors import ParameterError

ALL_SWEEPS = sorted((SAMPLES_DIR / "scenarios").glob("*.toml"))
# traffic sweeps are a file format of their own (robomaze.bench.traffic): their
# rows are re-created by robomaze.bench.recreate_traffic, tested below
SWEEPS = [p for p in ALL_SWEEPS if not is_traffic_sweep(p)]
TRAFFIC_SWEEPS = [p for p in ALL_SWEEPS if is_traffic_sweep(p)]


def _kind(sc) -> tuple:
    spec = sc.spec
    if sc.kind == "mapf":   # the solver's options are flags of their own (ecbs --w)
        return (sc.kind, False, False, bool(spec["run"]["options"]), bool(spec["maze"]["grid"]),
                bool(spec["robot"].get("footprint")))
    return (sc.kind, sc.method.startswith("ompl:"), bool(spec["robot"].get("localize")),
            bool(spec["run"].get("bags")), bool(spec["maze"]["grid"]), bool(spec["maze"]["file"]))


def _size(sc) -> float:
    spec = sc.spec
    cells = (spec["maze"]["rows"] or 16) * (spec["maze"]["cols"] or 16)
    k = spec["widen"]["corridor"] + spec["widen"]["wall"]
    slow = {"slam": 4, "mcl": 2}.get(spec["robot"].get("localize"), 1)
    if sc.kind == "mapf":
        slow *= spec["run"]["agents"] * {"cbs": 4, "ecbs": 2}.get(sc.method, 1)
    return cells * k * k * slow


def _picks():
    """One small row of every kind in every shipped sweep (sweep, kind, scenario)."""
    out = []
    for path in SWEEPS:
        best = {}
        for sc in load_sweep(path).scenarios:
            k = _kind(sc)
            if k not in best or _size(sc) < _size(best[k]):
                best[k] = sc
        out += [pytest.param(sc, id=f"{path.stem}-{sc.kind}-{sc.method}-{k[2] and 'loc' or ''}")
                for k, sc in sorted(best.items(), key=lambda kv: str(kv[0]))]
    return out


def test_every_shipped_sweep_is_covered_and_every_spec_key_has_a_command_form():
    kinds = set()
    for path in SWEEPS:
        for sc in load_sweep(path).scenarios:
            check_keys(sc.kind, sc.spec)       # raises on a key without a command form
            kinds.add(_kind(sc)[:3])
    assert {("plan", False, False), ("plan", True, False), ("simulate", False, False),
            ("simulate", False, True), ("mouse", False, False), ("mapf", False, False)} <= kinds
    assert TRAFFIC_SWEEPS, "a shipped traffic sweep"
    with pytest.raises(ParameterError, match="spec key run.new_option of a plan row"):
        check_keys("plan", {"seed": 1, "run": {"new_option": 3}})
    assert set(CLI_KEYS) == {"plan", "simulate", "mouse", "mapf"}


def _run_words(words, cwd):
    assert words[0] == "robomaze"
    return subprocess.run([sys.executable, "-m", "robomaze", *words[1:]], cwd=cwd,
                          capture_output=True, text=True, timeout=900)


def _close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


@pytest.mark.parametrize("sc", _picks())
def test_the_printed_command_recreates_the_row(sc, tmp_path):
    _check_command(sc, tmp_path)


def test_a_movingai_row_is_recreated_too(tmp_path):
    """A MovingAI map (a grid file with explicit end cells; no shipped sweep has one)."""
    from robomaze.bench.scenario import parse_sweep

    sweep = parse_sweep({"name": "mai", "seed": 1,
                         "maze": {"grid": "pkg:movingai/maze512-1-0.map",
                                  "start": [[1, 1]], "goal": [[1, 5]]},
                         "robot": {"footprint": "disc:0.4"}, "run": {"planner": ["astar"]}},
                        source=str(tmp_path / "mai.toml"))
    _check_command(sweep.scenarios[0], tmp_path)


def _check_command(sc, tmp_path):
    row = run_scenario(sc)
    text = show_row(row)
    assert "# shell" in text, text
    shell = text.split("# shell\n", 1)[1].split("\n\n", 1)[0].splitlines()
    shell = [line for line in shell if not line.startswith("#")]
    assert [" ".join(c) for c in row_command(row)] == shell
    for line in shell[:-1]:                              # e.g. the mouse's maze
        assert _run_words(line.split(), tmp_path).returncode == 0
    out = _run_words(shell[-1].split(), tmp_path)
    m = row["metrics"]
    if sc.kind == "plan":
        if row["outcome"] in ("no_path", "budget"):
            # the command refuses in one line, as the row found no path
            assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1, out.stderr
            assert row["reason"].startswith("no collision-free path")
            return
        assert out.returncode == 0, out.stderr
        got = json.loads(out.stdout)
        assert got["collision_free"] == row["success"]
        assert _close(got["length_m"], m["length_m"])
        assert _close(got["min_clearance"], m["min_clearance"])
        assert _close(got["mean_clearance"], m["mean_clearance"])
    elif sc.kind == "simulate":
        if row["outcome"] == "no_path":
            assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1
            return
        assert out.returncode == (0 if row["success"] else 1), out.stderr
        got = json.loads(out.stdout)
        assert got["success"] == row["success"]
        assert got["localize"] == (sc.spec["robot"].get("localize") or "none")
        assert _close(got["metrics"]["length"], m["length_m"])
        assert _close(got["metrics"]["min_clearance"], m["min_clearance"])
        assert _close(got["metrics"]["mean_clearance"], m["mean_clearance"])
    elif sc.kind == "mapf":
        assert out.returncode == (0 if row["success"] else 1), out.stderr
        got = json.loads((tmp_path / f"mapf-{row['id']}.json").read_text())
        assert got["outcome"] == row["outcome"] and got["success"] == row["success"]
        assert got["agents"] == m["agents"]
        for key in ("soc", "makespan", "expansions", "nodes", "bound"):
            assert got[key] == m.get(key), key
        assert max(got["lower_bound"] or 0, got["lower_bound_sum_of_paths"]) == m["lower_bound"]
        assert got["lower_bound_sum_of_paths"] == m["sum_of_distances"]
    else:
        assert out.returncode == (0 if row["success"] else 1), out.stderr
        got = dict(p for p in (line.split(None, 1) for line in out.stdout.splitlines())
                   if len(p) == 2)
        assert got["success"].strip() == str(row["success"])
        assert got["route_length"].strip() == str(m.get("route_length"))
        assert int(got["cells_explored"]) == m["cells_explored"]
        assert int(got["search_moves"]) == m["search_moves"]


@pytest.mark.parametrize("sc", [p for p in _picks() if "ompl" not in p.id][:6]
                         + [p for p in _picks() if "-mapf-" in p.id][:1])
def test_the_printed_python_recreates_the_row(sc):
    row = run_scenario(sc)
    text = show_row(row)
    steps = text.split("# Python: the world and the method, step by step\n", 1)[1]
    code = steps.split("# or the whole row", 1)[0]
    buf = io.StringIO()
    if sc.kind != "mapf" and (row["outcome"] == "no_path"
                              or (sc.kind == "plan" and row["outcome"] == "budget")):
        from robomaze.errors import NoPathError

        with pytest.raises(NoPathError), contextlib.redirect_stdout(buf):
            exec(compile(code, "<show>", "exec"), {})
        printed = None
    else:
        with contextlib.redirect_stdout(buf):
            exec(compile(code, "<show>", "exec"), {})
        printed = buf.getvalue().split()
    if printed is None:
        pass
    elif sc.kind == "mapf":
        assert printed == [row["outcome"], str(row["metrics"].get("soc")),
                           str(row["metrics"].get("makespan"))]
    elif sc.kind == "plan":
        assert _close(float(printed[-1]), row["metrics"]["length_m"])
    elif sc.kind == "simulate":
        assert printed[0] == str(row["success"])
        assert _close(float(printed[-1]), row["metrics"]["length_m"])
    else:
        assert printed == [str(row["success"]), str(row["metrics"].get("route_length"))]
    whole = text.split("# Python: the row itself, through the sweep's runner\n", 1)[1]
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(whole.split("\n\n", 1)[0], "<show>", "exec"), {})
    assert buf.getvalue().split()[0] == row["outcome"]


def test_a_mouse_row_has_a_command_and_no_stale_world(tmp_path):
    sc = next(s for s in load_sweep(Path(SAMPLES_DIR) / "scenarios" / "ci.toml").scenarios
              if s.kind == "mouse")
    text = show_row(run_scenario(sc))
    assert "robomaze mouse solve" in text and "robomaze generate kruskal 5x5 --seed 7" in text
    assert "'rows': 8" not in text


# ------------------------------------------------------------------ traffic rows
def _traffic_picks():
    """One small row of every kind (one robot or many, with or without moving
    obstacles) of every shipped traffic sweep."""
    from robomaze.bench.traffic import load_traffic_sweep

    out = []
    for path in TRAFFIC_SWEEPS:
        best = {}
        for r in load_traffic_sweep(path):
            a = r["axes"]
            k = (a["robots.count"] > 1, a["obstacles.count"] > 0)
            size = a["robots.count"] * a["corridor"] ** 2 * (1 + a["obstacles.count"])
            if k not in best or size < best[k][0]:
                best[k] = (size, r)
        out += [pytest.param(r, id=f"{path.stem}-{'many' if k[0] else 'one'}"
                             f"{'-obstacles' if k[1] else ''}")
                for k, (_, r) in sorted(best.items())]
    return out


def _nan_eq(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


@pytest.mark.parametrize("sweep_row", _traffic_picks())
def test_the_printed_command_recreates_a_traffic_row(sweep_row, tmp_path):
    from robomaze.bench.recreate_traffic import show_traffic_row
    from robomaze.cli.traffic import spec_of_words
    from robomaze.bench.traffic import run_row

    row = json.loads(json.dumps(run_row(sweep_row), default=float))
    text = show_traffic_row(row, spec_of_words)
    shell = text.split("# shell\n", 1)[1].split("\n\n", 1)[0]
    assert shell.startswith("robomaze traffic ") and shell.count("\n") == 0, shell
    out = _run_words(shell.split(), tmp_path)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert got["outcome"] == row["outcome"]
    assert [r["success"] for r in got["robots_detail"]] == [r["success"] for r in row["robots"]]
    for key in ("collisions", "arrived", "steps", "makespan", "clearance_robot",
                "clearance_wall", "sum_of_costs"):
        assert _nan_eq(got[key], row["metrics"][key]), key
    # the printed Python: the row through the sweep's runner, and the run itself
    for part in ("# Python: the row itself, through the sweep's runner\n",
                 "# Python: the run, step by step\n"):
        code = text.split(part, 1)[1].split("\n\n", 1)[0].split("# or the whole row")[0]
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            exec(compile(code, "<show>", "exec"), {})
        outcome, makespan, collisions = buf.getvalue().split()
        assert outcome == row["outcome"] and int(collisions) == row["metrics"]["collisions"]
        assert _nan_eq(float(makespan), row["metrics"]["makespan"])


def test_a_traffic_spec_no_flag_sets_is_printed_as_a_spec_file(tmp_path):
    """An ORCA horizon and a lookahead have no flag: the spec file carries them,
    and running it gives the row; a field neither form carries is refused."""
    from robomaze.bench.recreate_traffic import traffic_commands
    from robomaze.cli.traffic import spec_of_words
    from robomaze.bench.traffic import parse_traffic_sweep, run_row

    table = {"kind": "traffic", "seed": 1, "maze": {"generator": "kruskal", "rows": 1, "cols": 3},
             "widen": {"corridor": 14, "resolution": 0.1},
             "robots": {"count": 2, "footprint": "disc:0.2"}, "run": {"max_steps": 400}}
    plain = parse_traffic_sweep(table)[0]
    first = traffic_commands(plain, spec_of_words)[0]
    assert first.startswith("robomaze traffic kruskal 1x3 --seed 1 ")
    table["run"]["orca"] = {"time_horizon": 3.0}
    row = parse_traffic_sweep(table)[0]
    row["spec"]["lookahead"] = 0.8
    lines = traffic_commands(row, spec_of_words)
    name = f"traffic-{row['id']}.toml"
    assert lines[0] == f"cat > {name} <<'EOF'" and lines[-2] == "EOF"
    assert lines[-1] == f"robomaze traffic --spec {name} --json"
    assert "time_horizon = 3.0" in lines and "lookahead = 0.8" in lines
    (tmp_path / name).write_text("\n".join(lines[1:-2]) + "\n")
    out = _run_words(lines[-1].split(), tmp_path)
    assert out.returncode == 0, out.stderr
    got, want = json.loads(out.stdout), run_row(row)
    assert got["outcome"] == want["outcome"] and _nan_eq(got["makespan"],
                                                         want["metrics"]["makespan"])
    assert got["steps"] == want["metrics"]["steps"]
    row["spec"]["robots"][0]["beams"] = None      # TOML has no null: the file would read 64
    with pytest.raises(ParameterError, match="robot_list of row .* no command form"):
        traffic_commands(row, spec_of_words)
