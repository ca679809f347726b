"""The combat phase: rate of fire (CW-ROF-01), simultaneous resolution and damage at its end (CW-ROF-02)."""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..data import Rules
from ..dice import DiceSource
from ..errors import RuleViolation, ScenarioError
from ..events import DiceRolled, Event, Note, StateChanged, event_from_dict
from . import geometry as geo
from .attack import Attack, AttackRoll, Scene, SustainedRecord, ToHit, attack_weapon, explain_attack, roll_attack
from .collision import collision_damage, collision_hits
from .crew import damage_pedestrian, driver_consequences
from .damage import Ledger, Shot, apply_shot, hazard_difficulty
from .dropped import intersects
from .enums import CrewState, Side
from .model import Arena, Building, Obstacle, Pedestrian, Vehicle
from .tables import WeaponSpec
from . import tohit

__all__ = ["FiredThisTurn", "Collision", "check_rate_of_fire", "check_line_of_fire", "PhaseResult", "AreaAttackRoll", "resolve_phase",
           "explain_phase", "update_history", "snapshot", "hits_against_vehicle"]


@dataclass
class FiredThisTurn:
    """What has already fired earlier this turn (CW-ROF-01): weapons and characters."""

    weapons: set[tuple[str, str]] = field(default_factory=set)
    characters: dict[tuple[str, str], int] = field(default_factory=dict)


@dataclass(frozen=True)
class Collision:
    """A collision during this phase's movement (CW-COL-01..04): one vehicle, the side hit, the speed.

    `weight_lb` is the weight of what hit it (None: a fixed barrier, full damage).
    """

    id: str
    vehicle: str
    side: Side
    speed: float
    weight_lb: float | None = None
    pedestrian: bool = False


def _character(arena: Arena, attack: Attack) -> tuple[str, str] | None:
    unit = arena.unit(attack.attacker, "attack.attacker")
    if isinstance(unit, Pedestrian):
        return (unit.id, unit.id)
    if attack.firer:
        return (unit.id, attack.firer)
    weapon = next((w for w in unit.all_weapons() if w.id == attack.weapon), None)
    if weapon is not None and weapon.automatic or attack.as_automatic:
        return None  # a weapon on automatic fires by itself (CW-AUTO-01)
    if attack.weapon in unit.links:
        from .special import flatten_link
        weapon = flatten_link(unit, attack.weapon, "attack.weapon")[0]
    from .attack import _default_firer  # the same default the to-hit uses
    crew = _default_firer(unit, weapon) if weapon is not None else None
    return (unit.id, crew.id) if crew is not None else None


def check_rate_of_fire(arena: Arena, attacks: list[Attack], fired: FiredThisTurn | None = None) -> None:
    """CW-ROF-01: a weapon fires at most once a turn; a character fires at most once a turn (a link is one
    action). A weapon on automatic is the one additional weapon its owner gets (CW-AUTO-01): it fires by itself
    and counts against no one, and the owner still fires ONE aimed weapon, never two (SPEC ruling).

    Raises RuleViolation naming the attack; checks everything before any roll.
    """
    fired = fired or FiredThisTurn()
    weapons = set(fired.weapons)
    counts = dict(fired.characters)
    for i, a in enumerate(attacks):
        unit = arena.unit(a.attacker, f"attack[{i}].attacker")
        members = [a.weapon]
        if isinstance(unit, Vehicle) and a.weapon in unit.links:
            from .special import flatten_link
            members = [w.id for w in flatten_link(unit, a.weapon, f"attack[{i}].weapon")]  # a link fires all its weapons
        for wid in members:
            key = (a.attacker, wid)
            mounted = isinstance(unit, Vehicle) and any(w.id == wid for w in unit.all_weapons())
            if mounted and key in weapons:
                raise RuleViolation(f"weapon {wid!r} of {a.attacker!r} already fired this turn",
                                    field=f"attack[{i}].weapon", value=a.weapon, rule="CW-ROF-01")
            if mounted:
                weapons.add(key)
        who = _character(arena, a)
        if who is None:
            continue
        counts[who] = counts.get(who, 0) + 1
        if counts[who] > 1:
            raise RuleViolation(f"{who[1]!r} of {who[0]!r} already fired this turn: a character fires once a turn",
                                field=f"attack[{i}]", value=a.id, rule="CW-ROF-01")


