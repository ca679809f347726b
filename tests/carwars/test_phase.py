"""The combat phase and its log: CW-ROF-01, CW-ROF-02, LOG-01, ERR-01."""
import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hardpoint
from hardpoint import RuleViolation, ScenarioError, ScriptedDice, SeededDice
from hardpoint.carwars.phase import PhaseResult, update_history
from hardpoint.events import event_from_dict

from .conftest import attack, build, car, mods

TWO_SHOTS = dict(vehicles=[car(design="shogun"), car("target", y=4.0)],
                 attacks=[attack("a1", weapon="laser", firer="gunner"), attack("a2", weapon="mg", firer="driver")])


def test_cw_rof_01_weapon_fires_once_a_turn():
    """CW-ROF-01: the same weapon twice in a turn is refused when the scenario loads (issue 11), before any roll."""
    with pytest.raises(RuleViolation, match=r"already fired this turn.*CW-ROF-01"):
        build(vehicles=[car(), car("target", y=4.0)], attacks=[attack("a1"), attack("a2")])
    with pytest.raises(RuleViolation, match="CW-ROF-01"):
        build(vehicles=[car(), car("target", y=4.0)], attacks=[attack("a1")], fired_this_turn={"weapons": [["car", "mg"]]})


def test_cw_rof_01_character_fires_once_a_turn():
    """CW-ROF-01: one character, two weapons: refused at load; two characters, two weapons: allowed."""
    with pytest.raises(RuleViolation, match="'gunner'.*once a turn.*CW-ROF-01"):
        build(vehicles=[car(design="shogun"), car("target", y=4.0)],
              attacks=[attack("a1", weapon="laser", firer="gunner"), attack("a2", weapon="mg", firer="gunner")])
    r = build(**TWO_SHOTS).resolve(ScriptedDice([1, 1, 1, 1]))
    assert len(r.rolls) == 2


def test_cw_rof_01_automatic_weapon_plus_one_aimed_weapon_never_two():
    """CW-ROF-01 / CW-AUTO-01 (issue 9, defect 5; SPEC ruling): with a weapon on automatic the driver may fire one
    additional weapon that turn: the automatic one fires by itself and he aims ONE other; a character never fires
    more than once a turn except by triggering a link.

    Hand-worked, one turn: the hunter (front MGs mg and mg2, a back MG on automatic; the driver fires) and a compact
    4" ahead and one 4" behind, all still. Phase 1: the driver fires mg ahead. Phase 5: the back MG on automatic fires
    at the car behind. Two shots in all. A plan where he also declares mg2 in phase 3 is refused at load (issue 11),
    as are mg and mg2 both from the driver in one phase.
    Source: CW seed, Combat (rate of fire) and Automatic Fire."""
    weapons = [{"id": "mg", "type": "MG", "mount": "front"}, {"id": "mg2", "type": "MG", "mount": "front"},
               {"id": "auto", "type": "MG", "mount": "back", "automatic": True}]
    vehicles = [car(weapon=weapons, speed=0), car("target", y=4.0, speed=0), car("behind", y=-4.0, speed=0)]
    turn = {"name": "t", "ruleset": "carwars", "turns": 1}
    s = build(vehicles=vehicles, attacks=[attack("a1", weapon="mg", firer="driver", turn=1, phase=1)], scenario=turn)
    r = s.resolve(SeededDice(7))
    assert [(b.weapon, b.target) for p in r.phases for b in p.breakdowns] == [("mg", "target"), ("auto", "behind")]
    with pytest.raises(RuleViolation, match="'driver'.*once a turn.*CW-ROF-01"):
        build(vehicles=vehicles, attacks=[attack("a1", weapon="mg", firer="driver", turn=1, phase=1),
                                          attack("a2", weapon="mg2", firer="driver", turn=1, phase=3)], scenario=turn)
    with pytest.raises(RuleViolation, match="'driver'.*once a turn.*CW-ROF-01"):
        build(vehicles=vehicles, attacks=[attack("a1", weapon="mg", firer="driver"), attack("a2", weapon="mg2", firer="driver")])


def test_cw_rof_02_attacks_resolve_against_the_same_state_and_change_nothing():
    """CW-ROF-02: all attacks of a phase use the positions and state at the start of combat; the arena is untouched."""
    s = build(**TWO_SHOTS)
    before = copy.deepcopy(s.arena)
    r = s.resolve(ScriptedDice([6, 6, 6, 6, 6, 6, 6, 6]))
    assert all(x.hit for x in r.rolls)
    assert s.arena == before
    assert [b.needed for b in r.breakdowns] == [b.needed for b in s.explain()]


