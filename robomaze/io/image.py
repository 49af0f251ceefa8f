"""Raster images (PNG and the Netpbm family: PGM P2/P5, PBM, PPM).

robomaze parses PGM/PPM (P2, P3, P5, P6) itself and decodes PNG and PBM
through Pillow, with these rules around them:

* a PGM keeps its own ``maxval`` (Pillow would rescale it to 8 or 16 bits:
  an ASCII 650 of ``maxval`` 1000 would become 0.650004 instead of 0.65)
  and a 16-bit PNG keeps 0..65535, so ``level / maxval`` is the exact
  brightness in [0, 1];
* every channel is kept (:class:`Raster`), so readers can apply a tool's
  own rule -- ROS map_server's exact channel mean with alpha, say
  (:mod:`robomaze.io.rosmap`);
* the image's size is read from its header and checked against the cell
  limit in force (:func:`robomaze.limit_cells`) and its peak memory against
  the memory budget (:func:`robomaze.io.limit_memory`) before the pixels
  are decoded; Pillow's own ``PIL.Image.MAX_IMAGE_PIXELS`` guard still
  applies on top (raise it too to read images above ~179 megapixels);
* any decoder failure (truncated chunk, bad header, oversized token, a
  palette transparency naming a missing colour) is a
  :class:`~robomaze.errors.MazeFormatError` naming the file and saying what
  was expected; Pillow's message is not repeated since it may quote the
  file's bytes.

16-bit colour PNGs are decoded by Pillow at 8 bits per channel.

Plain occupancy images (:func:`read_image`): a pixel is occupied when its
brightness is below ``threshold / 255`` (default 128/255); transparent
pixels (alpha below half) read as free. One pixel per grid cell, row 0 the
top row. :func:`write_image` puts 0 for occupied and 255 for free, as an
8-bit PGM (P5) for ``.pgm`` names and a greyscale PNG otherwise.
"""

from __future__ import annotations

import io as _io
import re
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import ParameterError
from ..grid import OccupancyGrid
from ._reading import PathLike, fail, line_col, read_bytes
from ._limits import check_memory, check_size

__all__ = ["Raster", "decode_raster", "read_raster", "write_pixels", "read_image",
           "write_image", "is_png", "is_pgm", "is_image"]

_NETPBM = (b"P1", b"P2", b"P3", b"P4", b"P5", b"P6")
_NOT_SAMPLE = re.compile(rb"[^0-9 \t\n\r\v\f]")


def is_png(data: bytes) -> bool:
    """Whether ``data`` starts with the PNG signature."""
    return data[:8] == b"\x89PNG\r\n\x1a\n"


def is_pgm(data: bytes) -> bool:
    """Whether ``data`` starts with a Netpbm magic (``P1``..``P6``) and a space."""
    return data[:2] in _NETPBM and data[2:3].isspace()


def is_image(data: bytes) -> bool:
    """Whether ``data`` is a PNG or a Netpbm image (by its magic)."""
    return is_png(data) or is_pgm(data)


