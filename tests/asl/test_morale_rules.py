"""Morale checks, hand-worked: the check's name (A10) and the Pin Task Check's exact outcomes (A7.8)."""
from fractions import Fraction

import pytest

from hardpoint.asl.morale import mc_name, morale_check_outcomes, pin_task_check_outcomes
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


@pytest.mark.parametrize("drm,outcomes", [
    (0, [("broken", Fraction(15, 36)), ("pinned", Fraction(6, 36)), ("good order", Fraction(15, 36))]),
    (6, [("broken", Fraction(1))]),      # Final DR >= 2 + 6 = 8 > 7: certain to fail
    (7, [("broken", Fraction(1))]),      # Final DR >= 9: the DR never equals 7 - 7 = 0, so no pin beside it
    (8, [("broken", Fraction(1))]),      # the DR at which Final DR equals morale would be -1
    (12, [("broken", Fraction(1))]),
])
def test_a7_8_morale_check_outcomes_and_their_exact_odds(rules, drm, outcomes):
    """A7.8 / A10: a 4-6-7 squad alone takes an MC with DRM `drm`: it fails on a Final DR above 7, is pinned on a Final
    DR of exactly 7, passes below. NMC: fails on DR 8-12 (15 in 36), pinned on DR 7 (6 in 36), passes on DR 2-6 (15 in
    36). With a DRM of 6 or more every DR (2 at least) fails: one outcome of probability 1, and no pin nor pass beside it
    of probability 0 or less, however far below 2 the DR that would equal its morale lies (1, 0, -1, -5)."""
    u = make_unit(rules, "sq", "4-6-7", type="squad", half_squad="2-3-7", hex="h", side="german")
    got = morale_check_outcomes(rules, Situation((u,)), "sq", drm)

    def state(s):
        x = s.unit("sq")
        return "broken" if x.broken else "pinned" if x.pinned else "good order"

    assert [(state(s), p) for s, p in got] == outcomes


def test_a_9_random_selection_among_no_candidates_is_the_empty_set():
    """A.9: with no candidate (n = 0, selecting 0) the one set Random Selection can end with is the empty set, with
    probability 1, whatever the tie rule: the law of sizes is (1,)."""
    from hardpoint.asl.enums import TieRule
    from hardpoint.asl.morale import selection_size_law

    assert selection_size_law(0, 0, TieRule.ALL) == (Fraction(1),)
    assert selection_size_law(0, 0, TieRule.REROLL) == (Fraction(1),)
