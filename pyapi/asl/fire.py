"""Fire at a Location with riders: To Hit, one IFT DR, Random Selection, Casualty Reduction,
Morale Checks, Bail Out and counter substitution (ASL-TGT-01/02, ASL-RES-01..04, A7, C3).

The resolution is a chain of small steps over a frozen `ChainState` (see
hardpoint.asl.chance): rolled with any dice source by `run_chain`, or
enumerated exactly by `exact_chain`. Nothing is changed in place.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Callable, Mapping

from ..data import Rules
from ..dice import DiceSource, ScriptedDice
from ..errors import DiceExhausted, RuleViolation, ScenarioError
from ..events import Event, Modifier, Note
from .enums import Capacity, Effect, FireKind, FirerRow, MachineType, Motion, Phase, TargetType
from .events import BailOut, CasualtyApplied, CounterChanged, IFTBreakdown, IFTOutcome, IFTRoll, LeaderLoss, ToHitRoll, fmt_fraction
from .ift import cowering_shift, ift_column, ift_distribution, ift_outcome, target_ift_drm
from .morale import (is_motorcyclist, morale_check, morale_check_outcomes, pin_task_check, pin_task_check_outcomes, random_selection_round,
                     selection_distribution)
from .motorcycles import (check_overrun, check_overrun_moment, overrun_rider_fp, rider_fire_multiplier, smc_groups,
                          substitute_counter)
from .tables import IFTResult, ift_table, morale_settings
from .movement import PhaseRecord, end_phase
from .tohit import check_target_type, to_hit_breakdown
from .units import Board, Situation, casualty_reduction, fail_bail_out, fail_morale, is_good_order

__all__ = [
    "FireDeclaration", "FirepowerBreakdown", "firepower", "fire_exclusions", "fire_targets", "explain_fire", "check_fire",
    "ChainState", "ASLChain", "DoMove", "DoEndPhase", "DoFire", "initial_state",
]


@dataclass(frozen=True)
class FireDeclaration:
    """A declared attack on the units of one hex.

    kind ORDNANCE: a gun with `fp` (its IFT FP, e.g. 12 for a 75mm) fires at the Infantry target
    type: one To Hit DR, then the IFT vs each unit hit. SMALL_ARMS: `firers` (units, optionally
    with a support weapon each in `weapons`) attack on the IFT. OVERRUN: the sidecar `machine`
    overruns with base `fp` plus 1/4 of its riders' FP (ASL-MOV-04).
    """

    id: str
    kind: FireKind
    target: str
    range: int
    fp: Fraction | None = None
    firers: tuple[str, ...] = ()
    weapons: tuple[tuple[str, str], ...] = ()
    machine: str | None = None
    weapon: str = ""
    firer_row: FirerRow = FirerRow.OTHER
    target_type: TargetType = TargetType.INFANTRY
    phase: Phase = Phase.PFPH
    directed_by: str | None = None
    inexperienced: bool = False
    tpbf: bool = False
    halvings: tuple[str, ...] = ()
    to_hit_drm: tuple[Modifier, ...] = ()
    ift_drm: tuple[Modifier, ...] = ()


@dataclass(frozen=True)
class FirepowerBreakdown:
    """The attack's total FP and how each firer's share was reached (A7.2, D15.6, D15.43)."""

    total: Fraction
    lines: tuple[str, ...]
    all_smc: bool = False


def _fmt(x: Fraction) -> str:
    return fmt_fraction(x)


def firepower(rules: Rules, situation: Situation, fire: FireDeclaration) -> FirepowerBreakdown:
    """The FP of an attack. Small arms: each firer's FP (or its SW's), doubled at point blank
    (tripled with TPBF), halved at long range (A7.22), halved when pinned (A7.8), halved for each
    declared halving, and times the Mounted Fire factor of a sidecar rider (ASL-FIRE-01) (cycle
    and bicycle riders may not fire at all); the shares are added. Ordnance: its declared FP.
    Overrun: the base FP plus 1/4 of the riders' FP at TPBF (ASL-MOV-04)."""
    t = ift_table(rules)
    if fire.kind is FireKind.ORDNANCE:
        if fire.fp is None:
            raise ScenarioError("an ordnance attack needs its IFT FP (fp)", field=f"fire.{fire.id}.fp", rule="C3")
        return FirepowerBreakdown(fire.fp, (f"{fire.weapon or 'gun'}: {_fmt(fire.fp)} FP on the IFT (ordnance hits use the IFT)",))
    if fire.kind is FireKind.OVERRUN:
        machine = situation.machine(fire.machine or "", f"fire.{fire.id}.machine")
        check_overrun(machine)
        if fire.fp is None:
            raise ScenarioError("an overrun needs the vehicle's own OVR FP (fp); the seeds do not give it", field=f"fire.{fire.id}.fp",
                                rule="ASL-MOV-04")
        riders = situation.riders(machine)
        extra = overrun_rider_fp(rules, riders, t.triple_point_blank)
        return FirepowerBreakdown(fire.fp + extra, (f"{machine.id} overrun: {_fmt(fire.fp)} FP",
                                                    f"riders {', '.join(u.id for u in riders)}: 1/4 of their FP x{t.triple_point_blank} (TPBF) "
                                                    f"= {_fmt(extra)} (ASL-MOV-04)"), False)
    if not fire.firers:
        raise ScenarioError("a small-arms attack needs firers", field=f"fire.{fire.id}.firers", rule="A7")
    weapons = dict(fire.weapons)
    total, lines = Fraction(0), []
    smc_only = True
    for uid in fire.firers:
        u = situation.unit(uid, f"fire.{fire.id}.firers")
        if not is_good_order(u):
            raise RuleViolation("a broken or eliminated unit cannot fire", field=f"fire.{fire.id}.firers", value=uid, rule="A10")
        smc_only = smc_only and u.is_smc
        sw = None
        if uid in weapons:
            sw = next((w for w in u.weapons if w.id == weapons[uid]), None)
            if sw is None:
                raise ScenarioError("the unit has no such support weapon", field=f"fire.{fire.id}.weapons.{uid}", value=weapons[uid], rule="A7")
        fp, normal = (Fraction(sw.fp), sw.range) if sw else (Fraction(u.fp), u.range)
        mult = rider_fire_multiplier(rules, situation, u, sw.type if sw else None)
        parts = [f"{uid}{' ' + sw.id if sw else ''}: {_fmt(fp)}"]
        if fire.range > normal * t.long_range_factor:
            raise RuleViolation(f"range {fire.range} is beyond {t.long_range_factor}x the normal range {normal}", field=f"fire.{fire.id}.range",
                                value=fire.range, rule="A7.22")
        if fire.range > normal:
            fp /= t.long_range_divisor
            parts.append("long range /2 (A7.22)")
        if fire.tpbf:
            fp *= t.triple_point_blank
            parts.append(f"TPBF x{t.triple_point_blank} (A7.212)")
        elif fire.range <= t.point_blank_range:
            fp *= t.point_blank
            parts.append(f"PBF x{t.point_blank} (A7.21)")
        if u.pinned:
            fp /= 2
            parts.append("pinned /2 (A7.8)")
        if mult != 1:
            fp *= mult
            parts.append(f"Mounted Fire x{_fmt(mult)} (ASL-FIRE-01)")
        for why in fire.halvings:
            fp /= 2
            parts.append(f"{why} /2")
        lines.append(", ".join(parts) + f" = {_fmt(fp)}")
        total += fp
    return FirepowerBreakdown(total, tuple(lines), smc_only)


