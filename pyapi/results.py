"""Results of many trials, the same shape for every rule set (ARCH-03, FAST-01, PROTO-01).

A batch is counted as `Outcome` rows with structured keys (the measure, the
unit, the attack, the part, the side, the turn), each a probability (a count
of trials where it happened) or an amount (a sum, a sum of squares and, where
kept, a histogram), with the exact value beside it when hardpoint knows it.
`BatchResult` holds them with the run's facts (trials, seed, backend, time,
whether it was interrupted) and, when per-trial arrays were kept, the rule
set's own view of them (`details`: Car Wars' hits, damage and component
values per trial; ASL's status and counters per trial).

    >>> o = Outcome("hit", attack="a1", count=30, n=100, exact=Fraction(1, 3))
    >>> round(o.estimate, 2), [round(x, 3) for x in o.interval()]
    (0.3, [0.219, 0.396])
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

__all__ = ["Outcome", "BatchResult", "wilson", "FORMAT", "shown_probability", "half_width"]

FORMAT = "hardpoint/1"
_Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (95% by default)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(0.0, p * (1 - p) / n + z * z / (4 * n * n))) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


SMALL = 1e-4     # FIGHT-11: an estimate under this is shown as a bound, with its count


def _digits(values: tuple[float, ...], at_least: int) -> int:
    """The fewest decimals (from `at_least`) at which the values print apart from each other and none that is not
    0 or 1 prints as 0 or 1 (so no interval shows a width or an end it does not have)."""
    d = at_least
    while d < 12:
        shown = [f"{x:.{d}f}" for x in values]
        edge = any(float(t) in (0.0, 1.0) and x not in (0.0, 1.0) for t, x in zip(shown, values))
        if len(set(shown)) == len(set(values)) and not edge:
            break
        d += 1
    return d


def shown_probability(count: int, n: int, exact: Fraction | None = None, digits: int = 4) -> tuple[str, str]:
    """FIGHT-11: a probability and its 95% interval as a person should read them: never an interval of zero width
    unless the figure is exact; a small estimate as a bound with its count ("< 0.0001 (3 of 100,000)"); none at all
    as "0 of 100,000", every one as "100,000 of 100,000"; otherwise with as many decimals as the interval needs for
    its ends to differ (and not to print as 0 or 1 when they are not).

        >>> shown_probability(0, 100_000)
        ('0 of 100,000', '0 - 0.00004')
        >>> shown_probability(42_770, 100_000)
        ('0.4277', '0.4246 - 0.4308')
    """
    if exact is not None:
        return f"{float(exact):.{digits}f} (exact)", f"{float(exact):.{digits}f} - {float(exact):.{digits}f}"
    if n <= 0:
        return "no trials", "0 - 1"
    lo, hi = wilson(count, n)
    lo, hi = (0.0 if lo < 1e-12 else lo), (1.0 if hi > 1.0 - 1e-12 else hi)
    p = count / n
    d = _digits((lo, p, hi), digits)
    interval = f"{lo:.{d}f} - {hi:.{d}f}".replace(f"{0.0:.{d}f} -", "0 -").replace(f"- {1.0:.{d}f}", "- 1")
    if count == 0 or count == n:
        return f"{count:,} of {n:,}", interval
    if p < SMALL:
        return f"< {SMALL:g} ({count:,} of {n:,})", interval
    if 1.0 - p < SMALL:
        return f"> {1 - SMALL:g} ({count:,} of {n:,})", interval
    return f"{p:.{d}f}", interval


def half_width(count: int, n: int) -> float:
    """FIGHT-11: half the width of a probability's 95% (Wilson) interval."""
    lo, hi = wilson(count, n)
    return (hi - lo) / 2


def _number(x: float) -> float | None:
    """A number for a JSON document: NaN (the standard error of one trial) is null, as JSON has no NaN (PROTO-01)."""
    return x if math.isfinite(x) else None


