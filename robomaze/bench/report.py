"""Summarise a result directory: Markdown report, CSV, figures, OMPL logs.

Runs are grouped by widening level (``corridor``) x method (planner or
agent) x footprint x every other swept setting (resolution, wall...; seeds
and maze sources are the sample a group averages over). For every group :func:`summarize` gives:

========================  ====================================================
``runs``                  rows in the group
``successes``             rows with ``success`` true
``no_path``               runs that found no collision-free path (a result)
``failed``                runs that raised or timed out (``status != "ok"``)
``success_rate``          ``successes / runs``
``length_m``              mean path / executed length of successful runs (m)
``length_ratio``          mean of length / optimal collision-free length
``min_clearance``         worst (smallest) minimum footprint clearance (m)
``min_clearance_mean``    mean of the runs' minimum clearances (m)
``mean_clearance``        mean of the runs' mean clearances (m)
``collisions``            mean collision count per run
``danger_fraction``       mean fraction of the run closer than one grid cell
                          to a wall ("time in danger")
``compute_median_s``      median compute time (s)
``compute_iqr_s``         interquartile range of compute time (s)
========================  ====================================================

Means and extremes are over the successful runs of the group (a run with no
path has no length or clearance); empty groups give an empty cell.

``report.md`` opens with how complete the directory is (against the ids in
``DIR/sweep.json``), then an "At a glance" table (per footprint and widening
level, the shortest and the safest method among those that always
succeeded), the figures, one table per footprint, the no-path matrix,
failed runs and the example pictures.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
import shutil
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Iterable

import numpy as np

from ..errors import RecordFormatError, ResultsDirError
from ..io.ompl_log import write_ompl_logs  # noqa: F401  (the OMPL log writer lives in io)
from . import files
from .report_research import sections as _research_sections
from .report_sections import gap_section
from .store import read_rows, results_path

__all__ = ["summarize", "swept_axes", "write_report", "write_ompl_logs", "SUMMARY_COLUMNS",
           "fmt"]

SUMMARY_COLUMNS = (
    "corridor", "footprint", "kind", "method", "runs", "successes", "no_path", "failed",
    "success_rate", "length_m", "length_ratio", "min_clearance", "min_clearance_mean",
    "mean_clearance", "collisions", "danger_fraction", "compute_median_s", "compute_iqr_s",
)


def fmt(v) -> str:
    """How report tables print a number (``""`` for missing).

    >>> fmt(0.123456), fmt(3), fmt(None), fmt(1.0)
    ('0.1235', '3', '', '1')
    """
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return ""
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)


def _values(rows, key, *, success_only=True):
    out = []
    for r in rows:
        if success_only and not r.get("success"):
            continue
        v = r.get("metrics", {}).get(key)
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            out.append(float(v))
    return out


def _mean(xs):
    return float(np.mean(xs)) if xs else None


#: How a method's kind is written after its name in tables and titles.
_KIND_WORD = {"plan": "", "simulate": " (agent)", "mouse": " (mouse)"}


def _is_no_path(row) -> bool:
    if "outcome" in row:  # the failure taxonomy (robomaze.bench.run.OUTCOMES)
        return row["outcome"] == "no_path"
    return row.get("status") == "ok" and not row.get("success") and \
        str(row.get("reason") or "").startswith("no collision-free path")


def _sort_key(row):
    return (row["corridor"], row["footprint"], row["kind"], row["method"])


#: Scenario keys that never split a group: the repetition (``seed``) and the
#: maze population a group averages over (``maze.generator/file/grid``); the
#: keys already in the group key; tables passed to one method (``options``).
_NOT_AXES = ("seed", "plugins", "maze.generator", "maze.file", "maze.grid", "widen.corridor",
             "robot.footprint", "run.planner", "run.agent", "run.mouse", "maze.options",
             "run.options")


def _flat(spec, prefix: str = "") -> dict:
    out = {}
    for k, v in (spec.items() if isinstance(spec, dict) else ()):
        key = f"{prefix}{k}"
        if key in _NOT_AXES:
            continue
        if isinstance(v, dict):
            out.update(_flat(v, key + "."))
        else:
            out[key] = v
    return out


def swept_axes(rows: Iterable[dict]) -> list[str]:
    """Scenario keys (dotted, e.g. ``widen.resolution``) whose value differs
    between rows: each splits the report's groups.

    >>> rows = [{"scenario": {"seed": s, "widen": {"resolution": r, "wall": 1}}}
    ...         for s in (1, 2) for r in (0.1, 0.05)]
    >>> swept_axes(rows)
    ['widen.resolution']
    """
    seen: dict[str, set] = defaultdict(set)
    for r in rows:
        for k, v in _flat(r.get("scenario") or {}).items():
            seen[k].add(json.dumps(v, sort_keys=True))
    return sorted(k for k, vals in seen.items() if len(vals) > 1)


def _axis_order(v):
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return (0, float(v), "")
    return (1, 0.0, json.dumps(v, sort_keys=True))


def _setting(axes: list[str], values: tuple) -> str:
    """Short label of a group's swept settings, e.g. ``resolution=0.05 wall=2``."""
    return " ".join(f"{k.rsplit('.', 1)[-1]}={fmt(v) if not isinstance(v, (list, dict)) else v}"
                    for k, v in zip(axes, values))


