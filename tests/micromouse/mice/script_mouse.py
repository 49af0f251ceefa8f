"""A scripted mouse: sends the commands in $MOUSE_SCRIPT (';'-separated),
reads an answer after each one that has one, and writes the transcript as
JSON to $MOUSE_LOG before exiting.

A command written ``!command`` is sent without waiting for an answer (for
commands a lenient host drops unanswered). ``$MOUSE_STDERR`` (a byte count)
is written to stderr first, as ``<`` + filler + ``>``. ``$MOUSE_EXIT`` ends
the program: an exit status, or ``segv`` to die of SIGSEGV.
"""
import json
import os
import signal
import sys

SILENT = ("setWall", "clearWall", "setColor", "clearColor", "clearAllColor", "setText",
          "clearText", "clearAllText")
noise = int(os.environ.get("MOUSE_STDERR", "0"))
if noise:
    sys.stderr.write("<" + "x" * (noise - 2) + ">")
    sys.stderr.flush()
log = []
for command in os.environ["MOUSE_SCRIPT"].split(";"):
    quiet = command.startswith("!")
    command = command.lstrip("!")
    sys.stdout.write(command + "\n")
    sys.stdout.flush()
    if quiet or command.split()[0] in SILENT:
        log.append([command, None])
        continue
    reply = sys.stdin.readline()
    log.append([command, reply.strip() if reply else None])
    if not reply:
        break
with open(os.environ["MOUSE_LOG"], "w") as fh:
    json.dump(log, fh)
end = os.environ.get("MOUSE_EXIT", "0")
sys.stdout.flush()
if end == "segv":
    os.kill(os.getpid(), signal.SIGSEGV)
sys.exit(int(end))
