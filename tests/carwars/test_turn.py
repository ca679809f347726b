"""The Car Wars turn, hand-worked (CW-ROF-02 and the end of the turn): the movement chart, straight-line movement,
declared actions, automatic drops, and the end-of-turn steps in their order.

Each test forces its case (scripted dice where anything rolls) and asserts the outcome and the events: which state
changed from what to what, which note the rule wrote, which roll was made. Source lines name the seed section or
SPEC id the figures come from.
"""
import math

import pytest

import hardpoint
from hardpoint import ScriptedDice
from hardpoint.carwars.model import build_vehicle
from hardpoint.carwars.turn import end_handling, move_vehicle, phase_distances

RULES = hardpoint.default_rules()


def scenario(turns=1, **data):
    return hardpoint.parse_scenario({"scenario": {"name": "t", "ruleset": "carwars", "turns": turns}, **data})


def notes(events, rule=None):
    return [e.text for e in events if e.kind == "note" and (rule is None or e.rule == rule)]


def changes(events, field=None):
    return [(e.subject, e.field, e.before, e.after) for e in events if e.kind == "state" and (field is None or e.field == field)]


# --- CW-ROF-02: the movement chart -------------------------------------------------------------------------------

@pytest.mark.parametrize("speed,expected", [
    (5, [0.5, 0, 0, 0, 0]), (10, [1, 0, 0, 0, 0]), (30, [1, 0, 1, 0, 1]), (50, [1, 1, 1, 1, 1]),
    (60, [2, 1, 1, 1, 1]), (100, [2, 2, 2, 2, 2]), (0, [0, 0, 0, 0, 0]),
])
def test_cw_rof_02_movement_chart_rows(speed, expected):
    """CW-ROF-02: the chart's rows, inches moved in phases 1-5. Source: SPEC CW-ROF-02 (combat after movement) and the
    movement chart of the project's turn table (5, 10, 30, 50, 60 and 100 mph)."""
    assert phase_distances(RULES, speed) == [float(x) for x in expected]


@pytest.mark.parametrize("speed,expected", [
    # whole inches over phases 1, 3, 5, 2, 4 in that order; the half inch in the first phase (same order) without a
    # whole inch beyond the even share
    (15, [1, 0, 0.5, 0, 0]),
    (20, [1, 0, 1, 0, 0]),
    (25, [1, 0, 1, 0, 0.5]),
    (35, [1, 0.5, 1, 0, 1]),
    (40, [1, 1, 1, 0, 1]),
    (45, [1, 1, 1, 0.5, 1]),
    (55, [1.5, 1, 1, 1, 1]),
    (75, [2, 1, 2, 1, 1.5]),
    (-25, [1, 0, 1, 0, 0.5]),
    (-60, [2, 1, 1, 1, 1]),
])
def test_cw_rof_02_movement_chart_between_the_rows(speed, expected):
    """CW-ROF-02: speed/10 inches a turn; the general rule the chart follows, worked by hand for speeds off its rows
    (reverse moves as far as forward). Each turn's total is speed/10. Source: SPEC CW-ROF-02; turn table spread
    order 1, 3, 5, 2, 4."""
    got = phase_distances(RULES, speed)
    assert got == [float(x) for x in expected]
    assert sum(got) == abs(speed) / 10


def test_cw_rof_02_straight_line_movement_along_the_facing_and_backwards_in_reverse():
    """CW-ROF-02: a vehicle moves along its facing (0 = +y, 90 = +x); in reverse it moves backwards, the same
    distance; nothing moves at distance 0."""
    v = build_vehicle(RULES, {"id": "v", "design": "hunter", "x": 0, "y": 0, "facing": 90, "speed": 30})
    move_vehicle(v, 1.0)
    assert (round(v.x, 9), round(v.y, 9)) == (1.0, 0.0)
    v = build_vehicle(RULES, {"id": "v", "design": "hunter", "x": 0, "y": 0, "facing": 0, "speed": -20})
    move_vehicle(v, 1.0)
    assert (round(v.x, 9), round(v.y, 9)) == (0.0, -1.0)
    v = build_vehicle(RULES, {"id": "v", "design": "hunter", "x": 2, "y": 3, "facing": 45, "speed": 30})
    move_vehicle(v, 0)
    assert (v.x, v.y) == (2, 3)
    move_vehicle(v, math.sqrt(2))
    assert (round(v.x, 9), round(v.y, 9)) == (3.0, 4.0)


