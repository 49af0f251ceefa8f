"""The server against hostile clients (issue 20): deep JSON, early hang-ups,
the standard library's own error pages, a token off loopback, records read once."""

import json
import os
import socket
import struct
import time

import pytest

from robomaze.web import PlaySession, RecordShelf, make_server, url_of
from web_helpers import SNAKE, SNAKE_ACTIONS, ServerThread, get_json, request

SECURITY = ("Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy",
            "Cache-Control")


@pytest.fixture()
def served(tmp_path):
    session = PlaySession(lambda i: (SNAKE, None), tmp_path / "walks")
    srv = ServerThread(session)
    yield srv, session
    srv.stop()


def _raw(srv, data: bytes) -> tuple[int, dict, bytes]:
    """Send raw bytes; the status line, headers and body of the answer."""
    host, port = srv.server.server_address[:2]
    with socket.create_connection((host, port), timeout=10) as sock:
        sock.sendall(data)
        sock.shutdown(socket.SHUT_WR)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    head, _, body = b"".join(chunks).partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
    return status, headers, body


@pytest.mark.parametrize("body", [b"[" * 1000, b'{"action": ' + b"[" * 1000,
                                  b'{"a": ' * 120 + b"1" + b"}" * 120])
def test_deeply_nested_json_is_a_400_not_a_dead_handler(served, body):
    srv, session = served
    assert len(body) <= 1024
    status, _, data = request(srv.url + "api/move", raw=body,
                              headers={"Content-Type": "application/json"})
    assert status == 400 and "deep" in json.loads(data)["error"]
    assert session.game.moves == 0
    assert get_json(srv.url + "api/state")[0] == 200  # the server lives on


@pytest.mark.parametrize("raw,status", [
    (b"GET / extra HTTP/1.1\r\n\r\n", 400),                     # bad request syntax
    (b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\n\r\n", 414),            # URI too long
    (b"GET / HTTP/1.1\r\n" + b"X-A: b\r\n" * 120 + b"\r\n", 431),     # too many headers
    (b"BREW / HTTP/1.1\r\nHost: x\r\n\r\n", 501),                     # unsupported method
])
def test_standard_library_error_pages_carry_the_security_headers(served, raw, status):
    srv, _ = served
    got, headers, _ = _raw(srv, raw)
    assert got == status
    for name in SECURITY:
        assert name in headers, (status, name)
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Cache-Control"] == "no-store"


def test_clients_that_hang_up_early_leave_no_traceback(served, capfd):
    srv, session = served
    host, port = srv.server.server_address[:2]
    for partial in (b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n",   # mid-headers
                    b"GET /static/play.js HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port):
        for _ in range(10):
            sock = socket.create_connection((host, port), timeout=10)
            # close with a reset (linger 0), as a killed browser does
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.sendall(partial)
            sock.close()
    time.sleep(0.5)
    assert get_json(srv.url + "api/state")[0] == 200
    # and the hook itself: connection errors are silent, others are not
    for exc, loud in ((BrokenPipeError(), False), (ConnectionResetError(), False),
                      (RuntimeError("boom"), True)):
        try:
            raise exc
        except Exception:
            srv.server.handle_error(None, ("127.0.0.1", 1))
        err = capfd.readouterr().err
        assert ("Traceback" in err) == loud, (exc, err)


def test_off_loopback_every_request_needs_the_random_token(tmp_path):
    session = PlaySession(lambda i: (SNAKE, None), tmp_path / "walks")
    srv = make_server(session, host="0.0.0.0", port=0)
    other = make_server(PlaySession(lambda i: (SNAKE, None), tmp_path / "w2"),
                        host="0.0.0.0", port=0)
    try:
        assert srv.token and other.token and srv.token != other.token
        assert len(srv.token) >= 20
        url = url_of(srv)
        assert url.endswith("/?token=" + srv.token)
        import threading

        threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05},
                         daemon=True).start()
        base = "http://127.0.0.1:%d/" % srv.server_address[1]
        for path in ("", "api/state", "static/play.js", "api/records", "replay"):
            status, _, body = request(base + path)
            assert status == 403 and b"token" in body, path
        assert request(base + "api/state?token=" + "x" * 24)[0] == 403
        status, _ = get_json(base + "api/move", {"action": "E"})
        assert status == 403 and session.game.moves == 0
        # the printed URL works and hands the page a strict cookie for its requests
        status, headers, body = request(base + "?token=" + srv.token)
        assert status == 200 and b"<canvas" in body
        cookie = headers["Set-Cookie"]
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
        jar = {"Cookie": cookie.split(";")[0]}
        assert request(base + "api/state", headers=jar)[0] == 200
        status, st = get_json(base + "api/move", {"action": "E"}, headers=jar)
        assert status == 200 and st["moves"] == 1
        assert request(base + "api/state", headers={"Cookie": "robomaze_token=nope"})[0] == 403
    finally:
        srv.shutdown()
        srv.server_close()
        other.server_close()


def test_loopback_servers_need_no_token(served):
    srv, _ = served
    assert srv.server.token is None and "token" not in srv.url
    assert request(srv.url + "api/state")[0] == 200


def test_replay_server_serves_the_bytes_read_at_start(tmp_path):
    session = PlaySession(lambda i: (SNAKE, None), tmp_path)
    for a in SNAKE_ACTIONS:
        session.act(a)
    path = tmp_path / "walk-001.jsonl"
    original = path.read_bytes()
    srv = ServerThread(shelf=RecordShelf([path]))
    try:
        secret = tmp_path / "secret.txt"
        secret.write_text("not for the page\n")
        path.unlink()
        path.symlink_to(secret)           # a link swapped in after the start
        status, _, body = request(srv.url + "records/0.jsonl")
        assert status == 200 and body == original
        path.unlink()
        os.mkfifo(path)  # a FIFO swapped in: a hang would be request()'s 10 s timeout error
        status, _, body = request(srv.url + "records/0.jsonl")
        assert status == 200 and body == original
        status, pay = get_json(srv.url + "api/record/0")
        assert status == 200 and len(pay["steps"]) == len(SNAKE_ACTIONS)
    finally:
        srv.stop()
