"""Validation of the Car Wars tables in seeds/carwars and typed views of them."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ..data import Rules, need, register_validator
from ..dice import DiceExpr, parse_dice
from ..errors import DataError, DiceError

__all__ = ["WeaponSpec", "weapon_spec", "weapon_names", "check_usable", "body_spec", "BodySpec"]


def _ints(table: dict, path: str, keys: list[str], rule: str) -> None:
    for k in keys:
        need(table, k, int, path, rule)


def _validate_tohit(name: str, t: dict) -> None:
    _ints(need(t, "to_hit", dict, name), f"{name}.to_hit", ["natural_miss", "max_needed"], "CW-HIT-01")
    r = need(t, "range", dict, name)
    need(r, "point_blank_under", (int, float), f"{name}.range", "CW-HIT-02")
    need(r, "long_range_step", (int, float), f"{name}.range", "CW-HIT-02")
    if r["long_range_step"] <= 0:
        raise DataError("must be positive", field=f"{name}.range.long_range_step", value=r["long_range_step"], rule="CW-HIT-02")
    _ints(r, f"{name}.range", ["point_blank", "long_range_per_step"], "CW-HIT-02")
    sb = need(t, "speed_bands", dict, name)
    bands = need(sb, "bands", list, f"{name}.speed_bands", "CW-HIT-04")
    last = None
    for i, b in enumerate(bands):
        if not (isinstance(b, list) and len(b) == 2 and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in b)):
            raise DataError("each band is [lower mph, modifier]", field=f"{name}.speed_bands.bands[{i}]", value=b, rule="CW-HIT-04")
        if last is not None and b[0] <= last:
            raise DataError("band bounds must increase", field=f"{name}.speed_bands.bands[{i}]", value=b, rule="CW-HIT-04")
        last = b[0]
    _ints(sb, f"{name}.speed_bands", ["target_not_moving", "firer_not_moving", "pedestrian_braced"], "CW-HIT-04")
    rm = need(t, "relative_movement", dict, name)
    allowed = {"half_target", "half_difference", "target", "difference"}
    for row in ("front", "back", "side"):
        cells = need(rm, row, dict, f"{name}.relative_movement", "CW-HIT-03")
        for col in ("front", "back", "side"):
            v = need(cells, col, str, f"{name}.relative_movement.{row}", "CW-HIT-03")
            if v not in allowed:
                raise DataError(f"expected one of {sorted(allowed)}", field=f"{name}.relative_movement.{row}.{col}", value=v, rule="CW-HIT-03")
    need(rm, "literal_difference", bool, f"{name}.relative_movement", "CW-HIT-03")
    ts = need(t, "target_size", dict, name)
    _ints(ts, f"{name}.target_size", ["compact_any_direction", "car_front_back", "trike_top"], "CW-HIT-05")
    for cls in ("cycle", "sidecar", "light_trike", "medium_trike", "heavy_trike", "xheavy_trike"):
        _ints(need(ts, cls, dict, f"{name}.target_size", "CW-HIT-05"), f"{name}.target_size.{cls}", ["front_back", "side"], "CW-HIT-05")
    st = need(t, "specific_target", dict, name)
    _ints(st, f"{name}.specific_target", ["pedestrian", "pedestrian_prone", "pedestrian_head_up_behind_cover", "tire", "turret",
                                          "rider", "lamppost", "building", "searchlight", "ground", "sidecar", "tire_water_penalty"], "CW-HIT-06")
    vis = need(t, "visibility", dict, name)
    need(vis, "cloud_per", (int, float), f"{name}.visibility", "CW-LOF-04")
    _ints(vis, f"{name}.visibility", ["cloud_penalty", "rubble", "searchlight_blinded", "paint_on_windows", "paint_turns_after"], "CW-HIT-07")
    for cond, keys in (("weather", ("clear", "rain", "heavy_rain", "fog")), ("light", ("day", "night"))):
        _ints(need(vis, cond, dict, f"{name}.visibility", "CW-HIT-07"), f"{name}.visibility.{cond}", list(keys), "CW-HIT-07")
    fi = need(t, "firer", dict, name)
    _ints(need(fi, "computer", dict, f"{name}.firer", "CW-HIT-08"), f"{name}.firer.computer", ["none", "targeting", "hi_res", "cyberlink"], "CW-HIT-08")
    _ints(fi, f"{name}.firer", ["wounded_skill", "bad_surface"], "CW-HIT-08")
    _ints(need(t, "sustained_fire", dict, name), f"{name}.sustained_fire", ["second", "third_and_later"], "CW-HIT-09")
    _ints(need(t, "handling", dict, name), f"{name}.handling", ["trivial_skid", "minor_fishtail", "minor_skid", "moderate_skid", "major_fishtail"], "CW-HIT-10")
    _ints(need(t, "targeting", dict, name), f"{name}.targeting", ["wrong_arc"], "CW-TGT-01")


def _validate_bodies(name: str, t: dict) -> None:
    arcs = need(t, "arcs", dict, name)
    angle = need(arcs, "angle", (int, float), f"{name}.arcs", "CW-ARC-01")
    if not 0 < angle < 90:
        raise DataError("must be between 0 and 90 degrees", field=f"{name}.arcs.angle", value=angle, rule="CW-ARC-01")
    for k, v in need(t, "body", dict, name).items():
        path = f"{name}.body.{k}"
        kind = need(v, "kind", str, path, "CW-VEH-01")
        if kind not in ("car", "cycle", "trike"):
            raise DataError("expected car, cycle or trike", field=f"{path}.kind", value=kind, rule="CW-VEH-01")
        need(v, "size", str, path, "CW-HIT-05")
        fp = need(v, "footprint", list, path, "CW-VEH-01")
        if len(fp) != 2 or any(not isinstance(x, (int, float)) or x <= 0 for x in fp):
            raise DataError("footprint is [width, length] in inches, both positive", field=f"{path}.footprint", value=fp, rule="CW-VEH-01")
        need(v, "wheels", list, path, "CW-VEH-03")


def _validate_tires(name: str, t: dict) -> None:
    for k, v in need(t, "dp", dict, name).items():
        if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
            raise DataError("tire DP must be a positive integer", field=f"{name}.dp.{k}", value=v, rule="CW-VEH-03")


def _validate_weapons(name: str, t: dict) -> None:
    key = "hand_weapon" if name.endswith("hand_weapons") else "weapon"
    seen: dict[str, str] = {}     # every name and abbreviation (any case) -> the weapon it names
    for i, w in enumerate(need(t, key, list, name, "CW-VEH-06")):
        path = f"{name}.{key}[{i}]"
        wname = need(w, "name", str, path, "CW-VEH-06")
        _check_index_keys(seen, w, wname, path)
        need(w, "to_hit", int, path, "CW-VEH-06")
        if key == "weapon":
            need(w, "dp", int, path, "CW-VEH-06")
        _check_has_an_effect(w, path)
        for dice_key in ("damage", "tire_damage", "underbody_damage"):
            if dice_key in w:
                try:
                    parse_dice(w[dice_key])
                except DiceError as exc:
                    raise DataError(str(exc), field=f"{path}.{dice_key}", value=w[dice_key], rule="DICE-01") from None


def _check_index_keys(seen: dict[str, str], row: dict, wname: str, path: str) -> None:
    """CW-VEH-06: within one weapon list (mounted, or hand), a name or abbreviation names one weapon only.

    The mounted and the hand weapon lists are separate indexes: a name in both
    ("Grenade Launcher") is reached by its context (mounted on a vehicle, or
    carried), so only a clash inside one list is an error."""
    abbrev = row.get("abbrev", "")
    if not isinstance(abbrev, str):
        raise DataError("expected a string", field=f"{path}.abbrev", value=abbrev, rule="CW-VEH-06")
    for field_name, text in (("name", wname), ("abbrev", abbrev)):
        key = text.lower()
        if not key or (field_name == "abbrev" and key == wname.lower()):
            continue
        if key in seen:
            raise DataError(f"{text!r} already names {seen[key]!r} in this weapon list", field=f"{path}.{field_name}",
                            value=text, rule="CW-VEH-06")
        seen[key] = wname


def _check_has_an_effect(row: dict, path: str) -> None:
    """CW-VEH-06: a weapon that rolls to hit must do something the engine can give it: damage (dice or fixed hits),
    or else carry a `refused` reason, and then it cannot be fired (a dropped weapon that rolls to hit, too)."""
    refused = row.get("refused", "")
    if not isinstance(refused, str):
        raise DataError("expected the reason as a string", field=f"{path}.refused", value=refused, rule="CW-VEH-06")
    aimed = row.get("needs_to_hit", row["to_hit"] > 0)
    effect = ("damage" in row or "damage_hits" in row) and not row.get("dropped", False)
    if aimed and not effect and not refused:
        raise DataError("an aimed weapon needs damage (or damage_hits), or a `refused` reason saying why it cannot be fired",
                        field=path, value=row["name"], rule="CW-VEH-06")


def check_usable(spec: "WeaponSpec", field: str, value: object) -> None:
    """CW-VEH-06: a weapon whose effect the seeds do not give (`refused` in the weapon list) cannot be fired,
    dropped or put on automatic; the error says why (issue 9: never a shot that can do nothing)."""
    if spec.refused:
        from ..errors import RuleViolation

        raise RuleViolation(f"{spec.name} cannot be fired: {spec.refused}", field=field, value=value, rule="CW-VEH-06")


def _validate_designs(name: str, t: dict) -> None:
    for k, d in need(t, "design", dict, name).items():
        path = f"{name}.design.{k}"
        need(d, "body", str, path, "CW-VEH-05")
        need(d, "armour", dict, path, "CW-VEH-02")


register_validator("carwars.tohit", _validate_tohit)
register_validator("carwars.bodies", _validate_bodies)
register_validator("carwars.tires", _validate_tires)
register_validator("carwars.weapons", _validate_weapons)
register_validator("carwars.hand_weapons", _validate_weapons)
register_validator("carwars.designs", _validate_designs)


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
