"""Car Wars damage: CW-DMG-01..08, CW-TGT-04..06, CW-COL-01..04, CW-CREW-01..04.

Hand-worked cases carry their arithmetic in the docstring; worked examples of
the seed are golden tests with a Source line.
"""
import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hardpoint
from hardpoint import RuleViolation, ScriptedDice, SeededDice
from hardpoint.carwars.collision import collision_damage, collision_split, jump_out_dice, offroad_roll, ram_dice, weight_factor
from hardpoint.carwars.crew import crash_table_band, driver_consequences, substitute_driver
from hardpoint.carwars.damage import Ledger, Shot, apply_shot, damage_turret, hazard_difficulty, random_pick
from hardpoint.carwars.enums import CrewState, Side
from hardpoint.carwars.model import build_vehicle

from .conftest import both_backends

RULES = hardpoint.default_rules()


def vehicle(design="hunter", **kw):
    return build_vehicle(RULES, {"id": "v", "design": design, **kw})


def damage_of(ledger):
    return {(e.component): (e.before, e.after) for e in ledger.events if e.kind == "damage"}


def test_cw_dmg_01_armour_loses_a_point_per_hit_and_components_absorb_their_dp():
    """CW-DMG-01: 7 hits on 12 front armour leave 5; a 3-DP machine gun takes 2 and still works, the 3rd destroys it."""
    v = vehicle(armour={"front": 12, "back": 5, "left": 5, "right": 5, "top": 5, "underbody": 5})
    ledger = apply_shot(RULES, v, Shot(7, Side.FRONT), ScriptedDice([]))
    assert v.armour[Side.FRONT] == 5 and ledger.absorbed == 7
    v.armour[Side.FRONT] = 0
    apply_shot(RULES, v, Shot(2, Side.FRONT), ScriptedDice([]))
    assert v.weapon("mg").dp == 1 and not v.weapon("mg").destroyed
    apply_shot(RULES, v, Shot(1, Side.FRONT), ScriptedDice([]))
    assert v.weapon("mg").destroyed


@pytest.mark.parametrize("hits,d", [(0, 0), (1, 1), (5, 1), (6, 2), (9, 2), (10, 3), (40, 3)])
def test_cw_dmg_01_hits_in_a_phase_are_a_hazard(hits, d):
    """CW-DMG-01: 1-5 hits D1, 6-9 D2, 10+ D3 (data table)."""
    assert hazard_difficulty(RULES, hits) == d


def test_cw_dmg_02_front_penetration_order():
    """CW-DMG-02: 30 hits from the front of a hunter (front armour 20, one front MG of 3 DP, layout power plant
    (8 DP), crew, cargo): the armour takes 20 (10 left), the MG 3 (7 left), the power plant 7 of its 8, leaving it
    1 DP. No dice are needed: one front weapon, one item in the power-plant location."""
    v = vehicle()
    ledger = apply_shot(RULES, v, Shot(30, Side.FRONT), ScriptedDice([]))
    assert v.armour[Side.FRONT] == 0 and v.weapon("mg").dp == 0 and v.power_plant == 1
    assert ledger.absorbed == 30 and ledger.lost == 0


def test_cw_dmg_02_one_item_per_location_and_rear_weapon_then_back_armour():
    """CW-DMG-02: front armour gone; 12 hits: mg 3 (9 left), pp 8 (1 left), crew: the one driver, body armour
    takes 1 (0 left); nothing reaches the cargo, the minedropper or the back armour."""
    v = vehicle()
    v.armour[Side.FRONT] = 0
    apply_shot(RULES, v, Shot(12, Side.FRONT), ScriptedDice([]))
    assert v.power_plant == 0 and v.driver.body_armour == 2 and v.armour[Side.BACK] == 15
    # From the back: back armour 15, then the minedropper (2 DP), then cargo, crew, power plant in reverse order.
    v2 = vehicle()
    apply_shot(RULES, v2, Shot(18, Side.BACK), ScriptedDice([]))
    assert v2.armour[Side.BACK] == 0 and v2.weapon("md").dp == 0 and v2.cargo[0].dp == 0
    assert v2.driver.body_armour == 3 and v2.power_plant == 8


def test_cw_dmg_02_leftover_goes_inward_not_sideways_to_a_second_weapon():
    """CW-DMG-02: two front MGs, 5 hits past the armour: one MG (picked by 1d: 4-6 -> the second) takes 3, the
    other 2 go inward to the power plant, never to the first MG."""
    v = vehicle(weapon=[{"id": "mg1", "type": "MG", "mount": "front"}, {"id": "mg2", "type": "MG", "mount": "front"}])
    v.armour[Side.FRONT] = 0
    dice = ScriptedDice([5])
    apply_shot(RULES, v, Shot(5, Side.FRONT), dice)
    assert (v.weapon("mg1").dp, v.weapon("mg2").dp, v.power_plant) == (3, 0, 6)
    assert dice.remaining == 0


def test_cw_dmg_03_shot_from_the_right_kills_the_gunner():
    """CW-DMG-03 / CW-CREW-01: hand-worked. A shogun with no right armour left, hit from the right for 5:
    right armour 0 passes 5; no right weapons; one location of three (power plant, crew, cargo) by 1d:
    3 -> faces 3-4 = crew; which of driver and gunner by 1d: 5 -> faces 4-6 = gunner. The gunner's body armour
    takes 3 (3 -> 0), he takes 2: unconscious... so with 8 hits: body armour 3, gunner 3 (dead), 2 left go on to the
    left weapons (none) and the left armour: 25 -> 23. Books: 8 = 3 + 3 + 2."""
    v = vehicle("shogun")
    v.armour[Side.RIGHT] = 0
    ledger = apply_shot(RULES, v, Shot(8, Side.RIGHT), ScriptedDice([3, 5]))
    gunner = v.crew_member("gunner")
    assert gunner.body_armour == 0 and gunner.state is CrewState.DEAD
    assert v.driver.hits == 0 and v.armour[Side.LEFT] == 23
    assert ledger.absorbed == 8 and ledger.lost == 0


