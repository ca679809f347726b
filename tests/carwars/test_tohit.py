"""Car Wars to-hit: CW-HIT-01..11, CW-TGT-01..03 and 07, CW-ARC-02, LOG-02."""
from fractions import Fraction

import pytest

import hardpoint
from hardpoint import RuleViolation, ScenarioError, ScriptedDice
from hardpoint.carwars import tohit
from hardpoint.carwars.enums import Computer, CrewState, Light, Weather

from .conftest import attack, both_backends, build, car, explain_one, mods


def test_cw_hit_01_seed_worked_example_needs_10():
    """CW-HIT-01: MG 7, computer +1, point blank +4, tire -3, cycle side -2, night -3: total -3, needs 10.

    Source: Car Wars combat seed, Targeting Modifiers example (builtin:cw_tohit_example).
    """
    b = hardpoint.load_scenario("builtin:cw_tohit_example").explain()[0]
    assert b.base == 7
    assert sorted(m.value for m in b.modifiers) == sorted([1, 4, -3, -2, -3])
    assert b.total_modifier == -3
    assert b.needed == 10
    assert b.possible and b.probability == Fraction(6, 36)


def test_cw_hit_01_natural_two_always_misses_and_twelve_is_not_automatic(rules):
    """CW-HIT-01: needing 2 or less still misses on a natural 2; needing 13 never hits, even on 12."""
    assert not tohit.is_hit(rules, 2, -5)
    assert tohit.is_hit(rules, 3, -5)
    assert tohit.hit_probability(rules, -5) == Fraction(35, 36)
    assert not tohit.is_hit(rules, 12, 13)
    assert tohit.hit_probability(rules, 13) == 0
    assert tohit.is_hit(rules, 12, 12) and tohit.hit_probability(rules, 12) == Fraction(1, 36)
    assert tohit.needed_to_hit(7, [hardpoint.Modifier("x", 2, "R"), hardpoint.Modifier("y", -5, "R")]) == 10


def test_cw_hit_01_impossible_shot_is_still_fired_and_rolled():
    """CW-HIT-01: a shot needing 13+ cannot hit but is fired (dice rolled) and counts for sustained fire."""
    s = build(vehicles=[car(), car("target", y=40.0, facing=0.0, speed=90)], attacks=[attack()], arena={"light": "night", "weather": "fog"})
    b = s.explain()[0]
    assert b.needed > 12 and not b.possible and b.probability == 0
    r = s.resolve(ScriptedDice([6, 6]))
    assert r.rolls[0].roll.total == 12 and not r.rolls[0].hit


@pytest.mark.parametrize("distance,expected", [(0.0, 4), (0.99, 4), (1.0, 0), (3.99, 0), (4.0, -1), (7.99, -1), (8.0, -2), (12.0, -3), (15.99, -3)])
def test_cw_hit_02_range_bands(rules, distance, expected):
    """CW-HIT-02: point blank under 1" +4; -1 for every full 4"."""
    assert sum(m.value for m in tohit.range_modifiers(rules, distance)) == expected


def test_cw_hit_02_range_in_a_scenario_uses_nearest_point():
    """CW-HIT-02 / CW-LOF-03: the range is to the nearest point of the target counter (8.0" -> -2)."""
    # firing point (0, 0.5); target car facing 90 at y = 8.75: its near edge (width 0.5) at y = 8.5
    b = explain_one(vehicles=[car(), car("target", y=8.75, facing=90.0)], attacks=[attack()])
    assert b.range == pytest.approx(8.0)
    assert mods(b)["CW-HIT-02"] == [-2]


# --- relative movement (CW-HIT-03) and speed bands (CW-HIT-04) -------------------------

@pytest.mark.parametrize("row,col,t,f,closing,expected", [
    ("front", "front", 60, 40, False, 30), ("front", "back", 60, 40, False, 10), ("front", "side", 60, 40, False, 30),
    ("back", "front", 60, 40, False, 10), ("back", "back", 60, 40, False, 30), ("back", "side", 60, 40, False, 30),
    ("left", "front", 60, 40, False, 60), ("right", "back", 60, 40, False, 60), ("left", "right", 60, 40, False, 20),
    ("left", "right", 60, 40, True, 60), ("front", "back", 40, 60, False, 10),
])
def test_cw_hit_03_movement_table_ruling(rules, row, col, t, f, closing, expected):
    """CW-HIT-03 (RULING): row = target arc the firer is in, column = firer arc the target is in; absolute differences."""
    assert tohit.relative_speed(rules, {row}, {col}, t, f, closing) == expected


def test_cw_hit_03_two_arcs_ruled_for_the_defender(rules):
    """CW-HIT-03 / CW-ARC-01: in two arcs, the cell with the highest speed (best for the defender) is used."""
    assert tohit.relative_speed(rules, {"front", "left"}, {"front"}, 60, 40, False) == 60


def test_cw_hit_03_literal_difference_setting(rules):
    """CW-HIT-03: the literal reading (T - F, negative gives nothing) is a data switch."""
    house = rules.with_overrides({"carwars": {"tohit": {"relative_movement": {"literal_difference": True}}}})
    assert tohit.relative_speed(house, {"left"}, {"right"}, 40, 60, False) == 0
    assert tohit.relative_speed(rules, {"left"}, {"right"}, 40, 60, False) == 20


