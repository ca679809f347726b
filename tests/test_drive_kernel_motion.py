"""The compiled movement of a phase agrees with the reference bit for bit (issue 34; FIGHT-04, FIGHT-08).

fastcore/_cwmotion.pxd transcribes motion.move_with_contacts: the straight moves and the maneuvers' slides, the pairs
that can meet, the first contacts in the order they happen, the stops, the moves to the phase's end and the
maneuvers' turns. Called through its wrappers in fastcore/_cwmotioncheck.pyx, each part is compared with the
reference function it transcribes on seeded random inputs, then the whole phase on thousands of random arenas of
stock vehicles crowded together (touching, head-on, rear-end, T-bone, sideswipe, stopped ones struck again), with
buildings and walking pedestrians, maneuvers, each phase, collisions from movement on and off: every position, facing
and speed equal with its bit pattern, and every contact (the pair, its time, its normal, the sides, the kind and the
speeds) in the same order, the reference's contacts taken from its calls of motion._collide.
"""
import collections
import copy
import math
import random
from types import SimpleNamespace
from unittest import mock

import pytest

import hardpoint
from hardpoint.carwars import boxgrid, contact, driving, geometry as geo, motion, turn
from hardpoint.carwars.driving import MANEUVER_KINDS
from hardpoint.carwars.enums import Side
from hardpoint.carwars.model import Building

from .drive_kernel_pack import pack_counter, pack_rules, same

K = pytest.importorskip("hardpoint.fastcore._cwmotioncheck")

RULES = hardpoint.default_rules()
RULES_ALL = RULES.with_overrides({"carwars": {"fight": {"driver": {"menu": list(MANEUVER_KINDS)}}}})
RULES_OFF = RULES.with_overrides({"carwars": {"fight": {"collisions": {"from_movement": False}}}})
PACKED = K.Rules(pack_rules(RULES))
DESIGNS = list(RULES["carwars.designs"]["design"])
KINDS = ("head-on", "rear-end", "T-bone", "sideswipe")
SPEEDS = [5.0 * k for k in range(-4, 25)] + [15.0, 25.0, 35.0, 0.0, -0.0, 2.5, 7.5, -5.0, -15.0]
WALKS = [0.0, 0.0, 5.0, 3.0, -1.0]


# --- comparing ----------------------------------------------------------------------------------------------------------

def check(case, name, ref, got) -> None:
    assert same(ref, got), f"{name} {case!r}: reference {ref!r}, kernel {got!r}"


# --- random arenas (seeded) -----------------------------------------------------------------------------------------------

def facing(rng) -> float:
    """A facing: often a multiple of 90 or 15 degrees, sometimes an awkward one."""
    r = rng.random()
    if r < 0.35:
        return 90.0 * rng.randint(-4, 4)
    if r < 0.6:
        return 15.0 * rng.randint(-24, 24)
    if r < 0.65:
        return rng.choice([-0.0, 360.0, 720.0, 1e-13, 89.99999999999999, 359.99999999999994, 45.0])
    return rng.uniform(-360.0, 720.0)


def quarter(rng) -> float:
    return rng.randint(-40, 40) * 0.25


def ahead_of(x, y, f, d, side=0.0):
    """The point d inches ahead along facing f and `side` inches to its right (exact at quarter turns)."""
    s, c = geo.sincos_deg(f)
    return x + d * s + side * c, y + d * c - side * s


def gap(rng) -> float:
    """Inches between two counters: none (touching), quarter inches, or any."""
    return rng.choice([0.0, 0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, rng.uniform(0.0, 4.0), rng.uniform(0.0, 0.3)])


def lateral(rng) -> float:
    return rng.choice([0.0, 0.0, 0.25, -0.25, 0.125, rng.uniform(-0.6, 0.6)])


def skew(rng) -> float:
    return rng.choice([0.0, 0.0, 0.0, 15.0, -15.0, 45.0, rng.uniform(-20.0, 20.0)])


