"""Mouse profiles: the motion model behind the time-optimal fast run.

A :class:`MouseProfile` says how long each piece of a slalom route takes
(see :mod:`robomaze.micromouse.route` for the route graph):

* a straight of distance ``d`` (``n`` cells along the walls, or ``n``
  half-cell diagonal steps of ``cell / sqrt(2)``) is driven from the turn
  speed ``vs`` up towards ``vm`` at acceleration ``am`` and back down to
  ``vs``::

      t(d) = 2 (sqrt(vs^2 + am d) - vs) / am      if d < (vm^2 - vs^2) / am
      t(d) = (am d + (vm - vs)^2) / (am vm)      otherwise

  with one ``(am, vm)`` pair along the walls and one diagonally;
* each slalom (F45, F90, F135, F180, V90) takes a fixed time;
* FS90, a small turn about a cell centre, takes ``small_turn`` (profiles
  with ``pivots``);
* the ``runs`` orthogonal model (kept for comparison with the
  micromouse-maze-library) prices a run of ``n`` cells as one small turn
  plus ``t((n - 1) cell)`` and ignores slaloms.

Presets (:data:`PROFILES`)
--------------------------
``kerikun``
    The default model of Ryotaro Onuki's micromouse-maze-library (MIT),
    reproduced to the unit: ``vs`` 420 mm/s; along the walls ``am`` 4200
    mm/s^2, ``vm`` 1500 mm/s on 90 mm cells; diagonally 3600 mm/s^2 and 1200
    mm/s; slaloms F45 257, F90 375, F135 465, F180 563, V90 388 ms; small
    turn 287 ms. The library evaluates the slalom tables for a mouse twice
    as fast (speeds doubled, accelerations quadrupled, so every time is
    halved) in 32-bit floats and truncates each table entry to an integer;
    route costs are sums of those integers, reported times are twice the
    sum (so F45 counts 2 * int(257 / 2) = 256 ms). Its orthogonal model is
    ``runs``: ``int((287 + int(t((n-1) 90 mm))) / 2)`` units per run of ``n``
    cells, at the real speeds. Its slalom graph has no FS90 (``pivots``
    off), as in the library.
``simple``
    The project's earlier one-turn-speed model (:class:`~robomaze.micromouse.
    MotionProfile` defaults: 180 mm cells, 3 m/s, 6 m/s^2, 0.7 m/s through
    0.25 s 90-degree and 0.15 s 45-degree turns) as slaloms: each slalom
    takes its turn times plus the straight pieces of its centre line at the
    turn speed (F90: one 90-degree corner cell plus two half cells); FS90
    takes one turn time.

Profiles load from TOML with :func:`load_profile` (keys as the dataclass
fields, lengths in mm, speeds in mm/s, times in ms)::

    name = "my-mouse"
    cell_mm = 180
    turn_speed = 600
    along = {accel = 5000, max_speed = 2500}
    diagonal = {accel = 4000, max_speed = 2000}
    turns = {F45 = 300, F90 = 420, F135 = 520, F180 = 640, V90 = 450}
    small_turn = 350        # FS90, the small turn about a cell centre
    pivots = true           # allow FS90 in the slalom graph
    orthogonal = "slalom"   # or "runs"

Physical ranges (:data:`RANGES`), checked before any table is built, each
failure one line naming the key: ``cell_mm`` 1..10,000 mm; ``turn_speed``
and both ``max_speed`` 1..100,000 mm/s (100 m/s); both ``accel``
1..10,000,000 mm/s^2 (about 1,000 g); the slalom times (``turns.*``) and
``small_turn`` 0.001..600,000 ms (10 minutes). Numbers must be finite;
``name`` a string of at most 200 characters; ``pivots`` and
``library_units`` true or false. The file itself is read by the one
guarded reader (:func:`robomaze._readfile.load_toml`: a regular file
within the size limit, UTF-8, nested at most 32 deep).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, fields

import numpy as np

from ..errors import ParameterError, ScenarioError, unknown_name

__all__ = ["MouseProfile", "PROFILES", "get_profile", "load_profile", "straight_time",
           "TURNS", "RANGES", "MAX_PROFILE_BYTES"]

#: Slalom kinds, in the order of :meth:`MouseProfile.turn_costs`.
TURNS = ("F45", "F90", "F135", "F180", "V90")

_CELL = (1.0, 1e4, "mm")
_SPEED = (1.0, 1e5, "mm/s")
_ACCEL = (1.0, 1e7, "mm/s^2")
_TIME = (1e-3, 6e5, "ms")
#: field -> (least, greatest, unit): the physical range of every number of a
#: profile (the module notes). Inside them every table entry is finite in
#: float32 (the library units) for any maze within the cell limit.
RANGES = {"cell_mm": _CELL, "turn_speed": _SPEED, "along_accel": _ACCEL,
          "along_max_speed": _SPEED, "diag_accel": _ACCEL, "diag_max_speed": _SPEED,
          "f45": _TIME, "f90": _TIME, "f135": _TIME, "f180": _TIME, "v90": _TIME,
          "small_turn": _TIME}
#: The key of each field in a profile file (the messages name those).
_TOML_KEY = {"along_accel": "along.accel", "along_max_speed": "along.max_speed",
             "diag_accel": "diagonal.accel", "diag_max_speed": "diagonal.max_speed",
             **{t.lower(): f"turns.{t}" for t in TURNS}}
#: Largest profile file read (a real one is a few hundred bytes).
MAX_PROFILE_BYTES = 1 << 20


def _shown(v) -> str:
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) > 10 ** 30:
        # (str() of an int past 4300 digits is itself an error)
        return f"a number of about {int(abs(v).bit_length() * 0.30103) + 1} digits"
    r = repr(v)
    return r if len(r) <= 40 else f"a {type(v).__name__} of {len(r)} characters"


def _check_field(name: str, v):
    """The field's value as a float, or a ParameterError naming its key."""
    key = _TOML_KEY.get(name, name)
    lo, hi, unit = RANGES[name]
    if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise ParameterError(f"profile {key} must be a number of {unit} in {lo:g}..{hi:g}, "
                             f"got {_shown(v)}")
    # compare before float(): an int of 400 digits does not fit a float
    if isinstance(v, (float, np.floating)) and not math.isfinite(v):
        raise ParameterError(f"profile {key} must be a finite number, got {_shown(v)}")
    if not lo <= v <= hi:
        raise ParameterError(f"profile {key} must be in {lo:g}..{hi:g} {unit}, got {_shown(v)}")
    return float(v)


