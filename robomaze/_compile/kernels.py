"""What kernels use to compile less: :func:`inner`, :func:`noalloc`, :func:`filled`, :func:`counting`, :func:`prefetch`.

* :func:`inner`: numba compiles every kernel with a CPython wrapper
  (unboxing arguments, boxing the result) and a C wrapper beside its body,
  each lowered, optimised and cached. A kernel only other kernels call needs
  neither; ``@inner`` drops them. Two rules keep that a saving
  (``tests/test_inner_kernels.py`` checks both): nothing calls an inner
  kernel from Python (it has no entry point: such a call raises a
  ``TypeError`` here, where a bare ``njit(**INNER)`` would jump to a null
  address), and an inner kernel calls none of numba's overloads (``np.empty``,
  ``min``, ``int`` ...), which numba compiles once per calling kernel's
  *flags*, so once more for inner kernels.
* :func:`noalloc` (and ``inner(**NOALLOC)``): a kernel compiled without
  numba's reference counting (``_nrt=False``), so no incref/decref of its
  arrays is lowered, optimised or cached: fill_dead_ends compiles in 0.45 s
  instead of 0.61, _unpack_into in 0.70 instead of 0.86 (benchmarks/README.md,
  issue 40 round 12). The rule: such a kernel allocates nothing -- it makes
  no array (``np.empty``, ``np.array``, :func:`filled`, ``a.copy()``, an
  array expression such as ``a + 1``), no list, dict or string, returns no
  array and raises only with constant arguments (``raise IndexError(i)``
  builds its arguments at run time) -- its callers allocate (rule 3 below). Views of its arguments
  (``a[1:]``, ``a.reshape``) and scalars are fine. A kernel that breaks the
  rule fails to compile with :class:`AllocatesWithoutNRT`, naming the
  kernel, never silently. Write ``@noalloc`` or ``@inner(**NOALLOC)``, not
  ``njit(_nrt=False)``, whose failure is numba's cryptic "Only accept
  returning of array passed into the function as argument" or "NRT required
  but not enabled".
* :func:`filled` and :func:`counting`: ``np.full`` and ``np.arange`` as
  ``np.empty`` and a loop inlined into the caller. numba's own versions
  compile an implementation (and its helpers) per dtype.
* :func:`prefetch`: LLVM's ``llvm.prefetch`` (read, keep in all cache
  levels) for the address of ``array[index]``, which numba lacks; it never
  faults, so the index need not be valid. A kernel issues it for look-ups it
  makes a little later, so that independent cache misses overlap.

The kernel style these serve (the reason for code that looks odd in the
kernel modules; each figure is in benchmarks/README.md, issue 22):

1. A helper with one caller is ``inline="always"``; one with several is
   :func:`inner` (numba's inlining types the helper again at each call site:
   seven calls of a ray caster's helper cost 0.17 s more).
2. No overloads where a select does: ``b if b > a else a`` for ``max``,
   ``math.floor`` (already an int64) for ``int``, loops for ``a.min()``
   (a general reduction and ``np.take``: ~0.7 s).
3. Callers allocate: an array made in a kernel compiles ``np.empty`` (and
   ``np.array([...])`` a list-to-array conversion) for that kernel; tables
   are module constants, and :func:`filled` / :func:`counting` fill.
4. One specialisation per helper: a typed constant (``np.int64(0)``,
   ``np.bool_(True)``), not a literal, where a variable is passed elsewhere;
   one kernel where a pose and a batch of poses share a test; loops, not
   slice assignments (their error paths format strings: ~1 s).

Examples
--------
>>> import numpy as np
>>> from numba import njit
>>> @inner(cache=False)                 # a doctest has no file to cache in
... def _twice(a, i):
...     return 2 * a[i]
>>> @njit
... def demo(a):
...     prefetch(a, 0)
...     return _twice(a, 1), filled(2, -1, np.int32), counting(3, np.int64)
>>> t, f, c = demo(np.arange(3))
>>> int(t), f.tolist(), f.dtype.name, c.tolist()
(2, [-1, -1], 'int32', [0, 1, 2])
>>> _twice(np.arange(3), 1)
Traceback (most recent call last):
...
TypeError: _twice is compiled for other kernels only (no Python entry point): call a kernel that calls it

A kernel that allocates nothing, and one that breaks the rule:

>>> @noalloc(cache=False)
... def fill(a, v):
...     for i in range(a.size):
...         a[i] = v
>>> b = np.zeros(3); fill(b, 2.0); b.tolist()
[2.0, 2.0, 2.0]
>>> @noalloc(cache=False)
... def doubled(a):
...     return 2 * a
>>> doubled(b)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
robomaze._compile.kernels.AllocatesWithoutNRT: doubled is compiled without reference counting (noalloc / NOALLOC) but allocates...
"""

