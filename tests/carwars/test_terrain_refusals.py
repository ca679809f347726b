"""Off-road arguments the terrain rules refuse, each seen to happen (CW-OFF-01..04).

The terrain functions take their figures from callers (a scenario, a user, the turn); a figure of the wrong type
or out of range is a ScenarioError naming the argument, the value and the rule, never a number guessed.
"""
import math

import pytest

import hardpoint
from hardpoint.carwars.model import build_vehicle
from hardpoint.carwars.terrain import (boulder, check_offroad_suspension, ditch_effect, offroad_handling_class,
                                       offroad_maneuver_difficulty, terrain_feature, water_hazard_difficulty)
from hardpoint.errors import ScenarioError

RULES = hardpoint.default_rules()


def refused(call, field, value, rule):
    with pytest.raises(ScenarioError) as err:
        call()
    assert (err.value.field, err.value.value, err.value.rule) == (field, value, rule)
    return err.value


@pytest.mark.parametrize("value", ["2", 2.0, True, None])
def test_cw_off_01_difficulty_and_handling_class_are_integers(value):
    """CW-OFF-01: a maneuver's D and a handling class are whole numbers (negative ones included); text, a float or a
    boolean is refused."""
    refused(lambda: offroad_maneuver_difficulty(value), "base_d", value, "CW-OFF-01")
    car = build_vehicle(RULES, {"id": "v", "design": "hunter"})
    refused(lambda: offroad_handling_class(car, value, False), "base_hc", value, "CW-OFF-01")
    assert offroad_maneuver_difficulty(-1) == 0 and offroad_handling_class(car, -1, True) == -1


@pytest.mark.parametrize("value", [0, -1, "14", 14.0])
def test_cw_off_03_barrier_dp_is_a_positive_integer(value):
    """CW-OFF-03: a fixed barrier's DP, given, is a whole number of at least 1."""
    refused(lambda: terrain_feature("large_trees", dp=value), "dp", value, "CW-OFF-03")
    refused(lambda: boulder(3.0, dp=value), "dp", value, "CW-OFF-03")


@pytest.mark.parametrize("value", [0, -2.0, math.nan, "3", True])
def test_cw_off_03_boulder_size_is_a_positive_number(value):
    """CW-OFF-03: a boulder's diameter in feet is a positive number (an int or a float; nan, zero, negative, text and
    booleans are refused)."""
    refused(lambda: boulder(value), "diameter_ft", value, "CW-OFF-03")
    refused(lambda: terrain_feature("boulder", diameter_ft=value), "diameter_ft", value, "CW-OFF-03")


@pytest.mark.parametrize("value", [-1, math.nan, "2"])
def test_cw_off_04_water_depth_is_a_non_negative_number(value):
    """CW-OFF-04: a water depth is 0 or more feet (0 allowed, unlike a boulder's size)."""
    refused(lambda: water_hazard_difficulty(value), "depth_ft", value, "CW-OFF-04")


@pytest.mark.parametrize("value", [0, -1.0, "3"])
def test_cw_off_03_ditch_width_is_a_positive_number(value):
    """CW-OFF-03: a ditch's width in feet is a positive number."""
    refused(lambda: ditch_effect(value, 20), "width_ft", value, "CW-OFF-03")


def test_cw_off_03_boulder_needs_its_size():
    """CW-OFF-03: a boulder is an obstacle or a barrier by its size; without one it is refused (never guessed), and
    the message says what is missing rather than that None is not a positive number (boulder's own refusal, which
    would otherwise give the same field, value and rule)."""
    err = refused(lambda: terrain_feature("boulder"), "diameter_ft", None, "CW-OFF-03")
    assert err.message == "a boulder needs its size in feet"
    assert terrain_feature("boulder", diameter_ft=2.0).dp == 25


def test_cw_off_03_fixed_barrier_needs_its_dp():
    """CW-OFF-03: large trees default to 14 DP, but the table gives no DP for "any other fixed barrier": it needs one."""
    refused(lambda: terrain_feature("fixed_barrier"), "dp", None, "CW-OFF-03")
    assert terrain_feature("fixed_barrier", dp=30).dp == 30 and terrain_feature("large_trees").dp == 14


@pytest.mark.parametrize("value", [1, "true", None])
def test_cw_off_02_off_road_suspension_is_true_or_false(value):
    """CW-OFF-02: off-road suspension is stated as true or false; 1, "true" or nothing is refused."""
    car = build_vehicle(RULES, {"id": "v", "design": "hunter"})
    refused(lambda: check_offroad_suspension(car, value), "off_road_suspension", value, "CW-OFF-02")
    check_offroad_suspension(car, True)
