"""Kernels compiled without a Python entry point are never called from Python.

A kernel decorated with ``njit(**robomaze._compile.kernels.INNER)`` has no CPython
wrapper (issue 22: each wrapper is compiled on a cold start for nothing
when only other kernels call it); a call from Python would jump to a null
address and kill the process. This test reads every Python file of the
project, its tests and its benchmarks and fails if code outside a kernel
names such a kernel: a bare name that resolves to one (through the module's
globals or a ``from ... import``), an attribute of that name, or a call of
that name in a docstring or string (doctests).
"""

from __future__ import annotations

import ast
import importlib
import os
import re

import pytest
from numba.core.registry import CPUDispatcher

import robomaze
from robomaze._compile.kernels import INNER

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(robomaze.__file__)))

#: modules that define INNER kernels (import them all so none is missed)
KERNEL_MODULES = [
    "robomaze._grid_kernels", "robomaze._search", "robomaze._search._bins",
    "robomaze._search._dijkstra", "robomaze._search._engine", "robomaze._search._heap",
    "robomaze._search._jps", "robomaze._search._octile", "robomaze._search._tree",
    "robomaze.geometry._kernels", "robomaze.plan._kernels", "robomaze.plan.classic._kernels",
    "robomaze.metrics.keyposes",
    "robomaze.sense._kernels", "robomaze.geometry._collide_kernels", "robomaze.envs._obs_kernels",
    "robomaze.envs._vector_kernels", "robomaze.sim.agents._kernels",
]


def _inner_kernels() -> dict[int, str]:
    """id(dispatcher) -> qualified name of every INNER kernel."""
    out = {}
    for name in KERNEL_MODULES:
        mod = importlib.import_module(name)
        for attr, obj in vars(mod).items():
            if isinstance(obj, CPUDispatcher) and obj.targetoptions.get("no_cpython_wrapper"):
                out[id(obj)] = f"{obj.py_func.__module__}.{obj.py_func.__qualname__}"
    return out


def _is_kernel(fn: ast.AST) -> bool:
    return any(re.match(r"(numba\.)?n?jit\b|inner\b|noalloc\b", ast.unparse(d)) for d in fn.decorator_list)


def _module_name(path: str) -> str | None:
    rel = os.path.relpath(path, ROOT)
    if not rel.startswith("robomaze" + os.sep):
        return None
    mod = rel[:-3].replace(os.sep, ".")
    return mod[: -len(".__init__")] if mod.endswith(".__init__") else mod


def _python_files():
    for top in ("robomaze", "tests", "benchmarks", "examples"):
        for folder, _, files in os.walk(os.path.join(ROOT, top)):
            for f in files:
                if f.endswith(".py"):
                    yield os.path.join(folder, f)


def _resolve(mod_name, from_imports, name):
    """The object a bare name outside a kernel refers to, if it is a module-level one."""
    if mod_name is not None:
        try:
            mod = importlib.import_module(mod_name)
        except Exception:
            mod = None
        if mod is not None and name in vars(mod):
            return vars(mod)[name]
    if name in from_imports:
        src, attr = from_imports[name]
        try:
            return getattr(importlib.import_module(src), attr)
        except Exception:
            return None
    return None


def test_the_options_are_what_the_docs_say():
    assert INNER == {"cache": True, "no_cfunc_wrapper": True, "no_cpython_wrapper": True}


def test_inner_kernels_exist():
    # the scan below must have something to look for
    names = set(_inner_kernels().values())
    assert "robomaze._search._bins._mask" in names
    assert "robomaze.geometry._kernels._shape_box" in names
    assert len(names) >= 15


def test_every_inner_kernel_refuses_a_python_call():
    """Declared with robomaze._compile.kernels.inner, not a bare njit(**INNER): a call from
    Python raises instead of jumping to a null entry point."""
    for mod in KERNEL_MODULES:
        for obj in vars(importlib.import_module(mod)).values():
            if isinstance(obj, CPUDispatcher) and obj.targetoptions.get("no_cpython_wrapper"):
                with pytest.raises(TypeError, match="other kernels only"):
                    obj(*[0] * obj.py_func.__code__.co_argcount)


def test_a_compiled_inner_kernel_called_from_python_raises_in_a_live_process(tmp_path):
    # compiled (through its callers: an empty cache, or cached callers load
    # with their callees linked in and never compile them) first, then called:
    # the path that crashed
    code = ("from numba.core.registry import CPUDispatcher\n"
            "from robomaze import widen, Maze\n"
            "from robomaze.geometry import Footprint, _kernels as k\n"
            "from robomaze.plan import plan\n"
            "g = widen(Maze.empty(2, 2), corridor=5, wall=1, resolution=0.1)\n"
            "s, t = g.start_goal()\n"
            "plan(g, s, t, method='collision_free', footprint=Footprint.from_spec('rect:0.2x0.1'))"
            ".collision_free\n"
            "done = [d for d in vars(k).values() if isinstance(d, CPUDispatcher)\n"
            "        and d.targetoptions.get('no_cpython_wrapper') and d.overloads]\n"
            "print('compiled', len(done))\n"
            "for d in done:\n"
            "    try:\n"
            "        d(*[0.0] * d.py_func.__code__.co_argcount)\n"
            "    except TypeError as e:\n"
            "        print('refused:', e)\n")
    import subprocess
    import sys
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), ROBOMAZE_COMPILE_NOTICE="0")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=600, cwd=ROOT, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    n = int(re.search(r"compiled (\d+)", out.stdout).group(1))
    assert n >= 1
    assert out.stdout.count("is compiled for other kernels only") == n


