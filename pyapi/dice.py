"""Dice: expressions, exact distributions, counter-based and scripted sources.

- DICE-01: `parse_dice` accepts the expressions the rules write (`1d`, `2d+3`,
  `1d-3`, `4d`, ASL `dr` and `DR`) and nothing else.
- DICE-02: `DiceExpr.distribution()` is exact (integer outcomes to Fractions);
  totals never go below 0.
- DICE-03: `die_face(seed, trial, k)` is the k-th d6 of trial t under seed s,
  a pure function (docs/dice.md). `SeededDice` draws from it.
- DICE-04: `ScriptedDice` replays given faces; running out is `DiceExhausted`.

Rules never call a random module: they take a dice source as a parameter.
A random choice that is more than one roll (a pick among n that re-rolls
faces with no candidate, a table rolled again on some rows) is a chance
point (`Pick`, `Roll`): an object that states every outcome with its exact
probability (`outcomes()`) and draws exactly the dice the rules always drew
(`draw(dice)`). Rules resolve one with `chance(dice, point)`: a seeded or
scripted source draws it, the exact enumerator (hardpoint.chance) branches
over its outcomes, re-roll loops included, without rolling.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any, Callable, Hashable, Iterable, Protocol, Sequence

from .errors import DiceError, DiceExhausted
from .events import DiceRolled, Event, Note

__all__ = [
    "DiceExpr",
    "parse_dice",
    "Distribution",
    "DiceSource",
    "SeededDice",
    "ScriptedDice",
    "RiggedDice",
    "mix64",
    "stream_key",
    "die_face",
    "face_from_key",
    "at_least",
    "MASK64",
    "ChancePoint",
    "Pick",
    "Roll",
    "chance",
    "total_classes",
]

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
MUL1 = 0xBF58476D1CE4E5B9
MUL2 = 0x94D049BB133111EB

Distribution = dict[int, Fraction]

_EXPR = re.compile(r"^(?P<n>[1-9][0-9]?)d(?P<six>6)?(?:(?P<sign>[+-])(?P<bonus>[1-9][0-9]?))?$")


@dataclass(frozen=True)
class DiceExpr:
    """`count` six-sided dice plus `bonus` (may be negative), floored at `floor`."""

    count: int
    bonus: int = 0
    text: str = ""
    floor: int = 0

    def __str__(self) -> str:
        return self.text or (f"{self.count}d" + (f"{self.bonus:+d}" if self.bonus else ""))

    @property
    def minimum(self) -> int:
        return max(self.floor, self.count + self.bonus)

    @property
    def maximum(self) -> int:
        return max(self.floor, 6 * self.count + self.bonus)

    def total(self, faces: Sequence[int]) -> int:
        """The result of the given faces: their sum plus the bonus, never below the floor (DICE-02)."""
        return max(self.floor, sum(faces) + self.bonus)

    def distribution(self) -> Distribution:
        """Exact distribution of the total as Fractions (DICE-02)."""
        return dict(_distribution(self.count, self.bonus, self.floor))


@cache
def _sum_weights(count: int) -> tuple[tuple[int, int], ...]:
    weights = Counter({0: 1})
    for _ in range(count):
        nxt: Counter[int] = Counter()
        for s, w in weights.items():
            for f in range(1, 7):
                nxt[s + f] += w
        weights = nxt
    return tuple(sorted(weights.items()))


@cache
def _distribution(count: int, bonus: int, floor: int) -> tuple[tuple[int, Fraction], ...]:
    denom = 6**count
    out: Counter[int] = Counter()
    for s, w in _sum_weights(count):
        out[max(floor, s + bonus)] += w
    return tuple((k, Fraction(v, denom)) for k, v in sorted(out.items()))


def parse_dice(text: str) -> DiceExpr:
    """Parse a dice expression as the rules write it (DICE-01).

    `Nd`, `Nd+M`, `Nd-M` (Car Wars, N and M from 1 to 99), the same written
    `Nd6`, `Nd6+M`, `Nd6-M` (as the output writes "needs 10 on 2d6"), `dr`
    (one d6) and `DR` (two d6) for ASL. Anything else raises DiceError naming
    the text.
    """
    if not isinstance(text, str):
        raise DiceError("a dice expression must be a string", field="dice", value=text, rule="DICE-01")
    if text == "dr":
        return DiceExpr(1, 0, "dr", floor=1)
    if text == "DR":
        return DiceExpr(2, 0, "DR", floor=2)
    m = _EXPR.match(text.strip())
    if not m or text != text.strip():
        raise DiceError(
            "not a dice expression the rules use (expected Nd, Nd+M, Nd-M, Nd6, Nd6+M, Nd6-M, dr or DR)",
            field="dice", value=text, rule="DICE-01",
        )
    bonus = int(m["bonus"] or 0) * (-1 if m["sign"] == "-" else 1)
    return DiceExpr(int(m["n"]), bonus, text)


_D1 = parse_dice("1d")


def at_least(dist: Distribution, n: int) -> Fraction:
    """P(total >= n) of a distribution."""
    return sum((p for v, p in dist.items() if v >= n), Fraction(0))


# --- counter-based generator (DICE-03, docs/dice.md) ------------------------

def mix64(z: int) -> int:
    """SplitMix64 step: add the golden gamma, then the two xor-shift-multiply rounds."""
    z = (z + GOLDEN) & MASK64
    z = ((z ^ (z >> 30)) * MUL1) & MASK64
    z = ((z ^ (z >> 27)) * MUL2) & MASK64
    return z ^ (z >> 31)


def stream_key(seed: int, trial: int) -> int:
    """The key of trial `trial` under `seed`: mix64(mix64(seed) xor trial)."""
    return mix64(mix64(seed & MASK64) ^ (trial & MASK64))


def face_from_key(key: int, k: int) -> int:
    """The k-th d6 of the stream with this key: 1 + ((mix64(key xor k) >> 32) * 6 >> 32)."""
    return 1 + ((((mix64(key ^ (k & MASK64)) >> 32) * 6) >> 32))


def die_face(seed: int, trial: int, k: int) -> int:
    """The k-th d6 (k from 0) of trial `trial` under `seed`: a pure function (DICE-03)."""
    return face_from_key(stream_key(seed, trial), k)


class DiceSource(Protocol):
    """What every rule takes to roll: faces one at a time, each with its reason.

    A source may also offer `chance(point)` (the sources here do): resolve a
    chance point. Rules call the module function `chance(dice, point)`, which
    falls back on `point.draw(dice)` for a source without it.
    """

    def d6(self) -> int: ...

    def roll(self, expr: DiceExpr | str, why: str, rule: str = "") -> DiceRolled: ...


# --- chance points -----------------------------------------------------------

Outcome = tuple[Any, tuple[Event, ...], Fraction]   # (value given to the rule, events to log, probability)


class ChancePoint(Protocol):
    """A random choice as the rules state it: every outcome with its exact probability, and the
    dice that decide it when rolled (FAST-02, DICE-04)."""

    why: str
    rule: str

    def outcomes(self, by_face: bool = False) -> list[Outcome]: ...

    def draw(self, dice: DiceSource) -> tuple[Any, list[Event]]: ...


def chance(dice: DiceSource, point: ChancePoint) -> tuple[Any, list[Event]]:
    """Resolve a chance point with a dice source: `(value, events)`, the events (every die rolled,
    re-rolls included, and notes) for the caller's log. A source with a `chance` method decides
    (the exact enumerator branches there); any other draws the point's dice."""
    method = getattr(dice, "chance", None)
    if method is not None:
        return method(point)
    return point.draw(dice)


