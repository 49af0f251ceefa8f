"""
Play a maze and score the walk
==============================

``robomaze play`` opens a window (or a browser page with ``--web``); the game
itself is ``robomaze.traverse.Game``, driven by key names, which records the
walk. ``score`` compares it with the optimal route, per maze section.
"""

import matplotlib.pyplot as plt

from robomaze.generate import generate
from robomaze.traverse import Game, score
from robomaze.viz.traverse import still

maze = generate("backtracker", 6, 6, rng=6)
game = Game(maze, mode="trail", clock=lambda: 0.0)
KEYS = {(0, 1): "right", (0, -1): "left", (1, 0): "down", (-1, 0): "up"}
route = maze.solution()
# a scripted player: one step into a wrong corridor and back, then the route
wrong = next(n for n in maze.neighbors(route[0]) if n != route[1]) if len(maze.neighbors(route[0])) > 1 else None
moves = ([wrong, route[0]] if wrong else []) + route[1:]
here = route[0]
for cell in moves:
    result = game.key(KEYS[(cell[0] - here[0], cell[1] - here[1])])
    here = cell
record = game.record()
report = score(record)
print("reached the goal:", result == "goal", "| moves:", len(moves),
      "| extra moves:", report.summary["extra_moves"])
fig, ax = plt.subplots(figsize=(5, 5))
still(record, ax=ax)   # moves coloured by direction; start and end marked
