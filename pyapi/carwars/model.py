"""The Car Wars object model: vehicles, their components, pedestrians and the arena.

This is mutable game state, kept in one place (`Arena`); rules read it and
return events. Builders validate a design or scenario entry completely before
creating anything (ERR-01).
"""
from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field
from typing import Any, Iterator

from ..data import Rules
from ..errors import ScenarioError
from .enums import Computer, CrewRole, CrewState, Light, Location, Mount, Side, Weather, parse_enum
from .geometry import Counter, Polygon
from .tables import BodySpec, WeaponSpec, body_spec, weapon_spec
from .validate import (MAX_ACCELERATION, MAX_AMMO, MAX_ARMOUR, MAX_BODY_ARMOUR, MAX_CARRIED, MAX_COORD, MAX_DIFFICULTY, MAX_DP,
                       MAX_LINKS, MAX_PEDESTRIAN_SPEED, MAX_REFLEXES, MAX_SKILL, MAX_SPACES, MAX_SPEED, MAX_TOP_SPEED, MAX_TURN,
                       MAX_WATER_FT, MIN_SPEED, SUSPENSIONS, check_links, check_vehicle_bounds)

__all__ = [
    "Weapon", "CrewMember", "Tire", "CargoItem", "Sidecar", "Vehicle", "Pedestrian",
    "Building", "Cloud", "Area", "Obstacle", "Arena", "build_vehicle", "build_pedestrian", "SEATS",
]

SEATS = ("front_left", "front_right", "back_left", "back_right", "middle", "cycle", "sidecar")
HUMAN_DP = 3


@dataclass
class Weapon:
    """A mounted weapon (CW-VEH-03): works at full efficiency until its DP reach 0."""

    id: str
    spec: WeaponSpec
    mount: Mount
    dp: int
    ammo: int
    automatic: bool = False

    @property
    def destroyed(self) -> bool:
        return self.dp <= 0

    @property
    def name(self) -> str:
        return self.spec.name


@dataclass
class CrewMember:
    """A person aboard (CW-VEH-03, CW-CREW-01): 3 DP, optional body armour taken first."""

    id: str
    role: CrewRole
    seat: str
    body_armour: int = 0
    hits: int = 0
    gunner: int = 0
    handgunner: int = 0
    driver: int = 0
    hand_weapons: tuple[str, ...] = ()
    reflexes: int = 0                      # FIGHT-09: the driver's reflex bonus to his vehicle's handling class (0-2)
    stunned_until_turn: int | None = None  # CW-SEED-02: stunned until the end of this turn (his bonuses lost meanwhile)
    jumps_on: tuple[str, ...] | None = None  # CW-SEED-01: Crash Table 1 results at which he jumps off an uncontrolled cycle

    @property
    def dp(self) -> int:
        return max(0, HUMAN_DP - self.hits)

    @property
    def state(self) -> CrewState:
        return CrewState(min(self.hits, 3))

    @property
    def can_act(self) -> bool:
        return self.state in (CrewState.OK, CrewState.WOUNDED)

    def stunned(self, turn: int) -> bool:
        """CW-SEED-02: whether he is stunned in this turn."""
        return self.stunned_until_turn is not None and turn <= self.stunned_until_turn


@dataclass
class Tire:
    id: str
    type: str
    dp: int
    max_dp: int

    @property
    def destroyed(self) -> bool:
        return self.dp <= 0


@dataclass
class CargoItem:
    id: str
    dp: int
    max_dp: int
    grenades_taken: int = 0     # a box of grenades: how many `fetch_grenade` got out of it (CW-HAND-01)


@dataclass
class Sidecar:
    """CW-TGT-05: a small car beside a cycle: armour, one wheel, weapons, maybe a rider."""

    side: Side
    spaces: int
    armour: dict[Side, int]
    armour_max: dict[Side, int]
    tire: Tire
    weapons: list[Weapon] = field(default_factory=list)
    crew: list[CrewMember] = field(default_factory=list)
    cargo: list[CargoItem] = field(default_factory=list)


