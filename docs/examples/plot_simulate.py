"""
Simulate a robot with range sensors
===================================

``simulate`` drives a robot with a footprint and a sensor preset (``lidar``,
``lidar_long``, ``ir``; real ranges in metres) with an agent of
``robomaze.sim.AGENTS``. The metrics are measured on the true poses.
"""

import matplotlib.pyplot as plt

from robomaze.generate import generate
from robomaze.geometry import Footprint
from robomaze.grid import widen
from robomaze.sim import simulate
from robomaze.viz import draw_grid, draw_path
from robomaze.viz.robot import draw_footprints

grid = widen(generate("kruskal", 5, 5, rng=5), corridor=5, wall=1, resolution=0.1)
robot = Footprint.disc(0.15)
run = simulate(grid, footprint=robot, agent="follow_plan", sensor="lidar", rng=1,
               max_steps=2000, dt=0.1)
print("success:", run.success, "| steps:", run.metrics["steps"],
      "| min clearance (m):", round(run.metrics["min_clearance"], 3))

fig, ax = plt.subplots(figsize=(5, 5))
draw_grid(ax, grid)
poses = run.trajectory.poses
draw_footprints(ax, grid, robot, poses, every=10)
draw_path(ax, grid, poses[:, :2], world=True, color="#7b2cbf")
ax.set_axis_off()
