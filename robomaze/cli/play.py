"""``robomaze play``: walk a maze yourself in a window and save the record."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..grid import OccupancyGrid
from ..maze import Maze
from ._args import add_command, nonneg_int, out_extension, positive_int
from ._world import add_world_args, build_world, parse_seed, widened, world_spec

EPILOG = """\
source: a generator name with a SIZE (see `robomaze list generators`), a maze
or grid file, or a traversal record (.jsonl: play the same maze again).
--corridor/--wall widen the maze: you then walk grid cell by grid cell.

keys: arrows move north/east/south/west (--controls arrows), or a = turn
left, w = forward, d = turn right (--controls robot); h = hint (the next 5
cells of the shortest way, recorded and counted); q or escape ends.

--web serves the game to a browser instead of opening a window (no display
needed): open the printed URL; walk after walk ("next maze" advances the
generator seed by one), each saved as walk-NNN.jsonl in --record-dir.
The server binds 127.0.0.1 unless --host says otherwise (then the printed
URL carries a random token every request must show); Ctrl-C (or the page's
/api/quit) stops it. The page's URL names its maze and mode
(?gen=wilson&size=20x30&seed=5&braid=0&placement=corners&corridor=0&mode=torch:
the maze of `robomaze generate wilson 20x30 --seed 5`; corridor=0 walks cell
by cell, corridor=3&wall=1 a widened maze), so a URL re-creates its maze in
any server. A page may name any registered generator, never a file. A
restarted server lists every record in --record-dir and offers to go on
with an unfinished walk of its maze.

examples:
  robomaze play backtracker 10x10 --seed 3 --mode torch -o walk.jsonl
  robomaze play kruskal 8 --seed 1 --corridor 3 --controls robot -o robot.jsonl
  robomaze play maze.json --mode trail -o walk.jsonl
  robomaze play prim 12x12 --seed 2 --mode theseus -o thread.jsonl
  robomaze play backtracker 10x10 --seed 3 --web --port 8000 --mode explorer
