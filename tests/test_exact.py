"""FAST-02: exact probabilities of one Car Wars attack (hardpoint.exact).

The exact odds are checked three independent ways: against a brute-force
enumeration of every face sequence through the full phase (`resolve` with
ScriptedDice), against hand-worked distributions (a tire shot, re-roll loops),
and against a Monte Carlo run of the reference resolution with SeededDice.
"""
import json
import math
from fractions import Fraction

import pytest

import hardpoint
from hardpoint import DiceExhausted, ScenarioError, ScriptedDice, SeededDice
from hardpoint.carwars.damage import Shot, apply_shot
from hardpoint.carwars.enums import Side
from hardpoint.carwars.model import build_vehicle
from hardpoint.carwars.exact import AttackOdds, component_values, exact_attack, location_outcomes

RULES = hardpoint.default_rules()
F = Fraction


def scenario(**data):
    return hardpoint.parse_scenario({"scenario": {"name": "t", "ruleset": "carwars"}, **data})


def values_after(result, target):
    """The target's component values from a phase result's state, named as hardpoint.exact names them."""
    state = result.state
    if target in state["pedestrians"]:
        p = state["pedestrians"][target]
        return {f"pedestrian {target}": p["hits"], f"pedestrian {target} body armour": p["body_armour"]}
    v = state["vehicles"][target]
    out = {f"{s} armour": a for s, a in v["armour"].items()}
    if v["power_plant"] is not None:
        out["power plant"] = v["power_plant"]
    out.update({f"weapon {w}": dp for w, dp in v["weapons"].items()})
    out.update({f"tire {t}": dp for t, dp in v["tires"].items()})
    out.update({f"cargo {c}": dp for c, dp in v["cargo"].items()})
    for c, d in v["crew"].items():
        out[f"crew {c}"] = d["hits"]
        out[f"crew {c} body armour"] = d["body_armour"]
    sc = v.get("sidecar")
    if sc:
        out.update({f"sidecar {s} armour": a for s, a in sc["armour"].items()})
        out["sidecar tire"] = sc["tire"]
        out.update({f"sidecar weapon {w}": dp for w, dp in sc["weapons"].items()})
        for c, d in sc["crew"].items():
            out[f"sidecar crew {c}"] = d["hits"]
            out[f"sidecar crew {c} body armour"] = d["body_armour"]
        out.update({f"sidecar cargo {c}": dp for c, dp in sc["cargo"].items()})
    return out


def is_dead_or_gone(key, value):
    person = key.startswith(("crew ", "sidecar crew ", "pedestrian ")) and not key.endswith("body armour")
    return value >= 3 if person else value == 0


def brute_force(s, target):
    """Every face sequence the full phase can draw, through `resolve` and ScriptedDice: a sequence that
    runs out (DiceExhausted) is extended by each of the six faces; one that finishes is a path of
    probability (1/6)**len. Returns P(hit), the damage and the component-value distributions."""
    p_hit, damage, dp = F(0), {}, {}
    stack = [()]
    while stack:
        faces = stack.pop()
        try:
            r = s.resolve(ScriptedDice(faces))
        except DiceExhausted:
            stack += [faces + (f,) for f in range(1, 7)]
            continue
        p = F(1, 6 ** len(faces))
        roll = r.rolls[0]
        p_hit += p if roll.hit else 0
        d = roll.damage if roll.hit else 0
        damage[d] = damage.get(d, 0) + p
        for k, v in values_after(r, target).items():
            dp.setdefault(k, {})
            dp[k][v] = dp[k].get(v, 0) + p
    return p_hit, damage, {k: dict(sorted(d.items())) for k, d in dp.items()}


# --- 1. brute force ----------------------------------------------------------------------------

def test_fast_02_exact_equals_brute_force_over_every_face_sequence():
    """FAST-02: an MG (1d) at the left of a car whose left armour is gone: CW-DMG-03 picks one of three
    locations (1d), then one of two crew members (1d). Every face sequence of the whole phase (2d6 to hit,
    1d damage, the location faces) enumerated with ScriptedDice gives exactly the same Fractions."""
    target = {"id": "target", "design": "hunter", "x": 0.0, "y": 0.0, "facing": 0.0, "speed": 0,
              "armour": {"front": 20, "back": 15, "left": 0, "right": 15, "top": 10, "underbody": 10},
              "crew": [{"id": "driver", "role": "driver", "seat": "front_left", "body_armour": 3},
                       {"id": "gunner", "role": "gunner", "seat": "front_right"}]}
    s = scenario(vehicle=[{"id": "shooter", "design": "hunter", "x": -3.0, "y": 0.0, "facing": 90.0, "speed": 0}, target],
                 attack=[{"id": "a", "attacker": "shooter", "weapon": "mg", "target": "target"}])
    assert s.explain()[0].aimed_at == "left"
    odds = exact_attack(s, "a")
    p_hit, damage, dp = brute_force(s, "target")
    assert odds.p_hit == p_hit and 0 < p_hit < 1
    assert odds.damage == damage
    assert odds.component_dp == dp
    assert odds.destroyed == {k: sum((p for v, p in d.items() if is_dead_or_gone(k, v)), F(0)) for k, d in dp.items()}
    # the nested picks really happen: the gunner (no body armour) is hit in 1/3 * 1/2 of the hits
    assert odds.component_dp["crew gunner"][0] == 1 - p_hit / 6


