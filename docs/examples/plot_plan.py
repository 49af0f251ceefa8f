"""
Plan a path for a robot with a footprint
========================================

``plan(grid, start, goal, method=..., footprint=...)`` dispatches to a planner
of ``robomaze.plan.PLANNERS``. ``None`` for start and goal takes the maze's
own. any-angle ``theta_star`` cuts the corners as closely as the footprint allows; ``max_clearance``
keeps to the middle of the corridors.
"""

import matplotlib.pyplot as plt

from robomaze.generate import generate
from robomaze.geometry import Footprint
from robomaze.grid import widen
from robomaze.plan import plan
from robomaze.viz import draw_grid, draw_path

grid = widen(generate("wilson", 6, 6, rng=1), corridor=5, wall=1, resolution=0.1)
robot = Footprint.disc(0.15)
fig, ax = plt.subplots(figsize=(5, 5))
draw_grid(ax, grid)
for method, color in [("theta_star", "#d62728"), ("max_clearance", "#1f77b4")]:
    path = plan(grid, None, None, method=method, footprint=robot)
    draw_path(ax, grid, path.points, world=True, color=color,
              label=f"{method}: {path.length:.2f} m")
    print(f"{method:14} length {path.length:.2f} m, collision-free {path.collision_free}")
ax.legend(loc="lower right")
ax.set_axis_off()
