"""Declared actions the turn refuses, each seen to happen (CLI-02, CW-AUTO-01, CW-CREW-04, CW-ROF-01, ERR-01).

`do_action` carries out one action of a multi-turn plan; the loader has checked the plan, and what the dice did
by the action's phase can still refuse it (run_turns then cancels it with a note naming the rule). Each test hands
it the refused action directly and checks the exception's class, field, value and rule, and that neither the arena
nor what has fired this turn changed. BattleResult.from_dict is read through the class, as a loader would.
"""
import copy
import json

import pytest

import hardpoint
from hardpoint import RuleViolation, ScenarioError, ScriptedDice
from hardpoint.carwars.phase import FiredThisTurn
from hardpoint.carwars.turn import Action, BattleResult, do_action

RULES = hardpoint.default_rules()
WHERE = "action(turn 1, phase 1)[0]"


def arena(*vehicles):
    data = {"scenario": {"name": "t", "ruleset": "carwars", "turns": 1},
            "vehicle": [{"id": v, "design": d, "y": 10.0 * i, "speed": 0} for i, (v, d) in enumerate(vehicles)]}
    return hardpoint.parse_scenario(data).arena


def refused(a, action, exc, field, value, rule, fired=None):
    fired = fired if fired is not None else FiredThisTurn()
    before = (repr(a), copy.deepcopy(fired))
    with pytest.raises(exc) as err:
        do_action(RULES, a, action, ScriptedDice([]), fired, WHERE)
    assert (err.value.field, err.value.value, err.value.rule) == (field, value, rule)
    assert (repr(a), fired) == before
    return err.value


def test_cli_02_action_for_a_vehicle_that_is_not_there():
    """CLI-02: an action names a vehicle of the arena."""
    refused(arena(("v", "hunter")), Action(1, 1, "maneuver", "ghost", difficulty=2), ScenarioError, f"{WHERE}.vehicle", "ghost", "CLI-02")


def test_cli_02_unknown_action_kind():
    """CLI-02: an action kind not in KINDS is refused, naming it (the loader's schema refuses it first in a file)."""
    refused(arena(("v", "hunter")), Action(1, 1, "jump", "v"), ScenarioError, f"{WHERE}.kind", "jump", "CLI-02")


def test_cw_auto_01_turret_weapon_cannot_go_on_automatic():
    """CW-AUTO-01: turret weapons cannot go on automatic; the shogun's front MG can."""
    a = arena(("v", "shogun"))
    refused(a, Action(1, 1, "automatic_on", "v", weapon="laser"), RuleViolation, f"{WHERE}.weapon", "laser", "CW-AUTO-01")
    assert not a.vehicles["v"].weapon("laser").automatic
    do_action(RULES, a, Action(1, 1, "automatic_on", "v", weapon="mg"), ScriptedDice([]), FiredThisTurn(), WHERE)
    assert a.vehicles["v"].weapon("mg").automatic


def test_cw_crew_04_only_the_substitute_driver_steers():
    """CW-CREW-04: steering is the substitute driver's action; with no substitute (or another one) it is refused and
    nobody is marked as having steered."""
    a = arena(("v", "shogun"))
    refused(a, Action(1, 1, "steer", "v", crew="gunner"), RuleViolation, f"{WHERE}.crew", "gunner", "CW-CREW-04")
    assert a.vehicles["v"].steered_turn != a.turn


@pytest.mark.parametrize("action", [Action(1, 2, "automatic_on", "v", weapon="mg"), Action(1, 2, "drop", "v", weapon="md")])
def test_cw_rof_01_driver_who_fired_this_turn_makes_no_second_firing_action(action):
    """CW-ROF-01: switching a weapon to automatic or dropping is the driver's firing action for the turn; after he
    fired (here: an earlier attack of the turn), it is refused before anything is done: the MG stays off automatic,
    the minedropper keeps its ammunition and lays no counter."""
    a = arena(("v", "hunter"))
    fired = FiredThisTurn(characters={("v", "driver"): 1})
    refused(a, action, RuleViolation, WHERE, "driver", "CW-ROF-01", fired=fired)
    assert not a.vehicles["v"].weapon("mg").automatic and a.counters == []
    do_action(RULES, a, action, ScriptedDice([1] * 6), FiredThisTurn(), WHERE)       # the same action, nobody having fired


def test_fight_01_battle_result_read_back_through_the_class():
    """FIGHT-01 (LOG-01): a multi-turn result written to JSON is read back by BattleResult.from_dict, called on the
    class, equal to the result written."""
    data = {"scenario": {"name": "t", "ruleset": "carwars", "turns": 1},
            "vehicle": [{"id": "v", "design": "hunter", "speed": 0}, {"id": "t", "design": "hunter", "y": 6, "speed": 0}],
            "attack": [{"id": "a", "attacker": "v", "weapon": "mg", "target": "t", "turn": 1, "phase": 1}]}
    result = hardpoint.parse_scenario(data).resolve(ScriptedDice([6] * 40))
    assert isinstance(result, BattleResult)
    back = BattleResult.from_dict(json.loads(json.dumps(result.to_dict())))
    assert back == result and back.rolls == result.rolls
