"""Kernels compiled by the package build, shipped inside it and seeded into the user's cache.

The build's compile step (robomaze/_compile/shipped.py) runs here on one
small kernel (``_grid_kernels.column_gap``) in a copy of the package, as
the wheel build runs it on every kernel (a full build takes minutes:
benchmarks/bench_install.py measures it). A fresh process with an empty
user cache must then load that kernel (numba's ``cache_hits``), never
compile it, and compute what a from-scratch compile computes; an edited
source, ``ROBOMAZE_SHIPPED_KERNELS=0``, another runtime or a stale index
must not be served.
"""

import importlib.util
import json
import os
import pickle
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import robomaze
from robomaze._compile import cache, seeding, shipped

PROBE = """
import json, sys
import numpy as np
import robomaze
from robomaze import _compile
from robomaze import _grid_kernels as g
occ = np.zeros((6, 9), dtype=np.bool_)
occ[2, 3] = occ[4, 1:5] = occ[0, 7] = True
gap = g.column_gap(occ)
stats = g.column_gap.stats
print(json.dumps({"package": robomaze.__file__, "cache": g.column_gap._cache.cache_path,
                  "hits": sum(stats.cache_hits.values()),
                  "misses": sum(stats.cache_misses.values()),
                  "compiled": _compile.compiled(),
                  "gap": np.asarray(gap).tolist()}))
"""

#: The build's compile step on one kernel (what DEFAULT_COMMAND does for all of them).
SMALL = ("-c", "import numpy as np; from robomaze import _grid_kernels as g; "
               "g.column_gap(np.zeros((6, 9), dtype=np.bool_))")


def _copy_package(site: Path) -> Path:
    """A copy of the package, as an install makes one (new paths, new mtimes)."""
    src = Path(robomaze.__file__).parent
    shutil.copytree(src, site / "robomaze",
                    ignore=shutil.ignore_patterns("__pycache__", seeding.FOLDER))
    return site / "robomaze"


