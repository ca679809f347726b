"""Morale Checks, Pin Task Checks, leadership, Random Selection and Bail Out (A10, A7.8, A.9, D6.24).

Each function takes the dice source it rolls with and returns a new situation
and the events it produced; nothing is changed in place.
"""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from functools import cache
from itertools import combinations
from typing import Callable

from ..data import Rules
from ..dice import DiceSource
from ..events import Event, Modifier
from .enums import MachineType, TieRule
from .events import MoraleCheck, RandomSelection
from .tables import MoraleSettings, morale_settings
from .units import Infantry, Situation, fail_morale, is_good_order

__all__ = [
    "leadership_drm", "is_motorcyclist", "morale_check", "pin_task_check", "random_selection_round",
    "random_selection", "selection_distribution", "mc_name", "morale_check_outcomes",
    "pin_task_check_outcomes", "selection_size_law",
]


def mc_name(drm: int) -> str:
    """"NMC" for +0, else "nMC"."""
    return "NMC" if drm == 0 else f"{drm}MC"


def is_motorcyclist(situation: Situation, unit: Infantry) -> bool:
    """A unit riding a motorcycle (not a bicycle: a bicyclist is a normal Infantry target, ASL-BIC-02)."""
    machine = situation.mount_of(unit.id)
    return machine is not None and machine.type is not MachineType.BICYCLE


def leadership_drm(rules: Rules, situation: Situation, unit: Infantry) -> Modifier | None:
    """A10.7: the best leadership modifier of a good-order leader in the unit's Location (never
    the unit's own, unless the `applies_to_self` setting says so)."""
    self_ok = morale_settings(rules).leadership_applies_to_self
    leaders = [u for u in situation.leaders_in(unit.hex) if is_good_order(u) and (self_ok or u.id != unit.id)]
    if not leaders:
        return None
    best = min(leaders, key=lambda u: (u.leadership, u.id))
    return Modifier(f"leadership of {best.id}", best.leadership, "A10.7")


def morale_check(rules: Rules, situation: Situation, unit_id: str, drm: int, dice: DiceSource, *,
                 check: str | None = None, rule: str = "A10", why: str = "",
                 fail: Callable[[Infantry, MoraleSettings], Infantry] = fail_morale) -> tuple[Situation, list[Event]]:
    """A10: DR + DRM (the nMC's n, leadership) above morale fails: the unit suffers `fail` (a
    good-order unit breaks, a broken one is eliminated per the setting; the Bail Out NMC passes
    `fail_bail_out`). A10/A7.8: a good-order unit whose Final DR equals its morale is pinned,
    except a motorcyclist, on whom a Pin has no effect (ASL-RES-04)."""
    s = morale_settings(rules)
    unit = situation.unit(unit_id)
    name = check or mc_name(drm)
    if unit.eliminated:
        return situation, []
    roll = dice.roll("DR", f"{name} of {unit_id}" + (f" ({why})" if why else ""), rule)
    mods = [Modifier(name, drm, rule)] if drm else []
    lead = leadership_drm(rules, situation, unit)
    if lead is not None and lead.value:
        mods.append(lead)
    final = roll.total + sum(m.value for m in mods)
    if final > unit.morale:
        after = fail(unit, s)
        if after.eliminated:
            text = "fails: eliminated"
        elif not unit.broken:
            text = "fails: breaks"
        else:
            text = f"fails again while broken: Casualty Reduced to {after.status()}"
    elif final == unit.morale and s.pin_on_equal and is_good_order(unit):
        if is_motorcyclist(situation, unit):
            after, text = unit, "passes (a Pin has no effect on a motorcyclist, D15.54)"
        else:
            after, text = replace(unit, pinned=True), "passes, pinned (Final DR equals morale)"
    else:
        after, text = unit, "passes"
    event = MoraleCheck(unit_id, name, roll, tuple(mods), final, unit.morale, text, rule)
    return situation.with_unit(after), [event]


_DR = {t: Fraction(6 - abs(t - 7), 36) for t in range(2, 13)}


def _dr_above(n: int) -> Fraction:
    """P(DR > n) for a DR of two dice."""
    return sum((p for t, p in _DR.items() if t > n), Fraction(0))


