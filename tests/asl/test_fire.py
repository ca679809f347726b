"""Fire at motorcyclists and what it does (ASL-TGT-01, ASL-RES-01..05, ASL-FIRE-01, ASL-MOV-04, ASL-BIC-01, ASL-BIC-02)."""

from fractions import Fraction

import pytest

from hardpoint import RuleViolation, ScriptedDice
from hardpoint.asl.enums import MachineType, Motion
from hardpoint.asl.events import (BailOut, CounterChanged, IFTBreakdown, LeaderLoss, MoraleCheck, RandomSelection,
                                  ToHitBreakdown)
from hardpoint.asl.fire import firepower
from hardpoint.asl.motorcycles import check_close_combat, is_support_weapon, recover
from hardpoint.asl.units import Situation
from hardpoint.events import Note

from .conftest import cycle, d15_55_data, unit


def of(result, cls):
    return [e for e in result.events if isinstance(e, cls)]


def breakdowns(scn, cls):
    from hardpoint.asl.fire import explain_fire
    events = [e for f in scn.fires for e in explain_fire(scn.rules, scn.board, scn.situation, f)[1]]
    return {e.target: e for e in events if isinstance(e, cls)}


def small_arms(**kw):
    return {"id": "mg", "kind": "small_arms", "target": "target", "range": 4, "firers": ["enemy"], **kw}


def stack(motion="motion", mtype="cycle", riders=("squad", "leader"), machines=3, extra_units=(), fire=None, phase=None):
    data = d15_55_data()
    data["motorcycle"][0].update(motion=motion, type=mtype, riders=list(riders), machines=machines)
    if mtype == "bicycle":
        data["motorcycle"][0].pop("mp")
    data["unit"] += [dict(u) for u in extra_units]
    data["hex"].append({"id": "far"})
    data["unit"].append({"id": "enemy", "counter": "4-4-7", "type": "squad", "half_squad": "2-2-7", "hex": "far", "side": "russian"})
    if fire is not None:
        data["fire"] = [fire]
    import hardpoint
    return hardpoint.parse_scenario(data)


# --- ASL-TGT-01 ------------------------------------------------------------------------------------

def test_asl_tgt_01_to_hit_drm_for_riders(rules):
    """ASL-TGT-01: a mounted motorcyclist is an Infantry target with no size DRM: -1 To Hit vs ordnance, +2 Case J only
    when the motorcycle is moving or in Motion."""
    moving = breakdowns(stack("motion"), ToHitBreakdown)
    stopped = breakdowns(stack("stopped"), ToHitBreakdown)
    assert [m.value for m in moving["squad"].modifiers] == [2, -1] and moving["squad"].needed == 7
    assert [m.value for m in stopped["squad"].modifiers] == [-1] and stopped["squad"].needed == 9
    assert moving["crew"].needed == stopped["crew"].needed == 8


def test_asl_tgt_01_ordnance_hits_go_on_the_ift_with_no_rider_ift_drm(rules):
    """ASL-TGT-01: ordnance hits on motorcyclists are resolved on the IFT (its FP column), the -1 being a To Hit DRM."""
    ift = breakdowns(stack(), IFTBreakdown)
    assert ift["squad"].column == 12 and ift["squad"].modifiers == () and ift["squad"].given_hit
    assert sum(ift["squad"].distribution.values()) == 1


def test_asl_tgt_01_small_arms_minus_one_and_no_ffmo_ffnam_while_riding(rules):
    """ASL-TGT-01: -1 IFT DRM vs mounted motorcyclists for non-ordnance fire; riders get no FFMO/FFNAM even in
    Defensive First Fire, while Infantry moving in the open get both."""
    crew = {"id": "walker", "counter": "2-2-8", "hex": "target", "side": "german", "moving": "on_foot"}
    ift = breakdowns(stack(extra_units=[crew], fire=small_arms(phase="mph")), IFTBreakdown)
    assert [(m.value, m.rule) for m in ift["squad"].modifiers] == [(-1, "ASL-TGT-01")]
    assert sorted(m.name for m in ift["walker"].modifiers) == ["FFMO", "FFNAM"]
    assert ift["crew"].modifiers == ()


def test_asl_tgt_01_mounting_and_dismounting_personnel(rules):
    """ASL-TGT-01: mounting/dismounting Personnel always suffer FFNAM; a dismounting rider may suffer FFMO."""
    units = [{"id": "mounting", "counter": "8-0", "hex": "target", "side": "german", "moving": "mounting"},
             {"id": "dismounting", "counter": "9-1", "hex": "target", "side": "german", "moving": "dismounting"}]
    ift = breakdowns(stack(extra_units=units, fire=small_arms(phase="mph")), IFTBreakdown)
    assert [(m.value, m.rule) for m in ift["mounting"].modifiers] == [(-1, "ASL-TGT-01")]
    assert "FFNAM" in ift["mounting"].modifiers[0].name
    assert sorted(m.name.split(" ")[0] for m in ift["dismounting"].modifiers) == ["FFMO", "FFNAM"]
    prep = breakdowns(stack(extra_units=units, fire=small_arms(phase="pfph")), IFTBreakdown)
    assert prep["mounting"].modifiers == ()


def test_a4_6_assault_movement_in_the_open_suffers_ffmo_but_not_ffnam(rules):
    """A4.6 (ASL-TGT-01's contrast): a unit using Assault Movement is not moving Non-Assault, so Defensive First Fire
    gives it no FFNAM; in the open it still suffers FFMO: the one -1 (A4.6). Fired on in the PFPh, nothing."""
    crew = {"id": "assault", "counter": "2-2-8", "hex": "target", "side": "german", "moving": "assault"}
    ift = breakdowns(stack(extra_units=[crew], fire=small_arms(phase="mph")), IFTBreakdown)
    assert [(m.name, m.value, m.rule) for m in ift["assault"].modifiers] == [("FFMO", -1, "A4.6")]
    prep = breakdowns(stack(extra_units=[crew], fire=small_arms(phase="pfph")), IFTBreakdown)
    assert prep["assault"].modifiers == ()


