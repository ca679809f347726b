"""The Car Wars vocabulary as enums; integer values go straight into fastcore arrays."""
from __future__ import annotations

import enum

__all__ = ["Side", "Mount", "Location", "BodyKind", "Weather", "Light", "Computer", "CrewRole", "CrewState", "parse_enum"]


class _Named(enum.IntEnum):
    """IntEnum whose text form is the lower-case name used in files and logs."""

    def __str__(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str | "_Named") -> "_Named":
        if isinstance(text, cls):
            return text
        try:
            return cls[str(text).upper()]
        except KeyError:
            raise ValueError(text) from None

    @classmethod
    def choices(cls) -> list[str]:
        return [m.name.lower() for m in cls]


class Side(_Named):
    """The six sides of a vehicle (CW-VEH-02); the first four are also its arcs (CW-ARC-01)."""

    FRONT = 0
    BACK = 1
    LEFT = 2
    RIGHT = 3
    TOP = 4
    UNDERBODY = 5

    @property
    def opposite(self) -> "Side":
        return _OPPOSITE[self]

    @property
    def is_end(self) -> bool:
        return self in (Side.FRONT, Side.BACK)

    @property
    def is_flank(self) -> bool:
        return self in (Side.LEFT, Side.RIGHT)


_OPPOSITE = {Side.FRONT: Side.BACK, Side.BACK: Side.FRONT, Side.LEFT: Side.RIGHT,
             Side.RIGHT: Side.LEFT, Side.TOP: Side.UNDERBODY, Side.UNDERBODY: Side.TOP}

ARC_SIDES = (Side.FRONT, Side.BACK, Side.LEFT, Side.RIGHT)


class Mount(_Named):
    """Where a weapon is mounted (CW-VEH-03)."""

    FRONT = 0
    BACK = 1
    LEFT = 2
    RIGHT = 3
    TOP = 4
    UNDERBODY = 5
    TURRET = 6

    @property
    def side(self) -> Side | None:
        return None if self is Mount.TURRET else Side(int(self))


class Location(_Named):
    """The three internal locations (CW-VEH-04)."""

    CREW = 0
    POWER_PLANT = 1
    CARGO = 2


class BodyKind(_Named):
    CAR = 0
    CYCLE = 1
    TRIKE = 2


class Weather(_Named):
    """CW-HIT-07: one of these, adding to the light condition."""

    CLEAR = 0
    RAIN = 1
    HEAVY_RAIN = 2
    FOG = 3


class Light(_Named):
    DAY = 0
    NIGHT = 1


class Computer(_Named):
    """CW-HIT-08: only the best one counts."""

    NONE = 0
    TARGETING = 1
    HI_RES = 2
    CYBERLINK = 3


class CrewRole(_Named):
    DRIVER = 0
    GUNNER = 1
    PASSENGER = 2


class CrewState(_Named):
    """CW-CREW-01: by hits taken beyond body armour."""

    OK = 0
    WOUNDED = 1
    UNCONSCIOUS = 2
    DEAD = 3


def parse_enum(cls: type[_Named], value: object, field: str, rule: str) -> _Named:
    """Parse `value` as a member of `cls` or raise ScenarioError naming the field."""
    from ..errors import ScenarioError

    try:
        return cls.parse(value)  # type: ignore[arg-type]
    except ValueError:
        raise ScenarioError(f"expected one of {', '.join(cls.choices())}", field=field, value=value, rule=rule) from None
