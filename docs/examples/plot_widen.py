"""
Widen a maze into an occupancy grid
===================================

``widen(maze, corridor=k, wall=t)`` turns every maze cell into a ``k x k``
block of free grid cells and every wall into a band ``t`` cells thick, so an
``f x c`` maze becomes a grid of ``(f(k+t)+t) x (c(k+t)+t)`` cells. The
resolution is the size of one grid cell in metres.
"""

import matplotlib.pyplot as plt

from robomaze.generate import generate
from robomaze.grid import widen
from robomaze.viz import draw_grid

maze = generate("backtracker", 5, 5, rng=3)
fig, axes = plt.subplots(1, 3, figsize=(9, 3.2))
for ax, k in zip(axes, [1, 3, 7]):
    grid = widen(maze, corridor=k, wall=1, resolution=0.1)
    draw_grid(ax, grid)
    ax.set_title(f"corridor {k}: {grid.shape[0]} x {grid.shape[1]} cells")
    ax.set_axis_off()
fig.tight_layout()

# %%
# The clearance field is the exact distance from each free cell's centre to
# the nearest wall (metres):
grid = widen(maze, corridor=7, wall=1, resolution=0.1)
print("widest clearance (m):", round(float(grid.clearance().max()), 3))
