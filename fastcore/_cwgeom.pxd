# cython: language_level=3, cdivision=True
# Header-only plane geometry for the compiled fight kernel (issue 34): counters, arcs, facing sides, nearest points
# (hardpoint.carwars.geometry) and contact of moving counters (hardpoint.carwars.contact).
#
# Each function transcribes one reference function in the same operation order with the same libm calls, so every
# double is bit-identical to the reference's (tests/test_drive_kernel_parts.py checks them on random inputs). Build a
# module that cimports this with -ffp-contract=off: a fused multiply-add changes the roundings.
#
# Conventions (docs/geometry.md): inches; a facing in degrees, 0 = +y, clockwise; a counter's local frame has x to
# its right and y forward. Points and polygons are flat arrays x0, y0, x1, y1, ... Arc and side sets are bitmasks,
# bit i for geometry.ARCS[i]: front 0, back 1, left 2, right 3.
#
# Status codes (never an exception): CW_OK; CW_NONE where the reference returns None; CW_UNSURE where the reference's
# `Polygon(...)` could raise (fewer than three distinct vertices, zero area, non-finite, not convex within its
# tolerance, or within a rounding of that tolerance) or would divide by zero, or where a polygon has more vertices
# than a CwPolygon holds: the kernel hands that case to the reference rather than guess.
from libc.math cimport sin, sqrt, fmod, atan2, hypot, fabs, isfinite, INFINITY

cdef extern from *:
    """
    #define CW_EPS 1e-9                              /* geometry.EPS */
    #define CW_DEG2RAD (3.141592653589793 / 180.0)   /* geometry._DEG2RAD, math.radians' factor */
    #define CW_TWO_PI (2.0 * 3.141592653589793)      /* 2.0 * math.pi */
    #include <math.h>
    /* cos as a libm call of its own, as Python's math.cos is: GCC fuses sin(a) and cos(a) into one sincos(a), which
       glibc computes to the same bits but not every libm promises to; the volatile copy keeps the calls apart */
    static inline double cw_cos(double x) { volatile double y = x; return cos(y); }
    """
    const double CW_EPS
    const double CW_DEG2RAD
    const double CW_TWO_PI
    double cw_cos(double x) noexcept nogil

cdef enum:
    CW_MAXV = 8            # vertices a CwPolygon holds: a counter's 4 and the 3 at most that clipping it to an arc adds
    CW_CLIPV = 64          # scratch of a clip chain: a Sutherland-Hodgman pass at most doubles a polygon (8 -> 64)

cdef enum:
    CW_FRONT = 0           # geometry.ARCS / SIDES, and enums.Side / enums.Mount values
    CW_BACK = 1
    CW_LEFT = 2
    CW_RIGHT = 3

cdef enum:
    CW_OK = 0
    CW_NONE = 1
    CW_UNSURE = 2


cdef struct CwCounter:
    # geometry.Counter
    double cx              # Counter.cx: centre, inches
    double cy              # Counter.cy
    double length          # Counter.length: along the facing
    double width           # Counter.width: across it
    double facing          # Counter.facing: degrees, 0 = +y, clockwise


cdef struct CwPolygon:
    # geometry.Polygon.vertices as Polygon stores them (counter-clockwise, no negative zero, no exact repeats)
    int n
    double xy[2 * CW_MAXV]


# --- counters (geometry.Counter) -----------------------------------------------------------------------------------

cdef inline void cw_sincos_deg(double deg, double* s, double* c) noexcept nogil:
    """geometry._sincos_deg (CW-VEH-01): (sin, cos) of an angle in degrees, exact for multiples of 90."""
    cdef double r = fmod(deg, 360.0), a
    if r < 0.0:
        r += 360.0
    if r >= 360.0:
        r -= 360.0
    if r == 0.0:
        s[0], c[0] = 0.0, 1.0
    elif r == 90.0:
        s[0], c[0] = 1.0, 0.0
    elif r == 180.0:
        s[0], c[0] = 0.0, -1.0
    elif r == 270.0:
        s[0], c[0] = -1.0, 0.0
    else:
        a = r * CW_DEG2RAD
        s[0] = sin(a)
        c[0] = cw_cos(a)


