"""Fuzz the CLI with hostile sweep files, walk records and result folders (issue 20).

Every case is a mutated input (bad bytes, deep nesting, huge numbers, wrong
types, truncation, FIFOs, devices, symbolic links, missing files) handed to
a real ``robomaze`` command:

* sweeps:   ``robomaze bench SWEEP -o OUT -q --max-runs 4``
* records:  ``robomaze score REC`` (every 5th: ``robomaze replay REC -o x.png``)
* results:  ``robomaze bench report DIR`` or ``robomaze bench compare BASE DIR``

A case passes when the command ends within the per-case timeout, with exit
code 0, 1 or 2, no Python traceback on stderr, and no process of it left
alive. Each case runs in a child forked from one driver that has already
imported the CLI (thousands of interpreter starts would take hours on a
shared 2-core machine): the child caps its address space
(``RLIMIT_AS``, the limit ``prlimit --as`` sets), points stdout/stderr at
files and calls ``robomaze.cli.main(argv)`` exactly as the console script
does; an exception escaping it is printed as Python would and exits 1.
``--prlimit-every N`` also runs every N-th case as a separate
``prlimit --as=BYTES python -m robomaze ...`` process, to check that the
forked run and the real command agree.

Usage::

    python benchmarks/fuzz_inputs.py --cases 5100 --out /tmp/fuzz --seed 1

writes ``/tmp/fuzz/summary.json`` (counts per input kind and mutation,
every failure with its command and stderr tail) and keeps the inputs of
failing cases under ``/tmp/fuzz/failures``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from robomaze._proctree import descendants, set_subreaper  # noqa: E402

AS_BYTES = 4_000_000_000

SWEEP = """name = "fuzz"
seed = 3
[maze]
{maze}
[widen]
corridor = {corridor}
resolution = 0.1
[robot]
footprint = "{footprint}"
{sensor}
[run]
{run}
"""
MAZES = ['generator = "prim"\nrows = 3\ncols = 3', 'generator = ["kruskal", "backtracker"]\n'
         'rows = 3\ncols = [3, 4]', 'file = "m.maze"', 'generator = "wilson"\nrows = 2\n'
         'cols = 3\nbraid = 0.5']
RUNS = ['planner = "astar"', 'planner = ["dijkstra", "wavefront"]',
        'planner = "max_clearance"\n[run.options.max_clearance]\nweight = 2.0',
        'agent = "wall_follow"\nmax_steps = 200', 'mouse = "floodfill"',
        'agent = "follow_plan"\nmax_steps = 200\n[run.options.follow_plan]\nmethod = "astar"']
MAZE_FILE = ("o---o---o---o\n|           |\no   o---o   o\n|   |       |\no   o   o---o\n"
             "|       |   |\no---o---o---o\n")


# ----------------------------------------------------------------- mutations
def _bad_bytes(rng, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        pos = rng.randrange(len(out) + 1)
        junk = rng.choice([b"\xff", b"\x00", b"\xc3\x28", b"\xed\xa0\x80", b"\r", b"\x1b[2J",
                           bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))])
        out[pos:pos + rng.randint(0, 2)] = junk
    return bytes(out)


def _deep(rng, kind: str) -> str:
    depth = rng.choice([20, 33, 100, 999, 1000, 3000, 5000, 50_000])
    if kind == "toml-table":
        return "{a = " * depth + "1" + "}" * depth
    if kind == "json-object":
        return '{"a":' * depth + "1" + "}" * depth
    return "[" * depth + "]" * depth


HUGE = ["1e308", "-1e308", "1e999", "99999999999999999999999999", "-99999999999999999999",
        "9223372036854775808", "0", "-1", "nan", "inf", "-inf", "4294967296", "0.0", "1e-320"]
WRONG_TOML = ['"text"', "[1, 2]", "{a = 1}", "true", "1979-05-27T07:32:00Z", "[]", '""',
              '["a", 1]', "[[1], [2]]"]
WRONG_JSON = ['"text"', "[1, 2]", '{"a": 1}', "true", "null", "[]", '""', '["a", 1]', "{}",
              "-1", "1e400", "NaN", "Infinity"]


def _replace_value(rng, text: str, values: list[str], sep: str) -> str:
    """Replace one value after ``sep`` (``=`` in TOML, ``:`` in JSON) with one of ``values``."""
    spots = [i for i, ch in enumerate(text) if ch == sep]
    if not spots:
        return text + rng.choice(values)
    i = rng.choice(spots) + 1
    j = i
    while j < len(text) and text[j] not in ",}\n":
        j += 1
    return text[:i] + " " + rng.choice(values) + text[j:]


def _mutate_text(rng, text: str, mutation: str, lang: str) -> bytes:
    if mutation == "bad_bytes":
        return _bad_bytes(rng, text.encode())
    if mutation == "deep":
        kind = ("toml-table" if lang == "toml" else "json-object") if rng.random() < 0.4 \
            else "array"
        return _replace_value(rng, text, [_deep(rng, kind)], "=" if lang == "toml" else ":") \
            .encode()
    if mutation == "huge":
        return _replace_value(rng, text, HUGE, "=" if lang == "toml" else ":").encode()
    if mutation == "wrong_type":
        return _replace_value(rng, text, WRONG_TOML if lang == "toml" else WRONG_JSON,
                              "=" if lang == "toml" else ":").encode()
    if mutation == "truncate":
        data = text.encode()
        return data[:rng.randrange(len(data))]
    if mutation == "lines":
        lines = text.split("\n")
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(lines))
            op = rng.random()
            if op < 0.4:
                del lines[i]
            elif op < 0.8:
                lines.insert(i, lines[rng.randrange(len(lines))])
            else:
                lines[i] = lines[i][::-1]
            if not lines:
                lines = [""]
        return "\n".join(lines).encode()
    return text.encode()


TEXT_MUTATIONS = ["bad_bytes", "deep", "huge", "wrong_type", "truncate", "lines"]
FILE_MUTATIONS = ["fifo", "dev_zero", "directory", "symlink_loop", "dangling_link", "missing",
                  "empty"]


def _as_odd_file(path: Path, mutation: str) -> None:
    """Replace ``path`` by something that is no regular file."""
    if path.is_symlink() or path.exists():
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    if mutation == "fifo":
        os.mkfifo(path)
    elif mutation == "dev_zero":
        path.symlink_to("/dev/zero")
    elif mutation == "directory":
        path.mkdir()
    elif mutation == "symlink_loop":
        path.symlink_to(path.name)
    elif mutation == "dangling_link":
        path.symlink_to(path.name + ".nowhere")
    elif mutation == "empty":
        path.write_bytes(b"")


# ---------------------------------------------------------------- the cases
def sweep_case(rng, d: Path) -> tuple[str, list[str]]:
    (d / "m.maze").write_text(MAZE_FILE)
    text = SWEEP.format(maze=rng.choice(MAZES), corridor=rng.choice([3, "[2, 3]"]),
                        footprint=rng.choice(["disc:0.04", "rect:0.08x0.05"]),
                        sensor=rng.choice(["", 'sensor = "ir"']), run=rng.choice(RUNS))
    mutation = rng.choice(TEXT_MUTATIONS + ["fifo_maze", "dev_zero_maze", "fifo_sweep",
                                            "link_out", "dev_zero_sweep"])
    sweep = d / "s.toml"
    out = d / "out"
    if mutation in TEXT_MUTATIONS:
        sweep.write_bytes(_mutate_text(rng, text, mutation, "toml"))
    else:                                      # a sweep of the maze file, or it would run
        sweep.write_text(SWEEP.format(maze='file = "m.maze"', corridor=3,
                                      footprint="disc:0.04", sensor="", run=RUNS[0]))
        if mutation == "fifo_maze":
            _as_odd_file(d / "m.maze", "fifo")
        elif mutation == "dev_zero_maze":
            _as_odd_file(d / "m.maze", "dev_zero")
        elif mutation == "fifo_sweep":
            _as_odd_file(sweep, "fifo")
        elif mutation == "dev_zero_sweep":
            sweep = Path("/dev/zero")
        elif mutation == "link_out":
            (d / "elsewhere").mkdir()
            out.symlink_to(d / "elsewhere")
    return mutation, ["bench", str(sweep), "-o", str(out), "-q", "--max-runs", "4",
                      "--workers", "1"]


def record_case(rng, d: Path, base: str) -> tuple[str, list[str]]:
    rec = d / "walk.jsonl"
    mutation = rng.choice(TEXT_MUTATIONS + FILE_MUTATIONS)
    if mutation in TEXT_MUTATIONS:
        rec.write_bytes(_mutate_text(rng, base, mutation, "json"))
    else:
        rec.write_text(base)
        _as_odd_file(rec, mutation)
    if rng.random() < 0.2:
        return mutation, ["replay", str(rec), "-o", str(d / "x.png")]
    return mutation, ["score", str(rec)]


def results_case(rng, d: Path, base: Path) -> tuple[str, list[str]]:
    res = d / "res"
    shutil.copytree(base, res, symlinks=True)
    target = rng.choice(["results.jsonl"] * 3 + ["sweep.json", ".robomaze-results.json"])
    mutation = rng.choice(TEXT_MUTATIONS + FILE_MUTATIONS + ["link_dir"])
    if mutation in TEXT_MUTATIONS:
        text = (res / target).read_text()
        lines = text.split("\n")
        if target == "results.jsonl" and mutation != "truncate" and len(lines) > 2:
            # mutate one row and keep a good row after it (a torn last line is a crash
            # mid-write, which the reader is right to drop)
            i = rng.randrange(len(lines) - 2)
            lines[i] = _mutate_text(rng, lines[i], mutation, "json").decode("utf-8",
                                                                            "surrogateescape")
            (res / target).write_bytes("\n".join(lines).encode("utf-8", "surrogateescape"))
        else:
            (res / target).write_bytes(_mutate_text(rng, text, mutation, "json"))
    elif mutation == "link_dir":
        shutil.move(res, d / "real")
        res.symlink_to(d / "real")
    else:
        _as_odd_file(res / target, mutation)
    if rng.random() < 0.7:                    # a report draws figures: 10x the time
        return f"{mutation}:{target}", ["bench", "compare", str(base), str(res)]
    return f"{mutation}:{target}", ["bench", "report", str(res)]


# ------------------------------------------------------------------ running
def run_forked(argv: list[str], d: Path, timeout: float) -> dict:
    """Run ``robomaze ARGV`` in a forked child; exit code, stderr, hang, time."""
    from robomaze.cli import main

    out_path, err_path = d / "stdout.txt", d / "stderr.txt"
    t0 = time.monotonic()
    pid = os.fork()
    if pid == 0:                                    # the child: the CLI as a command
        code = 1
        try:
            os.setpgid(0, 0)
            resource.setrlimit(resource.RLIMIT_AS, (AS_BYTES, AS_BYTES))
            fo = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            fe = os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(fo, 1)
            os.dup2(fe, 2)
            sys.stdin = open(os.devnull)
            os.chdir(d)
            try:
                code = main(argv)
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
            except BaseException:
                traceback.print_exc()
                code = 1
            import atexit
            atexit._run_exitfuncs()               # what interpreter exit would run
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code if isinstance(code, int) and 0 <= code < 256 else 1)
    hang = False
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() - t0 > timeout:
            hang = True
            _kill_all(pid)
            os.waitpid(pid, 0)
            break
        time.sleep(0.01)
    left = _end_leftovers()
    code = os.waitstatus_to_exitcode(status) if not hang else None
    err = err_path.read_text(errors="replace") if err_path.exists() else ""
    if left:
        err += "\n[left alive: " + "; ".join(_end_leftovers.names) + "]"
    # the traceback flag is taken on the whole stderr: a long traceback's header
    # falls outside the 1,500-character tail that is kept
    return {"code": code, "hang": hang, "leftover": left, "seconds": time.monotonic() - t0,
            "traceback": "Traceback (most recent call last)" in err, "stderr": err[-1500:]}


def run_prlimit(argv: list[str], d: Path, timeout: float) -> dict:
    """The same case as a real command under ``prlimit --as``."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    t0 = time.monotonic()
    try:
        p = subprocess.run(["prlimit", f"--as={AS_BYTES}", sys.executable, "-m", "robomaze",
                            *argv], cwd=d, env=env, capture_output=True, text=True,
                           timeout=timeout, stdin=subprocess.DEVNULL)
        code, hang, err = p.returncode, False, p.stderr
    except subprocess.TimeoutExpired as exc:
        code, hang = None, True
        err = (exc.stderr or b"").decode(errors="replace") if isinstance(exc.stderr, bytes) \
            else (exc.stderr or "")
    left = _end_leftovers()
    return {"code": code, "hang": hang, "leftover": left, "seconds": time.monotonic() - t0,
            "traceback": "Traceback (most recent call last)" in err, "stderr": err[-1500:]}


