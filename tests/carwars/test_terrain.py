"""Car Wars off-road, terrain, water and movable obstacles: CW-OFF-01..04, CW-OBS-01.

Dice are scripted: an off-road damage roll of 2d6 takes two faces, a pick among
four tires one face (1-4: front_left, front_right, back_left, back_right; 5-6
are re-rolled), among two or three tires one face split evenly.
"""
import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hardpoint
from hardpoint import RuleViolation, ScriptedDice, SeededDice
from hardpoint.carwars.enums import Side
from hardpoint.carwars.model import build_vehicle
from hardpoint.carwars.terrain import (
    Carrier, barrier_collision, boulder, ditch_effect, is_offroad_tire, offroad_crash_modifier, offroad_damage,
    offroad_handling_class, offroad_maneuver_difficulty, offroad_rolls, terrain_feature, tire_handling_bonus_applies,
    water_crossing, water_deceleration, water_depth_limit, water_hazard_difficulty, water_maneuver_allowed,
)
from hardpoint.errors import DataError, ScenarioError

RULES = hardpoint.default_rules()
CAR_WHEELS = ("front_left", "front_right", "back_left", "back_right")
ARMOUR = {"front": 10, "back": 10, "left": 10, "right": 10, "top": 10, "underbody": 5}


def vehicle(design="hunter", speed=20, **kw):
    return build_vehicle(RULES, {"id": "v", "design": design, "speed": speed, **kw})


def off_road_tired(design="hunter", **kw):
    wheels = build_vehicle(RULES, {"id": "x", "design": design}).tires
    return vehicle(design, tire_type="off_road", tire=[{"id": t.id, "dp": 5} for t in wheels], **kw)


def faces_for(total):
    """Two d6 faces summing to `total` (2-12)."""
    return [max(1, total - 6), min(6, total - 1)]


def snapshot(v):
    return (dict(v.armour), v.power_plant, [(c.id, c.hits, c.body_armour) for c in v.crew],
            [(w.id, w.dp) for w in v.weapons], [(c.id, c.dp) for c in v.cargo], [(t.id, t.dp) for t in v.tires])


# --- CW-OFF-01 ---------------------------------------------------------------------------------

def test_cw_off_01_maneuvers_are_one_d_harder_hazards_are_not():
    """CW-OFF-01: off-road a D2 maneuver is D3; a D2 hazard stays D2."""
    assert offroad_maneuver_difficulty(2) == 3
    assert offroad_maneuver_difficulty(0) == 1
    assert offroad_maneuver_difficulty(2, hazard=True) == 2


def test_cw_off_01_crash_table_rolls_are_minus_3():
    """CW-OFF-01: every Crash Table roll off-road is at -3."""
    assert offroad_crash_modifier() == -3
    assert offroad_crash_modifier(RULES) == -3


def test_cw_off_01_uncontrolled_cycle_off_road_rolls_crash_table_at_plus_4_minus_3():
    """CW-OFF-01 / CW-CREW-03 (issue 9, defect 10): an uncontrolled cycle rolls Crash Table 1 at +4, and off-road
    every Crash Table roll is at -3 as well.

    Hand-worked: the hunter, 3" east of an off-road razor (its rider's body armour off), fires its MG at the rider:
    needs 10 (MG 7, rider -3, cycle side -2, both still +2). Dice 6+6 hit, damage 1d = 3: the rider is killed. Crash
    Table 1: 2d6 4+3 = 7, +4 for the uncontrolled cycle, -3 off-road = 8: a severe skid (on the road: 11, a roll).
    Source: CW seed, Uncontrolled Vehicles; Off-Road Duelling (all Crash Table rolls at -3)."""
    bike = {"id": "bike", "design": "razor", "speed": 0, "off_road": True,
            "crew": [{"id": "driver", "role": "driver", "seat": "cycle"}]}
    data = {"scenario": {"name": "crash off-road", "ruleset": "carwars"},
            "vehicle": [{"id": "car", "design": "hunter", "x": 3.0, "facing": 270.0, "speed": 0}, bike],
            "attack": [{"id": "a", "attacker": "car", "weapon": "mg", "firer": "driver", "target": "bike", "aim": "rider"}]}
    r = hardpoint.parse_scenario(data).resolve(ScriptedDice([6, 6, 3, 4, 3]))
    crash = [e.text for e in r.events if e.kind == "note" and e.rule == "CW-CREW-03" and "Crash Table" in e.text]
    assert crash == ["bike: Crash Table 1 roll 7 +4 -3 off-road = 8: severe skid; any passenger must jump or take the result"]
    bike["off_road"] = False
    r = hardpoint.parse_scenario(data).resolve(ScriptedDice([6, 6, 3, 4, 3]))
    assert any(e.kind == "note" and "Crash Table 1 roll 7 +4 = 11: roll;" in e.text for e in r.events)