cdef inline void cw_to_local(const CwCounter* k, double px, double py, double* lx, double* ly) noexcept nogil:
    """geometry.Counter.to_local (CW-VEH-01): world point -> local (x to the counter's right, y forward)."""
    cdef double s, c, dx, dy
    cw_sincos_deg(k.facing, &s, &c)
    dx = px - k.cx
    dy = py - k.cy
    lx[0] = dx * c - dy * s
    ly[0] = dx * s + dy * c


cdef inline void cw_to_world(const CwCounter* k, double lx, double ly, double* wx, double* wy) noexcept nogil:
    """geometry.Counter.to_world (CW-VEH-01): local point (x right, y forward) -> world point."""
    cdef double s, c
    cw_sincos_deg(k.facing, &s, &c)
    wx[0] = k.cx + lx * c + ly * s
    wy[0] = k.cy - lx * s + ly * c


cdef inline void cw_corners(const CwCounter* k, double* xy) noexcept nogil:
    """geometry.Counter.corners (CW-VEH-01): world corners front-left, front-right, back-right, back-left (xy[0:8])."""
    cdef double h = 0.5 * k.length, w = 0.5 * k.width
    cw_to_world(k, -w, h, &xy[0], &xy[1])
    cw_to_world(k, w, h, &xy[2], &xy[3])
    cw_to_world(k, w, -h, &xy[4], &xy[5])
    cw_to_world(k, -w, -h, &xy[6], &xy[7])


cdef inline void cw_side_midpoint(const CwCounter* k, int side, double* wx, double* wy) noexcept nogil:
    """geometry.Counter.side_midpoint (CW-LOF-01): the middle of a side's edge, side CW_FRONT..CW_RIGHT."""
    cdef double h = 0.5 * k.length, w = 0.5 * k.width
    if side == CW_FRONT:
        cw_to_world(k, 0.0, h, wx, wy)
    elif side == CW_BACK:
        cw_to_world(k, 0.0, -h, wx, wy)
    elif side == CW_RIGHT:
        cw_to_world(k, w, 0.0, wx, wy)
    else:
        cw_to_world(k, -w, 0.0, wx, wy)


# --- polygons (geometry.Polygon) -----------------------------------------------------------------------------------

cdef inline double cw_area2(const double* xy, int n) noexcept nogil:
    """Polygon.__post_init__'s and clip_to_arc's area2 (CW-LOF-01, CW-ARC-02): twice the signed area, summed vertex i
    with vertex i+1."""
    cdef double area2 = 0.0
    cdef int i, j
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        area2 += xy[2 * i] * xy[2 * j + 1] - xy[2 * i + 1] * xy[2 * j]
    return area2


cdef inline int cw_convex(const CwPolygon* p) noexcept nogil:
    """Polygon.__post_init__'s convexity check (CW-LOF-01): CW_OK when it surely passes, else CW_UNSURE. The reference
    measures edges with Python's own hypot (not libm's: they may differ in the last bit), so the kernel asks for twice
    the reference's margins (a turn's cross product above -0.5e-9, the winding within 0.5e-6 of a full turn): what
    passes here passes there."""
    cdef int i, j, k, n = p.n
    cdef double ax, ay, bx, by, cx, cy, l1, l2, e1x, e1y, e2x, e2y, cr, turn = 0.0
    for i in range(n):
        j = (i + 1) % n
        k = (i + 2) % n
        ax, ay = p.xy[2 * i], p.xy[2 * i + 1]
        bx, by = p.xy[2 * j], p.xy[2 * j + 1]
        cx, cy = p.xy[2 * k], p.xy[2 * k + 1]
        l1 = hypot(bx - ax, by - ay)
        l2 = hypot(cx - bx, cy - by)
        e1x, e1y, e2x, e2y = (bx - ax) / l1, (by - ay) / l1, (cx - bx) / l2, (cy - by) / l2
        cr = e1x * e2y - e1y * e2x
        if not cr >= -0.5e-9:
            return CW_UNSURE
        turn += atan2(cr, e1x * e2x + e1y * e2y)
    return CW_OK if fabs(turn - CW_TWO_PI) <= 0.5e-6 else CW_UNSURE