def morale_check_outcomes(rules: Rules, situation: Situation, unit_id: str, drm: int, *,
                          fail: Callable[[Infantry, MoraleSettings], Infantry] = fail_morale) -> list[tuple[Situation, Fraction]]:
    """Every situation `morale_check` can leave, with its exact probability, without rolling: the DR
    read only through its total against the unit's morale (fail above, pin on equal, pass below)."""
    s = morale_settings(rules)
    unit = situation.unit(unit_id)
    if unit.eliminated:
        return [(situation, Fraction(1))]
    lead = leadership_drm(rules, situation, unit)
    shift = drm + (lead.value if lead is not None and lead.value else 0)
    target = unit.morale - shift               # the DR total at which Final DR equals morale
    p_fail = _dr_above(target)
    p_equal = _DR.get(target, Fraction(0))
    out: list[tuple[Situation, Fraction]] = []
    if p_fail:
        out.append((situation.with_unit(fail(unit, s)), p_fail))
    rest = 1 - p_fail
    if p_equal and s.pin_on_equal and is_good_order(unit) and not is_motorcyclist(situation, unit):
        out.append((situation.with_unit(replace(unit, pinned=True)), p_equal))
        rest -= p_equal
    if rest:
        out.append((situation, rest))
    return out


def pin_task_check_outcomes(rules: Rules, situation: Situation, unit_id: str) -> list[tuple[Situation, Fraction]]:
    """Every situation `pin_task_check` can leave, with its exact probability, without rolling."""
    s = morale_settings(rules)
    unit = situation.unit(unit_id)
    if unit.eliminated or is_motorcyclist(situation, unit) or (unit.broken and s.ptc_broken_exempt):
        return [(situation, Fraction(1))]
    lead = leadership_drm(rules, situation, unit)
    p_pin = _dr_above(unit.morale - (lead.value if lead is not None and lead.value else 0))
    out = [(situation.with_unit(replace(unit, pinned=True)), p_pin)] if p_pin else []
    if p_pin != 1:
        out.append((situation, 1 - p_pin))
    return out


def pin_task_check(rules: Rules, situation: Situation, unit_id: str, dice: DiceSource) -> tuple[Situation, list[Event]]:
    """A7.8: a PTC pins the unit when DR + leadership DRM exceeds its morale. Broken units take none
    (setting); a motorcyclist never takes one (ASL-RES-04, D15.54); a bicyclist does (ASL-BIC-02)."""
    s = morale_settings(rules)
    unit = situation.unit(unit_id)
    if unit.eliminated:
        return situation, []
    if is_motorcyclist(situation, unit):
        return situation, [MoraleCheck(unit_id, "PTC", None, (), None, unit.morale,
                                       "no PTC: a Pin has no effect on a motorcyclist (D15.54)", "ASL-RES-04")]
    if unit.broken and s.ptc_broken_exempt:
        return situation, [MoraleCheck(unit_id, "PTC", None, (), None, unit.morale, "no PTC: broken", "A7.8")]
    roll = dice.roll("DR", f"PTC of {unit_id}", "A7.8")
    mods = []
    lead = leadership_drm(rules, situation, unit)
    if lead is not None and lead.value:
        mods.append(lead)
    final = roll.total + sum(m.value for m in mods)
    if final > unit.morale:
        return situation.with_unit(replace(unit, pinned=True)), [MoraleCheck(unit_id, "PTC", roll, tuple(mods), final, unit.morale, "fails: pinned", "A7.8")]
    return situation, [MoraleCheck(unit_id, "PTC", roll, tuple(mods), final, unit.morale, "passes", "A7.8")]


