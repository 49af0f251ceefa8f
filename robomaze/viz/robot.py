"""The robot drawn where it goes: footprints along a path or a trajectory,
sensor beams, and an animation of a simulated run.

A planned :class:`robomaze.plan.Path` gives positions; its headings are the
planner's own when it chose them, else the direction of travel along the
path. A :class:`robomaze.sim.Trajectory` gives full poses. Footprints are
the exact shapely outlines (:meth:`Footprint.at`) mapped to the picture's
grid coordinates, so a collision-free solution for the robot's shape is
visible as outlines that never cross a wall.
"""

from __future__ import annotations

import os
from pathlib import Path as _FsPath
from typing import Any

import numpy as np
from matplotlib import animation
from matplotlib.collections import LineCollection, PolyCollection

from .._validate import check_int
from ..errors import ParameterError
from ..grid import OccupancyGrid
from .draw import path_xy

__all__ = ["path_poses", "footprint_polygons", "draw_footprints", "beam_segments",
           "draw_beams", "animate_run", "FOOTPRINT_COLOR", "BEAM_COLOR", "HIT_COLOR"]

#: Edge colour of drawn footprints.
FOOTPRINT_COLOR = "#7b2cbf"
#: Beams that saw nothing within range.
BEAM_COLOR = "#ffb000"
#: Beams that hit an obstacle (and their end points).
HIT_COLOR = "#ff5000"


def path_poses(path: Any) -> np.ndarray:
    """World poses ``(n, 3)`` along a planned path.

    The path's own ``headings`` when the planner set them, else each point
    faces the next one (the last keeps the previous heading).

    >>> import types
    >>> p = types.SimpleNamespace(points=np.array([[0, 0], [1, 0], [1, 2]]), headings=None)
    >>> np.degrees(path_poses(p)[:, 2]).round().tolist()
    [0.0, 90.0, 90.0]
    """
    pts = np.asarray(getattr(path, "points", path), float).reshape(-1, 2)
    heads = getattr(path, "headings", None)
    if heads is not None and len(heads) == len(pts):
        th = np.asarray(heads, float)
    else:
        d = np.diff(pts, axis=0)
        th = np.arctan2(d[:, 1], d[:, 0]) if len(d) else np.zeros(0)
        th = np.r_[th, th[-1] if len(th) else 0.0]
    return np.column_stack([pts, th])


def _every(poses: np.ndarray, every: int) -> np.ndarray:
    """Every ``every``-th pose, always with the last one."""
    every = check_int("every", every, min_value=1)
    idx = np.arange(0, len(poses), every)
    if len(poses) and idx[-1] != len(poses) - 1:
        idx = np.r_[idx, len(poses) - 1]
    return poses[idx]


def footprint_polygons(grid: OccupancyGrid, footprint, poses, *, every: int = 1) -> list:
    """Footprint outlines at every ``every``-th pose, in plot coordinates.

    >>> from robomaze.geometry import Footprint
    >>> g = OccupancyGrid(np.zeros((10, 10), bool), resolution=0.1)
    >>> poly = footprint_polygons(g, Footprint.rectangle(0.2, 0.1), [[0.5, 0.5, 0.0]])[0]
    >>> poly.min(axis=0).round(3).tolist(), poly.max(axis=0).round(3).tolist()
    ([3.5, 4.0], [5.5, 5.0])
    """
    if not isinstance(grid, OccupancyGrid):
        raise ParameterError(f"grid must be an OccupancyGrid, got {type(grid).__name__}")
    poses = np.asarray(poses, float).reshape(-1, 3)
    out = []
    for x, y, th in _every(poses, every):
        ring = np.asarray(footprint.at(x, y, th).exterior.coords)
        out.append(path_xy(grid, ring, world=True))
    return out


def draw_footprints(ax, grid: OccupancyGrid, footprint, poses, *, every: int = 1,
                    color: str = FOOTPRINT_COLOR, alpha: float = 0.12,
                    zorder: float = 4.5) -> PolyCollection:
    """Draw the footprint at every ``every``-th pose (outline plus light fill)."""
    polys = footprint_polygons(grid, footprint, poses, every=every)
    coll = PolyCollection(polys, facecolors=[(*_rgb(color), alpha)], edgecolors=color,
                          linewidths=0.8, zorder=zorder)
    ax.add_collection(coll, autolim=False)
    return coll


def _rgb(color: str) -> tuple:
    from matplotlib.colors import to_rgb

    return to_rgb(color)