def straight_time(d: float, vs: float, am: float, vm: float) -> float:
    """Seconds for a straight of ``d`` (from ``vs`` up towards ``vm`` and back).

    The module notes' ``t(d)``; units are any consistent set (mm, mm/s, mm/s^2).

    >>> round(straight_time(90.0, 420.0, 4200.0, 1500.0) * 1000, 3)   # one cell
    154.562
    >>> straight_time(0.0, 420.0, 4200.0, 1500.0)
    0.0
    """
    if d < (vm * vm - vs * vs) / am:
        return 2 * (math.sqrt(vs * vs + am * d) - vs) / am
    return (am * d + (vm - vs) ** 2) / (am * vm)


def _library_entry(i: int, am, vs, vm, seg) -> int:
    """One table entry as the library computes it: float32 throughout, truncated."""
    f = np.float32
    d = f(seg) * f(i)
    d_thr = (f(vm) * f(vm) - f(vs) * f(vs)) / f(am)
    if d < d_thr:
        t = f(2) * (np.sqrt(f(vs) * f(vs) + f(am) * d) - f(vs)) / f(am) * f(1000)
    else:
        t = (f(am) * d + (f(vm) - f(vs)) * (f(vm) - f(vs))) / (f(am) * f(vm)) * f(1000)
    return int(t)          # float -> uint16: truncation toward zero


