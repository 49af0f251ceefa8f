"""One-thread numerical pools in robomaze's own processes (robomaze._threads).

``import robomaze`` must import no numpy, so that ``python -m robomaze`` can
size OpenBLAS's pool before numpy loads it; the user's own values, and the
environment of the programs robomaze starts for the user, stay as given.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import robomaze
from robomaze import _threads
from robomaze.maze import Maze
from robomaze.micromouse.host import host_mouse

ROOT = Path(robomaze.__file__).parents[1]
MAZE = ROOT / "robomaze/data/samples/micromouse/16MM2013CX.maze"


def _clean_env() -> dict:
    env = {k: v for k, v in os.environ.items() if k not in _threads.THREAD_VARS}
    env.update(PYTHONPATH=str(ROOT), ROBOMAZE_COMPILE_NOTICE="0")
    return env


def _python(code: str, env: dict) -> str:
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=300, cwd=str(ROOT))
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout.strip().splitlines()[-1]


@pytest.fixture
def no_thread_vars(monkeypatch):
    """os.environ without the variables, restored after (set first: undo deletes them)."""
    for name in _threads.THREAD_VARS:
        monkeypatch.setenv(name, "x")
        monkeypatch.delenv(name)
    monkeypatch.setattr(_threads, "_SET_HERE", set())


def test_import_robomaze_imports_no_numpy_and_names_load_on_use():
    got = _python("import sys, robomaze; a = 'numpy' in sys.modules; "
                  "from robomaze import Maze, widen, limit_cells, RobomazeError; "
                  "print(a, 'numpy' in sys.modules, widen(Maze.empty(2, 3)).shape, "
                  "'Maze' in dir(robomaze))", _clean_env())
    assert got == "False True (5, 7) True"


def test_unknown_attribute_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'nonexistent'"):
        robomaze.nonexistent  # noqa: B018


def test_a_value_the_user_set_is_kept():
    env = _threads.one_thread_pools({"OPENBLAS_NUM_THREADS": "3", "PATH": "/bin"})
    assert env["OPENBLAS_NUM_THREADS"] == "3"
    assert {k: env[k] for k in _threads.THREAD_VARS if k != "OPENBLAS_NUM_THREADS"} == \
        dict.fromkeys(set(_threads.THREAD_VARS) - {"OPENBLAS_NUM_THREADS"}, "1")
    assert env["PATH"] == "/bin"


def test_user_environ_takes_out_only_what_robomaze_added(no_thread_vars, monkeypatch):
    monkeypatch.setenv("MKL_NUM_THREADS", "4")
    _threads.one_thread_pools()
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1"
    user = _threads.user_environ()
    assert user["MKL_NUM_THREADS"] == "4"
    assert not set(_threads.THREAD_VARS) - {"MKL_NUM_THREADS"} & set(user)


def test_the_command_runs_with_one_blas_thread_unless_the_user_says_otherwise():
    # threads of the process after a whole command (numpy and its OpenBLAS loaded)
    code = ("import os; from robomaze.__main__ import main; main(['mouse', 'route', %r]); "
            "print(len(os.listdir('/proc/self/task')), os.environ.get('OPENBLAS_NUM_THREADS'))"
            % str(MAZE))
    control = int(_python("import os, numpy; print(len(os.listdir('/proc/self/task')))",
                          _clean_env()))
    assert _python(code, _clean_env()) == "1 1"
    if control > 1:  # a machine with more than one core: the pool is what made the threads
        assert _python(code, dict(_clean_env(), OPENBLAS_NUM_THREADS=str(control))) == \
            f"{control} {control}"


def test_a_users_mouse_program_sees_the_users_environment(no_thread_vars, tmp_path):
    _threads.one_thread_pools()
    seen = tmp_path / "seen"
    prog = tmp_path / "mouse.py"
    prog.write_text("import os\nopen(%r, 'w').write(repr(os.environ.get('OPENBLAS_NUM_THREADS')))\n"
                    % str(seen))
    run = host_mouse(Maze.empty(4, 4), [sys.executable, str(prog)], command_timeout=5,
                     total_timeout=30)
    assert not run.success  # it never moved
    assert seen.read_text() == "None"
