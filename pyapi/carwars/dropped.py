"""Dropped weapons and their counters (CW-DROP-01..06): placement, contact, spikes, mines, oil, clouds, water."""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from ..data import Rules
from ..dice import DiceSource, Roll, chance, parse_dice
from ..errors import RuleViolation
from ..events import Event, Note, StateChanged
from . import geometry as geo
from .damage import Ledger, Shot, apply_shot, damage_component
from .enums import Mount, Side
from .model import Arena, Cloud, Tire, Vehicle, Weapon
from .tables import check_usable

__all__ = ["DroppedCounter", "placement_counter", "drop_weapon", "counter_id", "contact", "spikes_effect", "mines_effect", "oil_effect",
           "liquid_damage", "damages_again", "damaging_gas", "gas_damage", "again_every", "OIL_KINDS", "on_oil", "oil_extra_difficulty", "oil_maneuver", "paint_contact", "expire_counters", "swept_polygon"]

OIL_KINDS = ("oil", "flaming_oil")

_D1 = parse_dice("1d")


@dataclass
class DroppedCounter:
    """A counter on the map from a dropped weapon (mines, spikes, oil, flaming oil...)."""

    id: str
    kind: str
    weapon: str
    polygon: geo.Polygon
    placed_turn: int
    owner: str = ""
    hidden: bool = False          # under water (CW-DROP-06)
    inert: bool = False           # oil in water, flaming oil dispersed (CW-DROP-06)
    still_on: set = field(default_factory=set)   # vehicles on it when it was laid: they check it only if they come back


def placement_counter(rules: Rules, vehicle: Vehicle, mount: Mount, kind: str, as_mount: Mount | None = None) -> geo.Counter:
    """CW-DROP-01: where a dropped weapon's counter goes, aligned with the vehicle.

    Moving: front: centred, its front edge on the vehicle's front; underbody or
    top: centred, its front edge at the vehicle's centre; side: as underbody but
    1/2" off to that side; back: centred, its back edge on the vehicle's back.
    In reverse, front and back swap. Stationary: back as moving; side and front
    straight out from that side; top and underbody centred on the vehicle. A
    turret weapon is placed as if mounted at `as_mount`.
    """
    d = rules["carwars.dropped"]
    if mount is Mount.TURRET:
        if as_mount is None or as_mount is Mount.TURRET:
            raise RuleViolation("a turret-mounted dropped weapon needs a placement (front, back, left, right, top or underbody)",
                                field="placement", value=None, rule="CW-DROP-01")
        mount = as_mount
    cw, cl = d["footprint"][kind]
    c = vehicle.counter
    h, w = c.length / 2, c.width / 2
    moving = vehicle.speed != 0
    if moving and vehicle.speed < 0 and mount in (Mount.FRONT, Mount.BACK):
        mount = Mount.BACK if mount is Mount.FRONT else Mount.FRONT
    off = d["placement"]["side_offset"]
    if moving:
        local = {Mount.FRONT: (0.0, h - cl / 2), Mount.BACK: (0.0, -h + cl / 2), Mount.TOP: (0.0, -cl / 2),
                 Mount.UNDERBODY: (0.0, -cl / 2), Mount.LEFT: (-off, -cl / 2), Mount.RIGHT: (off, -cl / 2)}[mount]
        facing = c.facing
        length, width = cl, cw
    else:
        local = {Mount.FRONT: (0.0, h + cl / 2), Mount.BACK: (0.0, -h + cl / 2), Mount.TOP: (0.0, 0.0),
                 Mount.UNDERBODY: (0.0, 0.0), Mount.LEFT: (-(w + cl / 2), 0.0), Mount.RIGHT: (w + cl / 2, 0.0)}[mount]
        facing = c.facing + (90.0 if mount in (Mount.LEFT, Mount.RIGHT) else 0.0)
        length, width = cl, cw
    x, y = c.to_world(local)
    return geo.Counter(x, y, length, width, facing % 360.0)


