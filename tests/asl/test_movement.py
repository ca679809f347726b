"""D15.4: the motorcycle and bicycle movement ledger (ASL-MOV-01..06, ASL-BIC-01, ASL-BIC-02)."""
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardpoint import RuleViolation, ScenarioError, ScriptedDice
from hardpoint.asl.enums import Capacity, Ground, Hexside, MachineType, Motion, Phase
from hardpoint.asl.events import ManhandlingCheck, MoveStep, WreckCheck
from hardpoint.asl.motorcycles import (bog_check_required, deploy_squad, recombine_riders, recombine_unmounted, split_smc,
                                       wreck_check_required)
from hardpoint.asl.movement import Movement, MovementPhase
from hardpoint.asl.units import Hex, Situation

from .conftest import OPEN, START, R, board, build, cycle, road_board, unit

F = Fraction


def leader_and_cycle(rules, mp=28, **kw):
    return Situation((unit(rules, "leader", "8-0", hex=START),), (cycle(machines=1, hex=OPEN, mp=mp, **kw),))


def d15_41(rules, hexes=11, dice=None):
    m = Movement(rules, road_board(14), leader_and_cycle(rules), ("leader",), dice=dice)
    m.enter(OPEN)
    m.mount("cycle")
    m.start()
    for i in range(1, hexes + 1):
        m.ride(R(i))
    return m


def test_asl_mov_02_d15_41_example(rules):
    """ASL-MOV-02: open ground 1 MF; mount 1 MF + 7 MP of 28; 11 road hexes with Start and Stop = 7.5 MP = 2 MF;
    4 MF used: he cannot dismount, and the refusal leaves ledger and situation unchanged.

    Source: D15.41 example
    """
    m = d15_41(rules)
    m.stop()
    steps = [e for e in m.events if isinstance(e, MoveStep)]
    assert [s.action for s in steps] == ["enter", "mount", "start"] + ["ride"] * 11 + ["stop"]
    assert steps[0].mf == {"leader": 1} and steps[0].mf_used == {"leader": 1}
    assert steps[1].mf == {"leader": 1} and steps[1].mp == 7 and steps[1].mf_used == {"leader": 2}
    riding = [s.mp for s in steps[2:]]
    assert sum(riding) == F(15, 2)                                   # 7.5 MP riding: 1 + 11 x 1/2 + 1
    assert riding == [1] + [F(1, 2)] * 11 + [1]
    assert sum(sum(s.mf.values()) for s in steps[2:]) == 2           # two quarters of 28 MP: 2 MF
    assert m.mf_used("leader") == 4 and m.ledger.mp_used == F(29, 2)
    before = (m.ledger, m.situation, len(m.events))
    with pytest.raises(RuleViolation) as err:
        m.dismount()
    assert err.value.rule == "ASL-MOV-02" and "cannot dismount" in str(err.value)
    assert (m.ledger, m.situation, len(m.events)) == before
    assert m.situation.mount_of("leader").id == "cycle"


def test_asl_mov_02_ten_hexes_leave_one_mf_to_dismount(rules):
    """ASL-MOV-02: with 10 road hexes the riding is 7 MP, one quarter: 3 MF used, he can dismount (1 MF + 7 MP)."""
    m = d15_41(rules, hexes=10)
    m.stop()
    assert m.mf_used("leader") == 3
    m.dismount()
    assert m.mf_used("leader") == 4 and m.ledger.mp_used == 7 + 7 + 7
    assert m.situation.mount_of("leader") is None


def test_asl_mov_02_carried_no_farther_once_four_mf_are_gone(rules):
    """ASL-MOV-02 (SPEC ruling): once the 4 MF are gone he is carried no farther, even within a quarter paid for."""
    m = d15_41(rules, hexes=13)            # riding 1 + 6.5 = 7.5 MP: two quarters, 4 MF
    assert m.mf_used("leader") == 4 and m.ledger.mp_used == 7 + F(15, 2)
    before = m.ledger
    with pytest.raises(RuleViolation) as err:
        m.ride(R(14))                      # 8 MP would still be inside the second quarter
    assert err.value.rule == "ASL-MOV-02" and "no farther" in str(err.value) and m.ledger == before
    m.stop()                               # stopping moves him nowhere: 8.5 MP, still two quarters
    with pytest.raises(RuleViolation):
        m.dismount()


def test_asl_mov_02_quarter_rounds_up_and_mount_needs_a_basic_mf(rules):
    """ASL-MOV-02: a 30 MP allotment has 7.5-MP quarters (FRU); mounting takes 1 MF of the basic four."""
    sit = leader_and_cycle(rules, mp=30)
    m = Movement(rules, road_board(14), sit, ("leader",))
    m.enter(OPEN)
    m.mount("cycle")
    assert m.ledger.mp_used == F(15, 2)
    m.start()                               # 1 MP: the first quarter: 1 MF
    assert m.mf_used("leader") == 3
    for i in range(1, 14):                  # 1 + 6.5 = 7.5 MP: still one quarter
        m.ride(R(i))
    assert m.mf_used("leader") == 3
    # A leader who has walked 4 MF (of his 6) cannot mount: the mount takes one of his basic four.
    tired = Movement(rules, road_board(), Situation((unit(rules, "leader", "8-0", hex=OPEN),), sit.machines), ("leader",),
                     spent={"leader": 4})
    with pytest.raises(RuleViolation) as err:
        tired.mount("cycle")
    assert err.value.rule == "ASL-MOV-02"


