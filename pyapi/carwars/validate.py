"""Car Wars validation at the door (SAFE-01, ERR-01): bounds, namespaces, references and static plan legality.

Everything here runs while a scenario loads, before anything is rolled, so a
misspelt weapon, a weapon dropped twice in a turn or a vehicle too big for a
random pick is a ScenarioError (or a RuleViolation) naming the field, the
value and the rule, and never a cancelled attack or a crash later.

The bounds are the ranges the kernels hold (int32 arithmetic, fixed-size
arrays, random picks among at most 36 candidates) and the rules make sense
of; docs/scenarios.md lists them with the namespaces of ids.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..errors import RuleViolation, ScenarioError

if TYPE_CHECKING:  # pragma: no cover
    from ..data import Rules
    from .attack import Attack
    from .model import Arena, Vehicle
    from .turn import Action, TurnPlan

__all__ = [
    "MAX_COORD", "MAX_EXTENT", "MAX_CORNERS", "MIN_SPEED", "MAX_SPEED", "MAX_PEDESTRIAN_SPEED", "MAX_COLLISION_SPEED",
    "MAX_WEIGHT_LB", "MAX_ARMOUR", "MAX_DP", "MAX_AMMO", "MAX_BODY_ARMOUR", "MAX_SKILL", "MAX_SPACES", "MAX_WATER_FT",
    "MAX_DIFFICULTY", "MAX_REFLEXES", "MAX_ACCELERATION", "MAX_TOP_SPEED", "SUSPENSIONS", "MAX_TURN", "PHASES", "MAX_UNITS", "MAX_SHAPES", "MAX_COUNTERS", "MAX_ATTACKS", "MAX_COLLISIONS",
    "MAX_ACTIONS", "MAX_HISTORY", "MAX_PICK", "MAX_LINKS", "MAX_LINK_MEMBERS", "MAX_VICTIMS", "MAX_CARRIED", "MAX_MODIFIER",
    "MAX_ID", "check_vehicle_bounds", "check_links", "check_scenario", "check_map_id", "check_attack_id", "check_history",
    "check_fired", "check_drop", "check_link_drops", "check_attack", "check_plan",
]

# --- bounds (docs/scenarios.md, "Bounds") -------------------------------------------------------------------

MAX_COORD = 10_000.0          # inches from the origin, x and y (about 2.8 miles: every arena fits)
MAX_EXTENT = 2 * MAX_COORD    # inches: the width or length of a building, cloud, area or counter
MAX_CORNERS = 64              # corners of one convex polygon
MIN_SPEED, MAX_SPEED = -100.0, 300.0   # mph, a vehicle (negative: reverse); the collision table holds 300 mph
MAX_PEDESTRIAN_SPEED = 30.0   # mph; a walking pedestrian moves one square a phase whatever its speed
MAX_COLLISION_SPEED = 300.0   # mph of an impact
MAX_WEIGHT_LB = 100_000.0     # lb of what hits a vehicle in a collision
MAX_ARMOUR = 10_000           # armour points on one side: x10 (the largest metal factor) stays far inside int32
MAX_DP = 10_000               # damage points of one component (weapon, power plant, cargo item, tire)
MAX_AMMO = 10_000             # shots of one weapon
MAX_BODY_ARMOUR = 100         # DP of a person's body armour (the rules' body armour has 3)
MAX_SKILL = 10                # gunner, handgunner and driver skill bonus
MAX_SPACES = 20               # a sidecar's spaces
MAX_WATER_FT = 100.0          # feet of water under a vehicle
MAX_DIFFICULTY = 20           # D rating of a maneuver or hazard
MAX_REFLEXES = 2              # a driver's reflex bonus to the handling class (FIGHT-09)
MAX_ACCELERATION = 30         # mph a turn (FIGHT-08)
MAX_TOP_SPEED = 300           # mph (FIGHT-08): the Control Table's last row
SUSPENSIONS = ("light", "improved", "heavy")   # FIGHT-09 (an off-road suspension: off_road_suspension)
MAX_TURN = 100_000            # a turn number
PHASES = 5                    # phases a turn: the movement chart, the schema and the kernel all hold five
MAX_UNITS = 4_096             # vehicles and pedestrians together
MAX_SHAPES = 4_096            # buildings; clouds; areas (each list)
MAX_COUNTERS = 4_096          # dropped-weapon counters on the map
MAX_ATTACKS = 16_384          # declared attacks
MAX_COLLISIONS = 4_096        # declared collisions
MAX_ACTIONS = 16_384          # declared actions
MAX_HISTORY = 16_384          # sustained-fire records; fired_this_turn pairs (each list)
MAX_PICK = 36                 # candidates of one random pick (two dice: docs/rulings.md, random picks)
MAX_LINKS = 64                # links of one vehicle
MAX_LINK_MEMBERS = 72         # members of one link
MAX_VICTIMS = 64              # intended victims of one area attack
MAX_CARRIED = 32              # hand weapons carried by one person
MAX_MODIFIER = 30             # absolute value of one to-hit modifier in the rule tables
MAX_ID = 64                   # characters of an id

# Ids the engine makes during play: counters and clouds laid by dropped weapons ("md.t1p3", "c2.t1"), the
# attacks a link, an area attack or automatic fire expands into ("a1/mg", "a1@p2", "auto:car.mg.t1").
_RUNTIME_MAP_ID = re.compile(r"\.t\d+(p\d+)?$")
_RUNTIME_ATTACK_CHARS = ("/", "@")


def _err(message: str, field: str, value: Any = None, rule: str = "SAFE-01") -> ScenarioError:
    return ScenarioError(message, field=field, value=value, rule=rule)


# --- one vehicle -------------------------------------------------------------------------------------------

def check_vehicle_bounds(vehicle: "Vehicle", path: str) -> None:
    """SAFE-01: what one vehicle may hold so that every random pick has at most MAX_PICK candidates.

    Damage picks one weapon of a side (a cycle: of all its weapons), one item of an internal location, one of
    power plant, crew members and the cargo location (underbody and top), and a collision splits its remainder
    over one layer (power plant, crew and cargo items together); a sidecar picks among its weapons, rider and
    cargo. The compiled kernel and the reference both pick with at most two dice (docs/rulings.md).
    """
    if len(vehicle.weapons) > MAX_PICK:
        raise _err(f"more than {MAX_PICK} weapons on one vehicle body: a hit picks one of them with two dice",
                   f"{path}.weapon", len(vehicle.weapons))
    from .enums import Location

    plant = 1 if vehicle.power_plant is not None else 0
    cargo_location = 1 if Location.CARGO in vehicle.layout else 0
    # a collision from above or below splits over power plant, crew and cargo items; a hit from above or below picks
    # one of power plant, each crew member and the cargo location (CW-DMG-04)
    interior = plant + len(vehicle.crew) + max(len(vehicle.cargo), cargo_location)
    if interior > MAX_PICK:
        raise _err(f"power plant, crew members and cargo items (or the cargo location) number {interior}: a collision or a "
                   f"hit from above or below picks among them, at most {MAX_PICK}",
                   f"{path}.cargo" if len(vehicle.cargo) > 1 else f"{path}.crew", interior)
    if vehicle.sidecar is not None:
        sc = vehicle.sidecar
        n = len(sc.weapons) + len(sc.crew) + len(sc.cargo)
        if n > MAX_PICK:
            raise _err(f"a sidecar's weapons, riders and cargo number {n}: a hit picks one of them, at most {MAX_PICK}",
                       f"{path}.sidecar", n)
    ids: dict[str, str] = {}
    for where, items in (("weapon", vehicle.weapons), ("sidecar.weapon", vehicle.sidecar.weapons if vehicle.sidecar else [])):
        for i, w in enumerate(items):
            if w.id in ids:
                raise _err(f"duplicate weapon id (also {ids[w.id]})", f"{path}.{where}[{i}].id", w.id, "CW-VEH-03")
            ids[w.id] = f"{where}[{i}]"
    crew_ids: dict[str, str] = {}
    for where, people in (("crew", vehicle.crew), ("sidecar.crew", vehicle.sidecar.crew if vehicle.sidecar else [])):
        for i, c in enumerate(people):
            if c.id in crew_ids:
                raise _err(f"duplicate crew id (also {crew_ids[c.id]})", f"{path}.{where}[{i}].id", c.id, "CW-VEH-03")
            crew_ids[c.id] = f"{where}[{i}]"
    cargo_ids: dict[str, str] = {}
    for where, items in (("cargo", vehicle.cargo), ("sidecar.cargo", vehicle.sidecar.cargo if vehicle.sidecar else [])):
        for i, k in enumerate(items):
            if k.id in cargo_ids:
                raise _err(f"duplicate cargo id (also {cargo_ids[k.id]})", f"{path}.{where}[{i}].id", k.id, "CW-VEH-04")
            cargo_ids[k.id] = f"{where}[{i}]"


def check_links(vehicle: "Vehicle", path: str) -> dict[str, tuple[str, ...]]:
    """CW-LINK-01 / CW-ROF-01: every link of a vehicle resolves to distinct weapons, without cycles.

    A link fires all its weapons at once, and a weapon fires at most once a turn, so a weapon reached twice
    (listed twice, or through two links) is refused; so is a link that contains itself. Returns each link's
    weapons. Linear in the links' sizes: the flattening stops at the first repeated weapon.
    """
    out: dict[str, tuple[str, ...]] = {}
    weapon_ids = {w.id for w in vehicle.all_weapons()}
    index = {lid: i for i, lid in enumerate(vehicle.links)}

    def flatten(lid: str, stack: tuple[str, ...], into: list[str], seen: set[str]) -> None:
        if lid in stack:
            raise _err("a link contains itself", f"{path}.links[{index[stack[0]]}].weapons", lid, "CW-LINK-01")
        for m in vehicle.links[lid].members:
            if m in vehicle.links:
                flatten(m, stack + (lid,), into, seen)
            elif m in weapon_ids:
                if m in seen:
                    raise RuleViolation(f"weapon {m!r} is reached twice by link {stack[0] if stack else lid!r}: a link fires "
                                        "each of its weapons once", field=f"{path}.links[{index[stack[0] if stack else lid]}].weapons",
                                        value=m, rule="CW-ROF-01")
                seen.add(m)
                into.append(m)
            else:
                raise _err("no weapon or link with this id", f"{path}.links[{index[lid]}].weapons", m, "CW-LINK-01")

    for lid in vehicle.links:
        weapons: list[str] = []
        flatten(lid, (), weapons, set())
        out[lid] = tuple(weapons)
    return out


# --- the whole scenario ------------------------------------------------------------------------------------

def check_scenario(data: dict, arena: "Arena", rules: "Rules", attacks: list["Attack"], plan: "TurnPlan | None",
                   actions: list["Action"], fired: Any = None) -> None:
    """Everything about a loaded scenario that does not depend on the dice or on positions (SAFE-01, ERR-01).

    Ids in their namespaces, every reference resolved, and for a multi-turn plan its static legality: each
    action's kind has what it needs and names what exists, a weapon fires or drops once a turn, a character
    fires once a turn, a turret weapon never goes on automatic (CW-ROF-01, CW-AUTO-01). Positions, line of
    fire and what the dice do by a planned phase are judged when the phase comes.
    """
    index = {a.id: i for i, a in enumerate(attacks)}
    check_history(data, arena)
    check_fired(data, arena)
    if plan is None:
        # one phase: the state at load is the state it resolves from; the rate of fire and the drops of links are
        # checked now, as resolving would (explaining checks the rest)
        from .phase import check_rate_of_fire

        check_rate_of_fire(arena, attacks, fired)
        for a in attacks:
            check_link_drops(arena, a, f"attack[{index[a.id]}]")
        return
    # who gets a grenade out of a box, and from when (CW-HAND-01): he may throw it in a later turn
    when = {id(a): key for key, xs in plan.attacks.items() for a in xs}
    fetches: dict[tuple[str, str], tuple[int, int]] = {}
    for act in actions:
        if act.kind == "fetch_grenade":
            who = (act.vehicle, act.crew or "")
            fetches[who] = min(fetches.get(who, (act.turn, act.phase)), (act.turn, act.phase))
    for a in attacks:
        first = fetches.get((a.attacker, a.firer or ""))
        check_attack(arena, rules, a, f"attack[{index[a.id]}]", fetched=first is not None and first[0] < when.get(id(a), (0, 0))[0])
    check_plan(data, arena, rules, plan, index, actions)


def check_map_id(ident: str, path: str) -> None:
    """Ids of the map (vehicles, pedestrians, buildings, clouds, areas, counters) may not look like the ids of the
    counters and clouds laid during play ("md.t1p3"), which would replace them."""
    if _RUNTIME_MAP_ID.search(ident):
        raise _err("ids ending in .t<turn> or .t<turn>p<phase> are those of counters laid during play", f"{path}.id", ident, "CLI-02")


def check_attack_id(ident: str, path: str) -> None:
    """Attack ids may not hold '/' or '@' or start with 'auto:': the attacks a link, an area attack or automatic
    fire expands into are named that way, and a declared one of the same name would take their place."""
    if any(c in ident for c in _RUNTIME_ATTACK_CHARS) or ident.startswith("auto:"):
        raise _err("attack ids may not hold '/' or '@' or start with 'auto:' (the names of the attacks links, area "
                   "attacks and automatic fire expand into)", f"{path}.id", ident, "CLI-02")


# --- references --------------------------------------------------------------------------------------------

def _unit(arena: "Arena", ident: str, field: str, rule: str = "CLI-02"):
    if ident in arena.vehicles:
        return arena.vehicles[ident]
    if ident in arena.pedestrians:
        return arena.pedestrians[ident]
    raise _err("no vehicle or pedestrian with this id", field, ident, rule)


def check_history(data: dict, arena: "Arena") -> None:
    """CW-HIT-09: each sustained-fire record names an attacker, one of its weapons and a target that exist, once per
    attacker and weapon, and a turn before the arena's."""
    seen: dict[tuple[str, str], int] = {}
    for i, h in enumerate(data.get("history", [])):
        path = f"history[{i}]"
        unit = _unit(arena, h["attacker"], f"{path}.attacker", "CW-HIT-09")
        weapon = h["weapon"]
        from .model import Pedestrian

        if isinstance(unit, Pedestrian):
            ok = weapon in unit.weapons
        else:
            ok = any(w.id == weapon for w in unit.all_weapons()) or any(weapon in c.hand_weapons for c in unit.all_crew())
        if not ok:
            raise _err(f"{h['attacker']!r} has no such weapon (a mounted weapon's id, or a hand weapon it carries)",
                       f"{path}.weapon", weapon, "CW-HIT-09")
        if h["target"] not in arena.buildings:
            _unit(arena, h["target"], f"{path}.target", "CW-HIT-09")
        key = (h["attacker"], weapon)
        if key in seen:
            raise _err(f"a second record of this weapon (also history[{seen[key]}]): one record per attacker and weapon",
                       f"{path}.weapon", weapon, "CW-HIT-09")
        seen[key] = i
        if h["last_turn"] >= arena.turn:
            raise _err(f"the last turn fired is before the arena's turn ({arena.turn})", f"{path}.last_turn", h["last_turn"],
                       "CW-HIT-09")