def pose_near(rng, anchor, size):
    """A pose (x, y, facing) for a counter of `size` (length, width) near `anchor` (x, y, facing, length, width):
    head-on, rear-end (ahead of it or behind it), T-bone (across its path, or pointing at its side), side by side,
    overlapping, or anywhere near; exact on quarter inches where the anchor is at a quarter turn."""
    x, y, f, la, wa = anchor
    lb, wb = size
    r = rng.random()
    if r < 0.15:      # head-on: ahead of it, facing it
        nx, ny = ahead_of(x, y, f, (la + lb) / 2 + gap(rng), lateral(rng))
        return nx, ny, f + 180.0 + skew(rng)
    if r < 0.3:       # rear-end: ahead of it or behind it, facing the same way
        nx, ny = ahead_of(x, y, f, rng.choice([1.0, -1.0]) * ((la + lb) / 2 + gap(rng)), lateral(rng))
        return nx, ny, f + skew(rng)
    if r < 0.42:      # T-bone: across its path
        nx, ny = ahead_of(x, y, f, rng.choice([1.0, -1.0]) * ((la + wb) / 2 + gap(rng)), lateral(rng))
        return nx, ny, f + rng.choice([90.0, -90.0, 75.0, -105.0]) + skew(rng)
    if r < 0.54:      # T-bone: beside it, pointing at its side
        side = rng.choice([1.0, -1.0])
        nx, ny = ahead_of(x, y, f, lateral(rng) * 2, side * ((wa + lb) / 2 + gap(rng)))
        return nx, ny, f - side * 90.0 + skew(rng)
    if r < 0.7:       # side by side: a sideswipe when one slides into the other or they converge
        nx, ny = ahead_of(x, y, f, rng.choice([0.0, 0.25, -0.5, rng.uniform(-1.5, 1.5)]),
                          rng.choice([1.0, -1.0]) * ((wa + wb) / 2 + rng.choice([0.0, 0.0, 0.25, 0.5, rng.uniform(0, 1)])))
        return nx, ny, f + rng.choice([0.0, 0.0, 180.0, 10.0, -10.0, rng.uniform(-30, 30)])
    if r < 0.8:       # overlapping
        return x + rng.uniform(-0.3, 0.3), y + rng.uniform(-0.3, 0.3), facing(rng)
    return x + rng.uniform(-3, 3), y + rng.uniform(-3, 3), facing(rng)


def building(rng, i, at) -> dict:
    """A building near a point: a rectangle at any facing, or a convex polygon of 3 to 9 corners."""
    x, y = at[0] + rng.uniform(-3, 3), at[1] + rng.uniform(-3, 3)
    if rng.random() < 0.5:
        return {"id": f"b{i}", "x": x, "y": y, "width": rng.choice([0.5, 1.0, 3.0, rng.uniform(0.2, 4)]),
                "length": rng.choice([1.0, 2.0, 6.0, rng.uniform(0.2, 4)]), "facing": facing(rng)}
    n, radius, turn0 = rng.randint(3, 9), rng.uniform(0.3, 2.5), rng.uniform(0, math.tau)
    return {"id": f"b{i}", "corners": [[x + radius * math.cos(turn0 + k * math.tau / n),
                                        y + radius * math.sin(turn0 + k * math.tau / n)] for k in range(n)]}


def _sizes() -> dict:
    data = {"scenario": {"name": "sizes", "ruleset": "carwars"},
            "vehicle": [{"id": d, "design": d, "x": 3.0 * i, "y": 0.0} for i, d in enumerate(DESIGNS)],
            "pedestrian": [{"id": "p", "x": -3.0, "y": 0.0}]}
    arena = hardpoint.parse_scenario(data).arena
    return {u.id: (u.counter.length, u.counter.width) for u in [*arena.vehicles.values(), *arena.pedestrians.values()]}


SIZES = _sizes()


