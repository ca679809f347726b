"""Morale checks, hand-worked: the check's name (A10) and the Pin Task Check's exact outcomes (A7.8)."""
from fractions import Fraction

import pytest

from hardpoint.asl.morale import mc_name, pin_task_check_outcomes
from hardpoint.asl.units import Situation, make_unit


@pytest.mark.parametrize("drm,name", [(0, "NMC"), (2, "2MC"), (-1, "-1MC")])
def test_a10_a_morale_check_is_named_by_its_drm(drm, name):
    """A10: a Morale Check with no DRM is an NMC; with a DRM n it is an nMC."""
    assert mc_name(drm) == name


@pytest.mark.parametrize("morale,outcomes", [
    (7, [(True, Fraction(15, 36)), (False, Fraction(21, 36))]),   # pinned on DR 8-12: 15 in 36
    (12, [(False, Fraction(1))]),                                 # no DR is above 12: never pinned, one outcome
    (1, [(True, Fraction(1))]),                                   # every DR is above 1: always pinned, one outcome
])
def test_a7_8_pin_task_check_outcomes_and_their_exact_odds(rules, morale, outcomes):
    """A7.8: a PTC pins on a DR above the unit's morale: a 4-6-7 squad alone is pinned 15 in 36 and not 21 in 36; a certain
    result is one outcome of probability 1, with no outcome of probability 0 beside it."""
    u = make_unit(rules, "sq", f"4-6-{morale}", type="squad", half_squad=f"2-3-{morale}", hex="h", side="german")
    got = pin_task_check_outcomes(rules, Situation((u,)), "sq")
    assert [(s.unit("sq").pinned, p) for s, p in got] == outcomes


def test_a_9_random_selection_law_of_sizes_worked_by_hand():
    """A.9: Random Selection of 1 among 3, each rolling a dr. Ties `all`: a given unit alone holds the highest dr with
    probability sum over d of (1/6)((d-1)/6)^2 = 55/216; a given pair ties above the third with sum (1/36)((d-1)/6) =
    15/216 = 5/72; all three tie with 6/216 = 1/36. Ties rerolled: exactly one unit, each 1/3. Selecting as many as
    there are: everyone, certainly. One entry per size 0..n, no more."""
    from hardpoint.asl.enums import TieRule
    from hardpoint.asl.morale import selection_size_law

    assert selection_size_law(3, 1, TieRule.ALL) == (0, Fraction(55, 216), Fraction(5, 72), Fraction(1, 36))
    assert selection_size_law(3, 1, TieRule.REROLL) == (0, Fraction(1, 3), 0, 0)
    assert selection_size_law(2, 2, TieRule.REROLL) == (0, 0, 1)