def test_cw_dmg_02_03_a_shot_from_behind_reaches_a_front_weapon_through_the_car_one_from_the_side_never():
    """CW-DMG-02 / CW-DMG-03: no attack from the right can reach a front weapon, but one from behind can, through
    the whole car; of two front weapons it strikes one (1d), and its leftover goes on inward, not to the other.

    Hand-worked: a hunter with two front MGs (3 DP each) and its back minedropper (2 DP), layout power plant (8),
    crew (the driver, body armour 3 and 3 DP), cargo (one item of 1 DP), back armour shot away. 21 hits from
    behind: the minedropper 2 (19 left), the cargo item 1 (18), the driver's body armour 3 and the driver 3, dead
    (12), the power plant 8 (4), then one front MG by 1d: 5 -> the second, 3 (1), and the last hit on the front
    armour, 20 -> 19; the first MG is untouched. 21 = 2 + 1 + 6 + 8 + 3 + 1.
    The same hunter, right armour shot away, takes 40 from the right: no right weapons, one location by 1d: 1 -> the
    power plant, 8; no left weapons; the left armour 15; 17 pass out of the far side. Neither MG is touched.
    Source: CW seed, Damage Location (a front weapon cannot be hit from the right, but from behind through the car)."""
    weapons = [{"id": "mg1", "type": "MG", "mount": "front"}, {"id": "mg2", "type": "MG", "mount": "front"},
               {"id": "md", "type": "Minedropper", "mount": "back"}]
    v = vehicle(weapon=weapons)
    v.armour[Side.BACK] = 0
    dice = ScriptedDice([5])
    ledger = apply_shot(RULES, v, Shot(21, Side.BACK), dice)
    assert [(e.component, e.hits, e.before, e.after) for e in ledger.events if e.kind == "damage"] == [
        ("weapon md", 2, 2, 0), ("cargo spare_ammo", 1, 1, 0), ("driver body armour", 3, 3, 0), ("driver", 3, 3, 0),
        ("power plant", 8, 8, 0), ("weapon mg2", 3, 3, 0), ("front armour", 1, 20, 19)]
    assert v.weapon("mg1").dp == 3 and v.driver.state is CrewState.DEAD
    assert dice.remaining == 0 and (ledger.absorbed, ledger.lost) == (21, 0)
    w = vehicle(weapon=weapons)
    w.armour[Side.RIGHT] = 0
    ledger = apply_shot(RULES, w, Shot(40, Side.RIGHT), ScriptedDice([1]))
    assert [(e.component, e.hits, e.before, e.after) for e in ledger.events if e.kind == "damage"] == [
        ("power plant", 8, 8, 0), ("left armour", 15, 15, 0)]
    assert (w.weapon("mg1").dp, w.weapon("mg2").dp) == (3, 3) and (ledger.absorbed, ledger.lost) == (23, 17)


def test_cw_dmg_03_reroll_for_a_missing_location():
    """CW-DMG-03: a location that does not exist is re-rolled: a cycle-like layout with two locations picks with
    1d (1-3 first, 4-6 second); a layout of three with faces 1-2 / 3-4 / 5-6 never wastes a face."""
    # a crewless car has two locations (power plant, cargo): 1d 4 picks the second, the cargo; with three (crew
    # too) the same 4 would pick the crew. The missing location is never hit.
    car = vehicle(crew=[], layout=["power_plant", "cargo"], cargo=[{"id": "box", "dp": 9}])
    car.armour[Side.RIGHT] = 0
    apply_shot(RULES, car, Shot(5, Side.RIGHT), ScriptedDice([4]))
    assert car.cargo[0].dp == 4 and car.power_plant == 8
    ledger = Ledger("v")
    assert random_pick(ScriptedDice([4]), 2, "x", ledger, "CW-DMG-03") == 1
    assert random_pick(ScriptedDice([5, 6, 2]), 4, "x", ledger, "CW-DMG-03") == 1  # 5 and 6 re-rolled
    assert random_pick(ScriptedDice([6, 6, 1, 2]), 7, "x", ledger, "CW-DMG-03") == 0  # 35 re-rolled, then 0+1 = 1 -> 0


def test_cw_dmg_04_underbody_mine_on_a_car_with_a_turret():
    """CW-DMG-04: hand-worked. A mine blast of 12 under a shogun with 4 underbody armour left:
    armour 4 (8 left); one of power plant, driver, gunner, cargo location by 1d (four: 5-6 re-rolled): 6 re-rolled,
    then 2 -> the driver: body armour 3, then 3 DP: dead (2 left); one turret weapon (only the laser, 2 DP): 2 -> 0;
    nothing reaches the top armour (15). Books: 12 = 4 + 6 + 2."""
    v = vehicle("shogun")
    v.armour[Side.UNDERBODY] = 4
    ledger = apply_shot(RULES, v, Shot(12, Side.UNDERBODY), ScriptedDice([6, 2]))
    assert v.armour[Side.UNDERBODY] == 0 and v.driver.state is CrewState.DEAD
    assert v.weapon("laser").destroyed and v.armour[Side.TOP] == 15 and v.power_plant == 10
    assert ledger.absorbed == 12


def test_cw_dmg_04_turret_and_tire_shots_lose_their_leftover():
    """CW-DMG-04: a turret shot: top armour, then a turret weapon, the rest passes over; a tire shot: the rest is lost."""
    v = vehicle("shogun")
    v.armour[Side.TOP] = 1
    ledger = apply_shot(RULES, v, Shot(6, None, "turret"), ScriptedDice([]))
    assert v.armour[Side.TOP] == 0 and v.weapon("laser").dp == 0 and ledger.lost == 3 and v.power_plant == 10
    ledger = apply_shot(RULES, v, Shot(12, None, "tire", "front_left"), ScriptedDice([]))
    assert v.tire("front_left").dp == 0 and ledger.lost == 3 and v.tire("front_right").dp == 9


def test_cw_dmg_04_a_turret_shot_leaves_nothing_for_the_caller():
    """CW-DMG-04: hand-worked. A turret shot of 6 on a shogun with 1 top armour left: the top armour takes 1, the
    turret laser (2 DP) 2, the other 3 pass over the vehicle: the ledger books them lost and `damage_turret` hands
    back 0 hits, none left to go anywhere else. Books: 6 = 1 + 2 + 3 lost."""
    v = vehicle("shogun")
    v.armour[Side.TOP] = 1
    ledger = Ledger("v", dealt=6)
    assert damage_turret(v, 6, ScriptedDice([]), ledger) == 0
    assert [(e.component, e.hits) for e in ledger.events if e.kind == "damage"] == [("top armour", 1), ("weapon laser", 2)]
    assert (ledger.absorbed, ledger.lost) == (3, 3)