def test_asl_mov_02_mp_allotment_is_a_hard_limit(rules):
    """ASL-MOV-02: the motorcycle's MP allotment: a mount needing more MP than are left is refused."""
    sit = Situation((unit(rules, "leader", "8-0", hex=OPEN),), (cycle(machines=1, hex=OPEN, mp=8),))
    m = Movement(rules, road_board(), sit, ("leader",), mp_used=F(7))
    with pytest.raises(RuleViolation) as err:
        m.mount("cycle")
    assert err.value.rule == "ASL-MOV-02" and "MP left" in str(err.value)


def test_asl_mov_02_road_cost_is_data_and_other_terrain_is_never_invented(rules):
    """ASL-MOV-02: the road's 1/2 MP is data (overridable); a terrain the seeds do not price is an error."""
    house = rules.with_overrides({"asl": {"motorcycles": {"terrain_mp": {"road": 1}}}})
    m = Movement(house, road_board(), Situation((unit(house, "leader", "8-0", hex=OPEN),), (cycle(machines=1, hex=OPEN),)),
                 ("leader",))
    m.mount("cycle")
    m.start()
    m.ride(R(1))
    assert m.ledger.mp_used == 7 + 1 + 1
    b = board(Hex(OPEN, road="paved"), Hex("D5", terrain="D5"), Hex("D4", terrain="D4", motorcycle_mp=F(3, 2)))
    m = Movement(rules, b, Situation((unit(rules, "leader", "8-0", hex=OPEN),), (cycle(machines=1, hex=OPEN),)), ("leader",))
    m.mount("cycle")
    m.start()
    with pytest.raises(ScenarioError) as err:
        m.ride("D5")
    assert err.value.rule == "ASL-MOV-02" and err.value.field == "hex.motorcycle_mp"
    m.ride("D4")                          # the hex's own figure
    assert m.ledger.mp_used == 7 + 1 + F(3, 2)


# --- one Movement Phase (ASL-MOV-02) -------------------------------------------------------------

def test_asl_mov_02_d15_41_example_as_one_movement_phase_on_the_board(rules):
    """ASL-MOV-02, ASL-MOV-03: the D15.41 example as the leader's Movement Phase on a geomorphic board. He walks from B5
    into C5 (Open Ground with the road: 1 MF), mounts the cycle there (1 MF and 7 MP of 28), Starts (1 MP), rides the 11
    road hexes D5 to N5 (each across the ne or se hexside, both beside his VCA ne/se: no VCA change; 11 x 1/2 = 5.5 MP)
    and Stops (1 MP). Riding 1 + 5.5 + 1 = 7.5 MP: two quarters of 28 (FRU), 2 MF; 1 + 1 + 2 = 4 MF: no dismount. The
    phase ends; its record holds his move and the cycle's 14.5 MP; he moves no more in it.
    Source: D15.41 example
    """
    mph = MovementPhase(rules, road_board(11), leader_and_cycle(rules))
    m = mph.move(("leader",), "leader_rides")
    m.enter(OPEN)
    m.mount("cycle")
    m.start()
    for i in range(1, 12):
        m.ride(R(i))
    m.stop()
    steps = [e for e in m.events if isinstance(e, MoveStep)]
    assert [s.hex for s in steps] == ["C5", "C5", "C5", "D5", "E5", "F5", "G5", "H5", "I5", "J5", "K5", "L5", "M5", "N5", "N5"]
    assert [s.action for s in steps] == ["enter", "mount", "start"] + ["ride"] * 11 + ["stop"]       # no change_vca
    assert {s.vca for s in steps[1:]} == {"ne/se"}
    assert sum(s.mp for s in steps[2:]) == F(15, 2) and sum(sum(s.mf.values()) for s in steps[2:]) == 2
    assert m.mf_used("leader") == 4 and m.ledger.mp_used == F(29, 2)
    before = (m.ledger, mph.situation, mph.record)
    with pytest.raises(RuleViolation) as err:
        m.dismount()
    assert err.value.rule == "ASL-MOV-02" and "cannot dismount" in str(err.value)
    assert (m.ledger, mph.situation, mph.record) == before
    mph.end()
    rec = mph.record
    assert (rec.moved, rec.machines, rec.machine_mp, rec.moves, rec.ended) == (
        frozenset({"leader"}), frozenset({"cycle"}), (("cycle", F(29, 2)),), ("leader_rides",), True)
    assert mph.situation.machine("cycle").motion is Motion.STOPPED and mph.situation.unit("leader").hex == "N5"
    with pytest.raises(RuleViolation) as err:
        mph.move(("leader",))
    assert err.value.rule == "ASL-MOV-02" and "over" in str(err.value)


def test_asl_mov_02_a_unit_moves_once_per_phase(rules):
    """ASL-MOV-02 (D15.41 counts "that MPh"; the ASL sequence): the leader walks B5-C5-D5-E5-F5, 4 of his 6 MF; once
    the squad has moved he may not move again: a second move for him is refused naming the field, the value and the
    rule, and the phase is unchanged (the old engine accepted it: 8 MF in one MPh). A scenario declaring two moves for
    him fails on load.
    Source: D15.41 ("during that MPh")
    """
    sit = Situation((unit(rules, "leader", "8-0", hex=START), unit(rules, "sq", "4-6-7", hex=START)))
    mph = MovementPhase(rules, road_board(), sit)
    m = mph.move(("leader",))
    for h in (OPEN, R(1), R(2), R(3)):
        m.enter(h)
    assert m.ledger.rider("leader").spent == 4
    mph.move(("sq",)).enter(OPEN)
    before = (mph.record, mph.situation)
    with pytest.raises(RuleViolation) as err:
        mph.move(("leader",))
    assert (err.value.field, err.value.value, err.value.rule) == ("move.units", "leader", "ASL-MOV-02")
    assert (mph.record, mph.situation) == before and mph.record.moved == {"leader", "sq"}
    twice = [{"id": f"walk{i}", "units": ["leader"], "steps": [{"action": "enter", "hex": h}]} for i, h in ((1, "C5"), (2, "D5"))]
    with pytest.raises(RuleViolation) as err:
        build(hex=[{"id": "B5"}, {"id": "C5"}, {"id": "D5"}], unit=[{"id": "leader", "counter": "8-0", "hex": "B5"}], move=twice)
    assert (err.value.field, err.value.value, err.value.rule) == ("move.units", "leader", "ASL-MOV-02")