@pytest.mark.parametrize("design,delta", [("hunter", -3), ("shogun", -3), ("razor", -2), ("outrider", -2), ("stinger", -1)])
def test_cw_off_01_unmodified_handling_class(design, delta):
    """CW-OFF-01: an unmodified car loses 3 HC, a cycle (with or without sidecar) 2, a trike 1; a modified one none."""
    v = vehicle(design)
    assert offroad_handling_class(v, 3, modified=False) == 3 + delta
    assert offroad_handling_class(v, 3, modified=True) == 3


def test_cw_off_01_radial_tire_bonus_is_void_off_road():
    """CW-OFF-01: the radial tires' handling bonus does not apply off-road; on the road it does."""
    assert tire_handling_bonus_applies("radial", off_road=False)
    assert not tire_handling_bonus_applies("radial", off_road=True)
    assert tire_handling_bonus_applies("heavy_duty", off_road=True)


def test_cw_off_01_off_road_tires_exist():
    """CW-OFF-01: special off-road tires are a tire type ("off_road") a design can fit (stating their DP)."""
    v = off_road_tired()
    assert all(t.type == "off_road" and is_offroad_tire(t) for t in v.tires)
    assert not is_offroad_tire(vehicle().tires[0])


# --- CW-OFF-02 ---------------------------------------------------------------------------------

@pytest.mark.parametrize("speed,rolls", [(0, 0), (10, 0), (11, 1), (30, 1), (31, 2), (50, 2), (51, 3), (70, 3), (71, 4),
                                         (90, 4), (91, 5), (-31, 2)])
def test_cw_off_02_roll_count_by_speed(speed, rolls):
    """CW-OFF-02: none at 10 mph, 1 above 10, 2 over 30, 3 over 50, one more per 20 mph (RULING): 71 -> 4.
    The damage function makes exactly that many 2d6 rolls (all 6s: no effect, and the script is used up)."""
    assert offroad_rolls(speed) == rolls
    v = vehicle(speed=speed)
    dice = ScriptedDice([3, 3] * rolls)
    events, ledger = offroad_damage(RULES, v, dice, False)
    assert dice.remaining == 0
    assert sum(1 for e in events if e.kind == "dice") == rolls
    assert ledger.dealt == 0


@pytest.mark.parametrize("total", range(2, 13))
def test_cw_off_02_results_of_the_2d6(total):
    """CW-OFF-02: 2-3 the underbody takes 1 point; 4-5 a random tire 1 point (pick face 2: front_right); 6-12 nothing."""
    v = vehicle(speed=20)
    before = snapshot(v)
    offroad_damage(RULES, v, ScriptedDice(faces_for(total) + [2]), False)
    under = 1 if total <= 3 else 0
    tire = 1 if total in (4, 5) else 0
    assert v.armour[Side.UNDERBODY] == before[0][Side.UNDERBODY] - under
    assert v.tire("front_right").dp == 6 - tire
    assert [t.dp for t in v.tires if t.id != "front_right"] == [6, 6, 6]
    assert v.power_plant == before[1] and {s: v.armour[s] for s in Side if s is not Side.UNDERBODY} == {
        s: before[0][s] for s in Side if s is not Side.UNDERBODY}


def test_cw_off_02_random_tire_is_a_uniform_pick():
    """CW-OFF-02: the tire is picked with random_pick: among four, faces 1-4 pick in wheel order, 5-6 are re-rolled."""
    v = vehicle(speed=20)
    dice = ScriptedDice([2, 2, 6, 5, 4])
    offroad_damage(RULES, v, dice, False)
    assert dice.remaining == 0
    assert v.tire("back_right").dp == 5 and all(v.tire(w).dp == 6 for w in CAR_WHEELS[:3])