def test_cw_dmg_04_a_single_hit_through_the_underbody_or_top_reaches_the_interior():
    """CW-DMG-04: hand-worked. 11 hits under a hunter (underbody armour 10, no turret): the armour takes 10 (10 -> 0),
    the one hit left goes to one of the power plant, the driver, the cargo location (three: 1d 1-2 / 3-4 / 5-6): 1 ->
    the power plant, 8 -> 7; nothing reaches the top armour (10). From the top of another hunter whose top armour is
    gone, a single hit: 1d 3 -> the driver, whose body armour takes it (3 -> 2); the underbody armour keeps its 10.
    Each time 1 hit is enough to reach the interior. Books: 11 = 10 + 1, then 1 = 1.
    Source: CW seed, Damage Location (Underbody; Top); SPEC CW-DMG-04 (RULING: one pick among power plant, crew, cargo)."""
    v = vehicle()
    dice = ScriptedDice([1])
    ledger = apply_shot(RULES, v, Shot(11, Side.UNDERBODY), dice)
    assert [(e.why, e.total, e.rule) for e in ledger.events if e.kind == "dice"] == [
        ("power plant, crew member or cargo", 1, "CW-DMG-04")]
    assert [(e.component, e.hits, e.before, e.after, e.rule) for e in ledger.events if e.kind == "damage"] == [
        ("underbody armour", 10, 10, 0, "CW-DMG-01"), ("power plant", 1, 8, 7, "CW-DMG-04")]
    assert (v.armour[Side.TOP], dice.remaining) == (10, 0)
    assert (ledger.dealt, ledger.absorbed, ledger.lost) == (11, 11, 0)
    top = vehicle()
    top.armour[Side.TOP] = 0
    ledger = apply_shot(RULES, top, Shot(1, Side.TOP, "top"), ScriptedDice([3]))
    assert [(e.component, e.hits, e.before, e.after) for e in ledger.events if e.kind == "damage"] == [
        ("driver body armour", 1, 3, 2)]
    assert (top.driver.body_armour, top.power_plant, top.armour[Side.UNDERBODY]) == (2, 8, 10)
    assert (ledger.dealt, ledger.absorbed, ledger.lost) == (1, 1, 0)


def test_cw_dmg_05_destroyed_items_stay_in_the_pick_and_pass_hits_on():
    """CW-DMG-05: a destroyed gunner is still picked (1d 5) and passes all 4 hits on to the far side."""
    v = vehicle("shogun")
    v.armour[Side.RIGHT] = 0
    g = v.crew_member("gunner")
    g.body_armour, g.hits = 0, 3
    apply_shot(RULES, v, Shot(4, Side.RIGHT), ScriptedDice([3, 5]))
    assert g.hits == 3 and v.armour[Side.LEFT] == 21


def test_cw_dmg_05_empty_cargo_passes_everything():
    """CW-DMG-05: an empty cargo location picked from the side passes the hits through to the far armour."""
    v = vehicle("shogun")  # no cargo items
    v.armour[Side.RIGHT] = 0
    apply_shot(RULES, v, Shot(4, Side.RIGHT), ScriptedDice([6]))  # 5-6: the third location, cargo
    assert v.armour[Side.LEFT] == 21 and v.power_plant == 10


def test_cw_tgt_04_cycle_hit_from_the_side_with_a_sidecar_on_the_far_side():
    """CW-TGT-04 / CW-TGT-05: hand-worked. The outrider (sidecar on the right, 3 spaces) hit from the left for 8:
    side table 2d6 [3, 4] = 7 -> the power plant (3 DP) takes 3; 5 left; the sidecar is on the far side: 1d 2 <= 3
    spaces: it is hit on its left armour (4 -> 0, 1 left); an equal chance of each interior component (LMG, passenger)
    by 1d 5 -> the passenger, wounded. Books: 8 = 3 + 4 + 1."""
    v = vehicle("outrider")
    ledger = apply_shot(RULES, v, Shot(8, Side.LEFT), ScriptedDice([3, 4, 2, 5]))
    assert v.power_plant == 0 and v.sidecar.armour[Side.LEFT] == 0
    assert v.sidecar.crew[0].state is CrewState.WOUNDED and ledger.absorbed == 8 and ledger.lost == 0


def test_cw_tgt_04_a_single_hit_left_over_still_may_reach_the_far_sidecar():
    """CW-TGT-04: hand-worked. The outrider (sidecar on the right, 3 spaces) hit from the left for 4: side table 2d6
    [3, 4] = 7 -> the power plant (3 DP) takes 3; the 1 hit left is still "the rest", so the far-side sidecar roll is
    made: 1d 2 <= 3 spaces, it hits the sidecar's left armour (4 -> 3). Books: 4 = 3 + 1, nothing lost.
    Source: SPEC CW-TGT-04 (what is left after the cycle's component may hit a sidecar on the far side)."""
    v = vehicle("outrider")
    dice = ScriptedDice([3, 4, 2])
    ledger = apply_shot(RULES, v, Shot(4, Side.LEFT), dice)
    assert [(e.component, e.hits, e.before, e.after) for e in ledger.events if e.kind == "damage"] == [
        ("power plant", 3, 3, 0), ("sidecar left armour", 1, 4, 3)]
    assert [(e.why, e.total) for e in ledger.events if e.kind == "dice"] == [
        ("cycle hit location, side table", 7), ("does the rest hit the far sidecar", 2)]
    assert (dice.remaining, ledger.absorbed, ledger.lost) == (0, 4, 0)


def test_cw_tgt_04_cycle_rest_passes_harmlessly_without_a_far_sidecar():
    """CW-TGT-04: one component only: side table 2-5 -> the driver (3 body armour + 3); 10 hits: 6 absorbed, 4 pass."""
    v = vehicle("razor")
    ledger = apply_shot(RULES, v, Shot(10, Side.RIGHT), ScriptedDice([1, 2]))
    assert v.driver.state is CrewState.DEAD and ledger.lost == 4