def test_fast_02_totals_and_face_by_face_agree():
    """FAST-02: branching a roll by its totals (the default) gives the same Fractions as every face."""
    s = hardpoint.load_scenario("builtin:default")
    for attack in ("mg_at_stinger", "rocket_at_shogun", "rifle_at_rider"):
        assert exact_attack(s, attack) == exact_attack(s, attack, faces=True)
    s = _hunter_at_razor()
    assert exact_attack(s, "mg") == exact_attack(s, "mg", faces=True)


# --- 2. the books balance --------------------------------------------------------------------

def test_fast_02_probabilities_sum_to_one_and_p_hit_is_the_breakdowns():
    """FAST-02: every distribution sums to 1; P(hit) (2d6 through tohit.is_hit) is the breakdown's probability."""
    s = hardpoint.load_scenario("builtin:default")
    for b in s.explain():
        odds = exact_attack(s, b.attack)
        assert odds.p_hit == b.probability
        assert sum(odds.damage.values()) == 1 and sum(odds.hits.values()) == 1
        assert set(odds.component_dp) == set(component_values(s.arena.unit(b.target, "t")))
        for key, dist in odds.component_dp.items():
            assert sum(dist.values()) == 1, key
            assert all(isinstance(p, Fraction) and 0 < p <= 1 for p in dist.values()), key
            assert 0 <= odds.destroyed[key] <= 1


def test_fast_02_a_shot_needing_13_or_more_never_hits():
    """FAST-02 / CW-HIT-01: over 12 needed: P(hit) 0, all the mass on no damage, nothing changes."""
    s = scenario(arena={"weather": "fog", "light": "night"},
                 vehicle=[{"id": "hunter", "design": "hunter", "x": 0, "y": 0, "facing": 0, "speed": 60},
                          {"id": "razor", "design": "razor", "x": 0, "y": 12, "facing": 0, "speed": 80}],
                 attack=[{"id": "far", "attacker": "hunter", "weapon": "mg", "target": "razor", "aim": "tire:back"}])
    assert s.explain()[0].needed >= 13
    odds = exact_attack(s, "far")
    assert odds.p_hit == 0 and odds.damage == {0: 1} and odds.hits == {0: 1}
    before = component_values(s.arena.vehicles["razor"])
    assert odds.component_dp == {k: {v: 1} for k, v in before.items()}
    assert odds.destroyed == {k: F(is_dead_or_gone(k, v)) for k, v in before.items()}


def test_fast_02_hand_weapon_beyond_point_blank_does_nothing_to_a_vehicle():
    """FAST-02 / CW-HAND-01: the default rifleman's rifle (3 hits) at the outrider 5" away: the hits are rolled
    but none reach the components."""
    s = hardpoint.load_scenario("builtin:default")
    odds = exact_attack(s, "rifle_at_rider")
    assert odds.damage == {0: 1 - odds.p_hit, 3: odds.p_hit} and odds.hits == {0: 1}
    assert all(len(d) == 1 for d in odds.component_dp.values())


def test_fast_02_pedestrian_body_armour_first():
    """FAST-02 / CW-CREW-01: an MG (1d) at a pedestrian in 3 points of body armour: the armour takes up to 3,
    the person the rest; dead on a 6 only."""
    s = scenario(vehicle=[{"id": "hunter", "design": "hunter", "x": 0, "y": 0, "facing": 0, "speed": 0}],
                 pedestrian=[{"id": "bob", "x": 0, "y": 3, "body_armour": 3}],
                 attack=[{"id": "a", "attacker": "hunter", "weapon": "mg", "target": "bob"}])
    odds = exact_attack(s, "a")
    p = odds.p_hit
    assert odds.component_dp["pedestrian bob"] == {0: 1 - p + p / 2, 1: p / 6, 2: p / 6, 3: p / 6}
    assert odds.component_dp["pedestrian bob body armour"] == {0: 2 * p / 3, 1: p / 6, 2: p / 6, 3: 1 - p}
    assert odds.destroyed["pedestrian bob"] == p / 6


