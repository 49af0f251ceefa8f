"""The command and the Python lines that re-create a traffic row (``bench show``).

A traffic row stores its whole :class:`~robomaze.traffic.TrafficSpec`
(``row["spec"]``, :mod:`robomaze.bench.traffic`). :func:`traffic_commands`
writes the ``robomaze traffic`` flags for it and then *parses them with the
command's own parser* (:func:`robomaze.cli.traffic.build_spec`): only when
the flags give back the row's spec -- every robot and every obstacle as
the run expands them -- is the flag form printed. A spec with a field no
flag sets (an ORCA horizon, a lookahead, a mixed fleet) is printed as a
spec file instead (``robomaze traffic --spec FILE``), itself checked by
reading it back; a spec neither form carries is refused in one line. So a
field added to the spec cannot be silently left out of the re-creation.
"""

from __future__ import annotations

import json
import math
import shlex

from ..errors import ParameterError

__all__ = ["traffic_commands", "show_traffic_row", "spec_toml"]


def _canonical(spec) -> dict:
    """What a run of ``spec`` depends on: the world (its file resolved), every
    robot and every obstacle as the run expands them, the run's parameters."""
    from dataclasses import asdict

    d = spec.to_dict()
    w = spec.world
    d["world"].pop("base_dir")
    if w.file or w.grid:
        d["world"]["file" if w.file else "grid"] = str(w.resolve(w.file or w.grid))
    for k in ("robots", "count", "obstacles", "obstacle_count", "obstacle_speed",
              "obstacle_behaviour"):
        d.pop(k)
    d["robot_list"] = [asdict(r) for r in spec.robot_list()]
    d["obstacle_list"] = [asdict(o) for o in spec.obstacle_list()]
    return json.loads(json.dumps(d, default=list))


def _num(v) -> str:
    return repr(float(v))


