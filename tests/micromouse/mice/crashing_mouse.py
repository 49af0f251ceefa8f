"""A mouse program that dies with an exception after a few valid commands."""
import sys

sys.stdout.write("mazeWidth\n")
sys.stdout.flush()
sys.stdin.readline()
sys.stdout.write("moveForward\n")
sys.stdout.flush()
sys.stdin.readline()
raise RuntimeError("this mouse program has a bug")
