"""``bench export -o X.tar.gz|X.zip``: a self-describing archive that a reader
opens with tarfile/zipfile, json and pyarrow alone (no robomaze)."""

from __future__ import annotations

import hashlib
import io
import json
import tarfile
import tomllib
import zipfile

import pytest

from robomaze.cli import main

SWEEP = """\
name = "tiny"
description = "two planners on one small maze"
seed = 3

[maze]
generator = "kruskal"
rows = 3
cols = 3

[widen]
corridor = 3
resolution = 0.1

[robot]
footprint = "disc:0.05"

[run]
planner = ["astar", "dijkstra"]
"""


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    d = tmp_path_factory.mktemp("arch")
    (d / "tiny.toml").write_text(SWEEP)
    assert main(["bench", str(d / "tiny.toml"), "-o", str(d / "out"), "--workers", "1",
                 "--no-report", "-q"]) == 0
    return d


def _members(path):
    """{name: bytes} of a .tar.gz or .zip, read with the standard library only."""
    if str(path).endswith(".zip"):
        with zipfile.ZipFile(path) as z:
            return {n: z.read(n) for n in z.namelist()}, z.namelist()
    with tarfile.open(path) as t:
        names = t.getnames()
        return {n: t.extractfile(n).read() for n in names}, names


@pytest.mark.parametrize("name", ["res.tar.gz", "res.zip"])
def test_the_archive_describes_itself(results, name, capsys):
    import pyarrow.parquet as pq

    out = results / name
    assert main(["bench", "export", str(results / "out"), "-o", str(out)]) == 0
    files, order = _members(out)
    assert order[:2] == ["MANIFEST.json", "README.txt"]
    manifest = json.loads(files["MANIFEST.json"])
    assert manifest["format"] == "robomaze-results-archive" and manifest["format_version"] == 1
    assert manifest["sweep"]["name"] == "tiny" and manifest["notes"] == []
    listed = {m["name"]: m for m in manifest["members"]}
    assert set(listed) == set(files) - {"MANIFEST.json", "README.txt"}
    assert {"results.jsonl", "results.parquet", "schema.json", "sweep.json", "sweep.toml",
            "versions.json"} <= set(listed)
    for n, m in listed.items():          # every member is what the manifest says
        assert m["size"] == len(files[n]) and m["sha256"] == hashlib.sha256(files[n]).hexdigest()
    # the rows, byte for byte as the sweep stored them
    stored = (results / "out" / "results.jsonl").read_bytes()
    assert files["results.jsonl"] == stored
    rows = [json.loads(line) for line in files["results.jsonl"].splitlines()]
    assert len(rows) == 2 and manifest["counts"]["rows"] == 2
    assert manifest["counts"]["by_kind"] == {"plan": 2}
    # the typed table: one row per run, the schema names its columns
    table = pq.read_table(io.BytesIO(files["results.parquet"]))
    assert table.num_rows == 2
    assert sorted(table.column("id").to_pylist()) == sorted(r["id"] for r in rows)
    by_id = dict(zip(table.column("id").to_pylist(), table.column("length_m").to_pylist()))
    assert all(by_id[r["id"]] == r["metrics"]["length_m"] for r in rows)
    schema = json.loads(files["schema.json"])
    assert [c["name"] for c in schema] == table.column_names
    assert next(c for c in schema if c["name"] == "length_m")["unit"] == "m"
    # the sweep: its file (which expands to these runs) and what the run recorded
    assert files["sweep.toml"] == SWEEP.encode()
    assert tomllib.loads(files["sweep.toml"].decode())["run"]["planner"] == ["astar", "dijkstra"]
    assert sorted(json.loads(files["sweep.json"])["ids"]) == sorted(r["id"] for r in rows)
    versions = json.loads(files["versions.json"])
    for when in ("sweep", "export"):
        assert versions[when]["numpy"] and versions[when]["python"]
        assert {"scipy", "numba", "shapely", "ompl", "platform"} <= set(versions[when])
    assert b"pq.read_table" in files["README.txt"]
    assert f"export: {out}" in capsys.readouterr().out


def test_the_archive_is_reproducible_and_says_what_is_missing(results, tmp_path):
    a, b = tmp_path / "a.tar.gz", tmp_path / "b.tar.gz"
    assert main(["bench", "export", str(results / "out"), "-o", str(a)]) == 0
    assert main(["bench", "export", str(results / "out"), "-o", str(b)]) == 0
    assert a.read_bytes() == b.read_bytes()          # same directory, same bytes
    # the sweep file edited since the sweep ran: archived, and the manifest says so
    (results / "tiny.toml").write_text(SWEEP.replace('"dijkstra"', '"dijkstra", "bfs"'))
    try:
        main(["bench", "export", str(results / "out"), "-o", str(a)])
        notes = json.loads(_members(a)[0]["MANIFEST.json"])["notes"]
        assert len(notes) == 1 and "has changed since the sweep ran" in notes[0], notes
        (results / "tiny.toml").unlink()             # gone: the manifest says so too
        main(["bench", "export", str(results / "out"), "-o", str(a)])
        files = _members(a)[0]
        assert "sweep.toml" not in files
        notes = json.loads(files["MANIFEST.json"])["notes"]
        assert any("was not found at export time" in n for n in notes)
    finally:
        (results / "tiny.toml").write_text(SWEEP)


def test_bad_archive_requests_are_one_line(results, tmp_path, capsys):
    assert main(["bench", "export", str(results / "out"), "-o", str(tmp_path / "x.tar")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "x.tar" in err[0]
    (tmp_path / "empty").mkdir()
    assert main(["bench", "export", str(tmp_path / "empty"), "-o",
                 str(tmp_path / "e.zip")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "holds no results.jsonl" in err[0]
    assert not (tmp_path / "e.zip").exists()


def test_a_traffic_sweep_is_archived_too(tmp_path):
    (tmp_path / "t.toml").write_text('kind = "traffic"\nname = "t"\nseed = 0\n'
                                     '[maze]\ngenerator = "kruskal"\nrows = 1\ncols = 3\n'
                                     '[widen]\ncorridor = 14\nresolution = 0.1\n'
                                     '[robots]\ncount = 1\n[run]\nmax_steps = 300\n')
    assert main(["bench", str(tmp_path / "t.toml"), "-o", str(tmp_path / "out"),
                 "--workers", "1", "-q"]) == 0
    assert main(["bench", "export", str(tmp_path / "out"), "-o", str(tmp_path / "t.zip")]) == 0
    files = _members(tmp_path / "t.zip")[0]
    manifest = json.loads(files["MANIFEST.json"])
    assert manifest["kind"] == "traffic" and manifest["counts"]["rows"] == 1
    assert files["traffic.jsonl"] == (tmp_path / "out" / "traffic.jsonl").read_bytes()
    assert "results.parquet" not in files and manifest["notes"] == []
