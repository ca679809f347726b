"""Crash results that act (FIGHT-09, RULING: seeds/carwars/handling.toml [effect.*], docs/fights.md "Crashes").

`lose_control` follows a lost control roll to its end: the Crash Table roll
and what its result does at once (speed lost, tires hurt, a fishtail's swing,
the start of a spinout, a roll or a vault, the fire penalty); a skid waits for
the vehicle's next move (`crash_move`). `crash_move` is the movement of a
phase for a vehicle that is skidding, spinning or rolling; `end_of_turn`
slows a spinning or rolling vehicle and ends its crash when it stops.
"""
from __future__ import annotations

from ..data import Rules
from ..dice import DiceSource, parse_dice
from ..events import Event, Note, StateChanged
from . import geometry as geo
from .damage import Ledger, damage_component, damage_crew
from .enums import Side
from .handling import CrashMotion, crash_result
from .model import Arena, Vehicle, slowed

__all__ = ["lose_control", "crash_move", "end_of_turn", "travel_of", "fishtail_swing", "ROLL_SIDES"]

_1D = parse_dice("1d")
#: the sides a rolling vehicle lands on, in turn, rolling to its right (to its left: left, top, right, underbody)
ROLL_SIDES = {1: ("right", "top", "left", "underbody"), -1: ("left", "top", "right", "underbody")}


def _effect(rules: Rules, name: str) -> dict:
    return rules["carwars.handling"]["effect"][name]


def travel_of(v: Vehicle) -> float:
    """The way the vehicle is going (degrees): its facing, or the reverse of it when it backs up."""
    return v.facing if v.speed >= 0 else (v.facing + 180.0) % 360.0


def _way(dice: DiceSource, v: Vehicle, what: str) -> tuple[int, list[Event]]:
    """One die for a crash's direction: 1-3 left (-1), 4-6 right (+1)."""
    r = dice.roll(_1D, f"{v.id}: which way the {what} goes (1-3 left, 4-6 right)", "FIGHT-09")
    return (-1 if r.total <= 3 else 1), [r]


def lose_control(rules: Rules, arena: Arena, v: Vehicle, table: int, d: int, travel: float, dice: DiceSource) -> list[Event]:
    """FIGHT-09: control lost on a maneuver (table 1) or a hazard (table 2) of difficulty `d`, the vehicle going
    `travel` degrees before it: the Crash Table roll and its result."""
    name, events = crash_result(rules, v, table, d, dice)
    return events + apply_result(rules, arena, v, name, d, travel, dice)


def apply_result(rules: Rules, arena: Arena, v: Vehicle, name: str, d: int, travel: float, dice: DiceSource) -> list[Event]:
    """FIGHT-09: what a crash result does at once (the effect's kind; docs/fights.md, "Crashes")."""
    e = _effect(rules, name)
    events = _fire_penalty(rules, arena, v, name, e)
    kind = e["kind"]
    v.crash = name if kind in ("spinout", "roll", "vault") or v.crash is None else v.crash
    if kind == "skid":
        events += _slow(v, e["slow"], name) + _tires(rules, v, e.get("tire_points", 0), None, name, dice)
        later = ((e["next"], travel),) if e.get("next") else ()
        v.skids = ((name, travel),) + later
    elif kind == "fishtail":
        events += fishtail_swing(rules, arena, v, e["fishtail"], name, dice)
        if e.get("then_table_1"):
            events += lose_control(rules, arena, v, 1, d, travel, dice)
    elif kind == "spinout":
        events += _tires(rules, v, 0, e["tire_dice"], name, dice)
        spin, rolls = _way(dice, v, "spinout")
        v.skids, v.crash_motion = (), CrashMotion("spinout", travel, spin)
        events += rolls + [StateChanged(v.id, "crash", None, "spinout", "FIGHT-09")]
    elif kind == "roll":
        events += _start_roll(rules, arena, v, name, e, travel, dice)
    elif kind == "vault":
        events += _vault(rules, arena, v, name, e, travel, dice)
    return events


def _fire_penalty(rules: Rules, arena: Arena, v: Vehicle, name: str, e: dict) -> list[Event]:
    """CW-HIT-10 / FIGHT-09: a skid or fishtail's to-hit penalty for the rest of the turn (the worse one stands); a
    worse result stops aimed fire for the rest of the turn."""
    if e["fire"] == "none":
        v.no_fire_turn = arena.turn
        return [Note(f"{v.id}: {name}: no aimed fire for the rest of the turn", "FIGHT-09")]
    table = rules["carwars.tohit"]["handling"]
    if v.handling is None or table[e["fire"]] < table[v.handling]:
        before, v.handling = v.handling, e["fire"]
        return [StateChanged(v.id, "handling", before, v.handling, "CW-HIT-10")]
    return []


