"""A mouse that closes its input pipe, then asks a question and waits."""
import os
import sys
import time

os.close(0)
sys.stdout.write("mazeWidth\n")
sys.stdout.flush()
time.sleep(30)
