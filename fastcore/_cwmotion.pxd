# cython: language_level=3, cdivision=True
# Header-only movement of a phase with the collisions it causes, for the compiled fight kernel's fights that drive
# (issue 34): hardpoint.carwars.motion.move_with_contacts (FIGHT-04), with the maneuvers' turns at the phase's end
# (FIGHT-08), each function a transcription of one reference function in the same operation order, so that the kernel
# moves the counters to the same doubles and finds the same contacts, in the same order, as the reference
# (tests/test_drive_kernel_motion.py). Build with -ffp-contract=off, as for _cwgeom.pxd.
#
# What the kernel holds in place of the reference's objects: the vehicles (CwVehicle, its unit.counter the vehicle's x,
# y and facing, unit.speed its speed) and the walking pedestrians (CwUnit) in the arena's order, the buildings'
# vertices as CwArena holds them (building_xy, building_start). cw_move_phase moves them as move_with_contacts moves
# the Vehicle and Pedestrian objects, and writes each contact of the phase as a CwContact: what motion._collide reads
# of it (the units, the time, the normal, the sides, the speeds), leaving the Collision records (weights, ids, no
# collision at a speed of 0) to the kernel.
#
# Scratch comes from the caller (no allocation here): a CwMover for each vehicle then each pedestrian, and room for
# cw_motion_pair_cap(...) CwPairs. Codes (never an exception), returned before anything is changed:
# CW_MOTION_UNSURE where the reference's BoxGrid could raise (a box not finite: math.floor; or one so wide that its
# range of cells overflows len(): the kernel leaves any box beyond 1e15 inches to the reference), CW_MOTION_FULL when
# the pairs or the contacts would overflow the caller's arrays.
from libc.math cimport fabs

from _cwgeom cimport (CwCounter, cw_sincos_deg, CW_FRONT, CW_BACK, cw_corners, cw_touching, cw_first_contact,
                       cw_side_facing)
from _cwdrive cimport (CwDriveRules, CwUnit, CwVehicle, CwArena, CwMove, cw_straight_displacement, cw_turned,
                       cw_blocked)

cdef extern from *:
    """
    #define CW_MOTION_NEAR 1e-3      /* motion._NEAR: inches a pair's swept boxes may be apart and still be a pair */
    #define CW_MOTION_BOX_MAX 1e15   /* the largest |coordinate| of a box the kernel files as BoxGrid would */
    """
    const double CW_MOTION_NEAR
    const double CW_MOTION_BOX_MAX

cdef enum:
    # what a vehicle meets (CwPair.kind, CwContact.kind_b): motion._pairs' first sort key
    CW_HIT_VEHICLE = 0
    CW_HIT_BUILDING = 1
    CW_HIT_PEDESTRIAN = 2

cdef enum:
    # motion.collision_kind's answers
    CW_HEAD_ON = 0
    CW_REAR_END = 1
    CW_T_BONE = 2
    CW_SIDESWIPE = 3

cdef enum:
    # cw_move_phase's and cw_motion_pairs' codes beside a count
    CW_MOTION_UNSURE = -2     # the reference could raise: let it move the phase
    CW_MOTION_FULL = -3       # more pairs or contacts than the caller's arrays hold


cdef struct CwMover:
    # motion._Mover (scratch of cw_move_phase: one a vehicle, then one a pedestrian, in the arena's order)
    double xy[8]              # corners: the counter's corners at the start of the phase (Counter.corners order)
    double vx                 # velocity: inches over the whole phase
    double vy
    bint stopped              # stopped_at is not None
    double stopped_at         # the time it stopped (a collision)
    double now[8]             # at(t) of the current time (working space)
    double box[4]             # motion._pairs' swept box: bounds(at(0.0) + at(1.0)), (x0, y0, x1, y1)


cdef struct CwPair:
    # one pair of motion._pairs (scratch of cw_move_phase)
    int a                     # the vehicle, its index among the vehicles
    int kind                  # CW_HIT_VEHICLE, CW_HIT_BUILDING, CW_HIT_PEDESTRIAN
    int b                     # what it may meet: its index among the vehicles, buildings or pedestrians (by kind)
    bint done                 # (a, b) in move_with_contacts' `done`