def _flag_words(spec) -> list[str] | None:
    """``robomaze traffic`` words for ``spec`` (None: a mixed fleet or obstacle set)."""
    w = spec.world
    robots, obst = spec.robot_list(), spec.obstacle_list()
    if len({json.dumps(vars(r), default=list) for r in robots}) > 1 or \
            len({json.dumps(vars(o), default=list) for o in obst}) > 1:
        return None
    if w.generator:
        words = [w.generator, f"{w.rows}x{w.cols}"]
    else:
        words = [str(w.resolve(w.file or w.grid))]
    words += ["--seed", str(w.seed), "--corridor", str(w.corridor), "--wall", str(w.wall),
              "--resolution", _num(w.resolution)]
    if w.braid:
        words += ["--braid", _num(w.braid)]
    r = robots[0]
    words += ["--robots", str(len(robots)), "--footprint", str(r.footprint),
              "--kinematics", r.kinematics, "--v-max", _num(r.v_max)]
    if r.beams is not None:
        words += ["--beams", str(r.beams)]
    words += ["--assign", spec.assignment]
    if obst:
        o = obst[0]
        words += ["--obstacles", str(len(obst)), "--obstacle-behaviour", o.behaviour,
                  "--obstacle-speed", _num(o.speed), "--obstacle-shape", str(o.shape)]
    words += ["--agent", spec.agent]
    if not spec.orca.enabled:
        words.append("--no-orca")
    words += ["--dt", _num(spec.dt), "--max-steps", str(spec.max_steps),
              "--stall-time", _num(spec.stall_time)]
    return words


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ParameterError(f"a traffic spec value {v!r} has no TOML form")
        return repr(v)
    if isinstance(v, (int, str)):
        return json.dumps(v) if isinstance(v, str) else str(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise ParameterError(f"a traffic spec value {v!r} has no TOML form")


def spec_toml(d: dict) -> str:
    """``d`` (a :meth:`TrafficSpec.to_dict`) as the TOML ``robomaze traffic --spec``
    reads; None values are left out (their field's default).

    >>> print(spec_toml({"dt": 0.1, "goal_radius": None, "orca": {"enabled": False},
    ...                  "robots": [{"footprint": "disc:0.2"}]}))
    dt = 0.1
    <BLANKLINE>
    [orca]
    enabled = false
    <BLANKLINE>
    [[robots]]
    footprint = "disc:0.2"
    <BLANKLINE>
    """
    head, tables = [], []

    def table(name, t, array=False):
        out = [f"[[{name}]]" if array else f"[{name}]"]
        subs = []
        for k, v in t.items():
            if isinstance(v, dict):
                subs.append((f"{name}.{k}", v))
            elif v is not None:
                out.append(f"{k} = {_toml_value(v)}")
        tables.append("\n".join(out) + "\n")
        for n, sub in subs:
            table(n, sub)

    for k, v in d.items():
        if isinstance(v, dict):
            table(k, v)
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            for x in v:
                table(k, x, array=True)
        elif v is not None and not (isinstance(v, list) and not v):
            head.append(f"{k} = {_toml_value(v)}")
    return "\n".join(["\n".join(head) + "\n", *tables])


def traffic_commands(row: dict, parse=None) -> list[str]:
    """Shell lines that re-create a traffic ``row`` (its ``--json`` line is last).

    ``parse(words)`` is the spec ``robomaze traffic WORDS`` builds
    (:func:`robomaze.cli.traffic.spec_of_words`, passed in by the command
    line: the bench layer imports no command): the flags are printed only
    when it gives back the row's spec, else (or without ``parse``) the spec
    goes in a file. Raises :class:`ParameterError` when neither form gives
    back the row's spec.
    """
    import tomllib

    from ..traffic import TrafficSpec

    spec = TrafficSpec.from_dict(row["spec"])
    want = _canonical(spec)
    words = _flag_words(spec)
    if words is not None and parse is not None:
        try:
            got = _canonical(parse(words))
        except (ParameterError, SystemExit):
            got = None
        if got == want:
            return [" ".join(["robomaze", "traffic", *map(shlex.quote, words), "--json"])]
    text = spec_toml(row["spec"])
    back = TrafficSpec.from_dict(tomllib.loads(text))
    if _canonical(back) != want:
        bad = sorted(k for k in want if _canonical(back).get(k) != want[k])
        raise ParameterError(f"traffic spec field(s) {', '.join(bad)} of row {row['id']} have "
                             "no command form (robomaze.bench.recreate_traffic)")
    name = f"traffic-{row['id']}.toml"
    return [f"cat > {name} <<'EOF'", *text.rstrip("\n").splitlines(), "EOF",
            f"robomaze traffic --spec {name} --json"]


def show_traffic_row(row: dict, parse=None) -> str:
    """The command and the Python lines that re-create a traffic row
    (``parse``: see :func:`traffic_commands`)."""
    lines = [f"# row {row['id']}: traffic {row['spec'].get('count')} robots, corridor "
             f"{row['spec']['world']['corridor']} (outcome {row.get('outcome')})"]
    try:
        cmds = traffic_commands(row, parse)
    except ParameterError as exc:
        lines += ["", f"# no command re-creates this row: {exc}"]
    else:
        lines += ["", "# shell", *cmds]
    stored = {"id": row["id"], "axes": row["axes"], "spec": row["spec"]}
    lines += ["", "# Python: the row itself, through the sweep's runner",
              "from robomaze.bench.traffic import run_row",
              f"row = run_row({stored!r})",
              "print(row['outcome'], row['metrics']['makespan'], row['metrics']['collisions'])",
              "", "# Python: the run, step by step",
              "from robomaze.traffic import TrafficSpec, run_traffic",
              f"res = run_traffic(TrafficSpec.from_dict({row['spec']!r}))",
              "print(res.outcome, res.metrics['makespan'], res.metrics['collisions'])",
              "# or the whole row, checked field by field:",
              f"# robomaze bench rerun DIR {row['id']}"]
    m = row.get("metrics") or {}
    stored_m = {k: m.get(k) for k in ("arrived", "makespan", "collisions", "clearance_robot")
                if m.get(k) is not None}
    if stored_m:
        lines += ["", "# stored: " + ", ".join(f"{k} {v!r}" for k, v in stored_m.items())]
    return "\n".join(lines)
