"""The prefetch intrinsic, shared with the search engine: see :mod:`robomaze._prefetch`."""

from .._prefetch import prefetch

__all__ = ["prefetch"]
