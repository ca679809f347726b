"""Plane geometry of Car Wars combat: counters, arcs, facing sides, line of fire.

Conventions (docs/geometry.md): inches; points are (x, y); a facing is in
degrees, 0 = +y (north), clockwise (90 = +x). A counter's local frame has x to
the driver's right and y forward. Bearings (the angles of `Sight.intervals`)
use the same convention as facings, in radians: 0 = +y, clockwise.

This is the reference implementation (ARCH-03): pure Python, stdlib `math`
only, straight-line float arithmetic in a fixed operation order so the
compiled line-of-fire kernel can be transcribed from it and match it bit for
bit. Everything here is a pure function of its arguments.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence, Union

__all__ = [
    "EPS",
    "Point",
    "Counter",
    "Polygon",
    "Sight",
    "ARCS",
    "SIDES",
    "point_arcs",
    "polygon_arcs",
    "clip_to_arc",
    "facing_sides",
    "line_of_fire",
    "segment_length_inside",
    "cloud_penalty_length",
    "nearest_point",
    "distance",
    "sincos_deg",
]

Point = tuple[float, float]

ARCS: tuple[str, ...] = ("front", "back", "left", "right")
SIDES: tuple[str, ...] = ARCS

# Tolerance, in inches, for "touches" (CW-ARC-01), "strictly outside"
# (CW-TGT-01), "origin on a boundary" and equal depths along a ray (CW-LOF-02).
EPS = 1e-9
# Slack, in inches, when looking for a line separating a blocker from the target.
_SEP_TOL = 1e-12
_DEG2RAD = math.pi / 180.0
_PI = math.pi
_INF = math.inf


def sincos_deg(deg: float) -> tuple[float, float]:
    """(sin, cos) of an angle in degrees, exact for multiples of 90."""
    r = math.fmod(deg, 360.0)
    if r < 0.0:
        r += 360.0
    if r >= 360.0:
        r -= 360.0
    if r == 0.0:
        return 0.0, 1.0
    if r == 90.0:
        return 1.0, 0.0
    if r == 180.0:
        return 0.0, -1.0
    if r == 270.0:
        return -1.0, 0.0
    a = r * _DEG2RAD
    return math.sin(a), math.cos(a)


def _point(p: Sequence[float]) -> Point:
    # + 0.0 turns -0.0 into +0.0 so atan2 never sees a negative zero.
    return (float(p[0]) + 0.0, float(p[1]) + 0.0)


def distance(p: Sequence[float], q: Sequence[float]) -> float:
    """Euclidean distance between two points, in inches (CW-LOF-03)."""
    dx = q[0] - p[0]
    dy = q[1] - p[1]
    return math.sqrt(dx * dx + dy * dy)


# --- polygons and counters ----------------------------------------------------------


@dataclass(frozen=True)
class Polygon:
    """A convex polygon: a building, a cloud, a counter's outline (CW-LOF-01).

    Vertices may be given clockwise or counter-clockwise; they are stored
    counter-clockwise (positive area). Exact repeats are dropped, collinear
    vertices are kept. Raises ValueError for fewer than three distinct
    vertices, zero area, non-finite coordinates or a non-convex outline.
    """

    vertices: tuple[Point, ...]

    def __post_init__(self) -> None:
        pts: list[Point] = []
        for v in self.vertices:
            x, y = _point(v)
            if not (math.isfinite(x) and math.isfinite(y)):
                raise ValueError(f"polygon vertex {tuple(v)!r} is not finite")
            if pts and pts[-1] == (x, y):
                continue
            pts.append((x, y))
        while len(pts) > 1 and pts[0] == pts[-1]:
            pts.pop()
        if len(pts) < 3:
            raise ValueError(f"a polygon needs three distinct vertices, got {list(self.vertices)!r}")
        n = len(pts)
        area2 = 0.0
        for i in range(n):
            ax, ay = pts[i]
            bx, by = pts[(i + 1) % n]
            area2 += ax * by - ay * bx
        if area2 == 0.0:
            raise ValueError(f"polygon {list(self.vertices)!r} has zero area")
        if area2 < 0.0:
            pts.reverse()
        turn = 0.0
        for i in range(n):
            ax, ay = pts[i]
            bx, by = pts[(i + 1) % n]
            cx, cy = pts[(i + 2) % n]
            # Unit edge directions: products of two tiny (subnormal) edge components lose
            # every significant bit, which misjudged the turns of a convex polygon with two
            # vertices 1e-323" apart (issue 19); the directions themselves are exact enough.
            l1 = math.hypot(bx - ax, by - ay)
            l2 = math.hypot(cx - bx, cy - by)
            e1x, e1y, e2x, e2y = (bx - ax) / l1, (by - ay) / l1, (cx - bx) / l2, (cy - by) / l2
            cr = e1x * e2y - e1y * e2x
            if cr < -1e-9:
                raise ValueError(f"polygon {list(self.vertices)!r} is not convex")
            turn += math.atan2(cr, e1x * e2x + e1y * e2y)
        if abs(turn - 2.0 * _PI) > 1e-6:
            raise ValueError(f"polygon {list(self.vertices)!r} is not convex (it winds {turn / (2 * _PI):.3g} times)")
        object.__setattr__(self, "vertices", tuple(pts))

    @classmethod
    def box(cls, xmin: float, ymin: float, xmax: float, ymax: float) -> Polygon:
        """An axis-aligned rectangle."""
        return cls(((xmin, ymin), (xmax, ymin), (xmax, ymax), (xmin, ymax)))

    def contains(self, p: Sequence[float], tol: float = 0.0) -> bool:
        """True if p is inside or on the boundary (within `tol` inches outside)."""
        px, py = float(p[0]), float(p[1])
        vs = self.vertices
        n = len(vs)
        for i in range(n):
            ax, ay = vs[i]
            bx, by = vs[i + 1 if i + 1 < n else 0]
            ex, ey = bx - ax, by - ay
            cr = ex * (py - ay) - ey * (px - ax)
            if cr < 0.0 and (tol <= 0.0 or cr < -tol * math.sqrt(ex * ex + ey * ey)):
                return False
        return True

    def area(self) -> float:
        """Area in square inches."""
        vs = self.vertices
        n = len(vs)
        a2 = 0.0
        for i in range(n):
            ax, ay = vs[i]
            bx, by = vs[i + 1 if i + 1 < n else 0]
            a2 += ax * by - ay * bx
        return 0.5 * a2

    def centroid(self) -> Point:
        """The area centroid."""
        vs = self.vertices
        n = len(vs)
        ox, oy = vs[0]  # shifted to vertex 0 for accuracy far from the origin
        a2 = 0.0
        sx = 0.0
        sy = 0.0
        for i in range(n):
            ax, ay = vs[i][0] - ox, vs[i][1] - oy
            j = i + 1 if i + 1 < n else 0
            bx, by = vs[j][0] - ox, vs[j][1] - oy
            cr = ax * by - ay * bx
            a2 += cr
            sx += (ax + bx) * cr
            sy += (ay + by) * cr
        return (ox + sx / (3.0 * a2), oy + sy / (3.0 * a2))


@dataclass(frozen=True)
class Counter:
    """A vehicle or pedestrian counter: a rectangle on the map (CW-VEH-01).

    Attributes:
        cx, cy: centre, inches.
        length: along the facing axis, inches.
        width: across it, inches.
        facing: degrees, 0 = +y, clockwise.
    """

    cx: float
    cy: float
    length: float
    width: float
    facing: float = 0.0

    def __post_init__(self) -> None:
        for name in ("cx", "cy", "length", "width", "facing"):
            if not math.isfinite(getattr(self, name)):
                raise ValueError(f"counter {name}={getattr(self, name)!r} is not finite")
        if not (self.length > 0.0 and self.width > 0.0):
            raise ValueError(f"counter length and width must be positive, got {self.length!r} x {self.width!r}")

    @classmethod
    def car(cls, cx: float, cy: float, facing: float = 0.0) -> Counter:
        """A car counter, 1" long and 1/2" wide."""
        return cls(cx, cy, 1.0, 0.5, facing)

    @classmethod
    def cycle(cls, cx: float, cy: float, facing: float = 0.0) -> Counter:
        """A cycle counter, 1/2" long and 1/4" wide."""
        return cls(cx, cy, 0.5, 0.25, facing)

    @classmethod
    def pedestrian(cls, cx: float, cy: float, facing: float = 0.0) -> Counter:
        """A pedestrian counter, 1/4" square."""
        return cls(cx, cy, 0.25, 0.25, facing)

    def to_local(self, p: Sequence[float]) -> Point:
        """World point -> local (x to the counter's right, y forward)."""
        s, c = sincos_deg(self.facing)
        dx = p[0] - self.cx
        dy = p[1] - self.cy
        return (dx * c - dy * s, dx * s + dy * c)

    def to_world(self, p: Sequence[float]) -> Point:
        """Local point (x right, y forward) -> world point."""
        s, c = sincos_deg(self.facing)
        lx, ly = p[0], p[1]
        return (self.cx + lx * c + ly * s, self.cy - lx * s + ly * c)

    def corners(self) -> tuple[Point, Point, Point, Point]:
        """World corners: front-left, front-right, back-right, back-left."""
        h = 0.5 * self.length
        w = 0.5 * self.width
        return (self.to_world((-w, h)), self.to_world((w, h)), self.to_world((w, -h)), self.to_world((-w, -h)))

    def side_midpoint(self, side: str) -> Point:
        """Middle of a side's edge: the firing point of a body weapon (CW-LOF-01)."""
        h = 0.5 * self.length
        w = 0.5 * self.width
        local = {"front": (0.0, h), "back": (0.0, -h), "right": (w, 0.0), "left": (-w, 0.0)}.get(str(side))
        if local is None:
            raise ValueError(f"side {side!r} is not one of front, back, left, right")
        return self.to_world(local)

    def polygon(self) -> Polygon:
        """The counter's outline as a Polygon."""
        return Polygon(self.corners())