@pytest.mark.parametrize("tire_type", ["solid", "off_road"])
def test_cw_off_02_solid_and_off_road_tires_take_no_damage(tire_type):
    """CW-OFF-02: solid and off-road tires take none of the off-road damage (three tire results at 51 mph)."""
    v = vehicle(speed=51, tire_type="solid") if tire_type == "solid" else off_road_tired(speed=51)
    before = [t.dp for t in v.tires]
    _, ledger = offroad_damage(RULES, v, ScriptedDice([2, 2, 1, 2, 3, 2, 1, 4, 4]), False)
    assert [t.dp for t in v.tires] == before
    assert ledger.dealt == ledger.absorbed == 0


def test_cw_off_02_immune_tire_among_others():
    """CW-OFF-02: a vehicle with one solid tire: the pick lands on it -> nothing; on a standard one -> 1 point."""
    v = vehicle(speed=20, tire=[{"id": "front_left", "type": "solid"}])
    offroad_damage(RULES, v, ScriptedDice([2, 2, 1]), False)
    assert v.tire("front_left").dp == 12
    offroad_damage(RULES, v, ScriptedDice([2, 2, 2]), False)
    assert v.tire("front_right").dp == 5


@pytest.mark.parametrize("design,suspension", [("razor", False), ("outrider", False), ("stinger", False), ("hunter", True)])
def test_cw_off_02_cycles_trikes_and_suspension_take_no_underbody_damage_but_still_roll(design, suspension):
    """CW-OFF-02: cycles, trikes and off-road suspension take no underbody damage (5 underbody armour given so a
    breach would show), but they still roll and their tires take the 4-5 results (RULING)."""
    v = vehicle(design, speed=31, armour=ARMOUR)
    pick = 1  # first tire, whether two, three or four
    dice = ScriptedDice([1, 1, 2, 2, pick])
    _, ledger = offroad_damage(RULES, v, dice, suspension)
    assert dice.remaining == 0
    assert v.armour[Side.UNDERBODY] == 5
    first = (v.tires + ([v.sidecar.tire] if v.sidecar else []))[0]
    assert first.dp == first.max_dp - 1
    assert ledger.dealt == 1 and ledger.absorbed == 1


def test_cw_off_02_cars_do_take_underbody_damage():
    """CW-OFF-02: the control case: the same rolls on a car without suspension cost it underbody armour."""
    v = vehicle("hunter", speed=31, armour=ARMOUR)
    offroad_damage(RULES, v, ScriptedDice([1, 1, 2, 2, 1]), False)
    assert v.armour[Side.UNDERBODY] == 4


@pytest.mark.parametrize("design", ["razor", "outrider", "stinger"])
def test_cw_off_02_suspension_only_for_four_and_six_wheels(design):
    """CW-OFF-02: off-road suspension on a cycle or trike is refused, naming the field; nothing rolled or changed."""
    v = vehicle(design, speed=40)
    before = snapshot(v)
    dice = ScriptedDice([1, 1, 1, 1])
    with pytest.raises(RuleViolation) as err:
        offroad_damage(RULES, v, dice, True)
    assert err.value.field == "off_road_suspension" and err.value.rule == "CW-OFF-02"
    assert dice.used == 0 and snapshot(v) == before


def test_cw_off_02_underbody_gone_internal_components_take_nothing():
    """CW-OFF-02: with the underbody armour gone, an underbody result is lost: power plant, crew, cargo, weapons untouched."""
    v = vehicle(speed=55, armour={**ARMOUR, "underbody": 0})
    before = snapshot(v)
    _, ledger = offroad_damage(RULES, v, ScriptedDice([1, 1, 1, 2, 1, 1]), False)
    assert snapshot(v) == before
    assert ledger.dealt == 3 and ledger.lost == 3 and ledger.absorbed == 0


def test_cw_off_02_last_underbody_point_then_lost():
    """CW-OFF-02: 1 underbody point left, two underbody results: the first takes it, the second is lost."""
    v = vehicle(speed=31, armour={**ARMOUR, "underbody": 1})
    before = snapshot(v)
    _, ledger = offroad_damage(RULES, v, ScriptedDice([1, 1, 1, 1]), False)
    assert v.armour[Side.UNDERBODY] == 0 and v.power_plant == before[1]
    assert (ledger.absorbed, ledger.lost) == (1, 1)


def test_cw_off_02_destroyed_tire_stays_at_zero():
    """CW-OFF-02: a tire result on a destroyed tire is lost; its DP stay 0."""
    v = vehicle(speed=20, tire=[{"id": "front_left", "current_dp": 0}])
    _, ledger = offroad_damage(RULES, v, ScriptedDice([2, 2, 1]), False)
    assert v.tire("front_left").dp == 0 and ledger.lost == 1


