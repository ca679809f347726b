"""Which blockers a line of fire can skip, decided for all of them at once (CW-LOF-01, FAST-03).

`geometry.line_of_fire` looks at every blocker it is given; in an arena of
thousands of counters that is thousands of polygons per attack. A `Blockers`
set keeps the bounding box of every blocker of a scene (built once per phase)
and answers, per query, with NumPy over all boxes, which blockers may hide any
part of the target: the others are provably ignored by the reference too, so
the answer of `line_of_fire(..., cull=...)` is the same Sight, every field,
as without the cull.

The predicate is the compiled kernel's linear cull (`fastcore/_lof.pyx`,
`cull`; its module docstring gives the proof): a blocker is skipped when its
box lies beyond either edge ray of the target's bearing range, or behind both,
by a margin that keeps the origin more than EPS outside every edge line of the
blocker (4 EPS over 0.99 of the sine of its sharpest half-angle) plus 1e-12
(relative) of the coordinates for the rounding of the sums. A sliver (an
infinite margin) is never skipped.
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from .geometry import EPS, Polygon

__all__ = ["Blockers"]

_REL = 1e-12


def _margin(poly: Polygon) -> float:
    """4 EPS over 0.99 of the smallest sin(alpha / 2) among the vertex angles; infinite for a sliver."""
    v = poly.vertices
    n = len(v)
    sig = 1.0
    for k in range(n):
        ax, ay = v[k - 1][0] - v[k][0], v[k - 1][1] - v[k][1]
        bx, by = v[(k + 1) % n][0] - v[k][0], v[(k + 1) % n][1] - v[k][1]
        c = (ax * bx + ay * by) / (math.sqrt(ax * ax + ay * ay) * math.sqrt(bx * bx + by * by))
        h = 0.5 * (1.0 - c)
        h = math.sqrt(h) if h > 0.0 else 0.0
        sig = min(sig, h)
    sig *= 0.99
    if not sig > 1e-6:
        return math.inf
    return 4.0 * EPS / sig


class Blockers:
    """The boxes of a list of blocker polygons, for `line_of_fire(..., cull=blockers.without(...))`.

    Args:
        polygons: the blockers, in the order `line_of_fire` is given them.
    """

    def __init__(self, polygons: Sequence[Polygon]) -> None:
        n = len(polygons)
        box = np.empty((5, n), dtype=np.float64)
        for i, p in enumerate(polygons):
            xs = [q[0] for q in p.vertices]
            ys = [q[1] for q in p.vertices]
            x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
            box[:, i] = (x0, y0, x1, y1, _margin(p) + _REL * (max(abs(x0), abs(x1)) + max(abs(y0), abs(y1))))
        self.x0, self.y0, self.x1, self.y1, self.margin = box
        self.active = np.ones(n, dtype=bool)
        self.last: tuple | None = None

    def __len__(self) -> int:
        return len(self.active)

    def without(self, *indices: int | None, near: tuple[float, float, float, float] | None = None) -> "Blockers":
        """The same set with the blockers at `indices` left out of every answer (the firer, the target); with
        `near` = (x0, y0, x1, y1), also those whose box (widened by its margin and 1e-6") misses that box."""
        out = object.__new__(Blockers)
        out.x0, out.y0, out.x1, out.y1, out.margin = self.x0, self.y0, self.x1, self.y1, self.margin
        out.active = self.active.copy()
        out.active[[i for i in indices if i is not None]] = False
        out.last = None
        if near is not None:
            pad = self.margin + 1e-6
            with np.errstate(invalid="ignore"):
                out.active &= ~((self.x1 + pad < near[0]) | (self.x0 - pad > near[2])
                                | (self.y1 + pad < near[1]) | (self.y0 - pad > near[3]))
        return out

    def on_edge_ray(self, point: tuple[float, float]) -> bool:
        """Whether `point` lies within 1e-9 (relative) plus 1e-9" of a ray from the last query's origin through one of
        the target's extreme vertices: where a blocker beyond the target can hide a hair, by rounding or by the
        separation test's 1e-12" slack (the module's docstring of fastcore/_lof.pyx). The absolute term covers a
        target within a thousandth of an inch of the origin, where that slack is a wide bearing (found by review)."""
        if self.last is None:
            return False
        ox, oy, flip, lx, ly, hx, hy = self.last
        s = -1.0 if flip else 1.0
        px, py = point[0] - ox, point[1] - oy
        for fx, fy in ((lx, ly), (hx, hy)):
            dx, dy = s * fy, s * fx             # the frame direction (x: north, y: east) in the world
            if abs(px * dy - py * dx) <= (1e-9 * math.hypot(px, py) + 1e-9) * math.hypot(dx, dy) and px * dx + py * dy >= 0.0:
                return True
        return False

    def __call__(self, ox: float, oy: float, flip: bool, lx: float, ly: float, hx: float, hy: float) -> list[int]:
        """Indices, ascending, of the active blockers that may hide part of a target whose bearing range from
        (ox, oy) runs from the frame direction (lx, ly) to (hx, hy) (`geometry._Shape.span`'s witnesses)."""
        self.last = (ox, oy, flip, lx, ly, hx, hy)
        s = -1.0 if flip else 1.0
        lx, ly, hx, hy = s * lx, s * ly, s * hx, s * hy
        nl, nh = abs(lx) + abs(ly), abs(hx) + abs(hy)
        mi = self.margin + _REL * (abs(ox) + abs(oy))
        k1, k2, k3, k4 = lx * ox - ly * oy, hx * ox - hy * oy, lx * oy + ly * ox, hx * oy + hy * ox
        x0, y0, x1, y1 = self.x0, self.y0, self.x1, self.y1
        with np.errstate(invalid="ignore"):      # 0 * inf (a sliver's margin on a degenerate ray) is NaN: kept
            t1 = ((lx * (x1 if lx >= 0.0 else x0) - ly * (y0 if ly >= 0.0 else y1)) - k1) + nl * mi
            t2 = ((hx * (x0 if hx >= 0.0 else x1) - hy * (y1 if hy >= 0.0 else y0)) - k2) - nh * mi
            t3 = ((lx * (y1 if lx >= 0.0 else y0) + ly * (x1 if ly >= 0.0 else x0)) - k3) + nl * mi
            t4 = ((hx * (y1 if hx >= 0.0 else y0) + hy * (x1 if hy >= 0.0 else x0)) - k4) + nh * mi
            skip = (t1 < 0.0) | (t2 > 0.0) | ((t3 < 0.0) & (t4 < 0.0))
        return np.flatnonzero(self.active & ~skip).tolist()
