"""Car Wars scenarios: the arena, the declared attacks of a phase, and sustained-fire history."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..data import Rules
from ..dice import DiceSource
from ..errors import ScenarioError
from ..scenario import register_ruleset
from .attack import Attack, SustainedRecord, ToHit, parse_aim
from .enums import Light, Side, Weather, parse_enum
from .geometry import Counter, Polygon
from .model import Arena, Area, Building, Cloud, build_pedestrian, build_vehicle
from .phase import Collision, FiredThisTurn, PhaseResult, explain_phase, resolve_phase, update_history

if TYPE_CHECKING:
    from .turn import TurnPlan

__all__ = ["CarWarsScenario", "SCHEMA_PARTS", "load_carwars"]

_NUM = {"type": "number"}
_POINT = {"type": "array", "items": _NUM, "minItems": 2, "maxItems": 2}
_SHAPE = {
    "id": {"type": "string"},
    "x": _NUM, "y": _NUM, "width": {"type": "number", "exclusiveMinimum": 0},
    "length": {"type": "number", "exclusiveMinimum": 0}, "facing": _NUM,
    "corners": {"type": "array", "items": _POINT, "minItems": 3, "description": "a convex polygon, in order"},
}
_ARMOUR = {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0},
           "propertyNames": {"enum": ["front", "back", "left", "right", "top", "underbody"]}}
_WEAPON = {"type": "object", "required": ["id", "type"], "properties": {
    "id": {"type": "string"}, "type": {"type": "string", "description": "a weapon-list name or abbreviation"},
    "mount": {"enum": ["front", "back", "left", "right", "top", "underbody", "turret"]},
    "dp": {"type": "integer", "minimum": 0}, "ammo": {"type": "integer", "minimum": 0}, "automatic": {"type": "boolean"}},
    "additionalProperties": False}
_CREW = {"type": "object", "required": ["id"], "properties": {
    "id": {"type": "string"}, "role": {"enum": ["driver", "gunner", "passenger"]},
    "seat": {"enum": ["front_left", "front_right", "back_left", "back_right", "middle", "cycle", "sidecar"]},
    "body_armour": {"type": "integer", "minimum": 0}, "hits": {"type": "integer", "minimum": 0, "maximum": 3},
    "gunner": {"type": "integer"}, "handgunner": {"type": "integer"}, "driver": {"type": "integer"},
    "hand_weapons": {"type": "array", "items": {"type": "string"}}}, "additionalProperties": False}
_CARGO = {"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}, "dp": {"type": "integer", "minimum": 1},
                                                               "current_dp": {"type": "integer", "minimum": 0}}, "additionalProperties": False}
_TIRE = {"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}, "type": {"type": "string"},
                                                              "dp": {"type": "integer", "minimum": 1}, "current_dp": {"type": "integer", "minimum": 0}},
         "additionalProperties": False}
_VEHICLE = {
    "type": "object", "required": ["id"],
    "properties": {
        "id": {"type": "string"}, "design": {"type": "string", "description": "a stock design (seeds/carwars/designs.toml)"},
        "name": {"type": "string"},
        "body": {"type": "string"}, "reversed": {"type": "boolean"},
        "x": _NUM, "y": _NUM, "facing": _NUM, "speed": _NUM,
        "armour": _ARMOUR, "armour_max": _ARMOUR, "armour_material": {"enum": ["plastic", "metal"]}, "fireproof": {"type": "boolean"},
        "power_plant": {"type": "integer", "minimum": 0}, "power_plant_max": {"type": "integer", "minimum": 1},
        "layout": {"type": "array", "items": {"enum": ["crew", "power_plant", "cargo"]}},
        "tire_type": {"type": "string"}, "tire": {"type": "array", "items": _TIRE},
        "computer": {"enum": ["none", "targeting", "hi_res", "cyberlink"]}, "turret": {"type": "boolean"},
        "weapon": {"type": "array", "items": _WEAPON}, "crew": {"type": "array", "items": _CREW},
        "cargo": {"type": "array", "items": _CARGO},
        "sidecar": {"type": "object", "properties": {
            "side": {"enum": ["left", "right"]}, "spaces": {"type": "integer", "minimum": 1},
            "armour": _ARMOUR, "tire_type": {"type": "string"}, "weapon": {"type": "array", "items": _WEAPON},
            "crew": {"type": "array", "items": _CREW}, "cargo": {"type": "array", "items": _CARGO}}, "additionalProperties": False},
        "water_depth_ft": {"type": "number", "minimum": 0}, "on_bad_surface": {"type": "boolean"}, "blinded": {"type": "boolean"},
        "handling": {"type": "string"}, "hazard_difficulty": {"type": "integer", "minimum": 0},
        "paint_until_turn": {"type": "integer"}, "in_rubble": {"type": "boolean"},
        "extinguisher": {"enum": ["none", "standard", "improved", "portable"]}, "off_road": {"type": "boolean"},
        "off_road_suspension": {"type": "boolean"}, "burning": {"type": "boolean"},
        "links": {"type": "array", "items": {"type": "object", "required": ["id", "weapons"], "properties": {
            "id": {"type": "string"}, "weapons": {"type": "array", "items": {"type": "string"}, "minItems": 1},
            "smart": {"type": "boolean"}}, "additionalProperties": False}},
    },
    "additionalProperties": False,
}
_PEDESTRIAN = {"type": "object", "required": ["id"], "properties": {
    "id": {"type": "string"}, "x": _NUM, "y": _NUM, "facing": _NUM, "speed": _NUM,
    "hits": {"type": "integer", "minimum": 0, "maximum": 3}, "body_armour": {"type": "integer", "minimum": 0},
    "prone": {"type": "boolean"}, "cover": {"enum": ["none", "full", "head_up"]}, "braced": {"type": "boolean"},
    "handgunner": {"type": "integer"}, "weapons": {"type": "array", "items": {"type": "string"}},
    "in_rubble": {"type": "boolean"}, "blinded": {"type": "boolean"}}, "additionalProperties": False}
_ATTACK = {"type": "object", "required": ["id", "attacker", "weapon", "target"], "properties": {
    "id": {"type": "string"}, "attacker": {"type": "string"}, "weapon": {"type": "string"}, "target": {"type": "string"},
    "aim": {"type": "string", "description": "auto, front, back, left, right, top, tire:<wheel>, turret, rider, sidecar, ground"},
    "firer": {"type": "string"},
    "turn": {"type": "integer", "minimum": 1}, "phase": {"type": "integer", "minimum": 1, "maximum": 5},
    "victims": {"type": "array", "items": {"type": "string"}, "description": "CW-DMG-07: every intended victim of an area attack"},
    "defender_order": {"type": "array", "items": {"type": "string"}, "description": "CW-DMG-07: the defender's choice of victims, in order"}},
    "additionalProperties": False}
_COLLISION = {"type": "object", "required": ["id", "vehicle", "side", "speed"], "properties": {
    "id": {"type": "string"}, "vehicle": {"type": "string"},
    "side": {"enum": ["front", "back", "left", "right", "top", "underbody"]}, "speed": _NUM,
    "weight_lb": {"type": "number", "exclusiveMinimum": 0, "description": "weight of what hit it; omit for a fixed barrier"},
    "turn": {"type": "integer", "minimum": 1}, "phase": {"type": "integer", "minimum": 1, "maximum": 5},
    "pedestrian": {"type": "boolean"}}, "additionalProperties": False}

SCHEMA_PARTS: dict[str, Any] = {
    "arena": {"type": "object", "properties": {
        "weather": {"enum": Weather.choices()}, "light": {"enum": Light.choices()},
        "turn": {"type": "integer", "minimum": 1}, "phase": {"type": "integer", "minimum": 1, "maximum": 5}},
        "additionalProperties": False},
    "vehicle": {"type": "array", "items": _VEHICLE},
    "pedestrian": {"type": "array", "items": _PEDESTRIAN},
    "building": {"type": "array", "items": {"type": "object", "required": ["id"], "properties": dict(_SHAPE), "additionalProperties": False}},
    "cloud": {"type": "array", "items": {"type": "object", "required": ["id", "kind"], "properties": {
        **_SHAPE, "kind": {"enum": ["smoke", "paint"]}, "placed_turn": {"type": "integer"}}, "additionalProperties": False}},
    "area": {"type": "array", "items": {"type": "object", "required": ["id", "kind"], "properties": {
        **_SHAPE, "kind": {"enum": ["rubble"]}}, "additionalProperties": False}},
    "attack": {"type": "array", "items": _ATTACK},
    "collision": {"type": "array", "items": _COLLISION},
    "action": {"type": "array", "items": {"type": "object", "required": ["turn", "phase", "kind", "vehicle"], "properties": {
        "turn": {"type": "integer", "minimum": 1}, "phase": {"type": "integer", "minimum": 1, "maximum": 5},
        "kind": {"enum": ["maneuver", "automatic_on", "automatic_off", "drop", "detonate", "substitute", "steer", "fetch_grenade"]},
        "vehicle": {"type": "string"}, "weapon": {"type": "string"}, "difficulty": {"type": "integer", "minimum": 0},
        "placement": {"enum": ["front", "back", "left", "right", "top", "underbody"]}, "counter": {"type": "string"},
        "crew": {"type": "string"}}, "additionalProperties": False}},
    "counter": {"type": "array", "items": {"type": "object", "required": ["id", "weapon"], "properties": {
        **_SHAPE, "weapon": {"type": "string", "description": "the dropped weapon that laid it"},
        "placed_turn": {"type": "integer"}, "owner": {"type": "string"}}, "additionalProperties": False}},
    "history": {"type": "array", "items": {"type": "object", "required": ["attacker", "weapon", "target", "streak", "last_turn"],
                                           "properties": {"attacker": {"type": "string"}, "weapon": {"type": "string"},
                                                          "target": {"type": "string"}, "streak": {"type": "integer", "minimum": 0},
                                                          "last_turn": {"type": "integer"}}, "additionalProperties": False}},
    "fired_this_turn": {"type": "object", "properties": {
        "weapons": {"type": "array", "items": {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 2}},
        "characters": {"type": "array", "items": {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 2}}},
        "additionalProperties": False},
}


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
    _breakdowns: list[ToHit] | None = field(default=None, repr=False, compare=False)

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

            result = run_turns(arena, self.rules, self.plan, self.turns, dice, self.history, seed=seed)
            if commit:
                self.arena = arena
                self._breakdowns = None
            return result
        result = resolve_phase(arena, self.attacks, self.rules, dice, self.history, self.fired, seed=seed,
                               collisions=self.collisions)
        if commit:
            self.arena = arena
            self.history, _ = update_history(self.history, result.breakdowns, arena.turn)
            self._breakdowns = None
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
        """The event log, then every vehicle's and pedestrian's state after the phase (`hardpoint resolve`)."""
        lines = []
        for e in result.events:
            if isinstance(e, ToHit):
                lines.append(f"{e.attack}: {e.attacker} fires {e.weapon} at {e.target} ({e.aimed_at}); needs {e.needed}"
                             + ("" if e.possible else f" [{e.reason}]"))
            else:
                lines.append(f"  {e}")
        lines.append("\nstate after the phase:")
        for vid, v in result.state.get("vehicles", {}).items():
            armour = " ".join(f"{k[0].upper() if k != 'underbody' else 'U'}{a}" for k, a in v["armour"].items())
            crew = ", ".join(f"{c} {d['state']}" for c, d in v["crew"].items())
            weapons = ", ".join(f"{w} {dp}" for w, dp in v["weapons"].items())
            tires = ", ".join(f"{t} {dp}" for t, dp in v["tires"].items())
            lines.append(f"  {vid}: armour {armour}; power plant {v['power_plant']}; weapons {weapons or '-'}; crew {crew or '-'}; tires {tires}"
                         + ("; UNCONTROLLED" if v["uncontrolled"] else ""))
            if "sidecar" in v:
                sc = v["sidecar"]
                lines.append(f"    sidecar: armour {sc['armour']}; weapons {sc['weapons']}; crew {sc['crew']}")
        for pid, p in result.state.get("pedestrians", {}).items():
            lines.append(f"  {pid}: {p['state']} ({p['hits']} hit(s), body armour {p['body_armour']})")
        for o in result.state.get("obstacles", []):
            lines.append(f"  obstacle {o['id']} at ({o['x']:g}, {o['y']:g})")
        return "\n".join(lines)

    def exact_outcomes(self) -> dict[str, Any]:
        """Exact expectations where known: each attack's hit probability (CW-HIT-01)."""
        return {f"{b.attack} hit": b.probability for b in self.explain()}


