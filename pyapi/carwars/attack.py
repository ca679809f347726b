"""Declared attacks: what a weapon can do to a target, and why (CW-LOF, CW-ARC, CW-TGT, CW-HIT).

`explain_attack` answers without rolling (LOG-02): line of fire, range, aim
point, the side or part aimed at, every modifier with its rule id, the number
needed and the exact probability. `roll_attack` rolls it with a dice source.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from ..data import Rules
from ..dice import DiceSource
from ..errors import RuleViolation, ScenarioError
from ..events import DiceRolled, Event, Modifier
from . import geometry as geo
from . import tohit
from .enums import CrewRole, CrewState, Mount, Side
from .model import Arena, Building, CrewMember, Pedestrian, Vehicle, Weapon
from .tables import WeaponSpec, check_usable, weapon_spec

__all__ = ["Attack", "ToHit", "AttackRoll", "SustainedRecord", "explain_attack", "roll_attack", "parse_aim"]

_ARC_NAMES = ("front", "back", "left", "right")


@dataclass(frozen=True)
class Attack:
    """One declared attack: who fires what at whom, aimed where.

    `aim` is "auto" (the facing side with the best chance to hit, `best_side`),
    a side ("front", "back", "left", "right", "top"), "tire:<wheel>", "turret",
    "rider", "sidecar" or "ground".
    `firer` names the crew member pulling the trigger (default: an able gunner,
    else the driver). `weapon` is a mounted weapon's id, or a hand weapon's name.
    """

    id: str
    attacker: str
    weapon: str
    target: str
    aim: str = "auto"
    firer: str | None = None
    victims: tuple[str, ...] = ()          # CW-DMG-07: area effect: every intended victim (target first)
    defender_order: tuple[str, ...] = ()   # CW-DMG-07: the order the defender gives up victims
    as_automatic: bool = False             # CW-LINK-01: a non-identical linked weapon fires as if on automatic
    link: str | None = None                # CW-LINK-01: the link that fired this weapon

    def to_dict(self) -> dict:
        d = {"id": self.id, "attacker": self.attacker, "weapon": self.weapon, "target": self.target, "aim": self.aim}
        if self.firer is not None:
            d["firer"] = self.firer
        if self.victims:
            d["victims"] = list(self.victims)
        if self.defender_order:
            d["defender_order"] = list(self.defender_order)
        return d


@dataclass(frozen=True)
class SustainedRecord:
    """CW-HIT-09 history of one weapon: its last target, how many consecutive turns, the last turn."""

    target: str
    streak: int
    last_turn: int


@dataclass(frozen=True)
class ToHit(Event):
    """The whole to-hit computation of one attack (LOG-02)."""

    kind: ClassVar[str] = "to_hit_breakdown"
    attack: str
    attacker: str
    weapon: str
    target: str
    aimed_at: str
    side: str | None
    base: int
    modifiers: tuple[Modifier, ...]
    needed: int
    possible: bool
    probability: Fraction
    lof: bool
    range: float | None
    aim_point: tuple[float, float] | None
    origin: tuple[float, float]
    facing_sides: tuple[str, ...] = ()
    firer_arcs: tuple[str, ...] = ()
    reason: str = ""
    consecutive: int = 1
    automatic: bool = False
    sidecar_side: bool = False         # CW-TGT-05: at the whole cycle (no part aimed at), from its sidecar's half
    rule: str = "CW-HIT-01"

    @property
    def total_modifier(self) -> int:
        return sum(m.value for m in self.modifiers)


@dataclass(frozen=True)
class AttackRoll(Event):
    """A rolled attack: the to-hit roll and, on a hit, the damage rolled (applied later, CW-ROF-02)."""

    kind: ClassVar[str] = "attack_roll"
    attack: str
    target: str
    aimed_at: str
    side: str | None
    roll: DiceRolled
    needed: int
    hit: bool
    damage_roll: DiceRolled | None = None
    damage: int | None = None
    rule: str = "CW-HIT-01"

    def __str__(self) -> str:
        verdict = "HIT" if self.hit else "miss"
        out = f"{self.attack}: 2d6 {list(self.roll.faces)} = {self.roll.total} vs {self.needed}: {verdict}"
        if self.hit and self.damage is not None:
            out += f"; damage {self.damage_roll.expr if self.damage_roll else ''} {list(self.damage_roll.faces) if self.damage_roll else ''} = {self.damage} to {self.target} {self.aimed_at}"
        return out


@dataclass(frozen=True)
class Aim:
    kind: str                 # side | tire | turret | rider | sidecar | ground | auto
    side: Side | None = None
    part: str | None = None

    def __str__(self) -> str:
        if self.kind == "side":
            return str(self.side)
        if self.kind == "tire":
            return f"tire {self.part}"
        return self.kind


def parse_aim(text: str, field_name: str) -> Aim:
    """Parse an attack's `aim` field (CW-TGT-01..07)."""
    if not isinstance(text, str):
        raise ScenarioError("expected a string", field=field_name, value=text, rule="CW-TGT-01")
    if text == "auto":
        return Aim("auto")
    if text in ("front", "back", "left", "right", "top", "underbody"):
        return Aim("side", Side.parse(text))
    if text.startswith("tire:") and len(text) > 5:
        return Aim("tire", part=text[5:])
    if text in ("turret", "rider", "sidecar", "ground"):
        return Aim(text)
    raise ScenarioError("expected auto, a side, tire:<wheel>, turret, rider, sidecar or ground", field=field_name, value=text, rule="CW-TGT-01")


