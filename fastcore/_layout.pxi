# Generated from fastcore/layout.toml by `python -m hardpoint.carwars.kernel_layout`: do not edit.

# side
cdef enum:
    FRONT = 0
    BACK = 1
    LEFT = 2
    RIGHT = 3
    TOP = 4
    UNDERBODY = 5
    TURRET = 6

# part
cdef enum:
    P_SIDE = 0
    P_TIRE = 1
    P_TURRET = 2
    P_RIDER = 3
    P_SIDECAR = 4
    P_TOP = 5
    P_SIDE_SC = 6

# item
cdef enum:
    I_WEAPON = 0
    I_CREW = 1
    I_CARGO = 2
    I_PP = 3
    I_TIRE = 4
    I_CARGO_LOC = 5

# tire
cdef enum:
    TIRE_FRONT = 0
    TIRE_BACK = 1
    TIRE_FRONT_LEFT = 2
    TIRE_FRONT_RIGHT = 3
    TIRE_BACK_LEFT = 4
    TIRE_BACK_RIGHT = 5
    TIRE_SIDECAR = 6

# kind
cdef enum:
    KIND_CAR = 0
    KIND_CYCLE = 1
    KIND_TRIKE = 2

# location
cdef enum:
    LOC_CREW = 0
    LOC_POWER_PLANT = 1
    LOC_CARGO = 2

# extinguisher
cdef enum:
    EXT_NONE = 0
    EXT_STANDARD = 1
    EXT_IMPROVED = 2
    EXT_PORTABLE = 3

# target
cdef enum:
    TGT_VEHICLE = 0
    TGT_PEDESTRIAN = 1
    TGT_BUILDING = 2

# choose
cdef enum:
    CHOOSE_NEAREST = 0
    CHOOSE_BEST_ODDS = 1
    CHOOSE_PLANNED = 2
    CHOOSE_AUTOMATIC = 3
    CHOOSE_LINK = 4
    CHOOSE_MEMBER = 5
    CHOOSE_AREA = 6

# contact
cdef enum:
    CONTACT_DAMAGE = 0
    CONTACT_FIRE = 1
    CONTACT_TRIGGER = 2

# drop
cdef enum:
    DR_ACTION = 0
    DR_MEMBER = 1
    DR_AUTO = 2
    DR_SWITCH = 3
    DR_DETONATE = 4
    DR_SUBSTITUTE = 5
    DR_FETCH = 6
    DR_BOX = 7

# rows.atk
cdef enum:
    ATK_NEEDED = 0
    ATK_POSSIBLE = 1
    ATK_DMG_COUNT = 2
    ATK_DMG_BONUS = 3
    ATK_DMG_HITS = 4
    ATK_KIND = 5
    ATK_INDEX = 6
    ATK_PART = 7
    ATK_SIDE = 8
    ATK_TIRE = 9
    ATK_MODE = 10
    ATK_FIRE_MOD = 11
    ATK_FIERY = 12
    ATK_PHASE = 13
    ATK_WEAPON_SLOT = 14
    ATK_FIRER_SLOT = 15
    ATK_NEEDED_WOUNDED = 16
    ATK_CANCELLED = 17
    ATK_AREA_PLACE = 18
    ATK_AREA_VICTIMS = 19
    ATK_AREA_RANK = 20
    ATK_AREA_FULL = 21
    ATK_BURST_LO = 22
    ATK_BURST_HI = 23
    ATK_FIR_LO = 24
    ATK_FIR_HI = 25
    ATK_NCOLS = 26

# rows.afir
cdef enum:
    AFIR_SLOT = 0
    AFIR_NEEDED = 1
    AFIR_NEEDED_WOUNDED = 2
    AFIR_OK = 3
    AFIR_NCOLS = 4

# rows.col
cdef enum:
    COL_VEHICLE = 0
    COL_COUNT = 1
    COL_BONUS = 2
    COL_FLOOR = 3
    COL_NUM = 4
    COL_DEN = 5
    COL_SIDE = 6
    COL_PHASE = 7
    COL_NCOLS = 8

# rows.cand
cdef enum:
    CAND_UNIT = 0
    CAND_NEEDED = 1
    CAND_DMG_COUNT = 2
    CAND_DMG_BONUS = 3
    CAND_DMG_HITS = 4
    CAND_KIND = 5
    CAND_INDEX = 6
    CAND_PART = 7
    CAND_SIDE = 8
    CAND_TIRE = 9
    CAND_MODE = 10
    CAND_FIRE_MOD = 11
    CAND_FIERY = 12
    CAND_POSSIBLE = 13
    CAND_BURN = 14
    CAND_BURST_LO = 15
    CAND_BURST_HI = 16
    CAND_NCOLS = 17

