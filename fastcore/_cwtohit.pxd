# cython: language_level=3
# The to-hit of a standing order's shot in a fight that drives (issue 34): a vehicle's mounted, aimed weapon at a
# vehicle, aimed "auto", worked out from where the two counters are now, as hardpoint.carwars.attack.explain_attack
# works it out (CW-ARC-02, CW-LOF-01..03, CW-TGT-01, CW-TGT-05, CW-HIT-01..10), with no blocker, cloud, area or oil
# slick on the map (the wrapper sends fights with them to the reference). Header-only (cdef inline, nogil), in the
# reference's operation order with its libm calls, so that every double is the reference's (-ffp-contract=off).
#
# What it gives is what the fight packer puts in a candidate row (carwars.fightpack.FightPacker.row_of): the number
# needed by an able, unhurt firer of no skill before sustained fire (the kernel adds those per firer, as for a packed
# row), the range, the side hit and whether the shot comes from a sidecar's side.
from _cwgeom cimport *
from _cwshape cimport Shape, Span, make_shape, shape_angles, min_dist, shape_span, nearest_on_boundary, entry
from libc.math cimport atan2, sqrt, floor, fabs, INFINITY

cdef enum:
    TH_MAX_BANDS = 16      # speed bands (carwars.tohit [speed_bands] bands)
    TH_SIDECAR_NONE = -1


cdef struct ThVehicle:
    # one vehicle as a shot sees it (hardpoint.carwars.model.Vehicle)
    CwCounter cnt          # Vehicle.counter: the whole counter (a cycle's sidecar included)
    double speed           # Vehicle.speed, mph (negative in reverse)
    double body_width      # BodySpec.width: a cycle's own width
    double sc_width        # BodySpec.sidecar_width (0 without a sidecar)
    int sc_side            # the sidecar's side (CW_LEFT or CW_RIGHT), TH_SIDECAR_NONE without one
    int size_fb            # CW-HIT-05: tohit.target_size_modifiers(size, "front_back"), summed
    int size_side          # the same seen from a side
    int handling           # CW-HIT-10: carwars.tohit.handling[Vehicle.handling] this turn, 0 none
    int hazard             # CW-HIT-10: Vehicle.hazard_difficulty this phase
    int firer_static       # what the firer's own situation adds and does not change in a fight: its computer (CW-HIT-08),
                           # a bad surface (-1), blinded (-10, CW-HIT-07), weather and light (CW-HIT-07)
    int paint              # CW-HIT-07: paint on its windows this turn (-2), else 0


cdef struct ThWeapon:
    int mount              # enums.Mount: 0 front, 1 back, 2 left, 3 right, 4 top, 5 underbody, 6 turret
    int sidecar            # on the sidecar (its arc and origin are the sidecar counter's)
    int to_hit             # WeaponSpec.to_hit


cdef struct ThTables:
    # carwars.tohit and carwars.bodies, read once
    double arc_angle       # bodies [arcs] angle
    double pb_under        # [range] point_blank_under
    int pb                 # [range] point_blank
    double step            # [range] long_range_step
    int per_step           # [range] long_range_per_step
    int nbands
    double band_lo[TH_MAX_BANDS]     # [speed_bands] bands: lower bound, mph
    int band_mod[TH_MAX_BANDS]       #                      its modifier
    int target_still       # [speed_bands] target_not_moving
    int firer_still        # [speed_bands] firer_not_moving
    int rel[9]             # [relative_movement] row (front, back, side) x column: 0 half_target, 1 half_difference,
                           # 2 target, 3 difference
    int literal            # [relative_movement] literal_difference
    int wrong_arc          # [targeting] wrong_arc
    int max_needed         # [to_hit] max_needed


cdef struct ThShot:
    int status             # CW_OK explained; CW_NONE no shot (outside the weapon's arc, no line of fire); CW_UNSURE the
                           # reference decides (a polygon its Polygon(...) might refuse)
    int needed             # for an able, unhurt firer with no skill, sustained fire aside (the kernel adds these and
                           # then asks whether a hit is possible: needed <= ThTables.max_needed)
    int side               # enums.Side the shot strikes (0 front .. 3 right), -1 none facing
    int sidecar_side       # CW-TGT-05: fired from the sidecar's side of a cycle's centre line
    double range           # CW-LOF-03: origin to the aim point, inches


cdef inline void th_sidecar_counter(const ThVehicle* v, CwCounter* out) noexcept nogil:
    """Vehicle.sidecar_counter: the sidecar's own counter, beside the cycle on its side."""
    cdef double off = v.body_width / 2.0 * (1.0 if v.sc_side == CW_RIGHT else -1.0)
    cw_to_world(&v.cnt, off, 0.0, &out.cx, &out.cy)
    out.length, out.width, out.facing = v.cnt.length, v.sc_width, v.cnt.facing