def check_fired(data: dict, arena: "Arena") -> None:
    """CW-ROF-01: what fired earlier this turn names weapons and people that exist."""
    ft = data.get("fired_this_turn", {})
    for i, (vid, wid) in enumerate(ft.get("weapons", [])):
        path = f"fired_this_turn.weapons[{i}]"
        if vid not in arena.vehicles:
            raise _err("no vehicle with this id", f"{path}[0]", vid, "CW-ROF-01")
        if not any(w.id == wid for w in arena.vehicles[vid].all_weapons()):
            raise _err(f"vehicle {vid!r} has no weapon with this id", f"{path}[1]", wid, "CW-ROF-01")
    for i, (uid, cid) in enumerate(ft.get("characters", [])):
        path = f"fired_this_turn.characters[{i}]"
        unit = _unit(arena, uid, f"{path}[0]", "CW-ROF-01")
        if uid in arena.pedestrians:
            if cid != uid:
                raise _err("a pedestrian fires as itself: [id, id]", f"{path}[1]", cid, "CW-ROF-01")
        elif not any(c.id == cid for c in unit.all_crew()):
            raise _err(f"vehicle {uid!r} has no crew member with this id", f"{path}[1]", cid, "CW-ROF-01")


# --- attacks (static legality) ------------------------------------------------------------------------------

