"""The turn of a fight that drives (FIGHT-07..10): what the turn engine (`turn.run_turns`) asks of the standing
drivers and the handling rules, step by step, in the order docs/fights.md gives.

- `start_fight`: each vehicle under a movement order starts with its handling status at its HC.
- `start_of_turn`: a front-seat rider takes over from a driver who is out; each driver sets his speed.
- `plan_moves`: before a phase's movement, each vehicle's move: a crash's (skid, spinout, roll), or the standing
  driver's maneuver; a maneuver's D is the driver's hazard for the phase (CW-HIT-10).
- `after_moves`: once the vehicles have moved: each maneuver's control roll (Crash Table 1 if lost), a
  bootlegger's or T-stop's stop, a rolling vehicle's landing.
- `hazards`: after the phase's damage, each hazard a driven vehicle met (hits, its driver hit, flaming oil) is a
  control roll (Crash Table 2 if lost).
- `end_of_turn`: spinning and rolling vehicles slow; handling statuses recover.
"""
from __future__ import annotations

from ..data import Rules
from ..dice import DiceSource
from ..errors import RuleViolation
from ..events import Event, Note, StateChanged
from .crashes import after_crash_move, crash_move, lose_control, travel_of
from .driving import (ManeuverMove, choose_maneuver, choose_speed, drive_target, maneuver_difficulty, maneuver_move)
from .enums import CrewRole, CrewState
from .handling import control_check, recover_status, start_handling
from .model import Arena, Vehicle, slowed

__all__ = ["start_fight", "start_of_turn", "plan_moves", "after_moves", "hazards", "end_of_turn", "Planned"]


def _driven(fight, arena: Arena) -> list[Vehicle]:
    """The vehicles under a movement order, in the file's order."""
    if fight is None or not fight.drives:
        return []
    return [v for v in arena.vehicles.values() if fight.drive_of(v.id) is not None]


def _steered(v: Vehicle, turn: int) -> bool:
    """Whether someone steers the vehicle this turn: its driver, able, or the substitute who drives it this turn."""
    who = _controlled_by(v)
    return who == "driver" or (who == "substitute" and v.steered_turn == turn)


def start_fight(rules: Rules, fight, arena: Arena) -> None:
    """FIGHT-09: a vehicle under a movement order whose handling status is not yet kept starts at its HC."""
    for v in _driven(fight, arena):
        if v.handling_status is None:
            start_handling(rules, v, arena.turn)


def _able(c) -> bool:
    return c.state < CrewState.UNCONSCIOUS


def _take_over(rules: Rules, v: Vehicle, turn: int) -> list[Event]:
    """CW-CREW-04 / FIGHT-10: the driver out, the first conscious rider who may take over does (a cycle's sidecar
    rider; a larger vehicle's front-seat gunner or passenger); the vehicle is controlled again."""
    from .crew import take_controls

    d = v.driver
    if d is not None and _able(d):
        return []
    if v.substitute is not None and _able(v.crew_member(v.substitute)):
        return []
    riders = list(v.sidecar.crew) if v.kind == "cycle" and v.sidecar else \
        [c for c in v.crew if c.seat.startswith("front") and c.role is not CrewRole.DRIVER]
    for c in riders:
        if not _able(c):
            continue
        try:
            events = take_controls(rules, v, c.id, turn)
        except RuleViolation:
            continue
        if v.kind != "cycle" and v.uncontrolled:
            v.uncontrolled = False            # a cycle's sidecar rider steers with no brakes: it still slows
            events.append(StateChanged(v.id, "uncontrolled", True, False, "CW-CREW-04"))
        return events
    return []


def _controlled_by(v: Vehicle) -> str | None:
    """Who drives the vehicle this turn: "driver", "substitute", or None (nobody able, or a crash carries it)."""
    if v.crash_motion is not None:
        return None
    d = v.driver
    if d is not None and _able(d):
        return "driver"
    if v.substitute is not None and _able(v.crew_member(v.substitute)):
        return "substitute"
    return None


def substitute_fires(rules: Rules, fight, arena: Arena, v: Vehicle, order, out: dict[str, int]) -> bool:
    """FIGHT-10 (CW-CREW-04): whether the substitute at the controls fires this turn rather than drives: when a
    weapon the orders use bears on the target they choose (`driving._bearing`, the standing driver's own test),
    or when he could not move it anyway (a stopped cycle: a sidecar rider has no throttle; a vehicle in a ditch it
    fell into, CW-SEED-03). Otherwise he drives."""
    from .driving import _bearing

    if (v.speed == 0 and v.kind == "cycle") or v.in_ditch is not None:
        return True
    target = drive_target(fight, arena, v, order, out)
    return target is not None and _bearing(rules, v, order, v.counter, target)[0] > 0