cdef struct CwContact:
    # one contact of the phase, as motion._collide reads it (FIGHT-04), in the order they happen
    int a                     # the vehicle, its index among the vehicles
    int kind_b                # CW_HIT_VEHICLE, CW_HIT_BUILDING, CW_HIT_PEDESTRIAN
    int b                     # its index among the vehicles, buildings or pedestrians (by kind_b)
    double time               # t: the time in the phase (0..1) they touched (Contact.time)
    double nx                 # Contact.normal, from a towards b (not normalised)
    double ny
    int side_a                # side_facing(va.facing, normal): CW_FRONT..CW_RIGHT
    int side_b                # a vehicle b: side_facing(vb.facing, (-nx, -ny)); -1 for a building or a pedestrian
    int kind                  # a vehicle b: collision_kind(side_a, side_b), CW_HEAD_ON..CW_SIDESWIPE; else -1
    double speed_a            # va.speed as _collide reads it: the phase's starting speed (zeroed only at its end)
    double speed_b            # vb.speed, or the pedestrian's speed, the same way; 0.0 for a building
    double speed              # the collision's speed as _collide gives it (collision_speed for two vehicles, else
                              # abs(va.speed)); the reference makes no Collision where it is <= 0


# --- the collision a contact makes (FIGHT-04: motion.collision_kind, collision_speed) ---------------------------------

cdef inline int cw_collision_kind(int side_a, int side_b) noexcept nogil:
    """motion.collision_kind (FIGHT-04): head-on (an end into the same end: front to front, or back to back), rear-end
    (an end into the other's opposite end), T-bone (an end into a side), sideswipe (side to side)."""
    cdef bint end_a = side_a == CW_FRONT or side_a == CW_BACK, end_b = side_b == CW_FRONT or side_b == CW_BACK
    if end_a and end_b:
        return CW_HEAD_ON if side_a == side_b else CW_REAR_END
    if end_a or end_b:
        return CW_T_BONE
    return CW_SIDESWIPE


cdef inline double cw_collision_speed(int kind, double speed_a, double speed_b, int side_a) noexcept nogil:
    """motion.collision_speed (FIGHT-04): head-on the sum of the speeds, T-bone the speed of the vehicle whose end
    struck, rear-end and sideswipe the difference (the vehicles' speeds as they are when it is called)."""
    cdef double sa = fabs(speed_a), sb = fabs(speed_b)
    if kind == CW_HEAD_ON:
        return sa + sb
    if kind == CW_T_BONE:
        return sa if side_a == CW_FRONT or side_a == CW_BACK else sb
    return fabs(sa - sb)


# --- a phase's straight moves (FIGHT-04: motion.straight_displacement) ------------------------------------------------

cdef inline void cw_pedestrian_displacement(const CwDriveRules* r, const CwUnit* u, double* dx, double* dy) noexcept nogil:
    """motion.straight_displacement for a pedestrian (FIGHT-04, CW-OBS-01): one step along his facing when he walks
    (speed > 0; cw_sincos_deg, as the reference), else none. A vehicle's: cw_straight_displacement."""
    cdef double s, c
    if u.speed <= 0:
        dx[0], dy[0] = 0.0, 0.0
        return
    cw_sincos_deg(u.counter.facing, &s, &c)
    dx[0] = r.pedestrian_step * s
    dy[0] = r.pedestrian_step * c


# --- a counter moving through the phase (FIGHT-04: motion._Mover) -----------------------------------------------------

cdef inline void cw_mover_init(CwMover* m, const CwCounter* k, double vx, double vy) noexcept nogil:
    """_Mover(uid, list(counter.corners()), velocity) (FIGHT-04): moving, from the counter's corners."""
    cw_corners(k, m.xy)
    m.vx, m.vy = vx, vy
    m.stopped, m.stopped_at = False, 0.0


cdef inline void cw_mover_shift(const CwMover* m, double t, double* dx, double* dy) noexcept nogil:
    """_Mover.shift (FIGHT-04): its displacement at time t of the phase (Python's min(t, stopped_at): t unless the
    stop is earlier)."""
    cdef double s = t
    if m.stopped and m.stopped_at < t:
        s = m.stopped_at
    dx[0] = m.vx * s
    dy[0] = m.vy * s


cdef inline void cw_mover_at(const CwMover* m, double t, double* xy) noexcept nogil:
    """_Mover.at (FIGHT-04): its corners at time t, into xy[0:8]."""
    cdef double dx, dy
    cdef int i
    cw_mover_shift(m, t, &dx, &dy)
    for i in range(4):
        xy[2 * i] = m.xy[2 * i] + dx
        xy[2 * i + 1] = m.xy[2 * i + 1] + dy


cdef inline void cw_mover_moving(const CwMover* m, double* vx, double* vy) noexcept nogil:
    """_Mover.moving (FIGHT-04): its velocity, (0.0, 0.0) once it stopped."""
    if m.stopped:
        vx[0], vy[0] = 0.0, 0.0
    else:
        vx[0], vy[0] = m.vx, m.vy


