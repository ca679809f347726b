"""Handling and control (FIGHT-09, RULING: seeds/carwars/handling.toml, docs/fights.md "Handling").

A vehicle driven under a movement order (FIGHT-07) has a handling class (HC)
and a handling status (HS). Each maneuver or hazard lowers the status by its
D; the Control Table, crossed at the vehicle's speed and its new status, says
whether that is safe, needs a die, or loses control. Control lost on a
maneuver sends it to Crash Table 1, on a hazard to Crash Table 2, and the
result acts: skids, fishtails, spinouts, rolls and vaults move the counter,
slow it, damage it and stop its aimed fire. Each rule is one function; every
one that rolls takes the dice source.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from ..data import Rules
from ..dice import DiceSource, parse_dice
from ..errors import DataError
from ..events import Event, Note, StateChanged
from .enums import CrewState
from .model import Vehicle

__all__ = ["handling_class", "control_needed", "control_lost_chance", "crash_modifier", "CrashMotion", "start_handling",
           "recover_status", "control_check", "crash_result", "handling_on", "validate_handling_table", "validate_maneuvers_table"]

SAFE, LOST = 0, 7          # Control Table codes: no roll; control lost (XX)
_1D = parse_dice("1d")
_2D = parse_dice("2d")


def handling_on(rules: Rules) -> bool:
    """FIGHT-09: whether the handling model is switched on (carwars.handling enabled)."""
    return bool(rules["carwars.handling"]["enabled"])


def _driver_able(v: Vehicle, turn: int) -> bool:
    """Whether the driver keeps his bonuses this turn: conscious and not stunned (CW-CREW-02, CW-SEED-02)."""
    d = v.driver
    return d is not None and d.state < CrewState.UNCONSCIOUS and not d.stunned(turn)


def handling_class(rules: Rules, v: Vehicle, turn: int) -> int:
    """FIGHT-09: the body's HC on light suspension, the suspension's bonus, the driver's reflex bonus while he is
    conscious and not stunned in this turn (CW-CREW-02, CW-SEED-02), and off-road the seed's reduction without an
    off-road suspension (CW-OFF-01); within the table's bounds."""
    t = rules["carwars.handling"]["handling_class"]
    hc = t["body"][v.body.name]
    hc += t["suspension"]["off_road" if v.off_road_suspension else v.suspension]
    if _driver_able(v, turn):
        hc += v.driver.reflexes
    if v.off_road and not v.off_road_suspension:
        hc += t["off_road"][v.kind]
    return max(t["min"], min(t["max"], hc))


def _row(rules: Rules, speed: float) -> int | None:
    """The Control Table row of a speed: 5-10 mph is row 0, then one a 10 mph; None under 5 mph (no roll)."""
    s = abs(speed)
    if s < 5:
        return None
    rows = rules["carwars.handling"]["control"]["rows"]
    return min(len(rows) - 1, math.ceil(s / 10) - 1)


def control_needed(rules: Rules, speed: float, status: int) -> int:
    """FIGHT-09: the Control Table at a speed and a handling status: 0 safe, 2-6 the die needed, 7 control lost."""
    row = _row(rules, speed)
    if row is None:
        return SAFE
    c = rules["carwars.handling"]["control"]
    cols = c["columns"]
    status = max(cols[-1], min(cols[0], status))
    return c["rows"][row][cols.index(status)]


def control_lost_chance(rules: Rules, speed: float, status: int) -> Fraction:
    """FIGHT-09: the exact chance of losing control at this speed and status (what the standing driver weighs)."""
    need = control_needed(rules, speed, status)
    if need == SAFE:
        return Fraction(0)
    if need >= LOST:
        return Fraction(1)
    return Fraction(need - 1, 6)


def crash_modifier(rules: Rules, v: Vehicle) -> int:
    """FIGHT-09: what the speed's row adds to a Crash Table roll (and off-road the seed's -3, CW-OFF-01)."""
    row = _row(rules, v.speed)
    mod = 0 if row is None else rules["carwars.handling"]["control"]["crash_modifier"][row]
    if v.off_road:
        mod += rules["carwars.terrain"]["offroad"]["crash_modifier"]
    return mod


