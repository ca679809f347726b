"""The board: coordinates, adjacency, hexsides and the VCA of a riding motorcycle (ASL-MOV-03, D15.42, D2.11)."""
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import hardpoint
from hardpoint import RuleViolation, ScenarioError, ScriptedDice
from hardpoint.asl.enums import Hexside, Motion
from hardpoint.asl.events import MoveStep, WreckCheck
from hardpoint.asl.geometry import (HexCoord, column_index, column_letters, hex_label, hexside_between, neighbour, parse_coordinate,
                                    vca_to_cross)
from hardpoint.asl.movement import Movement
from hardpoint.asl.tables import board_settings
from hardpoint.asl.units import Board, Hex, Situation

from .conftest import NE_SE, OPEN, R, board, cycle, road_board, scenario_data, unit

F = Fraction


@pytest.fixture
def grid(rules):
    return board_settings(rules)


def steps_of(m):
    return [e for e in m.events if isinstance(e, MoveStep)]


# --- coordinates ------------------------------------------------------------------------------------

def test_asl_mov_03_board_coordinates(grid):
    """ASL-MOV-03: hexes are named as on a geomorphic board: columns A..Z then AA..GG (a letter doubled), rows 1-10 in
    the columns of even index (A, C, ..., GG), 0-10 in the others; anything else written as a coordinate is refused
    naming the field and the value; other ids are labels (None).
    Source: seeds/asl/board.toml (the project's convention, docs/asl.md)
    """
    assert [column_index(x) for x in ("A", "Z", "AA", "GG")] == [0, 25, 26, 32] and column_letters(32) == "GG"
    assert parse_coordinate(grid, "B5") == HexCoord(1, 5) and parse_coordinate(grid, "GG10") == HexCoord(32, 10)
    assert parse_coordinate(grid, "B0") == HexCoord(1, 0) and parse_coordinate(grid, "FF10") == HexCoord(31, 10)
    assert parse_coordinate(grid, "target") is None and parse_coordinate(grid, "b5") is None
    for bad in ("A0", "C11", "HH5", "AB5", "AAA1"):
        with pytest.raises(ScenarioError) as err:
            parse_coordinate(grid, bad, "hex[3].id")
        assert (err.value.field, err.value.value, err.value.rule) == ("hex[3].id", bad, "ASL-MOV-03")


def test_asl_mov_03_neighbours_of_a_hex(grid):
    """ASL-MOV-03: the odd columns sit half a hex lower: B5 (odd) touches B4 (n), C5 (ne), C6 (se), B6 (s), A6 (sw),
    A5 (nw); C5 (even) touches C4, D4, D5, C6, B5, B4. Hexsides are numbered clockwise from n.
    Source: seeds/asl/board.toml
    """
    b5, c5 = parse_coordinate(grid, "B5"), parse_coordinate(grid, "C5")
    assert [hex_label(neighbour(grid, b5, k)) for k in range(6)] == ["B4", "C5", "C6", "B6", "A6", "A5"]
    assert [hex_label(neighbour(grid, c5, k)) for k in range(6)] == ["C4", "D4", "D5", "C6", "B5", "B4"]
    assert hexside_between(grid, b5, c5) == 1 and hexside_between(grid, c5, b5) == 4
    assert hexside_between(grid, b5, parse_coordinate(grid, "D5")) is None


@given(st.integers(0, 32), st.integers(1, 9), st.integers(0, 5))
def test_asl_mov_03_across_a_hexside_and_back(col, row, side):
    """ASL-MOV-03 (property): the hex across hexside k has us across hexside k+3, for every hex and hexside.
    Source: seeds/asl/board.toml (the grid's neighbour steps)
    """
    grid = board_settings(hardpoint.default_rules())
    here = HexCoord(col, row)
    there = neighbour(grid, here, side)
    assert hexside_between(grid, here, there) == side
    assert neighbour(grid, there, side + 3) == here and hexside_between(grid, there, here) == (side + 3) % 6


def test_asl_mov_03_board_table_is_validated(rules):
    """ASL-MOV-03, ARCH-05: a board table whose neighbour steps do not agree (the hex across a hexside must have us
    across the opposite one) is refused naming the field: with B's nw step moved to (-1, -1), B5's nw neighbour would be
    A4, whose se neighbour is B4, not B5.
    Source: seeds/asl/board.toml
    """
    from hardpoint.errors import DataError
    with pytest.raises(DataError) as err:
        rules.with_overrides({"asl": {"board": {"neighbours": {"odd": [[0, -1], [1, 0], [1, 1], [0, 1], [-1, 1], [-1, -1]]}}}})
    assert err.value.field == "asl.board.neighbours.even" and err.value.rule == "ASL-MOV-03"


