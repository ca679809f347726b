"""Crew injury and its consequences (CW-CREW-01..04), and pedestrians taking hits."""
from __future__ import annotations

from ..data import Rules
from ..dice import DiceSource, parse_dice
from ..errors import RuleViolation
from ..events import DamageApplied, Event, Note, StateChanged
from .damage import Ledger
from . import geometry as geo
from .enums import CrewState
from .model import Arena, CrewMember, Pedestrian, Vehicle

__all__ = ["damage_pedestrian", "driver_consequences", "passengers_jump", "crash_table_band", "crash_roll_offroad_modifier",
           "substitute_driver", "substitute_barred", "check_substitute_fire"]

_2D = parse_dice("2d")


def damage_pedestrian(ped: Pedestrian, hits: int, ledger: Ledger) -> int:
    """CW-CREW-01: a pedestrian has 3 DP; worn body armour takes hits first. Returns hits not absorbed."""
    rest = hits
    if ped.body_armour and rest:
        taken = min(ped.body_armour, rest)
        ledger.events.append(DamageApplied(ped.id, "body armour", taken, ped.body_armour, ped.body_armour - taken, "CW-CREW-01"))
        ped.body_armour -= taken
        ledger.absorbed += taken
        rest -= taken
    taken = min(rest, max(0, 3 - ped.hits))
    if taken:
        before = ped.state
        ledger.events.append(DamageApplied(ped.id, "person", taken, 3 - ped.hits, 3 - ped.hits - taken, "CW-CREW-01"))
        ped.hits += taken
        ledger.absorbed += taken
        rest -= taken
        ledger.events.append(StateChanged(ped.id, "state", str(before), str(ped.state), "CW-CREW-01"))
    ledger.pass_out(rest, f"beyond what {ped.id} can take", "CW-CREW-01")
    return 0


def crash_table_band(rules: Rules, total: int) -> str:
    """Crash Table 1 band for a modified roll (the crash results themselves are an input hook)."""
    band = ""
    for low, name in rules["carwars.damage"]["crew"]["crash_table_1"]:
        if total >= low:
            band = name
    return band


def driver_consequences(rules: Rules, vehicle: Vehicle, before: CrewState, dice: DiceSource, extra_d: int = 0,
                        arena: Arena | None = None) -> list[Event]:
    """CW-CREW-02 / CW-CREW-03: what the driver's injury this phase does to the vehicle.

    Wounded (knocked out from ok too: the first hit wounded him) or killed: a D2
    hazard. Unconscious or dead: driver skill and reflex bonuses are lost. A
    cycle (no sidecar) whose driver is killed or knocked out goes to Crash Table
    1 at +4 (the roll and band are reported) and, on the map of `arena`, its
    passengers jump or stay (`passengers_jump`, CW-SEED-01); any other vehicle
    goes on straight, slowing 5 mph a turn.
    `extra_d` is added to the hazard (D2 on an oil slick, CW-DROP-04).
    """
    driver = vehicle.driver
    t = rules["carwars.damage"]["crew"]
    if driver is None or driver.state is before:
        return []
    after = driver.state
    out: list[Event] = []
    if (before is CrewState.OK and after is not CrewState.OK) or (after is CrewState.DEAD):
        # wounded (by the first hit: knocked out from ok, he was wounded on the way) or killed: one D2 hazard
        d = t["driver_hazard"] + extra_d
        oil = f" (+D{extra_d} on an oil slick)" if extra_d else ""
        what = {CrewState.WOUNDED: "wounded", CrewState.UNCONSCIOUS: "wounded and knocked out"}.get(after, "killed")
        out.append(Note(f"{vehicle.id}: driver {what}: a D{d} hazard{oil}", "CW-CREW-02"))
        vehicle.phase_hazards.append((d, "the driver hit"))
    if after >= CrewState.UNCONSCIOUS > before:
        out.append(StateChanged(vehicle.id, "driver skill and reflex bonuses", "in effect", "lost", "CW-CREW-02"))
        if vehicle.kind == "cycle" and vehicle.sidecar is None:
            r = dice.roll(_2D, f"{vehicle.id}: Crash Table 1 for an uncontrolled cycle", "CW-CREW-03")
            off = crash_roll_offroad_modifier(rules, vehicle)
            total = r.total + t["crash_table_bonus"] + off
            where = f" {off:+d} off-road" if off else ""
            vehicle.crash = crash_table_band(rules, total)
            out += [r, Note(f"{vehicle.id}: Crash Table 1 roll {r.total} +{t['crash_table_bonus']}{where} = {total}: "
                            f"{crash_table_band(rules, total)}; any passenger must jump or take the result", "CW-CREW-03")]
            if arena is not None:
                out += passengers_jump(rules, arena, vehicle, dice)
        else:
            out.append(Note(f"{vehicle.id}: uncontrolled: goes straight, losing {t['uncontrolled_slowdown_mph']} mph a turn until it stops or hits something", "CW-CREW-03"))
        if not vehicle.uncontrolled:
            out.append(StateChanged(vehicle.id, "uncontrolled", False, True, "CW-CREW-03"))
            vehicle.uncontrolled = True
    return out


