"""Imported once by the runner's fork server: compile the numba kernels there.

Workers are forked from that server, so they inherit the compiled code and
a run's time limit measures the run, not the JIT. Never raises: a failure
here only means workers warm up on their first run instead. The work is in
:mod:`robomaze.bench._warmup`; a warm-up helper process imports this module
too (with ``ROBOMAZE_WARM_CLAIMS`` set) and compiles its share.
"""

import os

from ._warmup import CLAIMS_ENV, STATS, helper_main, serve

__all__ = ["STATS"]

if os.environ.get(CLAIMS_ENV):
    helper_main(os.environ[CLAIMS_ENV])
else:
    serve()
