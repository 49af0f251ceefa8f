"""Test planners registered through the sweep's ``plugins`` list.

Imported by every worker process before its first run (that is the point:
monkeypatching the registry in the test process would not reach them).
"""

import os
import signal
import time

from robomaze.plan import PLANNERS


def explode(grid, start, goal, **options):
    raise RuntimeError("test planner exploded on purpose")


def hang(grid, start, goal, **options):
    time.sleep(3600)  # interruptible: the worker's soft limit stops it


def hang_hard(grid, start, goal, **options):
    # Blocks the soft limit, as a compiled kernel would: only a kill stops it.
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
    time.sleep(3600)


def crash(grid, start, goal, **options):
    os.kill(os.getpid(), signal.SIGKILL)  # as a segfault or the OOM killer would


def slow_astar(grid, start, goal, *, rng=None, **options):
    time.sleep(float(os.environ.get("ROBOMAZE_TEST_SLOW", "0.3")))
    return PLANNERS["astar"](grid, start, goal, **options)


PLANNERS.update(test_explode=explode, test_hang=hang, test_hang_hard=hang_hard,
                test_crash=crash, test_slow_astar=slow_astar)


def exit_planner(grid, start, goal, **options):
    raise SystemExit(3)  # as a library calling sys.exit() would


def interrupt_planner(grid, start, goal, **options):
    raise KeyboardInterrupt  # not a Ctrl-C of the sweep: the run's own doing


def forking_astar(grid, start, goal, **options):
    """Leaves long-lived children behind: a new session (setsid) and a
    multiprocessing fork server with its resource tracker."""
    import multiprocessing
    import subprocess
    import sys

    pids = []
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"],
                             start_new_session=True)
    pids.append(child.pid)
    proc = multiprocessing.get_context("forkserver").Process(target=time.sleep, args=(600,))
    proc.start()
    pids.append(proc.pid)
    with open(os.environ["ROBOMAZE_TEST_PIDS"], "a") as fh:
        fh.write("".join(f"{p}\n" for p in pids))
    return PLANNERS["astar"](grid, start, goal, **options)


PLANNERS.update(test_exit=exit_planner, test_interrupt=interrupt_planner,
                test_forking_astar=forking_astar)
