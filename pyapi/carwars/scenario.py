"""Car Wars scenarios: the arena, the declared attacks of a phase, and sustained-fire history."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..data import Rules
from ..dice import DiceSource
from ..errors import ScenarioError
from ..events import Note
from ..scenario import register_ruleset
from .attack import Attack, SustainedRecord, ToHit, parse_aim
from .enums import Light, Side, Weather, parse_enum
from .geometry import Counter, Polygon
from .model import Arena, Area, Building, Cloud, Obstacle, build_pedestrian, build_vehicle
from .phase import Collision, FiredThisTurn, PhaseResult, explain_phase, resolve_phase, update_history
from .table_schemas import WHEELS, first_error
from .validate import (MAX_ACTIONS, MAX_ARMOUR, MAX_ATTACKS, MAX_BODY_ARMOUR, MAX_CARRIED, MAX_COLLISION_SPEED, MAX_COLLISIONS,
                       MAX_COORD, MAX_CORNERS, MAX_COUNTERS, MAX_DIFFICULTY, MAX_DP, MAX_EXTENT, MAX_HISTORY, MAX_ID, MAX_LINK_MEMBERS,
                       MAX_LINKS, MAX_PEDESTRIAN_SPEED, MAX_PICK, MAX_SHAPES, MAX_SKILL, MAX_SPACES, MAX_SPEED, MAX_TURN, MAX_UNITS,
                       MAX_VICTIMS, MAX_WATER_FT, MAX_WEIGHT_LB, MIN_SPEED, PHASES, MAX_AMMO, MAX_ACCELERATION, MAX_REFLEXES,
                       MAX_TOP_SPEED, SUSPENSIONS, check_attack_id, check_map_id, check_scenario)

if TYPE_CHECKING:
    from .fight import Fight
    from .turn import TurnPlan

__all__ = ["CarWarsScenario", "SCHEMA_PARTS", "load_carwars"]

# --- the schema of a Car Wars scenario (CLI-02, SAFE-01) ----------------------------------------------------
# Every field has a type, a range the kernels hold and the rules make sense of (validate.py and docs/scenarios.md
# give the bounds), and a description (meaning, units, default): docs/scenarios.md is generated from them.

_SIDES = ["front", "back", "left", "right", "top", "underbody"]


def _id(what: str) -> dict:
    return {"type": "string", "minLength": 1, "maxLength": MAX_ID, "description": what}


def _ref(what: str) -> dict:
    return {"type": "string", "minLength": 1, "maxLength": MAX_ID, "description": what}


def _int(lo: int, hi: int, what: str) -> dict:
    return {"type": "integer", "minimum": lo, "maximum": hi, "description": what}


def _num(lo: float, hi: float, what: str) -> dict:
    return {"type": "number", "minimum": lo, "maximum": hi, "description": what}


def _bool(what: str) -> dict:
    return {"type": "boolean", "description": what}


def _coord(axis: str, what: str) -> dict:
    return {**_num(-MAX_COORD, MAX_COORD, f"{axis} of {what}, in inches (1 inch = 15 ft; {axis} grows "
                                          f"{'rightward' if axis == 'x' else 'upward'}); default 0"), "x-rule": "SAFE-01"}


def _facing(what: str) -> dict:
    return {"type": "number", "description": f"facing of {what}, degrees clockwise from +y (0 = +y, 90 = +x); any finite "
                                             "number, taken modulo 360; default 0"}


def _list(items: dict, max_items: int, what: str, min_items: int = 0) -> dict:
    out = {"type": "array", "items": items, "maxItems": max_items, "description": what}
    if min_items:
        out["minItems"] = min_items
    return out


_TURN = _int(1, MAX_TURN, "turn number")
_PHASE = _int(1, PHASES, "phase of the turn, 1 to 5")
_POINT = {"type": "array", "items": _num(-MAX_COORD, MAX_COORD, "inches"), "minItems": 2, "maxItems": 2,
          "description": "[x, y] in inches"}


def _shape(what: str) -> dict:
    return {
        "id": _id(f"the {what}'s id, unique among the map's ids (vehicles, pedestrians, buildings, clouds, areas, counters)"),
        "x": _coord("x", f"the {what}'s centre (with width and length)"),
        "y": _coord("y", f"the {what}'s centre (with width and length)"),
        "width": {"type": "number", "exclusiveMinimum": 0, "maximum": MAX_EXTENT,
                  "description": f"the {what}'s width across its facing, in inches (a rectangle: give x, y, width, length)"},
        "length": {"type": "number", "exclusiveMinimum": 0, "maximum": MAX_EXTENT,
                   "description": f"the {what}'s length along its facing, in inches"},
        "facing": _facing(f"the {what}'s rectangle"),
        "corners": {"type": "array", "items": _POINT, "minItems": 3, "maxItems": MAX_CORNERS,
                    "description": f"the {what} as a convex polygon: its corners in order, [x, y] in inches (instead of "
                                   "x, y, width and length)"},
    }


def _armour(sides: list[str], what: str) -> dict:
    return {"type": "object", "propertyNames": {"enum": sides}, "x-rule": "CW-VEH-02",
            "additionalProperties": _int(0, MAX_ARMOUR, "armour points on that side"),
            "description": f"{what}: points per side ({', '.join(sides)}); a side not given has 0"}


_WEAPON = {"type": "object", "required": ["id", "type"], "additionalProperties": False, "x-rule": "CW-VEH-03",
           "description": "a mounted weapon (CW-VEH-03)", "properties": {
               "id": _id("the weapon's id, unique on its vehicle (sidecar included) and distinct from its links' ids; "
                         "attacks and actions name it"),
               "type": {"type": "string", "minLength": 1, "maxLength": MAX_ID,
                        "description": "a name or abbreviation of the vehicle weapon list (seeds/carwars/weapons.toml), any case"},
               "mount": {"enum": ["front", "back", "left", "right", "top", "underbody", "turret"],
                         "description": "where it is mounted (turret needs turret = true; a cycle has no top, underbody or "
                                        "turret mounts); default front"},
               "dp": _int(0, MAX_DP, "its damage points now; default: the weapon list's DP"),
               "ammo": _int(0, MAX_AMMO, "shots left; default: the weapon list's shots"),
               "automatic": _bool("on automatic at the start (never a turret weapon, CW-AUTO-01); default false")}}
_CREW = {"type": "object", "required": ["id"], "additionalProperties": False, "x-rule": "CW-VEH-03",
         "description": "a person aboard (CW-VEH-03, CW-CREW-01): 3 DP", "properties": {
             "id": _id("the person's id, unique among the vehicle's crew (sidecar included)"),
             "role": {"enum": ["driver", "gunner", "passenger"], "description": "driver (one a vehicle), gunner or passenger; "
                                                                              "default passenger"},
             "seat": {"enum": ["front_left", "front_right", "back_left", "back_right", "middle", "cycle", "sidecar"],
                      "description": "seat (fixes a hand weapon's arc): a car's or trike's front_left, front_right, back_left, "
                                     "back_right or middle (at most two in front, one a seat); a cycle's cycle; a sidecar's "
                                     "sidecar; default front_left"},
             "body_armour": _int(0, MAX_BODY_ARMOUR, "DP of worn body armour, taken first (the rules' body armour has 3); "
                                                     "default 0"),
             "hits": {**_int(0, 3, "hits taken: 1 wounded, 2 unconscious, 3 dead; default 0"), "x-rule": "CW-CREW-01"},
             "gunner": _int(0, MAX_SKILL, "gunner skill bonus to hit with vehicle weapons; default 0"),
             "handgunner": _int(0, MAX_SKILL, "handgunner skill bonus to hit with hand weapons; default 0"),
             "driver": _int(0, MAX_SKILL, "driver skill bonus; default 0"),
             "reflexes": {**_int(0, MAX_REFLEXES, "the driver's reflex bonus to his vehicle's handling class, lost while "
                                                  "he is unconscious, dead or stunned (FIGHT-09); default 0"), "x-rule": "FIGHT-09"},
             "stunned_until_turn": {**_int(0, MAX_TURN, "stunned until the end of this turn: a driver loses his reflex "
                                                        "bonus meanwhile (CW-SEED-02; nothing in the rules stuns anyone by "
                                                        "itself); default none"), "x-rule": "CW-SEED-02"},
             "jumps_on": {**_list({"type": "string", "minLength": 1, "maxLength": 128,
                                   "description": "a Crash Table 1 result (seeds/carwars/damage.toml crash_table_1)"}, 64,
                                  "the results at which this passenger jumps off a cycle with no sidecar whose driver goes "
                                  "out (CW-SEED-01), taking a sideswipe's damage; default the rules' passenger_jumps_on"),
                          "x-rule": "CW-SEED-01"},
             "hand_weapons": _list({"type": "string", "minLength": 1, "maxLength": MAX_ID,
                                    "description": "a name or abbreviation of the hand weapon list"}, MAX_CARRIED,
                                   "hand weapons carried (seeds/carwars/hand_weapons.toml), at most six grenade-equivalents; "
                                   "a grenade once for each carried, used up when thrown (CW-HAND-01)")}}
_CARGO = {"type": "object", "required": ["id"], "additionalProperties": False, "description": "a cargo item (CW-VEH-04)",
          "x-rule": "CW-VEH-04",
          "properties": {"id": _id("the item's id, unique in the vehicle's cargo (sidecar included)"),
                         "dp": _int(1, MAX_DP, "its damage points when whole; default 1"),
                         "current_dp": _int(0, MAX_DP, "its damage points now, at most dp; default dp")}}
_TIRE = {"type": "object", "required": ["id"], "additionalProperties": False, "description": "one wheel's tire (CW-VEH-03)",
         "x-rule": "CW-VEH-03",
         "properties": {"id": {"enum": list(WHEELS), "description": "the wheel: one of the body's wheel positions, once"},
                        "type": {"type": "string", "minLength": 1, "maxLength": MAX_ID,
                                 "description": "tire type (seeds/carwars/tires.toml); default: the vehicle's tire_type"},
                        "dp": _int(1, MAX_DP, "its damage points when whole; default: the tire type's"),
                        "current_dp": _int(0, MAX_DP, "its damage points now, at most dp; default dp")}}
_LINK = {"type": "object", "required": ["id", "weapons"], "additionalProperties": False, "x-rule": "CW-LINK-01",
         "description": "a weapons link (CW-LINK-01): fired as one action, each weapon once", "properties": {
             "id": _id("the link's id, unique among the vehicle's weapons and links; attacks and drops name it"),
             "weapons": _list(_ref("a weapon or link id of this vehicle"), MAX_LINK_MEMBERS,
                              "its members: weapon ids or other links' ids, reaching each weapon once", 1),
             "smart": _bool("a smart link: turret and body weapons aim together; default false")}}
_VEHICLE = {
    "type": "object", "required": ["id"], "additionalProperties": False,
    "description": "a vehicle: a stock design and/or inline fields (a field given here replaces the design's)",
    "properties": {
        "id": _id("the vehicle's id, unique among the map's ids"),
        "design": {"type": "string", "minLength": 1, "maxLength": MAX_ID,
                   "description": "a stock design (seeds/carwars/designs.toml) to start from; optional"},
        "name": {"type": "string", "maxLength": 256, "description": "a display name; default: the id"},
        "body": {"type": "string", "minLength": 1, "maxLength": MAX_ID,
                 "description": "body (seeds/carwars/bodies.toml: subcompact ... van, cycle, light_trike ... xheavy_trike); "
                                "required unless the design gives it"},
        "reversed": _bool("a reversed trike (two wheels in front); default false"),
        "x": _coord("x", "the counter's centre"), "y": _coord("y", "the counter's centre"),
        "facing": _facing("the vehicle"),
        "speed": {**_num(MIN_SPEED, MAX_SPEED, f"speed in mph, negative in reverse, from {MIN_SPEED:g} to {MAX_SPEED:g}; "
                                               "default 0"), "x-rule": "SAFE-01"},
        "armour": _armour(_SIDES, "armour now"),
        "armour_max": _armour(_SIDES, "armour when whole (for the report); default: armour"),
        "armour_material": {"enum": ["plastic", "metal"], "description": "armour material (metal: CW-COL-02); default plastic"},
        "fireproof": _bool("fireproof armour (CW-FIRE-05); default false"),
        "power_plant": _int(0, MAX_DP, "power plant DP now; omit for none"),
        "power_plant_max": _int(1, MAX_DP, "power plant DP when whole, at least power_plant; default power_plant"),
        "layout": {"type": "array", "items": {"enum": ["crew", "power_plant", "cargo"]}, "maxItems": 3, "uniqueItems": True,
                   "description": "internal locations front to back, each once; a car or trike always has cargo; default "
                                  "power_plant, crew, cargo"},
        "tire_type": {"type": "string", "minLength": 1, "maxLength": MAX_ID,
                      "description": "the tires' type (seeds/carwars/tires.toml); default standard"},
        "tire": _list(_TIRE, 6, "tires that differ from tire_type, by wheel"),
        "computer": {"enum": ["none", "targeting", "hi_res", "cyberlink"],
                     "description": "targeting computer (CW-HIT-08); default none"},
        "turret": _bool("has a turret (not on a cycle); default false"),
        "weapon": _list(_WEAPON, MAX_PICK, f"mounted weapons, at most {MAX_PICK} (a hit picks one among them)"),
        "crew": _list(_CREW, MAX_PICK - 1, "the people aboard; with power plant and cargo items at most "
                                           f"{MAX_PICK} (a collision splits among them)"),
        "cargo": _list(_CARGO, MAX_PICK - 1, "cargo items; with power plant and crew at most " f"{MAX_PICK}"),
        "sidecar": {"type": "object", "additionalProperties": False, "x-rule": "CW-TGT-05",
                    "description": "a cycle's sidecar (CW-TGT-05): a small car beside it; its weapons, riders and cargo "
                                   f"together at most {MAX_PICK}", "properties": {
                        "side": {"enum": ["left", "right"], "description": "which side of the cycle; default right"},
                        "spaces": _int(1, MAX_SPACES, "its spaces: the rest of a shot through the cycle hits it on 1d at "
                                                      "most this (CW-TGT-04); default 1"),
                        "armour": _armour(["front", "back", "left", "right", "underbody"], "the sidecar's armour"),
                        "tire_type": {"type": "string", "minLength": 1, "maxLength": MAX_ID,
                                      "description": "its tire's type; default standard"},
                        "weapon": _list(_WEAPON, MAX_PICK, "weapons mounted on it (front, back, left or right)"),
                        "crew": _list(_CREW, MAX_PICK, "its riders (seat sidecar)"),
                        "cargo": _list(_CARGO, MAX_PICK, "its cargo items")}},
        "water_depth_ft": _num(0, MAX_WATER_FT, "feet of water it stands in (CW-HIT-06, CW-DROP-06); default 0"),
        "on_bad_surface": _bool("on oil, gravel or a bad road: -1 to fire (CW-HIT-08); default false"),
        "blinded": _bool("blinded by a searchlight: -10 to fire (CW-HIT-07); default false"),
        "handling": {"type": "string", "minLength": 1, "maxLength": MAX_ID,
                     "description": "a skid or fishtail this turn (a key of carwars.tohit.handling: trivial_skid, "
                                    "minor_fishtail, minor_skid, moderate_skid, major_fishtail); lasts to the end of the "
                                    "arena's turn; default none"},
        "hazard_difficulty": _int(0, MAX_DIFFICULTY, "D of a maneuver or hazard this phase: -D to fire (CW-HIT-10); default 0"),
        "paint_until_turn": _int(0, MAX_TURN, "paint on its windows until the end of this turn (CW-HIT-07); default none"),
        "in_rubble": _bool("in a rubble area: -4 to hit it (CW-HIT-07); default false"),
        "extinguisher": {"enum": ["none", "standard", "improved", "portable"],
                         "description": "fire extinguisher (CW-FIRE-03); default none"},
        "off_road": _bool("off-road (CW-OFF-01/02); default false"),
        "off_road_suspension": _bool("off-road suspension (cars only, CW-OFF-02); default false"),
        "suspension": {"enum": list(SUSPENSIONS), "x-rule": "FIGHT-09",
                       "description": "suspension, for the handling class (FIGHT-09; an off-road suspension is "
                                      "off_road_suspension); default light"},
        "acceleration": {**_int(5, MAX_ACCELERATION, "mph it can gain in a turn (FIGHT-08); default: carwars.maneuvers "
                                                     "[speed] acceleration by body kind"), "x-rule": "FIGHT-08"},
        "top_speed": {**_int(5, MAX_TOP_SPEED, "its top speed, mph (FIGHT-08); default: carwars.maneuvers [speed] top_speed "
                                               "by body kind"), "x-rule": "FIGHT-08"},
        "burning": _bool("on fire at the start (CW-FIRE-03); default false"),
        "links": _list(_LINK, MAX_LINKS, "weapons links (CW-LINK-01)"),
        "side": {"type": "string", "minLength": 1, "maxLength": MAX_ID, "x-rule": "FIGHT-01",
                 "description": "the side it fights for (FIGHT-01); units of different sides are enemies; default: its own id"},
        "weight_lb": {**_num(1, 100_000, "its weight in lb, for collisions from movement (CW-COL-04); default: its "
                                         "body's (seeds/carwars/fight.toml [weights])"), "x-rule": "FIGHT-04"},
    },
}
_PEDESTRIAN = {"type": "object", "required": ["id"], "additionalProperties": False,
               "description": "a person on foot (CW-TGT-07): 3 DP, fires all round", "properties": {
                   "id": _id("the pedestrian's id, unique among the map's ids"),
                   "x": _coord("x", "the pedestrian's centre"), "y": _coord("y", "the pedestrian's centre"),
                   "facing": _facing("the pedestrian"),
                   "speed": {**_num(0, MAX_PEDESTRIAN_SPEED, "speed in mph (a walking pedestrian moves one square a phase, "
                                                             f"CW-OBS-01), 0 to {MAX_PEDESTRIAN_SPEED:g}; default 0"),
                             "x-rule": "SAFE-01"},
                   "hits": {**_int(0, 3, "hits taken: 1 wounded, 2 unconscious, 3 dead; default 0"), "x-rule": "CW-CREW-01"},
                   "body_armour": _int(0, MAX_BODY_ARMOUR, "DP of worn body armour, taken first; default 0"),
                   "prone": _bool("lying prone: -4 to hit instead of -3; default false"),
                   "cover": {"enum": ["none", "full", "head_up"],
                             "description": "behind cover: full (cannot be hit) or head_up (-6); default none"},
                   "braced": _bool("braced on a solid object: +1 to fire (CW-HIT-04); default false"),
                   "handgunner": _int(0, MAX_SKILL, "handgunner skill bonus; default 0"),
                   "weapons": _list({"type": "string", "minLength": 1, "maxLength": MAX_ID,
                                     "description": "a name or abbreviation of the hand weapon list"}, MAX_CARRIED,
                                    "hand weapons carried, at most six grenade-equivalents; a grenade once for each carried, "
                                    "used up when thrown (CW-HAND-01)"),
                   "in_rubble": _bool("in a rubble area: -4 to hit (CW-HIT-07); default false"),
                   "blinded": _bool("blinded by a searchlight: -10 to fire; default false"),
                   "side": {"type": "string", "minLength": 1, "maxLength": MAX_ID, "x-rule": "FIGHT-01",
                            "description": "the side he fights for (FIGHT-01); default: his own id"}}}
_ATTACK = {"type": "object", "required": ["id", "attacker", "weapon", "target"], "additionalProperties": False,
           "description": "a declared attack (CW-HIT-01)", "properties": {
               "id": _id("the attack's id, unique among attack and collision ids; no '/' or '@', not starting 'auto:'"),
               "attacker": _ref("the vehicle or pedestrian firing"),
               "weapon": _ref("a mounted weapon's id or a link's id of the attacking vehicle; or a hand weapon the firer "
                              "(crew member or pedestrian) carries"),
               "target": _ref("the vehicle, pedestrian or building fired at"),
               "aim": {"type": "string", "minLength": 1, "maxLength": MAX_ID + 5,
                       "description": "auto (the facing side easiest to hit), front, back, left, right, top, tire:<wheel>, "
                                      "turret, rider, sidecar or ground; default auto"},
               "firer": _ref("the crew member pulling the trigger; default: an able gunner, else the driver (a hand weapon "
                             "fired from a vehicle needs it)"),
               "turn": _int(1, MAX_TURN, "the turn it is declared for; default the arena's (a single-phase scenario: must "
                                         "be the arena's)"),
               "phase": _int(1, PHASES, "the phase it is declared for; default the arena's"),
               "victims": _list(_ref("a pedestrian"), MAX_VICTIMS, "CW-DMG-07: every intended victim of an area attack, "
                                                                   "the target among them"),
               "defender_order": _list(_ref("one of the victims"), MAX_VICTIMS,
                                       "CW-DMG-07: the defender's choice of victims, in order")}}
_COLLISION = {"type": "object", "required": ["id", "vehicle", "side", "speed"], "additionalProperties": False, "x-rule": "CW-COL-04",
              "description": "a collision during a phase's movement (CW-COL-01..04)", "properties": {
                  "id": _id("the collision's id, unique among attack and collision ids"),
                  "vehicle": _ref("the vehicle hit"),
                  "side": {"enum": _SIDES, "description": "the side that takes the damage"},
                  "speed": {**_num(0, MAX_COLLISION_SPEED, f"speed of the impact in mph, 0 to {MAX_COLLISION_SPEED:g} (the "
                                                           "collision table, CW-COL-04)"), "x-rule": "SAFE-01"},
                  "weight_lb": {"type": "number", "exclusiveMinimum": 0, "maximum": MAX_WEIGHT_LB,
                                "description": f"weight of what hit it, lb, up to {MAX_WEIGHT_LB:,.0f}; omit for a fixed barrier "
                                               "(full damage)"},
                  "turn": _int(1, MAX_TURN, "the turn it happens in; default the arena's"),
                  "phase": _int(1, PHASES, "the phase it happens in; default the arena's"),
                  "pedestrian": _bool("a pedestrian did the hitting (its own damage factor); default false")}}
_ACTION = {"type": "object", "required": ["turn", "phase", "kind", "vehicle"], "additionalProperties": False,
           "description": "something declared for a phase besides an attack (multi-turn scenarios)", "properties": {
               "turn": _int(1, MAX_TURN, "the turn, within the turns run"),
               "phase": _int(1, PHASES, "the phase"),
               "kind": {"enum": ["maneuver", "automatic_on", "automatic_off", "drop", "detonate", "substitute", "steer",
                                 "fetch_grenade"],
                        "description": "maneuver (difficulty), automatic_on / automatic_off (weapon), drop (weapon or link; "
                                       "placement for a turret weapon), detonate (counter), substitute, steer or "
                                       "fetch_grenade (crew)"},
               "vehicle": _ref("the vehicle acting"),
               "weapon": _ref("automatic_on, automatic_off: a weapon id; drop: a dropped weapon's id or a link's"),
               "difficulty": _int(0, MAX_DIFFICULTY, "maneuver: its D; default 0"),
               "placement": {"enum": _SIDES, "description": "drop of a turret weapon: where it lays its counter"},
               "counter": _ref("detonate: a mines counter, on the map or laid by a drop of an earlier phase"),
               "crew": _ref("substitute, steer, fetch_grenade: the crew member")}}
_PAIR = {"type": "array", "items": _ref("an id"), "minItems": 2, "maxItems": 2}

_ORDER = {"type": "object", "required": ["unit"], "additionalProperties": False, "x-rule": "FIGHT-02",
          "description": "a standing order (FIGHT-02, docs/fights.md): a unit fires every turn at a target chosen as the "
                         "fight unfolds, under every rule an attack obeys", "properties": {
              "id": _id("the order's id; default orders<index>"),
              "unit": _ref("the vehicle or pedestrian that fires"),
              "target": {"type": "string", "minLength": 1, "maxLength": MAX_ID,
                         "description": "a unit id, nearest_enemy (the enemy in action at the smallest range it has a "
                                        "shot at) or best_odds (the highest hit probability); default nearest_enemy"},
              "weapons": _list(_ref("a mounted weapon id of the unit (not a dropped one), or a hand weapon a pedestrian "
                                    "carries"), MAX_PICK, "the weapons it fires, in order; default every aimed weapon", 1),
              "firer": _ref("the crew member who fires them; default the first able gunner, then the driver, who has "
                            "not fired this turn"),
              "aim": {"type": "string", "minLength": 1, "maxLength": 64, "description": "as an attack's aim; default auto"},
              "phases": {"type": "array", "items": _PHASE, "minItems": 1, "maxItems": PHASES, "uniqueItems": True,
                         "description": "the phases in which it looks for a shot; default all five (it fires in the first "
                                        "phase of a turn with a shot)"},
              "from_turn": _int(1, MAX_TURN, "the first turn the order holds; default 1"),
              "until_turn": _int(1, MAX_TURN, "the last turn it holds; default: to the end"),
              "min_odds": {**_num(0, 1, "a weapon that uses ammunition holds fire below this chance to hit (FIGHT-10); "
                                        "default carwars.fight [orders] min_odds"), "x-rule": "FIGHT-10"},
              "drop_within": {**_num(0, 1000, "a dropped weapon among its weapons drops (once a turn, the driver's "
                                              "firing action) when an enemy in action stands in its arc this many inches "
                                              "away or nearer, centre to centre (FIGHT-10); default 6"), "x-rule": "FIGHT-10"}}}
_DRIVE = {"type": "object", "required": ["unit"], "additionalProperties": False, "x-rule": "FIGHT-07",
          "description": "a movement order (FIGHT-07, docs/fights.md): the standing driver steers the vehicle by a tactic, "
                         "under the handling rules (FIGHT-09)", "properties": {
              "id": _id("the order's id; default drive<index>"),
              "unit": _ref("the vehicle driven (one order a vehicle)"),
              "tactic": {"enum": ["hold_course", "pursue", "keep_range", "bring_to_bear", "evade"],
                         "description": "hold_course (straight on, speed kept), pursue (close on the target), keep_range "
                                        "(hold `range` inches from it), bring_to_bear (turn the weapons on it) or evade "
                                        "(open the range, show the strongest side); default hold_course"},
              "target": {"type": "string", "minLength": 1, "maxLength": MAX_ID,
                         "description": "a unit id, or nearest_enemy (the enemy in action nearest, centre to centre); "
                                        "default nearest_enemy"},
              "speed": {**_num(0, MAX_TOP_SPEED, "the speed it drives at, mph, reached within the acceleration and "
                                                 "braking limits; default: the tactic's (carwars.fight [driver] speed)"),
                        "x-rule": "FIGHT-08"},
              "range": _num(0, 1000, "keep_range: the range to hold, inches"),
              "weapons": _list(_ref("a weapon id of the vehicle"), MAX_PICK, "the weapons to bring to bear; default "
                                                                                 "every aimed weapon", 1),
              "from_turn": _int(1, MAX_TURN, "the first turn the order holds; default 1"),
              "until_turn": _int(1, MAX_TURN, "the last turn it holds; default: to the end")}}

SCHEMA_PARTS: dict[str, Any] = {
    "arena": {"type": "object", "additionalProperties": False, "description": "the conditions and the moment", "properties": {
        "weather": {"enum": Weather.choices(), "description": "weather (CW-HIT-07); default clear"},
        "light": {"enum": Light.choices(), "description": "light (CW-HIT-07); default day"},
        "turn": _int(1, MAX_TURN, "the turn now; default 1"),
        "phase": _int(1, PHASES, "the phase now (a multi-turn scenario starts at 1); default 1")}},
    "vehicle": _list(_VEHICLE, MAX_UNITS, f"vehicles (with pedestrians at most {MAX_UNITS:,})"),
    "pedestrian": _list(_PEDESTRIAN, MAX_UNITS, f"pedestrians (with vehicles at most {MAX_UNITS:,})"),
    "building": _list({"type": "object", "required": ["id"], "additionalProperties": False,
                       "description": "a building: blocks lines of fire (CW-LOF-01); can be fired at",
                       "properties": _shape("building")}, MAX_SHAPES, "buildings"),
    "cloud": _list({"type": "object", "required": ["id", "kind"], "additionalProperties": False,
                    "description": "a smoke or paint cloud (CW-LOF-04, CW-DROP-05)",
                    "properties": {**_shape("cloud"), "kind": {"enum": ["smoke", "paint"], "description": "smoke or paint"},
                                   "placed_turn": _int(0, MAX_TURN, "the turn it was laid (it expires after "
                                                                    "carwars.dropped.clouds); default 0")}},
                   MAX_SHAPES, "clouds"),
    "area": _list({"type": "object", "required": ["id", "kind"], "additionalProperties": False,
                   "description": "marked ground", "properties": {**_shape("area"), "kind": {
                       "enum": ["rubble", "ditch", "gully"], "description": "rubble: -4 to hit a target inside (CW-HIT-07); "
                       "ditch: met by a vehicle driving onto it, a hazard or a fall by its width and the vehicle's speed "
                       "(CW-SEED-03, CW-OFF-03); gully: a dry gully, too wide to jump, crossed by driving down one bank "
                       "and up the other, each a hazard (carwars.terrain gully bank_d, CW-SEED-03)"},
                       "across_ft": {"type": "number", "exclusiveMinimum": 0, "maximum": 1000, "x-rule": "CW-SEED-03",
                                     "description": "a ditch: feet across (under 2: small; 2 to 4; wider is refused: no "
                                                    "jump without a ramp); required for a ditch"}}},
                  MAX_SHAPES, "areas"),
    "obstacle": _list({"type": "object", "required": ["id", "x", "y"], "additionalProperties": False,
                       "description": "an obstacle on the map (CW-SEED-04): a square carwars.damage obstacle.size_in "
                                      "across, axis-aligned about (x, y); a vehicle running onto it meets a hazard "
                                      "(obstacle.hazard); it does not block lines of fire", "x-rule": "CW-SEED-04",
                       "properties": {"id": _id("the obstacle's id"),
                                      "x": _num(-MAX_COORD, MAX_COORD, "centre x, inches"),
                                      "y": _num(-MAX_COORD, MAX_COORD, "centre y, inches"),
                                      "placed_turn": _int(0, MAX_TURN, "the turn it came onto the map; default the "
                                                                       "arena's")}},
                      MAX_SHAPES, "obstacles"),
    "attack": _list(_ATTACK, MAX_ATTACKS, "declared attacks"),
    "orders": _list(_ORDER, MAX_ATTACKS, "standing orders (a multi-turn scenario only)"),
    "drive": _list(_DRIVE, MAX_UNITS, "movement orders (a multi-turn scenario only)"),
    "collision": _list(_COLLISION, MAX_COLLISIONS, "declared collisions"),
    "action": _list(_ACTION, MAX_ACTIONS, "declared actions (a multi-turn scenario only)"),
    "counter": _list({"type": "object", "required": ["id", "weapon"], "additionalProperties": False,
                      "description": "a dropped weapon's counter on the map (CW-DROP-01..04)", "properties": {
                          **_shape("counter"),
                          "weapon": {"type": "string", "minLength": 1, "maxLength": MAX_ID,
                                     "description": "the dropped weapon that laid it (a weapon list name; not a cloud)"},
                          "placed_turn": _int(0, MAX_TURN, "the turn it was laid, at most the arena's; default the arena's"),
                          "owner": _ref("the vehicle that laid it; optional")}},
                     MAX_COUNTERS, "dropped-weapon counters"),
    "history": _list({"type": "object", "required": ["attacker", "weapon", "target", "streak", "last_turn"],
                      "additionalProperties": False,
                      "description": "a weapon's sustained-fire record (CW-HIT-09), one per attacker and weapon",
                      "properties": {"attacker": _ref("the vehicle or pedestrian"),
                                     "weapon": _ref("its weapon (a mounted weapon id, or a hand weapon it carries)"),
                                     "target": _ref("the vehicle, pedestrian or building it fired at"),
                                     "streak": _int(0, MAX_TURN, "consecutive turns it has fired at that target"),
                                     "last_turn": _int(0, MAX_TURN, "the last turn it fired, before the arena's turn")}},
                     MAX_HISTORY, "sustained-fire history"),
    "fired_this_turn": {"type": "object", "additionalProperties": False,
                        "description": "what fired earlier this turn (CW-ROF-01); a single-phase scenario only", "properties": {
                            "weapons": _list({**_PAIR, "description": "[vehicle id, weapon id]"}, MAX_HISTORY,
                                             "weapons that fired"),
                            "characters": _list({**_PAIR, "description": "[vehicle id, crew id] or [pedestrian id, "
                                                                         "pedestrian id]"}, MAX_HISTORY,
                                                "people who fired")}},
}


def _whole(value: Any, field_name: str) -> Any:
    """A count the Car Wars checks want as an integer: a float (2.0 passes the schema's integer type, and turns are
    counted with range() and written into ids) is refused naming the field, as every other count is."""
    if isinstance(value, float):
        raise ScenarioError("expected a whole number", field=field_name, value=value, rule="CLI-02")
    return value


def _polygon(entry: dict, path: str) -> Polygon:
    if "corners" in entry:
        try:
            return Polygon(tuple((float(x), float(y)) for x, y in entry["corners"]))
        except ValueError as exc:
            raise ScenarioError(str(exc), field=f"{path}.corners", value=entry["corners"], rule="CW-LOF-02") from None
    missing = [k for k in ("x", "y", "width", "length") if k not in entry]
    if missing:
        raise ScenarioError(f"give corners, or x, y, width and length (missing {', '.join(missing)})", field=path, rule="CLI-02")
    try:
        return Counter(float(entry["x"]), float(entry["y"]), float(entry["length"]), float(entry["width"]),
                       float(entry.get("facing", 0.0))).polygon()
    except ValueError as exc:   # a rectangle too thin to have an inside (width or length vanishing at its position)
        thin = "length" if float(entry["length"]) <= float(entry["width"]) else "width"
        raise ScenarioError(str(exc), field=f"{path}.{thin}", value=entry[thin], rule="CW-LOF-02") from None


@dataclass
class CarWarsScenario:
    """A Car Wars situation: the arena, a phase's declared attacks, and the weapons' history."""

    name: str
    arena: Arena
    attacks: list[Attack]
    rules: Rules
    history: dict[tuple[str, str], SustainedRecord] = field(default_factory=dict)
    fired: FiredThisTurn = field(default_factory=FiredThisTurn)
    description: str = ""
    source: str = ""
    ruleset: str = "carwars"
    collisions: list[Collision] = field(default_factory=list)
    turns: int | None = None
    plan: "TurnPlan | None" = None
    fight: "Fight | None" = None
    _packed: tuple | None = field(default=None, repr=False, compare=False)   # batch.pack's (state key, result)

    def explain(self) -> list[ToHit]:
        """Every declared attack's to-hit breakdown, without rolling (LOG-02).

        In a multi-turn scenario, every attack planned for the arena's turn, at
        the positions after its phase's movement and the state at the start of
        the turn (an attack the rules would cancel by then is left out; what
        the dice change is known only when the phase comes)."""
        if self.turns and self.plan is not None:
            from .turn import planned_breakdowns

            return [b for _, _, b in planned_breakdowns(self.arena, self.rules, self.plan, self.history) if isinstance(b, ToHit)]
        return explain_phase(self.arena, self.attacks, self.rules, self.history)

    def resolve(self, dice: DiceSource, seed: int | None = None, commit: bool = False) -> PhaseResult:
        """Resolve the phase: collisions, the declared attacks, and their damage at its end (CW-ROF-02).

        Works on a copy of the arena: the scenario keeps its state unless
        `commit` is true, when the arena and sustained-fire history become
        those after the phase. Nothing changes if anything is illegal.
        """
        arena = self.arena.copy()
        if self.turns:
            from .turn import run_turns

            result = run_turns(arena, self.rules, self.plan, self.turns, dice, self.history, seed=seed, fight=self.fight)
            if commit:
                self.arena = arena
            return result
        result = resolve_phase(arena, self.attacks, self.rules, dice, self.history, self.fired, seed=seed,
                               collisions=self.collisions)
        if commit:
            self.arena = arena
            self.history, _ = update_history(self.history, result.breakdowns, arena.turn)
        return result

    def render_explain(self) -> str:
        """The explain report as text (`hardpoint explain`)."""
        lines = [f"scenario: {self.name}"]
        if self.turns and self.plan is not None:
            from .turn import planned_breakdowns

            lines.append(f"turn {self.arena.turn}: planned attacks at the positions after each phase's movement")
            for phase, a, b in planned_breakdowns(self.arena, self.rules, self.plan, self.history):
                if not isinstance(b, ToHit):
                    lines.append(f"\nattack {a.id} (phase {phase}): cancelled when its phase comes: {b}")
        for b in self.explain():
            lines.append(f"\nattack {b.attack}: {b.attacker} fires {b.weapon} at {b.target} ({b.aimed_at})")
            if b.lof:
                lines.append(f"  line of fire: clear; range {b.range:.2f}\" from {b.origin} to aim point {b.aim_point}")
            else:
                lines.append("  line of fire: BLOCKED")
            if b.facing_sides:
                lines.append(f"  sides facing the firer: {', '.join(b.facing_sides)}; firer in the target's "
                             f"{', '.join(b.firer_arcs) or 'no'} arc(s)")
            lines.append(f"  base to-hit {b.base}")
            lines += [f"    {m.value:+d}  {m.name} [{m.rule}]" for m in b.modifiers]
            lines.append(f"  total modifier {b.total_modifier:+d}: needs {b.needed} on 2d6")
            if b.possible:
                lines.append(f"  hit probability {b.probability} ({float(b.probability):.4f})")
            else:
                lines.append(f"  no hit possible: {b.reason}")
        return "\n".join(lines)

    def render_resolve(self, result: PhaseResult) -> str:
        """The event log as a person reads it, phase by phase, then the state at the end (`hardpoint resolve`)."""
        import re

        from ..events import format_value

        heading = re.compile(r"^turn (\d+), phase (\d+)$")
        lines = []
        for e in result.events:
            if isinstance(e, ToHit):
                lines.append(f"  {e.attack}: {e.attacker} fires {e.weapon} at {e.target} ({e.aimed_at}); needs {e.needed}"
                             + ("" if e.possible else f" [{e.reason}]"))
            elif isinstance(e, Note) and heading.match(e.text):
                lines.append(f"\n{e.text}")
            elif isinstance(e, Note) and e.text.endswith("attack(s) declared"):
                n = e.text.rsplit(": ", 1)[1].split()[0]
                lines.append(f"  combat: {n} attack(s), against the positions after the movement (CW-ROF-02)")
            elif isinstance(e, Note) and e.text.startswith("end of turn"):
                lines.append(f"\n{e.text}")
            else:
                lines.append(f"    {e}")
        turns = getattr(result, "turns", None)
        lines.append(f"\nstate after {'turn ' + str(result.first_turn + turns - 1) if turns else 'the phase'}:")
        for vid, v in result.state.get("vehicles", {}).items():
            armour = " ".join(f"{k[0].upper() if k != 'underbody' else 'U'}{a}" for k, a in v["armour"].items())
            crew = ", ".join(f"{c} {d['state']}" for c, d in v["crew"].items())
            weapons = ", ".join(f"{w} {dp}" for w, dp in v["weapons"].items())
            tires = ", ".join(f"{t} {dp}" for t, dp in v["tires"].items())
            lines.append(f"  {vid}: armour {armour}; power plant {format_value(v['power_plant'])}; weapons {weapons or '-'}; "
                         f"crew {crew or '-'}; tires {tires}" + ("; UNCONTROLLED" if v["uncontrolled"] else ""))
            if "sidecar" in v:
                sc = v["sidecar"]
                sc_armour = " ".join(f"{k[0].upper() if k != 'underbody' else 'U'}{a}" for k, a in sc["armour"].items())
                sc_crew = ", ".join(f"{c} {d['state']}" if isinstance(d, dict) else f"{c} {d}" for c, d in sc["crew"].items())
                lines.append(f"    sidecar: armour {sc_armour}; weapons {format_value(sc['weapons']) or '-'}; "
                             f"crew {sc_crew or '-'}")
        for pid, p in result.state.get("pedestrians", {}).items():
            lines.append(f"  {pid}: {p['state']} ({p['hits']} hit(s), body armour {p['body_armour']})")
        for o in result.state.get("obstacles", []):
            lines.append(f"  obstacle {o['id']} at ({o['x']:g}, {o['y']:g})")
        fight = getattr(result, "fight", None)
        if fight:
            ending = {"win": f"side {fight['winner']} wins", "draw": "a draw: nobody is left in action",
                      "undecided": "undecided: more than one side is still in action"}[fight["result"]]
            lines.append(f"\nafter {fight['turns']} turn(s): {ending}")
            for o in fight["out"]:
                lines.append(f"  {o['unit']} went out of action in turn {o['turn']}: {o['reason']}")
        return "\n".join(lines)

    def exact_outcomes(self) -> dict[str, Any]:
        """Exact expectations where known: each attack's hit probability (CW-HIT-01)."""
        return {f"{b.attack} hit": b.probability for b in self.explain()}


