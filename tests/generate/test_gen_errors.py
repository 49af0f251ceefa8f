"""Bad input gets one clear error naming the parameter and the value."""

from __future__ import annotations

import pytest

from robomaze.errors import ParameterError, UnknownNameError
from robomaze.generate import GENERATORS, generate


@pytest.mark.parametrize("rows,cols,match", [
    (0, 5, "rows must be an integer >= 1, got 0"),
    (5, -2, "cols must be an integer >= 1, got -2"),
    (2.5, 5, "rows must be an integer, got 2.5"),
    ("7", 5, "rows must be an integer, got '7'"),
    (100_000, 100_000, "100000x100000 maze has 10000000000 cells"),
])
def test_bad_size(rows, cols, match):
    with pytest.raises(ParameterError, match=match):
        generate("kruskal", rows, cols)
    for fn in GENERATORS.values():
        with pytest.raises(ParameterError):
            fn(rows, cols)


def test_unknown_generator_lists_valid_names():
    with pytest.raises(UnknownNameError) as exc:
        generate("labyrinth", 5, 5)
    msg = str(exc.value)
    assert "'labyrinth'" in msg
    for name in GENERATORS:
        assert name in msg


@pytest.mark.parametrize("fraction", [-0.1, 1.01, float("nan"), "half"])
def test_bad_braid(fraction):
    with pytest.raises(ParameterError, match="braid"):
        generate("prim", 5, 5, braid=fraction)


def test_bad_growing_tree_options():
    with pytest.raises(ParameterError, match="selection.*got 'oldest'"):
        generate("growing_tree", 5, 5, selection="oldest")
    with pytest.raises(ParameterError, match="mix must be <= 1.0, got 2.0"):
        generate("growing_tree", 5, 5, selection="mixed", mix=2.0)


def test_unknown_option_names_it():
    with pytest.raises(ParameterError, match="'kruskal' has no option 'selection'"):
        generate("kruskal", 5, 5, selection="newest")
    with pytest.raises(ParameterError, match="'growing_tree' has no option 'bias'.*selection, mix"):
        generate("growing_tree", 5, 5, bias=1)


def test_bad_rng_and_placement():
    with pytest.raises(ParameterError, match="rng"):
        generate("wilson", 5, 5, rng="seed")
    with pytest.raises(ParameterError, match="placement"):
        generate("wilson", 5, 5, placement="random")


def test_prim_refuses_more_cells_than_its_edge_ids_hold():
    # with the cell limit raised, prim's own bound (31-bit edge ids in its
    # queue keys) still refuses the size, before allocating anything
    from robomaze import limit_cells
    with limit_cells(2**31), pytest.raises(ParameterError, match=r"prim: a 32768x16385 maze "
                                           r"has 536903680 cells; expected rows\*cols <= 536870911"):
        GENERATORS["prim"](32768, 16385)
