"""Exceptions of hardpoint (ERR-01).

Every error names the field, the value and the rule it breaks, and is raised
before any state changes, so nothing is ever half-applied.
"""
from __future__ import annotations

from typing import Any

__all__ = [
    "HardpointError",
    "DiceError",
    "DiceExhausted",
    "DataError",
    "ScenarioError",
    "RuleViolation",
    "RequestError",
]


class HardpointError(Exception):
    """Base of every hardpoint exception."""


class _Located(HardpointError, ValueError):
    """An error about one field: `field`, `value` and `rule` are attributes."""

    def __init__(self, message: str, *, field: str = "", value: Any = None, rule: str = "") -> None:
        self.field = field
        self.value = value
        self.rule = rule
        self.message = message           # the message alone, without the field, value and rule around it
        parts = []
        if field:
            parts.append(f"{field}={value!r}: " if value is not None else f"{field}: ")
        parts.append(message)
        if rule and f"({rule})" not in message:
            parts.append(f" ({rule})")
        super().__init__("".join(parts))


class DiceError(_Located):
    """A dice expression that is not one the rules write (DICE-01)."""


class DiceExhausted(HardpointError, LookupError):
    """Scripted dice ran out before the resolution finished (DICE-04)."""


class DataError(_Located):
    """A rules table in seeds/ or a user override that fails validation (ARCH-05)."""


class ScenarioError(_Located):
    """A malformed scenario, or a unit, weapon or name that does not exist (CLI-02, ERR-01)."""


class RuleViolation(_Located):
    """An action the rules forbid (a turret weapon on automatic, a cycle rider firing...)."""


class RequestError(_Located):
    """A protocol request that is not one hardpoint answers: a bad line, an unknown op or field (PROTO-02, PROTO-03)."""
