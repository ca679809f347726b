"""Hand-written icepool models of the built-in attacks (FAST-02, issue 12): the same distributions as
`hardpoint.carwars.exact.exact_attack`, computed by icepool from the rules as a player would model them.

Each model mirrors the rules of its attack kind, not the reference code: 2d6 against the number needed
(a natural 2 misses, CW-HIT-01), the weapon's damage dice, the hits that reach the target (CW-HAND-01),
then the damage location: a tire (CW-DMG-04), a car's penetration from an end, a side or the top
(CW-DMG-02..04, random picks as uniform icepool dice), a trike's wheel end (CW-TGT-06), a cycle hit from
the sidecar's side (CW-TGT-04/05: 1d cycle or sidecar, the end table, the side table); an area-effect sweep
(CW-DMG-07). Outcomes are
tuples of component values in `component_values` order. Bands come from the rules tables (data).
icepool is optional: this module is imported only when it is installed.
"""
from __future__ import annotations

from fractions import Fraction

import icepool
from icepool import Die, d6

from hardpoint.carwars.attack import attack_weapon
from hardpoint.carwars.enums import Location, Mount, Side
from hardpoint.carwars.model import Pedestrian, Vehicle
from hardpoint.carwars.exact import component_values

__all__ = ["attack_model", "odds_from_die"]

TWO_D6 = 2 @ d6


class _State:
    """A target's component values by name, as an immutable tuple in a fixed order."""

    def __init__(self, keys: list[str]) -> None:
        self.keys = keys
        self.index = {k: i for i, k in enumerate(keys)}

    def get(self, vals: tuple, key: str) -> int:
        return vals[self.index[key]]

    def put(self, vals: tuple, key: str, value: int) -> tuple:
        i = self.index[key]
        return vals[:i] + (value,) + vals[i + 1:]

    def absorb(self, vals: tuple, key: str, hits: int) -> tuple[tuple, int]:
        """Armour or a component takes hits up to its value (a person: body armour, then up to 3 hits)."""
        if hits <= 0:
            return vals, hits
        if f"{key} body armour" in self.index:
            vals, hits = self.absorb(vals, f"{key} body armour", hits)
            taken = min(hits, 3 - self.get(vals, key))
            return self.put(vals, key, self.get(vals, key) + taken), hits - taken
        v = self.get(vals, key)
        taken = min(v, hits)
        return self.put(vals, key, v - taken), hits - taken


def _pick(keys: list[str], then):
    """A uniform random pick among `keys` (destroyed ones included, CW-DMG-05), continued by `then(key)`."""
    if not keys:
        return then(None)
    if len(keys) == 1:
        return then(keys[0])
    return Die([then(k) for k in keys])


def _in(band, v) -> bool:
    return band[0] <= v <= band[1]


def _car(st: _State, v: Vehicle, side: Side):
    """CW-DMG-02/03/04: a car (or a trike past its wheel end) from `side`; returns f(vals, hits) -> Die or tuple."""
    weapons = {m: [f"weapon {w.id}" for w in v.weapons if w.mount is m] for m in Mount}

    def items(loc: Location) -> list[str]:
        if loc is Location.CREW:
            return [f"crew {c.id}" for c in v.crew]
        if loc is Location.POWER_PLANT:
            return ["power plant"] if v.power_plant is not None else []
        return [f"cargo {c.id}" for c in v.cargo]

    def chain(vals, hits, steps):
        """Steps: ("armour", key) | ("pick", [keys]) | ("locations",) | ("vertical",)."""
        if not steps or hits <= 0:
            return vals
        kind, arg = steps[0]
        rest = steps[1:]
        if kind == "armour":
            vals, hits = st.absorb(vals, arg, hits)
            return chain(vals, hits, rest)
        if kind == "pick":
            return _pick(arg, lambda k: chain(*st.absorb(vals, k, hits), rest) if k else chain(vals, hits, rest))
        if kind == "one location":      # CW-DMG-03: one internal location at random
            return Die([chain(vals, hits, [("pick", items(loc))] + rest) if items(loc) else chain(vals, hits, rest)
                        for loc in v.layout])
        # "vertical", CW-DMG-04: one pick among the power plant, each crew member and the cargo location
        cands = (["power plant"] if v.power_plant is not None else []) + [f"crew {c.id}" for c in v.crew]
        cands += ["cargo"] if Location.CARGO in v.layout else []
        return _pick(cands, lambda k: chain(vals, hits, ([("pick", items(Location.CARGO))] if k == "cargo" else [("pick", [k])]) + rest))

    far = side.opposite
    if side.is_end:
        order = v.layout if side is Side.FRONT else tuple(reversed(v.layout))
        steps = [("armour", f"{side} armour"), ("pick", weapons[Mount(int(side))])]
        steps += [("pick", items(loc)) for loc in order if items(loc)]
        steps += [("pick", weapons[Mount(int(far))]), ("armour", f"{far} armour")]
    elif side.is_flank:
        steps = [("armour", f"{side} armour"), ("pick", weapons[Mount(int(side))]), ("one location", None),
                 ("pick", weapons[Mount(int(far))]), ("armour", f"{far} armour")]
    else:
        first, last = (Side.TOP, Side.UNDERBODY) if side is Side.TOP else (Side.UNDERBODY, Side.TOP)
        middle = [("pick", weapons[Mount.TURRET]), ("vertical", None)]
        steps = [("armour", f"{first} armour")] + (middle if side is Side.TOP else middle[::-1]) + [("armour", f"{last} armour")]
    return lambda vals, hits: chain(vals, hits, steps)