def make_arena(rng):
    """A scenario (hardpoint.parse_scenario) of 2-6 stock vehicles crowded together (some the mirror images of others
    through the vehicle they are near, at the same speed: contacts at the same time), sometimes buildings and walking
    pedestrians among them; its arena, with random speeds."""
    nv = rng.choice([2, 2, 3, 3, 4, 5, 6])
    designs = [rng.choice(DESIGNS) for _ in range(nv)]
    f0 = 90.0 * rng.randint(0, 3) if rng.random() < 0.6 else facing(rng)
    placed = [(quarter(rng), quarter(rng), f0, *SIZES[designs[0]])]
    anchors, twins = [None], {}
    for i, d in enumerate(designs[1:], 1):
        j = rng.randrange(1, i) if i > 1 else 0
        if i > 1 and rng.random() < 0.4 and SIZES[designs[j]] == SIZES[d] and anchors[j] is not None:
            # the mirror image of vehicle j through its anchor, at j's speed: both meet the anchor at the same time
            (x, y, f, _, _), (ax, ay, _, _, _) = placed[j], placed[anchors[j]]
            placed.append((2.0 * ax - x, 2.0 * ay - y, f + 180.0, *SIZES[d]))
            anchors.append(anchors[j])
            twins[i] = j
            continue
        k = rng.randrange(i)
        placed.append((*pose_near(rng, placed[k], SIZES[d]), *SIZES[d]))
        anchors.append(k)
    vehicles = [{"id": f"v{i}", "design": d, "x": x, "y": y, "facing": f % 360.0}
                for i, (d, (x, y, f, _, _)) in enumerate(zip(designs, placed))]
    data = {"scenario": {"name": "motion", "ruleset": "carwars"}, "vehicle": vehicles}
    if rng.random() < 0.35:
        data["pedestrian"] = []
        for i in range(rng.randint(1, 3)):
            x, y, f = pose_near(rng, rng.choice(placed), SIZES["p"])
            data["pedestrian"].append({"id": f"p{i}", "x": x, "y": y, "facing": f % 360.0})
    if rng.random() < 0.3:
        data["building"] = [building(rng, i, rng.choice(placed)) for i in range(rng.randint(1, 3))]
    arena = hardpoint.parse_scenario(data).arena
    for v, spec in zip(arena.vehicles.values(), vehicles):       # facings as drawn, now and then off 0-360
        v.facing = spec["facing"] if rng.random() < 0.8 else spec["facing"] + rng.choice([0.0, 360.0, -360.0])
        v.speed = rng.choice(SPEEDS) if rng.random() < 0.9 else rng.choice([0.0, 100.0, 2.5, -0.0])
        if rng.random() < 0.05:
            v.x = -0.0                 # moved only by a non-zero shift: a -0.0 stays -0.0 unless it moves
    for i, j in twins.items():
        arena.vehicles[f"v{i}"].speed = arena.vehicles[f"v{j}"].speed
    for p in arena.pedestrians.values():
        p.speed = rng.choice(WALKS)
        if rng.random() < 0.1:
            p.y = -0.0                 # always moved: -0.0 + 0.0 is 0.0
    return arena


def random_moves(rng, rules, arena, phase) -> dict:
    """Maneuver moves for some vehicles: from driving.maneuver_menu + maneuver_move at the phase's distance (every
    kind), sometimes any slide and turn about any pivot (a spinout's); none for the others."""
    moves = {}
    kinds = list(MANEUVER_KINDS)
    for v in arena.vehicles.values():
        r = rng.random()
        if r < 0.45:
            continue
        if r < 0.9:
            distance = turn.phase_distances(rules, v.speed)[phase - 1]
            menu = driving.maneuver_menu(rules, v, distance, kinds)
            if menu:
                moves[v.id] = driving.maneuver_move(rules, v, rng.choice(menu), distance)
        else:
            moves[v.id] = driving.ManeuverMove(rng.uniform(-2, 2), rng.uniform(-2, 2),
                                               rng.choice([0.0, 15.0, -30.0, 90.0, 180.0, rng.uniform(-180, 180)]),
                                               (rng.uniform(-1, 1), rng.uniform(-2, 2)))
    return moves


