"""The ``mapf`` run kind of the benchmark: many agents planned together on a maze.

A sweep lists MAPF solvers under ``run.mapf`` (names in
:data:`robomaze.mapf.SOLVERS`) with the axes ``run.agents`` (agent
counts), ``run.bucket`` (``random`` or ``even``) and the usual maze,
widening and seed axes; ``run.max_work`` is the work budget (default
:data:`DEFAULT_WORK`), ``[run.options.ecbs] w = 1.5`` passes options. A
disc ``robot.footprint`` gives the agents bodies (the cells inscribed in
the disc at the grid's resolution, :func:`robomaze.mapf.body_size`); no
footprint means point agents. The instance is drawn from the world's seed
(:func:`robomaze.mapf.random_instance`), so every solver of one setting
and seed plans the same agents. Every plan is checked by the validator;
an invalid plan is an ``error`` row.

Metrics of a mapf row (``row["metrics"]``)
-------------------------------------------
=====================  =========================================================
``success``            a valid plan within the budget
``agents``             agents planned
``soc``                sum of costs of the plan
``makespan``           the plan's makespan
``lower_bound``        the solver's proven lower bound on the optimal sum of
                       costs (at least the sum of shortest paths)
``sum_of_distances``   sum of the agents' shortest path lengths
``suboptimality``      ``soc / lower_bound`` (the report divides by the best
                       lower bound any solver proved on the same instance)
``bound``              the solver's guaranteed factor (1 for CBS, ``w`` for
                       ECBS; absent for the others)
``expansions``         low-level expansions / PIBT calls (the work budget's unit)
``nodes``              high-level nodes (constraint-tree nodes, configurations)
``body``               body side in grid cells (1: point agents)
=====================  =========================================================
"""

from __future__ import annotations

import math
import time

import numpy as np

from .scenario import Scenario

__all__ = ["run_mapf", "method_seed", "MAPF_METRICS", "DEFAULT_WORK", "mapf_section"]

#: Work budget of a run without ``run.max_work``.
DEFAULT_WORK = 200_000
MAPF_METRICS = ("success", "agents", "soc", "makespan", "lower_bound", "sum_of_distances",
                "suboptimality", "bound", "expansions", "nodes", "body")


def _body(spec) -> int:
    from ..geometry import Footprint
    from ..mapf import body_size

    fp = spec["robot"].get("footprint")
    if fp is None:
        return 1
    f = Footprint.from_spec(fp) if not isinstance(fp, Footprint) else fp
    return body_size(float(f.inscribed_radius), float(spec["widen"]["resolution"]))


def method_seed(seed: int) -> int:
    """The solver's seed of a row of world seed ``seed`` (its ``method`` stage).

    >>> method_seed(1) == method_seed(1)
    True
    """
    from ..world import stage_rng

    return int(stage_rng(seed, "method").integers(1 << 31))


def run_mapf(scenario: Scenario, row: dict) -> dict:
    """Fill ``row`` with the run of one MAPF solver (see the module docstring)."""
    from .._compile import method_clock
    from ..mapf import SOLVERS, find_problems, random_instance
    from ..world import WorldSpec

    spec = scenario.spec
    run = spec["run"]
    t0 = time.perf_counter()
    world = WorldSpec.from_scenario(scenario)
    grid = WorldSpec(**{**world.to_dict(), "footprint": None}).build().grid \
        if world.footprint else world.build().grid
    body = _body(spec)
    inst = random_instance(grid.occupied, int(run.get("agents") or 10), seed=spec["seed"],
                           bucket=run.get("bucket") or "random", size=body)
    t1 = time.perf_counter()
    fn = SOLVERS.lookup(run["mapf"])
    seed = method_seed(spec["seed"])
    opts = dict(run.get("options") or {})
    # a solver's own budget ([run.options.lacam_star] max_work) wins over the sweep's
    work = int(opts.pop("max_work", None) or run.get("max_work") or DEFAULT_WORK)
    with method_clock() as clock:
        res = fn(inst, max_work=work, seed=seed, **opts)
    t2 = time.perf_counter()
    lb = max(int(res.lower_bound or 0), inst.lower_bound())
    m = {"agents": inst.n_agents, "body": body, "expansions": int(res.expansions),
         "nodes": int(res.nodes), "lower_bound": lb, "sum_of_distances": inst.lower_bound(),
         "bound": res.bound}
    if res.plan is not None:
        probs = find_problems(inst, res.plan)
        if probs:
            raise AssertionError(f"{run['mapf']} emitted an invalid plan: {probs[0]}")
        m.update(soc=res.soc, makespan=res.makespan,
                 suboptimality=res.soc / lb if lb else 1.0)
    row["success"] = res.success
    row["outcome"] = res.outcome if res.outcome in ("success", "no_path", "budget", "gave_up") \
        else "gave_up"
    if not res.success:
        row["reason"] = res.reason or res.outcome
    m["success"] = row["success"]
    row["metrics"] = {k: (None if v is None else float(v) if isinstance(v, float) else v)
                      for k, v in m.items()
                      if not (isinstance(v, float) and not math.isfinite(v))}
    row["timings"] = {"setup_s": t1 - t0, "method_s": t2 - t1, "compute_s": clock.cpu_s,
                      "compile_s": clock.compile_s, "total_s": t2 - t0}
    row["footprint"] = f"body {body}" if body > 1 else "point"
    return row


