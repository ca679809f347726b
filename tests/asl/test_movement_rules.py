"""D15 movement, hand-worked: a VCA change by a rider who has used his four MF (ASL-MOV-03) and a bicyclist's MF off
the road (ASL-BIC-01).

Each test asserts the steps the ledger records: the action, the MF and MP charged, the MF used and allowed.
"""
from fractions import Fraction

from hardpoint.asl.enums import MachineType
from hardpoint.asl.events import MoveStep
from hardpoint.asl.movement import Movement
from hardpoint.asl.units import Hex, Situation

from .conftest import OPEN, R, START, board, cycle, road_board, unit


def steps(m):
    return [e for e in m.events if isinstance(e, MoveStep)]


def test_asl_mov_03_a_rider_at_his_four_mf_may_still_turn_in_his_hex():
    """ASL-MOV-03 (D15.42): a VCA change is no movement "farther": the D15.41 leader (1 MF to enter, 1 MF and 7 MP to
    mount) Starts and rides 13 road hexes: 7.5 MP of riding, two quarters of 28, so his 4 MF are used. He then changes
    VCA by one hexspine in the hex he is in: 1 MP, no MF (8.5 MP is still two quarters); he stays at 4 MF.
    Source: D15.41 example, D15.42."""
    import hardpoint

    rules = hardpoint.default_rules()
    m = Movement(rules, road_board(14), Situation((unit(rules, "leader", "8-0", hex=START),),
                                                  (cycle(machines=1, hex=OPEN, mp=28),)), ("leader",))
    m.enter(OPEN)
    m.mount("cycle")
    m.start()
    for i in range(1, 14):
        m.ride(R(i))
    assert m.mf_used("leader") == 4
    m.change_vca(vca="n/ne")                        # from ne/se: one hexspine
    last = steps(m)[-1]
    assert (last.action, last.mf, last.mp, last.mf_used, last.rule) == ("change_vca", {"leader": 0}, 1, {"leader": 4}, "ASL-MOV-03")
    assert last.detail.startswith("ne/se -> n/ne: 1 hexspine(s)") and m.ledger.mp_used == Fraction(31, 2)


def test_asl_bic_01_off_the_road_a_bicyclist_has_his_own_four_mf():
    """ASL-BIC-01 (D15.81): a squad walks from open ground onto the road (1 MF) and mounts its bicycle there (free): off
    the road for part of the move, it has its own 4 MF and no +1 road bonus: the mount step shows 1 MF used of 4."""
    import hardpoint

    rules = hardpoint.default_rules()
    sit = Situation((unit(rules, "sq", "4-6-7", hex=START),), (cycle(id="bike", machines=3, hex=OPEN, mtype=MachineType.BICYCLE),))
    m = Movement(rules, road_board(), sit, ("sq",))
    m.enter(OPEN)
    m.mount("bike")
    mount = steps(m)[-1]
    assert (mount.action, mount.mf, mount.mf_used, mount.mf_allotment, mount.rule) == (
        "mount", {"sq": 0}, {"sq": 1}, {"sq": 4}, "ASL-BIC-01")


def test_asl_mov_02_a_second_motorcycle_mounted_in_the_same_move_starts_from_zero_mp():
    """ASL-MOV-02 (D15.41): a leader mounts cycle a (1 MF, 7 of its 28 MP), dismounts (1 MF, 7 MP more of a) and mounts
    cycle b: b has spent nothing yet, so the mount puts it at 7 MP of 28; the leader has used 3 MF."""
    import hardpoint

    rules = hardpoint.default_rules()
    sit = Situation((unit(rules, "leader", "8-0", hex=OPEN),),
                    (cycle(id="a", machines=1, hex=OPEN, mp=28), cycle(id="b", machines=1, hex=OPEN, mp=28)))
    m = Movement(rules, road_board(), sit, ("leader",))
    m.mount("a")
    m.dismount()
    m.mount("b")
    assert [(s.action, s.detail, s.mf, s.mp, s.mf_used, s.mp_used) for s in steps(m)] == [
        ("mount", "a", {"leader": 1}, 7, {"leader": 1}, 7),
        ("dismount", "a", {"leader": 1}, 7, {"leader": 2}, None),
        ("mount", "b", {"leader": 1}, 7, {"leader": 3}, 7)]