def test_asl_tgt_01_fire_hits_the_rider_never_the_machine(rules):
    """ASL-TGT-01: the machine is never attacked: it takes no MC and no damage; only its riders' results change it."""
    result = stack().resolve(ScriptedDice([3, 4, 6, 5]))              # hit all; IFT 11: no effect
    assert all(e.unit != "cycle" for e in of(result, MoraleCheck))
    assert result.counters["cycle"] == "three-machine (squad) cycle, motion in target, riders squad, leader"


def gun_at(target_type, units, machines=(), rng=6, rules_override=None):
    import hardpoint
    data = d15_55_data()
    data["unit"] = [dict(u) for u in units]
    data["motorcycle"] = [dict(m) for m in machines]
    data["fire"][0].update(target_type=target_type, range=rng)
    if rules_override:
        data["rules"] = rules_override
    return hardpoint.parse_scenario(data)


CREW = {"id": "crew", "counter": "2-2-8", "hex": "target", "side": "german"}


def test_asl_tgt_01_area_target_type_where_no_motorcyclist_is(rules):
    """ASL-TGT-01 (D15.5), C3: Area Target Type ordnance at a hex with no motorcyclist is legal and uses the area row
    of the To Hit table: 7 at 0-6 hexes, 8 at 13-18 (the Infantry row gives 5 there). The crew is hit on an Original
    DR <= 7 (7/12); DR 3+4 = 7 hits; IFT 12 FP DR 1+2 = 3: K/3, the crew alone: Casualty Reduced, eliminated.
    Source: C3 To Hit table (asl_tables.md); D15.5
    """
    scn = gun_at("area", [CREW])
    th = breakdowns(scn, ToHitBreakdown)["crew"]
    assert (th.target_type, th.base, th.needed, th.probability) == ("area", 7, 7, Fraction(7, 12))
    assert breakdowns(gun_at("area", [CREW], rng=13), ToHitBreakdown)["crew"].base == 8
    assert breakdowns(gun_at("infantry", [CREW], rng=13), ToHitBreakdown)["crew"].base == 5
    result = scn.resolve(ScriptedDice([3, 4, 1, 2]))
    assert result.units["crew"] == "eliminated"
    # a bicyclist is a normal Infantry target (ASL-BIC-02): Area fire is open there too, with his -1 To Hit
    bike = [{"id": "bike", "type": "bicycle", "machines": 1, "hex": "target", "riders": ["ldr"]}]
    ldr = {"id": "ldr", "counter": "8-0", "hex": "target", "side": "german"}
    assert breakdowns(gun_at("area", [CREW, ldr], bike), ToHitBreakdown)["ldr"].needed == 8


def test_asl_tgt_01_riders_are_not_fired_on_with_area_or_vehicle_target_types(rules):
    """ASL-TGT-01 (D15.5): a hex holding mounted motorcyclists is fired on with the Infantry Target Type only (refused
    naming the field, the value and ASL-TGT-01); the `vs_motorcyclists` setting can open Area fire as a house rule.
    The Vehicle Target Type has nothing to hit anywhere: at a hex with no motorcyclist it is refused citing C3.
    Source: D15.5
    """
    import hardpoint
    data = d15_55_data()
    for tt in ("area", "vehicle"):
        data["fire"][0]["target_type"] = tt
        with pytest.raises(RuleViolation) as err:
            hardpoint.parse_scenario(data)
        assert (err.value.rule, err.value.field, err.value.value) == ("ASL-TGT-01", "fire.gun.target_type", tt)
    with pytest.raises(RuleViolation) as err:
        gun_at("vehicle", [CREW])
    assert (err.value.rule, err.value.field, err.value.value) == ("C3", "fire.gun.target_type", "vehicle")
    data["fire"][0]["target_type"] = "area"
    data["rules"] = {"asl": {"tohit": {"target_type": {"vs_motorcyclists": ["infantry", "area"]}}}}
    th = breakdowns(hardpoint.parse_scenario(data), ToHitBreakdown)
    assert th["squad"].base == 7 and th["squad"].needed == 7 - 2 + 1 and th["crew"].needed == 7


# --- ASL-RES-01, ASL-RES-02 ----------------------------------------------------------------------

def lone_rider(motion="motion", counter="8-0", fire_fp=12, machines=1):
    data = d15_55_data()
    data["unit"] = [{"id": "rider", "counter": counter, "hex": "target", "side": "german"}]
    data["motorcycle"][0].update(machines=machines, riders=["rider"], motion=motion)
    data["fire"][0]["fp"] = fire_fp
    import hardpoint
    return hardpoint.parse_scenario(data)


def test_asl_res_01_kia_removes_rider_and_motorcycle_no_wreck(rules):
    """ASL-RES-01 (D15.51): KIA removes the rider and the motorcycle; no wreck, no blaze."""
    scn = lone_rider()
    result = scn.resolve(ScriptedDice([1, 1, 1, 1]))                # To Hit 2; IFT 2 on 12 FP: 1KIA
    assert result.units["rider"] == "eliminated" and result.counters["cycle"] == "removed"
    removed = [c for c in of(result, CounterChanged) if c.machine == "cycle"][0]
    assert removed.rule == "ASL-RES-01" and "no wreck, no blaze" in removed.after
    assert scn.board.hex("target").features == frozenset()


