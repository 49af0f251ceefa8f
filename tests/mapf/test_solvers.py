"""Every solver's plan passes the validator; CBS is optimal against a brute-force
joint search and pymapf's CBS; ECBS stays within its bound; budgets are work."""

import heapq
import itertools

import numpy as np
import pytest

from robomaze.mapf import SOLVERS, Instance, find_problems, maze_instance, random_instance, solve


def brute_force_soc(inst, limit=300_000):
    """Optimal sum of costs by A* over joint states (positions, finished flags).

    An agent pays one per step until it declares itself finished, which it
    may do only on its goal and after which it never moves: exactly the
    sum of costs. Moves are the 4 neighbours or a wait on the instance's
    free cells (point agents); vertex and swap conflicts are forbidden.
    """
    free = ~inst.occupied
    h, w = free.shape
    starts = tuple(map(tuple, inst.starts.tolist()))
    goals = tuple(map(tuple, inst.goals.tolist()))
    n = len(starts)

    def moves(c):
        r, k = c
        out = [c]
        for dr, dk in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if 0 <= r + dr < h and 0 <= k + dk < w and free[r + dr, k + dk]:
                out.append((r + dr, k + dk))
        return out

    # exact single-agent distances for the heuristic (BFS per goal)
    dist = []
    for g in goals:
        d = {g: 0}
        q = [g]
        for c in q:
            for u in moves(c):
                if u not in d:
                    d[u] = d[c] + 1
                    q.append(u)
        dist.append(d)
    if any(s not in dist[i] for i, s in enumerate(starts)):
        return None

    def hval(q, done):
        return sum(0 if done[i] else dist[i][q[i]] for i in range(n))

    # an agent that starts on its goal may be finished from step 0 (cost 0)
    home = [i for i in range(n) if starts[i] == goals[i]]
    best = {}
    heap = []                             # (f, -g): deeper first among equal f
    for r in range(len(home) + 1):
        for fin in itertools.combinations(home, r):
            st = (starts, tuple(i in fin for i in range(n)))
            best[st] = 0
            heap.append((hval(*st), 0, st))
    heapq.heapify(heap)
    while heap:
        f, ng, (q, done) = heapq.heappop(heap)
        g = -ng
        if g > best[(q, done)]:
            continue
        if all(done):
            return g
        if len(best) > limit:
            return None
        for nq in itertools.product(*[[q[i]] if done[i] else moves(q[i]) for i in range(n)]):
            if len(set(nq)) < n:
                continue
            if any(nq[i] == q[j] and nq[j] == q[i] for i in range(n) for j in range(i + 1, n)
                   if q[i] != q[j]):
                continue
            g2 = g + sum(not d for d in done)
            can = [i for i in range(n) if not done[i] and nq[i] == goals[i]]
            for r in range(len(can) + 1):
                for fin in itertools.combinations(can, r):
                    nd = tuple(done[i] or i in fin for i in range(n))
                    if g2 < best.get((nq, nd), 1 << 60):
                        best[(nq, nd)] = g2
                        heapq.heappush(heap, (g2 + hval(nq, nd), -g2, (nq, nd)))
    return None


def small_instances():
    """2-3 agents on 16x16 mazes and open grids: the brute force's reach."""
    out = []
    for k in range(16):
        n = 2 + k % 2
        if k % 4 == 0:
            rng = np.random.default_rng(k)
            out.append(random_instance(rng.random((16, 16)) < 0.3, n, seed=k))
        elif k % 4 == 1:
            out.append(maze_instance(n, rows=5, cols=5, corridor=2, seed=k, braid=0.5))
        elif k % 4 == 2:
            out.append(maze_instance(n, rows=8, cols=8, corridor=1, seed=k, braid=1.0))
        else:
            out.append(maze_instance(n, rows=3, cols=3, corridor=4, wall=1, seed=k, braid=1.0))
    return out


def test_brute_force_agent_already_home():
    # agent 1 starts on its goal, off agent 0's way: it costs nothing
    inst = Instance(np.zeros((2, 3), bool), [(0, 0), (1, 2)], [(0, 2), (1, 2)])
    assert brute_force_soc(inst) == 2
    # in a 1x3 corridor agent 1, home in the middle, can never let agent 0 pass

    inst = Instance(np.zeros((1, 3), bool), [(0, 0), (0, 1)], [(0, 2), (0, 1)])
    assert brute_force_soc(inst) is None


def test_brute_force_hand_case():
    # two agents must swap ends of a corridor with one side pocket: one waits in it
    occ = np.array([[0, 0, 0], [1, 0, 1]], bool)
    inst = Instance(occ, [(0, 0), (0, 2)], [(0, 2), (0, 0)])
    # agent 1 steps to (0,1) (A waits), ducks into the pocket (1,1) while A enters
    # (0,1), comes out behind A as A reaches (0,2) at step 3, and ends at (0,0) at
    # step 4: 3 + 4 = 7 (the symmetric plan costs the same)
    assert brute_force_soc(inst) == 7


@pytest.mark.parametrize("inst", small_instances(), ids=lambda i: f"{i.shape[0]}x{i.n_agents}")
def test_cbs_equals_brute_force(inst):
    r = solve(inst, "cbs", max_work=500_000)
    bf = brute_force_soc(inst)
    assert bf is not None and r.success
    assert r.soc == bf
    assert not find_problems(inst, r.plan)


