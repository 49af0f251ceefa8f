"""Fuzz the CLI with hostile sweep files, walk records and result folders (issue 20).

Every case is a mutated input (bad bytes, deep nesting, huge numbers, wrong
types, truncation, FIFOs, devices, symbolic links, missing files) handed to
a real ``robomaze`` command:

* sweeps:   ``robomaze bench SWEEP -o OUT -q --max-runs 4``
* records:  ``robomaze score REC`` (every 5th: ``robomaze replay REC -o x.png``)
* results:  ``robomaze bench report DIR`` or ``robomaze bench compare BASE DIR``

and, for the newest inputs (issue 35, ``--kinds bag,bagdir,profile,ompl,mouse``):

* bag:      ``robomaze --max-memory 256M stats|plan BAG.mcap``: decompression
  bombs (zstd, lz4, stored; honest or lying chunk sizes, up to 2.4 GB from
  ~74 KB), byte flips and truncations of a real map bag, chunk and record
  length fields set to hostile values, /map width/height/data mismatches,
  non-finite resolutions and quaternions;
* bagdir:   the same through a bag folder: mutated ``metadata.yaml`` (bad
  bytes, deep nesting, YAML alias bombs, ``compression_mode: file``/``message``
  over a zstd bomb), the ``.mcap`` a FIFO, a link to one, ``/dev/zero``...;
* profile:  ``robomaze mouse route|solve MAZE --profile P.toml``: mutated
  profiles (huge, tiny, non-finite numbers, wrong types, deep nesting, bad
  bytes, 40 MB files, FIFOs, devices);
* ompl:     ``robomaze plan ... --method ompl:...`` with hostile lengths and budgets;
* mouse:    ``robomaze mouse run`` of hostile mice (double-forked, env-less
  grandchildren; the mouse kills or stops its reaper).

Per case the child's peak memory (``wait4``'s ``ru_maxrss``) is recorded; a
case whose command ran under ``--max-memory`` fails when its peak grew past
that budget plus 200 MB minus the fresh interpreter's own peak (measured
once at the start, so the check is the issue's "budget + 200 MB" for a real
command); the every-N-th real ``prlimit`` run is checked directly.

and, for results folders (issue 35), also ``bench show`` and ``bench rerun``,
and a ``plugin`` kind: a results folder whose rows and sweep name a plugin
that writes a file when imported (as ``evil.py``, ``./evil.py``,
``sub/evil.py``, ``../evil.py``, a module name), which no command may import.

A case passes when the command ends within the per-case timeout, with exit
code 0, 1 or 2, no Python traceback on stderr, no process of it left
alive, and nothing written outside its case folder: the child's ``HOME``
and ``TMPDIR`` point into the case folder, and after every case the driver
compares the work folder, the project's tree and the real home folder's top
level with their state before (numba's and Python's caches aside). Each case runs in a child forked from one driver that has already
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
#: The memory budget the bag cases run under (``robomaze --max-memory``).
BAG_BUDGET = 256 << 20
#: Allowed peak above the budget (the issue's "budget plus 200 MB").
PEAK_MARGIN = 200 << 20
#: Hostile mice (tests/micromouse/mice).
MICE = ROOT / "tests" / "micromouse" / "mice"
MAZE16 = ROOT / "tests" / "data" / "micromouse" / "16MM2019CX.maze"
sys.path.insert(0, str(ROOT / "tests" / "io"))

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
    return f"{mutation}:{target}", _results_argv(rng, base, res)


def _results_argv(rng, base: Path, res: Path) -> list[str]:
    """One of the commands that read a results folder (issue 35: rerun, show too)."""
    pick = rng.random()
    if pick < 0.45:
        return ["bench", "compare", str(base), str(res)]
    if pick < 0.6:                            # a report draws figures: 10x the time
        return ["bench", "report", str(res)]
    row = rng.choice(_row_ids(base) or ["0" * 12])
    if pick < 0.8:
        return ["bench", "show", str(res), row]
    return ["bench", "rerun", str(res), row]


def _row_ids(base: Path) -> list[str]:
    ids = []
    for line in (base / "results.jsonl").read_text().splitlines():
        try:
            ids.append(json.loads(line)["id"])
        except (ValueError, KeyError, TypeError):
            pass
    return ids


#: A plugin a hostile results folder names: importing it leaves a marker
#: (outside the case folder, so the write-outside check sees it too).
EVIL_PLUGIN = """import pathlib
pathlib.Path({marker!r}).write_text("imported")
"""


def plugin_results_case(rng, d: Path, base: Path) -> tuple[str, list[str]]:
    """A results folder whose rows and sweep name a plugin that writes a file
    when imported: ``rerun``, ``compare``, ``show`` and ``report`` must import
    nothing it names (issue 35 item 4) and say which plugin is missing."""
    res = d / "res"
    shutil.copytree(base, res, symlinks=True)
    marker = d.parent / "PLUGIN-IMPORTED"
    name = rng.choice(["evil.py", "evil", "./evil.py", "sub/evil.py", "os.path", "../evil.py"])
    for where in (res, d, res / "sub"):
        where.mkdir(exist_ok=True)
        (where / "evil.py").write_text(EVIL_PLUGIN.format(marker=str(marker)))
    rows = []
    for line in (res / "results.jsonl").read_text().splitlines():
        row = json.loads(line)
        if rng.random() < 0.8 and isinstance(row.get("scenario"), dict):
            row["scenario"]["plugins"] = [name]
        rows.append(json.dumps(row))
    (res / "results.jsonl").write_text("\n".join(rows) + "\n")
    sweep = json.loads((res / "sweep.json").read_text())
    if isinstance(sweep, dict):
        sweep["plugins"] = [name]
        (res / "sweep.json").write_text(json.dumps(sweep))
    return f"plugin:{name}", _results_argv(rng, base, res)


# ------------------------------------------------------- bags (issue 35)
BOMB_DIR: list = []


def _bomb(key) -> bytes:
    """A prebuilt bomb (building one streams gigabytes through a compressor),
    kept on disk: the driver's memory is what every forked case starts from."""
    n, comp, declared = key
    path = BOMB_DIR[0] / f"bomb-{n}-{comp}-{declared}.mcap"
    if not path.exists():
        from bag_bombs import bag_bytes

        path.write_bytes(bag_bytes(n, width=n // 50_000 if n >= 50_000 else n,
                                   height=50_000 if n >= 50_000 else 1,
                                   compression=comp, declared=declared))
    return path.read_bytes()


