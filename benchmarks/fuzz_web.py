"""Fuzz the web game's server with hostile requests (issue 35, item 7).

One real server (``python -m robomaze play GEN SIZE --web --port 0``) runs
as a separate process with its ``HOME`` and ``TMPDIR`` inside its own
folder; the driver sends it one hostile request per case over a raw socket
and then checks:

* the answer: either a well-formed ``HTTP/1.x NNN`` status line with a code
  below 500, carrying the security headers every page carries
  (``X-Content-Type-Options``, ``Content-Security-Policy``...), or -- for a
  request that is not HTTP at all -- a closed connection;
* the server is still there: ``GET /api/ping`` answers 200 within 5 s;
* its stderr holds no Python traceback;
* nothing was written outside its record folder (the server's folder, the
  driver's work folder and the project tree are compared with their state
  before the case; numba's and Python's caches aside), and the record
  folder holds only ``walk-NNN.jsonl`` files;
* its peak memory (``VmHWM``) stays under ``--max-rss`` (default 600 MB).

Requests: junk bytes, malformed request lines, HTTP/0.9 and 2.0, a 70 KB
URL, 300 headers, a 70 KB header, no ``Host``, a foreign ``Host``,
``Content-Length`` missing / negative / huge / lying (shorter body: the
server's socket timeout must end it without blocking others), every method
(``PUT``, ``DELETE``, ``TRACE``, ``CONNECT``...), static-file traversal
(``/static/../../etc/passwd``, percent-encoded), record indexes (negative,
2^64, ``../``), and each JSON API (``/api/new``, ``/api/move``,
``/api/hint``, ``/api/resume``, ``/api/quit`` is never sent) with hostile
values for every key: paths and ``pkg:`` names for ``gen`` (no file-system
lookup may follow from a request), huge and non-finite numbers, wrong
types, deep nesting, invalid UTF-8, unknown keys, 1 MB bodies.

Usage::

    python benchmarks/fuzz_web.py --cases 2000 --out /tmp/fuzz-web --seed 1

writes ``summary.json`` (counts per request kind and status, every failure
with its request) in ``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from fuzz_inputs import HUGE, WRONG_JSON, _deep, outside_writes, tree_state  # noqa: E402

SECURITY = ("x-content-type-options", "content-security-policy", "referrer-policy")
GENS = ["/etc/passwd", "../../etc/passwd", "pkg:mazes/none.maze", "pkg:", "~/.bashrc",
        "/dev/zero", "kruskal\x00", "KRUSKAL", "prim ", "", "a" * 5000, "wilson/../wilson",
        str(ROOT / "README.md"), "file:///etc/passwd", "\u202ekruskal", "nan"]
PATHS = ["/static/../../etc/passwd", "/static/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2fetc/passwd",
         "/api/records/-1", "/api/records/18446744073709551616", "/api/records/../../x",
         "/api/records/0/file", "/api/records/99999/file", "/api/records/1e3",
         "//etc/passwd", "/%00", "/api/state?tab=" + "x" * 5000, "/api/state?tab=%00",
         "/?gen=/etc/passwd&size=9999999x9999999&seed=-1", "/replay?record=../../x",
         "/static/", "/static/play.js%00.png", "/api/ping?" + "&".join(["a=b"] * 3000),
         "/" + "a" * 70000, "*", "http://evil.example/", "/api/new", "/api/move"]
METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "TRACE", "CONNECT", "PATCH",
           "BREW", "get", "G\x00ET", "X" * 3000]


def _value(rng):
    pick = rng.random()
    if pick < 0.3:
        return json.loads(rng.choice(WRONG_JSON).replace("NaN", "null")
                          .replace("Infinity", "1e999").replace("1e400", "1e308"))
    if pick < 0.55:
        text = rng.choice(HUGE)
        try:
            return json.loads(text)
        except ValueError:
            return text
    if pick < 0.7:
        return rng.choice(GENS)
    if pick < 0.8:
        return rng.choice(["3x3", "0x0", "1x99999", "200x200", "-5x5", "5x5x5", "x", "9" * 30,
                           [5, 5], [0, 0], [10 ** 30, 2], [5], ["5", "5"], [5.5, 5]])
    return rng.randint(-2 ** 70, 2 ** 70)


def _json_body(rng, route: str) -> bytes:
    keys = {"/api/new": ["gen", "size", "seed", "braid", "placement", "corridor", "wall",
                         "mode", "radius", "next", "controls", "tab"],
            "/api/move": ["action", "t", "moves", "tab"],
            "/api/hint": ["t", "tab"],
            "/api/resume": ["record", "tab"]}[route]
    good = {"/api/new": {"gen": "kruskal", "size": "6x6", "seed": 1},
            "/api/move": {"action": "N", "t": 1.0},
            "/api/hint": {"t": 2.0},
            "/api/resume": {"record": 0}}[route]
    body = dict(good)
    for _ in range(rng.randint(1, 3)):
        key = rng.choice(keys + ["unknown", "__proto__", "x" * 300])
        body[key] = _value(rng)
    if route == "/api/move" and rng.random() < 0.3:
        body.pop("action", None)
        body["moves"] = [[rng.choice(["N", "E", "Q", "", 5, None]), _value(rng)]
                         for _ in range(rng.choice([1, 2, 65, 1000, 5000]))]
    pick = rng.random()
    if pick < 0.08:
        return _deep(rng, "json-object").encode()
    if pick < 0.14:
        return json.dumps(body).encode()[:rng.randrange(1, 30)]
    if pick < 0.2:
        return json.dumps(body).encode().replace(b'"', b"\xff", 1)
    if pick < 0.24:
        return b'{"gen": "' + b"a" * (1 << 20) + b'"}'
    return json.dumps(body, allow_nan=True).encode()


def make_request(rng, host: str) -> tuple[str, bytes]:
    """One hostile request: (its kind, its bytes)."""
    kind = rng.choice(["api", "api", "api", "api", "path", "method", "headers", "length",
                       "junk", "version"])
    headers = {"Host": host, "Content-Type": "application/json"}
    method, path, version, body = "GET", "/api/state", "HTTP/1.1", b""
    if kind == "api":
        method, path = "POST", rng.choice(["/api/new", "/api/move", "/api/hint", "/api/resume"])
        body = _json_body(rng, path)
        if rng.random() < 0.1:
            headers["Content-Type"] = rng.choice(["text/plain", "application/json; x=\xff",
                                                  "", "multipart/form-data"])
    elif kind == "path":
        method, path = rng.choice(["GET", "HEAD", "POST"]), rng.choice(PATHS)
    elif kind == "method":
        method, path = rng.choice(METHODS), rng.choice(["/", "/api/state", "/api/new"])
    elif kind == "headers":
        pick = rng.random()
        if pick < 0.3:
            headers.update({f"X-{i}": "v" for i in range(300)})
        elif pick < 0.5:
            headers["X-Big"] = "v" * 70000
        elif pick < 0.7:
            headers.pop("Host")
        elif pick < 0.85:
            headers["Host"] = rng.choice(["evil.example", "127.0.0.1:1", "", "\xff", "a" * 3000])
        else:
            headers["Cookie"] = "robomaze_token=" + "x" * rng.choice([1, 100, 70000])
    elif kind == "length":
        method, path = "POST", rng.choice(["/api/new", "/api/move"])
        body = b'{"action": "N"}'
        headers["Content-Length"] = rng.choice(["-1", "abc", "99999999999999999999", "1e3",
                                                "100", " 5", "0x10", str(1 << 31), ""])
    elif kind == "version":
        version = rng.choice(["HTTP/0.9", "HTTP/2.0", "HTTP/1.2", "HTTP/x", "", "HTTP/1.1 x"])
    else:  # junk: not HTTP at all
        n = rng.choice([0, 1, 10, 1000, 100000])
        return kind, bytes(rng.randrange(256) for _ in range(n))
    if kind != "length":
        headers["Content-Length"] = str(len(body))
    head = f"{method} {path} {version}".rstrip() + "\r\n"
    head += "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n"
    return kind, head.encode("utf-8", "surrogateescape") + body


def send(port: int, data: bytes, timeout: float) -> tuple[bytes, bool]:
    """Send ``data``; the whole answer and whether the server closed in time."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        try:
            s.sendall(data)
            s.shutdown(socket.SHUT_WR)
        except OSError:   # the server may close first on junk, as it should
            pass
        chunks, t0 = [], time.monotonic()
        while time.monotonic() - t0 < timeout:
            try:
                chunk = s.recv(65536)
            except (socket.timeout, ConnectionResetError):
                break
            if not chunk:
                return b"".join(chunks), True
            chunks.append(chunk)
        return b"".join(chunks), False


