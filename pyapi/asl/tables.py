"""Validation of the ASL tables in seeds/asl and typed views of them (ARCH-05).

Each table is checked when the rules load (defaults and every override), so a
bad house rule fails at once with the field and the rule it concerns. The typed
views (`ift_table`, `tohit_table`, `morale_settings`, `motorcycle_settings`,
`infantry_settings`, `terrain_table`) are built once per `Rules` object.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any, Mapping

from ..data import Rules, need, register_validator
from ..errors import DataError
from .enums import Capacity, Effect, FirerRow, MachineType, Size, TargetType, TieRule, UnitType

__all__ = [
    "IFTResult", "parse_ift_result", "IFTTable", "ift_table", "ToHitTable", "tohit_table",
    "MoraleSettings", "morale_settings", "CapacitySpec", "MotorcycleSettings", "motorcycle_settings",
    "UnitTypeSpec", "InfantrySettings", "infantry_settings", "TerrainSpec", "TerrainTable", "terrain_table",
    "BoardSettings", "board_settings", "to_fraction",
]

_RESULT = re.compile(r"^(?:(?P<none>-)|(?P<ptc>PTC)|(?P<nmc>NMC)|(?P<mc>[1-9])MC|K/(?P<k>[1-9])|(?P<kia>[1-9])KIA)$")


def to_fraction(value: Any, field: str, rule: str, *, allow_na: bool = False) -> Fraction | None:
    """A number from a table: int, float, or a string "a/b"; "NA" (None) when allowed."""
    if allow_na and value == "NA":
        return None
    if isinstance(value, bool):
        raise DataError("expected a number or a fraction such as \"1/2\"", field=field, value=value, rule=rule)
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        return Fraction(value).limit_denominator(1000)
    if isinstance(value, str):
        try:
            return Fraction(value.strip())
        except (ValueError, ZeroDivisionError):
            pass
    raise DataError("expected a number or a fraction such as \"1/2\"" + (" or \"NA\"" if allow_na else ""),
                    field=field, value=value, rule=rule)


# --- IFT (A7) ---------------------------------------------------------------------------

@dataclass(frozen=True)
class IFTResult:
    """One IFT cell: its kind and number (nMC: the DRM; K/n: the MC DRM; nKIA: units eliminated)."""

    effect: Effect
    n: int = 0

    @property
    def text(self) -> str:
        return {Effect.NONE: "-", Effect.PTC: "PTC", Effect.MC: f"{self.n}MC" if self.n else "NMC",
                Effect.K: f"K/{self.n}", Effect.KIA: f"{self.n}KIA"}[self.effect]

    def __str__(self) -> str:
        return self.text


def parse_ift_result(text: Any, field: str = "result") -> IFTResult:
    """Parse an IFT cell ("-", "PTC", "NMC", "2MC", "K/3", "1KIA") (A7)."""
    m = _RESULT.match(text) if isinstance(text, str) else None
    if not m:
        raise DataError("not an IFT result (expected -, PTC, NMC, nMC, K/n or nKIA)", field=field, value=text, rule="A7")
    if m["none"]:
        return IFTResult(Effect.NONE)
    if m["ptc"]:
        return IFTResult(Effect.PTC)
    if m["nmc"]:
        return IFTResult(Effect.MC, 0)
    if m["mc"]:
        return IFTResult(Effect.MC, int(m["mc"]))
    if m["k"]:
        return IFTResult(Effect.K, int(m["k"]))
    return IFTResult(Effect.KIA, int(m["kia"]))


@dataclass(frozen=True)
class IFTTable:
    """The IFT as data: FP columns, DR rows and the cowering and FP settings (A7, A7.9)."""

    columns: tuple[int, ...]
    min_dr: int
    max_dr: int
    cells: Mapping[int, tuple[IFTResult, ...]]
    cowering_enabled: bool
    cowering_columns: int
    inexperienced_columns: int
    cowering_exempt: frozenset[str]
    point_blank_range: int
    point_blank: int
    triple_point_blank: int
    long_range_factor: int
    long_range_divisor: int

    def result(self, column: int, final_dr: int) -> IFTResult:
        """The cell of FP column `column` for a Final DR (clamped to the first and last rows)."""
        row = min(max(final_dr, self.min_dr), self.max_dr) - self.min_dr
        return self.cells[column][row]


def _validate_ift(name: str, t: dict) -> None:
    min_dr = need(t, "min_dr", int, name, "A7")
    max_dr = need(t, "max_dr", int, name, "A7")
    if max_dr <= min_dr:
        raise DataError("max_dr must exceed min_dr", field=f"{name}.max_dr", value=max_dr, rule="A7")
    cols = need(t, "columns", list, name, "A7")
    if not cols or any(not isinstance(c, int) or isinstance(c, bool) or c <= 0 for c in cols) or cols != sorted(set(cols)):
        raise DataError("columns must be increasing positive integers", field=f"{name}.columns", value=cols, rule="A7")
    cells = need(t, "column", dict, name, "A7")
    for c in cols:
        row = cells.get(str(c))
        if not isinstance(row, list) or len(row) != max_dr - min_dr + 1:
            raise DataError(f"column {c} needs {max_dr - min_dr + 1} results (Final DR {min_dr} or less .. {max_dr} or more)",
                            field=f"{name}.column.{c}", value=row, rule="A7")
        for i, cell in enumerate(row):
            parse_ift_result(cell, f"{name}.column.{c}[{i}]")
    extra = set(cells) - {str(c) for c in cols}
    if extra:
        raise DataError("column not listed in columns", field=f"{name}.column.{sorted(extra)[0]}", rule="A7")
    cow = need(t, "cowering", dict, name, "A7.9")
    need(cow, "enabled", bool, f"{name}.cowering", "A7.9")
    for k in ("columns", "inexperienced_columns"):
        v = need(cow, k, int, f"{name}.cowering", "A7.9")
        if v < 0:
            raise DataError("must be 0 or more", field=f"{name}.cowering.{k}", value=v, rule="A7.9")
    exempt = need(cow, "exempt", list, f"{name}.cowering", "A7.9")
    allowed = {"ordnance", "vehicle", "smc", "leader_directed"}
    for e in exempt:
        if e not in allowed:
            raise DataError(f"expected some of {sorted(allowed)}", field=f"{name}.cowering.exempt", value=e, rule="A7.9")
    fp = need(t, "firepower", dict, name, "A7.2")
    for k in ("point_blank_range", "point_blank", "triple_point_blank", "long_range_factor", "long_range_divisor"):
        v = need(fp, k, int, f"{name}.firepower", "A7.2")
        if v < (0 if k == "point_blank_range" else 1):
            raise DataError("out of range", field=f"{name}.firepower.{k}", value=v, rule="A7.2")


@cache
def ift_table(rules: Rules) -> IFTTable:
    """Typed view of `asl.ift` (A7)."""
    t = rules["asl.ift"]
    cols = tuple(t["columns"])
    cells = {c: tuple(parse_ift_result(x) for x in t["column"][str(c)]) for c in cols}
    cow, fp = t["cowering"], t["firepower"]
    return IFTTable(cols, t["min_dr"], t["max_dr"], cells, cow["enabled"], cow["columns"], cow["inexperienced_columns"],
                    frozenset(cow["exempt"]), fp["point_blank_range"], fp["point_blank"], fp["triple_point_blank"],
                    fp["long_range_factor"], fp["long_range_divisor"])


# --- To Hit (C3) ------------------------------------------------------------------------

@dataclass(frozen=True)
class ToHitTable:
    """Basic To Hit numbers by target type, firer row and range band (C3), and the D15 DRM."""

    range_bands: tuple[int, ...]
    basic: Mapping[tuple[TargetType, FirerRow], tuple[int, ...]]
    case_j: int
    mounted_motorcyclist: int
    mounted_bicyclist: int
    vs_motorcyclists: frozenset[TargetType] = frozenset({TargetType.INFANTRY})

    def band(self, range_hexes: int) -> int:
        """Index of the range band holding `range_hexes` (0-6 is band 0; beyond the last bound, the last band)."""
        for i, upper in enumerate(self.range_bands):
            if range_hexes <= upper:
                return i
        return len(self.range_bands)


def _validate_tohit(name: str, t: dict) -> None:
    bands = need(t, "range_bands", list, name, "C3")
    if not bands or any(not isinstance(b, int) or isinstance(b, bool) for b in bands) or bands != sorted(set(bands)) or bands[0] < 0:
        raise DataError("range bands must be increasing non-negative integers", field=f"{name}.range_bands", value=bands, rule="C3")
    basic = need(t, "basic", dict, name, "C3")
    rows = {"vehicle": ("german", "other"), "infantry": ("german", "other"), "area": ("any",)}
    for ttype, firers in rows.items():
        tt = need(basic, ttype, dict, f"{name}.basic", "C3")
        for f in firers:
            row = need(tt, f, list, f"{name}.basic.{ttype}", "C3")
            if len(row) != len(bands) + 1 or any(not isinstance(x, int) or isinstance(x, bool) for x in row):
                raise DataError(f"needs {len(bands) + 1} integer To Hit numbers (one per range band)",
                                field=f"{name}.basic.{ttype}.{f}", value=row, rule="C3")
    drm = need(t, "drm", dict, name, "C3")
    for k in ("case_j_target_moving", "mounted_motorcyclist", "mounted_bicyclist"):
        need(drm, k, int, f"{name}.drm", "ASL-TGT-01")
    allowed = need(need(t, "target_type", dict, name, "ASL-TGT-01"), "vs_motorcyclists", list, f"{name}.target_type", "ASL-TGT-01")
    for v in allowed:
        if v not in ("infantry", "area"):
            raise DataError("expected infantry or area (riders are never fired on as a vehicle)",
                            field=f"{name}.target_type.vs_motorcyclists", value=v, rule="ASL-TGT-01")


@cache
def tohit_table(rules: Rules) -> ToHitTable:
    """Typed view of `asl.tohit` (C3)."""
    t = rules["asl.tohit"]
    basic: dict[tuple[TargetType, FirerRow], tuple[int, ...]] = {}
    for ttype, rows in t["basic"].items():
        for firer, values in rows.items():
            basic[(TargetType[ttype.upper()], FirerRow[firer.upper()])] = tuple(values)
    d = t["drm"]
    return ToHitTable(tuple(t["range_bands"]), basic, d["case_j_target_moving"], d["mounted_motorcyclist"], d["mounted_bicyclist"],
                      frozenset(TargetType[v.upper()] for v in t["target_type"]["vs_motorcyclists"]))


# --- Morale, Random Selection, Casualty Reduction (A10, A.9, A7.302, A17) -----------------

@dataclass(frozen=True)
class MoraleSettings:
    """Settings of the MC / PTC / Random Selection / Casualty Reduction / wound rules."""

    broken_fails: str
    pin_on_equal: bool
    leadership_applies_to_self: bool
    ptc_broken_exempt: bool
    ties: TieRule
    kia_survivors_break: bool
    reduction: Mapping[str, str]
    wound_morale_penalty: int
    wound_leadership_penalty: int
    wounded_mf: int
    bail_out_nmc_drm: int
    report_leader_loss: bool
    bail_out_broken_fails: str = "casualty_reduction"
    bail_out_smc: str = "eliminated"


def _validate_morale(name: str, t: dict) -> None:
    mc = need(t, "morale_check", dict, name, "A10")
    bf = need(mc, "broken_fails", str, f"{name}.morale_check", "A10")
    if bf not in ("eliminate", "casualty_reduction"):
        raise DataError("expected eliminate or casualty_reduction", field=f"{name}.morale_check.broken_fails", value=bf, rule="A10")
    need(mc, "pin_on_equal", bool, f"{name}.morale_check", "A7.8")
    need(need(t, "leadership", dict, name, "A10.7"), "applies_to_self", bool, f"{name}.leadership", "A10.7")
    need(need(t, "pin_task_check", dict, name, "A7.8"), "broken_units_exempt", bool, f"{name}.pin_task_check", "A7.8")
    rs = need(t, "random_selection", dict, name, "A.9")
    ties = need(rs, "ties", str, f"{name}.random_selection", "A.9")
    if ties not in TieRule.choices():
        raise DataError(f"expected one of {TieRule.choices()}", field=f"{name}.random_selection.ties", value=ties, rule="A.9")
    need(need(t, "kia", dict, name, "A7.301"), "survivors_break", bool, f"{name}.kia", "A7.301")
    cr = need(t, "casualty_reduction", dict, name, "A7.302")
    expected = {"squad": ("half_squad", "eliminated"), "half_squad": ("eliminated",), "crew": ("eliminated",),
                "smc": ("wounded", "eliminated"), "wounded_smc": ("eliminated",)}
    for k, allowed in expected.items():
        v = need(cr, k, str, f"{name}.casualty_reduction", "A7.302")
        if v not in allowed:
            raise DataError(f"expected one of {list(allowed)}", field=f"{name}.casualty_reduction.{k}", value=v, rule="A7.302")
    w = need(t, "wounds", dict, name, "A17")
    for k in ("morale_penalty", "leadership_penalty", "wounded_mf"):
        if need(w, k, int, f"{name}.wounds", "A17") < 0:
            raise DataError("must be 0 or more", field=f"{name}.wounds.{k}", value=w[k], rule="A17")
    bo = need(t, "bail_out", dict, name, "D6.24")
    need(bo, "nmc_drm", int, f"{name}.bail_out", "D6.24")
    bbf = need(bo, "broken_fails", str, f"{name}.bail_out", "ASL-RES-03")
    if bbf not in ("eliminate", "casualty_reduction"):
        raise DataError("expected eliminate or casualty_reduction", field=f"{name}.bail_out.broken_fails", value=bbf, rule="ASL-RES-03")
    smc = need(bo, "smc", str, f"{name}.bail_out", "ASL-RES-03")
    if smc not in ("wounded", "eliminated"):
        raise DataError("expected wounded or eliminated", field=f"{name}.bail_out.smc", value=smc, rule="ASL-RES-03")
    need(need(t, "leader_loss", dict, name, "A10.2"), "report", bool, f"{name}.leader_loss", "A10.2")


@cache
def morale_settings(rules: Rules) -> MoraleSettings:
    """Typed view of `asl.morale`."""
    t = rules["asl.morale"]
    return MoraleSettings(
        t["morale_check"]["broken_fails"], t["morale_check"]["pin_on_equal"], t["leadership"]["applies_to_self"],
        t["pin_task_check"]["broken_units_exempt"], TieRule[t["random_selection"]["ties"].upper()],
        t["kia"]["survivors_break"], dict(t["casualty_reduction"]), t["wounds"]["morale_penalty"],
        t["wounds"]["leadership_penalty"], t["wounds"]["wounded_mf"], t["bail_out"]["nmc_drm"], t["leader_loss"]["report"],
        t["bail_out"]["broken_fails"], t["bail_out"]["smc"])


# --- Infantry (A1, A4, A5) ----------------------------------------------------------------

@dataclass(frozen=True)
class UnitTypeSpec:
    size: Size
    squad_equivalent: Fraction
    smc: bool
    mf: int


@dataclass(frozen=True)
class InfantrySettings:
    types: Mapping[UnitType, UnitTypeSpec]
    leader_bonus: int
    double_time: int
    stacking_squad_equivalents: int
    stacking_smc: int
    counters: Mapping[str, Mapping[str, Any]]
    ipc: Mapping[UnitType, int]
    mf_per_excess_pp: int


def _validate_infantry(name: str, t: dict) -> None:
    types = need(t, "type", dict, name, "A1")
    for ut in UnitType.choices():
        spec = need(types, ut, dict, f"{name}.type", "A1")
        size = need(spec, "size", str, f"{name}.type.{ut}", "D15.1")
        if size not in Size.choices():
            raise DataError(f"expected one of {Size.choices()}", field=f"{name}.type.{ut}.size", value=size, rule="D15.1")
        to_fraction(need(spec, "squad_equivalent", (int, float, str), f"{name}.type.{ut}", "A5.1"), f"{name}.type.{ut}.squad_equivalent", "A5.1")
        need(spec, "smc", bool, f"{name}.type.{ut}", "A1")
        if need(spec, "mf", int, f"{name}.type.{ut}", "A4.1") < 1:
            raise DataError("must be at least 1", field=f"{name}.type.{ut}.mf", value=spec["mf"], rule="A4.1")
    mv = need(t, "movement", dict, name, "A4.1")
    need(mv, "leader_bonus", int, f"{name}.movement", "A4.12")
    need(mv, "double_time", int, f"{name}.movement", "A4.5")
    port = need(t, "portage", dict, name, "A4.42")
    ipc = need(port, "ipc", dict, f"{name}.portage", "A4.42")
    for ut in UnitType.choices():
        if need(ipc, ut, int, f"{name}.portage.ipc", "A4.42") < 0:
            raise DataError("must be 0 or more", field=f"{name}.portage.ipc.{ut}", value=ipc[ut], rule="A4.42")
    if need(port, "mf_per_excess_pp", int, f"{name}.portage", "A4.42") < 0:
        raise DataError("must be 0 or more", field=f"{name}.portage.mf_per_excess_pp", value=port["mf_per_excess_pp"], rule="A4.42")
    st = need(t, "stacking", dict, name, "A5.1")
    need(st, "squad_equivalents", int, f"{name}.stacking", "A5.1")
    need(st, "smc", int, f"{name}.stacking", "A5.1")
    for des, c in need(t, "counter", dict, name, "A1").items():
        ut = need(c, "type", str, f"{name}.counter.{des}", "A1")
        if ut not in UnitType.choices():
            raise DataError(f"expected one of {UnitType.choices()}", field=f"{name}.counter.{des}.type", value=ut, rule="A1")


@cache
def infantry_settings(rules: Rules) -> InfantrySettings:
    """Typed view of `asl.infantry`."""
    t = rules["asl.infantry"]
    types = {UnitType[k.upper()]: UnitTypeSpec(Size[v["size"].upper()], to_fraction(v["squad_equivalent"], k, "A5.1"), v["smc"], v["mf"])
             for k, v in t["type"].items() if k.upper() in UnitType.__members__}
    return InfantrySettings(types, t["movement"]["leader_bonus"], t["movement"]["double_time"],
                            t["stacking"]["squad_equivalents"], t["stacking"]["smc"], dict(t["counter"]),
                            {UnitType[k.upper()]: v for k, v in t["portage"]["ipc"].items() if k.upper() in UnitType.__members__},
                            t["portage"]["mf_per_excess_pp"])


# --- Motorcycles (D15) ---------------------------------------------------------------------

@dataclass(frozen=True)
class CapacitySpec:
    """What one size of counter carries (D15.1)."""

    machines: Capacity
    mmc: Size | None
    smc: int
    smc_sidecar: int

    def smc_limit(self, mtype: MachineType) -> int:
        return self.smc_sidecar if mtype is MachineType.SIDECAR else self.smc


@dataclass(frozen=True)
class MotorcycleSettings:
    capacity: Mapping[Capacity, CapacitySpec]
    portage: Mapping[tuple[MachineType, Capacity], int]
    bicycle_pp: int
    basic_mf: int
    mount_mf: int
    mount_fraction: Fraction
    start_mp: Fraction
    stop_mp: Fraction
    vca_change_mp: Fraction
    terrain_mp: Mapping[str, Fraction | None]
    wreck_on: int
    wreck_features: frozenset[str]
    wreck_hexsides: frozenset[str]
    bicycle_wreck_exempt: frozenset[str]
    second_smc_helping: int
    overrun_fraction: Fraction
    sidecar_mounted_fire: Fraction
    sidecar_support_weapons: frozenset[str]
    single_sidecar_sw_smc: int
    recovery_max: int
    bicycle_road_factor: Fraction
    bicycle_no_halving: frozenset[str]
    bicycle_descent_bonus: int
    bicycle_road_bonus: int
    vca_change_terrain: Mapping[str, Fraction]

    def vca_change_cost(self, terrain: str) -> Fraction:
        """MP to change VCA by one hexspine in a hex of this terrain (ASL-MOV-03)."""
        return self.vca_change_terrain.get(terrain, self.vca_change_mp)


_CAP_NAMES = {"three": Capacity.THREE, "two": Capacity.TWO, "single": Capacity.SINGLE}


def _validate_motorcycles(name: str, t: dict) -> None:
    cap = need(t, "capacity", dict, name, "ASL-CAP-01")
    for key, machines in _CAP_NAMES.items():
        c = need(cap, key, dict, f"{name}.capacity", "ASL-CAP-01")
        if need(c, "machines", int, f"{name}.capacity.{key}", "ASL-CAP-01") != machines.value:
            raise DataError(f"must be {machines.value}", field=f"{name}.capacity.{key}.machines", value=c["machines"], rule="ASL-CAP-01")
        mmc = need(c, "mmc", str, f"{name}.capacity.{key}", "ASL-CAP-01")
        if mmc not in ("none", "half_squad", "squad"):
            raise DataError("expected none, half_squad or squad", field=f"{name}.capacity.{key}.mmc", value=mmc, rule="ASL-CAP-01")
        for k in ("smc", "smc_sidecar"):
            if need(c, k, int, f"{name}.capacity.{key}", "ASL-CAP-01") < 0:
                raise DataError("must be 0 or more", field=f"{name}.capacity.{key}.{k}", value=c[k], rule="ASL-CAP-01")
    port = need(t, "portage", dict, name, "ASL-CAP-02")
    for mt in MachineType.choices():
        row = need(port, mt, dict, f"{name}.portage", "ASL-CAP-02")
        for key in _CAP_NAMES:
            if need(row, key, int, f"{name}.portage.{mt}", "ASL-CAP-02") < 0:
                raise DataError("must be 0 or more", field=f"{name}.portage.{mt}.{key}", value=row[key], rule="ASL-CAP-02")
    need(port, "bicycle_pp_when_carried", int, f"{name}.portage", "ASL-CAP-02")
    r = need(t, "riding", dict, name, "ASL-MOV-02")
    for k in ("basic_mf", "mount_mf"):
        if need(r, k, int, f"{name}.riding", "ASL-MOV-02") < 0:
            raise DataError("must be 0 or more", field=f"{name}.riding.{k}", value=r[k], rule="ASL-MOV-02")
    frac = to_fraction(need(r, "mount_fraction", (str, int, float), f"{name}.riding", "ASL-MOV-02"), f"{name}.riding.mount_fraction", "ASL-MOV-02")
    if not 0 < frac <= 1:
        raise DataError("must be in (0, 1]", field=f"{name}.riding.mount_fraction", value=r["mount_fraction"], rule="ASL-MOV-02")
    for k in ("start_mp", "stop_mp"):
        if to_fraction(need(r, k, (int, float, str), f"{name}.riding", "ASL-MOV-03"), f"{name}.riding.{k}", "ASL-MOV-03") < 0:
            raise DataError("must be 0 or more", field=f"{name}.riding.{k}", value=r[k], rule="ASL-MOV-03")
    if to_fraction(need(r, "vca_change_mp", (int, float, str), f"{name}.riding", "ASL-MOV-03"), f"{name}.riding.vca_change_mp",
                   "ASL-MOV-03") < 0:
        raise DataError("must be 0 or more", field=f"{name}.riding.vca_change_mp", value=r["vca_change_mp"], rule="ASL-MOV-03")
    for terrain, cost in need(t, "vca_change_terrain", dict, name, "ASL-MOV-03").items():
        if terrain == "rule":
            continue
        v = to_fraction(cost, f"{name}.vca_change_terrain.{terrain}", "ASL-MOV-03")
        if v < 0:
            raise DataError("must be 0 or more", field=f"{name}.vca_change_terrain.{terrain}", value=cost, rule="ASL-MOV-03")
    for terrain, cost in need(t, "terrain_mp", dict, name, "ASL-MOV-02").items():
        if terrain == "rule":
            continue
        v = to_fraction(cost, f"{name}.terrain_mp.{terrain}", "ASL-MOV-02", allow_na=True)
        if v is not None and v < 0:
            raise DataError("must be 0 or more", field=f"{name}.terrain_mp.{terrain}", value=cost, rule="ASL-MOV-02")
    w = need(t, "wreck_check", dict, name, "ASL-MOV-06")
    if not 1 <= need(w, "wreck_on", int, f"{name}.wreck_check", "ASL-MOV-06") <= 6:
        raise DataError("a dr from 1 to 6", field=f"{name}.wreck_check.wreck_on", value=w["wreck_on"], rule="ASL-MOV-06")
    for k in ("hex_features", "hexsides", "bicycle_exempt_features"):
        need(w, k, list, f"{name}.wreck_check", "ASL-MOV-06")
    need(need(t, "pushing", dict, name, "ASL-MOV-01"), "second_smc_helping", int, f"{name}.pushing", "ASL-MOV-01")
    to_fraction(need(need(t, "overrun", dict, name, "ASL-MOV-04"), "rider_fp_fraction", (str, int, float), f"{name}.overrun", "ASL-MOV-04"),
                f"{name}.overrun.rider_fp_fraction", "ASL-MOV-04")
    rf = need(t, "rider_fire", dict, name, "ASL-FIRE-01")
    to_fraction(need(rf, "sidecar_mounted_fire", (str, int, float), f"{name}.rider_fire", "ASL-FIRE-01"), f"{name}.rider_fire.sidecar_mounted_fire", "ASL-FIRE-01")
    need(rf, "sidecar_support_weapons", list, f"{name}.rider_fire", "ASL-FIRE-01")
    need(rf, "single_sidecar_sw_smc", int, f"{name}.rider_fire", "ASL-FIRE-01")
    if not 0 <= need(need(t, "recovery", dict, name, "ASL-RES-05"), "recovery_max", int, f"{name}.recovery", "ASL-RES-05") <= 6:
        raise DataError("a dr from 0 to 6", field=f"{name}.recovery.recovery_max", value=t["recovery"]["recovery_max"], rule="ASL-RES-05")
    b = need(t, "bicycle", dict, name, "ASL-BIC-01")
    to_fraction(need(b, "road_cost_factor", (str, int, float), f"{name}.bicycle", "ASL-BIC-01"), f"{name}.bicycle.road_cost_factor", "ASL-BIC-01")
    need(b, "no_halving_features", list, f"{name}.bicycle", "ASL-BIC-01")
    need(b, "descent_bonus_per_level", int, f"{name}.bicycle", "ASL-BIC-01")
    need(b, "road_bonus", int, f"{name}.bicycle", "ASL-BIC-01")


@cache
def motorcycle_settings(rules: Rules) -> MotorcycleSettings:
    """Typed view of `asl.motorcycles` (D15)."""
    t = rules["asl.motorcycles"]
    cap = {}
    for key, machines in _CAP_NAMES.items():
        c = t["capacity"][key]
        cap[machines] = CapacitySpec(machines, None if c["mmc"] == "none" else Size[c["mmc"].upper()], c["smc"], c["smc_sidecar"])
    portage = {(MachineType[mt.upper()], _CAP_NAMES[k]): v for mt, row in t["portage"].items() if isinstance(row, dict)
               for k, v in row.items()}
    r, w, rf, b = t["riding"], t["wreck_check"], t["rider_fire"], t["bicycle"]
    terrain = {k: to_fraction(v, k, "ASL-MOV-02", allow_na=True) for k, v in t["terrain_mp"].items() if k != "rule"}
    vca = to_fraction(r["vca_change_mp"], "vca_change_mp", "ASL-MOV-03")
    vca_terrain = {k: to_fraction(v, k, "ASL-MOV-03") for k, v in t["vca_change_terrain"].items() if k != "rule"}
    return MotorcycleSettings(
        cap, portage, t["portage"]["bicycle_pp_when_carried"], r["basic_mf"], r["mount_mf"],
        to_fraction(r["mount_fraction"], "mount_fraction", "ASL-MOV-02"), to_fraction(r["start_mp"], "start_mp", "ASL-MOV-03"),
        to_fraction(r["stop_mp"], "stop_mp", "ASL-MOV-03"), vca, terrain, w["wreck_on"], frozenset(w["hex_features"]),
        frozenset(w["hexsides"]), frozenset(w["bicycle_exempt_features"]), t["pushing"]["second_smc_helping"],
        to_fraction(t["overrun"]["rider_fp_fraction"], "rider_fp_fraction", "ASL-MOV-04"),
        to_fraction(rf["sidecar_mounted_fire"], "sidecar_mounted_fire", "ASL-FIRE-01"), frozenset(rf["sidecar_support_weapons"]),
        rf["single_sidecar_sw_smc"], t["recovery"]["recovery_max"], to_fraction(b["road_cost_factor"], "road_cost_factor", "ASL-BIC-01"),
        frozenset(b["no_halving_features"]), b["descent_bonus_per_level"], b["road_bonus"], vca_terrain)


# --- Terrain (B) ------------------------------------------------------------------------------

@dataclass(frozen=True)
class TerrainSpec:
    infantry_mf: Fraction | None
    tem: int
    open: bool


@dataclass(frozen=True)
class TerrainTable:
    terrain: Mapping[str, TerrainSpec]
    road_infantry_mf: Fraction
    ffmo: int
    ffnam: int


def _validate_terrain(name: str, t: dict) -> None:
    for k, v in need(t, "terrain", dict, name, "B1").items():
        path = f"{name}.terrain.{k}"
        to_fraction(need(v, "infantry_mf", (int, float, str), path, "B1"), f"{path}.infantry_mf", "B1", allow_na=True)
        need(v, "tem", int, path, "B1")
        need(v, "open", bool, path, "A4.6")
    to_fraction(need(need(t, "road", dict, name, "B3"), "infantry_mf", (int, float, str), f"{name}.road", "B3"), f"{name}.road.infantry_mf", "B3")
    f = need(t, "fire", dict, name, "A4.6")
    need(f, "ffmo", int, f"{name}.fire", "A4.6")
    need(f, "ffnam", int, f"{name}.fire", "A4.6")


@cache
def terrain_table(rules: Rules) -> TerrainTable:
    """Typed view of `asl.terrain`."""
    t = rules["asl.terrain"]
    terrain = {k: TerrainSpec(to_fraction(v["infantry_mf"], k, "B1", allow_na=True), v["tem"], v["open"]) for k, v in t["terrain"].items()}
    return TerrainTable(terrain, to_fraction(t["road"]["infantry_mf"], "road", "B3"), t["fire"]["ffmo"], t["fire"]["ffnam"])


# --- The board: coordinates, directions, neighbours (ASL-MOV-03) ------------------------------

@dataclass(frozen=True)
class BoardSettings:
    """The hex grid of seeds/asl/board.toml: columns, the rows of even- and odd-index columns, the
    names of the six hexsides and hexspines, and the (column, row) step across each hexside."""

    columns: int
    rows_even: tuple[int, int]
    rows_odd: tuple[int, int]
    hexsides: tuple[str, ...]
    hexspines: tuple[str, ...]
    neighbours_even: tuple[tuple[int, int], ...]
    neighbours_odd: tuple[tuple[int, int], ...]


def _validate_board(name: str, t: dict) -> None:
    rule = "ASL-MOV-03"
    g = need(t, "grid", dict, name, rule)
    cols = need(g, "columns", int, f"{name}.grid", rule)
    if not 1 <= cols <= 52:
        raise DataError("from 1 to 52 columns (A..Z, then AA..ZZ)", field=f"{name}.grid.columns", value=cols, rule=rule)
    for k in ("rows_even", "rows_odd"):
        rows = need(g, k, list, f"{name}.grid", rule)
        if len(rows) != 2 or any(not isinstance(r, int) or isinstance(r, bool) or r < 0 for r in rows) or rows[0] > rows[1]:
            raise DataError("expected [first row, last row], 0 or more", field=f"{name}.grid.{k}", value=rows, rule=rule)
    d = need(t, "directions", dict, name, rule)
    for k in ("hexsides", "hexspines"):
        names = need(d, k, list, f"{name}.directions", rule)
        if len(names) != 6 or len(set(names)) != 6 or any(not isinstance(x, str) or not x for x in names):
            raise DataError("six distinct names, clockwise", field=f"{name}.directions.{k}", value=names, rule=rule)
    if set(d["hexsides"]) & set(d["hexspines"]):
        raise DataError("a name is both a hexside and a hexspine", field=f"{name}.directions", value=sorted(set(d["hexsides"]) & set(d["hexspines"])),
                        rule=rule)
    n = need(t, "neighbours", dict, name, rule)
    steps = {}
    for parity in ("even", "odd"):
        row = need(n, parity, list, f"{name}.neighbours", rule)
        if len(row) != 6 or any(not isinstance(x, list) or len(x) != 2 or any(not isinstance(v, int) or isinstance(v, bool) for v in x)
                                for x in row):
            raise DataError("six [column step, row step] pairs", field=f"{name}.neighbours.{parity}", value=row, rule=rule)
        steps[parity] = row
    # The hex across hexside k must have us across the opposite hexside (k + 3).
    for parity, row in steps.items():
        for k, (dc, dr) in enumerate(row):
            other = steps["odd" if (dc % 2) != (parity == "odd") else "even"][(k + 3) % 6]
            if other != [-dc, -dr]:
                raise DataError(f"the hex across hexside {d['hexsides'][k]} does not have this one across the opposite hexside",
                                field=f"{name}.neighbours.{parity}", value=row, rule=rule)


@cache
def board_settings(rules: Rules) -> BoardSettings:
    """Typed view of `asl.board` (ASL-MOV-03)."""
    t = rules["asl.board"]
    g, d, n = t["grid"], t["directions"], t["neighbours"]
    return BoardSettings(g["columns"], tuple(g["rows_even"]), tuple(g["rows_odd"]), tuple(d["hexsides"]), tuple(d["hexspines"]),
                         tuple(tuple(x) for x in n["even"]), tuple(tuple(x) for x in n["odd"]))


register_validator("asl.board", _validate_board)
register_validator("asl.ift", _validate_ift)
register_validator("asl.tohit", _validate_tohit)
register_validator("asl.morale", _validate_morale)
register_validator("asl.infantry", _validate_infantry)
register_validator("asl.motorcycles", _validate_motorcycles)
register_validator("asl.terrain", _validate_terrain)
