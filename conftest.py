"""Repository-wide pytest setup.

Doctests print numpy scalars the pre-2.0 way (``1.5``, not
``np.float64(1.5)``) so examples read naturally and do not depend on the
numpy version; matplotlib never opens a window.
"""

import os

from robomaze._threads import one_thread_pools

# numpy's BLAS pools start with one thread in the test workers and in every
# process a test starts (set before numpy loads, inherited by both), as
# robomaze's own entry points and its sweep runner start theirs: two workers
# share two cores, and a pool's idle threads spin ~0.1 s of CPU per process
# (robomaze._threads). tests/test_threads.py clears them to test the CLI's own.
one_thread_pools()

import matplotlib  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

matplotlib.use("Agg")

# Property tests draw their examples from a fixed seed (per test), so a CI
# verdict never depends on which random examples a run happened to draw;
# ROBOMAZE_HYPOTHESIS=explore draws fresh ones when hunting for bugs.
try:
    from hypothesis import settings as _hyp_settings

    _hyp_settings.register_profile("robomaze", derandomize=True, print_blob=True)
    _hyp_settings.register_profile("explore", derandomize=False, print_blob=True)
    _hyp_settings.load_profile("explore" if os.environ.get("ROBOMAZE_HYPOTHESIS") == "explore"
                               else "robomaze")
except ImportError:  # hypothesis is a test extra
    pass


@pytest.fixture(autouse=True)
def _doctest_numpy_printing(doctest_namespace):
    np.set_printoptions(legacy="1.25")
    doctest_namespace["np"] = np
    yield
    np.set_printoptions(legacy=False)

# Test mouse programs are standalone scripts run by the mms host, not modules;
# the fork-server warm-up module does work when imported; packaged samples
# (the example mouse) are data, not modules.
collect_ignore_glob = ["tests/micromouse/mice/*", "benchmarks/*", "robomaze/bench/_warm.py",
                       "robomaze/data/samples/*"]


def pytest_ignore_collect(collection_path, config):
    """Under tests/, only test_*.py files are collected.

    ``--doctest-modules`` would otherwise import helper modules such as test
    planner plugins (which register deliberately broken planners) during
    collection.
    """
    parts = collection_path.parts
    if (collection_path.suffix == ".py" and "tests" in parts
            and not collection_path.name.startswith("test_")):
        # conftest.py files too: pytest loads them as plugins on its own, and
        # collecting two of them as doctest modules named "conftest" clashes
        return True
    return None

# The first-compile notice (robomaze._compile.events) would add a line to the
# stderr of CLI subprocesses on a cold numba cache; tests that check "one
# line of error" set it back on explicitly where they test the notice.
os.environ.setdefault("ROBOMAZE_COMPILE_NOTICE", "0")
# a cold compile in a test is a compile from scratch, never kernels a wheel build
# shipped (tests/test_compile_shipped.py turns seeding on where it tests it)
os.environ.setdefault("ROBOMAZE_SHIPPED_KERNELS", "0")


# Under pytest-xdist's worksteal (pyproject's addopts) each worker starts with
# a contiguous half of the collection and, once its own queue is empty, steals
# half of what the other has not started, from the end. A long test that
# starts late holds the run open while the other worker idles, and a steal
# that splits a module builds its module fixtures twice. So on xdist workers
# the slowest modules (per-test durations of `--durations`, round 10; the
# README test alone is 150-400 s) run first, longest first: the tails of both
# queues are then short tests, and steals split cheap modules. Tests keep
# their order inside a module; `-n 0` keeps the collection's own order.
SLOW_MODULES_FIRST = (
    "tests/cli/test_cli_readme_usage.py",
    "tests/test_compile_warm.py",
    "tests/web/test_web_browser.py",
    "tests/bench/test_bench_warm.py",
    "tests/localize/test_localize_sim.py",
    "tests/test_docs_site.py",
    "tests/bench/test_bench_gate.py",
    "tests/bench/test_bench_dirs.py",
    "tests/web/test_web_browser_finish.py",
    "tests/test_inner_kernels.py",
    "tests/generate/test_gen_one_specialisation.py",
    "tests/bench/test_bench_verdicts.py",
    "tests/bench/test_bench_archive.py",
    "tests/test_compile_shipped.py",
    "tests/test_compiled_kernels.py",
    "tests/bench/test_bench_mapf_gate.py",
    "tests/mapf/test_bench_mapf.py",
    "tests/micromouse/test_mouse_warm.py",
    "tests/bench/test_bench_load.py",
)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    if not hasattr(config, "workerinput"):  # not an xdist worker
        return
    rank = {name: i for i, name in enumerate(SLOW_MODULES_FIRST)}
    last = len(rank)
    # stable: every worker computes the same order from the same collection
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], last))
