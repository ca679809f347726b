"""Car Wars crew rules, hand-worked (CW-CREW-01..04, CW-SEED-01): pedestrians taking hits, the driver's injury,
substitute drivers, passengers jumping off an uncontrolled cycle.

Each test forces its case with scripted dice and asserts the outcome and the events: which person or body armour took
how many hits, which state changed, which note the rule wrote. Source lines name the seed section the figures come from.
"""
import pytest

import hardpoint
from hardpoint import RuleViolation, ScriptedDice
from hardpoint.carwars.crew import (check_substitute_fire, crash_roll_offroad_modifier, crash_table_band, damage_pedestrian,
                                    driver_consequences, passengers_jump, substitute_driver)
from hardpoint.carwars.damage import Ledger
from hardpoint.carwars.enums import CrewState
from hardpoint.carwars.model import build_pedestrian, build_vehicle
from hardpoint.events import Note, StateChanged

RULES = hardpoint.default_rules()


def vehicle(design="hunter", **kw):
    return build_vehicle(RULES, {"id": "v", "design": design, **kw})


def pedestrian(**kw):
    return build_pedestrian(RULES, {"id": "p", **kw})


def damage(ledger):
    return [(e.component, e.hits, e.before, e.after) for e in ledger.events if e.kind == "damage"]


# --- CW-CREW-01: a pedestrian's 3 DP and body armour ----------------------------------------------------------

def test_cw_crew_01_pedestrian_body_armour_takes_hits_first_then_the_person():
    """CW-CREW-01: a pedestrian wearing 2 points of body armour takes 4 hits: the armour takes 2 (2 -> 0), the person
    2 of his 3 DP (3 -> 1): two hits, unconscious. All 4 absorbed, none passed on.
    Source: CW seed, Injury to Drivers (3 DP; body armour, 3 DP when new, takes damage first)."""
    p = pedestrian(body_armour=2)
    ledger = Ledger("p", dealt=4)
    assert damage_pedestrian(p, 4, ledger) == 0
    assert damage(ledger) == [("body armour", 2, 2, 0), ("person", 2, 3, 1)]
    assert [(e.subject, e.field, e.before, e.after) for e in ledger.events if e.kind == "state"] == [
        ("p", "state", "ok", "unconscious")]
    assert (p.body_armour, p.hits, p.state) == (0, 2, CrewState.UNCONSCIOUS)
    assert (ledger.absorbed, ledger.lost) == (4, 0)


def test_cw_crew_01_pedestrian_hits_beyond_his_dp_pass_on():
    """CW-CREW-01: a wounded pedestrian (1 hit taken, 2 DP left, no armour) takes 5 hits: 2 kill him (2 -> 0), the
    other 3 are booked as passed on, not absorbed. Source: CW seed, Injury to Drivers."""
    p = pedestrian(hits=1)
    ledger = Ledger("p", dealt=5)
    damage_pedestrian(p, 5, ledger)
    assert damage(ledger) == [("person", 2, 2, 0)]
    assert [(e.before, e.after) for e in ledger.events if e.kind == "state"] == [("wounded", "dead")]
    assert (p.hits, p.state, ledger.absorbed, ledger.lost) == (3, CrewState.DEAD, 2, 3)
    assert any(e.kind == "note" and e.text == "3 hit(s) beyond what p can take" for e in ledger.events)


def test_cw_crew_01_pedestrian_armour_alone_absorbs_a_small_shot():
    """CW-CREW-01: 2 hits on a pedestrian with 3 armour: the armour 3 -> 1, the person untouched (no state change)."""
    p = pedestrian(body_armour=3)
    ledger = Ledger("p", dealt=2)
    damage_pedestrian(p, 2, ledger)
    assert damage(ledger) == [("body armour", 2, 3, 1)]
    assert not [e for e in ledger.events if e.kind == "state"]
    assert (p.body_armour, p.hits, ledger.absorbed, ledger.lost) == (1, 0, 2, 0)


