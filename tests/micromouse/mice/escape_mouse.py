"""A hostile mouse that hides its children every way it can (issue 20).

$ESCAPE_KIND picks the trick, $SLEEP_ARG the unique sleep duration its
children carry (so a test can count them in /proc):

* ``daemon``: fork, setsid, fork again and execve /bin/sleep with an empty
  environment (the grandchild has neither the run's process tree parent nor
  its environment token);
* ``env-setsid``: a shell starts ``( env -i setsid /bin/sleep N & )`` 40 times;
* ``orphan``: a direct child with a cleared environment, then the mouse exits
  at once (the child outlives its parent);
* ``kill-reaper`` / ``stop-reaper``: the ``daemon`` grandchild, then the
  mouse SIGKILLs (SIGSTOPs) its parent, the reaper that contains it (issue
  35): the grandchild has no token and no reaper above it any more.

Once all its sleepers exist (counted in /proc) it writes "ready" to
$MOUSE_READY (then kills or stops its reaper), speaks a little mms, waits for the file $MOUSE_GO and exits
(status 0).
"""
import os
import subprocess
import sys
import time

kind, arg = os.environ["ESCAPE_KIND"], os.environ["SLEEP_ARG"]
if kind in ("daemon", "kill-reaper", "stop-reaper"):
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execve("/bin/sleep", ["/bin/sleep", arg], {})
        os._exit(0)
    os.wait()
elif kind == "env-setsid":
    subprocess.run(["/bin/sh", "-c",
                    f"for i in $(seq 40); do ( env -i setsid /bin/sleep {arg} & ); done"],
                   check=True)
elif kind == "orphan":
    subprocess.Popen(["/bin/sleep", arg], env={})


def sleepers() -> int:
    want = b"\0" + arg.encode() + b"\0"
    n = 0
    for name in os.listdir("/proc"):
        try:
            with open(f"/proc/{name}/cmdline", "rb") as fh:
                n += fh.read().endswith(want)
        except OSError:
            pass
    return n


deadline = time.monotonic() + 60
while sleepers() < (40 if kind == "env-setsid" else 1) and time.monotonic() < deadline:
    time.sleep(0.02)
with open(os.environ["MOUSE_READY"], "w") as fh:
    fh.write("ready\n")
if kind in ("kill-reaper", "stop-reaper"):
    import signal
    os.kill(os.getppid(), signal.SIGKILL if kind == "kill-reaper" else signal.SIGSTOP)
sys.stdout.write("mazeWidth\n")
sys.stdout.flush()
sys.stdin.readline()
deadline = time.monotonic() + 120
while not os.path.exists(os.environ["MOUSE_GO"]) and time.monotonic() < deadline:
    time.sleep(0.02)
