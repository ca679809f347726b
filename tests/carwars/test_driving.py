"""Fights that drive (FIGHT-07..10): maneuvers as data, the standing driver, handling and control, crashes that act,
standing orders that fight sensibly.

Hand-worked: each figure below is worked from the rule and the data (seeds/carwars/maneuvers.toml, handling.toml,
fight.toml) in the test's docstring; the dice are scripted where a roll decides.
"""
import copy
import math

import pytest

import hardpoint
from hardpoint import RiggedDice, ScriptedDice, SeededDice
from hardpoint.carwars import driving, handling
from hardpoint.carwars.driving import Maneuver, choose_maneuver, choose_speed, end_counter, maneuver_difficulty, maneuver_menu, maneuver_move
from hardpoint.carwars.fight import out_of_action
from hardpoint.carwars.geometry import Counter

RULES = hardpoint.default_rules()


def veh(id, design="hunter", x=0.0, y=0.0, facing=0.0, speed=0, **kw):
    return {"id": id, "design": design, "x": x, "y": y, "facing": facing, "speed": speed, **kw}


def fight(vehicles, orders=(), drive=(), turns=3, until=None, rules=None, **extra):
    data = {"scenario": {"name": "drive", "ruleset": "carwars", "turns": turns, **({"until": until} if until else {})},
            "vehicle": [copy.deepcopy(v) for v in vehicles]}
    if orders:
        data["orders"] = [copy.deepcopy(o) for o in orders]
    if drive:
        data["drive"] = [copy.deepcopy(d) for d in drive]
    data.update(extra)
    return hardpoint.parse_scenario(data, rules=rules)


def vehicle(**kw):
    return fight([veh("v", **kw), veh("t", x=40, y=40)]).arena.vehicles["v"]


def pose(cnt):
    return (round(cnt.cx, 6), round(cnt.cy, 6), round(cnt.facing, 6))


class NoDice:
    """A dice source that fails if anything rolls: the standing driver decides without dice (FIGHT-07)."""

    def d6(self):
        raise AssertionError("the standing driver rolled a die")

    def roll(self, *a, **k):
        raise AssertionError("the standing driver rolled a die")


# --- FIGHT-08: maneuvers as data ------------------------------------------------------------------------------

def test_fight_08_a_bend_turns_about_its_back_corner_on_the_inside():
    """FIGHT-08: a bend right 45 (D3: 1 a 15 degrees) at 10 mph: forward 1", then the 1"x1/2" counter turns 45
    degrees right about its back-right corner, which stays put. From (0, 0) facing north: the corner is at (0.25,
    0.5) after the inch; the centre (0, 1) swings about it to (0.25 + 0.25 cos45 + ... ) = (0.426777, 1.030330)."""
    v = vehicle(speed=10)
    m = next(x for x in maneuver_menu(RULES, v, 1.0, ["bend"]) if x.angle == 45.0)
    assert m.d == 3 and m.name == "bend right 45"
    move = maneuver_move(RULES, v, m, 1.0)
    assert (move.dx, move.dy, move.angle, move.pivot) == (0.0, 1.0, 45.0, (0.25, -0.5))
    cnt = end_counter(v, move)
    r = math.sqrt(0.5)
    assert pose(cnt) == (round(0.25 - 0.25 * r + 0.5 * r, 6), round(0.5 + 0.25 * r + 0.5 * r, 6), 45.0)
    corner = cnt.to_world((0.25, -0.5))
    assert round(corner[0], 9) == 0.25 and round(corner[1], 9) == 0.5


def test_fight_08_drifts_swerves_pivots_and_their_d():
    """FIGHT-08: drift D1 slides 1/4" sideways while going its inch, steep drift D3 1/2"; a swerve left 15 is a
    drift right then a bend left about the back-left corner, D2 (the bend's D1 plus 1); a pivot (only at 5 mph, its
    half inch) goes 1/4" then turns up to 90 degrees at D0."""
    v = vehicle(speed=10)
    menu = {m.name: m for m in maneuver_menu(RULES, v, 1.0, ["drift", "steep_drift", "swerve", "pivot"])}
    assert menu["drift right"].d == 1 and pose(end_counter(v, maneuver_move(RULES, v, menu["drift right"], 1.0))) == (0.25, 1.0, 0.0)
    assert menu["steep drift left"].d == 3 and pose(end_counter(v, maneuver_move(RULES, v, menu["steep drift left"], 1.0))) == (-0.5, 1.0, 0.0)
    sw = menu["swerve left 15"]
    assert sw.d == 2 and sw.lateral == 0.25
    move = maneuver_move(RULES, v, sw, 1.0)
    assert (move.dx, move.dy, move.angle, move.pivot) == (0.25, 1.0, -15.0, (-0.25, -0.5))
    assert not any(m.kind == "pivot" for m in menu.values())          # a pivot is made at 5 mph only
    slow = vehicle(speed=5)
    pivots = maneuver_menu(RULES, slow, 0.5, ["bend", "pivot"])
    assert [m.kind for m in pivots] == ["straight"] + ["pivot"] * 12 and all(m.d == 0 for m in pivots)
    p90 = next(m for m in pivots if m.angle == 90.0)
    cnt = end_counter(slow, maneuver_move(RULES, slow, p90, 0.5))
    assert pose(cnt) == (0.75, 0.0, 90.0)      # 1/4" on, then a quarter turn about the back-right corner (0.25, -0.25)


