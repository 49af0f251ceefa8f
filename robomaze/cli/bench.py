"""``robomaze bench``: run a sweep, report on it, compare two result sets."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import ParameterError
from ._args import add_command

EPILOG = """\
forms:
  robomaze bench [SWEEP.toml] -o DIR [--workers N] [--executor local|dask --scheduler ADDR]
      run every scenario of the sweep (default: the embedded default sweep)
      in parallel, appending one JSON line per run to DIR/results.jsonl;
      rerunning on the same DIR resumes (finished runs are skipped;
      --retry-failed runs the failed ones again); the report is written
      to DIR/report.md at the end
  robomaze bench report DIR
      (re)write DIR/report.md, DIR/summary.csv, DIR/figures/, DIR/examples/
      and DIR/ompl/*.log (OMPL benchmark logs for Planner Arena)
  robomaze bench compare BASELINE CURRENT [--fail-on-time R] [--rel-tol T] [--min-share F]
                         [--no-rerun] [--plugins P]
      compare deterministic metrics run by run; exit 0 clean, 1 on a
      regression, 3 inconclusive (fewer than 95% of the baseline's runs
      compared); runs that hit the wall-clock safety net are re-run once,
      serially, warm, with a CPU budget from the baseline's own time: a
      re-run that hangs is a regression, one the machine starves inconclusive
  robomaze bench show DIR [ROW_ID]
      list the rows (id, method, widening, footprint, seed, outcome), or print
      the CLI command and the Python lines that re-create one row
  robomaze bench rerun DIR ROW_ID [--plugins P]
      re-run one row here (kernels warmed first); exit 0 when every
      deterministic field equals the stored row, 1 with a field-by-field
      diff otherwise, 3 when the machine starved the re-run (inconclusive)
  robomaze bench export DIR -o FILE.parquet|FILE.csv|FILE.tar.gz|FILE.zip
      one row per run (the results schema: docs/results.md), for pandas,
      R, SQL or a spreadsheet (robomaze.bench.load; needs robomaze[data]);
      .tar.gz/.zip: a self-describing archive a reader opens without
      robomaze -- rows (JSON lines and Parquet), the column schema, the
      sweep file and sweep.json, versions, MANIFEST.json with checksums

plugins run arbitrary Python: a sweep's `plugins = [...]` (modules or .py files
beside the sweep) and $ROBOMAZE_PLUGINS are imported, with your rights, by this
process and by every worker before any run; use only sweeps you trust. A
results folder is data: `rerun` and `compare` never import the plugins its rows
name; pass them again (--plugins, $ROBOMAZE_PLUGINS) to re-run such rows.

DIR is robomaze's own: a new or empty directory, or one an earlier sweep wrote
(an existing file or a folder of other files is refused); one writer at a time
(a second sweep or report stops naming the running one); exit status 1 when
every run of the sweep failed, 3 when every run hit the wall-clock safety net
(inconclusive: the rows are written), 2 on bad input (checked before any run).

examples:
  robomaze bench -o results
  robomaze bench scenarios/ci.toml -o ci-results --workers 2
  robomaze bench compare benchmarks/baselines/ci ci-results
"""


def register(subparsers) -> None:
    p = add_command(subparsers, "bench", help="benchmark planners and agents over a sweep",
                    description="Sweep widening levels, footprints, planners and agents; "
                                "report length and safety; guard regressions.",
                    epilog=EPILOG)
    p.add_argument("args", nargs="*",
                   metavar="SWEEP | report DIR | compare BASE CUR | show DIR ID | rerun DIR ID | "
                           "export DIR",
                   help="a sweep file, or 'report DIR', 'compare BASELINE CURRENT', "
                        "'show DIR ROW_ID', 'rerun DIR ROW_ID' or 'export DIR -o FILE'")
    p.add_argument("-o", "--output", metavar="DIR", default=None,
                   help="result directory of a sweep (default: results)")
    p.add_argument("--workers", type=int, default=None,
                   help="local worker processes (default: all usable cores)")
    p.add_argument("--executor", choices=("local", "dask"), default="local")
    p.add_argument("--scheduler", metavar="ADDR", default=None,
                   help="dask.distributed scheduler address, e.g. tcp://host:8786")
    p.add_argument("--retry-failed", action="store_true",
                   help="run again the runs that failed (error or time limit) in DIR")
    p.add_argument("--no-report", action="store_true", help="do not write the report after the sweep")
    p.add_argument("--no-examples", action="store_true",
                   help="skip the per-planner example pictures in the report")
    p.add_argument("--max-runs", type=int, default=None, metavar="N",
                   help="refuse sweeps of more than N runs, counted before expanding them "
                        "(default 100,000)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.add_argument("--fail-on-time", type=float, metavar="R", default=None,
                   help="compare: fail when runs got R times slower (geometric mean)")
    p.add_argument("--rel-tol", type=float, default=None,
                   help="compare: relative tolerance of float metrics (default 1e-6)")
    p.add_argument("--min-share", type=float, default=None, metavar="F",
                   help="compare: share of the baseline's runs that must be compared, not "
                        "inconclusive (default 0.95); fewer exit 3")
    p.add_argument("--no-rerun", action="store_true",
                   help="compare: do not re-run the runs that hit the safety net (they stay "
                        "inconclusive)")
    p.add_argument("--plugins", action="append", default=None, metavar="MODULE|FILE.py",
                   help="rerun/compare: import this plugin for re-runs (repeat for more); the "
                        "plugins a results folder names are never imported unless given again")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    pos = list(args.args)
    if pos and pos[0] == "report":
        if len(pos) != 2:
            raise ParameterError("usage: robomaze bench report DIR")
        return _report(Path(pos[1]), examples=not args.no_examples)
    if pos and pos[0] == "export":
        if len(pos) != 2 or not args.output:
            raise ParameterError("usage: robomaze bench export DIR -o "
                                 "FILE.parquet|FILE.csv|FILE.tar.gz|FILE.zip")
        return _export(Path(pos[1]), args.output)
    if pos and pos[0] == "compare":
        if len(pos) != 3:
            raise ParameterError("usage: robomaze bench compare BASELINE CURRENT")
        return _compare(pos[1], pos[2], args)
    if pos and pos[0] == "show" and len(pos) == 2:
        return _list_rows(pos[1])
    if pos and pos[0] in ("show", "rerun"):
        if len(pos) != 3:
            raise ParameterError(f"usage: robomaze bench {pos[0]} DIR ROW_ID")
        return _show(pos[1], pos[2]) if pos[0] == "show" else _rerun(pos[1], pos[2], args)
    if len(pos) > 1:
        raise ParameterError(f"expected one sweep file, got {len(pos)} arguments: {' '.join(pos)}")
    if args.fail_on_time is not None or args.rel_tol is not None or args.min_share is not None \
            or args.no_rerun:
        raise ParameterError("--fail-on-time, --rel-tol, --min-share and --no-rerun belong to "
                             "'robomaze bench compare'")
    if args.plugins:
        raise ParameterError("--plugins belongs to 'robomaze bench rerun' and 'bench compare' "
                             "(a sweep names its plugins in its file)")
    return _run(pos[0] if pos else None, args)


def _run(sweep_file: str | None, args) -> int:
    from ..bench import default_sweep_path, load_sweep, run_sweep

    if args.executor == "dask" and not args.scheduler:
        raise ParameterError("--executor dask needs --scheduler ADDR")
    if args.scheduler and args.executor != "dask":
        raise ParameterError("--scheduler is only used with --executor dask")
    path = Path(sweep_file) if sweep_file else default_sweep_path()
    from ..bench import traffic as _traffic_kind

    if _traffic_kind.is_traffic_sweep(_resolved(path)):
        return _run_traffic(path, args)
    if args.max_runs is not None and args.max_runs < 1:
        raise ParameterError(f"--max-runs must be an integer >= 1, got {args.max_runs}")
    sweep = load_sweep(path, max_runs=args.max_runs)
    out = Path(args.output or "results")
    from ..bench.files import check_not_linked

    check_not_linked(out)                  # before anything is said or written
    source = portable_source(path)
    n = len(sweep.scenarios)
    phases = "" if args.quiet else (" (1/3 workers start, compiling kernels on a first run; "
                                    "2/3 runs; 3/3 report)")

    def ready() -> None:                   # said once the output has passed its checks
        print(f"robomaze bench: {n} runs from {source} -> {out}{phases}", file=sys.stderr)

    try:
        result = run_sweep(sweep.scenarios, out, workers=args.workers, executor=args.executor,
                           scheduler=args.scheduler, progress=not args.quiet,
                           retry_failed=args.retry_failed, on_ready=ready,
                           meta={"name": sweep.name, "description": sweep.description,
                                 "source": source})
    except KeyboardInterrupt:  # a real Ctrl-C of this process (runs' own are rows)
        print(f"\nrobomaze bench: interrupted; finished runs are kept in "
              f"{out / 'results.jsonl'}: rerun the same command to resume", file=sys.stderr)
        raise
    print(f"robomaze bench: {result.ran} ran, {result.skipped} already done (resumed), "
          f"{result.failed} failed; results in {out / 'results.jsonl'}", file=sys.stderr)
    if not args.no_report:
        if not args.quiet:
            print(f"robomaze bench: 3/3 writing the report into {out}", file=sys.stderr)
        _report(out, examples=not args.no_examples, timed=not args.quiet)
    return _all_failed_status(sweep.scenarios, out)


def _all_failed_status(scenarios, out: Path) -> int:
    """1 (with the first error on stderr) when every run of the sweep failed, else 0;
    3 (inconclusive) when every failed run hit the wall-clock safety net: the
    rows are written, and ``bench compare`` decides what they mean."""
    from ..bench import read_rows

    order = {sc.id: i for i, sc in enumerate(scenarios)}
    rows = sorted((r for r in read_rows(out) if r["id"] in order), key=lambda r: order[r["id"]])
    failed = [r for r in rows if r.get("status") != "ok"]
    if not rows or len(failed) < len(rows):
        return 0
    first = failed[0]
    if all(r.get("status") in ("infra_timeout", "timeout") for r in failed):
        print(f"robomaze bench: every run hit the wall-clock safety net ({len(failed)} of "
              f"{len(rows)}): inconclusive; the rows are written, compare them with "
              "'robomaze bench compare'", file=sys.stderr)
        return 3
    print(f"robomaze bench: every run failed ({len(failed)} of {len(rows)}); first error, "
          f"{first.get('method')} run {first['id']}: {first.get('reason') or first.get('status')}",
          file=sys.stderr)
    return 1


def portable_source(path: Path) -> str:
    """A sweep file as reports and ``sweep.json`` name it: ``pkg:...`` for the
    package's own, relative to the current folder when under it, else its
    name (no machine path in any output).

    >>> from robomaze.bench import default_sweep_path
    >>> portable_source(default_sweep_path()), portable_source(Path("/elsewhere/my.toml"))
    ('pkg:scenarios/default.toml', 'my.toml')
    """
    from ..bench.run import portable_base_dir

    folder = portable_base_dir(str(Path(path).parent))
    if folder.startswith("pkg:"):
        return f"{folder}/{Path(path).name}"
    p = Path(path)
    if not p.is_absolute():
        return p.as_posix()
    try:
        return p.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except (ValueError, OSError):
        return p.name


def _report(directory: Path, *, examples: bool = True, timed: bool = False) -> int:
    import time

    from ..bench import write_report

    if _is_traffic_dir(directory):
        from ..bench import traffic as T

        print(f"report: {T.write_report(directory)}")
        return 0

    t0 = time.monotonic()
    written = write_report(directory, examples=examples)
    if timed:
        print(f"robomaze bench: report written in {time.monotonic() - t0:.1f} s",
              file=sys.stderr)
    print(f"report: {written['report']}")
    print(f"summary: {written['summary']}")
    return 0


def _list_rows(directory: str) -> int:
    from ..bench.compare import load_rows

    if _is_traffic_dir(directory):
        from ..bench import traffic as T

        print(f"{'id':12}  {'robots':>6}  {'corridor':>8}  {'obstacles':>9}  {'assignment':10}  "
              f"{'seed':>5}  outcome")
        for r in T.read_rows(directory):
            a = r["axes"]
            print(f"{r['id']:12}  {a['robots.count']:>6}  {a['corridor']:>8}  "
                  f"{a['obstacles.count']:>9}  {a['run.assignment']:10}  {a['seed']:>5}  "
                  f"{r.get('outcome')}")
        return 0
    rows = load_rows(directory, "results")
    print(f"{'id':12}  {'kind':8}  {'method':18}  {'corridor':>8}  {'footprint':18}  "
          f"{'seed':>5}  outcome")
    for r in rows:
        print(f"{r['id']:12}  {str(r.get('kind')):8}  {str(r.get('method')):18}  "
              f"{str(r.get('corridor')):>8}  {str(r.get('footprint')):18}  "
              f"{str(r.get('seed')):>5}  {r.get('outcome', r.get('status'))}")
    return 0


def _resolved(path: Path) -> Path:
    from ..data import PREFIX, resolve

    return resolve(str(path)) if str(path).startswith(PREFIX) else path


def _run_traffic(path: Path, args) -> int:
    """A ``kind = "traffic"`` sweep (robomaze.bench.traffic)."""
    from ..bench import traffic as T

    rows = T.load_traffic_sweep(path)
    out = Path(args.output or "results")
    print(f"robomaze bench: {len(rows)} traffic runs from {path} -> {out}", file=sys.stderr)
    done = T.run_traffic_sweep(rows, out, workers=args.workers, progress=not args.quiet,
                               meta={"source": str(path)})
    if not args.no_report:
        print(f"robomaze bench: report in {T.write_report(out)}", file=sys.stderr)
    return 0 if any(r.get("status") == "ok" for r in done) else 1


def _is_traffic_dir(directory) -> bool:
    from ..bench.traffic import ROWS_FILE

    return (Path(directory) / ROWS_FILE).is_file()


def _show(directory: str, row_id: str) -> int:
    from ..bench.rerun import find_row, show_row

    if _is_traffic_dir(directory):
        from ..bench import traffic as T
        from ..bench.recreate_traffic import show_traffic_row
        from .traffic import spec_of_words

        print(show_traffic_row(T.find_row(directory, row_id), spec_of_words))
        return 0

    print(show_row(find_row(directory, row_id)))
    return 0


def _rerun(directory: str, row_id: str, args) -> int:
    from ..bench.rerun import describe_differences, find_row, rerun, row_differences

    if _is_traffic_dir(directory):
        from ..bench import traffic as T

        stored = T.find_row(directory, row_id)
        diffs = T.row_differences(stored, T.rerun_row(stored))
        if diffs:
            print(f"rerun {row_id}: {len(diffs)} field(s) differ: " + "; ".join(diffs))
            return 1
        print(f"rerun {row_id}: identical (outcome {stored['outcome']}, "
              f"{len(stored['metrics'])} metrics, {len(stored['robots'])} robots)")
        return 0
    stored = find_row(directory, row_id)
    r = rerun(stored, plugins=tuple(args.plugins or ()))
    if r.verdict == "starved":
        print(f"rerun {row_id}: inconclusive: the machine starved the re-run ({r.why})")
        return 3
    if r.verdict == "hang":
        print(f"rerun {row_id}: differs: the re-run never finished ({r.why}); stored "
              f"outcome {stored.get('outcome', stored.get('status'))}")
        return 1
    new = r.row
    diffs = row_differences(stored, new)
    if diffs:
        print(f"rerun {row_id}: {len(diffs)} deterministic field(s) differ from the stored row:")
        print(describe_differences(diffs))
        return 1
    m = new.get("metrics") or {}
    print(f"rerun {row_id}: identical ({len(m)} metrics, outcome {new.get('outcome')}, "
          f"length_m {m.get('length_m')!r}; compute {new['timings'].get('compute_s', 0):.4f} s "
          f"CPU, compile {new['timings'].get('compile_s', 0):.1f} s)")
    return 0


def _compare(baseline: str, current: str, args) -> int:
    from ..bench import compare_dirs
    from ..bench.compare import MIN_SHARE, REL_TOL, check_gate, check_share
    from ..bench.rerun import plugins_message

    rel_tol = args.rel_tol if args.rel_tol is not None else REL_TOL
    min_share = args.min_share if args.min_share is not None else MIN_SHARE
    check_gate(rel_tol=rel_tol, fail_on_time=args.fail_on_time)  # before reading anything
    check_share(min_share)
    res = compare_dirs(baseline, current, fail_on_time=args.fail_on_time, rel_tol=rel_tol,
                       min_share=min_share, plugins=tuple(args.plugins or ()),
                       rerun_timeouts=not args.no_rerun)
    if res.missing_plugins:
        print("robomaze bench compare: " + plugins_message(res.missing_plugins,
                                                           res.skipped_plugins), file=sys.stderr)
    print(res.table())
    return res.exit_code


def _export(directory: Path, output: str) -> int:
    from ..bench.archive import archive_kind, write_archive
    from ..bench.load import export

    if archive_kind(output):   # results, sweep, versions and a manifest in one file
        out = write_archive(directory, output)
    else:
        out = export(directory, output)
    print(f"export: {out}")
    return 0
