"""Fights to the finish (FIGHT-01..05): sides, standing orders, out of action, who wins.

A `Fight` is what a scenario adds to its turns to make them a fight: the side
of every unit, the standing orders, whether it ends when decided, and the
out-of-action rules (data: `seeds/carwars/fight.toml`). The turn engine asks
it, each phase, for the attacks the orders give (`order_attacks`), and after
each turn for who is still in action (`update_out`); it keeps a
`FightRecord` of the trial. docs/fights.md states every choice.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..data import Rules
from ..errors import HardpointError, RuleViolation, ScenarioError
from ..events import Event, Note
from .attack import Attack, SustainedRecord, ToHit
from .enums import CrewRole, CrewState, Mount
from .model import Arena, CrewMember, Pedestrian, Vehicle

__all__ = ["Order", "Fight", "FightRecord", "TARGET_POLICIES", "parse_orders", "out_of_action", "order_attacks",
           "sides_in_action", "firer_candidates", "order_min36"]

TARGET_POLICIES = ("nearest_enemy", "best_odds")


@dataclass(frozen=True)
class Order:
    """A standing order (FIGHT-02): `unit` fires `weapons` (None: every aimed weapon) each turn at `target`
    (a unit id, "nearest_enemy" or "best_odds"), in `phases` (None: any), from `from_turn` to `until_turn`."""

    id: str
    unit: str
    target: str
    weapons: tuple[str, ...] | None = None
    firer: str | None = None
    aim: str = "auto"
    phases: tuple[int, ...] | None = None
    from_turn: int = 1
    until_turn: int | None = None
    min_odds: float | None = None          # FIGHT-10: hold fire below this chance to hit (None: carwars.fight [orders])
    drop_within: float | None = None       # FIGHT-10: its dropped weapons drop when an enemy is this near in their arc

    def holds(self, turn: int, phase: int) -> bool:
        if turn < self.from_turn or (self.until_turn is not None and turn > self.until_turn):
            return False
        return self.phases is None or phase in self.phases


@dataclass
class Fight:
    """Sides, orders and the end condition of a scenario's turns (FIGHT-01..03)."""

    sides: dict[str, str]                     # unit id -> side (default: the unit's own id)
    orders: list[Order] = field(default_factory=list)
    until_decided: bool = False
    drives: list = field(default_factory=list)   # driving.DriveOrder: the movement orders (FIGHT-07)

    def drive_of(self, unit_id: str):
        """The unit's movement order (FIGHT-07), or None."""
        return next((d for d in self.drives if d.unit == unit_id), None)

    def side(self, unit_id: str, arena: Arena | None = None) -> str:
        """The unit's side; given the arena, a passenger who jumped off a cycle (CW-SEED-01) is on his cycle's."""
        if arena is not None and unit_id not in self.sides:
            p = arena.pedestrians.get(unit_id)
            if p is not None and p.jumped_from:
                return self.side(p.jumped_from)
        return self.sides.get(unit_id, unit_id)

    def enemies(self, a: str, b: str, arena: Arena | None = None) -> bool:
        return self.side(a, arena) != self.side(b, arena)

    @property
    def side_names(self) -> list[str]:
        """Every side, in the order its first unit comes in the scenario."""
        out: list[str] = []
        for s in self.sides.values():
            if s not in out:
                out.append(s)
        return out


@dataclass
class FightRecord:
    """One trial of a fight: the turn each unit went out (and why), how it ended, what each weapon did (FIGHT-05)."""

    out_turn: dict[str, int] = field(default_factory=dict)
    out_reason: dict[str, str] = field(default_factory=dict)
    result: str = "undecided"                 # win | draw | undecided
    winner: str | None = None                 # the winning side
    turns: int = 0                            # turns run
    shots: dict[tuple[str, str], int] = field(default_factory=dict)     # (unit, weapon) -> shots fired
    hits: dict[tuple[str, str], int] = field(default_factory=dict)
    damage: dict[tuple[str, str], int] = field(default_factory=dict)    # damage rolled on hits

    def to_dict(self) -> dict[str, Any]:
        """As plain data (tuples, so that a result read back from JSON compares equal)."""
        return {"result": self.result, "winner": self.winner, "turns": self.turns,
                "out": tuple({"unit": u, "turn": t, "reason": self.out_reason.get(u, "")} for u, t in self.out_turn.items()),
                "weapons": tuple({"unit": u, "weapon": w, "shots": n, "hits": self.hits.get((u, w), 0),
                                  "damage": self.damage.get((u, w), 0)} for (u, w), n in self.shots.items())}