# --- who fires what, from where ----------------------------------------------------

@dataclass
class _Firing:
    unit: Vehicle | Pedestrian
    spec: WeaponSpec
    weapon: Weapon | None          # None for hand weapons
    crew: CrewMember | None
    origin: tuple[float, float]
    arc: str | None                # None = 360 degrees
    arc_counter: geo.Counter
    hand: bool
    automatic: bool


def default_firer_pool(vehicle: Vehicle, weapon: Weapon) -> list[CrewMember]:
    """Who may fire a mounted weapon no attack names a firer for, in order (CW-HIT-08): a sidecar weapon's riders,
    then the gunners, then the driver. The first able fires it."""
    pool = list(vehicle.sidecar.crew) if vehicle.sidecar and weapon in vehicle.sidecar.weapons else []
    return pool + [c for c in vehicle.crew if c.role is CrewRole.GUNNER] + [c for c in vehicle.crew if c.role is CrewRole.DRIVER]


def nobody_to_fire(vehicle: Vehicle, weapon: Weapon) -> str:
    """CW-ROF-01: a weapon is fired by a character (or by itself, on automatic); one no attack names a firer for,
    in a vehicle with nobody in its default firers, cannot fire."""
    riders = " or sidecar rider" if vehicle.sidecar and weapon in vehicle.sidecar.weapons else ""
    return (f"nobody aboard {vehicle.id!r} can fire weapon {weapon.id!r}: it has no gunner{riders} or driver "
            "(name a firer, or put the weapon on automatic)")


def _default_firer(vehicle: Vehicle, weapon: Weapon) -> CrewMember | None:
    pool = default_firer_pool(vehicle, weapon)
    able = [c for c in pool if c.can_act]
    return able[0] if able else (pool[0] if pool else None)


