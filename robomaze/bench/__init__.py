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