def test_cw_rof_02_each_phase_moves_by_the_chart_and_says_where():
    """CW-ROF-02: at 30 mph a car facing +y moves 1" in phases 1, 3 and 5 and not in 2 or 4: three position changes,
    each phase headed by its note. Source: movement chart, 30 mph row (1, 0, 1, 0, 1)."""
    s = scenario(vehicle=[{"id": "v", "design": "hunter", "x": 0, "y": 0, "speed": 30}])
    r = s.resolve(ScriptedDice([]), commit=True)
    assert changes(r.events, "position") == [("v", "position", (0.0, 0.0), (0.0, 1.0)),
                                             ("v", "position", (0.0, 1.0), (0.0, 2.0)),
                                             ("v", "position", (0.0, 2.0), (0.0, 3.0))]
    heads = [i for i, e in enumerate(r.events) if e.kind == "note" and e.text in {f"turn 1, phase {p}" for p in range(1, 6)}]
    assert [r.events[i].text for i in heads] == [f"turn 1, phase {p}" for p in range(1, 6)]
    moves = [i for i, e in enumerate(r.events) if e.kind == "state" and e.field == "position"]
    assert heads[0] < moves[0] < heads[1] and heads[2] < moves[1] < heads[3] and heads[4] < moves[2]
    assert (s.arena.vehicles["v"].y, s.arena.turn, s.arena.phase) == (3.0, 2, 1)
    assert (r.first_turn, r.turns, len(r.phases)) == (1, 1, 5)


def test_cw_obs_01_pedestrians_walk_a_square_each_phase():
    """CW-OBS-01: a walking pedestrian moves one square (1/4") every phase: 5 squares a turn along his facing; a
    standing one stays. Source: SPEC CW-OBS-01 (pedestrians move one square a phase)."""
    s = scenario(pedestrian=[{"id": "walker", "x": 0, "y": 0, "facing": 90, "speed": 1},
                             {"id": "still", "x": 5, "y": 5}])
    s.resolve(ScriptedDice([]), commit=True)
    w, st = s.arena.pedestrians["walker"], s.arena.pedestrians["still"]
    assert (round(w.x, 9), round(w.y, 9)) == (1.25, 0.0)
    assert (st.x, st.y) == (5, 5)


# --- the end of the turn -----------------------------------------------------------------------------------------

def test_cw_crew_03_an_uncontrolled_vehicle_loses_5_mph_at_the_end_of_each_turn():
    """CW-CREW-03: uncontrolled, a car goes straight, losing 5 mph a turn until it stops: 40 -> 35 -> 30, one speed
    change a turn at the end of the turn; in reverse -20 -> -15; at 3 mph or 1 mph it stops (0, not -2, not -0); a
    stopped one writes nothing. Source: SPEC CW-CREW-03 (losing 5 mph a turn)."""
    s = scenario(turns=2, vehicle=[{"id": "a", "design": "hunter", "speed": 40},
                                   {"id": "b", "design": "hunter", "x": 10, "speed": -20},
                                   {"id": "c", "design": "hunter", "x": 20, "speed": 3},
                                   {"id": "d", "design": "hunter", "x": 30, "speed": 30},
                                   {"id": "e", "design": "hunter", "x": 40, "speed": 1}])
    for vid in "abce":
        s.arena.vehicles[vid].uncontrolled = True
    r = s.resolve(ScriptedDice([]), commit=True)
    assert changes(r.events, "speed") == [("a", "speed", 40, 35), ("b", "speed", -20, -15), ("c", "speed", 3, 0.0),
                                          ("e", "speed", 1, 0.0), ("a", "speed", 35, 30), ("b", "speed", -15, -10)]
    assert [e.rule for e in r.events if e.kind == "state" and e.field == "speed"] == ["CW-CREW-03"] * 6
    assert [str(e.after) for e in r.events if e.kind == "state" and e.subject in "ce"] == ["0.0", "0.0"]   # stopped, not -0.0
    v = s.arena.vehicles
    assert (v["a"].speed, v["b"].speed, v["c"].speed, v["d"].speed) == (30, -10, 0, 30)
    end1 = next(i for i, e in enumerate(r.events) if e.kind == "note" and e.text == "end of turn 1")
    first_speed = next(i for i, e in enumerate(r.events) if e.kind == "state" and e.field == "speed")
    assert first_speed > end1


