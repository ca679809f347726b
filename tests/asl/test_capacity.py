"""D15.1-.3: what a motorcycle counter carries, portage, stacking (ASL-CAP-01..03)."""
import pytest

from hardpoint import RuleViolation
from hardpoint.asl.enums import Capacity, MachineType
from hardpoint.asl.motorcycles import bicycle_portage_pp, check_capacity, check_portage, required_capacity
from hardpoint.asl.movement import Movement
from hardpoint.asl.units import Hex, Situation, SupportWeapon, stacking

from .conftest import OPEN, R, board, build, cycle, road_board, unit


def riders(rules, *specs):
    return [unit(rules, f"u{i}", c) for i, c in enumerate(specs)]


@pytest.mark.parametrize("machines,mtype,load", [
    (3, MachineType.CYCLE, ("4-6-7", "8-0", "9-1", "8-0", "7-0")),      # a squad and four SMC
    (2, MachineType.CYCLE, ("2-4-7", "8-0", "9-1", "8-0", "7-0")),      # a HS and four SMC
    (2, MachineType.SIDECAR, ("2-2-8", "8-0")),                         # a crew and an SMC
    (1, MachineType.CYCLE, ("8-0", "9-1")),                             # two SMC
    (1, MachineType.SIDECAR, ("8-0", "9-1", "7-0")),                    # three SMC on a sidecar
])
def test_asl_cap_01_within_capacity(rules, machines, mtype, load):
    """ASL-CAP-01 (D15.1): each counter size carries its load."""
    check_capacity(rules, cycle(machines=machines, mtype=mtype), riders(rules, *load))


@pytest.mark.parametrize("machines,mtype,load,why", [
    (3, MachineType.CYCLE, ("4-6-7", "8-0", "9-1", "8-0", "7-0", "8-1"), "at most 4 SMC"),
    (3, MachineType.CYCLE, ("4-6-7", "2-4-7"), "one MMC"),
    (2, MachineType.CYCLE, ("4-6-7",), "at most a half_squad"),
    (1, MachineType.CYCLE, ("2-2-8",), "no MMC"),
    (1, MachineType.CYCLE, ("8-0", "9-1", "7-0"), "at most 2 SMC"),
    (1, MachineType.SIDECAR, ("8-0", "9-1", "7-0", "8-1"), "at most 3 SMC"),
])
def test_asl_cap_01_loading_beyond_capacity_is_refused(rules, machines, mtype, load, why):
    """ASL-CAP-01: loading beyond capacity raises RuleViolation naming the rule."""
    with pytest.raises(RuleViolation) as err:
        check_capacity(rules, cycle(machines=machines, mtype=mtype), riders(rules, *load))
    assert err.value.rule == "ASL-CAP-01" and why in str(err.value)


def test_asl_cap_01_overloaded_counter_in_a_scenario(rules):
    """ASL-CAP-01: an overloaded counter in a scenario file fails on load, naming the field."""
    with pytest.raises(RuleViolation) as err:
        build(hex=[{"id": "h"}], unit=[{"id": "a", "counter": "8-0", "hex": "h"}, {"id": "b", "counter": "9-1", "hex": "h"},
                                        {"id": "c", "counter": "7-0", "hex": "h"}],
              motorcycle=[{"id": "m", "type": "cycle", "machines": 1, "hex": "h", "mp": 28, "riders": ["a", "b", "c"]}])
    assert err.value.field == "motorcycle[0].riders" and err.value.rule == "ASL-CAP-01"


def test_asl_cap_01_mount_beyond_capacity_is_refused_and_changes_nothing(rules):
    """ASL-CAP-01: mounting a third SMC on a single cycle is refused; ledger and situation unchanged."""
    sit = Situation(tuple(riders(rules, "8-0", "9-1", "7-0")), (cycle(machines=1, riders=["u0", "u1"]),))
    m = Movement(rules, board(), sit, ("u2",))
    before = (m.ledger, m.situation)
    with pytest.raises(RuleViolation) as err:
        m.mount("cycle")
    assert err.value.rule == "ASL-CAP-01" and (m.ledger, m.situation) == before


def lmg(pp=1, id="lmg"):
    return (SupportWeapon(id, "LMG", 3, 8, pp),)