@dataclass
class CrashMotion:
    """A vehicle out of control after a spinout, a roll or a vault (FIGHT-09): it goes `travel` degrees (the way it
    was going) until it stops; a spinout turns `spin` (+1 right, -1 left) a quarter each phase it moves; a roll
    lands, phase by phase, on the sides of `sides` in turn, from `next_side`."""

    kind: str                       # spinout | roll
    travel: float
    spin: int = 0
    sides: tuple[str, ...] = ()
    next_side: int = 0


def start_handling(rules: Rules, v: Vehicle, turn: int) -> None:
    """FIGHT-09: a vehicle under a movement order starts the fight (in this turn) with its status at its HC."""
    v.handling_status = handling_class(rules, v, turn)


def recover_status(rules: Rules, v: Vehicle, turn: int) -> list[Event]:
    """FIGHT-09: at the end of each turn the status rises by the HC (that turn's, at least `recover_min`), never
    above the HC."""
    if v.handling_status is None:
        return []
    hc = handling_class(rules, v, turn)
    t = rules["carwars.handling"]["status"]
    new = min(hc, v.handling_status + max(hc, t["recover_min"]))
    if new == v.handling_status:
        return []
    before, v.handling_status = v.handling_status, new
    return [StateChanged(v.id, "handling status", before, new, "FIGHT-09")]


def control_check(rules: Rules, v: Vehicle, d: int, what: str, dice: DiceSource) -> tuple[bool, list[Event]]:
    """FIGHT-09: a maneuver or hazard of difficulty `d` lowers the status (never below the floor) and is checked
    on the Control Table at the vehicle's speed: safe, lost (XX), or one die that must reach the number.
    Returns (control lost, events). Switched off (`enabled = false`), the status still falls but nothing is rolled."""
    t = rules["carwars.handling"]
    before = v.handling_status
    v.handling_status = max(t["status"]["floor"], before - d)
    events: list[Event] = [StateChanged(v.id, "handling status", before, v.handling_status, "FIGHT-09")] if d else []
    if not handling_on(rules):
        return False, events
    need = control_needed(rules, v.speed, v.handling_status)
    if need == SAFE:
        return False, events
    if need >= LOST:
        events.append(Note(f"{v.id}: {what} at {abs(v.speed):g} mph, status {v.handling_status}: control lost", "FIGHT-09"))
        return True, events
    r = dice.roll(_1D, f"{v.id}: control roll after {what} (needs {need})", "FIGHT-09")
    lost = r.total < need
    events += [r, Note(f"{v.id}: control {'lost' if lost else 'kept'} ({r.total} against {need})", "FIGHT-09")]
    return lost, events


def crash_result(rules: Rules, v: Vehicle, table: int, d: int, dice: DiceSource) -> tuple[str, list[Event]]:
    """FIGHT-09: a roll on Crash Table 1 (control lost on a maneuver) or 2 (on a hazard): 2d6 + the speed's
    modifier (+ off-road -3, CW-OFF-01) + (D - 3); the result's name."""
    t = rules["carwars.handling"]
    bands = rules["carwars.damage"]["crew"]["crash_table_1"] if table == 1 else t["crash_table_2"]["bands"]
    r = dice.roll(_2D, f"{v.id}: Crash Table {table}", "FIGHT-09")
    total = r.total + crash_modifier(rules, v) + d - t["crash"]["difficulty_offset"]
    name = bands[0][1]
    for low, band in bands:
        if total >= low:
            name = band
    return name, [r, Note(f"{v.id}: Crash Table {table}: {r.total} {total - r.total:+d} = {total}: {name}", "FIGHT-09")]


# --- the tables, validated (ARCH-05, SAFE-01) -------------------------------------------------------------------