def test_asl_mov_02_a_machine_spends_its_mp_once_per_phase(rules):
    """ASL-MOV-02: a machine's MP allotment is spent once per MPh. Leader a mounts the 28-MP cycle (1 MF, 7 MP), Starts
    (1), rides 12 road hexes (6), Stops (1) and dismounts (1 MF, 7 MP): riding 8 MP is two quarters, 2 MF; 4 MF, 22 MP.
    Leader b, waiting in O5, may not mount it again in this MPh (the old engine gave him a fresh 28 MP: 44 MP from one
    cycle); nor may one rider move a counter without the others.
    Source: D15.41
    """
    sit = Situation((unit(rules, "a", "8-0", hex=OPEN), unit(rules, "b", "9-1", hex=R(12))), (cycle(machines=1, hex=OPEN),))
    mph = MovementPhase(rules, road_board(14), sit)
    m = mph.move(("a",))
    m.mount("cycle")
    m.start()
    for i in range(1, 13):
        m.ride(R(i))
    m.stop()
    m.dismount()
    assert m.mf_used("a") == 4 and m.ledger.mp_used == 22 and m.situation.machine("cycle").hex == R(12) == "O5"
    second = mph.move(("b",))
    before = (second.ledger, mph.situation)
    with pytest.raises(RuleViolation) as err:
        second.mount("cycle")
    assert (err.value.field, err.value.value, err.value.rule) == ("move.mount", "cycle", "ASL-MOV-02")
    assert "22 MP" in str(err.value) and (second.ledger, mph.situation) == before
    assert mph.record.mp_of("cycle") == 22
    pair = Situation((unit(rules, "a", "8-0", hex=OPEN), unit(rules, "b", "9-1", hex=OPEN)), (cycle(machines=1, hex=OPEN, riders=["a", "b"]),))
    with pytest.raises(RuleViolation) as err:
        MovementPhase(rules, road_board(), pair).move(("a",))
    assert err.value.rule == "ASL-MOV-02" and "every rider" in str(err.value)


def test_asl_mov_02_a_move_is_over_once_another_begins(rules):
    """ASL-MOV-02: once another unit starts moving, a move is over: a further step of it is refused and changes nothing;
    a new move the phase refuses changes nothing either, and the move in progress goes on.
    Source: D15.41 (the MPh as one sequence of moves)
    """
    sit = Situation((unit(rules, "a", "8-0", hex=START), unit(rules, "b", "9-1", hex=START)))
    mph = MovementPhase(rules, road_board(), sit)
    first = mph.move(("a",))
    first.enter(OPEN)
    with pytest.raises(RuleViolation):
        mph.move(("a",))                                   # a is the one moving: refused, his move goes on
    assert mph.current is first
    first.enter(R(1))
    mph.move(("b",))
    before = (mph.record, mph.situation, first.ledger)
    with pytest.raises(RuleViolation) as err:
        first.enter(R(2))
    assert (err.value.field, err.value.value, err.value.rule) == ("move.enter", "move1", "ASL-MOV-02")
    assert (mph.record, mph.situation, first.ledger) == before and mph.situation.unit("a").hex == R(1)


def test_asl_mov_05_split_leaves_both_counters_in_motion_when_the_phase_ends(rules):
    """ASL-MOV-05 (D15.44), ASL-MOV-03: the leader splits off the squad's counter in D5 and rides on to E5; the squad's
    counter, left moving in D5, is in Motion once the MPh ends, like the leader's (it used to stay "moving" for good),
    and neither moves again in that phase.
    Source: D15.44
    """
    sit = Situation((unit(rules, "sq", "4-6-7", hex=OPEN), unit(rules, "ldr", "8-0", hex=OPEN)),
                    (cycle(machines=3, hex=OPEN, riders=["sq", "ldr"]),))
    mph = MovementPhase(rules, road_board(), sit)
    m = mph.move(("sq", "ldr"))
    m.start()
    m.ride(R(1))
    m.split("ldr", "solo")
    m.ride(R(2))
    assert mph.situation.machine("cycle").motion is Motion.MOVING
    events = mph.end()
    assert [(e.subject, e.before, e.after, e.rule) for e in events] == [("cycle", "moving", "motion", "ASL-MOV-03"),
                                                                    ("solo", "moving", "motion", "ASL-MOV-03")]
    assert mph.situation.machine("cycle").motion is Motion.MOTION and mph.situation.machine("solo").motion is Motion.MOTION
    assert mph.situation.machine("solo").hex == R(2) and mph.situation.machine("cycle").hex == R(1)
    assert mph.record.moved == {"sq", "ldr"} and mph.record.machines == {"cycle", "solo"}
    scn = build(hex=[{"id": "C5", "road": "paved"}, {"id": "D5", "road": "paved"}, {"id": "E5", "road": "paved"}],
                unit=[{"id": "sq", "counter": "4-6-7", "hex": "C5"}, {"id": "ldr", "counter": "8-0", "hex": "C5"}],
                motorcycle=[{"id": "cycle", "type": "cycle", "machines": 3, "hex": "C5", "mp": 28, "vca": "ne/se", "riders": ["sq", "ldr"]}],
                move=[{"id": "go", "units": ["sq", "ldr"], "steps": [{"action": "start"}, {"action": "ride", "hex": "D5"},
                                                                      {"action": "split", "unit": "ldr", "new_id": "solo"},
                                                                      {"action": "ride", "hex": "E5"}]}])
    result = scn.resolve(ScriptedDice([]))
    assert result.counters == {"cycle": "three-machine (squad) cycle, motion in D5, riders sq, VCA ne/se",
                               "solo": "single-machine (SMC) cycle, motion in E5, riders ldr, VCA ne/se"}


