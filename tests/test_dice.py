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


@pytest.mark.parametrize("bad", ["", "d6", "2d8", "2d66", "1d+", "0d", "1D", "2 d", "1d-0", "x", "1d+3+1", " 1d", "Dr", "dR", "3"])
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


# --- hand-worked cases: each fails when the rule it names is broken (issue 19) -------------------------


@pytest.mark.parametrize("text,lo,hi", [("1d", 1, 6), ("2d", 2, 12), ("4d", 4, 24), ("2d+3", 5, 15), ("1d-3", 0, 3),
                                        ("1d-5", 0, 1), ("dr", 1, 6), ("DR", 2, 12)])
def test_dice_01_least_and_greatest_totals(text, lo, hi):
    """DICE-01/DICE-02: the least and greatest total of each expression the rules write.

    Source: by hand: N dice give N to 6N; the bonus shifts both; damage is floored at 0, so 1d-5 gives 0 or 1.
    """
    e = parse_dice(text)
    assert (e.minimum, e.maximum) == (lo, hi)
    assert (min(e.distribution()), max(e.distribution())) == (lo, hi)


@pytest.mark.parametrize("bad", [3, None, 2.0, b"1d"])
def test_dice_01_a_non_string_is_rejected(bad):
    """DICE-01: a dice expression must be text: anything else is a DiceError naming the field and the rule."""
    with pytest.raises(DiceError) as err:
        parse_dice(bad)
    assert err.value.field == "dice" and "DICE-01" in str(err.value)


def test_dice_02_asl_dr_and_DR_are_exact():
    """DICE-02 (ASL): dr is one d6, each face 1/6; DR is 2d6, 7 the commonest total (6 ways in 36), 2 and 12 one way each.

    Source: by hand, counting the 36 ordered pairs of two dice.
    """
    assert parse_dice("dr").distribution() == {f: Fraction(1, 6) for f in range(1, 7)}
    dr2 = parse_dice("DR").distribution()
    assert dr2 == {t: Fraction(6 - abs(t - 7), 36) for t in range(2, 13)}
    assert (str(parse_dice("dr")), str(parse_dice("DR"))) == ("dr", "DR")
    assert parse_dice("DR").total([1, 1]) == 2 and parse_dice("dr").total([6]) == 6


def test_dice_02_totals_and_outcomes_are_integers():
    """DICE-02: outcomes are integers (not floats that merely compare equal) mapped to Fractions.

    Source: DICE-02 ("integers mapped to fractions.Fraction"); 2d+3 on faces 1, 1 totals 5.
    """
    e = parse_dice("2d+3")
    assert type(e.bonus) is int and e.bonus == 3
    assert type(parse_dice("1d-4").bonus) is int and parse_dice("1d-4").bonus == -4
    assert type(e.total([1, 1])) is int and e.total([1, 1]) == 5
    for text in ("1d-3", "2d+3", "DR"):
        assert all(type(k) is int for k in parse_dice(text).distribution())


def test_dice_02_expression_defaults_are_no_bonus_and_a_floor_of_zero():
    """DICE-02: `DiceExpr(count)` is plain Nd; `DiceExpr(count, bonus)` never goes below 0 (1d-3 does 0 half the time).

    Source: by hand: 2d has 36 outcomes, 1 of them a 2; 1d-3 gives 0 on faces 1, 2, 3.
    """
    from hardpoint.dice import DiceExpr

    two = DiceExpr(2)
    assert (two.bonus, two.floor, str(two)) == (0, 0, "2d")
    assert two.distribution()[2] == Fraction(1, 36) and two.total([3, 4]) == 7
    minus = DiceExpr(1, -3)
    assert minus.distribution() == {0: Fraction(1, 2), 1: Fraction(1, 6), 2: Fraction(1, 6), 3: Fraction(1, 6)}
    assert minus.total([1]) == 0 and minus.minimum == 0


