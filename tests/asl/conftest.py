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


def cycle(id="cycle", machines=3, hex="h", mtype=MachineType.CYCLE, mp=28, motion=Motion.STOPPED, riders=(), side="german", **kw):
    return Motorcycle(id, mtype, Capacity(machines), hex, side, None if mtype is MachineType.BICYCLE else mp, motion=motion,
                      riders=tuple(riders), **kw)


def board(*hexes, **kw):
    hs = {h.id: h for h in hexes} if hexes else {"h": Hex("h")}
    return Board(hs, **kw)


def road_board(n=12, **kw):
    """start (open ground), open (open ground with a road), r1..rn (road)."""
    hexes = [Hex("start"), Hex("open", road="paved")] + [Hex(f"r{i}", road="paved") for i in range(1, n + 1)]
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
