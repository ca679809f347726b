"""Car Wars off-road travel, terrain, water and movable obstacles (CW-OFF-01..04, CW-OBS-01).

Every figure comes from `rules["carwars.terrain"]` (seeds/carwars/terrain.toml);
the functions here hold the procedures. Functions that roll take the dice
source; functions that damage a vehicle do it through `damage.Ledger` so the
books balance (points dealt = absorbed + lost). Where a signature has no
`rules` first, `rules` is an optional keyword and defaults to the shipped
tables.

Choices the seed leaves open are documented in docs/rulings.md ("Off-road and
terrain") and are data wherever they are numbers.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from ..data import Rules, default_rules
from ..dice import DiceSource, parse_dice
from ..errors import RuleViolation, ScenarioError
from ..events import DamageApplied, Event, Note, StateChanged
from .damage import Ledger, damage_armour, damage_component, random_pick
from .enums import Side
from .dropped import intersects, oil_extra_difficulty, swept_polygon
from .model import Arena, Tire, Vehicle

__all__ = [
    "terrain_table",
    # CW-OFF-01
    "offroad_maneuver_difficulty", "offroad_crash_modifier", "offroad_handling_class",
    "tire_handling_bonus_applies", "is_offroad_tire",
    # CW-OFF-02
    "offroad_rolls", "check_offroad_suspension", "offroad_damage",
    # CW-OFF-03
    "TerrainFeature", "terrain_feature", "boulder", "BarrierOutcome", "barrier_collision", "DitchEffect", "ditch_effect",
    # CW-SEED-03
    "on_ditches", "ditch_hazards",
    # CW-OFF-04
    "on_obstacles", "obstacle_hazards", "gully_hazards", "water_depth_limit", "water_hazard_difficulty", "water_deceleration", "water_maneuver_allowed",
    "WaterCrossing", "water_crossing",
    # CW-OBS-01
    "Carrier",
]

TABLE = "carwars.terrain"
_EPS = 1e-9


# --- the table ------------------------------------------------------------------------

def _validate_terrain(name: str, t: dict) -> None:
    """The table's schema and checks live with the other Car Wars tables' (`table_schemas`)."""
    from .table_schemas import validate_table

    validate_table(name, t)


@cache
def _checked(rules: Rules) -> dict:
    t = rules[TABLE]
    _validate_terrain(TABLE, t)
    return t


def terrain_table(rules: Rules | None = None) -> dict:
    """The validated `carwars.terrain` table (validated once per Rules object)."""
    return _checked(default_rules() if rules is None else rules)


def _int_arg(value: Any, name: str, rule: str, minimum: int | None = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or (minimum is not None and value < minimum):
        raise ScenarioError(f"expected an integer{'' if minimum is None else f' >= {minimum}'}", field=name, value=value, rule=rule)
    return value


def _num_arg(value: Any, name: str, rule: str, positive: bool = False) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or math.isnan(value) or value < 0 or (positive and value == 0):
        raise ScenarioError(f"expected a {'positive' if positive else 'non-negative'} number", field=name, value=value, rule=rule)
    return float(value)


def _in(band: list[int], value: int) -> bool:
    return band[0] <= value <= band[1]


# --- CW-OFF-01: driving off-road ---------------------------------------------------------

def offroad_maneuver_difficulty(base_d: int, *, hazard: bool = False, rules: Rules | None = None) -> int:
    """CW-OFF-01: off-road, a maneuver is +D1 harder; a hazard's difficulty is unchanged."""
    base_d = _int_arg(base_d, "base_d", "CW-OFF-01", minimum=None)
    return base_d if hazard else base_d + terrain_table(rules)["offroad"]["maneuver_extra_d"]


def offroad_crash_modifier(rules: Rules | None = None) -> int:
    """CW-OFF-01: the modifier of every Crash Table roll made off-road (-3)."""
    return terrain_table(rules)["offroad"]["crash_modifier"]


def offroad_handling_class(vehicle: Vehicle, base_hc: int, modified: bool, rules: Rules | None = None) -> int:
    """CW-OFF-01: the handling class off-road. A vehicle without off-road modifications loses
    2 (cycle, with or without sidecar), 1 (trike) or 3 (car); a modified one keeps its HC.
    What counts as "modified" is the caller's statement (the seed does not list it)."""
    base_hc = _int_arg(base_hc, "base_hc", "CW-OFF-01", minimum=None)
    if modified:
        return base_hc
    return base_hc + terrain_table(rules)["offroad"]["handling"][vehicle.kind]


def tire_handling_bonus_applies(tire_type: str, off_road: bool, rules: Rules | None = None) -> bool:
    """CW-OFF-01: whether a tire type's handling bonus counts: radial tires' bonus is void off-road."""
    return not (off_road and tire_type in terrain_table(rules)["offroad"]["bonus_void_tire_types"])