def pack(arena) -> dict:
    """What the kernel's movement reads of an arena, in the keys of drive_kernel_pack.pack_arena."""
    xy, start = [], [0]
    for b in arena.buildings.values():
        for x, y in b.polygon.vertices:
            xy += [x, y]
        start.append(start[-1] + len(b.polygon.vertices))
    return {"vehicles": [{"unit": {"counter": pack_counter(v.counter), "speed": float(v.speed)}}
                         for v in arena.vehicles.values()],
            "pedestrians": [{"counter": pack_counter(p.counter), "speed": float(p.speed)} for p in arena.pedestrians.values()],
            "building_xy": xy, "building_start": start, "phase": arena.phase}


def packed_moves(arena, moves):
    return [None if moves.get(v) is None else (moves[v].dx, moves[v].dy, moves[v].angle, moves[v].pivot)
            for v in arena.vehicles]


# --- the parts -----------------------------------------------------------------------------------------------------------

def test_collision_kind_and_speed_agree():
    """FIGHT-04: collision_kind of every pair of sides; collision_speed of 5,000 speed pairs (signs, zeros, halves)
    for every kind and striking side."""
    sides = [str(s) for s in (Side.FRONT, Side.BACK, Side.LEFT, Side.RIGHT)]
    assert sides == list(geo.SIDES[:2]) + ["left", "right"]
    for i, a in enumerate(sides):
        for j, b in enumerate(sides):
            check((a, b), "collision_kind", KINDS.index(motion.collision_kind(a, b)), K.collision_kind(i, j))
    rng = random.Random(30)
    for _ in range(5000):
        sa, sb = (rng.choice(SPEEDS + [rng.uniform(-100, 100)]) for _ in range(2))
        kind, side = rng.randrange(4), rng.randrange(4)
        ref = motion.collision_speed(KINDS[kind], SimpleNamespace(speed=sa), SimpleNamespace(speed=sb), sides[side])
        check((kind, sa, sb, side), "collision_speed", float(ref), K.collision_speed(kind, sa, sb, side))


def test_pedestrian_steps_agree():
    """FIGHT-04, CW-OBS-01: straight_displacement of 3,000 pedestrians (walking or not, any facing)."""
    rng = random.Random(31)
    arena = hardpoint.parse_scenario({"scenario": {"name": "p", "ruleset": "carwars"},
                                      "pedestrian": [{"id": "p", "x": 0.0, "y": 0.0}]}).arena
    p = arena.pedestrians["p"]
    for _ in range(3000):
        p.x, p.y, p.facing, p.speed = quarter(rng), rng.uniform(-50, 50), facing(rng), rng.choice(WALKS + [-0.0, 0.5])
        check((p.facing, p.speed), "straight_displacement", motion.straight_displacement(RULES, p, 1),
              K.pedestrian_displacement(PACKED, pack_counter(p.counter), p.speed))


