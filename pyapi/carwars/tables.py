"""Typed views of the Car Wars tables in seeds/carwars (their validators: `table_schemas`)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ..data import Rules
from ..dice import DiceExpr, parse_dice
from . import table_schemas as _schemas  # noqa: F401  (registers the validators of every Car Wars table)

__all__ = ["WeaponSpec", "weapon_spec", "weapon_names", "check_usable", "body_spec", "BodySpec"]


def check_usable(spec: "WeaponSpec", field: str, value: object) -> None:
    """CW-VEH-06: a weapon whose effect the seeds do not give (`refused` in the weapon list) cannot be fired,
    dropped or put on automatic; the error says why (issue 9: never a shot that can do nothing)."""
    if spec.refused:
        from ..errors import RuleViolation

        raise RuleViolation(f"{spec.name} cannot be fired: {spec.refused}", field=field, value=value, rule="CW-VEH-06")


@dataclass(frozen=True)
class WeaponSpec:
    """One row of the weapon list (CW-VEH-06)."""

    name: str
    abbrev: str
    to_hit: int
    needs_to_hit: bool
    damage: DiceExpr | None
    damage_hits: int | None
    dp: int
    shots: int
    burst_radius: float
    area_effect: bool
    dropped: bool
    cloud: str
    fire_modifier: int | None
    burn_duration: int | None
    laser: bool
    rocket: bool
    flamethrower: bool
    at_gun: bool
    hand: bool
    vs_vehicles: str
    max_range: float | None
    tire_damage: DiceExpr | None = None
    underbody_damage: DiceExpr | None = None
    dropped_kind: str = ""
    half_vs_solid_tires: bool = False
    thrown: bool = False
    grenade_equivalents: int = 0
    flaming_oil_jet: bool = False
    refused: str = ""              # why this weapon cannot be fired (its effect is not in the seeds), CW-VEH-06

    @property
    def aimed(self) -> bool:
        """CW-DROP-01 / CW-LINK-01: it rolls to hit; a dropped weapon, and one that rolls no to-hit (smoke, paint),
        is laid, not aimed (in a link, it drops as the others fire)."""
        return self.needs_to_hit and not self.dropped

    @property
    def fiery(self) -> bool:
        """CW-FIRE-02: damage from a laser, flamethrower or flaming oil jet starts fires on 1-4."""
        return self.laser or self.flamethrower or self.flaming_oil_jet

    @property
    def burns_when_hit(self) -> bool:
        """CW-FIRE-02: a hit on a flamethrower or flaming oil jet (as on the power plant) may start a fire."""
        return self.flamethrower or self.flaming_oil_jet

    @property
    def explosive(self) -> bool:
        """CW-FIRE-03: a burning vehicle carrying one of these may explode."""
        return self.flamethrower or self.flaming_oil_jet or self.rocket or self.at_gun

    @property
    def damage_text(self) -> str:
        if self.damage is not None:
            return str(self.damage)
        if self.damage_hits is not None:
            return f"{self.damage_hits} hit(s)"
        return "none"


def _spec(row: dict, hand: bool) -> WeaponSpec:
    def dice(key: str) -> DiceExpr | None:
        return parse_dice(row[key]) if key in row else None

    return WeaponSpec(
        name=row["name"], abbrev=row.get("abbrev", ""), to_hit=row["to_hit"],
        needs_to_hit=row.get("needs_to_hit", row["to_hit"] > 0), damage=dice("damage"),
        damage_hits=row.get("damage_hits"), dp=row.get("dp", 0), shots=row.get("shots", 0),
        burst_radius=float(row.get("burst_radius", 0.0)), area_effect=bool(row.get("area_effect", False)),
        dropped=bool(row.get("dropped", False)), cloud=row.get("cloud", ""),
        fire_modifier=row.get("fire_modifier"), burn_duration=row.get("burn_duration"),
        laser=bool(row.get("laser", False)), rocket=bool(row.get("rocket", False)),
        flamethrower=bool(row.get("flamethrower", False)), at_gun=bool(row.get("at_gun", False)),
        hand=hand, vs_vehicles=row.get("vs_vehicles", "full" if not hand else "none"),
        max_range=row.get("max_range"), tire_damage=dice("tire_damage"), underbody_damage=dice("underbody_damage"),
        dropped_kind=row.get("dropped_kind", ""), half_vs_solid_tires=bool(row.get("half_vs_solid_tires", False)),
        thrown=bool(row.get("thrown", False)), grenade_equivalents=int(row.get("grenade_equivalents", 0)),
        flaming_oil_jet=bool(row.get("flaming_oil_jet", False)), refused=row.get("refused", ""),
    )


@cache
def _weapon_index(rules: Rules, hand: bool) -> dict[str, WeaponSpec]:
    """The mounted (hand=False) or hand (hand=True) weapon list by name and abbreviation, lower case.

    Two indexes, because a name may be in both lists ("Grenade Launcher"); the
    validator has refused any clash inside one list (CW-VEH-06)."""
    table, key = ("carwars.hand_weapons", "hand_weapon") if hand else ("carwars.weapons", "weapon")
    index: dict[str, WeaponSpec] = {}
    if table in rules:
        for row in rules[table].get(key, []):
            spec = _spec(row, hand)
            index[spec.name.lower()] = spec
            if spec.abbrev:
                index[spec.abbrev.lower()] = spec
    return index


def weapon_names(rules: Rules) -> list[str]:
    """Every weapon name, mounted and hand weapons together."""
    return sorted({s.name for hand in (False, True) for s in _weapon_index(rules, hand).values()})


def weapon_spec(rules: Rules, name: str, field: str = "weapon.type", *, hand: bool = False) -> WeaponSpec:
    """The weapon list entry for `name` (full name or abbreviation, any case) in its context (CW-VEH-06).

    `hand=False`: a weapon mounted on a vehicle (seeds/carwars/weapons.toml);
    `hand=True`: a hand weapon carried by a pedestrian or crew member
    (hand_weapons.toml). A name known only in the other list is refused with
    the rule that forbids it (CW-HAND-01)."""
    from ..errors import ScenarioError

    spec = _weapon_index(rules, hand).get(str(name).lower())
    if spec is not None:
        return spec
    if str(name).lower() in _weapon_index(rules, not hand):
        if hand:
            raise ScenarioError("not a hand weapon: a vehicle weapon cannot be carried", field=field, value=name, rule="CW-HAND-01")
        raise ScenarioError("a hand weapon cannot be mounted; give it to a crew member", field=field, value=name, rule="CW-HAND-01")
    which = "hand weapon list, seeds/carwars/hand_weapons.toml" if hand else "weapon list, seeds/carwars/weapons.toml"
    raise ScenarioError(f"unknown weapon (not in the {which})", field=field, value=name, rule="CW-VEH-06")


@dataclass(frozen=True)
class BodySpec:
    name: str
    kind: str
    size: str
    width: float
    length: float
    wheels: tuple[str, ...]
    sidecar_width: float = 0.0
    sidecar_length: float = 0.0


def body_spec(rules: Rules, name: str, field: str = "body") -> BodySpec:
    from ..errors import ScenarioError

    bodies = rules["carwars.bodies"]["body"]
    if name not in bodies:
        raise ScenarioError(f"unknown body (known: {', '.join(sorted(bodies))})", field=field, value=name, rule="CW-VEH-01")
    b = bodies[name]
    sc = b.get("sidecar_footprint", [0.0, 0.0])
    return BodySpec(name, b["kind"], b["size"], float(b["footprint"][0]), float(b["footprint"][1]), tuple(b["wheels"]),
                    float(sc[0]), float(sc[1]))