def test_asl_res_02_k_on_a_lone_hs_rider_needs_no_random_selection(rules):
    """ASL-RES-02: one rider, one unit: no Random Selection; a HS Casualty Reduced is eliminated and its counter goes."""
    scn = lone_rider(counter="2-4-7", machines=2)
    result = scn.resolve(ScriptedDice([1, 1, 1, 2]))                # IFT 3: K/3
    assert of(result, RandomSelection) == [] and result.units["rider"] == "eliminated" and result.counters["cycle"] == "removed"


def test_asl_res_02_k_selecting_the_leader_wounds_him_and_all_take_the_mc(rules):
    """ASL-RES-02: Random Selection picks the leader: wounded (an 8-0 becomes 7+1), the counter keeps its size for the
    squad, and every unit hit, the wounded one included, takes the 3MC."""
    result = stack().resolve(ScriptedDice([3, 4, 1, 2, 1, 2, 6, 1, 1, 1, 1, 1, 1]))
    assert of(result, RandomSelection)[0].selected == ("leader",)
    assert result.units["leader"] == "leader 8-0 wounded in target, riding cycle"
    assert [m.unit for m in of(result, MoraleCheck)] == ["leader", "crew", "squad"]
    assert result.counters["cycle"].startswith("three-machine")


def test_asl_res_02_kia_survivors_break_and_counter_shrinks(rules):
    """ASL-RES-02 (D15.52), A7.301: 1KIA on the squad: the counter shrinks to a single machine for the leader, who is
    broken by the KIA (automatic break) and so bails out (ASL-RES-03)."""
    scn = stack(fire=None)
    data = d15_55_data()
    data["unit"] = data["unit"][1:]
    import hardpoint
    scn = hardpoint.parse_scenario(data)
    result = scn.resolve(ScriptedDice([3, 4, 1, 1, 5, 2, 1, 1]))      # IFT 2: 1KIA; dr squad 5 > leader 2; NMC 2
    assert of(result, RandomSelection)[0].selected == ("squad",)
    shrink = [c for c in of(result, CounterChanged) if c.rule == "ASL-RES-01"]
    assert shrink and shrink[0].after.startswith("single-machine")
    assert [b.unit for b in of(result, BailOut)] == ["leader"]
    assert result.units["squad"] == "eliminated" and result.units["leader"].startswith("leader 8-0 broken")


def hs_and_three_smc(mtype="cycle"):
    import hardpoint
    data = d15_55_data()
    data["unit"] = [{"id": "hs", "counter": "2-4-7", "hex": "target"}, {"id": "a", "counter": "8-0", "hex": "target"},
                    {"id": "b", "counter": "9-1", "hex": "target"}, {"id": "c", "counter": "7-0", "hex": "target"}]
    data["motorcycle"][0].update(type=mtype, machines=2, riders=["hs", "a", "b", "c"])
    return hardpoint.parse_scenario(data)


def test_asl_res_02_d15_52_three_smc_left_get_single_machine_counters(rules):
    """ASL-RES-02 (D15.52), ASL-MOV-05 (D15.44): a half-squad riding a two-machine cycle with three SMC is eliminated; the
    SMC could not Start a two-machine counter (ASL-MOV-01), so the excess is removed by substitution: the counter
    becomes a single machine carrying a and b (a cycle carries two SMC), and c gets a single-machine counter of his
    own, both still in Motion.

    To Hit 3+4 = 7 hits all four (TH# 8 +2 Case J -1 mounted). IFT 12 FP, DR 1+2 = 3: K/3. Random Selection dr hs 6,
    a 1, b 2, c 3: the HS, Casualty Reduced: eliminated. 3MC, leaders in order: a 1+1+3-1 (b) = 4 <= 8; b 1+1+3 = 5
    <= 9; c 1+2+3-1 = 5 <= 7: all pass.
    Source: D15.52; D15.44
    """
    from hardpoint.asl.motorcycles import check_can_move
    from hardpoint.asl.chance import run_chain
    scn = hs_and_three_smc()
    dice = [3, 4, 1, 2, 6, 1, 2, 3, 1, 1, 1, 1, 1, 2]
    result = scn.resolve(ScriptedDice(dice))
    changes = [(c.machine, c.before, c.after, c.riders, c.rule) for c in of(result, CounterChanged)]
    assert changes == [
        ("cycle", "two-machine (HS) cycle, motion", "single-machine (SMC) cycle, motion", ("a", "b"), "ASL-RES-02"),
        ("cycle+c", "(none)", "single-machine (SMC) cycle, motion", ("c",), "ASL-RES-02")]
    assert result.units["hs"] == "eliminated"
    assert result.counters == {"cycle": "single-machine (SMC) cycle, motion in target, riders a, b",
                               "cycle+c": "single-machine (SMC) cycle, motion in target, riders c"}
    final, _ = run_chain(scn.chain(), scn.initial(), ScriptedDice(dice))
    for m in final.situation.machines:           # each SMC can Start his own counter
        check_can_move(rules, m, final.situation.riders(m))
    # a two-machine sidecar: one single sidecar carries all three SMC, no new counter
    side = hs_and_three_smc("sidecar").resolve(ScriptedDice(dice))
    assert side.counters == {"cycle": "single-machine (SMC) sidecar, motion in target, riders a, b, c"}


def test_asl_res_03_d15_52_smc_on_a_substituted_counter_still_bail_out(rules):
    """ASL-RES-03 (D15.52, D15.53): the riders the casualty did not touch are governed by the MC that follows, on
    whatever counter the substitution gave them: c breaks on his new single-machine counter in Motion and bails out.

    As above, but c's 3MC is 6+6+3-1 = 14 > 7: breaks; Bail Out NMC 1+1-1 (b) = 1 <= 7: passes, broken, dismounted.
    Source: D15.52; D15.53
    """
    result = hs_and_three_smc().resolve(ScriptedDice([3, 4, 1, 2, 6, 1, 2, 3, 1, 1, 1, 1, 6, 6, 1, 1]))
    assert [(b.unit, b.machine) for b in of(result, BailOut)] == [("c", "cycle+c")]
    assert [m.check for m in of(result, MoraleCheck)][-1] == "Bail Out NMC"
    assert result.units["c"] == "leader 7-0 broken in target"
    assert result.counters["cycle+c"] == "single-machine (SMC) cycle, stopped, unmounted in target"


