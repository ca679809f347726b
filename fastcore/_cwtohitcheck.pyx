# cython: language_level=3, boundscheck=True, wraparound=False, cdivision=True
"""Test wrapper of the compiled to-hit of a fight that drives (_cwtohit.pxd): `explain` takes the dicts of
hardpoint.carwars.drivepack (tohit_tables, tohit_vehicle, tohit_weapon) and returns what th_explain gives, so that
tests/test_drive_kernel_tohit.py can compare it with hardpoint.carwars.attack.explain_attack. Not a kernel."""

from _cwgeom cimport *
from _cwtohit cimport *


cdef ThVehicle _vehicle(d) except *:
    cdef ThVehicle v
    v.cnt.cx, v.cnt.cy, v.cnt.length, v.cnt.width, v.cnt.facing = d["cnt"]
    v.speed, v.body_width, v.sc_width, v.sc_side = d["speed"], d["body_width"], d["sc_width"], d["sc_side"]
    v.size_fb, v.size_side, v.handling, v.hazard = d["size_fb"], d["size_side"], d["handling"], d["hazard"]
    v.firer_static, v.paint = d["firer_static"], d["paint"]
    return v


cdef ThTables _tables(d) except *:
    cdef ThTables t
    cdef int i
    t.arc_angle, t.pb_under, t.pb, t.step, t.per_step = d["arc_angle"], d["pb_under"], d["pb"], d["step"], d["per_step"]
    t.nbands = len(d["band_lo"])
    for i in range(t.nbands):
        t.band_lo[i], t.band_mod[i] = d["band_lo"][i], d["band_mod"][i]
    t.target_still, t.firer_still, t.literal = d["target_still"], d["firer_still"], d["literal"]
    for i in range(9):
        t.rel[i] = d["rel"][i]
    t.wrong_arc, t.max_needed = d["wrong_arc"], d["max_needed"]
    return t


def explain(tables, firer, weapon, target):
    """(status, needed, side, sidecar_side, range) of th_explain."""
    cdef ThTables t = _tables(tables)
    cdef ThVehicle f = _vehicle(firer), g = _vehicle(target)
    cdef ThWeapon w
    cdef ThShot s
    w.mount, w.sidecar, w.to_hit = weapon["mount"], weapon["sidecar"], weapon["to_hit"]
    s.needed = s.side = s.sidecar_side = 0
    s.range = 0.0
    th_explain(&t, &f, &w, &g, &s)
    return s.status, s.needed, s.side, s.sidecar_side, s.range


def sight(double ox, double oy, points):
    """(aim x, aim y, range) of th_sight to a polygon given as Polygon stores it."""
    cdef CwPolygon p
    cdef double ax, ay, rng
    p.n = len(points)
    for i, (x, y) in enumerate(points):
        p.xy[2 * i], p.xy[2 * i + 1] = x, y
    th_sight(ox, oy, &p, &ax, &ay, &rng)
    return ax, ay, rng
