"""A results directory as a tidy pandas DataFrame, and its export to Parquet or CSV.

:func:`load` reads ``DIR/results.jsonl`` (:func:`robomaze.bench.store.read_rows`)
into one row per run: the row's own fields (``id``, ``kind``, ``method``,
``generator``, ``corridor``, ``footprint``, ``seed``, ``status``,
``success``, ``reason``...), the scenario flattened with dots
(``scenario.widen.resolution``), every metric (``metrics.length_ratio`` ...,
the names of the "Metric names" table of :mod:`robomaze.metrics`) and
every timing (``timings.cpu_s`` ...). The ``path`` and ``provenance``
objects are left out (one column each would hold lists). Every metric
column of :data:`robomaze.bench.run.DETERMINISTIC_METRICS`, and
``first_solution_s`` (anytime planners), is present even when no run
produced it (all missing), so code written against one sweep runs on
another.

pandas (and pyarrow for Parquet) come with the ``data`` extra:
``pip install 'robomaze[data]'``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..errors import OptionalDependencyError, ParameterError
from .store import read_rows

__all__ = ["load", "export"]

_DROP = ("path", "provenance", "scenario", "metrics", "timings")
#: Metrics only some planners produce, present as columns in every table.
_ALWAYS = ("first_solution_s",)
_TIMINGS = ("setup_s", "optimal_s", "method_s", "compute_s", "cpu_s", "total_s")


def _pandas():
    try:
        import pandas as pd
    except ImportError:
        raise OptionalDependencyError("robomaze.bench.load needs pandas: "
                                      "pip install 'robomaze[data]'") from None
    return pd


def _flatten(obj, prefix: str, out: dict) -> None:
    for k, v in obj.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict):
            _flatten(v, key + ".", out)
        elif isinstance(v, list):
            out[key] = json.dumps(v)   # a list as its JSON text: one cell, one type
        else:
            out[key] = v


def load(directory: str | os.PathLike):
    """One row per run of ``DIR/results.jsonl``, spec and metrics flattened.

    Examples
    --------
    >>> import tempfile, pathlib, json
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> row = {"id": "a", "kind": "plan", "method": "astar", "status": "ok", "success": True,
    ...        "scenario": {"widen": {"corridor": 3}}, "metrics": {"length_ratio": 1.2},
    ...        "timings": {"cpu_s": 0.01}, "path": [[0, 0]]}
    >>> _ = (d / "results.jsonl").write_text(json.dumps(row) + "\\n")
    >>> df = load(d)
    >>> float(df.loc[0, "metrics.length_ratio"]), int(df.loc[0, "scenario.widen.corridor"]), "path" in df
    (1.2, 3, False)
    """
    pd = _pandas()
    from .run import DETERMINISTIC_METRICS

    rows = read_rows(Path(directory))
    records = []
    for r in rows:
        flat = {k: v for k, v in r.items() if k not in _DROP}
        _flatten(r.get("scenario") or {}, "scenario.", flat)
        _flatten(r.get("metrics") or {}, "metrics.", flat)
        _flatten(r.get("timings") or {}, "timings.", flat)
        records.append(flat)
    df = pd.DataFrame.from_records(records)
    for name in (*DETERMINISTIC_METRICS, *_ALWAYS):
        if f"metrics.{name}" not in df:
            df[f"metrics.{name}"] = None
    for name in _TIMINGS:
        if f"timings.{name}" not in df:
            df[f"timings.{name}"] = None
    # JSON null is "missing": numeric metric columns become floats with NaN
    for c in df.columns:
        if c.startswith(("metrics.", "timings.")) and df[c].dtype == object:
            conv = pd.to_numeric(df[c], errors="coerce")
            if conv.notna().sum() == df[c].notna().sum():
                df[c] = conv
    return df


def export(directory: str | os.PathLike, output: str | os.PathLike) -> Path:
    """Write :func:`load`'s table to ``output`` (``.parquet`` or ``.csv``)."""
    out = Path(output)
    suffix = out.suffix.lower()
    if suffix not in (".parquet", ".csv"):
        raise ParameterError(f"output must end in .parquet or .csv, got {str(output)!r}")
    df = load(directory)
    if suffix == ".csv":
        df.to_csv(out, index=False)
        return out
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        raise OptionalDependencyError("Parquet export needs pyarrow: "
                                      "pip install 'robomaze[data]'") from None
    # object columns mixing types (a metric that is a number in some rows and
    # a string in others, a reason or None) go out as text
    for c in df.columns:
        if df[c].dtype == object:
            df[c] = df[c].map(lambda v: None if v is None else (v if isinstance(v, str) else json.dumps(v)))
    df.to_parquet(out, index=False)
    return out
