"""The seed's last Car Wars rules (issue 35): a driver who starts incapacitated (CW-SEED-01, CW-CREW-03) and a
stunned driver (CW-SEED-02, CW-CREW-02), hand-worked, and on the kernels where they cover the rule.

Damaging liquids every five phases (CW-SEED-01) are in test_special_weapons.py with the other dropped weapons.
"""
import copy
import warnings

import numpy as np
import pytest

import hardpoint
from hardpoint import ScenarioError, ScriptedDice, SeededDice
from hardpoint.backend import BackendWarning
from hardpoint.carwars import handling
from hardpoint.carwars.batch import run_batch
from hardpoint.carwars.enums import Side
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
    starts uncontrolled is not counted as put out of control by the dice (its flag stays clear). Slowing, it
    covers 10.5" and never reaches the hunter ahead (whose front armour no shot or ram touches)."""
    doc = {"scenario": {"name": "t", "ruleset": "carwars", "turns": 3},
           "vehicle": [{"id": "a", "design": "hunter", "speed": 40, "crew": hunter_driver(hits=2), "side": "a"},
                       {"id": "b", "design": "hunter", "y": 12.0, "facing": 180.0, "speed": 0, "side": "b"}],
           "orders": [{"id": "b_fires", "unit": "b", "target": "a"}]}
    com = both_backends(hardpoint.parse_scenario(copy.deepcopy(doc)), trials=200)
    assert not (com.flags[:, 0] & 4).any()
    # slowing (10.5"), a's front stops 0.5" short of b, which nothing hits; at 40 mph (12") it would ram b
    assert (com.state[:, com.labels.index("b front armour")] == 20).all()
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
    """CW-SEED-02 / CW-CREW-02: a hunter (HC 3: a compact's 1, its heavy suspension's +2) whose driver
    has reflexes +2 has HC 5; stunned until the end of turn 2, its HC is 3 in turns 1 and 2 and 5 again from
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


# --- CW-DROP-04: flaming oil's own hazard ----------------------------------------------------------------------

def test_cw_drop_04_flaming_oil_is_a_d1_hazard_of_its_own_not_raised_by_its_d2():
    """CW-DROP-04 (a ruling, docs/rulings.md): driving onto flaming oil is a D1 hazard; the slick's "+D2 to any
    maneuver or hazard" raises the other hazards met on it, not its own D1. A hunter (HC 3) under a movement order at
    10 mph runs onto a flaming slick in phase 1: its handling status falls by 1 (3 -> 2), not by 3, and recovers
    at the turn's end; onto a plain oil slick (no hazard in itself): nothing. Source: CW seed, Dropped Weapons
    ("Flaming oil slicks are a D1 when driven over")."""
    def status_changes(weapon):
        s = scenario(meta={"turns": 1}, vehicle=[{"id": "v", "design": "hunter", "speed": 10, "side": "a"}],
                     counter=[{"id": "fo", "weapon": weapon, "x": 0.0, "y": 1.2, "width": 0.5, "length": 1.0}],
                     drive=[{"id": "d", "unit": "v", "tactic": "hold_course"}])
        r = s.resolve(SeededDice(5))
        return [(e.before, e.after) for e in r.events if e.kind == "state" and e.field == "handling status"]

    assert status_changes("Flaming Oil Jet") == [(3, 2), (2, 3)]
    assert status_changes("Oil Jet") == []


# --- CW-SEED-03: ditches met while driving -------------------------------------------------------------------

def _ditch_run(across, speed, y, turns=1, drive=False):
    """`_ditch_scenario` run with seeded dice: its ditch notes, and the scenario after the run."""
    s = _ditch_scenario(across, speed, y, turns, drive)
    r = s.resolve(SeededDice(2), commit=True)
    return [e.text for e in r.events if e.kind == "note" and e.rule == "CW-SEED-03"], s


def _ditch_scenario(across, speed, y, turns=1, drive=False, orders=False):
    """A hunter at the origin heading north at `speed`, a ditch 6" wide and 1/4" deep across its path centred at
    (0, y), `across` feet across; with `orders`, a hunter 12" ahead it fires at."""
    doc = dict(meta={"turns": turns}, vehicle=[{"id": "v", "design": "hunter", "speed": speed, "side": "a"}],
               area=[{"id": "d", "kind": "ditch", "across_ft": across, "x": 0.0, "y": y, "width": 6.0, "length": 0.25}])
    if drive:
        doc["drive"] = [{"id": "dv", "unit": "v", "tactic": "hold_course"}]
    if orders:
        doc["vehicle"].append({"id": "t", "design": "hunter", "y": 12.0, "facing": 180.0, "speed": 0, "side": "b"})
        doc["orders"] = [{"id": "fire", "unit": "v", "target": "t"}]
    return scenario(**doc)


