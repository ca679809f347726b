"""The D15.55 worked example, step by step, with every die forced (ASL-TGT-02, ASL-TGT-01, ASL-RES-02, ASL-RES-03)."""
import json

import pytest

import hardpoint
from hardpoint import ScriptedDice
from hardpoint.asl.enums import Capacity, Motion, UnitType
from hardpoint.asl.events import (BailOut, CasualtyApplied, CounterChanged, IFTRoll, MoraleCheck, RandomSelection, ToHitBreakdown,
                                  ToHitRoll)
from hardpoint.events import DiceRolled, event_from_dict

# To Hit DR 7; IFT DR 3; Random Selection dr crew 2, squad 5, leader 3; 3MC: leader 4, crew 4, HS 6; Bail Out NMC.
TO_HIT, IFT, RS, MC_LEADER, MC_CREW, MC_HS = [3, 4], [1, 2], [2, 5, 3], [2, 2], [1, 3], [3, 3]
NMC_FAILS, NMC_PASSES = [4, 4], [1, 2]


@pytest.fixture(scope="module")
def scenario():
    return hardpoint.load_scenario("builtin:asl_d15_55_gun_on_cycle")


def of(result, cls):
    return [e for e in result.events if isinstance(e, cls)]


def test_asl_tgt_02_d15_55_to_hit(scenario):
    """ASL-TGT-02, ASL-TGT-01: Infantry target type, TH# 8 at six hexes; the crew on foot is hit on an Original DR <= 8;
    the squad and leader on the cycle in Motion (+2 Case J, -1 mounted) only on <= 7. One To Hit DR for all.

    Source: D15.55 example
    """
    result = scenario.resolve(ScriptedDice(TO_HIT + IFT + RS + MC_LEADER + MC_CREW + MC_HS + NMC_FAILS))
    th = {b.target: b for b in of(result, ToHitBreakdown)}
    assert {k: (b.target_type, b.base, b.needed) for k, b in th.items()} == {
        "crew": ("infantry", 8, 8), "squad": ("infantry", 8, 7), "leader": ("infantry", 8, 7)}
    assert th["crew"].modifiers == ()
    assert [(m.value, m.rule) for m in th["squad"].modifiers] == [(2, "ASL-TGT-01"), (-1, "ASL-TGT-01")]
    assert "Case J" in th["squad"].modifiers[0].name
    rolls = [e for e in result.events if isinstance(e, DiceRolled) and e.rule == "C3"]
    assert len(rolls) == 1 and rolls[0].total == 7
    assert of(result, ToHitRoll)[0].hit == ("crew", "squad", "leader")


def test_asl_tgt_02_d15_55_to_hit_dr_8_hits_only_the_crew(scenario):
    """ASL-TGT-02: an Original To Hit DR of 8 hits the crew on foot and misses the riders.

    Source: D15.55 example
    """
    result = scenario.resolve(ScriptedDice([4, 4, 6, 6]))            # DR 8; IFT DR 12: no effect
    roll = of(result, ToHitRoll)[0]
    assert roll.hit == ("crew",) and roll.missed == ("squad", "leader")
    assert [o.unit for o in of(result, IFTRoll)[0].outcomes] == ["crew"]


