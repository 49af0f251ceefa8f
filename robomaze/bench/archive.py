"""A results directory as one self-describing archive (``bench export -o X.tar.gz|X.zip``).

Everything a reader needs to re-run or re-analyse a paper's table, openable
without robomaze (``tarfile``/``zipfile``, ``json``, and ``pyarrow`` or
pandas for the Parquet table):

=========================  ====================================================
``MANIFEST.json``          what the archive is: format and version, the sweep's
                           name, row counts by kind and outcome, and every other
                           member with its size, SHA-256 and a description
``README.txt``             the same in words, with a few lines of Python that
                           read the archive
``results.jsonl``          the rows exactly as the sweep stored them (one JSON
                           object a line: full scenario spec, metrics, timings,
                           poses, provenance; ``docs/results.md``)
``results.parquet``        one row per run, the results schema's columns with
                           their Arrow types (:func:`robomaze.bench.load.export`;
                           left out, and said so, without pyarrow and pandas)
``schema.json``            every column of ``results.parquet``: name, type,
                           unit, meaning
``sweep.json``             what the sweep recorded: name, description, source,
                           the ids it was to run, the machine, the versions
``sweep.toml``             the sweep file itself, when it can be found (a
                           ``pkg:`` sweep, or the source path); else the
                           manifest says so -- each row's ``scenario`` is the
                           full spec of its run either way
``versions.json``          ``{"sweep": ..., "export": ...}``: robomaze, Python,
                           numpy, scipy, numba, shapely, OMPL ... and the
                           platform when the sweep ran and when it was exported
``report/...``             the report's text files when the directory has them
                           (``report.md``, ``summary.csv``, ``stats.csv``)
=========================  ====================================================

A traffic sweep's directory (``traffic.jsonl``) is archived the same way
with ``traffic.jsonl`` in place of the results files. The archive's bytes
depend only on the directory and the installed versions: members are
sorted, their times fixed, gzip's header carries no date.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import tarfile
import tempfile
import zipfile
from collections import Counter
from pathlib import Path

from ..errors import OptionalDependencyError, ParameterError

__all__ = ["write_archive", "ARCHIVE_SUFFIXES", "FORMAT", "FORMAT_VERSION"]

FORMAT = "robomaze-results-archive"
FORMAT_VERSION = 1
ARCHIVE_SUFFIXES = (".tar.gz", ".tgz", ".zip")
_REPORT_FILES = ("report.md", "summary.csv", "stats.csv")
_DESCRIBE = {
    "README.txt": "this archive in words, with Python that reads it",
    "results.jsonl": "the sweep's rows as stored: one JSON object a line (docs/results.md)",
    "traffic.jsonl": "the traffic sweep's rows as stored: one JSON object a line",
    "results.parquet": "one row per run with the results schema's Arrow types",
    "schema.json": "the columns of results.parquet: name, type, unit, meaning",
    "sweep.json": "what the sweep recorded: name, source, ids, machine, versions",
    "sweep.toml": "the sweep file the rows were run from",
    "versions.json": "library and platform versions at sweep time and at export time",
}


def archive_kind(output) -> str | None:
    """``"tar"``, ``"zip"`` or None (not an archive name).

    >>> archive_kind("out.tar.gz"), archive_kind("x.ZIP"), archive_kind("t.parquet")
    ('tar', 'zip', None)
    """
    name = str(output).lower()
    if name.endswith((".tar.gz", ".tgz")):
        return "tar"
    if name.endswith(".zip"):
        return "zip"
    return None


def _sweep_file(info: dict, directory: Path) -> tuple[bytes | None, str]:
    """The sweep file's bytes and where they came from (or None and why not)."""
    from .. import _readfile
    from ..data import PREFIX, resolve

    source = str(info.get("source") or "")
    if not source:
        return None, "sweep.json names no source file"
    candidates = []
    if source.startswith(PREFIX):
        try:
            candidates.append(resolve(source))
        except ParameterError:   # a pkg: name this installation does not ship
            pass
    else:
        p = Path(source)
        candidates += [p] if p.is_absolute() else [Path.cwd() / p, directory.parent / p]
    for p in candidates:
        if Path(p).is_file():   # the guarded reader: a FIFO or a device is refused
            return _readfile.read_guarded(p, ParameterError), source
    return None, (f"the sweep file {source!r} was not found at export time; every row's "
                  "'scenario' holds the full spec of its run")