@dataclass(frozen=True)
class AreaAttackRoll(Event):
    """CW-DMG-07: an area-effect attack: one to-hit roll per intended victim, one damage roll."""

    kind: ClassVar[str] = "area_attack_roll"
    attack: str
    rolls: tuple[AttackRoll, ...]
    hits: int
    victims_hit: tuple[str, ...]
    damage_roll: DiceRolled | None
    damage_each: int
    rule: str = "CW-DMG-07"

    def __str__(self) -> str:
        if not self.hits:
            return f"{self.attack}: area attack, no victim hit"
        return (f"{self.attack}: area attack, {self.hits} hit(s): {', '.join(self.victims_hit)} each take {self.damage_each}"
                f" (damage roll {self.damage_roll.total if self.damage_roll else '-'})")


@dataclass(frozen=True)
class PhaseResult(Event):
    """The outcome of one combat phase: breakdowns, rolls, the event log and the state after (LOG-01)."""

    kind: ClassVar[str] = "phase_result"
    turn: int
    phase: int
    breakdowns: tuple[ToHit, ...]
    rolls: tuple[AttackRoll, ...]
    events: tuple[Event, ...]
    seed: int | None = None
    state: dict = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "PhaseResult":
        result = event_from_dict(data)
        assert isinstance(result, PhaseResult)
        return result


def _expand(attacks: list[Attack], arena: Arena | None = None) -> list[Attack]:
    """An area-effect attack is explained once per intended victim (CW-DMG-07); a link, once per
    weapon it aims or fires as if on automatic (CW-LINK-01)."""
    out = []
    for i, a in enumerate(attacks):
        if arena is not None:
            unit = arena.unit(a.attacker, f"attack[{i}].attacker")
            if isinstance(unit, Vehicle) and a.weapon in unit.links:
                from .special import expand_link
                out += expand_link(arena, a, f"attack[{i}]")[0]
                continue
        if a.victims:
            out += [dataclasses.replace(a, id=f"{a.id}@{v}", target=v, victims=(), defender_order=()) for v in a.victims]
        else:
            out.append(a)
    return out


def explain_phase(arena: Arena, attacks: list[Attack], rules: Rules,
                  history: dict[tuple[str, str], SustainedRecord] | None = None, scene: Scene | None = None) -> list[ToHit]:
    """Every declared attack's breakdown, against the same positions (CW-ROF-02). `scene`: the arena's blockers
    (`attack.Scene`), when the caller explains more attacks at these positions; else one is built."""
    scene = Scene(arena) if scene is None else scene
    for i, a in enumerate(attacks):
        if a.victims:
            _check_area_attack(arena, a, rules, f"attack[{i}]")
    out: list[ToHit] = []
    first_of_link: dict[tuple[str, str], ToHit] = {}
    for i, a in enumerate(_expand(attacks, arena)):
        b = explain_attack(arena, a, rules, history, where=f"attack[{i}]", scene=scene)
        check_line_of_fire(b, f"attack[{i}]")
        if a.link is not None and not a.as_automatic:
            # CW-LINK-01: every modifier that affects one linked weapon affects them all
            first = first_of_link.setdefault((a.attacker, a.link), b)
            if first is not b:
                b = dataclasses.replace(first, attack=b.attack, weapon=b.weapon, consecutive=b.consecutive)
        out.append(b)
    return out


