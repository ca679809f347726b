# A fight that drives (FIGHT-07..12), compiled: `run_drive`, included by _carwars.pyx after the fight kernel, whose
# mechanics it reuses (the orders' choice of shots, the combat, fire, who is out of action). What run_fight reads from
# rows the packer worked out, the vehicles' places, depends here on the dice: each trial drives its vehicles as
# hardpoint.carwars.turn.run_turns does with a fight's movement orders, step by step, in the reference's order of
# dice and of floating-point operations:
#
#   turn start    drive_phase.start_of_turn: a rider takes over from a driver who is out; each driver's speed
#   each phase    drive_phase.plan_moves (crash moves, the standing driver's maneuver), motion.move_with_contacts
#                 (fastcore/_cwmotion.pxd), drive_phase.after_moves (control rolls, Crash Table 1, landings), the
#                 orders' shots explained where the counters stand (fastcore/_cwtohit.pxd) and chosen as
#                 fight.order_attacks chooses, the combat (collisions, to hit, damage), drive_phase.hazards
#   turn end      fire, handling penalties over, uncontrolled vehicles slowing, crash_end, statuses recovering
#
# Geometry comes from the header-only transcriptions (_cwgeom, _cwdrive, _cwtohit, _cwmotion); where one of them is
# unsure (a polygon the reference might refuse), where a phase has more contacts than the kernel keeps, or where a
# third vehicle stands near a line of fire (no line is traced past a blocker), the trial is handed to the reference
# (`redo`: DRV_UNSURE, DRV_FULL, DRV_BLOCKER), never guessed. hardpoint.carwars.drivepack packs what this reads (DriveSpec, DriveConsts, CrashEffect, the weapons' rows).
from libc.math cimport fabs, ceil, sqrt
from libc.stdio cimport snprintf
from libc.stdlib cimport strtod

from _cwgeom cimport (CwCounter, CwPolygon, CW_OK, CW_NONE, CW_UNSURE, CW_FRONT, CW_BACK, CW_LEFT, CW_RIGHT, cw_sincos_deg, cw_corners,
                       cw_counter_polygon, cw_nearest_point, cw_distance, cw_facing_sides, cw_clip_to_arc)
from _cwdrive cimport (CwDriveRules, CwUnit, CwVehicle, CwArena, CwOrder, CwManeuver, CwMove, CW_MAXMENU, CW_PHASES,
                       CW_STRAIGHT, CW_BOOTLEGGER, CW_T_STOP, CW_CYCLE, CW_PICK_UNSURE, cw_pymod, cw_pyfloordiv,
                       cw_phase_distances, cw_control_row, cw_control_needed, cw_maneuver_difficulty, cw_maneuver_move,
                       cw_turned, cw_blocked, cw_drive_target, cw_unit, cw_choose_maneuver, cw_choose_speed,
                       cw_bearing, cw_braking_difficulty, cw_slowed)
from _cwtohit cimport ThVehicle, ThWeapon, ThTables, ThShot, th_explain, th_origin, th_sight, TH_SIDECAR_NONE, TH_MAX_BANDS
from _cwshape cimport Shape, Span, make_shape, shape_angles, shape_span
from _cwmotion cimport (CwContact, CwMover, CwPair, CW_HIT_VEHICLE, CW_MOTION_UNSURE, cw_move_phase)

cdef enum:
    DRV_MAXV = 16          # vehicles of a fight that drives (drivepack.MAX_VEHICLES)
    DRV_MAXEFF = 64        # crash results (drivepack.MAX_EFFECTS)
    DRV_MAXBANDS = 32      # bands of a Crash Table or the hazard table, rows of the ram table (drivepack.MAX_BANDS_CT)
    DRV_MAXHZ = 8          # hazards a vehicle meets in a phase (obstacles run onto, its hits, its driver hit)
    DRV_MAXOBS = 128       # obstacles on the map (drivepack.MAX_OBSTACLES; a trial that drops more: DRV_FULL)
    DRV_MAXC = 128         # pairs of vehicles that may meet in a phase (16 * 15 / 2), so contacts too
    DRV_MAXROWS = 64       # Control Table rows (_cwdrive CW_MAXROWS)
    # crash results' kinds (drivepack._EFFECT_KINDS)
    EFF_SKID = 0
    EFF_FISHTAIL = 1
    EFF_SPINOUT = 2
    EFF_ROLL = 3
    EFF_VAULT = 4
    # a crash in motion (handling.CrashMotion.kind)
    CM_NONE = 0
    CM_SPINOUT = 1
    CM_ROLL = 2
    # who drives this turn (drive_phase._controlled_by)
    BY_NOBODY = 0
    BY_DRIVER = 1
    BY_SUBSTITUTE = 2
    # a trial the reference must run (`redo`)
    DRV_OK = 0
    DRV_UNSURE = 1         # a geometry call the transcription is unsure of
    DRV_FULL = 2           # more contacts in a phase than the kernel keeps
    DRV_BLOCKER = 3        # a third vehicle that may stand in a line of fire (the kernel traces none past blockers)
    # the weapons' rows (drivepack.DrivePacker.drive "weapons")
    DW_MOUNT = 0
    DW_SIDECAR = 1
    DW_TO_HIT = 2
    DW_DMG_COUNT = 3
    DW_DMG_BONUS = 4
    DW_DMG_HITS = 5
    DW_FIRE_MOD = 6
    DW_FIERY = 7
    DW_BURN = 8
    DW_DRIVE_USABLE = 9
    DW_POOL = 10           # DW_POOL .. DW_POOL + DW_POOL_N - 1: who may fire it (attack.default_firer_pool), -1 after
    DW_POOL_N = 4
    DW_NCOLS = 14


cdef struct CrashEffect:
    # one crash result (seeds/carwars/handling.toml [effect."<name>"]; kind -1: a name with no effect)
    int kind
    int fire_none          # fire = "none": no aimed fire for the rest of the turn
    int fire_value         # else carwars.tohit.handling[fire]
    double skid            # inches a skid slides
    double slow            # mph lost at once (a skid)
    int tire_points        # each tire's points (a skid)
    int next               # the skid of the move after, or -1
    double fishtail        # degrees a fishtail swings
    int then_table_1
    int has_tire_dice
    int tire_dice[3]       # count, bonus, floor
    int side_dice[3]
    int occupant_points
    double move_per_phase
    double slow_per_turn
    int has_burning
    int burning[2]         # a die in [lo, hi] sets a roll on fire
    int out                # in carwars.fight crash_results_out (FIGHT-03)


cdef struct DriveConsts:
    int enabled            # carwars.handling enabled
    int n_ct1
    int ct1[2 * DRV_MAXBANDS]      # Crash Table 1 (carwars.damage crew crash_table_1): (low, effect) pairs
    int n_ct2
    int ct2[2 * DRV_MAXBANDS]      # Crash Table 2 (carwars.handling crash_table_2)
    int crash_offset               # [crash] difficulty_offset
    int crash_modifier[DRV_MAXROWS]    # per Control Table row
    int status_floor
    int recover_min
    int hc_min
    int hc_max
    int n_hazard
    int hazard[2 * DRV_MAXBANDS]   # carwars.damage [hazard] bands: (hits, D) pairs (CW-DMG-01)
    int driver_hazard              # CW-CREW-02
    double uncontrolled_slow       # CW-CREW-03
    int cycle_crash[13]            # an uncontrolled cycle's Crash Table 1 result by its 2d6 roll (CW-CREW-03)
    int n_ram
    double ram_upper[DRV_MAXBANDS] # carwars.collisions ram: the speeds' upper ends
    int ram_dice[3 * DRV_MAXBANDS] # and their dice (count, bonus, floor)
    double ram_step
    int ram_per_step_above
    double radius                  # an explosion's (CW-FIRE-04)
    int from_movement              # carwars.fight [collisions] from_movement (FIGHT-04)
    int bootlegger_tire_points
    double t_stop_slow_per_inch
    int t_stop_tire_points_per_20
    double safe_braking
    int paint_mod                  # carwars.tohit visibility paint_on_windows (CW-HIT-07)
    int eff_spinout                # the effects a crash in motion reads
    int eff_roll
    int n_effects
    double obstacle_size           # carwars.damage [obstacle] size_in (CW-SEED-04)
    int obstacle_hazard            # and hazard


cdef struct DriveSpec:
    # one vehicle as the fight starts (drivepack.DrivePacker._vehicle)
    int driven                     # under a movement order (FIGHT-07)
    CwOrder order
    int from_turn
    int until_turn
    int has_until
    int hc_base                    # the body's HC and the suspension's bonus (FIGHT-09)
    int reflexes                   # the driver's reflex bonus while he is conscious and not stunned
    int stun_until                 # the driver is stunned through this turn (CW-SEED-02; -1000 never)
    int has_hs0
    int hs0
    int unc0                       # out of control (CW-CREW-03)
    int sub0                       # the substitute driver's crew index, -1 none (CW-CREW-04)
    int sub_from0
    int steered0
    int crash0                     # its crash result, -1 none
    int no_fire0
    int has_hv0
    int hv0                        # its handling penalty to fire this turn (CW-HIT-10)
    int paint_until                # paint on its windows through this turn (CW-HIT-07)
    int weight_num                 # its weight's factor as what strikes (CW-COL-04)
    int weight_den
    int kind                       # CW_CAR, CW_TRIKE, CW_CYCLE
    int has_accel
    double accel
    int has_top
    double top
    double x
    double y
    double facing
    double speed
    double length
    double width                   # the whole counter (a sidecar's included)
    double body_width
    double sc_width
    int sc_side
    int size_fb
    int size_side
    int firer_static
    int side                       # its side's index (FIGHT-01)


