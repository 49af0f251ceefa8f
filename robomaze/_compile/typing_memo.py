"""Two memos in numba's type inference: a builtin call's signature, and a flag set's values.

numba types every ``a + b``, ``x < y``, ``np.uint64(i)`` of a kernel by
asking the function's templates in turn (:meth:`Function.get_call_type`):
for ``operator.add`` on two ``int64`` that is a dozen templates, most of
which fail, each failure with a message listing its registered signatures
(formatted, then dropped). The answer depends on nothing but the function
type and the argument types when the template that matched is a plain one
(a table of signatures or a typing rule: its implementation key is the
function's own key), so :func:`install` keeps it: the next ``a + b`` on two
``int64``, in this kernel or any later one, is a dict look-up. Signatures
found by ``@overload`` or ``@intrinsic`` templates are not kept (their
implementation is compiled per caller's flags, and registered while the
template runs); failures are not kept either (numba has its own cache for
them).

Every overload look-up also compares the compile flags
(``TargetConfig.__eq__``), each side built option by option through
properties; :func:`install` builds them as one dict of the defaults
updated by the options set: the same dict.

Together the two took 10-15% off the default sweep's one-process cold
compile CPU in runs under load (benchmarks/README.md, "Issue 40, round 8
(r8-sweep)"); the compiled code is the same. ``ROBOMAZE_TYPING_MEMO=0`` leaves numba as it ships (to
measure, or to rule the memos out).

>>> from robomaze._compile import typing_memo
>>> typing_memo.install() in (True, False)
True
>>> typing_memo.install() == typing_memo.install()   # idempotent
True
"""

from __future__ import annotations

import os

__all__ = ["install", "ENV", "stats", "verified", "VERIFIED"]

#: Set to ``0`` to leave numba's type inference as it ships.
ENV = "ROBOMAZE_TYPING_MEMO"

_INSTALLED: bool | None = None
#: kept signatures reused / resolved by numba (a test and the benchmark read it)
_STATS = {"hits": 0, "misses": 0}
#: ``(function type, argument types, keyword items) -> (typing context, signature)``
_MEMO: dict = {}


#: numba releases (major, minor) whose type inference the memos were checked
#: against (tests/test_compile_typing_memo.py); others type as they ship
VERIFIED = ((0, 68), (0, 68))


def verified(version: str) -> bool:
    """Whether ``version`` of numba is one the memos were checked against.

    >>> verified("0.68.1"), verified("0.67.0"), verified("0.69.0rc1"), verified("1.0")
    (True, False, False, False)
    """
    key = release(version)
    return key is not None and VERIFIED[0] <= key <= VERIFIED[1]


def release(version: str) -> tuple[int, int] | None:
    """``(major, minor)`` of a version string, or None when it has no such two numbers.

    >>> release("0.68.1"), release("0.69.0rc1"), release("1"), release("x.2")
    ((0, 68), (0, 69), None, None)
    """
    parts = version.split(".")
    try:
        return int(parts[0]), int(parts[1])
    except (IndexError, ValueError):
        return None


def stats() -> dict:
    """``{"hits": ..., "misses": ...}`` of the signature memo in this process."""
    return dict(_STATS)


def install() -> bool:
    """Put both memos in place (idempotent); imports numba.

    Returns whether they are in place: False when ``ROBOMAZE_TYPING_MEMO``
    is ``0``, numba's release is not one of :data:`VERIFIED`, or its classes
    lack what they wrap (numba then types as it ships).
    """
    global _INSTALLED
    if _INSTALLED is not None:
        return _INSTALLED
    _INSTALLED = False
    if os.environ.get(ENV, "1") == "0":
        return False
    try:
        import numba
        from numba.core import targetconfig
        from numba.core.types import functions
    except ImportError:  # pragma: no cover - a numba that moved them
        return False
    if not verified(numba.__version__):  # pragma: no cover - a numba not checked here
        return False
    fn = functions.Function
    tc = targetconfig.TargetConfig
    if not (callable(getattr(fn, "get_call_type", None)) and hasattr(tc, "options")
            and callable(getattr(tc, "values", None))):  # pragma: no cover
        return False
    _memo_signatures(fn)
    _fast_values(tc)
    _INSTALLED = True
    return True


def _memo_signatures(fn) -> None:
    resolve = fn.get_call_type
    memo = _MEMO

    def get_call_type(self, context, args, kws):
        try:
            key = (self, tuple(args), tuple(kws.items()) if kws else ())
            got = memo.get(key)
        except TypeError:  # an unhashable argument type: numba's own way
            return resolve(self, context, args, kws)
        if got is not None and got[0] is context:
            _STATS["hits"] += 1
            # the signature's implementation key is the function's own (it was
            # a plain template's): what numba would register again
            self._impl_keys[got[1].args] = self.typing_key
            return got[1]
        sig = resolve(self, context, args, kws)
        _STATS["misses"] += 1
        # kept only when a plain template matched: its implementation key is
        # the function's key (an @overload's is its compiled dispatcher, an
        # @intrinsic's its code generator)
        if sig is not None and self._impl_keys.get(sig.args) is self.typing_key:
            memo[key] = (context, sig)
        return sig

    get_call_type.__wrapped__ = resolve
    get_call_type.__doc__ = resolve.__doc__
    fn.get_call_type = get_call_type


def _fast_values(tc) -> None:
    defaults: dict = {}

    def values(self):
        """Returns a dict of all the values"""
        cls = type(self)
        base = defaults.get(cls)
        if base is None:
            base = defaults[cls] = {k: opt.default for k, opt in cls.options.items()}
        out = dict(base)
        out.update(self._values)
        return out

    values.__wrapped__ = tc.values
    tc.values = values
