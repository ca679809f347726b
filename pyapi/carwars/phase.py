"""The combat phase: rate of fire (CW-ROF-01) and simultaneous resolution (CW-ROF-02)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..data import Rules
from ..dice import DiceSource
from ..errors import RuleViolation
from ..events import Event, Note, StateChanged, event_from_dict
from .attack import Attack, AttackRoll, SustainedRecord, ToHit, explain_attack, roll_attack
from .model import Arena, Pedestrian, Vehicle

__all__ = ["FiredThisTurn", "check_rate_of_fire", "PhaseResult", "resolve_phase", "explain_phase", "update_history"]


@dataclass
class FiredThisTurn:
    """What has already fired earlier this turn (CW-ROF-01): weapons and characters."""

    weapons: set[tuple[str, str]] = field(default_factory=set)
    characters: dict[tuple[str, str], int] = field(default_factory=dict)


def _character(arena: Arena, attack: Attack, breakdown: ToHit | None = None) -> tuple[str, str] | None:
    unit = arena.unit(attack.attacker, "attack.attacker")
    if isinstance(unit, Pedestrian):
        return (unit.id, unit.id)
    if attack.firer:
        return (unit.id, attack.firer)
    weapon = next((w for w in unit.all_weapons() if w.id == attack.weapon), None)
    if weapon is not None and weapon.automatic:
        return None  # a weapon on automatic fires by itself (CW-AUTO-01)
    from .attack import _default_firer  # the same default the to-hit uses
    crew = _default_firer(unit, weapon) if weapon is not None else None
    return (unit.id, crew.id) if crew is not None else None


def check_rate_of_fire(arena: Arena, attacks: list[Attack], fired: FiredThisTurn | None = None) -> None:
    """CW-ROF-01: a weapon fires at most once a turn; a character fires at most once a turn;
    a weapon on automatic lets its owner (RULING: the driver) fire one more weapon.

    Raises RuleViolation naming the attack; checks everything before any roll.
    """
    fired = fired or FiredThisTurn()
    weapons = set(fired.weapons)
    counts = dict(fired.characters)
    for i, a in enumerate(attacks):
        key = (a.attacker, a.weapon)
        unit = arena.unit(a.attacker, f"attack[{i}].attacker")
        mounted = isinstance(unit, Vehicle) and any(w.id == a.weapon for w in unit.all_weapons())
        if mounted and key in weapons:
            raise RuleViolation(f"weapon {a.weapon!r} of {a.attacker!r} already fired this turn",
                                field=f"attack[{i}].weapon", value=a.weapon, rule="CW-ROF-01")
        if mounted:
            weapons.add(key)
        who = _character(arena, a)
        if who is None:
            continue
        allowance = 1
        if isinstance(unit, Vehicle):
            driver = unit.driver
            if driver is not None and who[1] == driver.id and any(w.automatic for w in unit.all_weapons()):
                allowance = 2
        counts[who] = counts.get(who, 0) + 1
        if counts[who] > allowance:
            raise RuleViolation(f"{who[1]!r} of {who[0]!r} already fired this turn: a character fires once a turn",
                                field=f"attack[{i}]", value=a.id, rule="CW-ROF-01")


@dataclass(frozen=True)
class PhaseResult(Event):
    """The outcome of one combat phase: breakdowns, rolls and the event log (LOG-01)."""

    kind: ClassVar[str] = "phase_result"
    turn: int
    phase: int
    breakdowns: tuple[ToHit, ...]
    rolls: tuple[AttackRoll, ...]
    events: tuple[Event, ...]
    seed: int | None = None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "PhaseResult":
        result = event_from_dict(data)
        assert isinstance(result, PhaseResult)
        return result


def explain_phase(arena: Arena, attacks: list[Attack], rules: Rules,
                  history: dict[tuple[str, str], SustainedRecord] | None = None) -> list[ToHit]:
    """Every declared attack's breakdown, against the same positions (CW-ROF-02)."""
    return [explain_attack(arena, a, rules, history, where=f"attack[{i}]") for i, a in enumerate(attacks)]


def resolve_phase(arena: Arena, attacks: list[Attack], rules: Rules, dice: DiceSource,
                  history: dict[tuple[str, str], SustainedRecord] | None = None,
                  fired: FiredThisTurn | None = None, seed: int | None = None) -> PhaseResult:
    """CW-ROF-02: all attacks of the phase are checked, explained against the positions after
    movement and the state at the start of combat, then rolled in declaration order.

    Nothing in `arena` changes here: damage is applied at the end of the phase
    by the damage rules. Any illegal declaration raises before a die is rolled.
    """
    check_rate_of_fire(arena, attacks, fired)
    breakdowns = explain_phase(arena, attacks, rules, history)
    events: list[Event] = [Note(f"turn {arena.turn}, phase {arena.phase}: {len(attacks)} attack(s) declared", "CW-ROF-02")]
    rolls = []
    for b in breakdowns:
        events.append(b)
        r = roll_attack(b, arena, rules, dice)
        events.append(r.roll)
        if r.damage_roll is not None:
            events.append(r.damage_roll)
        events.append(r)
        rolls.append(r)
    return PhaseResult(turn=arena.turn, phase=arena.phase, breakdowns=tuple(breakdowns), rolls=tuple(rolls),
                       events=tuple(events), seed=seed)


def update_history(history: dict[tuple[str, str], SustainedRecord], breakdowns: list[ToHit] | tuple[ToHit, ...],
                   turn: int) -> tuple[dict[tuple[str, str], SustainedRecord], list[StateChanged]]:
    """CW-HIT-09: record each shot for sustained fire (a shot on automatic breaks the streak)."""
    new = dict(history)
    changes = []
    for b in breakdowns:
        key = (b.attacker, b.weapon)
        streak = 0 if b.automatic else b.consecutive
        before = new.get(key)
        new[key] = SustainedRecord(b.target, streak, turn)
        changes.append(StateChanged(f"{b.attacker}.{b.weapon}", "sustained fire", before.streak if before else 0, streak, "CW-HIT-09"))
    return new, changes