def test_asl_bic_01_a_bicycle_ride_uphill_spends_mf_no_mp_and_earns_no_descent_bonus():
    """ASL-BIC-01 (D15.81): riding a bicycle up the road from C5 (level 0) into D5 (level 1) costs the squad 1 MF (the
    road rate, not halved gaining elevation); a bicycle has no MP (0 in the step), and climbing earns no descent
    bonus: the step says nothing of descending and the squad may still use its 4 MF + 1 road bonus."""
    import hardpoint

    rules = hardpoint.default_rules()
    b = board(Hex("C5", road="paved"), Hex("D5", road="paved", level=1))
    sit = Situation((unit(rules, "sq", "4-6-7", hex="C5"),), (cycle(id="bike", machines=3, hex="C5", mtype=MachineType.BICYCLE),))
    m = Movement(rules, b, sit, ("sq",))
    m.mount("bike")
    m.ride("D5")
    ride = steps(m)[-1]
    assert (ride.action, ride.mf, ride.mp, ride.mf_used, ride.mf_allotment) == ("ride", {"sq": 1}, 0, {"sq": 1}, {"sq": 5})
    assert "descending" not in ride.detail and m.ledger.descent_bonus == 0


def test_asl_mov_01_a_successful_push_is_a_step_of_the_move(rules):
    """ASL-MOV-01 (D15.4): leaders a and b Push the single-machine cycle (M# 6) from C5 into the road hex D5: the
    Manhandling DR 3 + 4 = 7, -1 for the second SMC helping = 6 <= 6: it moves, and the move records the step, each
    pusher paying the open hex's 1 MF (1 of 6 used), no MP, on foot, in D5."""
    from hardpoint import ScriptedDice

    sit = Situation((unit(rules, "a", "8-0", hex=OPEN), unit(rules, "b", "9-1", hex=OPEN)),
                    (cycle(machines=1, hex=OPEN, m_number=6),))
    m = Movement(rules, road_board(), sit, ("a", "b"), dice=ScriptedDice([3, 4]))
    m.push("cycle", R(1))
    steps = [e for e in m.events if isinstance(e, MoveStep)]
    assert [(s.action, s.detail, s.mf, s.mp, s.mf_used, s.mf_allotment, s.hex, s.motion, s.rule) for s in steps] == [
        ("push", f"cycle into {R(1)}", {"a": 1, "b": 1}, 0, {"a": 1, "b": 1}, {"a": 6, "b": 6}, R(1), "on foot", "ASL-MOV-01")]


def test_a4_42_mf_lost_to_portage_leave_no_fewer_than_none(rules):
    """A4.42, ASL-CAP-02 (D15.82): a squad (4 MF, IPC 3) carrying bicycle counters of 3, 3 and 2 machines (1 PP each
    machine: 8 PP) is 5 PP over its capacity and loses 5 MF: 4 - 5 leaves it no MF at all, an allotment of 0 (not -1).
    Carrying only the 2-machine counter it loses nothing (2 <= 3) and keeps its 4."""
    from hardpoint.asl.movement import portage_mf_lost, start_ledger

    bikes = tuple(cycle(id=f"b{i}", machines=n, hex=OPEN, mtype=MachineType.BICYCLE) for i, n in enumerate((3, 3, 2)))
    sq = unit(rules, "sq", "4-6-7", type="squad", half_squad="2-3-7", hex=OPEN)
    sit = Situation((sq,), bikes)
    assert portage_mf_lost(rules, [sq], list(bikes)) == 5
    ledger = start_ledger(rules, sit, ("sq",), carrying=tuple(b.id for b in bikes))
    assert [(r.unit, r.allotment, r.spent) for r in ledger.mf] == [("sq", 0, 0)]
    light = start_ledger(rules, sit, ("sq",), carrying=(bikes[2].id,))
    assert [(r.unit, r.allotment) for r in light.mf] == [("sq", 4)]


def test_asl_mov_02_steps_after_a_failed_push_are_each_noted_not_taken(rules):
    """ASL-MOV-02: a declared move runs step by step; once a failed Push has ended it (Manhandling DR 6 + 6 = 12 > M# 6),
    every later step is skipped with its own note naming it: the enter into D5 and the split of leader ldr (its unit
    named), in order. Nothing moves."""
    from hardpoint import ScriptedDice
    from hardpoint.asl.movement import MoveAction, run_move, start_ledger
    from hardpoint.events import Note

    sit = Situation((unit(rules, "ldr", "8-0", hex=OPEN),), (cycle(machines=1, hex=OPEN, m_number=6),))
    ledger = start_ledger(rules, sit, ("ldr",), "walk")
    actions = (MoveAction("push", machine="cycle", hex=R(1)), MoveAction("enter", hex=R(1)), MoveAction("split", unit="ldr"))
    ledger, after, events = run_move(rules, road_board(), sit, ledger, actions, ScriptedDice([6, 6]))
    assert ledger.ended == "push failed" and after == sit
    assert [(e.text, e.rule) for e in events if isinstance(e, Note)] == [
        (f"walk: enter into {R(1)} not taken: the move ended (push failed)", "ASL-MOV-02"),
        ("walk: split ldr not taken: the move ended (push failed)", "ASL-MOV-02")]
