"""A mouse that drives straight on forever, ignoring crashes, then gives up."""
import sys

for _ in range(20):
    sys.stdout.write("moveForward\n")
    sys.stdout.flush()
    if not sys.stdin.readline():
        sys.exit(1)