def test_cw_tgt_04_cycle_from_the_front_armour_then_side_table_or_wheel():
    """CW-TGT-04: from the front, 2d6 2-10 the front armour (gone: the rest to the side table), 11-12 the front wheel."""
    v = vehicle("razor")
    ledger = apply_shot(RULES, v, Shot(13, Side.FRONT), ScriptedDice([4, 4, 5, 6, 1]))  # 8: armour 10; side 11: a tire (1d 1)
    assert v.armour[Side.FRONT] == 0 and v.tires[0].dp == 3 and ledger.absorbed == 13
    v = vehicle("razor")
    apply_shot(RULES, v, Shot(5, Side.FRONT), ScriptedDice([6, 5]))
    assert v.tire("front").dp == 1 and v.armour[Side.FRONT] == 10
    # 8-10 with no weapon: roll again
    v = vehicle("razor", weapon=[])
    apply_shot(RULES, v, Shot(2, Side.LEFT), ScriptedDice([4, 5, 3, 3]))
    assert v.power_plant == 1


def test_cw_tgt_05_firing_at_a_cycle_from_the_sidecar_side():
    """CW-TGT-05: from the sidecar's side, 1d: 1-4 the cycle, 5-6 the sidecar (its right armour 6 takes 4)."""
    v = vehicle("outrider")
    apply_shot(RULES, v, Shot(4, Side.RIGHT), ScriptedDice([6]))
    assert v.sidecar.armour[Side.RIGHT] == 2 and v.power_plant == 3
    v = vehicle("outrider")
    apply_shot(RULES, v, Shot(4, Side.RIGHT), ScriptedDice([2, 3, 3]))  # cycle: side table 6 -> power plant
    assert v.power_plant == 0 and v.sidecar.armour[Side.RIGHT] == 6


def test_cw_tgt_06_front_hit_on_a_light_trike_that_rolls_11():
    """CW-TGT-06: hand-worked. The stinger (front wheel heavy-duty, 6 DP) hit in front for 10; 2d6 [5, 6] = 11:
    the front wheel takes 6 (destroyed), the other 4 are lost; the front armour (15) is untouched."""
    v = vehicle("stinger")
    ledger = apply_shot(RULES, v, Shot(10, Side.FRONT), ScriptedDice([5, 6]))
    assert v.tire("front").dp == 0 and v.armour[Side.FRONT] == 15 and ledger.lost == 4 and ledger.absorbed == 6
    v = vehicle("stinger")
    apply_shot(RULES, v, Shot(10, Side.FRONT), ScriptedDice([5, 5]))
    assert v.armour[Side.FRONT] == 5 and v.tire("front").dp == 6


def test_cw_tgt_06_reversed_trike_swaps_the_wheel_end_and_turret_top():
    """CW-TGT-06: a reversed trike's single wheel is at the back; a top hit on a trike with a turret strikes the turret."""
    v = vehicle("stinger", reversed=True)
    apply_shot(RULES, v, Shot(3, Side.BACK), ScriptedDice([6, 6]))
    assert v.tire("back").dp == 3
    t = vehicle("stinger", turret=True, weapon=[{"id": "tl", "type": "Laser", "mount": "turret"}])
    t.armour[Side.TOP] = 1
    apply_shot(RULES, t, Shot(5, Side.TOP, "top"), ScriptedDice([]))
    assert t.weapon("tl").destroyed and t.driver.hits == 0 and t.armour[Side.UNDERBODY] == 6


def test_cw_dmg_07_area_effect_seed_example():
    """CW-DMG-07: four pedestrians in a line 1" long; two hits, two misses; the defender gives up the two on the right;
    13 on 3 dice: 7 each (half, rounded up): both torched. Source: Car Wars combat seed, Area Effect example."""
    s = hardpoint.load_scenario("builtin:cw_area_effect_example")
    dice = ScriptedDice([6, 6, 1, 1, 5, 5, 1, 2, 6, 6, 1])
    r = s.resolve(dice)
    area = next(e for e in r.events if e.kind == "area_attack_roll")
    assert area.hits == 2 and area.victims_hit == ("p4", "p3") and area.damage_roll.total == 13 and area.damage_each == 7
    assert r.state["pedestrians"]["p4"]["state"] == "dead" and r.state["pedestrians"]["p3"]["state"] == "dead"
    assert r.state["pedestrians"]["p1"]["state"] == "ok"
    assert dice.remaining == 0


def test_cw_dmg_07_area_effect_needs_an_area_weapon_and_close_victims():
    """CW-DMG-07: a weapon without area effect, or victims more than 1" apart, are refused."""
    data = {"scenario": {"name": "t", "ruleset": "carwars"}, "vehicle": [{"id": "c", "design": "hunter"}],
            "pedestrian": [{"id": "a", "x": 0, "y": 4}, {"id": "b", "x": 0.5, "y": 4}],
            "attack": [{"id": "s", "attacker": "c", "weapon": "mg", "target": "a", "victims": ["a", "b"]}]}
    assert hardpoint.parse_scenario(data)
    data["pedestrian"][1]["x"] = 1.5
    with pytest.raises(RuleViolation, match="1\" apart.*CW-DMG-07"):
        hardpoint.parse_scenario(data)
    data["pedestrian"][1]["x"] = 0.5
    data["vehicle"][0] = {"id": "c", "design": "stinger"}
    data["attack"][0]["weapon"] = "rl"
    with pytest.raises(RuleViolation, match="no area effect"):
        hardpoint.parse_scenario(data)


def test_cw_dmg_06_burst_hurts_pedestrians_in_the_open_only():
    """CW-DMG-06: a burst weapon's hit does 1d to each pedestrian within its radius who is not behind a wall."""
    rules = RULES.with_overrides({"carwars": {"weapons": {"weapon": [{"name": "Heavy Rocket", "burst_radius": 2.0}]}}})
    data = {"scenario": {"name": "t", "ruleset": "carwars"},
            "vehicle": [{"id": "c", "design": "hunter", "weapon": [{"id": "hr", "type": "Heavy Rocket", "mount": "front"}]},
                        {"id": "t", "design": "hunter", "y": 6.0, "facing": 90.0}],
            "pedestrian": [{"id": "open", "x": 1.0, "y": 5.0}, {"id": "hidden", "x": -1.0, "y": 7.2}],
            "building": [{"id": "wall", "x": -1.0, "y": 6.9, "width": 0.2, "length": 1.0, "facing": 90.0}],
            "attack": [{"id": "a", "attacker": "c", "weapon": "hr", "target": "t"}]}
    s = hardpoint.parse_scenario(data, rules=rules)
    r = s.resolve(ScriptedDice([6, 6, 1, 1, 1, 4]))  # hit; 3d = 3; burst 1d = 4 on "open"
    assert r.state["pedestrians"]["open"]["state"] == "dead"
    assert r.state["pedestrians"]["hidden"]["state"] == "ok"
    assert any(e.kind == "note" and "behind cover" in e.text for e in r.events)


