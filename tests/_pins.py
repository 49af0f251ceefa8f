"""Reference outputs compared by kind, so the suite is green on any supported CPU.

Bit-identity is promised only where our own integer kernels compute
integers from integers (maze generators, grid searches' cells and
expansion counts): those are compared exactly, and :func:`int_digest` is
the only digest the suite may assert on -- it refuses floating-point
arrays. Everything that passes through numpy's or libm's transcendental
functions (footprint rasterisation at a heading, ray casting, motion,
noise) may differ in its last bits between CPUs (numpy takes other code
paths with AVX-512), so it is stored as numbers in a ``.npz`` beside the
tests and compared within a tolerance, with a small share of elements
allowed to differ where one flipped boundary case changes an element
(a beam grazing a corner, a pose touching a wall).

``ROBOMAZE_REGEN_PINS=1 python -m pytest -n 0 tests/test_pinned_*.py``
rewrites the references (only after a change that is meant to alter
results, with the reason in the commit message).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numpy as np

DATA = Path(__file__).parent / "data" / "pins"
REGEN = os.environ.get("ROBOMAZE_REGEN_PINS") == "1"


def int_digest(*arrays) -> str:
    """SHA-256 (16 hex digits) of integer or boolean arrays; floats are refused.

    >>> int_digest(np.arange(3))
    '...'
    """
    m = hashlib.sha256()
    for a in arrays:
        a = np.ascontiguousarray(a)
        if a.dtype.kind not in "biu":
            raise TypeError(f"int_digest: a {a.dtype} array is not bit-identical across CPUs; "
                            f"store it with save_reference and compare with assert_matches")
        m.update(str(a.dtype).encode() + str(a.shape).encode() + a.tobytes())
    return m.hexdigest()[:16]


def save_reference(name: str, outputs: dict[str, dict[str, np.ndarray]]) -> None:
    """Write ``outputs`` (key -> field -> array) to ``data/pins/NAME.npz``."""
    DATA.mkdir(parents=True, exist_ok=True)
    flat = {f"{key}|{field}": np.asarray(v) for key, fields in outputs.items()
            for field, v in fields.items()}
    np.savez_compressed(DATA / f"{name}.npz", **flat)


def load_reference(name: str) -> dict[str, dict[str, np.ndarray]]:
    """The outputs :func:`save_reference` wrote, as key -> field -> array."""
    out: dict[str, dict[str, np.ndarray]] = {}
    with np.load(DATA / f"{name}.npz") as z:
        for k in z.files:
            key, field = k.split("|", 1)
            out.setdefault(key, {})[field] = z[k]
    return out


def assert_matches(key: str, got: dict, want: dict, *, rtol: float = 1e-9,
                   atol: float = 1e-9, flip_share: float = 0.0) -> None:
    """Assert every field of ``got`` matches ``want``.

    Strings and integer arrays from integer kernels must be equal; floats
    must agree within ``rtol``/``atol``. ``flip_share`` is the share of
    elements (of a float or integer array) allowed to differ beyond that:
    0 for arithmetic-only outputs, a little for outputs whose elements each
    hinge on one geometric boundary case.
    """
    assert set(got) == set(want), f"{key}: fields {sorted(got)} != reference {sorted(want)}"
    for field, w in want.items():
        g = np.asarray(got[field])
        what = f"{key} {field}"
        assert g.shape == w.shape, f"{what}: shape {g.shape} != reference {w.shape}"
        if w.dtype.kind in "US":
            assert g.tolist() == w.tolist(), f"{what}: {g.tolist()!r} != {w.tolist()!r}"
            continue
        if w.dtype.kind == "f" or g.dtype.kind == "f":
            g64, w64 = g.astype(float), w.astype(float)
            same_nan = np.isnan(g64) & np.isnan(w64)
            bad = ~(np.isclose(g64, w64, rtol=rtol, atol=atol) | same_nan)
        else:
            bad = g != w
        allowed = int(np.floor(flip_share * bad.size))
        assert int(bad.sum()) <= allowed, (
            f"{what}: {int(bad.sum())} of {bad.size} elements differ from the reference "
            f"(allowed {allowed}); first at {np.argwhere(bad)[:3].tolist()}")
