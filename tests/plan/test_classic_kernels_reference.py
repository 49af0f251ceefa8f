"""The classic walkers' kernels against plain-Python transcriptions of their rules.

Each reference below is written from the rule as the solvers' docstrings
state it (no numba, no code shared with :mod:`robomaze.plan.classic._kernels`),
and each kernel must give the same walk, move for move, and the same status
on random grids (open, cluttered, with islands), from random starts with
random hands, headings and seeds. This pins the walks while the kernels are
reshaped to compile faster (callers' scratch, packed buffers).
"""

import numpy as np
import pytest

from robomaze.plan.classic import _kernels as K

DR = (-1, 0, 1, 0, -1, 1, 1, -1)
DC = (0, 1, 0, -1, 1, 1, -1, -1)


class Grid:
    def __init__(self, free2d):
        self.f = free2d
        self.rows, self.cols = free2d.shape
        self.flat = np.ascontiguousarray(free2d, np.uint8).ravel()

    def step(self, p, d):
        r, c = divmod(p, self.cols)
        r, c = r + DR[d], c + DC[d]
        if 0 <= r < self.rows and 0 <= c < self.cols and self.f[r, c]:
            return r * self.cols + c
        return -1

    def sight(self, goal, enabled=True):
        vis = [-1] * (self.rows * self.cols)
        vis[goal] = 8
        if not enabled:
            return vis
        gr, gc = divmod(goal, self.cols)
        for d in range(8):
            back = (d + 2) % 4 if d < 4 else 4 + (d - 2) % 4
            r, c = gr, gc
            while True:
                nr, nc = r + DR[d], c + DC[d]
                if not (0 <= nr < self.rows and 0 <= nc < self.cols and self.f[nr, nc]):
                    break
                if d >= 4 and not (self.f[nr, c] and self.f[r, nc]):
                    break
                r, c = nr, nc
                vis[r * self.cols + c] = back
        return vis

    def to_goal(self, walk, p, vis):
        # an axis move is one step; a diagonal one a vertical then a horizontal step
        while vis[p] != 8:
            d = vis[p]
            if d < 4:
                p += DR[d] * self.cols + DC[d]
            else:
                p += DR[d] * self.cols
                walk.append(p)
                p += DC[d]
            walk.append(p)


def ref_wall(g, start, vis, hand, h0, run):
    walk, p = [start], start
    if vis[p] >= 0:
        g.to_goal(walk, p, vis)
        return walk, K.OK
    h = h0
    if h0 < 0:
        while (q := g.step(p, run)) >= 0:
            p = q
            walk.append(p)
            if vis[p] >= 0:
                g.to_goal(walk, p, vis)
                return walk, K.OK
        h = (run - hand) % 4
    seen = {(p, h)}
    first = (p, h)
    while True:
        for turn in (hand, 0, -hand, 2):        # hand side, straight, other side, back
            d = (h + turn) % 4
            if (q := g.step(p, d)) >= 0:
                break
        else:
            return walk, K.STUCK
        p, h = q, d
        walk.append(p)
        if vis[p] >= 0:
            g.to_goal(walk, p, vis)
            return walk, K.OK
        if (p, h) in seen:
            return walk, K.BACK_AT_START if (p, h) == first else K.LOOPING
        seen.add((p, h))


def ref_pledge(g, start, vis, hand, main):
    walk, p = [start], start
    heads, counts = [main], [0]
    straight, marks = set(), {}
    following, count, h, seg = False, 0, main, 0
    while True:
        if vis[p] >= 0:
            g.to_goal(walk, p, vis)
            return walk, K.OK
        if not following:
            if p in straight:
                return walk, K.LOOPING
            straight.add(p)
            if (q := g.step(p, main)) >= 0:
                p = q
                walk.append(p)
                heads.append(main)
                counts.append(0)
                continue
            following, h, count, seg = True, (main - hand) % 4, -hand, len(walk)
        for turn in (1, 0, -1, -2):
            d = (h + hand * turn) % 4
            if (q := g.step(p, d)) >= 0:
                break
        else:
            return walk, K.STUCK
        count += hand * turn
        h, p = d, q
        walk.append(p)
        heads.append(h)
        counts.append(count)
        if count == 0:
            following = False
            for c in walk[seg:]:
                marks.pop(c, None)
            continue
        if h in marks.get(p, ()):
            j = len(walk) - 2
            while not (walk[j] == p and heads[j] == h):
                j -= 1
            delta = count - counts[j]
            if delta == 0 or delta * count > 0:
                return walk, K.LOOPING
            for c in walk[seg:]:
                marks.pop(c, None)
            seg = len(walk) - 1
        marks.setdefault(p, set()).add(h)