def test_cw_seed_03_a_ditch_driven_over_is_a_hazard_by_its_width_and_the_speed():
    """CW-SEED-03 / CW-OFF-03: a hunter (1" long, its front at y = 0.5) meets a ditch across its path at y 1.875-2.125
    the phase its move first touches it, once: under 2 ft across a D3 hazard at 20 mph or less and D1 faster; 2 to
    4 ft D3 from 20 (SPEC ruling) to 44 mph and D1 from 45 (the vehicle flies over). Under a movement order the
    hazard lowers its handling status (HC 3: D3 -> 0). Source: CW seed, Ditches and Gullies."""
    assert _ditch_run(1.5, 30, 2.0)[0] == ["v crosses ditch d: ditch 1.5 ft across at 30 mph: D1 hazard"]
    assert _ditch_run(1.5, 20, 2.0)[0] == ["v crosses ditch d: ditch 1.5 ft across at 20 mph: D3 hazard"]
    assert _ditch_run(3.0, 30, 2.0)[0] == ["v crosses ditch d: ditch 3 ft across at 30 mph: D3 hazard"]
    assert _ditch_run(3.0, 50, 2.0)[0] == ["v crosses ditch d: ditch 3 ft across at 50 mph: D1 hazard"]
    notes, s = _ditch_run(3.0, 30, 2.0, turns=2, drive=True)
    assert len(notes) == 1                              # met once: it is across by turn 2
    assert s.arena.vehicles["v"].y == 6.0


def test_cw_seed_03_a_slow_vehicle_falls_into_a_wide_ditch_and_stays_there():
    """CW-SEED-03 / CW-OFF-03: a ditch 2 to 4 ft across stops a vehicle under 20 mph: a hunter at 10 mph (1" in phase
    1) whose front meets the ditch's near edge (y = 1.075) 0.575 of the way falls in and hits the far wall at its
    full speed (a collision at 10 mph on its front, as against a wall: 1d-2, no weight factor; a 5 makes 3 hits,
    front armour 20 -> 17), stops there (its
    centre at y = 0.575) and stays in the ditch: under a movement order it does not drive on in turn 2. Our ruling:
    it stops where it met the ditch. Source: CW seed, Ditches and Gullies ("impassable at less than 20 mph")."""
    notes, s = _ditch_run(3.0, 10, 1.2, turns=2, drive=True)
    assert notes == ["v falls into ditch d (3 ft across) at 10 mph and hits its far wall with its front: stopped there"]
    v = s.arena.vehicles["v"]
    assert (v.x, round(v.y, 9), v.speed, v.in_ditch) == (0.0, 0.575, 0.0, "d")
    r = scenario(meta={"turns": 1}, vehicle=[{"id": "v", "design": "hunter", "speed": 10}],
                 area=[{"id": "d", "kind": "ditch", "across_ft": 3.0, "x": 0.0, "y": 1.2, "width": 6.0, "length": 0.25}]
                 ).resolve(ScriptedDice([5]))
    assert [(e.component, e.before, e.after) for e in r.events if e.kind == "damage"] == [("front armour", 20, 17)]


def test_cw_seed_03_a_ditch_needs_its_width_and_a_wider_one_is_refused():
    """CW-SEED-03: a ditch names its width across (feet); rubble has none; over 4 ft is refused at load (no jump
    without a ramp: a gully, kind gully, is driven down and up)."""
    def load(**area):
        return scenario(vehicle=[{"id": "v", "design": "hunter"}],
                        area=[{"id": "d", "x": 0.0, "y": 5.0, "width": 6.0, "length": 0.25, **area}])

    for area, field in (({"kind": "ditch"}, "area[0].across_ft"), ({"kind": "rubble", "across_ft": 1.0}, "area[0].across_ft"),
                        ({"kind": "ditch", "across_ft": 4.5}, "area[0].across_ft")):
        with pytest.raises(ScenarioError) as err:
            load(**area)
        assert (err.value.field, err.value.rule) == (field, "CW-SEED-03")
    assert load(kind="ditch", across_ft=4.0).arena.areas["d"].across_ft == 4.0


def test_cw_seed_03_the_fight_kernel_takes_the_ditch_hazard_into_the_shots_of_that_phase():
    """CW-SEED-03, CW-HIT-10, ARCH-03: a hunter at 30 mph under a fire order crosses a 1.5 ft ditch in phase 1 (a D1
    hazard: -1 to hit that phase, when its order fires) at a hunter 12" ahead, and a hunter at 10 mph falls into a 3 ft
    ditch (a collision): both backends agree trial by trial (run_fight), and the hazard changes the hits."""
    com = both_backends(_ditch_scenario(1.5, 30, 1.2, orders=True), trials=400)
    plain = both_backends(_ditch_scenario(1.5, 30, 40.0, orders=True), trials=400)
    assert not np.array_equal(com.state, plain.state)
    both_backends(_ditch_scenario(3.0, 10, 1.2, orders=True), trials=200)


