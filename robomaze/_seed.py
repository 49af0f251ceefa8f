"""The seed rule's low end: what a function's ``rng`` argument may be.

Every function that draws random numbers takes ``rng`` -- a
``numpy.random.Generator``, an int seed or None -- and turns it into a
Generator here, never touching global random state. Which seed each stage
of a world gets (the maze, the method) is :mod:`robomaze.world`'s rule
(:func:`robomaze.world.stage_rng`, :func:`robomaze.world.seed_of`).
"""

from __future__ import annotations

import numbers

import numpy as np

from .errors import ParameterError

__all__ = ["as_rng"]


def as_rng(rng) -> np.random.Generator:
    """Turn a Generator, an int seed or None into a ``numpy.random.Generator``.

    >>> int(as_rng(3).integers(10)) == int(as_rng(3).integers(10))
    True
    """
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None or (isinstance(rng, numbers.Integral) and not isinstance(rng, bool)):
        if rng is not None and rng < 0:
            raise ParameterError(f"rng seed must be >= 0, got {rng}")
        return np.random.default_rng(rng)
    if isinstance(rng, np.random.SeedSequence):
        return np.random.default_rng(rng)
    raise ParameterError(
        f"rng must be a numpy.random.Generator, an int seed or None, got {rng!r}")
