"""Raster images: PGM (P5 binary / P2 ASCII, own reader and writer), PNG via
Pillow, and plain "dark = blocked" occupancy images.

Plain images: a pixel is occupied when its grey level (the mean of its colour
channels, transparent pixels read as white) is below 128; one pixel per grid
cell, row 0 the top row. Writing puts 0 for occupied and 255 for free.
"""

from __future__ import annotations

import io as _io
from pathlib import Path

import numpy as np

from ..errors import ParameterError
from ..grid import OccupancyGrid
from ._common import PathLike, fail, read_bytes

__all__ = ["parse_pgm", "read_pgm", "format_pgm", "write_pgm", "read_png_array",
           "write_png_array", "read_raster", "read_image", "write_image", "is_png", "is_pgm"]


def is_png(data: bytes) -> bool:
    return data[:8] == b"\x89PNG\r\n\x1a\n"


def is_pgm(data: bytes) -> bool:
    return data[:2] in (b"P5", b"P2") and data[2:3].isspace()


def parse_pgm(data: bytes, *, path=None) -> np.ndarray:
    """Decode a P5 or P2 PGM into a 2-D array (uint8, or uint16 if maxval > 255).

    >>> parse_pgm(b"P2\\n# c\\n3 1\\n255\\n0 128 255\\n")
    array([[  0, 128, 255]], dtype=uint8)
    """
    if not is_pgm(data):
        raise fail(f"starts with {data[:2]!r}; expected a PGM magic 'P5' or 'P2'",
                   path, 1, 1)
    pos = 2
    fields = []
    while len(fields) < 3:
        # Whitespace and '#' comments may separate the header fields.
        while pos < len(data) and data[pos:pos + 1].isspace():
            pos += 1
        if pos < len(data) and data[pos:pos + 1] == b"#":
            nl = data.find(b"\n", pos)
            pos = len(data) if nl < 0 else nl + 1
            continue
        start = pos
        while pos < len(data) and not data[pos:pos + 1].isspace() and data[pos:pos + 1] != b"#":
            pos += 1
        tok = data[start:pos]
        line = data.count(b"\n", 0, start) + 1
        col = start - (data.rfind(b"\n", 0, start) + 1) + 1
        if not tok:
            raise fail("header ends early; expected width, height and maxval (truncated file?)",
                       path, line, col)
        if not tok.isdigit() or int(tok) < 1:
            raise fail(f"header field {tok.decode('latin-1')!r}; expected a positive integer "
                       "(width, height, maxval)", path, line, col)
        fields.append(int(tok))
    w, h, maxval = fields
    if maxval > 65535:
        raise fail(f"maxval {maxval}; expected at most 65535", path, 1, 1)
    if w * h > 400_000_000:
        raise fail(f"image of {w}x{h} pixels is implausibly large", path, 1, 1)
    dtype = np.uint8 if maxval < 256 else np.dtype(">u2")
    if data[:2] == b"P5":
        pos += 1                      # exactly one whitespace byte before the raster
        n = w * h * (1 if maxval < 256 else 2)
        raster = data[pos:pos + n]
        if len(raster) < n:
            line = data.count(b"\n") + 1
            raise fail(f"raster has {len(raster)} bytes; expected {n} for {w}x{h} pixels "
                       "(truncated file?)", path, line, 1)
        arr = np.frombuffer(raster, dtype=dtype).reshape(h, w)
    else:
        toks = data[pos:].split()
        if len(toks) < w * h:
            raise fail(f"found {len(toks)} pixel values; expected {w * h} for {w}x{h} pixels "
                       "(truncated file?)", path, data.count(b"\n") + 1, 1)
        try:
            vals = np.array([int(t) for t in toks[:w * h]], dtype=np.int64)
        except ValueError:
            raise fail("pixel values must be integers", path, 1, 1) from None
        if vals.size and (vals.min() < 0 or vals.max() > maxval):
            raise fail(f"pixel value out of 0..{maxval}", path, 1, 1)
        arr = vals.reshape(h, w)
    return arr.astype(np.uint8 if maxval < 256 else np.uint16)


def read_pgm(path: PathLike) -> np.ndarray:
    """Read a PGM file's pixels."""
    return parse_pgm(read_bytes(path), path=path)