from __future__ import annotations

from typing import Callable

import numpy as np
from llvmlite import ir
from llvmlite.binding import llvm_version_info
from numba import njit, types
from numba.core import cgutils, errors
from numba.extending import intrinsic

__all__ = ["INNER", "NOALLOC", "NO_CFUNC", "AllocatesWithoutNRT", "inner", "noalloc", "filled", "counting", "prefetch", "with_index_cast", "direct_entry"]

#: njit options of a kernel only other kernels call: cached, no wrappers
INNER = {"cache": True, "no_cfunc_wrapper": True, "no_cpython_wrapper": True}

#: njit options of a kernel that allocates nothing: no reference counting
#: lowered (use as ``@noalloc`` or ``@inner(**NOALLOC)``, which name the kernel
#: when it breaks the rule), and no C wrapper (:data:`NO_CFUNC`)
NOALLOC = {"cache": True, "_nrt": False, "no_cfunc_wrapper": True}

#: njit option of a kernel called from Python and from kernels, never passed
#: to a kernel as a first-class function (which is what numba's C wrapper of
#: each kernel is for): the wrapper is not lowered, optimised or cached
#: (18 of the default sweep's kernels had one: ~0.3 s of its compile CPU,
#: issue 40 round 13, benchmarks/README.md)
NO_CFUNC = {"no_cfunc_wrapper": True}

# what numba says when a kernel compiled without NRT allocates: typing refuses
# an array it did not receive (np.empty's own implementation returns one), and
# lowering refuses any reference count (a list, an array temporary)
_NRT_REFUSALS = ("Only accept returning of array passed into the function as argument",
                 "NRT required but not enabled")


class AllocatesWithoutNRT(errors.TypingError):
    """A :func:`noalloc` kernel allocates (makes or returns an array, a list ...)."""


def _name_allocations(disp, name: str):
    """Make ``disp`` (compiled with ``_nrt=False``) turn numba's refusal to
    allocate without NRT into :class:`AllocatesWithoutNRT` naming ``name``.

    ``compile`` is the one door of both a call from Python
    (``_compile_for_args``) and the typing of a call from another kernel.
    """
    compile_ = disp.compile

    def compile(sig):
        try:
            return compile_(sig)
        except errors.NumbaError as e:
            text = str(e)
            if not any(r in text for r in _NRT_REFUSALS) or isinstance(e, AllocatesWithoutNRT):
                raise
            where = _first_line_of(text)
            raise AllocatesWithoutNRT(
                f"{name} is compiled without reference counting (noalloc / NOALLOC) but "
                f"allocates{where}: an array, list or string made or returned in it, or an "
                "exception raised with run-time values; let the "
                "caller allocate (kernel style rule 3) or compile it without NOALLOC") from None

    disp.compile = compile
    return disp


def _first_line_of(text: str) -> str:
    """`` (at FILE:LINE)`` of the first source position numba's message names, or ''."""
    import re

    m = re.search(r'File "([^"]+)", line (\d+)', text) or \
        re.search(r"at (\S+\.py) \((\d+)\)", text)
    return f" (at {m.group(1)}:{m.group(2)})" if m else ""


def inner(fn: Callable | None = None, **options):
    """``njit(**INNER)`` whose calls from Python raise a ``TypeError``.

    numba's dispatcher calls a compiled entry point it looks up in a table
    filled by ``_insert``; without a CPython wrapper that entry is null. Here
    the table stays empty, so every call from Python takes numba's slow path
    (``_compile_for_args``), which refuses; kernels call the body directly.
    Use as ``@inner`` or ``@inner(cache=False)``.
    """

    def wrap(f):
        flags = dict(INNER, **options)
        disp = njit(**flags)(f)
        name = f.__name__
        if flags.get("_nrt", True) is False:
            _name_allocations(disp, name)

        def no_python_entry(*args, **kwargs):
            raise TypeError(f"{name} is compiled for other kernels only (no Python entry "
                            "point): call a kernel that calls it")

        disp._insert = lambda *args, **kwargs: None
        disp._compile_for_args = no_python_entry
        return disp

    return wrap if fn is None else wrap(fn)


