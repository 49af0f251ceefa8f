"""Monte Carlo localisation on a known map (AMCL).

:class:`MCL` is a particle filter over ``(x, y, theta)`` in the map frame:

* prediction -- :func:`~robomaze.localize.motion.sample_motion_odometry`
  with the odometry step since the last filter update;
* correction -- the likelihood-field range model of Nav2 AMCL
  (:func:`robomaze.localize._kernels.likelihood_weights`) on
  ``max_beams`` evenly spaced beams of the scan, the map's distance field
  from :func:`~robomaze.localize.field.likelihood_field`, with two
  departures from Nav2 that matter in narrow corridors (issue 34): an end
  point inside a wall scores its depth below the surface, not 0
  (``wall_depth``: Nav2's field let an estimate slide up to a wall's
  thickness towards the wall its beams hit, which a corridor 5 cm wider
  than the robot does not forgive), and a reading clipped at the sensor's
  ``range_min`` is an end point at ``range_min`` that may lie in the wall
  (``short_hits``: Nav2 drops it, although it is the beam that says which
  wall is near). On kruskal 10x10, corridor 3, disc 0.1 the two took
  ``follow_plan`` from 15/20 to 20/20 arrivals without contact;
* resampling -- low variance, KLD-adaptive count between ``min_particles``
  and ``max_particles``, and random-particle injection of augmented MCL
  (Probabilistic Robotics table 8.3): ``w_slow``/``w_fast`` follow the mean
  weight with rates ``alpha_slow``/``alpha_fast`` and a copy becomes a
  random free pose with probability ``max(0, 1 - w_fast / w_slow)``; after
  an injection both averages restart, as in Nav2 (``recovery_reset``).

Recovery from a kidnapping is weak in a maze, where many places look
alike. Nav2's restart injects one burst of random particles when the
weights drop; it rarely puts one near the true pose *and* heading, so a
robot carried 2 m unseen stays lost (tests/localize/test_localize_mcl.py).
Without the restart (``recovery_reset=False``, table 8.3 as written) the
filter injects on almost every update, because the fast average trails
the slow one whenever the weights jitter; in the same test it then finds
the robot at a distinctive place but also drifts to a look-alike one while
it should be tracking. Tracking is what the benchmark needs, so the
default is Nav2's.

Global relocalisation (``relocalize``, on by default) is what makes a
kidnapping recoverable, in the spirit of AMCL's ``recovery_alpha_slow`` /
``recovery_alpha_fast``. In a maze the particles' mean likelihood hardly
drops after a kidnapping (every corridor offers walls for the beams to
end on: -0.09 nats per beam tracking, -0.10 lost, in a 6x6 maze), so the
trigger is the scan seen from the estimate instead: the share of beams
whose range differs from a ray cast at the estimate by more than
``relocalize_tolerance``, averaged at rate ``alpha_fast``. When it stays
above ``relocalize_mismatch`` for ``relocalize_updates`` updates in a row
-- the scan no longer fits where the filter believes it is -- every
particle is replaced by
``global_particles`` poses uniform over the free space, the count may stay
that high until one cluster holds most of the weight, and the detection
rests for ``relocalize_rest`` updates. ``relocalizations`` counts them.

Going global is a *sensor reset*: ``global_candidates`` (50,000) uniform
free poses are scored against the current scan and the best
``global_particles`` become the cloud (Lenser and Veloso's sensor resetting
localisation; the dual proposal of mixture MCL), so a robot carried 2 m
is found in about 20 updates instead of 100-150.

Ambiguity is measured, not hidden. The cloud alone cannot keep it: once
resampling has let all but one of a symmetric room's look-alike copies
die out (the likelihood is sharply peaked, so the copy with the
best-placed particle takes the weight within a few updates) it is one
mode, although the answer may be a rotated copy. So every cluster of the
cloud that holds at least ``mode_weight`` of the weight away from the
estimate becomes a *hypothesis*, which outlives its particles: each update
it is moved by the odometry, refined by scan matching on the map (5 cm,
0.06 rad) and scored by the log of its beam likelihood over the
estimate's (the same beam model, the estimate refined alike), summed with
discount ``mode_memory``. A place that fits a little worse on every scan
falls below ``mode_drop`` and is dropped within tens of updates; an exact
copy stays near 0. ``ambiguity`` after every update is the larger of the
cloud's weight outside the estimate's cluster (particles farther than
``2 * cluster_radius``) and the hypotheses' share ``sum(r) / (1 +
sum(r))`` with ``r`` their likelihood ratios: 0 for one mode, 0.75 for a
square room's four copies. ``modes`` counts the estimate and its
hypotheses; ``ambiguity_history`` and ``mode_history`` keep one value per
update and ``loc_ambiguity_max`` the largest ambiguity after the first 10
updates. The tracker draws no random numbers: it leaves the particles,
and so the estimate, exactly as without it.

As in Nav2, the filter updates only after the odometry moved
``update_min_d`` metres or turned ``update_min_a`` radians; in between the
estimate is the last filter estimate carried along by the odometry (the
``map -> odom`` correction). The estimate is the weighted mean of the
particles before resampling (circular mean for the heading).

>>> from robomaze import Maze, widen
>>> from robomaze.sense import lidar
>>> g = widen(Maze.empty(1, 3), corridor=5, wall=1, resolution=0.1)
>>> f = MCL(g, lidar(n_beams=36), (0.35, 0.35, 0.0), rng=1)
>>> f.n_particles, f.estimate
(500, (0.35, 0.35, 0.0))
"""