cdef struct DriveRun:
    # what every trial reads
    const DriveConsts* k
    const CwDriveRules* r
    const ThTables* th
    const CrashEffect* eff
    const DriveSpec* spec
    const int32_t* wd              # the weapons' rows (DW_NCOLS)
    const int32_t* c_skill         # per crew member, his gunner skill's modifier (CW-HIT-08)
    const int32_t* ent_target      # per entry, the order's named target, -1 any enemy
    const int32_t* t_front         # per tire, a front tire (a vault)
    int32_t* fir                   # the firer rows, their candidate ranges this phase's (F.fir points here)
    int32_t* cand                  # the candidate rows this phase (F.cand points here)
    int32_t* stamp_of              # per firer row, the phase its candidates were worked out in
    int stamp
    Py_ssize_t V, NW, most_fir
    Py_ssize_t fir_lo              # the phase's first firer row
    int turn
    int status                     # DRV_OK, else why the reference runs the trial
    # the trial: the vehicles as the driver and the movement see them
    CwVehicle cv[DRV_MAXV]
    CwArena arena
    unsigned char* usable          # per mounted weapon, usable under its movement order now
    int* mounts
    unsigned char* on_sidecar      # per mounted weapon, whether it is the sidecar's
    # handling and crashes (FIGHT-09)
    int cm_kind[DRV_MAXV]
    double cm_travel[DRV_MAXV]
    int cm_spin[DRV_MAXV]
    int cm_way[DRV_MAXV]           # a roll's side order (+1 to its right, -1 to its left)
    int cm_next[DRV_MAXV]
    int n_skids[DRV_MAXV]
    int skid_eff[2 * DRV_MAXV]
    double skid_travel[2 * DRV_MAXV]
    int crash_idx[DRV_MAXV]
    int hv_has[DRV_MAXV]
    int hv[DRV_MAXV]
    int no_fire[DRV_MAXV]
    int hazard[DRV_MAXV]           # this phase's maneuver D (CW-HIT-10)
    int n_hz[DRV_MAXV]
    int hz[DRV_MAXHZ * DRV_MAXV]   # the hazards met this phase, in order
    int sub[DRV_MAXV]
    int sub_from[DRV_MAXV]
    int steered[DRV_MAXV]
    int unc[DRV_MAXV]
    int32_t rolled[DRV_MAXV]       # the side it rests on (ctx.v_rolled points here)
    const int32_t* rolled0         # as the scenario has it
    int32_t* burning               # F.veh.burning: the fire state's (CW-FIRE-03)
    int metal_factor               # the collision figures (consts K_METAL_FACTOR, K_CAP_NUM, K_CAP_DEN)
    int cap_num
    int cap_den
    int ba_before[DRV_MAXV]
    # the phase's plan
    CwMove mv[DRV_MAXV]
    unsigned char has_mv[DRV_MAXV]
    int crashing[DRV_MAXV]
    CwManeuver man[DRV_MAXV]
    int has_man[DRV_MAXV]
    double man_travel[DRV_MAXV]
    double moved[DRV_MAXV]
    CwManeuver menu[CW_MAXMENU]
    # the phase's collisions from the movement: vehicle, side, speed, the striker's weight factor
    CwContact contacts[DRV_MAXC]
    CwMover movers[DRV_MAXV]
    CwPair pairs[DRV_MAXC]
    int n_col
    int col_v[2 * DRV_MAXC]
    int col_side[2 * DRV_MAXC]
    double col_speed[2 * DRV_MAXC]
    int col_num[2 * DRV_MAXC]
    int col_den[2 * DRV_MAXC]
    # an explosion's reach (CW-FIRE-04)
    int32_t near[2 * DRV_MAXV + 2]
    # obstacles on the map (CW-SEED-04): the scenario's (n_obs0, obs0: x, y, who stands on it as a bit each), then
    # those dropped in the trial (CW-DMG-08); per obstacle the vehicles on it since it was placed and those in
    # contact with it last phase (terrain.obstacle_hazards' still_on and meeting); where each vehicle was before
    # the phase's movement
    int n_obs0
    const double* obs0
    int n_obs
    double obs_x[DRV_MAXOBS]
    double obs_y[DRV_MAXOBS]
    unsigned int obs_still[DRV_MAXOBS]
    unsigned int obs_meet[DRV_MAXOBS]
    CwCounter before[DRV_MAXV]


# --- small rules ------------------------------------------------------------------------------------------------------

cdef inline bint drv_able(Ctx* ctx, int ci) noexcept nogil:
    """CrewMember.state < UNCONSCIOUS (CW-CREW-01): able to act."""
    return ci >= 0 and ctx.st[ctx.c_hits[ci]] < 2


cdef inline bint drv_holds(DriveRun* D, int v, int turn) noexcept nogil:
    """driving.DriveOrder.holds (FIGHT-07)."""
    cdef const DriveSpec* s = &D.spec[v]
    return s.driven and turn >= s.from_turn and (not s.has_until or turn <= s.until_turn)


cdef inline int drv_hc(DriveRun* D, Ctx* ctx, int v) noexcept nogil:
    """handling.handling_class (FIGHT-09): the body's and suspension's HC, the driver's reflexes while he is
    conscious (CW-CREW-02) and not stunned this turn (CW-SEED-02), within the table's bounds (never off-road here)."""
    cdef int hc = D.spec[v].hc_base
    if drv_able(ctx, ctx.v_driver[v]) and D.turn > D.spec[v].stun_until:
        hc += D.spec[v].reflexes
    hc = hc if hc < D.k.hc_max else D.k.hc_max
    return D.k.hc_min if D.k.hc_min > hc else hc


cdef inline int drv_controlled_by(DriveRun* D, Ctx* ctx, int v) noexcept nogil:
    """drive_phase._controlled_by (FIGHT-10): nobody while a crash carries it, else the driver while able, else the
    substitute while able."""
    if D.cm_kind[v] != CM_NONE:
        return BY_NOBODY
    if drv_able(ctx, ctx.v_driver[v]):
        return BY_DRIVER
    if D.sub[v] >= 0 and drv_able(ctx, D.sub[v]):
        return BY_SUBSTITUTE
    return BY_NOBODY


cdef inline void drv_slow(DriveRun* D, int v, double mph) noexcept nogil:
    """crashes._slow (FIGHT-09): nothing at no mph or standing still."""
    if mph == 0 or D.cv[v].unit.speed == 0:
        return
    D.cv[v].unit.speed = cw_slowed(D.cv[v].unit.speed, mph)


cdef inline double drv_travel(DriveRun* D, int v) noexcept nogil:
    """crashes.travel_of (FIGHT-09): its facing, or the reverse of it backing up."""
    cdef double f = D.cv[v].unit.counter.facing
    return f if D.cv[v].unit.speed >= 0 else cw_pymod(f + 180.0, 360.0)


cdef inline int drv_way(Ctx* ctx) noexcept nogil:
    """crashes._way (FIGHT-09): one die, 1-3 left (-1), 4-6 right (+1)."""
    return -1 if die(ctx) <= 3 else 1


cdef inline void drv_set_crash(DriveRun* D, FightRun* F, int v, int e) noexcept nogil:
    """Vehicle.crash = the result e; whether it puts the vehicle out of action (FIGHT-03) follows."""
    D.crash_idx[v] = e
    F.crash[v] = D.eff[e].out if e >= 0 else 0


cdef inline void drv_tires(DriveRun* D, Ctx* ctx, int v, int points, const int* dice) noexcept nogil:
    """crashes._tires (FIGHT-09): each tire (the sidecar's wheel last) takes `points`, or a roll of `dice` each."""
    cdef Py_ssize_t t
    cdef int hits
    if points == 0 and dice == NULL:
        return
    for t in range(ctx.v_t0[v], ctx.v_t1[v]):
        hits = roll(ctx, dice[0], dice[1], dice[2]) if dice != NULL else points
        dmg_slot(ctx, ctx.t_slot[t], hits)


cdef inline int drv_ram_hits(DriveRun* D, Ctx* ctx, double speed, int num, int den) noexcept nogil:
    """collision.collision_hits (CW-COL-04): the ram dice of the speed (carwars.collisions, rounded up to its step),
    none standing still, times the weight factor num / den rounded up."""
    cdef const DriveConsts* k = D.k
    cdef double s = fabs(speed)
    cdef int i, count
    if s <= 0:
        return 0
    s = ceil(s / k.ram_step - 1e-9) * k.ram_step
    for i in range(k.n_ram):
        if s <= k.ram_upper[i]:
            return collision_hits(ctx, k.ram_dice[3 * i], k.ram_dice[3 * i + 1], k.ram_dice[3 * i + 2], num, den)
    count = 1 + <int>cw_pyfloordiv(s - k.ram_upper[k.n_ram - 1], k.ram_step) * k.ram_per_step_above
    return collision_hits(ctx, count, 0, 0, num, den)


cdef inline double drv_round6(double x) noexcept nogil:
    """Python's round(x, 6): the nearest of six decimals, correctly rounded (as printf and strtod give it)."""
    cdef char buf[64]
    snprintf(buf, 64, "%.6f", x)
    return strtod(buf, NULL)


cdef inline bint drv_nearer(double ra, int ua, double rb, int ub) noexcept nogil:
    """fight._choose's key (FIGHT-02): (round(range, 6), the unit's place) of a before b's."""
    if fabs(ra - rb) < 1e-5:
        ra, rb = drv_round6(ra), drv_round6(rb)
    return ra < rb or (ra == rb and ua < ub)


# --- the trial's start and what the driver reads ----------------------------------------------------------------------

cdef inline void drv_fresh(DriveRun* D, FightRun* F, Ctx* ctx) noexcept nogil:
    """A trial from the fight's start: each vehicle where the scenario has it, its handling status as
    drive_phase.start_fight leaves it (FIGHT-09), its crash, substitute and handling penalty as they stand."""
    cdef Py_ssize_t v
    cdef const DriveSpec* s
    cdef CwVehicle* c
    for v in range(D.V):
        s = &D.spec[v]
        c = &D.cv[v]
        c.unit.counter.cx, c.unit.counter.cy, c.unit.counter.facing = s.x, s.y, s.facing
        c.unit.counter.length, c.unit.counter.width = s.length, s.width
        c.unit.speed = s.speed
        c.unit.side = s.side
        c.unit.out = False
        c.kind = s.kind
        c.has_acceleration, c.acceleration = s.has_accel, s.accel
        c.has_top_speed, c.top_speed = s.has_top, s.top
        c.in_water, c.off_road, c.oil_extra = False, False, 0
        c.has_handling, c.handling_status = s.has_hs0, s.hs0
        c.n_weapons = ctx.v_w1[v] - ctx.v_w0[v]
        c.weapon_mount = D.mounts + ctx.v_w0[v]
        c.weapon_usable = D.usable + ctx.v_w0[v]
        c.weapon_sidecar = D.on_sidecar + ctx.v_w0[v]
        c.sidecar_width = s.sc_width
        c.sidecar_offset = s.body_width / 2.0 * (1.0 if s.sc_side == CW_RIGHT else -1.0) if s.sc_width > 0.0 else 0.0
        D.cm_kind[v], D.cm_travel[v], D.cm_spin[v], D.cm_way[v], D.cm_next[v] = CM_NONE, 0.0, 0, 1, 0
        D.n_skids[v] = 0
        D.crash_idx[v] = s.crash0
        D.hv_has[v], D.hv[v] = s.has_hv0, s.hv0
        D.no_fire[v] = s.no_fire0
        D.sub[v], D.sub_from[v], D.steered[v] = s.sub0, s.sub_from0, s.steered0
        c.substitute = s.sub0 >= 0
        D.unc[v] = s.unc0
        D.rolled[v] = D.rolled0[v]
        D.hazard[v], D.n_hz[v] = 0, 0
    D.n_obs = D.n_obs0
    for v in range(D.n_obs0):
        D.obs_x[v], D.obs_y[v] = D.obs0[3 * v], D.obs0[3 * v + 1]
        D.obs_still[v], D.obs_meet[v] = <unsigned int>D.obs0[3 * v + 2], 0
    ctx.v_rolled = D.rolled
    D.arena.n_vehicles = <int>D.V
    D.arena.vehicles = D.cv
    D.arena.n_pedestrians = 0
    D.arena.pedestrians = NULL
    D.arena.n_buildings = 0
    D.arena.building_xy = NULL
    D.arena.building_start = NULL
    D.arena.phase = 1
    D.status = DRV_OK