def test_cw_crew_01_a_dead_pedestrian_absorbs_nothing():
    """CW-CREW-01: the third hit kills; a dead pedestrian's armourless body takes no more: 2 hits all pass on."""
    p = pedestrian(hits=3)
    ledger = Ledger("p", dealt=2)
    damage_pedestrian(p, 2, ledger)
    assert damage(ledger) == [] and (p.hits, ledger.absorbed, ledger.lost) == (3, 0, 2)


def test_cw_crew_01_each_hit_steps_a_pedestrian_through_wounded_unconscious_dead():
    """CW-CREW-01: one hit at a time on an unarmoured pedestrian: wounded, unconscious, dead; DP 3 -> 2 -> 1 -> 0."""
    p = pedestrian()
    seen = []
    for _ in range(3):
        ledger = Ledger("p", dealt=1)
        damage_pedestrian(p, 1, ledger)
        seen.append((damage(ledger), [e.after for e in ledger.events if e.kind == "state"]))
    assert seen == [([("person", 1, 3, 2)], ["wounded"]), ([("person", 1, 2, 1)], ["unconscious"]),
                    ([("person", 1, 1, 0)], ["dead"])]


# --- CW-CREW-02 / 03: what the driver's injury does to the vehicle ---------------------------------------------

def test_cw_crew_02_wounded_driver_is_a_d2_hazard_and_nothing_more():
    """CW-CREW-02: a driver wounded (ok -> wounded) is a D2 hazard; a wounded driver keeps control (no skill loss, not
    uncontrolled). Source: CW seed, Injury to Drivers."""
    v = vehicle()
    v.driver.body_armour, v.driver.hits = 0, 1
    events = driver_consequences(RULES, v, CrewState.OK, ScriptedDice([]))
    assert events == [Note("v: driver wounded: a D2 hazard", "CW-CREW-02")]
    assert not v.uncontrolled


def test_cw_crew_02_the_hazard_on_an_oil_slick_is_d4():
    """CW-CREW-02 / CW-DROP-04: the D2 hazard of a wounded driver takes +D2 on an oil slick: D4."""
    v = vehicle()
    v.driver.hits = 1
    events = driver_consequences(RULES, v, CrewState.OK, ScriptedDice([]), extra_d=2)
    assert events == [Note("v: driver wounded: a D4 hazard (+D2 on an oil slick)", "CW-CREW-02")]


def test_cw_crew_02_a_wounded_driver_knocked_out_loses_his_bonuses_without_a_new_hazard():
    """CW-CREW-02 / CW-CREW-03: a wounded car driver knocked out (wounded -> unconscious): no D2 hazard (he is neither
    newly wounded nor killed), driver skill and reflex bonuses lost, and the car goes on straight, uncontrolled."""
    v = vehicle()
    v.driver.hits = 2
    events = driver_consequences(RULES, v, CrewState.WOUNDED, ScriptedDice([]))
    assert events == [
        StateChanged("v", "driver skill and reflex bonuses", "in effect", "lost", "CW-CREW-02"),
        Note("v: uncontrolled: goes straight, losing 5 mph a turn until it stops or hits something", "CW-CREW-03"),
        StateChanged("v", "uncontrolled", False, True, "CW-CREW-03")]
    assert v.uncontrolled


def test_cw_crew_02_a_driver_knocked_out_from_ok_was_wounded_on_the_way_a_d2_hazard():
    """CW-CREW-02 / CW-CREW-03: a hunter's driver (no body armour) takes 2 hits in one phase, ok -> unconscious. The
    first hit wounds him, the second knocks him out (CW-CREW-01), so his being wounded is a D2 hazard for the car, as
    it is when 1 hit wounds him (ok -> wounded) or 3 kill him (ok -> dead); a driver already wounded who is knocked out
    is not newly wounded (no hazard, the test above). Then, as for any driver put out: skill and reflex bonuses lost,
    and the car goes straight, uncontrolled. Expected: one D2 hazard ("the driver hit") booked for the phase and one
    CW-CREW-02 note of it, then the three events of the knocked-out driver.
    Source: CW seed, Injury to Drivers (first hit wounded, second unconscious; a driver wounded or killed: D2)."""
    v = vehicle()
    v.driver.body_armour, v.driver.hits = 0, 2
    events = driver_consequences(RULES, v, CrewState.OK, ScriptedDice([]))
    assert v.phase_hazards == [(2, "the driver hit")]
    hazard = [e for e in events if isinstance(e, Note) and e.rule == "CW-CREW-02"]
    assert len(hazard) == 1 and "a D2 hazard" in hazard[0].text
    assert events[1:] == [
        StateChanged("v", "driver skill and reflex bonuses", "in effect", "lost", "CW-CREW-02"),
        Note("v: uncontrolled: goes straight, losing 5 mph a turn until it stops or hits something", "CW-CREW-03"),
        StateChanged("v", "uncontrolled", False, True, "CW-CREW-03")]
    assert v.uncontrolled


