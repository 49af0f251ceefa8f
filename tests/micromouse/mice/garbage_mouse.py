"""A mouse program that prints garbage instead of commands."""
import sys

sys.stdout.write("mazeWidth\n")
sys.stdout.flush()
sys.stdin.readline()
for i in range(1000):
    sys.stdout.write(f"hello world {i} \x07 <<>>\n")
sys.stdout.flush()