cdef inline int cw_polygon(const double* v, int n, CwPolygon* out) noexcept nogil:
    """geometry.Polygon.__post_init__ on n <= CW_CLIPV vertices (CW-LOF-01): each made +0.0-safe (`_point`), exact
    repeats dropped, stored counter-clockwise (reversed when the area is negative). CW_UNSURE wherever it could raise,
    or when more than CW_MAXV vertices remain."""
    cdef double pts[2 * CW_CLIPV]
    cdef double x, y, area2
    cdef int i, j, m = 0
    if n > CW_CLIPV:
        return CW_UNSURE
    for i in range(n):
        x = v[2 * i] + 0.0
        y = v[2 * i + 1] + 0.0
        if not (isfinite(x) and isfinite(y)):
            return CW_UNSURE
        if m > 0 and pts[2 * m - 2] == x and pts[2 * m - 1] == y:
            continue
        pts[2 * m], pts[2 * m + 1] = x, y
        m += 1
    while m > 1 and pts[0] == pts[2 * m - 2] and pts[1] == pts[2 * m - 1]:
        m -= 1
    if m < 3 or m > CW_MAXV:
        return CW_UNSURE
    area2 = cw_area2(pts, m)
    if area2 == 0.0:
        return CW_UNSURE
    out.n = m
    for i in range(m):
        j = i if area2 > 0.0 else m - 1 - i
        out.xy[2 * i], out.xy[2 * i + 1] = pts[2 * j], pts[2 * j + 1]
    return cw_convex(out)


cdef inline int cw_counter_polygon(const CwCounter* k, CwPolygon* out) noexcept nogil:
    """geometry.Counter.polygon (CW-VEH-01): Polygon(counter.corners())."""
    cdef double xy[8]
    cw_corners(k, xy)
    return cw_polygon(xy, 4, out)


cdef inline bint cw_contains(const CwPolygon* p, double px, double py, double tol) noexcept nogil:
    """geometry.Polygon.contains (CW-LOF-01): p inside or on the boundary (within `tol` inches outside)."""
    cdef int i, j, n = p.n
    cdef double ax, ay, ex, ey, cr
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        ax, ay = p.xy[2 * i], p.xy[2 * i + 1]
        ex, ey = p.xy[2 * j] - ax, p.xy[2 * j + 1] - ay
        cr = ex * (py - ay) - ey * (px - ax)
        if cr < 0.0 and (tol <= 0.0 or cr < -tol * sqrt(ex * ex + ey * ey)):
            return False
    return True


# --- arcs and facing sides (CW-ARC-01/02, CW-TGT-01) -------------------------------------------------------------------

cdef inline void cw_arc_halfplanes(const CwCounter* k, int arc, double arc_angle, double* hp) noexcept nogil:
    """geometry._arc_halfplanes (CW-ARC-01): the arc's three half-planes a*x + b*y + c <= 0 in local coordinates,
    into hp[0:9] as (a, b, c) each. The angle (carwars.bodies arcs.angle) is validated with the rules (0-90)."""
    cdef double s, c, h = 0.5 * k.length, w = 0.5 * k.width, cf, cs
    cw_sincos_deg(arc_angle, &s, &c)
    cf = -w * c + h * s            # front and back
    cs = w * c - h * s             # left and right
    if arc == CW_FRONT:
        hp[0], hp[1], hp[2], hp[3], hp[4], hp[5], hp[6], hp[7], hp[8] = 0.0, -1.0, h, c, -s, cf, -c, -s, cf
    elif arc == CW_BACK:
        hp[0], hp[1], hp[2], hp[3], hp[4], hp[5], hp[6], hp[7], hp[8] = 0.0, 1.0, h, c, s, cf, -c, s, cf
    elif arc == CW_RIGHT:
        hp[0], hp[1], hp[2], hp[3], hp[4], hp[5], hp[6], hp[7], hp[8] = -1.0, 0.0, w, -c, s, cs, -c, -s, cs
    else:
        hp[0], hp[1], hp[2], hp[3], hp[4], hp[5], hp[6], hp[7], hp[8] = 1.0, 0.0, w, c, s, cs, c, -s, cs


