"""ROS ``map_server`` / Nav2 maps: a YAML description plus a PGM or PNG image.

Loading follows map_server's rules exactly:

* the grey level of a pixel is the integer mean of its colour channels;
* ``p = 1 - level / maxval`` (for 8-bit images ``(255 - value) / 255``) --
  or ``p = level / maxval`` when ``negate`` is 1;
* ``trinary`` (default mode): occupied if ``p > occupied_thresh``, free if
  ``p < free_thresh``, unknown otherwise; ``scale``: the same, except that
  in-between pixels are partially occupied (1..99) unless transparent, and
  robomaze reports them in the unknown mask too (a boolean grid cannot hold a
  fraction); ``raw``: the (negated) pixel value (``round(255 * level /
  maxval)``) is the occupancy 0..100,
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

The YAML file is read with PyYAML's ``safe_load`` rules (block or flow
lists and mappings, multi-line lists, comments, extra keys at any depth are
all accepted, as map_server's yaml-cpp accepts them) and then validated:
``image``, ``resolution``, ``origin``, ``negate``, ``occupied_thresh`` and
``free_thresh`` are required, ``mode`` is optional (default ``trinary``),
other keys are ignored. Errors name the file, line and column of the key or
value at fault. A map YAML is small: files above :data:`MAX_YAML_BYTES`
are refused unread. The ``image`` must name a regular file (a FIFO or a
device is refused before any read).

16-bit images: the level is divided by the image's own maximum (``maxval``
of a PGM, 65535 of a 16-bit PNG), so a 40000 of 65535 has ``p = 0.39`` and
is unknown under the default thresholds, as in map_server.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np
import yaml

from ..errors import ParameterError
from ..grid import OccupancyGrid
from ._common import PathLike, check_regular_file, decode_text, fail, file_problem, read_bytes
from .image import read_raster, write_pixels

__all__ = ["parse_map_yaml", "read_rosmap", "read_rosmap_grid", "write_rosmap",
           "interpret_pixels", "looks_like_rosmap", "REQUIRED_KEYS", "MODES",
           "MAX_YAML_BYTES"]

REQUIRED_KEYS = ("image", "resolution", "origin", "negate", "occupied_thresh", "free_thresh")
MODES = ("trinary", "scale", "raw")
#: Largest map YAML read (a real one is a few hundred bytes).
MAX_YAML_BYTES = 1 << 20


def looks_like_rosmap(text: str) -> bool:
    """Whether YAML text has an ``image`` key at the top level (block or flow style)."""
    for line in text.splitlines():
        s = line.lstrip("{ ")
        if line[:1] not in " \t" and (s.startswith("image:") or s.startswith('"image":')
                                       or s.startswith("'image':")):
            return True
    return False


def parse_map_yaml(text: str, *, path=None) -> dict[str, tuple[object, int, int]]:
    """Parse a map YAML (PyYAML safe rules): ``{key: (value, line, column_of_value)}``.

    Keys are the top-level mapping's keys; values are plain Python objects.

    >>> d = parse_map_yaml("image: m.pgm  # c\\norigin:\\n- -1.5\\n- 2\\n- 0.0\\nnegate: 0\\n")
    >>> d["image"][0], d["origin"], d["negate"][0]
    ('m.pgm', ([-1.5, 2, 0.0], 3, 1), 0)
    """
    try:
        loader = yaml.SafeLoader(text)      # checks the characters already
    except yaml.YAMLError:
        raise fail("a character YAML does not allow (control character); expected a "
                   "map_server YAML text", path, 1, 1) from None
    try:
        try:
            node = loader.get_single_node()
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
            raise fail(f"invalid YAML ({exc.problem or 'syntax error'}); expected a "
                       "map_server YAML mapping of keys to values", path, line, col) from None
        except (yaml.YAMLError, RecursionError):
            raise fail("invalid YAML (too deeply nested or not readable); expected a "
                       "map_server YAML mapping of keys to values", path, 1, 1) from None
        if node is None:
            return {}
        if not isinstance(node, yaml.MappingNode):
            raise fail("the document is not a mapping; expected 'key: value' entries",
                       path, node.start_mark.line + 1, node.start_mark.column + 1)
        out: dict[str, tuple[object, int, int]] = {}
        for key_node, value_node in node.value:
            kl, kc = key_node.start_mark.line + 1, key_node.start_mark.column + 1
            if not isinstance(key_node, yaml.ScalarNode):
                raise fail("a key that is not a plain name; expected 'key: value'",
                           path, kl, kc)
            key = key_node.value
            if key in out:
                # name only keys of the format: the file's own words are not repeated
                known = f" {key!r}" if key in REQUIRED_KEYS + ("mode",) else ""
                raise fail(f"duplicate key{known} (first on line {out[key][1]}); expected "
                           "each key once", path, kl, kc)
            try:
                value = loader.construct_object(value_node, deep=True)
            except (yaml.YAMLError, RecursionError, ValueError, OverflowError):
                raise fail("a value that YAML cannot construct; expected a number, string "
                           "or list", path, value_node.start_mark.line + 1,
                           value_node.start_mark.column + 1) from None
            out[key] = (value, value_node.start_mark.line + 1, value_node.start_mark.column + 1)
        return out
    finally:
        loader.dispose()


def _as_number(v) -> float | None:
    """A finite float, or None. Strings that read as decimals count too: PyYAML
    (YAML 1.1) leaves ``1e-3`` a string where yaml-cpp's ``as<double>`` reads it."""
    if isinstance(v, bool):
        return None
    if isinstance(v, str) and len(v) <= 64:
        try:
            v = float(v)
        except ValueError:
            return None
    if not isinstance(v, (int, float)):
        return None
    try:
        f = float(v)
    except OverflowError:
        return None
    return f if math.isfinite(f) else None


