"""Counter changes the engine refuses, each seen to happen (ASL-MOV-01, ASL-MOV-05, CLI-02, ERR-01).

The functions of hardpoint.asl.motorcycles return a new Situation; a refusal returns nothing, so the situation
handed in is still the one in play. Where a Movement reaches the refusal, its ledger and situation are checked too.
"""
import pytest

from hardpoint import RuleViolation, ScenarioError
from hardpoint.asl.motorcycles import check_can_move, deploy_squad, recombine_unmounted, split_smc
from hardpoint.asl.movement import Movement
from hardpoint.asl.units import Situation

from .conftest import OPEN, cycle, road_board, unit


def test_d15_4_a_counter_needs_a_unit_to_move_it(rules):
    """ASL-MOV-01 (D15.4): a single-machine counter is moved by any unit (an SMC will do), but by some unit: with
    nobody to move it the check refuses, naming the field it is given and the counter. (The movement steps always
    pass their riders or pushers, never an empty list.)"""
    single = cycle(machines=1, hex=OPEN)
    check_can_move(rules, single, [unit(rules, "ldr", "8-0", hex=OPEN)], "move.push")
    with pytest.raises(RuleViolation) as err:
        check_can_move(rules, single, [], "move.push")
    assert (err.value.field, err.value.value, err.value.rule) == ("move.push", "cycle", "ASL-MOV-01")


def test_d15_44_only_an_mmc_counter_is_split(rules):
    """ASL-MOV-05 (D15.44): an SMC splits a single-machine counter off a two- or three-machine counter; two SMC on a
    single-machine counter have nothing to split. Refused by split_smc and by the Movement's split step alike."""
    sit = Situation((unit(rules, "a", "8-0", hex=OPEN), unit(rules, "b", "9-1", hex=OPEN)),
                    (cycle(machines=1, hex=OPEN, riders=["a", "b"]),))
    with pytest.raises(RuleViolation) as err:
        split_smc(rules, sit, "cycle", "a", "solo", "test")
    assert (err.value.field, err.value.value, err.value.rule) == ("motorcycle", "cycle", "ASL-MOV-05")
    m = Movement(rules, road_board(), sit, ("a", "b"))
    m.start()
    before = (m.ledger, m.situation)
    with pytest.raises(RuleViolation) as err:
        m.split("a", "solo")
    assert (err.value.field, err.value.value, err.value.rule) == ("motorcycle", "cycle", "ASL-MOV-05")
    assert (m.ledger, m.situation) == before and not m.situation.has_machine("solo")


def test_cli_02_split_refused_onto_an_id_in_use(rules):
    """CLI-02: the counter split off needs an id of its own; one already on the board is refused (it would replace
    the other counter)."""
    parked = cycle(id="parked", machines=1, hex=OPEN)
    sit = Situation((unit(rules, "sq", "4-6-7", hex=OPEN), unit(rules, "ldr", "8-0", hex=OPEN)),
                    (cycle(machines=3, hex=OPEN, riders=["sq", "ldr"]), parked))
    with pytest.raises(ScenarioError) as err:
        split_smc(rules, sit, "cycle", "ldr", "parked", "test")
    assert (err.value.field, err.value.value, err.value.rule) == ("new_id", "parked", "CLI-02")
    m = Movement(rules, road_board(), sit, ("sq", "ldr"))
    before = (m.ledger, m.situation)
    with pytest.raises(ScenarioError) as err:
        m.split("ldr", "parked")
    assert (err.value.field, err.value.value, err.value.rule) == ("new_id", "parked", "CLI-02")
    assert (m.ledger, m.situation) == before and m.situation.machine("parked") == parked


@pytest.mark.parametrize("new_id,hs_ids", [("parked", ("hs1", "hs2")), ("cycle2", ("hs1", "ldr"))])
def test_cli_02_deploy_refused_onto_an_id_in_use(rules, new_id, hs_ids):
    """CLI-02 (ASL-MOV-05, D15.44): a squad Deploying on a motorcycle needs fresh ids for the second counter and the
    second HS; a counter's or another unit's id is refused."""
    sit = Situation((unit(rules, "sq", "4-6-7"), unit(rules, "ldr", "8-0")),
                    (cycle(machines=3, riders=["sq", "ldr"]), cycle(id="parked", machines=1)))
    with pytest.raises(ScenarioError) as err:
        deploy_squad(rules, sit, "cycle", "sq", hs_ids, new_id)
    assert (err.value.field, err.value.value, err.value.rule) == ("new_id", new_id, "CLI-02")
    after, _ = deploy_squad(rules, sit, "cycle", "sq", ("hs1", "hs2"), "cycle2")
    assert after.machine("cycle2").riders == ("hs2",)


@pytest.mark.parametrize("state", [{"riders": ["ldr"]}, {"removed": True}])
def test_d15_44_recombine_only_unmounted_counters(rules, state):
    """ASL-MOV-05 (D15.44): counters recombine while unmounted (a ridden one recombines only with its riders); a
    removed counter is gone."""
    sit = Situation((unit(rules, "ldr", "8-0"),), (cycle(id="a", machines=1, **state), cycle(id="b", machines=1)))
    with pytest.raises(RuleViolation) as err:
        recombine_unmounted(rules, sit, ("a", "b"), "ab")
    assert (err.value.field, err.value.value, err.value.rule) == ("motorcycles", ["a", "b"], "ASL-MOV-05")