def check_line_of_fire(breakdown: ToHit, where: str) -> None:
    """CW-LOF-01 (SPEC ruling): an attack begins by checking the line of fire. Without one
    there is no shot: nothing is rolled, no ammunition is spent and no sustained-fire streak starts. A declared
    attack without one is an error (raised before any die); a planned one whose line is gone when its phase comes
    is cancelled, and automatic fire skips the turn (turn.run_turns). A shot that needs 13 or more is still fired."""
    if not breakdown.lof:
        raise RuleViolation(f"{breakdown.attack}: no line of fire from the weapon to {breakdown.target!r}: no shot",
                            field=f"{where}.target", value=breakdown.target, rule="CW-LOF-01")


def _check_area_attack(arena: Arena, a: Attack, rules: Rules, where: str) -> None:
    """CW-DMG-07: an area-effect weapon against pedestrians within 1" of one another."""
    unit = arena.unit(a.attacker, f"{where}.attacker")
    spec = attack_weapon(arena, unit, a.weapon, rules)
    if not spec.area_effect:
        raise RuleViolation(f"{spec.name} has no area effect", field=f"{where}.victims", value=list(a.victims), rule="CW-DMG-07")
    peds = []
    for v in a.victims:
        if v not in arena.pedestrians:
            raise RuleViolation("area effect is against pedestrians only", field=f"{where}.victims", value=v, rule="CW-DMG-07")
        peds.append(arena.pedestrians[v])
    for p in peds:
        for q in peds:
            if geo.distance((p.x, p.y), (q.x, q.y)) > 1.0 + 1e-9:
                raise RuleViolation(f"{p.id!r} and {q.id!r} are more than 1\" apart", field=f"{where}.victims", value=list(a.victims), rule="CW-DMG-07")
    for v in a.defender_order:
        if v not in a.victims:
            raise ScenarioError("not one of the victims", field=f"{where}.defender_order", value=v, rule="CW-DMG-07")


def hits_against_vehicle(spec: WeaponSpec, breakdown: ToHit, damage: int, ledger: Ledger) -> int:
    """CW-HAND-01 / CW-DMG-06: what a hand weapon does to a vehicle: full to tires; otherwise the listed
    effect (full or half, rounded up), else only at point blank. Grenades: half to vehicle components."""
    if not spec.hand:
        return damage
    if breakdown.aimed_at.startswith("tire") or spec.vs_vehicles == "full":
        return damage
    if spec.vs_vehicles == "half":
        ledger.note(f"{spec.name}: half damage against a vehicle, rounded up", "CW-HAND-01")
        return math.ceil(damage / 2)
    if breakdown.range is not None and breakdown.range < 1.0:
        ledger.note(f"{spec.name}: full effect at point blank", "CW-HAND-01")
        return damage
    ledger.note(f"{spec.name} does not harm vehicle components beyond point blank", "CW-HAND-01")
    return 0


def snapshot(arena: Arena) -> dict:
    """The damage state of every vehicle and pedestrian, as plain data."""
    out: dict[str, Any] = {"vehicles": {}, "pedestrians": {}}
    for v in arena.vehicles.values():
        d: dict[str, Any] = {
            "armour": {str(s): v.armour[s] for s in Side},
            "power_plant": v.power_plant,
            "weapons": {w.id: w.dp for w in v.weapons},
            "crew": {c.id: {"hits": c.hits, "body_armour": c.body_armour, "state": str(c.state)} for c in v.crew},
            "cargo": {c.id: c.dp for c in v.cargo},
            "tires": {t.id: t.dp for t in v.tires},
            "uncontrolled": v.uncontrolled,
        }
        if v.sidecar:
            sc = v.sidecar
            d["sidecar"] = {"armour": {str(s): a for s, a in sc.armour.items()}, "tire": sc.tire.dp,
                            "weapons": {w.id: w.dp for w in sc.weapons},
                            "crew": {c.id: {"hits": c.hits, "body_armour": c.body_armour, "state": str(c.state)} for c in sc.crew},
                            "cargo": {c.id: c.dp for c in sc.cargo}}
        out["vehicles"][v.id] = d
    for p in arena.pedestrians.values():
        out["pedestrians"][p.id] = {"hits": p.hits, "body_armour": p.body_armour, "state": str(p.state)}
    if arena.obstacles:
        out["obstacles"] = [{"id": o.id, "x": o.x, "y": o.y, "turn": o.turn} for o in arena.obstacles]
    return out