def test_cw_rof_02_dice_order_is_declaration_order():
    """CW-ROF-02: attacks roll in declaration order: to-hit 2d6, then damage dice on a hit."""
    r = build(**TWO_SHOTS).resolve(ScriptedDice([6, 5, 1, 2, 3, 2, 2, 4]))
    laser, mg = r.rolls
    assert laser.roll.faces == (6, 5) and laser.hit and laser.damage_roll.faces == (1, 2, 3) and laser.damage == 6
    assert mg.roll.faces == (2, 2) and not mg.hit and mg.damage is None


def test_log_01_event_log_is_complete_and_round_trips_json():
    """LOG-01: the result lists each die (why, faces, total), each modifier with its rule, and round-trips through JSON."""
    r = build(**TWO_SHOTS).resolve(SeededDice(11), seed=11)
    kinds = [e.kind for e in r.events]
    assert kinds.count("dice") >= 2 and kinds.count("to_hit_breakdown") == 2 and kinds.count("attack_roll") == 2
    dice = [e for e in r.events if e.kind == "dice"]
    assert all(d.why and d.faces and d.rule for d in dice)
    assert all(m.rule for b in r.breakdowns for m in b.modifiers)
    text = json.dumps(r.to_dict())
    back = PhaseResult.from_dict(json.loads(text))
    assert back == r
    assert event_from_dict(json.loads(json.dumps(r.events[1].to_dict()))) == r.events[1]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**64 - 1))
def test_log_01_same_seed_same_result(seed):
    """LOG-01 / DICE-03: the same seed gives the same result, event for event."""
    s = build(**TWO_SHOTS)
    assert s.resolve(SeededDice(seed)) == s.resolve(SeededDice(seed))


def test_cw_hit_09_history_update_counts_consecutive_turns():
    """CW-HIT-09: after a phase, each weapon's streak is recorded for next turn's sustained fire."""
    s = build(**TWO_SHOTS, arena={"turn": 2}, history=[{"attacker": "car", "weapon": "laser", "target": "target", "streak": 1, "last_turn": 1}])
    new, events = update_history(s.history, s.explain(), 2)
    assert new[("car", "laser")].streak == 2 and new[("car", "mg")].streak == 1
    assert all(e.rule == "CW-HIT-09" for e in events)


def test_err_01_bad_declaration_names_field_and_rule_and_rolls_nothing():
    """ERR-01: an illegal attack in a phase raises before any die is rolled; nothing changes."""
    s = build(**TWO_SHOTS)
    s.attacks.append(hardpoint.carwars.Attack("bad", "car", "mg", "target", "underbody", "driver"))
    dice = ScriptedDice([6] * 10)
    before = copy.deepcopy(s.arena)
    with pytest.raises(RuleViolation) as err:
        s.resolve(dice)
    assert dice.used == 0 and s.arena == before
    assert err.value.rule in ("CW-ROF-01", "CW-TGT-02")


@pytest.mark.parametrize("change,field,rule", [
    (lambda d: d["attack"][0].update(weapon="ray"), "attack[0].weapon", "CW-VEH-03"),
    (lambda d: d["attack"][0].update(target="ghost"), "attack[0].target", "CLI-02"),
    (lambda d: d["vehicle"][0].update(design="batmobile"), "vehicle[0].design", "CW-VEH-05"),
    (lambda d: d["attack"][0].update(aim="wheel"), "attack[0].aim", "CW-TGT-01"),
    (lambda d: d["vehicle"][1].update(speed="fast"), "vehicle[1].speed", "CLI-02"),
    (lambda d: d["vehicle"].append(dict(d["vehicle"][1])), "vehicle[2].id", "CLI-02"),
])
def test_err_01_bad_scenarios_name_field_and_rule(change, field, rule):
    """ERR-01 / CLI-02: each malformed scenario raises ScenarioError naming the field path and the rule."""
    data = {"scenario": {"name": "t", "ruleset": "carwars"}, "vehicle": [car(design="shogun"), car("target", y=4.0)],
            "attack": [attack(weapon="laser")]}
    change(data)
    with pytest.raises(ScenarioError) as err:
        hardpoint.parse_scenario(data)
    assert err.value.field == field and err.value.rule == rule
    assert field in str(err.value) and rule in str(err.value)


