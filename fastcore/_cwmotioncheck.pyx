# cython: language_level=3, boundscheck=True, wraparound=False, cdivision=True
"""Test wrappers of the compiled movement of a phase (_cwmotion.pxd): each `def` calls one `cdef inline` function on
plain Python values, so that tests/test_drive_kernel_motion.py can compare it with the reference function it
transcribes (hardpoint.carwars.motion, named in each .pxd docstring) on random arenas, double for double.

Not a kernel: it converts its arguments on every call. Counters are (cx, cy, length, width, facing); moves
(dx, dy, angle, (px, py)) as driving.ManeuverMove holds them, or None. The rules come as a Rules made once from the
dict tests/drive_kernel_pack.pack_rules makes (one key a field of CwDriveRules); an arena as the dict
tests/drive_kernel_pack.pack_arena makes, of which only what movement reads is used: each vehicle's
unit.counter and unit.speed, each pedestrian's counter and speed, the buildings' building_xy and building_start.
"""
from libc.stdlib cimport malloc, free
from libc.string cimport memset

from _cwgeom cimport CwCounter
from _cwdrive cimport CwDriveRules, CwUnit, CwVehicle, CwMove
from _cwmotion cimport *

import numpy as np

HIT_VEHICLE, HIT_BUILDING, HIT_PEDESTRIAN = CW_HIT_VEHICLE, CW_HIT_BUILDING, CW_HIT_PEDESTRIAN
HEAD_ON, REAR_END, T_BONE, SIDESWIPE = CW_HEAD_ON, CW_REAR_END, CW_T_BONE, CW_SIDESWIPE
MOTION_UNSURE, MOTION_FULL = CW_MOTION_UNSURE, CW_MOTION_FULL


cdef class Rules:
    """carwars rules as a CwDriveRules (tests/drive_kernel_pack.pack_rules)."""
    cdef CwDriveRules r

    def __init__(self, dict fields):
        self.r = fields


cdef CwCounter _counter(c) except *:
    cdef CwCounter k
    k.cx, k.cy, k.length, k.width, k.facing = c
    return k


cdef class _Units:
    """The vehicles, pedestrians and buildings of an arena dict in C arrays, with the movers', pairs' and contacts'
    scratch the caller of cw_move_phase provides."""
    cdef int nv, np, nb, pair_cap, cap
    cdef CwVehicle* vehicles
    cdef CwUnit* peds
    cdef CwMove* moves
    cdef unsigned char* has_move
    cdef CwMover* movers
    cdef CwPair* pairs
    cdef CwContact* contacts
    cdef double[::1] bxy
    cdef int[::1] starts

    def __init__(self, dict d, moves=None, pair_cap=None, cap=None):
        cdef int i
        self.nv, self.np = len(d["vehicles"]), len(d["pedestrians"])
        self.nb = len(d["building_start"]) - 1
        self.pair_cap = cw_motion_pair_cap(self.nv, self.nb, self.np) if pair_cap is None else pair_cap
        self.cap = self.pair_cap if cap is None else cap
        self.vehicles = <CwVehicle*>malloc(max(1, self.nv) * sizeof(CwVehicle))
        self.peds = <CwUnit*>malloc(max(1, self.np) * sizeof(CwUnit))
        self.moves = <CwMove*>malloc(max(1, self.nv) * sizeof(CwMove))
        self.has_move = <unsigned char*>malloc(max(1, self.nv))
        self.movers = <CwMover*>malloc(max(1, self.nv + self.np) * sizeof(CwMover))
        self.pairs = <CwPair*>malloc(max(1, self.pair_cap) * sizeof(CwPair))
        self.contacts = <CwContact*>malloc(max(1, self.cap) * sizeof(CwContact))
        if not (self.vehicles and self.peds and self.moves and self.has_move and self.movers and self.pairs
                and self.contacts):
            raise MemoryError()
        memset(self.vehicles, 0, max(1, self.nv) * sizeof(CwVehicle))
        memset(self.peds, 0, max(1, self.np) * sizeof(CwUnit))
        for i, vd in enumerate(d["vehicles"]):
            self.vehicles[i].unit.counter = _counter(vd["unit"]["counter"])
            self.vehicles[i].unit.speed = vd["unit"]["speed"]
            m = None if moves is None else moves[i]
            self.has_move[i] = m is not None
            if m is not None:
                self.moves[i].dx, self.moves[i].dy, self.moves[i].angle, (self.moves[i].px, self.moves[i].py) = m
        for i, pd in enumerate(d["pedestrians"]):
            self.peds[i].counter = _counter(pd["counter"])
            self.peds[i].speed = pd["speed"]
        self.bxy = np.array(list(d["building_xy"]) + [0.0], dtype=np.float64)
        self.starts = np.array(list(d["building_start"]), dtype=np.intc)

    def __dealloc__(self):
        free(self.vehicles)
        free(self.peds)
        free(self.moves)
        free(self.has_move)
        free(self.movers)
        free(self.pairs)
        free(self.contacts)

    cdef void init_movers(self, Rules rules, int phase):
        """move_with_contacts' movers, as cw_move_phase makes them."""
        cdef double vx, vy
        cdef int i
        for i in range(self.nv):
            if self.has_move[i]:
                vx, vy = self.moves[i].dx, self.moves[i].dy
            else:
                cw_straight_displacement(&rules.r, &self.vehicles[i].unit, phase, &vx, &vy)
            cw_mover_init(&self.movers[i], &self.vehicles[i].unit.counter, vx, vy)
        for i in range(self.np):
            cw_pedestrian_displacement(&rules.r, &self.peds[i], &vx, &vy)
            cw_mover_init(&self.movers[self.nv + i], &self.peds[i].counter, vx, vy)