def _as_mount(placement: str | None):
    from .enums import Mount

    return Mount.parse(placement) if placement else None


def check_drop(weapon, placement: str | None, field: str) -> None:
    """CW-DROP-01/05, CW-VEH-03, CW-VEH-06: what `dropped.drop_weapon` would refuse, asked before anything is dropped.
    Static (the weapon list, the mount) and of the moment (destroyed, out of ammunition) alike."""
    check_drop_static(weapon, placement, field)
    if weapon.destroyed:
        raise RuleViolation(f"weapon {weapon.id!r} is destroyed", field=field, value=weapon.id, rule="CW-VEH-03")
    if weapon.spec.shots > 0 and weapon.ammo <= 0:
        raise RuleViolation(f"weapon {weapon.id!r} is out of ammunition", field=field, value=weapon.id, rule="CW-VEH-03")


def check_drop_static(weapon, placement: str | None, field: str) -> None:
    """The part of `check_drop` that no die changes: the weapon list and the mount."""
    from .enums import Mount
    from .tables import check_usable

    spec = weapon.spec
    check_usable(spec, field, weapon.id)
    as_mount = _as_mount(placement)
    if weapon.mount is Mount.TURRET and (as_mount is None or as_mount is Mount.TURRET):
        raise RuleViolation("a turret-mounted dropped weapon needs a placement (front, back, left, right, top or underbody)",
                            field=field, value=weapon.id, rule="CW-DROP-01")
    kind = spec.dropped_kind or ("cloud" if spec.cloud else "junk")
    if kind == "cloud" and (as_mount or weapon.mount) not in (Mount.BACK, Mount.LEFT, Mount.RIGHT):
        raise RuleViolation("smoke and paint are laid by rear or side mounts", field=field, value=weapon.id, rule="CW-DROP-05")