cdef inline bint drv_manned(DriveRun* D, Ctx* ctx, int w) noexcept nogil:
    """driving.manned (CW-CREW-01): someone of the weapon's firer pool can act (2 hits or more: he cannot)."""
    cdef int j, ci
    for j in range(DW_POOL_N):
        ci = D.wd[w * DW_NCOLS + DW_POOL + j]
        if ci >= 0 and ctx.st[ctx.c_hits[ci]] < 2:
            return True
    return False


cdef inline void drv_sync(DriveRun* D, FightRun* F, Ctx* ctx) noexcept nogil:
    """What the standing driver reads of the state (FIGHT-07/08), brought up to date: who is out of action, each
    vehicle's armour, each weapon usable under its movement order (aimed, not destroyed, not empty)."""
    cdef Py_ssize_t v, w
    cdef CwVehicle* c
    for v in range(D.V):
        c = &D.cv[v]
        c.unit.out = F.outu[v] != 0
        c.armour[0] = ctx.st[ctx.v_armour[v] + 0]
        c.armour[1] = ctx.st[ctx.v_armour[v] + 1]
        c.armour[2] = ctx.st[ctx.v_armour[v] + 2]
        c.armour[3] = ctx.st[ctx.v_armour[v] + 3]
        c.substitute = D.sub[v] >= 0
        for w in range(ctx.v_w0[v], ctx.v_w1[v]):
            D.usable[w] = D.wd[w * DW_NCOLS + DW_DRIVE_USABLE] and not weapon_out(F, ctx, w) and drv_manned(D, ctx, <int>w)


cdef inline const CwUnit* drv_target(DriveRun* D, int v) noexcept nogil:
    """driving.drive_target (FIGHT-07): the unit he steers by, NULL for none."""
    cdef int t = cw_drive_target(&D.arena, v, &D.spec[v].order)
    if t < 0:
        return NULL
    return cw_unit(&D.arena, t)


# --- the start of a turn (drive_phase.start_of_turn) ------------------------------------------------------------------

cdef inline void drv_take_over(DriveRun* D, FightRun* F, Ctx* ctx, int v, int turn) noexcept nogil:
    """drive_phase._take_over (CW-CREW-04, FIGHT-10): with the driver out and no able substitute, the first able rider
    who may take over does (a cycle's sidecar rider, a larger vehicle's front-seat gunner or passenger), at once; the
    vehicle, not a cycle, is controlled again."""
    cdef Py_ssize_t i
    if drv_able(ctx, ctx.v_driver[v]):
        return
    if D.sub[v] >= 0 and drv_able(ctx, D.sub[v]):
        return
    for i in range(ctx.v_c0[v], ctx.v_c1[v]):
        if F.c_takeover[i] and drv_able(ctx, <int>i):
            D.sub[v], D.sub_from[v] = <int>i, turn
            D.cv[v].substitute = True
            if D.cv[v].kind != CW_CYCLE and D.unc[v]:
                D.unc[v] = 0
            return


cdef inline int drv_sub_fires(DriveRun* D, int v, bint* fires) noexcept nogil:
    """drive_phase.substitute_fires (FIGHT-10, CW-CREW-04): the substitute fires this turn rather than drives when a
    weapon the orders use bears on their target (cw_bearing), or when he could not move it (a stopped cycle)."""
    cdef const CwUnit* t
    cdef int count
    cdef double err
    if D.cv[v].unit.speed == 0 and D.cv[v].kind == CW_CYCLE:
        fires[0] = 1
        return CW_OK
    t = drv_target(D, v)
    if t == NULL:
        fires[0] = 0
        return CW_OK
    if cw_bearing(D.r, &D.cv[v], &D.cv[v].unit.counter, t, &count, &err) != CW_OK:
        return CW_UNSURE
    fires[0] = count > 0
    return CW_OK


cdef inline bint drv_steered(DriveRun* D, Ctx* ctx, int v, int turn) noexcept nogil:
    """drive_phase._steered: its driver, able, or the substitute who drives it this turn, steers it."""
    cdef int who = drv_controlled_by(D, ctx, v)
    return who == BY_DRIVER or (who == BY_SUBSTITUTE and D.steered[v] == turn)


cdef inline void drv_braking(DriveRun* D, FightRun* F, Ctx* ctx, int v, double new) noexcept nogil:
    """drive_phase.braking (FIGHT-08/09): slowing to `new` harder than safe braking is a hazard of the braking's D:
    a control roll at the speed he brakes from; lost, Crash Table 2, its result acting at `new`."""
    cdef double speed = D.cv[v].unit.speed
    cdef int d
    if speed <= 0 or new >= speed or not D.cv[v].has_handling or D.cm_kind[v] != CM_NONE:
        return
    d = cw_braking_difficulty(D.r, speed - new)
    if d <= 0:
        return
    if drv_control_check(D, ctx, v, d):
        D.cv[v].unit.speed = new
        drv_lose_control(D, F, ctx, v, 2, d, drv_travel(D, v))


cdef inline int drv_turn_start(DriveRun* D, FightRun* F, Ctx* ctx, int turn) noexcept nogil:
    """drive_phase.start_of_turn (FIGHT-07/08/10): of the driven vehicles in action under their orders, each
    substitute takes over if he must (in turn); then each decides its speed from the state as it then stands (all at
    once): a substitute who fires (drv_sub_fires) lets it go straight, a car losing the uncontrolled slowdown; one
    who drives takes the standing driver's speed (a sidecar rider keeps it); one with no power plant coasts, slowing
    as if uncontrolled; else the standing driver's speed; then, in turn, each brakes (drv_braking, a driver's) or
    changes speed. DRV_OK, or why the reference must run the trial."""
    cdef Py_ssize_t v
    cdef int who
    cdef bint fires
    cdef double speed
    cdef double new[DRV_MAXV]
    cdef int act[DRV_MAXV]           # 0 no change, 1 a new speed, 2 a new speed a driver brakes to
    drv_sync(D, F, ctx)
    for v in range(D.V):
        act[v] = 0
        if D.spec[v].driven and not F.outu[v] and drv_holds(D, v, turn):
            act[v] = 1
            drv_take_over(D, F, ctx, <int>v, turn)
    for v in range(D.V):
        if not act[v]:
            continue
        who = drv_controlled_by(D, ctx, v)
        speed = D.cv[v].unit.speed
        if who == BY_NOBODY:
            act[v] = 0
        elif who == BY_SUBSTITUTE:
            if drv_sub_fires(D, <int>v, &fires) != CW_OK:
                return DRV_UNSURE
            if fires:
                new[v] = speed if D.cv[v].kind == CW_CYCLE else cw_slowed(speed, D.k.uncontrolled_slow)
            else:
                D.steered[v] = turn
                if D.cv[v].kind == CW_CYCLE:
                    new[v] = speed
                elif cw_choose_speed(D.r, &D.arena, <int>v, &D.spec[v].order, drv_target(D, <int>v), &new[v]) != CW_OK:
                    return DRV_UNSURE
                else:
                    act[v] = 2
        elif ctx.v_pp[v] >= 0 and ctx.st[ctx.v_pp[v]] <= 0:
            new[v] = cw_slowed(speed, D.k.uncontrolled_slow)
        elif cw_choose_speed(D.r, &D.arena, <int>v, &D.spec[v].order, drv_target(D, <int>v), &new[v]) != CW_OK:
            return DRV_UNSURE
        else:
            act[v] = 2
    for v in range(D.V):
        if not act[v]:
            continue
        speed = D.cv[v].unit.speed
        if act[v] == 2:
            drv_braking(D, F, ctx, <int>v, new[v])
        if new[v] != D.cv[v].unit.speed and D.cv[v].unit.speed == speed:     # (control lost braking: the crash set it)
            D.cv[v].unit.speed = new[v]
    return DRV_OK


# --- handling and crashes (hardpoint.carwars.handling, crashes) ---------------------------------------------------------

cdef inline int drv_control_check(DriveRun* D, Ctx* ctx, int v, int d) noexcept nogil:
    """handling.control_check (FIGHT-09): the status falls by D (never below the floor); the Control Table at its
    speed: safe, lost, or one die that must reach the number. 1 if control is lost (never, the rules switched off)."""
    cdef CwVehicle* c = &D.cv[v]
    cdef int need, low = c.handling_status - d
    c.handling_status = D.k.status_floor if D.k.status_floor > low else low
    if not D.k.enabled:
        return 0
    need = cw_control_needed(D.r, c.unit.speed, c.handling_status)
    if need == 0:
        return 0
    if need >= 7:
        return 1
    return die(ctx) < need


cdef inline int drv_crash_result(DriveRun* D, Ctx* ctx, int v, int table, int d) noexcept nogil:
    """handling.crash_result (FIGHT-09): 2d6 + the speed row's modifier + (D - the offset) on Crash Table 1 or 2;
    the result's effect."""
    cdef const DriveConsts* k = D.k
    cdef const int* bands = &k.ct2[0]
    cdef int n = k.n_ct1 if table == 1 else k.n_ct2
    cdef int r = roll(ctx, 2, 0, 0), row = cw_control_row(D.r, D.cv[v].unit.speed), total, name, i
    if table == 1:
        bands = &k.ct1[0]
    total = r + (0 if row < 0 else k.crash_modifier[row]) + d - k.crash_offset
    name = bands[1]
    for i in range(n):
        if total >= bands[2 * i]:
            name = bands[2 * i + 1]
    return name


