"""Fuzz every reader with mutated sample files (issue 11).

Hypothesis mutates a valid sample of each format -- byte flips, truncation,
huge numbers, odd unicode, CRLF line ends, a byte-order mark, deleted and
repeated slices -- and every reader must either read the file or raise the
documented error (:class:`~robomaze.errors.MazeFormatError` for maze and
grid files, :class:`~robomaze.errors.RecordFormatError` for records and
trajectories). Nothing else may escape: no ValueError, OverflowError,
RecursionError, MemoryError, zipfile or Pillow error.

Budgets: readers run under a small cell limit (``limit_cells``), the
process's address space is capped about 1.5 GiB above what it already
uses, and a reader that takes more than 30 s on one example counts as a
hang. ``ROBOMAZE_FUZZ_EXAMPLES`` sets the examples per format (default 60,
about 30 s for the whole file on a quiet machine); a longer run is
``ROBOMAZE_FUZZ_EXAMPLES=20000 python -m pytest tests/io/test_fuzz.py``.
Writing this file and running it at 60, 1500 and 20000 examples per case
found six leaks, all fixed: a YAML control character (yaml.ReaderError),
negative/huge .npy shapes and .scen exponents no double holds
(OverflowError), and record values, a huge maze JSON goal index and a long
``image:`` name repeated in messages. The 20000-example campaign (15 cases,
~300,000 files) now finds none.
"""

import contextlib
import importlib.util
import io
import os
import resource
import shutil
import signal
from functools import partial
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

import robomaze
from robomaze import limit_cells
from robomaze.errors import MazeFormatError, RecordFormatError
from robomaze.generate import generate
from robomaze.grid import OccupancyGrid
from robomaze.io import (read_grid, read_image, read_maze, read_maze_json, read_micromouse,
                         read_movingai, read_npy, read_num, read_rosmap, read_scen, write_grid,
                         write_maze)
from robomaze.sim.trajectory import Trajectory
from robomaze.traverse.record import read_record

EXAMPLES = int(os.environ.get("ROBOMAZE_FUZZ_EXAMPLES", "60"))
DATA = Path(__file__).resolve().parents[1] / "data"
WALK = Path(robomaze.__file__).parent / "data" / "samples" / "walks" / "sample-walk.jsonl"
#: Cells the readers may allocate while fuzzed (the samples hold far fewer).
FUZZ_CELLS = 300_000
HANG_SECONDS = 30

ODD = ["\u00b2", "\u0663", "\u2028", "\u0085", "\ufeff", "\x00", "\x0c", "\u00e9",
       "\U0001F600", "\ud7ff", "\u202e", "\r", "\t", "\\", "'", '"', "#", ":", "{", "[", "]",
       "- ", "&a", "*a", "!!python/object:os.system", "NaN", "Infinity", "-0", "1e400"]
HUGE = ["9" * 30, "9" * 5000, "-" + "9" * 25, "1" + "0" * 28, "4294967297", "18446744073709551617",
        "1e308", "99999", "65536", "-1", "0"]


@st.composite
def mutations(draw, sample: bytes) -> bytes:
    """A mutated copy of ``sample`` (1-4 edits)."""
    data = bytearray(sample)
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["flip", "truncate", "huge", "odd", "crlf", "bom",
                                   "delete", "repeat", "byte"]))
        n = len(data)
        at = draw(st.integers(0, max(n, 1) - 1)) if n else 0
        if op == "flip" and n:
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif op == "byte" and n:
            data[at] = draw(st.integers(0, 255))
        elif op == "truncate":
            del data[at:]
        elif op == "huge":
            data[at:at + draw(st.integers(0, 3))] = draw(st.sampled_from(HUGE)).encode()
        elif op == "odd":
            data[at:at] = draw(st.sampled_from(ODD)).encode("utf-8", "surrogatepass")
        elif op == "crlf":
            data = bytearray(bytes(data).replace(b"\n", b"\r\n"))
        elif op == "bom":
            data[0:0] = b"\xef\xbb\xbf"
        elif op == "delete" and n:
            del data[at:at + draw(st.integers(1, 64))]
        elif op == "repeat" and n:
            data[at:at] = data[at:at + draw(st.integers(1, 256))] * draw(st.integers(1, 8))
    return bytes(data)


