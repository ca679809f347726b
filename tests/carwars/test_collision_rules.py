"""Collisions, hand-worked (CW-COL-01..04): the split of a layer, metal armour's books, the interior of a vertical
collision, a vehicle rolling off-road, weight factors, a 0 mph collision.

The test asserts every roll, every component's points before and after, and the ledger's books.
"""
from fractions import Fraction

import hardpoint
from hardpoint import ScriptedDice
from hardpoint.carwars.collision import (collision_damage, collision_hits, collision_split, metal_armour_absorb, offroad_roll,
                                        ram_dice, weight_factor)
from hardpoint.carwars.damage import Ledger
from hardpoint.carwars.enums import Side
from hardpoint.carwars.model import build_vehicle
from hardpoint.carwars.phase import Collision, resolve_phase

from .conftest import build, car

RULES = hardpoint.default_rules()


def test_cw_col_04_rolling_off_road_each_side_on_the_ground_and_each_tire_take_1d_minus_2():
    """CW-COL-04: the hunter rolls onto its left side off-road: that side takes 1d-2 (5 - 2 = 3: left armour
    15 -> 12), and each tire 1d-2 (3, 1, 6, 2: 1, 0, 4, 0 hits: front left 6 -> 5, back left 6 -> 2). The ledger
    books 8 hits dealt, 8 absorbed, none lost. Source: SPEC CW-COL-04 (1d-2, not 1d; tires 1d-2)."""
    v = build_vehicle(RULES, {"id": "v", "design": "hunter"})
    ledger = offroad_roll(RULES, v, [Side.LEFT], ScriptedDice([5, 3, 1, 6, 2]))
    assert [(e.why, e.expr, e.total) for e in ledger.events if e.kind == "dice"] == [
        ("off-road roll: left hits the ground", "1d-2", 3), ("off-road roll: tire front_left", "1d-2", 1),
        ("off-road roll: tire front_right", "1d-2", 0), ("off-road roll: tire back_left", "1d-2", 4),
        ("off-road roll: tire back_right", "1d-2", 0)]
    assert [(e.component, e.hits, e.before, e.after) for e in ledger.events if e.kind == "damage"] == [
        ("left armour", 3, 15, 12), ("tire front_left", 1, 6, 5), ("tire back_left", 4, 6, 2)]
    assert (ledger.dealt, ledger.absorbed, ledger.lost) == (8, 8, 0)


def test_cw_col_04_a_pedestrian_run_into_deals_a_fifth_of_the_roll_rounded_up():
    """CW-COL-04: the weight factor of what does the hitting: a pedestrian is x1/5, whatever weight is given. A hunter
    runs into a pedestrian at 40 mph (3d): in the phase its collision rolls [6, 6, 5] = 17, x1/5 = 3.4, rounded up 4
    hits on its front armour (20 -> 16); a D1 hazard for the 4 hits. The same roll with a 6,000 lb weight and no
    pedestrian flag would be x1 (17). At 30 mph (1d) a 5 is exactly 1 hit; a 6 is 1.2, rounded up 2.
    Source: docs/rulings.md, Collisions (weight factor; a pedestrian x1/5, rounded up), SPEC CW-COL-04."""
    assert weight_factor(RULES, None, pedestrian=True) == weight_factor(RULES, 6000, pedestrian=True) == Fraction(1, 5)
    assert weight_factor(RULES, 6000) == 1
    s = build(vehicles=[car("v")])
    dice = ScriptedDice([6, 6, 5])
    result = resolve_phase(s.arena, [], s.rules, dice, collisions=[Collision("c1/v", "v", Side.FRONT, 40, None, pedestrian=True)])
    assert [(e.why, e.expr, e.total, e.rule) for e in result.events if e.kind == "dice"] == [
        ("collision damage at 40 mph", "3d", 17, "CW-COL-04")]
    assert [(e.target, e.component, e.hits, e.before, e.after) for e in result.events if e.kind == "damage"] == [
        ("v", "front armour", 4, 20, 16)]
    assert "v took 4 hit(s) this phase: a D1 hazard" in [e.text for e in result.events if e.kind == "note"]
    assert dice.remaining == 0
    for faces, hits in (([5], 1), ([6], 2)):
        ledger = Ledger("v")
        assert collision_hits(RULES, ScriptedDice(faces), 30, ledger, pedestrian=True) == hits
        assert [(e.expr, e.total) for e in ledger.events] == [("1d", faces[0])]
    assert collision_hits(RULES, ScriptedDice([6, 6, 5]), 40, Ledger("v"), 6000) == 17