BOMB_KEYS = [(2_400_000_000, "zstd", None), (2_400_000_000, "zstd", 1000),
             (1_200_000_000, "lz4", None), (1_200_000_000, "lz4", 5000),
             (300_000_000, "zstd", None), (50_000_000, "zstd", 2 ** 63 - 1),
             (9_000_000_000 // 3, "zstd", 9_000_000_000), (100_000_000, "none", None)]
BAG_MUTATIONS = ["bomb", "flip", "truncate", "length_field", "shape", "quaternion",
                 "resolution", "junk_records"]


def _real_bag(work: Path) -> bytes:
    p = work / "real.mcap"
    if not p.exists():
        import numpy as np
        from robomaze.grid import OccupancyGrid
        from robomaze.io.rosbag2 import write_map_bag

        occ = np.random.default_rng(5).random((12, 17)) < 0.3
        write_map_bag(OccupancyGrid(occ, resolution=0.05, origin=(1.0, -2.0, 0.3)), p)
    return p.read_bytes()


def _mutate_bag(rng, real: bytes, mutation: str) -> bytes:
    import math
    import struct

    from bag_bombs import bag_bytes

    if mutation == "bomb":
        return _bomb(rng.choice(BOMB_KEYS))
    if mutation == "flip":
        out = bytearray(real)
        for _ in range(rng.randint(1, 16)):
            i = rng.randrange(len(out))
            out[i] = rng.randrange(256)
        return bytes(out)
    if mutation == "truncate":
        return real[:rng.randrange(len(real))]
    if mutation == "length_field":
        # an 8-byte little-endian length (record, chunk size, string) set hostile
        out = bytearray(real)
        i = rng.randrange(8, len(out) - 8)
        v = rng.choice([0, 1, 2 ** 31, 2 ** 32 - 1, 2 ** 63 - 1, 2 ** 64 - 1, 10 ** 12,
                        len(real), len(real) * 1000])
        out[i:i + 8] = struct.pack("<Q", v)
        return bytes(out)
    if mutation == "shape":
        n = rng.choice([0, 1, 4, 12, 1000])
        w = rng.choice([0, 1, 3, 4, 2 ** 31 - 1, 2 ** 32 - 1, 100_000, n])
        h = rng.choice([0, 1, 3, 2 ** 32 - 1, 100_000, 1])
        return bag_bytes(n, width=w, height=h, compression=rng.choice(["zstd", "lz4", "none"]))
    if mutation == "quaternion":
        vals = [0.0, 1.0, -1.0, math.inf, -math.inf, math.nan, 1e308, 1e-308, 0.5]
        q = tuple(rng.choice(vals) for _ in range(4))
        return bag_bytes(4, width=2, height=2, quat=q)
    if mutation == "resolution":
        res = rng.choice([0.0, -0.05, math.nan, math.inf, 1e38, 1e-45, 3.4e38])
        return bag_bytes(4, width=2, height=2, resolution=res)
    # junk records appended before the footer
    junk = bytes(rng.randrange(256) for _ in range(rng.randint(1, 64)))
    cut = len(real) - 37 - 8
    return real[:cut] + junk + real[cut:]


def _bag_argv(rng, path: Path) -> list[str]:
    budget = ["--max-memory", "256M"]
    if rng.random() < 0.8:
        return [*budget, "stats", str(path)]
    return [*budget, "plan", str(path), "--start", "1,1", "--goal", "2,2"]


def bag_case(rng, d: Path, real: bytes) -> tuple[str, list[str]]:
    mutation = rng.choice(BAG_MUTATIONS)
    p = d / "map.mcap"
    p.write_bytes(_mutate_bag(rng, real, mutation))
    return mutation, _bag_argv(rng, p)


METADATA = """rosbag2_bagfile_information:
  version: 9
  storage_identifier: mcap
  duration:
    nanoseconds: 0
  starting_time:
    nanoseconds_since_epoch: 0
  message_count: 1
  topics_with_message_count: []
  compression_format: "{fmt}"
  compression_mode: "{mode}"
  relative_file_paths:
    - {name}
  files: []
  custom_data: ~
  ros_distro: humble
"""
YAML_BOMB = ("a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
             "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c]\n"
             "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e]\n"
             "g: [*f, *f, *f, *f, *f, *f, *f, *f, *f]\n")
BAGDIR_MUTATIONS = TEXT_MUTATIONS + FILE_MUTATIONS + ["link_to_fifo", "yaml_bomb",
                                                      "file_mode_bomb", "message_mode_bomb",
                                                      "bomb_mcap", "foreign_name"]


def bagdir_case(rng, d: Path, work: Path) -> tuple[str, list[str]]:
    import zstandard

    folder = d / "bag"
    shutil.copytree(work / "realbag", folder)
    (mcap,) = folder.glob("*.mcap")
    meta = folder / "metadata.yaml"
    mutation = rng.choice(BAGDIR_MUTATIONS)
    if mutation in TEXT_MUTATIONS:
        target = rng.choice([meta, meta, mcap])
        if target == meta:
            meta.write_bytes(_mutate_text(rng, meta.read_text(), mutation, "toml")
                             .replace(b" = ", b": "))
        else:
            mcap.write_bytes(_mutate_bag(rng, mcap.read_bytes(),
                                         rng.choice(["flip", "truncate", "length_field"])))
    elif mutation in FILE_MUTATIONS:
        _as_odd_file(rng.choice([meta, mcap]), mutation)
    elif mutation == "link_to_fifo":
        os.mkfifo(d / "pipe")
        mcap.unlink()
        mcap.symlink_to(d / "pipe")
    elif mutation == "yaml_bomb":
        meta.write_text(YAML_BOMB + meta.read_text())
    elif mutation in ("file_mode_bomb", "message_mode_bomb"):
        mode = "file" if mutation == "file_mode_bomb" else "message"
        if mode == "file":
            # the storage file itself zstd-compressed: 2.4 GB of zeros (~74 KB)
            c = zstandard.ZstdCompressor(level=3).compressobj()
            block = bytes(1 << 22)
            data = b"".join(c.compress(block) for _ in range(572)) + c.flush()
            mcap.unlink()
            (folder / "map.mcap.zstd").write_bytes(data)
            name = "map.mcap.zstd"
        else:
            mcap.write_bytes(_bomb((300_000_000, "zstd", None)))
            name = mcap.name
        meta.write_text(METADATA.format(fmt="zstd", mode=mode, name=name))
    elif mutation == "bomb_mcap":
        mcap.write_bytes(_bomb(rng.choice(BOMB_KEYS)))
    else:                                  # a path that leaves the folder
        meta.write_text(METADATA.format(fmt="", mode="", name="../../../../etc/passwd"))
    return mutation, _bag_argv(rng, folder)


# --------------------------------------------------- profiles (issue 35)
PROFILE = """name = "fuzz"
cell_mm = 90
turn_speed = 420
along = {accel = 4200, max_speed = 1500}
diagonal = {accel = 3600, max_speed = 1200}
turns = {F45 = 257, F90 = 375, F135 = 465, F180 = 563, V90 = 388}
small_turn = 287
pivots = true
orthogonal = "slalom"
library_units = false
"""
PROFILE_HUGE = HUGE + ["1e38", "3.5e38", "1e-300", "1" + "0" * 400, "1e-45", "10001",
                       "0.0009", "1e7", "1e5"]


def profile_case(rng, d: Path) -> tuple[str, list[str]]:
    p = d / "mouse.toml"
    mutation = rng.choice(TEXT_MUTATIONS + FILE_MUTATIONS + ["huge", "huge", "big_file",
                                                             "dict_name", "library"])
    text = PROFILE.replace("library_units = false", "library_units = true") \
        if rng.random() < 0.5 else PROFILE
    if mutation == "huge":
        p.write_text(_replace_value(rng, text, PROFILE_HUGE, "="))
    elif mutation in TEXT_MUTATIONS:
        p.write_bytes(_mutate_text(rng, text, mutation, "toml"))
    elif mutation in FILE_MUTATIONS:
        p.write_text(text)
        _as_odd_file(p, mutation)
    elif mutation == "big_file":
        with open(p, "wb") as fh:
            fh.write(text.encode())
            fh.write(b"# " + b"x" * (40 << 20) + b"\n")
    elif mutation == "dict_name":
        p.write_text(text.replace('name = "fuzz"', rng.choice(
            ['name = {a = 1}', 'name = [1]', 'name = 3', 'name = "' + "n" * 5000 + '"'])))
    else:
        p.write_text(text.replace("library_units = false", "library_units = true")
                     .replace("cell_mm = 90", f"cell_mm = {rng.choice(PROFILE_HUGE)}"))
    maze = str(MAZE16)
    r = rng.random()
    if r < 0.6:
        return mutation, ["mouse", "route", maze, "--profile", str(p),
                          *(["--diagonals"] if rng.random() < 0.5 else [])]
    if r < 0.9:
        return mutation, ["mouse", "solve", maze, "--prove-time", "--profile", str(p)]
    return mutation, ["--max-memory", "256M", "mouse", "route", maze, "--profile", str(p)]


# ------------------------------------------------ OMPL options (issue 35)
OMPL_VALUES = ["1e-300", "1e300", "0", "-1", "nan", "inf", "1e-9", "1e-3", "0.0009", "1e9",
               "1" + "0" * 400, "abc", "", "none", "0.5", "30", "1e-320"]


def ompl_case(rng, d: Path) -> tuple[str, list[str]]:
    method = rng.choice(["ompl:rrt_connect", "ompl:dubins", "ompl:reeds_shepp", "ompl:kpiece",
                         "ompl:rrtstar", "ompl:bitstar", "ompl:prmstar"])
    car = method in ("ompl:dubins", "ompl:reeds_shepp")
    keys = ["step", "planner_range"] + (["turning_radius"] if car else [])
    key = rng.choice(keys)
    argv = ["plan", "prim", "4x4", "--seed", str(rng.randrange(100)), "--method", method,
            "--option", f"max_checks={rng.choice([50, 500, 2000])}"]
    if car and key != "turning_radius":
        argv += ["--option", f"turning_radius={rng.choice(['0.5', '1', '3'])}"]
    argv += ["--option", f"{key}={rng.choice(OMPL_VALUES)}"]
    if rng.random() < 0.3:
        argv += ["--footprint", rng.choice(["disc:0.2", "rect:0.6x0.3", "disc:1e308",
                                            "rect:1e300x1"])]
    return key, argv


# ---------------------------------------------------- hostile mice (issue 35)
MOUSE_KINDS = ["kill-reaper", "stop-reaper", "daemon", "orphan", "setsid"]


def mouse_case(rng, d: Path) -> tuple[str, list[str]]:
    kind = rng.choice(MOUSE_KINDS)
    arg = f"{7000 + os.getpid() % 1000}.{time.monotonic_ns() % 10 ** 6:06d}"
    os.environ.update(ESCAPE_KIND=kind if kind != "setsid" else "daemon", SLEEP_ARG=arg,
                      MOUSE_READY=str(d / "ready"), MOUSE_GO=str(d / "go"),
                      MOUSE_PIDFILE=str(d / "pids"))
    mouse = MICE / ("setsid_mouse.py" if kind == "setsid" else "escape_mouse.py")
    return kind, ["mouse", "run", str(MAZE16), "--command-timeout", "1", "--total-timeout",
                  "10", "--", sys.executable, str(mouse)]


# ------------------------------------------------------------------ running
def run_forked(argv: list[str], d: Path, timeout: float) -> dict:
    """Run ``robomaze ARGV`` in a forked child; exit code, stderr, hang, time."""
    from robomaze.cli import main

    out_path, err_path = d / "stdout.txt", d / "stderr.txt"
    base_kb = _current_rss_kb()
    t0 = time.monotonic()
    pid = os.fork()
    if pid == 0:                                    # the child: the CLI as a command
        code = 1
        start_kb = _current_rss_kb()              # what this child shares with the driver
        try:
            os.setpgid(0, 0)
            resource.setrlimit(resource.RLIMIT_AS, (AS_BYTES, AS_BYTES))
            fo = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            fe = os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(fo, 1)
            os.dup2(fe, 2)
            sys.stdin = open(os.devnull)
            os.chdir(d)
            _confine(d)
            try:
                code = main(argv)
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
            except BaseException:
                traceback.print_exc()
                code = 1
            try:                                    # this child's peak resident memory
                with open(d / "hwm.txt", "w") as fh:
                    fh.write(f"{_hwm_kb()} {start_kb}")
            except OSError:
                pass
            import atexit
            atexit._run_exitfuncs()               # what interpreter exit would run
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code if isinstance(code, int) and 0 <= code < 256 else 1)
    hang = False
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() - t0 > timeout:
            hang = True
            _kill_all(pid)
            _, status, usage = os.wait4(pid, 0)
            break
        time.sleep(0.01)
    left = _end_leftovers()
    code = os.waitstatus_to_exitcode(status) if not hang else None
    err = err_path.read_text(errors="replace") if err_path.exists() else ""
    try:    # the child's own high-water mark over what it started with (the driver's pages)
        peak_kb, start_kb = (int(v) for v in (d / "hwm.txt").read_text().split())
        growth_kb = peak_kb - start_kb
    except (OSError, ValueError):
        peak_kb, growth_kb = usage.ru_maxrss, usage.ru_maxrss - base_kb
    if left:
        err += "\n[left alive: " + "; ".join(_end_leftovers.names) + "]"
    # the traceback flag is taken on the whole stderr: a long traceback's header
    # falls outside the 1,500-character tail that is kept
    return {"code": code, "hang": hang, "leftover": left, "seconds": time.monotonic() - t0,
            "traceback": "Traceback (most recent call last)" in err, "stderr": err[-1500:],
            "peak_kb": peak_kb, "growth_kb": growth_kb,
            "budget": _budget_of(argv), "forked": True}


def _confine(d: Path) -> None:
    """Point the child's home and temporary folders into its case folder, so
    that anything it writes "for itself" lands inside the case (a write
    anywhere else is then a finding of :func:`outside_writes`)."""
    import tempfile

    for sub, var in (("home", "HOME"), ("tmp", "TMPDIR")):
        (d / sub).mkdir(exist_ok=True)
        os.environ[var] = str(d / sub)
    tempfile.tempdir = str(d / "tmp")


#: Names in the work folder the driver itself writes (not findings).
DRIVER_FILES = {"case", "failures", "summary.json", "fresh", "warm"}
#: Caches a command may legitimately write anywhere (numba's, Python's).
CACHE_SUFFIXES = (".nbi", ".nbc", ".pyc")


def tree_state(roots: list[Path]) -> dict[str, tuple]:
    """Every file and folder under ``roots`` with its (mtime, size, inode),
    leaving out the driver's own files, version control and caches."""
    state: dict[str, tuple] = {}
    for root in roots:
        if not root.exists():
            continue
        for dirpath, dirnames, filenames in os.walk(root):
            if Path(dirpath) == root:
                dirnames[:] = [n for n in dirnames if n not in DRIVER_FILES]
                filenames = [n for n in filenames if n not in DRIVER_FILES]
            dirnames[:] = [n for n in dirnames if n not in (".git", "__pycache__")]
            for name in filenames:
                if name.endswith(CACHE_SUFFIXES):
                    continue
                path = os.path.join(dirpath, name)
                try:
                    st = os.lstat(path)
                except OSError:
                    continue
                state[path] = (st.st_mtime_ns, st.st_size, st.st_ino)
    return state


def outside_writes(before: dict, roots: list[Path]) -> tuple[list[str], dict]:
    """The paths under ``roots`` created, changed or removed since ``before``
    (and the new state, so one finding is reported once)."""
    after = tree_state(roots)
    changed = sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))
    return changed, after