def noalloc(fn: Callable | None = None, **options):
    """``njit(**NOALLOC)``: a kernel that allocates nothing, compiled without
    reference counting; one that allocates fails to compile with
    :class:`AllocatesWithoutNRT` naming it. Use as ``@noalloc`` or
    ``@noalloc(cache=False, ...)``; for a kernel only kernels call,
    ``@inner(**NOALLOC)``.
    """

    def wrap(f):
        return _name_allocations(njit(**dict(NOALLOC, **options))(f), f.__name__)

    return wrap if fn is None else wrap(fn)


@njit(cache=True, inline="always")
def filled(n, value, dtype):
    """``np.full(n, value, dtype)`` for a 1-D array of ``n`` items."""
    a = np.empty(n, dtype)
    for i in range(n):
        a[i] = value
    return a


@njit(cache=True, inline="always")
def counting(n, dtype):
    """``np.arange(n).astype(dtype)``: 0, 1, ..., n - 1."""
    a = np.empty(n, dtype)
    for i in range(n):
        a[i] = i
    return a


# overloaded on the pointer type: ``p0`` for LLVM's opaque pointers (from LLVM 17),
# ``p0i8`` for the typed ``i8*`` of older ones
_PREFETCH = "llvm.prefetch.p0" if llvm_version_info[0] >= 17 else "llvm.prefetch.p0i8"


@intrinsic
def prefetch(typingctx, arr, idx):
    """Start loading the cache line of ``arr[idx]`` (1-D array, integer index)."""
    if not (isinstance(arr, types.Array) and arr.ndim == 1 and isinstance(idx, types.Integer)):
        return None

    def codegen(context, builder, sig, args):
        ary = context.make_array(sig.args[0])(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, sig.args[0], ary, [args[1]],
                                       wraparound=False)
        i32, i8p = ir.IntType(32), ir.IntType(8).as_pointer()
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), (i8p, i32, i32, i32)), _PREFETCH)
        # read (0), locality 3 (keep in every level), data cache (1)
        builder.call(fn, (builder.bitcast(ptr, i8p), ir.Constant(i32, 0), ir.Constant(i32, 3),
                          ir.Constant(i32, 1)))
        return context.get_dummy_value()

    return types.void(arr, idx), codegen


def with_index_cast(fn: Callable, cast, *, also: tuple[str, ...] = ()) -> Callable:
    """A copy of the kernel ``fn`` in which every subscript of one of its
    parameters (and of the globals named in ``also``), ``a[i]``, reads
    ``a[cast(i)]``.

    With ``cast`` an unsigned conversion (``np.uint64``) numba indexes
    without its negative-index wraparound (a compare and a select on every
    access: ~25% of a micromouse route search), while the plain-Python
    function stays as it is. Only for kernels whose every index is >= 0:
    then both read the same elements. The copy keeps ``fn``'s file and line
    numbers (numba's messages and its cache point at that file, whose
    content keys the cache); without the source (an install that ships only
    bytecode) ``fn`` itself is returned.

    >>> def total(a, n):
    ...     s = 0
    ...     for i in range(n):
    ...         s += a[i]
    ...     return s
    >>> seen = []
    >>> copy = with_index_cast(total, lambda i: seen.append(i) or i)
    >>> copy([5, 6, 7], 3), seen
    (18, [0, 1, 2])
    """
    import ast
    import inspect
    import textwrap

    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError):     # no source shipped: compile fn as it is
        return fn
    names = {a.arg for a in tree.body[0].args.args} | set(also)

    class _Cast(ast.NodeTransformer):
        def visit_Subscript(self, node):
            self.generic_visit(node)
            if isinstance(node.value, ast.Name) and node.value.id in names and \
                    not isinstance(node.slice, ast.Slice):
                node.slice = ast.Call(ast.Name("_index_cast", ast.Load()), [node.slice], [])
            return node

    tree = ast.fix_missing_locations(_Cast().visit(tree))
    ast.increment_lineno(tree, fn.__code__.co_firstlineno - 1)
    space = dict(fn.__globals__)
    space["_index_cast"] = cast
    exec(compile(tree, inspect.getsourcefile(fn), "exec"), space)
    out = space[fn.__name__]
    out.__qualname__ = fn.__qualname__
    return out


def direct_entry(kernel):
    """``kernel``'s compiled function itself, called without numba's dispatch
    (which reads every argument's type to pick an overload on each call:
    ~0.1 us of a ~1 us call), or ``kernel`` when it has other than its one
    overload. Only for a caller that always passes the same argument types
    and calls this after ``kernel`` ran once with them: the compiled
    function does not check its arguments' types.
    """
    overloads = list(getattr(kernel, "overloads", {}).values())
    point = getattr(overloads[0], "entry_point", None) if len(overloads) == 1 else None
    return point if callable(point) else kernel