def shot_for(breakdown: ToHit, hits: int) -> Shot:
    """The shot `hits` hits of a to-hit breakdown make: the part it aims at (a tire, the turret, a rider, the sidecar,
    the top, else a side) and the side it strikes."""
    aimed = breakdown.aimed_at
    if aimed.startswith("tire "):
        return Shot(hits, Side.parse(breakdown.side) if breakdown.side else None, "tire", aimed[5:], breakdown.attack)
    if aimed in ("turret", "rider", "sidecar"):
        return Shot(hits, Side.parse(breakdown.side) if breakdown.side else None, aimed, attack=breakdown.attack)
    if aimed == "top":
        return Shot(hits, Side.TOP, "top", attack=breakdown.attack)
    return Shot(hits, Side.parse(breakdown.side) if breakdown.side else Side.FRONT, "side", attack=breakdown.attack,
                sidecar_side=breakdown.sidecar_side)


def _apply_collisions(rules: Rules, arena: Arena, collisions: list[Collision], dice: DiceSource,
                      taken: dict[str, int], events: list[Event], hazard: dict[str, int]) -> None:
    for c in collisions:
        if c.vehicle in arena.pedestrians:      # a pedestrian a vehicle ran into (FIGHT-04)
            from .crew import damage_pedestrian

            ped = arena.pedestrians[c.vehicle]
            ledger = Ledger(ped.id)
            ledger.note(f"{c.id}: {ped.id} is struck at {abs(c.speed):g} mph", "CW-COL-04")
            damage_pedestrian(ped, collision_hits(rules, dice, c.speed, ledger, c.weight_lb, c.pedestrian), ledger)
            events += ledger.events
            continue
        v = arena.vehicles[c.vehicle]
        ledger = Ledger(v.id)
        ledger.note(f"{c.id}: {v.id} collides on its {c.side} at {abs(c.speed):g} mph", "CW-COL-04")
        hits = collision_hits(rules, dice, c.speed, ledger, c.weight_lb, c.pedestrian)
        collision_damage(rules, v, c.side, hits, dice, ledger)
        taken[v.id] = taken.get(v.id, 0) + ledger.dealt
        hazard[v.id] = hazard.get(v.id, 0) + ledger.hazard_hits
        events += ledger.events