def _firing(arena: Arena, attack: Attack, rules: Rules, where: str) -> _Firing:
    unit = arena.unit(attack.attacker, f"{where}.attacker")
    if isinstance(unit, Pedestrian):
        if attack.weapon not in unit.weapons:
            raise ScenarioError(f"pedestrian {unit.id!r} carries no such hand weapon (carries: {', '.join(unit.weapons) or 'none'})",
                                field=f"{where}.weapon", value=attack.weapon, rule="CW-HAND-01")
        if unit.state >= CrewState.UNCONSCIOUS:
            raise RuleViolation(f"pedestrian {unit.id!r} is {unit.state} and cannot fire", field=f"{where}.attacker", value=unit.id, rule="CW-CREW-01")
        spec = weapon_spec(rules, attack.weapon, f"{where}.weapon", hand=True)
        check_usable(spec, f"{where}.weapon", attack.weapon)
        c = unit.counter
        return _Firing(unit, spec, None, None, (c.cx, c.cy), None, c, True, False)

    vehicle = unit
    mounted = next((w for w in vehicle.all_weapons() if w.id == attack.weapon), None)
    if vehicle.no_fire_turn == arena.turn and not (mounted is not None and (mounted.automatic or attack.as_automatic)):
        raise RuleViolation(f"vehicle {vehicle.id!r} is out of control (a crash this turn): no aimed fire for the rest of "
                            "the turn", field=f"{where}.attacker", value=vehicle.id, rule="FIGHT-09")
    if mounted is None:
        # a hand weapon fired by a crew member (CW-HAND-01)
        if attack.firer is None:
            vehicle.weapon(attack.weapon, f"{where}.weapon")  # raises: no such mounted weapon
        crew = vehicle.crew_member(attack.firer, f"{where}.firer")
        if attack.weapon not in crew.hand_weapons:
            raise ScenarioError(f"vehicle {vehicle.id!r} has no weapon {attack.weapon!r} and {crew.id!r} carries no such hand weapon",
                                field=f"{where}.weapon", value=attack.weapon, rule="CW-HAND-01")
        spec = weapon_spec(rules, attack.weapon, f"{where}.weapon", hand=True)
        check_usable(spec, f"{where}.weapon", attack.weapon)
        _check_crew_can_fire(crew, where)
        return _hand_firing(vehicle, crew, spec, where)

    check_usable(mounted.spec, f"{where}.weapon", mounted.id)
    if mounted.destroyed:
        raise RuleViolation(f"weapon {mounted.id!r} is destroyed", field=f"{where}.weapon", value=mounted.id, rule="CW-VEH-03")
    if mounted.spec.shots > 0 and mounted.ammo <= 0:
        raise RuleViolation(f"weapon {mounted.id!r} is out of ammunition", field=f"{where}.weapon", value=mounted.id, rule="CW-VEH-03")
    if not mounted.spec.needs_to_hit or mounted.spec.dropped:
        raise RuleViolation(f"weapon {mounted.id!r} ({mounted.spec.name}) is not aimed: dropped and cloud weapons roll no to-hit",
                            field=f"{where}.weapon", value=mounted.id, rule="CW-DROP-01")
    crew = vehicle.crew_member(attack.firer, f"{where}.firer") if attack.firer else _default_firer(vehicle, mounted)
    if crew is None and not (mounted.automatic or attack.as_automatic):
        raise RuleViolation(nobody_to_fire(vehicle, mounted), field=f"{where}.firer", value=None, rule="CW-ROF-01")
    if crew is not None and not mounted.automatic:
        _check_crew_can_fire(crew, where)
    if crew is not None:
        from .crew import check_substitute_fire
        check_substitute_fire(vehicle, crew, arena.turn, f"{where}.firer")
    in_sidecar = vehicle.sidecar is not None and mounted in vehicle.sidecar.weapons
    body = vehicle.sidecar_counter() if in_sidecar else vehicle.counter
    if mounted.mount in (Mount.TURRET, Mount.TOP):
        origin, arc = (body.cx, body.cy), None
    elif mounted.mount is Mount.UNDERBODY:
        raise RuleViolation(f"weapon {mounted.id!r} is underbody-mounted: only dropped weapons go there",
                            field=f"{where}.weapon", value=mounted.id, rule="CW-ARC-02")
    else:
        origin, arc = body.side_midpoint(str(mounted.mount)), str(mounted.mount)
    return _Firing(vehicle, mounted.spec, mounted, crew, origin, arc, body, False, mounted.automatic or attack.as_automatic)


def _check_crew_can_fire(crew: CrewMember, where: str) -> None:
    if not crew.can_act:
        raise RuleViolation(f"crew member {crew.id!r} is {crew.state} and cannot fire", field=f"{where}.firer", value=crew.id, rule="CW-CREW-01")


def _hand_firing(vehicle: Vehicle, crew: CrewMember, spec: WeaponSpec, where: str) -> _Firing:
    """CW-LOF-01 / CW-ARC-02: a hand weapon fires from the firer's seat side, in that side's arc;
    a cycle driver's from the counter centre, all round."""
    if crew.seat == "cycle":
        c = vehicle.cycle_counter()
        return _Firing(vehicle, spec, None, crew, (c.cx, c.cy), None, c, True, False)
    if crew.seat == "sidecar":
        c = vehicle.sidecar_counter()
        side = str(vehicle.sidecar.side)  # type: ignore[union-attr]
        return _Firing(vehicle, spec, None, crew, c.side_midpoint(side), side, c, True, False)
    if crew.seat.endswith(("left", "right")):
        side = "left" if crew.seat.endswith("left") else "right"
        c = vehicle.counter
        return _Firing(vehicle, spec, None, crew, c.side_midpoint(side), side, c, True, False)
    raise RuleViolation(f"crew member {crew.id!r} sits in the middle: a hand weapon needs a seat by a side",
                        field=f"{where}.firer", value=crew.seat, rule="CW-ARC-02")


# --- what is aimed at ----------------------------------------------------------------

def _target(arena: Arena, attack: Attack, where: str) -> Vehicle | Pedestrian | Building:
    if attack.target in arena.buildings:
        return arena.buildings[attack.target]
    return arena.unit(attack.target, f"{where}.target")


