# cython: language_level=3
# A polygon in the bearing frame of an origin (hardpoint.carwars.geometry._Shape) and what the line of fire reads of
# it: its bearing range (_Shape.span), chord (_Shape.chord), nearest boundary point (_nearest_on_boundary) and entry
# (_entry). Header-only (cdef inline, nogil), shared by the batch line of fire (_lof.pyx) and the fight kernel
# (_cwtohit.pxd): each is transcribed from geometry.py in its operation order with its libm calls, so the figures
# are the reference's bit for bit (with -ffp-contract=off).
from libc.math cimport atan2, sqrt, INFINITY, M_PI

cdef enum:
    MAXV = 64          # vertices per polygon handled natively (more: status 1)

cdef struct Shape:
    # geometry._Shape: a polygon translated to the origin and mirrored into the bearing frame
    int n
    double x[MAXV]
    double y[MAXV]
    double ex[MAXV]
    double ey[MAXV]
    double s[MAXV]
    double ang[MAXV]


cdef struct Span:
    # _Shape.span: extreme bearings with a witness vertex each; `vals` once lo/hi are computed
    double lo, hi, lx, ly, hx, hy
    int wraps
    int vals


cdef inline void make_shape(Shape* sh, const double* v, int n, double ox, double oy, int flip) noexcept nogil:
    """_Shape.__init__ without dist and ang (computed when needed)."""
    cdef int i, k, j
    cdef double dx, dy
    sh.n = n
    for i in range(n):
        dx = v[2 * (n - 1 - i)] - ox   # the mirror reverses the orientation: read backwards
        dy = v[2 * (n - 1 - i) + 1] - oy
        if flip:
            sh.x[i] = 0.0 - dy
            sh.y[i] = 0.0 - dx
        else:
            sh.x[i] = dy
            sh.y[i] = dx
    for k in range(n):
        j = k + 1 if k + 1 < n else 0
        sh.ex[k] = sh.x[j] - sh.x[k]
        sh.ey[k] = sh.y[j] - sh.y[k]
        sh.s[k] = sh.x[k] * sh.y[j] - sh.y[k] * sh.x[j]


cdef inline void shape_angles(Shape* sh) noexcept nogil:
    cdef int k
    for k in range(sh.n):
        sh.ang[k] = atan2(sh.y[k], sh.x[k])


cdef inline double min_dist(Shape* sh) noexcept nogil:
    """min(_Shape.dist), or -INFINITY when it is certainly below -EPS (skipping the divisions)."""
    cdef int k
    cdef double ee, d, m
    for k in range(sh.n):
        if sh.s[k] < 0.0:
            ee = sh.ex[k] * sh.ex[k] + sh.ey[k] * sh.ey[k]
            if sh.s[k] * sh.s[k] > 1.000001e-18 * ee:
                return -INFINITY   # dist[k] = s/sqrt(ee) < -EPS, whatever the rounding
    m = INFINITY
    for k in range(sh.n):
        d = sh.s[k] / sqrt(sh.ex[k] * sh.ex[k] + sh.ey[k] * sh.ey[k])
        if d < m:
            m = d
    return m


cdef inline bint nearer(Shape* sh, int k, int j) noexcept nogil:
    return sh.x[k] * sh.x[k] + sh.y[k] * sh.y[k] < sh.x[j] * sh.x[j] + sh.y[j] * sh.y[j]


cdef inline void shape_span(Shape* sh, Span* sp) noexcept nogil:
    """_Shape.span (angles already computed)."""
    cdef int k, li = 0, hj = 0, n = sh.n
    cdef double amin = sh.ang[0], amax = sh.ang[0], a, lo = INFINITY, hi = -INFINITY
    cdef bint wraps
    for k in range(1, n):
        if sh.ang[k] < amin:
            amin = sh.ang[k]
        if sh.ang[k] > amax:
            amax = sh.ang[k]
    wraps = amax - amin > M_PI
    for k in range(n):
        a = sh.ang[k]
        if wraps and a <= 0.0:
            if a > hi or (a == hi and nearer(sh, k, hj)):
                hi = a
                hj = k
        elif wraps:
            if a < lo or (a == lo and nearer(sh, k, li)):
                lo = a
                li = k
        else:
            if a < lo or (a == lo and nearer(sh, k, li)):
                lo = a
                li = k
            if a > hi or (a == hi and nearer(sh, k, hj)):
                hi = a
                hj = k
    sp.lo = lo
    sp.hi = hi
    sp.lx = sh.x[li]
    sp.ly = sh.y[li]
    sp.hx = sh.x[hj]
    sp.hy = sh.y[hj]
    sp.wraps = wraps


cdef inline void chord(Shape* sh, double wx, double wy, double* tin_, double* tout_) noexcept nogil:
    """_Shape.chord (Cyrus-Beck)."""
    cdef int k
    cdef double tin = 0.0, tout = INFINITY, a, t
    for k in range(sh.n):
        a = sh.ex[k] * wy - sh.ey[k] * wx
        if a > 0.0:
            t = -sh.s[k] / a
            if t > tin:
                tin = t
        elif a < 0.0:
            t = -sh.s[k] / a
            if t < tout:
                tout = t
        elif sh.s[k] < 0.0:
            tin_[0] = INFINITY
            tout_[0] = -INFINITY
            return
    tin_[0] = tin
    tout_[0] = tout


cdef inline double nearest_on_boundary(Shape* sh, double* qx_, double* qy_) noexcept nogil:
    """geometry._nearest_on_boundary on the shape's vertices."""
    cdef int k, j, n = sh.n
    cdef double best_x = sh.x[0], best_y = sh.y[0], best_d2 = INFINITY
    cdef double ax, ay, ex, ey, ee, t, qx, qy, d2
    for k in range(n):
        j = k + 1 if k + 1 < n else 0
        ax = sh.x[k]
        ay = sh.y[k]
        ex = sh.x[j] - ax
        ey = sh.y[j] - ay
        ee = ex * ex + ey * ey
        t = -(ax * ex + ay * ey) / ee
        if t <= 0.0:
            qx = ax
            qy = ay
        elif t >= 1.0:
            qx = sh.x[j]
            qy = sh.y[j]
        else:
            qx = ax + t * ex
            qy = ay + t * ey
        d2 = qx * qx + qy * qy
        if d2 < best_d2:
            best_x = qx
            best_y = qy
            best_d2 = d2
    qx_[0] = best_x
    qy_[0] = best_y
    return best_d2


cdef inline bint entry(Shape* t, double ang, double wx, double wy, Span* sp, double* cx, double* cy) noexcept nogil:
    """geometry._entry: where the ray at bearing `ang` (direction w) first meets the target."""
    cdef double tin, tout
    if ang == sp.lo:
        cx[0] = sp.lx
        cy[0] = sp.ly
        return True
    if ang == sp.hi:
        cx[0] = sp.hx
        cy[0] = sp.hy
        return True
    chord(t, wx, wy, &tin, &tout)
    if tin <= tout or (tout > 0.0 and tin - tout <= 1e-9 * tout):
        cx[0] = tin * wx
        cy[0] = tin * wy
        return True
    return False


