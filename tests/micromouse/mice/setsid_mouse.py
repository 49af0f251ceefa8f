"""A hostile mouse: starts a child in a new session (setsid) and a daemon
(double fork + setsid, its parent exits at once), writes every pid to
$MOUSE_PIDFILE, then speaks a little mms and waits (or exits with
$MOUSE_EXIT) -- all its processes must be ended by the host."""
import os
import subprocess
import sys
import time

sleeper = [sys.executable, "-c", "import time; time.sleep(120)"]
child = subprocess.Popen(sleeper, start_new_session=True)
r, w = os.pipe()
mid = os.fork()
if mid == 0:                              # the daemon's short-lived parent
    os.setsid()
    daemon = subprocess.Popen(sleeper, start_new_session=True)
    os.write(w, f"{daemon.pid}\n".encode())
    os._exit(0)
os.waitpid(mid, 0)
daemon_pid = int(os.read(r, 100).decode())
with open(os.environ["MOUSE_PIDFILE"], "w") as fh:
    fh.write(f"{os.getpid()} {child.pid} {daemon_pid}\n")
sys.stdout.write("mazeWidth\n")
sys.stdout.flush()
sys.stdin.readline()
if "MOUSE_EXIT" in os.environ:
    sys.exit(int(os.environ["MOUSE_EXIT"]))
time.sleep(120)