STATUS = re.compile(rb"^HTTP/1\.[01] (\d{3}) ")


def check_answer(kind: str, answer: bytes, closed: bool) -> str | None:
    """The failure of one answer, or None."""
    if not closed:
        return "no answer and the connection still open after the timeout"
    if not answer:
        return None if kind in ("junk", "version", "length", "method") else "no answer"
    m = STATUS.match(answer)
    if not m:
        return f"not an HTTP status line: {answer[:60]!r}"
    code = int(m.group(1))
    if code >= 500 and code not in (501, 505):   # 501/505: unsupported method/version
        return f"status {code}"
    head = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1").lower()
    missing = [h for h in SECURITY if f"\r\n{h}:" not in head]
    if missing:
        return f"status {code} without headers {', '.join(missing)}"
    return None


def ping(port: int, timeout: float = 5.0) -> bool:
    try:
        answer, _ = send(port, b"GET /api/ping HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", timeout)
    except OSError:
        return False
    return answer.startswith(b"HTTP/1.0 200") or answer.startswith(b"HTTP/1.1 200")


def start_server(folder: Path, source: list[str]) -> tuple[subprocess.Popen, int]:
    for sub in ("home", "tmp"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, HOME=str(folder / "home"), TMPDIR=str(folder / "tmp"),
               PYTHONPATH=str(ROOT))
    err = open(folder / "stderr.txt", "wb")
    proc = subprocess.Popen([sys.executable, "-m", "robomaze", "play", *source, "--web",
                             "--port", "0", "--record-dir", str(folder / "rec")],
                            cwd=folder, env=env, stdout=subprocess.PIPE, stderr=err,
                            start_new_session=True)
    t0 = time.monotonic()
    while time.monotonic() - t0 < 300:
        line = proc.stdout.readline().decode()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if m:
            return proc, int(m.group(1))
        if not line and proc.poll() is not None:
            break
    raise SystemExit(f"the server did not start: {(folder / 'stderr.txt').read_text()[-500:]}")


