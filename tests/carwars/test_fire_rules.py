"""Car Wars fire and explosion, hand-worked (CW-FIRE-01..05): every roll's boundary, every event.

Each test forces its case with scripted dice and asserts the outcome and the events: which roll was made and what it
needed, which component lost how many points, which state changed. Source lines name the seed section.
"""
import pytest

import hardpoint
from hardpoint import DiceExhausted, ScriptedDice
from hardpoint.carwars.enums import CrewState, Side
from hardpoint.carwars.fire import (FireSource, FireState, _exposed_side, can_explode, component_fire_roll, end_of_turn_fire,
                                    explode, fire_damage, fire_modifier_total, record_component_hit, record_fire_hit,
                                    roll_explosion, roll_new_fire, try_extinguisher)
from hardpoint.carwars.model import Arena, build_pedestrian, build_vehicle
from hardpoint.carwars.tables import weapon_spec
from hardpoint.events import Note

RULES = hardpoint.default_rules()
FT = weapon_spec(RULES, "Flamethrower")
LASER = weapon_spec(RULES, "Laser")
LIGHT_LASER = weapon_spec(RULES, "Light Laser")
MG = weapon_spec(RULES, "Machine Gun")


def vehicle(design="hunter", id="v", **kw):
    return build_vehicle(RULES, {"id": id, "design": design, **kw})


def damage(events, target=None):
    return [(e.component, e.hits, e.before, e.after) for e in events
            if e.kind == "damage" and (target is None or e.target == target)]


def states(events):
    return [(e.subject, e.field, e.before, e.after, e.rule) for e in events if e.kind == "state"]


def dice_rolls(events):
    return [(e.why, e.faces, e.total, e.rule) for e in events if e.kind == "dice"]


# --- CW-FIRE-01: fire modifiers and their burn duration -----------------------------------------------------

def test_cw_fire_01_a_modifier_counts_on_the_turn_of_the_hit_and_each_turn_of_its_burn_duration():
    """CW-FIRE-01: a flamethrower hit on turn 2 (fire modifier 4, burn duration 3) counts on turns 2, 3, 4 and 5, not on
    turn 1 or turn 6; the modifier names the turn of its burn. Source: CW seed, Starting Fires (burn duration)."""
    state = FireState()
    event = record_fire_hit(state, FT, 2)
    assert event == Note("hit by Flamethrower: fire modifier 4, burn duration 3 turn(s)", "CW-FIRE-01")
    assert state.sources == [FireSource("Flamethrower", 4, 2, 3)]
    assert [fire_modifier_total(state, t)[0] for t in range(1, 7)] == [0, 4, 4, 4, 4, 0]
    assert [(m.name, m.value, m.rule) for m in fire_modifier_total(state, 2)[1]] == [
        ("Flamethrower (hit this turn)", 4, "CW-FIRE-01")]
    assert [m.name for m in fire_modifier_total(state, 5)[1]] == ["Flamethrower (burning, turn 3 of 3)"]


def test_cw_fire_01_a_weapon_without_a_fire_modifier_records_nothing():
    """CW-FIRE-01: a machine gun is not on the Vehicular Fire Table: its hit adds no fire source."""
    state = FireState()
    assert record_fire_hit(state, MG, 1) is None and state.sources == []


def test_cw_fire_01_a_laser_has_no_burn_duration():
    """CW-FIRE-01 (RULING on the garbled table): laser 1/0: its modifier counts on the turn of the hit only."""
    state = FireState()
    record_fire_hit(state, LASER, 3)
    assert [fire_modifier_total(state, t)[0] for t in (2, 3, 4)] == [0, 1, 0]


def test_cw_fire_01_the_roll_needs_the_total_or_less():
    """CW-FIRE-01: modifiers 1 + 4 = 5 on turn 2: 2d6 [2, 3] = 5 sets the vehicle on fire (at or under); [3, 3] = 6
    does not. Source: CW seed, Starting Fires example (needing 5, the attacker rolls 6: tough luck)."""
    for faces, burns in (([2, 3], True), ([3, 3], False)):
        v = vehicle()
        state = FireState(sources=[FireSource("Flamethrower", 4, 1, 3), FireSource("Laser", 1, 2, 0)])
        events = roll_new_fire(RULES, v, state, 2, ScriptedDice(faces))
        assert dice_rolls(events) == [("v: fire from fire modifiers (needs 5 or less)", tuple(faces), sum(faces), "CW-FIRE-01")]
        assert [e.value for e in events if e.kind == "modifier"] == [4, 1]
        assert state.burning is burns
        assert states(events) == ([("v", "on fire", False, True, "CW-FIRE-01")] if burns else [])