def resolve_phase(arena: Arena, attacks: list[Attack], rules: Rules, dice: DiceSource,
                  history: dict[tuple[str, str], SustainedRecord] | None = None,
                  fired: FiredThisTurn | None = None, seed: int | None = None,
                  collisions: list[Collision] | None = None, firers: dict | None = None) -> PhaseResult:
    """One phase, after its movement (CW-ROF-02).

    `firers`, when given, receives each declared attack's character (`_character`) as the combat starts, after
    the movement's collisions and before any damage of the phase: who fires it (CW-ROF-01).

    Collisions from the movement are applied first. Then every declared attack
    is checked (rate of fire), explained against the same positions and state,
    and rolled in declaration order. All the damage of the phase's attacks is
    applied together at its end, in declaration order (a gunner killed this
    phase still fires this phase; one killed in a collision of this phase's
    movement does not); then each vehicle's hazard, obstacles and
    crew consequences. `arena` is changed in place: callers that need the
    state before pass a copy (`CarWarsScenario.resolve` does). An illegal
    declaration raises before any die is rolled or any state changes.
    """
    check_rate_of_fire(arena, attacks, fired)
    breakdowns = explain_phase(arena, attacks, rules, history)
    by_id = {b.attack: b for b in breakdowns}
    events: list[Event] = [Note(f"turn {arena.turn}, phase {arena.phase}: {len(attacks)} attack(s) declared", "CW-ROF-02")]
    taken: dict[str, int] = {}      # hits each vehicle took this phase (CW-DMG-08)
    hazard: dict[str, int] = {}     # of those, the hits that make its hazard (CW-DMG-01; not body armour's, CW-CREW-01)
    drivers_before = {v.id: v.driver.state for v in arena.vehicles.values() if v.driver is not None}
    metal_before = {v.id: dict(v.armour) for v in arena.vehicles.values() if v.metal_armour}
    _apply_collisions(rules, arena, collisions or [], dice, taken, events, hazard)
    if firers is not None:
        firers.update({a.id: _character(arena, a) for a in attacks})
    if collisions:
        attacks, breakdowns, by_id = _after_collisions(arena, attacks, rules, history, events)

    rolls: list[AttackRoll] = []
    pending: list[tuple[str, Any]] = []       # (kind, payload) of hits to apply at the end of the phase
    for i, a in enumerate(attacks):
        unit = arena.unit(a.attacker, "attack.attacker")
        if isinstance(unit, Vehicle) and a.weapon in unit.links:
            from .special import expand_link
            subs, drops = expand_link(arena, a, f"attack[{i}]")
            events.append(Note(f"{a.id}: link {a.weapon} fires {', '.join([x.weapon for x in subs] + [w.id for w in drops])}", "CW-LINK-01"))
            for w in drops:
                events += _drop(rules, arena, unit, w, dice)
            for sub in subs:
                _fire_one(rules, arena, sub, by_id[sub.id], dice, events, rolls, pending)
            continue
        if a.victims:
            area = _roll_area(arena, a, rules, dice, by_id, events)
            rolls += list(area.rolls)
            pending += [("pedestrian", (v, area.damage_each, a.id)) for v in area.victims_hit]
            continue
        _fire_one(rules, arena, a, by_id[a.id], dice, events, rolls, pending)

    events.append(Note(f"end of phase {arena.phase}: damage of all attacks applied together", "CW-ROF-02"))
    for kind, payload in pending:
        if kind == "pedestrian":
            pid, dmg, aid = payload
            ledger = Ledger(pid, dealt=dmg)
            ledger.note(f"{aid}: {dmg} hit(s) on {pid}", "CW-DMG-07")
            damage_pedestrian(arena.pedestrians[pid], dmg, ledger)
            events += ledger.events
            continue
        b, r = payload
        _apply_hit(rules, arena, b, r, dice, taken, events, hazard)

    for v in arena.vehicles.values():
        events += _vehicle_consequences(rules, arena, v, taken.get(v.id, 0), hazard.get(v.id, 0), drivers_before.get(v.id),
                                        metal_before.get(v.id), dice)
    return PhaseResult(turn=arena.turn, phase=arena.phase, breakdowns=tuple(breakdowns), rolls=tuple(rolls),
                       events=tuple(events), seed=seed, state=snapshot(arena))


def _use_ammo(arena: Arena, a: Attack, rules: Rules) -> list[Event]:
    """One firing of the attack's weapon: a mounted weapon with shots spends one (CW-VEH-03); a thrown grenade
    leaves its thrower's hands (CW-HAND-01: each grenade carried is one entry of his hand weapons; the last entry
    of that name goes, so the order his weapons are tried in stays the same)."""
    unit = arena.unit(a.attacker, "attack.attacker")
    if isinstance(unit, Vehicle):
        w = next((w for w in unit.all_weapons() if w.id == a.weapon), None)
        if w is not None:
            if w.spec.shots > 0:
                w.ammo -= 1
                return [StateChanged(f"{unit.id} {w.id}", "ammo", w.ammo + 1, w.ammo, "CW-VEH-03")]
            return []
        crew = unit.crew_member(a.firer or "", "attack.firer")
        carried, who = list(crew.hand_weapons), f"{unit.id} {crew.id}"
    else:
        crew, carried, who = None, list(unit.weapons), unit.id
    if a.weapon not in carried or not attack_weapon(arena, unit, a.weapon, rules).thrown:
        return []
    before = carried.count(a.weapon)
    del carried[len(carried) - 1 - carried[::-1].index(a.weapon)]
    if crew is not None:
        crew.hand_weapons = tuple(carried)
    else:
        unit.weapons = tuple(carried)
    return [StateChanged(who, f"{a.weapon} carried", before, before - 1, "CW-HAND-01")]


