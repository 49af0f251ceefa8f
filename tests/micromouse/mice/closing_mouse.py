"""A mouse that closes its output pipe and then lingers, with a child process."""
import os
import subprocess
import sys
import time

sys.stdout.write("mazeWidth\n")
sys.stdout.flush()
sys.stdin.readline()
# A grandchild in the same process group: the host must kill it too.
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
with open(os.environ.get("MOUSE_PIDFILE", os.devnull), "w") as fh:
    fh.write(f"{os.getpid()} {child.pid}\n")
os.close(1)
time.sleep(60)