def is_offroad_tire(tire: Tire | str, rules: Rules | None = None) -> bool:
    """CW-OFF-01: whether a tire (or tire type) is a special off-road tire (type "off_road")."""
    ttype = tire.type if isinstance(tire, Tire) else tire
    return ttype in terrain_table(rules)["offroad"]["off_road_tire_types"]


# --- CW-OFF-02: off-road damage ------------------------------------------------------------

def offroad_rolls(speed_mph: float, rules: Rules | None = None) -> int:
    """CW-OFF-02: damage rolls a turn off-road: none at 10 mph or less, 1 above 10, 2 over 30,
    3 over 50 and one more per further 20 mph (SPEC RULING): 71 mph rolls 4 times."""
    t = terrain_table(rules)["damage"]
    s = abs(float(speed_mph))
    if s <= t["first_roll_above_mph"] + _EPS:
        return 0
    if s <= t["second_roll_above_mph"] + _EPS:
        return 1
    return 1 + math.ceil((s - t["second_roll_above_mph"]) / t["extra_roll_step_mph"] - _EPS)


def _wheel_count(vehicle: Vehicle) -> int:
    return len(vehicle.tires) + (1 if vehicle.sidecar is not None else 0)


def check_offroad_suspension(vehicle: Vehicle, off_road_suspension: bool, rules: Rules | None = None) -> None:
    """CW-OFF-02: off-road suspension exists only for 4- and 6-wheeled vehicles (never a cycle or trike)."""
    if not isinstance(off_road_suspension, bool):
        raise ScenarioError("expected true or false", field="off_road_suspension", value=off_road_suspension, rule="CW-OFF-02")
    allowed = terrain_table(rules)["damage"]["suspension_wheel_counts"]
    n = _wheel_count(vehicle)
    if off_road_suspension and n not in allowed:
        raise RuleViolation(
            f"vehicle {vehicle.id!r} is a {vehicle.kind} with {n} wheels: off-road suspension exists only for "
            f"{' and '.join(str(x) for x in allowed)}-wheeled vehicles",
            field="off_road_suspension", value=True, rule="CW-OFF-02")


def _all_tires(vehicle: Vehicle) -> list[Tire]:
    return [*vehicle.tires, *([vehicle.sidecar.tire] if vehicle.sidecar is not None else [])]


def offroad_damage(rules: Rules, vehicle: Vehicle, dice: DiceSource, off_road_suspension: bool) -> tuple[list[Event], Ledger]:
    """CW-OFF-02: start of a turn off-road above 10 mph: `offroad_rolls` rolls of 2d6 each;
    2-3 the underbody takes 1 point, 4-5 one tire picked at random (every wheel, the
    sidecar's included, uniform with `random_pick`) takes 1 point.

    Solid and off-road tires take none of it (the pick is still made). Off-road
    suspension, cycles and trikes take no underbody damage, but still roll for the
    tires (SPEC RULING). Once the underbody armour is gone the point is lost:
    internal components take no off-road damage; a point on a destroyed tire is
    lost too. Refused before any roll if the vehicle cannot have the suspension.
    Returns the events and the ledger (dealt = absorbed + lost).
    """
    check_offroad_suspension(vehicle, off_road_suspension, rules)
    t = terrain_table(rules)["damage"]
    rule = "CW-OFF-02"
    ledger = Ledger(vehicle.id)
    n = offroad_rolls(vehicle.speed, rules)
    ledger.note(f"{vehicle.id} off-road at {abs(vehicle.speed):g} mph: {n} damage roll(s)", rule)
    expr = parse_dice(t["dice"])
    points = t["points"]
    high = off_road_suspension or vehicle.kind in t["no_underbody_kinds"]
    tires = _all_tires(vehicle)
    for i in range(n):
        r = dice.roll(expr, f"off-road damage, roll {i + 1} of {n}", rule)
        ledger.events.append(r)
        if _in(t["underbody"], r.total):
            if high:
                why = "off-road suspension" if off_road_suspension else f"a {vehicle.kind}"
                ledger.note(f"underbody result, but {why} rides high: no underbody damage", rule)
                continue
            ledger.dealt += points
            rest = damage_armour(vehicle, Side.UNDERBODY, points, ledger)
            ledger.pass_out(rest, "lost: the underbody armour is gone and internal components take no off-road damage", rule)
        elif _in(t["tire"], r.total) and tires:
            tire = tires[random_pick(dice, len(tires), "which tire takes off-road damage", ledger, rule)]
            if tire.type in t["immune_tire_types"]:
                ledger.note(f"tire {tire.id} is {tire.type}: no off-road damage", rule)
                continue
            ledger.dealt += points
            if tire.dp <= 0:
                ledger.pass_out(points, f"lost: tire {tire.id} is already destroyed", rule)
                continue
            rest = damage_component(vehicle, tire, points, ledger, rule)
            ledger.pass_out(rest, f"lost: left over after tire {tire.id}", rule)
    return list(ledger.events), ledger


