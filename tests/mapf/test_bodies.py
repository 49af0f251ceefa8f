"""Agents with bodies (``size x size`` squares conflicting by overlap): PIBT, LaCAM*,
CBS and the validator against a brute force written here from cell sets alone."""

import heapq
import itertools

import numpy as np
import pytest

from robomaze.errors import NoPathError
from robomaze.mapf import Instance, find_problems, solve
from robomaze.mapf._bodies import body_step


def body(p, k):
    return {(p[0] + dr, p[1] + dc) for dr in range(k) for dc in range(k)}


class Brute:
    """The joint state space of an instance, from its occupancy grid only."""

    def __init__(self, occ, starts, goals, k):
        self.occ, self.k = np.asarray(occ, bool), k
        self.starts = tuple(map(tuple, starts))
        self.goals = tuple(map(tuple, goals))
        self.n = len(self.starts)
        self._meet, self._moves = {}, {}

    def fits(self, p):
        h, w = self.occ.shape
        return all(0 <= r < h and 0 <= c < w and not self.occ[r, c] for r, c in body(p, self.k))

    def moves(self, p):
        if p not in self._moves:
            self._moves[p] = self._moves_of(p)
        return self._moves[p]

    def _moves_of(self, p):
        out = [p]
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            q = (p[0] + dr, p[1] + dc)
            if self.fits(q):
                out.append(q)
        return out

    def meet(self, p, q):
        """Whether bodies at ``p`` and ``q`` share a cell (cell sets, cached)."""
        key = (p, q)
        if key not in self._meet:
            self._meet[key] = bool(body(p, self.k) & body(q, self.k))
        return self._meet[key]

    def ok_step(self, q, nq):
        """Whether ``q -> nq`` is a legal joint step (each a move or a wait; bodies
        disjoint at ``t + 1``; point agents also may not swap)."""
        for i, j in itertools.combinations(range(len(nq)), 2):
            if self.meet(nq[i], nq[j]):
                return False
            if self.k == 1 and q[i] != nq[i] and nq[i] == q[j] and nq[j] == q[i]:
                return False
        return True

    def successors(self, q, done=None):
        opts = [[q[i]] if done and done[i] else self.moves(q[i]) for i in range(self.n)]
        for nq in itertools.product(*opts):
            if self.ok_step(q, nq):
                yield nq

    def min_loss(self, limit=400_000):
        """LaCAM*'s objective: one per agent per step unless it stays on its goal;
        None if the goal configuration cannot be reached."""
        best = {self.starts: 0}
        heap = [(0, self.starts)]
        while heap:
            g, q = heapq.heappop(heap)
            if g > best[q]:
                continue
            if q == self.goals:
                return g
            assert len(best) < limit
            for nq in self.successors(q):
                g2 = g + sum(not (q[i] == nq[i] == self.goals[i]) for i in range(self.n))
                if g2 < best.get(nq, 1 << 60):
                    best[nq] = g2
                    heapq.heappush(heap, (g2, nq))
        return None

    def min_soc(self):
        """Optimal sum of costs: an agent pays one per step until it declares
        itself finished on its goal, after which it never moves (Dijkstra)."""
        n = self.n
        home = [i for i in range(n) if self.starts[i] == self.goals[i]]
        best, heap = {}, []
        for r in range(len(home) + 1):
            for fin in itertools.combinations(home, r):
                st = (self.starts, tuple(i in fin for i in range(n)))
                best[st] = 0
                heap.append((0, st))
        heapq.heapify(heap)
        while heap:
            g, (q, done) = heapq.heappop(heap)
            if g > best[(q, done)]:
                continue
            if all(done):
                return g
            for nq in self.successors(q, done):
                g2 = g + sum(not d for d in done)
                can = [i for i in range(n) if not done[i] and nq[i] == self.goals[i]]
                for r in range(len(can) + 1):
                    for fin in itertools.combinations(can, r):
                        nd = tuple(done[i] or i in fin for i in range(n))
                        if g2 < best.get((nq, nd), 1 << 60):
                            best[(nq, nd)] = g2
                            heapq.heappush(heap, (g2, (nq, nd)))
        return None

    def check_plan(self, cells):
        """Every rule, from cell sets: starts, goals, moves, disjoint bodies."""
        steps = [tuple(map(tuple, c)) for c in np.asarray(cells).tolist()]
        assert steps[0] == self.starts and steps[-1] == self.goals
        for q in steps:
            assert all(self.fits(p) for p in q)
        for q, nq in zip(steps, steps[1:]):
            assert all(nq[i] in self.moves(q[i]) for i in range(self.n))
            assert self.ok_step(q, nq)
        first = steps[0]
        assert all(not (body(first[i], self.k) & body(first[j], self.k))
                   for i, j in itertools.combinations(range(self.n), 2))


