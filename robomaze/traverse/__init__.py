"""Play, record, replay and score traversals of a maze by people and robots.

* :mod:`.record` -- the ``robomaze-traversal`` JSON Lines record, its reader
  and writer, and conversion from simulator trajectories;
* :mod:`.game` -- the interactive walk as a plain class driven by key events
  (visibility modes ``full``, ``trail``, ``torch``, ``explorer``, ``theseus``);
* :mod:`.score` -- deviation from the optimal route, per maze section and
  per maze cell.

Drawing (play window, replay animation, still image, heat map) lives in
:mod:`robomaze.viz.traverse`, the browser pages in :mod:`robomaze.web`; the
commands are ``robomaze play`` (``--web`` for a browser), ``robomaze
replay`` and ``robomaze score``.

>>> from robomaze import Maze
>>> from robomaze.traverse import Game, score
>>> g = Game(Maze.from_edges(1, 3, [0, 1], [1, 2]), mode="trail", clock=lambda: 0.0)
>>> [g.key(k) for k in ("right", "right")]
['moved', 'goal']
>>> score(g.record()).summary["extra_moves"]
0
"""

from .game import CONTROLS, MODES, Game
from .convert import from_trajectory
from .record import FORMAT_NAME, FORMAT_VERSION, Step, TraversalRecord, read_record, write_record
from .score import SUMMARY_KEYS, Sections, TraversalScore, score, score_walk, sections

__all__ = ["FORMAT_NAME", "FORMAT_VERSION", "Step", "TraversalRecord", "from_trajectory",
           "read_record", "write_record", "Game", "MODES", "CONTROLS", "score", "score_walk",
           "sections", "Sections", "TraversalScore", "SUMMARY_KEYS"]
