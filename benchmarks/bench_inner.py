"""What :func:`robomaze._compile.kernels.inner` saves per kernel (issue 32 item 4).

``inner`` compiles a kernel without its CPython and C wrappers. Whole cold
commands cannot show what that saves on a shared machine (tenths of a
second against +-2 s of noise at load 20), so this weighs it kernel by
kernel: it runs a command's stage tasks (:mod:`robomaze.cli._stages`, e.g.
``simulate --agent explore``) once so that every kernel has its types, then
compiles each ``inner`` kernel of the run again from its Python source,
eagerly, with the same signature, both ways -- ``inner``'s flags (no
wrappers) and a plain ``njit`` (both wrappers) -- in one process,
interleaved, ``--repeat`` times. Callees are compiled already and reused,
so each figure is the kernel's own compile (thread CPU), wrappers included
or not. The difference, summed over the kernels a command compiles, is what
``inner`` earns there.

Usage::

    python benchmarks/bench_inner.py [--repeat 5] [--spec explore|collision_free]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _inner_dispatchers():
    """(qualified name, dispatcher) of every compiled ``inner`` kernel loaded so far."""
    from numba.core.registry import CPUDispatcher

    seen = {}
    for mod in list(sys.modules.values()):
        if not getattr(mod, "__name__", "").startswith("robomaze"):
            continue
        for obj in list(vars(mod).values()):
            if (isinstance(obj, CPUDispatcher) and obj.targetoptions.get("no_cpython_wrapper")
                    and obj.signatures and id(obj) not in seen):
                seen[id(obj)] = (f"{obj.py_func.__module__}.{obj.py_func.__qualname__}", obj)
    return sorted(seen.values(), key=lambda kv: kv[0])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--spec", default="explore", choices=["explore", "collision_free"])
    ap.add_argument("--out", default=str(HERE / "results" / "inner.json"))
    args = ap.parse_args(argv)
    os.environ.setdefault("NUMBA_CACHE_DIR", tempfile.mkdtemp(prefix="rm-inner-"))
    sys.path.insert(0, str(HERE))
    import bench_compile_layer
    from numba import njit

    from robomaze.cli import _stages

    spec = dict(bench_compile_layer.TASK_SPECS)[f"tasks {args.spec.replace('_free', '_free rect')}"]
    for task in spec["tasks"]:
        _stages.TASKS[task](spec)
    kernels = _inner_dispatchers()
    flags = {"inner": {"no_cfunc_wrapper": True, "no_cpython_wrapper": True}, "plain": {}}
    times: dict = {name: {"inner": [], "plain": []} for name, _ in kernels}
    load = [os.getloadavg()[0]]
    for _ in range(args.repeat):
        for name, disp in kernels:
            for how, opts in flags.items():
                t = time.thread_time()
                for sig in disp.signatures:
                    njit(sig, cache=False, **opts)(disp.py_func)
                times[name][how].append(time.thread_time() - t)
        load.append(os.getloadavg()[0])
    rows = []
    for name, by in times.items():
        med = {how: statistics.median(v) for how, v in by.items()}  # all its signatures
        rows.append((name, med["inner"], med["plain"]))
    total_i = sum(r[1] for r in rows)
    total_p = sum(r[2] for r in rows)
    for name, ti, tp in rows:
        print(f"{name:55s} inner {ti * 1e3:7.1f} ms  plain {tp * 1e3:7.1f} ms  "
              f"saved {(tp - ti) * 1e3:6.1f} ms")
    print(f"{len(rows)} inner kernels of '{args.spec}': inner {total_i:.2f} s, plain {total_p:.2f} s, "
          f"saved {total_p - total_i:.2f} s of compile CPU ({100 * (total_p - total_i) / total_p:.0f}%); "
          f"medians of {args.repeat} interleaved compiles, load {min(load):.1f}-{max(load):.1f}")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({"spec": args.spec, "repeat": args.repeat, "load": load,
                                          "kernels": {n: [i, p] for n, i, p in rows}}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