def test_movers_bounds_and_box_overlap_agree():
    """FIGHT-04, FAST-03: _Mover's shift, at, moving and stop, boxgrid.bounds and _overlap on 5,000 random
    movers and boxes (stopped before, at or after the time asked; boxes apart, touching, within the pad)."""
    rng = random.Random(32)
    for _ in range(5000):
        c = (quarter(rng) if rng.random() < 0.5 else rng.uniform(-100, 100), quarter(rng), rng.choice([4.5, 2.25, 0.25]),
             rng.choice([2.25, 1.0, 0.25]), facing(rng))
        vel = rng.choice([(0.0, 0.0), (-0.0, 1.0), (rng.uniform(-3, 3), rng.uniform(-3, 3)), (0.5, -0.0)])
        stopped = rng.choice([None, None, 0.0, 0.5, 1.0, rng.random()])
        t = rng.choice([0.0, 1.0, 0.5, rng.random(), stopped if stopped is not None else 0.25])
        m = motion._Mover("u", list(geo.Counter(*c).corners()), vel, stopped)
        check((c, vel, stopped, t), "_Mover", (m.shift(t), m.at(t), m.moving(t)), K.mover(c, vel, stopped, t))
        m.stop(t)
        check((stopped, t), "_Mover.stop", m.stopped_at, K.mover_stop(c, vel, stopped, t))
        pts = m.at(0.0) + m.at(1.0)
        check((pts,), "bounds", boxgrid.bounds(pts), K.bounds(pts))
        a = boxgrid.bounds(pts)
        b = rng.choice([a, (a[2], a[3], a[2] + 1.0, a[3] + 1.0), (a[2] + 1e-3, a[1], a[2] + 2, a[3]),
                        (a[2] + 0.0011, a[1], a[2] + 2, a[3]), boxgrid.bounds(m.at(rng.random()))])
        pad = rng.choice([motion._NEAR, 0.0, 1e-3])
        check((a, b, pad), "_overlap", boxgrid._overlap(a, b, pad), K.box_overlap(a, b, pad))


def reference_movers(rules, arena, phase, moves):
    """The movers move_with_contacts makes (its first lines)."""
    movers = {}
    for v in arena.vehicles.values():
        m = moves.get(v.id)
        movers[v.id] = motion._Mover(v.id, list(v.counter.corners()),
                                     (m.dx, m.dy) if m is not None else motion.straight_displacement(rules, v, phase))
    for p in arena.pedestrians.values():
        movers[p.id] = motion._Mover(p.id, list(p.counter.corners()), motion.straight_displacement(rules, p, phase))
    return movers


def test_pairs_and_swept_boxes_agree():
    """FIGHT-04: the swept boxes and motion._pairs (through the BoxGrid) of 2,000 random arenas, pair for pair in the
    reference's order (vehicle and vehicle, vehicle and building, vehicle and pedestrian)."""
    rng = random.Random(33)
    kinds = set()
    for _ in range(2000):
        arena = make_arena(rng)
        phase = rng.randint(1, 5)
        moves = random_moves(rng, RULES, arena, phase)
        movers = reference_movers(RULES, arena, phase, moves)
        vids, pids = list(arena.vehicles), list(arena.pedestrians)
        buildings = [(b.id, list(b.polygon.vertices)) for b in arena.buildings.values()]
        ref = motion._pairs(movers, vids, buildings, pids)
        bids = [b for b, _ in buildings]
        index = [(0, vids), (1, bids), (2, pids)]
        ref = [next((k, vids.index(a), ids.index(b)) for k, ids in index if b in ids) for a, b in ref]
        kinds.update(k for k, _, _ in ref)
        d, mv = pack(arena), packed_moves(arena, moves)
        check((d, mv), "_pairs", ref, K.pairs(PACKED, d, phase, mv))
        boxes = [boxgrid.bounds(movers[u].at(0.0) + movers[u].at(1.0)) for u in vids + pids]
        check((d, mv), "swept", boxes, K.swept_boxes(PACKED, d, phase, mv))
    assert kinds == {0, 1, 2}


# --- the whole phase -------------------------------------------------------------------------------------------------------

