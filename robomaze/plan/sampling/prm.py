"""PRM* on a work budget, single-threaded and reproducible.

OMPL's ``PRM::solve`` grows the roadmap in the calling thread while a
second thread searches it for a solution every millisecond and evaluates
the termination condition; growing and expanding alternate on 0.2 s
timers. Its result depends on thread timing, and a Python termination
condition deadlocks (the second thread waits for the GIL the solving
thread holds). This driver keeps OMPL's roadmap and its PRM* connection
rule but takes the clock and the thread out:

1. ``solve`` with a condition that is already true (C++ side, no Python in
   the second thread) adds the start and goal milestones and returns;
2. the roadmap grows in work slices, ``growRoadmap`` for two units of
   validity checks, ``expandRoadmap`` for one (OMPL's 2:1 ratio), each
   slice stopped by a Python condition in this thread;
3. after every slice pair the shortest start-goal route in the roadmap
   (Dijkstra over the planner data, edge costs the state space's distance:
   PRM*'s path-length objective) is the best solution so far, recorded as
   progress;
4. the best route becomes the problem's solution path.

A milestone's connections are checked before the condition is looked at
again, so the checks made can pass the budget by one milestone's
connection attempts (reported as ``validity_checks``).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["solve_prm", "roadmap_route"]

#: Slice pairs (grow 2 units, expand 1) a check budget is cut into.
SLICES = 20


def roadmap_route(ob, si, pl, *, headed: bool, car: bool):
    """Cost and states of the shortest start-goal route in ``pl``'s roadmap.

    Returns ``(cost, states, pd)``: ``cost`` is ``inf`` and ``states`` empty
    when the start and goal are not connected; ``pd`` (the planner data
    holding the states) must outlive their use.
    """
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import dijkstra

    pd = ob.PlannerData(si)
    pl.getPlannerData(pd)
    n = pd.numVertices()
    if n == 0 or pd.numStartVertices() == 0 or pd.numGoalVertices() == 0:
        return math.inf, [], pd
    states = [pd.getVertex(i).getState() for i in range(n)]
    if headed:
        xy = np.array([[s.getX(), s.getY(), s.getYaw()] for s in states])
    else:
        xy = np.array([[s[0], s[1], 0.0] for s in states])
    src, dst = [], []
    for i in range(n):
        for j in pd.getEdges(i):
            src.append(i)
            dst.append(j)
    if not src:
        return math.inf, [], pd
    a, b = np.array(src), np.array(dst)
    if car:
        w = np.array([si.distance(states[i], states[j]) for i, j in zip(src, dst)])
    else:
        # OMPL's R² distance, and SE(2)'s: position distance + 0.5 |heading change|
        w = np.hypot(xy[b, 0] - xy[a, 0], xy[b, 1] - xy[a, 1])
        if headed:
            dth = np.abs(np.remainder(xy[b, 2] - xy[a, 2] + math.pi, 2 * math.pi) - math.pi)
            w = w + 0.5 * dth
    # a zero-length edge would vanish from a sparse matrix
    w = np.maximum(w, 1e-300)
    graph = coo_matrix((w, (a, b)), shape=(n, n)).tocsr()
    s0 = pd.getStartIndex(0)
    goals = [pd.getGoalIndex(k) for k in range(pd.numGoalVertices())]
    dist, pred = dijkstra(graph, directed=False, indices=s0, return_predecessors=True)
    g = min(goals, key=lambda k: dist[k])
    if not math.isfinite(dist[g]):
        return math.inf, [], pd
    route = [g]
    while route[-1] != s0:
        route.append(int(pred[route[-1]]))
    return float(dist[g]), [states[i] for i in reversed(route)], pd


def solve_prm(ob, og, ss, si, pl, budget, look, progress, *, headed: bool, car: bool,
              stop_at_first: bool) -> int:
    """Run PRM* on ``budget`` (see the module docstring); OMPL's status code."""
    ss.solve(ob.plannerAlwaysTerminatingCondition())   # start and goal milestones only
    pdef = ss.getProblemDefinition()
    pdef.clearSolutionPaths()
    cap = budget.max_checks
    unit = None if cap is None else max(1, cap // (3 * SLICES))
    best = (math.inf, [], None)
    while not budget.stop():
        for size in (2, 1):
            if unit is not None:
                budget.cap = min(cap, look.checks + size * unit)
            cond = ob.PlannerTerminationCondition(budget.stop)
            (pl.growRoadmapPtc if size == 2 else pl.expandRoadmapPtc)(cond)
            cond = None
            budget.cap = cap
            if budget.spent():
                break
        cost, states, pd = roadmap_route(ob, si, pl, headed=headed, car=car)
        if cost < best[0]:
            best = (cost, states, pd)
            progress.add(cost)
        if stop_at_first and states:
            budget.stopped_by = "solution"
            break
    budget.cap = cap
    cost, states, pd = best
    if not states:
        return 4   # timeout: no route in the roadmap
    path = og.PathGeometric(si)
    for s in states:
        path.append(s)
    pdef.addSolutionPath(path, False, 0.0, pl.getName())
    return 6
