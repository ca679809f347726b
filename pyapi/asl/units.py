"""ASL Infantry, motorcycle counters, hexes and the situation that holds them.

All values are frozen: a rule returns a new unit, counter or situation, so a
refused action can never leave anything half-changed (ERR-01).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Iterable, Mapping

from ..data import Rules
from ..errors import ScenarioError
from .enums import Capacity, Ground, Hexside, MachineType, Motion, Moving, Phase, Size, UnitType
from .tables import MoraleSettings, infantry_settings, terrain_table

__all__ = [
    "SupportWeapon", "Infantry", "Motorcycle", "Hex", "Board", "Situation",
    "parse_designation", "make_unit", "unit_size", "casualty_reduction", "wound", "fail_morale", "fail_bail_out",
    "stacking", "is_good_order", "HEX_FEATURES", "MORALE_RANGE",
]

_MMC = re.compile(r"^(?P<fp>\d{1,2})-(?P<range>\d{1,2})-(?P<morale>\d{1,2})$")
_LEADER = re.compile(r"^(?P<morale>\d{1,2})(?P<sign>[-+])(?P<mod>\d)$")

#: the hex features the rules read: the Wreck Check (D15.46), the bicycle's road halving (D15.81),
#: wrecks and vehicles that cost a motorcycle nothing (D15.42)
HEX_FEATURES = ("shellholes", "stream", "entrenchment", "wreck", "vehicle")
#: morale on a counter: a Morale Check compares a DR (2..12) with it
MORALE_RANGE = (1, 12)


@dataclass(frozen=True)
class SupportWeapon:
    """A support weapon a unit possesses: type (LMG, MMG, DC, ...), FP, normal range, PP."""

    id: str
    type: str
    fp: int
    range: int
    pp: int


@dataclass(frozen=True)
class Infantry:
    """An Infantry unit (A1): FP, normal range and morale; a leader's leadership modifier; its status."""

    id: str
    type: UnitType
    designation: str
    fp: int
    range: int
    morale: int
    leadership: int = 0
    hex: str = ""
    side: str = ""
    broken: bool = False
    wounded: bool = False
    pinned: bool = False
    eliminated: bool = False
    inexperienced: bool = False
    half_squad: str | None = None
    moving: Moving = Moving.NONE
    known: bool = True
    weapons: tuple[SupportWeapon, ...] = ()

    @property
    def is_smc(self) -> bool:
        return self.type.is_smc

    @property
    def is_leader(self) -> bool:
        return self.type is UnitType.LEADER

    def status(self) -> str:
        """A short text of the unit's state, e.g. "half_squad 2-4-7 broken"."""
        if self.eliminated:
            return "eliminated"
        flags = [f for f, on in (("broken", self.broken), ("wounded", self.wounded), ("pinned", self.pinned)) if on]
        return " ".join([str(self.type), self.designation, *flags])


def is_good_order(unit: Infantry) -> bool:
    """Neither broken nor eliminated."""
    return not unit.broken and not unit.eliminated


def parse_designation(text: str, utype: UnitType, field: str = "counter") -> tuple[int, int, int, int]:
    """(FP, range, morale, leadership) of a counter designation (A1).

    MMC and heroes read FP-range-morale ("4-6-7"); leaders read morale and
    leadership modifier ("8-0", "9-1", "6+1": a 9-1 gives -1).
    """
    if utype is UnitType.LEADER:
        m = _LEADER.match(text) if isinstance(text, str) else None
        if not m:
            raise ScenarioError("a leader's counter reads morale-modifier, e.g. 8-0, 9-1, 6+1", field=field, value=text, rule="A10.7")
        fp, rng, mod = 0, 0, int(m["mod"]) * (-1 if m["sign"] == "-" else 1)
    else:
        m = _MMC.match(text) if isinstance(text, str) else None
        if not m:
            raise ScenarioError("an Infantry counter reads FP-range-morale, e.g. 4-6-7 (two digits at most each)", field=field, value=text,
                                rule="A1")
        fp, rng, mod = int(m["fp"]), int(m["range"]), 0
    morale = int(m["morale"])
    if not MORALE_RANGE[0] <= morale <= MORALE_RANGE[1]:
        raise ScenarioError(f"morale must be from {MORALE_RANGE[0]} to {MORALE_RANGE[1]}", field=field, value=text, rule="A10")
    return fp, rng, morale, mod


