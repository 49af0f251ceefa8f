"""``robomaze score``: compare a traversal with the optimal route."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from ._args import add_command, out_extension, parse_size

EPILOG = """\
prints the summary (moves vs optimal, error, revisits, wrong turns, dead ends
entered, time) and the table of sections walked or on the optimal route.
Grid-level records (widened mazes) are scored per maze cell, so walks at
different widening levels compare directly.

examples:
  robomaze score walk.jsonl
  robomaze score walk.jsonl --heatmap errors.png --json report.json
  robomaze score walk.jsonl --heatmap errors.png --marks paper
"""


def register(subparsers) -> None:
    p = add_command(subparsers, "score", help="deviation of a traversal from the optimal route",
                    description="Score a traversal record against the optimal route, per "
                                "maze section and per maze cell.", epilog=EPILOG)
    p.add_argument("record", metavar="RECORD", help="traversal record (.jsonl)")
    p.add_argument("--json", metavar="OUT", default=None,
                   help="write the full report as JSON ('-' for stdout)")
    p.add_argument("--heatmap", metavar="OUT", default=None,
                   help="write the per-section error heat map (.png, .svg or .pdf)")
    p.add_argument("--marks", choices=("robomaze", "paper"), default="robomaze",
                   help="--heatmap marks: none (robomaze, default) or the paper's red start "
                        "and blue end squares on the walk's first and last cells")
    p.add_argument("--regions", default="2x2", metavar="RxC",
                   help="blocks of the maze for the time-per-region figure (default 2x2)")
    p.add_argument("--all-sections", action="store_true",
                   help="list every section, not only those walked or on the route")
    p.add_argument("--cells", action="store_true",
                   help="also list every maze cell visited: visits, error, time")
    p.set_defaults(func=run)


def _route_words(s: dict) -> str:
    """Extra moves and efficiency of a finished walk; an unfinished one has
    neither, but cells still to go and progress made.

    >>> _route_words({"reached_goal": True, "extra_moves": 2, "efficiency": 0.8})
    'extra 2, efficiency 0.80'
    >>> _route_words({"reached_goal": False, "remaining": 4, "progress": 3, "optimal": 7})
    'unfinished: 4 cells from the goal, progress 3 of 7'
    """
    if s["reached_goal"]:
        return f"extra {s['extra_moves']}, efficiency {s['efficiency']:.2f}"
    return (f"unfinished: {s['remaining']} cells from the goal, progress {s['progress']} "
            f"of {s['optimal']}")


def run(args: argparse.Namespace) -> int:
    from ..traverse.record import read_record
    from ..traverse.score import score

    if args.heatmap:
        out_extension(args.heatmap, (".png", ".svg", ".pdf"), "--heatmap")
    regions = parse_size(args.regions, "--regions")
    rec = read_record(args.record)
    rep = score(rec, regions=regions)
    if args.json == "-":
        json.dump(rep.to_dict(), sys.stdout)
        print()
        return 0
    s = rep.summary
    print(f"{args.record}: {s['walker']} at {s['level']} level, "
          f"{'reached the goal' if s['reached_goal'] else 'did NOT reach the goal'}")
    print(f"  moves {s['moves']} (optimal {s['optimal']}, " + _route_words(s) + ")"
          + (f", {s['level_moves']} grid moves at pitch {s['pitch']}"
             if s["level"] == "grid" else ""))
    print(f"  revisits {s['revisits']}, wrong turns {s['wrong_turns']}, turnbacks "
          f"{s['turnbacks']}, dead ends entered {s['dead_ends_entered']} "
          f"({s['distinct_dead_ends']} distinct), bumps {s['bumps']}"
          + (f", hints {s['hints']}" if s["hints"] else ""))
    print(f"  time {s['duration']:.2f} s; by region (rows x cols blocks): "
          + " | ".join(" ".join(f"{v:.1f}" for v in row) for row in rep.region_time))
    print(f"  {s['sections']} sections, {s['sections_with_error']} with error")
    print(rep.table(all_sections=args.all_sections))
    if args.cells:
        print("cell      visits  error   time")
        for r, c in np.argwhere(rep.cell_visits > 0):
            print(f"({r:>3},{c:>3})  {rep.cell_visits[r, c]:>6}  {rep.cell_error[r, c]:>5}  "
                  f"{rep.cell_time[r, c]:>5.2f}")
    if args.json:
        Path(args.json).write_text(json.dumps(rep.to_dict()) + "\n", encoding="utf-8")
        print(f"report -> {args.json}")
    if args.heatmap:
        from ..viz.traverse import section_heatmap

        world = rec.maze if rec.maze is not None else rec.grid
        ends = None
        if args.marks == "paper":
            ends = [tuple(int(v) for v in p) for p in rec.positions[[0, -1]]]
            if rec.level == "grid" and rec.maze is not None:
                ends = [rec.grid.widening.maze_cell(p) for p in ends]
        section_heatmap(rep, world, args.heatmap, marks=args.marks, ends=ends)
        print(f"heat map -> {args.heatmap}")
    return 0