cdef inline void cw_mover_stop(CwMover* m, double t) noexcept nogil:
    """_Mover.stop (FIGHT-04): it stops at t, unless it stopped before."""
    if not m.stopped:
        m.stopped, m.stopped_at = True, t


# --- the pairs that can meet (FIGHT-04: motion._pairs, boxgrid.bounds, boxgrid._overlap) ------------------------------

cdef inline void cw_bounds(const double* xy, int n, double* box) noexcept nogil:
    """boxgrid.bounds (FAST-03): (min(xs), min(ys), max(xs), max(ys)) of n points (Python's min and max: the first of
    equals)."""
    cdef int i
    box[0], box[1], box[2], box[3] = xy[0], xy[1], xy[0], xy[1]
    for i in range(1, n):
        if xy[2 * i] < box[0]:
            box[0] = xy[2 * i]
        if xy[2 * i + 1] < box[1]:
            box[1] = xy[2 * i + 1]
        if xy[2 * i] > box[2]:
            box[2] = xy[2 * i]
        if xy[2 * i + 1] > box[3]:
            box[3] = xy[2 * i + 1]


cdef inline bint cw_box_overlap(const double* a, const double* b, double pad) noexcept nogil:
    """boxgrid._overlap (FAST-03): box a widened by pad overlaps box b (touching counts). BoxGrid.near(a, pad) answers
    exactly the boxes for which this holds, so the kernel tests each candidate directly."""
    return a[0] - pad <= b[2] and b[0] <= a[2] + pad and a[1] - pad <= b[3] and b[1] <= a[3] + pad


cdef inline bint cw_box_filed(const double* box) noexcept nogil:
    """Whether BoxGrid files the box surely without raising (FAST-03): every coordinate finite and within
    CW_MOTION_BOX_MAX inches (math.floor raises on a non-finite one, len() on a range of more than sys.maxsize
    cells)."""
    cdef int i
    for i in range(4):
        if not fabs(box[i]) <= CW_MOTION_BOX_MAX:
            return False
    return True


cdef inline void cw_swept_box(CwMover* m) noexcept nogil:
    """motion._pairs' swept (FIGHT-04): bounds(m.at(0.0) + m.at(1.0)) into m.box."""
    cdef double xy[16]
    cw_mover_at(m, 0.0, xy)
    cw_mover_at(m, 1.0, &xy[8])
    cw_bounds(xy, 8, m.box)


cdef inline int cw_motion_pair_cap(int nv, int nb, int np) noexcept nogil:
    """The most pairs motion._pairs can make of nv vehicles, nb buildings and np pedestrians: CwPairs to provide."""
    return nv * (nv - 1) // 2 + nv * nb + nv * np


cdef inline int cw_motion_pairs(CwMover* movers, int nv, int np, const double* building_xy,
                                const int* building_start, int nb, CwPair* pairs, int cap) noexcept nogil:
    """motion._pairs (FIGHT-04): the pairs whose boxes swept over the phase come within CW_MOTION_NEAR (each vehicle's
    box the query, as BoxGrid.near is asked), in the reference's sorted order: vehicle and later vehicle, vehicle and
    building, vehicle and pedestrian, each by the vehicle's index then the other's. The movers (vehicles then
    pedestrians) as cw_mover_init made them; their boxes are written. Returns the count (pairs not done), or
    CW_MOTION_UNSURE / CW_MOTION_FULL."""
    cdef double bbox[4]
    cdef int i, j, n = 0
    for i in range(nv + np):
        cw_swept_box(&movers[i])
        if not cw_box_filed(movers[i].box):
            return CW_MOTION_UNSURE
    for j in range(nb):
        cw_bounds(&building_xy[2 * building_start[j]], building_start[j + 1] - building_start[j], bbox)
        if not cw_box_filed(bbox):
            return CW_MOTION_UNSURE
    for i in range(nv):
        for j in range(i + 1, nv):
            if cw_box_overlap(movers[i].box, movers[j].box, CW_MOTION_NEAR):
                if n >= cap:
                    return CW_MOTION_FULL
                pairs[n].a, pairs[n].kind, pairs[n].b, pairs[n].done = i, CW_HIT_VEHICLE, j, False
                n += 1
    for i in range(nv):
        for j in range(nb):
            cw_bounds(&building_xy[2 * building_start[j]], building_start[j + 1] - building_start[j], bbox)
            if cw_box_overlap(movers[i].box, bbox, CW_MOTION_NEAR):
                if n >= cap:
                    return CW_MOTION_FULL
                pairs[n].a, pairs[n].kind, pairs[n].b, pairs[n].done = i, CW_HIT_BUILDING, j, False
                n += 1
    for i in range(nv):
        for j in range(np):
            if cw_box_overlap(movers[i].box, movers[nv + j].box, CW_MOTION_NEAR):
                if n >= cap:
                    return CW_MOTION_FULL
                pairs[n].a, pairs[n].kind, pairs[n].b, pairs[n].done = i, CW_HIT_PEDESTRIAN, j, False
                n += 1
    return n