cdef inline int cw_point_arcs(const CwCounter* k, double px, double py, double arc_angle) noexcept nogil:
    """geometry.point_arcs (CW-ARC-01): the mask of the arcs that contain p (closed, within EPS)."""
    cdef double x, y
    cdef double hp[9]
    cdef int arc, i, mask = 0
    cdef bint inside
    cw_to_local(k, px, py, &x, &y)
    for arc in range(4):
        cw_arc_halfplanes(k, arc, arc_angle, hp)
        inside = True
        for i in range(3):
            if not (hp[3 * i] * x + hp[3 * i + 1] * y + hp[3 * i + 2] <= CW_EPS):
                inside = False
                break
        if inside:
            mask |= 1 << arc
    return mask


cdef inline int cw_clip(const double* pts, int n, double a, double b, double c, double slack, double* out) noexcept nogil:
    """geometry._clip (CW-ARC-01/02): Sutherland-Hodgman, the part of a convex polygon where a*x + b*y + c <= slack;
    returns the count (out must hold 2n points)."""
    cdef int i, j, m = 0
    cdef double px, py, qx, qy, fp, fq, t
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        px, py, qx, qy = pts[2 * i], pts[2 * i + 1], pts[2 * j], pts[2 * j + 1]
        fp = a * px + b * py + c - slack
        fq = a * qx + b * qy + c - slack
        if fp <= 0.0:
            out[2 * m], out[2 * m + 1] = px, py
            m += 1
        if (fp < 0.0 and 0.0 < fq) or (fq < 0.0 and 0.0 < fp):
            t = fp / (fp - fq)
            out[2 * m], out[2 * m + 1] = px + t * (qx - px), py + t * (qy - py)
            m += 1
    return m


cdef inline int cw_clip_arc(const CwCounter* k, int arc, const CwPolygon* poly, double arc_angle, double slack,
                            double* pts) noexcept nogil:
    """The loop polygon_arcs and clip_to_arc share (CW-ARC-01/02): `poly` in the counter's local frame, clipped by each
    of the arc's half-planes in turn (stopping when nothing is left); returns the count, the points in pts (2 *
    CW_CLIPV)."""
    cdef double hp[9]
    cdef double tmp[2 * CW_CLIPV]
    cdef int i, n = poly.n
    for i in range(n):
        cw_to_local(k, poly.xy[2 * i], poly.xy[2 * i + 1], &tmp[2 * i], &tmp[2 * i + 1])
    cw_arc_halfplanes(k, arc, arc_angle, hp)
    n = cw_clip(tmp, n, hp[0], hp[1], hp[2], slack, pts)
    if n:
        n = cw_clip(pts, n, hp[3], hp[4], hp[5], slack, tmp)
    if n:
        n = cw_clip(tmp, n, hp[6], hp[7], hp[8], slack, pts)
    return n


cdef inline int cw_polygon_arcs(const CwCounter* k, const CwPolygon* poly, double arc_angle) noexcept nogil:
    """geometry.polygon_arcs (CW-ARC-01): the mask of the arcs whose closed region (within EPS) meets the polygon
    (as Polygon stores it: cw_polygon, cw_counter_polygon)."""
    cdef double pts[2 * CW_CLIPV]
    cdef int arc, mask = 0
    for arc in range(4):
        if cw_clip_arc(k, arc, poly, arc_angle, CW_EPS, pts):
            mask |= 1 << arc
    return mask