def test_cw_hit_10_a_skid_ends_with_the_turn():
    """CW-HIT-10: a skid's penalty lasts the rest of the turn it happened in: at the end of the turn the handling
    state goes back to none, with its event; a vehicle without one writes nothing."""
    v = build_vehicle(RULES, {"id": "v", "design": "hunter"})
    v.handling = "minor skid"
    assert [(e.subject, e.field, e.before, e.after, e.rule) for e in end_handling(v)] == [
        ("v", "handling", "minor skid", None, "CW-HIT-10")]
    assert v.handling is None
    assert end_handling(v) == []


def test_cw_hit_07_paint_on_the_windows_washes_off_at_the_end_of_its_last_turn():
    """CW-HIT-07: paint on the windows lasts until the end of the turn it is due to wear off: a car painted until
    turn 2 still has it after turn 1 and loses it at the end of turn 2, with the event."""
    s = scenario(turns=1, vehicle=[{"id": "v", "design": "hunter", "speed": 0}])
    s.arena.vehicles["v"].paint_until_turn = 2
    r = s.resolve(ScriptedDice([]), commit=True)
    assert changes(r.events, "paint on windows") == [] and s.arena.vehicles["v"].paint_until_turn == 2
    r = s.resolve(ScriptedDice([]), commit=True)
    assert changes(r.events, "paint on windows") == [("v", "paint on windows", "yes", "washed off")]
    assert s.arena.vehicles["v"].paint_until_turn is None


def test_cw_rof_02_move_phase_reports_each_moved_vehicle_to_four_decimals():
    """CW-ROF-02: one phase's movement of every vehicle (what the drawings replay): at 30 mph, facing 45, phase 1 moves
    1" to (0.7071, 0.7071), reported to four decimals; phase 2 moves nothing and reports nothing."""
    from hardpoint.carwars.turn import move_phase

    s = scenario(vehicle=[{"id": "v", "design": "hunter", "x": 0, "y": 0, "facing": 45, "speed": 30}])
    assert changes(move_phase(RULES, s.arena, 1)) == [("v", "position", (0.0, 0.0), (0.7071, 0.7071))]
    assert move_phase(RULES, s.arena, 2) == []


# --- declared actions --------------------------------------------------------------------------------------------

def _maneuver_shot(**car):
    """The hunter maneuvers D2 in phase 1 and fires its MG at a car 5" ahead in the same phase: the maneuver note and
    the to-hit modifier the maneuver costs (CW-HIT-10)."""
    s = scenario(vehicle=[{"id": "v", "design": "hunter", "speed": 10, **car},
                          {"id": "t", "design": "hunter", "y": 6, "speed": 0}],
                 action=[{"turn": 1, "phase": 1, "kind": "maneuver", "vehicle": "v", "difficulty": 2}],
                 attack=[{"id": "a", "attacker": "v", "weapon": "mg", "target": "t", "turn": 1, "phase": 1}])
    return s


def test_cw_hit_10_a_maneuver_costs_its_difficulty_to_hit_that_phase():
    """CW-HIT-10: a D2 maneuver on the road: the note says D2 and nothing more, and the same phase's shot takes -2.
    Source: SPEC CW-HIT-10 (a maneuver in the same phase: minus its difficulty)."""
    s = _maneuver_shot()
    r = s.resolve(ScriptedDice([6, 6] + [1] * 10))
    assert notes(r.events, "CW-HIT-10") == ["v maneuvers: D2"]
    (b,) = r.phases[0].breakdowns
    assert [m.value for m in b.modifiers if m.rule == "CW-HIT-10"] == [-2]


def test_cw_off_01_a_maneuver_off_road_is_one_d_harder():
    """CW-OFF-01: maneuvers off-road are +D1 (at 10 mph, no off-road damage roll): the D2 maneuver is noted D2 +D1 and
    costs -3 to hit that phase. Source: SPEC CW-OFF-01 (maneuvers +D1)."""
    s = _maneuver_shot(off_road=True)
    r = s.resolve(ScriptedDice([6, 6] + [1] * 10))
    assert notes(r.events, "CW-HIT-10") == ["v maneuvers: D2 +D1"]
    (b,) = r.phases[0].breakdowns
    assert [m.value for m in b.modifiers if m.rule == "CW-HIT-10"] == [-3]