@dataclass
class Vehicle:
    """A vehicle in the arena (CW-VEH-01 to CW-VEH-04) and its situation this phase."""

    id: str
    name: str
    body: BodySpec
    x: float
    y: float
    facing: float
    speed: float
    armour: dict[Side, int]
    armour_max: dict[Side, int]
    metal_armour: bool
    fireproof: bool
    power_plant: int | None
    power_plant_max: int | None
    layout: tuple[Location, ...]
    weapons: list[Weapon]
    crew: list[CrewMember]
    cargo: list[CargoItem]
    tires: list[Tire]
    turret: bool = False
    computer: Computer = Computer.NONE
    sidecar: Sidecar | None = None
    reversed_trike: bool = False
    rolled_onto: Side | None = None
    # situation (CW-HIT-06/07/08/10)
    water_depth_ft: float = 0.0
    on_bad_surface: bool = False
    blinded: bool = False
    handling: str | None = None
    hazard_difficulty: int = 0
    on_oil: bool = False                   # CW-DROP-04: crossed an oil or flaming oil slick this phase
    maneuvered: bool = False               # made a maneuver this phase (CW-DROP-04: +D2 on oil)
    paint_until_turn: int | None = None
    in_rubble: bool = False
    extinguisher: str = "none"             # none | standard | improved | portable (CW-FIRE-03)
    off_road: bool = False                 # CW-OFF-01/02
    off_road_suspension: bool = False
    # crew consequences (CW-CREW-02..04)
    uncontrolled: bool = False
    substitute: str | None = None          # crew id of a substitute driver
    substitute_from_turn: int | None = None  # the turn the new driver may act
    steered_turn: int | None = None        # last turn a substitute steered
    links: dict = field(default_factory=dict)  # CW-LINK-01: link id -> special.Link
    weight_lb: float | None = None         # FIGHT-04: for collisions from movement (default: the body's, fight.toml)
    crash: str | None = None               # CW-CREW-03: an uncontrolled cycle's Crash Table 1 result (FIGHT-03)
    # driving (FIGHT-07..09): the suspension, speed limits, and the handling state of a vehicle under a movement order
    suspension: str = "light"              # light | improved | heavy (off_road_suspension: the off-road row)
    acceleration: int | None = None        # mph a turn (default: carwars.maneuvers [speed] by body kind)
    top_speed: int | None = None           # mph (default: by body kind)
    handling_status: int | None = None     # None: not driven under the handling rules
    crash_motion: Any = None               # handling.CrashMotion: spinning, rolling, until it stops
    in_ditch: str | None = None            # CW-SEED-03: the ditch it fell into (it stays there, stopped)
    skids: tuple = ()                      # crash results still to come: ((result name, travel degrees), ...)
    no_fire_turn: int | None = None        # a crash result this turn forbids aimed fire for its rest
    phase_hazards: list = field(default_factory=list)   # (D, what) of each hazard met this phase (FIGHT-09)

    @property
    def kind(self) -> str:
        return self.body.kind

    @property
    def counter(self) -> Counter:
        """The whole counter (cycle and sidecar together), CW-VEH-01."""
        width = self.body.width + (self.body.sidecar_width if self.sidecar else 0.0)
        return Counter(self.x, self.y, self.body.length, width, self.facing)

    def cycle_counter(self) -> Counter:
        """The cycle's own half of a cycle-with-sidecar counter (its centre line is CW-TGT-05's line)."""
        if not self.sidecar:
            return self.counter
        offset = self.body.sidecar_width / 2 * (-1 if self.sidecar.side is Side.RIGHT else 1)
        cx, cy = self.counter.to_world((offset, 0.0))
        return Counter(cx, cy, self.body.length, self.body.width, self.facing)

    def sidecar_counter(self, at: Counter | None = None) -> Counter:
        """The sidecar's own counter, beside the cycle on its side: where the vehicle stands, or with its whole
        counter at the pose `at` (the standing driver's look ahead, driving._bearing)."""
        if not self.sidecar:
            raise ScenarioError("has no sidecar", field=f"vehicle {self.id!r}", rule="CW-TGT-05")
        whole = self.counter if at is None else at
        offset = self.body.width / 2 * (1 if self.sidecar.side is Side.RIGHT else -1)
        cx, cy = whole.to_world((offset, 0.0))
        return Counter(cx, cy, whole.length, self.body.sidecar_width, whole.facing)

    def all_weapons(self) -> Iterator[Weapon]:
        yield from self.weapons
        if self.sidecar:
            yield from self.sidecar.weapons

    def all_crew(self) -> Iterator[CrewMember]:
        yield from self.crew
        if self.sidecar:
            yield from self.sidecar.crew

    def weapon(self, weapon_id: str, field_name: str = "weapon") -> Weapon:
        for w in self.all_weapons():
            if w.id == weapon_id:
                return w
        raise ScenarioError(f"vehicle {self.id!r} has no such weapon (has: {', '.join(w.id for w in self.all_weapons())})",
                            field=field_name, value=weapon_id, rule="CW-VEH-03")

    def crew_member(self, crew_id: str, field_name: str = "firer") -> CrewMember:
        for c in self.all_crew():
            if c.id == crew_id:
                return c
        raise ScenarioError(f"vehicle {self.id!r} has no such crew member", field=field_name, value=crew_id, rule="CW-VEH-03")

    def tire(self, tire_id: str, field_name: str = "aim") -> Tire:
        for t in self.tires:
            if t.id == tire_id:
                return t
        if self.sidecar and self.sidecar.tire.id == tire_id:
            return self.sidecar.tire
        raise ScenarioError(f"vehicle {self.id!r} has no such tire (has: {', '.join(t.id for t in self.tires)})",
                            field=field_name, value=tire_id, rule="CW-TGT-03")

    @property
    def driver(self) -> CrewMember | None:
        return next((c for c in self.crew if c.role is CrewRole.DRIVER), None)

    def tire_counter(self, tire: Tire) -> Counter:
        """Footprint of a tire at its wheel position (for LOF and range, CW-LOF-03)."""
        tw, tl = self.body_part("tire")
        if self.sidecar and tire is self.sidecar.tire:
            sc = self.sidecar_counter()
            far = sc.width / 2 - tw / 2
            lx = far if self.sidecar.side is Side.RIGHT else -far
            cx, cy = sc.to_world((lx, 0.0))
            return Counter(cx, cy, tl, tw, self.facing)
        c = self.cycle_counter()
        h, w = c.length / 2 - tl / 2, c.width / 2 - tw / 2
        pos = tire.id
        ly = h if pos.startswith("front") else -h
        lx = -w if pos.endswith("left") else (w if pos.endswith("right") else 0.0)
        cx, cy = c.to_world((lx, ly))
        return Counter(cx, cy, tl, tw, self.facing)

    def body_part(self, part: str) -> tuple[float, float]:
        return self._parts[part]

    _parts: dict[str, tuple[float, float]] = field(default_factory=dict, repr=False)

    @property
    def moving(self) -> bool:
        return self.speed != 0


