"""MAPF: robomaze's solvers against pymapf 0.9 (issue 37).

Two parts:

``lacam``  10 instances of 200 agents on a robomaze-generated maze shaped
           like MovingAI's ``maze-32-32-2`` (kruskal 10x10 cells, corridor 2,
           wall 1: a 31x31 grid), seeds 0-9. robomaze's LaCAM (first plan)
           and LaCAM* (work budget ``--lacam-star-work`` PIBT calls) against
           pymapf's LaCAM, repetitions interleaved, CPU time (process),
           medians. Every plan is checked by robomaze's validator; pymapf's
           plans too.
``cbs``    CBS's sum of costs against pymapf's CBS and a brute-force joint
           search (2 agents) on >= 200 instances: 2-8 agents, open grids,
           mazes (corridor 1 and 2, some braided) and widened grids of
           16x16 to 32x32 cells.

    python benchmarks/bench_mapf.py lacam --reps 3
    python benchmarks/bench_mapf.py cbs --instances 200
"""

from __future__ import annotations

import argparse
import heapq
import itertools
import json
import os
import statistics
import sys
import time

import numpy as np

from robomaze.mapf import Instance, Plan, find_problems, maze_instance, random_instance, solve
from robomaze.mapf.lacam import solve_lacam


def load() -> str:
    with open("/proc/loadavg") as fh:
        return " ".join(fh.read().split()[:3])


def pymapf_problem(inst: Instance):
    import pymapf

    grid = pymapf.GridMap(inst.occupied.astype(int).tolist())
    agents = [pymapf.Agent(str(i), (int(s[0]), int(s[1])), (int(g[0]), int(g[1])))
              for i, (s, g) in enumerate(zip(inst.starts, inst.goals))]
    return pymapf.MAPFProblem(grid, agents)


def pymapf_plan(inst: Instance, sol) -> Plan:
    paths = [sol.paths[str(i)] for i in range(inst.n_agents)]
    t = max(len(p) for p in paths)
    cells = np.array([[p[min(k, len(p) - 1)] for p in paths] for k in range(t)])
    return Plan(cells)


# ------------------------------------------------------------------ lacam
def bench_lacam(args) -> dict:
    import pymapf

    insts = [maze_instance(args.agents, rows=10, cols=10, corridor=2, seed=s)
             for s in range(args.instances)]
    solve_lacam(insts[0], max_work=5, anytime=False)     # compile outside the clock
    rows = []
    times = {"lacam": [], "lacam_star": [], "pymapf": []}
    print(f"load before: {load()}", flush=True)
    for k, inst in enumerate(insts):
        t = {"lacam": [], "lacam_star": [], "pymapf": []}
        res = {}
        for _ in range(args.reps):
            for name in ("lacam", "pymapf", "lacam_star"):
                c0 = time.process_time()
                if name == "pymapf":
                    sol = pymapf.LaCAM(time_limit=args.pymapf_limit, max_expansions=10 ** 6,
                                       seed=0).solve(pymapf_problem(inst))
                    plan = pymapf_plan(inst, sol) if sol is not None else None
                else:
                    r = solve_lacam(inst, anytime=name == "lacam_star",
                                    max_work=args.lacam_star_work if name == "lacam_star"
                                    else 10 ** 6, seed=0)
                    plan = r.plan
                t[name].append(time.process_time() - c0)
                res[name] = plan
        row = {"seed": k}
        for name in t:
            plan = res[name]
            row[name + "_s"] = statistics.median(t[name])
            row[name + "_soc"] = plan.soc if plan is not None else None
            row[name + "_valid"] = plan is not None and not find_problems(inst, plan)
            times[name].append(row[name + "_s"])
        row["lower_bound"] = inst.lower_bound()
        # CBS on the first 10 agents of the same instance (optimal SOC within the budget)
        r10 = solve(inst.with_agents(10), "cbs", max_work=args.cbs_work)
        row["cbs10"] = r10.outcome
        row["cbs10_soc"] = r10.soc
        rows.append(row)
        print(json.dumps(row), flush=True)
    out = {"rows": rows, "load_after": load(), "reps": args.reps,
           "median_s": {k: statistics.median(v) for k, v in times.items()}}
    for name in ("lacam", "lacam_star"):
        out[f"speedup_{name}"] = [r["pymapf_s"] / r[name + "_s"] for r in rows]
        out[f"soc_le_{name}"] = sum(r[name + "_soc"] is not None and r["pymapf_soc"] is not None
                                    and r[name + "_soc"] <= r["pymapf_soc"] for r in rows)
    print(f"load after: {out['load_after']}")
    for name in ("lacam", "lacam_star"):
        sp = out[f"speedup_{name}"]
        print(f"{name}: median {out['median_s'][name] * 1000:.1f} ms, speed-up vs pymapf "
              f"median {statistics.median(sp):.0f}x (min {min(sp):.0f}x), SOC <= pymapf's on "
              f"{out[f'soc_le_{name}']}/{len(rows)}, solved "
              f"{sum(r[name + '_valid'] for r in rows)}/{len(rows)}")
    print(f"pymapf lacam: median {out['median_s']['pymapf']:.2f} s, solved "
          f"{sum(r['pymapf_valid'] for r in rows)}/{len(rows)}")
    print(f"cbs on the first 10 agents: solved {sum(r['cbs10'] == 'success' for r in rows)}/"
          f"{len(rows)} within {args.cbs_work} expansions")
    return out