def test_cw_hit_03_crossing_target_counts_full_speed_in_scenario():
    """CW-HIT-03: a target crossing in front (firer in its side arc) counts at full speed: 60 mph -> -4."""
    b = explain_one(vehicles=[car(speed=10), car("target", y=6.0, facing=90.0, speed=60)], attacks=[attack()])
    assert mods(b)["CW-HIT-04"] == [-4]


@pytest.mark.parametrize("speed,band", [(0, 0), (29.9, 0), (30, -1), (37.5, -1), (39.9, -1), (40, -2), (50, -3), (60, -4), (70, -5), (77.5, -5), (80, -6), (200, -6)])
def test_cw_hit_04_speed_bands(rules, speed, band):
    """CW-HIT-04: under 30 mph 0; [30,40) -1 ... 80 and over -6."""
    assert tohit.speed_band(rules, speed) == band


def test_cw_hit_04_not_moving_and_braced_bonuses():
    """CW-HIT-04: target not moving +1, firer not moving +1, a braced pedestrian firer +1."""
    b = explain_one(vehicles=[car(speed=0), car("target", y=3.0, speed=0)], attacks=[attack()])
    assert sorted(mods(b)["CW-HIT-04"]) == [1, 1]
    b = explain_one(vehicles=[car("target", y=3.0, speed=0)],
                    pedestrians=[{"id": "ped", "x": 0, "y": 0, "weapons": ["Rifle"], "braced": True}],
                    attacks=[attack(attacker="ped", weapon="Rifle")])
    assert sorted(mods(b)["CW-HIT-04"]) == [1, 1, 1]


# --- size and specific targets ------------------------------------------------------

@pytest.mark.parametrize("size,direction,expected", [
    ("compact", "front_back", -2), ("compact", "side", -1), ("car", "front_back", -1), ("car", "side", 0),
    ("cycle", "front_back", -3), ("cycle", "side", -2), ("sidecar", "side", -2), ("light_trike", "front_back", -3),
    ("light_trike", "side", -2), ("medium_trike", "front_back", -2), ("medium_trike", "side", -1),
    ("heavy_trike", "front_back", -1), ("heavy_trike", "side", -1), ("xheavy_trike", "front_back", -1), ("xheavy_trike", "side", 0),
])
def test_cw_hit_05_target_size(rules, size, direction, expected):
    """CW-HIT-05: size modifiers; a compact's -1 adds to any car's -1 from front or back (RULING)."""
    assert sum(m.value for m in tohit.target_size_modifiers(rules, size, direction)) == expected


def test_cw_hit_05_compact_from_the_back_in_scenario():
    """CW-HIT-05: shooting a compact (hunter) in the back: -1 compact, -1 car from behind."""
    b = explain_one(vehicles=[car(), car("target", y=3.0)], attacks=[attack(aim="back")])
    assert sorted(mods(b)["CW-HIT-05"]) == [-1, -1]


@pytest.mark.parametrize("kind,value", [("pedestrian", -3), ("pedestrian_prone", -4), ("pedestrian_head_up_behind_cover", -6), ("tire", -3),
                                        ("turret", -2), ("rider", -3), ("lamppost", -6), ("building", 10), ("searchlight", -3),
                                        ("ground", 4), ("sidecar", -2)])
def test_cw_hit_06_specific_targets(rules, kind, value):
    """CW-HIT-06: the specific-target modifiers."""
    assert sum(m.value for m in tohit.specific_target_modifiers(rules, kind)) == value


def test_cw_hit_06_tire_in_water():
    """CW-HIT-06: a tire in over 6" of water is -2 more; over 1 foot it cannot be targeted."""
    shallow = explain_one(vehicles=[car(), car("target", y=3.0, water_depth_ft=0.75)], attacks=[attack(aim="tire:front_left")])
    assert mods(shallow)["CW-HIT-06"] == [-2]
    dry = explain_one(vehicles=[car(), car("target", y=3.0, water_depth_ft=0.5)], attacks=[attack(aim="tire:front_left")])
    assert "CW-HIT-06" not in mods(dry)
    with pytest.raises(RuleViolation, match=r"attack\[0\]\.aim.*water over 1 foot.*CW-HIT-06"):
        build(vehicles=[car(), car("target", y=3.0, water_depth_ft=1.5)], attacks=[attack(aim="tire:front_left")])


def test_cw_hit_06_a_tire_in_exactly_one_foot_of_water_can_still_be_targeted():
    """CW-HIT-06: only water OVER a foot hides a tire. The hunter fires its MG at the front-left tire of a hunter 3"
    ahead standing in exactly 1 ft of water: the aim is accepted, at 7 base with -1 (compact), -1 (seen from the back),
    -3 (tire, CW-TGT-03) and -2 (water over 6", CW-HIT-06): needs 14, no hit possible, but the shot may be fired. A
    hair deeper (1.05 ft) the aim is refused.
    Source: CW seed, Water (a tire's 1 ft limit and its -2 beyond 6")."""
    assert tohit.tire_targetable(hardpoint.default_rules(), 1.0)
    assert not tohit.tire_targetable(hardpoint.default_rules(), 1.05)
    foot = explain_one(vehicles=[car(), car("target", y=3.0, water_depth_ft=1.0)], attacks=[attack(aim="tire:front_left")])
    assert foot.aimed_at == "tire front_left" and foot.base == 7
    assert [(m.value, m.rule) for m in foot.modifiers] == [(-1, "CW-HIT-05"), (-1, "CW-HIT-05"), (-3, "CW-TGT-03"),
                                                          (-2, "CW-HIT-06")]
    assert (foot.needed, foot.possible) == (14, False)
    with pytest.raises(RuleViolation, match=r"attack\[0\]\.aim.*water over 1 foot.*depth 1.05 ft.*CW-HIT-06"):
        build(vehicles=[car(), car("target", y=3.0, water_depth_ft=1.05)], attacks=[attack(aim="tire:front_left")])