def test_cw_fire_01_a_total_of_zero_rolls_nothing():
    """CW-FIRE-01: a light laser's fire modifier is 0: no roll can be at or under 0 and none is made."""
    v = vehicle()
    state = FireState()
    record_fire_hit(state, LIGHT_LASER, 1)
    assert roll_new_fire(RULES, v, state, 1, ScriptedDice([])) == [] and not state.burning


def test_cw_fire_01_a_vehicle_already_burning_rolls_no_new_fire():
    """CW-FIRE-01 / CW-FIRE-03: a vehicle already on fire makes no roll for new fire; this turn's chances are spent."""
    v = vehicle()
    state = FireState(burning=True, sources=[FireSource("Flamethrower", 4, 1, 3)], component_hits=[True])
    assert roll_new_fire(RULES, v, state, 1, ScriptedDice([])) == []
    assert state.component_hits == [] and state.burning


# --- CW-FIRE-02: hits on the power plant, a flamethrower or a flaming oil jet --------------------------------

def test_cw_fire_02_recording_a_hit_remembers_whether_it_was_fiery():
    """CW-FIRE-02: each hit on the power plant records whether its damage came from a laser, flamethrower or flaming
    oil jet; a hit by no weapon (a collision) is not fiery."""
    state = FireState()
    assert record_component_hit(state, "power plant", MG) == Note(
        "power plant hit by Machine Gun: a chance of fire at the end of the turn", "CW-FIRE-02")
    record_component_hit(state, "weapon ft", LASER)
    assert record_component_hit(state, "power plant", None) == Note(
        "power plant hit: a chance of fire at the end of the turn", "CW-FIRE-02")
    assert state.component_hits == [False, True, False]


@pytest.mark.parametrize("hits,face,burns", [([False], 2, True), ([False], 3, False), ([False, False], 1, True),
                                             ([True], 4, True), ([True], 5, False), ([False, True], 4, True),
                                             ([True, False], 6, False)])
def test_cw_fire_02_one_roll_two_in_six_or_four_in_six(hits, face, burns):
    """CW-FIRE-02 (SPEC ruling): one 1d a turn however many such hits: 1-2 starts a fire, 1-4 if any of them was
    fiery. Source: CW seed, Fire and Explosion (2 in 6; 4 in 6 from laser, flamethrower or flaming oil jet fire)."""
    v = vehicle()
    state = FireState(component_hits=list(hits))
    events = component_fire_roll(RULES, v, state, ScriptedDice([face]))
    need = 4 if any(hits) else 2
    assert dice_rolls(events) == [(f"v: fire from {len(hits)} hit(s) on the power plant or a fire weapon this turn "
                                   f"(one roll a turn, needs {need} or less)", (face,), face, "CW-FIRE-02")]
    assert state.burning is burns
    assert states(events) == ([("v", "on fire", False, True, "CW-FIRE-02")] if burns else [])


def test_cw_fire_02_no_second_roll_once_the_modifiers_set_the_fire():
    """CW-FIRE-02: the fire-modifier roll sets the vehicle on fire: the power-plant roll is not made (no die left for
    it), and the turn's chances are cleared."""
    v = vehicle()
    state = FireState(sources=[FireSource("Flamethrower", 4, 1, 3)], component_hits=[True])
    events = roll_new_fire(RULES, v, state, 1, ScriptedDice([1, 1]))
    assert state.burning and [r[3] for r in dice_rolls(events)] == ["CW-FIRE-01"] and state.component_hits == []


