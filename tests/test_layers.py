"""The architecture's contracts (``[tool.importlinter]`` in pyproject.toml) hold, and bite.

``lint-imports`` runs in ``.ci/run``; here it runs on the package as it is
(every contract kept) and on copies with one forbidden import added, which
must each break the contract that forbids it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("importlinter")

REPO = Path(__file__).resolve().parents[1]


def _lint(root: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(root))
    return subprocess.run([sys.executable, "-c",
                           "import sys; from importlinter.cli import lint_imports_command; "
                           "sys.exit(lint_imports_command())",
                           "--config", str(REPO / "pyproject.toml"), "--no-cache"],
                          cwd=root, env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def copy(tmp_path_factory):
    root = tmp_path_factory.mktemp("layers")
    shutil.copytree(REPO / "robomaze", root / "robomaze",
                    ignore=shutil.ignore_patterns("__pycache__", "data", "static"))
    return root


def test_the_package_keeps_every_contract():
    res = _lint(REPO)
    assert res.returncode == 0, res.stdout[-3000:]
    assert "0 broken" in res.stdout


@pytest.mark.parametrize("module, line, contract", [
    ("plan/search.py", "from ..sim import env as _env", "planners never reach up into the simulator"),
    ("sim/robot.py", "from ..viz import render as _render", "the simulator neither generates mazes nor draws"),
    ("grid.py", "from .cli import plan as _cli_plan", "nothing imports the command line"),
    ("maze.py", "from . import grid as _grid", "layers, from the command line down to the maze model"),
    # metrics measures below the planners it measures (Path asks it): never the other way
    ("metrics/path.py", "from ..plan import search as _search",
     "layers, from the command line down to the maze model"),
    ("sim/env.py", "from . import replay as _replay", "no import cycles"),
])
def test_a_forbidden_import_breaks_its_contract(copy, module, line, contract):
    path = copy / "robomaze" / module
    original = path.read_text()
    try:
        path.write_text(original + f"\n{line}  # added by tests/test_layers.py\n")
        res = _lint(copy)
    finally:
        path.write_text(original)
    assert res.returncode != 0
    broken = res.stdout[res.stdout.find("Broken contracts"):]
    assert contract in broken, res.stdout[-3000:]