def test_cw_hit_06_building_target():
    """CW-HIT-06: a building is +10 to hit."""
    b = explain_one(vehicles=[car()], buildings=[{"id": "target", "x": 0, "y": 3, "width": 2, "length": 1}], attacks=[attack()])
    assert mods(b)["CW-HIT-06"] == [10]


def test_cw_hit_07_weather_and_light_add(rules):
    """CW-HIT-07 (RULING): weather and light are separate conditions whose modifiers add: night in rain -5."""
    assert sum(m.value for m in tohit.visibility_modifiers(rules, Weather.RAIN, Light.NIGHT)) == -5
    assert sum(m.value for m in tohit.visibility_modifiers(rules, Weather.HEAVY_RAIN, Light.DAY)) == -3
    assert sum(m.value for m in tohit.visibility_modifiers(rules, Weather.FOG, Light.NIGHT)) == -6
    assert sum(m.value for m in tohit.visibility_modifiers(rules, Weather.CLEAR, Light.DAY, rubble=True, blinded=True, paint_on_windows=True)) == -16


def test_cw_hit_07_rubble_and_paint_in_scenario():
    """CW-HIT-07: a target in a rubble area -4; paint on the firer's windows -2 while it lasts."""
    b = explain_one(vehicles=[car(paint_until_turn=3), car("target", y=3.0)], attacks=[attack()],
                    areas=[{"id": "r", "kind": "rubble", "x": 0, "y": 3, "width": 2, "length": 2}], arena={"turn": 3})
    assert sorted(mods(b)["CW-HIT-07"]) == [-4, -2]
    b = explain_one(vehicles=[car(paint_until_turn=3), car("target", y=3.0)], attacks=[attack()], arena={"turn": 4})
    assert "CW-HIT-07" not in mods(b)


def test_cw_hit_08_only_the_best_computer_and_skills(rules):
    """CW-HIT-08: one computer counts; none for hand weapons or automatic; wounded -2; bad road -1."""
    assert [m.value for m in tohit.firer_modifiers(rules, computer=Computer.CYBERLINK)] == [3]
    assert [m.value for m in tohit.firer_modifiers(rules, computer=Computer.HI_RES)] == [2]
    assert tohit.firer_modifiers(rules, computer=Computer.TARGETING, hand_weapon=True) == []
    assert tohit.firer_modifiers(rules, computer=Computer.TARGETING, automatic=True) == []
    assert sum(m.value for m in tohit.firer_modifiers(rules, skill=2, firer_state=CrewState.WOUNDED, bad_surface=True)) == -1


def test_cw_hit_08_gunner_skill_and_hand_weapon_in_scenario():
    """CW-HIT-08: the shogun's gunner (+1) with the targeting computer (+1); a hand weapon gets no computer."""
    shogun = car(design="shogun")
    b = explain_one(vehicles=[shogun, car("target", y=3.0)], attacks=[attack(weapon="laser", firer="gunner")])
    assert sorted(mods(b)["CW-HIT-08"]) == [1, 1]
    shogun["crew"] = [{"id": "driver", "role": "driver", "seat": "front_left", "hand_weapons": ["Heavy Pistol"], "handgunner": 1}]
    b = explain_one(vehicles=[shogun, car("target", x=-3.0, y=0.0)], attacks=[attack(weapon="Heavy Pistol", firer="driver")])
    assert mods(b)["CW-HIT-08"] == [1]  # handgunner skill only


def test_cw_hit_09_sustained_fire():
    """CW-HIT-09: same weapon, same target, consecutive turns: 2nd +1, 3rd and later +2; a gap or a new target resets."""
    vs = [car(), car("target", y=3.0)]
    second = explain_one(vehicles=vs, attacks=[attack()], arena={"turn": 5},
                         history=[{"attacker": "car", "weapon": "mg", "target": "target", "streak": 1, "last_turn": 4}])
    assert mods(second)["CW-HIT-09"] == [1] and second.consecutive == 2
    third = explain_one(vehicles=vs, attacks=[attack()], arena={"turn": 5},
                        history=[{"attacker": "car", "weapon": "mg", "target": "target", "streak": 4, "last_turn": 4}])
    assert mods(third)["CW-HIT-09"] == [2]
    gap = explain_one(vehicles=vs, attacks=[attack()], arena={"turn": 5},
                      history=[{"attacker": "car", "weapon": "mg", "target": "target", "streak": 3, "last_turn": 3}])
    assert "CW-HIT-09" not in mods(gap)
    other = explain_one(vehicles=vs + [car("someone", x=5.0, y=3.0)], attacks=[attack()], arena={"turn": 5},
                        history=[{"attacker": "car", "weapon": "mg", "target": "someone", "streak": 3, "last_turn": 4}])
    assert "CW-HIT-09" not in mods(other)