from __future__ import annotations

import math

import numpy as np

from .._seed import as_rng

from .._validate import check_float, check_int
from ..errors import ParameterError
from ..grid import OccupancyGrid, clearance_field
from . import _kernels
from .field import likelihood_field
from .motion import check_alphas
from .pose import compose, relative
from .resample import DENSE_BINS, flat_keys, resample

__all__ = ["MCL", "beam_subset"]

#: Heading difference (rad) beyond which two poses at one place are two modes.
MODE_HEADING = 0.5


def _wrap(a: float) -> float:
    return (a + math.pi) % (2.0 * math.pi) - math.pi


def best_cluster_mean(particles: np.ndarray, weights: np.ndarray,
                      radius: float) -> tuple[float, float, float]:
    """Weighted mean of the particles within ``radius`` of the heaviest one's neighbourhood.

    The heaviest ``radius``-square bin of positions is found first; the
    particles within ``radius`` of its weighted mean are then averaged
    (circular mean for the heading). Like Nav2's estimate from its heaviest
    cluster, random particles elsewhere do not pull the estimate.

    >>> p = np.array([[0.0, 0.0, 0.0], [0.02, 0.0, 0.0], [3.0, 3.0, 1.0]])
    >>> [round(v, 3) for v in best_cluster_mean(p, np.array([0.4, 0.4, 0.2]), 0.2)]
    [0.01, 0.0, 0.0]
    """
    keys = np.floor(particles[:, :2] / radius).astype(np.int64)
    span = keys.max(axis=0) - keys.min(axis=0) + 1
    if int(np.prod(span)) <= DENSE_BINS:
        inv = flat_keys(keys)
    else:
        _, inv = np.unique(flat_keys(keys), return_inverse=True)
        inv = inv.reshape(-1)
    mass = np.bincount(inv, weights=weights)
    sel = inv == int(np.argmax(mass))
    w = weights[sel]
    cx = float(w @ particles[sel, 0]) / float(w.sum())
    cy = float(w @ particles[sel, 1]) / float(w.sum())
    near = np.hypot(particles[:, 0] - cx, particles[:, 1] - cy) <= radius
    w = weights[near]
    q = particles[near]
    tot = float(w.sum())
    return (float(w @ q[:, 0]) / tot, float(w @ q[:, 1]) / tot,
            math.atan2(float(w @ np.sin(q[:, 2])), float(w @ np.cos(q[:, 2]))))


def beam_subset(sensor, max_beams: int):
    """``(indices, mount, cos_b, sin_b)`` of at most ``max_beams`` evenly spaced beams."""
    n = sensor.n_beams
    step = max(1, int(math.ceil(n / max_beams)))
    idx = np.arange(0, n, step)
    mount, cos_b, sin_b, _, _ = sensor.kernel_args
    return idx, np.asarray(mount, float), np.ascontiguousarray(cos_b[idx]), \
        np.ascontiguousarray(sin_b[idx])


