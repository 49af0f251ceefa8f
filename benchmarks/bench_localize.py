"""Localisation benchmarks: the MCL update rate, and what localising costs per simulated step.

Run: ``python benchmarks/bench_localize.py [--reps 5]``; prints tables and
writes ``benchmarks/results/localize.json``. Every figure is the median of
``--reps`` interleaved repetitions (the contenders alternate inside each
repetition, so load changes hit them alike); the load average is recorded
before and after.

1. **MCL update rate**: the odometry and scans of a ``follow_plan`` run
   (kruskal 6x6, corridor 5, resolution 0.1 m, disc 0.15 m, lidar, odometry
   noise ``gaussian:0.02+drift:0.02``) replayed through ``MCL`` with the
   particle count pinned to 500 (``min = max = init = 500``) and 36 beams:
   full updates (motion model, likelihood field, KLD/low-variance
   resampling, cluster estimate) per second, and particle x beam
   likelihood evaluations per second. Peer: the same likelihood field
   evaluated with vectorised numpy (one ``(500, 36)`` array pass, same
   formula and field), the form a numpy-only filter would take.
2. **Cost per simulated step**: ``simulate`` of ``follow_plan`` (with
   MCL) and ``explore`` (with SLAM) on seeds 1-3 of the same maze, ideal
   odometry so the runs follow the same route whatever the localizer,
   against ``localize="none"``: wall-clock per step of the whole run
   (agent, localizer, simulator, metrics) and the ratio, and the same in
   CPU time of the process (``time.process_time``), which a crowded
   machine inflates less than the wall clock.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from pathlib import Path

import numpy as np

from robomaze import widen
from robomaze.generate import generate
from robomaze.geometry import Footprint
from robomaze.localize import MCL
from robomaze.localize.mcl import beam_subset
from robomaze.sense import lidar
from robomaze.sim import simulate

NOISE = "gaussian:0.02+drift:0.02"


def _grid(seed: int):
    return widen(generate("kruskal", 6, 6, rng=seed, placement="corners"), corridor=5, wall=1,
                 resolution=0.1)


def numpy_weights(particles, field, ranges, angles, range_min, range_max, z_hit, z_rand, sigma):
    """Nav2's likelihood-field weights, vectorised over particles and beams (the peer)."""
    ok = np.isfinite(ranges) & (ranges < range_max) & (ranges > range_min)
    r, a = ranges[ok], angles[ok]
    ang = particles[:, 2:3] + a[None, :]
    ex = particles[:, 0:1] + r * np.cos(ang)
    ey = particles[:, 1:2] + r * np.sin(ang)
    vals, sres = field.values, field.sres
    nr, nc = vals.shape
    c = np.floor(ex / sres).astype(np.int64)
    rr = nr - 1 - np.floor(ey / sres).astype(np.int64)
    inside = (c >= 0) & (c < nc) & (rr >= 0) & (rr < nr)
    z = np.full(ex.shape, field.max_dist)
    z[inside] = vals[rr[inside], c[inside]]
    pz = z_hit * np.exp(-z * z / (2 * sigma * sigma)) + z_rand / range_max
    return 1.0 + (pz ** 3).sum(axis=1)


def bench_mcl(reps: int) -> dict:
    g = _grid(1)
    s = lidar()
    run = simulate(g, footprint=Footprint.disc(0.15), agent="follow_plan", rng=1,
                   odometry_noise=NOISE, localize="mcl", record_scans=True)
    # replay the scans against the *odometry* the agent saw: rebuild it with the env's noise
    from robomaze.sim import Robot, SimEnv

    env = SimEnv(g, Robot(Footprint.disc(0.15), sensors=[s]), dt=0.05, odometry_noise=NOISE)
    gen = np.random.default_rng(1)
    env_seed = int(gen.integers(2 ** 63, size=2)[0])
    env.reset(seed=env_seed)
    odom = [env.odometry_pose]
    for cmd in run.trajectory.commands[1:]:
        env.step(tuple(cmd))
        odom.append(env.odometry_pose)
    scans = run.trajectory.scans
    pairs = list(zip(odom[:-1], odom[1:], scans[1:]))
    idx, _, _, _ = beam_subset(s, 36)

    def one_filter():
        f = MCL(g, s, run.trajectory.poses[0], rng=0, init_particles=500, min_particles=500,
                max_particles=500)
        t, c = time.perf_counter(), time.process_time()
        for o0, o1, sc in pairs:
            f._filter(o0, o1, sc)
        return ((time.perf_counter() - t) / len(pairs),
                (time.process_time() - c) / len(pairs))

    f0 = MCL(g, s, run.trajectory.poses[0], rng=0, init_particles=500, min_particles=500,
             max_particles=500)
    parts = f0.particles + np.random.default_rng(2).normal(0, 0.05, f0.particles.shape)
    from robomaze.localize import _kernels

    mount, cos_b, sin_b = f0._beams[1:]
    table, far = f0.field.beam_table(z_hit=0.9, z_rand=0.1, sigma=0.05, range_max=s.range_max)
    fargs = f0.field.kernel_args[1:5]
    sub = [np.ascontiguousarray(sc[idx]) for sc in scans[1:]]
    angles = s.angles[idx]

    def kernel():
        w = np.empty(len(parts))
        t = time.perf_counter()
        for r in sub:
            _kernels.likelihood_weights(parts, table, *fargs, far, mount, cos_b, sin_b, r,
                                        s.range_min, s.range_max, w)
        return (time.perf_counter() - t) / len(sub)

    def numpy_peer():
        t = time.perf_counter()
        for r in sub:
            numpy_weights(parts, f0.field, r, angles, s.range_min, s.range_max, 0.9, 0.1, 0.05)
        return (time.perf_counter() - t) / len(sub)

    one_filter(), kernel(), numpy_peer()          # JIT warm-up
    full, kern, peer, cpu = [], [], [], []
    for _ in range(reps):
        wall, proc = one_filter()
        full.append(wall)
        cpu.append(proc)
        kern.append(kernel())
        peer.append(numpy_peer())
    w = np.empty(len(parts))
    _kernels.likelihood_weights(parts, table, *fargs, far, mount, cos_b, sin_b, sub[10],
                                s.range_min, s.range_max, w)
    agree = float(np.max(np.abs(w - numpy_weights(parts, f0.field, sub[10], angles, s.range_min,
                                                  s.range_max, 0.9, 0.1, 0.05))))
    full_s, kern_s, peer_s = (statistics.median(x) for x in (full, kern, peer))
    return {"updates": len(pairs), "particles": 500, "beams": 36,
            "update_s": full_s, "updates_per_s": 1 / full_s,
            "update_cpu_s": statistics.median(cpu),
            "particle_beams_per_s_update": 500 * 36 / full_s,
            "likelihood_s": kern_s, "likelihood_particle_beams_per_s": 500 * 36 / kern_s,
            "numpy_likelihood_s": peer_s,
            "numpy_likelihood_particle_beams_per_s": 500 * 36 / peer_s,
            "numba_vs_numpy": peer_s / kern_s, "max_weight_difference": agree}


