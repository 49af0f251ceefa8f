"""The random-walk generators' jumps keep the walk's law.

Aldous-Broder takes ``2**fine`` (or ``2**coarse``) steps at once from a block
whose surroundings are all visited (see ``_walk_kernels._calm_around``);
Wilson takes ``2**lb`` steps at once from a block with no tree cell near,
and replays a jump's steps from its word when the loop erasure needs them.
Checked against independent references:

* the jump's displacement against the exact ``k``-step law of the simple
  random walk on Z^2 (``k``-fold convolution of the four unit steps), and
  Wilson's replay of a word against its jump;
* the trees of walks forced to jump often (blocks of 2 and 4 cells on a
  16x16 grid) against Kirchhoff: an edge is in the uniform spanning tree
  with probability equal to its effective resistance, and two edges both
  are with probability ``det [[Y(e,e), Y(e,f)], [Y(f,e), Y(f,f)]]`` (the
  transfer-current theorem of Burton and Pemantle 1993), both computed from
  the pseudo-inverse of the grid Laplacian;
* the same statistics reject a walk that is not uniform (the backtracker).

Mazes narrower than three blocks never jump: their bytes are pinned in
``test_gen_reproducible.py`` from before the jumps existed.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from robomaze.generate import _kernels, _walk_kernels
from robomaze.generate._common import kernel_seed

SIDE = 16
N_TREES = 12_000


def _exact_k_step(k: int) -> dict[tuple[int, int], float]:
    """Law of the displacement after k simple-random-walk steps on Z^2."""
    law = {(0, 0): 1.0}
    for _ in range(k):
        nxt: dict[tuple[int, int], float] = {}
        for (r, c), p in law.items():
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                key = (r + dr, c + dc)
                nxt[key] = nxt.get(key, 0.0) + p / 4
        law = nxt
    return law


@pytest.mark.parametrize("k", [1, 2, 5, 16, 40])
def test_jump_displacement_is_the_exact_k_step_law(k):
    st = _kernels.new_state(12345 + k)
    n = 40_000
    draws = [_walk_kernels.srw_jump(st, k) for _ in range(n)]
    law = _exact_k_step(k)
    assert set(draws) <= set(law), "a jump left the reachable set"
    keys = sorted(law, key=law.get, reverse=True)
    # pool the rare displacements so every class expects >= 5 draws
    common = [key for key in keys if law[key] * n >= 5]
    index = {key: i for i, key in enumerate(common)}
    counts = np.zeros(len(common) + 1)
    for d in draws:
        counts[index.get(d, len(common))] += 1
    expected = np.array([law[key] for key in common] + [1 - sum(law[key] for key in common)]) * n
    if expected[-1] < 5:
        counts[-2] += counts[-1]
        expected[-2] += expected[-1]
        counts, expected = counts[:-1], expected[:-1]
    assert stats.chisquare(counts, expected).pvalue > 1e-3


def _grid_edges(side: int) -> list[tuple[int, int]]:
    return [(r * side + c, r * side + c + 1) for r in range(side) for c in range(side - 1)] + \
           [(r * side + c, (r + 1) * side + c) for r in range(side - 1) for c in range(side)]


def _open_edges(east: np.ndarray, south: np.ndarray, side: int) -> np.ndarray:
    """Open/closed flag of every edge of ``_grid_edges`` for one maze."""
    e = east.reshape(side, side)[:, : side - 1].ravel() == 0
    s = south.reshape(side, side)[: side - 1, :].ravel() == 0
    return np.concatenate([e, s])


def _kirchhoff(side: int):
    """Edge list and the transfer-current matrix Y of the side x side grid."""
    edges = _grid_edges(side)
    n = side * side
    lap = np.zeros((n, n))
    for a, b in edges:
        lap[a, a] += 1
        lap[b, b] += 1
        lap[a, b] -= 1
        lap[b, a] -= 1
    g = np.linalg.pinv(lap)
    a = np.array([e[0] for e in edges])
    b = np.array([e[1] for e in edges])
    # Y[e, f]: current through f when a unit current enters at e's a and leaves at e's b
    y = g[np.ix_(a, a)] - g[np.ix_(a, b)] - g[np.ix_(b, a)] + g[np.ix_(b, b)]
    return edges, y


def _trees(kernel, *args) -> np.ndarray:
    gen = np.random.default_rng(2026)
    out = np.empty((N_TREES, 2 * SIDE * (SIDE - 1)), bool)
    for i in range(N_TREES):
        east, south = kernel(SIDE, SIDE, kernel_seed(gen), *args)[:2]
        out[i] = _open_edges(east, south, SIDE)
    return out


@pytest.fixture(scope="module")
def kirchhoff():
    edges, y = _kirchhoff(SIDE)
    # Foster's theorem: effective resistances of a connected graph's edges sum to n - 1
    assert np.diag(y).sum() == pytest.approx(SIDE * SIDE - 1)
    return edges, y


#: Walks forced to jump wherever they can: Aldous-Broder with 2- and 4-cell
#: blocks, Wilson with 2-cell (2-step) and 4-cell (4-step) blocks.
JUMPING = {"aldous_broder": (_walk_kernels.aldous_broder, (1, 2)),
           "wilson_2": (_walk_kernels.wilson, (1,)),
           "wilson_4": (_walk_kernels.wilson, (2,))}


@pytest.fixture(scope="module", params=sorted(JUMPING))
def jumping_trees(request):
    kernel, args = JUMPING[request.param]
    return _trees(kernel, *args)


def _edge_z(trees: np.ndarray, y: np.ndarray) -> np.ndarray:
    p = np.diag(y)
    return (trees.mean(axis=0) - p) / np.sqrt(p * (1 - p) / len(trees))


def _pair_z(trees: np.ndarray, y: np.ndarray, pairs) -> np.ndarray:
    z = []
    for e, f in pairs:
        p = y[e, e] * y[f, f] - y[e, f] * y[f, e]
        both = (trees[:, e] & trees[:, f]).mean()
        z.append((both - p) / np.sqrt(p * (1 - p) / len(trees)))
    return np.array(z)


def _pairs_at_centre(edges):
    """Pairs of edges meeting at a cell in the middle and near a corner."""
    pairs = []
    for cell in (SIDE // 2 * SIDE + SIDE // 2, SIDE + 1):
        at = [i for i, e in enumerate(edges) if cell in e]
        pairs += [(at[i], at[j]) for i in range(len(at)) for j in range(i + 1, len(at))]
    return pairs


@pytest.mark.parametrize("kernel,jumping,never", [
    (_walk_kernels.aldous_broder, (1, 2), (30, 30)),  # blocks larger than the grid
    (_walk_kernels.wilson, (1,), (30,))])
def test_the_jumping_walk_actually_jumps(kernel, jumping, never):
    gen = np.random.default_rng(5)
    seeds = [kernel_seed(gen) for _ in range(20)]
    differ = 0
    for s in seeds:
        a = kernel(SIDE, SIDE, s, *jumping)
        b = kernel(SIDE, SIDE, s, *never)
        differ += not (np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1]))
    assert differ >= 15  # jumps use their bits differently, so the mazes part ways


@pytest.mark.parametrize("k", [1, 2, 5, 31, 32])
def test_wilson_replays_a_word_to_where_it_jumped(k):
    cols = 200
    off = np.array([-cols, 1, cols, -1], np.int64)
    st = _kernels.new_state(77 + k)
    for _ in range(300):
        w = np.uint64(_kernels.next_u64(st))
        p0 = 100 * cols + 100
        nxt = np.zeros(cols * cols, np.int32)
        end = _walk_kernels.replay_word(p0, w, k, 5, off, nxt)
        dr, dc = _walk_kernels.word_jump(w, k)
        assert end == p0 + dr * cols + dc
        # every exit written is a unit move to the next cell of the path
        assert (nxt >> 2).max() == 5 and np.count_nonzero(nxt) >= 1
    # a later stamp is kept, an earlier one overwritten
    nxt = np.zeros(cols * cols, np.int32)
    nxt[p0] = np.int32(9 << 2)
    _walk_kernels.replay_word(p0, np.uint64(0), 1, 5, off, nxt)  # one step west
    assert nxt[p0] == 9 << 2
    _walk_kernels.replay_word(p0, np.uint64(0), 1, 11, off, nxt)
    assert nxt[p0] == (11 << 2) | 3


def test_edge_probabilities_are_effective_resistances(kirchhoff, jumping_trees):
    edges, y = kirchhoff
    z = _edge_z(jumping_trees, y)
    # 480 edges: |z| > 4.5 has probability ~3e-3 overall under the null
    assert np.abs(z).max() < 4.5, f"worst edge z = {np.abs(z).max():.2f}"
    assert 0.8 < np.mean(z**2) < 1.25


def test_edge_pairs_follow_the_transfer_current_theorem(kirchhoff, jumping_trees):
    edges, y = kirchhoff
    z = _pair_z(jumping_trees, y, _pairs_at_centre(edges))
    assert np.abs(z).max() < 4.0, f"worst pair z = {np.abs(z).max():.2f}"


def test_the_same_statistics_reject_a_non_uniform_maze(kirchhoff):
    edges, y = kirchhoff
    trees = _trees(_kernels.backtracker)
    assert np.abs(_edge_z(trees, y)).max() > 10
    assert np.abs(_pair_z(trees, y, _pairs_at_centre(edges))).max() > 10


def test_wilson_blocks_past_one_word_do_not_jump():
    # a jump is one 64-bit word (32 steps): asking for 256-cell blocks must
    # give the plain walk, not jumps whose steps the word cannot hold
    plain = _walk_kernels.wilson(300, 300, 7, 30)
    wide = _walk_kernels.wilson(300, 300, 7, 8)
    assert np.array_equal(plain[0], wide[0]) and np.array_equal(plain[1], wide[1])
    assert plain[2] == wide[2]