def beam_segments(grid: OccupancyGrid, sensor, pose, ranges) -> tuple[np.ndarray, np.ndarray]:
    """Plot-coordinate segments ``(n, 2, 2)`` of a scan's beams from the sensor
    (mounted on the robot at ``pose``), and which beams hit before ``range_max``.

    >>> from robomaze.sense.sensor import RangeSensor
    >>> g = OccupancyGrid(np.zeros((10, 10), bool), resolution=1.0)
    >>> s = RangeSensor(2, np.pi / 2, 0.0, 5.0)
    >>> seg, hit = beam_segments(g, s, (5.0, 5.0, 0.0), [3.0, 5.0])
    >>> seg.round(3).tolist(), hit.tolist()
    ([[[4.5, 4.5], [6.621, 6.621]], [[4.5, 4.5], [8.036, 0.964]]], [True, False])
    """
    x, y, th = (float(v) for v in pose)
    mx, my, mth = sensor.mount
    sx = x + mx * np.cos(th) - my * np.sin(th)
    sy = y + mx * np.sin(th) + my * np.cos(th)
    r = np.asarray(ranges, float)
    hit = np.isfinite(r) & (r < sensor.range_max)
    r = np.where(np.isfinite(r), np.minimum(r, sensor.range_max), sensor.range_max)
    ang = th + mth + sensor.angles
    ends = np.column_stack([sx + r * np.cos(ang), sy + r * np.sin(ang)])
    start = np.repeat([[sx, sy]], len(r), axis=0)
    seg = np.stack([path_xy(grid, start, world=True), path_xy(grid, ends, world=True)], axis=1)
    return seg, hit


def draw_beams(ax, grid: OccupancyGrid, sensor, pose, ranges, *, zorder: float = 5) -> LineCollection:
    """Draw one scan's beams (hits in :data:`HIT_COLOR`, misses in :data:`BEAM_COLOR`)."""
    seg, hit = beam_segments(grid, sensor, pose, ranges)
    coll = LineCollection(seg, colors=[HIT_COLOR if h else BEAM_COLOR for h in hit],
                          linewidths=0.6, alpha=0.8, zorder=zorder)
    ax.add_collection(coll, autolim=False)
    return coll


def animate_run(grid: OccupancyGrid, trajectory, footprint, out: str | os.PathLike, *,
                sensor=None, every: int | None = None, fps: float = 10.0,
                cell_px: float | None = None, max_frames: int = 100,
                start_color: str | None = None) -> int:
    """Write a GIF of a simulated run: the trail so far, the footprint at the
    current pose and, when the trajectory holds scans and ``sensor`` is
    given, the sensor's beams. Returns the number of frames.

    ``every`` poses per frame (default: so that at most ``max_frames``
    frames are drawn); the last pose is always a frame.
    """
    from .render import _new_figure, figure_size
    from .draw import GOAL_COLOR, START_COLOR, draw_grid, draw_points, setup_axes

    if _FsPath(os.fspath(out)).suffix.lower() != ".gif":
        raise ParameterError(f"out must end in .gif, got {os.fspath(out)!r}")
    poses = np.asarray(trajectory.poses, float)
    n = len(poses)
    if every is None:
        every = max(1, -(-n // max_frames))
    frames = np.arange(0, n, check_int("every", every, min_value=1))
    if frames[-1] != n - 1:
        frames = np.r_[frames, n - 1]
    w, h = figure_size(grid.rows, grid.cols,
                       cell_px=cell_px or max(2, min(10, 360 // max(grid.rows, grid.cols))))
    fig = _new_figure(w, h)
    ax = fig.add_axes((0, 0, 1, 1))
    setup_axes(ax, grid.rows, grid.cols)
    draw_grid(ax, grid)
    if grid.maze is not None and grid.widening is not None:
        k = grid.widening.corridor
        draw_points(ax, grid, [grid.maze_centre(grid.maze.start)],
                    color=start_color or START_COLOR, marker="s", size=0.6 * k)
        draw_points(ax, grid, [grid.maze_centre(g) for g in grid.maze.goals],
                    color=GOAL_COLOR, marker="s", size=0.6 * k)
    xy = path_xy(grid, poses[:, :2], world=True)
    (trail,) = ax.plot([], [], color="#ff0000", linewidth=1.2, zorder=4)
    body = PolyCollection([], facecolors=[(*_rgb(FOOTPRINT_COLOR), 0.35)],
                          edgecolors=FOOTPRINT_COLOR, linewidths=1.0, zorder=6)
    ax.add_collection(body, autolim=False)
    beams = LineCollection([], linewidths=1.2, zorder=5)
    ax.add_collection(beams, autolim=False)
    scans = getattr(trajectory, "scans", None)

    def draw(i: int):
        j = int(frames[i])
        trail.set_data(xy[:j + 1, 0], xy[:j + 1, 1])
        body.set_verts(footprint_polygons(grid, footprint, poses[j:j + 1]))
        if sensor is not None and scans is not None:
            seg, hit = beam_segments(grid, sensor, poses[j], scans[j])
            beams.set_segments(seg)
            beams.set_color([HIT_COLOR if t else BEAM_COLOR for t in hit])
        return trail, body, beams

    anim = animation.FuncAnimation(fig, draw, frames=len(frames), blit=False)
    anim.save(os.fspath(out), writer=animation.PillowWriter(fps=fps))
    return len(frames)