Shape = Union[Polygon, Counter]


def _as_polygon(shape: Shape) -> Polygon:
    if isinstance(shape, Counter):
        return shape.polygon()
    if isinstance(shape, Polygon):
        return shape
    raise TypeError(f"expected a Polygon or a Counter, got {type(shape).__name__}")


# --- arcs and facing sides ----------------------------------------------------------


def _arc_halfplanes(counter: Counter, arc: str, arc_angle: float) -> tuple[tuple[float, float, float], ...]:
    """CW-ARC-01: the arc as half-planes a*x + b*y + c <= 0 in local coordinates.

    Each (a, b) is a unit normal, so a*x + b*y + c is a signed distance.
    """
    if not (0.0 <= arc_angle <= 90.0):
        raise ValueError(f"arc_angle={arc_angle!r} must be between 0 and 90 degrees (CW-ARC-01)")
    s, c = sincos_deg(arc_angle)
    h = 0.5 * counter.length
    w = 0.5 * counter.width
    # The line through the front-right corner (w, h) with direction (s, c):
    # E = (x - w) * c - (y - h) * s, front side E <= 0, right side E >= 0.
    # Its mirror images through the other three corners bound the other arcs.
    if arc == "front":
        return ((0.0, -1.0, h), (c, -s, -w * c + h * s), (-c, -s, -w * c + h * s))
    if arc == "back":
        return ((0.0, 1.0, h), (c, s, -w * c + h * s), (-c, s, -w * c + h * s))
    if arc == "right":
        return ((-1.0, 0.0, w), (-c, s, w * c - h * s), (-c, -s, w * c - h * s))
    if arc == "left":
        return ((1.0, 0.0, w), (c, s, w * c - h * s), (c, -s, w * c - h * s))
    raise ValueError(f"arc {arc!r} is not one of front, back, left, right (CW-ARC-01)")