# --- ASL-RES-03 --------------------------------------------------------------------------------------

def test_asl_res_03_stopped_motorcycle_rider_dismounts_without_nmc(rules):
    """ASL-RES-03 (D15.53): a rider who breaks on a stopped motorcycle dismounts with no further effect."""
    result = stack("stopped").resolve(ScriptedDice([3, 4, 2, 2, 5, 5, 5, 5, 5, 5]))      # IFT 4: 3MC; all fail
    bails = of(result, BailOut)
    assert {b.unit for b in bails} == {"squad", "leader"} and all("dismounts" in b.how for b in bails)
    assert [m.check for m in of(result, MoraleCheck)] == ["3MC", "3MC", "3MC"]          # no Bail Out NMC
    assert result.counters["cycle"].endswith("unmounted in target")


def test_asl_res_03_two_smc_on_one_machine_both_bail_out(rules):
    """ASL-RES-03 (D15.53): two SMC on one machine: if one breaks, both bail out (and both take the NMC)."""
    data = d15_55_data()
    data["unit"] = [{"id": "a", "counter": "8-0", "hex": "target"}, {"id": "b", "counter": "9-1", "hex": "target"}]
    data["motorcycle"][0].update(machines=1, riders=["a", "b"])
    import hardpoint
    scn = hardpoint.parse_scenario(data)
    # To Hit 7; IFT 4 (3MC); a: 6+3-1(b's leadership) = 8: passes?; b first (leader order by position): both leaders.
    result = scn.resolve(ScriptedDice([3, 4, 2, 2, 1, 1, 5, 5, 1, 1, 1, 1]))
    mcs = of(result, MoraleCheck)
    broke = [m.unit for m in mcs if m.outcome == "fails: breaks"]
    assert len(broke) == 1
    assert {b.unit for b in of(result, BailOut)} == {"a", "b"}
    assert sorted(m.unit for m in mcs if m.check == "Bail Out NMC") == ["a", "b"]
    assert result.counters["cycle"].endswith("unmounted in target")


def test_asl_res_03_the_machine_never_takes_an_mc_and_smc_gets_own_counter(rules):
    """ASL-RES-03: riders take the MC, the motorcycle never; an MMC breaking under an SMC who does not gives the SMC a
    single-machine counter in the same Motion (checked in full by the D15.55 golden test)."""
    result = stack().resolve(ScriptedDice([3, 4, 2, 2, 1, 1, 1, 1, 5, 5, 1, 1]))    # 3MC: leader passes, crew passes, squad fails
    assert {m.unit for m in of(result, MoraleCheck)} <= {"crew", "squad", "leader"}
    assert result.counters["cycle+leader"].startswith("single-machine (SMC) cycle, motion")


def lone_rider_data(counter="4-6-7", machines=3, bail_out=None):
    data = d15_55_data()
    data["unit"] = [{"id": "rider", "counter": counter, "hex": "target", "side": "german"}]
    data["motorcycle"][0].update(machines=machines, riders=["rider"], motion="motion")
    if bail_out is not None:
        data["rules"] = {"asl": {"morale": {"bail_out": bail_out}}}
    import hardpoint
    return hardpoint.parse_scenario(data)


def test_asl_res_03_broken_squad_failing_the_bail_out_nmc_is_casualty_reduced(rules):
    """ASL-RES-03 (D15.53) and the SPEC Bail Out ruling: a squad that breaks and then fails its Bail Out NMC suffers
    Casualty Reduction: it becomes a broken half-squad, dismounted; its counter stays in the hex, unmounted.

    To Hit: TH# 8 +2 (Case J) -1 (mounted) = 7; Original DR 3+4 = 7 hits. IFT 12 FP column, DR 2+2 = 4: 3MC.
    3MC: 3+3 + 3 = 9 > morale 7: breaks. Bail Out (Motion): NMC 4+4 = 8 > 7: fails while broken:
    4-6-7 -> 2-4-7 (A7.302), still broken. Dice: 3 4 | 2 2 | 3 3 | 4 4.
    Source: D15.53; D15.55 example (the HS failing the NMC is eliminated: a HS is Reduced to nothing)
    """
    result = lone_rider_data().resolve(ScriptedDice([3, 4, 2, 2, 3, 3, 4, 4]))
    mcs = of(result, MoraleCheck)
    assert [(m.check, m.final, m.outcome) for m in mcs] == [
        ("3MC", 9, "fails: breaks"),
        ("Bail Out NMC", 8, "fails again while broken: Casualty Reduced to half_squad 2-4-7 broken")]
    assert [(b.unit, b.rule) for b in of(result, BailOut)] == [("rider", "ASL-RES-03")]
    assert result.units["rider"] == "half_squad 2-4-7 broken in target"
    assert result.counters["cycle"] == "three-machine (squad) cycle, stopped, unmounted in target"


