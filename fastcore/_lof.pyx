# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled batch line of fire: many (origin, target) queries against one set of blockers and clouds (ARCH-03, CW-LOF-01..04).

Must agree with the reference, query by query:
`hardpoint.carwars.geometry.line_of_fire(origin, target, blockers [+ clouds when clouds_block])`,
then, when the clouds do not block, `geometry.cloud_penalty_length(origin, aim_point, clouds)`.
The numeric core is transcribed from geometry.py in the same operation order
with the same libm calls (atan2, sqrt), and built with -ffp-contract=off, so
the figures are bit-identical to the reference's for the queries computed here.

Status per query: 0 computed; 1 a configuration not ported (the origin within
EPS of a blocker's boundary, a blocker overlapping the target, a polygon of
more than MAXV vertices): the wrapper (`hardpoint.carwars.lof`) recomputes those with
the reference. Nothing here raises or touches a Python object inside the loop,
which runs without the GIL.

Shortcuts that never change a result (each one falls back to the
transcription when it cannot decide):
* Orders of bearings are decided by cross products (`cmp_dir`) when the two
  directions are more than 1e-12 (relative) apart, far beyond atan2's
  rounding; closer calls compute the atan2 values as the reference does. So
  the extreme vertices, the wrap test and "is the nearest point inside this
  visible range" cost no atan2, and the bearing values are computed only
  when a blocker reaches the sweep.
* The cull: a blocker whose bounding box lies outside the target's cone
  (beyond either edge ray, or behind both) by a margin is skipped. The margin
  keeps the origin more than EPS outside every edge line of the blocker (hence
  4 EPS over the sine of its sharpest half-angle) and its bearings 1e-12 rad
  clear of the target's, so the reference drops it too (its pieces are empty).
