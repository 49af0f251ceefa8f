"""The local HTTP server of the play and replay pages (standard library only).

:func:`make_server` builds a :class:`http.server.ThreadingHTTPServer` whose
handler answers from a fixed route table:

==========  =========================  =========================================
method      path                       answer
==========  =========================  =========================================
GET         ``/``                      the play page (or the replay page when
                                       the server only replays)
GET         ``/replay``                the replay page
GET         ``/static/<name>``         one of the page's own files (fixed list)
GET         ``/api/state``             the current walk, with its picture
POST        ``/api/move``              ``{"action": "N|E|S|W|F|L|R"}``
POST        ``/api/new``               ``{"mode": .., "radius": .., "next": bool}``
GET         ``/api/records``           the records written (or given) so far
GET         ``/api/record/<i>``        record ``i`` for the replay page
GET         ``/records/<i>.jsonl``     record ``i``'s file, as written
POST        ``/api/quit``              stop the server
==========  =========================  =========================================

Security: no part of a request path ever reaches the file system -- the
page's files are read from the package once, at start, into a dict, and
records are served by index from the server's own list. Request bodies are
JSON objects of at most :data:`MAX_BODY` bytes with
``Content-Type: application/json`` (which a foreign web page cannot send
without a CORS preflight this server never grants), with validated values.
The ``Host`` header must name the server (a defence against DNS
rebinding), and the server binds 127.0.0.1 unless told otherwise.
"""

from __future__ import annotations

import json
import re
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Callable

from ..errors import ParameterError, RobomazeError
from .session import PlaySession, RecordShelf, record_payload

__all__ = ["make_server", "STATIC_FILES", "MAX_BODY", "url_of"]

#: The page's files: name -> content type. Nothing else is ever served from disk.
STATIC_FILES = {"play.html": "text/html; charset=utf-8",
                "replay.html": "text/html; charset=utf-8",
                "common.js": "text/javascript; charset=utf-8",
                "play.js": "text/javascript; charset=utf-8",
                "replay.js": "text/javascript; charset=utf-8",
                "style.css": "text/css; charset=utf-8"}
#: Largest request body accepted, in bytes.
MAX_BODY = 1024
_RECORD_API = re.compile(r"^/api/record/(\d{1,6})$")
_RECORD_FILE = re.compile(r"^/records/(\d{1,6})\.jsonl$")
_SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                               "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


def _load_static() -> dict[str, bytes]:
    pkg = resources.files("robomaze.web") / "static"
    return {name: (pkg / name).read_bytes() for name in STATIC_FILES}


class _BadRequest(Exception):
    def __init__(self, status: HTTPStatus, message: str) -> None:
        super().__init__(message)
        self.status = status


