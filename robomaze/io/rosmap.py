"""ROS ``map_server`` / Nav2 maps: a YAML description plus a PGM or PNG image.

Loading follows Nav2's ``map_io`` (``nav2_map_server``) by default and ROS 1
``map_server``'s image_loader with ``rules="ros1"`` (:func:`map_values`):

* Nav2 (GraphicsMagick, 16-bit quanta): ``shade`` is the exact mean of R,
  G and B (a grey pixel has R = G = B) over full brightness -- (89, 89, 90)
  is 89.33/255, not 89/255 -- and, in ``trinary`` mode only, an image with
  an alpha channel has its alpha averaged in as a fourth channel (grey 248
  with alpha 0 is 186/255: unknown, not free); ``occ = 1 - shade`` (or
  ``shade`` when ``negate`` is 1); occupied if ``occupied_thresh < occ``,
  free if ``occ < free_thresh`` (compared in map_io's own arithmetic: grey
  51 with ``negate: 1`` has ``occ`` = 13107/65535 = 0.2, unknown at
  ``free_thresh: 0.2``, where ``1 - (1 - 51/255)`` would be free), unknown
  otherwise.
  ``scale``: non-opaque pixels are unknown and in-between ones get
  ``rint(100 (occ - free) / (occupied - free))``, so 0 and 100 there are
  free and occupied; ``raw``: ``round(255 shade)`` is the value (``negate``
  is ignored) and above 100 unknown. A PGM ``maxval`` that does not divide
  65535 (1000, say) gives ``shade = level / maxval`` exactly.
* ROS 1 (SDL_image, 8 bits): 16-bit PNGs keep their high byte, PGMs with
  ``maxval`` below 255 are scaled by ``v * 255 // maxval`` and above 255
  are refused as map_server refuses them; the mean is over all channels in
  trinary mode (alpha included; grey + alpha counts as R, G, B, A) and
  over all but alpha otherwise; ``negate`` flips the mean in every mode;
  ``occ = (255 - mean) / 255``; ``raw`` truncates the mean.
* robomaze's boolean grid: 100 is occupied, 0 free, everything else (-1,
  and the partial 1..99 of ``scale``) in the unknown mask; in ``raw`` mode
  the values 0..100 are compared with the thresholds times 100.
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
is unknown under the default thresholds, as in Nav2.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np

from ..errors import ParameterError
from ..grid import OccupancyGrid
from ._reading import PathLike, check_regular_file, decode_text, fail, file_problem, read_bytes
from .image import read_raster, write_pixels

__all__ = ["parse_map_yaml", "read_rosmap", "read_rosmap_grid", "write_rosmap",
           "interpret_pixels", "map_values", "RULES", "looks_like_rosmap", "REQUIRED_KEYS", "MODES",
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
    import yaml  # here: every command imports this module, few read a ROS map (~0.03 s)

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


def _round_half_away(x: np.ndarray) -> np.ndarray:
    """C's ``std::round`` for x >= 0 (halves away from zero; numpy's rint goes to even)."""
    fl = np.floor(x)
    return fl + ((x - fl) >= 0.5)


def interpret_pixels(shade: np.ndarray, *, negate: bool, occupied_thresh: float,
                     free_thresh: float, mode: str = "trinary",
                     alpha: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Nav2's pixel rule on brightness ``shade`` in [0, 1] alone: ``(occupied,
    unknown)`` boolean arrays. ``alpha`` (0..255) only marks non-opaque
    pixels unknown in ``scale`` mode; :func:`map_values` applies the full
    rule to an image's channels.

    >>> occ, unk = interpret_pixels(np.array([[0, 205, 254]]) / 255, negate=False,
    ...                             occupied_thresh=0.65, free_thresh=0.196)
    >>> occ.astype(int), unk.astype(int)
    (array([[1, 0, 0]]), array([[0, 1, 0]]))
    """
    s = np.asarray(shade, dtype=float)
    a = None if alpha is None else np.asarray(alpha)
    values = _nav2_from_shade(s, None if a is None else a == 255, negate=negate, occ_t=occupied_thresh, free_t=free_thresh,
                              mode=mode)
    return _classify(values, mode, occupied_thresh, free_thresh)


