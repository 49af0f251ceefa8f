"""Optimisation tiers: kernels no benchmark times are optimised by LLVM at a cheaper level.

numba optimises every library it compiles the same way (benchmarks/README.md,
"Issue 40, round 9 (r9-llvm)"): an O3 pass pipeline on each function of
each module added to it, then, once its callees are linked in, a cheap
module pass (O0, for the reference-count pruner) and the full O3 module
pipeline. That is about a quarter of a cold warm-up's compile CPU, and most
of the default sweep's kernels are not what a benchmark or a claim times:
the classic walkers on a maze, a path's key-pose figures, the metrics.
Those are declared here (:data:`COLD`), each with a tier (:data:`TIERS`):
their own functions and their final module are optimised at LLVM's O1
(registers for locals, simplification; no loop unrolling or vectorising)
instead of O3, and for the "cold" tier machine code is generated at O0 (by
a second target machine, handed to numba's engine through its object-cache
hook, as a cached kernel's is). The cheap pre-pass numba runs for its
reference-count pruner is kept as it is.

* **Results are identical**: no fast-math anywhere, so every floating-point
  operation is the IEEE one at any level, and integer code has one meaning
  (tests/test_compile_tiers.py compares tiered and O3 kernels' results).
* **Only the kernels named**: the tier is set on the library numba creates
  for a declared kernel's own compile (``NativeLowering``); numba's
  overloads (``np.empty``), the kernels the cold one calls (each has its
  own library and its own declaration) and every kernel not named keep O3.
  A cold kernel's callee that is not cold is linked in as O3 code and
  re-optimised with the caller at O1, as numba re-optimises linked code.
* **The cache follows the declaration**: :func:`stamp` is part of a kernel
  module's cache folder name (:func:`robomaze._compile.cache.module_folder_name`),
  so declaring a kernel cold or hot compiles it again.

Installed when numba is imported (beside :mod:`.pipeline_trims`), only on
numba 0.68 with llvmlite 0.50 (what the patched methods were read from);
``ROBOMAZE_OPT_TIERS=0`` compiles every kernel at numba's levels (and keys
the cache as if nothing were declared).

>>> from robomaze._compile import tiers
>>> tiers.tier_of("robomaze.plan.classic._kernels", "walker")
(1, None)
>>> tiers.tier_of("robomaze._search._engine", "_expand") is None
True
"""

from __future__ import annotations

import os

from .typing_memo import release

__all__ = ["ENV", "TIERS", "COLD", "VERIFIED", "enabled", "install", "stamp", "tier_of",
           "stats"]

#: Set to ``0`` to compile every kernel at numba's optimisation levels.
ENV = "ROBOMAZE_OPT_TIERS"

#: tier -> (LLVM optimisation level of its function and module passes, code
#: generation level of its machine code or None for numba's engine's, O3):
#: "cool" optimises less and generates code as numba does; "cold" also
#: generates machine code at O0 (LLVM's fast instruction selection and
#: register allocation: the largest cut, and the slowest code)
TIERS: dict[str, tuple[int, int | None]] = {"cool": (1, None), "cold": (1, 0)}

#: ``module -> {kernel name: tier}`` for kernels whose run time no benchmark
#: or claim depends on (benchmarks/README.md, "Issue 40, round 11 (r11-jit)",
#: says what each loses). A kernel module's owner may add one here; the
#: module's cache folder (and its callers') changes with its entry.
COLD: dict[str, dict[str, str]] = {
    # the classic walkers and their routes (issue 40 names no target for them;
    # bench_classic's ratios to mazelib are 14-147x): 1.3-1.6x slower walks
    # (round 11 made the five walkers, the sight rays and the known cells one
    # kernel, ``walker``, with the rule as an argument)
    # "cool", not "cold": at O0 machine code the walks were 1.2-1.6x and the
    # dead-end filling 3.1x slower at 601x601 (idle, round 11's merge), which
    # bench_classic's recorded ratios would not survive; the filling keeps
    # numba's levels (at O1 it still lost)
    "robomaze.plan.classic._kernels": dict.fromkeys((
        "_walk_sight", "walker", "loop_erase", "count_distinct"), "cool"),
    # a planned path's figures (its footprint's clearance and contacts at key
    # poses): every run of a sweep reads them, so numba's machine code
    "robomaze.geometry._kernels": dict.fromkeys((
        "_seg_box", "_inside", "_shape_box",
        "shapes_clearance", "points_clearance", "poses_touch", "cell_clearance"), "cool"),
    "robomaze.metrics.keyposes": {"_centre_points": "cool"},
}

