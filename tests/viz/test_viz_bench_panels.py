"""The report's small multiples: identical series merged, bands, legends outside
the data, titles inside the picture, PNG + SVG + PDF; the points they draw."""

import numpy as np
import pytest
from scipy import stats as ss

from robomaze.bench.report_figures import family, figure_points
from robomaze.viz import bench_panels as BP


def rows():
    out = []
    for m, kind, extra in (("astar", "plan", 0.0), ("dijkstra", "plan", 0.0),
                           ("theta_star", "plan", -0.1), ("wall_follower", "plan", 1.0),
                           ("explore", "simulate", 0.3)):
        for fp, radius in (("disc:0.04", 0.04), ("disc:0.16", 0.16)):
            for k in (3, 5, 7):
                for seed in range(4):
                    ok = not (fp == "disc:0.16" and k == 3)
                    out.append({"kind": kind, "method": m, "footprint": fp, "corridor": k,
                                "resolution": 0.1, "seed": seed, "status": "ok", "success": ok,
                                "scenario": {"robot": {"footprint": {"shape": "disc",
                                                                     "radius": radius}}},
                                "metrics": {"length_ratio": 1.2 + extra + seed / 100,
                                            "min_clearance": 0.01 * k + seed / 1000}})
    return out


def test_points_are_medians_iqr_and_wilson_of_the_rows():
    pts = figure_points(rows())
    p = [p for p in pts if p["method"] == "astar" and p["footprint"] == "disc:0.04"
         and p["corridor"] == 5][0]
    xs = [1.2 + s / 100 for s in range(4)]
    assert p["length_ratio"] == pytest.approx(np.median(xs))
    assert (p["length_ratio_low"], p["length_ratio_high"]) == pytest.approx(
        tuple(np.percentile(xs, [25, 75])))
    assert p["free_m"] == pytest.approx(0.5) and p["robot_width_m"] == pytest.approx(0.08)
    fail = [p for p in pts if p["method"] == "astar" and p["footprint"] == "disc:0.16"
            and p["corridor"] == 3][0]
    ci = ss.binomtest(0, 4).proportion_ci(method="wilson")
    assert fail["success_rate"] == 0 and fail["success_high"] == pytest.approx(ci.high)
    assert family("plan", "wall_follower") == "maze solvers"


def test_identical_series_are_drawn_once_and_named_together():
    labels = BP.identical_groups(figure_points(rows()), "length_ratio")
    assert labels[("grid planners", ("plan", "astar", ""))] == "astar = dijkstra"
    assert labels[("grid planners", ("plan", "dijkstra", ""))] is None
    assert labels[("grid planners", ("plan", "theta_star", ""))] == "theta_star"


def test_figures_are_written_three_ways_with_legends_outside_and_titles_inside(tmp_path, monkeypatch):
    from matplotlib.figure import Figure

    figs = []
    real = Figure.savefig

    def keep(self, *a, **k):
        figs.append(self)
        return real(self, *a, **k)

    monkeypatch.setattr(Figure, "savefig", keep)
    out = BP.plot_report_figures(figure_points(rows()), tmp_path)
    for name, png in out.items():
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert png.with_suffix(".svg").read_text().lstrip().startswith("<?xml")
        assert png.with_suffix(".pdf").read_bytes()[:5] == b"%PDF-"
    fig = figs[0]
    fig.canvas.draw()   # lay out again for the PNG renderer (the last save was the PDF)
    r = fig.canvas.get_renderer()
    box = fig.bbox
    for ax in fig.axes:
        for text in (ax.title, ax.xaxis.label, ax.yaxis.label):
            if text.get_text():
                e = text.get_window_extent(r)
                assert e.x0 >= box.x0 - 1 and e.x1 <= box.x1 + 1 and e.y1 <= box.y1 + 1, text.get_text()
        leg = ax.get_legend()
        if leg is not None:   # to the right of its panel, inside the picture
            lb = leg.get_window_extent(r)
            assert lb.x0 >= ax.get_window_extent(r).x1 and lb.x1 <= box.x1 + 1
    assert fig._suptitle.get_window_extent(r).y1 <= box.y1 + 1
    labels = [a.get_xlabel() for ax in fig.axes for a in (ax, *ax.child_axes) if a.get_xlabel()]
    assert "corridor width, wall to wall (m)" in labels and "in robot widths" in labels
    # the interquartile band is drawn
    assert any(c.__class__.__name__ in ("PolyCollection", "FillBetweenPolyCollection")
               for ax in fig.axes for c in ax.collections)
