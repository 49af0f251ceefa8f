"""Play, record, replay and score traversals of a maze by people and robots.

* :mod:`.record` -- the ``robomaze-traversal`` JSON Lines record, its reader
  and writer, and conversion from simulator trajectories;
* :mod:`.game` -- the interactive walk as a plain class driven by key events
  (visibility modes ``full``, ``trail``, ``torch``);
* :mod:`.score` -- deviation from the optimal route, per maze section and
  per maze cell.

Drawing lives in :mod:`robomaze.viz.traverse`.
"""

from .record import (FORMAT_NAME, FORMAT_VERSION, Step, TraversalRecord, from_trajectory,
                     read_record, write_record)

__all__ = ["FORMAT_NAME", "FORMAT_VERSION", "Step", "TraversalRecord", "from_trajectory",
           "read_record", "write_record"]
