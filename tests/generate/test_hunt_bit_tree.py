"""The frontier bit tree behind hunt-and-kill's linear-time hunt.

Checked against a plain Python set: after any sequence of inserts and
removals, the tree's smallest member is ``min(set)`` (or -1 when empty).
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from robomaze.generate import _kernels as K
from robomaze.generate import generate


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 300_000),
       ops=st.lists(st.tuples(st.booleans(), st.floats(0, 1, exclude_max=True)), max_size=200))
def test_bit_tree_min_matches_a_set(n, ops):
    words, off = K._bits_new(n)
    ref = set()
    assert K._bits_min(words, off) == -1
    for add, x in ops:
        i = int(x * n)
        if add:
            K._bits_set(words, off, i)
            ref.add(i)
        elif ref:
            j = sorted(ref)[int(x * len(ref))]  # remove a member (the tree needs members)
            K._bits_clear(words, off, j)
            ref.discard(j)
        assert K._bits_min(words, off) == (min(ref) if ref else -1)


def test_bit_tree_spans_four_levels():
    n = 64 ** 3 + 5  # needs every level
    words, off = K._bits_new(n)
    for i in (n - 1, 64 ** 3, 4097, 64, 0):
        K._bits_set(words, off, i)
        assert K._bits_min(words, off) == i
    for i, nxt in ((0, 64), (64, 4097), (4097, 64 ** 3), (64 ** 3, n - 1), (n - 1, -1)):
        K._bits_clear(words, off, i)
        assert K._bits_min(words, off) == nxt


def test_hunt_and_kill_large_is_perfect():
    m = generate("hunt_and_kill", 300, 200, rng=7)
    assert m.is_perfect()