def _status_kb(field: str) -> int:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def _current_rss_kb() -> int:
    return _status_kb("VmRSS")


def _hwm_kb() -> int:
    return _status_kb("VmHWM")


def _budget_of(argv: list[str]) -> int | None:
    """The ``--max-memory`` a command runs under (bytes), or None."""
    if "--max-memory" not in argv:
        return None
    from robomaze.io import parse_bytes

    return parse_bytes(argv[argv.index("--max-memory") + 1])


#: Peak RSS (KB) of a fresh ``robomaze`` process reading a small bag: what a
#: real command has before it reads anything big (measured at the start).
FRESH_KB = [0]


def run_prlimit(argv: list[str], d: Path, timeout: float) -> dict:
    """The same case as a real command under ``prlimit --as``."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    t0 = time.monotonic()
    err_path, hwm_path = d / "prlimit-stderr.txt", d / "prlimit-hwm.txt"
    with open(err_path, "wb") as fe, open(os.devnull, "wb") as fo:
        p = subprocess.Popen(["prlimit", f"--as={AS_BYTES}", sys.executable, "-c", _HWM_MAIN,
                              str(hwm_path), *argv], cwd=d, env=env, stdout=fo, stderr=fe,
                             stdin=subprocess.DEVNULL)
        hang = False
        while True:
            done, status, usage = os.wait4(p.pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() - t0 > timeout:
                hang = True
                _kill_all(p.pid)
                _, status, usage = os.wait4(p.pid, 0)
                break
            time.sleep(0.01)
        p.returncode = os.waitstatus_to_exitcode(status)
    code = None if hang else p.returncode
    err = err_path.read_text(errors="replace")
    left = _end_leftovers()
    # the process's own high-water mark (wait4's ru_maxrss also holds the
    # pre-exec copy of this driver, which prlimit's fork started from)
    try:
        peak_kb = int(hwm_path.read_text())
    except (OSError, ValueError):
        peak_kb = usage.ru_maxrss
    return {"code": code, "hang": hang, "leftover": left, "seconds": time.monotonic() - t0,
            "traceback": "Traceback (most recent call last)" in err, "stderr": err[-1500:],
            "peak_kb": peak_kb, "growth_kb": peak_kb,
            "budget": _budget_of(argv), "forked": False}


#: ``python -c`` body of a real case: the console script's main, then the
#: process's VmHWM (its peak resident memory, KB) into the file ``argv[1]``.
_HWM_MAIN = """import sys
from robomaze.cli import main
out = sys.argv[1]
def hwm():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            open(out, "w").write(line.split()[1])
try:
    code = main(sys.argv[2:])