def point_arcs(counter: Counter, p: Sequence[float], arc_angle: float = 45.0) -> frozenset[str]:
    """CW-ARC-01: the arcs of `counter` that contain point p.

    Arcs are closed (a point on a dividing line, within EPS, is in both) and a
    point inside the counter is in no arc.
    """
    x, y = counter.to_local(p)
    out = []
    for arc in ARCS:
        if all(a * x + b * y + c <= EPS for a, b, c in _arc_halfplanes(counter, arc, arc_angle)):
            out.append(arc)
    return frozenset(out)


def _clip(pts: list[Point], a: float, b: float, c: float, slack: float) -> list[Point]:
    """Sutherland-Hodgman: the part of a convex polygon where a*x + b*y + c <= slack."""
    out: list[Point] = []
    n = len(pts)
    for i in range(n):
        px, py = pts[i]
        qx, qy = pts[i + 1 if i + 1 < n else 0]
        fp = a * px + b * py + c - slack
        fq = a * qx + b * qy + c - slack
        if fp <= 0.0:
            out.append((px, py))
        if (fp < 0.0 < fq) or (fq < 0.0 < fp):
            t = fp / (fp - fq)
            out.append((px + t * (qx - px), py + t * (qy - py)))
    return out


def polygon_arcs(counter: Counter, poly: Shape, arc_angle: float = 45.0) -> frozenset[str]:
    """CW-ARC-01: the arcs of `counter` whose closed region meets `poly`.

    Judged on the whole polygon (a counter straddling or touching a dividing
    line, within EPS, is in both arcs): the polygon is clipped by each arc's
    half-planes, and the arc counts when something is left.
    """
    local = [counter.to_local(v) for v in _as_polygon(poly).vertices]
    out = []
    for arc in ARCS:
        pts = local
        for a, b, c in _arc_halfplanes(counter, arc, arc_angle):
            pts = _clip(pts, a, b, c, EPS)
            if not pts:
                break
        if pts:
            out.append(arc)
    return frozenset(out)


def clip_to_arc(counter: Counter, arc: str, poly: Shape, arc_angle: float = 45.0) -> Polygon | None:
    """CW-ARC-02: the part of `poly` inside `counter`'s arc, or None.

    None also when the two only touch (the common part has no area, below
    1e-12 square inch): there is nothing there to aim at.
    """
    pts = [counter.to_local(v) for v in _as_polygon(poly).vertices]
    for a, b, c in _arc_halfplanes(counter, arc, arc_angle):
        pts = _clip(pts, a, b, c, 0.0)
        if not pts:
            return None
    kept: list[Point] = []
    for p in pts:
        if not kept or abs(p[0] - kept[-1][0]) + abs(p[1] - kept[-1][1]) > 1e-12:
            kept.append(p)
    while len(kept) > 1 and abs(kept[0][0] - kept[-1][0]) + abs(kept[0][1] - kept[-1][1]) <= 1e-12:
        kept.pop()
    if len(kept) < 3:
        return None
    area2 = 0.0
    n = len(kept)
    for i in range(n):
        ax, ay = kept[i]
        bx, by = kept[i + 1 if i + 1 < n else 0]
        area2 += ax * by - ay * bx
    if abs(area2) < 2e-12:
        return None
    try:
        return Polygon(tuple(counter.to_world(p) for p in kept))
    except ValueError:
        return None