cdef inline void drv_fire_penalty(DriveRun* D, int v, const CrashEffect* e) noexcept nogil:
    """crashes._fire_penalty (CW-HIT-10, FIGHT-09): no aimed fire for the rest of the turn, or the worse of its to-hit
    penalties stands."""
    if e.fire_none:
        D.no_fire[v] = D.turn
    elif not D.hv_has[v] or e.fire_value < D.hv[v]:
        D.hv_has[v], D.hv[v] = 1, e.fire_value


cdef inline void drv_fishtail(DriveRun* D, Ctx* ctx, int v, double angle) noexcept nogil:
    """crashes.fishtail_swing (FIGHT-09): the back swings `angle` degrees the way a die says, about the front corner
    on the other side; not if the counter would come onto what it does not touch."""
    cdef int way = drv_way(ctx)
    cdef CwCounter* cnt = &D.cv[v].unit.counter
    cdef CwCounter new
    cw_turned(cnt, <double>(-way) * angle, 0.5 * cnt.width * (1.0 if way < 0 else -1.0), 0.5 * cnt.length, &new)
    if cw_blocked(NULL, &D.arena, v, &new, 0):
        return
    cnt.cx, cnt.cy, cnt.facing = new.cx, new.cy, new.facing


cdef inline void drv_start_roll(DriveRun* D, Ctx* ctx, int v, const CrashEffect* e, double travel, int first) noexcept nogil:
    """crashes._start_roll (FIGHT-09, CW-FIRE-03): its side by a die, and the die that may set a burning roll on
    fire."""
    cdef int way = drv_way(ctx), r
    D.n_skids[v] = 0
    D.cm_kind[v], D.cm_travel[v], D.cm_spin[v], D.cm_way[v], D.cm_next[v] = CM_ROLL, travel, 0, way, first
    if e.has_burning:
        r = die(ctx)
        if e.burning[0] <= r <= e.burning[1]:
            D.burning[v] = 1      # the fire state's (F.veh.burning)


cdef inline void drv_vault(DriveRun* D, Ctx* ctx, int v, const CrashEffect* e, double travel) noexcept nogil:
    """crashes._vault (FIGHT-09): the front tires take its dice; it flies a die of inches the way it was going; every
    person aboard takes its points past his body armour; it lands on its top, a collision at its speed
    (CW-COL-01..04); then it rolls."""
    cdef Py_ssize_t t, i
    cdef int r, h, taken, hits
    cdef double s, c
    for t in range(ctx.v_t0[v], ctx.v_t1[v]):
        if D.t_front[t]:
            dmg_slot(ctx, ctx.t_slot[t], roll(ctx, e.tire_dice[0], e.tire_dice[1], e.tire_dice[2]))
    r = die(ctx)
    cw_sincos_deg(travel, &s, &c)
    D.cv[v].unit.counter.cx = D.cv[v].unit.counter.cx + r * s
    D.cv[v].unit.counter.cy = D.cv[v].unit.counter.cy + r * c
    for i in range(ctx.v_c0[v], ctx.v_c1[v]):
        h = ctx.st[ctx.c_hits[i]]
        taken = 3 - h if 3 - h > 0 else 0
        taken = taken if taken < e.occupant_points else e.occupant_points
        if taken > 0:
            put(ctx, ctx.c_hits[i], h + taken)
    hits = drv_ram_hits(D, ctx, D.cv[v].unit.speed, 1, 1)
    collision_damage(ctx, v, TOP, hits, D.metal_factor, D.cap_num, D.cap_den)
    D.rolled[v] = TOP
    drv_start_roll(D, ctx, v, e, travel, 2)


cdef void drv_apply_result(DriveRun* D, FightRun* F, Ctx* ctx, int v, int ei, int d, double travel) noexcept nogil:
    """crashes.apply_result (FIGHT-09): what a crash result does at once (docs/fights.md, "Crashes")."""
    cdef const CrashEffect* e = &D.eff[ei]
    drv_fire_penalty(D, v, e)
    if e.kind == EFF_SPINOUT or e.kind == EFF_ROLL or e.kind == EFF_VAULT or D.crash_idx[v] < 0:
        drv_set_crash(D, F, v, ei)
    if e.kind == EFF_SKID:
        drv_slow(D, v, e.slow)
        drv_tires(D, ctx, v, e.tire_points, NULL)
        D.skid_eff[2 * v], D.skid_travel[2 * v] = ei, travel
        D.n_skids[v] = 1
        if e.next >= 0:
            D.skid_eff[2 * v + 1], D.skid_travel[2 * v + 1] = e.next, travel
            D.n_skids[v] = 2
    elif e.kind == EFF_FISHTAIL:
        drv_fishtail(D, ctx, v, e.fishtail)
        if e.then_table_1:
            drv_lose_control(D, F, ctx, v, 1, d, travel)
    elif e.kind == EFF_SPINOUT:
        drv_tires(D, ctx, v, 0, e.tire_dice)
        D.n_skids[v] = 0
        D.cm_kind[v], D.cm_travel[v], D.cm_spin[v] = CM_SPINOUT, travel, drv_way(ctx)
    elif e.kind == EFF_ROLL:
        drv_start_roll(D, ctx, v, e, travel, 0)
    elif e.kind == EFF_VAULT:
        drv_vault(D, ctx, v, e, travel)


cdef void drv_lose_control(DriveRun* D, FightRun* F, Ctx* ctx, int v, int table, int d, double travel) noexcept nogil:
    """crashes.lose_control (FIGHT-09): control lost on a maneuver (Crash Table 1) or a hazard (2) of D `d`, the
    vehicle going `travel` degrees: the roll and its result."""
    drv_apply_result(D, F, ctx, v, drv_crash_result(D, ctx, v, table, d), d, travel)


cdef inline bint drv_crash_move(DriveRun* D, int v, double distance, CwMove* out) noexcept nogil:
    """crashes.crash_move (FIGHT-09): a spinning or rolling vehicle goes its inches the way it was going (a spinout
    turning a quarter); a skidding one slides its skid the way it was going, then goes on straight. False: it moves
    as usual."""
    cdef const CrashEffect* e
    cdef double step, s, c, fs, fc, sign, slide, rest
    if distance <= 0:
        return False
    out.angle, out.px, out.py = 0.0, 0.0, 0.0
    if D.cm_kind[v] != CM_NONE:
        e = &D.eff[D.k.eff_spinout if D.cm_kind[v] == CM_SPINOUT else D.k.eff_roll]
        step = e.move_per_phase if e.move_per_phase < distance else distance
        cw_sincos_deg(D.cm_travel[v], &s, &c)
        out.dx, out.dy = step * s, step * c
        if D.cm_kind[v] == CM_SPINOUT:
            out.angle = 90.0 * D.cm_spin[v]
        return True
    if D.n_skids[v] == 0:
        return False
    e = &D.eff[D.skid_eff[2 * v]]
    slide = e.skid if e.skid < distance else distance
    cw_sincos_deg(D.skid_travel[2 * v], &s, &c)
    cw_sincos_deg(D.cv[v].unit.counter.facing, &fs, &fc)
    sign = -1.0 if D.cv[v].unit.speed < 0 else 1.0
    rest = distance - slide
    out.dx, out.dy = slide * s + sign * rest * fs, slide * c + sign * rest * fc
    return True


cdef inline void drv_after_crash_move(DriveRun* D, Ctx* ctx, int v) noexcept nogil:
    """crashes.after_crash_move (FIGHT-09): a skid is used up; a rolling vehicle lands on its next side, which takes
    the roll's side dice as a collision (CW-COL-01..03), or, its wheels down, each tire its tire dice."""
    cdef const CrashEffect* e
    cdef int side
    if D.cm_kind[v] == CM_NONE:
        if D.n_skids[v] > 0:
            D.skid_eff[2 * v], D.skid_travel[2 * v] = D.skid_eff[2 * v + 1], D.skid_travel[2 * v + 1]
            D.n_skids[v] -= 1
        return
    if D.cm_kind[v] != CM_ROLL:
        return
    e = &D.eff[D.k.eff_roll]
    side = D.cm_next[v] % 4
    side = (RIGHT if D.cm_way[v] > 0 else LEFT) if side == 0 else \
        (TOP if side == 1 else ((LEFT if D.cm_way[v] > 0 else RIGHT) if side == 2 else UNDERBODY))
    D.cm_next[v] += 1
    if side == UNDERBODY:
        D.rolled[v] = -1
        drv_tires(D, ctx, v, 0, e.tire_dice)
    else:
        D.rolled[v] = side
        collision_damage(ctx, v, side, roll(ctx, e.side_dice[0], e.side_dice[1], e.side_dice[2]),
                         D.metal_factor, D.cap_num, D.cap_den)


# --- a phase: the moves, the movement and what follows it (drive_phase.plan_moves, after_moves) -----------------------

cdef inline int drv_plan(DriveRun* D, FightRun* F, Ctx* ctx, int turn, int phase) noexcept nogil:
    """drive_phase.plan_moves (FIGHT-07/08/09): each driven vehicle's move for the phase, decided from the state at
    its start: a crash's, else, while its driver can act (or a substitute drives it this turn) and its order holds,
    the standing driver's maneuver (none: straight on), whose D is his hazard for the phase (CW-HIT-10)."""
    cdef Py_ssize_t v
    cdef double dist[CW_PHASES]
    cdef int pick, n_menu
    drv_sync(D, F, ctx)
    D.arena.phase = phase
    for v in range(D.V):
        D.has_mv[v], D.crashing[v], D.has_man[v], D.hazard[v], D.n_hz[v] = 0, 0, 0, 0, 0
        cw_phase_distances(D.r, D.cv[v].unit.speed, dist)
        D.moved[v] = dist[phase - 1]
    for v in range(D.V):
        if not D.spec[v].driven:
            continue
        if drv_crash_move(D, <int>v, D.moved[v], &D.mv[v]):
            D.has_mv[v], D.crashing[v] = 1, 1
            continue
        if D.moved[v] <= 0 or F.outu[v] or not drv_holds(D, <int>v, turn) or not drv_steered(D, ctx, <int>v, turn):
            continue
        pick = cw_choose_maneuver(D.r, &D.arena, <int>v, &D.spec[v].order, drv_target(D, <int>v), D.moved[v], D.menu,
                                  CW_MAXMENU, &n_menu)
        if pick == CW_PICK_UNSURE:
            return DRV_UNSURE
        if pick < 0 or D.menu[pick].kind == CW_STRAIGHT:
            continue
        D.man[v] = D.menu[pick]
        cw_maneuver_move(D.r, &D.cv[v], &D.man[v], D.moved[v], &D.mv[v])
        D.has_mv[v], D.has_man[v] = 1, 1
        D.man_travel[v] = drv_travel(D, <int>v)
        D.hazard[v] += cw_maneuver_difficulty(D.r, &D.cv[v], &D.man[v])
    return DRV_OK