# --- CW-OFF-03: terrain features, barriers, ditches ------------------------------------------

@dataclass(frozen=True)
class TerrainFeature:
    """A piece of off-road terrain (CW-OFF-03): open ground, a hazard of `difficulty` D,
    a fixed barrier of `dp` DP (shoved aside rather than broken, for boulders), or an obstacle."""

    name: str
    kind: str                  # open | hazard | fixed_barrier | obstacle
    difficulty: int = 0        # hazard D (0 for none)
    dp: int | None = None      # fixed barriers
    shoved_aside: bool = False
    rule: str = "CW-OFF-03"


def terrain_feature(name: str, *, difficulty: int | None = None, dp: int | None = None, diameter_ft: float | None = None,
                    rules: Rules | None = None) -> TerrainFeature:
    """CW-OFF-03: a terrain feature by name from the data table. Grass and open fields ("open")
    add nothing beyond CW-OFF-01's +D1; small trees are a D2 (our default) or D3 hazard; large
    trees fixed barriers of 8 DP or more (default 14); a boulder needs its `diameter_ft` (see `boulder`)."""
    table = terrain_table(rules)["feature"]
    if name == "rule" or name not in table:
        raise ScenarioError(f"unknown terrain (known: {', '.join(k for k in table if k != 'rule')})", field="terrain", value=name, rule="CW-OFF-03")
    if name == "boulder":
        if diameter_ft is None:
            raise ScenarioError("a boulder needs its size in feet", field="diameter_ft", rule="CW-OFF-03")
        return boulder(diameter_ft, dp, rules=rules)
    row = table[name]
    kind = row["kind"]
    if kind == "hazard":
        choices = row.get("difficulty_choices", [row["difficulty"]])
        d = row["difficulty"] if difficulty is None else difficulty
        if d not in choices:
            raise ScenarioError(f"{name} is a hazard of D{' or D'.join(str(c) for c in choices)}", field="difficulty", value=difficulty, rule="CW-OFF-03")
        return TerrainFeature(name, kind, difficulty=d)
    if kind == "fixed_barrier":
        value = row.get("dp") if dp is None else _int_arg(dp, "dp", "CW-OFF-03", 1)
        if value is None:
            raise ScenarioError(f"{name} needs its DP", field="dp", rule="CW-OFF-03")
        if value < row.get("dp_min", 1):
            raise ScenarioError(f"{name} has at least {row['dp_min']} DP", field="dp", value=dp, rule="CW-OFF-03")
        return TerrainFeature(name, kind, dp=value, shoved_aside=row["shoved_aside"])
    return TerrainFeature(name, kind, difficulty=row.get("difficulty", 0))


def boulder(diameter_ft: float, dp: int | None = None, rules: Rules | None = None) -> TerrainFeature:
    """CW-OFF-03: a boulder by size. Up to about a foot across: an obstacle. Over 1 ft up to 2 ft:
    a fixed barrier of at most 25 DP; larger: more than 25; four feet or more: at least 50.
    Default DP (our ruling): 12.5 per foot, rounded up (2 ft 25, 4 ft 50). Boulders are shoved aside."""
    t = terrain_table(rules)
    b = t["boulder"]
    size = _num_arg(diameter_ft, "diameter_ft", "CW-OFF-03", positive=True)
    if size <= b["obstacle_max_ft"] + _EPS:
        if dp is not None:
            raise ScenarioError("a boulder about a foot across is an obstacle, not a barrier with DP", field="dp", value=dp, rule="CW-OFF-03")
        return TerrainFeature("boulder", "obstacle")
    value = math.ceil(b["dp_per_ft"] * size - _EPS) if dp is None else _int_arg(dp, "dp", "CW-OFF-03", 1)
    if size <= b["small_barrier_max_ft"] + _EPS:
        low, high = 1, b["small_barrier_max_dp"]
    elif size < b["large_ft"] - _EPS:
        low, high = b["small_barrier_max_dp"] + 1, None
    else:
        low, high = b["large_min_dp"], None
    if value < low or (high is not None and value > high):
        span = f"{low} to {high}" if high is not None else f"at least {low}"
        raise ScenarioError(f"a {size:g}-ft boulder has {span} DP", field="dp", value=value, rule="CW-OFF-03")
    shoved = t["feature"]["boulder"]["shoved_aside"]
    return TerrainFeature("boulder", "fixed_barrier", dp=value, shoved_aside=shoved)