def _part_polygon(target: Vehicle | Pedestrian | Building, aim: Aim, where: str) -> geo.Polygon:
    """The polygon LOF and range are traced to (CW-LOF-03): the counter or the part aimed at."""
    if isinstance(target, Building):
        return target.polygon
    if isinstance(target, Pedestrian):
        return target.counter.polygon()
    if aim.kind == "tire":
        return target.tire_counter(target.tire(aim.part or "", f"{where}.aim")).polygon()
    if aim.kind == "turret":
        w, length = target.body_part("turret")
        return geo.Counter(target.x, target.y, length, w, target.facing).polygon()
    if aim.kind == "rider":
        c = target.cycle_counter()
        w, length = target.body_part("rider")
        return geo.Counter(c.cx, c.cy, length, w, target.facing).polygon()
    if aim.kind == "sidecar":
        return target.sidecar_counter().polygon()
    return target.counter.polygon()


def _size_direction(rules: Rules, size: str, firer_arcs: set[str]) -> str:
    """The direction a shot comes from for CW-HIT-05; two arcs are ruled for the defender (CW-ARC-01)."""
    options = set()
    if firer_arcs & {"front", "back"}:
        options.add("front_back")
    if firer_arcs & {"left", "right"}:
        options.add("side")
    if not options:
        options = {"side"}
    return min(sorted(options), key=lambda d: sum(m.value for m in tohit.target_size_modifiers(rules, size, d)))


def _size_class(vehicle: Vehicle) -> str:
    return vehicle.body.size


def _speed(unit: Vehicle | Pedestrian | Building) -> float:
    return 0.0 if isinstance(unit, Building) else float(unit.speed)


def _closing(a: Vehicle | Pedestrian, b: Vehicle | Pedestrian) -> bool:
    """CW-HIT-03 footnote: the two move toward each other (each has a velocity component toward the other)."""
    dx, dy = b.x - a.x, b.y - a.y

    def vel(u: Vehicle | Pedestrian) -> tuple[float, float]:
        s, c = geo.sincos_deg(u.facing)
        return (u.speed * s, u.speed * c)

    va, vb = vel(a), vel(b)
    return va[0] * dx + va[1] * dy > 0 and vb[0] * -dx + vb[1] * -dy > 0


_CULL_FROM = 64   # blockers from which a Scene culls them by their boxes (with fewer, looking at each is faster)


class Scene:
    """An arena's blockers at its current positions (CW-LOF-01): buildings, vehicles and pedestrians, then the
    clouds, which block lasers only (CW-LOF-04). With many of them, a line of fire looks only at those whose box
    can hide part of the target (`cull.Blockers`; the same answer). Valid while nothing moves or appears: build one
    for a phase's positions and pass it to every explain of that phase."""

    def __init__(self, arena: Arena) -> None:
        owners = [*arena.buildings.values(), *arena.vehicles.values(), *arena.pedestrians.values()]
        self._index = {id(o): i for i, o in enumerate(owners)}
        self._solid = [b.polygon for b in arena.buildings.values()]
        self._solid += [u.counter.polygon() for u in [*arena.vehicles.values(), *arena.pedestrians.values()]]
        self._all = self._solid + [c.polygon for c in arena.clouds.values()]
        self._boxes: dict[bool, object] = {}

    def sight(self, origin: geo.Point, part: geo.Polygon, firer: object, target: object, laser: bool) -> geo.Sight:
        """`geometry.line_of_fire` from `origin` to `part`, past every blocker but the firer and the target: the same
        clear, range and aim point (with many blockers, `blocked_by` and the intervals may leave out what is beyond
        the target)."""
        polys = self._all if laser else self._solid
        skip = (self._index.get(id(firer)), self._index.get(id(target)))
        if len(polys) < _CULL_FROM:
            return geo.line_of_fire(origin, part, [p for i, p in enumerate(polys) if i not in skip])
        from .boxgrid import bounds

        if laser not in self._boxes:
            from .cull import Blockers

            self._boxes[laser] = Blockers(polys)
        boxes = self._boxes[laser]
        # first the blockers near the box around the origin and the target: a blocker that can hide part of the
        # target meets every segment from the origin to that part, so that box; one beyond the target can hide a
        # hair at an edge ray by rounding, which matters only when the aim point is on that ray: then all of them
        near = boxes.without(*skip, near=bounds([origin, *part.vertices]))
        sight = geo.line_of_fire(origin, part, polys, cull=near)
        if sight.clear and near.on_edge_ray(sight.aim_point):
            sight = geo.line_of_fire(origin, part, polys, cull=boxes.without(*skip))
        return sight


def _in_rubble(arena: Arena, target: object) -> bool:
    if isinstance(target, Building):
        return False
    if getattr(target, "in_rubble", False):
        return True
    centre = (target.x, target.y)  # type: ignore[union-attr]
    return any(a.kind == "rubble" and a.polygon.contains(centre) for a in arena.areas.values())


