"""Collisions, hand-worked: a vehicle rolling off-road (CW-COL-04).

The test asserts every roll, every component's points before and after, and the ledger's books.
"""
import hardpoint
from hardpoint import ScriptedDice
from hardpoint.carwars.collision import offroad_roll
from hardpoint.carwars.enums import Side
from hardpoint.carwars.model import build_vehicle

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
