"""Helpers to build Car Wars scenarios in tests."""
import copy

import pytest

import hardpoint


def build(vehicles=(), attacks=(), arena=None, pedestrians=(), buildings=(), clouds=(), areas=(), history=(), rules=None, **extra):
    data = {"scenario": {"name": "test", "ruleset": "carwars"}}
    if arena:
        data["arena"] = dict(arena)
    for key, items in (("vehicle", vehicles), ("attack", attacks), ("pedestrian", pedestrians), ("building", buildings),
                       ("cloud", clouds), ("area", areas), ("history", history)):
        if items:
            data[key] = [copy.deepcopy(i) for i in items]
    if rules:
        data["rules"] = rules
    data.update(extra)
    return hardpoint.parse_scenario(data)


def car(id="car", x=0.0, y=0.0, facing=0.0, speed=20, design="hunter", **kw):
    return {"id": id, "design": design, "x": x, "y": y, "facing": facing, "speed": speed, **kw}


def attack(id="a", attacker="car", weapon="mg", target="target", aim="auto", **kw):
    return {"id": id, "attacker": attacker, "weapon": weapon, "target": target, "aim": aim, **kw}


def explain_one(**kw):
    return build(**kw).explain()[0]


def explain_only(attacks=(), **kw):
    """The breakdown of one attack, explained on the arena without declaring it (LOG-02): how an attack the
    scenario would refuse (no line of fire, CW-LOF-01) looks to `explain_attack`."""
    from hardpoint.carwars.attack import Attack, explain_attack

    s = build(**kw)
    a = dict(attacks[0])
    return explain_attack(s.arena, Attack(a.pop("id"), a.pop("attacker"), a.pop("weapon"), a.pop("target"), **a), s.rules)


def mods(breakdown):
    """{rule: [values]} of a breakdown's modifiers."""
    out = {}
    for m in breakdown.modifiers:
        out.setdefault(m.rule, []).append(m.value)
    return out


@pytest.fixture
def rules():
    return hardpoint.default_rules()


def both_backends(scenario, trials=400, seed=5, end_of_turn=False):
    """The compiled core and the reference on the same scenario and seed: identical hits, damage, every slot and
    every flag (ARCH-03). Returns the compiled batch."""
    from hardpoint.carwars.batch import run_batch

    pytest.importorskip("hardpoint.fastcore._carwars")
    ref = run_batch(scenario, trials, seed, backend="reference", end_of_turn=end_of_turn)
    com = run_batch(scenario, trials, seed, backend="compiled", threads=1, end_of_turn=end_of_turn)
    for a, b in ((ref.hit, com.hit), (ref.damage, com.damage), (ref.state, com.state), (ref.flags, com.flags)):
        assert (a == b).all()
    return com