def format_pgm(pixels: np.ndarray, *, comment: str | None = None) -> bytes:
    """Encode a 2-D uint8 array as binary P5 PGM.

    >>> format_pgm(np.array([[0, 255]], np.uint8))
    b'P5\\n2 1\\n255\\n\\x00\\xff'
    """
    a = np.asarray(pixels)
    if a.ndim != 2 or a.dtype != np.uint8:
        raise ParameterError(f"pixels must be a 2-D uint8 array, got {a.dtype} {a.shape}")
    head = b"P5\n"
    if comment:
        head += b"# " + comment.encode("ascii") + b"\n"
    head += f"{a.shape[1]} {a.shape[0]}\n255\n".encode("ascii")
    return head + np.ascontiguousarray(a).tobytes()


def write_pgm(pixels: np.ndarray, path: PathLike, *, comment: str | None = None) -> None:
    """Write a binary P5 PGM."""
    Path(path).write_bytes(format_pgm(pixels, comment=comment))


def read_png_array(data: bytes, *, path=None) -> tuple[np.ndarray, np.ndarray | None]:
    """Decode PNG bytes to ``(grey uint8 (h, w), alpha or None)``.

    The grey level is the integer mean of the colour channels, as map_server
    computes it.
    """
    from PIL import Image, UnidentifiedImageError
    try:
        img = Image.open(_io.BytesIO(data))
        img.load()
    except (UnidentifiedImageError, OSError, SyntaxError) as exc:
        raise fail(f"cannot decode PNG: {exc}; expected a valid PNG image", path, 1, 1) from None
    a = np.asarray(img)
    if img.mode in ("1", "L", "I", "I;16", "F"):
        a = np.asarray(img.convert("L")) if img.mode != "L" else a
        return a.astype(np.uint8), None
    if img.mode == "P":
        img = img.convert("RGBA")
        a = np.asarray(img)
    if img.mode == "LA":
        return a[..., 0].astype(np.uint8), a[..., 1].astype(np.uint8)
    if img.mode not in ("RGB", "RGBA"):
        a = np.asarray(img.convert("RGBA"))
    grey = (a[..., :3].astype(np.int64).sum(axis=2) // 3).astype(np.uint8)
    alpha = a[..., 3].astype(np.uint8) if a.shape[-1] == 4 else None
    return grey, alpha


def write_png_array(pixels: np.ndarray, path: PathLike) -> None:
    """Write a 2-D uint8 array as a greyscale PNG."""
    from PIL import Image
    a = np.asarray(pixels)
    if a.ndim != 2 or a.dtype != np.uint8:
        raise ParameterError(f"pixels must be a 2-D uint8 array, got {a.dtype} {a.shape}")
    Image.fromarray(a, mode="L").save(Path(path), format="PNG")


def read_raster(path: PathLike) -> tuple[np.ndarray, np.ndarray | None]:
    """Grey levels (and alpha, if any) of a PGM or PNG file, chosen by content."""
    data = read_bytes(path)
    if is_pgm(data):
        a = parse_pgm(data, path=path)
        if a.dtype == np.uint16:
            a = (a.astype(np.uint32) * 255 // max(int(a.max()), 1)).astype(np.uint8)
        return a, None
    if is_png(data):
        return read_png_array(data, path=path)
    raise fail(f"starts with {data[:8]!r}; expected a PNG or PGM image", path, 1, 1)


def read_image(path: PathLike, *, resolution: float = 1.0, threshold: int = 128) -> OccupancyGrid:
    """A plain occupancy image (PNG or PGM): grey < ``threshold`` is occupied.

    Transparent pixels (alpha < 128) count as free (white).
    """
    grey, alpha = read_raster(path)
    occ = grey < threshold
    if alpha is not None:
        occ &= alpha >= 128
    return OccupancyGrid(occ, resolution=resolution)


def write_image(grid: OccupancyGrid, path: PathLike) -> None:
    """Write 0 for occupied and 255 for free, one pixel per cell; PGM for
    ``.pgm`` names, PNG otherwise."""
    pix = np.where(np.asarray(grid.occupied), 0, 255).astype(np.uint8)
    if str(path).lower().endswith(".pgm"):
        write_pgm(pix, path)
    else:
        write_png_array(pix, path)