def test_fight_08_half_inch_moves_go_straight_and_limits():
    """FIGHT-08: on a half-inch move only straight (no pivot off 5 mph); no move, no maneuver; in water no maneuver
    whose own D is over 3 (the seed); no bootlegger for a cycle, and only from 20 to 35 mph; a T-stop is D1 a
    10 mph (rounded up)."""
    v = vehicle(speed=15)
    assert [m.kind for m in maneuver_menu(RULES, v, 0.5, ["bend", "drift", "pivot"])] == ["straight"]
    assert maneuver_menu(RULES, v, 0.0, ["bend"]) == []
    wet = vehicle(speed=30, water_depth_ft=1.0)
    assert max(m.d for m in maneuver_menu(RULES, wet, 1.0, ["bend", "swerve", "steep_drift", "bootlegger"])) == 3
    car = vehicle(speed=30)
    boot = [m for m in maneuver_menu(RULES, car, 1.0, ["bootlegger"]) if m.kind == "bootlegger"]
    assert [m.d for m in boot] == [7, 7]
    assert not [m for m in maneuver_menu(RULES, vehicle(speed=40), 1.0, ["bootlegger"]) if m.kind == "bootlegger"]
    cycle = vehicle(design="razor", speed=30)
    assert not [m for m in maneuver_menu(RULES, cycle, 1.0, ["bootlegger"]) if m.kind == "bootlegger"]
    assert {m.d for m in maneuver_menu(RULES, vehicle(speed=45), 1.0, ["t_stop"]) if m.kind == "t_stop"} == {5}


def test_fight_08_additions_to_a_maneuvers_d():
    """FIGHT-08 with the seed's additions: off-road +D1 (CW-OFF-01), in reverse +D1, a substitute driver +D2
    (CW-CREW-04); straight ahead is no maneuver (D0) whatever."""
    bend = Maneuver("bend", 15.0, 0.0, 1)
    assert maneuver_difficulty(RULES, vehicle(speed=20), bend) == 1
    assert maneuver_difficulty(RULES, vehicle(speed=20, off_road=True), bend) == 2
    assert maneuver_difficulty(RULES, vehicle(speed=-10), bend) == 2
    shogun = fight([veh("s", "shogun", speed=20), veh("t", x=40)]).arena.vehicles["s"]
    shogun.substitute = "gunner"
    assert maneuver_difficulty(RULES, shogun, bend) == 3
    assert maneuver_difficulty(RULES, vehicle(speed=20, off_road=True), Maneuver("straight")) == 0


def test_fight_08_a_maneuvers_d_is_minus_d_to_fire_that_phase():
    """FIGHT-08 / CW-HIT-10: the hunter's driver brings his front gun round on a target 30 degrees to his right:
    he bends right 15 (D1) in phase 1 and fires that phase at -1 ("maneuver or hazard D1 this phase"); the target,
    parked, gives +1; its driver holds his course."""
    s = fight([veh("a", speed=10, suspension="light"), veh("b", x=3.0, y=5.2, facing=0.0)],
              orders=[{"unit": "a", "target": "b"}], drive=[{"unit": "a", "tactic": "bring_to_bear", "speed": 10}], turns=1)
    r = s.resolve(SeededDice(3))
    steer = [str(e) for e in r.events if "(FIGHT-08)" in str(e) and "bend" in str(e)]
    assert steer and steer[0].startswith("a bend right")
    b = next(b for p in r.phases for b in p.breakdowns if b.attacker == "a")
    d = int(steer[0].split("(D")[1].split(")")[0])
    assert any(m.rule == "CW-HIT-10" and m.value == -d for m in b.modifiers)


# --- FIGHT-09: handling and control ------------------------------------------------------------------------------

def test_fight_09_handling_class_from_body_suspension_reflexes_and_terrain():
    """FIGHT-09 (handling.toml): a compact on light suspension HC 1; heavy +2 (the hunter: 3); the driver's reflex
    bonus +1 while he is conscious (lost unconscious, CW-CREW-02); off-road a car -3 without an off-road suspension
    (CW-OFF-01, the seed), which instead gives its +1: 1 + 1 = 2; a cycle on heavy suspension 0 + 2 = 2, off-road 0."""
    def hc(rules, v):
        return handling.handling_class(rules, v, 1)

    assert hc(RULES, vehicle(suspension="light")) == 1
    hunter = vehicle()
    assert hunter.suspension == "heavy" and hc(RULES, hunter) == 3
    hunter.driver.reflexes = 1
    assert hc(RULES, hunter) == 4
    hunter.driver.hits = 2
    assert hc(RULES, hunter) == 3
    assert hc(RULES, vehicle(off_road=True)) == 0
    assert hc(RULES, vehicle(suspension="light", off_road=True, off_road_suspension=True)) == 2
    razor = vehicle(design="razor")
    assert hc(RULES, razor) == 2
    razor.off_road = True
    assert hc(RULES, razor) == 0


