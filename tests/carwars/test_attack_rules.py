"""Attacks, hand-worked: a substitute driver who steered cannot fire a vehicle weapon (CW-CREW-04), when two
units move toward each other (CW-HIT-03's footnote), who is refused when no default firer can act (CW-HIT-08),
a cycle driver's hand weapon (CW-ARC-02), the hand weapons' 20" (CW-HAND-01), a rider's side (CW-TGT-07) and a
breakdown read back (LOG-02).

Each test asserts the refusal's rule and field, the decision the movement table reads, or the breakdown's figures.
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


@pytest.mark.parametrize("a,b,closing", [
    (_unit(20, 0, 270, 40), _unit(10, 0, 90, 40), True),    # away from the origin: head on, west toward east
    (_unit(20, 0, 90, 40), _unit(10, 0, 270, 40), False),   # back to back: each drives away from the other
    (_unit(0, 0, 80, 5), _unit(0, 1, 180, 40), True),       # 5 mph at 80 degrees off the line: 0.87 toward
])
def test_cw_hit_03_toward_each_other_is_read_on_the_line_between_them_wherever_they_are(a, b, closing):
    """CW-HIT-03 (the side/side cell): "toward each other" is read on the line from one unit to the other, wherever
    they stand on the map, and any component of a velocity along it counts, however small.

    Source: by hand: the firer at (20, 0) driving west at 40 mph and a unit at (10, 0) driving east at 40 mph
    close (each velocity points at the other); turned back to back they do not. A firer 1" south of a unit coming
    straight at it, moving at 5 mph at 80 degrees (east of north), has 5 cos 80 = 0.87 of that toward the unit:
    they close. Source: SPEC CW-HIT-03."""
    assert _closing(a, b) is closing


def test_log_02_a_breakdown_rebuilt_without_a_sustained_fire_count_is_a_first_turn_of_fire():
    """LOG-02 / CW-HIT-09: a to-hit breakdown read back from a document that has no "consecutive" entry (one
    written before the count was recorded) counts the shot as the first turn of fire at that target (1), the
    count explain_attack gives a shot with no history.

    Source: CW-HIT-09 (the second consecutive turn is the first that earns a bonus)."""
    from hardpoint.events import event_from_dict

    b = _scenario([{"id": "car", "design": "hunter", "speed": 0}, {"id": "t", "design": "hunter", "y": 5.0, "speed": 0}],
                  {"id": "a", "attacker": "car", "weapon": "mg", "target": "t"}).explain()[0]
    assert b.consecutive == 1
    doc = b.to_dict()
    del doc["consecutive"]
    assert event_from_dict(doc).consecutive == 1


def _scenario(vehicles, attack, **extra):
    return hardpoint.parse_scenario({"scenario": {"name": "t", "ruleset": "carwars"}, "vehicle": vehicles,
                                     "attack": [attack], **extra})


def test_cw_hit_08_with_nobody_able_the_first_default_firer_is_the_one_refused():
    """CW-HIT-08 / CW-CREW-01: the shogun's front MG, fired with no firer named, goes to its gunner, then its
    driver; with both unconscious (2 hits) the first of them, the gunner, is the one named in the refusal.

    Source: SPEC CW-HIT-08 (default firers: the gunners, then the driver) and CW-CREW-01 (an unconscious
    character does nothing)."""
    crew = [{"id": "driver", "role": "driver", "seat": "front_left", "hits": 2},
            {"id": "gunner", "role": "gunner", "seat": "front_right", "hits": 2}]
    with pytest.raises(RuleViolation, match="'gunner' is unconscious") as err:
        _scenario([{"id": "car", "design": "shogun", "speed": 0, "crew": crew},
                   {"id": "t", "design": "hunter", "y": 5.0, "speed": 0}],
                  {"id": "a", "attacker": "car", "weapon": "mg", "target": "t"})
    assert (err.value.rule, err.value.field, err.value.value) == ("CW-CREW-01", "attack[0].firer", "gunner")


def test_cw_arc_02_a_cycle_drivers_hand_weapon_is_aimed_fire_and_may_aim_at_a_tire():
    """CW-ARC-02 / CW-TGT-03: a cycle driver's heavy pistol fires from the counter centre all round, and it is
    aimed fire, not automatic (CW-AUTO-01): he may aim at a tire of a standing compact 3" behind him. Heavy pistol 7;
    compact -1, car seen from the back -1, tire -3, both standing +1 +1 (2.5" to the front edge: no range
    modifier): needs 10.

    Source: SPEC CW-ARC-02, CW-HIT-05, CW-HIT-06 (tire -3), CW-HIT-04."""
    rider = {"id": "car", "design": "razor", "speed": 0,
             "crew": [{"id": "driver", "role": "driver", "seat": "cycle", "hand_weapons": ["Heavy Pistol"]}]}
    b = _scenario([rider, {"id": "t", "design": "hunter", "y": -3.0, "speed": 0}],
                  {"id": "a", "attacker": "car", "weapon": "Heavy Pistol", "target": "t", "firer": "driver",
                   "aim": "tire:front_left"}).explain()[0]
    assert b.automatic is False and b.aimed_at == "tire front_left"
    assert b.origin == (0.0, 0.0)
    assert [(m.value, m.rule) for m in b.modifiers] == [(-1, "CW-HIT-05"), (-1, "CW-HIT-05"), (-3, "CW-TGT-03"),
                                                        (1, "CW-HIT-04"), (1, "CW-HIT-04")]
    assert b.needed == 10


def test_cw_hand_01_a_hand_weapon_reaches_exactly_twenty_inches():
    """CW-HAND-01: a hand weapon fires 20" at most: a standing pedestrian's rifle (7) at a standing compact whose
    back edge is exactly 20" away may hit (needs 12: compact -1, seen from the back -1, 20" -5, both standing
    +1 +1); 1e-6" farther it may not, and the breakdown says why.

    Source: SPEC CW-HAND-01 (other hand weapons 20" at most), CW-HIT-02 (-1 per full 4")."""
    def shot(y):
        return _scenario([{"id": "t", "design": "hunter", "y": y, "speed": 0}],
                         {"id": "a", "attacker": "p", "weapon": "Rifle", "target": "t"},
                         pedestrian=[{"id": "p", "x": 0, "y": 0, "weapons": ["Rifle"]}]).explain()[0]

    at = shot(20.5)
    assert at.range == 20.0 and at.possible and at.reason == "" and at.needed == 12
    beyond = shot(20.5 + 1e-6)
    assert beyond.range == 20.000001 and not beyond.possible
    assert beyond.reason == "beyond the hand weapon's 20\" range (CW-HAND-01)"


def test_cw_tgt_07_a_rider_is_hit_from_the_flank_facing_the_firer():
    """CW-TGT-07: a shot at a motorcycle's rider comes from the side facing the firer: a razor 3" north of the
    firer, facing east, shows its right side, and the breakdown names it.

    Source: SPEC CW-TGT-07 (rider from the side only); facing east, a cycle's right side faces south."""
    b = _scenario([{"id": "car", "design": "hunter"}, {"id": "t", "design": "razor", "y": 3.0, "facing": 90.0}],
                  {"id": "a", "attacker": "car", "weapon": "mg", "target": "t", "aim": "rider"}).explain()[0]
    assert b.facing_sides == ("right",) and b.side == "right" and b.aimed_at == "rider"