def validate_handling_table(name: str, t: dict) -> None:
    """seeds/carwars/handling.toml: a Control Table of whole rows and known codes, crash bands that rise, every
    crash result with an effect of a known kind (FIGHT-09)."""
    from .table_schemas import first_error

    found = first_error(_handling_schema(), t, name, "FIGHT-09")
    if found is not None:
        field, message, value, rule = found
        raise DataError(message, field=field, value=value, rule=rule)
    c = t["control"]
    if len(c["crash_modifier"]) != len(c["rows"]):
        raise DataError(f"one crash modifier a row ({len(c['rows'])})", field=f"{name}.control.crash_modifier",
                        value=len(c["crash_modifier"]), rule="FIGHT-09")
    if c["columns"] != list(range(c["columns"][0], c["columns"][0] - len(c["columns"]), -1)):
        raise DataError("handling statuses from the highest down, one apart", field=f"{name}.control.columns",
                        value=c["columns"], rule="FIGHT-09")
    if c["columns"][-1] != t["status"]["floor"]:
        raise DataError("the last column is the status floor", field=f"{name}.control.columns", value=c["columns"][-1],
                        rule="FIGHT-09")
    for i, row in enumerate(c["rows"]):
        if len(row) != len(c["columns"]) or any(x not in (0, 2, 3, 4, 5, 6, 7) for x in row):
            raise DataError("a code a column: 0 safe, 2-6 a die, 7 lost", field=f"{name}.control.rows[{i}]", value=row,
                            rule="FIGHT-09")
    _check_bands(t["crash_table_2"]["bands"], f"{name}.crash_table_2.bands")
    for key, e in t["effect"].items():
        if e.get("next") is not None and e["next"] not in t["effect"]:
            raise DataError("not a crash result", field=f"{name}.effect.{key}.next", value=e["next"], rule="FIGHT-09")
        for k in ("tire_dice", "side_dice", "side_dice_off_road"):
            if k in e:
                from .table_schemas import as_data_error
                from ..errors import HardpointError
                try:
                    parse_dice(e[k])
                except HardpointError as exc:
                    raise as_data_error(exc, f"{name}.effect.{key}.{k}", "FIGHT-09") from None


def _check_bands(bands: list, field: str) -> None:
    lows = [b[0] for b in bands]
    if lows != sorted(set(lows)):
        raise DataError("rolls must increase", field=field, value=lows, rule="FIGHT-09")


def _handling_schema() -> dict:
    small = {"type": "integer", "minimum": -20, "maximum": 20}
    mph = {"type": "integer", "minimum": 0, "maximum": 300}
    dice = {"type": "string", "minLength": 1, "maxLength": 16}
    effect = {"type": "object", "required": ["kind", "fire"], "additionalProperties": False, "properties": {
        "kind": {"enum": ["skid", "fishtail", "spinout", "roll", "vault"]}, "fire": {"type": "string", "maxLength": 64},
        "skid": {"type": "number", "minimum": 0, "maximum": 10}, "slow": mph, "tire_points": small, "next": {"type": "string"},
        "fishtail": {"type": "number", "minimum": 0, "maximum": 180}, "then_table_1": {"type": "boolean"},
        "tire_dice": dice, "side_dice": dice, "side_dice_off_road": dice, "occupant_points": small,
        "turn_per_phase": {"type": "number", "minimum": 0, "maximum": 360}, "move_per_phase": {"type": "number", "minimum": 0, "maximum": 10},
        "slow_per_turn": mph, "burning": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 6},
                                          "minItems": 2, "maxItems": 2}}}
    band = {"type": "array", "prefixItems": [small | {"minimum": -99, "maximum": 99}, {"type": "string"}], "minItems": 2, "maxItems": 2}
    return {"type": "object", "additionalProperties": False, "x-rule": "FIGHT-09",
            "required": ["enabled", "handling_class", "status", "control", "crash", "crash_table_2", "effect"],
            "properties": {
                "rule": {"type": "string"}, "enabled": {"type": "boolean"},
                "handling_class": {"type": "object", "required": ["body", "suspension", "off_road", "min", "max"],
                                   "additionalProperties": False, "properties": {
                                       "rule": {"type": "string"}, "min": small, "max": small,
                                       "body": {"type": "object", "additionalProperties": small},
                                       "suspension": {"type": "object", "required": ["light", "improved", "heavy", "off_road"],
                                                      "additionalProperties": False,
                                                      "properties": {k: small for k in ("light", "improved", "heavy", "off_road")}},
                                       "off_road": {"type": "object", "required": ["car", "trike", "cycle"], "additionalProperties": False,
                                                    "properties": {k: small for k in ("car", "trike", "cycle")}}}},
                "status": {"type": "object", "required": ["floor", "recover_min"], "additionalProperties": False,
                           "properties": {"rule": {"type": "string"}, "floor": small, "recover_min": small}},
                "control": {"type": "object", "required": ["columns", "crash_modifier", "rows"], "additionalProperties": False,
                            "properties": {"rule": {"type": "string"},
                                           "columns": {"type": "array", "items": small, "minItems": 1, "maxItems": 30},
                                           "crash_modifier": {"type": "array", "items": small, "minItems": 1, "maxItems": 64},
                                           "rows": {"type": "array", "minItems": 1, "maxItems": 64,
                                                    "items": {"type": "array", "items": {"type": "integer"}, "maxItems": 30}}}},
                "crash": {"type": "object", "required": ["difficulty_offset"], "additionalProperties": False,
                          "properties": {"rule": {"type": "string"}, "difficulty_offset": small}},
                "crash_table_2": {"type": "object", "required": ["bands"], "additionalProperties": False,
                                  "properties": {"rule": {"type": "string"},
                                                 "bands": {"type": "array", "items": band, "minItems": 1, "maxItems": 32}}},
                "effect": {"type": "object", "additionalProperties": effect, "maxProperties": 64},
            }}


