"""The seed's last Car Wars rules (issue 35): a driver who starts incapacitated (CW-SEED-01, CW-CREW-03) and a
stunned driver (CW-SEED-02, CW-CREW-02), hand-worked, and on the kernels where they cover the rule.

Damaging liquids every five phases (CW-SEED-01) are in test_special_weapons.py with the other dropped weapons.
"""
import copy
import warnings

import numpy as np
import pytest

import hardpoint
from hardpoint import ScenarioError, SeededDice
from hardpoint.backend import BackendWarning
from hardpoint.carwars import handling
from hardpoint.carwars.batch import run_batch
from hardpoint.carwars.model import build_vehicle

from .conftest import both_backends

RULES = hardpoint.default_rules()


def scenario(**data):
    return hardpoint.parse_scenario({"scenario": {"name": "t", "ruleset": "carwars", **data.pop("meta", {})}, **data})


def hunter_driver(**kw):
    return [{"id": "driver", "role": "driver", "seat": "front_left", "body_armour": 3, **kw}]


# --- CW-SEED-01: a driver who starts incapacitated ------------------------------------------------------------

def test_cw_seed_01_cw_crew_03_a_driver_out_from_the_start_leaves_his_car_uncontrolled_from_the_start():
    """CW-SEED-01 / CW-CREW-03: a hunter at 40 mph whose driver starts with 2 hits (unconscious) is uncontrolled from
    the start: it goes straight and loses 5 mph at the end of each turn: 40, 35, 30 mph over three turns,
    4 + 3.5 + 3 = 10.5" (before, it kept 40 mph and covered 12"), 25 mph at the end. A wounded driver (1 hit) keeps
    control: 12". Source: CW seed, Injury to Drivers ("It decelerates 5 mph each turn, moving in a straight line
    until it stops or hits something")."""
    out = scenario(meta={"turns": 3}, vehicle=[{"id": "v", "design": "hunter", "speed": 40, "crew": hunter_driver(hits=2)}])
    assert out.arena.vehicles["v"].uncontrolled
    r = out.resolve(SeededDice(1), commit=True)
    v = out.arena.vehicles["v"]
    assert (v.x, round(v.y, 9), v.facing, v.speed) == (0.0, 10.5, 0.0, 25.0)
    assert [(e.before, e.after) for e in r.events if e.kind == "state" and e.field == "speed"] == [(40, 35), (35, 30), (30, 25)]
    wounded = scenario(meta={"turns": 3}, vehicle=[{"id": "v", "design": "hunter", "speed": 40, "crew": hunter_driver(hits=1)}])
    assert not wounded.arena.vehicles["v"].uncontrolled
    wounded.resolve(SeededDice(1), commit=True)
    assert (round(wounded.arena.vehicles["v"].y, 9), wounded.arena.vehicles["v"].speed) == (12.0, 40)


def test_cw_seed_01_the_kernels_slow_a_car_whose_driver_starts_out():
    """CW-SEED-01, ARCH-03: the same on the compiled core: a hunter whose driver starts unconscious, rolling at 40 mph
    toward a hunter 12" ahead under fire orders, three turns (the packed fight, `run_fight`), and the same fight
    with movement orders (`run_drive`): every trial's state and flags equal on both backends; the car that
    starts uncontrolled is not counted as put out of control by the dice (its flag stays clear)."""
    doc = {"scenario": {"name": "t", "ruleset": "carwars", "turns": 3},
           "vehicle": [{"id": "a", "design": "hunter", "speed": 40, "crew": hunter_driver(hits=2), "side": "a"},
                       {"id": "b", "design": "hunter", "y": 12.0, "facing": 180.0, "speed": 0, "side": "b"}],
           "orders": [{"id": "b_fires", "unit": "b", "target": "a"}]}
    com = both_backends(hardpoint.parse_scenario(copy.deepcopy(doc)), trials=200)
    assert not (com.flags[:, 0] & 4).any()
    drive = dict(copy.deepcopy(doc), drive=[{"id": "b_drives", "unit": "b", "tactic": "bring_to_bear"},
                                             {"id": "a_drives", "unit": "a", "tactic": "pursue"}])
    s = hardpoint.parse_scenario(drive)
    with warnings.catch_warnings():
        warnings.simplefilter("error", BackendWarning)
        com = run_batch(s, 200, 3, backend="compiled", threads=1)
    ref = run_batch(s, 200, 3, backend="reference")
    assert np.array_equal(com.state, ref.state) and np.array_equal(com.flags, ref.flags)
    assert not (com.flags[:, 0] & 4).any()


