"""The package's public ``floodfill`` stays the function whatever was imported first."""

import subprocess
import sys

import pytest

ORDERS = [
    "import robomaze.micromouse.followers",             # imports the floodfill module
    "from robomaze.micromouse.floodfill import WallMap",
    "import robomaze.micromouse._warm",
    "",
]


@pytest.mark.parametrize("first", ORDERS)
def test_floodfill_is_the_function_after_its_module_was_imported(first):
    code = (f"{first}\n"
            "import types\n"
            "from robomaze.maze import Maze\n"
            "from robomaze.micromouse import floodfill, solve\n"
            "import robomaze.micromouse as m\n"
            "assert not isinstance(floodfill, types.ModuleType), floodfill\n"
            "assert m.floodfill is floodfill\n"
            "from robomaze.micromouse.floodfill import floodfill as f2\n"
            "assert f2 is floodfill\n"
            "maze = Maze.empty(4, 4, start=(3, 0), goals=[(1, 1)])\n"
            "print(floodfill(maze).route_length, solve(maze, method='floodfill').route_length)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["3", "3"]  # the 4x4 open maze's route, as the package doctest
