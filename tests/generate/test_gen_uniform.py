"""Aldous-Broder and Wilson sample uniform spanning trees.

Exact test: the 3x3 grid graph has 12 edges and 192 spanning trees
(Kirchhoff's matrix-tree theorem; enumerated below independently as the
acyclic 8-edge subsets). 20,000 mazes drawn from one seeded Generator must
hit all 192 and pass a chi-square goodness-of-fit test against the uniform
law. Large-maze test: the bulk dead-end fraction matches the dead-end
density of the uniform spanning tree of Z^2, 8/pi^2 * (1 - 2/pi) ~ 0.2945.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import stats

from robomaze.generate import GENERATORS, _kernels, _tree_kernels, _walk_kernels
from robomaze.generate._common import kernel_seed

N_SAMPLES = 20_000

# Edges of the 3x3 grid graph as (a, b) flat cell pairs: 6 horizontal, 6 vertical.
EDGES = [(r * 3 + c, r * 3 + c + 1) for r in range(3) for c in range(2)] + \
        [(r * 3 + c, (r + 1) * 3 + c) for r in range(2) for c in range(3)]


def _is_spanning_tree(subset) -> bool:
    parent = list(range(9))

    def find(x):
        while parent[x] != x:
            x = parent[x]
        return x

    for i in subset:
        a, b = find(EDGES[i][0]), find(EDGES[i][1])
        if a == b:
            return False
        parent[a] = b
    return True  # 8 edges, no cycle, 9 vertices -> spanning tree


def _all_trees() -> dict[int, int]:
    """Bit mask (bit i = edge i open) -> class index, for every spanning tree."""
    masks = [sum(1 << i for i in sub) for sub in itertools.combinations(range(12), 8)
             if _is_spanning_tree(sub)]
    return {m: k for k, m in enumerate(sorted(masks))}


TREES = _all_trees()


def _masks(east: np.ndarray, south: np.ndarray) -> np.ndarray:
    """Edge bit masks of mazes given as (k, 9) east / south wall arrays."""
    opened = np.concatenate(
        [east.reshape(-1, 3, 3)[:, :, :2].reshape(-1, 6) == 0,
         south.reshape(-1, 3, 3)[:, :2, :].reshape(-1, 6) == 0], axis=1)
    return opened.astype(np.int64) @ (1 << np.arange(12))


def _sample(kernel, n: int, seed: int) -> np.ndarray:
    """n 3x3 mazes from ``kernel``, seeded exactly as the public wrapper seeds
    it (one kernel seed drawn per maze from one Generator)."""
    gen = np.random.default_rng(seed)
    east = np.empty((n, 9), np.uint8)
    south = np.empty((n, 9), np.uint8)
    for i in range(n):
        east[i], south[i] = kernel(3, 3, kernel_seed(gen))[:2]
    return _masks(east, south)


def test_there_are_192_spanning_trees():
    assert len(TREES) == 192
    # Kirchhoff: any cofactor of the Laplacian counts spanning trees.
    lap = np.zeros((9, 9))
    for a, b in EDGES:
        lap[a, a] += 1
        lap[b, b] += 1
        lap[a, b] -= 1
        lap[b, a] -= 1
    assert round(np.linalg.det(lap[1:, 1:])) == 192


@pytest.mark.parametrize("name,kernel", [("aldous_broder", _walk_kernels.aldous_broder),
                                         ("wilson", _walk_kernels.wilson)])
def test_fast_path_matches_public_generator(name, kernel):
    fast = _sample(kernel, 5, seed=99)
    gen = np.random.default_rng(99)
    slow = []
    for _ in range(5):
        m = GENERATORS[name](3, 3, rng=gen)
        slow.append(_masks(m.east.ravel()[None].astype(np.uint8),
                           m.south.ravel()[None].astype(np.uint8))[0])
    assert list(fast) == slow


@pytest.mark.parametrize("name,kernel,seed", [("aldous_broder", _walk_kernels.aldous_broder, 2024),
                                              ("wilson", _walk_kernels.wilson, 2025)])
def test_uniform_over_all_192_trees(name, kernel, seed):
    masks = _sample(kernel, N_SAMPLES, seed)
    assert set(masks.tolist()) <= set(TREES), "a sample is not a spanning tree"
    counts = np.bincount([TREES[m] for m in masks.tolist()], minlength=192)
    assert (counts > 0).all(), f"{name} missed {(counts == 0).sum()} trees"
    p = stats.chisquare(counts).pvalue
    assert p > 1e-3, f"{name}: chi-square p = {p:.2e}"


@pytest.mark.parametrize("kernel", [_kernels.backtracker, _tree_kernels.prim_frontier])
def test_chi_square_rejects_biased_generators(kernel):
    # The same test has the power to see non-uniform samplers.
    masks = _sample(kernel, N_SAMPLES, 7)
    counts = np.bincount([TREES[m] for m in masks.tolist()], minlength=192)
    assert stats.chisquare(counts).pvalue < 1e-6


UST_DEAD_END_DENSITY = 8 / np.pi**2 * (1 - 2 / np.pi)  # 0.29454...


@pytest.mark.parametrize("name", ["aldous_broder", "wilson"])
def test_bulk_dead_end_fraction_is_ust_constant(name):
    # Bulk = cells at least 10 away from the border of a 300x300 maze (the
    # boundary changes the local law). Measured over 10 seeds: per-maze sd of
    # the bulk fraction ~0.001, so the mean of 3 mazes has sd ~0.0007; the
    # tolerance 0.003 is > 4 sd, and far from what biased walks give
    # (a backtracker-like walk gives ~0.10).
    fr = [GENERATORS[name](300, 300, rng=s).dead_ends()[10:-10, 10:-10].mean()
          for s in (11, 12, 13)]
    assert abs(np.mean(fr) - UST_DEAD_END_DENSITY) < 0.003