@dataclass
class Pedestrian:
    """A person on foot (CW-TGT-07): 3 DP, body armour first, 360-degree fire."""

    id: str
    x: float
    y: float
    facing: float = 0.0
    hits: int = 0
    body_armour: int = 0
    prone: bool = False
    cover: str = "none"          # none | full | head_up
    braced: bool = False
    handgunner: int = 0
    weapons: tuple[str, ...] = ()
    speed: float = 0.0
    in_rubble: bool = False
    blinded: bool = False
    size: float = 0.25
    jumped_from: str = ""        # CW-SEED-01: the cycle he jumped off (he is on its side, with no orders of his own)

    @property
    def counter(self) -> Counter:
        return Counter(self.x, self.y, self.size, self.size, self.facing)

    @property
    def state(self) -> CrewState:
        return CrewState(min(self.hits, 3))


@dataclass
class Building:
    id: str
    polygon: Polygon


@dataclass
class Cloud:
    """A smoke or paint cloud (CW-LOF-04, CW-DROP-05)."""

    id: str
    kind: str       # smoke | paint
    polygon: Polygon
    placed_turn: int = 0
    damaging: str = ""      # CW-SEED-01: the weapon whose damaging gas it is (a flame cloud), rolled on contact
    still_on: set = field(default_factory=set)   # vehicles in it since it was laid (its layer): they meet it once out


@dataclass
class Area:
    """A rubble area (CW-HIT-07), a ditch (CW-SEED-03) or any other marked ground."""

    id: str
    kind: str
    polygon: Polygon
    across_ft: float | None = None      # a ditch's width across, in feet


@dataclass
class Obstacle:
    """An obstacle counter (CW-DMG-08, CW-SEED-04): a square of the map, `size` inches across, axis-aligned about
    (x, y); a vehicle running onto it meets a hazard; it does not block LOF."""

    id: str
    x: float
    y: float
    turn: int
    source: str = ""
    size: float = 0.25
    still_on: set = field(default_factory=set)   # vehicles on it since it was placed: they meet it once off it

    @property
    def polygon(self) -> Polygon:
        h = self.size / 2.0
        return Polygon(((self.x - h, self.y - h), (self.x + h, self.y - h), (self.x + h, self.y + h), (self.x - h, self.y + h)))


@dataclass
class Arena:
    """Everything on the map, and the conditions (CW-HIT-07)."""

    vehicles: dict[str, Vehicle] = field(default_factory=dict)
    pedestrians: dict[str, Pedestrian] = field(default_factory=dict)
    buildings: dict[str, Building] = field(default_factory=dict)
    clouds: dict[str, Cloud] = field(default_factory=dict)
    areas: dict[str, Area] = field(default_factory=dict)
    obstacles: list[Obstacle] = field(default_factory=list)
    counters: list = field(default_factory=list)     # dropped-weapon counters (dropped.DroppedCounter), CW-DROP
    fires: dict = field(default_factory=dict)        # vehicle id -> fire.FireState, CW-FIRE
    weather: Weather = Weather.CLEAR
    light: Light = Light.DAY
    turn: int = 1
    phase: int = 1

    def unit(self, unit_id: str, field_name: str) -> Vehicle | Pedestrian:
        if unit_id in self.vehicles:
            return self.vehicles[unit_id]
        if unit_id in self.pedestrians:
            return self.pedestrians[unit_id]
        raise ScenarioError("no vehicle or pedestrian with this id", field=field_name, value=unit_id, rule="CLI-02")

    def ditches(self) -> list[Area]:
        """The ditches on the map (CW-SEED-03), in file order."""
        return [a for a in self.areas.values() if a.kind == "ditch"]

    def gullies(self) -> list[Area]:
        """The dry gullies on the map (CW-SEED-03), in file order."""
        return [a for a in self.areas.values() if a.kind == "gully"]

    def copy(self) -> "Arena":
        return copy.deepcopy(self)


# --- builders -------------------------------------------------------------------

def slowed(speed: float, mph: float) -> float:
    """A speed `mph` slower, not past a stop, its sign kept (CW-CREW-03's uncontrolled slowdown, a crash's, a
    driver's braking); fastcore/_cwdrive.pxd cw_slowed is its twin."""
    return max(0.0, abs(speed) - mph) * (1 if speed > 0 else -1)