def make_unit(rules: Rules, id: str, counter: str | None = None, type: str | UnitType | None = None, *,
              field: str = "unit", **status) -> Infantry:
    """Build a unit from its counter designation (and the catalogue in seeds/asl/infantry.toml).

    The type comes from `type` or the catalogue; a squad needs its half-squad's
    designation (catalogue or `half_squad=`) for Casualty Reduction (A7.302).
    """
    cat = infantry_settings(rules).counters.get(counter or "", {})
    tname = type if type is not None else cat.get("type")
    if tname is None:
        raise ScenarioError("unknown counter: give its type (squad, half_squad, crew, leader, hero)", field=f"{field}.counter",
                            value=counter, rule="A1")
    if isinstance(tname, UnitType):
        utype = tname
    else:
        try:
            utype = UnitType[str(tname).upper()]
        except KeyError:
            raise ScenarioError(f"unknown unit type (expected one of {', '.join(UnitType.choices())})", field=f"{field}.type",
                                value=tname, rule="A1") from None
    fp, rng, morale, lead = parse_designation(counter or "", utype, f"{field}.counter")
    half = status.pop("half_squad", None) or cat.get("half_squad")
    if utype is UnitType.SQUAD:
        if half is None:
            raise ScenarioError("a squad needs its half-squad's counter (half_squad = \"F-R-M\") for Casualty Reduction",
                                field=f"{field}.half_squad", value=counter, rule="A7.302")
        parse_designation(half, UnitType.HALF_SQUAD, f"{field}.half_squad")
    return Infantry(id=id, type=utype, designation=counter or "", fp=fp, range=rng, morale=morale, leadership=lead,
                    half_squad=half if utype is UnitType.SQUAD else None, **status)


def unit_size(rules: Rules, unit: Infantry) -> Size:
    """Which counter size a unit needs (D15.1): squad, half-squad (HS or crew) or SMC."""
    return infantry_settings(rules).types[unit.type].size


# --- Casualty Reduction, wounds, failing a Morale Check (A7.302, A17, A10) ---------------------

def casualty_reduction(unit: Infantry, settings: MoraleSettings) -> Infantry:
    """A7.302: a squad becomes its half-squad; a HS or crew is eliminated; an SMC is wounded,
    a wounded SMC eliminated (each outcome a setting of seeds/asl/morale.toml)."""
    if unit.eliminated:
        return unit
    if unit.type is UnitType.SQUAD:
        if settings.reduction["squad"] == "eliminated":
            return replace(unit, eliminated=True)
        fp, rng, morale, _ = parse_designation(unit.half_squad or "", UnitType.HALF_SQUAD, f"{unit.id}.half_squad")
        return replace(unit, type=UnitType.HALF_SQUAD, designation=unit.half_squad, fp=fp, range=rng, morale=morale,
                       half_squad=None)
    if unit.type in (UnitType.HALF_SQUAD, UnitType.CREW):
        return replace(unit, eliminated=True)
    key = "wounded_smc" if unit.wounded else "smc"
    if settings.reduction[key] == "eliminated":
        return replace(unit, eliminated=True)
    return wound(unit, settings)


def wound(unit: Infantry, settings: MoraleSettings) -> Infantry:
    """A17: a wounded SMC loses morale (and a leader leadership) by the settings; wounded twice, eliminated."""
    if unit.wounded:
        return replace(unit, eliminated=True)
    lead = unit.leadership + settings.wound_leadership_penalty if unit.is_leader else unit.leadership
    return replace(unit, wounded=True, morale=unit.morale - settings.wound_morale_penalty, leadership=lead)


def fail_morale(unit: Infantry, settings: MoraleSettings) -> Infantry:
    """A10: a good-order unit that fails an MC breaks; a broken one is eliminated
    (or Casualty Reduced, per the `broken_fails` setting)."""
    if unit.eliminated:
        return unit
    if not unit.broken:
        return replace(unit, broken=True, pinned=False)
    if settings.broken_fails == "casualty_reduction":
        return casualty_reduction(unit, settings)
    return replace(unit, eliminated=True)


def fail_bail_out(unit: Infantry, settings: MoraleSettings) -> Infantry:
    """ASL-RES-03 (D15.53) and the SPEC Bail Out ruling: a rider who fails the NMC of bailing out
    breaks if he was in good order; one already broken suffers Casualty Reduction (a squad becomes
    its half-squad, a half-squad or crew is eliminated; an SMC is eliminated), as in the D15.55
    example. `bail_out.broken_fails` and `bail_out.smc` (seeds/asl/morale.toml) make it overridable."""
    if unit.eliminated or not unit.broken:
        return fail_morale(unit, settings)
    if settings.bail_out_broken_fails == "eliminate" or (unit.is_smc and settings.bail_out_smc == "eliminated"):
        return replace(unit, eliminated=True)
    return casualty_reduction(unit, settings)


# --- Motorcycles, hexes, the situation ------------------------------------------------------

