"""Automatic, linked and hand weapons (CW-AUTO-01, CW-LINK-01, CW-HAND-01)."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..data import Rules
from ..errors import RuleViolation, ScenarioError
from ..events import Event, Note, StateChanged
from . import geometry as geo
from .attack import Attack
from .enums import Mount
from .model import Arena, CrewMember, Pedestrian, Vehicle, Weapon
from .tables import check_usable, weapon_spec

__all__ = ["Link", "set_automatic", "automatic_target", "automatic_attacks", "expand_link", "check_aimed_together",
           "check_hand_load"]


@dataclass(frozen=True)
class Link:
    """A weapons link (CW-LINK-01): its members are weapon ids or other link ids; `smart` lets turret and
    body weapons be aimed together."""

    id: str
    members: tuple[str, ...]
    smart: bool = False


def set_automatic(vehicle: Vehicle, weapon: Weapon, on: bool) -> list[Event]:
    """CW-AUTO-01: putting a weapon on (or off) automatic is a firing action; turret weapons cannot go on automatic.
    Putting a weapon on automatic breaks its sustained fire (CW-HIT-09: the history records a streak of 0)."""
    if on:
        check_usable(weapon.spec, "automatic", weapon.id)
    if on and weapon.mount is Mount.TURRET:
        raise RuleViolation(f"weapon {weapon.id!r} is turret-mounted: turret weapons cannot go on automatic",
                            field="automatic", value=True, rule="CW-AUTO-01")
    if weapon.automatic == on:
        return []
    weapon.automatic = on
    return [StateChanged(f"{vehicle.id} {weapon.id}", "automatic", not on, on, "CW-AUTO-01")]


def _ray_hits(origin: tuple[float, float], direction: tuple[float, float], poly: geo.Polygon) -> float | None:
    """Distance along the ray to the polygon (None if the ray misses it)."""
    far = (origin[0] + direction[0] * 1000.0, origin[1] + direction[1] * 1000.0)
    length = geo.segment_length_inside(origin, far, poly)
    if length <= 1e-12:
        # a ray that only grazes still "crosses the line": test touching (a thing touching only the weapon's own
        # point, lying beside the line, is touched there, at 0)
        best = None
        for i, p in enumerate(poly.vertices):
            q = poly.vertices[(i + 1) % len(poly.vertices)]
            t = _seg_ray(origin, direction, p, q)
            if t is not None and (best is None or t < best):
                best = t
        return best
    # entry distance: nearest point of the chord
    lo, hi = 0.0, 1000.0
    for _ in range(80):
        mid = (lo + hi) / 2
        if geo.segment_length_inside(origin, (origin[0] + direction[0] * mid, origin[1] + direction[1] * mid), poly) > 0:
            hi = mid
        else:
            lo = mid
    return hi


def _seg_ray(o, d, p, q) -> float | None:
    ex, ey = q[0] - p[0], q[1] - p[1]
    den = d[0] * ey - d[1] * ex
    if abs(den) < 1e-15:
        return None
    t = ((p[0] - o[0]) * ey - (p[1] - o[1]) * ex) / den
    u = ((p[0] - o[0]) * d[1] - (p[1] - o[1]) * d[0]) / den
    return t if t >= 0 and -1e-12 <= u <= 1 + 1e-12 else None


def automatic_target(arena: Arena, vehicle: Vehicle, weapon: Weapon) -> str | None:
    """CW-AUTO-01 (RULING): a weapon on automatic fires straight out from the middle of its side; the nearest
    vehicle, pedestrian or building crossing that line takes the shot."""
    if weapon.mount not in (Mount.FRONT, Mount.BACK, Mount.LEFT, Mount.RIGHT):
        return None
    side = str(weapon.mount)
    c = vehicle.counter
    origin = c.side_midpoint(side)
    local = {"front": (0.0, 1.0), "back": (0.0, -1.0), "left": (-1.0, 0.0), "right": (1.0, 0.0)}[side]
    tip = c.to_world(local)
    centre = c.to_world((0.0, 0.0))
    direction = (tip[0] - centre[0], tip[1] - centre[1])
    best: tuple[float, str] | None = None
    candidates = [(v.id, v.counter.polygon()) for v in arena.vehicles.values() if v is not vehicle]
    candidates += [(p.id, p.counter.polygon()) for p in arena.pedestrians.values()]
    candidates += [(b.id, b.polygon) for b in arena.buildings.values()]
    for ident, poly in candidates:
        d = _ray_hits(origin, direction, poly)
        if d is not None and (best is None or d < best[0]):
            best = (d, ident)
    return best[1] if best else None


def fires_on_automatic(weapon: Weapon) -> bool:
    """CW-AUTO-01: an aimed weapon on automatic, which fires by itself at the end of the turn's movement (a dropped
    one on automatic lays its counters instead, turn._automatic_drops)."""
    return weapon.automatic and not weapon.spec.dropped and weapon.spec.needs_to_hit


def automatic_attacks(arena: Arena, turn: int) -> tuple[list[Attack], list[Event]]:
    """CW-AUTO-01: at the end of the turn's movement every aimed weapon on automatic with ammunition fires
    at whatever crosses its line (no specific target, no computer, no sustained fire)."""
    attacks, events = [], []
    for v in arena.vehicles.values():
        for w in v.all_weapons():
            if not fires_on_automatic(w) or w.destroyed:
                continue
            if w.spec.shots > 0 and w.ammo <= 0:
                events.append(Note(f"{v.id} {w.id} on automatic is out of ammunition", "CW-AUTO-01"))
                continue
            target = automatic_target(arena, v, w)
            if target is None:
                events.append(Note(f"{v.id} {w.id} on automatic: nothing crosses its line", "CW-AUTO-01"))
                continue
            attacks.append(Attack(f"auto:{v.id}.{w.id}.t{turn}", v.id, w.id, target, "auto"))
            events.append(Note(f"{v.id} {w.id} on automatic fires at {target}, the first thing on its line", "CW-AUTO-01"))
    return attacks, events


def attack_columns(arena, a) -> list[tuple[str, str, bool]]:
    """The columns an attack's rolls are reported under, as (column, weapon id, aimed): a link's one per weapon,
    <attack>/<weapon> as `expand_link` names them (its dropped, smoke and paint weapons roll nothing: not aimed);
    an area-effect attack's one per intended victim, <attack>@<victim> (CW-LINK-01, CW-DMG-07); else the attack's."""
    unit = arena.vehicles.get(a.attacker)
    if unit is not None and a.weapon in unit.links:
        return [(f"{a.id}/{w.id}", w.id, w.spec.aimed) for w in flatten_link(unit, a.weapon, "attack")]
    if a.victims:
        return [(f"{a.id}@{v}", a.weapon, True) for v in a.victims]
    return [(a.id, a.weapon, True)]


def flatten_link(vehicle: Vehicle, ident: str, path: str, seen: tuple[str, ...] = ()) -> list[Weapon]:
    """The weapons a link fires, nested links opened in order (CW-LINK-01); a weapon id alone is itself."""
    if ident in seen:
        raise ScenarioError("a link contains itself", field=path, value=ident, rule="CW-LINK-01")
    if ident in vehicle.links:
        out: list[Weapon] = []
        for m in vehicle.links[ident].members:
            out += flatten_link(vehicle, m, path, seen + (ident,))
        return out
    return [vehicle.weapon(ident, path)]


def check_aimed_together(link: Link, group: list[Weapon], field: str, value: str) -> None:
    """CW-LINK-01: the identical weapons a link aims together fire from one side of the body, or from the turret;
    turret and body weapons aim together only with a smart link (a RuleViolation naming `field` if not)."""
    body = {w.mount for w in group if w.mount is not Mount.TURRET}
    if not link.smart and body and any(w.mount is Mount.TURRET for w in group):
        raise RuleViolation("turret and body weapons are aimed together only with a smart link", field=field, value=value,
                            rule="CW-LINK-01")
    if len(body) > 1:
        sides = ", ".join(sorted(str(m) for m in body))
        raise RuleViolation(f"identical weapons are aimed together only from one side or the turret (these fire from {sides})",
                            field=field, value=value, rule="CW-LINK-01")


def expand_link(arena: Arena, attack: Attack, where: str) -> tuple[list[Attack], list[Weapon]]:
    """CW-LINK-01: firing a link fires all its weapons. Identical weapons are aimed together (one to-hit roll each,
    the same modifiers); of non-identical ones the first group is aimed, the others fire as if on automatic;
    dropped, smoke and paint weapons link with anything and are dropped. Turret and body weapons are aimed
    together only with a smart link. Returns the aimed and automatic attacks and the weapons to drop."""
    vehicle = arena.unit(attack.attacker, f"{where}.attacker")
    if not isinstance(vehicle, Vehicle) or attack.weapon not in vehicle.links:
        return [attack], []
    link = vehicle.links[attack.weapon]
    weapons = flatten_link(vehicle, attack.weapon, f"{where}.weapon")
    for w in weapons:
        check_usable(w.spec, f"{where}.weapon", w.id)   # before anything of the link fires (CW-VEH-06)
    drops = [w for w in weapons if not w.spec.aimed]
    aimed = [w for w in weapons if w not in drops]
    if not aimed:
        return [], drops
    first = aimed[0].spec.name
    group = [w for w in aimed if w.spec.name == first]
    others = [w for w in aimed if w.spec.name != first]
    check_aimed_together(link, group, f"{where}.weapon", attack.weapon)
    out = [dataclasses.replace(attack, id=f"{attack.id}/{w.id}", weapon=w.id, link=attack.weapon) for w in group]
    for w in others:
        target = automatic_target(arena, vehicle, w)
        if target is not None:
            out.append(dataclasses.replace(attack, id=f"{attack.id}/{w.id}", weapon=w.id, target=target, aim="auto",
                                           as_automatic=True, link=attack.weapon))
    return out, drops


def fetched_grenade(rules: Rules) -> str:
    """CW-HAND-01: the hand weapon a crew member gets out of a box of grenades in the cargo (fetch_grenade)."""
    return rules["carwars.hand_weapons"]["grenade_box_holds"]


def grenade_boxes(vehicle) -> list:
    """CW-HAND-01: the vehicle's boxes of grenades: its cargo items whose id starts `grenade_box` (the sidecar's are
    out of reach), whole or not."""
    return [k for k in vehicle.cargo if k.id.startswith("grenade_box")]


def grenade_box_with_one_left(rules: Rules, vehicle):
    """CW-HAND-01: the box a `fetch_grenade` takes from: the first of the vehicle's boxes (cargo order) that is not
    destroyed and still holds a grenade (a box holds `grenade_box_count`); None when there is none."""
    count = rules["carwars.hand_weapons"]["grenade_box_count"]
    return next((k for k in grenade_boxes(vehicle) if k.dp > 0 and k.grenades_taken < count), None)


def grenade_equivalents(rules: Rules, name: str, path: str = "weapon") -> int:
    """CW-HAND-01: what a hand weapon counts toward a character's load (a grenade 1, a pistol 1; a rifle, shotgun or
    SMG 2; the list's `grenade_equivalents`)."""
    spec = weapon_spec(rules, name, path, hand=True)
    return spec.grenade_equivalents or (1 if spec.thrown else 0)


def check_hand_load(rules: Rules, who: CrewMember | Pedestrian, weapons: tuple[str, ...], path: str) -> None:
    """CW-HAND-01: a character carries at most six grenade-equivalents (a pistol 1; a rifle, shotgun or SMG 2)."""
    limit = rules["carwars.hand_weapons"]["max_grenade_equivalents"]
    total = 0
    for i, name in enumerate(weapons):
        total += grenade_equivalents(rules, name, f"{path}[{i}]")
        if total > limit:
            raise RuleViolation(f"{who.id!r} would carry {total} grenade-equivalents: at most {limit}",
                                field=f"{path}[{i}]", value=name, rule="CW-HAND-01")