def explain_attack(arena: Arena, attack: Attack, rules: Rules,
                   history: dict[tuple[str, str], SustainedRecord] | None = None, where: str = "attack",
                   scene: Scene | None = None) -> ToHit:
    """Everything about one declared attack short of rolling it (LOG-02).

    Raises ScenarioError / RuleViolation for declarations the rules forbid
    (unknown weapon, target outside the weapon's arc, a side that does not face
    the firer, a tire under deep water...). A missing line of fire is not an
    error here: the breakdown says so (LOG-02); a declared attack without one
    is refused when its phase is explained (`phase.check_line_of_fire`).
    `scene`: the arena's blockers, when the caller explains many attacks at the same positions.
    """
    fire = _firing(arena, attack, rules, where)
    target = _target(arena, attack, where)
    if target is fire.unit:
        raise RuleViolation("a unit cannot fire at itself", field=f"{where}.target", value=attack.target, rule="CW-LOF-01")
    aim = parse_aim(attack.aim, f"{where}.aim")
    arc_angle = rules["carwars.bodies"]["arcs"]["angle"]
    firer_counter = fire.unit.counter
    _check_aim_kind(target, aim, fire, where)

    part = _part_polygon(target, aim, where)
    # CW-ARC-02: only the part of the target inside the weapon's arc can be shot at.
    if fire.arc is not None:
        part_in_arc = geo.clip_to_arc(fire.arc_counter, fire.arc, part, arc_angle)
        if part_in_arc is None:
            raise RuleViolation(f"target {attack.target!r} is outside the {fire.arc} arc of weapon {attack.weapon!r}",
                                field=f"{where}.target", value=attack.target, rule="CW-ARC-02")
        part = part_in_arc

    scene = Scene(arena) if scene is None else scene
    sight = scene.sight(fire.origin, part, fire.unit, target, fire.spec.laser)
    if fire.spec.laser and not sight.clear and arena.clouds:
        if scene.sight(fire.origin, part, fire.unit, target, False).clear:
            raise RuleViolation(f"weapon {attack.weapon!r} is a laser: it cannot fire through smoke or paint, and no clear line avoids them",
                                field=f"{where}.target", value=attack.target, rule="CW-LOF-04")

    firer_arcs: set[str] = set()
    facing: tuple[str, ...] = ()
    side: Side | None = None
    mods: list[Modifier] = []
    reason = ""
    possible = True

    if isinstance(target, Vehicle):
        firer_arcs = set(geo.polygon_arcs(target.counter, firer_counter.polygon(), arc_angle))
        facing = tuple(s for s in _ARC_NAMES if s in geo.facing_sides(target.counter, fire.origin))
        side = _choose_side(rules, target, aim, facing, firer_arcs, where, fire.origin)
        mods += _target_modifiers(rules, target, aim, side, firer_arcs, fire, where)
        if aim.kind == "ground":
            mods += tohit.ground_shot_modifiers(rules, _speed(target), _speed(fire.unit))
    elif isinstance(target, Pedestrian):
        if target.cover == "full":
            possible, reason = False, "pedestrian prone and fully behind solid cover cannot be hit"
        kind = "pedestrian_head_up_behind_cover" if target.cover == "head_up" else ("pedestrian_prone" if target.prone else "pedestrian")
        mods += tohit.specific_target_modifiers(rules, kind)
    else:
        mods += tohit.specific_target_modifiers(rules, "building")

    if sight.clear:
        assert sight.range is not None and sight.aim_point is not None
        mods += tohit.range_modifiers(rules, sight.range)
        if aim.kind != "ground":
            mods += _movement(rules, fire, target, arc_angle)
        if not fire.spec.laser and arena.clouds:
            crossed = geo.cloud_penalty_length(fire.origin, sight.aim_point, [c.polygon for c in arena.clouds.values()])
            mods += tohit.cloud_modifier(rules, crossed)
        if fire.hand and fire.spec.max_range is not None and sight.range > fire.spec.max_range + 1e-9:
            possible, reason = False, f"beyond the hand weapon's {fire.spec.max_range:g}\" range (CW-HAND-01)"
    else:
        possible, reason = False, "no line of fire (CW-LOF-01)"

    paint = isinstance(fire.unit, Vehicle) and fire.unit.paint_until_turn is not None and arena.turn <= fire.unit.paint_until_turn
    mods += tohit.visibility_modifiers(rules, arena.weather, arena.light, rubble=_in_rubble(arena, target),
                                       blinded=fire.unit.blinded, paint_on_windows=paint)
    mods += _firer(rules, fire, arena)
    consecutive = _consecutive(history or {}, attack, arena.turn)
    mods += tohit.sustained_fire_modifiers(rules, consecutive, automatic=fire.automatic)
    if isinstance(fire.unit, Vehicle):
        mods += tohit.handling_modifiers(rules, fire.unit.handling, fire.unit.hazard_difficulty)
    if side is not None and aim.kind in ("side", "auto"):
        mods += tohit.wrong_arc_modifiers(rules, side, firer_arcs)

    base = fire.spec.to_hit
    needed = tohit.needed_to_hit(base, mods)
    if possible and needed > rules["carwars.tohit"]["to_hit"]["max_needed"]:
        possible, reason = False, f"needs {needed}: no hit possible, the shot may still be fired (CW-HIT-01)"
    return ToHit(
        attack=attack.id, attacker=attack.attacker, weapon=attack.weapon, target=attack.target,
        aimed_at=_aimed_at(target, aim, side), side=str(side) if side is not None else None, base=base,
        modifiers=tuple(mods), needed=needed, possible=possible,
        probability=tohit.hit_probability(rules, needed, possible), lof=sight.clear,
        range=None if sight.range is None else round(sight.range, 6),
        aim_point=None if sight.aim_point is None else (round(sight.aim_point[0], 6), round(sight.aim_point[1], 6)),
        origin=(round(fire.origin[0], 6), round(fire.origin[1], 6)), facing_sides=facing,
        firer_arcs=tuple(a for a in _ARC_NAMES if a in firer_arcs), reason=reason, consecutive=consecutive,
        automatic=fire.automatic, sidecar_side=_at_cycle_from_sidecar_side(target, aim, fire.origin),
    )