def _kill_all(pid: int) -> None:
    for p in [pid, *descendants(pid)]:
        try:
            os.kill(p, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return fh.read().replace(b"\0", b" ").decode(errors="replace")[:200]
    except OSError:
        return "?"


def _end_leftovers(grace: float = 20.0) -> int:
    """Kill and reap whatever a case left below the driver (it is a subreaper)
    ``grace`` seconds after it exited (the warm-up helpers of a sweep may take
    a few seconds to tear numba down after the sweep returned)."""
    me = os.getpid()
    deadline = time.monotonic() + grace
    while True:
        try:
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        except ChildProcessError:
            pass
        left = descendants(me)
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.02)
    _end_leftovers.names = [_cmdline(p) for p in left]
    for p in left:
        try:
            os.kill(p, signal.SIGKILL)
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            if os.waitpid(-1, os.WNOHANG)[0] == 0 and not descendants(me):
                break
        except ChildProcessError:
            break
        time.sleep(0.01)
    return len(left)


def verdict(r: dict) -> str | None:
    """The failure class of a case result, or None when it passed."""
    if r["hang"]:
        return "hang"
    if r.get("traceback") or "Traceback (most recent call last)" in r["stderr"]:
        last = [ln for ln in r["stderr"].strip().splitlines() if ln.strip()][-1:]
        return "traceback: " + (last[0].split(":")[0] if last else "?")
    if r["code"] not in (0, 1, 2):
        return f"exit code {r['code']}"
    if r["leftover"]:
        return "process left alive"
    return None