@dataclass(frozen=True)
class BarrierOutcome:
    """What a collision did to a fixed barrier (CW-OFF-03): it `stands` with DP left, is
    `broken`, or is `shoved_aside` (knocked out of the way, left whole)."""

    barrier: str
    outcome: str               # stands | broken | shoved_aside
    dp_before: int
    dp_after: int
    damage: int
    events: tuple[Event, ...] = ()
    rule: str = "CW-OFF-03"

    @property
    def in_the_way(self) -> bool:
        return self.outcome == "stands"


def barrier_collision(rules: Rules, barrier_dp: int, damage: int, feature: str = "fixed_barrier",
                      barrier_id: str = "barrier") -> BarrierOutcome:
    """CW-OFF-03: a collision's damage against a fixed barrier. A barrier that breaks
    (a tree, a wall) stands with the rest while the damage is less than its DP and is
    broken by damage of at least its DP. A feature that is shoved aside (a boulder) is
    knocked out of the way, whole, only by MORE than its DP; up to its DP exactly it stands
    in the way with the rest (0 DP left after exactly its DP)."""
    dp = _int_arg(barrier_dp, "barrier_dp", "CW-OFF-03", 1)
    dmg = _int_arg(damage, "damage", "CW-OFF-03", 0)
    table = terrain_table(rules)["feature"]
    row = table.get(feature) if feature != "rule" else None
    if row is None or row["kind"] != "fixed_barrier":
        known = ", ".join(k for k, v in table.items() if k != "rule" and v["kind"] == "fixed_barrier")
        raise ScenarioError(f"not a fixed barrier (known: {known})", field="feature", value=feature, rule="CW-OFF-03")
    if dmg < dp or (row["shoved_aside"] and dmg == dp):
        ev = DamageApplied(barrier_id, feature, dmg, dp, dp - dmg, "CW-OFF-03")
        return BarrierOutcome(barrier_id, "stands", dp, dp - dmg, dmg, (ev,) if dmg else ())
    if row["shoved_aside"]:
        ev2 = StateChanged(barrier_id, "position", "in the way", "shoved aside", "CW-OFF-03")
        return BarrierOutcome(barrier_id, "shoved_aside", dp, dp, dmg, (Note(f"{feature} {barrier_id} takes {dmg} > {dp} DP: knocked out of the way", "CW-OFF-03"), ev2))
    events = (DamageApplied(barrier_id, feature, dp, dp, 0, "CW-OFF-03"), StateChanged(barrier_id, "destroyed", False, True, "CW-OFF-03"))
    return BarrierOutcome(barrier_id, "broken", dp, 0, dmg, events)


@dataclass(frozen=True)
class DitchEffect:
    """Crossing a ditch (CW-OFF-03): a hazard of `hazard_d`, or (`falls_in`) a collision with
    the far wall at the vehicle's full speed (`collision_speed_mph`, damage dice `collision_dice`)."""

    width_ft: float
    speed_mph: float
    hazard_d: int = 0
    falls_in: bool = False
    collision_speed_mph: float | None = None
    collision_dice: str | None = None
    events: tuple[Event, ...] = ()
    rule: str = "CW-OFF-03"

    @property
    def passable(self) -> bool:
        return not self.falls_in


def ditch_effect(width_ft: float, speed_mph: float, rules: Rules | None = None) -> DitchEffect:
    """CW-OFF-03: a ditch under 2 ft across is D3 at 20 mph or less, D1 above. 2 to 4 ft: under
    20 mph the vehicle falls in and hits the far wall at full speed; 20 mph (SPEC RULING) to
    44 mph D3 (our ruling for the seed's 41-44 gap); 45 mph and over D1. Wider: refused
    (RuleViolation), no jumping without a ramp."""
    from .collision import ram_dice

    rules = default_rules() if rules is None else rules
    t = terrain_table(rules)["ditch"]
    width = _num_arg(width_ft, "width_ft", "CW-OFF-03", positive=True)
    speed = abs(float(speed_mph))
    if width < t["small_under_ft"] - _EPS:
        d = t["small_slow_d"] if speed <= t["small_slow_max_mph"] + _EPS else t["small_fast_d"]
        return DitchEffect(width, speed, hazard_d=d, events=(Note(f"ditch {width:g} ft across at {speed:g} mph: D{d} hazard", "CW-OFF-03"),))
    if width > t["medium_max_ft"] + _EPS:
        raise RuleViolation(f"a ditch wider than {t['medium_max_ft']:g} ft cannot be jumped without a ramp",
                            field="width_ft", value=width_ft, rule="CW-OFF-03")
    if speed < t["medium_falls_in_under_mph"] - _EPS:
        expr = ram_dice(rules, speed)
        text = f"ditch {width:g} ft across at {speed:g} mph: the vehicle falls in and hits the far wall at {speed:g} mph"
        return DitchEffect(width, speed, falls_in=True, collision_speed_mph=speed, collision_dice=None if expr is None else str(expr),
                           events=(Note(text, "CW-OFF-03"),))
    d = t["medium_mid_d"] if speed < t["medium_fly_over_from_mph"] - _EPS else t["medium_fast_d"]
    return DitchEffect(width, speed, hazard_d=d, events=(Note(f"ditch {width:g} ft across at {speed:g} mph: D{d} hazard", "CW-OFF-03"),))


