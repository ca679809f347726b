"""D15 motorcycle counters, hand-worked: overrun FP (ASL-MOV-04), Recovery (ASL-RES-05) and the counters' changes
(ASL-MOV-05, ASL-RES-02).

Each test asserts the outcome and the events (the roll, the counter change and its rule). Source: the D15 rule
named in each docstring; the figures come from seeds/asl/motorcycles.toml.
"""
from fractions import Fraction

import pytest

from hardpoint import RuleViolation, ScriptedDice
from hardpoint.asl.motorcycles import overrun_rider_fp, recover
from hardpoint.asl.units import Situation

from .conftest import cycle, unit


def test_asl_mov_04_overrun_adds_a_quarter_of_the_good_order_riders_fp(rules):
    """ASL-MOV-04 (D15.43): a sidecar's overrun adds 1/4 of its good-order riders' FP: a 4-6-7 squad and a 9-1 leader
    (no FP of his own) bring 4 / 4 = 1 at the default multiplier, 2 at TPBF x2; with the squad broken, nothing."""
    squad = unit(rules, "squad", "4-6-7", type="squad", half_squad="2-3-7")
    leader = unit(rules, "leader", "9-1")
    assert overrun_rider_fp(rules, [squad, leader]) == Fraction(squad.fp + leader.fp, 4) == Fraction(1)
    assert overrun_rider_fp(rules, [squad, leader], 2) == Fraction(2)
    from dataclasses import replace

    assert overrun_rider_fp(rules, [replace(squad, broken=True), leader]) == Fraction(leader.fp, 4) == 0


@pytest.mark.parametrize("where,broken,why", [("elsewhere", False, "not in its Location"), ("h", True, "broken")])
def test_asl_res_05_recovery_needs_a_good_order_unit_in_the_location(rules, where, broken, why):
    """ASL-RES-05 (D15.7): the recovering unit must be in good order AND in the motorcycle's Location: a good-order
    squad in another hex is refused, as is a broken squad in the same hex; no die is rolled, nothing changes."""
    ivan = unit(rules, "ivan", "4-4-7", type="squad", half_squad="2-2-7", side="russian", hex=where, broken=broken)
    sit = Situation((ivan,), (cycle(id="parked", machines=1, hex="h"),))
    dice = ScriptedDice([1])
    with pytest.raises(RuleViolation, match="good order in the motorcycle's Location") as err:
        recover(rules, sit, "parked", "ivan", dice)
    assert (err.value.rule, err.value.field, err.value.value) == ("ASL-RES-05", "unit", "ivan")
    assert dice.remaining == 1


def test_asl_res_05_recovery_dr_5_succeeds_6_fails(rules):
    """ASL-RES-05 (D15.7): Recovery is a dr at or under 5: on 5 the counter changes sides (one CounterChanged, by
    ASL-RES-05); on 6 it stays German, and the failure is reported; each case shows its dr."""
    ivan = unit(rules, "ivan", "4-4-7", type="squad", half_squad="2-2-7", side="russian", hex="h")
    sit = Situation((ivan,), (cycle(id="parked", machines=1, hex="h"),))
    after, events = recover(rules, sit, "parked", "ivan", ScriptedDice([5]))
    assert [(e.kind, getattr(e, "total", None)) for e in events][0] == ("dice", 5)
    assert after.machine("parked").side == "russian" and events[-1].rule == "ASL-RES-05"
    after, events = recover(rules, sit, "parked", "ivan", ScriptedDice([6]))
    assert after is sit and events[-1].rule == "ASL-RES-05" and "failed" in str(events[-1])