def _base_inputs(work: Path) -> tuple[str, Path]:
    """A valid walk record and a results folder (a small real sweep) to mutate."""
    from robomaze.maze import Maze
    from robomaze.traverse.record import TraversalRecord

    maze = Maze.empty(3, 4)
    cells = [(2, 0), (1, 0), (1, 1), (1, 2), (0, 2), (0, 3)]
    rec = TraversalRecord.from_cells(maze.replace(start=(2, 0), goals=((0, 3),)), cells,
                                     times=range(len(cells)))
    rec.save(work / "walk.jsonl")
    base = work / "results"
    if not (base / "results.jsonl").exists():
        (work / "base.toml").write_text(SWEEP.format(
            maze=MAZES[0], corridor=3, footprint="disc:0.04", sensor="",
            run='planner = ["astar", "dijkstra"]\nagent = "wall_follow"\nmax_steps = 200'))
        r = run_forked(["bench", str(work / "base.toml"), "-o", str(base), "-q"], work, 600)
        assert r["code"] == 0, r
    return (work / "walk.jsonl").read_text(), base


def make_case(kind: str, rng, d: Path, base_record: str, base_results: Path):
    if kind == "sweep":
        return sweep_case(rng, d)
    if kind == "record":
        return record_case(rng, d, base_record)
    return results_case(rng, d, base_results)