DESIGNS = ["hunter", "shogun", "razor", "outrider", "stinger"]
_TEMPLATES = {d: vehicle(d) for d in DESIGNS}


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(DESIGNS), st.integers(0, 130), st.integers(0, 2**32), st.booleans(),
       st.lists(st.integers(0, 3), min_size=6, max_size=6), st.lists(st.integers(0, 6), min_size=5, max_size=5))
def test_cw_off_02_property_never_negative_and_books_balance(design, speed, seed, suspension, armour, tire_dp):
    """CW-OFF-02: whatever the speed and dice, off-road damage never makes armour or DP negative, touches only the
    underbody armour and the tires, and the books balance (dealt = absorbed + lost)."""
    v = copy.deepcopy(_TEMPLATES[design])
    v.speed = speed
    for s, a in zip(Side, armour):
        v.armour[s] = a
    for t, dp in zip(v.tires, tire_dp):
        t.dp = min(dp, t.max_dp)
    suspension = suspension and v.kind == "car"
    before = snapshot(v)
    _, ledger = offroad_damage(RULES, v, SeededDice(seed), suspension)
    assert all(a >= 0 for a in v.armour.values())
    assert all(t.dp >= 0 for t in v.tires) and (v.sidecar is None or v.sidecar.tire.dp >= 0)
    assert ledger.dealt == ledger.absorbed + ledger.lost
    assert {s: v.armour[s] for s in Side if s is not Side.UNDERBODY} == {s: before[0][s] for s in Side if s is not Side.UNDERBODY}
    assert snapshot(v)[1:5] == before[1:5]
    if suspension or v.kind != "car":
        assert v.armour[Side.UNDERBODY] == before[0][Side.UNDERBODY]


# --- CW-OFF-03 ---------------------------------------------------------------------------------

def test_cw_off_03_terrain_features_as_data():
    """CW-OFF-03: open ground adds nothing; small trees a D2 (default) or D3 hazard; large trees fixed barriers of 8 DP
    or more (default 14)."""
    assert terrain_feature("open").kind == "open" and terrain_feature("open").difficulty == 0
    assert terrain_feature("small_trees").difficulty == 2
    assert terrain_feature("small_trees", difficulty=3).difficulty == 3
    with pytest.raises(ScenarioError):
        terrain_feature("small_trees", difficulty=4)
    trees = terrain_feature("large_trees")
    assert (trees.kind, trees.dp, trees.shoved_aside) == ("fixed_barrier", 14, False)
    assert terrain_feature("large_trees", dp=20).dp == 20
    with pytest.raises(ScenarioError) as err:
        terrain_feature("large_trees", dp=7)
    assert err.value.field == "dp"
    with pytest.raises(ScenarioError):
        terrain_feature("swamp")


def test_cw_off_03_small_trees_default_is_overridable():
    """CW-OFF-03: the small-tree default is data: a house rule makes it D3."""
    rules = RULES.with_overrides({"carwars": {"terrain": {"feature": {"small_trees": {"difficulty": 3}}}}})
    assert terrain_feature("small_trees", rules=rules).difficulty == 3


@pytest.mark.parametrize("size,kind,dp", [(0.5, "obstacle", None), (1.0, "obstacle", None), (1.5, "fixed_barrier", 19),
                                          (2.0, "fixed_barrier", 25), (3.0, "fixed_barrier", 38), (4.0, "fixed_barrier", 50)])
def test_cw_off_03_boulders_by_size(size, kind, dp):
    """CW-OFF-03: about a foot across an obstacle; 1-2 ft a fixed barrier up to 25 DP; a four-foot one at least 50
    (default 12.5 DP a foot, rounded up)."""
    b = boulder(size)
    assert (b.kind, b.dp) == (kind, dp)
    assert b.kind == "obstacle" or b.shoved_aside


@pytest.mark.parametrize("size,dp", [(2.0, 26), (4.0, 49), (3.0, 25), (1.0, 10)])
def test_cw_off_03_boulder_dp_out_of_bounds_refused(size, dp):
    """CW-OFF-03: a 1-2 ft boulder has at most 25 DP, a larger one more, a four-foot one at least 50; an obstacle has none."""
    with pytest.raises(ScenarioError) as err:
        boulder(size, dp)
    assert err.value.field == "dp" and err.value.rule == "CW-OFF-03"


