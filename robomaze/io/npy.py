"""NumPy ``.npy`` arrays and ``.npz`` archives, read defensively.

A grid is a ``.npy`` holding a 2-D bool or 0/1 integer array (True / 1 =
occupied). :func:`read_npz` / :func:`write_npz` serve other modules that
keep several arrays in one file (trajectories).

Reading never trusts the header: it is parsed by NumPy's header reader
with every failure (bad tokens, bad dict, unknown dtype) turned into a
:class:`~robomaze.errors.MazeFormatError`; only plain numeric, bool and
unicode dtypes are accepted (no pickles, no objects, no structured
records); the element count is checked against the cell limit in force
and the byte count against the bytes actually present **before** the data
is read, so a 100-byte file cannot make the reader allocate gigabytes.
"""

from __future__ import annotations

import io as _io
import warnings
import zipfile
from pathlib import Path

import numpy as np

from ..errors import MazeFormatError
from ..grid import OccupancyGrid
from ._reading import PathLike, fail, max_file_bytes, read_bytes
from ._limits import check_size

__all__ = ["read_npy", "write_npy", "is_npy", "decode_npy", "read_npz", "write_npz",
           "is_npz"]

_MAGIC = b"\x93NUMPY"
#: dtype kinds the readers accept: bool, signed, unsigned, float, unicode.
KINDS = "biufU"


def is_npy(data: bytes) -> bool:
    """Whether ``data`` starts with the ``.npy`` magic."""
    return data[:6] == _MAGIC


def is_npz(data: bytes) -> bool:
    """Whether ``data`` starts like a zip archive (an ``.npz``)."""
    return data[:4] == b"PK\x03\x04"


def _read_array(fh, path, *, what: str, kinds: str = KINDS) -> np.ndarray:
    """One array from a stream positioned at its ``.npy`` magic."""
    fmt = np.lib.format
    try:
        with warnings.catch_warnings():
            # NumPy warns about Python-2 style headers; a bad header is our error
            warnings.simplefilter("ignore")
            version = fmt.read_magic(fh)
            if version == (1, 0):
                shape, fortran, dtype = fmt.read_array_header_1_0(fh)
            elif version in ((2, 0), (3, 0)):
                shape, fortran, dtype = fmt.read_array_header_2_0(fh)
            else:
                raise ValueError("version")
    except Exception:  # noqa: BLE001 - NumPy's header parser raises many types on garbage
        raise fail(f"{what}: unreadable .npy header; expected the magic '\\x93NUMPY', a "
                   "version and a dict of descr, fortran_order and shape", path, 1, 1) from None
    if dtype.hasobject or dtype.fields is not None or dtype.subdtype is not None \
            or dtype.kind not in kinds:
        raise fail(f"{what}: array of dtype kind {dtype.kind!r}; expected a plain array of "
                   f"kind {', '.join(kinds)} (no objects or records)", path, 1, 1)
    if not isinstance(shape, tuple) or not all(
            isinstance(s, int) and 0 <= s < 2 ** 62 for s in shape):
        raise fail(f"{what}: a shape that is not a tuple of sizes 0..2**62; expected a shape "
                   "like (rows, cols)", path, 1, 1)
    n = 1
    for s in shape:
        n *= s
    check_size(f"{what}: a {len(shape)}-D array", n, path, 1, 1)
    nbytes = n * dtype.itemsize
    if nbytes > max_file_bytes():
        raise fail(f"{what}: {nbytes} bytes of data; expected at most {max_file_bytes()}",
                   path, 1, 1)
    raw = fh.read(nbytes)
    if len(raw) != nbytes:
        raise fail(f"{what}: {len(raw)} bytes of data; expected {nbytes} for shape "
                   f"{tuple(shape)} (truncated file?)", path, 1, 1)
    a = np.frombuffer(raw, dtype=dtype, count=n)
    return a.reshape(shape, order="F" if fortran else "C").copy()


def decode_npy(data: bytes, *, path=None) -> np.ndarray:
    """Decode ``.npy`` bytes (see the module notes).

    >>> b = _io.BytesIO(); np.save(b, np.eye(2, dtype=bool))
    >>> decode_npy(b.getvalue()).tolist()
    [[True, False], [False, True]]
    """
    if not is_npy(data):
        raise fail("not a .npy file; expected the magic '\\x93NUMPY'", path, 1, 1)
    return _read_array(_io.BytesIO(data), path, what="array")


def read_npy(path: PathLike, *, resolution: float = 1.0) -> OccupancyGrid:
    """Read a 2-D bool or 0/1 integer array (True / 1 = occupied); no pickles."""
    a = decode_npy(read_bytes(path), path=path)
    if a.ndim != 2 or 0 in a.shape:
        raise fail(f"array has shape {a.shape}; expected a non-empty 2-D grid", path, 1, 1)
    if a.dtype != bool:
        if a.dtype.kind not in "iu" or not np.isin(a, (0, 1)).all():
            raise fail(f"array of {a.dtype} with values outside 0/1; expected bool or 0/1",
                       path, 1, 1)
    return OccupancyGrid(a.astype(bool), resolution=resolution)


def write_npy(grid: OccupancyGrid, path: PathLike) -> None:
    """Save the boolean ``occupied`` array."""
    with open(Path(path), "wb") as fh:   # a file object: np.save must not add ".npy"
        np.save(fh, np.asarray(grid.occupied, bool), allow_pickle=False)


def read_npz(path: PathLike, *, kinds: str = KINDS) -> dict[str, np.ndarray]:
    """The arrays of an ``.npz`` archive, each read as :func:`decode_npy` reads one.

    A missing file stays ``FileNotFoundError``; anything else wrong is a
    :class:`~robomaze.errors.MazeFormatError` naming the file and the member.
    """
    data = read_bytes(path)
    try:
        zf = zipfile.ZipFile(_io.BytesIO(data))
        infos = zf.infolist()
    except Exception:  # noqa: BLE001 - zipfile raises many types on a damaged archive
        raise fail("not a readable .npz (zip) archive; expected a file written by "
                   "numpy.savez", path) from None
    out: dict[str, np.ndarray] = {}
    with zf:
        for info in infos:
            name = info.filename
            key = name[:-4] if name.endswith(".npy") else name
            if not key.isidentifier() or key in out:
                raise fail("an archive member that is not a NAME.npy array (or listed "
                           "twice); expected numpy.savez members", path)
            try:
                with zf.open(info) as fh:
                    out[key] = _read_array(fh, path, what=f"member {key}", kinds=kinds)
            except MazeFormatError:
                raise
            except Exception:  # noqa: BLE001 - bad CRC, bad compression, truncated member
                raise fail(f"member {key} cannot be decompressed; expected an intact "
                           "numpy.savez archive (truncated file?)", path) from None
    return out


def write_npz(path: PathLike, arrays: dict[str, np.ndarray]) -> None:
    """Write ``arrays`` with ``numpy.savez_compressed`` to exactly ``path``."""
    with open(Path(path), "wb") as fh:   # a file object: savez must not add ".npz"
        np.savez_compressed(fh, **arrays)