#: Rule sets :func:`read_rosmap` follows: Nav2's ``map_io`` (ROS 2) or ROS 1 map_server.
RULES = ("nav2", "ros1")
#: Pixels interpreted at a time (bounds the float temporaries).
_BLOCK_PIXELS = 1 << 20


def _nav2_from_shade(shade, opaque, *, negate, occ_t, free_t, mode) -> np.ndarray:
    """Nav2 map_io's cell value (-1, 0..100) from the brightness ``shade``."""
    if mode == "raw":                     # map_io ignores negate here
        v = _round_half_away(shade * 255.0)
        return np.where(v <= 100, v, -1).astype(np.int16)
    occ = shade if negate else 1.0 - shade
    out = np.full(shade.shape, -1, np.int16)
    is_occ = occ_t < occ
    is_free = (occ < free_t) & ~is_occ
    out[is_occ] = 100
    out[is_free] = 0
    if mode == "scale":
        mid = ~(is_occ | is_free)
        if occ_t > free_t:
            ratio = (occ[mid] - free_t) / (occ_t - free_t)
            out[mid] = np.rint(ratio * 100.0).astype(np.int16)
        if opaque is not None:
            out[~opaque] = -1
    return out


def _nav2_values(ch: np.ndarray, maxval: int, has_alpha: bool, *, negate, occ_t, free_t,
                 mode) -> np.ndarray:
    """Nav2 ``map_io``: GraphicsMagick quanta (16 bits), the exact mean of
    R, G, B (a grey pixel is R = G = B) plus, in trinary mode, the alpha of
    an image with an alpha channel; ``shade = mean / 65535``."""
    ncol = 3 if ch.shape[2] >= 3 else 1
    if 65535 % maxval == 0:
        q, top = 65535 // maxval, 65535.0
    else:                                 # a PGM maxval such as 1000: level / maxval exactly
        q, top = 1, float(maxval)
    if ncol == 1:
        total = ch[..., 0].astype(np.float64) * (3 * q)
    else:
        total = ch[..., :3].sum(axis=2, dtype=np.float64) * q
    n = 3.0
    if has_alpha and mode == "trinary":
        total += ch[..., -1].astype(np.float64) * q
        n = 4.0
    shade = (total / n) / top
    opaque = (ch[..., -1] == maxval) if has_alpha else None
    return _nav2_from_shade(shade, opaque, negate=negate, occ_t=occ_t, free_t=free_t,
                            mode=mode)


