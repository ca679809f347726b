"""Exact odds of every outcome key without the joint distribution (FAST-02, SAFE-03).

`hardpoint.asl.chance.exact_marginals` runs a scenario's chain as a dynamic
programme over states, and after every step lets the chain `settle` the
state: what no pending step can read or change any more is forgotten (its
outcome keys are counted with the probability of the step) and made inert, so
states that differ only there merge. `MarginalChain` is that chain for an
ASL scenario. It is exact: every reduction below only drops or reorders what
no later step reads, and tests compare it with the joint distribution of
`exact_chain` on random stacks. What it does:

- forgets a unit once no pending step reads or changes it (`_reads`): an
  attack to come reads every unit in its target hex and its firers, its To
  Hit and IFT their targets, a Random Selection its group, an MC / PTC /
  Bail Out NMC its unit and the leaders in his hex, a Bail Out the riders of
  its counter; the riders of a counter stay together (counter substitution
  reads them all);
- keeps a leader who is only read for his leadership (A10.7) as what
  leadership reads of him: one unit per hex stands for the best good-order
  leadership there, the others become inert;
- draws Random Selection (A.9) lazily for the units of the group nothing but
  their own MC reads (on foot, not leaders, in no later attack): their flags
  are exchangeable, so each is drawn just before his MC from a tally of how
  many of the group were drawn and selected (`selection_size_law`): n + 1
  states for n such units instead of 2**n;
- splits the Bail Out (ASL-RES-03) per counter, each right after the last MC
  of its riders (counters in their order), and moves the Bail Out NMC of a
  rider who is not a leader to right after his counter's bail-out when no
  leader's MC, NMC or Random Selection is still to come in his hex before
  the Bail Out's place (nothing else reads him; the leaders' good order and
  leadership, all his NMC reads of them, are settled by then).

A single attack on a hex of ten units then keeps a few hundred states.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from itertools import product
from math import comb
from typing import Any

from ..dice import DiceSource
from .enums import Effect, TieRule
from .fire import (ASLChain, ChainState, DoBailNMC, DoBailOut, DoEndPhase, DoFire, DoIFT, DoLeaderLoss, DoMC, DoMove, DoPTC, DoSelect,
                   DoToHit, FireDeclaration)
from .morale import selection_size_law
from .tables import morale_settings
from .units import Infantry, Situation, casualty_reduction, fail_morale, is_good_order

__all__ = ["MarginalChain", "unit_flags"]


def unit_flags(sit: Situation, u: Infantry, u0: Infantry) -> dict[str, bool]:
    """The outcome keys of one unit (`ASLScenario.outcome_values`): eliminated, broken, reduced (its
    type changed since `u0`), wounded, pinned, mounted."""
    alive = not u.eliminated
    return {f"{u.id} eliminated": u.eliminated, f"{u.id} broken": u.broken and alive, f"{u.id} reduced": alive and u.type != u0.type,
            f"{u.id} wounded": u.wounded and alive, f"{u.id} pinned": u.pinned and alive,
            f"{u.id} mounted": alive and sit.mount_of(u.id) is not None}


# --- steps of the marginal chain only ---------------------------------------------------------

@dataclass(frozen=True)
class _DoDecide:
    """Draw whether one unit of a Random Selection group on foot was selected, just before the first
    step that reads him (his MC after a K/#; at once after an nKIA), from the group's `_Drawn` tally."""

    fire: str
    effect: Effect
    n: int
    unit: str


@dataclass(frozen=True)
class _Drawn:
    """The tally of a lazily drawn Random Selection, kept last in the pending steps until its last
    `_DoDecide`: the law of sizes (`selection_size_law` of `size` candidates, `count` selected, tie rule
    `ties`) and how many of the group were drawn and selected so far."""

    fire: str
    effect: Effect
    n: int
    size: int
    count: int
    ties: TieRule
    drawn: int
    selected: int


@dataclass(frozen=True)
class _BailOne:
    """The Bail Out of one counter (`ASLChain.bail_out_counter`); the NMCs it calls for go before the
    `_BailAnchor` of the attack, where the whole Bail Out stood, unless they may come at once."""

    fire: str
    start: Situation
    machine: str


@dataclass(frozen=True)
class _BailAnchor:
    """Where an attack's Bail Out stood: its NMCs (those not taken at once) are taken here."""

    fire: str


@cache
def _ways(size: int, count: int, ties: TieRule, left: int, selected: int) -> Fraction:
    """sum_k q[k] C(left, k - selected) for the law q of `selection_size_law`: the probability of one
    pattern of flags of the size - left units drawn so far, `selected` of them selected."""
    law = selection_size_law(size, count, ties)
    return sum((q * comb(left, k - selected) for k, q in enumerate(law) if q and k >= selected and k - selected <= left), Fraction(0))


# --- the chain -----------------------------------------------------------------------------------

class MarginalChain:
    """An ASL scenario's chain for `exact_marginals` (see the module docstring)."""

    def __init__(self, chain: ASLChain, situation: Situation) -> None:
        self.chain = chain
        self.rules = chain.rules
        self.initial = {u.id: u for u in situation.units}
        self.machines = [m.id for m in situation.machines]
        self._inert_units: dict[tuple[str, str], Infantry] = {}
        self._forgotten: dict[tuple, Situation] = {}

    def done(self, state: ChainState) -> bool:
        return not state.pending

    def step(self, state: ChainState, dice: DiceSource):
        if type(state.pending[0]) in (_DoDecide, _Drawn, _BailOne, _BailAnchor):   # pragma: no cover - always in closed form
            raise RuntimeError("a step of the marginal chain has no dice of its own")
        return self.chain.step(state, dice)

    def exact_step(self, state: ChainState) -> dict[ChainState, Fraction] | None:
        head = state.pending[0]
        kind = type(head)
        if kind is _DoDecide:
            return self._decide(state, head)
        if kind is _BailOne:
            return self._bail_one(state, head)
        if kind is _BailAnchor or kind is DoLeaderLoss:
            # Leader Loss only reports (events); the anchor only marks a place.
            return {ChainState(state.situation, state.pending[1:], state.hits, state.movement): Fraction(1)}
        if kind is DoSelect:
            lazy = self._lazy_select(state, head)
            if lazy is not None:
                return lazy
        return self.chain.exact_step(state)

    # -- a potential every step lowers --

    def potential(self, state: ChainState) -> int:
        """A bound on the steps still to come, which every step lowers: each pending step weighs more
        than all the steps it can put in its place (an attack: its To Hit, IFT, Random Selections, MCs,
        PTCs, Bail Out and NMCs; a Bail Out: one per counter and NMCs for its riders...)."""
        sit = state.situation
        units = len(sit.units)
        total = 0
        for step in state.pending:
            kind = type(step)
            if kind is DoFire:
                total += 10 + 7 * units
            elif kind is DoToHit:
                total += 2 + 5 * len(step.targets)
            elif kind is DoIFT:
                total += 1 + 5 * len(step.targets)
            elif kind is DoSelect:
                total += 1 + len(step.candidates) + len(step.group)
            elif kind is DoBailOut:
                total += 2 + 2 * sum(len(m.riders) for m in sit.machines if not m.removed)
            elif kind is _BailOne:
                m = sit.machine(step.machine)
                total += 1 + (0 if m.removed else len(m.riders))
            elif kind is not _Drawn:
                total += 1
        return total

    # -- what the pending steps read --

    def _reads(self, state: ChainState, skip: frozenset[int] = frozenset()) -> tuple[set[str], set[str]] | None:
        """(units a pending step may change or read in full, hexes where a pending step reads the leaders'
        leadership), or None while a move or the end of a phase is pending (every unit then). Steps
        whose index is in `skip` are left out."""
        sit = state.situation
        changed: set[str] = set()
        hexes: set[str] = set()

        def actors(fire: FireDeclaration) -> None:
            changed.update(fire.firers)
            if fire.directed_by:
                changed.add(fire.directed_by)
            if fire.machine and sit.has_machine(fire.machine):
                changed.update(sit.machine(fire.machine).riders)

        for i, step in enumerate(state.pending):
            if i in skip:
                continue
            kind = type(step)
            if kind is DoMove or kind is DoEndPhase:
                return None
            if kind is DoFire:
                fire = self.chain.fires[step.fire]
                changed.update(u.id for u in sit.units_in(fire.target, alive=False))
                actors(fire)
                hexes.add(fire.target)
            elif kind is DoToHit or kind is DoIFT:
                fire = self.chain.fires[step.fire]
                changed.update(step.targets)
                actors(fire)
                hexes.add(fire.target)
            elif kind is DoSelect:
                changed.update(step.group)
            elif kind is DoMC or kind is DoPTC or kind is DoBailNMC or kind is _DoDecide:
                changed.add(step.unit)
                hexes.add(sit.unit(step.unit).hex)
            elif kind is DoBailOut:
                for m in sit.machines:
                    if not m.removed and m.riders:
                        changed.update(m.riders)
                        hexes.add(m.hex)        # its NMCs read the leadership there
            elif kind is _BailOne:
                m = sit.machine(step.machine)
                if not m.removed and m.riders:
                    changed.update(m.riders)
                    hexes.add(m.hex)
        for m in sit.machines:
            if not m.removed and m.riders and not changed.isdisjoint(m.riders):
                changed.update(m.riders)
        return changed, hexes

    # -- settling a state --

    def settle(self, state: ChainState, gone: frozenset[str]) -> tuple[ChainState, frozenset[str], dict[str, bool]]:
        """Count the hits of ordnance attacks; split a Bail Out per counter once its attack's casualties
        are known; forget the units no pending step reads and summarise the leaders only read for their
        leadership. Returns the state, the units forgotten so far and the keys the forgotten ones make true."""
        flags: dict[str, bool] = {}
        if state.hits:
            flags.update({f"{f} hits {u}": True for f, u in state.hits})
            state = ChainState(state.situation, state.pending, frozenset(), state.movement)
        if any(type(p) is DoLeaderLoss for p in state.pending):
            # Leader Loss only reports (events): nothing to count.
            state = ChainState(state.situation, tuple(p for p in state.pending if type(p) is not DoLeaderLoss), state.hits,
                               state.movement)
        state = self._split_bail_out(state)
        reads = self._reads(state)
        if reads is None:
            return state, gone, flags
        changed, hexes = reads
        sit = state.situation
        bad = changed & gone
        if bad:  # pragma: no cover - the reads of the pending steps include whatever they may spawn
            raise RuntimeError(f"exact_marginals: forgotten units {sorted(bad)} are read again")
        drop = {u.id: u for u in sit.units if u.id not in changed and u.id not in gone}
        if not drop:
            return state, gone, flags
        for u in drop.values():
            flags.update(unit_flags(sit, u, self.initial.get(u.id, u)))
        ids = gone | frozenset(drop)
        # The leaders forgotten in a hex where leadership is still read (A10.7): only the best good-order
        # leadership among them counts; the first of them (in the order of the units) stands for it as a
        # good-order leader with that leadership, the others are inert like every unit forgotten.
        best: dict[str, Infantry] = {}
        first: dict[str, str] = {}
        for u in sit.units:
            if u.id in ids and u.is_leader and u.hex in hexes:
                first.setdefault(u.hex, u.id)
                if is_good_order(u):
                    b = best.get(u.hex)
                    if b is None or (u.leadership, u.id) < (b.leadership, b.id):
                        best[u.hex] = u
        stand: dict[str, Infantry] = {}
        for h, b in best.items():
            slot = self.initial.get(first[h]) or sit.unit(first[h])
            stand[first[h]] = replace(slot, hex=h, broken=False, eliminated=False, pinned=False, wounded=False, leadership=b.leadership)
        key = tuple(sorted(stand.items(), key=lambda kv: kv[0]))
        pending = tuple(replace(p, start=self._forget(p.start, ids, stand, key)) if type(p) is DoBailOut else p
                        for p in state.pending)
        return ChainState(self._forget(sit, ids, stand, key), pending, state.hits, state.movement), ids, flags

    def _inert(self, u: Infantry) -> Infantry:
        key = (u.id, u.hex)
        inert = self._inert_units.get(key)
        if inert is None:
            inert = self._inert_units[key] = replace(self.initial.get(u.id, u), hex=u.hex, eliminated=True)
        return inert

    def _forget(self, s: Situation, ids: frozenset[str], stand: dict[str, Infantry], key: tuple) -> Situation:
        """`s` with the units `ids` forgotten: inert (eliminated as they were at the start, on no counter)
        but for those standing for a hex's leadership (`stand`)."""
        memo = (s, ids, key)
        out = self._forgotten.get(memo)
        if out is None:
            units = tuple(stand.get(u.id) or self._inert(u) if u.id in ids else u for u in s.units)
            machines = tuple(replace(m, riders=tuple(r for r in m.riders if r not in ids)) if not ids.isdisjoint(m.riders) else m
                             for m in s.machines)
            out = Situation(units, machines)
            if len(self._forgotten) < 100_000:
                self._forgotten[memo] = out
        return out

    def values(self, state: ChainState, gone: frozenset[str]) -> dict[str, bool]:
        """The keys of a final state, for what is not forgotten."""
        sit = state.situation
        out: dict[str, bool] = {}
        for u in sit.units:
            if u.id not in gone and u.id in self.initial:
                out.update(unit_flags(sit, u, self.initial[u.id]))
        for mid in self.machines:
            out[f"counter {mid} removed"] = sit.machine(mid).removed
        out.update({f"{f} hits {u}": True for f, u in state.hits})
        return out

    # -- Random Selection, lazily --

    def _lazy_select(self, state: ChainState, head: DoSelect) -> dict[ChainState, Fraction] | None:
        sit = state.situation
        if head.already:
            return None
        alive = tuple(u for u in head.candidates if not sit.unit(u).eliminated)
        members = set(alive)
        skip = frozenset({0} | {i for i, p in enumerate(state.pending) if type(p) is DoMC and p.unit in members})
        reads = self._reads(state, skip)
        if reads is None:
            return None
        changed, _ = reads
        lazy = [u for u in alive if u not in changed and not sit.unit(u).is_leader and sit.mount_of(u) is None]
        if len(lazy) < 2:
            return None
        eager = tuple(u for u in alive if u not in lazy)
        n, e = len(alive), len(eager)
        rest = state.pending[1:]
        ties = morale_settings(self.rules).ties
        if head.effect is Effect.K:
            first = {u: _DoDecide(head.fire, head.effect, head.n, u) for u in lazy}
            pending = tuple(q for p in rest for q in ((first[p.unit], p) if type(p) is DoMC and p.unit in first else (p,)))
        else:
            pending = tuple(_DoDecide(head.fire, head.effect, head.n, u) for u in lazy) + rest
        base = ChainState(sit, pending, state.hits, state.movement)
        sub = replace(head, group=eager, candidates=eager, count=0, already=())
        out: dict[ChainState, Fraction] = {}
        for pattern in product((False, True), repeat=e):
            j = sum(pattern)
            p = _ways(n, head.count, ties, n - e, j)
            if not p:
                continue
            chosen = tuple(u for u, b in zip(eager, pattern) if b)
            nxt, _ = self.chain._after_selection(sub, base, chosen, None, [])
            tally = _Drawn(head.fire, head.effect, head.n, n, head.count, ties, e, j)
            nxt = ChainState(nxt.situation, nxt.pending + (tally,), nxt.hits, nxt.movement)
            out[nxt] = out.get(nxt, Fraction(0)) + p
        return out

    def _decide(self, state: ChainState, head: _DoDecide) -> dict[ChainState, Fraction]:
        ms = morale_settings(self.rules)
        rest = state.pending[1:]
        at = next(i for i in range(len(rest) - 1, -1, -1) if type(rest[i]) is _Drawn and rest[i].fire == head.fire
                  and rest[i].effect is head.effect and rest[i].n == head.n)
        tally = rest[at]
        left = tally.size - tally.drawn
        p_sel = (_ways(tally.size, tally.count, tally.ties, left - 1, tally.selected + 1)
                 / _ways(tally.size, tally.count, tally.ties, left, tally.selected))
        sit = state.situation
        u = sit.unit(head.unit)
        out: dict[ChainState, Fraction] = {}
        for picked, p in ((True, p_sel), (False, 1 - p_sel)):
            if not p:
                continue
            if picked:
                after = replace(u, eliminated=True) if head.effect is Effect.KIA else casualty_reduction(u, ms)
            elif head.effect is Effect.KIA and ms.kia_survivors_break:
                after = fail_morale(u, ms)
            else:
                after = u
            if left == 1:
                pending = rest[:at] + rest[at + 1:]
            else:
                pending = rest[:at] + (replace(tally, drawn=tally.drawn + 1, selected=tally.selected + picked),) + rest[at + 1:]
            nxt = ChainState(sit if after is u else sit.with_unit(after), pending, state.hits, state.movement)
            out[nxt] = out.get(nxt, Fraction(0)) + p
        return out

    # -- Bail Out, counter by counter --

    def _split_bail_out(self, state: ChainState) -> ChainState:
        """Once no To Hit, IFT or Random Selection of its attack is pending (no counter will be made or
        substituted any more), replace an attack's Bail Out by one `_BailOne` per counter with riders,
        each after the last MC or PTC of its riders and after the counters before it, and a `_BailAnchor`."""
        pending = state.pending
        at = next((i for i, p in enumerate(pending) if type(p) is DoBailOut), None)
        if at is None:
            return state
        bail = pending[at]
        if any(type(p) in (DoToHit, DoIFT, DoSelect) and p.fire == bail.fire for p in pending[:at]):
            return state
        sit = state.situation
        after: dict[int, list[_BailOne]] = {}
        floor = -1
        for m in sit.machines:
            if m.removed or not m.riders:
                continue
            riders = set(m.riders)
            last = max((i for i, p in enumerate(pending[:at]) if type(p) in (DoMC, DoPTC, DoBailNMC, _DoDecide) and p.unit in riders),
                       default=-1)
            floor = max(floor, last)
            # what the counter's Bail Out reads of the start: its riders' good order
            start = Situation(tuple(bail.start.unit(r) for r in m.riders))
            after.setdefault(floor, []).append(_BailOne(bail.fire, start, m.id))
        out: list[Any] = list(after.get(-1, ()))
        for i, p in enumerate(pending[:at]):
            out.append(p)
            out += after.get(i, ())
        out.append(_BailAnchor(bail.fire))
        out += pending[at + 1:]
        return ChainState(sit, tuple(out), state.hits, state.movement)

    def _bail_one(self, state: ChainState, head: _BailOne) -> dict[ChainState, Fraction]:
        sit, _, nmcs = self.chain.bail_out_counter(state.situation, head.machine, DoBailOut(head.fire, head.start))
        rest = state.pending[1:]
        anchor = next(i for i, p in enumerate(rest) if type(p) is _BailAnchor and p.fire == head.fire)
        # Hexes where a leader's good order or leadership may still change before the anchor: an NMC queued
        # there for a leader (from the counters before this one), a leader's MC still to come (a rider broken by
        # an nKIA bails out before the leaders' MCs), a Random Selection reaching a leader.
        queued: set[str] = set()
        for p in rest[:anchor]:
            kind = type(p)
            if kind is DoBailNMC or kind is DoMC:
                u = sit.unit(p.unit)
                if u.is_leader:
                    queued.add(u.hex)
            elif kind is DoSelect:
                queued.update(sit.unit(g).hex for g in p.group if sit.unit(g).is_leader)
        now: list[DoBailNMC] = []
        later: list[DoBailNMC] = []
        for nmc in nmcs:
            u = sit.unit(nmc.unit)
            if u.is_leader:
                queued.add(u.hex)
                later.append(nmc)
            elif u.hex in queued or later:
                later.append(nmc)
            else:
                now.append(nmc)
        pending = tuple(now) + rest[:anchor] + tuple(later) + rest[anchor:]
        return {ChainState(sit, pending, state.hits, state.movement): Fraction(1)}