def test_cw_crew_04_a_substitute_drivers_maneuver_is_two_d_harder():
    """CW-CREW-04: a front-seat passenger who took the controls makes each maneuver +D2: the D2 maneuver is noted
    D2 +D2 and costs -4 to hit. Source: SPEC CW-CREW-04 (each maneuver +D2)."""
    s = _maneuver_shot()
    s.arena.vehicles["v"].substitute = "driver"
    r = s.resolve(ScriptedDice([6, 6] + [1] * 10))
    assert notes(r.events, "CW-HIT-10") == ["v maneuvers: D2 +D2"]
    (b,) = r.phases[0].breakdowns
    assert [m.value for m in b.modifiers if m.rule == "CW-HIT-10"] == [-4]


def test_cw_off_02_off_road_damage_rolls_at_the_start_of_the_turn_for_off_road_vehicles_only():
    """CW-OFF-02: at the beginning of a turn, a vehicle off-road above 10 mph rolls 2d6 (one roll up to 30 mph): a 2
    takes 1 point off its underbody (10 -> 9), before the first phase; the car on the road beside it rolls nothing.
    Source: SPEC CW-OFF-02 (2-3 underbody 1 point)."""
    s = scenario(vehicle=[{"id": "off", "design": "hunter", "speed": 20, "off_road": True},
                          {"id": "on", "design": "hunter", "x": 10, "speed": 20}])
    r = s.resolve(ScriptedDice([1, 1]), commit=True)
    rolls = [e for e in r.events if e.kind == "dice"]
    assert [(e.total, e.rule) for e in rolls] == [(2, "CW-OFF-02")]
    dmg = [(e.target, e.component, e.hits, e.before, e.after) for e in r.events if e.kind == "damage"]
    assert dmg == [("off", "underbody armour", 1, 10, 9)]
    first_phase = next(i for i, e in enumerate(r.events) if e.kind == "note" and e.text == "turn 1, phase 1")
    assert r.events.index(rolls[0]) < first_phase
    from hardpoint.carwars.enums import Side
    assert (s.arena.vehicles["off"].armour[Side.UNDERBODY], s.arena.vehicles["on"].armour[Side.UNDERBODY]) == (9, 10)


def test_cw_drop_01_a_declared_drop_lays_its_counter_and_spends_a_shot():
    """CW-DROP-01: the driver drops a mine from the back-mounted minedropper in phase 2: one shot spent (10 -> 9), a
    counter md.t1p2 laid behind the stopped car; a second drop of the same weapon in phase 4 is cancelled (a weapon
    fires once a turn, CW-ROF-01) and lays nothing. Source: SPEC CW-DROP-01, CW-ROF-01."""
    s = scenario(vehicle=[{"id": "v", "design": "hunter", "speed": 0}])
    from hardpoint.carwars.turn import Action

    s.plan.actions[(1, 2)] = [Action(1, 2, "drop", "v", weapon="md")]
    s.plan.actions[(1, 4)] = [Action(1, 4, "drop", "v", weapon="md")]
    r = s.resolve(ScriptedDice([]), commit=True)
    assert changes(r.events, "ammo") == [("v md", "ammo", 10, 9)]
    assert [c.id for c in s.arena.counters] == ["md.t1p2"]
    assert [(c.kind, c.owner, c.placed_turn) for c in s.arena.counters] == [("mines", "v", 1)]
    assert notes(r.events, "CW-ROF-01") == ["drop of v cancelled: weapon 'md' already fired this turn"]


def test_cw_drop_03_remote_detonation_removes_the_named_mines_only():
    """CW-DROP-03: remote detonation sets off the mines counter named, and only it: of m1 and m2, m2 goes, with the
    note; detonating a counter that is not there is cancelled. Source: SPEC CW-DROP-03 (remote detonation)."""
    from hardpoint.carwars.turn import Action

    s = scenario(vehicle=[{"id": "v", "design": "hunter", "speed": 0}],
                 counter=[{"id": "m1", "weapon": "Minedropper", "x": 5, "y": 5, "width": 0.5, "length": 0.5},
                          {"id": "m2", "weapon": "Minedropper", "x": 8, "y": 5, "width": 0.5, "length": 0.5}])
    s.plan.actions[(1, 1)] = [Action(1, 1, "detonate", "v", counter="m2")]
    r = s.resolve(ScriptedDice([]), commit=True)
    assert notes(r.events, "CW-DROP-03") == ["v sets off m2 by remote control"]
    assert [c.id for c in s.arena.counters] == ["m1"]
    s.plan.actions[(2, 1)] = [Action(2, 1, "detonate", "v", counter="m2")]
    r = s.resolve(ScriptedDice([]), commit=True)
    assert notes(r.events, "CW-DROP-03") == ["detonate of v cancelled: no mines counter with this id"]
    assert [c.id for c in s.arena.counters] == ["m1"]