def test_cw_dmg_08_heavy_damage_or_metal_armour_drops_an_obstacle():
    """CW-DMG-08: a car taking 20+ hits in a phase, or losing metal armour, drops an obstacle at its position."""
    s = hardpoint.load_scenario("builtin:cw_brick_wall_example")
    r = s.resolve(ScriptedDice([6, 6, 6, 5, 2, 2, 2]))
    assert r.state["obstacles"][0]["x"] == 0.0
    assert any(e.kind == "note" and e.rule == "CW-DMG-08" for e in r.events)


# --- collisions -------------------------------------------------------------------------

def test_cw_col_02_brick_wall_seed_example():
    """CW-COL-02: 8 metal front armour, 7d = 29: 24 absorbed (3 x 8), 5 inward, 4 armour left; the 5 split over the
    front MG (3) and then the power plant (2). Source: Car Wars combat seed, Collision Damage example."""
    s = hardpoint.load_scenario("builtin:cw_brick_wall_example")
    r = s.resolve(ScriptedDice([6, 6, 6, 5, 2, 2, 2]))
    car = r.state["vehicles"]["car"]
    assert car["armour"]["front"] == 4 and car["weapons"]["mg"] == 0 and car["power_plant"] == 6
    metal = next(e for e in r.events if e.kind == "damage" and "metal" in e.component)
    assert (metal.hits, metal.before, metal.after) == (24, 8, 4)


def test_cw_col_01_even_split_with_random_remainder():
    """CW-COL-01: 3 collision hits on two exposed MGs: 2 and 1 (1d picks who takes the extra point: 4-6 the second)."""
    v = vehicle(weapon=[{"id": "mg1", "type": "MG", "mount": "front"}, {"id": "mg2", "type": "MG", "mount": "front"}])
    ledger = Ledger("v", dealt=3)
    rest = collision_split(v, [v.weapon("mg1"), v.weapon("mg2")], 3, ScriptedDice([5]), ledger, "front weapon")
    assert (v.weapon("mg1").dp, v.weapon("mg2").dp, rest) == (2, 1, 0)


def test_cw_col_01_destroyed_share_is_split_again():
    """CW-COL-01 (RULING): 7 hits on a 1-DP and a 5-DP item: 4/3 (extra to the first by 1d 2); the first absorbs 1,
    its 3 excess split again onto the survivor: it takes 3 + 3 = 6 > 5, so 1 passes on: exactly 7 - (1 + 5)."""
    v = vehicle(cargo=[{"id": "a", "dp": 1}, {"id": "b", "dp": 5}])
    ledger = Ledger("v", dealt=7)
    rest = collision_split(v, v.cargo, 7, ScriptedDice([2]), ledger, "cargo")
    assert rest == 1 and [c.dp for c in v.cargo] == [0, 0]


def test_cw_col_03_collision_reaches_inside_only_through_destroyed_layers():
    """CW-COL-03: 10 collision hits on 20 plastic front armour stay in the armour; nothing inside is touched."""
    v = vehicle()
    collision_damage(RULES, v, Side.FRONT, 10, ScriptedDice([]))
    assert v.armour[Side.FRONT] == 10 and v.weapon("mg").dp == 3


def test_cw_col_03_side_collision_splits_among_locations_first():
    """CW-COL-03: a side collision past the armour: 9 hits split among three locations (3 each): the power plant
    takes 3, the driver's body armour 3, the cargo item 1 of its 3 (2 pass through) to the far side armour."""
    v = vehicle()
    v.armour[Side.RIGHT] = 0
    collision_damage(RULES, v, Side.RIGHT, 9, ScriptedDice([]))
    assert v.power_plant == 5 and v.driver.body_armour == 0 and v.cargo[0].dp == 0 and v.armour[Side.LEFT] == 13


def test_cw_col_03_a_front_or_back_collision_is_shared_among_the_items_of_each_location_in_turn():
    """CW-COL-03: in a front or back collision each internal location in turn, front to back (back to front from
    behind), divides what reaches it among all its items (CW-COL-01's split: the odd point to one picked by 1d), and
    what they cannot take goes on to the next location. A shot would strike one item of a location only.

    Hand-worked on a shogun: front MG (3 DP), layout power plant (10), crew (driver and gunner, each body armour 3
    and 3 DP: 6 to take), cargo (none, an empty location that passes everything on); no back weapons.
    From behind, back armour gone, 9 hits: the empty cargo passes 9; the crew splits 9 into 4 and 4 with the odd
    point by 1d: 5 -> the gunner: the driver 4 (body armour 3 -> 0, 1 hit: wounded), the gunner 5 (body armour
    3 -> 0, 2 hits: unconscious); nothing is left for the power plant (10) or the front MG.
    From the front, front armour gone, 28 hits: the MG 3 (25 left), the power plant 10 (15), the crew 15: 7 and 7,
    the odd point by 1d: 2 -> the driver, 8; each can take 6 (both dead), so 2 + 1 = 3 go on: through the empty
    cargo, no back weapons, to the back armour, 25 -> 22. 28 = 3 + 10 + 12 + 3.
    Source: CW seed, Collision Damage (front or back: damage divided by the items of each internal location)."""
    v = vehicle("shogun")
    v.armour[Side.BACK] = 0
    dice = ScriptedDice([5])
    ledger = collision_damage(RULES, v, Side.BACK, 9, dice)
    assert [(e.component, e.hits, e.before, e.after) for e in ledger.events if e.kind == "damage"] == [
        ("driver body armour", 3, 3, 0), ("driver", 1, 3, 2), ("gunner body armour", 3, 3, 0), ("gunner", 2, 3, 1)]
    assert (v.driver.state, v.crew_member("gunner").state) == (CrewState.WOUNDED, CrewState.UNCONSCIOUS)
    assert v.power_plant == 10 and v.weapon("mg").dp == 3 and dice.remaining == 0 and ledger.absorbed == 9
    v = vehicle("shogun")
    v.armour[Side.FRONT] = 0
    dice = ScriptedDice([2])
    ledger = collision_damage(RULES, v, Side.FRONT, 28, dice)
    assert [(e.component, e.hits, e.before, e.after) for e in ledger.events if e.kind == "damage"] == [
        ("weapon mg", 3, 3, 0), ("power plant", 10, 10, 0), ("driver body armour", 3, 3, 0), ("driver", 3, 3, 0),
        ("gunner body armour", 3, 3, 0), ("gunner", 3, 3, 0), ("back armour", 3, 25, 22)]
    assert [e.why for e in ledger.events if e.kind == "dice"] == ["which crew item takes an extra point"]
    assert (v.driver.state, v.crew_member("gunner").state) == (CrewState.DEAD, CrewState.DEAD)
    assert dice.remaining == 0 and (ledger.absorbed, ledger.lost) == (28, 0)


