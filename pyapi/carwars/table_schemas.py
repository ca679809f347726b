"""The Car Wars rule tables' schemas and validators (ARCH-05, SAFE-01).

Every table of seeds/carwars has a JSON Schema here, as a Python dict: the
structure, the types (integers where the rules count: modifiers, DP, bands;
never a fractional modifier), the ranges the engine and the compiled kernel
hold, and a `description` of every key. After the schema, a semantic check per
table: bands ordered, inside their die's range and, where the rule needs a
complete table, covering it without gaps or overlaps; dice expressions that
parse; speed bands that increase. Then the checks across tables
(`check_carwars_tables`): a design's body, weapons and tires exist and the
design builds; every body's size class has to-hit modifiers; every dropped
weapon has a counter footprint; the figures two tables both state agree.

The same validators run on the shipped tables and on every override (a house
rule), merged first (`hardpoint.data`), so that nothing they accept can make the
reference and the compiled kernel disagree. A refusal is a DataError naming the
table path (`carwars.damage.trike.wheel`), the value and the rule.
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Iterable

import jsonschema
from jsonschema import validators

from ..data import register_cross_validator, register_validator
from ..dice import DiceExpr, parse_dice
from ..errors import DataError, DiceError, HardpointError
from .validate import (MAX_AMMO, MAX_ARMOUR, MAX_COLLISION_SPEED, MAX_DIFFICULTY, MAX_DP, MAX_MODIFIER, MAX_SPEED, MAX_TURN,
                       MAX_WATER_FT, MAX_WEIGHT_LB, PHASES)

__all__ = ["TABLE_SCHEMAS", "StrictValidator", "first_error", "validate_table", "check_carwars_tables", "WHEELS",
           "TURN_ORDER_START", "TURN_ORDER_END"]


# --- a validator whose integers are ints and whose numbers are finite -------------------------------------

def _is_integer(_checker: Any, value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(_checker: Any, value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


_TYPES = jsonschema.Draft202012Validator.TYPE_CHECKER.redefine_many({"integer": _is_integer, "number": _is_number})
StrictValidator = validators.extend(jsonschema.Draft202012Validator, type_checker=_TYPES)
"""Draft 2020-12 with strict types: 2.0 is not an integer (a modifier of 2.0 would be a float in the reference and
an int in the kernel), True is neither, and NaN and infinities are not numbers."""

_TYPE_WORDS = {"integer": "a whole number", "number": "a finite number", "string": "text", "boolean": "true or false",
               "array": "a list", "object": "a table"}


def _path(prefix: str, parts: Iterable[Any]) -> str:
    out = prefix
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "(top level)"


def _rule_at(schema: dict, schema_path: Iterable[Any], default: str) -> str:
    """The `x-rule` of the innermost schema node on the failing path (the rule that part of the table states)."""
    rule = schema.get("x-rule", default)
    node: Any = schema
    for key in schema_path:
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            break
        if isinstance(node, dict) and "x-rule" in node:
            rule = node["x-rule"]
    return rule


_UPPER_BOUNDS = ("maximum", "exclusiveMaximum", "maxItems", "maxLength", "maxProperties")


def first_error(schema: dict, instance: Any, prefix: str = "", default_rule: str = "ARCH-05",
                validator_cls: Any = StrictValidator, bound_rule: str | None = None) -> tuple[str, str, Any, str] | None:
    """The first schema violation of `instance` (shallowest path first) as (field, message, value, rule), or None.

    The rule is the failing node's own `x-rule`; else, for an upper bound (a largest value, count or length),
    `bound_rule` if given (SAFE-01 in scenarios); else the `x-rule` of the innermost node on the failing path;
    else `default_rule`."""
    errors = list(validator_cls(schema).iter_errors(instance))
    if not errors:
        return None
    e = min(errors, key=lambda e: (len(e.absolute_path), [str(p) for p in e.absolute_path], str(e.validator)))
    field = _path(prefix, e.absolute_path)
    own = e.schema.get("x-rule") if isinstance(e.schema, dict) else None
    if own:
        rule = own
    elif bound_rule is not None and e.validator in _UPPER_BOUNDS:
        rule = bound_rule
    else:
        rule = _rule_at(schema, e.absolute_schema_path, default_rule)
    value = e.instance if not isinstance(e.instance, (dict, list)) else None
    v, vv = e.validator, e.validator_value
    if v == "required" and isinstance(e.instance, dict):
        missing = next((k for k in vv if k not in e.instance), "?")
        return f"{field}.{missing}" if field != "(top level)" else missing, "missing", None, rule
    if v == "additionalProperties" and isinstance(e.instance, dict):
        known = sorted(e.schema.get("properties", {}))
        extra = sorted(k for k in e.instance if k not in known)
        key = extra[0] if extra else "?"
        what = f" (known: {', '.join(known)})" if known else ""
        v_extra = e.instance.get(key)
        return (f"{field}.{key}" if field != "(top level)" else key, f"unknown key{what}",
                v_extra if not isinstance(v_extra, (dict, list)) else None, rule)
    if v == "type":
        kinds = vv if isinstance(vv, list) else [vv]
        message = "expected " + " or ".join(_TYPE_WORDS.get(k, k) for k in kinds)
    elif v in ("minimum", "maximum"):
        message = f"must be {'at least' if v == 'minimum' else 'at most'} {vv:,}"
    elif v in ("exclusiveMinimum", "exclusiveMaximum"):
        message = f"must be {'more' if v == 'exclusiveMinimum' else 'less'} than {vv:,}"
    elif v == "enum":
        message = f"expected one of {', '.join(map(str, vv))}"
    elif v == "const":
        message = f"must be {vv!r} (the engine holds no other value)"
    elif v == "minItems":
        message = f"needs at least {vv} item(s)"
    elif v == "maxItems":
        message = f"holds at most {vv:,} item(s)"
    elif v == "uniqueItems":
        message = "items must be distinct"
    elif v in ("minProperties", "maxProperties"):
        message = f"needs {'at least' if v == 'minProperties' else 'at most'} {vv:,} entr{'y' if vv == 1 else 'ies'}"
    elif v in ("minLength", "maxLength"):
        message = f"text {'shorter than' if v == 'minLength' else 'longer than'} {vv} character(s)"
    elif v == "pattern":
        message = f"does not match {vv}"
    else:
        message = e.message
    description = e.schema.get("description") if isinstance(e.schema, dict) else None
    if description and v in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "enum", "const", "type"):
        message += f" ({description})"
    return field, message, value, rule


def _bad(message: str, field: str, value: Any, rule: str) -> DataError:
    return DataError(message, field=field, value=value, rule=rule)


# --- schema building blocks -------------------------------------------------------------------------------

def _int(lo: int, hi: int, description: str) -> dict:
    return {"type": "integer", "minimum": lo, "maximum": hi, "description": description}


def _num(lo: float, hi: float, description: str, *, above: bool = False) -> dict:
    out: dict[str, Any] = {"type": "number", "maximum": hi, "description": description}
    out["exclusiveMinimum" if above else "minimum"] = lo
    return out


def _mod(description: str) -> dict:
    return _int(-MAX_MODIFIER, MAX_MODIFIER, f"{description}: a whole to-hit modifier, +{MAX_MODIFIER} at most either way")


def _band(lo: int, hi: int, description: str) -> dict:
    face = {"type": "integer", "minimum": lo, "maximum": hi}
    return {"type": "array", "prefixItems": [face, face], "items": False, "minItems": 2, "maxItems": 2,
            "description": f"{description}: [low, high], inclusive, on a roll from {lo} to {hi}"}


def _cw_dice(text, path: str) -> DiceExpr:
    """A Car Wars table's dice expression at `path` (DICE-01): what parse_dice takes, save ASL's `dr` and `DR`,
    which are not how Car Wars writes its dice; anything else is a DataError naming the field."""
    try:
        if text in ("dr", "DR"):
            raise DiceError("ASL notation: a Car Wars table writes its dice Nd, Nd+M or Nd-M (1d, 2d for ASL's dr, DR)",
                            field="dice", value=text, rule="DICE-01")
        return parse_dice(text)
    except DiceError as exc:
        raise _bad(str(exc), path, text, "DICE-01") from None


def _dice(description: str) -> dict:
    return {"type": "string", "maxLength": 16, "description": f"{description}: a dice expression (Nd, Nd+M, Nd-M)"}


def _foot(description: str, hi: float = 10.0) -> dict:
    side = {"type": "number", "minimum": 0.0625, "maximum": hi}
    return {"type": "array", "prefixItems": [side, side], "items": False, "minItems": 2, "maxItems": 2,
            "description": f"{description}: [width, length] in inches, each from 1/16 to {hi:g}"}


def _names(description: str, max_items: int = 64) -> dict:
    return {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 64}, "maxItems": max_items,
            "description": description}


def _bool(description: str) -> dict:
    return {"type": "boolean", "description": description}


def _text(description: str, max_length: int = 4096) -> dict:
    return {"type": "string", "maxLength": max_length, "description": description}


_RULE = {"type": "string", "maxLength": 32, "description": "the SPEC rule id the table or section states (documentation)"}
_NAME = {"type": "string", "minLength": 1, "maxLength": 64}


def _section(rule: str, props: dict, description: str = "", *, optional: Iterable[str] = (), extra: Any = False) -> dict:
    out: dict[str, Any] = {"type": "object", "properties": {"rule": _RULE, **props},
                           "required": [k for k in props if k not in set(optional)], "additionalProperties": extra,
                           "x-rule": rule}
    if description:
        out["description"] = description
    return out


def _map(value: dict, description: str, *, min_entries: int = 0, max_entries: int = 256, rule: str | None = None,
         with_rule: bool = False) -> dict:
    out: dict[str, Any] = {"type": "object", "additionalProperties": value, "propertyNames": _NAME,
                           "minProperties": min_entries, "maxProperties": max_entries, "description": description}
    if with_rule:
        out["properties"] = {"rule": _RULE}
    if rule:
        out["x-rule"] = rule
    return out


# --- carwars.tohit ----------------------------------------------------------------------------------------

_SPEED_KIND = {"enum": ["half_target", "half_difference", "target", "difference"],
               "description": "the speed the bands read: half_target (1/2 target speed), half_difference (1/2 |T - F|), "
                              "target (target speed), difference (|T - F|, or target speed if they close)"}
_ROW = {"type": "object", "properties": {"front": _SPEED_KIND, "back": _SPEED_KIND, "side": _SPEED_KIND},
        "required": ["front", "back", "side"], "additionalProperties": False,
        "description": "by the firer arc the target stands in (front, back, side)"}
_SIZE = {"type": "object", "properties": {"front_back": _mod("shot from the front or back"), "side": _mod("shot from a side")},
         "required": ["front_back", "side"], "additionalProperties": False, "x-rule": "CW-HIT-05",
         "description": "a size class's modifiers by the direction of the shot"}

TOHIT = _section("CW-HIT-01", {
    "to_hit": _section("CW-HIT-01", {
        "natural_miss": _int(1, 2, "the 2d6 roll that always misses: 2 (the rule), or 1 for none; the exact odds assume "
                                   "it is the lowest roll"),
        "max_needed": _int(2, 12, "needing more than this on 2d6: no hit possible (the shot still counts)"),
    }),
    "range": _section("CW-HIT-02", {
        "point_blank_under": _num(0, 100, "inches: a range under this is point blank", above=True),
        "point_blank": _mod("point blank"),
        "long_range_step": _num(0.25, 1000, "inches: each full step of range adds long_range_per_step"),
        "long_range_per_step": _mod("per full long-range step"),
    }),
    "speed_bands": _section("CW-HIT-04", {
        "bands": {"type": "array", "maxItems": 32, "description": "[lower bound in mph (inclusive), modifier], lower "
                  "bounds increasing; below the first bound: 0",
                  "items": {"type": "array", "minItems": 2, "maxItems": 2, "items": False,
                            "prefixItems": [_num(0, 2 * MAX_SPEED, "mph"), _mod("speed band")]}},
        "target_not_moving": _mod("the target is not moving"),
        "firer_not_moving": _mod("the firer is not moving"),
        "pedestrian_braced": _mod("a pedestrian braced on a solid object"),
    }),
    "relative_movement": _section("CW-HIT-03", {
        "literal_difference": _bool("true: T - F read literally (a negative gives no penalty); false: |T - F|"),
        "front": {**_ROW, "description": "the firer in the target's front arc, " + _ROW["description"]},
        "back": {**_ROW, "description": "the firer in the target's back arc, " + _ROW["description"]},
        "side": {**_ROW, "description": "the firer in a side arc of the target, " + _ROW["description"]},
    }),
    "target_size": _section("CW-HIT-05", {
        "compact_any_direction": _mod("a compact or subcompact, any direction (adds to car_front_back)"),
        "car_front_back": _mod("any car shot from the front or back"),
        "trike_top": {**_mod("a shot at a trike's top, once, on the direction's size modifier"), "x-rule": "CW-TGT-06"},
        "cycle": _SIZE, "sidecar": _SIZE, "light_trike": _SIZE, "medium_trike": _SIZE, "heavy_trike": _SIZE,
        "xheavy_trike": _SIZE,
    }, "size classes (a body's `size`): compact and car use the two car keys; every other class its own table",
        extra=_SIZE),
    "specific_target": _section("CW-HIT-06", {
        **{k: _mod(k.replace("_", " ")) for k in ("pedestrian", "pedestrian_prone", "pedestrian_head_up_behind_cover", "tire",
                                                  "turret", "rider", "lamppost", "building", "searchlight", "ground", "sidecar")},
        "tire_water_untargetable_over_ft": _num(0, MAX_WATER_FT, "feet of water over which a tire cannot be targeted"),
        "tire_water_penalty_over_ft": _num(0, MAX_WATER_FT, "feet of water over which a tire shot takes tire_water_penalty"),
        "tire_water_penalty": _mod("a tire in water"),
    }),
    "visibility": _section("CW-HIT-07", {
        "cloud_per": {**_num(0.05, 100, "inches of smoke or paint crossed per cloud_penalty (rounded up)"), "x-rule": "CW-LOF-04"},
        "cloud_penalty": {**_mod("per cloud_per inches of cloud"), "x-rule": "CW-LOF-04"},
        "weather": {"type": "object", "additionalProperties": False, "required": ["clear", "rain", "heavy_rain", "fog"],
                    "properties": {k: _mod(k.replace("_", " ")) for k in ("clear", "rain", "heavy_rain", "fog")},
                    "description": "by weather; adds to the light's modifier"},
        "light": {"type": "object", "additionalProperties": False, "required": ["day", "night"],
                  "properties": {k: _mod(k) for k in ("day", "night")}, "description": "by light"},
        "rubble": _mod("the target in a rubble area"),
        "searchlight_blinded": _mod("the firer blinded by a searchlight"),
        "paint_on_windows": _mod("paint on the firer's windows"),
        "paint_turns_after": _int(0, 1000, "turns after the turn of contact that paint stays on windows (the same figure "
                                           "as carwars.dropped.clouds.paint_window_turns, which the engine reads)"),
    }),
    "firer": _section("CW-HIT-08", {
        "computer": {"type": "object", "additionalProperties": False, "required": ["none", "targeting", "hi_res", "cyberlink"],
                     "properties": {"none": {"const": 0, "description": "no computer: nothing"},
                                    **{k: _mod(f"{k.replace('_', '-')} computer") for k in ("targeting", "hi_res", "cyberlink")}},
                     "description": "by computer; only the best one counts"},
        "wounded_skill": _mod("a wounded firer"),
        "bad_surface": _mod("firing on oil, gravel or a bad road"),
    }),
    "sustained_fire": _section("CW-HIT-09", {"second": _mod("the second consecutive turn"),
                                             "third_and_later": _mod("the third consecutive turn and later")}),
    "handling": _section("CW-HIT-10", {k: _mod(k.replace("_", " ")) for k in ("trivial_skid", "minor_fishtail", "minor_skid",
                                                                              "moderate_skid", "major_fishtail")},
                         "by the firer's skid or fishtail this turn; a house rule may add events", extra=_mod("a handling event")),
    "targeting": _section("CW-TGT-01", {"wrong_arc": _mod("a facing side whose arc does not hold the firer")}),
}, "Car Wars to-hit modifiers (CW-HIT-01..11)")


def _check_tohit(name: str, t: dict) -> None:
    last = None
    for i, (lower, _mod_value) in enumerate(t["speed_bands"]["bands"]):
        if last is not None and lower <= last:
            raise _bad("band bounds must increase", f"{name}.speed_bands.bands[{i}]", [lower, _mod_value], "CW-HIT-04")
        last = lower
    st = t["specific_target"]
    if st["tire_water_penalty_over_ft"] > st["tire_water_untargetable_over_ft"]:
        raise _bad("the penalty depth must not be deeper than the depth at which a tire cannot be targeted",
                   f"{name}.specific_target.tire_water_penalty_over_ft", st["tire_water_penalty_over_ft"], "CW-HIT-06")


# --- carwars.bodies ---------------------------------------------------------------------------------------

WHEELS = ("front", "back", "front_left", "front_right", "back_left", "back_right")

_BODY = {"type": "object", "x-rule": "CW-VEH-01", "additionalProperties": False,
         "required": ["kind", "size", "footprint", "wheels"],
         "properties": {
             "kind": {"enum": ["car", "cycle", "trike"], "description": "how the body is damaged and targeted"},
             "size": {"type": "string", "minLength": 1, "maxLength": 64, "x-rule": "CW-HIT-05",
                      "description": "size class: compact, car or a class of carwars.tohit.target_size"},
             "footprint": _foot("the counter"),
             "wheels": {"type": "array", "items": {"enum": list(WHEELS)}, "minItems": 1, "maxItems": 6, "uniqueItems": True,
                        "x-rule": "CW-VEH-03", "description": "the wheel positions, one tire each; a trike has a front wheel"},
             "sidecar_footprint": _foot("a cycle's sidecar counter, beside it"),
         }}

BODIES = _section("CW-VEH-01", {
    "arcs": _section("CW-ARC-01", {"angle": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 90,
                                             "description": "degrees between an arc's dividing line and the counter's axis"}}),
    "parts": _section("CW-LOF-03", {"tire": _foot("a tire"), "turret": _foot("a turret"), "rider": _foot("a cycle's rider")},
                      "footprints of the parts that can be aimed at"),
    "body": _map(_BODY, "vehicle bodies by name", min_entries=1, rule="CW-VEH-01"),
    "pedestrian": _section("CW-VEH-01", {"footprint": _foot("a pedestrian's square counter (width = length)", 1.0),
                                         "dp": {"const": 3, "x-rule": "CW-CREW-01", "description": "a person's DP"}}, optional=["dp"]),
}, "Car Wars bodies and counters (CW-VEH-01, CW-ARC-01)", optional=["rule"])


def _check_bodies(name: str, t: dict) -> None:
    w, length = t["pedestrian"]["footprint"]
    if w != length:
        raise _bad("a pedestrian's counter is square (the engine reads its width only)", f"{name}.pedestrian.footprint",
                   [w, length], "CW-VEH-01")
    for key, b in t["body"].items():
        path = f"{name}.body.{key}"
        if b["kind"] == "trike" and "front" not in b["wheels"]:
            raise _bad("a trike has a single front wheel (reversed trikes swap it to the back)", f"{path}.wheels", b["wheels"],
                       "CW-TGT-06")
        if "sidecar_footprint" in b and b["kind"] != "cycle":
            raise _bad("only cycles take a sidecar", f"{path}.sidecar_footprint", b["sidecar_footprint"], "CW-TGT-05")


# --- carwars.tires ----------------------------------------------------------------------------------------

TIRES = _section("CW-VEH-03", {"dp": _map(_int(1, MAX_DP, "the tire's DP"), "tire DP by tire type", min_entries=1)},
                 "Car Wars tire DP by type (CW-VEH-03)", optional=["rule"])

# --- carwars.designs: structure here, contents checked by building each design (check_carwars_tables) ------

DESIGNS = _section("CW-VEH-05", {"design": _map({"type": "object", "x-rule": "CW-VEH-05",
                                                 "description": "a vehicle entry without id or position"},
                                                "stock designs by name", min_entries=0, max_entries=1024)},
                   "Car Wars stock designs (CW-VEH-05)", optional=["rule"])

# --- carwars.weapons and carwars.hand_weapons --------------------------------------------------------------

_WEAPON_ROW = {"type": "object", "x-rule": "CW-VEH-06", "additionalProperties": False, "required": ["name", "to_hit"],
               "properties": {
                   "name": {**_NAME, "description": "the weapon's name, unique in its list (any case)"},
                   "abbrev": {"type": "string", "maxLength": 32, "description": "abbreviation, unique in its list"},
                   "category": _text("category (documentation)", 128),
                   "to_hit": _int(0, 20, "the to-hit number on 2d6 (0: never rolled)"),
                   "needs_to_hit": _bool("whether it rolls to hit (default: to_hit > 0)"),
                   "damage": {**_dice("damage dice"), "x-rule": "DICE-01"},
                   "damage_hits": _int(0, 1000, "a fixed number of hits instead of damage dice"),
                   "damage_half_of": {**_dice("documentation: the damage this one halves"), "x-rule": "DICE-01"},
                   "dp": _int(0, MAX_DP, "the weapon's DP when mounted"),
                   "shots": _int(0, MAX_AMMO, "shots of ammunition (0: unlimited)"),
                   "cost": _num(0, 1e9, "dollars (documentation)"),
                   "weight_lb": _num(0, MAX_WEIGHT_LB, "pounds (documentation)"),
                   "spaces": _num(0, 1000, "spaces (documentation)"),
                   "ammo_cost_per_shot": _num(0, 1e9, "dollars (documentation)"),
                   "ammo_lb_per_shot": _num(0, 1e6, "pounds (documentation)"),
                   "burst_effect": _bool("documentation: burst_radius is what the engine reads"),
                   "burst_radius": {**_num(0, 20, "inches: 1d to pedestrians within (CW-DMG-06)"), "x-rule": "CW-DMG-06"},
                   "vehicle_burst_radius": _num(0, 20, "inches: half damage to vehicle components (documentation)"),
                   "area_effect": {**_bool("attacks pedestrians within 1 inch of each other (CW-DMG-07)"), "x-rule": "CW-DMG-07"},
                   "dropped": {**_bool("a dropped weapon: no to-hit roll, lays a counter"), "x-rule": "CW-DROP-01"},
                   "dropped_kind": {**_NAME, "x-rule": "CW-DROP-01",
                                    "description": "the counter it lays: a key of carwars.dropped.footprint"},
                   "cloud": {"type": "string", "maxLength": 32, "x-rule": "CW-DROP-05",
                             "description": "the cloud it lays: paint, or any other word for smoke ('' for none)"},
                   "laser": _bool("a laser (CW-LOF-04, CW-FIRE-02)"),
                   "rocket": _bool("a rocket or missile (CW-FIRE-03)"),
                   "flamethrower": _bool("a flamethrower (CW-FIRE-02/03, CW-DMG-07)"),
                   "flaming_oil_jet": _bool("a flaming oil jet (CW-FIRE-02/03)"),
                   "at_gun": _bool("an anti-tank gun (CW-FIRE-03)"),
                   "tech_level": _text("tech level (documentation)", 64),
                   "ammo_types": _names("ammunition types (documentation)"),
                   "refused": _text("why the engine refuses to fire it (its effect is not in the seeds)"),
                   "tire_damage": {**_dice("damage to each tire (spikes, mines)"), "x-rule": "DICE-01"},
                   "underbody_damage": {**_dice("damage to the underbody (mines)"), "x-rule": "DICE-01"},
                   "fire_modifier": {**_int(0, 12, "the Vehicular Fire Table modifier"), "x-rule": "CW-FIRE-01"},
                   "burn_duration": {**_int(0, 100, "turns the fire modifier lasts after the hit"), "x-rule": "CW-FIRE-01"},
                   "half_vs_solid_tires": _bool("solid and plasticore tires take half"),
                   "vs_vehicles": {"enum": ["none", "half", "full"], "x-rule": "CW-HAND-01",
                                   "description": "a hand weapon's effect on vehicle components beyond point blank"},
                   "max_range": {**_num(0, 1000, "inches: a hand weapon's longest range", above=True), "x-rule": "CW-HAND-01"},
                   "grenade_equivalents": {**_int(0, 100, "grenade-equivalents carried"), "x-rule": "CW-HAND-01"},
                   "thrown": _bool("a thrown grenade"),
               }}

WEAPONS = _section("CW-VEH-06", {
    "source": _text("where the figures come from (documentation)"),
    "weapon": {"type": "array", "items": _WEAPON_ROW, "minItems": 1, "maxItems": 1024, "description": "vehicle weapons"},
}, "the Car Wars vehicle weapon list (CW-VEH-06)", optional=["rule", "source"])

HAND_WEAPONS = _section("CW-HAND-01", {
    "source": _text("where the figures come from (documentation)"),
    "max_grenade_equivalents": _int(0, 100, "grenade-equivalents one person may carry"),
    "grenade_max_range": _num(0, 1000, "inches (documentation: each weapon's max_range is read)"),
    "hand_weapon_max_range": _num(0, 1000, "inches (documentation: each weapon's max_range is read)"),
    "grenade_burst_radius": _num(0, 20, "inches (documentation: each weapon's burst_radius is read)"),
    "grenade_vehicle_radius": _num(0, 20, "inches (documentation)"),
    "grenade_box_count": _int(0, 1000, "grenades in a box: a fetch_grenade takes one from the first box of the cargo that is whole and not empty"),
    "grenade_box_weight_lb": _num(0, 1000, "pounds (documentation)"),
    "grenade_box_spaces": _num(0, 100, "spaces (documentation)"),
    "grenade_box_fetch_turns": _int(0, 100, "turns to get a grenade out (documentation: fetching takes the turn)"),
    "grenade_box_holds": _text("the hand weapon a box of grenades in the cargo holds, by name (fetch_grenade)", 64),
    "hand_weapon": {"type": "array", "items": _WEAPON_ROW, "minItems": 1, "maxItems": 1024, "description": "hand weapons"},
}, "the Car Wars hand weapon list (CW-HAND-01)", optional=["rule", "source", "grenade_max_range", "hand_weapon_max_range",
                                                            "grenade_burst_radius", "grenade_vehicle_radius", "grenade_box_count",
                                                            "grenade_box_weight_lb", "grenade_box_spaces", "grenade_box_fetch_turns"])


def _check_weapons(name: str, t: dict) -> None:
    key = "hand_weapon" if name.endswith("hand_weapons") else "weapon"
    seen: dict[str, str] = {}
    for i, w in enumerate(t[key]):
        path = f"{name}.{key}[{i}]"
        _check_index_keys(seen, w, w["name"], path)
        if key == "weapon" and "dp" not in w:
            raise _bad("missing", f"{path}.dp", None, "CW-VEH-06")
        for dice_key in ("damage", "tire_damage", "underbody_damage", "damage_half_of"):
            if dice_key in w:
                _cw_dice(w[dice_key], f"{path}.{dice_key}")
        if "damage" in w and "damage_hits" in w:
            raise _bad("give damage dice or a fixed number of hits, not both", f"{path}.damage_hits", w["damage_hits"], "CW-VEH-06")
        if "burn_duration" in w and "fire_modifier" not in w:
            raise _bad("a burn duration without a fire modifier does nothing", f"{path}.burn_duration", w["burn_duration"], "CW-FIRE-01")
        _check_has_an_effect(w, path)
    if key == "hand_weapon" and t["grenade_box_holds"] not in {w["name"] for w in t[key]}:
        raise _bad("names no hand weapon of this list", f"{name}.grenade_box_holds", t["grenade_box_holds"], "CW-HAND-01")


def _check_index_keys(seen: dict[str, str], row: dict, wname: str, path: str) -> None:
    """CW-VEH-06: within one weapon list (mounted, or hand), a name or abbreviation names one weapon only.

    The mounted and the hand weapon lists are separate indexes: a name in both
    ("Grenade Launcher") is reached by its context (mounted on a vehicle, or
    carried), so only a clash inside one list is an error."""
    abbrev = row.get("abbrev", "")
    for field_name, text in (("name", wname), ("abbrev", abbrev)):
        key = text.lower()
        if not key or (field_name == "abbrev" and key == wname.lower()):
            continue
        if key in seen:
            raise _bad(f"{text!r} already names {seen[key]!r} in this weapon list", f"{path}.{field_name}", text, "CW-VEH-06")
        seen[key] = wname


def _check_has_an_effect(row: dict, path: str) -> None:
    """CW-VEH-06: a weapon that rolls to hit must do something the engine can give it: damage (dice or fixed hits),
    or else carry a `refused` reason, and then it cannot be fired (a dropped weapon that rolls to hit, too)."""
    aimed = row.get("needs_to_hit", row["to_hit"] > 0)
    effect = ("damage" in row or "damage_hits" in row) and not row.get("dropped", False)
    if aimed and not effect and not row.get("refused", ""):
        raise _bad("an aimed weapon needs damage (or damage_hits), or a `refused` reason saying why it cannot be fired",
                   path, row["name"], "CW-VEH-06")


# --- carwars.damage ---------------------------------------------------------------------------------------

DAMAGE = {"type": "object", "additionalProperties": False, "x-rule": "CW-DMG-01",
          "description": "Car Wars damage location and its consequences (CW-DMG, CW-TGT-04..06, CW-CREW)",
          "required": ["hazard", "obstacle", "crew", "cycle", "sidecar", "trike", "burst", "area"], "properties": {
    "rule": _RULE,
    "hazard": _section("CW-DMG-01", {"bands": {
        "type": "array", "minItems": 1, "maxItems": 32,
        "description": "[hits in one phase (at least), hazard difficulty], hits increasing",
        "items": {"type": "array", "minItems": 2, "maxItems": 2, "items": False,
                  "prefixItems": [_int(1, 1_000_000, "hits"), _int(0, MAX_DIFFICULTY, "D")]}}}),
    "obstacle": _section("CW-DMG-08", {"hits_in_phase": _int(1, 1_000_000, "hits in one phase that drop an obstacle"),
                                       "size_in": {**_num(0.05, 10, "inches across an obstacle's square counter"),
                                                   "x-rule": "CW-SEED-04"},
                                       "hazard": {**_int(0, MAX_DIFFICULTY, "D of the hazard a vehicle meets running onto "
                                                                            "an obstacle"), "x-rule": "CW-SEED-04"}}),
    "crew": _section("CW-CREW-01", {
        "dp": {"const": 3, "description": "a person's DP (fixed in the engine and the kernel)"},
        "driver_hazard": {**_int(0, MAX_DIFFICULTY, "D of the hazard when the driver is wounded or killed"), "x-rule": "CW-CREW-02"},
        "uncontrolled_slowdown_mph": {**_num(0, MAX_SPEED, "mph an uncontrolled vehicle loses a turn"), "x-rule": "CW-CREW-03"},
        "crash_table_bonus": {**_int(-20, 20, "added to Crash Table 1 for an uncontrolled cycle"), "x-rule": "CW-CREW-03"},
        "crash_table_1": {"type": "array", "minItems": 1, "maxItems": 64, "x-rule": "CW-CREW-03",
                          "description": "[lowest modified roll, result], rolls increasing (reported, not resolved)",
                          "items": {"type": "array", "minItems": 2, "maxItems": 2, "items": False,
                                    "prefixItems": [_int(-100, 100, "modified 2d6 roll"), _text("result", 128)]}},
        "passenger_jumps_on": {**_names("Crash Table 1 results at which an uncontrolled cycle's able passengers jump off"),
                               "x-rule": "CW-SEED-01"},
        "replace_driver_turns": {**_int(0, 1000, "turns to replace a stopped vehicle's driver"), "x-rule": "CW-CREW-04"},
        "substitute_maneuver_penalty": {**_int(0, MAX_DIFFICULTY, "D added to a substitute driver's maneuvers"), "x-rule": "CW-CREW-04"},
    }, optional=["dp"]),
    "cycle": _section("CW-TGT-04", {
        "end_armour": _band(2, 12, "2d6 from the front or back: that armour"),
        "end_wheel": _band(2, 12, "2d6 from the front or back: the exposed wheel"),
        "side_driver": _band(2, 12, "2d6 from a side: the driver"),
        "side_power_plant": _band(2, 12, "2d6 from a side: the power plant"),
        "side_weapon": _band(2, 12, "2d6 from a side: a weapon (roll again if none)"),
        "side_tire": _band(2, 12, "2d6 from a side: a tire"),
    }),
    "sidecar": _section("CW-TGT-05", {"cycle": _band(1, 6, "1d at the whole cycle from the sidecar's side: the cycle"),
                                      "sidecar": _band(1, 6, "1d at the whole cycle from the sidecar's side: the sidecar")}),
    "area": _section("CW-DMG-07", {"share_divisor": _int(1, 100, "each victim an area-effect attack hits takes the damage "
                                                                "divided by this, rounded up (a flamethrower: all of it)")}),
    "burst": _section("CW-DMG-06", {"damage": {**_dice("to each pedestrian a burst reaches (a hand weapon with damage dice, "
                                                      "a grenade: its own)"), "x-rule": "DICE-01"}}),
    "trike": _section("CW-TGT-06", {"wheel": _band(2, 12, "2d6 at the single-wheel end: the wheel"),
                                    "armour": _band(2, 12, "2d6 at the single-wheel end: the armour, then inward")}),
}}


def _band_ok(band: list[int], field: str, rule: str) -> None:
    if band[0] > band[1]:
        raise _bad("a band is [low, high] with low <= high", field, band, rule)


def _partition(bands: dict[str, list[int]], lo: int, hi: int, path: str, rule: str, what: str) -> None:
    """The named bands cover lo..hi, each roll exactly once (the table is complete)."""
    for k, b in bands.items():
        _band_ok(b, f"{path}.{k}", rule)
    expected = lo
    for k, b in sorted(bands.items(), key=lambda kv: kv[1][0]):
        if b[0] != expected:
            word = "overlaps the band before it" if b[0] < expected else f"leaves {expected}-{b[0] - 1} to no result"
            raise _bad(f"{word}: the bands of {what} cover {lo}-{hi} once each", f"{path}.{k}", b, rule)
        expected = b[1] + 1
    if expected != hi + 1:
        last = max(bands, key=lambda k: bands[k][1])
        raise _bad(f"leaves {expected}-{hi} to no result: the bands of {what} cover {lo}-{hi} once each", f"{path}.{last}",
                   bands[last], rule)


def _check_damage(name: str, t: dict) -> None:
    _cw_dice(t["burst"]["damage"], f"{name}.burst.damage")
    last = None
    for i, (low, _d) in enumerate(t["hazard"]["bands"]):
        if last is not None and low <= last:
            raise _bad("band bounds must increase", f"{name}.hazard.bands[{i}]", [low, _d], "CW-DMG-01")
        last = low
    last = None
    for i, (low, result) in enumerate(t["crew"]["crash_table_1"]):
        if last is not None and low <= last:
            raise _bad("rolls must increase", f"{name}.crew.crash_table_1[{i}]", [low, result], "CW-CREW-03")
        last = low
    c = t["cycle"]
    _partition({k: c[k] for k in ("end_armour", "end_wheel")}, 2, 12, f"{name}.cycle", "CW-TGT-04", "a cycle's front or back")
    _partition({k: c[k] for k in ("side_driver", "side_power_plant", "side_weapon", "side_tire")}, 2, 12, f"{name}.cycle",
               "CW-TGT-04", "a cycle's side")
    _partition({k: t["sidecar"][k] for k in ("cycle", "sidecar")}, 1, 6, f"{name}.sidecar", "CW-TGT-05", "cycle or sidecar")
    _partition({k: t["trike"][k] for k in ("wheel", "armour")}, 2, 12, f"{name}.trike", "CW-TGT-06", "a trike's wheel end")


# --- carwars.collisions -----------------------------------------------------------------------------------

COLLISIONS = _section("CW-COL-04", {
    "ram": {"type": "array", "minItems": 1, "maxItems": 64,
            "description": "[speed in mph (upper bound, inclusive), damage dice], speeds increasing",
            "items": {"type": "array", "minItems": 2, "maxItems": 2, "items": False,
                      "prefixItems": [_num(0, MAX_COLLISION_SPEED, "mph", above=True), _dice("collision damage")]}},
    "dice_per_5_mph_above": _int(0, 10, "dice added per speed_step above the last row"),
    "speed_step": _num(1, 100, "mph: speeds between rows round up to a multiple of this"),
    "metal_armour_factor": {**_int(1, 10, "metal armour stops this many times its value"), "x-rule": "CW-COL-02"},
    "metal_loss_cap_fraction": {**_num(0, 1, "at most this fraction of the side's metal armour (rounded up) is lost in "
                                             "one collision", above=True), "x-rule": "CW-COL-02"},
    "jump_speed_reduction": _num(0, MAX_COLLISION_SPEED, "mph: jumping out off-road is a sideswipe at this much less"),
    "offroad_roll_damage": {**_dice("each side hitting the ground, and each tire, when rolling off-road"), "x-rule": "DICE-01"},
    "weight_classes": {"type": "array", "minItems": 1, "maxItems": 32,
                       "description": "[weight in lb (upper bound, inclusive), damage factor], weights increasing; heavier than "
                                      "the last: one more per multiple of the last weight",
                       "items": {"type": "array", "minItems": 2, "maxItems": 2, "items": False,
                                 "prefixItems": [_num(0, MAX_WEIGHT_LB, "lb", above=True), _num(0, 10, "factor", above=True)]}},
    "pedestrian_factor": _num(0, 10, "damage factor of a pedestrian doing the hitting", above=True),
}, "Car Wars collision damage (CW-COL-01..04)", optional=["rule"])

_MIN_LAST_WEIGHT = 1000.0   # lb: with MAX_WEIGHT_LB, a factor of at most 100 beyond the last class (kernel int32 sums)


def _check_collisions(name: str, t: dict) -> None:
    last = None
    for i, (upper, dice) in enumerate(t["ram"]):
        if last is not None and upper <= last:
            raise _bad("speeds must increase", f"{name}.ram[{i}]", [upper, dice], "CW-COL-04")
        last = upper
        _cw_dice(dice, f"{name}.ram[{i}][1]")
    # the dice at the highest speed a scenario may give must be an expression the dice hold (at most 99 dice)
    step = t["speed_step"]
    speed = math.ceil(MAX_COLLISION_SPEED / step - 1e-9) * step
    if speed > t["ram"][-1][0]:
        count = 1 + int((speed - t["ram"][-1][0]) // step) * t["dice_per_5_mph_above"]
        if count > 99:
            raise _bad(f"at {MAX_COLLISION_SPEED:g} mph the table gives {count} dice; at most 99", f"{name}.dice_per_5_mph_above",
                       t["dice_per_5_mph_above"], "CW-COL-04")
    _cw_dice(t["offroad_roll_damage"], f"{name}.offroad_roll_damage")
    last = None
    for i, (upper, factor) in enumerate(t["weight_classes"]):
        if last is not None and upper <= last:
            raise _bad("weights must increase", f"{name}.weight_classes[{i}]", [upper, factor], "CW-COL-04")
        last = upper
    if t["weight_classes"][-1][0] < _MIN_LAST_WEIGHT:
        raise _bad(f"the last class must reach at least {_MIN_LAST_WEIGHT:g} lb (heavier weights multiply by one more per "
                   "multiple of it)", f"{name}.weight_classes[{len(t['weight_classes']) - 1}]", t["weight_classes"][-1], "CW-COL-04")
    # CW-COL-02: the reference rounds up before * fraction; the kernel the fraction it is given to 1/1000: the same
    # loss for every armour value a scenario may hold, or the override is refused
    x = t["metal_loss_cap_fraction"]
    f = Fraction(x).limit_denominator(1000)
    for before in range(MAX_ARMOUR + 1):
        if math.ceil(before * x) != -(-before * f.numerator // f.denominator):
            raise _bad(f"not a fraction with a denominator of at most 1000 (for {before} points of armour it rounds "
                       "differently from its nearest such fraction)", f"{name}.metal_loss_cap_fraction", x, "CW-COL-02")


# --- carwars.fire -----------------------------------------------------------------------------------------

FIRE = {"type": "object", "additionalProperties": False, "x-rule": "CW-FIRE-01",
        "description": "Car Wars fire and explosion (CW-FIRE-01..05)",
        "required": ["start", "extinguisher", "damage", "explosion"], "properties": {
    "rule": _RULE,
    "start": _section("CW-FIRE-02", {
        "component_hit": _band(1, 6, "1d after a hit on the power plant, a flamethrower or a flaming oil jet: fire"),
        "component_hit_fiery": _band(1, 6, "1d, the same when the damage came from a laser, flamethrower or flaming oil jet"),
        "flaming_oil_weapon": {**_NAME, "x-rule": "CW-FIRE-01",
                               "description": "the weapon whose hit driving through flaming oil counts as (the weapon list)"},
    }),
    "extinguisher": _section("CW-FIRE-03", {k: _band(1, 6, f"1d: a {k} extinguisher puts the fire out")
                                            for k in ("standard", "improved", "portable")}),
    "damage": _section("CW-FIRE-03", {"per_turn": _int(0, 100, "hits to every occupant and component, points off every "
                                                               "armour location, each burning turn")}),
    "explosion": _section("CW-FIRE-04", {
        "roll": {**_band(1, 6, "1d at the end of each burning turn: it explodes"), "x-rule": "CW-FIRE-03"},
        "radius": _num(0, 100, "inches: pedestrians and vehicles within take the damage"),
        "damage": {**_dice("the blast's damage"), "x-rule": "DICE-01"},
    }),
}}


def _check_fire(name: str, t: dict) -> None:
    for section, keys in (("start", ("component_hit", "component_hit_fiery")), ("extinguisher", ("standard", "improved", "portable")),
                          ("explosion", ("roll",))):
        for k in keys:
            _band_ok(t[section][k], f"{name}.{section}.{k}", t[section].get("rule", "CW-FIRE-03"))
    _cw_dice(t["explosion"]["damage"], f"{name}.explosion.damage")


# --- carwars.dropped --------------------------------------------------------------------------------------

DROPPED = _section("CW-DROP-01", {
    "footprint": _map(_foot("the counter, aligned with the dropping vehicle"), "counter footprints by dropped kind (a weapon's "
                      "dropped_kind; 'cloud' for smoke and paint, 'junk' for anything else)", min_entries=1, rule="CW-DROP-01"),
    "placement": _section("CW-DROP-01", {"side_offset": _num(0, 10, "inches: a side-mounted counter lies this far off the centre line"),
                                         "adjacent": _num(0, 10, "inches: the width of the adjacent squares all round a counter")}),
    "spikes": _section("CW-DROP-02", {"on_counter": _band(1, 6, "1d crossing the counter: each tire takes the damage"),
                                      "adjacent": _band(1, 6, "1d crossing only the adjacent squares"),
                                      "half_for": _names("tire types that take half (rounded up)")}),
    "mines": _section("CW-DROP-03", {"on_counter": _band(1, 6, "1d a wheel crossing the counter: they explode"),
                                     "adjacent": _band(1, 6, "1d a wheel crossing only the adjacent squares"),
                                     "tire_radius": _num(0, 10, "inches: tires this close to the counter take the tire damage")}),
    "oil": _section("CW-DROP-04", {"maneuver_penalty": _int(0, MAX_DIFFICULTY, "D added to maneuvers and hazards on a slick"),
                                   "flaming_hazard": _int(0, MAX_DIFFICULTY, "D of the hazard of driving over flaming oil"),
                                   "flaming_turns": _int(1, 1000, "turns flaming oil lasts"),
                                   "liquid_damage_every_phases": _int(1, 1000, "phases between damage by liquids and gases "
                                                                               "(documentation)")}),
    "clouds": _section("CW-DROP-05", {"smoke_turns": _int(1, MAX_TURN, "turns a smoke cloud lasts"),
                                      "paint_turns_after": _int(0, 1000, "a paint cloud goes at the end of this many turns after "
                                                                         "the one it was fired in"),
                                      "paint_window_turns": _int(0, 1000, "turns after the turn of contact that paint stays on "
                                                                          "windows")}),
    "water": _section("CW-DROP-06", {"backup": _band(1, 6, "1d when fired in water: the weapon takes backup_damage"),
                                     "backup_damage": {**_dice("damage of water backing up"), "x-rule": "DICE-01"}}),
}, "Car Wars dropped weapons (CW-DROP-01..06)", optional=["rule"])


def _check_dropped(name: str, t: dict) -> None:
    for section, keys in (("spikes", ("on_counter", "adjacent")), ("mines", ("on_counter", "adjacent")), ("water", ("backup",))):
        for k in keys:
            _band_ok(t[section][k], f"{name}.{section}.{k}", t[section].get("rule", "CW-DROP-01"))
    _cw_dice(t["water"]["backup_damage"], f"{name}.water.backup_damage")


# --- carwars.turn -----------------------------------------------------------------------------------------

TURN_ORDER_START = ["off-road damage"]
TURN_ORDER_END = ["fire", "clouds and flaming oil expire", "paint on windows wears off", "skids and fishtails end",
                  "uncontrolled vehicles slow"]

TURN = _section("CW-ROF-02", {
    "phases": {"const": PHASES, "description": "phases a turn (the movement chart, the scenario schema and the compiled "
                                               "kernel hold five)"},
    "spread_order": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": PHASES}, "minItems": PHASES,
                     "maxItems": PHASES, "uniqueItems": True,
                     "description": "the order phases get the whole inches beyond speed/50 (each phase once)"},
    "chart": {"type": "object", "maxProperties": 301, "description": "rows of the movement chart kept as checks: speed in "
              "whole mph -> inches in each phase (they add up to speed/10)",
              "propertyNames": {"pattern": "^(0|[1-9][0-9]{0,2})$"},
              "additionalProperties": {"type": "array", "items": _num(0, MAX_SPEED / 10, "inches"), "minItems": PHASES,
                                       "maxItems": PHASES}},
    "pedestrian_step": {**_num(0, 10, "inches a walking pedestrian moves a phase", above=True), "x-rule": "CW-OBS-01"},
    "start_of_turn": {"const": TURN_ORDER_START, "description": "what happens before phase 1 (fixed in code; documentation)"},
    "end_of_turn": {"const": TURN_ORDER_END, "description": "the end of the turn, in order (fixed in code; documentation)"},
}, "the Car Wars turn (CW-ROF-02, CW-FIRE-03)", optional=["rule", "start_of_turn", "end_of_turn"])


def _check_turn(name: str, t: dict) -> None:
    for speed, row in t["chart"].items():
        if int(speed) > MAX_SPEED:
            raise _bad(f"speeds run to {MAX_SPEED:g} mph", f"{name}.chart.{speed}", row, "CW-ROF-02")
        if abs(sum(row) - int(speed) / 10) > 1e-9:
            raise _bad(f"a row moves speed/10 inches a turn ({int(speed) / 10:g} at {speed} mph)", f"{name}.chart.{speed}", row,
                       "CW-ROF-02")


# --- carwars.terrain --------------------------------------------------------------------------------------

_FEATURE = {"type": "object", "additionalProperties": False, "required": ["kind"], "x-rule": "CW-OFF-03", "properties": {
    "kind": {"enum": ["open", "hazard", "fixed_barrier", "obstacle"], "description": "what the feature is"},
    "difficulty": _int(0, MAX_DIFFICULTY, "a hazard's default D"),
    "difficulty_choices": {"type": "array", "items": _int(0, MAX_DIFFICULTY, "D"), "minItems": 1, "maxItems": 8,
                           "description": "the D a scenario may choose"},
    "dp": _int(1, MAX_DP, "a barrier's default DP"),
    "dp_min": _int(1, MAX_DP, "a barrier's least DP"),
    "shoved_aside": _bool("a barrier taking more than its DP is shoved aside whole instead of broken"),
}}

TERRAIN = _section("CW-OFF-01", {
    "offroad": _section("CW-OFF-01", {
        "maneuver_extra_d": _int(0, MAX_DIFFICULTY, "D added to maneuvers off-road"),
        "crash_modifier": _int(-20, 20, "added to every Crash Table roll off-road"),
        "handling": {"type": "object", "additionalProperties": False, "required": ["car", "cycle", "trike"],
                     "properties": {k: _int(-10, 10, f"handling class change of a {k}") for k in ("car", "cycle", "trike")},
                     "description": "handling class change off-road by body kind"},
        "bonus_void_tire_types": _names("tire types whose handling bonus is void off-road"),
        "off_road_tire_types": _names("off-road tire types"),
    }),
    "damage": _section("CW-OFF-02", {
        "dice": {**_dice("the off-road damage roll"), "x-rule": "DICE-01"},
        "underbody": _band(2, 12, "the roll for 1 point to the underbody"),
        "tire": _band(2, 12, "the roll for 1 point to a random tire"),
        "points": _int(0, 100, "points of each result"),
        "first_roll_above_mph": _num(0, MAX_SPEED, "mph: one roll a turn above this"),
        "second_roll_above_mph": _num(0, MAX_SPEED, "mph: two rolls above this"),
        "extra_roll_step_mph": _num(1, MAX_SPEED, "mph: one more roll per this much above the second"),
        "immune_tire_types": _names("tire types that take no off-road damage"),
        "no_underbody_kinds": {"type": "array", "items": {"enum": ["car", "cycle", "trike"]}, "uniqueItems": True,
                               "description": "body kinds whose underbody takes no off-road damage"},
        "suspension_wheel_counts": {"type": "array", "items": _int(1, 6, "wheels"), "uniqueItems": True, "maxItems": 6,
                                    "description": "wheel counts that may have off-road suspension"},
    }),
    "feature": _map(_FEATURE, "terrain features by name; 'boulder' must be a fixed barrier", min_entries=1, rule="CW-OFF-03",
                    with_rule=True),
    "boulder": _section("CW-OFF-03", {
        "obstacle_max_ft": _num(0, 1000, "feet across: at most this, an obstacle"),
        "small_barrier_max_ft": _num(0, 1000, "feet across: up to this, a small fixed barrier"),
        "small_barrier_max_dp": _int(1, MAX_DP, "a small barrier's most DP"),
        "large_ft": _num(0, 1000, "feet across: from this, a large barrier"),
        "large_min_dp": _int(1, MAX_DP, "a large barrier's least DP"),
        "dp_per_ft": _num(0, 1000, "default DP per foot across (rounded up)", above=True),
    }),
    "ditch": _section("CW-OFF-03", {
        "small_under_ft": _num(0, 1000, "feet: narrower than this, a small ditch"),
        "small_slow_max_mph": _num(0, MAX_SPEED, "mph: at most this, a small ditch is small_slow_d"),
        "small_slow_d": _int(0, MAX_DIFFICULTY, "D"), "small_fast_d": _int(0, MAX_DIFFICULTY, "D"),
        "medium_max_ft": _num(0, 1000, "feet: up to this, a medium ditch"),
        "medium_falls_in_under_mph": _num(0, MAX_SPEED, "mph: under this the vehicle falls in"),
        "medium_mid_d": _int(0, MAX_DIFFICULTY, "D"),
        "medium_fly_over_from_mph": _num(0, MAX_SPEED, "mph: from this, medium_fast_d"),
        "medium_fast_d": _int(0, MAX_DIFFICULTY, "D"),
    }),
    "gully": _section("CW-SEED-03", {"bank_d": _int(0, MAX_DIFFICULTY, "D of the hazard of each bank of a dry gully, "
                                                                          "driven down and climbed")}),
    "water": _section("CW-OFF-04", {
        "depth_limit_ft": _num(0, MAX_WATER_FT, "feet crossed without off-road suspension"),
        "suspension_depth_limit_ft": _num(0, MAX_WATER_FT, "feet crossed with it"),
        "dry_out": {**_dice("hours for a drowned engine to dry out"), "x-rule": "DICE-01"},
        "hazard_over_ft": _num(0, MAX_WATER_FT, "feet: deeper standing water is a hazard"),
        "hazard_d": _int(0, MAX_DIFFICULTY, "D of that hazard"),
        "decel_step_ft": _num(0, MAX_WATER_FT, "feet per slowdown step", above=True),
        "decel_mph": _num(0, MAX_SPEED, "mph lost a turn per step"),
        "suspension_decel_free_ft": _num(0, MAX_WATER_FT, "feet that do not slow a vehicle with off-road suspension"),
        "max_maneuver_d": _int(0, MAX_DIFFICULTY, "the hardest maneuver in water"),
    }),
    "pedestrian": _section("CW-OBS-01", {
        "square_in": _num(0, 10, "inches: one square", above=True),
        "squares_per_phase": _int(1, 100, "squares a phase, not carrying"),
        "squares_per_turn_carrying": _int(1, 100, "squares a turn, carrying an obstacle"),
        "pick_up_turns": _int(1, 100, "turns to pick an obstacle up"),
        "drop_turns": _int(1, 100, "turns to drop it"),
        "phases_per_turn": {"const": PHASES, "description": "phases a turn (carwars.turn.phases)"},
        "immovable_kinds": _names("obstacle kinds that cannot be moved"),
    }),
}, "Car Wars off-road travel, terrain, water and movable obstacles (CW-OFF-01..04, CW-OBS-01)", optional=["rule"])


def _check_terrain(name: str, t: dict) -> None:
    d = t["damage"]
    expr = _cw_dice(d["dice"], f"{name}.damage.dice")
    for k in ("underbody", "tire"):
        b = d[k]
        _band_ok(b, f"{name}.damage.{k}", "CW-OFF-02")
        if b[0] < expr.minimum or b[1] > expr.maximum:
            raise _bad(f"outside the roll of {d['dice']} ({expr.minimum}-{expr.maximum})", f"{name}.damage.{k}", b, "CW-OFF-02")
    if d["underbody"][1] >= d["tire"][0] and d["tire"][1] >= d["underbody"][0]:
        raise _bad("the underbody and tire bands overlap", f"{name}.damage.tire", d["tire"], "CW-OFF-02")
    if d["second_roll_above_mph"] < d["first_roll_above_mph"]:
        raise _bad("must be at least first_roll_above_mph", f"{name}.damage.second_roll_above_mph", d["second_roll_above_mph"],
                   "CW-OFF-02")
    for key, row in t["feature"].items():
        if key == "rule":
            continue
        path = f"{name}.feature.{key}"
        if row["kind"] == "hazard" and "difficulty" not in row:
            raise _bad("missing", f"{path}.difficulty", None, "CW-OFF-03")
        if row["kind"] == "fixed_barrier" and "shoved_aside" not in row:
            raise _bad("missing", f"{path}.shoved_aside", None, "CW-OFF-03")
        if "difficulty" in row and "difficulty_choices" in row and row["difficulty"] not in row["difficulty_choices"]:
            raise _bad("the default D must be one of the choices", f"{path}.difficulty", row["difficulty"], "CW-OFF-03")
        if "dp" in row and row["dp"] < row.get("dp_min", 1):
            raise _bad("below dp_min", f"{path}.dp", row["dp"], "CW-OFF-03")
    if t["feature"].get("boulder", {}).get("kind") != "fixed_barrier":
        raise _bad("a boulder is a fixed barrier (boulders shoved aside or broken)", f"{name}.feature.boulder",
                   t["feature"].get("boulder", {}).get("kind"), "CW-OFF-03")
    b = t["boulder"]
    if not b["obstacle_max_ft"] <= b["small_barrier_max_ft"] <= b["large_ft"]:
        raise _bad("obstacle_max_ft <= small_barrier_max_ft <= large_ft", f"{name}.boulder.small_barrier_max_ft",
                   b["small_barrier_max_ft"], "CW-OFF-03")
    ditch = t["ditch"]
    if ditch["small_under_ft"] > ditch["medium_max_ft"]:
        raise _bad("a small ditch is narrower than the widest medium one", f"{name}.ditch.small_under_ft", ditch["small_under_ft"],
                   "CW-OFF-03")
    _cw_dice(t["water"]["dry_out"], f"{name}.water.dry_out")


# --- registration -----------------------------------------------------------------------------------------

TABLE_SCHEMAS: dict[str, dict] = {
    "carwars.tohit": TOHIT, "carwars.bodies": BODIES, "carwars.tires": TIRES, "carwars.designs": DESIGNS,
    "carwars.weapons": WEAPONS, "carwars.hand_weapons": HAND_WEAPONS, "carwars.damage": DAMAGE,
    "carwars.collisions": COLLISIONS, "carwars.fire": FIRE, "carwars.dropped": DROPPED, "carwars.turn": TURN,
    "carwars.terrain": TERRAIN,
}

_SEMANTIC = {
    "carwars.tohit": _check_tohit, "carwars.bodies": _check_bodies, "carwars.weapons": _check_weapons,
    "carwars.hand_weapons": _check_weapons, "carwars.damage": _check_damage, "carwars.collisions": _check_collisions,
    "carwars.fire": _check_fire, "carwars.dropped": _check_dropped, "carwars.turn": _check_turn, "carwars.terrain": _check_terrain,
}


def validate_table(name: str, table: dict) -> None:
    """Validate one Car Wars table (or a merged override of it): the schema, then the semantic checks (ARCH-05)."""
    schema = TABLE_SCHEMAS[name]
    found = first_error(schema, table, name, schema.get("x-rule", "ARCH-05"))
    if found is not None:
        field, message, value, rule = found
        raise DataError(message, field=field, value=value, rule=rule)
    check = _SEMANTIC.get(name)
    if check is not None:
        check(name, table)


for _name in TABLE_SCHEMAS:
    register_validator(_name, validate_table)


# --- across tables ----------------------------------------------------------------------------------------

def check_carwars_tables(rules: Any) -> None:
    """The Car Wars tables agree with each other (ARCH-05): every body's size class has to-hit modifiers, every dropped
    weapon a counter footprint, the flaming oil weapon exists, figures stated twice agree, and every stock design
    is a valid vehicle entry whose body, weapons and tires exist (it is built, as a scenario would build it)."""
    tohit, bodies = rules["carwars.tohit"], rules["carwars.bodies"]
    classes = {"compact", "car"} | {k for k, v in tohit["target_size"].items() if isinstance(v, dict)}
    for key, b in bodies["body"].items():
        if b["size"] not in classes:
            raise _bad(f"no such size class (carwars.tohit.target_size has: {', '.join(sorted(classes))})",
                       f"carwars.bodies.body.{key}.size", b["size"], "CW-HIT-05")
    footprints = rules["carwars.dropped"]["footprint"]
    for i, w in enumerate(rules["carwars.weapons"]["weapon"]):
        if w.get("dropped", False):
            kind = w.get("dropped_kind") or ("cloud" if w.get("cloud") else "junk")
            if kind not in footprints:
                raise _bad(f"no counter footprint for {kind!r} in carwars.dropped.footprint (known: {', '.join(sorted(footprints))})",
                           f"carwars.weapons.weapon[{i}].dropped_kind", kind, "CW-DROP-01")
    oil = rules["carwars.fire"]["start"]["flaming_oil_weapon"]
    from .tables import weapon_spec

    try:
        weapon_spec(rules, oil, "carwars.fire.start.flaming_oil_weapon")
    except HardpointError:
        raise _bad("not in the vehicle weapon list", "carwars.fire.start.flaming_oil_weapon", oil, "CW-FIRE-01") from None
    a, b = rules["carwars.tohit"]["visibility"]["paint_turns_after"], rules["carwars.dropped"]["clouds"]["paint_window_turns"]
    if a != b:
        raise _bad(f"paint on windows lasts carwars.dropped.clouds.paint_window_turns = {b} turns after the contact; the two "
                   "tables state one figure", "carwars.tohit.visibility.paint_turns_after", a, "CW-HIT-07")
    _check_designs(rules)


def _check_designs(rules: Any) -> None:
    from .model import build_vehicle
    from .scenario import SCHEMA_PARTS

    schema = dict(SCHEMA_PARTS["vehicle"]["items"])
    schema.pop("required", None)
    props = dict(schema["properties"])
    props.pop("id", None)
    props.pop("design", None)
    schema["properties"] = props
    for key, design in rules["carwars.designs"]["design"].items():
        path = f"carwars.designs.design.{key}"
        found = first_error(schema, design, path, "CW-VEH-05")
        if found is not None:
            field, message, value, rule = found
            raise DataError(message, field=field, value=value, rule=rule)
        try:
            build_vehicle(rules, {"id": key, "design": key}, path)
        except HardpointError as exc:
            raise as_data_error(exc, path, "CW-VEH-05") from None


def as_data_error(exc: HardpointError, default_field: str, default_rule: str) -> DataError:
    """The same complaint as a DataError (a table that makes a scenario-level check fail is a bad table)."""
    field = getattr(exc, "field", "") or default_field
    value = getattr(exc, "value", None)
    rule = getattr(exc, "rule", "") or default_rule
    text = str(exc)
    prefix = f"{field}={value!r}: " if value is not None else f"{field}: "
    if text.startswith(prefix):
        text = text[len(prefix):]
    if text.endswith(f" ({rule})"):
        text = text[: -len(rule) - 3]
    return DataError(text, field=field, value=value, rule=rule)


register_cross_validator("carwars", check_carwars_tables)
