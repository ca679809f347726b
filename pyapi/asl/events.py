"""ASL events: frozen dataclasses registered for JSON round trips (LOG-01).

Each has a readable `__str__` (the line `hardpoint resolve` prints) and
`to_dict()`; `hardpoint.events.event_from_dict` rebuilds it.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from ..events import DiceRolled, Event, Modifier

__all__ = [
    "ToHitBreakdown", "ToHitRoll", "IFTBreakdown", "IFTOutcome", "IFTRoll", "RandomSelection", "CasualtyApplied",
    "MoraleCheck", "BailOut", "CounterChanged", "MoveStep", "StepRefused", "WreckCheck", "ManhandlingCheck",
    "LeaderLoss", "OutcomeOdds", "ASLResult", "fmt_fraction",
]


def fmt_fraction(x: Fraction | int | None) -> str:
    """A Fraction as the rules write it: 7, 7.5, 1/3."""
    if x is None:
        return "-"
    x = Fraction(x)
    if x.denominator == 1:
        return str(x.numerator)
    if x.denominator == 2:
        return f"{float(x):g}"
    return str(x)


def _mods(mods: tuple[Modifier, ...]) -> str:
    return ", ".join(f"{m.value:+d} {m.name} [{m.rule}]" for m in mods) or "no DRM"


@dataclass(frozen=True)
class ToHitBreakdown(Event):
    """The To Hit number of one ordnance attack against one unit (C3), without rolling (LOG-02)."""

    kind: ClassVar[str] = "asl_to_hit_breakdown"
    attack: str
    target: str
    target_type: str
    range: int
    firer_row: str
    base: int
    modifiers: tuple[Modifier, ...]
    needed: int
    probability: Fraction
    rule: str = "C3"

    @property
    def total_drm(self) -> int:
        return sum(m.value for m in self.modifiers)

    def __str__(self) -> str:
        return (f"{self.attack} -> {self.target}: {self.target_type} target, {self.range} hexes, TH# {self.base} ({self.rule}); "
                f"DRM {self.total_drm:+d} ({_mods(self.modifiers)}): hit on Original DR <= {self.needed}, "
                f"probability {self.probability} ({float(self.probability):.4f})")


@dataclass(frozen=True)
class ToHitRoll(Event):
    """The one Original To Hit DR of an attack and which units it hits (ASL-TGT-02)."""

    kind: ClassVar[str] = "asl_to_hit_roll"
    attack: str
    roll: DiceRolled
    hit: tuple[str, ...]
    missed: tuple[str, ...]
    rule: str = "C3"

    def __str__(self) -> str:
        return (f"{self.attack}: Original To Hit DR {self.roll.total} {list(self.roll.faces)}: "
                f"hits {', '.join(self.hit) or 'nobody'}" + (f"; misses {', '.join(self.missed)}" if self.missed else "") + f" ({self.rule})")


@dataclass(frozen=True)
class IFTBreakdown(Event):
    """The IFT attack on one unit without rolling: FP, column, DRM and the exact odds of each result (A7)."""

    kind: ClassVar[str] = "asl_ift_breakdown"
    attack: str
    target: str
    fp: Fraction
    column: int | None
    modifiers: tuple[Modifier, ...]
    cowers: bool
    distribution: dict[str, Fraction]
    given_hit: bool = False
    rule: str = "A7"
    notes: tuple[str, ...] = ()

    @property
    def total_drm(self) -> int:
        return sum(m.value for m in self.modifiers)

    def __str__(self) -> str:
        col = f"{self.column} FP column" if self.column is not None else "below the first column (no effect)"
        odds = ", ".join(f"{k} {v} ({float(v):.4f})" for k, v in self.distribution.items())
        notes = "".join(f"; {n}" for n in self.notes)
        return (f"{self.attack} -> {self.target}: {fmt_fraction(self.fp)} FP, {col}; DRM {self.total_drm:+d} "
                f"({_mods(self.modifiers)}); {'cowers on doubles' if self.cowers else 'no cowering'}"
                f"{' (once hit)' if self.given_hit else ''}: {odds} ({self.rule}){notes}")


@dataclass(frozen=True)
class IFTOutcome(Event):
    """One unit's Final IFT DR and its result."""

    kind: ClassVar[str] = "asl_ift_outcome"
    unit: str
    final_dr: int
    result: str
    rule: str = "A7"

    def __str__(self) -> str:
        return f"{self.unit}: Final DR {self.final_dr} -> {self.result}"