def _aimed_at(target: object, aim: Aim, side: Side | None) -> str:
    if isinstance(target, (Pedestrian, Building)):
        return "pedestrian" if isinstance(target, Pedestrian) else "building"
    if aim.kind in ("auto", "side", "ground"):
        return str(side) if aim.kind != "ground" else f"ground by {side}"
    return str(aim)


def _check_aim_kind(target: object, aim: Aim, fire: _Firing, where: str) -> None:
    if not isinstance(target, Vehicle) and aim.kind != "auto":
        raise RuleViolation(f"aim {aim} applies to vehicles only", field=f"{where}.aim", value=str(aim), rule="CW-TGT-03")
    if fire.automatic and aim.kind not in ("auto", "side"):
        raise RuleViolation("a weapon on automatic cannot target a tire, turret or other specific target",
                            field=f"{where}.aim", value=str(aim), rule="CW-AUTO-01")


def _choose_side(rules: Rules, target: Vehicle, aim: Aim, facing: tuple[str, ...], firer_arcs: set[str], where: str,
                 origin: tuple[float, float]) -> Side | None:
    """CW-TGT-01/02: a side facing the firer; "auto" the one easiest to hit (`best_side`); a sidecar's side
    facing the firer (`sidecar_side_hit`)."""
    if aim.kind == "side":
        side = aim.side
        assert side is not None
        if side is Side.UNDERBODY or (target.rolled_onto is not None and side is target.rolled_onto):
            raise RuleViolation("the underbody can never be chosen by a normal weapon", field=f"{where}.aim", value=str(side), rule="CW-TGT-02")
        if side is Side.TOP:
            _check_top(target, firer_arcs, where)
            return side
        if str(side) not in facing:
            raise RuleViolation(f"side {side} does not face the firer (facing: {', '.join(facing) or 'none'})",
                                field=f"{where}.aim", value=str(side), rule="CW-TGT-01")
        return side
    if aim.kind == "auto":
        return best_side(rules, target, facing, firer_arcs)
    if aim.kind == "ground":
        if not facing:
            return None
        ordered = sorted(facing, key=lambda s: (s not in firer_arcs, _ARC_NAMES.index(s)))
        return Side.parse(ordered[0])
    if aim.kind == "turret":
        return Side.TOP
    if aim.kind == "sidecar" and target.sidecar is not None:
        return sidecar_side_hit(target, origin, firer_arcs)
    if aim.kind in ("rider", "sidecar"):
        flank = [s for s in facing if s in ("left", "right")]
        return Side.parse(flank[0]) if flank else None
    return None


def best_side(rules: Rules, target: Vehicle, facing: tuple[str, ...], firer_arcs: set[str]) -> Side | None:
    """CW-TGT-01 (aim "auto"): of the sides facing the firer, the one with the best chance to hit, judged on the
    modifiers that depend on the side (the target's size seen from it, CW-HIT-05, and -2 for a side whose arc does
    not hold the firer); ties go to front, then back, left, right (docs/rulings.md)."""
    if not facing:
        return None

    def side_modifier(name: str) -> int:
        side = Side.parse(name)
        mods = tohit.target_size_modifiers(rules, _size_class(target), "front_back" if side.is_end else "side")
        mods += tohit.wrong_arc_modifiers(rules, side, firer_arcs)
        return sum(m.value for m in mods)

    return Side.parse(min(facing, key=lambda s: (-side_modifier(s), _ARC_NAMES.index(s))))