def fire_exclusions(situation: Situation, fire: FireDeclaration) -> frozenset[str]:
    """The units in the target Location the attack does not reach: its firers; for an overrun the
    sidecar's riders and every unit of their side (ASL-MOV-04: it attacks the enemy it rides in on)."""
    exclude = set(fire.firers)
    if fire.kind is FireKind.OVERRUN and fire.machine:
        riders = situation.machine(fire.machine).riders
        sides = {situation.unit(r).side for r in riders}
        exclude |= set(riders) | {u.id for u in situation.units_in(fire.target, alive=False) if u.side in sides}
    return frozenset(exclude)


def fire_targets(situation: Situation, fire: FireDeclaration) -> tuple[str, ...]:
    """Every unit the attack reaches in the target Location: all alive units there but those of
    `fire_exclusions` (ASL-TGT-02)."""
    exclude = fire_exclusions(situation, fire)
    return tuple(u.id for u in situation.units_in(fire.target) if u.id not in exclude)


def _leader_directed(rules: Rules, situation: Situation, fire: FireDeclaration) -> Modifier | None:
    """A leader directing Infantry fire adds his leadership modifier to the IFT DR (A10.7); he must
    be in good order and not riding a cycle or bicycle (ASL-FIRE-01)."""
    if not fire.directed_by:
        return None
    leader = situation.unit(fire.directed_by, f"fire.{fire.id}.directed_by")
    if not leader.is_leader or not is_good_order(leader):
        raise RuleViolation("fire is directed by a good-order leader", field=f"fire.{fire.id}.directed_by", value=leader.id, rule="A10.7")
    m = situation.mount_of(leader.id)
    if m is not None and m.type is not MachineType.SIDECAR:
        raise RuleViolation(f"a leader riding a {m.type} cannot direct fire on the IFT", field=f"fire.{fire.id}.directed_by",
                            value=leader.id, rule="ASL-FIRE-01")
    return Modifier(f"leadership of {leader.id}", leader.leadership, "A10.7")


