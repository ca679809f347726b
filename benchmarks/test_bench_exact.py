"""Exact odds benchmarks (FAST-02, issue 12): each built-in attack's exact odds against icepool computing the same
distribution from a hand-written model of the rules (benchmarks/icepool_models.py).

Targets: every attack in at most 20 ms, and within 2x of icepool. icepool is an optional dependency
(`pip install -e .[bench]`): without it these benchmarks are skipped. tests/carwars/test_exact_icepool.py checks
that both give the same Fractions.
"""
import pytest

import hardpoint
from hardpoint.carwars.exact import exact_attack

from .conftest import SCALE, interleaved

pytest.importorskip("icepool")
from .icepool_models import attack_model, odds_from_die  # noqa: E402

ATTACKS = [("default", "laser_at_outrider"), ("default", "mg_at_stinger"), ("default", "rocket_at_shogun"),
           ("default", "rifle_at_rider"), ("cw_tohit_example", "mg_at_tire"), ("cw_trike_top_example", "mg_at_top"), ("cw_area_effect_example", "sweep")]
ROUNDS = 5 if SCALE >= 1 else 1


@pytest.mark.parametrize("scenario,attack", ATTACKS)
def test_fast_02_exact_attack_against_icepool(benchmark, report, scenario, attack):
    """FAST-02: one attack's exact odds (hardpoint.exact_attack) against icepool computing the same distribution,
    best of interleaved runs, one core. Targets: <= 20 ms; ours / icepool <= 2."""
    s = hardpoint.load_scenario(f"builtin:{scenario}")
    ours = lambda: exact_attack(s, attack)                         # noqa: E731
    theirs = lambda: odds_from_die(attack_model(s, attack))        # noqa: E731
    t_ours, t_ice = interleaved(ours, theirs, rounds=ROUNDS, reps=3)
    benchmark.pedantic(ours, rounds=ROUNDS, iterations=1)
    report(f"exact {scenario}:{attack}", exact_ms=t_ours * 1e3, icepool_ms=t_ice * 1e3, exact_over_icepool=t_ours / t_ice)
