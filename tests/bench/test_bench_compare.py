"""``robomaze bench compare``: 0 against itself, non-zero on a perturbed metric."""

from __future__ import annotations

import json

import pytest

from robomaze.bench import read_rows, write_rows
from robomaze.cli import main

ROWS = [
    {"id": f"r{i}", "method": "astar", "corridor": k, "footprint": "disc:0.1", "status": "ok",
     "success": True, "metrics": {"success": True, "length_m": 1.0 + i, "min_clearance": 0.05,
                                  "collisions": 0, "turns": 3},
     "timings": {"compute_s": 0.01 * (i + 1)}}
    for i, k in enumerate((1, 3, 5))
]


@pytest.fixture
def base(tmp_path):
    write_rows(tmp_path / "base", ROWS)
    return tmp_path / "base"


def _variant(tmp_path, name, change):
    rows = json.loads(json.dumps(ROWS))
    change(rows)
    write_rows(tmp_path / name, rows)
    return tmp_path / name


def test_compare_against_itself_exits_zero(base, capsys):
    assert main(["bench", "compare", str(base), str(base)]) == 0
    out = capsys.readouterr().out
    assert "compared 3 runs: 0 metric changes, 0 missing" in out and "OK: no regression" in out


def test_perturbed_metric_is_a_regression(base, tmp_path, capsys):
    cur = _variant(tmp_path, "cur", lambda rows: rows[1]["metrics"].update(min_clearance=0.0501))
    assert main(["bench", "compare", str(base), str(cur)]) == 1
    out = capsys.readouterr().out
    assert "min_clearance" in out and "0.05" in out and "0.0501" in out and "REGRESSION" in out


def test_within_tolerance_success_flip_and_missing_runs(base, tmp_path, capsys):
    tiny = _variant(tmp_path, "tiny", lambda rows: rows[0]["metrics"].update(length_m=1.0 + 1e-12))
    assert main(["bench", "compare", str(base), str(tiny)]) == 0
    flip = _variant(tmp_path, "flip", lambda rows: rows[2].update(success=False))
    assert main(["bench", "compare", str(base), str(flip)]) == 1
    gone = _variant(tmp_path, "gone", lambda rows: rows.pop())
    assert main(["bench", "compare", str(base), str(gone)]) == 1
    assert "missing from current: r2" in capsys.readouterr().out
    extra = _variant(tmp_path, "extra", lambda rows: rows.append(dict(rows[0], id="new1")))
    assert main(["bench", "compare", str(base), str(extra)]) == 0  # new runs are reported only


def test_timings_are_reported_and_gate_only_when_asked(base, tmp_path, capsys):
    def slower(rows):
        for r in rows:
            r["timings"]["compute_s"] *= 2.0
    cur = _variant(tmp_path, "slow", slower)
    assert main(["bench", "compare", str(base), str(cur)]) == 0
    assert "geometric mean 2.000 (reported, not gated)" in capsys.readouterr().out
    assert main(["bench", "compare", str(base), str(cur), "--fail-on-time", "1.5"]) == 1
    assert "limit 1.5: FAIL" in capsys.readouterr().out
    assert main(["bench", "compare", str(base), str(cur), "--fail-on-time", "3"]) == 0


def test_committed_ci_baseline_is_readable():
    from pathlib import Path

    base = Path(__file__).resolve().parents[2] / "benchmarks" / "baselines" / "ci"
    if not (base / "results.jsonl").exists():
        pytest.skip("no committed CI baseline yet")
    rows = read_rows(base)
    assert rows and all(r["status"] == "ok" for r in rows)


# ------------------------------------------- a gate that cannot compare fails
@pytest.mark.parametrize("content,message", [
    (b"", "holds no result rows; nothing to compare"),
    (b"\n\n", "holds no result rows"),
    (b'{"id": "r0", "status": "ok", "metrics": {}}', "torn last line"),
    (b"\x00\xffgarbage\n", "not a JSON result row"),
    (b'[1, 2]\n', "expected a result row (a JSON object), got list"),
    (b'{"id": "r0", "status": "ok", "metrics": null}\n', "expected 'metrics' to be an object"),
    (b'{"id": 3, "status": "ok"}\n', "expected a string 'id', got 3"),
    (b'{"id": "r0", "status": "fine"}\n', "expected 'status' one of ok, error, infra_timeout"),
    (b'{"id": "r0", "status": "ok", "metrics": {"length_m": NaN}}\n', "not a JSON result row"),
    (b'{"id": "r0", "status": "ok", "metrics": {"length_m": [1]}}\n',
     "metrics.length_m: expected a number"),
    (b"[" * 100000 + b"\n", "not a JSON result row"),
])
def test_a_baseline_that_cannot_be_compared_fails_loudly(base, tmp_path, capsys, content,
                                                         message):
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "results.jsonl").write_bytes(content)
    assert main(["bench", "compare", str(bad), str(base)]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "baseline" in err and len(err.splitlines()) == 1, err
    assert main(["bench", "compare", str(base), str(bad)]) == 2  # the current side too
    assert message in capsys.readouterr().err


def test_missing_baseline_and_mixed_id_types(base, tmp_path, capsys):
    assert main(["bench", "compare", str(tmp_path / "nowhere"), str(base)]) == 2
    assert "baseline" in capsys.readouterr().err
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    (mixed / "results.jsonl").write_text('{"id": "r0", "status": "ok"}\n{"id": 1, "status": "ok"}\n')
    assert main(["bench", "compare", str(mixed), str(base)]) == 2
    assert f"{mixed / 'results.jsonl'}:2: expected a string 'id', got 1" in capsys.readouterr().err


@pytest.mark.parametrize("option,value,message", [
    ("--fail-on-time", "nan", "--fail-on-time must be a finite number > 0, got nan"),
    ("--fail-on-time", "inf", "--fail-on-time must be a finite number > 0, got inf"),
    ("--fail-on-time", "0", "--fail-on-time must be a finite number > 0, got 0.0"),
    ("--rel-tol", "-1", "--rel-tol must be a finite number >= 0, got -1.0"),
    ("--rel-tol", "nan", "--rel-tol must be a finite number >= 0, got nan"),
])
def test_gate_options_that_would_disable_it_are_rejected(base, capsys, option, value, message):
    assert main(["bench", "compare", str(base), str(base), option, value]) == 2
    assert message in capsys.readouterr().err


def test_library_compare_rejects_what_the_cli_rejects():
    from robomaze.bench import compare_rows
    from robomaze.errors import ParameterError, RecordFormatError

    with pytest.raises(ParameterError):
        compare_rows(ROWS, ROWS, fail_on_time=float("nan"))
    with pytest.raises(RecordFormatError, match="baseline holds no result rows"):
        compare_rows([], ROWS)
    with pytest.raises(RecordFormatError, match="current row 1: expected 'metrics'"):
        compare_rows(ROWS, [dict(ROWS[0], metrics=None)])