def test_cbs_equals_pymapf():
    pymapf = pytest.importorskip("pymapf")
    checked = 0
    for k in range(10):
        n = 2 + k % 4
        inst = maze_instance(n, rows=5 + k % 3, cols=5 + k % 3, corridor=2, seed=100 + k,
                             braid=0.5)
        r = solve(inst, "cbs", max_work=200_000)
        grid = pymapf.GridMap(inst.occupied.astype(int).tolist())
        prob = pymapf.MAPFProblem(grid, [
            pymapf.Agent(str(i), tuple(map(int, s)), tuple(map(int, g)))
            for i, (s, g) in enumerate(zip(inst.starts, inst.goals))])
        sol = pymapf.ConflictBasedSearch(max_expansions=200).solve(prob)
        if sol is None or not r.success:
            continue
        checked += 1
        assert r.soc == sol.sum_of_costs, k
    assert checked >= 8


@pytest.mark.parametrize("w", [1.0, 1.1, 1.5])
def test_ecbs_within_bound(w):
    for k in range(6):
        inst = maze_instance(4 + k, rows=6, cols=6, corridor=2, seed=200 + k, braid=0.5)
        opt = solve(inst, "cbs", max_work=500_000)
        r = solve(inst, "ecbs", w=w, max_work=500_000)
        assert opt.success and r.success
        assert opt.soc <= r.soc <= w * opt.soc + 1e-9
        assert r.bound == w and r.lower_bound <= opt.soc


def test_ablations_keep_cbs_optimal():
    inst = maze_instance(6, rows=6, cols=6, corridor=2, seed=7, braid=0.5)
    full = solve(inst, "cbs")
    plain = solve(inst, "cbs", bypass=False, heuristic=False, prioritize=False)
    assert full.soc == plain.soc
    assert full.nodes <= plain.nodes


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_every_solver_plan_is_valid(name):
    inst = maze_instance(12, rows=6, cols=6, corridor=2, seed=11, braid=0.3)
    r = solve(inst, name, validate=False, **({"max_work": 2000} if name == "lacam_star" else {}))
    assert r.success, r.reason
    assert find_problems(inst, r.plan) == []
    assert r.soc >= inst.lower_bound()
    assert r.expansions > 0


def test_lacam_star_many_agents_and_never_worse_than_first_plan():
    inst = maze_instance(120, rows=8, cols=8, corridor=2, seed=1)
    first = solve(inst, "lacam")
    star = solve(inst, "lacam_star", max_work=400)
    assert first.success and star.success
    assert star.extra["loss"] <= first.extra["loss"]
    assert star.expansions <= 400


def test_work_budget_is_counted():
    inst = maze_instance(8, rows=8, cols=8, corridor=1, seed=3, braid=0.0)
    r = solve(inst, "cbs", max_work=50)
    assert r.outcome == "budget" and r.plan is None
    assert r.expansions <= 50 + 200     # one low-level call may finish past the cap


def test_bodies_on_widened_grid():
    inst = maze_instance(4, rows=4, cols=4, corridor=4, wall=1, seed=5, size=2, braid=1.0)
    for name in ("cbs", "ecbs", "prioritized", "lacam", "lacam_star"):
        r = solve(inst, name, validate=False)
        assert r.success, (name, r.reason)
        assert find_problems(inst, r.plan) == []


def test_conflicts_of_matches_pairwise_search():
    from robomaze.mapf.cbs import _Search, pair_conflict
    from robomaze.mapf.result import Work

    inst = maze_instance(9, rows=4, cols=4, corridor=2, seed=2)
    s = _Search(inst, Work())
    rng = np.random.default_rng(0)
    nbr, deg = inst.graph()
    for _ in range(30):
        paths = []
        for i in range(inst.n_agents):      # random walks of random lengths
            v = int(inst.start_ids()[i])
            p = [v]
            for _ in range(int(rng.integers(1, 12))):
                k = int(rng.integers(0, deg[v] + 1))
                v = v if k == deg[v] else int(nbr[v, k])
                p.append(v)
            paths.append(np.array(p))
        for i in range(inst.n_agents):
            got = s.conflicts_of(paths, i)
            for j in range(inst.n_agents):
                if j == i:
                    continue
                a, b = min(i, j), max(i, j)
                assert got.get((a, b)) == pair_conflict(paths[a], paths[b], 1)


def test_vertex_cover_bound_is_exact_small_and_a_lower_bound_large():
    from robomaze.mapf.cbs import EXACT_COVER_EDGES, min_vertex_cover

    rng = np.random.default_rng(3)
    for _ in range(20):
        nv = 9
        edges = {tuple(sorted(map(int, rng.choice(nv, 2, replace=False))))
                 for _ in range(int(rng.integers(1, 24)))}
        exact = min(k for k in range(nv + 1)
                    for cover in itertools.combinations(range(nv), k)
                    if all(u in cover or v in cover for u, v in edges))
        got = min_vertex_cover(edges)
        if len(edges) <= EXACT_COVER_EDGES:
            assert got == exact
        else:
            assert 1 <= got <= exact


@pytest.mark.parametrize("name", ["lacam_star", "ecbs", "pibt"])
def test_same_seed_same_plan(name):
    inst = maze_instance(12, rows=6, cols=6, corridor=2, seed=21)
    kw = {"max_work": 600} if name == "lacam_star" else {}
    a = solve(inst, name, seed=5, **kw)
    b = solve(inst, name, seed=5, **kw)
    assert a.success and b.success
    assert a.plan.cells.tobytes() == b.plan.cells.tobytes()