def _run(site: Path, cache_dir: Path, **env) -> dict:
    full = dict(os.environ, PYTHONPATH=str(site), NUMBA_CACHE_DIR=str(cache_dir),
                ROBOMAZE_COMPILE_NOTICE="0", **env)
    full.pop("NUMBA_CACHE_LOCATOR_CLASSES", None)
    if "ROBOMAZE_SHIPPED_KERNELS" not in env:
        full.pop("ROBOMAZE_SHIPPED_KERNELS", None)
    out = subprocess.run([sys.executable, "-c", PROBE], env=full, cwd=site, check=True,
                         capture_output=True, text=True, timeout=900)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _reference_gap(occ_rows: int = 6, occ_cols: int = 9) -> list:
    """column_gap by brute force: each free cell's count of free cells below it in its
    column, down to the next occupied cell or the edge (the kernel's documented meaning
    is checked against this in tests/test_grid_kernels*.py; here it only pins the
    probe's answer to something not computed by numba)."""
    import numpy as np

    from robomaze import _grid_kernels as g

    occ = np.zeros((occ_rows, occ_cols), dtype=np.bool_)
    occ[2, 3] = occ[4, 1:5] = occ[0, 7] = True
    return np.asarray(g.column_gap.py_func(occ)).tolist()


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A package copy whose build step compiled the small kernel (once for the module)."""
    site = tmp_path_factory.mktemp("site")
    pkg = _copy_package(site)
    assert shipped.build(str(pkg), SMALL)
    return site, pkg


def test_the_build_step_ships_the_kernel_folder_with_its_manifest(built):
    site, pkg = built
    versions = os.listdir(pkg / seeding.FOLDER)
    assert versions == [cache.version_name()]
    vdir = pkg / seeding.FOLDER / versions[0]
    manifest = json.loads((vdir / seeding.MANIFEST).read_text())
    assert manifest["runtime"] == seeding.runtime()
    folders = [n for n in os.listdir(vdir) if n != seeding.MANIFEST]
    # the key of the copy's own file (the same content as this checkout's)
    expected = cache.module_folder_name(str(pkg / "_grid_kernels.py"), str(pkg))
    assert expected in folders
    assert expected == cache.module_folder_name(os.path.join(cache.PACKAGE_DIR,
                                                             "_grid_kernels.py"))
    names = os.listdir(vdir / expected)
    assert any(".column_gap-" in n and n.endswith(".nbi") for n in names)
    assert not any(".tmp." in n or n == cache.LOCK_NAME for n in names)


def test_a_shipped_kernel_is_loaded_not_compiled_in_a_fresh_process(built, tmp_path):
    site, pkg = built
    got = _run(site, tmp_path / "user-cache")
    assert got["package"].startswith(str(pkg))
    assert got["misses"] == 0 and got["hits"] == 1  # loaded from the seeded cache
    assert got["compiled"] == 0                       # no numba:compile event at all
    scratch = _run(site, tmp_path / "scratch-cache", ROBOMAZE_SHIPPED_KERNELS="0")
    assert scratch["misses"] == 1 and scratch["hits"] == 0 and scratch["compiled"] >= 1
    assert got["gap"] == scratch["gap"] == _reference_gap()
    # seeded into the user's own folder, which numba then reads
    assert got["cache"].startswith(str(tmp_path / "user-cache" / "robomaze"))
    assert seeding.MARKER in os.listdir(got["cache"])
    # and a second run loads as from any cache
    again = _run(site, tmp_path / "user-cache")
    assert again["hits"] == 1 and again["misses"] == 0


def test_an_edited_source_is_not_served_from_the_shipped_folder(built, tmp_path):
    site, pkg = built
    edited = tmp_path / "edited"
    shutil.copytree(site, edited)
    path = edited / "robomaze" / "_grid_kernels.py"
    path.write_text(path.read_text() + "\n# edited after the build\n")
    got = _run(edited, tmp_path / "user-cache")
    assert got["misses"] == 1 and got["hits"] == 0 and got["compiled"] >= 1
    assert seeding.MARKER not in os.listdir(got["cache"])
    shipped_names = os.listdir(edited / "robomaze" / seeding.FOLDER / cache.version_name())
    assert os.path.basename(got["cache"]) not in shipped_names
    assert got["gap"] == _reference_gap()


def test_a_read_only_shipped_folder_is_copied_from_and_left_alone(built, tmp_path):
    site, _ = built
    ro = tmp_path / "ro"
    shutil.copytree(site, ro)
    kernels = ro / "robomaze" / seeding.FOLDER
    before = sorted((p.relative_to(kernels), p.read_bytes()) for p in kernels.rglob("*")
                    if p.is_file())
    for p in [kernels, *kernels.rglob("*")]:
        p.chmod(p.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    try:
        got = _run(ro, tmp_path / "user-cache")
        after = sorted((p.relative_to(kernels), p.read_bytes()) for p in kernels.rglob("*")
                       if p.is_file())
    finally:
        for p in [kernels, *kernels.rglob("*")]:
            p.chmod(p.stat().st_mode | stat.S_IWUSR)
    assert got["hits"] == 1 and got["misses"] == 0
    assert after == before  # nothing written into the package
    # the user's copies are the user's: writable, so numba can add entries
    for name in os.listdir(got["cache"]):
        assert os.access(os.path.join(got["cache"], name), os.W_OK)


def test_the_warm_up_counts_shipped_kernels_as_cached(built, tmp_path):
    """``all_cached`` (whether a warm-up forks helpers to compile) seeds the probed
    folders first: with shipped kernels and an empty user cache nobody is forked."""
    site, _ = built
    code = ("from robomaze._compile.parallel import all_cached; "
            "print(all_cached(['_grid_kernels.py']))")
    out = {}
    for mode in ("1", "0"):
        env = dict(os.environ, PYTHONPATH=str(site), NUMBA_CACHE_DIR=str(tmp_path / mode),
                   ROBOMAZE_SHIPPED_KERNELS=mode)
        out[mode] = subprocess.run([sys.executable, "-c", code], env=env, cwd=site, check=True,
                                   capture_output=True, text=True,
                                   timeout=300).stdout.strip()
    assert out == {"1": "True", "0": "False"}


def test_two_processes_seeding_at_once_both_load(built, tmp_path):
    site, _ = built
    env = dict(os.environ, PYTHONPATH=str(site), NUMBA_CACHE_DIR=str(tmp_path / "shared"),
               ROBOMAZE_COMPILE_NOTICE="0")
    env.pop("ROBOMAZE_SHIPPED_KERNELS", None)
    procs = [subprocess.Popen([sys.executable, "-c", PROBE], env=env, cwd=site,
                              stdout=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [json.loads(p.communicate(timeout=900)[0].strip().splitlines()[-1]) for p in procs]
    assert all(p.returncode == 0 for p in procs)
    assert [o["hits"] for o in outs] == [1, 1] and [o["compiled"] for o in outs] == [0, 0]
    folder = outs[0]["cache"]
    assert not any(".tmp." in n for n in os.listdir(folder))


def test_a_failing_compile_step_warns_once_and_ships_nothing(tmp_path, capfd):
    pkg = _copy_package(tmp_path / "site")
    assert not shipped.build(str(pkg), ("-c", "import robomaze.no_such_module"))
    err = capfd.readouterr().err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1
    assert "WARNING" in lines[0] and "compile on first use" in lines[0]
    assert "no_such_module" in lines[0]
    assert not (pkg / seeding.FOLDER).exists()
    # the package itself still works
    got = _run(tmp_path / "site", tmp_path / "cache")
    assert got["misses"] == 1 and got["gap"] == _reference_gap()


def _setup_module():
    spec = importlib.util.spec_from_file_location(
        "robomaze_setup", Path(cache.PACKAGE_DIR).parent / "setup.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # defines the hook; setup() runs only as __main__
    return module


def test_the_build_hook_goes_on_when_the_step_cannot_even_start(tmp_path, capfd, monkeypatch):
    """The hook's own failure (the package does not import in the build
    environment): one warning line, no exception, no kernels. The path is
    relative, as setuptools' ``build_lib`` is."""
    broken = tmp_path / "site" / "robomaze"
    broken.mkdir(parents=True)
    (broken / "__init__.py").write_text("raise ImportError('numba is not installed')\n")
    monkeypatch.chdir(tmp_path)
    assert _setup_module().compile_kernels(os.path.join("site", "robomaze")) is False
    err = capfd.readouterr().err
    warnings = [ln for ln in err.splitlines() if "WARNING" in ln]
    assert len(warnings) == 1 and "compile on first use" in warnings[0]
    assert not (broken / seeding.FOLDER).exists()