# --- a path is connected ----------------------------------------------------------------------------

def riding_leader(rules, **kw):
    return Situation((unit(rules, "ldr", "8-0", hex=OPEN),), (cycle(machines=1, hex=OPEN, riders=["ldr"], **kw),))


def test_asl_mov_03_a_path_is_connected(rules):
    """ASL-MOV-03, A4.1: every step enters an adjacent hex: riding from C5 to E5 (two hexes away) or walking from B5 to
    D5 is refused naming the field, the value and the rule, and nothing changes. Hexes named by labels have no
    neighbours: movement through them is refused.
    Source: D15.42; A4.1
    """
    m = Movement(rules, road_board(), riding_leader(rules), ("ldr",))
    m.start()
    before = (m.ledger, m.situation)
    with pytest.raises(RuleViolation) as err:
        m.ride(R(2))
    assert (err.value.field, err.value.value, err.value.rule) == ("move.ride.hex", R(2), "ASL-MOV-03")
    assert (m.ledger, m.situation) == before
    walker = Movement(rules, road_board(), Situation((unit(rules, "sq", "4-6-7", hex="B5"),)), ("sq",))
    with pytest.raises(RuleViolation) as err:
        walker.enter(R(1))
    assert (err.value.field, err.value.rule) == ("move.enter.hex", "A4.1")
    labels = Movement(rules, board(Hex("here"), Hex("there")), Situation((unit(rules, "sq", "4-6-7", hex="here"),)), ("sq",))
    with pytest.raises(ScenarioError) as err:
        labels.enter("there")
    assert (err.value.field, err.value.value, err.value.rule) == ("move.enter.hex", "here", "A4.1")


# --- the VCA ----------------------------------------------------------------------------------------

def turning_board(d5_terrain="open_ground"):
    """C5, D5 and D6 with a road through them: D5 lies across C5's se hexside, D6 across D5's s hexside."""
    return board(Hex("C5", road="paved"), Hex("D5", road="paved", terrain=d5_terrain), Hex("D6", road="paved"), Hex("D4"))


def test_asl_mov_03_vca_follows_the_direction_of_travel_and_a_change_costs_mp(rules):
    """ASL-MOV-03 (D15.42: normal MP to change VCA; D2.11: 1 MP per hexspine, 2 in woods): the cycle faces the
    hexspine ne/se, so it rides from C5 into D5 (across se) as it faces; D6 lies across D5's s hexside, outside the VCA:
    the VCA turns one hexspine to se/s first, for 1 MP in D5, then the road hex costs 1/2.
    Start 1 + D5 1/2 + VCA 1 + D6 1/2 = 3 MP. In a woods-road D5 the turn costs 2: 4 MP.
    Source: D15.42; D2.11 (project default, seeds/asl/motorcycles.toml)
    """
    m = Movement(rules, turning_board(), riding_leader(rules), ("ldr",))
    m.start()
    m.ride("D5")
    assert m.situation.machine("cycle").vca == NE_SE and m.ledger.mp_used == F(3, 2)
    m.ride("D6")
    steps = steps_of(m)
    assert [(s.action, s.mp, s.vca) for s in steps] == [("start", 1, "ne/se"), ("ride", F(1, 2), "ne/se"),
                                                         ("change_vca", 1, "se/s"), ("ride", F(1, 2), "se/s")]
    assert steps[2].detail == "ne/se -> se/s: 1 hexspine(s) in D5, to ride into D6" and steps[2].rule == "ASL-MOV-03"
    assert m.ledger.mp_used == 3 and m.situation.machine("cycle").vca == 2 and m.situation.machine("cycle").hex == "D6"
    woods = Movement(rules, turning_board("woods"), riding_leader(rules), ("ldr",))
    woods.start()
    woods.ride("D5")
    woods.ride("D6")
    assert woods.ledger.mp_used == 4 and steps_of(woods)[2].mp == 2


def test_asl_mov_03_doubling_back_turns_the_vca_three_hexspines(rules):
    """ASL-MOV-03: riding back into the hex just left is no free U-turn: from D5 facing ne/se, C5 lies across the nw
    hexside; the nearest VCA with nw beside it is nw/n, two hexspines away: 2 MP, then 1/2 for the road.
    Start 1 + D5 1/2 + VCA 2 + C5 1/2 = 4 MP; no Reverse movement.
    Source: D15.42
    """
    m = Movement(rules, road_board(), riding_leader(rules), ("ldr",))
    m.start()
    m.ride(R(1))
    m.ride(OPEN)
    assert [(s.action, s.mp, s.vca) for s in steps_of(m)][-2:] == [("change_vca", 2, "nw/n"), ("ride", F(1, 2), "nw/n")]
    assert m.ledger.mp_used == 4 and m.situation.machine("cycle").hex == OPEN