def on_ditches(arena: Arena) -> set:
    """CW-SEED-03: the (vehicle, ditch) pairs touching as the scenario starts: a vehicle meets a ditch it stands on
    only once it has left it and comes back (as a counter it stands on, CW-DROP-01)."""
    return {(v.id, d.id) for v in arena.vehicles.values() for d in arena.ditches() if intersects(v.counter.polygon(), d.polygon)}


def ditch_hazards(rules: Rules, arena: Arena, before: dict, crossing: set) -> list[Event]:
    """CW-SEED-03 (CW-OFF-03): a vehicle driving onto a ditch meets it in the phase it first touches it (again if
    it comes back): a hazard by the ditch's width and its speed (`ditch_effect`), +D2 on an oil slick
    (CW-DROP-04); one it falls into has stopped it where it met it (`motion.move_with_contacts`). `crossing`
    holds the pairs in contact last phase."""
    ditches = arena.ditches()
    out: list[Event] = []
    now: set = set()
    for v in arena.vehicles.values():
        area = swept_polygon(before[v.id], v.counter)
        for d in ditches:
            if not intersects(area, d.polygon):
                continue
            key = (v.id, d.id)
            now.add(key)
            if key in crossing or v.in_ditch == d.id:
                continue
            effect = ditch_effect(d.across_ft, v.speed, rules)
            if effect.falls_in:
                continue
            extra = oil_extra_difficulty(rules, arena, v)
            out += [Note(f"{v.id} crosses ditch {d.id}: {e.text}" + (f" (+D{extra} on an oil slick)" if extra else ""), "CW-SEED-03")
                    for e in effect.events]
            v.hazard_difficulty += effect.hazard_d + extra
            v.phase_hazards.append((effect.hazard_d + extra, f"ditch {d.id}"))
    crossing.clear()
    crossing.update(now)
    return out


def gully_hazards(rules: Rules, arena: Arena, before: dict) -> list[Event]:
    """CW-SEED-03 (RULINGS, carwars.terrain [gully]): a dry gully is crossed by driving down one bank and up the
    other: a vehicle whose move this phase takes it onto a gully it did not touch (its counter before the move
    clear of it, its swept area on it) goes down a bank, and one whose move takes it off a gully it touched (its
    counter after the move clear of it) climbs a bank; each bank is a hazard of bank_d (+D2 on an oil slick,
    CW-DROP-04). Both in one phase when it crosses the whole gully in one move."""
    gullies = arena.gullies()
    if not gullies:
        return []
    d = rules["carwars.terrain"]["gully"]["bank_d"]
    out: list[Event] = []
    for v in arena.vehicles.values():
        start, end = before[v.id].polygon(), v.counter.polygon()
        area = swept_polygon(before[v.id], v.counter)
        for g in gullies:
            if not intersects(area, g.polygon):
                continue
            was, now = intersects(start, g.polygon), intersects(end, g.polygon)
            banks = [what for what, met in (("drives down into", not was), ("climbs out of", not now)) if met]
            for what in banks:
                extra = oil_extra_difficulty(rules, arena, v)
                out.append(Note(f"{v.id} {what} gully {g.id}: a D{d + extra} hazard"
                                + (f" (D{d} +D{extra} on an oil slick)" if extra else ""), "CW-SEED-03"))
                v.hazard_difficulty += d + extra
                v.phase_hazards.append((d + extra, f"gully {g.id}"))
    return out


# --- CW-SEED-04: obstacles on the map -----------------------------------------------------------------------------

def on_obstacles(arena: Arena) -> set:
    """CW-SEED-04: the (vehicle, obstacle) pairs touching as the scenario starts, each obstacle's `still_on` set too:
    a vehicle meets an obstacle it stands on only once it has left it and comes back."""
    out = set()
    for ob in arena.obstacles:
        ob.still_on |= {v.id for v in arena.vehicles.values() if intersects(v.counter.polygon(), ob.polygon)}
        out |= {(v, ob.id) for v in ob.still_on}
    return out


