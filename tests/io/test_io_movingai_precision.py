"""MovingAI scen lines are judged at the precision they were printed with,
and ``robomaze movingai`` uses the batch kernel by default (issue 10 §4)."""

import math
import subprocess
import sys
from decimal import ROUND_DOWN, Decimal
from pathlib import Path

import numpy as np
import pytest

from robomaze.io.movingai import parse_scen, printed_unit, read_scen
from robomaze.bench.movingai import run_scen_file

DATA = Path(__file__).resolve().parents[1] / "data" / "movingai"
ROOT = Path(__file__).resolve().parents[2]


def _six_digits_cut(x: float) -> str:
    """``x`` with 6 significant digits, the last one cut (not rounded), as the
    older maze512-4-* style files hold some of their values."""
    d = Decimal(repr(x))
    exp = d.adjusted() - 5
    return str(d.quantize(Decimal(1).scaleb(exp), rounding=ROUND_DOWN))


def _octile_lengths(free, pairs):
    """Reference lengths: scipy Dijkstra on the 8-connected, no-corner-cutting graph."""
    import scipy.sparse as sp
    from scipy.sparse import csgraph
    rows, cols = free.shape
    a, b, w = [], [], []
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for r in range(rows - dr):
            for c in range(max(0, -dc), cols - max(0, dc)):
                rr, cc = r + dr, c + dc
                corner_ok = not (dr and dc) or (free[r, cc] and free[rr, c])
                if free[r, c] and free[rr, cc] and corner_ok:
                    a.append(r * cols + c)
                    b.append(rr * cols + cc)
                    w.append(math.sqrt(2) if dr and dc else 1.0)
    g = sp.csr_matrix((w, (a, b)), shape=(rows * cols,) * 2)
    src = sorted({s[0] * cols + s[1] for s, _ in pairs})
    d = csgraph.dijkstra(g, directed=False, indices=src)
    at = {v: i for i, v in enumerate(src)}
    return [d[at[s[0] * cols + s[1]], t[0] * cols + t[1]] for s, t in pairs]


def _old_style(tmp_path, n=80, corrupt=None):
    """A map with open space (diagonal lengths) and a scen whose lengths are
    printed with 6 significant digits, the last cut."""
    rng = np.random.default_rng(5)
    occ = rng.random((60, 70)) < 0.15
    free_cells = np.argwhere(~occ)
    pairs = [(tuple(map(int, free_cells[i])), tuple(map(int, free_cells[j])))
             for i, j in rng.integers(0, len(free_cells), size=(3 * n, 2))]
    ref = _octile_lengths(~occ, pairs)
    keep = [(p, d) for p, d in zip(pairs, ref) if np.isfinite(d) and d > 20][:n]
    assert len(keep) == n
    rows = ["".join("@" if v else "." for v in row) for row in occ]
    (tmp_path / "open.map").write_text(f"type octile\nheight 60\nwidth 70\nmap\n"
                                       + "\n".join(rows) + "\n")
    out = ["version 1"]
    for i, (((sr, sc), (gr, gc)), d) in enumerate(keep):
        value = _six_digits_cut(float(d))
        if corrupt is not None and i == corrupt:
            # two units off in the last printed digit: a real disagreement
            unit = Decimal(1).scaleb(Decimal(value).as_tuple().exponent)
            value = str(Decimal(value) + 2 * unit)
        out.append(f"0\topen.map\t70\t60\t{sc}\t{sr}\t{gc}\t{gr}\t{value}")
    scen = tmp_path / "open.map.scen"
    scen.write_text("\n".join(out) + "\n")
    return scen, np.array([d for _, d in keep])


def test_printed_unit():
    assert printed_unit("2.00000000") == 1e-8
    assert printed_unit("1234.57") == pytest.approx(0.01)
    assert printed_unit("86.0416") == pytest.approx(1e-4)
    assert printed_unit("7") == 1.0
    p = parse_scen("version 1\n0\tm.map\t4\t3\t0\t1\t3\t2\t3.41421\n")[0]
    assert p.optimal_unit == pytest.approx(1e-5)


def test_six_digit_values_agree_at_their_printed_precision(tmp_path):
    scen, truth = _old_style(tmp_path)
    stored = np.array([p.optimal for p in read_scen(scen)])
    # the stored values really are off the true length in the 6th digit, so
    # the former rule (rtol 1e-6 of the value) flags many correct lengths
    assert ((np.abs(stored - truth) / truth) > 1e-6).sum() > 20
    rep = run_scen_file(scen)
    assert rep.method == "batch" and rep.n == 80 and rep.n_agree == 80
    assert np.allclose(rep.lengths, truth, rtol=1e-12)
    # values of two digits before the point keep four after it
    assert "last printed digit" in rep.rule and "(0.0001: 80 lines)" in rep.rule
    old = np.abs(rep.lengths - rep.optimal) <= 1e-6 * np.maximum(rep.optimal, 1.0)
    assert old.sum() < 60


def test_a_value_two_units_off_is_flagged(tmp_path):
    scen, _ = _old_style(tmp_path, corrupt=50)
    rep = run_scen_file(scen)
    assert rep.n_agree == 79 and not rep.agree[50]


def test_full_precision_file_uses_1e8(tmp_path):
    rep = run_scen_file(DATA / "maze512-1-0.map.scen", every=600)
    assert rep.n_agree == rep.n == 21
    assert rep.rule.endswith("(1e-08: 21 lines)")
    assert np.all(np.abs(rep.lengths - rep.optimal) <= 1e-8)
    assert math.isclose(rep.tolerance[0], 1e-8)


def test_cli_default_is_batch_and_states_the_rule(tmp_path):
    scen, _ = _old_style(tmp_path, n=10)
    out = subprocess.run([sys.executable, "-m", "robomaze", "movingai", str(scen), "--quiet"],
                         capture_output=True, text=True, cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    assert "method batch" in out.stdout and "0 disagree" in out.stdout
    assert "rule: |length - stored| <= one unit in the last printed digit" in out.stdout