def check_link_drops(arena: "Arena", attack: "Attack", path: str) -> None:
    """CW-LINK-01: a link fired as an attack drops its dropped, smoke and paint weapons; each must be droppable."""
    from .model import Vehicle
    from .special import flatten_link

    unit = arena.vehicles.get(attack.attacker)
    if not isinstance(unit, Vehicle) or attack.weapon not in unit.links:
        return
    for w in flatten_link(unit, attack.weapon, f"{path}.weapon"):
        if not w.spec.aimed:
            check_drop(w, None, f"{path}.weapon")


def check_attack(arena: "Arena", rules: "Rules", a: "Attack", path: str, fetched: bool = False) -> None:
    """A planned attack of a multi-turn scenario, judged at load on what no phase changes: who fires what (the
    weapon mounted, linked or carried, or a grenade the firer gets out of a box before, `fetched`; the firer
    aboard), whether the weapon can fire at all, and whether the aim exists on the target. Positions, arcs, line
    of fire and the damage state are judged when its phase comes."""
    from .attack import parse_aim
    from .enums import Mount
    from .model import Pedestrian, Vehicle
    from .special import check_aimed_together, flatten_link
    from .tables import check_usable, weapon_spec

    unit = _unit(arena, a.attacker, f"{path}.attacker")
    target = arena.buildings.get(a.target) or _unit(arena, a.target, f"{path}.target")
    if target is unit:
        raise RuleViolation("a unit cannot fire at itself", field=f"{path}.target", value=a.target, rule="CW-LOF-01")
    aim = parse_aim(a.aim, f"{path}.aim")
    automatic = False
    if isinstance(unit, Pedestrian):
        if a.firer is not None and a.firer != unit.id:
            raise _err("a pedestrian fires its own weapons: leave firer out", f"{path}.firer", a.firer, "CW-HAND-01")
        if a.weapon not in unit.weapons:
            raise _err(f"pedestrian {unit.id!r} carries no such hand weapon (carries: {', '.join(unit.weapons) or 'none'})",
                       f"{path}.weapon", a.weapon, "CW-HAND-01")
        spec = weapon_spec(rules, a.weapon, f"{path}.weapon", hand=True)
        check_usable(spec, f"{path}.weapon", a.weapon)
    else:
        assert isinstance(unit, Vehicle)
        crew = unit.crew_member(a.firer, f"{path}.firer") if a.firer is not None else None
        mounted = next((w for w in unit.all_weapons() if w.id == a.weapon), None)
        if a.weapon in unit.links:
            weapons = flatten_link(unit, a.weapon, f"{path}.weapon")
            for w in weapons:
                check_usable(w.spec, f"{path}.weapon", w.id)
            aimed = [w for w in weapons if w.spec.aimed]
            group = [w for w in aimed if w.spec.name == aimed[0].spec.name] if aimed else []
            check_aimed_together(unit.links[a.weapon], group, f"{path}.weapon", a.weapon)
            for w in weapons:
                if w not in aimed:
                    check_drop(w, None, f"{path}.weapon")
            spec = aimed[0].spec if aimed else None
        elif mounted is not None:
            spec = mounted.spec
            check_usable(spec, f"{path}.weapon", mounted.id)
            if not spec.needs_to_hit or spec.dropped:
                raise RuleViolation(f"weapon {mounted.id!r} ({spec.name}) is not aimed: dropped and cloud weapons roll no "
                                    "to-hit (drop it with an action)", field=f"{path}.weapon", value=mounted.id, rule="CW-DROP-01")
            if mounted.mount is Mount.UNDERBODY:
                raise RuleViolation(f"weapon {mounted.id!r} is underbody-mounted: only dropped weapons go there",
                                    field=f"{path}.weapon", value=mounted.id, rule="CW-ARC-02")
            automatic = mounted.automatic
        else:
            if crew is None:
                unit.weapon(a.weapon, f"{path}.weapon")   # raises: no such mounted weapon (a hand weapon needs its firer)
            assert crew is not None
            from .special import fetched_grenade

            if a.weapon not in crew.hand_weapons and not (fetched and a.weapon == fetched_grenade(rules)):
                raise _err(f"vehicle {unit.id!r} has no weapon {a.weapon!r} and {crew.id!r} carries no such hand weapon"
                           + (" (nor gets one out of a box of grenades in an earlier turn)" if a.weapon == fetched_grenade(rules) else ""),
                           f"{path}.weapon", a.weapon, "CW-HAND-01")
            spec = weapon_spec(rules, a.weapon, f"{path}.weapon", hand=True)
            check_usable(spec, f"{path}.weapon", a.weapon)
            if crew.seat == "middle":
                raise RuleViolation(f"crew member {crew.id!r} sits in the middle: a hand weapon needs a seat by a side",
                                    field=f"{path}.firer", value=crew.seat, rule="CW-ARC-02")
    _check_aim(target, aim, automatic, rules, path)
    if a.victims:
        _check_victims(arena, rules, a, unit, path)