# --- a phase's movement (FIGHT-04: motion.move_with_contacts, _collide; FIGHT-08: _turn_at_end) ------------------------

cdef inline void cw_pair_other(const CwPair* p, CwMover* movers, int nv, const double* building_xy,
                               const int* building_start, const double** xy, int* n, double* vx,
                               double* vy) noexcept nogil:
    """move_with_contacts' shape(b, t) (FIGHT-04): what the pair's vehicle may meet, its outline and velocity at the
    current time: a mover's `now` corners (cw_mover_at, computed beforehand) and cw_mover_moving, or a building's
    vertices, still."""
    cdef CwMover* m
    if p.kind == CW_HIT_BUILDING:
        xy[0] = &building_xy[2 * building_start[p.b]]
        n[0] = building_start[p.b + 1] - building_start[p.b]
        vx[0], vy[0] = 0.0, 0.0
        return
    m = &movers[p.b if p.kind == CW_HIT_VEHICLE else nv + p.b]
    xy[0], n[0] = m.now, 4
    cw_mover_moving(m, vx, vy)


cdef inline void cw_contact_record(const CwVehicle* vehicles, const CwUnit* peds, const CwPair* p, double t,
                                   double nx, double ny, CwContact* c) noexcept nogil:
    """motion._collide's reading of one contact (FIGHT-04): the sides that touch (side_facing of each facing, b's
    towards -normal), the kind and the speed of the collision, from the units as they stand during the movement
    (their phase-start facings and speeds)."""
    cdef const CwUnit* ua = &vehicles[p.a].unit
    c.a, c.kind_b, c.b, c.time, c.nx, c.ny = p.a, p.kind, p.b, t, nx, ny
    c.side_a = cw_side_facing(ua.counter.facing, nx, ny)
    c.speed_a = ua.speed
    c.side_b, c.kind, c.speed_b = -1, -1, 0.0
    if p.kind == CW_HIT_VEHICLE:
        c.side_b = cw_side_facing(vehicles[p.b].unit.counter.facing, -nx, -ny)
        c.kind = cw_collision_kind(c.side_a, c.side_b)
        c.speed_b = vehicles[p.b].unit.speed
        c.speed = cw_collision_speed(c.kind, c.speed_a, c.speed_b, c.side_a)
        return
    if p.kind == CW_HIT_PEDESTRIAN:
        c.speed_b = peds[p.b].speed
    c.speed = fabs(ua.speed)


cdef inline bint cw_turn_at_end(const CwArena* a, CwVehicle* v, int me, const CwMove* move) noexcept nogil:
    """motion._turn_at_end (FIGHT-08): the move's turn about its pivot at the end of the phase's slide, unless the
    turned counter would touch a vehicle (as it stands now) or a building it does not touch (driving.blocked without
    the rules); whether it turned. `a` views the arena with `v` as its vehicle `me`."""
    cdef CwCounter turned
    cw_turned(&v.unit.counter, move.angle, move.px, move.py, &turned)
    if cw_blocked(NULL, a, me, &turned, a.phase):
        return False
    v.unit.counter.cx, v.unit.counter.cy, v.unit.counter.facing = turned.cx, turned.cy, turned.facing
    return True