def obstacle_hazards(rules: Rules, arena: Arena, before: dict, meeting: set) -> list[Event]:
    """CW-SEED-04 (RULING, seeds/carwars/damage.toml [obstacle]): a vehicle whose move this phase runs onto an
    obstacle meets a hazard (D3, +D2 on an oil slick, CW-DROP-04), in the phase it first touches it; again only
    once it has left it and comes back; one on it when it was placed (`Obstacle.still_on`) meets it only after
    leaving it. `meeting` holds the pairs in contact last phase. The obstacle stays where it is."""
    if not arena.obstacles:
        meeting.clear()
        return []
    d = rules["carwars.damage"]["obstacle"]["hazard"]
    out: list[Event] = []
    now: set = set()
    for v in arena.vehicles.values():
        area = swept_polygon(before[v.id], v.counter)
        for ob in arena.obstacles:
            hit = intersects(area, ob.polygon)
            if v.id in ob.still_on:
                if not hit:
                    ob.still_on.discard(v.id)
                continue
            if not hit:
                continue
            key = (v.id, ob.id)
            now.add(key)
            if key in meeting or d <= 0:
                continue
            extra = oil_extra_difficulty(rules, arena, v)
            out.append(Note(f"{v.id} runs onto obstacle {ob.id}: a D{d + extra} hazard"
                            + (f" (D{d} +D{extra} on an oil slick)" if extra else ""), "CW-SEED-04"))
            v.hazard_difficulty += d + extra
            v.phase_hazards.append((d + extra, f"obstacle {ob.id}"))
    meeting.clear()
    meeting.update(now)
    return out


# --- CW-OFF-04: water --------------------------------------------------------------------------

def water_depth_limit(off_road_suspension: bool, rules: Rules | None = None) -> float:
    """CW-OFF-04: the deepest water a vehicle crosses: 1.5 ft, or 3 ft with off-road suspension."""
    w = terrain_table(rules)["water"]
    return float(w["suspension_depth_limit_ft"] if off_road_suspension else w["depth_limit_ft"])


def water_hazard_difficulty(depth_ft: float, rules: Rules | None = None) -> int:
    """CW-OFF-04: hitting standing water deeper than 1/2 ft is a D2 hazard (0: no hazard)."""
    w = terrain_table(rules)["water"]
    depth = _num_arg(depth_ft, "depth_ft", "CW-OFF-04")
    return w["hazard_d"] if depth > w["hazard_over_ft"] + _EPS else 0


def water_deceleration(depth_ft: float, off_road_suspension: bool, rules: Rules | None = None) -> int:
    """CW-OFF-04: mph lost each turn in water: 5 per full 1/2 ft of depth (our ruling: part of a
    1/2 ft does not count); with off-road suspension only the depth over 1.5 ft counts."""
    w = terrain_table(rules)["water"]
    depth = _num_arg(depth_ft, "depth_ft", "CW-OFF-04")
    if off_road_suspension:
        depth = max(0.0, depth - w["suspension_decel_free_ft"])
    return int(math.floor(depth / w["decel_step_ft"] + _EPS)) * w["decel_mph"]


def water_maneuver_allowed(original_difficulty: int, rules: Rules | None = None, *, strict: bool = True) -> bool:
    """CW-OFF-04: in water no maneuver of original (unmodified) difficulty over D3 can be made;
    the others take no extra penalty. `strict` (the default) raises RuleViolation for a
    forbidden maneuver; `strict=False` only answers."""
    d = _int_arg(original_difficulty, "original_difficulty", "CW-OFF-04", minimum=None)
    limit = terrain_table(rules)["water"]["max_maneuver_d"]
    if d <= limit:
        return True
    if strict:
        raise RuleViolation(f"a maneuver of original difficulty D{d} is impossible in water (at most D{limit})",
                            field="original_difficulty", value=d, rule="CW-OFF-04")
    return False


@dataclass(frozen=True)
class WaterCrossing:
    """A vehicle in water (CW-OFF-04). `drowned`: the engine stops as if the power plant were
    destroyed, with no damage, and works again `dry_out_hours` after leaving the water."""

    vehicle: str
    depth_ft: float
    depth_limit_ft: float
    drowned: bool
    dry_out_hours: int | None
    hazard_d: int
    deceleration_mph: int
    events: tuple[Event, ...] = ()
    rule: str = "CW-OFF-04"

    @property
    def power_plant_working(self) -> bool:
        return not self.drowned


