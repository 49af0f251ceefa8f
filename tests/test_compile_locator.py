"""numba caches robomaze's kernels by source content, not by install path.

A reinstall of the same version (another virtualenv, another CI runner)
must find the kernels an earlier install compiled: two copies of the
package at different paths share one cache folder, the second compiles
nothing, and ``NUMBA_CACHE_DIR`` moves the whole cache.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import robomaze
from robomaze._compile import cache as _jit_cache

PROBE = """
import json, sys
import numpy as np
import robomaze
from robomaze import _grid_kernels as g
occ = np.zeros((5, 7), dtype=np.bool_)
occ[2, 3] = True
gap = g.column_gap(occ)
stats = g.column_gap.stats
print(json.dumps({"package": robomaze.__file__, "cache": g.column_gap._cache.cache_path,
                  "hits": sum(stats.cache_hits.values()),
                  "misses": sum(stats.cache_misses.values()),
                  "gap": np.asarray(gap).tolist()}))
"""


def _install(dest: Path) -> Path:
    src = Path(robomaze.__file__).parent
    shutil.copytree(src, dest / "robomaze", ignore=shutil.ignore_patterns("__pycache__"))
    return dest


def _run(site: Path, cache: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(site), NUMBA_CACHE_DIR=str(cache),
               ROBOMAZE_COMPILE_NOTICE="0")
    env.pop("NUMBA_CACHE_LOCATOR_CLASSES", None)
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, cwd=site, check=True,
                         capture_output=True, text=True, timeout=900)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_second_install_location_reuses_the_first_ones_kernels(tmp_path):
    cache = tmp_path / "numba-cache"
    first = _run(_install(tmp_path / "site-a"), cache)
    second = _run(_install(tmp_path / "site-b"), cache)
    # each run imported its own copy of the package
    assert first["package"].startswith(str(tmp_path / "site-a"))
    assert second["package"].startswith(str(tmp_path / "site-b"))
    # one folder (under NUMBA_CACHE_DIR) for both installs
    assert first["cache"] == second["cache"]
    assert first["cache"].startswith(str(cache / "robomaze"))
    assert first["misses"] == 1 and first["hits"] == 0  # compiled into the empty cache
    assert second["misses"] == 0 and second["hits"] == 1  # loaded: compiled nothing
    assert second["gap"] == first["gap"]
    assert any(name.endswith(".nbi") for name in os.listdir(first["cache"]))


def test_the_folder_changes_with_the_content_not_the_path(tmp_path):
    a = _install(tmp_path / "a") / "robomaze" / "_grid_kernels.py"
    b = _install(tmp_path / "b") / "robomaze" / "_grid_kernels.py"
    here = Path(_jit_cache.PACKAGE_DIR) / "_grid_kernels.py"
    key = os.path.basename(_jit_cache.cache_folder(str(here)))
    assert key.startswith("_grid_kernels-")
    # a copy outside this package is not robomaze's: numba's own locators handle it
    assert _jit_cache.cache_folder(str(a)) is None
    # same content, same key; an edit gives a new folder (no index overwritten)
    h_a = _jit_cache._content_hash(str(a), a.stat().st_mtime, a.stat().st_size)
    h_b = _jit_cache._content_hash(str(b), b.stat().st_mtime, b.stat().st_size)
    assert h_a == h_b and key.endswith(_jit_cache._source_key(str(here)))
    b.write_text(b.read_text() + "\n# edited\n")
    assert _jit_cache._content_hash(str(b), b.stat().st_mtime, b.stat().st_size) != h_a


def test_import_robomaze_does_not_import_numba():
    code = "import sys, robomaze; print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=str(Path(robomaze.__file__).parents[1])),
                         check=True, timeout=300)
    assert out.stdout.strip() == "False"



def test_a_loaded_environment_completes_the_live_one_it_extends():
    """numba reuses a live Environment of the same name when it loads a cached kernel;
    when the live one holds a prefix of the loaded constants (a callee's body, brought
    in by a cached caller) the rest is appended, so the kernel's own wrapper finds the
    dtype it boxes its array with (CI saw "'descr' is NULL" calling
    ``_kernels.new_state`` from Python after ``generate("prim", ...)``)."""
    import numpy as np
    from numba.core import environment as nenv

    _jit_cache._add_locator()  # what importing numba after robomaze runs
    name = "robomaze_test_env_prefix"
    live = nenv.Environment(globals())
    live.env_name = name
    live.consts[:] = [np.dtype("uint64")]
    nenv.Environment._memo[name] = live
    try:
        got = nenv._rebuild_env(__name__, [np.dtype("uint64"), np.dtype("int32")], name)
        assert got is live
        assert got.consts == [np.dtype("uint64"), np.dtype("int32")]
        # constants that do not extend the live ones: left as numba has them
        other = [np.dtype("float64"), np.dtype("float64"), np.dtype("int8")]
        assert nenv._rebuild_env(__name__, other, name).consts == [np.dtype("uint64"),
                                                                    np.dtype("int32")]
    finally:
        nenv.Environment._memo.pop(name, None)


def test_numba_typing_errors_are_plain_text_under_the_default_scheme():
    """With colorama installed numba ran colorama.init() for every message it
    formatted while trying overloads; the default ``no_color`` scheme now formats
    them as they are: no escape codes, same words. A user's scheme is kept."""
    code = ("import robomaze, numba\n"
            "from numba import njit\n"
            "@njit\n"
            "def f(x):\n"
            "    return x.foo\n"
            "try:\n"
            "    f(1)\n"
            "except Exception as e:\n"
            "    print(repr(str(e)))\n")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_COLOR_SCHEME"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=300, env=env).stdout
    assert "foo" in out and "of type int64" in out
    assert "\\x1b" not in out
    try:
        import colorama  # noqa: F401
    except ImportError:
        return  # numba formats plain text without colorama anyway
    env["NUMBA_COLOR_SCHEME"] = "dark_bg"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=300, env=env).stdout
    assert "\\x1b" in out  # the user's colours


