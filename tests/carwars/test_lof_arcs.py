"""Line of fire, range and arcs in scenarios: CW-LOF-01..04, CW-ARC-01 (geometry itself: test_geometry.py)."""
import pytest

from hardpoint.carwars import geometry as geo

from .conftest import attack, build, car, explain_one, explain_only, mods

TARGET = car("target", y=6.0, facing=90.0)


def test_cw_lof_01_building_blocks():
    """CW-LOF-01: a building squarely between firer and target leaves no line of fire: explained, the shot is
    impossible; declared, it is refused (no line of fire, no shot)."""
    wall = [{"id": "wall", "x": 0, "y": 3, "width": 4, "length": 1}]
    b = explain_only(vehicles=[car(), TARGET], buildings=wall, attacks=[attack()])
    assert not b.lof and not b.possible and b.range is None and b.aim_point is None
    assert "no line of fire" in b.reason
    from hardpoint import RuleViolation

    with pytest.raises(RuleViolation, match="CW-LOF-01"):
        build(vehicles=[car(), TARGET], buildings=wall, attacks=[attack()])


def test_cw_lof_01_an_obstacle_does_not_block():
    """CW-LOF-01 / CW-DMG-08: obstacles (and debris) never block a line of fire: the same shot with a row of obstacle
    counters squarely between firer and target explains exactly as without them (clear, the same range and to-hit),
    where a building there leaves none. Source: CW seed, Line of Fire (neither debris nor obstacles block)."""
    from hardpoint.carwars.attack import Attack, explain_attack
    from hardpoint.carwars.model import Obstacle

    s = build(vehicles=[car(), TARGET])
    clear = explain_attack(s.arena, Attack("a", "car", "mg", "target"), s.rules)
    s.arena.obstacles.extend(Obstacle(f"o{i}", x, 3.0, 1, "wreck") for i, x in enumerate((-0.5, 0.0, 0.5)))
    b = explain_attack(s.arena, Attack("a", "car", "mg", "target"), s.rules)
    assert b.lof and b.possible and (b.range, b.needed) == (clear.range, clear.needed)


def test_cw_lof_01_vehicles_and_pedestrians_block():
    """CW-LOF-01: vehicles and pedestrians block (a wide van of cars and a crowd of pedestrians)."""
    blockers = [car(f"b{i}", x=x, y=3.0, facing=90.0) for i, x in enumerate((-0.9, 0.0, 0.9))]
    b = explain_only(vehicles=[car(), TARGET, *blockers], attacks=[attack()])
    assert not b.lof
    crowd = [{"id": f"p{i}", "x": -0.6 + 0.24 * i, "y": 1.0} for i in range(6)]
    b = explain_only(vehicles=[car(), TARGET], pedestrians=crowd, attacks=[attack()])
    assert not b.lof


def test_cw_lof_01_firing_point_of_body_weapon_is_its_side_midpoint():
    """CW-LOF-01: a front weapon fires from the middle of the front edge; a turret from the centre."""
    assert explain_one(vehicles=[car(), TARGET], attacks=[attack()]).origin == (0.0, 0.5)
    assert explain_one(vehicles=[car(design="shogun"), TARGET], attacks=[attack(weapon="laser")]).origin == (0.0, 0.0)


def test_cw_lof_01_smoke_does_not_block_but_lasers_are_blocked():
    """CW-LOF-01 / CW-LOF-04: smoke penalises a machine gun; a laser cannot fire through it at all."""
    smoke = [{"id": "s", "kind": "smoke", "x": 0, "y": 3, "width": 4, "length": 1}]
    mg = explain_one(vehicles=[car(design="shogun"), TARGET], clouds=smoke, attacks=[attack()])
    assert mg.lof and mods(mg)["CW-LOF-04"] == [-2]
    from hardpoint import RuleViolation

    with pytest.raises(RuleViolation, match="laser.*smoke.*CW-LOF-04"):
        build(vehicles=[car(design="shogun"), TARGET], clouds=smoke, attacks=[attack(weapon="laser")])


def test_cw_lof_02_narrow_gap_still_has_lof():
    """CW-LOF-02: two buildings leave a gap of 0.001": the target is still in sight, through the gap."""
    gap = 0.001
    buildings = [{"id": "w1", "corners": [[-3, 2.9], [-gap / 2, 2.9], [-gap / 2, 3.1], [-3, 3.1]]},
                 {"id": "w2", "corners": [[gap / 2, 2.9], [3, 2.9], [3, 3.1], [gap / 2, 3.1]]}]
    b = explain_one(vehicles=[car(), TARGET], buildings=buildings, attacks=[attack()])
    assert b.lof
    assert abs(b.aim_point[0]) < 0.01