def expected_contacts(calls, before, arena):
    """The contacts the reference found, as the kernel writes them: from its calls of motion._collide (a, b, normal,
    t) and the units as they stood during the movement (`before`: facing and speed by id)."""
    vids, pids, bids = list(arena.vehicles), list(arena.pedestrians), list(arena.buildings)
    out = []
    for call in calls:
        _, _, a, b, normal, t = call.args[:6]
        fa, sa_speed = before[a]
        side_a = contact.side_facing(fa, normal)
        i = vids.index(a)
        if b in arena.vehicles:
            fb, sb_speed = before[b]
            side_b = contact.side_facing(fb, (-normal[0], -normal[1]))
            kind = motion.collision_kind(side_a, side_b)
            speed = motion.collision_speed(kind, SimpleNamespace(speed=sa_speed), SimpleNamespace(speed=sb_speed), side_a)
            out.append((i, 0, vids.index(b), t, normal, geo.SIDES.index(side_a), geo.SIDES.index(side_b),
                        KINDS.index(kind), float(sa_speed), float(sb_speed), float(speed)))
        elif b in arena.pedestrians:
            out.append((i, 2, pids.index(b), t, normal, geo.SIDES.index(side_a), -1, -1, float(sa_speed),
                        float(before[b][1]), float(abs(sa_speed))))
        else:
            out.append((i, 1, bids.index(b), t, normal, geo.SIDES.index(side_a), -1, -1, float(sa_speed), 0.0,
                        float(abs(sa_speed))))
    return out


def kernel_collisions(rules, arena, phase, contacts, before_arena):
    """The Collision records motion._collide makes of the kernel's contacts (what the fight kernel will make)."""
    vids, pids, bids = list(arena.vehicles), list(arena.pedestrians), list(arena.buildings)
    out = []
    for a, kind_b, b, t, normal, side_a, side_b, kind, speed_a, speed_b, speed in contacts:
        cid = f"t{arena.turn}p{phase}c{len(out)}"
        va = before_arena.vehicles[vids[a]]
        if speed <= 0:
            continue
        sa = Side.parse(geo.SIDES[side_a])
        if kind_b == 0:
            vb = before_arena.vehicles[vids[b]]
            out += [(f"{cid}/{va.id}", va.id, sa, speed, motion.vehicle_weight(rules, vb), False),
                    (f"{cid}/{vb.id}", vb.id, Side.parse(geo.SIDES[side_b]), speed, motion.vehicle_weight(rules, va), False)]
        elif kind_b == 2:
            out += [(f"{cid}/{pids[b]}", pids[b], Side.FRONT, speed, motion.vehicle_weight(rules, va), False),
                    (f"{cid}/{va.id}", va.id, sa, speed, None, True)]
        else:
            assert bids[b] in arena.buildings
            out.append((f"{cid}/{va.id}", va.id, sa, speed, None, False))
    return out


def run_phase(rng, arena, rules, phase, stats, maneuvers=0.7):
    """One phase moved by the reference and by the kernel from the same state (random maneuvers in a fraction of the
    phases); every double compared."""
    moves = random_moves(rng, RULES_ALL, arena, phase) if rng.random() < maneuvers else {}
    d, mv = pack(arena), (packed_moves(arena, moves) if moves or rng.random() < 0.5 else None)
    before = {u.id: (u.facing, u.speed) for u in [*arena.vehicles.values(), *arena.pedestrians.values()]}
    before_arena = copy.deepcopy(arena)
    arena.phase = phase
    with mock.patch.object(motion, "_collide", wraps=motion._collide) as spy:
        _, collisions = motion.move_with_contacts(rules, arena, phase, moves)
    enabled = rules["carwars.fight"]["collisions"]["from_movement"]
    vehicles, peds, contacts = K.move_phase(PACKED, d, phase, mv, enabled)
    case = (d, mv, phase, enabled)
    assert not isinstance(contacts, int), f"kernel code {contacts} on {case!r}"
    check(case, "contacts", expected_contacts(spy.call_args_list, before, arena), contacts)
    check(case, "vehicles", [(v.x, v.y, v.facing, v.speed) for v in arena.vehicles.values()], vehicles)
    check(case, "pedestrians", [(p.x, p.y) for p in arena.pedestrians.values()], peds)
    check(case, "collisions", [(c.id, c.vehicle, c.side, float(c.speed), c.weight_lb, c.pedestrian) for c in collisions],
          kernel_collisions(rules, arena, phase, contacts, before_arena))
    tally(stats, contacts, moves, before, arena)