def _ros1_bytes(raster, path) -> np.ndarray:
    """The 8-bit samples SDL_image hands ROS 1 map_server."""
    ch, maxval = raster.channels, raster.maxval
    if maxval == 255:
        return ch
    if raster.source == "png":            # libpng's strip_16: the high byte
        return (ch >> 8).astype(np.uint8)
    if maxval > 255:
        raise fail(f"a PGM with maxval {maxval}; ROS 1 map_server (SDL_image) reads maxval "
                   "up to 255 only (read it with rules='nav2')", path, 1, 1)
    return (ch.astype(np.uint16) * 255 // maxval).astype(np.uint8)


def _ros1_values(b: np.ndarray, has_alpha: bool, *, negate, occ_t, free_t,
                 mode) -> np.ndarray:
    """ROS 1 map_server's image_loader: SDL's channels (grey + alpha becomes
    RGBA), the mean of all of them in trinary mode (alpha included) or of
    all but alpha otherwise; ``occ = (255 - mean) / 255``."""
    if b.shape[2] == 2:                   # SDL expands grey + alpha to RGBA
        b = b[..., [0, 0, 0, 1]]
    n = b.shape[2]
    avg = n if (mode == "trinary" or not has_alpha) else n - 1
    mean = b[..., :avg].sum(axis=2, dtype=np.int64) / float(avg)
    if negate:
        mean = 255 - mean
    if mode == "raw":
        v = np.trunc(mean)                # int8 value = double: truncation
        return np.where(v <= 100, v, -1).astype(np.int16)
    occ = (255 - mean) / 255.0
    out = np.full(mean.shape, -1, np.int16)
    is_occ = occ > occ_t
    is_free = (occ < free_t) & ~is_occ
    out[is_occ] = 100
    out[is_free] = 0
    if mode == "scale":
        # the last byte of the pixel is its "alpha" (the blue byte of RGB)
        alpha = b[..., n - 1] if n > 1 else np.ones(mean.shape, np.uint8)
        mid = ~(is_occ | is_free) & (alpha >= 1)
        if occ_t > free_t:
            ratio = (occ[mid] - free_t) / (occ_t - free_t)
            out[mid] = np.trunc(1 + 98 * ratio).astype(np.int16)
    return out


def map_values(raster, *, negate: bool, occupied_thresh: float, free_thresh: float,
               mode: str = "trinary", rules: str = "nav2", path=None) -> np.ndarray:
    """The OccupancyGrid message values map_server publishes for an image:
    -1 (unknown), 0 (free), 100 (occupied) and, in scale or raw mode,
    1..99; int16, rows as in the image (row 0 north).

    ``rules`` is ``"nav2"`` (ROS 2 Nav2 ``map_io``) or ``"ros1"`` (ROS 1
    ``map_server``'s image_loader); raw values above 100 are -1.

    >>> from robomaze.io.image import decode_raster
    >>> r = decode_raster(b"P2\\n3 1\\n255\\n0 51 254\\n")
    >>> map_values(r, negate=True, occupied_thresh=0.65, free_thresh=0.2).tolist()
    [[0, -1, 100]]
    """
    if rules not in RULES:
        raise ParameterError(f"rules must be one of {', '.join(RULES)}, got {rules!r}")
    if mode not in MODES:
        raise ParameterError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    opts = dict(negate=bool(negate), occ_t=float(occupied_thresh), free_t=float(free_thresh),
                mode=mode)
    ch = raster.channels
    src = _ros1_bytes(raster, path) if rules == "ros1" else ch
    rows = ch.shape[0]
    out = np.empty(rows * ch.shape[1], np.int16).reshape(ch.shape[:2])
    step = max(1, _BLOCK_PIXELS // max(1, ch.shape[1]))
    for r0 in range(0, rows, step):
        block = src[r0:r0 + step]
        if rules == "ros1":
            out[r0:r0 + step] = _ros1_values(block, raster.has_alpha, **opts)
        else:
            out[r0:r0 + step] = _nav2_values(block, raster.maxval, raster.has_alpha, **opts)
    return out


def _classify(values: np.ndarray, mode: str, occ_t: float,
              free_t: float) -> tuple[np.ndarray, np.ndarray]:
    """``(occupied, unknown)`` from message values: 100 occupied, 0 free, the
    rest unknown; raw values 0..100 are compared with the thresholds x 100."""
    if mode == "raw":
        valid = values >= 0
        occ = valid & (values > occ_t * 100)
        free = valid & (values < free_t * 100)
    else:
        occ, free = values == 100, values == 0
    return occ, ~(occ | free)


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


def read_rosmap(path: PathLike, *, rules: str = "nav2") -> tuple[OccupancyGrid, np.ndarray]:
    """Read a map_server YAML file and its image.

    Parameters
    ----------
    path : path-like
        The YAML file.
    rules : {"nav2", "ros1"}
        Whose pixel rules to follow (see :func:`map_values`): ROS 2 Nav2's
        ``map_io`` (default) or ROS 1 ``map_server``.

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
    if rules not in RULES:
        raise ParameterError(f"rules must be one of {', '.join(RULES)}, got {rules!r}")
    img_path = _image_path(d, path)
    raster = read_raster(img_path)
    values = map_values(raster, negate=bool(neg), occupied_thresh=occ_t, free_thresh=free_t,
                        mode=mode, rules=rules, path=img_path)
    del raster
    occ, unknown = _classify(values, mode, occ_t, free_t)
    grid = OccupancyGrid(occ | unknown, resolution=res,
                         origin=tuple(_as_number(o) for o in origin))
    return grid, unknown


def read_rosmap_grid(path: PathLike, *, unknown: str = "occupied",
                     rules: str = "nav2") -> OccupancyGrid:
    """The grid of a ROS map with unknown cells read as ``"occupied"`` or
    ``"free"``, by Nav2's or ROS 1's ``rules``."""
    if unknown not in ("occupied", "free"):
        raise ParameterError(f"unknown must be 'occupied' or 'free', got {unknown!r}")
    grid, unk = read_rosmap(path, rules=rules)
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