@cache
def _faces_by_total(count: int, bonus: int, floor: int) -> tuple[tuple[int, tuple[int, ...], int], ...]:
    """Per total of `count` dice plus `bonus` (floored): one face tuple giving it and the number of face tuples."""
    import itertools

    seen: dict[int, list] = {}
    for faces in itertools.product(range(1, 7), repeat=count):
        t = max(floor, sum(faces) + bonus)
        if t in seen:
            seen[t][1] += 1
        else:
            seen[t] = [faces, 1]
    return tuple((t, f, n) for t, (f, n) in sorted(seen.items()))


def total_classes(expr: DiceExpr, key: Callable[[int], Hashable] | None = None,
                  by_face: bool = False) -> list[tuple[Hashable, tuple[int, ...], int]]:
    """The outcomes of a roll as the rule reads them: (class, one face tuple of it, number of face tuples).

    `key(total)` is what the rule reads of the total (None: the total itself); `by_face=True`
    gives every face tuple on its own (its class is then the faces)."""
    if by_face:
        import itertools

        return [(f, f, 1) for f in itertools.product(range(1, 7), repeat=expr.count)]
    out: dict[Hashable, list] = {}
    for t, faces, n in _faces_by_total(expr.count, expr.bonus, expr.floor):
        k = t if key is None else key(t)
        if k in out:
            out[k][2] += n
        else:
            out[k] = [k, faces, n]
    return [tuple(v) for v in out.values()]  # type: ignore[misc]