@pytest.mark.parametrize("machines,pp,ok", [(3, 3, True), (3, 4, False), (2, 2, True), (2, 3, False), (1, 1, True), (1, 2, False)])
def test_asl_cap_02_sidecar_portage_by_size(rules, machines, pp, ok):
    """ASL-CAP-02 (D15.2): sidecars carry 3 PP (squad size), 2 (HS size), 1 (SMC size)."""
    load = [unit(rules, "ldr", "8-0", weapons=lmg(pp))]
    m = cycle(machines=machines, mtype=MachineType.SIDECAR)
    if ok:
        check_portage(rules, m, load)
    else:
        with pytest.raises(RuleViolation) as err:
            check_portage(rules, m, load)
        assert err.value.rule == "ASL-CAP-02"


def test_asl_cap_02_cycles_and_bicycles_carry_no_sw(rules):
    """ASL-CAP-02: cycles have no portage; bicycles carry no support weapon at all."""
    load = [unit(rules, "ldr", "8-0", weapons=lmg(1))]
    for mtype in (MachineType.CYCLE, MachineType.BICYCLE):
        with pytest.raises(RuleViolation) as err:
            check_portage(rules, cycle(machines=3, mtype=mtype), load)
        assert err.value.rule == "ASL-CAP-02"
    check_portage(rules, cycle(machines=3, mtype=MachineType.CYCLE), [unit(rules, "ldr", "8-0")])


def test_asl_cap_02_bicycle_is_one_pp_when_carried(rules):
    """ASL-CAP-02 (D15.82): a bicycle is carried as 1 PP (per machine); a motorcycle is never carried."""
    assert bicycle_portage_pp(rules, cycle(machines=1, mtype=MachineType.BICYCLE)) == 1
    assert bicycle_portage_pp(rules, cycle(machines=3, mtype=MachineType.BICYCLE)) == 3
    with pytest.raises(RuleViolation):
        bicycle_portage_pp(rules, cycle(machines=1))


def carrier(rules, counter="8-0", weapons=(), bike_machines=1, extra=()):
    units = (unit(rules, "u", counter, hex=OPEN, weapons=weapons),)
    machines = (cycle(id="bike", machines=bike_machines, hex=OPEN, mtype=MachineType.BICYCLE),) + tuple(extra)
    return Situation(units, machines)


def test_asl_cap_02_a_carried_bicycle_counts_against_the_motorcycles_portage(rules):
    """ASL-CAP-02 (D15.2, D15.82): a leader carrying a bicycle (1 PP) may not mount a cycle (no portage capacity): refused,
    nothing changes. A single-machine sidecar carries 1 PP: he mounts it and the bicycle rides along into D5; with an
    LMG (1 PP) as well, 2 PP > 1: refused. A bicycle carries nothing, not even another bicycle.
    Source: D15.2; D15.82
    """
    extra = (cycle(id="cyc", machines=1, hex=OPEN), cycle(id="side", machines=1, hex=OPEN, mtype=MachineType.SIDECAR),
             cycle(id="bike2", machines=1, hex=OPEN, mtype=MachineType.BICYCLE))
    m = Movement(rules, road_board(), carrier(rules, extra=extra), ("u",), carrying=("bike",))
    before = (m.ledger, m.situation)
    with pytest.raises(RuleViolation) as err:
        m.mount("cyc")
    assert (err.value.field, err.value.value, err.value.rule) == ("move.mount.riders", "cyc", "ASL-CAP-02")
    assert "1 PP" in str(err.value) and (m.ledger, m.situation) == before
    with pytest.raises(RuleViolation) as err:
        m.mount("bike2")
    assert err.value.rule == "ASL-CAP-02" and "carries nothing" in str(err.value)
    m.mount("side")
    m.start()
    m.ride(R(1))
    assert m.situation.machine("bike").hex == R(1) and m.situation.machine("side").hex == R(1)
    armed = Movement(rules, road_board(), carrier(rules, weapons=lmg(1), extra=extra), ("u",), carrying=("bike",))
    with pytest.raises(RuleViolation) as err:
        armed.mount("side")
    assert err.value.rule == "ASL-CAP-02" and "2 PP" in str(err.value)