except SystemExit as exc:
    code = exc.code
finally:
    hwm()
sys.exit(code)
"""


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
    if r.get("outside"):
        return "wrote outside its folder: " + ", ".join(r["outside"][:3])
    if r.get("traceback") or "Traceback (most recent call last)" in r["stderr"]:
        last = [ln for ln in r["stderr"].strip().splitlines() if ln.strip()][-1:]
        return "traceback: " + (last[0].split(":")[0] if last else "?")
    if r["code"] not in (0, 1, 2):
        return f"exit code {r['code']}"
    if r["leftover"]:
        return "process left alive"
    if r.get("budget") is not None:
        allowed_kb = (r["budget"] + PEAK_MARGIN) // 1024
        # a forked child starts from the driver's pages: its growth plus a
        # fresh interpreter's own peak is what the real command would reach
        peak = r["growth_kb"] + FRESH_KB[0] if r["forked"] else r["peak_kb"]
        if peak > allowed_kb:
            return f"memory peak {peak // 1024} MB > budget + 200 MB ({allowed_kb // 1024} MB)"
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
    if kind == "bag":
        return bag_case(rng, d, _real_bag(d.parent))
    if kind == "bagdir":
        return bagdir_case(rng, d, d.parent)
    if kind == "profile":
        return profile_case(rng, d)
    if kind == "ompl":
        return ompl_case(rng, d)
    if kind == "mouse":
        return mouse_case(rng, d)
    if kind == "plugin":
        return plugin_results_case(rng, d, base_results)
    return results_case(rng, d, base_results)


def _bag_inputs(work: Path) -> None:
    """A real map bag (file and folder), the bombs built once, and a fresh
    command's own peak memory (:data:`FRESH_KB`)."""
    BOMB_DIR[:] = [work / "bombs"]
    BOMB_DIR[0].mkdir(exist_ok=True)
    real = _real_bag(work)
    if not (work / "realbag").exists():
        import numpy as np
        from robomaze.grid import OccupancyGrid
        from robomaze.io.rosbag2 import write_map_bag

        write_map_bag(OccupancyGrid(np.eye(9, dtype=bool), resolution=0.1), work / "realbag")
    for key in BOMB_KEYS:
        _bomb(key)
    d = _fresh(work / "fresh")
    (d / "map.mcap").write_bytes(real)
    r = run_prlimit(["--max-memory", "256M", "stats", str(d / "map.mcap")], d, 120)
    assert r["code"] == 0, r
    FRESH_KB[0] = r["peak_kb"]