def test_cw_fire_02_power_plant_roll_after_a_failed_modifier_roll():
    """CW-FIRE-02: the modifier roll fails (needs 4, 2d6 = 12), then the one power-plant roll: 1d 2 <= 2: on fire."""
    v = vehicle()
    state = FireState(sources=[FireSource("Flamethrower", 4, 1, 3)], component_hits=[False])
    events = roll_new_fire(RULES, v, state, 1, ScriptedDice([6, 6, 2]))
    assert [r[3] for r in dice_rolls(events)] == ["CW-FIRE-01", "CW-FIRE-02"]
    assert states(events) == [("v", "on fire", False, True, "CW-FIRE-02")] and state.component_hits == []


# --- CW-FIRE-03: the extinguisher, fire damage, the explosion roll --------------------------------------------

@pytest.mark.parametrize("kind,face,out", [("standard", 3, True), ("standard", 4, False), ("improved", 4, True),
                                           ("improved", 5, False), ("portable", 3, True), ("portable", 4, False)])
def test_cw_fire_03_extinguisher_bands(kind, face, out):
    """CW-FIRE-03: an extinguisher puts the fire out on 1-3, an improved one on 1-4.
    Source: CW seed, Fire and Explosion (3 in 6; 4 in 6 improved)."""
    v = vehicle(extinguisher=kind)
    state = FireState(burning=True)
    events = try_extinguisher(RULES, v, state, ScriptedDice([face]))
    need = 4 if kind == "improved" else 3
    assert dice_rolls(events) == [(f"v: {kind} fire extinguisher (needs {need} or less)", (face,), face, "CW-FIRE-03")]
    assert state.burning is not out
    assert states(events) == ([("v", "on fire", True, False, "CW-FIRE-03")] if out else [])


def test_cw_fire_03_no_extinguisher_or_no_fire_no_roll():
    """CW-FIRE-03: without an extinguisher, or without a fire, nothing is rolled."""
    assert try_extinguisher(RULES, vehicle(), FireState(burning=True), ScriptedDice([])) == []
    assert try_extinguisher(RULES, vehicle(extinguisher="standard"), FireState(), ScriptedDice([])) == []


def test_cw_fire_05_a_standard_extinguisher_puts_out_a_burning_tire():
    """CW-FIRE-05: extinguishers other than a portable one try as usual on a tire burning alone: 1d 2, out."""
    v = vehicle(fireproof=True, extinguisher="standard")
    state = FireState(burning=True, tire_only="front_left")
    try_extinguisher(RULES, v, state, ScriptedDice([2]))
    assert (state.burning, state.tire_only) == (False, None)


def test_cw_fire_05_a_portable_extinguisher_cannot_reach_a_burning_tire():
    """CW-FIRE-05: a portable extinguisher makes no roll against a tire burning alone on a fireproof car."""
    v = vehicle(fireproof=True, extinguisher="portable")
    state = FireState(burning=True, tire_only="front_left")
    assert try_extinguisher(RULES, v, state, ScriptedDice([])) == [
        Note("v: a portable extinguisher cannot reach the burning tire", "CW-FIRE-05")]
    assert state.burning and state.tire_only == "front_left"


def test_cw_fire_03_fire_damage_one_hit_to_each_occupant_component_tire_and_armour_location():
    """CW-FIRE-03: a hunter burns: the driver's body armour 3 -> 2 (he is unhurt), the MG 3 -> 2, the minedropper
    2 -> 1, the spare ammunition 1 -> 0 (destroyed), each of the four tires 6 -> 5, the power plant 8 -> 7 and one
    point off each of the six armour locations: 15 hits, all absorbed.
    Source: CW seed, Fire and Explosion (one hit to each occupant, component, tire and armour location)."""
    v = vehicle()
    ledger = fire_damage(RULES, v, FireState(burning=True))
    assert damage(ledger.events) == [
        ("driver body armour", 1, 3, 2), ("weapon mg", 1, 3, 2), ("weapon md", 1, 2, 1), ("cargo spare_ammo", 1, 1, 0),
        ("tire front_left", 1, 6, 5), ("tire front_right", 1, 6, 5), ("tire back_left", 1, 6, 5),
        ("tire back_right", 1, 6, 5), ("power plant", 1, 8, 7),
        ("front armour", 1, 20, 19), ("back armour", 1, 15, 14), ("left armour", 1, 15, 14), ("right armour", 1, 15, 14),
        ("top armour", 1, 10, 9), ("underbody armour", 1, 10, 9)]
    assert (ledger.dealt, ledger.absorbed, ledger.lost) == (15, 15, 0)
    assert states(ledger.events) == [("v cargo spare_ammo", "destroyed", False, True, "CW-VEH-03")]