# --- parsing ----------------------------------------------------------------------------

def parse_orders(data: list[dict], arena: Arena, rules: Rules) -> list[Order]:
    """Standing orders from `[[orders]]`, every reference resolved now (SAFE-01): the unit, a named target, each
    weapon (an aimed weapon of the unit, or a hand weapon a pedestrian carries), the firer (a crew member)."""
    out: list[Order] = []
    seen: set[str] = set()
    for i, o in enumerate(data):
        path = f"orders[{i}]"
        oid = str(o.get("id", f"orders{i}"))
        if oid in seen:
            raise ScenarioError("two orders with one id", field=f"{path}.id", value=oid, rule="FIGHT-02")
        seen.add(oid)
        unit = arena.unit(o["unit"], f"{path}.unit")
        target = o.get("target", "nearest_enemy")
        if target not in TARGET_POLICIES and target not in arena.vehicles and target not in arena.pedestrians:
            raise ScenarioError(f"a unit id or one of {', '.join(TARGET_POLICIES)}", field=f"{path}.target", value=target,
                                rule="FIGHT-02")
        if target == unit.id:
            raise ScenarioError("a unit does not fire at itself", field=f"{path}.target", value=target, rule="FIGHT-02")
        weapons = o.get("weapons")
        if weapons is not None:
            weapons = tuple(weapons)
            for j, w in enumerate(weapons):
                where = f"{path}.weapons[{j}]"
                if isinstance(unit, Pedestrian):
                    if w not in unit.weapons:
                        raise ScenarioError(f"pedestrian {unit.id!r} carries no such weapon (carries: {', '.join(unit.weapons)})",
                                            field=where, value=w, rule="FIGHT-02")
                else:
                    spec = unit.weapon(w, where).spec
                    if not spec.aimed and not spec.dropped:
                        raise RuleViolation(f"{spec.name} takes no target: put it on automatic or drop it with an action",
                                            field=where, value=w, rule="CW-DROP-01")
            if len(set(weapons)) != len(weapons):
                raise ScenarioError("a weapon named twice", field=f"{path}.weapons", value=list(weapons), rule="FIGHT-02")
        firer = o.get("firer")
        if firer is not None:
            if isinstance(unit, Pedestrian):
                raise ScenarioError("a pedestrian fires his own weapons", field=f"{path}.firer", value=firer, rule="FIGHT-02")
            unit.crew_member(firer, f"{path}.firer")
        phases = o.get("phases")
        if phases is not None:
            phases = tuple(sorted(set(int(p) for p in phases)))
        out.append(Order(oid, unit.id, target, weapons, firer, o.get("aim", "auto"), phases, int(o.get("from_turn", 1)),
                         None if o.get("until_turn") is None else int(o["until_turn"]),
                         None if o.get("min_odds") is None else float(o["min_odds"]),
                         None if o.get("drop_within") is None else float(o["drop_within"])))
        if out[-1].until_turn is not None and out[-1].until_turn < out[-1].from_turn:
            raise ScenarioError("until_turn comes before from_turn", field=f"{path}.until_turn", value=out[-1].until_turn,
                                rule="FIGHT-02")
    return out


# --- out of action (FIGHT-03) ------------------------------------------------------------------

def _conscious(c: CrewMember) -> bool:
    return c.state < CrewState.UNCONSCIOUS


def _can_drive(v: Vehicle) -> bool:
    """CW-CREW-04: the driver, or someone aboard who may take over, is conscious."""
    d = v.driver
    if d is not None and _conscious(d):
        return True
    if v.kind == "cycle":
        return bool(v.sidecar) and any(_conscious(c) for c in v.sidecar.crew)
    return any(_conscious(c) and c.seat.startswith("front") and c.role is not CrewRole.DRIVER for c in v.crew)


