"""Exact odds from explicit chance points (FAST-02): one enumerator for both rule sets.

Rules never roll by themselves: they take a dice source, and every random
choice is either a roll (`dice.roll`) or a chance point (`hardpoint.dice.Pick`,
`hardpoint.dice.Roll`, resolved with `hardpoint.dice.chance`) that states all
its outcomes with their exact probabilities. A seeded or scripted source rolls
them; `ChanceDice` here branches over them instead, so the same rule code gives
Monte Carlo draws and exact odds.

- `enumerate_outcomes(run)`: every result of `run(dice)` with its probability.
  `run` is replayed once per leaf of the tree of chance outcomes, each replay
  taking the outcomes of its path and the first outcome of every chance point
  not met before (whose siblings are queued). `run` must start from the same
  state every time (it restores its own inputs) and return a hashable result;
  equal results are merged. A plain roll is branched by its totals (a roll of
  which a rule reads the faces is detected and the whole enumeration is
  redone face by face).
- `exact_chain(chain, state)`: a dynamic programme over frozen states for rules
  written as steps (`step(state, dice) -> (state, events)`): the frontier's
  equal states are merged after every step (memoisation over immutable state);
  a step that can return to its own state (a re-roll) is summed as a geometric
  series.

Both are bounded (`max_paths`, `max_states`): past the bound they raise
`ExactError` naming it, instead of running for hours. Nothing here inspects
frames, bytecode or locals.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any, Protocol, TypeVar

from .dice import ChancePoint, DiceExpr, die_face, parse_dice, total_classes
from .errors import HardpointError
from .events import DiceRolled, Event

__all__ = ["ExactError", "ChanceDice", "enumerate_outcomes", "Chain", "exact_chain", "enumerate_step",
           "MAX_PATHS", "MAX_STATES", "MAX_DEPTH"]

MAX_PATHS = 200_000     # default bound: replays (leaves of the chance tree) of one enumeration
MAX_STATES = 100_000    # default bound: distinct states on one frontier of a chain
MAX_DEPTH = 200         # chance points on one path: more is a roll that never ends

_ONE = Fraction(1)
S = TypeVar("S", bound=Hashable)


class ExactError(HardpointError, ValueError, RuntimeError):
    """Exact odds cannot be computed within the bound given (FAST-02): the message names the bound,
    what was being enumerated and the rule. (A ValueError; also a RuntimeError, as it always was.)"""


class _FacesRead(BaseException):
    """Private: a rule read the faces of a roll branched by its total."""


class _TotalRoll(DiceRolled):
    """A roll standing for every face tuple of its total: reading its faces restarts face by face."""

    def __getattribute__(self, name: str) -> Any:
        if name == "faces":
            raise _FacesRead
        return object.__getattribute__(self, name)


_ROLLS: dict[tuple, list] = {}
_D6 = [(f, Fraction(1, 6)) for f in range(1, 7)]


def _roll_outcomes(expr: DiceExpr, why: str, rule: str, by_face: bool) -> list:
    """A plain roll's outcomes: one per total (a `_TotalRoll`), or one per face tuple."""
    out = []
    for key, faces, n in total_classes(expr, None, by_face):
        total = expr.total(faces)
        cls = DiceRolled if by_face or expr.count == 1 else _TotalRoll
        out.append((cls(why=why, expr=str(expr), faces=faces, total=total, rule=rule), Fraction(n, 6 ** expr.count)))
    return out


class ChanceDice:
    """The enumerator's dice source: replays a path of outcome indices, then takes the first outcome
    of each new chance point and queues its siblings (see `enumerate_outcomes`)."""

    __slots__ = ("path", "used", "p", "branches", "by_face", "depth", "last", "probe", "estimate", "seen")

    def __init__(self, path: tuple[int, ...], p: Fraction, by_face: bool, depth: int, probe: int | None = None,
                 seen: dict | None = None) -> None:
        self.seen = {} if seen is None else seen   # outcomes of the chance points met, by the path that leads to them
        self.path = path
        self.used = 0
        self.p = p
        self.branches: list[tuple[tuple[int, ...], Fraction]] = []
        self.by_face = by_face
        self.depth = depth
        self.last = ""
        self.probe = probe          # a probe descends at random (die_face of this stream) instead of queueing siblings
        self.estimate = 1           # a probe's product of branching factors (Knuth's estimate of the number of leaves)

    def _choose(self, make: Callable[[], list], why: str) -> Any:
        """`make()`: the chance point's (value, probability) pairs; returns the value of this path. A chance
        point met again on a replay is not asked again: its outcomes are kept by the path leading to it."""
        i = self.used
        self.used += 1
        self.last = why
        if i < len(self.path):
            options = self.seen.get(self.path[:i])
            if options is None:
                options = self.seen[self.path[:i]] = make()
            return options[self.path[i]][0]
        options = make()
        if i >= self.depth:
            raise ExactError(f"more than {self.depth} chance points on one path (the last: {why!r}): a roll that never "
                             "ends, or a resolution too long to enumerate (bound max_depth) (FAST-02)")
        if self.probe is not None:
            n = len(options)
            k = (die_face(self.probe, i, 0) - 1) * 6 + die_face(self.probe, i, 1) - 1
            self.estimate *= n
            return options[k % n][0]
        prefix = self.path
        if len(options) > 1:
            self.seen[prefix] = options
        base = self.p
        for k in range(len(options) - 1, 0, -1):
            self.branches.append((prefix + (k,), base * options[k][1]))
        self.p = base * options[0][1]
        self.path = prefix + (0,)
        return options[0][0]

    def d6(self) -> int:
        return self._choose(lambda: _D6, "a die")

    def roll(self, expr: DiceExpr | str, why: str, rule: str = "") -> DiceRolled:
        e = parse_dice(expr) if isinstance(expr, str) else expr

        def make() -> list:
            key = (e, why, rule, self.by_face)
            options = _ROLLS.get(key)
            if options is None:
                options = _roll_outcomes(e, why, rule, self.by_face)
                if len(_ROLLS) < 4096:
                    _ROLLS[key] = options
            return options
        return self._choose(make, why)

    def chance(self, point: ChancePoint) -> tuple[Any, list[Event]]:
        def make() -> list:
            try:
                outcomes = point.outcomes(self.by_face)
            except ValueError as exc:
                raise ExactError(f"{exc} (FAST-02)") from None
            return [((v, ev), p) for v, ev, p in outcomes]
        value, events = self._choose(make, point.why)
        return value, list(events)