def facing_sides(counter: Counter, p: Sequence[float]) -> frozenset[str]:
    """CW-TGT-01: the sides whose edge line has p strictly outside (by more than EPS)."""
    x, y = counter.to_local(p)
    h = 0.5 * counter.length
    w = 0.5 * counter.width
    out = []
    if y - h > EPS:
        out.append("front")
    if -h - y > EPS:
        out.append("back")
    if -w - x > EPS:
        out.append("left")
    if x - w > EPS:
        out.append("right")
    return frozenset(out)


# --- nearest points and segments ------------------------------------------------------


def nearest_point(poly: Shape, p: Sequence[float]) -> Point:
    """The point of the closed polygon nearest to p (p itself when inside)."""
    poly = _as_polygon(poly)
    px, py = _point(p)
    if poly.contains((px, py)):
        return (px, py)
    xs = [v[0] - px for v in poly.vertices]
    ys = [v[1] - py for v in poly.vertices]
    qx, qy, _ = _nearest_on_boundary(xs, ys)
    return (px + qx, py + qy)


def _nearest_on_boundary(xs: list[float], ys: list[float]) -> tuple[float, float, float]:
    """Nearest boundary point to the origin, and its squared distance."""
    n = len(xs)
    best_x = xs[0]
    best_y = ys[0]
    best_d2 = _INF
    for k in range(n):
        j = k + 1 if k + 1 < n else 0
        ax, ay = xs[k], ys[k]
        ex = xs[j] - ax
        ey = ys[j] - ay
        ee = ex * ex + ey * ey
        t = -(ax * ex + ay * ey) / ee
        if t <= 0.0:
            qx, qy = ax, ay
        elif t >= 1.0:
            qx, qy = xs[j], ys[j]
        else:
            qx = ax + t * ex
            qy = ay + t * ey
        d2 = qx * qx + qy * qy
        if d2 < best_d2:
            best_x, best_y, best_d2 = qx, qy, d2
    return best_x, best_y, best_d2


def _segment_span(p: Point, q: Point, poly: Polygon) -> tuple[float, float]:
    """Cyrus-Beck: the parameter range [t0, t1] of p + t (q - p), t in [0, 1], inside the
    open polygon (t0 >= t1 when the segment misses it or only runs along an edge)."""
    dx = q[0] - p[0]
    dy = q[1] - p[1]
    t0 = 0.0
    t1 = 1.0
    vs = poly.vertices
    n = len(vs)
    for k in range(n):
        ax, ay = vs[k]
        bx, by = vs[k + 1 if k + 1 < n else 0]
        ex = bx - ax
        ey = by - ay
        f = ex * (p[1] - ay) - ey * (p[0] - ax)  # > 0: p strictly inside this edge
        g = ex * dy - ey * dx  # rate of change of f along the segment
        if g == 0.0:
            if f <= 0.0:
                return 0.0, 0.0
        elif g > 0.0:
            t = -f / g
            if t > t0:
                t0 = t
        else:
            t = -f / g
            if t < t1:
                t1 = t
    return t0, t1


def segment_length_inside(p: Sequence[float], q: Sequence[float], poly: Shape) -> float:
    """CW-LOF-04: length of segment pq inside a convex polygon (Cyrus-Beck clipping).

    Running exactly along an edge counts 0: like blockers, clouds are open sets.
    """
    p = _point(p)
    q = _point(q)
    t0, t1 = _segment_span(p, q, _as_polygon(poly))
    if t1 <= t0:
        return 0.0
    return _piece_length(p, q, t0, t1)


def _piece_length(p: Point, q: Point, t0: float, t1: float) -> float:
    """Length between the points at parameters t0 and t1 of segment pq."""
    dx = q[0] - p[0]
    dy = q[1] - p[1]
    return distance((p[0] + t0 * dx, p[1] + t0 * dy), (p[0] + t1 * dx, p[1] + t1 * dy))


def cloud_penalty_length(p: Sequence[float], q: Sequence[float], clouds: Sequence[Shape]) -> float:
    """CW-LOF-04: inches of segment pq inside smoke or paint.

    RULING: overlapping clouds count once (the length of pq inside their
    union). The caller turns it into -1 per 1/2", rounded up.
    """
    p = _point(p)
    q = _point(q)
    spans = []
    for cloud in clouds:
        t0, t1 = _segment_span(p, q, _as_polygon(cloud))
        if t1 > t0:
            spans.append((t0, t1))
    if not spans:
        return 0.0
    spans.sort()
    total = 0.0
    lo, hi = spans[0]
    for t0, t1 in spans[1:]:
        if t0 > hi:
            total += _piece_length(p, q, lo, hi)
            lo, hi = t0, t1
        elif t1 > hi:
            hi = t1
    return total + _piece_length(p, q, lo, hi)