# --- CW-DROP-01: dropped weapons on automatic --------------------------------------------------------------------

def test_cw_drop_01_on_automatic_a_counter_every_phase_moved():
    """CW-DROP-01: a minedropper on automatic lays a counter in each phase the car moves: at 30 mph phases 1, 3 and 5,
    three shots (10 -> 9 -> 8 -> 7). Source: SPEC CW-DROP-01 (one per phase moved); movement chart 30 mph."""
    s = scenario(vehicle=[{"id": "v", "design": "hunter", "speed": 30,
                           "weapon": [{"id": "md", "type": "Minedropper", "mount": "back", "ammo": 10, "automatic": True}]}])
    r = s.resolve(ScriptedDice([]), commit=True)
    assert [c.id for c in s.arena.counters] == ["md.t1p1", "md.t1p3", "md.t1p5"]
    assert changes(r.events, "ammo") == [("v md", "ammo", 10, 9), ("v md", "ammo", 9, 8), ("v md", "ammo", 8, 7)]


def test_cw_drop_01_on_automatic_a_stopped_car_drops_once_a_turn_in_phase_1():
    """CW-DROP-01: a stationary car's dropper on automatic fires once a turn, in phase 1: two turns, two counters."""
    s = scenario(turns=2, vehicle=[{"id": "v", "design": "hunter", "speed": 0,
                                    "weapon": [{"id": "md", "type": "Minedropper", "mount": "back", "ammo": 10,
                                                "automatic": True}]}])
    s.resolve(ScriptedDice([]), commit=True)
    assert [c.id for c in s.arena.counters] == ["md.t1p1", "md.t2p1"]


def test_cw_drop_01_05_two_vehicles_dropping_a_weapon_of_the_same_id_lay_two_counters():
    """CW-DROP-01 / CW-DROP-05: two cars whose minedroppers (both "md") are on automatic, and whose smokescreens
    (both "smoke") are dropped by declared actions in the same phase, lay two mines counters and two smoke clouds
    each time, with ids of their own: the second takes the vehicle's id in front (a shared id made the second
    cloud replace the first, and a vehicle touching one counter skip the other)."""
    car = {"design": "hunter", "speed": 30,
           "weapon": [{"id": "md", "type": "Minedropper", "mount": "back", "ammo": 10, "automatic": True},
                      {"id": "smoke", "type": "Smokescreen", "mount": "back", "ammo": 5}]}
    s = scenario(vehicle=[{"id": "a", **car}, {"id": "b", "x": 5.0, **car}],
                 action=[{"turn": 1, "phase": 2, "kind": "drop", "vehicle": v, "weapon": "smoke"} for v in ("a", "b")])
    s.resolve(ScriptedDice([]), commit=True)
    assert [c.id for c in s.arena.counters] == ["md.t1p1", "b.md.t1p1", "md.t1p3", "b.md.t1p3", "md.t1p5", "b.md.t1p5"]
    assert sorted(s.arena.clouds) == ["b.smoke.t1p2", "smoke.t1p2"]
    assert [c.owner for c in s.arena.counters] == ["a", "b"] * 3


def test_cw_drop_01_on_automatic_until_the_ammunition_runs_out():
    """CW-DROP-01: with one shot left, the dropper on automatic at 50 mph lays one counter (phase 1) and then nothing:
    out of ammunition, it is skipped, not an error. Source: SPEC CW-AUTO-01 (until out of ammo)."""
    s = scenario(vehicle=[{"id": "v", "design": "hunter", "speed": 50,
                           "weapon": [{"id": "md", "type": "Minedropper", "mount": "back", "ammo": 1, "automatic": True}]}])
    r = s.resolve(ScriptedDice([]), commit=True)
    assert [c.id for c in s.arena.counters] == ["md.t1p1"]
    assert changes(r.events, "ammo") == [("v md", "ammo", 1, 0)]