def _trike_end(rules, st: _State, v: Vehicle, side: Side):
    """CW-TGT-06: 2d6 on the wheel band: that wheel, the rest lost; otherwise the armour, then inward as a car."""
    band = rules["carwars.damage"]["trike"]["wheel"]
    car = _car(st, v, side)
    return lambda vals, hits: TWO_D6.map(lambda r: st.absorb(vals, f"tire {side}", hits)[0] if _in(band, r) else car(vals, hits))


def _cycle(rules, st: _State, v: Vehicle, side: Side, sidecar_side: bool):
    """CW-TGT-04/05: 1d cycle or sidecar; the sidecar: its armour, then one of its interior components; the cycle:
    the end table (wheel, or armour then the side table), or the side table; the side table's weapon rows rolled
    again when there is no weapon (the kept rows renormalised)."""
    t = rules["carwars.damage"]["cycle"]
    sc_band = rules["carwars.damage"]["sidecar"]["sidecar"]
    sc = v.sidecar
    interior = ([f"sidecar weapon {w.id}" for w in sc.weapons] + [f"sidecar crew {c.id}" for c in sc.crew]
                + [f"sidecar cargo {c.id}" for c in sc.cargo]) if sc else []
    driver = next((c for c in v.crew if c.seat == "cycle"), v.driver)

    def sidecar(vals, hits):
        vals, hits = st.absorb(vals, f"sidecar {side} armour", hits)
        return _pick(interior, lambda k: st.absorb(vals, k, hits)[0]) if hits > 0 and interior else vals

    def side_table(vals, hits):
        rows = {}
        for r in range(2, 13):
            if _in(t["side_driver"], r):
                rows[r] = st.absorb(vals, f"crew {driver.id}", hits)[0] if driver else vals
            elif _in(t["side_power_plant"], r):
                rows[r] = st.absorb(vals, "power plant", hits)[0]
            elif _in(t["side_weapon"], r):
                if v.weapons:
                    rows[r] = _pick([f"weapon {w.id}" for w in v.weapons], lambda k: st.absorb(vals, k, hits)[0])
            else:
                rows[r] = _pick([f"tire {x.id}" for x in v.tires], lambda k: st.absorb(vals, k, hits)[0])
        return TWO_D6.map(lambda r: rows[r] if r in rows else icepool.Reroll)   # rolled again: the kept rows renormalised

    def cycle(vals, hits):
        if not side.is_end:
            return side_table(vals, hits)

        def end(r):
            if _in(t["end_wheel"], r):
                return st.absorb(vals, f"tire {side}", hits)[0]
            after, rest = st.absorb(vals, f"{side} armour", hits)
            return side_table(after, rest) if rest > 0 else after
        return TWO_D6.map(end)

    if sc is not None and (side is sc.side or sidecar_side):
        return lambda vals, hits: d6.map(lambda f: sidecar(vals, hits) if _in(sc_band, f) else cycle(vals, hits))
    return cycle


