"""TUM files: read back exactly; evo's APE RMSE equals ate_rmse (evo is in the test extra)."""

import json
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest

from robomaze.cli import main
from robomaze.localize import ate_rmse, read_tum, write_tum

ARGS = ["simulate", "kruskal", "6x6", "--seed", "3", "--corridor", "5", "--footprint",
        "disc:0.15", "--agent", "follow_plan", "--odometry-noise", "gaussian:0.02+drift:0.02",
        "--localize", "mcl"]


def test_write_read_round_trip(tmp_path):
    rng = np.random.default_rng(0)
    t = np.arange(50) * 0.05
    p = np.column_stack([rng.normal(size=50), rng.normal(size=50), rng.uniform(-3.1, 3.1, 50)])
    write_tum(tmp_path / "a.tum", t, p)
    t2, p2 = read_tum(tmp_path / "a.tum")
    assert np.array_equal(t, t2) and np.array_equal(p[:, :2], p2[:, :2])
    np.testing.assert_allclose(p2[:, 2], p[:, 2], atol=1e-12)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    d = tmp_path_factory.mktemp("tum")
    prefix = str(d / "run")
    out = subprocess.run([sys.executable, "-m", "robomaze", *ARGS, "--tum", prefix, "--json"],
                         capture_output=True, text=True, env={**os.environ}, check=False)
    assert out.returncode == 0, out.stderr
    return prefix, json.loads(out.stdout)


def test_json_summary_and_files_agree(run):
    prefix, doc = run
    assert doc["success"] and doc["localize"] == "mcl" and doc["metrics"]["collisions"] == 0
    _, truth = read_tum(prefix + "-truth.tum")
    _, est = read_tum(prefix + "-estimate.tum")
    assert ate_rmse(truth, est) == pytest.approx(doc["metrics"]["ate_rmse"], abs=1e-12)
    assert doc["outputs"] == [prefix + "-estimate.tum", prefix + "-truth.tum"]


def test_evo_api_reports_the_same_rmse(run):
    pytest.importorskip("evo")
    from evo.core import metrics, sync
    from evo.tools import file_interface

    prefix, doc = run
    ref = file_interface.read_tum_trajectory_file(prefix + "-truth.tum")
    est = file_interface.read_tum_trajectory_file(prefix + "-estimate.tum")
    ref, est = sync.associate_trajectories(ref, est)
    ape = metrics.APE(metrics.PoseRelation.translation_part)
    ape.process_data((ref, est))
    assert ape.get_statistic(metrics.StatisticsType.rmse) == pytest.approx(
        doc["metrics"]["ate_rmse"], abs=1e-6)


def test_evo_ape_command_reports_the_same_rmse(run, tmp_path):
    pytest.importorskip("evo")
    exe = shutil.which("evo_ape")
    if exe is None:
        pytest.skip("evo_ape is not on PATH")
    prefix, doc = run
    # HOME: evo writes its settings file there on first use
    out = subprocess.run([exe, "tum", prefix + "-truth.tum", prefix + "-estimate.tum"],
                         capture_output=True, text=True, env={**os.environ, "HOME": str(tmp_path)},
                         check=True)
    rmse = float(re.search(r"rmse\s+([0-9.eE+-]+)", out.stdout).group(1))
    # evo prints 6 decimals
    assert rmse == pytest.approx(doc["metrics"]["ate_rmse"], abs=5e-7 + 1e-9)


def test_tum_without_localizer_is_one_line_error(capsys, tmp_path):
    rc = main(ARGS[:-2] + ["--tum", str(tmp_path / "x")])
    err = capsys.readouterr().err
    assert rc == 2 and "--tum" in err and len(err.strip().splitlines()) == 1


def test_summary_line_reports_the_localisation_metrics(capsys):
    rc = main(ARGS[:-2] + ["--localize", "slam", "--agent", "explore"])
    out = capsys.readouterr().out
    assert rc == 0 and out.startswith("goal ") and "ate_rmse=" in out and "map_iou_free=" in out


@pytest.mark.parametrize("loc,agent", [("mcl", "follow_plan"), ("slam", "explore")])
def test_localize_image_is_written(tmp_path, capsys, loc, agent):
    img = tmp_path / "loc.png"
    rc = main(ARGS[:-2] + ["--localize", loc, "--agent", agent, "--localize-image", str(img)])
    assert rc == 0 and img.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert str(img) in capsys.readouterr().out


def test_localize_image_without_localizer_is_one_line_error(tmp_path, capsys):
    rc = main(ARGS[:-2] + ["--localize-image", str(tmp_path / "x.png")])
    err = capsys.readouterr().err
    assert rc == 2 and "--localize-image" in err and len(err.strip().splitlines()) == 1