def test_cw_off_03_fixed_barriers_stand_break_or_are_shoved_aside():
    """CW-OFF-03: a tree of 14 DP taking 10 stands with 4; taking 14 breaks. A 25-DP boulder taking 30 is shoved aside
    whole; taking 10 it stands with 15."""
    out = barrier_collision(RULES, 14, 10, "large_trees")
    assert (out.outcome, out.dp_after, out.in_the_way) == ("stands", 4, True)
    out = barrier_collision(RULES, 14, 14, "large_trees")
    assert (out.outcome, out.dp_after, out.in_the_way) == ("broken", 0, False)
    out = barrier_collision(RULES, 25, 30, "boulder")
    assert (out.outcome, out.dp_after, out.in_the_way) == ("shoved_aside", 25, False)
    out = barrier_collision(RULES, 25, 10, "boulder")
    assert (out.outcome, out.dp_after) == ("stands", 15)
    with pytest.raises(ScenarioError):
        barrier_collision(RULES, 25, 10, "small_trees")


def test_cw_off_03_boulder_is_shoved_aside_only_by_more_than_its_dp():
    """CW-OFF-03 (issue 9, defect 15): a boulder is pushed aside whole, not broken, but only by a collision doing
    MORE than its DP; a tree or wall breaks at its DP.

    Hand-worked: a 2-ft boulder (25 DP) taking exactly 25 stands in the way with 0 DP left (old: shoved aside);
    taking 26 (more than 25) it is shoved aside whole. A 14-DP tree taking 14 breaks.
    Source: CW seed, Off-Road Terrain (boulders)."""
    exact = barrier_collision(RULES, 25, 25, "boulder", "b1")
    assert (exact.outcome, exact.dp_after, exact.in_the_way) == ("stands", 0, True)
    assert [(e.kind, e.before, e.after) for e in exact.events] == [("damage", 25, 0)]
    again = barrier_collision(RULES, 25, 26, "boulder", "b1")
    assert (again.outcome, again.dp_after, again.in_the_way) == ("shoved_aside", 25, False)
    assert any(e.kind == "state" and e.after == "shoved aside" for e in again.events)
    assert barrier_collision(RULES, 14, 14, "large_trees").outcome == "broken"


@pytest.mark.parametrize("speed,falls_in,d", [(15, True, 0), (19, True, 0), (20, False, 3), (30, False, 3), (40, False, 3),
                                              (41, False, 3), (44, False, 3), (45, False, 1), (60, False, 1)])
def test_cw_off_03_ditch_two_to_four_feet(speed, falls_in, d):
    """CW-OFF-03: a 3-ft ditch: under 20 mph the vehicle falls in and hits the far wall at full speed; 20 (RULING)
    to 44 mph (our ruling for 41-44) D3; 45 and over D1."""
    e = ditch_effect(3.0, speed)
    assert (e.falls_in, e.hazard_d) == (falls_in, d)
    if falls_in:
        assert e.collision_speed_mph == speed and not e.passable and e.collision_dice is not None
    else:
        assert e.collision_speed_mph is None and e.passable


def test_cw_off_03_ditch_edges_of_the_band():
    """CW-OFF-03: exactly 2 ft and exactly 4 ft across are in the 2-4 ft band."""
    assert ditch_effect(2.0, 15).falls_in and ditch_effect(4.0, 15).falls_in
    assert ditch_effect(1.9, 15).hazard_d == 3


@pytest.mark.parametrize("speed,d", [(5, 3), (20, 3), (21, 1), (70, 1)])
def test_cw_off_03_small_ditch(speed, d):
    """CW-OFF-03: a ditch under 2 ft: D3 at 20 mph or less, D1 above."""
    e = ditch_effect(1.5, speed)
    assert e.hazard_d == d and not e.falls_in


def test_cw_off_03_wider_ditch_cannot_be_jumped():
    """CW-OFF-03: a ditch over 4 ft cannot be jumped without a ramp: RuleViolation naming the width."""
    with pytest.raises(RuleViolation) as err:
        ditch_effect(4.5, 80)
    assert err.value.field == "width_ft" and err.value.rule == "CW-OFF-03"


# --- CW-OFF-04 ---------------------------------------------------------------------------------

