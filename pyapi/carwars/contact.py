"""When moving counters come to touch (FIGHT-04): exact contact times of convex counters moving in straight lines.

Two convex polygons moving at constant velocities touch first at the time
found by the separating-axis test over time: on each axis (the normal of an
edge of either polygon) the two projections overlap during an interval of
time; the counters touch while every axis overlaps, so the first contact is
the latest of the axes' entry times, if it comes before every exit. No
square roots and no normalisation: an axis's length scales both sides of
every comparison alike, so the times are exact functions of the corners and
velocities (and the compiled core can reproduce them bit for bit).

Touching counts as contact (a zero-width overlap). Counters already touching
at the start of the interval are left to the caller (docs/fights.md: they do
not collide again).

    >>> a = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
    >>> b = [(3.0, 0.0), (4.0, 0.0), (4.0, 1.0), (3.0, 1.0)]
    >>> c = first_contact(a, (1.0, 0.0), b, (-1.0, 0.0))
    >>> c.time, c.normal
    (1.0, (1.0, 0.0))
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

__all__ = ["Contact", "first_contact", "touching", "side_facing"]

Point = tuple[float, float]


@dataclass(frozen=True)
class Contact:
    """The first touch of two moving counters: its time in [t0, t1] and the axis it came on (from the first to the second)."""

    time: float
    normal: tuple[float, float]


def _axes(poly: Sequence[Point]) -> list[tuple[float, float]]:
    out = []
    n = len(poly)
    for i in range(n):
        x0, y0 = poly[i]
        x1, y1 = poly[(i + 1) % n]
        ax, ay = y1 - y0, x0 - x1
        if ax != 0.0 or ay != 0.0:
            out.append((ax, ay))
    return out


def _project(poly: Sequence[Point], ax: float, ay: float) -> tuple[float, float]:
    lo = hi = poly[0][0] * ax + poly[0][1] * ay
    for x, y in poly[1:]:
        d = x * ax + y * ay
        if d < lo:
            lo = d
        elif d > hi:
            hi = d
    return lo, hi


def _centre(poly: Sequence[Point]) -> Point:
    n = len(poly)
    return (sum(p[0] for p in poly) / n, sum(p[1] for p in poly) / n)


def touching(a: Sequence[Point], b: Sequence[Point]) -> bool:
    """Whether two convex polygons overlap or touch (no separating axis with a gap)."""
    for ax, ay in _axes(a) + _axes(b):
        alo, ahi = _project(a, ax, ay)
        blo, bhi = _project(b, ax, ay)
        if bhi < alo or blo > ahi:
            return False
    return True


def first_contact(a: Sequence[Point], va: Sequence[float], b: Sequence[Point], vb: Sequence[float],
                  t0: float = 0.0, t1: float = 1.0) -> Contact | None:
    """The first time in [t0, t1] at which polygon `a` (at time t0, velocity `va`) and `b` touch, or None.

    Positions at time t are the corners plus velocity times (t - t0). The
    contact normal is the axis whose overlap began last, oriented from `a`
    towards `b` (not normalised). Counters touching at t0 give a contact at t0.
    """
    vx, vy = vb[0] - va[0], vb[1] - va[1]      # b's motion as seen from a
    enter, leave = t0, t1
    best_axis: tuple[float, float] | None = None
    for ax, ay in _axes(a) + _axes(b):
        alo, ahi = _project(a, ax, ay)
        blo, bhi = _project(b, ax, ay)
        s = vx * ax + vy * ay
        if s == 0.0:
            if bhi < alo or blo > ahi:
                return None                    # apart on this axis, and they never move along it
            continue
        # overlap while alo - bhi <= s * (t - t0) <= ahi - blo
        lo = t0 + (alo - bhi) / s
        hi = t0 + (ahi - blo) / s
        if s < 0.0:
            lo, hi = hi, lo
        if lo > enter:
            enter, best_axis = lo, (ax, ay)
        if hi < leave:
            leave = hi
        if enter > leave:
            return None
    if best_axis is None:
        # already touching at t0 on every axis: the contact is now, along the line between the centres
        ca, cb = _centre(a), _centre(b)
        best_axis = (cb[0] - ca[0], cb[1] - ca[1])
        if best_axis == (0.0, 0.0):
            best_axis = (vx, vy) if (vx, vy) != (0.0, 0.0) else (0.0, 1.0)
        return Contact(enter, best_axis)
    ax, ay = best_axis
    # orient from a to b: b's centre lies on the positive side of a's at the contact
    ca, cb = _centre(a), _centre(b)
    dt = enter - t0
    dx = (cb[0] + vb[0] * dt) - (ca[0] + va[0] * dt)
    dy = (cb[1] + vb[1] * dt) - (ca[1] + va[1] * dt)
    if dx * ax + dy * ay < 0.0:
        ax, ay = -ax, -ay
    return Contact(enter, (ax, ay))


_SIDE_ORDER = ("front", "back", "left", "right")


def side_facing(facing_deg: float, direction: Sequence[float]) -> str:
    """The side of a counter facing `facing_deg` (0 = +y, clockwise) whose outward normal is nearest `direction`:
    front, back, left or right; an exact tie goes to the first of front, back, left, right."""
    from .geometry import sincos_deg

    s, c = sincos_deg(facing_deg)
    normals = {"front": (s, c), "back": (-s, -c), "right": (c, -s), "left": (-c, s)}
    best, best_dot = "front", None
    for name in _SIDE_ORDER:
        nx, ny = normals[name]
        d = nx * direction[0] + ny * direction[1]
        if best_dot is None or d > best_dot:
            best, best_dot = name, d
    return best
