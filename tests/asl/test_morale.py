"""ASL core: Morale Checks, PTC, leadership, Random Selection, Casualty Reduction, wounds (A10, A7.8, A.9, A7.302, A17)."""
from collections import Counter
from dataclasses import replace


import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardpoint import ScenarioError, ScriptedDice
from hardpoint.asl.chance import enumerate_step
from hardpoint.asl.enums import MachineType, Motion, TieRule, UnitType
from hardpoint.asl.morale import leadership_drm, morale_check, pin_task_check, random_selection, random_selection_round
from hardpoint.asl.tables import morale_settings
from hardpoint.asl.units import Situation, casualty_reduction, make_unit, parse_designation, wound

from .conftest import cycle, unit


def test_designations(rules):
    """A1, A10.7: FP-range-morale for MMC; morale-modifier for leaders (a 9-1 gives -1, a 6+1 gives +1)."""
    assert parse_designation("4-6-7", UnitType.SQUAD) == (4, 6, 7, 0)
    assert parse_designation("9-1", UnitType.LEADER) == (0, 0, 9, -1)
    assert parse_designation("6+1", UnitType.LEADER) == (0, 0, 6, 1)
    with pytest.raises(ScenarioError) as err:
        parse_designation("4-6", UnitType.SQUAD, "unit[0].counter")
    assert err.value.field == "unit[0].counter" and err.value.rule == "A1"


def test_squad_needs_its_half_squad(rules):
    """A7.302: a squad not in the catalogue needs its HS counter for Casualty Reduction."""
    with pytest.raises(ScenarioError) as err:
        make_unit(rules, "s", "5-4-8", "squad", field="unit[1]")
    assert err.value.field == "unit[1].half_squad" and err.value.rule == "A7.302"
    assert make_unit(rules, "s", "5-4-8", "squad", half_squad="2-4-8").half_squad == "2-4-8"


# --- Morale Check (A10) ---------------------------------------------------------------------

def test_mc_breaks_when_final_dr_exceeds_morale(rules):
    """A10: DR + DRM > morale breaks the unit; equal or less passes."""
    sit = Situation((unit(rules, "crew", "2-2-8"),))
    after, ev = morale_check(rules, sit, "crew", 3, ScriptedDice([3, 3]))      # 6 + 3 = 9 > 8
    assert after.unit("crew").broken and ev[0].final == 9 and "breaks" in ev[0].outcome
    after, ev = morale_check(rules, sit, "crew", 3, ScriptedDice([2, 2]))      # 4 + 3 = 7
    assert not after.unit("crew").broken and ev[0].outcome == "passes"


def test_mc_broken_unit_failing_again_is_eliminated(rules):
    """A10 (setting broken_fails = eliminate): a broken unit that fails an MC is eliminated."""
    sit = Situation((unit(rules, "hs", "2-4-7", broken=True),))
    after, ev = morale_check(rules, sit, "hs", 0, ScriptedDice([4, 4]))
    assert after.unit("hs").eliminated and ev[0].outcome == "fails: eliminated"


def test_mc_broken_fails_setting_casualty_reduction(rules):
    """A10 as a setting: a house rule Casualty Reduces a broken unit that fails instead."""
    r = rules.with_overrides({"asl": {"morale": {"morale_check": {"broken_fails": "casualty_reduction"}}}})
    sit = Situation((unit(r, "sq", "4-6-7", broken=True),))
    after, _ = morale_check(r, sit, "sq", 0, ScriptedDice([6, 6]))
    u = after.unit("sq")
    assert u.type is UnitType.HALF_SQUAD and u.broken and not u.eliminated


def test_mc_equal_to_morale_pins(rules):
    """A7.8: a good-order unit whose Final MC DR equals its morale is pinned."""
    sit = Situation((unit(rules, "crew", "2-2-8"),))
    after, ev = morale_check(rules, sit, "crew", 2, ScriptedDice([3, 3]))
    assert after.unit("crew").pinned and not after.unit("crew").broken and "pinned" in ev[0].outcome


def test_asl_res_04_pin_has_no_effect_on_a_motorcyclist(rules):
    """ASL-RES-04 (D15.54): the same Final DR does not pin a rider; a PTC is never taken by one."""
    sq = unit(rules, "sq", "4-6-7")
    sit = Situation((sq,), (cycle(riders=["sq"], motion=Motion.MOTION),))
    after, ev = morale_check(rules, sit, "sq", 1, ScriptedDice([3, 3]))
    assert not after.unit("sq").pinned and "no effect on a motorcyclist" in ev[0].outcome
    after, ev = pin_task_check(rules, sit, "sq", ScriptedDice([]))       # no dice rolled at all
    assert not after.unit("sq").pinned and ev[0].roll is None and ev[0].rule == "ASL-RES-04"


def test_asl_bic_02_bicyclist_takes_ptc(rules):
    """ASL-BIC-02 (D15.85): a bicyclist is a normal Infantry target: PTC and pins apply."""
    sq = unit(rules, "sq", "4-6-7")
    sit = Situation((sq,), (cycle(mtype=MachineType.BICYCLE, riders=["sq"]),))
    after, ev = pin_task_check(rules, sit, "sq", ScriptedDice([4, 4]))
    assert after.unit("sq").pinned and ev[0].final == 8
    after, _ = morale_check(rules, sit, "sq", 1, ScriptedDice([3, 3]))
    assert after.unit("sq").pinned