cdef inline int drv_move(DriveRun* D, int phase) noexcept nogil:
    """motion.move_with_contacts (FIGHT-04) with the planned moves (fastcore/_cwmotion.pxd), then the collisions its
    contacts make (motion._collide): two for each pair of vehicles that meet at a speed, each vehicle's side at that
    speed, struck with the other's weight factor (CW-COL-04)."""
    cdef int n, i
    cdef CwContact* c
    n = cw_move_phase(D.r, D.cv, <int>D.V, NULL, 0, NULL, NULL, 0, phase, D.mv, D.has_mv, D.k.from_movement,
                      D.contacts, DRV_MAXC, D.movers, D.pairs, DRV_MAXC)
    if n < 0:
        return DRV_UNSURE if n == CW_MOTION_UNSURE else DRV_FULL
    D.n_col = 0
    for i in range(n):
        c = &D.contacts[i]
        if c.kind_b != CW_HIT_VEHICLE or c.speed <= 0:
            continue                       # (no building or pedestrian in a fight the kernel drives)
        D.col_v[D.n_col], D.col_side[D.n_col], D.col_speed[D.n_col] = c.a, c.side_a, c.speed
        D.col_num[D.n_col], D.col_den[D.n_col] = D.spec[c.b].weight_num, D.spec[c.b].weight_den
        D.col_v[D.n_col + 1], D.col_side[D.n_col + 1], D.col_speed[D.n_col + 1] = c.b, c.side_b, c.speed
        D.col_num[D.n_col + 1], D.col_den[D.n_col + 1] = D.spec[c.a].weight_num, D.spec[c.a].weight_den
        D.n_col += 2
    return DRV_OK


cdef inline void drv_maneuver_speed(DriveRun* D, Ctx* ctx, int v) noexcept nogil:
    """drive_phase._maneuver_speed (FIGHT-08): a bootlegger ends at a stop, each tire hurt; a T-stop loses its mph
    an inch it slid, each tire taking its points for each full 20 mph lost."""
    cdef double speed = fabs(D.cv[v].unit.speed), lost
    if D.man[v].kind == CW_BOOTLEGGER:
        drv_tires(D, ctx, v, D.k.bootlegger_tire_points, NULL)
        drv_slow(D, v, speed)
    elif D.man[v].kind == CW_T_STOP:
        lost = D.k.t_stop_slow_per_inch * D.moved[v]
        lost = lost if lost < speed else speed
        drv_tires(D, ctx, v, <int>cw_pyfloordiv(lost, 20.0) * D.k.t_stop_tire_points_per_20, NULL)
        drv_slow(D, v, lost)


cdef inline void drv_after_moves(DriveRun* D, FightRun* F, Ctx* ctx) noexcept nogil:
    """drive_phase.after_moves (FIGHT-08/09), in the file's order: a crash's landing; a maneuver's stop or slide
    (bootlegger, T-stop), then its control roll at its whole D, Crash Table 1 if control is lost."""
    cdef Py_ssize_t v
    cdef int d
    for v in range(D.V):
        if D.crashing[v]:
            drv_after_crash_move(D, ctx, <int>v)
            continue
        if not D.has_man[v]:
            continue
        drv_maneuver_speed(D, ctx, <int>v)
        if not D.cv[v].has_handling:
            continue
        d = cw_maneuver_difficulty(D.r, &D.cv[v], &D.man[v])
        if drv_control_check(D, ctx, <int>v, d):
            drv_lose_control(D, F, ctx, <int>v, 1, d, D.man_travel[v])


# --- the orders' shots, explained where the counters stand (fight.order_attacks) ----------------------------------------

cdef inline void drv_th_vehicle(DriveRun* D, int v, ThVehicle* out) noexcept nogil:
    """drivepack.tohit_vehicle: the vehicle as a shot sees it now (its handling penalty this turn, its hazard this
    phase, paint on its windows, CW-HIT-07/10)."""
    cdef const DriveSpec* s = &D.spec[v]
    out.cnt = D.cv[v].unit.counter
    out.speed = D.cv[v].unit.speed
    out.body_width, out.sc_width, out.sc_side = s.body_width, s.sc_width, s.sc_side
    out.size_fb, out.size_side, out.firer_static = s.size_fb, s.size_side, s.firer_static
    out.handling = D.hv[v] if D.hv_has[v] else 0
    out.hazard = D.hazard[v]
    out.paint = D.k.paint_mod if D.turn <= s.paint_until else 0


cdef inline void drv_box(const double* xy, int n, double* box) noexcept nogil:
    """Widen box (x0, y0, x1, y1) to hold n points."""
    cdef int i
    for i in range(n):
        box[0], box[1] = min(box[0], xy[2 * i]), min(box[1], xy[2 * i + 1])
        box[2], box[3] = max(box[2], xy[2 * i]), max(box[3], xy[2 * i + 1])


cdef bint drv_may_block(DriveRun* D, int u, int t, const ThVehicle* firer, const ThWeapon* w,
                        const ThVehicle* target) noexcept nogil:
    """Whether a vehicle other than the firer u and the target t may change this shot's line of fire (CW-LOF-01;
    attack.Scene.sight): its counter's box meets the box around the origin and the target's part (a blocker that
    hides part of the target meets a segment from the origin to it), or there is one anywhere and the aim point lies
    on an edge ray (cull.Blockers.on_edge_ray: where one beyond the target can hide a hair by rounding). The kernel
    traces no line past blockers: such a shot's trial is the reference's (DRV_BLOCKER)."""
    cdef CwCounter body
    cdef CwPolygon part, clipped, other
    cdef Shape sh
    cdef Span sp
    cdef double ox, oy, ax, ay, rng, pad, px, py, dx, dy, fx, fy, sgn
    cdef double box[4]
    cdef double ob[4]
    cdef Py_ssize_t b
    cdef int flip = 0, side
    if D.V <= 2:
        return 0
    th_origin(firer, w, &body, &ox, &oy)
    if cw_counter_polygon(&target.cnt, &part) != CW_OK:
        return 1
    if w.mount != 4 and w.mount != 6:
        if cw_clip_to_arc(&body, w.mount, &part, D.th.arc_angle, &clipped) != CW_OK:
            return 1
        part = clipped
    box[0], box[1], box[2], box[3] = ox, oy, ox, oy
    drv_box(part.xy, part.n, box)
    pad = 1e-6 + 1e-9 * (fabs(box[0]) + fabs(box[1]) + fabs(box[2]) + fabs(box[3]))
    for b in range(D.V):
        if b == u or b == t:
            continue
        if cw_counter_polygon(&D.cv[b].unit.counter, &other) != CW_OK:
            return 1
        ob[0], ob[1], ob[2], ob[3] = other.xy[0], other.xy[1], other.xy[0], other.xy[1]
        drv_box(other.xy, other.n, ob)
        if not (ob[2] + pad < box[0] or ob[0] - pad > box[2] or ob[3] + pad < box[1] or ob[1] - pad > box[3]):
            return 1
    make_shape(&sh, part.xy, part.n, ox, oy, 0)
    shape_angles(&sh)
    shape_span(&sh, &sp)
    if sp.wraps:
        flip = 1
        make_shape(&sh, part.xy, part.n, ox, oy, 1)
        shape_angles(&sh)
        shape_span(&sh, &sp)
    th_sight(ox, oy, &part, &ax, &ay, &rng)
    sgn = -1.0 if flip else 1.0
    px, py = ax - ox, ay - oy
    for side in range(2):
        fx, fy = (sp.lx, sp.ly) if side == 0 else (sp.hx, sp.hy)
        dx, dy = sgn * fy, sgn * fx
        if fabs(px * dy - py * dx) <= (1e-9 * sqrt(px * px + py * py) + 1e-9) * sqrt(dx * dx + dy * dy) \
                and px * dx + py * dy >= 0.0:
            return 1
    return 0