# --- CW-SEED-01: an uncontrolled cycle's passengers jump or take the result ---------------------------------------

def _bike_and_pillion(speed=40, jumps_on=None, off_road=False, pillion=None, orders=False):
    """A razor (solo cycle) at `speed` whose wounded driver sits in front of a pillion passenger (body armour 3), a
    hunter 2" off its right side firing its MG at it (aim auto: the right side, 10 to hit)."""
    p = {"id": "pillion", "role": "passenger", "seat": "cycle", "body_armour": 3, "hand_weapons": ["Heavy Pistol"],
         **({} if jumps_on is None else {"jumps_on": jumps_on}), **(pillion or {})}
    doc = dict(vehicle=[{"id": "bike", "design": "razor", "speed": speed, "off_road": off_road, "side": "a",
                         "crew": [{"id": "driver", "role": "driver", "seat": "cycle", "hits": 1}, p]},
                        {"id": "car", "design": "hunter", "x": 2.0, "facing": 270.0, "speed": 0, "side": "b"}])
    if orders:
        doc["meta"] = {"turns": 1}
        doc["orders"] = [{"id": "fire", "unit": "car", "target": "bike"}]
    else:
        doc["attack"] = [{"id": "a", "attacker": "car", "weapon": "mg", "target": "bike"}]
    return scenario(**doc)


# to hit [5, 5] = 10: a hit; 1d [1]; side table [1, 2] = 3: the driver (wounded -> unconscious); Crash Table 1 [5, 4]
# = 9 + 4 = 13: "roll, burning on 4-6"; then the jump's dice
_KNOCK_OUT = [5, 5, 1, 1, 2, 5, 4]


def test_cw_seed_01_a_passenger_jumps_off_an_uncontrolled_cycle_and_is_a_pedestrian_beside_it():
    """CW-SEED-01 / CW-CREW-03 / CW-COL-04: the driver of a solo cycle at 40 mph is knocked out; Crash Table 1 at +4
    gives 13, a burning roll. The pillion passenger, whose `jumps_on` names that result, jumps: a sideswipe at 40 mph
    on the road (3d: [3, 3, 2] = 8; the seed's 30 mph less is for off-road only) takes his body armour's 3 and his
    3 DP (2 hits beyond). He is then a pedestrian "bike.pillion" abreast of the cycle's centre off its right side
    (the cycle is 1/4" wide, he 1/4": x = 0.125 + 0.125), facing its way, with his pistol; the cycle's crew is its
    driver alone. Source: CW seed, Uncontrolled Vehicles ("Any passengers must jump or suffer the consequences of
    the roll"); Jumping Out of Vehicles."""
    s = _bike_and_pillion(jumps_on=["roll, burning on 4-6"])
    r = s.resolve(ScriptedDice(_KNOCK_OUT + [3, 3, 2]), commit=True)
    bike, ped = s.arena.vehicles["bike"], s.arena.pedestrians["bike.pillion"]
    assert [c.id for c in bike.crew] == ["driver"] and bike.crash == "roll, burning on 4-6"
    assert (ped.x, ped.y, ped.facing, ped.weapons, ped.jumped_from) == (0.25, 0.0, 0.0, ("Heavy Pistol",), "bike")
    assert (ped.body_armour, ped.hits) == (0, 3)
    jump = [e for e in r.events if e.kind == "dice" and e.rule == "CW-COL-04"]
    assert [(j.expr, j.faces, j.total) for j in jump] == [("3d", (3, 3, 2), 8)]
    assert [(e.component, e.before, e.after) for e in r.events if e.kind == "damage" and e.target == "bike.pillion"] == \
        [("body armour", 3, 0), ("person", 3, 0)]


def test_cw_seed_01_off_road_the_jump_is_a_sideswipe_30_mph_slower():
    """CW-SEED-01 / CW-COL-04: the same jump off-road: the Crash Table roll takes -3 (9 + 4 - 3 = 10, a spinout, which
    his `jumps_on` names), and the jump is a sideswipe at 40 - 30 = 10 mph: 1d-2 ([4] = 2), taken by his body
    armour (3 -> 1); he is unhurt."""
    s = _bike_and_pillion(jumps_on=["spinout"], off_road=True)
    r = s.resolve(ScriptedDice(_KNOCK_OUT + [4]), commit=True)
    assert s.arena.vehicles["bike"].crash == "spinout"
    ped = s.arena.pedestrians["bike.pillion"]
    assert (ped.body_armour, ped.hits) == (1, 0)
    assert [(j.expr, j.total) for j in r.events if j.kind == "dice" and j.rule == "CW-COL-04"] == [("1d-2", 2)]