def test_cw_fire_03_fire_damage_skips_what_is_already_gone():
    """CW-FIRE-03: a destroyed weapon and armour already at 0 take nothing and are not counted; a dead occupant's
    hit finds nothing to burn (booked as lost). The hunter without front armour, MG destroyed, driver dead:
    13 hits dealt (1 to the dead driver, lost), 12 absorbed."""
    v = vehicle()
    v.armour[Side.FRONT] = 0
    v.weapon("mg").dp = 0
    v.driver.body_armour, v.driver.hits = 0, 3
    ledger = fire_damage(RULES, v, FireState(burning=True))
    burnt = [c for c, *_ in damage(ledger.events)]
    assert "weapon mg" not in burnt and "front armour" not in burnt and "driver" not in burnt
    assert (ledger.dealt, ledger.absorbed, ledger.lost) == (13, 12, 1)


def test_cw_fire_03_a_sidecar_burns_too():
    """CW-FIRE-03: a burning outrider: the sidecar's passenger, its LMG, its wheel (standard tyre, 4 DP) and each of its five armour
    locations take one hit each, as the cycle's own parts do."""
    v = vehicle("outrider")
    ledger = fire_damage(RULES, v, FireState(burning=True))
    burnt = damage(ledger.events)
    for entry in [("passenger", 1, 3, 2), ("weapon sc_lmg", 1, 2, 1), ("tire sidecar", 1, 4, 3),
                  ("sidecar front armour", 1, 6, 5), ("sidecar back armour", 1, 4, 3), ("sidecar left armour", 1, 4, 3),
                  ("sidecar right armour", 1, 6, 5), ("sidecar underbody armour", 1, 4, 3),
                  ("front armour", 1, 10, 9), ("back armour", 1, 8, 7), ("power plant", 1, 3, 2)]:
        assert entry in burnt, entry
    assert v.sidecar.armour == {Side.FRONT: 5, Side.BACK: 3, Side.LEFT: 3, Side.RIGHT: 5, Side.UNDERBODY: 3}
    assert ledger.dealt == ledger.absorbed == len(burnt)


def test_cw_fire_03_a_sidecar_location_with_no_armour_left_takes_no_fire_hit():
    """CW-FIRE-03: fire takes a point off the armour of each location that has some. A burning outrider whose sidecar
    front armour is already shot away (0): the driver's body armour 3 -> 2, the passenger 3 -> 2 (wounded), the MG
    3 -> 2, the sidecar LMG 2 -> 1, the three tires (6 -> 5, 6 -> 5, 4 -> 3), the power plant 3 -> 2, the cycle's
    front and back armour (10 -> 9, 8 -> 7), and the sidecar's back, left, right and underbody armour (4 -> 3, 4 -> 3,
    6 -> 5, 4 -> 3): 14 hits, all absorbed. The sidecar's front, like the cycle's own unarmoured sides, takes no hit at
    all: none dealt, none lost, no "nothing left to burn" note; it stays at 0.
    Source: CW seed, Fire and Explosion (the fire's hit a turn; armour by location)."""
    v = vehicle("outrider")
    v.sidecar.armour[Side.FRONT] = 0
    ledger = fire_damage(RULES, v, FireState(burning=True))
    assert damage(ledger.events) == [
        ("driver body armour", 1, 3, 2), ("passenger", 1, 3, 2), ("weapon mg", 1, 3, 2), ("weapon sc_lmg", 1, 2, 1),
        ("tire front", 1, 6, 5), ("tire back", 1, 6, 5), ("tire sidecar", 1, 4, 3), ("power plant", 1, 3, 2),
        ("front armour", 1, 10, 9), ("back armour", 1, 8, 7), ("sidecar back armour", 1, 4, 3),
        ("sidecar left armour", 1, 4, 3), ("sidecar right armour", 1, 6, 5), ("sidecar underbody armour", 1, 4, 3)]
    assert v.sidecar.armour == {Side.FRONT: 0, Side.BACK: 3, Side.LEFT: 3, Side.RIGHT: 5, Side.UNDERBODY: 3}
    assert (ledger.dealt, ledger.absorbed, ledger.lost) == (14, 14, 0)
    assert [e.text for e in ledger.events if e.kind == "note"] == ["v burns"]
    assert states(ledger.events) == [("v passenger", "state", "ok", "wounded", "CW-CREW-01")]


