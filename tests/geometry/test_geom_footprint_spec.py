"""One footprint spec: from_spec / to_spec / to_table round-trip exactly."""

import math

import numpy as np
import pytest
import shapely
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from robomaze.bench.scenario import footprint_label, parse_sweep
from robomaze.cli.plan import parse_footprint
from robomaze.errors import ParameterError, ScenarioError
from robomaze.geometry import Footprint

size = st.floats(min_value=1e-6, max_value=1e3, allow_nan=False, allow_infinity=False)
coord = st.floats(min_value=-1e3, max_value=1e3, allow_nan=False, allow_infinity=False)


@st.composite
def footprints(draw):
    kind = draw(st.sampled_from(["disc", "rect", "poly"]))
    if kind == "disc":
        return Footprint.disc(draw(size))
    if kind == "rect":
        return Footprint.rectangle(draw(size), draw(size), ref=(draw(coord), draw(coord)))
    # a star-shaped polygon: distinct increasing angles, positive radii
    n = draw(st.integers(3, 8))
    angles = np.sort(draw(st.lists(st.floats(0.0, 2 * math.pi - 1e-3), min_size=n,
                                   max_size=n, unique=True)))
    if np.min(np.diff(np.r_[angles, angles[0] + 2 * math.pi])) < 0.05:
        angles = np.linspace(0.0, 2 * math.pi, n, endpoint=False)
    radii = draw(st.lists(st.floats(0.1, 10.0), min_size=n, max_size=n))
    cx, cy = draw(coord), draw(coord)
    pts = [(cx + r * math.cos(a), cy + r * math.sin(a)) for r, a in zip(radii, angles)]
    # star-shaped about (cx, cy), so simple up to rounding far from the origin
    assume(shapely.Polygon(pts).is_valid)
    return Footprint.polygon(pts)


def same_shape(a: Footprint, b: Footprint) -> bool:
    if a.kind != b.kind:
        return False
    if a.kind == "disc":
        return a.radius == b.radius
    return bool(shapely.equals_exact(a.geometry, b.geometry, tolerance=0.0))


@settings(max_examples=300, deadline=None)
@given(footprints())
def test_spec_string_round_trips_exactly(fp):
    spec = fp.to_spec()
    back = Footprint.from_spec(spec)
    assert back.to_spec() == spec
    assert back.to_table() == fp.to_table()
    assert same_shape(back, fp)


@settings(max_examples=300, deadline=None)
@given(footprints())
def test_table_round_trips_exactly(fp):
    table = fp.to_table()
    back = Footprint.from_spec(table)
    assert back.to_table() == table and back.to_spec() == fp.to_spec()
    assert same_shape(back, fp)


@settings(max_examples=200, deadline=None)
@given(size, size, coord, coord)
def test_rectangle_numbers_survive_bit_for_bit(length, width, rx, ry):
    spec = Footprint.rectangle(length, width, ref=(rx, ry)).to_spec()
    t = Footprint.from_spec(spec).to_table()
    assert (t["length"], t["width"], t["ref"]) == (length, width, [rx, ry])


@pytest.mark.parametrize("text, table", [
    ("disc:0.1", {"shape": "disc", "radius": 0.1}),
    ("rect:0.4x0.2", {"shape": "rectangle", "length": 0.4, "width": 0.2, "ref": [0.0, 0.0]}),
    ("rect:0.6x0.4@0.1,-0.05",
     {"shape": "rectangle", "length": 0.6, "width": 0.4, "ref": [0.1, -0.05]}),
    ("poly:0,0;1,0;0,1", {"shape": "polygon", "coords": [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]}),
])
def test_one_spelling_for_cli_toml_and_labels(text, table):
    fp = Footprint.from_spec(text)
    assert fp.to_table() == table and fp.to_spec() == text
    # the CLI, the sweep file (string or table) and the report label agree
    assert parse_footprint(text).to_spec() == text
    for given_ in (text, table):
        sw = parse_sweep({"maze": {"generator": "prim", "rows": 2, "cols": 2},
                          "robot": {"footprint": given_}, "run": {"planner": "astar"}},
                         check_names=False)
        sc = sw.scenarios[0]
        assert sc.spec["robot"]["footprint"] == table
        assert sc.footprint == text == footprint_label(table)


def test_rectangle_geometry_matches_hand_computed_bounds():
    fp = Footprint.from_spec("rect:0.6x0.4@0.1,0")
    assert fp.geometry.bounds == pytest.approx((-0.4, -0.2, 0.2, 0.2))


def test_shortest_exact_numbers_and_integers():
    assert Footprint.disc(1.0).to_spec() == "disc:1"
    assert Footprint.disc(0.1 + 0.2).to_spec() == "disc:0.30000000000000004"
    assert Footprint.from_spec("disc:0.30000000000000004").radius == 0.1 + 0.2


@pytest.mark.parametrize("bad", ["disc:", "disc:x", "disc:nan", "disc:inf", "rect:1x", "rect:1x2x3",
                                 "rect:1x2@1", "poly:0,0;1,0", "poly:0,0;1;0,1", "blob:1", "",
                                 "disc:-1", "poly:0,0;1,1;1,0;0,1"])
def test_bad_strings_raise_one_clear_error(bad):
    with pytest.raises(ParameterError) as err:
        Footprint.from_spec(bad)
    assert repr(bad) in str(err.value)


@pytest.mark.parametrize("bad, word", [
    ({"shape": "disc"}, "needs radius"), ({"shape": "disc", "radius": "a"}, "number"),
    ({"shape": "disc", "radius": True}, "number"), ({"shape": "blob"}, "shape"),
    ({"shape": "disc", "radius": 1, "side": 2}, "unknown: side"),
    ({"shape": "rectangle", "length": 1, "width": 1, "ref": [1]}, "ref"),
    ({"shape": "polygon", "coords": [[0, 0], [1]]}, "coords"),
    (3.5, "spec string"),
])
def test_bad_tables_raise_one_clear_error(bad, word):
    with pytest.raises(ParameterError, match=word):
        Footprint.from_spec(bad)


def test_sweep_reports_bad_footprint_with_key_path():
    with pytest.raises(ScenarioError, match=r"robot\.footprint: expected a valid footprint"):
        parse_sweep({"maze": {"generator": "prim"}, "robot": {"footprint": "poly:0,0;1,0"},
                     "run": {"planner": "astar"}}, check_names=False)