# --- CW-SEED-02: stunned --------------------------------------------------------------------------------------

def test_cw_seed_02_cw_crew_02_a_stunned_driver_loses_his_reflex_bonus_while_stunned():
    """CW-SEED-02 / CW-CREW-02: a hunter (HC 3 on its improved suspension... the body's and suspension's HC: 3) whose
    driver has reflexes +2 has HC 5; stunned until the end of turn 2, its HC is 3 in turns 1 and 2 and 5 again from
    turn 3, as for an unconscious driver (3 in every turn). Its status recovers by that turn's HC: from -6 at the
    end of turn 2 to -3, at the end of turn 3 to 2. Nothing stuns a driver by itself (a ruling: the scenario says
    until when). Source: CW seed, Injury to Drivers ("unconscious, dead, or stunned ... all Driver skill and reflex
    bonuses are lost until the driver recovers")."""
    def hunter(**kw):
        return build_vehicle(RULES, {"id": "v", "design": "hunter", "speed": 40, "crew": hunter_driver(reflexes=2, **kw)})

    assert [handling.handling_class(RULES, hunter(), t) for t in (1, 2, 3)] == [5, 5, 5]
    assert [handling.handling_class(RULES, hunter(stunned_until_turn=2), t) for t in (1, 2, 3)] == [3, 3, 5]
    assert [handling.handling_class(RULES, hunter(hits=2), t) for t in (1, 2, 3)] == [3, 3, 3]
    v = hunter(stunned_until_turn=2)
    v.handling_status = -6
    handling.recover_status(RULES, v, 2)
    assert v.handling_status == -3
    handling.recover_status(RULES, v, 3)
    assert v.handling_status == 2
    with pytest.raises(ScenarioError) as err:
        hunter(stunned_until_turn=-1)
    assert err.value.field == "vehicle.crew[0].stunned_until_turn" and err.value.rule == "CW-SEED-02"


def test_cw_seed_02_the_drive_kernel_takes_the_stun_into_the_status_it_recovers():
    """CW-SEED-02, ARCH-03: a hunter at 60 mph whose driver (reflexes +2) is stunned through turn 3 brings its guns to
    bear on a hunter circling it: his status recovers by 3, not 5, at the end of turns 1-3, so that the control
    rolls of its hard maneuvers come out otherwise than unstunned. Both backends, trial by trial, on run_drive; the
    stunned and the unstunned fight differ."""
    def doc(stun):
        crew = hunter_driver(reflexes=2, **({"stunned_until_turn": 3} if stun else {}))
        return {"scenario": {"name": "t", "ruleset": "carwars", "turns": 6},
                "vehicle": [{"id": "a", "design": "hunter", "speed": 60, "crew": crew, "side": "a"},
                            {"id": "b", "design": "hunter", "x": 6.0, "y": 4.0, "facing": 270.0, "speed": 60, "side": "b"}],
                "orders": [{"id": "a_fires", "unit": "a", "target": "b"}, {"id": "b_fires", "unit": "b", "target": "a"}],
                "drive": [{"id": "a_drives", "unit": "a", "tactic": "bring_to_bear"},
                          {"id": "b_drives", "unit": "b", "tactic": "bring_to_bear"}]}
    runs = {}
    for stun in (False, True):
        s = hardpoint.parse_scenario(doc(stun))
        with warnings.catch_warnings():
            warnings.simplefilter("error", BackendWarning)
            com = run_batch(s, 60, 11, backend="compiled", threads=1)
        ref = run_batch(s, 60, 11, backend="reference")
        assert np.array_equal(com.state, ref.state) and np.array_equal(com.flags, ref.flags)
        for k in ref.fight:
            assert np.array_equal(com.fight[k], ref.fight[k]), k
        runs[stun] = ref.state
    assert not np.array_equal(runs[False], runs[True])