def weapon_can_fire(w) -> bool:
    """A mounted weapon that can still be used: not destroyed, not refused (CW-VEH-06), not out of ammunition."""
    if w.destroyed or w.spec.refused:
        return False
    return not (w.spec.shots > 0 and w.ammo <= 0)


def ordered_weapons(fight: "Fight | None", unit_id: str) -> set[str] | None:
    """FIGHT-10: the mounted weapons the unit's standing orders can use (each fire order's weapons, by default every
    aimed weapon, and the dropped weapons an order drops); None when no order names the unit (then all of them
    count). A mounted weapon no order uses (a minedropper no order drops) does not keep its vehicle in action."""
    if fight is None:
        return None
    orders = [o for o in fight.orders if o.unit == unit_id]
    if not orders:
        return None
    out: set[str] = set()
    for o in orders:
        out |= set(o.weapons) if o.weapons is not None else {"*aimed"}
    return out


def counts_for_orders(wanted: set[str] | None, w) -> bool:
    """FIGHT-10: whether a mounted weapon keeps its vehicle in action: one the orders use (`ordered_weapons`)."""
    return wanted is None or w.id in wanted or ("*aimed" in wanted and w.spec.aimed)


def _can_fire(rules: Rules, v: Vehicle, wanted: set[str] | None = None) -> bool:
    if any(weapon_can_fire(w) and counts_for_orders(wanted, w) for w in v.all_weapons()):
        return True
    from .tables import weapon_spec

    for c in v.all_crew():     # a hand weapon aboard counts whatever the orders (a planned attack may fire it)
        if _conscious(c) and any(not weapon_spec(rules, h, hand=True).refused for h in c.hand_weapons):
            return True
    return False


def out_of_action(rules: Rules, arena: Arena, unit_id: str, fight: "Fight | None" = None) -> str | None:
    """Why a unit can no longer fight (FIGHT-03, the switches of fight.toml [out_of_action]), or None: a pedestrian
    down, or one who jumped off an uncontrolled cycle (CW-SEED-01: he has no orders); a vehicle that crashed (a roll
    or worse, FIGHT-09, or an uncontrolled cycle's, CW-CREW-03), that nobody aboard can drive (it exploded, or its
    driver is out with no one to take over), or with no weapon its orders can still use (FIGHT-10)."""
    t = rules["carwars.fight"]["out_of_action"]
    if unit_id in arena.pedestrians:
        p = arena.pedestrians[unit_id]
        if t["pedestrian_down"] and p.state >= CrewState.UNCONSCIOUS:
            return f"{p.state}"
        if t["jumped_off"] and p.jumped_from:
            return f"jumped off {p.jumped_from}"
        return None
    v = arena.vehicles[unit_id]
    if t["crashed"] and getattr(v, "crash", None) in t["crash_results_out"]:
        return f"crashed ({v.crash})"
    if t["no_driver"] and not _can_drive(v):
        state = arena.fires.get(unit_id)
        return "exploded: nobody aboard can drive" if state is not None and state.exploded else "nobody aboard can drive"
    if t["no_weapon"] and not _can_fire(rules, v, ordered_weapons(fight, unit_id)):
        return "no weapon can still fire"
    return None


def sides_in_action(fight: Fight, arena: Arena, out: dict[str, int]) -> list[str]:
    """The sides with at least one unit in action, in the fight's order."""
    units = list(arena.vehicles) + list(arena.pedestrians)
    alive = {fight.side(u, arena) for u in units if u not in out}
    return [s for s in fight.side_names if s in alive]


def update_out(rules: Rules, fight: Fight, arena: Arena, record: FightRecord, turn: int) -> list[Event]:
    """After a turn: every unit that is now out of action is recorded with the turn (a unit out stays out)."""
    events: list[Event] = []
    for uid in list(arena.vehicles) + list(arena.pedestrians):
        if uid in record.out_turn:
            continue
        why = out_of_action(rules, arena, uid, fight)
        if why is not None:
            record.out_turn[uid] = turn
            record.out_reason[uid] = why
            events.append(Note(f"{uid} is out of action in turn {turn}: {why}", "FIGHT-03"))
    return events


