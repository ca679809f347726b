"""The firepower breakdown, hand-worked (ASL-FIRE-01, A7.22, LOG-02): every halving named in its line."""
from fractions import Fraction

from hardpoint.asl.fire import firepower

from .test_fire import rider_fire


def test_asl_fire_01_each_halving_of_a_sidecar_riders_fp_is_named(rules):
    """ASL-FIRE-01 / A7.22: a 4-FP squad riding a sidecar fires at 9 hexes (beyond its normal range) in the AFPh:
    4, long range /2, Mounted Fire x1/2, advancing fire /2 = 1/2; the breakdown's one line names each step.
    Source: D15.6 (Mounted Fire), A7.22."""
    scn = rider_fire("sidecar", fire={"id": "f", "kind": "small_arms", "target": "enemy_hex", "range": 9, "firers": ["squad"],
                                      "halvings": ["advancing fire"]})
    fp = firepower(rules, scn.situation, scn.fires[0])
    assert fp.total == Fraction(1, 2)
    assert fp.lines == ("squad: 4, long range /2 (A7.22), Mounted Fire x0.5 (ASL-FIRE-01), advancing fire /2 = 0.5",)
