"""Sample data shipped inside the package, and ``pkg:`` names for it.

A pip-installed robomaze has no repository beside it, so the files the
README and the scenario files use travel with the package: a few micromouse
contest mazes (MIT, kerikun11/micromouse-maze-data), one MovingAI benchmark
map with its scenarios, the ROS ``room`` map, a recorded walk, an example
mms mouse program and the scenario files. Each is named by its path under
``robomaze/data/samples`` (``micromouse/16MM2019CX.maze``); a bare file name
works when it is unique. Anywhere robomaze takes a file, ``pkg:NAME`` names
a sample:

    robomaze mouse solve pkg:micromouse/16MM2019CX.maze
    robomaze bench pkg:scenarios/ci.toml -o ci-results

Examples
--------
>>> from robomaze.data import sample_path, list_samples
>>> sample_path("micromouse/tiny-4x4.txt").name
'tiny-4x4.txt'
>>> sample_path("tiny-4x4.txt") == sample_path("micromouse/tiny-4x4.txt")
True
>>> "ros/room.yaml" in list_samples()
True
>>> resolve("pkg:ros/room.yaml") == sample_path("ros/room.yaml")
True
>>> str(resolve("maze.json"))
'maze.json'
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

from ..errors import ParameterError

__all__ = ["SAMPLES_DIR", "PREFIX", "list_samples", "sample_path", "resolve", "describe"]

#: Folder of the packaged samples.
SAMPLES_DIR = Path(__file__).resolve().parent / "samples"
#: Prefix that marks a packaged sample wherever a file name is expected.
PREFIX = "pkg:"

# What each folder holds (shown by `robomaze data list`).
_FOLDERS = {
    "micromouse": "micromouse contest mazes (MIT licence, kerikun11/micromouse-maze-data)",
    "movingai": "MovingAI grid benchmark maze512-1-0 with its 12,120 problems",
    "ros": "ROS map_server maps (YAML + PGM), trinary, 0.05 m",
    "walks": "a recorded walk (JSON Lines traversal record)",
    "mice": "example mouse programs for the mms protocol",
    "scenarios": "benchmark sweep files",
}
_HIDDEN_SUFFIXES = (".pyc",)


def list_samples() -> list[str]:
    """Names of every packaged sample, sorted (``folder/file``).

    Licence and README files are samples too, so they can be found and
    copied along with the data they cover.
    """
    names = []
    for p in SAMPLES_DIR.rglob("*"):
        if p.is_file() and "__pycache__" not in p.parts and p.suffix not in _HIDDEN_SUFFIXES:
            names.append(p.relative_to(SAMPLES_DIR).as_posix())
    return sorted(names)


def describe(name: str) -> str:
    """One line on what the folder of sample ``name`` holds."""
    return _FOLDERS.get(name.split("/", 1)[0], "")


def sample_path(name: str) -> Path:
    """Path of the packaged sample ``name`` (``folder/file`` or a unique file name).

    Raises
    ------
    ParameterError
        If no sample has that name (the message suggests close names), or
        a bare file name matches several samples.
    """
    name = str(name)
    if name.startswith(PREFIX):
        name = name[len(PREFIX):]
    names = list_samples()
    if name in names:
        return SAMPLES_DIR / name
    by_file = [n for n in names if n.rsplit("/", 1)[-1] == name]
    if len(by_file) == 1:
        return SAMPLES_DIR / by_file[0]
    if len(by_file) > 1:
        raise ParameterError(f"sample name {name!r} is ambiguous: it matches "
                             f"{', '.join(by_file)}; give the folder too")
    close = difflib.get_close_matches(name, names + [n.rsplit("/", 1)[-1] for n in names],
                                      n=3, cutoff=0.5)
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    raise ParameterError(f"no packaged sample named {name!r}{hint} "
                         "(see `robomaze data list`)")


def resolve(path: str | os.PathLike) -> Path:
    """A file argument as a path: ``pkg:NAME`` becomes the sample's path.

    Anything else is returned unchanged as a :class:`~pathlib.Path`.
    """
    text = os.fspath(path)
    if isinstance(text, str) and text.startswith(PREFIX):
        return sample_path(text)
    return Path(text)
