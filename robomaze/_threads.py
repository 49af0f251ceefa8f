"""One thread in numerical libraries' pools, for robomaze's own processes.

robomaze's work runs in numba kernels, one core per process; it makes no
BLAS call large enough for a thread pool to pay. OpenBLAS, which numpy
loads on import, starts a pool of one thread per core anyway, and each
thread spins before it sleeps: ~0.1 s of CPU in every ``robomaze`` command
on 2 cores (a warm ``mouse route`` 0.57-0.59 -> 0.42-0.46 s of CPU, issue 40,
round 15), and in every sweep worker a core taken from the others. The pool
size is read once, when the library loads, so the variables must be set
before numpy is imported.

Only entry points call :func:`one_thread_pools` (``python -m robomaze``, the
``robomaze`` command, the sweep runner for its workers): importing robomaze
as a library changes nothing. A value the user set is kept. Programs of the
user's that robomaze starts (a mouse under ``robomaze mouse run``) get the
environment as the user gave it: :func:`user_environ`.

>>> env = one_thread_pools({"MKL_NUM_THREADS": "4"})
>>> env["MKL_NUM_THREADS"], env["OPENBLAS_NUM_THREADS"]
('4', '1')
"""

from __future__ import annotations

import os
from typing import MutableMapping

__all__ = ["THREAD_VARS", "one_thread_pools", "user_environ"]

#: The pool sizes of the numerical libraries robomaze's dependencies load.
THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
               "NUMBA_NUM_THREADS", "VECLIB_MAXIMUM_THREADS")

#: Variables :func:`one_thread_pools` set in ``os.environ`` (the user had not).
_SET_HERE: set[str] = set()


def one_thread_pools(environ: MutableMapping[str, str] | None = None) -> MutableMapping[str, str]:
    """Set every :data:`THREAD_VARS` not already in ``environ`` to ``"1"``.

    ``environ``: ``os.environ`` by default (then :func:`user_environ` can
    take them out again for a user's program). Returns ``environ``.
    """
    target = os.environ if environ is None else environ
    for name in THREAD_VARS:
        if name not in target:
            target[name] = "1"
            if target is os.environ:
                _SET_HERE.add(name)
    return target


def user_environ() -> dict[str, str]:
    """``os.environ`` without the variables :func:`one_thread_pools` added to it.

    >>> isinstance(user_environ(), dict)
    True
    """
    env = dict(os.environ)
    for name in _SET_HERE:
        if env.get(name) == "1":
            del env[name]
    return env
