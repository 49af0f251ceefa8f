"""No package reaches into another package's private names.

A module under ``robomaze/PKG/`` may import ``robomaze.PKG._anything`` and the
project-wide helpers at the top level (``robomaze._validate``,
``robomaze._search``, ...), but never ``robomaze.OTHER._name`` nor a
``_name`` out of ``robomaze.OTHER``. The attributes that used to be read
across packages (``grid._cache``, ``sensor._mount`` ...) must not reappear
outside the package that owns them.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "robomaze"
MODULES = sorted(p for p in ROOT.rglob("*.py") if "data" not in p.relative_to(ROOT).parts[:1])
# attribute -> the package that owns it
OWNED_ATTRS = {"_cache": "grid", "_local": "grid", "_mount": "sense", "_cos": "sense",
               "_sin": "sense", "_finish": "sense", "_angles": "sense"}


def _package(module: Path) -> str:
    parts = module.relative_to(ROOT).parts
    return parts[0] if len(parts) > 1 else module.stem  # top-level module: its own name


def _absolute(module: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    pkg = ["robomaze", *module.relative_to(ROOT).parts[:-1]]
    base = pkg[: len(pkg) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _violations(module: Path, text: str | None = None) -> list[str]:
    here = _package(module)
    tree = ast.parse(module.read_text(encoding="utf-8") if text is None else text)
    bad = []
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, ast.ImportFrom):
            full = _absolute(module, node)
            targets = [f"{full}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif (isinstance(node, ast.Attribute) and node.attr in OWNED_ATTRS
              and OWNED_ATTRS[node.attr] != here
              and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))):
            bad.append(f"line {node.lineno}: .{node.attr} belongs to robomaze.{OWNED_ATTRS[node.attr]}")
        for t in targets:
            parts = t.split(".")
            if parts[0] != "robomaze" or len(parts) < 3:
                continue  # outside robomaze, or a top-level module (shared helpers)
            owner = parts[1]
            private = [p for p in parts[2:] if p.startswith("_") and not p.startswith("__")]
            if private and owner != here:
                bad.append(f"imports {t} (private to robomaze.{owner})")
    return bad


@pytest.mark.parametrize("module", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_private_name_of_another_package(module):
    assert _violations(module) == []


def test_the_check_sees_a_violation():
    text = "from ..sense import _kernels\nfrom ..plan._kernels import astar\nx = grid._cache\n"
    bad = _violations(ROOT / "sim" / "probe.py", text)  # as if it lived in robomaze/sim/
    assert len(bad) == 3, bad
    assert _violations(ROOT / "sim" / "probe.py", "from ._kernels import step\n") == []