def test_fight_09_control_table_lookups_and_risk():
    """FIGHT-09: the Control Table: under 5 mph no roll; 40 mph at status -3 safe, -4 a 2, -6 a 4; 100 mph at -6
    control is lost (XX); off the table's columns the nearest column. The chance of losing control: (need - 1)/6."""
    from fractions import Fraction

    need = handling.control_needed
    assert need(RULES, 4, -6) == 0 and need(RULES, 40, -3) == 0 and need(RULES, 40, -4) == 2 and need(RULES, 40, -6) == 4
    assert need(RULES, 100, -6) == 7 and need(RULES, 300, 9) == 0 and need(RULES, 15, -9) == 3
    assert handling.control_lost_chance(RULES, 40, -6) == Fraction(1, 2)
    assert handling.control_lost_chance(RULES, 100, -6) == 1 and handling.control_lost_chance(RULES, 20, 0) == 0


def test_fight_09_status_falls_by_d_and_recovers_by_hc_each_turn():
    """FIGHT-09: a hunter (HC 3) at 40 mph: a D4 maneuver takes its status from 3 to -1 (safe, no roll); two D5 more
    take it to -6, never lower (the floor), with a roll each (needs 4 at -6); at the turn's end it recovers by its
    HC: -6 + 3 = -3, then 0, then 3, never above."""
    v = vehicle(speed=40)
    handling.start_handling(RULES, v, 1)
    lost, events = handling.control_check(RULES, v, 4, "test", NoDice())
    assert not lost and v.handling_status == -1
    lost, events = handling.control_check(RULES, v, 5, "test", ScriptedDice([4]))
    assert not lost and v.handling_status == -6
    lost, events = handling.control_check(RULES, v, 5, "test", ScriptedDice([3]))
    assert lost and v.handling_status == -6
    for expected in (-3, 0, 3, 3):
        handling.recover_status(RULES, v, 1)
        assert v.handling_status == expected


def _bend_fight(speed=40, status=None, **vkw):
    """A hunter bringing its gun round on a parked car behind it to the right: its driver bends (FIGHT-07)."""
    s = fight([veh("a", speed=speed, **vkw), veh("b", x=6.0, y=-3.0, facing=90.0)], orders=[{"unit": "a", "target": "b"}],
              drive=[{"unit": "a", "tactic": "bring_to_bear", "speed": speed}], turns=1)
    return s


def test_fight_09_control_lost_on_a_maneuver_a_skid_that_acts():
    """FIGHT-09: a hunter at 40 mph, status -1, bends 45 (D3): status -4, the 35-40 row needs a 2; the die shows 1:
    control lost. Crash Table 1: 2d6 (1 + 2) + the row's 0 + (D3 - 3) = 3: a minor skid: 5 mph lost at once, -6 to
    fire for the rest of the turn (CW-HIT-10), and its next move slides 1/2" the way it was going before the bend."""
    from hardpoint.carwars.crashes import lose_control

    arena = fight([veh("v", speed=40), veh("t", x=40)]).arena
    v = arena.vehicles["v"]
    v.handling_status = -1
    lost, events = handling.control_check(RULES, v, 3, "bend right 45", ScriptedDice([1]))
    assert lost and v.handling_status == -4
    events = lose_control(RULES, arena, v, 1, 3, 0.0, ScriptedDice([1, 2]))
    assert any(str(e).startswith("v: Crash Table 1: 3 +0 = 3: minor skid") for e in events)
    assert v.speed == 35 and v.handling == "minor_skid" and v.skids == (("minor skid", 0.0),)
    tohit = RULES["carwars.tohit"]["handling"]["minor_skid"]
    assert tohit == -6


def test_fight_09_the_driver_loses_control_in_a_fight():
    """FIGHT-09 end to end: a hunter turning its gun onto a car behind it to the right, every control roll of its
    driver forced to 1 and Crash Table 1 to 6 + 6: a control roll is made after its first maneuver that needs one,
    control is lost, and the Crash Table result acts (the car stops firing aimed weapons that turn, or takes the
    skid's penalty)."""
    s = _bend_fight(40)
    s.arena.vehicles["a"].handling_status = None
    rigged = RiggedDice(SeededDice(1), {"a: control roll": [1] * 20, "a: Crash Table 1": [6, 6] * 10})
    r = s.resolve(rigged)
    texts = [str(e) for e in r.events]
    assert any(t.startswith("a: control lost") for t in texts), texts
    assert any(t.startswith("a: Crash Table 1:") for t in texts)
    assert any("no aimed fire" in t for t in texts)


