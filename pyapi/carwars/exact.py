"""Exact odds of one Car Wars attack, from the rules' explicit chance points (FAST-02).

`exact_attack(scenario, attack_id)` returns an `AttackOdds`: P(hit), the
distribution of the damage rolled, and for every component of the target the
exact distribution of its value after the attack, all as Fractions.
`exact_resolution(scenario)` gives the exact distribution of the whole
scenario's final state (every phase and turn), where it is small enough.

Method (docs/exact.md). The to-hit and damage rolls have known distributions
(`tohit.is_hit` over 2d6, `DiceExpr.distribution()`). The damage location is
not re-implemented: the reference `apply_shot` (or `damage_pedestrian`) runs on
a working copy of the target with `hardpoint.chance.ChanceDice`, which branches
over every chance point the rules meet: a random pick is one chance point of n
outcomes of 1/n (however the dice re-roll it), a table roll is one outcome per
row the rule tells apart (the cycle side table's "roll again" rows excluded and
the rest renormalised), any other roll one outcome per total. The working copy
is reset from the target's component values (a tuple) before each path; the
outcome is the tuple after it; equal tuples merge. Memoised by the hits that
arrive: each distinct number of hits is enumerated once.
"""
from __future__ import annotations

import math
import pickle
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

from ..chance import MAX_PATHS, ExactError, enumerate_outcomes
from ..errors import ScenarioError
from . import tohit
from .attack import attack_weapon
from .crew import damage_pedestrian
from .damage import Ledger, apply_shot
from .model import Building, Pedestrian, Vehicle
from .phase import hits_against_vehicle, shot_for

__all__ = ["AttackOdds", "ExactError", "exact_attack", "component_values", "location_outcomes", "exact_resolution",
           "state_dict", "MAX_PATHS", "MAX_RESOLUTION_PATHS"]

_ONE = Fraction(1)
Outcome = tuple[int, ...]
_Dist = dict[Outcome, Fraction]


# --- the result -------------------------------------------------------------------------

