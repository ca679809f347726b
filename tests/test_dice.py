"""Dice: expressions, exact distributions, the counter-based generator, scripted dice."""
import itertools
import tomllib
from collections import Counter
from fractions import Fraction
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardpoint import DiceError, DiceExhausted, ScriptedDice, SeededDice, parse_dice
from hardpoint.dice import MASK64, die_face, mix64, stream_key


def vectors():
    return tomllib.loads(resources.files("hardpoint.seeds").joinpath("dice_vectors.toml").read_text())


@pytest.mark.parametrize("text,count,bonus", [("1d", 1, 0), ("2d", 2, 0), ("3d", 3, 0), ("1d-3", 1, -3),
                                              ("2d+3", 2, 3), ("1d-4", 1, -4), ("4d", 4, 0), ("12d+12", 12, 12)])
def test_dice_01_parses_rule_expressions(text, count, bonus):
    """DICE-01: the expressions the rules write parse to count and bonus."""
    e = parse_dice(text)
    assert (e.count, e.bonus) == (count, bonus)
    assert str(e) == text


def test_dice_01_asl_dr_and_DR():
    """DICE-01: ASL's dr is one d6 and DR two."""
    assert parse_dice("dr").count == 1
    assert parse_dice("DR").count == 2
    assert set(parse_dice("DR").distribution()) == set(range(2, 13))


@pytest.mark.parametrize("bad", ["", "d6", "2d6", "1d+", "0d", "1D", "2 d", "1d-0", "x", "1d+3+1", " 1d", "Dr", "dR", "3"])
def test_dice_01_rejects_anything_else_naming_the_text(bad):
    """DICE-01: anything else is a DiceError whose message quotes the bad text."""
    with pytest.raises(DiceError) as err:
        parse_dice(bad)
    assert repr(bad) in str(err.value)
    assert "DICE-01" in str(err.value)


def brute(count, bonus):
    out = Counter()
    for faces in itertools.product(range(1, 7), repeat=count):
        out[max(0, sum(faces) + bonus)] += 1
    n = 6**count
    return {k: Fraction(v, n) for k, v in out.items()}


@pytest.mark.parametrize("text", ["1d", "2d", "3d", "1d-3", "2d+3", "1d-4", "4d", "2d-2", "1d-5"])
def test_dice_02_distribution_is_exact_and_never_negative(text):
    """DICE-02: the distribution equals brute-force enumeration; damage never goes below 0."""
    e = parse_dice(text)
    dist = e.distribution()
    assert dist == brute(e.count, e.bonus)
    assert sum(dist.values()) == 1
    assert min(dist) >= 0
    assert all(isinstance(p, Fraction) for p in dist.values())


def test_dice_02_one_die_minus_three_does_zero_half_the_time():
    """DICE-02: `1d-3` can do 0 (faces 1 to 3), so P(0) = 1/2."""
    assert parse_dice("1d-3").distribution()[0] == Fraction(1, 2)
    assert parse_dice("1d-3").total([2]) == 0


def test_dice_03_splitmix_anchor():
    """DICE-03: mix64 is SplitMix64's output function: its first output from state 0."""
    assert mix64(0) == 0xE220A8397B1DCDAF


def test_dice_03_reference_reproduces_test_vectors():
    """DICE-03: the reference reproduces every vector in seeds/dice_vectors.toml."""
    v = vectors()
    for m in v["mix64"]:
        assert mix64(int(m["input"], 16)) == int(m["output"], 16)
    for s in v["stream"]:
        seed, trial = int(s["seed"]), int(s["trial"])
        assert stream_key(seed, trial) == int(s["key"], 16)
        assert [die_face(seed, trial, k) for k in range(len(s["faces"]))] == s["faces"]
    for s in v["single"]:
        assert die_face(int(s["seed"]), int(s["trial"]), int(s["k"])) == s["face"]


