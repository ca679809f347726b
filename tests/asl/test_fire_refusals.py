"""Fire declarations the engine refuses, each seen to happen (A7, A10.7, C3, ASL-FIRE-01, ASL-MOV-04, ERR-01).

A scenario carrying the bad declaration fails on load (parse_scenario runs check_fire on every attack), naming the
field, the value and the rule; two refusals sit behind the scenario document's own checks and are reached from the
Python API (firepower, check_fire) with a FireDeclaration built by hand.
"""
from dataclasses import replace

import pytest

import hardpoint
from hardpoint import RuleViolation, ScenarioError
from hardpoint.asl.enums import FireKind, FirerRow, TargetType
from hardpoint.asl.fire import check_fire, firepower
from hardpoint.asl.tohit import to_hit_number
from hardpoint.events import Modifier

from .conftest import d15_55_data
from .test_fire import overrun_data


def small_arms_data(**fire):
    """The D15.55 Location (squad and leader riding a cycle, a 2-2-8 crew on foot) firing at a Russian squad."""
    data = d15_55_data()
    data["hex"].append({"id": "enemy_hex"})
    data["unit"].append({"id": "enemy", "counter": "4-4-7", "type": "squad", "half_squad": "2-2-7", "hex": "enemy_hex",
                         "side": "russian"})
    data["fire"] = [{"id": "f", "kind": "small_arms", "target": "enemy_hex", "range": 3, "firers": ["crew"], **fire}]
    return data


def refused_on_load(data, exc, field, value, rule):
    with pytest.raises(exc) as err:
        hardpoint.parse_scenario(data)
    assert (err.value.field, err.value.value, err.value.rule) == (field, value, rule)
    return err.value


def test_a7_small_arms_attack_refused_without_firers():
    """A7: a small-arms attack is made by its firers; one that names none is a scenario error."""
    refused_on_load(small_arms_data(firers=[]), ScenarioError, "fire.f.firers", None, "A7")
    data = small_arms_data()
    del data["fire"][0]["firers"]
    refused_on_load(data, ScenarioError, "fire.f.firers", None, "A7")


def test_a7_support_weapon_the_firer_does_not_have_refused(rules):
    """A7: a firer fires a support weapon he possesses. The scenario document refuses an unknown SW first (its path
    is fire[0]...); a declaration built in Python meets the same refusal in firepower, naming the attack's id."""
    scn = hardpoint.parse_scenario(small_arms_data())
    fire = replace(scn.fires[0], weapons=(("crew", "lmg"),))
    with pytest.raises(ScenarioError) as err:
        firepower(rules, scn.situation, fire)
    assert (err.value.field, err.value.value, err.value.rule) == ("fire.f.weapons.crew", "lmg", "A7")
    refused_on_load(small_arms_data(weapons={"crew": "lmg"}), ScenarioError, "fire[0].weapons.crew", "lmg", "A7")


@pytest.mark.parametrize("who", ["squad", "enemy_leader_broken"])
def test_a10_7_fire_directed_only_by_a_good_order_leader(who):
    """A10.7: only a good-order leader directs fire (a squad does not, nor a broken leader)."""
    data = small_arms_data(directed_by="squad" if who == "squad" else "boss")
    data["unit"].append({"id": "boss", "counter": "9-1", "hex": "target", "side": "german", "broken": True})
    refused_on_load(data, RuleViolation, "fire.f.directed_by", data["fire"][0]["directed_by"], "A10.7")


def test_asl_fire_01_leader_riding_a_cycle_cannot_direct_fire():
    """ASL-FIRE-01 (D15.6): a leader riding a cycle cannot direct the crew's fire on the IFT; dismounted he can."""
    refused_on_load(small_arms_data(directed_by="leader"), RuleViolation, "fire.f.directed_by", "leader", "ASL-FIRE-01")
    data = small_arms_data(directed_by="leader")
    data["motorcycle"][0]["riders"] = ["squad"]
    assert hardpoint.parse_scenario(data).fires[0].directed_by == "leader"


def test_asl_mov_04_overrun_refused_without_its_own_fp():
    """ASL-MOV-04 (D15.43): a sidecar overruns with the vehicle's own OVR FP; the seeds do not give it, so the
    scenario must (never invented)."""
    data = overrun_data()
    del data["fire"][0]["fp"]
    refused_on_load(data, ScenarioError, "fire.ovr.fp", None, "ASL-MOV-04")


def test_c3_only_ordnance_rolls_to_hit(rules):
    """C3: To Hit DRM belong to ordnance. The scenario document refuses to_hit_drm on small arms first (CLI-02); a
    declaration built in Python is refused by check_fire, before anything is resolved (ERR-01)."""
    scn = hardpoint.parse_scenario(small_arms_data())
    fire = replace(scn.fires[0], to_hit_drm=(Modifier("declared", 1, "C3"),))
    assert fire.kind is FireKind.SMALL_ARMS
    with pytest.raises(ScenarioError) as err:
        check_fire(rules, scn.board, scn.situation, fire)
    assert (err.value.field, err.value.value, err.value.rule) == ("fire.f.to_hit_drm", None, "C3")
    check_fire(rules, scn.board, scn.situation, scn.fires[0])            # the same attack without them is fine
    bad = small_arms_data(to_hit_drm=[{"name": "declared", "value": 1}])
    with pytest.raises(ScenarioError) as err:
        hardpoint.parse_scenario(bad)
    assert (err.value.field, err.value.rule) == ("fire[0].to_hit_drm", "CLI-02")


def test_c3_to_hit_row_must_exist(rules):
    """C3: the To Hit table has a German and an Other row for the Infantry and Vehicle target types and one row (any
    firer) for Area; asking the Infantry table for the "any" row is an error naming the firer row."""
    assert to_hit_number(rules, TargetType.AREA, FirerRow.GERMAN, 3) == to_hit_number(rules, TargetType.AREA, FirerRow.ANY, 3)
    with pytest.raises(ScenarioError) as err:
        to_hit_number(rules, TargetType.INFANTRY, FirerRow.ANY, 3)
    assert (err.value.field, err.value.value, err.value.rule) == ("fire.firer_row", "any", "C3")