def tally(stats, contacts, moves, before, arena) -> None:
    """What the random phases covered: contacts by kind and by what was struck, vehicles struck again after they
    stopped, contacts at the same time as the one before, turns made and turns blocked."""
    stopped = set()
    for i, c in enumerate(contacts):
        a, kind_b, b = c[:3]
        stats["contacts"] += 1
        stats["hit"][kind_b] += 1
        if kind_b == 0:
            stats["kinds"][c[7]] += 1
        stats["stopped_struck"] += a in stopped or (kind_b == 0 and b in stopped)
        stats["same_time"] += i > 0 and c[3] == contacts[i - 1][3]
        if kind_b != 2:
            stopped.add(a)
            if kind_b == 0:
                stopped.add(b)
    for i, v in enumerate(arena.vehicles.values()):
        m = moves.get(v.id)
        if m is None or m.angle == 0.0 or i in stopped:
            continue
        stats["turned" if before[v.id][0] != v.facing else "blocked"] += 1


def test_phases_agree_on_random_arenas():
    """FIGHT-04, FIGHT-08 end to end: 3,000 random arenas of 2-6 stock vehicles crowded together (some with buildings
    and walking pedestrians), each moved through its five phases one after another by the reference and by the
    kernel from the same state (straight moves and maneuvers, speeds -20..120 mph with the half-inch ones, still and
    reversing, collisions from movement on and, for one arena in ten, off): every vehicle's x, y, facing and speed and
    every pedestrian's x, y bit for bit, and the contacts (pair, time, normal, sides, kind, speeds) in the reference's
    order; the Collision records made from the kernel's contacts are the reference's."""
    rng = random.Random(34)
    stats = {"contacts": 0, "kinds": collections.Counter(), "hit": collections.Counter(),
             "stopped_struck": 0, "same_time": 0, "turned": 0, "blocked": 0, "touching": 0}
    for _ in range(3000):
        arena = make_arena(rng)
        rules = RULES_OFF if rng.random() < 0.1 else RULES
        units = list(arena.vehicles.values())
        stats["touching"] += sum(contact.touching(list(a.counter.corners()), list(b.counter.corners()))
                                 for i, a in enumerate(units) for b in units[i + 1:])
        for phase in range(1, 6):
            run_phase(rng, arena, rules, phase, stats)
    print(stats)
    assert stats["contacts"] > 3000 and min(stats["kinds"][k] for k in range(4)) > 200
    assert min(stats["hit"][k] for k in range(3)) > 300
    assert stats["stopped_struck"] > 100 and stats["turned"] > 3000 and stats["blocked"] > 100 and stats["touching"] > 500


def converging(rng):
    """A vehicle (still, or moving) at a quarter turn on quarter inches, and 2-4 of one design coming at it from as
    many of its sides, the same gap away (quarter inches) at the same speed: contacts at the same time, in an order
    only the pairs' order decides (the vehicles in a random order in the file); now and then a pedestrian in the way."""
    centre, design = rng.choice(DESIGNS), rng.choice(DESIGNS)
    (lc, wc), (lb, wb) = SIZES[centre], SIZES[design]
    x, y, f = quarter(rng), quarter(rng), 90.0 * rng.randint(0, 3)
    g = rng.choice([0.25, 0.5, 0.75, 1.0, 1.5, 2.0])
    units = [{"design": centre, "x": x, "y": y, "facing": f}]
    for side in rng.sample(range(4), rng.randint(2, 4)):
        along = (lc / 2 if side < 2 else wc / 2) + lb / 2 + g
        d = f + 90.0 * side
        px, py = ahead_of(x, y, d, along, rng.choice([0.0, 0.0, 0.25, -0.125]))
        units.append({"design": design, "x": px, "y": py, "facing": (d + 180.0) % 360.0})
    rng.shuffle(units)
    data = {"scenario": {"name": "converging", "ruleset": "carwars"},
            "vehicle": [{"id": f"v{i}", **u} for i, u in enumerate(units)]}
    if rng.random() < 0.2:
        px, py = ahead_of(x, y, f, lc / 2 + g / 2)
        data["pedestrian"] = [{"id": "p0", "x": px, "y": py, "facing": f}]
    arena = hardpoint.parse_scenario(data).arena
    speed = rng.choice([10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 80.0, 15.0, 25.0, -20.0])
    for v, u in zip(arena.vehicles.values(), units):
        v.speed = speed if u["design"] == design and (u["x"], u["y"]) != (x, y) else rng.choice([0.0, 0.0, 10.0])
    for p in arena.pedestrians.values():
        p.speed = rng.choice([0.0, 5.0])
    return arena