def test_cw_lof_02_grazing_a_corner_does_not_block():
    """CW-LOF-02 (RULING): a building whose corner just touches every line still leaves LOF (grazing)."""
    # the target's nearest edge spans x in [-0.5, 0.5] at y = 5.75; a wall ending exactly on the line x = 0.
    buildings = [{"id": "w", "corners": [[-3, 2.9], [0, 2.9], [0, 3.1], [-3, 3.1]]},
                 {"id": "w2", "corners": [[0, 2.9], [3, 2.9], [3, 3.1], [0, 3.1]]}]
    b = explain_one(vehicles=[car(), TARGET], buildings=buildings, attacks=[attack()])
    assert b.lof


def test_cw_lof_03_range_to_the_nearest_unblocked_point():
    """CW-LOF-03 (RULING): range is to the nearest point reachable along an unblocked line; the aim point is reported."""
    free = explain_one(vehicles=[car(), TARGET], attacks=[attack()])
    assert free.range == pytest.approx(5.25) and free.aim_point == (0.0, 5.75)
    # block the straight-ahead view: the nearest visible point moves to the target's right end
    b = explain_one(vehicles=[car(), TARGET], buildings=[{"id": "w", "corners": [[-2, 3], [0.2, 3], [0.2, 3.2], [-2, 3.2]]}],
                    attacks=[attack()])
    assert b.lof and b.aim_point[0] > 0.2
    assert b.range > free.range
    assert b.range == pytest.approx(geo.distance(b.origin, b.aim_point), abs=1e-6)


def test_cw_lof_03_range_to_the_part_aimed_at():
    """CW-LOF-03: a tire shot measures range to that tire."""
    b = explain_one(vehicles=[car(), car("target", y=6.0)], attacks=[attack(aim="tire:back_left")])
    # tire footprint 1/8" x 1/4" at the back-left corner of a counter spanning y 5.5..6.5
    assert b.aim_point[1] == pytest.approx(5.5)
    assert b.aim_point[0] <= -0.125 + 1e-9


@pytest.mark.parametrize("depth,penalty", [(0.25, -1), (0.5, -1), (0.6, -2), (1.0, -2), (1.01, -3)])
def test_cw_lof_04_smoke_penalty_per_half_inch_rounded_up(depth, penalty):
    """CW-LOF-04: -1 per 1/2" of cloud crossed on the line to the aim point, rounded up."""
    smoke = [{"id": "s", "kind": "smoke", "x": 0, "y": 3, "width": 4, "length": depth}]
    b = explain_one(vehicles=[car(), TARGET], clouds=smoke, attacks=[attack()])
    assert mods(b)["CW-LOF-04"] == [penalty]


def test_cw_lof_04_laser_fires_around_smoke_through_a_clear_line():
    """CW-LOF-04: a laser with a clear line beside a smoke cloud still fires, with no smoke penalty."""
    smoke = [{"id": "s", "kind": "smoke", "x": -0.4, "y": 3, "width": 1.0, "length": 1.0}]
    b = explain_one(vehicles=[car(design="shogun"), TARGET], clouds=smoke, attacks=[attack(weapon="laser")])
    assert b.lof and "CW-LOF-04" not in mods(b)
    assert b.aim_point[0] > 0.09


def test_cw_arc_01_firer_on_dividing_line_may_attack_either_side():
    """CW-ARC-01: a firer straddling the line between a target's front and right arcs attacks either side unpenalised."""
    # target at origin facing north; its front-right corner (0.25, 0.5); the dividing line runs at 45 degrees from it.
    firer = car("car", x=3.25, y=3.5, facing=225.0, design="shogun")
    target = car("target", x=0.0, y=0.0, facing=0.0)
    for side in ("front", "right"):
        b = explain_one(vehicles=[firer, target], attacks=[attack(weapon="laser", aim=side)])
        assert set(b.firer_arcs) >= {"front", "right"}
        assert "CW-TGT-01" not in mods(b)


def test_cw_arc_01_arc_angle_is_data():
    """CW-ARC-01: the dividing lines' angle is a data table value that a house rule can change."""
    firer = car("car", x=1.5, y=2.0, facing=225.0, design="shogun")
    target = car("target", x=0.0, y=0.0, facing=0.0)
    default = explain_one(vehicles=[firer, target], attacks=[attack(weapon="laser", aim="front")])
    narrow = build(vehicles=[firer, target], attacks=[attack(weapon="laser", aim="front")],
                   rules={"carwars": {"bodies": {"arcs": {"angle": 10.0}}}}).explain()[0]
    assert default.firer_arcs != narrow.firer_arcs


def test_cw_lof_02_a_rectangle_too_thin_to_have_an_inside_is_refused_naming_its_field():
    """CW-LOF-02 / ERR-01: a building given by x, y, width and length whose length is so small (a subnormal number)
    that its corners collapse has no inside for the exact line-of-fire test: refused when the scenario loads, naming
    the field, not a bare ValueError."""
    from hardpoint import ScenarioError

    with pytest.raises(ScenarioError) as err:
        build(buildings=[{"id": "b", "x": 0, "y": 0, "width": 1, "length": 5e-324}])
    assert (err.value.field, err.value.value, err.value.rule) == ("building[0].length", 5e-324, "CW-LOF-02")
