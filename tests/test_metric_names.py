"""One name per metric: the documented table covers every row metric, and the
key-pose clearance of a Path is not the resampled ``min_clearance``."""

import numpy as np
import pytest

import robomaze.metrics as M
from robomaze import Maze, widen
from robomaze.bench.run import DETERMINISTIC_METRICS
from robomaze.geometry import Footprint, footprint_clearance
from robomaze.plan import plan
from robomaze.plan.path import Path


def test_every_row_metric_is_documented_in_the_one_table():
    from robomaze.bench import mapf, micromouse

    doc = M.__doc__.split("Metric names")[1]
    mouse_doc = micromouse.__doc__.split("Metrics of a mouse row")[1]
    mapf_doc = mapf.__doc__.split("Metrics of a mapf row")[1]
    for name in DETERMINISTIC_METRICS:
        if name in micromouse.MOUSE_METRICS:
            assert f"``{name}``" in mouse_doc, name
        elif name in mapf.MAPF_METRICS:
            assert f"``{name}``" in mapf_doc, name
        else:
            assert f"``{name}``" in doc, name


def test_path_has_no_min_clearance_attribute_of_a_different_meaning():
    assert "min_clearance" not in Path.__dataclass_fields__
    assert "min_clearance_key_poses" in Path.__dataclass_fields__


def test_key_pose_clearance_differs_from_resampled_clearance():
    # a diagonal any-angle segment passes closer to a wall corner than its
    # end poses: the resampled minimum must be the smaller one
    g = widen(Maze.empty(2, 2), corridor=5, wall=1, resolution=0.1)
    fp = Footprint.disc(0.05)
    p = plan(g, None, None, method="theta_star", footprint=fp)
    m = M.path_metrics(p, g, footprint=fp, reference=False)
    keys = footprint_clearance(g, fp, np.column_stack([p.points, np.zeros(len(p))]))
    assert p.min_clearance_key_poses == pytest.approx(float(keys.min()))
    # the segment between two key poses passes a wall corner at
    # 0.1 * sqrt(2) - 0.05 m, closer than any key pose (0.108 m)
    assert m["min_clearance"] == pytest.approx(0.1 * np.sqrt(2) - 0.05, abs=1e-9)
    assert m["min_clearance"] < p.min_clearance_key_poses - 0.01
