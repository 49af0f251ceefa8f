"""The benchmark harness: scenarios, sweep runner, results store, report, compare.

A sweep is a TOML file (see :mod:`robomaze.bench.scenario`) that expands to
scenarios; :func:`run_sweep` runs them in parallel, isolated and
time-limited, appending one JSON row per run to ``DIR/results.jsonl``
(resumable); :func:`write_report` summarises a directory into Markdown, CSV,
figures and OMPL benchmark logs; :func:`compare_dirs` is the regression gate.

>>> from robomaze.bench import parse_sweep
>>> sweep = parse_sweep({"maze": {"generator": "prim", "rows": 4, "cols": 4},
...                      "robot": {"footprint": "disc:0.3"},
...                      "run": {"planner": "astar"}}, check_names=False)
>>> [sc.method for sc in sweep.scenarios]
['astar']
"""

from .compare import Comparison, compare_dirs, compare_rows
from .load import export, load  # the function load() shadows its module's name, on purpose
from .plugins import import_plugins
from .report import summarize, write_ompl_logs, write_report
from .run import DETERMINISTIC_METRICS, failed_row, run_scenario
from .runner import Progress, SweepResult, run_sweep
from .scenario import Scenario, Sweep, load_sweep, parse_sweep, scenario_id
from .store import ResultStore, read_rows, write_rows

__all__ = [
    "Scenario", "Sweep", "load_sweep", "parse_sweep", "scenario_id",
    "run_scenario", "failed_row", "DETERMINISTIC_METRICS",
    "run_sweep", "SweepResult", "Progress",
    "ResultStore", "read_rows", "write_rows",
    "summarize", "write_report", "write_ompl_logs",
    "compare_rows", "compare_dirs", "Comparison",
    "import_plugins", "default_sweep_path",
    "load", "export",
]


def default_sweep_path():
    """Path of the default sweep shipped in the package (``pkg:scenarios/default.toml``)."""
    from ..data import sample_path

    return sample_path("scenarios/default.toml")


def warm_up(items: str, *, processes: int | None = None) -> dict:
    """Compile (or load from the cache) the kernels a warm-up list names.

    ``items`` is a ``ROBOMAZE_WARM`` list (``plan:astar,simulate:explore,
    shape:rectangle,sensor:lidar,generate:kruskal``); ``processes`` caps
    the compiling processes (default: one per core, at most 4). The bench
    runner's fork server runs the same warm-up before a sweep; ``robomaze
    warmup`` runs it over everything. Returns its figures: ``tasks``,
    ``processes``, ``compiled_here``, ``compiled_helpers``, ``seconds``.
    """
    import os

    from . import _warmup

    keys = (_warmup.ENV, _warmup.PROCESSES_ENV)
    saved = {k: os.environ.get(k) for k in keys}
    os.environ[_warmup.ENV] = items
    if processes is not None:
        os.environ[_warmup.PROCESSES_ENV] = str(int(processes))
    try:
        _warmup.serve()
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return {k: v for k, v in _warmup.STATS.items() if k != "timeline"}


__all__ += ["warm_up"]


def warm_list(scenarios) -> str:
    """The warm-up list (``ROBOMAZE_WARM``) the runner's fork server compiles for
    ``scenarios``: their planners, agents, mice, localisers, shapes, sensors and
    generators (``robomaze warmup --first-runs`` warms the default sweep's).

    >>> "plan:astar" in warm_list(load_sweep(default_sweep_path()).scenarios).split(",")
    True
    """
    from .runner import _warm_list

    return _warm_list(list(scenarios))


__all__ += ["warm_list"]