@dataclass(frozen=True)
class Pick:
    """Chance point: a uniform pick among `n` candidates, index 0..n-1 (docs/rulings.md, "random picks").

    Rolled: one candidate, no roll; up to six, one die with the faces split evenly and the rest
    re-rolled (4 candidates: re-roll 5-6); up to 36, two dice read as 6*(first-1)+(second-1),
    re-rolled from the largest multiple of n. Exactly: n outcomes of 1/n, whatever the re-rolls.
    """

    n: int
    why: str
    rule: str = ""

    def __post_init__(self) -> None:
        if self.n <= 0:
            raise ValueError("nothing to pick from")
        if self.n > 36:
            raise ValueError("random picks among more than 36 candidates are not supported")

    def outcomes(self, by_face: bool = False) -> list[Outcome]:
        return list(_pick_outcomes(self.n))

    def draw(self, dice: DiceSource) -> tuple[int, list[Event]]:
        n = self.n
        if n == 1:
            return 0, []
        rolls: list[Event] = []
        if n <= 6:
            per = 6 // n
            while True:
                r = dice.roll(_D1, self.why, self.rule)
                rolls.append(r)
                if r.total <= per * n:
                    return (r.total - 1) // per, rolls
        per = 36 // n
        while True:
            a = dice.roll(_D1, self.why, self.rule)
            b = dice.roll(_D1, self.why, self.rule)
            rolls += [a, b]
            value = 6 * (a.total - 1) + (b.total - 1)
            if value < per * n:
                return value // per, rolls


@cache
def _pick_outcomes(n: int) -> tuple[Outcome, ...]:
    p = Fraction(1, n)
    return tuple((i, (), p) for i in range(n))


@dataclass(frozen=True)
class Roll:
    """Chance point: one roll of `expr` of which the rule reads only `key(total)` (None: the total),
    rolled again while `key(total)` is in `again` (each re-roll logged with `again_note`).

    The value is the accepted `DiceRolled`. Exactly: one outcome per class of totals the rule
    tells apart (a table's rows, hit or miss), with its probability given that no re-roll class
    came up, and a roll whose faces give a total of that class.
    """

    expr: DiceExpr
    why: str
    rule: str = ""
    key: Callable[[int], Hashable] | None = field(default=None, compare=False)
    again: frozenset = frozenset()
    again_note: str = ""

    def outcomes(self, by_face: bool = False) -> list[Outcome]:
        classes = total_classes(self.expr, self.key, by_face)
        keep = [(k, faces, n) for k, faces, n in classes
                if (self.key(self.expr.total(faces)) if self.key else self.expr.total(faces)) not in self.again]
        if not keep:
            raise ValueError(f"{self.why!r}: every result of {self.expr} is rolled again: the roll never ends ({self.rule})")
        total = sum(n for _, _, n in keep)
        e = str(self.expr)
        return [(DiceRolled(why=self.why, expr=e, faces=faces, total=self.expr.total(faces), rule=self.rule), (), Fraction(n, total))
                for _, faces, n in keep]

    def draw(self, dice: DiceSource) -> tuple[DiceRolled, list[Event]]:
        events: list[Event] = []
        if self.again:
            self.outcomes()                 # a roll that can never be kept is an error, not an endless loop
        while True:
            r = dice.roll(self.expr, self.why, self.rule)
            events.append(r)
            if self.again and (self.key(r.total) if self.key else r.total) in self.again:
                if self.again_note:
                    events.append(Note(self.again_note, self.rule))
                continue
            return r, events