cdef inline int cw_move_phase(const CwDriveRules* r, CwVehicle* vehicles, int nv, CwUnit* peds, int np,
                              const double* building_xy, const int* building_start, int nb, int phase,
                              const CwMove* moves, const unsigned char* has_move, bint from_movement,
                              CwContact* out, int cap, CwMover* movers, CwPair* pairs, int pair_cap) noexcept nogil:
    """motion.move_with_contacts (FIGHT-04, FIGHT-08): every vehicle and walking pedestrian moved for the phase,
    stopping at collisions; returns the number of contacts written into out (in the order they happened), or
    CW_MOTION_UNSURE / CW_MOTION_FULL with nothing changed.

    A vehicle moves by its straight displacement (cw_straight_displacement), or, where has_move[i] (has_move NULL:
    none), by moves[i]'s slide, its turn made at the end of the phase (cw_turn_at_end) if no collision stopped it. The
    contacts: pairs touching at the start are done; then, while from_movement (carwars.fight [collisions]
    from_movement), the earliest first contact among the pairs not done and not both still (the first in pair order of
    equals) is recorded and done; a pedestrian struck stops there, else both stop (collisions.after = "stop", the only
    value the schema allows). At the end every counter is moved to where it is (a vehicle only by a non-zero shift),
    a vehicle that stopped gets speed 0.0, and the turns are made in the vehicles' order. Changed: the vehicles'
    unit.counter cx, cy, facing and unit.speed, the pedestrians' counter cx, cy.

    Scratch: movers (nv + np), pairs (pair_cap; cw_motion_pair_cap(nv, nb, np) always suffices); out holds cap
    contacts (as many as the pairs always suffice)."""
    cdef CwArena view
    cdef const double* xy_b
    cdef double vx, vy, dx, dy, vax, vay, vbx, vby, time, nx, ny, t = 0.0, best_t = 0.0, best_nx = 0.0, best_ny = 0.0
    cdef int i, k, n_b, n_pairs, best, n = 0
    cdef CwMover* ma
    for i in range(nv):
        if has_move != NULL and has_move[i]:
            vx, vy = moves[i].dx, moves[i].dy
        else:
            cw_straight_displacement(r, &vehicles[i].unit, phase, &vx, &vy)
        cw_mover_init(&movers[i], &vehicles[i].unit.counter, vx, vy)
    for i in range(np):
        cw_pedestrian_displacement(r, &peds[i], &vx, &vy)
        cw_mover_init(&movers[nv + i], &peds[i].counter, vx, vy)
    n_pairs = cw_motion_pairs(movers, nv, np, building_xy, building_start, nb, pairs, pair_cap)
    if n_pairs < 0:
        return n_pairs
    for i in range(nv + np):
        cw_mover_at(&movers[i], 0.0, movers[i].now)
    for k in range(n_pairs):
        cw_pair_other(&pairs[k], movers, nv, building_xy, building_start, &xy_b, &n_b, &vbx, &vby)
        if cw_touching(movers[pairs[k].a].now, 4, xy_b, n_b):
            pairs[k].done = True
    while from_movement:
        for i in range(nv + np):
            cw_mover_at(&movers[i], t, movers[i].now)
        best = -1
        for k in range(n_pairs):
            if pairs[k].done:
                continue
            ma = &movers[pairs[k].a]
            cw_mover_moving(ma, &vax, &vay)
            cw_pair_other(&pairs[k], movers, nv, building_xy, building_start, &xy_b, &n_b, &vbx, &vby)
            if vax == 0.0 and vay == 0.0 and vbx == 0.0 and vby == 0.0:
                continue
            if cw_first_contact(ma.now, 4, vax, vay, xy_b, n_b, vbx, vby, t, 1.0, &time, &nx, &ny) and \
                    (best < 0 or time < best_t):
                best, best_t, best_nx, best_ny = k, time, nx, ny
        if best < 0:
            break
        if n >= cap:
            return CW_MOTION_FULL
        t = best_t
        pairs[best].done = True
        cw_contact_record(vehicles, peds, &pairs[best], t, best_nx, best_ny, &out[n])
        n += 1
        if pairs[best].kind == CW_HIT_PEDESTRIAN:
            cw_mover_stop(&movers[nv + pairs[best].b], t)     # knocked down where he stood; the vehicle goes on
        else:
            cw_mover_stop(&movers[pairs[best].a], t)
            if pairs[best].kind == CW_HIT_VEHICLE:
                cw_mover_stop(&movers[pairs[best].b], t)
    # every counter to where it is at the end of the phase
    for i in range(nv):
        cw_mover_shift(&movers[i], 1.0, &dx, &dy)
        if dx != 0.0 or dy != 0.0:
            vehicles[i].unit.counter.cx += dx
            vehicles[i].unit.counter.cy += dy
        if movers[i].stopped and vehicles[i].unit.speed != 0:
            vehicles[i].unit.speed = 0.0
    for i in range(np):
        cw_mover_shift(&movers[nv + i], 1.0, &dx, &dy)
        peds[i].counter.cx += dx
        peds[i].counter.cy += dy
    if has_move == NULL:
        return n
    view.n_vehicles, view.vehicles, view.n_pedestrians, view.pedestrians = nv, vehicles, np, peds
    view.n_buildings, view.building_xy, view.building_start, view.phase = nb, building_xy, building_start, phase
    for i in range(nv):
        if has_move[i] and moves[i].angle != 0.0 and not movers[i].stopped:
            cw_turn_at_end(&view, &vehicles[i], i, &moves[i])
    return n