def test_the_folder_changes_with_any_file_the_kernels_import(monkeypatch):
    """numba links a callee's machine code into its caller and freezes the constants
    it reads: a changed callee in another module (a new release where only
    generate/_kernels.py changed) must not leave the callers' cache in place."""
    pkg = Path(_jit_cache.PACKAGE_DIR)
    tree = str(pkg / "generate" / "_tree_kernels.py")
    deps = {os.path.relpath(p, pkg) for p in _jit_cache.dependencies(tree)}
    # its direct imports and theirs (_mst_kernels imports _kernels too)
    assert {"generate/_kernels.py", "generate/_mst_kernels.py", "_compile/kernels.py"} <= deps
    assert "cli/plan.py" not in deps and "generate/_tree_kernels.py" not in deps
    before = _jit_cache.cache_folder(tree)
    real = _jit_cache._content_hash

    def edited(target):
        def content_hash(path, mtime, size):
            h = real(path, mtime, size)
            return "0" * len(h) if path == str(pkg / target) else h
        return content_hash

    monkeypatch.setattr(_jit_cache, "_content_hash", edited("generate/_kernels.py"))
    assert _jit_cache.cache_folder(tree) != before
    monkeypatch.setattr(_jit_cache, "_content_hash", edited("cli/plan.py"))
    assert _jit_cache.cache_folder(tree) == before


def test_relative_and_absolute_imports_resolve_to_package_files():
    pkg = Path(_jit_cache.PACKAGE_DIR)
    deps = {os.path.relpath(p, pkg) for p in _jit_cache.dependencies(str(pkg / "plan" / "path.py"))}
    # "from ..geometry import (CONTACT_TOL, ...)": the package's __init__ and what it imports
    assert {"geometry/__init__.py", "geometry/_kernels.py"} <= deps
    for rel in deps:
        assert (pkg / rel).is_file()


def test_the_garbage_collector_is_held_during_a_compile_only():
    code = ("import gc, robomaze, numba\n"
            "from numba.core import event as ev\n"
            "seen = []\n"
            "class L(ev.Listener):\n"
            "    def on_start(self, e):\n"
            "        seen.append(gc.isenabled())\n"
            "    def on_end(self, e):\n"
            "        pass\n"
            "ev.register('numba:compile', L())\n"
            "@numba.njit\n"
            "def inner(x):\n"
            "    return x + 1\n"
            "@numba.njit\n"
            "def outer(x):\n"
            "    return inner(x) * 2\n"
            "assert outer(3) == 8\n"
            "print(seen, gc.isenabled())\n"
            "gc.disable()\n"
            "@numba.njit\n"
            "def third(x):\n"
            "    return x - 1\n"
            "third(1)\n"
            "print(gc.isenabled())\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=300).stdout.split("\n")
    # held through the nested compiles, given back after them
    assert out[0] == "[False, False] True"
    # a collector the program switched off stays off
    assert out[1] == "False"


def test_a_modules_kernels_share_one_content_key_per_execution(monkeypatch, tmp_path):
    # round 14: the content key (a hash of the file and every package file it
    # imports) was computed again for each kernel of a module; now once per
    # execution of the module, and again when the module runs again (as a
    # benchmark reloading a source does), under the cache root of that time
    from numba.core import config

    calls = []
    real = _jit_cache.module_folder_name
    monkeypatch.setattr(_jit_cache, "module_folder_name",
                        lambda path, *a: calls.append(path) or real(path, *a))
    path = os.path.join(_jit_cache.PACKAGE_DIR, "plan", "_kernels.py")
    source = ("import numba\n@numba.njit(cache=True)\ndef one(x):\n    return x + 1\n"
              "@numba.njit(cache=True)\ndef two(x):\n    return x * 2\n")
    folders = []
    for root in (tmp_path / "a", tmp_path / "b"):
        monkeypatch.setattr(config, "CACHE_DIR", str(root))
        scope = {"__name__": "robomaze.plan._kernels_probe"}
        exec(compile(source, path, "exec"), scope)
        assert scope["one"]._cache._cache_path == scope["two"]._cache._cache_path
        assert scope["one"]._cache._cache_path == _jit_cache.cache_folder(path)
        folders.append(scope["one"]._cache._cache_path)
    assert len(calls) == 4  # one per execution, one per cache_folder() above
    assert folders[0].startswith(str(tmp_path / "a")) and folders[1].startswith(str(tmp_path / "b"))
    assert os.path.basename(folders[0]) == os.path.basename(folders[1])
