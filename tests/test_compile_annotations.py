"""robomaze's kernels are cached without numba's annotated source (issue 40, round 13)."""

import numba
import pytest

from robomaze._compile import cache


def _compiled(modname: str):
    def kernel(a):
        return a + 1

    kernel.__module__ = modname
    fn = numba.njit(cache=False)(kernel)
    fn(1)
    return next(iter(fn.overloads.values()))


def test_a_robomaze_kernel_is_saved_without_its_annotated_source(monkeypatch):
    monkeypatch.delenv(cache.ANNOTATIONS_ENV, raising=False)
    assert cache._lean_annotations()
    cres = _compiled("robomaze.fake_kernels")
    saved = cres._reduce()
    assert saved[6] == cache.NO_ANNOTATIONS
    # the kernel in this process keeps its annotation, and the rest of the
    # saved entry (its machine code, signature) is numba's
    assert not isinstance(cres.type_annotation, str)
    assert saved[3] == cres.signature
    rebuilt = type(cres)._rebuild(cres.target_context, *saved)
    assert rebuilt.type_annotation == cache.NO_ANNOTATIONS   # what inspect_types shows
    assert rebuilt.entry_point(41) == 42


@pytest.mark.parametrize("modname, keep", [("robomaze.fake_kernels", "1"),
                                           ("mypackage.kernels", None)])
def test_annotations_are_kept_on_request_and_for_other_packages(monkeypatch, modname, keep):
    if keep is None:
        monkeypatch.delenv(cache.ANNOTATIONS_ENV, raising=False)
    else:
        monkeypatch.setenv(cache.ANNOTATIONS_ENV, keep)
    assert cache._lean_annotations()
    saved = _compiled(modname)._reduce()
    assert saved[6] != cache.NO_ANNOTATIONS
    assert "kernel" in saved[6] and "int64" in saved[6]   # numba's annotated source
