"""Issue 35 item 7 and issue 38's URL: error pages with headers, ``gen`` never a
file, a deep backlog and a bounded pool, seeds wrapped on "next", the world
spec in the URL, and going on with a walk a stopped server left."""

import json
import socket
import threading

import pytest

from robomaze.errors import ParameterError
from robomaze.maze import Maze
from robomaze.traverse import read_record
from robomaze.web import PlaySession
from robomaze.web.server import BACKLOG, WORKERS
from robomaze.web.worlds import (SEED_LIMIT, build_page_world, check_page_spec, next_seed,
                                 world_spec)
from web_helpers import SNAKE, SNAKE_ACTIONS, SNAKE_ROUTE, PageView, ServerThread, get_json

SECURITY = ("Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy",
            "Cache-Control")
CUR = {"gen": "kruskal", "size": [5, 5], "seed": 1, "braid": 0.0, "placement": "corners",
       "corridor": None, "wall": None}


def _raw(srv, data: bytes) -> bytes:
    host, port = srv.server.server_address[:2]
    with socket.create_connection((host, port), timeout=10) as sock:
        sock.sendall(data)
        sock.shutdown(socket.SHUT_WR)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


@pytest.fixture()
def served(tmp_path):
    session = PlaySession(None, tmp_path / "walks", spec=dict(CUR),
                          generators=["kruskal", "wilson"])
    srv = ServerThread(session)
    yield srv, session
    srv.stop()


@pytest.mark.parametrize("raw, status", [
    (b"GARBAGE\r\n\r\n", 400),                       # one word: parsed as HTTP/0.9
    (b"GET /\r\n\r\n", 505),                          # a real HTTP/0.9 request
    (b"GET / HTTP/9.9\r\n\r\n", 505),
    (b"GET / HTTP/x.y\r\n\r\n", 400),
    (b"POST / <script>alert(1)</script>\r\n\r\n", 400),
])
def test_http09_style_error_pages_have_a_status_line_and_every_header(served, raw, status):
    srv, _ = served
    answer = _raw(srv, raw)
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    assert lines[0].startswith("HTTP/1.0 %d " % status), lines[0]
    headers = dict(line.split(": ", 1) for line in lines[1:])
    for name in SECURITY:
        assert name in headers, name
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert json.loads(body) == {"error": json.loads(body)["error"]}
    # nothing of the request is reflected
    assert b"GARBAGE" not in answer and b"script" not in answer and b"x.y" not in answer


@pytest.mark.parametrize("gen", ["a" * 900, "/etc/passwd", "/nonexistent/file",
                                 "../../../etc/hostname", ".", "kruskal/../kruskal"])
def test_gen_is_a_registered_name_never_a_file(served, gen):
    srv, session = served
    status, err = get_json(srv.url + "api/new", {"gen": gen, "size": "4x4", "next": False})
    assert status == 400
    msg = err["error"]
    assert msg.startswith("gen must be one of kruskal, wilson, got ")
    assert len(msg) < 120                      # a 900-character name is not echoed whole
    assert session.spec["gen"] == "kruskal"


def test_an_existing_and_a_missing_file_get_the_same_answer(served, tmp_path):
    srv, _ = served
    real = tmp_path / "maze.txt"
    real.write_text("x")
    answers = [get_json(srv.url + "api/new", {"gen": str(p), "size": "4x4"})
               for p in (real, tmp_path / "missing.txt")]
    assert [a[0] for a in answers] == [400, 400]
    assert answers[0][1]["error"].replace(str(real), "P") == \
        answers[1][1]["error"].replace(str(tmp_path / "missing.txt"), "P")


def test_next_after_the_last_seed_wraps_to_zero(served):
    srv, session = served
    status, st = get_json(srv.url + "api/new", {"seed": SEED_LIMIT - 1, "next": False})
    assert status == 200 and st["spec"]["seed"] == SEED_LIMIT - 1
    status, st = get_json(srv.url + "api/new", {"next": True})
    assert status == 200 and st["spec"]["seed"] == 0
    status, st = get_json(srv.url + "api/new", {"next": True})
    assert st["spec"]["seed"] == 1
    for bad in (SEED_LIMIT, 2 ** 64, -1, 1.5, "3"):
        status, err = get_json(srv.url + "api/new", {"seed": bad})
        assert status == 400 and "seed" in err["error"], bad
    assert next_seed(SEED_LIMIT - 1) == 0 and next_seed(0) == 1