def water_crossing(vehicle: Vehicle, depth_ft: float, off_road_suspension: bool, dice: DiceSource,
                   rules: Rules | None = None, *, entering: bool = True) -> WaterCrossing:
    """CW-OFF-04: a vehicle in water `depth_ft` deep. Deeper than it can cross (1.5 ft; 3 ft with
    off-road suspension) its engine drowns: the power plant stops working but takes no damage
    (its DP are untouched) and dries out 1d hours after leaving the water (rolled now and
    reported). Entering water over 1/2 ft is a D2 hazard; the deceleration is reported each turn.

    Nothing in the vehicle changes: the drowned state is reported as a StateChanged event
    for the caller's state (the model has no field for it)."""
    rules = default_rules() if rules is None else rules
    check_offroad_suspension(vehicle, off_road_suspension, rules)
    depth = _num_arg(depth_ft, "depth_ft", "CW-OFF-04")
    w = terrain_table(rules)["water"]
    limit = water_depth_limit(off_road_suspension, rules)
    hazard = water_hazard_difficulty(depth, rules) if entering else 0
    decel = water_deceleration(depth, off_road_suspension, rules)
    events: list[Event] = []
    if hazard:
        events.append(Note(f"{vehicle.id} hits standing water {depth:g} ft deep: D{hazard} hazard", "CW-OFF-04"))
    hours = None
    drowned = depth > limit + _EPS
    if drowned:
        r = dice.roll(parse_dice(w["dry_out"]), f"{vehicle.id}: hours for the drowned engine to dry out", "CW-OFF-04")
        hours = r.total
        events += [
            StateChanged(f"{vehicle.id} power plant", "working", True, False, "CW-OFF-04"),
            r,
            Note(f"{vehicle.id} drowns out in {depth:g} ft of water (limit {limit:g} ft): the power plant stops without "
                 f"damage and dries out {hours} hour(s) after the vehicle leaves the water", "CW-OFF-04"),
        ]
    if decel:
        events.append(Note(f"{vehicle.id} in {depth:g} ft of water: -{decel} mph this turn", "CW-OFF-04"))
    return WaterCrossing(vehicle.id, depth, limit, drowned, hours, hazard, decel, tuple(events))


# --- CW-OBS-01: pedestrians carrying movable obstacles ----------------------------------------