def _check_aim(target, aim, automatic: bool, rules: "Rules", path: str) -> None:
    from .enums import Side
    from .model import Vehicle
    from . import tohit

    if not isinstance(target, Vehicle):
        if aim.kind != "auto":
            raise RuleViolation(f"aim {aim} applies to vehicles only", field=f"{path}.aim", value=str(aim), rule="CW-TGT-03")
        return
    if automatic and aim.kind not in ("auto", "side"):
        raise RuleViolation("a weapon on automatic cannot target a tire, turret or other specific target",
                            field=f"{path}.aim", value=str(aim), rule="CW-AUTO-01")
    if aim.kind == "side" and aim.side is Side.UNDERBODY:
        raise RuleViolation("the underbody can never be chosen by a normal weapon", field=f"{path}.aim", value="underbody",
                            rule="CW-TGT-02")
    if aim.kind == "side" and aim.side is Side.TOP and target.kind != "trike" and target.rolled_onto is None:
        raise RuleViolation("a vehicle without a turret can be hit on top only by dropped or falling attacks or while rolled; "
                            "aim at 'turret'", field=f"{path}.aim", value="top", rule="CW-TGT-03")
    if aim.kind == "tire":
        target.tire(aim.part or "", f"{path}.aim")
        if not tohit.tire_targetable(rules, target.water_depth_ft):
            raise RuleViolation(f"tires cannot be targeted in water over 1 foot deep (depth {target.water_depth_ft:g} ft)",
                                field=f"{path}.aim", value=str(aim), rule="CW-HIT-06")
    if aim.kind == "turret" and not target.turret:
        raise RuleViolation(f"vehicle {target.id!r} has no turret", field=f"{path}.aim", value="turret", rule="CW-TGT-03")
    if aim.kind == "rider" and target.kind != "cycle":
        raise RuleViolation("only a motorcycle rider can be targeted as a rider", field=f"{path}.aim", value="rider",
                            rule="CW-TGT-07")
    if aim.kind == "sidecar" and target.sidecar is None:
        raise RuleViolation(f"vehicle {target.id!r} has no sidecar", field=f"{path}.aim", value="sidecar", rule="CW-TGT-05")