def summarize(rows: Iterable[dict]) -> list[dict]:
    """One summary dict per (corridor, footprint, kind, method, swept settings), sorted.

    Every scenario key the rows sweep besides the seed and the maze source
    (:func:`swept_axes`: resolution, wall, sensor...) is part of the group
    key, so a sweep over it is never merged: each summary carries those
    values under their dotted names and a ``setting`` label (``""`` when
    nothing else is swept).
    """
    rows = list(rows)
    # axes per run kind: a mouse row keeps the default widening, sensor and
    # step limit it ignores, so a mixed sweep must not label it with them
    kind_axes = {kind: swept_axes([r for r in rows if r.get("kind") == kind])
                 for kind in {r.get("kind") for r in rows}}
    groups: dict[tuple, list] = defaultdict(list)
    shown: dict[tuple, tuple] = {}
    for r in rows:
        flat = _flat(r.get("scenario") or {})
        axes = kind_axes[r.get("kind")]
        values = tuple(flat.get(k) for k in axes)
        # a swept list (maze.start = [[1, 1], [3, 3]]) is no dict key: group by its JSON
        key = (*_sort_key(r), tuple(json.dumps(v, sort_keys=True) for v in values))
        groups[key].append(r)
        shown.setdefault(key, values)
    out = []
    for key in sorted(groups, key=lambda k: (*k[:4], tuple(map(_axis_order, shown[k])))):
        g = groups[key]
        corridor, footprint, kind, method, _ = key
        axes = kind_axes[kind]
        values = shown[key]
        succ = sum(bool(r.get("success")) for r in g)
        compute = [float(r["timings"]["compute_s"]) for r in g
                   if r.get("status") == "ok" and r.get("timings", {}).get("compute_s") is not None]
        mins = _values(g, "min_clearance")
        out.append({
            "corridor": corridor, "footprint": footprint, "kind": kind, "method": method,
            "runs": len(g), "successes": succ,
            "no_path": sum(_is_no_path(r) for r in g),
            "failed": sum(r.get("status") != "ok" for r in g),
            "success_rate": succ / len(g),
            "length_m": _mean(_values(g, "length_m")),
            "length_ratio": _mean(_values(g, "length_ratio")),
            "min_clearance": min(mins) if mins else None,
            "min_clearance_mean": _mean(mins),
            "mean_clearance": _mean(_values(g, "mean_clearance")),
            "collisions": _mean(_values(g, "collisions")),
            "danger_fraction": _mean(_values(g, "danger_fraction")),
            "compute_median_s": float(np.median(compute)) if compute else None,
            "compute_iqr_s": (float(np.percentile(compute, 75) - np.percentile(compute, 25))
                              if compute else None),
            "setting": _setting(axes, values), **dict(zip(axes, values)),
        })
    return out