def test_fast_02_building_target_has_only_p_hit():
    """FAST-02: building damage is not modelled: P(hit) and the damage rolled, no components."""
    s = scenario(vehicle=[{"id": "hunter", "design": "hunter", "x": 0, "y": 0, "facing": 0, "speed": 0}],
                 building=[{"id": "wall", "x": 0, "y": 3, "width": 2, "length": 1}],
                 attack=[{"id": "w", "attacker": "hunter", "weapon": "mg", "target": "wall"}])
    odds = exact_attack(s, "w")
    assert odds.p_hit == s.explain()[0].probability == F(35, 36)
    assert odds.component_dp == {} and odds.destroyed == {} and sum(odds.damage.values()) == 1


# --- 3. Monte Carlo through the reference ----------------------------------------------------------

def _hunter_at_razor():
    return scenario(vehicle=[{"id": "hunter", "design": "hunter", "x": 0, "y": 0, "facing": 0, "speed": 20},
                             {"id": "razor", "design": "razor", "x": 0, "y": 3, "facing": 90, "speed": 20}],
                    attack=[{"id": "mg", "attacker": "hunter", "weapon": "mg", "target": "razor"}])


def _shogun_at_outrider_sidecar():
    return scenario(vehicle=[{"id": "shogun", "design": "shogun", "x": 4, "y": 0, "facing": 0, "speed": 20},
                             {"id": "outrider", "design": "outrider", "x": 0, "y": 0, "facing": 0, "speed": 20}],
                    attack=[{"id": "laser", "attacker": "shogun", "weapon": "laser", "target": "outrider", "firer": "gunner"}])


@pytest.mark.parametrize("build,attack,target,seed", [
    (_hunter_at_razor, "mg", "razor", 2024),
    (_shogun_at_outrider_sidecar, "laser", "outrider", 7),
])
def test_fast_02_monte_carlo_of_the_reference_agrees_with_the_exact_odds(build, attack, target, seed):
    """FAST-02: N trials of `resolve` with SeededDice: the frequency of every event (hit, each damage total,
    each value of each component, each component destroyed) is within 4 standard errors of the exact
    probability. The hunter's MG hits a razor's unarmoured side (CW-TGT-04 side table); the shogun's laser
    hits the outrider from its sidecar's side (CW-TGT-05: 1d for cycle or sidecar, then the sidecar's interior)."""
    s = build()
    odds = exact_attack(s, attack)
    n = 10_000
    hits, damage, values = 0, {}, {}
    for t in range(n):
        r = s.resolve(SeededDice(seed, trial=t))
        roll = r.rolls[0]
        hits += roll.hit
        d = roll.damage if roll.hit else 0
        damage[d] = damage.get(d, 0) + 1
        for k, v in values_after(r, target).items():
            values[(k, v)] = values.get((k, v), 0) + 1
    assert {k for k, _ in values} == set(odds.component_dp)

    events = [("hit", odds.p_hit, hits)]
    events += [(f"damage {d}", p, damage.get(d, 0)) for d, p in odds.damage.items()]
    for k, dist in odds.component_dp.items():
        events += [(f"{k} = {v}", p, values.get((k, v), 0)) for v, p in dist.items()]
        dead = sum(c for (kk, v), c in values.items() if kk == k and is_dead_or_gone(k, v))
        events.append((f"{k} destroyed", odds.destroyed[k], dead))
    assert sum(damage.values()) == n and all(d in odds.damage for d in damage)
    impossible = [(k, v) for k, v in values if not odds.component_dp[k].get(v)]
    assert not impossible, f"seen, but impossible by the exact odds: {impossible}"
    informative = 0
    for name, p, count in events:
        if p in (0, 1):
            assert count == n * p, name
            continue
        z = abs(count / n - float(p)) / math.sqrt(float(p * (1 - p)) / n)
        assert z < 4, f"{name}: exact {float(p):.5f}, Monte Carlo {count / n:.5f} (z = {z:.2f})"
        informative += p > F(1, 100)
    assert informative >= 10


# --- 4. golden: the to-hit example's tire shot ---------------------------------------------------