cdef inline int cw_clip_to_arc(const CwCounter* k, int arc, const CwPolygon* poly, double arc_angle,
                               CwPolygon* out) noexcept nogil:
    """geometry.clip_to_arc (CW-ARC-02): the part of the polygon inside the arc, as Polygon stores it (CW_OK); CW_NONE
    where the reference returns None (nothing there, or only a touch: under 1e-12 square inch); CW_UNSURE where its
    Polygon(...) could raise (the reference then returns None) or the part has more than CW_MAXV vertices."""
    cdef double pts[2 * CW_CLIPV]
    cdef double kept[2 * CW_CLIPV]
    cdef int i, m = 0, n = cw_clip_arc(k, arc, poly, arc_angle, 0.0, pts)
    if n == 0:
        return CW_NONE
    for i in range(n):
        if m == 0 or fabs(pts[2 * i] - kept[2 * m - 2]) + fabs(pts[2 * i + 1] - kept[2 * m - 1]) > 1e-12:
            kept[2 * m], kept[2 * m + 1] = pts[2 * i], pts[2 * i + 1]
            m += 1
    while m > 1 and fabs(kept[0] - kept[2 * m - 2]) + fabs(kept[1] - kept[2 * m - 1]) <= 1e-12:
        m -= 1
    if m < 3 or fabs(cw_area2(kept, m)) < 2e-12:
        return CW_NONE
    for i in range(m):
        cw_to_world(k, kept[2 * i], kept[2 * i + 1], &pts[2 * i], &pts[2 * i + 1])
    return cw_polygon(pts, m, out)


cdef inline int cw_facing_sides(const CwCounter* k, double px, double py) noexcept nogil:
    """geometry.facing_sides (CW-TGT-01): the mask of the sides whose edge line has p strictly outside (by EPS)."""
    cdef double x, y, h = 0.5 * k.length, w = 0.5 * k.width
    cdef int mask = 0
    cw_to_local(k, px, py, &x, &y)
    if y - h > CW_EPS:
        mask |= 1 << CW_FRONT
    if -h - y > CW_EPS:
        mask |= 1 << CW_BACK
    if -w - x > CW_EPS:
        mask |= 1 << CW_LEFT
    if x - w > CW_EPS:
        mask |= 1 << CW_RIGHT
    return mask


# --- nearest points (CW-LOF-03) ----------------------------------------------------------------------------------------

cdef inline double cw_distance(double px, double py, double qx, double qy) noexcept nogil:
    """geometry.distance (CW-LOF-03): Euclidean distance between two points."""
    cdef double dx = qx - px, dy = qy - py
    return sqrt(dx * dx + dy * dy)


cdef inline int cw_nearest_on_boundary(const double* xy, int n, double* bx, double* by, double* bd2) noexcept nogil:
    """geometry._nearest_on_boundary (CW-LOF-03): the boundary point of the polygon (vertices relative to the origin)
    nearest the origin, and its squared distance. CW_UNSURE on an edge of zero length (the reference divides by 0)."""
    cdef int k, j
    cdef double ax, ay, ex, ey, ee, t, qx, qy, d2
    bx[0], by[0], bd2[0] = xy[0], xy[1], INFINITY
    for k in range(n):
        j = k + 1 if k + 1 < n else 0
        ax, ay = xy[2 * k], xy[2 * k + 1]
        ex, ey = xy[2 * j] - ax, xy[2 * j + 1] - ay
        ee = ex * ex + ey * ey
        if ee == 0.0:
            return CW_UNSURE
        t = -(ax * ex + ay * ey) / ee
        if t <= 0.0:
            qx, qy = ax, ay
        elif t >= 1.0:
            qx, qy = xy[2 * j], xy[2 * j + 1]
        else:
            qx, qy = ax + t * ex, ay + t * ey
        d2 = qx * qx + qy * qy
        if d2 < bd2[0]:
            bx[0], by[0], bd2[0] = qx, qy, d2
    return CW_OK


