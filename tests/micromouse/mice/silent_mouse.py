"""A mouse program that never says anything (and never exits on its own)."""
import time

while True:
    time.sleep(1)
