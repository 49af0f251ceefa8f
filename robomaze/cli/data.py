"""``robomaze data``: list, locate and copy the sample data shipped in the package."""

from __future__ import annotations

import shutil
from pathlib import Path

from ..data import describe, list_samples, sample_path
from ..errors import ParameterError
from ._args import add_command

EPILOG = """\
Any command that takes a file also takes pkg:NAME for a sample, e.g.
  robomaze mouse solve pkg:micromouse/16MM2019CX.maze
  robomaze bench pkg:scenarios/micromouse.toml -o mm-results

examples:
  robomaze data list
  robomaze data list micromouse
  robomaze data path micromouse/tiny-4x4.txt
  robomaze data copy scenarios/ci.toml my-sweep.toml
"""


def register(subparsers) -> None:
    p = add_command(subparsers, "data", help="list, locate and copy the packaged sample data",
                    description="The sample data shipped with robomaze: micromouse contest "
                                "mazes, a MovingAI map, a ROS map, a recorded walk, an example "
                                "mms mouse and the scenario files.",
                    epilog=EPILOG)
    sub = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    ls = sub.add_parser("list", help="list the samples (optionally of one folder)")
    ls.add_argument("folder", nargs="?", default=None, help="micromouse, movingai, ros, ...")
    ls.set_defaults(func=run_list)
    pa = sub.add_parser("path", help="print the path of a sample")
    pa.add_argument("name", help="folder/file or a unique file name")
    pa.set_defaults(func=run_path)
    cp = sub.add_parser("copy", help="copy a sample (or a whole folder) to DEST")
    cp.add_argument("name", help="folder/file, a unique file name, or a folder")
    cp.add_argument("dest", nargs="?", default=".", help="file or folder (default .)")
    cp.set_defaults(func=run_copy)
    for parser in (ls, pa, cp):
        parser.error = p.error  # one-line errors, like every other command


def run_list(args) -> int:
    names = list_samples()
    if args.folder is not None:
        folder = args.folder.strip("/")
        names = [n for n in names if n.split("/", 1)[0] == folder]
        if not names:
            folders = sorted({n.split("/", 1)[0] for n in list_samples()})
            raise ParameterError(f"no sample folder {args.folder!r}; expected one of "
                                 f"{', '.join(folders)}")
    last = None
    for n in names:
        folder = n.split("/", 1)[0]
        if folder != last:
            print(f"{folder}/  {describe(n)}")
            last = folder
        size = sample_path(n).stat().st_size
        print(f"  {n:<44} {size:>9,d} B")
    return 0


def run_path(args) -> int:
    print(sample_path(args.name))
    return 0


def _folder(name: str) -> list[str]:
    name = name.removeprefix("pkg:").strip("/")
    return [n for n in list_samples() if n.split("/", 1)[0] == name]


def run_copy(args) -> int:
    dest = Path(args.dest)
    members = _folder(args.name)
    if members:
        dest = dest / args.name.removeprefix("pkg:").strip("/")
        sources = [(sample_path(n), dest / n.split("/", 1)[1]) for n in members]
    else:
        src = sample_path(args.name)
        sources = [(src, dest / src.name if dest.is_dir() else dest)]
    for src, target in sources:
        if target.exists():
            raise ParameterError(f"DEST {str(target)!r} exists; robomaze data copy "
                                 "never overwrites a file")
    for src, target in sources:
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, target)
        print(target)
    return 0
