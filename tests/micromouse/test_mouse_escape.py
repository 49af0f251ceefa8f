"""No process a mouse program starts survives the run (issue 20).

Every escape is run through the real CLI in a child process; its sleepers
carry a duration unique to the test and are counted in ``/proc`` while the
run is on (they must all exist) and after it ended or the host was signalled
(none may be left, zombies aside).
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from robomaze._proctree import set_subreaper

ROOT = Path(__file__).resolve().parents[2]
MOUSE = Path(__file__).resolve().parent / "mice" / "escape_mouse.py"
MAZE16 = ROOT / "tests" / "data" / "micromouse" / "16MM2019CX.maze"
COUNT = {"daemon": 1, "env-setsid": 40, "orphan": 1}


def _sleepers(arg: str) -> list[int]:
    """Live (non-zombie) ``sleep ARG`` processes anywhere on the machine."""
    want = b"\0" + arg.encode() + b"\0"
    out = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as fh:
                cmd = fh.read()
            with open(f"/proc/{name}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue
        if cmd.split(b"\0")[0].endswith(b"sleep") and cmd.endswith(want) \
                and stat[stat.rfind(b")") + 2:].split()[0] != b"Z":
            out.append(int(name))
    return out


def _wait_count(arg, n, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = _sleepers(arg)
        if len(found) >= n:
            return found
        time.sleep(0.05)
    return _sleepers(arg)


def _wait_none(arg, timeout=10.0):
    deadline = time.monotonic() + timeout
    while _sleepers(arg) and time.monotonic() < deadline:
        time.sleep(0.05)
    return _sleepers(arg)


@pytest.fixture
def not_a_subreaper():
    # The conftest makes the test process a subreaper: orphans of a dead host
    # would come to it. Off here, so they would go to init -- where only the
    # host's own containment can stop them.
    was = set_subreaper(False)
    yield
    set_subreaper(bool(was))


def _as_from_a_terminal() -> None:
    # a host started under nohup or as a background job inherits SIGHUP or
    # SIGINT ignored, and then rightly keeps ignoring them (its old handler
    # decides): these tests model a host started from a terminal
    for sig in (signal.SIGHUP, signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_DFL)


def _start_host(tmp_path, kind, command_timeout=60):
    arg = f"{3000 + os.getpid() % 1000}.{time.monotonic_ns() % 10**6:06d}"
    env = dict(os.environ, PYTHONPATH=str(ROOT), ESCAPE_KIND=kind, SLEEP_ARG=arg,
               MOUSE_READY=str(tmp_path / "ready"), MOUSE_GO=str(tmp_path / "go"))
    host = subprocess.Popen(
        [sys.executable, "-m", "robomaze", "mouse", "run", str(MAZE16),
         "--command-timeout", str(command_timeout), "--total-timeout", "120", "--",
         sys.executable, str(MOUSE)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        preexec_fn=_as_from_a_terminal)
    return host, arg


def _finish(host, arg, survivors):
    try:
        out, err = host.communicate(timeout=60)
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()
        for pid in _sleepers(arg):          # never leak into the next tests
            os.kill(pid, signal.SIGKILL)
    assert survivors == [], f"{len(survivors)} processes of the mouse outlived the run"
    return out.decode(), err.decode()


@pytest.mark.parametrize("kind", sorted(COUNT))
def test_no_descendant_survives_the_end_of_the_run(tmp_path, kind, not_a_subreaper):
    host, arg = _start_host(tmp_path, kind)
    assert len(_wait_count(arg, COUNT[kind])) == COUNT[kind]
    (tmp_path / "go").write_text("")       # the mouse exits; the run ends
    host.wait(timeout=60)
    survivors = _wait_none(arg)
    out, err = _finish(host, arg, survivors)
    assert host.returncode == 1 and "never reached the goal" in err


@pytest.mark.parametrize("kind", sorted(COUNT))
def test_no_descendant_survives_a_timeout(tmp_path, kind, not_a_subreaper):
    # The mouse speaks only once all its sleepers exist, then falls silent:
    # the command time limit ends the run with every one of them alive.
    host, arg = _start_host(tmp_path, kind, command_timeout=2)
    host.wait(timeout=120)
    survivors = _wait_none(arg)
    out, err = _finish(host, arg, survivors)
    assert host.returncode == 1 and "command time limit" in err
    assert (tmp_path / "ready").exists()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
@pytest.mark.parametrize("kind", sorted(COUNT))
def test_no_descendant_survives_a_signal_to_the_host(tmp_path, kind, sig, not_a_subreaper):
    host, arg = _start_host(tmp_path, kind)
    assert len(_wait_count(arg, COUNT[kind])) == COUNT[kind]
    host.send_signal(sig)
    host.wait(timeout=60)
    survivors = _wait_none(arg)
    _finish(host, arg, survivors)
    assert host.returncode == -sig


def test_no_descendant_survives_the_host_being_killed(tmp_path, not_a_subreaper):
    # SIGKILL cannot be handled: the reaper learns of its host's death from
    # the kernel (PR_SET_PDEATHSIG) and ends everything itself.
    host, arg = _start_host(tmp_path, "env-setsid")
    assert len(_wait_count(arg, 40)) == 40
    host.kill()
    host.wait(timeout=60)
    survivors = _wait_none(arg)
    _finish(host, arg, survivors)


def test_the_reaper_reports_its_mode_and_the_programs_exit_code(tmp_path):
    from robomaze.micromouse._proc import start_contained
    err_r, err_w = os.pipe()
    run = start_contained([sys.executable, "-c", "import sys; sys.exit(7)"], cwd=None,
                          env=dict(os.environ), token="t", stderr=err_w)
    os.close(err_w)
    try:
        assert run.mode == "subreaper" and run.pid != run.proc.pid
        assert run.wait_exit(30.0) == 7
    finally:
        run.end()
        os.close(err_r)
    assert run.proc.returncode == 0


# ----------------------------------------------------------------- issue 35
# The mouse double-forks an environment-less grandchild, then SIGKILLs or
# SIGSTOPs its reaper: the grandchild carries no token and (killed reaper)
# is the host's own child, or (stopped reaper) below a reaper that cannot act.
REAPER_KINDS = ["kill-reaper", "stop-reaper"]


@pytest.mark.parametrize("kind", REAPER_KINDS)
def test_no_survivor_when_the_mouse_kills_or_stops_its_reaper(tmp_path, kind,
                                                              not_a_subreaper):
    host, arg = _start_host(tmp_path, kind, command_timeout=2)
    host.wait(timeout=120)
    survivors = _sleepers(arg)              # counted the moment `mouse run` returned
    out, err = _finish(host, arg, survivors)
    # a killed reaper ends the run at once; a stopped one at the command time limit
    why = "reaper was killed" if kind == "kill-reaper" else "command time limit"
    assert host.returncode == 1 and why in err
    assert (tmp_path / "ready").exists()    # the grandchild existed during the run


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_no_survivor_of_a_reaper_stopper_when_the_host_is_signalled(tmp_path, sig,
                                                                   not_a_subreaper):
    # (a killed reaper ends the run by itself: the test above)
    host, arg = _start_host(tmp_path, "stop-reaper")
    assert len(_wait_count(arg, 1)) == 1
    time.sleep(0.2)                          # the reaper is stopped by now
    host.send_signal(sig)
    host.wait(timeout=60)
    survivors = _sleepers(arg)
    _finish(host, arg, survivors)
    # SIGINT is the CLI's "interrupted" (130); the others stop the host as they ask
    assert host.returncode == (130 if sig == signal.SIGINT else -sig)


def test_adopted_leaves_out_children_of_the_hosts_own_session():
    from robomaze._proctree import adopted, children_of
    before = children_of(os.getpid())
    same = subprocess.Popen(["/bin/sleep", "30"])
    other = subprocess.Popen(["/bin/sleep", "30"], start_new_session=True)
    try:
        assert adopted(os.getpid(), before) == {other.pid}
        assert adopted(os.getpid(), before, keep={other.pid}) == set()
    finally:
        for p in (same, other):
            p.kill()
            p.wait()
