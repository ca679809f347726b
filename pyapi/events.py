"""Structured events and results (LOG-01).

Every resolution returns a result whose `events` list tells the whole story:
each die rolled, each modifier, each damage application, each state change.
Events are small frozen dataclasses; `to_dict()` gives plain JSON data and
`event_from_dict()` rebuilds the same event, so logs round-trip through JSON.
"""
from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

__all__ = [
    "Event",
    "DiceRolled",
    "Modifier",
    "ToHitRolled",
    "AttackResolved",
    "DamageApplied",
    "StateChanged",
    "Note",
    "event_from_dict",
    "to_jsonable",
]

_REGISTRY: dict[str, type["Event"]] = {}


@dataclass(frozen=True)
class Event:
    """Base of all log entries; `kind` names the type in JSON."""

    kind: ClassVar[str] = "event"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # Only a class that names its own kind is registered: a private subclass of an
        # event (say, to watch dice) must not take over its parent's name.
        if "kind" in cls.__dict__:
            old = _REGISTRY.get(cls.kind)
            if old is not None and (old.__module__, old.__qualname__) != (cls.__module__, cls.__qualname__):
                raise TypeError(f"event kind {cls.kind!r} is already used by {old.__module__}.{old.__qualname__}")
            _REGISTRY[cls.kind] = cls

    def to_dict(self) -> dict[str, Any]:
        data = {f.name: to_jsonable(getattr(self, f.name)) for f in dataclasses.fields(self)}
        return {"event": self.kind, **data}


def to_jsonable(value: Any) -> Any:
    """Turn tuples, enums, Fractions and nested events into plain JSON values."""
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Fraction):
        return str(value)
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if isinstance(value, (tuple, list)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    return value


def _from_jsonable(value: Any) -> Any:
    if isinstance(value, dict) and "event" in value:
        return event_from_dict(value)
    if isinstance(value, list):
        return tuple(_from_jsonable(v) for v in value)
    if isinstance(value, dict):
        return {k: _from_jsonable(v) for k, v in value.items()}
    return value


def _fractions(value: Any) -> Any:
    if isinstance(value, str):
        return Fraction(value)
    if isinstance(value, list):
        return tuple(_fractions(v) for v in value)
    if isinstance(value, dict):
        return {k: _fractions(v) for k, v in value.items()}
    return value


def event_from_dict(data: dict[str, Any]) -> Event:
    """Rebuild an event from `Event.to_dict()` output or a result document (after a JSON round trip)."""
    cls = _REGISTRY[data["event"]]
    kwargs = {}
    for f in dataclasses.fields(cls):
        if f"{f.name}_exact" in data:   # a result document (PROTO-01): the number, and the exact fractions beside it
            kwargs[f.name] = _fractions(data[f"{f.name}_exact"])
        elif f.name in data:
            value = _from_jsonable(data[f.name])
            if isinstance(value, str) and "Fraction" in str(f.type):
                value = Fraction(value)
            kwargs[f.name] = value
    return cls(**kwargs)


@dataclass(frozen=True)
class DiceRolled(Event):
    """One roll: why it was made, the expression, each face, the total after bonus and floor."""

    kind: ClassVar[str] = "dice"
    why: str
    expr: str
    faces: tuple[int, ...]
    total: int
    rule: str = ""

    def __str__(self) -> str:
        return f"roll {self.expr} for {self.why}: {list(self.faces)} = {self.total}" + (f" ({self.rule})" if self.rule else "")


@dataclass(frozen=True)
class Modifier(Event):
    """One to-hit (or other) modifier with the rule it comes from."""

    kind: ClassVar[str] = "modifier"
    name: str
    value: int
    rule: str

    def __str__(self) -> str:
        return f"{self.value:+d} {self.name} ({self.rule})"


@dataclass(frozen=True)
class ToHitRolled(Event):
    """A to-hit roll compared with the number needed (CW-HIT-01)."""

    kind: ClassVar[str] = "to_hit"
    attack: str
    roll: int
    needed: int
    hit: bool
    reason: str = ""
    rule: str = "CW-HIT-01"

    def __str__(self) -> str:
        verdict = "HIT" if self.hit else "miss"
        why = f" ({self.reason})" if self.reason else ""
        return f"{self.attack}: rolled {self.roll}, needed {self.needed}: {verdict}{why}"


@dataclass(frozen=True)
class AttackResolved(Event):
    """The outcome of one declared attack before damage is applied."""

    kind: ClassVar[str] = "attack"
    attack: str
    hit: bool
    target: str
    aimed_at: str
    damage: int | None = None
    rule: str = ""

    def __str__(self) -> str:
        if not self.hit:
            return f"{self.attack}: no hit on {self.target}"
        return f"{self.attack}: {self.damage} hit(s) on {self.target} {self.aimed_at}"


@dataclass(frozen=True)
class DamageApplied(Event):
    """Hits taken by one component: its DP (or armour points) before and after."""

    kind: ClassVar[str] = "damage"
    target: str
    component: str
    hits: int
    before: int
    after: int
    rule: str = ""

    def __str__(self) -> str:
        return f"{self.target} {self.component}: {self.hits} hit(s), {self.before} -> {self.after}" + (f" ({self.rule})" if self.rule else "")


def format_value(value: Any) -> str:
    """A value as a person reads it in a log: yes/no, none, numbers without trailing zeros, points as (x, y)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (tuple, list)) and value and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        return "(" + ", ".join(f"{v:g}" for v in value) + ")"
    if isinstance(value, dict):
        return ", ".join(f"{k} {format_value(v)}" for k, v in value.items())
    return str(value)


@dataclass(frozen=True)
class StateChanged(Event):
    """Any other change of state (a crew member wounded, a fire started...)."""

    kind: ClassVar[str] = "state"
    subject: str
    field: str
    before: Any
    after: Any
    rule: str = ""

    def __str__(self) -> str:
        if self.field == "position":
            return f"{self.subject} moves from {format_value(self.before)} to {format_value(self.after)}"
        return (f"{self.subject} {self.field}: {format_value(self.before)} -> {format_value(self.after)}"
                + (f" ({self.rule})" if self.rule else ""))


@dataclass(frozen=True)
class Note(Event):
    """A narrative line with the rule that produced it."""

    kind: ClassVar[str] = "note"
    text: str
    rule: str = ""

    def __str__(self) -> str:
        return self.text + (f" ({self.rule})" if self.rule else "")