@dataclass(frozen=True)
class Motorcycle:
    """A motorcycle (or bicycle) counter: type, machines, MP allotment, M#, motion, riders (D15.1)."""

    id: str
    type: MachineType
    machines: Capacity
    hex: str
    side: str = ""
    mp: int | None = None
    m_number: int | None = None
    motion: Motion = Motion.STOPPED
    riders: tuple[str, ...] = ()
    vca: int | None = None
    removed: bool = False

    @property
    def is_bicycle(self) -> bool:
        return self.type is MachineType.BICYCLE

    def label(self) -> str:
        """E.g. "three-machine cycle, in motion" or "removed"."""
        if self.removed:
            return "removed"
        size = {Capacity.THREE: "three-machine (squad)", Capacity.TWO: "two-machine (HS)", Capacity.SINGLE: "single-machine (SMC)"}
        return f"{size[self.machines]} {self.type}, {self.motion}" + ("" if self.riders else ", unmounted")


@dataclass(frozen=True)
class Hex:
    """A hex: terrain, base level, road, features (shellholes, stream, entrenchment, wreck, vehicle), costs."""

    id: str
    terrain: str = "open_ground"
    level: int = 0
    road: str | None = None
    plowed: bool = True
    features: frozenset[str] = frozenset()
    infantry_mf: Fraction | None = None
    motorcycle_mp: Fraction | None = None
    motorcycle_na: bool = False
    tem: int | None = None
    open: bool | None = None
    melee: bool = False


@dataclass(frozen=True)
class Board:
    """What does not change during a resolution: the hexes (named by board coordinates such as B5,
    or by labels where nothing moves), the kinds of their hexsides, the phase, the ground."""

    hexes: Mapping[str, Hex]
    phase: Phase = Phase.MPH
    ground: Ground = Ground.DRY
    hexsides: Mapping[frozenset[str], Hexside] = field(default_factory=dict)

    def hexside(self, a: Hex, b: Hex) -> Hexside:
        """The kind of the hexside between two adjacent hexes: as the scenario declares it, else a road
        hexside when both hexes have a road (B3; a documented default), else a normal one."""
        kind = self.hexsides.get(frozenset((a.id, b.id)))
        if kind is not None:
            return kind
        return Hexside.ROAD if a.road is not None and b.road is not None else Hexside.NORMAL

    def hex(self, hid: str, field: str = "hex") -> Hex:
        try:
            return self.hexes[hid]
        except KeyError:
            raise ScenarioError(f"no such hex (known: {', '.join(sorted(self.hexes))})", field=field, value=hid, rule="CLI-02") from None

    def infantry_mf(self, rules: Rules, hx: Hex, field: str) -> Fraction:
        """Infantry MF to enter `hx`: the hex's own figure, else its terrain's (B1); never invented."""
        if hx.infantry_mf is not None:
            return hx.infantry_mf
        spec = terrain_table(rules).terrain.get(hx.terrain)
        if spec is None or spec.infantry_mf is None:
            raise ScenarioError(f"no Infantry MF cost for terrain {hx.terrain!r}: give infantry_mf in the hex or add the terrain "
                                "to asl.terrain", field=field, value=hx.id, rule="A4.1")
        return spec.infantry_mf

    def tem(self, rules: Rules, hx: Hex) -> int:
        if hx.tem is not None:
            return hx.tem
        spec = terrain_table(rules).terrain.get(hx.terrain)
        if spec is None:
            raise ScenarioError(f"no TEM for terrain {hx.terrain!r}: give tem in the hex or add the terrain to asl.terrain",
                                field="hex.tem", value=hx.id, rule="B1")
        return spec.tem

    def is_open(self, rules: Rules, hx: Hex) -> bool:
        if hx.open is not None:
            return hx.open
        spec = terrain_table(rules).terrain.get(hx.terrain)
        return bool(spec and spec.open)


