# cython: language_level=3, boundscheck=True, wraparound=False, cdivision=True
"""Test wrappers of the compiled driver's parts (_cwgeom.pxd, _cwdrive.pxd): each `def` calls one `cdef inline`
function on plain Python values, so that tests/test_drive_kernel_parts.py can compare it with the reference
function it transcribes (named in each .pxd docstring) on random inputs, double for double.

Not a kernel: it converts its arguments on every call. Counters are (cx, cy, length, width, facing); points (x, y);
polygons lists of points; statuses CW_OK 0, CW_NONE 1, CW_UNSURE 2. The rules, an arena and an order come as the
dicts tests/drive_kernel_pack.py makes, one key a field of the struct of the same name.
"""
from libc.stdlib cimport malloc, free
from libc.string cimport memset

from _cwgeom cimport *
from _cwdrive cimport *

import numpy as np

MAXV = CW_MAXV
MAXMENU = CW_MAXMENU
PICK_STRAIGHT = CW_PICK_STRAIGHT
PICK_UNSURE = CW_PICK_UNSURE


# --- conversions ------------------------------------------------------------------------------------------------------

cdef CwCounter _counter(c) except *:
    cdef CwCounter k
    k.cx, k.cy, k.length, k.width, k.facing = c
    return k


cdef tuple _counter_out(CwCounter* k):
    return (k.cx, k.cy, k.length, k.width, k.facing)


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


cdef class Rules:
    """carwars rules as a CwDriveRules (tests/drive_kernel_pack.pack_rules)."""
    cdef CwDriveRules r

    def __init__(self, dict fields):
        self.r = fields


cdef class Arena:
    """An arena as a CwArena (tests/drive_kernel_pack.pack_arena), its arrays kept alive with it."""
    cdef CwArena a
    cdef CwVehicle* vehicles
    cdef CwUnit* pedestrians
    cdef list keep

    def __init__(self, dict d):
        cdef int i, nv = len(d["vehicles"]), npd = len(d["pedestrians"])
        cdef int[::1] mounts, starts
        cdef unsigned char[::1] usable, sidecar
        cdef double[::1] bxy
        self.keep = []
        self.vehicles = <CwVehicle*>malloc(max(1, nv) * sizeof(CwVehicle))
        self.pedestrians = <CwUnit*>malloc(max(1, npd) * sizeof(CwUnit))
        if self.vehicles == NULL or self.pedestrians == NULL:
            raise MemoryError()
        for i, vd in enumerate(d["vehicles"]):
            mounts = np.array(list(vd["weapon_mount"]) + [0], dtype=np.intc)
            usable = np.array(list(vd["weapon_usable"]) + [0], dtype=np.uint8)
            sidecar = np.array(list(vd["weapon_sidecar"]) + [0], dtype=np.uint8)
            self.keep += [mounts, usable, sidecar]
            self.vehicles[i] = _vehicle(vd)
            self.vehicles[i].weapon_mount = &mounts[0]
            self.vehicles[i].weapon_usable = &usable[0]
            self.vehicles[i].weapon_sidecar = &sidecar[0]
        for i, pd in enumerate(d["pedestrians"]):
            self.pedestrians[i] = _unit(pd)
        bxy = np.array(list(d["building_xy"]) + [0.0], dtype=np.float64)
        starts = np.array(list(d["building_start"]) + [0], dtype=np.intc)
        self.keep += [bxy, starts]
        self.a.n_vehicles, self.a.vehicles = nv, self.vehicles
        self.a.n_pedestrians, self.a.pedestrians = npd, self.pedestrians
        self.a.n_buildings, self.a.building_xy, self.a.building_start = len(d["building_start"]) - 1, &bxy[0], &starts[0]
        self.a.phase = d["phase"]

    def __dealloc__(self):
        free(self.vehicles)
        free(self.pedestrians)

    def set_phase(self, int phase):
        self.a.phase = phase


cdef CwUnit _unit(dict ud) except *:
    cdef CwUnit u
    u.counter = _counter(ud["counter"])
    u.speed, u.side, u.out = ud["speed"], ud["side"], ud["out"]
    return u


cdef CwVehicle _vehicle(dict vd) except *:
    """The scalar fields of a CwVehicle (the weapon arrays are the Arena's to set)."""
    cdef CwVehicle v
    memset(&v, 0, sizeof(CwVehicle))
    v.unit = _unit(vd["unit"])
    v.kind, v.has_acceleration, v.acceleration = vd["kind"], vd["has_acceleration"], vd["acceleration"]
    v.has_top_speed, v.top_speed, v.in_water = vd["has_top_speed"], vd["top_speed"], vd["in_water"]
    v.off_road, v.substitute, v.has_handling = vd["off_road"], vd["substitute"], vd["has_handling"]
    v.handling_status, v.oil_extra, v.armour = vd["handling_status"], vd["oil_extra"], vd["armour"]
    v.n_weapons = len(vd["weapon_mount"])
    v.sidecar_offset, v.sidecar_width = vd["sidecar_offset"], vd["sidecar_width"]
    return v


cdef const CwUnit* _target(Arena arena, target):
    """The unit at index `target`; NULL for None (no target)."""
    if target is None or target < 0:
        return NULL
    return cw_unit(&arena.a, <int>target)


cdef CwManeuver _maneuver(m) except *:
    cdef CwManeuver x
    x.kind, x.angle, x.lateral, x.d = m
    return x


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


# --- driving.py and what it calls -------------------------------------------------------------------------------------

def pymod(double x, double y):
    return cw_pymod(x, y)


def pyfloordiv(double x, double y):
    return cw_pyfloordiv(x, y)


