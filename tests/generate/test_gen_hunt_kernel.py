"""hunt_and_kill's self-contained kernel (SplitMix64, neighbours, carve and
the frontier bit tree written out) is the textbook hunt-and-kill below,
draw for draw: a kill walks into a random unvisited neighbour (N, E, S, W
order, one ``below(m)``), a hunt rescans the grid in row-major order for
the first unvisited cell next to the maze and joins it through a random
visited neighbour.
"""

from __future__ import annotations

import numpy as np
import pytest

from robomaze.generate import _kernels
from splitmix_ref import SplitMix64

SEEDS = (0, 1, 2, 12345, 2**40 + 3, 2**62 + 1, 2**63 - 2)


def _nbrs(u: int, rows: int, cols: int) -> list[int]:
    r, c = divmod(u, cols)
    return [v for ok, v in ((r > 0, u - cols), (c < cols - 1, u + 1), (r < rows - 1, u + cols),
                            (c > 0, u - 1)) if ok]


def ref_hunt_and_kill(rows: int, cols: int, seed: int):
    rng = SplitMix64(seed)
    n = rows * cols
    east = np.ones(n, np.uint8)
    south = np.ones(n, np.uint8)
    seen = [False] * n

    def carve(a: int, b: int) -> None:
        if a // cols != b // cols:
            south[min(a, b)] = 0
        else:
            east[min(a, b)] = 0

    u = rng.below(n)
    seen[u] = True
    for _ in range(n - 1):
        cand = [v for v in _nbrs(u, rows, cols) if not seen[v]]
        if cand:
            v = cand[rng.below(len(cand))]
            carve(u, v)
        else:  # the classic scan, O(n) per hunt
            v = next(i for i in range(n)
                     if not seen[i] and any(seen[w] for w in _nbrs(i, rows, cols)))
            back = [w for w in _nbrs(v, rows, cols) if seen[w]]
            carve(v, back[rng.below(len(back))])
        seen[v] = True
        u = v
    return east, south


@pytest.mark.parametrize("rows,cols", [(1, 1), (1, 2), (2, 1), (2, 2), (1, 9), (9, 1), (3, 7),
                                       (7, 3), (10, 10), (17, 23), (40, 70)])
def test_kernel_is_the_textbook_hunt_and_kill(rows, cols):
    for seed in SEEDS:
        east, south = _kernels.hunt_and_kill(rows, cols, seed)
        want_e, want_s = ref_hunt_and_kill(rows, cols, seed)
        assert east.dtype == south.dtype == np.uint8
        assert np.array_equal(east, want_e) and np.array_equal(south, want_s), (rows, cols, seed)