cdef inline void th_cycle_counter(const ThVehicle* v, CwCounter* out) noexcept nogil:
    """Vehicle.cycle_counter: the cycle's own half of a cycle-with-sidecar counter."""
    cdef double off = v.sc_width / 2.0 * (-1.0 if v.sc_side == CW_RIGHT else 1.0)
    cw_to_world(&v.cnt, off, 0.0, &out.cx, &out.cy)
    out.length, out.width, out.facing = v.cnt.length, v.body_width, v.cnt.facing


cdef inline int th_sight(double ox, double oy, const CwPolygon* part, double* ax, double* ay, double* rng) noexcept nogil:
    """geometry.line_of_fire with no blocker (CW-LOF-01..03): always clear; the aim point is the target's point
    nearest the origin (the origin itself, range 0, when it is inside or on the target)."""
    cdef Shape t
    cdef Span sp
    cdef int flip = 0
    cdef double px, py, pang, cx, cy, d2
    make_shape(&t, part.xy, part.n, ox, oy, 0)
    if min_dist(&t) >= -CW_EPS:
        ax[0], ay[0], rng[0] = ox, oy, 0.0
        return 1
    shape_angles(&t)
    shape_span(&t, &sp)
    if sp.wraps:
        flip = 1
        make_shape(&t, part.xy, part.n, ox, oy, 1)
        shape_angles(&t)
        shape_span(&t, &sp)
    nearest_on_boundary(&t, &px, &py)
    pang = atan2(py, px)
    if sp.lo <= pang <= sp.hi:
        cx, cy = px, py
    elif pang < sp.lo:
        if not entry(&t, sp.lo, sp.lx, sp.ly, &sp, &cx, &cy) and not entry(&t, sp.hi, sp.hx, sp.hy, &sp, &cx, &cy):
            cx, cy = sp.lx, sp.ly
    else:
        if not entry(&t, sp.hi, sp.hx, sp.hy, &sp, &cx, &cy) and not entry(&t, sp.lo, sp.lx, sp.ly, &sp, &cx, &cy):
            cx, cy = sp.lx, sp.ly
    d2 = cx * cx + cy * cy
    if flip:
        ax[0], ay[0] = ox + (0.0 - cy), oy + (0.0 - cx)
    else:
        ax[0], ay[0] = ox + cy, oy + cx
    rng[0] = sqrt(d2)
    return 1


cdef inline int th_range_mod(const ThTables* t, double distance) noexcept nogil:
    """tohit.range_modifiers (CW-HIT-02): point blank under 1" +4; -1 for every full 4"."""
    cdef double steps
    if distance < t.pb_under:
        return t.pb
    steps = floor(distance / t.step + 1e-9)
    return <int>steps * t.per_step


cdef inline int th_speed_band(const ThTables* t, double speed) noexcept nogil:
    """tohit.speed_band (CW-HIT-04): the modifier of the last band whose lower bound the speed reaches."""
    cdef int i, mod = 0
    for i in range(t.nbands):
        if speed >= t.band_lo[i]:
            mod = t.band_mod[i]
    return mod


cdef inline int th_row(int arcs) noexcept nogil:
    """tohit._row over an arc set: a bit per row front (0), back (1), side (2); no arc: side."""
    cdef int rows = 0
    if arcs & (1 << CW_FRONT):
        rows |= 1
    if arcs & (1 << CW_BACK):
        rows |= 2
    if arcs & ((1 << CW_LEFT) | (1 << CW_RIGHT)):
        rows |= 4
    return rows if rows else 4


cdef inline double th_relative_speed(const ThTables* t, int firer_in_target, int target_in_firer, double target_speed,
                                     double firer_speed, int closing) noexcept nogil:
    """tohit.relative_speed (CW-HIT-03, the SPEC's reading): the speed the bands are read on, the cell of the
    movement table best for the defender when the arcs give more than one."""
    cdef double ts = fabs(target_speed), fs = fabs(firer_speed), diff, vals[4], best = -INFINITY
    cdef int rows = th_row(firer_in_target), cols = th_row(target_in_firer), r, c
    diff = (ts - fs) if t.literal else fabs(ts - fs)
    if diff < 0.0:
        diff = 0.0
    vals[0], vals[1], vals[2], vals[3] = ts / 2, diff / 2, ts, (ts if closing else diff)
    for r in range(3):
        if rows & (1 << r):
            for c in range(3):
                if cols & (1 << c) and vals[t.rel[3 * r + c]] > best:
                    best = vals[t.rel[3 * r + c]]
    return best


cdef inline bint th_closing(const ThVehicle* a, const ThVehicle* b) noexcept nogil:
    """attack._closing (CW-HIT-03): each has a velocity component toward the other."""
    cdef double dx = b.cnt.cx - a.cnt.cx, dy = b.cnt.cy - a.cnt.cy
    cdef double sa, ca, sb, cb, vax, vay, vbx, vby
    cw_sincos_deg(a.cnt.facing, &sa, &ca)
    cw_sincos_deg(b.cnt.facing, &sb, &cb)
    vax, vay, vbx, vby = a.speed * sa, a.speed * ca, b.speed * sb, b.speed * cb
    return vax * dx + vay * dy > 0 and vbx * -dx + vby * -dy > 0


