"""A results directory as a tidy pandas DataFrame, and its export to Parquet or CSV.

:func:`load` reads ``DIR/results.jsonl`` (:func:`robomaze.bench.store.read_rows`)
into one row per run whose columns are those of the results schema
(:data:`robomaze.bench.schema.COLUMNS`, documented in ``docs/results.md``):
plain ``snake_case`` names with units as suffixes (``wall_cells``,
``length_m``, ``method_cpu_s``), integer counts as integers (pandas
``Int64``), poses as three float64 list columns, and no column that no run
of the table fills. :func:`export` writes the same table with the schema's
Arrow types.

pandas (and pyarrow for Parquet) come with the ``data`` extra:
``pip install 'robomaze[data]'``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..errors import OptionalDependencyError, ParameterError
from .schema import COLUMNS, TYPES, arrow_type
from .store import read_rows, row_poses

__all__ = ["load", "export", "table_records"]

_KINDS = ("plan", "simulate", "mouse")
_KNOWN_METRICS = {c.source[1] for c in COLUMNS if c.source[0] == "metrics"} | {"success"}


def _pandas():
    try:
        import pandas as pd
    except ImportError:
        raise OptionalDependencyError("robomaze.bench.load needs pandas: "
                                      "pip install 'robomaze[data]'") from None
    return pd


def _flatten(obj: dict, prefix: str, out: dict) -> None:
    for k, v in obj.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict):
            _flatten(v, key + "_", out)
        elif isinstance(v, (list, tuple)):
            out[key] = json.dumps(v)   # a list as its JSON text: one cell, one type
        else:
            out[key] = v


def _get(row: dict, source: tuple):
    v = row
    for part in source:
        if not isinstance(v, dict):
            return None
        v = v.get(part)
    return v


def _record(row: dict) -> dict:
    """One stored row as a flat record of the schema's columns."""
    rec = {}
    for col in COLUMNS:
        if col.source[0] == "poses":
            continue
        v = _get(row, col.source)
        if col.type == "json" and v is not None:
            v = json.dumps(v, sort_keys=True)
        rec[col.name] = v
    if rec["localize"] is None:
        rec["localize"] = "none"
    poses = row_poses(row)
    if poses is not None:
        rec["pose_x"], rec["pose_y"], rec["pose_heading"] = (poses[:, i].copy() for i in range(3))
    for name, v in (row.get("metrics") or {}).items():
        if name not in _KNOWN_METRICS:
            rec[f"extra_{name}"] = v
    _flatten(row.get("scenario") or {}, "scenario_", rec)
    return rec


def table_records(rows: list[dict]) -> list[dict]:
    """The stored rows as flat records named by the schema (no pandas needed).

    >>> rec = table_records([{"id": "a", "kind": "plan", "wall": 1,
    ...                       "metrics": {"collisions": 2, "my_figure": 0.5}}])[0]
    >>> rec["wall_cells"], rec["collisions"], rec["extra_my_figure"], rec["localize"]
    (1, 2, 0.5, 'none')
    """
    return [_record(r) for r in rows]


def _typed(df, pd):
    """Each schema column in its declared dtype (counts as ``Int64``...)."""
    for col in COLUMNS:
        if col.name not in df:
            continue
        dtype = TYPES[col.type][0]
        if dtype == "object":
            continue
        s = df[col.name]
        if dtype in ("Int64", "float64"):
            s = pd.to_numeric(s, errors="coerce")
        df[col.name] = s.astype(dtype)
    return df