def vm_hwm_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", type=int, default=2000)
    ap.add_argument("--out", type=Path, default=Path("/tmp/robomaze-fuzz-web"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=15.0,
                    help="seconds a request may take (the server's socket timeout is 10 s)")
    ap.add_argument("--max-rss", type=int, default=600, help="MB the server may peak at")
    args = ap.parse_args(argv)
    work = args.out
    work.mkdir(parents=True, exist_ok=True)
    server_dir = work / "server"
    proc, port = start_server(server_dir, ["kruskal", "6x6", "--seed", "1"])
    host = f"127.0.0.1:{port}"
    rng = random.Random(args.seed)
    watched = [work, ROOT]
    rec = server_dir / "rec"
    snapshot = {p: v for p, v in tree_state(watched).items() if not p.startswith(str(rec))}
    counts: dict = {}
    failures: list = []
    t_start = time.monotonic()
    peak = 0
    for i in range(args.cases):
        kind, data = make_request(random.Random(rng.getrandbits(64)), host)
        try:
            answer, closed = send(port, data, args.timeout)
            bad = check_answer(kind, answer, closed)
        except OSError as exc:
            answer, bad = b"", f"connection failed: {exc}"
        m = STATUS.match(answer or b"")
        status = m.group(1).decode() if m else "closed"
        if not ping(port):
            bad = (bad + "; " if bad else "") + "the server stopped answering /api/ping"
        if proc.poll() is not None:
            bad = (bad + "; " if bad else "") + f"the server exited ({proc.returncode})"
        err = (server_dir / "stderr.txt").read_text(errors="replace")
        if "Traceback (most recent call last)" in err:
            bad = (bad + "; " if bad else "") + "traceback on the server's stderr"
        changed, after = outside_writes(snapshot, watched)
        changed = [p for p in changed if not p.startswith(str(rec)) and
                   not p.startswith(str(work / "summary.json"))]
        strays = [p.name for p in rec.glob("*") if not re.fullmatch(r"walk-\d+\.jsonl", p.name)]
        if changed or strays:
            bad = (bad + "; " if bad else "") + f"wrote outside its place: {(changed + strays)[:3]}"
        snapshot = {p: v for p, v in after.items() if not p.startswith(str(rec))}
        if proc.poll() is None:
            peak = max(peak, vm_hwm_kb(proc.pid))
            if peak > args.max_rss * 1024:
                bad = (bad + "; " if bad else "") + f"server peak {peak // 1024} MB"
        c = counts.setdefault(kind, {"cases": 0, "failed": 0, "status": {}})
        c["cases"] += 1
        c["status"][status] = c["status"].get(status, 0) + 1
        if bad:
            c["failed"] += 1
            failures.append({"case": i, "kind": kind, "failure": bad,
                             "request": data[:400].decode("latin-1"),
                             "answer": answer[:300].decode("latin-1")})
            print(f"case {i} {kind}: FAIL {bad}", flush=True)
            if proc.poll() is not None or not ping(port):
                proc.kill()
                proc, port = start_server(server_dir, ["kruskal", "6x6", "--seed", "1"])
                host = f"127.0.0.1:{port}"
        if i % 200 == 0:
            print(f"{i + 1}/{args.cases} {time.monotonic() - t_start:.0f}s "
                  f"failures={len(failures)}", flush=True)
        if i % 50 == 0 or i == args.cases - 1:
            summary = {"cases": i + 1, "seconds": round(time.monotonic() - t_start, 1),
                       "seed": args.seed, "counts": counts, "failures": failures,
                       "server_peak_kb": peak, "records": len(list(rec.glob("*"))),
                       "load": os.getloadavg()}
            (work / "summary.json").write_text(json.dumps(summary, indent=1))
    os.killpg(proc.pid, signal.SIGTERM)
    proc.wait(10)
    print(json.dumps({k: v for k, v in summary.items() if k != "failures"}))
    print(f"failures: {len(failures)}")
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