# --- ASL-MOV-01 ---------------------------------------------------------------------------------

@pytest.mark.parametrize("action", ["mount", "push"])
def test_asl_mov_01_no_motorcycle_mounted_or_pushed_in_the_aph(rules, action):
    """ASL-MOV-01 (D15.4): no motorcycle moved, Pushed, mounted or dismounted in the APh."""
    sit = Situation((unit(rules, "ldr", "8-0", hex=OPEN),), (cycle(machines=1, hex=OPEN, m_number=9),))
    m = Movement(rules, road_board(phase=Phase.APH), sit, ("ldr",))
    with pytest.raises(RuleViolation) as err:
        m.mount("cycle") if action == "mount" else m.push("cycle", R(1))
    assert err.value.rule == "ASL-MOV-01"


def test_asl_mov_01_no_dismount_or_ride_in_the_aph(rules):
    """ASL-MOV-01: riders of a motorcycle neither ride nor dismount in the APh."""
    sit = Situation((unit(rules, "ldr", "8-0", hex=OPEN),), (cycle(machines=1, hex=OPEN, riders=["ldr"]),))
    m = Movement(rules, road_board(phase=Phase.APH), sit, ("ldr",))
    for call in (m.dismount, lambda: m.ride(R(1)), m.start):
        with pytest.raises(RuleViolation) as err:
            call()
        assert err.value.rule == "ASL-MOV-01"


@pytest.mark.parametrize("machines,movers,ok", [
    (3, ("4-6-7",), True), (3, ("2-4-7",), False), (3, ("8-0",), False),
    (2, ("2-4-7",), True), (2, ("2-2-8", "8-0"), True), (2, ("8-0", "9-1"), False), (1, ("8-0",), True),
])
def test_asl_mov_01_moved_only_by_a_unit_of_its_size(rules, machines, movers, ok):
    """ASL-MOV-01 (D15.4): a counter is not moved by an Infantry unit smaller than what it carries (extra SMC aside)."""
    units = tuple(unit(rules, f"u{i}", c, hex=OPEN) for i, c in enumerate(movers))
    sit = Situation(units, (cycle(machines=machines, hex=OPEN, riders=[u.id for u in units]),))
    m = Movement(rules, road_board(), sit, tuple(u.id for u in units))
    if ok:
        m.start()
        m.ride(R(1))
    else:
        with pytest.raises(RuleViolation) as err:
            m.start()
        assert err.value.rule == "ASL-MOV-01"


def test_asl_mov_01_push_single_machine_by_one_smc_with_helper_drm(rules):
    """ASL-MOV-01 (D15.4): a single-machine counter Pushed by one SMC: Manhandling DR <= M#; a second SMC helping: -1."""
    sit = Situation((unit(rules, "a", "8-0", hex=OPEN), unit(rules, "b", "9-1", hex=OPEN)),
                    (cycle(machines=1, hex=OPEN, m_number=6),))
    m = Movement(rules, road_board(), sit, ("a",), dice=ScriptedDice([3, 4]))      # 7 > 6: does not move
    m.push("cycle", R(1))
    check = [e for e in m.events if isinstance(e, ManhandlingCheck)][0]
    assert not check.moved and m.situation.machine("cycle").hex == OPEN and m.ledger.ended
    m2 = Movement(rules, road_board(), sit, ("a", "b"), dice=ScriptedDice([3, 4]))  # 7 - 1 = 6: moves
    m2.push("cycle", R(1))
    check = [e for e in m2.events if isinstance(e, ManhandlingCheck)][0]
    assert check.moved and check.final == 6 and [(x.value, x.rule) for x in check.modifiers] == [(-1, "ASL-MOV-01")]
    assert m2.situation.machine("cycle").hex == R(1) and m2.situation.unit("a").hex == R(1)


def test_asl_mov_01_mmc_counter_not_pushed_by_smc(rules):
    """ASL-MOV-01: a HS-size counter is not Pushed by SMC alone."""
    sit = Situation((unit(rules, "a", "8-0", hex=OPEN), unit(rules, "b", "9-1", hex=OPEN)),
                    (cycle(machines=2, hex=OPEN, m_number=9),))
    m = Movement(rules, road_board(), sit, ("a", "b"), dice=ScriptedDice([1, 1]))
    with pytest.raises(RuleViolation) as err:
        m.push("cycle", R(1))
    assert err.value.rule == "ASL-MOV-01"