@pytest.mark.parametrize("suspension,ok_depth,deep", [(False, 1.5, 1.6), (True, 3.0, 3.1)])
def test_cw_off_04_depth_limits(suspension, ok_depth, deep):
    """CW-OFF-04: 1.5 ft without off-road suspension, 3 ft with it; deeper drowns the engine."""
    assert water_depth_limit(suspension) == ok_depth
    v = vehicle(speed=20)
    ok = water_crossing(v, ok_depth, suspension, ScriptedDice([]))
    assert not ok.drowned and ok.power_plant_working
    drowned = water_crossing(v, deep, suspension, ScriptedDice([3]))
    assert drowned.drowned and not drowned.power_plant_working


def test_cw_off_04_drowned_engine_no_damage_dries_in_1d_hours():
    """CW-OFF-04: a drowned engine stops as if destroyed but takes no damage; usable 1d hours after (rolled: 4)."""
    v = vehicle(speed=20)
    before = snapshot(v)
    out = water_crossing(v, 2.0, False, ScriptedDice([4]))
    assert out.drowned and out.dry_out_hours == 4
    assert snapshot(v) == before
    changes = [e for e in out.events if e.kind == "state"]
    assert [(c.field, c.before, c.after, c.rule) for c in changes] == [("working", True, False, "CW-OFF-04")]
    assert any(e.kind == "dice" and e.total == 4 for e in out.events)


@pytest.mark.parametrize("depth,d", [(0.0, 0), (0.5, 0), (0.6, 2), (1.0, 2)])
def test_cw_off_04_standing_water_hazard(depth, d):
    """CW-OFF-04: hitting standing water deeper than 1/2 ft is a D2 hazard."""
    assert water_hazard_difficulty(depth) == d
    assert water_crossing(vehicle(), depth, False, ScriptedDice([])).hazard_d == d
    assert water_crossing(vehicle(), depth, False, ScriptedDice([]), entering=False).hazard_d == 0


@pytest.mark.parametrize("depth,suspension,mph", [(0.4, False, 0), (0.5, False, 5), (1.0, False, 10), (1.4, False, 10),
                                                  (1.5, False, 15), (1.5, True, 0), (2.0, True, 5), (3.0, True, 15)])
def test_cw_off_04_deceleration(depth, suspension, mph):
    """CW-OFF-04: 5 mph a turn per full 1/2 ft of water; with off-road suspension only the depth over 1.5 ft counts."""
    assert water_deceleration(depth, suspension) == mph
    assert water_crossing(vehicle(), depth, suspension, ScriptedDice([])).deceleration_mph == mph


def test_cw_off_04_no_maneuver_over_d3_in_water():
    """CW-OFF-04: maneuvers of original difficulty D3 or less are allowed; over D3 refused, naming the rule."""
    assert water_maneuver_allowed(3) and water_maneuver_allowed(1)
    with pytest.raises(RuleViolation) as err:
        water_maneuver_allowed(4)
    assert err.value.rule == "CW-OFF-04" and err.value.field == "original_difficulty"
    assert water_maneuver_allowed(5, strict=False) is False


def test_cw_off_04_suspension_refused_for_a_trike_in_water():
    """CW-OFF-04 with CW-OFF-02: a trike cannot claim off-road suspension's 3-ft limit."""
    with pytest.raises(RuleViolation) as err:
        water_crossing(vehicle("stinger"), 2.5, True, ScriptedDice([1]))
    assert err.value.field == "off_road_suspension"


# --- CW-OBS-01 ---------------------------------------------------------------------------------

def refused(carrier, action, *args, **kw):
    before = copy.deepcopy(carrier)
    with pytest.raises(RuleViolation) as err:
        getattr(carrier, action)(*args, **kw)
    assert err.value.rule == "CW-OBS-01"
    assert carrier == before
    return err.value


def test_cw_obs_01_free_pedestrian_moves_one_square_every_phase():
    """CW-OBS-01: not carrying, a pedestrian moves one square (1/4") in each of the five phases; a second square in
    the same phase is refused."""
    c = Carrier("p")
    for phase in range(1, 6):
        c, events = c.move(1, phase)
        assert "0.25 in" in events[0].text
        refused(c, "move", 1, phase)
    assert c.can_fire(1)