def _check_victims(arena: "Arena", rules: "Rules", a: "Attack", unit, path: str) -> None:
    from .attack import attack_weapon

    spec = attack_weapon(arena, unit, a.weapon, rules)
    if not spec.area_effect:
        raise RuleViolation(f"{spec.name} has no area effect", field=f"{path}.victims", value=list(a.victims), rule="CW-DMG-07")
    for v in a.victims:
        if v not in arena.pedestrians:
            raise RuleViolation("area effect is against pedestrians only", field=f"{path}.victims", value=v, rule="CW-DMG-07")
    for v in a.defender_order:
        if v not in a.victims:
            raise _err("not one of the victims", f"{path}.defender_order", v, "CW-DMG-07")


# --- the plan of a multi-turn scenario ----------------------------------------------------------------------

_ACTION_FIELDS = {
    "maneuver": ("difficulty",), "automatic_on": ("weapon",), "automatic_off": ("weapon",), "drop": ("weapon", "placement"),
    "detonate": ("counter",), "substitute": ("crew",), "steer": ("crew",), "fetch_grenade": ("crew",),
}
_NEEDED = {"automatic_on": "weapon", "automatic_off": "weapon", "drop": "weapon", "detonate": "counter", "substitute": "crew",
           "steer": "crew", "fetch_grenade": "crew"}
_OPTIONAL = ("difficulty", "placement", "weapon", "counter", "crew")