def validate_maneuvers_table(name: str, t: dict) -> None:
    """seeds/carwars/maneuvers.toml: the speed limits and every maneuver's figures (FIGHT-08)."""
    from .table_schemas import first_error

    found = first_error(_maneuvers_schema(), t, name, "FIGHT-08")
    if found is not None:
        field, message, value, rule = found
        raise DataError(message, field=field, value=value, rule=rule)
    _check_bands([[b[0], ""] for b in t["speed"]["braking"]], f"{name}.speed.braking")
    p = t["maneuver"]["bootlegger"]
    if p["min_speed"] > p["max_speed"]:
        raise DataError("min_speed above max_speed", field=f"{name}.maneuver.bootlegger.min_speed", value=p["min_speed"],
                        rule="FIGHT-08")
    for key in ("bend", "swerve", "pivot"):
        m = t["maneuver"][key]
        if m["step"] <= 0 or m["max_angle"] < m["step"]:
            raise DataError("a positive step no greater than max_angle", field=f"{name}.maneuver.{key}.step", value=m["step"],
                            rule="FIGHT-08")


def _maneuvers_schema() -> dict:
    d = {"type": "integer", "minimum": 0, "maximum": 20}
    inch = {"type": "number", "minimum": 0, "maximum": 2}
    angle = {"type": "number", "minimum": 0, "maximum": 180}
    mph = {"type": "integer", "minimum": 0, "maximum": 300}
    kinds = {"type": "object", "additionalProperties": False, "required": ["car", "trike", "cycle"],
             "properties": {k: {"type": "integer", "minimum": 5, "maximum": 300} for k in ("car", "trike", "cycle")}}

    def obj(props: dict) -> dict:
        return {"type": "object", "additionalProperties": False, "required": list(props), "properties": props}

    return {"type": "object", "additionalProperties": False, "x-rule": "FIGHT-08",
            "required": ["water_max_d", "reverse_extra_d", "speed", "maneuver"],
            "properties": {
                "rule": {"type": "string"}, "water_max_d": d, "reverse_extra_d": d,
                "speed": {"type": "object", "additionalProperties": False,
                          "required": ["step", "acceleration", "top_speed", "safe_braking", "braking", "max_braking"],
                          "properties": {"rule": {"type": "string"}, "step": {"type": "integer", "minimum": 1, "maximum": 50},
                                         "acceleration": kinds, "top_speed": kinds, "safe_braking": mph, "max_braking": mph,
                                         "braking": {"type": "array", "maxItems": 32, "items": {
                                             "type": "array", "prefixItems": [mph, d], "minItems": 2, "maxItems": 2}}}},
                "maneuver": obj({
                    "straight": obj({"d": d}),
                    "drift": obj({"d": d, "lateral": inch}),
                    "steep_drift": obj({"d": d, "lateral": inch}),
                    "bend": obj({"d_per_step": d, "step": angle, "max_angle": angle}),
                    "swerve": obj({"lateral": inch, "d_extra": d, "step": angle, "max_angle": angle}),
                    "pivot": obj({"d": d, "speed": mph, "advance": inch, "step": angle, "max_angle": angle}),
                    "bootlegger": obj({"d": d, "min_speed": mph, "max_speed": mph, "advance": inch, "tire_points": d,
                                       "not_for": {"type": "array", "items": {"enum": ["car", "trike", "cycle"]}, "maxItems": 3}}),
                    "t_stop": obj({"d_per_10_mph": d, "slow_per_inch": mph, "angle": angle, "tire_points_per_20_mph": d}),
                }),
            }}


def _register() -> None:
    from ..data import register_validator

    register_validator("carwars.handling", validate_handling_table)
    register_validator("carwars.maneuvers", validate_maneuvers_table)


_register()