def test_cw_rof_02_combat_starts_after_the_movements_collisions():
    """CW-ROF-02: combat uses the damage state at its start, after the collisions of the phase's movement: a collision
    that wounds the firer costs him 2 (CW-HIT-08); one that destroys his weapon cancels the attack, naming the rule."""
    naked = {s: 0 for s in ("front", "back", "left", "right", "top", "underbody")}
    data = {"scenario": {"name": "t", "ruleset": "carwars"},
            "vehicle": [{"id": "bike", "design": "razor", "facing": 45.0, "armour": naked},
                        {"id": "t", "design": "razor", "x": 2.0}],
            "attack": [{"id": "a", "attacker": "bike", "weapon": "mg", "target": "t", "firer": "driver"}],
            "collision": [{"id": "c", "vehicle": "bike", "side": "front", "speed": 40}]}
    s = hardpoint.parse_scenario(data)
    calm = s.explain()[0].needed
    # 3d = 10: the MG takes 3 (destroyed) -> cancelled
    r = s.resolve(hardpoint.RiggedDice(SeededDice(1), {"collision damage": [1, 3, 6]}))
    assert r.rolls == () and any(e.kind == "note" and e.text.startswith("a cancelled") and e.rule == "CW-VEH-03" for e in r.events)
    # a side collision: 3d = 8 split between the two locations, 4 each: the power plant (3 DP) passes 1 through,
    # the driver's body armour takes 3 and he takes 1: wounded
    data["collision"][0]["side"] = "left"
    s = hardpoint.parse_scenario(data)
    r = s.resolve(hardpoint.RiggedDice(SeededDice(1), {"collision damage": [2, 3, 3]}))
    assert r.breakdowns[0].needed == calm + 2
    assert any(m.rule == "CW-HIT-08" and m.value == -2 for m in r.breakdowns[0].modifiers)


def test_cw_lof_01_no_line_of_fire_no_shot_no_ammunition_no_sustained_fire():
    """CW-LOF-01 / CW-HIT-09 (issue 9, defect 6; SPEC ruling): the attack procedure starts by making sure there is a
    line of fire. Without one there is no shot: no die, no ammunition, no sustained-fire streak. A declared attack
    without one is an error before any die; a planned one whose line is blocked when its phase comes is cancelled.

    Hand-worked: the hunter at the origin and a compact 4" north, both still; a car 2" north crosses east at 50 mph
    (1" a phase) from x = -1. Turn 1, phase 1: it stands at x = 0, squarely across every line from the MG's muzzle
    (0, 0.5) to the target: the planned shot a1 is cancelled, rolled for nothing. Turn 2, phase 1: it is at x = 5,
    the line is clear: a2, the same MG at the same target, is the streak's first shot (no sustained-fire +1) and
    the first to spend ammunition (20 -> 19). Source: CW seed, General Combat Procedure step (a); Targeting Modifiers
    (sustained fire)."""
    vehicles = [car(speed=0), car("target", y=4.0, speed=0), car("crosser", x=-1.0, y=2.0, facing=90.0, speed=50)]
    plan = [attack("a1", firer="driver", turn=1, phase=1), attack("a2", firer="driver", turn=2, phase=1)]
    s = build(vehicles=vehicles, attacks=plan, scenario={"name": "t", "ruleset": "carwars", "turns": 2})
    r = s.resolve(SeededDice(3))
    assert any(e.kind == "note" and e.text.startswith("a1 cancelled") and e.rule == "CW-LOF-01" for e in r.events)
    assert not any(e.kind == "dice" and e.why.startswith("a1") for e in r.events)
    shots = [b for p in r.phases for b in p.breakdowns]
    assert [(b.attack, b.consecutive) for b in shots] == [("a2", 1)] and "CW-HIT-09" not in mods(shots[0])
    ammo = [(e.before, e.after) for e in r.events if e.kind == "state" and e.field == "ammo"]
    assert ammo == [(20, 19)]
    blocked = dict(vehicles=[car(speed=0), car("target", y=4.0, speed=0), car("crosser", y=2.0, facing=90.0, speed=0)])
    with pytest.raises(RuleViolation) as err:
        build(**blocked, attacks=[attack("a1", firer="driver")])
    assert (err.value.rule, err.value.field, err.value.value) == ("CW-LOF-01", "attack[0].target", "target")
    from hardpoint.carwars.attack import Attack
    from hardpoint.carwars.phase import resolve_phase

    s = build(**blocked)
    with pytest.raises(RuleViolation, match="CW-LOF-01"):
        resolve_phase(s.arena, [Attack("a1", "car", "mg", "target", firer="driver")], s.rules, ScriptedDice([]))
    assert s.arena.vehicles["car"].weapon("mg").ammo == 20
