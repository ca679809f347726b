"""The To Hit table (C3) and the D15 To Hit DRM (ASL-TGT-01, ASL-BIC-02), hand-worked.

Each test asserts the number, every DRM with its rule, the Original DR that still hits and its exact probability.
Source: the project's To Hit table (seeds/asl/tohit.toml, from the C3 chart) and D15.5 / D15.85 for the DRM.
"""
from fractions import Fraction

import pytest

from hardpoint import RuleViolation, ScenarioError
from hardpoint.asl.enums import FirerRow, MachineType, Motion, TargetType
from hardpoint.asl.tohit import check_target_type, hit_probability, to_hit_breakdown, to_hit_drm, to_hit_number
from hardpoint.asl.units import Situation

from .conftest import cycle, unit


@pytest.mark.parametrize("needed,p", [(1, Fraction(0)), (2, Fraction(1, 36)), (3, Fraction(3, 36)), (7, Fraction(21, 36)),
                                      (11, Fraction(35, 36)), (12, Fraction(1)), (13, Fraction(1))])
def test_c3_probability_of_an_original_dr_at_or_under_the_number(needed, p):
    """C3: P(Original DR <= needed) on two dice: 2 is 1 in 36, 7 is 21 in 36, 12 and more certain, under 2 never."""
    assert hit_probability(needed) == p


@pytest.mark.parametrize("target,firer,rng,number", [
    (TargetType.INFANTRY, FirerRow.GERMAN, 0, 8), (TargetType.INFANTRY, FirerRow.GERMAN, 6, 8),
    (TargetType.INFANTRY, FirerRow.GERMAN, 7, 7), (TargetType.INFANTRY, FirerRow.OTHER, 7, 6),
    (TargetType.INFANTRY, FirerRow.OTHER, 54, -1), (TargetType.INFANTRY, FirerRow.OTHER, 55, -2),
    (TargetType.AREA, FirerRow.GERMAN, 13, 8), (TargetType.AREA, FirerRow.OTHER, 13, 8),
    (TargetType.VEHICLE, FirerRow.GERMAN, 12, 9),
])
def test_c3_basic_to_hit_number_by_target_type_firer_and_range_band(rules, target, firer, rng, number):
    """C3: the basic number by band (0-6, 7-12, ..., 49-54, beyond); the Area row is the same for every firer."""
    assert to_hit_number(rules, target, firer, rng) == number


def test_c3_a_negative_range_is_refused(rules):
    """C3: range is counted in hexes from 0: -1 is refused, naming the field; 0 is the first band."""
    with pytest.raises(ScenarioError) as err:
        to_hit_number(rules, TargetType.INFANTRY, FirerRow.GERMAN, -1)
    assert (err.value.field, err.value.rule) == ("fire.range", "C3")
    assert to_hit_number(rules, TargetType.INFANTRY, FirerRow.GERMAN, 0) == 8


def _riders(rules, mtype, motion):
    leader = unit(rules, "leader", "8-0", hex="h")
    machine = cycle(machines=1, hex="h", mtype=mtype, motion=motion, riders=("leader",))
    return Situation((leader,), (machine,)), leader


def test_asl_tgt_01_a_moving_motorcyclist_case_j_plus_2_and_mounted_minus_1(rules):
    """ASL-TGT-01 (D15.5): a leader riding a moving cycle: Case J +2 and mounted motorcyclist -1, each with its rule;
    German infantry row at 3 hexes, 8: needs 8 - 1 = 7, 21 in 36."""
    s, leader = _riders(rules, MachineType.CYCLE, Motion.MOVING)
    b = to_hit_breakdown(rules, s, "a", leader, TargetType.INFANTRY, FirerRow.GERMAN, 3)
    assert [(m.value, m.rule) for m in b.modifiers] == [(2, "ASL-TGT-01"), (-1, "ASL-TGT-01")]
    assert (b.base, b.needed, b.probability, b.target, b.range) == (8, 7, Fraction(21, 36), "leader", 3)


def test_asl_tgt_01_a_stopped_motorcyclist_has_no_case_j(rules):
    """ASL-TGT-01: a stopped cycle: only the mounted -1: needs 9, 30 in 36."""
    s, leader = _riders(rules, MachineType.CYCLE, Motion.STOPPED)
    b = to_hit_breakdown(rules, s, "a", leader, TargetType.INFANTRY, FirerRow.GERMAN, 3)
    assert [(m.value, m.rule) for m in b.modifiers] == [(-1, "ASL-TGT-01")]
    assert (b.needed, b.probability) == (9, Fraction(30, 36))


def test_asl_bic_02_a_bicyclist_is_minus_1_and_never_case_j(rules):
    """ASL-BIC-02 (D15.85): a moving bicycle is no vehicle: only the mounted bicyclist's -1, by ASL-BIC-02."""
    s, leader = _riders(rules, MachineType.BICYCLE, Motion.MOVING)
    assert [(m.value, m.rule) for m in to_hit_drm(rules, s, leader)] == [(-1, "ASL-BIC-02")]


def test_asl_tgt_01_an_unmounted_unit_has_only_the_declared_drm(rules):
    """ASL-TGT-01: a unit on foot gets no D15 DRM; the declaration's own DRM pass through."""
    from hardpoint.events import Modifier

    leader = unit(rules, "leader", "8-0", hex="h")
    extra = (Modifier("hindrance", 1, "C3"),)
    assert to_hit_drm(rules, Situation((leader,)), leader, extra) == extra


def test_asl_tgt_01_riders_are_fired_on_as_infantry(rules):
    """ASL-TGT-01 (D15.5): ordnance at a hex holding a mounted motorcyclist uses the Infantry target type: Area is
    refused naming the riders; Infantry is accepted; the Vehicle type has nothing to aim at anywhere (C3)."""
    s, _ = _riders(rules, MachineType.CYCLE, Motion.MOVING)
    with pytest.raises(RuleViolation, match=r"mounted motorcyclists \(leader\) in h") as err:
        check_target_type(rules, s, "h", TargetType.AREA, "fire.target_type")
    assert err.value.rule == "ASL-TGT-01"
    check_target_type(rules, s, "h", TargetType.INFANTRY, "fire.target_type")
    check_target_type(rules, Situation(()), "h", TargetType.AREA, "fire.target_type")
    with pytest.raises(RuleViolation) as err:
        check_target_type(rules, Situation(()), "h", TargetType.VEHICLE, "fire.target_type")
    assert err.value.rule == "C3"
