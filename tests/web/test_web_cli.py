"""play --web and replay --web from the command line."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from robomaze.cli import main
from robomaze.web import PlaySession
from web_helpers import SNAKE, SNAKE_ACTIONS, get_json

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("argv,message", [
    (["play", "backtracker", "4x4", "--web", "-o", "w.jsonl"], "--record-dir"),
    (["play", "backtracker", "4x4", "--web", "--port", "70000"], "--port"),
    (["play", "backtracker", "4x4", "--web", "--port", "x"], "--port"),
    (["play", "backtracker", "4x4", "--web", "--radius", "-1"], "--radius"),
    (["play", "nosuchgen", "4x4", "--web", "--port", "0"], "nosuchgen"),
    (["replay", "a.jsonl", "b.jsonl"], "one RECORD"),
    (["replay", "a.jsonl", "--web", "-o", "x.gif"], "exclude"),
])
def test_bad_web_arguments_fail_in_one_line(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse usage errors exit from inside
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err
    assert not (tmp_path / "walks").exists()


def _spawn(argv):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "robomaze", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    for line in proc.stdout:
        if line.startswith("serving "):
            return proc, line.split()[1]
    proc.kill()
    pytest.fail("no URL printed: " + proc.stderr.read())


def test_replay_web_serves_the_given_records_and_quits(tmp_path):
    session = PlaySession(lambda i: (SNAKE, None), tmp_path)
    for a in SNAKE_ACTIONS:
        session.act(a)
    rec = tmp_path / "walk-001.jsonl"
    proc, url = _spawn(["replay", str(rec), str(rec), "--web", "--port", "0"])
    try:
        assert url.endswith("/replay")
        base = url[: -len("replay")]
        status, listing = get_json(base + "api/records")
        assert status == 200 and [r["name"] for r in listing] == ["walk-001.jsonl"] * 2
        status, pay = get_json(base + "api/record/1")
        assert status == 200 and len(pay["steps"]) == 8
        assert get_json(base + "api/quit", {})[1] == {"bye": True}
        assert proc.wait(20) == 0
    finally:
        proc.kill()


def test_play_web_host_option_and_walks_dir(tmp_path):
    proc, url = _spawn(["play", "backtracker", "3x3", "--seed", "2", "--web", "--port", "0",
                        "--host", "localhost", "--record-dir", str(tmp_path / "mine"),
                        "--mode", "theseus"])
    try:
        assert url.startswith("http://127.0.0.1:") or url.startswith("http://localhost:")
        status, st = get_json(url + "api/state")
        assert status == 200 and st["mode"] == "theseus" and st["picture"]["rows"] == 7
        get_json(url + "api/move", {"action": "L"})
        get_json(url + "api/new", {"next": True})  # saves the unfinished walk
        assert [p.name for p in (tmp_path / "mine").iterdir()] == ["walk-001.jsonl"]
        line = (tmp_path / "mine" / "walk-001.jsonl").read_text().splitlines()[0]
        assert json.loads(line)["source"]["seed"] == 2
        assert get_json(url + "api/quit", {})[0] == 200
        assert proc.wait(20) == 0
    finally:
        proc.kill()


def test_play_web_off_loopback_prints_a_token_url_and_names_mazes_like_generate(tmp_path):
    proc, url = _spawn(["play", "backtracker", "4x5", "--seed", "3", "--web", "--port", "0",
                        "--host", "0.0.0.0", "--record-dir", str(tmp_path / "w"),
                        "--palette", "paper"])
    try:
        assert "?token=" in url
        token = url.split("?token=")[1]
        base = url.split("?")[0].replace("0.0.0.0", "127.0.0.1")
        assert get_json(base + "api/state")[0] == 403
        status, st = get_json(base + "api/state?token=" + token)
        assert status == 200 and st["palette"] == "paper" and "wilson" in st["generators"]
        assert st["spec"] == {"gen": "backtracker", "size": [4, 5], "seed": 3, "braid": 0.0,
                              "placement": "corners", "corridor": None, "wall": None}
        # a page naming another maze gets the one `robomaze generate` makes
        status, st = get_json(base + f"api/new?token={token}",
                              {"gen": "wilson", "size": "5x6", "seed": 8, "next": False})
        assert status == 200 and st["spec"]["gen"] == "wilson" and st["spec"]["seed"] == 8
        assert main(["generate", "wilson", "5x6", "--seed", "8", "-o",
                     str(tmp_path / "m.json")]) == 0
        from robomaze.cli._world import load

        assert st["picture"]["walls"] == ["".join("#" if v else "." for v in row) for row in
                                          load(tmp_path / "m.json").to_matrix()]
        status, err = get_json(base + f"api/new?token={token}", {"gen": "nosuchgen",
                                                                 "next": False})
        assert status == 400 and "nosuchgen" in err["error"]
        assert get_json(base + f"api/quit?token={token}", {})[0] == 200
        assert proc.wait(20) == 0
    finally:
        proc.kill()