def enumerate_outcomes(run: Callable[[Any], Hashable], *, max_paths: int = MAX_PATHS, max_depth: int = MAX_DEPTH,
                       what: str = "the resolution", faces: bool = False, probes: int = 0) -> dict[Hashable, Fraction]:
    """Every result of `run(dice)` with its exact probability, over every outcome of every chance point
    and roll it meets (FAST-02). `run` is called once per path and must restore its own starting state.

    `probes`: before enumerating, run that many random descents and refuse at once (ExactError) when
    their mean product of branching factors (Knuth's estimate of the number of paths) exceeds
    `max_paths`, so that a resolution far too large fails in seconds, not after `max_paths` replays.

    Raises:
        ExactError: more than `max_paths` paths (or an estimate above it), or more than `max_depth`
            chance points on one path.
    """
    by_face = faces
    if probes:
        estimates = []
        for k in range(probes):
            dice = ChanceDice((), _ONE, by_face, max_depth, probe=0x5EED + k)
            try:
                run(dice)
            except _FacesRead:
                pass
            estimates.append(dice.estimate)
        mean = sum(estimates) / len(estimates)
        if mean > max_paths:
            raise ExactError(f"{what}: about {mean:.3g} paths of chance outcomes (estimated from {probes} random descents), "
                             f"more than the bound max_paths = {max_paths}: too large for exact odds; use a Monte Carlo batch (FAST-02)")
    while True:
        try:
            return _enumerate(run, max_paths, max_depth, what, by_face)
        except _FacesRead:
            if by_face:        # pragma: no cover - face-by-face rolls are plain DiceRolled
                raise
            by_face = True     # a rule reads the faces: every roll face by face


def _enumerate(run, max_paths: int, max_depth: int, what: str, by_face: bool) -> dict[Hashable, Fraction]:
    leaves: list[tuple[Hashable, Fraction]] = []
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), _ONE)]
    paths = 0
    seen: dict = {}
    while stack:
        path, p = stack.pop()
        paths += 1
        if paths > max_paths:
            raise ExactError(f"{what}: more than {max_paths} paths of chance outcomes to enumerate (bound max_paths = "
                             f"{max_paths}): too large for exact odds; use a Monte Carlo batch (FAST-02)")
        dice = ChanceDice(path, p, by_face, max_depth, seen=seen)
        result = run(dice)
        stack += dice.branches
        leaves.append((result, dice.p))
    # summed in integers over the common denominator: one Fraction per result, not one addition per leaf
    den = math.lcm(*(q.denominator for _, q in leaves))
    sums: dict[Hashable, int] = {}
    for result, q in leaves:
        sums[result] = sums.get(result, 0) + q.numerator * (den // q.denominator)
    return {result: Fraction(w, den) for result, w in sums.items()}


# --- chains of steps over frozen states -----------------------------------------------------------

class Chain(Protocol[S]):
    def done(self, state: S) -> bool: ...

    def step(self, state: S, dice) -> tuple[S, list[Event]]: ...


def enumerate_step(step: Callable[[S, Any], tuple[S, list[Event]]], state: S, max_dice: int = 12) -> dict[S, Fraction]:
    """Every state one step can lead to, with its exact probability: the step replayed over every
    outcome of the dice and chance points it meets (face by face: a step may read the faces)."""
    def run(dice):
        return step(state, dice)[0]
    return enumerate_outcomes(run, max_depth=max_dice, faces=True, what="one step")


def exact_chain(chain: Chain[S], state: S, *, max_states: int = MAX_STATES, what: str = "the chain") -> dict[S, Fraction]:
    """The exact distribution of final states: a dynamic programme over frozen states, equal states
    merged after every step. A step that can lead back to its own state (a re-roll) is renormalised:
    the loop is a geometric series. A chain may offer `exact_step(state)`, the outcomes of a step in
    closed form (or None to enumerate its dice).

    Raises:
        ExactError: more than `max_states` distinct states on one frontier.
    """
    frontier: dict[S, Fraction] = {state: _ONE}
    final: dict[S, Fraction] = {}
    hook = getattr(chain, "exact_step", None)
    while frontier:
        nxt: dict[S, Fraction] = {}
        for s, p in frontier.items():
            if chain.done(s):
                final[s] = final.get(s, Fraction(0)) + p
                continue
            outcomes = hook(s) if hook is not None else None
            if outcomes is None:
                outcomes = enumerate_step(chain.step, s)
            outcomes = dict(outcomes)
            loop = outcomes.pop(s, Fraction(0))
            if loop >= 1:
                raise ExactError(f"{what}: a step returns to its own state for ever (FAST-02)")
            scale = 1 / (1 - loop)
            for t, q in outcomes.items():
                nxt[t] = nxt.get(t, Fraction(0)) + p * q * scale
        if len(nxt) > max_states:
            raise ExactError(f"{what}: more than {max_states} distinct states after one step (bound max_states): too large "
                             "for exact odds; use a Monte Carlo batch (FAST-02)")
        frontier = nxt
    return final