def test_cw_seed_01_a_passenger_stays_aboard_at_other_results_by_default_or_when_he_cannot_act():
    """CW-SEED-01: he stays aboard (and takes the result with the cycle: the engine reports it and puts the cycle out,
    CW-CREW-03) at a result his `jumps_on` does not name, at any result by default (the rules' passenger_jumps_on is
    empty: our ruling, since staying costs him nothing the engine resolves), and when he cannot act (unconscious)
    whatever he would choose. No die is rolled for a jump."""
    for s in (_bike_and_pillion(jumps_on=["vault"]), _bike_and_pillion(),
              _bike_and_pillion(jumps_on=["roll, burning on 4-6"], pillion={"hits": 2})):
        r = s.resolve(ScriptedDice(_KNOCK_OUT), commit=True)
        assert not s.arena.pedestrians and [c.id for c in s.arena.vehicles["bike"].crew] == ["driver", "pillion"]
        assert not [e for e in r.events if e.rule in ("CW-SEED-01", "CW-COL-04")]
    rules = copy.deepcopy(RULES)
    rules["carwars.damage"]["crew"]["passenger_jumps_on"] = ["roll, burning on 4-6"]
    s = _bike_and_pillion()
    s.rules = rules
    s.resolve(ScriptedDice(_KNOCK_OUT + [3, 3, 2]), commit=True)
    assert list(s.arena.pedestrians) == ["bike.pillion"]     # the rules' default, when he names none


def test_cw_seed_01_a_jumps_on_that_is_not_a_crash_result_is_refused():
    """CW-SEED-01: a passenger's `jumps_on` names Crash Table 1 results; anything else is refused at load, by field."""
    with pytest.raises(ScenarioError) as err:
        _bike_and_pillion(jumps_on=["roll", "crash"])
    assert (err.value.field, err.value.value, err.value.rule) == ("vehicle[0].crew[1].jumps_on[1]", "crash", "CW-SEED-01")


def test_cw_seed_01_in_a_fight_the_jumper_is_on_his_cycles_side_and_out_of_action():
    """CW-SEED-01 / FIGHT-03: in a fight the passenger who jumped is on the cycle's side (no side of his own to keep
    the fight going) and out of action at the end of the turn ("jumped off bike", he has no orders); the cycle is
    out as crashed. The fight is decided for the hunter's side. The kernels keep a cycle's passengers aboard: a
    scenario where one may jump runs on the reference, and says why."""
    s = _bike_and_pillion(jumps_on=["roll, burning on 4-6"], orders=True)
    r = s.resolve(ScriptedDice(_KNOCK_OUT + [1, 1, 1]), commit=True)     # the jump: 3, all on his body armour
    fight = s.fight
    assert fight.side("bike.pillion", s.arena) == "a" and not fight.enemies("bike", "bike.pillion", s.arena)
    assert fight.enemies("car", "bike.pillion", s.arena) and fight.side("bike.pillion") == "bike.pillion"
    assert (r.fight["result"], r.fight["winner"], r.fight["out"]) == (
        "win", "b", ({"unit": "bike", "turn": 1, "reason": "crashed (roll, burning on 4-6)"},
                     {"unit": "bike.pillion", "turn": 1, "reason": "jumped off bike"}))
    from hardpoint.carwars.batch import _unsupported
    assert "CW-SEED-01" in _unsupported(_bike_and_pillion(jumps_on=["roll"], orders=True))
    assert _unsupported(_bike_and_pillion(orders=True)) is None      # nobody may jump: the kernels run it


# --- rulings where the seed is silent: a lost wheel, the flamethrower's smoke ------------------------------------

def test_cw_dmg_08_a_destroyed_tire_is_not_a_lost_wheel_and_drops_no_obstacle():
    """CW-DMG-08 (RULING): the seed drops an obstacle for a lost wheel, "not just a tire", but says nowhere how a wheel
    is lost apart from its tire, so the engine loses none: a hunter's front-left tire (heavy duty, 6 DP) shot away by
    an MG aimed at it (1d [6] = 6: 6 -> 0, the tire destroyed) drops no obstacle; 6 hits are short of the 20."""
    s = scenario(vehicle=[{"id": "v", "design": "hunter", "speed": 0},
                          {"id": "t", "design": "hunter", "x": -0.25, "y": 4.0, "facing": 180.0, "speed": 0}],
                 attack=[{"id": "a", "attacker": "t", "weapon": "mg", "target": "v", "aim": "tire:front_left"}])
    r = s.resolve(ScriptedDice([6, 6, 6]), commit=True)
    assert [(e.component, e.before, e.after) for e in r.events if e.kind == "damage"] == [("tire front_left", 6, 0)]
    assert s.arena.obstacles == [] and "obstacles" not in r.state
    assert not [e for e in r.events if e.rule == "CW-DMG-08"]


