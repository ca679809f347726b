"""FAST-02: exact_attack equals icepool computing the same distribution from a hand-written model of the rules
(benchmarks/icepool_models.py), Fraction for Fraction, on every built-in attack. icepool is optional: skipped
without it (`pip install -e .[test]` installs it)."""
import pytest

import hardpoint
from hardpoint.carwars.exact import exact_attack

pytest.importorskip("icepool")
from benchmarks.icepool_models import attack_model, odds_from_die  # noqa: E402

ATTACKS = [("default", "laser_at_outrider"), ("default", "mg_at_stinger"), ("default", "rocket_at_shogun"),
           ("default", "rifle_at_rider"), ("cw_tohit_example", "mg_at_tire"), ("cw_trike_top_example", "mg_at_top"), ("cw_area_effect_example", "sweep")]


@pytest.mark.parametrize("scenario,attack", ATTACKS)
def test_fast_02_exact_attack_equals_icepool(scenario, attack):
    """FAST-02 / CW-TGT-04..06 / CW-DMG-02..04: P(hit), the damage roll and every component's distribution after
    the attack are the same Fractions in hardpoint.exact_attack and in the icepool model (an independent
    statement of the rules: uniform dice for random picks, the cycle side table's weapon rows rolled again)."""
    s = hardpoint.load_scenario(f"builtin:{scenario}")
    ours = exact_attack(s, attack)
    theirs = odds_from_die(attack_model(s, attack))
    assert ours.p_hit == theirs["p_hit"]
    assert ours.damage == theirs["damage"]
    assert ours.component_dp == theirs["component_dp"]
    assert any(len(d) > 1 for d in ours.component_dp.values()) or attack == "rifle_at_rider"