# rows.brst
cdef enum:
    BRST_PED = 0
    BRST_COUNT = 1
    BRST_BONUS = 2
    BRST_FLOOR = 3
    BRST_NCOLS = 4

# rows.ent
cdef enum:
    ENT_TP = 0
    ENT_UNIT = 1
    ENT_WKEY = 2
    ENT_WEAPON = 3
    ENT_PED = 4
    ENT_FIR_LO = 5
    ENT_FIR_HI = 6
    ENT_CHOOSE = 7
    ENT_ATK = 8
    ENT_LINK = 9
    ENT_SHOT = 10
    ENT_RANK = 11
    ENT_HAND = 12
    ENT_MIN36 = 13
    ENT_NCOLS = 14

# rows.fir
cdef enum:
    FIR_CHARACTER = 0
    FIR_CAND_LO = 1
    FIR_CAND_HI = 2
    FIR_NCOLS = 3

# rows.fcol
cdef enum:
    FCOL_INDEX = 0
    FCOL_COUNT = 1
    FCOL_BONUS = 2
    FCOL_FLOOR = 3
    FCOL_NUM = 4
    FCOL_DEN = 5
    FCOL_SIDE = 6
    FCOL_TP = 7
    FCOL_IS_PED = 8
    FCOL_NCOLS = 9

# rows.ocon
cdef enum:
    OCON_TP = 0
    OCON_VEHICLE = 1
    OCON_KIND = 2
    OCON_A = 3
    OCON_B = 4
    OCON_C = 5
    OCON_PART = 6
    OCON_SIDE = 7
    OCON_TIRE = 8
    OCON_ARMED = 9
    OCON_HALF = 10
    OCON_COUNTER = 11
    OCON_NCOLS = 12

# rows.drop
cdef enum:
    DROP_TP = 0
    DROP_KIND = 1
    DROP_WEAPON = 2
    DROP_WKEY = 3
    DROP_DRIVER = 4
    DROP_ASSUMED = 5
    DROP_FACT = 6
    DROP_COUNTER = 7
    DROP_WATER = 8
    DROP_CREW = 9
    DROP_SLOT = 10
    DROP_ROOM = 11
    DROP_NCOLS = 12

# rows.offr
cdef enum:
    OFFR_TURN = 0
    OFFR_VEHICLE = 1
    OFFR_ROLLS = 2
    OFFR_HIGH = 3
    OFFR_NCOLS = 4

# vectors.consts
cdef enum:
    K_METAL_FACTOR = 0
    K_CAP_NUM = 1
    K_CAP_DEN = 2
    K_OBSTACLE_HITS = 3
    K_FIRE_HIT_HI = 4
    K_FIRE_HIT_FIERY_HI = 5
    K_EXT_STANDARD_HI = 6
    K_EXT_IMPROVED_HI = 7
    K_EXT_PORTABLE_HI = 8
    K_EXPLODE_HI = 9
    K_NATURAL_MISS = 10
    K_MAX_NEEDED = 11
    K_AREA_DIVISOR = 12
    K_FIRE_HIT_LO = 13
    K_FIRE_HIT_FIERY_LO = 14
    K_EXT_STANDARD_LO = 15
    K_EXT_IMPROVED_LO = 16
    K_EXT_PORTABLE_LO = 17
    K_EXPLODE_LO = 18
    K_FIRE_DAMAGE = 19
    K_BLAST_COUNT = 20
    K_BLAST_BONUS = 21
    K_BLAST_FLOOR = 22
    K_LEN = 23

# vectors.cyc
cdef enum:
    CYC_END_ARMOUR_LO = 0
    CYC_END_ARMOUR_HI = 1
    CYC_END_WHEEL_LO = 2
    CYC_END_WHEEL_HI = 3
    CYC_SIDE_DRIVER_LO = 4
    CYC_SIDE_DRIVER_HI = 5
    CYC_SIDE_PP_LO = 6
    CYC_SIDE_PP_HI = 7
    CYC_SIDE_WEAPON_LO = 8
    CYC_SIDE_WEAPON_HI = 9
    CYC_SIDECAR_LO = 10
    CYC_SIDECAR_HI = 11
    CYC_TRIKE_WHEEL_LO = 12
    CYC_TRIKE_WHEEL_HI = 13
    CYC_LEN = 14

# vectors.fc
cdef enum:
    F_T = 0
    F_P = 1
    F_UNTIL = 2
    F_WPEN = 3
    F_NM = 4
    F_MAXN = 5
    F_SF2 = 6
    F_SF3 = 7
    F_NODRIVER = 8
    F_NOWEAPON = 9
    F_DESTROYED = 10
    F_CRASHED = 11
    F_PEDDOWN = 12
    F_SIDES = 13
    F_COUNTERS = 14
    F_FIRST = 15
    F_OFF_COUNT = 16
    F_OFF_BONUS = 17
    F_OFF_FLOOR = 18
    F_OFF_UB_LO = 19
    F_OFF_UB_HI = 20
    F_OFF_T_LO = 21
    F_OFF_T_HI = 22
    F_OFF_POINTS = 23
    F_WATER_LO = 24
    F_WATER_HI = 25
    F_WATER_COUNT = 26
    F_WATER_BONUS = 27
    F_WATER_FLOOR = 28
    F_FIRE_RING = 29
    F_HANDS = 30
    F_FETCH_HAND = 31
    F_LEN = 32