def test_cw_drop_01_a_flamethrower_lays_no_smoke_cloud_by_ruling():
    """CW-DROP-01 (RULING): the seed says only that a flamethrower's smoke cloud lies along its line of fire, not when
    one is made, how big it is or how long it stays, and its own fire example has a laser hit through that line a
    turn after the flamethrower fired (builtin:cw_fire_example): the engine lays no cloud for a flamethrower, so the
    laser's turn-2 shot is explained with a clear line (no smoke modifier) and the arena holds no cloud after it."""
    s = hardpoint.load_scenario("builtin:cw_fire_example")
    r = s.resolve(SeededDice(4), commit=True)
    assert s.arena.clouds == {}
    laser = [b for p in r.phases for b in p.breakdowns if b.weapon == "laser"]
    assert laser and all(b.lof and not [m for m in b.modifiers if m.rule == "CW-LOF-04"] for b in laser)


# --- CW-SEED-01: a damaging gas every five phases ----------------------------------------------------------------

def _flame_cloud(turns=4, layer_speed=10, b_y=0.0):
    """Hunter "a" drops a Flame Cloud Streamer (rear) in turn 1, phase 1, after its move: at 10 mph it has gone 1"
    north and the cloud (1/2" x 1") lies behind it, x -0.25..0.25, y -0.5..0.5. Hunter "b" drives west along
    y = 0 at 10 mph from x = 3 (1" in phase 1 of each turn)."""
    return scenario(meta={"turns": turns},
                    vehicle=[{"id": "a", "design": "hunter", "speed": layer_speed,
                              "weapon": [{"id": "fc", "type": "Flame Cloud Streamer", "mount": "back"}]},
                             {"id": "b", "design": "hunter", "x": 3.0, "y": b_y, "facing": 270.0, "speed": 10}],
                    action=[{"turn": 1, "phase": 1, "kind": "drop", "vehicle": "a", "weapon": "fc"}])


def _when(r, rule):
    """(turn, phase, text) of each note of `rule`, after the phase heading it falls under."""
    out, at = [], None
    for e in r.events:
        if e.kind == "note" and e.rule == "CW-ROF-02" and e.text.startswith("turn ") and e.text.count(",") == 1 \
                and "declared" not in e.text:
            t, p = e.text.split(", phase ")
            at = (int(t.split()[1]), int(p))
        elif e.kind == "note" and e.rule == rule:
            out.append((*at, e.text))
    return out


def test_cw_seed_01_a_damaging_gas_damages_on_entry_and_every_five_phases_in_it():
    """CW-SEED-01 / CW-DROP-04 (RULING: where the gas strikes): a flame cloud (the Flame Cloud Streamer's gas, 1d-1,
    fire modifier 3) damages a vehicle the phase it enters and again every five phases in a row it stays in it,
    as a damaging liquid does: "b" (1" long) runs into the cloud in turn 3, phase 1 (its front from x = 0.5 to
    -0.5), stays in it through phase 5 and leaves it in turn 4, phase 1: the 6th phase in a row, damaged again.
    Each time the gas's dice go once to each of its six sides, in order: first [1] x 6 = 0 each, then [2] x 6 = 1
    each (every side 1 less); each time a fire source of the gas's own modifier (2d [6, 6] = 12 misses the 3,
    then the 6). The cloud screens as smoke. Source: CW seed, Dropped Weapons ("every five phases ... liquids and
    dropped gases that do damage")."""
    s = _flame_cloud()
    r = s.resolve(ScriptedDice([1] * 6 + [6, 6] + [2] * 6 + [6, 6]), commit=True)
    assert _when(r, "CW-SEED-01") == [
        (3, 1, "b enters fc.t1p1 (Flame Cloud Streamer, a damaging gas)"),
        (4, 1, "b still in fc.t1p1 (Flame Cloud Streamer, a damaging gas), 5 phases on: its damage again")]
    gas = [e for e in r.events if e.kind == "dice" and e.rule == "CW-SEED-01"]
    assert [(g.expr, g.total) for g in gas] == [("1d-1", 0)] * 6 + [("1d-1", 1)] * 6
    assert [g.why.split()[-1] for g in gas[:6]] == ["front", "back", "left", "right", "top", "underbody"]
    b = s.arena.vehicles["b"]
    assert [b.armour[side] for side in Side] == [19, 14, 14, 14, 9, 9]
    fire = [e for e in r.events if e.kind == "dice" and e.rule == "CW-FIRE-01"]
    assert [f.total for f in fire] == [12, 12] and not s.arena.fires["b"].burning
    assert s.arena.clouds["fc.t1p1"].kind == "smoke"
    # the same fight one turn shorter: b is in the gas five phases in a row, damaged once
    r = _flame_cloud(turns=3).resolve(ScriptedDice([1] * 6 + [6, 6]), commit=True)
    assert [t[:2] for t in _when(r, "CW-SEED-01")] == [(3, 1)]