* The grid (CW-LOF-01, FAST-03): with many blockers, each is registered in
  the cells of a uniform grid its bounding box, widened by its cull margin
  and 1e-6" (plus 1e-9 of its coordinates), overlaps; a query visits only
  the cells that the convex hull of the origin and the target meets, row by
  row, and runs the cone cull on the blockers found there, in index order;
  when the aim point lies on one of the target's edge rays (origin through
  its extreme vertices), the query is traced again with the blockers touching
  those rays out of the grid too. A blocker that can hide part of the target
  meets some segment from the origin to a point of the target, so it meets
  that hull; one beyond the target with an edge in line with an edge ray can
  be judged in front by a rounding in the reference and hide a hair of the
  target at that ray (the last bit of the range), which only matters when the
  aim point is there. The blockers the
  grid leaves out are inside the cone strictly behind the target (dropped by
  the reference's separation with room to spare) or outside it by the margin:
  the result is the linear cull's, which is the reference's. Slivers (an
  infinite cull margin) are always visited.
* A blocker separated behind the target (separating axis, result 0) is
  dropped before its bearings are computed: the reference ignores it whatever
  they are. One in front whose bearing range strictly covers the target's
  hides it whatever the other blockers do.

`normalize_rows` orients vertex rows as `geometry.Polygon` stores them, for
the rows it can vouch for; the wrapper gives the others to Polygon itself.
"""
from libc.math cimport atan2, sqrt, fabs, floor, ceil, signbit, INFINITY, NAN, M_PI
from libc.stdlib cimport malloc, calloc, free, qsort
from libc.stdint cimport int64_t, uint8_t, int8_t

from _cwshape cimport *

MAX_VERTICES = MAXV

cdef double EPS = 1e-9       # geometry.EPS
cdef double SEP_TOL = 1e-12  # geometry._SEP_TOL
cdef double INF = INFINITY
cdef double PI = M_PI        # == math.pi
cdef double REL = 1e-12      # relative margin of the exact-safe predicates


cdef struct Rng:
    # an open hidden bearing range, or a closed visible one, with witness directions
    double a, b, ax, ay, bx, by


cdef int separation(Shape* b, Shape* t) noexcept nogil:
    """geometry._separation: 1 b in front of t, 0 separated otherwise, -1 overlapping."""
    cdef int k, i
    cdef double nx, ny, tol, bmax, tmin, tmax, bmin, v
    for k in range(b.n):
        nx = b.ey[k]
        ny = -b.ex[k]
        tol = SEP_TOL * sqrt(nx * nx + ny * ny)
        bmax = -INF
        for i in range(b.n):
            v = nx * b.x[i] + ny * b.y[i]
            if v > bmax:
                bmax = v
        tmin = INF
        for i in range(t.n):
            v = nx * t.x[i] + ny * t.y[i]
            if v < tmin:
                tmin = v
        if tmin >= bmax - tol:
            return 1 if 0.5 * (bmax + tmin) > 0.0 else 0
    for k in range(t.n):
        nx = t.ey[k]
        ny = -t.ex[k]
        tol = SEP_TOL * sqrt(nx * nx + ny * ny)
        tmax = -INF
        for i in range(t.n):
            v = nx * t.x[i] + ny * t.y[i]
            if v > tmax:
                tmax = v
        bmin = INF
        for i in range(b.n):
            v = nx * b.x[i] + ny * b.y[i]
            if v < bmin:
                bmin = v
        if bmin >= tmax - tol:
            return 1 if 0.5 * (tmax + bmin) < 0.0 else 0
    return -1


cdef inline bint rng_less(Rng* p, Rng* q) noexcept nogil:
    """Python's tuple order on (a, b, ax, ay, bx, by)."""
    if p.a != q.a:
        return p.a < q.a
    if p.b != q.b:
        return p.b < q.b
    if p.ax != q.ax:
        return p.ax < q.ax
    if p.ay != q.ay:
        return p.ay < q.ay
    if p.bx != q.bx:
        return p.bx < q.bx
    return p.by < q.by


cdef int sweep(Rng* hidden, int nh, Span* sp, Rng* out) noexcept nogil:
    """geometry._sweep: the closed ranges of [tlo, thi] covered by no open hidden range."""
    cdef int i, j, m = 0, nv = 0
    cdef Rng tmp
    cdef double cur, cx, cy, tlo = sp.lo, thi = sp.hi
    # keep h[0] < h[1], then insertion sort (stable; a handful of entries)
    for i in range(nh):
        if hidden[i].a < hidden[i].b:
            hidden[m] = hidden[i]
            m += 1
    for i in range(1, m):
        tmp = hidden[i]
        j = i - 1
        while j >= 0 and rng_less(&tmp, &hidden[j]):
            hidden[j + 1] = hidden[j]
            j -= 1
        hidden[j + 1] = tmp
    cur = tlo
    cx = sp.lx
    cy = sp.ly
    for i in range(m):
        if cur > thi or hidden[i].a >= thi:
            break
        if hidden[i].a >= cur:
            out[nv].a = cur
            out[nv].b = hidden[i].a
            out[nv].ax = cx
            out[nv].ay = cy
            out[nv].bx = hidden[i].ax
            out[nv].by = hidden[i].ay
            nv += 1
            cur = hidden[i].b
            cx = hidden[i].bx
            cy = hidden[i].by
        elif hidden[i].b > cur:
            cur = hidden[i].b
            cx = hidden[i].bx
            cy = hidden[i].by
    if cur <= thi:
        out[nv].a = cur
        out[nv].b = thi
        out[nv].ax = cx
        out[nv].ay = cy
        out[nv].bx = sp.hx
        out[nv].by = sp.hy
        nv += 1
    return nv


# --- exact-safe bearing order ---------------------------------------------------------------


cdef inline int half(double x, double y) noexcept nogil:
    """0 when atan2(y, x) is in (-pi, 0], 1 when in (0, pi] (coordinates are never -0.0)."""
    if y < 0.0:
        return 0
    if y > 0.0:
        return 1
    return 0 if x >= 0.0 else 1


cdef inline int cmp_dir(double ux, double uy, double vx, double vy) noexcept nogil:
    """Order of atan2(uy, ux) and atan2(vy, vx): -1 u first, 1 v first, 0 too close to call.

    Within a half-plane the sign of the cross product is the order; it is
    trusted only above 1e-12 of the (L1) norms, which is far more than the
    rounding of the cross product and of atan2 itself.
    """
    cdef int hu, hv
    cdef double c, tol
    if (uy != 0.0 and fabs(uy) < 1e-280 * fabs(ux)) or (vy != 0.0 and fabs(vy) < 1e-280 * fabs(vx)):
        return 0   # atan2 could underflow to a signed zero
    hu = half(ux, uy)
    hv = half(vx, vy)
    if hu != hv:
        return -1 if hu < hv else 1
    c = ux * vy - uy * vx
    tol = REL * (fabs(ux) + fabs(uy)) * (fabs(vx) + fabs(vy))
    if c > tol:
        return -1
    if c < -tol:
        return 1
    return 0


cdef inline int order(Shape* sh, int* hv, double* nv, int k, int j) noexcept nogil:
    """cmp_dir of vertices k and j, with their halves and L1 norms precomputed."""
    cdef double c, tol
    if hv[k] != hv[j]:
        return -1 if hv[k] < hv[j] else 1
    c = sh.x[k] * sh.y[j] - sh.y[k] * sh.x[j]
    tol = REL * nv[k] * nv[j]
    if c > tol:
        return -1
    if c < -tol:
        return 1
    return 0


cdef int fast_span(Shape* sh, Span* sp) noexcept nogil:
    """The witnesses and wrap flag of _Shape.span, decided without atan2.

    Returns 1 when some comparison is too close to call (the caller then
    computes the angles and calls shape_span). Leaves sp.vals = 0.
    """
    cdef int k, c, li = 0, hj = 0, n = sh.n, lo = -1, hi = -1
    cdef int hv[MAXV]
    cdef double nv[MAXV]
    cdef double x, y, cr, tol
    for k in range(n):
        x = sh.x[k]
        y = sh.y[k]
        if y != 0.0 and fabs(y) < 1e-280 * fabs(x):
            return 1   # atan2 could underflow to a signed zero
        hv[k] = half(x, y)
        nv[k] = fabs(x) + fabs(y)
    for k in range(1, n):
        c = order(sh, hv, nv, k, li)
        if c == 0:
            return 1
        if c < 0:
            li = k
        c = order(sh, hv, nv, k, hj)
        if c == 0:
            return 1
        if c > 0:
            hj = k
    sp.vals = 0
    sp.wraps = 0
    if hv[li] != hv[hj]:
        # amax - amin > pi, i.e. the turn from the first to the last is clockwise
        cr = sh.x[li] * sh.y[hj] - sh.y[li] * sh.x[hj]
        tol = REL * nv[li] * nv[hj]
        if -tol <= cr and cr <= tol:
            return 1
        sp.wraps = cr < 0.0
    if sp.wraps:
        # lo: first bearing in (0, pi]; hi: last in (-pi, 0]
        for k in range(n):
            if hv[k]:
                if lo < 0:
                    lo = k
                else:
                    c = order(sh, hv, nv, k, lo)
                    if c == 0:
                        return 1
                    if c < 0:
                        lo = k
            else:
                if hi < 0:
                    hi = k
                else:
                    c = order(sh, hv, nv, k, hi)
                    if c == 0:
                        return 1
                    if c > 0:
                        hi = k
        li = lo
        hj = hi
    sp.lx = sh.x[li]
    sp.ly = sh.y[li]
    sp.hx = sh.x[hj]
    sp.hy = sh.y[hj]
    return 0


cdef inline void span_values(Span* sp) noexcept nogil:
    """lo and hi as the reference computes them: atan2 of the witness vertices."""
    if not sp.vals:
        sp.lo = atan2(sp.ly, sp.lx)
        sp.hi = atan2(sp.hy, sp.hx)
        sp.vals = 1


cdef inline void exact_span(Shape* sh, Span* sp) noexcept nogil:
    shape_angles(sh)
    shape_span(sh, sp)
    sp.vals = 1


# --- the cull -------------------------------------------------------------------------------


cdef struct Boxes:
    # per blocker, structure of arrays: bounding box, size and cull margin
    double* x0
    double* y0
    double* x1
    double* y1
    double* margin   # delta + 1e-12 (max |x| + max |y| over the box), delta = 4 EPS / sin(sharpest half-angle)


cdef double cull_margin(const double* v, int n) noexcept nogil:
    """4 EPS over (0.99 of) the smallest sin(alpha/2) among the polygon's vertex angles alpha.

    Outside a convex polygon at Euclidean distance d, the origin is at least
    d * sin(alpha_min / 2) outside some edge line: so at this distance the
    reference's min(dist) is below -EPS and it never takes the boundary branch.
    """
    cdef int k, i, j
    cdef double ax, ay, bx, by, na, nb, c, sig = 1.0, h
    for k in range(n):
        i = k - 1 if k > 0 else n - 1
        j = k + 1 if k + 1 < n else 0
        ax = v[2 * i] - v[2 * k]
        ay = v[2 * i + 1] - v[2 * k + 1]
        bx = v[2 * j] - v[2 * k]
        by = v[2 * j + 1] - v[2 * k + 1]
        na = sqrt(ax * ax + ay * ay)
        nb = sqrt(bx * bx + by * by)
        c = (ax * bx + ay * by) / (na * nb)      # cos(alpha)
        h = 0.5 * (1.0 - c)
        h = sqrt(h) if h > 0.0 else 0.0          # sin(alpha / 2)
        if h < sig:
            sig = h
    sig *= 0.99
    if not sig > 1e-6:
        return INF   # a sliver: never culled
    return 4.0 * EPS / sig


cdef int cull(Boxes* bx, int nb, double ox, double oy, int flip, Span* tsp, int* keep, uint8_t* flag) noexcept nogil:
    """Indices of the blockers that may hide part of the target (the others certainly do not).

    In the bearing frame a world point c is at p = s (cy - oy, cx - ox), s = -1
    with the flip. With L~ = s L, cross(L, p) = (L~x cx - L~y cy) - (L~x ox - L~y oy)
    and dot(L, p) = (L~x cy + L~y cx) - (L~x oy + L~y ox): linear in c, so their
    extremes over a box are at the corner picked by the signs of L~.
    A blocker is dropped when, with margin m = delta + 1e-12 (r + |o|):
    max cross(L, p) < -|L|_1 m (clockwise of the first ray), or
    min cross(H, p) > |H|_1 m (counter-clockwise of the last ray), or
    max dot(L, p) < -|L|_1 m and max dot(H, p) < -|H|_1 m (behind both).
    The rounding of these sums is below 1e-15 |L|_1 (r + |o|): the 1e-12 term covers it.
    """
    cdef double s = -1.0 if flip else 1.0
    cdef double lx = s * tsp.lx, ly = s * tsp.ly, hx = s * tsp.hx, hy = s * tsp.hy
    cdef double nl = fabs(lx) + fabs(ly), nh = fabs(hx) + fabs(hy), mo = REL * (fabs(ox) + fabs(oy))
    cdef double k1 = lx * ox - ly * oy, k2 = hx * ox - hy * oy, k3 = lx * oy + ly * ox, k4 = hx * oy + hy * ox
    # corners: maximise lx*cx - ly*cy; minimise hx*cx - hy*cy; maximise lx*cy + ly*cx and hx*cy + hy*cx
    cdef const double* c1x = bx.x1 if lx >= 0.0 else bx.x0
    cdef const double* c1y = bx.y0 if ly >= 0.0 else bx.y1
    cdef const double* c2x = bx.x0 if hx >= 0.0 else bx.x1
    cdef const double* c2y = bx.y1 if hy >= 0.0 else bx.y0
    cdef const double* c3y = bx.y1 if lx >= 0.0 else bx.y0
    cdef const double* c3x = bx.x1 if ly >= 0.0 else bx.x0
    cdef const double* c4y = bx.y1 if hx >= 0.0 else bx.y0
    cdef const double* c4x = bx.x1 if hy >= 0.0 else bx.x0
    cdef const double* cst = bx.margin
    cdef int i, m = 0
    cdef double mi, t1, t2, t3, t4
    for i in range(nb):   # branch-free, so that it vectorises
        mi = cst[i] + mo
        t1 = ((lx * c1x[i] - ly * c1y[i]) - k1) + nl * mi
        t2 = ((hx * c2x[i] - hy * c2y[i]) - k2) - nh * mi
        t3 = ((lx * c3y[i] + ly * c3x[i]) - k3) + nl * mi
        t4 = ((hx * c4y[i] + hy * c4x[i]) - k4) + nh * mi
        flag[i] = (t1 < 0.0) | (t2 > 0.0) | ((t3 < 0.0) & (t4 < 0.0))
    for i in range(nb):
        if not flag[i]:
            keep[m] = i
            m += 1
    return m


cdef int cull_some(Boxes* bx, const int* idx, int m, double ox, double oy, int flip, Span* tsp, int* keep) noexcept nogil:
    """`cull` on the blockers idx[0..m), in their order: the same predicates, term by term, so the same verdicts."""
    cdef double s = -1.0 if flip else 1.0
    cdef double lx = s * tsp.lx, ly = s * tsp.ly, hx = s * tsp.hx, hy = s * tsp.hy
    cdef double nl = fabs(lx) + fabs(ly), nh = fabs(hx) + fabs(hy), mo = REL * (fabs(ox) + fabs(oy))
    cdef double k1 = lx * ox - ly * oy, k2 = hx * ox - hy * oy, k3 = lx * oy + ly * ox, k4 = hx * oy + hy * ox
    cdef const double* c1x = bx.x1 if lx >= 0.0 else bx.x0
    cdef const double* c1y = bx.y0 if ly >= 0.0 else bx.y1
    cdef const double* c2x = bx.x0 if hx >= 0.0 else bx.x1
    cdef const double* c2y = bx.y1 if hy >= 0.0 else bx.y0
    cdef const double* c3y = bx.y1 if lx >= 0.0 else bx.y0
    cdef const double* c3x = bx.x1 if ly >= 0.0 else bx.x0
    cdef const double* c4y = bx.y1 if hx >= 0.0 else bx.y0
    cdef const double* c4x = bx.x1 if hy >= 0.0 else bx.x0
    cdef int j, i, n = 0
    cdef double mi, t1, t2, t3, t4
    for j in range(m):
        i = idx[j]
        mi = bx.margin[i] + mo
        t1 = ((lx * c1x[i] - ly * c1y[i]) - k1) + nl * mi
        t2 = ((hx * c2x[i] - hy * c2y[i]) - k2) - nh * mi
        t3 = ((lx * c3y[i] + ly * c3x[i]) - k3) + nl * mi
        t4 = ((hx * c4y[i] + hy * c4x[i]) - k4) + nh * mi
        if not ((t1 < 0.0) | (t2 > 0.0) | ((t3 < 0.0) & (t4 < 0.0))):
            keep[n] = i
            n += 1
    return n


cdef enum:
    GRID_MIN = 192         # blockers from which a query goes through the grid (fewer: the linear cull is faster)
    GRID_MAX_SIDE = 2048   # cells along a side, at most
    GRID_LOAD = 24         # registrations per blocker, at most on average (else coarser cells, or no grid)

cdef double GRID_PAD = 1e-6    # inches added around every registered box (beyond its cull margin)


cdef struct Grid:
    int on
    int cols, rows
    double x0, y0, inv          # cell (c, r) holds x in [x0 + c / inv, x0 + (c + 1) / inv), the same for y
    int* start                  # cols * rows + 1 offsets into items
    int* items                  # blocker indices, ascending within a cell
    int* always                 # slivers (infinite cull margin): visited by every query
    int n_always
    int64_t* stamp              # per blocker: the last query that visited it
    int64_t query
    int* cand                   # the blockers a query visits
    double* rxmin               # per row: the hull's x extent in the row's band
    double* rxmax
    double* sxmin               # per row: an edge ray's x extent in the row's band
    double* sxmax
    double gx1, gy1             # the far corner of the grid
    const double* bx0           # the blockers' boxes (the Work's)
    const double* by0
    const double* bx1
    const double* by1
    const double** bv           # the blockers' vertices (the Work's)
    int* bn
    double* tol                 # per blocker: the edge-ray tolerance, its padding plus 1e-6 of its coordinates


cdef inline int grid_cell(double v, double v0, double inv, int n) noexcept nogil:
    """The cell index of coordinate v, clamped to [0, n): floor((v - v0) * inv), monotone in v."""
    cdef double t = (v - v0) * inv
    if not t > 0.0:
        return 0
    if t >= n:
        return n - 1
    return <int>t


cdef inline double reg_pad(Boxes* bx, int i) noexcept nogil:
    cdef double a = fabs(bx.x0[i]), b = fabs(bx.x1[i]), c = fabs(bx.y0[i]), d = fabs(bx.y1[i])
    if b > a:
        a = b
    if d > c:
        c = d
    return bx.margin[i] + GRID_PAD + 1e-9 * (a + c)


cdef void free_grid(Grid* g) noexcept nogil:
    free(g.start)
    free(g.items)
    free(g.always)
    free(g.stamp)
    free(g.cand)
    free(g.rxmin)
    free(g.rxmax)
    free(g.sxmin)
    free(g.sxmax)
    free(g.tol)
    g.start = NULL
    g.items = NULL
    g.always = NULL
    g.stamp = NULL
    g.cand = NULL
    g.rxmin = NULL
    g.rxmax = NULL
    g.sxmin = NULL
    g.sxmax = NULL
    g.tol = NULL
    g.on = 0


cdef int build_grid(Grid* g, Boxes* bx, int nb, const double** bv, int* bn) noexcept nogil:
    """Register every blocker in the cells its widened box overlaps. Returns 1 when the grid is on; 0 when the
    blockers are too few, too large or memory is short (queries then use the linear cull, with the same results)."""
    cdef int i, c, r, c0, c1, r0, r1, tries, cell
    cdef int n_grid = 0
    cdef double gx0 = INF, gy0 = INF, gx1 = -INF, gy1 = -INF, pad, w, h, cs, side = 0.0
    cdef int64_t regs
    g.on = 0
    g.start = NULL
    g.items = NULL
    g.always = NULL
    g.stamp = NULL
    g.cand = NULL
    g.rxmin = NULL
    g.rxmax = NULL
    g.sxmin = NULL
    g.sxmax = NULL
    g.tol = NULL
    g.n_always = 0
    g.query = 0
    g.bv = bv
    g.bn = bn
    g.bx0 = bx.x0
    g.by0 = bx.y0
    g.bx1 = bx.x1
    g.by1 = bx.y1
    if nb < GRID_MIN:
        return 0
    for i in range(nb):
        if not bx.margin[i] < INF:
            continue
        pad = reg_pad(bx, i)
        if bx.x0[i] - pad < gx0:
            gx0 = bx.x0[i] - pad
        if bx.y0[i] - pad < gy0:
            gy0 = bx.y0[i] - pad
        if bx.x1[i] + pad > gx1:
            gx1 = bx.x1[i] + pad
        if bx.y1[i] + pad > gy1:
            gy1 = bx.y1[i] + pad
        side += (bx.x1[i] - bx.x0[i]) + (bx.y1[i] - bx.y0[i])
        n_grid += 1
    if n_grid < GRID_MIN:
        return 0
    w = gx1 - gx0
    h = gy1 - gy0
    cs = 1.5 * sqrt(w * h / n_grid)            # about two blockers a cell: fewer cells along the edge rays
    if cs < 0.5 * side / n_grid:               # but no smaller than a typical blocker's side
        cs = 0.5 * side / n_grid
    if not cs > 0.0:
        return 0
    for tries in range(8):
        if w / cs >= GRID_MAX_SIDE or h / cs >= GRID_MAX_SIDE:
            cs *= 2.0
            continue
        g.inv = 1.0 / cs
        g.cols = <int>(w * g.inv) + 1
        g.rows = <int>(h * g.inv) + 1
        g.x0 = gx0
        g.y0 = gy0
        regs = 0
        for i in range(nb):
            if not bx.margin[i] < INF:
                continue
            pad = reg_pad(bx, i)
            c0 = grid_cell(bx.x0[i] - pad, gx0, g.inv, g.cols)
            c1 = grid_cell(bx.x1[i] + pad, gx0, g.inv, g.cols)
            r0 = grid_cell(bx.y0[i] - pad, gy0, g.inv, g.rows)
            r1 = grid_cell(bx.y1[i] + pad, gy0, g.inv, g.rows)
            regs += <int64_t>(c1 - c0 + 1) * (r1 - r0 + 1)
        if regs <= <int64_t>GRID_LOAD * n_grid:
            break
        cs *= 2.0
    else:
        return 0
    g.start = <int*>calloc(<size_t>g.cols * g.rows + 1, sizeof(int))
    g.items = <int*>malloc((regs + 1) * sizeof(int))
    g.always = <int*>malloc((nb - n_grid + 1) * sizeof(int))
    g.stamp = <int64_t*>calloc(nb + 1, sizeof(int64_t))
    g.cand = <int*>malloc((nb + 1) * sizeof(int))
    g.rxmin = <double*>malloc((g.rows + 1) * sizeof(double))
    g.rxmax = <double*>malloc((g.rows + 1) * sizeof(double))
    g.sxmin = <double*>malloc((g.rows + 1) * sizeof(double))
    g.sxmax = <double*>malloc((g.rows + 1) * sizeof(double))
    g.tol = <double*>malloc((nb + 1) * sizeof(double))
    g.gx1 = gx1
    g.gy1 = gy1
    if (g.start == NULL or g.items == NULL or g.always == NULL or g.stamp == NULL or g.cand == NULL or g.rxmin == NULL
            or g.rxmax == NULL or g.sxmin == NULL or g.sxmax == NULL or g.tol == NULL):
        free_grid(g)
        return 0
    for i in range(nb):
        if bx.margin[i] < INF:
            g.tol[i] = reg_pad(bx, i) + 1e-6 * (fabs(bx.x0[i]) + fabs(bx.x1[i]) + fabs(bx.y0[i]) + fabs(bx.y1[i]) + 1.0)
    # counts, offsets, then fill (blocker order kept within each cell)
    for i in range(nb):
        if not bx.margin[i] < INF:
            g.always[g.n_always] = i
            g.n_always += 1
            continue
        pad = reg_pad(bx, i)
        c0 = grid_cell(bx.x0[i] - pad, gx0, g.inv, g.cols)
        c1 = grid_cell(bx.x1[i] + pad, gx0, g.inv, g.cols)
        r0 = grid_cell(bx.y0[i] - pad, gy0, g.inv, g.rows)
        r1 = grid_cell(bx.y1[i] + pad, gy0, g.inv, g.rows)
        for r in range(r0, r1 + 1):
            for c in range(c0, c1 + 1):
                g.start[r * g.cols + c + 1] += 1
    for cell in range(g.cols * g.rows):
        g.start[cell + 1] += g.start[cell]
    for i in range(nb):
        if not bx.margin[i] < INF:
            continue
        pad = reg_pad(bx, i)
        c0 = grid_cell(bx.x0[i] - pad, gx0, g.inv, g.cols)
        c1 = grid_cell(bx.x1[i] + pad, gx0, g.inv, g.cols)
        r0 = grid_cell(bx.y0[i] - pad, gy0, g.inv, g.rows)
        r1 = grid_cell(bx.y1[i] + pad, gy0, g.inv, g.rows)
        for r in range(r0, r1 + 1):
            for c in range(c0, c1 + 1):
                cell = r * g.cols + c
                g.items[g.start[cell]] = i
                g.start[cell] += 1
    for cell in range(g.cols * g.rows, 0, -1):     # the fill moved each start to the next cell's: move them back
        g.start[cell] = g.start[cell - 1]
    g.start[0] = 0
    g.on = 1
    return 1


cdef inline void hull_segment(Grid* g, double ax, double ay, double bx_, double by, double pad) noexcept nogil:
    """Widen each row's x extent by the part of segment a-b inside the row's band (widened by pad)."""
    segment_rows(g, ax, ay, bx_, by, pad, g.rxmin, g.rxmax)


cdef inline void segment_rows(Grid* g, double ax, double ay, double bx_, double by, double pad, double* rxmin,
                              double* rxmax) noexcept nogil:
    """Widen rxmin/rxmax[row] by the x extent of the part of segment a-b inside each row's band (widened by pad)."""
    cdef int r, r0, r1
    cdef double ya, yb, xa, xb, lo, hi, t, x, band0, band1, cs = 1.0 / g.inv
    if ay > by:
        ax, bx_ = bx_, ax
        ay, by = by, ay
    r0 = grid_cell(ay - pad, g.y0, g.inv, g.rows)
    r1 = grid_cell(by + pad, g.y0, g.inv, g.rows)
    for r in range(r0, r1 + 1):
        band0 = g.y0 + r * cs - pad
        band1 = g.y0 + (r + 1) * cs + pad
        ya = ay if ay > band0 else band0
        yb = by if by < band1 else band1
        if ya > yb:
            continue        # the segment misses the band (a clamped row beyond the grid's: no blocker lies there)
        if by - ay > 0.0:
            t = (ya - ay) / (by - ay)
            xa = ax + t * (bx_ - ax)
            t = (yb - ay) / (by - ay)
            xb = ax + t * (bx_ - ax)
        else:
            xa = ax
            xb = bx_
        lo = xa if xa < xb else xb
        hi = xb if xa < xb else xa
        if lo < rxmin[r]:
            rxmin[r] = lo
        if hi > rxmax[r]:
            rxmax[r] = hi


cdef inline int visit_rows(Grid* g, int r0, int r1, const double* rxmin, const double* rxmax, double pad, int64_t q,
                           int m) noexcept nogil:
    """Add the not yet visited blockers of the cells of rows r0..r1 within each row's x extent."""
    cdef int r, c, c0, c1, j, i, cell
    for r in range(r0, r1 + 1):
        if not rxmin[r] <= rxmax[r]:
            continue
        c0 = grid_cell(rxmin[r] - pad, g.x0, g.inv, g.cols)
        c1 = grid_cell(rxmax[r] + pad, g.x0, g.inv, g.cols)
        for c in range(c0, c1 + 1):
            cell = r * g.cols + c
            for j in range(g.start[cell], g.start[cell + 1]):
                i = g.items[j]
                if g.stamp[i] != q:
                    g.stamp[i] = q
                    g.cand[m] = i
                    m += 1
    return m


cdef inline int visit_ray(Grid* g, double ox, double oy, double dx, double dy, double pad, int64_t q, int m) noexcept nogil:
    """Add the blockers of the cells along the ray from (ox, oy) in direction (dx, dy), out of the grid."""
    cdef double reach, n, ex, ey, fx, fy
    cdef int r, r0, r1
    n = sqrt(dx * dx + dy * dy)
    if not n > 0.0:
        return m
    fx = fabs(ox - g.x0) if fabs(ox - g.x0) > fabs(g.gx1 - ox) else fabs(g.gx1 - ox)
    fy = fabs(oy - g.y0) if fabs(oy - g.y0) > fabs(g.gy1 - oy) else fabs(g.gy1 - oy)
    reach = (fx + fy + 1.0) / n        # past the grid's farthest corner
    # From the target's extreme vertex (t = 1: the hull holds the ray up to it) to where it leaves the grid's box
    # (Liang-Barsky): beyond the box no blocker lies, and a clamped column would visit the edge cells for nothing.
    cdef double t0 = 1.0, t1 = reach, p_, q_, t
    cdef double bx0 = g.x0 - pad, by0 = g.y0 - pad, bx1 = g.gx1 + pad, by1 = g.gy1 + pad
    cdef int side
    for side in range(4):
        if side == 0:
            p_ = -dx
            q_ = ox - bx0
        elif side == 1:
            p_ = dx
            q_ = bx1 - ox
        elif side == 2:
            p_ = -dy
            q_ = oy - by0
        else:
            p_ = dy
            q_ = by1 - oy
        if p_ == 0.0:
            if q_ < 0.0:
                return m
        else:
            t = q_ / p_
            if p_ < 0.0:
                if t > t0:
                    t0 = t
            elif t < t1:
                t1 = t
    if t0 > t1:
        return m
    ex = ox + t1 * dx
    ey = oy + t1 * dy
    ox = ox + t0 * dx
    oy = oy + t0 * dy
    r0 = grid_cell((oy if oy < ey else ey) - pad, g.y0, g.inv, g.rows)
    r1 = grid_cell((oy if oy > ey else ey) + pad, g.y0, g.inv, g.rows)
    for r in range(r0, r1 + 1):
        g.sxmin[r] = INF
        g.sxmax[r] = -INF
    segment_rows(g, ox, oy, ex, ey, pad, g.sxmin, g.sxmax)
    # Of the blockers there, only those the ray's line touches from one side (within a tolerance far above any
    # rounding) can be misjudged; one the line crosses deeply, beyond the target, is behind it with room to spare.
    cdef int c, c0, c1, j, i, k, cell
    cdef double ux = dx / n, uy = dy / n, sd, lo, hi, tol, cd, e
    cdef const double* v
    for r in range(r0, r1 + 1):
        if not g.sxmin[r] <= g.sxmax[r]:
            continue
        c0 = grid_cell(g.sxmin[r] - pad, g.x0, g.inv, g.cols)
        c1 = grid_cell(g.sxmax[r] + pad, g.x0, g.inv, g.cols)
        for c in range(c0, c1 + 1):
            cell = r * g.cols + c
            for j in range(g.start[cell], g.start[cell + 1]):
                i = g.items[j]
                if g.stamp[i] == q:
                    continue
                tol = g.tol[i]
                # the box first: its signed distances to the line span [cd - e, cd + e]
                cd = ux * (0.5 * (g.by0[i] + g.by1[i]) - oy) - uy * (0.5 * (g.bx0[i] + g.bx1[i]) - ox)
                e = 0.5 * (fabs(ux) * (g.by1[i] - g.by0[i]) + fabs(uy) * (g.bx1[i] - g.bx0[i]))
                if cd - e > tol or cd + e < -tol:
                    continue
                v = g.bv[i]
                lo = INF
                hi = -INF
                for k in range(g.bn[i]):
                    sd = ux * (v[2 * k + 1] - oy) - uy * (v[2 * k] - ox)     # signed distance to the ray's line
                    if sd < lo:
                        lo = sd
                    if sd > hi:
                        hi = sd
                if (lo <= tol and lo >= -tol) or (hi <= tol and hi >= -tol):
                    g.stamp[i] = q
                    g.cand[m] = i
                    m += 1
    return m


cdef int cmp_int(const void* a, const void* b) noexcept nogil:
    cdef int x = (<const int*>a)[0], y = (<const int*>b)[0]
    return (x > y) - (x < y)


cdef int grid_candidates(Grid* g, double ox, double oy, const double* tv, int tn, int flip, Span* tsp,
                         int rays) noexcept nogil:
    """The blockers in the cells that the hull of the origin and the target meets, and with `rays` those touching
    the target's two edge rays out of the grid, each once (in no order: the caller sorts what the cull keeps)."""
    cdef int k, r, c, c0, c1, r0, r1, j, i, m = 0, cell
    cdef double ylo = oy, yhi = oy, pad, scale = fabs(ox) + fabs(oy), v, sg
    cdef int64_t q
    cdef int x_, y_
    for k in range(tn):
        v = tv[2 * k + 1]
        if v < ylo:
            ylo = v
        if v > yhi:
            yhi = v
        v = fabs(tv[2 * k]) + fabs(tv[2 * k + 1])
        if v > scale:
            scale = v
    pad = GRID_PAD + 1e-9 * scale
    r0 = grid_cell(ylo - pad, g.y0, g.inv, g.rows)
    r1 = grid_cell(yhi + pad, g.y0, g.inv, g.rows)
    for r in range(r0, r1 + 1):
        g.rxmin[r] = INF
        g.rxmax[r] = -INF
    for k in range(tn):
        hull_segment(g, ox, oy, tv[2 * k], tv[2 * k + 1], pad)
        j = k + 1 if k + 1 < tn else 0
        hull_segment(g, tv[2 * k], tv[2 * k + 1], tv[2 * j], tv[2 * j + 1], pad)
    g.query += 1
    q = g.query
    m = visit_rows(g, r0, r1, g.rxmin, g.rxmax, pad, q, m)
    # The edge rays: a blocker beyond the target touching the line of one (origin, the target's extreme vertex and an
    # edge of the blocker in line) can be judged in front by a rounding and hide a hair of the target in the
    # reference; it lies on the ray, so it is found there. (World direction of a bearing-frame witness (x, y): s (y, x).)
    if rays:
        sg = -1.0 if flip else 1.0
        m = visit_ray(g, ox, oy, sg * tsp.ly, sg * tsp.lx, pad, q, m)
        m = visit_ray(g, ox, oy, sg * tsp.hy, sg * tsp.hx, pad, q, m)
    for j in range(g.n_always):
        i = g.always[j]
        if g.stamp[i] != q:
            g.stamp[i] = q
            g.cand[m] = i
            m += 1
    return m


cdef void sort_ints(int* a, int m) noexcept nogil:
    """Ascending: insertion sort for the few blockers a query usually keeps, qsort beyond."""
    cdef int j, k, i
    if m <= 24:
        for j in range(1, m):
            i = a[j]
            k = j - 1
            while k >= 0 and a[k] > i:
                a[k + 1] = a[k]
                k -= 1
            a[k + 1] = i
    else:
        qsort(a, m, sizeof(int), cmp_int)


cdef inline void segment_span(double p0, double p1, double q0, double q1, const double* vs, int n,
                              double* t0_, double* t1_) noexcept nogil:
    """geometry._segment_span (Cyrus-Beck against the open polygon, world frame)."""
    cdef int k, j
    cdef double dx = q0 - p0, dy = q1 - p1, t0 = 0.0, t1 = 1.0
    cdef double ax, ay, ex, ey, f, g, t
    for k in range(n):
        j = k + 1 if k + 1 < n else 0
        ax = vs[2 * k]
        ay = vs[2 * k + 1]
        ex = vs[2 * j] - ax
        ey = vs[2 * j + 1] - ay
        f = ex * (p1 - ay) - ey * (p0 - ax)
        g = ex * dy - ey * dx
        if g == 0.0:
            if f <= 0.0:
                t0_[0] = 0.0
                t1_[0] = 0.0
                return
        elif g > 0.0:
            t = -f / g
            if t > t0:
                t0 = t
        else:
            t = -f / g
            if t < t1:
                t1 = t
    t0_[0] = t0
    t1_[0] = t1


cdef inline double piece_length(double p0, double p1, double q0, double q1, double t0, double t1) noexcept nogil:
    """geometry._piece_length."""
    cdef double dx = q0 - p0, dy = q1 - p1
    cdef double ax = p0 + t0 * dx, ay = p1 + t0 * dy, bx = p0 + t1 * dx, by = p1 + t1 * dy
    cdef double ddx = bx - ax, ddy = by - ay
    return sqrt(ddx * ddx + ddy * ddy)


cdef double cloud_length(double p0, double p1, double q0, double q1, const double** cv, const int* cn, int nc,
                         double* spans) noexcept nogil:
    """geometry.cloud_penalty_length: inches of pq inside the union of the clouds."""
    cdef int i, j, m = 0
    cdef double t0, t1, lo, hi, total, a, b
    for i in range(nc):
        segment_span(p0, p1, q0, q1, cv[i], cn[i], &t0, &t1)
        if t1 > t0:
            # insertion into (t0, t1) order
            j = m - 1
            while j >= 0 and (t0 < spans[2 * j] or (t0 == spans[2 * j] and t1 < spans[2 * j + 1])):
                spans[2 * j + 2] = spans[2 * j]
                spans[2 * j + 3] = spans[2 * j + 1]
                j -= 1
            spans[2 * j + 2] = t0
            spans[2 * j + 3] = t1
            m += 1
    if m == 0:
        return 0.0
    total = 0.0
    lo = spans[0]
    hi = spans[1]
    for i in range(1, m):
        a = spans[2 * i]
        b = spans[2 * i + 1]
        if a > hi:
            total += piece_length(p0, p1, q0, q1, lo, hi)
            lo = a
            hi = b
        elif b > hi:
            hi = b
    return total + piece_length(p0, p1, q0, q1, lo, hi)


# --- one query --------------------------------------------------------------------------------


cdef struct Work:
    int nb                  # blockers (clouds included when they block)
    const double** bv       # vertex arrays, counter-clockwise
    int* bn
    Boxes boxes
    int* keep               # the blockers left by the cull
    uint8_t* flag
    Grid grid               # the blockers by cell, when there are many
    Span last_span          # the target's span and frame of the last pass through the grid
    int last_flip
    int nc                  # clouds for the crossing length
    const double** cv
    int* cn
    double* spans           # 2 per cloud
    Rng* hidden             # 2 per blocker
    Rng* visible            # 2 per blocker + 1
    Shape t
    Shape b


cdef inline bint along(double ax, double ay, double bx_, double by) noexcept nogil:
    """Whether two directions are the same within 1e-9 rad (far above any rounding, far below any real gap)."""
    cdef double cr = ax * by - ay * bx_, dt = ax * bx_ + ay * by
    return dt > 0.0 and fabs(cr) <= 1e-9 * sqrt((ax * ax + ay * ay) * (bx_ * bx_ + by * by))


cdef int trace_one(Work* w, double ox, double oy, const double* tv, int tn,
                   double* aim_x, double* aim_y, double* rng) noexcept nogil:
    """geometry.line_of_fire for one query. Returns 1 clear, 0 hidden, -1 not handled (status 1).

    Through the grid, the blockers of the hull first; only when the aim point lies on one of the target's edge
    rays (a blocker touching such a ray beyond the target could hide that hair in the reference) is the query
    traced again with the blockers along the rays."""
    cdef int r = trace_pass(w, ox, oy, tv, tn, aim_x, aim_y, rng, 0)
    cdef double s, dx, dy
    if r == 1 and w.grid.on and rng[0] > 0.0:
        s = -1.0 if w.last_flip else 1.0
        dx = aim_x[0] - ox
        dy = aim_y[0] - oy
        if (along(dx, dy, s * w.last_span.ly, s * w.last_span.lx)
                or along(dx, dy, s * w.last_span.hy, s * w.last_span.hx)):
            r = trace_pass(w, ox, oy, tv, tn, aim_x, aim_y, rng, 1)
    return r


cdef int trace_pass(Work* w, double ox, double oy, const double* tv, int tn,
                    double* aim_x, double* aim_y, double* rng, int rays) noexcept nogil:
    """One pass of trace_one; `rays`: through the grid, also the blockers along the target's edge rays."""
    cdef Shape* t = &w.t
    cdef Shape* b = &w.b
    cdef Span tsp, bsp
    cdef int flip = 0, i, k, ib, nk, nh = 0, nv, sep, npieces, have_pang = 0, c0, c1, inside
    cdef double tlo, thi, dmin
    cdef double px, py, pang = 0.0, best_x, best_y, best_d2, cx, cy, d2, a0, a1
    cdef Rng pc[2]
    cdef Rng whole
    cdef Rng* vis
    cdef bint got

    make_shape(t, tv, tn, ox, oy, 0)
    if min_dist(t) >= -EPS:
        # origin inside or on the target: clear, range 0, aim point = origin
        aim_x[0] = ox
        aim_y[0] = oy
        rng[0] = 0.0
        return 1
    if fast_span(t, &tsp):
        exact_span(t, &tsp)
    if tsp.wraps:
        # the target straddles due south: turn the frame half a turn
        flip = 1
        make_shape(t, tv, tn, ox, oy, 1)
        if fast_span(t, &tsp) or tsp.wraps:
            exact_span(t, &tsp)

    if w.grid.on:
        w.last_span = tsp
        w.last_flip = flip
        nk = grid_candidates(&w.grid, ox, oy, tv, tn, flip, &tsp, rays)
        nk = cull_some(&w.boxes, w.grid.cand, nk, ox, oy, flip, &tsp, w.keep)
        sort_ints(w.keep, nk)      # the blockers in index order, as the linear cull keeps them
    else:
        nk = cull(&w.boxes, w.nb, ox, oy, flip, &tsp, w.keep, w.flag)
    for ib in range(nk):
        i = w.keep[ib]
        make_shape(b, w.bv[i], w.bn[i], ox, oy, flip)
        dmin = min_dist(b)
        if dmin > EPS:
            # the origin inside a blocker: it hides every bearing (the sweep would leave nothing)
            return 0
        if dmin >= -EPS:
            return -1   # origin on the blocker's boundary (_boundary_cone): not ported
        # The reference takes the bearings first and drops the blocker if its
        # pieces miss the target's range; one separated behind (0) is dropped either way.
        sep = separation(b, t)
        if sep == 0:
            continue
        if fast_span(b, &bsp):
            exact_span(b, &bsp)
        elif sep == 1:
            # in front and strictly around the target's whole range: hidden, whatever else
            if bsp.wraps:
                if cmp_dir(bsp.lx, bsp.ly, tsp.lx, tsp.ly) < 0 or cmp_dir(bsp.hx, bsp.hy, tsp.hx, tsp.hy) > 0:
                    return 0
            elif cmp_dir(bsp.lx, bsp.ly, tsp.lx, tsp.ly) < 0 and cmp_dir(bsp.hx, bsp.hy, tsp.hx, tsp.hy) > 0:
                return 0
        span_values(&bsp)
        span_values(&tsp)
        tlo = tsp.lo
        thi = tsp.hi
        npieces = 0
        if bsp.wraps:
            pc[0].a = bsp.lo
            pc[0].b = INF
            pc[0].ax = bsp.lx
            pc[0].ay = bsp.ly
            pc[0].bx = 0.0
            pc[0].by = 0.0
            pc[1].a = -INF
            pc[1].b = bsp.hi
            pc[1].ax = 0.0
            pc[1].ay = 0.0
            pc[1].bx = bsp.hx
            pc[1].by = bsp.hy
            for k in range(2):
                if (pc[k].a if pc[k].a > tlo else tlo) < (pc[k].b if pc[k].b < thi else thi):
                    pc[npieces] = pc[k]
                    npieces += 1
        else:
            if (bsp.lo if bsp.lo > tlo else tlo) < (bsp.hi if bsp.hi < thi else thi):
                pc[0].a = bsp.lo
                pc[0].b = bsp.hi
                pc[0].ax = bsp.lx
                pc[0].ay = bsp.ly
                pc[0].bx = bsp.hx
                pc[0].by = bsp.hy
                npieces = 1
        if npieces == 0:
            continue
        if sep == -1:
            return -1   # the blocker overlaps the target (_overlap_hidden): not ported
        # sep == 1: the whole range is hidden; every kept piece meets (tlo, thi)
        for k in range(npieces):
            if pc[k].a < tlo and pc[k].b > thi:
                return 0   # covers the target's whole range
            w.hidden[nh] = pc[k]
            nh += 1

    if nh == 0:
        # nothing hides any bearing: the one visible range is the target's own
        whole.a = tsp.lo
        whole.b = tsp.hi
        whole.ax = tsp.lx
        whole.ay = tsp.ly
        whole.bx = tsp.hx
        whole.by = tsp.hy
        vis = &whole
        nv = 1
    else:
        nv = sweep(w.hidden, nh, &tsp, w.visible)
        if nv == 0:
            return 0
        vis = w.visible

    # CW-LOF-03: nearest visible point
    nearest_on_boundary(t, &px, &py)
    best_x = 0.0
    best_y = 0.0
    best_d2 = INF
    for i in range(nv):
        # `a0 <= pang <= a1` of line_of_fire, by cmp_dir on the witnesses when it can tell
        c0 = cmp_dir(vis[i].ax, vis[i].ay, px, py)
        c1 = cmp_dir(px, py, vis[i].bx, vis[i].by)
        if c0 > 0 or c1 > 0:
            inside = 0
        elif c0 < 0 and c1 < 0:
            inside = 1
        else:
            inside = -1
        if inside != 1 and not tsp.vals:
            # bearing values are needed from here (the range is the target's own)
            span_values(&tsp)
            whole.a = tsp.lo
            whole.b = tsp.hi
        if inside < 0:
            if not have_pang:
                pang = atan2(py, px)
                have_pang = 1
            inside = vis[i].a <= pang and pang <= vis[i].b
        if inside:
            cx = px
            cy = py
        else:
            a0 = vis[i].a
            a1 = vis[i].b
            c0 = cmp_dir(px, py, vis[i].ax, vis[i].ay)   # pang < a0?
            if c0 == 0:
                if not have_pang:
                    pang = atan2(py, px)
                    have_pang = 1
                c0 = -1 if pang < a0 else 1
            if c0 < 0:
                got = entry(t, a0, vis[i].ax, vis[i].ay, &tsp, &cx, &cy)
                if not got:
                    got = entry(t, a1, vis[i].bx, vis[i].by, &tsp, &cx, &cy)
            else:
                got = entry(t, a1, vis[i].bx, vis[i].by, &tsp, &cx, &cy)
                if not got:
                    got = entry(t, a0, vis[i].ax, vis[i].ay, &tsp, &cx, &cy)
            if not got:
                if a0 - tsp.lo <= tsp.hi - a1:
                    cx = tsp.lx
                    cy = tsp.ly
                else:
                    cx = tsp.hx
                    cy = tsp.hy
        d2 = cx * cx + cy * cy
        if d2 < best_d2:
            best_x = cx
            best_y = cy
            best_d2 = d2
    if flip:
        aim_x[0] = ox + (0.0 - best_y)
        aim_y[0] = oy + (0.0 - best_x)
    else:
        aim_x[0] = ox + best_y
        aim_y[0] = oy + best_x
    rng[0] = sqrt(best_d2)
    return 1


# --- the batch --------------------------------------------------------------------------------


cdef void bounding_box(const double* v, int n, Boxes* bx, int i) noexcept nogil:
    cdef int k
    cdef double x0 = v[0], y0 = v[1], x1 = v[0], y1 = v[1]
    for k in range(1, n):
        if v[2 * k] < x0:
            x0 = v[2 * k]
        if v[2 * k] > x1:
            x1 = v[2 * k]
        if v[2 * k + 1] < y0:
            y0 = v[2 * k + 1]
        if v[2 * k + 1] > y1:
            y1 = v[2 * k + 1]
    bx.x0[i] = x0
    bx.y0[i] = y0
    bx.x1[i] = x1
    bx.y1[i] = y1
    bx.margin[i] = cull_margin(v, n) + REL * ((fabs(x0) if fabs(x0) > fabs(x1) else fabs(x1))
                                              + (fabs(y0) if fabs(y0) > fabs(y1) else fabs(y1)))


cdef void free_work(Work* w) noexcept nogil:
    free_grid(&w.grid)
    free(w.bv)
    free(w.bn)
    free(w.boxes.x0)
    free(w.keep)
    free(w.flag)
    free(w.cv)
    free(w.cn)
    free(w.spans)
    free(w.hidden)
    free(w.visible)
    free(w)


def trace_many(const double[:, ::1] origins, const double[:, :, ::1] targets, const int64_t[::1] target_counts,
               const double[:, :, ::1] blockers, const int64_t[::1] blocker_counts,
               const double[:, :, ::1] clouds, const int64_t[::1] cloud_counts, bint clouds_block,
               uint8_t[::1] out_clear, double[::1] out_range, double[:, ::1] out_aim, double[::1] out_cloud_len,
               int8_t[::1] out_status, int use_grid=1, int64_t[::1] out_penalty=None):
    """Line of fire for Q queries against one set of blockers and clouds (CW-LOF-01..04).

    Polygons are counter-clockwise without repeated vertices (as
    `geometry.Polygon` stores them); row i of a (N, K, 2) array holds
    counts[i] vertices. Query q: out_clear[q] (1/0), out_range[q] and
    out_aim[q] (NaN when hidden), out_cloud_len[q] (crossing length to the
    aim point; 0 with clouds_block, NaN when hidden), out_status[q] (0
    computed, 1 recompute with the reference). Releases the GIL.

    With 192 blockers or more the blockers are found through a grid (the module's docstring); `use_grid=0`
    keeps the linear cull, for comparisons: the results are the same. With `out_penalty`, the to-hit modifier for
    the cloud crossed is written too (status 0 queries), as `carwars.lof.cloud_penalty` computes it from the length.

    Returns the number of status-1 queries, -1 when scratch memory could not
    be allocated, -2 when the arrays' lengths disagree (nothing written).
    """
    cdef Py_ssize_t Q = origins.shape[0], B = blockers.shape[0], C = clouds.shape[0]
    cdef Py_ssize_t q, i
    cdef Work* w
    cdef int r, bad_shared = 0, n_status = 0, tn, nb
    cdef double ox, oy, ax, ay, rg
    if (targets.shape[0] != Q or target_counts.shape[0] != Q or out_clear.shape[0] != Q or out_range.shape[0] != Q
            or out_aim.shape[0] != Q or out_cloud_len.shape[0] != Q or out_status.shape[0] != Q
            or blocker_counts.shape[0] != B or cloud_counts.shape[0] != C or origins.shape[1] != 2
            or out_aim.shape[1] != 2 or targets.shape[2] != 2 or blockers.shape[2] != 2 or clouds.shape[2] != 2
            or (out_penalty is not None and out_penalty.shape[0] != Q)):
        return -2
    cdef int64_t* pen = &out_penalty[0] if out_penalty is not None and Q > 0 else NULL
    cdef double cl
    for i in range(B):
        if blocker_counts[i] < 3 or blocker_counts[i] > MAXV or blocker_counts[i] > blockers.shape[1]:
            bad_shared = 1
    for i in range(C):
        if cloud_counts[i] < 3 or cloud_counts[i] > MAXV or cloud_counts[i] > clouds.shape[1]:
            bad_shared = 1
    w = <Work*>malloc(sizeof(Work))
    if w == NULL:
        return -1
    build_grid(&w.grid, &w.boxes, 0, NULL, NULL)      # off, its pointers NULL, until the boxes are known
    nb = <int>(B + C if clouds_block else B)
    w.nb = nb
    w.nc = 0 if clouds_block else <int>C
    w.bv = <const double**>malloc((nb + 1) * sizeof(double*))
    w.bn = <int*>malloc((nb + 1) * sizeof(int))
    w.boxes.x0 = <double*>malloc((5 * nb + 5) * sizeof(double))
    w.keep = <int*>malloc((nb + 1) * sizeof(int))
    w.flag = <uint8_t*>malloc((nb + 1) * sizeof(uint8_t))
    w.cv = <const double**>malloc((C + 1) * sizeof(double*))
    w.cn = <int*>malloc((C + 1) * sizeof(int))
    w.spans = <double*>malloc((2 * C + 2) * sizeof(double))
    w.hidden = <Rng*>malloc((2 * nb + 2) * sizeof(Rng))
    w.visible = <Rng*>malloc((2 * nb + 3) * sizeof(Rng))
    if (w.bv == NULL or w.bn == NULL or w.boxes.x0 == NULL or w.keep == NULL or w.flag == NULL or w.cv == NULL or w.cn == NULL
            or w.spans == NULL or w.hidden == NULL or w.visible == NULL):
        free_work(w)
        return -1
    w.boxes.y0 = w.boxes.x0 + (nb + 1)
    w.boxes.x1 = w.boxes.y0 + (nb + 1)
    w.boxes.y1 = w.boxes.x1 + (nb + 1)
    w.boxes.margin = w.boxes.y1 + (nb + 1)
    if not bad_shared:
        for i in range(B):
            w.bv[i] = &blockers[i, 0, 0]
            w.bn[i] = <int>blocker_counts[i]
        for i in range(C):
            if clouds_block:
                w.bv[B + i] = &clouds[i, 0, 0]
                w.bn[B + i] = <int>cloud_counts[i]
            else:
                w.cv[i] = &clouds[i, 0, 0]
                w.cn[i] = <int>cloud_counts[i]
        for i in range(nb):
            bounding_box(w.bv[i], w.bn[i], &w.boxes, <int>i)
        if not use_grid == 0:
            build_grid(&w.grid, &w.boxes, nb, w.bv, w.bn)
    with nogil:
        for q in range(Q):
            tn = <int>target_counts[q]
            out_clear[q] = 0
            out_range[q] = NAN
            out_aim[q, 0] = NAN
            out_aim[q, 1] = NAN
            out_cloud_len[q] = NAN
            if bad_shared or tn < 3 or tn > MAXV or tn > targets.shape[1]:
                out_status[q] = 1
                n_status += 1
                continue
            ox = origins[q, 0] + 0.0   # geometry._point: no negative zero
            oy = origins[q, 1] + 0.0
            r = trace_one(w, ox, oy, &targets[q, 0, 0], tn, &ax, &ay, &rg)
            if r < 0:
                out_status[q] = 1
                n_status += 1
                continue
            out_status[q] = 0
            if r == 1:
                out_clear[q] = 1
                out_range[q] = rg
                out_aim[q, 0] = ax
                out_aim[q, 1] = ay
                if w.nc:
                    out_cloud_len[q] = cloud_length(ox, oy, ax + 0.0, ay + 0.0, w.cv, w.cn, w.nc, w.spans)
                else:
                    out_cloud_len[q] = 0.0
            if pen != NULL:
                cl = out_cloud_len[q]
                pen[q] = <int64_t>(ceil(cl / 0.5 - 1e-9) * -1.0) if cl > 1e-9 else 0
    free_work(w)
    return n_status


cdef int row_plain(const double* r, Py_ssize_t M, double* o) noexcept nogil:
    """normalize_rows for one row: 0 not plain; else 1 when the row is already as Polygon stores it (counter-clockwise,
    no negative zero), 2 when it must be rewritten (reversed, or a negative zero made positive). With `o` not NULL,
    a plain row is written there as Polygon stores it. Rows of more than MAXV vertices are not plain."""
    cdef Py_ssize_t k, j, src
    cdef double area2 = 0.0, ax, ay, bx, by, cr
    cdef double px[MAXV]
    cdef double py[MAXV]
    cdef double ex[MAXV]
    cdef double ey[MAXV]
    cdef int crossings = 0, rewrite = 0
    if M > MAXV:
        return 0
    for k in range(M):
        j = k + 1 if k + 1 < M else 0
        ax = r[2 * k] + 0.0
        ay = r[2 * k + 1] + 0.0
        bx = r[2 * j] + 0.0
        by = r[2 * j + 1] + 0.0
        if not (fabs(ax) < INF and fabs(ay) < INF) or (ax == bx and ay == by):
            return 0
        area2 += ax * by - ay * bx
    if area2 == 0.0:
        return 0
    if area2 < 0.0:
        rewrite = 1
    for k in range(M):       # the vertices in Polygon's order
        src = k if area2 > 0.0 else M - 1 - k
        px[k] = r[2 * src] + 0.0
        py[k] = r[2 * src + 1] + 0.0
    for k in range(M):       # edge k: vertex k to k + 1
        j = k + 1 if k + 1 < M else 0
        ex[k] = px[j] - px[k]
        ey[k] = py[j] - py[k]
    for k in range(M):       # the turn at vertex k + 1: edge k, then edge k + 1
        j = k + 1 if k + 1 < M else 0
        cr = ex[k] * ey[j] - ey[k] * ex[j]
        if not cr > REL * (fabs(ex[k]) + fabs(ey[k])) * (fabs(ex[j]) + fabs(ey[j])):
            return 0
        if ey[k] < 0.0 and ey[j] >= 0.0:
            crossings += 1
    if crossings != 1:
        return 0
    for k in range(2 * M):
        if r[k] == 0.0 and signbit(r[k]):
            rewrite = 1
    if o != NULL:
        for k in range(M):
            o[2 * k] = px[k]
            o[2 * k + 1] = py[k]
    return 2 if rewrite else 1


def normalize_rows(const double[:, :, ::1] rows, double[:, :, ::1] out, int8_t[::1] plain):
    """Polygons given as vertex rows, oriented as `geometry.Polygon` stores them (CW-LOF-01).

    plain[i] = 1 when row i is certainly a polygon that Polygon() accepts
    unchanged but for its orientation: finite, no vertex equal to the next,
    non-zero area, every turn to the left by more than 1e-12 (relative), and
    one full turn (the edge directions cross +x once). Then out[i] holds it
    counter-clockwise (reversed when Polygon's sequential area sum is
    negative), with negative zeros made positive as Polygon does. Any other
    row gets plain[i] = 0: the wrapper hands it to Polygon() itself.
    Returns -2 when the shapes disagree.
    """
    cdef Py_ssize_t Q = rows.shape[0], M = rows.shape[1], i
    if out.shape[0] != Q or out.shape[1] != M or plain.shape[0] != Q or rows.shape[2] != 2 or out.shape[2] != 2:
        return -2
    if M < 3:
        plain[:] = 0
        return 0
    with nogil:
        for i in range(Q):
            plain[i] = 1 if row_plain(&rows[i, 0, 0], M, &out[i, 0, 0]) else 0
    return 0


def check_rows(const double[:, :, ::1] rows, int8_t[::1] plain):
    """normalize_rows without writing: plain[i] = 0 (not plain: Polygon() must see it), 1 (plain and already as
    Polygon stores it: the row can be traced as it is) or 2 (plain, but normalize_rows must rewrite it).
    Returns the number of rows that are not 1, or -2 when the shapes disagree."""
    cdef Py_ssize_t Q = rows.shape[0], M = rows.shape[1], i
    cdef int n = 0
    if plain.shape[0] != Q or rows.shape[2] != 2:
        return -2
    if M < 3:
        plain[:] = 0
        return <int>Q
    with nogil:
        for i in range(Q):
            plain[i] = row_plain(&rows[i, 0, 0], M, NULL)
            if plain[i] != 1:
                n += 1
    return n