# --- standing orders (FIGHT-02) ---------------------------------------------------------------

def firer_candidates(v: Vehicle, weapon) -> list[CrewMember]:
    """Who may fire a vehicle weapon under an order with no firer: able gunners in crew order (a sidecar weapon:
    the sidecar's riders first), then the driver (CW-HIT-08's default firer, widened to the next free one)."""
    from .attack import default_firer_pool

    return [c for c in default_firer_pool(v, weapon) if c.can_act]


def weapons_of(order: Order, unit: Vehicle | Pedestrian) -> list[str]:
    """The weapons an order fires, in order (FIGHT-02): those it names (but the dropped ones, which it drops,
    FIGHT-10), else every aimed weapon of the vehicle, or every hand weapon of the pedestrian."""
    if isinstance(unit, Pedestrian):
        return list(order.weapons) if order.weapons is not None else list(unit.weapons)
    if order.weapons is not None:
        return [w for w in order.weapons if unit.weapon(w).spec.aimed]
    return [w.id for w in unit.all_weapons() if w.spec.aimed]


def order_min_odds(rules: Rules, order: Order) -> float:
    """FIGHT-10: the chance to hit below which the order's weapons that use ammunition hold fire."""
    return order.min_odds if order.min_odds is not None else rules["carwars.fight"]["orders"]["min_odds"]


def _order_spec(rules: Rules, unit: Vehicle | Pedestrian, wid: str):
    from .tables import weapon_spec

    return weapon_spec(rules, wid, hand=True) if isinstance(unit, Pedestrian) else unit.weapon(wid).spec


def _worth_it(rules: Rules, order: Order, unit: Vehicle | Pedestrian, wid: str, b: ToHit) -> bool:
    """FIGHT-10: a shot at these odds is worth taking: the weapon uses no ammunition, or its chance to hit is at
    least the order's min_odds (compared exactly: P(hit) is a whole number of 36ths)."""
    from fractions import Fraction

    if _order_spec(rules, unit, wid).shots <= 0:
        return True
    return b.probability >= Fraction(order_min_odds(rules, order))


def order_min36(rules: Rules, order: Order, unit: Vehicle | Pedestrian, wid: str) -> int:
    """FIGHT-10, as `_worth_it` decides it for the kernels: the fewest 36ths a shot's chance to hit must be for the
    order's weapon to take it (0: any, a weapon that uses no ammunition)."""
    import math
    from fractions import Fraction

    if _order_spec(rules, unit, wid).shots <= 0:
        return 0
    return math.ceil(Fraction(order_min_odds(rules, order)) * 36)


def order_drops(rules: Rules, fight: Fight, arena: Arena, fired, out: dict[str, int]) -> list:
    """FIGHT-10: the drops the standing orders make at the start of a phase, as declared `drop` actions: a dropped
    weapon an order names drops when an enemy in action stands in its arc (its mount's; the back for a turret or
    top mount) within the order's `drop_within` inches, centre to centre; each is its driver's firing action
    (CW-ROF-01), so one a turn, and only while the driver has not fired this turn."""
    from .turn import Action

    arc_angle = rules["carwars.bodies"]["arcs"]["angle"]
    actions = []
    for order in fight.orders:
        unit = arena.vehicles.get(order.unit)
        if unit is None or order.unit in out or order.weapons is None or not order.holds(arena.turn, arena.phase):
            continue
        driver = unit.driver
        if driver is None or not driver.can_act or fired.characters.get((unit.id, driver.id), 0) >= 1:
            continue
        within = order.drop_within if order.drop_within is not None else rules["carwars.fight"]["orders"]["drop_within"]
        for wid in order.weapons:
            w = unit.weapon(wid)
            if not w.spec.dropped or w.automatic or (unit.id, w.id) in fired.weapons or not weapon_can_fire(w):
                continue
            arc = str(w.mount) if w.mount in (Mount.FRONT, Mount.BACK, Mount.LEFT, Mount.RIGHT) else "back"
            if _enemy_in_arc(fight, arena, unit, arc, within, arc_angle, out):
                actions.append(Action(arena.turn, arena.phase, "drop", unit.id, w.id))
                break
    return actions