def _warm_up(work: Path, kinds) -> None:
    """Run each command once in the driver, so its numba kernels and lazy
    imports are loaded before the cases fork (else every case pays them)."""
    from robomaze.cli import main

    d = _fresh(work / "warm")
    cmds = []
    if {"bag", "bagdir"} & set(kinds):
        (d / "map.mcap").write_bytes(_real_bag(work))
        cmds += [["stats", str(d / "map.mcap")],
                 ["plan", str(d / "map.mcap"), "--start", "1,1", "--goal", "2,2"]]
    if "profile" in kinds:
        cmds += [["mouse", "route", str(MAZE16), "--diagonals"], ["mouse", "route", str(MAZE16)],
                 ["mouse", "solve", str(MAZE16), "--prove-time"]]
    if "ompl" in kinds:
        cmds += [["plan", "prim", "4x4", "--seed", "1", "--method", m, "--option",
                  "max_checks=200", *(["--option", "turning_radius=1"] if "dubins" in m
                                      else [])]
                 for m in ("ompl:rrt_connect", "ompl:dubins")]
    saved = os.dup(1), os.dup(2)
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 1)
        os.dup2(null, 2)
        for cmd in cmds:
            try:
                main(cmd)
            except SystemExit:
                pass
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in (*saved, null):
            os.close(fd)