def _number(d, key, path, *, lo=None, hi=None, positive=False) -> float:
    v, ln, col = d[key]
    v = _as_number(v)
    if v is None:
        raise fail(f"{key} is not a finite number; expected a number", path, ln, col)
    if (positive and v <= 0) or (lo is not None and v < lo) or (hi is not None and v > hi):
        rng = "> 0" if positive else f"in [{lo}, {hi}]"
        raise fail(f"{key} is {v}; expected a number {rng}", path, ln, col)
    return v


def interpret_pixels(shade: np.ndarray, *, negate: bool, occupied_thresh: float,
                     free_thresh: float, mode: str = "trinary",
                     alpha: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """map_server's pixel rule on brightness ``shade`` in [0, 1] (``level /
    maxval``): ``(occupied, unknown)`` boolean arrays.

    >>> occ, unk = interpret_pixels(np.array([[0, 205, 254]]) / 255, negate=False,
    ...                             occupied_thresh=0.65, free_thresh=0.196)
    >>> occ.astype(int), unk.astype(int)
    (array([[1, 0, 0]]), array([[0, 1, 0]]))
    """
    s = np.asarray(shade, dtype=float)
    if negate:
        s = 1.0 - s
    if mode == "raw":
        v = np.rint(s * 255.0)
        occ = (v <= 100) & (v > occupied_thresh * 100)
        free = (v <= 100) & (v < free_thresh * 100)
        return occ, ~(occ | free)
    p = 1.0 - s
    occ = p > occupied_thresh
    free = (p < free_thresh) & ~occ
    unknown = ~(occ | free)
    if mode == "scale" and alpha is not None:
        unknown |= (alpha < 255) & ~occ & ~free
    return occ, unknown


def _load_yaml(path) -> tuple[dict, int]:
    st = check_regular_file(path)
    if st.st_size > MAX_YAML_BYTES:
        raise fail(f"map YAML of {st.st_size} bytes; expected at most {MAX_YAML_BYTES} bytes "
                   "(a map_server YAML is a few lines)", path)
    text = decode_text(read_bytes(path), path, "a map_server YAML file")
    d = parse_map_yaml(text, path=path)
    return d, len(text.splitlines()) + 1


def _image_path(d, path) -> Path:
    image, ln, col = d["image"]
    if not isinstance(image, str) or not image or "\0" in image:
        raise fail("image is not a file name; expected the image file's path", path, ln, col)
    img_path = Path(image)
    if not img_path.is_absolute():
        img_path = Path(path).parent / img_path
    # the name comes from the file: say what is wrong with it, not repeat it
    try:
        problem = file_problem(os.stat(img_path))
    except FileNotFoundError:
        problem = ("does not exist (a relative name is looked up beside the YAML file); "
                   "expected an existing PGM or PNG image")
    except OSError as exc:
        problem = f"cannot be opened ({exc.strerror}); expected a readable PGM or PNG image"
    if problem is not None:
        raise fail(f"the image file named here {problem}", path, ln, col)
    return img_path


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
        Missing keys, bad values, a missing, non-regular or malformed image.
    """
    d, end_line = _load_yaml(path)
    if not d:
        raise fail("no keys; expected a map_server YAML file", path, 1, 1)
    for key in REQUIRED_KEYS:
        if key not in d:
            raise fail(f"missing key {key!r}; expected all of {', '.join(REQUIRED_KEYS)} "
                       "(map_server requires them)", path, end_line, 1)
    res = _number(d, "resolution", path, positive=True)
    occ_t = _number(d, "occupied_thresh", path, lo=0.0, hi=1.0)
    free_t = _number(d, "free_thresh", path, lo=0.0, hi=1.0)
    if free_t > occ_t:
        _, ln, col = d["free_thresh"]
        raise fail(f"free_thresh {free_t} > occupied_thresh {occ_t}; expected "
                   "free_thresh <= occupied_thresh", path, ln, col)
    origin, ln, col = d["origin"]
    if not isinstance(origin, list) or len(origin) != 3 or not all(
            _as_number(o) is not None for o in origin):
        raise fail("origin is not three numbers; expected [x, y, yaw] (three finite numbers)",
                   path, ln, col)
    neg, ln, col = d["negate"]
    if isinstance(neg, str) and neg.strip() in ("0", "1"):   # yaml-cpp reads "0" as 0
        neg = int(neg)
    if isinstance(neg, (bool, float)) or neg not in (0, 1):
        raise fail("negate is not 0 or 1; expected 0 or 1", path, ln, col)
    mode = "trinary"
    if "mode" in d:
        mode, ln, col = d["mode"]
        if mode not in MODES:
            raise fail(f"mode is not one of {', '.join(MODES)}; expected trinary, scale or raw",
                       path, ln, col)
    raster = read_raster(_image_path(d, path))
    occ, unknown = interpret_pixels(raster.shade, negate=bool(neg), occupied_thresh=occ_t,
                                    free_thresh=free_t, mode=mode, alpha=raster.alpha)
    grid = OccupancyGrid(occ | unknown, resolution=res,
                         origin=tuple(_as_number(o) for o in origin))
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
    write_pixels(pix, img)
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