def test_cw_crew_02_a_driver_killed_outright_is_a_hazard_and_loses_control():
    """CW-CREW-02 / CW-CREW-03: a car driver killed from ok: the D2 hazard, the bonuses lost, uncontrolled."""
    v = vehicle()
    v.driver.hits = 3
    events = driver_consequences(RULES, v, CrewState.OK, ScriptedDice([]))
    assert [type(e).__name__ for e in events] == ["Note", "StateChanged", "Note", "StateChanged"]
    assert events[0] == Note("v: driver killed: a D2 hazard", "CW-CREW-02")
    assert events[-1] == StateChanged("v", "uncontrolled", False, True, "CW-CREW-03")


def test_cw_crew_03_a_vehicle_already_uncontrolled_is_not_made_uncontrolled_twice():
    """CW-CREW-03: an unconscious driver then killed: the hazard for the death, no second "uncontrolled" change."""
    v = vehicle()
    v.driver.hits = 3
    v.uncontrolled = True
    events = driver_consequences(RULES, v, CrewState.UNCONSCIOUS, ScriptedDice([]))
    assert events == [Note("v: driver killed: a D2 hazard", "CW-CREW-02")]


def test_cw_crew_02_no_change_in_the_driver_no_consequence():
    """CW-CREW-02: a driver whose state did not change this phase (hits on his body armour only) has no consequence."""
    v = vehicle()
    assert driver_consequences(RULES, v, CrewState.OK, ScriptedDice([])) == []
    assert driver_consequences(RULES, vehicle(crew=[]), CrewState.OK, ScriptedDice([])) == []


def test_cw_crew_03_uncontrolled_cycle_off_road_crash_roll_takes_minus_3():
    """CW-CREW-03 / CW-OFF-01: a cycle's driver knocked out off-road: Crash Table 1 at +4 and -3 off-road: 2d6 [4, 3]
    = 7 + 4 - 3 = 8: a severe skid (7-8). On the road the same roll is 11: a roll.
    Source: CW seed, Uncontrolled Vehicles; Off-Road Duelling (Crash Table rolls at -3)."""
    v = vehicle("razor", off_road=True)
    v.driver.hits = 2
    assert crash_roll_offroad_modifier(RULES, v) == -3
    events = driver_consequences(RULES, v, CrewState.OK, ScriptedDice([4, 3]))
    rolls = [e for e in events if e.kind == "dice"]
    assert [(r.faces, r.total, r.rule) for r in rolls] == [((4, 3), 7, "CW-CREW-03")]
    assert Note("v: Crash Table 1 roll 7 +4 -3 off-road = 8: severe skid; any passenger must jump or take the result",
                "CW-CREW-03") in events
    assert v.crash == "severe skid" and v.uncontrolled
    road = vehicle("razor")
    road.driver.hits = 2
    assert crash_roll_offroad_modifier(RULES, road) == 0
    driver_consequences(RULES, road, CrewState.OK, ScriptedDice([4, 3]))
    assert road.crash == "roll"


@pytest.mark.parametrize("total,band", [(-5, "trivial skid"), (2, "trivial skid"), (3, "minor skid"), (4, "minor skid"),
                                        (5, "moderate skid"), (7, "severe skid"), (9, "spinout"), (10, "spinout"),
                                        (11, "roll"), (13, "roll, burning on 4-6"), (14, "roll, burning on 4-6"),
                                        (15, "vault"), (19, "vault")])