def test_cw_hit_09_automatic_never_earns_sustained_fire(rules):
    """CW-HIT-09: shots on automatic never earn the bonus, and record a broken streak."""
    from hardpoint.carwars.phase import update_history

    assert tohit.sustained_fire_modifiers(rules, 3, automatic=True) == []
    s = build(vehicles=[car(weapon=[{"id": "mg", "type": "MG", "mount": "front", "automatic": True}]), car("target", y=3.0)],
              attacks=[attack()])
    b = s.explain()[0]
    assert "CW-HIT-09" not in mods(b)
    new, _ = update_history({}, [b], 1)
    assert new[("car", "mg")].streak == 0


@pytest.mark.parametrize("handling,value", [("trivial_skid", -3), ("minor_fishtail", -3), ("minor_skid", -6), ("moderate_skid", -6), ("major_fishtail", -6)])
def test_cw_hit_10_firer_handling(handling, value):
    """CW-HIT-10: the firer's own skid or fishtail this turn."""
    b = explain_one(vehicles=[car(handling=handling), car("target", y=3.0)], attacks=[attack()])
    assert mods(b)["CW-HIT-10"] == [value]


def test_cw_hit_10_maneuver_difficulty():
    """CW-HIT-10: a maneuver or hazard in the same phase subtracts its D rating."""
    b = explain_one(vehicles=[car(hazard_difficulty=3), car("target", y=3.0)], attacks=[attack()])
    assert mods(b)["CW-HIT-10"] == [-3]


def test_cw_hit_11_ground_shot_uses_both_speeds():
    """CW-HIT-11: a ground shot: +4 plus the speed modifiers of both vehicles (target 60 -> -4, firer 40 -> -2)."""
    b = explain_one(vehicles=[car(speed=40), car("target", y=3.0, speed=60)], attacks=[attack(aim="ground")])
    assert sorted(mods(b)["CW-HIT-11"]) == [-4, -2, 4]
    assert "CW-HIT-04" not in mods(b)


# --- targeting -----------------------------------------------------------------------

def test_cw_tgt_01_only_facing_sides_and_wrong_arc_penalty():
    """CW-TGT-01: a side must face the firer; a facing side whose arc lacks the firer costs -2."""
    # target ahead, turned 30 degrees clockwise: the firer is in its back arc and sees back and right
    vs = [car(), car("target", y=3.0, facing=30.0)]
    b = explain_one(vehicles=vs, attacks=[attack(aim="back")])
    assert set(b.facing_sides) == {"back", "right"}
    assert "CW-TGT-01" not in mods(b)
    b = explain_one(vehicles=vs, attacks=[attack(aim="right")])
    assert mods(b)["CW-TGT-01"] == [-2]
    with pytest.raises(RuleViolation, match=r"side front does not face the firer.*CW-TGT-01"):
        build(vehicles=vs, attacks=[attack(aim="front")])


def test_cw_tgt_01_auto_aim_picks_the_unpenalised_side():
    """CW-TGT-01: aim auto chooses a facing side whose arc holds the firer."""
    b = explain_one(vehicles=[car(), car("target", y=3.0, facing=30.0)], attacks=[attack()])
    assert b.side == "back"


def test_cw_tgt_02_underbody_never_a_normal_target():
    """CW-TGT-02: a normal weapon can never choose the underbody."""
    with pytest.raises(RuleViolation, match="underbody.*CW-TGT-02"):
        build(vehicles=[car(), car("target", y=3.0)], attacks=[attack(aim="underbody")])


def test_cw_tgt_02_a_rolled_vehicles_side_on_the_ground_is_its_underbody():
    """CW-TGT-02: a car 3" to the right of a hunter fires at the hunter's right side. Rolled onto that side, the
    hunter shows it to the ground: like the underbody, a normal weapon can never choose it (the aim is refused,
    naming the rule); rolled onto its left side, its right side, up in the air, is a target again.
    Source: CW seed, Car Targeting (a rolled car's side on the ground)."""
    from hardpoint.carwars.attack import Attack, explain_attack
    from hardpoint.carwars.enums import Side

    s = build(vehicles=[car(x=3.0, facing=270.0), car("target", y=0.0, x=0.0)])
    s.arena.vehicles["target"].rolled_onto = Side.RIGHT
    with pytest.raises(RuleViolation, match="underbody.*CW-TGT-02"):
        explain_attack(s.arena, Attack("a", "car", "mg", "target", "right"), s.rules)
    s.arena.vehicles["target"].rolled_onto = Side.LEFT
    assert explain_attack(s.arena, Attack("a", "car", "mg", "target", "right"), s.rules).side == "right"


def test_cw_tgt_03_tire_and_turret_and_top():
    """CW-TGT-03: tires -3, turrets -2 (only if there is one); the top of a car without a turret is no target."""
    vs = [car(), car("target", y=3.0, design="shogun")]
    assert mods(explain_one(vehicles=vs, attacks=[attack(aim="tire:back_left")]))["CW-TGT-03"] == [-3]
    assert mods(explain_one(vehicles=vs, attacks=[attack(aim="turret")]))["CW-TGT-03"] == [-2]
    with pytest.raises(RuleViolation, match="no turret.*CW-TGT-03"):
        build(vehicles=[car(), car("target", y=3.0)], attacks=[attack(aim="turret")])
    with pytest.raises(RuleViolation, match="CW-TGT-03"):
        build(vehicles=vs, attacks=[attack(aim="top")])
    with pytest.raises(ScenarioError, match="no such tire"):
        build(vehicles=vs, attacks=[attack(aim="tire:middle")])