cdef void drv_candidates(DriveRun* D, FightRun* F, Ctx* ctx, int e, int fr) noexcept nogil:
    """fight.order_attacks' candidates for firer row fr of entry e (FIGHT-02), once a phase: each enemy vehicle in
    action (or the order's named one) the weapon can shoot now (th_explain: in its arc, a line of fire), with the
    roll an able firer of his skill needs before sustained fire and wounds, in the order fight._choose weighs them
    (by range, then the unit's place). None for a substitute who may not fire this turn (CW-CREW-04) or a vehicle
    whose crash stops its aimed fire (FIGHT-09)."""
    cdef int32_t* ep = F.ent + e * ENT_NCOLS
    cdef int u = ep[ENT_UNIT], w = ep[ENT_WEAPON], ch = D.fir[fr * FIR_NCOLS + FIR_CHARACTER], named = D.ent_target[e]
    cdef Py_ssize_t base = (fr - D.fir_lo) * D.V, n = 0, t, j
    cdef const int32_t* wd = D.wd + w * DW_NCOLS
    cdef ThVehicle firer, target
    cdef ThWeapon weapon
    cdef ThShot shot
    cdef double ranges[DRV_MAXV]
    cdef int units[DRV_MAXV]
    cdef int32_t* cp
    cdef int k
    D.stamp_of[fr - D.fir_lo] = D.stamp
    D.fir[fr * FIR_NCOLS + FIR_CAND_LO] = <int32_t>base
    D.fir[fr * FIR_NCOLS + FIR_CAND_HI] = <int32_t>base
    if (D.sub[u] == ch and (D.turn < D.sub_from[u] or D.steered[u] == D.turn)) or D.no_fire[u] == D.turn:
        return
    drv_th_vehicle(D, u, &firer)
    weapon.mount, weapon.sidecar, weapon.to_hit = wd[DW_MOUNT], wd[DW_SIDECAR], wd[DW_TO_HIT]
    for t in range(D.V):
        if t == u or F.outu[t] or (named >= 0 and t != named) or (named < 0 and D.spec[t].side == D.spec[u].side):
            continue
        drv_th_vehicle(D, <int>t, &target)
        k = th_explain(D.th, &firer, &weapon, &target, &shot)
        if k == CW_UNSURE:
            D.status = DRV_UNSURE
            return
        if k != CW_OK:
            continue
        if drv_may_block(D, u, <int>t, &firer, &weapon, &target):
            D.status = DRV_BLOCKER
            return
        j = n                              # insertion by (range, unit)
        while j > 0 and drv_nearer(shot.range, <int>t, ranges[j - 1], units[j - 1]):
            ranges[j] = ranges[j - 1]
            units[j] = units[j - 1]
            memcpy(D.cand + (base + j) * CAND_NCOLS, D.cand + (base + j - 1) * CAND_NCOLS, CAND_NCOLS * sizeof(int32_t))
            j -= 1
        ranges[j], units[j] = shot.range, <int>t
        cp = D.cand + (base + j) * CAND_NCOLS
        cp[CAND_UNIT], cp[CAND_NEEDED] = <int32_t>t, shot.needed - D.c_skill[ch]
        cp[CAND_DMG_COUNT], cp[CAND_DMG_BONUS], cp[CAND_DMG_HITS] = wd[DW_DMG_COUNT], wd[DW_DMG_BONUS], wd[DW_DMG_HITS]
        cp[CAND_KIND], cp[CAND_INDEX] = TGT_VEHICLE, <int32_t>t
        cp[CAND_PART] = P_SIDE_SC if shot.sidecar_side else P_SIDE
        cp[CAND_SIDE] = shot.side if shot.side >= 0 else FRONT
        cp[CAND_TIRE], cp[CAND_MODE] = -1, 0
        cp[CAND_FIRE_MOD], cp[CAND_FIERY], cp[CAND_POSSIBLE], cp[CAND_BURN] = wd[DW_FIRE_MOD], wd[DW_FIERY], 1, wd[DW_BURN]
        cp[CAND_BURST_LO], cp[CAND_BURST_HI] = 0, 0
        n += 1
    D.fir[fr * FIR_NCOLS + FIR_CAND_HI] = <int32_t>(base + n)


cdef inline void drv_fir_ready(FightRun* F, Ctx* ctx, int e, int fr) noexcept nogil:
    """accept_order's hook (fight.order_attacks, FIGHT-02): in a fight that drives, firer row fr's candidates are
    worked out the first time this phase asks for them."""
    cdef DriveRun* D = <DriveRun*>F.drive
    if D.stamp_of[fr - D.fir_lo] != D.stamp:
        drv_candidates(D, F, ctx, e, fr)


# --- the combat and what follows it (phase.resolve_phase, drive_phase.hazards) ------------------------------------------

cdef inline int drv_worn(Ctx* ctx, int v) noexcept nogil:
    """The body armour its crew wear now (CW-CREW-01): what a phase's hits spend of it count for no hazard."""
    cdef Py_ssize_t i
    cdef int ba = 0
    for i in range(ctx.v_c0[v], ctx.v_c1[v]):
        ba += ctx.st[ctx.c_ba[i]]
    return ba


cdef inline void drv_hazard(DriveRun* D, int v, int d) noexcept nogil:
    """Vehicle.phase_hazards.append (FIGHT-09): a hazard met this phase, in order (more than the kernel keeps: the
    trial is the reference's, DRV_FULL)."""
    if D.n_hz[v] < DRV_MAXHZ:
        D.hz[v * DRV_MAXHZ + D.n_hz[v]] = d
        D.n_hz[v] += 1
    else:
        D.status = DRV_FULL


# --- obstacles on the map (CW-SEED-04, terrain.obstacle_hazards) --------------------------------------------------------

cdef inline double drv_cross(const double* o, const double* a, const double* b) noexcept nogil:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


cdef inline int drv_swept(const CwCounter* a, const CwCounter* b, double* hull) noexcept nogil:
    """dropped.swept_polygon: the convex hull of both counters' corners (sorted, exact repeats dropped, a monotone
    chain that drops turns of at most 1e-12) into hull (at most 8 points); returns its point count."""
    cdef double pts[16]
    cdef double lower[18]
    cdef double upper[18]
    cdef double tx, ty
    cdef int n = 0, i, j, m, nl = 0, nu = 0, k
    cw_corners(a, &pts[0])
    cw_corners(b, &pts[8])
    for i in range(1, 8):                  # insertion sort by (x, y), as Python sorts tuples
        tx, ty = pts[2 * i], pts[2 * i + 1]
        j = i - 1
        while j >= 0 and (pts[2 * j] > tx or (pts[2 * j] == tx and pts[2 * j + 1] > ty)):
            pts[2 * j + 2], pts[2 * j + 3] = pts[2 * j], pts[2 * j + 1]
            j -= 1
        pts[2 * j + 2], pts[2 * j + 3] = tx, ty
    m = 0
    for i in range(8):                     # the set: exact repeats once
        if m and pts[2 * m - 2] == pts[2 * i] and pts[2 * m - 1] == pts[2 * i + 1]:
            continue
        pts[2 * m], pts[2 * m + 1] = pts[2 * i], pts[2 * i + 1]
        m += 1
    if m <= 2:
        cw_corners(a, hull)
        return 4
    for i in range(m):
        while nl >= 2 and drv_cross(&lower[2 * nl - 4], &lower[2 * nl - 2], &pts[2 * i]) <= 1e-12:
            nl -= 1
        lower[2 * nl], lower[2 * nl + 1] = pts[2 * i], pts[2 * i + 1]
        nl += 1
    for i in range(m - 1, -1, -1):
        while nu >= 2 and drv_cross(&upper[2 * nu - 4], &upper[2 * nu - 2], &pts[2 * i]) <= 1e-12:
            nu -= 1
        upper[2 * nu], upper[2 * nu + 1] = pts[2 * i], pts[2 * i + 1]
        nu += 1
    for k in range(nl - 1):
        hull[2 * n], hull[2 * n + 1] = lower[2 * k], lower[2 * k + 1]
        n += 1
    for k in range(nu - 1):
        hull[2 * n], hull[2 * n + 1] = upper[2 * k], upper[2 * k + 1]
        n += 1
    return n


cdef inline bint drv_intersects(const double* a, int na, const double* b, int nb) noexcept nogil:
    """dropped.intersects: closed convex polygons meet (no separating axis among their edges' normals, 1e-12)."""
    cdef const double* poly
    cdef int n, i, j, q, k
    cdef double nx, ny, p, alo, ahi, blo, bhi
    for q in range(2):
        if q == 0:
            poly, n = a, na
        else:
            poly, n = b, nb
        for i in range(n):
            j = (i + 1) % n
            nx, ny = poly[2 * j + 1] - poly[2 * i + 1], poly[2 * i] - poly[2 * j]
            alo = ahi = nx * a[0] + ny * a[1]
            for k in range(1, na):
                p = nx * a[2 * k] + ny * a[2 * k + 1]
                alo, ahi = (p if p < alo else alo), (p if p > ahi else ahi)
            blo = bhi = nx * b[0] + ny * b[1]
            for k in range(1, nb):
                p = nx * b[2 * k] + ny * b[2 * k + 1]
                blo, bhi = (p if p < blo else blo), (p if p > bhi else bhi)
            if ahi < blo - 1e-12 or bhi < alo - 1e-12:
                return False
    return True


cdef inline void drv_square(DriveRun* D, int i, double* sq) noexcept nogil:
    """model.Obstacle.polygon: the obstacle's square, axis-aligned about its centre."""
    cdef double h = D.k.obstacle_size / 2.0, x = D.obs_x[i], y = D.obs_y[i]
    sq[0], sq[1], sq[2], sq[3] = x - h, y - h, x + h, y - h
    sq[4], sq[5], sq[6], sq[7] = x + h, y + h, x - h, y + h


cdef inline void drv_obstacles(DriveRun* D) noexcept nogil:
    """terrain.obstacle_hazards (CW-SEED-04): each vehicle whose move this phase runs onto an obstacle meets its
    hazard (this phase's D, to fire, and a control roll with the phase's hazards), once until it has left it; one
    on it since it was placed meets it once off it."""
    cdef double hull[16]
    cdef double sq[8]
    cdef unsigned int now[DRV_MAXOBS]
    cdef unsigned int bit
    cdef int v, i, n, d = D.k.obstacle_hazard
    cdef bint hit
    if D.n_obs == 0:
        return
    for i in range(D.n_obs):
        now[i] = 0
    for v in range(<int>D.V):
        n = drv_swept(&D.before[v], &D.cv[v].unit.counter, hull)
        bit = 1u << v
        for i in range(D.n_obs):
            drv_square(D, i, sq)
            hit = drv_intersects(hull, n, sq, 4)
            if D.obs_still[i] & bit:
                if not hit:
                    D.obs_still[i] &= ~bit
                continue
            if not hit:
                continue
            now[i] |= bit
            if (D.obs_meet[i] & bit) or d <= 0:
                continue
            D.hazard[v] += d
            drv_hazard(D, v, d)
    for i in range(D.n_obs):
        D.obs_meet[i] = now[i]


cdef inline void drv_drop_obstacle(DriveRun* D, int v) noexcept nogil:
    """phase.drop_obstacle (CW-DMG-08, CW-SEED-04): an obstacle where the vehicle stands; the vehicles on it then
    (a bit each) meet it once off it. More than the kernel keeps: the trial is the reference's (DRV_FULL)."""
    cdef double sq[8]
    cdef double xy[8]
    cdef int i = D.n_obs, u
    if i >= DRV_MAXOBS:
        D.status = DRV_FULL
        return
    D.obs_x[i], D.obs_y[i] = D.cv[v].unit.counter.cx, D.cv[v].unit.counter.cy
    D.obs_still[i], D.obs_meet[i] = 0, 0
    drv_square(D, i, sq)
    for u in range(<int>D.V):
        cw_corners(&D.cv[u].unit.counter, xy)
        if drv_intersects(xy, 4, sq, 4):
            D.obs_still[i] |= 1u << u
    D.n_obs += 1