def test_cw_fire_05_a_tire_burning_alone_hurts_only_itself():
    """CW-FIRE-05: a tire burning alone on a fireproof car: that tire 6 -> 5 and nothing else."""
    v = vehicle(fireproof=True)
    ledger = fire_damage(RULES, v, FireState(burning=True, tire_only="back_right"))
    assert damage(ledger.events) == [("tire back_right", 1, 6, 5)]
    assert (ledger.dealt, ledger.absorbed) == (1, 1)


def test_cw_fire_03_what_can_explode():
    """CW-FIRE-03: a burning vehicle may explode if it carries a flamethrower, a flaming oil jet, any rocket or
    missile, or an AT gun; a machine gun and a minedropper do not qualify; a sidecar's weapon counts."""
    assert not can_explode(vehicle())
    assert can_explode(vehicle("stinger"))  # rocket launcher
    for w in ("Flamethrower", "Flaming Oil Jet", "Anti-Tank Gun", "Heavy Rocket", "Wire-Guided Missile"):
        assert can_explode(vehicle(weapon=[{"id": "w", "type": w, "mount": "front"}])), w
    assert not can_explode(vehicle(weapon=[{"id": "w", "type": "Laser", "mount": "front"}]))
    bike = vehicle("outrider")
    bike.sidecar.weapons[0].spec = weapon_spec(RULES, "Light Rocket")
    assert can_explode(bike)


@pytest.mark.parametrize("face,boom", [(1, True), (2, False), (6, False)])
def test_cw_fire_03_explosion_on_a_1(face, boom):
    """CW-FIRE-03: still burning after the damage and carrying a rocket: 1d, it explodes on a 1 only.
    Source: CW seed, Fire and Explosion."""
    v = vehicle("stinger")
    result, events = roll_explosion(RULES, v, FireState(burning=True), ScriptedDice([face]))
    assert result is boom
    assert dice_rolls(events) == [("v: does the burning vehicle explode (on 1)", (face,), face, "CW-FIRE-03")]


def test_cw_fire_03_no_explosion_roll_without_fire_without_explosives_or_for_a_tire():
    """CW-FIRE-03 / CW-FIRE-05: no roll when the fire is out, when nothing aboard explodes, or when only a tire burns."""
    assert roll_explosion(RULES, vehicle("stinger"), FireState(), ScriptedDice([])) == (False, [])
    assert roll_explosion(RULES, vehicle(), FireState(burning=True), ScriptedDice([])) == (False, [])
    assert roll_explosion(RULES, vehicle("stinger", fireproof=True), FireState(burning=True, tire_only="front"),
                          ScriptedDice([])) == (False, [])


# --- CW-FIRE-04: the explosion ----------------------------------------------------------------------------------

def test_cw_fire_04_all_occupants_die_whatever_their_armour():
    """CW-FIRE-04: the shogun explodes: driver and gunner (body armour 3 each) die; a passenger already dead gets no
    second event; the vehicle is marked exploded and no longer burns. Source: CW seed, Fire and Explosion."""
    v = vehicle("shogun", crew=[{"id": "driver", "role": "driver", "body_armour": 3},
                                {"id": "gunner", "role": "gunner", "seat": "front_right", "body_armour": 3},
                                {"id": "late", "role": "passenger", "seat": "back_left", "hits": 3}])
    state = FireState(burning=True)
    events = explode(RULES, Arena(vehicles={"v": v}), v, state, ScriptedDice([]))
    assert states(events) == [("v", "exploded", False, True, "CW-FIRE-04"),
                              ("v driver", "state", "ok", "dead", "CW-FIRE-04"),
                              ("v gunner", "state", "ok", "dead", "CW-FIRE-04")]
    assert [(c.hits, c.body_armour, c.state) for c in v.crew] == [(3, 0, CrewState.DEAD)] * 3
    assert state.exploded and not state.burning