def ref_tremaux(g, start, vis, hand):
    marks = {}                       # (cell, direction) -> times the passage was walked
    visited = {start}
    walk, thread, p, h, bounce = [start], [start], start, 0, False
    while True:
        if vis[p] >= 0:
            n0 = len(walk)
            g.to_goal(walk, p, vis)
            return walk, K.OK, thread + walk[n0:]
        if bounce:
            d = (h + 2) % 4
        else:
            opts = [(h + t) % 4 for t in (hand, 0, -hand, 2)]
            fresh = [d for d in opts if g.step(p, d) >= 0 and marks.get((p, d), 0) == 0]
            once = [d for d in range(4) if g.step(p, d) >= 0 and marks.get((p, d), 0) == 1]
            if not fresh and not once:
                return walk, K.EXHAUSTED, thread
            d = fresh[0] if fresh else once[0]
        q = g.step(p, d)
        m = marks.get((p, d), 0) + 1
        marks[(p, d)] = marks[(q, (d + 2) % 4)] = m
        if m == 1 and q not in visited:
            thread.append(q)
        elif m == 2 and not bounce:
            thread.pop()
        bounce = q in visited and m == 1
        visited.add(q)
        p, h = q, d
        walk.append(p)


def ref_dfs(g, start, vis, order):
    walk, stack, seen = [start], [start], {start}
    tried = {start: 0}
    while True:
        p = stack[-1]
        if vis[p] >= 0:
            g.to_goal(walk, p, vis)
            return walk, K.OK
        while tried[p] < 4:
            d = order[p][tried[p]]
            tried[p] += 1
            q = g.step(p, d)
            if q >= 0 and q not in seen:
                seen.add(q)
                tried[q] = 0
                stack.append(q)
                walk.append(q)
                break
        else:
            if p == start:
                return walk, K.EXHAUSTED
            stack.pop()
            walk.append(stack[-1])


def ref_mouse(g, p, h, vis, u):
    walk = []
    for x in u:
        if vis[p] >= 0:
            g.to_goal(walk, p, vis)
            return walk, K.OK, p, h
        cand = [d for d in range(4) if not (h >= 0 and d == (h + 2) % 4) and g.step(p, d) >= 0]
        if not cand:
            if h < 0 or g.step(p, (h + 2) % 4) < 0:
                return walk, K.STUCK, p, h
            d = (h + 2) % 4
        else:
            d = cand[min(int(x * len(cand)), len(cand) - 1)]
        p, h = g.step(p, d), d
        walk.append(p)
    if vis[p] >= 0:
        g.to_goal(walk, p, vis)
        return walk, K.OK, p, h
    return walk, K.STEP_LIMIT, p, h