def phase_distances(Rules rules, double speed):
    cdef double out[CW_PHASES]
    cw_phase_distances(&rules.r, speed, out)
    return [out[p] for p in range(CW_PHASES)]


def straight_displacement(Rules rules, Arena arena, int unit, int phase):
    cdef double dx, dy
    cw_straight_displacement(&rules.r, cw_unit(&arena.a, unit), phase, &dx, &dy)
    return dx, dy


def control_needed(Rules rules, double speed, int status):
    return cw_control_needed(&rules.r, speed, status)


def maneuver_menu(Rules rules, Arena arena, int me, double distance):
    """The menu as (kind, angle, lateral, d) tuples, or None beyond CW_MAXMENU."""
    cdef CwManeuver menu[CW_MAXMENU]
    n = cw_maneuver_menu(&rules.r, &arena.a.vehicles[me], distance, menu, CW_MAXMENU)
    return None if n < 0 else [(menu[i].kind, menu[i].angle, menu[i].lateral, menu[i].d) for i in range(n)]


def maneuver_difficulty(Rules rules, Arena arena, int me, m):
    cdef CwManeuver x = _maneuver(m)
    return cw_maneuver_difficulty(&rules.r, &arena.a.vehicles[me], &x)


def maneuver_move(Rules rules, Arena arena, int me, m, double distance):
    """(dx, dy, angle, (px, py)) as ManeuverMove holds them."""
    cdef CwManeuver x = _maneuver(m)
    cdef CwMove mv
    cw_maneuver_move(&rules.r, &arena.a.vehicles[me], &x, distance, &mv)
    return mv.dx, mv.dy, mv.angle, (mv.px, mv.py)


def turned(counter, double angle, pivot):
    cdef CwCounter k = _counter(counter), out
    cw_turned(&k, angle, pivot[0], pivot[1], &out)
    return _counter_out(&out)


def end_counter(counter, move):
    cdef CwCounter k = _counter(counter), out
    cdef CwMove mv
    mv.dx, mv.dy, mv.angle, (mv.px, mv.py) = move
    cw_end_counter(&k, &mv, &out)
    return _counter_out(&out)


def blocked(Rules rules, Arena arena, int me, counter, int phase):
    """driving.blocked; rules None: without the look ahead."""
    cdef CwCounter k = _counter(counter)
    return cw_blocked(NULL if rules is None else &rules.r, &arena.a, me, &k, phase)


def straight_on(Rules rules, Arena arena, int unit, int phase):
    cdef double out[24]
    n = cw_straight_on(&rules.r, cw_unit(&arena.a, unit), phase, out)
    return [_points(&out[8 * k], 4) for k in range(n)]


def on_collision_course(Rules rules, Arena arena, int me, counter, int phase):
    cdef CwCounter k = _counter(counter)
    return cw_on_collision_course(&rules.r, &arena.a, me, &k, phase)


def pushing(Arena arena, int me):
    return cw_pushing(&arena.a, me)


def gap(a, b):
    cdef CwCounter ka = _counter(a), kb = _counter(b)
    cdef double g = 0.0
    status = cw_gap(&ka, &kb, &g)
    return status, g


def heading(counter, Arena arena, int target):
    cdef CwCounter k = _counter(counter)
    return cw_heading(&k, cw_unit(&arena.a, target))


def bearing(Rules rules, Arena arena, int me, counter, int target):
    cdef CwCounter k = _counter(counter)
    cdef int count = 0
    cdef double err = 0.0
    status = cw_bearing(&rules.r, &arena.a.vehicles[me], &k, cw_unit(&arena.a, target), &count, &err)
    return status, count, err


def grain(double x):
    return cw_grain(x)


def score(Rules rules, Arena arena, int me, dict order, counter, int target):
    cdef CwCounter k = _counter(counter)
    cdef CwOrder o = order
    cdef double out[5]
    status = cw_score(&rules.r, &arena.a.vehicles[me], &o, &k, cw_unit(&arena.a, target), out)
    return status, (out[0], out[1], out[2], out[3], out[4])


def score_less(a, b):
    cdef double x[CW_SCORE]
    cdef double y[CW_SCORE]
    for i in range(CW_SCORE):
        x[i], y[i] = a[i], b[i]
    return cw_score_less(x, y)


def drive_target(Arena arena, int me, dict order):
    cdef CwOrder o = order
    return cw_drive_target(&arena.a, me, &o)


def choose_maneuver(Rules rules, Arena arena, int me, dict order, target, double distance):
    """(pick, menu): the index chosen in the menu (or PICK_STRAIGHT, PICK_UNSURE) and the menu's maneuvers."""
    cdef CwOrder o = order
    cdef CwManeuver menu[CW_MAXMENU]
    cdef int n = 0
    pick = cw_choose_maneuver(&rules.r, &arena.a, me, &o, _target(arena, target), distance, menu, CW_MAXMENU, &n)
    return pick, [(menu[i].kind, menu[i].angle, menu[i].lateral, menu[i].d) for i in range(max(n, 0))]


def stopping_speed(Rules rules, double room):
    cdef double out = 0.0
    status = cw_stopping_speed(&rules.r, room, &out)
    return status, out


def desired_speed(Rules rules, Arena arena, int me, dict order, target):
    cdef CwOrder o = order
    cdef double out = 0.0
    status = cw_desired_speed(&rules.r, &arena.a.vehicles[me], &o, _target(arena, target), &out)
    return status, out


def choose_speed(Rules rules, Arena arena, int me, dict order, target):
    cdef CwOrder o = order
    cdef double out = 0.0
    status = cw_choose_speed(&rules.r, &arena.a, me, &o, _target(arena, target), &out)
    return status, out