def test_asl_mov_01_no_vehicle_carries_or_tows_a_motorcycle(rules):
    """ASL-MOV-01 (D15.4): a vehicle may not carry or tow a motorcycle: refused at load, naming the field."""
    with pytest.raises(RuleViolation) as err:
        build(hex=[{"id": "h"}], motorcycle=[{"id": "m", "type": "cycle", "machines": 1, "hex": "h", "mp": 28, "carried_by": "truck"}])
    assert err.value.rule == "ASL-MOV-01" and err.value.field == "motorcycle[0].carried_by"


# --- ASL-MOV-03 ----------------------------------------------------------------------------------

def test_asl_mov_03_no_reverse(rules):
    """ASL-MOV-03 (D15.42): a motorcycle may not use Reverse movement."""
    m = d15_41(rules, hexes=1)
    with pytest.raises(RuleViolation) as err:
        m.reverse()
    assert err.value.rule == "ASL-MOV-03"


def test_asl_mov_03_start_stop_cost_and_no_wreck_vehicle_penalty(rules):
    """ASL-MOV-03: Start and Stop cost 1 MP each; no extra MP to enter a hex with a wreck or vehicle; riding needs a Start."""
    b = board(Hex(OPEN, road="paved"), Hex(R(1), road="paved"), Hex(R(2), road="paved", features=frozenset({"wreck", "vehicle"})))
    sit = Situation((unit(rules, "ldr", "8-0", hex=OPEN),), (cycle(machines=1, hex=OPEN, riders=["ldr"]),))
    m = Movement(rules, b, sit, ("ldr",))
    with pytest.raises(RuleViolation) as err:
        m.ride(R(1))
    assert err.value.rule == "ASL-MOV-03" and "Start" in str(err.value)
    m.start()
    assert m.ledger.mp_used == 1
    m.ride(R(1))
    m.ride(R(2))
    assert m.ledger.mp_used == 2
    m.stop()
    assert m.ledger.mp_used == 3 and m.situation.machine("cycle").motion is Motion.STOPPED


def test_asl_mov_03_in_motion_rides_without_starting_and_ends_in_motion(rules):
    """ASL-MOV-03: a counter in Motion needs no Start; one still moving at the end of its MPh is in Motion."""
    sit = Situation((unit(rules, "ldr", "8-0", hex=OPEN),), (cycle(machines=1, hex=OPEN, riders=["ldr"], motion=Motion.MOTION),))
    m = Movement(rules, road_board(), sit, ("ldr",))
    with pytest.raises(RuleViolation):
        m.start()
    m.ride(R(1))
    assert m.ledger.mp_used == F(1, 2)
    m.end()
    assert m.situation.machine("cycle").motion is Motion.MOTION


def test_asl_mov_03_never_bogs(rules):
    """ASL-MOV-03 (D15.47): motorcycles are never subject to Bog."""
    assert bog_check_required(cycle()) is False
    b = board(Hex(OPEN, road="paved"), Hex("D5", terrain="marsh", motorcycle_mp=F(4)))
    sit = Situation((unit(rules, "ldr", "8-0", hex=OPEN),), (cycle(machines=1, hex=OPEN, riders=["ldr"]),))
    m = Movement(rules, b, sit, ("ldr",), dice=ScriptedDice([]))      # no die may be rolled
    m.start()
    m.ride("D5")
    assert m.situation.machine("cycle").hex == "D5"


def test_asl_mov_03_terrain_restrictions_apply_to_entry_only(rules):
    """ASL-MOV-03 (D15.45): a motorcycle may be Pushed into terrain it cannot be ridden into, then mounted there and ridden out."""
    b = board(Hex(OPEN, road="paved"), Hex("D5", terrain="building", infantry_mf=F(2), motorcycle_na=True),
              Hex("E5", terrain="open_ground", motorcycle_mp=F(1)))
    sit = Situation((unit(rules, "ldr", "8-0", hex=OPEN),), (cycle(machines=1, hex=OPEN, m_number=8),))
    rider = Movement(rules, b, Situation(sit.units, (cycle(machines=1, hex=OPEN, riders=["ldr"]),)), ("ldr",))
    rider.start()
    with pytest.raises(RuleViolation) as err:
        rider.ride("D5")
    assert err.value.rule == "ASL-MOV-03"
    m = Movement(rules, b, sit, ("ldr",), dice=ScriptedDice([2, 2]))
    m.push("cycle", "D5")
    assert m.situation.machine("cycle").hex == "D5"
    m2 = Movement(rules, b, m.situation, ("ldr",))                  # next MPh
    m2.mount("cycle")
    m2.start()
    m2.ride("E5")
    assert m2.situation.machine("cycle").hex == "E5"


# --- ASL-MOV-04 ----------------------------------------------------------------------------------

def test_asl_mov_04_rides_through_enemy_but_no_dismount_beside_known_enemy(rules):
    """ASL-MOV-04 (D15.43): a motorcycle may ride through an enemy-occupied hex; no voluntary dismount in a
    Location with a Known enemy unit, except in Melee."""
    sit = Situation((unit(rules, "ldr", "8-0", hex=OPEN), unit(rules, "enemy", "4-4-7", hex=R(1), side="russian", type="squad", half_squad="2-2-7")),
                    (cycle(machines=1, hex=OPEN, riders=["ldr"]),))
    m = Movement(rules, road_board(), sit, ("ldr",))
    m.start()
    m.ride(R(1))
    m.stop()
    with pytest.raises(RuleViolation) as err:
        m.dismount()
    assert err.value.rule == "ASL-MOV-04"
    melee = road_board()
    melee = board(*[h if h.id != R(1) else Hex(R(1), road="paved", melee=True) for h in melee.hexes.values()])
    m = Movement(rules, melee, sit, ("ldr",))
    m.start()
    m.ride(R(1))
    m.stop()
    m.dismount()
    unknown = sit.with_unit(replace(sit.unit("enemy"), known=False))
    m = Movement(rules, road_board(), unknown, ("ldr",))
    m.start(); m.ride(R(1)); m.stop(); m.dismount()


