"""Generated from fastcore/layout.toml by `python -m hardpoint.carwars.kernel_layout`: do not edit."""

# side
FRONT = 0
BACK = 1
LEFT = 2
RIGHT = 3
TOP = 4
UNDERBODY = 5
TURRET = 6

# part
P_SIDE = 0
P_TIRE = 1
P_TURRET = 2
P_RIDER = 3
P_SIDECAR = 4
P_TOP = 5
P_SIDE_SC = 6

# item
I_WEAPON = 0
I_CREW = 1
I_CARGO = 2
I_PP = 3
I_TIRE = 4
I_CARGO_LOC = 5

# tire
TIRE_FRONT = 0
TIRE_BACK = 1
TIRE_FRONT_LEFT = 2
TIRE_FRONT_RIGHT = 3
TIRE_BACK_LEFT = 4
TIRE_BACK_RIGHT = 5
TIRE_SIDECAR = 6

# kind
KIND_CAR = 0
KIND_CYCLE = 1
KIND_TRIKE = 2

# location
LOC_CREW = 0
LOC_POWER_PLANT = 1
LOC_CARGO = 2

# extinguisher
EXT_NONE = 0
EXT_STANDARD = 1
EXT_IMPROVED = 2
EXT_PORTABLE = 3

# target
TGT_VEHICLE = 0
TGT_PEDESTRIAN = 1
TGT_BUILDING = 2

# choose
CHOOSE_NEAREST = 0
CHOOSE_BEST_ODDS = 1
CHOOSE_PLANNED = 2
CHOOSE_AUTOMATIC = 3
CHOOSE_LINK = 4
CHOOSE_MEMBER = 5
CHOOSE_AREA = 6

# contact
CONTACT_DAMAGE = 0
CONTACT_FIRE = 1
CONTACT_TRIGGER = 2

# drop
DR_ACTION = 0
DR_MEMBER = 1
DR_AUTO = 2
DR_SWITCH = 3
DR_DETONATE = 4
DR_SUBSTITUTE = 5
DR_FETCH = 6
DR_BOX = 7

# rows.atk
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
AFIR_SLOT = 0
AFIR_NEEDED = 1
AFIR_NEEDED_WOUNDED = 2
AFIR_OK = 3
AFIR_NCOLS = 4

# rows.col
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
BRST_PED = 0
BRST_COUNT = 1
BRST_BONUS = 2
BRST_FLOOR = 3
BRST_NCOLS = 4

# rows.ent
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
FIR_CHARACTER = 0
FIR_CAND_LO = 1
FIR_CAND_HI = 2
FIR_NCOLS = 3

# rows.fcol
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
OFFR_TURN = 0
OFFR_VEHICLE = 1
OFFR_ROLLS = 2
OFFR_HIGH = 3
OFFR_NCOLS = 4

# vectors.consts
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