cdef inline int cw_nearest_point(const CwPolygon* poly, double px, double py, double* ox, double* oy) noexcept nogil:
    """geometry.nearest_point (CW-LOF-03): the point of the closed polygon nearest p (p itself, +0.0-safe, inside)."""
    cdef double rel[2 * CW_MAXV]
    cdef double qx, qy, d2
    cdef int i, status
    px, py = px + 0.0, py + 0.0
    if cw_contains(poly, px, py, 0.0):
        ox[0], oy[0] = px, py
        return CW_OK
    for i in range(poly.n):
        rel[2 * i], rel[2 * i + 1] = poly.xy[2 * i] - px, poly.xy[2 * i + 1] - py
    status = cw_nearest_on_boundary(rel, poly.n, &qx, &qy, &d2)
    ox[0], oy[0] = px + qx, py + qy
    return status


# --- contact of moving counters (FIGHT-04: hardpoint.carwars.contact) ------------------------------------------------

cdef inline bint cw_axis(const double* a, int na, const double* b, int nb, int k, double* ax, double* ay) noexcept nogil:
    """contact._axes' step (FIGHT-04): axis k of `_axes(a) + _axes(b)` counting zero edges too: edge k of a (k < na),
    else edge k - na of b, as contact._axes makes it (y1 - y0, x0 - x1); False for a zero edge, which _axes leaves
    out."""
    cdef const double* p = a
    cdef int n = na, j
    if k >= na:
        p, n, k = b, nb, k - na
    j = (k + 1) % n
    ax[0] = p[2 * j + 1] - p[2 * k + 1]
    ay[0] = p[2 * k] - p[2 * j]
    return ax[0] != 0.0 or ay[0] != 0.0


cdef inline int cw_axes(const double* poly, int n, double* out) noexcept nogil:
    """contact._axes (FIGHT-04): each non-zero edge normal (not normalised), into out (2n); returns the count."""
    cdef int i, m = 0
    for i in range(n):
        if cw_axis(poly, n, poly, n, i, &out[2 * m], &out[2 * m + 1]):
            m += 1
    return m


cdef inline void cw_project(const double* poly, int n, double ax, double ay, double* lo, double* hi) noexcept nogil:
    """contact._project (FIGHT-04): the polygon's extent along an axis."""
    cdef int i
    cdef double d
    lo[0] = poly[0] * ax + poly[1] * ay
    hi[0] = lo[0]
    for i in range(1, n):
        d = poly[2 * i] * ax + poly[2 * i + 1] * ay
        if d < lo[0]:
            lo[0] = d
        elif d > hi[0]:
            hi[0] = d


cdef inline bint cw_extents(const double* a, int na, const double* b, int nb, int k, double* ax, double* ay,
                            double* alo, double* ahi, double* blo, double* bhi) noexcept nogil:
    """contact.touching's and first_contact's step (FIGHT-04) for each axis of `_axes(a) + _axes(b)`: axis k (cw_axis)
    and both polygons' extents along it (_project); False for a zero edge, which has no axis."""
    if not cw_axis(a, na, b, nb, k, ax, ay):
        return False
    cw_project(a, na, ax[0], ay[0], alo, ahi)
    cw_project(b, nb, ax[0], ay[0], blo, bhi)
    return True


cdef extern from "Python.h":
    const long PY_VERSION_HEX


cdef inline double cw_pysum(const double* xy, int n) noexcept nogil:
    """contact._centre's sum() (FIGHT-04): Python's built-in sum() of the floats xy[0], xy[2], ... (every other one, from
    the pointer): `0 + x0` first, then left to right; from Python 3.12, with sum()'s Neumaier compensation."""
    cdef double f = 0.0 + xy[0], c = 0.0, x, t
    cdef int i
    for i in range(1, n):
        x = xy[2 * i]
        if PY_VERSION_HEX < 0x030C0000:
            f += x
            continue
        t = f + x
        if fabs(f) >= fabs(x):
            c += (f - t) + x
        else:
            c += (x - t) + f
        f = t
    if PY_VERSION_HEX >= 0x030C0000 and c != 0.0 and isfinite(c):
        f += c
    return f


cdef inline void cw_centre(const double* poly, int n, double* cx, double* cy) noexcept nogil:
    """contact._centre (FIGHT-04): the mean of the vertices."""
    cx[0] = cw_pysum(poly, n) / n
    cy[0] = cw_pysum(&poly[1], n) / n