def test_cw_tgt_03_a_rolled_cars_top_may_be_aimed_at_without_the_trikes_slope():
    """CW-TGT-03: a car without a turret can be hit on top only from above or while it rolls: rolled, its top is a
    target, at the size modifier alone; the -2 for a trike's steeply sloped top (CW-TGT-06) is not a car's.

    Hand-worked: a hunter 3" to the right of another, facing it (west), both standing; the target is in a roll (on
    its left side). The front MG (7) at its top: the firer is in the target's right arc, so the size is seen from
    the side: compact -1 (CW-HIT-05); target still +1, firer still +1: +1, needs 6. Dice 3+3 = 6 hit; damage
    1d = 4 on the top armour: 10 -> 6, nothing else. Not rolled, the same aim is refused (CW-TGT-03).
    Source: CW seed, Car Targeting (the top of a car without a turret, hit in a roll); Trike Targeting (the slope)."""
    from hardpoint.carwars.attack import Attack, explain_attack
    from hardpoint.carwars.enums import Side
    from hardpoint.carwars.phase import resolve_phase

    s = build(vehicles=[car(x=3.0, facing=270.0, speed=0), car("target", speed=0)])
    top = Attack("a", "car", "mg", "target", "top", firer="driver")
    with pytest.raises(RuleViolation, match="CW-TGT-03"):
        explain_attack(s.arena, top, s.rules)
    s.arena.vehicles["target"].rolled_onto = Side.LEFT
    b = explain_attack(s.arena, top, s.rules)
    assert b.firer_arcs == ("right",) and (b.aimed_at, b.side) == ("top", "top")
    assert [(m.rule, m.value) for m in b.modifiers] == [("CW-HIT-05", -1), ("CW-HIT-04", 1), ("CW-HIT-04", 1)]
    assert b.needed == 6
    r = resolve_phase(s.arena, [top], s.rules, ScriptedDice([3, 3, 4]))
    assert r.rolls[0].hit and [(e.component, e.before, e.after) for e in r.events if e.kind == "damage"] == [("top armour", 10, 6)]


def test_cw_tgt_06_trike_top_from_the_front_is_minus_five():
    """CW-TGT-06: a light trike's top from the front: -3 size and -2 top = -5. Source: seed Trike Targeting example."""
    b = hardpoint.load_scenario("builtin:cw_trike_top_example").explain()[0]
    assert sum(m.value for m in b.modifiers if m.rule in ("CW-HIT-05", "CW-TGT-06")) == -5


def test_cw_tgt_06_trike_top_never_from_behind():
    """CW-TGT-06: a trike's top cannot be targeted from behind."""
    with pytest.raises(RuleViolation, match="from behind.*CW-TGT-06"):
        build(vehicles=[car(), car("target", y=3.0, design="stinger")], attacks=[attack(aim="top")])


def test_cw_tgt_06_a_trikes_turret_may_be_aimed_at_from_behind():
    """CW-TGT-06: a trike's top is never a target from behind, but its turret is, from any direction.

    Hand-worked: a stinger (light trike) given a turret laser stands 3" ahead of a standing hunter, facing the same
    way: the hunter is in its back arc only. The hunter's front MG (7) at the turret: light trike seen from the
    back -3 (CW-HIT-05), turret -2 (CW-TGT-03), no -2 for the top's slope, target still +1, firer still +1: -3,
    needs 10. Dice 5+5 = 10 hit; damage 1d = 4 on the top armour, which covers the turret: 6 -> 2. The same shot
    at the top is refused (CW-TGT-06). Source: CW seed, Trike Targeting (its turret can be targeted from behind)."""
    turret = {"turret": True, "weapon": [{"id": "tl", "type": "Laser", "mount": "turret"},
                                         {"id": "rl", "type": "Rocket Launcher", "mount": "front", "ammo": 10}]}
    vs = [car(speed=0), car("target", y=3.0, speed=0, design="stinger", **turret)]
    s = build(vehicles=vs, attacks=[attack(aim="turret", firer="driver")])
    b = s.explain()[0]
    assert b.firer_arcs == ("back",) and (b.aimed_at, b.side) == ("turret", "top")
    assert [(m.rule, m.value) for m in b.modifiers] == [("CW-HIT-05", -3), ("CW-TGT-03", -2), ("CW-HIT-04", 1), ("CW-HIT-04", 1)]
    assert b.needed == 10
    r = s.resolve(ScriptedDice([5, 5, 4]))
    assert r.rolls[0].hit and [(e.component, e.before, e.after) for e in r.events if e.kind == "damage"] == [("top armour", 6, 2)]
    with pytest.raises(RuleViolation, match="from behind.*CW-TGT-06"):
        build(vehicles=vs, attacks=[attack(aim="top", firer="driver")])