def test_dice_02_chance_of_meeting_or_beating_a_number():
    """DICE-02 / CW-HIT-01: P(2d6 >= n): 10 or more is 6/36 (the rules' worked to-hit needs 10), 12 is 1/36,
    13 is impossible, 2 is certain.

    Source: by hand: totals 10, 11, 12 come up 3 + 2 + 1 = 6 ways of 36.
    """
    from hardpoint.dice import at_least

    two = parse_dice("2d").distribution()
    assert at_least(two, 10) == Fraction(1, 6)
    assert at_least(two, 12) == Fraction(1, 36)
    assert at_least(two, 13) == 0 and type(at_least(two, 13)) is Fraction
    assert at_least(two, 2) == 1
    assert at_least(parse_dice("1d-3").distribution(), 1) == Fraction(1, 2)


def test_dice_03_seed_trial_and_start_cover_the_whole_64_bit_range():
    """DICE-03: seeds, trials and start counts from 0 to 2**64-1 are accepted, and nothing else (no bools, no floats).

    Source: docs/dice.md: the generator works on 64-bit unsigned integers.
    """
    assert SeededDice(0).d6() == die_face(0, 0, 0)
    assert SeededDice(MASK64, trial=MASK64, start=MASK64).d6() == die_face(MASK64, MASK64, MASK64)
    assert SeededDice(7).d6() == die_face(7, 0, 0) and SeededDice(7, 3).d6() == die_face(7, 3, 0)
    for kwargs, field in [(dict(seed=True), "seed"), (dict(seed=1.0), "seed"), (dict(seed=1, start=-1), "start"),
                          (dict(seed=1, trial=False), "trial"), (dict(seed=2**64), "seed")]:
        with pytest.raises(DiceError) as err:
            SeededDice(**kwargs)
        assert err.value.field == field and "DICE-03" in str(err.value)


def test_dice_04_scripted_faces_one_and_six_are_accepted():
    """DICE-04: 1 and 6, the edges of a d6, are valid scripted faces; the count of faces left is exact.

    Source: a d6 has faces 1 to 6.
    """
    d = ScriptedDice([1, 6, 6])
    assert d.remaining == 3
    assert d.d6() == 1 and d.remaining == 2
    assert d.roll("1d", "x").faces == (6,) and d.remaining == 1


def test_dice_04_rigged_dice_single_faces_and_what_is_left():
    """DICE-04: a bare d6 from RiggedDice comes from the base source; unused() lists the forced faces not rolled yet.

    Source: RiggedDice's contract (docs/dice.md): forced rolls by reason, every other die from the base.
    """
    from hardpoint import RiggedDice

    d = RiggedDice(SeededDice(4), {"x to hit": [2, 3, 4], "y": [5]})
    assert d.d6() == die_face(4, 0, 0)
    assert d.roll("1d", "x to hit").faces == (2,)
    assert d.unused() == {"x to hit": 2, "y": 1}
    assert d.roll("1d", "z").faces == (die_face(4, 0, 1),)


# --- chance points (DICE-04, FAST-02): the same dice when rolled, every outcome when enumerated -------------


@pytest.mark.parametrize("n,faces,index,used", [
    (1, [], 0, 0),                 # one candidate: no roll
    (2, [4], 1, 1), (2, [3], 0, 1),  # 1-3 first, 4-6 second
    (3, [2], 0, 1), (3, [3], 1, 1), (3, [6], 2, 1),
    (4, [5, 6, 3], 2, 3),          # 5 and 6 rolled again
    (4, [4], 3, 1), (5, [6, 6, 5], 4, 3), (6, [4], 3, 1),
    (10, [6, 6, 1, 1], 0, 4),      # two dice read 0..35, 30 and over rolled again
    (10, [2, 1], 2, 2), (10, [5, 6], 9, 2), (36, [6, 6], 35, 2), (7, [1, 6], 1, 2),
])
def test_dice_04_a_random_pick_draws_the_dice_the_rules_state(n, faces, index, used):
    """DICE-04 / FAST-02: a uniform pick among n: one die split evenly (faces beyond the largest multiple of n
    rolled again), two dice read as 6 * (first - 1) + (second - 1) beyond six candidates.

    Source: docs/rulings.md "random picks", worked by hand: among 10, (2, 1) reads 6, in the third block of
    three; among 7, (1, 6) reads 5, in the second block of five.
    """
    from hardpoint.dice import Pick, chance

    d = ScriptedDice(faces)
    value, events = chance(d, Pick(n, "pick a weapon", "CW-DMG-02"))
    assert value == index and d.used == used
    assert [e.faces for e in events] == [(f,) for f in faces]
    assert all(e.why == "pick a weapon" and e.rule == "CW-DMG-02" for e in events)
    assert Pick(n, "x").outcomes() == [(i, (), Fraction(1, n)) for i in range(n)]