def _enemy_in_arc(fight: Fight, arena: Arena, v: Vehicle, arc: str, within: float, arc_angle: float, out: dict[str, int]) -> bool:
    from . import geometry as geo

    for u in list(arena.vehicles.values()) + list(arena.pedestrians.values()):
        if u.id == v.id or u.id in out or not fight.enemies(v.id, u.id, arena):
            continue
        if geo.distance((v.x, v.y), (u.x, u.y)) <= within + 1e-9 and arc in geo.point_arcs(v.counter, (u.x, u.y), arc_angle):
            return True
    return False


def _holds_fire(unit: Vehicle | Pedestrian, weapon_id: str, fired) -> bool:
    if (unit.id, weapon_id) in fired.weapons:
        return True
    if isinstance(unit, Pedestrian):
        return fired.characters.get((unit.id, unit.id), 0) > 0
    w = next((x for x in unit.all_weapons() if x.id == weapon_id), None)
    return w is None or w.automatic or not weapon_can_fire(w)


def _explain(arena: Arena, rules: Rules, attack: Attack, history) -> ToHit | None:
    from .phase import explain_phase

    try:
        b = explain_phase(arena, [attack], rules, history)[0]
    except HardpointError:
        return None
    return b if b.possible else None


def _choose(policy: str, scored: list[tuple[str, ToHit]], order_of: dict[str, int]) -> tuple[str, ToHit]:
    if policy == "best_odds":
        return min(scored, key=lambda s: (-s[1].probability, s[1].range, order_of[s[0]]))
    return min(scored, key=lambda s: (s[1].range, order_of[s[0]]))


def order_attacks(rules: Rules, fight: Fight, arena: Arena, phase: int, fired, history: dict[tuple[str, str], SustainedRecord],
                  out: dict[str, int], planned: list[Attack]) -> list[Attack]:
    """The attacks the standing orders give this phase (FIGHT-02), after the planned ones and within their rate of fire.

    Looked at in the file's order, each order's weapons in order; a weapon fires at the first phase of the turn
    in which it has a legal, possible shot at a candidate, at most once a turn. docs/fights.md gives the steps.
    """
    from .phase import check_rate_of_fire

    units = list(arena.vehicles) + list(arena.pedestrians)
    order_of = {u: i for i, u in enumerate(units)}
    accepted = list(planned)
    out_attacks: list[Attack] = []
    for order in fight.orders:
        if not order.holds(arena.turn, phase) or order.unit in out:
            continue
        unit = arena.vehicles.get(order.unit) or arena.pedestrians[order.unit]
        if order.target in TARGET_POLICIES:
            candidates = [u for u in units if u not in out and u != unit.id and fight.enemies(unit.id, u, arena)]
        else:
            candidates = [] if order.target in out else [order.target]
        if not candidates:
            continue
        for wid in weapons_of(order, unit):
            if _holds_fire(unit, wid, fired):
                continue
            firers: list[str | None]
            if isinstance(unit, Pedestrian):
                firers = [None]
            elif order.firer is not None:
                firers = [order.firer]
            else:
                w = next(x for x in unit.all_weapons() if x.id == wid)
                firers = [c.id for c in firer_candidates(unit, w)]
            for firer in firers:
                aid = f"{order.id}/{wid}/t{arena.turn}p{phase}"
                scored = []
                for target in candidates:
                    a = Attack(aid, unit.id, wid, target, order.aim, firer)
                    b = _explain(arena, rules, a, history)
                    if b is not None and _worth_it(rules, order, unit, wid, b):
                        scored.append((target, b))
                if not scored:
                    break              # no shot this phase for this weapon, whoever fires it
                target, _ = _choose("best_odds" if order.target == "best_odds" else "nearest_enemy", scored, order_of)
                attack = Attack(aid, unit.id, wid, target, order.aim, firer)
                try:
                    check_rate_of_fire(arena, accepted + [attack], fired)
                except RuleViolation:
                    continue           # this firer has fired this turn: the next may
                accepted.append(attack)
                out_attacks.append(attack)
                break
    return out_attacks


