"""The HTTP server: fixed routes, validated input, records by index, security headers."""

import json

import pytest

from robomaze.traverse import read_record
from robomaze.web import MAX_BODY, STATIC_FILES, PlaySession, RecordShelf
from web_helpers import SNAKE, SNAKE_ACTIONS, SNAKE_ROUTE, ServerThread, get_json, request


@pytest.fixture()
def served(tmp_path):
    session = PlaySession(lambda i: (SNAKE, {"walk": i}), tmp_path / "walks")
    srv = ServerThread(session)
    yield srv, session, tmp_path / "walks"
    srv.stop()


def test_pages_and_static_files_are_served_with_types_and_headers(served):
    srv, _, _ = served
    status, headers, body = request(srv.url)
    assert status == 200 and b"<canvas" in body and b"play.js" in body
    assert headers["Content-Type"].startswith("text/html")
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"
    for name, ctype in STATIC_FILES.items():
        status, headers, body = request(srv.url + "static/" + name)
        assert status == 200 and headers["Content-Type"] == ctype and body
    status, _, body = request(srv.url + "replay")
    assert status == 200 and b"replay.js" in body
    # no CDN, no remote resource: the pages work offline
    for name in STATIC_FILES:
        assert b"http://" not in request(srv.url + "static/" + name)[2]
        assert b"https://" not in request(srv.url + "static/" + name)[2]


@pytest.mark.parametrize("path", [
    "static/../server.py", "static/%2e%2e/server.py", "static/", "static/play.py",
    "records/../../etc/passwd", "records/0.jsonl", "api/record/0", "api/record/-1",
    "api/record/x", "../../etc/passwd", "favicon.ico", "static/style.css/x",
])
def test_no_request_path_reaches_the_file_system(served, path):
    srv, _, _ = served
    status, _, body = request(srv.url + path)
    assert status == 404 and "error" in json.loads(body)


def test_a_walk_over_http_is_recorded_by_the_server(served):
    srv, session, walks = served
    status, st = get_json(srv.url + "api/state")
    assert status == 200 and st["picture"]["rows"] == 7 and st["moves"] == 0
    for a in SNAKE_ACTIONS:
        status, st = get_json(srv.url + "api/move", {"action": a})
        assert status == 200
    assert st["outcome"] == "goal" and st["finished"] and st["score"]["summary"]["moves"] == 8
    rec = read_record(walks / "walk-001.jsonl")
    assert rec.positions.tolist() == [list(c) for c in SNAKE_ROUTE]
    status, headers, body = request(srv.url + "records/0.jsonl")
    assert status == 200 and body == (walks / "walk-001.jsonl").read_bytes()
    assert headers["Content-Disposition"] == 'attachment; filename="walk-001.jsonl"'
    status, listing = get_json(srv.url + "api/records")
    (item,) = listing
    label = item.pop("label")
    assert item == {"index": 0, "name": "walk-001.jsonl", "moves": 8, "bumps": 0, "hints": 0,
                    "reached_goal": True, "mode": "full"}
    assert label.startswith("full, 3x3 cell 20")  # mode, maze, date
    status, pay = get_json(srv.url + "api/record/0")
    assert status == 200 and len(pay["steps"]) == 8 and pay["name"] == "walk-001.jsonl"
    # moves after the goal are ignored, not recorded
    status, st = get_json(srv.url + "api/move", {"action": "W"})
    assert st["outcome"] == "ignored" and st["moves"] == 8
    status, st = get_json(srv.url + "api/new", {"mode": "explorer", "radius": 1, "next": True})
    assert status == 200 and st["walk"] == 2 and st["mode"] == "explorer" and st["moves"] == 0


@pytest.mark.parametrize("body,headers,status", [
    (b'{"action": "E"}', {"Content-Type": "text/plain"}, 415),
    (b'{"action": "E"}', {}, 415),
    (b'{"action": "E"' + b" " * MAX_BODY + b"}", {"Content-Type": "application/json"}, 413),
    (b'{"action": ', {"Content-Type": "application/json"}, 400),
    (b'["E"]', {"Content-Type": "application/json"}, 400),
    (b'{"action": "X"}', {"Content-Type": "application/json"}, 400),
    (b'{"action": 3}', {"Content-Type": "application/json"}, 400),
    (b'{"action": "E", "row": 9}', {"Content-Type": "application/json"}, 400),
    (b'\xff\xfe', {"Content-Type": "application/json"}, 400),
])
def test_bad_move_requests_are_refused_and_change_nothing(served, body, headers, status):
    srv, session, _ = served
    got, _, data = request(srv.url + "api/move", raw=body, headers=headers)
    assert got == status and "error" in json.loads(data)
    assert session.game.moves == 0 and session.game.bumps == 0


@pytest.mark.parametrize("body", [
    {"mode": "dark"}, {"radius": 99}, {"radius": "2"}, {"radius": True}, {"next": "yes"},
    {"mode": 1}, {"colour": "red"},
])
def test_bad_new_walk_requests_are_refused(served, body):
    srv, session, _ = served
    status, data = get_json(srv.url + "api/new", body)
    assert status == 400 and "error" in data and session.walk == 0


def test_foreign_host_header_is_refused(served):
    srv, _, _ = served
    status, _, body = request(srv.url + "api/state", headers={"Host": "attacker.example:80"})
    assert status == 403 and b"Host" in body


def test_binds_localhost_by_default(served):
    srv, _, _ = served
    assert srv.server.server_address[0] == "127.0.0.1"


def test_quit_stops_the_server(tmp_path):
    session = PlaySession(lambda i: (SNAKE, None), tmp_path)
    srv = ServerThread(session)
    status, data = get_json(srv.url + "api/quit", {})
    assert status == 200 and data == {"bye": True}
    srv.thread.join(5)
    assert not srv.thread.is_alive()
    srv.server.server_close()


def test_replay_only_server(tmp_path):
    session = PlaySession(lambda i: (SNAKE, None), tmp_path)
    for a in SNAKE_ACTIONS:
        session.act(a)
    srv = ServerThread(shelf=RecordShelf([tmp_path / "walk-001.jsonl"]))
    try:
        status, _, body = request(srv.url)
        assert status == 200 and b"replay.js" in body
        assert get_json(srv.url + "api/state")[0] == 404
        assert get_json(srv.url + "api/move", {"action": "E"})[0] == 404
        status, pay = get_json(srv.url + "api/record/0")
        assert status == 200 and pay["reached_goal"] and len(pay["steps"]) == 8
    finally:
        srv.stop()


def test_unwritable_record_folder_is_a_clear_500(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    session = PlaySession(lambda i: (SNAKE, None), blocker / "walks")
    srv = ServerThread(session)
    try:
        # the record is written from the first move on: that move is refused, not lost later
        status, data = get_json(srv.url + "api/move", {"action": SNAKE_ACTIONS[0]})
        assert status == 500 and "cannot save" in data["error"]
        assert session.game.moves == 0
        assert get_json(srv.url + "api/state")[0] == 200  # the server lives on
    finally:
        srv.stop()
