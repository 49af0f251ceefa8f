"""The ``robomaze simulate`` command."""

import pytest

from robomaze.cli import main
from robomaze.sim import Trajectory


def test_simulate_writes_trajectory_image_and_summary(tmp_path, capsys):
    traj, img = tmp_path / "run.npz", tmp_path / "run.png"
    rc = main(["simulate", "kruskal", "5x5", "--seed", "2", "--corridor", "5",
               "--resolution", "0.1", "--footprint", "disc:0.15", "--agent", "explore",
               "-o", str(traj), "--image", str(img)])
    out = capsys.readouterr().out
    assert rc == 0 and out.startswith("goal ") and "collisions=0" in out and "seen=" in out
    tr = Trajectory.load(traj)
    assert tr.meta["agent"] == "explore" and not tr.collisions.any()
    assert img.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_simulate_agent_options_and_sensor(capsys):
    rc = main(["simulate", "prim", "5x5", "--seed", "1", "--agent", "wall_follow",
               "--sensor", "ir", "--option", "side=left"])
    assert rc == 0 and "collisions=0" in capsys.readouterr().out


@pytest.mark.parametrize("argv,match", [
    (["--agent", "teleport"], "unknown agent"),
    (["--sensor", "sonar"], "unknown sensor"),
    (["--image", "x.jpg"], "--image"),
    (["--footprint", "blob:3"], "--footprint"),
])
def test_simulate_errors_are_one_line(argv, match, capsys):
    rc = main(["simulate", "prim", "4x4", "--seed", "1"] + argv)
    err = capsys.readouterr().err
    assert rc == 2 and match in err and len(err.strip().splitlines()) == 1