def test_asl_mov_03_explicit_vca_change(rules):
    """ASL-MOV-03: a change of VCA in place, to a named hexspine or by hexspines (clockwise positive): the short way,
    1 MP a hexspine; a stopped counter Starts first; the VCA a rider needs must be given, never invented.
    Start 1; to "s/sw" from "ne/se": 2 hexspines, 2 MP; then -1 hexspine: 1 MP. Total 4 MP.
    Source: D15.42; D2.11
    """
    m = Movement(rules, road_board(), riding_leader(rules), ("ldr",))
    with pytest.raises(RuleViolation) as err:
        m.change_vca(vca="s/sw")
    assert err.value.rule == "ASL-MOV-03" and "Start" in str(err.value)
    m.start()
    m.change_vca(vca="s/sw")
    assert m.situation.machine("cycle").vca == 3 and m.ledger.mp_used == 3
    m.change_vca(spines=-1)
    assert m.situation.machine("cycle").vca == 2 and m.ledger.mp_used == 4
    with pytest.raises(ScenarioError) as err:
        m.change_vca(vca="east")
    assert (err.value.field, err.value.value) == ("move.change_vca.vca", "east")
    blind = Movement(rules, road_board(), riding_leader(rules, vca=None), ("ldr",))
    blind.start()
    with pytest.raises(ScenarioError) as err:
        blind.ride(R(1))
    assert (err.value.field, err.value.value, err.value.rule) == ("motorcycle.vca", "cycle", "ASL-MOV-03")


def test_asl_mov_03_vca_to_cross_takes_the_short_way():
    """ASL-MOV-03: the VCA chosen to cross a hexside is the nearer of the two hexspines beside it (hexspine k lies
    between hexsides k and k+1).
    Source: D15.42; D2.11
    """
    # from ne/se (1): n -> n/ne (1 hexspine), se and ne as it is, s -> se/s (1), sw -> s/sw (2), nw -> nw/n (2)
    assert [vca_to_cross(1, side) for side in range(6)] == [0, 1, 1, 2, 3, 5]


# --- hexsides ---------------------------------------------------------------------------------------

def test_asl_mov_03_roads_are_hexsides(rules):
    """ASL-MOV-03, ASL-BIC-01, B3: a road is a hexside: two road hexes whose shared hexside the scenario declares normal
    (roads that do not meet) give no road rate to a motorcycle (it pays the terrain's MP: open ground at 2 MP by a
    house table here) and no road to a bicycle.
    Source: D15.81; B3
    """
    house = rules.with_overrides({"asl": {"motorcycles": {"terrain_mp": {"open_ground": 2}}}})
    hexes = {h.id: h for h in (Hex("C5", road="paved"), Hex("D5", road="paved"))}
    joined = Board(hexes)
    apart = Board(hexes, hexsides={frozenset(("C5", "D5")): Hexside.NORMAL})
    assert joined.hexside(hexes["C5"], hexes["D5"]) is Hexside.ROAD and apart.hexside(hexes["C5"], hexes["D5"]) is Hexside.NORMAL
    for b, cost in ((joined, F(1, 2)), (apart, 2)):
        m = Movement(house, b, riding_leader(house), ("ldr",))
        m.start()
        m.ride("D5")
        assert m.ledger.mp_used == 1 + cost
    from hardpoint.asl.enums import MachineType
    bike = Situation((unit(rules, "sq", "4-6-7", hex="C5"),), (cycle(id="bike", machines=3, hex="C5", mtype=MachineType.BICYCLE),))
    m = Movement(rules, apart, bike, ("sq",))
    m.mount("bike")
    with pytest.raises(RuleViolation) as err:
        m.ride("D5")
    assert err.value.rule == "ASL-BIC-01"