@dataclass(frozen=True)
class Outcome:
    """One counted outcome of a batch: what (`measure`), of what (`unit`, `attack`, `part`, `side`, `turn`, `weapon`).

    A probability counts the trials where it happened (`count` of `n`); an
    amount sums a value over the trials (`total`, `total_sq`, and `histogram`
    {value: trials} when kept). `exact` is the exact probability or mean when
    known (a Fraction).
    """

    measure: str
    unit: str | None = None
    attack: str | None = None
    part: str | None = None
    side: str | None = None
    turn: int | None = None
    weapon: str | None = None
    kind: str = "probability"          # or "amount"
    count: int = 0                      # probability: trials where it happened
    n: int = 0
    total: int = 0                      # amount: the sum over the trials
    total_sq: int = 0
    histogram: tuple[tuple[int, int], ...] | None = None
    exact: Fraction | None = None
    label: str = ""

    @property
    def estimate(self) -> float:
        """The probability (count / n) or the mean (total / n)."""
        if self.n <= 0:
            return 0.0
        return (self.count if self.kind == "probability" else self.total) / self.n

    @property
    def stderr(self) -> float:
        n = self.n
        if n <= 1:
            return float("nan") if n == 1 else 0.0
        m = self.estimate
        if self.kind == "probability":
            return math.sqrt(max(0.0, m * (1 - m)) / n)
        return math.sqrt(max(0.0, self.total_sq / n - m * m) / n)

    def interval(self) -> tuple[float, float]:
        """95% interval: Wilson for a probability, normal (mean +- 1.96 s.e.) for an amount."""
        if self.kind == "probability":
            return wilson(self.count, self.n)
        m, s = self.estimate, self.stderr
        return (m - _Z95 * s, m + _Z95 * s)

    def percentiles(self, qs: tuple[float, ...] = (0.5, 0.9, 0.99)) -> dict[float, int] | None:
        """Percentiles of an amount from its histogram (the smallest value with at least q of the trials at or below)."""
        if self.histogram is None or self.n <= 0:
            return None
        out: dict[float, int] = {}
        for q in qs:
            need, seen = q * self.n, 0
            for value, count in self.histogram:
                seen += count
                if seen >= need:
                    out[q] = value
                    break
        return out

    @property
    def key(self) -> tuple:
        return (self.measure, self.unit, self.attack, self.part, self.side, self.turn, self.weapon)

    def name(self) -> str:
        """A readable name: the label when given, else the keys in words."""
        if self.label:
            return self.label
        words = [x for x in (self.attack, self.unit, self.weapon, self.part, self.side) if x]
        if self.turn is not None:
            words.append(f"by turn {self.turn}")
        return " ".join(words + [self.measure.replace("_", " ")])

    def merged(self, other: "Outcome") -> "Outcome":
        """The same outcome counted over the trials of both (chunks of one batch)."""
        hist = None
        if self.histogram is not None and other.histogram is not None:
            h: dict[int, int] = dict(self.histogram)
            for v, c in other.histogram:
                h[v] = h.get(v, 0) + c
            hist = tuple(sorted(h.items()))
        return replace(self, count=self.count + other.count, n=self.n + other.n, total=self.total + other.total,
                       total_sq=self.total_sq + other.total_sq, histogram=hist)

    def to_dict(self) -> dict[str, Any]:
        """PROTO-01: structured keys, the estimate as a number, the exact value as a number and as a fraction string."""
        out: dict[str, Any] = {"measure": self.measure}
        for k in ("unit", "attack", "weapon", "part", "side", "turn"):
            v = getattr(self, k)
            if v is not None:
                out[k] = v
        out["label"] = self.name()
        lo, hi = (_number(x) for x in self.interval())
        estimate: float | None = self.estimate
        if self.n <= 0:       # no trial ran (a run cancelled before it started): nothing is known, not 0 for sure
            estimate = lo = hi = None
        if self.kind == "probability":
            out.update(probability=estimate, count=self.count, trials=self.n, interval=[lo, hi])
        else:
            out.update(mean=estimate, stderr=None if self.n <= 0 else _number(self.stderr), trials=self.n, interval=[lo, hi])
            pct = self.percentiles()
            if pct is not None:
                out["percentiles"] = {f"{int(q * 100)}": v for q, v in pct.items()}
        if self.exact is not None:
            out["exact"] = float(self.exact)
            out["exact_fraction"] = str(self.exact)
        return out


@dataclass
class BatchResult:
    """N trials of a scenario, any rule set: the counted outcomes and the run's facts.

    `details` is the rule set's per-trial view when arrays were kept (or its
    counts in summary mode); attribute access falls through to it, so a Car
    Wars batch still answers `b.hit`, `b.state` or `b.destroyed()`.
    """

    scenario: str
    ruleset: str
    seed: int
    first_trial: int
    trials: int
    backend: str
    seconds: float
    outcomes: list[Outcome] = field(default_factory=list)
    details: Any = None
    requested: int | None = None
    interrupted: bool = False
    turns: int | None = None

    def __getattr__(self, name: str) -> Any:
        # only called when normal lookup fails: fall through to the rule set's own view
        if name.startswith("__") or name == "details":
            raise AttributeError(name)
        details = self.__dict__.get("details")
        if details is not None and hasattr(details, name):
            return getattr(details, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def probabilities(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.kind == "probability"]

    def amounts(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.kind == "amount"]

    def find(self, measure: str, **keys: Any) -> Outcome:
        """The outcome with this measure and these keys (unit=, attack=, part=, side=, turn=, weapon=)."""
        for o in self.outcomes:
            if o.measure == measure and all(getattr(o, k) == v for k, v in keys.items()):
                return o
        raise KeyError((measure, keys))

    def summary(self) -> dict[str, float]:
        """{readable name: estimate} of every outcome (probabilities and means)."""
        return {o.name(): o.estimate for o in self.outcomes}

    def to_dict(self) -> dict[str, Any]:
        """The run document (PROTO-01): the run's facts, then probabilities and amounts as structured rows."""
        return {"format": FORMAT, "kind": "run", "scenario": self.scenario, "ruleset": self.ruleset, "seed": self.seed,
                "first_trial": self.first_trial, "trials": self.trials, "requested": self.requested or self.trials,
                "interrupted": self.interrupted, "backend": self.backend, "seconds": round(self.seconds, 6),
                "turns": self.turns,
                "probabilities": [o.to_dict() for o in self.probabilities()],
                "amounts": [o.to_dict() for o in self.amounts()]}
