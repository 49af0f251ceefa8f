"""The web game under load and on big mazes (issues 35 item 7 and 38).

Three measures, each against a real ``robomaze play ... --web`` process:

* ``clients``: N parallel clients (threads released together by a barrier),
  each doing the page's four first requests (``GET /``, ``GET /api/state``,
  ``POST /api/move``, ``GET /api/ping``); per request the wall time until the
  answer, and how many got none within the timeout. Run against this
  checkout and, with ``--compare DIR``, against another (e.g. /work/main, whose
  server had socketserver's backlog of 5 and a thread per connection),
  interleaved.
* ``bytes``: the bytes of each ``/api/move`` answer over M single moves of an
  explorer walk on a 100x100 maze (the page sends one request per key).
* ``redraw`` is measured by the browser tests' page hook (``RM.drawTimes``);
  see ``bench_web_redraw`` below, run only with ``--redraw`` (needs chromium).

Usage::

    python benchmarks/bench_web.py clients --clients 200 --reps 3 --compare /work/main
    python benchmarks/bench_web.py bytes --moves 200
    python benchmarks/bench_web.py redraw

Every figure is printed with ``/proc/loadavg`` next to it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load() -> str:
    return Path("/proc/loadavg").read_text().split(" ", 3)[:3].__str__()


def serve(code_dir: Path, args: list[str], record_dir: str) -> tuple[subprocess.Popen, str]:
    env = {**os.environ, "PYTHONPATH": str(code_dir)}
    proc = subprocess.Popen([sys.executable, "-m", "robomaze", "play", *args, "--web", "--port",
                             "0", "--record-dir", record_dir],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            cwd=str(code_dir))
    for line in proc.stdout:
        if line.startswith("serving "):
            return proc, line.split()[1]
    raise RuntimeError("the server did not start: " + proc.stderr.read())


def _request(url: str, body=None, timeout: float = 30.0) -> float | None:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"}
                                 if data else {})
    t = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            r.read()
    except urllib.error.HTTPError as e:
        e.read()
    except OSError:
        return None
    return time.perf_counter() - t


def clients_once(url: str, n: int, timeout: float) -> dict:
    barrier = threading.Barrier(n)
    times: list[float | None] = []
    lock = threading.Lock()

    def client(i: int) -> None:
        barrier.wait()
        out = [_request(url, timeout=timeout), _request(url + "api/state", timeout=timeout),
               _request(url + "api/move", {"action": "E", "t": 0.1}, timeout=timeout),
               _request(url + "api/ping", timeout=timeout)]
        with lock:
            times.extend(out)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(n)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    answered = sorted(t for t in times if t is not None)
    return {"requests": len(times), "unanswered": len(times) - len(answered),
            "over_5s": sum(t > 5.0 for t in answered) + len(times) - len(answered),
            "median": statistics.median(answered) if answered else None,
            "p99": answered[int(0.99 * (len(answered) - 1))] if answered else None,
            "max": answered[-1] if answered else None, "wall": wall}


def cmd_clients(a) -> None:
    targets = [("this", ROOT)] + ([("compare", Path(a.compare))] if a.compare else [])
    servers = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, code in targets:
            servers[name] = serve(code, ["backtracker", "10x10", "--seed", "1"],
                                  os.path.join(tmp, name))
        try:
            for rep in range(a.reps):
                for name, _ in targets:        # interleaved repetitions
                    before = load()
                    r = clients_once(servers[name][1], a.clients, a.timeout)
                    print(json.dumps({"target": name, "rep": rep, "clients": a.clients, **{
                        k: (round(v, 3) if isinstance(v, float) else v) for k, v in r.items()},
                        "load_before": before, "load_after": load()}), flush=True)
        finally:
            for proc, _ in servers.values():
                proc.terminate()
                proc.wait(10)


def cmd_bytes(a) -> None:
    sys.path.insert(0, str(ROOT))
    from robomaze.cli._world import build_maze

    with tempfile.TemporaryDirectory() as tmp:
        proc, url = serve(Path(a.code), ["backtracker", f"{a.size}x{a.size}", "--seed", "4",
                                         "--mode", "explorer"], tmp)
        try:
            maze = build_maze("backtracker", a.size, a.size, seed=4)
            route = maze.solution()
            names = {(0, 1): "E", (1, 0): "S", (0, -1): "W", (-1, 0): "N"}
            sizes = []
            for i, (p, q) in enumerate(zip(route[:a.moves], route[1:a.moves + 1])):
                req = urllib.request.Request(url + "api/move", data=json.dumps(
                    {"action": names[(q[0] - p[0], q[1] - p[1])], "t": 0.1 * i}).encode(),
                    headers={"Content-Type": "application/json"})
                with urllib.request.urlopen(req, timeout=30) as r:
                    sizes.append(len(r.read()))
            state = urllib.request.urlopen(url + "api/state", timeout=30).read()
            print(json.dumps({"code": a.code, "maze": f"{a.size}x{a.size}", "mode": "explorer",
                              "moves": len(sizes), "mean_bytes": round(statistics.mean(sizes), 1),
                              "max_bytes": max(sizes), "full_state_bytes": len(state),
                              "load": load()}))
        finally:
            proc.terminate()
            proc.wait(10)


def cmd_redraw(a) -> None:
    """Median redraw of the play page (RM.drawTimes, ms) on the phone profile."""
    sys.path.insert(0, str(ROOT / "tests" / "web"))
    sys.path.insert(0, str(ROOT))
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for flag in ("--headless", "--no-sandbox", "--disable-gpu"):
        opts.add_argument(flag)
    opts.add_experimental_option("mobileEmulation", {
        "deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2, "touch": True},
        "userAgent": "Mozilla/5.0 (Linux; Android 14) Mobile"})
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = serve(ROOT, ["backtracker", f"{a.size}x{a.size}", "--seed", "4", "--mode",
                                 "explorer"], tmp)
        d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
        try:
            d.get(url)
            time.sleep(2)
            canvas = d.find_element(By.ID, "maze")
            d.execute_script("RM.drawTimes.length = 0")
            for _ in range(a.moves):
                canvas.send_keys(Keys.ARROW_DOWN)
                canvas.send_keys(Keys.ARROW_UP)
            time.sleep(1)
            for _ in range(a.moves):
                d.execute_script("RM.redraw()")
            times = d.execute_script("return RM.drawTimes")
            print(json.dumps({"maze": f"{a.size}x{a.size}", "mode": "explorer", "profile":
                              "phone 390x844", "redraws": len(times),
                              "median_ms": round(statistics.median(times), 2),
                              "p90_ms": round(sorted(times)[int(0.9 * (len(times) - 1))], 2),
                              "load": load()}))
        finally:
            d.quit()
            proc.terminate()
            proc.wait(10)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("clients")
    c.add_argument("--clients", type=int, default=200)
    c.add_argument("--reps", type=int, default=3)
    c.add_argument("--timeout", type=float, default=30.0)
    c.add_argument("--compare", default=None)
    b = sub.add_parser("bytes")
    b.add_argument("--size", type=int, default=100)
    b.add_argument("--moves", type=int, default=200)
    b.add_argument("--code", default=str(ROOT), help="the checkout whose server is measured")
    r = sub.add_parser("redraw")
    r.add_argument("--size", type=int, default=200)
    r.add_argument("--moves", type=int, default=100)
    a = p.parse_args()
    {"clients": cmd_clients, "bytes": cmd_bytes, "redraw": cmd_redraw}[a.cmd](a)


if __name__ == "__main__":
    main()