# --- line of fire ---------------------------------------------------------------------


@dataclass(frozen=True)
class Sight:
    """The answer of `line_of_fire` (CW-LOF-01..03).

    Attributes:
        clear: a line of fire exists.
        intervals: the visible bearings, as closed ranges (lo, hi) in radians,
            0 = +y, clockwise, ordered left to right as seen from the origin;
            -pi <= lo < pi and lo <= hi < lo + pi (hi > pi when a range wraps
            past south). A range may be a single bearing (lo == hi). The
            origin inside the target gives ((-pi, pi),): every bearing.
        aim_point: the nearest point of the target reachable along an
            unblocked segment, or None.
        range: distance from the origin to aim_point, or None.
        blocked_by: indices of the blockers that hide some part of the target
            (each judged on its own), ascending.
    """

    clear: bool
    intervals: tuple[tuple[float, float], ...]
    aim_point: Point | None
    range: float | None
    blocked_by: tuple[int, ...]


class _Shape:
    """A polygon translated to the origin and mirrored into the bearing frame.

    In this frame atan2(y, x) is the bearing (or the bearing minus pi when
    `flip`), vertices run counter-clockwise, and for edge k (vertex k to k+1)
    `s[k]` = cross(v_k, v_k+1) > 0 when the origin is strictly inside its line.
    """

    __slots__ = ("n", "x", "y", "ex", "ey", "s", "dist", "ang")

    def __init__(self, poly: Polygon, ox: float, oy: float, flip: bool) -> None:
        vs = poly.vertices
        n = len(vs)
        self.n = n
        xs = [0.0] * n
        ys = [0.0] * n
        for i in range(n):
            vx, vy = vs[n - 1 - i]  # the mirror reverses the orientation: read backwards
            dx = vx - ox
            dy = vy - oy
            if flip:
                xs[i] = 0.0 - dy
                ys[i] = 0.0 - dx
            else:
                xs[i] = dy
                ys[i] = dx
        self.x = xs
        self.y = ys
        self.ex = [0.0] * n
        self.ey = [0.0] * n
        self.s = [0.0] * n
        self.dist = [0.0] * n
        self.ang = [0.0] * n
        for k in range(n):
            j = k + 1 if k + 1 < n else 0
            ex = xs[j] - xs[k]
            ey = ys[j] - ys[k]
            self.ex[k] = ex
            self.ey[k] = ey
            self.s[k] = xs[k] * ys[j] - ys[k] * xs[j]
            self.dist[k] = self.s[k] / math.sqrt(ex * ex + ey * ey)
            self.ang[k] = math.atan2(ys[k], xs[k])

    def chord(self, wx: float, wy: float) -> tuple[float, float]:
        """Cyrus-Beck: the range [tin, tout], tin >= 0, of t where t * w is in the polygon."""
        tin = 0.0
        tout = _INF
        for k in range(self.n):
            a = self.ex[k] * wy - self.ey[k] * wx
            if a > 0.0:
                t = -self.s[k] / a
                if t > tin:
                    tin = t
            elif a < 0.0:
                t = -self.s[k] / a
                if t < tout:
                    tout = t
            elif self.s[k] < 0.0:
                return _INF, -_INF
        return tin, tout

    def span(self) -> tuple[float, float, float, float, float, float, bool]:
        """Bearing range of the polygon seen from the origin (outside it).

        Returns (lo, hi, lo_x, lo_y, hi_x, hi_y, wraps): the extreme angles
        with a witness vertex each; when `wraps` the range crosses +-pi and
        is [lo, pi] + [-pi, hi]. Among vertices at the same extreme angle the
        nearest is the witness.
        """
        ang = self.ang
        amin = min(ang)
        amax = max(ang)
        wraps = amax - amin > _PI
        lo = _INF
        hi = -_INF
        li = 0
        hj = 0
        for k in range(self.n):
            a = ang[k]
            if wraps and a <= 0.0:
                # upper end of the [-pi, hi] piece
                if a > hi or (a == hi and self._nearer(k, hj)):
                    hi, hj = a, k
            elif wraps:
                if a < lo or (a == lo and self._nearer(k, li)):
                    lo, li = a, k
            else:
                if a < lo or (a == lo and self._nearer(k, li)):
                    lo, li = a, k
                if a > hi or (a == hi and self._nearer(k, hj)):
                    hi, hj = a, k
        return lo, hi, self.x[li], self.y[li], self.x[hj], self.y[hj], wraps

    def _nearer(self, k: int, j: int) -> bool:
        return self.x[k] * self.x[k] + self.y[k] * self.y[k] < self.x[j] * self.x[j] + self.y[j] * self.y[j]


