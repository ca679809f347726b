"""Carrying obstacles, hand-worked (CW-OBS-01): the square counts as data, and what a refused drop says; boulders by
size at the bounds of their classes, and what a refused boulder says (CW-OFF-03).

Each test asserts the outcome and the events (the move notes, the refusal's message, field and rule). Source:
SPEC CW-OBS-01 (a turn to pick it up, one square a turn while carrying, a turn to drop it; one square a phase).
"""
import pytest

import hardpoint
from hardpoint import RuleViolation, ScenarioError
from hardpoint.carwars import terrain
from hardpoint.carwars.terrain import Carrier, boulder

RULES = hardpoint.default_rules()


def test_cw_obs_01_squares_a_turn_while_carrying_are_data():
    """CW-OBS-01: with a house rule of two squares a turn while carrying, a pedestrian carrying a crate moves in phases
    1 and 3 of turn 3 and is refused a third square in phase 5, by the rule and with the state unchanged."""
    rules = RULES.with_overrides({"carwars": {"terrain": {"pedestrian": {"squares_per_turn_carrying": 2}}}})
    c, _ = Carrier("p").pick_up("crate", 2, rules=rules)
    c, e1 = c.move(3, 1, rules)
    c, e2 = c.move(3, 3, rules)
    assert [e.text for e in e1 + e2] == ["p moves one square (0.25 in) carrying crate in turn 3 phase 1",
                                         "p moves one square (0.25 in) carrying crate in turn 3 phase 3"]
    with pytest.raises(RuleViolation, match="carrying 'crate': 2 square\\(s\\) a turn") as err:
        c.move(3, 5, rules)
    assert (err.value.rule, err.value.field) == ("CW-OBS-01", "phase")


def test_cw_obs_01_squares_a_phase_are_data():
    """CW-OBS-01: with a house rule of two squares a phase, a free pedestrian moves twice in phase 1 and is refused a
    third; in phase 2 he moves again."""
    rules = RULES.with_overrides({"carwars": {"terrain": {"pedestrian": {"squares_per_phase": 2}}}})
    c, _ = Carrier("p").move(1, 1, rules)
    c, _ = c.move(1, 1, rules)
    with pytest.raises(RuleViolation, match="2 square\\(s\\) a phase") as err:
        c.move(1, 1, rules)
    assert err.value.field == "phase"
    c, events = c.move(1, 2, rules)
    assert [e.text for e in events] == ["p moves one square (0.25 in) in turn 1 phase 2"]


def test_cw_obs_01_a_refused_drop_says_why():
    """CW-OBS-01: a free pedestrian has nothing to drop ("carries nothing"); one picking up a crate this turn is told
    what he is doing. Both are refused by the rule, on the turn field."""
    with pytest.raises(RuleViolation, match="pedestrian 'p': carries nothing: nothing to drop") as err:
        Carrier("p").drop(1)
    assert (err.value.rule, err.value.field) == ("CW-OBS-01", "turn")
    c, _ = Carrier("p").pick_up("crate", 1)
    with pytest.raises(RuleViolation, match="pedestrian 'p': is picking up obstacle 'crate' this turn: nothing to drop"):
        c.drop(1, 3)


# --- CW-OFF-03: boulders -----------------------------------------------------------------------------------------

def test_cw_off_03_a_boulder_a_foot_across_within_the_tolerance_is_an_obstacle():
    """CW-OFF-03: up to about a foot across (the table's obstacle_max_ft, 1.0, compared with the module's 1e-9
    tolerance of measurement, inclusive) a boulder is an obstacle; at 1.01 ft it is a fixed barrier of
    ceil(12.5 x 1.01) = ceil(12.625) = 13 DP, shoved aside. Source: CW seed, Off-Road Terrain (boulders); our default
    DP of 12.5 a foot (seeds/carwars/terrain.toml [boulder])."""
    assert boulder(1.0 + terrain._EPS).kind == "obstacle"
    b = boulder(1.01)
    assert (b.kind, b.dp, b.shoved_aside) == ("fixed_barrier", 13, True)


@pytest.mark.parametrize("size,dp,span", [(1.5, 26, "1 to 25"), (3.0, 10, "at least 26"), (4.0, 40, "at least 50")])
def test_cw_off_03_a_refused_boulder_says_the_dp_its_size_allows(size, dp, span):
    """CW-OFF-03: a boulder over 1 and up to 2 ft has 1 to 25 DP (a range: both bounds named), a larger one more than
    25 (at least 26), a four-foot one at least 50 (open above): the refusal says which, by field."""
    with pytest.raises(ScenarioError) as err:
        boulder(size, dp)
    assert str(err.value) == f"dp={dp}: a {size:g}-ft boulder has {span} DP (CW-OFF-03)"
    assert (err.value.field, err.value.value, err.value.rule) == ("dp", dp, "CW-OFF-03")