def test_fast_02_tire_shot_of_the_tohit_example():
    """FAST-02 / CW-DMG-04. Source: builtin:cw_tohit_example (Car Wars combat seed, Targeting Modifiers
    example): the MG needs 10 on 2d6, P(hit) = 6/36 = 1/6. On a hit 1d hits go to the 6-DP heavy-duty front
    tire, the left-over is lost: DP after = 6 - d, each d with 1/6 * 1/6 = 1/36; no hit (5/6): 6 DP left."""
    s = hardpoint.load_scenario("builtin:cw_tohit_example")
    odds = exact_attack(s, "mg_at_tire")
    assert odds.p_hit == F(1, 6) and odds.aimed_at == "tire front"
    assert odds.component_dp["tire front"] == {0: F(1, 36), 1: F(1, 36), 2: F(1, 36), 3: F(1, 36), 4: F(1, 36),
                                                5: F(1, 36), 6: F(5, 6)}
    assert odds.destroyed["tire front"] == F(1, 36)
    assert odds.damage == {0: F(5, 6), **{d: F(1, 36) for d in range(1, 7)}}
    others = {k: d for k, d in odds.component_dp.items() if k != "tire front"}
    assert all(len(d) == 1 for d in others.values())


# --- re-roll loops, summed exactly -------------------------------------------------------------

def _marginal_changed(vehicle, dist):
    before = component_values(vehicle)
    out = {}
    for outcome, p in dist.items():
        for (k, v0), v in zip(before.items(), outcome):
            if v != v0:
                out[k] = out.get(k, 0) + p
    return out


def test_fast_02_rerolled_pick_among_four_is_uniform():
    """FAST-02 / CW-DMG-03: one of three locations (1/3 each), then one of four crew members: 1d re-rolling
    5-6 (docs/rulings.md random picks), an unbounded loop summed exactly: 1/3 * 1/4 = 1/12 each."""
    v = build_vehicle(RULES, {"id": "v", "design": "hunter", "armour": {"left": 0},
                              "crew": [{"id": f"c{i}", "role": "driver" if i == 0 else "passenger", "seat": seat}
                                       for i, seat in enumerate(["front_left", "front_right", "back_left", "back_right"])]})
    dist = location_outcomes(v, lambda t, dice: apply_shot(RULES, t, Shot(1, Side.LEFT), dice))
    assert sum(dist.values()) == 1
    assert _marginal_changed(v, dist) == {"power plant": F(1, 3), "cargo spare_ammo": F(1, 3),
                                          **{f"crew c{i}": F(1, 12) for i in range(4)}}


def test_fast_02_rerolled_two_dice_pick_among_ten_is_uniform():
    """FAST-02: ten cargo items: two dice read as 6*(a-1)+(b-1), re-rolled from 30: 1/10 each, exactly."""
    v = build_vehicle(RULES, {"id": "v", "design": "hunter", "armour": {"front": 0}, "weapon": [],
                              "layout": ["cargo", "crew", "power_plant"], "cargo": [{"id": f"k{i}", "dp": 2} for i in range(10)]})
    dist = location_outcomes(v, lambda t, dice: apply_shot(RULES, t, Shot(1, Side.FRONT), dice))
    assert _marginal_changed(v, dist) == {f"cargo k{i}": F(1, 10) for i in range(10)}


def test_fast_02_cycle_side_table_rerolls_when_there_is_no_weapon():
    """FAST-02 / CW-TGT-04: a cycle with no weapon hit from the side: 2d6 8-10 is rolled again, so
    P(driver) = (10/36) / (24/36) = 5/12, P(power plant) = 11/24, each tire (3/36)/(24/36)/2 = 1/16."""
    c = build_vehicle(RULES, {"id": "c", "design": "razor", "weapon": []})
    dist = location_outcomes(c, lambda t, dice: apply_shot(RULES, t, Shot(1, Side.LEFT), dice))
    assert _marginal_changed(c, dist) == {"crew driver body armour": F(5, 12), "power plant": F(11, 24),
                                          "tire front": F(1, 16), "tire back": F(1, 16)}


# --- API -----------------------------------------------------------------------------------------

def test_fast_02_to_dict_is_json_with_fractions_as_strings():
    """FAST-02: to_dict() is JSON-friendly; Fractions become "n/d" strings that read back exactly."""
    s = hardpoint.load_scenario("builtin:cw_tohit_example")
    odds = exact_attack(s, "mg_at_tire")
    d = json.loads(json.dumps(odds.to_dict()))
    assert d["p_hit"] == "1/6" and d["component_dp"]["tire front"]["0"] == "1/36"
    assert F(d["destroyed"]["tire front"]) == F(1, 36)
    assert isinstance(odds, AttackOdds)