def test_cw_tgt_06_a_reversed_trikes_top_is_still_out_of_reach_from_behind():
    """CW-TGT-06: a reversed trike swaps front and back, but its back is still its highest part: its top cannot be
    aimed at from behind, and can be from the front (front and back are not swapped for this).

    Hand-worked: a reversed stinger (light trike) 3" ahead of a standing hunter. Facing the same way, the hunter is in
    its back arc: a shot at the top is refused (CW-TGT-06). Turned to face the hunter (180), the hunter is in its
    front arc: the front MG (7) at the top takes light trike from the front -3 and the top's slope -2 (the seed's
    -5), target and firer still +1 +1: -3, needs 10. Source: CW seed, Trike Targeting (reversed trikes)."""
    with pytest.raises(RuleViolation, match="from behind.*CW-TGT-06") as err:
        build(vehicles=[car(speed=0), car("target", y=3.0, speed=0, design="stinger", reversed=True)], attacks=[attack(aim="top")])
    assert err.value.field == "attack[0].aim"
    b = explain_one(vehicles=[car(speed=0), car("target", y=3.0, facing=180.0, speed=0, design="stinger", reversed=True)],
                    attacks=[attack(aim="top")])
    assert b.firer_arcs == ("front",) and b.side == "top"
    assert [(m.rule, m.value) for m in b.modifiers] == [("CW-HIT-05", -3), ("CW-TGT-06", -2), ("CW-HIT-04", 1), ("CW-HIT-04", 1)]
    assert b.needed == 10


def test_cw_tgt_07_rider_from_the_side_only():
    """CW-TGT-07: a motorcycle rider is -3 and only from the side."""
    side = explain_one(vehicles=[car(), car("target", y=3.0, facing=90.0, design="razor")], attacks=[attack(aim="rider")])
    assert mods(side)["CW-TGT-07"] == [-3]
    with pytest.raises(RuleViolation, match="side only.*CW-TGT-07"):
        build(vehicles=[car(), car("target", y=3.0, design="razor")], attacks=[attack(aim="rider")])


def test_cw_tgt_07_pedestrians():
    """CW-TGT-07: pedestrian -3, prone -4, head up behind cover -6, prone fully behind cover: no hit possible."""
    def ped(**kw):
        return explain_one(vehicles=[car()], pedestrians=[{"id": "target", "x": 0, "y": 3, **kw}], attacks=[attack()])

    assert mods(ped())["CW-TGT-07"] == [-3]
    assert mods(ped(prone=True))["CW-TGT-07"] == [-4]
    assert mods(ped(cover="head_up"))["CW-TGT-07"] == [-6]
    hidden = ped(prone=True, cover="full")
    assert not hidden.possible and hidden.probability == 0


def test_cw_tgt_05_sidecar_only_from_its_side():
    """CW-TGT-05: a sidecar is -2 on top of the size modifier, and only from its side of the centre line."""
    right = explain_one(vehicles=[car(x=3.0, y=0.0, facing=270.0), car("target", design="outrider", x=0.0, y=0.0)],
                        attacks=[attack(aim="sidecar")])
    assert mods(right)["CW-TGT-05"] == [-2]
    assert mods(right)["CW-HIT-05"] == [-2]
    with pytest.raises(RuleViolation, match="CW-TGT-05"):
        build(vehicles=[car(x=-3.0, y=0.0, facing=90.0), car("target", design="outrider")], attacks=[attack(aim="sidecar")])


# --- arcs of fire --------------------------------------------------------------------

def test_cw_arc_02_body_weapon_only_in_its_arc():
    """CW-ARC-02: a front weapon cannot fire at a target behind; the error names the field and the rule."""
    with pytest.raises(RuleViolation) as err:
        build(vehicles=[car(), car("target", y=-3.0)], attacks=[attack()])
    assert err.value.field == "attack[0].target" and err.value.rule == "CW-ARC-02"


def test_cw_arc_02_turret_and_pedestrian_all_round():
    """CW-ARC-02: turret weapons and pedestrians fire all round."""
    b = explain_one(vehicles=[car(design="shogun"), car("target", y=-3.0)], attacks=[attack(weapon="laser")])
    assert b.lof
    b = explain_one(vehicles=[car("target", y=-3.0)], pedestrians=[{"id": "p", "x": 0, "y": 0, "weapons": ["Rifle"]}],
                    attacks=[attack(attacker="p", weapon="Rifle")])
    assert b.lof


def test_cw_arc_02_hand_weapon_from_a_car_uses_the_seat_side():
    """CW-ARC-02 / CW-LOF-01: a hand weapon fired from a car's left seat covers the left arc only, from the left side."""
    shooter = car(crew=[{"id": "driver", "role": "driver", "seat": "front_left", "hand_weapons": ["Heavy Pistol"]}])
    b = explain_one(vehicles=[shooter, car("target", x=-3.0)], attacks=[attack(weapon="Heavy Pistol", firer="driver")])
    assert b.origin == (-0.25, 0.0)
    with pytest.raises(RuleViolation, match="CW-ARC-02"):
        build(vehicles=[shooter, car("target", x=3.0)], attacks=[attack(weapon="Heavy Pistol", firer="driver")])