def sidecar_side_hit(cycle: Vehicle, origin: tuple[float, float], firer_arcs: set[str]) -> Side:
    """CW-TGT-05: a sidecar is armoured like a small car (five armour locations, no top): a shot hits the side
    of it facing the firer (its front from the front, its back from the back, its outer side from the side).
    Of two facing sides, the one whose arc of the vehicle holds the firer; then front, back, outer side."""
    assert cycle.sidecar is not None
    outer = str(cycle.sidecar.side)
    order = ("front", "back", outer)
    facing = [s for s in order if s in geo.facing_sides(cycle.sidecar_counter(), origin)]
    if not facing:
        return cycle.sidecar.side
    return Side.parse(min(facing, key=lambda s: (s not in firer_arcs, order.index(s))))


def _check_top(target: Vehicle, firer_arcs: set[str], where: str) -> None:
    """CW-TGT-03/06: the top is a target only on trikes (never from behind) or a rolled vehicle."""
    if target.rolled_onto is not None:
        return
    if target.kind != "trike":
        raise RuleViolation("a vehicle without a turret can be hit on top only by dropped or falling attacks or while rolled; aim at 'turret'",
                            field=f"{where}.aim", value="top", rule="CW-TGT-03")
    if not firer_arcs & {"front", "left", "right"}:
        raise RuleViolation("a trike's top cannot be targeted from behind", field=f"{where}.aim", value="top", rule="CW-TGT-06")


def _target_modifiers(rules: Rules, target: Vehicle, aim: Aim, side: Side | None, firer_arcs: set[str],
                      fire: _Firing, where: str) -> list[Modifier]:
    size = _size_class(target)
    mods: list[Modifier] = []
    if aim.kind in ("auto", "side") and side is not None and side is not Side.TOP:
        direction = "front_back" if side.is_end else "side"
        mods += tohit.target_size_modifiers(rules, size, direction)
    elif aim.kind == "side" and side is Side.TOP:
        # CW-TGT-06's -2 is for a trike's sloped top; a rolled car's top (CW-TGT-03) takes the size modifier alone
        mods += tohit.target_size_modifiers(rules, size, _size_direction(rules, size, firer_arcs & {"front", "left", "right"}),
                                            top=target.kind == "trike")
    elif aim.kind == "tire":
        if not tohit.tire_targetable(rules, target.water_depth_ft):
            raise RuleViolation(f"tires cannot be targeted in water over 1 foot deep (depth {target.water_depth_ft:g} ft)",
                                field=f"{where}.aim", value=str(aim), rule="CW-HIT-06")
        mods += tohit.target_size_modifiers(rules, size, _size_direction(rules, size, firer_arcs))
        mods += tohit.specific_target_modifiers(rules, "tire", water_depth_ft=target.water_depth_ft)
    elif aim.kind == "turret":
        if not target.turret:
            raise RuleViolation(f"vehicle {target.id!r} has no turret", field=f"{where}.aim", value="turret", rule="CW-TGT-03")
        mods += tohit.target_size_modifiers(rules, size, _size_direction(rules, size, firer_arcs))
        mods += tohit.specific_target_modifiers(rules, "turret")
    elif aim.kind == "rider":
        if target.kind != "cycle":
            raise RuleViolation("only a motorcycle rider can be targeted as a rider", field=f"{where}.aim", value="rider", rule="CW-TGT-07")
        if not firer_arcs & {"left", "right"}:
            raise RuleViolation("a motorcycle rider can be targeted from the side only", field=f"{where}.aim", value="rider", rule="CW-TGT-07")
        mods += tohit.target_size_modifiers(rules, size, "side")
        mods += tohit.specific_target_modifiers(rules, "rider")
    elif aim.kind == "sidecar":
        if target.sidecar is None:
            raise RuleViolation(f"vehicle {target.id!r} has no sidecar", field=f"{where}.aim", value="sidecar", rule="CW-TGT-05")
        if not on_sidecar_side(target, fire.origin):
            raise RuleViolation("a sidecar can be targeted only from its side of the cycle's centre line",
                                field=f"{where}.aim", value="sidecar", rule="CW-TGT-05")
        mods += tohit.target_size_modifiers(rules, "sidecar", _size_direction(rules, "sidecar", firer_arcs))
        mods += tohit.specific_target_modifiers(rules, "sidecar")
    return mods


