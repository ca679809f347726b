# cython: language_level=3, cdivision=True
# Header-only standing driver for the compiled fight kernel (issue 34): the decisions of
# hardpoint.carwars.driving (FIGHT-07, FIGHT-08) with what they call (motion.straight_displacement,
# turn.phase_distances, handling.control_needed), each function a transcription of one reference function in the
# same operation order, so that the kernel decides as the reference does, bit for bit (tests/test_drive_kernel_parts.py).
# Build with -ffp-contract=off, as for _cwgeom.pxd.
#
# The state comes in plain structs (below), each field saying what fills it from the Python objects. Python semantics
# kept: float % and // as Python computes them (cw_pymod, cw_pyfloordiv), min/max keeping the first of equals, tuple
# comparison (cw_score_less), the arena's insertion order, +0.0 where geometry._point makes it.
from libc.math cimport floor, ceil, fmod, fabs, sqrt, copysign, trunc, INFINITY

from _cwgeom cimport (CwCounter, CwPolygon, CW_OK, CW_UNSURE, CW_FRONT, CW_RIGHT, cw_sincos_deg,
                       cw_to_local, cw_to_world, cw_corners, cw_counter_polygon, cw_facing_sides,
                       cw_nearest_point, cw_distance, cw_touching, cw_first_contact, cw_clip_to_arc)

cdef enum:
    CW_MAXKINDS = 16       # kinds in the driver's menu (carwars.fight [driver] menu)
    CW_MAXROWS = 64        # Control Table rows (handling.toml schema: at most 64)
    CW_MAXCOLS = 30        # Control Table columns (at most 30)
    CW_MAXBRAKING = 32     # [speed] braking bands (handling.toml schema: at most 32)
    CW_CHART_SPEEDS = 301  # movement chart keys: whole mph 0..300 (turn.toml schema)
    CW_PHASES = 5          # phases a turn (carwars.turn phases, a constant of the schema)
    CW_MAXMENU = 128       # maneuvers a menu may hold (the stock menu makes 45 at most)
    CW_SCORE = 7           # a maneuver's score: blocked, collision course, then the tactic's five

cdef enum:
    # driving.MANEUVER_KINDS
    CW_STRAIGHT = 0
    CW_DRIFT = 1
    CW_STEEP_DRIFT = 2
    CW_BEND = 3
    CW_SWERVE = 4
    CW_PIVOT = 5
    CW_BOOTLEGGER = 6
    CW_T_STOP = 7

cdef enum:
    # driving.TACTICS
    CW_HOLD_COURSE = 0
    CW_PURSUE = 1
    CW_KEEP_RANGE = 2
    CW_BRING_TO_BEAR = 3
    CW_EVADE = 4

cdef enum:
    # Vehicle.kind (BodySpec.kind)
    CW_CAR = 0
    CW_TRIKE = 1
    CW_CYCLE = 2

cdef enum:
    # enums.Mount beyond the four sides (CW_FRONT..CW_RIGHT are Mount.FRONT..RIGHT)
    CW_TOP = 4
    CW_UNDERBODY = 5
    CW_TURRET = 6

cdef enum:
    # cw_choose_maneuver's answers that are not an index of the menu
    CW_PICK_STRAIGHT = -1  # the reference's own Maneuver("straight"): hold_course, no target, or an empty menu
    CW_PICK_UNSURE = -2    # a geometry CW_UNSURE, or a menu beyond the caller's array: let the reference decide


cdef struct CwDriveRules:
    # carwars.maneuvers (seeds/carwars/maneuvers.toml)
    int water_max_d                   # water_max_d
    int reverse_extra_d               # reverse_extra_d
    double speed_step                 # [speed] step
    double acceleration[3]            # [speed] acceleration[car, trike, cycle]
    double top_speed[3]               # [speed] top_speed[car, trike, cycle]
    double safe_braking               # [speed] safe_braking
    int n_braking                     # len([speed] braking)
    double braking_mph[CW_MAXBRAKING] # [speed] braking[i][0]
    int braking_d[CW_MAXBRAKING]      # [speed] braking[i][1]
    double max_braking                # [speed] max_braking
    int straight_d                    # [maneuver.straight] d
    int drift_d                       # [maneuver.drift] d
    double drift_lateral              # [maneuver.drift] lateral
    int steep_drift_d                 # [maneuver.steep_drift] d
    double steep_drift_lateral        # [maneuver.steep_drift] lateral
    int bend_d_per_step               # [maneuver.bend] d_per_step (a swerve's D too)
    double bend_step                  # [maneuver.bend] step
    double bend_max_angle             # [maneuver.bend] max_angle
    double swerve_lateral             # [maneuver.swerve] lateral
    int swerve_d_extra                # [maneuver.swerve] d_extra
    double swerve_step                # [maneuver.swerve] step
    double swerve_max_angle           # [maneuver.swerve] max_angle
    int pivot_d                       # [maneuver.pivot] d
    double pivot_speed                # [maneuver.pivot] speed
    double pivot_advance              # [maneuver.pivot] advance
    double pivot_step                 # [maneuver.pivot] step
    double pivot_max_angle            # [maneuver.pivot] max_angle
    int bootlegger_d                  # [maneuver.bootlegger] d
    double bootlegger_min_speed       # [maneuver.bootlegger] min_speed
    double bootlegger_max_speed       # [maneuver.bootlegger] max_speed
    double bootlegger_advance         # [maneuver.bootlegger] advance
    int bootlegger_not_for            # [maneuver.bootlegger] not_for: bit CW_CAR.. set for each kind named
    int t_stop_d_per_10_mph           # [maneuver.t_stop] d_per_10_mph
    double t_stop_angle               # [maneuver.t_stop] angle
    # carwars.damage [crew]
    int substitute_maneuver_penalty   # substitute_maneuver_penalty
    # carwars.fight [driver] (seeds/carwars/fight.toml)
    int n_menu                        # len(menu)
    int menu[CW_MAXKINDS]             # MANEUVER_KINDS.index(kind) of each menu entry; -1 a name that is none
    int max_control_roll              # max_control_roll
    double tactic_speed[5]            # speed[tactic], by TACTICS order
    double turning_speed              # turning_speed
    double standoff                   # standoff
    double turning_room[3]            # turning_room[car, trike, cycle]
    # carwars.handling [control] (seeds/carwars/handling.toml)
    int n_rows                        # len(rows)
    int n_cols                        # len(columns)
    int columns[CW_MAXCOLS]           # columns (handling statuses, highest first)
    int control[CW_MAXROWS * CW_MAXCOLS]   # rows[r][c] at r * CW_MAXCOLS + c
    # carwars.bodies [arcs]
    double arc_angle                  # angle
    # carwars.turn (seeds/carwars/turn.toml)
    int chart_has[CW_CHART_SPEEDS]    # 1 where str(speed) is a key of chart
    double chart[CW_CHART_SPEEDS * CW_PHASES]   # chart[str(speed)][p] at speed * CW_PHASES + p
    int spread_order[CW_PHASES]       # spread_order (1-based phases)
    double pedestrian_step            # pedestrian_step (inches a walking pedestrian moves a phase)