def passengers_jump(rules: Rules, arena: Arena, vehicle: Vehicle, dice: DiceSource) -> list[Event]:
    """CW-SEED-01: the passengers of a cycle gone to Crash Table 1 (`vehicle.crash`) jump or take the result.

    An able passenger (conscious, not stunned) jumps at a result of his `jumps_on`, by default the rules'
    passenger_jumps_on (seeds/carwars/damage.toml [crew], RULING: none); otherwise, or unable, he stays aboard and
    shares the cycle's fate. A jump: the damage of a sideswipe at the speed he hits the ground (the
    cycle's, 30 mph less off-road, CW-COL-04), body armour first; he is then a pedestrian, in file order from the
    cycle's right side outwards, abreast of its centre, facing its way, carrying his hand weapons, on the cycle's
    side and with no orders of his own (id <cycle>.<crew id>)."""
    from .collision import jump_out_dice

    default = tuple(rules["carwars.damage"]["crew"]["passenger_jumps_on"])
    out: list[Event] = []
    taken = set(arena.vehicles) | set(arena.pedestrians)
    s, c = geo.sincos_deg(vehicle.facing)
    reach = vehicle.counter.width / 2.0
    for person in [p for p in vehicle.crew if p is not vehicle.driver and p.can_act and not p.stunned(arena.turn)
                   and vehicle.crash in (default if p.jumps_on is None else p.jumps_on)]:
        ident, n = f"{vehicle.id}.{person.id}", 2
        while ident in taken:
            ident, n = f"{vehicle.id}.{person.id}.{n}", n + 1
        taken.add(ident)
        ped = Pedestrian(ident, 0.0, 0.0, vehicle.facing, hits=person.hits, body_armour=person.body_armour,
                         handgunner=person.handgunner, weapons=person.hand_weapons, jumped_from=vehicle.id)
        reach += ped.size / 2.0
        ped.x, ped.y = vehicle.x + reach * c, vehicle.y - reach * s
        reach += ped.size / 2.0
        vehicle.crew.remove(person)
        arena.pedestrians[ident] = ped
        out += [StateChanged(vehicle.id, "crew", person.id, None, "CW-SEED-01"),
                Note(f"{person.id} jumps off {vehicle.id} ({vehicle.crash}): a pedestrian, {ident}, at "
                     f"({ped.x:.2f}, {ped.y:.2f})", "CW-SEED-01")]
        expr = jump_out_dice(rules, vehicle.speed, vehicle.off_road)
        if expr is None:
            out.append(Note(f"{ident} jumps off a stopped cycle: no damage", "CW-COL-04"))
            continue
        r = dice.roll(expr, f"{ident}: jumping off at {abs(vehicle.speed):g} mph{' off-road' if vehicle.off_road else ''}",
                      "CW-COL-04")
        ledger = Ledger(ident)
        ledger.events.append(r)
        ledger.dealt = r.total
        damage_pedestrian(ped, r.total, ledger)
        out += ledger.events
    return out