def test_no_python_code_names_an_inner_kernel():
    inner = _inner_kernels()
    short = {q.rsplit(".", 1)[1] for q in inner.values()}
    bad = []
    for path in _python_files():
        text = open(path, encoding="utf-8").read()
        tree = ast.parse(text)
        mod_name = _module_name(path)
        pkg = mod_name if path.endswith("__init__.py") else (mod_name or "").rpartition(".")[0]
        from_imports = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                src = node.module or ""
                if node.level:
                    base = pkg.split(".") if pkg else []
                    base = base[: len(base) - (node.level - 1)]
                    src = ".".join(base + ([src] if src else []))
                for a in node.names:
                    from_imports[a.asname or a.name] = (src, a.name)
        in_kernel = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and _is_kernel(node):
                in_kernel.update(id(n) for n in ast.walk(node))
        rel = os.path.relpath(path, ROOT)   # once per file, not per node (half the test's time)
        for node in ast.walk(tree):
            if id(node) in in_kernel:
                continue
            where = f"{rel}:{getattr(node, 'lineno', '?')}"
            if isinstance(node, ast.Name) and node.id in short:
                if id(_resolve(mod_name, from_imports, node.id)) in inner:
                    bad.append(f"{where}: {node.id}")
            elif isinstance(node, ast.Attribute) and node.attr in short:
                bad.append(f"{where}: .{node.attr}")
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                for m in re.finditer(r"\b(\w+)\(", node.value):
                    if m.group(1) in short:
                        bad.append(f"{where}: {m.group(1)}( in a string")
    assert not bad, "Python code names kernels compiled without a Python entry point " \
                    "(give them numba's defaults, @njit(cache=True)):\n" + "\n".join(sorted(set(bad)))


#: calls numba compiles as overloads of their own, once per caller *flags*: one in
#: an INNER kernel compiles again beside the same call in a plain kernel
_OVERLOADED = {"min", "max", "int", "round", "sum", "sorted"}
_NP_SCALARS = {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
               "float32", "float64", "bool_", "intp", "uintp"}


def _overload_calls(fn: ast.FunctionDef, inline: dict) -> list[str]:
    found = []
    for node in ast.walk(fn):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Name) and f.id in _OVERLOADED:
            found.append(f"{f.id}()")
        elif isinstance(f, ast.Name) and f.id in inline and inline[f.id] is not fn:
            found += [f"{f.id}: {c}" for c in _overload_calls(inline[f.id], inline)]
        elif (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name)
              and f.value.id == "np" and f.attr not in _NP_SCALARS):
            found.append(f"np.{f.attr}()")
    return found


def test_inner_kernels_call_no_numba_overloads():
    # numba keys an overload's compiled implementation (np.empty, min, int ...)
    # by the calling kernel's flags, so INNER kernels would compile their own
    # copies (benchmarks/README.md, "Compile cost, round three")
    inner = set(_inner_kernels().values())
    bad = []
    for path in _python_files():
        mod = _module_name(path)
        if mod is None:
            continue
        tree = ast.parse(open(path, encoding="utf-8").read())
        kernels = [n for n in tree.body if isinstance(n, ast.FunctionDef) and _is_kernel(n)]
        inline = {n.name: n for n in kernels
                  if any("inline" in ast.unparse(d) for d in n.decorator_list)}
        for fn in kernels:
            if f"{mod}.{fn.name}" in inner:
                bad += [f"{mod}.{fn.name}: {c}" for c in _overload_calls(fn, inline)]
    assert not bad, "\n".join(bad)


def test_an_inner_kernel_runs_through_its_caller():
    # heading_path -> bin_search -> _expand_cells -> _mask (INNER)
    import numpy as np

    from robomaze._search import heading_path

    # one row of three cells, two heading bins: bin 0 free everywhere, bin 1
    # blocked in the middle cell; from bin 1 at cell 0 to bin 1 at cell 2
    free_b = np.ones((2, 1, 3), bool)
    free_b[1, 0, 1] = False
    states, _ = heading_path(free_b, [1 * 3 + 0], 2, 1, conn8=False, rot_cost=0.25)
    # by hand: the only way is to turn to bin 0 on the spot, cross in bin 0
    # and turn back at the goal (states are bin * 3 + cell)
    assert states.tolist() == [3, 0, 1, 2, 5]