def test_cw_obs_01_carrying_sequence():
    """CW-OBS-01: a turn to pick up (no move, no fire, no drop), then one square a turn and no weapon while carrying,
    a turn to drop (no move, no fire), then free again; every illegal step refused with the state unchanged."""
    c = Carrier("p")
    c, _ = c.move(1, 1)
    refused(c, "pick_up", "crate", 1, 2)                  # already moved this turn: the pick-up needs a whole turn
    c, events = c.pick_up("crate", 2)
    assert c.status(2) == "picking_up" and c.holding(2) == "crate"
    assert any(e.kind == "state" and e.after == "crate" for e in events)
    refused(c, "move", 2, 3)                              # busy picking up
    refused(c, "drop", 2, 4)                              # not carrying yet
    refused(c, "pick_up", "barrel", 2, 5)                 # one obstacle at a time
    assert not c.can_fire(2)
    # turn 3: carrying
    assert c.status(3) == "carrying" and not c.can_fire(3)
    refused(c, "check_fire", 3)
    c, events = c.move(3, 2)
    assert "carrying crate" in events[0].text
    refused(c, "move", 3, 3)                              # one square a turn while carrying
    refused(c, "drop", 3, 4)                              # moved this turn: the drop needs a whole turn
    refused(c, "pick_up", "barrel", 4)                    # still carrying the crate
    # turn 4: drop
    c, _ = c.drop(4)
    assert c.status(4) == "dropping" and not c.can_fire(4)
    refused(c, "move", 4, 2)
    refused(c, "drop", 4, 3)
    # turn 5: free again
    assert c.status(5) == "free" and c.holding(5) is None and c.can_fire(5)
    c.check_fire(5)
    c, _ = c.move(5, 1)
    c, _ = c.move(5, 2)


def test_cw_obs_01_immovable_obstacles_and_time_order():
    """CW-OBS-01: a pothole cannot be moved; time cannot run backwards (ScenarioError)."""
    c = Carrier("p")
    refused(c, "pick_up", "hole", 1, kind="pothole")
    c, _ = c.move(3, 2)
    with pytest.raises(ScenarioError):
        c.move(3, 1)
    with pytest.raises(ScenarioError):
        c.move(3, 6)


def test_cw_obs_01_turn_counts_are_data():
    """CW-OBS-01: with a house rule of two turns to pick up, the pedestrian is still picking up in the second turn."""
    rules = RULES.with_overrides({"carwars": {"terrain": {"pedestrian": {"pick_up_turns": 2}}}})
    c, _ = Carrier("p").pick_up("crate", 1, rules=rules)
    assert c.status(2, rules) == "picking_up" and c.status(3, rules) == "carrying"


# --- data -----------------------------------------------------------------------------------------

def test_cw_off_04_bad_terrain_data_is_refused():
    """CW-OFF-04: the terrain table is validated: a zero deceleration step is a DataError naming the field."""
    with pytest.raises(DataError) as err:
        RULES.with_overrides({"carwars": {"terrain": {"water": {"decel_step_ft": 0}}}})
    assert "decel_step_ft" in str(err.value)


def test_cw_off_02_off_road_damage_is_rolled_at_the_beginning_of_every_turn():
    """CW-OFF-02 (issue 9, defect 15): a vehicle off-road above 10 mph rolls for off-road damage at the beginning of
    every turn, before anything moves or fires, not at its end.

    Hand-worked, two turns: the hunter off-road at 20 mph (one roll a turn), nothing else. Turn 1 begins: 2d6 1+2 = 3:
    the underbody 10 -> 9, before the note of turn 1, phase 1. Turn 2 begins: 2d6 3+3 = 6: nothing. Nothing else rolls
    (no fire). Source: CW seed, Off-Road Hazards."""
    s = hardpoint.parse_scenario({"scenario": {"name": "off-road", "ruleset": "carwars", "turns": 2},
                                  "vehicle": [{"id": "v", "design": "hunter", "speed": 20, "off_road": True}]})
    r = s.resolve(ScriptedDice([1, 2, 3, 3]))
    texts = [(e.kind, getattr(e, "text", None) or getattr(e, "why", "")) for e in r.events]
    first_roll = texts.index(("dice", "off-road damage, roll 1 of 1"))
    assert first_roll < texts.index(("note", "turn 1, phase 1"))
    second_roll = texts.index(("dice", "off-road damage, roll 1 of 1"), first_roll + 1)
    assert texts.index(("note", "end of turn 1")) < second_roll < texts.index(("note", "turn 2, phase 1"))
    assert [(e.component, e.before, e.after) for e in r.events if e.kind == "damage"] == [("underbody armour", 10, 9)]
