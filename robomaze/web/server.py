"""The local HTTP server of the play and replay pages (standard library only).

:func:`make_server` builds a :class:`http.server.HTTPServer` (a listen backlog
of :data:`BACKLOG` and a pool of :data:`WORKERS` threads) whose handler
answers from a fixed route table:

==========  =========================  =========================================
method      path                       answer
==========  =========================  =========================================
GET         ``/``                      the play page (or the replay page when
                                       the server only replays)
GET         ``/replay``                the replay page
GET         ``/static/<name>``         one of the page's own files (fixed list)
GET         ``/api/state``             the current walk, with its picture
GET         ``/api/ping``              the page's heartbeat (``{"alive": true}``)
POST        ``/api/move``              ``{"action": "N|E|S|W|F|L|R|U", "t": s}``
                                       or ``{"moves": [[action, t], ...]}``:
                                       what changed (``PlaySession.delta``)
POST        ``/api/new``               ``{"mode": .., "radius": .., "next": bool,
                                       "gen": .., "size": "RxC", "seed": ..,
                                       "braid", "placement", "corridor",
                                       "wall"}`` (:mod:`.worlds`)
POST        ``/api/resume``            ``{"record": i}``: go on with the
                                       unfinished walk the state offers
POST        ``/api/hint``              ``{"t": s}``: the state plus ``hint``,
                                       the next route cells (recorded)
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
rebinding), and the server binds 127.0.0.1 unless told otherwise. Bound to
any other address, every request must carry a random token (printed in the
URL at start; the page then holds it in a ``SameSite=Strict`` cookie), so a
page or host that merely reaches the port can neither read the game nor
post moves. Every response -- the standard library's own error pages (400,
414, 431, 501, 505, and requests that parse as HTTP/0.9) included -- has a
status line and carries the security headers; a client that hangs up early
is not an error worth a traceback.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import queue
import re
import secrets
import socketserver
import sys
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, HTTPServer
from importlib import resources
from typing import Callable

from ..errors import ParameterError, RobomazeError
from ..traverse.palette import DEFAULT_PALETTE, PALETTES, check_palette
from .session import ElsewhereError, PlaySession, RecordShelf, record_payload
from .worlds import PAGE_KEYS

__all__ = ["make_server", "STATIC_FILES", "MAX_BODY", "url_of", "BACKLOG", "WORKERS"]

#: The page's files: name -> content type. Nothing else is ever served from disk.
STATIC_FILES = {"play.html": "text/html; charset=utf-8",
                "replay.html": "text/html; charset=utf-8",
                "common.js": "text/javascript; charset=utf-8",
                "play.js": "text/javascript; charset=utf-8",
                "replay.js": "text/javascript; charset=utf-8",
                "style.css": "text/css; charset=utf-8"}
#: Largest request body accepted, in bytes.
MAX_BODY = 1024
#: Deepest JSON nesting a request body may have (bodies are flat objects).
MAX_DEPTH = 4
#: Most moves in one ``/api/move`` request.
MAX_BATCH = 64
#: Connections the kernel queues before the server accepts them (socketserver's is 5:
#: a burst of clients then waits for SYN retransmits, 1, 3, 7... seconds).
BACKLOG = 512
#: Threads answering requests; further accepted connections wait in a queue.
WORKERS = 32
#: Accepted connections waiting for a worker before new ones get a 503.
PENDING = 1024
_TOKEN_COOKIE = "robomaze_token"
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

    def handle(self) -> None:
        try:
            super().handle()
        except (ConnectionError, TimeoutError):
            # the client hung up (a closed tab, a reload): nothing to answer
            self.close_connection = True

    def parse_request(self) -> bool:
        if not super().parse_request():
            return False
        if self.request_version == "HTTP/0.9":
            # an HTTP/0.9 answer has no status line and no headers at all
            self.send_error(HTTPStatus.HTTP_VERSION_NOT_SUPPORTED)
            return False
        return True

    def send_error(self, code: int, message: str | None = None,
                   explain: str | None = None) -> None:
        """Every error page, the standard library's included, as JSON with the
        security headers and a status line -- also for a request line that
        parsed as HTTP/0.9 (``GARBAGE``) or named no version the server
        speaks, where the standard library sends a bare body. The request
        line is never echoed back."""
        try:
            status = HTTPStatus(code)
        except ValueError:
            status = HTTPStatus.BAD_REQUEST
        if self.request_version not in ("HTTP/1.0", "HTTP/1.1"):
            self.request_version = "HTTP/1.0"
        self.close_connection = True
        body = json.dumps({"error": f"{status.value} {status.phrase}"}).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD" and status.value >= 200 and status.value not in (204, 304):
            self.wfile.write(body)

    def end_headers(self) -> None:
        # here, not in _send: the standard library's own error pages
        # (send_error: 400, 414, 431, 501...) pass through this too
        for k, v in _SECURITY_HEADERS.items():
            self.send_header(k, v)
        if getattr(self, "_set_cookie", None):
            self.send_header("Set-Cookie", self._set_cookie)
            self._set_cookie = None
        super().end_headers()

    def _send(self, status: HTTPStatus, body: bytes, ctype: str,
              headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
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

    def _check_token(self) -> None:
        token = self.server.token
        if token is None:
            return
        query = self.path.split("?", 1)[1] if "?" in self.path else ""
        given = [v for k, _, v in (p.partition("=") for p in query.split("&")) if k == "token"]
        if given and hmac.compare_digest(given[0].encode(), token.encode()):
            self._set_cookie = (f"{_TOKEN_COOKIE}={token}; Path=/; HttpOnly; "
                                f"SameSite=Strict")
            return
        for part in (self.headers.get("Cookie") or "").split(";"):
            k, _, v = part.strip().partition("=")
            if k == _TOKEN_COOKIE and hmac.compare_digest(v.encode(), token.encode()):
                return
        raise _BadRequest(HTTPStatus.FORBIDDEN, "this server needs its token: open the URL "
                                                "it printed at start (?token=...)")

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
        raw = self.rfile.read(n) or b"{}"
        depth = _depth(raw)
        if depth > MAX_DEPTH:
            raise _BadRequest(HTTPStatus.BAD_REQUEST, f"the body nests {depth} levels deep; "
                                                      f"at most {MAX_DEPTH} are accepted")
        try:
            obj = json.loads(raw)
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
            raise _BadRequest(HTTPStatus.BAD_REQUEST, f"the body is not JSON: {exc}") from None
        if not isinstance(obj, dict):
            raise _BadRequest(HTTPStatus.BAD_REQUEST, "the body must be a JSON object")
        return obj

    def _dispatch(self, routes: dict[str, Callable]) -> None:
        path = self.path.split("?", 1)[0].split("#", 1)[0]
        try:
            self._check_host()
            self._check_token()
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
        except ElsewhereError as exc:
            self._json({"error": str(exc), "elsewhere": True}, HTTPStatus.CONFLICT)
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
                  "/api/state": self._get_state, "/api/records": self._get_records,
                  "/api/ping": self._get_ping}
        routes.update({f"/static/{n}": (lambda n=n: self._static(n)) for n in STATIC_FILES})
        self._dispatch(routes)

    do_HEAD = do_GET

    def do_POST(self) -> None:  # noqa: N802 - stdlib name
        self._dispatch({"/api/move": self._post_move, "/api/new": self._post_new,
                        "/api/hint": self._post_hint, "/api/resume": self._post_resume,
                        "/api/quit": self._post_quit})

    def _static(self, name: str) -> None:
        self._send(HTTPStatus.OK, self.server.static[name], STATIC_FILES[name])

    def _session(self) -> PlaySession:
        if self.server.session is None:
            raise _BadRequest(HTTPStatus.NOT_FOUND, "this server only replays records")
        return self.server.session

    def _query(self, key: str) -> str | None:
        query = self.path.split("?", 1)[1] if "?" in self.path else ""
        for k, _, v in (p.partition("=") for p in query.split("&")):
            if k == key:
                return v
        return None

    def _get_ping(self) -> None:
        # the page's heartbeat: cheap, takes no lock and claims nothing
        s = self.server.session
        self._json({"alive": True, "walk": None if s is None else s.walk + 1})

    def _get_state(self) -> None:
        s = self._session()
        tab = self._query("tab")
        with s.lock:
            # a page that (re)loads owns the game; an older tab is told on its next move
            s.claim(tab if tab and _TAB.match(tab) else None)
            self._json(s.state(full=True))

    def _post_move(self) -> None:
        body = self._body()
        usage = ('the body must be {"action": one of N E S W F L R U, "t": seconds} '
                 f'or {{"moves": [[action, t], ...]}} (at most {MAX_BATCH})')
        if not set(body) <= {"action", "t", "moves", "tab"} or \
                ("action" in body) == ("moves" in body):
            raise _BadRequest(HTTPStatus.BAD_REQUEST, usage)
        moves = body["moves"] if "moves" in body else [[body["action"], body.get("t")]]
        if not (isinstance(moves, list) and 0 < len(moves) <= MAX_BATCH):
            raise _BadRequest(HTTPStatus.BAD_REQUEST, usage)
        for m in moves:
            if not (isinstance(m, list) and len(m) == 2 and isinstance(m[0], str)
                    and (m[1] is None or _is_time(m[1]))):
                raise _BadRequest(HTTPStatus.BAD_REQUEST, usage)
        s = self._session()
        with s.lock:
            s.check_tab(_tab_of(body))
            self._json(s.act(*moves[0]) if "action" in body else s.act_many(moves))

    def _post_hint(self) -> None:
        body = self._body()
        if not set(body) <= {"t", "tab"} or not (body.get("t") is None or _is_time(body["t"])):
            raise _BadRequest(HTTPStatus.BAD_REQUEST,
                              'the body must be {"t": seconds} (the page\'s clock)')
        s = self._session()
        with s.lock:
            s.check_tab(_tab_of(body))
            self._json(s.hint(body.get("t")))

    def _post_new(self) -> None:
        body = self._body()
        extra = set(body) - {"mode", "radius", "next", "tab", "controls", *PAGE_KEYS}
        if extra:
            raise _BadRequest(HTTPStatus.BAD_REQUEST, f"unknown keys {sorted(extra)[:8]}")
        mode, radius, nxt = body.get("mode"), body.get("radius"), body.get("next", True)
        controls = body.get("controls")
        if controls is not None and not isinstance(controls, str):
            raise ParameterError(f"controls must be a string, got {controls!r}")
        if mode is not None and not isinstance(mode, str):
            raise ParameterError(f"mode must be a string, got {mode!r}")
        if radius is not None and (isinstance(radius, bool) or not isinstance(radius, int)):
            raise ParameterError(f"radius must be an integer, got {radius!r}")
        if not isinstance(nxt, bool):
            raise ParameterError(f"next must be true or false, got {nxt!r}")
        # the maze keys are checked by robomaze.web.worlds.check_page_spec
        world = {k: body.get(k) for k in PAGE_KEYS}
        s = self._session()
        with s.lock:
            s.check_tab(_tab_of(body))
            self._json(s.new_walk(mode=mode, radius=radius, advance=nxt, controls=controls,
                                  **world))

    def _post_resume(self) -> None:
        body = self._body()
        index = body.get("record")
        if not set(body) <= {"record", "tab"} or isinstance(index, bool) or \
                not isinstance(index, int):
            raise _BadRequest(HTTPStatus.BAD_REQUEST,
                              'the body must be {"record": index} (a record the state offers)')
        s = self._session()
        with s.lock:
            s.check_tab(_tab_of(body))
            self._json(s.resume(index))

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
        self._json({"index": i, "name": shelf.paths[i].name, "label": shelf.listing()[i]["label"],
                    "palette": self.server.palette, "palettes": PALETTES,
                    **record_payload(rec)})

    def _get_record_file(self, i: int) -> None:
        shelf = self._shelf()
        if not 0 <= i < len(shelf):
            raise _BadRequest(HTTPStatus.NOT_FOUND, f"no record {i}")
        # the name is one the server gave (walk-NNN.jsonl) or was given on its command line
        name = re.sub(r"[^A-Za-z0-9._-]", "_", shelf.paths[i].name)
        # the bytes read when the record was added, never the file as it is now
        self._send(HTTPStatus.OK, shelf.data(i), "application/x-ndjson",
                   {"Content-Disposition": f'attachment; filename="{name}"'})


_TAB = re.compile(r"^[A-Za-z0-9_-]{1,40}$")


def _tab_of(body: dict) -> str | None:
    tab = body.get("tab")
    if tab is not None and not (isinstance(tab, str) and _TAB.match(tab)):
        raise ParameterError(f"tab must be 1-40 letters, digits, - or _, got {tab!r}")
    return tab


def _is_time(v) -> bool:
    return (isinstance(v, (int, float)) and not isinstance(v, bool)
            and 0 <= v < 1e7)


def _depth(raw: bytes) -> int:
    """Deepest nesting of ``[``/``{`` outside strings (checked before parsing:
    ``json`` recurses once per level)."""
    depth = deepest = 0
    in_str = esc = False
    for b in raw:
        if in_str:
            if esc:
                esc = False
            elif b == 0x5C:
                esc = True
            elif b == 0x22:
                in_str = False
        elif b == 0x22:
            in_str = True
        elif b in (0x5B, 0x7B):
            depth += 1
            deepest = max(deepest, depth)
        elif b in (0x5D, 0x7D):
            depth -= 1
    return deepest


def _is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class _Server(HTTPServer):
    """An HTTP server with a deep listen backlog and a bounded pool of workers.

    The accept loop hands each connection to one of :data:`WORKERS` threads
    through a queue of at most :data:`PENDING`; beyond that a connection is
    answered 503 at once rather than left to time out (a thread per
    connection, as ``ThreadingHTTPServer`` does, has no bound at all).
    """

    request_queue_size = BACKLOG
    allow_reuse_address = True
    token: str | None = None

    def __init__(self, address, handler, *, workers: int = WORKERS) -> None:
        super().__init__(address, handler)
        self._jobs: queue.Queue = queue.Queue(maxsize=PENDING)
        self._workers = [threading.Thread(target=self._work, daemon=True,
                                          name=f"robomaze-web-{i}") for i in range(workers)]
        for t in self._workers:
            t.start()

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            request, client_address = job
            try:
                self.finish_request(request, client_address)
            except Exception:
                self.handle_error(request, client_address)
            finally:
                self.shutdown_request(request)

    def process_request(self, request, client_address) -> None:
        try:
            self._jobs.put_nowait((request, client_address))
        except queue.Full:
            try:
                request.sendall(b"HTTP/1.0 503 Service Unavailable\r\nContent-Length: 0\r\n"
                                b"Connection: close\r\nRetry-After: 1\r\n"
                                + b"".join(f"{k}: {v}\r\n".encode()
                                           for k, v in _SECURITY_HEADERS.items()) + b"\r\n")
            except OSError:
                pass
            self.shutdown_request(request)

    def server_close(self) -> None:
        super().server_close()
        for _ in self._workers:
            try:
                self._jobs.put_nowait(None)
            except queue.Full:
                break

    def handle_error(self, request, client_address) -> None:
        # a client that hangs up mid-answer is routine, not a traceback
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)
    session: PlaySession | None
    shelf: RecordShelf
    static: dict[str, bytes]
    allowed_hosts: frozenset[str] | None
    log: Callable[[str], None] | None


def url_of(server: HTTPServer, page: str = "/") -> str:
    """The address a browser opens for ``page`` of ``server`` (with its token, if any)."""
    host, port = server.server_address[:2]
    host = f"[{host}]" if ":" in host else host
    token = getattr(server, "token", None)
    if token is not None:
        page += ("&" if "?" in page else "?") + f"token={token}"
    return f"http://{host}:{port}{page}"


def make_server(session: PlaySession | None = None, *, shelf: RecordShelf | None = None,
                host: str = "127.0.0.1", port: int = 0,
                log: Callable[[str], None] | None = None,
                token: str | None = None,
                palette: str | None = None) -> HTTPServer:
    """A server for the play page of ``session`` (or, without one, only the
    replay page of ``shelf``); call ``serve_forever()`` on it.

    ``port=0`` picks any free port (read it from ``server.server_address``).
    ``log`` receives one line per request (default: silent). Bound to an
    address that is not loopback, every request needs ``token`` (default a
    fresh random one; :func:`url_of` includes it).

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
    srv.palette = check_palette(palette or (session.palette if session is not None
                                            else DEFAULT_PALETTE))
    srv.token = None if _is_loopback(host) else (token or secrets.token_urlsafe(18))
    bound = srv.server_address[1]
    names = {host.lower(), "localhost", "127.0.0.1", "[::1]"}
    if host in ("", "0.0.0.0", "::"):
        # bound to every interface on purpose: any name the user reaches it by
        srv.allowed_hosts = None
    else:
        srv.allowed_hosts = frozenset({f"{n}:{bound}" for n in names} | names)
    return srv