# ------------------------------------------------------------------ report
def _instance_key(r) -> tuple:
    sc = r.get("scenario") or {}
    mz, wd, run = sc.get("maze", {}), sc.get("widen", {}), sc.get("run", {})
    return (mz.get("generator"), mz.get("rows"), mz.get("cols"), mz.get("braid"),
            wd.get("corridor"), wd.get("wall"), sc.get("seed"), run.get("agents"),
            run.get("bucket"), r.get("footprint"))


def mapf_tables(rows) -> dict:
    """Success rates by (solver, agents) and (solver, corridor), and per-row
    suboptimality against the best lower bound proven on the same instance."""
    rows = [r for r in rows if r.get("kind") == "mapf"]
    best: dict = {}
    for r in rows:
        lb = (r.get("metrics") or {}).get("lower_bound")
        if lb is not None:
            k = _instance_key(r)
            best[k] = max(best.get(k, 0), lb)
    by_agents: dict = {}
    by_corr: dict = {}
    stats: dict = {}
    for r in rows:
        m = r.get("metrics") or {}
        solver = r.get("method")
        # the sweep's count (an error row has no metrics)
        a = (r.get("scenario") or {}).get("run", {}).get("agents", m.get("agents"))
        c = (r.get("scenario") or {}).get("widen", {}).get("corridor", r.get("corridor"))
        ok = bool(r.get("success"))
        for table, key in ((by_agents, (solver, a)), (by_corr, (solver, c))):
            n, s = table.get(key, (0, 0))
            table[key] = (n + 1, s + ok)
        st = stats.setdefault(solver, {"runs": 0, "ok": 0, "sub": [], "cpu": [], "exp": []})
        st["runs"] += 1
        st["ok"] += ok
        if ok and m.get("soc") is not None:
            st["sub"].append(m["soc"] / max(best.get(_instance_key(r), 1), 1))
            st["cpu"].append((r.get("timings") or {}).get("compute_s") or 0.0)
            st["exp"].append(m.get("expansions") or 0)
    return {"agents": by_agents, "corridor": by_corr, "stats": stats}


def mapf_section(rows, d, figures_dir=None) -> tuple[str, dict]:
    """The report's MAPF section (Markdown) and the figures it drew ``{name: path}``."""
    t = mapf_tables(rows)
    if not t["stats"]:
        return "", {}
    out = ["## Multi-agent path finding\n\n",
           "Success rate of each MAPF solver (a valid plan within the work budget), the "
           "median sum of costs over the best lower bound proven on the same instance "
           "(CBS's, ECBS's, LaCAM*'s or the sum of shortest paths), median CPU time and "
           "work. Every plan was checked by the validator.\n\n",
           "| solver | runs | success | SOC / best LB (median) | CPU s (median) | "
           "expansions (median) |\n|---|---|---|---|---|---|\n"]
    for solver in sorted(t["stats"]):
        st = t["stats"][solver]
        med = (lambda xs, f: f.format(float(np.median(xs))) if xs else "")
        out.append(f"| {solver} | {st['runs']} | {st['ok']}/{st['runs']} | "
                   f"{med(st['sub'], '{:.3f}')} | {med(st['cpu'], '{:.4f}')} | "
                   f"{med(st['exp'], '{:.0f}')} |\n")
    out.append("\n")
    figs = {}
    if figures_dir is not None:
        from ..viz.mapf import plot_success

        for axis, label in (("agents", "agents"), ("corridor", "corridor width")):
            if len({k[1] for k in t[axis]}) < 2:
                continue
            p = plot_success(t[axis], label, figures_dir / f"mapf_success_{axis}.png")
            figs[f"MAPF success rate vs {label}"] = p
    for name, p in figs.items():   # the report places them under figures/
        out.append(f"![{name}](figures/{p.name})\n\n")
    return "".join(out), figs