def _preload() -> None:
    """Import what the commands import lazily, once, before the first fork."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot  # noqa: F401

    import robomaze.io.rosbag2  # noqa: F401
    import robomaze.micromouse  # noqa: F401
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
    # the cases' HOME is their own folder (see _confine); numba's cache stays
    # the real one, or every case would compile every kernel it touches again
    os.environ.setdefault("NUMBA_CACHE_DIR", os.environ.get(
        "XDG_CACHE_HOME", str(Path.home() / ".cache")))
    set_subreaper(True)
    _preload()
    work = args.out
    work.mkdir(parents=True, exist_ok=True)
    kinds = args.kinds.split(",")
    base_record, base_results = (_base_inputs(work) if {"record", "results", "plugin"}
                                 & set(kinds)
                                 else ("", work))
    if {"bag", "bagdir"} & set(kinds):
        _bag_inputs(work)
    _warm_up(work, kinds)
    rng = random.Random(args.seed)
    counts: dict = {}
    failures: list = []
    exit1: list = []
    agree = {"checked": 0, "same": 0, "differ": []}
    peaks: dict = {}
    # what a case may not touch: the work folder (bombs, base inputs), the
    # project's own tree and the real home folder's top level
    watched = [work, ROOT]
    snapshot = tree_state(watched)
    home_top = set(os.listdir(Path.home()))
    outside_total = 0
    t_start = time.monotonic()
    for i in range(args.cases):
        kind = kinds[i % len(kinds)]
        d = _fresh(work / "case")
        mutation, cmd = make_case(kind, random.Random(rng.getrandbits(64)), d, base_record,
                                  base_results)
        r = run_forked(cmd, d, args.timeout)
        r["outside"], snapshot = outside_writes(snapshot, watched)
        new_home = set(os.listdir(Path.home())) - home_top
        if new_home:
            r["outside"] += [str(Path.home() / n) for n in sorted(new_home)]
            home_top |= new_home
        outside_total += bool(r["outside"])
        bad = verdict(r)
        if r.get("budget") is not None:
            peaks[kind] = max(peaks.get(kind, 0), r["growth_kb"] + FRESH_KB[0])
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
            if verdict(real) and not bad:
                failures.append({"case": i, "kind": kind, "mutation": mutation,
                                 "failure": "real command: " + verdict(real), "argv": cmd,
                                 "code": real["code"], "stderr": real["stderr"][-600:]})
            again, snapshot = outside_writes(snapshot, watched)
            if again:
                failures.append({"case": i, "kind": kind, "mutation": mutation,
                                 "failure": "real command wrote outside its folder: "
                                 + ", ".join(again[:3]), "argv": cmd})
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
                   "prlimit_agreement": agree, "fresh_peak_kb": FRESH_KB[0],
                   "max_peak_kb": peaks, "outside_writes": outside_total,
                   "watched": [str(w) for w in watched], "load": os.getloadavg()}
        if i % 25 == 0 or i == args.cases - 1:
            (work / "summary.json").write_text(json.dumps(summary, indent=1))
    print(json.dumps({k: v for k, v in summary.items() if k not in ("failures", "counts")}))
    print(f"failures: {len(failures)}")
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main_())