def drop_weapon(rules: Rules, arena: Arena, vehicle: Vehicle, weapon: Weapon, counter_id: str, dice: DiceSource,
                as_mount: Mount | None = None, water_roll: bool = True) -> tuple[list[Event], DroppedCounter | None]:
    """CW-DROP-01/05/06: fire a dropped weapon: one shot of ammunition, a counter (or a cloud) placed;
    in water 1d 1-2 backs water into it (1d-3 damage), oil is useless, flaming oil disperses, spikes and
    mines lie hidden. Without `water_roll` (the fight packer, whose kernel rolls it) the water's die and damage
    are left out, and nothing else changes."""
    spec = weapon.spec
    kind = dropped_kind(spec)
    out: list[Event] = []
    check_usable(spec, "weapon", weapon.id)
    if weapon.destroyed:
        raise RuleViolation(f"weapon {weapon.id!r} is destroyed", field="weapon", value=weapon.id, rule="CW-VEH-03")
    if spec.shots > 0 and weapon.ammo <= 0:
        raise RuleViolation(f"weapon {weapon.id!r} is out of ammunition", field="weapon", value=weapon.id, rule="CW-VEH-03")
    if kind == "cloud" and (as_mount or weapon.mount) not in (Mount.BACK, Mount.LEFT, Mount.RIGHT):
        raise RuleViolation("smoke and paint are laid by rear or side mounts", field="weapon", value=weapon.id, rule="CW-DROP-05")
    if spec.shots > 0:
        out.append(StateChanged(f"{vehicle.id} {weapon.id}", "ammo", weapon.ammo, weapon.ammo - 1, "CW-DROP-01"))
        weapon.ammo -= 1
    place = placement_counter(rules, vehicle, weapon.mount, kind, as_mount)
    poly = place.polygon()
    in_water = vehicle.water_depth_ft > 0
    if in_water and water_roll:
        w = rules["carwars.dropped"]["water"]
        r, rolls = chance(dice, Roll(_D1, f"{weapon.id} fired in water: does water back up", "CW-DROP-06",
                                     key=lambda v: w["backup"][0] <= v <= w["backup"][1]))
        out += rolls
        if w["backup"][0] <= r.total <= w["backup"][1]:
            dmg = dice.roll(parse_dice(w["backup_damage"]), f"{weapon.id}: water damage", "CW-DROP-06")
            ledger = Ledger(vehicle.id, dealt=dmg.total)
            out.append(dmg)
            rest = damage_component(vehicle, weapon, dmg.total, ledger, "CW-DROP-06")
            ledger.pass_out(rest, "beyond the weapon's DP", "CW-DROP-06")
            out += ledger.events
    if kind == "cloud":
        cloud_kind = "paint" if spec.cloud == "paint" else "smoke"   # tear gas in a smokescreen acts as smoke
        damaging = spec.name if damaging_gas(spec) else ""
        arena.clouds[counter_id] = Cloud(counter_id, cloud_kind, poly, arena.turn, damaging)
        if damaging:
            arena.clouds[counter_id].still_on = {v.id for v in arena.vehicles.values() if intersects(v.counter.polygon(), poly)}
        what = f"{cloud_kind}, a damaging gas" if damaging else cloud_kind
        out.append(Note(f"{vehicle.id} lays {what} ({spec.name}) at ({place.cx:.2f}, {place.cy:.2f})", "CW-DROP-05"))
        return out, None
    counter = DroppedCounter(counter_id, kind, spec.name, poly, arena.turn, vehicle.id)
    counter.still_on = {v.id for v in arena.vehicles.values() if intersects(v.counter.polygon(), poly)}
    if in_water:
        if kind in ("oil",):
            counter.inert = True
            out.append(Note(f"{spec.name} in water: no effect", "CW-DROP-06"))
        elif kind == "flaming_oil":
            counter.inert = True
            out.append(Note(f"{spec.name} in water: ignites but disperses", "CW-DROP-06"))
        elif kind in ("spikes", "mines"):
            counter.hidden = True
            out.append(Note(f"{spec.name} in water: hidden under the surface", "CW-DROP-06"))
    out.append(Note(f"{vehicle.id} drops {spec.name} ({counter_id}) at ({place.cx:.2f}, {place.cy:.2f})", "CW-DROP-01"))
    return out, counter