def record_rolls(record: FightRecord, rolls, attackers: dict[str, tuple[str, str]]) -> None:
    """Count each rolled attack's shot, hit and damage against its unit's weapon (FIGHT-05)."""
    for r in rolls:
        key = attackers.get(r.attack)
        if key is None:
            continue
        record.shots[key] = record.shots.get(key, 0) + 1
        if r.hit:
            record.hits[key] = record.hits.get(key, 0) + 1
            record.damage[key] = record.damage.get(key, 0) + (r.damage or 0)


def finish(record: FightRecord, fight: Fight, arena: Arena, turns: int) -> None:
    """How the trial ended: one side in action wins, none is a draw, more is undecided (FIGHT-03)."""
    record.turns = turns
    left = sides_in_action(fight, arena, record.out_turn)
    if len(left) == 1:
        record.result, record.winner = "win", left[0]
    elif not left:
        record.result, record.winner = "draw", None
    else:
        record.result, record.winner = "undecided", None




# --- the fight table (seeds/carwars/fight.toml), validated like every table (ARCH-05, SAFE-01) -----------------

def _fight_schema() -> dict:
    from .driving import MANEUVER_KINDS, TACTICS

    boolean = {"type": "boolean"}
    return {
        "type": "object", "required": ["out_of_action", "collisions", "weights", "orders", "driver"], "additionalProperties": False,
        "x-rule": "FIGHT-03",
        "properties": {
            "rule": {"type": "string"},
            "out_of_action": {"type": "object", "additionalProperties": False, "x-rule": "FIGHT-03",
                              "required": ["no_driver", "no_weapon", "crashed", "crash_results_out", "pedestrian_down", "jumped_off"],
                              "properties": {"rule": {"type": "string"}, "no_driver": boolean, "no_weapon": boolean,
                                             "crashed": boolean, "pedestrian_down": boolean, "jumped_off": boolean,
                                             "crash_results_out": {"type": "array", "items": {"type": "string"},
                                                                   "uniqueItems": True, "maxItems": 32}}},
            "collisions": {"type": "object", "additionalProperties": False, "required": ["after", "from_movement"],
                           "x-rule": "FIGHT-04",
                           "properties": {"rule": {"type": "string"}, "after": {"enum": ["stop"]}, "from_movement": boolean}},
            "weights": {"type": "object", "x-rule": "FIGHT-04", "properties": {"rule": {"type": "string"}},
                        "additionalProperties": {"type": "number", "minimum": 1, "maximum": 100_000}},
            "orders": {"type": "object", "additionalProperties": False, "required": ["min_odds", "drop_within"], "x-rule": "FIGHT-10",
                       "properties": {"rule": {"type": "string"}, "min_odds": {"type": "number", "minimum": 0, "maximum": 1},
                                      "drop_within": {"type": "number", "minimum": 0, "maximum": 1000}}},
            "driver": {"type": "object", "additionalProperties": False,
                       "required": ["menu", "max_control_roll", "speed", "turning_speed", "standoff", "turning_room"],
                       "x-rule": "FIGHT-07", "properties": {
                           "rule": {"type": "string"},
                           "menu": {"type": "array", "items": {"enum": list(MANEUVER_KINDS)}, "uniqueItems": True, "minItems": 1,
                                    "maxItems": len(MANEUVER_KINDS)},
                           "max_control_roll": {"type": "integer", "minimum": 0, "maximum": 7},
                           "turning_speed": {"type": "number", "minimum": 0, "maximum": 300},
                           "standoff": {"type": "number", "minimum": 0, "maximum": 1000},
                           "turning_room": {"type": "object", "additionalProperties": False, "required": ["car", "trike", "cycle"],
                                            "properties": {k: {"type": "number", "minimum": 0, "maximum": 1000}
                                                           for k in ("car", "trike", "cycle")}},
                           "speed": {"type": "object", "additionalProperties": False, "required": list(TACTICS),
                                     "properties": {k: {"type": "number", "minimum": 0, "maximum": 300} for k in TACTICS}}}},
        },
    }