def crash_roll_offroad_modifier(rules: Rules, vehicle: Vehicle) -> int:
    """CW-OFF-01: every Crash Table roll made off-road takes the off-road modifier (-3); 0 on the road."""
    return rules["carwars.terrain"]["offroad"]["crash_modifier"] if vehicle.off_road else 0


def substitute_driver(rules: Rules, vehicle: Vehicle, crew_id: str, turn: int) -> list[Event]:
    """CW-CREW-04: who may take over from an incapacitated driver, and when.

    A cycle's sidecar passenger may steer at once (no brakes or throttle); a
    front-seat gunner or passenger of a larger vehicle may take over at once
    (controls or weapons in one turn, each maneuver +D2); anyone else only
    once the vehicle is stopped, after 5 turns, acting from the 6th.
    """
    driver = vehicle.driver
    if driver is not None and driver.can_act:
        raise RuleViolation(f"the driver {driver.id!r} is not incapacitated", field="substitute", value=crew_id, rule="CW-CREW-04")
    person = vehicle.crew_member(crew_id, "substitute")
    if not person.can_act:
        raise RuleViolation(f"{crew_id!r} is {person.state} and cannot drive", field="substitute", value=crew_id, rule="CW-CREW-04")
    return take_controls(rules, vehicle, crew_id, turn)


def take_controls(rules: Rules, vehicle: Vehicle, crew_id: str, turn: int) -> list[Event]:
    """CW-CREW-04: `crew_id` takes over the controls, where he sits allowing it (the seat and the vehicle's speed; a
    RuleViolation if not), whatever the state of the driver and his own: `substitute_driver` checks those, and the
    fight packer leaves them to the kernel's dice."""
    person = vehicle.crew_member(crew_id, "substitute")
    t = rules["carwars.damage"]["crew"]
    if vehicle.kind == "cycle":
        if person.seat != "sidecar":
            raise RuleViolation("only a sidecar passenger can steer a cycle", field="substitute", value=crew_id, rule="CW-CREW-04")
        vehicle.substitute, vehicle.substitute_from_turn = crew_id, turn
        return [StateChanged(vehicle.id, "substitute driver", None, crew_id, "CW-CREW-04"),
                Note(f"{crew_id} steers from the sidecar: no brakes or throttle; cannot fire on a turn he steers", "CW-CREW-04")]
    if person.seat.startswith("front"):
        vehicle.substitute, vehicle.substitute_from_turn = crew_id, turn
        return [StateChanged(vehicle.id, "substitute driver", None, crew_id, "CW-CREW-04"),
                Note(f"{crew_id} takes the controls: controls or weapons each turn, not both; each maneuver +D{t['substitute_maneuver_penalty']}", "CW-CREW-04")]
    if vehicle.speed != 0:
        raise RuleViolation("only a front-seat occupant can take over a moving vehicle; stop it first",
                            field="substitute", value=crew_id, rule="CW-CREW-04")
    start = turn + t["replace_driver_turns"]
    vehicle.substitute, vehicle.substitute_from_turn = crew_id, start
    return [StateChanged(vehicle.id, "substitute driver", None, crew_id, "CW-CREW-04"),
            Note(f"changing drivers takes {t['replace_driver_turns']} turns: {crew_id} drives and fires from turn {start}", "CW-CREW-04")]


def substitute_barred(vehicle: Vehicle, crew_id: str, turn: int) -> str | None:
    """CW-CREW-04: why the crew member may not fire this turn as the vehicle's substitute driver (before he may act,
    or in a turn he steered), or None."""
    if vehicle.substitute != crew_id:
        return None
    if vehicle.substitute_from_turn is not None and turn < vehicle.substitute_from_turn:
        return f"{crew_id!r} is still changing places: acts from turn {vehicle.substitute_from_turn}"
    if vehicle.steered_turn == turn:
        return f"{crew_id!r} steered this turn and cannot also fire"
    return None


def check_substitute_fire(vehicle: Vehicle, crew: CrewMember, turn: int, field: str) -> None:
    """CW-CREW-04: a substitute who steered this turn may not fire; nor before he may act."""
    why = substitute_barred(vehicle, crew.id, turn)
    if why is not None:
        raise RuleViolation(why, field=field, value=crew.id, rule="CW-CREW-04")
