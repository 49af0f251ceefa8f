"""Check a results directory against the claims a reviewer would test (issues 34 and 39).

Run: ``python benchmarks/check_research_claims.py DIR [DIR ...]`` on the
results of shipped sweeps (``robomaze bench pkg:scenarios/default.toml -o
DIR``, ``narrow_passages.toml``, ...). For each directory it prints one JSON
line and exits 1 when any check fails:

- ``first_solution_after_compute``: rows whose ``first_solution_s`` exceeds
  their ``timings.compute_s`` (one clock: must be 0);
- ``progress_past_run``: OMPL progress samples past their run's time, in
  the database OMPL's own ``ompl_benchmark_statistics.py`` builds from
  ``DIR/ompl/*.log`` (must be 0; skipped without OMPL logs);
- ``rect_clearance_disagree_1mm``: successful rectangle / polygon rows whose
  ``min_clearance`` and ``arc_clearance_min`` differ by more than 1 mm;
- ``below_lower_bound``: successful rows whose ``lower_bound_ratio`` is
  below ``1 - 1e-6``;
- ``sentence_contradictions``: "no significant difference" claims of the
  report's sentences that their own test contradicts (raw p < 1e-3 and
  ``|r| > 0.5``; :func:`robomaze.bench.report_stats.sentence_contradictions`);
- ``length_ratio_below_1``: rows below 1 against the best-known reference
  (allowed for rectangles, whose reference is only an upper bound; listed).
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

from robomaze.bench import stats as S
from robomaze.bench.report_stats import glance_sentences, sentence_contradictions
from robomaze.bench.store import read_rows


def check(d: Path) -> dict:
    rows = read_rows(d)
    out: dict = {"dir": str(d), "rows": len(rows)}
    out["first_solution_after_compute"] = sum(
        1 for r in rows if (r.get("metrics") or {}).get("first_solution_s") is not None
        and r["metrics"]["first_solution_s"] > (r.get("timings") or {}).get("compute_s", 0.0))
    logs = sorted((d / "ompl").glob("*.log")) if (d / "ompl").is_dir() else []
    if logs:
        with tempfile.TemporaryDirectory() as tmp:
            db = Path(tmp) / "bench.db"
            subprocess.run([sys.executable, "-m", "ompl.ompl_benchmark_statistics", "-d",
                            str(db), *map(str, logs)], check=True, capture_output=True)
            con = sqlite3.connect(db)
            out["progress_samples"] = con.execute("SELECT COUNT(*) FROM progress").fetchone()[0]
            out["progress_past_run"] = con.execute(
                "SELECT COUNT(*) FROM progress g JOIN runs r ON g.runid = r.id "
                "WHERE g.time > r.time").fetchone()[0]
            con.close()
    rect = [r for r in rows if r.get("success") and r.get("kind") in ("plan", "simulate")
            and not str(r.get("footprint", "")).startswith("disc")]
    out["rect_success_rows"] = len(rect)
    out["rect_clearance_disagree_1mm"] = sum(
        1 for r in rect if r["metrics"].get("min_clearance") is not None
        and r["metrics"].get("arc_clearance_min") is not None
        and abs(r["metrics"]["min_clearance"] - r["metrics"]["arc_clearance_min"]) > 1e-3)
    lbr = [r["metrics"]["lower_bound_ratio"] for r in rows if r.get("success")
           and (r.get("metrics") or {}).get("lower_bound_ratio") is not None]
    out["lower_bound_rows"] = len(lbr)
    out["min_lower_bound_ratio"] = min(lbr) if lbr else None
    out["below_lower_bound"] = sum(v < 1 - 1e-6 for v in lbr)
    out["length_ratio_below_1"] = sum(
        1 for r in rect if (r["metrics"].get("length_ratio") or 2.0) < 1.0)
    tests = S.paired_tests(rows)
    sentences = glance_sentences(tests, S.median_intervals(rows))
    out["tests"] = len(tests)
    out["sentence_contradictions"] = len(sentence_contradictions(tests, sentences))
    out["ok"] = not (out["first_solution_after_compute"] or out.get("progress_past_run")
                     or out["rect_clearance_disagree_1mm"] or out["below_lower_bound"]
                     or out["sentence_contradictions"])
    return out


def main(argv: list[str]) -> int:
    ok = True
    for d in argv:
        res = check(Path(d))
        ok &= res["ok"]
        print(json.dumps(res), flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