def load(directory: str | os.PathLike, *, kind: str | None = None, keep_empty: bool = False):
    """One row per run of ``DIR/results.jsonl``, columns of the results schema.

    Parameters
    ----------
    directory : path
        A results directory (or its ``results.jsonl``).
    kind : {"plan", "simulate", "mouse"}, optional
        Only the runs of this kind (and so only the columns it fills).
    keep_empty : bool
        Keep the schema's columns that no run of the table fills (all
        missing) instead of dropping them.

    Returns
    -------
    pandas.DataFrame
        Columns named and typed as :data:`robomaze.bench.schema.COLUMNS`
        says (``docs/results.md``), then the ``scenario_*`` spec columns.

    Examples
    --------
    >>> import tempfile, pathlib, json
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> row = {"id": "a", "kind": "plan", "method": "astar", "status": "ok", "success": True,
    ...        "wall": 1, "scenario": {"widen": {"corridor": 3}},
    ...        "metrics": {"length_ratio": 1.2, "collisions": 0}, "timings": {"cpu_s": 0.01}}
    >>> _ = (d / "results.jsonl").write_text(json.dumps(row) + "\\n")
    >>> df = load(d)
    >>> float(df.loc[0, "length_ratio"]), int(df.loc[0, "scenario_widen_corridor"])
    (1.2, 3)
    >>> str(df["collisions"].dtype), str(df["wall_cells"].dtype), "turns" in df
    ('Int64', 'Int64', False)
    """
    pd = _pandas()
    if kind is not None and kind not in _KINDS:
        raise ParameterError(f"kind must be one of {', '.join(_KINDS)}, got {kind!r}")
    rows = read_rows(Path(directory))
    if kind is not None:
        rows = [r for r in rows if r.get("kind") == kind]
    records = table_records(rows)
    names = [c.name for c in COLUMNS]
    df = pd.DataFrame.from_records(records)
    for name in names:
        if name not in df:
            df[name] = None
    rest = sorted(c for c in df.columns if c not in set(names))
    df = _typed(df[names + rest].copy(), pd)
    for name in rest:   # scenario_* and extra_*: the type every present value has
        df[name] = _pattern_typed(df[name], [r.get(name) for r in records], pd)
    if not keep_empty:
        df = df[[c for c in df.columns if df[c].notna().any()]] if len(df) else df
    return df


def _pattern_typed(series, values: list, pd):
    present = [v for v in values if v is not None]
    if present and all(isinstance(v, bool) for v in present):
        return series.astype("boolean")
    if present and all(isinstance(v, int) and not isinstance(v, bool) for v in present):
        return pd.array(values, dtype="Int64")
    if present and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
        return pd.to_numeric(series, errors="coerce").astype("float64")
    return pd.array([None if v is None else (v if isinstance(v, str) else json.dumps(v))
                     for v in values], dtype="string")


def _csv_cell(v):
    import numpy as np

    if isinstance(v, np.ndarray):
        return " ".join(repr(float(x)) for x in v)   # exact: numpy.array(cell.split(), float)
    return v


def export(directory: str | os.PathLike, output: str | os.PathLike) -> Path:
    """Write :func:`load`'s table to ``output`` (``.parquet`` or ``.csv``).

    Parquet columns carry the schema's Arrow types (integers ``int64``,
    poses ``list<double>``, text ``string``; never ``null``); in CSV the
    pose lists are space-separated numbers.
    """
    out = Path(output)
    suffix = out.suffix.lower()
    if suffix not in (".parquet", ".csv"):
        raise ParameterError(f"output must end in .parquet or .csv, got {str(output)!r}")
    df = load(directory)
    if suffix == ".csv":
        for c in ("pose_x", "pose_y", "pose_heading"):
            if c in df:
                df[c] = df[c].map(_csv_cell)
        df.to_csv(out, index=False)
        return out
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise OptionalDependencyError("Parquet export needs pyarrow: "
                                      "pip install 'robomaze[data]'") from None
    fields, arrays = [], []
    by_name = {c.name: c for c in COLUMNS}
    for name in df.columns:
        values = [None if _missing(v) else v for v in df[name].tolist()]
        col = by_name.get(name)
        if col is not None:
            typ = arrow_type(col)
            if col.type == "list<float>":
                values = [None if v is None else [float(x) for x in v] for v in values]
        else:   # scenario_* and extra_* columns: the type their values have
            typ = _infer(values, pa)
            if typ == pa.string():
                values = [None if v is None else (v if isinstance(v, str) else json.dumps(v))
                          for v in values]
        fields.append(pa.field(name, typ))
        arrays.append(pa.array(values, type=typ))
    pq.write_table(pa.Table.from_arrays(arrays, schema=pa.schema(fields)), out)
    return out


def _missing(v) -> bool:
    try:
        import pandas as pd

        return v is None or (not hasattr(v, "__len__") and bool(pd.isna(v)))
    except (TypeError, ValueError):
        return False


def _infer(values: list, pa):
    """Arrow type of a column the schema names by pattern: bool, int64,
    float64 when every present value is one, text otherwise (never null)."""
    present = [v for v in values if v is not None]
    if present and all(isinstance(v, bool) for v in present):
        return pa.bool_()
    if present and all(isinstance(v, int) and not isinstance(v, bool) for v in present):
        return pa.int64()
    if present and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
        return pa.float64()
    return pa.string()