class MCL:
    """Adaptive Monte Carlo localisation (see the module docstring).

    Parameters
    ----------
    grid : OccupancyGrid
        The known map.
    sensor : RangeSensor
        The robot's range sensor (mount, beam angles, range limits).
    start : (x, y, theta)
        The initial pose estimate; the particles start Gaussian around it
        with ``init_sigma`` (metres, radians).
    rng : Generator, int or None
    init_particles : int
        Particles before the first resampling.
    min_particles, max_particles : int
        Bounds of the KLD-adaptive count.
    max_beams, z_hit, z_rand, sigma_hit, max_dist
        The likelihood-field model (Nav2 ``max_beams``, ``z_hit``,
        ``z_rand``, ``sigma_hit``, ``laser_likelihood_max_dist``).
    alphas : four floats
        The motion model's noise (:mod:`robomaze.localize.motion`). Below
        Nav2's 0.2 each: the filter updates every few centimetres, and
        ``alpha4`` (translation noise per squared radian) of 0.2 spreads
        the particles by centimetres on every turn in place.
    alpha_slow, alpha_fast : float
        Augmented MCL's averaging rates (0 and 0: no injection).
    update_min_d, update_min_a : float
        Odometry motion (m, rad) that triggers a filter update.
    init_sigma : (sx, sy, stheta)
        Spread of the initial particles.
    kld_err, kld_z, bin_size
        KLD sampling's epsilon, upper normal quantile and histogram bins
        (m, m, rad).
    field_factor : int
        Supersampling of the distance field (:mod:`robomaze.localize.field`).
    cluster_radius : float
        Size (m) of the cluster the estimate averages (:func:`best_cluster_mean`).
    recovery_reset : bool
        Restart ``w_slow``/``w_fast`` after an injection (Nav2; the default).
        False is table 8.3 as written: it keeps injecting while the fast
        average trails the slow one.
    relocalize : bool
        Global relocalisation when the scan likelihood collapses (see the
        module docstring).
    relocalize_mismatch, relocalize_tolerance, relocalize_updates
        Its trigger: the average share of beams that miss the map seen from
        the estimate by more than ``relocalize_tolerance`` metres, above
        ``relocalize_mismatch`` for ``relocalize_updates`` updates in a row.
    relocalize_rest, global_particles
        Updates the trigger rests after a relocalisation; its particle count.
    global_candidates : int
        Uniform free poses scored against the scan when the filter goes
        global; the ``global_particles`` best become the particles (0: the
        particles are the uniform poses themselves).
    global_start : bool
        Start globally (as after a relocalisation) instead of around
        ``start`` (global localisation).
    mode_weight, mode_drop, mode_memory, max_modes
        The look-alike tracker (see the module docstring): a cluster of the
        cloud holding at least ``mode_weight`` of the weight away from the
        estimate becomes a hypothesis; its log likelihood ratio to the
        estimate is summed over the updates with discount ``mode_memory``
        (about ``1 / (1 - mode_memory)`` updates of memory, so an exact
        copy's random walk stays bounded) and it is dropped when the ratio
        falls below ``mode_drop``; at most ``max_modes`` are kept.
    short_hits : bool
        Keep readings clipped at the sensor's ``range_min`` as end points
        at ``range_min`` (a wall at most that close) instead of dropping
        them as Nav2 does (see :meth:`_weigh`).
    wall_depth : bool
        Score a beam end point inside a wall by its depth below the
        surface (:func:`~robomaze.localize.field.likelihood_field` with
        ``inside="depth"``) instead of as on the wall (Nav2).
    """

    def __init__(self, grid: OccupancyGrid, sensor, start, *, rng=None,
                 init_particles: int = 500, min_particles: int = 100,
                 max_particles: int = 1000, max_beams: int = 36,
                 alphas=(0.1, 0.1, 0.1, 0.01), z_hit: float = 0.9, z_rand: float = 0.1,
                 sigma_hit: float = 0.05, max_dist: float = 2.0,
                 alpha_slow: float = 0.001, alpha_fast: float = 0.1,
                 update_min_d: float = 0.02, update_min_a: float = 0.05,
                 init_sigma=(0.02, 0.02, 0.02), kld_err: float = 0.05, kld_z: float = 2.326,
                 bin_size=(0.1, 0.1, math.radians(10)), field_factor: int = 4,
                 cluster_radius: float = 0.2, recovery_reset: bool = True,
                 relocalize: bool = True, relocalize_mismatch: float = 0.25,
                 relocalize_tolerance: float = 0.15,
                 relocalize_updates: int = 10, relocalize_rest: int = 30,
                 global_particles: int = 5000, global_candidates: int = 50_000,
                 global_start: bool = False, mode_weight: float = 0.05,
                 mode_drop: float = 0.25, mode_memory: float = 0.98,
                 max_modes: int = 8, short_hits: bool = True, wall_depth: bool = True) -> None:
        if not isinstance(grid, OccupancyGrid):
            raise ParameterError(f"grid must be an OccupancyGrid, got {type(grid).__name__}")
        self.grid = grid
        self.sensor = sensor
        self.rng = as_rng(rng)
        self.min_particles = check_int("min_particles", min_particles, min_value=1)
        self.max_particles = check_int("max_particles", max_particles,
                                       min_value=self.min_particles)
        init = check_int("init_particles", init_particles, min_value=1)
        self.alphas = check_alphas(alphas)
        self.z_hit = check_float("z_hit", z_hit, min_value=0.0)
        self.z_rand = check_float("z_rand", z_rand, min_value=0.0)
        self.sigma_hit = check_float("sigma_hit", sigma_hit, min_value=0.0, strict_min=True)
        self.alpha_slow = check_float("alpha_slow", alpha_slow, min_value=0.0, max_value=1.0)
        self.alpha_fast = check_float("alpha_fast", alpha_fast, min_value=0.0, max_value=1.0)
        self.update_min_d = check_float("update_min_d", update_min_d, min_value=0.0)
        self.update_min_a = check_float("update_min_a", update_min_a, min_value=0.0)
        self.kld_err = check_float("kld_err", kld_err, min_value=0.0, strict_min=True)
        self.kld_z = check_float("kld_z", kld_z, min_value=0.0)
        self.bin_size = tuple(check_float("bin_size", b, min_value=0.0, strict_min=True)
                              for b in bin_size)
        self.recovery_reset = bool(recovery_reset)
        self.short_hits = bool(short_hits)
        self.cluster_radius = check_float("cluster_radius", cluster_radius, min_value=0.0,
                                          strict_min=True)
        self.wall_depth = bool(wall_depth)
        self.field = likelihood_field(grid.occupied, grid.frame, factor=field_factor,
                                      max_dist=max_dist,
                                      inside="depth" if self.wall_depth else "zero")
        beam = dict(z_hit=self.z_hit, z_rand=self.z_rand, sigma=self.sigma_hit,
                    range_max=sensor.range_max)
        self._table = self.field.beam_table(**beam)
        self._short_table = self.field.beam_table(**beam, inside_zero=True)
        self._beams = beam_subset(sensor, check_int("max_beams", max_beams, min_value=1))
        # Random poses are drawn in the free cells.
        free = np.argwhere(clearance_field(grid.occupied) > 0)
        self._free_cells = free.astype(float)
        x, y, th = (float(v) for v in start[:3])
        s = [check_float("init_sigma", v, min_value=0.0) for v in init_sigma]
        self.particles = np.column_stack([
            x + s[0] * self.rng.standard_normal(init), y + s[1] * self.rng.standard_normal(init),
            th + s[2] * self.rng.standard_normal(init)])
        self.weights = np.full(init, 1.0 / init)
        self.relocalize = bool(relocalize)
        self.relocalize_mismatch = check_float("relocalize_mismatch", relocalize_mismatch,
                                               min_value=0.0, max_value=1.0)
        self.relocalize_tolerance = check_float("relocalize_tolerance", relocalize_tolerance,
                                                min_value=0.0, strict_min=True)
        self.relocalize_updates = check_int("relocalize_updates", relocalize_updates, min_value=1)
        self.relocalize_rest = check_int("relocalize_rest", relocalize_rest, min_value=0)
        self.global_particles = check_int("global_particles", global_particles, min_value=1)
        self.global_candidates = check_int("global_candidates", global_candidates, min_value=0)
        self.mode_weight = check_float("mode_weight", mode_weight, min_value=0.0,
                                       max_value=1.0, strict_min=True)
        self.mode_drop = check_float("mode_drop", mode_drop, min_value=0.0, max_value=1.0)
        self.max_modes = check_int("max_modes", max_modes, min_value=0)
        self.mode_memory = check_float("mode_memory", mode_memory, min_value=0.0,
                                       max_value=0.9999)
        self.hypotheses: list[list[float]] = []   # [x, y, theta, log ratio to the estimate]
        self.modes = 1
        self.mode_history: list[int] = []
        self._global_pending = False
        self.relocalizations = 0
        self.ambiguity = 0.0
        self.ambiguity_history: list[float] = []
        self._fit = None
        self.mismatch = 0.0
        self._low = 0
        self._rest = 0
        self._global = False
        if global_start:
            self._go_global()
            self._global_pending = self.global_candidates > 0   # scored at the first scan
        self.w_slow = self.w_fast = 0.0
        self.updates = 0
        self.injected = 0
        self._pose = (x, y, th)            # filter estimate at the last update
        self._odom_at_update = None        # odometry pose at the last update
        self.estimate = (x, y, th)

    @property
    def n_particles(self) -> int:
        return len(self.particles)

    def random_poses(self, n: int) -> np.ndarray:
        """``n`` poses uniform over the free cells, headings uniform."""
        cells = self._free_cells[self.rng.integers(len(self._free_cells), size=n)]
        cells = cells + self.rng.random((n, 2)) - 0.5
        xy = self.grid.frame.cells_to_world(cells)
        th = self.rng.uniform(-math.pi, math.pi, n)
        return np.column_stack([xy, th])

    def _go_global(self, ranges=None) -> None:
        """Particles spread over the free space; the count may stay high until one mode wins.

        With a scan and ``global_candidates``, ``global_candidates`` uniform
        free poses are scored against it and the ``global_particles`` best
        become the particles (a sensor reset in the spirit of Lenser and
        Veloso's sensor resetting localisation and the dual proposal of
        mixture MCL: a uniform cloud of 5,000 rarely has a particle near the
        true pose *and* heading in a maze, the best of 50,000 almost always
        does); otherwise ``global_particles`` uniform poses.
        """
        if ranges is not None and self.global_candidates > self.global_particles:
            cand = self.random_poses(self.global_candidates)
            w = self._likelihood(cand, ranges)
            # a stable sort: ties keep the order the generator drew them in
            keep = np.argsort(-w, kind="stable")[:self.global_particles]
            self.particles = np.ascontiguousarray(cand[keep])
        else:
            self.particles = self.random_poses(self.global_particles)
        self.weights = np.full(len(self.particles), 1.0 / len(self.particles))
        self._global = True

    def _likelihood(self, poses: np.ndarray, ranges) -> np.ndarray:
        """The beam model's weight of each pose for this scan (``1 + sum pz^3``)."""
        w = np.empty(len(poses))
        self._weigh(np.ascontiguousarray(poses, dtype=float), ranges, w)
        return w

    def _weigh(self, poses: np.ndarray, ranges, out: np.ndarray) -> None:
        """``1 + sum pz^3`` of each pose into ``out``.

        With ``short_hits`` a reading clipped at ``range_min`` (a wall closer
        than the sensor measures) is kept as an end point at ``range_min``,
        scored on a table where the inside of a wall counts as on it: that
        point lies in or behind the wall only for poses with a wall that
        close along the beam. Nav2 drops such readings; in a corridor 5 cm
        wider than the robot they are the beams that say which wall it is
        about to touch.
        """
        idx, mount, cos_b, sin_b = self._beams
        r = np.asarray(ranges, float)[idx]
        rmin, rmax = self.sensor.range_min, self.sensor.range_max
        args = self.field.kernel_args[1:5]
        table, far = self._table
        short = r <= rmin
        _kernels.likelihood_weights(poses, table, *args, far, mount, cos_b, sin_b,
                                    np.ascontiguousarray(r), rmin, rmax, out)
        if self.short_hits and short.any():
            extra = np.empty(len(poses))
            rs = np.where(short, rmin, np.nan)
            stable, sfar = self._short_table
            _kernels.likelihood_weights(poses, stable, *args, sfar, mount, cos_b, sin_b,
                                        np.ascontiguousarray(rs), -1.0, rmax, extra)
            out += extra - 1.0

    def _mismatch(self, ranges) -> float:
        """Share of the scan's beams that miss the map at the estimate by more than 0.15 m."""
        exp = self.sensor.cast_many(self.grid, np.array(self._pose, float))[0]
        r = np.asarray(ranges, float)
        rmax = self.sensor.range_max
        r = np.where(np.isfinite(r), r, rmax)
        both_far = (r >= rmax - 1e-9) & (exp >= rmax - 1e-9)
        bad = (np.abs(r - exp) > self.relocalize_tolerance) & ~both_far
        return float(bad.mean()) if len(bad) else 0.0

    def _watch(self, ranges) -> bool:
        """Update the scan-fit average; True when the filter should relocalise globally.

        The fit is the share of beams that disagree with the map seen from
        the estimate (a ray cast from it): near 0 while tracking, large
        once the robot is elsewhere. Its fast average must stay above
        ``relocalize_mismatch`` for ``relocalize_updates`` updates.
        """
        m = self._mismatch(ranges)
        self.mismatch = m
        self._fit = m if self._fit is None else self._fit + self.alpha_fast * (m - self._fit)
        if self._global:
            return False
        if self._rest > 0:
            self._rest -= 1
            return False
        self._low = self._low + 1 if self._fit > self.relocalize_mismatch else 0
        return self.relocalize and self._low >= self.relocalize_updates

    def update(self, odom, ranges) -> tuple[float, float, float]:
        """Feed one step's odometry pose and scan ranges; returns the pose estimate."""
        odom = (float(odom[0]), float(odom[1]), float(odom[2]))
        if self._odom_at_update is None:
            self._odom_at_update = odom
        d = relative(self._odom_at_update, odom)
        if math.hypot(d[0], d[1]) >= self.update_min_d or abs(d[2]) >= self.update_min_a:
            self._filter(self._odom_at_update, odom, ranges)
            self._odom_at_update = odom
            self.estimate = self._pose
        else:
            self.estimate = compose(self._pose, d)
        return self.estimate

    def _filter(self, odom0, odom1, ranges) -> None:
        if self._global_pending:
            self._global_pending = False
            self._go_global(ranges)
        p = self.particles
        normals = self.rng.standard_normal((len(p), 3))
        _kernels.sample_odometry(p, *odom0, *odom1, *self.alphas, normals)
        w = np.empty(len(p))
        self._weigh(p, ranges, w)
        w *= self.weights
        total = float(w.sum())
        w_avg = total / len(w)
        wn = w / total
        self.weights = wn
        self._pose = best_cluster_mean(p, wn, self.cluster_radius)
        far = np.hypot(p[:, 0] - self._pose[0], p[:, 1] - self._pose[1]) > 2 * self.cluster_radius
        cloud = float(wn[far].sum())
        self._track_modes(p, wn, far, cloud, relative(odom0, odom1), ranges)
        self.ambiguity = max(cloud, self._mode_ambiguity())
        self.ambiguity_history.append(self.ambiguity)
        self.mode_history.append(self.modes)
        if self._global and cloud < 0.5:
            self._global = False            # one mode holds most of the weight: tracking again
            self._fit = None
        lost = self._watch(ranges)
        if self.w_slow == 0.0:
            self.w_slow, self.w_fast = w_avg, w_avg
        else:
            self.w_slow += self.alpha_slow * (w_avg - self.w_slow)
            self.w_fast += self.alpha_fast * (w_avg - self.w_fast)
        p_random = max(0.0, 1.0 - self.w_fast / self.w_slow) if self.w_slow > 0 else 0.0
        if lost:
            self.relocalizations += 1
            self._low, self._rest = 0, self.relocalize_rest
            self.hypotheses = []
            self._go_global(ranges)
            self.w_slow = self.w_fast = 0.0
            self.updates += 1
            return
        self.particles = resample(p, wn, self.rng, n_min=self.min_particles,
                                  n_max=self.global_particles if self._global
                                  else self.max_particles, p_random=p_random,
                                  random_poses=self.random_poses, bin_size=self.bin_size,
                                  epsilon=self.kld_err, z=self.kld_z)
        self.weights = np.full(len(self.particles), 1.0 / len(self.particles))
        if p_random > 0.0:
            self.injected += 1
            if self.recovery_reset:
                self.w_slow = self.w_fast = 0.0
        self.updates += 1

    # -- look-alike tracking (ambiguity that survives resampling) ----------------------

    def _track_modes(self, p, wn, far, cloud, step, ranges) -> None:
        """Move, refine and score the look-alike hypotheses; add the cloud's other modes."""
        keep = []
        sep = 2 * self.cluster_radius

        def same(a, b) -> bool:
            # one mode: near in position *and* heading (a copy turned by a half
            # turn about a room's centre passes through the estimate's position)
            return math.hypot(a[0] - b[0], a[1] - b[1]) <= sep and \
                abs(_wrap(a[2] - b[2])) <= MODE_HEADING

        if self.hypotheses:
            hyp = np.array([compose(h[:3], step) for h in self.hypotheses], float)
            hyp = np.array([self._refine(h, ranges) for h in hyp], float)
            est = np.array([self._refine(self._pose, ranges)], float)
            w = self._likelihood(np.vstack([est, hyp]), ranges)
            ratio = np.log(w[1:] / w[0])
            for h, old, lr in zip(hyp, self.hypotheses, ratio):
                # discounted sum of log likelihood ratios: a look-alike stays near 0
                d = self.mode_memory * old[3] + float(lr)
                if d < math.log(max(self.mode_drop, 1e-300)):
                    continue                        # the scans say it is not there
                if same(h, self._pose):
                    continue                        # the estimate is on it
                if any(same(h, k) for k in keep):
                    continue
                keep.append([float(h[0]), float(h[1]), float(h[2]), d])
        if cloud >= self.mode_weight and len(keep) < self.max_modes:
            own = max(1.0 - cloud, 1e-12)        # the estimate's share of the weight
            for m in self._cloud_modes(p[far], wn[far]):
                if len(keep) >= self.max_modes:
                    break
                if any(same(m, k) for k in keep):
                    continue
                # it starts with the posterior's odds; the scans take over from there
                keep.append([m[0], m[1], m[2], math.log(m[3] / own)])
        self.hypotheses = keep
        self.modes = 1 + len(keep)

    def _cloud_modes(self, q: np.ndarray, w: np.ndarray) -> list:
        """Weighted means of the cloud's clusters (bins of ``2 * cluster_radius``) above ``mode_weight``."""
        if not len(q):
            return []
        size = 2 * self.cluster_radius
        keys = np.floor(q[:, :2] / size).astype(np.int64)
        _, inv = np.unique(flat_keys(keys - keys.min(axis=0)), return_inverse=True)
        inv = inv.reshape(-1)
        mass = np.bincount(inv, weights=w)
        out = []
        for b in np.argsort(-mass, kind="stable"):
            if mass[b] < self.mode_weight:
                break
            sel = inv == b
            m = best_cluster_mean(q[sel], w[sel], self.cluster_radius)
            out.append([m[0], m[1], m[2], float(mass[b])])
        return out

    def _refine(self, pose, ranges):
        """``pose`` moved to the best fit of the scan within 5 cm and 0.06 rad (scan matching)."""
        idx, mount, cos_b, sin_b = self._beams
        r = np.ascontiguousarray(np.asarray(ranges, float)[idx])
        table, far = self._table
        x, y, th, _, _ = _kernels.match_scan(
            table, *self.field.kernel_args[1:5], far, float(pose[0]), float(pose[1]),
            float(pose[2]), mount, cos_b, sin_b, r, self.sensor.range_min,
            self.sensor.range_max, 0.05, 0.0125, 0.06, 0.02, 0.0)
        return (float(x), float(y), float(th))

    def _mode_ambiguity(self) -> float:
        """Weight outside the estimate among it and its look-alikes (likelihood ratios)."""
        if not self.hypotheses:
            return 0.0
        r = sum(math.exp(h[3]) for h in self.hypotheses)
        return r / (1.0 + r)