def check_fire(rules: Rules, board: Board, situation: Situation, fire: FireDeclaration) -> None:
    """Everything about a declaration that does not need dice: raises before anything changes (ERR-01),
    the target hex's TEM included (B1: its own `tem` or its terrain's), so a scenario whose target hex
    has neither fails on load, not when the attack is resolved."""
    board.tem(rules, board.hex(fire.target, f"fire.{fire.id}.target"))
    if fire.kind is FireKind.ORDNANCE:
        check_target_type(rules, situation, fire.target, fire.target_type, f"fire.{fire.id}.target_type")
    if fire.kind is FireKind.OVERRUN:
        machine = situation.machine(fire.machine or "", f"fire.{fire.id}.machine")
        check_overrun(machine)
        check_overrun_moment(machine, fire.target, fire.phase, fire.range, f"fire.{fire.id}")
    if fire.kind is not FireKind.ORDNANCE and fire.to_hit_drm:
        raise ScenarioError("only ordnance rolls To Hit", field=f"fire.{fire.id}.to_hit_drm", rule="C3")
    firepower(rules, situation, fire)
    _leader_directed(rules, situation, fire)


# --- explain (LOG-02) ----------------------------------------------------------------------------

def _column_and_shift(rules: Rules, situation: Situation, fire: FireDeclaration) -> tuple[FirepowerBreakdown, int | None, int, Modifier | None]:
    fpb = firepower(rules, situation, fire)
    t = ift_table(rules)
    lead = _leader_directed(rules, situation, fire)
    shift = cowering_shift(t, fire.kind, fpb.all_smc, lead is not None, fire.inexperienced)
    return fpb, ift_column(t, fpb.total), shift, lead


def _unit_ift_drm(rules, board, situation, fire, unit, lead) -> tuple[Modifier, ...]:
    extra = fire.ift_drm + ((lead,) if lead is not None and lead.value else ())
    return target_ift_drm(rules, board, situation, unit, fire.kind, fire.phase, extra)


def explain_fire(rules: Rules, board: Board, situation: Situation, fire: FireDeclaration) -> tuple[FirepowerBreakdown, list[Event]]:
    """The To Hit breakdown of each unit (ordnance), then the IFT column, DRM and the exact odds of
    every result for each unit (given a hit, for ordnance), without rolling."""
    fpb, column, shift, lead = _column_and_shift(rules, situation, fire)
    t = ift_table(rules)
    events: list[Event] = []
    for uid in fire_targets(situation, fire):
        u = situation.unit(uid)
        if fire.kind is FireKind.ORDNANCE:
            events.append(to_hit_breakdown(rules, situation, fire.id, u, fire.target_type, fire.firer_row, fire.range, fire.to_hit_drm))
        mods = _unit_ift_drm(rules, board, situation, fire, u, lead)
        dist = ift_distribution(t, column, shift, sum(m.value for m in mods))
        events.append(IFTBreakdown(fire.id, uid, fpb.total, column, mods, shift > 0, dist, fire.kind is FireKind.ORDNANCE,
                                   notes=ift_result_notes(situation, u, dist)))
    return fpb, events


