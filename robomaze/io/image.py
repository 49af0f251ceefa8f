"""Raster images (PNG and the Netpbm family: PGM P2/P5, PBM, PPM) through Pillow.

Pillow decodes every image; robomaze adds the rules around it:

* the pixel level is read with the image's own maximum honoured: Pillow
  scales a PGM's ``maxval`` to 255 (8-bit) or 65535 (16-bit) and a 16-bit
  PNG keeps 0..65535, so ``level / maxval`` is the brightness in [0, 1]
  (a 40000 of 65535 is 0.61, whatever else the image holds);
* the grey level of a colour pixel is the integer mean of its colour
  channels, as ROS map_server computes it;
* the image's size is read from its header and checked against the cell
  limit in force (:func:`robomaze.limit_cells`) before the pixels are
  decoded; Pillow's own ``PIL.Image.MAX_IMAGE_PIXELS`` guard still applies
  on top (raise it too to read images above ~179 megapixels);
* any decoder failure (truncated chunk, bad header, oversized token) is a
  :class:`~robomaze.errors.MazeFormatError` naming the file and saying what
  was expected; Pillow's message is not repeated since it may quote the
  file's bytes.

Plain occupancy images (:func:`read_image`): a pixel is occupied when its
brightness is below ``threshold / 255`` (default 128/255); transparent
pixels (alpha below half) read as free. One pixel per grid cell, row 0 the
top row. :func:`write_image` puts 0 for occupied and 255 for free, as an
8-bit PGM (P5) for ``.pgm`` names and a greyscale PNG otherwise.
"""

from __future__ import annotations

import io as _io
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import ParameterError
from ..grid import OccupancyGrid
from ._common import PathLike, check_size, fail, read_bytes

__all__ = ["Raster", "decode_raster", "read_raster", "write_pixels", "read_image",
           "write_image", "is_png", "is_pgm", "is_image"]

_NETPBM = (b"P1", b"P2", b"P3", b"P4", b"P5", b"P6")


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
    """Decoded pixels: ``level`` (2-D, 0..``maxval``), optional ``alpha``
    (2-D, 0..255) and the level of full brightness ``maxval``."""

    level: np.ndarray
    alpha: np.ndarray | None
    maxval: int

    @property
    def shade(self) -> np.ndarray:
        """Brightness in [0, 1]: ``level / maxval``."""
        return self.level / float(self.maxval)


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
    check_size(f"a {w}x{h} pixel image", w * h, path, 1, 1)
    try:
        img.load()
    except Exception:  # noqa: BLE001 - truncated or corrupt pixel data
        raise fail(f"cannot decode the {w}x{h} {kind} pixel data; expected a complete, valid "
                   "image (truncated file?)", path, 1, 1) from None
    return img


def decode_raster(data: bytes, *, path=None) -> Raster:
    """Decode PNG or Netpbm bytes into a :class:`Raster`.

    >>> r = decode_raster(b"P2\\n3 1\\n1000\\n0 400 1000\\n")
    >>> r.maxval, r.shade.round(3).tolist()
    (65535, [[0.0, 0.4, 1.0]])
    """
    if not is_image(data):
        raise fail("not a PNG or PGM image; expected the PNG signature or a Netpbm magic "
                   "'P2'/'P5'", path, 1, 1)
    img = _open(data, path)
    mode = img.mode
    if mode == "1":
        return Raster(np.asarray(img.convert("L")), None, 255)
    if mode == "L":
        return Raster(np.asarray(img), None, 255)
    if mode in ("I", "I;16", "I;16B", "I;16L"):
        a = np.asarray(img)
        return Raster(np.clip(a, 0, 65535).astype(np.uint16), None, 65535)
    if mode == "P":
        img, mode = img.convert("RGBA"), "RGBA"
    if mode in ("LA", "La"):
        a = np.asarray(img.convert("LA"))
        return Raster(a[..., 0].copy(), a[..., 1].copy(), 255)
    if mode in ("RGB", "RGBA", "RGBa", "RGBX"):
        a = np.asarray(img)
        grey = (a[..., :3].sum(axis=2, dtype=np.uint16) // 3).astype(np.uint8)
        alpha = a[..., 3].copy() if mode in ("RGBA", "RGBa") else None
        return Raster(grey, alpha, 255)
    raise fail(f"pixel mode {mode}; expected a greyscale, RGB(A) or palette image",
               path, 1, 1)


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
    occ = r.level.astype(np.int64) * 255 < int(threshold) * r.maxval
    if r.alpha is not None:
        occ &= r.alpha >= 128
    return OccupancyGrid(occ, resolution=resolution)


def write_image(grid: OccupancyGrid, path: PathLike) -> None:
    """Write 0 for occupied and 255 for free, one pixel per cell; PGM for
    ``.pgm`` names, PNG otherwise."""
    write_pixels(np.where(np.asarray(grid.occupied), 0, 255).astype(np.uint8), path)