def _grids():
    rng = np.random.default_rng(40)
    out = []
    for k in range(24):
        rows, cols = (int(v) for v in rng.integers(3, 17, size=2))
        free = rng.random((rows, cols)) >= (0.0, 0.15, 0.3, 0.45)[k % 4]
        if k % 3 == 0:
            free[rows // 2, cols // 2] = False           # an island in open space
        if k % 4 == 1:
            free[:, cols // 2] = False                   # two halves: goals out of reach
        out.append((free, rng))
    return out


def _cases():
    for free, rng in _grids():
        g = Grid(free)
        cells = np.flatnonzero(free)
        if cells.size < 2:
            continue
        for _ in range(4):
            s, t = (int(v) for v in rng.choice(cells, 2, replace=False))
            yield g, s, t, rng


def _vis(g, t, sight):
    vis = K.sight_field(g.flat, g.rows, g.cols, t, sight)
    assert vis.tolist() == g.sight(t, sight)
    return vis


@pytest.mark.parametrize("sight", [True, False])
def test_wall_follow_and_pledge_match_their_rules(sight):
    n = 0
    for g, s, t, rng in _cases():
        vis = _vis(g, t, sight)
        hand = int(rng.choice([1, -1]))
        h0 = int(rng.integers(-1, 4))
        run = int(rng.integers(0, 4))
        # buffers from 1 long: most walks run out of room and run again (until_room)
        walk, m, status = K.until_room(
            lambda size: K.wall_follow(g.flat, g.rows, g.cols, s, vis, hand, h0, run,
                                       np.zeros(g.flat.size, np.uint8), K.buffer(size)), 1)
        want = ref_wall(g, s, list(vis), hand, h0, run)
        assert (walk[:m].tolist(), status) == want
        def pledge(size):
            seen = np.zeros((2, g.flat.size), np.uint8)
            return K.pledge_walk(g.flat, g.rows, g.cols, s, vis, hand, run, seen[0], seen[1],
                                 K.buffer(size), K.buffer(size))

        walk, m, status = K.until_room(pledge, 1)
        assert (walk[:m].tolist(), status) == ref_pledge(g, s, list(vis), hand, run)
        n += status == K.OK
    assert n > 20          # most walks reach the goal; the rest fail as the rules say


@pytest.mark.parametrize("sight", [True, False])
def test_tremaux_and_dfs_match_their_rules(sight):
    statuses = set()
    for g, s, t, rng in _cases():
        vis = _vis(g, t, sight)
        hand = int(rng.choice([1, -1]))
        def tremaux(size):
            marks = np.zeros((2, g.flat.size), np.uint8)
            return K.tremaux_walk(g.flat, g.rows, g.cols, s, vis, hand, marks[0], marks[1],
                                  K.buffer(size), K.buffer(size))

        walk, m, status, thread, depth = K.until_room(tremaux, 1)
        want_walk, want_status, want_thread = ref_tremaux(g, s, list(vis), hand)
        assert (walk[:m].tolist(), status, thread[:depth].tolist()) == (want_walk, want_status,
                                                                        want_thread)
        perms = np.array([rng.permutation(4) for _ in range(24)], np.int64)
        ids = rng.integers(0, 24, size=g.flat.size, dtype=np.uint8)
        def dfs(size):
            state = np.zeros((3, g.flat.size), np.uint8)
            return K.dfs_walk(g.flat, g.rows, g.cols, s, vis, ids, perms, state[0], state[1],
                              state[2], K.buffer(size))

        walk, m, status = K.until_room(dfs, 1)
        order = [perms[i].tolist() for i in ids]
        assert (walk[:m].tolist(), status) == ref_dfs(g, s, list(vis), order)
        statuses.add(status)
    assert statuses == {K.OK, K.EXHAUSTED}


def test_random_mouse_matches_its_rule_chunk_by_chunk():
    statuses = set()
    for g, s, t, rng in _cases():
        vis = _vis(g, t, True)
        u = rng.random(int(rng.integers(1, 400)))
        p, h = s, int(rng.integers(-1, 4))
        for chunk in np.array_split(u, 3):          # the state carries over between calls
            walk, m, status, p2, h2 = K.until_room(
                lambda size: K.mouse_walk(g.flat, g.rows, g.cols, p, h, vis, chunk,
                                          K.buffer(size)), 1)
            assert (walk[:m].tolist(), status, p2, h2) == ref_mouse(g, p, h, list(vis), chunk)
            statuses.add(status)
            if status != K.STEP_LIMIT:
                break
            p, h = p2, h2
    assert statuses == {K.OK, K.STEP_LIMIT, K.STUCK}


def test_known_cells_marks_the_walk_and_its_free_neighbours_and_counts_it():
    for g, s, t, rng in _cases():
        walk = rng.choice(np.flatnonzero(g.f), size=int(rng.integers(1, 30))).astype(np.int64)
        known = np.zeros(g.flat.size, np.uint8)
        count = K.known_cells(g.flat, g.rows, g.cols, walk, known)
        assert count == len(set(walk.tolist()))
        want = np.zeros(g.flat.size, np.uint8)
        for p in walk.tolist():
            r, c = divmod(p, g.cols)
            for rr in range(max(r - 1, 0), min(r + 2, g.rows)):
                for cc in range(max(c - 1, 0), min(c + 2, g.cols)):
                    if g.f[rr, cc] and not want[rr * g.cols + cc]:
                        want[rr * g.cols + cc] = 1
        want[walk] = 2
        assert known.tolist() == want.tolist()
        assert K.count_distinct(walk, np.zeros(g.flat.size, np.uint8)) == count


def test_a_full_buffer_says_so_and_the_longer_run_repeats_the_walk():
    g = Grid(np.ones((6, 7), bool))
    vis = K.sight_field(g.flat, g.rows, g.cols, 41, False)
    walks = []
    for size in (3, K.walk_room(g.rows, g.cols, 4)):
        walk, m, status = K.wall_follow(g.flat, g.rows, g.cols, 0, vis, 1, 1, 0,
                                        np.zeros(g.flat.size, np.uint8), K.buffer(size))
        walks.append((walk[:m].tolist(), status))
    assert walks[0][1] == K.ROOM and walks[0][0] == walks[1][0][:3]
    assert walks[1] == ref_wall(g, 0, list(vis), 1, 1, 0)