def _csv_text(summary) -> str:
    known = set(SUMMARY_COLUMNS) | {"setting"}
    axes = sorted({k for s in summary for k in s if k not in known})
    columns = [*SUMMARY_COLUMNS[:4], *axes, *SUMMARY_COLUMNS[4:]]  # swept axes by the key
    fh = io.StringIO(newline="")
    w = csv.DictWriter(fh, fieldnames=columns, extrasaction="ignore")
    w.writeheader()
    for s in summary:
        w.writerow({k: ("" if s.get(k) is None else s[k]) for k in columns})
    return fh.getvalue()


_MD_COLUMNS = (("method", "method"), ("corridor", "corridor"), ("runs", "runs"),
               ("success_rate", "success rate"), ("no_path", "no path"), ("failed", "failed"),
               ("length_m", "length (m)"), ("length_ratio", "length / optimal"),
               ("min_clearance", "min clearance (m)"), ("mean_clearance", "mean clearance (m)"),
               ("collisions", "collisions"), ("danger_fraction", "time in danger"),
               ("compute_median_s", "compute median (s)"), ("compute_iqr_s", "compute IQR (s)"))


def _md_table(summary) -> str:
    columns = _MD_COLUMNS
    if any(s.get("setting") for s in summary):  # the swept settings beside the method
        columns = (columns[0], ("setting", "setting"), *columns[1:])
    lines = ["| " + " | ".join(h for _, h in columns) + " |",
             "|" + "|".join("---" for _ in columns) + "|"]
    for s in summary:
        cells = [fmt(s.get(k)) for k, _ in columns]
        cells[0] += _KIND_WORD.get(s["kind"], "")  # "tremaux" is a planner, agent and mouse
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def write_report(directory: str | os.PathLike, *, figures: bool = True,
                 examples: bool = True) -> dict[str, Path]:
    """Write ``report.md``, ``summary.csv``, figures and OMPL logs into ``DIR``.

    Returns the paths written, by name. Every file goes through
    :mod:`robomaze.bench.files`: names made from data are sanitised, nothing
    is written through a symbolic link or outside ``DIR``, and only pictures
    and logs an earlier report listed in the manifest are deleted.
    """
    d = Path(directory)
    rows = read_rows(d)
    _check_rows(rows, d)
    if not files.owned(d):
        raise ResultsDirError(f"{d}: not a robomaze results directory (its results.jsonl is a "
                              "link or missing); the report is written only into one")
    with files.DirLock(d, "bench report"):
        # read before anything is drawn: a bad sweep.json is the report's one
        # error, not the last line after seconds of figures
        info = _sweep_info(d / "sweep.json") if (d / "sweep.json").exists() else {}
        manifest = files.Manifest.load(d)
        staging = Path(tempfile.mkdtemp(dir=d, prefix=".tmp-report-"))
        try:
            written = _write_report(d, rows, manifest, staging, figures=figures,
                                    examples=examples, info=info)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
            manifest.save()
    return written


def _check_rows(rows: list[dict], d: Path) -> None:
    """Rows the report can group and label: a crafted file fails here, clearly."""
    types = {"id": str, "kind": str, "method": str, "footprint": str, "status": str,
             "corridor": int}
    for i, r in enumerate(rows):
        for key, t in types.items():
            v = r.get(key)
            if not isinstance(v, t) or isinstance(v, bool):
                raise RecordFormatError(f"{results_path(d)}: row {i + 1} (id {r.get('id')!r}): "
                                        f"{key} must be a {t.__name__}, got {v!r}")
        if not isinstance(r.get("metrics") or {}, dict) or not isinstance(
                r.get("timings") or {}, dict):
            raise RecordFormatError(f"{results_path(d)}: row {i + 1} (id {r['id']!r}): metrics "
                                    "and timings must be objects")


