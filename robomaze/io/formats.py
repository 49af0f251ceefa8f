"""The format registry: every file format robomaze reads or writes, once.

Each format is a :class:`FormatSpec` -- its name, whether it holds a maze
or a grid, the extensions written, a *sniffer* that recognises the content
from the file's first bytes, a reader and a writer -- kept in
:data:`FORMATS`. :func:`robomaze.io.read_maze`, :func:`~robomaze.io.read_grid`,
the writers and the command line all dispatch through it, so adding a
format is one :func:`register_format` call.

Reading picks the format by content (the first registered sniffer that
accepts the file's head, in registration order), never by extension;
writing picks it by name or by extension.

>>> [s.name for s in formats("maze")]
['micromouse', 'num', 'json']
>>> spec_for_extension("grid", "x.YAML").name
'rosmap'
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterator

from ..errors import ParameterError, unknown_name
from ..grid import OccupancyGrid
from ..registry import FORMATS, Option, Spec
from ..maze import Maze
from ._reading import PathLike, check_regular_file, fail
from ._limits import check_memory
from .image import is_image, read_image, write_image
from .maze_json import read_maze_json, write_maze_json
from .matrix import looks_like_matrix, read_matrix, write_matrix
from .micromouse import looks_like_micromouse, read_micromouse, write_micromouse
from .mms_num import looks_like_num, read_num, write_num
from .movingai import looks_like_movingai, read_movingai, write_movingai
from .npy import is_npy, read_npy, write_npy
from .rosmap import looks_like_rosmap, read_rosmap_grid, write_rosmap

__all__ = ["FormatSpec", "FORMATS", "KINDS", "register_format", "unregister_format",
           "formats", "extensions", "spec_for_extension", "get_format", "sniff",
           "read_head", "HEAD_BYTES"]

KINDS = ("maze", "grid")
#: Bytes of a file the sniffers see.
HEAD_BYTES = 65536


def _text(head: bytes) -> str:
    text = head.decode("utf-8", errors="replace")
    return text[1:] if text.startswith("\ufeff") else text


@dataclass(frozen=True)
class FormatSpec:
    """One file format.

    Parameters
    ----------
    name : str
        Registry key, e.g. ``"micromouse"``.
    kind : {"maze", "grid"}
        What :attr:`read` returns and :attr:`write` takes.
    extensions : tuple of str
        Lower-case extensions with the dot; the first is the canonical one.
    sniff : callable
        ``sniff(head: bytes) -> bool`` on the file's first :data:`HEAD_BYTES`.
    read : callable
        ``read(path, **options)``; only the keyword options named in
        :attr:`options` are passed.
    write : callable or None
        ``write(obj, path)``.
    options : tuple of str or Option
        Keyword options :attr:`read` accepts (``strict``, ``unknown``,
        ``resolution``, ``rules``): names, typed from :attr:`read`'s defaults
        and :data:`READ_OPTIONS`, or :class:`robomaze.registry.Option`
        declarations (a plugin's own options).
    description : str
        One line for listings and error messages.
    """

    name: str
    kind: str
    extensions: tuple[str, ...]
    sniff: Callable[[bytes], bool]
    read: Callable[..., Any]
    write: Callable[[Any, PathLike], None] | None
    options: tuple[str, ...] = ()
    description: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        typed = tuple(_read_option(self.read, o) for o in self.options)
        object.__setattr__(self, "options", tuple(o.name for o in typed))
        object.__setattr__(self, "typed_options", typed)

    def to_spec(self) -> Spec:
        """This format as a registry :class:`~robomaze.registry.Spec`."""
        return Spec("format", self.name, self, self.description, options=self.typed_options,
                    flags=frozenset({self.kind} | ({"writable"} if self.write else set())))

    def read_file(self, path: PathLike, **options) -> Any:
        """Call :attr:`read` with the options this format takes (others dropped),
        checked and cast by their declarations (one-line ParameterError)."""
        kept = {k: v for k, v in options.items() if k in self.options}
        return self.read(path, **(self.to_spec().check(kept) if kept else kept))


#: What the read options mean (their types and defaults come from the reader).
READ_OPTIONS = {
    "strict": "refuse anything the format does not define, instead of reading past it",
    "unknown": "what an unknown wall or cell reads as",
    "resolution": "metres per grid cell",
    "rules": "occupancy thresholds: Nav2's or ROS 1's",
}


def _read_option(read: Callable, option) -> Option:
    if isinstance(option, Option):
        return option
    import inspect

    fn = getattr(read, "__wrapped__", read)
    try:
        param = inspect.signature(fn).parameters.get(option)
    except (TypeError, ValueError):
        param = None
    default = None if param is None or param.default is param.empty else param.default
    typ = next((t for t in (bool, int, float, str) if type(default) is t), "any")
    low = 0.0 if option == "resolution" else None
    return Option(option, typ, default, READ_OPTIONS.get(option, ""), low=low)


#: True while this module declares the built-in formats (plugins join after).
_DECLARING = True

#: Registered formats, by name, in sniffing order: :data:`robomaze.registry.FORMATS`,
#: whose entries are the :class:`FormatSpec` objects.
FORMATS.convert = lambda name, obj: _as_format(obj).to_spec()


def _as_format(obj) -> FormatSpec:
    if not isinstance(obj, FormatSpec):
        raise ParameterError(f"spec must be a FormatSpec, got {type(obj).__name__}")
    return obj


def register_format(spec: FormatSpec) -> FormatSpec:
    """Add ``spec`` to :data:`FORMATS`; its name and, within its kind, its
    extensions must be new."""
    if not isinstance(spec, FormatSpec):
        raise ParameterError(f"spec must be a FormatSpec, got {type(spec).__name__}")
    if spec.kind not in KINDS:
        raise ParameterError(f"kind must be one of {', '.join(KINDS)}, got {spec.kind!r}")
    if not _DECLARING:
        FORMATS.specs()   # installed plugins join first (never while the built-ins declare)
    if spec.name in {s.name for s in FORMATS.declared()}:
        raise ParameterError(f"format {spec.name!r} is already registered")
    if not spec.name.strip():
        raise ParameterError(f"format name must be a non-empty string, got {spec.name!r}")
    for other in formats(spec.kind):
        clash = set(other.extensions) & set(spec.extensions)
        if clash:
            raise ParameterError(f"extension {sorted(clash)[0]} already belongs to the "
                                 f"{spec.kind} format {other.name!r}")
    FORMATS.declare(spec.to_spec())
    return spec


def unregister_format(name: str) -> FormatSpec:
    """Remove and return a registered format."""
    if name not in FORMATS:
        raise unknown_name("format", name, FORMATS)
    return FORMATS.pop(name)


def formats(kind: str | None = None) -> list[FormatSpec]:
    """Registered formats of ``kind`` (all when None), in sniffing order."""
    return list(_in_order(kind))


def _in_order(kind: str | None) -> Iterator[FormatSpec]:
    """:func:`formats`, lazily: plugins' formats come after the built-ins,
    so a file a built-in format recognises reads no plugin metadata."""
    specs = FORMATS.declared() if _DECLARING else FORMATS.iter_specs()
    return (s.load() for s in specs if kind is None or s.load().kind == kind)


def extensions(kind: str, *, writable: bool = False) -> tuple[str, ...]:
    """Every extension of ``kind``'s formats (those with a writer if ``writable``).

    >>> extensions("maze")
    ('.maze', '.txt', '.num', '.json')
    """
    return tuple(e for s in formats(kind) if not writable or s.write for e in s.extensions)


def get_format(name: str, kind: str | None = None) -> FormatSpec:
    """The format called ``name`` (of ``kind``, when given)."""
    spec = FORMATS.get(name)
    if spec is None or (kind is not None and spec.kind != kind):
        raise unknown_name(f"{kind or ''} format".strip(), name,
                           [s.name for s in formats(kind)])
    return spec


def spec_for_extension(kind: str, path: PathLike) -> FormatSpec:
    """The ``kind`` format whose extensions include ``path``'s."""
    ext = Path(os.fspath(path)).suffix.lower()
    for spec in _in_order(kind):
        if ext in spec.extensions:
            return spec
    raise ParameterError(
        f"cannot tell the {kind} format of {os.fspath(path)!r} from its extension "
        f"{ext or '(none)'!r}; expected one of {', '.join(extensions(kind))}")


def read_head(path: PathLike, n: int = HEAD_BYTES) -> bytes:
    """The first ``n`` bytes of a regular file (anything else is refused unread)."""
    check_regular_file(path)
    fd = os.open(os.fspath(path), os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as fh:
        return fh.read(n)


def sniff(path: PathLike, kind: str | None = None) -> FormatSpec:
    """The format of ``path``, recognised from its content.

    Raises
    ------
    MazeFormatError
        No registered format of ``kind`` recognises the content.
    """
    head = read_head(path)
    for spec in _in_order(kind):
        if spec.sniff(head):
            return spec
    names = ", ".join(f"{s.description}" for s in formats(kind))
    raise fail(f"unrecognised content; expected {'a ' + kind if kind else 'a maze or grid'} "
               f"file: {names}", path, 1, 1)


def _looks_like_json(head: bytes) -> bool:
    # a ROS map YAML may be one flow mapping "{image: ...}": not a JSON maze
    t = _text(head)
    return t.lstrip().startswith("{") and not looks_like_rosmap(t)


#: Peak bytes a reader allocates per byte of its file (text split into lines
#: and tokens, parsed objects; an image's pixels are checked from its header).
READ_BYTES_PER_FILE_BYTE = {"micromouse": 8, "num": 24, "json": 24, "movingai": 8,
                            "rosmap": 1, "image": 2, "npy": 3, "matrix": 16,
                            "rosbag2": 4}
#: Peak bytes a writer allocates per cell (text of the cell, lines, copies).
WRITE_BYTES_PER_CELL = {"micromouse": 40, "num": 80, "json": 16, "movingai": 8,
                        "rosmap": 4, "image": 4, "npy": 3, "matrix": 8,
                        "rosbag2": 4}


def _budgeted_reader(name: str, read: Callable[..., Any]) -> Callable[..., Any]:
    """``read`` refusing, before reading, a file whose parse would pass the
    memory budget (:func:`robomaze.io.limit_memory`)."""
    factor = READ_BYTES_PER_FILE_BYTE[name]

    def reader(path, **options):
        size = check_regular_file(path).st_size
        check_memory(f"a {name} file of {size} bytes", size * factor, path)
        return read(path, **options)

    reader.__name__ = getattr(read, "__name__", name)
    reader.__doc__ = read.__doc__
    reader.__wrapped__ = read
    return reader


def _budgeted_writer(name: str, write: Callable[[Any, PathLike], None]):
    """``write`` refusing, before building anything, an object whose output
    would pass the memory budget."""
    factor = WRITE_BYTES_PER_CELL[name]

    def writer(obj, path, *args, **kwargs):
        shape = getattr(obj, "shape", None)
        if isinstance(shape, tuple) and len(shape) == 2:
            rows, cols = (int(v) for v in shape)
            check_memory(f"a {rows}x{cols} {name} file", rows * cols * factor, path,
                         verb="writing")
        return write(obj, path, *args, **kwargs)

    writer.__name__ = getattr(write, "__name__", name)
    writer.__doc__ = write.__doc__
    writer.__wrapped__ = write
    return writer

def _looks_like_mcap(head: bytes) -> bool:
    from .rosbag2 import looks_like_mcap

    return looks_like_mcap(head)


def _read_bag_grid(path, **options):
    from .rosbag2 import read_bag_grid   # rosbags is imported only when a bag is read

    return read_bag_grid(path, **options)


def _write_map_bag(grid, path):
    from .rosbag2 import write_map_bag

    write_map_bag(grid, path)


def _register_builtins() -> None:
    text = _text
    register_format(FormatSpec(
        "micromouse", "maze", (".maze", ".txt"), lambda h: looks_like_micromouse(text(h)),
        read_micromouse, write_micromouse, ("unknown", "strict"),
        "micromouse text ('o' or '+' posts)"))
    register_format(FormatSpec(
        "num", "maze", (".num",), lambda h: looks_like_num(text(h)), read_num, write_num,
        ("strict",), "mms .num ('x y N E S W' lines)"))
    register_format(FormatSpec(
        "json", "maze", (".json",), _looks_like_json,
        read_maze_json, write_maze_json, (), "robomaze JSON maze"))
    register_format(FormatSpec(
        "movingai", "grid", (".map",), lambda h: looks_like_movingai(text(h)),
        read_movingai, write_movingai, ("strict", "resolution"), "MovingAI .map"))
    register_format(FormatSpec(
        "rosmap", "grid", (".yaml", ".yml"), lambda h: looks_like_rosmap(text(h)),
        read_rosmap_grid, write_rosmap, ("unknown", "rules"), "ROS map_server YAML"))
    register_format(FormatSpec(
        "image", "grid", (".png", ".pgm"), is_image, read_image, write_image,
        ("resolution",), "PNG/PGM image"))
    register_format(FormatSpec(
        "npy", "grid", (".npy",), is_npy, read_npy, write_npy, ("resolution",),
        "NumPy .npy array"))
    register_format(FormatSpec(
        "matrix", "grid", (".txt",), lambda h: looks_like_matrix(text(h)), read_matrix,
        write_matrix, ("resolution",), "0/1 text matrix"))
    register_format(FormatSpec(
        "rosbag2", "grid", (".mcap",), _looks_like_mcap, _read_bag_grid, _write_map_bag,
        ("unknown",), "ROS 2 bag (MCAP), first /map"))


_register_builtins()
for _spec in [s.load() for s in FORMATS.declared()]:
    FORMATS.declare(replace(_spec, read=_budgeted_reader(_spec.name, _spec.read),
                            write=_budgeted_writer(_spec.name, _spec.write)).to_spec(),
                    replace=True)
del _spec
_DECLARING = False   # the built-ins are in: plugins may join now


def _check_kind(obj, kind: str) -> None:
    want = Maze if kind == "maze" else OccupancyGrid
    if not isinstance(obj, want):
        raise ParameterError(f"{kind} must be a {want.__name__}, got {type(obj).__name__}")