def tiny_instances():
    """2-3 bodies of side 2 on 6x6 and 7x7 grids with a few obstacles: the brute
    force's reach. Some are unsolvable (bodies that cannot pass each other)."""
    out = []
    rng = np.random.default_rng(7)
    for attempt in range(1000):
        if len(out) == 14:
            break
        n = 2 + (len(out) % 4 == 0)
        h = w = 6 if n == 3 else 7
        occ = rng.random((h, w)) < (0.03 if n == 3 else 0.1)
        br = Brute(occ, [], [], 2)
        spots = [(r, c) for r in range(h - 1) for c in range(w - 1) if br.fits((r, c))]
        ends = []
        for _ in range(2):          # starts disjoint, goals disjoint
            picks = []
            for p in rng.permutation(len(spots)):
                if all(not (body(spots[p], 2) & body(q, 2)) for q in picks):
                    picks.append(spots[p])
                if len(picks) == n:
                    break
            ends.append(picks)
        if min(len(e) for e in ends) < n:
            continue
        out.append(Instance(occ, ends[0], ends[1], size=2))
    assert len(out) == 14
    # a corridor two cells wide: two 2x2 bodies can never pass each other
    occ = np.zeros((2, 6), bool)
    out.append(Instance(occ, [(0, 0), (0, 4)], [(0, 4), (0, 0)], size=2))
    return out


def brute_of(inst):
    return Brute(inst.occupied, inst.starts.tolist(), inst.goals.tolist(), inst.size)


def test_brute_force_hand_cases():
    # a 2x2 body in a 2x4 corridor walks 2 steps; two bodies in a 2x6 corridor cannot swap
    one = Brute(np.zeros((2, 4), bool), [(0, 0)], [(0, 2)], 2)
    assert one.min_soc() == 2 and one.min_loss() == 2
    two = Brute(np.zeros((2, 6), bool), [(0, 0), (0, 4)], [(0, 4), (0, 0)], 2)
    assert two.min_soc() is None and two.min_loss() is None
    # in a 4x4 room two 2x2 bodies swap diagonal corners: each needs 4 steps, and
    # they can (one goes round the right, the other round the left): 8
    room = Brute(np.zeros((4, 4), bool), [(0, 0), (2, 2)], [(2, 2), (0, 0)], 2)
    assert room.min_soc() == 8


@pytest.mark.parametrize("inst", tiny_instances(), ids=lambda i: f"{i.shape[0]}x{i.n_agents}")
def test_lacam_star_bodies_against_brute_force(inst):
    bf = brute_of(inst)
    loss = bf.min_loss()
    alone = [Brute(inst.occupied, [s], [g], inst.size).min_loss() is not None
             for s, g in zip(bf.starts, bf.goals)]
    if not all(alone):
        # an agent that cannot reach its goal even alone: refused up front
        with pytest.raises(NoPathError):
            solve(inst, "lacam_star")
        assert loss is None
        return
    r = solve(inst, "lacam_star", max_work=400_000, validate=False)
    assert r.success == (loss is not None), (r.outcome, loss)
    if loss is None:
        # unsolvable: LaCAM* proves it by exhausting the configurations
        assert r.outcome == "no_path"
        return
    bf.check_plan(r.plan.cells)
    assert find_problems(inst, r.plan) == []
    assert r.extra["optimal_loss"], "the budget exhausts these small spaces"
    assert r.extra["loss"] == loss
    assert r.soc >= bf.min_soc()


# CBS on bodies: the 2-agent instances (three 2x2 bodies in a 6x6 room take CBS
# minutes: large agents' conflicts split the constraint tree into many near-equal
# branches, the reason LaCAM* exists)
@pytest.mark.parametrize("inst", [i for i in tiny_instances() if i.n_agents == 2],
                         ids=lambda i: f"{i.shape[0]}x{i.n_agents}")
def test_cbs_bodies_equals_brute_force(inst):
    soc = brute_of(inst).min_soc()
    try:
        r = solve(inst, "cbs", max_work=500_000 if soc is not None else 5_000)
    except NoPathError:
        assert soc is None
        return
    if soc is None:
        assert not r.success            # no plan exists: CBS must not claim one
        return
    assert r.success
    assert r.soc == soc
    brute_of(inst).check_plan(r.plan.cells)


def _fresh(inst):
    nv = inst.shape[0] * inst.shape[1]
    n = inst.n_agents
    return dict(q_to=np.empty(n, np.int32), cur=np.full(nv, -1, np.int32),
                nxt=np.full(nv, -1, np.int32), chain=np.zeros(n, np.bool_),
                cand=np.empty((n, 5), np.int32))