def test_asl_cap_02_a_carried_bicycle_is_portaged_as_one_pp_on_foot(rules):
    """ASL-CAP-02 (D15.82), A4.42: on foot a carried bicycle is portage like any other (1 PP a machine): what a stack
    carries beyond its Inherent Portage Capacity (squad 3, SMC 1: seeds/asl/infantry.toml) costs 1 MF a PP.
    - leader (6 MF, IPC 1) with a bicycle: 1 PP, no loss: 6 MF; with an LMG too: 2 PP, 1 over: 5 MF (5 hexes, not 6);
    - squad (4 MF, IPC 3) with an LMG and a three-machine bicycle: 1 + 3 = 4 PP, 1 over: 3 MF;
    - the same squad with a leader: IPC 3 + 1 = 4, nothing over: 4 + 2 (leader bonus) = 6 MF, the leader 6.
    Source: D15.82
    """
    def allotments(sit, movers):
        m = Movement(rules, road_board(8), sit, movers, carrying=("bike",))
        return {r.unit: r.allotment for r in m.ledger.mf}
    assert allotments(carrier(rules), ("u",)) == {"u": 6}
    assert allotments(carrier(rules, weapons=lmg(1)), ("u",)) == {"u": 5}
    assert allotments(carrier(rules, "4-6-7", lmg(1), 3), ("u",)) == {"u": 3}
    led = carrier(rules, "4-6-7", lmg(1), 3)
    led = Situation(led.units + (unit(rules, "ldr", "9-1", hex=OPEN),), led.machines)
    assert allotments(led, ("u", "ldr")) == {"u": 6, "ldr": 6}
    walk = Movement(rules, road_board(8), carrier(rules, weapons=lmg(1)), ("u",), carrying=("bike",))
    for i in range(1, 6):
        walk.enter(R(i))
    assert walk.situation.machine("bike").hex == R(5)
    with pytest.raises(RuleViolation) as err:
        walk.enter(R(6))
    assert err.value.rule == "A4.1" and walk.ledger.rider("u").spent == 5


def test_asl_cap_02_no_bicycle_carried_in_the_aph(rules):
    """ASL-CAP-02 (D15.82): bicycles may be portaged, but not during the APh."""
    from hardpoint.asl.enums import Phase
    b = board(Hex("B5"), Hex("C5"), phase=Phase.APH)
    sit = Situation((unit(rules, "sq", "4-6-7", hex="B5"),), (cycle(machines=1, mtype=MachineType.BICYCLE, hex="B5"),))
    m = Movement(rules, b, sit, ("sq",), carrying=("cycle",))
    with pytest.raises(RuleViolation) as err:
        m.enter("C5")
    assert err.value.rule == "ASL-CAP-02"
    m2 = Movement(rules, board(Hex("B5"), Hex("C5")), sit, ("sq",), carrying=("cycle",))
    m2.enter("C5")
    assert m2.situation.machine("cycle").hex == "C5"


def test_asl_cap_03_only_riders_count_for_stacking(rules):
    """ASL-CAP-03 (D15.3): the riders count for stacking; the machines add nothing."""
    sit = Situation((unit(rules, "sq", "4-6-7"), unit(rules, "ldr", "8-0"), unit(rules, "hs", "2-4-7")),
                    (cycle(riders=["sq", "ldr"]), cycle(id="spare", machines=3), cycle(id="spare2", machines=2)))
    assert stacking(rules, sit, "h") == (1.5, 1)
    assert stacking(rules, Situation(sit.units), "h") == stacking(rules, sit, "h")


def test_asl_cap_03_motorcycle_in_hex_changes_no_entry_cost(rules):
    """ASL-CAP-03 (D15.3): a motorcycle in a hex changes no other vehicle's entrance cost."""
    def cost_into_r1(extra_machines):
        sit = Situation((unit(rules, "ldr", "8-0", hex=OPEN),),
                        (cycle(machines=1, hex=OPEN, riders=["ldr"]),) + extra_machines)
        from .conftest import road_board
        m = Movement(rules, road_board(), sit, ("ldr",))
        m.start()
        before = m.ledger.mp_used
        m.ride(R(1))
        return m.ledger.mp_used - before
    assert cost_into_r1(()) == cost_into_r1((cycle(id="parked", machines=3, hex=R(1)), cycle(id="p2", machines=1, hex=R(1))))


def test_required_capacity_shrinks_to_the_survivors(rules):
    """D15.52: the smallest counter that carries the survivors."""
    m = cycle(machines=3)
    assert required_capacity(rules, m, riders(rules, "2-4-7", "8-0")) is Capacity.TWO
    assert required_capacity(rules, m, riders(rules, "8-0")) is Capacity.SINGLE
    assert required_capacity(rules, m, []) is None