def _strict_schema() -> dict:
    """The Car Wars parts of the scenario schema, for the strict pass (an integer is an int, never 2.0)."""
    return {"type": "object", "properties": SCHEMA_PARTS}


def load_carwars(data: dict, rules: Rules, source: str) -> CarWarsScenario:
    """Build a Car Wars scenario from schema-valid data, checking everything that does not need the dice first.

    In order (SAFE-01, ERR-01): the schema again with strict types (an integer field holds an int), the sizes,
    every id unique in its namespace (the map: vehicles, pedestrians, buildings, clouds, areas and counters; the
    declarations: attacks and collisions; per vehicle: weapons and links, crew, cargo), every reference resolved,
    every declaration's moment inside the scenario, a multi-turn plan's static legality (`validate`), and the
    attacks of the arena's moment explained. Nothing runs before all of it passes.
    """
    found = first_error(_strict_schema(), data, "", "CLI-02", bound_rule="SAFE-01")
    if found is not None:
        field_name, message, value, rule = found
        raise ScenarioError(f"{message} (in {source})", field=field_name, value=value, rule=rule)
    units = len(data.get("vehicle", [])) + len(data.get("pedestrian", []))
    if units > MAX_UNITS:
        raise ScenarioError(f"more than {MAX_UNITS:,} vehicles and pedestrians", field="pedestrian" if data.get("pedestrian") else "vehicle",
                            value=units, rule="SAFE-01")
    meta = data["scenario"]
    turns = _whole(meta.get("turns"), "scenario.turns")
    arena_data = data.get("arena", {})
    arena = Arena(weather=parse_enum(Weather, arena_data.get("weather", "clear"), "arena.weather", "CW-HIT-07"),
                  light=parse_enum(Light, arena_data.get("light", "day"), "arena.light", "CW-HIT-07"),
                  turn=arena_data.get("turn", 1), phase=arena_data.get("phase", 1))
    if turns and arena.phase != 1:
        raise ScenarioError("a multi-turn scenario runs whole turns from phase 1", field="arena.phase", value=arena.phase, rule="CLI-02")
    if turns and arena.turn + turns - 1 > MAX_TURN:
        raise ScenarioError(f"turn numbers run to {MAX_TURN:,}", field="scenario.turns", value=turns, rule="SAFE-01")
    seen: dict[str, str] = {}

    def unique(ident: str, path: str) -> str:
        """One namespace for the map: a target, a blocker or a counter is named by its id alone."""
        if ident in seen:
            raise ScenarioError(f"duplicate id (also {seen[ident]})", field=f"{path}.id", value=ident, rule="CLI-02")
        check_map_id(ident, path)
        seen[ident] = path
        return ident

    for i, v in enumerate(data.get("vehicle", [])):
        unique(v["id"], f"vehicle[{i}]")
        arena.vehicles[v["id"]] = build_vehicle(rules, v, f"vehicle[{i}]", checked=True)
    for i, p in enumerate(data.get("pedestrian", [])):
        unique(p["id"], f"pedestrian[{i}]")
        arena.pedestrians[p["id"]] = build_pedestrian(rules, p, f"pedestrian[{i}]", checked=True)
    for i, b in enumerate(data.get("building", [])):
        unique(b["id"], f"building[{i}]")
        arena.buildings[b["id"]] = Building(b["id"], _polygon(b, f"building[{i}]"))
    for i, c in enumerate(data.get("cloud", [])):
        unique(c["id"], f"cloud[{i}]")
        if c.get("placed_turn", 0) > arena.turn:
            raise ScenarioError(f"laid after the arena's turn ({arena.turn})", field=f"cloud[{i}].placed_turn", value=c["placed_turn"],
                                rule="CW-DROP-05")
        arena.clouds[c["id"]] = Cloud(c["id"], c["kind"], _polygon(c, f"cloud[{i}]"), c.get("placed_turn", 0))
    for i, a in enumerate(data.get("area", [])):
        unique(a["id"], f"area[{i}]")
        arena.areas[a["id"]] = Area(a["id"], a["kind"], _polygon(a, f"area[{i}]"), _ditch_across(rules, a, f"area[{i}]"))
    for i, o in enumerate(data.get("obstacle", [])):
        unique(o["id"], f"obstacle[{i}]")
        if o.get("placed_turn", arena.turn) > arena.turn:
            raise ScenarioError(f"placed after the arena's turn ({arena.turn})", field=f"obstacle[{i}].placed_turn",
                                value=o["placed_turn"], rule="CW-SEED-04")
        arena.obstacles.append(Obstacle(o["id"], float(o["x"]), float(o["y"]), o.get("placed_turn", arena.turn),
                                        size=rules["carwars.damage"]["obstacle"]["size_in"]))
    for i, c in enumerate(data.get("counter", [])):
        unique(c["id"], f"counter[{i}]")
        from .dropped import DroppedCounter
        from .tables import weapon_spec
        spec = weapon_spec(rules, c["weapon"], f"counter[{i}].weapon")
        if not spec.dropped:
            raise ScenarioError("not a dropped weapon", field=f"counter[{i}].weapon", value=c["weapon"], rule="CW-DROP-01")
        if (spec.dropped_kind or "") == "cloud" or (not spec.dropped_kind and spec.cloud):
            raise ScenarioError("place clouds under [[cloud]]", field=f"counter[{i}].weapon", value=c["weapon"], rule="CW-DROP-05")
        if "owner" in c and c["owner"] not in arena.vehicles:
            raise ScenarioError("no vehicle with this id", field=f"counter[{i}].owner", value=c["owner"], rule="CW-DROP-01")
        if c.get("placed_turn", arena.turn) > arena.turn:
            raise ScenarioError(f"laid after the arena's turn ({arena.turn})", field=f"counter[{i}].placed_turn",
                                value=c["placed_turn"], rule="CW-DROP-01")
        arena.counters.append(DroppedCounter(c["id"], spec.dropped_kind or "junk", spec.name, _polygon(c, f"counter[{i}]"),
                                             c.get("placed_turn", arena.turn), c.get("owner", "")))

    declared: dict[str, str] = {}

    def declaration(ident: str, path: str) -> None:
        """One namespace for attacks and collisions: the event log and the batch's columns name them by id."""
        if ident in declared:
            raise ScenarioError(f"duplicate id (also {declared[ident]})", field=f"{path}.id", value=ident, rule="CLI-02")
        declared[ident] = path

    def moment(entry: dict, path: str) -> tuple[int, int]:
        """The (turn, phase) a declaration is for: inside the turns run, or the arena's moment for one phase."""
        t, ph = entry.get("turn", arena.turn), entry.get("phase", arena.phase)
        if turns:
            if not arena.turn <= t < arena.turn + turns:
                raise ScenarioError(f"outside the turns run ({arena.turn} to {arena.turn + turns - 1})", field=f"{path}.turn",
                                    value=t, rule="CLI-02")
        elif (t, ph) != (arena.turn, arena.phase):
            which = "turn" if t != arena.turn else "phase"
            raise ScenarioError(f"a single-phase scenario resolves turn {arena.turn}, phase {arena.phase} only (set [scenario] "
                                "turns to plan several)", field=f"{path}.{which}", value=entry.get(which), rule="CLI-02")
        return t, ph

    attacks = []
    when: dict[str, tuple[int, int]] = {}
    for i, a in enumerate(data.get("attack", [])):
        path = f"attack[{i}]"
        declaration(a["id"], path)
        check_attack_id(a["id"], path)
        parse_aim(a.get("aim", "auto"), f"{path}.aim")
        arena.unit(a["attacker"], f"{path}.attacker")
        if a["target"] not in arena.buildings:
            arena.unit(a["target"], f"{path}.target")
        victims = tuple(a.get("victims", ()))
        if victims and a["target"] not in victims:
            raise ScenarioError("the target of an area attack must be one of its victims", field=f"{path}.victims",
                                value=list(victims), rule="CW-DMG-07")
        if len(set(victims)) != len(victims):
            raise ScenarioError("each victim once", field=f"{path}.victims", value=list(victims), rule="CW-DMG-07")
        order = tuple(a.get("defender_order", ()))
        if len(set(order)) != len(order):
            raise ScenarioError("each victim once", field=f"{path}.defender_order", value=list(order), rule="CW-DMG-07")
        if order and not victims:
            raise ScenarioError("a defender's order belongs to an area attack (give its victims)", field=f"{path}.defender_order",
                                value=list(order), rule="CW-DMG-07")
        attacks.append(Attack(a["id"], a["attacker"], a["weapon"], a["target"], a.get("aim", "auto"), a.get("firer"),
                              victims, order))
        when[a["id"]] = moment(a, path)
    collisions = []
    for i, c in enumerate(data.get("collision", [])):
        path = f"collision[{i}]"
        declaration(c["id"], path)
        if c["vehicle"] not in arena.vehicles:
            raise ScenarioError("no vehicle with this id", field=f"{path}.vehicle", value=c["vehicle"], rule="CW-COL-03")
        collisions.append(Collision(c["id"], c["vehicle"], Side.parse(c["side"]), float(c["speed"]), c.get("weight_lb"),
                                    bool(c.get("pedestrian", False))))
        when[f"collision:{c['id']}"] = moment(c, path)
    for i, v in enumerate(data.get("vehicle", [])):
        if v.get("burning"):
            from .fire import FireState
            arena.fires[v["id"]] = FireState(burning=True)
    history = {(h["attacker"], h["weapon"]): SustainedRecord(h["target"], h["streak"], h["last_turn"]) for h in data.get("history", [])}
    ft = data.get("fired_this_turn", {})
    if turns and ft:
        raise ScenarioError("a multi-turn scenario starts its first turn with nothing fired", field="fired_this_turn",
                            rule="CW-ROF-01")
    fired = FiredThisTurn({tuple(w) for w in ft.get("weapons", [])}, {tuple(c): 1 for c in ft.get("characters", [])})  # type: ignore[misc]
    plan = None
    actions = []
    if turns:
        from .turn import Action, TurnPlan

        plan = TurnPlan()
        for a in attacks:
            plan.attacks.setdefault(when[a.id], []).append(a)
        for c in collisions:
            plan.collisions.setdefault(when[f"collision:{c.id}"], []).append(c)
        for i, a in enumerate(data.get("action", [])):
            if a["vehicle"] not in arena.vehicles:
                raise ScenarioError("no vehicle with this id", field=f"action[{i}].vehicle", value=a["vehicle"], rule="CLI-02")
            moment(a, f"action[{i}]")
            act = Action(a["turn"], a["phase"], a["kind"], a["vehicle"], a.get("weapon"), a.get("difficulty", 0),
                         a.get("placement"), a.get("counter"), a.get("crew"))
            actions.append(act)
            plan.actions.setdefault((act.turn, act.phase), []).append(act)
    elif data.get("action"):
        raise ScenarioError("actions need a multi-turn scenario ([scenario] turns = N)", field="action", rule="CLI-02")
    check_scenario(data, arena, rules, attacks, plan, actions, fired)
    fight = _fight(data, arena, rules, turns, meta)
    scenario = CarWarsScenario(meta["name"], arena, attacks, rules, history, fired, meta.get("description", ""), meta.get("source", ""),
                               collisions=collisions, turns=turns, plan=plan, fight=fight)
    # Check every declaration now, so a bad scenario fails on load, naming the field (ERR-01).
    scenario.explain()
    return scenario


