"""The warm-start probes name files that hold kernels.

``robomaze.cli._stages.PROBES`` lists, per first-run task, the files whose
cached kernels mean "warm: fork no helper". A file without a numba kernel
never has a cache entry, so a probe naming one (a kernel moved to another
module) would fork a helper on every warm start.
"""

import ast
from pathlib import Path

import pytest

import robomaze
from robomaze.cli._stages import PROBES

PKG = Path(robomaze.__file__).resolve().parent


def _kernels(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            for d in node.decorator_list:
                f = d.func if isinstance(d, ast.Call) else d
                name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
                if name in ("njit", "jit", "inner", "noalloc"):
                    out.append(node.name)
    return out


@pytest.mark.parametrize("task, rel", sorted({(t, f) for t, fs in PROBES.items() for f in fs}))
def test_every_probe_file_holds_a_kernel(task, rel):
    path = PKG / rel
    assert path.is_file(), f"{task}: {rel} does not exist"
    assert _kernels(path), f"{task}: {rel} holds no numba kernel"


def test_the_plan_probe_is_where_a_path_is_measured():
    # make_path's one kernel (cell centres and length) lives with the path metrics
    assert "_centre_points" in _kernels(PKG / "metrics" / "keyposes.py")
    assert _kernels(PKG / "plan" / "path.py") == []
