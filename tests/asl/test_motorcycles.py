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


# --- ASL-MOV-05 (D15.44, D15.53): what Deploying, recombining and splitting keep ----------------------------------

def test_asl_mov_05_a_deploying_squad_keeps_its_support_weapon_on_the_first_hs(rules):
    """ASL-MOV-05 (D15.44): a 4-6-7 squad possessing an LMG (3 FP, range 8, 1 PP) rides a three-machine sidecar with
    a 9-1 leader and Deploys into two 2-4-7 HS. The LMG is not lost: the first HS, who keeps the flipped (two-machine)
    counter with the leader, still possesses it; the second HS, on the new two-machine counter, has none. One LMG
    before, one after; the leader's own (none) unchanged. Two CounterChanged events, both ASL-MOV-05.
    Source: ASL D15.44 (a Deploying squad's counter flips to its HS side; a second HS counter for the other HS)."""
    from hardpoint.asl.enums import Capacity, MachineType
    from hardpoint.asl.motorcycles import deploy_squad
    from hardpoint.asl.units import SupportWeapon

    lmg = SupportWeapon("lmg", "LMG", 3, 8, 1)
    sq = unit(rules, "sq", "4-6-7", hex="h", weapons=(lmg,))
    ldr = unit(rules, "ldr", "9-1", hex="h")
    sit = Situation((sq, ldr), (cycle(id="c", machines=3, hex="h", mtype=MachineType.SIDECAR, riders=("sq", "ldr")),))
    after, events = deploy_squad(rules, sit, "c", "sq", ("hs1", "hs2"), "c2")
    assert (after.unit("hs1").designation, after.unit("hs1").weapons) == ("2-4-7", (lmg,))
    assert (after.unit("hs2").designation, after.unit("hs2").weapons) == ("2-4-7", ())
    assert after.unit("ldr").weapons == ()
    assert [w for u in after.units for w in u.weapons] == [lmg]
    assert (after.machine("c").machines, after.machine("c").riders) == (Capacity.TWO, ("hs1", "ldr"))
    assert (after.machine("c2").machines, after.machine("c2").riders) == (Capacity.TWO, ("hs2",))
    assert [(e.machine, e.riders, e.rule) for e in events] == [("c", ("hs1", "ldr"), "ASL-MOV-05"),
                                                               ("c2", ("hs2",), "ASL-MOV-05")]


def test_asl_mov_05_unmounted_counters_in_different_hexes_do_not_recombine(rules):
    """ASL-MOV-05 (D15.44): two unmounted single-machine cycles would make a two-machine counter (1 + 1 = 2), but one
    is in hex h1 and the other in h2: refused (one Location only); the same two in h1 recombine. A single cycle and a
    single sidecar in one hex: refused too (one type only).
    Source: ASL D15.44 (Recombining: the same type, in the same Location, while unmounted)."""
    from hardpoint.asl.enums import Capacity, MachineType
    from hardpoint.asl.motorcycles import recombine_unmounted

    apart = Situation((), (cycle(id="a", machines=1, hex="h1"), cycle(id="b", machines=1, hex="h2")))
    with pytest.raises(RuleViolation, match="only counters of one type in one Location recombine") as err:
        recombine_unmounted(rules, apart, ("a", "b"), "ab")
    assert (err.value.rule, err.value.value) == ("ASL-MOV-05", ["a", "b"])
    together = Situation((), (cycle(id="a", machines=1, hex="h1"), cycle(id="b", machines=1, hex="h1")))
    after, events = recombine_unmounted(rules, together, ("a", "b"), "ab")
    assert (after.machine("ab").machines, after.machine("ab").hex) == (Capacity.TWO, "h1")
    assert [(e.machine, e.rule) for e in events] == [("ab", "ASL-MOV-05")]
    mixed = Situation((), (cycle(id="a", machines=1, hex="h1"), cycle(id="b", machines=1, hex="h1", mtype=MachineType.SIDECAR)))
    with pytest.raises(RuleViolation, match="only counters of one type in one Location recombine"):
        recombine_unmounted(rules, mixed, ("a", "b"), "ab")