cdef inline void drv_consequences(DriveRun* D, FightRun* F, Ctx* ctx) noexcept nogil:
    """phase._vehicle_consequences for each vehicle hit this phase: the hazard of its hits that no body armour took
    (CW-DMG-01, CW-CREW-01), the obstacle (CW-DMG-08), its driver hit (a D2 hazard, CW-CREW-02) or put out: out of
    control, and a solo cycle's Crash Table 1 roll at +4 (CW-CREW-03), its result kept (FIGHT-03)."""
    cdef Py_ssize_t v
    cdef int hh, d, i, before, after
    for v in range(D.V):
        if F.veh.taken[v] == 0:
            continue
        hh = F.veh.taken[v] - (D.ba_before[v] - drv_worn(ctx, <int>v))
        d = 0
        for i in range(D.k.n_hazard):
            if hh >= D.k.hazard[2 * i]:
                d = D.k.hazard[2 * i + 1]
        if d:
            drv_hazard(D, <int>v, d)
        if ctx.v_is_car[v] and obstacle_drops(ctx, <int>v, F.metal_before, 0, F.consts[K_OBSTACLE_HITS]):
            F.flags[v] |= 8
            drv_drop_obstacle(D, <int>v)
        before = F.veh.driver_before[v]
        if before < 0:
            continue
        after = crew_state(ctx, ctx.v_driver[v])
        if after == before:
            continue
        if before == 0 or after == 3:          # wounded (on the way to unconscious too) or killed (CW-CREW-02)
            drv_hazard(D, <int>v, D.k.driver_hazard)
        if put_out(before, after):
            if ctx.v_kind[v] == KIND_CYCLE and ctx.v_sc_side[v] < 0:
                drv_set_crash(D, F, <int>v, D.k.cycle_crash[roll(ctx, 2, 0, 0)])
            D.unc[v] = 1


cdef inline void drv_combat(DriveRun* D, FightRun* F, Ctx* ctx, int n_acc, int turn) noexcept nogil:
    """phase.resolve_phase (CW-ROF-02): the movement's collisions (collision_hits at their speed and weight,
    CW-COL-01..04), the orders' shots explained again after them, to hit and damage, the sustained-fire records, all
    damage at the phase's end, each vehicle's consequences."""
    cdef int i
    combat_start(F, ctx)
    for i in range(<int>D.V):
        D.ba_before[i] = drv_worn(ctx, i)
    for i in range(D.n_col):
        collision_damage(ctx, D.col_v[i], D.col_side[i], drv_ram_hits(D, ctx, D.col_speed[i], D.col_num[i], D.col_den[i]),
                         D.metal_factor, D.cap_num, D.cap_den)
    if D.n_col:
        explain_again(F, ctx, n_acc, turn)
    roll_shots(F, ctx, n_acc)
    record_sustained(F, n_acc, turn)
    land_shots(F, ctx, n_acc)
    drv_consequences(D, F, ctx)


cdef inline void drv_hazards(DriveRun* D, FightRun* F, Ctx* ctx) noexcept nogil:
    """drive_phase.hazards (FIGHT-09): each driven vehicle's hazards of the phase, in order, each a control roll at
    its D, Crash Table 2 if lost; none for a vehicle already carried by a crash or outside the handling rules."""
    cdef Py_ssize_t v
    cdef int i, d
    for v in range(D.V):
        if D.spec[v].driven:
            for i in range(D.n_hz[v]):
                d = D.hz[v * DRV_MAXHZ + i]
                if not D.cv[v].has_handling or D.cm_kind[v] != CM_NONE or d <= 0:
                    continue
                if drv_control_check(D, ctx, <int>v, d):
                    drv_lose_control(D, F, ctx, <int>v, 2, d, drv_travel(D, <int>v))
        D.n_hz[v] = 0


cdef inline int drv_phase(DriveRun* D, FightRun* F, Ctx* ctx, int turn, int ph) noexcept nogil:
    """One phase of a fight that drives (turn.run_turns): the moves, the movement with its collisions, what follows
    it, the orders' attacks, the combat, the hazards. DRV_OK, or why the reference must run the trial."""
    cdef int tp = (turn - 1) * F.P + ph, n_acc, status, i
    status = drv_plan(D, F, ctx, turn, ph + 1)
    if status != DRV_OK:
        return status
    for i in range(<int>D.V):
        D.before[i] = D.cv[i].unit.counter
    status = drv_move(D, ph + 1)
    if status != DRV_OK:
        return status
    drv_obstacles(D)
    drv_after_moves(D, F, ctx)
    D.stamp += 1
    D.fir_lo = F.ent[F.tp_lo[tp] * ENT_NCOLS + ENT_FIR_LO] if F.tp_lo[tp + 1] > F.tp_lo[tp] else 0
    n_acc = order_attacks(F, ctx, tp, turn)
    if D.status != DRV_OK:
        return D.status
    if n_acc or D.n_col:
        drv_combat(D, F, ctx, n_acc, turn)
    drv_hazards(D, F, ctx)
    return D.status


# --- the end of a turn (turn._end_of_turn, drive_phase.end_of_turn) ----------------------------------------------------

cdef inline void drv_reach(DriveRun* D, int v) noexcept nogil:
    """batch.blast_rows for vehicle v where it stands (CW-FIRE-04): each other vehicle whose counter comes within the
    radius of its centre, with the sides facing the blast; -1 ends the row."""
    cdef Py_ssize_t j, n = 0
    cdef CwPolygon poly
    cdef double cx = D.cv[v].unit.counter.cx, cy = D.cv[v].unit.counter.cy, ox, oy
    for j in range(D.V):
        if j == v:
            continue
        if cw_counter_polygon(&D.cv[j].unit.counter, &poly) != CW_OK or cw_nearest_point(&poly, cx, cy, &ox, &oy) != CW_OK:
            D.status = DRV_UNSURE
            continue
        if cw_distance(ox, oy, cx, cy) <= D.k.radius + 1e-9:
            D.near[2 * n] = <int32_t>j
            D.near[2 * n + 1] = cw_facing_sides(&D.cv[j].unit.counter, cx, cy)
            n += 1
    D.near[2 * n] = -1


cdef inline void drv_fire(DriveRun* D, FightRun* F, Ctx* ctx, int turn) noexcept nogil:
    """The turn's fire (fire.end_of_turn_fire, CW-FIRE-01..04), as fight_fire, an explosion reaching those near it
    where the vehicles stand now."""
    cdef Py_ssize_t v, V = F.V
    cdef int32_t none = -1
    for v in range(V):
        F.veh.fire_total[v] = F.fire_future[v * F.ring + F.tslot]
        F.fire_future[v * F.ring + F.tslot] = 0
    for v in range(V):
        if F.flags[v] & 2:
            continue
        if not F.veh.burning[v]:
            fire_starts(ctx, v, F.veh.fire_total[v], F.veh.burning, F.consts, ctx.v_fireproof[v])
        if F.veh.burning[v]:
            drv_reach(D, <int>v)
            if fire_burns(ctx, v, F.veh.burning, F.consts, ctx.v_extinguisher[v], ctx.v_can_explode[v], D.near,
                          2 * DRV_MAXV + 2, &none, 1, F.p_hits, F.p_ba):
                F.flags[v] |= 2


cdef inline void drv_turn_end(DriveRun* D, FightRun* F, Ctx* ctx, int turn) noexcept nogil:
    """turn._end_of_turn and drive_phase.end_of_turn (FIGHT-09): fire; handling penalties over (CW-HIT-10);
    uncontrolled vehicles slowing (CW-CREW-03); spinning and rolling vehicles slowing, their crash over when they
    stop; every driven vehicle's status recovering by its HC (at least recover_min), never above it."""
    cdef Py_ssize_t v
    cdef const CrashEffect* e
    cdef int hc, up, new
    drv_fire(D, F, ctx, turn)
    for v in range(D.V):
        D.hv_has[v] = 0
    for v in range(D.V):
        if D.unc[v] and D.cv[v].unit.speed != 0:
            D.cv[v].unit.speed = cw_slowed(D.cv[v].unit.speed, D.k.uncontrolled_slow)
    for v in range(D.V):
        if D.spec[v].driven and D.cm_kind[v] != CM_NONE:
            e = &D.eff[D.k.eff_spinout if D.cm_kind[v] == CM_SPINOUT else D.k.eff_roll]
            drv_slow(D, <int>v, e.slow_per_turn)
            if D.cv[v].unit.speed == 0:
                D.cm_kind[v] = CM_NONE
    for v in range(D.V):
        if D.spec[v].driven and D.cv[v].has_handling:
            hc = drv_hc(D, ctx, <int>v)
            up = hc if hc > D.k.recover_min else D.k.recover_min
            new = D.cv[v].handling_status + up
            D.cv[v].handling_status = new if new < hc else hc


cdef inline int drv_turns(DriveRun* D, FightRun* F, Ctx* ctx) noexcept nogil:
    """turn.run_turns for a fight that drives, turns 1 .. T: each its start (fight_turn_start, drv_turn_start), its
    phases, its end, who is out of action (FIGHT-03); it stops when the fight is decided (if so ordered) or when the
    reference must run the trial (D.status). Returns the last turn run to its end."""
    cdef int turn, ph, ran = 0
    for turn in range(1, F.T + 1):
        D.turn = turn
        fight_turn_start(F, turn)
        D.status = drv_turn_start(D, F, ctx, turn)
        if D.status != DRV_OK:
            return ran
        for ph in range(F.P):
            D.status = drv_phase(D, F, ctx, turn, ph)
            if D.status != DRV_OK:
                return ran
        drv_turn_end(D, F, ctx, turn)
        if D.status != DRV_OK:
            return ran
        ran = turn
        update_out(F, ctx, turn)
        if F.fc[F_UNTIL] and sides_in_action(F) <= 1:
            return ran
    return ran


# --- the entry point ---------------------------------------------------------------------------------------------------

cdef ThTables drv_tables(dict d) except *:
    """ThTables from drivepack.tohit_tables (its speed bands as long as they are)."""
    cdef ThTables t
    cdef int i
    if len(d["band_lo"]) > TH_MAX_BANDS or len(d["band_lo"]) != len(d["band_mod"]):
        raise ValueError("carwars.tohit speed bands: more than the kernel holds")
    t.arc_angle, t.pb_under, t.pb, t.step, t.per_step = d["arc_angle"], d["pb_under"], d["pb"], d["step"], d["per_step"]
    t.nbands = len(d["band_lo"])
    for i in range(t.nbands):
        t.band_lo[i], t.band_mod[i] = d["band_lo"][i], d["band_mod"][i]
    t.target_still, t.firer_still, t.literal = d["target_still"], d["firer_still"], d["literal"]
    for i in range(9):
        t.rel[i] = d["rel"][i]
    t.wrong_arc, t.max_needed = d["wrong_arc"], d["max_needed"]
    return t


