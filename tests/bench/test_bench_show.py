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
from robomaze.data import SAMPLES_DIR
from robomaze.errors import ParameterError

# traffic sweeps are a file format of their own (robomaze.bench.traffic: their rows
# re-run through `bench rerun`); `bench show` does not print MAPF or traffic rows yet
SWEEPS = sorted(p for p in (SAMPLES_DIR / "scenarios").glob("*.toml")
                if p.stem not in ("traffic", "mapf"))


def _kind(sc) -> tuple:
    spec = sc.spec
    return (sc.kind, sc.method.startswith("ompl:"), bool(spec["robot"].get("localize")),
            bool(spec["run"].get("bags")), bool(spec["maze"]["grid"]), bool(spec["maze"]["file"]))


def _size(sc) -> float:
    spec = sc.spec
    cells = (spec["maze"]["rows"] or 16) * (spec["maze"]["cols"] or 16)
    k = spec["widen"]["corridor"] + spec["widen"]["wall"]
    slow = {"slam": 4, "mcl": 2}.get(spec["robot"].get("localize"), 1)
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
            ("simulate", False, True), ("mouse", False, False)} <= kinds
    with pytest.raises(ParameterError, match="spec key run.new_option of a plan row"):
        check_keys("plan", {"seed": 1, "run": {"new_option": 3}})
    assert set(CLI_KEYS) == {"plan", "simulate", "mouse"}


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
    else:
        assert out.returncode == (0 if row["success"] else 1), out.stderr
        got = dict(p for p in (line.split(None, 1) for line in out.stdout.splitlines())
                   if len(p) == 2)
        assert got["success"].strip() == str(row["success"])
        assert got["route_length"].strip() == str(m.get("route_length"))
        assert int(got["cells_explored"]) == m["cells_explored"]
        assert int(got["search_moves"]) == m["search_moves"]


@pytest.mark.parametrize("sc", [p for p in _picks() if "ompl" not in p.id][:6])
def test_the_printed_python_recreates_the_row(sc):
    row = run_scenario(sc)
    text = show_row(row)
    steps = text.split("# Python: the world and the method, step by step\n", 1)[1]
    code = steps.split("# or the whole row", 1)[0]
    buf = io.StringIO()
    if row["outcome"] == "no_path" or (sc.kind == "plan" and row["outcome"] == "budget"):
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