def test_fight_09_a_skid_moves_the_counter_the_way_it_was_going():
    """FIGHT-09: a minor skid (effect: skid 1/2", slow 5) given to a hunter going north at 20 mph, whose driver
    had bent 45 right: its next move (1" in phase 1 of turn 2... here phase 3 of the movement chart at 20 mph)
    slides 1/2" north, facing kept, then 1/2" on along its facing."""
    from hardpoint.carwars.crashes import apply_result, crash_move

    v = vehicle(speed=20)
    v.facing = 45.0
    apply_result(RULES, fight([veh("v"), veh("t", x=40)]).arena, v, "minor skid", 3, 0.0, ScriptedDice([]))
    assert v.speed == 15 and v.handling == "minor_skid" and v.skids == (("minor skid", 0.0),)
    move = crash_move(RULES, v, 1.0)
    r = math.sqrt(0.5)
    assert (round(move.dx, 9), round(move.dy, 9)) == (round(0.5 * r, 9), round(0.5 + 0.5 * r, 9)) and move.angle == 0.0


def test_fight_09_a_roll_damages_each_side_it_lands_on():
    """FIGHT-09: a roll (Crash Table 1, 11-12): it turns sideways (a die: 4 = right) and each phase it moves goes 1"
    the way it was going and lands on its next side: right, then top, left, underbody (its tires 1d each); each side
    it lands on takes 1d as a collision (CW-COL-01: the hunter's 15 right armour takes the 4); off-road 1d-2 (the
    seed). It stops when 20 mph a turn bring it to 0: out of action, crashed (FIGHT-03)."""
    from hardpoint.carwars.crashes import after_crash_move, apply_result, crash_move, end_of_turn

    arena = fight([veh("v", speed=20), veh("t", x=40)]).arena
    v = arena.vehicles["v"]
    apply_result(RULES, arena, v, "roll", 6, 0.0, ScriptedDice([4]))
    assert v.crash_motion.kind == "roll" and v.crash_motion.sides == ("right", "top", "left", "underbody")
    assert crash_move(RULES, v, 1.0).dy == 1.0
    events = after_crash_move(RULES, arena, v, ScriptedDice([4]))
    assert v.rolled_onto is not None and str(v.rolled_onto) == "right" and v.armour[v.rolled_onto] == 15 - 4
    assert any("rolls onto its right" in str(e) for e in events)
    off = fight([veh("w", speed=20, off_road=True), veh("t", x=40)]).arena
    w = off.vehicles["w"]
    apply_result(RULES, off, w, "roll", 6, 0.0, ScriptedDice([6]))
    after_crash_move(RULES, off, w, ScriptedDice([4]))
    assert w.armour[w.rolled_onto] == 15 - 2            # 1d-2 off-road: 4 - 2
    end_of_turn(RULES, v)
    assert v.speed == 0 and v.crash_motion is None
    assert out_of_action(RULES, arena, "v") == "crashed (roll)"


def test_fight_09_a_burning_roll_sets_the_vehicle_on_fire_on_4_to_6():
    """FIGHT-09: "roll, burning on 4-6": after the roll's side die, one die: 4-6 it burns (CW-FIRE-03), 1-3 not."""
    from hardpoint.carwars.crashes import apply_result

    for face, burns in ((4, True), (3, False)):
        arena = fight([veh("v", speed=40), veh("t", x=40)]).arena
        apply_result(RULES, arena, arena.vehicles["v"], "roll, burning on 4-6", 6, 0.0, ScriptedDice([1, face]))
        assert bool(arena.fires.get("v") and arena.fires["v"].burning) is burns


def test_fight_09_control_lost_on_a_hazard_a_fishtail():
    """FIGHT-09: a hazard (the hits of a phase, CW-DMG-01) lost: Crash Table 2; a minor fishtail: the back swings
    15 degrees the way a die says (2: left), about the front-right corner: the counter turns 15 degrees right, the
    corner staying put; -3 to fire for the rest of the turn."""
    from hardpoint.carwars.crashes import apply_result

    arena = fight([veh("v", speed=40), veh("t", x=40)]).arena
    v = arena.vehicles["v"]
    corner = v.counter.to_world((0.25, 0.5))
    apply_result(RULES, arena, v, "minor fishtail", 2, 0.0, ScriptedDice([2]))
    assert v.facing == 15.0 and v.handling == "minor_fishtail"
    after = v.counter.to_world((0.25, 0.5))
    assert round(after[0] - corner[0], 9) == 0 and round(after[1] - corner[1], 9) == 0


def test_fight_09_switched_off_nothing_is_rolled():
    """FIGHT-09: `enabled = false` (a house rule): maneuvers still lower the status, but nothing is rolled and
    control is never lost."""
    off = hardpoint.load_rules({"carwars": {"handling": {"enabled": False}}})
    v = vehicle(speed=100)
    handling.start_handling(off, v, 1)
    lost, _ = handling.control_check(off, v, 9, "test", NoDice())
    assert not lost and v.handling_status == -6


# --- FIGHT-07: the standing driver ------------------------------------------------------------------------------