class _BaseDice:
    def d6(self) -> int:  # pragma: no cover - overridden
        raise NotImplementedError

    def roll(self, expr: DiceExpr | str, why: str, rule: str = "") -> DiceRolled:
        """Roll an expression; returns the event with every face and the total."""
        e = parse_dice(expr) if isinstance(expr, str) else expr
        faces = tuple(self.d6() for _ in range(e.count))
        return DiceRolled(why=why, expr=str(e), faces=faces, total=e.total(faces), rule=rule)

    def chance(self, point: ChancePoint) -> tuple[Any, list[Event]]:
        """Resolve a chance point by rolling its dice (the same dice, in the same order, the rules always drew)."""
        return point.draw(self)


class SeededDice(_BaseDice):
    """Counter-based dice: the k-th face drawn is `die_face(seed, trial, k)` (DICE-03)."""

    def __init__(self, seed: int, trial: int = 0, start: int = 0) -> None:
        for name, v in (("seed", seed), ("trial", trial), ("start", start)):
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= MASK64:
                raise DiceError("must be an integer from 0 to 2**64-1", field=name, value=v, rule="DICE-03")
        self.seed = seed
        self.trial = trial
        self.count = start
        self._key = stream_key(seed, trial)

    def d6(self) -> int:
        face = face_from_key(self._key, self.count)
        self.count += 1
        return face

    def __repr__(self) -> str:
        return f"SeededDice(seed={self.seed}, trial={self.trial}, drawn={self.count})"


class ScriptedDice(_BaseDice):
    """Dice that replay the given faces in order (DICE-04)."""

    def __init__(self, faces: Iterable[int]) -> None:
        faces = list(faces)
        for i, f in enumerate(faces):
            if not isinstance(f, int) or isinstance(f, bool) or not 1 <= f <= 6:
                raise DiceError("a scripted die face must be an integer from 1 to 6", field=f"faces[{i}]", value=f, rule="DICE-04")
        self.faces = faces
        self.used = 0

    def d6(self) -> int:
        if self.used >= len(self.faces):
            raise DiceExhausted(
                f"scripted dice exhausted: {len(self.faces)} face(s) given, another one needed (DICE-04)"
            )
        face = self.faces[self.used]
        self.used += 1
        return face

    @property
    def remaining(self) -> int:
        return len(self.faces) - self.used

    def __repr__(self) -> str:
        return f"ScriptedDice({self.faces!r}, used={self.used})"


class RiggedDice(_BaseDice):
    """Chosen faces for the rolls whose reason starts with a given text; every other die from `base`.

    `RiggedDice(SeededDice(1), {"ft_t1 to hit": [6, 6]})` forces that to-hit
    roll and lets the rest fall as the seed says: a frontend can enter the
    physical dice of one roll, a test can force one event of a long game
    (DICE-04). A rigged roll consumes no dice of `base`.
    """

    def __init__(self, base: DiceSource, by_reason: dict[str, Iterable[int]]) -> None:
        self.base = base
        self.scripts = {k: ScriptedDice(v) for k, v in by_reason.items()}

    def d6(self) -> int:
        return self.base.d6()

    def roll(self, expr: DiceExpr | str, why: str, rule: str = "") -> DiceRolled:
        for key, script in self.scripts.items():
            if why.startswith(key):
                e = parse_dice(expr) if isinstance(expr, str) else expr
                faces = tuple(script.d6() for _ in range(e.count))
                return DiceRolled(why=why, expr=str(e), faces=faces, total=e.total(faces), rule=rule)
        return self.base.roll(expr, why, rule)

    def unused(self) -> dict[str, int]:
        """Scripted faces not rolled yet, by reason."""
        return {k: s.remaining for k, s in self.scripts.items() if s.remaining}