#: ``(numba (major, minor), llvmlite (major, minor))`` the patch was read from
VERIFIED = ((0, 68), (0, 50))

_INSTALLED: bool | None = None
#: libraries optimised cold in this process (a test reads it)
_STATS = {"cold_libraries": 0}


def enabled() -> bool:
    """Whether tiers apply (``ROBOMAZE_OPT_TIERS`` is not ``0``).

    >>> import os
    >>> enabled() == (os.environ.get(ENV, "1") != "0")
    True
    """
    return os.environ.get(ENV, "1") != "0"


def tier_of(module: str, name: str) -> tuple[int, int | None] | None:
    """The levels kernel ``module.name`` is compiled at (:data:`TIERS`), None for numba's.

    >>> tier_of("robomaze.metrics.keyposes", "_centre_points")
    (1, None)
    >>> tier_of("robomaze.metrics.keyposes", "nothing_here") is None
    True
    """
    tier = COLD.get(module, {}).get(name)
    return None if tier is None else TIERS[tier]


def stamp(module: str) -> str:
    """Text of ``module``'s tier declarations, for its cache key ('' when none).

    >>> stamp("robomaze.not_a_module")
    ''
    >>> stamp("robomaze.metrics.keyposes")
    '_centre_points=1/None'
    """
    names = COLD.get(module)
    if not names or not enabled():
        return ""
    return ",".join(f"{n}={TIERS[t][0]}/{TIERS[t][1]}" for n, t in sorted(names.items()))


def stats() -> dict:
    """``{"cold_libraries": n}``: libraries optimised cold in this process."""
    return dict(_STATS)


def install() -> bool:
    """Put the tiers in place (idempotent); imports numba.

    Returns whether they are in place: False when ``ROBOMAZE_OPT_TIERS`` is
    ``0``, numba's or llvmlite's release is not :data:`VERIFIED`, or numba
    lacks what is patched (every kernel then compiles at numba's levels).
    """
    global _INSTALLED
    if _INSTALLED is not None:
        return _INSTALLED
    _INSTALLED = False
    if not enabled():
        return False
    try:
        import llvmlite
        import numba
        from numba.core import codegen, typed_passes
    except ImportError:  # pragma: no cover - a numba that moved them
        return False
    if (release(numba.__version__), release(llvmlite.__version__)) != VERIFIED:  # pragma: no cover
        return False
    lib = codegen.CPUCodeLibrary
    lowering = typed_passes.BaseNativeLowering
    if not all(callable(getattr(lib, n, None)) for n in
               ("_optimize_functions", "_optimize_final_module")) \
            or not callable(getattr(lowering, "run_pass", None)):  # pragma: no cover
        return False
    _tag_libraries(lowering)
    _tiered_passes(lib, codegen)
    _tiered_machine_code(codegen)
    _INSTALLED = True
    return True


