"""
Micromouse: search run and time-optimal fast run
================================================

A contest maze shipped with robomaze (``pkg:micromouse/...``), a flood-fill
mouse that explores until it has proved the shortest route, and the
time-optimal fast run on the walls it learned.
"""

import matplotlib.pyplot as plt

from robomaze.data import resolve
from robomaze.io import read_maze
from robomaze.micromouse import fastest_route, solve
from robomaze.viz.micromouse import draw_micromouse

maze = read_maze(resolve("pkg:micromouse/16MM2019CX.maze"))
run = solve(maze, method="floodfill")
best = fastest_route(maze, diagonals=True)
print("cells explored:", run.cells_explored if hasattr(run, "cells_explored") else "?",
      "| best fast run with diagonals (s):", round(best.cost_ms / 1000, 2))

fig, ax = plt.subplots(figsize=(5, 5))
draw_micromouse(ax, maze, run=run)
ax.set_axis_off()
