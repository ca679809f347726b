"""Collisions, hand-worked (CW-COL-04): a vehicle rolling off-road, a pedestrian's weight factor, a 0 mph collision.

The test asserts every roll, every component's points before and after, and the ledger's books.
"""
from fractions import Fraction

import hardpoint
from hardpoint import ScriptedDice
from hardpoint.carwars.collision import collision_hits, offroad_roll, ram_dice, weight_factor
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