def _int(value: Any, field_name: str, rule: str, minimum: int = 0, maximum: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise ScenarioError(f"expected an integer >= {minimum}", field=field_name, value=value, rule=rule)
    if maximum is not None and value > maximum:
        raise ScenarioError(f"at most {maximum:,}", field=field_name, value=value, rule="SAFE-01")
    return value


def _num(value: Any, field_name: str, rule: str, lo: float | None = None, hi: float | None = None) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
        raise ScenarioError("expected a finite number", field=field_name, value=value, rule=rule)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise ScenarioError(f"must be from {lo:g} to {hi:g}", field=field_name, value=value, rule="SAFE-01")
    return float(value)


def _check_entry(part: str, entry: dict, path: str) -> None:
    """An entry handed to a builder directly (the Python API) meets the scenario schema's part (SAFE-01), as a
    scenario file's does at the door."""
    from .scenario import SCHEMA_PARTS
    from .table_schemas import first_error

    found = first_error(SCHEMA_PARTS[part]["items"], entry, path, "CLI-02", bound_rule="SAFE-01")
    if found is not None:
        field, message, value, rule = found
        raise ScenarioError(message, field=field, value=value, rule=rule)


def _armour(data: Any, path: str, sides: tuple[Side, ...]) -> dict[Side, int]:
    if not isinstance(data, dict):
        raise ScenarioError("expected a table of armour points per side", field=path, value=data, rule="CW-VEH-02")
    names = {str(s) for s in sides}
    for k in data:
        if k not in names:
            raise ScenarioError(f"unknown side (expected {', '.join(sorted(names))})", field=f"{path}.{k}", value=data[k], rule="CW-VEH-02")
    return {s: _int(data.get(str(s), 0), f"{path}.{s}", "CW-VEH-02", 0, MAX_ARMOUR) for s in sides}


def _suspension(value: Any, field_name: str) -> str:
    """FIGHT-09: the suspension, for the handling class (an off-road suspension is `off_road_suspension`)."""
    if value not in SUSPENSIONS:
        raise ScenarioError(f"expected one of {', '.join(SUSPENSIONS)}", field=field_name, value=value, rule="FIGHT-09")
    return value


def _crew(rules: Rules, data: Any, path: str, allowed_seats: tuple[str, ...]) -> list[CrewMember]:
    if not isinstance(data, list):
        raise ScenarioError("expected a list of crew members", field=path, value=data, rule="CW-VEH-03")
    out = []
    for i, c in enumerate(data):
        p = f"{path}[{i}]"
        if not isinstance(c, dict) or "id" not in c:
            raise ScenarioError("each crew member needs an id", field=p, value=c, rule="CW-VEH-03")
        role = parse_enum(CrewRole, c.get("role", "passenger"), f"{p}.role", "CW-VEH-03")
        seat = c.get("seat", "front_left")
        if seat not in allowed_seats:
            raise ScenarioError(f"unknown seat here (expected {', '.join(allowed_seats)})", field=f"{p}.seat", value=seat, rule="CW-VEH-04")
        armour = _int(c.get("body_armour", 0), f"{p}.body_armour", "CW-CREW-01", 0, MAX_BODY_ARMOUR)
        hits = _int(c.get("hits", 0), f"{p}.hits", "CW-CREW-01")
        if hits > HUMAN_DP:
            raise ScenarioError("a person has 3 DP", field=f"{p}.hits", value=hits, rule="CW-CREW-01")
        hw = c.get("hand_weapons", [])
        if not isinstance(hw, list) or len(hw) > MAX_CARRIED:
            raise ScenarioError(f"expected a list of at most {MAX_CARRIED} hand weapons", field=f"{p}.hand_weapons",
                                value=len(hw) if isinstance(hw, list) else hw, rule="SAFE-01")
        for j, name in enumerate(hw):
            weapon_spec(rules, name, f"{p}.hand_weapons[{j}]", hand=True)  # carried: the hand weapon list (CW-HAND-01)
        from .special import check_hand_load
        check_hand_load(rules, CrewMember(str(c["id"]), role, seat), tuple(hw), f"{p}.hand_weapons")
        out.append(CrewMember(str(c["id"]), role, seat, armour, hits,
                              _int(c.get("gunner", 0), f"{p}.gunner", "CW-HIT-08", 0, MAX_SKILL),
                              _int(c.get("handgunner", 0), f"{p}.handgunner", "CW-HIT-08", 0, MAX_SKILL),
                              _int(c.get("driver", 0), f"{p}.driver", "CW-CREW-02", 0, MAX_SKILL), tuple(hw),
                              _int(c.get("reflexes", 0), f"{p}.reflexes", "FIGHT-09", 0, MAX_REFLEXES),
                              None if c.get("stunned_until_turn") is None
                              else _int(c["stunned_until_turn"], f"{p}.stunned_until_turn", "CW-SEED-02", 0, MAX_TURN),
                              _jumps_on(rules, c.get("jumps_on"), f"{p}.jumps_on")))
    return out


def _jumps_on(rules: Rules, data: Any, path: str) -> tuple[str, ...] | None:
    """CW-SEED-01: a passenger's own choice of the Crash Table 1 results at which he jumps off, or None (the rules')."""
    if data is None:
        return None
    bands = [name for _, name in rules["carwars.damage"]["crew"]["crash_table_1"]]
    if not isinstance(data, list) or len(data) > len(bands):
        raise ScenarioError(f"expected a list of at most {len(bands)} Crash Table 1 results", field=path, value=data, rule="CW-SEED-01")
    for j, name in enumerate(data):
        if name not in bands:
            raise ScenarioError(f"not a Crash Table 1 result (known: {', '.join(bands)})", field=f"{path}[{j}]", value=name,
                                rule="CW-SEED-01")
    return tuple(data)


def _weapons(rules: Rules, data: Any, path: str, allowed: tuple[Mount, ...], has_turret: bool) -> list[Weapon]:
    if not isinstance(data, list):
        raise ScenarioError("expected a list of weapons", field=path, value=data, rule="CW-VEH-03")
    out = []
    for i, w in enumerate(data):
        p = f"{path}[{i}]"
        if not isinstance(w, dict) or "id" not in w or "type" not in w:
            raise ScenarioError("each weapon needs an id and a type", field=p, value=w, rule="CW-VEH-03")
        spec = weapon_spec(rules, w["type"], f"{p}.type")   # mounted: the vehicle weapon list (CW-VEH-06)
        mount = parse_enum(Mount, w.get("mount", "front"), f"{p}.mount", "CW-VEH-03")
        if mount not in allowed:
            raise ScenarioError(f"impossible mount on this body (allowed: {', '.join(str(m) for m in allowed)})",
                                field=f"{p}.mount", value=str(mount), rule="CW-VEH-03")
        if mount is Mount.TURRET and not has_turret:
            raise ScenarioError("turret weapon on a vehicle without a turret (set turret = true)", field=f"{p}.mount", value="turret", rule="CW-VEH-02")
        dp = _int(w.get("dp", spec.dp), f"{p}.dp", "CW-VEH-03", 0, MAX_DP)
        ammo = _int(w.get("ammo", spec.shots), f"{p}.ammo", "CW-VEH-03", 0, MAX_AMMO)
        automatic = w.get("automatic", False)
        if not isinstance(automatic, bool):
            raise ScenarioError("expected true or false", field=f"{p}.automatic", value=automatic, rule="CW-AUTO-01")
        if automatic:
            from .tables import check_usable
            check_usable(spec, f"{p}.automatic", True)
        if automatic and mount is Mount.TURRET:
            from ..errors import RuleViolation
            raise RuleViolation(f"weapon {w['id']!r} is turret-mounted: turret weapons cannot go on automatic",
                                field=f"{p}.automatic", value=True, rule="CW-AUTO-01")
        out.append(Weapon(str(w["id"]), spec, mount, dp, ammo, automatic))
    return out


def _tires(rules: Rules, design: dict, wheels: tuple[str, ...], path: str) -> list[Tire]:
    tire_dp = rules["carwars.tires"]["dp"]
    default_type = design.get("tire_type", "standard")
    given: dict[Any, tuple[int, dict]] = {}
    for i, t in enumerate(design.get("tire", [])):
        if not isinstance(t, dict) or "id" not in t:
            raise ScenarioError("each tire needs the id of its wheel", field=f"{path}.tire[{i}]", rule="CW-VEH-03")
        if t["id"] not in wheels:
            raise ScenarioError(f"no such wheel on this body (wheels: {', '.join(wheels)})", field=f"{path}.tire[{i}].id",
                                value=t["id"], rule="CW-VEH-03")
        if t["id"] in given:
            raise ScenarioError(f"wheel given twice (also tire[{given[t['id']][0]}])", field=f"{path}.tire[{i}].id", value=t["id"],
                                rule="CW-VEH-03")
        given[t["id"]] = (i, t)
    out = []
    for pos in wheels:
        i, t = given.get(pos, (-1, {}))
        where = f"{path}.tire[{i}]" if i >= 0 else f"{path}.tire_type"
        ttype = t.get("type", default_type)
        if "dp" in t:
            max_dp = _int(t["dp"], f"{where}.dp", "CW-VEH-03", 1, MAX_DP)
        elif ttype in tire_dp:
            max_dp = tire_dp[ttype]
        else:
            raise ScenarioError(f"unknown tire type with no dp given (known: {', '.join(tire_dp)})",
                                field=f"{where}.type" if i >= 0 and "type" in t else f"{path}.tire_type", value=ttype, rule="CW-VEH-03")
        dp = _int(t.get("current_dp", max_dp), f"{where}.current_dp", "CW-VEH-03", 0, MAX_DP)
        if dp > max_dp:
            raise ScenarioError(f"more than the tire's {max_dp} DP", field=f"{where}.current_dp", value=dp, rule="CW-VEH-03")
        out.append(Tire(pos, ttype, dp, max_dp))
    return out


def _cargo(data: Any, path: str) -> list[CargoItem]:
    out = []
    for i, c in enumerate(data or []):
        if not isinstance(c, dict) or "id" not in c:
            raise ScenarioError("each cargo item needs an id and dp", field=f"{path}[{i}]", value=c, rule="CW-VEH-04")
        dp = _int(c.get("dp", 1), f"{path}[{i}].dp", "CW-VEH-04", 1, MAX_DP)
        now = _int(c.get("current_dp", dp), f"{path}[{i}].current_dp", "CW-VEH-04", 0, MAX_DP)
        if now > dp:
            raise ScenarioError(f"more than the item's {dp} DP", field=f"{path}[{i}].current_dp", value=now, rule="CW-VEH-04")
        out.append(CargoItem(str(c["id"]), now, dp))
    return out


def build_vehicle(rules: Rules, entry: dict, path: str = "vehicle", *, checked: bool = False) -> Vehicle:
    """Build a vehicle from a scenario entry: a stock `design` (CW-VEH-05) and/or inline fields.

    The entry meets the scenario schema's `vehicle` part (unless `checked`: the loader has checked the whole
    document), every count, id and figure within its bounds (SAFE-01, `validate`), before anything is built."""
    if not isinstance(entry, dict) or "id" not in entry:
        raise ScenarioError("each vehicle needs an id", field=path, value=entry, rule="CLI-02")
    if not checked:
        _check_entry("vehicle", entry, path)
    design: dict = {}
    if "design" in entry:
        designs = rules["carwars.designs"]["design"]
        if entry["design"] not in designs:
            raise ScenarioError(f"unknown stock design (known: {', '.join(sorted(designs))})", field=f"{path}.design",
                                value=entry["design"], rule="CW-VEH-05")
        design = copy.deepcopy(designs[entry["design"]])
    design.update({k: v for k, v in entry.items() if k != "design"})
    if "body" not in design:
        raise ScenarioError("a vehicle needs a body or a stock design", field=f"{path}.body", rule="CW-VEH-01")
    body = body_spec(rules, design["body"], f"{path}.body")
    reversed_trike = bool(design.get("reversed", False))
    if reversed_trike and body.kind != "trike":
        raise ScenarioError("only trikes can be reversed", field=f"{path}.reversed", value=True, rule="CW-TGT-06")
    wheels = body.wheels
    if reversed_trike:
        wheels = ("front_left", "front_right", "back")

    armour_sides = tuple(Side)
    armour = _armour(design.get("armour", {}), f"{path}.armour", armour_sides)
    armour_max = _armour(design.get("armour_max", design.get("armour", {})), f"{path}.armour_max", armour_sides)
    material = design.get("armour_material", "plastic")
    if material not in ("plastic", "metal"):
        raise ScenarioError("expected plastic or metal", field=f"{path}.armour_material", value=material, rule="CW-VEH-02")
    turret = bool(design.get("turret", False))
    if turret and body.kind == "cycle":
        raise ScenarioError("a cycle cannot carry a turret", field=f"{path}.turret", value=True, rule="CW-VEH-02")
    if body.kind == "cycle":
        mounts = (Mount.FRONT, Mount.BACK, Mount.LEFT, Mount.RIGHT)
        seats: tuple[str, ...] = ("cycle",)
    else:
        mounts = tuple(Mount)
        seats = ("front_left", "front_right", "back_left", "back_right", "middle")
    weapons = _weapons(rules, design.get("weapon", []), f"{path}.weapon", mounts, turret)
    crew = _crew(rules, design.get("crew", []), f"{path}.crew", seats)
    if body.kind != "cycle" and sum(1 for c in crew if c.seat.startswith("front")) > 2:
        raise ScenarioError("no vehicle has more than two seats in front", field=f"{path}.crew", rule="CW-VEH-04")
    if len({c.seat for c in crew if c.seat.startswith(("front", "back"))}) != sum(1 for c in crew if c.seat.startswith(("front", "back"))):
        raise ScenarioError("two crew members in one seat", field=f"{path}.crew", rule="CW-VEH-04")
    if sum(1 for c in crew if c.role is CrewRole.DRIVER) > 1:
        raise ScenarioError("a vehicle has one driver", field=f"{path}.crew", rule="CW-VEH-04")

    layout_names = design.get("layout", ["power_plant", "crew", "cargo"])
    layout = tuple(parse_enum(Location, n, f"{path}.layout[{i}]", "CW-VEH-04") for i, n in enumerate(layout_names))
    if len(set(layout)) != len(layout):
        raise ScenarioError("each internal location appears once", field=f"{path}.layout", value=layout_names, rule="CW-VEH-04")
    if body.kind in ("car", "trike") and Location.CARGO not in layout:
        layout = layout + (Location.CARGO,)  # a car always has a cargo location (CW-VEH-04)
    pp = design.get("power_plant")
    pp_max = None if pp is None else _int(design.get("power_plant_max", max(pp, 1) if isinstance(pp, int) else pp),
                                          f"{path}.power_plant_max", "CW-VEH-03", 1, MAX_DP)
    if pp is not None:
        pp = _int(pp, f"{path}.power_plant", "CW-VEH-03", 0, MAX_DP)
        if pp_max is not None and pp > pp_max:
            raise ScenarioError(f"more than power_plant_max ({pp_max})", field=f"{path}.power_plant", value=pp, rule="CW-VEH-03")
    if (pp is None) == (Location.POWER_PLANT in layout):
        if pp is None:
            raise ScenarioError("the layout names a power plant but no power_plant DP is given", field=f"{path}.power_plant", rule="CW-VEH-04")
        layout = layout + (Location.POWER_PLANT,)
    if crew and Location.CREW not in layout:
        raise ScenarioError("a vehicle with crew needs a crew location in its layout", field=f"{path}.layout", value=layout_names, rule="CW-VEH-04")

    sidecar = None
    if "sidecar" in design:
        if body.kind != "cycle":
            raise ScenarioError("only cycles take a sidecar", field=f"{path}.sidecar", rule="CW-TGT-05")
        if body.sidecar_width <= 0 or body.sidecar_length <= 0:
            raise ScenarioError(f"body {body.name!r} has no sidecar_footprint (carwars.bodies): no sidecar counter to place",
                                field=f"{path}.sidecar", rule="CW-TGT-05")
        sidecar = _sidecar(rules, design["sidecar"], f"{path}.sidecar")
    computer = parse_enum(Computer, design.get("computer", "none"), f"{path}.computer", "CW-HIT-08")
    vehicle = Vehicle(
        id=str(entry["id"]), name=design.get("name", str(entry["id"])), body=body,
        x=_num(design.get("x", 0.0), f"{path}.x", "CLI-02", -MAX_COORD, MAX_COORD),
        y=_num(design.get("y", 0.0), f"{path}.y", "CLI-02", -MAX_COORD, MAX_COORD),
        facing=_num(design.get("facing", 0.0), f"{path}.facing", "CLI-02") % 360.0,
        speed=_num(design.get("speed", 0.0), f"{path}.speed", "CW-HIT-04", MIN_SPEED, MAX_SPEED),
        armour=armour, armour_max={s: max(armour[s], armour_max[s]) for s in Side},
        metal_armour=material == "metal", fireproof=bool(design.get("fireproof", False)),
        power_plant=pp, power_plant_max=pp_max, layout=layout, weapons=weapons, crew=crew,
        cargo=_cargo(design.get("cargo", []), f"{path}.cargo"), tires=_tires(rules, design, wheels, path),
        turret=turret, computer=computer, sidecar=sidecar, reversed_trike=reversed_trike,
        water_depth_ft=_num(design.get("water_depth_ft", 0.0), f"{path}.water_depth_ft", "CW-HIT-06", 0.0, MAX_WATER_FT),
        on_bad_surface=bool(design.get("on_bad_surface", False)), blinded=bool(design.get("blinded", False)),
        handling=design.get("handling"),
        hazard_difficulty=_int(design.get("hazard_difficulty", 0), f"{path}.hazard_difficulty", "CW-HIT-10", 0, MAX_DIFFICULTY),
        paint_until_turn=None if design.get("paint_until_turn") is None
        else _int(design["paint_until_turn"], f"{path}.paint_until_turn", "CW-HIT-07", 0, MAX_TURN),
        in_rubble=bool(design.get("in_rubble", False)),
        extinguisher=design.get("extinguisher", "none"), off_road=bool(design.get("off_road", False)),
        off_road_suspension=bool(design.get("off_road_suspension", False)),
        suspension=_suspension(design.get("suspension", "light"), f"{path}.suspension"),
        acceleration=None if design.get("acceleration") is None
        else _int(design["acceleration"], f"{path}.acceleration", "FIGHT-08", 5, MAX_ACCELERATION),
        top_speed=None if design.get("top_speed") is None else _int(design["top_speed"], f"{path}.top_speed", "FIGHT-08", 5, MAX_TOP_SPEED),
    )
    check_vehicle_bounds(vehicle, path)
    if vehicle.driver is not None and not vehicle.driver.can_act:
        vehicle.uncontrolled = True     # CW-CREW-03, CW-SEED-01: a driver who starts incapacitated: from the start
    links = design.get("links", [])
    if not isinstance(links, list) or len(links) > MAX_LINKS:
        raise ScenarioError(f"expected a list of at most {MAX_LINKS} links", field=f"{path}.links",
                            value=len(links) if isinstance(links, list) else links, rule="SAFE-01")
    for i, ln in enumerate(links):
        from .special import Link
        if not isinstance(ln, dict) or "id" not in ln or not ln.get("weapons"):
            raise ScenarioError("a link needs an id and its weapons", field=f"{path}.links[{i}]", value=ln, rule="CW-LINK-01")
        known = {w.id for w in vehicle.all_weapons()} | {x["id"] for x in links if isinstance(x, dict) and "id" in x}
        for m in ln["weapons"]:
            if m not in known:
                raise ScenarioError("no weapon or link with this id", field=f"{path}.links[{i}].weapons", value=m, rule="CW-LINK-01")
        if ln["id"] in {w.id for w in vehicle.all_weapons()}:
            raise ScenarioError("a link id must differ from every weapon id", field=f"{path}.links[{i}].id", value=ln["id"], rule="CW-LINK-01")
        if ln["id"] in vehicle.links:
            raise ScenarioError("duplicate link id", field=f"{path}.links[{i}].id", value=ln["id"], rule="CW-LINK-01")
        vehicle.links[ln["id"]] = Link(ln["id"], tuple(ln["weapons"]), bool(ln.get("smart", False)))
    check_links(vehicle, path)
    if vehicle.extinguisher not in ("none", "standard", "improved", "portable"):
        raise ScenarioError("expected none, standard, improved or portable", field=f"{path}.extinguisher",
                            value=vehicle.extinguisher, rule="CW-FIRE-03")
    if vehicle.off_road_suspension and (body.kind != "car"):
        raise ScenarioError("off-road suspension exists only for 4- and 6-wheeled vehicles", field=f"{path}.off_road_suspension",
                            value=True, rule="CW-OFF-02")
    if vehicle.water_depth_ft < 0:
        raise ScenarioError("water depth cannot be negative", field=f"{path}.water_depth_ft", value=vehicle.water_depth_ft, rule="CW-HIT-06")
    handling_table = rules["carwars.tohit"]["handling"]
    if vehicle.handling is not None and (vehicle.handling not in handling_table or vehicle.handling == "rule"):
        raise ScenarioError(f"unknown handling event (known: {', '.join(k for k in handling_table if k != 'rule')})",
                            field=f"{path}.handling", value=vehicle.handling, rule="CW-HIT-10")
    parts = rules["carwars.bodies"]["parts"]
    vehicle._parts = {k: (float(v[0]), float(v[1])) for k, v in parts.items() if k != "rule"}
    return vehicle


def _sidecar(rules: Rules, data: Any, path: str) -> Sidecar:
    if not isinstance(data, dict):
        raise ScenarioError("expected a table", field=path, value=data, rule="CW-TGT-05")
    side = parse_enum(Side, data.get("side", "right"), f"{path}.side", "CW-TGT-05")
    if side not in (Side.LEFT, Side.RIGHT):
        raise ScenarioError("a sidecar is on the left or the right", field=f"{path}.side", value=str(side), rule="CW-TGT-05")
    sides = (Side.FRONT, Side.BACK, Side.LEFT, Side.RIGHT, Side.UNDERBODY)
    armour = _armour(data.get("armour", {}), f"{path}.armour", sides)
    tire = _tires(rules, {"tire_type": data.get("tire_type", "standard")}, ("sidecar",), path)[0]
    return Sidecar(
        side=side, spaces=_int(data.get("spaces", 1), f"{path}.spaces", "CW-TGT-04", 1, MAX_SPACES), armour=armour,
        armour_max=dict(armour), tire=tire,
        weapons=_weapons(rules, data.get("weapon", []), f"{path}.weapon", (Mount.FRONT, Mount.BACK, Mount.LEFT, Mount.RIGHT), False),
        crew=_crew(rules, data.get("crew", []), f"{path}.crew", ("sidecar",)), cargo=_cargo(data.get("cargo", []), f"{path}.cargo"),
    )


def build_pedestrian(rules: Rules, entry: dict, path: str = "pedestrian", *, checked: bool = False) -> Pedestrian:
    """Build a pedestrian from a scenario entry (meeting the schema's `pedestrian` part unless `checked`)."""
    if not isinstance(entry, dict) or "id" not in entry:
        raise ScenarioError("each pedestrian needs an id", field=path, value=entry, rule="CLI-02")
    if not checked:
        _check_entry("pedestrian", entry, path)
    cover = entry.get("cover", "none")
    if cover not in ("none", "full", "head_up"):
        raise ScenarioError("expected none, full or head_up", field=f"{path}.cover", value=cover, rule="CW-TGT-07")
    weapons = tuple(entry.get("weapons", []))
    if len(weapons) > MAX_CARRIED:
        raise ScenarioError(f"at most {MAX_CARRIED} hand weapons", field=f"{path}.weapons", value=len(weapons), rule="SAFE-01")
    for i, name in enumerate(weapons):
        weapon_spec(rules, name, f"{path}.weapons[{i}]", hand=True)  # a pedestrian carries hand weapons only (CW-HAND-01)
    from .special import check_hand_load
    check_hand_load(rules, Pedestrian(str(entry["id"]), 0.0, 0.0), weapons, f"{path}.weapons")
    size = rules["carwars.bodies"]["pedestrian"]["footprint"][0]
    return Pedestrian(
        id=str(entry["id"]), x=_num(entry.get("x", 0.0), f"{path}.x", "CLI-02", -MAX_COORD, MAX_COORD),
        y=_num(entry.get("y", 0.0), f"{path}.y", "CLI-02", -MAX_COORD, MAX_COORD),
        facing=_num(entry.get("facing", 0.0), f"{path}.facing", "CLI-02") % 360.0,
        hits=_int(entry.get("hits", 0), f"{path}.hits", "CW-CREW-01", 0, HUMAN_DP),
        body_armour=_int(entry.get("body_armour", 0), f"{path}.body_armour", "CW-CREW-01", 0, MAX_BODY_ARMOUR),
        prone=bool(entry.get("prone", False)), cover=cover, braced=bool(entry.get("braced", False)),
        handgunner=_int(entry.get("handgunner", 0), f"{path}.handgunner", "CW-HIT-08", 0, MAX_SKILL), weapons=weapons,
        speed=_num(entry.get("speed", 0.0), f"{path}.speed", "CW-HIT-04", 0.0, MAX_PEDESTRIAN_SPEED),
        in_rubble=bool(entry.get("in_rubble", False)), blinded=bool(entry.get("blinded", False)), size=float(size),
    )