def test_ptc_pins_without_breaking(rules):
    """A7.8: PTC: DR above morale pins; it never breaks; broken units take none."""
    sit = Situation((unit(rules, "crew", "2-2-8"), unit(rules, "hs", "2-4-7", broken=True)))
    after, _ = pin_task_check(rules, sit, "crew", ScriptedDice([5, 4]))
    assert after.unit("crew").pinned and not after.unit("crew").broken
    after, ev = pin_task_check(rules, sit, "hs", ScriptedDice([]))
    assert ev[0].roll is None and not after.unit("hs").pinned


def test_leadership_drm_applies_to_others_not_self(rules):
    """A10.7: a good-order leader's modifier applies to the other units in his Location, not to himself;
    the best leader counts; a broken leader gives none."""
    sit = Situation((unit(rules, "ldr", "9-1"), unit(rules, "ldr2", "8-0"), unit(rules, "crew", "2-2-8"),
                     unit(rules, "far", "2-2-8", hex="elsewhere")))
    assert leadership_drm(rules, sit, sit.unit("crew")).value == -1
    assert leadership_drm(rules, sit, sit.unit("ldr")).value == 0           # only the 8-0 helps the 9-1
    assert leadership_drm(rules, sit, sit.unit("far")) is None
    after, ev = morale_check(rules, sit, "crew", 3, ScriptedDice([3, 3]))    # 6 + 3 - 1 = 8: passes (pinned)
    assert not after.unit("crew").broken and ev[0].final == 8
    broken_leader = sit.with_unit(replace(sit.unit("ldr"), broken=True))
    assert leadership_drm(rules, broken_leader, broken_leader.unit("crew")).value == 0


# --- Casualty Reduction and wounds (A7.302, A17) ---------------------------------------------

def test_casualty_reduction(rules):
    """A7.302: squad -> half-squad; HS and crew eliminated; SMC wounded; a wounded SMC eliminated."""
    s = morale_settings(rules)
    hs = casualty_reduction(unit(rules, "sq", "4-6-7"), s)
    assert (hs.type, hs.designation, hs.fp, hs.range, hs.morale) == (UnitType.HALF_SQUAD, "2-4-7", 2, 4, 7)
    assert casualty_reduction(hs, s).eliminated
    assert casualty_reduction(unit(rules, "crew", "2-2-8"), s).eliminated
    ldr = casualty_reduction(unit(rules, "ldr", "8-0"), s)
    assert ldr.wounded and not ldr.eliminated
    assert casualty_reduction(ldr, s).eliminated


def test_wound_lowers_morale_and_leadership(rules):
    """A17: a wounded leader: morale -1 and leadership +1 (an 8-0 becomes a 7+1) (settings)."""
    w = wound(unit(rules, "ldr", "8-0"), morale_settings(rules))
    assert (w.morale, w.leadership, w.wounded) == (7, 1, True)


# --- Random Selection (A.9) -------------------------------------------------------------------

def test_random_selection_highest_dr(rules):
    """A.9: one dr per candidate, the highest is selected."""
    chosen, ev = random_selection(("a", "b", "c"), 1, TieRule.ALL, ScriptedDice([2, 5, 3]), "test")
    assert chosen == ("b",) and ev[0].drs == (2, 5, 3)


def test_random_selection_ties_all_selected(rules):
    """A.9 (setting ties = all): every unit tied at the highest dr is selected."""
    chosen, _ = random_selection(("a", "b", "c"), 1, TieRule.ALL, ScriptedDice([5, 2, 5]), "test")
    assert chosen == ("a", "c")


def test_random_selection_ties_reroll(rules):
    """A.9 (setting ties = reroll): the tied units roll again until one is highest."""
    chosen, ev = random_selection(("a", "b", "c"), 1, TieRule.REROLL, ScriptedDice([5, 2, 5, 4, 4, 1, 3]), "test")
    assert chosen == ("c",) and len(ev) == 3


def test_random_selection_count_and_no_roll_when_all_selected(rules):
    """A.9: nKIA picks the n highest; with n >= candidates nobody rolls."""
    chosen, _ = random_selection(("a", "b", "c"), 2, TieRule.ALL, ScriptedDice([1, 6, 4]), "2KIA")
    assert chosen == ("b", "c")
    chosen, ev = random_selection(("a", "b"), 3, TieRule.ALL, ScriptedDice([]), "3KIA")
    assert chosen == ("a", "b") and ev == []


@given(st.integers(2, 4), st.sampled_from([TieRule.ALL, TieRule.REROLL]))
@settings(max_examples=10, deadline=None)
def test_random_selection_is_fair(n, ties):
    """A.9: every candidate is equally likely to be selected first (exact enumeration of one round)."""
    cands = tuple(f"u{i}" for i in range(n))

    def step(state, dice):
        chosen, pending, _ = random_selection_round(cands, 1, ties, dice, "fair")
        return (chosen, pending), []

    dist = enumerate_step(step, None)
    assert sum(dist.values()) == 1
    firsts: Counter = Counter()
    for (chosen, pending), p in dist.items():
        for c in chosen:
            firsts[c] += p
    assert len(set(firsts.values())) == 1
