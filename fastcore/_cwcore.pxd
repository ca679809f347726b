# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""What the two Car Wars kernels of _carwars.pyx (`run_phase`, `run_fight`) share: the damage code's context, the
dice, the writes of the state and the small helpers every mechanic calls; and each kernel's run struct, which its
mechanics take by pointer (ARCH-03, FAST-01).

_carwars.pyx cimports it (setup.py puts fastcore/ on Cython's include path); every function here is `cdef inline`
and compiles into that one C file, into the kernels' loops, with no Python object and no import at run time.
Nothing here reads the packed layout's codes or columns (fastcore/_layout.pxi, generated, which the .pyx includes):
what does lives in the .pyx, beside the reference function it mirrors.
"""
from libc.stdint cimport uint64_t, int64_t, int32_t, int16_t, int8_t, uint8_t

cdef extern from "hp_dice.h" nogil:
    uint64_t hp_stream_key(uint64_t seed, uint64_t trial)
    int hp_face(uint64_t key, uint64_t k)

cdef enum:
    MAX_PICK = 36        # the most candidates a random pick takes (two dice, as damage.random_pick)
    # the pick lists of a vehicle (ctx_lists): which list is which
    NL = 15
    L_MOUNT = 0          # 0 .. 6: the body weapons on each mount (the sides, then the turret)
    L_LOC = 7            # 7 .. 9: the items of each location (crew, power plant, cargo)
    L_VERTICAL = 10      # a hit from above or below: the power plant, the crew, the cargo location
    L_CYCLE_W = 11       # a cycle's body weapons
    L_CYCLE_T = 12       # a cycle's body tires
    L_SIDECAR = 13       # a sidecar's weapons, crew and cargo
    L_INTERIOR = 14      # the power plant, crew and cargo as one collision layer


cdef struct Ctx:
    # the trial's dice: key of its stream, and the next die's number (DICE-03)
    uint64_t key
    uint64_t k
    int32_t* st          # state values (slots)
    # vehicles
    int32_t* v_armour    # first of 6 armour slots
    int32_t* v_pp        # power-plant slot or -1
    int32_t* v_kind      # 0 car, 1 cycle, 2 trike
    int32_t* v_reversed
    int32_t* v_turret
    int32_t* v_rolled    # side on the ground or -1
    int32_t* v_metal
    int32_t* v_layout    # 3 per vehicle: 0 crew, 1 power plant, 2 cargo, -1 none
    int32_t* v_sc_side   # -1 none, LEFT or RIGHT
    int32_t* v_sc_spaces
    int32_t* v_sc_armour # first of 5 sidecar armour slots (front, back, left, right, underbody)
    int32_t* v_w0        # CSR of weapons (body first, then sidecar)
    int32_t* v_w1
    int32_t* v_c0        # CSR of crew (body first, then sidecar)
    int32_t* v_c1
    int32_t* v_k0        # CSR of cargo (body first, then sidecar)
    int32_t* v_k1
    int32_t* v_t0        # CSR of tires (body first, then the sidecar wheel)
    int32_t* v_t1
    int32_t* v_driver    # crew index of the driver or -1
    int32_t* v_cycle_rider   # crew index of the cycle seat (or the driver) or -1
    int32_t* w_slot
    int32_t* w_mount
    int32_t* w_sidecar
    int32_t* w_fiery     # flamethrower or flaming oil jet (CW-FIRE-02)
    int32_t* c_hits
    int32_t* c_ba
    int32_t* c_sidecar
    int32_t* k_slot
    int32_t* k_sidecar
    int32_t* t_slot
    int32_t* t_pos       # 0 front 1 back 2 front_left 3 front_right 4 back_left 5 back_right 6 sidecar
    int32_t* t_sidecar
    # the fire code's rows (CW-FIRE-01..04) and the obstacle's (CW-DMG-08)
    int32_t* v_fireproof
    int32_t* v_extinguisher
    int32_t* v_can_explode
    int32_t* v_burning   # burning as the scenario starts
    int32_t* v_is_car
    # damage constants
    int32_t* cyc         # cycle/sidecar/trike bands: end_armour_lo/hi, end_wheel lo/hi, side driver, pp, weapon, tire (lo/hi each), sidecar lo/hi, trike wheel lo/hi
    # fire bookkeeping of the current shot
    int32_t cur_vehicle
    int32_t cur_fiery    # the hit's weapon is fiery (-1: do not record)
    int32_t* fire_hits   # per vehicle: 1 once a component hit this turn may start a fire (CW-FIRE-02)
    uint64_t fire_noted  # run_phase: bit v % 64 once vehicle v may need an end-of-turn fire roll (no fire, no fire rolls)
    int32_t* fire_hit_fiery  # per vehicle: 1 once such a hit came from a laser, flamethrower or flaming oil jet
    int32_t* taken       # hits dealt per vehicle this phase
    # the slots a trial wrote (counted mode: run_phase counts and undoes only these); mark NULL: not kept
    int32_t* mark
    int32_t* dirty
    int32_t n_dirty
    # the candidates of each random pick, worked out once a run (ctx_lists): NL lists per vehicle
    int32_t* l_off       # first entry of list v * NL + which
    int32_t* l_n         # its length
    int32_t* l_kind      # entries: item kind (I_*)
    int32_t* l_idx       # entries: weapon, crew, cargo or tire index (0 for the power plant and the cargo location)
    int32_t* tire_at     # 2 per vehicle: the body's front and back tire (t_pos 0 and 1), or -1


# --- the dice (DICE-03: every die a face of the trial's counter-based stream, in the reference's order) ----------

cdef inline int die(Ctx* c) noexcept nogil:
    """One d6, the trial's next (dice.SeededDice, DICE-03)."""
    cdef int f = hp_face(c.key, c.k)
    c.k += 1
    return f


cdef inline void skip(Ctx* c, int count) noexcept nogil:
    """DICE-03: dice the rules roll whose faces cannot change anything: they are drawn (the next die is the one after them),
    without working out their faces."""
    c.k += count


cdef inline int roll(Ctx* c, int count, int bonus, int floor_) noexcept nogil:
    """`count`d6 + `bonus`, at least `floor_` (dice.DiceExpr rolled: CW-DMG-01's damage, collisions, bursts)."""
    cdef int s = 0, i
    for i in range(count):
        s += die(c)
    s += bonus
    return s if s > floor_ else floor_


cdef extern from *:
    """
    static int8_t hp_pick_tab[37 * 36];
    """
    # n * 36 + v: which of n candidates (n <= MAX_PICK, 36) value v picks, or -1: roll again (one table a module)
    int8_t PICK_TAB "hp_pick_tab"[(MAX_PICK + 1) * 36]


cdef inline void fill_pick_tab() noexcept nogil:
    """damage.random_pick's split of the faces (CW-DMG-03), worked out once (at import), so a pick reads its answer rather than
    dividing: among up to six candidates one die, v = face - 1; among more, two dice, v = 6 * (first - 1) + second
    - 1; the faces split evenly and the values past the largest multiple of n roll again."""
    cdef int n, v, per
    for n in range(MAX_PICK + 1):
        per = (6 if n <= 6 else 36) // n if n > 1 else 1
        for v in range(36):
            PICK_TAB[n * 36 + v] = 0 if n <= 1 else (v // per if v < per * n else -1)


cdef inline int pick(Ctx* c, int n) noexcept nogil:
    """hardpoint.carwars.damage.random_pick (CW-DMG-03), among n <= MAX_PICK candidates (ctx_lists refuses longer
    lists)."""
    cdef int j
    if n <= 1:
        return 0
    if n <= 6:
        while True:
            j = PICK_TAB[n * 36 + die(c) - 1]
            if j >= 0:
                return j
    while True:
        j = 6 * die(c) - 7
        j = PICK_TAB[n * 36 + j + die(c)]
        if j >= 0:
            return j


cdef inline int to_hit(Ctx* c, int needed, int natural_miss) noexcept nogil:
    """tohit.roll_to_hit then tohit.is_hit (CW-HIT-01): 2d6, a hit at `needed` or more unless it is the natural
    miss. The caller adds what makes a hit impossible whatever the roll (the dice are drawn all the same)."""
    cdef int r = die(c) + die(c)
    return r != natural_miss and r >= needed


cdef inline int damage_roll(Ctx* c, int count, int bonus, int fixed) noexcept nogil:
    """A hit's damage (CW-DMG-01): its dice, or the weapon's fixed hits when it rolls none."""
    if count > 0:
        return roll(c, count, bonus, 0)
    return fixed


cdef inline int area_each(Ctx* c, int count, int bonus, int hits, int full, int divisor) noexcept nogil:
    """CW-DMG-07 (phase._roll_area): what each victim an area-effect attack hits takes: one damage roll (or the
    weapon's fixed hits), all of it from a flamethrower, else its share, rounded up."""
    cdef int each = roll(c, count, bonus, 0) if count > 0 else hits
    return each if full else (each + divisor - 1) // divisor


cdef inline int collision_hits(Ctx* c, int count, int bonus, int floor_, int num, int den) noexcept nogil:
    """collision.collision_hits (CW-COL-04): the ram dice (none: 0) times the weight factor num / den, rounded up."""
    cdef int total = roll(c, count, bonus, floor_) if count > 0 else 0
    return (total * num + den - 1) // den


# --- the state: every write goes through put (counted mode notes it) ---------------------------------------------

cdef inline void put(Ctx* c, int slot, int value) noexcept nogil:
    """Every write of a state slot (counted mode, FAST-01): also notes the slot once a trial when the trial's changes are kept (mark).
    With no branch on whether the slot is new to the trial (a branch the dice decide): the slot always goes to
    the next place of `dirty` (which has room for one more than the slots), which counts only if it is new."""
    if c.mark != NULL:
        c.dirty[c.n_dirty] = slot
        c.n_dirty += c.mark[slot] ^ 1
        c.mark[slot] = 1
    c.st[slot] = value


cdef inline int dmg_slot(Ctx* c, int slot, int hits) noexcept nogil:
    """damage_armour / damage_component (CW-DMG-02): absorb up to the slot's value; returns the hits left."""
    cdef int before = c.st[slot]
    cdef int taken = before if before < hits else hits
    if taken > 0:
        put(c, slot, before - taken)
    return hits - taken


cdef inline int crew_state(Ctx* c, int ci) noexcept nogil:
    """crew.CrewState of crew member ci (CW-CREW-01): his hits, 3 (dead) at most."""
    cdef int h = c.st[c.c_hits[ci]]
    return h if h < 3 else 3


cdef inline int put_out(int before, int after) noexcept nogil:
    """crew.driver_consequences (CW-CREW-02/03): 1 if a driver able when the phase's combat started (`before`, his
    crew_state then) is out now (`after`: unconscious or dead): the vehicle goes out of control."""
    return after != before and after >= 2 and before < 2


cdef inline uint64_t vbit(int v) noexcept nogil:
    """Vehicle v's bit in a mask of vehicles (run_phase's fire rolls to make, CW-FIRE-01/02) (vehicles 64 apart share one: a mask then says 'perhaps')."""
    return (<uint64_t>1) << (v & 63)


cdef inline void note_fire(Ctx* c, int v) noexcept nogil:
    """fire.record_component_hit: one fire roll per vehicle per turn, 4 in 6 if any such hit was fiery (CW-FIRE-02)."""
    if c.cur_fiery < 0 or v != c.cur_vehicle:
        return
    c.fire_hits[v] = 1
    c.fire_noted |= vbit(v)
    if c.cur_fiery:
        c.fire_hit_fiery[v] = 1


cdef inline int hand_hits(int mode, int dmg) noexcept nogil:
    """phase.hits_against_vehicle: the hits a shot's damage deals a vehicle: all, half rounded up, or none (a hand
    weapon, CW-HAND-01)."""
    if mode == 1:
        return (dmg + 1) // 2
    if mode == 2:
        return 0
    return dmg


cdef inline void add_fire(int32_t* future, int ring, int slot, int burn, int modifier) noexcept nogil:
    """A fire source (CW-FIRE-01, fire.FireSource.active): its modifier counts this turn (`slot`, turn % ring, in the
    vehicle's ring `future`) and the next `burn` turns; the ring is longer than any burn (fc FIRE_RING)."""
    cdef int j
    for j in range(burn + 1):
        future[slot] += modifier
        slot += 1
        if slot == ring:
            slot = 0


cdef inline int streak_of(int32_t* rec_t, int32_t* rec_s, int32_t* rec_turn, int wk, int tu, int turn) noexcept nogil:
    """attack._consecutive (CW-HIT-09): the streak weapon key wk's shot at unit tu this turn makes (1: a first shot)."""
    if rec_t[wk] == tu and rec_turn[wk] == turn - 1:
        return rec_s[wk] + 1
    return 1


cdef inline int sustained(int32_t* rec_t, int32_t* rec_s, int32_t* rec_turn, int wk, int tu, int turn, int sf2, int sf3) noexcept nogil:
    """tohit.sustained_fire_modifiers (CW-HIT-09): the modifier of this weapon's shot at unit tu this turn (the
    streak it would make)."""
    cdef int n = 1
    if rec_t[wk] == tu and rec_turn[wk] == turn - 1:
        n = rec_s[wk] + 1
    if n < 2:
        return 0
    return sf2 if n == 2 else sf3


# --- the pick lists (ctx_lists) -------------------------------------------------------------------------------------

cdef inline int32_t* list_kind(Ctx* c, int v, int which) noexcept nogil:
    """The item kinds (I_*) of vehicle v's pick list `which` (ctx_lists, CW-DMG-02..05)."""
    return c.l_kind + c.l_off[v * NL + which]


cdef inline int32_t* list_idx(Ctx* c, int v, int which) noexcept nogil:
    """The items (weapon, crew, cargo or tire indices) of vehicle v's pick list `which` (CW-DMG-02..05)."""
    return c.l_idx + c.l_off[v * NL + which]


cdef inline int list_len(Ctx* c, int v, int which) noexcept nogil:
    """How many candidates vehicle v's pick list `which` holds (CW-DMG-02..05)."""
    return c.l_n[v * NL + which]


# --- what a trial keeps per vehicle, in both kernels ----------------------------------------------------------------

cdef struct VehicleState:
    # scratch, Vs ints each, in this order (carve_vehicles; run_phase resets them with its flags as one block)
    int32_t* fire_hits       # 1 once a component hit this turn may start a fire (CW-FIRE-02)
    int32_t* fire_hit_fiery  # 1 once such a hit was fiery
    int32_t* taken           # hits taken this phase (CW-DMG-08)
    int32_t* fire_total      # the fire modifiers that count this turn (CW-FIRE-01)
    int32_t* burning
    int32_t* driver_before   # the driver's state as the phase's combat started (CW-ROF-02, CW-CREW-02), -1 none


cdef inline int32_t* carve_vehicles(VehicleState* veh, int32_t* at, Py_ssize_t Vs) noexcept nogil:
    """A trial's per-vehicle state in six blocks of Vs ints from `at`, in VehicleState's order (ARCH-03); returns
    the place after them."""
    veh.fire_hits = at
    veh.fire_hit_fiery = at + Vs
    veh.taken = at + 2 * Vs
    veh.fire_total = at + 3 * Vs
    veh.burning = at + 4 * Vs
    veh.driver_before = at + 5 * Vs
    return at + 6 * Vs


# --- run_phase's run: what it reads, worked out once a call, and its scratch (phase_bind) ----------------------------

cdef struct PhaseRun:
    # the packed rows and figures the trials read (unpack_phase)
    int32_t* init        # the state every trial starts from
    int32_t* atk         # attack rows, in phase order
    int32_t* afir        # the default firers' rows of the attacks
    int32_t* col         # collision rows
    int32_t* brst        # burst rows (pedestrians a hit's burst reaches)
    int32_t* consts      # the rules' figures (K_*)
    int32_t* fire0       # the fire state carried in: 4 blocks of V
    int32_t* p_hits
    int32_t* p_ba
    int32_t* near_v      # per vehicle, who its explosion reaches (CW-FIRE-04)
    int32_t* near_p
    Py_ssize_t w_near_v
    Py_ssize_t w_near_p
    Py_ssize_t S, V, A, C    # slots, vehicles, attacks, collisions
    Py_ssize_t Vs            # V, at least 1 (the scratch's blocks)
    Py_ssize_t tb            # ints of the block every trial resets (7 * Vs, at least TRIAL_BLOCK)
    int n_phases
    int end_of_turn
    int store                # each trial's results to its row (else counted mode: `acc`)
    int undo                 # counted mode: a trial's writes undone as they are counted (put marks them)
    int hist                 # counted mode: `acc` has room for the damage histogram
    # the turn's plan (phase_plan)
    int dynamic              # an attack may be cancelled by the state (a weapon, a firer, a collision)
    int n_busy               # the phases with a collision or an attack, in order: busy_ph
    int32_t a_lo[8]          # the attacks of phase ph are a_lo[ph] .. a_lo[ph + 1] - 1
    int32_t busy_ph[8]
    # every trial's start (phase_start)
    uint64_t fire_start      # vehicles that start the trial burning or with fire carried in (vbit)
    int n_metal              # metal armour slots (v * 6 + side), in metal_slots
    # scratch: the trial's block, reset from start_v as every trial starts (veh's six blocks, then flg)
    VehicleState veh
    int32_t* flg             # per vehicle: 1 burning, 2 exploded, 4 uncontrolled, 8 obstacle dropped
    int32_t* start_v
    int32_t* flg0
    int32_t* metal_before    # 6 per vehicle: its metal armour when the phase's combat started (CW-DMG-08)
    int32_t* metal_init
    int32_t* metal_slots
    int32_t* pend            # the phase's damage, pending until it ends: the attack, and its damage
    int32_t* pend_dmg
    int32_t* hitv            # the trial's hits and damage per attack (int32: see phase_bind)
    int32_t* dmgv
    int32_t* cut0            # per attack: cancelled, and the roll needed, at the start's state
    int32_t* need0
    # counted mode
    int32_t* skind           # per slot: 0 destroyed at 0, 1 a person with 3 hits, 2 not counted
    int64_t* acc
    int32_t* hc              # per attack, its hits by damage bin (DMG_BINS), flushed into acc
    int32_t* m0
    int32_t* m1
    int32_t* base            # per slot: destroyed as every trial starts
    int32_t* dcount
    int32_t* fcount          # per vehicle, the trials by their flags' pattern (16)
    int32_t* mark
    int32_t* dirty
    Py_ssize_t since         # trials counted since the last flush
    int area_hits            # an area-effect attack's victims hit so far (kept from row to row, as the rows run)


# --- run_fight's run: what it reads, its scratch (fight_bind) and the trial's rows of the outputs ------------------

cdef struct FightRun:
    # the packed rows and figures the trials read (unpack_fight)
    int32_t* init
    int32_t* fc              # the fight's figures (F_*)
    int32_t* consts          # the rules' figures (K_*)
    int32_t* ent             # order entries of each phase (tp_lo), firer rows (fir), candidate shots (cand)
    int32_t* tp_lo
    int32_t* fir
    int32_t* cand
    int32_t* fcol            # the movement's collisions of each phase (col_lo)
    int32_t* col_lo
    int32_t* drop            # declared drops, switches, detonations, substitutions, fetches (drop_lo)
    int32_t* drop_lo
    int32_t* ocon            # counters and slicks driven over (ocon_lo)
    int32_t* ocon_lo
    int32_t* offr            # off-road damage rolls of each turn (offr_lo)
    int32_t* offr_lo
    int32_t* brst
    int32_t* prob36          # the odds of each roll needed (best odds, FIGHT-02)
    int32_t* crash_out       # Crash Table 1's results (13 a row, on and off road)
    int32_t* u_side
    int32_t* moving_end      # per turn and vehicle: still moving at its end
    int32_t* known_unc       # vehicles the packing already slows
    int32_t* obs_met         # per phase and vehicle: an obstacle dropped there is run onto later (empty: never)
    Py_ssize_t n_obs_met
    int obs_redo             # an obstacle dropped this phase where obs_met says it is met: the reference's trial
    int32_t* near_v
    int32_t* near_p
    Py_ssize_t w_near_v
    Py_ssize_t w_near_p
    int32_t* rec0            # the sustained-fire history the scenario starts with
    int32_t* fring0          # the fire state carried in (rings, component hits, exploded)
    int32_t* crash0
    int32_t* hand0           # the thrown hand weapons each character starts with
    int32_t* hand_eq         # per kind, its grenade-equivalents
    int32_t* v_off
    int32_t* w_slot
    int32_t* w_shots
    int32_t* w_ammo0
    int32_t* w_usable
    int32_t* c_hits
    int32_t* c_takeover
    int32_t* c_hand
    int32_t* t_slot
    int32_t* t_immune
    int32_t* p_hits
    int32_t* p_ba
    Py_ssize_t S, V, NP, U, W, NC, NW, NA, NH, NK
    int T, P, H, ring
    int nm, maxn, wpen, sf2, sf3     # the natural miss, the most needed, a wounded firer's penalty, sustained fire
    # scratch
    int32_t* ch_hits         # each character's hits slot: crew members 0 .. NC - 1, then the pedestrians
    int32_t* held            # per character, the thrown hand weapons (grenades) of each kind he holds
    VehicleState veh
    int32_t* crash
    int32_t* fire_future     # per vehicle, the fire modifiers that count at turn % ring (CW-FIRE-01)
    int32_t* metal_before
    int32_t* ammo
    int32_t* fired_w         # per weapon key, fired this turn (CW-ROF-01)
    int32_t* rec_t           # per weapon key, its last shot: target, streak, turn (CW-HIT-09)
    int32_t* rec_s
    int32_t* rec_turn
    int32_t* fired_ch        # per character, fired this turn (CW-ROF-01)
    int32_t* outu            # per unit, the turn it went out of action (0: not out)
    int32_t* alive_side
    int32_t* gone            # per counter: mines gone off, or a drop that did not happen
    # the shots accepted in a phase, at most one an entry: candidate, roll needed, the firer's hits slot, weapon
    # key, weapon, damage, still on, planned attack's column, entry, the character marked as firing it, and a
    # link's or area attack's shot (its candidate in the firer row's range, ENT_SHOT)
    int32_t* acc_k
    int32_t* acc_need
    int32_t* acc_fs
    int32_t* acc_wk
    int32_t* acc_w
    int32_t* acc_dmg
    int32_t* acc_ok
    int32_t* acc_atk
    int32_t* acc_e
    int32_t* acc_ch
    int32_t* acc_off
    int area_hits            # an area-effect attack's victims hit so far (kept from shot to shot, as they run)
    # the trial: its rows of the outputs (set by run_fight), the turn's place in the fire rings
    uint8_t* flags
    int16_t* out_turn
    int32_t* shots
    int32_t* hits
    int32_t* dmg
    uint8_t* hit
    int32_t* damage
    int32_t* sv
    int16_t* diverged
    int32_t* redo
    int tslot
    void* drive              # a fight that drives: its DriveRun (the orders' candidates worked out as each phase comes), else NULL