def ift_result_notes(situation: Situation, unit, distribution: Mapping[str, Fraction]) -> tuple[str, ...]:
    """ASL-RES-04 (D15.54): what `explain` must say beside the IFT odds of a unit: a PTC result has
    no effect on a motorcyclist (no PTC is taken; neither does an MC equal to his morale pin him)."""
    if is_motorcyclist(situation, unit) and distribution.get("PTC"):
        return ("PTC: no effect on a motorcyclist, no PTC is taken (D15.54, ASL-RES-04)",)
    return ()


def _dr_classes(doubles: bool) -> tuple[tuple[tuple[int, int], Fraction], ...]:
    """One representative pair of faces per DR total (and doubles flag), with its probability."""
    classes: dict[tuple[int, bool], list] = {}
    for a in range(1, 7):
        for b in range(1, 7):
            key = (a + b, a == b and doubles)
            classes.setdefault(key, [(a, b), 0])[1] += 1
    return tuple((faces, Fraction(n, 36)) for faces, n in classes.values())


def _by_dr_class(step: Callable, state: "ChainState", doubles: bool) -> dict["ChainState", Fraction] | None:
    out: dict[ChainState, Fraction] = {}
    for faces, p in _dr_classes(doubles):
        dice = ScriptedDice(faces)
        try:
            nxt, _ = step(state, dice)
        except DiceExhausted:
            return None      # more than one DR: let exact_chain enumerate every die
        if dice.used == 0:
            return {nxt: Fraction(1)}
        out[nxt] = out.get(nxt, Fraction(0)) + p
    return out


def _purpose(step: "DoSelect") -> str:
    return f"{step.n}KIA" if step.effect is Effect.KIA else f"K/{step.n}"


# --- the chain --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class DoMove:
    move: str
    phase: Phase = Phase.MPH


@dataclass(frozen=True)
class DoEndPhase:
    phase: Phase


@dataclass(frozen=True)
class DoFire:
    fire: str


@dataclass(frozen=True)
class DoToHit:
    fire: str
    targets: tuple[str, ...]


@dataclass(frozen=True)
class DoIFT:
    fire: str
    targets: tuple[str, ...]


@dataclass(frozen=True)
class DoSelect:
    fire: str
    effect: Effect
    n: int
    group: tuple[str, ...]
    candidates: tuple[str, ...]
    count: int
    already: tuple[str, ...] = ()


@dataclass(frozen=True)
class DoMC:
    fire: str
    unit: str
    drm: int


@dataclass(frozen=True)
class DoPTC:
    fire: str
    unit: str


@dataclass(frozen=True)
class DoBailOut:
    fire: str
    start: Situation


@dataclass(frozen=True)
class DoBailNMC:
    fire: str
    unit: str


@dataclass(frozen=True)
class DoLeaderLoss:
    fire: str
    start: Situation


@dataclass(frozen=True)
class ChainState:
    """Everything that decides what happens next: units and counters, the steps still to take,
    and which units each ordnance attack hit (for the outcome table)."""

    situation: Situation
    pending: tuple[Any, ...]
    hits: frozenset[tuple[str, str]] = frozenset()
    movement: PhaseRecord | None = None

    def __hash__(self) -> int:
        # States are hashed many times while the exact distribution is merged: compute once.
        h = self.__dict__.get("_hash")
        if h is None:
            h = hash((self.situation, self.pending, self.hits, self.movement))
            object.__setattr__(self, "_hash", h)
        return h

    def __getstate__(self) -> dict:
        # String hashes differ between processes: never ship the cached one.
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}


def initial_state(situation: Situation, steps: tuple[Any, ...]) -> ChainState:
    """The state before a scenario's sequence of steps (`DoFire`, `DoMove`, `DoEndPhase`)."""
    return ChainState(situation, tuple(steps))