def test_fight_07_the_standing_driver_rolls_no_dice_and_decides_alike():
    """FIGHT-07: the driver's speed and maneuver come from the state alone: planning a whole phase's moves for both
    cars draws no die, and the same state gives the same plan."""
    from hardpoint.carwars.drive_phase import plan_moves

    s = fight([veh("a", speed=30), veh("b", x=5, y=6, facing=200, speed=30)],
              drive=[{"unit": "a", "tactic": "bring_to_bear"}, {"unit": "b", "tactic": "pursue"}])
    arena = s.arena.copy()
    from hardpoint.carwars.drive_phase import start_fight

    start_fight(RULES, s.fight, arena)
    first, _ = plan_moves(RULES, s.fight, arena, 1, {})
    second, _ = plan_moves(RULES, s.fight, arena.copy(), 1, {})
    assert first.maneuvers.keys() == second.maneuvers.keys()
    assert [m for m, _ in first.maneuvers.values()] == [m for m, _ in second.maneuvers.values()]


def test_fight_07_speed_within_acceleration_and_braking():
    """FIGHT-07/08: from 0 mph the driver of a hunter (10 mph a turn) pursuing at 40 goes to 10 this turn; from 60
    he brakes only 10 (safe braking): 50; hold_course keeps the speed. Bringing weapons to bear on a parked car 8"
    ahead (7" counter to counter, in his arc), he goes no faster than he can stop by braking safely within the 6.5"
    to his 1/2" standoff: 30 mph (3" + 2" + 1"; 35 would take 8"), so 10 from 0; within 2" of a moving target
    (half the room, 0.75") he may go 5 (1/2")."""
    s = fight([veh("a"), veh("b", x=0, y=8, facing=180)], drive=[{"unit": "a", "tactic": "pursue"}])
    a, b = s.arena.vehicles["a"], s.arena.vehicles["b"]
    order = s.fight.drive_of("a")
    assert choose_speed(RULES, s.arena, a, order, b) == 10
    a.speed = 60
    assert choose_speed(RULES, s.arena, a, order, b) == 50
    hold = driving.DriveOrder("h", "a", "hold_course")
    assert choose_speed(RULES, s.arena, a, hold, b) == 60
    a.speed = 0
    btb = driving.DriveOrder("x", "a", "bring_to_bear")
    assert driving._stopping_speed(RULES, 6.5) == 30 and driving._stopping_speed(RULES, 7.9) == 30
    assert choose_speed(RULES, s.arena, a, btb, b) == 10
    b.y, b.speed = 3.0, 20
    assert driving._stopping_speed(RULES, 0.75) == 5 and choose_speed(RULES, s.arena, a, btb, b) == 5


def test_fight_07_tactics_steer_as_they_say():
    """FIGHT-07: a target ahead and to the right: pursue bends right toward it; evade turns away (left) to open the
    range; keep_range at 10" from 4" away does not close; hold_course goes straight; with no enemy in action the
    driver goes straight."""
    def first_move(tactic, **kw):
        s = fight([veh("a", speed=20), veh("b", x=3, y=3, facing=0)], drive=[{"unit": "a", "tactic": tactic, **kw}])
        a = s.arena.vehicles["a"]
        a.handling_status = 3
        return choose_maneuver(RULES, s.arena, a, s.fight.drive_of("a"), s.arena.vehicles["b"], 1.0)

    assert first_move("pursue").angle > 0 and first_move("pursue").kind in ("bend", "swerve")
    assert first_move("evade").angle < 0 or first_move("evade").lateral < 0
    assert first_move("hold_course").kind == "straight"
    s = fight([veh("a", speed=20), veh("b", x=3, y=3)], drive=[{"unit": "a", "tactic": "pursue"}])
    assert choose_maneuver(RULES, s.arena, s.arena.vehicles["a"], s.fight.drive_of("a"), None, 1.0).kind == "straight"


def test_fight_07_the_driver_keeps_within_his_risk_and_clear_of_a_ram():
    """FIGHT-07: at 50 mph and status -3 (45-50 row: -3 needs a 2) the driver with max_control_roll 2 may still
    drift (D1 to -4 needs a 3: no), so he goes straight; and a car parked 1.2" ahead (its back to him) is never
    driven into while a drift clears it."""
    s = fight([veh("a", speed=50), veh("b", x=3, y=3)], drive=[{"unit": "a", "tactic": "pursue"}])
    a = s.arena.vehicles["a"]
    a.handling_status = -3
    m = choose_maneuver(RULES, s.arena, a, s.fight.drive_of("a"), s.arena.vehicles["b"], 1.0)
    assert m.kind == "straight"
    s2 = fight([veh("a", speed=10), veh("b", x=0, y=1.7)], drive=[{"unit": "a", "tactic": "pursue"}])
    a2 = s2.arena.vehicles["a"]
    a2.handling_status = 3
    m2 = choose_maneuver(RULES, s2.arena, a2, s2.fight.drive_of("a"), s2.arena.vehicles["b"], 1.0)
    assert m2.kind != "straight"
    assert not driving.blocked(s2.arena, a2, end_counter(a2, maneuver_move(RULES, a2, m2, 1.0)), RULES, 1)