@dataclass(frozen=True)
class Raster:
    """Decoded pixels as the file stores them.

    ``channels`` is ``(rows, cols, C)``: C = 1 grey, 2 grey + alpha, 3 RGB,
    4 RGBA, each in ``0..maxval`` (uint8, or uint16 for 16-bit files and
    PGMs with ``maxval`` above 255; alpha shares ``maxval``). ``source`` is
    ``"png"`` or ``"pnm"``.
    """

    channels: np.ndarray
    maxval: int
    source: str = "png"

    @property
    def has_alpha(self) -> bool:
        """Whether the last channel is alpha (grey + alpha or RGBA)."""
        return self.channels.shape[2] in (2, 4)

    @property
    def colour(self) -> np.ndarray:
        """The colour channels only (1 or 3), without alpha."""
        return self.channels[..., :3 if self.channels.shape[2] >= 3 else 1]

    @property
    def level(self) -> np.ndarray:
        """Grey level in ``0..maxval``: the integer (floored) mean of the colour channels."""
        c = self.colour
        if c.shape[2] == 1:
            return c[..., 0]
        return (c.sum(axis=2, dtype=np.uint32) // 3).astype(c.dtype)

    @property
    def alpha(self) -> np.ndarray | None:
        """Alpha in ``0..maxval``, or None for an image without alpha."""
        return self.channels[..., -1] if self.has_alpha else None

    @property
    def shade(self) -> np.ndarray:
        """Brightness in [0, 1]: the exact mean of the colour channels over ``maxval``."""
        c = self.colour
        total = c[..., 0] if c.shape[2] == 1 else c.sum(axis=2, dtype=np.float64) / 3.0
        return total / float(self.maxval)


#: Bytes per pixel a decode may hold at its peak on top of the decoder's own
#: image: the numpy copy and a float64 brightness or two (interpretation).
PEAK_EXTRA_PER_PIXEL = 24
_PIL_BYTES = {"1": 1, "L": 1, "P": 1, "LA": 2, "La": 2, "PA": 2, "RGB": 4, "RGBA": 4,
              "RGBa": 4, "RGBX": 4, "I": 4, "I;16": 2, "I;16B": 2, "I;16L": 2, "F": 4}


def _check_pixels(w: int, h: int, bytes_per_pixel: int, path, kind: str) -> None:
    check_size(f"a {w}x{h} pixel image", w * h, path, 1, 1)
    # Pillow also keeps a pointer and a block header per row: a 60,000,000 x 1
    # image costs ~13 bytes per row before its pixels
    check_memory(f"a {w}x{h} pixel {kind}", w * h * (2 * bytes_per_pixel
                                                       + PEAK_EXTRA_PER_PIXEL) + 16 * h,
                 path, 1, 1)


def _open(data: bytes, path):
    from PIL import Image
    kind = "PNG" if is_png(data) else "PGM/PPM"
    try:
        with warnings.catch_warnings():
            # robomaze checks the size itself against its own, explicit limit
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            img = Image.open(_io.BytesIO(data), formats=["PNG", "PPM"])
    except Image.DecompressionBombError:
        raise fail(f"the {kind} header announces more pixels than Pillow's decompression-bomb "
                   f"limit PIL.Image.MAX_IMAGE_PIXELS ({Image.MAX_IMAGE_PIXELS}); expected a "
                   "smaller image (raise that limit to read it)", path, 1, 1) from None
    except Exception:  # noqa: BLE001 - any decoder failure means "not a valid image"
        raise fail(f"cannot read the {kind} header; expected a valid PNG or PGM image "
                   "(magic, width, height, maxval)", path, 1, 1) from None
    w, h = img.size
    _check_pixels(w, h, _PIL_BYTES.get(img.mode, 8), path, kind)
    try:
        img.load()
    except Exception:  # noqa: BLE001 - truncated or corrupt pixel data
        raise fail(f"cannot decode the {w}x{h} {kind} pixel data; expected a complete, valid "
                   "image (truncated file?)", path, 1, 1) from None
    return img


# ------------------------------------------------------------------ Netpbm
_SPACE = b" \t\n\r\v\f"


def _header_fields(data: bytes, count: int, path) -> tuple[list[int], int]:
    """``count`` decimal fields after the magic (comments skipped) and the
    offset just past the last one."""
    pos, out = 2, []
    while len(out) < count:
        while pos < len(data) and (data[pos] in _SPACE or data[pos] == 0x23):
            if data[pos] == 0x23:                       # '#' comment to end of line
                nl = data.find(b"\n", pos)
                pos = len(data) if nl < 0 else nl + 1
            else:
                pos += 1
        start = pos
        while pos < len(data) and 0x30 <= data[pos] <= 0x39 and pos - start <= 10:
            pos += 1
        if pos == start or pos - start > 10:
            names = ("width", "height", "maxval")
            raise fail(f"the PGM/PPM header's {names[len(out)]} is not a whole number of at "
                       "most 10 digits; expected 'P2|P5|P3|P6 width height maxval'",
                       path, 1, 1)
        out.append(int(data[start:pos]))
    return out, pos


def _ascii_samples(body: bytes, n: int, maxval: int, path, offset: int, data) -> np.ndarray:
    """``n`` decimal samples from ASCII Netpbm text, read in slices so the
    peak stays near the array itself."""
    bad = _NOT_SAMPLE.search(body)
    if bad is not None:
        raise fail("a character in the ASCII pixel data that is not a digit or white space; "
                   "expected whole numbers 0..maxval", path, *line_col(data, offset + bad.start()))
    out = np.empty(n, np.uint16 if maxval > 255 else np.uint8)
    got, pos, step = 0, 0, 1 << 22
    while pos < len(body):
        end = min(len(body), pos + step)
        while end < len(body) and body[end] not in _SPACE:    # cut at white space
            end += 1
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            vals = np.fromstring(body[pos:end], dtype=np.int64, sep=" ")
        if got + len(vals) > n:
            raise fail(f"more than {n} samples in the ASCII pixel data; expected exactly "
                       "width x height (x 3 for P3) samples", path, 1, 1)
        if len(vals) and int(vals.max()) > maxval:
            raise fail(f"a sample of {int(vals.max())} above maxval {maxval}; expected "
                       f"samples 0..{maxval}", path, 1, 1)
        out[got:got + len(vals)] = vals
        got += len(vals)
        pos = end
    if got < n:
        raise fail(f"{got} of {n} samples in the ASCII pixel data; expected width x height "
                   "(x 3 for P3) samples (truncated file?)", path, 1, 1)
    return out


def _decode_netpbm(data: bytes, path) -> Raster:
    """P2/P5 (grey) and P3/P6 (colour) with any ``maxval`` 1..65535, kept exactly."""
    magic = data[:2]
    (w, h, maxval), pos = _header_fields(data, 3, path)
    if w < 1 or h < 1 or not 1 <= maxval <= 65535:
        raise fail(f"PGM/PPM header: {w}x{h} pixels, maxval {maxval}; expected width and "
                   "height >= 1 and maxval 1..65535", path, 1, 1)
    nc = 3 if magic in (b"P3", b"P6") else 1
    wide = maxval > 255
    _check_pixels(w, h, nc * (2 if wide else 1), path, "PGM/PPM")
    n = w * h * nc
    if magic in (b"P5", b"P6"):
        if pos >= len(data) or data[pos] not in _SPACE:
            raise fail("no single white space after maxval; expected the binary pixel data "
                       "after one space or newline", path, 1, 1)
        pos += 1
        size = n * (2 if wide else 1)
        if len(data) - pos < size:
            raise fail(f"{len(data) - pos} bytes of pixel data for {w}x{h} pixels; expected "
                       f"{size} bytes (truncated file?)", path, 1, 1)
        flat = np.frombuffer(data, ">u2" if wide else np.uint8, n, pos)
        if wide:
            flat = flat.astype(np.uint16)
        if maxval < (65535 if wide else 255) and int(flat.max()) > maxval:
            raise fail(f"a sample of {int(flat.max())} above maxval {maxval}; expected "
                       f"samples 0..{maxval}", path, 1, 1)
    else:
        flat = _ascii_samples(data[pos:], n, maxval, path, pos, data)
    return Raster(flat.reshape(h, w, nc), maxval, "pnm")


def _decode_png(data: bytes, path) -> Raster:
    img = _open(data, path)
    mode = img.mode
    if mode == "1":
        img, mode = img.convert("L"), "L"
    if mode in ("P", "PA"):
        alpha = mode == "PA" or "transparency" in img.info
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")     # Pillow's advice to convert to RGBA
                img = img.convert("RGBA" if alpha else "RGB")
        except Exception:  # noqa: BLE001 - e.g. a tRNS entry naming a missing colour
            raise fail("cannot expand the palette image (its transparency names a colour "
                       "index outside the palette?); expected a palette whose tRNS entries "
                       "name existing colours", path, 1, 1) from None
        mode = img.mode
    elif mode == "L" and "transparency" in img.info:
        img, mode = img.convert("LA"), "LA"
    if mode in ("I", "I;16", "I;16B", "I;16L"):
        a = np.clip(np.asarray(img), 0, 65535).astype(np.uint16)
        return Raster(a[..., None], 65535, "png")
    if mode == "L":
        return Raster(np.asarray(img)[..., None], 255, "png")
    if mode in ("LA", "La"):
        return Raster(np.asarray(img.convert("LA")), 255, "png")
    if mode in ("RGB", "RGBX"):
        return Raster(np.asarray(img.convert("RGB")), 255, "png")
    if mode in ("RGBA", "RGBa"):
        return Raster(np.asarray(img.convert("RGBA")), 255, "png")
    raise fail(f"pixel mode {mode}; expected a greyscale, RGB(A) or palette image",
               path, 1, 1)


def decode_raster(data: bytes, *, path=None) -> Raster:
    """Decode PNG or Netpbm bytes into a :class:`Raster`.

    PGM/PPM files (P2, P3, P5, P6) are parsed here, with their ``maxval``
    kept as it is (no rescaling to 8 or 16 bits); PNG and PBM go through
    Pillow.

    >>> r = decode_raster(b"P2\\n3 1\\n1000\\n0 650 1000\\n")
    >>> r.maxval, r.shade.tolist()
    (1000, [[0.0, 0.65, 1.0]])
    """
    if not is_image(data):
        raise fail("not a PNG or PGM image; expected the PNG signature or a Netpbm magic "
                   "'P2'/'P5'", path, 1, 1)
    if data[:2] in (b"P2", b"P3", b"P5", b"P6"):
        return _decode_netpbm(data, path)
    return _decode_png(data, path)


def read_raster(path: PathLike) -> Raster:
    """Read a PNG or PGM file's pixels (see :func:`decode_raster`)."""
    return decode_raster(read_bytes(path), path=path)


def write_pixels(pixels: np.ndarray, path: PathLike) -> None:
    """Write a 2-D uint8 array: binary PGM (P5) for ``.pgm``, else greyscale PNG."""
    from PIL import Image
    a = np.asarray(pixels)
    if a.ndim != 2 or a.dtype != np.uint8:
        raise ParameterError(f"pixels must be a 2-D uint8 array, got {a.dtype} {a.shape}")
    fmt = "PPM" if str(path).lower().endswith(".pgm") else "PNG"
    with open(Path(path), "wb") as fh:
        Image.fromarray(np.ascontiguousarray(a), mode="L").save(fh, format=fmt)


def read_image(path: PathLike, *, resolution: float = 1.0, threshold: int = 128) -> OccupancyGrid:
    """A plain occupancy image (PNG or PGM): brightness below ``threshold/255``
    is occupied; transparent pixels (alpha < 128) are free.

    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "g.pgm")
    >>> write_image(OccupancyGrid([[1, 0]]), p)
    >>> read_image(p).occupied.tolist()
    [[True, False]]
    """
    r = read_raster(path)
    # level * 255 < threshold * maxval, as one comparison with the smallest
    # level that is not dark (no int64 copy of the image)
    occ = r.level < -(-int(threshold) * r.maxval // 255)
    if r.alpha is not None:
        occ &= r.alpha > r.maxval // 2                       # alpha >= 128 of 255
    return OccupancyGrid(occ, resolution=resolution)


def write_image(grid: OccupancyGrid, path: PathLike) -> None:
    """Write 0 for occupied and 255 for free, one pixel per cell; PGM for
    ``.pgm`` names, PNG otherwise."""
    write_pixels(np.where(np.asarray(grid.occupied), 0, 255).astype(np.uint8), path)