def check_plan(data: dict, arena: "Arena", rules: "Rules", plan: "TurnPlan", attack_index: dict[str, int],
               actions: list["Action"]) -> None:
    """The static legality of a multi-turn plan (CW-ROF-01, CW-AUTO-01, CW-DROP-01..05, CW-CREW-04, CW-HAND-01).

    Each action names what its kind needs and nothing else, and what it names exists; in each turn a weapon
    fires or is dropped once and a character makes one firing action (an attack, switching a weapon to or from
    automatic, a drop or a detonation is the driver's; getting a grenade out of a box takes the person's turn).
    Who fires an attack without a named firer is the default firer at the start (an able gunner, else the
    driver). What the dice do by a phase (a weapon destroyed, a firer knocked out, a counter set off) cancels
    that phase's attack or action then, with the rule, and nothing else."""
    from .enums import Mount
    from .special import flatten_link
    from .tables import check_usable

    action_rows = {id(a): i for i, a in enumerate(actions)}
    raw = data.get("action", [])
    order = sorted(set(plan.attacks) | set(plan.actions))
    weapons_used: dict[tuple[int, str, str], str] = {}
    actions_by: dict[tuple[int, str, str], str] = {}
    substitutes: set[tuple[str, str]] = set()
    mines_laid: set[str] = {c.id for c in arena.counters if c.kind == "mines"}
    fetched: dict[tuple[str, str], int] = {}
    automatic = {(v.id, w.id) for v in arena.vehicles.values() for w in v.all_weapons() if w.automatic}
    thrown: dict[tuple[str, str, str], int] = {}       # grenades thrown by now, by (unit, person, name)

    def throw(a: "Attack", turn: int, where: str) -> None:
        """CW-HAND-01: a thrown grenade is used up (phase._use_ammo), so a plan throws a grenade of a name no more
        times than the person carries it at the start, plus those he gets out of a box before."""
        from ..errors import HardpointError
        from .model import Pedestrian
        from .special import fetched_grenade
        from .tables import weapon_spec

        unit = arena.unit(a.attacker, "attack.attacker")
        if isinstance(unit, Pedestrian):
            person, carried = unit.id, unit.weapons
        elif a.firer and a.weapon not in unit.links and not any(w.id == a.weapon for w in unit.all_weapons()):
            person, carried = a.firer, unit.crew_member(a.firer, f"{where}.firer").hand_weapons
        else:
            return
        key = (unit.id, person, a.weapon)
        got = sum(1 for h in carried if h == a.weapon) + (fetched.get((unit.id, person), 0) if a.weapon == fetched_grenade(rules) else 0)
        try:
            if got == 0 or not weapon_spec(rules, a.weapon, hand=True).thrown:
                return            # not a grenade; or one he does not hold, which its explanation refuses
        except HardpointError:
            return
        thrown[key] = thrown.get(key, 0) + 1
        if thrown[key] > got:
            raise RuleViolation(f"{person!r} would throw {a.weapon} {thrown[key]} times by turn {turn}: he carries "
                                f"{got} (a thrown grenade is used up)", field=f"{where}.weapon", value=a.weapon, rule="CW-HAND-01")


    def character(a: "Attack", where: str) -> tuple[str, str] | None:
        """Who fires an attack (phase._character), with the weapons on automatic as the plan has left them; an
        attack nobody aboard can fire is refused (CW-ROF-01)."""
        from .attack import _default_firer, nobody_to_fire
        from .model import Pedestrian

        unit = arena.unit(a.attacker, "attack.attacker")
        if isinstance(unit, Pedestrian):
            return (unit.id, unit.id)
        if a.firer:
            return (unit.id, a.firer)
        if a.weapon in unit.links:
            members = flatten_link(unit, a.weapon, "attack.weapon")
            weapon = members[0]
            # the weapons a character aims (special.expand_link): the first that rolls to hit, unless on automatic
            aimed = [w for w in members if w.spec.aimed]
            needs_firer = bool(aimed) and (unit.id, aimed[0].id) not in automatic
        else:
            weapon = unit.weapon(a.weapon, "attack.weapon")
            if (unit.id, weapon.id) in automatic:
                return None     # a weapon on automatic fires by itself (CW-AUTO-01)
            needs_firer = True
        crew = _default_firer(unit, weapon)
        if crew is None:
            if needs_firer:
                raise RuleViolation(nobody_to_fire(unit, weapon), field=f"{where}.firer", value=None, rule="CW-ROF-01")
            return None
        return (unit.id, crew.id)

    def use_weapon(turn: int, vid: str, wid: str, where: str, value: str) -> None:
        key = (turn, vid, wid)
        if key in weapons_used:
            raise RuleViolation(f"weapon {wid!r} of {vid!r} already fires or drops in turn {turn} ({weapons_used[key]}): a "
                                "weapon fires once a turn", field=where, value=value, rule="CW-ROF-01")
        weapons_used[key] = where

    def act(turn: int, who: tuple[str, str] | None, where: str, value: str) -> None:
        if who is None:
            return
        key = (turn, who[0], who[1])
        if key in actions_by:
            raise RuleViolation(f"{who[1]!r} of {who[0]!r} already fires in turn {turn} ({actions_by[key]}): a character fires "
                                "once a turn", field=where, value=value, rule="CW-ROF-01")
        actions_by[key] = where

    for key in order:
        turn, phase = key
        for act_obj in plan.actions.get(key, []):
            i = action_rows[id(act_obj)]
            path = f"action[{i}]"
            entry = raw[i]
            kind = act_obj.kind
            for f in _OPTIONAL:
                if f in entry and f not in _ACTION_FIELDS[kind]:
                    raise _err(f"does not apply to a {kind} action", f"{path}.{f}", entry[f], "CLI-02")
            need = _NEEDED.get(kind)
            if need and entry.get(need) is None:
                raise _err(f"a {kind} action names its {need}", f"{path}.{need}", None, "CLI-02")
            v = arena.vehicles[act_obj.vehicle]
            driver = (v.id, v.driver.id) if v.driver is not None else None
            if kind in ("automatic_on", "automatic_off"):
                w = v.weapon(act_obj.weapon or "", f"{path}.weapon")
                if kind == "automatic_on":
                    check_usable(w.spec, f"{path}.weapon", w.id)
                    if w.mount is Mount.TURRET:
                        raise RuleViolation(f"weapon {w.id!r} is turret-mounted: turret weapons cannot go on automatic",
                                            field=f"{path}.weapon", value=w.id, rule="CW-AUTO-01")
                    automatic.add((v.id, w.id))
                else:
                    automatic.discard((v.id, w.id))
                act(turn, driver, path, w.id)
            elif kind == "drop":
                wid = act_obj.weapon or ""
                if wid in v.links:
                    members = flatten_link(v, wid, f"{path}.weapon")
                    for w in members:
                        check_usable(w.spec, f"{path}.weapon", w.id)
                        if not w.spec.dropped:
                            raise RuleViolation(f"{w.spec.name} in link {wid!r} needs a target: fire the link as an attack",
                                                field=f"{path}.weapon", value=wid, rule="CW-LINK-01")
                else:
                    members = [v.weapon(wid, f"{path}.weapon")]
                    if not members[0].spec.dropped:
                        raise RuleViolation(f"{members[0].spec.name} is not a dropped weapon", field=f"{path}.weapon", value=wid,
                                            rule="CW-DROP-01")
                for w in members:
                    check_drop(w, act_obj.placement, f"{path}.weapon")
                    use_weapon(turn, v.id, w.id, path, wid)
                    if (w.spec.dropped_kind or "") == "mines":     # dropped.counter_id: either form
                        mines_laid |= {f"{w.id}.t{turn}p{phase}", f"{v.id}.{w.id}.t{turn}p{phase}"}
                act(turn, driver, path, wid)
            elif kind == "detonate":
                if act_obj.counter not in mines_laid and not _laid_on_automatic(v, act_obj.counter or "", key):
                    raise _err("no mines counter with this id on the map or laid by a drop of an earlier phase "
                               "(a drop's counter is <weapon>.t<turn>p<phase>)", f"{path}.counter", act_obj.counter, "CW-DROP-03")
                act(turn, driver, path, act_obj.counter or "")
            elif kind == "substitute":
                person = v.crew_member(act_obj.crew or "", f"{path}.crew")
                if v.kind == "cycle" and person.seat != "sidecar":
                    raise RuleViolation("only a sidecar passenger can steer a cycle", field=f"{path}.crew", value=person.id,
                                        rule="CW-CREW-04")
                if v.driver is not None and v.driver.id == person.id:
                    raise RuleViolation("the driver cannot substitute for himself", field=f"{path}.crew", value=person.id,
                                        rule="CW-CREW-04")
                substitutes.add((v.id, person.id))
            elif kind == "steer":
                person = v.crew_member(act_obj.crew or "", f"{path}.crew")
                if (v.id, person.id) not in substitutes:
                    raise RuleViolation("only the substitute driver steers: no substitute action names this crew member "
                                        "before", field=f"{path}.crew", value=person.id, rule="CW-CREW-04")
            elif kind == "fetch_grenade":
                from .special import check_hand_load, fetched_grenade, grenade_boxes

                person = v.crew_member(act_obj.crew or "", f"{path}.crew")
                if not grenade_boxes(v):
                    raise RuleViolation("no box of grenades in the cargo (a cargo item whose id starts grenade_box)",
                                        field=f"{path}.kind", value=kind, rule="CW-HAND-01")
                n = fetched.get((v.id, person.id), 0) + 1
                fetched[(v.id, person.id)] = n
                # what he holds when he fetches: what he carried, less the grenades the plan has him throw before,
                # plus those he got out before (a thrown grenade is used up); a planned throw the dice cancel leaves
                # him one more, and the fetch is then cancelled when its turn comes (turn.do_action)
                held = list(person.hand_weapons) + [fetched_grenade(rules)] * (n - 1)
                for (uid, pid, name), times in thrown.items():
                    for _ in range(times if (uid, pid) == (v.id, person.id) else 0):
                        held.remove(name)
                check_hand_load(rules, person, tuple(held) + (fetched_grenade(rules),), f"{path}.crew")
                act(turn, (v.id, person.id), path, person.id)
        for a in plan.attacks.get(key, []):
            path = f"attack[{attack_index[a.id]}]"
            unit = arena.vehicles.get(a.attacker)
            if unit is not None:
                members = [w.id for w in flatten_link(unit, a.weapon, f"{path}.weapon")] if a.weapon in unit.links else [a.weapon]
                for wid in members:
                    if any(w.id == wid for w in unit.all_weapons()):
                        use_weapon(turn, unit.id, wid, path, a.id)
            act(turn, character(a, path), path, a.id)
            throw(a, turn, path)


def _laid_on_automatic(vehicle: "Vehicle", counter: str, before: tuple[int, int]) -> bool:
    """A counter id of the form <weapon>.t<turn>p<phase> that a minedropper of this vehicle may lay on automatic
    (on automatic at the start or switched on by an action) in an earlier phase."""
    m = re.fullmatch(r"(.+)\.t(\d+)p(\d+)", counter)
    if not m:
        return False
    wid, turn, phase = m.group(1), int(m.group(2)), int(m.group(3))
    if wid.startswith(f"{vehicle.id}."):      # dropped.counter_id when the plain id was taken
        wid = wid[len(vehicle.id) + 1:]
    w = next((w for w in vehicle.all_weapons() if w.id == wid), None)
    return w is not None and (w.spec.dropped_kind or "") == "mines" and (turn, phase) < before