@dataclass
class ASLChain:
    """The resolution of a scenario's declared moves and attacks, one step at a time."""

    rules: Rules
    board: Board
    fires: Mapping[str, FireDeclaration]
    moves: Mapping[str, Callable[[Situation, PhaseRecord, DiceSource], tuple[Situation, PhaseRecord, list[Event]]]] = \
        field(default_factory=dict)

    def done(self, state: ChainState) -> bool:
        return not state.pending

    def exact_step(self, state: ChainState) -> dict[ChainState, Fraction] | None:
        """The exact outcomes of the next step in closed form, or None to let `exact_chain`
        enumerate every die. Random Selection (A.9): `selection_distribution`. MC, PTC and Bail Out
        NMC read their DR only against the unit's morale: `morale_check_outcomes`,
        `pin_task_check_outcomes`. A step rolling one DR whose rule reads only its total (To Hit), or
        its total and whether it is doubles (IFT, for cowering), is replayed once per class of DR."""
        head = state.pending[0]
        if isinstance(head, (DoMC, DoPTC, DoBailNMC)):
            sit = state.situation
            if isinstance(head, DoMC):
                outs = morale_check_outcomes(self.rules, sit, head.unit, head.drm)
            elif isinstance(head, DoBailNMC):
                outs = morale_check_outcomes(self.rules, sit, head.unit, morale_settings(self.rules).bail_out_nmc_drm, fail=fail_bail_out)
            else:
                outs = pin_task_check_outcomes(self.rules, sit, head.unit)
            merged: dict[ChainState, Fraction] = {}
            for after, p in outs:
                nxt = ChainState(after, state.pending[1:], state.hits, state.movement)
                merged[nxt] = merged.get(nxt, Fraction(0)) + p
            return merged
        if isinstance(head, DoToHit):
            return _by_dr_class(self.step, state, doubles=False)
        if isinstance(head, DoIFT):
            return _by_dr_class(self.step, state, doubles=True)
        if not isinstance(head, DoSelect):
            return None
        base = ChainState(state.situation, state.pending[1:], state.hits, state.movement)
        alive = tuple(u for u in head.candidates if not state.situation.unit(u).eliminated)
        out: dict[ChainState, Fraction] = {}
        for (chosen, unresolved), p in selection_distribution(alive, head.count, morale_settings(self.rules).ties).items():
            nxt, _ = self._after_selection(head, base, chosen, unresolved, [])
            out[nxt] = out.get(nxt, Fraction(0)) + p
        return out

    def step(self, state: ChainState, dice: DiceSource) -> tuple[ChainState, list[Event]]:
        head, rest = state.pending[0], state.pending[1:]
        base = ChainState(state.situation, rest, state.hits, state.movement)
        return getattr(self, f"_{type(head).__name__}")(head, base, dice)

    # -- moves and the start of an attack --

    def _DoMove(self, step: DoMove, state: ChainState, dice) -> tuple[ChainState, list[Event]]:
        """One whole move of the phase (ASL-MOV-02: against what the phase has seen so far)."""
        record = state.movement if state.movement is not None else PhaseRecord(step.phase)
        situation, record, events = self.moves[step.move](state.situation, record, dice)
        return replace(state, situation=situation, movement=record), events

    def _DoEndPhase(self, step: DoEndPhase, state: ChainState, dice) -> tuple[ChainState, list[Event]]:
        """ASL-MOV-03: the phase ends; a motorcycle still moving is in Motion."""
        record = state.movement if state.movement is not None else PhaseRecord(step.phase)
        _, situation, events = end_phase(self.rules, record, state.situation)
        note = Note(f"end of the {'MPh' if step.phase is Phase.MPH else 'APh'}", "ASL-MOV-02")
        return replace(state, situation=situation, movement=None), [note, *events]

    def _DoFire(self, step: DoFire, state: ChainState, dice) -> tuple[ChainState, list[Event]]:
        fire = self.fires[step.fire]
        try:
            check_fire(self.rules, self.board, state.situation, fire)
        except RuleViolation as exc:
            # Legal when declared, made illegal by an earlier result (a firer broken by a previous attack).
            return state, [Note(f"{fire.id} cancelled: {getattr(exc, 'message', exc)}", exc.rule)]
        targets = fire_targets(state.situation, fire)
        first = DoToHit(fire.id, targets) if fire.kind is FireKind.ORDNANCE else DoIFT(fire.id, targets)
        tail = (DoBailOut(fire.id, state.situation), DoLeaderLoss(fire.id, state.situation))
        events: list[Event] = [Note(f"{fire.id}: {fire.kind} attack on {fire.target} at {fire.range} hexes ({fire.phase})", "A7")]
        return replace(state, pending=(first,) + tail + state.pending), events

    def _DoToHit(self, step: DoToHit, state: ChainState, dice) -> tuple[ChainState, list[Event]]:
        """ASL-TGT-02: one Original To Hit DR, compared with each unit's own modified number (C3)."""
        fire = self.fires[step.fire]
        sit = state.situation
        breakdowns = [to_hit_breakdown(self.rules, sit, fire.id, sit.unit(u), fire.target_type, fire.firer_row, fire.range, fire.to_hit_drm)
                      for u in step.targets]
        roll = dice.roll("DR", f"To Hit ({fire.id})", "C3")
        hit = tuple(b.target for b in breakdowns if roll.total <= b.needed)
        missed = tuple(b.target for b in breakdowns if roll.total > b.needed)
        events: list[Event] = [*breakdowns, roll, ToHitRoll(fire.id, roll, hit, missed)]
        hits = state.hits | {(fire.id, u) for u in hit}
        pending = ((DoIFT(fire.id, hit),) if hit else ()) + state.pending
        return replace(state, pending=pending, hits=hits), events

    def _DoIFT(self, step: DoIFT, state: ChainState, dice) -> tuple[ChainState, list[Event]]:
        """ASL-TGT-02: one IFT DR for every unit hit; each unit's Final DR with its own DRM; the
        results grouped: nKIA and K/n by Random Selection within the group, then the MCs (leaders
        first, A10.7), then PTCs."""
        fire = self.fires[step.fire]
        sit = state.situation
        if not step.targets:
            return state, [Note(f"{fire.id}: no unit in {fire.target} to attack", "A7")]
        fpb, column, shift, lead = _column_and_shift(self.rules, sit, fire)
        t = ift_table(self.rules)
        roll = dice.roll("DR", f"IFT ({fire.id}, {_fmt(fpb.total)} FP)", "A7")
        doubles = roll.faces[0] == roll.faces[1]
        outcomes, results = [], {}
        used = column
        for uid in step.targets:
            mods = _unit_ift_drm(self.rules, self.board, sit, fire, sit.unit(uid), lead)
            used, final, res = ift_outcome(t, column, shift, (roll.faces[0], roll.faces[1]), sum(m.value for m in mods))
            outcomes.append(IFTOutcome(uid, final, res.text))
            results[uid] = res
        event = IFTRoll(fire.id, roll, column, shift if doubles and column is not None else 0, used, tuple(outcomes))
        groups: dict[IFTResult, list[str]] = {}
        for uid, res in results.items():
            groups.setdefault(res, []).append(uid)
        selects, mcs, ptcs = [], [], []
        for res, group in groups.items():
            g = tuple(group)
            if res.effect is Effect.KIA:
                selects.append(DoSelect(fire.id, Effect.KIA, res.n, g, g, res.n))
            elif res.effect is Effect.K:
                selects.append(DoSelect(fire.id, Effect.K, res.n, g, g, 1))
                mcs += [(u, res.n) for u in g]
            elif res.effect is Effect.MC:
                mcs += [(u, res.n) for u in g]
            elif res.effect is Effect.PTC:
                ptcs += list(g)
        order = {u.id: i for i, u in enumerate(sit.units)}
        mcs.sort(key=lambda x: (not sit.unit(x[0]).is_leader, order[x[0]]))
        new = tuple(selects) + tuple(DoMC(fire.id, u, n) for u, n in mcs) + tuple(DoPTC(fire.id, u) for u in ptcs)
        return ChainState(state.situation, new + state.pending, state.hits, state.movement), [roll, event]

    # -- Random Selection and casualties --

    def _DoSelect(self, step: DoSelect, state: ChainState, dice) -> tuple[ChainState, list[Event]]:
        """A.9 Random Selection within the group; then nKIA eliminates the selected and breaks the
        rest (A7.301), K/n Casualty Reduces the selected (A7.302); counters shrink (D15.52)."""
        ms = morale_settings(self.rules)
        alive = tuple(u for u in step.candidates if not state.situation.unit(u).eliminated)
        chosen, unresolved, events = random_selection_round(alive, step.count, ms.ties, dice, f"{step.fire} {_purpose(step)}")
        return self._after_selection(step, state, chosen, unresolved, events)

    def _after_selection(self, step: DoSelect, state: ChainState, chosen: tuple[str, ...],
                         unresolved: tuple[tuple[str, ...], int] | None, events: list[Event]) -> tuple[ChainState, list[Event]]:
        ms = morale_settings(self.rules)
        sit = state.situation
        purpose = _purpose(step)
        if unresolved is not None:
            again = replace(step, candidates=unresolved[0], count=unresolved[1], already=step.already + chosen)
            return replace(state, pending=(again,) + state.pending), events
        selected = step.already + chosen
        touched: set[str] = set()
        for uid in step.group:
            u = sit.unit(uid)
            if u.eliminated:
                continue
            if uid in selected:
                after = replace(u, eliminated=True) if step.effect is Effect.KIA else casualty_reduction(u, ms)
                cause = purpose if step.effect is Effect.KIA else f"{purpose} Casualty Reduction"
                rule = "A7.301" if step.effect is Effect.KIA else "A7.302"
            elif step.effect is Effect.KIA and ms.kia_survivors_break:
                after, cause, rule = fail_morale(u, ms), f"{purpose}: automatic break", "A7.301"
            else:
                continue
            events.append(CasualtyApplied(uid, u.status(), after.status(), cause, rule))
            sit = sit.with_unit(after)
            touched.add(uid)
        rule = "ASL-RES-01" if step.effect is Effect.KIA else "ASL-RES-02"
        for m in sit.machines:
            if not m.removed and touched & set(m.riders):
                sit, evs = substitute_counter(self.rules, sit, m.id, f"{purpose} on its riders", rule)
                events += evs
        return ChainState(sit, state.pending, state.hits, state.movement), events

    # -- morale --

    def _DoMC(self, step: DoMC, state: ChainState, dice) -> tuple[ChainState, list[Event]]:
        """ASL-RES-02/03: every unit of the group takes the MC (the motorcycle never does)."""
        sit, events = morale_check(self.rules, state.situation, step.unit, step.drm, dice, rule="A10", why=step.fire)
        return ChainState(sit, state.pending, state.hits, state.movement), events

    def _DoPTC(self, step: DoPTC, state: ChainState, dice) -> tuple[ChainState, list[Event]]:
        sit, events = pin_task_check(self.rules, state.situation, step.unit, dice)
        return ChainState(sit, state.pending, state.hits, state.movement), events

    def _DoBailOut(self, step: DoBailOut, state: ChainState, dice) -> tuple[ChainState, list[Event]]:
        """ASL-RES-03 (D15.53): a rider who broke bails out (and takes an NMC) if his motorcycle is
        moving or in Motion; if it is stopped he just dismounts. Two SMC on one machine: if one
        breaks both bail out. An MMC breaking under an SMC who does not: the SMC gets a
        single-machine counter (same motion); the MMC counter stays in the hex, unmounted.
        ASL-BIC-02: a bicyclist never bails out (RULING: he is dismounted at no cost)."""
        sit = state.situation
        events: list[Event] = []
        nmcs: list[DoBailNMC] = []
        # Every counter with riders now, those made by this attack's counter substitution included
        # (D15.52: riders not affected by the casualty are governed by the MC that follows).
        for m0 in sit.machines:
            sit, evs, more = self.bail_out_counter(sit, m0.id, step)
            events += evs
            nmcs += more
        return replace(state, situation=sit, pending=tuple(nmcs) + state.pending), events

    def bail_out_counter(self, sit: Situation, machine_id: str, step: DoBailOut) -> tuple[Situation, list[Event], list[DoBailNMC]]:
        """`_DoBailOut` for one counter: its riders who broke in the attack (since `step.start`) bail out
        or dismount; the NMCs they must take, in rider order."""
        events: list[Event] = []
        nmcs: list[DoBailNMC] = []
        m = sit.machine(machine_id)
        if m.removed or not m.riders:
            return sit, events, nmcs
        riders = sit.riders(m)
        broke = [u for u in riders if u.broken and not step.start.unit(u.id).broken]
        if not broke:
            return sit, events, nmcs
        if m.is_bicycle:
            for u in broke:
                events.append(BailOut(u.id, m.id, "is dismounted at no cost (a bicyclist never bails out; SPEC ruling)", "ASL-BIC-02"))
            return sit.with_machine(replace(m, riders=tuple(r for r in m.riders if r not in {u.id for u in broke}))), events, nmcs
        if m.motion is Motion.STOPPED:
            for u in broke:
                events.append(BailOut(u.id, m.id, "dismounts (motorcycle stopped: no further effect)", "ASL-RES-03"))
            return sit.with_machine(replace(m, riders=tuple(r for r in m.riders if r not in {u.id for u in broke}))), events, nmcs
        leaving = {u.id for u in broke}
        smc_riders = [u for u in riders if u.is_smc]
        if m.machines is Capacity.SINGLE and len(smc_riders) >= 2:
            leaving = {u.id for u in riders}
        for u in riders:
            if u.id in leaving:
                why = "bails out" if u.id in {b.id for b in broke} else "bails out with the SMC who broke"
                events.append(BailOut(u.id, m.id, f"{why} ({m.motion}): NMC", "ASL-RES-03"))
                nmcs.append(DoBailNMC(step.fire, u.id))
        staying = [u for u in riders if u.id not in leaving]
        mmc_left = any(not u.is_smc for u in riders if u.id in leaving)
        if staying and mmc_left:
            # The SMC keep going on a single-machine counter of their own (D15.53).
            groups = smc_groups(self.rules, m, staying)
            sit = sit.with_machine(replace(m, riders=(), motion=Motion.STOPPED))
            events.append(CounterChanged(m.id, m.label(), replace(m, riders=(), motion=Motion.STOPPED).label(), (),
                                         "its MMC bailed out: the counter stays in the hex", "ASL-RES-03"))
            for grp in groups:
                nid = f"{m.id}+{grp[0].id}"
                single = replace(m, id=nid, machines=Capacity.SINGLE, riders=tuple(u.id for u in grp))
                sit = sit.with_machine(single)
                events.append(CounterChanged(nid, "(none)", single.label(), single.riders,
                                             "single-machine counter for the SMC who did not break", "ASL-RES-03"))
        elif staying:
            sit = sit.with_machine(replace(m, riders=tuple(u.id for u in staying)))
        else:
            after = replace(m, riders=(), motion=Motion.STOPPED)
            sit = sit.with_machine(after)
            events.append(CounterChanged(m.id, m.label(), after.label(), (), "every rider bailed out: it stays in the hex",
                                         "ASL-RES-03"))
        return sit, events, nmcs

    def _DoBailNMC(self, step: DoBailNMC, state: ChainState, dice) -> tuple[ChainState, list[Event]]:
        """D6.24 / ASL-RES-03: the NMC of a rider bailing out; a broken rider failing it suffers
        Casualty Reduction (the SPEC Bail Out ruling, `fail_bail_out`)."""
        drm = morale_settings(self.rules).bail_out_nmc_drm
        sit, events = morale_check(self.rules, state.situation, step.unit, drm, dice, check="Bail Out NMC", rule="ASL-RES-03",
                                   why=step.fire, fail=fail_bail_out)
        return ChainState(sit, state.pending, state.hits, state.movement), events

    def _DoLeaderLoss(self, step: DoLeaderLoss, state: ChainState, dice) -> tuple[ChainState, list[Event]]:
        """A10.2: a leader broken, wounded or eliminated by the attack obliges the other good-order
        units of his Location to take a LLMC (reported, resolved by the caller). ASL-RES-04
        (D15.55): motorcyclists never take one, and a motorcyclist leader who is broken or
        eliminated causes none; one who is only wounded does (D15.55 exempts no wound)."""
        if not morale_settings(self.rules).report_leader_loss:
            return state, []
        sit = state.situation
        events: list[Event] = []
        for before in step.start.units:
            if not before.is_leader or not is_good_order(before):
                continue
            now = sit.unit(before.id)
            if not (now.broken or now.eliminated or (now.wounded and not before.wounded)):
                continue
            if is_motorcyclist(step.start, before) and (now.broken or now.eliminated):
                events.append(Note(f"{before.id} was a motorcyclist, now {'eliminated' if now.eliminated else 'broken'}: "
                                   "causes no LLMC (D15.55)", "ASL-RES-04"))
                continue
            others = [u for u in sit.units_in(before.hex) if u.id != before.id and is_good_order(u)]
            takers = tuple(u.id for u in others if not is_motorcyclist(sit, u))
            exempt = tuple(u.id for u in others if is_motorcyclist(sit, u))
            events.append(LeaderLoss(before.id, takers, exempt))
        return state, events