@contextlib.contextmanager
def budget():
    """Small cell limit, capped address space, and a hang alarm."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    with open("/proc/self/statm") as fh:
        vm = int(fh.read().split()[0]) * resource.getpagesize()
    cap = vm + (3 << 29)
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))

    def hang(signum, frame):
        raise AssertionError(f"a reader ran over {HANG_SECONDS} s on one example (hang?)")

    old = signal.signal(signal.SIGALRM, hang)
    signal.alarm(HANG_SECONDS)
    try:
        with limit_cells(FUZZ_CELLS):
            yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


# ------------------------------------------------------------------ samples
def _samples(root: Path) -> dict:
    """name -> (file written, readers, documented error)."""
    maze = generate("backtracker", 6, 7, rng=3)
    out = {}
    for ext in (".maze", ".num", ".json"):
        p = root / f"sample{ext}"
        write_maze(maze, p)
        out[ext] = p
    shutil.copy(DATA / "micromouse" / "04_test_01.maze", root / "real.maze")
    grid = OccupancyGrid(np.random.default_rng(1).random((9, 11)) < 0.3, resolution=0.05)
    for ext in (".map", ".npy", ".png", ".pgm", ".txt"):
        write_grid(grid, root / f"sample{ext}")
    if importlib.util.find_spec("rosbags"):
        write_grid(grid, root / "sample.mcap")
    Image.fromarray(np.array([[0, 40000, 65535]], np.uint16)).save(root / "sixteen.png")
    shutil.copy(DATA / "ros" / "room.pgm", root / "room.pgm")
    shutil.copy(DATA / "ros" / "room.yaml", root / "room.yaml")
    scen = (DATA / "movingai" / "maze512-1-0.map.scen").read_text().splitlines()[:12]
    (root / "sample.scen").write_text("\n".join(scen) + "\n")
    shutil.copy(WALK, root / "walk.jsonl")
    tr = Trajectory(np.array([0.0, 0.1, 0.2]), np.array([[0, 0, 0], [0.05, 0, 0], [0.1, 0, 0.1]]),
                    np.array([[0, 0], [0.5, 0], [0.5, 1.0]]), np.array([False, False, True]),
                    scans=np.ones((3, 4)), meta={"dt": 0.1})
    tr.save(root / "traj.npz")
    return out


MAZE_READERS = [read_maze, partial(read_maze, strict=True), partial(read_maze, unknown="open"),
                read_micromouse, read_num, read_maze_json]
GRID_READERS = [read_grid, partial(read_grid, strict=True, unknown="free"), read_movingai,
                read_npy, read_image]

CASES = {
    # name: (sample file, readers, documented error)
    "micromouse": ("sample.maze", MAZE_READERS, MazeFormatError),
    "micromouse-real": ("real.maze", MAZE_READERS, MazeFormatError),
    "num": ("sample.num", MAZE_READERS, MazeFormatError),
    "json": ("sample.json", MAZE_READERS, MazeFormatError),
    "movingai": ("sample.map", GRID_READERS, MazeFormatError),
    "npy": ("sample.npy", GRID_READERS, MazeFormatError),
    "png": ("sample.png", GRID_READERS, MazeFormatError),
    "png16": ("sixteen.png", GRID_READERS, MazeFormatError),
    "pgm": ("sample.pgm", GRID_READERS, MazeFormatError),
    "matrix": ("sample.txt", GRID_READERS + [read_maze], MazeFormatError),
    "rosmap-yaml": ("room.yaml", [read_rosmap, read_grid], MazeFormatError),
    "rosmap-pgm": ("room.pgm", [read_grid], MazeFormatError),
    "scen": ("sample.scen", [read_scen], MazeFormatError),
    "rosbag2": ("sample.mcap", [read_grid], MazeFormatError),
    "record": ("walk.jsonl", [read_record], RecordFormatError),
    "trajectory": ("traj.npz", [Trajectory.load], RecordFormatError),
}


@pytest.fixture(scope="module")
def samples(tmp_path_factory):
    root = tmp_path_factory.mktemp("fuzz")
    _samples(root)
    return root


def test_every_registered_format_has_a_fuzz_case():
    from robomaze.io import FORMATS
    covered = {"micromouse", "num", "json", "movingai", "npy", "image", "matrix", "rosmap",
               "rosbag2"}
    assert set(FORMATS) == covered


def test_samples_are_valid(samples):
    for name, (file, readers, _) in CASES.items():
        readers[0](samples / file)    # the unmutated sample reads


@pytest.mark.parametrize("case", sorted(CASES))
def test_fuzz_reader(samples, case):
    file, readers, documented = CASES[case]
    path = samples / file
    if case == "rosbag2" and not path.exists():
        pytest.skip("rosbags is not installed (the ros extra)")
    original = path.read_bytes()
    target = samples / f"mut-{case}{path.suffix}"
    if case == "rosmap-pgm":     # the YAML stays, its image is mutated
        (samples / "mut.yaml").write_text((samples / "room.yaml").read_text()
                                          .replace("room.pgm", target.name))

    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(mutations(original))
    def run(data):
        target.write_bytes(data)
        where = samples / "mut.yaml" if case == "rosmap-pgm" else target
        for reader in readers:
            with budget():
                try:
                    reader(where)
                except documented as exc:
                    # names the file; never repeats a long run of its bytes
                    assert str(where) in str(exc) or str(target) in str(exc)
                    msg = str(exc).replace(str(where), "").replace(str(target), "")
                    for k in range(0, max(len(data) - 24, 1), 24):
                        piece = data[k:k + 24]
                        if len(piece) == 24 and piece.isascii() and piece.strip():
                            assert piece.decode() not in msg
    run()


def test_fuzz_budget_catches_a_runaway_allocation():
    # the guard itself works: an allocation far over the cap is a MemoryError
    with pytest.raises(MemoryError):
        with budget():
            bytearray(8 << 30)
    io.BytesIO(b"x").read()      # and the process is usable afterwards
