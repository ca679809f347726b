"""Chance points as parameters: one step function, rolled or enumerated (FAST-02).

A resolution is a chain of steps `step(state, dice) -> (state, events)` over
frozen, hashable states. `run_chain` rolls it with any dice source (seeded or
scripted); `exact_chain` enumerates every die each step rolls (replaying the
step with every prefix of faces) and merges equal states, so the same rule
code gives both the Monte Carlo draw and the exact distribution. A chain may
offer `exact_step(state)`, a closed form for a step whose dice enumeration
would be large (Random Selection among many units); tests check it against
the enumeration.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Protocol, TypeVar

from ..dice import DiceExpr, parse_dice
from ..events import DiceRolled, Event

__all__ = ["Chain", "run_chain", "exact_chain", "enumerate_step"]

S = TypeVar("S", bound=Hashable)


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
                raise RuntimeError(f"a single step rolled more than {max_dice} dice; cannot enumerate") from None
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


def exact_chain(chain: Chain[S], state: S) -> dict[S, Fraction]:
    """The exact distribution of final states (a dynamic programme over merged states). A step that
    can lead back to its own state (a Random Selection tie rerolled) is renormalised: the loop is
    a geometric series."""
    frontier: dict[S, Fraction] = {state: Fraction(1)}
    final: dict[S, Fraction] = {}
    while frontier:
        nxt_frontier: dict[S, Fraction] = {}
        for s, p in frontier.items():
            if chain.done(s):
                final[s] = final.get(s, Fraction(0)) + p
                continue
            hook = getattr(chain, "exact_step", None)
            outcomes = hook(s) if hook is not None else None
            if outcomes is None:
                outcomes = enumerate_step(chain.step, s)
            outcomes = dict(outcomes)
            loop = outcomes.pop(s, Fraction(0))
            scale = 1 / (1 - loop)
            for t, q in outcomes.items():
                nxt_frontier[t] = nxt_frontier.get(t, Fraction(0)) + p * q * scale
        frontier = nxt_frontier
    return final