class _Handler(BaseHTTPRequestHandler):
    server: "_Server"
    server_version = "robomaze"
    sys_version = ""
    # a client that announces a body and never sends it must not hold a thread for ever
    timeout = 10

    # ------------------------------------------------------------ plumbing
    def log_message(self, format: str, *args) -> None:  # noqa: A002 - stdlib name
        if self.server.log is not None:
            self.server.log(format % args)

    def _send(self, status: HTTPStatus, body: bytes, ctype: str,
              headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        for k, v in _SECURITY_HEADERS.items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, obj, status: HTTPStatus = HTTPStatus.OK) -> None:
        self._send(status, json.dumps(obj, allow_nan=False).encode(),
                   "application/json; charset=utf-8")

    def _error(self, status: HTTPStatus, message: str) -> None:
        self._json({"error": message}, status)

    def _check_host(self) -> None:
        host = (self.headers.get("Host") or "").lower()
        allowed = self.server.allowed_hosts
        if allowed is not None and host not in allowed:
            raise _BadRequest(HTTPStatus.FORBIDDEN, f"unexpected Host header {host!r}")

    def _body(self) -> dict:
        ctype = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if ctype != "application/json":
            raise _BadRequest(HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
                              "the body must be application/json")
        try:
            n = int(self.headers.get("Content-Length", ""))
        except ValueError:
            raise _BadRequest(HTTPStatus.LENGTH_REQUIRED, "Content-Length is required") from None
        if not 0 <= n <= MAX_BODY:
            raise _BadRequest(HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                              f"the body must be at most {MAX_BODY} bytes, got {n}")
        try:
            obj = json.loads(self.rfile.read(n) or b"{}")
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise _BadRequest(HTTPStatus.BAD_REQUEST, f"the body is not JSON: {exc}") from None
        if not isinstance(obj, dict):
            raise _BadRequest(HTTPStatus.BAD_REQUEST, "the body must be a JSON object")
        return obj

    def _dispatch(self, routes: dict[str, Callable]) -> None:
        path = self.path.split("?", 1)[0].split("#", 1)[0]
        try:
            self._check_host()
            handler = routes.get(path)
            if handler is not None:
                return handler()
            for pattern, fn in self.server_patterns():
                m = pattern.match(path)
                if m and fn[0] == self.command:
                    return fn[1](int(m.group(1)))
            self._error(HTTPStatus.NOT_FOUND, f"no such page: {path[:80]!r}")
        except _BadRequest as exc:
            self._error(exc.status, str(exc))
        except (RobomazeError, ValueError) as exc:
            self._error(HTTPStatus.BAD_REQUEST, str(exc))
        except OSError as exc:  # e.g. the record folder is not writable
            self._error(HTTPStatus.INTERNAL_SERVER_ERROR, f"cannot save or read a record: {exc}")

    def server_patterns(self):
        return ((_RECORD_API, ("GET", self._get_record)),
                (_RECORD_FILE, ("GET", self._get_record_file)))

    # ------------------------------------------------------------ routes
    def do_GET(self) -> None:  # noqa: N802 - stdlib name
        home = "play.html" if self.server.session is not None else "replay.html"
        routes = {"/": lambda: self._static(home), "/replay": lambda: self._static("replay.html"),
                  "/api/state": self._get_state, "/api/records": self._get_records}
        routes.update({f"/static/{n}": (lambda n=n: self._static(n)) for n in STATIC_FILES})
        self._dispatch(routes)

    do_HEAD = do_GET

    def do_POST(self) -> None:  # noqa: N802 - stdlib name
        self._dispatch({"/api/move": self._post_move, "/api/new": self._post_new,
                        "/api/quit": self._post_quit})

    def _static(self, name: str) -> None:
        self._send(HTTPStatus.OK, self.server.static[name], STATIC_FILES[name])

    def _session(self) -> PlaySession:
        if self.server.session is None:
            raise _BadRequest(HTTPStatus.NOT_FOUND, "this server only replays records")
        return self.server.session

    def _get_state(self) -> None:
        s = self._session()
        with s.lock:
            self._json(s.state(full=True))

    def _post_move(self) -> None:
        body = self._body()
        action = body.get("action")
        if set(body) != {"action"} or not isinstance(action, str):
            raise _BadRequest(HTTPStatus.BAD_REQUEST,
                              'the body must be {"action": one of N E S W F L R}')
        s = self._session()
        with s.lock:
            self._json(s.act(action))

    def _post_new(self) -> None:
        body = self._body()
        extra = set(body) - {"mode", "radius", "next"}
        if extra:
            raise _BadRequest(HTTPStatus.BAD_REQUEST, f"unknown keys {sorted(extra)}")
        mode, radius, nxt = body.get("mode"), body.get("radius"), body.get("next", True)
        if mode is not None and not isinstance(mode, str):
            raise ParameterError(f"mode must be a string, got {mode!r}")
        if radius is not None and (isinstance(radius, bool) or not isinstance(radius, int)):
            raise ParameterError(f"radius must be an integer, got {radius!r}")
        if not isinstance(nxt, bool):
            raise ParameterError(f"next must be true or false, got {nxt!r}")
        s = self._session()
        with s.lock:
            self._json(s.new_walk(mode=mode, radius=radius, advance=nxt))

    def _post_quit(self) -> None:
        self._body()
        self._json({"bye": True})
        threading.Thread(target=self.server.shutdown, daemon=True).start()

    def _shelf(self) -> RecordShelf:
        s = self.server.session
        return s.shelf if s is not None else self.server.shelf

    def _get_records(self) -> None:
        self._json(self._shelf().listing())

    def _get_record(self, i: int) -> None:
        shelf = self._shelf()
        try:
            rec = shelf.record(i)
        except KeyError:
            raise _BadRequest(HTTPStatus.NOT_FOUND, f"no record {i}") from None
        self._json({"index": i, "name": shelf.paths[i].name, **record_payload(rec)})

    def _get_record_file(self, i: int) -> None:
        shelf = self._shelf()
        if not 0 <= i < len(shelf):
            raise _BadRequest(HTTPStatus.NOT_FOUND, f"no record {i}")
        # the name is one the server gave (walk-NNN.jsonl) or was given on its command line
        name = re.sub(r"[^A-Za-z0-9._-]", "_", shelf.paths[i].name)
        self._send(HTTPStatus.OK, shelf.paths[i].read_bytes(), "application/x-ndjson",
                   {"Content-Disposition": f'attachment; filename="{name}"'})


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    session: PlaySession | None
    shelf: RecordShelf
    static: dict[str, bytes]
    allowed_hosts: frozenset[str] | None
    log: Callable[[str], None] | None


def url_of(server: ThreadingHTTPServer, page: str = "/") -> str:
    """The address a browser opens for ``page`` of ``server``."""
    host, port = server.server_address[:2]
    host = f"[{host}]" if ":" in host else host
    return f"http://{host}:{port}{page}"


def make_server(session: PlaySession | None = None, *, shelf: RecordShelf | None = None,
                host: str = "127.0.0.1", port: int = 0,
                log: Callable[[str], None] | None = None) -> ThreadingHTTPServer:
    """A server for the play page of ``session`` (or, without one, only the
    replay page of ``shelf``); call ``serve_forever()`` on it.

    ``port=0`` picks any free port (read it from ``server.server_address``).
    ``log`` receives one line per request (default: silent).

    Examples
    --------
    >>> srv = make_server(shelf=RecordShelf(), port=0)
    >>> url_of(srv).startswith("http://127.0.0.1:")
    True
    >>> srv.server_close()
    """
    if session is None and shelf is None:
        raise ParameterError("make_server needs a play session or a shelf of records")
    if not isinstance(port, int) or not 0 <= port <= 65535:
        raise ParameterError(f"port must be an integer in 0..65535, got {port!r}")
    srv = _Server((host, port), _Handler)
    srv.session, srv.shelf = session, shelf if shelf is not None else RecordShelf()
    srv.static = _load_static()
    srv.log = log
    bound = srv.server_address[1]
    names = {host.lower(), "localhost", "127.0.0.1", "[::1]"}
    if host in ("", "0.0.0.0", "::"):
        # bound to every interface on purpose: any name the user reaches it by
        srv.allowed_hosts = None
    else:
        srv.allowed_hosts = frozenset({f"{n}:{bound}" for n in names} | names)
    return srv
