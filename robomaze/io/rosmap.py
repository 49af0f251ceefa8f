"""ROS ``map_server`` / Nav2 maps: a YAML description plus a PGM or PNG image.

Loading follows map_server's rules exactly:

* the grey level of a pixel is the integer mean of its colour channels;
* ``p = (255 - value) / 255`` -- or ``p = value / 255`` when ``negate`` is 1;
* ``trinary`` (default mode): occupied if ``p > occupied_thresh``, free if
  ``p < free_thresh``, unknown otherwise; ``scale``: the same, except that
  in-between pixels are partially occupied (1..99) unless transparent, and
  robomaze reports them in the unknown mask too (a boolean grid cannot hold a
  fraction); ``raw``: the (negated) pixel value is the occupancy 0..100,
  compared with the thresholds times 100, and values above 100 are unknown;
* the image's top row is the map's north edge and ``origin`` is the pose of
  the **lower-left** pixel's corner. robomaze's grid also has row 0 north and
  its ``origin`` at the lower-left corner, so pixels map to grid cells
  directly (map_server flips rows only because a ROS OccupancyGrid message
  stores its bottom row first).

:class:`~robomaze.grid.OccupancyGrid` has no "unknown": :func:`read_rosmap`
returns the grid *and* the unknown mask; the grid marks unknown cells as
occupied (a robot must not plan through them).

Saving writes what map_saver writes: 0 for occupied, 254 for free, 205 for
unknown, ``mode: trinary``, ``occupied_thresh: 0.65`` and ``free_thresh:
0.25``. Caution, also true of Nav2's map_saver: with ``free_thresh 0.25`` a
205 pixel (p = 50/255 = 0.196) reads back as *free*; so when the map has
unknown cells :func:`write_rosmap` writes ROS 1 map_saver's ``0.196`` instead,
which reads 205 back as unknown. Floats are written with Python's shortest
round-trip ``repr`` so the C++ YAML reader (``strtod``) gets exactly the same
double.

The YAML reader is a deliberately small, strict subset: top-level
``key: value`` lines, ``#`` comments, plain or quoted scalars and one-line
``[a, b, c]`` lists -- all that map files use.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np

from ..errors import ParameterError
from ..grid import OccupancyGrid
from ._common import PathLike, fail, read_text
from .image import format_pgm, read_raster, write_png_array

__all__ = ["parse_map_yaml", "read_rosmap", "read_rosmap_grid", "write_rosmap",
           "interpret_pixels", "looks_like_rosmap", "REQUIRED_KEYS"]

REQUIRED_KEYS = ("image", "resolution", "origin", "negate", "occupied_thresh", "free_thresh")
MODES = ("trinary", "scale", "raw")


def looks_like_rosmap(text: str) -> bool:
    """Whether YAML text has an ``image:`` key at the top level."""
    return any(line.startswith("image:") for line in text.splitlines())


def _strip_comment(line: str) -> str:
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i]
    return line


def _scalar(tok: str, path, ln: int, col: int):
    tok = tok.strip()
    if len(tok) >= 2 and tok[0] == tok[-1] and tok[0] in "'\"":
        return tok[1:-1]
    if tok[:1] in "'\"":
        raise fail(f"unterminated quoted string {tok!r}", path, ln, col)
    low = tok.lower()
    if low in ("true", "false"):
        return low == "true"
    try:
        return int(tok)
    except ValueError:
        pass
    try:
        v = float(tok)
        if math.isfinite(v):
            return v
    except ValueError:
        pass
    return tok


def parse_map_yaml(text: str, *, path=None) -> dict[str, tuple[object, int, int]]:
    """Parse the YAML subset: ``{key: (value, line, column_of_value)}``.

    >>> d = parse_map_yaml("image: m.pgm  # c\\norigin: [-1.5, 2, 0.0]\\nnegate: 0\\n")
    >>> d["image"][0], d["origin"][0], d["negate"][0]
    ('m.pgm', [-1.5, 2, 0.0], 0)
    """
    out: dict[str, tuple[object, int, int]] = {}
    for ln, raw in enumerate(text.splitlines(), start=1):
        line = _strip_comment(raw).rstrip()
        if not line.strip() or line.strip() in ("---", "..."):
            continue
        if line[0] in " \t":
            raise fail("indented line; expected top-level 'key: value' (nested YAML is not "
                       "part of a map file)", path, ln, 1)
        if ":" not in line:
            raise fail(f"found {line.strip()!r}; expected 'key: value'", path, ln, 1)
        key, _, rest = line.partition(":")
        key = key.strip()
        if not key or not (key.replace("_", "").isalnum()):
            raise fail(f"bad key {key!r}; expected a plain name", path, ln, 1)
        if key in out:
            raise fail(f"duplicate key {key!r} (first on line {out[key][1]})", path, ln, 1)
        col = len(key) + 2 + (len(rest) - len(rest.lstrip()))
        val = rest.strip()
        if not val:
            raise fail(f"key {key!r} has no value; expected 'key: value' on one line",
                       path, ln, len(line) + 1)
        if val.startswith("["):
            if not val.endswith("]"):
                raise fail("unterminated list; expected '[a, b, c]' on one line",
                           path, ln, col + len(val))
            inner = val[1:-1].strip()
            items = [] if not inner else inner.split(",")
            if any(not it.strip() for it in items):
                raise fail("empty list item; expected '[a, b, c]'", path, ln, col)
            value: object = [_scalar(it, path, ln, col) for it in items]
        else:
            value = _scalar(val, path, ln, col)
        out[key] = (value, ln, col)
    return out


def _number(d, key, path, *, lo=None, hi=None, positive=False) -> float:
    v, ln, col = d[key]
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise fail(f"{key} is {v!r}; expected a number", path, ln, col)
    v = float(v)
    if (positive and v <= 0) or (lo is not None and v < lo) or (hi is not None and v > hi):
        rng = "> 0" if positive else f"in [{lo}, {hi}]"
        raise fail(f"{key} is {v}; expected a number {rng}", path, ln, col)
    return v


def interpret_pixels(grey: np.ndarray, *, negate: bool, occupied_thresh: float,
                     free_thresh: float, mode: str = "trinary",
                     alpha: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """map_server's pixel rule: ``(occupied, unknown)`` boolean arrays.

    >>> occ, unk = interpret_pixels(np.array([[0, 205, 254]], np.uint8), negate=False,
    ...                             occupied_thresh=0.65, free_thresh=0.196)
    >>> occ.astype(int), unk.astype(int)
    (array([[1, 0, 0]]), array([[0, 1, 0]]))
    """
    v = np.asarray(grey).astype(np.int64)
    if negate:
        v = 255 - v
    if mode == "raw":
        occ = (v <= 100) & (v > occupied_thresh * 100)
        free = (v <= 100) & (v < free_thresh * 100)
        return occ, ~(occ | free)
    p = (255 - v) / 255.0
    occ = p > occupied_thresh
    free = (p < free_thresh) & ~occ
    unknown = ~(occ | free)
    if mode == "scale" and alpha is not None:
        unknown |= (alpha < 255) & ~occ & ~free
    return occ, unknown


def read_rosmap(path: PathLike) -> tuple[OccupancyGrid, np.ndarray]:
    """Read a map_server YAML file and its image.

    Returns
    -------
    grid : OccupancyGrid
        ``occupied`` is occupied **or unknown**; resolution and origin from
        the YAML.
    unknown : ndarray of bool
        Cells that map_server would publish as -1 (or, in ``scale`` mode,
        as partially occupied).

    Raises
    ------
    MazeFormatError
        Missing keys, bad values, a missing or malformed image.
    """
    text = read_text(path)
    d = parse_map_yaml(text, path=path)
    if not d:
        raise fail("no keys; expected a map_server YAML file", path, 1, 1)
    for key in REQUIRED_KEYS:
        if key not in d:
            raise fail(f"missing key {key!r}; expected all of {', '.join(REQUIRED_KEYS)} "
                       "(map_server requires them)", path, len(text.splitlines()) + 1, 1)
    res = _number(d, "resolution", path, positive=True)
    occ_t = _number(d, "occupied_thresh", path, lo=0.0, hi=1.0)
    free_t = _number(d, "free_thresh", path, lo=0.0, hi=1.0)
    if free_t > occ_t:
        _, ln, col = d["free_thresh"]
        raise fail(f"free_thresh {free_t} > occupied_thresh {occ_t}; expected "
                   "free_thresh <= occupied_thresh", path, ln, col)
    origin, ln, col = d["origin"]
    if not isinstance(origin, list) or len(origin) != 3 or not all(
            isinstance(o, (int, float)) and not isinstance(o, bool) for o in origin):
        raise fail(f"origin is {origin!r}; expected [x, y, yaw] (three numbers)",
                   path, ln, col)
    neg, ln, col = d["negate"]
    if neg not in (0, 1) or (isinstance(neg, float)):
        raise fail(f"negate is {neg!r}; expected 0 or 1", path, ln, col)
    mode = "trinary"
    if "mode" in d:
        mode, ln, col = d["mode"]
        if mode not in MODES:
            raise fail(f"mode is {mode!r}; expected one of {', '.join(MODES)}", path, ln, col)
    image, ln, col = d["image"]
    if not isinstance(image, str) or not image:
        raise fail(f"image is {image!r}; expected a file name", path, ln, col)
    img_path = Path(image)
    if not img_path.is_absolute():
        img_path = Path(path).parent / img_path
    if not img_path.exists():
        raise fail(f"image file {str(img_path)!r} does not exist", path, ln, col)
    grey, alpha = read_raster(img_path)
    occ, unknown = interpret_pixels(grey, negate=bool(neg), occupied_thresh=occ_t,
                                    free_thresh=free_t, mode=mode, alpha=alpha)
    grid = OccupancyGrid(occ | unknown, resolution=res,
                         origin=tuple(float(o) for o in origin))
    return grid, unknown


def read_rosmap_grid(path: PathLike, *, unknown: str = "occupied") -> OccupancyGrid:
    """The grid of a ROS map with unknown cells read as ``"occupied"`` or ``"free"``."""
    if unknown not in ("occupied", "free"):
        raise ParameterError(f"unknown must be 'occupied' or 'free', got {unknown!r}")
    grid, unk = read_rosmap(path)
    if unknown == "free":
        grid = grid.replace(occupied=grid.occupied & ~unk)
    return grid


def write_rosmap(grid: OccupancyGrid, path: PathLike, *, image: PathLike | None = None,
                 unknown: np.ndarray | None = None, occupied_thresh: float = 0.65,
                 free_thresh: float | None = None) -> Path:
    """Write ``grid`` as a map_server YAML file and a PGM (or PNG) image.

    Parameters
    ----------
    grid : OccupancyGrid
        Row 0 is written as the image's top row; ``origin`` becomes the YAML
        origin (pose of the lower-left corner).
    path : path-like
        The ``.yaml`` file.
    image : path-like, optional
        Image file (``.pgm`` or ``.png``); default ``path`` with ``.pgm``.
        Written relative to the YAML when in the same directory.
    unknown : array of bool, optional
        Cells to write as unknown (205).
    occupied_thresh, free_thresh : float
        Written to the YAML; ``free_thresh`` defaults to 0.25, or 0.196 when
        ``unknown`` has any cell (see the module notes).

    Returns
    -------
    Path
        The image file written.
    """
    path = Path(path)
    occ = np.asarray(grid.occupied, bool)
    unk = np.zeros_like(occ) if unknown is None else np.asarray(unknown, bool)
    if unk.shape != occ.shape:
        raise ParameterError(f"unknown must have the grid's shape {occ.shape}, got {unk.shape}")
    if free_thresh is None:
        free_thresh = 0.196 if unk.any() else 0.25
    for name, v in (("occupied_thresh", occupied_thresh), ("free_thresh", free_thresh)):
        if not 0.0 <= float(v) <= 1.0:
            raise ParameterError(f"{name} must be in [0, 1], got {v}")
    img = path.with_suffix(".pgm") if image is None else Path(image)
    pix = np.full(occ.shape, 254, np.uint8)
    pix[unk] = 205
    pix[occ & ~unk] = 0
    if img.suffix.lower() == ".png":
        write_png_array(pix, img)
    else:
        img.write_bytes(format_pgm(
            pix, comment=f"CREATOR: robomaze {float(grid.resolution):.3f} m/pix"))
    try:
        name = os.path.relpath(img.resolve(), path.resolve().parent)
    except ValueError:
        name = str(img.resolve())
    if name.startswith(".."):
        name = str(img.resolve())
    x, y, yaw = (float(v) for v in grid.origin)
    text = (f"image: {name}\n"
            f"mode: trinary\n"
            f"resolution: {float(grid.resolution)!r}\n"
            f"origin: [{x!r}, {y!r}, {yaw!r}]\n"
            f"negate: 0\n"
            f"occupied_thresh: {float(occupied_thresh)!r}\n"
            f"free_thresh: {float(free_thresh)!r}\n")
    path.write_text(text, encoding="utf-8")
    return img