def _separation(b: _Shape, t: _Shape) -> int:
    """Separating-axis test between blocker b and target t (origin at 0).

    Returns 1 when a line separates them (touching allowed) with the origin
    strictly on b's side, so that b is in front of t along every ray through
    both; 0 when separated otherwise (b behind t, or no ray meets both); -1
    when b's interior overlaps t.
    """
    for k in range(b.n):
        nx = b.ey[k]  # outward normal of a counter-clockwise edge
        ny = -b.ex[k]
        tol = _SEP_TOL * math.sqrt(nx * nx + ny * ny)
        bmax = -_INF
        for i in range(b.n):
            v = nx * b.x[i] + ny * b.y[i]
            if v > bmax:
                bmax = v
        tmin = _INF
        for i in range(t.n):
            v = nx * t.x[i] + ny * t.y[i]
            if v < tmin:
                tmin = v
        if tmin >= bmax - tol:
            return 1 if 0.5 * (bmax + tmin) > 0.0 else 0
    for k in range(t.n):
        nx = t.ey[k]
        ny = -t.ex[k]
        tol = _SEP_TOL * math.sqrt(nx * nx + ny * ny)
        tmax = -_INF
        for i in range(t.n):
            v = nx * t.x[i] + ny * t.y[i]
            if v > tmax:
                tmax = v
        bmin = _INF
        for i in range(b.n):
            v = nx * b.x[i] + ny * b.y[i]
            if v < bmin:
                bmin = v
        if bmin >= tmax - tol:
            return 1 if 0.5 * (tmax + bmin) < 0.0 else 0
    return -1


# A hidden bearing range: open interval (a, b) with a witness direction for each end.
_Hidden = tuple[float, float, float, float, float, float]


def _boundary_cone(b: _Shape, touching: list[int]) -> list[_Hidden]:
    """Origin on b's boundary: b hides the open cone of directions into its interior."""
    start = None
    end = None
    for k in touching:
        if start is None and all(b.ex[j] * b.ey[k] - b.ey[j] * b.ex[k] >= 0.0 for j in touching):
            start = (b.ex[k], b.ey[k])
        if end is None and all(b.ex[j] * (0.0 - b.ey[k]) - b.ey[j] * (0.0 - b.ex[k]) >= 0.0 for j in touching):
            end = (0.0 - b.ex[k], 0.0 - b.ey[k])
    if start is None or end is None:
        return []
    a0 = math.atan2(start[1], start[0])
    a1 = math.atan2(end[1], end[0])
    if a0 < a1:
        return [(a0, a1, start[0], start[1], end[0], end[1])]
    if a0 > a1:
        return [(a0, _INF, start[0], start[1], 0.0, 0.0), (-_INF, a1, 0.0, 0.0, end[0], end[1])]
    return []


def _overlap_hidden(b: _Shape, t: _Shape, pa: float, pb: float, wpa: tuple[float, float],
                    wpb: tuple[float, float], tspan: tuple[float, ...]) -> list[_Hidden]:
    """Blocker b overlaps target t: the bearings in (pa, pb) where b is entered
    strictly (by more than EPS) before t.

    Between consecutive breakpoints (vertex bearings of both, and the bearings
    of the crossings of their front edge lines, where the two entry distances
    can become equal) the sign of the depth difference is constant, so one
    test ray per piece decides it.
    """
    tlo, thi, tlx, tly, thx, thy = tspan[0], tspan[1], tspan[2], tspan[3], tspan[4], tspan[5]
    if pa >= tlo:
        lo, wlo = pa, wpa
    else:
        lo, wlo = tlo, (tlx, tly)
    if pb <= thi:
        hi, whi = pb, wpb
    else:
        hi, whi = thi, (thx, thy)
    if not lo < hi:
        return []
    cuts: list[tuple[float, float, float]] = []
    for sh in (b, t):
        for k in range(sh.n):
            a = sh.ang[k]
            if lo < a < hi:
                cuts.append((a, sh.x[k], sh.y[k]))
    for i in range(b.n):
        if b.s[i] >= 0.0:
            continue  # not facing the origin: never where a ray enters b
        for j in range(t.n):
            if t.s[j] >= 0.0:
                continue
            den = b.ex[i] * t.ey[j] - b.ey[i] * t.ex[j]
            if den == 0.0:
                continue
            u = ((t.x[j] - b.x[i]) * t.ey[j] - (t.y[j] - b.y[i]) * t.ex[j]) / den
            px = b.x[i] + u * b.ex[i]
            py = b.y[i] + u * b.ey[i]
            a = math.atan2(py, px)
            if lo < a < hi:
                cuts.append((a, px, py))
    cuts.sort()
    marks = [(lo, wlo[0], wlo[1])]
    for c in cuts:
        if c[0] > marks[-1][0]:
            marks.append(c)
    if hi > marks[-1][0]:
        marks.append((hi, whi[0], whi[1]))
    else:
        marks[-1] = (hi, whi[0], whi[1])
    out: list[_Hidden] = []
    run_start = -1
    for i in range(len(marks) - 1):
        m = 0.5 * (marks[i][0] + marks[i + 1][0])
        wx = math.cos(m)
        wy = math.sin(m)
        bin_, bout = b.chord(wx, wy)
        tin, tout = t.chord(wx, wy)
        if tin <= tout:
            hidden = bin_ <= bout and bin_ < tin - EPS
        elif m - tlo <= thi - m:
            # Missing t inside its own range: a sliver within rounding of
            # one of its extreme bearings. Judge it on that bearing.
            hidden = _hides_along(b, t, tlx, tly, True)
        else:
            hidden = _hides_along(b, t, thx, thy, True)
        if hidden and run_start < 0:
            run_start = i
        elif hidden and not _hides_along(b, t, marks[i][1], marks[i][2], False):
            # Hidden on both sides but not on this bearing: b's front edge
            # touches t's nearest point here (a crossing without a sign change).
            out.append(_run(marks, run_start, i))
            run_start = i
        elif not hidden and run_start >= 0:
            out.append(_run(marks, run_start, i))
            run_start = -1
    if run_start >= 0:
        out.append(_run(marks, run_start, len(marks) - 1))
    # A run reaching an end of the target's range where b goes on beyond it
    # also hides that end bearing, unless b and t are entered at the same depth there.
    fixed: list[_Hidden] = []
    for h in out:
        a0, a1, w0x, w0y, w1x, w1y = h
        if a0 == lo and pa < lo and _hides_along(b, t, tlx, tly, True):
            a0, w0x, w0y = pa, wpa[0], wpa[1]
        if a1 == hi and pb > hi and _hides_along(b, t, thx, thy, True):
            a1, w1x, w1y = pb, wpb[0], wpb[1]
        fixed.append((a0, a1, w0x, w0y, w1x, w1y))
    return fixed