def counter_id(arena: Arena, vehicle: Vehicle, weapon: Weapon) -> str:
    """The id of what a drop lays now: <weapon>.t<turn>p<phase> ("md.t1p3"). Another vehicle's weapon of the same
    id, or the same weapon dropped by a declared action and on automatic in one phase, would lay a second counter
    of that id (a second cloud would replace the first): the later one takes <vehicle>.<weapon>.t<turn>p<phase>,
    then <vehicle>.<weapon>.<n>.t<turn>p<phase>. Every form ends as validate reserves (CLI-02)."""
    taken = {c.id for c in arena.counters} | set(arena.clouds)
    when = f"t{arena.turn}p{arena.phase}"
    for ident in (f"{weapon.id}.{when}", f"{vehicle.id}.{weapon.id}.{when}"):
        if ident not in taken:
            return ident
    n = 2
    while f"{vehicle.id}.{weapon.id}.{n}.{when}" in taken:
        n += 1
    return f"{vehicle.id}.{weapon.id}.{n}.{when}"


def counter_base(ident: str) -> str:
    """What a counter id `counter_id` made names before its time: the weapon id, or <vehicle>.<weapon> (its
    <n> dropped): "md.t1p3" -> "md", "v2.md.t1p3" and "v2.md.3.t1p3" -> "v2.md"."""
    base = re.sub(r"\.t\d+p\d+$", "", ident)
    return re.sub(r"\.\d+$", "", base) if base.count(".") >= 2 else base


def dropped_kind(spec) -> str:
    """What a dropped weapon lays (CW-DROP-01): its table's kind (mines, spikes, oil...), else a cloud or junk."""
    return spec.dropped_kind or ("cloud" if spec.cloud else "junk")


def swept_polygon(before: geo.Counter, after: geo.Counter) -> geo.Polygon:
    """The area a counter covers moving straight from `before` to `after` (convex hull of both)."""
    pts = sorted(set(before.corners()) | set(after.corners()))
    if len(pts) <= 2:
        return before.polygon()

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 1e-12:
            lower.pop()
        lower.append(p)
    upper: list = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 1e-12:
            upper.pop()
        upper.append(p)
    return geo.Polygon(tuple(lower[:-1] + upper[:-1]))


def intersects(a: geo.Polygon, b: geo.Polygon) -> bool:
    """Closed convex polygons intersect (separating axis test)."""
    for poly in (a, b):
        vs = poly.vertices
        for i in range(len(vs)):
            x1, y1 = vs[i]
            x2, y2 = vs[(i + 1) % len(vs)]
            nx, ny = y2 - y1, x1 - x2
            pa = [nx * x + ny * y for x, y in a.vertices]
            pb = [nx * x + ny * y for x, y in b.vertices]
            if max(pa) < min(pb) - 1e-12 or max(pb) < min(pa) - 1e-12:
                return False
    return True


def _grown(rules: Rules, poly: geo.Polygon) -> geo.Polygon:
    """The counter plus its adjacent squares (one square all round, CW-DROP-02)."""
    g = rules["carwars.dropped"]["placement"]["adjacent"]
    xs = [p[0] for p in poly.vertices]
    ys = [p[1] for p in poly.vertices]
    cx, cy = sum(xs) / len(xs), sum(ys) / len(ys)
    out = []
    for x, y in poly.vertices:
        dx, dy = x - cx, y - cy
        d = math.hypot(dx, dy) or 1.0
        out.append((x + dx / d * g * math.sqrt(2), y + dy / d * g * math.sqrt(2)))
    return geo.Polygon(tuple(out))


def contact(rules: Rules, area: geo.Polygon, counter: DroppedCounter) -> str | None:
    """Whether an area crosses the counter ("on"), only its adjacent squares ("adjacent"), or neither."""
    if intersects(area, counter.polygon):
        return "on"
    if intersects(area, _grown(rules, counter.polygon)):
        return "adjacent"
    return None


