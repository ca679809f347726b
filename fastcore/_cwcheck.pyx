# cython: language_level=3, boundscheck=True, wraparound=False, cdivision=True
"""Test wrappers of the compiled driver's parts (_cwgeom.pxd): each `def` calls one `cdef inline`
function on plain Python values, so that tests/test_drive_kernel_parts.py can compare it with the reference
function it transcribes (named in each .pxd docstring) on random inputs, double for double.

Not a kernel: it converts its arguments on every call. Counters are (cx, cy, length, width, facing); points (x, y);
polygons lists of points; statuses CW_OK 0, CW_NONE 1, CW_UNSURE 2.
"""

from _cwgeom cimport *

import numpy as np

MAXV = CW_MAXV


# --- conversions ------------------------------------------------------------------------------------------------------

cdef CwCounter _counter(c) except *:
    cdef CwCounter k
    k.cx, k.cy, k.length, k.width, k.facing = c
    return k


cdef double[::1] _flat(points):
    """A polygon's points as x0, y0, x1, y1, ... (at least one point's room, so an address can be taken)."""
    out = np.zeros(max(2, 2 * len(points)), dtype=np.float64)
    for i, (x, y) in enumerate(points):
        out[2 * i], out[2 * i + 1] = x, y
    return out


cdef list _points(const double* xy, int n):
    return [(xy[2 * i], xy[2 * i + 1]) for i in range(n)]


cdef int _stored(points, CwPolygon* p) except -1:
    """A polygon's vertices as Polygon stores them, copied as they are (no normalising)."""
    if len(points) > CW_MAXV:
        raise ValueError(f"at most {CW_MAXV} vertices")
    p.n = len(points)
    for i, (x, y) in enumerate(points):
        p.xy[2 * i], p.xy[2 * i + 1] = x, y
    return 0


# --- geometry.py ------------------------------------------------------------------------------------------------------

def sincos_deg(double deg):
    cdef double s, c
    cw_sincos_deg(deg, &s, &c)
    return s, c


def to_local(counter, double x, double y):
    cdef CwCounter k = _counter(counter)
    cdef double lx, ly
    cw_to_local(&k, x, y, &lx, &ly)
    return lx, ly


def to_world(counter, double x, double y):
    cdef CwCounter k = _counter(counter)
    cdef double wx, wy
    cw_to_world(&k, x, y, &wx, &wy)
    return wx, wy


def corners(counter):
    cdef CwCounter k = _counter(counter)
    cdef double xy[8]
    cw_corners(&k, xy)
    return _points(xy, 4)


def side_midpoint(counter, int side):
    cdef CwCounter k = _counter(counter)
    cdef double wx, wy
    cw_side_midpoint(&k, side, &wx, &wy)
    return wx, wy


def arc_halfplanes(counter, int arc, double arc_angle):
    cdef CwCounter k = _counter(counter)
    cdef double hp[9]
    cw_arc_halfplanes(&k, arc, arc_angle, hp)
    return tuple((hp[3 * i], hp[3 * i + 1], hp[3 * i + 2]) for i in range(3))


def point_arcs(counter, double x, double y, double arc_angle):
    cdef CwCounter k = _counter(counter)
    return cw_point_arcs(&k, x, y, arc_angle)


def clip(points, double a, double b, double c, double slack):
    cdef double[::1] xy = _flat(points)
    out = np.zeros(max(2, 4 * len(points)), dtype=np.float64)
    cdef double[::1] o = out
    return _points(&o[0], cw_clip(&xy[0], len(points), a, b, c, slack, &o[0]))


def polygon(points):
    """(status, Polygon(points).vertices or None)."""
    cdef double[::1] xy = _flat(points)
    cdef CwPolygon p
    if len(points) > CW_CLIPV:
        return CW_UNSURE, None
    status = cw_polygon(&xy[0], len(points), &p)
    return status, (_points(p.xy, p.n) if status == CW_OK else None)


def counter_polygon(counter):
    cdef CwCounter k = _counter(counter)
    cdef CwPolygon p
    status = cw_counter_polygon(&k, &p)
    return status, (_points(p.xy, p.n) if status == CW_OK else None)


def contains(vertices, double x, double y, double tol=0.0):
    cdef CwPolygon p
    _stored(vertices, &p)
    return cw_contains(&p, x, y, tol)


def polygon_arcs(counter, vertices, double arc_angle):
    cdef CwCounter k = _counter(counter)
    cdef CwPolygon p
    _stored(vertices, &p)
    return cw_polygon_arcs(&k, &p, arc_angle)


def clip_to_arc(counter, int arc, vertices, double arc_angle):
    cdef CwCounter k = _counter(counter)
    cdef CwPolygon p, out
    _stored(vertices, &p)
    status = cw_clip_to_arc(&k, arc, &p, arc_angle, &out)
    return status, (_points(out.xy, out.n) if status == CW_OK else None)


def facing_sides(counter, double x, double y):
    cdef CwCounter k = _counter(counter)
    return cw_facing_sides(&k, x, y)


def distance(p, q):
    return cw_distance(p[0], p[1], q[0], q[1])


def nearest_on_boundary(points):
    cdef double[::1] xy = _flat(points)
    cdef double x, y, d2
    status = cw_nearest_on_boundary(&xy[0], len(points), &x, &y, &d2)
    return status, x, y, d2


def nearest_point(vertices, double x, double y):
    cdef CwPolygon p
    cdef double ox, oy
    _stored(vertices, &p)
    status = cw_nearest_point(&p, x, y, &ox, &oy)
    return status, ox, oy


# --- contact.py -------------------------------------------------------------------------------------------------------

def axes(points):
    cdef double[::1] xy = _flat(points)
    out = np.zeros(max(2, 2 * len(points)), dtype=np.float64)
    cdef double[::1] o = out
    return _points(&o[0], cw_axes(&xy[0], len(points), &o[0]))


def project(points, double ax, double ay):
    cdef double[::1] xy = _flat(points)
    cdef double lo, hi
    cw_project(&xy[0], len(points), ax, ay, &lo, &hi)
    return lo, hi


def pysum(values):
    """cw_pysum of plain values (the points' x)."""
    cdef double[::1] xy = _flat([(x, 0.0) for x in values])
    return cw_pysum(&xy[0], len(values))


def centre(points):
    cdef double[::1] xy = _flat(points)
    cdef double cx, cy
    cw_centre(&xy[0], len(points), &cx, &cy)
    return cx, cy


def touching(a, b):
    cdef double[::1] xa = _flat(a), xb = _flat(b)
    return cw_touching(&xa[0], len(a), &xb[0], len(b))


def first_contact(a, va, b, vb, double t0=0.0, double t1=1.0):
    """None, or (time, (nx, ny)) as contact.Contact holds them."""
    cdef double[::1] xa = _flat(a), xb = _flat(b)
    cdef double t, nx, ny
    if not cw_first_contact(&xa[0], len(a), va[0], va[1], &xb[0], len(b), vb[0], vb[1], t0, t1, &t, &nx, &ny):
        return None
    return t, (nx, ny)


def side_facing(double facing, direction):
    return cw_side_facing(facing, direction[0], direction[1])