def test_asl_mov_05_riders_in_different_hexes_do_not_recombine(rules):
    """ASL-MOV-05 (D15.44, A1.32): a 4-6-7 squad riding a three-machine cycle Deploys into two 2-4-7 HS, each on a
    two-machine cycle. While both counters are in hex h their HS recombine into the squad on one three-machine counter;
    once the second has ridden on to h2, the two are in different Locations: refused, nothing recombines. A
    two-machine sidecar beside the first cycle in h, carrying the other HS, is refused too (one type only).
    Source: ASL D15.44 (counters recombine when their Riders may recombine, in one Location)."""
    from dataclasses import replace

    from hardpoint.asl.enums import Capacity, MachineType
    from hardpoint.asl.motorcycles import deploy_squad, recombine_riders

    sq = unit(rules, "sq", "4-6-7", hex="h")
    sit = Situation((sq,), (cycle(id="c", machines=3, hex="h", riders=("sq",)),))
    deployed, _ = deploy_squad(rules, sit, "c", "sq", ("hs1", "hs2"), "c2")
    back, _ = recombine_riders(rules, deployed, ("c", "c2"), sq, "big")
    assert (back.machine("big").machines, back.machine("big").riders, back.machine("big").hex) == (Capacity.THREE, ("sq",), "h")
    moved = deployed.with_machine(replace(deployed.machine("c2"), hex="h2")).with_unit(replace(deployed.unit("hs2"), hex="h2"))
    with pytest.raises(RuleViolation, match="two HS-size counters of one type in one Location are needed") as err:
        recombine_riders(rules, moved, ("c", "c2"), sq, "big")
    assert (err.value.rule, err.value.value) == ("ASL-MOV-05", ["c", "c2"])
    sidecar = deployed.with_machine(replace(deployed.machine("c2"), type=MachineType.SIDECAR))
    with pytest.raises(RuleViolation, match="two HS-size counters of one type in one Location are needed"):
        recombine_riders(rules, sidecar, ("c", "c2"), sq, "big")


def test_asl_mov_05_an_smc_splits_off_only_the_counter_he_rides(rules):
    """ASL-MOV-05 (D15.44, D15.53): an 8-0 leader riding cycle d (with a squad) asks to split a single-machine counter
    off cycle c, which carries another squad and a 9-1 leader: refused, he does not ride c (rule ASL-MOV-05, field
    unit, value the leader); c keeps its three machines. The 9-1 who does ride c splits off: c keeps the squad, the
    new single-machine counter carries the 9-1.
    Source: ASL D15.44 (an SMC creates a single machine counter from an MMC counter), D15.53."""
    from hardpoint.asl.enums import Capacity
    from hardpoint.asl.motorcycles import split_smc

    units = (unit(rules, "sq1", "4-6-7", hex="h"), unit(rules, "l9", "9-1", hex="h"),
             unit(rules, "sq2", "4-6-7", hex="h"), unit(rules, "l8", "8-0", hex="h"))
    sit = Situation(units, (cycle(id="c", machines=3, hex="h", riders=("sq1", "l9")),
                            cycle(id="d", machines=3, hex="h", riders=("sq2", "l8"))))
    with pytest.raises(RuleViolation, match="the SMC does not ride this counter") as err:
        split_smc(rules, sit, "c", "l8", "solo", "test")
    assert (err.value.rule, err.value.field, err.value.value) == ("ASL-MOV-05", "unit", "l8")
    after, events = split_smc(rules, sit, "c", "l9", "solo", "test")
    assert (after.machine("c").machines, after.machine("c").riders) == (Capacity.THREE, ("sq1",))
    assert (after.machine("solo").machines, after.machine("solo").riders) == (Capacity.SINGLE, ("l9",))
    assert after.machine("d").riders == ("sq2", "l8")
    assert [(e.machine, e.riders, e.rule) for e in events] == [("solo", ("l9",), "ASL-MOV-05")]