def test_dice_04_a_pick_needs_one_to_thirty_six_candidates():
    """DICE-04: a pick among none, or among more than 36, is an error."""
    from hardpoint.dice import Pick

    for bad in (0, -1, 37):
        with pytest.raises(ValueError):
            Pick(bad, "x")
    assert Pick(36, "x").n == 36 and Pick(1, "x").n == 1


def test_dice_04_a_roll_read_by_class_and_rolled_again_on_some_classes():
    """DICE-04 / FAST-02: a roll of which the rule reads one class of the total (hit or miss, a table's rows):
    rolled, it is the accepted roll with every re-roll and its note in the events; enumerated, one outcome
    per class kept, with its probability given that no re-rolled class came up.

    Source: by hand: 2d6 of 7 or more comes up 21 ways in 36 (from (1, 6)), under 7 15 ways (from (1, 1));
    a d6 rolled again on a 6 gives 1 to 5 with 1/5 each.
    """
    from hardpoint.dice import Roll, chance, total_classes

    two = parse_dice("2d")
    assert total_classes(two, key=lambda t: t >= 7) == [(False, (1, 1), 15), (True, (1, 6), 21)]
    assert total_classes(two) == [(t, next(f for f in itertools.product(range(1, 7), repeat=2) if sum(f) == t),
                                   6 - abs(t - 7)) for t in range(2, 13)]
    assert len(total_classes(two, by_face=True)) == 36 and total_classes(two, by_face=True)[7] == ((2, 2), (2, 2), 1)
    hit = Roll(two, "to hit", "CW-HIT-01", key=lambda t: t >= 7)
    assert [(o[0].total, o[2]) for o in hit.outcomes()] == [(2, Fraction(15, 36)), (7, Fraction(21, 36))]
    again = Roll(parse_dice("1d"), "side table", "CW-TGT-04", again=frozenset({6}), again_note="roll again")
    assert [(o[0].faces, o[2]) for o in again.outcomes()] == [((f,), Fraction(1, 5)) for f in range(1, 6)]
    d = ScriptedDice([6, 6, 3])
    value, events = chance(d, again)
    assert value.total == 3 and d.remaining == 0
    assert [getattr(e, "faces", None) or e.text for e in events] == [(6,), "roll again", (6,), "roll again", (3,)]
    quiet = Roll(parse_dice("1d"), "x", again=frozenset({6}))
    assert [type(e).__name__ for e in chance(ScriptedDice([6, 2]), quiet)[1]] == ["DiceRolled", "DiceRolled"]
    plain = Roll(parse_dice("1d"), "x")
    assert chance(ScriptedDice([6]), plain)[0].total == 6
    never = Roll(parse_dice("1d"), "x", "CW-TGT-04", again=frozenset(range(1, 7)))
    with pytest.raises(ValueError, match="rolled again"):
        never.outcomes()
    with pytest.raises(ValueError, match="rolled again"):
        chance(ScriptedDice([1, 2, 3]), never)
    classes = Roll(two, "x", key=lambda t: "low" if t < 5 else "mid" if t < 10 else "high", again=frozenset({"mid"}))
    assert [(o[0].total, o[2]) for o in classes.outcomes()] == [(2, Fraction(6, 12)), (10, Fraction(6, 12))]