def test_fight_07_movement_orders_are_checked_on_load():
    """FIGHT-07 (SAFE-01): a movement order names a vehicle, once; keep_range needs its range; the target is a unit
    or nearest_enemy; every error names the field, before anything runs."""
    bad = [({"unit": "zz"}, "drive[0].unit"), ({"unit": "a", "tactic": "keep_range"}, "drive[0].range"),
           ({"unit": "a", "target": "a"}, "drive[0].target"), ({"unit": "a", "tactic": "zigzag"}, "drive[0].tactic")]
    for order, field in bad:
        with pytest.raises(hardpoint.HardpointError) as e:
            fight([veh("a"), veh("b", x=4)], drive=[order])
        assert e.value.field == field
    with pytest.raises(hardpoint.HardpointError) as e:
        fight([veh("a"), veh("b", x=4)], drive=[{"unit": "a"}, {"unit": "a"}])
    assert e.value.field == "drive[1].unit"


# --- FIGHT-10: standing orders that fight sensibly ----------------------------------------------------------------

def test_fight_10_min_odds_holds_fire_that_wastes_ammunition():
    """FIGHT-10: the stinger's rocket launcher (to-hit 8, 10 rockets) 16" (front to front) from a parked hunter needs
    8 + 4 (range) + 2 (a compact from the front) - 1 - 1 (both still) = 12: a 1-in-36 shot, under min_odds (0.08): it
    holds fire. With the order's min_odds at 0 it fires. A laser (no ammunition) fires at any odds it can hit."""
    base = [veh("s", "stinger", facing=0), veh("h", x=0, y=17, facing=180)]
    s = fight(base, orders=[{"unit": "s", "target": "h"}], turns=1)
    assert not [p for p in s.resolve(SeededDice(1)).phases if p.rolls]
    t = fight(base, orders=[{"unit": "s", "target": "h", "min_odds": 0}], turns=1)
    rolled = [b for p in t.resolve(SeededDice(1)).phases for b in p.breakdowns]
    assert rolled and rolled[0].needed == 12
    laser = fight([veh("g", "shogun"), veh("h", x=0, y=33, facing=180)], orders=[{"unit": "g", "target": "h", "weapons": ["laser"]}], turns=1)
    fired = [b for p in laser.resolve(SeededDice(1)).phases for b in p.breakdowns]
    assert fired and fired[0].probability < 0.08


def test_fight_10_drops_on_order_when_followed():
    """FIGHT-10: the hunter's order names its minedropper: with an enemy in its back arc 5" away (within 6) it drops
    mines in phase 1 (a counter behind it), its driver's firing action (CW-ROF-01); with the enemy ahead, never."""
    chase = fight([veh("h", y=5, speed=0), veh("e", y=0, speed=0)], orders=[{"unit": "h", "weapons": ["mg", "md"]}], turns=1)
    r = chase.resolve(SeededDice(2))
    drops = [str(e) for e in r.events if str(e).startswith("h drops Minedropper")]
    assert drops == ["h drops Minedropper (md.t1p1) at (0.00, 4.75) (CW-DROP-01)"]
    assert not [b for p in r.phases for b in p.breakdowns if b.attacker == "h"]      # the driver's action is spent
    ahead = fight([veh("h", speed=0), veh("e", y=5, facing=180, speed=0)], orders=[{"unit": "h", "weapons": ["mg", "md"]}], turns=1)
    r2 = ahead.resolve(SeededDice(2))
    assert not any(str(e).startswith("h drops") for e in r2.events)
    assert "h" in [b.attacker for p in r2.phases for b in p.breakdowns]          # it fires its MG instead


def test_fight_10_out_of_action_counts_only_what_the_orders_use():
    """FIGHT-10: a hunter whose MG is destroyed is out (no weapon) when its order fires the MG only: its minedropper,
    which no order drops, does not keep it in action; an order that drops it does."""
    s = fight([veh("h"), veh("e", x=5)], orders=[{"unit": "h"}])
    s.arena.vehicles["h"].weapon("mg").dp = 0
    assert out_of_action(RULES, s.arena, "h", s.fight) == "no weapon can still fire"
    t = fight([veh("h"), veh("e", x=5)], orders=[{"unit": "h", "weapons": ["mg", "md"]}])
    t.arena.vehicles["h"].weapon("mg").dp = 0
    assert out_of_action(RULES, t.arena, "h", t.fight) is None
    assert out_of_action(RULES, s.arena, "h") is None                   # no fight given: every weapon counts


def _substitute_fight(y: float, facing: float):
    """The shogun's driver dead at the start, its front-seat gunner at the controls, 20 mph, the hunter `y` inches
    north; orders (fire and drive) use the shogun's front MG only."""
    return fight([veh("s", "shogun", speed=20, crew=[{"id": "driver", "role": "driver", "seat": "front_left", "hits": 3},
                                                     {"id": "gunner", "role": "gunner", "seat": "front_right"}]),
                  veh("h", x=0, y=y, facing=facing)],
                 orders=[{"unit": "s", "target": "h", "min_odds": 0, "weapons": ["mg"]}],
                 drive=[{"unit": "s", "tactic": "bring_to_bear", "weapons": ["mg"]}], turns=3)


