"""The ASL vocabulary as enums; integer values go straight into fastcore arrays.

Text forms are the lower-case names used in scenario files and logs.
"""
from __future__ import annotations

import enum

from ..errors import ScenarioError

__all__ = [
    "UnitType", "Size", "MachineType", "Capacity", "Motion", "Moving", "TargetType", "FirerRow",
    "FireKind", "Phase", "Effect", "Hexside", "Ground", "MCKind", "MCOutcome", "TieRule", "parse_enum",
]


class _Named(enum.IntEnum):
    """IntEnum whose text form is the lower-case name."""

    def __str__(self) -> str:
        return self._name_.lower()

    @classmethod
    def choices(cls) -> list[str]:
        return [m.name.lower() for m in cls]


def parse_enum(cls: type[_Named], value: object, field: str, rule: str) -> _Named:
    """`cls` member named by `value` (its lower-case name), or a ScenarioError naming field and rule."""
    if isinstance(value, cls):
        return value
    try:
        return cls[str(value).upper()]
    except KeyError:
        raise ScenarioError(f"expected one of {', '.join(cls.choices())}", field=field, value=value, rule=rule) from None


class UnitType(_Named):
    """Infantry unit types (A1): MMC (squad, half-squad, crew) and SMC (leader, hero)."""

    SQUAD = 0
    HALF_SQUAD = 1
    CREW = 2
    LEADER = 3
    HERO = 4

    @property
    def is_smc(self) -> bool:
        return self in (UnitType.LEADER, UnitType.HERO)


class Size(_Named):
    """What a unit needs to ride, and what a motorcycle counter carries (D15.1)."""

    SMC = 0
    HALF_SQUAD = 1
    SQUAD = 2


class MachineType(_Named):
    """Cycle (no sidecar), sidecar, bicycle (a SW on a cycle counter, D15.8)."""

    CYCLE = 0
    SIDECAR = 1
    BICYCLE = 2

    @property
    def is_motorcycle(self) -> bool:
        return self is not MachineType.BICYCLE


class Capacity(_Named):
    """Machines on a counter: single, two (HS/crew size), three (squad size) (D15.1)."""

    SINGLE = 1
    TWO = 2
    THREE = 3

    @classmethod
    def of(cls, machines: int) -> "Capacity":
        return cls(machines)


class Motion(_Named):
    """A motorcycle's movement status: stopped, moving (in its MPh, after Starting), in Motion."""

    STOPPED = 0
    MOVING = 1
    MOTION = 2

    @property
    def is_moving(self) -> bool:
        """Case J (+2 To Hit) and Bail Out apply when moving or in Motion."""
        return self is not Motion.STOPPED


class Moving(_Named):
    """What an Infantry unit is doing when fired on (for FFMO/FFNAM, A4.6)."""

    NONE = 0
    ON_FOOT = 1
    ASSAULT = 2
    MOUNTING = 3
    DISMOUNTING = 4
    RIDING = 5


class TargetType(_Named):
    """To Hit table rows (C3)."""

    INFANTRY = 0
    VEHICLE = 1
    AREA = 2


class FirerRow(_Named):
    """Which row of the To Hit table the firer uses (C3)."""

    GERMAN = 0
    OTHER = 1
    ANY = 2


class FireKind(_Named):
    """How an attack is resolved: ordnance (To Hit, then IFT), small arms (IFT), overrun (IFT)."""

    ORDNANCE = 0
    SMALL_ARMS = 1
    OVERRUN = 2


class Phase(_Named):
    """The ASL player turn phases."""

    RPH = 0
    PFPH = 1
    MPH = 2
    DFPH = 3
    AFPH = 4
    RTPH = 5
    APH = 6
    CCPH = 7


class Effect(_Named):
    """IFT result kinds (A7)."""

    NONE = 0
    PTC = 1
    MC = 2
    K = 3
    KIA = 4


class Hexside(_Named):
    """What a move crosses on its way into the next hex."""

    NORMAL = 0
    ROAD = 1
    ELEVATED_ROAD = 2
    DOUBLE_CREST = 3
    ABRUPT_ELEVATION = 4


class Ground(_Named):
    """Ground conditions that matter to bicycles (D15.81)."""

    DRY = 0
    MUD = 1
    SNOW = 2


class MCKind(_Named):
    """Why a unit checks morale."""

    MC = 0          # an IFT nMC or NMC (A10)
    PTC = 1         # Pin Task Check (A7.8)
    BAIL_OUT = 2    # the NMC of a rider bailing out (D6.24, D15.53)


class MCOutcome(_Named):
    """What a morale or task check did to the unit."""

    PASSED = 0
    PINNED = 1
    BROKEN = 2
    ELIMINATED = 3
    REDUCED = 4
    EXEMPT = 5


class TieRule(_Named):
    """Random Selection ties at the highest dr (A.9): all selected, or the tied reroll."""

    ALL = 0
    REROLL = 1