def _differs(text: bytes, source: str, info: dict, rows: list, traffic: bool) -> str | None:
    """Why the sweep file found now may not be the one the rows ran from (or None)."""
    import tomllib

    try:
        data = tomllib.loads(text.decode("utf-8"))
        if traffic:
            from .traffic import parse_traffic_sweep

            ids = {r["id"] for r in parse_traffic_sweep(data, source=source)}
            want = {r["id"] for r in rows}
        else:
            from .scenario import parse_sweep

            ids = {sc.id for sc in parse_sweep(data, source=source, check_names=False).scenarios}
            want = set(info.get("ids") or [r["id"] for r in rows])
    except Exception as exc:   # any failure to expand it is itself the finding
        return f"sweep.toml ({source}) no longer expands ({type(exc).__name__}: {exc})"
    if ids != want:
        return (f"sweep.toml ({source}) has changed since the sweep ran: it expands to "
                f"{len(ids)} runs, {len(ids & want)} of the {len(want)} recorded ones")
    return None


def _schema_json(columns) -> bytes:
    from .schema import COLUMNS

    by_name = {c.name: c for c in COLUMNS}
    out = []
    for name, typ in columns:
        c = by_name.get(name)
        out.append({"name": name, "type": typ, "unit": (c.unit or None) if c else None,
                    "description": c.meaning if c else
                    "scenario_* / extra_* column: a flattened scenario key or a method's own "
                    "figure"})
    return (json.dumps(out, indent=1) + "\n").encode()


def _parquet(directory: Path) -> tuple[bytes | None, list, str | None]:
    """The Parquet table's bytes and its (name, Arrow type) columns, or why not."""
    from .load import export

    try:
        with tempfile.TemporaryDirectory() as tmp:
            p = export(directory, Path(tmp) / "results.parquet")
            import pyarrow.parquet as pq

            schema = pq.read_schema(p)
            return p.read_bytes(), [(f.name, str(f.type)) for f in schema], None
    except OptionalDependencyError as exc:
        return None, [], str(exc)


def _counts(rows: list[dict]) -> dict:
    return {"rows": len(rows),
            "by_kind": dict(sorted(Counter(str(r.get("kind")) for r in rows).items())),
            "by_outcome": dict(sorted(Counter(str(r.get("outcome", r.get("status")))
                                              for r in rows).items()))}


def _readme(manifest: dict) -> bytes:
    lines = [f"{manifest['format']} version {manifest['format_version']}",
             f"sweep: {manifest['sweep'].get('name') or '(unnamed)'} -- "
             f"{manifest['sweep'].get('description') or ''}".rstrip(" -"),
             f"rows: {manifest['counts']['rows']} "
             f"({', '.join(f'{k} {v}' for k, v in manifest['counts']['by_kind'].items())})",
             f"written by robomaze {manifest['written_by']}", "", "Members:"]
    for m in manifest["members"]:
        lines.append(f"  {m['name']:<18} {m['size']:>10} bytes  {m['description']}")
    for note in manifest["notes"]:
        lines.append(f"  note: {note}")
    rows = "traffic.jsonl" if manifest["kind"] == "traffic" else "results.jsonl"
    lines += ["", "Reading it without robomaze (Python 3.11+):", "",
              "    import json, tarfile   # or zipfile.ZipFile(path).open(name)",
              "    with tarfile.open(path) as t:",
              "        manifest = json.load(t.extractfile('MANIFEST.json'))",
              f"        rows = [json.loads(l) for l in t.extractfile('{rows}')]"]
    if manifest["kind"] != "traffic":
        lines += ["    import io, pyarrow.parquet as pq",
                  "    with tarfile.open(path) as t:",
                  "        table = pq.read_table(io.BytesIO("
                  "t.extractfile('results.parquet').read()))"]
    lines += ["", "Every member's SHA-256 is in MANIFEST.json; MANIFEST.json and README.txt "
              "are not listed in it.", ""]
    return "\n".join(lines).encode()


