"""Hostile mice: escaped children, signals to the host, crashes after the
goal, floods of stderr. (The conftest checks after every test that no
process of the test's tree is left alive.)"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from robomaze.maze import Maze
from robomaze.micromouse.host import host_mouse

ROOT = Path(__file__).resolve().parents[2]
MICE = Path(__file__).resolve().parent / "mice"
MAZE16 = ROOT / "tests" / "data" / "micromouse" / "16MM2019CX.maze"


def _alive(pid):
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            stat = fh.read()
    except OSError:
        return False
    return stat[stat.rfind(b")") + 2:].split()[0] != b"Z"


def _wait_dead(pids, timeout=5.0):
    deadline = time.monotonic() + timeout
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [p for p in pids if _alive(p)]


def _wait_file(path, timeout=20.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and path.read_text().endswith("\n"):
            return [int(p) for p in path.read_text().split()]
        time.sleep(0.05)
    pytest.fail(f"{path} never written")


@pytest.mark.parametrize("exit_code", [None, "0"])
def test_setsid_children_do_not_survive_the_run(tmp_path, exit_code):
    pidfile = tmp_path / "pids"
    env = dict(os.environ, MOUSE_PIDFILE=str(pidfile))
    if exit_code is not None:
        env["MOUSE_EXIT"] = exit_code          # the mouse itself leaves at once
    run = host_mouse(Maze.empty(4, 4), [sys.executable, str(MICE / "setsid_mouse.py")],
                     env=env, command_timeout=1, total_timeout=20)
    assert not run.success
    pids = _wait_file(pidfile)
    assert len(pids) == 3
    assert _wait_dead(pids) == [], "a process of the mouse outlived the run"


def _as_from_a_terminal() -> None:
    # a host started under nohup or as a background job inherits SIGHUP or
    # SIGINT ignored, and then rightly keeps ignoring them (its old handler
    # decides): these tests model a host started from a terminal
    for sig in (signal.SIGHUP, signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_DFL)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_signal_to_the_host_ends_the_mouse_and_its_descendants(tmp_path, sig):
    pidfile = tmp_path / "pids"
    env = dict(os.environ, MOUSE_PIDFILE=str(pidfile), PYTHONPATH=str(ROOT))
    host = subprocess.Popen(
        [sys.executable, "-m", "robomaze", "mouse", "run", str(MAZE16),
         "--command-timeout", "60", "--total-timeout", "60", "--",
         sys.executable, str(MICE / "setsid_mouse.py")],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        preexec_fn=_as_from_a_terminal)
    try:
        pids = _wait_file(pidfile)
        time.sleep(0.3)                        # the mouse is now waiting in sleep()
        host.send_signal(sig)
        host.communicate(timeout=20)
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()
    assert host.returncode == -sig             # the host stops as the signal asks
    assert _wait_dead(pids) == [], "a process of the mouse outlived the host"


def _goal_then(tmp_path, end):
    # 4 x 4 open maze, centre (1..2, 1..2): one cell north and one east is the goal.
    script = "moveForward;turnRight;moveForward"
    env = dict(os.environ, MOUSE_SCRIPT=script, MOUSE_LOG=str(tmp_path / "log.json"),
               MOUSE_EXIT=end)
    return host_mouse(Maze.empty(4, 4), [sys.executable, str(MICE / "script_mouse.py")],
                      env=env, stop_after="exit", command_timeout=5, total_timeout=20)


def test_clean_exit_after_the_goal_is_a_success(tmp_path):
    run = _goal_then(tmp_path, "0")
    assert run.reached_goal and run.success and run.extra["exit_code"] == 0


@pytest.mark.parametrize("end, text", [("3", "exit status 3"), ("segv", "killed by SIGSEGV")])
def test_crash_after_the_goal_is_a_failed_run(tmp_path, end, text):
    run = _goal_then(tmp_path, end)
    assert run.reached_goal and not run.success
    assert run.reason == f"mouse program crashed ({text}) after reaching the goal"


def test_stderr_is_capped_with_a_marker(tmp_path):
    env = dict(os.environ, MOUSE_SCRIPT="mazeWidth", MOUSE_LOG=str(tmp_path / "l.json"),
               MOUSE_STDERR=str(3_000_000))
    run = host_mouse(Maze.empty(4, 4), [sys.executable, str(MICE / "script_mouse.py")],
                     env=env, stop_after="exit", stderr_limit=4000)
    err = run.extra["stderr"]
    assert err.startswith("<xxx") and err.endswith("xxx>")
    assert "[... 2996000 bytes of stderr dropped ...]" in err
    assert len(err) < 4100


def test_the_host_is_a_subreaper_only_while_the_mouse_runs():
    # In a fresh process (the conftest makes this test process a subreaper).
    code = (
        "import ctypes, sys\n"
        "from robomaze.maze import Maze\n"
        "from robomaze.micromouse.host import host_mouse\n"
        "libc = ctypes.CDLL(None)\n"
        "flag = ctypes.c_int(-1)\n"
        "run = host_mouse(Maze.empty(2, 2), [sys.executable, '-c', 'print(\"mazeWidth\")'])\n"
        "libc.prctl(37, ctypes.byref(flag), 0, 0, 0)\n"
        "print(run.extra['commands'], flag.value)\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["1", "0"]