def _place(d: Path, manifest, rel: str, src: Path) -> Path:
    """Move a file written in the staging folder to ``DIR/rel`` (checked, recorded)."""
    out = files.target(d, rel)
    os.replace(src, out)
    manifest.add(rel)
    return out


def _write_report(d: Path, rows, manifest, staging: Path, *, figures: bool,
                  examples: bool, info: dict) -> dict[str, Path]:
    all_rows, rows = rows, [r for r in rows if r.get("kind") != "mapf"]   # mapf: own section
    summary = summarize(rows)
    written: dict[str, Path] = {}
    written["summary"] = files.write_file(d, "summary.csv", _csv_text(summary), manifest)
    figs: dict[str, Path] = {}
    ex: dict[tuple, Path] = {}
    if figures and summary:
        from ..viz.bench_panels import plot_report_figures
        from .report_figures import figure_points

        kind_axes = {kind: swept_axes([r for r in rows if r.get("kind") == kind])
                     for kind in {r.get("kind") for r in rows}}

        def setting_of(r):  # the axes of the row's own kind (see summarize)
            axes = kind_axes[r.get("kind")]
            flat = _flat(r.get("scenario") or {})
            return _setting(axes, tuple(flat.get(k) for k in axes))

        drawn = plot_report_figures(figure_points(rows, setting_of=setting_of),
                                    staging / "figures")
        figs = {name: _place(d, manifest, f"figures/{files.safe_name(p.name)}", p)
                for name, p in drawn.items()}
        for p in drawn.values():   # SVG and PDF beside each PNG (listed, not embedded)
            for suffix in (".svg", ".pdf"):
                q = p.with_suffix(suffix)
                if q.is_file():
                    _place(d, manifest, f"figures/{files.safe_name(q.name)}", q)
        anytime = [r for r in rows if isinstance(r.get("progress"), dict)]
        if anytime:  # OMPL's optimising planners: median best cost against time
            from ..viz.convergence import plot_convergence

            staged = plot_convergence(anytime, staging / "figures" / "ompl_convergence.png")
            figs["anytime convergence (OMPL)"] = _place(
                d, manifest, "figures/ompl_convergence.png", staged)
    if examples and rows:
        ex = _examples(rows, d, manifest, staging)
    logs = {}
    for name, p in write_ompl_logs(rows, staging / "ompl").items():
        if p.parent == staging / "ompl":  # a name that left its folder is not placed
            logs[name] = _place(d, manifest, f"ompl/{files.safe_name(p.name)}", p)
    files.remove_stale(manifest, "ompl", [f"ompl/{p.name}" for p in logs.values()])
    written.update({f"ompl:{name}": p for name, p in logs.items()})
    written.update({f"figure:{k}": v for k, v in figs.items()})
    from .report_notes import wall_follower_note
    from .report_stats import glance_sentences, stats_csv, stats_section
    from .stats import median_intervals, paired_tests

    tests, medians = paired_tests(rows), median_intervals(rows, per_width=True)
    written["stats"] = files.write_file(d, "stats.csv", stats_csv(tests), manifest)
    md = (_markdown(all_rows, summary, figs, ex, d, info,
                    glance=glance_sentences(tests, medians))
          + stats_section(rows, tests=tests, medians=medians)
          + wall_follower_note(rows) + gap_section(rows, d, figures=figures))
    from .mapf import mapf_section   # the mapf run kind's table and success figures

    mapf_md, mapf_figs = mapf_section(all_rows, d, staging / "figures" if figures else None)
    for name, p in mapf_figs.items():
        written[f"figure:{name}"] = _place(d, manifest, f"figures/{p.name}", p)
    md += mapf_md
    written["report"] = files.write_file(d, "report.md", md, manifest)
    from .report_html import html_page

    written["html"] = files.write_file(d, "report.html", html_page(md, d, tests=tests), manifest)
    return written