def test_cw_arc_02_cw_lof_01_a_sidecar_riders_hand_weapon_covers_the_sidecars_side_only():
    """CW-ARC-02 / CW-LOF-01: a sidecar rider's hand weapon fires from the middle of the sidecar's outer side and
    covers that side's arc only (not all round, as the cycle driver's does).

    Hand-worked: an outrider (cycle 1/4" wide and 1/2" long, sidecar of the same size beside it) at the origin facing
    north, standing; its whole counter is 1/2" wide, so a right sidecar's counter is centred at (0.125, 0) and its
    right side's middle is (0.25, 0); a left sidecar's is (-0.25, 0). The rider fires a heavy pistol (to-hit 7) at a
    standing compact 3" out on the sidecar's side: nearest edge 2.75" from the centre line, range 2.5" (no range
    modifier); compact -1, target still +1, firer still +1: needs 6. The same compact on the other side, straight
    ahead or straight behind is outside the sidecar side's arc: refused, naming the target field and CW-ARC-02.
    Source: CW seed, Line of Fire (hand weapons fired from a sidecar use the arc of their side)."""
    def sidecar(side):
        return {"side": side, "spaces": 3, "armour": {"front": 6, "back": 4, "left": 4, "right": 6, "underbody": 4},
                "crew": [{"id": "rider", "role": "passenger", "seat": "sidecar", "hand_weapons": ["Heavy Pistol"]}]}

    shot = attack(weapon="Heavy Pistol", firer="rider")
    for side, out, origin in (("right", 3.0, (0.25, 0.0)), ("left", -3.0, (-0.25, 0.0))):
        rider = car(design="outrider", speed=0, sidecar=sidecar(side))
        b = explain_one(vehicles=[rider, car("target", x=out, speed=0)], attacks=[shot])
        assert b.origin == pytest.approx(origin, abs=1e-9) and b.range == pytest.approx(2.5, abs=1e-9)
        assert (b.base, b.needed) == (7, 6)
        for x, y in ((-out, 0.0), (0.0, 3.0), (0.0, -3.0)):
            with pytest.raises(RuleViolation, match=f"outside the {side} arc.*CW-ARC-02") as err:
                build(vehicles=[rider, car("target", x=x, y=y, speed=0)], attacks=[shot])
            assert err.value.field == "attack[0].target"


def test_cw_arc_02_cycle_driver_hand_weapon_all_round():
    """CW-ARC-02: a cycle driver's hand weapon fires all round."""
    rider = car(design="razor", crew=[{"id": "driver", "role": "driver", "seat": "cycle", "hand_weapons": ["Heavy Pistol"]}])
    b = explain_one(vehicles=[rider, car("target", y=-3.0)], attacks=[attack(weapon="Heavy Pistol", firer="driver")])
    assert b.lof


# --- LOG-02 ----------------------------------------------------------------------------

def test_log_02_breakdown_without_rolling():
    """LOG-02: base, itemised modifiers with rule ids, needed, possible and the exact probability, with no dice."""
    s = hardpoint.load_scenario("builtin:cw_tohit_example")
    b = s.explain()[0]
    assert b.base == 7 and b.needed == 10 and b.possible
    assert all(m.rule for m in b.modifiers)
    assert b.probability == sum((p for v, p in hardpoint.parse_dice("2d").distribution().items() if v >= 10), Fraction(0))


def test_cw_tgt_01_auto_aim_takes_the_facing_side_with_the_best_chance():
    """CW-TGT-01 / CW-HIT-05 (issue 9, defect 13): aim "auto" picks, of the sides facing the firer, the one with the
    best chance to hit (ties: front, back, left, right). A firer in two arcs may hit either side without the -2.

    Hand-worked: the hunter (a compact) at the origin facing north; the shogun's centre on the line through its
    front-right corner at 45 degrees, so the shogun is in both the front and the right arc. Turret laser 6; computer
    +1, gunner skill +1, both still +1 +1; compact -1: the right side needs 6 - 3 = 3; the front also takes car
    from the front -1 and would need 4. Dice 2+1 = 3 hits the right; damage 3d = 1+1+1: right armour 15 -> 12.
    Source: CW seed, Car Targeting (a firer on the dividing line may target either side); Targeting Modifiers."""
    s = build(vehicles=[car("firer", x=2.25, y=2.5, speed=0, design="shogun"), car("target", speed=0)],
              attacks=[attack(attacker="firer", weapon="laser", firer="gunner")])
    b = s.explain()[0]
    assert set(b.firer_arcs) == {"front", "right"} and set(b.facing_sides) == {"front", "right"}
    assert (b.side, b.needed) == ("right", 3)
    front = build(vehicles=[car("firer", x=2.25, y=2.5, speed=0, design="shogun"), car("target", speed=0)],
                  attacks=[attack(attacker="firer", weapon="laser", firer="gunner", aim="front")]).explain()[0]
    assert front.needed == 4
    r = s.resolve(ScriptedDice([2, 1, 1, 1, 1]))
    assert r.rolls[0].hit and [(e.component, e.before, e.after) for e in r.events if e.kind == "damage"] == [("right armour", 15, 12)]
    both_backends(s)


def test_cw_hit_11_ground_shot_takes_the_ground_bonus_and_both_speeds_not_size_or_side():
    """CW-HIT-11 (issue 9, defect 14): a shot at the ground by a vehicle takes the ground bonus (+4) and the speed
    modifiers of both vehicles, not the target's size or side modifiers.

    Hand-worked: the hunter 4" behind another compact, both at 45 mph north; its front MG at the ground by the target.
    MG 7; ground +4; target 45 mph -2; firer 45 mph -2; range 3" 0: total 0, needs 7 (with the compact -1 and car
    from behind -1 it would need 9). Dice 3+4 = 7 hits; damage 1d = 5 on the back armour 15 -> 10.
    Source: CW seed, Targeting Modifiers (a shot at the ground near a vehicle)."""
    s = build(vehicles=[car(speed=45), car("target", y=4.0, speed=45)], attacks=[attack(aim="ground", firer="driver")])
    b = s.explain()[0]
    assert sorted((m.rule, m.value) for m in b.modifiers) == [("CW-HIT-11", -2), ("CW-HIT-11", -2), ("CW-HIT-11", 4)]
    assert b.needed == 7 and "CW-HIT-05" not in mods(b) and "CW-TGT-01" not in mods(b)
    r = s.resolve(ScriptedDice([3, 4, 5]))
    assert r.rolls[0].hit and [(e.component, e.before, e.after) for e in r.events if e.kind == "damage"] == [("back armour", 15, 10)]
    both_backends(s)