def _tire_polys(vehicle: Vehicle, before: geo.Counter | None) -> list[tuple[Tire, geo.Polygon]]:
    out = []
    for t in vehicle.tires:
        now = vehicle.tire_counter(t)
        if before is not None:
            dx, dy = vehicle.x - before.cx, vehicle.y - before.cy
            then = geo.Counter(now.cx - dx, now.cy - dy, now.length, now.width, now.facing)
            out.append((t, swept_polygon(then, now)))
        else:
            out.append((t, now.polygon()))
    return out


def spiked_tires(rules: Rules, vehicle: Vehicle, counter: DroppedCounter, where: str, before: geo.Counter | None = None) -> list[Tire]:
    """CW-DROP-02: the tires spikes bite when they go off: every tire crossing the counter ("on"); crossing only its
    adjacent squares, those that crossed them and not the counter (or, if none, those that crossed them)."""
    tires = _tire_polys(vehicle, before)
    if where == "adjacent":
        grown = _grown(rules, counter.polygon)
        tires = [(tr, p) for tr, p in tires if intersects(p, grown) and not intersects(p, counter.polygon)] or \
                [(tr, p) for tr, p in tires if intersects(p, grown)]
    return [tr for tr, _ in tires]


def spikes_effect(rules: Rules, vehicle: Vehicle, counter: DroppedCounter, where: str, spec, dice: DiceSource,
                  before: geo.Counter | None = None) -> list[Event]:
    """CW-DROP-02: crossing spikes: 1d, 1-4 each tire takes the spike damage; crossing only the adjacent squares:
    1-2, each tire that crossed them. Solid and plasticore tires take half (rounded up). Spikes stay."""
    t = rules["carwars.dropped"]["spikes"]
    band = t["on_counter"] if where == "on" else t["adjacent"]
    r, rolls = chance(dice, Roll(_D1, f"{vehicle.id} crosses {counter.id} ({where}): spikes bite on {band[0]}-{band[1]}", "CW-DROP-02",
                                 key=lambda v: band[0] <= v <= band[1]))
    out: list[Event] = list(rolls)
    if not band[0] <= r.total <= band[1]:
        return out
    expr = spec.tire_damage or spec.damage or _D1
    for tire in spiked_tires(rules, vehicle, counter, where, before):
        d = dice.roll(expr, f"spikes on tire {tire.id}", "CW-DROP-02")
        hits = math.ceil(d.total / 2) if tire.type in t["half_for"] else d.total
        ledger = Ledger(vehicle.id, dealt=hits)
        ledger.events.append(d)
        if hits != d.total:
            ledger.note(f"{tire.type} tire takes half, rounded up: {hits}", "CW-DROP-02")
        ledger.pass_out(damage_component(vehicle, tire, hits, ledger, "CW-DROP-02"), f"beyond tire {tire.id}", "CW-DROP-02")
        out += ledger.events
    return out


def mines_effect(rules: Rules, arena: Arena, vehicle: Vehicle, counter: DroppedCounter, where: str, spec, dice: DiceSource,
                 before: geo.Counter | None = None) -> tuple[list[Event], bool]:
    """CW-DROP-03: a wheel crossing mines: 1-4 (adjacent squares 1-2) they explode: each tire within 1" of the
    counter's edge takes the tire damage, the triggering vehicle's underbody the underbody damage; the counter goes."""
    t = rules["carwars.dropped"]["mines"]
    band = t["on_counter"] if where == "on" else t["adjacent"]
    r, rolls = chance(dice, Roll(_D1, f"{vehicle.id} runs over {counter.id} ({where}): mines go off on {band[0]}-{band[1]}", "CW-DROP-03",
                                 key=lambda v: band[0] <= v <= band[1]))
    out: list[Event] = list(rolls)
    if not band[0] <= r.total <= band[1]:
        return out, False
    out.append(Note(f"{counter.id} explodes under {vehicle.id}", "CW-DROP-03"))
    for v in arena.vehicles.values():
        for tire in v.tires:
            tp = v.tire_counter(tire).polygon()
            gap = min(geo.distance(geo.nearest_point(counter.polygon, q), q) for q in tp.vertices)
            near = intersects(tp, counter.polygon) or gap <= t["tire_radius"] + 1e-9
            if near and spec.tire_damage is not None:
                d = dice.roll(spec.tire_damage, f"mine blast on {v.id} tire {tire.id}", "CW-DROP-03")
                ledger = Ledger(v.id, dealt=d.total)
                ledger.events.append(d)
                ledger.pass_out(damage_component(v, tire, d.total, ledger, "CW-DROP-03"), f"beyond tire {tire.id}", "CW-DROP-03")
                out += ledger.events
    if spec.underbody_damage is not None:
        d = dice.roll(spec.underbody_damage, f"mine blast on {vehicle.id} underbody", "CW-DROP-03")
        out.append(d)
        out += apply_shot(rules, vehicle, Shot(d.total, Side.UNDERBODY, attack=counter.id), dice).events
    return out, True