def random_selection_round(candidates: tuple[str, ...], count: int, ties: TieRule, dice: DiceSource, purpose: str
                           ) -> tuple[tuple[str, ...], tuple[tuple[str, ...], int] | None, list[Event]]:
    """A.9: one dr per candidate; the `count` highest are selected. Ties at the boundary: with
    TieRule.ALL every tied unit is selected; with REROLL the tied units roll again (returned as
    the unresolved (candidates, count) for another round)."""
    if count >= len(candidates):
        return candidates, None, []
    rolls = [dice.roll("dr", f"Random Selection ({purpose}): {c}", "A.9") for c in candidates]
    drs = [r.total for r in rolls]
    cutoff = sorted(drs, reverse=True)[count - 1]
    above = tuple(c for c, d in zip(candidates, drs) if d > cutoff)
    tied = tuple(c for c, d in zip(candidates, drs) if d == cutoff)
    if len(above) + len(tied) == count or ties is TieRule.ALL:
        selected = above + tied
        order = tuple(c for c in candidates if c in selected)
        return order, None, [RandomSelection(purpose, candidates, tuple(drs), order, str(ties))]
    event = RandomSelection(purpose, candidates, tuple(drs), above, f"{ties}: {', '.join(tied)} roll again")
    return above, (tied, count - len(above)), [event]


def random_selection(candidates: tuple[str, ...], count: int, ties: TieRule, dice: DiceSource, purpose: str
                     ) -> tuple[tuple[str, ...], list[Event]]:
    """A.9, every round: the selected units and all the Random Selection events."""
    selected: tuple[str, ...] = ()
    events: list[Event] = []
    pending: tuple[tuple[str, ...], int] | None = (candidates, count)
    while pending is not None:
        chosen, pending, evs = random_selection_round(pending[0], pending[1], ties, dice, purpose)
        selected += chosen
        events += evs
    return tuple(c for c in candidates if c in selected), events


def selection_distribution(candidates: tuple[str, ...], count: int, ties: TieRule
                           ) -> dict[tuple[tuple[str, ...], tuple[tuple[str, ...], int] | None], Fraction]:
    """A.9, exactly: the distribution of what one `random_selection_round` returns.

    The candidates are exchangeable, so with a of them above the cutoff dr v and t tied at it
    (a < count <= a + t), every choice of those sets is equally likely:
    P = sum over v of C(n; a, t) (6-v)^a (v-1)^(n-a-t) / 6^n, shared equally among the sets.
    """
    n = len(candidates)
    if count >= n:
        return {(candidates, None): Fraction(1)}
    out: dict = {}
    for a in range(count):
        for t in range(count - a, n - a + 1):
            below = n - a - t
            weight = sum((6 - v) ** a * (v - 1) ** below for v in range(1, 7))
            if not weight:
                continue
            per = Fraction(weight, 6 ** n)
            for above in combinations(range(n), a):
                rest = [i for i in range(n) if i not in above]
                for tied in combinations(rest, t):
                    if ties is TieRule.ALL or a + t == count:
                        key = (tuple(candidates[i] for i in sorted(above + tied)), None)
                    else:
                        key = (tuple(candidates[i] for i in above), (tuple(candidates[i] for i in tied), count - a))
                    out[key] = out.get(key, Fraction(0)) + per
    return out


@cache
def selection_size_law(n: int, count: int, ties: TieRule) -> tuple[Fraction, ...]:
    """A.9, exactly, as a law of sizes: q[k] is the probability that one given set of k of the n
    (exchangeable) candidates is the set Random Selection ends with, after every reroll. Ties `all`:
    the units at or above the cutoff dr (`selection_distribution`'s sets, counted by size); `reroll`:
    exactly `count` units, every such set alike. The flags of the candidates can then be drawn one
    unit at a time: given i drawn with j selected, the next is selected with probability
    sum_k q[k] C(n-i-1, k-j-1) / sum_k q[k] C(n-i, k-j)."""
    from math import comb

    q = [Fraction(0)] * (n + 1)
    if count >= n:
        q[n] = Fraction(1)
        return tuple(q)
    if ties is TieRule.REROLL:
        q[count] = Fraction(1, comb(n, count))
        return tuple(q)
    size = [Fraction(0)] * (n + 1)
    for a in range(count):
        for t in range(count - a, n - a + 1):
            weight = sum((6 - v) ** a * (v - 1) ** (n - a - t) for v in range(1, 7))
            size[a + t] += Fraction(comb(n, a) * comb(n - a, t) * weight, 6 ** n)
    return tuple(size[k] / comb(n, k) for k in range(n + 1))
