# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled Car Wars phase: hit resolution and damage propagation for N trials (ARCH-03, FAST-01).

Must agree bit for bit with the reference: `hardpoint.carwars.phase.resolve_phase`
(collisions, attacks in declaration order, all damage at the end of the phase,
driver consequences) and, with `end_of_turn`, `hardpoint.carwars.fire.end_of_turn_fire`.
Every die comes from the counter-based generator of hp_dice.h, drawn in the
reference's order, so trial t gives the same result as
`scenario.resolve(SeededDice(seed, trial=t))`.

The wrapper (`hardpoint.carwars.batch`) packs a scenario into flat int32 arrays
whose layout (row columns, codes, the arrays each kernel reads) is declared in
fastcore/layout.toml and generated into _layout.pxi; each kernel takes one
mapping of them and fills an `Arrays` struct. This module never touches Python
objects inside the trial loop, which runs without the GIL.

Each kernel is a thin `def` (the checks, the scratch, the trial loop) over one
`cdef inline` function per mechanic, each naming the rule ids it implements and
the reference function it mirrors, as the reference does: run_phase's phase_*
(phase_trial: collisions, attacks, damage, consequences, fire), run_fight's
fight_* (fight_turns, fight_phase: drops, contacts, order_attacks, the combat,
the end of the turn). What both share is below them in this file (the damage
code of hardpoint.carwars.damage and collision, the fire, the entry checks) and
in _cwcore.pxd (the context `Ctx`, the run structs `PhaseRun` and `FightRun`,
the dice and the small helpers every mechanic calls). The context and the run
structs are passed by pointer and the mechanics compile into the kernels'
loops: run_phase's into its trial loop, run_fight's into fight_turns, one call
a trial (docs/performance.md: fewer instructions a trial than the single loop).
"""
from libc.stdint cimport uint64_t, int32_t, int64_t, uint8_t, int16_t, int8_t, INT32_MIN
from libc.string cimport memcpy, memset

from _cwcore cimport (
    Ctx, VehicleState, PhaseRun, FightRun, MAX_PICK, NL, L_MOUNT, L_LOC, L_VERTICAL, L_CYCLE_W, L_CYCLE_T, L_SIDECAR, L_INTERIOR,
    hp_stream_key, hp_face, die, skip, roll, fill_pick_tab, pick, to_hit, damage_roll, area_each, collision_hits,
    put, dmg_slot, crew_state, put_out, vbit, note_fire, hand_hits, add_fire, streak_of, sustained,
    list_kind, list_idx, list_len, carve_vehicles)

import numpy as np

include "_layout.pxi"

# the context (Ctx), the dice (die, roll, pick), the writes of the state (put, dmg_slot) and the small helpers both
# kernels call are in _cwcore.pxd; the pick lists' numbers (NL, L_*) and MAX_PICK too

DEF MAXI = 128
DEF MAX_LOAD = 1000         # the most grenade-equivalents a FETCH's ROOM or a hand_eq holds (checked on entry)
DEF MAX_DICE = 10000       # the most dice one roll of a packed row or figure throws (checked on entry: never a hang)
DEF MAX_VEHICLES = 16384   # the largest arena either kernel takes (scratch is sized to the scenario, on the heap)
DEF MAX_ATTACKS = 65536    # attack rows of one turn (run_phase)

fill_pick_tab()


# --- damage (hardpoint.carwars.damage) ---------------------------------------------------------------------------

cdef int dmg_weapon(Ctx* c, int v, int w, int hits) noexcept nogil:
    """damage.damage_component on weapon w of vehicle v (CW-DMG-01/05); a fiery weapon's hit on a component not
    yet destroyed may start a fire (note_fire, CW-FIRE-02). Returns the hits left."""
    cdef int before = c.st[c.w_slot[w]]
    cdef int rest = dmg_slot(c, c.w_slot[w], hits)
    if before > 0 and hits > 0 and c.w_fiery[w]:
        note_fire(c, v)
    return rest


cdef int dmg_pp(Ctx* c, int v, int hits) noexcept nogil:
    """damage.damage_component on vehicle v's power plant (CW-DMG-01/05; none: all pass on); a hit on it while it
    works may start a fire (note_fire, CW-FIRE-02). Returns the hits left."""
    cdef int slot = c.v_pp[v]
    cdef int before
    if slot < 0:
        return hits
    before = c.st[slot]
    cdef int rest = dmg_slot(c, slot, hits)
    if before > 0 and hits > 0:
        note_fire(c, v)
    return rest


cdef int dmg_crew(Ctx* c, int ci, int hits) noexcept nogil:
    """damage.damage_crew (CW-CREW-01): body armour first, then up to 3 hits (wounded, unconscious, dead); the
    rest passes on (CW-DMG-05)."""
    cdef int rest = hits, taken
    cdef int ba = c.st[c.c_ba[ci]]
    cdef int h = c.st[c.c_hits[ci]]
    if ba > 0 and rest > 0:
        taken = ba if ba < rest else rest
        put(c, c.c_ba[ci], ba - taken)
        rest -= taken
    if rest > 0:
        taken = 3 - h
        if taken < 0:
            taken = 0
        if taken > rest:
            taken = rest
        put(c, c.c_hits[ci], h + taken)
        rest -= taken
    return rest


cdef int dmg_item(Ctx* c, int v, int kind, int idx, int hits) noexcept nogil:
    """damage.damage_component / damage_crew on one item of a pick list, by its kind (CW-DMG-01/05, CW-CREW-01); the
    cargo location: one of its items (CW-DMG-04). Returns the hits left."""
    if kind == I_WEAPON:
        return dmg_weapon(c, v, idx, hits)
    if kind == I_CREW:
        return dmg_crew(c, idx, hits)
    if kind == I_CARGO:
        return dmg_slot(c, c.k_slot[idx], hits)
    if kind == I_PP:
        return dmg_pp(c, v, hits)
    if kind == I_TIRE:
        return dmg_slot(c, c.t_slot[idx], hits)
    if kind == I_CARGO_LOC:
        return pick_location_item(c, v, LOC_CARGO, hits)
    return hits


cdef int pick_from(Ctx* c, int v, int which, int hits) noexcept nogil:
    """damage._pick_and_damage (CW-DMG-02/05): one item of vehicle v's list `which`, picked at random (CW-DMG-03's
    random_pick), destroyed ones included, takes the hits."""
    cdef int n = list_len(c, v, which), j
    if n == 0 or hits <= 0:
        return hits
    j = pick(c, n)
    return dmg_item(c, v, list_kind(c, v, which)[j], list_idx(c, v, which)[j], hits)


cdef int pick_weapon(Ctx* c, int v, int which, int hits) noexcept nogil:
    """pick_from over a list of weapons only (CW-DMG-02/05; a branch of its own, not dmg_item's on the kind)."""
    cdef int n = list_len(c, v, which)
    if n == 0 or hits <= 0:
        return hits
    return dmg_weapon(c, v, list_idx(c, v, which)[pick(c, n)], hits)


cdef int pick_weapon_on(Ctx* c, int v, int mount, int hits) noexcept nogil:
    """damage._weapons_on picked from (CW-DMG-02..04): one body weapon on `mount` takes the hits."""
    return pick_weapon(c, v, L_MOUNT + mount, hits)


cdef int pick_location_item(Ctx* c, int v, int loc, int hits) noexcept nogil:
    """damage._location_items picked from (CW-DMG-02/03, CW-VEH-04): one item of location `loc` takes the hits."""
    return pick_from(c, v, L_LOC + loc, hits)


cdef inline int opposite(int side) noexcept nogil:
    """The far side of a shot through the vehicle (CW-DMG-02..04): front and back, left and right, top and underbody."""
    if side == FRONT:
        return BACK
    if side == BACK:
        return FRONT
    if side == LEFT:
        return RIGHT
    if side == RIGHT:
        return LEFT
    if side == TOP:
        return UNDERBODY
    return TOP


cdef int layout_len(Ctx* c, int v) noexcept nogil:
    """The internal locations of vehicle v's layout (CW-VEH-04: crew, power plant, cargo; -1 none)."""
    cdef int n = 0, i
    for i in range(3):
        if c.v_layout[v * 3 + i] >= 0:
            n += 1
    return n


cdef int penetrate_end(Ctx* c, int v, int side, int hits) noexcept nogil:
    """damage.penetrate_end (CW-DMG-02): from the front or back: that armour, one weapon on it, one item of each
    location in turn (front to back, or back to front), one weapon on the far end, the far armour."""
    cdef int far = opposite(side), i, n = layout_len(c, v), loc
    hits = dmg_slot(c, c.v_armour[v] + side, hits)
    hits = pick_weapon_on(c, v, side, hits)
    for i in range(n):
        if hits <= 0:
            break
        loc = c.v_layout[v * 3 + i] if side == FRONT else c.v_layout[v * 3 + n - 1 - i]
        hits = pick_location_item(c, v, loc, hits)
    hits = pick_weapon_on(c, v, far, hits)
    return dmg_slot(c, c.v_armour[v] + far, hits)


cdef int penetrate_flank(Ctx* c, int v, int side, int hits) noexcept nogil:
    """damage.penetrate_flank (CW-DMG-03): from a side: that armour, one weapon on it, ONE internal location at
    random and one of its items, one weapon on the far side, the far armour."""
    cdef int far = opposite(side), n = layout_len(c, v), loc
    hits = dmg_slot(c, c.v_armour[v] + side, hits)
    hits = pick_weapon_on(c, v, side, hits)
    if hits > 0 and n > 0:
        loc = c.v_layout[v * 3 + pick(c, n)]
        hits = pick_location_item(c, v, loc, hits)
    hits = pick_weapon_on(c, v, far, hits)
    return dmg_slot(c, c.v_armour[v] + far, hits)


cdef int vertical_pick(Ctx* c, int v, int hits) noexcept nogil:
    """damage._vertical_pick (CW-DMG-04, RULING): the power plant, a crew member or the cargo location, picked at
    random."""
    return pick_from(c, v, L_VERTICAL, hits)


cdef int penetrate_vertical(Ctx* c, int v, int side, int hits) noexcept nogil:
    """damage.penetrate_vertical (CW-DMG-04): from below, the underbody armour, one of the power plant, a crew
    member and the cargo (vertical_pick), one turret weapon, the top armour; from above, the same from the top."""
    if side == UNDERBODY:
        hits = dmg_slot(c, c.v_armour[v] + UNDERBODY, hits)
        hits = vertical_pick(c, v, hits)
        hits = pick_weapon_on(c, v, TURRET, hits)
        return dmg_slot(c, c.v_armour[v] + TOP, hits)
    hits = dmg_slot(c, c.v_armour[v] + TOP, hits)
    hits = pick_weapon_on(c, v, TURRET, hits)
    hits = vertical_pick(c, v, hits)
    return dmg_slot(c, c.v_armour[v] + UNDERBODY, hits)


cdef int damage_turret(Ctx* c, int v, int hits) noexcept nogil:
    """damage.damage_turret (CW-DMG-04): a targeted turret: the top armour, then one turret weapon."""
    hits = dmg_slot(c, c.v_armour[v] + TOP, hits)
    return pick_weapon_on(c, v, TURRET, hits)


cdef inline int find_tire(Ctx* c, int v, int pos) noexcept nogil:
    """The body's front (pos 0) or back (1) tire of vehicle v, or -1 (ctx_lists): a cycle's or trike's end wheel
    (CW-TGT-04/06)."""
    return c.tire_at[v * 2 + pos]


cdef int cycle_hit_location(Ctx* c, int v, int side, int hits) noexcept nogil:
    """damage.cycle_hit_location (CW-TGT-04): from the front or back, 2d6 in the wheel's band that wheel,
    else that armour (the rest, if it is gone, to the side table); the side table's 2d6: the rider, the power plant,
    a weapon (none: roll again) or a tire."""
    cdef int r, wheel, n
    if side == FRONT or side == BACK:
        r = roll(c, 2, 0, 0)
        if c.cyc[2] <= r <= c.cyc[3]:
            wheel = find_tire(c, v, 0 if side == FRONT else 1)
            if wheel < 0:
                return hits
            return dmg_slot(c, c.t_slot[wheel], hits)
        hits = dmg_slot(c, c.v_armour[v] + side, hits)
        if hits <= 0:
            return 0
    while True:
        r = roll(c, 2, 0, 0)
        if c.cyc[4] <= r <= c.cyc[5]:
            if c.v_cycle_rider[v] < 0:
                return hits
            return dmg_crew(c, c.v_cycle_rider[v], hits)
        if c.cyc[6] <= r <= c.cyc[7]:
            return dmg_pp(c, v, hits)
        if c.cyc[8] <= r <= c.cyc[9]:
            if list_len(c, v, L_CYCLE_W) == 0:
                continue
            return pick_weapon(c, v, L_CYCLE_W, hits)
        n = list_len(c, v, L_CYCLE_T)
        if n == 0 or hits <= 0:
            return hits
        return dmg_slot(c, c.t_slot[list_idx(c, v, L_CYCLE_T)[pick(c, n)]], hits)


cdef inline int sc_armour_slot(Ctx* c, int v, int side) noexcept nogil:
    """The slot of a sidecar's armour on `side` (CW-TGT-05; its order: front, back, left, right, underbody)."""
    # sidecar armour order: front, back, left, right, underbody
    if side == UNDERBODY:
        return c.v_sc_armour[v] + 4
    return c.v_sc_armour[v] + side


cdef int sidecar_hit(Ctx* c, int v, int side, int hits) noexcept nogil:
    """damage.sidecar_hit (CW-TGT-05): the sidecar as a small car: that side's armour, then one of its weapons, riders
    and cargo; the rest passes out."""
    hits = dmg_slot(c, sc_armour_slot(c, v, side), hits)
    pick_from(c, v, L_SIDECAR, hits)
    return 0


cdef int trike_end_hit(Ctx* c, int v, int side, int hits) noexcept nogil:
    """damage.trike_end_hit (CW-TGT-06): a hit on a trike's single-wheel end: 2d6 in the band that wheel (the rest
    lost), else penetrate_end."""
    cdef int r = roll(c, 2, 0, 0), wheel
    if c.cyc[12] <= r <= c.cyc[13]:
        wheel = find_tire(c, v, 0 if side == FRONT else 1)
        if wheel >= 0:
            dmg_slot(c, c.t_slot[wheel], hits)
        return 0
    return penetrate_end(c, v, side, hits)


cdef void apply_shot(Ctx* c, int v, int part, int side, int tire, int hits) noexcept nogil:
    """hardpoint.carwars.damage.apply_shot: one hit's damage to vehicle v by body and aim (CW-DMG-01..05,
    CW-TGT-04..07): a tire, the turret, a cycle's rider, a sidecar, or a side (the top; the side on the ground is the
    underbody, CW-VEH-05): a cycle (its sidecar's share, CW-TGT-05), a trike's wheel end (CW-TGT-06), or a car's
    end, flank or top and underbody. Counts the hits taken (CW-DMG-08)."""
    cdef int rest, r, wheel_end, sc_side = 0
    c.taken[v] += hits
    if hits <= 0:
        return
    if part == P_SIDE_SC:
        sc_side = 1
        part = P_SIDE
    if part == P_TIRE:
        dmg_slot(c, c.t_slot[tire], hits)
        return
    if part == P_TURRET or (part == P_TOP and c.v_kind[v] == KIND_TRIKE and c.v_turret[v]):
        damage_turret(c, v, hits)
        return
    if part == P_RIDER:
        if c.v_cycle_rider[v] >= 0:
            dmg_crew(c, c.v_cycle_rider[v], hits)
        return
    if part == P_SIDECAR:
        sidecar_hit(c, v, side if side >= 0 else RIGHT, hits)
        return
    if part == P_TOP:
        side = TOP
    if c.v_rolled[v] >= 0 and side == c.v_rolled[v]:
        side = UNDERBODY
    if c.v_kind[v] == KIND_CYCLE:
        if c.v_sc_side[v] >= 0 and (side == c.v_sc_side[v] or sc_side):
            r = die(c)
            if c.cyc[10] <= r <= c.cyc[11]:
                sidecar_hit(c, v, side, hits)
                return
        rest = cycle_hit_location(c, v, side, hits)
        if rest > 0 and (side == LEFT or side == RIGHT) and c.v_sc_side[v] == opposite(side):
            r = die(c)
            if r <= c.v_sc_spaces[v]:
                sidecar_hit(c, v, side, rest)
        return
    wheel_end = BACK if c.v_reversed[v] else FRONT
    if c.v_kind[v] == KIND_TRIKE and side == wheel_end:
        trike_end_hit(c, v, side, hits)
    elif side == FRONT or side == BACK:
        penetrate_end(c, v, side, hits)
    elif side == LEFT or side == RIGHT:
        penetrate_flank(c, v, side, hits)
    else:
        penetrate_vertical(c, v, side, hits)


# --- collisions (hardpoint.carwars.collision) -----------------------------------------------

cdef int capacity(Ctx* c, int kind, int idx, int v) noexcept nogil:
    """collision._capacity (CW-COL-01): the hits item `kind` `idx` of vehicle v can still absorb."""
    if kind == I_CREW:
        return c.st[c.c_ba[idx]] + (3 - c.st[c.c_hits[idx]] if c.st[c.c_hits[idx]] < 3 else 0)
    if kind == I_WEAPON:
        return c.st[c.w_slot[idx]]
    if kind == I_CARGO:
        return c.st[c.k_slot[idx]]
    if kind == I_PP:
        return c.st[c.v_pp[v]] if c.v_pp[v] >= 0 else 0
    return 0


cdef void extra_points(Ctx* c, int m, int extra, int* bonus) noexcept nogil:
    """CW-COL-01: the remainder of an even split, one point each to `extra` distinct random members of m
    (the reference pops each pick from a pool of the indices still free)."""
    cdef int pool[MAXI]
    cdef int i, e, p = m
    for i in range(m):
        pool[i] = i
        bonus[i] = 0
    for e in range(extra):
        i = pick(c, p)
        bonus[pool[i]] = 1
        while i < p - 1:
            pool[i] = pool[i + 1]
            i += 1
        p -= 1


cdef int collision_split(Ctx* c, int v, int32_t* kinds, int32_t* idxs, int n, int hits) noexcept nogil:
    """collision.collision_split (CW-COL-01): the hits split evenly among a layer's items that can absorb any, the
    remainder one point each to distinct random ones (extra_points); what an item cannot absorb is split again
    among the layer's survivors. Returns what exceeds the layer."""
    cdef int remaining = hits, m, i, share, overflow, give
    cdef int ak[MAXI]
    cdef int ai[MAXI]
    cdef int bonus[MAXI]
    m = 0
    for i in range(n):
        if capacity(c, kinds[i], idxs[i], v) > 0:
            ak[m] = kinds[i]
            ai[m] = idxs[i]
            m += 1
    while remaining > 0 and m > 0:
        share = remaining // m
        extra_points(c, m, remaining % m, bonus)
        overflow = 0
        for i in range(m):
            give = share + bonus[i]
            if give:
                overflow += dmg_item(c, v, ak[i], ai[i], give)
        remaining = overflow
        n = m
        m = 0
        for i in range(n):
            if capacity(c, ak[i], ai[i], v) > 0:
                ak[m] = ak[i]
                ai[m] = ai[i]
                m += 1
    return remaining


cdef int armour_layer(Ctx* c, int v, int side, int hits, int factor, int cap_num, int cap_den) noexcept nogil:
    """collision._armour_layer / metal_armour_absorb (CW-COL-02): plastic armour as damage_armour; metal stops up to
    `factor` times its value, losing a point per `factor` absorbed (rounded up), never more than cap_num / cap_den
    of the side (rounded up). Returns the hits that go inward."""
    cdef int before, absorbed, loss, cap
    if not c.v_metal[v]:
        return dmg_slot(c, c.v_armour[v] + side, hits)
    before = c.st[c.v_armour[v] + side]
    absorbed = hits if hits < factor * before else factor * before
    loss = (absorbed + factor - 1) // factor
    cap = (before * cap_num + cap_den - 1) // cap_den
    if loss > cap:
        loss = cap
    if absorbed:
        put(c, c.v_armour[v] + side, before - loss)
    return hits - absorbed


cdef inline int split_over(Ctx* c, int v, int which, int hits) noexcept nogil:
    """collision_split over vehicle v's list `which` (CW-COL-01)."""
    return collision_split(c, v, list_kind(c, v, which), list_idx(c, v, which), list_len(c, v, which), hits)


cdef void collision_damage(Ctx* c, int v, int side, int hits, int factor, int cap_num, int cap_den) noexcept nogil:
    """collision.collision_damage (CW-COL-03): a collision's hits on vehicle v's side, layer by layer: the armour
    (armour_layer), then from the top or underbody the interior and the turret's weapons, from an end the weapons
    on it and each location in turn, from a side the weapons on it and the locations split evenly (_split_locations);
    the far side's weapons and armour. Counts the hits taken (CW-DMG-08)."""
    cdef int far = opposite(side), i, L, loc, share, through, give, j
    cdef int bonus[MAXI]
    cdef int locs[3]
    c.taken[v] += hits
    hits = armour_layer(c, v, side, hits, factor, cap_num, cap_den)
    if side == TOP or side == UNDERBODY:
        # interior: power plant, crew, cargo as one layer; and the turret weapons
        for j in range(2):
            hits = split_over(c, v, L_INTERIOR if (j == 0) == (side == UNDERBODY) else L_MOUNT + TURRET, hits)
    else:
        hits = split_over(c, v, L_MOUNT + side, hits)
        L = layout_len(c, v)
        if side == FRONT or side == BACK:
            for i in range(L):
                loc = c.v_layout[v * 3 + i] if side == FRONT else c.v_layout[v * 3 + L - 1 - i]
                hits = split_over(c, v, L_LOC + loc, hits)
        elif hits > 0 and L > 0:
            share = hits // L
            extra_points(c, L, hits % L, bonus)
            for i in range(L):
                locs[i] = c.v_layout[v * 3 + i]
            through = 0
            for i in range(L):
                give = share + bonus[i]
                if give:
                    through += split_over(c, v, L_LOC + locs[i], give)
            hits = through
        hits = split_over(c, v, L_MOUNT + far, hits)
    armour_layer(c, v, far, hits, factor, cap_num, cap_den)


cdef void dmg_ped(Ctx* c, int hits_slot, int ba_slot, int hits) noexcept nogil:
    """hardpoint.carwars.crew.damage_pedestrian (CW-CREW-01): body armour first, then up to 3 hits."""
    cdef int f
    cdef int32_t* st = c.st
    if st[ba_slot] > 0:
        f = st[ba_slot] if st[ba_slot] < hits else hits
        put(c, ba_slot, st[ba_slot] - f)
        hits -= f
    f = 3 - st[hits_slot]
    if f < 0:
        f = 0
    if f > hits:
        f = hits
    if f:
        put(c, hits_slot, st[hits_slot] + f)


DEF DMG_BINS = 64


cdef inline void burst_on(Ctx* c, int32_t* brst, int lo, int hi, int32_t* p_hits, int32_t* p_ba) noexcept nogil:
    """A hit's burst (phase._burst, CW-DMG-06): its dice on each pedestrian of brst rows lo .. hi - 1."""
    cdef int j, pi
    for j in range(lo, hi):
        pi = brst[j * BRST_NCOLS + BRST_PED]
        dmg_ped(c, p_hits[pi], p_ba[pi], roll(c, brst[j * BRST_NCOLS + BRST_COUNT], brst[j * BRST_NCOLS + BRST_BONUS],
                                                 brst[j * BRST_NCOLS + BRST_FLOOR]))


cdef int ranges_in(int32_t* rows, Py_ssize_t n, int ncols, int lo_col, int hi_col, Py_ssize_t limit) noexcept nogil:
    """ARCH-04: 1 if every row's [lo_col, hi_col) is a range of 0 .. limit (rows of another kind it points into)."""
    cdef Py_ssize_t i
    for i in range(n):
        if rows[i * ncols + lo_col] < 0 or rows[i * ncols + hi_col] > limit or rows[i * ncols + lo_col] > rows[i * ncols + hi_col]:
            return 0
    return 1


cdef int column_between(int32_t* rows, Py_ssize_t n, int ncols, int col, int64_t lo, int64_t hi) noexcept nogil:
    """ARCH-04: 1 if every row's `col` is in lo .. hi - 1."""
    cdef Py_ssize_t i
    for i in range(n):
        if rows[i * ncols + col] < lo or rows[i * ncols + col] >= hi:
            return 0
    return 1


cdef inline int column_in(int32_t* rows, Py_ssize_t n, int ncols, int col, Py_ssize_t limit) noexcept nogil:
    """ARCH-04: 1 if every row's `col` is in 0 .. limit - 1 (an index into something of `limit` entries)."""
    return column_between(rows, n, ncols, col, 0, limit)


cdef void ctx_arrays(Ctx* ctx, Arrays* pk) noexcept nogil:
    """ARCH-03: point the damage code's context at the packed vehicle, weapon, crew, cargo and tire arrays."""
    ctx.v_armour = pk.v_armour
    ctx.v_pp = pk.v_pp
    ctx.v_kind = pk.v_kind
    ctx.v_reversed = pk.v_reversed
    ctx.v_turret = pk.v_turret
    ctx.v_rolled = pk.v_rolled
    ctx.v_metal = pk.v_metal
    ctx.v_layout = pk.v_layout
    ctx.v_sc_side = pk.v_sc_side
    ctx.v_sc_spaces = pk.v_sc_spaces
    ctx.v_sc_armour = pk.v_sc_armour
    ctx.v_w0 = pk.v_w0
    ctx.v_w1 = pk.v_w1
    ctx.v_c0 = pk.v_c0
    ctx.v_c1 = pk.v_c1
    ctx.v_k0 = pk.v_k0
    ctx.v_k1 = pk.v_k1
    ctx.v_t0 = pk.v_t0
    ctx.v_t1 = pk.v_t1
    ctx.v_driver = pk.v_driver
    ctx.v_cycle_rider = pk.v_cycle_rider
    ctx.w_slot = pk.w_slot
    ctx.w_mount = pk.w_mount
    ctx.w_sidecar = pk.w_sidecar
    ctx.w_fiery = pk.w_fiery
    ctx.c_hits = pk.c_hits
    ctx.c_ba = pk.c_ba
    ctx.c_sidecar = pk.c_sidecar
    ctx.k_slot = pk.k_slot
    ctx.k_sidecar = pk.k_sidecar
    ctx.t_slot = pk.t_slot
    ctx.t_pos = pk.t_pos
    ctx.t_sidecar = pk.t_sidecar
    ctx.v_fireproof = pk.v_fireproof
    ctx.v_extinguisher = pk.v_extinguisher
    ctx.v_can_explode = pk.v_can_explode
    ctx.v_burning = pk.v_burning
    ctx.v_is_car = pk.v_is_car
    ctx.mark = NULL
    ctx.n_dirty = 0
    ctx.fire_noted = 0


cdef Py_ssize_t lists_entries(Arrays* pk) noexcept nogil:
    """ctx_lists' size (ARCH-04): the most entries the pick lists hold: a weapon is in at most 2 lists, a crew member 3, cargo 2, a tire 1;
    per vehicle the power plant 3 and the cargo location 1."""
    return 2 * pk.n_w_slot + 3 * pk.n_c_hits + 2 * pk.n_k_slot + pk.n_t_slot + 4 * pk.n_v_armour


cdef Py_ssize_t lists_len(Arrays* pk) noexcept nogil:
    """ctx_lists' size (ARCH-04): the int32 scratch ctx_lists needs: offsets and lengths, the front and back tires, and the entries."""
    return 2 * NL * pk.n_v_armour + 2 * pk.n_v_armour + 2 * lists_entries(pk) + 1


cdef int ranges_ok(int32_t* lo, int32_t* hi, Py_ssize_t V, Py_ssize_t n) noexcept nogil:
    """ARCH-04: 1 if each vehicle's rows lo[v] .. hi[v] - 1 lie in 0 .. n - 1, one vehicle's after the one before's."""
    cdef Py_ssize_t v
    cdef int last = 0
    for v in range(V):
        if lo[v] < last or hi[v] < lo[v] or hi[v] > n:
            return 0
        last = hi[v]
    return 1


cdef inline void list_add(Ctx* c, int* e, int kind, int idx) noexcept nogil:
    """ctx_lists (CW-DMG-02..05): one entry at the end of the list being built."""
    c.l_kind[e[0]] = kind
    c.l_idx[e[0]] = idx
    e[0] += 1


cdef void add_items(Ctx* c, int v, int* e, int sidecar, int mount, int crew, int cargo) noexcept nogil:
    """ctx_lists (CW-DMG-02..05, CW-TGT-05): the vehicle's weapons (on `mount`, or any mount if -1; none if -2), crew (if `crew`) and cargo (if `cargo`)
    on the body (sidecar 0) or the sidecar (1), in the order the reference lists them."""
    cdef int i
    if mount > -2:
        for i in range(c.v_w0[v], c.v_w1[v]):
            if (c.w_sidecar[i] != 0) == sidecar and (mount < 0 or c.w_mount[i] == mount):
                list_add(c, e, I_WEAPON, i)
    for i in range(c.v_c0[v], c.v_c1[v] if crew else c.v_c0[v]):
        if (c.c_sidecar[i] != 0) == sidecar:
            list_add(c, e, I_CREW, i)
    for i in range(c.v_k0[v], c.v_k1[v] if cargo else c.v_k0[v]):
        if (c.k_sidecar[i] != 0) == sidecar:
            list_add(c, e, I_CARGO, i)


cdef inline int in_range(int32_t* x, Py_ssize_t n, int lo, Py_ssize_t hi) noexcept nogil:
    """ARCH-04: 1 if each of the n values is in lo .. hi - 1 (a vector: rows of one column)."""
    return column_between(x, n, 1, 0, lo, hi)


cdef inline int dice_ok(int32_t* rows, Py_ssize_t n, int ncols, int col) noexcept nogil:
    """SAFE-01: 1 if no row's dice count `col` throws more than MAX_DICE dice."""
    return column_between(rows, n, ncols, col, INT32_MIN, MAX_DICE + 1)


cdef int damage_arrays_ok(Arrays* pk) noexcept nogil:
    """ARCH-04 / SAFE-01: 1 if the vehicles, weapons, crew, cargo, tires and pedestrians the damage code reads are whole: one entry per
    vehicle in each vehicle array (three in v_layout), one per weapon, crew member, cargo item, tire or pedestrian in
    each array of that kind, every slot a slot of the state (an armour block six of them, a sidecar's five), every
    crew member named one of them, and every code one of its codes; a cycle's weapon band leaving a roll out, an
    explosion's dice at most MAX_DICE. Both kernels check it on entry (ctx_lists) and run nothing when it fails,
    rather than read or write out of bounds or loop for ever."""
    cdef Py_ssize_t V = pk.n_v_armour, S = pk.n_init, NW = pk.n_w_slot, NC = pk.n_c_hits, v
    if pk.n_v_pp != V or pk.n_v_kind != V or pk.n_v_reversed != V or pk.n_v_turret != V or pk.n_v_rolled != V \
            or pk.n_v_metal != V or pk.n_v_layout != 3 * V or pk.n_v_sc_side != V or pk.n_v_sc_spaces != V \
            or pk.n_v_sc_armour != V or pk.n_v_w0 != V or pk.n_v_w1 != V or pk.n_v_c0 != V or pk.n_v_c1 != V \
            or pk.n_v_k0 != V or pk.n_v_k1 != V or pk.n_v_t0 != V or pk.n_v_t1 != V or pk.n_v_driver != V \
            or pk.n_v_cycle_rider != V or pk.n_v_fireproof != V or pk.n_v_extinguisher != V or pk.n_v_can_explode != V \
            or pk.n_v_burning != V or pk.n_v_is_car != V \
            or pk.n_w_mount != NW or pk.n_w_sidecar != NW or pk.n_w_fiery != NW or pk.n_c_ba != NC or pk.n_c_sidecar != NC \
            or pk.n_k_sidecar != pk.n_k_slot or pk.n_t_pos != pk.n_t_slot or pk.n_t_sidecar != pk.n_t_slot \
            or pk.n_p_ba != pk.n_p_hits:
        return 0
    if not (in_range(pk.w_slot, NW, 0, S) and in_range(pk.c_hits, NC, 0, S) and in_range(pk.c_ba, NC, 0, S)
            and in_range(pk.k_slot, pk.n_k_slot, 0, S) and in_range(pk.t_slot, pk.n_t_slot, 0, S)
            and in_range(pk.p_hits, pk.n_p_hits, 0, S) and in_range(pk.p_ba, pk.n_p_hits, 0, S)
            and in_range(pk.v_armour, V, 0, S - 5) and in_range(pk.v_pp, V, -1, S) and in_range(pk.v_kind, V, 0, KIND_TRIKE + 1)
            and in_range(pk.v_rolled, V, -1, UNDERBODY + 1) and in_range(pk.v_layout, 3 * V, -1, LOC_CARGO + 1)
            and in_range(pk.v_sc_side, V, -1, UNDERBODY + 1) and in_range(pk.v_driver, V, -1, NC)
            and in_range(pk.v_cycle_rider, V, -1, NC) and in_range(pk.v_extinguisher, V, EXT_NONE, EXT_PORTABLE + 1)):
        return 0
    for v in range(V):
        if pk.v_sc_side[v] >= 0 and not 0 <= pk.v_sc_armour[v] <= S - 5:
            return 0
    # a cycle with no weapon rolls its hit location again on the weapons' band: some 2d6 must lie outside it; and an
    # explosion's dice are dice of a roll
    if (pk.cyc[CYC_SIDE_WEAPON_LO] <= 2 and pk.cyc[CYC_SIDE_WEAPON_HI] >= 12) or pk.consts[K_BLAST_COUNT] > MAX_DICE:
        return 0
    return 1


cdef int near_ok(Arrays* pk, Py_ssize_t rows) noexcept nogil:
    """1 if the lists of who an explosion reaches (CW-FIRE-04) have `rows` rows each (or no width) and name vehicles
    and pedestrians or -1: near_v pairs of a vehicle and its exposed sides' bits, near_p pedestrians."""
    cdef Py_ssize_t V = pk.n_v_armour, i, j, half = pk.w_near_v // 2
    if (pk.w_near_v > 0 and pk.n_near_v < rows) or (pk.w_near_p > 0 and (pk.n_near_p < rows
                                                                        or not in_range(pk.near_p, rows * pk.w_near_p, -1, pk.n_p_hits))):
        return 0
    for i in range(rows if half > 0 else 0):
        for j in range(half):
            if not -1 <= pk.near_v[i * pk.w_near_v + 2 * j] < V:
                return 0
    return 1


cdef int shot_ok(int kind, int index, int part, int side, int tire, Arrays* pk) noexcept nogil:
    """ARCH-04: 1 if a shot's target is one (a vehicle, a pedestrian or a building) and, at a vehicle, it is one the damage code
    can follow: a part of its codes, a side of the six (none for a tire, the turret, the rider, the top or the
    sidecar), a tire one of the tires, a shot at a sidecar at a vehicle with one."""
    if kind == TGT_PEDESTRIAN:
        return 0 <= index < pk.n_p_hits
    if kind == TGT_BUILDING:
        return 1
    if kind != TGT_VEHICLE or not 0 <= index < pk.n_v_armour or not P_SIDE <= part <= P_SIDE_SC:
        return 0
    if not (FRONT <= side <= UNDERBODY or (side == -1 and part != P_SIDE and part != P_SIDE_SC)):
        return 0
    if part == P_TIRE and not 0 <= tire < pk.n_t_slot:
        return 0
    return part != P_SIDECAR or pk.v_sc_side[index] >= 0


cdef int phase_rows_ok(Arrays* pk) noexcept nogil:
    """ARCH-04 / SAFE-01: run_phase's attack and collision rows and its near lists, checked on entry (with damage_arrays_ok, which
    comes first): each attack's shot (shot_ok; one the rules cancel is never rolled), its fixed hits not below 0, its area-effect victims a group of
    consecutive rows placed 0, 1, ... with distinct ranks; each collision a vehicle's side, dividing by 1 or more;
    the near lists one row per vehicle, naming vehicles and pedestrians or -1; no roll of more than MAX_DICE dice."""
    cdef Py_ssize_t A = pk.n_atk, a, q, r, g0, V = pk.n_v_armour
    cdef int32_t* ap
    cdef int32_t* cp
    cdef int n
    for a in range(A):
        ap = pk.atk + a * ATK_NCOLS
        if (not ap[ATK_CANCELLED] and not shot_ok(ap[ATK_KIND], ap[ATK_INDEX], ap[ATK_PART], ap[ATK_SIDE], ap[ATK_TIRE], pk)) \
                or (ap[ATK_DMG_COUNT] <= 0 and ap[ATK_DMG_HITS] < 0) or ap[ATK_DMG_COUNT] > MAX_DICE:
            return 0                               # (a row the rules cancel is never rolled: the packer zeroes its shot)
        if ap[ATK_AREA_PLACE] >= 0:
            n = ap[ATK_AREA_VICTIMS]
            g0 = a - ap[ATK_AREA_PLACE]
            if n < 1 or ap[ATK_AREA_PLACE] >= n or g0 < 0 or g0 + n > A:
                return 0
            for q in range(g0, g0 + n):
                if pk.atk[q * ATK_NCOLS + ATK_AREA_PLACE] != q - g0 or pk.atk[q * ATK_NCOLS + ATK_AREA_VICTIMS] != n \
                        or not 0 <= pk.atk[q * ATK_NCOLS + ATK_AREA_RANK] < n:
                    return 0
                if q == a:
                    for r in range(g0, q):
                        if pk.atk[r * ATK_NCOLS + ATK_AREA_RANK] == ap[ATK_AREA_RANK]:
                            return 0
    for a in range(pk.n_col):
        cp = pk.col + a * COL_NCOLS
        if not 0 <= cp[COL_VEHICLE] < V or not FRONT <= cp[COL_SIDE] <= UNDERBODY or cp[COL_DEN] < 1 or cp[COL_COUNT] > MAX_DICE:
            return 0
    return near_ok(pk, V) and dice_ok(pk.brst, pk.n_brst, BRST_NCOLS, BRST_COUNT)


cdef int lo_ok(int32_t* lo, Py_ssize_t n, Py_ssize_t rows) noexcept nogil:
    """ARCH-04: 1 if the n + 1 starts `lo` split 0 .. rows into n ranges in order."""
    cdef Py_ssize_t i
    if lo[0] != 0 or lo[n] != rows:
        return 0
    for i in range(n):
        if lo[i] > lo[i + 1]:
            return 0
    return 1


cdef int fight_entry_ok(Arrays* pk, Py_ssize_t e, Py_ssize_t end, Py_ssize_t W, Py_ssize_t NA, Py_ssize_t U) noexcept nogil:
    """ARCH-04 / SAFE-01, fight_rows_ok's check of entry row e of a phase whose entries end at `end` (see there)."""
    cdef Py_ssize_t NP = pk.n_p_hits, NC = pk.n_c_hits, NW = pk.n_w_slot, j, i
    cdef int ch, H = pk.fc[F_HANDS]
    cdef int32_t* ep = pk.ent + e * ENT_NCOLS
    cdef int32_t* mp
    cdef int32_t* fp
    if not -1 <= ep[ENT_WKEY] < W or not -1 <= ep[ENT_WEAPON] < NW or not -1 <= ep[ENT_ATK] < NA \
            or not CHOOSE_NEAREST <= ep[ENT_CHOOSE] <= CHOOSE_AREA or (ep[ENT_WKEY] < 0 and ep[ENT_CHOOSE] != CHOOSE_LINK):
        return 0                           # (a link's weapon keys are its members')
    if not -1 <= ep[ENT_HAND] < H or not -1 <= ep[ENT_PED] < NP or (ep[ENT_HAND] >= 0 and (ep[ENT_WEAPON] >= 0 or not (
            ep[ENT_CHOOSE] == CHOOSE_PLANNED or ep[ENT_CHOOSE] == CHOOSE_AREA or ep[ENT_CHOOSE] == CHOOSE_NEAREST
            or ep[ENT_CHOOSE] == CHOOSE_BEST_ODDS))):
        return 0                           # a thrown hand weapon's kind: a person's planned or ordered throw
    if ep[ENT_CHOOSE] == CHOOSE_NEAREST or ep[ENT_CHOOSE] == CHOOSE_BEST_ODDS:
        if not 0 <= ep[ENT_UNIT] < U or (ep[ENT_PED] < 0 and ep[ENT_WEAPON] < 0):
            return 0
        for i in range(ep[ENT_FIR_LO], ep[ENT_FIR_HI]):          # an order weighs units (outu), not buildings
            for j in range(pk.fir[i * FIR_NCOLS + FIR_CAND_LO], pk.fir[i * FIR_NCOLS + FIR_CAND_HI]):
                if not 0 <= pk.cand[j * CAND_NCOLS + CAND_UNIT] < U:
                    return 0
    if ep[ENT_CHOOSE] == CHOOSE_AUTOMATIC and (ep[ENT_WEAPON] < 0 or ep[ENT_FIR_LO] >= ep[ENT_FIR_HI]):
        return 0
    if ep[ENT_CHOOSE] == CHOOSE_PLANNED and ep[ENT_PED] >= 0 and ep[ENT_FIR_LO] >= ep[ENT_FIR_HI]:
        return 0
    if (ep[ENT_PED] < 0 and (ep[ENT_CHOOSE] == CHOOSE_NEAREST or ep[ENT_CHOOSE] == CHOOSE_BEST_ODDS
                             or ep[ENT_CHOOSE] == CHOOSE_PLANNED)) or (ep[ENT_HAND] >= 0 and ep[ENT_PED] < 0):
        for i in range(ep[ENT_FIR_LO], ep[ENT_FIR_HI]):
            ch = pk.fir[i * FIR_NCOLS + FIR_CHARACTER]
            if not 0 <= ch < NC:
                return 0                   # a crew member (a crew member's grenade: he throws it, his count is read)
    if ep[ENT_CHOOSE] != CHOOSE_LINK and ep[ENT_CHOOSE] != CHOOSE_AREA:
        return 1
    if ep[ENT_LINK] < 1 or e + ep[ENT_LINK] >= end:
        return 0                           # its members follow it, in its phase
    for j in range(e + 1, e + 1 + ep[ENT_LINK]):
        mp = pk.ent + j * ENT_NCOLS
        if mp[ENT_CHOOSE] != CHOOSE_MEMBER or not 0 <= mp[ENT_WKEY] < W \
                or (mp[ENT_WEAPON] < 0 and (ep[ENT_CHOOSE] != CHOOSE_AREA or ep[ENT_WEAPON] >= 0)) \
                or (ep[ENT_CHOOSE] == CHOOSE_AREA and (not 0 <= mp[ENT_RANK] < ep[ENT_LINK]
                                                      or not 0 <= mp[ENT_SHOT] < ep[ENT_LINK] or mp[ENT_ATK] < 0)):
            return 0                       # (an area victim's SHOT is also its place)
        for i in range(ep[ENT_FIR_LO], ep[ENT_FIR_HI]):
            fp = pk.fir + i * FIR_NCOLS
            if fp[FIR_CAND_HI] > fp[FIR_CAND_LO] and mp[ENT_SHOT] >= 0 and fp[FIR_CAND_LO] + mp[ENT_SHOT] >= fp[FIR_CAND_HI]:
                return 0
            if not 0 <= fp[FIR_CHARACTER] < (NC + NP if ep[ENT_CHOOSE] == CHOOSE_AREA else NC):
                return 0                   # a crew member; an area attack's may be NC + a pedestrian
    return 1


cdef int fight_counter_rows_ok(Arrays* pk, Py_ssize_t W) noexcept nogil:
    """ARCH-04 / SAFE-01, fight_rows_ok's check of the candidate, contact, collision and drop rows and of the dice
    (see there)."""
    cdef int32_t* fc = pk.fc
    cdef Py_ssize_t V = pk.n_v_armour, NP = pk.n_p_hits, NC = pk.n_c_hits, NW = pk.n_w_slot, S = pk.n_init, i
    cdef int kind
    cdef int32_t* cp
    for i in range(pk.n_cand):
        cp = pk.cand + i * CAND_NCOLS
        if cp[CAND_UNIT] < 0 or cp[CAND_BURN] >= fc[F_FIRE_RING] \
                or not shot_ok(cp[CAND_KIND], cp[CAND_INDEX], cp[CAND_PART], cp[CAND_SIDE], cp[CAND_TIRE], pk):
            return 0
    for i in range(pk.n_ocon):
        cp = pk.ocon + i * OCON_NCOLS
        if cp[OCON_COUNTER] >= fc[F_COUNTERS] or not 0 <= cp[OCON_VEHICLE] < V \
                or (cp[OCON_KIND] == CONTACT_TRIGGER and cp[OCON_C] and cp[OCON_COUNTER] < 0) \
                or (cp[OCON_KIND] == CONTACT_DAMAGE and (cp[OCON_A] > MAX_DICE or (cp[OCON_PART] == P_TIRE and not 0 <= cp[OCON_TIRE] < pk.n_t_slot)
                    or not shot_ok(TGT_VEHICLE, cp[OCON_VEHICLE], cp[OCON_PART], cp[OCON_SIDE], cp[OCON_TIRE], pk))) \
                or (cp[OCON_KIND] == CONTACT_FIRE and cp[OCON_B] >= fc[F_FIRE_RING]):
            return 0                               # (a fire's burn is kept in the ring: shorter than it, add_fire)
    for i in range(pk.n_fcol):
        cp = pk.fcol + i * FCOL_NCOLS
        if cp[FCOL_DEN] < 1 or (cp[FCOL_IS_PED] and not 0 <= cp[FCOL_INDEX] < NP) \
                or (not cp[FCOL_IS_PED] and (not 0 <= cp[FCOL_INDEX] < V or not FRONT <= cp[FCOL_SIDE] <= UNDERBODY)):
            return 0
    for i in range(pk.n_drop):
        cp = pk.drop + i * DROP_NCOLS
        kind = cp[DROP_KIND]
        if not DR_ACTION <= kind <= DR_BOX or cp[DROP_WEAPON] >= NW or cp[DROP_WKEY] >= W or cp[DROP_DRIVER] >= NC \
                or ((kind == DR_MEMBER or kind == DR_AUTO) and (cp[DROP_COUNTER] >= fc[F_COUNTERS] or cp[DROP_WEAPON] < 0 or cp[DROP_WKEY] < 0)) \
                or (kind == DR_DETONATE and not 0 <= cp[DROP_COUNTER] < fc[F_COUNTERS]) \
                or ((kind == DR_SUBSTITUTE or kind == DR_FETCH) and not 0 <= cp[DROP_CREW] < NC) \
                or (kind == DR_BOX and not 0 <= cp[DROP_SLOT] < S) \
                or (kind == DR_FETCH and not 0 <= cp[DROP_ROOM] <= MAX_LOAD):
            return 0
    return dice_ok(pk.cand, pk.n_cand, CAND_NCOLS, CAND_DMG_COUNT) and dice_ok(pk.fcol, pk.n_fcol, FCOL_NCOLS, FCOL_COUNT) \
        and dice_ok(pk.brst, pk.n_brst, BRST_NCOLS, BRST_COUNT) and dice_ok(pk.offr, pk.n_offr, OFFR_NCOLS, OFFR_ROLLS) \
        and fc[F_OFF_COUNT] <= MAX_DICE and fc[F_WATER_COUNT] <= MAX_DICE


cdef int fight_rows_ok(Arrays* pk, Py_ssize_t W, Py_ssize_t NA, Py_ssize_t U) noexcept nogil:
    """ARCH-04 / SAFE-01: run_fight's rows, checked on entry after its sizes (tp_lo and col_lo split the entries and collisions in
    order) and after damage_arrays_ok, so that no row the trials read is out of bounds and no loop is endless:
    - the row ranges: each phase's and turn's counters, drops and off-road rolls in order; every range a row
      holds (an entry's firers, a firer's candidates, a candidate's burst) inside the rows it points into;
    - entries: weapon key, weapon and planned attack in range (a weapon on automatic, or an order's for a
      vehicle, a mounted one); an order's unit and its candidates' units (elsewhere a candidate's unit column is
      only compared: a building's lies past the units); the firer rows read without a choice (a weapon on
      automatic, a pedestrian's planned attack) there, and a crew member where one is read; a thrown hand
      weapon's kind only on a person's throw; a link's or area attack's members inside its phase, each a member
      with its weapon key, and an area attack's victims each a shot, a rank and an attack;
    - every candidate's shot (shot_ok), every counter's vehicle, damage (a shot at its vehicle) and fire (a burn
      shorter than the ring, add_fire), every collision a vehicle's side or a pedestrian, every burst a pedestrian;
    - every drop row of a kind, with what its kind reads; every grenade count within MAX_LOAD;
    - the units' sides; the per-weapon and per-crew arrays whole; the odds table covering every number an order
      weighs; no roll of more than MAX_DICE dice, nor more off-road rolls."""
    cdef int32_t* fc = pk.fc
    cdef Py_ssize_t V = pk.n_v_armour, NP = pk.n_p_hits, NC = pk.n_c_hits, NW = pk.n_w_slot, e, tp
    cdef int T = fc[F_T], P = fc[F_P], H = fc[F_HANDS]
    cdef Py_ssize_t NH = (NC + NP) * H if H > 0 else 0
    if pk.n_w_shots != NW or pk.n_w_ammo0 != NW or pk.n_w_usable != NW or pk.n_c_takeover != NC or pk.n_c_hand != NC \
            or U > V + NP or pk.n_moving_end < (T - 1) * V or not near_ok(pk, T * V) \
            or not -1 <= fc[F_NM] < pk.n_prob36 - 1 or fc[F_MAXN] >= pk.n_prob36 \
            or not in_range(pk.u_side, U, 0, fc[F_SIDES]) or not in_range(pk.v_off, V, 0, 2) \
            or not lo_ok(pk.drop_lo, T * P, pk.n_drop) or not lo_ok(pk.ocon_lo, T * P, pk.n_ocon) \
            or not lo_ok(pk.offr_lo, T, pk.n_offr) or not column_in(pk.offr, pk.n_offr, OFFR_NCOLS, OFFR_VEHICLE, V) \
            or not ranges_in(pk.cand, pk.n_cand, CAND_NCOLS, CAND_BURST_LO, CAND_BURST_HI, pk.n_brst) \
            or not column_in(pk.brst, pk.n_brst, BRST_NCOLS, BRST_PED, NP) \
            or not ranges_in(pk.ent, pk.n_ent, ENT_NCOLS, ENT_FIR_LO, ENT_FIR_HI, pk.n_fir) \
            or not ranges_in(pk.fir, pk.n_fir, FIR_NCOLS, FIR_CAND_LO, FIR_CAND_HI, pk.n_cand) \
            or not column_between(pk.fir, pk.n_fir, FIR_NCOLS, FIR_CHARACTER, -1, NC + NP) \
            or not in_range(pk.hand_eq, H, 0, MAX_LOAD + 1) or not in_range(pk.hand0, NH, 0, MAX_LOAD + 1):
        return 0                                   # (a firer: none (-1), a crew member, or NC + a pedestrian)
    for tp in range(T * P):
        for e in range(pk.tp_lo[tp], pk.tp_lo[tp + 1]):
            if not fight_entry_ok(pk, e, pk.tp_lo[tp + 1], W, NA, U):
                return 0
    return fight_counter_rows_ok(pk, W)

cdef int ctx_lists(Ctx* c, Arrays* pk, int32_t* buf) noexcept nogil:
    """The candidates of every random pick the damage code makes (CW-DMG-01..05 and the collision layers), per
    vehicle, in the order the reference gathers them (hardpoint.carwars.damage). They depend only on the vehicles'
    make-up, never on the dice, so they are worked out once a run. -1 (nothing written) if a vehicle's weapons,
    crew, cargo or tires are not rows of their own, or a list (or a vehicle's tires) is longer than a pick takes
    (the packer's limits), or the arrays are not whole (damage_arrays_ok)."""
    cdef Py_ssize_t V = pk.n_v_armour, v
    cdef int e = 0, which, at, i, pp
    if not damage_arrays_ok(pk):
        return -1
    if not (ranges_ok(c.v_w0, c.v_w1, V, pk.n_w_slot) and ranges_ok(c.v_c0, c.v_c1, V, pk.n_c_hits)
            and ranges_ok(c.v_k0, c.v_k1, V, pk.n_k_slot) and ranges_ok(c.v_t0, c.v_t1, V, pk.n_t_slot)):
        return -1
    c.l_off = buf
    c.l_n = buf + NL * V
    c.tire_at = c.l_n + NL * V
    c.l_kind = c.tire_at + 2 * V
    c.l_idx = c.l_kind + lists_entries(pk)
    for v in range(V):
        if c.v_t1[v] - c.v_t0[v] > MAX_PICK:          # an off-road hit picks one of all the tires
            return -1
        pp = c.v_pp[v] >= 0
        for which in range(NL):
            at = v * NL + which
            c.l_off[at] = e
            if which < L_LOC:                                   # the body weapons on one mount
                add_items(c, v, &e, 0, which - L_MOUNT, 0, 0)
            elif which == L_LOC + LOC_CREW:
                add_items(c, v, &e, 0, -2, 1, 0)
            elif which == L_LOC + LOC_POWER_PLANT:
                if pp:
                    list_add(c, &e, I_PP, 0)
            elif which == L_LOC + LOC_CARGO:
                add_items(c, v, &e, 0, -2, 0, 1)
            elif which == L_VERTICAL or which == L_INTERIOR:    # the power plant, the crew, then the cargo
                if pp:
                    list_add(c, &e, I_PP, 0)
                if which == L_INTERIOR:
                    add_items(c, v, &e, 0, -2, 1, 1)
                else:                                           # (the cargo as one location, if the body has one)
                    add_items(c, v, &e, 0, -2, 1, 0)
                    for i in range(3):
                        if c.v_layout[v * 3 + i] == LOC_CARGO:
                            list_add(c, &e, I_CARGO_LOC, 0)
                            break
            elif which == L_CYCLE_W:
                add_items(c, v, &e, 0, -1, 0, 0)
            elif which == L_CYCLE_T:
                for i in range(c.v_t0[v], c.v_t1[v]):
                    if not c.t_sidecar[i]:
                        list_add(c, &e, I_TIRE, i)
            elif which == L_SIDECAR:
                add_items(c, v, &e, 1, -1, 1, 1)
            c.l_n[at] = e - c.l_off[at]
            if c.l_n[at] > MAX_PICK:
                return -1
        for which in range(2):
            c.tire_at[v * 2 + which] = -1
            for i in range(c.v_t0[v], c.v_t1[v]):
                if c.t_pos[i] == which and not c.t_sidecar[i]:
                    c.tire_at[v * 2 + which] = i
                    break
    return 0


cdef object ctx_bind(Ctx* ctx, Arrays* pk, VehicleState* veh):
    """Both kernels' preamble (ARCH-03): the damage code's context from the packed arrays (ctx_arrays), its pick
    lists worked out once a run (ctx_lists, in the array returned, which the caller keeps alive while it runs), and
    the kernel's per-vehicle fire and hit counts (veh). None (nothing to run) if the arrays are not whole."""
    cdef int32_t[::1] lists
    ctx_arrays(ctx, pk)
    lists = np.zeros(lists_len(pk), dtype=np.int32)
    if ctx_lists(ctx, pk, &lists[0]) != 0:
        return None
    ctx.cyc = pk.cyc
    ctx.fire_hits = veh.fire_hits
    ctx.fire_hit_fiery = veh.fire_hit_fiery
    ctx.taken = veh.taken
    return lists


DEF FIRE_DICE = 2   # the fire modifiers' roll is 2d6 (fire.roll_new_fire)


cdef inline void fire_starts(Ctx* c, int v, int fire_total, int32_t* burning, int32_t* consts, int fireproof) noexcept nogil:
    """carwars.fire.roll_new_fire for a vehicle not burning: a new fire from the turn's fire modifiers (CW-FIRE-01),
    then from its component hits this turn (CW-FIRE-02); every band [low, high] from the rules (consts)."""
    cdef int r, lo, hi
    if fire_total > 0 and not fireproof:
        if fire_total < FIRE_DICE:
            skip(c, FIRE_DICE)         # no roll of FIRE_DICE d6 is under FIRE_DICE
        elif roll(c, FIRE_DICE, 0, 0) <= fire_total:
            burning[v] = 1
    if c.fire_hits[v] and not burning[v]:
        lo = consts[K_FIRE_HIT_FIERY_LO] if c.fire_hit_fiery[v] else consts[K_FIRE_HIT_LO]
        hi = consts[K_FIRE_HIT_FIERY_HI] if c.fire_hit_fiery[v] else consts[K_FIRE_HIT_HI]
        r = die(c)
        if lo <= r <= hi:
            burning[v] = 1


cdef int fire_burns(Ctx* c, int v, int32_t* burning, int32_t* consts, int extinguisher, int can_explode,
                    int32_t* near_v, int w_near_v, int32_t* near_p, int w_near_p, int32_t* p_hits, int32_t* p_ba) noexcept nogil:
    """carwars.fire.end_of_turn_fire for a burning vehicle, after fire_starts: the extinguisher (CW-FIRE-03: put
    out, no damage), fire damage to every occupant, component and armour location, the explosion roll and, on it,
    the blast on those near (`near_v`: pairs of vehicle and exposed sides, `near_p`: pedestrians; -1 ends each)
    (CW-FIRE-03/04). Every band is [low, high] and every figure the rules' (consts), house rules included.
    1 if it exploded."""
    cdef int r, i, j, vi, side, n = consts[K_FIRE_DAMAGE]
    if extinguisher > 0:
        r = die(c)
        if consts[K_EXT_STANDARD_LO - 1 + extinguisher] <= r <= consts[K_EXT_STANDARD_HI - 1 + extinguisher]:
            burning[v] = 0
            return 0
    for i in range(c.v_c0[v], c.v_c1[v]):
        dmg_crew(c, i, n)
    for i in range(c.v_w0[v], c.v_w1[v]):
        if c.st[c.w_slot[i]] > 0:
            dmg_slot(c, c.w_slot[i], n)
    for i in range(c.v_k0[v], c.v_k1[v]):
        if not c.k_sidecar[i] and c.st[c.k_slot[i]] > 0:
            dmg_slot(c, c.k_slot[i], n)
    for i in range(c.v_t0[v], c.v_t1[v]):
        if c.st[c.t_slot[i]] > 0:
            dmg_slot(c, c.t_slot[i], n)
    if c.v_pp[v] >= 0 and c.st[c.v_pp[v]] > 0:
        dmg_slot(c, c.v_pp[v], n)
    for j in range(6):
        if c.st[c.v_armour[v] + j] > 0:
            dmg_slot(c, c.v_armour[v] + j, n)
    if c.v_sc_side[v] >= 0:
        for j in range(5):
            if c.st[c.v_sc_armour[v] + j] > 0:
                dmg_slot(c, c.v_sc_armour[v] + j, n)
    if not can_explode:
        return 0
    r = die(c)
    if not (consts[K_EXPLODE_LO] <= r <= consts[K_EXPLODE_HI]):
        return 0
    burning[v] = 0
    for i in range(c.v_c0[v], c.v_c1[v]):
        if c.st[c.c_hits[i]] < 3:
            put(c, c.c_hits[i], 3)
            put(c, c.c_ba[i], 0)
    for j in range(w_near_v // 2):
        vi = near_v[2 * j]
        if vi < 0:
            break
        side = best_exposed(c, vi, near_v[2 * j + 1])
        apply_shot(c, vi, P_SIDE, side, -1, roll(c, consts[K_BLAST_COUNT], consts[K_BLAST_BONUS], consts[K_BLAST_FLOOR]))
    for j in range(w_near_p):
        vi = near_p[j]
        if vi < 0:
            break
        dmg_ped(c, p_hits[vi], p_ba[vi], roll(c, consts[K_BLAST_COUNT], consts[K_BLAST_BONUS], consts[K_BLAST_FLOOR]))
    return 1


DEF NEVER = 99   # a to-hit number no 2d6 roll reaches (to hit is 2d6, as in the reference's tohit)
DEF TRIAL_BLOCK = 32   # run_phase: the per-vehicle values every trial resets, for up to 4 vehicles


cdef inline int to_hit_number(int32_t* ap, int needed, int32_t* consts) noexcept nogil:
    """tohit.is_hit's limits folded into the number packed (CW-HIT-01): the roll an attack needs, NEVER when
    none hits (an impossible shot, or more than the rules allow)."""
    return needed if ap[ATK_POSSIBLE] and needed <= consts[K_MAX_NEEDED] else NEVER


cdef inline int attack_check(int32_t* st, int32_t* ap, int32_t* afir, int32_t* consts, int* needed_out) noexcept nogil:
    """An attack as its turn comes, from the state `st` (CW-ROF-02): 1 if the state cancels it (its weapon destroyed,
    CW-VEH-03; its firer unconscious or dead, CW-CREW-01; no firer named and none of the default firers able, or the
    first able one forbidden to fire it, attack._default_firer), else 0 and the roll it needs in `needed_out` (a
    wounded firer's skills -2, CW-HIT-08)."""
    cdef int ws = ap[ATK_WEAPON_SLOT], fs = ap[ATK_FIRER_SLOT], needed = ap[ATK_NEEDED], nw = ap[ATK_NEEDED_WOUNDED]
    cdef int cut, q, wv, fv
    cdef int32_t intact = 1, able = 0
    cdef int32_t* fp
    if ap[ATK_FIR_HI] > ap[ATK_FIR_LO]:
        fs = -1
        cut = 1
        for q in range(ap[ATK_FIR_LO], ap[ATK_FIR_HI]):
            fp = afir + q * AFIR_NCOLS
            if st[fp[AFIR_SLOT]] < 2:
                fs = fp[AFIR_SLOT]
                cut = not fp[AFIR_OK]
                needed = fp[AFIR_NEEDED]
                nw = fp[AFIR_NEEDED_WOUNDED]
                break
    else:
        cut = 0
    # no branch on the state: a weapon or firer not named reads as intact or able
    wv = (st + ws if ws >= 0 else &intact)[0]
    fv = (st + fs if fs >= 0 else &able)[0]
    cut = cut | ap[ATK_CANCELLED] | (wv <= 0) | (fv >= 2)
    needed_out[0] = to_hit_number(ap, nw if fv == 1 else needed, consts)
    return cut


# --- mechanics both kernels run in a phase (hardpoint.carwars.phase) ------------------------------------------------

cdef inline void shot_lands(Ctx* c, int v, int part, int side, int tire, int hits, int fiery) noexcept nogil:
    """phase._apply_hit on a vehicle: the shot's hits through damage.apply_shot (CW-DMG-01..05), its component hits
    noted for the end of the turn's fire roll, 4 in 6 if the weapon is fiery (fire.record_component_hit, CW-FIRE-02)."""
    c.cur_vehicle = v
    c.cur_fiery = fiery
    apply_shot(c, v, part, side, tire, hits)
    c.cur_fiery = -1


cdef inline int obstacle_drops(Ctx* c, int v, int32_t* metal_before, int keep, int obstacle_hits) noexcept nogil:
    """phase._vehicle_consequences, CW-DMG-08: 1 if car v drops an obstacle: it took `obstacle_hits` hits or more
    this phase, or lost metal armour (a side below metal_before, its six sides as the phase's combat started; with
    `keep`, they are set to now for the next phase)."""
    cdef int f = 0, j
    if c.v_metal[v]:
        for j in range(6):
            if c.st[c.v_armour[v] + j] < metal_before[v * 6 + j]:
                f = 1
            if keep:
                metal_before[v * 6 + j] = c.st[c.v_armour[v] + j]
    return c.taken[v] >= obstacle_hits or f


# --- run_phase: one phase (and the end of its turn) for N trials -----------------------------------------------------
# Mirrors `hardpoint.carwars.phase.resolve_phase` (and, with `end_of_turn`, `carwars.fire.end_of_turn_fire`): the
# entry checks and the run's plan once a call, then per trial phase_trial_start, phase_trial and the results
# (phase_store, or counted: phase_undo, phase_count). Every function below is inlined into run_phase's loop.

cdef int phase_call_ok(Arrays* pk, int n_phases, Py_ssize_t n_trials, int store, Py_ssize_t* state_shape,
                       Py_ssize_t* hit_shape, Py_ssize_t* damage_shape, Py_ssize_t* flags_shape, int counted,
                       Py_ssize_t n_kinds, Py_ssize_t n_acc) noexcept nogil:
    """run_phase's checks before it sizes its scratch (ARCH-04): the arena and the turn within the kernel's sizes;
    the outputs of the scenario's widths with room for the trials (never written out of bounds); the fire state
    carried in whole; every attack row in a phase of the turn, in phase order (each is run, and counted, once a
    trial); the burst and default firers' rows in range, each naming a pedestrian or a slot, and each attack's
    weapon and firer a slot or none. 1 if they hold."""
    cdef Py_ssize_t S = pk.n_init, V = pk.n_v_armour, A = pk.n_atk, P = pk.n_p_hits, a
    cdef int32_t* atk = pk.atk
    if V > MAX_VEHICLES or A > MAX_ATTACKS or n_phases > 6:      # (PhaseRun's a_lo[8] holds n_phases + 1 bounds)
        return 0
    if state_shape[1] != S or hit_shape[1] != A or damage_shape[1] != A or flags_shape[1] < V \
            or (store and (n_trials > state_shape[0] or n_trials > hit_shape[0] or n_trials > damage_shape[0]
                           or n_trials > flags_shape[0])) \
            or (not store and n_trials > 0 and state_shape[0] < 1) \
            or (counted and (n_kinds != S or n_acc < 3 * A + S + 4 * V)):
        return 0
    if pk.n_fire0 != 4 * V or pk.consts[K_AREA_DIVISOR] < 1:
        return 0
    if not column_in(atk, A, ATK_NCOLS, ATK_PHASE, n_phases):
        return 0
    for a in range(1, A):
        if atk[a * ATK_NCOLS + ATK_PHASE] < atk[(a - 1) * ATK_NCOLS + ATK_PHASE]:
            return 0
    if not ranges_in(atk, A, ATK_NCOLS, ATK_BURST_LO, ATK_BURST_HI, pk.n_brst) or not column_in(pk.brst, pk.n_brst, BRST_NCOLS, BRST_PED, P) \
            or not ranges_in(atk, A, ATK_NCOLS, ATK_FIR_LO, ATK_FIR_HI, pk.n_afir) or not column_in(pk.afir, pk.n_afir, AFIR_NCOLS, AFIR_SLOT, S) \
            or not column_between(atk, A, ATK_NCOLS, ATK_WEAPON_SLOT, -1, S) or not column_between(atk, A, ATK_NCOLS, ATK_FIRER_SLOT, -1, S):
        return 0
    return 1


cdef inline Py_ssize_t phase_scratch_len(Arrays* pk) noexcept nogil:
    """ARCH-03: the int32 scratch phase_bind carves: per vehicle, per attack and per slot, sized to this scenario."""
    cdef Py_ssize_t S = pk.n_init, V = pk.n_v_armour, A = pk.n_atk
    cdef Py_ssize_t Vs = V if V > 0 else 1, As_ = A if A > 0 else 1
    cdef Py_ssize_t tb = 7 * Vs if 7 * Vs > TRIAL_BLOCK else TRIAL_BLOCK
    return 2 * tb + 34 * Vs + (6 + DMG_BINS) * As_ + 6 * (S + 1)


cdef void phase_bind(PhaseRun* R, Arrays* pk, int32_t* scratch, int n_phases, int end_of_turn, int store,
                     Py_ssize_t n_trials, int32_t* skind, int64_t* acc) noexcept nogil:
    """run_phase's run from its arrays (the preamble, ARCH-03): the rows and figures the trials read, the sizes and
    the mode, and the scratch carved from `scratch` (phase_scratch_len ints, zeroed)."""
    cdef Py_ssize_t S = pk.n_init, V = pk.n_v_armour, A = pk.n_atk
    cdef Py_ssize_t Vs = V if V > 0 else 1, As_ = A if A > 0 else 1
    R.init, R.atk, R.afir, R.col, R.brst, R.consts, R.fire0 = pk.init, pk.atk, pk.afir, pk.col, pk.brst, pk.consts, pk.fire0
    R.p_hits, R.p_ba, R.near_v, R.near_p, R.w_near_v, R.w_near_p = pk.p_hits, pk.p_ba, pk.near_v, pk.near_p, pk.w_near_v, pk.w_near_p
    R.S, R.V, R.A, R.C, R.Vs = S, V, A, pk.n_col, Vs
    R.n_phases, R.end_of_turn, R.store = n_phases, end_of_turn, store
    R.undo = not store and n_trials > 0
    R.skind, R.acc, R.since, R.area_hits = skind, acc, 0, 0
    # what every trial resets (fire_hits .. driver_before and the flags: seven blocks of Vs), padded to TRIAL_BLOCK
    # ints when it fits, so that the reset is a copy of a known size the compiler does without a call
    R.tb = 7 * Vs if 7 * Vs > TRIAL_BLOCK else TRIAL_BLOCK
    R.flg = carve_vehicles(&R.veh, scratch, Vs)
    R.start_v = scratch + R.tb              # every trial's start of the block
    R.metal_before = R.start_v + R.tb
    R.metal_init = R.metal_before + 6 * Vs
    R.pend = R.metal_init + 6 * Vs
    R.pend_dmg = R.pend + As_
    R.metal_slots = R.pend_dmg + As_
    R.m0 = R.metal_slots + 6 * Vs
    R.m1 = R.m0 + S + 1
    R.dcount = R.m1 + S + 1
    R.fcount = R.dcount + S + 1
    R.base = R.fcount + 16 * Vs
    R.mark = R.base + S + 1
    R.dirty = R.mark + S + 1
    # a trial's hits, damage and flags, written out when it ends: kept in int32 scratch while it runs, since a store
    # through a uint8_t* may alias anything and makes the compiler reload every pointer after it
    R.hitv = R.dirty + S + 1
    R.dmgv = R.hitv + As_
    R.flg0 = R.start_v + 6 * Vs
    # per attack: cancelled and the roll needed while the trial's state is still the start's
    R.cut0 = R.dmgv + As_
    R.need0 = R.cut0 + As_
    # the counts kept in 32 bits between flushes: per attack, its hits by the damage rolled (DMG_BINS bins)
    R.hc = R.need0 + As_


cdef inline void phase_plan(PhaseRun* R) noexcept nogil:
    """The turn's plan, the same every trial (CW-ROF-02): the attacks of each phase (rows in phase order), the phases
    with a collision or an attack, and whether the state can cancel an attack (`dynamic`: a weapon or firer named,
    a row the rules cancel, or a second phase or a collision that can change the state before it)."""
    cdef Py_ssize_t a, i
    cdef int ph
    cdef int32_t* ap
    cdef int32_t busy[8]
    R.dynamic = 0
    for ph in range(R.n_phases + 1):
        R.a_lo[ph] = R.A
    for a in range(R.A - 1, -1, -1):
        ap = R.atk + a * ATK_NCOLS
        R.a_lo[ap[ATK_PHASE]] = a
        if ap[ATK_WEAPON_SLOT] >= 0 or ap[ATK_FIRER_SLOT] >= 0 or ap[ATK_CANCELLED]:
            R.dynamic = 1
    for ph in range(R.n_phases - 1, -1, -1):
        if R.a_lo[ph] > R.a_lo[ph + 1]:
            R.a_lo[ph] = R.a_lo[ph + 1]
    for ph in range(R.n_phases):
        busy[ph] = R.a_lo[ph] < R.a_lo[ph + 1]
    for i in range(R.C):
        if 0 <= R.col[i * COL_NCOLS + COL_PHASE] < R.n_phases:
            busy[R.col[i * COL_NCOLS + COL_PHASE]] = 1
    R.n_busy = 0
    for ph in range(R.n_phases):
        if busy[ph]:
            R.busy_ph[R.n_busy] = ph
            R.n_busy += 1
    # a single phase without collisions cannot cancel anything: its declarations were checked on load
    if R.n_phases == 1 and R.C == 0:
        R.dynamic = 0


cdef inline void phase_start(PhaseRun* R, Ctx* ctx) noexcept nogil:
    """What every trial starts from, worked out once (resolve_phase's arena and fire states as given): each attack's
    check at the start's state (attack_check, CW-ROF-02); per vehicle the fire state carried in (CW-FIRE-01/02),
    no hits taken, the driver's state as the phase starts (CW-ROF-02: a vehicle that takes no hits in a phase
    starts the next one as it started this one), exploded before (no more fire rolls, CW-FIRE-04); the vehicles
    with fire to roll for; the metal armour (CW-DMG-08); counted, the slots destroyed at the start."""
    cdef Py_ssize_t a, v, j, V = R.V, Vs = R.Vs
    cdef int needed
    cdef int32_t* ap
    for a in range(R.A):
        ap = R.atk + a * ATK_NCOLS
        if R.dynamic:
            R.cut0[a] = attack_check(R.init, ap, R.afir, R.consts, &needed)
            R.need0[a] = needed
        else:
            R.cut0[a] = ap[ATK_CANCELLED] != 0                # (cancelled by the rules whatever the dice)
            R.need0[a] = to_hit_number(ap, ap[ATK_NEEDED], R.consts)
    ctx.st = R.init
    R.n_metal = 0
    for v in range(V):
        R.start_v[v] = R.fire0[V + v]
        R.start_v[Vs + v] = R.fire0[2 * V + v]
        R.start_v[2 * Vs + v] = 0
        R.start_v[3 * Vs + v] = R.fire0[v]
        R.start_v[4 * Vs + v] = ctx.v_burning[v]
        R.start_v[5 * Vs + v] = crew_state(ctx, ctx.v_driver[v]) if ctx.v_driver[v] >= 0 else -1
        R.flg0[v] = 2 if R.fire0[3 * V + v] else 0
    # (with no vehicle burning nor fire carried in, the end of the turn has no fire roll to make until a shot
    # brings fire modifiers or a component hit that may start one)
    R.fire_start = 0
    for v in range(V):
        if ctx.v_burning[v] or R.fire0[v] or R.fire0[V + v] or R.fire0[2 * V + v]:
            R.fire_start |= vbit(v)
        for j in range(6):
            R.metal_init[v * 6 + j] = R.init[ctx.v_armour[v] + j]
            if ctx.v_metal[v]:
                R.metal_slots[R.n_metal] = v * 6 + j
                R.n_metal += 1
    if R.skind != NULL:
        for j in range(R.S):
            R.m0[j] = 1 if R.skind[j] == 0 and R.init[j] > 0 else 0
            R.m1[j] = 1 if R.skind[j] == 1 else 0
            R.base[j] = (R.m0[j] & (R.init[j] == 0)) | (R.m1[j] & (R.init[j] >= 3))


cdef inline void phase_counted_start(PhaseRun* R, Ctx* ctx, int32_t* row0) noexcept nogil:
    """Counted mode (FAST-01), every trial in row 0: a trial's writes are noted (put), so the counts look only at them (the
    other slots end each trial as they started it), and the trial undoes only them when it ends."""
    memcpy(row0, R.init, R.S * sizeof(int32_t))
    ctx.mark = R.mark
    ctx.dirty = R.dirty
    ctx.n_dirty = 0


cdef inline void phase_trial_start(PhaseRun* R, Ctx* ctx, int32_t* row, uint64_t key) noexcept nogil:
    """A trial as every trial starts: its state (row, from the start's unless counted mode undid the last trial's
    writes), its dice (DICE-03), the per-vehicle block from start_v, the metal armour before (CW-DMG-08)."""
    cdef Py_ssize_t j
    ctx.st = row
    if not R.undo:
        memcpy(ctx.st, R.init, R.S * sizeof(int32_t))
    ctx.key = key
    ctx.k = 0
    ctx.cur_fiery = -1
    ctx.cur_vehicle = -1
    ctx.fire_noted = R.fire_start
    if R.tb == TRIAL_BLOCK:                          # fire_hits .. driver_before and the flags, as every trial starts
        memcpy(R.veh.fire_hits, R.start_v, TRIAL_BLOCK * sizeof(int32_t))
    else:
        memcpy(R.veh.fire_hits, R.start_v, R.tb * sizeof(int32_t))
    for j in range(R.n_metal):
        R.metal_before[R.metal_slots[j]] = R.metal_init[R.metal_slots[j]]


cdef inline int phase_collisions(PhaseRun* R, Ctx* ctx, int ph) noexcept nogil:
    """resolve_phase's collisions during phase ph's movement (phase._apply_collisions): each one's hits
    (collision_hits, CW-COL-04) on the vehicle's side (collision_damage, CW-COL-01..03). 1 if there was one."""
    cdef Py_ssize_t j
    cdef int any = 0
    cdef int32_t* cp
    cdef int32_t* consts = R.consts
    for j in range(R.C):
        cp = R.col + j * COL_NCOLS
        if cp[COL_PHASE] != ph:
            continue
        collision_damage(ctx, cp[COL_VEHICLE], cp[COL_SIDE],
                         collision_hits(ctx, cp[COL_COUNT], cp[COL_BONUS], cp[COL_FLOOR], cp[COL_NUM], cp[COL_DEN]),
                         consts[K_METAL_FACTOR], consts[K_CAP_NUM], consts[K_CAP_DEN])
        any = 1
    return any


cdef inline int pend_shot(PhaseRun* R, int n_pend, Py_ssize_t a, int dmg) noexcept nogil:
    """Attack a's damage, pending until the phase ends (resolve_phase: all damage at the end, in order,
    CW-ROF-02)."""
    R.pend[n_pend] = a
    R.pend_dmg[n_pend] = dmg
    return n_pend + 1


cdef inline void count_hit(PhaseRun* R, Py_ssize_t a, int dmg) noexcept nogil:
    """Counted mode (FAST-01): a hit by the damage it rolled (the last bin holds DMG_BINS - 1 and more, whose damage is summed
    exactly as it comes); a miss rolls none, and the misses are the trials left when the counts are flushed."""
    if dmg >= DMG_BINS - 1:
        R.acc[R.A + a] += dmg
        R.acc[2 * R.A + a] += <int64_t>dmg * dmg
        R.hc[a * DMG_BINS + DMG_BINS - 1] += 1
    else:
        R.hc[a * DMG_BINS + dmg] += 1


cdef inline int area_victim(PhaseRun* R, Ctx* ctx, Py_ssize_t a, int32_t* ap, int hit, int n_pend) noexcept nogil:
    """phase._roll_area (CW-DMG-07), after one intended victim's to-hit roll: after the last, one damage roll if
    any hit, and the defender's first `hits` victims (by ATK_AREA_RANK) take area_each each. Returns the pending
    shots."""
    cdef int each, rk, q
    R.dmgv[a] = 0
    if ap[ATK_AREA_PLACE] == 0:
        R.area_hits = 0
    R.area_hits += hit
    if R.acc != NULL:
        R.hc[a * DMG_BINS] += hit                # (counted: a victim hit, with no damage of its own)
    if ap[ATK_AREA_PLACE] == ap[ATK_AREA_VICTIMS] - 1 and R.area_hits > 0:
        each = area_each(ctx, ap[ATK_DMG_COUNT], ap[ATK_DMG_BONUS], ap[ATK_DMG_HITS], ap[ATK_AREA_FULL],
                         R.consts[K_AREA_DIVISOR])
        for rk in range(R.area_hits):
            for q in range(a - ap[ATK_AREA_VICTIMS] + 1, a + 1):
                if R.atk[q * ATK_NCOLS + ATK_AREA_RANK] == rk:
                    n_pend = pend_shot(R, n_pend, q, each)
    return n_pend


cdef inline int attack_rolls(PhaseRun* R, Ctx* ctx, Py_ssize_t a, int touched, int n_pend) noexcept nogil:
    """One attack as its turn comes (phase._fire_one, attack.roll_attack): cancelled, with no die, when the state
    forbids it (CW-ROF-02, attack_check; until damage lands in the trial the state is the start's, and so is the
    check: cut0, need0); else to hit (CW-HIT-01) and on a hit its damage (CW-DMG-01), pending until the phase
    ends; an area-effect attack's victims by area_victim. Returns the pending shots."""
    cdef int32_t* ap = R.atk + a * ATK_NCOLS
    cdef int cut, needed, hit, dmg
    if R.dynamic and touched:
        cut = attack_check(ctx.st, ap, R.afir, R.consts, &needed)
    else:
        cut = R.cut0[a]
        needed = R.need0[a]
    if cut:
        R.hitv[a] = 0
        R.dmgv[a] = 0
        return n_pend
    hit = to_hit(ctx, needed, R.consts[K_NATURAL_MISS])
    R.hitv[a] = hit
    if ap[ATK_AREA_PLACE] >= 0:
        return area_victim(R, ctx, a, ap, hit, n_pend)
    dmg = 0
    if hit:
        dmg = damage_roll(ctx, ap[ATK_DMG_COUNT], ap[ATK_DMG_BONUS], ap[ATK_DMG_HITS])
        if dmg:
            n_pend = pend_shot(R, n_pend, a, dmg)
        if R.acc != NULL:
            count_hit(R, a, dmg)
    R.dmgv[a] = dmg
    return n_pend


cdef inline int phase_damage(PhaseRun* R, Ctx* ctx, int n_pend) noexcept nogil:
    """resolve_phase: all the phase's damage at its end, in declaration order (phase._apply_hit): a pedestrian's
    (crew.damage_pedestrian), a vehicle's (its share for a hand weapon, CW-HAND-01; its fire modifier, CW-FIRE-01;
    shot_lands), none on a building; then each hit's burst on the pedestrians near (phase._burst, CW-DMG-06).
    1 if a vehicle was hit."""
    cdef int j, vi, kind, dmg, dealt = 0
    cdef Py_ssize_t a
    cdef int32_t* ap
    for j in range(n_pend):
        a = R.pend[j]
        ap = R.atk + a * ATK_NCOLS
        dmg = R.pend_dmg[j]
        kind = ap[ATK_KIND]
        vi = ap[ATK_INDEX]
        if kind == TGT_PEDESTRIAN:
            dmg_ped(ctx, R.p_hits[vi], R.p_ba[vi], dmg)
        elif kind == TGT_VEHICLE:    # (a building: its damage is not modelled)
            if ap[ATK_FIRE_MOD] >= 0:
                R.veh.fire_total[vi] += ap[ATK_FIRE_MOD]
                ctx.fire_noted |= vbit(vi)
            shot_lands(ctx, vi, ap[ATK_PART], ap[ATK_SIDE], ap[ATK_TIRE], hand_hits(ap[ATK_MODE], dmg), ap[ATK_FIERY])
            dealt = 1
        burst_on(ctx, R.brst, ap[ATK_BURST_LO], ap[ATK_BURST_HI], R.p_hits, R.p_ba)
    return dealt


cdef inline void phase_consequences(PhaseRun* R, Ctx* ctx) noexcept nogil:
    """phase._vehicle_consequences for each vehicle hit this phase (one that took no hits: nothing about it
    changed): the obstacle (obstacle_drops, CW-DMG-08) and its driver put out (CW-CREW-02/03: out of control; a
    solo cycle's Crash Table 1 roll is reported, not resolved, so its dice are drawn unseen)."""
    cdef Py_ssize_t v
    cdef int before, after
    for v in range(R.V):
        if R.veh.taken[v] == 0:
            continue
        if ctx.v_is_car[v] and obstacle_drops(ctx, v, R.metal_before, 1, R.consts[K_OBSTACLE_HITS]):
            R.flg[v] |= 8
        if ctx.v_driver[v] >= 0:
            before = R.veh.driver_before[v]
            after = crew_state(ctx, ctx.v_driver[v])
            R.veh.driver_before[v] = after
            if put_out(before, after):
                if ctx.v_kind[v] == KIND_CYCLE and ctx.v_sc_side[v] < 0:
                    skip(ctx, 2)            # Crash Table 1 (reported, not resolved)
                R.flg[v] |= 4


cdef inline void phase_fire(PhaseRun* R, Ctx* ctx) noexcept nogil:
    """fire.end_of_turn_fire (CW-FIRE-01..04) for each vehicle with something to roll for (no fire, no fire
    modifiers, no component hit: no roll) that has not exploded (no more fire rolls)."""
    cdef Py_ssize_t v
    for v in range(R.V):
        if not (ctx.fire_noted >> (v & 63)) & 1:
            continue
        if R.flg[v] & 2:
            continue
        if not R.veh.burning[v]:
            fire_starts(ctx, v, R.veh.fire_total[v], R.veh.burning, R.consts, ctx.v_fireproof[v])
        if R.veh.burning[v] and fire_burns(ctx, v, R.veh.burning, R.consts, ctx.v_extinguisher[v], ctx.v_can_explode[v],
                                       R.near_v + v * R.w_near_v, R.w_near_v, R.near_p + v * R.w_near_p, R.w_near_p,
                                       R.p_hits, R.p_ba):
            R.flg[v] |= 2


cdef inline void phase_trial(PhaseRun* R, Ctx* ctx) noexcept nogil:
    """phase.resolve_phase for one trial, phase by phase (a phase without a collision or an attack changes
    nothing): the movement's collisions, the attacks to hit in declaration order, all their damage at the phase's
    end, each vehicle's consequences (a phase that dealt no vehicle damage changed nothing about them); then the
    end of the turn's fire (CW-FIRE-01..04) and the burning flags."""
    cdef int i, ph, dealt = 0, touched = 0, n_pend
    cdef Py_ssize_t a, v
    for i in range(R.n_busy):
        ph = R.busy_ph[i]
        if dealt:
            for v in range(R.V):
                R.veh.taken[v] = 0
            dealt = 0
        if phase_collisions(R, ctx, ph):
            dealt = 1
            touched = 1
        # no attack's damage lands before the phase ends, and a weapon's damage and a person's hits never recover
        # within a turn, so checking each attack as its turn comes is checking them all before the first die
        n_pend = 0
        for a in range(R.a_lo[ph], R.a_lo[ph + 1]):
            n_pend = attack_rolls(R, ctx, a, touched, n_pend)
        if n_pend:
            touched = 1
        if phase_damage(R, ctx, n_pend):
            dealt = 1
        if dealt:
            phase_consequences(R, ctx)
    if R.end_of_turn and ctx.fire_noted:
        phase_fire(R, ctx)
    for v in range(R.V):
        if R.veh.burning[v]:
            R.flg[v] |= 1


cdef inline void phase_store(PhaseRun* R, uint8_t* flags, uint8_t* hit, int32_t* damage) noexcept nogil:
    """FAST-01: a trial's results to its rows of the outputs (BatchResult's hit, damage, flags): the vehicle flags, each attack's hit and damage rolled."""
    cdef Py_ssize_t v, a
    for v in range(R.V):
        flags[v] = R.flg[v]
    for a in range(R.A):
        hit[a] = R.hitv[a]
        damage[a] = R.dmgv[a]


cdef inline int slot_destroyed(PhaseRun* R, Py_ssize_t j, int value) noexcept nogil:
    """Counted mode (FAST-01): 1 if slot j at `value` counts as destroyed (m0: dp or armour at 0 from above 0; m1: a person
    with 3 hits)."""
    return (R.m0[j] & (value == 0)) | (R.m1[j] & (value >= 3))


cdef inline void phase_undo(PhaseRun* R, Ctx* ctx) noexcept nogil:
    """Counted mode (FAST-01): the slots the trial wrote, counted destroyed or not against `base` (destroyed as every trial
    starts, added for every trial when the counts are flushed), then undone, so the next trial starts as every
    trial."""
    cdef Py_ssize_t j
    cdef int q
    for j in range(ctx.n_dirty):
        q = R.dirty[j]
        if R.skind != NULL:
            R.dcount[q] += slot_destroyed(R, q, ctx.st[q]) - R.base[q]
        ctx.st[q] = R.init[q]
        R.mark[q] = 0
    ctx.n_dirty = 0


cdef inline void phase_flush(PhaseRun* R) noexcept nogil:
    """Counted mode (FAST-01): the 32-bit counts into `acc`: per attack its hits and damage sums from the damage bins (a miss
    or a cancelled attack rolled no damage: bin 0, the trials left), the histogram when `acc` has room, the slots
    destroyed, and the vehicles' flags split into their four bits."""
    cdef Py_ssize_t A = R.A, S = R.S, V = R.V, a, v, b_
    cdef int j, q
    cdef int64_t* accp = R.acc
    cdef int32_t* hc = R.hc
    for a in range(A):
        q = 0
        for j in range(DMG_BINS):
            q += hc[a * DMG_BINS + j]
        accp[a] += q
        if R.hist:
            accp[3 * A + S + 4 * V + DMG_BINS * a] += R.since - q
        for j in range(DMG_BINS):
            if j < DMG_BINS - 1:
                accp[A + a] += <int64_t>j * hc[a * DMG_BINS + j]
                accp[2 * A + a] += <int64_t>j * j * hc[a * DMG_BINS + j]
            if R.hist:
                accp[3 * A + S + 4 * V + DMG_BINS * a + j] += hc[a * DMG_BINS + j]
            hc[a * DMG_BINS + j] = 0
    for j in range(S):
        accp[3 * A + j] += R.dcount[j] + R.since * R.base[j]
        R.dcount[j] = 0
    R.since = 0
    for v in range(V):
        for j in range(16):
            for b_ in range(4):
                if j & (1 << b_):
                    accp[3 * A + S + 4 * v + b_] += R.fcount[16 * v + j]
            R.fcount[16 * v + j] = 0


cdef inline void phase_count(PhaseRun* R, Ctx* ctx, int flush) noexcept nogil:
    """Counted mode (FAST-01), after a trial: the slots destroyed (in arrays mode, every slot), the flags by their pattern per
    vehicle (one add, not four); every 2**30 trials and at the end, phase_flush."""
    cdef Py_ssize_t j, v
    if not R.undo:
        for j in range(R.S):
            R.dcount[j] += slot_destroyed(R, j, ctx.st[j]) - R.base[j]
    R.since += 1
    for v in range(R.V):
        R.fcount[16 * v + (R.flg[v] & 15)] += 1
    if flush:
        phase_flush(R)


def run_phase(
    uint64_t seed, uint64_t first_trial, dict arrays, int32_t end_of_turn,
    int32_t[:, ::1] out_state, uint8_t[:, ::1] out_hit, int32_t[:, ::1] out_damage, uint8_t[:, ::1] out_flags,
    Py_ssize_t n_trials=-1, int32_t store=1, int32_t[::1] slot_kind=None, int64_t[::1] acc=None, int32_t n_phases=1,
):
    """Run trials first_trial .. first_trial + n_trials - 1 of one phase (and the end of its turn): ARCH-03, FAST-01,
    phase.resolve_phase and fire.end_of_turn_fire (phase_trial), bit for bit.

    With `store` (the default), trial t's results go to row t of the outputs
    (n_trials defaults to their length). Without it, every trial works in row 0
    of `out_state` (the other outputs are not written) and only `acc` keeps the counts: hits per attack, damage and damage squared summed per attack,
    trials in which each slot ends destroyed (`slot_kind` 0: dp or armour at 0
    from above 0; 1: a person with 3 hits; 2: not counted), and per vehicle the
    trials with each of the four flags, and (when `acc` has room for them) a histogram of the damage
    rolled per attack in DMG_BINS bins. The counts are added to `acc`.

    Writes each trial's final state (the slots), hits, damage rolled, and per
    vehicle flags (bit 0 burning, 1 exploded, 2 uncontrolled, 3 obstacle dropped).
    Releases the GIL for the whole loop.
    """
    cdef Arrays pk
    cdef PhaseRun R
    cdef Ctx ctx
    cdef Py_ssize_t t, r_
    cdef int32_t* skind = NULL
    cdef int64_t* accp = NULL
    if unpack_phase(&pk, arrays) != 0:
        return -1
    if n_trials < 0:
        n_trials = out_state.shape[0]
    if slot_kind is not None and acc is not None:
        skind = &slot_kind[0]
        accp = &acc[0]
    if not phase_call_ok(&pk, n_phases, n_trials, store, out_state.shape, out_hit.shape, out_damage.shape,
                         out_flags.shape, accp != NULL, slot_kind.shape[0] if accp != NULL else 0,
                         acc.shape[0] if accp != NULL else 0):
        return -1
    # the scratch, sized to this scenario (kept alive by `scratch` until the return), and the damage code's context
    cdef int32_t[::1] scratch = np.zeros(phase_scratch_len(&pk), dtype=np.int32)
    phase_bind(&R, &pk, &scratch[0], n_phases, end_of_turn, store, n_trials, skind, accp)
    lists = ctx_bind(&ctx, &pk, &R.veh)
    if lists is None or not phase_rows_ok(&pk):
        return -1
    R.hist = accp != NULL and acc.shape[0] >= 3 * R.A + R.S + 4 * R.V + DMG_BINS * R.A
    with nogil:
        phase_plan(&R)
        phase_start(&R, &ctx)
        if R.undo:
            phase_counted_start(&R, &ctx, &out_state[0, 0])
        for t in range(n_trials):
            r_ = t if store else 0
            phase_trial_start(&R, &ctx, &out_state[r_, 0], hp_stream_key(seed, first_trial + <uint64_t>t))
            phase_trial(&R, &ctx)
            if store:
                phase_store(&R, &out_flags[r_, 0], &out_hit[r_, 0], &out_damage[r_, 0])
            if R.undo:
                phase_undo(&R, &ctx)
            if accp != NULL:
                phase_count(&R, &ctx, (t & 0x3FFFFFFF) == 0x3FFFFFFF or t == n_trials - 1)
    return 0


cdef int best_exposed(Ctx* c, int v, int mask) noexcept nogil:
    """CW-FIRE-04 (RULING): of the sides facing the blast (bit mask), the one with most armour left."""
    cdef int best = -1, s, a, besta = -1
    if mask == 0:
        return UNDERBODY
    for s in range(4):
        if mask & (1 << s):
            a = c.st[c.v_armour[v] + s]
            if a > besta:
                besta = a
                best = s
    return best


def floor_loop(uint64_t seed, uint64_t first_trial, Py_ssize_t n_trials, int needed, int damage_dice):
    """The floor for PERF-01 (benchmarks/test_bench_carwars.py): draw the same dice as one attack (2d6, then the damage dice on a hit) and compare."""
    cdef Py_ssize_t t
    cdef uint64_t key, k
    cdef int a, b, i, s
    cdef int64_t acc = 0
    with nogil:
        for t in range(n_trials):
            key = hp_stream_key(seed, first_trial + <uint64_t>t)
            a = hp_face(key, 0)
            b = hp_face(key, 1)
            if a + b != 2 and a + b >= needed:
                s = 0
                for i in range(damage_dice):
                    s += hp_face(key, 2 + i)
                acc += s
    return acc


def dice_floor(uint64_t seed, uint64_t first_trial, Py_ssize_t n_trials, int per_trial):
    """A floor for PERF-01 (fights, benchmarks/test_bench_fights.py): per trial one key, `per_trial` faces drawn from it and added up."""
    cdef Py_ssize_t t
    cdef uint64_t key
    cdef int i
    cdef int64_t acc = 0
    with nogil:
        for t in range(n_trials):
            key = hp_stream_key(seed, first_trial + <uint64_t>t)
            for i in range(per_trial):
                acc += hp_face(key, <uint64_t>i)
    return acc


DEF MAX_FIRE_RING = 128  # the most turns of fire modifiers kept per vehicle (fc FIRE_RING; the schema's burns last 100 at most)
DEF MAXW = 262144       # weapon keys and mounted weapons of a fight
DEF MAXU = 65536        # units of a fight (and sides)
DEF MAXCH = 262144      # crew members and pedestrians


cdef inline int first_able(int32_t* st, int32_t* c_hits, int32_t* fir, int lo, int hi) noexcept nogil:
    """CW-CREW-01: the first of an entry's firer rows lo .. hi-1 whose character can act (fewer than 2 hits), or -1: the named
    firer, or attack._default_firer's first able one."""
    cdef int i
    for i in range(lo, hi):
        if st[c_hits[fir[i * FIR_NCOLS + FIR_CHARACTER]]] < 2:
            return i
    return -1


cdef inline int repick_firer(int32_t* st, int32_t* c_hits, int32_t* fir, int32_t* ep, int32_t* fired_ch, int old_ch,
                             int* ch_out) noexcept nogil:
    """After the phase's collisions (phase._after_collisions): a planned entry's default firer is the first able now
    (none able: the first of its rows, as attack._default_firer), and he, not `old_ch`, is the one marked as firing
    (CW-ROF-01). Writes him to `ch_out`; returns his row, or -1 when none can fire."""
    cdef int fr = first_able(st, c_hits, fir, ep[ENT_FIR_LO], ep[ENT_FIR_HI])
    cdef int ch = fir[fr * FIR_NCOLS + FIR_CHARACTER] if fr >= 0 else fir[ep[ENT_FIR_LO] * FIR_NCOLS + FIR_CHARACTER]
    if ch != old_ch:
        fired_ch[old_ch] = 0
        fired_ch[ch] = 1
    ch_out[0] = ch
    return fr


cdef inline int group_firer(int32_t* st, int32_t* c_hits, int32_t* fir, int32_t* ep, int32_t* fired_ch) noexcept nogil:
    """The firer row a planned link or area attack fires with (CW-ROF-01, CW-CREW-01): the first able of its firer rows, if he has not fired
    this turn and the rules let it go ahead (a candidate); he is then marked as firing. -1: it is cancelled."""
    cdef int fr = first_able(st, c_hits, fir, ep[ENT_FIR_LO], ep[ENT_FIR_HI])
    if fr < 0:
        return -1
    if fired_ch[fir[fr * FIR_NCOLS + FIR_CHARACTER]] or fir[fr * FIR_NCOLS + FIR_CAND_HI] == fir[fr * FIR_NCOLS + FIR_CAND_LO]:
        return -1
    fired_ch[fir[fr * FIR_NCOLS + FIR_CHARACTER]] = 1
    return fr


# --- run_fight: whole fights, many turns, standing orders, out of action (FIGHT-01..05) -----------------------------
# Must agree bit for bit with `hardpoint.carwars.turn.run_turns(..., fight=...)`: each turn's phases (the
# collisions of the movement, the standing orders' attacks chosen as `carwars.fight.order_attacks` chooses them,
# to hit, damage at the phase's end, the driver's consequences), the end of the turn's fire checks, who is out
# of action after the turn (`carwars.fight.out_of_action`), and the end when decided. The packer
# (`hardpoint.carwars.batch._pack_fight`) precomputes what does not depend on the dice: every counter's place at
# every phase (movement goes straight and stops where counters collide), so each order's candidate shots are rows
# of numbers, ordered by range then unit; the kernel walks them, skipping what the dice have put out.
# A trial: fight_fresh or fight_resume, then fight_turns (fight_phase for each phase of each turn), then
# fight_outcome or fight_save. The mechanics below compile into fight_turns, which run_fight calls once a trial
# (the rare links and area attacks may stay calls); the trial's start and end compile into run_fight's loop.

cdef int fight_call_ok(Arrays* pk, Py_ssize_t N, Py_ssize_t W, Py_ssize_t NA, Py_ssize_t* saved_shape, Py_ssize_t n_redo,
                       Py_ssize_t* hit_shape, Py_ssize_t* damage_shape) noexcept nogil:
    """run_fight's checks before it sizes its scratch (ARCH-04): the fight within the kernel's sizes (vehicles,
    weapons, units, characters, turns, phases of a turn, sides, the fire ring, grenade kinds); every array sized
    to the turns and phases; the `saved` rows wide enough for what a trial carries on; the phases' entries and
    collisions in order (the scratch is sized to the most entries of a phase). 1 if they hold."""
    cdef int32_t* fc = pk.fc
    cdef Py_ssize_t V = pk.n_v_armour, NP = pk.n_p_hits, U = pk.n_u_side, NC = pk.n_c_hits, NW = pk.n_w_slot
    cdef int T = fc[F_T], P = fc[F_P], ring = fc[F_FIRE_RING], H = fc[F_HANDS]
    cdef Py_ssize_t NH = (NC + NP) * H if H > 0 else 0
    if V > MAX_VEHICLES or NW > MAXW or W > MAXW or U > MAXU or NC + NP > MAXCH or T < 1 or P < 1 or P > 6 \
            or pk.n_tp_lo != T * P + 1 or pk.n_col_lo != T * P + 1 or fc[F_SIDES] > MAXU or fc[F_SIDES] < 0 \
            or saved_shape[0] != N or pk.n_known_unc != V or fc[F_COUNTERS] < 0 \
            or (pk.n_obs_met != 0 and pk.n_obs_met != T * P * V) \
            or saved_shape[1] < 2 * V + NW + 3 * W + U + ring * V + NH + fc[F_COUNTERS] \
            or H < 0 or pk.n_hand0 != NH or pk.n_hand_eq != H or not -1 <= fc[F_FETCH_HAND] < (H if H > 0 else 0) \
            or pk.n_ocon_lo != T * P + 1 or pk.n_drop_lo != T * P + 1 or n_redo != N \
            or pk.n_offr_lo != T + 1 or pk.n_v_off != V or pk.n_t_immune != pk.n_t_slot or pk.n_crash_out != 26 \
            or hit_shape[0] != N or damage_shape[0] != N or hit_shape[1] != damage_shape[1] \
            or pk.n_rec0 != 3 * W or ring < 2 or ring > MAX_FIRE_RING or pk.n_fring0 != (ring + 3) * V or pk.n_crash0 != V \
            or pk.consts[K_AREA_DIVISOR] < 1:
        return 0
    return lo_ok(pk.tp_lo, T * P, pk.n_ent) and lo_ok(pk.col_lo, T * P, pk.n_fcol)


cdef inline Py_ssize_t fight_most_entries(Arrays* pk) noexcept nogil:
    """ARCH-03: one more than the most entries of a phase (the shots one phase accepts: at most one an entry), at least 1."""
    cdef Py_ssize_t i, As_ = 1
    for i in range(pk.fc[F_T] * pk.fc[F_P]):
        if pk.tp_lo[i + 1] - pk.tp_lo[i] >= As_:
            As_ = pk.tp_lo[i + 1] - pk.tp_lo[i] + 1
    return As_


cdef inline Py_ssize_t fight_scratch_len(Arrays* pk, Py_ssize_t W) noexcept nogil:
    """ARCH-03: the int32 scratch fight_bind carves, sized to this fight: per vehicle, per weapon key and mounted weapon, per
    character, per unit and side, per shot accepted in one phase, per counter."""
    cdef int32_t* fc = pk.fc
    cdef Py_ssize_t V = pk.n_v_armour, NW = pk.n_w_slot, U = pk.n_u_side
    cdef Py_ssize_t Vs = V if V > 0 else 1, Ws = (NW if NW > W else W) + 1, Cs = pk.n_c_hits + pk.n_p_hits + 1
    cdef Py_ssize_t Us = (U if U > fc[F_SIDES] else fc[F_SIDES]) + 1
    return (7 + fc[F_FIRE_RING] + 6) * Vs + 5 * Ws + Cs + 2 * Us + 11 * fight_most_entries(pk) + fc[F_COUNTERS] + 1


cdef void fight_bind(FightRun* F, Arrays* pk, Py_ssize_t W, Py_ssize_t NA, int32_t* scratch, int32_t* ch_hits,
                     int32_t* held) noexcept nogil:
    """run_fight's run from its arrays (the preamble, ARCH-03): the rows and figures the trials read, the sizes,
    and the scratch carved from `scratch` (fight_scratch_len ints, zeroed); `ch_hits` gets each character's hits
    slot (NC + NP + 1 ints), `held` holds the grenades (NH + 1)."""
    cdef int32_t* fc = pk.fc
    cdef Py_ssize_t i, V = pk.n_v_armour, NW = pk.n_w_slot, U = pk.n_u_side, NC = pk.n_c_hits, NP = pk.n_p_hits
    cdef Py_ssize_t Vs = V if V > 0 else 1, Ws = (NW if NW > W else W) + 1, Cs = NC + NP + 1
    cdef Py_ssize_t Us = (U if U > fc[F_SIDES] else fc[F_SIDES]) + 1, As_ = fight_most_entries(pk)
    cdef int ring = fc[F_FIRE_RING]
    F.init, F.fc, F.consts = pk.init, fc, pk.consts
    F.ent, F.tp_lo, F.fir, F.cand, F.fcol, F.col_lo = pk.ent, pk.tp_lo, pk.fir, pk.cand, pk.fcol, pk.col_lo
    F.drop, F.drop_lo, F.ocon, F.ocon_lo, F.offr, F.offr_lo = pk.drop, pk.drop_lo, pk.ocon, pk.ocon_lo, pk.offr, pk.offr_lo
    F.brst, F.prob36, F.crash_out, F.u_side, F.moving_end, F.known_unc = pk.brst, pk.prob36, pk.crash_out, pk.u_side, pk.moving_end, pk.known_unc
    F.obs_met, F.n_obs_met, F.obs_redo = pk.obs_met, pk.n_obs_met, 0
    F.near_v, F.near_p, F.w_near_v, F.w_near_p = pk.near_v, pk.near_p, pk.w_near_v, pk.w_near_p
    F.rec0, F.fring0, F.crash0, F.hand0, F.hand_eq = pk.rec0, pk.fring0, pk.crash0, pk.hand0, pk.hand_eq
    F.v_off = pk.v_off
    F.w_slot, F.w_shots, F.w_ammo0, F.w_usable = pk.w_slot, pk.w_shots, pk.w_ammo0, pk.w_usable
    F.c_hits, F.c_takeover, F.c_hand, F.t_slot, F.t_immune = pk.c_hits, pk.c_takeover, pk.c_hand, pk.t_slot, pk.t_immune
    F.p_hits, F.p_ba = pk.p_hits, pk.p_ba
    F.S, F.V, F.NP, F.U, F.W, F.NC, F.NW, F.NA, F.NK = pk.n_init, V, NP, U, W, NC, NW, NA, fc[F_COUNTERS]
    F.T, F.P, F.H, F.ring = fc[F_T], fc[F_P], fc[F_HANDS], ring
    F.NH = (NC + NP) * F.H if F.H > 0 else 0
    F.nm, F.maxn, F.wpen, F.sf2, F.sf3 = fc[F_NM], fc[F_MAXN], fc[F_WPEN], fc[F_SF2], fc[F_SF3]
    F.area_hits, F.tslot = 0, 0
    F.drive = NULL
    F.ch_hits, F.held = ch_hits, held
    for i in range(NC):
        ch_hits[i] = pk.c_hits[i]
    for i in range(NP):
        ch_hits[NC + i] = pk.p_hits[i]
    F.crash = carve_vehicles(&F.veh, scratch, Vs)
    F.fire_future = F.crash + Vs
    F.metal_before = F.fire_future + ring * Vs
    F.ammo = F.metal_before + 6 * Vs
    F.fired_w = F.ammo + Ws
    F.rec_t = F.fired_w + Ws
    F.rec_s = F.rec_t + Ws
    F.rec_turn = F.rec_s + Ws
    F.fired_ch = F.rec_turn + Ws
    F.outu = F.fired_ch + Cs
    F.alive_side = F.outu + Us
    F.acc_k = F.alive_side + Us
    F.acc_need = F.acc_k + As_
    F.acc_fs = F.acc_need + As_
    F.acc_wk = F.acc_fs + As_
    F.acc_w = F.acc_wk + As_
    F.acc_dmg = F.acc_w + As_
    F.acc_ok = F.acc_dmg + As_
    F.acc_atk = F.acc_ok + As_
    F.acc_e = F.acc_atk + As_
    F.acc_ch = F.acc_e + As_
    F.acc_off = F.acc_ch + As_
    F.gone = F.acc_off + As_


cdef int fight_outputs_ok(Py_ssize_t N, Py_ssize_t S, Py_ssize_t V, Py_ssize_t U, Py_ssize_t W, Py_ssize_t* state_shape,
                          Py_ssize_t* flags_shape, Py_ssize_t* turn_shape, Py_ssize_t n_result, Py_ssize_t n_turns,
                          Py_ssize_t n_diverged, Py_ssize_t n_saved_k, Py_ssize_t* shots_shape, Py_ssize_t* hits_shape,
                          Py_ssize_t* dmg_shape, Py_ssize_t n_start, Py_ssize_t n_ids) noexcept nogil:
    """ARCH-04: the outputs of the fight's widths, with a row for every trial (never written out of bounds). 1 if so."""
    return not (state_shape[1] != S or flags_shape[0] != N or flags_shape[1] < V or turn_shape[0] != N
                or turn_shape[1] < U or n_result != N or n_turns != N or n_diverged != N
                or n_saved_k != N or shots_shape[0] != N or hits_shape[0] != N or dmg_shape[0] != N
                or hits_shape[1] != W or dmg_shape[1] != W or (n_start != 0 and n_start != N)
                or (n_ids != 0 and n_ids != N))


cdef inline void fight_fresh(FightRun* F, Ctx* ctx) noexcept nogil:
    """A trial from the fight's start (turn.run_turns on the scenario as loaded): the state, the dice from the
    first, vehicles exploded before (CW-FIRE-04), burning, a Crash Table result before the start (FIGHT-03),
    ammunition, grenades (CW-HAND-01), the sustained-fire history (CW-HIT-09), the fire modifiers carried in
    (CW-FIRE-01); no shot, no unit out, no counter gone."""
    cdef Py_ssize_t i, v, V = F.V
    memcpy(ctx.st, F.init, F.S * sizeof(int32_t))
    ctx.k = 0
    for v in range(V):
        F.flags[v] = 2 if F.fring0[(F.ring + 2) * V + v] else 0    # exploded before (CW-FIRE-04)
    memcpy(F.veh.burning, ctx.v_burning, V * sizeof(int32_t))
    for v in range(V):
        F.crash[v] = F.crash0[v]           # a Crash Table result before the start (FIGHT-03)
    for i in range(F.NW):
        F.ammo[i] = F.w_ammo0[i]
    for i in range(F.NH):
        F.held[i] = F.hand0[i]
    for i in range(F.W):
        F.rec_t[i] = F.rec0[i]            # the scenario's sustained-fire history (CW-HIT-09)
        F.rec_s[i] = F.rec0[F.W + i]
        F.rec_turn[i] = F.rec0[2 * F.W + i]
        F.shots[i] = 0
        F.hits[i] = 0
        F.dmg[i] = 0
    for i in range(F.U):
        F.outu[i] = 0
    for i in range(F.NA):
        F.hit[i] = 0
        F.damage[i] = 0
    for i in range(F.ring * V):
        F.fire_future[i] = F.fring0[i]     # the fire modifiers carried in (CW-FIRE-01)
    for i in range(F.NK):
        F.gone[i] = 0


cdef inline void fight_resume(FightRun* F, Ctx* ctx, uint64_t k) noexcept nogil:
    """FIGHT-04: a trial resumed after a turn (the wrapper's packing of the movement with a vehicle slowing): the outputs hold
    its state, its `saved` row the rest (fight_save), `k` the dice drawn."""
    cdef Py_ssize_t i, v, V = F.V, NW = F.NW, W = F.W, U = F.U
    cdef int32_t* sv = F.sv
    ctx.k = k
    for v in range(V):
        F.veh.burning[v] = sv[v]
        F.crash[v] = sv[V + v]
    for i in range(NW):
        F.ammo[i] = sv[2 * V + i]
    for i in range(W):
        F.rec_t[i] = sv[2 * V + NW + i]
        F.rec_s[i] = sv[2 * V + NW + W + i]
        F.rec_turn[i] = sv[2 * V + NW + 2 * W + i]
    for i in range(U):
        F.outu[i] = sv[2 * V + NW + 3 * W + i]
    for i in range(F.ring * V):
        F.fire_future[i] = sv[2 * V + NW + 3 * W + U + i]
    for i in range(F.NH):
        F.held[i] = sv[2 * V + NW + 3 * W + U + F.ring * V + i]
    for i in range(F.NK):
        F.gone[i] = sv[2 * V + NW + 3 * W + U + F.ring * V + F.NH + i]


cdef inline void fight_save(FightRun* F) noexcept nogil:
    """FIGHT-04: a trial stopped where it diverged (fight_turns): what the outputs do not hold to its `saved` row (burning,
    crash, ammunition, sustained fire, who is out, the fire rings, grenades, counters gone), as fight_resume reads
    it."""
    cdef Py_ssize_t i, v, V = F.V, NW = F.NW, W = F.W, U = F.U
    cdef int32_t* sv = F.sv
    for v in range(V):
        sv[v] = F.veh.burning[v]
        sv[V + v] = F.crash[v]
    for i in range(NW):
        sv[2 * V + i] = F.ammo[i]
    for i in range(W):
        sv[2 * V + NW + i] = F.rec_t[i]
        sv[2 * V + NW + W + i] = F.rec_s[i]
        sv[2 * V + NW + 2 * W + i] = F.rec_turn[i]
    for i in range(U):
        sv[2 * V + NW + 3 * W + i] = F.outu[i]
    for i in range(F.ring * V):
        sv[2 * V + NW + 3 * W + U + i] = F.fire_future[i]
    for i in range(F.NH):
        sv[2 * V + NW + 3 * W + U + F.ring * V + i] = F.held[i]
    for i in range(F.NK):
        sv[2 * V + NW + 3 * W + U + F.ring * V + F.NH + i] = F.gone[i]


cdef inline void fight_turn_start(FightRun* F, int turn) noexcept nogil:
    """The turn's start: its place in the fire rings (CW-FIRE-01), no component hit yet (CW-FIRE-02; in the first
    turn, those earlier in it), no weapon and no character fired this turn (CW-ROF-01)."""
    cdef Py_ssize_t i, v, V = F.V
    F.tslot = turn % F.ring
    memset(F.veh.fire_hits, 0, V * sizeof(int32_t))
    memset(F.veh.fire_hit_fiery, 0, V * sizeof(int32_t))
    if turn == 1:
        for v in range(V):
            F.veh.fire_hits[v] = F.fring0[F.ring * V + v]          # component hits earlier in the first turn
            F.veh.fire_hit_fiery[v] = F.fring0[F.ring * V + V + v]
    for i in range(F.W):
        F.fired_w[i] = 0
    for i in range(F.NC + F.NP):
        F.fired_ch[i] = 0


cdef inline void offroad_damage(FightRun* F, Ctx* ctx, int turn) noexcept nogil:
    """Off-road damage at the start of the turn (turn._start_of_turn, terrain.offroad_damage, CW-OFF-02): each roll
    on the underbody's band hits it (not at high clearance; what armour cannot stop is lost), on the tires' band a
    tire picked at random (not an immune one, nor one gone)."""
    cdef Py_ssize_t i, v, j
    cdef int r, k
    cdef int32_t* fc = F.fc
    cdef int32_t* op
    for i in range(F.offr_lo[turn - 1], F.offr_lo[turn]):
        op = F.offr + i * OFFR_NCOLS
        v = op[OFFR_VEHICLE]
        for j in range(op[OFFR_ROLLS]):
            r = roll(ctx, fc[F_OFF_COUNT], fc[F_OFF_BONUS], fc[F_OFF_FLOOR])
            if fc[F_OFF_UB_LO] <= r <= fc[F_OFF_UB_HI]:
                if not op[OFFR_HIGH]:
                    dmg_slot(ctx, ctx.v_armour[v] + UNDERBODY, fc[F_OFF_POINTS])
            elif fc[F_OFF_T_LO] <= r <= fc[F_OFF_T_HI] and ctx.v_t1[v] > ctx.v_t0[v]:
                k = ctx.v_t0[v] + pick(ctx, ctx.v_t1[v] - ctx.v_t0[v])
                if not F.t_immune[k] and ctx.st[F.t_slot[k]] > 0:
                    dmg_slot(ctx, F.t_slot[k], fc[F_OFF_POINTS])


cdef inline int weapon_out(FightRun* F, Ctx* ctx, int w) noexcept nogil:
    """Mounted weapon w cannot fire: destroyed (CW-VEH-03) or out of ammunition."""
    return ctx.st[F.w_slot[w]] <= 0 or (F.w_shots[w] and F.ammo[w] <= 0)


cdef inline int drop_detonates(FightRun* F, int32_t* dp) noexcept nogil:
    """turn._do_action, a detonation of mines by remote control (CW-DROP-03): it goes ahead unless the driver has
    fired this turn (CW-ROF-01) or the mines are gone; it is then his firing action and the counter is gone."""
    cdef int happened = not (dp[DROP_DRIVER] >= 0 and F.fired_ch[dp[DROP_DRIVER]]) and not F.gone[dp[DROP_COUNTER]]
    if happened:
        if dp[DROP_DRIVER] >= 0:
            F.fired_ch[dp[DROP_DRIVER]] = 1
        F.gone[dp[DROP_COUNTER]] = 1
    return happened


cdef inline int substitute_takes_over(FightRun* F, Ctx* ctx, int32_t* dp) noexcept nogil:
    """crew.substitute_driver (CW-CREW-04): a crew member takes over only from a driver who is incapacitated (or
    none), and only if he can act himself; the rest is the packing's."""
    return (dp[DROP_DRIVER] < 0 or ctx.st[F.c_hits[dp[DROP_DRIVER]]] >= 2) and ctx.st[F.c_hits[dp[DROP_CREW]]] < 2


cdef inline int grenade_fetched(FightRun* F, Ctx* ctx, Py_ssize_t i, Py_ssize_t end) noexcept nogil:
    """turn._do_action, a grenade out of the cargo (CW-HAND-01): fetched if a box of them (the BOX rows after row i)
    is not destroyed and he may carry one more: his counted grenades within the row's ROOM."""
    cdef int32_t* dp = F.drop + i * DROP_NCOLS
    cdef int happened = 0, hk
    cdef Py_ssize_t j = i + 1
    cdef int64_t room               # (64 bits: the counts times their grenade-equivalents)
    while j < end and F.drop[j * DROP_NCOLS + DROP_KIND] == DR_BOX:
        if ctx.st[F.drop[j * DROP_NCOLS + DROP_SLOT]] > 0:
            happened = 1
        j += 1
    if happened:
        room = dp[DROP_ROOM]
        for hk in range(F.H):
            room -= <int64_t>F.held[dp[DROP_CREW] * F.H + hk] * F.hand_eq[hk]
        happened = room >= 0
    return happened


cdef inline int action_goes_ahead(FightRun* F, Ctx* ctx, Py_ssize_t i, Py_ssize_t end, int kind) noexcept nogil:
    """turn._do_action, a declared drop (its MEMBER rows follow) or an automatic switch: cancelled if the driver
    has fired this turn (CW-ROF-01, CW-AUTO-01); a drop cancelled whole if one of its weapons has fired this turn,
    is destroyed or is empty (validate.check_drop, asked of every weapon before anything is dropped)."""
    cdef int32_t* dp = F.drop + i * DROP_NCOLS
    cdef int happened = 0 if dp[DROP_DRIVER] >= 0 and F.fired_ch[dp[DROP_DRIVER]] else 1
    cdef Py_ssize_t j = i + 1
    cdef int w
    if kind == DR_ACTION:
        while happened and j < end and F.drop[j * DROP_NCOLS + DROP_KIND] == DR_MEMBER:
            w = F.drop[j * DROP_NCOLS + DROP_WEAPON]
            if F.fired_w[F.drop[j * DROP_NCOLS + DROP_WKEY]] or weapon_out(F, ctx, w):
                happened = 0
            j += 1
    return happened


cdef inline int weapon_drops(FightRun* F, Ctx* ctx, int32_t* dp, int kind, int acting) noexcept nogil:
    """dropped.drop_weapon for a weapon of a declared drop (MEMBER: if its action went ahead) or a dropped weapon on
    automatic (turn._automatic_drops, CW-DROP-01/05: if not destroyed nor empty): one shot of ammunition and, fired
    in water (CW-DROP-06), on 1d in the band water backs up into the weapon (damage to it alone; what it cannot
    take goes nowhere). 1 if it dropped."""
    cdef int w = dp[DROP_WEAPON], happened, r
    cdef int32_t* fc = F.fc
    if kind == DR_MEMBER:
        happened = acting          # its action went ahead (every weapon of it can drop)
        if happened:
            F.fired_w[dp[DROP_WKEY]] = 1
    else:
        happened = not weapon_out(F, ctx, w)
    if happened and F.w_shots[w]:
        F.ammo[w] -= 1
    if happened and dp[DROP_WATER]:
        r = die(ctx)
        if fc[F_WATER_LO] <= r <= fc[F_WATER_HI]:
            dmg_slot(ctx, F.w_slot[w], roll(ctx, fc[F_WATER_COUNT], fc[F_WATER_BONUS], fc[F_WATER_FLOOR]))
    return happened


cdef inline int fight_drops(FightRun* F, Ctx* ctx, int tp) noexcept nogil:
    """Phase tp's declared drops, switches, detonations, substitutions and grenade fetches (before the movement),
    then dropped weapons on automatic (after it): turn._do_action and turn._automatic_drops, each against what the
    packing assumed (DROP_ASSUMED). A drop of mines, spikes or junk the packing has happen and the dice prevent
    is followed here: what it would have laid is gone. Any other difference stops the trial: returns its row + 1
    (the wrapper packs the fight again with it), else 0."""
    cdef Py_ssize_t i, end = F.drop_lo[tp + 1]
    cdef int kind, happened, acting = 0
    cdef int32_t* dp
    for i in range(F.drop_lo[tp], end):
        dp = F.drop + i * DROP_NCOLS
        kind = dp[DROP_KIND]
        if kind == DR_DETONATE:
            if drop_detonates(F, dp) and not dp[DROP_ASSUMED]:
                return i + 1
            continue                       # cancelled: nothing changes, as the packing has it
        if kind == DR_SUBSTITUTE:
            if substitute_takes_over(F, ctx, dp) != dp[DROP_ASSUMED]:
                return i + 1
            continue
        if kind == DR_FETCH:
            happened = grenade_fetched(F, ctx, i, end)
            if happened != dp[DROP_ASSUMED]:
                return i + 1
            if happened:                   # the character's turn (he has fired); his grenade the packing's (c_hand)
                F.fired_ch[dp[DROP_CREW]] = 1
                if F.fc[F_FETCH_HAND] >= 0:
                    F.held[dp[DROP_CREW] * F.H + F.fc[F_FETCH_HAND]] += 1    # a grenade in his hand
            continue
        if kind == DR_BOX:
            continue                       # read by its FETCH row
        if kind == DR_ACTION or kind == DR_SWITCH:
            happened = action_goes_ahead(F, ctx, i, end, kind)
            if kind == DR_ACTION:
                acting = happened
            if happened and dp[DROP_DRIVER] >= 0:
                F.fired_ch[dp[DROP_DRIVER]] = 1    # the driver's firing action (CW-AUTO-01, CW-ROF-01)
        else:
            happened = weapon_drops(F, ctx, dp, kind, acting)
        if happened != dp[DROP_ASSUMED]:
            if happened or dp[DROP_COUNTER] < 0:
                return i + 1
            if kind == DR_MEMBER or kind == DR_AUTO:
                F.gone[dp[DROP_COUNTER]] = 1     # not laid: its contact rows are skipped
    return 0


cdef inline void fight_contacts(FightRun* F, Ctx* ctx, int tp) noexcept nogil:
    """Counters and slicks driven over in phase tp's movement (turn._contacts, CW-DROP-02..04), before the orders
    look for shots: a trigger's roll (mines that go off are gone), then the damage rows it arms (or a counter's
    own: spikes, CW-DROP-02) to the underbody and tires (damage.apply_shot), and fire sources (a flaming oil slick,
    CW-FIRE-01). Rows of a counter gone (gone off, or a drop that did not happen) are skipped."""
    cdef Py_ssize_t i
    cdef int vi, kind, k, r, hits, armed = 0
    cdef int32_t* oc
    for i in range(F.ocon_lo[tp], F.ocon_lo[tp + 1]):
        oc = F.ocon + i * OCON_NCOLS
        vi = oc[OCON_VEHICLE]
        kind = oc[OCON_KIND]
        k = oc[OCON_COUNTER]
        if kind == CONTACT_TRIGGER:
            armed = 0
            if k >= 0 and F.gone[k]:
                continue                   # mines gone off earlier, or a drop that did not happen
            r = die(ctx)
            armed = oc[OCON_A] <= r <= oc[OCON_B]
            if armed and oc[OCON_C]:
                F.gone[k] = 1
        elif kind == CONTACT_DAMAGE:
            if oc[OCON_ARMED]:
                if not armed:
                    continue               # its trigger did not go off (or its counter is gone)
            elif k >= 0 and F.gone[k]:
                continue
            hits = roll(ctx, oc[OCON_A], oc[OCON_B], oc[OCON_C])
            if oc[OCON_HALF]:
                hits = (hits + 1) // 2
            ctx.cur_fiery = -1
            apply_shot(ctx, vi, oc[OCON_PART], oc[OCON_SIDE], oc[OCON_TIRE], hits)
        elif not (k >= 0 and F.gone[k]):
            add_fire(F.fire_future + vi * F.ring, F.ring, F.tslot, oc[OCON_B], oc[OCON_A])


cdef inline int shot_needed(FightRun* F, int k, int wk, int turn) noexcept nogil:
    """The roll candidate shot k needs with weapon key wk this turn: its packed number less the sustained-fire
    modifier of the streak it makes (CW-HIT-09)."""
    return F.cand[k * CAND_NCOLS + CAND_NEEDED] - sustained(F.rec_t, F.rec_s, F.rec_turn, wk, F.cand[k * CAND_NCOLS + CAND_UNIT],
                                                            turn, F.sf2, F.sf3)


cdef inline int accept(FightRun* F, int n_acc, int k, int wk, int w, int fs, int need, int atk, int e, int ch) noexcept nogil:
    """A shot accepted this phase (fight.order_attacks' `accepted`, FIGHT-02): candidate k, weapon key wk and weapon w (-1: a hand
    weapon), the firer's hits slot fs (-1: none, no wounded skill), the roll it needs, the planned attack's column
    (-1: an order's), its entry and the character marked as firing it. Returns the shots."""
    F.acc_k[n_acc] = k
    F.acc_wk[n_acc] = wk
    F.acc_w[n_acc] = w
    F.acc_fs[n_acc] = fs
    F.acc_need[n_acc] = need
    F.acc_ok[n_acc] = 1
    F.acc_atk[n_acc] = atk
    F.acc_e[n_acc] = e
    F.acc_ch[n_acc] = ch
    return n_acc + 1


cdef inline int accept_automatic(FightRun* F, Ctx* ctx, int e, int32_t* ep, int n_acc) noexcept nogil:
    """A weapon on automatic (special.automatic_attacks, CW-AUTO-01): fires by itself, if not destroyed or empty and
    something crosses its line with a line of fire (its one candidate); or a planned attack with it (ENT_ATK its
    column); once a turn (CW-ROF-01). No firer: no wounded skill, no sustained fire."""
    cdef int wk = ep[ENT_WKEY], w = ep[ENT_WEAPON], fr, k
    if F.fired_w[wk] or weapon_out(F, ctx, w):
        return n_acc
    fr = ep[ENT_FIR_LO]
    if F.fir[fr * FIR_NCOLS + FIR_CAND_HI] == F.fir[fr * FIR_NCOLS + FIR_CAND_LO]:
        return n_acc
    k = F.fir[fr * FIR_NCOLS + FIR_CAND_LO]
    F.fired_w[wk] = 1
    return accept(F, n_acc, k, wk, w, -1, F.cand[k * CAND_NCOLS + CAND_NEEDED], ep[ENT_ATK], e, -1)


cdef inline int accept_area(FightRun* F, Ctx* ctx, int e, int32_t* ep, int turn, int n_acc) noexcept nogil:
    """A planned area-effect attack (turn._still_legal, phase._roll_area, CW-DMG-07): cancelled if its weapon has
    fired this turn, is destroyed or empty, or the firer cannot fire (group_firer; a thrown one: his last of these
    thrown, CW-HAND-01); else a shot per intended victim (its MEMBER rows). A pedestrian's hand weapon (w -1) has no
    damage points and no ammunition to count; its character is NC + the pedestrian (ch_hits reads either kind)."""
    cdef int wk = ep[ENT_WKEY], w = ep[ENT_WEAPON], fr, ch, k
    cdef Py_ssize_t j
    cdef int32_t* mp
    if w >= 0 and (F.fired_w[wk] or weapon_out(F, ctx, w)):
        return n_acc                       # (a hand weapon: only its firer's shot counts, CW-ROF-01)
    fr = group_firer(ctx.st, F.ch_hits, F.fir, ep, F.fired_ch)
    if fr < 0:
        return n_acc
    ch = F.fir[fr * FIR_NCOLS + FIR_CHARACTER]
    if ep[ENT_HAND] >= 0 and F.held[ch * F.H + ep[ENT_HAND]] <= 0:
        F.fired_ch[ch] = 0                 # his last one of these is thrown (CW-HAND-01): cancelled, so not his
        return n_acc                       # firing action (group_firer marked him; he had not fired)
    F.fired_w[wk] = 1
    for j in range(e + 1, e + 1 + ep[ENT_LINK]):
        mp = F.ent + j * ENT_NCOLS
        k = F.fir[fr * FIR_NCOLS + FIR_CAND_LO] + mp[ENT_SHOT]
        F.acc_off[n_acc] = mp[ENT_SHOT]
        n_acc = accept(F, n_acc, k, wk, w, F.ch_hits[ch], shot_needed(F, k, wk, turn), mp[ENT_ATK], e, ch)
    return n_acc


cdef inline int accept_link(FightRun* F, Ctx* ctx, int e, int32_t* ep, int turn, int n_acc) noexcept nogil:
    """A planned link (turn._still_legal, special.expand_link, CW-LINK-01): cancelled whole if one of its weapons
    has fired this turn, one that shoots now is destroyed or empty, or its firer cannot fire; else every weapon that
    shoots rolls, the aimed ones (ENT_SHOT 0) with the firer and the first weapon's streak (CW-HIT-09), the others
    as if on automatic: no firer, no sustained fire."""
    cdef int link_ok = 1, fr, ch, wk0, k
    cdef Py_ssize_t j
    cdef int32_t* mp
    for j in range(e + 1, e + 1 + ep[ENT_LINK]):
        mp = F.ent + j * ENT_NCOLS
        if F.fired_w[mp[ENT_WKEY]]:
            link_ok = 0
        elif mp[ENT_SHOT] >= 0 and weapon_out(F, ctx, mp[ENT_WEAPON]):
            link_ok = 0
    if not link_ok:
        return n_acc
    fr = group_firer(ctx.st, F.c_hits, F.fir, ep, F.fired_ch)
    if fr < 0:
        return n_acc
    ch = F.fir[fr * FIR_NCOLS + FIR_CHARACTER]
    wk0 = F.ent[(e + 1) * ENT_NCOLS + ENT_WKEY]       # the first weapon's streak counts for the group
    for j in range(e + 1, e + 1 + ep[ENT_LINK]):
        mp = F.ent + j * ENT_NCOLS
        F.fired_w[mp[ENT_WKEY]] = 1
        if mp[ENT_SHOT] < 0:
            continue
        k = F.fir[fr * FIR_NCOLS + FIR_CAND_LO] + mp[ENT_SHOT]
        F.acc_off[n_acc] = mp[ENT_SHOT]
        if mp[ENT_SHOT] == 0:
            n_acc = accept(F, n_acc, k, mp[ENT_WKEY], mp[ENT_WEAPON], F.c_hits[ch], shot_needed(F, k, wk0, turn),
                           mp[ENT_ATK], e, ch)
        else:
            n_acc = accept(F, n_acc, k, mp[ENT_WKEY], mp[ENT_WEAPON], -1, F.cand[k * CAND_NCOLS + CAND_NEEDED],
                           mp[ENT_ATK], e, -1)
    return n_acc


cdef inline int accept_planned(FightRun* F, Ctx* ctx, int e, int32_t* ep, int turn, int n_acc) noexcept nogil:
    """A planned attack (turn._still_legal): cancelled when the rules forbid it now: its mounted weapon fired this
    turn (CW-ROF-01), destroyed or empty (CW-VEH-03; a hand weapon: no check), its pedestrian down or no crew
    member able (CW-CREW-01; the named firer, or attack._default_firer's first able), the firer has fired, no line
    of fire whatever the dice, his last grenade of the kind thrown (CW-HAND-01)."""
    cdef int wk = ep[ENT_WKEY], w = ep[ENT_WEAPON], ped = ep[ENT_PED], fr, ch, k
    if w >= 0 and F.fired_w[wk]:
        return n_acc
    if ped >= 0:
        if ctx.st[F.p_hits[ped]] >= 2:
            return n_acc
        fr = ep[ENT_FIR_LO]
        ch = F.NC + ped
    else:
        if w >= 0 and weapon_out(F, ctx, w):
            return n_acc
        fr = first_able(ctx.st, F.c_hits, F.fir, ep[ENT_FIR_LO], ep[ENT_FIR_HI])
        if fr < 0:
            return n_acc
        ch = F.fir[fr * FIR_NCOLS + FIR_CHARACTER]
    if F.fired_ch[ch] or F.fir[fr * FIR_NCOLS + FIR_CAND_HI] == F.fir[fr * FIR_NCOLS + FIR_CAND_LO]:
        return n_acc
    if ep[ENT_HAND] >= 0 and F.held[ch * F.H + ep[ENT_HAND]] <= 0:
        return n_acc
    k = F.fir[fr * FIR_NCOLS + FIR_CAND_LO]
    F.fired_ch[ch] = 1
    F.fired_w[wk] = 1
    return accept(F, n_acc, k, wk, w, F.p_hits[ped] if ped >= 0 else F.c_hits[ch], shot_needed(F, k, wk, turn),
                  ep[ENT_ATK], e, ch)


cdef inline int best_shot(FightRun* F, int32_t* ep, int fr, int wk, int wounded, int turn) noexcept nogil:
    """fight.order_attacks' choice (fight._choose, FIGHT-02) among firer row fr's candidates, by range then unit:
    a unit not out of action that a hit is possible on (the roll needed, with sustained fire, CW-HIT-09, and a
    wounded firer's penalty, CW-HIT-08, at most the most needed) at odds of at least the order's min_odds (ENT_MIN36,
    FIGHT-10); the nearest enemy: the first; best odds: the best chance (prob36), the first of equals. -1: none."""
    cdef int best = -1, bestp = -1, k, tu, needed, f
    cdef int32_t* cp
    for k in range(F.fir[fr * FIR_NCOLS + FIR_CAND_LO], F.fir[fr * FIR_NCOLS + FIR_CAND_HI]):
        cp = F.cand + k * CAND_NCOLS
        tu = cp[CAND_UNIT]
        if F.outu[tu]:
            continue
        needed = cp[CAND_NEEDED] - sustained(F.rec_t, F.rec_s, F.rec_turn, wk, tu, turn, F.sf2, F.sf3)
        if wounded == 1:
            needed += F.wpen
        if needed > F.maxn:
            continue                       # no hit possible: not a candidate (FIGHT-02)
        f = F.prob36[needed if needed > F.nm else F.nm + 1]
        if f < ep[ENT_MIN36]:
            continue                       # below the order's min_odds: holds fire at it (FIGHT-10)
        if ep[ENT_CHOOSE] == CHOOSE_NEAREST:
            return k
        if f > bestp:
            bestp = f
            best = k
    return best


cdef inline int accept_order(FightRun* F, Ctx* ctx, int e, int32_t* ep, int turn, int n_acc) noexcept nogil:
    """A standing order's weapon (fight.order_attacks, FIGHT-02): none if its unit is out of action (FIGHT-03), it
    has fired this turn (CW-ROF-01), it is destroyed or empty, or a pedestrian's has fired or thrown his last
    grenade (CW-HAND-01); else its firers in order (firer_candidates: one able, CW-CREW-01, who has not fired), the
    first with a shot (best_shot) fires it. A pedestrian down cannot fire."""
    cdef int u = ep[ENT_UNIT], wk = ep[ENT_WKEY], w = ep[ENT_WEAPON], ped = ep[ENT_PED], fr, ci, ch, wounded, best
    if F.outu[u] or F.fired_w[wk]:
        return n_acc
    if ped >= 0:
        if F.fired_ch[F.NC + ped] or (ep[ENT_HAND] >= 0 and F.held[(F.NC + ped) * F.H + ep[ENT_HAND]] <= 0):
            return n_acc
    elif weapon_out(F, ctx, w):
        return n_acc
    for fr in range(ep[ENT_FIR_LO], ep[ENT_FIR_HI]):
        ci = F.fir[fr * FIR_NCOLS + FIR_CHARACTER]
        if ped >= 0:
            wounded = ctx.st[F.p_hits[ped]]
            if wounded >= 2:
                return n_acc               # a pedestrian down cannot fire (CW-CREW-01)
            ch = F.NC + ped
        else:
            wounded = ctx.st[F.c_hits[ci]]
            if wounded >= 2:
                continue                   # not able: the next firer (firer_candidates)
            ch = ci
        if F.drive != NULL:
            drv_fir_ready(F, ctx, e, fr)   # a fight that drives: this row's candidates, where the counters stand now
        best = best_shot(F, ep, fr, wk, wounded, turn)
        if best < 0:
            return n_acc                   # no shot this phase for this weapon, whoever fires it
        if F.fired_ch[ch]:
            continue                       # this firer has fired this turn: the next may
        F.fired_ch[ch] = 1
        F.fired_w[wk] = 1
        return accept(F, n_acc, best, wk, w, F.p_hits[ped] if ped >= 0 else F.c_hits[ci], shot_needed(F, best, wk, turn),
                      -1, e, ch)
    return n_acc


cdef inline int order_attacks(FightRun* F, Ctx* ctx, int tp, int turn) noexcept nogil:
    """The phase's attacks, chosen after the movement (fight.order_attacks, FIGHT-02, after the planned ones and
    within their rate of fire): its entries in order, each by how it chooses. Returns the shots accepted."""
    cdef int e, choose, n_acc = 0
    cdef int32_t* ep
    for e in range(F.tp_lo[tp], F.tp_lo[tp + 1]):
        ep = F.ent + e * ENT_NCOLS
        choose = ep[ENT_CHOOSE]
        if choose <= CHOOSE_BEST_ODDS:
            n_acc = accept_order(F, ctx, e, ep, turn, n_acc)
        elif choose == CHOOSE_AUTOMATIC:
            n_acc = accept_automatic(F, ctx, e, ep, n_acc)
        elif choose == CHOOSE_MEMBER:
            continue                       # its link's entry fires it
        elif choose == CHOOSE_AREA:
            n_acc = accept_area(F, ctx, e, ep, turn, n_acc)
        elif choose == CHOOSE_LINK:
            n_acc = accept_link(F, ctx, e, ep, turn, n_acc)
        else:
            n_acc = accept_planned(F, ctx, e, ep, turn, n_acc)
    return n_acc


cdef inline void combat_start(FightRun* F, Ctx* ctx) noexcept nogil:
    """The state at the start of the phase's combat (CW-ROF-02): no hits taken, each driver's state and each metal
    armour side as they are (for phase._vehicle_consequences)."""
    cdef Py_ssize_t v, j
    memset(F.veh.taken, 0, F.V * sizeof(int32_t))
    for v in range(F.V):
        F.veh.driver_before[v] = crew_state(ctx, ctx.v_driver[v]) if ctx.v_driver[v] >= 0 else -1
        if ctx.v_metal[v]:
            for j in range(6):
                F.metal_before[v * 6 + j] = ctx.st[ctx.v_armour[v] + j]


cdef inline void fight_collisions(FightRun* F, Ctx* ctx, int tp) noexcept nogil:
    """The collisions of phase tp's movement (phase._apply_collisions): each one's hits (collision_hits, CW-COL-04)
    on a pedestrian (crew.damage_pedestrian) or a vehicle's side (collision_damage, CW-COL-01..03)."""
    cdef Py_ssize_t i
    cdef int vi, hits
    cdef int32_t* cp
    cdef int32_t* consts = F.consts
    for i in range(F.col_lo[tp], F.col_lo[tp + 1]):
        cp = F.fcol + i * FCOL_NCOLS
        vi = cp[FCOL_INDEX]
        hits = collision_hits(ctx, cp[FCOL_COUNT], cp[FCOL_BONUS], cp[FCOL_FLOOR], cp[FCOL_NUM], cp[FCOL_DEN])
        if cp[FCOL_IS_PED]:
            dmg_ped(ctx, F.p_hits[vi], F.p_ba[vi], hits)
        else:
            collision_damage(ctx, vi, cp[FCOL_SIDE], hits, consts[K_METAL_FACTOR], consts[K_CAP_NUM], consts[K_CAP_DEN])


cdef inline void explain_planned(FightRun* F, Ctx* ctx, int a, int turn) noexcept nogil:
    """phase._after_collisions for planned vehicle attack a: explained again, its default firer the first able now
    (attack._default_firer), who is the one who fires it (CW-ROF-01); cancelled if none is, its weapon is destroyed
    or it has no line of fire."""
    cdef int e = F.acc_e[a], ch, fr, k
    fr = repick_firer(ctx.st, F.c_hits, F.fir, F.ent + e * ENT_NCOLS, F.fired_ch, F.acc_ch[a], &ch)
    F.acc_ch[a] = ch
    if fr < 0 or (F.acc_w[a] >= 0 and ctx.st[F.w_slot[F.acc_w[a]]] <= 0) or F.fir[fr * FIR_NCOLS + FIR_CAND_HI] == F.fir[fr * FIR_NCOLS + FIR_CAND_LO]:
        F.acc_ok[a] = 0
        return
    k = F.fir[fr * FIR_NCOLS + FIR_CAND_LO]
    F.acc_k[a] = k
    F.acc_fs[a] = F.c_hits[ch]
    F.acc_need[a] = shot_needed(F, k, F.acc_wk[a], turn)


cdef inline void explain_group(FightRun* F, Ctx* ctx, int a, int n_acc, int turn) noexcept nogil:
    """phase._after_collisions (CW-ROF-02, CW-LINK-01, CW-DMG-07) for a link or area attack, its shots a .. (one entry): its default firer the first
    able now; cancelled whole if he cannot fire or a weapon that shoots is destroyed; else each shot from his row,
    as accept_link and accept_area have them."""
    cdef int e = F.acc_e[a], ch, fr, k, j, link_ok, wk0
    fr = repick_firer(ctx.st, F.ch_hits, F.fir, F.ent + e * ENT_NCOLS, F.fired_ch, F.acc_ch[a], &ch)
    link_ok = fr >= 0 and F.fir[fr * FIR_NCOLS + FIR_CAND_HI] > F.fir[fr * FIR_NCOLS + FIR_CAND_LO]
    j = a
    while j < n_acc and F.acc_e[j] == e:
        if F.acc_w[j] >= 0 and ctx.st[F.w_slot[F.acc_w[j]]] <= 0:
            link_ok = 0
        j += 1
    wk0 = F.ent[(e + 1) * ENT_NCOLS + ENT_WKEY]
    j = a
    while j < n_acc and F.acc_e[j] == e:
        if not link_ok:
            F.acc_ok[j] = 0
        else:
            k = F.fir[fr * FIR_NCOLS + FIR_CAND_LO] + F.acc_off[j]
            F.acc_k[j] = k
            if F.ent[e * ENT_NCOLS + ENT_CHOOSE] == CHOOSE_AREA:
                F.acc_fs[j] = F.ch_hits[ch]
                F.acc_ch[j] = ch
                F.acc_need[j] = shot_needed(F, k, F.acc_wk[j], turn)
            elif F.acc_off[j] == 0:
                F.acc_fs[j] = F.c_hits[ch]
                F.acc_ch[j] = ch
                F.acc_need[j] = shot_needed(F, k, wk0, turn)
            else:
                F.acc_need[j] = F.cand[k * CAND_NCOLS + CAND_NEEDED]
        j += 1


cdef inline void explain_again(FightRun* F, Ctx* ctx, int n_acc, int turn) noexcept nogil:
    """After the phase's collisions, each accepted attack explained again (phase._after_collisions, CW-ROF-02):
    a planned vehicle attack (explain_planned), a link or area attack (explain_group, from its first shot); any
    other cancelled if its firer is now out (CW-CREW-01) or its weapon destroyed (CW-VEH-03)."""
    cdef int a, e, choose
    for a in range(n_acc):
        e = F.acc_e[a]
        choose = F.ent[e * ENT_NCOLS + ENT_CHOOSE]
        if choose == CHOOSE_PLANNED and F.ent[e * ENT_NCOLS + ENT_PED] < 0:
            explain_planned(F, ctx, a, turn)
        elif choose == CHOOSE_LINK or choose == CHOOSE_AREA:
            if a > 0 and F.acc_e[a - 1] == e:
                continue                   # done with its link's (or area attack's) first shot
            explain_group(F, ctx, a, n_acc, turn)
        elif (F.acc_fs[a] >= 0 and ctx.st[F.acc_fs[a]] >= 2) or (F.acc_w[a] >= 0 and ctx.st[F.w_slot[F.acc_w[a]]] <= 0):
            F.acc_ok[a] = 0


cdef inline void use_up(FightRun* F, int a, int e) noexcept nogil:
    """One firing of shot a's weapon (phase._use_ammo): a shot of ammunition, or a thrown hand weapon used up
    (CW-HAND-01)."""
    cdef int w = F.acc_w[a]
    if w >= 0 and F.w_shots[w]:
        F.ammo[w] -= 1
    elif F.ent[e * ENT_NCOLS + ENT_HAND] >= 0:
        F.held[F.acc_ch[a] * F.H + F.ent[e * ENT_NCOLS + ENT_HAND]] -= 1


cdef inline void area_shot(FightRun* F, Ctx* ctx, int a, int e, int32_t* cp, int hit, int n_acc) noexcept nogil:
    """phase._roll_area (CW-DMG-07), an area-effect attack's victim rolled: counted; after the last, one shot of
    ammunition, then one damage roll if any hit, and the first `hits` in the defender's order (ENT_RANK) take
    area_each each."""
    cdef int wk = F.acc_wk[a], each, j
    if F.acc_off[a] == 0:
        F.area_hits = 0
    F.area_hits += hit
    F.hit[F.acc_atk[a]] = hit
    F.damage[F.acc_atk[a]] = 0
    F.shots[wk] += 1
    F.hits[wk] += hit
    if a + 1 == n_acc or F.acc_e[a + 1] != e:
        use_up(F, a, e)
        if F.area_hits:
            each = area_each(ctx, cp[CAND_DMG_COUNT], cp[CAND_DMG_BONUS], cp[CAND_DMG_HITS],
                             F.ent[e * ENT_NCOLS + ENT_RANK], F.consts[K_AREA_DIVISOR])
            for j in range(a - F.ent[e * ENT_NCOLS + ENT_LINK] + 1, a + 1):
                if F.ent[(e + 1 + F.acc_off[j]) * ENT_NCOLS + ENT_RANK] < F.area_hits:
                    F.acc_dmg[j] = each


cdef inline void roll_shots(FightRun* F, Ctx* ctx, int n_acc) noexcept nogil:
    """To hit, then damage, in the order the attacks were given (phase._fire_one, attack.roll_attack): 2d6 against
    the roll needed (a wounded firer's skills -2, CW-HIT-08; CW-HIT-01), the damage on a hit (CW-DMG-01), one
    firing's ammunition (use_up), the planned attack's and the weapon's counts (FIGHT-05); an area-effect
    attack's victims by area_shot."""
    cdef int a, e, needed, hit, dmg, wk
    cdef int32_t* cp
    for a in range(n_acc):
        F.acc_dmg[a] = 0
        if not F.acc_ok[a]:
            continue
        cp = F.cand + F.acc_k[a] * CAND_NCOLS
        needed = F.acc_need[a]
        if F.acc_fs[a] >= 0 and ctx.st[F.acc_fs[a]] == 1:
            needed += F.wpen
        hit = to_hit(ctx, needed, F.nm)
        hit = cp[CAND_POSSIBLE] and needed <= F.maxn and hit
        e = F.acc_e[a]
        if F.ent[e * ENT_NCOLS + ENT_CHOOSE] == CHOOSE_AREA:
            area_shot(F, ctx, a, e, cp, hit, n_acc)
            continue
        dmg = 0
        if hit:
            dmg = damage_roll(ctx, cp[CAND_DMG_COUNT], cp[CAND_DMG_BONUS], cp[CAND_DMG_HITS])
        F.acc_dmg[a] = dmg
        use_up(F, a, e)
        if F.acc_atk[a] >= 0:
            F.hit[F.acc_atk[a]] = hit
            F.damage[F.acc_atk[a]] = dmg
        wk = F.acc_wk[a]
        F.shots[wk] += 1
        if hit:
            F.hits[wk] += 1
            F.dmg[wk] += dmg


cdef inline void record_sustained(FightRun* F, int n_acc, int turn) noexcept nogil:
    """phase.update_history (CW-HIT-09): every attack rolled this phase recorded against its weapon key: its target
    and the streak it makes (on automatic, no firer: none); of an area attack, its last victim's."""
    cdef int a, wk, tu, s
    for a in range(n_acc):
        if F.acc_ok[a]:
            if F.ent[F.acc_e[a] * ENT_NCOLS + ENT_CHOOSE] == CHOOSE_AREA and a + 1 < n_acc and F.acc_e[a + 1] == F.acc_e[a]:
                continue
            wk = F.acc_wk[a]
            tu = F.cand[F.acc_k[a] * CAND_NCOLS + CAND_UNIT]
            s = streak_of(F.rec_t, F.rec_s, F.rec_turn, wk, tu, turn) if F.acc_fs[a] >= 0 else 0
            F.rec_t[wk] = tu
            F.rec_s[wk] = s
            F.rec_turn[wk] = turn


cdef inline void land_shots(FightRun* F, Ctx* ctx, int n_acc) noexcept nogil:
    """All the phase's damage at its end, in order (phase._apply_hit): a pedestrian's (crew.damage_pedestrian), none
    on a building, a vehicle's (its share for a hand weapon, CW-HAND-01; a fire source, its modifier this turn and
    the next CAND_BURN, CW-FIRE-01; shot_lands); then each hit's burst on the pedestrians near (CW-DMG-06)."""
    cdef int a, dmg, kind, vi
    cdef int32_t* cp
    for a in range(n_acc):
        dmg = F.acc_dmg[a]
        if not F.acc_ok[a] or dmg == 0:
            continue
        cp = F.cand + F.acc_k[a] * CAND_NCOLS
        kind = cp[CAND_KIND]
        vi = cp[CAND_INDEX]
        if kind != TGT_VEHICLE:
            if kind == TGT_PEDESTRIAN:
                dmg_ped(ctx, F.p_hits[vi], F.p_ba[vi], dmg)
            burst_on(ctx, F.brst, cp[CAND_BURST_LO], cp[CAND_BURST_HI], F.p_hits, F.p_ba)
            continue
        if cp[CAND_FIRE_MOD] >= 0:
            add_fire(F.fire_future + vi * F.ring, F.ring, F.tslot, cp[CAND_BURN], cp[CAND_FIRE_MOD])
        shot_lands(ctx, vi, cp[CAND_PART], cp[CAND_SIDE], cp[CAND_TIRE], hand_hits(cp[CAND_MODE], dmg), cp[CAND_FIERY])
        burst_on(ctx, F.brst, cp[CAND_BURST_LO], cp[CAND_BURST_HI], F.p_hits, F.p_ba)


cdef inline void fight_consequences(FightRun* F, Ctx* ctx, int tp) noexcept nogil:
    """phase._vehicle_consequences for each vehicle hit this phase: the obstacle (obstacle_drops, CW-DMG-08; one the
    packing's movement runs onto later, CW-SEED-04, makes the trial the reference's: F.obs_redo) and its
    driver put out (CW-CREW-02/03): out of control, and a solo cycle's Crash Table 1 roll at +4, off-road -3
    (CW-CREW-03, CW-OFF-01), its result kept (FIGHT-03)."""
    cdef Py_ssize_t v
    cdef int r
    for v in range(F.V):
        if F.veh.taken[v] == 0:
            continue
        if ctx.v_is_car[v] and obstacle_drops(ctx, v, F.metal_before, 0, F.consts[K_OBSTACLE_HITS]):
            F.flags[v] |= 8
            if F.n_obs_met and F.obs_met[tp * F.V + v]:
                F.obs_redo = 1
        if ctx.v_driver[v] >= 0 and put_out(F.veh.driver_before[v], crew_state(ctx, ctx.v_driver[v])):
            if ctx.v_kind[v] == KIND_CYCLE and ctx.v_sc_side[v] < 0:
                r = roll(ctx, 2, 0, 0)
                F.crash[v] = F.crash_out[13 * F.v_off[v] + r]
            F.flags[v] |= 4


cdef inline int fight_phase(FightRun* F, Ctx* ctx, int turn, int ph) noexcept nogil:
    """One phase of a turn (turn.run_turns, CW-ROF-02): the declared drops and switches (fight_drops), the counters
    driven over in the movement (fight_contacts), the orders' attacks (order_attacks); then, if anything fires or
    collides, the combat: the movement's collisions, the attacks explained again after them, to hit and damage
    rolls, the sustained-fire records, all damage at the phase's end, each vehicle's consequences. Returns a drop
    row + 1 when the trial must run again under another packing (fight_drops), -1 when an obstacle dropped where a
    vehicle runs onto it later (obs_met, CW-SEED-04: the trial is the reference's), else 0."""
    cdef int tp = (turn - 1) * F.P + ph, n_acc, redo
    redo = fight_drops(F, ctx, tp)
    if redo:
        return redo
    fight_contacts(F, ctx, tp)
    n_acc = order_attacks(F, ctx, tp, turn)
    if n_acc == 0 and F.col_lo[tp + 1] == F.col_lo[tp]:
        return 0                           # no shot and no collision: the phase's combat changes nothing
    combat_start(F, ctx)
    fight_collisions(F, ctx, tp)
    if F.col_lo[tp + 1] > F.col_lo[tp]:
        explain_again(F, ctx, n_acc, turn)
    roll_shots(F, ctx, n_acc)
    record_sustained(F, n_acc, turn)
    land_shots(F, ctx, n_acc)
    F.obs_redo = 0
    fight_consequences(F, ctx, tp)
    return -1 if F.obs_redo else 0         # an obstacle dropped where the packing's movement runs onto it


cdef inline void fight_fire(FightRun* F, Ctx* ctx, int turn) noexcept nogil:
    """The end of the turn: fire (fire.end_of_turn_fire, CW-FIRE-01..04) for every vehicle not exploded, with the
    fire modifiers active this turn (taken from the ring), an explosion reaching who is near it this turn."""
    cdef Py_ssize_t v, mv, V = F.V
    for v in range(V):
        F.veh.fire_total[v] = F.fire_future[v * F.ring + F.tslot]
        F.fire_future[v * F.ring + F.tslot] = 0
    for v in range(V):
        if F.flags[v] & 2:
            continue
        if not F.veh.burning[v]:
            fire_starts(ctx, v, F.veh.fire_total[v], F.veh.burning, F.consts, ctx.v_fireproof[v])
        mv = (turn - 1) * V + v
        if F.veh.burning[v] and fire_burns(ctx, v, F.veh.burning, F.consts, ctx.v_extinguisher[v], ctx.v_can_explode[v],
                                       F.near_v + mv * F.w_near_v, F.w_near_v, F.near_p + mv * F.w_near_p, F.w_near_p,
                                       F.p_hits, F.p_ba):
            F.flags[v] |= 2


cdef inline void update_out(FightRun* F, Ctx* ctx, int turn) noexcept nogil:
    """Who is out of action after the turn (fight.update_out, FIGHT-03): a unit out stays out; a pedestrian down
    (when the fight says so), a vehicle by vehicle_out; the turn counted from the fight's first."""
    cdef Py_ssize_t u
    cdef int32_t* fc = F.fc
    for u in range(F.U):
        if F.outu[u]:
            continue
        if u >= F.V:
            if fc[F_PEDDOWN] and ctx.st[F.p_hits[u - F.V]] >= 2:
                F.outu[u] = turn + fc[F_FIRST] - 1
            continue
        if vehicle_out(ctx, u, fc, F.crash, F.flags[u], F.w_usable, F.w_shots, F.ammo, F.c_takeover, F.c_hand, F.held,
                       F.H, turn):
            F.outu[u] = turn + fc[F_FIRST] - 1


cdef inline int sides_in_action(FightRun* F) noexcept nogil:
    """fight.sides_in_action (FIGHT-03): marks each side with a unit not out of action (alive_side); returns how
    many."""
    cdef Py_ssize_t u
    cdef int s, sides_left = 0
    for s in range(F.fc[F_SIDES]):
        F.alive_side[s] = 0
    for u in range(F.U):
        if not F.outu[u] and not F.alive_side[F.u_side[u]]:
            F.alive_side[F.u_side[u]] = 1
            sides_left += 1
    return sides_left


cdef inline int slowed(FightRun* F, int turn) noexcept nogil:
    """A vehicle out of control slows down at the end of the turn (CW-CREW-03): if one still moving, and not slowed
    by the packing, went out of control this turn, every later place changes: the trial stops here (the wrapper
    packs the movement with it slowing). 1 if so."""
    cdef Py_ssize_t v
    cdef int diverged = 0
    for v in range(F.V):
        if (F.flags[v] & 4) and F.moving_end[(turn - 1) * F.V + v] and not F.known_unc[v]:
            diverged = 1
    return diverged


cdef inline int fight_turns(FightRun* F, Ctx* ctx, int start) noexcept nogil:
    """turn.run_turns for turns start + 1 .. T, each: its start (fight_turn_start), off-road damage (CW-OFF-02), its
    phases (fight_phase), the end of the turn's fire, who is out of action (FIGHT-03). It stops when a drop stops a
    phase (its row + 1 in F.redo[0]), when the fight is decided (FIGHT-01: until one side is left, if so ordered),
    or when a moving vehicle went out of control (the turn in F.diverged[0]). Returns the last turn run to its end."""
    cdef int turn, ph, redo, ran = start
    for turn in range(start + 1, F.T + 1):
        fight_turn_start(F, turn)
        offroad_damage(F, ctx, turn)
        for ph in range(F.P):
            redo = fight_phase(F, ctx, turn, ph)
            if redo:
                F.redo[0] = redo
                return ran                 # run again from the start under another packing
        fight_fire(F, ctx, turn)
        ran = turn
        update_out(F, ctx, turn)
        if F.fc[F_UNTIL] and sides_in_action(F) <= 1:
            return ran
        if turn < F.T and slowed(F, turn):
            F.diverged[0] = turn
            return ran
    return ran


cdef inline int16_t fight_outcome(FightRun* F) noexcept nogil:
    """fight.finish (FIGHT-05): the burning flags, the turn each unit went out; the result: the one side left, a
    draw (-1, none left) or undecided (-2)."""
    cdef Py_ssize_t v, u
    cdef int s, left = -1, sides_left
    for v in range(F.V):
        if F.veh.burning[v]:
            F.flags[v] |= 1
    for u in range(F.U):
        F.out_turn[u] = F.outu[u]
    sides_left = sides_in_action(F)
    for s in range(F.fc[F_SIDES]):
        if F.alive_side[s]:
            left = s
            break
    return left if sides_left == 1 else (-1 if sides_left == 0 else -2)


def run_fight(
    uint64_t seed, uint64_t first_trial, dict arrays,
    int32_t[:, ::1] out_state, uint8_t[:, ::1] out_flags, int16_t[:, ::1] out_turn, int16_t[::1] out_result,
    int16_t[::1] out_turns, int32_t[:, ::1] out_shots, int32_t[:, ::1] out_hits, int32_t[:, ::1] out_dmg,
    int16_t[::1] diverged, int32_t[:, ::1] saved, uint64_t[::1] saved_k, int16_t[::1] start_turn, uint64_t[::1] trial_ids,
    uint8_t[:, ::1] out_hit, int32_t[:, ::1] out_damage, int32_t[::1] redo,
):
    """Run trials first_trial .. first_trial + N - 1 of a fight (N = out_state's rows), each to its end: FIGHT-01..05,
    turn.run_turns(..., fight=...) (fight_turns), bit for bit.

    Writes per trial the final state (the slots), the vehicle flags (as `run_phase`), the turn each unit went out
    of action (0: never), the result (the winning side's index, -1 a draw, -2 undecided), the turns run, and per
    weapon the shots, hits and damage rolled on hits.

    A trial in which a moving vehicle goes out of control before its last turn (it slows down from then on: every
    later position changes, so the packed movement no longer holds) stops at the end of that turn: `diverged[t]`
    gets the turn, `saved[t]` and `saved_k[t]` what the outputs do not hold (fire, crash, ammunition, sustained
    fire, who is out, the dice drawn). The wrapper packs the movement with that vehicle slowing (`known_unc` marks
    the vehicles a packing already slows) and runs the trial on from there: a row with `start_turn[t] > 0` resumes
    after that turn from its outputs and `saved` row; `trial_ids` (when not empty) gives each row's trial number.

    A drop the packing has happen and the dice prevent, of mines, spikes or junk (drop row COUNTER >= 0), is
    followed here: what it would have laid is flagged gone and the trial goes on. Any other drop, switch or
    detonation that goes otherwise than packed stops the trial where it is: `redo[t]` gets the drop row + 1 and the
    outputs are left as they are. When the packing had it happen, the wrapper packs the fight with it not happening
    (the row's FACT) and runs the trial again from its start: the same dice give the same turns up to that row;
    when the packing had it not happen, no packing says otherwise and the trial runs on the reference. An obstacle
    dropped where the packing's movement runs a vehicle onto it later (obs_met, CW-SEED-04) stops the trial too,
    with `redo[t]` = -1: the wrapper runs it on the reference.
    Returns -1 (nothing run) if the arrays exceed the kernel's fixed sizes. Releases the GIL.
    """
    cdef Arrays pk
    cdef FightRun F
    cdef Ctx ctx
    cdef Py_ssize_t t, N = out_state.shape[0], W = out_shots.shape[1], NA = out_hit.shape[1]
    cdef int start, ran
    if unpack_fight(&pk, arrays) != 0:
        return -1
    if not fight_call_ok(&pk, N, W, NA, saved.shape, redo.shape[0], out_hit.shape, out_damage.shape):
        return -1
    # the scratch, sized to this fight (kept alive until the return), and the damage code's context
    cdef int32_t[::1] scratch = np.zeros(fight_scratch_len(&pk, W), dtype=np.int32)
    cdef int32_t[::1] ch_hits = np.zeros(pk.n_c_hits + pk.n_p_hits + 1, dtype=np.int32)
    cdef int32_t[::1] held = np.zeros((pk.n_c_hits + pk.n_p_hits) * pk.fc[F_HANDS] + 1 if pk.fc[F_HANDS] > 0 else 1,
                                      dtype=np.int32)
    fight_bind(&F, &pk, W, NA, &scratch[0], &ch_hits[0], &held[0])
    lists = ctx_bind(&ctx, &pk, &F.veh)
    if lists is None or not fight_rows_ok(&pk, W, NA, F.U):
        return -1
    if not fight_outputs_ok(N, F.S, F.V, F.U, W, out_state.shape, out_flags.shape, out_turn.shape, out_result.shape[0],
                            out_turns.shape[0], diverged.shape[0], saved_k.shape[0], out_shots.shape, out_hits.shape,
                            out_dmg.shape, start_turn.shape[0], trial_ids.shape[0]):
        return -1
    for t in range(start_turn.shape[0]):
        if not 0 <= start_turn[t] <= F.T:
            return -1
    with nogil:
        for t in range(N):
            ctx.st = &out_state[t, 0]
            ctx.key = hp_stream_key(seed, trial_ids[t] if trial_ids.shape[0] else first_trial + <uint64_t>t)
            ctx.cur_fiery = -1
            ctx.cur_vehicle = -1
            F.flags, F.out_turn, F.hit, F.damage = &out_flags[t, 0], &out_turn[t, 0], &out_hit[t, 0], &out_damage[t, 0]
            F.shots, F.hits, F.dmg, F.sv = &out_shots[t, 0], &out_hits[t, 0], &out_dmg[t, 0], &saved[t, 0]
            F.diverged, F.redo = &diverged[t], &redo[t]
            start = start_turn[t] if start_turn.shape[0] else 0
            if start > 0:
                fight_resume(&F, &ctx, saved_k[t])     # after turn `start`: the outputs hold the state, `saved` the rest
            else:
                fight_fresh(&F, &ctx)
            diverged[t] = 0
            redo[t] = 0
            ran = fight_turns(&F, &ctx, start)
            if redo[t]:
                continue
            if diverged[t]:
                fight_save(&F)
                saved_k[t] = ctx.k
                continue
            out_turns[t] = ran
            out_result[t] = fight_outcome(&F)
    return 0


cdef int vehicle_out(Ctx* c, int v, int32_t* fc, int32_t* crash, int flags, int32_t* w_usable, int32_t* w_shots,
                     int32_t* ammo, int32_t* c_takeover, int32_t* c_hand, int32_t* held, int H, int turn) noexcept nogil:
    """carwars.fight.out_of_action for a vehicle (FIGHT-03), in its order of conditions, after `turn`. A crew member
    holds a usable hand weapon that is not thrown from turn c_hand[i] on (0: never), and held[i * H + k] thrown ones
    (grenades) of kind k."""
    cdef int i, k, conscious = 0, can = 0
    for i in range(c.v_c0[v], c.v_c1[v]):
        if c.st[c.c_hits[i]] < 2:
            conscious = 1
    if fc[F_DESTROYED] and (flags & 2):
        return 1
    if fc[F_DESTROYED] and c.v_pp[v] >= 0 and c.st[c.v_pp[v]] <= 0 and not conscious:
        return 1
    if fc[F_CRASHED] and crash[v]:
        return 1
    if fc[F_NODRIVER]:
        if c.v_driver[v] >= 0 and c.st[c.c_hits[c.v_driver[v]]] < 2:
            can = 1
        else:
            for i in range(c.v_c0[v], c.v_c1[v]):
                if c_takeover[i] and c.st[c.c_hits[i]] < 2:
                    can = 1
        if not can:
            return 1
    if fc[F_NOWEAPON]:
        for i in range(c.v_w0[v], c.v_w1[v]):
            if c.st[c.w_slot[i]] > 0 and w_usable[i] and not (w_shots[i] and ammo[i] <= 0):
                return 0
        for i in range(c.v_c0[v], c.v_c1[v]):
            if c_hand[i] and c_hand[i] <= turn and c.st[c.c_hits[i]] < 2:
                return 0
            for k in range(H):
                if held[i * H + k] > 0 and c.st[c.c_hits[i]] < 2:
                    return 0
        return 1
    return 0


include "_cwfightdrive.pxi"
