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


# --- ASL-RES-02 (D15.52): the counter after casualties -------------------------------------------------------

def test_asl_res_02_a_single_machine_counter_losing_one_of_two_smc_keeps_its_size_silently(rules):
    """ASL-RES-02 (D15.52): a single-machine cycle carrying two leaders loses one: it carries the survivor and stays a
    single machine, which is no change of counter (no event); with nobody lost, nothing changes at all."""
    from dataclasses import replace

    from hardpoint.asl.enums import Capacity
    from hardpoint.asl.motorcycles import substitute_counter

    a, b = unit(rules, "a", "8-0", hex="h"), unit(rules, "b", "9-1", hex="h")
    sit = Situation((a, b), (cycle(id="c", machines=1, hex="h", riders=("a", "b")),))
    assert substitute_counter(rules, sit, "c", "casualties", "ASL-RES-02") == (sit, [])
    hurt = Situation((replace(a, eliminated=True), b), sit.machines)
    after, events = substitute_counter(rules, hurt, "c", "casualties", "ASL-RES-02")
    assert events == []
    assert (after.machine("c").riders, after.machine("c").machines) == (("b",), Capacity.SINGLE)


# --- ASL-MOV-05 (D15.44): Deploy and recombine ---------------------------------------------------------------

def test_asl_mov_05_only_a_squad_riding_the_counter_deploys(rules):
    """ASL-MOV-05 (D15.44): a squad Deploys off the counter it rides: a squad riding another counter is refused, as is
    a leader riding this one; nothing changes."""
    from hardpoint.asl.motorcycles import deploy_squad

    sq = unit(rules, "sq", "4-6-7", hex="h")
    other = unit(rules, "other", "4-6-7", hex="h")
    ldr = unit(rules, "ldr", "8-0", hex="h")
    sit = Situation((sq, other, ldr), (cycle(id="c", machines=3, hex="h", riders=("sq", "ldr")),
                                       cycle(id="d", machines=3, hex="h", riders=("other",))))
    for who in ("other", "ldr"):
        with pytest.raises(RuleViolation, match="only a squad riding the counter deploys") as err:
            deploy_squad(rules, sit, "c", who, ("hs1", "hs2"), "c2")
        assert (err.value.rule, err.value.value) == ("ASL-MOV-05", who)


def test_asl_mov_05_recombining_needs_two_counters(rules):
    """ASL-MOV-05 (D15.44): recombining one counter alone is refused (two or more are needed)."""
    from hardpoint.asl.motorcycles import recombine_unmounted

    parked = Situation((), (cycle(id="a", machines=1, hex="h"),))
    with pytest.raises(RuleViolation, match="two or more counters") as err:
        recombine_unmounted(rules, parked, ("a",), "x")
    assert err.value.rule == "ASL-MOV-05"


def test_asl_mov_05_riders_recombine_only_two_hs_of_the_squad(rules):
    """ASL-MOV-05 (D15.44, A1.32): two HS-size counters recombine their riders into the squad only if each carries a
    HS of that squad: two 2-3-7 HS do not make a 4-6-7 (its HS is 2-4-7). When they do, the squad and the leader ride
    the new three-machine counter, the two HS are gone and every other unit stays."""
    from hardpoint.asl.enums import Capacity
    from hardpoint.asl.motorcycles import deploy_squad, recombine_riders

    sq = unit(rules, "sq", "4-6-7", hex="h")
    ldr = unit(rules, "ldr", "8-0", hex="h")
    bystander = unit(rules, "by", "9-1", hex="h")
    sit = Situation((sq, ldr, bystander), (cycle(id="c", machines=3, hex="h", riders=("sq", "ldr")),))
    deployed, _ = deploy_squad(rules, sit, "c", "sq", ("hs1", "hs2"), "c2")
    back, events = recombine_riders(rules, deployed, ("c", "c2"), sq, "big")
    assert back.machine("big").machines is Capacity.THREE and set(back.machine("big").riders) == {"sq", "ldr"}
    assert sorted(u.id for u in back.units) == ["by", "ldr", "sq"]
    assert [(e.machine, e.rule) for e in events] == [("big", "ASL-MOV-05")]
    wrong = Situation((unit(rules, "x1", "2-3-7", type="half_squad", hex="h"), unit(rules, "x2", "2-3-7", type="half_squad", hex="h")),
                      (cycle(id="p", machines=2, hex="h", riders=("x1",)), cycle(id="q", machines=2, hex="h", riders=("x2",))))
    with pytest.raises(RuleViolation, match="each counter must carry one HS of the squad") as err:
        recombine_riders(rules, wrong, ("p", "q"), sq, "big")
    assert err.value.rule == "ASL-MOV-05"


def test_asl_res_02_smc_groups_by_the_single_machine_limit(rules):
    """D15.44, D15.52: SMC left without an MMC ride single-machine counters, two to a cycle, three to a sidecar: five
    leaders make cycles of 2, 2 and 1 and sidecars of 3 and 2. A house rule allowing no SMC on a single machine leaves
    them all in one group (nothing to split into)."""
    from hardpoint.asl.enums import MachineType
    from hardpoint.asl.motorcycles import smc_groups

    five = [unit(rules, f"l{i}", "8-0", hex="h") for i in range(5)]
    ids = lambda groups: [[u.id for u in g] for g in groups]   # noqa: E731
    assert ids(smc_groups(rules, cycle(machines=3), five)) == [["l0", "l1"], ["l2", "l3"], ["l4"]]
    assert ids(smc_groups(rules, cycle(machines=3, mtype=MachineType.SIDECAR), five)) == [["l0", "l1", "l2"], ["l3", "l4"]]
    house = rules.with_overrides({"asl": {"motorcycles": {"capacity": {"single": {"smc": 0}}}}})
    assert ids(smc_groups(house, cycle(machines=3), five)) == [["l0", "l1", "l2", "l3", "l4"]]