def test_asl_res_03_broken_smc_failing_the_bail_out_nmc_is_eliminated(rules):
    """ASL-RES-03 (SPEC Bail Out ruling): for an SMC the Casualty Reduction of a failed Bail Out NMC is elimination
    (not a wound); the `bail_out.smc` setting makes him only wounded, `bail_out.broken_fails = "eliminate"` eliminates
    a squad outright.

    8-0 on a single cycle in Motion: To Hit 7 hits; IFT DR 4: 3MC; 3+3+3 = 9 > 8 breaks; NMC 5+5 = 10 > 8 fails.
    Source: D15.53
    """
    dice = [3, 4, 2, 2, 3, 3, 5, 5]
    result = lone_rider_data("8-0", machines=1).resolve(ScriptedDice(dice))
    assert of(result, MoraleCheck)[-1].outcome == "fails: eliminated" and result.units["rider"] == "eliminated"
    assert result.counters["cycle"] == "single-machine (SMC) cycle, stopped, unmounted in target"
    wounded = lone_rider_data("8-0", machines=1, bail_out={"smc": "wounded"}).resolve(ScriptedDice(dice))
    assert wounded.units["rider"] == "leader 8-0 broken wounded in target"
    strict = lone_rider_data(bail_out={"broken_fails": "eliminate"}).resolve(ScriptedDice([3, 4, 2, 2, 3, 3, 4, 4]))
    assert strict.units["rider"] == "eliminated"


def test_asl_res_03_good_order_rider_failing_the_bail_out_nmc_breaks(rules):
    """ASL-RES-03 (D15.53): of two SMC on one machine only one breaks, both bail out; the one in good order who fails
    the NMC breaks (he is not Reduced); the broken one failing it is eliminated.

    To Hit 7 hits both; IFT DR 4: 3MC. a (8-0) first: 1+1+3 -1 (b's leadership) = 4 passes; b (9-1): 6+6+3 = 15
    breaks. Both bail out: NMC a 5+5 = 10 > 8 (b is broken: no leadership): breaks; b 6+5 = 11 > 9: eliminated.
    Source: D15.53
    """
    import hardpoint
    data = d15_55_data()
    data["unit"] = [{"id": "a", "counter": "8-0", "hex": "target"}, {"id": "b", "counter": "9-1", "hex": "target"}]
    data["motorcycle"][0].update(machines=1, riders=["a", "b"])
    result = hardpoint.parse_scenario(data).resolve(ScriptedDice([3, 4, 2, 2, 1, 1, 6, 6, 5, 5, 6, 5]))
    mcs = of(result, MoraleCheck)
    assert [(m.unit, m.check, m.final, m.outcome) for m in mcs] == [
        ("a", "3MC", 4, "passes"), ("b", "3MC", 15, "fails: breaks"),
        ("a", "Bail Out NMC", 10, "fails: breaks"), ("b", "Bail Out NMC", 11, "fails: eliminated")]
    assert result.units == {"a": "leader 8-0 broken in target", "b": "eliminated"}


# --- ASL-RES-04 ----------------------------------------------------------------------------------------

def test_asl_res_04_ptc_result_not_resolved_vs_motorcyclists(rules):
    """ASL-RES-04 (D15.54): a PTC result pins the crew on foot (if it fails) but is not resolved vs the riders."""
    result = stack().resolve(ScriptedDice([3, 4, 5, 5, 6, 6]))      # IFT 10 on 12 FP: PTC; crew PTC DR 12: pinned
    ptc = of(result, MoraleCheck)
    assert [(m.unit, m.roll is None) for m in ptc] == [("crew", False), ("squad", True), ("leader", True)]
    assert result.units["crew"].endswith("pinned in target")
    assert "pinned" not in result.units["squad"]


def test_asl_res_04_llmc_never_for_or_from_a_motorcyclist(rules):
    """ASL-RES-04 (D15.55): a broken rider leader causes no LLMC; a leader on foot who breaks obliges the units on foot
    (not the riders) to take one (A10.2, reported)."""
    result = stack().resolve(ScriptedDice([3, 4, 2, 2, 6, 6, 1, 1, 1, 1, 1, 1]))    # 3MC: leader 12: breaks
    notes = [n for n in of(result, Note) if n.rule == "ASL-RES-04"]
    assert notes and of(result, LeaderLoss) == []
    foot = d15_55_data()
    foot["unit"].append({"id": "boss", "counter": "9-1", "hex": "target", "side": "german"})
    import hardpoint
    scn = hardpoint.parse_scenario(foot)
    result = scn.resolve(ScriptedDice([3, 4, 2, 2, 1, 1, 6, 6, 1, 1, 1, 1]))       # 3MC: leader, boss (breaks), crew, squad
    loss = of(result, LeaderLoss)
    assert [(l.leader, l.units, l.exempt) for l in loss] == [("boss", ("crew",), ("squad", "leader"))]


def test_asl_res_04_a_wounded_rider_leader_still_causes_a_llmc(rules):
    """ASL-RES-04 (D15.55, A10.2): only a broken or eliminated motorcyclist causes no LLMC. A rider leader who is only
    wounded obliges the good-order units on foot in his Location (the crew) to take one; the riders (the squad) are
    exempt.

    To Hit 3+4 = 7 hits all; IFT 1+2 = 3: K/3; Random Selection dr crew 1, squad 2, leader 6: the leader, wounded
    (8-0 -> 7+1). 3MC: leader 1+1+3 = 5 <= 7; crew 1+1+3+1 (his leadership) = 6 <= 8; squad 6 <= 7: all pass.
    Source: D15.55
    """
    result = stack().resolve(ScriptedDice([3, 4, 1, 2, 1, 2, 6, 1, 1, 1, 1, 1, 1]))
    assert result.units["leader"] == "leader 8-0 wounded in target, riding cycle"
    assert [(l.leader, l.units, l.exempt) for l in of(result, LeaderLoss)] == [("leader", ("crew",), ("squad",))]
    assert not [n for n in of(result, Note) if n.rule == "ASL-RES-04"]