def test_cw_fire_04_vehicles_within_2_inches_take_1d_on_the_exposed_side():
    """CW-FIRE-04: the blast centre is the exploding car's centre (0, 0). A hunter at (1.5, 0) facing north shows its
    left side (its nearest point 1.25" away): 1d = 5, left armour 15 -> 10. A hunter at (0, 2.5) facing north, its
    back edge 2" away exactly, shows its back: 1d = 2, back armour 15 -> 13. One at (2.6, 0), 2.35" away: nothing."""
    v = vehicle()
    east = vehicle(id="east", x=1.5, y=0.0)
    north = vehicle(id="north", x=0.0, y=2.5)
    far = vehicle(id="far", x=2.6, y=0.0)
    arena = Arena(vehicles={"v": v, "east": east, "north": north, "far": far})
    events = explode(RULES, arena, v, FireState(burning=True), ScriptedDice([5, 2]))
    assert [(e.why, e.total) for e in events if e.kind == "dice"] == [("explosion of v on east left", 5),
                                                                      ("explosion of v on north back", 2)]
    assert damage(events, "east") == [("left armour", 5, 15, 10)]
    assert damage(events, "north") == [("back armour", 2, 15, 13)]
    assert damage(events, "far") == []


def test_cw_fire_04_pedestrians_within_2_inches_take_1d():
    """CW-FIRE-04: a pedestrian 1" from the blast centre takes 1d = 4: body armour 0, his 3 DP gone: dead, 1 hit over;
    one 3" away is untouched."""
    v = vehicle()
    near = build_pedestrian(RULES, {"id": "near", "x": 1.0, "y": 0.0})
    far = build_pedestrian(RULES, {"id": "far", "x": 3.0, "y": 0.0})
    arena = Arena(vehicles={"v": v}, pedestrians={"near": near, "far": far})
    events = explode(RULES, arena, v, FireState(burning=True), ScriptedDice([4]))
    assert [(e.why, e.total, e.rule) for e in events if e.kind == "dice"] == [("explosion of v on near", 4, "CW-FIRE-04")]
    assert damage(events, "near") == [("person", 3, 3, 0)]
    assert (near.state, far.state) == (CrewState.DEAD, CrewState.OK)


def test_cw_fire_04_of_two_exposed_sides_the_one_with_more_armour_takes_it():
    """CW-FIRE-04 (RULING: the owner picks, taken as the side with more armour left): a hunter at (1.5, 1.5) facing
    north sees the blast at (0, 0) past its back-left corner: back and left both face it. Left 15 vs back 12: left;
    with the left down to 10: back. Equal armour: the first in the side order (back before left)."""
    c = vehicle(id="c", x=1.5, y=1.5)
    c.armour[Side.BACK] = 12
    assert _exposed_side(c, (0.0, 0.0)) is Side.LEFT
    c.armour[Side.LEFT] = 10
    assert _exposed_side(c, (0.0, 0.0)) is Side.BACK
    c.armour[Side.LEFT] = 12
    assert _exposed_side(c, (0.0, 0.0)) is Side.BACK


# --- CW-FIRE-03: the end-of-turn order --------------------------------------------------------------------------

def test_cw_fire_03_put_out_at_once_no_damage_no_explosion_roll():
    """CW-FIRE-03: the fire breaks out (needs 4: 2d6 [1, 1]) and the extinguisher puts it out (1d 1): no fire damage,
    no explosion roll, although the car carries a flamethrower. Source: CW seed, Fire and Explosion (sequence)."""
    v = vehicle(weapon=[{"id": "ft", "type": "Flamethrower", "mount": "front"}], extinguisher="standard")
    fires = {"v": FireState(sources=[FireSource("Flamethrower", 4, 1, 3)])}
    events = end_of_turn_fire(RULES, Arena(vehicles={"v": v}), fires, 1, ScriptedDice([1, 1, 1]))
    assert damage(events) == [] and [r[3] for r in dice_rolls(events)] == ["CW-FIRE-01", "CW-FIRE-03"]
    assert states(events) == [("v", "on fire", False, True, "CW-FIRE-01"), ("v", "on fire", True, False, "CW-FIRE-03")]