def test_body_step_finds_only_legal_steps_and_every_fully_pinned_one():
    """The successor generator against the brute force's step rule: whatever it
    returns is legal, and with every agent pinned it accepts exactly the legal
    joint steps (what makes LaCAM complete for bodies)."""
    rng = np.random.default_rng(3)
    checked = pinned_legal = 0
    for trial in range(40):
        k = 2 + trial % 2
        h = w = 7 + trial % 3
        occ = rng.random((h, w)) < 0.1
        br = Brute(occ, [], [], k)
        spots = [(r, c) for r in range(h - k + 1) for c in range(w - k + 1) if br.fits((r, c))]
        picks = []
        for p in rng.permutation(len(spots)):
            if all(not (body(spots[p], k) & body(q, k)) for q in picks):
                picks.append(spots[p])
            if len(picks) == 4:
                break
        if len(picks) < 2:
            continue
        inst = Instance(occ, picks, picks, size=k)
        br = brute_of(inst)
        nbr, deg = inst.graph()
        dist = inst.distances()
        q = inst.start_ids()
        n = inst.n_agents
        order = rng.permutation(n).astype(np.int32)
        state = np.array([trial + 1], np.uint64)
        for npin in range(n + 1):
            who = rng.permutation(n).astype(np.int32)
            where = np.array([rng.choice([int(u) for u in nbr[q[i], :deg[q[i]]]] + [int(q[i])])
                              for i in who], np.int32)
            w_ = _fresh(inst)
            found = body_step(nbr, deg, dist, q, order, who, where, npin, state, w_["q_to"],
                              w_["cur"], w_["nxt"], w_["chain"], w_["cand"], k, inst.shape[1])
            assert (w_["cur"] == -1).all() and (w_["nxt"] == -1).all() and not w_["chain"].any()
            cur = tuple(inst.cell(v) for v in q)
            if found:
                nxt = tuple(inst.cell(v) for v in w_["q_to"])
                assert all(nxt[i] in br.moves(cur[i]) for i in range(n))
                assert br.ok_step(cur, nxt)
                assert all(w_["q_to"][who[m]] == where[m] for m in range(npin))
                checked += 1
            if npin == n:
                target = [None] * n
                for m in range(n):
                    target[who[m]] = inst.cell(where[m])
                legal = br.ok_step(cur, tuple(target))
                assert found == legal
                pinned_legal += legal
    assert checked >= 60 and pinned_legal >= 5


def test_pibt_bodies_and_lacam_star_past_a_resting_body():
    occ = np.zeros((4, 8), bool)
    # B steps down out of A's row while A drives through: A 6 moves + B 2 = 8, the
    # sum of the distances, so optimal
    inst = Instance(occ, [(0, 0), (0, 3)], [(0, 6), (2, 3)], size=2)
    r = solve(inst, "pibt", max_work=100)
    assert r.success and r.soc == 8 == brute_of(inst).min_soc()
    brute_of(inst).check_plan(r.plan.cells)
    # B rests on its goal in A's way: PIBT pushes it along A's row (a 2x2 body
    # cannot clear a 2x2 body beside it in one step) and live-locks at the wall;
    # LaCAM*'s search over configurations finds the optimum
    inst = Instance(occ, [(0, 0), (0, 3)], [(0, 6), (0, 3)], size=2)
    r = solve(inst, "lacam_star", max_work=200_000)
    bf = brute_of(inst)
    assert r.success and r.extra["optimal_loss"] and r.extra["loss"] == bf.min_loss()
    bf.check_plan(r.plan.cells)


@pytest.mark.parametrize("solver", ["pibt", "lacam", "lacam_star"])
def test_bodies_on_widened_maze(solver):
    from robomaze.mapf import maze_instance

    inst = maze_instance(6, rows=5, cols=5, corridor=4, wall=1, seed=2, size=2, braid=1.0)
    r = solve(inst, solver, max_work=20_000)
    assert r.success, r.reason
    brute_of(inst).check_plan(r.plan.cells)


def test_validator_body_conflicts_match_cell_sets():
    """Random walks of bodies: the validator's vertex conflicts are exactly the
    pairs whose cell sets meet, step by step."""
    rng = np.random.default_rng(11)
    for trial in range(30):
        k = 1 + trial % 3
        occ = np.zeros((9, 9), bool)
        n = 4
        steps = 6
        br = Brute(occ, [], [], k)
        pos = [(int(rng.integers(0, 10 - k)), int(rng.integers(0, 10 - k))) for _ in range(n)]
        cells = [pos]
        for _ in range(steps):
            pos = [br.moves(p)[rng.integers(len(br.moves(p)))] for p in pos]
            cells.append(pos)
        from robomaze.mapf import Plan

        plan = Plan(np.array(cells))
        try:
            inst = Instance(occ, cells[0], cells[-1], size=k)
        except Exception:
            continue
        got = {(p.t, p.agents) for p in find_problems(inst, plan, limit=10_000)
               if p.kind == "vertex"}
        want = {(t, (i, j)) for t in range(steps + 1)
                for i, j in itertools.combinations(range(n), 2)
                if body(cells[t][i], k) & body(cells[t][j], k)}
        assert got == want