def bench_steps(reps: int) -> dict:
    cases = [("follow_plan", "mcl"), ("explore", "slam")]
    grids = {s: _grid(s) for s in (1, 2, 3)}

    def run(agent, loc):
        steps = 0
        t, c = time.perf_counter(), time.process_time()
        for seed, g in grids.items():
            r = simulate(g, footprint=Footprint.disc(0.15), agent=agent, rng=seed, localize=loc)
            steps += r.metrics["steps"]
        return (time.perf_counter() - t) / steps, (time.process_time() - c) / steps, steps

    for agent, loc in cases:                      # warm-up (JIT, caches)
        run(agent, "none"), run(agent, loc)
    out = {}
    for agent, loc in cases:
        base, withloc, cbase, cloc = [], [], [], []
        for _ in range(reps):
            b, cb, nb = run(agent, "none")
            w, cw, nw = run(agent, loc)
            base.append(b)
            withloc.append(w)
            cbase.append(cb)
            cloc.append(cw)
        b, w = statistics.median(base), statistics.median(withloc)
        cb, cw = statistics.median(cbase), statistics.median(cloc)
        out[f"{agent}+{loc}"] = {"steps_none": nb, "steps_localized": nw,
                                 "s_per_step_none": b, "s_per_step_localized": w,
                                 "localizer_s_per_step": w - b, "ratio": w / b,
                                 "cpu_s_per_step_none": cb, "cpu_s_per_step_localized": cw,
                                 "cpu_ratio": cw / cb}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args()
    load0 = os.getloadavg()
    mcl = bench_mcl(args.reps)
    steps = bench_steps(args.reps)
    load1 = os.getloadavg()
    print(f"## MCL, 500 particles x 36 beams, {mcl['updates']} updates of a follow_plan run")
    print("| what | time per update (ms) | updates/s | particle-beams/s |")
    print("|---|---:|---:|---:|")
    print(f"| full update (motion, likelihood, resample, estimate) | {1e3 * mcl['update_s']:.3f} | "
          f"{mcl['updates_per_s']:,.0f} | {mcl['particle_beams_per_s_update']:,.0f} |")
    print(f"| full update, CPU time of this process | {1e3 * mcl['update_cpu_s']:.3f} | "
          f"{1 / mcl['update_cpu_s']:,.0f} | {500 * 36 / mcl['update_cpu_s']:,.0f} |")
    print(f"| likelihood field, numba kernel | {1e3 * mcl['likelihood_s']:.3f} | "
          f"{1 / mcl['likelihood_s']:,.0f} | {mcl['likelihood_particle_beams_per_s']:,.0f} |")
    print(f"| likelihood field, vectorised numpy (peer) | {1e3 * mcl['numpy_likelihood_s']:.3f} | "
          f"{1 / mcl['numpy_likelihood_s']:,.0f} | "
          f"{mcl['numpy_likelihood_particle_beams_per_s']:,.0f} |")
    print(f"numba vs numpy: {mcl['numba_vs_numpy']:.1f}x; max |weight difference| "
          f"{mcl['max_weight_difference']:.2e}")
    print()
    print("## cost per simulated step (whole simulate run, seeds 1-3, ideal odometry)")
    print("| agent + localizer | steps | none (us/step) | localized (us/step) | ratio "
          "| CPU none (us/step) | CPU localized (us/step) | CPU ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for k, v in steps.items():
        print(f"| {k} | {v['steps_localized']} | {1e6 * v['s_per_step_none']:.1f} | "
              f"{1e6 * v['s_per_step_localized']:.1f} | {v['ratio']:.2f}x | "
              f"{1e6 * v['cpu_s_per_step_none']:.1f} | {1e6 * v['cpu_s_per_step_localized']:.1f} | "
              f"{v['cpu_ratio']:.2f}x |")
    print(f"\nload average before {load0[0]:.2f}, after {load1[0]:.2f}")
    out = Path(__file__).resolve().parent / "results" / "localize.json"
    out.parent.mkdir(exist_ok=True)
    import numba
    out.write_text(json.dumps({
        "mcl": mcl, "steps": steps, "reps": args.reps,
        "load_before": load0, "load_after": load1,
        "machine": {"python": platform.python_version(), "numpy": np.__version__,
                    "numba": numba.__version__, "cpus": os.cpu_count()},
    }, indent=2))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