def validate_fight_table(name: str, table: dict) -> None:
    """seeds/carwars/fight.toml: its schema (FIGHT-03, FIGHT-04)."""
    from ..errors import DataError
    from .table_schemas import first_error

    schema = _fight_schema()
    found = first_error(schema, table, name, "FIGHT-03")
    if found is not None:
        field_, message, value, rule = found
        raise DataError(message, field=field_, value=value, rule=rule)


def check_fight_against_tables(rules: Rules) -> None:
    """Across tables: every body has a weight (FIGHT-04), every crash result named is a Crash Table 1 result (FIGHT-03)."""
    from ..errors import DataError

    t = rules["carwars.fight"]
    for body in rules["carwars.bodies"]["body"]:
        if body not in t["weights"]:
            raise DataError("no weight for this body (collisions from movement need one)", field=f"carwars.fight.weights.{body}",
                            rule="FIGHT-04")
    bands = {name for _, name in rules["carwars.damage"]["crew"]["crash_table_1"]}
    for i, name in enumerate(t["out_of_action"]["crash_results_out"]):
        if name not in bands:
            raise DataError(f"not a Crash Table 1 result (known: {', '.join(sorted(bands))})",
                            field=f"carwars.fight.out_of_action.crash_results_out[{i}]", value=name, rule="FIGHT-03")
    for i, name in enumerate(rules["carwars.damage"]["crew"]["passenger_jumps_on"]):
        if name not in bands:
            raise DataError(f"not a Crash Table 1 result (known: {', '.join(sorted(bands))})",
                            field=f"carwars.damage.crew.passenger_jumps_on[{i}]", value=name, rule="CW-SEED-01")


def _register() -> None:
    from ..data import register_cross_validator, register_validator

    register_validator("carwars.fight", validate_fight_table)
    register_cross_validator("carwars", check_fight_against_tables)


_register()


# --- a fight's outcomes as arrays (FIGHT-05): the layout both backends fill -------------------------------------

@dataclass(frozen=True)
class FightLayout:
    """Which column is which in a batch of fights: units, sides, weapons, and the turn cap."""

    units: tuple[str, ...]
    sides: tuple[str, ...]
    weapons: tuple[tuple[str, str], ...]     # (unit, weapon id or hand weapon name)
    turns: int

    @classmethod
    def of(cls, scenario) -> "FightLayout":
        arena = scenario.arena
        weapons: list[tuple[str, str]] = []
        def add(unit: str, names) -> None:      # one column a weapon: two grenades of a name are one weapon
            for h in names:
                if (unit, h) not in weapons:
                    weapons.append((unit, h))

        for v in arena.vehicles.values():
            weapons += [(v.id, w.id) for w in v.all_weapons()]
            for c in v.all_crew():
                add(v.id, c.hand_weapons)
        for p in arena.pedestrians.values():
            add(p.id, p.weapons)
        # the hand weapons the plan throws or fires that nobody holds now: a grenade got out of a box first, or one
        # already thrown in a turn resolved before (CW-HAND-01); the attack is cancelled if he holds none by then
        plan = getattr(scenario, "plan", None)
        for a in [a for key in sorted(plan.attacks) for a in plan.attacks[key]] if plan is not None else []:
            if a.attacker in arena.pedestrians:
                add(a.attacker, [a.weapon])
            elif a.attacker in arena.vehicles and a.firer:
                v = arena.vehicles[a.attacker]
                if a.weapon not in v.links and not any(w.id == a.weapon for w in v.all_weapons()):
                    add(v.id, [a.weapon])
        units = tuple(list(arena.vehicles) + list(arena.pedestrians))
        return cls(units, tuple(scenario.fight.side_names), tuple(weapons), int(scenario.turns or 1))

    def result_code(self, fight: dict) -> int:
        """A trial's end as a number: the winning side's index, -1 a draw, -2 undecided."""
        if fight["result"] == "win":
            return self.sides.index(fight["winner"])
        return -1 if fight["result"] == "draw" else -2


def is_fight(scenario) -> bool:
    """A scenario whose trials are fights (standing orders, or until decided): its batches count who wins (FIGHT-05)."""
    f = getattr(scenario, "fight", None)
    return f is not None and (bool(f.orders) or f.until_decided or bool(f.drives))
