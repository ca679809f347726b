"""The Car Wars turn: five phases of movement and combat, then the end of the turn in a fixed order.

Order of a phase: declared actions (maneuvers, automatic on/off, drops,
detonations), movement in straight lines (the movement chart), dropped weapons
on automatic, counters and clouds touched, automatic fire at the end of the
turn's movement (phase 5), then combat with all damage at the phase's end
(CW-ROF-02). Before the first phase: off-road damage. Order of the end of the
turn (docs/rulings.md): fire (new fire, extinguisher, fire damage, explosion),
clouds and flaming oil expiring, paint on windows wearing off, skids and
fishtails ending, uncontrolled vehicles slowing.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from ..data import Rules
from ..dice import DiceSource
from ..errors import RuleViolation, ScenarioError
from ..events import Event, Note, StateChanged, event_from_dict
from . import geometry as geo
from .attack import Attack, AttackRoll, Scene, SustainedRecord
from .dropped import (OIL_KINDS, DroppedCounter, again_every, contact, counter_id, damages_again, drop_weapon, expire_counters,
                      gas_damage, intersects, liquid_damage, mines_effect, oil_effect, oil_maneuver, paint_contact, spikes_effect,
                      swept_polygon)
from .enums import Mount
from .fire import FireState, end_of_turn_fire, record_fire_hit
from .fight import FightRecord
from .model import Arena, Vehicle, slowed
from .phase import Collision, FiredThisTurn, PhaseResult, _character, resolve_phase, snapshot, update_history
from .special import attack_columns, automatic_attacks, flatten_link, set_automatic
from .tables import check_usable, weapon_spec
from .terrain import ditch_hazards, gully_hazards, obstacle_hazards, on_ditches, on_obstacles

if TYPE_CHECKING:
    from .fight import Fight

__all__ = ["Action", "phase_distances", "move_vehicle", "TurnPlan", "BattleResult", "run_turns"]


@dataclass(frozen=True)
class Action:
    """Something declared for a phase besides an attack.

    kinds: maneuver (difficulty), automatic_on / automatic_off (weapon), drop (weapon, placement for a
    turret), detonate (counter), substitute (crew), steer (crew), fetch_grenade (crew).
    """

    turn: int
    phase: int
    kind: str
    vehicle: str
    weapon: str | None = None
    difficulty: int = 0
    placement: str | None = None
    counter: str | None = None
    crew: str | None = None


KINDS = ("maneuver", "automatic_on", "automatic_off", "drop", "detonate", "substitute", "steer", "fetch_grenade")


def phase_distances(rules: Rules, speed: float) -> list[float]:
    """Inches moved in each phase at a speed (movement chart; speed/10 inches a turn, whole inches spread
    over the phases in the data's order, a half inch in the first phase without a whole inch)."""
    t = rules["carwars.turn"]
    s = abs(speed)
    if str(int(s)) in t["chart"] and s == int(s):
        return [float(x) for x in t["chart"][str(int(s))]]
    whole = int(s // 10)
    half = (s % 10) >= 5
    out = [float(whole // 5)] * 5
    for p in t["spread_order"][: whole % 5]:
        out[p - 1] += 1.0
    if half:
        for p in t["spread_order"]:
            if out[p - 1] == whole // 5:
                out[p - 1] += 0.5
                break
    return out


def move_vehicle(vehicle: Vehicle, distance: float) -> None:
    """Straight-line movement along the facing (backwards for a negative speed)."""
    if distance == 0:
        return
    sign = -1.0 if vehicle.speed < 0 else 1.0
    s, c = geo.sincos_deg(vehicle.facing)       # exact at multiples of 90: a car facing 180 drifts nowhere
    vehicle.x += sign * distance * s
    vehicle.y += sign * distance * c


@dataclass
class TurnPlan:
    """Everything declared for the turns to run, by (turn, phase)."""

    attacks: dict[tuple[int, int], list[Attack]] = field(default_factory=dict)
    actions: dict[tuple[int, int], list[Action]] = field(default_factory=dict)
    collisions: dict[tuple[int, int], list[Collision]] = field(default_factory=dict)


@dataclass(frozen=True)
class BattleResult(Event):
    """Several turns resolved: every phase's result in order, the end-of-turn events, the final state."""

    kind: ClassVar[str] = "battle_result"
    first_turn: int
    turns: int
    phases: tuple[PhaseResult, ...]
    events: tuple[Event, ...]
    seed: int | None = None
    state: dict = field(default_factory=dict)
    fight: dict | None = None              # FIGHT-05: who went out when, how it ended, what each weapon did

    @property
    def rolls(self) -> tuple[AttackRoll, ...]:
        return tuple(r for p in self.phases for r in p.rolls)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "BattleResult":
        result = event_from_dict(data)
        assert isinstance(result, BattleResult)
        return result


def _counter_spec(rules: Rules, counter: DroppedCounter):
    return weapon_spec(rules, counter.weapon)


def do_action(rules: Rules, arena: Arena, a: Action, dice: DiceSource, fired: FiredThisTurn, where: str) -> list[Event]:
    """Carry out one declared action. Everything that can refuse it is checked before anything changes, so a
    refused action changes nothing (ERR-01); what the loader checked (`validate.check_plan`) cannot fail here,
    what the dice decided by this phase can (a weapon destroyed, a counter set off, a driver out)."""
    v = arena.vehicles.get(a.vehicle)
    if v is None:
        raise ScenarioError("no vehicle with this id", field=f"{where}.vehicle", value=a.vehicle, rule="CLI-02")
    if a.kind == "maneuver":
        v.hazard_difficulty += a.difficulty
        v.maneuvered = True
        extra = 0
        if v.off_road:
            extra += 1  # CW-OFF-01: maneuvers off-road +D1
        if v.substitute is not None:
            extra += rules["carwars.damage"]["crew"]["substitute_maneuver_penalty"]  # CW-CREW-04
        v.hazard_difficulty += extra
        return [Note(f"{v.id} maneuvers: D{a.difficulty}{f' +D{extra}' if extra else ''}", "CW-HIT-10")]
    if a.kind in ("automatic_on", "automatic_off"):
        w = v.weapon(a.weapon or "", f"{where}.weapon")
        if a.kind == "automatic_on":
            check_usable(w.spec, f"{where}.weapon", w.id)
            if w.mount is Mount.TURRET:
                raise RuleViolation(f"weapon {w.id!r} is turret-mounted: turret weapons cannot go on automatic",
                                    field=f"{where}.weapon", value=w.id, rule="CW-AUTO-01")
        _check_firing_action(v, fired, where)
        out = set_automatic(v, w, a.kind == "automatic_on")
        _count_firing_action(arena, v, fired, where)
        return out
    if a.kind == "drop":
        from .validate import check_drop

        linked = a.weapon in v.links
        members = flatten_link(v, a.weapon, f"{where}.weapon") if linked else [v.weapon(a.weapon or "", f"{where}.weapon")]
        for w in members:
            if (v.id, w.id) in fired.weapons:
                raise RuleViolation(f"weapon {w.id!r} already fired this turn", field=f"{where}.weapon", value=w.id, rule="CW-ROF-01")
            if not w.spec.dropped:
                if linked:   # CW-LINK-01: a link of dropped, smoke and paint weapons fires them all, as one firing action
                    raise RuleViolation(f"{w.spec.name} in link {a.weapon!r} needs a target: fire the link as an attack",
                                        field=f"{where}.weapon", value=a.weapon, rule="CW-LINK-01")
                raise RuleViolation(f"{w.spec.name} is not a dropped weapon", field=f"{where}.weapon", value=w.id, rule="CW-DROP-01")
            check_drop(w, a.placement, f"{where}.weapon")
        _check_firing_action(v, fired, where)
        _count_firing_action(arena, v, fired, where)
        out: list[Event] = [Note(f"{v.id} triggers link {a.weapon}", "CW-LINK-01")] if linked else []
        as_mount = Mount.parse(a.placement) if a.placement else None
        for w in members:
            fired.weapons.add((v.id, w.id))
            events, counter = drop_weapon(rules, arena, v, w, counter_id(arena, v, w), dice, as_mount)
            out += events
            if counter is not None:
                arena.counters.append(counter)
        return out
    if a.kind == "detonate":
        counter = next((c for c in arena.counters if c.id == a.counter), None)
        if counter is None or counter.kind != "mines":
            raise RuleViolation("no mines counter with this id", field=f"{where}.counter", value=a.counter, rule="CW-DROP-03")
        _check_firing_action(v, fired, where)
        _count_firing_action(arena, v, fired, where)
        arena.counters.remove(counter)
        return [Note(f"{v.id} sets off {counter.id} by remote control", "CW-DROP-03")]
    if a.kind == "substitute":
        from .crew import substitute_driver

        return substitute_driver(rules, v, a.crew or "", arena.turn)
    if a.kind == "steer":
        if v.substitute != a.crew:
            raise RuleViolation("only the substitute driver steers", field=f"{where}.crew", value=a.crew, rule="CW-CREW-04")
        _check_can_act(v.crew_member(a.crew or "", f"{where}.crew"), where)
        v.steered_turn = arena.turn
        return [Note(f"{a.crew} steers {v.id} this turn", "CW-CREW-04")]
    if a.kind == "fetch_grenade":
        from .special import check_hand_load, fetched_grenade, grenade_box_with_one_left

        crew = v.crew_member(a.crew or "", f"{where}.crew")
        _check_can_act(crew, where)
        box = grenade_box_with_one_left(rules, v)
        if box is None:
            raise RuleViolation("no box of grenades in the cargo that is whole and not empty", field=f"{where}.kind",
                                value=a.kind, rule="CW-HAND-01")
        grenade = fetched_grenade(rules)
        check_hand_load(rules, crew, crew.hand_weapons + (grenade,), f"{where}.crew")
        fired.characters[(v.id, crew.id)] = fired.characters.get((v.id, crew.id), 0) + 1
        crew.hand_weapons = crew.hand_weapons + (grenade,)
        box.grenades_taken += 1
        return [Note(f"{crew.id} spends the turn getting a grenade out of the cargo box", "CW-HAND-01")]
    raise ScenarioError(f"unknown action (known: {', '.join(KINDS)})", field=f"{where}.kind", value=a.kind, rule="CLI-02")


def _check_can_act(crew, where: str) -> None:
    """CW-CREW-01: an unconscious or dead character does nothing (his action is cancelled, naming the rule)."""
    if not crew.can_act:
        raise RuleViolation(f"crew member {crew.id!r} is {crew.state} and cannot act", field=f"{where}.crew",
                            value=crew.id, rule="CW-CREW-01")


def _count_firing_action(arena: Arena, v: Vehicle, fired: FiredThisTurn, where: str) -> None:
    """CW-AUTO-01 / CW-ROF-01: switching automatic, dropping or detonating is the driver's firing action for the
    turn (a weapon on automatic gives him no second one: it is itself the additional weapon)."""
    who = v.driver
    if who is None:
        return
    key = (v.id, who.id)
    fired.characters[key] = fired.characters.get(key, 0) + 1
    if fired.characters[key] > 1:
        raise RuleViolation(f"{who.id!r} of {v.id!r} already fired this turn", field=where, value=who.id, rule="CW-ROF-01")


def _check_firing_action(v: Vehicle, fired: FiredThisTurn, where: str) -> None:
    """CW-ROF-01: the driver has not made his firing action this turn (asked before anything is done)."""
    who = v.driver
    if who is not None and fired.characters.get((v.id, who.id), 0) >= 1:
        raise RuleViolation(f"{who.id!r} of {v.id!r} already fired this turn", field=where, value=who.id, rule="CW-ROF-01")


def _contacts(rules: Rules, arena: Arena, before: dict[str, geo.Counter], touching: dict, dice: DiceSource) -> list[Event]:
    """CW-DROP-02..05: each vehicle checks each counter once, the phase it first touches it (again if it comes back);
    a slick only when it runs onto the counter itself. `touching` holds, per (vehicle, counter) in contact last
    phase, the phases in a row it has been: a damaging liquid damages again every five of them (CW-SEED-01)."""
    out: list[Event] = []
    now: dict = {}
    for v in arena.vehicles.values():
        area = swept_polygon(before[v.id], v.counter)
        for counter in list(arena.counters):
            if counter.inert and counter.kind != "oil":
                continue
            where = contact(rules, area, counter)
            if v.id in counter.still_on:
                if where is None:
                    counter.still_on.discard(v.id)   # it has left the counter it laid: from now on it checks it
                continue
            if where is None or (counter.kind in OIL_KINDS and where != "on"):
                continue             # a slick ends at its counter's edge: its adjacent squares do nothing
            if counter.kind in OIL_KINDS and not counter.inert:
                v.on_oil = True      # CW-DROP-04: every phase it crosses the slick, not only the first
            key = (v.id, counter.id)
            now[key] = touching.get(key, 0) + 1
            if key in touching:
                if damages_again(rules, counter, now[key]):
                    out.append(Note(f"{v.id} still on {counter.id}, {now[key] - 1} phases on: its damage again", "CW-SEED-01"))
                    out += liquid_damage(rules, v, counter, _counter_spec(rules, counter), dice)
                    out += _flaming_oil_fire(rules, arena, v)
                continue
            spec = _counter_spec(rules, counter)
            if counter.kind == "spikes":
                out += spikes_effect(rules, v, counter, where, spec, dice, before[v.id])
            elif counter.kind == "mines":
                events, gone = mines_effect(rules, arena, v, counter, where, spec, dice, before[v.id])
                out += events
                if gone:
                    arena.counters.remove(counter)
            elif counter.kind in OIL_KINDS:
                out += oil_effect(rules, v, counter, spec, dice)
                if counter.kind == "flaming_oil" and not counter.inert:
                    out += _flaming_oil_fire(rules, arena, v)
            else:
                out.append(Note(f"{v.id} crosses {counter.id} ({counter.kind}): its effect is not modelled", "CW-DROP-01"))
        for cloud in arena.clouds.values():
            if cloud.kind == "paint" and intersects(area, cloud.polygon):
                out += paint_contact(rules, v, cloud, arena.turn)
            elif cloud.damaging and v.id in cloud.still_on:
                if not intersects(area, cloud.polygon):
                    cloud.still_on.discard(v.id)     # its layer has left it: from now on it meets it
            elif cloud.damaging and intersects(area, cloud.polygon):
                out += _in_gas(rules, arena, v, cloud, touching, now, dice)
    touching.clear()
    touching.update(now)
    return out


def _in_gas(rules: Rules, arena: Arena, v: Vehicle, cloud, touching: dict, now: dict, dice: DiceSource) -> list[Event]:
    """CW-SEED-01: a vehicle in a damaging gas's cloud this phase: its damage the phase it enters and every five
    phases in a row it stays (`again_every`), each roll a fire source of the gas's own fire modifier (CW-FIRE-01)."""
    key = (v.id, cloud.id)
    now[key] = touching.get(key, 0) + 1
    if key in touching and not again_every(rules, now[key]):
        return []
    spec = weapon_spec(rules, cloud.damaging)
    out: list[Event] = [Note(f"{v.id} {'still in' if key in touching else 'enters'} {cloud.id} ({spec.name}, a damaging gas)"
                             + (f", {now[key] - 1} phases on: its damage again" if key in touching else ""), "CW-SEED-01")]
    out += gas_damage(rules, v, cloud, spec, dice)
    if spec.fire_modifier:
        e = record_fire_hit(arena.fires.setdefault(v.id, FireState()), spec, arena.turn)
        out += [e] if e is not None else []
    return out


def _flaming_oil_fire(rules: Rules, arena: Arena, v: Vehicle) -> list[Event]:
    """CW-FIRE-01/02: flaming oil's damage counts as a flaming oil jet's hit for fire that turn."""
    state = arena.fires.setdefault(v.id, FireState())
    e = record_fire_hit(state, weapon_spec(rules, rules["carwars.fire"]["start"]["flaming_oil_weapon"]), arena.turn)
    return [e] if e is not None else []


def _automatic_drops(rules: Rules, arena: Arena, moved: dict[str, float], phase: int, dice: DiceSource) -> list[Event]:
    """CW-DROP-01/05: a dropped weapon on automatic lays a counter every phase the vehicle moves (once a turn,
    in phase 1, when it is stationary), until its ammunition runs out."""
    out: list[Event] = []
    for v in arena.vehicles.values():
        for w in v.all_weapons():
            if not drops_now(v, w, moved, phase) or (w.spec.shots > 0 and w.ammo <= 0):
                continue
            events, counter = drop_weapon(rules, arena, v, w, counter_id(arena, v, w), dice)
            out += events
            if counter is not None:
                arena.counters.append(counter)
    return out


def drops_now(v: Vehicle, w, moved: dict[str, float], phase: int) -> bool:
    """CW-DROP-01: a dropped weapon on automatic, not destroyed, is due to lay a counter this phase: its vehicle
    moved in it (or, stationary, it is phase 1). Its ammunition is the caller's to check."""
    return w.automatic and w.spec.dropped and not w.destroyed and (moved.get(v.id, 0) > 0 or (v.speed == 0 and phase == 1))


def _end_of_turn(rules: Rules, arena: Arena, dice: DiceSource) -> list[Event]:
    out: list[Event] = [Note(f"end of turn {arena.turn}", "CW-FIRE-03")]
    out += end_of_turn_fire(rules, arena, arena.fires, arena.turn, dice)
    out += expire_counters(rules, arena, arena.counters, arena.turn)
    for v in arena.vehicles.values():
        if v.paint_until_turn is not None and v.paint_until_turn <= arena.turn:
            out.append(StateChanged(v.id, "paint on windows", "yes", "washed off", "CW-HIT-07"))
            v.paint_until_turn = None
    for v in arena.vehicles.values():
        out += end_handling(v)
    for v in arena.vehicles.values():
        if v.uncontrolled and v.speed != 0:
            slow = rules["carwars.damage"]["crew"]["uncontrolled_slowdown_mph"]
            new = slowed(v.speed, slow)
            out.append(StateChanged(v.id, "speed", v.speed, new, "CW-CREW-03"))
            v.speed = new
    return out


def _start_of_turn(rules: Rules, arena: Arena, dice: DiceSource) -> list[Event]:
    """The beginning of a turn, before its first phase: off-road damage (CW-OFF-02: rolled at the beginning of
    every turn a vehicle is off-road above 10 mph)."""
    out: list[Event] = []
    for v in arena.vehicles.values():
        if v.off_road:
            out += _offroad(rules, v, dice)
    return out


def end_handling(v: Vehicle) -> list[Event]:
    """CW-HIT-10: a skid or fishtail costs its -3 or -6 to hit for the rest of the turn it happened in: at the
    end of that turn it is over."""
    if v.handling is None:
        return []
    before, v.handling = v.handling, None
    return [StateChanged(v.id, "handling", before, None, "CW-HIT-10")]


def _offroad(rules: Rules, v: Vehicle, dice: DiceSource) -> list[Event]:
    try:
        from .terrain import offroad_damage
    except ImportError:  # pragma: no cover - terrain rules not installed
        return [Note(f"{v.id} is off-road: off-road damage rules unavailable", "CW-OFF-02")]
    result = offroad_damage(rules, v, dice, v.off_road_suspension)
    events = result[0] if isinstance(result, tuple) else result
    return list(events)


def _still_legal(rules: Rules, arena: Arena, attacks: list[Attack], history, fired: FiredThisTurn) -> tuple[list[Attack], list[Event]]:
    """Attacks planned for a later phase are checked when their phase comes: one the rules forbid by then (its
    weapon destroyed, its firer out, its target out of arc or behind smoke for a laser...) is cancelled, with
    the rule that forbids it; the others go ahead."""
    from .phase import check_rate_of_fire, explain_phase

    accepted: list[Attack] = []
    notes: list[Event] = []
    from .validate import check_link_drops

    scene = Scene(arena)
    for a in attacks:
        try:
            check_rate_of_fire(arena, accepted + [a], fired)
            explain_phase(arena, [a], rules, history, scene)
            check_link_drops(arena, a, "attack")     # the dropped weapons of a link it fires (CW-LINK-01)
        except (RuleViolation, ScenarioError) as exc:
            notes.append(Note(f"{a.id} cancelled: {getattr(exc, 'message', exc)}", exc.rule))
            continue
        accepted.append(a)
    return accepted, notes


def move_phase(rules: Rules, arena: Arena, phase: int) -> list[Event]:
    """A phase's straight-line movement of every vehicle (the movement chart) and of walking pedestrians."""
    events: list[Event] = []
    for v in arena.vehicles.values():
        d = phase_distances(rules, v.speed)[phase - 1]
        if d:
            before = (round(v.x, 4), round(v.y, 4))
            move_vehicle(v, d)
            events.append(StateChanged(v.id, "position", before, (round(v.x, 4), round(v.y, 4)), "CW-ROF-02"))
    for p in arena.pedestrians.values():
        if p.speed > 0:
            s, c = geo.sincos_deg(p.facing)
            step = rules["carwars.turn"]["pedestrian_step"]
            p.x += step * s
            p.y += step * c
    return events


def planned_breakdowns(arena: Arena, rules: Rules, plan: TurnPlan, history=None):
    """Each planned attack of the arena's turn explained at the positions after its phase's movement, against the
    state at the start of the turn: yields (phase, attack, ToHit or the RuleViolation/ScenarioError that would
    cancel it whatever the dice); a link, its first weapon's; a link of dropped weapons only, nothing. What the
    dice change by then is decided when the phase comes. Movement stops where counters collide (FIGHT-04), and a
    ditch or an obstacle driven onto is that phase's hazard (CW-SEED-03/04), as in `run_turns`."""
    from .motion import move_with_contacts
    from .phase import explain_phase

    arena = arena.copy()
    crossing, meeting = on_ditches(arena), on_obstacles(arena)
    for phase in range(1, rules["carwars.turn"]["phases"] + 1):
        arena.phase = phase
        for v in arena.vehicles.values():
            v.hazard_difficulty, v.phase_hazards = 0, []
        before = {v.id: v.counter for v in arena.vehicles.values()}
        move_with_contacts(rules, arena, phase)
        ditch_hazards(rules, arena, before, crossing)       # the hazards met in the movement: -D to fire (CW-HIT-10)
        gully_hazards(rules, arena, before)
        obstacle_hazards(rules, arena, before, meeting)
        scene = Scene(arena)
        for a in plan.attacks.get((arena.turn, phase), []):
            try:
                explained = explain_phase(arena, [a], rules, history, scene)
            except (RuleViolation, ScenarioError) as exc:
                yield phase, a, exc
                continue
            if explained:        # (a link of dropped weapons only rolls no to-hit: nothing to explain)
                yield phase, a, explained[0]


def _record_fired(arena: Arena, attacks: list[Attack], fired: FiredThisTurn, firers: dict | None = None) -> None:
    """CW-ROF-01: what fired this phase counts against the rest of the turn. The character is the one who fired
    (`firers`, as the phase's combat started): not whoever the default firer is once the phase's damage is in
    (a gunner killed by it has still fired, and the driver has not)."""
    for a in attacks:
        unit = arena.vehicles.get(a.attacker)
        members = [w.id for w in flatten_link(unit, a.weapon, "attack")] if unit is not None and a.weapon in unit.links else [a.weapon]
        for wid in members:
            fired.weapons.add((a.attacker, wid))
        who = firers[a.id] if firers is not None and a.id in firers else _character(arena, a)
        if who is not None:
            fired.characters[who] = fired.characters.get(who, 0) + 1


def run_turns(arena: Arena, rules: Rules, plan: TurnPlan, turns: int, dice: DiceSource,
              history: dict[tuple[str, str], SustainedRecord] | None = None, seed: int | None = None,
              fight: "Fight | None" = None) -> BattleResult:
    """Run `turns` whole turns from the arena's turn (each from phase 1), changing `arena` in place.

    With a `fight` (FIGHT-01..05): each phase's movement finds its collisions (FIGHT-04), the standing orders add
    their attacks after the planned ones (FIGHT-02), every unit out of action is recorded after each turn, and a
    fight `until_decided` stops after the turn that leaves at most one side in action (FIGHT-03).
    """
    from . import drive_phase
    from .fight import finish, order_attacks, order_drops, record_rolls, sides_in_action, update_out
    from .motion import move_with_contacts

    history = dict(history or {})
    first = arena.turn
    phases: list[PhaseResult] = []
    events: list[Event] = []
    touching: dict = {}     # (vehicle, counter) in contact: phases in a row (`_contacts`)
    crossing = on_ditches(arena)    # (vehicle, ditch) in contact (`terrain.ditch_hazards`)
    meeting = on_obstacles(arena)   # (vehicle, obstacle) in contact (`terrain.obstacle_hazards`)
    n_phases = rules["carwars.turn"]["phases"]
    record = FightRecord() if fight is not None else None
    out = record.out_turn if record is not None else {}
    drive_phase.start_fight(rules, fight, arena)
    ran = 0
    for _ in range(turns):
        fired = FiredThisTurn()
        events += _start_of_turn(rules, arena, dice)
        events += drive_phase.start_of_turn(rules, fight, arena, out, dice)  # FIGHT-07/08/10
        for phase in range(1, n_phases + 1):
            arena.phase = phase
            key = (arena.turn, phase)
            events.append(Note(f"turn {arena.turn}, phase {phase}", "CW-ROF-02"))
            for v in arena.vehicles.values():
                v.hazard_difficulty, v.on_oil, v.maneuvered, v.phase_hazards = 0, False, False, []
            declared = list(plan.actions.get(key, []))
            declared += order_drops(rules, fight, arena, fired, out) if fight is not None else []   # FIGHT-10
            for i, a in enumerate(declared):
                try:
                    events += do_action(rules, arena, a, dice, fired, f"action(turn {a.turn}, phase {a.phase})[{i}]")
                except (RuleViolation, ScenarioError) as exc:
                    # the loader checked the plan; what the dice did by this phase cancels the action, as an attack
                    events.append(Note(f"{a.kind} of {a.vehicle} cancelled: {getattr(exc, 'message', exc)}", exc.rule))
            planned, steering = drive_phase.plan_moves(rules, fight, arena, phase, out)      # FIGHT-07/08/09
            events += steering
            before = {v.id: v.counter for v in arena.vehicles.values()}
            moved = {v.id: phase_distances(rules, v.speed)[phase - 1] for v in arena.vehicles.values()}
            moving, found = move_with_contacts(rules, arena, phase, planned.moves)     # FIGHT-04 (fight.toml can switch it off)
            events += moving
            collisions = list(plan.collisions.get(key, [])) + found
            events += _automatic_drops(rules, arena, moved, phase, dice)
            events += _contacts(rules, arena, before, touching, dice)
            events += ditch_hazards(rules, arena, before, crossing)
            events += gully_hazards(rules, arena, before)
            events += obstacle_hazards(rules, arena, before, meeting)
            for v in arena.vehicles.values():
                events += oil_maneuver(rules, arena, v)
            events += drive_phase.after_moves(rules, arena, planned, moved, dice)
            attacks = list(plan.attacks.get(key, []))
            if phase == n_phases:
                auto, notes = automatic_attacks(arena, arena.turn)
                events += notes
                attacks += auto
            attacks, cancelled = _still_legal(rules, arena, attacks, history, fired)
            events += cancelled
            if fight is not None and fight.orders:
                attacks += order_attacks(rules, fight, arena, phase, fired, history, out, attacks)
            firers: dict = {}
            result = resolve_phase(arena, attacks, rules, dice, history, fired, seed=seed, collisions=collisions, firers=firers)
            events += result.events
            events += drive_phase.hazards(rules, fight, arena, dice)             # FIGHT-09
            _record_fired(arena, attacks, fired, firers)
            history, _ = update_history(history, result.breakdowns, arena.turn)
            phases.append(result)
            if record is not None:
                record_rolls(record, result.rolls, _weapon_keys(arena, attacks))
        events += _end_of_turn(rules, arena, dice)
        events += drive_phase.end_of_turn(rules, fight, arena)                   # FIGHT-09
        ran += 1
        if record is not None:
            events += update_out(rules, fight, arena, record, arena.turn)
        arena.turn += 1
        arena.phase = 1
        if record is not None and fight.until_decided and len(sides_in_action(fight, arena, record.out_turn)) <= 1:
            events.append(Note(f"the fight is decided after turn {arena.turn - 1}", "FIGHT-03"))
            break
    if record is not None:
        finish(record, fight, arena, ran)
    return BattleResult(first_turn=first, turns=ran, phases=tuple(phases), events=tuple(events), seed=seed, state=snapshot(arena),
                        fight=None if record is None else record.to_dict())


def _weapon_keys(arena: Arena, attacks: list[Attack]) -> dict[str, tuple[str, str]]:
    """Each attack's (unit, weapon) for the fight's per-weapon counts: a link's members are its own attacks
    (`special.expand_link` names them <attack>/<weapon>), each counted against its own weapon (CW-LINK-01)."""
    return {name: (a.attacker, weapon) for a in attacks for name, weapon, _ in attack_columns(arena, a)}