@dataclass(frozen=True)
class IFTRoll(Event):
    """The one IFT DR of an attack, cowering, the column used, and every unit's result (ASL-TGT-02)."""

    kind: ClassVar[str] = "asl_ift_roll"
    attack: str
    roll: DiceRolled
    column: int | None
    cowering_shift: int
    column_used: int | None
    outcomes: tuple[IFTOutcome, ...]
    rule: str = "A7"

    def __str__(self) -> str:
        cow = f", cowers {self.cowering_shift} column(s) (A7.9)" if self.cowering_shift else ""
        col = f"{self.column_used} FP column" if self.column_used is not None else "no column: no effect"
        return (f"{self.attack}: IFT DR {self.roll.total} {list(self.roll.faces)}{cow}, {col}: "
                + "; ".join(str(o) for o in self.outcomes) + f" ({self.rule})")


@dataclass(frozen=True)
class RandomSelection(Event):
    """Random Selection: one dr per candidate, the highest selected (A.9)."""

    kind: ClassVar[str] = "asl_random_selection"
    purpose: str
    candidates: tuple[str, ...]
    drs: tuple[int, ...]
    selected: tuple[str, ...]
    ties: str
    rule: str = "A.9"

    def __str__(self) -> str:
        rolls = ", ".join(f"{c} {d}" for c, d in zip(self.candidates, self.drs))
        return f"Random Selection for {self.purpose}: dr {rolls}: selects {', '.join(self.selected)} (ties: {self.ties}) ({self.rule})"


@dataclass(frozen=True)
class CasualtyApplied(Event):
    """A unit eliminated, reduced or wounded (A7.301, A7.302, A17)."""

    kind: ClassVar[str] = "asl_casualty"
    unit: str
    before: str
    after: str
    cause: str
    rule: str

    def __str__(self) -> str:
        return f"{self.unit}: {self.before} -> {self.after} by {self.cause} ({self.rule})"


@dataclass(frozen=True)
class MoraleCheck(Event):
    """A Morale Check, Pin Task Check or Bail Out NMC: the DR, every DRM, and what happened (A10, A7.8)."""

    kind: ClassVar[str] = "asl_morale_check"
    unit: str
    check: str
    roll: DiceRolled | None
    modifiers: tuple[Modifier, ...]
    final: int | None
    morale: int
    outcome: str
    rule: str

    def __str__(self) -> str:
        if self.roll is None:
            return f"{self.unit}: {self.check}: {self.outcome} ({self.rule})"
        return (f"{self.unit}: {self.check} vs morale {self.morale}: DR {self.roll.total} {list(self.roll.faces)}, "
                f"{_mods(self.modifiers)}, Final {self.final}: {self.outcome} ({self.rule})")


@dataclass(frozen=True)
class BailOut(Event):
    """A rider leaving a motorcycle after breaking: bail out (with an NMC) or a plain dismount (D15.53)."""

    kind: ClassVar[str] = "asl_bail_out"
    unit: str
    machine: str
    how: str
    rule: str

    def __str__(self) -> str:
        return f"{self.unit} {self.how} from {self.machine} ({self.rule})"


@dataclass(frozen=True)
class CounterChanged(Event):
    """A motorcycle counter created, substituted, removed or left unmounted (D15.44, D15.51-.53)."""

    kind: ClassVar[str] = "asl_counter"
    machine: str
    before: str
    after: str
    riders: tuple[str, ...]
    why: str
    rule: str

    def __str__(self) -> str:
        who = f" carrying {', '.join(self.riders)}" if self.riders else ""
        return f"counter {self.machine}: {self.before} -> {self.after}{who}: {self.why} ({self.rule})"