# --- ASL-MOV-05 ----------------------------------------------------------------------------------

def test_asl_mov_05_smc_splits_off_a_single_machine_counter(rules):
    """ASL-MOV-05 (D15.44): during the MPh an SMC riding an MMC counter takes a single-machine counter and moves on alone."""
    sit = Situation((unit(rules, "sq", "4-6-7", hex=OPEN), unit(rules, "ldr", "8-0", hex=OPEN)),
                    (cycle(machines=3, hex=OPEN, riders=["sq", "ldr"]),))
    m = Movement(rules, road_board(), sit, ("sq", "ldr"))
    m.start()
    m.ride(R(1))
    m.split("ldr", "solo")
    assert m.situation.machine("solo").machines is Capacity.SINGLE and m.situation.machine("solo").riders == ("ldr",)
    assert m.situation.machine("cycle").riders == ("sq",) and m.situation.machine("solo").motion is Motion.MOVING
    m.ride(R(2))
    assert m.situation.machine("solo").hex == R(2) and m.situation.machine("cycle").hex == R(1)
    with pytest.raises(RuleViolation):
        split_smc(rules, sit, "cycle", "sq", "x", "test")                    # only an SMC splits off


def test_asl_mov_05_deploy_and_recombine(rules):
    """ASL-MOV-05: a squad Deploying flips its counter to the HS side and gets a second HS counter; counters recombine
    when unmounted together, or when their HS recombine into the squad."""
    sit = Situation((unit(rules, "sq", "4-6-7"), unit(rules, "ldr", "8-0")), (cycle(machines=3, riders=["sq", "ldr"]),))
    after, _ = deploy_squad(rules, sit, "cycle", "sq", ("hs1", "hs2"), "cycle2")
    assert after.machine("cycle").machines is Capacity.TWO and after.machine("cycle").riders == ("hs1", "ldr")
    assert after.machine("cycle2").machines is Capacity.TWO and after.machine("cycle2").riders == ("hs2",)
    assert after.unit("hs1").designation == "2-4-7"
    back, _ = recombine_riders(rules, after, ("cycle", "cycle2"), sit.unit("sq"), "big")
    assert back.machine("big").machines is Capacity.THREE and set(back.machine("big").riders) == {"sq", "ldr"}
    parked = Situation((), (cycle(id="a", machines=1), cycle(id="b", machines=1), cycle(id="c", machines=2)))
    two, _ = recombine_unmounted(rules, parked, ("a", "b"), "ab")
    assert two.machine("ab").machines is Capacity.TWO and not two.has_machine("a")
    three, _ = recombine_unmounted(rules, parked, ("a", "c"), "ac")
    assert three.machine("ac").machines is Capacity.THREE
    with pytest.raises(RuleViolation) as err:
        recombine_unmounted(rules, parked, ("a", "b", "c"), "x")                # four machines make no counter
    assert err.value.rule == "ASL-MOV-05"
    mixed = Situation((), (cycle(id="a", machines=1), cycle(id="b", machines=1, mtype=MachineType.SIDECAR)))
    with pytest.raises(RuleViolation):
        recombine_unmounted(rules, mixed, ("a", "b"), "x")


# --- ASL-MOV-06 ----------------------------------------------------------------------------------

def wreck_board():
    return board(Hex(OPEN, road="paved", level=1), Hex("D5", terrain="open_ground", motorcycle_mp=F(2), level=1,
                                                           features=frozenset({"shellholes"})),
                 Hex("C6", terrain="open_ground", motorcycle_mp=F(1), level=0), Hex("E5", motorcycle_mp=F(1), level=1),
                 Hex("D4", motorcycle_mp=F(2), level=0, features=frozenset({"D4"})))


def test_asl_mov_06_wreck_check_on_6_breaks_and_dismounts_no_bail_out(rules):
    """ASL-MOV-06 (D15.46): riding into shellholes: dr 6 breaks the rider, dismounted at the base level of the hex he
    left; no Bail Out; the motorcycle stays usable; the move ends."""
    sit = Situation((unit(rules, "ldr", "8-0", hex=OPEN),), (cycle(machines=1, hex=OPEN, riders=["ldr"]),))
    m = Movement(rules, wreck_board(), sit, ("ldr",), dice=ScriptedDice([6]))
    m.start()
    m.ride("D5")
    w = [e for e in m.events if isinstance(e, WreckCheck)][0]
    assert w.wrecked and w.dismount_hex == OPEN
    assert m.situation.unit("ldr").broken and m.situation.unit("ldr").hex == OPEN
    cyc = m.situation.machine("cycle")
    assert not cyc.removed and cyc.riders == () and cyc.hex == OPEN
    assert not any("bail" in str(e).lower() and "no bail out" not in str(e).lower() for e in m.events)
    with pytest.raises(RuleViolation):
        m.ride("E5")


def test_asl_mov_06_wreck_in_the_lower_hex_and_no_wreck_on_5(rules):
    """ASL-MOV-06: the wreck happens in the hex entered when its base level is lower; dr 1-5 no wreck."""
    sit = Situation((unit(rules, "ldr", "8-0", hex=OPEN),), (cycle(machines=1, hex=OPEN, riders=["ldr"]),))
    m = Movement(rules, wreck_board(), sit, ("ldr",), dice=ScriptedDice([6]))
    m.start()
    m.ride("D4")
    assert m.situation.unit("ldr").hex == "D4" and m.situation.machine("cycle").hex == "D4"
    m = Movement(rules, wreck_board(), sit, ("ldr",), dice=ScriptedDice([5]))
    m.start()
    m.ride("D5")
    assert not m.situation.unit("ldr").broken and m.situation.mount_of("ldr").id == "cycle"