def _substitute_turns(r) -> tuple[list[str], list[int]]:
    notes = [str(e) for e in r.events if "FIGHT-10" in str(e) and (" drives s " in str(e) or " fires from s " in str(e))]
    fired = sorted({int(b.attack.split("/t")[1].split("p")[0]) for p in r.phases for b in p.breakdowns if b.attacker == "s"})
    return notes, fired


def test_fight_10_a_substitute_fires_when_a_weapon_bears_and_nobody_steers():
    """FIGHT-10 / CW-CREW-04: the hunter 12" dead ahead of the shogun's MG: each turn the gunner at the controls
    fires (turn 1 on), and nobody steers: the car goes straight, losing the uncontrolled 5 mph a turn."""
    s = _substitute_fight(12.0, 180.0)
    r = s.resolve(SeededDice(4))
    notes, fired = _substitute_turns(r)
    assert notes == ["gunner fires from s this turn: nobody steers it (FIGHT-10)"] * 3
    assert fired and fired[0] == 1
    speeds = [(e.before, e.after) for e in r.events if getattr(e, "subject", None) == "s" and getattr(e, "field", None) == "speed"]
    assert speeds[:3] == [(20, 15), (15, 10), (10, 5)]
    assert not any("s pivot" in str(e) or "s bend" in str(e) or "s swerve" in str(e) for e in r.events)


def test_fight_10_a_substitute_drives_when_nothing_bears_and_then_does_not_fire():
    """FIGHT-10 / CW-CREW-04: the hunter 12" behind the shogun's front MG: the gunner drives (turns 1 and 2) and
    fires nothing then; he brakes as the standing driver would (20 to 5: 15 mph, a D1 hazard) and pivots, each
    pivot D0 + the substitute's D2; once the MG bears (turn 3) he fires and steers no more."""
    s = _substitute_fight(-12.0, 0.0)
    r = s.resolve(SeededDice(4))
    notes, fired = _substitute_turns(r)
    assert notes == ["gunner drives s this turn, so does not fire (FIGHT-10)"] * 2 + \
        ["gunner fires from s this turn: nobody steers it (FIGHT-10)"]
    assert fired == [3]
    text = [str(e) for e in r.events]
    assert "s pivot left 90 (D2) (FIGHT-08)" in text
    changes = [(e.field, e.before, e.after) for e in r.events if getattr(e, "subject", None) == "s" and hasattr(e, "field")]
    at = changes.index(("speed", 20, 5))                       # safe at 20 mph: the D1 only lowers the status
    assert changes[at - 1][0] == "handling status" and changes[at - 1][1] - changes[at - 1][2] == 1


def test_fight_08_braking_harder_than_safe_is_a_hazard_within_the_drivers_risk():
    """FIGHT-08/09: a hunter at 60 mph, its target 20" behind (it wants the turning speed, 5): at status 3 it may
    brake 30 mph (D5: status -2, the Control Table's 55-60 row needs 2, within max_control_roll 2) but not 35 (D7:
    status -4 needs 4). It brakes 60 to 30; the control roll at 60 needs 2: a 2 keeps control; a 1 loses it, Crash
    Table 2 at +D5, the result acting at 30 mph."""
    from hardpoint.carwars import drive_phase

    for script, lost in (([2], False), ([1, 3, 3, 1], True)):
        s = fight([veh("h", speed=60), veh("t", x=0, y=-20, facing=0)], drive=[{"unit": "h", "tactic": "bring_to_bear"}])
        drive_phase.start_fight(s.rules, s.fight, s.arena)
        h = s.arena.vehicles["h"]
        assert driving.braking_limit(s.rules, h) == 30.0
        assert [driving.braking_difficulty(s.rules, m) for m in (10, 15, 30, 35)] == [0, 1, 5, 7]
        s.arena.turn = 1
        text = [str(e) for e in drive_phase.start_of_turn(s.rules, s.fight, s.arena, {}, ScriptedDice(list(script)))]
        assert "roll 1d for h: control roll after braking 30 mph (needs 2): " + f"[{script[0]}] = {script[0]} (FIGHT-09)" in text
        assert h.speed == 30.0 and h.handling_status == -2
        assert any("Crash Table 2" in t for t in text) is lost
        assert (h.crash is not None) is lost


