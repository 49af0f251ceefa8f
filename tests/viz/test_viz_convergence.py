"""The anytime-convergence figure: step-function quartiles checked by hand, the image drawn."""

import math

import numpy as np
import pytest

from robomaze.errors import ParameterError
from robomaze.viz.convergence import convergence_curve, plot_convergence


def test_quartiles_of_step_functions_by_hand():
    runs = [[[1.0, 5.0, 10], [3.0, 4.0, 30]],     # solves at t=1, improves at t=3
            [[2.0, 6.0, 20]],                      # solves at t=2
            [[0.5, 9.0, 5], [4.0, 3.0, 40]],       # solves first, ends best
            []]                                    # never solves
    grid = [0.25, 1.0, 2.5, 3.5, 5.0]
    q25, med, q75 = convergence_curve(runs, grid)
    # values at each x (inf: no solution yet), sorted per column:
    # 0.25: inf inf inf inf | 1.0: 5 9 inf inf | 2.5: 5 6 9 inf
    # 3.5: 4 6 9 inf        | 5.0: 3 4 6 inf
    # inverted-CDF quantiles of 4 values: q25 = 1st, median = 2nd, q75 = 3rd
    assert q25.tolist() == [math.inf, 5.0, 5.0, 4.0, 3.0]
    assert med.tolist() == [math.inf, 9.0, 6.0, 6.0, 4.0]
    assert q75.tolist() == [math.inf, math.inf, 9.0, 9.0, 6.0]
    # the work axis reads the third column
    _, med_w, _ = convergence_curve(runs, [25.0], column=2)
    assert med_w.tolist() == [6.0]   # 5, 6, 9, inf at 25 checks


def test_the_figure_is_drawn_per_panel_and_rejects_a_bad_axis(tmp_path):
    rows = [{"method": m, "footprint": fp, "metrics": {"optimal_length_m": 2.0},
             "progress": {"samples": [[0.01 * k, 3.0 - 0.2 * k, 100 * k] for k in range(1, 4)]}}
            for m in ("ompl:rrtstar", "ompl:prmstar") for fp in ("disc:0.1", "rect:0.3x0.2")]
    for x in ("time", "checks"):
        out = plot_convergence(rows, tmp_path / f"c-{x}.png", x=x)
        assert out.read_bytes()[:4] == b"\x89PNG" and out.stat().st_size > 5000
    with pytest.raises(ParameterError, match="x must be one of time, checks, got 'cost'"):
        plot_convergence(rows, tmp_path / "bad.png", x="cost")