# ------------------------------------------------------------------ cbs
def brute_soc(inst: Instance, limit: int = 400_000):
    """Optimal SOC of a 2-agent instance by Dijkstra over (positions, done flags)."""
    nbr, deg = inst.graph()
    s = tuple(int(v) for v in inst.start_ids())
    g = tuple(int(v) for v in inst.goal_ids())
    n = len(s)
    moves = {}

    def mv(v):
        if v not in moves:
            moves[v] = [int(u) for u in nbr[v, :deg[v]]] + [v]
        return moves[v]

    # an agent that starts on its goal may be finished from step 0 (cost 0)
    home = [i for i in range(n) if s[i] == g[i]]
    dist = {}
    heap = []
    for r in range(len(home) + 1):
        for fin in itertools.combinations(home, r):
            st = (s, tuple(i in fin for i in range(n)))
            dist[st] = 0
            heap.append((0, st))
    while heap:
        d, (q, done) = heapq.heappop(heap)
        if d > dist[(q, done)]:
            continue
        if all(done):
            return d
        if len(dist) > limit:
            return None
        opts = [[q[i]] if done[i] else mv(q[i]) for i in range(n)]
        for nq in itertools.product(*opts):
            if len(set(nq)) < n:
                continue
            if any(nq[i] == q[j] and nq[j] == q[i] and i != j
                   for i in range(n) for j in range(i + 1, n)):
                continue
            cost = d + sum(not x for x in done)
            can = [i for i in range(n) if not done[i] and nq[i] == g[i]]
            for r in range(len(can) + 1):
                for fin in itertools.combinations(can, r):
                    nd = tuple(done[i] or i in fin for i in range(n))
                    key = (nq, nd)
                    if cost < dist.get(key, 1 << 60):
                        dist[key] = cost
                        heapq.heappush(heap, (cost, key))
    return None


def cbs_instances(count: int):
    """2-8 agents on 16x16 to 32x32 grids: open, mazes, braided mazes, widened."""
    k = 0
    while k < count:
        kind = k % 4
        n = 2 + k % 7
        seed = k
        if kind == 0:        # open grid 16..32 with 10% random obstacles
            rng = np.random.default_rng(k)
            side = 16 + (k * 7) % 17
            occ = rng.random((side, side)) < 0.1
            inst = random_instance(occ, n, seed=seed)
        elif kind == 1:      # perfect maze, corridor 2: 16x16 (5x5 cells) .. 31x31
            cells = 5 + k % 6
            inst = maze_instance(n, rows=cells, cols=cells, corridor=2, seed=seed, braid=0.5)
        elif kind == 2:      # maze corridor 1: 17x17 .. 31x31
            cells = 8 + k % 8
            inst = maze_instance(n, rows=cells, cols=cells, corridor=1, seed=seed, braid=1.0)
        else:                # widened grid corridor 4 wall 2: 20x20 .. 32x32
            cells = 3 + k % 3
            inst = maze_instance(n, rows=cells, cols=cells, corridor=4, wall=2, seed=seed,
                                 braid=1.0)
        yield kind, inst
        k += 1


def bench_cbs(args) -> dict:
    import pymapf

    rows = []
    agree_py = agree_bf = both = solved = 0
    for k, (kind, inst) in enumerate(cbs_instances(args.instances)):
        r = solve(inst, "cbs", max_work=args.cbs_work)
        py = pymapf.ConflictBasedSearch(max_expansions=args.pymapf_nodes).solve(
            pymapf_problem(inst))
        bf = brute_soc(inst) if inst.n_agents == 2 else None
        row = {"k": k, "kind": kind, "agents": inst.n_agents, "shape": inst.shape,
               "cbs": r.soc, "pymapf": py.sum_of_costs if py is not None else None,
               "brute": bf}
        solved += r.success
        if r.success and py is not None:
            both += 1
            agree_py += r.soc == py.sum_of_costs
        if r.success and bf is not None:
            agree_bf += r.soc == bf
        if (r.success and py is not None and r.soc != py.sum_of_costs) or \
                (r.success and bf is not None and r.soc != bf):
            print("DISAGREE", json.dumps(row), flush=True)
        rows.append(row)
        if (k + 1) % 20 == 0:
            print(f"{k + 1} instances: both solved {both}, equal SOC {agree_py}; brute force "
                  f"equal {agree_bf}; load {load()}", flush=True)
    n_bf = sum(r["brute"] is not None and r["cbs"] is not None for r in rows)
    print(f"{len(rows)} instances: CBS solved {solved}; pymapf solved {sum(r['pymapf'] is not None for r in rows)}; "
          f"both {both}, equal SOC on {agree_py}; brute force on {n_bf}, equal on {agree_bf}")
    return {"rows": rows, "both": both, "agree_pymapf": agree_py, "brute": n_bf,
            "agree_brute": agree_bf}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("part", choices=["lacam", "cbs"])
    ap.add_argument("--instances", type=int, default=None)
    ap.add_argument("--agents", type=int, default=200)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--lacam-star-work", type=int, default=1000)
    ap.add_argument("--pymapf-limit", type=float, default=60.0)
    ap.add_argument("--cbs-work", type=int, default=300_000)
    ap.add_argument("--pymapf-nodes", type=int, default=3000)
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    if args.instances is None:
        args.instances = 10 if args.part == "lacam" else 200
    out = bench_lacam(args) if args.part == "lacam" else bench_cbs(args)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(out, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