def start_of_turn(rules: Rules, fight, arena: Arena, out: dict[str, int], dice: DiceSource) -> list[Event]:
    """FIGHT-07/08/10: at the start of a turn, each driven vehicle in action under its order: a substitute takes over
    if he must (each in turn); then each decides its speed for the turn from the state as it stands once they have
    (all at once, as the phase's moves are planned: none sees another's new speed); then, in turn, each brakes
    (harder than safe braking is a hazard: `braking`) or changes speed.
    A substitute drives or fires in a turn, never both (CW-CREW-04), by this rule (`substitute_fires`): when a
    weapon the orders use bears on the target, he fires and nobody steers: the vehicle goes straight, a car losing
    the uncontrolled slowdown (a cycle, still uncontrolled, loses it at the turn's end); otherwise he drives as the
    standing driver would, each maneuver +D2, a car at the standing driver's speed (a sidecar rider has no brakes
    or throttle: the cycle keeps slowing as an uncontrolled one). A vehicle whose power plant is gone coasts, losing
    the uncontrolled slowdown each turn; one that fell into a ditch stays there, stopped (CW-SEED-03); the others
    take the standing driver's speed (`driving.choose_speed`)."""
    events: list[Event] = []
    slow = rules["carwars.damage"]["crew"]["uncontrolled_slowdown_mph"]
    driven = [v for v in _driven(fight, arena) if v.id not in out and fight.drive_of(v.id).holds(arena.turn)]
    for v in driven:
        events += _take_over(rules, v, arena.turn)
    speeds: list[tuple[Vehicle, float, bool]] = []          # (vehicle, its new speed, braked by a driver)
    for v in driven:
        order = fight.drive_of(v.id)
        who = _controlled_by(v)
        if who is None:
            continue
        if who == "substitute" and substitute_fires(rules, fight, arena, v, order, out):
            events.append(Note(f"{v.substitute} fires from {v.id} this turn: nobody steers it", "FIGHT-10"))
            speeds.append((v, v.speed if v.kind == "cycle" else slowed(v.speed, slow), False))
        elif who == "substitute":
            v.steered_turn = arena.turn
            events.append(Note(f"{v.substitute} drives {v.id} this turn, so does not fire", "FIGHT-10"))
            if v.kind == "cycle":
                speeds.append((v, v.speed, False))
            else:
                speeds.append((v, choose_speed(rules, arena, v, order, drive_target(fight, arena, v, order, out)), True))
        elif v.in_ditch is not None:
            continue                 # it fell into a ditch and stays there (CW-SEED-03)
        elif v.power_plant is not None and v.power_plant <= 0:
            speeds.append((v, slowed(v.speed, slow), False))
        else:
            speeds.append((v, choose_speed(rules, arena, v, order, drive_target(fight, arena, v, order, out)), True))
    for v, new, driver in speeds:
        old = v.speed
        if driver:
            events += braking(rules, arena, v, new, dice)
        if new != v.speed and v.speed == old:        # (control lost braking, the crash has set it)
            events.append(StateChanged(v.id, "speed", v.speed, new, "FIGHT-08"))
            v.speed = new
    return events


def braking(rules: Rules, arena: Arena, v: Vehicle, new: float, dice: DiceSource) -> list[Event]:
    """FIGHT-08/09: the driver slowing from its speed to `new` harder than safe braking meets a hazard of the
    braking's D (`driving.braking_difficulty`): a control roll at the speed he brakes from; if control is lost,
    Crash Table 2, its result acting once he has braked (at `new`: then the vehicle's speed is already set)."""
    from .driving import braking_difficulty

    if v.speed <= 0 or new >= v.speed or v.handling_status is None or v.crash_motion is not None:
        return []
    d = braking_difficulty(rules, v.speed - new)
    if d <= 0:
        return []
    what = f"braking {v.speed - new:g} mph"
    lost, events = control_check(rules, v, d, what, dice)
    if not lost:
        return events
    before, v.speed = v.speed, new
    events.append(StateChanged(v.id, "speed", before, new, "FIGHT-08"))
    return events + lose_control(rules, arena, v, 2, d, travel_of(v), dice)


class Planned:
    """A phase's moves: each vehicle's `ManeuverMove` (absent: straight on), the maneuvers the drivers made
    (vehicle id -> (maneuver, the way it was going)), and the vehicles moved by a crash."""

    def __init__(self) -> None:
        self.moves: dict[str, ManeuverMove] = {}
        self.maneuvers: dict = {}
        self.crashing: list[str] = []