@dataclass(frozen=True)
class AttackOdds:
    """The exact outcome distribution of one declared attack (FAST-02).

    `damage`: the damage rolled (0 on a miss), as `AttackRoll.damage`.
    `hits`: the hits that reach the target after the hand-weapon rule (CW-HAND-01).
    `component_dp`: per component of the target, the distribution of its value
    after the attack: DP or armour points left, except crew members and
    pedestrians, whose value is the hits they have taken (3 = dead).
    `destroyed`: per component, P(it ends at 0 DP); for people, P(dead).
    """

    attack: str
    target: str
    aimed_at: str
    p_hit: Fraction
    damage: dict[int, Fraction]
    hits: dict[int, Fraction]
    component_dp: dict[str, dict[int, Fraction]]
    destroyed: dict[str, Fraction]

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly: Fractions as strings ("5/12"), integer keys as strings."""
        def dist(d: dict[int, Fraction]) -> dict[str, str]:
            return {str(k): str(v) for k, v in sorted(d.items())}

        return {
            "attack": self.attack, "target": self.target, "aimed_at": self.aimed_at,
            "p_hit": str(self.p_hit), "damage": dist(self.damage), "hits": dist(self.hits),
            "component_dp": {k: dist(v) for k, v in self.component_dp.items()},
            "destroyed": {k: str(v) for k, v in self.destroyed.items()},
        }


# --- the target's components ----------------------------------------------------------------

def component_values(target: Vehicle | Pedestrian) -> dict[str, int]:
    """Every component of a vehicle or pedestrian and its current value, in a fixed order.

    Armour sides, power plant, weapons, tires, cargo (DP or points left); crew
    members (hits taken) and their body armour; a sidecar's armour, tire,
    weapons, crew and cargo under "sidecar ...". A pedestrian: its hits and body armour.
    """
    out: dict[str, int] = {}
    if isinstance(target, Pedestrian):
        out[f"pedestrian {target.id}"] = target.hits
        out[f"pedestrian {target.id} body armour"] = target.body_armour
        return out
    for side, points in target.armour.items():
        out[f"{side} armour"] = points
    if target.power_plant is not None:
        out["power plant"] = target.power_plant
    for w in target.weapons:
        out[f"weapon {w.id}"] = w.dp
    for t in target.tires:
        out[f"tire {t.id}"] = t.dp
    for c in target.cargo:
        out[f"cargo {c.id}"] = c.dp
    for p in target.crew:
        out[f"crew {p.id}"] = p.hits
        out[f"crew {p.id} body armour"] = p.body_armour
    sc = target.sidecar
    if sc is not None:
        for side, points in sc.armour.items():
            out[f"sidecar {side} armour"] = points
        out["sidecar tire"] = sc.tire.dp
        for w in sc.weapons:
            out[f"sidecar weapon {w.id}"] = w.dp
        for p in sc.crew:
            out[f"sidecar crew {p.id}"] = p.hits
            out[f"sidecar crew {p.id} body armour"] = p.body_armour
        for c in sc.cargo:
            out[f"sidecar cargo {c.id}"] = c.dp
    return out


def _values(target: Vehicle | Pedestrian) -> tuple[int, ...]:
    """`component_values(target)` as a tuple, without the names (the search calls it at every roll)."""
    if isinstance(target, Pedestrian):
        return (target.hits, target.body_armour)
    out = list(target.armour.values())
    if target.power_plant is not None:
        out.append(target.power_plant)
    out += [w.dp for w in target.weapons]
    out += [t.dp for t in target.tires]
    out += [c.dp for c in target.cargo]
    for p in target.crew:
        out += (p.hits, p.body_armour)
    sc = target.sidecar
    if sc is not None:
        out += sc.armour.values()
        out.append(sc.tire.dp)
        out += [w.dp for w in sc.weapons]
        for p in sc.crew:
            out += (p.hits, p.body_armour)
        out += [c.dp for c in sc.cargo]
    return tuple(out)


def _set_values(target: Vehicle | Pedestrian, values: Outcome) -> None:
    """Put back the component values `_values` read (the enumerator resets its working copy with it)."""
    it = iter(values)
    if isinstance(target, Pedestrian):
        target.hits, target.body_armour = values
        return
    arm = target.armour
    for side in arm:
        arm[side] = next(it)
    if target.power_plant is not None:
        target.power_plant = next(it)
    for w in target.weapons:
        w.dp = next(it)
    for t in target.tires:
        t.dp = next(it)
    for c in target.cargo:
        c.dp = next(it)
    for p in target.crew:
        p.hits = next(it)
        p.body_armour = next(it)
    sc = target.sidecar
    if sc is not None:
        for side in sc.armour:
            sc.armour[side] = next(it)
        sc.tire.dp = next(it)
        for w in sc.weapons:
            w.dp = next(it)
        for p in sc.crew:
            p.hits = next(it)
            p.body_armour = next(it)
        for c in sc.cargo:
            c.dp = next(it)


def _is_person(key: str) -> bool:
    return key.startswith(("crew ", "sidecar crew ", "pedestrian ")) and not key.endswith(" body armour")


class _Working:
    """A working copy of a target, reset from its starting component values before each path."""

    def __init__(self, target: Vehicle | Pedestrian) -> None:
        self.target = target
        self.work = pickle.loads(pickle.dumps(target, protocol=pickle.HIGHEST_PROTOCOL))   # a deep copy, faster
        self.start = _values(target)

    def outcomes(self, apply: Callable[[Any, Any], object], faces: bool, max_paths: int) -> _Dist:
        work, start = self.work, self.start

        def run(dice) -> Outcome:
            _set_values(work, start)
            apply(work, dice)
            return _values(work)

        return enumerate_outcomes(run, max_paths=max_paths, faces=faces,
                                  what=f"the damage to {getattr(self.target, 'id', 'the target')}")


def location_outcomes(target: Vehicle | Pedestrian, apply: Callable[[Any, Any], object], faces: bool = False,
                      max_paths: int = MAX_PATHS) -> dict[Outcome, Fraction]:
    """Exact distribution of the target's component values (`component_values` order) after
    `apply(copy_of_target, dice)`, over every chance point and roll the rules meet (FAST-02).

    `apply` must change only the component values of the copy it is given (it is reset between
    paths). `faces=True` branches every roll face by face instead of by what the rule reads
    (slower; the same result).

    Raises:
        ExactError: more than `max_paths` paths, or a roll that is rolled again for ever.
    """
    return _Working(target).outcomes(apply, faces, max_paths)


# --- one attack ------------------------------------------------------------------------------

def _find_attack(scenario: Any, attack_id: str):
    for a in scenario.attacks:
        if a.id == attack_id:
            return a
    raise ScenarioError(f"no declared attack with this id (attacks: {', '.join(a.id for a in scenario.attacks) or 'none'})",
                        field="attack", value=attack_id, rule="FAST-02")


def _marginals(keys: list[str], joint: _Dist) -> dict[str, dict[int, Fraction]]:
    """Each component's distribution, summed in integers over the joint's common denominator (Fraction
    additions were a quarter of the time)."""
    den = math.lcm(*(p.denominator for p in joint.values())) if joint else 1
    weights = [(outcome, p.numerator * (den // p.denominator)) for outcome, p in joint.items()]
    out: list[dict[int, int]] = [{} for _ in keys]
    for outcome, w in weights:
        for d, v in zip(out, outcome):
            d[v] = d.get(v, 0) + w
    return {k: {v: Fraction(w, den) for v, w in sorted(d.items())} for k, d in zip(keys, out)}


def exact_attack(scenario: Any, attack_id: str, *, faces: bool = False, max_paths: int = MAX_PATHS) -> AttackOdds:
    """Exact odds of one declared attack of a single-phase scenario, or of the first turn of a scenario of turns
    (FAST-02).

    The attack is taken alone, against the scenario's state before the phase (in a scenario of turns: at the
    positions after its phase's movement, against the state at the start of the turn):
    P(hit) from 2d6 against the number needed (a natural 2 misses), the damage
    roll's distribution, the hits reaching the target (CW-HAND-01), then every
    damage location the reference rules can choose (`apply_shot`,
    `damage_pedestrian`). A building is not damaged: P(hit) and the damage only.

    Raises:
        ScenarioError: no attack with this id.
        ScenarioError: an attack of a later turn (its odds depend on the dice of the turns before it).
        NotImplementedError: linked weapons (CW-LINK-01).
    """
    if getattr(scenario, "ruleset", "carwars") != "carwars":
        raise NotImplementedError(f"exact odds are for Car Wars scenarios only, not {scenario.ruleset!r} (FAST-02)")
    attack = _find_attack(scenario, attack_id)
    if (getattr(scenario, "turns", None) or 0) > 1:
        turn = next((t for (t, _phase), xs in scenario.plan.attacks.items() if any(a.id == attack_id for a in xs)), 1)
        if turn > 1:
            raise ScenarioError(f"an attack of turn {turn}: its odds depend on the dice of the turns before it; "
                             "hardpoint.carwars.exact.exact_resolution gives the scenario's whole exact distribution where it "
                             "is small enough", field="attack", value=attack_id, rule="FAST-02")
    arena, rules = scenario.arena, scenario.rules
    unit = arena.unit(attack.attacker, "attack.attacker")
    if attack.victims:
        return _area_odds(scenario, attack, unit)
    if (isinstance(unit, Vehicle) and attack.weapon in unit.links) or attack.link is not None or attack.as_automatic:
        raise NotImplementedError(f"attack {attack.id!r} fires linked weapons (CW-LINK-01): exact odds are not "
                                  "implemented for it (FAST-02)")
    breakdown = next((b for b in scenario.explain() if b.attack == attack.id), None)
    if breakdown is None:   # a one-turn scenario's attack that the rules cancel when its phase comes
        raise NotImplementedError(f"attack {attack.id!r} is cancelled by the rules when its phase comes (FAST-02)")

    p_hit = _p_hit(rules, breakdown)
    spec = attack_weapon(arena, unit, breakdown.weapon, rules)
    rolled = spec.damage.distribution() if spec.damage is not None else {spec.damage_hits or 0: _ONE}

    target = arena.buildings.get(breakdown.target) or arena.unit(breakdown.target, "attack.target")
    damage: dict[int, Fraction] = {0: 1 - p_hit}
    hits: dict[int, Fraction] = {0: 1 - p_hit}
    by_hits: dict[int, Fraction] = {}
    for d, p in rolled.items():
        damage[d] = damage.get(d, 0) + p_hit * p
        h = d
        if isinstance(target, Vehicle):
            h = hits_against_vehicle(spec, breakdown, d, Ledger(target.id))
        hits[h] = hits.get(h, 0) + p_hit * p
        by_hits[h] = by_hits.get(h, 0) + p_hit * p
    damage = {k: v for k, v in sorted(damage.items()) if v}
    hits = {k: v for k, v in sorted(hits.items()) if v}

    if isinstance(target, Building):
        return AttackOdds(attack.id, breakdown.target, breakdown.aimed_at, p_hit, damage, hits, {}, {})

    keys = list(component_values(target))
    before = _values(target)
    working = _Working(target)
    assert len(before) == len(keys)
    joint: _Dist = {before: 1 - p_hit}
    for h, p in by_hits.items():           # memoised by hits: each distinct value is enumerated once
        if not p:
            continue
        if h <= 0:
            joint[before] = joint.get(before, 0) + p
            continue
        for outcome, q in _hits_outcomes(rules, working, breakdown, h, faces, max_paths).items():
            joint[outcome] = joint.get(outcome, 0) + p * q
    joint = {k: v for k, v in joint.items() if v}
    dp = _marginals(keys, joint)
    destroyed = {k: sum((p for v, p in d.items() if (v >= 3 if _is_person(k) else v == 0)), Fraction(0))
                 for k, d in dp.items()}
    return AttackOdds(attack.id, breakdown.target, breakdown.aimed_at, p_hit, damage, hits, dp, destroyed)


def _p_hit(rules, breakdown) -> Fraction:
    """CW-HIT-01: the to-hit roll through the reference rule, over the 36 faces of 2d6."""
    return sum((Fraction(1, 36) for a in range(1, 7) for b in range(1, 7)
                if tohit.is_hit(rules, a + b, breakdown.needed, breakdown.possible)), Fraction(0))


def _area_odds(scenario: Any, attack, unit) -> AttackOdds:
    """CW-DMG-07: an area-effect attack on pedestrians: one to-hit roll per intended victim (independent), as many
    victims hit as rolls that hit, taken in the defender's order (then the declared order); one damage roll, each
    victim hit taking half of it rounded up (a flamethrower: all of it), through `damage_pedestrian`.

    `target` lists the victims, `p_hit` is P(at least one victim hit), `damage` the damage roll (0 when none is
    hit), `hits` what each victim hit takes; `component_dp` covers every victim."""
    rules, arena = scenario.rules, scenario.arena
    by_id = {b.attack: b for b in scenario.explain()}
    victims = list(attack.victims)
    missing = [v for v in victims if f"{attack.id}@{v}" not in by_id]
    if missing:
        raise NotImplementedError(f"attack {attack.id!r} is cancelled by the rules when its phase comes (FAST-02)")
    count: dict[int, Fraction] = {0: _ONE}          # P(k rolls hit), one victim's roll at a time
    for v in victims:
        p = _p_hit(rules, by_id[f"{attack.id}@{v}"])
        nxt: dict[int, Fraction] = {}
        for k, q in count.items():
            nxt[k] = nxt.get(k, 0) + q * (1 - p)
            nxt[k + 1] = nxt.get(k + 1, 0) + q * p
        count = {k: q for k, q in nxt.items() if q}
    order = list(attack.defender_order) + [v for v in victims if v not in attack.defender_order]
    spec = attack_weapon(arena, unit, attack.weapon, rules)
    rolled = spec.damage.distribution() if spec.damage is not None else {spec.damage_hits or 0: _ONE}
    peds = [arena.pedestrians[v] for v in victims]
    keys = [k for ped in peds for k in component_values(ped)]
    before = tuple(x for ped in peds for x in _values(ped))
    none = count.get(0, Fraction(0))
    damage: dict[int, Fraction] = {0: none} if none else {}
    each_dist: dict[int, Fraction] = {0: none} if none else {}
    joint: _Dist = {before: none} if none else {}
    work = {ped.id: _Working(ped) for ped in peds}
    for k, pk in count.items():
        if k == 0:
            continue
        hit = set(order[:k])
        for total, q in rolled.items():
            each = total if spec.flamethrower else math.ceil(total / 2)
            damage[total] = damage.get(total, 0) + pk * q
            each_dist[each] = each_dist.get(each, 0) + pk * q
            after: list[int] = []
            for ped in peds:
                if ped.id in hit:
                    w = work[ped.id]
                    _set_values(w.work, w.start)
                    damage_pedestrian(w.work, each, Ledger(ped.id, dealt=each))
                    after += _values(w.work)
                else:
                    after += _values(ped)
            joint[tuple(after)] = joint.get(tuple(after), 0) + pk * q
    dp = _marginals(keys, {o: p for o, p in joint.items() if p})
    destroyed = {k: sum((p for v, p in d.items() if (v >= 3 if _is_person(k) else v == 0)), Fraction(0)) for k, d in dp.items()}
    return AttackOdds(attack.id, ", ".join(victims), "pedestrian", 1 - none, dict(sorted(damage.items())),
                      dict(sorted(each_dist.items())), dp, destroyed)


def _hits_outcomes(rules, working: _Working, breakdown, hits: int, faces: bool, max_paths: int) -> _Dist:
    if isinstance(working.target, Pedestrian):
        def apply(t, dice):
            damage_pedestrian(t, hits, Ledger(t.id, dealt=hits))
    else:
        shot = shot_for(breakdown, hits)

        def apply(t, dice):
            apply_shot(rules, t, shot, dice)
    return working.outcomes(apply, faces, max_paths)



def state_dict(key: Any) -> Any:
    """A key of `exact_resolution` back as the snapshot it stands for (nested dicts and lists)."""
    if isinstance(key, tuple) and all(isinstance(i, tuple) and len(i) == 2 and isinstance(i[0], str) for i in key) and key:
        return {k: state_dict(v) for k, v in key}
    if isinstance(key, tuple):
        return [state_dict(v) for v in key]
    return key


def _freeze(x: Any) -> Any:
    """A hashable, order-independent stand-in for a snapshot (dicts, lists, scalars)."""
    if isinstance(x, dict):
        return tuple(sorted((str(k), _freeze(v)) for k, v in x.items()))
    if isinstance(x, (list, tuple)):
        return tuple(_freeze(v) for v in x)
    return x


MAX_RESOLUTION_PATHS = 20_000   # default bound of exact_resolution: whole resolutions replayed (each a few ms)


def exact_resolution(scenario: Any, *, max_paths: int = MAX_RESOLUTION_PATHS) -> dict[Any, Fraction]:
    """The exact distribution of a Car Wars scenario's final state (FAST-02): a single phase, or every phase of
    every turn of a multi-turn scenario, end-of-turn fire included, as `scenario.resolve` plays it.

    The reference resolution is replayed over every chance outcome (`hardpoint.chance.enumerate_outcomes`):
    to-hit rolls as hit or miss, each damage total, each pick and table row. Keys are the final
    `PhaseResult.state` / `BattleResult.state` snapshots made hashable (`_freeze`): sorted tuples of
    (name, value) pairs; `state_dict(key)` turns one back into the snapshot.

    The bound `max_paths` (default 20,000) counts whole resolutions replayed; 16 random descents first estimate
    the size of the tree (Knuth's estimator), so a scenario far too large is refused in well under a minute.

    Raises:
        ExactError: more than `max_paths` paths, or an estimate above it (the message names the bound and the
            scenario).
    """
    if getattr(scenario, "ruleset", "carwars") != "carwars":
        raise NotImplementedError(f"exact_resolution is for Car Wars scenarios, not {scenario.ruleset!r} (FAST-02)")

    def run(dice) -> Any:
        return _freeze(scenario.resolve(dice).state)

    return enumerate_outcomes(run, max_paths=max_paths, what=f"scenario {scenario.name!r}", probes=16)