@dataclass(frozen=True)
class MouseProfile:
    """How long each piece of a fast run takes (mm, mm/s, mm/s^2, ms).

    Attributes
    ----------
    name : str
        Label in reports.
    cell_mm : float
        Cell size: 180 (classic) or 90 (half size).
    turn_speed : float
        ``vs``: the speed at which straights start and end (mm/s).
    along_accel, along_max_speed, diag_accel, diag_max_speed : float
        ``am`` and ``vm`` along the walls and diagonally.
    f45, f90, f135, f180, v90 : float
        Slalom times (ms).
    small_turn : float
        Time of one small 90-degree turn (ms): FS90 in the slalom graph when
        ``pivots`` is on, and the turn of each run in the ``runs`` model.
    pivots : bool
        Allow FS90, a small turn about a cell centre, in the slalom graph.
        Without it the axis moves (S, F90, F180) cannot drive a staircase
        (two corners in adjacent cells), so a profile whose orthogonal model
        is ``slalom`` needs it.
    orthogonal : {"slalom", "runs"}
        The model without diagonals: the slalom graph's axis moves (S, F90,
        F180 and FS90), or runs of cells with one small turn each.
    library_units : bool
        Evaluate the tables as micromouse-maze-library does (see the module
        notes); times are then multiples of 2 ms.

    Examples
    --------
    >>> p = get_profile("kerikun")
    >>> p.along_table(3).tolist(), p.turn_costs().tolist(), p.unit_ms
    ([0.0, 77.0, 129.0, 172.0], [128.0, 187.0, 232.0, 281.0, 194.0], 2.0)
    """

    name: str = "custom"
    cell_mm: float = 90.0
    turn_speed: float = 420.0
    along_accel: float = 4200.0
    along_max_speed: float = 1500.0
    diag_accel: float = 3600.0
    diag_max_speed: float = 1200.0
    f45: float = 257.0
    f90: float = 375.0
    f135: float = 465.0
    f180: float = 563.0
    v90: float = 388.0
    small_turn: float = 287.0
    pivots: bool = True
    orthogonal: str = "slalom"
    library_units: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or len(self.name) > 200:
            raise ParameterError(f"profile name must be a string of at most 200 characters, "
                                 f"got {_shown(self.name)}")
        for key in ("pivots", "library_units"):
            if not isinstance(getattr(self, key), (bool, np.bool_)):
                raise ParameterError(f"profile {key} must be true or false, got "
                                     f"{_shown(getattr(self, key))}")
        if not isinstance(self.orthogonal, str) or self.orthogonal not in ("slalom", "runs"):
            raise ParameterError(f"profile orthogonal must be 'slalom' or 'runs', got "
                                 f"{_shown(self.orthogonal)}")
        for f in fields(self):
            if f.name in RANGES:
                object.__setattr__(self, f.name, _check_field(f.name, getattr(self, f.name)))
        if self.orthogonal == "slalom" and not self.pivots:
            raise ParameterError("profile orthogonal 'slalom' needs pivots = true (without "
                                 "FS90 the axis moves cannot drive a staircase)")
        for pre in ("along", "diag"):
            if getattr(self, f"{pre}_max_speed") < self.turn_speed:
                raise ParameterError(f"profile {_TOML_KEY[pre + '_max_speed']} "
                                     f"{getattr(self, pre + '_max_speed'):g} must be >= "
                                     f"turn_speed {self.turn_speed:g}")

    # -- cost tables, in units of unit_ms ------------------------------------
    @property
    def unit_ms(self) -> float:
        """Milliseconds per table unit (2 in library units, else 1)."""
        return 2.0 if self.library_units else 1.0

    def _table(self, n_max: int, am: float, vm: float, seg: float) -> np.ndarray:
        if self.library_units:
            k = 2.0          # the library's factor: speeds x2, accelerations x4
            return np.array([_library_entry(i, am * k * k, self.turn_speed * k, vm * k, seg)
                             for i in range(n_max + 1)], np.float64)
        return np.array([1000.0 * straight_time(i * seg, self.turn_speed, am, vm)
                         for i in range(n_max + 1)], np.float64)

    def along_table(self, n_max: int) -> np.ndarray:
        """Cost of a straight of ``n`` cells, ``n = 0..n_max``."""
        return self._table(n_max, self.along_accel, self.along_max_speed, self.cell_mm)

    def diag_table(self, n_max: int) -> np.ndarray:
        """Cost of a diagonal straight of ``n`` half-cell steps, ``n = 0..n_max``."""
        if self.library_units:
            seg = float(np.float32(self.cell_mm / 2) * np.sqrt(np.float32(2.0)))
        else:
            seg = self.cell_mm / math.sqrt(2.0)
        return self._table(n_max, self.diag_accel, self.diag_max_speed, seg)

    def turn_costs(self) -> np.ndarray:
        """Costs of F45, F90, F135, F180, V90 (the order of :data:`TURNS`)."""
        t = np.array([self.f45, self.f90, self.f135, self.f180, self.v90], np.float64)
        if self.library_units:
            return np.array([int(np.float32(v) / np.float32(2)) for v in t], np.float64)
        return t

    def pivot_cost(self) -> float:
        """Cost of FS90 in the slalom graph, or -1 when pivots are off."""
        if not self.pivots:
            return -1.0
        if self.library_units:
            return float(int(np.float32(self.small_turn) / np.float32(2)))
        return float(self.small_turn)

    def runs_table(self, n_max: int) -> np.ndarray:
        """Cost of one run of ``n`` cells in the ``runs`` model (entry 0 unused)."""
        out = np.zeros(n_max + 1, np.float64)
        for n in range(1, n_max + 1):
            if self.library_units:
                t = _library_entry(n - 1, self.along_accel, self.turn_speed,
                                   self.along_max_speed, self.cell_mm)
                out[n] = int(np.float32(int(np.float32(self.small_turn) + np.float32(t)))
                             / np.float32(2))
            else:
                out[n] = self.small_turn + 1000.0 * straight_time(
                    (n - 1) * self.cell_mm, self.turn_speed, self.along_accel,
                    self.along_max_speed)
        return out

    def to_dict(self) -> dict:
        """The profile as the TOML keys of :func:`load_profile`."""
        return {"name": self.name, "cell_mm": self.cell_mm, "turn_speed": self.turn_speed,
                "along": {"accel": self.along_accel, "max_speed": self.along_max_speed},
                "diagonal": {"accel": self.diag_accel, "max_speed": self.diag_max_speed},
                "turns": dict(zip(TURNS, (self.f45, self.f90, self.f135, self.f180, self.v90))),
                "small_turn": self.small_turn, "pivots": self.pivots,
                "orthogonal": self.orthogonal,
                "library_units": self.library_units}


