"""The validator rejects hand-made plans of every conflict kind and accepts good ones."""

import numpy as np
import pytest

from robomaze.mapf import Instance, InvalidPlanError, Plan, find_problems, validate_plan


def corridor(n=5):
    return np.zeros((1, n), bool)


def plan(*steps):
    return Plan(np.array(steps))


def kinds(inst, p, **kw):
    return sorted({pr.kind for pr in find_problems(inst, p, **kw)})


def test_vertex_conflict():
    inst = Instance(corridor(3), [(0, 0), (0, 2)], [(0, 1), (0, 1)])
    p = plan([[0, 0], [0, 2]], [[0, 1], [0, 1]])
    assert kinds(inst, p) == ["vertex"]
    pr = find_problems(inst, p)[0]
    assert (pr.t, pr.agents) == (1, (0, 1))


def test_edge_swap_conflict():
    inst = Instance(corridor(2), [(0, 0), (0, 1)], [(0, 1), (0, 0)])
    p = plan([[0, 0], [0, 1]], [[0, 1], [0, 0]])
    assert kinds(inst, p) == ["edge"]


def test_following_only_when_asked():
    inst = Instance(corridor(3), [(0, 0), (0, 1)], [(0, 1), (0, 2)])
    p = plan([[0, 0], [0, 1]], [[0, 1], [0, 2]])
    assert kinds(inst, p) == []                      # the standard model allows following
    assert kinds(inst, p, following=True) == ["following"]


def test_start_goal_jump_blocked():
    occ = np.zeros((2, 3), bool)
    occ[1, 1] = True
    inst = Instance(occ, [(0, 0)], [(0, 2)])
    assert kinds(inst, plan([[0, 1]], [[0, 2]])) == ["start"]
    assert kinds(inst, plan([[0, 0]], [[0, 1]])) == ["goal"]
    assert kinds(inst, plan([[0, 0]], [[0, 2]])) == ["jump"]
    assert kinds(inst, plan([[0, 0]], [[1, 0]], [[1, 1]], [[1, 2]], [[0, 2]])) == ["blocked"]
    assert kinds(inst, plan([[0, 0]], [[1, 1]], [[0, 2]])) == ["blocked", "jump"]


def test_stated_soc_and_makespan():
    inst = Instance(corridor(4), [(0, 0), (0, 3)], [(0, 1), (0, 3)])
    p = plan([[0, 0], [0, 3]], [[0, 1], [0, 3]])
    assert p.soc == 1 and p.makespan == 1
    assert kinds(inst, p, soc=1, makespan=1) == []
    assert kinds(inst, p, soc=2, makespan=1) == ["soc"]
    assert kinds(inst, p, soc=1, makespan=3) == ["makespan"]


def test_cost_counts_leaving_the_goal():
    # agent 0 reaches its goal at 1, steps aside at 2, is back at 3: cost 3
    inst = Instance(np.zeros((2, 3), bool), [(0, 0)], [(0, 1)])
    p = plan([[0, 0]], [[0, 1]], [[1, 1]], [[0, 1]])
    assert p.costs().tolist() == [3] and p.soc == 3


def test_bodies_overlap():
    inst = Instance(np.zeros((4, 4), bool), [(0, 0), (2, 2)], [(0, 0), (1, 1)], size=2)
    # the second body moves to (1, 1): its 2x2 block shares cell (1, 1) with the first
    p = plan([[0, 0], [2, 2]], [[0, 0], [2, 1]], [[0, 0], [1, 1]])
    assert kinds(inst, p) == ["vertex"]
    # a body whose block leaves the grid
    inst2 = Instance(np.zeros((3, 3), bool), [(0, 0)], [(1, 1)], size=2)
    assert kinds(inst2, plan([[0, 0]], [[0, 1]], [[0, 2]], [[1, 2]], [[1, 1]])) == \
        ["blocked"]


def test_valid_plan_passes_and_raise_names_first_problem():
    inst = Instance(corridor(3), [(0, 0), (0, 2)], [(0, 1), (0, 1)])
    bad = plan([[0, 0], [0, 2]], [[0, 1], [0, 1]])
    with pytest.raises(InvalidPlanError, match="agents 0 and 1 collide at step 1"):
        validate_plan(inst, bad)
    inst = Instance(corridor(4), [(0, 0), (0, 3)], [(0, 1), (0, 2)])
    validate_plan(inst, plan([[0, 0], [0, 3]], [[0, 1], [0, 2]]), soc=2, makespan=1)