@dataclass(frozen=True)
class Carrier:
    """A pedestrian and the movable obstacle it handles (CW-OBS-01), as a small state machine.

    Status in a turn: `free` (moves one square a phase, may fire), `picking_up` (the whole
    turn of the pick-up: no move, no fire), `carrying` (one square a turn, no weapon),
    `dropping` (the whole turn of the drop: no move, no fire), then `free`. One square is
    1/4 inch (`[pedestrian] square_in`). Each action returns the new Carrier and its
    events; an illegal one raises RuleViolation naming CW-OBS-01 and changes nothing
    (the Carrier is immutable). Where the pedestrian and the obstacle stand is the
    caller's business.
    """

    pedestrian: str
    obstacle: str | None = None            # the obstacle in hand (being picked up, carried or dropped)
    action: str | None = None              # pick_up | drop: the last whole-turn action
    action_turn: int | None = None         # the first turn of that action
    clock: tuple[int, int] = (0, 0)        # (turn, phase) of the last action or move
    moved_turn: int = 0                    # squares moved in clock's turn
    moved_phase: int = 0                   # squares moved in clock's phase

    # -- inspection --------------------------------------------------------------------------
    def status(self, turn: int, rules: Rules | None = None) -> str:
        """free | picking_up | carrying | dropping, in `turn`."""
        if self.action is None or self.action_turn is None:
            return "free"
        ped = terrain_table(rules)["pedestrian"]
        if self.action == "pick_up":
            return "picking_up" if turn < self.action_turn + ped["pick_up_turns"] else "carrying"
        return "dropping" if turn < self.action_turn + ped["drop_turns"] else "free"

    def holding(self, turn: int, rules: Rules | None = None) -> str | None:
        """The obstacle in the pedestrian's hands in `turn`, if any."""
        return None if self.status(turn, rules) == "free" else self.obstacle

    def can_fire(self, turn: int, rules: Rules | None = None) -> bool:
        """CW-OBS-01: no weapon use while carrying (nor while picking up or dropping: hands full)."""
        return self.status(turn, rules) == "free"

    def check_fire(self, turn: int, rules: Rules | None = None) -> None:
        """CW-OBS-01: raise RuleViolation if the pedestrian cannot use a weapon in `turn`."""
        st = self.status(turn, rules)
        if st != "free":
            raise RuleViolation(f"pedestrian {self.pedestrian!r} is {st.replace('_', ' ')} obstacle {self.obstacle!r}: "
                                "no weapon use while handling an obstacle", field="weapon", value=self.pedestrian, rule="CW-OBS-01")

    # -- actions -------------------------------------------------------------------------------
    def _time(self, turn: int, phase: int, rules: Rules | None) -> tuple[int, int]:
        turn = _int_arg(turn, "turn", "CW-OBS-01", 1)
        phase = _int_arg(phase, "phase", "CW-OBS-01", 1)
        per = terrain_table(rules)["pedestrian"]["phases_per_turn"]
        if phase > per:
            raise ScenarioError(f"a turn has {per} phases", field="phase", value=phase, rule="CW-OBS-01")
        if (turn, phase) < self.clock:
            raise ScenarioError(f"time runs forward: the last action was in turn {self.clock[0]}, phase {self.clock[1]}",
                                field="turn", value=(turn, phase), rule="CW-OBS-01")
        return turn, phase

    def _moved_in_turn(self, turn: int) -> int:
        return self.moved_turn if self.clock[0] == turn else 0

    def _refuse(self, message: str, field_name: str, value: Any) -> RuleViolation:
        return RuleViolation(f"pedestrian {self.pedestrian!r}: {message}", field=field_name, value=value, rule="CW-OBS-01")

    def pick_up(self, obstacle: str, turn: int, phase: int = 1, *, kind: str = "obstacle",
                rules: Rules | None = None) -> tuple["Carrier", list[Event]]:
        """CW-OBS-01: spend the whole turn picking up a movable obstacle (one at a time; not after
        moving this turn; potholes and other immovable kinds cannot be moved)."""
        turn, phase = self._time(turn, phase, rules)
        ped = terrain_table(rules)["pedestrian"]
        st = self.status(turn, rules)
        if kind in ped["immovable_kinds"]:
            raise self._refuse(f"a {kind} cannot be moved", "obstacle", obstacle)
        if st != "free":
            raise self._refuse(f"is {st.replace('_', ' ')} obstacle {self.obstacle!r}: a pedestrian handles one obstacle at a time",
                               "obstacle", obstacle)
        if self._moved_in_turn(turn):
            raise self._refuse(f"picking an obstacle up takes a whole turn, and the pedestrian already moved in turn {turn}",
                               "turn", turn)
        new = replace(self, obstacle=obstacle, action="pick_up", action_turn=turn, clock=(turn, phase), moved_turn=0, moved_phase=0)
        done = turn + ped["pick_up_turns"]
        return new, [StateChanged(self.pedestrian, "obstacle", None, obstacle, "CW-OBS-01"),
                     Note(f"{self.pedestrian} picks up {obstacle} in turn {turn}; carrying it from turn {done}", "CW-OBS-01")]

    def move(self, turn: int, phase: int, rules: Rules | None = None) -> tuple["Carrier", list[Event]]:
        """CW-OBS-01: move one square: free, one square a phase (every phase); carrying, one
        square a turn; never while picking up or dropping."""
        turn, phase = self._time(turn, phase, rules)
        ped = terrain_table(rules)["pedestrian"]
        st = self.status(turn, rules)
        if st in ("picking_up", "dropping"):
            raise self._refuse(f"is {st.replace('_', ' ')} obstacle {self.obstacle!r} this turn and cannot move", "turn", turn)
        same_turn = self.clock[0] == turn
        moved_turn = self.moved_turn if same_turn else 0
        moved_phase = self.moved_phase if same_turn and self.clock[1] == phase else 0
        if st == "carrying" and moved_turn >= ped["squares_per_turn_carrying"]:
            raise self._refuse(f"carrying {self.obstacle!r}: {ped['squares_per_turn_carrying']} square(s) a turn, already moved in turn {turn}",
                               "phase", phase)
        if st == "free" and moved_phase >= ped["squares_per_phase"]:
            raise self._refuse(f"{ped['squares_per_phase']} square(s) a phase, already moved in turn {turn} phase {phase}", "phase", phase)
        new = replace(self, clock=(turn, phase), moved_turn=moved_turn + 1, moved_phase=moved_phase + 1)
        what = f" carrying {self.obstacle}" if st == "carrying" else ""
        return new, [Note(f"{self.pedestrian} moves one square ({ped['square_in']:g} in){what} in turn {turn} phase {phase}", "CW-OBS-01")]

    def drop(self, turn: int, phase: int = 1, rules: Rules | None = None) -> tuple["Carrier", list[Event]]:
        """CW-OBS-01: spend the whole turn dropping the obstacle carried (not after moving this turn)."""
        turn, phase = self._time(turn, phase, rules)
        ped = terrain_table(rules)["pedestrian"]
        st = self.status(turn, rules)
        if st != "carrying":
            what = "carries nothing" if st == "free" else f"is {st.replace('_', ' ')} obstacle {self.obstacle!r} this turn"
            raise self._refuse(f"{what}: nothing to drop", "turn", turn)
        if self._moved_in_turn(turn):
            raise self._refuse(f"dropping an obstacle takes a whole turn, and the pedestrian already moved in turn {turn}", "turn", turn)
        new = replace(self, action="drop", action_turn=turn, clock=(turn, phase), moved_turn=0, moved_phase=0)
        done = turn + ped["drop_turns"]
        return new, [StateChanged(self.pedestrian, "obstacle", self.obstacle, None, "CW-OBS-01"),
                     Note(f"{self.pedestrian} drops {self.obstacle} in turn {turn}; free from turn {done}", "CW-OBS-01")]
