"""Area-effect attacks the phase refuses, each seen to happen (CW-DMG-07).

A single-phase scenario's area attack is checked by explain_phase (on load, and again when the phase is
explained or resolved); the refusal names the attack's field, the value and the rule.
"""
import pytest

import hardpoint
from hardpoint import RuleViolation, ScenarioError, ScriptedDice


def area(victims, defender_order=None):
    """The hunter's MG (area effect) at pedestrians a and b, half an inch apart, 4" ahead; a second car beside them."""
    attack = {"id": "s", "attacker": "c", "weapon": "mg", "target": "a", "victims": victims}
    if defender_order is not None:
        attack["defender_order"] = defender_order
    return {"scenario": {"name": "t", "ruleset": "carwars"},
            "vehicle": [{"id": "c", "design": "hunter", "speed": 0}, {"id": "car2", "design": "hunter", "x": 1.0, "y": 4.0, "speed": 0}],
            "pedestrian": [{"id": "a", "x": 0, "y": 4}, {"id": "b", "x": 0.5, "y": 4}],
            "attack": [attack]}


def test_cw_dmg_07_area_effect_is_against_pedestrians_only():
    """CW-DMG-07: area effect hits pedestrians within 1" of one another; a vehicle among the victims is refused,
    named. Once loaded, the same declaration handed to the phase again is refused the same way, and the arena is
    unchanged by the refused resolution."""
    with pytest.raises(RuleViolation) as err:
        hardpoint.parse_scenario(area(["a", "car2"]))
    assert (err.value.field, err.value.value, err.value.rule) == ("attack[0].victims", "car2", "CW-DMG-07")
    s = hardpoint.parse_scenario(area(["a", "b"]))
    s.attacks[0] = type(s.attacks[0])(**{**vars(s.attacks[0]), "victims": ("a", "car2")})
    before = repr(s.arena)
    for call in (s.explain, lambda: s.resolve(ScriptedDice([6] * 20))):
        with pytest.raises(RuleViolation) as err:
            call()
        assert (err.value.field, err.value.value, err.value.rule) == ("attack[0].victims", "car2", "CW-DMG-07")
    assert repr(s.arena) == before


def test_cw_dmg_07_defender_order_names_only_victims():
    """CW-DMG-07: the defender gives up victims in his order; a name that is not one of the victims is refused."""
    with pytest.raises(ScenarioError) as err:
        hardpoint.parse_scenario(area(["a", "b"], defender_order=["b", "z"]))
    assert (err.value.field, err.value.value, err.value.rule) == ("attack[0].defender_order", "z", "CW-DMG-07")
    assert hardpoint.parse_scenario(area(["a", "b"], defender_order=["b", "a"]))
