"""Car Wars to-hit: one function per modifier rule, and the breakdown (LOG-02).

Each `*_modifiers` function decides one rule and returns `Modifier` events
citing it; `needed_to_hit` (CW-HIT-01) sums them. Nothing here rolls dice
except `roll_to_hit`, which takes the dice source as a parameter.
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Callable, Hashable, Iterable

from ..data import Rules
from ..dice import DiceSource, Roll, at_least, chance, parse_dice
from ..events import DiceRolled, Modifier
from .enums import Computer, CrewState, Light, Side, Weather

__all__ = [
    "range_modifiers", "relative_speed", "speed_band", "movement_modifiers", "target_size_modifiers",
    "specific_target_modifiers", "visibility_modifiers", "firer_modifiers", "sustained_fire_modifiers",
    "handling_modifiers", "ground_shot_modifiers", "wrong_arc_modifiers", "needed_to_hit",
    "hit_probability", "roll_to_hit", "is_hit",
]

_TWO_D6 = parse_dice("2d")


def _table(rules: Rules) -> dict:
    return rules["carwars.tohit"]


def range_modifiers(rules: Rules, distance: float) -> list[Modifier]:
    """CW-HIT-02: point blank (under 1") +4; -1 for every full 4"."""
    r = _table(rules)["range"]
    if distance < r["point_blank_under"]:
        return [Modifier("point blank range", r["point_blank"], "CW-HIT-02")]
    steps = math.floor(distance / r["long_range_step"] + 1e-9)
    if steps:
        return [Modifier(f"long range ({distance:.2f}\")", steps * r["long_range_per_step"], "CW-HIT-02")]
    return []


def _row(arc: str) -> str:
    return arc if arc in ("front", "back") else "side"


def relative_speed(rules: Rules, firer_in_target_arcs: Iterable[str], target_in_firer_arcs: Iterable[str],
                   target_speed: float, firer_speed: float, closing: bool) -> float:
    """CW-HIT-03 (RULING): the speed the bands are read on, from the movement table.

    The row is the target arc the firer stands in, the column the firer arc the
    target stands in; in more than one arc the cell best for the defender (the
    highest speed) is used (CW-ARC-01).
    """
    rm = _table(rules)["relative_movement"]
    t, f = abs(target_speed), abs(firer_speed)
    diff = (t - f) if rm["literal_difference"] else abs(t - f)
    diff = max(diff, 0.0)
    values = {
        "half_target": t / 2,
        "half_difference": diff / 2,
        "target": t,
        "difference": t if closing else diff,
    }
    rows = {_row(a) for a in firer_in_target_arcs} or {"side"}
    cols = {_row(a) for a in target_in_firer_arcs} or {"side"}
    return max(values[rm[r][c]] for r in rows for c in cols)


def speed_band(rules: Rules, speed: float) -> int:
    """CW-HIT-04: the modifier of the band this speed falls in (0 under the first band)."""
    mod = 0
    for lower, value in _table(rules)["speed_bands"]["bands"]:
        if speed >= lower:
            mod = value
    return mod


def movement_modifiers(rules: Rules, effective_speed: float, target_moving: bool, firer_moving: bool,
                       braced_pedestrian: bool) -> list[Modifier]:
    """CW-HIT-04: speed band on the CW-HIT-03 speed; +1 target still, +1 firer still, +1 braced pedestrian."""
    sb = _table(rules)["speed_bands"]
    out = []
    band = speed_band(rules, effective_speed)
    if band:
        out.append(Modifier(f"relative speed {effective_speed:g} mph", band, "CW-HIT-04"))
    if not target_moving:
        out.append(Modifier("target not moving", sb["target_not_moving"], "CW-HIT-04"))
    if not firer_moving:
        out.append(Modifier("firer not moving", sb["firer_not_moving"], "CW-HIT-04"))
    if braced_pedestrian:
        out.append(Modifier("pedestrian braced on a solid object", sb["pedestrian_braced"], "CW-HIT-04"))
    return out


def target_size_modifiers(rules: Rules, size: str, direction: str, *, top: bool = False) -> list[Modifier]:
    """CW-HIT-05 (and CW-TGT-06 for a trike's top): the target's size seen from `direction`.

    `size` is the body's size class (compact, car, cycle, sidecar, *_trike);
    `direction` is "front_back" or "side".
    """
    ts = _table(rules)["target_size"]
    out = []
    if size in ("compact", "car"):
        if size == "compact":
            out.append(Modifier("compact or subcompact target", ts["compact_any_direction"], "CW-HIT-05"))
        if direction == "front_back":
            out.append(Modifier("car seen from front or back", ts["car_front_back"], "CW-HIT-05"))
    elif size in ts:
        value = ts[size][direction]
        if value:
            out.append(Modifier(f"{size.replace('_', ' ')} seen from the {'front or back' if direction == 'front_back' else 'side'}",
                                value, "CW-HIT-05"))
    if top:
        out.append(Modifier("trike top (steep slope)", ts["trike_top"], "CW-TGT-06"))
    return out


def specific_target_modifiers(rules: Rules, kind: str, *, water_depth_ft: float = 0.0) -> list[Modifier]:
    """CW-HIT-06 / CW-TGT-03 / CW-TGT-07: a specific target's modifier.

    `kind` is a key of the specific-target table (tire, turret, rider, sidecar,
    pedestrian, pedestrian_prone, pedestrian_head_up_behind_cover, building,
    lamppost, searchlight, ground). A tire in water over 6" takes -2 more;
    whether a tire can be targeted at all in deeper water is `tire_targetable`.
    """
    st = _table(rules)["specific_target"]
    rule = {"tire": "CW-TGT-03", "turret": "CW-TGT-03", "rider": "CW-TGT-07", "sidecar": "CW-TGT-05"}.get(kind, "CW-HIT-06")
    if kind.startswith("pedestrian"):
        rule = "CW-TGT-07"
    out = [Modifier(kind.replace("_", " "), st[kind], rule)]
    if kind == "tire" and water_depth_ft > st["tire_water_penalty_over_ft"]:
        out.append(Modifier("tire in water over 6 inches deep", st["tire_water_penalty"], "CW-HIT-06"))
    return out


def tire_targetable(rules: Rules, water_depth_ft: float) -> bool:
    """CW-HIT-06: tires cannot be targeted in water over 1 foot deep."""
    return water_depth_ft <= _table(rules)["specific_target"]["tire_water_untargetable_over_ft"]


def cloud_modifier(rules: Rules, crossed: float) -> list[Modifier]:
    """CW-LOF-04: -1 per 1/2" of smoke or paint on the line to the aim point, rounded up."""
    vis = _table(rules)["visibility"]
    if crossed <= 1e-9:
        return []
    halves = math.ceil(crossed / vis["cloud_per"] - 1e-9)
    return [Modifier(f"{crossed:.2f}\" of smoke or paint crossed", halves * vis["cloud_penalty"], "CW-LOF-04")]


def visibility_modifiers(rules: Rules, weather: Weather, light: Light, *, rubble: bool = False,
                         blinded: bool = False, paint_on_windows: bool = False) -> list[Modifier]:
    """CW-HIT-07 (RULING): weather and light add; rubble, searchlight and paint on windows."""
    vis = _table(rules)["visibility"]
    out = []
    w = vis["weather"][str(weather)]
    if w:
        out.append(Modifier(str(weather).replace("_", " "), w, "CW-HIT-07"))
    li = vis["light"][str(light)]
    if li:
        out.append(Modifier(str(light), li, "CW-HIT-07"))
    if rubble:
        out.append(Modifier("target in a rubble area", vis["rubble"], "CW-HIT-07"))
    if blinded:
        out.append(Modifier("firer blinded by a searchlight", vis["searchlight_blinded"], "CW-HIT-07"))
    if paint_on_windows:
        out.append(Modifier("paint on the firer's windows", vis["paint_on_windows"], "CW-HIT-07"))
    return out


def firer_modifiers(rules: Rules, *, computer: Computer = Computer.NONE, skill: int = 0, skill_name: str = "gunner",
                    firer_state: CrewState = CrewState.OK, bad_surface: bool = False, hand_weapon: bool = False,
                    automatic: bool = False) -> list[Modifier]:
    """CW-HIT-08: the best computer only (none for hand weapons), skill, a wounded firer's skills -2, firing on
    oil, gravel or a bad road -1. A weapon on automatic is aimed by no one (CW-AUTO-01, SPEC ruling): no firer
    modifier of any kind (computer, skill, wounds); the vehicle's own situation (the bad surface) still counts."""
    fi = _table(rules)["firer"]
    out = []
    if not automatic:
        if computer is not Computer.NONE and not hand_weapon:
            out.append(Modifier(f"{str(computer).replace('_', '-')} computer (best only)", fi["computer"][str(computer)], "CW-HIT-08"))
        if skill:
            out.append(Modifier(f"{skill_name} skill", skill, "CW-HIT-08"))
        if firer_state is CrewState.WOUNDED:
            out.append(Modifier("wounded firer", fi["wounded_skill"], "CW-HIT-08"))
    if bad_surface:
        out.append(Modifier("firing on oil, gravel or a bad road", fi["bad_surface"], "CW-HIT-08"))
    return out


def sustained_fire_modifiers(rules: Rules, consecutive: int, *, automatic: bool = False) -> list[Modifier]:
    """CW-HIT-09: the 2nd consecutive turn's shot at the same target with the same weapon +1,
    the 3rd and later +2; never on automatic. `consecutive` counts this shot."""
    sf = _table(rules)["sustained_fire"]
    if automatic or consecutive < 2:
        return []
    value = sf["second"] if consecutive == 2 else sf["third_and_later"]
    return [Modifier(f"sustained fire (shot {consecutive} in a row)", value, "CW-HIT-09")]


def handling_modifiers(rules: Rules, handling: str | None, difficulty: int) -> list[Modifier]:
    """CW-HIT-10: the firer's skid or fishtail this turn, and a maneuver or hazard this phase (-D)."""
    out = []
    if handling:
        out.append(Modifier(handling.replace("_", " "), _table(rules)["handling"][handling], "CW-HIT-10"))
    if difficulty:
        out.append(Modifier(f"maneuver or hazard D{difficulty} this phase", -difficulty, "CW-HIT-10"))
    return out


def ground_shot_modifiers(rules: Rules, target_speed: float, firer_speed: float) -> list[Modifier]:
    """CW-HIT-11: a burst or ground shot: the ground bonus plus the speed modifiers of both vehicles."""
    out = [Modifier("ground", _table(rules)["specific_target"]["ground"], "CW-HIT-11")]
    for who, speed in (("target", target_speed), ("firer", firer_speed)):
        band = speed_band(rules, abs(speed))
        if band:
            out.append(Modifier(f"{who} speed {abs(speed):g} mph", band, "CW-HIT-11"))
    return out


def wrong_arc_modifiers(rules: Rules, side: Side, firer_arcs: Iterable[str]) -> list[Modifier]:
    """CW-TGT-01: a facing side whose arc does not contain the firer costs -2."""
    if side in (Side.TOP, Side.UNDERBODY) or str(side) in set(firer_arcs):
        return []
    return [Modifier(f"firer not in the {side} arc", _table(rules)["targeting"]["wrong_arc"], "CW-TGT-01")]


def needed_to_hit(base: int, modifiers: Iterable[Modifier]) -> int:
    """CW-HIT-01: the weapon's to-hit number minus the sum of all modifiers."""
    return base - sum(m.value for m in modifiers)


def hit_probability(rules: Rules, needed: int, possible: bool = True) -> Fraction:
    """CW-HIT-01: exact P(hit): 2d6 meets or beats `needed`, a natural 2 always misses."""
    t = _table(rules)["to_hit"]
    if not possible or needed > t["max_needed"]:
        return Fraction(0)
    return at_least(_TWO_D6.distribution(), max(needed, t["natural_miss"] + 1))


def is_hit(rules: Rules, roll: int, needed: int, possible: bool = True) -> bool:
    """CW-HIT-01: meet or beat the number; a natural 2 misses; over 12 needed never hits."""
    t = _table(rules)["to_hit"]
    return possible and roll != t["natural_miss"] and needed <= t["max_needed"] and roll >= needed


def roll_to_hit(dice: DiceSource, why: str, read: Callable[[int], Hashable] | None = None) -> DiceRolled:
    """Roll 2d6 for a to-hit attempt (the roll is made even when no hit is possible).

    `read(total)` says what the caller reads of the total (hit or miss): the exact enumerator then
    branches over those classes instead of every total (a chance point, `hardpoint.dice.Roll`)."""
    if read is None:
        return dice.roll(_TWO_D6, why, "CW-HIT-01")
    roll, _ = chance(dice, Roll(_TWO_D6, why, "CW-HIT-01", key=read))
    return roll