@pytest.mark.parametrize("speed,dice", [(5, "1d-4"), (10, "1d-2"), (15, "1d-1"), (20, "1d"), (25, "1d"), (30, "1d"),
                                        (35, "2d"), (40, "3d"), (50, "5d"), (60, "7d"), (100, "15d"), (33, "2d")])
def test_cw_col_04_ram_damage_table(speed, dice):
    """CW-COL-04: collision dice by speed come from the data table (RULING; docs/rulings.md)."""
    assert str(ram_dice(RULES, speed)) == dice


def test_cw_col_04_weight_jump_and_offroad_roll():
    """CW-COL-04: weight factors; jumping out at 50 mph off-road is a 20 mph sideswipe (1d); rolling: 1d-2 per side."""
    assert (weight_factor(RULES, 1500), weight_factor(RULES, 3000), weight_factor(RULES, 6000), weight_factor(RULES, None)) == (
        pytest.approx(1 / 3), pytest.approx(2 / 3), 1, 1)
    assert str(jump_out_dice(RULES, 50)) == "1d" and jump_out_dice(RULES, 25) is None
    v = vehicle()
    offroad_roll(RULES, v, [Side.RIGHT, Side.TOP], ScriptedDice([6, 1, 3, 3, 3, 3]))
    assert v.armour[Side.RIGHT] == 11 and v.armour[Side.TOP] == 10 and [t.dp for t in v.tires] == [5, 5, 5, 5]


# --- crew ---------------------------------------------------------------------------------

def test_cw_crew_01_body_armour_first_then_wounded_unconscious_dead():
    """CW-CREW-01: body armour 3 first; then the 1st hit wounds, the 2nd knocks out, the 3rd kills."""
    v = vehicle("razor")
    states = []
    for _ in range(6):
        apply_shot(RULES, v, Shot(1, None, "rider"), ScriptedDice([]))
        states.append((v.driver.body_armour, v.driver.state))
    assert states == [(2, CrewState.OK), (1, CrewState.OK), (0, CrewState.OK), (0, CrewState.WOUNDED),
                      (0, CrewState.UNCONSCIOUS), (0, CrewState.DEAD)]


def test_cw_crew_01_a_wounded_persons_damage_is_booked_from_the_dp_he_has_left():
    """CW-CREW-01: hand-worked. A razor's driver with no body armour, already wounded (1 hit of his 3), shot for 2
    as the rider: he takes both and dies; the damage event books his DP before as 3 - 1 = 2 and after as 0."""
    v = vehicle("razor")
    v.driver.body_armour, v.driver.hits = 0, 1
    ledger = apply_shot(RULES, v, Shot(2, None, "rider"), ScriptedDice([]))
    assert [(e.component, e.hits, e.before, e.after, e.rule) for e in ledger.events if e.kind == "damage"] == [
        ("driver", 2, 2, 0, "CW-CREW-01")]
    assert v.driver.state is CrewState.DEAD and (ledger.absorbed, ledger.lost) == (2, 0)


def test_cw_crew_02_driver_wounded_is_a_d2_hazard_not_body_armour_hits():
    """CW-CREW-02: a wounded driver: D2 hazard; hits only on body armour: no driver hazard."""
    v = vehicle("razor")
    v.driver.body_armour = 0
    before = v.driver.state
    apply_shot(RULES, v, Shot(1, None, "rider"), ScriptedDice([]))
    events = driver_consequences(RULES, v, before, ScriptedDice([]))
    assert any("D2 hazard" in str(e) for e in events)
    v2 = vehicle("razor")
    apply_shot(RULES, v2, Shot(2, None, "rider"), ScriptedDice([]))
    assert driver_consequences(RULES, v2, CrewState.OK, ScriptedDice([])) == []


def test_cw_crew_03_uncontrolled_cycle_rolls_crash_table_plus_4():
    """CW-CREW-03: a cycle whose driver is knocked out rolls Crash Table 1 at +4: 2d6 [4, 3] = 7 + 4 = 11: roll."""
    v = vehicle("razor")
    v.driver.body_armour = 0
    apply_shot(RULES, v, Shot(2, None, "rider"), ScriptedDice([]))
    events = driver_consequences(RULES, v, CrewState.OK, ScriptedDice([4, 3]))
    assert any("= 11: roll" in str(e) for e in events) and v.uncontrolled
    assert crash_table_band(RULES, 2) == "trivial skid" and crash_table_band(RULES, 15) == "vault"


def test_cw_crew_03_other_vehicles_go_straight():
    """CW-CREW-03: a car (or a cycle with a sidecar) whose driver dies goes straight, slowing 5 mph a turn: no crash roll."""
    for design in ("hunter", "outrider"):
        v = vehicle(design)
        v.driver.body_armour, v.driver.hits = 0, 3
        events = driver_consequences(RULES, v, CrewState.OK, ScriptedDice([]))
        assert v.uncontrolled and any("goes straight" in str(e) for e in events)


def test_cw_crew_04_substitute_drivers():
    """CW-CREW-04: a sidecar passenger may steer a cycle; a front-seat gunner takes over a car at once; a back-seat
    passenger only in a stopped car, from the 6th turn; nobody replaces a driver who can still drive."""
    bike = vehicle("outrider")
    with pytest.raises(RuleViolation, match="not incapacitated"):
        substitute_driver(RULES, bike, "passenger", 1)
    bike.driver.hits = 3
    bike.crew.append(bike.sidecar.crew[0])  # the passenger is aboard
    substitute_driver(RULES, bike, "passenger", 1)
    assert bike.substitute == "passenger"
    car = vehicle("shogun", crew=[{"id": "d", "role": "driver"}, {"id": "g", "role": "gunner", "seat": "front_right"},
                                  {"id": "p", "role": "passenger", "seat": "back_left"}])
    car.driver.hits = 2
    substitute_driver(RULES, car, "g", 3)
    assert car.substitute_from_turn == 3
    car.substitute = None
    with pytest.raises(RuleViolation, match="stop it first"):
        car.speed = 30
        substitute_driver(RULES, car, "p", 3)
    car.speed = 0
    substitute_driver(RULES, car, "p", 3)
    assert car.substitute_from_turn == 8