def test_cw_fire_03_burning_without_an_extinguisher_burns_then_may_explode():
    """CW-FIRE-03: a stinger already burning, no extinguisher: fire damage, then the explosion roll 1d 2: no blast.
    Next turn the roll is 1: it explodes and its driver dies."""
    v = vehicle("stinger")
    fires = {"v": FireState(burning=True)}
    arena = Arena(vehicles={"v": v})
    events = end_of_turn_fire(RULES, arena, fires, 1, ScriptedDice([2]))
    assert ("weapon rl", 1, 2, 1) in damage(events) and not fires["v"].exploded
    assert [r[3] for r in dice_rolls(events)] == ["CW-FIRE-03"]
    events = end_of_turn_fire(RULES, arena, fires, 2, ScriptedDice([1]))
    assert fires["v"].exploded and ("v", "exploded", False, True, "CW-FIRE-04") in states(events)
    assert v.driver.state is CrewState.DEAD


def test_cw_fire_04_an_exploded_vehicle_rolls_nothing_more():
    """CW-FIRE-04: a vehicle that has exploded is out of the fire sequence: no roll, no damage."""
    v = vehicle("stinger")
    fires = {"v": FireState(exploded=True, sources=[FireSource("Flamethrower", 4, 1, 3)])}
    assert end_of_turn_fire(RULES, Arena(vehicles={"v": v}), fires, 1, ScriptedDice([])) == []


def test_cw_fire_03_a_vehicle_not_on_fire_takes_no_fire_damage():
    """CW-FIRE-03: no fire source, no fire: nothing happens at the end of the turn (no dice needed)."""
    v = vehicle()
    fires = {}
    assert end_of_turn_fire(RULES, Arena(vehicles={"v": v}), fires, 1, ScriptedDice([])) == []
    assert fires["v"] == FireState()
    with pytest.raises(DiceExhausted):
        end_of_turn_fire(RULES, Arena(vehicles={"v": v}), {"v": FireState(component_hits=[False])}, 1, ScriptedDice([]))


def test_cw_fire_03_a_sidecar_armour_location_down_to_its_last_point_burns_away():
    """CW-FIRE-03: hand-worked. A burning outrider whose sidecar has 1 point of left armour left: fire damage is 1 hit
    to every occupant, every component and 1 point off every armour location that has any, the sidecar's included:
    the driver's body armour 3 -> 2, the passenger 3 -> 2, the MG 3 -> 2, the sidecar LMG 2 -> 1, the tires 6 -> 5,
    6 -> 5 and the sidecar's 4 -> 3, the power plant 3 -> 2, the cycle's front 10 -> 9 and back 8 -> 7 (its other
    locations have none), then the sidecar's front 6 -> 5, back 4 -> 3, left 1 -> 0, right 6 -> 5 and underbody
    4 -> 3. Books: 15 dealt, 15 absorbed."""
    v = vehicle("outrider")
    v.sidecar.armour[Side.LEFT] = 1
    ledger = fire_damage(RULES, v, FireState(burning=True))
    assert damage(ledger.events) == [
        ("driver body armour", 1, 3, 2), ("passenger", 1, 3, 2), ("weapon mg", 1, 3, 2), ("weapon sc_lmg", 1, 2, 1),
        ("tire front", 1, 6, 5), ("tire back", 1, 6, 5), ("tire sidecar", 1, 4, 3), ("power plant", 1, 3, 2),
        ("front armour", 1, 10, 9), ("back armour", 1, 8, 7), ("sidecar front armour", 1, 6, 5),
        ("sidecar back armour", 1, 4, 3), ("sidecar left armour", 1, 1, 0), ("sidecar right armour", 1, 6, 5),
        ("sidecar underbody armour", 1, 4, 3)]
    assert v.sidecar.armour[Side.LEFT] == 0 and (ledger.dealt, ledger.absorbed, ledger.lost) == (15, 15, 0)