def test_editable_installs_skip_the_compile_unless_asked(monkeypatch):
    hook = _setup_module()
    monkeypatch.delenv(shipped.BUILD_ENV, raising=False)
    assert hook._wanted(False) and not hook._wanted(True)
    monkeypatch.setenv(shipped.BUILD_ENV, "1")
    assert hook._wanted(True) and shipped.build_wanted(True)
    monkeypatch.setenv(shipped.BUILD_ENV, "0")
    assert not hook._wanted(False) and not shipped.build_wanted(False)


# ------------------------------------------------------------------ seeding rules, in process
def _fake_shipped(pkg: Path, name: str, made: dict | None) -> Path:
    vdir = pkg / seeding.FOLDER / cache.version_name()
    src = vdir / name
    src.mkdir(parents=True)
    (src / "f-3.py311.nbi").write_bytes(b"shipped index")
    (src / "f-3.py311.1.nbc").write_bytes(b"shipped data")
    if made is not None:
        (vdir / seeding.MANIFEST).write_text(json.dumps({"runtime": made}))
    return src


def _index(path: Path, stamp: str, version: str | None = None) -> None:
    import numba

    with open(path, "wb") as f:
        pickle.dump(version or numba.__version__, f, protocol=-1)
        f.write(pickle.dumps((stamp, {})))


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    monkeypatch.setattr(seeding, "_SEEDED", set())
    seeding.compatible.cache_clear()
    monkeypatch.delenv(seeding.SHIPPED_ENV, raising=False)
    yield tmp_path
    seeding.compatible.cache_clear()


def _user(tmp_path: Path, name: str) -> Path:
    folder = tmp_path / "user" / cache.version_name() / name
    folder.mkdir(parents=True)
    return folder