@pytest.mark.parametrize("hexside,check", [(Hexside.ELEVATED_ROAD, True), (Hexside.DOUBLE_CREST, True),
                                           (Hexside.ABRUPT_ELEVATION, True), (Hexside.NORMAL, False), (Hexside.ROAD, False)])
def test_asl_mov_06_hexsides_that_force_a_check(rules, hexside, check):
    """ASL-MOV-06: across a non-road hexside by Elevated Road, Double Crest or Abrupt Elevation Change."""
    assert wreck_check_required(rules, cycle(), Hex("x"), hexside) is check


def test_asl_bic_02_bicycles_skip_the_shellhole_wreck_check(rules):
    """ASL-BIC-02 (D15.84): bicycles need not check for wreck entering a shellhole hex."""
    bike = cycle(mtype=MachineType.BICYCLE)
    holes = Hex("x", road="paved", features=frozenset({"shellholes"}))
    assert wreck_check_required(rules, bike, holes, Hexside.ROAD) is False
    assert wreck_check_required(rules, cycle(), holes, Hexside.ROAD) is True


# --- bicycles ---------------------------------------------------------------------------------------

def bike_sit(rules, riders=("sq",), counters=("4-6-7",), hex=OPEN):
    units = tuple(unit(rules, r, c, hex=hex) for r, c in zip(riders, counters))
    return Situation(units, (cycle(id="bike", machines=3 if len(riders) and counters[0] == "4-6-7" else 1, hex=hex,
                                   mtype=MachineType.BICYCLE),))


def test_asl_bic_01_bicycle_road_movement_halves_mf(rules):
    """ASL-BIC-01 (D15.81): mount free; the rider's own MF; road hexsides only, where MF costs are halved; the +1 MF
    road bonus for staying on the road; dismount free."""
    m = Movement(rules, road_board(), bike_sit(rules), ("sq",))
    m.mount("bike")
    assert m.mf_used("sq") == 0 and m.ledger.mp_used == 0
    for i in range(1, 11):
        m.ride(R(i))                       # 10 x 1/2 MF = 5 = 4 MF + 1 road bonus
    assert m.mf_used("sq") == 5
    with pytest.raises(RuleViolation) as err:
        m.ride(R(11))
    assert err.value.rule == "ASL-BIC-01"
    m.dismount()
    assert m.mf_used("sq") == 5


def test_asl_bic_01_off_road_and_no_start_stop(rules):
    """ASL-BIC-01: a bicycle is ridden only across road hexsides; it uses Infantry movement (no Start/Stop/VCA);
    no movement in the APh."""
    b = board(Hex(OPEN, road="paved"), Hex("D5"))
    m = Movement(rules, b, bike_sit(rules), ("sq",))
    m.mount("bike")
    with pytest.raises(RuleViolation) as err:
        m.ride("D5")
    assert err.value.rule == "ASL-BIC-01"
    for call in (m.start, m.stop, lambda: m.change_vca(1)):
        with pytest.raises(RuleViolation) as err:
            call()
        assert err.value.rule == "ASL-BIC-01"
    aph = Movement(rules, road_board(phase=Phase.APH), bike_sit(rules), ("sq",))
    with pytest.raises(RuleViolation) as err:
        aph.mount("bike")
    assert err.value.rule == "ASL-BIC-01"


@pytest.mark.parametrize("target,ground,cost", [
    (Hex(R(1), road="paved"), Ground.DRY, F(1, 2)),
    (Hex(R(1), road="paved", features=frozenset({"shellholes"})), Ground.DRY, 1),
    (Hex(R(1), road="paved", features=frozenset({"entrenchment"})), Ground.DRY, 1),
    (Hex(R(1), road="paved", level=1), Ground.DRY, 1),
    (Hex(R(1), road="dirt"), Ground.MUD, 1),
    (Hex(R(1), road="paved"), Ground.MUD, F(1, 2)),
    (Hex(R(1), road="paved", plowed=False), Ground.SNOW, 1),
    (Hex(R(1), road="paved", plowed=True), Ground.SNOW, F(1, 2)),
])
def test_asl_bic_01_no_halving_exceptions(rules, target, ground, cost):
    """ASL-BIC-01 (D15.81): not halved in a shellhole or entrenchment hex, gaining elevation, on a dirt road in Mud or
    an unplowed road in Snow."""
    m = Movement(rules, board(Hex(OPEN, road="paved"), target, ground=ground), bike_sit(rules), ("sq",))
    m.mount("bike")
    m.ride(R(1))
    assert m.mf_used("sq") == cost