def test_fast_02_unsupported_attacks_raise():
    """FAST-02: linked (CW-LINK-01) attacks, multi-turn scenarios and unknown ids (area-effect attacks are exact:
    tests/carwars/test_exact_chance.py)."""
    linked = scenario(vehicle=[{"id": "v", "design": "hunter", "weapon": [{"id": "mg1", "type": "MG", "mount": "front"},
                                                                         {"id": "mg2", "type": "MG", "mount": "front"}],
                                "links": [{"id": "pair", "weapons": ["mg1", "mg2"]}]},
                               {"id": "t", "design": "hunter", "y": 4.0}],
                      attack=[{"id": "a", "attacker": "v", "weapon": "pair", "target": "t"}])
    with pytest.raises(NotImplementedError, match="linked"):
        exact_attack(linked, "a")
    chase = hardpoint.load_scenario("builtin:cw_chase")
    with pytest.raises(hardpoint.HardpointError, match="turn 2") as err:
        exact_attack(chase, "laser_t2")
    assert (err.value.field, err.value.value, err.value.rule) == ("attack", "laser_t2", "FAST-02")
    with pytest.raises(ScenarioError, match="mg_at_tire"):
        exact_attack(hardpoint.load_scenario("builtin:cw_tohit_example"), "nope")


def test_fast_02_an_attack_of_the_first_turn_of_several_is_exact():
    """FAST-02: in a scenario of turns, an attack of turn 1 is taken against the state at the start of the turn, as
    in a one-turn scenario: P(hit) is its explain breakdown's probability and the damage distribution sums to 1.
    Source: builtin:cw_chase, the laser of turn 1 needs 7 (21/36 with a natural 2 a miss)."""
    chase = hardpoint.load_scenario("builtin:cw_chase")
    b = next(b for b in chase.explain() if b.attack == "laser_t1")
    odds = exact_attack(chase, "laser_t1")
    assert b.needed == 7 and odds.p_hit == b.probability == Fraction(21, 36)
    assert sum(odds.damage.values()) == 1 and odds.damage[0] == 1 - odds.p_hit


def test_fast_02_default_scenario_attacks_take_little_work():
    """FAST-02: each attack of the default scenario is enumerated within a small bound of replays (work, not
    seconds: the timings are benchmarks/test_bench_exact.py's)."""
    s = hardpoint.load_scenario("builtin:default")
    for a in s.attacks:
        exact_attack(s, a.id, max_paths=5_000)


# --- the search itself, on made-up rules ---------------------------------------------------------

def _pp_destroyed(dist, vehicle):
    return _marginal_changed(vehicle, dist).get("power plant", F(0))


def test_fast_02_a_rule_that_reads_the_faces_is_branched_face_by_face():
    """FAST-02: rolls are branched by total only while no path looks at the faces: doubles on 2d are 1/6,
    which no choice of one face pair per total would give."""
    v = build_vehicle(RULES, {"id": "v", "design": "hunter"})

    def doubles(t, dice):
        r = dice.roll("2d", "doubles?")
        if r.faces[0] == r.faces[1]:
            t.power_plant = 0
    assert _pp_destroyed(location_outcomes(v, doubles), v) == F(1, 6)


def test_fast_02_a_bounded_retry_is_not_mistaken_for_a_reroll():
    """FAST-02: up to three tries for a 6 (a for loop whose counter is the only change) is 1 - (5/6)**3,
    not the 1 an endless re-roll would give."""
    v = build_vehicle(RULES, {"id": "v", "design": "hunter"})

    def three_tries(t, dice):
        for _ in range(3):
            if dice.roll("1d", "a six?").total == 6:
                t.power_plant = 0
                break
    assert _pp_destroyed(location_outcomes(v, three_tries), v) == 1 - F(5, 6) ** 3

    def counted(t, dice):
        tries = 0
        while tries < 3:
            tries += 1
            if dice.roll("1d", "a six?").total == 6:
                t.power_plant = 0
                return
    assert _pp_destroyed(location_outcomes(v, counted), v) == 1 - F(5, 6) ** 3


def test_fast_02_a_rule_that_rerolls_forever_is_an_error():
    """FAST-02: a re-roll that can never end is reported, not looped on."""
    from hardpoint.carwars.exact import ExactError
    v = build_vehicle(RULES, {"id": "v", "design": "hunter"})

    def forever(t, dice):
        while dice.roll("1d", "never done").total > 0:
            pass
    with pytest.raises(ExactError, match="never done"):
        location_outcomes(v, forever)


def test_fast_02_docs_example_runs():
    """FAST-02: docs/exact.md's example runs as a doctest."""
    import doctest
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "docs" / "exact.md"
    result = doctest.testfile(str(path), module_relative=False)
    assert result.attempted >= 3 and result.failed == 0