def test_asl_tgt_02_d15_55_whole_chain_hs_eliminated_bailing_out(scenario):
    """ASL-TGT-02, ASL-RES-02, ASL-RES-03: one IFT DR of 3 on the 12 FP column: K/3 for all three; Random Selection picks
    the squad, reduced to a HS on a HS-size counter; all three take the 3MC, leader and crew pass, the HS breaks and
    takes the Bail Out NMC; failing it, it is eliminated and the HS cycle counter stays in the hex; the leader stays
    mounted on a single-machine counter, still in Motion.

    Source: D15.55 example
    """
    dice = ScriptedDice(TO_HIT + IFT + RS + MC_LEADER + MC_CREW + MC_HS + NMC_FAILS)
    result = scenario.resolve(dice)
    assert dice.remaining == 0
    # One IFT DR for every unit hit: 12 FP column, K/3.
    ift = of(result, IFTRoll)
    assert len(ift) == 1 and ift[0].roll.total == 3 and ift[0].column == 12 and ift[0].column_used == 12
    assert [(o.unit, o.final_dr, o.result) for o in ift[0].outcomes] == [("crew", 3, "K/3"), ("squad", 3, "K/3"), ("leader", 3, "K/3")]
    # One Random Selection: the squad.
    rs = of(result, RandomSelection)
    assert len(rs) == 1 and rs[0].candidates == ("crew", "squad", "leader") and rs[0].drs == (2, 5, 3) and rs[0].selected == ("squad",)
    # Casualty Reduction: squad -> HS; the counter shrinks to a HS-size counter.
    cas = of(result, CasualtyApplied)
    assert [(c.unit, c.before, c.after, c.rule) for c in cas] == [("squad", "squad 4-6-7", "half_squad 2-4-7", "A7.302")]
    counters = of(result, CounterChanged)
    assert (counters[0].machine, counters[0].rule) == ("cycle", "ASL-RES-02")
    assert counters[0].before.startswith("three-machine") and counters[0].after.startswith("two-machine")
    # All three take the 3MC; the leader first; leader and crew pass, the HS breaks.
    mcs = of(result, MoraleCheck)
    assert [(m.unit, m.check, m.final, m.morale) for m in mcs[:3]] == [("leader", "3MC", 7, 8), ("crew", "3MC", 7, 8), ("squad", "3MC", 9, 7)]
    assert [m.outcome for m in mcs[:3]] == ["passes", "passes", "fails: breaks"]
    # The HS bails out (the cycle is in Motion) and takes the NMC; the leader gets a single-machine counter.
    bail = of(result, BailOut)
    assert [(b.unit, b.machine, b.rule) for b in bail] == [("squad", "cycle", "ASL-RES-03")]
    assert [(c.machine, c.rule) for c in counters[1:]] == [("cycle", "ASL-RES-03"), ("cycle+leader", "ASL-RES-03")]
    nmc = mcs[3]
    assert (nmc.unit, nmc.check, nmc.final, nmc.outcome, nmc.rule) == ("squad", "Bail Out NMC", 8, "fails: eliminated", "ASL-RES-03")
    assert len(mcs) == 4
    # Final state.
    assert result.units == {"crew": "crew 2-2-8 in target", "squad": "eliminated", "leader": "leader 8-0 in target, riding cycle+leader"}
    assert result.counters["cycle"].startswith("two-machine (HS) cycle, stopped, unmounted")
    assert result.counters["cycle+leader"] == "single-machine (SMC) cycle, motion in target, riders leader"


def test_asl_res_03_d15_55_hs_passes_the_bail_out_nmc(scenario):
    """ASL-RES-03: passing the Bail Out NMC the HS stays, broken and unmounted, beside its HS counter.

    Source: D15.55 example
    """
    result = scenario.resolve(ScriptedDice(TO_HIT + IFT + RS + MC_LEADER + MC_CREW + MC_HS + NMC_PASSES))
    assert result.units["squad"] == "half_squad 2-4-7 broken in target"
    assert "unmounted" in result.counters["cycle"] and "two-machine" in result.counters["cycle"]
    assert result.units["leader"].endswith("riding cycle+leader")


def test_asl_res_02_d15_55_hs_passes_its_3mc(scenario):
    """ASL-RES-02: had the HS passed its 3MC, it and the leader would stay in Motion on a HS cycle counter.

    Source: D15.55 example
    """
    result = scenario.resolve(ScriptedDice(TO_HIT + IFT + RS + MC_LEADER + MC_CREW + [1, 1]))
    assert of(result, BailOut) == []
    assert result.counters == {"cycle": "two-machine (HS) cycle, motion in target, riders squad, leader"}
    assert result.units["squad"] == "half_squad 2-4-7 in target, riding cycle"


def test_d15_55_final_state_objects(scenario):
    """ASL-TGT-02: the final Situation after the example (typed, not just text)."""
    from hardpoint.asl.chance import run_chain
    final, _ = run_chain(scenario.chain(), scenario.initial(), ScriptedDice(TO_HIT + IFT + RS + MC_LEADER + MC_CREW + MC_HS + NMC_PASSES))
    sit = final.situation
    hs = sit.unit("squad")
    assert hs.type is UnitType.HALF_SQUAD and hs.broken and sit.mount_of("squad") is None
    solo = sit.machine("cycle+leader")
    assert solo.machines is Capacity.SINGLE and solo.motion is Motion.MOTION and solo.riders == ("leader",)
    assert sit.machine("cycle").machines is Capacity.TWO and sit.machine("cycle").riders == ()
    assert not sit.machine("cycle").removed


def test_d15_55_result_json_round_trip(scenario):
    """LOG-01: the whole result round-trips through JSON."""
    result = scenario.resolve(ScriptedDice(TO_HIT + IFT + RS + MC_LEADER + MC_CREW + MC_HS + NMC_FAILS))
    data = json.loads(json.dumps(result.to_dict()))
    again = event_from_dict(data)
    assert again.to_dict() == result.to_dict()
    assert [type(e) for e in again.events] == [type(e) for e in result.events]