def test_asl_res_04_wounded_rider_need_not_bail_out(rules):
    """ASL-RES-04 (D15.56): a wounded rider (in Motion) does not bail out or dismount."""
    result = lone_rider().resolve(ScriptedDice([3, 4, 1, 2, 1, 1]))     # K/3: leader wounded; 3MC passes
    assert "wounded" in result.units["rider"] and result.units["rider"].endswith("riding cycle")
    assert of(result, BailOut) == []


# --- ASL-RES-05 ------------------------------------------------------------------------------------------

def test_asl_res_05_unmounted_motorcycle_is_a_sw_recovered_not_captured(rules):
    """ASL-RES-05 (D15.5, D15.7): an unmounted motorcycle is a SW; it is Recovered like one (dr <= 5), changes sides,
    and keeps its MP and M# (no captured-use penalty); a mounted one cannot be recovered."""
    sit = Situation((unit(rules, "ivan", "4-4-7", type="squad", half_squad="2-2-7", side="russian"), unit(rules, "hans", "8-0")),
                    (cycle(id="parked", machines=1, m_number=9), cycle(id="ridden", machines=1, riders=["hans"])))
    assert is_support_weapon(sit.machine("parked")) and not is_support_weapon(sit.machine("ridden"))
    after, events = recover(rules, sit, "parked", "ivan", ScriptedDice([5]))
    m = after.machine("parked")
    assert m.side == "russian" and (m.mp, m.m_number) == (28, 9) and events[-1].rule == "ASL-RES-05"
    same, _ = recover(rules, sit, "parked", "ivan", ScriptedDice([6]))
    assert same.machine("parked").side == "german"
    with pytest.raises(RuleViolation) as err:
        recover(rules, sit, "ridden", "ivan", ScriptedDice([1]))
    assert err.value.rule == "ASL-RES-05"
    assert is_support_weapon(cycle(mtype=MachineType.BICYCLE, riders=["x"]))


# --- ASL-FIRE-01, ASL-BIC-01 ---------------------------------------------------------------------------

def rider_fire(mtype="cycle", machines=3, riders=("squad", "leader"), fire=None, units=None):
    import hardpoint
    data = d15_55_data()
    if units is not None:
        data["unit"] = units
    data["motorcycle"][0].update(type=mtype, machines=machines, riders=list(riders), hex="target")
    if mtype == "bicycle":
        data["motorcycle"][0].pop("mp")
        data["motorcycle"][0]["motion"] = "stopped"
    data["hex"].append({"id": "enemy_hex"})
    data["unit"] = data["unit"] + [{"id": "enemy", "counter": "4-4-7", "type": "squad", "half_squad": "2-2-7", "hex": "enemy_hex",
                                    "side": "russian"}]
    data["fire"] = [fire or {"id": "f", "kind": "small_arms", "target": "enemy_hex", "range": 3, "firers": ["squad"]}]
    return hardpoint.parse_scenario(data)


def test_asl_fire_01_cycle_riders_cannot_fire(rules):
    """ASL-FIRE-01 (D15.6): riders on a cycle cannot attack on the IFT (refused on load) or in CC."""
    with pytest.raises(RuleViolation) as err:
        rider_fire("cycle")
    assert err.value.rule == "ASL-FIRE-01" and err.value.field == "fire.firers"
    sit = Situation((unit(rules, "sq", "4-6-7"),), (cycle(riders=["sq"]),))
    with pytest.raises(RuleViolation):
        check_close_combat(sit, sit.unit("sq"))


def test_asl_fire_01_sidecar_riders_fire_at_half_fp_halved_again(rules):
    """ASL-FIRE-01: sidecar riders fire at half FP (Mounted Fire), halved again for any other halving."""
    scn = rider_fire("sidecar")
    assert firepower(rules, scn.situation, scn.fires[0]).total == 2               # 4 FP x 1/2
    far = rider_fire("sidecar", fire={"id": "f", "kind": "small_arms", "target": "enemy_hex", "range": 9, "firers": ["squad"],
                                      "halvings": ["advancing fire"]})
    assert firepower(rules, far.situation, far.fires[0]).total == Fraction(1, 2)  # 4 /2 long range /2 mounted /2 AFPh


def test_asl_fire_01_sidecar_support_weapons(rules):
    """ASL-FIRE-01: a sidecar's only SW are an LMG or a thrown DC; a single sidecar needs two SMC riders to use one."""
    lmg = {"id": "lmg", "type": "LMG", "fp": 3, "range": 8, "pp": 1}
    mmg = {"id": "mmg", "type": "MMG", "fp": 4, "range": 10, "pp": 3}
    units = [{"id": "squad", "counter": "4-6-7", "hex": "target", "weapons": [mmg]}, {"id": "leader", "counter": "8-0", "hex": "target"}]
    with pytest.raises(RuleViolation) as err:
        rider_fire("sidecar", units=units, fire={"id": "f", "kind": "small_arms", "target": "enemy_hex", "range": 3,
                                                 "firers": ["squad"], "weapons": {"squad": "mmg"}})
    assert err.value.rule == "ASL-FIRE-01"
    one = [{"id": "a", "counter": "8-0", "hex": "target", "weapons": [lmg]}]
    with pytest.raises(RuleViolation) as err:
        rider_fire("sidecar", machines=1, riders=("a",), units=one,
                   fire={"id": "f", "kind": "small_arms", "target": "enemy_hex", "range": 3, "firers": ["a"], "weapons": {"a": "lmg"}})
    assert err.value.rule == "ASL-FIRE-01" and "two" in str(err.value).lower() or "2 SMC" in str(err.value)
    two = one + [{"id": "b", "counter": "9-1", "hex": "target"}]
    ok = rider_fire("sidecar", machines=1, riders=("a", "b"), units=two,
                    fire={"id": "f", "kind": "small_arms", "target": "enemy_hex", "range": 3, "firers": ["a"], "weapons": {"a": "lmg"}})
    assert firepower(rules, ok.situation, ok.fires[0]).total == Fraction(3, 2)