@dataclass(frozen=True)
class Situation:
    """Every unit and counter, immutable and hashable (so exact enumeration can merge equal states)."""

    units: tuple[Infantry, ...]
    machines: tuple[Motorcycle, ...] = ()

    def __hash__(self) -> int:
        # Hashed many times by the exact enumeration: compute once (the value is immutable).
        h = self.__dict__.get("_hash")
        if h is None:
            h = hash((self.units, self.machines))
            object.__setattr__(self, "_hash", h)
        return h

    def __getstate__(self) -> dict:
        # String hashes differ between processes, and the lookup tables are rebuilt on demand: ship neither.
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_")}

    # Lookup tables, built on first use and shared with the situations derived by `with_unit` when they
    # still hold (the order of the units never changes), so a lookup costs the same for 10 units or 4,096.

    def _table(self, key: str, build):
        v = self.__dict__.get(key)
        if v is None:
            v = build()
            object.__setattr__(self, key, v)
        return v

    def _unit_pos(self) -> dict[str, int]:
        return self._table("_upos", lambda: {u.id: i for i, u in reversed(tuple(enumerate(self.units)))})

    def _machine_pos(self) -> dict[str, int]:
        return self._table("_mpos", lambda: {m.id: i for i, m in reversed(tuple(enumerate(self.machines)))})

    def _mounts(self) -> dict[str, int]:
        def build() -> dict[str, int]:
            out: dict[str, int] = {}
            for i, m in enumerate(self.machines):
                if not m.removed:
                    for r in m.riders:
                        out.setdefault(r, i)
            return out
        return self._table("_mounts_", build)

    def _hex_pos(self) -> dict[str, tuple[int, ...]]:
        def build() -> dict[str, tuple[int, ...]]:
            out: dict[str, list[int]] = {}
            for i, u in enumerate(self.units):
                out.setdefault(u.hex, []).append(i)
            return {h: tuple(v) for h, v in out.items()}
        return self._table("_hexes", build)

    def _leader_pos(self) -> tuple[int, ...]:
        return self._table("_leaders", lambda: tuple(i for i, u in enumerate(self.units) if u.is_leader))

    def unit(self, uid: str, field: str = "unit") -> Infantry:
        i = self._unit_pos().get(uid)
        if i is None:
            raise ScenarioError("no such unit", field=field, value=uid, rule="CLI-02")
        return self.units[i]

    def machine(self, mid: str, field: str = "motorcycle") -> Motorcycle:
        i = self._machine_pos().get(mid)
        if i is None:
            raise ScenarioError("no such motorcycle counter", field=field, value=mid, rule="CLI-02")
        return self.machines[i]

    def has_machine(self, mid: str) -> bool:
        return mid in self._machine_pos()

    def mount_of(self, uid: str) -> Motorcycle | None:
        """The counter the unit rides, if any."""
        i = self._mounts().get(uid)
        return None if i is None else self.machines[i]

    def units_in(self, hid: str, alive: bool = True) -> list[Infantry]:
        units = self.units
        return [units[i] for i in self._hex_pos().get(hid, ()) if not (alive and units[i].eliminated)]

    def leaders_in(self, hid: str) -> list[Infantry]:
        """The leaders in a hex, alive or not, in the order of the units."""
        units = self.units
        return [units[i] for i in self._leader_pos() if units[i].hex == hid]

    def machines_in(self, hid: str) -> list[Motorcycle]:
        return [m for m in self.machines if m.hex == hid and not m.removed]

    def with_unit(self, unit: Infantry) -> "Situation":
        i = self._unit_pos().get(unit.id)
        if i is None:
            return Situation(self.units, self.machines)
        old = self.units[i]
        after = Situation(self.units[:i] + (unit,) + self.units[i + 1:], self.machines)
        share = ["_upos", "_mpos", "_mounts_"]
        if old.hex == unit.hex:
            share.append("_hexes")
        if old.is_leader == unit.is_leader:
            share.append("_leaders")
        for key in share:
            if key in self.__dict__:
                object.__setattr__(after, key, self.__dict__[key])
        return after

    def with_units(self, units: Iterable[Infantry]) -> "Situation":
        new = {u.id: u for u in units}
        after = Situation(tuple(new.get(u.id, u) for u in self.units), self.machines)
        for key in ("_upos", "_mpos", "_mounts_"):
            if key in self.__dict__:
                object.__setattr__(after, key, self.__dict__[key])
        return after

    def with_machine(self, machine: Motorcycle) -> "Situation":
        i = self._machine_pos().get(machine.id)
        if i is not None:
            after = Situation(self.units, self.machines[:i] + (machine,) + self.machines[i + 1:])
            object.__setattr__(after, "_mpos", self._machine_pos())
        else:
            after = Situation(self.units, self.machines + (machine,))
        for key in ("_upos", "_hexes", "_leaders"):
            if key in self.__dict__:
                object.__setattr__(after, key, self.__dict__[key])
        return after

    def riders(self, machine: Motorcycle) -> list[Infantry]:
        return [self.unit(r) for r in machine.riders]

    def known_enemy_in(self, hid: str, side: str) -> list[Infantry]:
        """Known enemy units (other side, alive) in a hex (D15.43, D15.83)."""
        return [u for u in self.units_in(hid) if u.side != side and u.known]


def stacking(rules: Rules, situation: Situation, hid: str) -> tuple[Fraction, int]:
    """ASL-CAP-03 (D15.3), A5.1: squad-equivalents and SMC in a hex. Only the riders of a
    motorcycle count; the machines themselves add nothing."""
    types = infantry_settings(rules).types
    se = sum((types[u.type].squad_equivalent for u in situation.units_in(hid)), Fraction(0))
    smc = sum(1 for u in situation.units_in(hid) if u.is_smc)
    return se, smc