def on_oil(arena: Arena, vehicle: Vehicle) -> bool:
    """CW-DROP-04: whether any part of the vehicle is on an oil or flaming oil slick: it crossed one in this
    phase's movement (`vehicle.on_oil`, set by the turn's contact check), or its counter touches one now. A slick
    gone inert in water does nothing; a vehicle does not count a slick it laid until it has left it."""
    if vehicle.on_oil:
        return True
    if not arena.counters:
        return False
    mine = vehicle.counter.polygon()
    return any(c.kind in OIL_KINDS and not c.inert and vehicle.id not in c.still_on and intersects(mine, c.polygon)
               for c in arena.counters)


def oil_extra_difficulty(rules: Rules, arena: Arena, vehicle: Vehicle) -> int:
    """CW-DROP-04: what an oil slick adds to the difficulty of a maneuver attempted or a hazard met while any part
    of the vehicle is on it (D2); 0 off it."""
    return rules["carwars.dropped"]["oil"]["maneuver_penalty"] if on_oil(arena, vehicle) else 0


def oil_maneuver(rules: Rules, arena: Arena, vehicle: Vehicle) -> list[Event]:
    """CW-DROP-04: a maneuver made in a phase the vehicle crosses an oil slick is D2 harder (and so costs 2 more to
    hit that phase, CW-HIT-10)."""
    extra = oil_extra_difficulty(rules, arena, vehicle) if vehicle.maneuvered else 0
    if not extra:
        return []
    vehicle.hazard_difficulty += extra
    return [Note(f"{vehicle.id} maneuvers on an oil slick: +D{extra}", "CW-DROP-04")]


def oil_effect(rules: Rules, vehicle: Vehicle, counter: DroppedCounter, spec, dice: DiceSource) -> list[Event]:
    """CW-DROP-04: the phase a vehicle first runs over a slick: oil adds D2 to maneuvers and hazards while it is on
    it (`on_oil`; not a hazard itself); flaming oil is also a D1 hazard (its own, not raised by the D2) and damages
    the underbody and tires (`liquid_damage`). A slick gone inert in water does nothing."""
    o = rules["carwars.dropped"]["oil"]
    if counter.inert:
        return [Note(f"{vehicle.id} crosses {counter.id}: dispersed in water, no effect", "CW-DROP-06")]
    out: list[Event] = [Note(f"{vehicle.id} on {counter.id}: +D{o['maneuver_penalty']} to maneuvers and hazards while on it", "CW-DROP-04")]
    if counter.kind == "flaming_oil" and not counter.inert:
        out.append(Note(f"{vehicle.id} drives through flaming oil: a D{o['flaming_hazard']} hazard", "CW-DROP-04"))
        vehicle.hazard_difficulty += o["flaming_hazard"]
        vehicle.phase_hazards.append((o["flaming_hazard"], "flaming oil"))
        out += liquid_damage(rules, vehicle, counter, spec, dice)
    return out


def liquid_damage(rules: Rules, vehicle: Vehicle, counter: DroppedCounter, spec, dice: DiceSource) -> list[Event]:
    """CW-DROP-04, CW-SEED-01: a damaging liquid's damage roll, in the phase the vehicle first runs onto it and again
    every `liquid_damage_every_phases` phases it stays on it (`damages_again`): flaming oil's dice to the underbody
    and to each tire."""
    out: list[Event] = []
    if spec.damage is None:
        return out
    for label, shot in [("underbody", Shot(0, Side.UNDERBODY))] + [(f"tire {t.id}", Shot(0, None, "tire", t.id)) for t in vehicle.tires]:
        d = dice.roll(spec.damage, f"flaming oil on {vehicle.id} {label}", "CW-DROP-04")
        out.append(d)
        out += apply_shot(rules, vehicle, Shot(d.total, shot.side, shot.part, shot.tire, counter.id), dice).events
    return out


