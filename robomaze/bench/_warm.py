"""Imported once by the runner's fork server: warm the sweep's kernels there.

Workers are forked from that server, so they inherit the compiled code and
a run's time limit measures the run, not the first call. Never raises: see
:func:`robomaze.bench._warmup.serve`.
"""

from ._warmup import STATS, serve

__all__ = ["STATS"]

serve()