def _members(directory: Path) -> tuple[dict, dict]:
    """``{name: bytes}`` of the archive and its manifest."""
    from .. import __version__
    from .files import read_regular
    from .traffic import ROWS_FILE as TRAFFIC_ROWS
    from .versions import versions

    traffic = (directory / TRAFFIC_ROWS).is_file()
    rows_name = TRAFFIC_ROWS if traffic else "results.jsonl"
    rows_path = directory / rows_name
    if not rows_path.is_file():
        raise ParameterError(f"{str(directory)!r} holds no results.jsonl or {TRAFFIC_ROWS}; "
                             "expected a results directory of robomaze bench")
    members: dict[str, bytes] = {rows_name: read_regular(rows_path, ParameterError)}
    if traffic:
        from .traffic import read_rows as read_traffic

        rows = read_traffic(directory)
    else:
        from .store import read_rows

        rows = read_rows(directory)
    notes = []
    info = {}
    if (directory / "sweep.json").is_file():
        members["sweep.json"] = read_regular(directory / "sweep.json", ParameterError)
        try:
            info = json.loads(members["sweep.json"])
        except json.JSONDecodeError as exc:
            raise ParameterError(f"{directory / 'sweep.json'}: not JSON ({exc.msg})") from None
    else:
        notes.append("the directory holds no sweep.json")
    text, where = _sweep_file(info, directory)
    if text is not None:
        differs = _differs(text, where, info, rows, traffic)
        if differs:
            notes.append(differs)
        members["sweep.toml"] = text
    else:
        notes.append(where)
    if not traffic:
        pq_bytes, columns, why = _parquet(directory)
        if pq_bytes is not None:
            members["results.parquet"] = pq_bytes
            members["schema.json"] = _schema_json(columns)
        else:
            notes.append(f"results.parquet left out: {why}")
    members["versions.json"] = (json.dumps({"sweep": info.get("versions"),
                                            "export": versions()}, indent=1) + "\n").encode()
    for name in _REPORT_FILES:
        if (directory / name).is_file():
            members[f"report/{name}"] = read_regular(directory / name, ParameterError)
    manifest = {
        "format": FORMAT, "format_version": FORMAT_VERSION, "written_by": __version__,
        "kind": "traffic" if traffic else "results",
        "sweep": {k: info.get(k) for k in ("name", "description", "source")},
        "sweep_file": where if text is not None else None,
        "counts": _counts(rows),
        "members": [{"name": n, "size": len(b), "sha256": hashlib.sha256(b).hexdigest(),
                     "description": _DESCRIBE.get(n) or f"the report's {n.split('/')[-1]}"}
                    for n, b in sorted(members.items())],
        "notes": notes,
    }
    members["MANIFEST.json"] = (json.dumps(manifest, indent=1) + "\n").encode()
    members["README.txt"] = _readme(manifest)
    return members, manifest


def write_archive(directory: str | os.PathLike, output: str | os.PathLike) -> Path:
    """Write ``directory``'s results as one archive (``.tar.gz``/``.tgz`` or ``.zip``).

    See the module docstring for the members. Raises :class:`ParameterError`
    for an output name of another kind or a directory without results.
    """
    kind = archive_kind(output)
    if kind is None:
        raise ParameterError(f"archive name must end in {', '.join(ARCHIVE_SUFFIXES)}, got "
                             f"{str(output)!r}")
    directory = Path(directory)
    members, _ = _members(directory)
    order = ["MANIFEST.json", "README.txt"] + sorted(n for n in members
                                                     if n not in ("MANIFEST.json", "README.txt"))
    out = Path(output)
    tmp = out.with_name(f".{out.name}.tmp-{os.getpid()}")
    try:
        if kind == "zip":
            with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as z:
                for n in order:
                    zi = zipfile.ZipInfo(n, date_time=(1980, 1, 1, 0, 0, 0))
                    zi.compress_type = zipfile.ZIP_DEFLATED
                    zi.external_attr = 0o644 << 16
                    z.writestr(zi, members[n])
        else:
            buf = io.BytesIO()
            with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as t:
                for n in order:
                    ti = tarfile.TarInfo(n)
                    ti.size, ti.mtime, ti.mode = len(members[n]), 0, 0o644
                    t.addfile(ti, io.BytesIO(members[n]))
            with open(tmp, "wb") as f, gzip.GzipFile(filename="", mode="wb", fileobj=f,
                                                     mtime=0) as gz:
                gz.write(buf.getvalue())
        os.replace(tmp, out)
    finally:
        if tmp.exists():
            tmp.unlink()
    return out
