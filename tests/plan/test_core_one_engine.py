"""The distance field and the unit and weighted searches run one compiled engine (issue 22).

Each ``_expand`` specialisation is about a second of compile on a first
run; these three searches pass the engine empty arrays for absent options
(not ``None``), so they share one. Checked in a fresh process, where
``_expand``'s signatures are exactly what that process used (compiled or
loaded from the disk cache: ``best_first`` is the Python loop that calls
it). Their results are checked against independent references in
``test_core_search.py``.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

CODE = r"""
import json
import numpy as np
from robomaze import _search as core
from robomaze._search import _engine
free = np.ones((5, 6), bool)
free[2, 1:5] = False
cost = 1.0 + np.arange(30.0).reshape(5, 6) / 10.0
field = core.distance_field(free, [0])
weighted, _ = core.shortest_path(free, 0, 29, conn8=True, cost=cost, hmode=0)
octile, _ = core.shortest_path(free, 0, 29, conn8=True, hmode=2)
manhattan, _ = core.shortest_path(free, 0, 29, conn8=True, hmode=1)
print(json.dumps({"expand": len(_engine._expand.signatures),
                  "field": float(field[4, 5]), "weighted": weighted.tolist(),
                  "octile": octile.tolist(), "manhattan": manhattan.tolist()}))
"""


def _run():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", CODE], env=env, check=True,
                         capture_output=True, text=True, cwd=str(ROOT))
    return json.loads(out.stdout.strip().splitlines()[-1])


def _length(cells, cols=6):
    total = 0.0
    for a, b in zip(cells, cells[1:]):
        dr, dc = abs(a // cols - b // cols), abs(a % cols - b % cols)
        assert max(dr, dc) == 1
        total += 2 ** 0.5 if dr and dc else 1.0
    return total


def test_field_unit_and_weighted_searches_share_one_specialisation():
    res = _run()
    assert res["expand"] == 1
    # row 2 is walled from column 1 to 4 and corners are not cut, so every
    # way from (0, 0) to (4, 5) is 7 + sqrt(2) long (by hand: around either end)
    assert res["field"] == pytest.approx(7 + 2 ** 0.5, abs=1e-12)
    blocked = {13, 14, 15, 16}
    for key in ("weighted", "octile", "manhattan"):
        cells = res[key]
        assert cells[0] == 0 and cells[-1] == 29
        assert not blocked & set(cells)
    assert _length(res["octile"]) == pytest.approx(7 + 2 ** 0.5, abs=1e-12)