def run_drive(
    uint64_t seed, uint64_t first_trial, dict arrays, dict drive,
    int32_t[:, ::1] out_state, uint8_t[:, ::1] out_flags, int16_t[:, ::1] out_turn, int16_t[::1] out_result,
    int16_t[::1] out_turns, int32_t[:, ::1] out_shots, int32_t[:, ::1] out_hits, int32_t[:, ::1] out_dmg,
    uint64_t[::1] trial_ids, int32_t[::1] redo,
):
    """Run trials first_trial .. first_trial + N - 1 of a fight that drives (N = out_state's rows), each to its end:
    FIGHT-01..12, turn.run_turns(..., fight=...) with movement orders, bit for bit.

    `arrays` is the fight's packing (drivepack.pack_drive: run_fight's arrays, their entries' firer rows without
    candidates), `drive` what else this reads (drivepack.DrivePacker.drive). Writes per trial what run_fight writes:
    the final state, the vehicle flags (1 burning, 2 exploded, 4 out of control, 8 obstacle dropped), the turn each
    unit went out of action, the result, the turns run, per weapon key the shots, hits and damage. A trial the
    kernel cannot finish as the reference would (a geometry call it is unsure of, more contacts in a phase than it
    keeps) gets `redo[t]` > 0 (DRV_UNSURE, DRV_FULL) and its outputs are left as they are: the wrapper runs it on
    the reference. `trial_ids` (when not empty) gives each row's trial number. Returns -1 (nothing run) if the
    arrays or the figures exceed the kernel's sizes. Releases the GIL."""
    cdef Arrays pk
    cdef FightRun F
    cdef Ctx ctx
    cdef DriveRun D
    cdef DriveConsts k = drive["consts"]
    cdef CwDriveRules r = drive["rules"]
    cdef ThTables th = drv_tables(drive["tohit"])
    cdef CrashEffect effs[DRV_MAXEFF]
    cdef DriveSpec specs[DRV_MAXV]
    cdef Py_ssize_t t, i, N = out_state.shape[0], W = out_shots.shape[1], V, most = 1, lo, hi
    cdef int ran
    cdef int32_t[:, ::1] wd = np.ascontiguousarray(np.array(drive["weapons"], dtype=np.int32).reshape(-1, DW_NCOLS))
    cdef int32_t[::1] c_skill = np.ascontiguousarray(np.array(drive["c_skill"] + [0], dtype=np.int32))
    cdef int32_t[::1] ent_target = np.ascontiguousarray(np.array(drive["ent_target"] + [0], dtype=np.int32))
    cdef int32_t[::1] t_front = np.ascontiguousarray(np.array(drive["t_front"] + [0], dtype=np.int32))
    cdef double[::1] obs0 = np.ascontiguousarray(np.array([x for o in drive["obstacles"] for x in o] + [0.0], dtype=np.float64))
    if unpack_fight(&pk, arrays) != 0:
        return -1
    V = pk.n_v_armour
    if V > DRV_MAXV or len(drive["vehicles"]) != V or len(drive["effects"]) > DRV_MAXEFF or k.n_effects != len(drive["effects"]) \
            or wd.shape[0] != pk.n_w_slot or c_skill.shape[0] != pk.n_c_hits + 1 or ent_target.shape[0] != pk.n_ent + 1 \
            or t_front.shape[0] != pk.n_t_slot + 1 or pk.n_p_hits != 0 or k.n_ct1 < 1 or k.n_ct1 > DRV_MAXBANDS \
            or k.n_ct2 < 1 or k.n_ct2 > DRV_MAXBANDS or k.n_hazard > DRV_MAXBANDS or k.n_ram < 1 or k.n_ram > DRV_MAXBANDS \
            or k.ram_step <= 0 or r.n_rows > DRV_MAXROWS or not 0 <= k.eff_spinout < k.n_effects or not 0 <= k.eff_roll < k.n_effects \
            or len(drive["obstacles"]) > DRV_MAXOBS or not k.obstacle_size > 0:
        return -1
    for i in range(len(drive["effects"])):
        effs[i] = drive["effects"][i]
    for i in range(V):
        specs[i] = drive["vehicles"][i]
    for i in range(k.n_effects):
        if effs[i].next >= k.n_effects:
            return -1
    for i in range(2 * k.n_ct1):
        if i % 2 and not 0 <= k.ct1[i] < k.n_effects:
            return -1
    for i in range(2 * k.n_ct2):
        if i % 2 and not 0 <= k.ct2[i] < k.n_effects:
            return -1
    for i in range(13):
        if not 0 <= k.cycle_crash[i] < k.n_effects:
            return -1
    for i in range(wd.shape[0]):
        for t in range(DW_POOL_N):
            if not -1 <= wd[i, DW_POOL + t] < pk.n_c_hits:
                return -1
    for i in range(V):
        if not -1 <= specs[i].crash0 < k.n_effects or not -1 <= specs[i].sub0 < pk.n_c_hits or specs[i].kind < 0 \
                or specs[i].kind > 2 or (specs[i].order.target >= V):
            return -1
    cdef Py_ssize_t shape_saved[2]
    cdef Py_ssize_t shape_none[2]
    shape_saved[0], shape_saved[1] = N, 1 << 40
    shape_none[0], shape_none[1] = N, 0
    if not fight_call_ok(&pk, N, W, 0, shape_saved, N, shape_none, shape_none):
        return -1
    # the firer rows' most in one phase: the candidates' scratch holds that many times V rows
    for t in range(pk.fc[F_T] * pk.fc[F_P]):
        if pk.tp_lo[t + 1] > pk.tp_lo[t]:
            lo = pk.ent[pk.tp_lo[t] * ENT_NCOLS + ENT_FIR_LO]
            hi = pk.ent[(pk.tp_lo[t + 1] - 1) * ENT_NCOLS + ENT_FIR_HI]
            if hi - lo + 1 > most:
                most = hi - lo + 1
    cdef int32_t[::1] scratch = np.zeros(fight_scratch_len(&pk, W), dtype=np.int32)
    cdef int32_t[::1] ch_hits = np.zeros(pk.n_c_hits + 1, dtype=np.int32)
    cdef int32_t[::1] held = np.zeros(pk.n_c_hits * pk.fc[F_HANDS] + 1 if pk.fc[F_HANDS] > 0 else 1, dtype=np.int32)
    cdef int32_t[::1] fir = np.ascontiguousarray(np.array(arrays["fir"], dtype=np.int32).reshape(-1)) if pk.n_fir else np.zeros(FIR_NCOLS, np.int32)
    cdef int32_t[::1] cand = np.zeros(most * max(V, 1) * CAND_NCOLS, dtype=np.int32)
    cdef int32_t[::1] stamp_of = np.zeros(most, dtype=np.int32)
    cdef uint8_t[::1] usable = np.zeros(pk.n_w_slot + 1, dtype=np.uint8)
    cdef int32_t[::1] mounts = np.ascontiguousarray(np.array(wd[:, DW_MOUNT] if pk.n_w_slot else [0], dtype=np.int32))
    cdef uint8_t[::1] on_sidecar = np.ascontiguousarray(np.array(wd[:, DW_SIDECAR] if pk.n_w_slot else [0], dtype=np.uint8))
    fight_bind(&F, &pk, W, 0, &scratch[0], &ch_hits[0], &held[0])
    lists = ctx_bind(&ctx, &pk, &F.veh)
    if lists is None or not fight_rows_ok(&pk, W, 0, F.U):
        return -1
    if not fight_outputs_ok(N, F.S, F.V, F.U, W, out_state.shape, out_flags.shape, out_turn.shape, out_result.shape[0],
                            out_turns.shape[0], N, N, out_shots.shape, out_hits.shape, out_dmg.shape, 0,
                            trial_ids.shape[0]) or redo.shape[0] != N:
        return -1
    D.k, D.r, D.th, D.eff, D.spec = &k, &r, &th, effs, specs
    D.wd, D.c_skill, D.ent_target, D.t_front = &wd[0, 0] if pk.n_w_slot else NULL, &c_skill[0], &ent_target[0], &t_front[0]
    D.fir, D.cand, D.stamp_of, D.stamp, D.most_fir = &fir[0], &cand[0], &stamp_of[0], 0, most
    D.V, D.NW = V, pk.n_w_slot
    D.usable, D.mounts, D.on_sidecar = &usable[0], <int*>&mounts[0], &on_sidecar[0]
    D.rolled0, D.burning = pk.v_rolled, F.veh.burning
    D.n_obs0, D.obs0 = <int>len(drive["obstacles"]), &obs0[0]
    D.metal_factor, D.cap_num, D.cap_den = pk.consts[K_METAL_FACTOR], pk.consts[K_CAP_NUM], pk.consts[K_CAP_DEN]
    F.fir, F.cand, F.drive = D.fir, D.cand, &D
    cdef uint8_t[:, ::1] hit_none = np.zeros((N, 1), np.uint8)
    cdef int32_t[:, ::1] dmg_none = np.zeros((N, 1), np.int32)
    with nogil:
        for t in range(N):
            ctx.st = &out_state[t, 0]
            ctx.key = hp_stream_key(seed, trial_ids[t] if trial_ids.shape[0] else first_trial + <uint64_t>t)
            ctx.cur_fiery = -1
            ctx.cur_vehicle = -1
            F.flags, F.out_turn, F.hit, F.damage = &out_flags[t, 0], &out_turn[t, 0], &hit_none[t, 0], &dmg_none[t, 0]
            F.shots, F.hits, F.dmg = &out_shots[t, 0], &out_hits[t, 0], &out_dmg[t, 0]
            fight_fresh(&F, &ctx)
            drv_fresh(&D, &F, &ctx)
            redo[t] = 0
            ran = drv_turns(&D, &F, &ctx)
            if D.status != DRV_OK:
                redo[t] = D.status
                continue
            out_turns[t] = ran
            out_result[t] = fight_outcome(&F)
            for i in range(V):
                F.flags[i] = (F.flags[i] & ~4) | (4 if D.unc[i] and not D.spec[i].unc0 else 0)     # out of control since the start
    return 0
