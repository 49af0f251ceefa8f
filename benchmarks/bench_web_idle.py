"""CPU an idle web game page costs headless Chromium (and the game's server).

For each ``--tree`` (a checkout; default this one) this starts
``robomaze play backtracker 10x10 --seed 5 --web`` from that tree, opens
the page in headless Chromium (the flags of ``tests/web``), lets it settle
for 3 s and then measures, over ``--seconds``, the CPU time (user + system,
from ``/proc``) of this run's chromedriver and the Chromium below it, and
of the server, with nobody playing. Trees are interleaved repetition by repetition; the medians of
``--repeat`` are printed with the load.

Needs ``chromium``, ``chromedriver`` (Debian packages) and ``selenium``
(the ``web-test`` extra).

Usage::

    python benchmarks/bench_web_idle.py [--tree DIR ...] [--seconds 20] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1280,1000")


def _cpu(pids) -> float:
    """User + system CPU seconds of ``pids`` (those still alive)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def _descendants(root: int) -> list[int]:
    """``root`` and every process below it: this run's chromedriver and its
    Chromium, not another browser on the machine (a test run beside it)."""
    parent = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as f:
                    parent[int(name)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
    out, frontier = [root], [root]
    while frontier:
        frontier = [p for p, pp in parent.items() if pp in frontier]
        out += frontier
    return out


def once(tree: str, seconds: float) -> tuple[float, float]:
    """(Chromium CPU, server CPU) over ``seconds`` of an idle page served from ``tree``."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    env = {**os.environ, "PYTHONPATH": tree}
    server = subprocess.Popen(
        [sys.executable, "-m", "robomaze", "play", "backtracker", "10x10", "--seed", "5",
         "--web", "--port", "0", "--record-dir", tempfile.mkdtemp()],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tree)
    driver = None
    try:
        url = next((line.split()[1] for line in server.stdout if line.startswith("serving ")),
                   None)
        if url is None:
            raise SystemExit(f"bench_web_idle: --tree {tree}: `robomaze play --web` printed no "
                             f"URL: {server.stderr.read().strip()[-500:]}")
        opts = webdriver.ChromeOptions()
        opts.binary_location = CHROMIUM
        for flag in (*FLAGS, f"--user-data-dir={tempfile.mkdtemp()}"):
            opts.add_argument(flag)
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
        driver.get(url)
        time.sleep(3.0)
        browser = driver.service.process.pid
        before = _cpu(_descendants(browser)), _cpu([server.pid])
        time.sleep(seconds)
        after = _cpu(_descendants(browser)), _cpu([server.pid])
        return after[0] - before[0], after[1] - before[1]
    finally:
        if driver is not None:
            driver.quit()
        server.terminate()
        server.wait(10)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tree", action="append", default=None,
                    help="a checkout to serve the page from (repeatable; default: this one)")
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    trees = [str(Path(t).resolve()) for t in (args.tree or [HERE.parent])]
    bad = [t for t in trees if not (Path(t) / "robomaze" / "__init__.py").is_file()]
    if bad:
        ap.error(f"--tree {bad[0]}: not a robomaze checkout (no robomaze/__init__.py)")
    if args.seconds <= 0 or args.repeat < 1:
        ap.error(f"--seconds {args.seconds:g} and --repeat {args.repeat}: expected > 0 and >= 1")
    for exe in (CHROMIUM, CHROMEDRIVER):
        if not os.access(exe, os.X_OK):
            print(f"bench_web_idle: {exe} is not installed (Debian packages chromium and "
                  "chromium-driver)", file=sys.stderr)
            return 2
    rows = {t: [] for t in trees}
    load0 = os.getloadavg()[0]
    for _ in range(args.repeat):
        for tree in trees:
            rows[tree].append(once(tree, args.seconds))
    print(f"load {load0:.2f} -> {os.getloadavg()[0]:.2f}; {args.seconds:g} s idle per run, "
          f"medians of {args.repeat} interleaved runs")
    print("| tree | Chromium CPU (s) | server CPU (s) |")
    print("|---|---:|---:|")
    for tree, got in rows.items():
        print(f"| {tree} | {statistics.median(c for c, _ in got):.2f} | "
              f"{statistics.median(s for _, s in got):.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