def _fire_one(rules: Rules, arena: Arena, a: Attack, b: ToHit, dice: DiceSource, events: list[Event],
              rolls: list[AttackRoll], pending: list) -> None:
    events.append(b)
    r = roll_attack(b, arena, rules, dice)
    events.append(r.roll)
    if r.damage_roll is not None:
        events.append(r.damage_roll)
    events.append(r)
    events += _use_ammo(arena, a, rules)
    rolls.append(r)
    if r.hit and r.damage:
        pending.append(("hit", (b, r)))


def _drop(rules: Rules, arena: Arena, vehicle: Vehicle, weapon, dice: DiceSource) -> list[Event]:
    from .dropped import drop_weapon

    events, counter = drop_weapon(rules, arena, vehicle, weapon, f"c{len(arena.counters) + len(arena.clouds) + 1}.t{arena.turn}", dice)
    if counter is not None:
        arena.counters.append(counter)
    return events


def _after_collisions(arena: Arena, attacks: list[Attack], rules: Rules, history, events: list[Event]):
    """CW-ROF-02: combat is resolved against the damage state at its start, which includes the collisions of the
    phase's movement: each attack is explained again; one the collision has made impossible (its weapon destroyed,
    its firer out) is cancelled with the rule, and a firer it wounded fires at his wounded skill."""
    from ..errors import HardpointError

    kept: list[Attack] = []
    breakdowns: list[ToHit] = []
    scene = Scene(arena)
    for a in attacks:
        try:
            breakdowns += explain_phase(arena, [a], rules, history, scene)
        except HardpointError as exc:
            events.append(Note(f"{a.id} cancelled: {getattr(exc, 'message', exc)}", exc.rule))
            continue
        kept.append(a)
    return kept, breakdowns, {b.attack: b for b in breakdowns}


