"""Every parameter an OMPL planner declares, read back after setup.

A paper's table can only be re-run when each row carries the planner's
full parameter set, defaults included: OMPL's ``Planner::params()`` holds
the declared parameters (``range``, ``goal_bias``, ``rewire_factor``,
BIT*'s ``samples_per_batch``, ...), but the Python bindings cannot return
that ``ParamSet``. :data:`DECLARED` lists, per planner, the names OMPL
declares (``declareParam`` in each planner's constructor, OMPL 1.6-2.0)
with the getter that reads each one, so :func:`planner_params` gives the
same ``name -> value`` map ``ompl::tools::Benchmark`` writes as a
planner's common properties. Values are read after ``setup()``, where
OMPL fills in defaults that depend on the space (``range`` becomes a
fraction of the space's extent).

>>> sorted(DECLARED["rrt_connect"])
['intermediate_states', 'range']
>>> class Fake:
...     def getRange(self): return 0.5
...     def getIntermediateStates(self): return False
>>> planner_params(Fake(), "rrt_connect")
{'intermediate_states': False, 'range': 0.5}
"""

from __future__ import annotations

from typing import Any

__all__ = ["DECLARED", "planner_params"]

#: robomaze planner -> {OMPL declared parameter name: getter method}.
DECLARED: dict[str, dict[str, str]] = {
    "rrt_connect": {"range": "getRange", "intermediate_states": "getIntermediateStates"},
    "rrtstar": {
        "range": "getRange", "goal_bias": "getGoalBias", "rewire_factor": "getRewireFactor",
        "use_k_nearest": "getKNearest", "delay_collision_checking": "getDelayCC",
        "tree_pruning": "getTreePruning", "prune_threshold": "getPruneThreshold",
        "pruned_measure": "getPrunedMeasure", "informed_sampling": "getInformedSampling",
        "sample_rejection": "getSampleRejection",
        "new_state_rejection": "getNewStateRejection",
        "use_admissible_heuristic": "getAdmissibleCostToCome",
        "ordered_sampling": "getOrderedSampling", "ordering_batch_size": "getBatchSize",
        "focus_search": "getFocusSearch",
        "number_sampling_attempts": "getNumSamplingAttempts"},
    # PRM* declares no parameter of its own (PRM's max_nearest_neighbors is
    # declared only without the star strategy): its k is (1 + 1/d) e log n
    "prmstar": {},
    "bitstar": {
        "rewire_factor": "getRewireFactor", "samples_per_batch": "getSamplesPerBatch",
        "use_k_nearest": "getUseKNearest", "use_graph_pruning": "getPruning",
        "prune_threshold_as_fractional_cost_change": "getPruneThresholdFraction",
        "use_just_in_time_sampling": "getJustInTimeSampling",
        "drop_unconnected_samples_on_prune": "getDropSamplesOnPrune",
        "stop_on_each_solution_improvement": "getStopOnSolnImprovement",
        "find_approximate_solutions": "getConsiderApproximateSolutions"},
    "kpiece": {
        "range": "getRange", "goal_bias": "getGoalBias", "border_fraction": "getBorderFraction",
        "failed_expansion_score_factor": "getFailedExpansionCellScoreFactor",
        "min_valid_path_fraction": "getMinValidPathFraction"},
}


def _plain(v: Any) -> Any:
    if isinstance(v, (bool, int, float, str)) or v is None:
        return v
    try:
        return float(v)
    except (TypeError, ValueError):
        return str(v)


def planner_params(planner, name: str) -> dict[str, Any]:
    """``{declared name: value}`` of an OMPL planner object (after ``setup()``), sorted by name.

    Parameters
    ----------
    planner : ompl.base.Planner
        The configured planner.
    name : str
        Its robomaze name (a key of :data:`DECLARED`).

    Returns
    -------
    dict
        JSON-ready values (bool, int, float or str). A getter the bindings
        lack is left out rather than guessed.
    """
    out = {}
    for pname, getter in sorted(DECLARED.get(name, {}).items()):
        fn = getattr(planner, getter, None)
        if fn is None:
            continue
        out[pname] = _plain(fn())
    return out
