"""The kernels' SplitMix64 draws (``next_u64``, ``uniform``, ``below``, each
written out in full) are the Python-integer SplitMix64 of ``splitmix_ref``,
and interleave on one state as one stream."""

from __future__ import annotations

import pytest

from robomaze.generate import _kernels
from robomaze.generate._common import kernel_state
from splitmix_ref import SplitMix64


@pytest.mark.parametrize("seed", [0, 1, 12345, 2**40 + 3, 2**63 - 2])
def test_draws_are_splitmix64_in_python_ints(seed):
    st = kernel_state(seed)
    ref = SplitMix64(seed)
    for i in range(300):
        kind = i % 3
        if kind == 0:
            assert int(_kernels.next_u64(st)) == ref.next()
        elif kind == 1:
            assert float(_kernels.uniform(st)) == float(ref.next() >> 11) / 2**53
        else:
            n = 1 + (i * 7919) % 1000
            assert int(_kernels.below(st, n)) == ref.below(n)
    assert int(st[0]) == ref.state