def _at_cycle_from_sidecar_side(target: object, aim: Aim, origin: tuple[float, float]) -> bool:
    """CW-TGT-05: a shot at a cycle with a sidecar as a whole (not at a part of it) fired from the sidecar's side
    of the cycle's centre line: its hit goes to the cycle or the sidecar by 1d, whatever side it strikes."""
    return (isinstance(target, Vehicle) and target.sidecar is not None and aim.kind in ("auto", "side", "ground")
            and on_sidecar_side(target, origin))


def on_sidecar_side(cycle: Vehicle, point: tuple[float, float]) -> bool:
    """CW-TGT-05: the point is on the sidecar's side of the cycle's centre line, or on the line."""
    assert cycle.sidecar is not None
    x, _ = cycle.cycle_counter().to_local(point)
    return x >= -1e-9 if cycle.sidecar.side is Side.RIGHT else x <= 1e-9


def _movement(rules: Rules, fire: _Firing, target: object, arc_angle: float) -> list[Modifier]:
    firer = fire.unit
    if isinstance(target, Building):
        return tohit.movement_modifiers(rules, 0.0, False, firer.speed != 0, isinstance(firer, Pedestrian) and firer.braced)
    firer_in_target = geo.polygon_arcs(target.counter, firer.counter.polygon(), arc_angle)
    target_in_firer = geo.polygon_arcs(firer.counter, target.counter.polygon(), arc_angle)
    speed = tohit.relative_speed(rules, firer_in_target, target_in_firer, _speed(target), _speed(firer), _closing(firer, target))
    return tohit.movement_modifiers(rules, speed, target.speed != 0, firer.speed != 0,
                                    isinstance(firer, Pedestrian) and firer.braced)


def _firer(rules: Rules, fire: _Firing, arena: Arena) -> list[Modifier]:
    from .dropped import on_oil

    if isinstance(fire.unit, Pedestrian):
        return tohit.firer_modifiers(rules, skill=fire.unit.handgunner, skill_name="handgunner",
                                     firer_state=fire.unit.state, hand_weapon=True)
    crew = fire.crew
    skill = 0 if crew is None else (crew.handgunner if fire.hand else crew.gunner)
    return tohit.firer_modifiers(rules, computer=fire.unit.computer, skill=skill,
                                 skill_name="handgunner" if fire.hand else "gunner",
                                 firer_state=crew.state if crew is not None else CrewState.OK,
                                 bad_surface=fire.unit.on_bad_surface or on_oil(arena, fire.unit),   # oil: CW-DROP-04
                                 hand_weapon=fire.hand, automatic=fire.automatic)


def _consecutive(history: dict[tuple[str, str], SustainedRecord], attack: Attack, turn: int) -> int:
    """CW-HIT-09: how many consecutive turns (this one included) this weapon has fired at this target."""
    rec = history.get((attack.attacker, attack.weapon))
    if rec is not None and rec.target == attack.target and rec.last_turn == turn - 1:
        return rec.streak + 1
    return 1


def roll_attack(breakdown: ToHit, arena: Arena, rules: Rules, dice: DiceSource) -> AttackRoll:
    """Roll one explained attack: 2d6 to hit (always rolled), then the damage dice on a hit (CW-DMG-01)."""
    def hits(total: int) -> bool:
        return tohit.is_hit(rules, total, breakdown.needed, breakdown.possible)

    roll = tohit.roll_to_hit(dice, f"{breakdown.attack} to hit", read=hits)
    hit = hits(roll.total)
    damage_roll, damage = None, None
    if hit:
        spec = attack_weapon(arena, arena.unit(breakdown.attacker, "attack.attacker"), breakdown.weapon, rules)
        if spec.damage is not None:
            damage_roll = dice.roll(spec.damage, f"{breakdown.attack} damage", "CW-DMG-01")
            damage = damage_roll.total
        else:
            damage = spec.damage_hits or 0
    return AttackRoll(attack=breakdown.attack, target=breakdown.target, aimed_at=breakdown.aimed_at, side=breakdown.side,
                      roll=roll, needed=breakdown.needed, hit=hit, damage_roll=damage_roll, damage=damage)


def attack_weapon(arena: Arena, unit: Vehicle | Pedestrian, weapon: str, rules: Rules) -> WeaponSpec:
    """The weapon-list entry an attack fires: a mounted weapon's, or a hand weapon's by name."""
    if isinstance(unit, Vehicle):
        w = next((w for w in unit.all_weapons() if w.id == weapon), None)
        if w is not None:
            return w.spec
    return weapon_spec(rules, weapon, hand=True)
