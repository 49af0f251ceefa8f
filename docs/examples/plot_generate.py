"""
Generate a maze
===============

Every generator of ``robomaze.generate.GENERATORS`` takes a size and a seed;
the same seed gives the same maze on any machine. ``braid`` removes a share of
the dead ends (loops), ``placement`` puts the start and the goal.
"""

import matplotlib.pyplot as plt

from robomaze.generate import GENERATORS, generate
from robomaze.viz import draw_maze

print(", ".join(sorted(GENERATORS)))

fig, axes = plt.subplots(1, 3, figsize=(9, 3.2))
for ax, name in zip(axes, ["backtracker", "kruskal", "wilson"]):
    maze = generate(name, 8, 8, rng=1)
    draw_maze(ax, maze)
    ax.set_title(f"{name}: route of {maze.solution_length()} moves")
    ax.set_axis_off()
fig.tight_layout()

# %%
# A braid maze (half the dead ends opened) is no longer a tree:
braided = generate("kruskal", 8, 8, rng=1, braid=0.5)
print("perfect:", braided.is_perfect(), "connected:", braided.is_connected())