def _examples(rows, d: Path, manifest, staging: Path) -> dict[tuple, Path]:
    """One picture per (method, corridor), all of one maze: the same maze across the columns.

    The maze is one (generator, seed, footprint) chosen for the whole
    table -- the one with the most (method, corridor) runs that reached
    the goal, ties to the first in sort order -- so a row of pictures shows
    one maze widening; a cell falls back to another maze only when the
    chosen one has no run there. In each cell: that run (successful or not).
    """
    from ..viz.bench import plot_example
    from .run import build_grid
    from .scenario import Scenario

    def maze_of(r):
        return (str(r.get("generator", "")), str(r.get("seed")), str(r["footprint"]))

    ok = [r for r in rows if r.get("status") == "ok"]
    score: dict[tuple, list] = defaultdict(lambda: [0, 0])
    for r in ok:
        score[maze_of(r)][0] += bool(r.get("success"))
        score[maze_of(r)][1] += 1
    best = min(score, key=lambda k: (-score[k][0], -score[k][1], k)) if score else None
    chosen: dict[tuple, dict] = {}
    for r in sorted(ok, key=lambda r: (maze_of(r) != best, r["method"], r["corridor"],
                                       not r.get("success"), r["footprint"], r["id"])):
        key = (r["kind"], r["method"], r["corridor"])
        if key not in chosen:
            chosen[key] = r
    out = staging / "examples"
    out.mkdir()
    grids: dict[str, tuple] = {}
    written = {}
    for (kind, method, corridor), r in sorted(chosen.items()):
        sc = Scenario.from_dict({"id": r["id"], "spec": r["scenario"],
                                 "base_dir": r.get("base_dir", ".")})
        gkey = repr((sc.spec["maze"], sc.spec["widen"], sc.spec["seed"]))
        try:
            if gkey not in grids:
                grids[gkey] = build_grid(sc)
            grid = grids[gkey][0]
        except Exception:  # the maze source moved since the run; skip its picture
            continue
        status = "goal" if r.get("success") else "no path" if _is_no_path(r) else "failed"
        # drawn literally: a "$" in a plugin's method name is no mathtext
        width = f" = {corridor * float(r['resolution']):.3g} m" if r.get("resolution") else ""
        title = (f"{method}{_KIND_WORD.get(kind, '')}: {status}\n"
                 f"corridor {corridor} cell{'' if corridor == 1 else 's'}{width}\n"
                 f"{r.get('generator', '')} seed {r.get('seed')}, {r['footprint']}"
                 ).replace("$", r"\$")
        prefix = "" if kind == "plan" else "agent_"  # "tremaux" is both a planner and an agent
        name = files.safe_name(f"{prefix}{method}_corridor{corridor}") + ".png"
        plot_example(grid, r.get("path"), out / name, title=title)
        written[(kind, method, corridor)] = _place(d, manifest, f"examples/{name}", out / name)
    # pictures of an earlier report of this directory (and only those)
    files.remove_stale(manifest, "examples", [f"examples/{p.name}" for p in written.values()])
    return written


