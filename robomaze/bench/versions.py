"""The software a sweep ran on: what a reader needs to re-run a paper's table.

``sweep.json`` records :func:`versions` once per sweep (rows carry only
robomaze's version, the git commit, Python and numpy, so that rows stay
comparable across machines): robomaze and its git commit, Python, and the
installed versions of every library a result depends on -- numpy, scipy,
numba, shapely, OMPL (``None`` when the extra is not installed) -- plus
the platform, machine architecture and CPU model. Versions are read from
the installed distributions' metadata, so nothing heavy (OMPL) is imported.

>>> v = versions()
>>> sorted(k for k in v if k in LIBRARIES) == sorted(LIBRARIES)
True
>>> v["python"].count(".") == 2
True
"""

from __future__ import annotations

import functools
import platform
from importlib import metadata

__all__ = ["versions", "LIBRARIES"]

#: Distributions whose versions ``sweep.json`` records (``None``: not installed).
LIBRARIES = ("numpy", "scipy", "numba", "llvmlite", "shapely", "ompl", "matplotlib", "pandas",
             "pyarrow")


def _dist_version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def _cpu_model() -> str | None:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or None


@functools.lru_cache(maxsize=1)
def versions() -> dict:
    """``{"robomaze", "git_commit", "python", <library>..., "platform", "machine", "cpu"}``.

    Returns
    -------
    dict
        JSON-ready strings (``None`` for an absent library or an unknown
        field).
    """
    from .run import provenance

    prov = provenance()
    out = {"robomaze": prov["robomaze"], "git_commit": prov["git_commit"],
           "python": platform.python_version(),
           "python_implementation": platform.python_implementation()}
    out.update({name: _dist_version(name) for name in LIBRARIES})
    out.update(platform=platform.platform(), machine=platform.machine(), cpu=_cpu_model())
    return out