cdef inline int th_movement_mod(const ThTables* t, const ThVehicle* firer, const ThVehicle* target) noexcept nogil:
    """attack._movement (CW-HIT-03/04): the band of the relative speed, +1 target still, +1 firer still."""
    cdef CwPolygon fp, tp
    cdef int fin, tin, mod
    cw_counter_polygon(&firer.cnt, &fp)
    cw_counter_polygon(&target.cnt, &tp)
    fin = cw_polygon_arcs(&target.cnt, &fp, t.arc_angle)
    tin = cw_polygon_arcs(&firer.cnt, &tp, t.arc_angle)
    mod = th_speed_band(t, th_relative_speed(t, fin, tin, target.speed, firer.speed, th_closing(firer, target)))
    if target.speed == 0:
        mod += t.target_still
    if firer.speed == 0:
        mod += t.firer_still
    return mod


cdef inline int th_side_mod(const ThTables* t, const ThVehicle* target, int side, int firer_arcs) noexcept nogil:
    """attack.best_side's measure of a facing side: the target's size seen from it (CW-HIT-05) and -2 when its arc
    does not hold the firer (CW-TGT-01)."""
    cdef int mod = target.size_fb if side <= CW_BACK else target.size_side
    if not (firer_arcs & (1 << side)):
        mod += t.wrong_arc
    return mod


cdef inline int th_best_side(const ThTables* t, const ThVehicle* target, int facing, int firer_arcs) noexcept nogil:
    """attack.best_side (CW-TGT-01, aim "auto"): of the sides facing the firer, the easiest to hit; ties to front,
    back, left, right; -1 when none faces it."""
    cdef int side, best = -1, best_mod = 0, mod
    for side in range(4):
        if facing & (1 << side):
            mod = th_side_mod(t, target, side, firer_arcs)
            if best < 0 or mod > best_mod:
                best, best_mod = side, mod
    return best


cdef inline bint th_on_sidecar_side(const ThVehicle* target, double px, double py) noexcept nogil:
    """attack.on_sidecar_side (CW-TGT-05): the point is on the sidecar's side of the cycle's centre line, or on it."""
    cdef CwCounter cyc
    cdef double x, y
    th_cycle_counter(target, &cyc)
    cw_to_local(&cyc, px, py, &x, &y)
    return x >= -1e-9 if target.sc_side == CW_RIGHT else x <= 1e-9


cdef inline void th_origin(const ThVehicle* firer, const ThWeapon* w, CwCounter* body, double* ox, double* oy) noexcept nogil:
    """attack._firing's origin and arc counter: a turret or top weapon fires from its body's centre (all round), any
    other from the middle of its mount's side; a sidecar weapon's body is the sidecar counter."""
    if w.sidecar:
        th_sidecar_counter(firer, body)
    else:
        body[0] = firer.cnt
    if w.mount == 4 or w.mount == 6:
        ox[0], oy[0] = body.cx, body.cy
    else:
        cw_side_midpoint(body, w.mount, ox, oy)


cdef inline int th_explain(const ThTables* t, const ThVehicle* firer, const ThWeapon* w, const ThVehicle* target,
                           ThShot* out) noexcept nogil:
    """attack.explain_attack for the shot (see the module's head): the weapon's arc clips the target's counter
    (CW-ARC-02: nothing left, no shot), the line of fire to what is left (CW-LOF-01..03), the side it strikes
    (CW-TGT-01), then every modifier but sustained fire and a wound (CW-HIT-02..10). Returns out.status."""
    cdef CwCounter body
    cdef CwPolygon part, clipped, fpoly
    cdef double ox, oy, ax, ay, rng
    cdef int st, firer_arcs, facing, mods = 0
    th_origin(firer, w, &body, &ox, &oy)
    cw_counter_polygon(&target.cnt, &part)
    if w.mount != 4 and w.mount != 6:
        st = cw_clip_to_arc(&body, w.mount, &part, t.arc_angle, &clipped)
        out.status = st
        if st != CW_OK:
            return st
        part = clipped
    th_sight(ox, oy, &part, &ax, &ay, &rng)
    cw_counter_polygon(&firer.cnt, &fpoly)
    firer_arcs = cw_polygon_arcs(&target.cnt, &fpoly, t.arc_angle)
    facing = cw_facing_sides(&target.cnt, ox, oy)
    out.side = th_best_side(t, target, facing, firer_arcs)
    if out.side >= 0:
        mods += target.size_fb if out.side <= CW_BACK else target.size_side
        if not (firer_arcs & (1 << out.side)):
            mods += t.wrong_arc
    mods += th_range_mod(t, rng) + th_movement_mod(t, firer, target)
    mods += firer.firer_static + firer.paint + firer.handling - firer.hazard
    out.range = rng
    out.needed = w.to_hit - mods
    out.sidecar_side = target.sc_side != TH_SIDECAR_NONE and th_on_sidecar_side(target, ox, oy)
    out.status = CW_OK
    return CW_OK