def _run(marks: list[tuple[float, float, float]], i: int, j: int) -> _Hidden:
    return (marks[i][0], marks[j][0], marks[i][1], marks[i][2], marks[j][1], marks[j][2])


def _hides_along(b: _Shape, t: _Shape, wx: float, wy: float, at_vertex: bool) -> bool:
    """Along direction w, is b's interior entered strictly (by EPS) before t?

    With `at_vertex`, w is t's extreme vertex, so t is entered at |w| (no
    clipping, which could miss a tangent ray by rounding).
    """
    norm = math.sqrt(wx * wx + wy * wy)
    ux = wx / norm
    uy = wy / norm
    bin_, bout = b.chord(ux, uy)
    if at_vertex:
        tin = norm
    else:
        tin, tout = t.chord(ux, uy)
        if tin > tout:
            return True  # t not met on this bearing (rounding): keep the run whole
    return bin_ < bout and bin_ < tin - EPS


def line_of_fire(origin: Sequence[float], target: Shape, blockers: Sequence[Shape],
                 cull: Callable[..., Sequence[int]] | None = None) -> Sight:
    """CW-LOF-01/02/03: exact line of fire from `origin` to a convex target.

    LOF exists when some segment from the origin to a point of the target does
    not cross the interior of any blocker: blockers are open sets, so grazing
    an edge or a corner does not block (RULING, CW-LOF-02). The answer is
    exact up to float rounding, not sampled: the target's bearing range minus
    the open bearing ranges each blocker hides (a blocker that overlaps the
    target hides a bearing only where it is entered before the target).

    Edge cases (docs/geometry.md): origin inside or on the target (within EPS):
    clear, range 0, aim point = origin. A blocker containing the origin hides
    every bearing; one with the origin on its boundary hides the directions
    into it. Callers leave the firer's own counter out of `blockers`.

    Args:
        origin: the firing point.
        target: the counter or part shot at (Polygon or Counter).
        blockers: buildings, other counters, and for lasers clouds.
        cull: optional; called as cull(ox, oy, flip, lx, ly, hx, hy) with the
            origin and the target's bearing range (its witnesses in the frame,
            `_Shape.span`), returns the indices, ascending, of the blockers to
            look at: the others must be ones this function would ignore
            (`carwars.cull.Blockers` is such a cull). The answer is the same.

    Returns:
        A Sight; range and aim point are the nearest visible point (CW-LOF-03).
    """
    ox, oy = _point(origin)
    tpoly = _as_polygon(target)

    flip = False
    t = _Shape(tpoly, ox, oy, flip)
    if min(t.dist) >= -EPS:
        return Sight(True, ((-_PI, _PI),), (ox, oy), 0.0, ())
    tspan = t.span()
    if tspan[6]:
        # The target straddles due south: turn the frame half a turn so its
        # bearing range is one plain interval.
        flip = True
        t = _Shape(tpoly, ox, oy, flip)
        tspan = t.span()
    tlo, thi = tspan[0], tspan[1]
    tsp = tspan[:6]

    hidden: list[_Hidden] = []
    blocked_by: list[int] = []
    looked_at = range(len(blockers)) if cull is None else cull(ox, oy, flip, *tspan[2:6])
    for idx in looked_at:
        b = _Shape(_as_polygon(blockers[idx]), ox, oy, flip)
        dmin = min(b.dist)
        if dmin > EPS:
            mine = [(-_INF, _INF, 0.0, 0.0, 0.0, 0.0)]
        elif dmin >= -EPS:
            mine = _boundary_cone(b, [k for k in range(b.n) if b.dist[k] <= EPS])
        else:
            blo, bhi, blx, bly, bhx, bhy, wraps = b.span()
            if wraps:
                pieces = [(blo, _INF, (blx, bly), (0.0, 0.0)), (-_INF, bhi, (0.0, 0.0), (bhx, bhy))]
            else:
                pieces = [(blo, bhi, (blx, bly), (bhx, bhy))]
            pieces = [pc for pc in pieces if max(pc[0], tlo) < min(pc[1], thi)]
            if not pieces:
                continue
            sep = _separation(b, t)
            mine = []
            if sep == 1:
                mine = [(pa, pb, wa[0], wa[1], wb[0], wb[1]) for pa, pb, wa, wb in pieces]
            elif sep == -1:
                for pa, pb, wa, wb in pieces:
                    mine += _overlap_hidden(b, t, pa, pb, wa, wb, tsp)
        if any(h[0] < thi and h[1] > tlo for h in mine):
            blocked_by.append(idx)
            hidden += mine

    visible = _sweep(hidden, tsp)
    if not visible:
        return Sight(False, (), None, None, tuple(blocked_by))

    # CW-LOF-03: nearest visible point. The target's entry distance along a
    # bearing is quasi-convex, so inside a visible range the minimum is the
    # target's nearest point if its bearing is in the range, else the entry
    # point on the range's end nearer to that bearing.
    px, py, _ = _nearest_on_boundary(t.x, t.y)
    pang = math.atan2(py, px)
    best_x = 0.0
    best_y = 0.0
    best_d2 = _INF
    for a0, a1, w0x, w0y, w1x, w1y in visible:
        if a0 <= pang <= a1:
            cand = (px, py)
        elif pang < a0:
            cand = _entry(t, a0, w0x, w0y, tsp) or _entry(t, a1, w1x, w1y, tsp)
        else:
            cand = _entry(t, a1, w1x, w1y, tsp) or _entry(t, a0, w0x, w0y, tsp)
        if cand is None:
            # Only a range within rounding of the target's edge: use that edge's vertex.
            cand = (tsp[2], tsp[3]) if a0 - tlo <= thi - a1 else (tsp[4], tsp[5])
        d2 = cand[0] * cand[0] + cand[1] * cand[1]
        if d2 < best_d2:
            best_x, best_y, best_d2 = cand[0], cand[1], d2
    if flip:
        aim = (ox + (0.0 - best_y), oy + (0.0 - best_x))
        shift = _PI
    else:
        aim = (ox + best_y, oy + best_x)
        shift = 0.0
    intervals = []
    for a0, a1, _, _, _, _ in visible:
        lo = a0 + shift
        hi = a1 + shift
        if lo >= _PI:
            lo -= 2.0 * _PI
            hi -= 2.0 * _PI
        intervals.append((lo, hi))
    return Sight(True, tuple(intervals), aim, math.sqrt(best_d2), tuple(blocked_by))