def test_cw_crew_03_crash_table_1_bands_by_modified_roll(total, band):
    """CW-CREW-03: the Crash Table 1 band a modified roll falls in (the table is data; the engine reports the band)."""
    assert crash_table_band(RULES, total) == band


# --- CW-CREW-04: substitute drivers ----------------------------------------------------------------------------

def _outrider_without_driver():
    bike = vehicle("outrider")
    bike.driver.hits = 3
    return bike


def test_cw_crew_04_sidecar_passenger_steers_a_cycle_at_once():
    """CW-CREW-04: a cycle's driver out: the sidecar passenger steers from this turn (no brakes or throttle).
    Source: CW seed, Substitute Drivers."""
    bike = _outrider_without_driver()
    events = substitute_driver(RULES, bike, "passenger", 4)
    assert events == [StateChanged("v", "substitute driver", None, "passenger", "CW-CREW-04"),
                      Note("passenger steers from the sidecar: no brakes or throttle; cannot fire on a turn he steers",
                           "CW-CREW-04")]
    assert (bike.substitute, bike.substitute_from_turn) == ("passenger", 4)


def test_cw_crew_04_only_a_sidecar_passenger_can_steer_a_cycle():
    """CW-CREW-04: a second rider on the cycle seat itself may not take over: refused, nothing changed."""
    bike = vehicle("razor", crew=[{"id": "d", "role": "driver", "seat": "cycle"},
                                  {"id": "pillion", "role": "passenger", "seat": "cycle"}])
    bike.driver.hits = 3
    with pytest.raises(RuleViolation, match="only a sidecar passenger can steer a cycle"):
        substitute_driver(RULES, bike, "pillion", 2)
    assert (bike.substitute, bike.substitute_from_turn) == (None, None)


def test_cw_crew_04_front_seat_gunner_takes_over_a_moving_car_at_once():
    """CW-CREW-04: a front-seat gunner takes the controls of a moving car the same turn; each maneuver +D2.
    Source: CW seed, Substitute Drivers."""
    car = vehicle("shogun", speed=40)
    car.driver.hits = 2
    events = substitute_driver(RULES, car, "gunner", 3)
    assert events == [StateChanged("v", "substitute driver", None, "gunner", "CW-CREW-04"),
                      Note("gunner takes the controls: controls or weapons each turn, not both; each maneuver +D2",
                           "CW-CREW-04")]
    assert (car.substitute, car.substitute_from_turn) == ("gunner", 3)


def test_cw_crew_04_back_seat_passenger_needs_a_stopped_car_and_five_turns():
    """CW-CREW-04: a back-seat passenger replaces the driver only once the car is stopped; it takes 5 turns: asked on
    turn 3, he drives and fires from turn 8 (3 + 5, the 6th turn counting the 3rd as the first).
    Source: CW seed, Substitute Drivers."""
    car = vehicle("shogun", speed=30, crew=[{"id": "d", "role": "driver"}, {"id": "p", "role": "passenger", "seat": "back_left"}])
    car.driver.hits = 3
    with pytest.raises(RuleViolation, match="stop it first"):
        substitute_driver(RULES, car, "p", 3)
    assert car.substitute is None
    car.speed = 0
    events = substitute_driver(RULES, car, "p", 3)
    assert events == [StateChanged("v", "substitute driver", None, "p", "CW-CREW-04"),
                      Note("changing drivers takes 5 turns: p drives and fires from turn 8", "CW-CREW-04")]
    assert (car.substitute, car.substitute_from_turn) == ("p", 8)


def test_cw_crew_04_an_incapacitated_occupant_cannot_take_over():
    """CW-CREW-04: the substitute must himself be able to act: an unconscious gunner is refused."""
    car = vehicle("shogun")
    car.driver.hits = 3
    car.crew_member("gunner").hits = 2
    with pytest.raises(RuleViolation, match="'gunner' is unconscious and cannot drive"):
        substitute_driver(RULES, car, "gunner", 1)
    assert car.substitute is None