def test_cw_hit_10_skid_and_fishtail_penalties_last_for_the_rest_of_their_turn_only():
    """CW-HIT-10 (issue 9, defect 11): a trivial skid or minor fishtail costs -3 to hit, a minor or moderate skid or a
    major fishtail -6, until the turn it happened in ends; in the next turn it no longer counts.

    Hand-worked, two turns: the hunter, in a trivial skid, fires its MG at a compact 4" ahead (its back) in phase 1
    of turns 1 and 2; both still. Turn 1: MG 7; compact -1, car from the back -1; both still +1 +1; trivial skid -3:
    total -3, needs 10. Turn 2: the skid is over and sustained fire gives +1 (second turn at the same target): total
    +1, needs 6. Source: CW seed, Targeting Modifiers (attacking vehicle skids or fishtails)."""
    plan = [attack("a1", firer="driver", turn=1, phase=1), attack("a2", firer="driver", turn=2, phase=1)]
    s = build(vehicles=[car(speed=0, handling="trivial_skid"), car("target", y=4.0, speed=0)], attacks=plan,
              scenario={"name": "t", "ruleset": "carwars", "turns": 2})
    r = s.resolve(hardpoint.SeededDice(1))
    first, second = [b for p in r.phases for b in p.breakdowns]
    assert mods(first)["CW-HIT-10"] == [-3] and first.needed == 10
    assert "CW-HIT-10" not in mods(second) and mods(second)["CW-HIT-09"] == [1] and second.needed == 6
    assert any(e.kind == "state" and e.field == "handling" and e.before == "trivial_skid" and e.after is None for e in r.events)


def test_cw_hit_11_a_missed_ground_shot_is_reported_as_a_miss_and_does_not_scatter():
    """CW-HIT-11 (ruling, docs/rulings.md): a missed shot at the ground would scatter by the grenade rules, which the
    seed does not give: the engine reports the miss and places the shot nowhere, so nothing is damaged and no die is
    rolled for where it landed.

    Hand-worked: the hunter, its front MG swapped for a grenade launcher (to-hit 7, burst 2"), 4" behind a compact,
    both at 45 mph north, fires at the ground by the compact's back; a pedestrian stands at (0.75, 3.25), 0.79" from
    the aim point (0, 3.5). GL 7; ground +4; target 45 mph -2; firer 45 mph -2: needs 7. Dice 3+3 = 6 miss: the roll
    is the only dice (a third die would exhaust the script), no damage roll, no damage or burst event, one grenade
    spent (10 -> 9), the compact and the pedestrian untouched. For contrast, 4+4 = 8 hits: 1d = 3 on the back
    armour (15 -> 12) and the burst's 1d = 5 on the pedestrian. Source: CW seed, Targeting Modifiers (a missed shot
    at the ground scatters by rules on a page the seed lacks)."""
    gl = [{"id": "gl", "type": "Grenade Launcher", "mount": "front", "ammo": 10}]
    doc = dict(vehicles=[car(speed=45, weapon=gl), car("target", y=4.0, speed=45)], pedestrians=[{"id": "p", "x": 0.75, "y": 3.25}],
               attacks=[attack(weapon="gl", aim="ground", firer="driver")])
    s = build(**doc)
    assert s.explain()[0].needed == 7
    dice = ScriptedDice([3, 3])
    r = s.resolve(dice)
    assert dice.remaining == 0
    (roll,) = r.rolls
    assert (roll.aimed_at, roll.roll.total, roll.needed, roll.hit, roll.damage_roll, roll.damage) == ("ground by back", 6, 7, False, None, None)
    assert [e.why for e in r.events if e.kind == "dice"] == ["a to hit"]
    assert [e for e in r.events if e.kind == "damage"] == []
    assert [(e.subject, e.field, e.before, e.after) for e in r.events if e.kind == "state"] == [("car gl", "ammo", 10, 9)]
    assert r.state["vehicles"]["target"]["armour"]["back"] == 15 and r.state["pedestrians"]["p"] == {"hits": 0, "body_armour": 0, "state": "ok"}
    hit = build(**doc).resolve(ScriptedDice([4, 4, 3, 5]))
    assert [e.why for e in hit.events if e.kind == "dice"] == ["a to hit", "a damage", "burst on p"]
    assert [(e.component, e.before, e.after) for e in hit.events if e.kind == "damage"] == [("back armour", 15, 12), ("person", 3, 0)]
    both_backends(s)


def test_cw_lof_04_a_billionth_of_an_inch_of_cloud_is_none(rules):
    """CW-LOF-04: a line that crosses a cloud for 1e-9" (the geometry's tolerance, EPS) crosses none: no modifier;
    at 2e-9" it is a crossing, -1 (one half-inch, rounded up).

    Source: SPEC CW-LOF-04 (-1 per 1/2" crossed, rounded up); docs/geometry.md (EPS = 1e-9")."""
    assert tohit.cloud_modifier(rules, 1e-9) == []
    assert [m.value for m in tohit.cloud_modifier(rules, 2e-9)] == [-1]
