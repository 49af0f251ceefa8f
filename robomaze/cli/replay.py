"""``robomaze replay``: animate a traversal record, or export it."""

from __future__ import annotations

import argparse
import functools

from ._args import add_command, out_extension, positive_float, positive_int
from .play import (add_palette_argument, add_web_arguments, interactive_backend, no_display,
                   serve)

EPILOG = """\
output (by the extension of each -o, repeatable):
  .gif        the animation (one frame per move plus the start; with
              --every K one per K moves plus the last)
  .mp4        the animation (needs ffmpeg)
  .png .svg .pdf  a still picture of the whole walk
without -o a window opens: space = play/pause, + / - = faster / slower.
--web serves the replay page instead (play/pause, step, speed, show/hide
solution) for one or more records, on 127.0.0.1 unless --host says otherwise.
--palette okabe-ito (default) draws moves right blue, down vermilion, left
sky blue, up bluish green (colour-blind safe); with --palette paper the
moves are coloured by direction: right blue, down red, left cyan, up green.
--marks paper marks the start with a red square and the end (or where the
walker is) with a blue square, as the paper's figures do (default robomaze:
a green start square and an orange dot).

examples:
  robomaze replay walk.jsonl
  robomaze replay walk.jsonl -o walk.gif -o walk.png --fps 8
  robomaze replay walks/*.jsonl --web --port 8001
"""


def register(subparsers) -> None:
    p = add_command(subparsers, "replay", help="animate or export a traversal record",
                    description="Replay a traversal record move by move over its maze.",
                    epilog=EPILOG)
    p.add_argument("record", metavar="RECORD", nargs="+",
                   help="traversal record (.jsonl); several only with --web")
    p.add_argument("-o", "--output", action="append", default=[], metavar="OUT",
                   help=".gif, .mp4, .png, .svg or .pdf (repeatable)")
    p.add_argument("--fps", type=positive_float, default=5.0, help="frames per second (default 5)")
    p.add_argument("--cell-px", type=positive_int, default=None, metavar="N",
                   help="pixels per map cell")
    p.add_argument("--every", type=positive_int, default=1, metavar="K",
                   help="animate every K-th position only (long robot runs; default 1)")
    p.add_argument("--marks", choices=("robomaze", "paper"), default="robomaze",
                   help="start/end marks of pictures and animations: green square and "
                        "orange dot (robomaze, default) or the paper's red and blue squares")
    add_web_arguments(p)
    add_palette_argument(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..errors import ParameterError
    from ..traverse.record import read_record

    if args.web:
        from ..web import RecordShelf, make_server

        if args.output:
            raise ParameterError("-o/--output and --web exclude each other")
        server = make_server(shelf=RecordShelf(args.record), host=args.host, port=args.port,
                             palette=args.palette)
        return serve(server, "/replay", args)
    if len(args.record) > 1:
        raise ParameterError(f"one RECORD at a time without --web, got {len(args.record)}")
    args.record = args.record[0]
    exts = [out_extension(o, (".gif", ".mp4", ".png", ".svg", ".pdf")) for o in args.output]
    if not exts and interactive_backend() is None:
        return no_display("replay")
    if ".mp4" in exts:
        from ..viz.traverse import ffmpeg_available

        if not ffmpeg_available():
            raise ParameterError("MP4 export needs ffmpeg, which is not installed; "
                                 "use a .gif output instead")
    rec = read_record(args.record)
    from ..viz.traverse import Replay, still
    # every picture and animation of this command in the chosen palette
    Replay, still = (functools.partial(f, palette=args.palette) for f in (Replay, still))

    for out, ext in zip(args.output, exts):
        if ext in (".gif", ".mp4"):
            rp = Replay(rec, interval=1000 / args.fps, cell_px=args.cell_px, every=args.every,
                        marks=args.marks)
            rp.save(out, fps=args.fps)
            print(f"{args.record}: {rp.n_frames} frames -> {out}")
        else:
            still(rec, out, cell_px=args.cell_px, marks=args.marks)
            print(f"{args.record}: {rec.n_moves} moves -> {out}")
    if not exts:
        Replay(rec, interval=1000 / args.fps, cell_px=args.cell_px, interactive=True,
               every=args.every, marks=args.marks).show()
    return 0