def _slow(v: Vehicle, mph: float, why: str) -> list[Event]:
    if not mph or v.speed == 0:
        return []
    new = slowed(v.speed, mph)
    before, v.speed = v.speed, new
    return [StateChanged(v.id, "speed", before, new, "FIGHT-09")]


def _tires(rules: Rules, v: Vehicle, points: int, dice_text: str | None, why: str, dice: DiceSource) -> list[Event]:
    """Each tire takes `points`, or a roll of `dice_text` each, from a crash (FIGHT-09)."""
    if not points and dice_text is None:
        return []
    ledger = Ledger(v.id)
    for tire in v.tires + ([v.sidecar.tire] if v.sidecar else []):
        hits = points
        if dice_text is not None:
            r = dice.roll(parse_dice(dice_text), f"{v.id}: {why}: tire {tire.id}", "FIGHT-09")
            ledger.events.append(r)
            hits = r.total
        ledger.dealt += hits
        rest = damage_component(v, tire, hits, ledger, "FIGHT-09")
        ledger.pass_out(rest, f"left over after tire {tire.id}: lost", "FIGHT-09")
    return ledger.events


def fishtail_swing(rules: Rules, arena: Arena, v: Vehicle, angle: float, name: str, dice: DiceSource) -> list[Event]:
    """FIGHT-09: a fishtail: the back swings `angle` degrees the way a die says, about the front corner on the other
    side (a swing to the left turns the counter right about its front-right corner). A swing that would put the
    counter onto a vehicle or building it does not touch is not made (a ruling)."""
    from .driving import blocked, turned

    way, events = _way(dice, v, "fishtail")
    cnt = v.counter
    pivot = (0.5 * cnt.width * (1.0 if way < 0 else -1.0), 0.5 * cnt.length)
    new = turned(cnt, -way * angle, pivot)
    if blocked(arena, v, new):
        return events + [Note(f"{v.id}: {name}: the swing is blocked", "FIGHT-09")]
    before = (round(v.x, 4), round(v.y, 4), round(v.facing, 4))
    v.x, v.y, v.facing = new.cx, new.cy, new.facing
    return events + [StateChanged(v.id, "position and facing", before, (round(v.x, 4), round(v.y, 4), round(v.facing, 4)),
                                  "FIGHT-09")]


def _start_roll(rules: Rules, arena: Arena, v: Vehicle, name: str, e: dict, travel: float, dice: DiceSource,
                first: int = 0) -> list[Event]:
    """FIGHT-09: a roll begins: the side a die says, the fire a burning roll may start (CW-FIRE-03)."""
    way, events = _way(dice, v, "roll")
    v.skids, v.crash_motion = (), CrashMotion("roll", travel, 0, ROLL_SIDES[way], first)
    events.append(StateChanged(v.id, "crash", None, "roll", "FIGHT-09"))
    band = e.get("burning")
    if band:
        r = dice.roll(_1D, f"{v.id}: does the roll set it on fire ({band[0]}-{band[1]})", "FIGHT-09")
        events.append(r)
        if band[0] <= r.total <= band[1]:
            from .fire import FireState

            state = arena.fires.setdefault(v.id, FireState())
            if not state.burning:
                state.burning = True
                events.append(StateChanged(v.id, "on fire", False, True, "CW-FIRE-03"))
    return events