def test_dice_04_a_source_without_chance_draws_the_point_itself():
    """DICE-04: chance(dice, point) asks a source that resolves chance points (the exact enumerator) and
    otherwise rolls the point's dice on the source."""
    from hardpoint.dice import Pick, chance

    class Deciding:
        def chance(self, point):
            return "decided", []

    class Bare:
        def __init__(self):
            self.inner = ScriptedDice([5])

        def d6(self):
            return self.inner.d6()

        def roll(self, expr, why, rule=""):
            return self.inner.roll(expr, why, rule)

    assert chance(Deciding(), Pick(3, "x")) == ("decided", [])
    assert chance(Bare(), Pick(3, "x"))[0] == 2
    assert chance(rigged_over([4]), Pick(6, "x"))[0] == 3


def rigged_over(faces):
    from hardpoint import RiggedDice

    return RiggedDice(ScriptedDice(faces), {})


def _old_random_pick(dice, n):
    """The loop random picks were rolled with before they became chance points (docs/rulings.md, "random picks")."""
    if n == 1:
        return 0, 0
    used = 0
    if n <= 6:
        per = 6 // n
        while True:
            r = dice.d6()
            used += 1
            if r <= per * n:
                return (r - 1) // per, used
    per = 36 // n
    while True:
        a, b = dice.d6(), dice.d6()
        used += 2
        value = 6 * (a - 1) + (b - 1)
        if value < per * n:
            return value // per, used


def test_dice_03_pick_chance_point_draws_the_same_faces_as_the_old_loop():
    """DICE-03 / DICE-04 / FAST-02: a Pick among n (1 to 36) drawn from a seeded stream takes the same candidate
    with the same number of faces as the re-roll loop it replaced, so trial t still draws face(s, t, k) in the
    same order (the compiled kernel agrees); its exact outcomes are n of 1/n."""
    from fractions import Fraction

    from hardpoint.dice import Pick, SeededDice, chance

    for n in (1, 2, 3, 4, 5, 6, 7, 10, 11, 17, 36):
        for trial in range(40):
            new, old = SeededDice(12, trial), SeededDice(12, trial)
            index, rolls = chance(new, Pick(n, "which", "CW-DMG-02"))
            want, used = _old_random_pick(old, n)
            assert (index, new.count, len(rolls)) == (want, old.count, used), (n, trial)
        assert [p for _, _, p in Pick(n, "x").outcomes()] == [Fraction(1, n)] * n


def test_dice_02_roll_classes_count_the_bonus_and_the_floor():
    """DICE-02 / FAST-02: the classes of a roll with a bonus: 1d-3 gives 0 on faces 1 to 3 (3 ways, from (1,)),
    then 1, 2 and 3 one way each; 2d+3 starts at 5 from (1, 1).

    Source: by hand: 1d-3 totals face - 3, floored at 0.
    """
    from hardpoint.dice import total_classes

    assert total_classes(parse_dice("1d-3")) == [(0, (1,), 3), (1, (4,), 1), (2, (5,), 1), (3, (6,), 1)]
    assert total_classes(parse_dice("2d+3"))[0] == (5, (1, 1), 1)


def test_dice_01_nd6_is_the_same_expression_as_nd():
    """DICE-01: "2d6", "3d6-2" and "1d6+1" (as the output writes "needs 10 on 2d6") are 2d, 3d-2 and 1d+1: the same
    counts, bonuses and distributions; the text is kept as written."""
    for six, plain in (("2d6", "2d"), ("3d6-2", "3d-2"), ("1d6+1", "1d+1")):
        a, b = parse_dice(six), parse_dice(plain)
        assert (a.count, a.bonus, a.floor) == (b.count, b.bonus, b.floor) and a.distribution() == b.distribution()
        assert str(a) == six


def test_dice_04_a_dice_source_must_roll_its_own_d6():
    """DICE-04: the dice sources share `roll` and differ in `d6`; a source that does not give its own d6 is refused
    with NotImplementedError at its first roll (never a roll of None faces)."""
    from hardpoint.dice import _BaseDice

    class NoFaces(_BaseDice):
        pass

    with pytest.raises(NotImplementedError):
        NoFaces().d6()
    with pytest.raises(NotImplementedError):
        NoFaces().roll("2d", "a source without faces", "DICE-04")
    assert ScriptedDice([3, 4]).roll("2d", "the same roll from a source with faces").total == 7