def _fight(data: dict, arena: Arena, rules: Rules, turns: int | None, meta: dict) -> "Fight | None":
    """Sides, standing orders and the end condition (FIGHT-01..03); None for a single-phase scenario."""
    from .fight import Fight, parse_orders

    from .driving import parse_drive

    orders = data.get("orders", [])
    until = meta.get("until", "turns")
    if not turns:
        if orders:
            raise ScenarioError("standing orders need a multi-turn scenario ([scenario] turns = N)", field="orders",
                                rule="FIGHT-02")
        if data.get("drive"):
            raise ScenarioError("movement orders need a multi-turn scenario ([scenario] turns = N)", field="drive",
                                rule="FIGHT-07")
        if until == "decided":
            raise ScenarioError("a fight to the finish needs its turn cap ([scenario] turns = N)", field="scenario.until",
                                value=until, rule="FIGHT-03")
        return None
    sides = {str(u["id"]): str(u.get("side", u["id"])) for key in ("vehicle", "pedestrian") for u in data.get(key, [])}
    for i, u in enumerate(data.get("vehicle", [])):
        if "weight_lb" in u:
            arena.vehicles[u["id"]].weight_lb = float(u["weight_lb"])
    return Fight(sides, parse_orders(orders, arena, rules), until == "decided", parse_drive(data.get("drive", []), arena))


register_ruleset("carwars", load_carwars, SCHEMA_PARTS)


def _ditch_across(rules, a: dict, path: str) -> float | None:
    """A ditch's feet across (CW-SEED-03): required for a ditch, refused for anything else, and no wider than a
    vehicle can jump without a ramp (carwars.terrain ditch medium_max_ft)."""
    across = a.get("across_ft")
    if a["kind"] != "ditch":
        if across is not None:
            raise ScenarioError("only a ditch has a width across", field=f"{path}.across_ft", value=across, rule="CW-SEED-03")
        return None
    if across is None:
        raise ScenarioError("a ditch needs its width across, in feet", field=f"{path}.across_ft", rule="CW-SEED-03")
    most = rules["carwars.terrain"]["ditch"]["medium_max_ft"]
    if across > most:
        raise ScenarioError(f"a ditch wider than {most:g} ft cannot be jumped without a ramp (a dry gully is crossed by "
                            "driving down and up: kind gully)", field=f"{path}.across_ft", value=across, rule="CW-SEED-03")
    return float(across)