# column names, in order (lower case), per row kind; names per vector
ATK_COLUMNS = ("needed", "possible", "dmg_count", "dmg_bonus", "dmg_hits", "kind", "index", "part", "side", "tire", "mode", "fire_mod", "fiery", "phase", "weapon_slot", "firer_slot", "needed_wounded", "cancelled", "area_place", "area_victims", "area_rank", "area_full", "burst_lo", "burst_hi", "fir_lo", "fir_hi",)
AFIR_COLUMNS = ("slot", "needed", "needed_wounded", "ok",)
COL_COLUMNS = ("vehicle", "count", "bonus", "floor", "num", "den", "side", "phase",)
CAND_COLUMNS = ("unit", "needed", "dmg_count", "dmg_bonus", "dmg_hits", "kind", "index", "part", "side", "tire", "mode", "fire_mod", "fiery", "possible", "burn", "burst_lo", "burst_hi",)
BRST_COLUMNS = ("ped", "count", "bonus", "floor",)
ENT_COLUMNS = ("tp", "unit", "wkey", "weapon", "ped", "fir_lo", "fir_hi", "choose", "atk", "link", "shot", "rank", "hand", "min36",)
FIR_COLUMNS = ("character", "cand_lo", "cand_hi",)
FCOL_COLUMNS = ("index", "count", "bonus", "floor", "num", "den", "side", "tp", "is_ped",)
OCON_COLUMNS = ("tp", "vehicle", "kind", "a", "b", "c", "part", "side", "tire", "armed", "half", "counter",)
DROP_COLUMNS = ("tp", "kind", "weapon", "wkey", "driver", "assumed", "fact", "counter", "water", "crew", "slot", "room",)
OFFR_COLUMNS = ("turn", "vehicle", "rolls", "high",)
CONSTS_NAMES = ("metal_factor", "cap_num", "cap_den", "obstacle_hits", "fire_hit_hi", "fire_hit_fiery_hi", "ext_standard_hi", "ext_improved_hi", "ext_portable_hi", "explode_hi", "natural_miss", "max_needed", "area_divisor", "fire_hit_lo", "fire_hit_fiery_lo", "ext_standard_lo", "ext_improved_lo", "ext_portable_lo", "explode_lo", "fire_damage", "blast_count", "blast_bonus", "blast_floor",)
CYC_NAMES = ("end_armour_lo", "end_armour_hi", "end_wheel_lo", "end_wheel_hi", "side_driver_lo", "side_driver_hi", "side_pp_lo", "side_pp_hi", "side_weapon_lo", "side_weapon_hi", "sidecar_lo", "sidecar_hi", "trike_wheel_lo", "trike_wheel_hi",)
FC_NAMES = ("t", "p", "until", "wpen", "nm", "maxn", "sf2", "sf3", "nodriver", "noweapon", "destroyed", "crashed", "peddown", "sides", "counters", "first", "off_count", "off_bonus", "off_floor", "off_ub_lo", "off_ub_hi", "off_t_lo", "off_t_hi", "off_points", "water_lo", "water_hi", "water_count", "water_bonus", "water_floor", "fire_ring", "hands", "fetch_hand",)

# the arrays each kernel takes (the keys of the mapping passed to it)
PHASE_ARRAYS = ("init", "v_armour", "v_pp", "v_kind", "v_reversed", "v_turret", "v_rolled", "v_metal", "v_layout", "v_sc_side", "v_sc_spaces", "v_sc_armour", "v_w0", "v_w1", "v_c0", "v_c1", "v_k0", "v_k1", "v_t0", "v_t1", "v_driver", "v_cycle_rider", "v_fireproof", "v_extinguisher", "v_can_explode", "v_burning", "v_is_car", "w_slot", "w_mount", "w_sidecar", "w_fiery", "c_hits", "c_ba", "c_sidecar", "k_slot", "k_sidecar", "t_slot", "t_pos", "t_sidecar", "p_hits", "p_ba", "cyc", "consts", "col", "atk", "near_v", "near_p", "brst", "afir", "fire0",)
FIGHT_ARRAYS = ("init", "v_armour", "v_pp", "v_kind", "v_reversed", "v_turret", "v_rolled", "v_metal", "v_layout", "v_sc_side", "v_sc_spaces", "v_sc_armour", "v_w0", "v_w1", "v_c0", "v_c1", "v_k0", "v_k1", "v_t0", "v_t1", "v_driver", "v_cycle_rider", "v_fireproof", "v_extinguisher", "v_can_explode", "v_burning", "v_is_car", "w_slot", "w_mount", "w_sidecar", "w_fiery", "c_hits", "c_ba", "c_sidecar", "k_slot", "k_sidecar", "t_slot", "t_pos", "t_sidecar", "p_hits", "p_ba", "cyc", "consts", "fc", "crash_out", "prob36", "u_side", "w_key", "w_shots", "w_ammo0", "w_usable", "c_takeover", "c_hand", "hand0", "ent", "tp_lo", "fir", "cand", "fcol", "col_lo", "near_v", "near_p", "moving_end", "ocon", "known_unc", "ocon_lo", "drop", "drop_lo", "v_off", "t_immune", "offr", "offr_lo", "brst", "rec0", "fring0", "crash0", "hand_eq", "obs_met",)
