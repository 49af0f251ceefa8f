"""Play and replay mazes in a web browser, served by a small local HTTP server.

* :mod:`.session` -- :class:`PlaySession`, the walks of one player in a row
  (the server-side game, its records and scores) and the JSON the pages draw;
* :mod:`.server` -- :func:`make_server`, a standard-library HTTP server
  (deep listen backlog, bounded worker pool) with a fixed route table
  serving the page in ``static/`` (plain JavaScript and canvas, no build
  step, works offline);
* :mod:`.worlds` -- the mazes a page may name in its URL (a generator,
  size, seed and the world's options, as a :class:`robomaze.world.WorldSpec`;
  never a file).

The commands are ``robomaze play ... --web`` and ``robomaze replay ... --web``.
"""

from .server import MAX_BODY, STATIC_FILES, make_server, url_of
from .session import PlaySession, RecordShelf, picture_of, record_payload, score_payload

__all__ = ["make_server", "url_of", "STATIC_FILES", "MAX_BODY", "PlaySession", "RecordShelf",
           "picture_of", "record_payload", "score_payload"]