def test_asl_bic_01_mounted_bicyclist_cannot_fire(rules):
    """ASL-BIC-01: every cycle rule applies to bicycles: a mounted bicyclist cannot attack on the IFT or in CC."""
    with pytest.raises(RuleViolation) as err:
        rider_fire("bicycle")
    assert err.value.rule == "ASL-BIC-01"
    sit = Situation((unit(rules, "sq", "4-6-7"),), (cycle(mtype=MachineType.BICYCLE, riders=["sq"]),))
    with pytest.raises(RuleViolation) as err:
        check_close_combat(sit, sit.unit("sq"))
    assert err.value.rule == "ASL-BIC-01"


# --- ASL-MOV-04: overrun ----------------------------------------------------------------------------------

def overrun_data(mtype="sidecar", riders=("squad", "leader"), machines=3, **fire):
    data = d15_55_data()
    data["hex"].append({"id": "enemy_hex"})
    data["unit"] = [dict(u, hex="enemy_hex") for u in data["unit"]]
    data["unit"].append({"id": "enemy", "counter": "4-4-7", "type": "squad", "half_squad": "2-2-7", "hex": "enemy_hex", "side": "russian"})
    data["motorcycle"][0].update(type=mtype, hex="enemy_hex", riders=list(riders), machines=machines, motion="moving")
    if mtype == "bicycle":
        data["motorcycle"][0].pop("mp")
        data["motorcycle"][0]["motion"] = "stopped"
    data["fire"] = [{"id": "ovr", "kind": "overrun", "machine": "cycle", "target": "enemy_hex", "range": 0, "fp": 2, "phase": "mph",
                     **fire}]
    return data


def overrun(mtype="sidecar", riders=("squad", "leader"), machines=3):
    import hardpoint
    return hardpoint.parse_scenario(overrun_data(mtype, riders, machines))


def test_asl_mov_04_sidecar_overrun_adds_a_quarter_of_riders_fp_at_tpbf(rules):
    """ASL-MOV-04 (D15.43): a sidecar overruns as an unarmoured vehicle adding 1/4 of its riders' FP, tripled (TPBF);
    the attack hits the enemy units of the Location, not the riders nor their friends (the crew), and never cowers
    (a vehicle). Base 2 + (4 + 0) x 3 / 4 = 5 FP: the 4 FP column.
    Source: D15.43
    """
    scn = overrun()
    fp = firepower(rules, scn.situation, scn.fires[0])
    assert fp.total == 2 + Fraction(4 * 3, 4)                         # base 2 + (4 + 0) x 3 / 4 = 5
    ift = breakdowns(scn, IFTBreakdown)
    assert set(ift) == {"enemy"} and not ift["enemy"].cowers and ift["enemy"].column == 4


@pytest.mark.parametrize("change,field,value", [
    ({"motorcycle": {"motion": "stopped"}}, "fire.ovr.machine", "cycle"),
    ({"motorcycle": {"motion": "motion"}}, "fire.ovr.machine", "cycle"),
    ({"fire": {"phase": "pfph"}}, "fire.ovr.phase", "pfph"),
    ({"fire": {"phase": "dfph"}}, "fire.ovr.phase", "dfph"),
    ({"fire": {"target": "target"}}, "fire.ovr.target", "target"),
    ({"fire": {"range": 1}}, "fire.ovr.range", 1),
])
def test_asl_mov_04_overrun_only_by_a_moving_sidecar_in_its_mph_against_its_own_hex(rules, change, field, value):
    """ASL-MOV-04 (D15.43): a sidecar overruns in the manner of a vehicle: in its own MPh, moving (not stopped, not
    merely in Motion from an earlier phase), against the hex it has entered (range 0). Anything else is refused on
    load naming the field, the value and the rule, and nothing is resolved.
    Source: D15.43
    """
    import hardpoint
    data = overrun_data()
    data["motorcycle"][0].update(change.get("motorcycle", {}))
    data["fire"][0].update(change.get("fire", {}))
    with pytest.raises(RuleViolation) as err:
        hardpoint.parse_scenario(data)
    assert (err.value.rule, err.value.field, err.value.value) == ("ASL-MOV-04", field, value)


def test_asl_mov_04_only_sidecars_overrun(rules):
    """ASL-MOV-04: a cycle may ride through an enemy hex but not overrun; ASL-BIC-02: a bicycle never overruns."""
    with pytest.raises(RuleViolation) as err:
        overrun("cycle")
    assert err.value.rule == "ASL-MOV-04"
    with pytest.raises(RuleViolation) as err:
        overrun("bicycle")
    assert err.value.rule == "ASL-BIC-02"


# --- ASL-BIC-02: bicyclists as targets --------------------------------------------------------------------

def test_asl_bic_02_bicyclist_target_status(rules):
    """ASL-BIC-02 (D15.85): a mounted bicyclist: -1 To Hit (ordnance) and -1 IFT (other fire), no Case J (not a
    vehicle), FFMO/FFNAM when moving in First Fire."""
    th = breakdowns(stack("stopped", mtype="bicycle"), ToHitBreakdown)
    assert [(m.value, m.rule) for m in th["squad"].modifiers] == [(-1, "ASL-BIC-02")] and th["squad"].needed == 9
    import hardpoint
    data = d15_55_data()
    data["motorcycle"][0].update(type="bicycle", motion="stopped")
    data["motorcycle"][0].pop("mp")
    data["unit"][1]["moving"] = "riding"
    data["hex"].append({"id": "far"})
    data["unit"].append({"id": "enemy", "counter": "4-4-7", "type": "squad", "half_squad": "2-2-7", "hex": "far", "side": "russian"})
    data["fire"] = [small_arms(phase="mph")]
    ift = breakdowns(hardpoint.parse_scenario(data), IFTBreakdown)
    assert sorted((m.name, m.value) for m in ift["squad"].modifiers) == [("FFMO", -1), ("FFNAM", -1), ("mounted bicyclist", -1)]
    assert [m.name for m in ift["leader"].modifiers] == ["mounted bicyclist"]