cdef struct Arrays:
    # per array: its data (NULL when empty) and its length; a two-dimensional one, its rows and columns
    int32_t* init
    Py_ssize_t n_init
    int32_t* v_armour
    Py_ssize_t n_v_armour
    int32_t* v_pp
    Py_ssize_t n_v_pp
    int32_t* v_kind
    Py_ssize_t n_v_kind
    int32_t* v_reversed
    Py_ssize_t n_v_reversed
    int32_t* v_turret
    Py_ssize_t n_v_turret
    int32_t* v_rolled
    Py_ssize_t n_v_rolled
    int32_t* v_metal
    Py_ssize_t n_v_metal
    int32_t* v_layout
    Py_ssize_t n_v_layout
    int32_t* v_sc_side
    Py_ssize_t n_v_sc_side
    int32_t* v_sc_spaces
    Py_ssize_t n_v_sc_spaces
    int32_t* v_sc_armour
    Py_ssize_t n_v_sc_armour
    int32_t* v_w0
    Py_ssize_t n_v_w0
    int32_t* v_w1
    Py_ssize_t n_v_w1
    int32_t* v_c0
    Py_ssize_t n_v_c0
    int32_t* v_c1
    Py_ssize_t n_v_c1
    int32_t* v_k0
    Py_ssize_t n_v_k0
    int32_t* v_k1
    Py_ssize_t n_v_k1
    int32_t* v_t0
    Py_ssize_t n_v_t0
    int32_t* v_t1
    Py_ssize_t n_v_t1
    int32_t* v_driver
    Py_ssize_t n_v_driver
    int32_t* v_cycle_rider
    Py_ssize_t n_v_cycle_rider
    int32_t* v_fireproof
    Py_ssize_t n_v_fireproof
    int32_t* v_extinguisher
    Py_ssize_t n_v_extinguisher
    int32_t* v_can_explode
    Py_ssize_t n_v_can_explode
    int32_t* v_burning
    Py_ssize_t n_v_burning
    int32_t* v_is_car
    Py_ssize_t n_v_is_car
    int32_t* w_slot
    Py_ssize_t n_w_slot
    int32_t* w_mount
    Py_ssize_t n_w_mount
    int32_t* w_sidecar
    Py_ssize_t n_w_sidecar
    int32_t* w_fiery
    Py_ssize_t n_w_fiery
    int32_t* c_hits
    Py_ssize_t n_c_hits
    int32_t* c_ba
    Py_ssize_t n_c_ba
    int32_t* c_sidecar
    Py_ssize_t n_c_sidecar
    int32_t* k_slot
    Py_ssize_t n_k_slot
    int32_t* k_sidecar
    Py_ssize_t n_k_sidecar
    int32_t* t_slot
    Py_ssize_t n_t_slot
    int32_t* t_pos
    Py_ssize_t n_t_pos
    int32_t* t_sidecar
    Py_ssize_t n_t_sidecar
    int32_t* p_hits
    Py_ssize_t n_p_hits
    int32_t* p_ba
    Py_ssize_t n_p_ba
    int32_t* cyc
    Py_ssize_t n_cyc
    int32_t* consts
    Py_ssize_t n_consts
    int32_t* col
    Py_ssize_t n_col
    Py_ssize_t w_col
    int32_t* atk
    Py_ssize_t n_atk
    Py_ssize_t w_atk
    int32_t* near_v
    Py_ssize_t n_near_v
    Py_ssize_t w_near_v
    int32_t* near_p
    Py_ssize_t n_near_p
    Py_ssize_t w_near_p
    int32_t* brst
    Py_ssize_t n_brst
    Py_ssize_t w_brst
    int32_t* afir
    Py_ssize_t n_afir
    Py_ssize_t w_afir
    int32_t* fire0
    Py_ssize_t n_fire0
    int32_t* fc
    Py_ssize_t n_fc
    int32_t* crash_out
    Py_ssize_t n_crash_out
    int32_t* prob36
    Py_ssize_t n_prob36
    int32_t* u_side
    Py_ssize_t n_u_side
    int32_t* w_key
    Py_ssize_t n_w_key
    int32_t* w_shots
    Py_ssize_t n_w_shots
    int32_t* w_ammo0
    Py_ssize_t n_w_ammo0
    int32_t* w_usable
    Py_ssize_t n_w_usable
    int32_t* c_takeover
    Py_ssize_t n_c_takeover
    int32_t* c_hand
    Py_ssize_t n_c_hand
    int32_t* hand0
    Py_ssize_t n_hand0
    int32_t* ent
    Py_ssize_t n_ent
    Py_ssize_t w_ent
    int32_t* tp_lo
    Py_ssize_t n_tp_lo
    int32_t* fir
    Py_ssize_t n_fir
    Py_ssize_t w_fir
    int32_t* cand
    Py_ssize_t n_cand
    Py_ssize_t w_cand
    int32_t* fcol
    Py_ssize_t n_fcol
    Py_ssize_t w_fcol
    int32_t* col_lo
    Py_ssize_t n_col_lo
    int32_t* moving_end
    Py_ssize_t n_moving_end
    int32_t* ocon
    Py_ssize_t n_ocon
    Py_ssize_t w_ocon
    int32_t* known_unc
    Py_ssize_t n_known_unc
    int32_t* ocon_lo
    Py_ssize_t n_ocon_lo
    int32_t* drop
    Py_ssize_t n_drop
    Py_ssize_t w_drop
    int32_t* drop_lo
    Py_ssize_t n_drop_lo
    int32_t* v_off
    Py_ssize_t n_v_off
    int32_t* t_immune
    Py_ssize_t n_t_immune
    int32_t* offr
    Py_ssize_t n_offr
    Py_ssize_t w_offr
    int32_t* offr_lo
    Py_ssize_t n_offr_lo
    int32_t* rec0
    Py_ssize_t n_rec0
    int32_t* fring0
    Py_ssize_t n_fring0
    int32_t* crash0
    Py_ssize_t n_crash0
    int32_t* hand_eq
    Py_ssize_t n_hand_eq
    int32_t* obs_met
    Py_ssize_t n_obs_met