def test_asl_mov_06_wreck_check_across_a_declared_hexside(rules):
    """ASL-MOV-06 (D15.46): the hexside the board declares decides the Wreck Check: crossing a Double Crest hexside
    from C5 into D5 rolls the dr (6: wreck, the rider broken and dismounted in C5, the higher hex he left); the same
    hexes joined by a normal hexside roll nothing.
    Source: D15.46
    """
    hexes = {h.id: h for h in (Hex("C5", road="paved", level=1), Hex("D5", motorcycle_mp=F(1), level=1))}
    crest = Board(hexes, hexsides={frozenset(("C5", "D5")): Hexside.DOUBLE_CREST})
    m = Movement(rules, crest, riding_leader(rules), ("ldr",), dice=ScriptedDice([6]))
    m.start()
    m.ride("D5")
    wreck = [e for e in m.events if isinstance(e, WreckCheck)]
    assert len(wreck) == 1 and wreck[0].wrecked and wreck[0].dismount_hex == "C5"
    assert m.situation.unit("ldr").broken and m.situation.machine("cycle").riders == ()
    plain = Movement(rules, Board(hexes), riding_leader(rules), ("ldr",), dice=ScriptedDice([]))
    plain.start()
    plain.ride("D5")
    assert plain.situation.machine("cycle").motion is Motion.MOVING


# --- the scenario format ------------------------------------------------------------------------------

def base_data():
    return scenario_data(
        hex=[{"id": "C5", "road": "paved"}, {"id": "D5", "road": "paved"}],
        unit=[{"id": "ldr", "counter": "8-0", "hex": "C5"}],
        motorcycle=[{"id": "cyc", "type": "cycle", "machines": 1, "hex": "C5", "mp": 28, "vca": "ne/se"}],
        move=[{"id": "go", "units": ["ldr"], "steps": [{"action": "mount", "machine": "cyc"}, {"action": "start"},
                                                        {"action": "ride", "hex": "D5"}]}])


@pytest.mark.parametrize("mutate,field,value,rule", [
    (lambda d: d["hex"].append({"id": "A0"}), "hex[2].id", "A0", "ASL-MOV-03"),
    (lambda d: d["hex"].append({"id": "HH3"}), "hex[2].id", "HH3", "ASL-MOV-03"),
    (lambda d: d.update(hexside=[{"hexes": ["C5", "E5"], "kind": "road"}]), "hexside[0].hexes", "E5", "CLI-02"),
    (lambda d: (d["hex"].append({"id": "F5"}), d.update(hexside=[{"hexes": ["C5", "F5"], "kind": "normal"}])),
     "hexside[0].hexes", ["C5", "F5"], "ASL-MOV-03"),
    (lambda d: (d["hex"].append({"id": "D4"}), d.update(hexside=[{"hexes": ["C5", "D4"], "kind": "road"}])),
     "hexside[0].kind", "road", "B3"),
    (lambda d: d["motorcycle"][0].update(vca="east"), "motorcycle[0].vca", "east", "ASL-MOV-03"),
    (lambda d: d["move"][0]["steps"].append({"action": "change_vca", "vca": "up"}), "move[0].steps[3].vca", "up", "ASL-MOV-03"),
    (lambda d: d["motorcycle"][0].pop("vca"), "motorcycle.vca", "cyc", "ASL-MOV-03"),
    (lambda d: d["move"][0]["steps"].append({"action": "ride", "hex": "F5"}), "move[0].steps[3].hex", "F5", "CLI-02"),
])
def test_asl_mov_03_scenario_hexes_are_validated(mutate, field, value, rule):
    """ASL-MOV-03, CLI-02: coordinates off the board (A0: column A has rows 1-10; HH: the board ends at GG), hexsides
    between hexes that are not adjacent (C5-F5) or not hexes (E5), a road hexside without a road on both sides (D4),
    unknown VCA names, a riding counter without a VCA, a ride into a hex that is not on the board: refused on load,
    naming the field, the value and the rule.
    Source: seeds/asl/board.toml; D15.42
    """
    data = base_data()
    mutate(data)
    with pytest.raises((ScenarioError, RuleViolation)) as err:
        hardpoint.parse_scenario(data)
    assert (err.value.field, err.value.value, err.value.rule) == (field, value, rule), str(err.value)


def test_asl_mov_03_hexside_declarations_load(rules):
    """ASL-MOV-03: a [[hexside]] entry sets the kind of a hexside of the board; the VCA name of a counter is stored as
    its number (ne/se is hexspine 1, between hexsides ne = 1 and se = 2).
    Source: seeds/asl/board.toml
    """
    data = base_data()
    data["hexside"] = [{"hexes": ["D5", "C5"], "kind": "normal"}]
    data["hex"][1]["motorcycle_mp"] = 1
    scn = hardpoint.parse_scenario(data)
    assert scn.board.hexsides == {frozenset(("C5", "D5")): Hexside.NORMAL}
    assert scn.situation.machine("cyc").vca == 1