def _preload() -> None:
    """Import what the commands import lazily, once, before the first fork."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot  # noqa: F401

    import robomaze.bench.compare  # noqa: F401
    import robomaze.bench.report  # noqa: F401
    import robomaze.bench.runner  # noqa: F401
    import robomaze.cli  # noqa: F401
    import robomaze.plan  # noqa: F401
    import robomaze.sim  # noqa: F401
    import robomaze.traverse.record  # noqa: F401
    import robomaze.traverse.score  # noqa: F401
    import robomaze.viz  # noqa: F401
    from robomaze.cli import build_parser

    build_parser()


def _fresh(d: Path) -> Path:
    if d.exists():
        shutil.rmtree(d)
    d.mkdir()
    return d


def main_(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", type=int, default=5100)
    ap.add_argument("--out", type=Path, default=Path("/tmp/robomaze-fuzz"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per case")
    ap.add_argument("--prlimit-every", type=int, default=50)
    ap.add_argument("--kinds", default="sweep,record,results",
                    help="comma-separated input kinds, taken in turn")
    args = ap.parse_args(argv)
    set_subreaper(True)
    _preload()
    work = args.out
    work.mkdir(parents=True, exist_ok=True)
    base_record, base_results = _base_inputs(work)
    rng = random.Random(args.seed)
    kinds = args.kinds.split(",")
    counts: dict = {}
    failures: list = []
    exit1: list = []
    agree = {"checked": 0, "same": 0, "differ": []}
    t_start = time.monotonic()
    for i in range(args.cases):
        kind = kinds[i % len(kinds)]
        d = _fresh(work / "case")
        mutation, cmd = make_case(kind, random.Random(rng.getrandbits(64)), d, base_record,
                                  base_results)
        r = run_forked(cmd, d, args.timeout)
        bad = verdict(r)
        c = counts.setdefault(kind, {}).setdefault(mutation.split(":")[0], {
            "cases": 0, "exit": {"0": 0, "1": 0, "2": 0}, "failed": 0, "seconds": 0.0})
        c["cases"] += 1
        c["seconds"] = round(c["seconds"] + r["seconds"], 2)
        if str(r["code"]) in c["exit"]:
            c["exit"][str(r["code"])] += 1
        if r["code"] == 1 and len(exit1) < 50:   # a result (regression, failed runs)?
            exit1.append({"kind": kind, "mutation": mutation, "argv": cmd,
                          "stderr": r["stderr"][-400:]})
        if bad:
            c["failed"] += 1
            keep = work / "failures" / f"{i:05d}"
            shutil.copytree(d, keep, symlinks=True, dirs_exist_ok=True,
                            ignore=lambda dirpath, names: [
                                n for n in names if Path(dirpath, n).is_fifo()])
            failures.append({"case": i, "kind": kind, "mutation": mutation, "failure": bad,
                             "argv": cmd, "code": r["code"], "stderr": r["stderr"][-600:]})
        if args.prlimit_every and i % args.prlimit_every == 0:
            # The same case again, forked and as a real command under prlimit.
            _, cmd = make_case(kind, random.Random(i), _fresh(d), base_record, base_results)
            forked = run_forked(cmd, d, args.timeout)
            _, cmd = make_case(kind, random.Random(i), _fresh(d), base_record, base_results)
            real = run_prlimit(cmd, d, args.timeout)
            agree["checked"] += 1
            if forked["code"] == real["code"] and verdict(forked) == verdict(real):
                agree["same"] += 1
            else:
                agree["differ"].append({"argv": cmd, "forked": forked["code"],
                                        "real": real["code"], "real_stderr":
                                        real["stderr"][-300:]})
        if i % 100 == 0 or bad:
            print(f"{i + 1}/{args.cases} {time.monotonic() - t_start:.0f}s "
                  f"failures={len(failures)} last={kind}/{mutation} -> {r['code']}"
                  + (f" FAIL {bad}" if bad else ""), flush=True)
        summary = {"cases": i + 1, "seconds": round(time.monotonic() - t_start, 1),
                   "address_space_limit": AS_BYTES, "timeout": args.timeout,
                   "seed": args.seed, "counts": counts, "failures": failures, "exit_1": exit1,
                   "prlimit_agreement": agree,
                   "load": os.getloadavg()}
        if i % 25 == 0 or i == args.cases - 1:
            (work / "summary.json").write_text(json.dumps(summary, indent=1))
    print(json.dumps({k: v for k, v in summary.items() if k not in ("failures", "counts")}))
    print(f"failures: {len(failures)}")
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main_())
