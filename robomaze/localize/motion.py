"""The odometry motion model: sample_motion_model_odometry with four alphas.

Probabilistic Robotics (Thrun, Burgard, Fox), table 5.6, in the form of
Nav2 AMCL's ``DifferentialMotionModel``: the odometry step from the
previous to the current *odometry* pose is decomposed into a first turn
``rot1``, a translation ``trans`` and a second turn ``rot2``; each particle
moves by that decomposition perturbed with zero-mean Gaussians of variance

* rot1: ``alpha1 rot1^2 + alpha2 trans^2``
* trans: ``alpha3 trans^2 + alpha4 (rot1^2 + rot2^2)``
* rot2: ``alpha1 rot2^2 + alpha2 trans^2``

(``alpha1`` rotation from rotation, ``alpha2`` rotation from translation,
``alpha3`` translation from translation, ``alpha4`` translation from
rotation -- Nav2's ``alpha1..alpha4``).

>>> import numpy as np
>>> p = np.zeros((3, 3))
>>> sample_motion_odometry(p, (0, 0, 0), (0.5, 0, 0), alphas=(0, 0, 0, 0), rng=0)
>>> p.tolist()
[[0.5, 0.0, 0.0], [0.5, 0.0, 0.0], [0.5, 0.0, 0.0]]
"""

from __future__ import annotations

import numpy as np

from .._seed import as_rng

from .._validate import check_float
from ..errors import ParameterError
from . import _kernels

__all__ = ["sample_motion_odometry", "check_alphas"]


def check_alphas(alphas) -> tuple[float, float, float, float]:
    """Four non-negative floats, or a ParameterError naming ``alphas``."""
    try:
        vals = tuple(alphas)
    except TypeError:
        raise ParameterError(f"alphas must be four numbers, got {alphas!r}") from None
    if len(vals) != 4:
        raise ParameterError(f"alphas must be four numbers (alpha1..alpha4), got {alphas!r}")
    return tuple(check_float(f"alpha{i + 1}", v, min_value=0.0) for i, v in enumerate(vals))


def sample_motion_odometry(particles: np.ndarray, odom_before, odom_after, *,
                           alphas=(0.2, 0.2, 0.2, 0.2), rng=None) -> None:
    """Move ``particles`` ``(n, 3)`` (float64, in place) by one noisy odometry step.

    Parameters
    ----------
    particles : ndarray, shape (n, 3)
        ``x, y, theta`` rows, changed in place.
    odom_before, odom_after : (x, y, theta)
        The odometry poses at the two times.
    alphas : four floats
        The noise parameters of the module docstring.
    rng : Generator, int or None
        Draws the ``(n, 3)`` normals.
    """
    if not (isinstance(particles, np.ndarray) and particles.dtype == np.float64
            and particles.ndim == 2 and particles.shape[1] == 3):
        raise ParameterError(f"particles must be a float64 (n, 3) array, got "
                             f"{getattr(particles, 'shape', particles)!r}")
    a = check_alphas(alphas)
    x0, y0, t0 = (float(v) for v in odom_before[:3])
    x1, y1, t1 = (float(v) for v in odom_after[:3])
    normals = as_rng(rng).standard_normal((particles.shape[0], 3))
    _kernels.sample_odometry(particles, x0, y0, t0, x1, y1, t1, *a, normals)
