"""The C-space's kernels computed for all bins at once equal swept_kernel's, bin by bin."""

import math

import numpy as np
import pytest
import shapely

from robomaze.geometry import Footprint, heading_bins, swept_kernel
from robomaze.geometry.cspace import _swept_kernels

FOOTPRINTS = [
    Footprint.rectangle(0.3, 0.2),
    Footprint.rectangle(0.5, 0.25, ref=(0.12, 0.0)),
    Footprint.polygon([(-0.2, -0.1), (0.25, -0.1), (0.25, 0.2), (0.1, 0.2), (0.1, 0.05),
                       (-0.2, 0.05)]),
    Footprint.polygon(shapely.Polygon([(-1, -1), (1, -1), (1, 1), (-1, 1)],
                                      [[(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5)]])),
]


@pytest.mark.parametrize("fp", FOOTPRINTS, ids=["rect", "offset", "L", "holed"])
@pytest.mark.parametrize("nb", [1, 3, 16, 36])      # 36: hi - lo rounds to 5 or 6 samples
@pytest.mark.parametrize("yaw", [0.0, 0.7])
def test_all_bins_at_once_equal_bin_by_bin(fp, nb, yaw):
    step = 2 * math.pi / nb
    for res in (0.05, 0.25):
        local = heading_bins(nb) - yaw
        got = _swept_kernels(fp, res, local - step / 2, local + step / 2)
        for i in range(nb):
            want = swept_kernel(fp, res, local[i] - step / 2, local[i] + step / 2)
            assert got[i].shape == want.shape and np.array_equal(got[i], want), (nb, res, i)
