"""
Benchmark planners and read the results with pandas
===================================================

A sweep is a TOML description of every combination to run. ``robomaze bench
sweep.toml -o DIR`` runs them in parallel worker processes (``run_sweep``)
and appends one row per run to ``DIR/results.jsonl``; here the same rows are
made in this process with ``run_scenario`` and stored with ``write_rows``.
``load`` returns them as a DataFrame whose columns are the results schema
(``docs/results.md``).
"""

import tempfile
from pathlib import Path

import matplotlib.pyplot as plt

from robomaze.bench import load, load_sweep, run_scenario, write_rows

SWEEP = """
name = "gallery"
seed = [1, 2, 3]
[maze]
generator = "kruskal"
rows = 4
cols = 4
[widen]
corridor = [1, 3, 5]
resolution = 0.1
[robot]
footprint = "disc:0.04"
[run]
planner = ["astar", "max_clearance", "wall_follower"]
"""

folder = Path(tempfile.mkdtemp())
(folder / "gallery.toml").write_text(SWEEP)
sweep = load_sweep(folder / "gallery.toml")
rows = [run_scenario(sc) for sc in sweep.scenarios]
write_rows(folder / "results", rows)
df = load(folder / "results")
print(len(df), "runs,", len(df.columns), "columns")
table = df.groupby(["method", "corridor_cells"])["length_ratio"].median().unstack()
print(table.round(3))

fig, ax = plt.subplots(figsize=(5, 3.2))
table.T.plot(ax=ax, marker="o")
ax.set_xlabel("corridor width (grid cells)")
ax.set_ylabel("length / shortest (median)")
fig.tight_layout()