"""


def register(subparsers) -> None:
    p = add_command(subparsers, "play", help="walk a maze interactively and record it",
                    description="Open a window on a maze and walk it with the keyboard; "
                                "the walk is saved as a traversal record.",
                    epilog=EPILOG)
    add_source_arguments(p)
    p.add_argument("--mode", choices=("full", "trail", "torch", "explorer", "theseus",
                                      "sage-torch", "sage-explorer"),
                   default="full",
                   help="what is visible: everything; the cells around your trail; only "
                        "the cells around you (torch); blind, only the cells visited and "
                        "their walls (explorer); the thread from the start to you and the "
                        "cells around you (theseus); the Sage notebook's modes: your "
                        "cell and its walls (sage-torch), your cell alone (sage-explorer) "
                        "(default full)")
    p.add_argument("--radius", type=nonneg_int, default=1, metavar="N",
                   help="neighbourhood radius of torch/trail/theseus in cells (default 1: 3x3)")
    p.add_argument("--controls", choices=("arrows", "robot"), default="arrows",
                   help="arrow keys (absolute moves) or a/w/d turn-left/forward/turn-right")
    p.add_argument("--start", type=_cell_arg, default=None, metavar="R,C",
                   help="start cell at the level you walk (default the maze start; "
                        "required for a plain grid file)")
    p.add_argument("--goal", type=_cell_arg, action="append", default=None, metavar="R,C",
                   help="goal cell, repeatable (maze cells; grid cells for a plain grid)")
    p.add_argument("--name", default="", help="who walks (stored in the record)")
    p.add_argument("--cell-px", type=positive_int, default=None, metavar="N",
                   help="pixels per cell of the window")
    p.add_argument("-o", "--output", metavar="RECORD", default=None,
                   help="save the record here (.jsonl)")
    add_web_arguments(p)
    add_palette_argument(p)
    p.add_argument("--record-dir", metavar="DIR", default="walks",
                   help="with --web: where the walks are saved (default ./walks)")
    p.set_defaults(func=run)


def add_web_arguments(p: argparse.ArgumentParser) -> None:
    """--web, --host, --port, --open (shared with ``replay``)."""
    p.add_argument("--web", action="store_true",
                   help="serve the page to a web browser instead of opening a window")
    p.add_argument("--host", default="127.0.0.1",
                   help="with --web: address to bind (default 127.0.0.1, this machine only)")
    p.add_argument("--port", type=_port, default=8000,
                   help="with --web: TCP port, 0 = any free port (default 8000)")
    p.add_argument("--open", action="store_true",
                   help="with --web: open the page in the default browser")


def add_palette_argument(p: argparse.ArgumentParser) -> None:
    """--palette (shared with ``replay``)."""
    from ..traverse.palette import DEFAULT_PALETTE, PALETTES

    p.add_argument("--palette", choices=tuple(PALETTES), default=DEFAULT_PALETTE,
                   help="move colours: okabe-ito (colour-blind safe: right blue, down "
                        "vermilion, left sky blue, up green) or paper (right blue, down red, "
                        "left cyan, up green); default okabe-ito; the page can switch")


def _port(text: str) -> int:
    """An argparse ``type`` for a TCP port 0..65535."""
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer 0..65535, got {text!r}") from None
    if not 0 <= v <= 65535:
        raise argparse.ArgumentTypeError(f"must be an integer 0..65535, got {text!r}")
    return v


def serve(server, page: str, args) -> int:
    """Print the URL, optionally open it, and serve until Ctrl-C or /api/quit."""
    from ..web import url_of

    url = url_of(server, page)
    print(f"serving {url}  (Ctrl-C to stop)", flush=True)
    if args.open:
        import webbrowser

        webbrowser.open(url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def add_source_arguments(p: argparse.ArgumentParser) -> None:
    """SOURCE [SIZE] and the world's options: the words ``bench show`` prints for a
    world (``kruskal 8x8 --seed 3 --braid 0.5 --corridor 3 --wall 1 ...``) are
    accepted as they are; ``--footprint`` and ``--resolution`` are recorded."""
    add_world_args(p, source="source_size", corridor=None, wall=None, omit=("sensor",))


def _cell_arg(text: str) -> tuple[int, int]:
    """An argparse ``type`` for ``ROW,COL``."""
    try:
        r, c = (int(v) for v in str(text).split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be ROW,COL like 3,4, got {text!r}") from None
    return r, c


def world_from_args(args, *, walk: int = 0) -> tuple[Maze | OccupancyGrid, dict | None]:
    """The Maze or grid to walk, and its generator reference (or None).

    ``walk`` counts the mazes of a web session: a generator source is drawn
    with the seed ``seed + walk``; a file is the same maze every time.
    """
    from ..errors import ParameterError

    source = None
    path = Path(args.source)
    if path.is_file() and path.suffix.lower() == ".jsonl":
        if args.size is not None:
            raise ParameterError(f"SIZE {args.size!r} given with the file {args.source!r}; "
                                 f"SIZE is only for generator names")
        from ..traverse.record import read_record

        rec = read_record(path)
        world, source = (rec.maze if rec.maze is not None else rec.grid), rec.source
        spec = None
    else:
        spec = world_spec(args, walk=walk)
        world = spec.build_source()
        if spec.generator is not None:
            source = {"generator": spec.generator, "size": [spec.rows, spec.cols],
                      "seed": spec.seed, "braid": spec.braid, "placement": spec.placement}
    if widened(args):
        if not isinstance(world, Maze):
            raise ParameterError("--corridor/--wall widen a maze, but the source is a grid")
        if spec is None:  # a record's maze: widened as its world would be
            spec = world_spec(args, seed=0)
        world = build_world(args, spec, world).grid
        if source is not None:
            source = {**source, "corridor": spec.corridor, "wall": spec.wall}
    return world, source


def interactive_backend() -> str | None:
    """The current matplotlib backend if it can open windows, else None."""
    import matplotlib
    from matplotlib.backends import BackendFilter, backend_registry

    name = matplotlib.get_backend().lower()
    if name in backend_registry.list_builtin(BackendFilter.NON_INTERACTIVE):
        return None
    return name


def no_display(command: str) -> int:
    """Print the one-line error for a headless session; the exit status."""
    import matplotlib

    print(f"robomaze {command}: error: no display: matplotlib backend "
          f"{matplotlib.get_backend()!r} cannot open a window (run with a display, or set "
          f"MPLBACKEND to an interactive backend such as TkAgg or QtAgg; or add --web to "
          f"use a web browser instead)", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    from ..traverse.game import Game

    if args.web:
        return _run_web(args)
    if args.output is not None:
        out_extension(args.output, (".jsonl",), "-o/--output")
    world, source = world_from_args(args)
    walker = {"kind": "person", "name": args.name, "settings": {}}
    game = Game(world, mode=args.mode, controls=args.controls, walker=walker,
                start=args.start, goals=args.goal, radius=args.radius)
    if interactive_backend() is None:
        return no_display("play")
    from ..viz.traverse import PlayWindow

    win = PlayWindow(game, out=args.output, cell_px=args.cell_px, source=source,
                     palette=args.palette)
    win.show()
    saved = win.finish()
    print(f"{game.status()}" + (f" -> {saved}" if saved else ""))
    return 0



def _run_web(args: argparse.Namespace) -> int:
    from ..errors import ParameterError
    from ..web import PlaySession, make_server

    if args.output is not None:
        raise ParameterError("-o/--output names one record; with --web every walk is saved "
                             "in --record-dir")
    from ..web.worlds import SEED_LIMIT

    fresh = args.seed is None and not Path(args.source).is_file()
    if fresh:
        # one fixed seed for the session: "next maze" is then seed + 1, + 2...
        args.seed = parse_seed(None)
    if args.seed is not None and args.seed >= SEED_LIMIT:
        # the page's seeds (its URL, "next maze") live below this limit too
        raise ParameterError(f"--seed must be below 2**63 with --web, got {args.seed}")
    world, source = world_from_args(args)  # bad sources fail here, before the port is taken
    spec = None
    if not Path(args.source).is_file():
        # the page may name a maze by generator, size, seed and options (its URL):
        # the server's maze is the page spec of its own source
        spec = {"gen": source["generator"], "size": source["size"], "seed": source["seed"],
                "braid": source["braid"], "placement": source["placement"],
                "corridor": source.get("corridor"), "wall": source.get("wall")}
    session = PlaySession(lambda i: world_from_args(args, walk=i), args.record_dir,
                          mode=args.mode, radius=args.radius, controls=args.controls,
                          name=args.name, start=args.start, goals=args.goal,
                          spec=spec, palette=args.palette)
    server = make_server(session, host=args.host, port=args.port)
    if fresh:
        # printed only once nothing can fail any more: an error stays one line
        print(f"robomaze play: seed {args.seed}", file=sys.stderr)
    print(f"robomaze play: walks are saved in {Path(args.record_dir).resolve()}")
    return serve(server, "/", args)
