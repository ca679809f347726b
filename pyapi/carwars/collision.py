"""Car Wars collisions (CW-COL-01..04): damage spread over a side's exposed components.

Unlike weapon fire, collision damage is split evenly across the outermost
layer of the side hit and reaches the next layer only with what that layer
cannot absorb (RULING: a destroyed component's share is split again among the
survivors, so a layer passes on exactly what exceeds its remaining DP).
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Sequence

from ..data import Rules
from ..dice import DiceExpr, DiceSource, parse_dice
from ..events import DamageApplied
from .damage import Ledger, PowerPlant, _location_items, _weapons_on, damage_component, random_pick
from .enums import Mount, Side
from .model import CrewMember, Vehicle

__all__ = ["ram_dice", "weight_factor", "collision_hits", "collision_split", "metal_armour_absorb", "collision_damage",
           "jump_out_dice", "offroad_roll"]


def ram_dice(rules: Rules, speed: float) -> DiceExpr | None:
    """CW-COL-04: collision damage dice by speed (data table; RULING: source in docs/rulings.md)."""
    t = rules["carwars.collisions"]
    speed = abs(speed)
    if speed <= 0:
        return None
    step = t["speed_step"]
    speed = math.ceil(speed / step - 1e-9) * step
    for upper, dice in t["ram"]:
        if speed <= upper:
            return parse_dice(dice)
    last_upper = t["ram"][-1][0]
    count = 1 + int((speed - last_upper) // step) * t["dice_per_5_mph_above"]
    return parse_dice(f"{count}d")


def weight_factor(rules: Rules, weight_lb: float | None, pedestrian: bool = False) -> Fraction:
    """CW-COL-04: the damage multiplier for the weight of what does the hitting (1 for a fixed barrier)."""
    t = rules["carwars.collisions"]
    if pedestrian:
        return Fraction(t["pedestrian_factor"]).limit_denominator(1000)
    if weight_lb is None:
        return Fraction(1)
    for upper, factor in t["weight_classes"]:
        if weight_lb <= upper:
            return Fraction(factor).limit_denominator(1000)
    return Fraction(math.ceil(weight_lb / t["weight_classes"][-1][0]) - 1)


def collision_hits(rules: Rules, dice: DiceSource, speed: float, ledger: Ledger, weight_lb: float | None = None,
                   pedestrian: bool = False) -> int:
    """Roll a collision's damage (CW-COL-04) and apply the weight factor, rounding up."""
    expr = ram_dice(rules, speed)
    if expr is None:
        return 0
    r = dice.roll(expr, f"collision damage at {abs(speed):g} mph", "CW-COL-04")
    ledger.events.append(r)
    factor = weight_factor(rules, weight_lb, pedestrian)
    return math.ceil(r.total * factor)


def _capacity(comp: object) -> int:
    if isinstance(comp, CrewMember):
        return comp.body_armour + max(0, 3 - comp.hits)
    return comp.dp  # type: ignore[attr-defined]


def collision_split(vehicle: Vehicle, layer: Sequence[object], hits: int, dice: DiceSource, ledger: Ledger, what: str) -> int:
    """CW-COL-01: split hits evenly among a layer's components; the remainder goes one point at a time
    to randomly chosen distinct components (3 hits on two weapons: 2 and 1). What a component cannot
    absorb is split again among the layer's survivors; the layer returns what exceeds its DP."""
    remaining = hits
    alive = [c for c in layer if _capacity(c) > 0]
    while remaining > 0 and alive:
        n = len(alive)
        share, extra = divmod(remaining, n)
        bonus: set[int] = set()
        pool = list(range(n))
        for _ in range(extra):
            pick = pool.pop(random_pick(dice, len(pool), f"which {what} takes an extra point", ledger, "CW-COL-01"))
            bonus.add(pick)
        overflow = 0
        for i, comp in enumerate(alive):
            give = share + (1 if i in bonus else 0)
            if give:
                overflow += damage_component(vehicle, comp, give, ledger, "CW-COL-01")  # type: ignore[arg-type]
        remaining = overflow
        alive = [c for c in alive if _capacity(c) > 0]
    return remaining


def metal_armour_absorb(rules: Rules, vehicle: Vehicle, side: Side, hits: int, ledger: Ledger) -> int:
    """CW-COL-02: metal armour stops up to 3x its value, losing 1 point per 3 absorbed (rounded up), but
    never more than half the side's armour (rounded up). Seed: 8 metal, 29 damage: 24 stopped, 5 inward, 4 left."""
    t = rules["carwars.collisions"]
    before = vehicle.armour[side]
    absorbed = min(hits, t["metal_armour_factor"] * before)
    loss = min(math.ceil(absorbed / t["metal_armour_factor"]), math.ceil(before * t["metal_loss_cap_fraction"]))
    if absorbed:
        vehicle.armour[side] = before - loss
        ledger.absorbed += absorbed
        ledger.events.append(DamageApplied(vehicle.id, f"{side} metal armour", absorbed, before, before - loss, "CW-COL-02"))
    return hits - absorbed