# --- properties -----------------------------------------------------------------------------

DESIGNS = ["hunter", "shogun", "razor", "outrider", "stinger"]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(DESIGNS), st.sampled_from(list(Side)), st.integers(0, 60), st.integers(0, 2**32), st.booleans(),
       st.integers(0, 3))
def test_cw_dmg_01_conservation_and_bounds_property(design, side, hits, seed, strip, repeats):
    """CW-DMG-01..05 / CW-COL-01..03: on every shot and every collision, hits dealt = absorbed + passed out or lost;
    armour never goes negative; a destroyed component never absorbs again; the same dice give the same result."""
    v = vehicle(design)
    if strip:
        for s in Side:
            v.armour[s] = 0
    twin = copy.deepcopy(v)
    dice, twin_dice = SeededDice(seed), SeededDice(seed)
    for i in range(repeats + 1):
        destroyed_before = _destroyed(v)
        ledger = apply_shot(RULES, v, Shot(hits, side), dice) if i % 2 == 0 else collision_damage(RULES, v, side, hits, dice)
        assert ledger.dealt == hits == ledger.absorbed + ledger.lost
        assert all(a >= 0 for a in v.armour.values())
        for e in ledger.events:
            if e.kind == "damage":
                assert e.component not in destroyed_before
        (apply_shot(RULES, twin, Shot(hits, side), twin_dice) if i % 2 == 0 else collision_damage(RULES, twin, side, hits, twin_dice))
    assert v == twin


def _destroyed(v):
    out = {f"weapon {w.id}" for w in v.all_weapons() if w.dp == 0}
    out |= {f"tire {t.id}" for t in v.tires if t.dp == 0}
    out |= {c.id for c in v.all_crew() if c.hits >= 3}
    if v.power_plant == 0:
        out.add("power plant")
    out |= {f"cargo {c.id}" for c in v.cargo if c.dp == 0}
    return out


def test_cw_rof_02_damage_applied_at_the_end_of_the_phase():
    """CW-ROF-02: a gunner killed by the first attack of a phase still fires the second; damage comes at the end."""
    data = {"scenario": {"name": "t", "ruleset": "carwars"},
            "vehicle": [{"id": "a", "design": "shogun", "armour": {"right": 0, "left": 0, "front": 0, "back": 0}, "x": 0, "y": 0},
                        {"id": "b", "design": "shogun", "x": 4.0, "y": 0.0, "facing": 0.0}],
            "attack": [{"id": "b_kills", "attacker": "b", "weapon": "laser", "firer": "gunner", "target": "a", "aim": "right"},
                       {"id": "a_fires", "attacker": "a", "weapon": "laser", "firer": "gunner", "target": "b"}]}
    s = hardpoint.parse_scenario(data)
    # b hits (6,6), laser 3d = 18; a's gunner still fires: (6,6) hit, 3d = 3; then damage: 1d 3 -> crew; 1d 5 -> gunner
    r = s.resolve(ScriptedDice([6, 6, 6, 6, 6, 6, 6, 1, 1, 1, 3, 5]))
    assert [x.hit for x in r.rolls] == [True, True]
    assert r.state["vehicles"]["a"]["crew"]["gunner"]["state"] == "dead"
    assert r.state["vehicles"]["b"]["armour"]["left"] == 22
    # the scenario itself is unchanged unless committed
    assert s.arena.vehicles["a"].crew_member("gunner").hits == 0


def test_cw_tgt_05_sidecar_aimed_at_from_the_front_takes_it_on_its_front_armour():
    """CW-TGT-05 (issue 9, defect 2): a sidecar is armoured like a small car (front, back, both flanks, underbody),
    so a shot at it from ahead strikes its front armour, not its right flank.

    Hand-worked: the outrider (cycle with a right sidecar, sidecar armour F6 B4 L4 R6) stands at the origin facing
    north; the hunter 4" ahead of the sidecar, facing it, fires its front MG with aim "sidecar". Only the sidecar's
    front faces the muzzle at (0.125, 3.5). To hit: MG 7; sidecar seen from the front -3, sidecar -2; range 3.25" 0;
    both still +1 +1: total -3, needs 10. Dice: 6+6 = 12 hits; damage 1d = 3: the sidecar's front armour 6 -> 3;
    its right armour stays 6. Source: CW seed, Cycle Targeting (sidecar targeting)."""
    s = hardpoint.parse_scenario({
        "scenario": {"name": "sidecar from the front", "ruleset": "carwars"},
        "vehicle": [{"id": "car", "design": "hunter", "x": 0.125, "y": 4.0, "facing": 180.0, "speed": 0},
                    {"id": "bike", "design": "outrider", "speed": 0}],
        "attack": [{"id": "a", "attacker": "car", "weapon": "mg", "firer": "driver", "target": "bike", "aim": "sidecar"}]})
    b = s.explain()[0]
    assert (b.aimed_at, b.side, b.needed) == ("sidecar", "front", 10)
    r = s.resolve(ScriptedDice([6, 6, 3]))
    assert [(e.component, e.before, e.after) for e in r.events if e.kind == "damage"] == [("sidecar front armour", 6, 3)]
    com = both_backends(s)
    front, right = com.labels.index("bike sidecar front armour"), com.labels.index("bike sidecar right armour")
    assert (com.state[:, right] == 6).all() and (com.state[:, front] < 6).any()