cdef int unpack_phase(Arrays* a, dict arrays) except -2:
    """Fill `a` from the packer's arrays for run_phase: -1 when a row or vector has the wrong width
    (nothing runs); a missing array raises KeyError, one of another dtype or not contiguous ValueError."""
    cdef int32_t[::1] v
    cdef int32_t[:, ::1] m
    v = arrays["init"]
    a.init = &v[0] if v.shape[0] else NULL
    a.n_init = v.shape[0]
    v = arrays["v_armour"]
    a.v_armour = &v[0] if v.shape[0] else NULL
    a.n_v_armour = v.shape[0]
    v = arrays["v_pp"]
    a.v_pp = &v[0] if v.shape[0] else NULL
    a.n_v_pp = v.shape[0]
    v = arrays["v_kind"]
    a.v_kind = &v[0] if v.shape[0] else NULL
    a.n_v_kind = v.shape[0]
    v = arrays["v_reversed"]
    a.v_reversed = &v[0] if v.shape[0] else NULL
    a.n_v_reversed = v.shape[0]
    v = arrays["v_turret"]
    a.v_turret = &v[0] if v.shape[0] else NULL
    a.n_v_turret = v.shape[0]
    v = arrays["v_rolled"]
    a.v_rolled = &v[0] if v.shape[0] else NULL
    a.n_v_rolled = v.shape[0]
    v = arrays["v_metal"]
    a.v_metal = &v[0] if v.shape[0] else NULL
    a.n_v_metal = v.shape[0]
    v = arrays["v_layout"]
    a.v_layout = &v[0] if v.shape[0] else NULL
    a.n_v_layout = v.shape[0]
    v = arrays["v_sc_side"]
    a.v_sc_side = &v[0] if v.shape[0] else NULL
    a.n_v_sc_side = v.shape[0]
    v = arrays["v_sc_spaces"]
    a.v_sc_spaces = &v[0] if v.shape[0] else NULL
    a.n_v_sc_spaces = v.shape[0]
    v = arrays["v_sc_armour"]
    a.v_sc_armour = &v[0] if v.shape[0] else NULL
    a.n_v_sc_armour = v.shape[0]
    v = arrays["v_w0"]
    a.v_w0 = &v[0] if v.shape[0] else NULL
    a.n_v_w0 = v.shape[0]
    v = arrays["v_w1"]
    a.v_w1 = &v[0] if v.shape[0] else NULL
    a.n_v_w1 = v.shape[0]
    v = arrays["v_c0"]
    a.v_c0 = &v[0] if v.shape[0] else NULL
    a.n_v_c0 = v.shape[0]
    v = arrays["v_c1"]
    a.v_c1 = &v[0] if v.shape[0] else NULL
    a.n_v_c1 = v.shape[0]
    v = arrays["v_k0"]
    a.v_k0 = &v[0] if v.shape[0] else NULL
    a.n_v_k0 = v.shape[0]
    v = arrays["v_k1"]
    a.v_k1 = &v[0] if v.shape[0] else NULL
    a.n_v_k1 = v.shape[0]
    v = arrays["v_t0"]
    a.v_t0 = &v[0] if v.shape[0] else NULL
    a.n_v_t0 = v.shape[0]
    v = arrays["v_t1"]
    a.v_t1 = &v[0] if v.shape[0] else NULL
    a.n_v_t1 = v.shape[0]
    v = arrays["v_driver"]
    a.v_driver = &v[0] if v.shape[0] else NULL
    a.n_v_driver = v.shape[0]
    v = arrays["v_cycle_rider"]
    a.v_cycle_rider = &v[0] if v.shape[0] else NULL
    a.n_v_cycle_rider = v.shape[0]
    v = arrays["v_fireproof"]
    a.v_fireproof = &v[0] if v.shape[0] else NULL
    a.n_v_fireproof = v.shape[0]
    v = arrays["v_extinguisher"]
    a.v_extinguisher = &v[0] if v.shape[0] else NULL
    a.n_v_extinguisher = v.shape[0]
    v = arrays["v_can_explode"]
    a.v_can_explode = &v[0] if v.shape[0] else NULL
    a.n_v_can_explode = v.shape[0]
    v = arrays["v_burning"]
    a.v_burning = &v[0] if v.shape[0] else NULL
    a.n_v_burning = v.shape[0]
    v = arrays["v_is_car"]
    a.v_is_car = &v[0] if v.shape[0] else NULL
    a.n_v_is_car = v.shape[0]
    v = arrays["w_slot"]
    a.w_slot = &v[0] if v.shape[0] else NULL
    a.n_w_slot = v.shape[0]
    v = arrays["w_mount"]
    a.w_mount = &v[0] if v.shape[0] else NULL
    a.n_w_mount = v.shape[0]
    v = arrays["w_sidecar"]
    a.w_sidecar = &v[0] if v.shape[0] else NULL
    a.n_w_sidecar = v.shape[0]
    v = arrays["w_fiery"]
    a.w_fiery = &v[0] if v.shape[0] else NULL
    a.n_w_fiery = v.shape[0]
    v = arrays["c_hits"]
    a.c_hits = &v[0] if v.shape[0] else NULL
    a.n_c_hits = v.shape[0]
    v = arrays["c_ba"]
    a.c_ba = &v[0] if v.shape[0] else NULL
    a.n_c_ba = v.shape[0]
    v = arrays["c_sidecar"]
    a.c_sidecar = &v[0] if v.shape[0] else NULL
    a.n_c_sidecar = v.shape[0]
    v = arrays["k_slot"]
    a.k_slot = &v[0] if v.shape[0] else NULL
    a.n_k_slot = v.shape[0]
    v = arrays["k_sidecar"]
    a.k_sidecar = &v[0] if v.shape[0] else NULL
    a.n_k_sidecar = v.shape[0]
    v = arrays["t_slot"]
    a.t_slot = &v[0] if v.shape[0] else NULL
    a.n_t_slot = v.shape[0]
    v = arrays["t_pos"]
    a.t_pos = &v[0] if v.shape[0] else NULL
    a.n_t_pos = v.shape[0]
    v = arrays["t_sidecar"]
    a.t_sidecar = &v[0] if v.shape[0] else NULL
    a.n_t_sidecar = v.shape[0]
    v = arrays["p_hits"]
    a.p_hits = &v[0] if v.shape[0] else NULL
    a.n_p_hits = v.shape[0]
    v = arrays["p_ba"]
    a.p_ba = &v[0] if v.shape[0] else NULL
    a.n_p_ba = v.shape[0]
    v = arrays["cyc"]
    a.cyc = &v[0] if v.shape[0] else NULL
    a.n_cyc = v.shape[0]
    if v.shape[0] != CYC_LEN:
        return -1
    v = arrays["consts"]
    a.consts = &v[0] if v.shape[0] else NULL
    a.n_consts = v.shape[0]
    if v.shape[0] != K_LEN:
        return -1
    m = arrays["col"]
    a.col = &m[0, 0] if m.shape[0] and m.shape[1] else NULL
    a.n_col = m.shape[0]
    a.w_col = m.shape[1]
    if m.shape[0] and m.shape[1] != COL_NCOLS:
        return -1
    m = arrays["atk"]
    a.atk = &m[0, 0] if m.shape[0] and m.shape[1] else NULL
    a.n_atk = m.shape[0]
    a.w_atk = m.shape[1]
    if m.shape[0] and m.shape[1] != ATK_NCOLS:
        return -1
    m = arrays["near_v"]
    a.near_v = &m[0, 0] if m.shape[0] and m.shape[1] else NULL
    a.n_near_v = m.shape[0]
    a.w_near_v = m.shape[1]
    m = arrays["near_p"]
    a.near_p = &m[0, 0] if m.shape[0] and m.shape[1] else NULL
    a.n_near_p = m.shape[0]
    a.w_near_p = m.shape[1]
    m = arrays["brst"]
    a.brst = &m[0, 0] if m.shape[0] and m.shape[1] else NULL
    a.n_brst = m.shape[0]
    a.w_brst = m.shape[1]
    if m.shape[0] and m.shape[1] != BRST_NCOLS:
        return -1
    m = arrays["afir"]
    a.afir = &m[0, 0] if m.shape[0] and m.shape[1] else NULL
    a.n_afir = m.shape[0]
    a.w_afir = m.shape[1]
    if m.shape[0] and m.shape[1] != AFIR_NCOLS:
        return -1
    v = arrays["fire0"]
    a.fire0 = &v[0] if v.shape[0] else NULL
    a.n_fire0 = v.shape[0]
    return 0

