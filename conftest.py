"""Repository-wide pytest setup.

Doctests print numpy scalars the pre-2.0 way (``1.5``, not
``np.float64(1.5)``) so examples read naturally and do not depend on the
numpy version; matplotlib never opens a window.
"""

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")


@pytest.fixture(autouse=True)
def _doctest_numpy_printing(doctest_namespace):
    np.set_printoptions(legacy="1.25")
    doctest_namespace["np"] = np
    yield
    np.set_printoptions(legacy=False)

# Test mouse programs are standalone scripts run by the mms host, not modules.
collect_ignore_glob = ["tests/micromouse/mice/*", "benchmarks/*"]
