"""Chance points as parameters: one step function, rolled or enumerated (FAST-02, SAFE-03).

A resolution is a chain of steps `step(state, dice) -> (state, events)` over
frozen, hashable states. `run_chain` rolls it with any dice source (seeded or
scripted); `exact_chain` enumerates every die each step rolls (replaying the
step with every prefix of faces) and merges equal states, so the same rule
code gives both the Monte Carlo draw and the exact distribution. A chain may
offer `exact_step(state)`, a closed form for a step whose dice enumeration
would be large (Random Selection among many units); tests check it against
the enumeration.

The distribution of whole final states grows with every unit a resolution
can leave in one more state (a hex of n units under one attack has some 4**n
joint outcomes), so `exact_chain` is bounded. `exact_marginals` gives the
probability of each outcome key (one unit eliminated, one counter removed...)
without the joint: after each step it forgets the units no pending step can
read or change any more (the chain's `live(state)`), adding what their final
state says to the totals, and merges the states that differ only there. A
single attack on a hex of ten units then keeps at most a few thousand states.
Both count the states they expand (`ExactStats`) and stop with an
`ExactBoundError` naming the bound past `max_states` (SAFE-03).
"""
from __future__ import annotations

import heapq
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol, TypeVar

from ..dice import DiceExpr, parse_dice
from ..errors import ScenarioError
from ..events import DiceRolled, Event

__all__ = ["Chain", "run_chain", "exact_chain", "exact_marginals", "enumerate_step", "ExactBoundError", "ExactStats",
           "MAX_EXACT_STATES"]

S = TypeVar("S", bound=Hashable)

#: states an exact computation may expand before it stops (SAFE-03): some 5 to 20 seconds of work
MAX_EXACT_STATES = 50_000


class ExactBoundError(ScenarioError):
    """Exact odds would take more than the bound allows (SAFE-03, FAST-02); `field` names the bound.
    A Monte Carlo batch still runs the scenario."""


@dataclass
class ExactStats:
    """The work an exact computation did: states expanded (one step's outcomes computed), the largest
    frontier, and the units forgotten (`exact_marginals`)."""

    states: int = 0
    max_frontier: int = 0
    forgotten: int = 0


class Chain(Protocol[S]):
    def done(self, state: S) -> bool: ...

    def step(self, state: S, dice) -> tuple[S, list[Event]]: ...


class _NeedDie(Exception):
    pass


class _PrefixDice:
    """Dice that give the faces of a prefix, then ask for one more (enumeration)."""

    def __init__(self, prefix: tuple[int, ...]) -> None:
        self.prefix = prefix
        self.used = 0

    def d6(self) -> int:
        if self.used >= len(self.prefix):
            raise _NeedDie
        face = self.prefix[self.used]
        self.used += 1
        return face

    def roll(self, expr: DiceExpr | str, why: str, rule: str = "") -> DiceRolled:
        e = parse_dice(expr) if isinstance(expr, str) else expr
        faces = tuple(self.d6() for _ in range(e.count))
        return DiceRolled(why=why, expr=str(e), faces=faces, total=e.total(faces), rule=rule)


def enumerate_step(step: Callable[[S, object], tuple[S, list[Event]]], state: S, max_dice: int = 12) -> dict[S, Fraction]:
    """Every state one step can lead to, with its exact probability: the step is replayed with each
    sequence of faces it asks for (a sequence of k faces has probability 6**-k)."""
    out: dict[S, Fraction] = {}
    stack: list[tuple[int, ...]] = [()]
    while stack:
        prefix = stack.pop()
        dice = _PrefixDice(prefix)
        try:
            nxt, _ = step(state, dice)
        except _NeedDie:
            if len(prefix) >= max_dice:
                raise ExactBoundError(f"a single step rolls more than {max_dice} dice: too many to enumerate",
                                      field="exact.max_dice", value=max_dice, rule="SAFE-03") from None
            stack.extend(prefix + (f,) for f in range(6, 0, -1))
            continue
        if dice.used != len(prefix):  # pragma: no cover - a prefix is only extended when asked for
            raise RuntimeError("step did not use every die given")
        out[nxt] = out.get(nxt, Fraction(0)) + Fraction(1, 6 ** len(prefix))
    return out


def run_chain(chain: Chain[S], state: S, dice) -> tuple[S, list[Event]]:
    """Roll the chain to its end with `dice`; every event in order."""
    events: list[Event] = []
    while not chain.done(state):
        state, evs = chain.step(state, dice)
        events += evs
    return state, events


def _outcomes(chain: Chain[S], s: S, stats: ExactStats, max_states: int, what: str) -> tuple[dict[S, Fraction], Fraction]:
    """The next step's outcomes from `s` (closed form or every die), without `s` itself, and the scale
    that sums a step returning to its own state (a rerolled tie) as a geometric series."""
    stats.states += 1
    if stats.states > max_states:
        raise ExactBoundError(f"{what}: more than {max_states:,} states to expand for exact odds; run a Monte Carlo batch "
                              "instead (FAST-02)", field="exact.max_states", value=max_states, rule="SAFE-03")
    hook = getattr(chain, "exact_step", None)
    outcomes = hook(s) if hook is not None else None
    if outcomes is None:
        outcomes = enumerate_step(chain.step, s)
    outcomes = dict(outcomes)
    loop = outcomes.pop(s, Fraction(0))
    if loop >= 1:
        raise ExactBoundError(f"{what}: a step returns to its own state for ever", field="exact", rule="FAST-02")
    return outcomes, 1 / (1 - loop)