cdef struct CwUnit:
    # what the driver reads of any unit, a Vehicle or a Pedestrian
    CwCounter counter                 # unit.counter (its cx, cy are unit.x, unit.y)
    double speed                      # unit.speed
    int side                          # fight.side_names.index(fight.side(unit.id))
    bint out                          # unit.id in out (out of action)


cdef struct CwVehicle:
    # model.Vehicle
    CwUnit unit                       # as above; counter.width is body.width + (body.sidecar_width if sidecar else 0.0)
    int kind                          # CW_CAR, CW_TRIKE, CW_CYCLE: v.kind
    bint has_acceleration             # v.acceleration is not None
    double acceleration               # v.acceleration
    bint has_top_speed                # v.top_speed is not None
    double top_speed                  # v.top_speed
    bint in_water                     # v.water_depth_ft > 0
    bint off_road                     # v.off_road
    bint substitute                   # v.substitute is not None
    bint has_handling                 # v.handling_status is not None
    int handling_status               # v.handling_status
    int oil_extra                     # dropped.oil_extra_difficulty(rules, arena, v): 0 off a slick
    int armour[4]                     # v.armour[Side.FRONT], [BACK], [LEFT], [RIGHT]
    int n_weapons                     # len(list(v.all_weapons()))
    const int* weapon_mount           # int(w.mount) for w in v.all_weapons()
    const unsigned char* weapon_usable   # under its movement order: (order.weapons is None or w.id in order.weapons)
                                         # and w.spec.aimed and fight.weapon_can_fire(w) and driving.manned(v, w);
                                         # 0 without an order
    const unsigned char* weapon_sidecar  # w in v.sidecar.weapons: its arcs are the sidecar counter's (CW-ARC-02)
    double sidecar_offset             # model.Vehicle.sidecar_counter: the sidecar's centre, local x (body.width / 2, + right)
    double sidecar_width              # body.sidecar_width (0 without a sidecar)


cdef struct CwArena:
    # model.Arena
    int n_vehicles
    const CwVehicle* vehicles         # arena.vehicles.values(), in order
    int n_pedestrians
    const CwUnit* pedestrians         # arena.pedestrians.values(), in order
    int n_buildings
    const double* building_xy         # each building's polygon.vertices, flattened (x0, y0, x1, y1, ...)
    const int* building_start         # building k's vertices are building_start[k] to building_start[k + 1] - 1
    int phase                         # arena.phase (1..5)


cdef struct CwOrder:
    # driving.DriveOrder
    int tactic                        # TACTICS.index(order.tactic)
    int target                        # -1 "nearest_enemy"; else the unit's index in vehicles, then pedestrians
    bint has_speed                    # order.speed is not None
    double speed                      # order.speed
    double range_inches               # order.range or 0.0


cdef struct CwManeuver:
    # driving.Maneuver
    int kind                          # CW_STRAIGHT..CW_T_STOP
    double angle                      # degrees, right positive
    double lateral                    # inches, right positive
    int d                             # its own D


cdef struct CwMove:
    # driving.ManeuverMove
    double dx
    double dy
    double angle
    double px                         # pivot, in the counter's own frame
    double py


# --- Python's arithmetic ----------------------------------------------------------------------------------------------

cdef inline double cw_pymod(double x, double y) noexcept nogil:
    """Python's float x % y, as driving.turned and turn.phase_distances use it (FIGHT-08, CW-ROF-02): fmod, plus the
    divisor when the signs differ; a zero takes the divisor's sign."""
    cdef double m = fmod(x, y)
    if m != 0.0:
        if (y < 0.0) != (m < 0.0):
            m += y
    else:
        m = copysign(0.0, y)
    return m


cdef inline double cw_pyfloordiv(double x, double y) noexcept nogil:
    """Python's float x // y, as turn.phase_distances and driving._turns use it (CW-ROF-02, FIGHT-08): CPython's
    float_divmod, then its quotient snapped to a whole number."""
    cdef double m = fmod(x, y), div = (x - m) / y, q
    if m != 0.0 and (y < 0.0) != (m < 0.0):
        div -= 1.0
    if div != 0.0:
        q = floor(div)
        if div - q > 0.5:
            q += 1.0
        return q
    return copysign(0.0, x / y)


