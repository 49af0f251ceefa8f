"""Hostile mouse profiles (issue 35): every file is read by the one guarded
reader and every number checked against its physical range before any table
is built; each failure is one line naming the file and the key."""

import os
import threading

import numpy as np
import pytest

from robomaze.errors import ParameterError, ScenarioError
from robomaze.micromouse import fastest_route, get_profile, load_profile
from robomaze.micromouse.profile import RANGES, MouseProfile
from robomaze.maze import Maze

# (TOML text, words the one-line error must hold): the traceback classes
CASES = [
    ("turns = {F45 = 1e300}\n", ["turns.F45", "0.001..600000"]),        # OverflowError
    ("turns = {F90 = 1e38}\n", ["turns.F90"]),                          # float32 overflow
    ("small_turn = 1e300\n", ["small_turn"]),
    ("along = {accel = 1e-300}\n", ["along.accel", "1..1e+07"]),          # NaN -> int
    ("diagonal = {accel = 1e-30, max_speed = 2000}\n", ["diagonal.accel"]),
    ("cell_mm = 1e300\n", ["cell_mm", "1..10000"]),                      # huge cell: NaN
    ("cell_mm = 1" + "0" * 400 + "\n", ["cell_mm", "about 401 digits"]),  # int too large
    ("cell_mm = nan\n", ["cell_mm", "finite"]),
    ("turn_speed = inf\n", ["turn_speed", "finite"]),
    ("turn_speed = -420\n", ["turn_speed"]),
    ("turn_speed = 0\n", ["turn_speed"]),
    ("cell_mm = true\n", ["cell_mm", "a number"]),
    ("cell_mm = \"90\"\n", ["cell_mm", "a number"]),
    ("name = {a = 1}\n", ["name", "string"]),                           # unhashable dict
    ("name = [1, 2]\n", ["name", "string"]),
    ("pivots = 3\n", ["pivots", "true or false"]),
    ("orthogonal = {a = 1}\n", ["orthogonal"]),
    ("along = 5\n", ["[along]"]),
    ("turns = {F45 = {a = 1}}\n", ["turns.F45"]),
    ("x" * 300 + " = 1\n", ["unknown mouse profile key"]),
    ("a = " + "[" * 5000 + "]" * 5000 + "\n", ["nested more than 32 deep"]),   # RecursionError
    ("a = " + "{b = " * 500 + "1" + "}" * 500 + "\n", ["nested more than 32 deep"]),
    ("cell_mm = \n", ["not valid TOML"]),
]


@pytest.mark.parametrize("text, words", CASES)
def test_hostile_profile_values_are_one_line_naming_the_key(tmp_path, text, words):
    p = tmp_path / "mouse.toml"
    p.write_text(text)
    with pytest.raises(ScenarioError) as e:
        load_profile(p)
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith(str(p))
    for w in words:
        assert w in msg, msg


def test_binary_profile_names_line_and_column(tmp_path):
    p = tmp_path / "bin.toml"
    p.write_bytes(b"name = 'a'\ncell_mm = 9\xff\xfe\n")
    with pytest.raises(ScenarioError, match=r"bin.toml:2:12: not UTF-8 text \(byte 0xff\)"):
        load_profile(p)


def test_devices_fifos_and_huge_files_are_refused_before_reading(tmp_path):
    with pytest.raises(ScenarioError, match="/dev/zero: is a character device"):
        get_profile("/dev/zero")
    fifo = tmp_path / "p.toml"
    os.mkfifo(fifo)
    done = []
    t = threading.Thread(target=lambda: done.append(pytest.raises(ScenarioError,
                                                                  load_profile, fifo)))
    t.start()
    t.join(20)
    assert done and "FIFO" in str(done[0].value)       # refused, not blocked
    big = tmp_path / "big.toml"
    big.write_bytes(b"# " + b"x" * (2 << 20) + b"\n")
    with pytest.raises(ScenarioError, match="larger than the limit of 1048576 bytes"):
        load_profile(big)


def test_bounds_hold_at_the_edges_and_tables_stay_finite():
    # the most extreme profile inside the ranges: every table entry finite,
    # in both units, for a 256-cell straight (independent of the route code)
    lo = {k: r[0] for k, r in RANGES.items()}
    hi = {k: r[1] for k, r in RANGES.items()}
    for kw in (dict(lo), dict(hi), {**hi, "along_accel": 1.0, "diag_accel": 1.0}):
        for lib in (False, True):
            p = MouseProfile(**kw, library_units=lib)
            for table in (p.along_table(256), p.diag_table(512), p.runs_table(256),
                          p.turn_costs()):
                assert np.isfinite(table).all()
    with pytest.raises(ParameterError, match="cell_mm must be in 1..10000 mm, got 10001"):
        MouseProfile(cell_mm=10001)


def test_a_profile_at_the_range_edge_routes(tmp_path):
    p = tmp_path / "slow.toml"
    p.write_text("cell_mm = 10000\nturn_speed = 1\nalong = {accel = 1, max_speed = 1}\n"
                 "diagonal = {accel = 1, max_speed = 1}\nlibrary_units = true\n")
    r = fastest_route(Maze.empty(4, 4), profile=load_profile(p))
    assert np.isfinite(r.cost_ms) and r.cost_ms > 0