def damaging_gas(spec) -> bool:
    """CW-SEED-01: a dropped gas that does damage (a flame cloud: a gas cloud with damage dice); it screens as smoke."""
    return spec.cloud == "gas" and spec.damage is not None


def gas_damage(rules: Rules, vehicle: Vehicle, cloud: Cloud, spec, dice: DiceSource) -> list[Event]:
    """CW-SEED-01 (RULING): a damaging gas's damage roll, in the phase the vehicle first enters the cloud and again
    every `liquid_damage_every_phases` phases it stays in it (`again_every`): the gas's dice once to each of its
    six sides, which the cloud engulfs (front, back, left, right, top, underbody, in that order)."""
    out: list[Event] = []
    for side in (Side.FRONT, Side.BACK, Side.LEFT, Side.RIGHT, Side.TOP, Side.UNDERBODY):
        d = dice.roll(spec.damage, f"{spec.name} gas on {vehicle.id} {side}", "CW-SEED-01")
        out.append(d)
        out += apply_shot(rules, vehicle, Shot(d.total, side, attack=cloud.id), dice).events
    return out


def again_every(rules: Rules, phases_on: int) -> bool:
    """CW-SEED-01: whether a vehicle in contact with a damaging liquid or gas for `phases_on` phases in a row (this
    one included) takes its damage again this phase: the 1 + k * `liquid_damage_every_phases`-th (k >= 1)."""
    every = rules["carwars.dropped"]["oil"]["liquid_damage_every_phases"]
    return phases_on > 1 and (phases_on - 1) % every == 0


def damages_again(rules: Rules, counter: DroppedCounter, phases_on: int) -> bool:
    """CW-SEED-01: whether a vehicle on a damaging liquid for `phases_on` phases in a row (this one included) takes its
    damage again this phase: in the 1 + k * `liquid_damage_every_phases`-th phase (k >= 1; the first is the phase it
    ran onto it, `oil_effect`). Flaming oil is the one damaging liquid the engine lays; one gone inert does nothing."""
    return counter.kind == "flaming_oil" and not counter.inert and again_every(rules, phases_on)


def paint_contact(rules: Rules, vehicle: Vehicle, cloud: Cloud, turn: int) -> list[Event]:
    """CW-DROP-05: a vehicle touching paint gets paint on its windows: -2 to hit for the rest of the turn and the next three."""
    until = turn + rules["carwars.dropped"]["clouds"]["paint_window_turns"]
    if vehicle.paint_until_turn is not None and vehicle.paint_until_turn >= until:
        return []
    before = vehicle.paint_until_turn
    vehicle.paint_until_turn = until
    return [StateChanged(vehicle.id, "paint on windows until turn", before, until, "CW-DROP-05")]


def expire_counters(rules: Rules, arena: Arena, counters: list[DroppedCounter], turn: int) -> list[Event]:
    """CW-DROP-04/05: at the end of a turn: paint clouds fired last turn go, smoke after a minute, flaming oil after 5 turns."""
    c = rules["carwars.dropped"]
    out: list[Event] = []
    for cid, cloud in list(arena.clouds.items()):
        life = c["clouds"]["paint_turns_after"] if cloud.kind == "paint" else c["clouds"]["smoke_turns"] - 1
        if turn >= cloud.placed_turn + life:
            del arena.clouds[cid]
            out.append(StateChanged("arena", f"{cloud.kind} cloud {cid}", "present", "gone", "CW-DROP-05"))
    for counter in list(counters):
        if counter.kind == "flaming_oil" and turn >= counter.placed_turn + c["oil"]["flaming_turns"] - 1:
            counters.remove(counter)
            out.append(StateChanged("arena", f"flaming oil {counter.id}", "burning", "gone", "CW-DROP-04"))
    return out
