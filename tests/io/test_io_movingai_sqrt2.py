"""MovingAI lengths computed with a rounded sqrt(2): the file's own constant
is fitted, reported, and a wrong length is still flagged (issue 20)."""

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from robomaze.bench.movingai import (SQRT2_FIT_BOUND, fit_sqrt2, octile_counts,
                                      run_scen_file)

ROOT = Path(__file__).resolve().parents[2]
OLD_SQRT2 = 1.41421356            # the 9-digit constant of older files


def _dijkstra(free, pairs):
    """Reference lengths: scipy on the 8-connected, no-corner-cutting graph."""
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
    d = csgraph.dijkstra(g, directed=False, indices=[s[0] * cols + s[1] for s, _ in pairs])
    return [d[i, t[0] * cols + t[1]] for i, (_, t) in enumerate(pairs)]


def _counts(length):
    """(straight, diagonal) moves of a length, by plain search."""
    for diag in range(int(length) + 1):
        straight = length - diag * math.sqrt(2)
        if straight < -1e-9:
            break
        if abs(straight - round(straight)) < 1e-7:
            return round(straight), diag
    raise AssertionError(length)


def _scen(tmp_path, constant, *, wrong=None, decimals=8, n=60):
    rng = np.random.default_rng(11)
    occ = rng.random((40, 50)) < 0.2
    cells = np.argwhere(~occ)
    pairs = [(tuple(map(int, cells[i])), tuple(map(int, cells[j])))
             for i, j in rng.integers(0, len(cells), size=(4 * n, 2))]
    ref = _dijkstra(~occ, pairs)
    keep = [(p, d) for p, d in zip(pairs, ref) if np.isfinite(d) and d > 10][:n]
    assert len(keep) == n
    (tmp_path / "t.map").write_text("type octile\nheight 40\nwidth 50\nmap\n" + "\n".join(
        "".join("@" if v else "." for v in row) for row in occ) + "\n")
    lines, diag = ["version 1"], []
    for i, (((sr, sc), (gr, gc)), d) in enumerate(keep):
        straight, k = _counts(d)
        diag.append(k)
        value = straight + k * constant
        if i == wrong:
            # 100 units in the last digit: more than any rounded sqrt(2) explains
            # (b (sqrt 2 - 1.41421356) is at most 3e-7 here), less than a move
            value += 100 * 10.0 ** -decimals
        lines.append(f"0\tt.map\t50\t40\t{sc}\t{sr}\t{gc}\t{gr}\t{value:.{decimals}f}")
    (tmp_path / "t.map.scen").write_text("\n".join(lines) + "\n")
    return tmp_path / "t.map.scen", np.array(diag), np.array([d for _, d in keep])


def test_octile_counts_match_a_plain_search():
    rng = np.random.default_rng(3)
    a = rng.integers(0, 500, 200)
    b = rng.integers(0, 500, 200)
    got_a, got_b = octile_counts(a + b * math.sqrt(2))
    assert got_a.tolist() == a.tolist() and got_b.tolist() == b.tolist()
    assert octile_counts(np.array([np.nan, 0.3]))[0].tolist() == [-1, -1]


def test_fit_ignores_a_minority_of_wrong_lines():
    rng = np.random.default_rng(4)
    a, b = rng.integers(0, 300, 100), rng.integers(1, 300, 100)
    stored = np.round(a + b * OLD_SQRT2, 8)
    stored[:10] += 5e-6
    value, n = fit_sqrt2(a, b, stored, np.full(100, 1e-8))
    assert abs(value - OLD_SQRT2) < 1e-10 and n == 90


def test_old_file_agrees_by_its_fitted_sqrt2(tmp_path):
    scen, diag, truth = _scen(tmp_path, OLD_SQRT2)
    # these lines are off by more than a unit in their last digit with the
    # true sqrt(2): the last-digit rule alone rejects them
    assert (diag * (math.sqrt(2) - OLD_SQRT2) > 1.5e-8).sum() > 20
    rep = run_scen_file(scen)
    assert rep.n_agree == rep.n == 60
    assert abs(rep.sqrt2 - OLD_SQRT2) < 1e-10
    np.testing.assert_allclose(rep.lengths, truth, rtol=1e-12)
    assert rep.n_by_fit == int((np.abs(truth - rep.optimal) > 1e-8).sum()) > 20
    assert "fitted from the file" in rep.rule and "1.41421356000" in rep.rule


def test_new_file_needs_no_fit(tmp_path):
    scen, _, _ = _scen(tmp_path, math.sqrt(2))
    rep = run_scen_file(scen)
    assert rep.n_agree == 60 and rep.sqrt2 is None and rep.n_by_fit == 0
    assert "fitted" not in rep.rule


@pytest.mark.parametrize("constant", [OLD_SQRT2, math.sqrt(2)])
def test_a_wrong_length_still_disagrees(tmp_path, constant):
    scen, _, _ = _scen(tmp_path, constant, wrong=17)
    rep = run_scen_file(scen)
    assert rep.n_agree == 59 and not rep.agree[17]


def test_another_diagonal_cost_is_not_taken_for_sqrt2(tmp_path):
    scen, diag, _ = _scen(tmp_path, 1.5)
    rep = run_scen_file(scen)
    assert rep.sqrt2 is None
    assert rep.n_agree == int((diag == 0).sum())
    assert abs(1.5 - math.sqrt(2)) > SQRT2_FIT_BOUND


def _cli(scen):
    return subprocess.run([sys.executable, "-m", "robomaze", "movingai", str(scen), "--quiet"],
                          capture_output=True, text=True, cwd=ROOT,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def test_cli_exit_codes_old_new_and_wrong(tmp_path):
    for sub, constant, wrong, code in (("old", OLD_SQRT2, None, 0),
                                       ("new", math.sqrt(2), None, 0),
                                       ("bad", OLD_SQRT2, 5, 1)):
        (tmp_path / sub).mkdir()
        scen, _, _ = _scen(tmp_path / sub, constant, wrong=wrong)
        out = _cli(scen)
        assert out.returncode == code, out.stdout + out.stderr
        if sub == "old":
            assert "sqrt(2) of the file: 1.41421356000" in out.stdout
        if sub == "new":
            assert "sqrt(2) of the file" not in out.stdout
        if sub == "bad":
            assert "59 agree" in out.stdout and "problem 5:" in out.stdout
