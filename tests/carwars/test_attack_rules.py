"""Attacks, hand-worked: a substitute driver who steered cannot fire a vehicle weapon (CW-CREW-04), and when two
units move toward each other (CW-HIT-03's footnote).

Each test asserts the refusal's rule and field, or the decision the movement table reads.
"""
from types import SimpleNamespace

import pytest

import hardpoint
from hardpoint import RuleViolation
from hardpoint.carwars.attack import _closing


def test_cw_crew_04_a_substitute_who_steered_this_turn_cannot_fire_the_vehicles_weapon():
    """CW-CREW-04: the shogun's gunner, who took the controls and steered this turn, is refused the front MG this
    turn (CW-CREW-04, on the firer field); the turn after, he fires. Source: SPEC CW-CREW-04 (not fire on a turn he
    steers)."""
    s = hardpoint.parse_scenario({"scenario": {"name": "t", "ruleset": "carwars"},
                                  "vehicle": [{"id": "v", "design": "shogun", "speed": 0},
                                              {"id": "t", "design": "hunter", "y": 5.0, "speed": 0}],
                                  "attack": [{"id": "a", "attacker": "v", "weapon": "mg", "target": "t", "firer": "gunner"}]})
    v = s.arena.vehicles["v"]
    v.substitute, v.substitute_from_turn, v.steered_turn = "gunner", 1, 1
    with pytest.raises(RuleViolation, match="'gunner' steered this turn and cannot also fire") as err:
        s.explain()
    assert (err.value.rule, err.value.field) == ("CW-CREW-04", "attack[0].firer")
    v.steered_turn = 0
    assert s.explain()[0].possible


def _unit(x, y, facing, speed):
    return SimpleNamespace(x=x, y=y, facing=facing, speed=speed)


@pytest.mark.parametrize("b,closing", [
    (_unit(10, 10, 225, 40), True),     # straight at the firer, diagonally
    (_unit(10, 10, 270, 40), True),     # westward: part of its motion is toward the firer
    (_unit(10, 10, 45, 40), False),     # straight away
    (_unit(10, 10, 135, 40), False),    # across, neither toward nor away (its velocity is square to the line)
    (_unit(10, 10, 0, 0), False),       # stopped: it moves toward no one
])
def test_cw_hit_03_moving_toward_each_other_means_both_move_toward_the_other(b, closing):
    """CW-HIT-03 (the side/side cell: target speed if they move toward each other): the firer at the origin drives
    north-east (facing 45) toward a unit at (10, 10); they close only if that unit's velocity has a component toward
    the firer too. Source: SPEC CW-HIT-03."""
    a = _unit(0, 0, 45, 40)
    assert _closing(a, b) is closing


def test_cw_hit_08_a_cycle_riders_hand_weapon_gets_no_computer_bonus():
    """CW-HIT-08 / CW-HAND-01: the razor's rider fires his heavy pistol (7) at a compact 4.5" ahead: its targeting
    computer does not help a hand weapon. Modifiers: compact -1, car seen from the back -1, 4.5" -1, both still +1 +1:
    needs 8, and no CW-HIT-08 modifier. Source: SPEC CW-HIT-08 (none of them for hand weapons)."""
    s = hardpoint.parse_scenario({
        "scenario": {"name": "t", "ruleset": "carwars"},
        "vehicle": [{"id": "bike", "design": "razor", "speed": 0, "computer": "targeting",
                     "crew": [{"id": "driver", "role": "driver", "seat": "cycle", "hand_weapons": ["Heavy Pistol"]}]},
                    {"id": "t", "design": "hunter", "y": 5.0, "speed": 0}],
        "attack": [{"id": "a", "attacker": "bike", "weapon": "Heavy Pistol", "target": "t", "firer": "driver"}]})
    b = s.explain()[0]
    assert [(m.value, m.rule) for m in b.modifiers] == [(-1, "CW-HIT-05"), (-1, "CW-HIT-05"), (-1, "CW-HIT-02"),
                                                        (1, "CW-HIT-04"), (1, "CW-HIT-04")]
    assert b.needed == 8


def test_cw_hit_08_a_car_occupants_hand_weapon_gets_no_computer_bonus():
    """CW-HIT-08 / CW-HAND-01: the hunter's driver (front-left seat) fires his heavy pistol (7) out of his side at a
    compact 5" to the left, broadside on: the car's targeting computer does not help. Modifiers: compact -1, 4.5" -1,
    both still +1 +1: needs 7, no CW-HIT-08 modifier. Source: SPEC CW-HIT-08."""
    s = hardpoint.parse_scenario({
        "scenario": {"name": "t", "ruleset": "carwars"},
        "vehicle": [{"id": "car", "design": "hunter", "speed": 0, "computer": "targeting",
                     "crew": [{"id": "driver", "role": "driver", "seat": "front_left", "hand_weapons": ["Heavy Pistol"]}]},
                    {"id": "t", "design": "hunter", "x": -5.0, "speed": 0}],
        "attack": [{"id": "a", "attacker": "car", "weapon": "Heavy Pistol", "target": "t", "firer": "driver"}]})
    b = s.explain()[0]
    assert [(m.value, m.rule) for m in b.modifiers] == [(-1, "CW-HIT-05"), (-1, "CW-HIT-02"), (1, "CW-HIT-04"), (1, "CW-HIT-04")]
    assert b.needed == 7