def _vault(rules: Rules, arena: Arena, v: Vehicle, name: str, e: dict, travel: float, dice: DiceSource) -> list[Event]:
    """FIGHT-09: a vault: the front tires take `tire_dice`; it flies a die of inches the way it was going; every
    person aboard takes `occupant_points` (body armour does not help); it lands on its top, a collision at its
    speed against the ground (CW-COL-01..04); then it rolls on from there."""
    from .collision import collision_damage, collision_hits

    ledger = Ledger(v.id)
    expr = parse_dice(e["tire_dice"])
    for tire in [t for t in v.tires if t.id.startswith("front")]:
        r = dice.roll(expr, f"{v.id}: vault: tire {tire.id}", "FIGHT-09")
        ledger.events.append(r)
        ledger.dealt += r.total
        ledger.pass_out(damage_component(v, tire, r.total, ledger, "FIGHT-09"), f"left over after tire {tire.id}: lost", "FIGHT-09")
    r = dice.roll(_1D, f"{v.id}: vault: inches flown", "FIGHT-09")
    ledger.events.append(r)
    s, c = geo.sincos_deg(travel)
    before = (round(v.x, 4), round(v.y, 4))
    v.x, v.y = v.x + r.total * s, v.y + r.total * c
    ledger.events.append(StateChanged(v.id, "position", before, (round(v.x, 4), round(v.y, 4)), "FIGHT-09"))
    for person in v.all_crew():
        saved, person.body_armour = person.body_armour, 0
        damage_crew(v, person, e["occupant_points"], ledger)
        person.body_armour = saved
    hits = collision_hits(rules, dice, v.speed, ledger)
    collision_damage(rules, v, Side.TOP, hits, dice, ledger)
    v.rolled_onto = Side.TOP
    events = ledger.events
    return events + _start_roll(rules, arena, v, name, e, travel, dice, first=2)


def crash_move(rules: Rules, v: Vehicle, distance: float):
    """FIGHT-09: a phase's movement of a skidding, spinning or rolling vehicle (a `driving.ManeuverMove`), or None
    when it moves as usual: a skid slides its inches the way the vehicle was going, facing kept, then it goes on
    straight; a spinout or a roll goes `move_per_phase` inches the way it was going, a spinout turning a quarter."""
    from .driving import ManeuverMove

    if distance <= 0:
        return None
    if v.crash_motion is not None:
        m = v.crash_motion
        e = _effect(rules, m.kind if m.kind == "spinout" else "roll")
        step = min(distance, e["move_per_phase"])
        s, c = geo.sincos_deg(m.travel)
        if m.kind == "spinout":
            return ManeuverMove(step * s, step * c, 90.0 * m.spin, (0.0, 0.0))
        return ManeuverMove(step * s, step * c)
    if not v.skids:
        return None
    name, travel = v.skids[0]
    slide = min(distance, _effect(rules, name)["skid"])
    s, c = geo.sincos_deg(travel)
    fs, fc = geo.sincos_deg(v.facing)
    sign = -1.0 if v.speed < 0 else 1.0
    rest = distance - slide
    return ManeuverMove(slide * s + sign * rest * fs, slide * c + sign * rest * fc)


def after_crash_move(rules: Rules, arena: Arena, v: Vehicle, dice: DiceSource) -> list[Event]:
    """FIGHT-09: after a phase's crash movement: a skid is used up; a rolling vehicle lands on its next side,
    which takes `side_dice` (`side_dice_off_road` off-road, the seed, CW-OFF-01) as a collision, and its tires
    `tire_dice` each when its wheels come down."""
    from .collision import collision_damage

    if v.crash_motion is None:
        if v.skids:
            v.skids = v.skids[1:]
        return []
    m = v.crash_motion
    if m.kind != "roll":
        return []
    e = _effect(rules, "roll")
    side = m.sides[m.next_side % len(m.sides)]
    m.next_side += 1
    ledger = Ledger(v.id)
    if side == "underbody":
        v.rolled_onto = None
        ledger.events += _tires(rules, v, 0, e["tire_dice"], "roll", dice)
    else:
        v.rolled_onto = Side.parse(side)
        expr = parse_dice(e["side_dice_off_road" if v.off_road else "side_dice"])
        r = dice.roll(expr, f"{v.id}: rolls onto its {side}", "FIGHT-09")
        ledger.events.append(r)
        collision_damage(rules, v, Side.parse(side), r.total, dice, ledger)
    return ledger.events


def end_of_turn(rules: Rules, v: Vehicle) -> list[Event]:
    """FIGHT-09: a spinning or rolling vehicle loses `slow_per_turn` mph at the end of each turn; when it stops its
    crash is over (a rolled vehicle rests where it lies: out of action, FIGHT-03 `crashed`)."""
    m = v.crash_motion
    if m is None:
        return []
    e = _effect(rules, "spinout" if m.kind == "spinout" else "roll")
    events = _slow(v, e["slow_per_turn"], m.kind)
    if v.speed == 0:
        v.crash_motion = None
        events.append(StateChanged(v.id, "crash", m.kind, None, "FIGHT-09"))
    return events