def test_cw_drop_01_only_dropped_weapons_are_dropped_and_a_link_with_an_aimed_one_is_fired_as_an_attack():
    """CW-DROP-01 / CW-LINK-01: a drop declared for the front MG is cancelled (not a dropped weapon); one declared for a
    link of the MG and the minedropper is cancelled too (the MG needs a target: the link is fired as an attack), and
    neither lays a counter or spends a shot. Declared plans are checked at load; these reach the turn directly."""
    from hardpoint.carwars.turn import Action

    s = scenario(vehicle=[{"id": "v", "design": "hunter", "speed": 0, "links": [{"id": "pair", "weapons": ["mg", "md"]}]}])
    s.plan.actions[(1, 1)] = [Action(1, 1, "drop", "v", weapon="mg")]
    s.plan.actions[(1, 2)] = [Action(1, 2, "drop", "v", weapon="pair")]
    r = s.resolve(ScriptedDice([]), commit=True)
    assert [(e.text, e.rule) for e in r.events if e.kind == "note" and "cancelled" in e.text] == [
        ("drop of v cancelled: Machine Gun is not a dropped weapon", "CW-DROP-01"),
        ("drop of v cancelled: Machine Gun in link 'pair' needs a target: fire the link as an attack", "CW-LINK-01")]
    assert s.arena.counters == [] and changes(r.events, "ammo") == []


def test_cw_hit_10_a_maneuver_declared_without_a_difficulty_is_d0():
    """CW-HIT-10: an Action's difficulty defaults to 0 (as the scenario key does): a D0 maneuver, noted D0, costs
    nothing to hit."""
    from hardpoint.carwars.turn import Action

    s = _maneuver_shot()
    s.plan.actions[(1, 1)] = [Action(1, 1, "maneuver", "v")]
    r = s.resolve(ScriptedDice([6, 6] + [1] * 10))
    assert notes(r.events, "CW-HIT-10") == ["v maneuvers: D0"]
    (b,) = r.phases[0].breakdowns
    assert [m.value for m in b.modifiers if m.rule == "CW-HIT-10"] in ([], [0])


def test_cw_rof_02_move_phase_walks_a_pedestrian_one_square_along_his_facing():
    """CW-ROF-02 / CW-OBS-01: `move_phase` (what the drawings replay) walks a pedestrian one square (1/4") a phase
    along his facing: facing 30 from (0, 0), sin 30 = 1/2 and cos 30 = sqrt(3)/2, so he ends at (1/8, sqrt(3)/8) =
    (0.125, 0.2165...); facing 180, from (1, 1) to (1, 0.75); one standing (speed 0) stays. Pedestrians write no
    event."""
    from hardpoint.carwars.turn import move_phase

    s = scenario(pedestrian=[{"id": "w", "x": 0, "y": 0, "facing": 30, "speed": 1},
                             {"id": "s", "x": 1, "y": 1, "facing": 180, "speed": 1},
                             {"id": "still", "x": 5, "y": 5}])
    assert move_phase(RULES, s.arena, 1) == []
    w, back, still = (s.arena.pedestrians[p] for p in ("w", "s", "still"))
    assert (w.x, w.y) == pytest.approx((0.125, math.sqrt(3) / 8), abs=1e-12)
    assert (back.x, back.y) == pytest.approx((1.0, 0.75), abs=1e-12)
    assert (still.x, still.y) == (5, 5)


def test_cw_rof_01_a_weapon_fired_by_the_gunner_is_refused_to_the_driver_later_in_the_turn():
    """CW-ROF-01: a weapon fires at most once a turn, whoever fires it. The shogun's gunner fires the front MG at a car
    5" ahead in phase 1 (to-hit 2d: 1 + 1 = 2, a miss, nothing else rolled); the driver, who has not fired this turn,
    declares the same MG in phase 2 (added to the plan after loading, which refuses it already): cancelled, the weapon
    having fired, with no roll. One shot spent (20 -> 19)."""
    from dataclasses import replace

    s = scenario(vehicle=[{"id": "v", "design": "shogun", "speed": 0},
                          {"id": "t", "design": "hunter", "y": 5.0, "speed": 0}],
                 attack=[{"id": "a1", "attacker": "v", "weapon": "mg", "target": "t", "firer": "gunner", "turn": 1, "phase": 1}])
    (a1,) = s.plan.attacks[(1, 1)]
    s.plan.attacks[(1, 2)] = [replace(a1, id="a2", firer="driver")]
    dice = ScriptedDice([1, 1])
    r = s.resolve(dice, commit=True)
    assert dice.remaining == 0
    assert notes(r.events, "CW-ROF-01") == ["a2 cancelled: weapon 'mg' of 'v' already fired this turn"]
    assert changes(r.events, "ammo") == [("v mg", "ammo", 20, 19)]
