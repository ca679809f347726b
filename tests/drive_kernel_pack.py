"""What fills the compiled driver's structs (fastcore/_cwdrive.pxd) from the reference's objects: plain dicts, one key a
field, for the test wrappers of fastcore/_cwcheck.pyx (tests/test_drive_kernel_parts.py). The fight kernel's packer
must fill the same fields from the same objects (FIGHT-07, FIGHT-08, FIGHT-09)."""
import struct

from hardpoint.carwars.dropped import oil_extra_difficulty
from hardpoint.carwars.drivepack import KINDS, driver_rules
from hardpoint.carwars.driving import TACTICS, manned
from hardpoint.carwars.enums import Side
from hardpoint.carwars.fight import weapon_can_fire



def pack_counter(c) -> tuple:
    """geometry.Counter as (cx, cy, length, width, facing)."""
    return (c.cx, c.cy, c.length, c.width, c.facing)


def pack_rules(rules) -> dict:
    """CwDriveRules, as the fight kernel's packer fills it (hardpoint.carwars.drivepack.driver_rules)."""
    return driver_rules(rules)


def pack_unit(fight, u, out) -> dict:
    """CwUnit of a Vehicle or a Pedestrian."""
    return {"counter": pack_counter(u.counter), "speed": float(u.speed), "side": fight.side_names.index(fight.side(u.id)),
            "out": u.id in out}


def pack_vehicle(rules, fight, arena, v, out) -> dict:
    """CwVehicle, its weapons judged under its own movement order (none: no weapon usable)."""
    order = fight.drive_of(v.id)
    weapons = list(v.all_weapons())
    usable = [order is not None and (order.weapons is None or w.id in order.weapons) and w.spec.aimed and weapon_can_fire(w)
              and manned(v, w) for w in weapons]
    sidecar = v.sidecar.weapons if v.sidecar else []
    return {"unit": pack_unit(fight, v, out), "kind": KINDS.index(v.kind),
            "has_acceleration": v.acceleration is not None, "acceleration": float(v.acceleration or 0),
            "has_top_speed": v.top_speed is not None, "top_speed": float(v.top_speed or 0),
            "in_water": v.water_depth_ft > 0, "off_road": v.off_road, "substitute": v.substitute is not None,
            "has_handling": v.handling_status is not None, "handling_status": v.handling_status or 0,
            "oil_extra": oil_extra_difficulty(rules, arena, v),
            "armour": [v.armour.get(s, 0) for s in (Side.FRONT, Side.BACK, Side.LEFT, Side.RIGHT)],
            "weapon_mount": [int(w.mount) for w in weapons], "weapon_usable": [int(u) for u in usable],
            "weapon_sidecar": [int(w in sidecar) for w in weapons],
            "sidecar_offset": v.body.width / 2 * (1 if v.sidecar.side is Side.RIGHT else -1) if v.sidecar else 0.0,
            "sidecar_width": float(v.body.sidecar_width) if v.sidecar else 0.0}


def pack_arena(rules, fight, arena, out=()) -> dict:
    """CwArena: the vehicles and pedestrians in the arena's order, the buildings' vertices, the phase."""
    xy, start = [], [0]
    for b in arena.buildings.values():
        for x, y in b.polygon.vertices:
            xy += [x, y]
        start.append(start[-1] + len(b.polygon.vertices))
    return {"vehicles": [pack_vehicle(rules, fight, arena, v, out) for v in arena.vehicles.values()],
            "pedestrians": [pack_unit(fight, p, out) for p in arena.pedestrians.values()],
            "building_xy": xy, "building_start": start, "phase": arena.phase}


def unit_index(arena, uid: str) -> int:
    """A unit's index in list(arena.vehicles) + list(arena.pedestrians)."""
    return (list(arena.vehicles) + list(arena.pedestrians)).index(uid)


def pack_order(arena, order) -> dict:
    """CwOrder of a DriveOrder."""
    return {"tactic": TACTICS.index(order.tactic),
            "target": -1 if order.target == "nearest_enemy" else unit_index(arena, order.target),
            "has_speed": order.speed is not None, "speed": float(order.speed or 0.0), "range_inches": order.range or 0.0}


def same(a, b) -> bool:
    """Bit for bit: floats by their bit pattern, ints, bools, strings and None by value, sequences item by item."""
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float):
        return struct.pack("<d", a) == struct.pack("<d", b)
    if isinstance(a, float) or isinstance(b, float):
        return False
    return a == b