def test_cw_seed_01_the_layer_of_a_damaging_gas_meets_it_only_once_out_of_it():
    """CW-SEED-01 / CW-DROP-02: a vehicle in the cloud when it is laid (the layer, standing still: the cloud lies
    over it) is not damaged by it while it stays in it, as with any counter it lays; nor is anyone else far off.
    The kernels do not roll a gas's damage: a scenario with a damaging gas's dropper runs on the reference, and
    says why."""
    s = _flame_cloud(turns=3, layer_speed=0, b_y=5.0)
    r = s.resolve(SeededDice(3), commit=True)
    assert s.arena.clouds["fc.t1p1"].still_on == {"a"} and not _when(r, "CW-SEED-01")
    from hardpoint.carwars.batch import _unsupported
    assert "CW-SEED-01" in _unsupported(_flame_cloud())


# --- CW-SEED-04: obstacles on the map ---------------------------------------------------------------------------

def _rock_run(obstacle=True, turns=1):
    """A hunter at 30 mph north from the origin (1" in phases 1, 3 and 5), firing its MG in phase 3 at a hunter 12"
    ahead; with `obstacle`, a rock (a 1/4" square) at (0, 2), across its path (y 1.875 to 2.125)."""
    doc = dict(meta={"turns": turns}, vehicle=[{"id": "v", "design": "hunter", "speed": 30},
                                               {"id": "t", "design": "hunter", "y": 12.0, "facing": 180.0, "speed": 0}],
               attack=[{"id": "a", "turn": 1, "phase": 3, "attacker": "v", "weapon": "mg", "target": "t"}])
    if obstacle:
        doc["obstacle"] = [{"id": "rock", "x": 0.0, "y": 2.0}]
    return scenario(**doc)


def test_cw_seed_04_a_vehicle_running_onto_an_obstacle_meets_a_d3_hazard_once():
    """CW-SEED-04 (RULINGS: a 1/4" square; the classic hazard list's D3 for hitting an obstacle): the hunter's front
    (y 0.5) reaches 1.5 in phase 1 and 2.5 in phase 3, so its phase-3 move runs onto the rock: a D3 hazard, which
    is -3 to its MG's shot that phase (CW-HIT-10: 10 to hit without the rock, 13 with it); in phase 5 it is still
    on the rock (its move from 2.5 to 3.5 sweeps over it) and meets nothing more; the rock stays where it is. It
    never blocks the line of fire (CW-LOF-01). Source: CW seed, Producing and Moving Obstacles; Line of Fire."""
    plain = _rock_run(obstacle=False).resolve(SeededDice(1))
    s = _rock_run()
    r = s.resolve(SeededDice(1), commit=True)
    assert _when(r, "CW-SEED-04") == [(1, 3, "v runs onto obstacle rock: a D3 hazard")]
    with_rock = [b for p in r.phases for b in p.breakdowns]
    without = [b for p in plain.phases for b in p.breakdowns]
    assert [b.needed for b in without] == [10] and [b.needed for b in with_rock] == [13]
    assert [(m.value, m.rule) for m in with_rock[0].modifiers if m not in without[0].modifiers] == [(-3, "CW-HIT-10")]
    assert with_rock[0].lof and [(o.id, o.x, o.y) for o in s.arena.obstacles] == [("rock", 0.0, 2.0)]


