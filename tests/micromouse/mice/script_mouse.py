"""A scripted mouse: sends the commands in $MOUSE_SCRIPT (';'-separated),
reads an answer after each one that has one, and writes the transcript as
JSON to $MOUSE_LOG before exiting."""
import json
import os
import sys

SILENT = ("setWall", "clearWall", "setColor", "clearColor", "clearAllColor", "setText",
          "clearText", "clearAllText")
log = []
for command in os.environ["MOUSE_SCRIPT"].split(";"):
    sys.stdout.write(command + "\n")
    sys.stdout.flush()
    if command.split()[0] in SILENT:
        log.append([command, None])
        continue
    reply = sys.stdin.readline()
    log.append([command, reply.strip() if reply else None])
    if not reply:
        break
with open(os.environ["MOUSE_LOG"], "w") as fh:
    json.dump(log, fh)