def _tag_libraries(lowering) -> None:
    run_pass = lowering.run_pass

    def tagged_run_pass(self, state):
        # numba's own first step, so the library exists to carry the tier
        if state.library is None:
            func = state.func_id.func
            level = tier_of(getattr(func, "__module__", ""), getattr(func, "__qualname__", ""))
            if level is not None:
                state.library = state.targetctx.codegen().create_library(
                    state.func_id.func_qualname)
                state.library.enable_object_caching()
                state.library._robomaze_opt, state.library._robomaze_codegen = level
        return run_pass(self, state)

    tagged_run_pass.__wrapped__ = run_pass
    lowering.run_pass = tagged_run_pass


def _tiered_passes(lib, codegen) -> None:
    optimize_functions = lib._optimize_functions
    optimize_final = lib._optimize_final_module
    config = codegen.config

    def _optimize_functions(self, ll_module):
        level = getattr(self, "_robomaze_opt", None)
        if level is None:
            return optimize_functions(self, ll_module)
        # numba's body, with the level
        ll_module.data_layout = self._codegen._data_layout
        for func in ll_module.functions:
            fpm, pb = self._codegen._function_pass_manager(opt=level, loop_vectorize=False,
                                                           slp_vectorize=False)
            with self._recorded_timings.record(f"Function passes on {func.name!r}", pb):
                fpm.run(func, pb)

    def _optimize_final_module(self):
        level = getattr(self, "_robomaze_opt", None)
        if level is None:
            return optimize_final(self)
        _STATS["cold_libraries"] += 1
        cg = self._codegen
        mpm_cheap, mpb_cheap = cg._module_pass_manager(
            loop_vectorize=cg._loopvect, slp_vectorize=False, opt=cg._opt_level, cost="cheap")
        mpm_full, mpb_full = cg._module_pass_manager(opt=level, loop_vectorize=False,
                                                     slp_vectorize=False)
        with self._recorded_timings.record(
                "Module passes (cheap optimization for refprune)", mpb_cheap):
            mpm_cheap.run(self._final_module, mpb_cheap)
        if not config.LLVM_REFPRUNE_PASS:  # pragma: no cover - numba's default prunes in passes
            self._final_module = codegen.remove_redundant_nrt_refct(self._final_module)
        with self._recorded_timings.record("Module passes (full optimization)", mpb_full):
            mpm_full.run(self._final_module, mpb_full)

    _optimize_functions.__wrapped__ = optimize_functions
    _optimize_final_module.__wrapped__ = optimize_final
    lib._optimize_functions = _optimize_functions
    lib._optimize_final_module = _optimize_final_module


def _cold_machine(cg, level: int):
    """A target machine as numba's (``cg._tm``) but for code generation ``level``."""
    held = cg.__dict__.get("_robomaze_cold_tm")
    if held is None or held[0] != level:
        import llvmlite.binding as ll

        options = {"opt": level}
        cg._customize_tm_options(options)
        target = ll.Target.from_triple(ll.get_process_triple())
        held = cg.__dict__["_robomaze_cold_tm"] = (level, target.create_target_machine(**options))
    return held[1]


def _tiered_machine_code(codegen) -> None:
    jit = codegen.JITCodeLibrary
    finalize_specific = jit._finalize_specific

    def _finalize_specific(self):
        level = getattr(self, "_robomaze_codegen", None)
        if (level is None or not self._object_caching_enabled
                or self._compiled_object is not None):
            return finalize_specific(self)
        # numba's engine makes machine code at its target machine's level; the
        # engine asks the library's object cache first (numba's hook hands
        # over ``_compiled_object``), so the object is made here at the cold
        # level, from the same module, as MCJIT would make it
        cg = self._codegen
        cg._scan_and_fix_unresolved_refs(self._final_module)
        with self._recorded_timings.record_legacy("Finalize object"):
            obj = _cold_machine(cg, level).emit_object(self._final_module)
            self._compiled_object = obj
            cg._engine.finalize_object()
        # what numba's compiled hook keeps, for the on-disk cache
        self._compiled_object = obj
        self._compiled = True

    _finalize_specific.__wrapped__ = finalize_specific
    jit._finalize_specific = _finalize_specific