cdef tuple _contact(CwContact* c):
    return (c.a, c.kind_b, c.b, c.time, (c.nx, c.ny), c.side_a, c.side_b, c.kind, c.speed_a, c.speed_b, c.speed)


def move_phase(Rules rules, dict arena, int phase, moves=None, bint from_movement=True, pair_cap=None, cap=None):
    """cw_move_phase on an arena dict: (vehicles [(cx, cy, facing, speed)], pedestrians [(x, y)], contacts), the
    contacts a list of (a, kind_b, b, time, (nx, ny), side_a, side_b, kind, speed_a, speed_b, speed), or in their
    place the negative code (the units then as they were). `moves`: one a vehicle, a move or None; None for none.
    pair_cap, cap: the scratch's sizes (default: cw_motion_pair_cap's)."""
    cdef _Units u = _Units(arena, moves, pair_cap, cap)
    cdef int n, i
    n = cw_move_phase(&rules.r, u.vehicles, u.nv, u.peds, u.np, &u.bxy[0], &u.starts[0], u.nb, phase, u.moves,
                      NULL if moves is None else u.has_move, from_movement, u.contacts, u.cap, u.movers, u.pairs,
                      u.pair_cap)
    vehicles = [(u.vehicles[i].unit.counter.cx, u.vehicles[i].unit.counter.cy, u.vehicles[i].unit.counter.facing,
                 u.vehicles[i].unit.speed) for i in range(u.nv)]
    peds = [(u.peds[i].counter.cx, u.peds[i].counter.cy) for i in range(u.np)]
    return vehicles, peds, (n if n < 0 else [_contact(&u.contacts[i]) for i in range(n)])


def pairs(Rules rules, dict arena, int phase, moves=None, pair_cap=None):
    """cw_motion_pairs of the movers cw_move_phase makes: [(kind, a, b)] in order, or the negative code."""
    cdef _Units u = _Units(arena, moves, pair_cap)
    u.init_movers(rules, phase)
    n = cw_motion_pairs(u.movers, u.nv, u.np, &u.bxy[0], &u.starts[0], u.nb, u.pairs, u.pair_cap)
    return n if n < 0 else [(u.pairs[i].kind, u.pairs[i].a, u.pairs[i].b) for i in range(n)]


def swept_boxes(Rules rules, dict arena, int phase, moves=None):
    """Each mover's swept box (vehicles, then pedestrians), as cw_motion_pairs works it out."""
    cdef _Units u = _Units(arena, moves)
    u.init_movers(rules, phase)
    for i in range(u.nv + u.np):
        cw_swept_box(&u.movers[i])
    return [tuple(u.movers[i].box[k] for k in range(4)) for i in range(u.nv + u.np)]


def pedestrian_displacement(Rules rules, counter, double speed):
    cdef CwUnit p
    cdef double dx, dy
    memset(&p, 0, sizeof(CwUnit))
    p.counter, p.speed = _counter(counter), speed
    cw_pedestrian_displacement(&rules.r, &p, &dx, &dy)
    return dx, dy


cdef CwMover _mover(counter, velocity, stopped_at) except *:
    cdef CwMover m
    cdef CwCounter k = _counter(counter)
    cw_mover_init(&m, &k, velocity[0], velocity[1])
    if stopped_at is not None:
        cw_mover_stop(&m, stopped_at)
    return m


def mover(counter, velocity, stopped_at, double t):
    """_Mover(corners of counter, velocity, stopped_at): (shift(t), at(t), moving(t))."""
    cdef CwMover m = _mover(counter, velocity, stopped_at)
    cdef double dx, dy, vx, vy
    cdef double xy[8]
    cw_mover_shift(&m, t, &dx, &dy)
    cw_mover_at(&m, t, xy)
    cw_mover_moving(&m, &vx, &vy)
    return (dx, dy), [(xy[2 * i], xy[2 * i + 1]) for i in range(4)], (vx, vy)


def mover_stop(counter, velocity, stopped_at, double t):
    """_Mover.stop(t) on a mover: its stopped_at after."""
    cdef CwMover m = _mover(counter, velocity, stopped_at)
    cw_mover_stop(&m, t)
    return m.stopped_at if m.stopped else None


def bounds(points):
    cdef double[::1] xy = np.array([c for p in points for c in p] + [0.0], dtype=np.float64)
    cdef double box[4]
    cw_bounds(&xy[0], len(points), box)
    return (box[0], box[1], box[2], box[3])


def box_overlap(a, b, double pad):
    cdef double x[4]
    cdef double y[4]
    for i in range(4):
        x[i], y[i] = a[i], b[i]
    return cw_box_overlap(x, y, pad)


def collision_kind(int side_a, int side_b):
    return cw_collision_kind(side_a, side_b)


def collision_speed(int kind, double speed_a, double speed_b, int side_a):
    return cw_collision_speed(kind, speed_a, speed_b, side_a)