def test_cw_seed_04_cw_dmg_08_an_obstacle_dropped_in_play_is_met_by_the_vehicle_behind():
    """CW-SEED-04 / CW-DMG-08: an obstacle that drops is a map object like a placed one. Hunter "a" at 10 mph (1" in
    phase 1 of each turn) takes a declared collision of 45 mph on its front after its move in turn 1 (4d
    [6, 6, 6, 2] = 20 hits): obstacle1 drops where it stands, (0, 1). It is on it and drives off it in turn 2, so
    it never meets it. Hunter "b", 4" behind at 10 mph, sweeps over y 1 in turn 5, phase 1 (its front from 0.5 to
    1.5): a D3 hazard. Without a movement order the hazard is reported (CW-CREW-03), no die is rolled for it."""
    s = scenario(meta={"turns": 5},
                 vehicle=[{"id": "a", "design": "hunter", "speed": 10}, {"id": "b", "design": "hunter", "y": -4.0, "speed": 10}],
                 collision=[{"id": "c", "turn": 1, "phase": 1, "vehicle": "a", "side": "front", "speed": 45}])
    r = s.resolve(ScriptedDice([6, 6, 6, 2]), commit=True)
    assert _when(r, "CW-DMG-08") == [(1, 1, "a took 20 hits: an obstacle, obstacle1, drops at (0, 1)")]
    assert _when(r, "CW-SEED-04") == [(5, 1, "b runs onto obstacle obstacle1: a D3 hazard")]
    assert [(o.id, o.x, o.y, o.source) for o in s.arena.obstacles] == [("obstacle1", 0.0, 1.0, "a")]


def test_cw_seed_04_a_placed_obstacle_needs_a_turn_it_could_be_placed_in_and_a_unique_id():
    """CW-SEED-04: a scenario's obstacle is refused, by field, when placed after the arena's turn or named as
    another map object is."""
    def load(**o):
        return scenario(vehicle=[{"id": "v", "design": "hunter"}], obstacle=[{"id": "rock", "x": 0.0, "y": 5.0, **o}])

    with pytest.raises(ScenarioError) as err:
        load(placed_turn=3)
    assert (err.value.field, err.value.rule) == ("obstacle[0].placed_turn", "CW-SEED-04")
    with pytest.raises(ScenarioError) as err:
        load(id="v")
    assert err.value.field == "obstacle[0].id"
    assert load().arena.obstacles[0].size == 0.25


def test_cw_seed_04_arch_03_the_kernels_follow_obstacles_bit_for_bit():
    """CW-SEED-04, CW-DMG-08, ARCH-03: a metal-armoured hunter "a" at 20 mph under fire (every phase it loses metal
    armour it drops an obstacle where it stands), hunter "b" 3" behind it, a rock on their path. With movement orders (run_drive, which follows the obstacles itself: no trial leaves it), with standing
    orders only (run_fight: a trial whose dropped obstacle is run onto later is handed to the reference) and for
    one turn with a planned shot (the turn kernel; a turn where one could be met goes to the fight kernel): every
    trial equal on both backends, and b meets obstacles in some trials."""
    def doc(drive, turns=4):
        d = {"meta": {"turns": turns},
             "vehicle": [{"id": "a", "design": "hunter", "speed": 20, "side": "a", "armour_material": "metal"},
                         {"id": "b", "design": "hunter", "y": -3.0, "speed": 20, "side": "a"},
                         {"id": "c", "design": "hunter", "x": -3.0, "y": 8.0, "facing": 135.0, "speed": 0, "side": "c"}],
             "orders": [{"id": "fire", "unit": "c", "target": "a"}],
             "obstacle": [{"id": "rock", "x": 0.1, "y": 1.0}]}
        if drive:       # b's hazards are control rolls (a would stand in b's line at c: the driver kernel hands that back)
            d["drive"] = [{"id": "da", "unit": "a", "tactic": "hold_course"}, {"id": "db", "unit": "b", "tactic": "hold_course"}]
        else:           # b's hazards are reported; they count against its shots (CW-HIT-10)
            d["orders"].append({"id": "fb", "unit": "b", "target": "c"})
        return d

    s = scenario(**doc(drive=True))
    r = s.resolve(SeededDice(3))
    assert [t[2] for t in _when(r, "CW-SEED-04")][-1].startswith("b runs onto obstacle obstacle")
    with warnings.catch_warnings():
        warnings.simplefilter("error", BackendWarning)       # run_drive keeps every trial
        both_backends(scenario(**doc(drive=True)), trials=300)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BackendWarning)
        both_backends(scenario(**doc(drive=False)), trials=300)
        both_backends(_rock_run(), trials=2000)