def area_model(scenario, attack):
    """CW-DMG-07: one to-hit die per victim; k hits pick the first k victims of the defender's order; one damage roll,
    half of it (rounded up) to each victim hit, body armour first. Outcomes: every victim's (hits, body armour)."""
    rules, arena = scenario.rules, scenario.arena
    by_id = {x.attack: x for x in scenario.explain()}
    t = rules["carwars.tohit"]["to_hit"]
    victims = list(attack.victims)
    order = list(attack.defender_order) + [v for v in victims if v not in attack.defender_order]
    spec = attack_weapon(arena, arena.unit(attack.attacker, "attacker"), attack.weapon, rules)
    peds = [arena.pedestrians[v] for v in victims]
    keys = [k for p in peds for k in component_values(p)]
    st = _State(keys)
    start = tuple(x for p in peds for x in component_values(p).values())
    rolls = [TWO_D6.map(lambda r, b=by_id[f"{attack.id}@{v}"]: int(b.possible and r != t["natural_miss"] and b.needed <= t["max_needed"]
                                                                     and r >= b.needed)) for v in victims]
    count = sum(rolls[1:], rolls[0])
    dmg = (spec.damage.count @ d6 + spec.damage.bonus).map(lambda x: max(spec.damage.floor, x))

    def after(k, total):
        each = total if spec.flamethrower else -(-total // 2)
        vals = start
        for v in order[:k]:
            vals = st.absorb(vals, f"pedestrian {v}", each)[0]
        return vals
    outcome = count.map(lambda k: dmg.map(lambda d: after(k, d)) if k else Die([start]))
    hit = count.map(lambda k: k > 0)
    damage = count.map(lambda k: dmg if k else Die([0]))
    return hit, damage, outcome, keys


def attack_model(scenario, attack_id: str):
    """The attack as icepool dice: (P(hit) die, damage die, die of the target's component values)."""
    attack = next(a for a in scenario.attacks if a.id == attack_id)
    if attack.victims:
        return area_model(scenario, attack)
    b = next(x for x in scenario.explain() if x.attack == attack_id)
    rules, arena = scenario.rules, scenario.arena
    unit = arena.unit(b.attacker, "attacker")
    spec = attack_weapon(arena, unit, b.weapon, rules)
    target = arena.unit(b.target, "target")
    keys = list(component_values(target))
    st = _State(keys)
    start = tuple(component_values(target).values())
    t = rules["carwars.tohit"]["to_hit"]
    hit = TWO_D6.map(lambda r: b.possible and r != t["natural_miss"] and b.needed <= t["max_needed"] and r >= b.needed)
    if spec.damage is not None:
        dmg = (spec.damage.count @ d6 + spec.damage.bonus).map(lambda x: max(spec.damage.floor, x))
    else:
        dmg = Die([spec.damage_hits or 0])

    def hits_of(d: int) -> int:        # CW-HAND-01: a hand weapon beyond point blank does nothing to a vehicle
        if not spec.hand or isinstance(target, Pedestrian) or b.aimed_at.startswith("tire") or spec.vs_vehicles == "full":
            return d
        if spec.vs_vehicles == "half":
            return -(-d // 2)
        return d if b.range is not None and b.range < 1.0 else 0

    if isinstance(target, Pedestrian):
        def location(vals, h):
            return st.absorb(vals, f"pedestrian {target.id}", h)[0]
    elif b.aimed_at.startswith("tire "):
        def location(vals, h):
            return st.absorb(vals, f"tire {b.aimed_at[5:]}", h)[0]
    elif target.kind == "cycle":
        location = _cycle(rules, st, target, Side.parse(b.side), b.sidecar_side)
    elif b.aimed_at == "top":
        location = _car(st, target, Side.TOP)
    elif target.kind == "trike" and Side.parse(b.side) is (Side.BACK if target.reversed_trike else Side.FRONT):
        location = _trike_end(rules, st, target, Side.parse(b.side))
    else:
        location = _car(st, target, Side.parse(b.side))
    by_hits = {}

    def after(d: int):
        h = hits_of(d)
        if h not in by_hits:
            by_hits[h] = location(start, h) if h > 0 else start
        return by_hits[h]
    outcome = hit.map(lambda x: dmg.map(after) if x else Die([start]))
    damage = hit.map(lambda x: dmg if x else Die([0]))
    return hit, damage, outcome, keys


def odds_from_die(model) -> dict:
    """P(hit), the damage distribution and each component's marginal distribution, as Fractions."""
    hit, damage, outcome, keys = model
    total = outcome.denominator()
    comp: dict[str, dict[int, Fraction]] = {k: {} for k in keys}
    for vals, w in outcome.items():
        for k, v in zip(keys, vals):
            comp[k][v] = comp[k].get(v, 0) + Fraction(w, total)
    return {"p_hit": Fraction(hit.quantity(True), hit.denominator()),
            "damage": {k: Fraction(w, damage.denominator()) for k, w in damage.items()},
            "component_dp": {k: dict(sorted(d.items())) for k, d in comp.items()}}