def exact_chain(chain: Chain[S], state: S, *, max_states: int | None = None, stats: ExactStats | None = None,
                what: str = "the scenario") -> dict[S, Fraction]:
    """The exact distribution of final states (a dynamic programme over merged states). A step that
    can lead back to its own state (a Random Selection tie rerolled) is renormalised: the loop is
    a geometric series.

    Raises:
        ExactBoundError: more than `max_states` states to expand (SAFE-03).
    """
    stats = stats if stats is not None else ExactStats()
    max_states = MAX_EXACT_STATES if max_states is None else max_states
    frontier: dict[S, Fraction] = {state: Fraction(1)}
    final: dict[S, Fraction] = {}
    while frontier:
        stats.max_frontier = max(stats.max_frontier, len(frontier))
        nxt_frontier: dict[S, Fraction] = {}
        for s, p in frontier.items():
            if chain.done(s):
                final[s] = final.get(s, Fraction(0)) + p
                continue
            outcomes, scale = _outcomes(chain, s, stats, max_states, what)
            for t, q in outcomes.items():
                nxt_frontier[t] = nxt_frontier.get(t, Fraction(0)) + p * q * scale
        frontier = nxt_frontier
    return final


class MarginalChain(Chain[S], Protocol[S]):
    """A chain `exact_marginals` can run. It may also offer `potential(state) -> int`, a number every
    step lowers (strictly): states are then expanded in falling potential, so equal states reached
    by paths of different lengths merge."""

    def settle(self, state: S, gone: frozenset[str]) -> tuple[S, frozenset[str], Mapping[str, bool]]: ...

    def values(self, state: S, gone: frozenset[str]) -> Mapping[str, bool]: ...


def exact_marginals(chain: MarginalChain[S], state: S, keys: Iterable[str], *, max_states: int | None = None,
                    stats: ExactStats | None = None, what: str = "the scenario") -> dict[str, Fraction]:
    """The exact probability of each outcome key, without the joint distribution of final states.

    After every step the chain `settle`s the state: it forgets what no pending step can read or
    change any more (`gone`: the units forgotten so far), making it inert, and returns the outcome
    keys the forgotten part makes true; they are added to the totals with the probability of the
    step, and states that now agree are merged. A state at the end of the chain adds its `values`
    (for what is not forgotten). Exact (Fractions): equal to summing the keys over `exact_chain`'s
    final states (tests check it), and polynomial where each unit is done with after a bounded
    number of steps.

    Raises:
        ExactBoundError: more than `max_states` states to expand (SAFE-03).
    """
    stats = stats if stats is not None else ExactStats()
    max_states = MAX_EXACT_STATES if max_states is None else max_states
    totals: dict[str, Fraction] = {k: Fraction(0) for k in keys}

    def add(flags: Mapping[str, bool], p: Fraction) -> None:
        for k, v in flags.items():
            if v and k in totals:
                totals[k] += p

    def settle(t: S, gone: frozenset[str], p: Fraction) -> tuple[S, frozenset[str]]:
        t2, gone2, flags = chain.settle(t, gone)
        add(flags, p)
        stats.forgotten += len(gone2) - len(gone)
        return t2, gone2

    start = settle(state, frozenset(), Fraction(1))
    potential = getattr(chain, "potential", None)
    if potential is None:
        frontier: dict[tuple[S, frozenset[str]], Fraction] = {start: Fraction(1)}
        while frontier:
            stats.max_frontier = max(stats.max_frontier, len(frontier))
            nxt: dict[tuple[S, frozenset[str]], Fraction] = {}
            for (s, gone), p in frontier.items():
                if chain.done(s):
                    add(chain.values(s, gone), p)
                    continue
                outcomes, scale = _outcomes(chain, s, stats, max_states, what)
                for t, q in outcomes.items():
                    w = p * q * scale
                    key = settle(t, gone, w)
                    nxt[key] = nxt.get(key, Fraction(0)) + w
            frontier = nxt
        return totals
    # With a potential that every step lowers, states are expanded highest potential first: a state is
    # expanded only once every state that can lead to it has been, so equal states reached by paths of
    # different lengths merge too.
    buckets: dict[int, dict[tuple[S, frozenset[str]], Fraction]] = {potential(start[0]): {start: Fraction(1)}}
    heap = [-potential(start[0])]
    while heap:
        level = -heapq.heappop(heap)
        bucket = buckets.pop(level)
        waiting = sum(len(b) for b in buckets.values()) + len(bucket)
        stats.max_frontier = max(stats.max_frontier, waiting)
        for (s, gone), p in bucket.items():
            if chain.done(s):
                add(chain.values(s, gone), p)
                continue
            outcomes, scale = _outcomes(chain, s, stats, max_states, what)
            for t, q in outcomes.items():
                w = p * q * scale
                key = settle(t, gone, w)
                lower = potential(key[0])
                if lower >= level:  # pragma: no cover - a chain's potential must fall at every step
                    raise RuntimeError(f"exact_marginals: the potential did not fall ({level} -> {lower})")
                b = buckets.get(lower)
                if b is None:
                    b = buckets[lower] = {}
                    heapq.heappush(heap, -lower)
                b[key] = b.get(key, Fraction(0)) + w
    return totals