def _glance(summary, footprints, sentences=()) -> str:
    """The significant differences, then per footprint and widening level the
    shortest and the safest planner, and the shortest and the safest agent
    (a description, not a test).

    Like is ranked with like: planners' lengths are against the exact
    reference between the maze's ends, agents' against the shortest path
    between their own trajectory's ends, so the two are never mixed in one
    ranking. Only methods that succeeded in every run of the group compete;
    ties go to the alphabetically first name.
    """
    corridors = sorted({s["corridor"] for s in summary})
    settings = sorted({s.get("setting", "") for s in summary})
    out = ["## At a glance\n"]
    if sentences:
        out.append("Differences that are real (paired across seeds and mazes, pooled over "
                   "the corridor widths; exact Wilcoxon signed-rank and McNemar tests, "
                   "Holm-corrected within each stated family; method, per-width tables and "
                   "every test in the Statistics section and `stats.csv`):\n")
        out.extend(f"- {x}" for x in sentences)
        out.append("")
    out += ["Descriptive, not a test: among the methods that reached the goal in every run "
            "of a group, planners ranked with planners and agents with agents (their length "
            "ratios have different references): the shortest (mean length / optimal) and "
            "the safest (largest minimum clearance, m).\n",
            "| footprint | corridor | shortest planner | length / optimal | safest planner "
            "| min clearance | shortest agent | length / optimal | safest agent | min clearance |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    for fp in footprints:
        for c, setting in ((c, st) for c in corridors for st in settings):
            part = [s for s in summary if s["footprint"] == fp and s["corridor"] == c
                    and s.get("setting", "") == setting]
            if not part:
                continue
            where = f"{c} ({setting})" if setting else f"{c}"
            cells = []
            for kinds in (("plan",), ("simulate",)):
                full = sorted((s for s in part if s["kind"] in kinds and s["runs"]
                               and s["success_rate"] == 1.0), key=lambda s: s["method"])
                if not any(s["kind"] in kinds for s in part):
                    cells += ["", "", "", ""]
                    continue
                if not full:
                    cells += ["none always succeeded", "", "", ""]
                    continue
                short = min((s for s in full if s["length_ratio"] is not None),
                            key=lambda s: s["length_ratio"], default=None)
                safe = max((s for s in full if s["min_clearance"] is not None),
                           key=lambda s: s["min_clearance"], default=None)
                cells += [short["method"] if short else "",
                          fmt(short["length_ratio"]) if short else "",
                          safe["method"] if safe else "",
                          fmt(safe["min_clearance"]) if safe else ""]
            out.append(f"| {fp} | {where} | " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n\n"


def _outcomes_section(rows) -> str:
    """How every run ended, in the failure taxonomy shared with ``bench compare``."""
    from .run import OUTCOMES

    if not rows or not any("outcome" in r for r in rows):
        return ""
    kinds = sorted({r.get("kind", "?") for r in rows})
    seen = [o for o in OUTCOMES if any(r.get("outcome") == o for r in rows)]
    words = {"success": "reached the goal", "no_path": "no route exists for the robot",
             "gave_up": "agent stopped or looped", "budget": "work budget spent",
             "collided": "stopped on contact / path touches walls",
             "infra_timeout": "wall-clock safety net (machine, not method)",
             "error": "raised an error"}
    out = ["## Outcomes\n",
           "How each run ended (`outcome` in `results.jsonl`): budgets are counted in work "
           "(steps, checks, moves), so an outcome never depends on the machine's load; "
           "`infra_timeout` rows are not results.\n",
           "| outcome | meaning | " + " | ".join(kinds) + " |",
           "|---|---|" + "---|" * len(kinds)]
    for o in seen:
        counts = [str(sum(r.get("kind") == k and r.get("outcome") == o for r in rows))
                  for k in kinds]
        out.append(f"| {o} | {words.get(o, '')} | " + " | ".join(counts) + " |")
    return "\n".join(out) + "\n\n"


def _failed_section(rows) -> str:
    failed = [r for r in rows if r.get("status") != "ok"]
    if not failed:
        return ""
    out = [f"## Failed runs\n\n{len(failed)} of {len(rows)} runs raised an error or ran out "
           "of time" + (" (every run failed)" if len(failed) == len(rows) else "") + ".\n",
           "| id | method | corridor | footprint | status | reason |", "|---|---|---|---|---|---|"]
    for r in sorted(failed, key=lambda r: str(r["id"])):
        reason = str(r.get("reason") or "").replace("|", "/").replace("\n", " ")
        out.append(f"| {r['id']} | {r.get('method')} | {r.get('corridor')} | "
                   f"{r.get('footprint')} | {r.get('status')} | {reason} |")
    return "\n".join(out) + "\n\n"


def _sweep_info(path: Path) -> dict:
    """``sweep.json`` of a results directory: a regular file holding a JSON object."""
    from ..errors import RecordFormatError
    from .files import read_regular

    raw = read_regular(path, RecordFormatError)
    try:
        info = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise RecordFormatError(f"{path}: not a sweep description "
                                f"({type(exc).__name__}); expected the JSON object a sweep "
                                "wrote; delete it or rerun the sweep") from None
    except RecursionError:
        raise RecordFormatError(f"{path}: JSON nested too deeply; expected the JSON object "
                                "a sweep wrote; delete it or rerun the sweep") from None
    if not isinstance(info, dict):
        return {}
    # Only what the report reads, and only of the type the sweep wrote.
    out = {k: info[k] for k in ("description", "source") if isinstance(info.get(k), str)}
    if out.get("source", "").startswith(("/", "\\")) or re.match(r"^[A-Za-z]:[\\/]", out.get("source", "")):
        out["source"] = re.split(r"[\\/]", out["source"])[-1]   # older sweeps: no machine path
    machine = info.get("machine")
    if isinstance(machine, dict):
        out["machine"] = {k: v for k, v in machine.items()
                          if k in ("platform", "cpus", "load") and isinstance(v, (str, int))}
    vers = info.get("versions")
    if isinstance(vers, dict):
        out["versions"] = {k: v for k, v in vers.items()
                           if isinstance(k, str) and isinstance(v, str)}
    ids = info.get("ids")
    if isinstance(ids, list) and all(isinstance(i, str) for i in ids):
        out["ids"] = ids
    return out


def _markdown(rows, summary, figs, examples, d: Path, info: dict, *, glance=()) -> str:
    prov = rows[0].get("provenance", {}) if rows else {}
    n_ok = sum(r.get("status") == "ok" for r in rows)
    n_succ = sum(bool(r.get("success")) for r in rows)
    sweeps = sorted({r.get("sweep") or "?" for r in rows})
    out = io.StringIO()
    w = out.write
    w(f"# robomaze benchmark report: {', '.join(sweeps)}\n\n")
    if info.get("description"):
        w(f"{info['description']} (`{info.get('source', '')}`).\n\n")
    if info.get("ids"):
        have = {r["id"] for r in rows}
        missing = [i for i in info["ids"] if i not in have]
        w(f"Results for {len(info['ids']) - len(missing)} of the {len(info['ids'])} scenarios "
          f"of the last sweep run into this directory"
          + (f" ({len(missing)} not run yet: rerun the same command to resume)" if missing
             else "") + ".\n\n")
    w(f"{len(rows)} runs: {n_succ} reached the goal, {n_ok - n_succ} found no "
      f"(collision-free) path or did not arrive, {len(rows) - n_ok} failed "
      f"(error or time limit).\n\n")
    w(_failed_section(rows))  # failures first: a sweep that failed must say so at the top
    w(_outcomes_section(rows))
    machine = info.get("machine") or {}
    w(f"robomaze {prov.get('robomaze', '?')}, git {prov.get('git_commit') or 'n/a'}, "
      f"Python {prov.get('python', '?')}, numpy {prov.get('numpy', '?')}, "
      f"{machine.get('platform') or prov.get('platform', '?')}"
      + (f", {machine['cpus']} CPUs, load {machine['load']}" if machine.get("cpus") else "")
      + ".\n\n")
    vers = info.get("versions") or {}
    libs = [f"{k} {vers[k]}" for k in ("scipy", "numba", "shapely", "ompl") if vers.get(k)]
    if libs:
        w("Libraries: " + ", ".join(libs) + (f"; CPU {vers['cpu']}" if vers.get("cpu") else "")
          + " (all versions in `sweep.json`).\n\n")
    w("Lengths and clearances are over successful runs (definitions in `robomaze.metrics`). "
      "`length / optimal` divides by the shortest collision-free length for the same "
      "footprint between the run's own ends: for discs the exact length over the "
      "visibility graph of the walls grown by the radius (a lower bound within 0.04% of "
      "the grown corners' arcs, so no collision-free run scores below 1); for rectangles "
      "and polygons any-angle `theta_star` on the rasterised free space: the best length "
      "known, an upper bound of the true optimum, which continuous SE(2) planners (OMPL) "
      "and agents can beat, so their ratio can fall below 1. Each row names its reference "
      "in `optimal_reference` and also carries a provable lower bound (`lower_bound_m`, "
      "`lower_bound_ratio`, named in `lower_bound_reference`: for rectangles and polygons "
      "the visibility-graph length of the footprint's inscribed disc), against which no "
      "collision-free run scores below 1. `min clearance` is the smallest footprint-to-wall distance "
      "of any run in the group; `time in danger` the fraction of the path or trajectory "
      "whose footprint is closer to a wall than 10% of the footprint's inscribed radius "
      "(in metres, so it compares across resolutions). Compute time is the method's own "
      "thread CPU time (the planner, or the whole simulation for agents), numba "
      "compilation excluded; times are measured and reported, never a verdict. Files: `summary.csv` (these tables), "
      "`results.jsonl` (every run), `ompl/*.log` (OMPL benchmark logs for Planner "
      "Arena's `ompl_benchmark_statistics.py`).\n\n")
    if figs:
        w("## Figures\n\n")
        for name, p in figs.items():
            w(f"![{name}]({p.relative_to(d).as_posix()})\n\n")
    footprints = sorted({s["footprint"] for s in summary})
    w(_glance(summary, footprints, glance))
    for fp in footprints:
        part = [s for s in summary if s["footprint"] == fp]
        part.sort(key=lambda s: (s["kind"], s["method"], s.get("setting", ""), s["corridor"]))
        w(f"## Footprint {fp}\n\n{_md_table(part)}\n\n")
    w(_research_sections(rows, d, figures=bool(figs)))  # safety vs noise, micromouse
    if any(s["no_path"] for s in summary):
        corridors = sorted({s["corridor"] for s in summary})
        w("## No collision-free path\n\nRuns (over all planners and agents) in which the "
          "footprint found no collision-free way through the corridors at that widening "
          "level: a result, not an error.\n\n")
        w("| footprint | " + " | ".join(f"corridor {c}" for c in corridors) + " |\n")
        w("|---|" + "---|" * len(corridors) + "\n")
        settings = sorted({s.get("setting", "") for s in summary})
        for fp, setting in ((fp, st) for fp in footprints for st in settings):
            cells = []
            for c in corridors:
                part = [s for s in summary if s["footprint"] == fp and s["corridor"] == c
                        and s.get("setting", "") == setting]
                cells.append(f"{sum(s['no_path'] for s in part)}/{sum(s['runs'] for s in part)}"
                             if part else "")
            if any(cells):
                w(f"| {fp}{f' ({setting})' if setting else ''} | " + " | ".join(cells) + " |\n")
        w("\n")
    if examples:
        corridors = sorted({c for _, _, c in examples})
        w("## Example runs\n\nOne run per planner (or agent) and widening level, all of the "
          "same maze (generator, seed and footprint) where it ran, so each row shows one "
          "maze widening; each picture's title names its footprint.\n\n")
        w("| method | " + " | ".join(f"corridor {c}" for c in corridors) + " |\n")
        w("|---|" + "---|" * len(corridors) + "\n")
        for kind, method in sorted({(k, m) for k, m, _ in examples}):
            label = f"{method}{_KIND_WORD.get(kind, '')}"
            cells = [f"![{label} {c}]({examples[(kind, method, c)].relative_to(d).as_posix()})"
                     if (kind, method, c) in examples else "" for c in corridors]
            w(f"| {label} | " + " | ".join(cells) + " |\n")
        w("\n")
    return out.getvalue()