def test_fight_07_a_weapon_bears_only_as_an_attack_would_judge_it_and_only_manned():
    """FIGHT-07 (CW-ARC-02, CW-CREW-01): two outriders beside each other, A facing north at (-0.5, 4), B facing south
    at (0.5, 4.5), 0.5" apart: B's sidecar gun's front arc only touches A (no attack could be made), so nothing of
    B's bears; A dead ahead of a hunter's machine gun bears while its driver can act, and not once he is down."""
    s = fight([veh("a", "outrider", x=-0.5, y=4.0), veh("b", "outrider", x=0.5, y=4.5, facing=180.0)],
              drive=[{"unit": "a", "tactic": "bring_to_bear"}, {"unit": "b", "tactic": "bring_to_bear"}])
    a, b = s.arena.vehicles["a"], s.arena.vehicles["b"]
    assert driving._bearing(RULES, b, s.fight.drive_of("b"), b.counter, a)[0] == 0
    s2 = fight([veh("h"), veh("t", x=0.0, y=6.0, facing=180.0)], drive=[{"unit": "h", "tactic": "bring_to_bear"}])
    h, t = s2.arena.vehicles["h"], s2.arena.vehicles["t"]
    assert driving._bearing(RULES, h, s2.fight.drive_of("h"), h.counter, t)[0] == 1
    h.driver.hits = 2
    assert driving._bearing(RULES, h, s2.fight.drive_of("h"), h.counter, t)[0] == 0


def test_fight_07_touching_stops_a_driver_only_when_going_straight_drives_him_into_it():
    """FIGHT-07: a car touching another nose to tail would drive into it and stops; one side by side with it, edge
    to edge and facing the same way, may drive on along it."""
    nose = fight([veh("a"), veh("b", y=1.0)], drive=[{"unit": "a", "tactic": "pursue"}])
    a = nose.arena.vehicles["a"]
    assert driving._pushing(RULES, nose.arena, a, 20.0)
    side = fight([veh("a"), veh("b", x=0.5)], drive=[{"unit": "a", "tactic": "pursue"}])
    a = side.arena.vehicles["a"]
    assert driving.touching(a.counter.corners(), side.arena.vehicles["b"].counter.corners())
    assert not driving._pushing(RULES, side.arena, a, 20.0)


def test_fight_07_speeds_are_decided_all_at_once():
    """FIGHT-07: two cars pursuing each other, 0.25" apart (within the standoff), A at 20 mph and B at 10: each wants
    the other's speed as the turn starts, so A slows to 10 and B speeds to 20; neither sees the other's new speed
    (one after the other, B would keep A's new 10)."""
    from hardpoint.carwars import drive_phase

    s = fight([veh("a", speed=20), veh("b", x=0.0, y=1.25, speed=10)],
              drive=[{"unit": "a", "tactic": "pursue"}, {"unit": "b", "tactic": "pursue"}])
    drive_phase.start_fight(s.rules, s.fight, s.arena)
    s.arena.turn = 1
    drive_phase.start_of_turn(s.rules, s.fight, s.arena, {}, NoDice())
    assert (s.arena.vehicles["a"].speed, s.arena.vehicles["b"].speed) == (10.0, 20.0)


def test_fight_07_with_nothing_bearing_a_car_opens_the_range_first_a_cycle_does_not():
    """FIGHT-07 (`turning_room`, by body kind): two of a kind side by side facing opposite ways, 0.1" apart, at 5
    mph: nothing bears. A hunter wants its tactic's speed (30) to open the range, and scores an end pose by the gap
    it opens, up to 2", before its pointing error; an outrider (a cycle's room is 0) wants the turning speed (5)
    and scores no room at all."""
    for design, speed, room in (("hunter", 30.0, 2.0), ("outrider", 5.0, 0.0)):
        s = fight([veh("a", design, speed=5), veh("b", design, x=0.6, y=0.0, facing=180.0, speed=5)],
                  drive=[{"unit": "a", "tactic": "bring_to_bear"}, {"unit": "b", "tactic": "bring_to_bear"}])
        a, b = s.arena.vehicles["a"], s.arena.vehicles["b"]
        order = s.fight.drive_of("a")
        assert driving._bearing(RULES, a, order, a.counter, b)[0] == 0
        assert driving._desired_speed(RULES, a, order, b) == speed
        for dx in (-0.5, -3.0):                     # an end pose 0.6" or 3.1" off, nothing bearing from either
            cnt = Counter(a.x + dx, a.y, a.counter.length, a.counter.width, a.facing)
            apart = driving._grain(driving.gap(cnt, b.counter))
            assert driving._score(RULES, a, order, cnt, b)[1] == -min(apart, driving._grain(room))


def test_fight_07_the_ram_look_ahead_supposes_each_brakes_safely():
    """FIGHT-07: two hunters face to face 2" apart. At 10 mph each can brake to a stop by next turn (safe braking
    10): no collision course, so neither swerves short of the standoff. At 20 mph each still goes 10 (1" a turn):
    they would meet within the turn, a collision course."""
    for speed, course in ((10, False), (20, True)):
        s = fight([veh("a", speed=speed), veh("b", x=0.0, y=3.0, facing=180.0, speed=speed)])
        a = s.arena.vehicles["a"]
        assert driving.gap(a.counter, s.arena.vehicles["b"].counter) == 2.0
        assert driving.on_collision_course(RULES, s.arena, a, a.counter, 5) is course