# --- movement (CW-ROF-02, FIGHT-04) -----------------------------------------------------------------------------------

cdef inline void cw_phase_distances(const CwDriveRules* r, double speed, double* out) noexcept nogil:
    """turn.phase_distances (CW-ROF-02): the inches moved in each of the five phases at a speed (the chart's row, else
    speed/10 inches, whole ones spread in spread_order, a half in the first phase without a whole one)."""
    cdef double s = fabs(speed)
    cdef int p, i, whole
    if s == trunc(s) and s < CW_CHART_SPEEDS and r.chart_has[<int>s]:
        for p in range(CW_PHASES):
            out[p] = r.chart[<int>s * CW_PHASES + p]
        return
    whole = <int>cw_pyfloordiv(s, 10.0)
    for p in range(CW_PHASES):
        out[p] = <double>(whole // 5)
    for i in range(whole % 5):
        out[r.spread_order[i] - 1] += 1.0
    if cw_pymod(s, 10.0) >= 5:
        for i in range(CW_PHASES):
            p = r.spread_order[i] - 1
            if out[p] == whole // 5:
                out[p] += 0.5
                break


cdef inline void cw_straight_displacement(const CwDriveRules* r, const CwUnit* u, int phase, double* dx,
                                          double* dy) noexcept nogil:
    """motion.straight_displacement for a vehicle (FIGHT-04): the phase's move along its facing, as
    turn.move_vehicle makes it (cw_sincos_deg: exact at multiples of 90)."""
    cdef double dist[CW_PHASES]
    cdef double d, sign, s, c
    cw_phase_distances(r, u.speed, dist)
    d = dist[phase - 1]
    if d == 0:
        dx[0], dy[0] = 0.0, 0.0
        return
    sign = -1.0 if u.speed < 0 else 1.0
    cw_sincos_deg(u.counter.facing, &s, &c)
    dx[0] = sign * d * s
    dy[0] = sign * d * c


# --- handling (FIGHT-09) ------------------------------------------------------------------------------------------------

cdef inline int cw_control_row(const CwDriveRules* r, double speed) noexcept nogil:
    """handling._row (FIGHT-09): the Control Table row of a speed (5-10 mph row 0, then one a 10 mph); -1 (None) under 5
    mph."""
    cdef double s = fabs(speed)
    cdef int row
    if s < 5:
        return -1
    row = <int>ceil(s / 10.0) - 1
    return row if row < r.n_rows - 1 else r.n_rows - 1


cdef inline int cw_control_needed(const CwDriveRules* r, double speed, int status) noexcept nogil:
    """handling.control_needed (FIGHT-09): the Control Table at a speed and a handling status (within the columns):
    0 safe, 2-6 the die needed, 7 control lost. The validated columns hold every status between their ends."""
    cdef int row = cw_control_row(r, speed), col = 0
    if row < 0:
        return 0
    status = status if status < r.columns[0] else r.columns[0]
    status = status if status > r.columns[r.n_cols - 1] else r.columns[r.n_cols - 1]
    while col < r.n_cols - 1 and r.columns[col] != status:
        col += 1
    return r.control[row * CW_MAXCOLS + col]


# --- maneuvers (FIGHT-08) ----------------------------------------------------------------------------------------------

cdef inline int cw_push(CwManeuver* out, int n, int cap, int kind, double angle, double lateral, int d) noexcept nogil:
    """maneuver_menu's `out += [Maneuver(kind, angle, lateral, d)]` (FIGHT-08), while the array has room; the count it
    would have either way."""
    if n < cap:
        out[n].kind, out[n].angle, out[n].lateral, out[n].d = kind, angle, lateral, d
    return n + 1


cdef inline int cw_turns(CwManeuver* out, int n, int cap, int kind, double step, double max_angle, double lateral,
                         int d0, int d_step) noexcept nogil:
    """driving._turns (FIGHT-08): left then right, angle by angle (a swerve slides the other way first); the D of step k
    is d0 + k * d_step."""
    cdef int side, k, steps = <int>(cw_pyfloordiv(max_angle, step) + 1e-9)
    for side in range(-1, 2, 2):
        for k in range(1, steps + 1):
            n = cw_push(out, n, cap, kind, <double>(side * k) * step, <double>(-side) * lateral, d0 + k * d_step)
    return n


cdef inline int cw_pair(CwManeuver* out, int n, int cap, int kind, double x, int d) noexcept nogil:
    """maneuver_menu's `for side in (-1, 1)` (FIGHT-08): a maneuver left, then right, as it writes them: a drift slides
    `side * x` (its angle a plain 0.0), a bootlegger or T-stop turns `side * x` (its slide a plain 0.0)."""
    cdef int side
    for side in range(-1, 2, 2):
        if kind == CW_DRIFT or kind == CW_STEEP_DRIFT:
            n = cw_push(out, n, cap, kind, 0.0, side * x, d)
        else:
            n = cw_push(out, n, cap, kind, side * x, 0.0, d)
    return n


cdef inline int cw_menu_kind(const CwDriveRules* r, const CwVehicle* v, int kind, double speed, bint whole,
                             CwManeuver* out, int n, int cap) noexcept nogil:
    """One kind of driving.maneuver_menu's loop (FIGHT-08): its maneuvers appended (left then right, angles rising)."""
    if kind == CW_PIVOT:
        if speed == r.pivot_speed:
            n = cw_turns(out, n, cap, CW_PIVOT, r.pivot_step, r.pivot_max_angle, 0.0, r.pivot_d, 0)
    elif not whole:
        pass
    elif kind == CW_DRIFT:
        n = cw_pair(out, n, cap, kind, r.drift_lateral, r.drift_d)
    elif kind == CW_STEEP_DRIFT:
        n = cw_pair(out, n, cap, kind, r.steep_drift_lateral, r.steep_drift_d)
    elif kind == CW_BEND:
        n = cw_turns(out, n, cap, kind, r.bend_step, r.bend_max_angle, 0.0, 0, r.bend_d_per_step)
    elif kind == CW_SWERVE:
        n = cw_turns(out, n, cap, kind, r.swerve_step, r.swerve_max_angle, r.swerve_lateral, r.swerve_d_extra,
                     r.bend_d_per_step)
    elif kind == CW_BOOTLEGGER:
        if r.bootlegger_min_speed <= speed <= r.bootlegger_max_speed and not (r.bootlegger_not_for >> v.kind) & 1:
            n = cw_pair(out, n, cap, kind, 180.0, r.bootlegger_d)
    elif kind == CW_T_STOP:
        n = cw_pair(out, n, cap, kind, r.t_stop_angle, <int>ceil(speed / 10.0 - 1e-9) * r.t_stop_d_per_10_mph)
    return n


cdef inline int cw_maneuver_menu(const CwDriveRules* r, const CwVehicle* v, double distance, CwManeuver* out,
                                 int cap) noexcept nogil:
    """driving.maneuver_menu (FIGHT-08): the maneuvers of the driver's menu the vehicle may make in a phase of
    `distance` inches, in the reference's order, into out; the count, or -1 when more than `cap`."""
    cdef double speed = fabs(v.unit.speed)
    cdef int i, n = 0, m = 0
    if distance <= 0:
        return 0
    n = cw_push(out, n, cap, CW_STRAIGHT, 0.0, 0.0, r.straight_d)
    for i in range(r.n_menu):
        if r.menu[i] > CW_STRAIGHT:
            n = cw_menu_kind(r, v, r.menu[i], speed, distance >= 1.0, out, n, cap)
    if n > cap:
        return -1
    if not v.in_water:
        return n
    for i in range(n):
        if out[i].d <= r.water_max_d:
            out[m] = out[i]
            m += 1
    return m


cdef inline int cw_maneuver_difficulty(const CwDriveRules* r, const CwVehicle* v, const CwManeuver* m) noexcept nogil:
    """driving.maneuver_difficulty (FIGHT-08): its D with the additions the vehicle carries (off-road, reverse, a
    substitute driver); straight D0."""
    cdef int d
    if m.kind == CW_STRAIGHT:
        return 0
    d = m.d
    if v.off_road:
        d += 1
    if v.unit.speed < 0:
        d += r.reverse_extra_d
    if v.substitute:
        d += r.substitute_maneuver_penalty
    return d


cdef inline void cw_maneuver_move(const CwDriveRules* r, const CwVehicle* v, const CwManeuver* m, double distance,
                                  CwMove* out) noexcept nogil:
    """driving.maneuver_move (FIGHT-08): the slide (forward plus sideways) and the turn about its pivot (the back
    corner inside the turn, the front one in reverse; the centre for a bootlegger or a T-stop)."""
    cdef double sign = -1.0 if v.unit.speed < 0 else 1.0, ahead = distance, s, c
    if m.kind == CW_PIVOT:
        ahead = r.pivot_advance
    elif m.kind == CW_BOOTLEGGER:
        ahead = r.bootlegger_advance
    cw_sincos_deg(v.unit.counter.facing, &s, &c)
    out.dx = sign * ahead * s + m.lateral * c
    out.dy = sign * ahead * c - m.lateral * s
    out.angle, out.px, out.py = 0.0, 0.0, 0.0
    if m.angle == 0.0:
        return
    out.angle = m.angle
    if m.kind == CW_BOOTLEGGER or m.kind == CW_T_STOP:
        return
    out.px = 0.5 * v.unit.counter.width * (1.0 if m.angle > 0 else -1.0)
    out.py = 0.5 * v.unit.counter.length * (sign if v.unit.speed < 0 else -1.0)


cdef inline void cw_turned(const CwCounter* k, double angle, double px, double py, CwCounter* out) noexcept nogil:
    """driving.turned (FIGHT-08): the counter turned `angle` degrees about a point of its own frame (the pivot stays
    put)."""
    cdef double wx, wy, s, c, rx, ry
    cw_to_world(k, px, py, &wx, &wy)
    cw_sincos_deg(angle, &s, &c)
    rx, ry = k.cx - wx, k.cy - wy
    out.cx = wx + rx * c + ry * s
    out.cy = wy - rx * s + ry * c
    out.length, out.width = k.length, k.width
    out.facing = cw_pymod(k.facing + angle, 360.0)


cdef inline void cw_end_counter(const CwCounter* k, const CwMove* move, CwCounter* out) noexcept nogil:
    """driving.end_counter (FIGHT-08): the counter after a move: slid, then turned about its pivot."""
    cdef CwCounter moved
    moved.cx, moved.cy, moved.length, moved.width, moved.facing = k.cx + move.dx, k.cy + move.dy, k.length, k.width, k.facing
    if move.angle == 0.0:
        out[0] = moved
    else:
        cw_turned(&moved, move.angle, move.px, move.py, out)


# --- what the driver keeps clear of (FIGHT-07) --------------------------------------------------------------------------

cdef inline bint cw_obstacle(const CwArena* a, int me, int j, double* buf, const double** poly, int* n) noexcept nogil:
    """Obstacle j of driving._obstacles (FIGHT-07): the other vehicles' corners (j < n_vehicles, into buf), then the
    buildings' vertices; False for the vehicle itself."""
    if j < a.n_vehicles:
        if j == me:
            return False
        cw_corners(&a.vehicles[j].unit.counter, buf)
        poly[0], n[0] = buf, 4
        return True
    j -= a.n_vehicles
    poly[0] = &a.building_xy[2 * a.building_start[j]]
    n[0] = a.building_start[j + 1] - a.building_start[j]
    return True


cdef inline int cw_straight_on(const CwDriveRules* r, const CwUnit* o, int phase, double* out) noexcept nogil:
    """driving._straight_on for one other vehicle (FIGHT-07): its counter gone straight on for the phase, then that slid
    a steep drift to the left and to the right (3 polygons of 4 corners into out[0:24]); 0 when it does not move."""
    cdef double dx, dy, s, c, k
    cdef double xy[8]
    cdef int j, i
    cw_straight_displacement(r, o, phase, &dx, &dy)
    if dx == 0.0 and dy == 0.0:
        return 0
    cw_sincos_deg(o.counter.facing, &s, &c)
    cw_corners(&o.counter, xy)
    for j in range(3):
        k = 0.0 if j == 0 else (-r.steep_drift_lateral if j == 1 else r.steep_drift_lateral)
        for i in range(4):
            out[8 * j + 2 * i] = xy[2 * i] + dx + k * c
            out[8 * j + 2 * i + 1] = xy[2 * i + 1] + dy - k * s
    return 3


cdef inline bint cw_blocked(const CwDriveRules* r, const CwArena* a, int me, const CwCounter* cnt,
                            int phase) noexcept nogil:
    """driving.blocked (FIGHT-07): whether the counter moved to `cnt` would touch a vehicle or building it does not
    touch now; with the rules (r not NULL), also where each other moving vehicle may be at the phase's end."""
    cdef double now[8]
    cdef double corners[8]
    cdef double buf[24]
    cdef const double* poly
    cdef int j, k, n
    cw_corners(&a.vehicles[me].unit.counter, now)
    cw_corners(cnt, corners)
    for j in range(a.n_vehicles + a.n_buildings):
        if cw_obstacle(a, me, j, buf, &poly, &n) and cw_touching(corners, 4, poly, n) and not cw_touching(now, 4, poly, n):
            return True
    if r == NULL:
        return False
    for j in range(a.n_vehicles):
        if j == me:
            continue
        for k in range(cw_straight_on(r, &a.vehicles[j].unit, phase, buf)):
            if cw_touching(corners, 4, &buf[8 * k], 4) and not cw_touching(now, 4, &buf[8 * k], 4):
                return True
    return False


cdef inline double cw_slowed(double speed, double mph) noexcept nogil:
    """model.slowed: a speed `mph` slower, not past a stop, its sign kept (as crashes._slow and the turn's slowdowns
    make it)."""
    cdef double m = fabs(speed) - mph
    return (m if m > 0.0 else 0.0) * (1.0 if speed > 0 else -1.0)


cdef inline bint cw_on_collision_course(const CwDriveRules* r, const CwArena* a, int me, const CwCounter* cnt,
                                        int phase) noexcept nogil:
    """driving.on_collision_course (FIGHT-07): whether from `cnt` he and another vehicle (from where it will be at
    the phase's end), both going straight on, each at the speed it can brake to safely by then (cw_slowed), would
    touch within the next turn; pairs already touching do not count."""
    cdef double mine[8]
    cdef double theirs[8]
    cdef double s, c, go, vax, vay, dx, dy, os_, oc, vbx, vby, t, nx, ny
    cdef const CwUnit* o
    cdef int j, i
    cw_corners(cnt, mine)
    cw_sincos_deg(cnt.facing, &s, &c)
    go = cw_slowed(a.vehicles[me].unit.speed, r.safe_braking) / 10.0
    vax, vay = go * s, go * c
    for j in range(a.n_vehicles):
        if j == me:
            continue
        o = &a.vehicles[j].unit
        cw_straight_displacement(r, o, phase, &dx, &dy)
        cw_corners(&o.counter, theirs)
        for i in range(4):
            theirs[2 * i], theirs[2 * i + 1] = theirs[2 * i] + dx, theirs[2 * i + 1] + dy
        if cw_touching(mine, 4, theirs, 4):
            continue
        cw_sincos_deg(o.counter.facing, &os_, &oc)
        go = cw_slowed(o.speed, r.safe_braking) / 10.0
        vbx, vby = go * os_, go * oc
        if (vax != 0.0 or vay != 0.0 or vbx != 0.0 or vby != 0.0) and \
                cw_first_contact(mine, 4, vax, vay, theirs, 4, vbx, vby, 0.0, 1.0, &t, &nx, &ny):
            return True
    return False


cdef inline bint cw_pushing(const CwArena* a, int me) noexcept nogil:
    """driving._pushing (FIGHT-07): whether going straight one inch drives the vehicle into a vehicle or building it
    touches now (its counter pared by LOOK_GRAIN a side)."""
    cdef double now[8]
    cdef double ahead[8]
    cdef double buf[8]
    cdef double s, c
    cdef const double* poly
    cdef CwCounter pared = a.vehicles[me].unit.counter
    cdef int i, j, n
    cw_corners(&a.vehicles[me].unit.counter, now)
    cw_sincos_deg(a.vehicles[me].unit.counter.facing, &s, &c)
    pared.length = pared.length - 2.0 * 1e-6        # driving._pared: into it, not along it
    pared.width = pared.width - 2.0 * 1e-6
    cw_corners(&pared, ahead)
    for i in range(4):
        ahead[2 * i], ahead[2 * i + 1] = ahead[2 * i] + s, ahead[2 * i + 1] + c
    for j in range(a.n_vehicles + a.n_buildings):
        if cw_obstacle(a, me, j, buf, &poly, &n) and cw_touching(now, 4, poly, n) and cw_touching(ahead, 4, poly, n):
            return True
    return False


# --- how a pose looks to the driver (FIGHT-07, CW-ARC-01/02, CW-LOF-03) ---------------------------------------------

cdef inline int cw_gap(const CwCounter* a, const CwCounter* b, double* out) noexcept nogil:
    """driving.gap (CW-LOF-03): the distance between two counters, the least from a corner of one to the other's
    outline (0 when they touch or overlap)."""
    cdef CwPolygon pa, pb
    cdef const CwPolygon* poly
    cdef const CwPolygon* other
    cdef double best = INFINITY, qx, qy, d
    cdef int side, i
    if cw_counter_polygon(a, &pa) != CW_OK or cw_counter_polygon(b, &pb) != CW_OK:
        return CW_UNSURE
    for side in range(2):
        poly = &pa if side == 0 else &pb
        other = &pb if side == 0 else &pa
        for i in range(poly.n):
            if cw_nearest_point(other, poly.xy[2 * i], poly.xy[2 * i + 1], &qx, &qy) != CW_OK:
                return CW_UNSURE
            d = cw_distance(poly.xy[2 * i], poly.xy[2 * i + 1], qx, qy)
            if d < best:
                best = d
    out[0] = best
    return CW_OK


cdef inline double cw_heading(const CwCounter* k, const CwUnit* target) noexcept nogil:
    """driving._heading (FIGHT-07): 1 - the cosine between the counter's heading and the line to the target's centre."""
    cdef double lx, ly, r
    cw_to_local(k, target.counter.cx, target.counter.cy, &lx, &ly)
    r = sqrt(lx * lx + ly * ly)
    return 1.0 - ly / r if r > 0.0 else 0.0


cdef inline int cw_bearing(const CwDriveRules* r, const CwVehicle* v, const CwCounter* k, const CwUnit* target,
                           int* count, double* err) noexcept nogil:
    """driving._bearing (CW-ARC-02): how many of the order's usable weapons (manned) have some of the target's
    counter in their arc as an attack judges it (cw_clip_to_arc; a sidecar weapon's: the sidecar's), and the least pointing error among them (0 for a
    turret or top mount)."""
    cdef CwPolygon tp, clipped
    cdef CwCounter sc
    cdef int i, mount, st
    cdef double lx, ly, rr, e, axx, axy
    if cw_counter_polygon(&target.counter, &tp) != CW_OK:
        return CW_UNSURE
    cw_to_local(k, target.counter.cx, target.counter.cy, &lx, &ly)
    rr = sqrt(lx * lx + ly * ly)
    count[0], err[0] = 0, 2.0
    for i in range(v.n_weapons):
        mount = v.weapon_mount[i]
        if not v.weapon_usable[i]:
            continue
        if mount == CW_TURRET or mount == CW_TOP:
            count[0], err[0] = count[0] + 1, 0.0
            continue
        if mount < CW_FRONT or mount > CW_RIGHT:
            continue
        axx = 0.0 if mount < 2 else (1.0 if mount == CW_RIGHT else -1.0)      # driving._AXES
        axy = 0.0 if mount >= 2 else (1.0 if mount == CW_FRONT else -1.0)
        if v.weapon_sidecar[i]:                     # model.Vehicle.sidecar_counter(k): its own arcs
            cw_to_world(k, v.sidecar_offset, 0.0, &sc.cx, &sc.cy)
            sc.length, sc.width, sc.facing = k.length, v.sidecar_width, k.facing
            st = cw_clip_to_arc(&sc, mount, &tp, r.arc_angle, &clipped)
        else:
            st = cw_clip_to_arc(k, mount, &tp, r.arc_angle, &clipped)
        if st == CW_UNSURE:
            return CW_UNSURE
        if st == CW_OK:                             # the attack's own test (CW-ARC-02): more than a touch
            count[0] += 1
        e = 1.0 - (axx * lx + axy * ly) / rr if rr > 0.0 else 0.0
        if e < err[0]:
            err[0] = e
    return CW_OK


cdef inline double cw_grain(double x) noexcept nogil:
    """driving._grain (FIGHT-07): a score in millionths (math.floor; a whole number, exact in a double below 2**53)."""
    return floor(x / 1e-6 + 0.5)


cdef inline int cw_shown(const CwVehicle* v, const CwCounter* k, const CwUnit* target) noexcept nogil:
    """The evade score's armour (FIGHT-07): the most of the vehicle's armour on the sides the target faces (or 0)."""
    cdef int mask = cw_facing_sides(k, target.counter.cx, target.counter.cy), side, shown = 0
    cdef bint found = False
    for side in range(4):
        if (mask >> side) & 1 and (not found or v.armour[side] > shown):
            shown, found = v.armour[side], True
    return shown


cdef inline int cw_score(const CwDriveRules* r, const CwVehicle* v, const CwOrder* order, const CwCounter* k,
                         const CwUnit* target, double* out) noexcept nogil:
    """driving._score (FIGHT-07): the tactic's score of an end pose, lower better, into out[0:5] (evade's three, the
    others' four, and 0s; bring_to_bear's five); every entry a whole number, as the reference's ints (negated as
    0.0 - x: an int has no -0)."""
    cdef double dist = cw_grain(cw_distance(k.cx, k.cy, target.counter.cx, target.counter.cy))
    cdef double heading = cw_grain(cw_heading(k, target)), want, standoff, apart, g, room
    cdef int count
    cdef double err
    out[4] = 0.0
    if order.tactic == CW_EVADE:
        out[0], out[1], out[2], out[3] = 0.0 - heading, 0.0 - dist, -cw_shown(v, k, target), 0.0
        return CW_OK
    if cw_bearing(r, v, k, target, &count, &err) != CW_OK:
        return CW_UNSURE
    err = cw_grain(err)
    if order.tactic == CW_PURSUE:
        out[0], out[1], out[2], out[3] = heading, dist, -count, err
    elif order.tactic == CW_KEEP_RANGE:
        want = cw_grain(order.range_inches)
        out[0] = heading if dist > want else (0.0 - heading if dist < want else 0.0)
        out[1], out[2], out[3] = fabs(dist - want), -count, err
    else:                                                                   # bring_to_bear
        standoff = cw_grain(r.standoff)
        if cw_gap(k, &target.counter, &g) != CW_OK:
            return CW_UNSURE
        apart = cw_grain(g)
        room = cw_grain(r.turning_room[v.kind])
        out[0], out[1], out[2] = -count, (0.0 - (apart if apart < room else room)) if count == 0 else 0.0, err
        out[3], out[4] = heading if apart > standoff else 0.0, fabs(apart - standoff)
    return CW_OK


cdef inline bint cw_score_less(const double* a, const double* b) noexcept nogil:
    """Python's tuple a < b on two scores of CW_SCORE numbers (FIGHT-07): the first unequal pair decides; equal is not
    less."""
    cdef int i
    for i in range(CW_SCORE):
        if a[i] != b[i]:
            return a[i] < b[i]
    return False


# --- the standing driver's decisions (FIGHT-07, FIGHT-08) ---------------------------------------------------------------

cdef inline const CwUnit* cw_unit(const CwArena* a, int u) noexcept nogil:
    """drive_target's `units` (FIGHT-07): unit u of list(arena.vehicles.values()) + list(arena.pedestrians.values())."""
    return &a.vehicles[u].unit if u < a.n_vehicles else &a.pedestrians[u - a.n_vehicles]


cdef inline int cw_drive_target(const CwArena* a, int me, const CwOrder* order) noexcept nogil:
    """driving.drive_target (FIGHT-07): the index (vehicles, then pedestrians) of whom he steers by: the named unit
    while in action; for nearest_enemy the enemy in action whose centre is nearest his (the first of equals); -1 for
    none."""
    cdef const CwUnit* me_u = &a.vehicles[me].unit
    cdef const CwUnit* u
    cdef int i, best = -1
    cdef double d, best_d = 0.0
    if order.target >= 0:
        return -1 if cw_unit(a, order.target).out else order.target
    for i in range(a.n_vehicles + a.n_pedestrians):
        u = cw_unit(a, i)
        if i == me or u.out or u.side == me_u.side:
            continue
        d = cw_distance(me_u.counter.cx, me_u.counter.cy, u.counter.cx, u.counter.cy)
        if best < 0 or d < best_d:
            best, best_d = i, d
    return best


cdef inline bint cw_controllable(const CwDriveRules* r, const CwVehicle* v, const CwManeuver* m) noexcept nogil:
    """choose_maneuver's first test (FIGHT-09): the Control Table at his speed and his status less the maneuver's D
    (and an oil slick's) within max_control_roll; always for straight ahead or outside the handling rules."""
    cdef int d
    if not v.has_handling or m.kind == CW_STRAIGHT:
        return True
    d = cw_maneuver_difficulty(r, v, m) + v.oil_extra
    return cw_control_needed(r, v.unit.speed, v.handling_status - d) <= r.max_control_roll


cdef inline int cw_choose_maneuver(const CwDriveRules* r, const CwArena* a, int me, const CwOrder* order,
                                   const CwUnit* target, double distance, CwManeuver* menu, int cap,
                                   int* n_menu) noexcept nogil:
    """driving.choose_maneuver (FIGHT-07): of the menu (written into `menu`, its count into n_menu), the index of the
    maneuver he makes: of those within his control limit, the lowest (blocked, collision course, tactic's score),
    the first of equals. CW_PICK_STRAIGHT for the reference's plain straight, CW_PICK_UNSURE when undecided here."""
    cdef const CwVehicle* v = &a.vehicles[me]
    cdef double score[CW_SCORE]
    cdef double best_score[CW_SCORE]
    cdef CwMove move
    cdef CwCounter cnt
    cdef int i, best = CW_PICK_STRAIGHT
    n_menu[0] = 0
    if order.tactic == CW_HOLD_COURSE or target == NULL:
        return CW_PICK_STRAIGHT
    n_menu[0] = cw_maneuver_menu(r, v, distance, menu, cap)
    if n_menu[0] < 0:
        return CW_PICK_UNSURE
    for i in range(n_menu[0]):
        if not cw_controllable(r, v, &menu[i]):
            continue
        cw_maneuver_move(r, v, &menu[i], distance, &move)
        cw_end_counter(&v.unit.counter, &move, &cnt)
        score[0] = cw_blocked(r, a, me, &cnt, a.phase)
        score[1] = cw_on_collision_course(r, a, me, &cnt, a.phase)
        if cw_score(r, v, order, &cnt, target, &score[2]) != CW_OK:
            return CW_PICK_UNSURE
        if best < 0 or cw_score_less(score, best_score):
            best = i
            best_score[:] = score
    return best


cdef inline int cw_stopping_speed(const CwDriveRules* r, double room, double* out) noexcept nogil:
    """driving._stopping_speed (FIGHT-08): the highest speed (a step apart) from which braking safely, a turn at a time,
    stops within `room` inches. CW_UNSURE when safe_braking or the step is not positive (the reference never ends)."""
    cdef double best = 0.0, speed = r.speed_step, inches, k
    if r.safe_braking <= 0 or r.speed_step <= 0:
        return CW_UNSURE
    while speed <= 300.0:
        inches, k = 0.0, speed
        while k > 0:
            inches += k / 10.0
            k -= r.safe_braking
        if inches > room:
            break
        best, speed = speed, speed + r.speed_step
    out[0] = best
    return CW_OK


cdef inline int cw_desired_speed(const CwDriveRules* r, const CwVehicle* v, const CwOrder* order,
                                 const CwUnit* target, double* out) noexcept nogil:
    """driving._desired_speed (FIGHT-07): the speed the tactic wants this turn (bring_to_bear: no faster than he can
    stop from within the room to the standoff while a weapon bears; while none does, its own speed within the turning
    room, else the turning speed)."""
    cdef double cruise = order.speed if order.has_speed else r.tactic_speed[order.tactic], dist, room, stop
    cdef int count
    cdef double err
    cdef bint near
    out[0] = cruise
    if target == NULL or (order.tactic != CW_PURSUE and order.tactic != CW_BRING_TO_BEAR):
        return CW_OK
    if cw_gap(&v.unit.counter, &target.counter, &dist) != CW_OK:
        return CW_UNSURE
    near = dist <= r.standoff
    if order.tactic == CW_PURSUE:
        out[0] = fabs(target.speed) if near else cruise
        return CW_OK
    if cw_bearing(r, v, &v.unit.counter, target, &count, &err) != CW_OK:
        return CW_UNSURE
    if count == 0:
        out[0] = cruise if dist < r.turning_room[v.kind] else r.turning_speed
        return CW_OK
    room = dist - r.standoff
    if cw_stopping_speed(r, 0.5 * room, &stop) != CW_OK:
        return CW_UNSURE
    out[0] = stop if stop < cruise else cruise
    return CW_OK


cdef inline bint cw_nearer_speed(double cand, double best, double want, double speed) noexcept nogil:
    """choose_speed's test (FIGHT-08): cand is nearer the wanted speed than best, or as near and a smaller change."""
    return fabs(cand - want) < fabs(best - want) or \
        (fabs(cand - want) == fabs(best - want) and fabs(cand - speed) < fabs(best - speed))


cdef inline int cw_braking_difficulty(const CwDriveRules* r, double lost) noexcept nogil:
    """driving.braking_difficulty (FIGHT-08): the D of braking `lost` mph in a turn: 0 within safe braking, else the
    first band's that covers it (the hardest band's beyond)."""
    cdef int i
    if lost <= r.safe_braking:
        return 0
    for i in range(r.n_braking):
        if lost <= r.braking_mph[i]:
            return r.braking_d[i]
    return r.braking_d[r.n_braking - 1] if r.n_braking > 0 else 0


cdef inline double cw_braking_limit(const CwDriveRules* r, const CwVehicle* v) noexcept nogil:
    """driving.braking_limit (FIGHT-07/09): safe braking, or the hardest band up to max_braking whose D leaves the
    control roll at his speed within max_control_roll."""
    cdef double limit = r.safe_braking
    cdef int i
    if not v.has_handling:
        return limit
    for i in range(r.n_braking):
        if r.braking_mph[i] > r.max_braking or \
                cw_control_needed(r, v.unit.speed, v.handling_status - r.braking_d[i]) > r.max_control_roll:
            break
        limit = limit if limit > r.braking_mph[i] else r.braking_mph[i]
    return limit


cdef inline int cw_choose_speed(const CwDriveRules* r, const CwArena* a, int me, const CwOrder* order,
                                const CwUnit* target, double* out) noexcept nogil:
    """driving.choose_speed (FIGHT-07/08): of the speeds a step apart from the safe-braking limit to the acceleration
    limit (within 0 and the top speed) the nearest the tactic's; he keeps his speed on hold_course or with no target;
    0 if going straight on would keep him pushing against what he touches."""
    cdef const CwVehicle* v = &a.vehicles[me]
    cdef double speed = v.unit.speed, want, lo, hi, best, k, cand
    out[0] = speed
    if order.tactic == CW_HOLD_COURSE or target == NULL:
        return CW_OK
    if r.speed_step <= 0 or cw_desired_speed(r, v, order, target, &want) != CW_OK:
        return CW_UNSURE
    lo = speed - cw_braking_limit(r, v)
    lo = lo if lo > 0.0 else 0.0
    hi = speed + (v.acceleration if v.has_acceleration else r.acceleration[v.kind])      # driving.acceleration
    hi = hi if hi < (v.top_speed if v.has_top_speed else r.top_speed[v.kind]) else \
        (v.top_speed if v.has_top_speed else r.top_speed[v.kind])                       # driving.top_speed
    best = speed if lo <= speed <= hi else (lo if speed < lo else hi)
    k = ceil((lo - speed) / r.speed_step - 1e-9)
    while speed + k * r.speed_step <= hi + 1e-9:
        cand = speed + k * r.speed_step
        if cw_nearer_speed(cand, best, want, speed):
            best = cand
        k += 1
    out[0] = 0.0 if best > 0 and cw_pushing(a, me) else best
    return CW_OK