def test_the_cli_refuses_a_seed_the_page_could_not_name(capsys):
    from robomaze.cli import main

    assert main(["play", "kruskal", "4x4", "--seed", str(SEED_LIMIT), "--web",
                 "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--seed must be below 2**63" in err


def test_page_spec_round_trips_through_world_spec_and_builds_generate_s_maze():
    spec = check_page_spec({"gen": "wilson", "size": "6x7", "seed": 4, "braid": 0.5,
                            "placement": "centre", "corridor": 3, "wall": 2}, CUR,
                            ["kruskal", "wilson"])
    ws = world_spec(spec)
    assert type(ws).from_dict(ws.to_dict()) == ws
    assert (ws.generator, ws.rows, ws.cols, ws.seed, ws.braid, ws.placement, ws.corridor,
            ws.wall) == ("wilson", 6, 7, 4, 0.5, "centre", 3, 2)
    grid, source = build_page_world(spec)
    from robomaze.cli._world import build_maze
    from robomaze.grid import widen

    ref = widen(build_maze("wilson", 6, 7, seed=4, braid=0.5, placement="centre"),
                corridor=3, wall=2)
    assert (grid.occupied == ref.occupied).all()
    assert source["corridor"] == 3 and source["braid"] == 0.5
    # corridor 0 (or None) is a walk cell by cell
    maze, _ = build_page_world({**spec, "corridor": 0})
    assert isinstance(maze, Maze)


@pytest.mark.parametrize("bad, key", [
    ({"braid": 1.5}, "braid"), ({"braid": float("nan")}, "braid"),
    ({"placement": "moon"}, "placement"), ({"corridor": 99}, "corridor"),
    ({"corridor": 2, "wall": -1}, "wall"), ({"size": "200x200", "corridor": 8}, "square"),
    ({"size": "1" * 40}, "size"), ({"other": 1}, "unknown"),
])
def test_bad_page_specs_are_one_line_naming_the_key(bad, key):
    with pytest.raises(ParameterError, match=key) as exc:
        check_page_spec(bad, CUR, ["kruskal"])
    assert "\n" not in str(exc.value)


def test_many_parallel_clients_are_all_answered(served):
    # the benchmark (benchmarks/web_clients.py) times 200; here only that none is dropped
    srv, _ = served
    assert srv.server.request_queue_size == BACKLOG >= 256
    assert sum(t.name.startswith("robomaze-web-") for t in threading.enumerate()) >= WORKERS
    results = []

    def client():
        results.append(get_json(srv.url + "api/ping")[0])

    threads = [threading.Thread(target=client) for _ in range(120)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert results == [200] * 120
    # the pool stays bounded: no thread per connection
    assert sum(t.name.startswith("robomaze-web-") for t in threading.enumerate()) <= WORKERS


def test_a_move_reply_is_a_delta_that_rebuilds_the_page_s_view(tmp_path):
    big = Maze.from_edges(3, 3, [0, 1, 2, 5, 4, 3, 6, 7], [1, 2, 5, 4, 3, 6, 7, 8],
                          start=(0, 0), goals=[(2, 2)])
    s = PlaySession(lambda i: (big, None), tmp_path, mode="torch")
    view = PageView(s.state(full=True))
    for a in SNAKE_ACTIONS[:-1] + ["U", "U"]:
        d = view.update(s.act(a))
        assert d["delta"] and "walls" not in d and "trail" not in d
        full = s.state()
        view.seq = full["seq"]        # the inspection above is itself a new base
        assert view.walls == full["walls"] and view.trail == full["trail"]


def test_a_restarted_server_lists_the_folder_and_continues_the_walk(tmp_path):
    walks = tmp_path / "walks"
    first = PlaySession(lambda i: (SNAKE, {"generator": "snake"}), walks, mode="trail")
    for i, a in enumerate(SNAKE_ACTIONS[:4]):
        first.act(a, 0.5 * (i + 1))
    first.hint(2.5)
    # the process is killed: nothing more is written. A new server starts:
    again = PlaySession(lambda i: (SNAKE, {"generator": "snake"}), walks, mode="full")
    assert [p.name for p in again.shelf.paths] == ["walk-001.jsonl"]
    st = again.state(full=True)
    assert st["resume"] == {"index": 0, "name": "walk-001.jsonl", "moves": 4, "mode": "trail"}
    st = again.resume(0)
    assert st["moves"] == 4 and st["hints"] == 1 and st["mode"] == "trail"
    r, c = SNAKE_ROUTE[4]
    assert st["position"] == [2 * r + 1, 2 * c + 1]
    for i, a in enumerate(SNAKE_ACTIONS[4:]):
        st = again.act(a, 3.0 + i)
    assert st["finished"]
    rec = read_record(walks / "walk-001.jsonl")
    assert rec.reached_goal and rec.n_moves == len(SNAKE_ACTIONS) and rec.n_hints == 1
    assert not (walks / "walk-002.jsonl").exists()
    assert [r["name"] for r in again.shelf.listing()] == ["walk-001.jsonl"]   # one record
    # a finished record is not offered again, nor one of another maze
    fresh = PlaySession(lambda i: (SNAKE, {"generator": "snake"}), walks)
    assert fresh.state(full=True)["resume"] is None
    # nor a walk this server closed itself (the player restarted: they left it)
    fresh.act("E")
    fresh.new_walk(advance=False)
    assert read_record(walks / "walk-002.jsonl").n_moves == 1
    assert fresh.state(full=True)["resume"] is None
    with pytest.raises(ParameterError, match="cannot be continued|not an unfinished"):
        fresh.resume(0)
