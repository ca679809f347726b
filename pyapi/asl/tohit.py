"""The To Hit table (C3) and the D15 To Hit DRM (ASL-TGT-01).

A To Hit DR hits when DR + DRM is at or under the modified To Hit number, so
the Original DR that still hits is the To Hit number minus the DRM.
"""
from __future__ import annotations

from fractions import Fraction
from functools import cache

from ..data import Rules
from ..dice import parse_dice
from ..errors import RuleViolation, ScenarioError
from ..events import Modifier
from .enums import FirerRow, TargetType
from .events import ToHitBreakdown
from .morale import is_motorcyclist
from .motorcycles import case_j_applies
from .tables import tohit_table
from .units import Infantry, Situation

__all__ = ["to_hit_number", "to_hit_drm", "to_hit_breakdown", "hit_probability", "check_target_type"]


def to_hit_number(rules: Rules, target_type: TargetType, firer: FirerRow, range_hexes: int) -> int:
    """C3: the basic To Hit number by target type, firer (German or other; area: any) and range band."""
    t = tohit_table(rules)
    if range_hexes < 0:
        raise ScenarioError("range must be 0 or more hexes", field="fire.range", value=range_hexes, rule="C3")
    row = FirerRow.ANY if target_type is TargetType.AREA else firer
    if (target_type, row) not in t.basic:
        raise ScenarioError(f"no To Hit row for {target_type} fired on by {row}", field="fire.firer_row", value=str(firer), rule="C3")
    return t.basic[(target_type, row)][t.band(range_hexes)]


def to_hit_drm(rules: Rules, situation: Situation, unit: Infantry, extra: tuple[Modifier, ...] = ()) -> tuple[Modifier, ...]:
    """ASL-TGT-01 (D15.5): a mounted motorcyclist is an Infantry target with no Target Size DRM, -1
    To Hit vs ordnance, and subject to vehicular To Hit DRM: Case J +2 when the motorcycle is moving
    or in Motion. ASL-BIC-02 (D15.85): a mounted bicyclist -1 (a bicycle is no vehicle: no Case J).
    `extra` are the declaration's own DRM."""
    t = tohit_table(rules)
    mods: list[Modifier] = []
    machine = situation.mount_of(unit.id)
    if machine is not None:
        if machine.is_bicycle:
            mods.append(Modifier("mounted bicyclist", t.mounted_bicyclist, "ASL-BIC-02"))
        else:
            if case_j_applies(machine):
                mods.append(Modifier(f"Case J: {machine.id} {machine.motion}", t.case_j, "ASL-TGT-01"))
            mods.append(Modifier("mounted motorcyclist", t.mounted_motorcyclist, "ASL-TGT-01"))
    mods.extend(extra)
    return tuple(mods)


def check_target_type(rules: Rules, situation: Situation, target_hex: str, target_type: TargetType, field: str) -> None:
    """ASL-TGT-01 (D15.5), C3: ordnance fired at a Location holding a mounted motorcyclist uses the
    Infantry Target Type (`target_type.vs_motorcyclists` in seeds/asl/tohit.toml; a house rule may
    add Area); elsewhere the Infantry or Area Target Type. The Vehicle Target Type has no target:
    the engine's units are Infantry, and a motorcycle is never fired on itself."""
    riders = [u.id for u in situation.units_in(target_hex) if is_motorcyclist(situation, u)]
    if riders and target_type not in tohit_table(rules).vs_motorcyclists:
        raise RuleViolation(f"mounted motorcyclists ({', '.join(riders)}) in {target_hex} are fired on as an Infantry target type",
                            field=field, value=str(target_type), rule="ASL-TGT-01")
    if target_type is TargetType.VEHICLE:
        raise RuleViolation(f"no vehicle in {target_hex} to fire on with the Vehicle target type; use infantry or area",
                            field=field, value=str(target_type), rule="C3")


@cache
def hit_probability(needed: int) -> Fraction:
    """P(Original DR <= needed)."""
    return sum((p for v, p in parse_dice("DR").distribution().items() if v <= needed), Fraction(0))


def to_hit_breakdown(rules: Rules, situation: Situation, attack: str, unit: Infantry, target_type: TargetType, firer: FirerRow,
                     range_hexes: int, extra: tuple[Modifier, ...] = ()) -> ToHitBreakdown:
    """LOG-02 for ordnance: the basic number, every DRM with its rule, the highest Original DR that
    hits, and its exact probability (C3, ASL-TGT-01)."""
    base = to_hit_number(rules, target_type, firer, range_hexes)
    mods = to_hit_drm(rules, situation, unit, extra)
    needed = base - sum(m.value for m in mods)
    return ToHitBreakdown(attack, unit.id, str(target_type), range_hexes, str(firer), base, mods, needed, hit_probability(needed))