def test_cw_seed_03_the_turn_kernel_takes_the_ditch_hazard_into_a_planned_shot():
    """CW-SEED-03, CW-HIT-10, ARCH-03: one turn, a hunter at 30 mph crossing a 1.5 ft ditch in phase 1 (a D1 hazard)
    with a planned MG shot that phase at a hunter 10" ahead: the reference needs 11 (10 and the hazard's -1), and
    the turn kernel, which explains planned shots after each phase's movement, takes the hazard too (it once did
    not, and hit 16% of the time where the reference hit 8%)."""
    s = scenario(meta={"turns": 1}, vehicle=[{"id": "a", "design": "hunter", "speed": 30},
                                             {"id": "c", "design": "hunter", "y": 10.0, "facing": 180.0, "speed": 0}],
                 attack=[{"id": "a1", "turn": 1, "phase": 1, "attacker": "a", "weapon": "mg", "target": "c"}],
                 area=[{"id": "d", "kind": "ditch", "across_ft": 1.5, "x": 0.0, "y": 1.0, "width": 6.0, "length": 0.25}])
    assert [b.needed for p in s.resolve(SeededDice(1)).phases for b in p.breakdowns] == [11]
    com = both_backends(s, trials=3000)
    assert abs(com.hit.mean() - 3 / 36) < 0.02


# --- CW-SEED-03: gullies --------------------------------------------------------------------------------------

def _gully_scenario(turns=2, orders=False):
    """A hunter at 30 mph north from the origin (1" in phases 1, 3 and 5) toward a dry gully 6" wide across its path,
    y 2 to 3; with `orders`, firing at a hunter 12" ahead."""
    doc = dict(meta={"turns": turns}, vehicle=[{"id": "v", "design": "hunter", "speed": 30, "side": "a"}],
               area=[{"id": "g", "kind": "gully", "x": 0.0, "y": 2.5, "width": 6.0, "length": 1.0}])
    if orders:
        doc["vehicle"].append({"id": "t", "design": "hunter", "y": 12.0, "facing": 180.0, "speed": 0, "side": "b"})
        doc["orders"] = [{"id": "fire", "unit": "v", "target": "t"}]
    return scenario(**doc)


def test_cw_seed_03_a_gully_is_crossed_down_one_bank_and_up_the_other():
    """CW-SEED-03 (RULINGS: carwars.terrain gully bank_d = 2): the hunter (1" long, its counter from y -0.5 to 0.5)
    goes down the gully's near bank (y 2) in turn 1, phase 3 (its counter from 0.5-1.5, clear of the gully, to
    1.5-2.5, on it), stays on it in phase 5 (to 2.5-3.5) and climbs the far bank (y 3) in turn 2, phase 1 (to
    3.5-4.5, clear of it): a D2 hazard each, -2 to its shots in those phases. Source: CW seed, Ditches and Gullies
    ("crossed by driving down one side and up the other")."""
    r = _gully_scenario(turns=2).resolve(SeededDice(1), commit=True)
    assert _when(r, "CW-SEED-03") == [(1, 3, "v drives down into gully g: a D2 hazard"),
                                      (2, 1, "v climbs out of gully g: a D2 hazard")]


def test_cw_seed_03_a_gully_has_no_width_to_jump_and_a_wide_ditch_points_to_it():
    """CW-SEED-03: a gully names no width across (it is never jumped); a ditch over 4 ft is refused, naming gullies."""
    with pytest.raises(ScenarioError) as err:
        scenario(vehicle=[{"id": "v", "design": "hunter"}],
                 area=[{"id": "g", "kind": "gully", "across_ft": 10.0, "x": 0.0, "y": 5.0, "width": 6.0, "length": 1.0}])
    assert (err.value.field, err.value.rule) == ("area[0].across_ft", "CW-SEED-03")
    with pytest.raises(ScenarioError, match="kind gully"):
        scenario(vehicle=[{"id": "v", "design": "hunter"}],
                 area=[{"id": "d", "kind": "ditch", "across_ft": 6.0, "x": 0.0, "y": 5.0, "width": 6.0, "length": 1.0}])


def test_cw_seed_03_arch_03_the_kernels_take_a_gullys_banks_into_the_shots():
    """CW-SEED-03, CW-HIT-10, ARCH-03: the same crossing under a fire order (the packed fight kernel) and with one
    planned shot in the phase it goes down the bank (the turn kernel): both backends agree trial by trial, and the
    bank's D2 is in the shot (10 to hit without the gully becomes 12)."""
    both_backends(_gully_scenario(turns=3, orders=True), trials=400)
    s = scenario(meta={"turns": 1}, vehicle=[{"id": "v", "design": "hunter", "speed": 30},
                                             {"id": "t", "design": "hunter", "y": 12.0, "facing": 180.0, "speed": 0}],
                 area=[{"id": "g", "kind": "gully", "x": 0.0, "y": 2.5, "width": 6.0, "length": 1.0}],
                 attack=[{"id": "a", "turn": 1, "phase": 3, "attacker": "v", "weapon": "mg", "target": "t"}])
    assert [b.needed for p in s.resolve(SeededDice(1)).phases for b in p.breakdowns] == [12]
    both_backends(s, trials=2000)