def load_carwars(data: dict, rules: Rules, source: str) -> CarWarsScenario:
    """Build a Car Wars scenario from schema-valid data; every id must be unique and known."""
    arena_data = data.get("arena", {})
    arena = Arena(weather=parse_enum(Weather, arena_data.get("weather", "clear"), "arena.weather", "CW-HIT-07"),
                  light=parse_enum(Light, arena_data.get("light", "day"), "arena.light", "CW-HIT-07"),
                  turn=arena_data.get("turn", 1), phase=arena_data.get("phase", 1))
    seen: set[str] = set()

    def unique(ident: str, path: str) -> str:
        if ident in seen:
            raise ScenarioError("duplicate id", field=f"{path}.id", value=ident, rule="CLI-02")
        seen.add(ident)
        return ident

    for i, v in enumerate(data.get("vehicle", [])):
        unique(v["id"], f"vehicle[{i}]")
        arena.vehicles[v["id"]] = build_vehicle(rules, v, f"vehicle[{i}]")
    for i, p in enumerate(data.get("pedestrian", [])):
        unique(p["id"], f"pedestrian[{i}]")
        arena.pedestrians[p["id"]] = build_pedestrian(rules, p, f"pedestrian[{i}]")
    for i, b in enumerate(data.get("building", [])):
        unique(b["id"], f"building[{i}]")
        arena.buildings[b["id"]] = Building(b["id"], _polygon(b, f"building[{i}]"))
    for i, c in enumerate(data.get("cloud", [])):
        unique(c["id"], f"cloud[{i}]")
        arena.clouds[c["id"]] = Cloud(c["id"], c["kind"], _polygon(c, f"cloud[{i}]"), c.get("placed_turn", 0))
    for i, a in enumerate(data.get("area", [])):
        unique(a["id"], f"area[{i}]")
        arena.areas[a["id"]] = Area(a["id"], a["kind"], _polygon(a, f"area[{i}]"))
    attacks = []
    when: dict[str, tuple[int, int]] = {}
    attack_ids: set[str] = set()
    for i, a in enumerate(data.get("attack", [])):
        if a["id"] in attack_ids:
            raise ScenarioError("duplicate attack id", field=f"attack[{i}].id", value=a["id"], rule="CLI-02")
        attack_ids.add(a["id"])
        parse_aim(a.get("aim", "auto"), f"attack[{i}].aim")
        arena.unit(a["attacker"], f"attack[{i}].attacker")
        if a["target"] not in arena.buildings:
            arena.unit(a["target"], f"attack[{i}].target")
        victims = tuple(a.get("victims", ()))
        if victims and a["target"] not in victims:
            raise ScenarioError("the target of an area attack must be one of its victims", field=f"attack[{i}].victims",
                                value=list(victims), rule="CW-DMG-07")
        attacks.append(Attack(a["id"], a["attacker"], a["weapon"], a["target"], a.get("aim", "auto"), a.get("firer"),
                              victims, tuple(a.get("defender_order", ()))))
        when[a["id"]] = (a.get("turn", arena.turn), a.get("phase", arena.phase))
    collisions = []
    for i, c in enumerate(data.get("collision", [])):
        if c["vehicle"] not in arena.vehicles:
            raise ScenarioError("no vehicle with this id", field=f"collision[{i}].vehicle", value=c["vehicle"], rule="CW-COL-03")
        collisions.append(Collision(c["id"], c["vehicle"], Side.parse(c["side"]), float(c["speed"]), c.get("weight_lb"),
                                    bool(c.get("pedestrian", False))))
        when[f"collision:{c['id']}"] = (c.get("turn", arena.turn), c.get("phase", arena.phase))
    for i, v in enumerate(data.get("vehicle", [])):
        if v.get("burning"):
            from .fire import FireState
            arena.fires[v["id"]] = FireState(burning=True)
    for i, c in enumerate(data.get("counter", [])):
        unique(c["id"], f"counter[{i}]")
        from .dropped import DroppedCounter
        from .tables import weapon_spec
        spec = weapon_spec(rules, c["weapon"], f"counter[{i}].weapon")
        if not spec.dropped:
            raise ScenarioError("not a dropped weapon", field=f"counter[{i}].weapon", value=c["weapon"], rule="CW-DROP-01")
        if (spec.dropped_kind or "") == "cloud":
            raise ScenarioError("place clouds under [[cloud]]", field=f"counter[{i}].weapon", value=c["weapon"], rule="CW-DROP-05")
        arena.counters.append(DroppedCounter(c["id"], spec.dropped_kind, spec.name, _polygon(c, f"counter[{i}]"),
                                             c.get("placed_turn", arena.turn), c.get("owner", "")))
    history = {(h["attacker"], h["weapon"]): SustainedRecord(h["target"], h["streak"], h["last_turn"]) for h in data.get("history", [])}
    ft = data.get("fired_this_turn", {})
    fired = FiredThisTurn({tuple(w) for w in ft.get("weapons", [])}, {tuple(c): 1 for c in ft.get("characters", [])})  # type: ignore[misc]
    meta = data["scenario"]
    turns = meta.get("turns")
    plan = None
    if turns:
        from .turn import Action, TurnPlan

        plan = TurnPlan()
        for a in attacks:
            t = when[a.id]
            if not arena.turn <= t[0] < arena.turn + turns:
                raise ScenarioError(f"outside the turns run ({arena.turn} to {arena.turn + turns - 1})", field=f"attack {a.id!r}.turn",
                                    value=t[0], rule="CLI-02")
            plan.attacks.setdefault(t, []).append(a)
        for c in collisions:
            plan.collisions.setdefault(when[f"collision:{c.id}"], []).append(c)
        for i, a in enumerate(data.get("action", [])):
            if a["vehicle"] not in arena.vehicles:
                raise ScenarioError("no vehicle with this id", field=f"action[{i}].vehicle", value=a["vehicle"], rule="CLI-02")
            act = Action(a["turn"], a["phase"], a["kind"], a["vehicle"], a.get("weapon"), a.get("difficulty", 0),
                         a.get("placement"), a.get("counter"), a.get("crew"))
            plan.actions.setdefault((act.turn, act.phase), []).append(act)
    elif data.get("action"):
        raise ScenarioError("actions need a multi-turn scenario ([scenario] turns = N)", field="action", rule="CLI-02")
    scenario = CarWarsScenario(meta["name"], arena, attacks, rules, history, fired, meta.get("description", ""), meta.get("source", ""),
                               collisions=collisions, turns=turns, plan=plan)
    # Check every declaration now, so a bad scenario fails on load, naming the field (ERR-01).
    scenario.explain()
    return scenario


register_ruleset("carwars", load_carwars, SCHEMA_PARTS)