def test_dice_03_compiled_reproduces_test_vectors():
    """DICE-03: the Cython kernel gives the same faces as the reference on the vectors and beyond."""
    fast = pytest.importorskip("hardpoint.fastcore._dice")
    import numpy as np

    v = vectors()
    for m in v["mix64"]:
        assert fast.mix64(int(m["input"], 16)) == int(m["output"], 16)
    for s in v["stream"]:
        seed, trial = int(s["seed"]), int(s["trial"])
        assert [fast.die_face(seed, trial, k) for k in range(len(s["faces"]))] == s["faces"]
    out = np.zeros((50, 20), dtype=np.uint8)
    fast.fill_faces(99, 1000, out)
    assert out.tolist() == [[die_face(99, 1000 + t, k) for k in range(20)] for t in range(50)]


@settings(max_examples=200, deadline=None)
@given(st.integers(0, MASK64), st.integers(0, MASK64), st.integers(0, 10**6))
def test_dice_03_seeded_stream_is_a_pure_function(seed, trial, start):
    """DICE-03: the k-th face of a SeededDice stream is die_face(seed, trial, k), wherever it starts."""
    d = SeededDice(seed, trial, start)
    faces = [d.d6() for _ in range(5)]
    assert faces == [die_face(seed, trial, start + k) for k in range(5)]
    assert all(1 <= f <= 6 for f in faces)


def test_dice_03_faces_are_uniform():
    """DICE-03: 60,000 faces fall evenly on 1..6 (chi-square well under the 0.1% critical value 20.5)."""
    c = Counter(die_face(5, t, k) for t in range(2000) for k in range(30))
    n = sum(c.values())
    chi2 = sum((c[f] - n / 6) ** 2 / (n / 6) for f in range(1, 7))
    assert chi2 < 20.5


def test_dice_03_trials_independent_of_batching():
    """DICE-03: trial t's faces do not depend on which other trials are drawn, or in what order."""
    forward = [[SeededDice(3, t).d6() for _ in range(4)] for t in range(10)]
    backward = [[SeededDice(3, t).d6() for _ in range(4)] for t in reversed(range(10))][::-1]
    assert forward == backward


def test_dice_03_bad_seed_is_rejected():
    """DICE-03: seeds are 64-bit unsigned integers."""
    with pytest.raises(DiceError, match="seed"):
        SeededDice(-1)
    with pytest.raises(DiceError, match="trial"):
        SeededDice(1, trial=2**64)


def test_dice_04_scripted_dice_force_outcomes():
    """DICE-04: scripted faces come back in order, through roll() with the reason and total."""
    d = ScriptedDice([6, 6, 2, 1, 1])
    r = d.roll("2d", "to hit")
    assert (r.faces, r.total, r.why) == ((6, 6), 12, "to hit")
    assert d.roll("3d-3", "damage").total == 1
    assert d.remaining == 0


def test_dice_04_too_few_scripted_dice_is_a_clear_error():
    """DICE-04: running out raises DiceExhausted saying how many were given."""
    d = ScriptedDice([3])
    with pytest.raises(DiceExhausted, match="1 face"):
        d.roll("2d", "to hit")


@pytest.mark.parametrize("bad", [0, 7, -1, 2.5, True, "3"])
def test_dice_04_scripted_faces_must_be_d6(bad):
    """DICE-04: a scripted face outside 1..6 is rejected, naming its position."""
    with pytest.raises(DiceError, match=r"faces\[1\]"):
        ScriptedDice([1, bad])


def test_dice_04_rigged_dice_force_one_roll_by_its_reason():
    """DICE-04: RiggedDice forces the rolls whose reason matches and draws every other die from its base source,
    which is not consumed by the forced roll."""
    from hardpoint import RiggedDice

    d = RiggedDice(SeededDice(4), {"a to hit": [6, 6]})
    forced = d.roll("2d", "a to hit")
    other = d.roll("2d", "b to hit")
    assert forced.faces == (6, 6)
    assert other.faces == (die_face(4, 0, 0), die_face(4, 0, 1))
    assert d.unused() == {}
    with pytest.raises(DiceExhausted):
        d.roll("1d", "a to hit again")