cdef inline bint cw_touching(const double* a, int na, const double* b, int nb) noexcept nogil:
    """contact.touching (FIGHT-04): whether two convex polygons overlap or touch (no separating axis with a gap)."""
    cdef int k
    cdef double ax, ay, alo, ahi, blo, bhi
    for k in range(na + nb):
        if cw_extents(a, na, b, nb, k, &ax, &ay, &alo, &ahi, &blo, &bhi) and (bhi < alo or blo > ahi):
            return False
    return True


cdef inline void cw_contact_now(const double* a, int na, const double* b, int nb, double vx, double vy,
                                double* nx, double* ny) noexcept nogil:
    """first_contact's normal for polygons touching on every axis at t0 (FIGHT-04): the line between the centres, else
    the relative motion, else (0, 1)."""
    cdef double cax, cay, cbx, cby
    cw_centre(a, na, &cax, &cay)
    cw_centre(b, nb, &cbx, &cby)
    nx[0], ny[0] = cbx - cax, cby - cay
    if nx[0] == 0.0 and ny[0] == 0.0:
        if vx != 0.0 or vy != 0.0:
            nx[0], ny[0] = vx, vy
        else:
            nx[0], ny[0] = 0.0, 1.0


cdef inline bint cw_first_contact(const double* a, int na, double vax, double vay, const double* b, int nb,
                                  double vbx, double vby, double t0, double t1,
                                  double* time, double* nx, double* ny) noexcept nogil:
    """contact.first_contact (FIGHT-04): the first time in [t0, t1] at which a (moving at va) and b (at vb) touch, and
    the axis whose overlap began last, oriented from a to b; False where the reference returns None."""
    cdef double vx = vbx - vax, vy = vby - vay, enter = t0, leave = t1
    cdef double ax, ay, alo, ahi, blo, bhi, s, lo, hi, bestx = 0.0, besty = 0.0, cax, cay, cbx, cby, dt, dx, dy
    cdef bint found = False
    cdef int k
    for k in range(na + nb):
        if not cw_extents(a, na, b, nb, k, &ax, &ay, &alo, &ahi, &blo, &bhi):
            continue
        s = vx * ax + vy * ay
        if s == 0.0:
            if bhi < alo or blo > ahi:
                return False
            continue
        lo = t0 + (alo - bhi) / s
        hi = t0 + (ahi - blo) / s
        if s < 0.0:
            lo, hi = hi, lo
        if lo > enter:
            enter, bestx, besty, found = lo, ax, ay, True
        if hi < leave:
            leave = hi
        if enter > leave:
            return False
    time[0] = enter
    if not found:
        cw_contact_now(a, na, b, nb, vx, vy, nx, ny)
        return True
    cw_centre(a, na, &cax, &cay)
    cw_centre(b, nb, &cbx, &cby)
    dt = enter - t0
    dx = (cbx + vbx * dt) - (cax + vax * dt)
    dy = (cby + vby * dt) - (cay + vay * dt)
    if dx * bestx + dy * besty < 0.0:
        bestx, besty = -bestx, -besty
    nx[0], ny[0] = bestx, besty
    return True


cdef inline int cw_side_facing(double facing_deg, double dx, double dy) noexcept nogil:
    """contact.side_facing (FIGHT-04): the side (CW_FRONT..CW_RIGHT) whose outward normal is nearest the direction; an
    exact tie to the first of front, back, left, right."""
    cdef double s, c, d, best_dot
    cdef double nrm[8]
    cdef int side, best = CW_FRONT
    cw_sincos_deg(facing_deg, &s, &c)
    nrm[0], nrm[1], nrm[2], nrm[3], nrm[4], nrm[5], nrm[6], nrm[7] = s, c, -s, -c, -c, s, c, -s
    best_dot = nrm[0] * dx + nrm[1] * dy
    for side in range(1, 4):
        d = nrm[2 * side] * dx + nrm[2 * side + 1] * dy
        if d > best_dot:
            best, best_dot = side, d
    return best