cdef int unpack_fight(Arrays* a, dict arrays) except -2:
    """Fill `a` from the packer's arrays for run_fight: -1 when a row or vector has the wrong width
    (nothing runs); a missing array raises KeyError, one of another dtype or not contiguous ValueError."""
    cdef int32_t[::1] v
    cdef int32_t[:, ::1] m
    v = arrays["init"]
    a.init = &v[0] if v.shape[0] else NULL
    a.n_init = v.shape[0]
    v = arrays["v_armour"]
    a.v_armour = &v[0] if v.shape[0] else NULL
    a.n_v_armour = v.shape[0]
    v = arrays["v_pp"]
    a.v_pp = &v[0] if v.shape[0] else NULL
    a.n_v_pp = v.shape[0]
    v = arrays["v_kind"]
    a.v_kind = &v[0] if v.shape[0] else NULL
    a.n_v_kind = v.shape[0]
    v = arrays["v_reversed"]
    a.v_reversed = &v[0] if v.shape[0] else NULL
    a.n_v_reversed = v.shape[0]
    v = arrays["v_turret"]
    a.v_turret = &v[0] if v.shape[0] else NULL
    a.n_v_turret = v.shape[0]
    v = arrays["v_rolled"]
    a.v_rolled = &v[0] if v.shape[0] else NULL
    a.n_v_rolled = v.shape[0]
    v = arrays["v_metal"]
    a.v_metal = &v[0] if v.shape[0] else NULL
    a.n_v_metal = v.shape[0]
    v = arrays["v_layout"]
    a.v_layout = &v[0] if v.shape[0] else NULL
    a.n_v_layout = v.shape[0]
    v = arrays["v_sc_side"]
    a.v_sc_side = &v[0] if v.shape[0] else NULL
    a.n_v_sc_side = v.shape[0]
    v = arrays["v_sc_spaces"]
    a.v_sc_spaces = &v[0] if v.shape[0] else NULL
    a.n_v_sc_spaces = v.shape[0]
    v = arrays["v_sc_armour"]
    a.v_sc_armour = &v[0] if v.shape[0] else NULL
    a.n_v_sc_armour = v.shape[0]
    v = arrays["v_w0"]
    a.v_w0 = &v[0] if v.shape[0] else NULL
    a.n_v_w0 = v.shape[0]
    v = arrays["v_w1"]
    a.v_w1 = &v[0] if v.shape[0] else NULL
    a.n_v_w1 = v.shape[0]
    v = arrays["v_c0"]
    a.v_c0 = &v[0] if v.shape[0] else NULL
    a.n_v_c0 = v.shape[0]
    v = arrays["v_c1"]
    a.v_c1 = &v[0] if v.shape[0] else NULL
    a.n_v_c1 = v.shape[0]
    v = arrays["v_k0"]
    a.v_k0 = &v[0] if v.shape[0] else NULL
    a.n_v_k0 = v.shape[0]
    v = arrays["v_k1"]
    a.v_k1 = &v[0] if v.shape[0] else NULL
    a.n_v_k1 = v.shape[0]
    v = arrays["v_t0"]
    a.v_t0 = &v[0] if v.shape[0] else NULL
    a.n_v_t0 = v.shape[0]
    v = arrays["v_t1"]
    a.v_t1 = &v[0] if v.shape[0] else NULL
    a.n_v_t1 = v.shape[0]
    v = arrays["v_driver"]
    a.v_driver = &v[0] if v.shape[0] else NULL
    a.n_v_driver = v.shape[0]
    v = arrays["v_cycle_rider"]
    a.v_cycle_rider = &v[0] if v.shape[0] else NULL
    a.n_v_cycle_rider = v.shape[0]
    v = arrays["v_fireproof"]
    a.v_fireproof = &v[0] if v.shape[0] else NULL
    a.n_v_fireproof = v.shape[0]
    v = arrays["v_extinguisher"]
    a.v_extinguisher = &v[0] if v.shape[0] else NULL
    a.n_v_extinguisher = v.shape[0]
    v = arrays["v_can_explode"]
    a.v_can_explode = &v[0] if v.shape[0] else NULL
    a.n_v_can_explode = v.shape[0]
    v = arrays["v_burning"]
    a.v_burning = &v[0] if v.shape[0] else NULL
    a.n_v_burning = v.shape[0]
    v = arrays["v_is_car"]
    a.v_is_car = &v[0] if v.shape[0] else NULL
    a.n_v_is_car = v.shape[0]
    v = arrays["w_slot"]
    a.w_slot = &v[0] if v.shape[0] else NULL
    a.n_w_slot = v.shape[0]
    v = arrays["w_mount"]
    a.w_mount = &v[0] if v.shape[0] else NULL
    a.n_w_mount = v.shape[0]
    v = arrays["w_sidecar"]
    a.w_sidecar = &v[0] if v.shape[0] else NULL
    a.n_w_sidecar = v.shape[0]
    v = arrays["w_fiery"]
    a.w_fiery = &v[0] if v.shape[0] else NULL
    a.n_w_fiery = v.shape[0]
    v = arrays["c_hits"]
    a.c_hits = &v[0] if v.shape[0] else NULL
    a.n_c_hits = v.shape[0]
    v = arrays["c_ba"]
    a.c_ba = &v[0] if v.shape[0] else NULL
    a.n_c_ba = v.shape[0]
    v = arrays["c_sidecar"]
    a.c_sidecar = &v[0] if v.shape[0] else NULL
    a.n_c_sidecar = v.shape[0]
    v = arrays["k_slot"]
    a.k_slot = &v[0] if v.shape[0] else NULL
    a.n_k_slot = v.shape[0]
    v = arrays["k_sidecar"]
    a.k_sidecar = &v[0] if v.shape[0] else NULL
    a.n_k_sidecar = v.shape[0]
    v = arrays["t_slot"]
    a.t_slot = &v[0] if v.shape[0] else NULL
    a.n_t_slot = v.shape[0]
    v = arrays["t_pos"]
    a.t_pos = &v[0] if v.shape[0] else NULL
    a.n_t_pos = v.shape[0]
    v = arrays["t_sidecar"]
    a.t_sidecar = &v[0] if v.shape[0] else NULL
    a.n_t_sidecar = v.shape[0]
    v = arrays["p_hits"]
    a.p_hits = &v[0] if v.shape[0] else NULL
    a.n_p_hits = v.shape[0]
    v = arrays["p_ba"]
    a.p_ba = &v[0] if v.shape[0] else NULL
    a.n_p_ba = v.shape[0]
    v = arrays["cyc"]
    a.cyc = &v[0] if v.shape[0] else NULL
    a.n_cyc = v.shape[0]
    if v.shape[0] != CYC_LEN:
        return -1
    v = arrays["consts"]
    a.consts = &v[0] if v.shape[0] else NULL
    a.n_consts = v.shape[0]
    if v.shape[0] != K_LEN:
        return -1
    v = arrays["fc"]
    a.fc = &v[0] if v.shape[0] else NULL
    a.n_fc = v.shape[0]
    if v.shape[0] != F_LEN:
        return -1
    v = arrays["crash_out"]
    a.crash_out = &v[0] if v.shape[0] else NULL
    a.n_crash_out = v.shape[0]
    v = arrays["prob36"]
    a.prob36 = &v[0] if v.shape[0] else NULL
    a.n_prob36 = v.shape[0]
    v = arrays["u_side"]
    a.u_side = &v[0] if v.shape[0] else NULL
    a.n_u_side = v.shape[0]
    v = arrays["w_key"]
    a.w_key = &v[0] if v.shape[0] else NULL
    a.n_w_key = v.shape[0]
    v = arrays["w_shots"]
    a.w_shots = &v[0] if v.shape[0] else NULL
    a.n_w_shots = v.shape[0]
    v = arrays["w_ammo0"]
    a.w_ammo0 = &v[0] if v.shape[0] else NULL
    a.n_w_ammo0 = v.shape[0]
    v = arrays["w_usable"]
    a.w_usable = &v[0] if v.shape[0] else NULL
    a.n_w_usable = v.shape[0]
    v = arrays["c_takeover"]
    a.c_takeover = &v[0] if v.shape[0] else NULL
    a.n_c_takeover = v.shape[0]
    v = arrays["c_hand"]
    a.c_hand = &v[0] if v.shape[0] else NULL
    a.n_c_hand = v.shape[0]
    v = arrays["hand0"]
    a.hand0 = &v[0] if v.shape[0] else NULL
    a.n_hand0 = v.shape[0]
    m = arrays["ent"]
    a.ent = &m[0, 0] if m.shape[0] and m.shape[1] else NULL
    a.n_ent = m.shape[0]
    a.w_ent = m.shape[1]
    if m.shape[0] and m.shape[1] != ENT_NCOLS:
        return -1
    v = arrays["tp_lo"]
    a.tp_lo = &v[0] if v.shape[0] else NULL
    a.n_tp_lo = v.shape[0]
    m = arrays["fir"]
    a.fir = &m[0, 0] if m.shape[0] and m.shape[1] else NULL
    a.n_fir = m.shape[0]
    a.w_fir = m.shape[1]
    if m.shape[0] and m.shape[1] != FIR_NCOLS:
        return -1
    m = arrays["cand"]
    a.cand = &m[0, 0] if m.shape[0] and m.shape[1] else NULL
    a.n_cand = m.shape[0]
    a.w_cand = m.shape[1]
    if m.shape[0] and m.shape[1] != CAND_NCOLS:
        return -1
    m = arrays["fcol"]
    a.fcol = &m[0, 0] if m.shape[0] and m.shape[1] else NULL
    a.n_fcol = m.shape[0]
    a.w_fcol = m.shape[1]
    if m.shape[0] and m.shape[1] != FCOL_NCOLS:
        return -1
    v = arrays["col_lo"]
    a.col_lo = &v[0] if v.shape[0] else NULL
    a.n_col_lo = v.shape[0]
    m = arrays["near_v"]
    a.near_v = &m[0, 0] if m.shape[0] and m.shape[1] else NULL
    a.n_near_v = m.shape[0]
    a.w_near_v = m.shape[1]
    m = arrays["near_p"]
    a.near_p = &m[0, 0] if m.shape[0] and m.shape[1] else NULL
    a.n_near_p = m.shape[0]
    a.w_near_p = m.shape[1]
    v = arrays["moving_end"]
    a.moving_end = &v[0] if v.shape[0] else NULL
    a.n_moving_end = v.shape[0]
    m = arrays["ocon"]
    a.ocon = &m[0, 0] if m.shape[0] and m.shape[1] else NULL
    a.n_ocon = m.shape[0]
    a.w_ocon = m.shape[1]
    if m.shape[0] and m.shape[1] != OCON_NCOLS:
        return -1
    v = arrays["known_unc"]
    a.known_unc = &v[0] if v.shape[0] else NULL
    a.n_known_unc = v.shape[0]
    v = arrays["ocon_lo"]
    a.ocon_lo = &v[0] if v.shape[0] else NULL
    a.n_ocon_lo = v.shape[0]
    m = arrays["drop"]
    a.drop = &m[0, 0] if m.shape[0] and m.shape[1] else NULL
    a.n_drop = m.shape[0]
    a.w_drop = m.shape[1]
    if m.shape[0] and m.shape[1] != DROP_NCOLS:
        return -1
    v = arrays["drop_lo"]
    a.drop_lo = &v[0] if v.shape[0] else NULL
    a.n_drop_lo = v.shape[0]
    v = arrays["v_off"]
    a.v_off = &v[0] if v.shape[0] else NULL
    a.n_v_off = v.shape[0]
    v = arrays["t_immune"]
    a.t_immune = &v[0] if v.shape[0] else NULL
    a.n_t_immune = v.shape[0]
    m = arrays["offr"]
    a.offr = &m[0, 0] if m.shape[0] and m.shape[1] else NULL
    a.n_offr = m.shape[0]
    a.w_offr = m.shape[1]
    if m.shape[0] and m.shape[1] != OFFR_NCOLS:
        return -1
    v = arrays["offr_lo"]
    a.offr_lo = &v[0] if v.shape[0] else NULL
    a.n_offr_lo = v.shape[0]
    m = arrays["brst"]
    a.brst = &m[0, 0] if m.shape[0] and m.shape[1] else NULL
    a.n_brst = m.shape[0]
    a.w_brst = m.shape[1]
    if m.shape[0] and m.shape[1] != BRST_NCOLS:
        return -1
    v = arrays["rec0"]
    a.rec0 = &v[0] if v.shape[0] else NULL
    a.n_rec0 = v.shape[0]
    v = arrays["fring0"]
    a.fring0 = &v[0] if v.shape[0] else NULL
    a.n_fring0 = v.shape[0]
    v = arrays["crash0"]
    a.crash0 = &v[0] if v.shape[0] else NULL
    a.n_crash0 = v.shape[0]
    v = arrays["hand_eq"]
    a.hand_eq = &v[0] if v.shape[0] else NULL
    a.n_hand_eq = v.shape[0]
    v = arrays["obs_met"]
    a.obs_met = &v[0] if v.shape[0] else NULL
    a.n_obs_met = v.shape[0]
    return 0