def plan_moves(rules: Rules, fight, arena: Arena, phase: int, out: dict[str, int]) -> tuple[Planned, list[Event]]:
    """FIGHT-07/08/09: each driven vehicle's move for the phase, decided from the state at the phase's start (all at
    once): a skid, spinout or roll carries a crashing vehicle; otherwise, while its driver can act (or a substitute
    drives it this turn, `start_of_turn`) and its order holds, the standing driver's maneuver, whose D is the
    driver's hazard for the phase (-D to fire, CW-HIT-10)."""
    from .turn import phase_distances

    plan = Planned()
    events: list[Event] = []
    for v in _driven(fight, arena):
        distance = phase_distances(rules, v.speed)[phase - 1]
        crash = crash_move(rules, v, distance)
        if crash is not None:
            plan.moves[v.id] = crash
            plan.crashing.append(v.id)
            continue
        order = fight.drive_of(v.id)
        if distance <= 0 or v.id in out or not order.holds(arena.turn) or not _steered(v, arena.turn):
            continue
        target = drive_target(fight, arena, v, order, out)
        m = choose_maneuver(rules, arena, v, order, target, distance)
        if m.kind == "straight":
            continue
        plan.moves[v.id] = maneuver_move(rules, v, m, distance)
        plan.maneuvers[v.id] = (m, travel_of(v))
        d = maneuver_difficulty(rules, v, m)
        v.hazard_difficulty += d
        v.maneuvered = True
        events.append(Note(f"{v.id} {m.name} (D{d})", "FIGHT-08"))
    return plan, events


def after_moves(rules: Rules, arena: Arena, plan: Planned, distances: dict[str, float], dice: DiceSource) -> list[Event]:
    """FIGHT-08/09: after the phase's movement, in the file's order: each maneuver's control roll at its whole D
    (with an oil slick's +D2 where it ended, CW-DROP-04), Crash Table 1 if control is lost; a bootlegger stops and
    a T-stop slides to a stop (its tires hurt); a rolling vehicle lands on its next side."""
    from .dropped import oil_extra_difficulty

    events: list[Event] = []
    for v in arena.vehicles.values():
        if v.id in plan.crashing:
            events += after_crash_move(rules, arena, v, dice)
            continue
        if v.id not in plan.maneuvers:
            continue
        m, travel = plan.maneuvers[v.id]
        events += _maneuver_speed(rules, v, m, distances.get(v.id, 0.0), dice)
        if v.handling_status is None:
            continue
        d = maneuver_difficulty(rules, v, m) + oil_extra_difficulty(rules, arena, v)
        lost, checks = control_check(rules, v, d, m.name, dice)
        events += checks
        if lost:
            events += lose_control(rules, arena, v, 1, d, travel, dice)
    return events


def _maneuver_speed(rules: Rules, v: Vehicle, m, distance: float, dice: DiceSource) -> list[Event]:
    """FIGHT-08: a bootlegger ends at a stop (each tire hurt); a T-stop loses `slow_per_inch` mph an inch it slid,
    each tire taking a point for each full 20 mph lost."""
    from .crashes import _slow, _tires

    t = rules["carwars.maneuvers"]["maneuver"]
    if m.kind == "bootlegger":
        return _tires(rules, v, t["bootlegger"]["tire_points"], None, "bootlegger", dice) + _slow(v, abs(v.speed), "bootlegger")
    if m.kind == "t_stop":
        lost = min(abs(v.speed), t["t_stop"]["slow_per_inch"] * distance)
        points = int(lost // 20) * t["t_stop"]["tire_points_per_20_mph"]
        return _tires(rules, v, points, None, "T-stop", dice) + _slow(v, lost, "T-stop")
    return []


def hazards(rules: Rules, fight, arena: Arena, dice: DiceSource) -> list[Event]:
    """FIGHT-09: the hazards each driven vehicle met this phase (`v.phase_hazards`, in the order they came), each a
    control roll at its D; Crash Table 2 if control is lost. A vehicle already out of control (spinning, rolling)
    meets no more."""
    events: list[Event] = []
    for v in _driven(fight, arena):
        found, v.phase_hazards = v.phase_hazards, []
        for d, what in found:
            if v.handling_status is None or v.crash_motion is not None or d <= 0:
                continue
            lost, checks = control_check(rules, v, d, what, dice)
            events += checks
            if lost:
                events += lose_control(rules, arena, v, 2, d, travel_of(v), dice)
    for v in arena.vehicles.values():
        v.phase_hazards = []
    return events


def end_of_turn(rules: Rules, fight, arena: Arena) -> list[Event]:
    """FIGHT-09: spinning and rolling vehicles slow (and stop their crash when they stop); then every driven
    vehicle's handling status recovers."""
    from .crashes import end_of_turn as crash_end

    events: list[Event] = []
    for v in _driven(fight, arena):
        events += crash_end(rules, v)
    for v in _driven(fight, arena):
        events += recover_status(rules, v, arena.turn)
    return events