def _sweep(hidden: list[_Hidden], tsp: tuple[float, ...]) -> list[_Hidden]:
    """The closed bearing ranges of [tlo, thi] covered by none of the open hidden ranges."""
    tlo, thi = tsp[0], tsp[1]
    hidden = sorted(h for h in hidden if h[0] < h[1])
    out: list[_Hidden] = []
    cur, cx, cy = tlo, tsp[2], tsp[3]
    for a, b, ax, ay, bx, by in hidden:
        if cur > thi or a >= thi:
            break
        if a >= cur:
            out.append((cur, a, cx, cy, ax, ay))
            cur, cx, cy = b, bx, by
        elif b > cur:
            cur, cx, cy = b, bx, by
    if cur <= thi:
        out.append((cur, thi, cx, cy, tsp[4], tsp[5]))
    return out


def _entry(t: _Shape, ang: float, wx: float, wy: float, tsp: tuple[float, ...]) -> Point | None:
    """Where the ray at bearing `ang` (direction w) first meets the target."""
    if ang == tsp[0]:
        return (tsp[2], tsp[3])
    if ang == tsp[1]:
        return (tsp[4], tsp[5])
    tin, tout = t.chord(wx, wy)
    if tin <= tout or (tout > 0.0 and tin - tout <= 1e-9 * tout):
        return (tin * wx, tin * wy)
    return None
