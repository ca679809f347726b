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


def _asl_doc(name):
    import tomllib
    from importlib import resources

    return tomllib.loads(resources.files("hardpoint.seeds").joinpath(f"scenarios/{name}.toml").read_text(encoding="utf-8"))


class _DiceOneByOne:
    """The same chain without its closed forms: `exact_chain` then enumerates every die of every step."""

    def __init__(self, chain):
        self.chain = chain

    def step(self, state, dice):
        return self.chain.step(state, dice)

    def done(self, state):
        return self.chain.done(state)


def test_log_02_dr_classes_count_the_36_faces():
    """LOG-02, A7.9: the classes a DR is replayed by: the total alone for To Hit (11 classes), the total and whether
    it is doubles for the IFT (cowering). Source: two d6, 36 faces: 7 is 6/36 and never doubles; 4 is 1/36 doubles
    (2,2) and 2/36 not."""
    from hardpoint.asl.fire import _dr_classes

    def classes(doubles):    # (total, doubles) of each class's representative faces: its probability
        return {(a + b, a == b): p for (a, b), p in _dr_classes(doubles)}

    plain, split = classes(False), classes(True)
    assert {t for t, _ in plain} == set(range(2, 13)) and len(plain) == 11 and sum(plain.values()) == 1
    assert plain[(4, False)] == Fraction(3, 36) and plain[(7, False)] == Fraction(6, 36)   # (1,3) stands for all 4s
    assert sum(split.values()) == 1 and len(split) == 15      # 6 doubles totals, 9 totals of two different dice
    assert split[(4, True)] == Fraction(1, 36) and split[(4, False)] == Fraction(2, 36)
    assert split[(7, False)] == Fraction(6, 36) and (7, True) not in split
    assert split[(2, True)] == Fraction(1, 36) and (2, False) not in split


def test_asl_tgt_01_closed_forms_equal_every_die_enumerated():
    """ASL-TGT-01/02, FAST-02: the exact distribution of the D15.55 chain through its closed forms (DR classes for To
    Hit and the IFT, MC/PTC/NMC odds) equals the same chain with every die enumerated, also with the firer
    Inexperienced, and for an Inexperienced squad's small arms (cowering on IFT doubles, A7.9). Source: D15.55
    example."""
    import hardpoint
    from hardpoint.asl.chance import exact_chain

    docs = []
    for inexperienced in (False, True):
        doc = _asl_doc("asl_d15_55_gun_on_cycle")
        for f in doc["fire"]:
            f["inexperienced"] = inexperienced
        docs.append(doc)
    # small arms of an Inexperienced squad two hexes away at the same stack: the IFT's doubles matter (cowering)
    doc = _asl_doc("asl_d15_55_gun_on_cycle")
    doc["hex"].append({"id": "firing", "terrain": "open_ground"})
    doc["unit"].append({"id": "russians", "counter": "4-6-7", "hex": "firing", "side": "russian"})
    doc["fire"] = [{"id": "rifles", "kind": "small_arms", "target": "target", "range": 2, "firers": ["russians"],
                    "inexperienced": True}]
    docs.append(doc)
    for doc in docs:
        s = hardpoint.parse_scenario(doc)
        closed = exact_chain(s.chain(), s.initial())
        assert closed == exact_chain(_DiceOneByOne(s.chain()), s.initial(), max_states=10**6)


def test_asl_tgt_02_no_cowering_shift_without_doubles():
    """ASL-TGT-02, A7.9: the IFT roll's event records a cowering shift only on doubles: a (5, 2) is 0 columns.
    Source: D15.55 example, the 75mm's IFT DR of seed 0."""
    import hardpoint
    from hardpoint.asl.events import IFTRoll

    s = hardpoint.load_scenario("builtin:asl_d15_55_gun_on_cycle")
    (roll,) = [e for e in s.resolve(hardpoint.SeededDice(0)).events if isinstance(e, IFTRoll)]
    assert roll.roll.faces == (5, 2) and roll.cowering_shift == 0 and roll.column_used == roll.column == 12