def _roll_area(arena: Arena, a: Attack, rules: Rules, dice: DiceSource, by_id: dict[str, ToHit], events: list[Event]) -> AreaAttackRoll:
    """CW-DMG-07: one to-hit roll per intended victim; the defender picks which are hit; half damage each, rounded up."""
    rolls = []
    for v in a.victims:
        b = by_id[f"{a.id}@{v}"]
        events.append(b)
        roll = tohit.roll_to_hit(dice, f"{b.attack} to hit")
        hit = tohit.is_hit(rules, roll.total, b.needed, b.possible)
        events.append(roll)
        r = AttackRoll(attack=b.attack, target=v, aimed_at="pedestrian", side=None, roll=roll, needed=b.needed, hit=hit)
        events.append(r)
        rolls.append(r)
    events += _use_ammo(arena, a, rules)      # one firing of the weapon, whatever the number of victims
    hits = sum(1 for r in rolls if r.hit)
    order = list(a.defender_order) + [v for v in a.victims if v not in a.defender_order]
    victims_hit = tuple(order[:hits])
    damage_roll, each = None, 0
    if hits:
        spec = attack_weapon(arena, arena.unit(a.attacker, "attack.attacker"), a.weapon, rules)
        damage_roll = dice.roll(spec.damage, f"{a.id} damage", "CW-DMG-01") if spec.damage else None
        total = damage_roll.total if damage_roll else (spec.damage_hits or 0)
        share = rules["carwars.damage"]["area"]["share_divisor"]
        each = total if spec.flamethrower else -(-total // share)     # rounded up
        if damage_roll:
            events.append(damage_roll)
    area = AreaAttackRoll(attack=a.id, rolls=tuple(rolls), hits=hits, victims_hit=victims_hit, damage_roll=damage_roll, damage_each=each)
    events.append(area)
    return area


def _apply_hit(rules: Rules, arena: Arena, b: ToHit, r: AttackRoll, dice: DiceSource, taken: dict[str, int],
               events: list[Event], hazard: dict[str, int]) -> None:
    unit = arena.unit(b.attacker, "attack.attacker")
    spec = attack_weapon(arena, unit, b.weapon, rules)
    target = arena.buildings.get(b.target) or arena.unit(b.target, "attack.target")
    damage = r.damage or 0
    if isinstance(target, Building):
        events.append(Note(f"{b.attack}: {damage} hit(s) on building {target.id} (building damage is not modelled)", "CW-DMG-01"))
    elif isinstance(target, Pedestrian):
        ledger = Ledger(target.id, dealt=damage)
        ledger.note(f"{b.attack}: {damage} hit(s) on {target.id}", "CW-DMG-01")
        damage_pedestrian(target, damage, ledger)
        events += ledger.events
    else:
        note = Ledger(target.id)
        hits = hits_against_vehicle(spec, b, damage, note)
        events += note.events
        ledger = apply_shot(rules, target, shot_for(b, hits), dice)
        taken[target.id] = taken.get(target.id, 0) + ledger.dealt
        hazard[target.id] = hazard.get(target.id, 0) + ledger.hazard_hits
        events += ledger.events
        events += _record_fire(arena, target, spec, ledger)
    if spec.burst_radius > 0 and b.aim_point is not None:
        events += _burst(rules, arena, spec, b, dice)


def _record_fire(arena: Arena, target: Vehicle, spec: WeaponSpec, ledger: Ledger) -> list[Event]:
    """CW-FIRE-01/02: remember what this hit may do at the end of the turn's fire roll."""
    from .fire import FireState, record_component_hit, record_fire_hit

    state = arena.fires.setdefault(target.id, FireState())
    out = []
    e = record_fire_hit(state, spec, arena.turn)
    if e is not None:
        out.append(e)
    fiery_parts = {"power plant"} | {f"weapon {w.id}" for w in target.all_weapons()
                                      if w.spec.burns_when_hit}
    for d in ledger.events:
        if d.kind == "damage" and d.component in fiery_parts:
            e = record_component_hit(state, d.component, spec)
            if e is not None:
                out.append(e)
    return out


def burst_reach(arena: Arena, centre: tuple[float, float], radius: float, target: str):
    """CW-DMG-06: the pedestrians within `radius` of the point hit, but the target, each as (index among the
    arena's pedestrians, pedestrian, sheltered): sheltered by a standing wall or vehicle when no line from the burst
    reaches any part of him (the vehicle hit included: a pedestrian on its far side is sheltered by it)."""
    blockers = [x.polygon for x in arena.buildings.values()] + [v.counter.polygon() for v in arena.vehicles.values()]
    for i, p in enumerate(arena.pedestrians.values()):
        if p.id == target:
            continue
        poly = p.counter.polygon()
        if geo.distance(geo.nearest_point(poly, centre), centre) > radius + 1e-9:
            continue
        yield i, p, not geo.line_of_fire(centre, poly, blockers).clear


def burst_dice(rules: Rules, spec: WeaponSpec):
    """CW-DMG-06: what a burst rolls on each pedestrian it reaches: the table's figure (carwars.damage.burst), or a
    grenade's (a hand weapon's) own damage."""
    from ..dice import parse_dice

    return spec.damage if spec.hand and spec.damage is not None else parse_dice(rules["carwars.damage"]["burst"]["damage"])


def _burst(rules: Rules, arena: Arena, spec: WeaponSpec, b: ToHit, dice: DiceSource) -> list[Event]:
    """CW-DMG-06: burst effect: `burst_dice` on each pedestrian `burst_reach` finds not sheltered."""
    out: list[Event] = []
    centre = b.aim_point
    assert centre is not None
    expr = burst_dice(rules, spec)
    for _, p, sheltered in burst_reach(arena, centre, spec.burst_radius, b.target):
        if sheltered:
            out.append(Note(f"{p.id} is behind cover: no burst damage", "CW-DMG-06"))
            continue
        ledger = Ledger(p.id)
        r = dice.roll(expr, f"burst on {p.id}", "CW-DMG-06")
        ledger.events.append(r)
        ledger.dealt = r.total
        damage_pedestrian(p, r.total, ledger)
        out += ledger.events
    return out


def _vehicle_consequences(rules: Rules, arena: Arena, v: Vehicle, hits: int, hazard_hits: int, driver_before: CrewState | None,
                          metal_before: dict | None, dice: DiceSource) -> list[Event]:
    """CW-DMG-01 hazard (of the hits not taken by body armour, CW-CREW-01), CW-DMG-08 obstacle, CW-CREW-02/03
    driver consequences for one vehicle."""
    from .dropped import oil_extra_difficulty

    out: list[Event] = []
    oil = oil_extra_difficulty(rules, arena, v)
    d = hazard_difficulty(rules, hazard_hits)
    if d:
        out.append(Note(f"{v.id} took {hazard_hits} hit(s) this phase: a D{d} hazard", "CW-DMG-01"))
        if oil:
            out.append(Note(f"{v.id} is on an oil slick: that hazard is D{d + oil}", "CW-DROP-04"))
        v.phase_hazards.append((d + oil, f"{hazard_hits} hit(s)"))
    elif hits:
        out.append(Note(f"{v.id}: the {hits} hit(s) it took this phase all struck body armour: no hazard", "CW-CREW-01"))
    metal_lost = metal_before is not None and any(v.armour[s] < metal_before[s] for s in Side)
    if v.kind == "car" and (hits >= rules["carwars.damage"]["obstacle"]["hits_in_phase"] or metal_lost):
        ob = drop_obstacle(rules, arena, v)
        why = "lost metal armour" if metal_lost else f"took {hits} hits"
        out.append(StateChanged("arena", "obstacles", len(arena.obstacles) - 1, len(arena.obstacles), "CW-DMG-08"))
        out.append(Note(f"{v.id} {why}: an obstacle, {ob.id}, drops at ({v.x:g}, {v.y:g})", "CW-DMG-08"))
    if driver_before is not None:
        out += driver_consequences(rules, v, driver_before, dice, oil, arena)
    return out


def drop_obstacle(rules: Rules, arena: Arena, v: Vehicle) -> Obstacle:
    """CW-DMG-08 / CW-SEED-04: an obstacle dropped where the vehicle stands (its centre), "obstacle<n>" (the first n
    no id on the map has); the vehicles on it then meet it only once they have left it (`terrain.obstacle_hazards`)."""
    taken = {o.id for o in arena.obstacles} | set(arena.vehicles) | set(arena.pedestrians) | set(arena.buildings) \
        | set(arena.clouds) | set(arena.areas) | {c.id for c in arena.counters}
    n = len(arena.obstacles) + 1
    while f"obstacle{n}" in taken:
        n += 1
    ob = Obstacle(f"obstacle{n}", v.x, v.y, arena.turn, v.id, rules["carwars.damage"]["obstacle"]["size_in"])
    ob.still_on = {u.id for u in arena.vehicles.values() if intersects(u.counter.polygon(), ob.polygon)}
    arena.obstacles.append(ob)
    return ob


def update_history(history: dict[tuple[str, str], SustainedRecord], breakdowns: list[ToHit] | tuple[ToHit, ...],
                   turn: int) -> tuple[dict[tuple[str, str], SustainedRecord], list[StateChanged]]:
    """CW-HIT-09: record each shot for sustained fire (a shot on automatic breaks the streak)."""
    new = dict(history)
    changes = []
    for b in breakdowns:
        key = (b.attacker, b.weapon)
        streak = 0 if b.automatic else b.consecutive
        before = new.get(key)
        new[key] = SustainedRecord(b.target, streak, turn)
        changes.append(StateChanged(f"{b.attacker}.{b.weapon}", "sustained fire", before.streak if before else 0, streak, "CW-HIT-09"))
    return new, changes