def _simple() -> MouseProfile:
    """The earlier one-turn-speed model as slaloms (see the module notes)."""
    from ..metrics.micromouse import MotionProfile
    m = MotionProfile()
    cell, vt = m.cell_size * 1000, m.turn_speed * 1000
    h = cell / 2
    at_vt = lambda length: 1000.0 * length / vt   # noqa: E731 - ms at the turn speed
    r2 = math.sqrt(2.0)
    t90, t45 = m.turn_time * 1000, m.turn45_time * 1000
    return MouseProfile(
        name="simple", cell_mm=cell, turn_speed=vt,
        along_accel=m.acceleration * 1000, along_max_speed=m.max_speed * 1000,
        diag_accel=m.acceleration * 1000, diag_max_speed=m.max_speed * 1000,
        f45=t45 + at_vt(h + r2 * h), f90=t90 + at_vt(2 * h),
        f135=t90 + t45 + at_vt(h + 2 * r2 * h), f180=2 * t90 + at_vt(2 * h),
        v90=t90 + at_vt(2 * r2 * h), small_turn=t90, orthogonal="slalom")


#: The preset profiles (their specs: ``micromouse/_specs.py``).
KERIKUN = MouseProfile(name="kerikun", orthogonal="runs", pivots=False, library_units=True)
SIMPLE = _simple()

#: Preset profiles by name: :data:`robomaze.registry.PROFILES`.
from ..registry import PROFILES  # noqa: E402


def get_profile(spec: "str | MouseProfile | None") -> MouseProfile:
    """A profile from a preset name, a TOML file path or a profile (None: ``kerikun``).

    >>> get_profile("simple").cell_mm
    180.0
    """
    if spec is None:
        return KERIKUN
    if isinstance(spec, MouseProfile):
        return spec
    if not isinstance(spec, (str, os.PathLike)):
        raise ParameterError(f"profile must be a preset name, a TOML file or a MouseProfile, "
                             f"got {spec!r}")
    s = os.fspath(spec)
    if s in PROFILES:
        return PROFILES[s]
    if s.endswith(".toml") or os.path.sep in s or os.path.exists(s):
        return load_profile(s)
    raise unknown_name("mouse profile", s, PROFILES)


_KEYS = {"name", "cell_mm", "turn_speed", "along", "diagonal", "turns", "small_turn",
         "pivots", "orthogonal", "library_units"}


def load_profile(path) -> MouseProfile:
    """Read a profile from a TOML file (keys in the module notes).

    Raises
    ------
    ScenarioError
        Unreadable file, unknown key or a bad value (the message names the
        file and the key).
    """
    from .._readfile import load_toml

    path = os.fspath(path)
    data = load_toml(path, ScenarioError, expected="a UTF-8 TOML mouse profile",
                     limit=MAX_PROFILE_BYTES)
    bad = sorted(set(data) - _KEYS)
    if bad:
        shown = [k if len(k) <= 40 else k[:37] + "..." for k in bad[:5]]
        raise ScenarioError(f"{path}: unknown mouse profile key(s) {shown}"
                            f"{' and more' if len(bad) > 5 else ''}; expected some of "
                            f"{sorted(_KEYS)}")
    kw: dict = {}
    for key in ("name", "cell_mm", "turn_speed", "small_turn", "pivots", "orthogonal",
                "library_units"):
        if key in data:
            kw[key] = data[key]
    for table, pre in (("along", "along"), ("diagonal", "diag")):
        sub = data.get(table, {})
        if not isinstance(sub, dict) or set(sub) - {"accel", "max_speed"}:
            raise ScenarioError(f"{path}: [{table}] must hold accel and max_speed, got "
                                f"{_shown(sub)}")
        for k in ("accel", "max_speed"):
            if k in sub:
                kw[f"{pre}_{k}"] = sub[k]
    turns = data.get("turns", {})
    if not isinstance(turns, dict) or set(turns) - set(TURNS):
        raise ScenarioError(f"{path}: [turns] must hold some of {list(TURNS)}, got "
                            f"{_shown(turns)}")
    for k, v in turns.items():
        kw[k.lower()] = v
    kw.setdefault("name", os.path.splitext(os.path.basename(path))[0])
    try:
        return MouseProfile(**kw)
    except ParameterError as exc:
        raise ScenarioError(f"{path}: {exc}") from None
