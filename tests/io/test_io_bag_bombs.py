"""Bags within the memory budget (issue 35): decompression bombs, maps larger
than the cell limit or the budget, FIFOs in bag folders, broken quaternions
and multi-line library errors -- each one line, exit 2."""

import math
import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("rosbags")
zstandard = pytest.importorskip("zstandard")

from robomaze import limit_cells  # noqa: E402
from robomaze.errors import MazeFormatError  # noqa: E402
from robomaze.io import limit_memory, read_grid  # noqa: E402
from robomaze.io.rosbag2 import read_bag_grid, write_map_bag  # noqa: E402
from robomaze.grid import OccupancyGrid  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bag_bombs import bag_bytes  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _write(path, data):
    path.write_bytes(data)
    return path


def test_a_small_hand_built_bag_reads_as_its_map(tmp_path):
    # the builder itself is right: a 4x3 map of zeros, origin at 0
    g = read_grid(_write(tmp_path / "ok.mcap", bag_bytes(12, width=4, height=3)))
    assert g.shape == (3, 4) and not g.occupied.any() and g.origin == (0.0, 0.0, 0.0)


def test_a_77_kb_zstd_bomb_exits_2_below_the_budget_plus_200_mb(tmp_path):
    bomb = _write(tmp_path / "bomb.mcap", bag_bytes(2_400_000_000, width=48_000,
                                                  height=50_000))
    assert len(bomb.read_bytes()) < 100_000                # ~74 KB for 2.4 GB of map
    code = ("import resource, sys\n"
            "from robomaze.cli import main\n"
            "rc = main(['--max-memory', '256M', 'stats', sys.argv[1]])\n"
            # VmHWM: this image's own peak (ru_maxrss keeps the peak of the
            # process that forked it across exec: a big test worker's)
            "print([l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')][0])\n"
            "sys.exit(rc)\n")
    p = subprocess.run([sys.executable, "-c", code, str(bomb)], capture_output=True,
                       text=True, timeout=300, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert p.returncode == 2
    assert p.stderr.count("\n") == 1 and "MCAP chunk of 2400000" in p.stderr
    assert "budget of 256.00 MiB" in p.stderr
    assert int(p.stdout) < 456 * 1024, f"peak RSS {int(p.stdout) / 1024:.0f} MB"


@pytest.mark.parametrize("compression", ["zstd", "lz4"])
def test_declared_chunk_sizes_are_checked_before_decompressing(tmp_path, compression):
    bomb = _write(tmp_path / "b.mcap", bag_bytes(300_000_000, compression=compression))
    with limit_memory("64M"), pytest.raises(MazeFormatError,
                                            match=f"{compression} MCAP chunk of 300000"):
        read_grid(bomb)


def test_a_chunk_that_lies_about_its_size_is_never_decoded_past_it(tmp_path):
    # declares 1000 bytes, holds 300 MB: decoding stops at 1001 bytes
    liar = _write(tmp_path / "liar.mcap", bag_bytes(300_000_000, declared=1000))
    import resource
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(MazeFormatError, match="Chunk size mismatch: expected 1000 bytes, "
                                              "got 1001"):
        read_grid(liar)
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 100_000


def test_total_decoded_bytes_count_against_the_budget(tmp_path):
    # one 9-million-cell map, honest and stored uncompressed: a 1M budget refuses it
    big = _write(tmp_path / "big.mcap", bag_bytes(9_000_000, width=3000, height=3000,
                                                 compression="none"))
    with limit_memory("1M"), pytest.raises(MazeFormatError, match="budget of 1.00 MiB"):
        read_grid(big)
    with limit_memory("200M"):
        assert read_grid(big).shape == (3000, 3000)


def test_map_cells_are_checked_against_the_cell_limit_before_the_grid(tmp_path):
    p = _write(tmp_path / "m.mcap", bag_bytes(90_000, width=300, height=300))
    with limit_cells(10_000), pytest.raises(MazeFormatError, match="more than the limit of "
                                                                   "10000 cells"):
        read_grid(p)
    # a map that claims more cells than its data holds is refused, not allocated
    liar = _write(tmp_path / "l.mcap", bag_bytes(16, width=100_000, height=100_000))
    with pytest.raises(MazeFormatError, match="10000000000 cells"):
        read_grid(liar)


@pytest.mark.parametrize("quat", [(0.0, 0.0, math.inf, 1.0), (0.0, 0.0, math.nan, 1.0),
                                  (0.0, 0.0, 0.0, 0.0)])
def test_a_broken_origin_quaternion_is_refused(tmp_path, quat):
    p = _write(tmp_path / "q.mcap", bag_bytes(4, width=2, height=2, quat=quat))
    with pytest.raises(MazeFormatError, match="origin orientation .* is not a rotation"):
        read_grid(p)


def test_a_scaled_quaternion_is_normalised(tmp_path):
    # (0, 0, sin 45, cos 45) scaled by 3: yaw 90 degrees, as a ROS tool reads it
    s = 3 * math.sqrt(0.5)
    g = read_grid(_write(tmp_path / "s.mcap", bag_bytes(4, width=2, height=2,
                                                       quat=(0.0, 0.0, s, s))))
    assert g.origin[2] == pytest.approx(math.pi / 2)


def _folder(tmp_path):
    g = OccupancyGrid(np.eye(3, dtype=bool), resolution=0.05)
    folder = tmp_path / "bag"
    write_map_bag(g, folder)
    (mcap,) = folder.glob("*.mcap")
    return folder, mcap


def _no_hang(fn, timeout=30.0):
    box = []

    def run():
        try:
            box.append(("ok", fn()))
        except Exception as exc:   # noqa: BLE001 - the test looks at it
            box.append(("err", exc))
    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(timeout)
    assert box, "the read blocked"
    return box[0]


@pytest.mark.parametrize("how", ["fifo", "link-to-fifo", "dev-zero"])
def test_fifos_and_devices_in_a_bag_folder_are_refused(tmp_path, how):
    folder, mcap = _folder(tmp_path)
    assert read_grid(folder).shape == (3, 3)
    mcap.unlink()
    if how == "fifo":
        os.mkfifo(mcap)
    elif how == "link-to-fifo":
        os.mkfifo(tmp_path / "pipe")
        os.symlink(tmp_path / "pipe", mcap)
    else:
        os.symlink("/dev/zero", mcap)
    for reader in (read_grid, read_bag_grid):
        kind, exc = _no_hang(lambda: reader(folder))
        assert kind == "err" and isinstance(exc, MazeFormatError)
        assert "expected a regular file" in str(exc) and mcap.name in str(exc)


def test_a_fifo_given_as_the_mcap_itself_is_refused(tmp_path):
    os.mkfifo(tmp_path / "p.mcap")
    kind, exc = _no_hang(lambda: read_bag_grid(tmp_path / "p.mcap"))
    assert kind == "err" and "FIFO" in str(exc)


def test_yaml_errors_of_a_bag_folder_are_one_line(tmp_path):
    folder, _ = _folder(tmp_path)
    (folder / "metadata.yaml").write_text("rosbag2_bagfile_information:\n  version: [\n"
                                          "  - a: b\n    c\n  ]]]\n")
    with pytest.raises(MazeFormatError) as e:
        read_grid(folder)
    assert "\n" not in str(e.value) and "not a readable ROS 2 bag" in str(e.value)


def test_a_huge_metadata_yaml_is_refused_before_parsing(tmp_path):
    folder, _ = _folder(tmp_path)
    (folder / "metadata.yaml").write_bytes(b"#" * (2 << 20))
    with pytest.raises(MazeFormatError, match="larger than the limit of 1048576 bytes"):
        read_grid(folder)
