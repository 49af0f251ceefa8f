"""docs/extending.md, run as written: its modules are written to a package
``my_plugins``, its check block runs against them, and its entry-point
groups are the registries'."""

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from robomaze import registry

REPO = Path(__file__).resolve().parents[1]
PAGE = REPO / "docs" / "extending.md"


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", PAGE.read_text(), flags=re.S)


def test_every_python_block_is_a_module_or_the_check():
    blocks = _blocks("python")
    heads = [b.splitlines()[0] for b in blocks]
    assert heads == ["# my_plugins/bfs.py", "# my_plugins/bump.py", "# my_plugins/csvgrid.py",
                     "# check"]


@pytest.fixture
def cleanup():
    yield
    for reg, name in ((registry.PLANNERS, "bfs"), (registry.AGENTS, "bump_and_go"),
                      (registry.SENSORS, "bumper"), (registry.FORMATS, "csv_grid")):
        if name in reg:
            reg.unregister(name)
    for mod in [m for m in sys.modules if m == "my_plugins" or m.startswith("my_plugins.")]:
        del sys.modules[mod]


def test_the_page_runs(tmp_path, cleanup):
    pkg = tmp_path / "my_plugins"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    check = None
    for block in _blocks("python"):
        head = block.splitlines()[0]
        if head == "# check":
            check = block
        else:
            (tmp_path / head[2:]).write_text(block)
    # a fresh interpreter: the page's modules registered as a user's would be
    out = subprocess.run([sys.executable, "-c", check], cwd=tmp_path, capture_output=True,
                         text=True, timeout=600,
                         env=dict(os.environ, PYTHONPATH=f"{tmp_path}{os.pathsep}{REPO}",
                                  MPLBACKEND="Agg"))
    assert out.returncode == 0, out.stderr[-3000:]


def test_entry_point_groups_are_the_registries():
    (toml,) = _blocks("toml")
    groups = tomllib.loads(toml)["project"]["entry-points"]
    have = {reg.group for reg in registry.REGISTRIES.values()}
    assert set(groups) <= have
    text = PAGE.read_text()
    for group in have - set(groups):
        assert f"`{group}`" in text   # the page names the other groups
    for group, entries in groups.items():
        for name, target in entries.items():
            assert re.fullmatch(r"my_plugins\.\w+:[A-Z_]+", target), target