def test_cw_tgt_05_cycle_shot_as_a_whole_from_the_front_on_the_sidecar_side_rolls_cycle_or_sidecar():
    """CW-TGT-05 (issue 9, defect 3): shooting at a cycle as a whole from the sidecar's side of its centre line, a hit
    goes to the cycle on 1d 1-4 and to the sidecar on 5-6, whichever side of the counter it strikes (here the front).

    Hand-worked: the outrider at the origin facing north (sidecar on the right, its front armour 6; the cycle's front
    armour 10); the hunter 4" ahead of the sidecar, facing it, fires its front MG at the bike (aim auto): the muzzle
    at (0.125, 3.5) is right of the cycle's centre line (x = -0.125). To hit: MG 7; cycle from the front -3; both
    still +1 +1: needs 8. Dice 6+6 hit, damage 1d = 4, then 1d = 5: the sidecar, on its front armour 6 -> 2.
    With 1d = 2 instead: the cycle, whose front table 2d6 3+4 = 7 puts the 4 hits on its front armour 10 -> 6.
    Source: CW seed, Cycle Targeting (sidecar targeting)."""
    s = hardpoint.parse_scenario({
        "scenario": {"name": "cycle from the front, sidecar side", "ruleset": "carwars"},
        "vehicle": [{"id": "car", "design": "hunter", "x": 0.125, "y": 4.0, "facing": 180.0, "speed": 0},
                    {"id": "bike", "design": "outrider", "speed": 0}],
        "attack": [{"id": "a", "attacker": "car", "weapon": "mg", "firer": "driver", "target": "bike"}]})
    b = s.explain()[0]
    assert (b.side, b.needed, b.sidecar_side) == ("front", 8, True)
    r = s.resolve(ScriptedDice([6, 6, 4, 5]))
    rolls = [e for e in r.events if e.kind == "dice" and e.rule == "CW-TGT-05"]
    assert [(e.why, e.total) for e in rolls] == [("cycle or sidecar", 5)]
    assert [(e.component, e.before, e.after) for e in r.events if e.kind == "damage"] == [("sidecar front armour", 6, 2)]
    r = s.resolve(ScriptedDice([6, 6, 4, 2, 3, 4]))
    assert [(e.component, e.before, e.after) for e in r.events if e.kind == "damage"] == [("front armour", 10, 6)]
    com = both_backends(s, trials=600)
    sc, cy = com.labels.index("bike sidecar front armour"), com.labels.index("bike front armour")
    assert (com.state[:, sc] < 6).any() and (com.state[:, cy] < 10).any()


def test_cw_dmg_06_the_vehicle_hit_shelters_pedestrians_behind_it_from_the_burst():
    """CW-DMG-06 (issue 9, defect 8): burst effect does 1d to every pedestrian in its radius except those under cover
    sheltered by a standing wall or vehicle, and the vehicle that was hit shelters too.

    Hand-worked: the hunter's front Grenade Launcher (burst radius 2") fires at a compact 4" north showing its back;
    the point hit is the middle of that back edge, (0, 3.5). Pedestrian "near" at (0.5, 3.0), 0.6" away on the
    firer's side; "far" at (0, 5.0), 1.4" away behind the target: every line from the point hit to him crosses the
    target. Dice: 6+6 hit, damage 1d = 3 (back armour 15 -> 12); burst on "near" 1d = 2 (0 -> 2 hits, wounded);
    "far" is behind cover: no die, no damage. Source: CW seed, Burst Effect."""
    s = hardpoint.parse_scenario({
        "scenario": {"name": "burst behind the target", "ruleset": "carwars"},
        "vehicle": [{"id": "car", "design": "hunter", "speed": 0, "weapon": [{"id": "gl", "type": "Grenade Launcher", "mount": "front"}]},
                    {"id": "target", "design": "hunter", "y": 4.0, "speed": 0}],
        "pedestrian": [{"id": "near", "x": 0.5, "y": 3.0}, {"id": "far", "x": 0.0, "y": 5.0}],
        "attack": [{"id": "a", "attacker": "car", "weapon": "gl", "firer": "driver", "target": "target"}]})
    assert s.explain()[0].aim_point == (0.0, 3.5)
    r = s.resolve(ScriptedDice([6, 6, 3, 2]))
    assert [(e.target, e.component, e.before, e.after) for e in r.events if e.kind == "damage"] == [
        ("target", "back armour", 15, 12), ("near", "person", 3, 1)]
    assert any(e.kind == "note" and e.text == "far is behind cover: no burst damage" and e.rule == "CW-DMG-06" for e in r.events)
    assert r.state["pedestrians"]["far"]["hits"] == 0 and r.state["pedestrians"]["near"]["hits"] == 2


def test_cw_crew_01_hits_taken_by_body_armour_are_no_hazard():
    """CW-CREW-01 / CW-DMG-01 (issue 9, defect 9): hits a driver's body armour takes are no hazard (SPEC: any hit on
    body armour); only the hits that get past it count toward the D1-D3 hazard of the hits taken in a phase.

    Hand-worked: the hunter, 3" east of the razor and facing it, fires its MG at the cycle's rider (body armour 3):
    MG 7, rider -3, cycle from the side -2, both still +1 +1: needs 10. Dice 6+6 hit, damage 1d = 2: the body armour
    3 -> 1, the rider unhurt: no hazard (old: "2 hits, a D1 hazard"). With damage 4: body armour 3 -> 0, then 1 hit
    wounds him: 1 hit counts, a D1 hazard, and his wound is a D2 hazard of its own (CW-CREW-02).
    Source: CW seed, Injury to Drivers."""
    s = hardpoint.parse_scenario({
        "scenario": {"name": "rider's body armour", "ruleset": "carwars"},
        "vehicle": [{"id": "car", "design": "hunter", "x": 3.0, "facing": 270.0, "speed": 0},
                    {"id": "bike", "design": "razor", "speed": 0}],
        "attack": [{"id": "a", "attacker": "car", "weapon": "mg", "firer": "driver", "target": "bike", "aim": "rider"}]})
    assert s.explain()[0].needed == 10
    r = s.resolve(ScriptedDice([6, 6, 2]))
    assert [(e.component, e.before, e.after) for e in r.events if e.kind == "damage"] == [("driver body armour", 3, 1)]
    assert not any(e.kind == "note" and "hazard" in e.text and e.rule in ("CW-DMG-01", "CW-CREW-02") for e in r.events)
    assert any(e.kind == "note" and "all struck body armour: no hazard" in e.text and e.rule == "CW-CREW-01" for e in r.events)
    r = s.resolve(ScriptedDice([6, 6, 4]))
    notes = [(e.rule, e.text) for e in r.events if e.kind == "note" and "hazard" in e.text]
    assert notes == [("CW-DMG-01", "bike took 1 hit(s) this phase: a D1 hazard"), ("CW-CREW-02", "bike: driver wounded: a D2 hazard")]