@dataclass(frozen=True)
class MoveStep(Event):
    """One step of a move charged to the ledger: what it cost and what is left (ASL-MOV-02)."""

    kind: ClassVar[str] = "asl_move_step"
    move: str
    action: str
    detail: str
    mf: dict[str, Fraction]
    mp: Fraction
    mf_used: dict[str, Fraction]
    mf_allotment: dict[str, int]
    mp_used: Fraction | None
    mp_allotment: int | None
    hex: str
    motion: str
    rule: str
    vca: str = ""

    def __str__(self) -> str:
        cost = []
        if any(self.mf.values()):
            cost.append("MF " + ", ".join(f"{u} {fmt_fraction(v)}" for u, v in self.mf.items() if v))
        if self.mp:
            cost.append(f"MP {fmt_fraction(self.mp)}")
        used = ", ".join(f"{u} {fmt_fraction(v)} of {self.mf_allotment[u]} MF" for u, v in self.mf_used.items())
        mp = f"; {fmt_fraction(self.mp_used)} of {self.mp_allotment} MP" if self.mp_allotment is not None else ""
        vca = f", VCA {self.vca}" if self.vca else ""
        return (f"{self.move}: {self.action}{' ' + self.detail if self.detail else ''}: costs {'; '.join(cost) or 'nothing'}"
                f" -> {used}{mp}; in {self.hex}, {self.motion}{vca} ({self.rule})")


@dataclass(frozen=True)
class StepRefused(Event):
    """A declared step the rules forbid, attempted and refused: the ledger is unchanged (ERR-01)."""

    kind: ClassVar[str] = "asl_step_refused"
    move: str
    action: str
    reason: str
    rule: str

    def __str__(self) -> str:
        return f"{self.move}: {self.action} REFUSED: {self.reason}"


@dataclass(frozen=True)
class WreckCheck(Event):
    """The Wreck Check dr of a motorcycle ridden into shellholes, a stream or across a steep hexside (D15.46)."""

    kind: ClassVar[str] = "asl_wreck_check"
    machine: str
    roll: DiceRolled
    wrecked: bool
    dismount_hex: str
    rule: str = "ASL-MOV-06"

    def __str__(self) -> str:
        what = f"WRECK: riders broken and dismounted in {self.dismount_hex}" if self.wrecked else "no wreck"
        return f"{self.machine}: Wreck Check dr {self.roll.total}: {what} ({self.rule})"


@dataclass(frozen=True)
class ManhandlingCheck(Event):
    """The Manhandling DR of a motorcycle Pushed as a Gun (D15.4, C10.3)."""

    kind: ClassVar[str] = "asl_manhandling"
    machine: str
    roll: DiceRolled
    modifiers: tuple[Modifier, ...]
    final: int
    m_number: int
    moved: bool
    rule: str = "ASL-MOV-01"

    def __str__(self) -> str:
        return (f"{self.machine}: Manhandling DR {self.roll.total} {list(self.roll.faces)}, {_mods(self.modifiers)}, "
                f"Final {self.final} vs M# {self.m_number}: {'pushed' if self.moved else 'does not move'} ({self.rule})")


@dataclass(frozen=True)
class LeaderLoss(Event):
    """A leader lost (broken, wounded, eliminated): who must take a LLMC (A10.2); riders never do (D15.55)."""

    kind: ClassVar[str] = "asl_leader_loss"
    leader: str
    units: tuple[str, ...]
    exempt: tuple[str, ...]
    rule: str = "A10.2"

    def __str__(self) -> str:
        who = ", ".join(self.units) or "nobody"
        ex = f"; no LLMC for riders {', '.join(self.exempt)} (D15.55)" if self.exempt else ""
        return f"leader {self.leader} lost: LLMC due for {who}{ex} ({self.rule}; resolved by the caller)"


@dataclass(frozen=True)
class OutcomeOdds(Event):
    """The exact probability of one outcome of the scenario (FAST-02)."""

    kind: ClassVar[str] = "asl_outcome_odds"
    outcome: str
    probability: Fraction
    rule: str = ""

    def __str__(self) -> str:
        return f"{self.probability} ({float(self.probability):.4f}): {self.outcome}"


@dataclass(frozen=True)
class ASLResult(Event):
    """One resolved ASL scenario: every event, and the final state of every unit and counter (LOG-01)."""

    kind: ClassVar[str] = "asl_result"
    scenario: str
    events: tuple[Event, ...]
    units: dict[str, str]
    counters: dict[str, str]
    seed: int | None = None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "ASLResult":
        from ..events import event_from_dict

        result = event_from_dict(data)
        assert isinstance(result, ASLResult)
        return result
