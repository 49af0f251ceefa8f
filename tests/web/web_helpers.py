"""Helpers for the web tests: a server on a thread, JSON requests, hand-made mazes."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request

from robomaze.maze import Maze
from robomaze.web import make_server, url_of

# A 3x3 serpentine: (0,0)->(0,2), down, (1,2)->(1,0), down, (2,0)->(2,2).
SNAKE = Maze.from_edges(3, 3, [0, 1, 2, 5, 4, 3, 6, 7], [1, 2, 5, 4, 3, 6, 7, 8],
                        start=(0, 0), goals=[(2, 2)])
SNAKE_ROUTE = [(0, 0), (0, 1), (0, 2), (1, 2), (1, 1), (1, 0), (2, 0), (2, 1), (2, 2)]
SNAKE_ACTIONS = list("EESWWSEE")


class ServerThread:
    """``make_server(...)`` serving on a daemon thread; ``stop()`` shuts it down."""

    def __init__(self, session=None, **kw) -> None:
        self.server = make_server(session, port=0, **kw)
        self.url = url_of(self.server)
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05},
                                       daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)


def request(url: str, body=None, *, method=None, headers=None, raw: bytes | None = None):
    """(status, headers, bytes) of one request; HTTP errors are returned, not raised."""
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    hdrs = dict(headers or {})
    if body is not None and raw is None:
        hdrs.setdefault("Content-Type", "application/json")
    req = urllib.request.Request(url, data=data, headers=hdrs,
                                 method=method or ("POST" if data is not None else "GET"))
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def get_json(url: str, body=None, **kw):
    status, _, data = request(url, body, **kw)
    return status, json.loads(data)


class PageView:
    """What a page holds, kept the way play.js keeps it: a full state replaces
    everything, a delta (``"delta": true``) must apply to the ``seq`` held and
    patches the trail and the squares. An independent reading of the protocol."""

    def __init__(self, state: dict) -> None:
        self.seq = None
        self.trail: list = []
        self.walls: list | None = None
        self.update(state)

    def update(self, data: dict) -> dict:
        if data.get("delta"):
            assert data["base"] == self.seq, (data["base"], self.seq)
            assert 0 <= data["trail_keep"] <= len(self.trail)
            self.trail = self.trail[:data["trail_keep"]] + data["trail_add"]
            if "squares" in data:
                rows = [list(r) for r in self.walls]
                for i, j, ch in data["squares"]:
                    rows[i][j] = ch
                self.walls = ["".join(r) for r in rows]
        else:
            self.trail = data["trail"]
            self.walls = data.get("walls")
        self.seq = data["seq"]
        self.last = data
        return data
