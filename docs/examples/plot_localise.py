"""
Localise with a particle filter
===============================

With odometry noise the robot's dead-reckoned pose drifts; ``localize="mcl"``
feeds the agent the estimate of Monte Carlo localisation on the known map
instead. The metrics compare the estimate with the true path
(``ate_rmse``: absolute trajectory error in metres).
"""

import matplotlib.pyplot as plt

from robomaze.generate import generate
from robomaze.geometry import Footprint
from robomaze.grid import widen
from robomaze.sim import simulate
from robomaze.viz import draw_grid, draw_path

grid = widen(generate("kruskal", 4, 4, rng=1), corridor=5, wall=1, resolution=0.1)
run = simulate(grid, footprint=Footprint.disc(0.15), agent="follow_plan", sensor="lidar",
               rng=1, max_steps=1500, dt=0.1, odometry_noise="gaussian:0.02+drift:0.02",
               localize="mcl")
print("success:", run.success, "| ATE RMSE (m):", round(run.metrics["ate_rmse"], 3))

fig, ax = plt.subplots(figsize=(5, 5))
draw_grid(ax, grid)
draw_path(ax, grid, run.trajectory.poses[:, :2], world=True, color="#2ca02c", label="true")
draw_path(ax, grid, run.estimate[:, :2], world=True, color="#d62728", label="MCL estimate")
ax.legend(loc="lower right")
ax.set_axis_off()