def test_cw_col_04_a_collision_at_0_mph_rolls_nothing_and_does_nothing():
    """CW-COL-04: a collision at 0 mph has no ram dice: no roll, no hits, no damage; at 1 mph (rounded up to the 5 mph
    row) it is already 1d-4. In a phase, a 0 mph collision is reported and leaves the hunter's front armour at 20.
    Source: seeds/carwars/collisions.toml (the ram table from 5 mph up; docs/rulings.md), SPEC CW-COL-04."""
    assert ram_dice(RULES, 0) is None and str(ram_dice(RULES, 1)) == "1d-4"
    ledger = Ledger("v")
    assert collision_hits(RULES, ScriptedDice([]), 0, ledger) == 0
    assert ledger.events == [] and (ledger.dealt, ledger.absorbed, ledger.lost) == (0, 0, 0)
    s = build(vehicles=[car("v")])
    result = resolve_phase(s.arena, [], s.rules, ScriptedDice([]), collisions=[Collision("c1/v", "v", Side.FRONT, 0, None)])
    assert [e for e in result.events if e.kind in ("dice", "damage")] == []
    assert "c1/v: v collides on its front at 0 mph" in [e.text for e in result.events if e.kind == "note"]
    assert s.arena.vehicles["v"].armour[Side.FRONT] == 20


def test_cw_col_04_heavier_than_the_last_class_counts_multiples_of_the_last_weight():
    """CW-COL-04: beyond the table's last weight class the factor is one more per multiple of the last class's weight:
    ceil(weight / last) - 1 (docs/rulings.md, Collisions; the schema's weight_classes). A house table of three classes
    (1,000 lb x1/4, 2,000 lb x1/2, 4,000 lb x3/4): 6,000 lb is ceil(6000 / 4000) - 1 = 1 and 12,001 lb is
    ceil(3.00025) - 1 = 3, counted by the last class (4,000 lb), not by the one before it (2,000 lb would give 2 and 6)."""
    house = RULES.with_overrides({"carwars": {"collisions": {"weight_classes": [[1000, 0.25], [2000, 0.5], [4000, 0.75]]}}})
    assert [weight_factor(house, w) for w in (1000, 1500, 4000, 6000, 8000, 8001, 12001)] == [
        Fraction(1, 4), Fraction(1, 2), Fraction(3, 4), 1, 1, 2, 3]


def test_cw_col_01_a_survivor_left_with_one_dp_takes_the_overflow_split_again():
    """CW-COL-01 (RULING): 4 collision hits on a cargo layer of a 1-DP and a 3-DP item: 2 each, no odd point; the first
    absorbs 1 (1 over), the second 2 (1 DP left). The 1 over is split again among the survivors: the second item, with
    exactly 1 DP left, takes it. Both destroyed, nothing passes on: 4 = 1 + 3."""
    v = build_vehicle(RULES, {"id": "v", "design": "hunter", "cargo": [{"id": "a", "dp": 1}, {"id": "b", "dp": 3}]})
    ledger = Ledger("v", dealt=4)
    assert collision_split(v, v.cargo, 4, ScriptedDice([]), ledger, "cargo") == 0
    assert [(e.component, e.hits, e.before, e.after) for e in ledger.events if e.kind == "damage"] == [
        ("cargo a", 1, 1, 0), ("cargo b", 2, 3, 1), ("cargo b", 1, 1, 0)]
    assert [c.dp for c in v.cargo] == [0, 0] and ledger.absorbed == 4


def test_cw_col_02_metal_armour_books_what_it_stops_as_absorbed():
    """CW-COL-02: the seed's brick wall on 8 metal front armour: 29 hits, 3 x 8 = 24 stopped, the armour loses
    ceil(24 / 3) = 8 capped at half of 8 = 4 (8 -> 4), 5 go inward. The ledger books the 24 as absorbed.
    Source: CW seed, Collision Damage example (8 metal, 29 damage: 24 stopped, 5 inward, 4 left)."""
    v = build_vehicle(RULES, {"id": "v", "design": "hunter", "armour_material": "metal",
                              "armour": {"front": 8, "back": 5, "left": 5, "right": 5, "top": 5, "underbody": 5}})
    ledger = Ledger("v", dealt=29)
    assert metal_armour_absorb(RULES, v, Side.FRONT, 29, ledger) == 5
    assert [(e.component, e.hits, e.before, e.after) for e in ledger.events if e.kind == "damage"] == [
        ("front metal armour", 24, 8, 4)]
    assert (ledger.absorbed, v.armour[Side.FRONT]) == (24, 4)


def test_cw_col_03_an_underbody_collision_splits_over_the_power_plant_crew_and_cargo():
    """CW-COL-03: from below, past the armour, the interior is one layer: the power plant, each crew member, each cargo
    item. A hunter with its underbody armour gone takes 3 collision hits: 1 each, no odd point to roll: the power
    plant 8 -> 7, the driver's body armour 3 -> 2, the spare ammunition 1 -> 0; the top armour (10) is untouched.
    Books: 3 = 1 + 1 + 1."""
    v = build_vehicle(RULES, {"id": "v", "design": "hunter"})
    v.armour[Side.UNDERBODY] = 0
    dice = ScriptedDice([])
    ledger = collision_damage(RULES, v, Side.UNDERBODY, 3, dice)
    assert [(e.component, e.hits, e.before, e.after) for e in ledger.events if e.kind == "damage"] == [
        ("power plant", 1, 8, 7), ("driver body armour", 1, 3, 2), ("cargo spare_ammo", 1, 1, 0)]
    assert (v.power_plant, v.armour[Side.TOP], ledger.absorbed, ledger.lost) == (7, 10, 3, 0)