def test_asl_bic_02_bicyclist_never_bails_out(rules):
    """ASL-BIC-02: a bicyclist who breaks never bails out (no NMC); RULING: he is dismounted at no cost."""
    result = stack("stopped", mtype="bicycle").resolve(ScriptedDice([3, 4, 2, 2, 1, 1, 1, 1, 5, 5]))
    bails = of(result, BailOut)
    assert [(b.unit, b.rule) for b in bails] == [("squad", "ASL-BIC-02")] and "no cost" in bails[0].how
    assert all(m.check != "Bail Out NMC" for m in of(result, MoraleCheck))
    assert result.units["leader"].endswith("riding cycle")


def test_cancelled_when_the_firer_broke_earlier(rules):
    """ERR-01 at resolution: a declared attack made illegal by an earlier result (its firer broken) is cancelled with a note."""
    import hardpoint
    data = d15_55_data()
    data["unit"] = [data["unit"][0]]
    data.pop("motorcycle")
    data["hex"].append({"id": "far"})
    data["unit"].append({"id": "enemy", "counter": "4-4-7", "type": "squad", "half_squad": "2-2-7", "hex": "far", "side": "russian"})
    data["fire"] = [{"id": "back", "kind": "small_arms", "target": "target", "range": 2, "firers": ["enemy"]},
                    {"id": "again", "kind": "small_arms", "target": "far", "range": 2, "firers": ["crew"]}]
    scn = hardpoint.parse_scenario(data)
    result = scn.resolve(ScriptedDice([1, 2, 6, 6]))        # 4 FP column, DR 3: 2MC; crew 14 > 8: breaks
    assert result.units["crew"].startswith("crew 2-2-8 broken")
    notes = [e for e in result.events if isinstance(e, Note) and e.text.startswith("again cancelled")]
    assert len(notes) == 1 and notes[0].rule == "A10"


def test_asl_bic_02_no_case_j_for_a_bicycle_even_if_moving(rules):
    """ASL-BIC-02, ASL-TGT-01: Case J is a vehicular DRM: never for a bicycle (a SW, not a vehicle)."""
    from hardpoint.asl.motorcycles import case_j_applies
    assert case_j_applies(cycle(motion=Motion.MOTION)) and not case_j_applies(cycle(motion=Motion.STOPPED))
    assert not case_j_applies(cycle(mtype=MachineType.BICYCLE, motion=Motion.MOVING))


def fp_of(rules, fire, units=None, extra_units=()):
    import hardpoint
    data = d15_55_data()
    data["hex"].append({"id": "far"})
    data["unit"].append({"id": "enemy", "counter": "4-4-7", "type": "squad", "half_squad": "2-2-7", "hex": "far", "side": "russian"})
    data["unit"] += list(extra_units)
    data["fire"] = [fire]
    scn = hardpoint.parse_scenario(data)
    return scn, firepower(rules, scn.situation, scn.fires[0])


@pytest.mark.parametrize("rng,extra,fp", [
    (4, {}, 4), (1, {}, 8), (0, {"tpbf": True}, 12), (5, {}, 2), (8, {}, 2), (3, {"halvings": ["advancing fire"]}, 2),
])
def test_a7_firepower_modifiers(rules, rng, extra, fp):
    """A7.2: PBF doubles (range 1), TPBF triples, long range (up to twice normal) halves, each declared halving halves."""
    _, got = fp_of(rules, {"id": "f", "kind": "small_arms", "target": "target", "range": rng, "firers": ["enemy"], **extra})
    assert got.total == fp


def test_a7_beyond_long_range_and_broken_firers_are_refused(rules):
    """A7.22: no fire beyond twice the normal range; A10: a broken unit does not fire."""
    with pytest.raises(RuleViolation) as err:
        fp_of(rules, {"id": "f", "kind": "small_arms", "target": "target", "range": 9, "firers": ["enemy"]})
    assert err.value.rule == "A7.22"
    import hardpoint
    data = d15_55_data()
    data["hex"].append({"id": "far"})
    data["unit"].append({"id": "enemy", "counter": "4-4-7", "type": "squad", "half_squad": "2-2-7", "hex": "far", "broken": True})
    data["fire"] = [{"id": "f", "kind": "small_arms", "target": "target", "range": 2, "firers": ["enemy"]}]
    with pytest.raises(RuleViolation) as err:
        hardpoint.parse_scenario(data)
    assert err.value.rule == "A10"


def test_a10_7_leader_directed_fire_adds_leadership_and_does_not_cower(rules):
    """A10.7, A7.9: a leader directing the fire adds his leadership modifier to the IFT DR; directed fire never cowers."""
    boss = {"id": "boss", "counter": "9-1", "hex": "far", "side": "russian"}
    scn, _ = fp_of(rules, {"id": "f", "kind": "small_arms", "target": "target", "range": 4, "firers": ["enemy"], "directed_by": "boss"},
                   extra_units=[boss])
    ift = breakdowns(scn, IFTBreakdown)
    assert [(m.value, m.rule) for m in ift["crew"].modifiers] == [(-1, "A10.7")] and not ift["crew"].cowers
    plain, _ = fp_of(rules, {"id": "f", "kind": "small_arms", "target": "target", "range": 4, "firers": ["enemy"]})
    assert breakdowns(plain, IFTBreakdown)["crew"].cowers