def _armour_layer(rules: Rules, vehicle: Vehicle, side: Side, hits: int, dice: DiceSource, ledger: Ledger) -> int:
    if vehicle.metal_armour:
        return metal_armour_absorb(rules, vehicle, side, hits, ledger)
    from .damage import damage_armour

    return damage_armour(vehicle, side, hits, ledger)


def collision_damage(rules: Rules, vehicle: Vehicle, side: Side, hits: int, dice: DiceSource, ledger: Ledger | None = None) -> Ledger:
    """CW-COL-03: collision damage to one side, layer by layer.

    Front or back: armour, that side's weapons, each internal location's items
    in turn, the far weapons, the far armour. A side: armour, its weapons, then
    split among the internal locations and each location's share among its
    items (an empty or destroyed location passes its share to the far side),
    then the far weapons and armour. Top or underbody: armour, the interior
    (power plant, crew, cargo as one layer), turret weapons, the far armour.
    """
    ledger = ledger or Ledger(vehicle.id)
    ledger.dealt += hits
    far = side.opposite
    hits = _armour_layer(rules, vehicle, side, hits, dice, ledger)
    if side in (Side.TOP, Side.UNDERBODY):
        turret = _weapons_on(vehicle, Mount.TURRET)
        interior: list[object] = ([PowerPlant(vehicle)] if vehicle.power_plant is not None else []) + list(vehicle.crew) + list(vehicle.cargo)
        layers = [interior, turret] if side is Side.UNDERBODY else [turret, interior]
        for layer, name in zip(layers, ("component", "turret weapon") if side is Side.UNDERBODY else ("turret weapon", "component")):
            hits = collision_split(vehicle, layer, hits, dice, ledger, name)
    else:
        hits = collision_split(vehicle, _weapons_on(vehicle, Mount(int(side))), hits, dice, ledger, f"{side} weapon")
        if side.is_end:
            order = vehicle.layout if side is Side.FRONT else tuple(reversed(vehicle.layout))
            for loc in order:
                hits = collision_split(vehicle, _location_items(vehicle, loc), hits, dice, ledger, f"{loc} item")
        elif hits > 0 and vehicle.layout:
            hits = _split_locations(vehicle, hits, dice, ledger)
        hits = collision_split(vehicle, _weapons_on(vehicle, Mount(int(far))), hits, dice, ledger, f"{far} weapon")
    hits = _armour_layer(rules, vehicle, far, hits, dice, ledger)
    ledger.pass_out(hits, "pass out of the far side", "CW-COL-03")
    return ledger


def _split_locations(vehicle: Vehicle, hits: int, dice: DiceSource, ledger: Ledger) -> int:
    """CW-COL-03: a side collision splits the interior damage among the locations first."""
    locs = list(vehicle.layout)
    share, extra = divmod(hits, len(locs))
    bonus: set[int] = set()
    pool = list(range(len(locs)))
    for _ in range(extra):
        bonus.add(pool.pop(random_pick(dice, len(pool), "which internal location takes an extra point", ledger, "CW-COL-03")))
    through = 0
    for i, loc in enumerate(locs):
        give = share + (1 if i in bonus else 0)
        if give:
            through += collision_split(vehicle, _location_items(vehicle, loc), give, dice, ledger, f"{loc} item")
    return through


def jump_out_dice(rules: Rules, speed: float, off_road: bool = True) -> DiceExpr | None:
    """CW-COL-04: jumping out: as a sideswipe at the speed he hits the ground, 30 mph less off-road (RULING: on the
    road, the vehicle's full speed; the seed gives only the off-road reduction)."""
    cut = rules["carwars.collisions"]["jump_speed_reduction"] if off_road else 0.0
    return ram_dice(rules, max(0.0, abs(speed) - cut))


def offroad_roll(rules: Rules, vehicle: Vehicle, sides: Sequence[Side], dice: DiceSource) -> Ledger:
    """CW-COL-04: a vehicle rolling off-road: each side that hits the ground takes 1d-2 (not 1d), tires 1d-2."""
    expr = parse_dice(rules["carwars.collisions"]["offroad_roll_damage"])
    ledger = Ledger(vehicle.id)
    for side in sides:
        r = dice.roll(expr, f"off-road roll: {side} hits the ground", "CW-COL-04")
        ledger.events.append(r)
        collision_damage(rules, vehicle, side, r.total, dice, ledger)
    for tire in vehicle.tires:
        r = dice.roll(expr, f"off-road roll: tire {tire.id}", "CW-COL-04")
        ledger.events.append(r)
        ledger.dealt += r.total
        rest = damage_component(vehicle, tire, r.total, ledger, "CW-COL-04")
        ledger.pass_out(rest, f"left over after tire {tire.id}: lost", "CW-COL-04")
    return ledger