def test_cw_crew_04_a_wounded_driver_is_not_replaced():
    """CW-CREW-04: only an incapacitated driver is replaced: a wounded one still drives."""
    car = vehicle("shogun")
    car.driver.hits = 1
    with pytest.raises(RuleViolation, match="not incapacitated"):
        substitute_driver(RULES, car, "gunner", 1)


def test_cw_crew_04_a_new_driver_cannot_fire_before_his_turn_comes():
    """CW-CREW-04: a back-seat substitute acting from turn 8 cannot fire on turn 7; he can on turn 8. Anyone else
    aboard is not concerned."""
    car = vehicle("shogun", speed=0, crew=[{"id": "d", "role": "driver"}, {"id": "p", "role": "passenger", "seat": "back_left"},
                                           {"id": "g", "role": "gunner", "seat": "front_right"}])
    car.driver.hits = 3
    substitute_driver(RULES, car, "p", 3)
    p, g = car.crew_member("p"), car.crew_member("g")
    with pytest.raises(RuleViolation, match="still changing places: acts from turn 8"):
        check_substitute_fire(car, p, 7, "attack.firer")
    check_substitute_fire(car, p, 8, "attack.firer")
    check_substitute_fire(car, g, 7, "attack.firer")


def test_cw_crew_04_a_substitute_who_steered_this_turn_cannot_fire():
    """CW-CREW-04: the sidecar passenger steering this turn cannot fire this turn; he can on a turn he does not steer."""
    bike = _outrider_without_driver()
    substitute_driver(RULES, bike, "passenger", 1)
    p = bike.crew_member("passenger")
    bike.steered_turn = 2
    with pytest.raises(RuleViolation, match="steered this turn and cannot also fire"):
        check_substitute_fire(bike, p, 2, "attack.firer")
    check_substitute_fire(bike, p, 3, "attack.firer")
    check_substitute_fire(bike, p, 1, "attack.firer")


# --- CW-SEED-01: passengers jumping off an uncontrolled cycle -------------------------------------------------

def test_cw_seed_01_two_passengers_jump_off_a_stopped_cycle_in_file_order_unhurt():
    """CW-SEED-01 / CW-COL-04: hand-worked. An outrider (counter 1/2" wide) stopped at (3, 1) facing 0 has gone to
    Crash Table 1 with a spinout; both passengers name that result in `jumps_on`, so both jump. At 0 mph there are no
    jump dice (a stopped cycle: no damage) and the second passenger jumps too. They stand in file order from the
    cycle's right side outwards, abreast of its centre, each a 1/4" pedestrian: the first at x = 3 + 1/4 + 1/8 =
    3.375, the second 1/4" further, 3.625; the cycle's crew is its driver alone."""
    s = hardpoint.parse_scenario({"scenario": {"name": "t", "ruleset": "carwars"}, "vehicle": [
        {"id": "bike", "design": "outrider", "speed": 0, "x": 3.0, "y": 1.0,
         "crew": [{"id": "driver", "role": "driver", "seat": "cycle"},
                  {"id": "p1", "role": "passenger", "seat": "cycle", "jumps_on": ["spinout"]},
                  {"id": "p2", "role": "passenger", "seat": "cycle", "jumps_on": ["spinout"]}]}]})
    bike = s.arena.vehicles["bike"]
    bike.crash = "spinout"
    events = passengers_jump(RULES, s.arena, bike, ScriptedDice([]))
    assert {pid: (p.x, p.y, p.facing, p.hits, p.jumped_from) for pid, p in s.arena.pedestrians.items()} == {
        "bike.p1": (3.375, 1.0, 0.0, 0, "bike"), "bike.p2": (3.625, 1.0, 0.0, 0, "bike")}
    assert [c.id for c in bike.crew] == ["driver"]
    assert [(e.text, e.rule) for e in events if e.kind == "note" and e.rule == "CW-COL-04"] == [
        ("bike.p1 jumps off a stopped cycle: no damage", "CW-COL-04"), ("bike.p2 jumps off a stopped cycle: no damage", "CW-COL-04")]
    assert not [e for e in events if e.kind in ("dice", "damage")]
