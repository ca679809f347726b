"""Helpers to build ASL situations and scenarios in tests."""
import copy
from fractions import Fraction

import pytest

import hardpoint
from hardpoint.asl.enums import Capacity, MachineType, Motion
from hardpoint.asl.units import Board, Hex, Motorcycle, make_unit


@pytest.fixture
def rules():
    return hardpoint.default_rules()


def unit(rules, id, counter, hex="h", side="german", **kw):
    return make_unit(rules, id, counter, hex=hex, side=side, **kw)


# A road along row 5 of a geomorphic board: START (open ground, no road), OPEN (open ground with the road), then
# R(1) = D5, R(2) = E5, ... Each road hex lies across the ne or se hexside of the one before (the odd columns sit half
# a hex lower), both beside the hexspine "ne/se" (number 1), the VCA a motorcycle is given by default here.
START, OPEN = "B5", "C5"
NE_SE = 1


def R(i):
    """The i-th road hex after OPEN: D5, E5, ... (column index 2 + i)."""
    from hardpoint.asl.geometry import column_letters
    return f"{column_letters(2 + i)}5"


def cycle(id="cycle", machines=3, hex="h", mtype=MachineType.CYCLE, mp=28, motion=Motion.STOPPED, riders=(), side="german", **kw):
    if mtype is not MachineType.BICYCLE:
        kw.setdefault("vca", NE_SE)
    return Motorcycle(id, mtype, Capacity(machines), hex, side, None if mtype is MachineType.BICYCLE else mp, motion=motion,
                      riders=tuple(riders), **kw)


def board(*hexes, **kw):
    hs = {h.id: h for h in hexes} if hexes else {"h": Hex("h")}
    return Board(hs, **kw)


def road_board(n=12, **kw):
    """START (open ground), OPEN (open ground with a road), R(1)..R(n) (road), on row 5."""
    hexes = [Hex(START), Hex(OPEN, road="paved")] + [Hex(R(i), road="paved") for i in range(1, n + 1)]
    return board(*hexes, **kw)


def scenario_data(**parts):
    data = {"scenario": {"name": "test", "ruleset": "asl"}}
    for k, v in parts.items():
        data[k] = copy.deepcopy(v)
    return data


def build(**parts):
    return hardpoint.parse_scenario(scenario_data(**parts))


def d15_55_data():
    """The D15.55 example as scenario data (tests vary it)."""
    return scenario_data(
        hex=[{"id": "target", "terrain": "open_ground"}],
        unit=[{"id": "crew", "counter": "2-2-8", "hex": "target", "side": "german"},
              {"id": "squad", "counter": "4-6-7", "hex": "target", "side": "german"},
              {"id": "leader", "counter": "8-0", "hex": "target", "side": "german"}],
        motorcycle=[{"id": "cycle", "type": "cycle", "machines": 3, "hex": "target", "side": "german", "mp": 28,
                     "motion": "motion", "riders": ["squad", "leader"]}],
        fire=[{"id": "gun", "kind": "ordnance", "weapon": "75mm Gun", "target": "target", "range": 6, "fp": 12}],
    )


def events_of(result, cls):
    return [e for e in result.events if isinstance(e, cls)]


F = Fraction