def test_contacts_at_the_same_time_agree():
    """FIGHT-04: 1,500 arenas of vehicles converging on one from two to four sides at once, each moved through its
    five phases: contacts at the same time, the earliest taken in the pairs' order (the reference's strict `<`),
    the stopped vehicle struck again at that time, as the reference does."""
    rng = random.Random(35)
    stats = {"contacts": 0, "kinds": collections.Counter(), "hit": collections.Counter(),
             "stopped_struck": 0, "same_time": 0, "turned": 0, "blocked": 0}
    for _ in range(1500):
        arena = converging(rng)
        for phase in range(1, 6):
            run_phase(rng, arena, RULES, phase, stats, maneuvers=0.15)
    print(stats)
    assert stats["same_time"] > 500 and stats["stopped_struck"] > 500


def test_codes_leave_the_units_as_they_were():
    """CW_MOTION_FULL when the pairs or the contacts would not fit the caller's arrays; CW_MOTION_UNSURE where the
    reference's BoxGrid raises (a building so wide that its range of grid cells overflows len()) and wherever a box
    is beyond 1e15 inches or not finite (the kernel's margin: a Counter is always finite); the units then unchanged."""
    data = {"scenario": {"name": "full", "ruleset": "carwars"},
            "vehicle": [{"id": "a", "design": "hunter", "x": 0.0, "y": 0.0, "speed": 60},
                        {"id": "b", "design": "hunter", "x": 0.0, "y": 2.5, "facing": 180.0, "speed": 60},
                        {"id": "c", "design": "hunter", "x": 1.25, "y": 1.25, "facing": 270.0, "speed": 60}]}
    arena = hardpoint.parse_scenario(data).arena
    d = pack(arena)
    still = [(v.x, v.y, v.facing, float(v.speed)) for v in arena.vehicles.values()]
    assert len(K.move_phase(PACKED, d, 1)[2]) == len(motion.move_with_contacts(RULES, copy.deepcopy(arena), 1)[1]) // 2 >= 2
    assert K.move_phase(PACKED, d, 1, pair_cap=1) == (still, [], K.MOTION_FULL)
    assert K.move_phase(PACKED, d, 1, cap=1) == (still, [], K.MOTION_FULL)
    assert K.pairs(PACKED, d, 1, pair_cap=1) == K.MOTION_FULL
    wide = 1e20
    arena.buildings = {"b": Building("b", geo.Polygon(((-wide, -wide), (wide, -wide), (wide, wide), (-wide, wide))))}
    with pytest.raises(OverflowError):
        motion.move_with_contacts(RULES, copy.deepcopy(arena), 1)
    assert K.move_phase(PACKED, pack(arena), 1) == (still, [], K.MOTION_UNSURE)
    for x in (1e16, math.nan, math.inf):
        d["vehicles"][2]["unit"]["counter"] = (x, *d["vehicles"][2]["unit"]["counter"][1:])
        got = K.move_phase(PACKED, d, 1)
        assert got[2] == K.MOTION_UNSURE and same(got[0], still[:2] + [(x, *still[2][1:])])