def test_seed_copies_only_for_a_matching_runtime(fresh):
    name = "mod-0123456789abcdef0123"
    other = dict(seeding.runtime(), numpy="0.0.1")
    _fake_shipped(fresh / "a", name, other)
    user = _user(fresh, name)
    assert seeding.seed(str(user), str(fresh / "a")) == 0
    assert os.listdir(user) == []
    _fake_shipped(fresh / "b", name, None)  # no manifest: an unfinished build
    seeding._SEEDED.clear()
    assert seeding.seed(str(user), str(fresh / "b")) == 0
    _fake_shipped(fresh / "c", name, seeding.runtime())
    seeding._SEEDED.clear()
    assert seeding.seed(str(user), str(fresh / "c")) == 1
    assert (user / "f-3.py311.1.nbc").read_bytes() == b"shipped data"
    assert (user / "f-3.py311.nbi").read_bytes() == b"shipped index"


def test_seed_keeps_a_valid_user_index_and_replaces_a_stale_one(fresh):
    name = "mod-0123456789abcdef0123"
    _fake_shipped(fresh / "pkg", name, seeding.runtime())
    valid = _user(fresh, name)
    _index(valid / "f-3.py311.nbi", cache.content_stamp(str(valid)))
    mine = (valid / "f-3.py311.nbi").read_bytes()
    assert seeding.seed(str(valid), str(fresh / "pkg")) == 0
    assert (valid / "f-3.py311.nbi").read_bytes() == mine
    assert not (valid / "f-3.py311.1.nbc").exists()

    stale = fresh / "stale-root" / cache.version_name() / name
    stale.mkdir(parents=True)
    _index(stale / "f-3.py311.nbi", "an mtime stamp of another install")
    assert seeding.seed(str(stale), str(fresh / "pkg")) == 1
    assert (stale / "f-3.py311.nbi").read_bytes() == b"shipped index"


def test_seed_is_off_with_the_variable_and_once_per_folder(fresh, monkeypatch):
    name = "mod-0123456789abcdef0123"
    _fake_shipped(fresh / "pkg", name, seeding.runtime())
    user = _user(fresh, name)
    monkeypatch.setenv(seeding.SHIPPED_ENV, "0")
    assert seeding.seed(str(user), str(fresh / "pkg")) == 0 and os.listdir(user) == []
    monkeypatch.delenv(seeding.SHIPPED_ENV)
    seeding._SEEDED.clear()
    assert seeding.seed(str(user), str(fresh / "pkg")) == 1
    (user / "f-3.py311.nbi").unlink()
    seeding._SEEDED.clear()  # a later process: the marker says it was seeded
    assert seeding.seed(str(user), str(fresh / "pkg")) == 0
    assert not (user / "f-3.py311.nbi").exists()


def test_the_stamp_is_the_content_key_not_the_files_mtime(tmp_path):
    """Two copies of a kernel file with other mtimes have one stamp, an edit another."""
    a = _copy_package(tmp_path / "a")
    b = _copy_package(tmp_path / "b")
    os.utime(b / "_grid_kernels.py", (1_000_000, 1_000_000))
    name_a = cache.module_folder_name(str(a / "_grid_kernels.py"), str(a))
    name_b = cache.module_folder_name(str(b / "_grid_kernels.py"), str(b))
    assert cache.content_stamp("/x/" + name_a) == cache.content_stamp("/y/" + name_b)
    (b / "_grid_kernels.py").write_text((b / "_grid_kernels.py").read_text() + "#\n")
    cache._content_hash.cache_clear()
    name_c = cache.module_folder_name(str(b / "_grid_kernels.py"), str(b))
    assert cache.content_stamp(name_c) != cache.content_stamp(name_a)


def test_the_first_run_list_covers_the_benchmarked_commands():
    """Every command benchmarks/bench_compile.py times cold is among the build's."""
    sys.path.insert(0, str(Path(cache.PACKAGE_DIR).parent / "benchmarks"))
    try:
        import bench_compile
    finally:
        sys.path.pop(0)
    from robomaze.cli import _first_runs

    ours = set(_first_runs.commands())
    missing = [spec for _, spec in bench_compile.COMMANDS
               if spec not in ours and not spec.startswith("py:")]
    assert missing == []