def test_asl_bic_01_an_uphill_road_hex_costs_its_own_infantry_mf(rules):
    """ASL-BIC-01 (D15.81), A4.1, B3: a hex's own Infantry MF is what entering it costs from every side, its road hexside
    included: the road climbs from C5 (level 0) into D5 (level 1, infantry_mf 2): 2 MF on foot (not the road's 1) and
    2 MF on a bicycle (gaining elevation: not halved); E5, a level road hex with no figure of its own, costs the road
    rate: 1 MF on foot, 1/2 on a bicycle. Totals: on foot 2 + 1 = 3 MF; bicycle 2 + 1/2 = 5/2 MF. A motorcycle pays the
    hex's own MP likewise (ASL-MOV-02): Start 1 + D5 2 + E5 1/2 = 7/2 MP.
    Source: D15.81 (no halving when gaining elevation); B3
    """
    b = board(Hex("C5", road="paved"), Hex("D5", road="paved", level=1, infantry_mf=F(2), motorcycle_mp=F(2)),
              Hex("E5", road="paved", level=1))
    foot = Movement(rules, b, Situation((unit(rules, "sq", "4-6-7", hex="C5"),)), ("sq",))
    foot.enter("D5")
    assert foot.ledger.rider("sq").spent == 2
    foot.enter("E5")
    assert foot.ledger.rider("sq").spent == 3
    bike = Movement(rules, b, bike_sit(rules, hex="C5"), ("sq",))
    bike.mount("bike")
    bike.ride("D5")
    assert bike.mf_used("sq") == 2 and "gaining elevation" in [e for e in bike.events if isinstance(e, MoveStep)][-1].detail
    bike.ride("E5")
    assert bike.mf_used("sq") == F(5, 2)
    ride = Movement(rules, b, Situation((unit(rules, "ldr", "8-0", hex="C5"),), (cycle(machines=1, hex="C5", riders=["ldr"]),)), ("ldr",))
    ride.start()
    ride.ride("D5")
    ride.ride("E5")
    assert ride.ledger.mp_used == F(7, 2)


def test_asl_bic_01_descent_bonus_leader_bonus_and_double_time(rules):
    """ASL-BIC-01: +1 MF per level descended on a road; the rider's MF include the leader bonus and Double Time."""
    b = board(Hex(OPEN, road="paved", level=2), Hex(R(1), road="paved", level=0), *[Hex(R(i), road="paved") for i in range(2, 20)])
    m = Movement(rules, b, bike_sit(rules), ("sq",))
    m.mount("bike")
    m.ride(R(1))
    assert m.ledger.descent_bonus == 2
    sit = Situation((unit(rules, "sq", "4-6-7", hex=OPEN), unit(rules, "ldr", "8-0", hex=OPEN)),
                    (cycle(id="bike", machines=3, hex=OPEN, mtype=MachineType.BICYCLE),))
    led = Movement(rules, b, sit, ("sq", "ldr"), double_time=True)
    assert led.ledger.rider("sq").allotment == 4 + 2 + 1 and led.ledger.rider("ldr").allotment == 6 + 1


def test_asl_bic_02_never_ridden_into_a_known_enemy_hex(rules):
    """ASL-BIC-02 (D15.83): a bicycle is never ridden into a Known enemy unit's hex."""
    sit = bike_sit(rules)
    sit = Situation(sit.units + (unit(rules, "enemy", "4-4-7", hex=R(1), side="russian", type="squad", half_squad="2-2-7"),), sit.machines)
    m = Movement(rules, road_board(), sit, ("sq",))
    m.mount("bike")
    with pytest.raises(RuleViolation) as err:
        m.ride(R(1))
    assert err.value.rule == "ASL-BIC-02"


def test_asl_res_04_wounded_rider_keeps_four_mf(rules):
    """ASL-RES-04 (D15.56): a wounded rider keeps his four MF (on foot a wounded SMC has 3)."""
    sit = Situation((unit(rules, "ldr", "8-0", hex=OPEN, wounded=True),), (cycle(machines=1, hex=OPEN),))
    m = Movement(rules, road_board(14), sit, ("ldr",))
    assert m.ledger.rider("ldr").allotment == 3
    m.mount("cycle")
    m.start()
    for i in range(1, 13):
        m.ride(R(i))                        # 1 + 6 = 7 MP: one quarter
    m.stop()                                   # 8 MP: two quarters: 1 + 2 = 3 MF
    assert m.mf_used("ldr") == 3
    m.dismount()                               # the fourth MF
    assert m.mf_used("ldr") == 4


# --- properties -----------------------------------------------------------------------------------

STEP = st.sampled_from(["enter", "mount", "start", "ride", "stop", "dismount", "reverse", "end_not"])


@given(st.lists(STEP, max_size=25), st.integers(8, 40))
@settings(max_examples=60, deadline=None)
def test_asl_mov_02_ledger_invariants(actions, mp):
    """ASL-MOV-02 (property): whatever steps are tried, the ledger never goes negative nor above the allotments, and
    a refused step leaves ledger and situation unchanged."""
    import hardpoint
    rules = hardpoint.default_rules()
    sit = Situation((unit(rules, "ldr", "8-0", hex=OPEN),), (cycle(machines=1, hex=OPEN, mp=mp),))
    m = Movement(rules, road_board(30), sit, ("ldr",))
    nxt = 1
    for a in actions:
        before = (m.ledger, m.situation)
        try:
            if a == "ride":
                m.ride(R(nxt))
                nxt += 1
            elif a == "enter":
                m.enter(R(nxt))
                nxt += 1
            elif a == "mount":
                m.mount("cycle")
            elif a in ("start", "stop", "dismount", "reverse"):
                getattr(m, a)()
        except (RuleViolation, ScenarioError):
            assert (m.ledger, m.situation) == before
            continue
        r = m.ledger.rider("ldr")
        assert r.spent >= 0 and r.riding_mp >= 0 and m.ledger.mp_used >= 0
        assert m.ledger.mp_used <= mp
        cap = 4 if m.ledger.machine else 6
        assert 0 <= m.mf_used("ldr") <= max(cap, 6)
        if m.ledger.machine:
            assert m.mf_used("ldr") <= 4
